package dialect

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Composer reads MosaicML Composer / llm-foundry training YAML (and MosaicML platform "mcli" run
// files, whose `parameters:` section is the llm-foundry config).
//
// Checked against composer/core/time.py @50db85a (units iter, ep, ba, sp, tok, dur, sec, plus
// "1h30m"-style wall-clock strings), composer/trainer/trainer.py (an integer eval_interval or
// save_interval is epochs; each rank's training-loop seed is rank-0 seed + rank), and
// llm-foundry llmfoundry/utils/config_utils.py @8c8dd48 and scripts/train/train.py (seed 17;
// seed_all(seed) on every rank before the model is built; device_eval_batch_size falls back to the
// train microbatch).
var Composer = register(newComposer())

// newComposer builds Composer (a function of its own: see register).
func newComposer() *Dialect {
	return &Dialect{
		Name:         "composer",
		Title:        "Composer / llm-foundry",
		Version:      "composer 0.3x (core/time.py @50db85a); llm-foundry v0.2x (utils/config_utils.py @8c8dd48)",
		Formats:      []doc.Format{doc.YAML, doc.JSON},
		Detect:       detectComposer,
		Normalize:    normComposer,
		Keys:         composerKeys,
		Loader:       TorchDataLoader,
		Interpolates: true,
		RefSections:  []string{"variables", "parameters", "parameters.variables"},
		// llm-foundry's train script (llmfoundry/utils/config_utils.py make_dataclass_and_log_config,
		// every minor tag read from v0.10.0 to v0.21.0) raises "Unused parameters [...] found in cfg"
		// for a top-level key that is not a TrainConfig field ("variables" is one: the place for the
		// user's own); the eval script makes the same check against EvalConfig. composerKeyMaps says
		// which map of a file each reads.
		Knowledge: "llm-foundry",
		Package:   "llm-foundry",
		KeyMaps:   mapsComposer,
		Advice: AdviceSet{
			{"ckpt.enabled", Advice{Help: "set save_folder and a save_interval (e.g. \"1000ba\")", Doc: "`save_folder` with a `save_interval` (e.g. `\"1000ba\"`)."}},
			{"ckpt.retention", Advice{Doc: "`save_num_checkpoints_to_keep` has no best-N policy: keep every checkpoint (remove the key, or\n  the value Composer reads as \"all\", or save to an object store: a `save_folder` such as `s3://...`\n  keeps every upload) and select the best afterwards from the eval logs."}},
			{"eval.interval", Advice{
				Help: "set {key} in batches (e.g. \"1000ba\") or epochs (\"1ep\") so every run is evaluated at the same steps",
				Key:  "eval_interval",
				Doc:  "`eval_interval: 1000ba` (or whole epochs, `1ep`).",
			}},
			{"data.workers", Advice{Doc: "`train_loader.num_workers`."}},
			{"eval.drop_last", Advice{Help: "set {key} to false", Doc: "`eval_loader.drop_last: false`."}},
			{"ckpt.interval", Advice{
				Help: "set {key} in batches (e.g. \"1000ba\"), a multiple of eval_interval, so checkpoints land on the steps that are evaluated",
				Doc:  "`save_interval: 1000ba`, a multiple of `eval_interval`.",
			}},
			{"eval.per_device_batch", Advice{Doc: "`device_eval_batch_size` ≥ `device_train_microbatch_size`."}},
		},
	}
}

// composerTime (kit_match.go) reads Composer's time string: a number and a unit suffix.

// parseComposerTime reads a Composer time value. A bare integer takes intUnit. ok is false for
// values Composer would reject or that have no plan unit (iterations).
func parseComposerTime(n *doc.Node, intUnit plan.Unit) (plan.Interval, bool) {
	if n == nil || !n.IsScalar() || n.IsNull() || n.IsUnknown() || n.Type == doc.Bool {
		return plan.Interval{}, false
	}
	text := strings.TrimSpace(n.Value)
	if n.Type == doc.Int || n.Type == doc.Float {
		v, ok := n.Float()
		return plan.Interval{Value: v, Unit: intUnit, Text: text}, ok
	}
	if num, unit, ok := composerTime(text); ok {
		v, err := strconv.ParseFloat(strings.ReplaceAll(num, "_", ""), 64)
		if err != nil {
			return plan.Interval{}, false
		}
		var u plan.Unit
		switch strings.ToLower(unit) {
		case "ep":
			u = plan.Epochs
		case "ba":
			u = plan.Steps
		case "sp":
			u = plan.Samples
		case "tok":
			u = plan.Tokens
		case "dur":
			u = plan.Ratio
		case "sec":
			u = plan.Seconds
		default: // iter: a group of epochs, no plan unit
			return plan.Interval{}, false
		}
		return plan.Interval{Value: v, Unit: u, Text: text}, true
	}
	// Composer's wall clock is "XhYmZs" (any part may be missing).
	if secs, form, ok := durationSeconds(text); ok && form == formHMS {
		return plan.Interval{Value: secs, Unit: plan.Seconds, Text: text}, true
	}
	return plan.Interval{}, false
}

// composerRoot returns the node that holds the llm-foundry config: the root, or the `parameters`
// of an mcli run file.
func composerRoot(r *doc.Node) *doc.Node {
	if r == nil || r.Kind != doc.Map {
		return r
	}
	if p := r.Get("parameters"); p != nil && p.Kind == doc.Map && isMCLI(r) {
		return p
	}
	return r
}

func isMCLI(r *doc.Node) bool {
	return r.Get("integrations") != nil || r.Get("compute") != nil || (r.Get("image") != nil && r.Get("command") != nil)
}

func detectComposer(d *doc.Document) int {
	r := d.Root
	if r == nil || r.Kind != doc.Map {
		return 0
	}
	s := 0
	if isMCLI(r) {
		// `composer main.py` launches any Composer script (mosaicml/examples' benchmarks run
		// their own): only llm-foundry named in the command is llm-foundry's evidence.
		if c, ok := r.Get("command").Str(); ok && (strings.Contains(c, "llm-foundry") || strings.Contains(c, "llmfoundry")) {
			s += 50
		}
		if it := r.Get("integrations"); it != nil {
			it.Walk(func(n *doc.Node) bool {
				if n.Key == "git_repo" && strings.Contains(n.Value, "llm-foundry") {
					s += 30
				}
				return true
			})
		}
	}
	c := composerRoot(r)
	if s == 0 && !foundryOwn(c) {
		// Composer is a library: the YAML files of other Composer-based projects (mosaicml/
		// examples' BERT, ResNet, DeepLab and Stable Diffusion benchmarks, read by their own
		// main.py) share llm-foundry's names but not its train script, whose start-up checks
		// and defaults would be claimed of them.
		return 0
	}
	// OLMo's trainer took llm-foundry's names (global_train_batch_size, max_duration,
	// save_num_checkpoints_to_keep) but its TrainConfig (olmo/config.py @59a53e3f) has fields
	// llm-foundry's refuses: two of them make the file OLMo's, not llm-foundry's.
	if Score(c, []string{"save_interval_unsharded", "save_num_unsharded_checkpoints_to_keep", "sharded_checkpointer", "speed_monitor",
		"max_grad_norm_ratio", "gen1_gc_interval", "save_interval_ephemeral", "softmax_auxiliary_loss"}, 1, nil, 0) >= 2 {
		return 0
	}
	s += Score(c, []string{"global_train_batch_size", "device_train_microbatch_size", "device_train_batch_size", "icl_tasks", "eval_gauntlet",
		"save_num_checkpoints_to_keep", "eval_subset_num_batches"}, 40,
		[]string{"max_duration", "eval_interval", "save_interval", "train_loader", "eval_loader", "device_eval_batch_size", "variables",
			"fsdp_config", "console_log_interval", "eval_first", "algorithms", "callbacks", "loggers", "progress_bar", "log_to_console", "icl_seq_len"}, 6)
	for _, k := range []string{"max_duration", "eval_interval", "save_interval", "console_log_interval"} {
		if n := c.Get(k); n != nil && n.Type == doc.String && isComposerTime(n.Value) {
			s += 15
		}
	}
	if p, ok := c.Get("precision").Str(); ok && strings.HasPrefix(p, "amp_") {
		s += 15
	}
	return Cap(s)
}

// foundryPinnedElsewhere reports an mcli run whose llm-foundry integration checks out a commit
// or a release other than the newest the knowledge table read (mosaicml/examples pins v0.2.0,
// long before TrainConfig refused unknown keys, and commit hashes): its keys are checked only
// against the release it runs, so they are not checked at all.
func foundryPinnedElsewhere(r *doc.Node) bool {
	it := r.Get("integrations")
	if it == nil || it.Kind != doc.Seq {
		return false
	}
	for _, in := range it.Children {
		if repo, _ := in.Get("git_repo").Str(); !strings.Contains(repo, "llm-foundry") {
			continue
		}
		for _, k := range []string{"git_commit", "git_branch"} {
			v, ok := in.Get(k).Str()
			if !ok || v == "" || v == "main" {
				continue
			}
			kb := KnowledgeOf("llm-foundry")
			return kb == nil || strings.TrimPrefix(v, "v") != strings.TrimPrefix(kb.Newest(), "v")
		}
	}
	return false
}

// foundryOwn reports llm-foundry's own evidence in a config: the tokenizer section (with its name) its
// TrainConfig requires (llmfoundry/utils/config_utils.py @8c8dd48: model, tokenizer, optimizer,
// scheduler, train_loader, ... are MISSING by default), its in-context-learning evaluation
// (icl_tasks, eval_gauntlet), an eval YAML's models list, or a model it registers
// (llmfoundry/models/__init__.py: mpt_causal_lm, hf_causal_lm, hf_t5, ...).
func foundryOwn(c *doc.Node) bool {
	if c == nil || c.Kind != doc.Map {
		return false
	}
	// llm-foundry's train reads the tokenizer's name (train_cfg.tokenizer['name'],
	// llmfoundry/command_utils/train.py @8c8dd48); OLMo's tokenizer section names it
	// `identifier` (TokenizerConfig, olmo/config.py @59a53e3f), so a section without `name` is
	// no evidence.
	if c.Get("tokenizer").Get("name") != nil || c.Get("icl_tasks") != nil || c.Get("eval_gauntlet") != nil {
		return true
	}
	if m := c.Get("models"); m != nil && m.Kind == doc.Seq {
		return true
	}
	name, _ := c.Get("model").Get("name").Str()
	return name != "" && strings.Contains(foundryModels, " "+name+" ")
}

// foundryModels are the model names llm-foundry registers, space-delimited.
const foundryModels = " mpt_causal_lm hf_causal_lm hf_t5 openai_causal_lm fmapi_causal_lm openai_chat fmapi_chat finetune_embedding_model contrastive_lm "

var (
	cmpNote = plan.Why{By: "the llm-foundry default", Note: "config_utils.py @8c8dd48"}
)

func normalizeComposer(d *doc.Document, ctx Context) *plan.Plan {
	p := &plan.Plan{Framework: "composer"}
	omegaconfLoadChecks(p, d, byOmegaConf) // the file is loaded with OmegaConf (kit_omegaconf.go)
	r := composerRoot(d.Root)
	if r == nil || r.Kind != doc.Map {
		ApplyContext(p, ctx)
		return p
	}
	foundryEvalRejections(d, p)
	if r != d.Root {
		p.Variant = "mcli"
	}
	// A config with a train loader is a training run; eval-only configs (hf_eval, gauntlets)
	// get no training defaults.
	training := r.Get("train_loader") != nil || r.Get("max_duration") != nil

	// Batches. device_train_microbatch_size is the per-device forward batch; "auto" is decided
	// at run time (Unknown).
	if f, ok := genIntRef(r, "global_train_batch_size"); ok {
		p.Train.GlobalBatch = f
	}
	micro, hasMicro := genIntRef(r, "device_train_microbatch_size")
	if hasMicro {
		p.Train.PerDeviceBatch = micro
	} else if training {
		p.Train.PerDeviceBatch = plan.Fact[int]{Key: "device_train_microbatch_size", Note: "not set: defaults to the whole device batch"}
	}
	if n := r.Get("device_eval_batch_size"); n != nil {
		p.Eval.PerDeviceBatch = genIntNode(r, n, "device_eval_batch_size")
	} else if micro.Known() {
		p.Eval.PerDeviceBatch = plan.Defaulted(micro.Value, "device_eval_batch_size", plan.Why{By: "the llm-foundry default", Note: "device_train_microbatch_size"}, micro.Node)
	}

	// Length and time budget.
	if n := r.Get("max_duration"); n != nil {
		t, via := genDeref(r, n)
		if iv, ok := parseComposerTime(t, plan.Epochs); ok {
			switch iv.Unit {
			case plan.Seconds:
				p.Train.TimeBudget = plan.Set(iv, "max_duration", n)
				p.Train.TimeBudget.Note = viaNote(via)
			case plan.Steps:
				p.Train.MaxSteps = plan.Set(int(iv.Value), "max_duration", n)
				p.Train.MaxSteps.Note = viaNote(via)
			}
		}
	}

	// Evaluation. Composer evaluates only when there are evaluators: llm-foundry takes
	// eval_loaders when there is no eval_loader (command_utils/train.py:286 @v0.21.0; its
	// config_utils.py:323-326 turns a list under eval_loader into eval_loaders).
	el := r.Get("eval_loaders") // an empty list or null builds no evaluator (builders.py:104-115)
	hasEval := r.Get("eval_loader") != nil || el != nil && (el.Kind != doc.Seq || len(el.Children) > 0) && !el.IsNull() || r.Get("icl_tasks") != nil || r.Get("eval_gauntlet") != nil
	if n := r.Get("eval_interval"); n != nil {
		t, via := genDeref(r, n)
		if iv, ok := parseComposerTime(t, plan.Epochs); ok && iv.Value > 0 {
			p.Eval.Interval = plan.Set(iv, "eval_interval", n)
			p.Eval.Interval.Note = viaNote(via)
		} else {
			p.Eval.Interval = plan.Fact[plan.Interval]{Key: "eval_interval", Node: n}
		}
	} else if hasEval && training {
		p.Eval.Interval = plan.Defaulted(plan.Interval{Value: 1, Unit: plan.Epochs, Text: "1"}, "eval_interval", plan.Why{By: "the Composer default", Note: "every epoch"}, nil)
	}
	switch {
	case hasEval && training:
		at := r.Get("eval_loader")
		key := "eval_loader"
		if at == nil {
			at, key = r.Get("eval_loaders"), "eval_loaders"
		}
		if at == nil {
			at, key = r.Get("icl_tasks"), "icl_tasks"
		}
		if at == nil {
			at, key = r.Get("eval_gauntlet"), "eval_gauntlet"
		}
		p.Eval.Enabled = plan.Fact[bool]{Value: true, Origin: plan.Derived, Key: key, Node: at, Note: "evaluators are configured"}
	case training:
		p.Eval.Enabled = plan.Defaulted(false, "eval_loader", plan.Why{By: "the llm-foundry default", Note: "no eval_loader or icl_tasks: nothing is evaluated"}, nil)
	}
	if training {
		p.Eval.Colocated = plan.Defaulted(true, "eval_loader", plan.Why{By: "the Composer default", Note: "evaluation runs inside the training run"}, nil)
	}
	if f, ok := genBoolRef(r, "eval_loader.drop_last"); ok {
		p.Eval.DropLast = f
	}
	// eval_subset_num_batches: -1 (the default) evaluates every batch; N > 0 the first N at
	// every evaluation, the one at the end of training included (the Trainer gives it to every
	// evaluator as subset_num_batches, composer/trainer/trainer.py v0.32.1).
	if f, ok := genIntRef(r, "eval_subset_num_batches"); ok && f.Known() && f.Value > 0 {
		p.Eval.Subset = plan.Fact[plan.Interval]{Value: plan.Interval{Value: float64(f.Value), Unit: plan.Steps, Text: f.Node.Value},
			Origin: f.Origin, Key: f.Key, Node: f.Node, Note: f.Note}
	}

	// Seeds. train.py seeds every rank with the same seed before building the model.
	pretrained := false
	if b, ok := genBoolRef(r, "model.pretrained"); ok && b.Known() {
		pretrained = b.Value
	}
	if n := r.Get("seed"); n != nil {
		f := genSeedNode(r, n, "seed")
		if f.Known() && f.Value.Varies == plan.SameOnEveryHost {
			f.Value.Why = "llm-foundry seeds every rank with it before building the model"
		}
		f.Value.Pretrained = pretrained
		p.Seeds.Init = f
	} else if training {
		p.Seeds.Init = plan.Defaulted(plan.Seed{Value: "17", Varies: plan.SameOnEveryHost,
			Why: "llm-foundry seeds every rank with it before building the model", Pretrained: pretrained}, "seed", cmpNote, nil)
	}
	for _, loader := range []string{"train_loader.dataset.shuffle_seed", "train_loader.shuffle_seed"} {
		if n := r.At(loader); n != nil {
			p.Seeds.Data = genSeedNode(r, n, loader)
			if p.Seeds.Data.Known() && p.Seeds.Data.Value.Varies == plan.SameOnEveryHost {
				p.Seeds.Data.Value.Why = "every rank shuffles the one global sample order with it"
			}
			break
		}
	}
	if !p.Seeds.Data.Known() && p.Seeds.Data.Node == nil {
		if name, ok := r.At("train_loader.name").Str(); ok && name == "text" {
			p.Seeds.Data = plan.Defaulted(plan.Seed{Value: "9176", Varies: plan.SameOnEveryHost,
				Why: "StreamingDataset's default shuffle seed"}, "train_loader.dataset.shuffle_seed", plan.Why{By: "the StreamingDataset default"}, r.At("train_loader.dataset"))
		}
	}

	// Data: StreamingDataset partitions one global sample order across ranks (finetuning
	// loaders use a DistributedSampler): the data seed must be the same everywhere.
	if r.Get("train_loader") != nil {
		p.Data.Sharding = plan.Defaulted(plan.GlobalIndexSampler, "train_loader", plan.Why{By: "the Composer default", Note: "one sample order split across ranks"}, r.Get("train_loader"))
	}
	if f, ok := genIntRef(r, "train_loader.num_workers"); ok {
		p.Data.Workers = f
	}
	if f, ok := genIntRef(r, "train_loader.prefetch_factor"); ok {
		p.Data.Prefetch = f
	} else if p.Data.Workers.Known() {
		if p.Data.Workers.Value > 0 {
			p.Data.Prefetch = plan.Defaulted(2, "train_loader.prefetch_factor", plan.Why{By: "the torch default", Note: "with workers"}, r.Get("train_loader"))
		} else {
			p.Data.Prefetch = plan.Defaulted(0, "train_loader.prefetch_factor", plan.Why{By: "the torch default", Note: "none without workers"}, r.Get("train_loader"))
		}
	}

	// Checkpoints: written only when save_folder is set.
	if n := r.Get("save_folder"); n != nil && !n.IsNull() {
		p.Ckpt.Enabled = plan.Set(true, "save_folder", n)
	} else if hc := r.Get("callbacks").Get("hf_checkpointer"); hc != nil && hc.Kind == doc.Map && !hfCheckpointerAtEnd(hc) {
		// llm-foundry's HuggingFaceCheckpointer writes the model in Hugging Face's format at
		// each of its save_interval (llmfoundry/callbacks/hf_checkpointer.py, v0.6.0): earlier
		// weights can be picked, though no resumable state is written. Neither "no
		// checkpoints" nor Composer's checkpoints describes that. (At "1dur", the whole run,
		// it writes once, at the end: no checkpoint during training.)
		p.Ckpt.Enabled = plan.Fact[bool]{Key: "callbacks.hf_checkpointer", Node: hc}
	} else if training {
		p.Ckpt.Enabled = plan.Defaulted(false, "save_folder", plan.Why{By: "the llm-foundry default", Note: "no save_folder: no checkpoints are written"}, n)
	}
	if n := r.Get("save_interval"); n != nil {
		t, via := genDeref(r, n)
		if iv, ok := parseComposerTime(t, plan.Epochs); ok {
			p.Ckpt.Interval = plan.Set(iv, "save_interval", n)
			p.Ckpt.Interval.Note = viaNote(via)
		} else {
			p.Ckpt.Interval = plan.Fact[plan.Interval]{Key: "save_interval", Node: n}
		}
	} else if p.Ckpt.Enabled.Value {
		p.Ckpt.Interval = plan.Defaulted(plan.Interval{Value: 1000, Unit: plan.Steps, Text: "1000ba"}, "save_interval", cmpNote, nil)
	}
	if n := r.Get("save_num_checkpoints_to_keep"); n != nil {
		f := genIntNode(r, n, "save_num_checkpoints_to_keep")
		folder, _ := genDeref(r, r.Get("save_folder"))
		switch {
		case composerRemoteFolder(folder) && (!f.Known() || f.Value >= 0):
			// Checkpoints go to an object store, where Composer deletes none: the count only
			// prunes the local copies (CheckpointSaver num_checkpoints_to_keep, "checkpoints are
			// not deleted from remote file systems", composer/callbacks/checkpoint_saver.py
			// @6405188).
			p.Ckpt.Retention = plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepAll}, Origin: plan.Derived, Key: f.Key, Node: n,
				Note: "save_folder is remote storage, which keeps every checkpoint; the count prunes local copies only"}
		case !f.Known():
			p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: f.Key, Node: n}
		case f.Value < 0:
			p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepAll}, f.Key, n)
		case f.Value == 0:
			p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepNone}, f.Key, n)
		default:
			p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepLatest, N: f.Value}, f.Key, n)
		}
	} else if p.Ckpt.Enabled.Value {
		p.Ckpt.Retention = plan.Defaulted(plan.Retention{Kind: plan.KeepAll}, "save_num_checkpoints_to_keep", plan.Why{By: "the Composer default", Note: "-1: every checkpoint is kept"}, nil)
	}
	if f, ok := genStrRef(r, "fsdp_config.state_dict_type"); ok && f.Known() {
		sc := plan.PrimaryHost
		if v := strings.ToLower(f.Value); v == "sharded" || v == "local" {
			sc = plan.Sharded
		}
		p.Ckpt.Scope = plan.Set(sc, f.Key, f.Node)
	} else if p.Ckpt.Enabled.Value {
		p.Ckpt.Scope = plan.Defaulted(plan.PrimaryHost, "fsdp_config.state_dict_type", plan.Why{By: "the Composer default", Note: "full state dict written by rank 0"}, r.Get("fsdp_config"))
	}

	// Logging and tracking: Composer's loggers report from rank 0.
	if training || r.Get("loggers") != nil {
		p.Logging.Scope = plan.Defaulted(plan.PrimaryHost, "loggers", plan.Why{By: "the Composer default", Note: "loggers report from rank 0"}, r.Get("loggers"))
	}
	if n := r.Get("loggers"); n != nil && n.Kind == doc.Map {
		var names []string
		for _, c := range n.Children {
			names = append(names, c.Key)
		}
		p.Tracking.Trackers = plan.Set(names, "loggers", n)
	} else if n != nil && n.IsNull() {
		p.Tracking.Trackers = plan.Set([]string{}, "loggers", n)
	} else if training {
		p.Tracking.Trackers = plan.Defaulted([]string{}, "loggers", plan.Why{By: "the Composer default", Note: "no loggers"}, nil)
	}
	if f, ok := genStrRef(r, "run_name"); ok && f.Known() && f.Value != "" {
		p.Tracking.RunName = f
	}

	ApplyContext(p, ctx)
	if devices, ok := p.Topology.Devices(); ok && p.Train.GlobalBatch.Known() && p.Train.PerDeviceBatch.Known() && p.Train.PerDeviceBatch.Value > 0 {
		per := p.Train.GlobalBatch.Value / devices
		if per*devices == p.Train.GlobalBatch.Value && per%p.Train.PerDeviceBatch.Value == 0 {
			p.Train.GradAccum = plan.Fact[int]{Value: per / p.Train.PerDeviceBatch.Value, Origin: plan.Derived,
				Key: "device_train_microbatch_size", Node: p.Train.PerDeviceBatch.Node,
				Note: "= global_train_batch_size / (devices × device_train_microbatch_size)"}
		}
	}
	return p
}

var composerKeys = []Key{
	{Path: "global_train_batch_size", Type: "integer", Concept: "train.global_batch", Doc: "train examples per optimizer step across all ranks"},
	{Path: "device_train_microbatch_size", Type: "integer|string", Default: "auto", Concept: "train.per_device_batch", Doc: "per-device forward batch; \"auto\" is chosen at run time"},
	{Path: "device_eval_batch_size", Type: "integer", Default: "device_train_microbatch_size", Concept: "eval.per_device_batch", Doc: "per-device eval batch"},
	{Path: "max_duration", Type: "integer|string", Concept: "train.max_steps", Doc: "training length: \"4800ba\", \"1ep\", \"10000tok\"; \"…sec\" or \"1h\" is a wall-clock budget"},
	{Path: "eval_interval", Type: "integer|string", Default: "1", Concept: "eval.interval", Doc: "eval interval: an integer is epochs; \"500ba\", \"1ep\"; \"…sec\" is wall-clock time"},
	{Path: "eval_first", Type: "boolean", Default: "false", Doc: "evaluate before training"},
	{Path: "eval_subset_num_batches", Type: "integer", Default: "-1", Doc: "eval batches per evaluation; -1 = the whole set"},
	{Path: "eval_loader", Type: "object|array", Concept: "eval.enabled", Doc: "eval dataloader(s); none = no evaluation"},
	{Path: "eval_loader.drop_last", Type: "boolean", Concept: "eval.drop_last", Doc: "drop the partial last eval batch"},
	{Path: "icl_tasks", Type: "string|array", Concept: "eval.enabled", Doc: "in-context-learning eval tasks"},
	{Path: "seed", Type: "integer", Default: "17", Concept: "seeds.init", Doc: "seed; every rank is seeded with it before the model is built"},
	{Path: "train_loader.dataset.shuffle_seed", Type: "integer", Default: "9176", Concept: "seeds.data", Doc: "StreamingDataset shuffle seed; must be the same on every rank"},
	{Path: "train_loader.num_workers", Type: "integer", Concept: "data.workers", Doc: "loader workers"},
	{Path: "train_loader.prefetch_factor", Type: "integer", Default: "2", Concept: "data.prefetch", Doc: "batches prefetched per worker"},
	{Path: "save_folder", Type: "string", Default: "none", Concept: "ckpt.enabled", Doc: "where checkpoints go; none = no checkpoints"},
	{Path: "save_interval", Type: "integer|string", Default: "1000ba", Concept: "ckpt.interval", Doc: "checkpoint interval: an integer is epochs; \"…sec\" is wall-clock time"},
	{Path: "save_num_checkpoints_to_keep", Type: "integer", Default: "-1", Concept: "ckpt.retention", Doc: "keep the latest N checkpoints locally; -1 = all"},
	{Path: "fsdp_config.state_dict_type", Type: "string", Default: "full", Concept: "ckpt.scope", Doc: "full (rank 0 writes) or sharded (every rank writes its shard)"},
	{Path: "loggers", Type: "object", Concept: "tracking.trackers", Doc: "loggers: wandb, mlflow, tensorboard, ..."},
	{Path: "run_name", Type: "string", Concept: "tracking.run_name", Doc: "run name (else $RUN_NAME)"},
	{Path: "console_log_interval", Type: "string", Default: "1ba", Doc: "console logging interval"},
	{Path: "variables", Type: "object", Doc: "values referenced elsewhere as ${variables.name}"},
}

// composerKeyMaps is the map llm-foundry's train or eval script checks against its config
// dataclass: the root of a train YAML (TrainConfig) or of an eval YAML (EvalConfig), or the
// parameters of an mcli run whose command trains or evaluates on them (mcli writes them to
// /mnt/config/parameters.yaml). Both scripts call make_dataclass_and_log_config, which refuses
// a top-level key the dataclass lacks (every minor tag v0.10.0-v0.21.0). Other mcli runs are not
// checked.
func composerKeyMaps(d *doc.Document) []KeyMap {
	r := d.Root
	if r == nil || r.Kind != doc.Map {
		return nil
	}
	m, eval := r, false
	if isMCLI(r) {
		c, _ := r.Get("command").Str()
		m = r.Get("parameters")
		switch {
		case strings.Contains(c, "train.py /mnt/config/parameters.yaml"):
		case strings.Contains(c, "eval.py /mnt/config/parameters.yaml"):
			eval = true
		default:
			return nil
		}
	}
	if m == nil || m.Kind != doc.Map || foundryPinnedElsewhere(r) {
		return nil
	}
	if eval || foundryEvalYAML(m) {
		// The eval script's transform (allow_toplevel_keys, from v0.11.0) moves a top-level
		// model, tokenizer, model_name and load_path into the models list, and only when
		// model is there: without it, they are unused parameters too.
		sec := "EvalConfig"
		if m.Get("model") != nil {
			sec += ",EvalConfig@toplevel"
		}
		return []KeyMap{{Node: m, At: m, Section: sec, Name: "EvalConfig", By: "llm-foundry's eval script"}}
	}
	return []KeyMap{{Node: m, At: m, Section: "TrainConfig", Name: "TrainConfig", By: "llm-foundry's train script"}}
}

// foundryEvalYAML reports an llm-foundry eval YAML: a models list (EvalConfig's required field,
// which TrainConfig lacks), or, in the train-style form the eval script also reads, a model with
// icl_tasks (which the eval script requires) and no train_loader (which the train script
// requires).
func foundryEvalYAML(m *doc.Node) bool {
	return m.Get("models") != nil || m.Get("model") != nil && m.Get("icl_tasks") != nil && m.Get("train_loader") == nil
}

// hfCheckpointerAtEnd reports an hf_checkpointer whose save_interval is the whole run or more
// ("1dur": Time's duration unit, a fraction of max_duration), which saves at the end only.
func hfCheckpointerAtEnd(hc *doc.Node) bool {
	t := strings.ToLower(strings.TrimSpace(scalarText(hc.Get("save_interval"))))
	v, ok := strings.CutSuffix(t, "dur")
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(v, 64)
	return err == nil && f >= 1
}

// composerRemoteFolder reports a save_folder that Composer uploads to: a URI with a scheme
// (composer/utils/file_helpers.py parse_uri: the backend is urlparse's scheme, "" for a local
// path), such as s3://bucket/run or oci://. A one-letter scheme is a Windows drive.
func composerRemoteFolder(n *doc.Node) bool {
	if n == nil || !n.IsScalar() || n.IsNull() || n.IsUnknown() {
		return false
	}
	v := strings.TrimSpace(n.Value)
	i := strings.IndexByte(v, ':')
	if i < 2 {
		return false
	}
	for j := 0; j < i; j++ {
		c := v[j] | 0x20
		if !(c >= 'a' && c <= 'z' || j > 0 && (v[j] >= '0' && v[j] <= '9' || v[j] == '+' || v[j] == '-' || v[j] == '.')) {
			return false
		}
	}
	return true
}
