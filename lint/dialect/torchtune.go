package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Torchtune reads torchtune recipe YAML. Recipes read keys with cfg.get(...) and have no schema,
// so the defaults below are what the recipe code does when a key is absent. Checked against
// recipes/full_finetune_distributed.py @015b39c and torchtune/training/seed.py @4f52318 (the corpus
// configs are @bd2a0fc).
var Torchtune = register(newTorchtune())

// newTorchtune builds Torchtune (a function of its own: see register).
func newTorchtune() *Dialect {
	return &Dialect{
		Name:         "torchtune",
		Title:        "torchtune recipe",
		Version:      "torchtune main 2025 (recipes/full_finetune_distributed.py @015b39c, training/seed.py @4f52318)",
		Formats:      []doc.Format{doc.YAML},
		Detect:       detectTorchtune,
		Normalize:    normalizeTorchtune,
		Keys:         torchtuneKeys,
		Label:        "torchtune",
		Loader:       TorchDataLoader,
		Interpolates: true,
		// config.instantiate calls a `_component_` with the node's other keys as keyword arguments:
		// a key the callable does not take stops the recipe with a TypeError. knowledge_torchtune.tsv
		// holds the builders torchtune's own configs name that take no **kwargs (torchtuneKeyMaps).
		Knowledge: "torchtune",
		Package:   "torchtune",
		KeyMaps:   torchtuneKeyMaps,
		Advice: AdviceSet{
			{"eval.enabled", Advice{
				Help: "set {key} to a number of steps and give the recipe a dataset_val",
				Doc:  "`run_val_every_n_steps` with a `dataset_val` (recipes that support validation).",
			}},
			{"ckpt.retention", Advice{Doc: "`keep_last_n_checkpoints` has no best-N policy: keep every checkpoint (remove the key, or the\n  value torchtune reads as \"all\") and select the best afterwards from the eval logs."}},
			// The stock recipes build their DataLoader without num_workers and never read the key.
			{"data.workers", Advice{
				IfDefault: "the stock torchtune recipes pass no num_workers to their DataLoader: in a recipe that reads {key} (or your copy of one) set it to a few workers (e.g. 4); check with a profiler that input was the bottleneck",
				Key:       "dataloader.num_workers",
				Doc:       "`dataloader.num_workers`.",
			}},
			{"eval.per_device_batch", Advice{Doc: "`batch_size_val` ≥ `batch_size`."}},
		},
	}
}

func detectTorchtune(d *doc.Document) int {
	r := d.Root
	if r == nil || r.Kind != doc.Map {
		return 0
	}
	// `_component_: torchtune.…` is decisive: only torchtune's config system instantiates that.
	components := 0
	r.Walk(func(n *doc.Node) bool {
		if n.Key == "_component_" && n.IsScalar() && strings.HasPrefix(strings.TrimSpace(n.Value), "torchtune.") {
			components++
		}
		return components < 4
	})
	s := 0
	if components > 0 {
		s = 50 + 10*components
	}
	s += Score(r, []string{"max_steps_per_epoch", "batch_size_val", "run_val_every_n_steps", "checkpointer.checkpoint_files"}, 15,
		[]string{"checkpointer", "metric_logger", "tokenizer", "dataset", "epochs", "batch_size", "gradient_accumulation_steps",
			"dtype", "device", "output_dir", "log_every_n_steps", "enable_activation_checkpointing", "optimizer_in_bwd"}, 3)
	return Cap(s)
}

var ttNote = plan.Why{By: "the torchtune default", Note: "none"}

func normalizeTorchtune(d *doc.Document, ctx Context) *plan.Plan {
	p := &plan.Plan{Framework: "torchtune"}
	omegaconfLoadChecks(p, d, byOmegaConf) // the file is loaded with OmegaConf (kit_omegaconf.go)
	r := d.Root
	if r == nil || r.Kind != doc.Map {
		ApplyContext(p, ctx)
		return p
	}
	torchtuneRejections(d, p)
	// Async GRPO recipes nest the trainer's keys under `training:`; k spells a trainer key's path.
	pre := ""
	if t := r.Get("training"); t != nil && t.Kind == doc.Map && r.Get("batch_size") == nil {
		pre = "training."
		p.Variant = "async"
	}
	k := func(key string) string { return pre + key }
	at := func(key string) *doc.Node { return r.At(k(key)) }

	// Eval-only recipes (eleuther_evaluation) have no optimizer, loss or epochs: their batch_size
	// is an eval batch and no training behaviour applies. A loss alone is no training: tuna-lm's
	// validate_offline.yaml scores a dev split with one.
	training := pre != ""
	for _, key := range []string{"optimizer", "epochs", "gradient_accumulation_steps", "max_steps_per_epoch"} {
		training = training || r.Get(key) != nil
	}
	if !training {
		p.Variant = "eval"
		if f, ok := genIntRef(r, "batch_size"); ok {
			p.Eval.PerDeviceBatch = f
		}
		readTorchtuneTracking(p, r)
		ApplyContext(p, ctx)
		return p
	}

	// Batches: batch_size is per device (the recipe's DataLoader batch on each rank).
	if f, ok := genIntRef(r, k("batch_size")); ok {
		p.Train.PerDeviceBatch = f
	}
	if f, ok := genIntRef(r, k("gradient_accumulation_steps")); ok {
		p.Train.GradAccum = f
	}
	if n := at("batch_size_val"); n != nil && !n.IsNull() {
		p.Eval.PerDeviceBatch = genIntNode(r, n, k("batch_size_val"))
	} else if p.Train.PerDeviceBatch.Known() {
		// cfg.get("batch_size_val", cfg.batch_size)
		p.Eval.PerDeviceBatch = plan.Defaulted(p.Train.PerDeviceBatch.Value, k("batch_size_val"),
			plan.Why{By: "the torchtune default", Note: "batch_size"}, p.Train.PerDeviceBatch.Node)
	}

	// Periodic validation: only when run_val_every_n_steps is an integer (and dataset_val is set;
	// the recipe asserts that). Null or absent means no validation during training.
	valKey := k("run_val_every_n_steps")
	valEvery := at("run_val_every_n_steps")
	var own *doc.Node
	if valEvery == nil {
		own = ownEval(r)
	}
	switch {
	case own != nil:
		// A key no stock recipe reads that names evaluation (tuna-lm's eval_steps, which its own
		// recipe reads to validate data.dev): whether and how often the run validates is the
		// recipe's.
		p.Eval.Enabled = plan.Fact[bool]{Key: own.Key, Node: own, Note: "a key the stock recipes do not read"}
	case valEvery == nil || valEvery.IsNull():
		p.Eval.Enabled = plan.Defaulted(false, valKey, plan.Why{By: "the torchtune default", Note: "none: the recipe never validates during training"}, valEvery)
	default:
		f := genIntNode(r, valEvery, valKey)
		if f.Known() && f.Value > 0 {
			p.Eval.Enabled = plan.Set(true, f.Key, f.Node)
			p.Eval.Interval = plan.Set(plan.Interval{Value: float64(f.Value), Unit: plan.Steps, Text: valEvery.Value}, f.Key, f.Node)
			p.Eval.Interval.Note, p.Eval.Interval.By = f.Note, f.By
		} else {
			p.Eval.Enabled = plan.Fact[bool]{Key: valKey, Node: valEvery}
			p.Eval.Interval = plan.Fact[plan.Interval]{Key: valKey, Node: valEvery}
		}
	}
	p.Eval.Colocated = plan.Defaulted(true, valKey, plan.Why{By: "the torchtune default", Note: "validation runs inside the training loop"}, nil)
	// A recipe without a validation loop reads neither key: nothing in the file can turn
	// validation on, so the evaluation rules have no advice to give it. A name torchtune ships no
	// recipe of (a project's own, or a file the comment misnames: "in dev/async_grpo.py", "in
	// kd_single_device.py") says nothing of a loop: unless a recipe named validates, whether the
	// run could validate is unknown. In a copy of torchtune, its own recipe file decides: a fork's
	// qat_lora_finetune_distributed.py may not read the key yet (UpstageAI's at 0318e7da).
	ownRecipe := false // a recipe named is one of the copy's own files
	if recipes := torchtuneRecipes(d); len(recipes) > 0 {
		validates, unknown := false, false
		for _, name := range recipes {
			v, shipped := torchtuneValidates(name)
			if own, ok := ctx.CheckoutRecipes[name]; ok {
				v, shipped, ownRecipe = own, true, true
			}
			validates, unknown = validates || v, unknown || !shipped
		}
		switch {
		case validates:
		case unknown:
			if e := p.Eval.Enabled; e.Known() && !e.Value {
				p.Eval.Enabled = plan.Fact[bool]{Key: valKey, Node: valEvery, Note: "a recipe torchtune does not ship"}
			}
		default:
			p.Eval.Unavailable = true
		}
	}
	// No release up to 0.6.1 validates in any recipe (run_val_every_n_steps came with c8b985a,
	// after v0.6.1); a copy's own recipe file, read above, says more than its version does (a
	// fork on 0.6 may have taken validation in).
	if releasedBefore(ctx.Targets["torchtune"], 0, 7) && own == nil && !ownRecipe {
		p.Eval.Unavailable = true
		p.Eval.Enabled = plan.Defaulted(false, valKey, plan.Why{By: "torchtune " + ctx.Targets["torchtune"], Note: "its recipes never validate during training"}, valEvery)
		p.Eval.Interval = plan.Fact[plan.Interval]{}
	}

	// Data: StatefulDistributedSampler(seed=0) splits one permutation by rank. The shipped recipe
	// passes no num_workers to its StatefulDataLoader, so torch's default of 0 applies unless a
	// (dev/GRPO) recipe reads dataloader.num_workers.
	// The async GRPO recipe (recipes/dev/async_grpo_full_finetune_distributed.py @bd2a0fc) feeds
	// its trainers from Ray actors (orchestration.*) through a replay buffer: no loader workers
	// to count.
	if f, ok := genIntRef(r, "dataloader.num_workers"); ok {
		p.Data.Workers = f
	} else if n := r.Get("num_workers"); n != nil {
		// No stock recipe reads a top-level num_workers; the recipe that reads this file does
		// (interpolation-of-experts' own recipes pass it to their DataLoader).
		p.Data.Workers = plan.Fact[int]{Key: "num_workers", Node: n, Note: "a key the stock recipes do not read"}
	} else if isMap(r.Get("orchestration")) {
		p.Data.Workers = plan.Fact[int]{Key: "dataloader.num_workers", Note: "data reaches the trainers from Ray actors (orchestration)"}
	} else {
		p.Data.Workers = plan.Defaulted(0, "dataloader.num_workers", plan.Why{By: "the stock recipes do not read it; the torch default", Note: "the recipe passes no num_workers to its DataLoader"}, r.Get("dataloader"))
	}
	if f, ok := genIntRef(r, "dataloader.prefetch_factor"); ok {
		p.Data.Prefetch = f
	} else if p.Data.Workers.Known() {
		if p.Data.Workers.Value > 0 {
			p.Data.Prefetch = plan.Defaulted(2, "dataloader.prefetch_factor", plan.Why{By: "the torch default", Note: "with workers"}, r.Get("dataloader"))
		} else {
			p.Data.Prefetch = plan.Defaulted(0, "dataloader.prefetch_factor", plan.Why{By: "the torch default", Note: "none without workers"}, r.Get("dataloader"))
		}
	}
	p.Data.Sharding = plan.Defaulted(plan.GlobalIndexSampler, "shuffle", plan.Why{By: "the torchtune default", Note: "StatefulDistributedSampler splits one permutation by rank"}, nil)

	// Seeds: set_seed seeds every rank with seed + rank; a null seed is drawn on rank 0 and
	// broadcast first. The model weights come from the checkpointer, so the init seed matters little.
	seedKey := k("seed")
	seedNodeV := at("seed")
	is := plan.Seed{Varies: plan.VariesByHost, Why: "set_seed uses seed + rank on every rank", Pretrained: true}
	switch {
	case seedNodeV == nil:
		is.Why = "no seed: a random seed drawn on rank 0 is broadcast, then seed + rank on every rank"
		p.Seeds.Init = plan.Defaulted(is, seedKey, ttNote, nil)
	case seedNodeV.IsNull():
		is.Value = "null"
		is.Why = "null seed: a random seed drawn on rank 0 is broadcast, then seed + rank on every rank"
		p.Seeds.Init = plan.Set(is, seedKey, seedNodeV)
	default:
		if t, _ := genDeref(r, seedNodeV); t.IsScalar() && !t.IsUnknown() {
			is.Value = t.Value
		} else {
			is.Value = seedNodeV.Value
		}
		p.Seeds.Init = plan.Set(is, seedKey, seedNodeV)
	}
	p.Seeds.Data = plan.Defaulted(plan.Seed{Value: "0", Varies: plan.SameOnEveryHost,
		Why: "StatefulDistributedSampler seed is hard-coded to 0"}, seedKey, plan.Why{By: "the torchtune default", Note: "sampler seed hard-coded to 0"}, nil)

	// Checkpoints: saved at the end of every epoch unless save_every_n_steps (some recipes).
	ckpt := at("checkpointer")
	p.Ckpt.Enabled = plan.Defaulted(true, k("checkpointer"), plan.Why{By: "the torchtune default", Note: "saves at the end of every epoch"}, ckpt)
	if n := at("save_every_n_steps"); n != nil && !n.IsNull() {
		p.Ckpt.Interval = genericInterval(r, n, k("save_every_n_steps"), plan.Steps)
	} else if n := at("save_every_n_epochs"); n != nil && !n.IsNull() {
		p.Ckpt.Interval = genericInterval(r, n, k("save_every_n_epochs"), plan.Epochs)
	} else {
		p.Ckpt.Interval = plan.Defaulted(plan.Interval{Value: 1, Unit: plan.Epochs, Text: "1 epoch"}, k("save_every_n_steps"),
			plan.Why{By: "the torchtune default", Note: "once per epoch"}, nil)
	}
	keepKey := k("checkpointer.keep_last_n_checkpoints")
	if n := r.At(keepKey); n != nil && !n.IsNull() {
		f := genIntNode(r, n, keepKey)
		switch {
		case !f.Known():
			p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: f.Key, Node: n}
		case f.Value <= 0:
			p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepAll}, f.Key, n)
		default:
			p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepLatest, N: f.Value}, f.Key, n)
		}
	} else {
		p.Ckpt.Retention = plan.Defaulted(plan.Retention{Kind: plan.KeepAll}, keepKey, plan.Why{By: "the torchtune default", Note: "none: every checkpoint is kept"}, ckpt)
	}
	scope := plan.Defaulted(plan.PrimaryHost, k("checkpointer"), plan.Why{By: "the torchtune default", Note: "rank 0 writes the gathered checkpoint"}, ckpt)
	if f, ok := genBoolRef(r, "enable_async_checkpointing"); ok && f.Known() && f.Value {
		scope = plan.Set(plan.Sharded, f.Key, f.Node)
	}
	p.Ckpt.Scope = scope

	// Logging: the metric logger is built on rank 0 only (hard-coded).
	p.Logging.Scope = plan.Defaulted(plan.PrimaryHost, "metric_logger", plan.Why{By: "the torchtune default", Note: "metrics logged on rank 0 only"}, r.Get("metric_logger"))
	readTorchtuneTracking(p, r)

	// torchtune trains transformer LLMs: no batch norm.
	p.BN.Present = plan.Defaulted(false, "model", plan.Why{By: "the torchtune default", Note: "RMSNorm/LayerNorm models"}, r.Get("model"))

	// Training length: epochs × max_steps_per_epoch when both are written. The recipes save at
	// the end of every epoch (the last one is the final save), whatever caps an epoch, so the
	// epoch count also tells how many checkpoints a run writes: a 1-epoch run writes one.
	if e, ok := genIntRef(r, k("epochs")); ok && e.Known() && e.Value > 0 {
		p.Train.Epochs = plan.Fact[float64]{Value: float64(e.Value), Origin: e.Origin, Key: e.Key, Node: e.Node, Note: e.Note, By: e.By}
	}
	if e, ok := genIntRef(r, k("epochs")); ok && e.Known() {
		if m, ok := genIntRef(r, k("max_steps_per_epoch")); ok && m.Known() && m.Value > 0 {
			p.Train.MaxSteps = plan.Fact[int]{Value: e.Value * m.Value, Origin: plan.Derived, Key: m.Key, Node: m.Node,
				Note: "= epochs × max_steps_per_epoch"}
		}
	}

	// After the last step the recipes save once more (the final save) but validate only at
	// multiples of run_val_every_n_steps (recipes/full_finetune_distributed.py @bd2a0fc).
	if iv := p.Eval.Interval; iv.Known() && iv.Value.Unit == plan.Steps {
		p.Eval.AtEnd = plan.Defaulted(false, iv.Key, plan.Because("the torchtune recipes validate only at multiples of run_val_every_n_steps, not after the last step"), iv.Node)
	}
	p.Ckpt.AtEnd = plan.Defaulted(true, k("checkpointer"), plan.Because("the torchtune recipes save after the last epoch"), r.Get("checkpointer"))
	ApplyContext(p, ctx)
	deriveTorchtuneGlobal(p)
	return p
}

// readTorchtuneTracking reads the metric logger: its class names the tracker.
func readTorchtuneTracking(p *plan.Plan, r *doc.Node) {
	if n := r.At("metric_logger._component_"); n != nil {
		if s, ok := n.Str(); ok && !n.IsNull() {
			name := s[strings.LastIndex(s, ".")+1:]
			name = strings.ToLower(strings.TrimSuffix(name, "Logger"))
			p.Tracking.Trackers = plan.Set([]string{name}, "metric_logger._component_", n)
		}
	}
	for _, key := range []string{"metric_logger.name", "metric_logger.run_name", "metric_logger.experiment_name"} {
		if f, ok := genStrRef(r, key); ok && f.Known() && f.Value != "" {
			p.Tracking.RunName = f
			break
		}
	}
}

// deriveTorchtuneGlobal computes the global batch (batch_size × devices × accumulation) when the
// launch context gives the device count; torchtune has no key for it.
func deriveTorchtuneGlobal(p *plan.Plan) {
	devices, ok := p.Topology.Devices()
	if !ok || !p.Train.PerDeviceBatch.Known() || !p.Train.GradAccum.Known() {
		return
	}
	p.Train.GlobalBatch = plan.Fact[int]{Value: p.Train.PerDeviceBatch.Value * devices * p.Train.GradAccum.Value,
		Origin: plan.Derived, Key: "batch_size", Node: p.Train.PerDeviceBatch.Node,
		Note: "= batch_size × devices × gradient_accumulation_steps"}
}

var torchtuneKeys = []Key{
	{Path: "batch_size", Type: "integer", Concept: "train.per_device_batch", Doc: "per-device train batch"},
	{Path: "gradient_accumulation_steps", Type: "integer", Concept: "train.grad_accum", Doc: "micro-batches accumulated per optimizer step"},
	{Path: "batch_size_val", Type: "integer", Default: "batch_size", Concept: "eval.per_device_batch", Doc: "per-device validation batch"},
	{Path: "dataset_val", Type: "object", Default: "none", Concept: "eval.enabled", Doc: "validation dataset (_component_); required by run_val_every_n_steps"},
	{Path: "run_val_every_n_steps", Type: "integer", Default: "none", Concept: "eval.interval", Doc: "validate every N optimizer steps; null = never during training"},
	{Path: "epochs", Type: "integer", Concept: "train.max_steps", Doc: "training epochs"},
	{Path: "max_steps_per_epoch", Type: "integer", Default: "none", Concept: "train.max_steps", Doc: "optimizer steps per epoch cap"},
	{Path: "seed", Type: "integer", Default: "none", Concept: "seeds.init", Doc: "seed; every rank uses seed + rank; null draws one on rank 0 and broadcasts it"},
	{Path: "shuffle", Type: "boolean", Concept: "data.sharding", Doc: "shuffle the training set (sampler seed is hard-coded to 0)"},
	{Path: "dataloader.num_workers", Type: "integer", Default: "0", Concept: "data.workers", Doc: "loader workers (only some dev/GRPO recipes read it)"},
	{Path: "dataloader.prefetch_factor", Type: "integer", Default: "none", Concept: "data.prefetch", Doc: "batches prefetched per worker"},
	{Path: "save_every_n_steps", Type: "integer", Default: "none", Concept: "ckpt.interval", Doc: "checkpoint every N steps (some recipes); otherwise once per epoch"},
	{Path: "save_every_n_epochs", Type: "integer", Default: "1", Concept: "ckpt.interval", Doc: "checkpoint every N epochs (some recipes)"},
	{Path: "checkpointer.keep_last_n_checkpoints", Type: "integer", Default: "none", Concept: "ckpt.retention", Doc: "keep the latest N checkpoints; none = keep all"},
	{Path: "enable_async_checkpointing", Type: "boolean", Default: "false", Concept: "ckpt.scope", Doc: "distributed (sharded) intermediate checkpoints"},
	{Path: "metric_logger._component_", Type: "string", Concept: "tracking.trackers", Doc: "torchtune.training.metric_logging.{DiskLogger,WandBLogger,TensorBoardLogger,...}"},
	{Path: "metric_logger.name", Type: "string", Concept: "tracking.run_name", Doc: "run name (W&B)"},
	{Path: "log_every_n_steps", Type: "integer", Default: "1", Doc: "metric logging interval (rank 0 only)"},
	{Path: "cudnn_deterministic_mode", Type: "string|integer", Default: "none", Doc: "torch deterministic debug mode"},
}

// torchtuneKeyMaps are the maps of a recipe config that name a torchtune callable in
// `_component_`: config.instantiate (torchtune/config/_instantiate.py at v0.4.0-v0.6.1 and
// bd2a0fc) passes every other key of the map to it as a keyword argument, merged with what the
// recipe passes itself, so a key the callable does not take is a TypeError at start-up. Only the
// callables in the knowledge table (closed signatures) are checked; the rule skips the others.
// The multi-dataset dev recipe pops its own keys from each dataset map first (name, weight,
// streaming, shuffle, parallel_method, num_workers, transform), so a dataset map's keys are not
// checked; the transform map inside it is.
func torchtuneKeyMaps(d *doc.Document) []KeyMap {
	if d.Root == nil {
		return nil
	}
	var out []KeyMap
	d.Root.Walk(func(n *doc.Node) bool {
		if n.Kind != doc.Map {
			return true
		}
		c := n.Get("_component_")
		if c == nil || c.Kind != doc.Scalar || c.IsUnknown() {
			return true
		}
		path := strings.TrimSpace(c.Value)
		if !strings.HasPrefix(path, "torchtune.") || strings.HasPrefix(path, "torchtune.datasets.") && !strings.Contains(path, "transform") {
			return true
		}
		name := path[strings.LastIndex(path, ".")+1:]
		out = append(out, KeyMap{Node: n, At: n, Section: path, Name: name, By: "torchtune's config.instantiate"})
		return true
	})
	return out
}

// torchtuneRejections: a model, tokenizer or checkpointer map (the root's model:, tokenizer:,
// checkpointer:) that lacks a parameter its builder requires stops the recipe with Python's
// TypeError. The recipes instantiate those maps with
// nothing of their own but resume_from_checkpoint or should_load_recipe_state (recipes/*.py and
// recipes/dev/*.py at v0.4.0-v0.6.1 and bd2a0fc), so what the map lacks is missing; the
// "@required:<component>" rows say since and until which version each parameter is required.
// A map with a merge key (<<) is left alone: the merged map may supply it.
func torchtuneRejections(d *doc.Document, p *plan.Plan) {
	kb := KnowledgeOf("torchtune")
	if kb == nil || d.Root == nil || d.Root.Kind != doc.Map {
		return
	}
	// Other maps get arguments from the recipe (a tensor-parallel plan its model).
	for _, at := range [...]string{"model", "tokenizer", "checkpointer"} {
		m := d.Root.Get(at)
		comp := m.Get("_component_")
		if m == nil || m.Kind != doc.Map || comp == nil || comp.Kind != doc.Scalar || comp.IsUnknown() || m.Get("<<") != nil {
			continue
		}
		path := strings.TrimSpace(comp.Value)
		req := kb.Sections["@required:"+path]
		if len(req) == 0 {
			continue
		}
		name := path[strings.LastIndex(path, ".")+1:]
		keys := make([]string, 0, len(req))
		for k := range req {
			if m.Get(k) == nil {
				keys = append(keys, k)
			}
		}
		for _, k := range sortedStrings(keys) {
			f := req[k]
			p.Rejections = append(p.Rejections, plan.Rejection{Node: comp, Key: at + "._component_",
				Message: name + " requires " + k + ", which " + at + " does not set",
				Says:    "TypeError: " + f.Replacement, Package: "torchtune",
				Since: f.Since, Until: f.Removed, Read: strings.TrimPrefix(kb.Newest(), "v"),
				Source: path, Help: "set " + at + "." + k})
		}
	}
}

// torchtuneValidating and torchtuneNoValidate are the recipes of torchtune @bd2a0fc
// (recipes/*.py, recipes/dev/*.py, by file name without dev/) that run training, by whether they
// have a validation loop: only four read run_val_every_n_steps and dataset_val
// (recipes/full_finetune_distributed.py:215, lora_finetune_distributed.py:223,
// qat_distributed.py:224, qat_lora_finetune_distributed.py:201). A name not listed is a recipe
// whose loop is unknown. Word lists, not a map: a map literal's initialisation code weighed
// about 0.5 KB of the light WebAssembly module.
const (
	torchtuneValidating = " full_finetune_distributed lora_finetune_distributed qat_distributed qat_lora_finetune_distributed "
	torchtuneNoValidate = " full_finetune_single_device lora_finetune_single_device qat_single_device full_dpo_distributed" +
		" lora_dpo_distributed lora_dpo_single_device knowledge_distillation_distributed knowledge_distillation_single_device" +
		" ppo_full_finetune_single_device grpo_full_finetune_distributed async_grpo_full_finetune_distributed" +
		" early_exit_finetune_distributed lora_finetune_distributed_multi_dataset "
)

// torchtuneValidates reports whether the recipe validates, and whether torchtune ships it.
func torchtuneValidates(name string) (validates, shipped bool) {
	w := " " + name + " "
	if strings.Contains(torchtuneValidating, w) {
		return true, true
	}
	return false, strings.Contains(torchtuneNoValidate, w)
}

// torchtuneRecipes are the recipes a config's leading comments name, the way torchtune's own
// configs start ("# Config for ... in lora_finetune_single_device.py", "#   tune run
// --nproc_per_node 4 lora_finetune_distributed --config ..."), without a dev/ folder; nil when
// they name none.
func torchtuneRecipes(d *doc.Document) []string {
	first := 0
	if r := d.Root; r != nil && len(r.Children) > 0 {
		first = r.Children[0].KeySpan.Start.Line
	}
	var out []string
	for _, c := range d.Comments {
		if first > 0 && c.Span.Start.Line > first {
			break
		}
		words := strings.Fields(c.Text)
		for i, w := range words {
			switch {
			case w == "in" && i+1 < len(words) && strings.HasSuffix(words[i+1], ".py"):
				out = append(out, strings.TrimPrefix(strings.TrimSuffix(words[i+1], ".py"), "dev/"))
			case w == "run" && i > 0 && words[i-1] == "tune":
				// tune run [--flag value | --flag=value]... RECIPE --config ...
				for j := i + 1; j < len(words); j++ {
					if !strings.HasPrefix(words[j], "-") {
						out = append(out, strings.TrimPrefix(words[j], "dev/"))
						break
					}
					if !strings.Contains(words[j], "=") {
						j++ // the flag's value
					}
				}
			}
		}
	}
	return out
}

// ownEval is a top-level key of r that names evaluation ("eval_steps", "val_interval") other
// than the stock recipes' own (run_val_every_n_steps, dataset_val, batch_size_val), or nil.
func ownEval(r *doc.Node) *doc.Node {
	for _, c := range r.Children {
		switch c.Key {
		case "run_val_every_n_steps", "dataset_val", "batch_size_val":
			continue
		}
		for _, w := range strings.Split(c.Key, "_") {
			if w == "eval" || w == "val" || w == "validation" || w == "validate" {
				return c
			}
		}
	}
	return nil
}
