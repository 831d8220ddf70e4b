package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Torchtitan reads torchtitan's TOML job files (the TOML-config era): its documented defaults
// (torchtitan/config/job_config.py @238fa99) first, then the generic spellings on top, so a key
// the generic reader knows under the same name reads the same way.
var Torchtitan = register(newTorchtitan())

// newTorchtitan builds Torchtitan (a function of its own: see register).
func newTorchtitan() *Dialect {
	return &Dialect{
		Name:      "torchtitan",
		Title:     "torchtitan",
		Version:   "torchtitan @238fa99 (torchtitan/config/job_config.py)",
		Formats:   []doc.Format{doc.TOML},
		Fallback:  true,
		Detect:    detTorchtitan,
		Normalize: normTorchtitan,
		Keys:      torchtitanKeys,
		Loader:    TorchDataLoader,
		Advice: AdviceSet{
			{"ckpt.enabled", Advice{Help: "set [checkpoint] enable = true with an interval", Doc: "`[checkpoint] enable = true` with an `interval`."}},
			{"ckpt.retention", Advice{Doc: "`keep_latest_k` has no best-N policy: keep every checkpoint (`keep_latest_k = 0`) and select\n  the best afterwards from the eval logs."}},
			{"logging.scope", Advice{
				Help: "log from one host only: set [metrics] save_for_all_ranks = false",
				Doc:  "`[metrics] save_for_all_ranks = false`.",
			}},
		},
	}
}

// torchtitanKeys are the job_config.py fields the dialect reads, with their defaults.
var torchtitanKeys = []Key{
	{Path: "training.local_batch_size", Type: "integer", Default: "8", Concept: "train.per_device_batch", Doc: "per-device batch"},
	{Path: "training.global_batch_size", Type: "integer", Default: "-1", Concept: "train.global_batch", Doc: "global batch; -1 = local × data-parallel degree"},
	{Path: "training.steps", Type: "integer", Default: "10000", Concept: "train.max_steps", Doc: "training steps"},
	{Path: "validation.enable", Type: "boolean", Default: "false", Concept: "eval.enabled", Doc: "periodic validation"},
	{Path: "validation.freq", Type: "integer", Default: "10", Concept: "eval.interval", Doc: "validation interval in steps"},
	{Path: "validation.local_batch_size", Type: "integer", Default: "8", Concept: "eval.per_device_batch", Doc: "per-device validation batch"},
	{Path: "training.dataloader.num_workers", Type: "integer", Default: "0", Concept: "data.workers", Doc: "loader workers"},
	{Path: "training.dataloader.prefetch_factor", Type: "integer", Default: "none", Concept: "data.prefetch", Doc: "prefetch factor (needs workers > 0)"},
	{Path: "checkpoint.enable", Type: "boolean", Default: "false", Concept: "ckpt.enabled", Doc: "checkpointing"},
	{Path: "checkpoint.interval", Type: "integer", Default: "500", Concept: "ckpt.interval", Doc: "checkpoint interval in steps"},
	{Path: "checkpoint.keep_latest_k", Type: "integer", Default: "10", Concept: "ckpt.retention", Doc: "keep the latest K checkpoints; 0 = all"},
	{Path: "metrics.save_for_all_ranks", Type: "boolean", Default: "false", Concept: "logging.scope", Doc: "every rank writes metrics"},
	{Path: "metrics.enable_wandb", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "W&B logging"},
	{Path: "metrics.enable_tensorboard", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "TensorBoard logging"},
	{Path: "debug.seed", Type: "integer", Default: "none", Concept: "seeds.init", Doc: "seed (older: training.seed)"},
}

func detectTorchtitan(d *doc.Document) int {
	if isTorchtitan(d) {
		return 100
	}
	return 0
}

func normalizeTorchtitan(d *doc.Document, ctx Context) *plan.Plan {
	p := readGenericPlan("torchtitan", d, ctx, readTorchtitan)
	if ctx.RepoPackages["torchtitan"] {
		// The repository holds its own torchtitan package, which runs the file: a copy of some
		// commit or a fork, whose defaults need not be @238fa99's (llama-mimi's dataloader
		// defaults to 2 workers; MuLoCo's train.py validates on c4 with no [validation] table).
		// What the file sets is still read.
		undefault(&p.Train.PerDeviceBatch)
		undefault(&p.Train.MaxSteps)
		undefault(&p.Eval.Enabled)
		undefault(&p.Eval.Interval)
		undefault(&p.Eval.PerDeviceBatch)
		undefault(&p.Data.Workers)
		undefault(&p.Data.Prefetch)
		undefault(&p.Data.Sharding)
		undefault(&p.Ckpt.Enabled)
		undefault(&p.Ckpt.Interval)
		undefault(&p.Ckpt.Retention)
		undefault(&p.Ckpt.Scope)
		undefault(&p.Logging.Scope)
		undefault(&p.Tracking.Trackers)
	}
	return p
}

// undefault forgets a fact that only a default gave.
func undefault[T any](f *plan.Fact[T]) {
	if f.Origin == plan.Default {
		*f = plan.Fact[T]{}
	}
}

func isTorchtitan(d *doc.Document) bool {
	if d.Format != doc.TOML || d.Root == nil {
		return false
	}
	r := d.Root
	hits := 0
	for _, k := range []string{"job", "training", "parallelism", "checkpoint", "metrics", "model", "activation_checkpoint", "compile", "optimizer", "lr_scheduler", "validation"} {
		if r.Get(k) != nil {
			hits++
		}
	}
	return hits >= 3 && (r.Get("parallelism") != nil || r.At("model.flavor") != nil || r.At("job.dump_folder") != nil)
}

func readTorchtitan(p *plan.Plan, g genericReader) {
	r := g.root
	note := plan.Why{By: "the torchtitan default", Note: "job_config.py @238fa99"}
	sec := func(name string) *doc.Node { return r.Get(name) }
	def := func(v int, key string, at *doc.Node) plan.Fact[int] { return plan.Defaulted(v, key, note, at) }

	if f, ok := genIntRef(r, "training.local_batch_size"); ok {
		p.Train.PerDeviceBatch = f
	} else if f, ok := genIntRef(r, "training.batch_size"); ok {
		p.Train.PerDeviceBatch = f
	} else {
		p.Train.PerDeviceBatch = def(8, "training.local_batch_size", sec("training"))
	}
	if f, ok := genIntRef(r, "training.steps"); ok {
		p.Train.MaxSteps = f
	} else {
		p.Train.MaxSteps = def(10000, "training.steps", sec("training"))
	}
	// [validation]
	if f, ok := genBoolRef(r, "validation.enable"); ok {
		p.Eval.Enabled = f
	} else {
		p.Eval.Enabled = plan.Defaulted(false, "validation.enable", note, sec("validation"))
	}
	if f, ok := genIntRef(r, "validation.freq"); ok {
		if f.Known() {
			p.Eval.Interval = plan.Set(plan.Interval{Value: float64(f.Value), Unit: plan.Steps, Text: f.Node.Value}, f.Key, f.Node)
		} else {
			p.Eval.Interval = plan.Fact[plan.Interval]{Key: f.Key, Node: f.Node}
		}
	} else if p.Eval.Enabled.Value {
		p.Eval.Interval = plan.Defaulted(plan.Interval{Value: 10, Unit: plan.Steps, Text: "10"}, "validation.freq", note, sec("validation"))
	}
	// validation.steps: -1 (the default) reads the whole validation set, N > 0 N batches
	// (torchtitan/config/job_config.py @6404b93: "validation steps must be positive or -1").
	if f, ok := genIntRef(r, "validation.steps"); ok && f.Known() && f.Value > 0 {
		p.Eval.Subset = plan.Fact[plan.Interval]{Value: plan.Interval{Value: float64(f.Value), Unit: plan.Steps, Text: f.Node.Value},
			Origin: f.Origin, Key: f.Key, Node: f.Node, Note: f.Note}
	}
	if f, ok := genIntRef(r, "validation.local_batch_size"); ok {
		p.Eval.PerDeviceBatch = f
	} else if p.Eval.Enabled.Value {
		p.Eval.PerDeviceBatch = def(8, "validation.local_batch_size", sec("validation"))
	}
	// [training.dataloader]
	if f, ok := genIntRef(r, "training.dataloader.num_workers"); ok {
		p.Data.Workers = f
	} else {
		at := r.At("training.dataloader")
		if at == nil {
			at = sec("training") // point at [training] rather than line 1 when there is no loader table
		}
		p.Data.Workers = def(0, "training.dataloader.num_workers", at)
	}
	if f, ok := genIntRef(r, "training.dataloader.prefetch_factor"); ok {
		p.Data.Prefetch = f
	} else if p.Data.Workers.Known() && p.Data.Workers.Value == 0 {
		p.Data.Prefetch = plan.Defaulted(0, "training.dataloader.prefetch_factor", plan.Why{By: "the torchtitan default", Note: "none without workers"}, r.At("training.dataloader"))
	}
	p.Data.Sharding = plan.Defaulted(plan.GlobalIndexSampler, "training.dataset", plan.Why{By: "the torchtitan default", Note: "the dataset is split by data-parallel rank"}, nil)
	// [checkpoint]
	if f, ok := genBoolRef(r, "checkpoint.enable"); ok {
		p.Ckpt.Enabled = f
	} else if f, ok := genBoolRef(r, "checkpoint.enable_checkpoint"); ok {
		p.Ckpt.Enabled = f
	} else {
		p.Ckpt.Enabled = plan.Defaulted(false, "checkpoint.enable", note, sec("checkpoint"))
	}
	if f, ok := genIntRef(r, "checkpoint.interval"); ok {
		if f.Known() {
			p.Ckpt.Interval = plan.Set(plan.Interval{Value: float64(f.Value), Unit: plan.Steps, Text: f.Node.Value}, f.Key, f.Node)
		}
	} else {
		p.Ckpt.Interval = plan.Defaulted(plan.Interval{Value: 500, Unit: plan.Steps, Text: "500"}, "checkpoint.interval", note, sec("checkpoint"))
	}
	if f, ok := genIntRef(r, "checkpoint.keep_latest_k"); ok {
		if f.Known() {
			if f.Value <= 0 {
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepAll}, f.Key, f.Node)
			} else {
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepLatest, N: f.Value}, f.Key, f.Node)
			}
		}
	} else {
		p.Ckpt.Retention = plan.Defaulted(plan.Retention{Kind: plan.KeepLatest, N: 10}, "checkpoint.keep_latest_k", note, sec("checkpoint"))
	}
	p.Ckpt.Scope = plan.Defaulted(plan.Sharded, "checkpoint", plan.Why{By: "the torchtitan default", Note: "torch.distributed.checkpoint writes coordinated shards"}, sec("checkpoint"))
	// [metrics]
	if f, ok := genBoolRef(r, "metrics.save_for_all_ranks"); ok {
		if f.Known() {
			sc := plan.PrimaryHost
			if f.Value {
				sc = plan.EveryRank
			}
			p.Logging.Scope = plan.Set(sc, f.Key, f.Node)
		}
	} else {
		p.Logging.Scope = plan.Defaulted(plan.PrimaryHost, "metrics.save_for_all_ranks", plan.Why{By: "the torchtitan default", Note: "false: rank 0 only"}, sec("metrics"))
	}
	var tr []string
	var at, off *doc.Node // the first tracker on; the last one written off
	unknown := false
	for _, t := range []string{"tensorboard", "wandb"} {
		if f, ok := genBoolRef(r, "metrics.enable_"+t); !ok {
			continue
		} else if !f.Known() {
			unknown = true
		} else if f.Value {
			tr = append(tr, t)
			if at == nil {
				at = f.Node
			}
		} else {
			off = f.Node
		}
	}
	switch {
	case len(tr) > 0:
		p.Tracking.Trackers = plan.Set(tr, "metrics", at)
	case unknown: // a tracker's switch this reader cannot know
	case off != nil:
		// Written off (job_config.py Metrics, v0.2.1: both default false), not left unset.
		p.Tracking.Trackers = plan.Set([]string{}, off.Path().String(), off)
	default:
		p.Tracking.Trackers = plan.Defaulted([]string{}, "metrics.enable_wandb", plan.Why{By: "the torchtitan default", Note: "no tracker enabled"}, sec("metrics"))
	}
	if n := r.At("debug.seed"); n != nil {
		p.Seeds.Init = genSeedNode(r, n, "debug.seed")
	} else if n := r.At("training.seed"); n != nil {
		p.Seeds.Init = genSeedNode(r, n, "training.seed")
	}
}
