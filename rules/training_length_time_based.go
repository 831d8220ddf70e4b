package rules

import (
	"strconv"

	"github.com/trainlint/trainlint/lint"
)

// TrainingLengthTimeBased reports a run whose length is a wall-clock budget. Info: a time limit
// beside a step budget is often a scheduler's cap, and the message then says which ends first
// depends on the hardware.
var TrainingLengthTimeBased = register(&trainingLengthTimeBasedDef)

var trainingLengthTimeBasedDef = lint.Rule{
	Code: "TL306", Name: "training-length-time-based", Category: lint.CatCheckpoints, Severity: lint.Info,
	Anchor:    "saving-checkpoints-and-retrospectively-selecting-the-best-checkpoint",
	Title:     "The run ends on wall-clock time",
	NeedsPlan: true,
	Rationale: `A run that stops after so many hours trains for a number of steps that depends on the hardware,
the cluster's load and the input pipeline's speed: two runs of one config are not the same
experiment, and the learning-rate schedule, which is written in steps, may not reach its end.
The playbook recommends a fixed number of training steps for every trial of a study, and picking
the best checkpoint afterwards.

A per-job limit of a run that resumes in the next job is not reported. A time limit next to a
step budget is often a cap set by the cluster; the finding then only
says that the run may end before its steps are done.`,
	Fix:   `Give the run a step budget (max_steps) and let the time limit, if any, be a safety cap.`,
	Check: checkTrainingLengthTimeBased,
}

func checkTrainingLengthTimeBased(p *lint.Pass) {
	tb, ms, ep := p.Plan.Train.TimeBudget, p.Plan.Train.MaxSteps, p.Plan.Train.Epochs
	if !tb.IsExplicit() || tb.Value.Value <= 0 || p.Plan.Train.TimeBudgetPerJob || !ms.Known() && ms.Node != nil || !ep.Known() && ep.Node != nil {
		return // (a step or epoch budget written whose value is not known here may end the run first)
	}
	v := tb.Value.Text
	if v == "" && tb.Node != nil {
		v = tb.Node.Value
	}
	f := lint.Finding{Key: tb.Key}
	if ms.Known() && ms.Value > 0 {
		f.Message = keyOr(tb, "the time limit") + " " + written(tb, v) + " can end the run before " + keyOr(ms, "the step budget") + " " + itoa(ms.Value) + ", at a step count that depends on the hardware"
		f.Help = "if the limit is a cluster cap, checkpoint often enough to resume; otherwise leave the run's length to the step budget"
	} else if ep.IsExplicit() && ep.Value > 0 {
		f.Message = keyOr(tb, "the time limit") + " " + written(tb, v) + " can end the run before " + keyOr(ep, "the epoch budget") + " " + strconv.FormatFloat(ep.Value, 'f', -1, 64) + ", at a step count that depends on the hardware"
		f.Help = "if the limit is a cluster cap, checkpoint often enough to resume; otherwise leave the run's length to the epoch budget"
	} else {
		f.Message = keyOr(tb, "the time limit") + " " + written(tb, v) + " ends the run on wall-clock time, so its length in steps depends on the hardware"
		f.Help = "set a step budget so every run of this config trains for the same number of steps"
	}
	place(&f, tb.Node)
	p.Report(f)
}
