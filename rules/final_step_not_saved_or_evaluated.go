package rules

import (
	"math"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// FinalStepNotSavedOrEvaluated reports a step budget (or a whole number of epochs, against
// intervals in epochs) that ends between two evaluations or two saves, where the framework does not evaluate or save after the last step by itself. It needs
// the framework's end-of-training behaviour as a known fact (Eval.AtEnd, Ckpt.AtEnd): where that
// was not checked in the framework's source the rule stays silent.
var FinalStepNotSavedOrEvaluated = register(&finalStepNotSavedOrEvaluatedDef)

var finalStepNotSavedOrEvaluatedDef = lint.Rule{
	Code: "TL309", Name: "final-step-not-saved-or-evaluated", Category: lint.CatCheckpoints, Severity: lint.Warning,
	Anchor:    "saving-checkpoints-and-retrospectively-selecting-the-best-checkpoint",
	Title:     "The final step is not saved or not evaluated",
	NeedsPlan: true,
	Rationale: `A run's last steps are often its best: the learning rate has decayed, and a fixed step budget
was chosen so that training ends there. When the step budget (or the number of epochs, for
intervals counted in epochs) is not a multiple of the eval interval, and the framework evaluates
only at multiples of it, the final model is never scored;
when it is not a multiple of the save interval, and the framework does not save at the end by
itself, the final model is never written at all. Either way the retrospective choice of the
best checkpoint that the playbook recommends cannot consider the end of training.

The rule reports only where the framework's behaviour at the end of training was checked in its
source: some frameworks save (or evaluate) after the last step whatever the interval, and then
only the other half is reported.

Adapted from the Deep Learning Tuning Playbook (Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0);
no endorsement implied.`,
	Fix: `Make the step budget a multiple of the eval interval and of the save interval (or pick intervals
that divide it), or evaluate and save the final model explicitly after training.`,
	Check: checkFinalStepNotSavedOrEvaluated,
}

func checkFinalStepNotSavedOrEvaluated(p *lint.Pass) {
	b, ok := runBudget(p.Plan.Train)
	if !ok {
		return
	}
	e, c := p.Plan.Eval, p.Plan.Ckpt
	if on := e.Enabled; on.Known() && on.Value && !e.Unavailable {
		reportFinalGap(p, b, e.Interval, e.AtEnd, "evaluated", "evaluation")
	}
	if on := c.Enabled; on.Known() && on.Value {
		reportFinalGap(p, b, c.Interval, c.AtEnd, "saved", "checkpoint")
	}
}

// budget is a run's length in the unit intervals are compared in: its step budget, or its
// whole number of epochs where no step budget bounds it.
type budget struct {
	plan.Fact[int]
	unit plan.Unit
	word string // "steps", "epochs"
}

func runBudget(t plan.Train) (budget, bool) {
	if ms := t.MaxSteps; ms.Known() && ms.Value > 0 {
		return budget{ms, plan.Steps, "steps"}, true
	}
	ep := t.Epochs
	if !ep.Known() || ep.Value < 1 || ep.Value != math.Trunc(ep.Value) || ep.Value > math.MaxInt32 {
		return budget{}, false
	}
	return budget{plan.Fact[int]{Value: int(ep.Value), Origin: ep.Origin, Key: ep.Key, Node: ep.Node, Note: ep.Note, By: ep.By}, plan.Epochs, "epochs"}, true
}

// reportFinalGap reports when the run's length ms is not a multiple of the interval iv (in the
// same unit) and the framework is known not to act after the last step or epoch by itself
// (atEnd false).
func reportFinalGap(p *lint.Pass, ms budget, iv plan.Fact[plan.Interval], atEnd plan.Fact[bool], done, what string) {
	if !atEnd.Known() || atEnd.Value || !iv.Known() || iv.Value.Unit != ms.unit {
		return
	}
	n := iv.Value.Value
	if n < 1 || n != math.Trunc(n) || n > math.MaxInt32 {
		return
	}
	every := int(n)
	rest := ms.Value % every
	if rest == 0 {
		return
	}
	ivText := keyOr(iv, "the "+what+" interval") + " " + itoa(every)
	if !iv.IsExplicit() {
		ivText += " (not set: " + defaultName(iv) + ")"
	}
	f := lint.Finding{Key: ms.Key}
	whole := "the step budget"
	if ms.unit == plan.Epochs {
		whole = "the number of epochs"
	}
	budgetText := keyOr(ms.Fact, whole) + " " + itoa(ms.Value)
	if ms.Origin == plan.Derived {
		budgetText = whole + " " + itoa(ms.Value) + derivedNote(ms.Fact) // the key holds only a factor of it
	}
	place(&f, ms.Node)
	f.Related = related(iv.Node, f.Node, what+" interval set here")
	var fix string
	if every > ms.Value {
		f.Message = budgetText + " is shorter than " + ivText + ", so no " + what + " runs during training and the final model is never " + done
		fix = "set " + keyOr(iv, "the "+what+" interval") + " to a divisor of " + itoa(ms.Value) + " (" + itoa(ms.Value) + " for once at the end)"
	} else {
		f.Message = budgetText + " is not a multiple of " + ivText +
			", so the final model is never " + done + ": the last " + itoa(rest) + " " + ms.word + " run after the last " + what
		fix = "set " + keyOr(ms.Fact, whole) + " to"
		if ms.Origin == plan.Derived {
			fix = "make " + whole + derivedNote(ms.Fact)
		}
		fix += " a multiple of " + itoa(every) + " (" + itoa(ms.Value-rest+every)
		if lower := ms.Value - rest; lower > 0 {
			fix += " or " + itoa(lower)
		}
		fix += ")"
	}
	f.Help = fix + ", or " + verbFor(done) + " the final model after training"
	if atEnd.Note != "" {
		f.Help += ": " + atEnd.Note
	}
	p.Report(f)
}

func verbFor(done string) string {
	if done == "saved" {
		return "save"
	}
	return "evaluate"
}
