package rules

import (
	"math"
	"strconv"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// CheckpointNotAlignedWithEval reports a save schedule that does not land on evaluations, so
// saved checkpoints have no eval metric of their own. Severity policy: an error when the run
// also reloads the best checkpoint and the framework refuses to start on the mismatch (the
// dialect's AlignCheck); a warning otherwise. Schedules in different units (epochs against
// steps) are only reported where the framework refuses them.
var CheckpointNotAlignedWithEval = register(&checkpointNotAlignedWithEvalDef)

var checkpointNotAlignedWithEvalDef = lint.Rule{
	Code: "TL303", Name: "checkpoint-not-aligned-with-eval", Category: lint.CatCheckpoints, Severity: lint.Warning,
	Anchor:    "saving-checkpoints-and-retrospectively-selecting-the-best-checkpoint",
	Title:     "Checkpoints are not saved where evaluations happen",
	NeedsPlan: true,
	Rationale: `Picking the best checkpoint after the run needs an eval metric for every checkpoint that could
be picked. When the save interval is not a multiple of the eval interval, most checkpoints are
written between two evaluations: nothing measured them, and ranking them means borrowing a
metric from a different step. The playbook recommends saving checkpoints at the steps where
evaluations happen, so each saved model has its own metrics.

Some trainers enforce this: when they reload the best model at the end, they refuse to start
unless saving and evaluating use the same strategy and the save steps are a multiple of the
eval steps. That case is an error here; elsewhere the mismatch is a warning, and info when the
save or eval interval is only a default nobody wrote down.

Saving less often than evaluating is fine as long as every save lands on an evaluation (save
every 1000 steps, evaluate every 500). Saving more often than evaluating only to resume after a
preemption is a deliberate trade: suppress the finding on that line and say so. Where the
trainer itself writes the best checkpoint at every evaluation (a save-best setting of its
evaluation or checkpoint hook), the periodic saves only serve resuming, and the rule is silent.
So it is where checkpoints are ranked by a metric whose name says training logs it
(reduced_train_loss): its value is current at every save, and ranking by a training metric is
checkpoint-best-metric-missing's concern.`,
	Fix: `Make the save interval a multiple of the eval interval (the same value is simplest), and use
the same strategy (steps or epochs) for both.`,
	FixList: fixList("ckpt.align", ""),
	Check:   checkCheckpointNotAligned,
}

func checkCheckpointNotAligned(p *lint.Pass) {
	c, e := p.Plan.Ckpt, p.Plan.Eval
	if !c.Enabled.Known() || !c.Enabled.Value || !e.Enabled.Known() || !e.Enabled.Value {
		return
	}
	sv, ev := c.Interval, e.Interval
	if !sv.Known() || !ev.Known() || sv.Value.Value <= 0 || ev.Value.Value <= 0 {
		return
	}
	refuses := c.AlignCheck != "" && c.LoadBest.Known() && c.LoadBest.Value
	if (c.BestAtEval != "" || c.FreshMetric != "") && !refuses {
		// the best is written at each evaluation (the saves between are for resuming), or
		// the saves are ranked by a training metric logged at every step (none is stale)
		return
	}
	if t := p.Plan.Train; !refuses && (ev.Value.Unit == plan.Steps && t.MaxSteps.Known() && ev.Value.Value >= float64(t.MaxSteps.Value) ||
		ev.Value.Unit == plan.Epochs && t.Epochs.Known() && ev.Value.Value >= t.Epochs.Value) {
		return // no periodic evaluation within the run: nothing to align with
	}
	f := lint.Finding{Key: sv.Key}
	if refuses {
		place(&f, sv.Node, c.LoadBest.Node, ev.Node)
	} else {
		place(&f, sv.Node, ev.Node)
	}
	su, eu := sv.Value.Unit, ev.Value.Unit
	switch {
	case su == eu && (su == plan.Steps || su == plan.Epochs || su == plan.Ratio || su == plan.EpochFraction):
		if plan.MultipleOf(sv.Value.Value, ev.Value.Value) {
			return
		}
		if su == plan.EpochFraction {
			if ks, ke, ok := perEpochCounts(sv.Value.Value, ev.Value.Value); ok && ke%ks == 0 {
				// 2 saves and 6 evaluations an epoch: every save is at an evaluation, though 0.5
				// is not a multiple of 1/6 in floating point. Whether the steps the framework
				// rounds them to still line up depends on the epoch's length, which the file
				// does not tell.
				return
			}
			// Per-epoch counts: the intervals are their inverses, so say it in epochs.
			f.Message = "a save every " + fracEpoch(sv.Value.Value) + " epoch (" + intervalPhrase(sv) + ") is not a multiple of an evaluation every " +
				fracEpoch(ev.Value.Value) + " epoch (" + intervalPhrase(ev) + ")"
			f.Help = "save at every evaluation or every k-th one: a save interval that is a whole multiple of " + fracEpoch(ev.Value.Value) + " epoch"
			break
		}
		f.Message = intervalPhrase(sv) + " is not a multiple of " + intervalPhrase(ev)
		f.Help = "set " + keyOr(sv, "the save interval") + " to a multiple of " + keyOr(ev, "the eval interval") +
			" (" + suggestMultiple(sv.Value.Value, ev.Value.Value) + ") so every checkpoint is saved at an evaluation"
		if su == plan.Steps && sv.IsExplicit() && sv.Node != nil && sv.Node.IsScalar() && ev.Value.Value >= 1 && ev.Value.Value == math.Trunc(ev.Value.Value) {
			// The next multiple up saves a little less often; whether that suits the run is the
			// user's call, so the edit is only likely.
			next := (math.Floor(sv.Value.Value/ev.Value.Value) + 1) * ev.Value.Value
			ns := strconv.FormatFloat(next, 'f', -1, 64)
			f.Fix = lint.ReplaceValue(sv.Node, ns, lint.Unsafe, "set "+keyOr(sv, "the save interval")+" to "+ns)
		}
	case refuses && isStepLike(su) && isStepLike(eu):
		// steps against a ratio of the run: the framework cannot check the multiple and refuses.
		f.Message = intervalPhrase(sv) + " and " + intervalPhrase(ev) + " mix a ratio of the run with absolute steps"
		f.Help = "write " + keyOr(sv, "the save interval") + " and " + keyOr(ev, "the eval interval") + " the same way (both steps, or both ratios), the save interval a multiple of the eval interval"
	case refuses && su != eu:
		f.Message = "checkpoints are saved by " + unitWord(su) + " (" + keyOr(sv, "save interval") + ") but evaluated by " + unitWord(eu) + " (" + keyOr(ev, "eval interval") + ")"
		f.Help = "use the same strategy for saving and evaluating, with the save interval a multiple of the eval interval"
	default:
		return
	}
	if refuses {
		f.Severity = lint.Error
		f.Message += ": with " + keyOr(c.LoadBest, "the best-model reload") + " on, " + c.AlignCheck
		if h := advice(p.Plan, "ckpt.align", sv); h != "" {
			f.Help = h + "; " + f.Help
		}
		f.Related = related(c.LoadBest.Node, f.Node, "best-model reload turned on here")
	} else {
		if c.Unaligned != "" {
			f.Message += c.Unaligned
		} else {
			f.Message += ", so saved checkpoints in between carry no eval metric"
		}
		if !sv.IsExplicit() || !ev.IsExplicit() {
			f.Severity = lint.Info // a default schedule nobody chose
		}
		f.Related = related(ev.Node, f.Node, "eval interval set here")
	}
	p.Report(f)
}

// perEpochCounts reads two fractions of an epoch written as counts per epoch (1/k: saves or
// evaluations per epoch) back as those counts.
func perEpochCounts(save, eval float64) (ks, ke int, ok bool) {
	count := func(v float64) (int, bool) {
		k := math.Round(1 / v)
		return int(k), k >= 1 && k < 1e6 && math.Abs(1/v-k) < 1e-9*k
	}
	ks, okS := count(save)
	ke, okE := count(eval)
	return ks, ke, okS && okE
}

func fracEpoch(v float64) string {
	return strconv.FormatFloat(math.Round(v*1e4)/1e4, 'f', -1, 64)
}

func isStepLike(u plan.Unit) bool { return u == plan.Steps || u == plan.Ratio }

func unitWord(u plan.Unit) string {
	switch u {
	case plan.Steps, plan.Ratio:
		return "steps"
	case plan.Epochs, plan.EpochFraction:
		return "epochs"
	case plan.Seconds:
		return "time"
	}
	return string(u)
}

// intervalPhrase is "save_steps 150" (or "save_steps is not set: the Trainer default 500").
func intervalPhrase(f plan.Fact[plan.Interval]) string {
	v := f.Value.Text
	if v == "" {
		v = strconv.FormatFloat(f.Value.Value, 'f', -1, 64)
	}
	switch f.Origin {
	case plan.Default:
		return keyOr(f, "the interval") + " (" + defaultName(f) + " " + v + ")"
	case plan.Derived:
		return keyOr(f, "the interval") + " " + v + derivedNote(f)
	}
	return keyOr(f, "the interval") + " " + written(f, v)
}

// suggestMultiple names the nearest multiples of b around a: "e.g. 200 or 100".
func suggestMultiple(a, b float64) string {
	lo := math.Floor(a/b) * b
	hi := lo + b
	fs := func(x float64) string { return strconv.FormatFloat(math.Round(x*1e6)/1e6, 'f', -1, 64) }
	if lo <= 0 {
		return "e.g. " + fs(hi)
	}
	return "e.g. " + fs(lo) + " or " + fs(hi)
}
