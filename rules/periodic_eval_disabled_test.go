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
