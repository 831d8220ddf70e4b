package dialect

import (
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// TestMMEngineTripletSamplerBatch: an MMDetection re-identification config's items are
// triplet samples (num_ids × ins_per_id images each), so batch_size 1 is 32 images a device;
// unknown counts leave the batch unknown, and a dataset without the sampler keeps batch_size.
func TestMMEngineTripletSamplerBatch(t *testing.T) {
	const head = "model = dict(type='BaseReID', backbone=dict(type='mmpretrain.ResNet', depth=50))\n" +
		"train_cfg = dict(type='EpochBasedTrainLoop', max_epochs=6, val_interval=1)\n" +
		"optim_wrapper = dict(optimizer=dict(type='SGD', lr=0.1))\n"
	for _, c := range []struct {
		sampler string
		want    plan.Fact[int]
	}{
		{"triplet_sampler=dict(num_ids=8, ins_per_id=4), ", plan.Fact[int]{Value: 32, Origin: plan.Derived}},
		{"triplet_sampler=dict(num_ids=n, ins_per_id=4), ", plan.Fact[int]{}},
		{"", plan.Fact[int]{Value: 1, Origin: plan.Explicit}},
	} {
		src := head + "n = int(input())\ntrain_dataloader = dict(batch_size=1, num_workers=2, dataset=dict(type='ReIDDataset', " + c.sampler + "ann_file='a.txt'))\n"
		d := doc.Parse("reid.py", []byte(src), doc.Python, doc.Limits{})
		b := Detect(d).Normalize(d, Context{}).Train.PerDeviceBatch
		if b.Value != c.want.Value || b.Origin != c.want.Origin || b.Key != "train_dataloader.batch_size" {
			t.Errorf("%q: batch %+v", c.sampler, b)
		}
	}
}

// TestMMEngineLoopUnits: xtuner's TrainLoop is an IterBasedTrainLoop, so its val_interval counts
// iterations (xtuner/engine/runner/loops.py); EmbodiedScan-style epoch loops count epochs; a
// class of the repository's own says nothing.
func TestMMEngineLoopUnits(t *testing.T) {
	for _, c := range []struct {
		src  string
		unit plan.Unit
	}{
		{"from xtuner.engine.runner import TrainLoop\ntrain_cfg = dict(type=TrainLoop, max_epochs=3, val_interval=500)\n", plan.Steps},
		{"train_cfg = dict(type='EpochBasedTrainLoop', max_epochs=12, val_interval=12)\n", plan.Epochs},
		{"train_cfg = dict(type='mmdet.IterBasedTrainLoop', max_iters=9000, val_interval=500)\n", plan.Steps},
		{"train_cfg = dict(by_epoch=True, max_epochs=12, val_interval=3)\n", plan.Epochs},
		{"from mine import MyLoop\ntrain_cfg = dict(type=MyLoop, max_epochs=12, val_interval=3)\n", ""},
	} {
		src := "model = dict(type='RetinaNet')\ntrain_dataloader = dict(batch_size=2, num_workers=2)\nval_dataloader = dict(batch_size=2)\nval_evaluator = dict(type='CocoMetric')\nval_cfg = dict(type='ValLoop')\noptim_wrapper = dict(optimizer=dict(type='SGD', lr=0.01))\n" + c.src
		d := doc.Parse("a.py", []byte(src), doc.Python, doc.Limits{})
		iv := Detect(d).Normalize(d, Context{}).Eval.Interval
		if iv.Value.Unit != c.unit || (c.unit == "") == iv.Known() {
			t.Errorf("%q: eval interval %+v", c.src, iv)
		}
	}
}

// TestMMEngineOwnValLoop: a validation loop class imported from outside MMEngine and OpenMMLab
// (PhoenixZ810/MG-LLaVA's ValLoop, which collates one sample at a time) decides how it batches,
// so its val_dataloader's batch is not compared with the train batch; MMEngine's ValLoop, by
// name or imported, and an OpenMMLab project's loop keep the comparison.
func TestMMEngineOwnValLoop(t *testing.T) {
	const head = "model = dict(type='LLaVAModel')\n" +
		"train_dataloader = dict(batch_size=16, num_workers=4, dataset=dict(type='LLaVADataset'))\n" +
		"train_cfg = dict(type='IterBasedTrainLoop', max_iters=1000, val_interval=500)\n" +
		"optim_wrapper = dict(optimizer=dict(type='AdamW', lr=2e-5))\n" +
		"val_dataloader = dict(batch_size=1, num_workers=0, dataset=dict(type='ConcatDataset'))\n" +
		"val_evaluator = dict()\n"
	for _, c := range []struct {
		loop  string
		known bool
	}{
		{"from xtuner.engine.runner import ValLoop\nval_cfg = dict(type=ValLoop)\n", false},
		{"val_cfg = dict(type='ValLoop')\n", true},
		{"from mmengine.runner import ValLoop\nval_cfg = dict(type=ValLoop)\n", true},
		{"val_cfg = dict(type='mmdet.TeacherStudentValLoop')\n", true},
	} {
		d := doc.Parse("llava.py", []byte(head+c.loop), doc.Python, doc.Limits{})
		b := MMEngine.Normalize(d, Context{}).Eval.PerDeviceBatch
		if b.Known() != c.known {
			t.Errorf("%q: eval batch %+v, known want %v", c.loop, b, c.known)
		}
	}
}
