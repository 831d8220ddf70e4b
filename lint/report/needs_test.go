package report

import (
	"testing"

	"github.com/trainlint/trainlint/lint"
)

func TestNeedsHostsNote(t *testing.T) {
	res := lint.NewResult()
	if got := NeedsHostsNote(res); got != "" {
		t.Errorf("empty result: %q", got)
	}
	res.Files = []lint.FileInfo{{Path: "a.yaml", NeedsHosts: []string{"TL602"}}, {Path: "b.yaml"}}
	if got, want := NeedsHostsNote(res), "1 multi-host rule needs --hosts N (1 file does not state its host count; or set hosts under [context] in .trainlint.toml)"; got != want {
		t.Errorf("one file:\n got %q\nwant %q", got, want)
	}
	res.Files = append(res.Files, lint.FileInfo{Path: "c.yaml", NeedsHosts: []string{"TL601", "TL602"}})
	if got, want := NeedsHostsNote(res), "2 multi-host rules need --hosts N (2 files do not state their host count; or set hosts under [context] in .trainlint.toml)"; got != want {
		t.Errorf("two files:\n got %q\nwant %q", got, want)
	}
}
