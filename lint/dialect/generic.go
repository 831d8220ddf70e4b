package dialect

import (
	"strings"
	"unicode/utf8"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Generic reads in-house configs (YAML, JSON, TOML) by the spellings teams commonly use.
//
// It assumes no framework defaults: a fact is Explicit only where a key is written, and an absent
// key stays Unknown, so rules stay silent on what the file does not say.
//
// Generic is never chosen by score: Detect falls back to it when no dialect claims a file. Two
// frameworks without a config schema of their own build on its reader: torchtitan (torchtitan.go)
// adds its documented defaults first, GPT-NeoX (gptneox.go) is read as written.
var Generic = register(newGeneric())

// newGeneric builds Generic (a function of its own: see register).
func newGeneric() *Dialect {
	return &Dialect{
		Name:      "generic",
		Title:     "Generic (in-house YAML/JSON/TOML)",
		Version:   "common spellings",
		Formats:   []doc.Format{doc.YAML, doc.JSON, doc.TOML},
		Normalize: func(d *doc.Document, ctx Context) *plan.Plan { return readGenericPlan("generic", d, ctx, nil) },
		Keys:      genericKeys,
		Label:     "In-house code",
		// Rule pages list the generic dialect last, with advice for tools that have no dialect yet.
		Advice: AdviceSet{
			{"bn.sync", Advice{Doc: "- MMEngine / MMDetection: `norm_cfg = dict(type='SyncBN')`, or keep `BN` and add `SyncNormHook`\n  to `custom_hooks` (statistics reduced before each evaluation).\n" +
				"- timm-style scripts: `dist_bn: reduce`.\n" +
				"- In-house code: all-reduce the running mean and variance before eval and save, or convert the\n  model with `torch.nn.SyncBatchNorm.convert_sync_batchnorm`."}},
			{"bn.per_step", Advice{Doc: "- MMEngine / MMDetection: `norm_cfg = dict(type='SyncBN')`.\n" +
				"- timm-style scripts: `sync_bn: true`.\n" +
				"- In-house code: convert the model with `torch.nn.SyncBatchNorm.convert_sync_batchnorm`."}},
			{"ckpt.scope", Advice{Doc: "save where `process_index == 0`, or use a coordinated sharded checkpointer."}},
			{"logging.scope", Advice{Doc: "guard logging with `process_index == 0` (JAX) or `rank == 0`."}},
			{"eval.interval", Advice{Doc: "a step key such as `eval_every_steps` instead of `eval_every_secs`."}},
			{"data.workers", Advice{Doc: "- tf.data-style pipelines: a positive `prefetch` (or AUTOTUNE)."}},
			{"seeds.init", Advice{Doc: "- Hydra configs: a literal seed (`seed: 1234`) rather than `${oc.env:RANK}` or a rank expression.\n" +
				"- MMEngine: keep `randomness.diff_rank_seed: false` (vary the data seed through the sampler instead).\n" +
				"- Megatron: leave `data_parallel_random_init` off.\n" +
				"- JAX: derive the init key from a constant seed, not from `jax.process_index()`."}},
		},
	}
}

// ApplyContext fills topology facts from the launch context where the file stated nothing
// explicitly (a value written in the file is what the framework will use). Dialects call it last.
func ApplyContext(p *plan.Plan, ctx Context) {
	if ctx.Hosts > 0 && !p.Topology.Hosts.IsExplicit() {
		p.Topology.Hosts = plan.Fact[int]{Value: ctx.Hosts, Origin: plan.Context, Key: orStr(ctx.HostsKey, "--hosts"), Node: ctx.HostsNode}
	}
	if ctx.DevicesPerHost > 0 && !p.Topology.DevicesPerHost.IsExplicit() {
		p.Topology.DevicesPerHost = plan.Fact[int]{Value: ctx.DevicesPerHost, Origin: plan.Context, Key: orStr(ctx.DevicesKey, "--devices-per-host"), Node: ctx.DevicesNode}
	}
}

// ---------------------------------------------------------------------------------------------
// The generic reader.

// genNormKey folds the spellings of one key: case, and NeoX's interchangeable '-' and '_'.
// Almost every key (and every name the readers look up) is already folded: one scan finds that
// and returns k itself, where the two library calls scanned it twice (this runs for every lookup).
func genNormKey(k string) string {
	for i := 0; i < len(k); i++ {
		if b := k[i]; b == '-' || b >= 'A' && b <= 'Z' || b >= utf8.RuneSelf {
			return strings.ToLower(strings.ReplaceAll(k, "-", "_"))
		}
	}
	return k
}

// genChild returns the child of map n whose folded key equals name (the last one when repeated).
func genChild(n *doc.Node, name string) *doc.Node {
	if n == nil || n.Kind != doc.Map {
		return nil
	}
	want := genNormKey(name)
	for i := len(n.Children) - 1; i >= 0; i-- {
		if genNormKey(n.Children[i].Key) == want {
			return n.Children[i]
		}
	}
	return nil
}

// section names where in-house configs group settings, by purpose.
var (
	genTrainSections = []string{"train", "training", "trainer", "optim", "optimization", "hparams", "hyperparameters", "config", "run"}
	genEvalSections  = []string{"eval", "evaluation", "validation", "val", "evaluator"}
	genDataSections  = []string{"data", "input", "dataset", "dataloader", "data_loader", "loader", "training.dataloader", "train.dataloader", "train_loader", "data.loader", "dataloader_opts", "train_dataloader_opts", "dataloader_options", "train_dataloader_options"}
	genCkptSections  = []string{"checkpoint", "checkpointing", "ckpt", "checkpoints", "save", "saving"}
	genLogSections   = []string{"logging", "logger", "log", "metrics", "tracking"}
	genDistSections  = []string{"distributed", "dist", "cluster", "parallelism", "hardware", "resources", "launcher", "compute", "trainer", "job"}
	genSeedSections  = []string{"debug", "reproducibility", "randomness", "seed", "train", "training", "trainer", "experiment"}
)

type genericReader struct {
	root *doc.Node
	// idx holds each looked-up map's children by folded key, built on first use: a lookup is
	// then O(1), so a hostile file with a million top-level keys stays fast.
	idx map[*doc.Node]*genIndex
	// secs memoises section: every reader resolves the same few dozen section names.
	secs map[string]*doc.Node
	// top is idx[root], built up front: most lookups are at the top level, and this saves
	// hashing the root pointer for each.
	top *genIndex
	// scriptKeeps: the file is a HyperPyYAML hparams file (SpeechBrain's !new:, !name:, !apply:,
	// !ref tags), whose recipe script decides which checkpoints a keep count keeps.
	scriptKeeps bool
	// named: the words of the repository's code (Context.RepoNames) when the file is read as no
	// framework's; find passes over a key they do not hold.
	named map[string]bool
	// reads: the names the repository's code reads (Context.RepoReads), beside named.
	reads map[string]bool
	// trainerNamed: named holds a word of the Trainer's argument classes (trainerWords).
	trainerNamed bool
	// threadLoader: why the repository's loader reads ahead in threads whatever its worker
	// count (threadLoaderOf), when the file is read as no framework's; "" when not known to.
	threadLoader string
}

// threadLoaderOf says why the repository's data loader reads ahead in threads with no worker
// processes, or "": paddle.io.DataLoader in Paddle's code (paddleCode), or Grain in a JAX
// repository's (it imports grain and never torch): Grain's ReadOptions read the DataSource
// ahead in 16 threads into a buffer of 500 elements a process, worker_count 0 meaning only
// that transformations run in the main process (grain/_src/python/options.py, ReadOptions
// num_threads and prefetch_buffer_size, MultiprocessingOptions.num_workers;
// google-research/swirl-dynamics hands its configs' num_workers to pygrain.DataLoader's
// worker_count).
func threadLoaderOf(ctx Context) string {
	switch {
	case paddleCode(ctx):
		return "paddle.io.DataLoader prefetches in a thread"
	case ctx.RepoImports["grain"] > 0 && ctx.RepoImports["torch"] == 0:
		return "Grain reads ahead in threads (ReadOptions: 16 threads, a buffer of 500)"
	}
	return ""
}

// paddleCode reports a repository whose code is Paddle's, whose loaders are then
// paddle.io.DataLoader: its Python names paddle and never torch, or its files importing paddle
// outnumber those importing torch tenfold. A Paddle repository's conversion scripts import torch
// too (PaddleNLP 2.4's examples/*/convert.py: 10 files beside 1,159 importing paddle), and a
// torch repository's paddle ones are as few (PaddleOCR2Pytorch: 46 beside 149).
func paddleCode(ctx Context) bool {
	if ctx.RepoNames["paddle"] && !ctx.RepoNames["torch"] {
		return true
	}
	p, t := ctx.RepoImports["paddle"], ctx.RepoImports["torch"]
	return p > 0 && p >= 10*t
}

// isHyperPyYAML reports a YAML file written with HyperPyYAML's tags (the loader of SpeechBrain's
// hparams files).
func isHyperPyYAML(d *doc.Document) bool {
	for _, t := range d.Tagged {
		for _, pre := range []string{"!new:", "!name:", "!apply:", "!ref", "!copy"} {
			if strings.HasPrefix(t.Tag, pre) {
				return true
			}
		}
	}
	return false
}

// child is genChild through the index.
func (g genericReader) child(n *doc.Node, name string) *doc.Node {
	if n == nil || n.Kind != doc.Map {
		return nil
	}
	if g.idx == nil {
		return genChild(n, name)
	}
	m := g.top
	if n != g.root || m == nil {
		var ok bool
		if m, ok = g.idx[n]; !ok {
			m = newGenIndex(n)
			g.idx[n] = m
		}
	}
	k := genNormKey(name)
	if s := keyShape(k); m.shape&s != s {
		return nil
	}
	return m.keys[k]
}

// genIndex is one map's children by folded key, with the union of their keyShape bits: most
// lookups (every name of every reader in every section) ask for a key the map lacks, and the
// bit test answers those without hashing the name (it was a third of normalising a file).
type genIndex struct {
	keys  map[string]*doc.Node
	shape uint64
}

func newGenIndex(n *doc.Node) *genIndex {
	m := &genIndex{keys: make(map[string]*doc.Node, len(n.Children))}
	for _, c := range n.Children {
		k := genNormKey(c.Key)
		m.keys[k] = c // later duplicates win, as in the formats
		m.shape |= keyShape(k)
	}
	return m
}

// keyShape is a one-bit-per-property summary of a key: its length (mod 32) and its first
// byte (mod 32). Equal keys have equal shapes, so a shape bit missing from a map's union means
// the key is absent.
func keyShape(k string) uint64 {
	if k == "" {
		return 1
	}
	return 1<<(len(k)&31) | 1<<(32+k[0]&31)
}

// section resolves a (possibly dotted) section name under the root with folded keys.
func (g genericReader) section(name string) *doc.Node {
	if strings.IndexByte(name, '.') < 0 {
		// One level: the lookup is as cheap as the memo's (and mostly a shape miss).
		n := g.child(g.root, name)
		if n == nil || n.Kind != doc.Map {
			return nil
		}
		return n
	}
	if g.secs != nil {
		if n, ok := g.secs[name]; ok {
			return n
		}
		n := g.resolveSection(name)
		g.secs[name] = n
		return n
	}
	return g.resolveSection(name)
}

func (g genericReader) resolveSection(name string) *doc.Node {
	// strings.Cut rather than SplitSeq: the iterator's closures cost more than the lookups here.
	cur := g.root
	for rest, more := name, true; more; {
		var part string
		part, rest, more = strings.Cut(rest, ".")
		cur = g.child(cur, part)
		if cur == nil || cur.Kind != doc.Map {
			return nil
		}
	}
	return cur
}

// find returns the first key written among names, in the top level first and then in the given
// sections in order, with its dotted path as written.
func (g genericReader) find(sections []string, topLevel bool, names ...string) (*doc.Node, string) {
	if topLevel {
		for _, name := range names {
			if n := g.child(g.root, name); n != nil && g.read(n) {
				return n, genPathOf(n)
			}
		}
	}
	for _, s := range sections {
		sec := g.section(s)
		if sec == nil {
			continue
		}
		for _, name := range names {
			if n := g.child(sec, name); n != nil && g.read(n) {
				return n, genPathOf(n)
			}
		}
	}
	return nil, ""
}

func genPathOf(n *doc.Node) string {
	if n == nil {
		return ""
	}
	return n.Path().String()
}

// genNoTraining reports a config that trains nothing, none of whose sections or keys trains
// (trainer, optimizer, a learning rate, a training length): one that evaluates or infers (an
// evaluator or inferer section, a MONAI bundle's inference program), one that only generates
// (fairseq's generation section, read by its generate and decode scripts: SpeechT5's
// s2s_decode.yaml), or one whose name says it infers, predicts, decodes, evaluates or validates
// (a MONAI bundle's infer.yaml sampling from noise; klomucaj/slowfast-project's
// slowfast_validation.yaml, read only by its validate.py), or one that switches training off
// (genTrainDisabled).
func genNoTraining(path string, root *doc.Node) bool {
	if genTrainDisabled(root) {
		return true
	}
	if root.Get("lr_scheduler") != nil || root.Get("scheduler") != nil || root.Get("checkpoint") != nil || genTrainingSign(root, false) {
		// A schedule, checkpoints, or a trainer, learning rate, optimizer or length at the top or
		// in a section (an RL config's generation section beside rl.learning_rate;
		// traffic_prediction.yaml's solver.base_lr): it trains.
		return false
	}
	if root.Get("evaluator") != nil || root.Get("inferer") != nil || root.Get("generation") != nil {
		return true
	}
	for _, w := range nameWords(path) {
		switch w {
		case "infer", "inference", "predict", "prediction", "decode", "decoding",
			"eval", "evaluate", "evaluation", "validate", "validation":
			return true
		}
	}
	return false
}

// genTrainDisabled reports a yacs config of PySlowFast's layout that turns training off:
// `TRAIN: {ENABLE: False}`, spelled as PySlowFast spells it. Its launcher trains only `if
// cfg.TRAIN.ENABLE:` (facebookresearch/SlowFast @287ec00 tools/run_net.py:26; the default is
// True, "If True Train the model, else skip training", slowfast/config/defaults.py:133-134), so
// such a file (configs/AVA/c2/*.yaml, which test converted Caffe2 checkpoints; the demo configs)
// keeps its TRAIN section's batch size, but no training process and no training input pipeline
// exists. Forks and derivatives of PySlowFast copy the key, its comment and the launcher's test.
//
// So does a LAVIS run section (run.task beside it) with evaluate true: its runner's
// evaluate_only is run_cfg.evaluate, and train() then skips every training epoch and only
// evaluates (lavis/runners/runner_base.py:324-328, 372, 402-412 in SeViLA's copy @419e728; its
// eval configs under lavis/projects/*/eval/).
//
// So does a training length of zero epochs with no step budget beside it, at the top or in a
// trainer, train or training section: RecBole3.0's LLM rankers set `trainer: {max_epochs: 0}`
// and its loop `for epoch in range(1, max_epochs + 1)` never loads a batch
// (src/recbole3/trainer.py:190); Lightning's fit loop is done at once with max_epochs 0, and a
// Hugging Face Trainer with num_train_epochs 0 (and no max_steps) runs no step.
func genTrainDisabled(root *doc.Node) bool {
	n := root.Get("TRAIN").Get("ENABLE")
	if b, ok := n.Bool(); ok && !b && n.Type == doc.Bool {
		return true
	}
	if genZeroEpochs(root) {
		return true
	}
	run := root.Get("run")
	ev := run.Get("evaluate")
	b, ok := ev.Bool()
	return ok && b && ev.Type == doc.Bool && run.Get("task") != nil
}

// genZeroEpochs reports a length of zero epochs (an integer literal 0 under an epochs key) at the
// top or in a trainer, train or training section, with no step budget there or at the top.
func genZeroEpochs(root *doc.Node) bool {
	zero, steps := false, false
	for _, m := range []*doc.Node{root, root.Get("trainer"), root.Get("train"), root.Get("training")} {
		if m == nil || m.Kind != doc.Map {
			continue
		}
		for _, k := range []string{"max_epochs", "num_epochs", "epochs", "num_train_epochs", "n_epochs", "train_epochs"} {
			if v, ok := m.Get(k).Int(); ok && v == 0 && m.Get(k).Type == doc.Int {
				zero = true
			}
		}
		for _, k := range []string{"max_steps", "max_iters", "num_steps", "train_steps", "total_steps", "max_iterations", "num_train_steps", "iterations", "steps"} {
			if n := m.Get(k); n != nil && !n.IsNull() {
				if v, ok := n.Int(); !ok || v > 0 {
					steps = true // a budget, or one not known (an interpolation)
				}
			}
		}
	}
	return zero && !steps
}

// readGenericPlan is the generic reader under framework id fw: pre (optional) first fills what a
// framework built on the generic reader knows (its defaults); the generic spellings then read on
// top, the [mapping] table wins over both, and the launch context comes last.
func readGenericPlan(fw string, d *doc.Document, ctx Context, pre func(p *plan.Plan, g genericReader)) *plan.Plan {
	p := &plan.Plan{Framework: fw}
	root := d.Root
	// A table (more than maxConfigKeys top-level keys: a tokenizer's vocabulary, whose
	// token "Keep" read as a retention count) holds no settings.
	if root == nil || root.Kind != doc.Map || len(root.Children) > maxConfigKeys {
		genApplyMapping(p, root, ctx.Mapping)
		ApplyContext(p, ctx)
		return p
	}
	if fw == "generic" && genNoTraining(d.Path, root) {
		// An evaluation or inference config (a MONAI bundle's inference.json: a dataloader and an
		// evaluator run by `monai.bundle run`, no trainer or optimizer): nothing trains.
		genApplyMapping(p, root, ctx.Mapping)
		ApplyContext(p, ctx)
		return p
	}
	if d.Format == doc.Gin {
		root = ginBindings(root)
	}
	g := genericReader{root: root, idx: map[*doc.Node]*genIndex{}, secs: map[string]*doc.Node{}, scriptKeeps: isHyperPyYAML(d)}
	if fw == "generic" { // (torchtitan and GPT-NeoX read their keys themselves)
		g.named, g.reads, g.threadLoader = ctx.RepoNames, ctx.RepoReads, threadLoaderOf(ctx)
		g.trainerNamed = trainerWords(g.named, ctx.RepoImports)
	}
	g.top = newGenIndex(root)
	g.idx[root] = g.top
	if pre != nil {
		pre(p, g)
	}
	readGenericBatches(p, g)
	readGenericEpochs(p, g)
	readGenericEval(p, g)
	if fw == "generic" {
		readELargeEval(p, g)
	}
	readGenericSeeds(p, g)
	readGenericData(p, g)
	readGenericRemote(p, g)
	readGenericTopology(p, g)
	readGenericCheckpoint(p, g)
	readGenericLogging(p, g)
	readGenericBN(p, g)
	if fw == "generic" && ctx.ExecConfig {
		readExecConfig(p, g)
	}
	genApplyMapping(p, root, ctx.Mapping)
	ApplyContext(p, ctx)
	return p
}

// readGenericEpochs reads the run's length in epochs (num_epochs, epochs, ...) where no step
// budget is written: with TrainingArguments, whose save_total_limit and save_strategy spellings
// the reader takes, a positive max_steps overrides num_train_epochs (transformers
// src/transformers/trainer.py @2cda12c, _inner_training_loop: "if args.max_steps > 0:
// max_steps = args.max_steps", else num_train_epochs = math.ceil(args.num_train_epochs)), and a
// budget of another spelling may too, so any step or iteration count written (even one whose
// value is not known here) leaves the epochs unknown.
func readGenericEpochs(p *plan.Plan, g genericReader) {
	if p.Train.MaxSteps.Known() || p.Train.MaxSteps.Node != nil {
		return
	}
	secs := genTrainSections
	if n, _ := g.find(secs, true, "max_steps", "train_steps", "num_train_steps", "total_steps", "train_iters", "num_steps", "steps",
		"max_train_steps", "max_iters", "max_iter", "max_update", "total_iters", "num_iters", "iterations"); n != nil && n.Kind == doc.Scalar {
		// (a list or a section is no budget: DCRNN's train.steps [20, 30, 40, 50] are the epochs
		// its learning rate decays at, model/dcrnn_supervisor.py:207 @d92490b)
		if f := genIntNode(g.root, n, genPathOf(n)); !f.Known() || f.Value > 0 {
			return
		}
	}
	n, k := g.find(secs, true, "num_train_epochs", "num_epochs", "epochs", "max_epochs", "n_epochs", "total_epochs", "train_epochs")
	if n == nil {
		return
	}
	f := genNode(g.root, n, k, func(t *doc.Node) (float64, bool) {
		v, ok := t.Float()
		return v, ok && t.IsScalar() && (t.Type == doc.Int || t.Type == doc.Float) && v > 0 && v < 1e9
	})
	if f.Known() {
		p.Train.Epochs = f
	}
}

// ginBindings is a gin file's root with its macros left out: a macro is a named value that means
// what the parameters bound to it (`EvalConfig.chunk = %eval_batch_size`: rays rendered per
// pass, not an eval batch) mean, and those bindings, its value copied in, are read instead.
// Configurables and scopes are the root's "block" maps; a macro is any other entry.
func ginBindings(root *doc.Node) *doc.Node {
	keep := make([]*doc.Node, 0, len(root.Children))
	for _, c := range root.Children {
		if c.Kind == doc.Map && c.Style == "block" {
			keep = append(keep, c)
		}
	}
	if len(keep) == len(root.Children) {
		return root
	}
	r := *root
	r.Children = keep
	return &r
}

var genericKeys = []Key{
	{Path: "per_device_batch_size", Type: "integer", Concept: "train.per_device_batch", Doc: "per-device train batch (also micro_batch_size, local_batch_size, train_micro_batch_size_per_gpu)"},
	{Path: "global_batch_size", Type: "integer", Concept: "train.global_batch", Doc: "examples per optimizer step across all devices (also total_batch_size)"},
	{Path: "train.batch_size", Type: "integer", Concept: "train.per_device_batch", Doc: "train batch of unstated granularity: compared only with eval.batch_size"},
	{Path: "eval.batch_size", Type: "integer", Concept: "eval.per_device_batch", Doc: "eval batch of unstated granularity: compared only with train.batch_size (also eval_batch_size beside batch_size)"},
	{Path: "per_device_eval_batch_size", Type: "integer", Concept: "eval.per_device_batch", Doc: "per-device eval batch"},
	{Path: "eval.global_batch_size", Type: "integer", Concept: "eval.global_batch", Doc: "eval examples per step across all devices (also total_batch_size in an eval section)"},
	{Path: "gradient_accumulation_steps", Type: "integer", Concept: "train.grad_accum", Doc: "gradient-accumulation steps (also grad_accum_steps)"},
	{Path: "max_steps", Type: "integer", Concept: "train.max_steps", Doc: "training length in steps (also train_steps, train_iters, total_steps)"},
	{Path: "max_time", Type: "number|string", Concept: "train.time_budget", Doc: "wall-clock budget of the run"},
	{Path: "eval_every_steps", Type: "integer", Concept: "eval.interval", Doc: "eval interval in steps (also every_steps in an eval section, eval_freq)"},
	{Path: "eval_interval", Type: "integer|string", Concept: "eval.interval", Doc: "eval interval: a number is steps unless a unit key says otherwise; \"30m\" is wall-clock time"},
	{Path: "eval_every", Type: "integer|string", Concept: "eval.interval", Doc: "eval interval: a number is steps; duration strings (\"30m\", \"1h\", \"90s\") are wall-clock time"},
	{Path: "eval_every_secs", Type: "number", Concept: "eval.interval", Doc: "eval interval in seconds (also eval_interval_seconds, eval_throttle_secs, every_secs)"},
	{Path: "eval.enabled", Type: "boolean", Concept: "eval.enabled", Doc: "periodic evaluation on/off (also do_eval)"},
	{Path: "eval.drop_last", Type: "boolean", Concept: "eval.drop_last", Doc: "the partial last eval batch is dropped (also drop_remainder)"},
	{Path: "seed", Type: "integer|string", Concept: "seeds.init", Doc: "model seed (also init_seed, model_seed); rank-derived expressions vary by host"},
	{Path: "data_seed", Type: "integer|string", Concept: "seeds.data", Doc: "data shuffling seed (also shuffle_seed, data.seed)"},
	{Path: "num_workers", Type: "integer", Concept: "data.workers", Doc: "background loader workers"},
	{Path: "prefetch", Type: "integer", Concept: "data.prefetch", Doc: "prefetch depth (also prefetch_factor, prefetch_buffer_size)"},
	{Path: "shard_by_host", Type: "boolean", Concept: "data.sharding", Doc: "true: each host reads its own shuffled stream (also per_host_shards, shard_files)"},
	{Path: "sampler", Type: "string", Concept: "data.sharding", Doc: "\"distributed\": a global-index sampler split by rank"},
	{Path: "num_hosts", Type: "integer", Concept: "topology.hosts", Doc: "hosts (also hosts, num_nodes, nnodes)"},
	{Path: "devices_per_host", Type: "integer", Concept: "topology.devices_per_host", Doc: "devices per host (also devices, gpus_per_node, nproc_per_node)"},
	{Path: "checkpoint.keep", Type: "integer", Concept: "ckpt.retention", Doc: "keep the latest N checkpoints (also keep_last, max_to_keep, keep_checkpoint_max, keep_last_n_checkpoints)"},
	{Path: "checkpoint.keep_best", Type: "integer", Concept: "ckpt.retention", Doc: "keep the best N checkpoints (also keep_best_n, save_top_k)"},
	{Path: "checkpoint.best_metric", Type: "string", Concept: "ckpt.best_metric", Doc: "metric that ranks checkpoints (also monitor)"},
	{Path: "save_every_steps", Type: "integer|string", Concept: "ckpt.interval", Doc: "checkpoint interval in steps (also checkpoint.interval, save_every, save_steps, checkpoint_factor); *_secs keys are time"},
	{Path: "checkpoint_all_hosts", Type: "boolean", Concept: "ckpt.scope", Doc: "true: every host writes full checkpoints (also save_on_all_hosts)"},
	{Path: "log_all_hosts", Type: "boolean", Concept: "logging.scope", Doc: "true: every host writes metrics/log files (also log_on_all_hosts)"},
	{Path: "sync_batchnorm", Type: "boolean", Concept: "bn.sync", Doc: "cross-device batch norm (also sync_bn, bn_sync)"},
	{Path: "norm", Type: "string", Concept: "bn.present", Doc: "batch/batchnorm/bn: batch norm is in use"},
	{Path: "backbone", Type: "string", Concept: "bn.present", Doc: "resnet*, efficientnet*, mobilenet*...: a batch-norm backbone"},
}

// at follows a dotted path with folded keys.
func (g genericReader) at(path string) *doc.Node {
	cur := g.root
	for part := range strings.SplitSeq(path, ".") {
		cur = g.child(cur, part)
		if cur == nil {
			return nil
		}
	}
	return cur
}

// rolloutWorkers reports a worker count beside RLlib's rollout settings (not its older
// sample_batch_size, which diffusion configs use for their sampling batch beside a loader's
// num_workers: pinellolab/DNA-Diffusion's configs/training).
func rolloutWorkers(n *doc.Node) bool {
	return isMap(n.Parent) && (n.Parent.Get("rollout_fragment_length") != nil || n.Parent.Get("num_envs_per_worker") != nil)
}

// genKeepKeys are the spellings of a count of checkpoints to keep, in-house ones seen in JAX and
// TF trainers among them (MaxText max_num_checkpoints_to_keep, TF Object Detection
// checkpoint_max_to_keep, dataclass configs' max_checkpoints_to_keep, Sample Factory's
// keep_checkpoints).
var genKeepKeys = []string{"keep", "keep_last", "max_to_keep", "keep_checkpoint_max", "keep_last_n", "keep_last_n_checkpoints",
	"keep_latest_k", "max_checkpoints", "num_checkpoints_to_keep", "keep_n_checkpoints", "keep_checkpoints", "save_total_limit",
	"max_checkpoints_to_keep", "max_num_checkpoints_to_keep", "checkpoint_max_to_keep", "keep_latest", "keep_latest_n"}

// rlEnvKeys reports a map (or the root) holding a reinforcement-learning environment's
// settings: env_name, env_id, num_env_steps, num_envs, n_envs, max_episode_steps.
func rlEnvKeys(g genericReader, m *doc.Node) bool {
	for _, sec := range []*doc.Node{m, g.root} {
		for _, k := range []string{"env_name", "env_id", "num_env_steps", "num_envs", "n_envs", "max_episode_steps"} {
			if g.child(sec, k) != nil {
				return true
			}
		}
	}
	return false
}
