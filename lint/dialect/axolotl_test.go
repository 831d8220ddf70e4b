package dialect

import (
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// A trimmed copy of the shape of axolotl's examples/llama-3/lora-1b.yml (written here, not copied).
const axoLora = `base_model: NousResearch/Llama-3.2-1B
datasets:
  - path: teknium/GPT4-LLM-Cleaned
    type: alpaca
val_set_size: 0.1
output_dir: ./outputs/lora-out
sequence_len: 2048
sample_packing: true
wandb_project:
wandb_name:
gradient_accumulation_steps: 2
micro_batch_size: 2
num_epochs: 1
evals_per_epoch: 4
saves_per_epoch: 1
bf16: auto
`

func TestAxolotlEval(t *testing.T) {
	cases := []struct {
		name, src string
		enabled   bool
		origin    plan.Origin
		key       string
		line      int
		interval  plan.Fact[plan.Interval]
	}{
		{name: "no eval data", src: "micro_batch_size: 2\n", enabled: false, origin: plan.Default, key: "val_set_size", line: 0},
		{name: "val_set_size 0", src: "val_set_size: 0\neval_steps: 10\neval_strategy: \"no\"\n", enabled: false, origin: plan.Explicit, key: "val_set_size", line: 1},
		// with no version, the newest release: the Trainer's "no" (from axolotl 0.10; "epoch" before)
		{name: "eval data but no schedule", src: "val_set_size: 0.05\n", enabled: false, origin: plan.Default, key: "eval_strategy", line: 1},
		{name: "eval_steps", src: "val_set_size: 0.05\neval_steps: 50\n", enabled: true, origin: plan.Explicit, key: "eval_steps", line: 2,
			interval: plan.Set(plan.Interval{Value: 50, Unit: plan.Steps, Text: "50"}, "eval_steps", nil)},
		{name: "fractional eval_steps", src: "val_set_size: 0.05\neval_steps: 0.2\n", enabled: true, origin: plan.Explicit, key: "eval_steps", line: 2,
			interval: plan.Set(plan.Interval{Value: 0.2, Unit: plan.Ratio, Text: "0.2"}, "eval_steps", nil)},
		{name: "one eval per epoch over one epoch, no version", src: "val_set_size: 0.05\nevals_per_epoch: 1\n", enabled: false, origin: plan.Explicit, key: "evals_per_epoch", line: 2},
		{name: "one eval per epoch over two epochs", src: "val_set_size: 0.05\nevals_per_epoch: 1\nnum_epochs: 2\n", enabled: true, origin: plan.Explicit, key: "evals_per_epoch", line: 2,
			interval: plan.Set(plan.Interval{Value: 1, Unit: plan.EpochFraction, Text: "evals_per_epoch: 1"}, "evals_per_epoch", nil)},
		{name: "eval_strategy epoch", src: "val_set_size: 0.05\neval_strategy: epoch\n", enabled: true, origin: plan.Explicit, key: "eval_strategy", line: 2,
			interval: plan.Set(plan.Interval{Value: 1, Unit: plan.Epochs, Text: "epoch"}, "eval_strategy", nil)},
		{name: "old spelling", src: "val_set_size: 0.05\nevaluation_strategy: epoch\n", enabled: true, origin: plan.Explicit, key: "evaluation_strategy", line: 2},
		{name: "test_datasets", src: "test_datasets:\n  - path: x\n    type: alpaca\neval_steps: 20\n", enabled: true, origin: plan.Explicit, key: "eval_steps", line: 4},
		{name: "interpolated val_set_size", src: "val_set_size: ${VAL}\neval_steps: 20\n", origin: plan.Unknown, key: "val_set_size", line: 1},
		{name: "string val_set_size", src: "val_set_size: ten percent\n", origin: plan.Unknown, key: "val_set_size", line: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := hftPlan(t, Axolotl, doc.YAML, c.src, Context{})
			wantFact(t, "enabled", p.Eval.Enabled, c.enabled, c.origin, c.key, c.line)
			if c.interval.Origin != plan.Unknown {
				wantFact(t, "interval", p.Eval.Interval, c.interval.Value, c.interval.Origin, c.interval.Key, -1)
			}
		})
	}
}

// With eval data and neither eval_steps (an evals_per_epoch of one over one epoch sets none) nor
// eval_strategy, axolotl before 0.10 evaluated every epoch (HFCausalTrainerBuilder: "we have an
// eval set, but no steps defined, default to use epoch"; the us-inc fork at 0.8.0.dev0), and from
// 0.10 on leaves the Trainer's "no". Its rl builder before 0.10 evaluated whenever it had
// test_datasets, whatever val_set_size said: no claim. With a git install or a 0.10.0 dev build,
// no claim either; with no version, the newest release's.
func TestAxolotlEvalDefaultByVersion(t *testing.T) {
	epoch := plan.Interval{Value: 1, Unit: plan.Epochs, Text: "epoch"}
	for _, c := range []struct {
		version, src string
		origin       plan.Origin
		enabled      bool
		key          string
	}{
		{"0.8.0.dev0", "val_set_size: 0.05\n", plan.Default, true, "eval_strategy"},
		{"0.9.2", "val_set_size: 0.05\nevals_per_epoch: 1\n", plan.Default, true, "eval_strategy"},
		{"0.9.2", "rl: dpo\nval_set_size: 0.05\n", plan.Unknown, false, "eval_strategy"},
		{"0.10.0.dev0", "val_set_size: 0.05\n", plan.Unknown, false, "eval_strategy"},
		{"git", "val_set_size: 0.05\n", plan.Unknown, false, "eval_strategy"},
		{"0.10.0", "val_set_size: 0.05\n", plan.Default, false, "eval_strategy"},
		{"0.18.0", "val_set_size: 0.05\nevals_per_epoch: 1\n", plan.Explicit, false, "evals_per_epoch"},
		{"0.12.0", "rl: dpo\nval_set_size: 0.05\n", plan.Default, false, "eval_strategy"},
	} {
		p := hftPlan(t, Axolotl, doc.YAML, c.src, Context{Targets: map[string]string{"axolotl": c.version}})
		e := p.Eval.Enabled
		if e.Origin != c.origin || e.Known() && e.Value != c.enabled || e.Key != c.key {
			t.Errorf("%s %q: eval enabled %+v, want %v %v %s", c.version, c.src, e, c.origin, c.enabled, c.key)
		}
		if iv := p.Eval.Interval; e.Known() && e.Value && (!iv.Known() || iv.Value.Value != epoch.Value || iv.Value.Unit != epoch.Unit) {
			t.Errorf("%s %q: eval interval %+v, want every epoch", c.version, c.src, iv)
		}
	}
}

// An rl config's unset (or 0) save_total_limit was 5 before axolotl 0.10 (HFRLTrainerBuilder's
// `save_total_limit or 5`) and is 4 from it, as for every other config and with no version (the
// newest release); unknown for a git install.
func TestAxolotlRLRetentionDefault(t *testing.T) {
	for _, c := range []struct {
		version, src string
		n            int // 0: unknown
	}{
		{"0.8.0.dev0", "rl: dpo\n", 5},
		{"0.9.2", "rl: dpo\nsave_total_limit: 0\n", 5},
		{"0.9.2", "rl: dpo\nsave_total_limit: 2\n", 2},
		{"0.9.2", "base_model: m\n", 4},
		{"0.10.0", "rl: dpo\n", 4},
		{"", "rl: dpo\n", 4},
		{"git", "rl: dpo\n", 0},
		{"", "rl: dpo\nsave_total_limit: 3\n", 3},
		{"", "base_model: m\n", 4},
	} {
		ctx := Context{}
		if c.version != "" {
			ctx.Targets = map[string]string{"axolotl": c.version}
		}
		r := hftPlan(t, Axolotl, doc.YAML, c.src, ctx).Ckpt.Retention
		if c.n == 0 && r.Known() || c.n != 0 && (!r.Known() || r.Value.N != c.n || r.Value.Kind != plan.KeepLatest) {
			t.Errorf("%s %q: retention %+v, want %d latest", c.version, c.src, r, c.n)
		}
	}
}

func TestAxolotlRetention(t *testing.T) {
	cases := []struct {
		name, src string
		want      plan.Retention
		origin    plan.Origin
		key       string
		note      string
	}{
		{name: "limit written", src: "save_total_limit: 2\n", want: plan.Retention{Kind: plan.KeepLatest, N: 2}, origin: plan.Explicit, key: "save_total_limit"},
		{name: "zero means 4", src: "save_total_limit: 0\n", want: plan.Retention{Kind: plan.KeepLatest, N: 4}, origin: plan.Default, key: "save_total_limit", note: "0 counts as unset"},
		{name: "best kept", src: "val_set_size: 0.1\nsave_steps: 100\neval_steps: 50\nsave_total_limit: 2\nload_best_model_at_end: true\n",
			want: plan.Retention{Kind: plan.KeepBest, N: 2}, origin: plan.Explicit, key: "load_best_model_at_end"},
		{name: "best dropped when save is not a multiple of eval", src: "val_set_size: 0.1\nsave_steps: 120\neval_steps: 50\nsave_total_limit: 2\nload_best_model_at_end: true\n",
			want: plan.Retention{Kind: plan.KeepLatest, N: 2}, origin: plan.Explicit, key: "save_total_limit", note: "dropped by axolotl"},
		{name: "best dropped without save_steps", src: "val_set_size: 0.1\neval_steps: 50\nload_best_model_at_end: true\n",
			want:   plan.Retention{Kind: plan.KeepLatest, N: 4, DroppedBest: "load_best_model_at_end is dropped by axolotl unless eval data, save_steps and eval_steps are set and save_steps is a multiple of eval_steps"},
			origin: plan.Default, key: "save_total_limit", note: "the axolotl default (save_total_limit 4"},
		{name: "best from per-epoch values", src: "val_set_size: 0.1\nsaves_per_epoch: 2\nevals_per_epoch: 4\nload_best_model_at_end: true\n",
			want: plan.Retention{Kind: plan.KeepBest, N: 4}, origin: plan.Explicit, key: "load_best_model_at_end"},
		// normalize_config derives 1 / (count × num_epochs) and causal.py tests Python's % on
		// those floats: 0.5 % (1/6) leaves 2.8e-17, so axolotl drops the best-model reload
		// although 6 evaluations an epoch fall on 2 saves; 1/3 % 1/9 leaves nothing.
		{name: "best dropped when per-epoch floats leave a remainder", src: "val_set_size: 0.1\nsaves_per_epoch: 2\nevals_per_epoch: 6\nload_best_model_at_end: true\n",
			want: plan.Retention{Kind: plan.KeepLatest, N: 4, DroppedBest: "load_best_model_at_end is dropped by axolotl: saves_per_epoch 2 and evals_per_epoch 6 put every save on an evaluation, " +
				"but axolotl turns them into save_steps 0.5 and eval_steps 0.1667 (fractions of the run) and keeps the reload only when save_steps % eval_steps is exactly 0 on those floats, which it is not here; " +
				"use evals_per_epoch equal to saves_per_epoch, or save_steps and eval_steps in steps with save_steps a multiple of eval_steps"},
			origin: plan.Default, key: "save_total_limit", note: "the axolotl default (save_total_limit 4"},
		// without eval data the floats are not why the reload is dropped: the general reason
		{name: "best dropped without eval data, counts dividing", src: "saves_per_epoch: 2\nevals_per_epoch: 6\nload_best_model_at_end: true\n",
			want:   plan.Retention{Kind: plan.KeepLatest, N: 4, DroppedBest: "load_best_model_at_end is dropped by axolotl unless eval data, save_steps and eval_steps are set and save_steps is a multiple of eval_steps"},
			origin: plan.Default, key: "save_total_limit", note: "the axolotl default (save_total_limit 4"},
		// counts that do not divide: the general reason
		{name: "best dropped when per-epoch counts do not divide", src: "val_set_size: 0.1\nsaves_per_epoch: 2\nevals_per_epoch: 3\nload_best_model_at_end: true\n",
			want:   plan.Retention{Kind: plan.KeepLatest, N: 4, DroppedBest: "load_best_model_at_end is dropped by axolotl unless eval data, save_steps and eval_steps are set and save_steps is a multiple of eval_steps"},
			origin: plan.Default, key: "save_total_limit", note: "the axolotl default (save_total_limit 4"},
		{name: "best from per-epoch floats that divide", src: "val_set_size: 0.1\nsaves_per_epoch: 1\nevals_per_epoch: 3\nnum_epochs: 3\nload_best_model_at_end: true\n",
			want: plan.Retention{Kind: plan.KeepBest, N: 4}, origin: plan.Explicit, key: "load_best_model_at_end"},
		{name: "early stopping turns keep-best on", src: "val_set_size: 0.1\nsave_steps: 100\neval_steps: 100\nearly_stopping_patience: 3\n",
			want: plan.Retention{Kind: plan.KeepBest, N: 4}, origin: plan.Explicit, key: "load_best_model_at_end"},
		// causal.py passes metric_for_best_model on its own; the Trainer then keeps the best
		// evaluated checkpoint when saves fall on evaluations (transformers @000945a).
		{name: "metric alone, saves on evaluations", src: "val_set_size: 0.1\nsave_steps: 100\neval_steps: 50\nmetric_for_best_model: eval_loss\n",
			want: plan.Retention{Kind: plan.KeepBest, N: 4}, origin: plan.Default, key: "save_total_limit", note: "metric_for_best_model keeps the best"},
		{name: "metric alone, saves between evaluations", src: "val_set_size: 0.1\nsave_steps: 120\neval_steps: 50\nsave_total_limit: 2\nmetric_for_best_model: eval_loss\n",
			want: plan.Retention{Kind: plan.KeepLatest, N: 2}, origin: plan.Explicit, key: "save_total_limit"},
		{name: "save_strategy best", src: "save_strategy: best\nmetric_for_best_model: eval_loss\n", want: plan.Retention{Kind: plan.KeepBest, N: 4}, origin: plan.Explicit, key: "save_strategy"},
		{name: "saving off", src: "save_strategy: \"no\"\n", want: plan.Retention{Kind: plan.KeepNone}, origin: plan.Explicit, key: "save_strategy"},
		{name: "wrong type", src: "save_total_limit: some\n", origin: plan.Unknown, key: "save_total_limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := hftPlan(t, Axolotl, doc.YAML, c.src, Context{})
			wantFact(t, "retention", p.Ckpt.Retention, c.want, c.origin, c.key, -1)
			if c.note != "" {
				hftNote(t, "retention", p.Ckpt.Retention, c.note)
			}
		})
	}
	p := hftPlan(t, Axolotl, doc.YAML, "save_steps: 0.25\n", Context{})
	wantFact(t, "save ratio", p.Ckpt.Interval, plan.Interval{Value: 0.25, Unit: plan.Ratio, Text: "0.25"}, plan.Explicit, "save_steps", 1)
	p = hftPlan(t, Axolotl, doc.YAML, "saves_per_epoch: 4\nnum_epochs: 2\n", Context{})
	wantFact(t, "saves per epoch", p.Ckpt.Interval, plan.Interval{Value: 0.25, Unit: plan.EpochFraction, Text: "saves_per_epoch: 4"}, plan.Explicit, "saves_per_epoch", 1)
	p = hftPlan(t, Axolotl, doc.YAML, "val_set_size: 0.1\nsave_steps: 100\neval_steps: 100\nload_best_model_at_end: true\n", Context{})
	wantFact(t, "best metric", p.Ckpt.BestMetric, "loss", plan.Default, "metric_for_best_model", 0)
}

func TestAxolotlBatchesSeedsTracking(t *testing.T) {
	p := hftPlan(t, Axolotl, doc.YAML, `micro_batch_size: 4
batch_size: 32
eval_batch_size: 8
seed: 7
sample_packing: true
eval_sample_packing: false
dataloader_num_workers: 2
wandb_project: my-proj
wandb_name: run-1
use_tensorboard: true
base_model: microsoft/resnet-50
`, Context{Hosts: 2, DevicesPerHost: 4})
	wantFact(t, "accum", p.Train.GradAccum, 8, plan.Derived, "gradient_accumulation_steps", 2)
	wantFact(t, "global", p.Train.GlobalBatch, 256, plan.Derived, "micro_batch_size", 1)
	wantFact(t, "eval batch", p.Eval.PerDeviceBatch, 8, plan.Explicit, "eval_batch_size", 3)
	wantFact(t, "seed", p.Seeds.Init, sameSeed("7", true), plan.Explicit, "seed", 4)
	wantFact(t, "drop last", p.Eval.DropLast, true, plan.Derived, "dataloader_drop_last", 6)
	wantFact(t, "prefetch", p.Data.Prefetch, 2, plan.Default, "dataloader_prefetch_factor", 0)
	wantFact(t, "trackers", p.Tracking.Trackers, []string{"wandb", "tensorboard"}, plan.Explicit, "", -1)
	wantFact(t, "run name", p.Tracking.RunName, "run-1", plan.Explicit, "wandb_name", 9)
	wantFact(t, "bn", p.BN.Present, true, plan.Derived, "base_model", 11)

	p = hftPlan(t, Axolotl, doc.YAML, "wandb_project: p\nwandb_mode: disabled\nmlflow_experiment_name: e\n", Context{})
	wantFact(t, "wandb disabled", p.Tracking.Trackers, []string{"mlflow"}, plan.Explicit, "mlflow_experiment_name", 3)
	p = hftPlan(t, Axolotl, doc.YAML, "swanlab_project: p\n", Context{})
	wantFact(t, "swanlab needs use_swanlab", p.Tracking.Trackers, []string{}, plan.Default, "swanlab_project", 1)
	p = hftPlan(t, Axolotl, doc.YAML, "use_swanlab: true\nswanlab_project: p\n", Context{})
	wantFact(t, "swanlab", p.Tracking.Trackers, []string{"swanlab"}, plan.Explicit, "use_swanlab", 1)
	p = hftPlan(t, Axolotl, doc.YAML, "wandb_project: ${oc.env:PROJECT}\n", Context{})
	wantFact(t, "interpolated project", p.Tracking.Trackers, nil, plan.Unknown, "wandb_project", 1)

	p = hftPlan(t, Axolotl, doc.YAML, "micro_batch_size: two\nseed: ${oc.env:LOCAL_RANK}\ngradient_accumulation_steps: [1]\n", Context{})
	wantFact(t, "train batch", p.Train.PerDeviceBatch, 0, plan.Unknown, "micro_batch_size", 1)
	wantFact(t, "eval batch follows", p.Eval.PerDeviceBatch, 0, plan.Unknown, "eval_batch_size", 0)
	wantFact(t, "accum", p.Train.GradAccum, 0, plan.Unknown, "gradient_accumulation_steps", 3)
	if s := p.Seeds.Init; s.Value.Varies != plan.VariesByHost || s.Origin != plan.Explicit {
		t.Errorf("rank seed: %+v", s)
	}
	p = hftPlan(t, Axolotl, doc.YAML, "micro_batch_size: 4\n", Context{})
	wantFact(t, "default accum", p.Train.GradAccum, 1, plan.Default, "gradient_accumulation_steps", 0)
	wantFact(t, "no hosts", p.Train.GlobalBatch, 0, plan.Unknown, "", -1)
	p = hftPlan(t, Axolotl, doc.YAML, "{}\n", Context{})
	wantFact(t, "empty: micro", p.Train.PerDeviceBatch, 1, plan.Default, "micro_batch_size", 0)
	hftNote(t, "empty: micro", p.Train.PerDeviceBatch, "axolotl")
	wantFact(t, "empty: eval batch", p.Eval.PerDeviceBatch, 1, plan.Default, "eval_batch_size", 0)
}

func TestAxolotlTrackerModes(t *testing.T) {
	p := hftPlan(t, Axolotl, doc.YAML, "use_swanlab: true\nswanlab_project: p\nswanlab_mode: disabled\nswanlab_experiment_name: e1\n", Context{})
	wantFact(t, "swanlab disabled", p.Tracking.Trackers, []string{}, plan.Default, "use_swanlab", 1)
	p = hftPlan(t, Axolotl, doc.YAML, "use_swanlab: true\nswanlab_project: p\nswanlab_experiment_name: e1\n", Context{})
	wantFact(t, "swanlab run", p.Tracking.RunName, "e1", plan.Explicit, "swanlab_experiment_name", 3)
	p = hftPlan(t, Axolotl, doc.YAML, "use_wandb: false\nuse_mlflow: true\nmlflow_run_name: r\n", Context{})
	wantFact(t, "mlflow", p.Tracking.Trackers, []string{"mlflow"}, plan.Explicit, "use_mlflow", 2)
	wantFact(t, "mlflow run", p.Tracking.RunName, "r", plan.Explicit, "mlflow_run_name", 3)
}

// TestAxolotlLoaderDefaults: with no loader option set, axolotl from v0.11.0 gives one worker
// per GPU and a prefetch factor of 256 (default_dataloader_opts), so the workers are not the
// Trainer's 0; before v0.11.0 they are; one option set keeps the Trainer's defaults for the
// rest; at a target that is no version neither is known.
func TestAxolotlLoaderDefaults(t *testing.T) {
	norm := func(src, target string) *plan.Plan {
		ctx := Context{}
		if target != "" {
			ctx.Targets = map[string]string{"axolotl": target}
		}
		return Axolotl.Normalize(parseYAMLDoc(t, src), ctx)
	}
	if p := norm(axoLora, ""); p.Data.Workers.Known() || p.Data.Prefetch.Value != 256 || p.Data.Prefetch.Origin != plan.Default {
		t.Errorf("newest: workers %+v, prefetch %+v", p.Data.Workers, p.Data.Prefetch)
	}
	if p := norm(axoLora, "0.10.1"); !p.Data.Workers.Known() || p.Data.Workers.Value != 0 {
		t.Errorf("0.10.1: workers %+v", p.Data.Workers)
	}
	if p := norm(axoLora, "git"); p.Data.Workers.Known() || p.Data.Prefetch.Known() {
		t.Errorf("git: workers %+v, prefetch %+v", p.Data.Workers, p.Data.Prefetch)
	}
	if p := norm(axoLora+"dataloader_pin_memory: true\n", ""); !p.Data.Workers.Known() || p.Data.Workers.Value != 0 {
		t.Errorf("pin memory set: workers %+v", p.Data.Workers)
	}
}
