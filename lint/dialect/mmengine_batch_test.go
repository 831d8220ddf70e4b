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
