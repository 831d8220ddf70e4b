package report

import (
	"strings"
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

func TestSummaryCountsFixable(t *testing.T) {
	for _, c := range []struct {
		safe, unsafe int
		want         string
	}{
		{0, 0, ""},
		{4, 0, ", 4 fixable with --fix"},
		{0, 2, ", 2 fixable with --fix --unsafe-fixes"},
		{1, 1, ", 1 fixable with --fix (1 more with --fix --unsafe-fixes)"},
	} {
		if got := fixable(c.safe, c.unsafe); got != c.want {
			t.Errorf("fixable(%d, %d) = %q, want %q", c.safe, c.unsafe, got, c.want)
		}
	}
	res := lint.NewResult()
	res.Files = []lint.FileInfo{{Path: "a.yaml"}}
	res.Diagnostics = []lint.Diagnostic{
		{Code: "TL202", Rule: "r", Severity: lint.Warning, File: "a.yaml", Line: 1, Column: 1, Fix: &lint.Fix{Applicability: lint.Safe}},
		{Code: "TL203", Rule: "s", Severity: lint.Info, File: "a.yaml", Line: 2, Column: 1},
	}
	var b strings.Builder
	if err := writeText(&b, res, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "\n2 findings (1 warning, 1 info) in 1 of 1 file, 1 fixable with --fix\n") {
		t.Errorf("summary:\n%s", b.String())
	}
}
