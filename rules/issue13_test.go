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

// The k option of eval-batch-much-larger-than-train comes from the config file.
func TestEvalBatchMuchLargerOption(t *testing.T) {
	src := "model_name_or_path: m\nper_device_train_batch_size: 2\nper_device_eval_batch_size: 20\neval_strategy: steps\neval_steps: 10\noutput_dir: o\n"
	count := func(o lint.Options) int {
		n := 0
		for _, d := range lintText(t, "hf.yaml", src, o) {
			if d.Code == "TL209" {
				n++
			}
		}
		return n
	}
	if got := count(lint.Options{}); got != 1 {
		t.Errorf("default k 8: %d findings for 20 vs 2, want 1", got)
	}
	if got := count(lint.Options{RuleOptions: map[string]map[string]any{"eval-batch-much-larger-than-train": {"k": 16}}}); got != 0 {
		t.Errorf("k 16: %d findings for 20 vs 2, want 0", got)
	}
}

// TL209 names the granularity only where the keys state it: score_sde's training.batch_size
// and eval.batch_size are global (datasets.py divides them by the device count), the generic
// train.batch_size and eval.batch_size say nothing of it; the Trainer's are per device.
func TestEvalBatchMuchLargerGranularity(t *testing.T) {
	for _, c := range []struct{ path, src, want string }{
		{"g.yaml", "train:\n  batch_size: 8\neval:\n  batch_size: 1024\n", "eval batch 1024 is more than 8× the train batch 8"},
		{"hf.yaml", "model_name_or_path: m\nper_device_train_batch_size: 2\nper_device_eval_batch_size: 20\neval_strategy: steps\neval_steps: 10\noutput_dir: o\n",
			"per-device eval batch 20 is more than 8× the train batch 2"},
	} {
		var got []string
		for _, d := range lintText(t, c.path, c.src, lint.Options{}) {
			if d.Code == "TL209" {
				got = append(got, d.Message)
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: %q, want %q", c.path, got, c.want)
		}
	}
}
