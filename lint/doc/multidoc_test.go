package doc

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// multiDocScans is the three-scan definition multiDoc replaced, kept as its specification.
func multiDocScans(src []byte) bool {
	for _, m := range []string{"---", "...", "%"} {
		if bytes.HasPrefix(src, []byte(m)) || bytes.Contains(src, []byte("\n"+m)) || HasBOM(src) && bytes.HasPrefix(src[3:], []byte(m)) {
			return true
		}
	}
	return bytes.IndexByte(src, '\r') >= 0
}

func TestMultiDoc(t *testing.T) {
	cases := []string{"", "a: 1\n", "---\na: 1\n", "a: 1\n---\nb: 2\n", "a: 1\n...\n", "%YAML 1.2\n---\n",
		"a: 1\n%x\n", "\xEF\xBB\xBF---\n", "\xEF\xBB\xBFa: 1\n", "a: '--- x'\n", "a: 1\r\n", "a: 1\rb: 2",
		"a: 1\n--", "a: 1\n..", "\n", "\n%", "a: -- \n  ---x\n", "a:\n - ...\n", "\xEF\xBB"}
	for _, c := range cases {
		if got, want := multiDoc([]byte(c)), multiDocScans([]byte(c)); got != want {
			t.Errorf("multiDoc(%q) = %v, want %v", c, got, want)
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "corpus", "*", "*.y*ml"))
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := multiDoc(src), multiDocScans(src); got != want {
			t.Errorf("%s: multiDoc = %v, want %v", p, got, want)
		}
	}
}
