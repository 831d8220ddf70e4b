//go:build !trainlint_lite

package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// lightningUnvalidated reads a config whose model is a LightningModule of the repository that
// never validates (Context.NoValModels: no validation_step of its own or its bases'): fit runs
// no validation loop whatever the Trainer says (loops/evaluation_loop.py, Lightning 2.6.5), so
// evaluation is off, and a checkpoint callback without a monitor keeps the latest of
// checkpoints that no metric ranks (lightning-diffusers' DDPM).
func lightningUnvalidated(p *plan.Plan, root, tr *doc.Node, ctx Context) {
	if len(ctx.NoValModels) == 0 {
		return
	}
	n := root.At("model.class_path")
	switch {
	case modelIn(root, ctx.NoValModels):
		// (An EarlyStopping then has no metric to watch: with strict, its default, it stops the
		// run at the first epoch's end, "early stopping conditioned on metric ... which is not
		// available", callbacks/early_stopping.py _validate_condition_metric; nothing to say of
		// runs that end on a plateau.)
		p.Ckpt.EarlyStopping = plan.Fact[bool]{}
		if e := tr.Get("max_epochs"); tr == nil || e != nil && e.Type == doc.Int && (e.Value == "0" || e.Value == "1") {
			// No Trainer settings, or one pass over the data (lightning-uq-box's post-hoc
			// calibrations: TempScaling fits a temperature in its one epoch): no training run
			// to evaluate periodically is known, so nothing is said of evaluation.
			p.Eval = plan.Eval{}
			break
		}
		p.Eval = plan.Eval{Enabled: plan.Fact[bool]{Value: false, Origin: plan.Derived, Key: "model.class_path", Node: n,
			Note: "the model " + n.Value + " defines no validation_step (nor do its bases): fit runs no validation"}}
		if p.Advice == nil {
			p.Advice = map[string]string{}
		}
		p.Advice["eval.enabled"] = "give the model a validation_step that logs a metric, and the run a validation dataloader, so that fit evaluates periodically"
	case root.Get("model") == nil && ctx.NoValModels["*"]:
		// No model here (a trainer file passed beside a model file), and no LightningModule
		// of the repository validates: what the checkpoints keep ranks by nothing either.
	default:
		return
	}
	if r := p.Ckpt.Retention; r.Known() && r.Value.Kind == plan.KeepLatest && p.Ckpt.BestMetric.Known() && p.Ckpt.BestMetric.Value == "" {
		p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: r.Key, Node: r.Node}
	}
}
