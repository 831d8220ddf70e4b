package rules

import (
	"math"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// CheckpointKeepsLatestNotBest reports checkpoint retention that keeps only the most recent N
// checkpoints, which deletes the best one as soon as N newer ones exist.
var CheckpointKeepsLatestNotBest = register(&checkpointKeepsLatestNotBestDef)

var checkpointKeepsLatestNotBestDef = lint.Rule{
	Code: "TL301", Name: "checkpoint-keeps-latest-not-best", Category: lint.CatCheckpoints, Severity: lint.Warning,
	Anchor:    "saving-checkpoints-and-retrospectively-selecting-the-best-checkpoint",
	Title:     "Checkpoint retention keeps the latest N, so the best checkpoint can be deleted",
	NeedsPlan: true,
	Rationale: `The best checkpoint of a run is often not the last one: validation metrics plateau, wobble or
get worse while training goes on. The playbook's answer is to train for a fixed number of steps
and pick the best checkpoint afterwards, which needs the best ones to still exist when the run
ends. A policy that keeps only the N most recent checkpoints deletes the best one as soon as N
newer checkpoints are written.

When the policy is only the framework's default (a checkpoint callback without a monitor, a
default limit), the finding is info.

Keeping every checkpoint, or the best N by a validation metric, is fine. When the run is too
short to write more than N checkpoints, nothing is deleted and nothing is reported.`,
	Fix:     `Keep the best checkpoints by a validation metric, or keep them all.`,
	FixList: fixList("ckpt.retention", ""),
	Check:   checkCheckpointKeepsLatest,
}

func checkCheckpointKeepsLatest(p *lint.Pass) {
	c := p.Plan.Ckpt
	if c.Enabled.Known() && !c.Enabled.Value {
		return
	}
	if e := p.Plan.Eval.Enabled; e.Known() && !e.Value {
		return // no periodic evaluation, no metric to keep the best by: periodic-eval-disabled reports it
	}
	r := c.Retention
	if !r.Known() || r.Value.Kind != plan.KeepLatest || r.Value.N <= 0 {
		return
	}
	n := r.Value.N
	// A run that cannot write more than N checkpoints loses none; one that evaluates once at
	// most (EmbodiedScan's val_interval 12 in a 12-epoch run) has no best among them to lose.
	if saves, ok := planned(p.Plan, c.Interval, c.AtEnd); ok && saves <= n || !ok && n >= keepAllCount {
		return
	}
	if evalsOnceAtMost(p.Plan) {
		return
	}
	what := "the " + itoa(n) + " most recent checkpoints"
	if n == 1 {
		what = "the most recent checkpoint"
	}
	f := lint.Finding{Key: r.Key}
	if r.Origin == plan.Default && writtenAsUnset(r) {
		// The file sets the key, but the framework reads the value as unset (a limit of 0 that
		// a front-end replaces with its own default): a choice the user made, so it stays a warning.
		f.Message = r.Key + " " + r.Node.Value + " counts as unset: " + defaultName(r) + " " + itoa(n) + " keeps only " + what + ", so the best one can be deleted"
	} else if r.Origin == plan.Default {
		f.Message = notSet(r, itoa(n)) + " keeps only " + what + ", so the best one can be deleted"
		// Nothing in the file chose this policy: lower confidence (a warning would fail CI on
		// every file that never configures checkpointing).
		f.Severity = lint.Info
	} else {
		f.Message = keyOr(r, "checkpoint retention") + " " + written(r, itoa(n)) + " keeps only " + what + ", so the best one can be deleted"
	}
	if m := c.BestMetric; m.Known() && m.Value == "" && m.Key != "" {
		// The policy is keep-latest because nothing is monitored: blame the missing metric, the
		// one setting that makes the same limit keep the best checkpoints.
		f.Message = m.Key + " is not set, so " + keyOr(r, "checkpoint retention") + " " + itoa(n) + " keeps only " + what + " and the best one can be deleted"
	}
	place(&f, r.Node)
	f.Help = retentionHelp(p.Plan, r)
	if more := loadBestNeeds(p.Plan); more != "" {
		f.Help += "; " + more
	}
	if r.IsExplicit() && r.Note != "" {
		f.Help = r.Note + "; " + f.Help // the dialect's reason, e.g. why a keep-best setting was dropped
	} else if reason := droppedBest(r); reason != "" {
		// The file asked for keep-best (the finding points there) and the framework dropped it:
		// the user chose this, so it stays a warning, and the help says why.
		f.Help = reason + "; meet those conditions so the best checkpoint is kept, or raise " + keyOr(r, "the retention limit") + " to keep every checkpoint"
		f.Severity = 0
	}
	p.Report(f)
}

// planned is how many times the run does something every iv (saves a checkpoint, evaluates),
// when the step budget and a step interval, or the epochs and an epoch interval, are known: at
// most, so that a count within a retention limit proves nothing is deleted. A run whose length
// is not a multiple of the interval may act once more after its last step (atEnd): counted
// unless that is known not to happen. A fractional number of epochs ends with a partial epoch,
// and an epoch-end save there is counted the same way.
func planned(pl *plan.Plan, iv plan.Fact[plan.Interval], atEnd plan.Fact[bool]) (int, bool) {
	ms, ep := pl.Train.MaxSteps, pl.Train.Epochs
	if !iv.Known() || iv.Value.Value <= 0 {
		return 0, false
	}
	switch {
	case ms.Known() && ms.Value > 0 && iv.Value.Unit == plan.Steps && iv.Value.Value >= 1:
		return timesIn(float64(ms.Value), iv.Value.Value, atEnd), true
	case ep.Known() && ep.Value > 0 && (iv.Value.Unit == plan.Epochs || iv.Value.Unit == plan.EpochFraction):
		// An epoch-bounded run saving every k epochs (or k times per epoch) writes epochs/k.
		return timesIn(ep.Value, iv.Value.Value, atEnd), true
	}
	return 0, false
}

// timesIn is how many times something every `every` happens in a run of length `length` (in the
// same unit): once at each whole multiple, and once more at the end when the length is not a
// multiple and atEnd is not known to be false.
func timesIn(length, every float64, atEnd plan.Fact[bool]) int {
	q := length / every
	n := math.Floor(q + 1e-9)
	if q-n > 1e-9 && !(atEnd.Known() && !atEnd.Value) {
		n++
	}
	if n > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(n)
}

// loadBestNeeds says what else must change before the framework accepts a best-model reload
// (the advice of this rule), when its start-up check would refuse the file's schedules: "" when
// they are aligned, or the framework has no such check.
func loadBestNeeds(pl *plan.Plan) string {
	c, e := pl.Ckpt, pl.Eval
	if c.AlignCheck == "" || !c.LoadBest.Known() || c.LoadBest.Value || !c.Interval.Known() || !e.Interval.Known() {
		return ""
	}
	sv, ev := c.Interval, e.Interval
	lb := keyOr(c.LoadBest, "a best-model reload")
	switch {
	case sv.Value.Unit != ev.Value.Unit && !(isStepLike(sv.Value.Unit) && isStepLike(ev.Value.Unit)):
		return lb + " also needs saving and evaluating on the same strategy (steps or epochs), or " + c.AlignCheck
	case sv.Value.Unit != ev.Value.Unit:
		return lb + " also needs " + keyOr(sv, "the save interval") + " and " + keyOr(ev, "the eval interval") + " written the same way (both steps or both ratios), or " + c.AlignCheck
	case sv.Value.Unit == plan.Steps || sv.Value.Unit == plan.Ratio:
		if !plan.MultipleOf(sv.Value.Value, ev.Value.Value) {
			return lb + " also needs " + intervalPhrase(sv) + " to be a multiple of " + intervalPhrase(ev) + ", or " + c.AlignCheck
		}
	}
	return ""
}

func retentionHelp(p *plan.Plan, r plan.Fact[plan.Retention]) string {
	if h := advice(p, "ckpt.retention", r); h != "" {
		return h
	}
	// No dialect says how this retention could keep the best (orbax's CheckpointManager has a
	// best_fn, a plain max_to_keep of another framework may have none): both ways are named.
	return "keep every checkpoint (no limit in " + keyOr(r, "the retention") + ") and select the best one afterwards from the eval metrics, or have the retention rank checkpoints by the eval metric where the framework can (orbax: best_fn and best_mode)"
}

// writtenAsUnset reports a defaulted retention whose node is the key itself with a non-null
// value: the file wrote a value the framework treats as "not set".
func writtenAsUnset(r plan.Fact[plan.Retention]) bool {
	return r.Node != nil && r.Node.IsScalar() && !r.Node.IsNull() && r.Node.Value != "" && r.Node.Path().String() == r.Key
}

// droppedBest is the dialect's reason when a defaulted keep-latest retention points at another
// key the file set (a load-best switch the front-end drops unless its conditions hold), or "".
func droppedBest(r plan.Fact[plan.Retention]) string {
	if r.Origin != plan.Default || r.Node == nil || !r.Node.IsScalar() || r.Node.Path().String() == r.Key {
		return ""
	}
	return r.Value.DroppedBest
}

// evalsOnceAtMost reports a run whose eval interval is at least its length (in steps, or in
// epochs): it evaluates once, at the end, or not at all. A step interval may count batches
// (a trainer's validation interval may) where the length counts optimizer steps, so with gradient
// accumulation the interval must reach the length in batches (a loop counting iterations for
// both is only held to a stricter test).
func evalsOnceAtMost(pl *plan.Plan) bool {
	ms, ep, iv := pl.Train.MaxSteps, pl.Train.Epochs, pl.Eval.Interval
	if !iv.Known() || iv.Value.Value <= 0 {
		return false
	}
	switch iv.Value.Unit {
	case plan.Steps:
		batches := ms.Value
		if ga := pl.Train.GradAccum; ga.Known() && ga.Value > 1 {
			batches *= ga.Value
		}
		return ms.Known() && ms.Value > 0 && iv.Value.Value >= float64(batches)
	case plan.Epochs:
		return ep.Known() && ep.Value > 0 && iv.Value.Value >= ep.Value
	}
	return false
}

// keepAllCount is a retention count no run's saves reach (100,000 checkpoints), written to keep
// every one (MaxText forks' checkpoint_max_to_keep: 1_000_000_000): when the number of saves is
// not known, such a limit is not called one that deletes the best.
const keepAllCount = 100_000
