package lint_test

import (
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/rules"
)

// A finding on a value reached through a gin macro points at the macro's definition (where a
// fix edits it) and lists the use as related.
func TestMacroUseIsRelated(t *testing.T) {
	src := "from t5x import utils\nEVAL_BS = 4096\ntrain/utils.DatasetConfig.batch_size = 128\ntrain_eval/utils.DatasetConfig.batch_size = %EVAL_BS\n"
	_, diags := lint.LintFile(lint.File{Path: "t.gin", Text: []byte(src)}, rules.All(), lint.Options{})
	for _, d := range diags {
		if d.Rule != "eval-batch-much-larger-than-train" {
			continue
		}
		if d.Line != 2 || d.Column != 11 {
			t.Errorf("finding at %d:%d, want the definition 2:11", d.Line, d.Column)
		}
		for _, r := range d.Related {
			if r.Line == 3 && r.Message == "train batch set here" && (r.EndLine != 3 || r.EndColumn != r.Column+3) {
				t.Errorf("train batch related %+v, want it to end after 128", r)
			}
		}
		for _, r := range d.Related {
			if r.Line == 4 && r.Column == 45 && r.Message == `used here as "%EVAL_BS"` {
				if r.EndLine != 4 || r.EndColumn != 53 {
					t.Errorf("use related %+v, want it to end at 4:53, after %%EVAL_BS", r)
				}
				return
			}
		}
		t.Fatalf("no related use: %+v", d.Related)
	}
	t.Fatalf("no eval-batch finding: %+v", diags)
}
