package rules

import (
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// PeriodicEvalDisabled reports a run that never evaluates while it trains. Severity policy: a
// warning when the file turns evaluation off (or writes the key as unset); info when nothing in
// the file mentions evaluation and the framework's default is off, since many such files are
// deliberately train-only (a warning would fail CI on all of them).
var PeriodicEvalDisabled = register(&periodicEvalDisabledDef)

var periodicEvalDisabledDef = lint.Rule{
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
	Fix:     `Turn on evaluation on a held-out set at a fixed step interval.`,
	FixList: fixList("eval.enabled", ""),
	Check:   checkPeriodicEvalDisabled,
}

func checkPeriodicEvalDisabled(p *lint.Pass) {
	e := p.Plan.Eval.Enabled
	if !e.Known() || e.Value || p.Plan.Eval.Unavailable {
		return // on, unknown, or nothing the config could turn on
	}
	p.Report(switchedOff(p.Plan, e, switchOff{
		name: "evaluation", noun: "evaluation", byDefault: "runs no evaluation",
		outcome:  ", so there is no validation curve and no eval metric to pick the best checkpoint by",
		concept:  "eval.enabled",
		fallback: "evaluate on a held-out set every fixed number of steps",
	}))
}

// switchOff words a finding about something periodic (evaluation, checkpointing) that the
// config turns off, or leaves off by the framework's default.
type switchOff struct {
	name      string // the setting, when the fact has no key of its own: "evaluation"
	noun      string // what does not happen during training: "evaluation", "checkpoints"
	byDefault string // what the default does: "runs no evaluation"
	outcome   string // ", so ..."
	concept   string // the dialect advice to use as help
	fallback  string // help when the dialect has none
}

// switchedOff reports e (a known false "enabled" fact): a warning when the file turns the thing
// off (or writes a value the framework reads as unset), info when only the default does.
func switchedOff(pl *plan.Plan, e plan.Fact[bool], w switchOff) lint.Finding {
	f := lint.Finding{Key: e.Key}
	switch {
	case e.Origin == plan.Default && writesKey(e):
		f.Message = keyOr(e, w.name) + " " + nodeText(e.Node) + " means no " + w.noun + " during training" + w.outcome
	case e.Origin == plan.Default:
		f.Message = keyOr(e, w.name) + " is not set: " + defaultName(e) + " " + w.byDefault + " during training" + w.outcome
		f.Severity = lint.Info
	case e.Origin == plan.Derived && strings.HasPrefix(e.Note, "the model "):
		// Off whatever the settings say: the model the config names never evaluates.
		f.Message = e.Note + w.outcome
	case e.IsExplicit() && positiveNumber(e.Node):
		// A count or interval the file set that still schedules nothing (the fact's note says why).
		f.Message = keyOr(e, w.name) + " " + written(e, "false") + " schedules no " + w.noun + " during training" + w.outcome
	default:
		f.Message = keyOr(e, w.name) + " " + written(e, "false") + " turns off " + w.noun + " during training" + w.outcome
	}
	place(&f, e.Node)
	f.Help = advice(pl, w.concept, e)
	if f.Help == "" {
		f.Help = w.fallback
	}
	if e.Note != "" && e.Origin != plan.Default && !strings.HasPrefix(f.Message, e.Note) {
		f.Help = e.Note + "; " + f.Help
	}
	return f
}

// writesKey reports a defaulted fact whose node is its own key written as a scalar (a value the
// framework reads as unset, such as null): the file chose it.
func writesKey[T any](f plan.Fact[T]) bool {
	return f.Node != nil && f.Node.IsScalar() && f.Node.Path().String() == f.Key
}

func nodeText(n *doc.Node) string {
	if n.IsNull() {
		if n.Style == "python" { // Python's and gin's None
			return "None"
		}
		return "null"
	}
	return n.Value
}

// positiveNumber reports a number node above zero.
func positiveNumber(n *doc.Node) bool {
	v, ok := n.Float()
	return ok && n.IsScalar() && (n.Type == doc.Int || n.Type == doc.Float) && v > 0
}
