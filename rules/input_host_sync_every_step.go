package rules

import (
	"github.com/trainlint/trainlint/lint"
)

// InputHostSyncEveryStep notes training metrics pulled to the host at every step.
var InputHostSyncEveryStep = register(&inputHostSyncEveryStepDef)

var inputHostSyncEveryStepDef = lint.Rule{
	Code: "TL105", Name: "input-host-sync-every-step", Category: lint.CatInputPipeline, Severity: lint.Info,
	Anchor:    "optimizing-the-input-pipeline",
	Title:     "Training metrics are pulled to the host at every step",
	NeedsPlan: true,
	Rationale: `Reading a metric's value on the host (a loss printed or sent to a tracker) waits for the
accelerator to finish every queued operation, and across several processes it adds a collective
to gather the value. Done at every step, this barrier stops the host from running ahead: it can no
longer queue the next step or overlap input preparation with computation, which is what keeps the
devices busy. The playbook's input-pipeline advice is to profile and remove such stalls.

Logging every few tens of steps gives curves just as useful at a fraction of the cost. This is
information: for short debugging runs logging every step is fine. Adapted from the Deep Learning
Tuning Playbook (Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0); no endorsement implied.`,
	Fix:     `Log every 10–100 steps.`,
	FixList: fixList("logging.sync_every", ""),
	Check:   checkInputHostSyncEveryStep,
}

func checkInputHostSyncEveryStep(p *lint.Pass) {
	s := p.Plan.Logging.SyncEvery
	if !s.IsExplicit() || s.Value != 1 {
		return
	}
	f := lint.Finding{
		Key:     s.Key,
		Message: s.Key + " 1 gathers the training loss to the host at every step",
		Help:    advice(p.Plan, "logging.sync_every", s),
	}
	if f.Help == "" {
		f.Help = "log every 10 to 100 steps: each logging step waits for the devices and gathers the metric across processes"
	}
	place(&f, s.Node)
	p.Report(f)
}
