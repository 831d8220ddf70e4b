package rules

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// An axolotl file that streams or pre-trains is told to give test_datasets only: axolotl 0.13
// and later refuse val_set_size beside pretraining_dataset or streaming, so the general advice
// (val_set_size or test_datasets) would lead to a config that stops at start-up.
func TestPeriodicEvalAdviceAxolotlPretraining(t *testing.T) {
	base := "base_model: meta-llama/Llama-3.2-1B\nmicro_batch_size: 4\nmax_steps: 1000\noutput_dir: ./out\n"
	for _, c := range []struct {
		name, extra   string
		want, without string
	}{
		{"sft", "datasets:\n  - path: yahma/alpaca-cleaned\n    type: alpaca\n", "val_set_size (e.g. 0.05) or test_datasets", "refuse"},
		{"pretraining", "pretraining_dataset:\n  - path: allenai/c4\n    type: pretrain\n", "give evaluation data with test_datasets", "val_set_size (e.g."},
		{"streaming", "streaming: true\ndatasets:\n  - path: yahma/alpaca-cleaned\n    type: alpaca\n", "give evaluation data with test_datasets", "val_set_size (e.g."},
	} {
		_, diags := lint.LintFile(lint.File{Path: "axolotl.yaml", Text: []byte(base + c.extra)}, []*lint.Rule{PeriodicEvalDisabled}, lint.Options{Framework: "axolotl"})
		var found *lint.Diagnostic
		for i := range diags {
			if diags[i].Code == "TL204" {
				found = &diags[i]
			}
		}
		if found == nil {
			t.Errorf("%s: no TL204 finding in %+v", c.name, diags)
			continue
		}
		if !strings.Contains(found.Help, c.want) || strings.Contains(found.Help, c.without) {
			t.Errorf("%s: help %q: want it to contain %q and not %q", c.name, found.Help, c.want, c.without)
		}
	}
}

// With eval data and no eval_steps or eval_strategy, axolotl before 0.10 evaluated every epoch
// (the us-inc fork at 0.8.0.dev0) and from 0.10 on does not; an evals_per_epoch of one over one
// epoch sets no eval_steps, so it too evaluated every epoch before 0.10 and never from it. With
// no version known, the newest release is judged. An rl config's unset save_total_limit was 5 before 0.10.
func TestAxolotlEvalAndRetentionByVersion(t *testing.T) {
	base := "base_model: mistral-community/Mixtral-8x22B-v0.1\ndatasets:\n  - path: tatsu-lab/alpaca\n    type: alpaca\nval_set_size: 0.05\noutput_dir: ./out\nmicro_batch_size: 1\nnum_epochs: 1\n"
	run := func(src, version string, rule *lint.Rule, code string) []string {
		o := lint.Options{Framework: "axolotl"}
		if version != "" {
			o.Targets = map[string]lint.Target{"axolotl": {Version: version, Source: "requirements.txt pins " + version}}
		}
		_, diags := lint.LintFile(lint.File{Path: "config.yml", Text: []byte(src)}, []*lint.Rule{rule}, o)
		var out []string
		for _, d := range diags {
			if d.Code == code {
				out = append(out, d.Message)
			}
		}
		return out
	}
	for _, c := range []struct {
		extra, version, want string // want "": no finding
	}{
		{"", "0.8.0.dev0", ""},
		{"", "", "eval_strategy is not set: the Trainer default runs no evaluation during training"},
		{"", "0.12.0", "eval_strategy is not set: the Trainer default runs no evaluation during training"},
		{"evals_per_epoch: 1\n", "0.9.2", ""},
		{"evals_per_epoch: 1\n", "", "evals_per_epoch 1 schedules no evaluation during training"},
		{"evals_per_epoch: 1\n", "0.18.0", "evals_per_epoch 1 schedules no evaluation during training"},
	} {
		got := run(base+c.extra, c.version, PeriodicEvalDisabled, "TL204")
		if c.want == "" && len(got) != 0 || c.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], c.want)) {
			t.Errorf("%q at axolotl %q: TL204 %q, want %q", c.extra, c.version, got, c.want)
		}
	}
	rl := "rl: dpo\ndatasets:\n  - path: Intel/orca_dpo_pairs\n    type: chatml.intel\nval_set_size: 0.05\nnum_epochs: 6\nevals_per_epoch: 4\nsaves_per_epoch: 1\nspecial_tokens:\n"
	for version, want := range map[string]string{
		"0.8.0.dev0": "save_total_limit is not set: the axolotl default 5 keeps only the 5 most recent checkpoints",
		"0.10.0":     "save_total_limit is not set: the axolotl default 4 keeps only the 4 most recent checkpoints",
		"":           "save_total_limit is not set: the axolotl default 4 keeps only the 4 most recent checkpoints",
	} {
		got := run(rl, version, CheckpointKeepsLatestNotBest, "TL301")
		if want == "" && len(got) != 0 || want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], want)) {
			t.Errorf("rl at axolotl %q: TL301 %q, want %q", version, got, want)
		}
	}
}
