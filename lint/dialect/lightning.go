package dialect

// The Lightning dialect reads three shapes of PyTorch Lightning configuration:
//   - LightningCLI (jsonargparse) YAML: top-level seed_everything / trainer / model / data, with
//     class_path + init_args pairs (anomalib's configs are this shape);
//   - Lightning under Hydra: a full config whose `trainer` holds Trainer arguments, or a config
//     group file (lightning-hydra-template configs/trainer/*.yaml holds the Trainer arguments at
//     its root, configs/callbacks/*.yaml a model_checkpoint entry, configs/data/*.yaml the
//     DataModule arguments);
//   - a plain `trainer:` section.
// Keys and defaults: see lightning_common.go (Lightning 2.6.x @7f0c343) and cli.py: LightningCLI's
// seed_everything defaults to True, which calls seed_everything() with no seed; since Lightning
// 2.2 (#18846) that seeds 0 (or $PL_GLOBAL_SEED) on every process instead of drawing a random
// seed, and the launcher passes PL_GLOBAL_SEED to the processes it starts.
//
// LitGPT's YAML (jsonargparse, but Fabric and its own train.*/eval.* keys) is not read here: it
// has no Trainer section, and its files are left to the generic dialect.

import (
	"cmp"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Lightning is the PyTorch Lightning dialect (LightningCLI, Hydra, plain trainer sections).
var Lightning = register(newLightning())

// newLightning builds Lightning (a function of its own: see register).
func newLightning() *Dialect {
	return &Dialect{
		Name:      "lightning",
		Title:     "PyTorch Lightning (LightningCLI, Hydra)",
		Version:   "lightning 2.6.x (Lightning-AI/pytorch-lightning @7f0c343: src/lightning/pytorch/trainer/trainer.py, trainer/setup.py, callbacks/model_checkpoint.py, cli.py, fabric/utilities/seed.py)",
		Formats:   []doc.Format{doc.YAML, doc.JSON},
		Detect:    detectLightning,
		Normalize: normalizeLightning,
		Keys:      lightningKeys,
		Label:     "Lightning",
		Settings:  lightningRemoved,
		NotYet:    lightningNotYet,
		// LightningCLI repeats the Trainer arguments under each subcommand.
		Roots:        []string{"", "fit", "validate", "test", "predict"},
		SectionRoot:  lightningTrainerRoot,
		Loader:       TorchDataLoader,
		Interpolates: true,
		// Trainer, ModelCheckpoint and EarlyStopping signatures and checks extracted from Lightning's
		// source (knowledge_lightning.tsv); see lightning_checks.go.
		Knowledge: "lightning",
		Package:   "lightning",
		KeyMaps:   lightningKeyMaps,
		Problems:  lightningProblems,
		Advice: lightningAdvice(AdviceSet{
			{"data.sharding", Advice{
				Help: "remove {key}: false (the default true wraps each loader in a DistributedSampler), or give the DataModule's loaders a DistributedSampler",
				Doc:  "remove `trainer.use_distributed_sampler: false`, or give the DataModule's loaders a `DistributedSampler`.",
			}},
			{"data.workers", Advice{Doc: "the DataModule's `num_workers` (`data.init_args.num_workers` in LightningCLI files)."}},
			{"eval.per_device_batch", Advice{Doc: "the eval batch of the DataModule."}},
			{"seeds.sampler", Advice{
				Help: "set {key} to one literal value on every rank; per-rank randomness for augmentation comes from seed_everything(..., workers=True) or the rank in your code",
				Doc:  "a literal `seed_everything` (or Hydra `seed`): Lightning seeds the DistributedSampler with it\n  through `PL_GLOBAL_SEED`.",
			}},
		}),
	}
}

// hasNeMoEvidence reports keys that only NeMo configs have; the NeMo dialect claims those.
func hasNeMoEvidence(root *doc.Node) bool {
	if isMap(root.Get("exp_manager")) {
		return true
	}
	for _, k := range []string{"model.tensor_model_parallel_size", "model.pipeline_model_parallel_size", "tensor_model_parallel_size", "pipeline_model_parallel_size"} {
		if root.At(k) != nil {
			return true
		}
	}
	found := false
	root.Walk(func(n *doc.Node) bool {
		if found {
			return false
		}
		if n.Key == "_target_" && n.Kind == doc.Scalar && strings.HasPrefix(n.Value, "nemo.") {
			found = true
		}
		return true
	})
	return found
}

// isLitGPT reports LitGPT's own layout (train.* / eval.* sections of a Fabric script).
func isLitGPT(root *doc.Node) bool {
	if root.Get("trainer") != nil {
		return false
	}
	hits := 0
	for _, k := range []string{"train.global_batch_size", "train.micro_batch_size", "train.save_interval", "train.log_interval", "eval.interval", "eval.max_iters", "logger_name", "out_dir", "checkpoint_dir", "model_name", "tokenizer_dir"} {
		if root.At(k) != nil {
			hits++
		}
	}
	return hits >= 2
}

// lightningRef reports a class name from the Lightning packages.
func lightningRef(s string) bool {
	return strings.HasPrefix(s, "lightning.") || strings.HasPrefix(s, "pytorch_lightning.") ||
		strings.Contains(s, ".pytorch_lightning.") || strings.HasPrefix(s, "lightning_fabric.")
}

// cliBase returns the section a LightningCLI config is written under: the root, or a
// subcommand section (`fit:` holding trainer/model/data) when the config nests by subcommand.
func cliBase(root *doc.Node) *doc.Node {
	if !isMap(root) || root.Get("trainer") != nil || root.Get("model") != nil {
		return root
	}
	for _, sub := range []string{"fit", "validate", "test", "predict"} {
		if s := root.Get(sub); isMap(s) && (isMap(s.Get("trainer")) || isMap(s.Get("model"))) {
			return s
		}
	}
	return root
}

func detectLightning(d *doc.Document) int {
	root := cliBase(d.Root)
	if !isMap(root) || hasNeMoEvidence(root) || isLitGPT(root) || factoryEntry(root.Get("trainer")) {
		return 0
	}
	s := 0
	// Class references: a Lightning class anywhere (Hydra _target_ or CLI class_path), or a
	// LightningModule by the usual naming.
	libHit, litModule := false, false
	root.Walk(func(n *doc.Node) bool {
		if n.Kind == doc.Scalar && (n.Key == "_target_" || n.Key == "class_path") {
			if lightningRef(n.Value) {
				libHit = true
			}
			if strings.HasSuffix(n.Value, "LitModule") || strings.HasSuffix(n.Value, "LightningModule") || strings.HasSuffix(n.Value, "DataModule") {
				litModule = true
			}
		}
		return n.Depth() < 4
	})
	if libHit {
		s += 60
	}
	if litModule {
		s += 30
	}
	// LightningCLI layout.
	if root.Get("seed_everything") != nil {
		s += 50
	}
	if root.At("model.class_path") != nil {
		s += 40
	}
	if root.At("data.class_path") != nil {
		s += 15
	}
	// Trainer arguments under `trainer:` (capped: they are shared with NeMo, which is excluded
	// above), or at the root of a Hydra trainer group file.
	if tr := root.Get("trainer"); isMap(tr) {
		if !foreignTrainer(tr) {
			s += min(trainerArgScore(tr, 30, 10), 60)
		}
	} else {
		s += min(trainerArgScore(root, 12, 12), 48)
	}
	// Hydra composition of a Lightning project: a defaults list naming the trainer/callbacks
	// groups, lightning-hydra-template's top-level keys, callbacks group entries.
	if defs := root.Get("defaults"); defs != nil {
		s += 10
		if defs.Kind == doc.Seq {
			for _, it := range defs.Children {
				for _, c := range it.Children {
					k := strings.TrimPrefix(strings.TrimPrefix(c.Key, "override "), "/")
					if k == "trainer" {
						s += 20
					} else if k == "callbacks" {
						s += 10
					}
				}
			}
		}
	}
	for _, k := range []string{"ckpt_path", "task_name"} {
		if root.Get(k) != nil {
			s += 10
		}
	}
	if mc := root.Get("model_checkpoint"); isMap(mc) && (mc.Get("monitor") != nil || mc.Get("save_top_k") != nil) {
		s += 30
	}
	if es := root.Get("early_stopping"); isMap(es) && es.Get("patience") != nil {
		s += 15
	}
	return Cap(s)
}

// lightningShape locates the Trainer arguments and names the variant.
type lightningShape struct {
	variant  string
	hydra    bool
	tr       *doc.Node // Trainer arguments (nil when the file has none)
	trPrefix string
}

func shapeOf(d *doc.Document, root *doc.Node) lightningShape {
	sh := lightningShape{}
	// A defaults list or a hydra: block (its run directory, job settings) makes a Hydra app
	// config: its callbacks come from other config groups or from the app's own code.
	hydra := root.Get("defaults") != nil || isMap(root.Get("hydra"))
	cli := root.Get("seed_everything") != nil
	root.Walk(func(n *doc.Node) bool {
		if n.Kind == doc.Scalar {
			switch n.Key {
			case "_target_", "_partial_":
				hydra = true
			case "class_path", "init_args":
				cli = true
			}
		}
		return n.Depth() < 5
	})
	for _, c := range d.Comments {
		if strings.Contains(c.Text, "@package") {
			hydra = true
		}
	}
	if tr := root.Get("trainer"); isMap(tr) {
		sh.tr, sh.trPrefix = tr, sectionKey(tr)
		if ia := classArgs(tr); isMap(ia) && tr.Get("class_path") != nil {
			sh.tr, sh.trPrefix = ia, sectionKey(ia)
		}
	} else if t := scalarText(root.Get("_target_")); strings.HasSuffix(t, "Trainer") || t == "" && rootTrainer(root) {
		sh.tr, sh.trPrefix = root, ""
		hydra = true
	}
	sh.hydra = hydra && !cli
	switch {
	case cli:
		sh.variant = "lightning-cli"
	case hydra:
		sh.variant = "hydra"
	}
	return sh
}

// rootTrainer reports Trainer arguments at the root of a file with no trainer, model or data
// section: a trainer group file. Beside a data section they are some pipeline's settings
// (anomalib's tiled-ensemble configs: seed, accelerator and default_root_dir, the Trainer's
// own arguments under TrainModels.trainer).
func rootTrainer(root *doc.Node) bool {
	return trainerArgScore(root, 12, 12) >= 24 && root.Get("trainer") == nil && root.Get("model") == nil && root.Get("data") == nil
}

func normalizeLightning(d *doc.Document, ctx Context) *plan.Plan {
	p := &plan.Plan{Framework: "lightning"}
	root := cliBase(d.Root)
	if !isMap(root) {
		ApplyContext(p, ctx)
		return p
	}
	if isMap(root.Get("inference")) && !nemoTrains(root) {
		// An inference server's config (NeMo-Aligner's inference_rm.yaml: a trainer, an
		// inference section and a model to load, no optimizer or training data): nothing
		// trains, so no training rule applies (as for NeMo's, nemoTrains).
		p.Variant = "eval"
		ApplyContext(p, ctx)
		return p
	}
	sh := shapeOf(d, root)
	p.Variant = sh.variant
	tr := sh.tr
	note := lightningDefault

	if tr != nil && (ctx.NoFit || lightningTrainsNot(tr) || lightningNoFit(root, tr) || modelIn(root, ctx.NoFitModels) || lightningPredicts(root, tr)) {
		// Its start-up checks and precision are still read: the Trainer checks them whatever
		// it runs.
		lightningPrecision(p, root, tr, sh.trPrefix)
		lightningRejections(d, root, sh, p)
		ApplyContext(p, ctx)
		return p
	}
	if tr != nil {
		readTrainerCommon(p, root, tr, sh.trPrefix, note)
		lightningEvalAtEnd(p, tr)
		lightningPrecision(p, root, tr, sh.trPrefix)
		lightningUnsharded(p, tr, sh.trPrefix, ctx)
	}
	readLightningCheckpoint(p, root, sh, note, ctx)
	lightningModelCallbacks(p, ctx)
	lightningUnvalidated(p, root, tr, ctx)
	readLightningTracking(p, root, sh, note)
	readLightningSeeds(p, root, sh, note)
	lightningSamplerSeed(p, sh, note)
	readLightningData(p, root, sh)
	readBNPresent(p, root)
	lightningRejections(d, root, sh, p)

	// Loggers are rank-zero-only in Lightning (Logger.log_metrics is @rank_zero_only).
	p.Logging.Scope = plan.Defaulted(plan.PrimaryHost, joinKey(sh.trPrefix, "logger"),
		note.Plus("loggers write from global rank 0 only"), nil)
	ApplyContext(p, ctx)
	return p
}

// lightningTrainsNot reports a Trainer that runs no training run (@7f0c343): fast_dev_run on
// (true or a number of batches) makes fit a smoke test of that many batches with checkpointing
// and logging suppressed (trainer/setup.py _init_debugging_flags, ModelCheckpoint.
// _should_skip_saving_checkpoint; lightning-hydra-template's debug/fdr.yaml), and max_epochs,
// max_steps or limit_train_batches of 0 make the fit loop stop before its first step
// (loops/fit_loop.py done and skip). A value that is not known (an interpolation) is not
// taken for either.
func lightningTrainsNot(tr *doc.Node) bool {
	if n := tr.Get("fast_dev_run"); n != nil && !n.IsUnknown() && truthy(n) {
		return true
	}
	for _, k := range []string{"max_epochs", "max_steps", "limit_train_batches"} {
		if v, _, ok := number(tr.Get(k)); ok && v == 0 {
			return true
		}
	}
	return false
}

// readTrainerCommon reads the Trainer arguments Lightning and NeMo share.
func readTrainerCommon(p *plan.Plan, root, tr *doc.Node, prefix string, note plan.Why) {
	readEvalInterval(p, root, tr, prefix, note)
	readEvalEnabled(p, root, tr, prefix, note)
	readEvalSubset(p, root, tr, prefix)
	readTopology(p, root, tr, prefix)
	readBNSync(p, root, tr, prefix, note)
	readTimeBudget(p, tr, prefix)
	p.Train.GradAccum = intFact(root, tr, prefix, "accumulate_grad_batches", 1, true, note)
	readRunLength(p, root, tr, prefix)
	// Data sharding: the Trainer wraps loaders in a DistributedSampler seeded with
	// PL_GLOBAL_SEED (0 when unset), the same seed on every rank.
	us := boolFact(root, tr, prefix, "use_distributed_sampler", true, true, note)
	if us.Known() && us.Value {
		p.Data.Sharding = plan.Fact[plan.Sharding]{Value: plan.GlobalIndexSampler, Origin: us.Origin, Key: us.Key, Node: us.Node,
			Note: note.Plus("DistributedSampler over one global index").Note, By: note.By}
		if us.Origin == plan.Explicit {
			p.Data.Sharding.Note, p.Data.Sharding.By = "", ""
		}
		p.Seeds.Data = plan.Defaulted(plan.Seed{Value: "PL_GLOBAL_SEED", Varies: plan.SameOnEveryHost,
			Why: "DistributedSampler is seeded with PL_GLOBAL_SEED (0 when unset) on every rank"},
			us.Key, note, us.Node)
	}
}

func readLightningCheckpoint(p *plan.Plan, root *doc.Node, sh lightningShape, note plan.Why, ctx Context) {
	tr := sh.tr
	if es := findEarlyStopping(root, sh); es != nil && !earlyStoppingCannotStop(es, cmp.Or(tr, callbacksOwner(es)), ctx.Targets["lightning"]) {
		p.Ckpt.EarlyStopping = plan.Set(true, sectionKey(es), es)
	}
	var enabled plan.Fact[bool]
	if tr != nil {
		enabled = boolFact(root, tr, sh.trPrefix, "enable_checkpointing", true, true, note)
		p.Ckpt.Enabled = enabled
	}
	defs := ckptDefaults{saveTopK: 1, everyNEpochs: 1, note: note}
	params, at, prefix, ok := findModelCheckpoint(root, sh)
	switch {
	case ok:
		readCheckpointParams(p, root, params, prefix, at, defs)
		alignCkptWithEval(p, params, lightningAutoSave(p, ctx))
		lightningCkptAtEnd(p, params)
		lightningUnaligned(p)
	case tr != nil && !sh.hydra && enabled.Known() && enabled.Value && (strings.HasPrefix(scalarText(root.At("model.class_path")), "terratorch.") ||
		strings.HasPrefix(scalarText(root.At("data.class_path")), "terratorch.")):
		// terratorch's CLI adds two StateDictAwareModelCheckpoint(monitor="val/loss") when
		// trainer.callbacks has no ModelCheckpoint (terratorch/cli_tools.py at v1.1.1,
		// add_default_checkpointing_config): save_top_k's default 1 keeps the best by val/loss.
		// A task named short (WxCTask, from terratorch's registry) beside a terratorch
		// datamodule is terratorch's CLI's too.
		why := plan.Because("terratorch's CLI adds a ModelCheckpoint monitoring val/loss when trainer.callbacks has none")
		p.Ckpt.Retention = plan.Defaulted(plan.Retention{Kind: plan.KeepBest, N: 1}, "trainer.callbacks", why, tr)
		p.Ckpt.BestMetric = plan.Defaulted("val/loss", "trainer.callbacks", why, tr)
	case tr != nil && !sh.hydra && !ctx.Hydra && !ctx.CLIDefaults && !(ctx.CLINoCheckpointing && !enabled.IsExplicit()) && enabled.Known() && enabled.Value && !checkpointLike(tr, ctx.CheckpointClasses):
		// No ModelCheckpoint configured: the Trainer adds ModelCheckpoint() with no monitor,
		// keeping only the latest checkpoint, written at the end of every epoch. (Under Hydra
		// the callbacks come from another config group or the app's code, which may hand the
		// Trainer its own: nothing is assumed there, in a group file or a composed run, nor
		// where the CLI's defaults give the callbacks, or turn checkpointing off and the file not on.)
		defs.note = note.Plus("the Trainer adds a ModelCheckpoint without a monitor")
		if strings.HasPrefix(scalarText(root.At("model.class_path")), "anomalib.") {
			// anomalib's Engine._setup_anomalib_callbacks adds its own ModelCheckpoint, with no
			// monitor, when trainer.callbacks has none (src/anomalib/engine/engine.py).
			defs.note = plan.Because("anomalib's Engine adds a ModelCheckpoint without a monitor when trainer.callbacks has none")
		}
		readCheckpointParams(p, root, nil, "ModelCheckpoint", tr, defs)
		alignCkptWithEval(p, nil, lightningAutoSave(p, ctx))
	}
	if r := p.Ckpt.Retention; r.Known() && r.Value.Kind == plan.KeepLatest && (savesOnce(tr, params) || wandbKeepsEvery(root, sh)) {
		// One checkpoint in all: none is deleted, and there is no other to call the best. Or
		// every checkpoint saved is uploaded as it is saved (eeg-ssl's WandbLogger log_model "all").
		p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: r.Key, Node: r.Node}
	}
	if p.Ckpt.Enabled.Known() || ok {
		scope, why := plan.PrimaryHost, note.Plus("checkpoints are written from global rank 0")
		if tr != nil && strings.Contains(strings.ToLower(scalarText(tr.Get("strategy"))), "deepspeed") {
			scope, why = plan.Sharded, plan.Because("DeepSpeed strategies save sharded checkpoints from every rank")
		}
		p.Ckpt.Scope = plan.Defaulted(scope, joinKey(sh.trPrefix, "strategy"), why, nil)
	}
}

func readLightningTracking(p *plan.Plan, root *doc.Node, sh lightningShape, note plan.Why) {
	// Hydra projects (lightning-hydra-template) instantiate loggers from a top-level `logger`
	// group: null means none. A logger group file holds {name: {_target_: ...Logger}} at its root.
	if sh.hydra {
		if lg := root.Get("logger"); lg != nil && (sh.tr == nil || sh.trPrefix != "") {
			if lg.IsNull() {
				p.Tracking.Trackers = plan.Set([]string{}, sectionKey(lg), lg)
				return
			}
			if names, ok := loggerNames(lg); ok {
				p.Tracking.Trackers = plan.Set(names, sectionKey(lg), lg)
				return
			}
		}
		if sh.tr == nil {
			var names []string
			var first *doc.Node
			for _, c := range root.Children {
				t := scalarText(c.Get("_target_"))
				if strings.HasSuffix(t, "Logger") {
					names = append(names, t[strings.LastIndexByte(t, '.')+1:])
					if first == nil {
						first = c
					}
				}
			}
			if len(names) > 0 {
				p.Tracking.Trackers = plan.Set(names, first.Path().String(), first)
				return
			}
		}
	}
	tr := sh.tr
	if tr == nil {
		return
	}
	n := tr.Get("logger")
	k := keyOf(n, sh.trPrefix, "logger")
	switch {
	case n == nil || n.IsNull():
		if sh.hydra {
			return // Hydra projects configure loggers in their own group
		}
		p.Tracking.Trackers = plan.Defaulted([]string{"TensorBoardLogger"}, k,
			note.Plus("TensorBoardLogger, or CSVLogger when tensorboard is not installed"), n)
	case n.Kind == doc.Scalar && n.Type == doc.Bool:
		v, _ := n.Bool()
		if !v && !trackingCallback(tr) {
			p.Tracking.Trackers = plan.Set([]string{}, k, n)
		} else if !v {
			p.Tracking.Trackers = plan.Fact[[]string]{Key: k, Node: n, Note: "a callback reports to a tracker itself"}
		} else {
			p.Tracking.Trackers = plan.Set([]string{"TensorBoardLogger"}, k, n)
			p.Tracking.Trackers.Note = "logger: true is TensorBoardLogger, or CSVLogger when tensorboard is not installed"
		}
	default:
		if names, ok := loggerNames(n); ok {
			p.Tracking.Trackers = plan.Set(names, k, n)
		} else {
			p.Tracking.Trackers = plan.Fact[[]string]{Key: k, Node: n}
		}
	}
	// Run name: a logger's init_args.name (CLI) or name (Hydra).
	var items []*doc.Node
	if n != nil && n.Kind == doc.Seq {
		items = n.Children
	} else if n != nil {
		items = []*doc.Node{n}
	}
	for _, it := range items {
		for _, c := range []*doc.Node{classArgs(it).Get("name"), it.Get("name")} {
			if s, ok := strValue(c); ok && s != "" {
				p.Tracking.RunName = plan.Set(s, c.Path().String(), c)
				return
			}
		}
	}
}

func readLightningSeeds(p *plan.Plan, root *doc.Node, sh lightningShape, note plan.Why) {
	broadcast := broadcastsInit(sh.tr)
	sk := joinKey(sectionKey(root), "seed_everything")
	if n := root.Get("seed_everything"); n != nil || sh.variant == "lightning-cli" {
		if n == nil || n.IsNull() {
			if n == nil && sh.tr == nil && root.Get("model") == nil {
				return // a CLI fragment without the run's top level
			}
			p.Seeds.Init = plan.Defaulted(plan.Seed{Value: "true", Varies: plan.SameOnEveryHost,
				Why: "seed_everything: true seeds 0 (or $PL_GLOBAL_SEED) on every process", Broadcast: broadcast},
				sk, note, n)
			return
		}
		if n.Kind == doc.Scalar && n.Type == doc.Bool {
			v, _ := n.Bool()
			if v {
				p.Seeds.Init = plan.Set(plan.Seed{Value: n.Value, Varies: plan.SameOnEveryHost,
					Why: "seed_everything: true seeds 0 (or $PL_GLOBAL_SEED) on every process", Broadcast: broadcast}, sk, n)
			} else {
				p.Seeds.Init = plan.Set(plan.Seed{Value: "", Why: "seed_everything: false: Lightning sets no seed", Broadcast: broadcast}, sk, n)
			}
			return
		}
		p.Seeds.Init = seedFact(n, sk, broadcast)
		return
	}
	// Hydra projects: lightning-hydra-template's top-level `seed` (null = not seeded by the script).
	if n := root.Get("seed"); n != nil && !n.IsNull() {
		p.Seeds.Init = seedFact(n, sectionKey(n), broadcast)
	}
}

// lightningSamplerSeed: seed_everything(seed) exports the seed as PL_GLOBAL_SEED, and the
// Trainer seeds the DistributedSampler it injects with int(os.getenv("PL_GLOBAL_SEED", 0))
// (_get_distributed_sampler in trainer/connectors/data_connector.py, unchanged from 1.x to 2.6).
// A seed derived from the rank therefore gives every rank its own sampler permutation. A Hydra
// file without its trainer section keeps the Trainer default use_distributed_sampler: true.
func lightningSamplerSeed(p *plan.Plan, sh lightningShape, note plan.Why) {
	init := p.Seeds.Init
	if !init.IsExplicit() || init.Value.Varies != plan.VariesByHost || init.Value.Value == "" {
		return
	}
	if !p.Data.Sharding.Known() && p.Data.Sharding.Node == nil && sh.tr == nil && sh.hydra {
		p.Data.Sharding = plan.Defaulted(plan.GlobalIndexSampler, "trainer.use_distributed_sampler",
			note.Plus("DistributedSampler over one global index"), nil)
	}
	if s := p.Data.Sharding; !s.Known() || s.Value != plan.GlobalIndexSampler {
		return
	}
	p.Seeds.Data = plan.Fact[plan.Seed]{Value: plan.Seed{Value: init.Value.Value, Varies: plan.VariesByHost,
		Why: "seed_everything exports it as PL_GLOBAL_SEED, which seeds the DistributedSampler on each rank"},
		Origin: plan.Derived, Key: init.Key, Node: init.Node, Note: init.Value.Why}
}

// readLightningData reads DataModule arguments: per-device batch sizes and loader workers.
// They are user-code arguments, so absent keys stay Unknown (no framework default applies).
func readLightningData(p *plan.Plan, root *doc.Node, sh lightningShape) {
	var sec *doc.Node
	prefix := ""
	if dn := root.Get("data"); isMap(dn) {
		sec, prefix = dn, sectionKey(dn)
		if ia := classArgs(dn); isMap(ia) {
			sec, prefix = ia, sectionKey(ia)
		}
	} else if t := scalarText(root.Get("_target_")); strings.Contains(strings.ToLower(t), "datamodule") {
		sec = root // a Hydra data group file
	} else if dl := root.Get("train_dataloader"); isMap(dl) && scalarText(dl.Get("_target_")) != "" {
		// A loader the app instantiates (uni2ts' cli/train.py:76-80 @a2febcb, its DataLoader
		// handing num_workers to torch's, src/uni2ts/data/loader.py:417-450): its workers only;
		// what its batch_size counts is the app's.
		if dl.Get("num_workers") != nil {
			p.Data.Workers = intFact(root, dl, sectionKey(dl), "num_workers", 0, false, plan.Because(""))
		}
		return
	}
	// A datamodule below the data section, or at the top of a data group file (cdvae's
	// conf/data/*.yaml, data.datamodule once composed).
	in := sec
	if in == nil {
		in = root
	}
	if dm := in.Get("datamodule"); isMap(dm) && strings.Contains(strings.ToLower(scalarText(dm.Get("_target_"))), "datamodule") {
		sec, prefix = dm, sectionKey(dm)
	}
	if sec == nil {
		return
	}
	first := func(keys ...string) plan.Fact[int] {
		for _, k := range keys {
			if sec.Get(k) != nil {
				return intFact(root, sec, prefix, k, 0, false, plan.Because(""))
			}
		}
		return plan.Fact[int]{}
	}
	splitWorkers, splitBatch := lightningSplitData(p, root, sec)
	if !splitWorkers {
		p.Data.Workers = first("num_workers", "workers")
	}
	p.Data.Prefetch = first("prefetch_factor")
	if splitBatch {
		return
	}
	if sh.hydra {
		// lightning-hydra-template DataModules (and the many projects built from it) divide
		// batch_size by trainer.world_size in setup(): it is the global batch, and the eval
		// loaders use the same per-device share.
		if f := first("batch_size"); f.Known() {
			f.Note = "lightning-hydra-template DataModules divide batch_size by the world size"
			p.Train.GlobalBatch = f
		}
		return
	}
	// In CLI DataModules batch_size is usually passed to each process's DataLoader (per
	// device); anomalib's AnomalibDataModule spells them train_batch_size / eval_batch_size
	// (src/anomalib/data/datamodules/base/image.py @0aa3fc4).
	p.Train.PerDeviceBatch = first("batch_size", "train_batch_size", "batch_size_per_device")
	p.Eval.PerDeviceBatch = first("val_batch_size", "eval_batch_size", "valid_batch_size", "batch_size_val")
}

var lightningKeys = []Key{
	{Path: "trainer.val_check_interval", Type: "integer|number|string|object", Default: "1.0", Concept: "eval.interval",
		Doc: "how often to validate: int = training batches, float in [0,1] = fraction of an epoch, \"DD:HH:MM:SS\" or {minutes: N} = wall-clock time (2.6+)"},
	{Path: "trainer.check_val_every_n_epoch", Type: "integer|null", Default: "1", Concept: "eval.interval",
		Doc: "validate every N epochs; null makes validation purely step-based (needs an int val_check_interval)"},
	{Path: "trainer.limit_val_batches", Type: "integer|number", Default: "1.0", Concept: "eval.enabled",
		Doc: "batches (int) or fraction (float) of the validation set per run; 0 disables validation"},
	{Path: "trainer.num_sanity_val_steps", Type: "integer", Default: "2", Concept: "eval",
		Doc: "validation batches run before training starts (-1 = all)"},
	{Path: "trainer.max_time", Type: "string|object", Default: "none", Concept: "train.time_budget",
		Doc: "wall-clock budget \"DD:HH:MM:SS\" or {days, hours, minutes, seconds}: stops training, not an interval"},
	{Path: "trainer.max_steps", Type: "integer", Default: "-1", Concept: "train.max_steps", Doc: "optimizer steps to train for (-1 = no limit)"},
	{Path: "trainer.max_epochs", Type: "integer|null", Default: "none", Concept: "train", Doc: "epochs to train for (1000 when neither max_epochs nor max_steps is set)"},
	{Path: "trainer.num_nodes", Type: "integer", Default: "1", Concept: "topology.hosts", Doc: "number of machines (nodes); often set by the launcher"},
	{Path: "trainer.devices", Type: "integer|string|array", Default: "auto", Concept: "topology.devices_per_host",
		Doc: "devices per node: a count, a list of indices, \"0,1\", -1 or \"auto\" (all available)"},
	{Path: "trainer.strategy", Type: "string|object", Default: "auto", Concept: "ckpt.scope", Doc: "distribution strategy: ddp, fsdp, deepspeed_stage_2, ..."},
	{Path: "trainer.accumulate_grad_batches", Type: "integer", Default: "1", Concept: "train.grad_accum", Doc: "batches whose gradients are accumulated before each optimizer step"},
	{Path: "trainer.sync_batchnorm", Type: "boolean", Default: "false", Concept: "bn.sync", Doc: "convert batch norm layers to SyncBatchNorm (statistics synced across devices at every step)"},
	{Path: "trainer.enable_checkpointing", Type: "boolean", Default: "true", Concept: "ckpt.enabled", Doc: "add a default ModelCheckpoint when none is configured"},
	{Path: "trainer.logger", Type: "boolean|object|array", Default: "true", Concept: "tracking.trackers", Doc: "experiment loggers; true = TensorBoardLogger (or CSVLogger); loggers write from rank 0"},
	{Path: "trainer.use_distributed_sampler", Type: "boolean", Default: "true", Concept: "data.sharding", Doc: "wrap loaders in a DistributedSampler (seeded with PL_GLOBAL_SEED, the same on every rank)"},
	{Path: "trainer.log_every_n_steps", Type: "integer", Default: "50", Concept: "tracking", Doc: "how often metrics are logged"},
	{Path: "trainer.callbacks", Type: "array|object", Default: "none", Concept: "ckpt", Doc: "callbacks; a ModelCheckpoint here sets checkpoint retention"},
	{Path: "trainer.callbacks[].init_args.monitor", Type: "string|null", Default: "none", Concept: "ckpt.best_metric", Doc: "ModelCheckpoint metric; none keeps only the latest checkpoint"},
	{Path: "trainer.callbacks[].init_args.save_top_k", Type: "integer", Default: "1", Concept: "ckpt.retention", Doc: "ModelCheckpoint: keep the k best by monitor; -1 all; 0 none; >1 needs a monitor"},
	{Path: "trainer.callbacks[].init_args.mode", Type: "string", Default: "min", Concept: "ckpt.best_metric", Doc: "ModelCheckpoint: whether the monitored metric is minimised or maximised", Enum: []string{"min", "max"}},
	{Path: "trainer.callbacks[].init_args.every_n_train_steps", Type: "integer|null", Default: "none", Concept: "ckpt.interval", Doc: "ModelCheckpoint: save every N training steps"},
	{Path: "trainer.callbacks[].init_args.every_n_epochs", Type: "integer|null", Default: "1", Concept: "ckpt.interval", Doc: "ModelCheckpoint: save every N epochs (1 when no other trigger is set)"},
	{Path: "trainer.callbacks[].init_args.train_time_interval", Type: "string|object|null", Default: "none", Concept: "ckpt.interval", Doc: "ModelCheckpoint: save on wall-clock time"},
	{Path: "trainer.callbacks[].init_args.save_on_train_epoch_end", Type: "boolean|null", Default: "none", Concept: "ckpt.interval", Doc: "ModelCheckpoint: save at the end of the training epoch instead of after validation (auto: only when validation runs once per epoch)"},
	{Path: "callbacks.model_checkpoint.save_top_k", Type: "integer", Default: "1", Concept: "ckpt.retention", Doc: "Hydra ModelCheckpoint entry (_target_: lightning.pytorch.callbacks.ModelCheckpoint)"},
	{Path: "callbacks.model_checkpoint.monitor", Type: "string|null", Default: "none", Concept: "ckpt.best_metric", Doc: "Hydra ModelCheckpoint entry: the metric that ranks checkpoints"},
	{Path: "seed_everything", Type: "boolean|integer", Default: "true", Concept: "seeds.init", Doc: "LightningCLI seed; true seeds 0 (or $PL_GLOBAL_SEED) on every process since 2.2; false sets none"},
	{Path: "seed", Type: "integer|null", Default: "none", Concept: "seeds.init", Doc: "lightning-hydra-template seed passed to seed_everything (null: not seeded)"},
	{Path: "data.batch_size", Type: "integer", Default: "", Concept: "train.per_device_batch", Doc: "DataModule argument (also data.init_args.batch_size): usually the per-device train batch; the global batch in lightning-hydra-template projects"},
	{Path: "data.val_batch_size", Type: "integer", Default: "", Concept: "eval.per_device_batch", Doc: "DataModule argument (also eval_batch_size): the per-device eval batch"},
	{Path: "data.num_workers", Type: "integer", Default: "", Concept: "data.workers", Doc: "DataModule argument: DataLoader worker processes (0 = load in the training process)"},
	{Path: "data.prefetch_factor", Type: "integer", Default: "", Concept: "data.prefetch", Doc: "DataModule argument: batches prefetched per worker"},
}

// lightningAutoSave is ModelCheckpoint's automatic save_on_train_epoch_end at the Lightning
// release the file is linted for, when it differs from the newest's (nil: alignCkptWithEval's
// own reading). Before 1.4.6 it was val_check_interval == 1.0 alone (1.4.0-1.4.5,
// callbacks/model_checkpoint.py:261 at 1.4.0; check_val_every_n_epoch joined the test in
// 1.4.6), that is an eval interval of whole epochs here; before 1.4.0 there was no such
// choice, and when those releases saved is not read here: unknown.
func lightningAutoSave(p *plan.Plan, ctx Context) *bool {
	t := ctx.Targets["lightning"]
	if !releasedBefore(t, 1, 4, 6) {
		return nil
	}
	if releasedBefore(t, 1, 4) {
		if iv := p.Ckpt.Interval; iv.Known() && iv.Value.Unit == plan.Epochs {
			p.Ckpt.Interval = plan.Fact[plan.Interval]{Key: iv.Key, Node: iv.Node, Note: "when Lightning " + t + " saves is not read"}
		}
		return nil
	}
	whole := p.Eval.Interval.Known() && wholeEpochs(p.Eval.Interval.Value)
	return &whole
}
