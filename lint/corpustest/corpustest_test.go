package corpustest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestManifest(t *testing.T) {
	dir, entries := Manifest(t)
	if want := filepath.Join("..", "..", "..", "shared", "corpus"); dir != want {
		t.Errorf("dir %q, want %q", dir, want)
	}
	for _, e := range entries {
		if e.Path == "local_path" {
			t.Fatal("the header row is listed")
		}
		if e.Path == "" || e.Repo == "" || e.Label == "" || e.Format == "" {
			t.Errorf("incomplete row %+v", e)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, entries[0].Path)); err != nil {
		t.Errorf("first listed file: %v", err)
	}
}
