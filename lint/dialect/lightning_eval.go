package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// What Lightning does after the last training step (checked at 2.6.5): validation runs only
// where _should_check_val_fx says so (loops/training_epoch_loop.py): with
// check_val_every_n_epoch null, when the total batch count is a multiple of val_check_interval;
// reaching max_steps neither sets should_stop nor runs a last validation. ModelCheckpoint
// saves with every_n_train_steps only when global_step is a multiple of it
// (on_train_batch_end); its on_train_end (added in 2.5.5) writes last.ckpt when save_last is
// on, so with save_last the answer depends on the version and stays unknown.

// lightningEvalAtEnd states that validation does not run after the last step when
// val_check_interval counts batches across epochs. Only without gradient accumulation: the
// interval counts batches while max_steps counts optimizer steps.
func lightningEvalAtEnd(p *plan.Plan, tr *doc.Node) {
	iv := p.Eval.Interval
	if !iv.IsExplicit() || iv.Value.Unit != plan.Steps {
		return
	}
	if cve := tr.Get("check_val_every_n_epoch"); cve == nil || !cve.IsNull() {
		return // counted within each epoch: the last step's batch index depends on the epoch length
	}
	if ga := p.Train.GradAccum; !ga.Known() || ga.Value != 1 {
		return
	}
	p.Eval.AtEnd = plan.Defaulted(false, iv.Key,
		plan.Because("Lightning validates only when the batch count is a multiple of val_check_interval, not after the last step"), iv.Node)
}

// lightningCkptAtEnd states that ModelCheckpoint writes nothing after the last step when it
// saves every_n_train_steps without save_last.
func lightningCkptAtEnd(p *plan.Plan, params *doc.Node) {
	iv := p.Ckpt.Interval
	if !iv.IsExplicit() || iv.Value.Unit != plan.Steps || params == nil {
		return
	}
	if sl := params.Get("save_last"); sl != nil && !sl.IsNull() {
		if on, ok := sl.Bool(); !ok || on {
			return // true or "link": last.ckpt at the end from 2.5.5 on
		}
	}
	p.Ckpt.AtEnd = plan.Defaulted(false, iv.Key,
		plan.Because("ModelCheckpoint saves only at multiples of every_n_train_steps, and without save_last nothing after the last step"), iv.Node)
}

// readEvalSubset reads trainer.limit_val_batches (Lightning 2.6.5 Trainer: an int counts
// batches, a float is a fraction of the loader; 1.0, the default, is all of it, 0 turns
// validation off). The same batches are read at every validation run, and nothing validates
// the rest at the end of training. Not so from a validation loader the config says shuffles or
// cycles (uni2ts' val_dataloader: cycle true makes an endless stream whose iterator carries on
// from one validation to the next, src/uni2ts/data/loader.py:460-478 and cli/train.py:86-94 in
// Coaster41/uni2ts @a2febcb): each validation reads other batches, and the limit is what ends it.
func readEvalSubset(p *plan.Plan, root, tr *doc.Node, prefix string) {
	n := tr.Get("limit_val_batches")
	if n == nil || n.IsNull() {
		return
	}
	for _, k := range []string{"cycle", "shuffle"} {
		if v, ok := root.At("val_dataloader." + k).Bool(); ok && v {
			return
		}
	}
	r, _ := resolveRef(root, n)
	if r == nil || !r.IsScalar() {
		return
	}
	k := keyOf(n, prefix, "limit_val_batches")
	switch r.Type {
	case doc.Int:
		if v, ok := intValue(r); ok && v > 0 {
			p.Eval.Subset = plan.Set(plan.Interval{Value: float64(v), Unit: plan.Steps, Text: n.Value}, k, n)
		}
	case doc.Float:
		if v, ok := r.Float(); ok && v > 0 && v < 1 {
			p.Eval.Subset = plan.Set(plan.Interval{Value: v, Unit: plan.Ratio, Text: n.Value}, k, n)
		}
	}
}

// lightningUnaligned: ModelCheckpoint ranks a step-triggered save by monitor_candidates, which
// still hold the last validation's metrics (callbacks/model_checkpoint.py, on_train_batch_end,
// Lightning 2.6.5); only before the first validation is the save deferred (2.5.5 and later) or
// warned about (earlier). A save between validations is thus ranked by a stale metric.
// The metric is the last value logged under its name (trainer.callback_metrics): stale between
// validations for a metric validation logs; for one whose name says training logs it
// (NeMo's reduced_train_loss, logged at every step) the save is ranked by a current value, and
// for other names (pixel_AUROC, loss_gen_all) where it is logged is not known.
func lightningUnaligned(p *plan.Plan) {
	m := p.Ckpt.BestMetric
	if !m.Known() || m.Value == "" {
		return
	}
	// (a name with words of both, train_val_gap, says neither)
	switch train, eval := plan.TrainMetric(m.Value), plan.EvalMetric(m.Value); {
	case train && !eval:
		p.Ckpt.FreshMetric = m.Value
	case eval && !train:
		p.Ckpt.Unaligned = ", so ModelCheckpoint ranks checkpoints saved between validations by the previous validation's " + m.Value
	default:
		p.Ckpt.Unaligned = ", so ModelCheckpoint ranks a checkpoint saved between validations by the last value logged for " + m.Value + ", stale if validation logs it"
	}
}

// lightningUnsharded: with use_distributed_sampler false the Trainer wraps no loader in a
// DistributedSampler (trainer/connectors/data_connector.py _requires_distributed_sampler,
// Lightning 2.6.5), so every rank iterates the whole dataset unless the DataModule's own
// loaders shard by rank. NeMo is not read here: its Megatron and Lhotse loaders shard by rank
// with the switch off.
func lightningUnsharded(p *plan.Plan, tr *doc.Node, prefix string, ctx Context) {
	n := tr.Get("use_distributed_sampler")
	if n == nil || n.Type != doc.Bool {
		return
	}
	if on, _ := n.Bool(); on {
		return
	}
	for _, w := range []string{"get_rank", "global_rank", "num_replicas", "distributedsampler"} {
		if ctx.RepoNames[w] {
			// The repository's code takes the rank for its data (Clay's ClayDistributedSampler
			// slices by torch.distributed.get_rank(), profam's batch sampler by rank): the
			// flag is how a loader of its own shards, and whether it does is not known here.
			p.Data.Sharding = plan.Fact[plan.Sharding]{Key: keyOf(n, prefix, "use_distributed_sampler"), Node: n}
			return
		}
	}
	p.Data.Sharding = plan.Fact[plan.Sharding]{Value: plan.NotSharded, Origin: plan.Explicit, Key: keyOf(n, prefix, "use_distributed_sampler"), Node: n,
		Note: "the Trainer adds no DistributedSampler; unless the DataModule's loaders shard by rank themselves"}
}

// lightningModelCallbacks forgets what the config says of the callbacks a LightningModule of
// the repository returns from configure_callbacks: the Trainer's callbacks of the same type
// (the config's, or the default ModelCheckpoint) are replaced by the module's
// (_CallbackConnector._attach_model_callbacks, Lightning 2.6.5), which the config does not
// show. So are those a script of the repository hands its Trainer itself: Lightning then adds
// no default ModelCheckpoint (_configure_checkpoint_callbacks). Which module a config trains is not always known, so any such module counts. The scope
// stays: checkpoints are written from global rank 0 whichever callback writes them.
func lightningModelCallbacks(p *plan.Plan, ctx Context) {
	for _, cb := range ctx.ModelCallbacks {
		switch cb {
		case "ModelCheckpoint":
			p.Ckpt = plan.Checkpoint{Scope: p.Ckpt.Scope, EarlyStopping: p.Ckpt.EarlyStopping}
		case "EarlyStopping":
			p.Ckpt.EarlyStopping = plan.Fact[bool]{}
		}
	}
}

// lightningNoFit reports a file whose trainer section says only where and how to run (devices,
// precision, a logger) beside settings of its own script and no model, data, callbacks or
// experiment manager: NeMo's merge_lora_weights.yaml and text-generation server configs build a
// Trainer for predict and save_to (scripts/nlp_language_modeling/merge_lora_weights/merge.py at
// v2.4.0), and nothing in them trains, writes checkpoints or tracks a run. A file of a trainer
// section alone (a part of a composed config) is not taken for one.
func lightningNoFit(root, tr *doc.Node) bool {
	if tr == root || len(tr.Children) == 0 || len(root.Children) < 2 {
		return false
	}
	for _, k := range []string{"model", "data", "callbacks", "exp_manager", "ckpt_path", "seed_everything", "optimizer", "lr_scheduler"} {
		if root.Get(k) != nil {
			return false
		}
	}
	for _, c := range tr.Children {
		switch c.Key {
		case "accelerator", "strategy", "devices", "num_nodes", "precision", "logger", "plugins",
			"enable_progress_bar", "enable_model_summary", "deterministic", "benchmark", "inference_mode":
		default:
			return false
		}
	}
	return true
}

// modelIn reports a config whose model (model.class_path, LightningCLI's) names a class of
// models, by its last name: one of the repository's LightningModules that can never fit
// (Context.NoFitModels: the config only validates, tests or predicts, which write no
// checkpoint) or never validate (Context.NoValModels, lightningUnvalidated).
func modelIn(root *doc.Node, models map[string]bool) bool {
	n := root.At("model.class_path")
	if len(models) == 0 || !n.IsScalar() {
		return false
	}
	return models[n.Value[strings.LastIndexByte(n.Value, '.')+1:]]
}

// lightningPredicts reports a CLI config made for the predict subcommand: its Trainer's
// callbacks hold a prediction writer (a BasePredictionWriter, which writes only from
// predict's batches: callbacks/prediction_writer.py, Lightning 2.6.5) and it names a
// checkpoint to load (ckpt_path). cellarium-ml's scvi predict configs are run so; nothing in
// them trains, writes checkpoints or reads training batches.
func lightningPredicts(root, tr *doc.Node) bool {
	ck := root.Get("ckpt_path")
	if ck == nil || ck.Kind != doc.Scalar || ck.IsNull() || scalarText(ck) == "" {
		return false
	}
	cbs := tr.Get("callbacks")
	if cbs == nil {
		return false
	}
	for _, c := range cbs.Children {
		if strings.HasSuffix(scalarText(c.Get("class_path")), "PredictionWriter") {
			return true
		}
	}
	return false
}

// readEvalEnabled: limit_val_batches 0 (or 0.0) turns validation off; anything else keeps it.
func readEvalEnabled(p *plan.Plan, root, tr *doc.Node, prefix string, note plan.Why) {
	n := tr.Get("limit_val_batches")
	k := keyOf(n, prefix, "limit_val_batches")
	if n == nil || n.IsNull() {
		p.Eval.Enabled = plan.Defaulted(true, k, note.Plus("all validation batches"), n)
		return
	}
	r, _ := resolveRef(root, n)
	if v, ok := r.Float(); ok && r.Type != doc.String {
		p.Eval.Enabled = plan.Set(v > 0, k, n)
		return
	}
	p.Eval.Enabled = plan.Fact[bool]{Key: k, Node: n}
}
