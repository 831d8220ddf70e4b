package dialect

import (
	"slices"
	"strings"
	"testing"
)

// litgptRejections is each start-up refusal of a LitGPT file as "key: message (until)".
func litgptRejections(t *testing.T, src string) []string {
	t.Helper()
	d := parseYAMLDoc(t, src)
	if got := Detect(d); got != LitGPT {
		t.Fatalf("detected %s, want litgpt", got.Name)
	}
	var out []string
	for _, r := range LitGPT.Normalize(d, Context{}).Rejections {
		if r.Package != "litgpt" || r.Since != "0.4.0" || r.Read != "0.5.13" || r.Node == nil {
			t.Errorf("%s: package %q since %q read %q node %v", r.Key, r.Package, r.Since, r.Read, r.Node)
		}
		s := r.Key + ": " + r.Message
		if r.Until != "" {
			s += " (until " + r.Until + ")"
		}
		out = append(out, s)
	}
	return out
}

// TestLitGPTStartupChecks: the refusals of TrainArgs.__post_init__, pretrain's and
// fine-tuning's validate_args and the batch asserts (litgpt v0.5.13), each from what the file
// writes; the same files with passing values are refused nothing.
func TestLitGPTStartupChecks(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       []string
	}{
		{"pretrain", `
model_name: pythia-14m
initial_checkpoint_dir: checkpoints/base
resume: auto
train:
  global_batch_size: 64
  micro_batch_size: 4
  epochs: 2
  max_steps: 100
  max_tokens: null
  max_norm: null
  lr_warmup_steps: 100
  lr_warmup_fraction: 0.1
eval:
  interval: 100
  max_new_tokens: 50
`, []string{
			"train.lr_warmup_fraction: train.lr_warmup_fraction and train.lr_warmup_steps are both set",
			"train.epochs: train.epochs is set, which pretrain does not support",
			"eval.max_new_tokens: eval.max_new_tokens is set, which pretrain does not support",
			"train.max_steps: train.max_steps is set, which pretrain does not support (until 0.5.13)",
			"train.max_tokens: train.max_tokens is null, which pretrain requires",
			"train.max_norm: train.max_norm is null, which pretrain requires",
			"initial_checkpoint_dir: initial_checkpoint_dir and resume are both set",
		}},
		{"pretrain that passes", `
model_name: pythia-14m
initial_checkpoint_dir: checkpoints/base
resume: false
train:
  global_batch_size: 64
  micro_batch_size: 4
  epochs: null
  max_tokens: 1000000
  lr_warmup_steps: 0
  lr_warmup_fraction: 0.1
eval:
  interval: 100
  max_new_tokens: null
`, nil},
		{"finetune", `
checkpoint_dir: checkpoints/base
devices: 4
num_nodes: 2
train:
  global_batch_size: 4
  micro_batch_size: 1
  epochs: null
  max_norm: 1.0
  tie_embeddings: false
  lr_warmup_fraction: 1.5
  lr_warmup_steps: null
eval:
  interval: 10
  max_new_tokens: null
`, []string{
			"train.lr_warmup_fraction: train.lr_warmup_fraction 1.5 is outside 0 to 1",
			"train.max_norm: train.max_norm is set, which fine-tuning does not support",
			"train.tie_embeddings: train.tie_embeddings is set, which fine-tuning does not support",
			"train.lr_warmup_fraction: train.lr_warmup_fraction is set, which fine-tuning does not support",
			"train.epochs: train.epochs is null, which fine-tuning requires",
			"eval.max_new_tokens: eval.max_new_tokens is null, which fine-tuning requires",
			"train.global_batch_size: train.global_batch_size 4 is less than devices × num_nodes = 8",
		}},
		{"lora without a length", `
checkpoint_dir: checkpoints/base
lora_r: 8
devices: 2
train:
  global_batch_size: 8
  micro_batch_size: 8
  epochs: 0
  max_steps: 0
eval:
  interval: 10
`, []string{
			"train.epochs: neither train.epochs nor train.max_steps is set",
			"train.global_batch_size: train.global_batch_size 8 gives 4 examples per rank (2 ranks), fewer than train.micro_batch_size 8",
		}},
		{"lora whose length is a placeholder", `
checkpoint_dir: checkpoints/base
lora_r: 8
train:
  epochs: $EPOCHS
  micro_batch_size: 1
eval:
  interval: 10
`, nil},
		{"lora that passes", `
checkpoint_dir: checkpoints/base
lora_r: 8
devices: 2
train:
  global_batch_size: 16
  micro_batch_size: 8
  epochs: 0
  max_steps: 10
  max_norm: null
eval:
  interval: 10
  max_new_tokens: 20
`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := litgptRejections(t, c.yaml)
			if !slices.Equal(got, c.want) {
				t.Errorf("rejections:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}

// TestLitGPTDetection: LitGPT's shape (TrainArgs under train:, EvalArgs under eval:, setup()
// arguments at the root) and nothing less.
func TestLitGPTDetection(t *testing.T) {
	for _, c := range []struct {
		yaml string
		want bool
	}{
		{"checkpoint_dir: c\ntrain:\n  epochs: 1\n  micro_batch_size: 2\neval:\n  interval: 5\n", true},
		{"out_dir: o\nprecision: bf16-true\ntrain:\n  epochs: 1\n  micro_batch_size: 2\neval:\n  max_iters: 5\n", true},
		// One TrainArgs field is a common word: not enough.
		{"checkpoint_dir: c\ntrain:\n  epochs: 1\neval:\n  interval: 5\n", false},
		// No eval: map of EvalArgs fields.
		{"checkpoint_dir: c\ntrain:\n  epochs: 1\n  micro_batch_size: 2\neval:\n  batch_size: 5\n", false},
		// No setup() argument at the root but one.
		{"seed: 1\ntrain:\n  epochs: 1\n  micro_batch_size: 2\neval:\n  interval: 5\n", false},
	} {
		d := parseYAMLDoc(t, c.yaml)
		if got := detectLitGPT(d) > 0; got != c.want {
			t.Errorf("%q: detected %v, want %v", c.yaml, got, c.want)
		}
	}
}

// TestLitGPTEvalIntervalZero: LitGPT's loops take step_count % eval.interval (pretrain.py at
// v0.5.11), so 0 is no evaluation schedule of its own: what the evaluations would cover is not
// claimed (a project's script reading the file may mean "never" by it).
func TestLitGPTEvalIntervalZero(t *testing.T) {
	src := "model_name: pythia-14m\nout_dir: out/pretrain\ndata: TinyStories\ntrain:\n  global_batch_size: 128\n  micro_batch_size: 4\n  max_tokens: 1000000\neval:\n  interval: 0\n  final_validation: false\n"
	d := parseYAMLDoc(t, src)
	p := LitGPT.Normalize(d, Context{})
	if p.Eval.Enabled.Known() || p.Eval.Subset.Known() || p.Eval.Interval.Known() {
		t.Errorf("interval 0: enabled %+v, subset %+v, interval %+v", p.Eval.Enabled, p.Eval.Subset, p.Eval.Interval)
	}
	d = parseYAMLDoc(t, strings.Replace(src, "interval: 0", "interval: 50", 1))
	if p = LitGPT.Normalize(d, Context{}); !p.Eval.Subset.Known() || p.Eval.Subset.Value.Value != 100 {
		t.Errorf("interval 50: subset %+v", p.Eval.Subset)
	}
}
