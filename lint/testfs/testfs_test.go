package testfs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	Write(t, dir, map[string]string{"a.toml": "x = 1\n", "sub/deep/b.yaml": "k: v\n"})
	for name, want := range map[string]string{"a.toml": "x = 1\n", "sub/deep/b.yaml": "k: v\n"} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
}
