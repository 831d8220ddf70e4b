package rules

import (
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// EvalBatchSmallerThanTrain reports an eval batch smaller than the train batch on the same
// devices. Severity policy: an eval batch that is only a framework default keeps the warning
// when the train batch is larger, because that is exactly how the pitfall happens (the user
// raised the train batch and never looked at the eval default); the message says it is a default.
var EvalBatchSmallerThanTrain = register(&evalBatchSmallerThanTrainDef)

var evalBatchSmallerThanTrainDef = lint.Rule{
	Code: "TL202", Name: "eval-batch-smaller-than-train", Category: lint.CatEvaluation, Severity: lint.Warning,
	Anchor:    "setting-up-periodic-evaluations",
	Title:     "The eval batch is smaller than the train batch",
	NeedsPlan: true,
	Rationale: `When training and periodic evaluation share the same devices, evaluation needs less memory per
example than training: it keeps no activations for the backward pass and no optimizer state is
touched. An eval batch at least as large as the train batch therefore fits, and a smaller one
only makes every evaluation take longer (more, smaller steps) and stalls training for nothing.
The playbook recommends an eval batch at least as large as the train batch in this setting.

trainlint compares like with like: the per-device eval batch with the per-device train (micro)
batch, or the global eval batch with the global train batch. Gradient accumulation is never
counted, since each accumulated micro-batch is what occupies memory. When evaluation runs in a
separate job, or is off, there is nothing to compare; nor when each evaluation reads a set number
of batches (a batch limit), since a smaller batch then reads fewer examples in no more steps.

A missing eval key counts with the framework's default: a trainer that evaluates 8 examples
per device unless told otherwise evaluates with a batch smaller than many train batches.`,
	Fix:     `Raise the eval batch to at least the train batch.`,
	FixList: fixList("eval.per_device_batch", ""),
	Check:   checkEvalBatchSmallerThanTrain,
}

func checkEvalBatchSmallerThanTrain(p *lint.Pass) {
	e, t := p.Plan.Eval, p.Plan.Train
	if e.Enabled.Known() && !e.Enabled.Value {
		return
	}
	if e.Colocated.Known() && !e.Colocated.Value {
		return // a separate eval job has its own memory budget
	}
	if e.FixedBatches || e.Subset.Known() && e.Subset.Value.Unit == plan.Steps {
		// Each evaluation reads at most a set number of batches: a smaller batch reads fewer
		// examples in no more steps (whether the cap binds is not known), so it is no slower.
		return
	}
	// Like with like: per device first, then global. Never across granularities.
	ev, tr, gran := e.PerDeviceBatch, t.PerDeviceBatch, "per-device"
	if !ev.Known() || !tr.Known() {
		ev, tr, gran = e.GlobalBatch, t.GlobalBatch, "global"
	}
	if !ev.Known() || !tr.Known() || ev.Value <= 0 || tr.Value <= 0 || ev.Value >= tr.Value {
		return
	}
	if ev.Origin == plan.Default && tr.Origin == plan.Default {
		return // two defaults: nothing the file says (and no framework's defaults are unequal)
	}
	if gran == "per-device" && (e.Granularity == plan.Unstated || t.Granularity == plan.Unstated) {
		// In-house keys such as train.batch_size/eval.batch_size are compared like for like but
		// may well be global: do not call them per-device in the message.
		gran = ""
	}

	f := lint.Finding{Key: ev.Key}
	trPart := strings.TrimSpace(gran+" train batch") + " " + itoa(tr.Value) + derivedNote(tr)
	if tr.Origin == plan.Default {
		trPart += " (" + keyOr(tr, "the train batch") + " is not set: " + defaultName(tr) + ")"
	}
	if ev.Origin == plan.Default {
		f.Message = notSet(ev, itoa(ev.Value)) + " is smaller than " + keyOr(tr, strings.TrimSpace(gran+" train batch")) + " " + itoa(tr.Value) + derivedNote(tr)
		place(&f, ev.Node, tr.Node)
	} else {
		f.Message = strings.TrimSpace(gran+" eval batch") + " " + itoa(ev.Value) + derivedNote(ev) + " is smaller than " + trPart
		place(&f, ev.Node, tr.Node)
		if ev.IsExplicit() && ev.Node != nil && ev.Node.IsScalar() {
			f.Fix = lint.ReplaceValue(ev.Node, itoa(tr.Value), lint.Safe, "set "+keyOr(ev, "the eval batch")+" to "+itoa(tr.Value))
		}
	}
	f.Related = related(tr.Node, f.Node, "train batch set here")
	if !tr.IsExplicit() {
		f.Related = nil // a defaulted train batch is not "set" anywhere
	}
	f.Help = "set " + keyOr(ev, "the eval batch") + " to at least " + itoa(tr.Value) + ": evaluation keeps no activations for backprop, so it fits a batch at least as large as training's"
	if h := advice(p.Plan, "eval.per_device_batch", ev); h != "" {
		f.Help = h // the framework asks for something more specific (equal batches, say)
	}
	p.Report(f)
}
