package main

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// TestTopLevelLayout: the repository's top level is the architecture (cmd/ lint/ rules/ wasm/
// site/ go.mod go.sum Makefile README.md LICENSE) plus dot-files; anything else committed there
// (a scratch config from a merge, a binary) fails here.
func TestTopLevelLayout(t *testing.T) {
	out, err := exec.Command("git", "-C", "../..", "ls-files").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v (the layout test needs git and the checkout)", err)
	}
	allowed := map[string]bool{"cmd": true, "lint": true, "rules": true, "wasm": true, "site": true,
		"go.mod": true, "go.sum": true, "Makefile": true, "README.md": true, "LICENSE": true}
	seen := map[string]bool{}
	for _, p := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		top, _, _ := strings.Cut(p, "/")
		if top == "" || strings.HasPrefix(top, ".") {
			continue
		}
		if !allowed[top] {
			seen[top] = true
		}
	}
	var extra []string
	for k := range seen {
		extra = append(extra, k)
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("top level holds %v: move them under cmd/, lint/, rules/, wasm/ or site/", extra)
	}
}
