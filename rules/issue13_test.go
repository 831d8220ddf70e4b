package rules

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// Help texts the txtar archives cannot check (they match messages).

// checkpoint-keeps-latest-not-best advises load_best_model_at_end; where the Trainer would then
// refuse to start, the help also names what else must change.
func TestRetentionHelpNamesAlignment(t *testing.T) {
	cases := []struct{ name, extra, want string }{
		{"multiple", "eval_strategy: steps\neval_steps: 100\nsave_steps: 150\n", "load_best_model_at_end also needs save_steps 150 to be a multiple of eval_steps 100, or the Trainer refuses to start"},
		{"strategies", "eval_strategy: epoch\nsave_steps: 150\n", "load_best_model_at_end also needs saving and evaluating on the same strategy"},
		{"aligned", "eval_strategy: steps\neval_steps: 100\nsave_steps: 200\n", ""},
	}
	for _, c := range cases {
		src := "model_name_or_path: m\nmax_steps: 5000\nsave_total_limit: 2\noutput_dir: o\n" + c.extra
		var got *lint.Diagnostic
		for _, d := range lintText(t, "hf.yaml", src, lint.Options{}) {
			if d.Code == "TL301" {
				d := d
				got = &d
			}
		}
		if got == nil {
			t.Errorf("%s: no TL301", c.name)
			continue
		}
		if c.want == "" && strings.Contains(got.Help, "also needs") || c.want != "" && !strings.Contains(got.Help, c.want) {
			t.Errorf("%s: TL301 help %q, want %q", c.name, got.Help, c.want)
		}
	}
}

// The error quotes what TrainingArguments raises.
func TestAlignmentErrorHelpQuotesTrainer(t *testing.T) {
	src := "model_name_or_path: m\neval_strategy: steps\neval_steps: 100\nsave_steps: 150\nload_best_model_at_end: true\noutput_dir: o\n"
	for _, d := range lintText(t, "hf.yaml", src, lint.Options{}) {
		if d.Code == "TL303" {
			if d.Severity != lint.Error || !strings.Contains(d.Help, `"... the saving steps to be a round multiple of the evaluation steps"`) {
				t.Errorf("TL303 %s help %q", d.Severity, d.Help)
			}
			return
		}
	}
	t.Error("no TL303")
}
