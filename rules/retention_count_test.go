package rules

import (
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// checkpoint-keeps-latest-not-best stays silent on a run that provably writes no more
// checkpoints than its limit keeps, and reports one that may write more: the count includes a
// save after the last step where the framework makes one.
func TestRetentionCountsTheRunsSaves(t *testing.T) {
	const hf = "model_name_or_path: m\noutput_dir: o\n"
	for _, c := range []struct {
		name, path, src string
		want            bool
	}{
		// The Trainer saves at 100, 200 and after the last step, 250: checkpoint-100 is deleted.
		{"steps with a final save", "hf.yaml", hf + "max_steps: 250\nsave_steps: 100\neval_strategy: steps\neval_steps: 50\nsave_total_limit: 2\n", true},
		{"steps ending on a save", "hf.yaml", hf + "max_steps: 200\nsave_steps: 100\neval_strategy: steps\neval_steps: 50\nsave_total_limit: 2\n", false},
		{"one epoch", "hf.yaml", hf + "num_train_epochs: 1\nsave_strategy: epoch\neval_strategy: epoch\nsave_total_limit: 2\n", false},
		{"three epochs", "hf.yaml", hf + "num_train_epochs: 3\nsave_strategy: epoch\neval_strategy: epoch\nsave_total_limit: 2\n", true},
		// wooseungw/panollava's configs/baseline/*.yaml, read as no framework's.
		{"in-house one epoch", "run.yaml", "training:\n  num_epochs: 1\n  save_strategy: \"epoch\"\n  save_total_limit: 2\n", false},
		{"in-house three epochs", "run.yaml", "training:\n  num_epochs: 3\n  save_strategy: \"epoch\"\n  save_total_limit: 2\n", true},
		{"in-house step budget", "run.yaml", "training:\n  num_epochs: 1\n  max_steps: 100\n  save_strategy: \"epoch\"\n  save_total_limit: 2\n", true},
		// A MaxText-style period in steps: 8 saves kept by a limit of 10, 800 saves not.
		{"period within the limit", "run.yaml", "steps: 400\ncheckpoint_period: 50\nmax_num_checkpoints_to_keep: 10\n", false},
		{"period beyond the limit", "run.yaml", "steps: 40000\ncheckpoint_period: 50\nmax_num_checkpoints_to_keep: 10\n", true},
	} {
		got := false
		for _, d := range lintText(t, c.path, c.src, lint.Options{Select: []string{"TL301"}}) {
			got = got || d.Code == "TL301"
		}
		if got != c.want {
			t.Errorf("%s: TL301 %v, want %v", c.name, got, c.want)
		}
	}
}
