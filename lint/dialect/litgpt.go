package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// LitGPT reads the YAML files that `litgpt pretrain` and `litgpt finetune_*` take with
// --config (jsonargparse fills the command's setup() arguments from them, the train: and eval:
// maps filling the TrainArgs and EvalArgs dataclasses). Checked against LitGPT v0.5.13
// (litgpt/args.py, litgpt/pretrain.py, litgpt/finetune/{full,lora,lora_legacy,adapter,
// adapter_v2}.py):
//
//   - Each command has its own defaults (setup()'s TrainArgs(...) and EvalArgs(...)): pretrain
//     global_batch_size 512, micro_batch_size 4, lr_warmup_steps 2000, eval.interval 1000,
//     logger_name tensorboard, seed 42; the fine-tuning commands 16, 1, 100, eval.interval 600
//     (full) or 100 (the others), csv, 1337. save_interval 1000, log_interval 1 and
//     eval.max_iters 100 everywhere, and EvalArgs.final_validation True. Which command reads a
//     file is told by its keys (pretrain's model_name, fine-tuning's checkpoint_dir, LoRA's
//     lora_*); a default that differs between the candidates stays unknown.
//   - Evaluation runs every eval.interval optimizer steps on eval.max_iters batches of
//     train.micro_batch_size (data.connect(batch_size=train.micro_batch_size)); after training,
//     final_validation evaluates the whole validation set when fine-tuning
//     (max_iters=len(val_dataloader)) but only eval.max_iters batches in pretrain.
//   - A checkpoint is written every train.save_interval optimizer steps (None: none) and always
//     at the end (out_dir/final); none is ever deleted.
//   - The loss is read on the host (`.item()`, "expensive device-to-host synchronization") every
//     train.log_interval optimizer steps in pretrain, every log_interval iterations (micro
//     batches) when fine-tuning.
//   - fabric.seed_everything(seed): "same seed for every process".
//   - train.max_time (seconds) ends the run only in finetune_lora (v0.5.11 on); pretrain and the
//     other commands ignore it.
//   - Start-up checks: TrainArgs.__post_init__ and each command's validate_args (the same from
//     v0.4.0 to v0.5.13, but pretrain's refusal of train.max_steps, dropped in v0.5.13), and
//     the asserts of TrainArgs.batch_size and gradient_accumulation_iters.
var LitGPT = register(newLitGPT())

const litgptRead = "0.5.13"

var litgptNote = plan.Why{By: "the LitGPT default", Note: "v" + litgptRead}

// newLitGPT builds LitGPT (a function of its own: see register).
func newLitGPT() *Dialect {
	return &Dialect{
		Name:         "litgpt",
		Title:        "LitGPT",
		Version:      "LitGPT v" + litgptRead + " (litgpt/args.py, pretrain.py, finetune/*.py)",
		Formats:      []doc.Format{doc.YAML},
		Detect:       detectLitGPT,
		Normalize:    normLitGPT,
		Package:      "litgpt",
		Closed:       true,
		SettingsName: "LitGPT",
		// TrainArgs, EvalArgs and LogArgs: the same fields at every tag from v0.4.0 but those
		// added later (max_time, evaluate_example, LogArgs itself), all listed.
		ClosedSections: []string{"train", "eval", "log"},
		Loader:         TorchDataLoader,
		Keys:           litgptKeys,
		Settings:       litgptSettings,
		Advice: AdviceSet{
			{"ckpt.enabled", Advice{Help: "set train.save_interval to a number of optimizer steps (a multiple of eval.interval)", Doc: "`train.save_interval` in optimizer steps, a multiple of `eval.interval`."}},
			{"logging.sync_every", Advice{Help: "set train.log_interval to 10 or more", Doc: "`train.log_interval: 10` or more."}},
			{"ckpt.align", Advice{Doc: "`train.save_interval` a multiple of `eval.interval` (both count optimizer steps)."}},
		},
	}
}

// litgptKeys are the settings the dialect reads. A default that differs between the commands
// is in Doc, not Default: a schema's default is one value.
var litgptKeys = []Key{
	{Path: "train.global_batch_size", Type: "integer", Concept: "train.global_batch", Doc: "examples per optimizer step across data-parallel ranks (default 512 in pretrain, 16 when fine-tuning)"},
	{Path: "train.micro_batch_size", Type: "integer", Concept: "train.per_device_batch", Doc: "examples per forward pass on one device, eval batches too (default 4 in pretrain, 1 when fine-tuning)"},
	{Path: "train.save_interval", Type: "integer", Default: "1000", Concept: "ckpt.interval", Doc: "save every N optimizer steps; null: only the final checkpoint"},
	{Path: "train.log_interval", Type: "integer", Default: "1", Concept: "logging.sync_every", Doc: "read the loss on the host every N steps (pretrain) or iterations (finetune)"},
	{Path: "train.lr_warmup_steps", Type: "integer", Concept: "schedule.warmup_steps", Doc: "learning-rate warmup in optimizer steps (default 2000 in pretrain, 100 when fine-tuning)"},
	{Path: "train.max_steps", Type: "integer", Default: "none", Concept: "train.max_steps", Doc: "stop after N optimizer steps when fine-tuning (pretrain refuses it before v0.5.13 and ignores it since)"},
	{Path: "train.max_time", Type: "number", Default: "none", Concept: "train.time_budget", Doc: "stop after N seconds (finetune_lora only)"},
	{Path: "eval.interval", Type: "integer", Concept: "eval.interval", Doc: "evaluate every N optimizer steps (default 1000 in pretrain, 600 in finetune_full, 100 in the LoRA and adapter commands)"},
	{Path: "eval.max_iters", Type: "integer", Default: "100", Concept: "eval.subset", Doc: "batches each periodic evaluation reads"},
	{Path: "eval.final_validation", Type: "boolean", Default: "true", Concept: "eval.at_end", Doc: "evaluate after training (the whole set when fine-tuning)"},
	{Path: "logger_name", Type: "string", Concept: "tracking.trackers", Doc: "metrics logger (default tensorboard in pretrain, csv when fine-tuning)", Enum: []string{"csv", "tensorboard", "wandb", "mlflow", "litlogger"}},
	{Path: "seed", Type: "integer", Concept: "seeds.init", Doc: "fabric.seed_everything: the same seed in every process (default 42 in pretrain, 1337 when fine-tuning)"},
	{Path: "data.init_args.num_workers", Type: "integer", Concept: "data.workers", Doc: "loader workers of a LitGPT data module (default 4, or 8 for the streamed corpora)"},
	{Path: "devices", Type: "integer|string", Concept: "topology.devices_per_host", Doc: "devices per node (default auto in pretrain, 1 when fine-tuning)"},
	{Path: "num_nodes", Type: "integer", Default: "1", Concept: "topology.hosts", Doc: "nodes"},
}

// litgptSettings are the other setup() arguments of the six training commands, and the rest
// of TrainArgs and EvalArgs (v0.5.13).
var litgptSettings = func() []Key {
	var out []Key
	for _, k := range []string{"model_name", "model_config", "out_dir", "precision", "initial_checkpoint_dir", "resume", "data",
		"optimizer", "tokenizer_dir", "checkpoint_dir", "access_token", "quantize",
		"lora_r", "lora_alpha", "lora_dropout", "lora_query", "lora_key", "lora_value", "lora_projection", "lora_mlp", "lora_head",
		"train.lr_warmup_fraction", "train.epochs", "train.max_tokens", "train.max_seq_length", "train.tie_embeddings", "train.max_norm", "train.min_lr",
		"eval.max_new_tokens", "eval.initial_validation", "eval.evaluate_example",
		"log.project", "log.run", "log.group", "log.teamspace", "log.metadata", "log.log_model", "log.save_logs", "log.checkpoint_name"} {
		out = append(out, Key{Path: k})
	}
	return out
}()

// litgptTrainFields are TrainArgs' fields; litgptRootKeys setup() arguments that no other
// framework's files put beside a train: map of them.
var (
	litgptTrainFields = []string{"save_interval", "log_interval", "global_batch_size", "micro_batch_size", "lr_warmup_steps", "lr_warmup_fraction",
		"epochs", "max_tokens", "max_steps", "max_time", "max_seq_length", "tie_embeddings", "max_norm", "min_lr"}
	litgptRootKeys = []string{"out_dir", "precision", "devices", "num_nodes", "logger_name", "checkpoint_dir", "model_name", "seed", "optimizer", "data", "resume", "initial_checkpoint_dir", "tokenizer_dir", "quantize"}
)

// detectLitGPT: a train: map of two TrainArgs fields or more, an eval: map with an EvalArgs
// field, and two setup() arguments at the root (checkpoint_dir or model_name, which each command
// requires, counting twice).
func detectLitGPT(d *doc.Document) int {
	root := d.Root
	if root == nil || root.Kind != doc.Map {
		return 0
	}
	train, eval := root.Get("train"), root.Get("eval")
	if !isMap(train) || !isMap(eval) {
		return 0
	}
	fields := 0
	for _, k := range litgptTrainFields {
		if train.Get(k) != nil {
			fields++
		}
	}
	evalFields := 0
	for _, k := range []string{"interval", "max_iters", "max_new_tokens", "initial_validation", "final_validation"} {
		if eval.Get(k) != nil {
			evalFields++
		}
	}
	rootKeys := 0
	for _, k := range litgptRootKeys {
		if root.Get(k) != nil {
			rootKeys++
		}
	}
	if root.Get("checkpoint_dir") != nil || root.Get("model_name") != nil {
		rootKeys++ // the argument each command requires: one is evidence enough
	}
	if fields < 2 || evalFields < 1 || rootKeys < 2 {
		return 0
	}
	return 90
}

// litgptCommand is the command that reads a file, as far as its keys tell.
type litgptCommand int

const (
	litgptUnknown  litgptCommand = iota
	litgptPretrain               // litgpt pretrain
	litgptFinetune               // one of the fine-tuning commands, which one unknown
	litgptLoRA                   // finetune_lora or finetune_lora_legacy (their defaults are the same)
)

func litgptCommandOf(root *doc.Node) litgptCommand {
	switch {
	case root.Get("checkpoint_dir") != nil:
		for _, c := range root.Children {
			if len(c.Key) > 5 && strings.HasPrefix(c.Key, "lora_") {
				return litgptLoRA
			}
		}
		return litgptFinetune
	case root.Get("model_name") != nil || root.Get("model_config") != nil || root.Get("initial_checkpoint_dir") != nil || root.Get("tokenizer_dir") != nil:
		return litgptPretrain
	}
	return litgptUnknown
}

// litgptInt reads an integer at path, else the command's default (none: unknown). A present
// null is None to LitGPT: the fact is then unknown with its node.
func litgptInt(root *doc.Node, path string, pretrain, finetune int, cmd litgptCommand, ok bool) plan.Fact[int] {
	if f, has := IntAt(root, path); has {
		return f
	}
	switch {
	case !ok:
		return plan.Fact[int]{Key: path}
	case cmd == litgptPretrain:
		return plan.Defaulted(pretrain, path, litgptNote.Plus("litgpt pretrain"), nil)
	case cmd == litgptFinetune || cmd == litgptLoRA:
		return plan.Defaulted(finetune, path, litgptNote.Plus("litgpt finetune"), nil)
	}
	return plan.Fact[int]{Key: path}
}

func normalizeLitGPT(d *doc.Document, ctx Context) *plan.Plan {
	p := &plan.Plan{Framework: "litgpt"}
	root := d.Root
	if root == nil || root.Kind != doc.Map {
		ApplyContext(p, ctx)
		return p
	}
	cmd := litgptCommandOf(root)
	known := cmd != litgptUnknown
	finetuning := cmd == litgptFinetune || cmd == litgptLoRA
	trainSec, evalSec := root.Get("train"), root.Get("eval")

	// Batches: the eval loader is built with the train micro batch.
	p.Train.PerDeviceBatch = litgptInt(root, "train.micro_batch_size", 4, 1, cmd, known)
	p.Train.GlobalBatch = litgptInt(root, "train.global_batch_size", 512, 16, cmd, known)
	if mb := p.Train.PerDeviceBatch; mb.Known() {
		p.Eval.PerDeviceBatch = plan.Fact[int]{Value: mb.Value, Origin: plan.Derived, Key: mb.Key, Node: mb.Node,
			Note: "LitGPT evaluates with the train micro batch"}
	}
	if finetuning {
		if f, ok := IntAt(root, "train.max_steps"); ok && f.Known() && f.Value > 0 {
			f.Note = "or fewer, when train.epochs end first"
			p.Train.MaxSteps = f
		}
	}
	// train.max_time: only finetune_lora stops on it (lora.py, from v0.5.11);
	// finetune_lora_legacy, whose keys are the same, and the other commands ignore it. Nothing in
	// a file tells the two LoRA commands apart, so the time budget stays unknown.
	// Warmup, in optimizer steps (pretrain multiplies by the accumulation to count iterations;
	// the fine-tuning schedulers step once per optimizer step).
	p.Schedule.WarmupSteps = litgptInt(root, "train.lr_warmup_steps", 2000, 100, cmd, known)
	if w := p.Schedule.WarmupSteps; w.Known() && w.Value <= 0 {
		p.Schedule.WarmupSteps = plan.Fact[int]{Key: w.Key, Node: w.Node}
	}

	// Evaluation.
	p.Eval.Enabled = plan.Defaulted(true, "eval.interval", plan.Why{By: "LitGPT", Note: "evaluates every eval.interval optimizer steps"}, evalSec)
	var iv plan.Fact[int]
	switch {
	case cmd == litgptLoRA:
		iv = litgptInt(root, "eval.interval", 0, 100, cmd, true)
	case cmd == litgptPretrain:
		iv = litgptInt(root, "eval.interval", 1000, 0, cmd, true)
	default: // full.py 600, the adapters 100
		iv, _ = IntAt(root, "eval.interval")
	}
	if iv.Known() && iv.Value > 0 {
		p.Eval.Interval = stepsFrom(iv)
	}
	off := iv.Known() && iv.Value == 0
	if off {
		// LitGPT's loops take step_count % eval.interval when there is a validation loader
		// (pretrain.py, finetune/*.py at v0.5.11): a ZeroDivisionError at the first optimizer
		// step with 0, while a project's own script that reads the file may mean "never" by
		// it. Either way no claim about its evaluations holds.
		p.Eval.Enabled = plan.Fact[bool]{Key: iv.Key, Node: iv.Node}
	}
	final := BoolOr(root, "eval.final_validation", true, litgptNote)
	p.Eval.AtEnd = final
	if maxIters := IntOr(root, "eval.max_iters", 100, litgptNote); !off && maxIters.Known() && maxIters.Value > 0 &&
		(cmd == litgptPretrain || finetuning && final.Known() && !final.Value) {
		// Pretrain's final validation reads max_iters batches too; fine-tuning's reads the
		// whole set unless final_validation is off.
		p.Eval.Subset = stepsFrom(maxIters)
	}

	// Checkpoints: every save_interval optimizer steps, the final one always, none deleted.
	save := trainSec.Get("save_interval")
	switch {
	case save != nil && save.IsNull():
		p.Ckpt.Enabled = plan.Set(false, "train.save_interval", save)
	case save != nil:
		if v, ok := save.Int(); ok && v > 0 {
			p.Ckpt.Enabled = plan.Set(true, "train.save_interval", save)
			p.Ckpt.Interval = plan.Set(plan.Interval{Value: float64(v), Unit: plan.Steps, Text: save.Value}, "train.save_interval", save)
		}
	default:
		p.Ckpt.Enabled = plan.Defaulted(true, "train.save_interval", litgptNote, nil)
		p.Ckpt.Interval = plan.Defaulted(plan.Interval{Value: 1000, Unit: plan.Steps, Text: "1000"}, "train.save_interval", litgptNote, nil)
	}
	p.Ckpt.Retention = plan.Defaulted(plan.Retention{Kind: plan.KeepAll}, "train.save_interval", plan.Why{By: "LitGPT", Note: "keeps every step-N checkpoint"}, save)
	p.Ckpt.AtEnd = plan.Defaulted(true, "out_dir", plan.Why{By: "LitGPT", Note: "saves out_dir/final after the last step"}, nil)

	// The loss read on the host: pretrain every log_interval optimizer steps; fine-tuning every
	// log_interval micro batches, which is every step (or more often) when it is 1.
	if f, ok := IntAt(root, "train.log_interval"); ok && f.Known() && (cmd == litgptPretrain || f.Value == 1) {
		p.Logging.SyncEvery = f
	}

	// Tracking: one logger, always.
	if n := root.Get("logger_name"); n != nil {
		if v, ok := n.Str(); ok && !n.IsNull() {
			p.Tracking.Trackers = plan.Set([]string{v}, "logger_name", n)
		}
	} else if cmd == litgptPretrain {
		p.Tracking.Trackers = plan.Defaulted([]string{"tensorboard"}, "logger_name", litgptNote.Plus("litgpt pretrain"), nil)
	} else if finetuning {
		p.Tracking.Trackers = plan.Defaulted([]string{"csv"}, "logger_name", litgptNote.Plus("litgpt finetune"), nil)
	}

	// One seed, the same in every process.
	if n := root.Get("seed"); n != nil {
		p.Seeds.Init = genSeedNode(root, n, "seed")
	} else if known {
		v := "42"
		if finetuning {
			v = "1337"
		}
		p.Seeds.Init = plan.Defaulted(plan.Seed{Value: v, Varies: plan.SameOnEveryHost}, "seed", litgptNote, nil)
	}

	p.Data.Workers = litgptWorkers(root, cmd)

	// Topology: Fabric(devices=..., num_nodes=...) from the file.
	if f, ok := IntAt(root, "num_nodes"); ok && f.Known() && f.Value > 0 {
		p.Topology.Hosts = f
	}
	if f, ok := IntAt(root, "devices"); ok && f.Known() && f.Value > 0 {
		p.Topology.DevicesPerHost = f
	}
	ApplyContext(p, ctx)
	litgptStartup(p, root, cmd)
	return p
}

// litgptDataWorkers are the num_workers defaults of LitGPT's data modules (litgpt/data/*.py,
// v0.5.13), each of which hands num_workers to its train DataLoader (litdata's
// StreamingDataLoader, a DataLoader, for the streamed ones).
var litgptDataWorkers = map[string]int{
	"Alpaca": 4, "Alpaca2k": 4, "AlpacaGPT4": 4, "Deita": 4, "FLAN": 4, "JSON": 4, "LIMA": 4, "LongForm": 4, "TextFiles": 4,
	"LitData": 8, "OpenWebText": 8, "TinyLlama": 8, "MicroLlama": 8, "TinyStories": 8,
}

// litgptWorkers reads the loader workers of the file's data module: data: is a LitGPT class's
// name, or a class_path with init_args (absent: TinyLlama for pretrain, Alpaca for fine-tuning).
// Another class is the user's own: unknown.
func litgptWorkers(root *doc.Node, cmd litgptCommand) plan.Fact[int] {
	data := root.Get("data")
	class, at := "", data
	switch {
	case data == nil || data.IsNull():
		switch cmd {
		case litgptPretrain:
			class = "TinyLlama"
		case litgptFinetune, litgptLoRA:
			class = "Alpaca"
		}
	case data.IsScalar():
		class, _ = data.Str()
	case data.Kind == doc.Map:
		c := data.Get("class_path")
		if c == nil {
			return plan.Fact[int]{}
		}
		class, _ = c.Str()
		at = c
	}
	if rest, ok := strings.CutPrefix(class, "litgpt.data."); ok {
		class = rest
	}
	def, ok := litgptDataWorkers[class]
	if !ok {
		return plan.Fact[int]{}
	}
	if f, has := IntAt(root, "data.init_args.num_workers"); has {
		return f
	}
	return plan.Defaulted(def, "data.init_args.num_workers", plan.Why{By: "the " + class + " default", Note: "LitGPT v" + litgptRead}, at)
}
