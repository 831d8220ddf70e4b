package rules

import (
	"strconv"

	"github.com/trainlint/trainlint/lint"
)

// WarmupTooLong reports a learning-rate warmup that takes a large share of the step budget.
var WarmupTooLong = register(&warmupTooLongDef)

var warmupTooLongDef = lint.Rule{
	Code: "TL702", Name: "warmup-too-long", Category: lint.CatBatchSchedule, Severity: lint.Warning,
	Anchor:    "how-to-apply-learning-rate-warmup",
	Title:     "Learning-rate warmup takes a large share of training",
	NeedsPlan: true,
	Options: []lint.Option{
		{Name: "warning_fraction", Type: "number", Default: 0.10, Doc: "warn when warmup is longer than this fraction of the training steps"},
		{Name: "info_fraction", Type: "number", Default: 0.05, Doc: "note warmup longer than this fraction (info)"},
	},
	Rationale: `Warmup exists to get the model through the unstable first steps at a high learning rate; the
playbook treats its length as something to pick so that the peak learning rate is reached safely,
then to leave alone, and notes that a warmup that is too long costs training that could have been
done at the peak rate. Every step spent warming up is a step the decay schedule does not get: with
a warmup that reaches the end of the step budget the run never trains at its configured learning
rate at all, and curves of runs with different budgets stop being comparable.

The rule reports warmup that reaches the step budget as an error, warmup above
` + "`warning_fraction`" + ` (10 %) of it as a warning and above ` + "`info_fraction`" + ` (5 %) as info.
A ratio is compared directly; a step count needs a step budget in the file (` + "`max_steps`" + `) and is
not judged against epoch-based runs, whose length depends on the data. Adapted from the Deep
Learning Tuning Playbook (Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0); no endorsement implied.`,
	Fix:     `Shorten warmup to a few per cent of the training steps.`,
	FixList: fixList("schedule.warmup", ""),
	Check:   checkWarmupTooLong,
}

func checkWarmupTooLong(p *lint.Pass) {
	s, t := p.Plan.Schedule, p.Plan.Train
	warnAt, infoAt := p.Float("warning_fraction"), p.Float("info_fraction")
	var (
		frac    float64
		f       lint.Finding
		message string
	)
	switch {
	case s.WarmupRatio.IsExplicit():
		r := s.WarmupRatio
		frac = r.Value
		f.Key = r.Key
		place(&f, r.Node)
		message = r.Key + " " + written(r, fmtFloat(r.Value)) + " spends " + pct(frac) + " of training in warmup"
		if frac >= 1 {
			message = r.Key + " " + written(r, fmtFloat(r.Value)) + " makes warmup as long as the whole run"
		}
	case s.WarmupSteps.IsExplicit() && t.MaxSteps.Known() && t.MaxSteps.Value > 0:
		w, m := s.WarmupSteps, t.MaxSteps
		frac = float64(w.Value) / float64(m.Value)
		f.Key = w.Key
		place(&f, w.Node)
		f.Related = related(m.Node, w.Node, m.Key+" is set here")
		message = w.Key + " " + itoa(w.Value) + " is " + pct(frac) + " of " + m.Key + " " + itoa(m.Value)
		if frac >= 1 {
			message = w.Key + " " + itoa(w.Value) + " is not shorter than " + m.Key + " " + itoa(m.Value)
		}
	default:
		return
	}
	switch {
	case frac >= 1:
		f.Severity = lint.Error
		message += ": the learning rate never leaves warmup"
	case frac > warnAt:
		f.Severity = lint.Warning
	case frac > infoAt:
		f.Severity = lint.Info
	default:
		return
	}
	f.Message = message
	f.Help = advice(p.Plan, "schedule.warmup", s.WarmupSteps)
	if f.Help == "" {
		f.Help = "warm up for a few per cent of the training steps, long enough to reach the peak learning rate without instability"
	}
	p.Report(f)
}

// pct formats a fraction as a whole percentage ("30 %"), one decimal below 10 %.
func pct(f float64) string {
	v := f * 100
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " %"
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " %"
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
