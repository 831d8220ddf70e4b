//go:build !trainlint_lite

package rules

import (
	"encoding/json"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
)

// TestArchivesOnBothYAMLReaders lints every section of every rule archive a second time with
// the direct YAML reader switched off (lint.Options.NoDirectYAML), so that yaml.v3 reads the
// common files too. The diagnostics (positions, messages, fixes) must be exactly those of the
// default run, which TestRuleExamples holds to the archive's annotations, and the text after
// every safe and unsafe fix must be the same. It counts which reader read each YAML section:
// a switch that changed nothing would fail here.
func TestArchivesOnBothYAMLReaders(t *testing.T) {
	on, off := map[doc.YAMLReader]int{}, map[doc.YAMLReader]int{}
	sections := 0
	for _, r := range All() {
		a, err := LoadArchive(r.Name)
		if err != nil {
			continue // TestRuleExamples reports the missing archive
		}
		for i := range a.Examples {
			ex := &a.Examples[i]
			sections++
			def := ex.Options()
			v3 := def
			v3.NoDirectYAML = true

			ad, _ := lint.Analyze(ex.File(), def)
			av, _ := lint.Analyze(ex.File(), v3)
			on[ad.Doc.YAMLReader]++
			off[av.Doc.YAMLReader]++

			_, want := lint.LintFile(ex.File(), All(), def)
			_, got := lint.LintFile(ex.File(), All(), v3)
			if w, g := diagJSON(t, want), diagJSON(t, got); w != g {
				t.Errorf("testdata/%s.txtar:%d (%s): read by the %s reader and by yaml.v3 alone, the findings differ\n--- %s ---\n%s\n--- yaml.v3 ---\n%s",
					r.Name, ex.Line, ex.Name, ad.Doc.YAMLReader, ad.Doc.YAMLReader, w, g)
			}
			for _, unsafe := range []bool{false, true} {
				fw, errW := lint.FixFile(ex.File(), All(), def, unsafe)
				fg, errG := lint.FixFile(ex.File(), All(), v3, unsafe)
				if string(fw.Text) != string(fg.Text) || (errW == nil) != (errG == nil) {
					t.Errorf("testdata/%s.txtar:%d (%s), unsafe=%v: fixes differ between the readers\n--- %s (%v) ---\n%s--- yaml.v3 (%v) ---\n%s",
						r.Name, ex.Line, ex.Name, unsafe, ad.Doc.YAMLReader, errW, fw.Text, errG, fg.Text)
				}
			}
		}
	}
	t.Logf("%d sections; default: direct %d, yaml.v3 %d, other %d; NoDirectYAML: direct %d, yaml.v3 %d, other %d",
		sections, on[doc.YAMLDirect], on[doc.YAMLv3], on[doc.YAMLNone], off[doc.YAMLDirect], off[doc.YAMLv3], off[doc.YAMLNone])
	if on[doc.YAMLDirect] == 0 || on[doc.YAMLv3] == 0 {
		t.Errorf("default run: %v; want sections read by each reader", on)
	}
	if off[doc.YAMLDirect] != 0 || off[doc.YAMLv3] != on[doc.YAMLDirect]+on[doc.YAMLv3] {
		t.Errorf("NoDirectYAML run: %v; want yaml.v3 on every YAML section (%d)", off, on[doc.YAMLDirect]+on[doc.YAMLv3])
	}
}

func diagJSON(t *testing.T, ds []lint.Diagnostic) string {
	t.Helper()
	b, err := json.MarshalIndent(ds, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
