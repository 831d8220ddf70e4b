package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// big_vision ml_collections configs (`def get_config(arg=None)` in a .py file), checked against
// google-research/big_vision @0127fb6 (the corpus's commit; no release tags):
//
//   - big_vision/train.py:158 `batch_size = config.input.batch_size`: the global batch (it must
//     divide by jax.device_count()).
//   - big_vision/train.py:181 `config.get("prefetch_to_device", 1)`; input_pipeline.py:170
//     `input_config.get("prefetch", 2)`: tf.data prefetch depth, 2 by default.
//   - big_vision/train.py:211 `jax.random.PRNGKey(config.get("seed", 0))`: one init key, the same
//     on every host.
//   - big_vision/train.py:464-467: checkpoints every `ckpt_*` steps overwrite the last one; only
//     the steps of `keep_ckpt_*` (default: the final step) are kept for good. Without `ckpt_*`
//     nothing is saved.
//   - big_vision/evaluators/common.py:60: an evaluator's batch_size falls back to
//     config.batch_size_eval, then config.input.batch_size.
//
// Durations are written `<name>_steps | _epochs | _examples | _percent` (u.steps()); only the
// step form gives a number of steps here, the others keep their unit or stay unknown.
//
// The Document is what get_config() returns, evaluated statically with its default argument
// (lint/doc python.go). Left unknown: the data seed (tf.data is not seeded per host in
// big_vision), workers (tf.data has none), batch norm (the vit/mixer models use layer norm;
// BiT's ResNets use group norm).

const bvVersion = "big_vision @0127fb6 (big_vision/train.py, input_pipeline.py, evaluators/common.py)"

// BigVision reads big_vision get_config() files.
var BigVision = register(newBigVision())

// newBigVision builds BigVision (a function of its own: see register).
func newBigVision() *Dialect {
	return &Dialect{
		Name:      "big-vision",
		Title:     "big_vision (ml_collections)",
		Version:   bvVersion,
		Formats:   []doc.Format{doc.Python},
		Detect:    detBigVision,
		Normalize: normBigVision,
		Advice:    bigVisionAdvice,
		Keys: []Key{
			{Path: "input.batch_size", Type: "integer", Concept: "train.global_batch", Doc: "global train batch"},
			{Path: "input.prefetch", Type: "integer", Default: "2", Concept: "data.prefetch", Doc: "tf.data prefetch depth (batches)"},
			{Path: "prefetch_to_device", Type: "integer", Default: "1", Concept: "", Doc: "batches prefetched onto the devices"},
			{Path: "seed", Type: "integer", Default: "0", Concept: "seeds.init", Doc: "model init seed (the same on every host)"},
			{Path: "total_steps", Type: "integer", Concept: "train.max_steps", Doc: "training length (or total_epochs, total_examples)"},
			{Path: "log_training_steps", Type: "integer", Concept: "", Doc: "training-metric logging interval"},
			{Path: "ckpt_steps", Type: "integer", Default: "none", Concept: "ckpt.interval", Doc: "checkpoint interval; none: no checkpoints"},
			{Path: "keep_ckpt_steps", Type: "integer", Default: "none", Concept: "ckpt.retention", Doc: "steps whose checkpoint is kept for good; none: the final one"},
			{Path: "evals.[].log_steps", Type: "integer", Concept: "eval.interval", Doc: "an evaluator's interval (or log_epochs, log_examples, log_percent)"},
			{Path: "evals.[].batch_size", Type: "integer", Concept: "eval.global_batch", Doc: "an evaluator's global batch; falls back to batch_size_eval, then input.batch_size"},
			{Path: "batch_size_eval", Type: "integer", Concept: "eval.global_batch", Doc: "default eval batch of every evaluator"},
		},
	}
}

// mlcImports reports whether the file imports ml_collections or a module whose path starts with
// prefix.
func mlcImports(d *doc.Document, prefix string) (mlc, own bool) {
	for _, r := range d.Refs {
		if r.Kind != "import" {
			continue
		}
		if strings.HasPrefix(r.Target, "ml_collections") {
			mlc = true
		}
		if prefix != "" && strings.HasPrefix(r.Target, prefix) {
			own = true
		}
	}
	return mlc, own
}

func detectBigVision(d *doc.Document) int {
	if d.Format != doc.Python || d.Root == nil {
		return 0
	}
	mlc, own := mlcImports(d, "big_vision")
	s := 0
	if own {
		s += 60
	}
	if mlc {
		s += 30 // ml_collections is big_vision's config library (scenic's too: see below)
	}
	// ml_collections and get_config are every ml_collections project's (Flax's examples,
	// vision_transformer's vit_jax): without big_vision's own import, layout or keys the file
	// is not big_vision's, and its defaults (no checkpoints without ckpt_steps) are not claimed.
	// A file under big_vision's own tree (big_vision/configs/common.py) is big_vision's.
	specific := own || strings.Contains(d.Path, "big_vision")
	root := d.Root
	for _, k := range []string{"log_eval_steps", "num_training_epochs", "num_training_steps", "rng_seed"} {
		if root.Get(k) != nil {
			s -= 10 // scenic's spellings
		}
	}
	if root.Style == "get_config" {
		s += 10
	}
	if n := root.Get("input"); n != nil && n.Kind == doc.Map {
		s += 20
		specific = true
	}
	for _, k := range []string{"log_training_steps", "ckpt_steps", "keep_ckpt_steps", "total_epochs", "evals", "prefetch_to_device", "optax_name"} {
		if root.Get(k) != nil {
			s += 10
			// scenic's dataset configs set prefetch_to_device at their top level too
			// (scenic/projects/layout_denoise/configs/dataset_config.py @4a38d47): alone it
			// does not make a file big_vision's.
			specific = specific || k != "prefetch_to_device"
		}
	}
	if !specific {
		return 0
	}
	return Cap(max(s, 0))
}

// bvSavesPredictions reports an evaluator that writes predictions or samples (givt's
// proj.givt.save_predictions with pred='sample') rather than scoring the model: its batch is
// sized for generation, often the whole (small) split, and is not an eval batch in the
// playbook's sense.
func bvSavesPredictions(e *doc.Node) bool {
	t, _ := e.Get("type").Str()
	pred, _ := e.Get("pred").Str()
	return strings.Contains(t, "save_predictions") || strings.Contains(pred, "sample")
}

// bvSteps reads a big_vision duration `<prefix>_steps|_epochs|_percent` under n as an interval.
func bvSteps(n *doc.Node, prefix, key string) plan.Fact[plan.Interval] {
	for _, u := range []struct {
		suffix string
		unit   plan.Unit
	}{{"_steps", plan.Steps}, {"_epochs", plan.Epochs}, {"_percent", plan.Ratio}} {
		c := n.Get(prefix + u.suffix)
		if c == nil {
			continue
		}
		v, ok := c.Float()
		if !ok {
			return plan.Fact[plan.Interval]{Key: key + u.suffix, Node: c}
		}
		return plan.Fact[plan.Interval]{Value: plan.Interval{Value: v, Unit: u.unit, Text: c.Value}, Origin: plan.Explicit, Key: key + u.suffix, Node: c}
	}
	return plan.Fact[plan.Interval]{}
}

// bvTrainsNot reports a get_config that runs no training step, so that nothing of a training
// run is read from it (as mmTestOnly for MMEngine): a length of 0 (total_steps = 0, an
// eval-only config; utils.py steps: "steps=0 is also a valid value (e.g. to only run
// evaluators)", and train.py's loop over range(first_step + 1, total_steps + 1) then runs no
// step), or no length at all, with which every trainer stops before training (u.steps("total",
// ...) raises ValueError; the GSAM trainer reads num_epochs or total_steps instead): a config
// for the eval-only and timing tools, or one completed on the command line.
func bvTrainsNot(root *doc.Node) bool {
	set := false
	for _, k := range []string{"total_steps", "total_epochs", "total_examples", "num_epochs"} {
		n := root.Get(k)
		if n == nil {
			continue
		}
		set = true
		if f, ok := n.Float(); ok && f == 0 {
			return true
		}
	}
	return !set && root.Style == "get_config"
}

func normalizeBigVision(d *doc.Document, ctx Context) *plan.Plan {
	p := &plan.Plan{Framework: "big-vision"}
	root := d.Root
	if bvTrainsNot(root) {
		ApplyContext(p, ctx)
		return p
	}
	bs, _ := IntAt(root, "input.batch_size")
	p.Train.GlobalBatch = bs
	if f, ok := IntAt(root, "total_steps"); ok {
		p.Train.MaxSteps = f
	}
	// Seed: one PRNGKey for init, the same on every host.
	if s := root.Get("seed"); s != nil {
		if !s.IsUnknown() {
			p.Seeds.Init = plan.Set(plan.Seed{Value: s.Value, Varies: plan.SameOnEveryHost}, "seed", s)
		}
	} else {
		p.Seeds.Init = plan.Defaulted(plan.Seed{Value: "0", Varies: plan.SameOnEveryHost}, "seed", plan.Why{By: "the big_vision default", Note: "seed 0"}, nil)
	}
	// Prefetch: tf.data, 2 when absent.
	if n := root.At("input.prefetch"); n != nil {
		if v, ok := n.Int(); ok {
			p.Data.Prefetch = plan.Set(int(v), "input.prefetch", n)
		}
	} else if root.Get("input") != nil {
		p.Data.Prefetch = plan.Defaulted(2, "input.prefetch", plan.Why{By: "the big_vision default", Note: "input.prefetch 2"}, root.Get("input"))
	}
	// Evaluation: the most frequent evaluator and the smallest eval batch.
	evalDefault := plan.Fact[int]{}
	if f, ok := IntAt(root, "batch_size_eval"); ok {
		evalDefault = f
	} else if bs.Known() {
		evalDefault = plan.Defaulted(bs.Value, "batch_size_eval", plan.Because("big_vision falls back to input.batch_size"), nil)
	}
	if evals := root.Get("evals"); evals != nil && evals.Kind == doc.Map {
		for _, e := range evals.Children {
			if e.Kind != doc.Map || bvSavesPredictions(e) {
				continue
			}
			iv := bvSteps(e, "log", "evals."+e.Key+".log")
			if iv.Known() && iv.Value.Unit == plan.Steps && (!p.Eval.Interval.Known() || iv.Value.Value < p.Eval.Interval.Value.Value) {
				p.Eval.Interval = iv
			}
			eb := evalDefault
			if f, ok := IntAt(e, "batch_size"); ok {
				f.Key = "evals." + e.Key + ".batch_size"
				eb = f
			}
			if eb.Known() && (!p.Eval.GlobalBatch.Known() || eb.Value < p.Eval.GlobalBatch.Value) {
				p.Eval.GlobalBatch = eb
			}
		}
	}
	// Checkpoints: every ckpt_steps, overwriting the last; keep_ckpt_steps kept for good.
	ck := bvSteps(root, "ckpt", "ckpt")
	if !ck.Known() && ck.Node == nil {
		// The spelling of big_vision's first release, which its GSAM trainer still reads
		// (big_vision/trainers/proj/gsam/train.py: config.get("checkpoint_steps")), as do the
		// trainers derived from it (uncertainty-baselines' jft and retinopathy baselines).
		ck = bvSteps(root, "checkpoint", "checkpoint")
	}
	switch {
	case ck.Known():
		p.Ckpt.Enabled = plan.Set(true, ck.Key, ck.Node)
		if ck.Value.Unit == plan.Steps {
			p.Ckpt.Interval = ck
		}
		// Retention stays unknown: every ckpt_steps save overwrites the last one and the steps of
		// keep_ckpt_steps (default: the final step) are kept for good. That is neither keep-all
		// nor a latest-N limit the retention rule can word correctly ("keeps only the latest"
		// would need the rule to say why), so the rule stays silent rather than misname it.
	case !bvAnySteps(root, "ckpt") && !bvAnySteps(root, "keep_ckpt") && ck.Node == nil && root.Style == "get_config":
		// train.py @0127fb6 saves at keep_ckpt_* steps (keep_ckpt_steps = get_steps("keep_ckpt",
		// None) or keep_last) even without ckpt_*: with neither, nothing.
		p.Ckpt.Enabled = plan.Defaulted(false, "ckpt_steps", plan.Because("big_vision saves no checkpoint without ckpt_steps or keep_ckpt_steps"), nil)
	}
	p.Logging.Scope = plan.Defaulted(plan.PrimaryHost, "", plan.Because("big_vision writes metrics on process 0"), nil)
	ApplyContext(p, ctx)
	return p
}

// bvAnySteps reports whether the config sets prefix's interval in any of the units big_vision's
// get_steps reads (prefix_steps, _epochs, _examples, _percent).
func bvAnySteps(root *doc.Node, prefix string) bool {
	for _, u := range []string{"_steps", "_epochs", "_examples", "_percent"} {
		if root.Get(prefix+u) != nil {
			return true
		}
	}
	return false
}
