package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// LLaMA-Factory (`llamafactory-cli train config.yaml`), checked against hiyouga/LLaMA-Factory @ff6d4d1
// (2026-08-18): src/llamafactory/hparams/{parser,data_args,finetuning_args,training_args}.py and
// src/llamafactory/v1/config/training_args.py, v1/core/utils/batching.py.
//
// Two file formats:
//   - v0 (examples/train_*): HfArgumentParser over ModelArguments, DataArguments, the Trainer's
//     Seq2SeqTrainingArguments, FinetuningArguments. Trainer keys keep the Trainer's meaning and
//     defaults; LLaMA-Factory adds stage, finetuning_type, template, val_size, eval_dataset, ...
//     The supported transformers range is >=4.55,<=5.8; defaults below are the v5 ones.
//     Periodic evaluation still needs eval_strategy: val_size or eval_dataset only provide data.
//   - v1 (examples/v1): its own TrainingArguments: micro_batch_size (1), global_batch_size
//     (None = DP × micro), seed (42), save_steps/save_epochs, save_total_limit, batching_workers
//     (16). The v1 trainer has no evaluation loop. Its sampler is a StatefulDistributedSampler
//     seeded with seed (a global-index sampler).

const lfVersion = "LLaMA-Factory @ff6d4d1 (src/llamafactory/hparams, src/llamafactory/v1/config) on transformers v5"

// lfNote is the note on Trainer defaults that LLaMA-Factory passes through.
var lfNote = plan.Why{By: "the Trainer default", Note: "transformers v5, kept by LLaMA-Factory"}

// lfOmegaConf: from v0.9.3, read_args (hparams/parser.py; v1/config/arg_parser.py in v1) merges
// a YAML file into an OmegaConf config (yaml.safe_load then OmegaConf.merge in v0.9.3,
// OmegaConf.load from v0.9.4), so OmegaConf parses its interpolations as it loads; v0.9.2 and
// before read it with yaml.safe_load alone. A repeated key is refused from v0.9.4, by
// OmegaConf.load's YAML loader (v0.9.3's yaml.safe_load kept the later value). Read at
// v0.9.2-v0.9.5; OmegaConf is required without a version bound, so an install takes a version
// past 2.1 (kit_omegaconf.go).
var lfOmegaConf = omegaconfLoad{"llamafactory", "0.9.3", "0.9.5", "LLaMA-Factory's read_args, which loads the file into OmegaConf and so applies its interpolation grammar", "0.9.4"}

// lfV1Note is the note on LLaMA-Factory v1 defaults.
var lfV1Note = plan.Why{By: "the LLaMA-Factory v1 default"}

// LlamaFactory reads LLaMA-Factory training configs.
var LlamaFactory = register(newLlamaFactory())

// newLlamaFactory builds LlamaFactory (a function of its own: see register).
func newLlamaFactory() *Dialect {
	return &Dialect{
		Name:      "llama-factory",
		OwnLoader: true,
		Title:     "LLaMA-Factory",
		Version:   lfVersion,
		Formats:   []doc.Format{doc.YAML, doc.JSON},
		Detect:    detectLF,
		Normalize: normalizeLF,
		Keys:      lfKeys,
		Loader:    TorchDataLoader,
		// knowledge_finetune.tsv: HfArgumentParser.parse_dict refuses keys of none of the classes
		// (v0.8.3-v0.9.5); the Trainer's own arguments are the Hugging Face dialect's settings.
		// Files with Megatron-core parallelism keys (examples/megatron at v0.9.5) run with USE_MCA=1.
		Knowledge: "llamafactory", Package: "llamafactory", KnownFrom: []string{"huggingface"}, SkipVariant: "v1",
		// The parser is given transformers' Seq2SeqTrainingArguments (hparams/parser.py
		// _TRAIN_ARGS at v0.8.3-v0.9.1), or a TrainingArguments that extends it
		// (hparams/training_args.py from v0.9.2 to v0.9.5), so its generation settings
		// (predict_with_generate, generation_max_length, ...) are accepted too.
		KnownSections: []string{"transformers:Seq2SeqTrainingArguments"},
		OpenWith:      []string{"tensor_model_parallel_size", "pipeline_model_parallel_size", "expert_model_parallel_size", "use_distributed_optimizer"},
		Sections:      map[string]string{"": "ModelArguments,DataArguments,TrainingArguments,FinetuningArguments,GeneratingArguments,EvaluationArguments"},
		// The Trainer's advice for the concepts LLaMA-Factory passes to it as they are.
		Advice: append(hfAdvice.Only("ckpt.retention", "ckpt.align", "ckpt.direction", "ckpt.scope",
			"logging.scope", "data.workers", "eval.per_device_batch", "precision", "eval.drop_last",
			"logging.sync_every", "tracking.trackers", "schedule.warmup"), AdviceSet{
			{"eval.enabled", Advice{
				Help: `set val_size (or eval_dataset) with eval_strategy: "steps" and eval_steps`,
				Doc:  "`val_size` (or `eval_dataset`) with `eval_strategy: \"steps\"` and `eval_steps`.",
			}},
			{"data.streaming", Advice{
				Help: "set max_steps to a positive number of optimizer steps: LLaMA-Factory stops with \"Please specify `max_steps` in streaming mode.\"",
				Doc:  "set `max_steps` with `streaming: true` (LLaMA-Factory refuses streaming without it).",
			}},
		}...),
	}
}

var (
	// lfStrongKeys exist only in LLaMA-Factory (v0 and v1).
	lfStrongKeys = []string{"finetuning_type", "lora_target", "plot_loss", "cutoff_len", "model_class", "dist_config"}
	// lfInferKeys are ModelArguments' export and inference keys (hparams/model_args.py@v0.9.5),
	// in the configs of llamafactory-cli export and chat (examples/merge_lora,
	// examples/inference). They count as strong evidence beside v0's model_name_or_path only:
	// ms-swift's infer configs write infer_backend and template beside a top-level model.
	lfInferKeys = []string{"export_dir", "export_size", "export_device", "export_legacy_format",
		"export_quantization_bit", "export_hub_model_id", "infer_backend"}
	// lfWeakKeys are LLaMA-Factory spellings that other tools might share.
	lfWeakKeys = []string{"template", "val_size", "dataset_dir", "preprocessing_num_workers", "overwrite_cache",
		"tokenized_path", "max_samples", "lora_rank", "pref_beta", "pref_loss", "quantization_bit",
		"train_dataset", "peft_config", "kernel_config", "use_swanlab", "image_max_pixels", "mix_strategy",
		"eval_dataset", "batching_strategy", "batching_workers"}
	// lfV1Keys mark the v1 format.
	lfV1Keys = []string{"model_class", "dist_config", "train_dataset", "peft_config", "kernel_config", "micro_batch_size", "global_batch_size", "batching_strategy"}
)

// lfEvidence counts LLaMA-Factory keys at the top level (stage counts when it names a stage).
func lfEvidence(root *doc.Node) int {
	if root == nil || root.Kind != doc.Map {
		return 0
	}
	// The names have no dots, so Score's path lookup reads top-level keys.
	c := scoreSets(root, lfStrongSet(), 1, lfWeakSet(), 1) + lfInferEvidence(root)
	if lfNamesStage(root) {
		c++
	}
	return c
}

// lfInferEvidence counts lfInferKeys at the top level of a file that names its model with
// model_name_or_path.
func lfInferEvidence(root *doc.Node) int {
	if root.Get("model_name_or_path") == nil {
		return 0
	}
	return Score(root, lfInferKeys, 1, nil, 0)
}

// lfNamesStage reports a top-level stage naming one of LLaMA-Factory's training stages.
func lfNamesStage(root *doc.Node) bool {
	if s := root.Get("stage"); s.IsScalar() {
		switch s.Value {
		case "pt", "sft", "rm", "ppo", "dpo", "kto":
			return true
		}
	}
	return false
}

func detectLF(d *doc.Document) int {
	root := d.Root
	if root == nil || root.Kind != doc.Map || lfEvidence(root) < 2 || hydraConfig(root) || isSwift(root) || pdArgs(d) {
		// A Hydra config (ROLL's RLVR configs share lora_rank, lora_target) is no LLaMA-Factory
		// file, nor is ms-swift's (template, lora_rank and eval_dataset are its arguments too),
		// nor PaddleFormers' (stage, template, mix_strategy are its DataArguments' too).
		return 0
	}
	s := scoreSets(root, lfStrongSet(), 40, lfWeakSet(), 15) + 40*lfInferEvidence(root)
	if lfNamesStage(root) {
		s += 25
	}
	if s < 40 {
		return 0 // weak spellings alone (template, max_samples, ...) are not enough
	}
	if root.Get("model_name_or_path") == nil && root.Get("model") == nil && root.Get("finetuning_type") == nil && !lfNamesStage(root) {
		// No model (v0's model_name_or_path, v1's model), stage or finetuning type: a script's
		// own config that borrows a few names (training_cluster's template, cutoff_len and
		// max_samples beside model_name and num_epochs, read with yaml.safe_load).
		return 0
	}
	return Cap(s)
}

// lfIsV1 reports the v1 format: v1-only keys and no Trainer batch keys.
func lfIsV1(root *doc.Node) bool {
	if root.Get("per_device_train_batch_size") != nil || root.Get("model_name_or_path") != nil {
		return false
	}
	for _, k := range lfV1Keys {
		if root.Get(k) != nil {
			return true
		}
	}
	return root.Get("model") != nil
}

func normalizeLF(d *doc.Document, ctx Context) *plan.Plan {
	p := &plan.Plan{Framework: "llama-factory"}
	root := d.Root
	if lfIsV1(root) {
		p.Variant = "v1"
		readLFv1(root, p)
	} else {
		p.Variant = "v0"
		if lfTrains(root) {
			tf := ctx.Targets["transformers"]
			if tf == "" && releasedBefore(ctx.Targets["llamafactory"], 0, 8) {
				// Unpinned transformers is linted as the newest (v5), but a LLaMA-Factory from
				// before 0.8 (still the llmtuner package, 2024: Tongyaya/Hbb_bakery's copy of
				// 0.7.1) ran on a v4 it predates v5 by: which release, the file does not say.
				tf = "unknown"
			}
			readTrainerArgs(root, p, lfNote, tf)
			hfReportToBefore5(p, root, ctx) // its TrainingArguments are transformers' (hparams/parser.py)
			p.Seeds.Init = hfSeed(root, "seed", 42, lfNote, hfPretrained(root, "model_name_or_path"))
			p.Seeds.Data = hfDataSeed(root, p.Seeds.Init)
			lfSwanlab(root, p)
			lfEvalData(root, p, ctx.Targets["llamafactory"])
			if s := root.Get("stage"); s.IsScalar() && s.Value == "ppo" {
				lfPPO(p)
			}
			// DataArguments.streaming: get_train_args raises "Please specify `max_steps` in
			// streaming mode." when max_steps is -1 (hparams/parser.py); the Trainer refuses any
			// max_steps <= 0 without a dataset length.
			p.Schedule.Streaming = hfStreaming(root, "streaming")
			hfBatchNorm(root, p, "model_name_or_path")
		}
		later := ctx.LaunchKeys
		if releasedBefore(ctx.Targets["llamafactory"], 0, 9, 3) {
			later = nil // read_args merges the command line's key=value words from v0.9.3 on
		}
		lfRejections(root, p, later)
	}
	omegaconfLoadChecks(p, d, lfOmegaConf)
	ApplyContext(p, ctx)
	if p.Variant == "v1" {
		lfDeriveV1(root, p)
	} else {
		deriveGlobalBatch(p)
	}
	return p
}

// lfPPO: the ppo stage trains in CustomPPOTrainer's own loop (train/ppo/trainer.py, v0.8.3 to
// v0.9.5). It raises NotImplementedError for an eval dataset, so it cannot evaluate; it iterates
// the DataLoader TRL's PPOTrainer builds (no num_workers), so dataloader_num_workers is not
// read; it saves every save_steps whatever save_strategy says, with no rotation by
// save_total_limit.
func lfPPO(p *plan.Plan) {
	p.Eval.Unavailable = true
	p.Data.Workers = plan.Fact[int]{Key: "dataloader_num_workers", Note: "the ppo stage's loader does not read it"}
	p.Data.Prefetch = plan.Fact[int]{}
	p.Ckpt.Enabled = plan.Fact[bool]{Key: "save_strategy", Note: "the ppo stage saves every save_steps whatever it says"}
	p.Ckpt.Retention = plan.Fact[plan.Retention]{}
}

// lfTrains reports a v0 file that trains: every stage's workflow trains only under `if
// training_args.do_train` (train/{pt,sft,rm,ppo,dpo,kto}/workflow.py@v0.9.5), whose
// TrainingArguments default is False. A file without it (an export or chat config, run by
// llamafactory-cli export or chat) or with do_train: false runs no training, so nothing of a
// training run is read from it; its keys and start-up checks still are (lfRejections).
func lfTrains(root *doc.Node) bool {
	n := root.Get("do_train")
	if n == nil || n.IsNull() {
		return false
	}
	v, ok := n.Bool()
	return !ok || v
}

// lfEvalData: eval data is val_size (a fraction or count, > 1e-6) or eval_dataset. get_train_args
// (src/llamafactory/hparams/parser.py) raises when do_eval is on without either, and
// TrainingArguments turns do_eval on whenever eval_strategy is not "no" (transformers @00349ae,
// __post_init__). The check came in v0.8.3 ("Please specify dataset for evaluation.") and says
// "Please make sure eval_dataset be provided or val_size >1e-6" from v0.9.4; before v0.8.3 there
// is none, and a fork of that age may split its data otherwise (llm-cybersecurity's copy of
// 0.7.2 splits by train_size), so nothing is claimed of a target older than v0.8.3.
func lfEvalData(root *doc.Node, p *plan.Plan, target string) {
	if releasedBefore(target, 0, 8, 3) {
		return
	}
	p.Eval.DataCheck = `LLaMA-Factory refuses to start ("Please make sure eval_dataset be provided or val_size >1e-6")`
	if releasedBefore(target, 0, 9, 4) {
		p.Eval.DataCheck = `LLaMA-Factory refuses to start ("Please specify dataset for evaluation.")`
	}
	if ed := root.At("eval_dataset"); ed != nil && !ed.IsNull() {
		if ed.IsScalar() && !ed.IsUnknown() && strings.TrimSpace(ed.Value) == "" {
			p.Eval.Data = plan.Set(false, "eval_dataset", ed)
			return
		}
		if ed.IsUnknown() {
			p.Eval.Data = plan.Fact[bool]{Key: "eval_dataset", Node: ed}
			return
		}
		p.Eval.Data = plan.Set(true, "eval_dataset", ed)
		return
	}
	vs := root.At("val_size")
	if vs == nil || vs.IsNull() {
		p.Eval.Data = plan.Defaulted(false, "val_size", plan.Why{By: "the LLaMA-Factory default", Note: "0.0, and no eval_dataset"}, vs)
		return
	}
	v, ok := vs.Float()
	if !ok || vs.IsUnknown() {
		p.Eval.Data = plan.Fact[bool]{Key: "val_size", Node: vs}
		return
	}
	p.Eval.Data = plan.Set(v > 1e-6, "val_size", vs)
}

// lfSwanlab: use_swanlab reports to SwanLab through LLaMA-Factory's own callback.
func lfSwanlab(root *doc.Node, p *plan.Plan) {
	sw, ok := pyBoolAt(root, "use_swanlab")
	if !ok || !sw.Known() || !sw.Value || !p.Tracking.Trackers.Known() {
		return
	}
	for _, t := range p.Tracking.Trackers.Value {
		if strings.EqualFold(t, "swanlab") {
			return
		}
	}
	p.Tracking.Trackers = plan.Fact[[]string]{
		Value:  append(append([]string{}, p.Tracking.Trackers.Value...), "swanlab"),
		Origin: plan.Explicit, Key: "use_swanlab", Node: sw.Node,
	}
}

func readLFv1(root *doc.Node, p *plan.Plan) {
	p.Train.PerDeviceBatch = IntOr(root, "micro_batch_size", 1, lfV1Note)
	if gb, ok := IntAt(root, "global_batch_size"); ok && !(gb.Node != nil && gb.Node.IsNull()) {
		p.Train.GlobalBatch = gb
	}
	p.Train.MaxSteps = StepBudgetAt(root, "max_steps")
	// The v1 trainer runs no evaluation during training.
	p.Eval.Enabled = plan.Defaulted(false, "eval_dataset", plan.Why{By: "the LLaMA-Factory v1 default", Note: "its trainer has no periodic evaluation"}, root.At("eval_dataset"))
	p.Eval.Unavailable = true

	p.Data.Workers = IntOr(root, "batching_workers", 16, lfV1Note)
	p.Data.Prefetch = hfPrefetch(root, p.Data.Workers, lfV1Note)
	p.Data.Sharding = plan.Defaulted(plan.GlobalIndexSampler, "seed", plan.Why{By: "the LLaMA-Factory v1 default", Note: "a StatefulDistributedSampler seeded with seed"}, nil)

	// model defaults to a pretrained checkpoint (Qwen/Qwen3-4B-Instruct-2507), so weights are
	// always loaded.
	seed := hfSeed(root, "seed", 42, lfV1Note, true)
	p.Seeds.Init = seed
	if seed.Known() {
		s := seed.Value
		s.Broadcast = false
		p.Seeds.Data = plan.Fact[plan.Seed]{Value: s, Origin: seed.Origin, Key: "seed", Node: seed.Node, Note: "the sampler uses seed"}
	}

	steps, hasSteps := IntAt(root, "save_steps")
	epochs, hasEpochs := FloatAt(root, "save_epochs")
	switch {
	case hasSteps && !steps.Node.IsNull():
		if steps.Known() && steps.Value > 0 {
			p.Ckpt.Enabled = plan.Set(true, "save_steps", steps.Node)
			p.Ckpt.Interval = plan.Set(plan.Interval{Value: float64(steps.Value), Unit: plan.Steps, Text: steps.Node.Value}, "save_steps", steps.Node)
		}
	case hasEpochs && !epochs.Node.IsNull():
		if epochs.Known() && epochs.Value > 0 {
			p.Ckpt.Enabled = plan.Set(true, "save_epochs", epochs.Node)
			p.Ckpt.Interval = plan.Set(plan.Interval{Value: epochs.Value, Unit: plan.Epochs, Text: epochs.Node.Value}, "save_epochs", epochs.Node)
		}
	}
	n := root.At("save_total_limit")
	switch {
	case n == nil || n.IsNull():
		p.Ckpt.Retention = plan.Defaulted(plan.Retention{Kind: plan.KeepAll}, "save_total_limit", lfV1Note.Plus("no limit: every checkpoint is kept"), n)
	default:
		if v, ok := n.Int(); ok && v > 0 {
			p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepLatest, N: int(v)}, "save_total_limit", n)
		} else {
			p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: "save_total_limit", Node: n}
		}
	}
}

// lfDeriveV1: global_batch_size defaults to data-parallel size × micro_batch_size; a larger global
// batch means gradient accumulation. Only computable when the device count is known (cp_size
// divides the data-parallel size).
func lfDeriveV1(root *doc.Node, p *plan.Plan) {
	devices, ok := p.Topology.Devices()
	if !ok || !p.Train.PerDeviceBatch.Known() {
		return
	}
	micro := p.Train.PerDeviceBatch
	dp := devices
	if f, ok := IntAt(root, "dp_size"); ok {
		if !f.Known() || f.Value <= 0 {
			return
		}
		dp = f.Value
	} else if cp := IntOr(root, "cp_size", 1, plan.Because("")); !cp.Known() || cp.Value <= 0 || devices%cp.Value != 0 {
		return
	} else {
		dp = devices / cp.Value
	}
	if !p.Train.GlobalBatch.Known() {
		if p.Train.GlobalBatch.Node != nil {
			return // written but unknown
		}
		p.Train.GlobalBatch = plan.Fact[int]{Value: micro.Value * dp, Origin: plan.Derived, Key: "global_batch_size", Node: micro.Node,
			Note: "unset: data-parallel size × micro_batch_size"}
		p.Train.GradAccum = plan.Fact[int]{Value: 1, Origin: plan.Derived, Key: "global_batch_size", Node: micro.Node, Note: "global_batch_size defaults to one micro batch per rank"}
		return
	}
	if micro.Value > 0 && dp > 0 && p.Train.GlobalBatch.Value%(micro.Value*dp) == 0 {
		p.Train.GradAccum = plan.Fact[int]{Value: p.Train.GlobalBatch.Value / (micro.Value * dp), Origin: plan.Derived,
			Key: "global_batch_size", Node: p.Train.GlobalBatch.Node, Note: "= global_batch_size / (micro_batch_size × data-parallel size)"}
	}
}

// lfKeys are the LLaMA-Factory keys read beyond the Trainer's (which keep their meaning in v0).
var lfKeys = append(append([]Key{}, hfKeys...),
	Key{Path: "stage", Type: "string", Default: "sft", Doc: "training stage", Enum: []string{"pt", "sft", "rm", "ppo", "dpo", "kto"}},
	Key{Path: "finetuning_type", Type: "string", Default: "lora", Doc: "fine-tuning method", Enum: []string{"lora", "oft", "freeze", "full"}},
	Key{Path: "val_size", Type: "number", Default: "0.0", Concept: "eval.enabled", Doc: "fraction (or count) of the dataset held out for evaluation; eval_strategy still decides when to evaluate"},
	Key{Path: "eval_dataset", Type: "string", Default: "", Concept: "eval.enabled", Doc: "evaluation dataset names (comma separated)"},
	Key{Path: "use_swanlab", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "report to SwanLab"},
	Key{Path: "micro_batch_size", Type: "integer", Default: "1", Concept: "train.per_device_batch", Doc: "v1: micro batch per device"},
	Key{Path: "global_batch_size", Type: "integer", Default: "", Concept: "train.global_batch", Doc: "v1: examples per optimizer step; unset = data-parallel size × micro_batch_size"},
	Key{Path: "batching_workers", Type: "integer", Default: "16", Concept: "data.workers", Doc: "v1: data loader workers"},
	Key{Path: "save_epochs", Type: "number", Default: "", Concept: "ckpt.interval", Doc: "v1: epochs between checkpoints"},
	Key{Path: "model", Type: "string", Default: "Qwen/Qwen3-4B-Instruct-2507", Concept: "seeds.init", Doc: "v1: pretrained model to start from"},
	Key{Path: "dp_size", Type: "integer", Default: "", Concept: "train.grad_accum", Doc: "v1: data-parallel size; unset = world size / cp_size"},
	Key{Path: "cp_size", Type: "integer", Default: "1", Concept: "train.grad_accum", Doc: "v1: context-parallel size"},
)
