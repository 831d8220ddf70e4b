package dialect

import (
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

func TestDeepSpeedDefaultsAndAuto(t *testing.T) {
	p := hftPlan(t, DeepSpeed, doc.JSON, `{"train_batch_size": 16, "zero_optimization": {"stage": 1}}`, Context{})
	wantFact(t, "single batch key", p.Train.GradAccum, 1, plan.Default, "gradient_accumulation_steps", 1)
	wantFact(t, "ckpt scope", p.Ckpt.Scope, plan.Sharded, plan.Default, "checkpoint.use_node_local_storage", 0)
	hftNote(t, "ckpt scope", p.Ckpt.Scope, "DeepSpeed default (0.19.6")
	wantFact(t, "no monitors", p.Tracking.Trackers, nil, plan.Unknown, "", 0)

	p = hftPlan(t, DeepSpeed, doc.JSON, `{
  "train_batch_size": "auto",
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_accumulation_steps": "auto",
  "tensorboard": {"enabled": "auto"}
}`, Context{Hosts: 1, DevicesPerHost: 8})
	wantFact(t, "auto global", p.Train.GlobalBatch, 0, plan.Unknown, "train_batch_size", 2)
	wantFact(t, "auto micro", p.Train.PerDeviceBatch, 0, plan.Unknown, "train_micro_batch_size_per_gpu", 3)
	wantFact(t, "auto accum", p.Train.GradAccum, 0, plan.Unknown, "gradient_accumulation_steps", 4)
	wantFact(t, "auto monitor", p.Tracking.Trackers, nil, plan.Unknown, "tensorboard.enabled", 5)

	p = hftPlan(t, DeepSpeed, doc.YAML, "train_batch_size: many\ntrain_micro_batch_size_per_gpu: 2\ncheckpoint:\n  use_node_local_storage: false\nwandb:\n  enabled: false\n", Context{})
	wantFact(t, "string global", p.Train.GlobalBatch, 0, plan.Unknown, "train_batch_size", 1)
	wantFact(t, "micro", p.Train.PerDeviceBatch, 2, plan.Explicit, "train_micro_batch_size_per_gpu", 2)
	wantFact(t, "no accumulation default with two keys", p.Train.GradAccum, 0, plan.Unknown, "", -1)
	wantFact(t, "explicit sharded", p.Ckpt.Scope, plan.Sharded, plan.Explicit, "checkpoint.use_node_local_storage", 4)
	wantFact(t, "monitor off", p.Tracking.Trackers, []string{}, plan.Explicit, "wandb", -1)

	p = hftPlan(t, DeepSpeed, doc.JSON, `{}`, Context{})
	wantFact(t, "empty", p.Train.GlobalBatch, 0, plan.Unknown, "", -1)
	wantFact(t, "empty accum", p.Train.GradAccum, 0, plan.Unknown, "", -1)
	p = hftPlan(t, DeepSpeed, doc.JSON, `{"train_batch_size": null, "train_micro_batch_size_per_gpu": 4}`, Context{})
	wantFact(t, "null is absent", p.Train.GradAccum, 1, plan.Default, "gradient_accumulation_steps", 1)
	p = hftPlan(t, DeepSpeed, doc.JSON, `[1, 2]`, Context{})
	wantFact(t, "array root", p.Train.GlobalBatch, 0, plan.Unknown, "", -1)
}
