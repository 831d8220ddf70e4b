package dialect

import (
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

func TestDeepSpeedDefaultsAndAuto(t *testing.T) {
	p := hftPlan(t, DeepSpeed, doc.JSON, `{"train_batch_size": 16, "zero_optimization": {"stage": 1}}`, Context{})
	hftFact(t, "single batch key", p.Train.GradAccum, 1, plan.Default, "gradient_accumulation_steps", 1)
	hftFact(t, "ckpt scope", p.Ckpt.Scope, plan.Sharded, plan.Default, "checkpoint.use_node_local_storage", 0)
	hftNote(t, "ckpt scope", p.Ckpt.Scope, "DeepSpeed default (0.19.6")
	hftFact(t, "no monitors", p.Tracking.Trackers, nil, plan.Unknown, "", 0)

	p = hftPlan(t, DeepSpeed, doc.JSON, `{
  "train_batch_size": "auto",
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_accumulation_steps": "auto",
  "tensorboard": {"enabled": "auto"}
}`, Context{Hosts: 1, DevicesPerHost: 8})
	hftFact(t, "auto global", p.Train.GlobalBatch, 0, plan.Unknown, "train_batch_size", 2)
	hftFact(t, "auto micro", p.Train.PerDeviceBatch, 0, plan.Unknown, "train_micro_batch_size_per_gpu", 3)
	hftFact(t, "auto accum", p.Train.GradAccum, 0, plan.Unknown, "gradient_accumulation_steps", 4)
	hftFact(t, "auto monitor", p.Tracking.Trackers, nil, plan.Unknown, "tensorboard.enabled", 5)

	p = hftPlan(t, DeepSpeed, doc.YAML, "train_batch_size: many\ntrain_micro_batch_size_per_gpu: 2\ncheckpoint:\n  use_node_local_storage: false\nwandb:\n  enabled: false\n", Context{})
	hftFact(t, "string global", p.Train.GlobalBatch, 0, plan.Unknown, "train_batch_size", 1)
	hftFact(t, "micro", p.Train.PerDeviceBatch, 2, plan.Explicit, "train_micro_batch_size_per_gpu", 2)
	hftFact(t, "no accumulation default with two keys", p.Train.GradAccum, 0, plan.Unknown, "", -1)
	hftFact(t, "explicit sharded", p.Ckpt.Scope, plan.Sharded, plan.Explicit, "checkpoint.use_node_local_storage", 4)
	hftFact(t, "monitor off", p.Tracking.Trackers, []string{}, plan.Explicit, "wandb", -1)

	p = hftPlan(t, DeepSpeed, doc.JSON, `{}`, Context{})
	hftFact(t, "empty", p.Train.GlobalBatch, 0, plan.Unknown, "", -1)
	hftFact(t, "empty accum", p.Train.GradAccum, 0, plan.Unknown, "", -1)
	p = hftPlan(t, DeepSpeed, doc.JSON, `{"train_batch_size": null, "train_micro_batch_size_per_gpu": 4}`, Context{})
	hftFact(t, "null is absent", p.Train.GradAccum, 1, plan.Default, "gradient_accumulation_steps", 1)
	p = hftPlan(t, DeepSpeed, doc.JSON, `[1, 2]`, Context{})
	hftFact(t, "array root", p.Train.GlobalBatch, 0, plan.Unknown, "", -1)
}
