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
	// What is missing, and how to get it, is said on stderr and on the checker page.
	for _, want := range []string{"incomplete", "trainlint.wasm", "make site"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr does not say %q: %q", want, stderr.String())
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "check", "index.html")); !strings.Contains(string(b), "not part of this build") || strings.Contains(string(b), "trainlint.wasm\"") {
		t.Errorf("the checker page of a pages-only build does not say what is missing")
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
