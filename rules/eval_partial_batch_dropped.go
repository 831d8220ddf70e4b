package rules

import (
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// EvalPartialBatchDropped reports evaluation that drops its last, partial batch. A warning when
// the file asks for it (or derives it from other settings it wrote); info when only the
// framework's default drops it, since the loss is at most one batch of examples per evaluation.
var EvalPartialBatchDropped = register(&evalPartialBatchDroppedDef)

var evalPartialBatchDroppedDef = lint.Rule{
	Code: "TL203", Name: "eval-partial-batch-dropped", Category: lint.CatEvaluation, Severity: lint.Warning,
	Anchor:    "setting-up-periodic-evaluations",
	Title:     "Evaluation drops its last partial batch",
	NeedsPlan: true,
	Rationale: `When the eval set is not a multiple of the eval batch, the last batch is short. Dropping it means
some examples are never scored: which ones depends on the batch size and the number of devices,
so two runs that differ only in those settings are measured on different sets, and the metric is
biased towards the examples that happen to come first. The playbook recommends evaluating on
every example, padding the last batch and giving the padded examples zero weight if the batch
shape must stay fixed.

Some settings drop the partial batch of the training loader and the eval loader alike; the help
says so where the framework shares them. When only the framework's default drops it, the
finding is info.

Adapted from the Deep Learning Tuning Playbook (Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0);
no endorsement implied.`,
	Fix:     `Keep the partial eval batch (pad it with zero-weight examples if the shape must be fixed).`,
	FixList: fixList("eval.drop_last", ""),
	Check:   checkEvalPartialBatchDropped,
}

func checkEvalPartialBatchDropped(p *lint.Pass) {
	e := p.Plan.Eval
	dl := e.DropLast
	if !dl.Known() || !dl.Value {
		return
	}
	if e.Enabled.Known() && !e.Enabled.Value || e.Unavailable {
		return // no evaluation runs: nothing is dropped from it
	}
	if s := e.Subset; s.Known() && s.Value.Value > 0 && (s.Value.Unit == plan.Steps || s.Value.Unit == plan.Ratio && s.Value.Value < 1) {
		// Each evaluation reads only the first batches of the set: whether it ever reaches the
		// last, partial batch depends on the set's size, which the file does not say; what the
		// limit leaves unread is eval-subsample-unchecked's finding. (A subset of the first N
		// examples is batched on its own, and its last batch can still be dropped.)
		return
	}
	f := lint.Finding{Key: dl.Key}
	const outcome = " drops the last partial eval batch, so some eval examples are never scored"
	switch dl.Origin {
	case plan.Default:
		f.Message = notSet(dl, "true") + outcome
		f.Severity = lint.Info
	case plan.Derived:
		f.Message = keyOr(dl, "drop_last") + " is on" + derivedNote(dl) + outcome
	default:
		f.Message = keyOr(dl, "drop_last") + " " + written(dl, "true") + outcome
	}
	place(&f, dl.Node)
	f.Help = advice(p.Plan, "eval.drop_last", dl)
	if f.Help == "" {
		f.Help = "keep the last eval batch (drop_last false); pad it with zero-weight examples if the batch shape must be fixed"
	}
	p.Report(f)
}
