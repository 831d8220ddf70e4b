package dialect

import (
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

func TestDeepSpeedJSON(t *testing.T) {
	src := `{
  "train_batch_size": 32,
  "train_micro_batch_size_per_gpu": 2,
  "steps_per_print": 10,
  "zero_optimization": {"stage": 2},
  "checkpoint": {"use_node_local_storage": true},
  "tensorboard": {"enabled": true, "output_path": "tb"},
  "wandb": {"enabled": false}
}`
	p := hftPlan(t, DeepSpeed, doc.JSON, src, Context{})
	hftFact(t, "global", p.Train.GlobalBatch, 32, plan.Explicit, "train_batch_size", 2)
	hftFact(t, "micro", p.Train.PerDeviceBatch, 2, plan.Explicit, "train_micro_batch_size_per_gpu", 3)
	hftFact(t, "accum without devices", p.Train.GradAccum, 0, plan.Unknown, "", -1)
	hftFact(t, "ckpt scope", p.Ckpt.Scope, plan.EveryHost, plan.Explicit, "checkpoint.use_node_local_storage", 6)
	hftFact(t, "trackers", p.Tracking.Trackers, []string{"tensorboard"}, plan.Explicit, "tensorboard", 7)
	hftFact(t, "no eval facts", p.Eval.PerDeviceBatch, 0, plan.Unknown, "", -1)
	hftFact(t, "no seed facts", p.Seeds.Init, plan.Seed{}, plan.Unknown, "", -1)
	if got := Detect(hftDoc(t, doc.JSON, src)); got != DeepSpeed {
		t.Errorf("detected %s", got.Name)
	}

	// With the device count, DeepSpeed's own arithmetic gives the accumulation: 32 / 2 / 8 = 2.
	p = hftPlan(t, DeepSpeed, doc.JSON, src, Context{Hosts: 2, DevicesPerHost: 4})
	hftFact(t, "derived accum", p.Train.GradAccum, 2, plan.Derived, "gradient_accumulation_steps", 2)
	p = hftPlan(t, DeepSpeed, doc.JSON, `{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}`, Context{Hosts: 1, DevicesPerHost: 8})
	hftFact(t, "derived global", p.Train.GlobalBatch, 64, plan.Derived, "train_batch_size", 1)
	p = hftPlan(t, DeepSpeed, doc.JSON, `{"train_batch_size": 64, "gradient_accumulation_steps": 2}`, Context{Hosts: 1, DevicesPerHost: 8})
	hftFact(t, "derived micro", p.Train.PerDeviceBatch, 4, plan.Derived, "train_micro_batch_size_per_gpu", 1)
}

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
