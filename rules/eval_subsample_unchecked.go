package rules

import (
	"strconv"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// EvalSubsampleUnchecked reports periodic evaluation that reads only part of the eval set, in a
// framework that never evaluates the whole set during the run. Info: a fixed subset is a
// legitimate way to make periodic evaluation cheap; the finding asks for a full evaluation of
// the checkpoints that matter.
var EvalSubsampleUnchecked = register(&evalSubsampleUncheckedDef)

var evalSubsampleUncheckedDef = lint.Rule{
	Code: "TL205", Name: "eval-subsample-unchecked", Category: lint.CatEvaluation, Severity: lint.Info,
	Anchor:    "choosing-a-sample-for-periodic-evaluation",
	Title:     "Periodic evaluation reads only part of the eval set",
	NeedsPlan: true,
	Options: []lint.Option{{Name: "min_examples", Type: "integer", Default: 0,
		Doc: "stay silent when each evaluation is known to read at least this many examples (a batch limit counts batches × eval batch per device × devices, the devices as 1 when unknown); 0 reports every subset"}},
	Rationale: `Evaluating on a fixed subset keeps periodic evaluation cheap, and the playbook accepts that, with
conditions: the subset must be large enough that its noise is well below the differences being
compared, it must be the same subset every time, and the checkpoints that are kept should also be
scored on the full set, since a small sample can rank two checkpoints in the wrong order. A
config that limits every evaluation to a few batches, with nothing scoring the whole set, leaves
the choice of the best checkpoint to that noise.

Reported as info when the config caps the batches (or the fraction) each evaluation reads. Run a
full evaluation of the selected checkpoints afterwards, or raise the limit. The option
` + "`min_examples`" + ` is the sample floor: a subset known to hold at least that many examples is
large enough for you, and is not reported.

Adapted from the Deep Learning Tuning Playbook (Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0);
no endorsement implied.`,
	Fix: `Evaluate the checkpoints you keep on the full eval set after training (a separate evaluation job),
or raise the limit so that periodic evaluation reads the whole set.`,
	Check: checkEvalSubsampleUnchecked,
}

func checkEvalSubsampleUnchecked(p *lint.Pass) {
	e := p.Plan.Eval
	if e.Enabled.Known() && !e.Enabled.Value || e.Unavailable {
		return
	}
	s := e.Subset
	if !s.Known() || s.Value.Value <= 0 {
		return
	}
	var part string
	switch s.Value.Unit {
	case plan.Steps:
		// A batch limit counts each process's batches (its loader reads its share of the
		// set under data parallelism), so the message says so.
		part = "the first " + strconv.FormatFloat(s.Value.Value, 'f', -1, 64) + " batches of each process's share"
		if s.Value.Value == 1 {
			part = "one batch of each process's share"
		}
	case plan.Ratio:
		part = strconv.FormatFloat(s.Value.Value*100, 'f', -1, 64) + " % of the batches"
	case plan.Samples:
		part = strconv.FormatFloat(s.Value.Value, 'f', -1, 64) + " examples"
	default:
		return
	}
	if floor := p.Int("min_examples"); floor > 0 && subsetExamples(p.Plan, s.Value) >= floor {
		return
	}
	f := lint.Finding{Key: s.Key}
	f.Message = keyOr(s, "the eval limit") + " " + written(s, s.Value.Text) + " limits every evaluation to " + part + " of the eval set, and nothing evaluates the rest"
	place(&f, s.Node)
	f.Help = "score the checkpoints you keep on the full eval set after training, or raise " + keyOr(s, "the limit") + " so each evaluation reads the whole set"
	p.Report(f)
}

// subsetExamples is the fewest examples a limited evaluation is known to read: the limit itself
// when it counts examples; batches × eval batch per device × devices (the devices as 1 when
// unknown) when it counts batches; 0 when it cannot be told (a fraction of a set of unknown size).
func subsetExamples(pl *plan.Plan, limit plan.Interval) int {
	switch limit.Unit {
	case plan.Samples:
		return int(limit.Value)
	case plan.Steps:
		b := pl.Eval.PerDeviceBatch
		if !b.Known() || b.Value <= 0 {
			return 0
		}
		devices := 1
		if n, ok := pl.Topology.Devices(); ok && n > 0 {
			devices = n
		}
		return int(limit.Value) * b.Value * devices
	}
	return 0
}
