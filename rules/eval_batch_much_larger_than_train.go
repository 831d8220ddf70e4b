package rules

import (
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// EvalBatchMuchLargerThanTrain reports an eval batch more than k times the train batch on the
// same devices (k is the rule option "k", 8 by default). Info: the memory an eval step needs
// depends on the model and task, so this is a prompt to check, not a claim that it fails.
var EvalBatchMuchLargerThanTrain = register(&evalBatchMuchLargerThanTrainDef)

var evalBatchMuchLargerThanTrainDef = lint.Rule{
	Code: "TL209", Name: "eval-batch-much-larger-than-train", Category: lint.CatEvaluation, Severity: lint.Info,
	Anchor:    "setting-up-periodic-evaluations",
	Title:     "The eval batch is many times the train batch",
	NeedsPlan: true,
	Rationale: `An eval step keeps no activations for a backward pass, so an eval batch somewhat larger than the
train batch fits where training fits, and the playbook recommends at least the train batch. Far
larger is another matter: outputs over a large vocabulary, generation with a cache, or gathered
predictions grow with the batch, and an evaluation that runs out of memory hours into a run
loses the time until its first checkpoint.

trainlint compares like with like (per device with per device, global with global) and reports
an eval batch more than k times the train batch, k being the rule option below (8 by default).
Set it in the config file under [rules.eval-batch-much-larger-than-train].`,
	Fix: `Check that evaluation at this batch size fits (run one evaluation at the start), or lower the
eval batch to a few times the train batch.`,
	Options: []lint.Option{{Name: "k", Type: "integer", Default: 8, Doc: "report an eval batch more than k times the train batch"}},
	Check:   checkEvalBatchMuchLarger,
}

func checkEvalBatchMuchLarger(p *lint.Pass) {
	e, t := p.Plan.Eval, p.Plan.Train
	if e.Enabled.Known() && !e.Enabled.Value || e.Colocated.Known() && !e.Colocated.Value {
		return
	}
	k := p.Int("k")
	if k <= 0 {
		return
	}
	ev, tr, gran := e.PerDeviceBatch, t.PerDeviceBatch, "per-device"
	if !ev.Known() || !tr.Known() {
		ev, tr, gran = e.GlobalBatch, t.GlobalBatch, "global"
	}
	if !ev.Known() || !tr.Known() || tr.Value <= 0 || ev.Value <= k*tr.Value || !ev.IsExplicit() {
		return // only an eval batch the file wrote; defaults are never this far apart
	}
	if gran == "per-device" && (e.Granularity == plan.Unstated || t.Granularity == plan.Unstated) {
		gran = "" // train.batch_size and eval.batch_size: like for like, maybe global (score_sde's are)
	}
	f := lint.Finding{Key: ev.Key}
	f.Message = strings.TrimSpace(gran+" eval batch") + " " + itoa(ev.Value) + " is more than " + itoa(k) + "× the train batch " + itoa(tr.Value) + derivedNote(tr)
	place(&f, ev.Node)
	f.Related = related(tr.Node, f.Node, "train batch set here")
	f.Help = "make sure one evaluation at this batch fits in memory (evaluate once at the start of the run), or lower " + keyOr(ev, "the eval batch")
	p.Report(f)
}
