package dialect

import (
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// The shape of LLaMA-Factory's examples/train_lora/*_sft.yaml (written here, not copied).
const lfSFT = `model_name_or_path: Qwen/Qwen3-4B-Instruct-2507
stage: sft
do_train: true
finetuning_type: lora
lora_target: all
dataset: identity,alpaca_en_demo
template: qwen3_nothink
cutoff_len: 2048
output_dir: saves/qwen3-4b/lora/sft
logging_steps: 10
save_steps: 500
report_to: none
per_device_train_batch_size: 1
gradient_accumulation_steps: 8
val_size: 0.1
per_device_eval_batch_size: 1
eval_strategy: steps
eval_steps: 500
`

func TestLlamaFactoryV0(t *testing.T) {
	p := hftPlan(t, LlamaFactory, doc.YAML, lfSFT, Context{})
	if p.Variant != "v0" {
		t.Errorf("variant %q", p.Variant)
	}
	hftFact(t, "train batch", p.Train.PerDeviceBatch, 1, plan.Explicit, "per_device_train_batch_size", 13)
	hftFact(t, "accum", p.Train.GradAccum, 8, plan.Explicit, "gradient_accumulation_steps", 14)
	hftFact(t, "eval batch", p.Eval.PerDeviceBatch, 1, plan.Explicit, "per_device_eval_batch_size", 16)
	hftFact(t, "eval enabled", p.Eval.Enabled, true, plan.Explicit, "eval_strategy", 17)
	hftFact(t, "eval interval", p.Eval.Interval, plan.Interval{Value: 500, Unit: plan.Steps, Text: "500"}, plan.Explicit, "eval_steps", 18)
	hftFact(t, "ckpt interval", p.Ckpt.Interval, plan.Interval{Value: 500, Unit: plan.Steps, Text: "500"}, plan.Explicit, "save_steps", 11)
	hftFact(t, "retention", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepAll}, plan.Default, "save_total_limit", 0)
	hftNote(t, "retention", p.Ckpt.Retention, "LLaMA-Factory")
	hftFact(t, "trackers", p.Tracking.Trackers, []string{}, plan.Explicit, "report_to", 12)
	hftFact(t, "workers", p.Data.Workers, 0, plan.Default, "dataloader_num_workers", 0)
	hftNote(t, "workers", p.Data.Workers, "transformers v5")
	hftFact(t, "init seed", p.Seeds.Init, sameSeed("42", true), plan.Default, "seed", 0)
	hftFact(t, "sharding", p.Data.Sharding, plan.GlobalIndexSampler, plan.Default, "", 0)
	if got := Detect(hftDoc(t, doc.YAML, lfSFT)); got != LlamaFactory {
		t.Errorf("detected %s", got.Name)
	}

	// val_size provides eval data; only eval_strategy schedules evaluation.
	p = hftPlan(t, LlamaFactory, doc.YAML, "stage: sft\nfinetuning_type: lora\nval_size: 0.1\n", Context{})
	hftFact(t, "no eval_strategy", p.Eval.Enabled, false, plan.Default, "eval_strategy", 0)
	hftNote(t, "no eval_strategy", p.Eval.Enabled, "Trainer default")

	p = hftPlan(t, LlamaFactory, doc.YAML, "stage: sft\nfinetuning_type: lora\nreport_to: none\nuse_swanlab: true\n", Context{})
	hftFact(t, "swanlab", p.Tracking.Trackers, []string{"swanlab"}, plan.Explicit, "use_swanlab", 4)
	p = hftPlan(t, LlamaFactory, doc.YAML, "stage: sft\nreport_to: [wandb, swanlab]\nuse_swanlab: true\n", Context{})
	hftFact(t, "swanlab once", p.Tracking.Trackers, []string{"wandb", "swanlab"}, plan.Explicit, "report_to", 2)
	p = hftPlan(t, LlamaFactory, doc.YAML, "stage: sft\nper_device_train_batch_size: ${BS}\nseed: ${oc.env:NODE_RANK}\n", Context{})
	hftFact(t, "interpolated batch", p.Train.PerDeviceBatch, 0, plan.Unknown, "per_device_train_batch_size", 2)
	if s := p.Seeds.Init; s.Value.Varies != plan.VariesByHost {
		t.Errorf("rank seed: %+v", s)
	}
}

func TestLlamaFactoryV1(t *testing.T) {
	src := `model: Qwen/Qwen3-0.6B
model_class: llm
dist_config:
  name: fsdp2
cp_size: 2
train_dataset: data/v1_sft_demo.yaml
micro_batch_size: 2
global_batch_size: 32
save_steps: 100
save_total_limit: 3
max_steps: 10
`
	p := hftPlan(t, LlamaFactory, doc.YAML, src, Context{Hosts: 1, DevicesPerHost: 8})
	if p.Variant != "v1" {
		t.Errorf("variant %q", p.Variant)
	}
	hftFact(t, "micro", p.Train.PerDeviceBatch, 2, plan.Explicit, "micro_batch_size", 7)
	hftFact(t, "global", p.Train.GlobalBatch, 32, plan.Explicit, "global_batch_size", 8)
	// 8 devices / cp_size 2 = 4 data-parallel ranks: 32 / (2 × 4) = 4.
	hftFact(t, "accum", p.Train.GradAccum, 4, plan.Derived, "global_batch_size", 8)
	hftFact(t, "max steps", p.Train.MaxSteps, 10, plan.Explicit, "max_steps", 11)
	hftFact(t, "eval", p.Eval.Enabled, false, plan.Default, "eval_dataset", 0)
	hftNote(t, "eval", p.Eval.Enabled, "its trainer has no periodic evaluation")
	hftFact(t, "workers", p.Data.Workers, 16, plan.Default, "batching_workers", 0)
	hftFact(t, "prefetch", p.Data.Prefetch, 2, plan.Default, "dataloader_prefetch_factor", 0)
	hftFact(t, "ckpt", p.Ckpt.Interval, plan.Interval{Value: 100, Unit: plan.Steps, Text: "100"}, plan.Explicit, "save_steps", 9)
	hftFact(t, "retention", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 3}, plan.Explicit, "save_total_limit", 10)
	hftFact(t, "seed", p.Seeds.Init, sameSeed("42", true), plan.Default, "seed", 0)
	if got := Detect(hftDoc(t, doc.YAML, src)); got != LlamaFactory {
		t.Errorf("detected %s", got.Name)
	}

	p = hftPlan(t, LlamaFactory, doc.YAML, "model: m\nmodel_class: llm\nmicro_batch_size: 4\n", Context{Hosts: 2, DevicesPerHost: 4})
	hftFact(t, "default global", p.Train.GlobalBatch, 32, plan.Derived, "global_batch_size", 3)
	hftFact(t, "default accum", p.Train.GradAccum, 1, plan.Derived, "global_batch_size", 3)
	hftFact(t, "default retention", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepAll}, plan.Default, "save_total_limit", 0)
	hftFact(t, "no save keys", p.Ckpt.Enabled, false, plan.Unknown, "", -1)

	p = hftPlan(t, LlamaFactory, doc.YAML, "model: m\nmodel_class: llm\nmicro_batch_size: 4\nglobal_batch_size: auto\n", Context{Hosts: 1, DevicesPerHost: 4})
	hftFact(t, "auto global", p.Train.GlobalBatch, 0, plan.Unknown, "global_batch_size", 4)
	hftFact(t, "auto accum", p.Train.GradAccum, 0, plan.Unknown, "", -1)
}
