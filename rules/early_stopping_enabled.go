package rules

import (
	"github.com/trainlint/trainlint/lint"
)

// EarlyStoppingEnabled notes prospective early stopping. Info: it is a legitimate way to save
// compute, only not the playbook's way to pick a model.
var EarlyStoppingEnabled = register(&earlyStoppingEnabledDef)

var earlyStoppingEnabledDef = lint.Rule{
	Code: "TL305", Name: "early-stopping-enabled", Category: lint.CatCheckpoints, Severity: lint.Info,
	Anchor:    "saving-checkpoints-and-retrospectively-selecting-the-best-checkpoint",
	Title:     "Training stops early when the eval metric stops improving",
	NeedsPlan: true,
	Rationale: `Early stopping ends a run after a number of evaluations without improvement. Validation
curves are noisy and often improve again after a plateau (or once the learning rate decays),
so a patience-based stop can end a run that had not finished learning, and it makes runs of one
study train for different numbers of steps. The playbook prefers a fixed step budget for every
trial and picking the best checkpoint afterwards, which gets the benefit of early stopping
without its guesses.

This is info: early stopping is a reasonable way to save compute when runs are many and cheap.`,
	Fix:   `Train for a fixed number of steps and select the best checkpoint by its eval metric afterwards.`,
	Check: checkEarlyStopping,
}

func checkEarlyStopping(p *lint.Pass) {
	es := p.Plan.Ckpt.EarlyStopping
	if !es.IsExplicit() || !es.Value {
		return
	}
	f := lint.Finding{Key: es.Key}
	where := keyOr(es, "the config")
	if es.Node != nil && es.Node.IsScalar() {
		where += " " + es.Node.Value
	}
	f.Message = "early stopping is on (" + where + "): training stops after evaluations without improvement, so runs of this config end at different steps"
	place(&f, es.Node)
	f.Help = "train for a fixed number of steps and pick the best checkpoint afterwards from the eval metrics"
	p.Report(f)
}
