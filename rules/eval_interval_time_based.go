package rules

import (
	"strconv"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// EvalIntervalTimeBased reports periodic evaluation scheduled by wall-clock time.
var EvalIntervalTimeBased = register(&evalIntervalTimeBasedDef)

var evalIntervalTimeBasedDef = lint.Rule{
	Code: "TL201", Name: "eval-interval-time-based", Category: lint.CatEvaluation, Severity: lint.Warning,
	Anchor:    "setting-up-periodic-evaluations",
	Title:     "Periodic evaluation is scheduled by wall-clock time instead of steps",
	NeedsPlan: true,
	Rationale: `An evaluation every thirty minutes lands on different training steps in every run: a slower
node, a preemption, a restart or a busy network shifts it. Curves from two runs can then no
longer be compared point by point, and periodic patterns in the validation metrics (a sign of
train/test overlap or badly shuffled data) blur. The playbook recommends evaluating at regular
step intervals.

Epoch-based evaluation is step-regular when the epoch length is fixed, and is not reported. A
wall-clock limit on the whole run (` + "`max_time`" + `) is a budget, not an evaluation interval: that is
rule ` + "`training-length-time-based`" + `.`,
	Fix:     `Evaluate every N optimizer steps.`,
	FixList: fixList("eval.interval", ""),
	Check:   checkEvalIntervalTimeBased,
}

func checkEvalIntervalTimeBased(p *lint.Pass) {
	e := p.Plan.Eval
	if e.Enabled.Known() && !e.Enabled.Value {
		return // no periodic eval at all is another rule's business
	}
	iv := e.Interval
	if !iv.Known() || iv.Value.Unit != plan.Seconds {
		return
	}
	text := iv.Value.Text
	if text == "" {
		text = strconv.FormatFloat(iv.Value.Value, 'g', -1, 64) + "s"
	}
	f := lint.Finding{
		Key:     iv.Key,
		Message: keyOr(iv, "eval interval") + " " + strconv.Quote(text) + " schedules evaluation by wall-clock time",
		Help:    timeEvalHelp(p.Plan, iv),
	}
	if !iv.IsExplicit() {
		f.Message = notSet(iv, strconv.Quote(text)) + " schedules evaluation by wall-clock time"
	}
	place(&f, iv.Node)
	p.Report(f)
}

func timeEvalHelp(p *plan.Plan, iv plan.Fact[plan.Interval]) string {
	if h := advice(p, "eval.interval", iv); h != "" {
		return h
	}
	return "evaluate every N training steps instead (e.g. eval_every_steps), so every run is evaluated at the same points of training"
}
