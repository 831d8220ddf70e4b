// Package testfs writes small file trees for tests (config discovery, the CLI, CI recipes).
package testfs

import (
	"os"
	"path/filepath"
	"testing"
)

// Write creates files (slash-separated path → content) under dir, with the folders they need.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
