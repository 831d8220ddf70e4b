package rules

import (
	"strconv"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// CheckpointIntervalTimeBased reports checkpoints saved on wall-clock time. Info: the
// checkpoints exist, they only land on steps that differ from run to run.
var CheckpointIntervalTimeBased = register(&checkpointIntervalTimeBasedDef)

var checkpointIntervalTimeBasedDef = lint.Rule{
	Code: "TL307", Name: "checkpoint-interval-time-based", Category: lint.CatCheckpoints, Severity: lint.Info,
	Anchor:    "saving-checkpoints-and-retrospectively-selecting-the-best-checkpoint",
	Title:     "Checkpoints are saved on wall-clock time",
	NeedsPlan: true,
	Rationale: `A checkpoint every hour lands on a different step in every run: a slower node, a restart or a
busy input pipeline moves it. Checkpoints of two runs can then not be compared at the same point of
training, and the saved steps rarely coincide with the steps where evaluation ran, so most
checkpoints carry no eval metric to select them by. The playbook recommends saving at regular
step intervals and picking the best checkpoint afterwards.

A time-based save as a safety net against preemption is reasonable beside a step schedule; as the
only schedule it is reported here, as info.

Adapted from the Deep Learning Tuning Playbook (Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0);
no endorsement implied.`,
	Fix:     `Save every N optimizer steps, at steps where evaluation runs.`,
	FixList: fixList("ckpt.interval", ""),
	Check:   checkCheckpointIntervalTimeBased,
}

func checkCheckpointIntervalTimeBased(p *lint.Pass) {
	c := p.Plan.Ckpt
	if c.Enabled.Known() && !c.Enabled.Value {
		return // no checkpoints at all is checkpointing-disabled
	}
	iv := c.Interval
	if !iv.Known() || iv.Value.Unit != plan.Seconds || iv.Value.Value <= 0 {
		return
	}
	text := iv.Value.Text
	if text == "" {
		text = strconv.FormatFloat(iv.Value.Value, 'g', -1, 64) + "s"
	}
	f := lint.Finding{Key: iv.Key}
	if iv.IsExplicit() {
		f.Message = keyOr(iv, "the checkpoint interval") + " " + strconv.Quote(text)
	} else {
		f.Message = notSet(iv, strconv.Quote(text))
	}
	f.Message += " saves checkpoints on wall-clock time, so they land on different steps in every run"
	place(&f, iv.Node)
	f.Help = advice(p.Plan, "ckpt.interval", iv)
	if f.Help == "" {
		f.Help = "save every N training steps instead, at steps where evaluation runs, so every checkpoint has an eval metric"
	}
	p.Report(f)
}
