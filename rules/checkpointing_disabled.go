package rules

import (
	"github.com/trainlint/trainlint/lint"
)

// CheckpointingDisabled reports a run that writes no periodic checkpoints. Severity policy as
// periodic-eval-disabled: a warning when the file turns checkpoints off, info when the
// framework's default is off and the file never mentions checkpoints.
var CheckpointingDisabled = register(&checkpointingDisabledDef)

var checkpointingDisabledDef = lint.Rule{
	Code: "TL304", Name: "checkpointing-disabled", Category: lint.CatCheckpoints, Severity: lint.Warning,
	Anchor:    "saving-checkpoints-and-retrospectively-selecting-the-best-checkpoint",
	Title:     "No periodic checkpoints are written",
	NeedsPlan: true,
	Rationale: `Without periodic checkpoints, a crash, a preemption or a bad step late in the run costs the
whole run, and the only model left is the one from the last step, whatever its eval metrics say.
The playbook recommends saving checkpoints regularly during training and choosing the best one
afterwards, which needs them to exist.

A script may still save the final model itself; that gives the last model, not the best one, and
nothing to resume from. When the file turns checkpoints off the finding is a warning; when it says
nothing and the framework's default writes none, it is info (short experiments can skip them on
purpose: a suppression comment says so).`,
	Fix:     `Save checkpoints at a fixed step interval, aligned with evaluation.`,
	FixList: fixList("ckpt.enabled", ""),
	Check:   checkCheckpointingDisabled,
}

func checkCheckpointingDisabled(p *lint.Pass) {
	e := p.Plan.Ckpt.Enabled
	if !e.Known() || e.Value {
		return
	}
	p.Report(switchedOff(p.Plan, e, switchOff{
		name: "checkpointing", noun: "checkpoints", byDefault: "writes no checkpoints",
		outcome:  ", so a crash loses the run and no earlier checkpoint can be picked",
		concept:  "ckpt.enabled",
		fallback: "save a checkpoint every fixed number of steps, at the steps where evaluation runs",
	}))
}
