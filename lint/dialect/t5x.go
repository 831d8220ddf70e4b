package dialect

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// T5X gin configs, checked against google-research/t5x @cc342d4 (the corpus's commit; the
// repository has no release tags):
//
//   - t5x/train.py:97-112 `def train(...)`: total_steps, eval_steps (a number of eval batches,
//     not an interval), eval_period, stats_period, random_seed, use_hardware_rng; all required
//     but the last two, so a file that does not bind them relies on an included run file
//     (runs/pretrain.gin binds eval_period = 1000).
//   - t5x/train.py:218-224: random_seed None → broadcast_one_to_all(time) from host 0: the same
//     seed on every host.
//   - t5x/utils.py:131-141 SaveCheckpointConfig: period (None), checkpoint_steps, keep (None =
//     keep all; otherwise the N most recent), keep_dataset_checkpoints.
//   - t5x/utils.py:538-564 DatasetConfig: batch_size (global: examples per step across hosts),
//     shuffle, seed, num_prefetch_threads (None; 0 and None both mean tf.data's default, so 0 is
//     not "no prefetch"), num_workers (0; grain only).
//
// The document comes from the gin reader: `train_script.train.eval_period` (dynamic
// registration: `import __main__ as train_script`) or `train.eval_period` (legacy), and scoped
// configurables `train/utils.DatasetConfig.batch_size` (`train/DatasetConfig.batch_size` in
// the legacy form). Macros are already resolved (their spans are the macro's definition).
//
// Deliberately left unknown (rules stay silent): the data seed (T5X broadcasts one data seed
// and every host reads its own deterministic shard, so an identical seed is right), workers and
// prefetch unless num_prefetch_threads is a positive number, batch norm (T5X models use layer
// norm).

const t5xVersion = "T5X @cc342d4 (t5x/train.py, t5x/utils.py)"

// T5X reads T5X gin files.
var T5X = register(newT5X())

// newT5X builds T5X (a function of its own: see register).
func newT5X() *Dialect {
	return &Dialect{
		Name:      "t5x",
		Title:     "T5X (gin)",
		Version:   t5xVersion,
		Formats:   []doc.Format{doc.Gin},
		Detect:    detT5X,
		Normalize: normT5X,
		Advice:    t5xAdvice,
		Keys: []Key{
			{Path: "train.eval_period", Type: "integer", Concept: "eval.interval", Doc: "evaluate every N training steps (also spelt train_script.train.eval_period)"},
			{Path: "train.eval_steps", Type: "integer", Concept: "", Doc: "number of eval batches per evaluation (not an interval)"},
			{Path: "train.total_steps", Type: "integer", Concept: "train.max_steps", Doc: "training steps"},
			{Path: "train.random_seed", Type: "integer", Default: "none", Concept: "seeds.init", Doc: "None: a seed drawn on host 0 and broadcast to every host"},
			{Path: "train/utils.DatasetConfig.batch_size", Type: "integer", Concept: "train.global_batch", Doc: "global train batch (examples per step across all hosts)"},
			{Path: "train_eval/utils.DatasetConfig.batch_size", Type: "integer", Concept: "eval.global_batch", Doc: "global eval batch"},
			{Path: "utils.DatasetConfig.num_prefetch_threads", Type: "integer", Default: "none", Concept: "data.prefetch", Doc: "tf.data prefetch threads; None or 0 use the default"},
			{Path: "utils.SaveCheckpointConfig.period", Type: "integer", Default: "none", Concept: "ckpt.interval", Doc: "save every N steps"},
			{Path: "utils.SaveCheckpointConfig.keep", Type: "integer", Default: "none", Concept: "ckpt.retention", Doc: "keep the N most recent checkpoints; None keeps all"},
		},
	}
}

func detectT5X(d *doc.Document) int {
	if d.Format != doc.Gin || d.Root == nil {
		return 0
	}
	// Gin is not T5X's alone: Dopamine, Trax and Mesh TensorFlow's T5 write gin too (their
	// files bind DQNAgent.gamma, train.model, utils.run.train_steps), so T5X needs its own
	// evidence: an import or include of t5x, or one of its configurables.
	s := 0
	for _, r := range d.Refs {
		if strings.HasPrefix(r.Target, "t5x") || r.Kind == "include" && strings.Contains(r.Target, "t5x/") {
			s += 70
			break
		}
	}
	if t5xTrainOwn(d.Root) || d.Root.Get("partitioning") != nil || t5xConfigurable(d.Root, "SaveCheckpointConfig") != nil ||
		t5xConfigurable(d.Root, "DatasetConfig") != nil || t5xScoped(d.Root, "train", "DatasetConfig") != nil {
		s += 40
	}
	return Cap(s)
}

// t5xTrainOwn: the file binds one of the parameters only T5X's train() has (eval_period,
// total_steps; Trax's train has steps and eval_frequency).
func t5xTrainOwn(root *doc.Node) bool {
	t := t5xTrain(root)
	return t != nil && (t.Get("eval_period") != nil || t.Get("total_steps") != nil)
}

// t5xTrain is the train() configurable: train_script.train (dynamic registration, whatever
// alias `import __main__ as X` chose) or train (legacy).
func t5xTrain(root *doc.Node) *doc.Node {
	if n := root.Get("train"); n != nil && n.Kind == doc.Map && n.Get("eval_period") != nil || root.Get("train") != nil && root.Get("train").Kind == doc.Map && root.Get("train").Get("total_steps") != nil {
		return root.Get("train")
	}
	for _, c := range root.Children {
		if t := c.Get("train"); t != nil && t.Kind == doc.Map && c.Kind == doc.Map && strings.HasSuffix(c.Key, "script") {
			return t
		}
	}
	if n := root.Get("train"); n != nil && n.Kind == doc.Map {
		return n
	}
	return nil
}

// t5xScoped finds scope/utils.Name (dynamic registration) or scope/Name (legacy).
func t5xScoped(root *doc.Node, scope, name string) *doc.Node {
	if n := root.Get(scope + "/utils").Get(name); n != nil {
		return n
	}
	if n := root.Get(scope + "/" + name); n != nil {
		return n
	}
	return nil
}

// t5xConfigurable finds utils.Name or Name.
func t5xConfigurable(root *doc.Node, name string) *doc.Node {
	if n := root.Get("utils").Get(name); n != nil {
		return n
	}
	return root.Get(name)
}

func t5xInt(n *doc.Node, param, key string) plan.Fact[int] {
	c := n.Get(param)
	if c == nil {
		return plan.Fact[int]{}
	}
	if v, ok := c.Int(); ok {
		return plan.Set(int(v), key, c)
	}
	return plan.Fact[int]{Key: key, Node: c}
}

func normalizeT5X(d *doc.Document, ctx Context) *plan.Plan {
	p := &plan.Plan{Framework: "t5x"}
	root := d.Root
	train := t5xTrain(root)
	trainKey := "train"
	if train != nil {
		trainKey = train.Path().String()
	}
	if train != nil {
		if f := t5xInt(train, "eval_period", trainKey+".eval_period"); f.Known() {
			p.Eval.Interval = plan.Fact[plan.Interval]{Value: plan.Interval{Value: float64(f.Value), Unit: plan.Steps, Text: strconv.Itoa(f.Value)}, Origin: plan.Explicit, Key: f.Key, Node: f.Node}
		}
		p.Train.MaxSteps = t5xInt(train, "total_steps", trainKey+".total_steps")
		if s := train.Get("random_seed"); s != nil {
			seed := plan.Seed{Value: s.Value, Varies: plan.SameOnEveryHost}
			if s.IsNull() {
				seed.Value = ""
				seed.Why = "T5X draws one seed on host 0 and broadcasts it"
			}
			if !s.IsUnknown() {
				p.Seeds.Init = plan.Set(seed, trainKey+".random_seed", s)
			}
		}
	}
	if ds := t5xScoped(root, "train", "DatasetConfig"); ds != nil {
		p.Train.GlobalBatch = t5xInt(ds, "batch_size", ds.Path().String()+".batch_size")
		if n := ds.Get("num_prefetch_threads"); n != nil {
			// 0 and None both mean the tf.data default: only a positive count is a fact.
			if v, ok := n.Int(); ok && v > 0 {
				p.Data.Prefetch = plan.Set(int(v), ds.Path().String()+".num_prefetch_threads", n)
			}
		}
	}
	if ds := t5xScoped(root, "train_eval", "DatasetConfig"); ds != nil {
		p.Eval.GlobalBatch = t5xInt(ds, "batch_size", ds.Path().String()+".batch_size")
		// Train-eval reads eval_steps batches of the repeated set (utils.py
		// get_training_eval_datasets: .repeat()...batch(...).take(eval_steps), :2133-2141
		// at cc342d4; train.py:153 "the number of batches to process for each train-eval
		// loop").
		p.Eval.FixedBatches = true
	}
	if sc := t5xConfigurable(root, "SaveCheckpointConfig"); sc != nil {
		key := sc.Path().String()
		if f := t5xInt(sc, "period", key+".period"); f.Known() {
			p.Ckpt.Interval = plan.Fact[plan.Interval]{Value: plan.Interval{Value: float64(f.Value), Unit: plan.Steps, Text: strconv.Itoa(f.Value)}, Origin: plan.Explicit, Key: f.Key, Node: f.Node}
		}
		// checkpointer_cls = @checkpoints.SaveBestCheckpointer keeps the latest checkpoint plus
		// the keep best by its metric_name_to_monitor (checkpoints.py:1462 @cc342d4).
		// An include the run did not read (prompt-tuning's of t5x/configs/runs/finetune.gin, an
		// installed package's file) may bind checkpointer_cls or keep: then they are unknown. So
		// is what a project's own checkpointer keeps (prompt-tuning's prompt_utils.Checkpointer
		// saves the prompts apart, out of reach of keep).
		// A composed run drops its includes once every one was read (compose/code_full.go), so
		// an include left was not read.
		kind, partial := plan.KeepLatest, d.HasRef("include")
		if c := sc.Get("checkpointer_cls"); c != nil {
			switch cls := strings.TrimPrefix(strings.TrimSuffix(c.Value, "()"), "@"); {
			case strings.HasSuffix(cls, "SaveBestCheckpointer"):
				kind = plan.KeepBest
			case cls != "checkpoints.Checkpointer" && cls != "t5x.checkpoints.Checkpointer":
				kind = ""
			}
		} else if partial {
			kind = ""
		}
		if k := sc.Get("keep"); k != nil {
			if k.IsNull() {
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepAll}, key+".keep", k)
			} else if v, ok := k.Int(); ok && v > 0 && kind != "" {
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: kind, N: int(v)}, key+".keep", k)
			}
		} else if !partial {
			p.Ckpt.Retention = plan.Defaulted(plan.Retention{Kind: plan.KeepAll}, key+".keep", plan.Why{By: "the T5X default", Note: "keep None: every checkpoint"}, nil)
		}
	}
	// Host 0 writes summaries; checkpoints are written by every host for its own shards, in a
	// coordinated save (t5x/checkpoints.py): both are the correct multi-host behaviour.
	p.Logging.Scope = plan.Defaulted(plan.PrimaryHost, "", plan.Because("T5X writes summaries on host 0"), nil)
	p.Ckpt.Scope = plan.Defaulted(plan.Sharded, "", plan.Because("T5X saves sharded checkpoints from every host together"), nil)
	ApplyContext(p, ctx)
	return p
}
