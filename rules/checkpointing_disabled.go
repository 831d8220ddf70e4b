package rules

import (
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// CheckpointingDisabled reports a run that writes no periodic checkpoints. Severity policy as
// periodic-eval-disabled: a warning when the file turns checkpoints off, info when the
// framework's default is off and the file never mentions checkpoints.
var CheckpointingDisabled = register(&lint.Rule{
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
	Fix:   fixList(`Save checkpoints at a fixed step interval, aligned with evaluation.`, "ckpt.enabled", ""),
	Check: checkCheckpointingDisabled,
})

func checkCheckpointingDisabled(p *lint.Pass) {
	e := p.Plan.Ckpt.Enabled
	if !e.Known() || e.Value {
		return
	}
	const outcome = ", so a crash loses the run and no earlier checkpoint can be picked"
	f := lint.Finding{Key: e.Key}
	switch {
	case e.Origin == plan.Default && writesKey(e):
		f.Message = keyOr(e, "checkpointing") + " " + nodeText(e.Node) + " means no checkpoints during training" + outcome
	case e.Origin == plan.Default:
		f.Message = keyOr(e, "checkpointing") + " is not set: " + defaultName(e) + " writes no checkpoints during training" + outcome
		f.Severity = lint.Info
	default:
		f.Message = keyOr(e, "checkpointing") + " " + written(e, "false") + " turns off checkpoints during training" + outcome
	}
	place(&f, e.Node)
	f.Help = advice(p.Plan, "ckpt.enabled", e)
	if f.Help == "" {
		f.Help = "save a checkpoint every fixed number of steps, at the steps where evaluation runs"
	}
	if e.Note != "" && e.Origin != plan.Default {
		f.Help = e.Note + "; " + f.Help
	}
	p.Report(f)
}
