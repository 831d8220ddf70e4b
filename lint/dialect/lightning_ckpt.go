package dialect

import (
	"cmp"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// findModelCheckpoint locates the ModelCheckpoint that decides which checkpoints are kept: a
// CLI callbacks item (class_path + init_args), a Hydra node with _target_ ...ModelCheckpoint, or
// a Hydra callbacks override entry named model_checkpoint. Of several, the first with a
// monitor: it keeps the best checkpoints whatever the others keep (FlowDock saves a "last"
// checkpoint without a monitor beside one that keeps the best by val_sampling). params may be
// nil when the callback takes every default.
func findModelCheckpoint(root *doc.Node, sh lightningShape) (params, at *doc.Node, prefix string, ok bool) {
	isMC := func(s string) bool { return strings.HasSuffix(s, "ModelCheckpoint") }
	monitored := func(params *doc.Node) bool {
		m := params.Get("monitor")
		return m != nil && !m.IsNull() && scalarText(m) != ""
	}
	if sh.tr != nil {
		cbs := sh.tr.Get("callbacks")
		var items []*doc.Node
		switch {
		case cbs == nil:
		case cbs.Kind == doc.Seq:
			items = cbs.Children
		case cbs.Kind == doc.Map:
			items = []*doc.Node{cbs}
		}
		// Two passes: the first callback with a monitor, else the first.
		for pass := 0; pass < 2; pass++ {
			for _, it := range items {
				var ps *doc.Node
				switch {
				case isMC(scalarText(it.Get("class_path"))):
					ps = classArgs(it)
				case isMC(scalarText(it.Get("_target_"))):
					ps = it
				default:
					continue
				}
				if pass == 1 || monitored(ps) {
					if ps == it {
						return it, it, sectionKey(it), true
					}
					return ps, it, joinKey(sectionKey(it), "init_args"), true
				}
			}
		}
	}
	var first, hit *doc.Node
	root.Walk(func(n *doc.Node) bool {
		if hit != nil {
			return false
		}
		if n.Kind == doc.Map && isMC(scalarText(n.Get("_target_"))) {
			if first == nil {
				first = n
			}
			if monitored(n) {
				hit = n
			}
			return false
		}
		return n.Depth() < 3
	})
	if hit == nil {
		hit = first
	}
	if hit != nil {
		return hit, hit, sectionKey(hit), true
	}
	for _, c := range []*doc.Node{root.Get("model_checkpoint"), root.At("callbacks.model_checkpoint")} {
		if isMap(c) {
			return c, c, sectionKey(c), true
		}
	}
	return nil, nil, "", false
}

// classArgs is what jsonargparse gives a class_path entry's constructor: its init_args with its
// dict_kwargs over them. jsonargparse (from v4.10.0; v4.40.1 _typehints.py adapt_class_type)
// moves each dict_kwargs key that names a parameter into init_args before checking them, and
// passes the others as keyword arguments, so a ModelCheckpoint's monitor written under
// dict_kwargs is given (genbio-ai/ModelGenerator). The merged map is for reading: its entries
// are the file's own nodes, so findings and fixes land where each is written. Nil when the
// entry has neither.
func classArgs(it *doc.Node) *doc.Node {
	ia, dk := it.Get("init_args"), it.Get("dict_kwargs")
	if !isMap(dk) || len(dk.Children) == 0 || ia != nil && !isMap(ia) {
		return ia
	}
	m := &doc.Node{Kind: doc.Map, Key: "init_args", Parent: it, Span: dk.Span, KeySpan: dk.KeySpan}
	if ia != nil {
		m.Span, m.KeySpan = ia.Span, ia.KeySpan
		m.Children = append(m.Children, ia.Children...)
	}
	m.Children = append(m.Children, dk.Children...)
	return m
}

// checkpointLike reports a trainer callback of the project's own that derives from a checkpoint
// callback (own: the repository's classes that do, when its code was read) or is named as one
// (torch-uncertainty's TUClsCheckpoint): the Trainer adds its default ModelCheckpoint only when
// no callback is a Checkpoint (Lightning 2.6.0 callback_connector.py
// _configure_checkpoint_callbacks, trainer.checkpoint_callbacks), and such a class is or may
// well be one, keeping whatever it keeps. So may an entry of another factory's shape (a `kind`,
// no class_path: factoryEntry), which the Trainer cannot take as written: the repository's code
// builds it, into a class that is not known.
func checkpointLike(tr *doc.Node, own map[string]bool) bool {
	cbs := tr.Get("callbacks")
	if cbs == nil || cbs.Kind != doc.Seq {
		return false
	}
	for _, it := range cbs.Children {
		if factoryEntry(it) {
			return true // the repository's factory builds it: it may be a checkpoint callback
		}
		name := scalarText(it.Get("class_path"))
		if it.Kind == doc.Scalar {
			name = scalarText(it)
		}
		if cls := name[strings.LastIndexByte(name, '.')+1:]; strings.Contains(cls, "Checkpoint") || own[cls] {
			return true
		}
	}
	return false
}

// earlyStoppingCannotStop reports an EarlyStopping callback (es) that can never stop the run
// on a plateau: its patience is at least the checks the Trainer (tr) makes in all.
// EarlyStopping stops when wait_count, which grows by one a check without improvement, reaches
// patience (callbacks/early_stopping.py _evaluate_stopping_criteria, Lightning 2.6.5; default
// patience 3), and the first check always improves on the starting best; so with at most n
// checks (max_epochs, val_check_interval a fraction of an epoch, check_val_every_n_epoch) a
// patience of n or more never fires. A stopping or divergence threshold can stop it all the
// same, and an interval in batches or an unknown epoch budget leaves the count unknown: then
// it may stop. Nor does one whose patience is null stop early: it crashes instead.
func earlyStoppingCannotStop(es, tr *doc.Node, target string) bool {
	if tr == nil {
		return false
	}
	args := es
	for _, k := range []string{"init_args", "dict_kwargs"} {
		if a := es.Get(k); a != nil && a.Kind == doc.Map {
			args = a
		}
	}
	for _, k := range []string{"stopping_threshold", "divergence_threshold"} {
		if t := args.Get(k); t != nil && !t.IsNull() {
			return false
		}
	}
	patience := int64(3)
	if n := args.Get("patience"); n.IsNull() {
		// Passed on as None (jsonargparse and Hydra both do): the first check without
		// improvement compares wait_count >= None and raises TypeError (early_stopping.py:248
		// @2.2.1, the same line's test at 2.6.5), so the run crashes there, never stops early.
		return true
	} else if n != nil {
		v, ok := n.Int()
		if !ok || n.Type != doc.Int {
			return false
		}
		patience = v
	}
	if c, ok := stepChecks(tr, args); ok {
		return patience >= c
	}
	epochs, ok := tr.Get("max_epochs").Int()
	if !ok || tr.Get("max_epochs").Type != doc.Int || epochs < 0 {
		return false
	}
	perEpoch := int64(1)
	if v := tr.Get("val_check_interval"); v != nil && !v.IsNull() {
		f, ok := v.Float()
		if !ok || v.Type != doc.Float || f <= 0 || f > 1 {
			return false // a count of batches: how many checks an epoch makes is not known
		}
		if f < 1e-6 {
			return false
		}
		perEpoch = int64(1 / f)
	}
	every := int64(1)
	if n := tr.Get("check_val_every_n_epoch"); n != nil {
		v, ok := n.Int()
		if !ok || n.Type != doc.Int || v < 1 {
			return false
		}
		every = v
	}
	// One check a validation, or one a training epoch's end where the callback checks there:
	// setup makes it do so, when check_on_train_epoch_end is not given, only with
	// val_check_interval 1.0 and check_val_every_n_epoch 1, where the two counts are the same
	// (early_stopping.py:159-162 at 2.6.5, the same test from 1.5.0 on). So anomalib's
	// reverse_distillation.yaml, validating every 200 of 200 epochs, checks once. Given true
	// (or anything else read), it may check every epoch's end: the larger count bounds both.
	// The first check always improves on the starting best (±inf), so n checks leave
	// wait_count at most n-1: a patience of n or more never stops the run.
	// Lightning 1.4.0 to 1.4.5 defaulted check_on_train_epoch_end to True (early_stopping.py:94
	// at 1.4.0 and 1.4.5; False before, None and setup's test from 1.4.6): every epoch's end.
	checks := epochs / every * perEpoch
	if c := args.Get("check_on_train_epoch_end"); c != nil && !c.IsNull() {
		if v, ok := c.Bool(); ok && c.Type == doc.Bool && !v {
			return patience >= checks
		}
		checks = max(epochs, checks)
	} else if releasedBefore(target, 1, 4, 6) && !releasedBefore(target, 1, 4) {
		checks = max(epochs, checks)
	}
	return patience >= checks
}

// stepChecks is how many validations a step-based Trainer makes at most: with
// check_val_every_n_epoch null, fit validates every val_check_interval training batches across
// epochs (loops/training_epoch_loop.py _should_check_val_fx, 2.6.5), so a run of max_steps
// optimizer steps, of accumulate_grad_batches batches each, validates at most
// max_steps × accumulation / val_check_interval times (eva's consep.yaml test configs: 4 steps,
// every 2 batches). ok is false unless all of those are written as integers (and small), when
// the callback checks at train epoch ends too (check_on_train_epoch_end true: how many epochs
// the steps span is not known), and beside a GradientAccumulationScheduler, which sets the
// accumulation each epoch (callbacks/gradient_accumulation_scheduler.py:140 at 2.6.5).
func stepChecks(tr, args *doc.Node) (int64, bool) {
	n := tr.Get("check_val_every_n_epoch")
	if n == nil || !n.IsNull() {
		return 0, false
	}
	if anyCallback(tr, func(ref string, _ *doc.Node) bool { return strings.HasSuffix(ref, "GradientAccumulationScheduler") }) {
		return 0, false
	}
	if c := args.Get("check_on_train_epoch_end"); c != nil && !c.IsNull() {
		if v, ok := c.Bool(); !ok || v {
			return 0, false
		}
	}
	intAt := func(k string, def int64) (int64, bool) {
		v := tr.Get(k)
		if v == nil || v.IsNull() {
			return def, def > 0
		}
		i, ok := v.Int()
		return i, ok && v.Type == doc.Int && i > 0
	}
	steps, ok1 := intAt("max_steps", 0)
	vci, ok2 := intAt("val_check_interval", 0)
	acc, ok3 := intAt("accumulate_grad_batches", 1)
	if !ok1 || !ok2 || !ok3 || steps > 1<<40 || acc > 1<<20 {
		return 0, false
	}
	// (An int val_check_interval is the Trainer's val_check_batch whatever the dataset,
	// fit_loop.py:293-294 at 2.6.5, so limit_train_batches adds no validation.)
	return steps * acc / vci, true
}

// savesOnce reports a ModelCheckpoint (params; nil for the Trainer's default one) that writes
// one checkpoint in the whole run: a run of one epoch (max_epochs: 1) checkpointed by epochs
// (no every_n_train_steps or train_time_interval), with at most one validation in the epoch,
// so the callback saves once, at the epoch's end (ModelCheckpoint._should_save_on_train_epoch_end
// and on_validation_end, callbacks/model_checkpoint.py, Lightning 2.6.5). cellarium-ml's
// one-pass statistics runs train so.
func savesOnce(tr, params *doc.Node) bool {
	if tr == nil {
		return false
	}
	if e := tr.Get("max_epochs"); e == nil || e.Type != doc.Int || e.Value != "1" {
		return false
	}
	for _, k := range []string{"every_n_train_steps", "train_time_interval"} {
		if n := params.Get(k); n != nil && !n.IsNull() {
			if v, ok := n.Int(); !ok || n.Type != doc.Int || v != 0 {
				return false
			}
		}
	}
	if v := tr.Get("val_check_interval"); v != nil && !v.IsNull() {
		if f, ok := v.Float(); !ok || v.Type != doc.Float || f != 1 {
			return false // several validations in the epoch may each save
		}
	}
	return true
}

// wandbKeepsEvery reports a WandbLogger among the run's loggers (trainer.logger, a CLI
// class_path item or a list of them, or Hydra's logger group: {name: {_target_: ...}}) with
// log_model "all": it uploads every checkpoint ModelCheckpoint saves as a new version of the
// run's model artifact when it is saved (lightning/pytorch/loggers/wandb.py, after_save_checkpoint
// and _scan_and_log_checkpoints, 2.0.0 and 2.5.0 alike), so a checkpoint pruned on disk is still
// kept. log_model true uploads only what is left on disk at the end, so it does not count.
func wandbKeepsEvery(root *doc.Node, sh lightningShape) bool {
	var loggers []*doc.Node
	add := func(n *doc.Node) {
		switch {
		case n == nil:
		case n.Kind == doc.Seq:
			loggers = append(loggers, n.Children...)
		case n.Kind == doc.Map && n.Get("class_path") == nil && n.Get("_target_") == nil:
			loggers = append(loggers, n.Children...) // Hydra's {wandb: {_target_: ...}}
		default:
			loggers = append(loggers, n)
		}
	}
	if sh.tr != nil {
		add(sh.tr.Get("logger"))
	}
	if sh.hydra {
		add(root.Get("logger"))
	}
	for _, lg := range loggers {
		args := lg
		cls := scalarText(lg.Get("_target_"))
		if c := scalarText(lg.Get("class_path")); c != "" {
			cls, args = c, lg.Get("init_args")
		}
		if strings.HasSuffix(cls, "WandbLogger") && args != nil && scalarText(args.Get("log_model")) == "all" {
			return true
		}
	}
	return false
}

// findEarlyStopping returns the first EarlyStopping callback (a CLI callbacks item with
// class_path, or a node with _target_ ...EarlyStopping near the top), or nil.
func findEarlyStopping(root *doc.Node, sh lightningShape) *doc.Node {
	isES := func(n *doc.Node) bool {
		return n != nil && n.Kind == doc.Map && (strings.HasSuffix(scalarText(n.Get("class_path")), "EarlyStopping") ||
			strings.HasSuffix(scalarText(n.Get("_target_")), "EarlyStopping"))
	}
	var hit *doc.Node
	root.Walk(func(n *doc.Node) bool {
		if hit != nil {
			return false
		}
		if isES(n) {
			hit = n
			return false
		}
		// (a Hydra file's `+callbacks:` is a key of that name, which no Trainer reads:
		// compose.OverrideKey, reported as unknown-key)
		return n.Depth() < 4 && !strings.HasPrefix(n.Key, "+") && !strings.HasPrefix(n.Key, "~")
	})
	return hit
}

// callbacksOwner is the map whose callbacks list holds n: the Trainer's arguments of a file
// that keeps them below its root under another name than trainer (anomalib's tiled-ensemble
// pipeline reads TrainModels.trainer, components/model_training.py:193 @b7233686), nil when n
// is in no such list.
func callbacksOwner(n *doc.Node) *doc.Node {
	if l := n.Parent; l != nil && l.Kind == doc.Seq && l.Key == "callbacks" && isMap(l.Parent) {
		return l.Parent
	}
	return nil
}

// anyCallback reports whether test holds for one item of the Trainer's callbacks list (tr's),
// given the item's class (its class_path, else its _target_) and its arguments (init_args when
// a map, else the item itself).
func anyCallback(tr *doc.Node, test func(ref string, args *doc.Node) bool) bool {
	cbs := tr.Get("callbacks")
	if cbs == nil || cbs.Kind != doc.Seq {
		return false
	}
	for _, c := range cbs.Children {
		args := c
		if ia := c.Get("init_args"); isMap(ia) {
			args = ia
		}
		if test(cmp.Or(scalarText(c.Get("class_path")), scalarText(c.Get("_target_"))), args) {
			return true
		}
	}
	return false
}
