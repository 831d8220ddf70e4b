package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// lightningSplitData reads a DataModule that takes its loader settings as maps by split:
// num_workers: {train: 0, val: 0} and batch_size: {train: 512, val: 256} (cdvae's and DiffCSP's
// CrystDataModule passes batch_size.train and num_workers.train to the train DataLoader and the
// .val entries to the validation ones, cdvae/pl_data/datamodule.py:99-117). The train entries
// are the training loader's; the train and val batches are compared like for like, their
// granularity unstated (the module may divide both by the world size). It reports which of
// the two keys is such a map (their scalar reading is then skipped).
func lightningSplitData(p *plan.Plan, root, sec *doc.Node) (workers, batch bool) {
	bs, nw := sec.Get("batch_size"), sec.Get("num_workers")
	split := func(n *doc.Node) bool { return isMap(n) && n.Get("train") != nil }
	at := func(m *doc.Node, key string) plan.Fact[int] {
		return intFact(root, m, sectionKey(m), key, 0, false, plan.Because(""))
	}
	if workers = split(nw); workers {
		p.Data.Workers = at(nw, "train")
	}
	if !split(bs) {
		return workers, false
	}
	p.Train.PerDeviceBatch, p.Train.Granularity = at(bs, "train"), plan.Unstated
	for _, k := range []string{"val", "valid", "validation"} {
		if bs.Get(k) != nil {
			p.Eval.PerDeviceBatch, p.Eval.Granularity = at(bs, k), plan.Unstated
			break
		}
	}
	return workers, true
}
