package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSitePagesOnly: `trainlint site -o DIR --pages-only` writes the pages (the checker's
// assets are covered by the site package's browser test).
func TestSitePagesOnly(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"site", "-o", dir, "--pages-only"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	for _, p := range []string{"index.html", "check/index.html", "rules/eval-batch-smaller-than-train/index.html", "assets/style.css"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("missing %s", p)
		}
	}
	if !strings.Contains(stderr.String(), "pages") {
		t.Errorf("no build summary on stderr: %q", stderr.String())
	}
}

func TestSiteUsage(t *testing.T) {
	for _, args := range [][]string{{"site", "extra"}, {"site", "--nope"}, {"site", "-o", t.TempDir(), "--pages-only", "--serve", "0.0.0.0:8080"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, stderr.String())
		}
	}
}
