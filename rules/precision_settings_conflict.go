package rules

import (
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// PrecisionSettingsConflict reports fp16 and bf16 mixed precision both switched on.
var PrecisionSettingsConflict = register(&precisionSettingsConflictDef)

var precisionSettingsConflictDef = lint.Rule{
	Code: "TL706", Name: "precision-settings-conflict", Category: lint.CatBatchSchedule, Severity: lint.Error,
	Anchor:    "choosing-the-batch-size",
	Title:     "The fp16 and bf16 settings contradict each other",
	NeedsPlan: true,
	Rationale: `A run trains in one half-precision format: float16 (with loss scaling) or bfloat16. A file
that switches both on says two contradictory things. Most frameworks refuse it at start-up, after
the job has been queued and the nodes allocated; one quietly trains in bf16 and drops fp16, so
the file no longer says what the run does.

The files of one run must agree too: a distributed-engine config file whose fp16 or bf16 block
says otherwise than the trainer's settings (anything but "auto") is refused at start-up; the
finding sits at that file's value, with the trainer's setting related.

The format changes the memory a batch needs, the throughput and the numerical behaviour, and
so which batch sizes are feasible and how results compare between runs: the playbook's advice
on choosing the batch size assumes these are settled before the batch size is tuned. Adapted
from the Deep Learning Tuning Playbook (Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0); no
endorsement implied.`,
	Fix: `Keep one of the two. bfloat16 needs no loss scaling and is the usual choice where the hardware
supports it (Ampere and newer GPUs, TPUs); keep fp16 on older GPUs. The fix sets fp16 to false:
safe where the framework already trains in bf16, unsafe elsewhere (on a GPU without bf16 you
want the opposite).`,
	FixList: fixList("precision", ""),
	Check:   checkPrecisionSettingsConflict,
}

func checkPrecisionSettingsConflict(p *lint.Pass) {
	reportMismatches(p, "precision")
	pr := p.Plan.Precision
	fp, bf := pr.FP16, pr.BF16
	if !fp.IsExplicit() || !bf.IsExplicit() || !fp.Value || !bf.Value {
		return
	}
	f := lint.Finding{
		Key:     fp.Key,
		Message: onText(fp) + " and " + onText(bf) + " are both on",
		Related: related(bf.Node, fp.Node, bf.Key+" is on here"),
	}
	place(&f, fp.Node)
	app := lint.Unsafe
	switch pr.BothOn {
	case plan.KeepsBF16:
		f.Severity = lint.Warning
		f.Message += ": " + p.Plan.Framework + " trains in bf16 and ignores " + fp.Key
		f.Help = "remove " + fp.Key + " or set it to false, so the file says what the run does"
		if h := advice(p.Plan, "precision", fp); h != "" {
			f.Help = h
		}
		app = lint.Safe
	default:
		f.Message += ": the run stops at start-up"
		f.Help = "keep one: set " + fp.Key + " to false for bf16 (Ampere or newer GPUs, TPUs), or " + bf.Key + " to false for fp16"
		if h := advice(p.Plan, "precision", fp); h != "" {
			f.Help += " (" + h + ")"
		}
	}
	if n := fp.Node; n != nil && n.Kind == doc.Scalar && n.Type == doc.Bool { // never "16-mixed" → false
		f.Fix = lint.ReplaceValue(n, "false", app, "set "+fp.Key+" to false")
	}
	p.Report(f)
}

// onText names a precision switch in a message: its key, with the value when that names a
// precision rather than a truth value ("trainer.precision \"bf16-mixed\"", not fp16 "yes").
func onText(f plan.Fact[bool]) string {
	if n := f.Node; n != nil && n.Kind == doc.Scalar && n.Type != doc.Bool && strings.ContainsAny(n.Value, "0123456789") {
		return f.Key + " " + written(f, n.Value)
	}
	return f.Key
}
