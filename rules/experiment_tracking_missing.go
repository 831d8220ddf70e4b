package rules

import (
	"github.com/trainlint/trainlint/lint"
)

// ExperimentTrackingMissing notes a run that reports to no experiment tracker.
var ExperimentTrackingMissing = register(&experimentTrackingMissingDef)

var experimentTrackingMissingDef = lint.Rule{
	Code: "TL401", Name: "experiment-tracking-missing", Category: lint.CatTracking, Severity: lint.Info,
	Anchor:    "setting-up-experiment-tracking",
	Title:     "No experiment tracker records the run",
	NeedsPlan: true,
	Rationale: `The playbook asks for every trial of a study to be recorded with its configuration and its
training and validation curves, so that runs can be compared and decisions revisited later.
Console output and a directory of checkpoints are a poor substitute: curves are lost when the
terminal closes, and the link between a result and the settings that produced it has to be
rebuilt by hand.

Turning trackers off is often deliberate (a smoke test, a team that logs elsewhere), so this is
information, not a warning. A framework whose default reports nowhere is the usual way a run ends
up untracked by accident: the rule page lists how each framework turns a tracker on. Adapted from the Deep Learning
Tuning Playbook (Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0); no endorsement implied.`,
	Fix:     `Add a tracker or logger that keeps the configuration and the curves of every run.`,
	FixList: fixList("tracking.trackers", ""),
	Check:   checkExperimentTrackingMissing,
}

func checkExperimentTrackingMissing(p *lint.Pass) {
	tr := p.Plan.Tracking.Trackers
	if !tr.Known() || len(tr.Value) > 0 {
		return
	}
	f := lint.Finding{Key: tr.Key}
	if tr.IsExplicit() {
		f.Message = keyOr(tr, "tracking") + " " + written(tr, `"none"`) + " reports the run to no experiment tracker"
	} else {
		f.Message = keyOr(tr, "tracking") + " is not set: " + defaultName(tr) + " reports the run to no experiment tracker"
		if tr.Note != "" {
			f.Message += " (" + tr.Note + ")"
		}
	}
	f.Help = advice(p.Plan, "tracking.trackers", tr)
	if f.Help == "" {
		f.Help = "log the configuration and the training and validation curves of every run to a tracker (TensorBoard, W&B, MLflow, ...)"
	}
	place(&f, tr.Node)
	p.Report(f)
}
