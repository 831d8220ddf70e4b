package compose

import (
	"strings"
	"testing"
)

// FuzzCompose composes a primary and two group files from fuzzed texts and overrides: no panic,
// no hang (cycles, self-references, deep nesting), no path outside the tree read.
func FuzzCompose(f *testing.F) {
	f.Add("defaults:\n  - g: a\n  - _self_\nx: 1\n", "defaults:\n  - /main\n", "# @package _global_\ny: 2\n", "g=b")
	f.Add("defaults:\n  - a\n", "defaults:\n  - ../../etc/passwd\n", "defaults:\n  - override /g: a\n", "+z.w=[1,2]")
	f.Add("defaults: [{g@_global_.p: [a, b]}, {optional g: c}]\n", "defaults:\n  - /g/b\n", "{}", "~x")
	f.Fuzz(func(t *testing.T, main, a, b, override string) {
		fsys := mapFS(map[string]string{"c/main.yaml": main, "c/g/a.yaml": a, "c/g/b.yaml": b, "c/a.yaml": a, "secret.yaml": "s: 1\n"})
		r := Compose(fsys, "c/main.yaml", strings.Split(override, " "), Limits{MaxNodes: 10_000})
		if r.Doc == nil || r.Doc.Root == nil {
			t.Fatal("no composed document")
		}
		for _, d := range r.Files {
			if !strings.HasPrefix(d.Path, "c/") {
				t.Fatalf("read %s outside the config directory", d.Path)
			}
		}
	})
}
