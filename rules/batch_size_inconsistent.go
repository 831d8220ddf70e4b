package rules

import (
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// BatchSizeInconsistent reports batch settings whose arithmetic cannot hold: a global batch that
// is not micro batch × accumulation × data-parallel size where the framework asserts it.
var BatchSizeInconsistent = register(&batchSizeInconsistentDef)

var batchSizeInconsistentDef = lint.Rule{
	Code: "TL701", Name: "batch-size-inconsistent", Category: lint.CatBatchSchedule, Severity: lint.Error,
	Anchor:    "choosing-the-batch-size",
	Title:     "The batch sizes in the file do not add up",
	NeedsPlan: true,
	Rationale: `The batch size is the first thing the playbook asks you to fix before tuning anything else: the
learning rate, the warmup and the regularisation that work at one batch size do not carry over to
another. Frameworks that take the global batch and its factors separately (micro batch per device,
gradient accumulation, data-parallel size) check that the product adds up and refuse to start when
it does not, typically after the job has waited in the queue and loaded the model. When the
arithmetic is wrong, at least one of the numbers in the file is not the batch the run would train
with.

A run of several files is checked as a whole: where the trainer hands its batch settings to a
distributed-engine config file the recipe names, and refuses that file's own values when they
differ (anything but "auto"), the finding sits at the refused value, with the recipe's setting
and the launcher's device count as related locations.

The rule checks only what the file and the launch context fix: when the device count is unknown
(no ` + "`--hosts`/`--devices-per-host`" + `, no device keys) it checks divisibility alone, and it
stays silent about values filled in later ("auto"). Adapted from the Deep Learning Tuning Playbook
(Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0); no endorsement implied.`,
	Fix:     `Decide which number is the intended batch and derive the others from it.`,
	FixList: fixList("batch.arithmetic", `Check the device count the file is launched with: the same file on another number of devices needs other numbers.`),
	Check:   checkBatchSizeInconsistent,
}

func checkBatchSizeInconsistent(p *lint.Pass) {
	s := p.Plan.Schedule
	if s.BatchAsserted {
		checkBatchProduct(p)
	}
	if s.GlobalBatchDivides {
		checkBatchDivides(p)
	}
	reportMismatches(p, "batch")
}

// positive reports an explicit, positive integer fact.
func positive(f plan.Fact[int]) bool { return f.IsExplicit() && f.Value > 0 }

// checkBatchProduct: global = micro × accumulation × data-parallel size, asserted at start-up.
func checkBatchProduct(p *lint.Pass) {
	t := p.Plan.Train
	gb, mb, ga := t.GlobalBatch, t.PerDeviceBatch, t.GradAccum
	if !positive(gb) {
		return
	}
	help := advice(p.Plan, "batch.arithmetic", gb)
	report := func(msg string, sev lint.Severity, extra string) {
		f := lint.Finding{Key: gb.Key, Message: msg, Severity: sev, Help: help}
		if extra != "" {
			f.Help = extra + "; " + help
		}
		place(&f, gb.Node)
		p.Report(f)
	}
	switch {
	case positive(mb) && positive(ga):
		prod := mb.Value * ga.Value
		if gb.Value%prod != 0 {
			report(gb.Key+" "+itoa(gb.Value)+" is not a multiple of "+mb.Key+" "+itoa(mb.Value)+" × "+ga.Key+" "+itoa(ga.Value)+" = "+itoa(prod), 0, "")
			return
		}
		devices, ok := p.Plan.Topology.Devices()
		if !ok || devices <= 0 {
			return
		}
		dp := gb.Value / prod
		if dp == devices {
			return
		}
		msg := gb.Key + " " + itoa(gb.Value) + " ≠ " + itoa(mb.Value) + " × " + itoa(ga.Value) + " × " + itoa(devices) + " devices = " + itoa(prod*devices)
		if dp < devices && devices%dp == 0 {
			// Model parallelism (set in code, not in this file) could make the data-parallel
			// size dp: then the numbers hold.
			report(msg, lint.Warning, "it holds only if model parallelism leaves "+itoa(dp)+" data-parallel ranks of the "+itoa(devices)+" devices")
			return
		}
		report(msg, 0, "")
	case positive(mb) && !ga.IsExplicit():
		if gb.Value%mb.Value != 0 {
			report(gb.Key+" "+itoa(gb.Value)+" is not a multiple of "+mb.Key+" "+itoa(mb.Value), 0, "")
			return
		}
	case positive(ga) && !mb.IsExplicit():
		if gb.Value%ga.Value != 0 {
			report(gb.Key+" "+itoa(gb.Value)+" is not a multiple of "+ga.Key+" "+itoa(ga.Value), 0, "")
			return
		}
	}
	// A factor the file leaves out is derived from the device count by integer division
	// (Origin Derived: the dialect derives it as its framework does), then the product asserted:
	// a global batch the devices do not divide gives a rounded-down factor (0 fails the "greater
	// than 0" assertion first) and a product that is not the global batch.
	devices, ok := p.Plan.Topology.Devices()
	if !ok || devices <= 0 || !mb.Known() || !ga.Known() || mb.Origin != plan.Derived && ga.Origin != plan.Derived {
		return
	}
	if mb.Value*ga.Value*devices == gb.Value {
		return
	}
	given, derived := mb, ga
	if mb.Origin == plan.Derived {
		given, derived = ga, mb
	}
	of, unit := itoa(devices)+" devices", given.Value*devices
	if given.IsExplicit() {
		of = given.Key + " " + itoa(given.Value) + " × " + of
	}
	why := "it holds only if model parallelism leaves a data-parallel size that divides " + itoa(gb.Value/max(given.Value, 1)) + "; the framework derives " +
		derived.Key + " = " + itoa(derived.Value) + " from the " + itoa(devices) + " devices by integer division"
	if derived.Value == 0 {
		why += ", and refuses 0 at start-up"
	} else {
		why += ", and refuses the product " + itoa(mb.Value*ga.Value*devices) + " at start-up"
	}
	report(gb.Key+" "+itoa(gb.Value)+" is not a multiple of "+of+" = "+itoa(unit), lint.Warning, why)
}

// checkBatchDivides: global must be a multiple of micro × data-parallel size.
func checkBatchDivides(p *lint.Pass) {
	t, s := p.Plan.Train, p.Plan.Schedule
	gb, mb, mp := t.GlobalBatch, t.PerDeviceBatch, s.ModelParallel
	if !positive(gb) || !positive(mb) || !mp.Known() || mp.Value < 1 {
		return
	}
	devices, ok := p.Plan.Topology.Devices()
	if !ok || devices <= 0 || devices%mp.Value != 0 {
		return // an indivisible device count is a start-up error of its own
	}
	dp := devices / mp.Value
	if gb.Value%(mb.Value*dp) == 0 {
		return
	}
	how := itoa(devices) + " devices"
	if mp.Value > 1 {
		how += " / model parallel " + itoa(mp.Value)
	}
	f := lint.Finding{
		Key: gb.Key,
		Message: gb.Key + " " + itoa(gb.Value) + " is not a multiple of " + mb.Key + " " + itoa(mb.Value) +
			" × data-parallel size " + itoa(dp) + " (" + how + ") = " + itoa(mb.Value*dp),
		Help:    advice(p.Plan, "batch.arithmetic", gb),
		Related: related(mb.Node, gb.Node, mb.Key+" is set here"),
	}
	place(&f, gb.Node)
	p.Report(f)
}
