package rules

import (
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// BNPerDeviceBatchTooSmall reports batch norm computing its statistics over a per-device batch
// of one or two examples.
var BNPerDeviceBatchTooSmall = register(&bNPerDeviceBatchTooSmallDef)

var bNPerDeviceBatchTooSmallDef = lint.Rule{
	Code: "TL505", Name: "bn-per-device-batch-too-small", Category: lint.CatBatchNorm, Severity: lint.Warning,
	Anchor:    "batch-normalization-implementation-details",
	Title:     "Batch norm normalises over a per-device batch of one or two examples",
	NeedsPlan: true,
	Rationale: `Unsynchronised batch norm computes its mean and variance over the examples on one device, not over
the global batch. The playbook points out that this per-device "virtual" batch size is what
batch norm actually sees, and that it should be chosen with care. With one or two examples per
device the statistics are mostly noise: training normalises by them, the running averages used
at evaluation drift away from what training saw, and with a single example and no spatial extent
PyTorch refuses outright ("Expected more than 1 value per channel when training").

Synchronised batch norm (statistics over all devices per step) is not reported. Adapted from the
Deep Learning Tuning Playbook (Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0); no endorsement
implied.`,
	Fix: `Raise the per-device batch (gradient accumulation does not help: batch norm sees each micro batch),
synchronise batch norm across devices, or switch to group or layer norm; freeze the batch-norm
statistics of a pretrained backbone if it is fine-tuned.`,
	FixList: fixListOr("bn.per_step", "bn.sync", ""),
	Check:   checkBNPerDeviceBatchTooSmall,
}

func checkBNPerDeviceBatchTooSmall(p *lint.Pass) {
	bn, b := p.Plan.BN, p.Plan.Train.PerDeviceBatch
	if !bn.Present.Known() || !bn.Present.Value || !bn.Sync.Known() || bn.Sync.Value == plan.BNSyncPerStep {
		return
	}
	if !b.Known() || p.Plan.Train.Granularity != plan.PerDevice || b.Value < 1 || b.Value > 2 {
		return
	}
	if bn.OtherBatch != "" {
		return // the layers normalise over something else than the examples (a RoI head's proposals)
	}
	f := lint.Finding{Key: b.Key}
	v := itoa(b.Value)
	if b.IsExplicit() {
		f.Message = keyOr(b, "per-device batch") + " " + v + " gives batch norm statistics over " + v + " example"
	} else {
		f.Message = notSet(b, v) + " gives batch norm statistics over " + v + " example"
	}
	if b.Value > 1 {
		f.Message += "s"
	}
	f.Message += " per device" + derivedNote(b)
	place(&f, b.Node, bn.Present.Node)
	ev := "batch norm"
	if bn.Evidence != "" {
		ev += ": " + bn.Evidence
	}
	f.Related = related(bn.Present.Node, f.Node, ev)
	f.Help = "raise the per-device batch, synchronise batch norm across devices, or use group/layer norm"
	// Only statistics over every device at each step help; where the framework has no advice
	// of that kind, its batch-norm sync advice is (a trainer's sync flag).
	h := advice(p.Plan, "bn.per_step", bn.Sync)
	if h == "" {
		h = advice(p.Plan, "bn.sync", bn.Sync)
	}
	if h != "" {
		f.Help += " (" + h + ")"
	}
	p.Report(f)
}
