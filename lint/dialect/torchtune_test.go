package dialect

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// tcgDoc parses src for the torchtune/composer/generic tests; it fails the test when the front-end
// cannot read the text.
func tcgDoc(t *testing.T, f doc.Format, src string) *doc.Document {
	t.Helper()
	d := doc.Parse("test."+string(f), []byte(src), f, doc.Limits{})
	if d.Root == nil && strings.TrimSpace(src) != "" {
		t.Fatalf("parse failed: %+v", d.Problems)
	}
	return d
}

const ttRecipe = `# Config for multi-device full finetuning
output_dir: /tmp/torchtune/llama3_1_8B/full
tokenizer:
  _component_: torchtune.models.llama3.llama3_tokenizer
  path: /tmp/Meta-Llama-3.1-8B-Instruct/original/tokenizer.model
dataset:
  _component_: torchtune.datasets.alpaca_dataset
  packed: False
dataset_val:
  _component_: torchtune.datasets.alpaca_dataset
seed: null
shuffle: True
checkpointer:
  _component_: torchtune.training.FullModelHFCheckpointer
  checkpoint_dir: /tmp/Meta-Llama-3.1-8B-Instruct/
  checkpoint_files: [model-00001-of-00004.safetensors]
  model_type: LLAMA3
batch_size: 2
batch_size_val: ${batch_size}
run_val_every_n_steps: null
epochs: 1
max_steps_per_epoch: null
gradient_accumulation_steps: 8
metric_logger:
  _component_: torchtune.training.metric_logging.DiskLogger
  log_dir: ${output_dir}/logs
log_every_n_steps: 1
`

func TestTorchtuneValidationAndRetention(t *testing.T) {
	src := `model:
  _component_: torchtune.models.qwen3.qwen3_8b
seed: 42
batch_size: 8
batch_size_val: 4
dataset_val:
  _component_: torchtune.datasets.alpaca_dataset
run_val_every_n_steps: 100
save_every_n_steps: 500
dataloader:
  num_workers: 4
checkpointer:
  _component_: torchtune.training.FullModelHFCheckpointer
  keep_last_n_checkpoints: 3
metric_logger:
  _component_: torchtune.training.metric_logging.WandBLogger
  name: qwen-sft
enable_async_checkpointing: true
epochs: 2
max_steps_per_epoch: 50
`
	d := tcgDoc(t, doc.YAML, src)
	if got := Detect(d); got != Torchtune {
		t.Fatalf("Detect = %v", got.Name)
	}
	p := Torchtune.Normalize(d, Context{})
	wantFact(t, "eval batch", p.Eval.PerDeviceBatch, 4, plan.Explicit, "batch_size_val", 5)
	wantFact(t, "eval enabled", p.Eval.Enabled, true, plan.Explicit, "run_val_every_n_steps", 8)
	wantFact(t, "eval interval", p.Eval.Interval, plan.Interval{Value: 100, Unit: plan.Steps, Text: "100"}, plan.Explicit, "run_val_every_n_steps", 8)
	wantFact(t, "ckpt interval", p.Ckpt.Interval, plan.Interval{Value: 500, Unit: plan.Steps, Text: "500"}, plan.Explicit, "save_every_n_steps", 9)
	wantFact(t, "workers", p.Data.Workers, 4, plan.Explicit, "dataloader.num_workers", 11)
	wantFact(t, "prefetch", p.Data.Prefetch, 2, plan.Default, "dataloader.prefetch_factor", -1)
	wantFact(t, "retention", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 3}, plan.Explicit, "checkpointer.keep_last_n_checkpoints", 14)
	wantFact(t, "ckpt scope", p.Ckpt.Scope, plan.Sharded, plan.Explicit, "enable_async_checkpointing", 18)
	wantFact(t, "run name", p.Tracking.RunName, "qwen-sft", plan.Explicit, "metric_logger.name", 17)
	wantFact(t, "max steps", p.Train.MaxSteps, 100, plan.Derived, "max_steps_per_epoch", 20)
	if s := p.Seeds.Init; s.Value.Value != "42" || s.Value.Varies != plan.VariesByHost || factLine(s) != 3 {
		t.Errorf("init seed %+v", s)
	}
	if tr := p.Tracking.Trackers.Value; len(tr) != 1 || tr[0] != "wandb" {
		t.Errorf("trackers %v", tr)
	}
	if p.Train.GradAccum.Known() {
		t.Errorf("grad accum absent should stay unknown: %+v", p.Train.GradAccum)
	}
	// Releases up to 0.6.1 have no validation loop: nothing in the file can turn it on there,
	// and the newest commit read (unpinned) has one.
	for v, want := range map[string]bool{"0.5.0": true, "v0.6.1": true, "0.7.0": false, "": false} {
		if p := Torchtune.Normalize(d, Context{Targets: map[string]string{"torchtune": v}}); p.Eval.Unavailable != want {
			t.Errorf("torchtune %q: Eval.Unavailable %v, want %v", v, p.Eval.Unavailable, want)
		} else if e := p.Eval.Enabled; want && (e.Value || !e.Known() || p.Eval.Interval.Known()) {
			t.Errorf("torchtune %q: run_val_every_n_steps is read: %+v, interval %+v", v, e, p.Eval.Interval)
		}
	}
}

func TestTorchtuneOddShapes(t *testing.T) {
	cases := map[string]string{
		"empty":        "",
		"scalar root":  "just a string\n",
		"list root":    "- 1\n- 2\n",
		"wrong types":  "epochs: 1\nbatch_size: abc\nbatch_size_val: [1, 2]\nrun_val_every_n_steps: {a: 1}\nseed: {x: 1}\ncheckpointer: 5\ndataloader: 3\nmetric_logger: [a]\nsave_every_n_steps: true\n",
		"bad refs":     "loss: x\nbatch_size: ${nope}\nbatch_size_val: ${batch_size_val}\nrun_val_every_n_steps: ${oc.env:EVERY}\nseed: ${oc.env:RANK}\n",
		"nulls":        "optimizer: null\nbatch_size: null\nbatch_size_val: null\ncheckpointer: null\nmetric_logger: {_component_: null}\n",
		"huge numbers": "training: {}\nbatch_size: 99999999999999999999999\nrun_val_every_n_steps: 1e400\n",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			d := doc.Parse("x.yaml", []byte(src), doc.YAML, doc.Limits{})
			_ = detectTorchtune(d)
			p := Torchtune.Normalize(d, Context{Hosts: 2})
			if p == nil || p.Framework != "torchtune" {
				t.Fatalf("plan %+v", p)
			}
			if p.Train.PerDeviceBatch.Known() {
				t.Errorf("batch known from %q: %+v", src, p.Train.PerDeviceBatch)
			}
		})
	}
	// A self-reference ends, and the eval batch stays unknown but located.
	d := tcgDoc(t, doc.YAML, "epochs: 1\nbatch_size: 4\nbatch_size_val: ${batch_size_val}\n")
	p := Torchtune.Normalize(d, Context{})
	if p.Eval.PerDeviceBatch.Known() || factLine(p.Eval.PerDeviceBatch) != 3 {
		t.Errorf("self reference: %+v", p.Eval.PerDeviceBatch)
	}
	// Wrong-typed run_val_every_n_steps: enabled is unknown, not false.
	d = tcgDoc(t, doc.YAML, "epochs: 1\nbatch_size: 4\nrun_val_every_n_steps: often\n")
	p = Torchtune.Normalize(d, Context{})
	if p.Eval.Enabled.Known() || factLine(p.Eval.Enabled) != 3 {
		t.Errorf("odd interval: %+v", p.Eval.Enabled)
	}
}

func TestTorchtuneDetectNegative(t *testing.T) {
	// Hydra configs use _target_, not _component_; an HF file shares batch_size-like words only.
	for _, src := range []string{
		"trainer:\n  _target_: lightning.pytorch.Trainer\nbatch_size: 4\n",
		"per_device_train_batch_size: 4\ngradient_accumulation_steps: 2\noutput_dir: x\n",
		"model:\n  _component_: mylib.models.Foo\n",
	} {
		d := tcgDoc(t, doc.YAML, src)
		if s := detectTorchtune(d); s >= MinScore {
			t.Errorf("detectTorchtune(%q) = %d, want < %d", src, s, MinScore)
		}
	}
}

func TestTorchtuneEvalOnlyAndAsync(t *testing.T) {
	// An evaluation recipe: batch_size is the eval batch and no training behaviour is assumed.
	d := tcgDoc(t, doc.YAML, `model:
  _component_: torchtune.models.llama3_2.llama3_2_3b
checkpointer:
  _component_: torchtune.training.FullModelHFCheckpointer
seed: 1234
tasks: ["truthfulqa_mc2"]
batch_size: 8
`)
	if got := Detect(d); got != Torchtune {
		t.Fatalf("Detect = %v", got.Name)
	}
	p := Torchtune.Normalize(d, Context{})
	if p.Variant != "eval" {
		t.Errorf("variant %q", p.Variant)
	}
	wantFact(t, "eval batch", p.Eval.PerDeviceBatch, 8, plan.Explicit, "batch_size", 7)
	if p.Train.PerDeviceBatch.Known() || p.Eval.Enabled.Known() || p.Ckpt.Retention.Known() || p.Data.Workers.Known() || p.Seeds.Init.Known() {
		t.Errorf("training facts on an eval recipe: %+v", p)
	}

	// Async GRPO: the trainer's keys live under training:.
	d = tcgDoc(t, doc.YAML, `model:
  _component_: torchtune.models.qwen2_5.qwen2_5_3b
inference:
  batch_size: 1
training:
  batch_size: 16
  save_every_n_steps: 250
  seed: null
  checkpointer:
    _component_: torchtune.training.FullModelHFCheckpointer
    keep_last_n_checkpoints: 2
metric_logger:
  _component_: torchtune.training.metric_logging.WandBLogger
`)
	p = Torchtune.Normalize(d, Context{})
	if p.Variant != "async" {
		t.Errorf("variant %q", p.Variant)
	}
	wantFact(t, "batch", p.Train.PerDeviceBatch, 16, plan.Explicit, "training.batch_size", 6)
	wantFact(t, "save", p.Ckpt.Interval, plan.Interval{Value: 250, Unit: plan.Steps, Text: "250"}, plan.Explicit, "training.save_every_n_steps", 7)
	wantFact(t, "keep", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 2}, plan.Explicit, "training.checkpointer.keep_last_n_checkpoints", 11)
	if s := p.Seeds.Init; s.Key != "training.seed" || s.Value.Value != "null" || factLine(s) != 8 {
		t.Errorf("seed %+v", s)
	}
}

// The recipe's _component_ values are strong evidence on their own.
func TestTorchtuneDetectsStrongly(t *testing.T) {
	if s := detectTorchtune(tcgDoc(t, doc.YAML, ttRecipe)); s < 50 {
		t.Errorf("detect score %d, want strong (>= 50)", s)
	}
}

// TestTorchtuneOwnRecipeKeys: keys no stock recipe reads show a recipe of the project's own,
// whose behaviour the file does not tell (tuna-lm, interpolation-of-experts): a loss without an
// optimizer scores data (validate_offline.yaml), an eval_steps key is the recipe's validation
// interval, and a top-level num_workers its loader's workers.
func TestTorchtuneOwnRecipeKeys(t *testing.T) {
	base := "model:\n  _component_: torchtune.models.llama3_2.llama3_2_1b\ncheckpointer:\n  _component_: torchtune.training.FullModelHFCheckpointer\n  checkpoint_dir: /ckpt\nbatch_size: 4\n"
	p := Torchtune.Normalize(tcgDoc(t, doc.YAML, base+"loss:\n  _component_: torchtune.modules.loss.CEWithChunkedOutputLoss\n"), Context{})
	if p.Variant != "eval" || p.Eval.Enabled.Known() || p.Data.Workers.Known() {
		t.Errorf("a loss alone: variant %q, eval %+v, workers %+v", p.Variant, p.Eval.Enabled, p.Data.Workers)
	}
	train := base + "epochs: 5\noptimizer:\n  _component_: torch.optim.AdamW\n  lr: 2e-5\n"
	p = Torchtune.Normalize(tcgDoc(t, doc.YAML, train+"eval_steps: 2\nnum_workers: 2\n"), Context{})
	if p.Variant == "eval" || p.Eval.Enabled.Known() || p.Data.Workers.Known() || p.Eval.Enabled.Key != "eval_steps" || p.Data.Workers.Key != "num_workers" {
		t.Errorf("own keys: eval %+v, workers %+v", p.Eval.Enabled, p.Data.Workers)
	}
	p = Torchtune.Normalize(tcgDoc(t, doc.YAML, train), Context{})
	wantFact(t, "eval enabled", p.Eval.Enabled, false, plan.Default, "run_val_every_n_steps", -1)
	wantFact(t, "workers", p.Data.Workers, 0, plan.Default, "dataloader.num_workers", -1)
}

// The recipes a config's leading comments name decide whether it could validate: one that
// validates keeps the default "no evaluation" fact; only recipes without a validation loop make
// evaluation unavailable; a name torchtune ships no recipe of (a misnamed file, a project's own
// recipe) leaves it unknown unless a named recipe validates.
func TestTorchtuneRecipeNamesDecideValidation(t *testing.T) {
	body := "output_dir: /tmp/out\nmodel:\n  _component_: torchtune.models.llama3_2.llama3_2_1b\nbatch_size: 4\nepochs: 1\n"
	for _, c := range []struct {
		head               string
		known, unavailable bool
	}{
		{"# Config for multi-device full finetuning in full_finetune_distributed.py\n", true, false},
		{"# Config for single device knowledge distillation in knowledge_distillation_single_device.py\n", true, true},
		{"# Config for single device knowledge distillation in kd_single_device.py\n#   tune run knowledge_distillation_single_device --config x\n", false, false},
		{"# Config for async multi-node GRPO in dev/async_grpo.py\n#     tune run dev/async_grpo_full_finetune_distributed --config dev/qwen3B_async_grpo\n", false, false},
		{"# Config for QLoRA in lora_finetune_fsdp2.py\n#   tune run --nproc_per_node 8 lora_finetune_distributed --config x\n", true, false},
		{"# Config for SFT in my_recipe.py\n", false, false},
	} {
		p := Torchtune.Normalize(tcgDoc(t, doc.YAML, c.head+body), Context{})
		if e := p.Eval.Enabled; e.Known() != c.known || e.Known() && e.Value || p.Eval.Unavailable != c.unavailable {
			t.Errorf("%q: eval enabled %+v, unavailable %v; want known %v, unavailable %v", c.head, e, p.Eval.Unavailable, c.known, c.unavailable)
		}
	}
}

// In a copy of torchtune its own recipe files decide (Context.CheckoutRecipes): a fork's
// qat_lora_finetune_distributed.py without a validation loop makes evaluation unavailable, one
// of its single-device recipes that reads run_val_every_n_steps keeps the finding.
func TestTorchtuneCheckoutRecipes(t *testing.T) {
	body := "output_dir: /tmp/out\nmodel:\n  _component_: torchtune.models.llama3_2.llama3_2_1b\nbatch_size: 4\nepochs: 1\n"
	for name, validates := range map[string]bool{"qat_lora_finetune_distributed": false, "lora_finetune_single_device": true} {
		d := tcgDoc(t, doc.YAML, "# Config for finetuning in "+name+".py\n"+body)
		if p := Torchtune.Normalize(d, Context{}); p.Eval.Unavailable != validates {
			t.Errorf("%s at bd2a0fc: Eval.Unavailable %v", name, p.Eval.Unavailable)
		}
		ctx := Context{CheckoutRecipes: map[string]bool{name: validates, "full_finetune_distributed": true}}
		if p := Torchtune.Normalize(d, ctx); p.Eval.Unavailable == validates || !p.Eval.Enabled.Known() {
			t.Errorf("%s in a copy whose recipe validates=%v: Eval.Unavailable %v, enabled %+v", name, validates, p.Eval.Unavailable, p.Eval.Enabled)
		}
	}
	// A copy on a release before 0.7 whose own recipe file validates (a fork that took the loop
	// in): the file decides, not the version.
	d := tcgDoc(t, doc.YAML, "# Config for finetuning in full_finetune_distributed.py\n"+body)
	ctx := Context{CheckoutRecipes: map[string]bool{"full_finetune_distributed": true}, Targets: map[string]string{"torchtune": "0.6.0"}}
	if p := Torchtune.Normalize(d, ctx); p.Eval.Unavailable {
		t.Errorf("a 0.6 copy whose recipe validates: Eval.Unavailable")
	}
	ctx.CheckoutRecipes = nil
	if p := Torchtune.Normalize(d, ctx); !p.Eval.Unavailable {
		t.Errorf("torchtune 0.6.0, no copy's recipes: want Eval.Unavailable")
	}
}
