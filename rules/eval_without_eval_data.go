package rules

import (
	"github.com/trainlint/trainlint/lint"
)

// EvalWithoutEvalData reports periodic evaluation switched on in a file that provides no eval
// data, where the framework reads its eval data from the config. An error when the framework
// refuses to start (the dialect's DataCheck), a warning otherwise.
var EvalWithoutEvalData = register(&evalWithoutEvalDataDef)

var evalWithoutEvalDataDef = lint.Rule{
	Code: "TL210", Name: "eval-without-eval-data", Category: lint.CatEvaluation, Severity: lint.Error,
	Anchor:    "setting-up-periodic-evaluations",
	Title:     "Evaluation is on but no eval data is configured",
	NeedsPlan: true,
	Rationale: `Periodic evaluation needs held-out data. A config that turns evaluation on without a held-out
split or an eval dataset either stops at start-up (some front-ends check this before loading the
model) or, where nothing checks it, runs without the validation curve the schedule was meant to
give. The playbook's periodic evaluations assume a fixed held-out sample.

trainlint only reports frameworks that read their eval data from the config file: where a
training script passes the eval dataset in code, the file cannot tell, and nothing is reported.`,
	Fix:     `Provide eval data (a held-out fraction or an eval dataset), or turn evaluation off.`,
	FixList: fixList("eval.enabled", ""),
	Check:   checkEvalWithoutEvalData,
}

func checkEvalWithoutEvalData(p *lint.Pass) {
	e := p.Plan.Eval
	if !e.Enabled.Known() || !e.Enabled.Value || !e.Data.Known() || e.Data.Value {
		return
	}
	f := lint.Finding{Key: e.Enabled.Key}
	data := keyOr(e.Data, "eval data")
	if e.Data.IsExplicit() {
		data += " " + written(e.Data, "")
	} else {
		data += " is not set"
	}
	f.Message = keyOr(e.Enabled, "evaluation") + " " + written(e.Enabled, "on") + " turns evaluation on, but no eval data is configured (" + data + ")"
	if e.DataCheck != "" {
		f.Message += ": " + e.DataCheck
	} else {
		f.Severity = lint.Warning
	}
	place(&f, e.Enabled.Node, e.Data.Node)
	f.Related = related(e.Data.Node, f.Node, "eval data set here")
	f.Help = advice(p.Plan, "eval.enabled", e.Enabled)
	if f.Help == "" {
		f.Help = "hold out eval data, or turn evaluation off"
	}
	p.Report(f)
}
