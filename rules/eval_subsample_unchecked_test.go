package rules

import (
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// min_examples is the sample floor: a batch limit is counted in examples (batches × eval batch
// per device × devices, known devices only) and a subset at or above the floor is not reported.
func TestEvalSubsampleFloor(t *testing.T) {
	src := "name: megatron_gpt\ntrainer:\n  devices: 8\n  num_nodes: 1\n  max_steps: 300000\n  val_check_interval: 2000\n  limit_val_batches: 50\n" +
		"model:\n  micro_batch_size: 4\n  global_batch_size: 32\n"
	run := func(opts map[string]any) int {
		o := lint.Options{Framework: "nemo"}
		if opts != nil {
			o.RuleOptions = map[string]map[string]any{"eval-subsample-unchecked": opts}
		}
		_, diags := lint.LintFile(lint.File{Path: "config.yaml", Text: []byte(src)}, []*lint.Rule{EvalSubsampleUnchecked}, o)
		n := 0
		for _, d := range diags {
			if d.Code == "TL205" {
				n++
			}
		}
		return n
	}
	if n := run(nil); n != 1 {
		t.Fatalf("no floor: want one finding, got %d", n)
	}
	// 50 batches × 4 per device × 8 devices = 1,600 examples.
	if n := run(map[string]any{"min_examples": 1601}); n != 1 {
		t.Fatalf("a floor above the subset: want one finding, got %d", n)
	}
	if n := run(map[string]any{"min_examples": 1600}); n != 0 {
		t.Fatalf("a floor the 1,600 examples reach: want none, got %d", n)
	}
}
