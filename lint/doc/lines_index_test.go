package doc

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
)

// newLineIndexBytewise is the byte-by-byte definition NewLineIndex's fast path replaced, kept as
// its specification.
func newLineIndexBytewise(src []byte) ([]int, bool) {
	first := 0
	if HasBOM(src) {
		first = 3
	}
	starts := []int{first}
	var high byte
	for i := first; i < len(src); i++ {
		c := src[i]
		high |= c
		switch c {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			starts = append(starts, i+1)
		}
	}
	return starts, high < 0x80
}

func TestNewLineIndexMatchesBytewise(t *testing.T) {
	inputs := []string{"", "\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\rb", "\r", "\r\n\r", "é\n", "\xEF\xBB\xBFa\nb",
		"\xEF\xBB\xBF", "\xEF\xBB", "abcdefgh\nijklmnopé", "abcdefghijklmnop\n", "1234567\x80", "\n\n\n"}
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "corpus", "*", "*"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			inputs = append(inputs, string(b))
		}
	}
	for _, in := range inputs {
		x := NewLineIndex([]byte(in))
		starts, ascii := newLineIndexBytewise([]byte(in))
		if !slices.Equal(x.starts, starts) || x.ascii != ascii {
			name := in
			if len(name) > 40 {
				name = name[:40] + "..."
			}
			t.Errorf("NewLineIndex(%q): starts/ascii differ from the bytewise definition (ascii %v, want %v)", name, x.ascii, ascii)
		}
	}
	if len(inputs) < 300 {
		t.Logf("corpus absent: %d inputs only", len(inputs))
	}
}

// TestPosLineSearch holds Pos's line search to sort.Search's (the definition it replaced) at
// every offset of texts with each kind of line break, a BOM, and no break at all.
func TestPosLineSearch(t *testing.T) {
	for _, s := range []string{"", "a", "\n", "\n\n\n", "a\nbc\r\ndef\rg", "\xEF\xBB\xBFa\nb\n", "é\nx\n\n", "x\ny"} {
		x := NewLineIndex([]byte(s))
		for off := -2; off <= len(s)+2; off++ {
			c := min(max(off, 0), len(s))
			want := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > c })
			if want < 1 {
				want = 1
			}
			if got := x.Pos(off); got.Line != want || got.Offset != c {
				t.Errorf("%q: Pos(%d) = %+v, want line %d offset %d", s, off, got, want, c)
			}
		}
	}
}
