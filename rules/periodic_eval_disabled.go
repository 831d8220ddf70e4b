package rules

import (
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// PeriodicEvalDisabled reports a run that never evaluates while it trains. Severity policy: a
// warning when the file turns evaluation off (or writes the key as unset); info when nothing in
// the file mentions evaluation and the framework's default is off, since many such files are
// deliberately train-only (a warning would fail CI on all of them).
var PeriodicEvalDisabled = register(&lint.Rule{
	Code: "TL204", Name: "periodic-eval-disabled", Category: lint.CatEvaluation, Severity: lint.Warning,
	Anchor:    "setting-up-periodic-evaluations",
	Title:     "No periodic evaluation runs during training",
	NeedsPlan: true,
	Rationale: `Periodic evaluation on held-out data is how a run is watched and compared: it gives the
validation curve that shows over-fitting, instability or a plateau, and it gives each saved
checkpoint a metric, so the best one can be picked after the run instead of taking the last. The
playbook recommends evaluating at regular step intervals during training for these reasons.
Training loss alone cannot tell a model that generalises from one that memorises.

When the file turns evaluation off, the finding is a warning. When the file says nothing and the
framework's default is not to evaluate, it is info: a train-only recipe can be deliberate (the
model is evaluated by a separate job), and a suppression comment says so.`,
	Fix:   fixList(`Turn on evaluation on a held-out set at a fixed step interval.`, "eval.enabled", ""),
	Check: checkPeriodicEvalDisabled,
})

func checkPeriodicEvalDisabled(p *lint.Pass) {
	e := p.Plan.Eval.Enabled
	if !e.Known() || e.Value || p.Plan.Eval.Unavailable {
		return // on, unknown, or nothing the config could turn on
	}
	const outcome = ", so there is no validation curve and no eval metric to pick the best checkpoint by"
	f := lint.Finding{Key: e.Key}
	switch {
	case e.Origin == plan.Default && writesKey(e):
		f.Message = keyOr(e, "evaluation") + " " + nodeText(e.Node) + " means no evaluation during training" + outcome
	case e.Origin == plan.Default:
		f.Message = keyOr(e, "evaluation") + " is not set: " + defaultName(e) + " runs no evaluation during training" + outcome
		f.Severity = lint.Info
	default:
		f.Message = keyOr(e, "evaluation") + " " + written(e, "false") + " turns off evaluation during training" + outcome
	}
	place(&f, e.Node)
	f.Help = advice(p.Plan, "eval.enabled", e)
	if f.Help == "" {
		f.Help = "evaluate on a held-out set every fixed number of steps"
	}
	if e.Note != "" && e.Origin != plan.Default {
		f.Help = e.Note + "; " + f.Help
	}
	p.Report(f)
}

// writesKey reports a defaulted fact whose node is its own key written as a scalar (a value the
// framework reads as unset, such as null): the file chose it.
func writesKey[T any](f plan.Fact[T]) bool {
	return f.Node != nil && f.Node.IsScalar() && f.Node.Path().String() == f.Key
}

func nodeText(n *doc.Node) string {
	if n.IsNull() {
		return "null"
	}
	return n.Value
}
