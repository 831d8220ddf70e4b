package dialect

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/corpustest"
	"github.com/trainlint/trainlint/lint/doc"
)

// The corpus labels (MANIFEST.tsv, column "framework") name where a file came from, which is not
// always the dialect that should read it. tcgExpected maps a label and a file to the
// framework ids that are correct for it. The decisions, file by file where it matters:
//
//   - accelerate: launcher configs (compute_environment, distributed_type) hold no training
//     settings → generic; a TRL-CLI-style file with Trainer arguments → huggingface.
//   - lightning-hydra: a file that mentions Lightning (a _target_ under lightning.*, a trainer
//     section) → lightning; Hydra fragments with no Lightning evidence (paths, hydra, extras, an
//     empty callbacks file) may fall back to generic.
//   - litgpt → litgpt (its config_hub files: a train: map of TrainArgs, an eval: map).
//   - gpt-neox: Megatron keys plus a few DeepSpeed blocks → gpt-neox, unless DeepSpeed keys are
//     most of the file's top-level keys → deepspeed; the launcher fragments (local_setup*.yml,
//     slurm_local.yml: paths only) → generic.
//   - ludwig → generic; llm-foundry → composer; a label that is a dialect id (axolotl,
//     deepspeed, nemo, torchtune, torchtitan) → that dialect.
//   - .gin (t5x-gin) → t5x; .py: big_vision → big-vision, mmengine and mmdet → mmengine
//     (codeconfigs_test.go checks them file by file).
func tcgExpected(label string, d *doc.Document) []string {
	switch label {
	case "hf-trainer":
		return []string{"huggingface"}
	case "llamafactory":
		return []string{"llama-factory"}
	case "llm-foundry":
		return []string{"composer"}
	case "lightning-cli":
		return []string{"lightning"}
	case "lightning-hydra":
		if tcgMentionsLightning(d.Root) {
			return []string{"lightning"}
		}
		return []string{"lightning", "generic"}
	case "litgpt":
		return []string{"litgpt"}
	case "accelerate":
		if d.Root.Get("per_device_train_batch_size") != nil || d.Root.Get("learning_rate") != nil {
			return []string{"huggingface"}
		}
		return []string{"generic"}
	case "gpt-neox":
		if tcgDeepSpeedDominates(d.Root) {
			return []string{"deepspeed"}
		}
		if strings.Contains(d.Path, "local_setup") || strings.Contains(d.Path, "slurm_local") {
			return []string{"generic"} // launcher fragments: paths and a W&B host, no model or parallelism keys
		}
		return []string{"gpt-neox"}
	case "ludwig":
		return []string{"generic"}
	case "t5x-gin":
		return []string{"t5x"}
	case "big_vision":
		return []string{"big-vision"}
	case "mmengine", "mmdet":
		return []string{"mmengine"}
	}
	if ByName(label) != nil {
		return []string{label} // the label is the dialect's id
	}
	return nil
}

// tcgMentionsLightning reports Lightning evidence in the tree itself (comments do not count): a
// value naming a lightning.* class, or a trainer section.
func tcgMentionsLightning(root *doc.Node) bool {
	found := root.Get("trainer") != nil
	root.Walk(func(n *doc.Node) bool {
		if n.IsScalar() && strings.Contains(strings.ToLower(n.Value), "lightning.") {
			found = true
		}
		return !found
	})
	return found
}

// tcgDSTopLevel are DeepSpeed config sections and keys (deepspeed/runtime/config.py).
var tcgDSTopLevel = map[string]bool{
	"train_batch_size": true, "train_micro_batch_size_per_gpu": true, "gradient_accumulation_steps": true,
	"zero_optimization": true, "fp16": true, "bf16": true, "amp": true, "optimizer": true, "scheduler": true,
	"gradient_clipping": true, "steps_per_print": true, "wall_clock_breakdown": true, "zero_allow_untested_optimizer": true,
	"activation_checkpointing": true, "flops_profiler": true, "autotuning": true, "comms_logger": true,
	"data_efficiency": true, "checkpoint": true, "aio": true, "communication_data_type": true, "prescale_gradients": true,
	"sparse_attention": true, "wandb": true, "tensorboard": true, "csv_monitor": true, "elasticity": true,
	"zero_force_ds_cpu_optimizer": true, "dump_state": true, "memory_breakdown": true, "gradient_predivide_factor": true,
}

func tcgDeepSpeedDominates(root *doc.Node) bool {
	if root == nil || root.Kind != doc.Map || len(root.Children) == 0 {
		return false
	}
	ds := 0
	for _, c := range root.Children {
		if tcgDSTopLevel[genNormKey(c.Key)] {
			ds++
		}
	}
	return 2*ds > len(root.Children)
}

// TestCorpusDetection checks the framework detected for every YAML/JSON/TOML file of the corpus.
// Each file is a subtest named label/path, so `-run 'TestCorpusDetection/torchtune'` narrows it.
func TestCorpusDetection(t *testing.T) {
	dir, entries := corpustest.Manifest(t)
	total, matched := 0, 0
	mismatch := map[string][]string{} // label → "path: got x"
	for _, e := range entries {
		path, label := e.Path, e.Label
		format, ok := doc.FormatFromPath(path)
		if !ok {
			continue // .py and .gin are not YAML/JSON/TOML
		}
		total++
		src, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		t.Run(label+"/"+path, func(t *testing.T) {
			d := doc.Parse(path, src, format, doc.Limits{})
			for _, p := range d.Problems {
				if p.Kind == doc.Syntax {
					t.Errorf("parse error: %s", p.Message)
				}
			}
			want := tcgExpected(label, d)
			if want == nil {
				t.Fatalf("no expectation for label %q", label)
			}
			got := Detect(d).Name
			for _, w := range want {
				if got == w {
					matched++
					return
				}
			}
			mismatch[label] = append(mismatch[label], path+": got "+got)
			t.Errorf("detected %q, want %s", got, strings.Join(want, " or "))
		})
	}
	labels := make([]string, 0, len(mismatch))
	for l := range mismatch {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		t.Logf("%s: %d mismatches", l, len(mismatch[l]))
	}
	t.Logf("corpus detection: %d of %d files match", matched, total)
	if total < 300 {
		t.Errorf("only %d corpus files read; MANIFEST.tsv changed?", total)
	}
}

// TestCorpusNormalizeTCG runs the torchtune, Composer, generic, torchtitan and GPT-NeoX readers on
// every corpus file, whatever its framework: odd shapes must give unknown facts, never a panic.
func TestCorpusNormalizeTCG(t *testing.T) {
	n := 0
	for _, d := range corpusDocs(t) {
		path := d.Path
		for _, dl := range []*Dialect{Torchtune, Composer, Generic, Torchtitan, GPTNeoX} {
			if dl.Detect != nil {
				_ = dl.Detect(d)
			}
			p := dl.Normalize(d, Context{Hosts: 2, DevicesPerHost: 8})
			if p == nil || p.Framework != dl.Name {
				t.Errorf("%s on %s: plan %+v", dl.Name, path, p)
			}
		}
		n++
	}
	if n < 300 {
		t.Errorf("only %d corpus files normalised", n)
	}
}

// In-house configs that share a few key names with TRL scripts (dataset_name, run_name,
// learning_rate) are not Trainer configs: MaxText's base.yml has exactly those.
func TestDetectNotHFOnSharedNames(t *testing.T) {
	src := "run_name: \"\"\nper_device_batch_size: 12.0\ndataset_name: 'c4/en:3.0.1'\neval_split: validation\n" +
		"learning_rate: 3.e-5\nsteps: 150_001\ndata_shuffle_seed: 0\ninit_weights_seed: 0\ncheckpoint_period: 10_000\n"
	wantDetected(t, "maxtext-style base.yml", "base.yml", doc.YAML, src, "generic")
	// TRL scripts still detect through their other keys.
	src = "model_name_or_path: Qwen/Qwen2-0.5B\ndataset_name: trl-lib/tldr\nlearning_rate: 1.0e-6\noutput_dir: out\n"
	wantDetected(t, "TRL script config", "grpo.yaml", doc.YAML, src, "huggingface")
}

// wantDetected parses src as a file named path and fails the test unless Detect names the
// dialect want; what names the case in the message.
func wantDetected(t *testing.T, what, path string, f doc.Format, src, want string) {
	t.Helper()
	if got := Detect(doc.Parse(path, []byte(src), f, doc.Limits{})).Name; got != want {
		t.Errorf("%s detected as %s, want %s", what, got, want)
	}
}

// A GPT-NeoX train config (configs/llama/train_config.yml: the training half that NeoX merges
// with a model config) holds DeepSpeed blocks beside NeoX's own keys: it is NeoX's, and its fp16
// block, which NeoX fills with its own "fp16" flag, is not DeepSpeed's model to judge.
func TestDetectNeoXTrainConfig(t *testing.T) {
	src := `{
  "optimizer": {"type": "Adam", "params": {"lr": 0.0003, "betas": [0.9, 0.95], "eps": 1.0e-8}},
  "min_lr": 0.00003,
  "zero_optimization": {"stage": 1, "overlap_comm": true, "contiguous_gradients": true},
  "train_micro_batch_size_per_gpu": 4,
  "data_impl": "mmap",
  "checkpoint_activations": true,
  "synchronize_each_layer": true,
  "gradient_clipping": 1.0,
  "fp16": {"fp16": true, "enabled": true, "loss_scale": 0},
  "train_iters": 320000,
  "lr_decay_iters": 320000,
  "lr_decay_style": "cosine",
  "checkpoint_factor": 10000,
  "eval_interval": 1000,
  "keep_last_n_checkpoints": 4,
  "steps_per_print": 10,
  "wall_clock_breakdown": true
}
`
	wantDetected(t, "NeoX train config", "train_config.yml", doc.YAML, src, "gpt-neox")
}

// A script with module variables (accelerate's examples/inference/pippy/t5.py: a model loaded
// from the Hub, a dict of example inputs) is no MMEngine config: module variables alone, or a
// variable named like an MMEngine key whose value is a call the reader cannot evaluate, are not
// MMEngine's evidence.
func TestDetectScriptNotMMEngine(t *testing.T) {
	src := "import torch\nfrom accelerate import prepare_pippy\nfrom transformers import AutoModelForSeq2SeqLM\n\n" +
		"model = AutoModelForSeq2SeqLM.from_pretrained('t5-small')\nexample_inputs = {'input_ids': 1, 'decoder_input_ids': 2}\n"
	wantDetected(t, "script", "t5.py", doc.Python, src, "generic")
	// Generic names with evaluated values are no evidence either.
	src = "import torch\nmodel = AutoModel.from_pretrained('x')\ndata = {'input_ids': [1]}\nlog_level = 'info'\nwork_dir = './out'\n"
	wantDetected(t, "script with generic names", "s.py", doc.Python, src, "generic")
	src = "model = dict(type='ImageClassifier', backbone=dict(type='ResNet', depth=50))\n"
	wantDetected(t, "an MMEngine model base file", "model.py", doc.Python, src, "mmengine")
	src = "optim_wrapper = dict(type='mmengine.AmpOptimWrapper', optimizer=dict(type='SGD', lr=0.01))\n"
	wantDetected(t, "a scoped registry type", "schedule.py", doc.Python, src, "mmengine")
	src = "model = dict(type='iTPN', backbone=dict(type='iTPNHiViT'))\n" // mmpretrain's itpn base
	wantDetected(t, "a class name in lower camel case", "itpn.py", doc.Python, src, "mmengine")
	// A "type" key whose value names no class is no registry dict: a JSON schema (smollm's
	// json_schemas.py), a Ludwig feature list built by a script (examples/kfold_cv).
	src = "SCHEMA = {\n    'type': 'object',\n    'properties': {'language': {'type': ['string', 'null']}},\n}\n"
	wantDetected(t, "a JSON schema", "json_schemas.py", doc.Python, src, "generic")
	src = "import yaml\nfeature = {'name': 'x', 'type': 'number', 'preprocessing': {'normalization': 'zscore'}}\n" +
		"config = {'input_features': [feature], 'trainer': {'epochs': 20, 'batch_size': 32}}\n"
	wantDetected(t, "a Ludwig config built by a script", "prepare.py", doc.Python, src, "generic")
}

// corpusDocs parses every YAML/JSON/TOML file of the shared corpus (skipping the test when the
// corpus is absent), for the tests that run readers over all of it whatever its framework.
func corpusDocs(t *testing.T) []*doc.Document {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpustest.Dir(t), "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var docs []*doc.Document
	for _, path := range files {
		format, ok := doc.FormatFromPath(path)
		if !ok {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc.Parse(path, src, format, doc.Limits{}))
	}
	return docs
}

// ml_collections and get_config() are every ml_collections project's, not big_vision's alone
// (Flax's examples/*/configs/default.py, vision_transformer's vit_jax/configs): such a file
// is not read as big_vision's, whose defaults (no checkpoint without ckpt_steps) would then be
// claimed of a trainer that does not have them. big_vision's import, its keys or its own tree
// make it big_vision's.
func TestDetectPlainMLCollectionsNotBigVision(t *testing.T) {
	plain := "import ml_collections\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n" +
		"  config.model = 'ResNet50'\n  config.batch_size = 128\n  config.num_epochs = 100.0\n  config.num_train_steps = -1\n  return config\n"
	wantDetected(t, "a plain ml_collections config", "configs/default.py", doc.Python, plain, "generic")
	wantDetected(t, "the same file in big_vision's tree", "big_vision/configs/default.py", doc.Python, plain, "big-vision")
	keyed := strings.Replace(plain, "  return config", "  config.ckpt_steps = 1000\n  return config", 1)
	wantDetected(t, "with big_vision's ckpt_steps", "configs/default.py", doc.Python, keyed, "big-vision")
	imported := "import big_vision.configs.common as bvcc\n" + plain
	wantDetected(t, "importing big_vision", "configs/default.py", doc.Python, imported, "big-vision")
	// scenic's dataset configs set prefetch_to_device at their top level (layout_denoise's
	// dataset_config.py): read as big_vision's, it was told it writes no checkpoints.
	dataset := "import ml_collections\n\ndef get_config(data_name='rico'):\n  dataset_configs = ml_collections.ConfigDict()\n" +
		"  dataset_configs.shuffle_buffer_size = 10000\n  dataset_configs.prefetch_to_device = 5\n  dataset_configs.dataset_name = data_name\n  return dataset_configs\n"
	wantDetected(t, "a dataset config with prefetch_to_device", "configs/dataset_config.py", doc.Python, dataset, "generic")
	withSteps := strings.Replace(dataset, "  return", "  dataset_configs.ckpt_steps = 1000\n  return", 1)
	wantDetected(t, "prefetch_to_device beside ckpt_steps", "configs/dataset_config.py", doc.Python, withSteps, "big-vision")
}

// OLMo's trainer (allenai/OLMo, olmo/config.py @59a53e3f) took llm-foundry's names for its
// batch, duration and retention keys, but it is not llm-foundry: read as llm-foundry's, each of
// its configs got about 18 unknown-key warnings for fields OLMo has (sharded_checkpointer,
// speed_monitor, ...). Nor are the YAML files of other Composer-based projects (mosaicml/examples
// @HEAD: the BERT, ResNet, DeepLab and Stable Diffusion benchmarks, read by their own main.py):
// 68 unknown-key warnings said llm-foundry's train script refuses their keys. llm-foundry's
// own evidence is needed: the tokenizer section (with the name) its TrainConfig requires, icl_tasks, or a model
// it registers.
func TestDetectOLMoNotComposer(t *testing.T) {
	shared := "run_name: r\nseed: 1\nmax_duration: 1ep\nglobal_train_batch_size: 512\ndevice_train_microbatch_size: 4\n" +
		"precision: amp_bf16\nsave_interval: 1000\nsave_num_checkpoints_to_keep: 2\neval_interval: 500\n"
	wantDetected(t, "llm-foundry's names alone", "c.yaml", doc.YAML, shared, "generic")
	bert := shared + "tokenizer_name: bert-base-uncased\nmodel:\n  name: mosaic_bert\ntrain_loader:\n  name: text\n"
	wantDetected(t, "a Composer benchmark's own script config", "c.yaml", doc.YAML, bert, "generic")
	for _, own := range []string{"tokenizer:\n  name: gpt2\n", "model:\n  name: mpt_causal_lm\n", "icl_tasks: eval/yamls/tasks.yaml\n"} {
		wantDetected(t, "with "+strings.SplitN(own, ":", 2)[0], "c.yaml", doc.YAML, shared+own, "composer")
	}
	olmo := shared + "tokenizer:\n  identifier: gpt2\nsharded_checkpointer: olmo_core\nsave_interval_unsharded: 5000\nspeed_monitor:\n  window_size: 1\n"
	wantDetected(t, "with OLMo's own fields", "c.yaml", doc.YAML, olmo, "generic")
	// OLMo's test_fixtures/train_tiny.yaml has none of those fields, but its tokenizer section
	// names an identifier where llm-foundry's train reads a name: it was told that data and
	// evaluators are not TrainConfig arguments.
	tiny := shared + "tokenizer:\n  identifier: gpt2\ndata:\n  paths: [/tmp/c4-sample.npy]\n"
	wantDetected(t, "OLMo's tokenizer section", "c.yaml", doc.YAML, tiny, "generic")
}

// HfArgumentParser reads flat dataclass fields, so a Hydra target or nested trainer, model or
// optimizer sections make a file another trainer's even when it shares a Trainer key: verl's
// optim/fsdp.yaml (a FSDPOptimizerConfig with lr_scheduler_type) was told that betas is not a
// TrainingArguments setting, levanter's SFT configs (model_name_or_path beside trainer:,
// model: and optimizer: sections) were given the Trainer's defaults.
func TestDetectNestedSectionsNotHF(t *testing.T) {
	verl := "_target_: verl.workers.config.FSDPOptimizerConfig\noptimizer: AdamW\nlr: 1e-3\nweight_decay: 0.01\nbetas: [0.9, 0.999]\nlr_scheduler_type: constant\n"
	wantDetected(t, "a Hydra optimizer target", "optim/fsdp.yaml", doc.YAML, verl, "generic")
	levanter := "max_seq_len: 4096\nmodel:\n  type: olmo2\n  hidden_dim: 4096\ntrainer:\n  seed: 0\n  train_batch_size: 128\n" +
		"optimizer:\n  learning_rate: 1e-5\nmodel_name_or_path: allenai/OLMo-2-1124-7B\n"
	wantDetected(t, "nested trainer and model sections", "sft.yaml", doc.YAML, levanter, "generic")
	flat := "model_name_or_path: allenai/OLMo-2-1124-7B\nlearning_rate: 1e-5\nper_device_train_batch_size: 8\noutput_dir: out\n"
	wantDetected(t, "a flat Trainer file", "sft.yaml", doc.YAML, flat, "huggingface")
	// An accelerate loop's flags (open-instruct's finetune.py and dpo configs: 98 files were
	// told about the Trainer's defaults), however many Trainer names the file shares.
	loop := flat + "lr_scheduler_type: linear\nwarmup_ratio: 0.1\nnum_epochs: 3\n"
	wantDetected(t, "Trainer names alone", "sft.yaml", doc.YAML, loop, "huggingface")
	wantDetected(t, "with with_tracking", "sft.yaml", doc.YAML, loop+"with_tracking: true\n", "generic")
	wantDetected(t, "with checkpointing_steps", "sft.yaml", doc.YAML, loop+"checkpointing_steps: 1000\n", "generic")
	// diffusers-style script flags beside the Hub's: SimpleTuner's config.json files (91 were
	// told that lora_type and lr_scheduler are not TrainingArguments settings).
	tuner := `{"hub_model_id": "my-lora", "push_to_hub": false, "report_to": "tensorboard", "model_family": "flux", "lora_type": "standard",
"lr_scheduler": "constant", "validation_steps": 100, "train_batch_size": 1, "max_train_steps": 1000, "mixed_precision": "bf16"}`
	wantDetected(t, "diffusers script flags", "config.json", doc.JSON, tuner, "generic")
	wantDetected(t, "one diffusers flag", "config.json", doc.JSON, `{"hub_model_id": "x", "push_to_hub": true, "report_to": "none", "per_device_train_batch_size": 8, "mixed_precision": "bf16"}`, "huggingface")
	// A Hydra primary (mlcommons/training's mixtral8x22b config.yaml, read by run_clm.py's
	// @hydra.main): HfArgumentParser has no defaults field. It was told that pad_token_id is
	// not a TrainingArguments setting.
	hydra := "defaults:\n- _self_\n- sched: WarmupHoldPolicy\n" + flat + "max_steps: 10\npad_token_id: -100\n"
	wantDetected(t, "a Hydra defaults list", "config.yaml", doc.YAML, hydra, "generic")
	// ROLL's RLVR configs: a hydra section beside its own keys, and lora_rank, lora_target and
	// Trainer names; Hydra composes them for ROLL's pipeline.
	roll := "hydra:\n  run:\n    dir: .\n  output_subdir: null\nexp_name: rlvr\nseed: 42\noutput_dir: ./output\nmax_steps: 500\nsave_steps: 100\n" +
		"logging_steps: 1\neval_steps: 10\nlora_target: all-linear\nlora_rank: 32\nlora_alpha: 32\n"
	wantDetected(t, "a hydra section", "rlvr.yaml", doc.YAML, roll, "generic")
	// Vision-R1's LLaMA-Factory recipe: fourteen Trainer keys beside stage, finetuning_type,
	// template, cutoff_len, val_size and plot_loss.
	vr1 := "model_name_or_path: Qwen/Qwen2.5-VL-7B-Instruct\nstage: sft\ndo_train: true\nfinetuning_type: full\ndataset: a, b\ntemplate: qwen2_vl\n" +
		"cutoff_len: 16384\noverwrite_cache: true\noutput_dir: out\nlogging_steps: 1\nsave_steps: 1000\nsave_total_limit: 2\nsave_strategy: steps\nplot_loss: true\n" +
		"overwrite_output_dir: true\nreport_to: wandb\nrun_name: r\nper_device_train_batch_size: 1\ngradient_accumulation_steps: 4\nlearning_rate: 5.0e-6\n" +
		"num_train_epochs: 2\nlr_scheduler_type: cosine\nwarmup_ratio: 0.05\nbf16: true\nval_size: 0\nper_device_eval_batch_size: 1\neval_strategy: 'no'\n"
	wantDetected(t, "LLaMA-Factory with many Trainer keys", "train.yaml", doc.YAML, vr1, "llama-factory")
	// dinov3's text-alignment config: lr_scheduler_type, output_dir, seed and weight_decay among
	// 58 keys of its own script's.
	dino := "lr_scheduler_type: cosine\noutput_dir: out\nseed: 11\nweight_decay: 0.0001\n"
	for _, k := range []string{"embed_dim", "vision_backbone_config", "vision_model_train_img_size", "text_backbone_config", "init_logit_scale", "batch_size", "beta1", "beta2", "eps", "eval_freq", "max_iteration", "warmup_length", "checkpointing_period", "gc_freq", "do_compile", "lr", "max_checkpoints_to_keep", "dataset_use_cache", "no_resume", "output_dict", "freeze_logit_scale", "text_vocab_path_or_url", "eval_only", "train_dataset_str", "vision_model_freeze_backbone", "text_model_freeze_backbone", "vision_model_num_head_blocks", "text_model_num_head_blocks",
		"vision_model_use_class_token", "vision_model_head_blocks_drop_path", "vision_model_use_linear_projection", "vision_model_use_patch_tokens",
		"vision_model_patch_token_layer", "vision_model_use_gram_loss", "text_model_head_blocks_drop_prob", "text_model_head_blocks_is_causal",
		"text_model_tokens_pooler_type", "text_model_use_linear_projection", "init_logit_bias", "vision_backbone_pretrained_weights"} {
		dino += k + ": 1\n"
	}
	wantDetected(t, "Trainer names among many of a script's", "text.yaml", doc.YAML, dino, "generic")
	// ESFT's base.yaml: only names other trainers share (no Trainer-only key, no output_dir),
	// beside its own seq_length, per_device_batch_size and steps: its script maps them by hand.
	esft := "seed: 1\nseq_length: 4096\nper_device_batch_size: 1\nn_device: 8\noptim: adamw_torch_fused\nsteps: 500\nlearning_rate: 0.00001\n" +
		"weight_decay: 0.1\nwarmup_steps: 0\nlogging_steps: 10\nadam_beta1: 0.9\nadam_beta2: 0.95\neval_steps: 100\nsave_steps: 100\n" +
		"gradient_checkpointing: true\ngradient_accumulation_steps: 16\nmax_grad_norm: 1.0\nep_size: 2\n"
	wantDetected(t, "shared names only", "base.yaml", doc.YAML, esft, "generic")
	wantDetected(t, "shared names and output_dir", "base.yaml", doc.YAML, "output_dir: out\n"+esft, "huggingface")
	wantDetected(t, "shared names and a Trainer-only key", "base.yaml", doc.YAML, "num_train_epochs: 1\n"+esft, "huggingface")
	steer := "model_name_or_path: ../models/gemma-2-9b\ndtype: bfloat16\ndevice: cuda:0\nseed: 0\nsteer_train_dataset: toxicity\nsave_vectors: True\n"
	wantDetected(t, "a model's path and shared names", "config.yaml", doc.YAML, steer, "generic")
	wantDetected(t, "a model's path and a Trainer-only key", "config.yaml", doc.YAML, steer+"per_device_train_batch_size: 2\n", "huggingface")
	// ArcticTraining's own configs: micro_batch_size and optimizer beside nested sections
	// axolotl's flat schema has no field for.
	arctic := "type: sft\nmicro_batch_size: 64\ngradient_accumulation_steps: 4\ntrain_iters: 3000\nmodel:\n  name_or_path: m\ntokenizer:\n  name_or_path: m\n" +
		"data:\n  sources: [a]\nlogger:\n  output_dir: out\nscheduler:\n  name: cosine\noptimizer:\n  lr: 1e-3\n"
	wantDetected(t, "another trainer's nested config", "c.yaml", doc.YAML, arctic, "generic")
	wantDetected(t, "axolotl's flat config", "c.yaml", doc.YAML, "base_model: m\nmicro_batch_size: 2\ngradient_accumulation_steps: 4\nnum_epochs: 1\noptimizer: adamw_torch\nlearning_rate: 0.0002\nsequence_len: 2048\n", "axolotl")
	// One key only TrainingArguments has among others' keys: sparseml's test parameters and
	// DPR's train config; with half its keys or more the Trainer's, a recipe.
	wantDetected(t, "test parameters", "config1.yaml", doc.YAML, "cadence: commit\ntest_type: sanity\nmodel: m\nfile_extension: json\nnum_train_epochs: 1\n", "generic")
	wantDetected(t, "another loop's config", "train_config.yml", doc.YAML, "batch_size: 4\ndev_batch_size: 16\nadam_eps: 1e-8\nadam_betas: (0.9, 0.999)\nmax_grad_norm: 2.0\nlog_batch_step: 1\n"+
		"train_rolling_loss_step: 100\nweight_decay: 0.0\nlearning_rate: 2e-5\nwarmup_steps: 1237\ngradient_accumulation_steps: 1\nnum_train_epochs: 40\n"+
		"eval_per_epoch: 1\nhard_negatives: 1\nother_negatives: 0\nval_av_rank_hard_neg: 30\nval_av_rank_other_neg: 30\nval_av_rank_bsz: 128\nval_av_rank_max_qs: 10000\n", "generic")
	wantDetected(t, "a recipe with keys of its script", "sft.yaml", doc.YAML, "data_path: d\nlora_r: 8\nnum_train_epochs: 3\nlearning_rate: 2e-5\noutput_dir: out\n", "huggingface")
	// qlora-pipe's dataset files: axolotl's datasets format without the model axolotl requires.
	frag := "chat_template: llama3\ndatasets:\n  - path: ssmi153/Capybara-ShareGPT\n    type: chat_template\n"
	wantDetected(t, "axolotl's datasets alone", "capybara.yml", doc.YAML, frag, "generic")
	wantDetected(t, "axolotl's datasets and model", "capybara.yml", doc.YAML, "base_model: m\n"+frag, "axolotl")
	// moshi-finetune's TrainArgs: do_eval beside an optim section of its own.
	wantDetected(t, "an optim section", "moshi_7B.yaml", doc.YAML, "do_eval: false\nseed: 0\nmax_steps: 2000\noptim:\n  lr: 2e-6\n  weight_decay: 0.1\n", "generic")
	// nequip's data.yaml: data_seed beside a section Hydra instantiates.
	nequip := "file_path: toy\nrun: [train, test]\ndata_seed: 123\ndata:\n  _target_: nequip.data.datamodule.NequIPDataModule\n  seed: ${data_seed}\n"
	if got := Detect(parseYAMLDoc(t, nequip)); got.Name == "huggingface" {
		t.Errorf("an instantiated section detected as %s", got.Name)
	}
	// bionemo's Lepton job configs: model_type and micro_batch_size beside a defaults list were
	// read as axolotl files and told that axolotl refuses them without datasets.
	lepton := "defaults:\n  - /base\n  - _self_\nnum_nodes: 2\nmodel_type: esm2\nvariant: train\nmicro_batch_size: 4\n"
	wantDetected(t, "axolotl names in a Hydra config", "esm2.yaml", doc.YAML, lepton, "generic")
	wantDetected(t, "axolotl names alone", "esm2.yaml", doc.YAML, strings.TrimPrefix(lepton, "defaults:\n  - /base\n  - _self_\n"), "axolotl")
	// SpeechBrain's HyperPyYAML hparams share dataloader_num_workers and warmup_steps, but
	// their !new: and !ref tags need HyperPyYAML's loader: yaml.safe_load refuses them.
	hparams := "seed: 8200\n__set_seed: !apply:speechbrain.utils.seed_everything [!ref <seed>]\noutput_folder: !ref results/<seed>\n" +
		"dataloader_num_workers: 8\nwarmup_steps: 500\nlr: 1.0\nepoch_counter: !new:speechbrain.utils.epoch_loop.EpochCounter\n  limit: 45\n"
	wantDetected(t, "HyperPyYAML hparams", "train.yaml", doc.YAML, hparams, "generic")
	wantDetected(t, "the same keys without tags", "train.yaml", doc.YAML, "seed: 8200\ndataloader_num_workers: 8\nwarmup_steps: 500\nlr: 1.0\n", "huggingface")
}

// A transformers model's config.json names its architecture with NeoX's spellings
// (hidden_size, num_attention_heads, max_position_embeddings) but is no NeoX training config,
// nor is another Megatron descendant's model section.
func TestDetectHFModelConfigNotNeoX(t *testing.T) {
	model := `{"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072, "model_type": "llama"}`
	wantDetected(t, "a model config.json", "config.json", doc.JSON, model, "generic")
	neox := `{"pipe_parallel_size": 1, "model_parallel_size": 1, "num_layers": 12, "hidden_size": 768, "train_iters": 1000}`
	wantDetected(t, "a NeoX config", "small.json", doc.JSON, neox, "gpt-neox")
	// NeMo's megatron_model_base_config.yaml (NVIDIA/NeMo @8cfedd7) writes the model's shape
	// and NeMo's own names (normalization, not NeoX's norm).
	nemo := "num_layers: 12\nhidden_size: 768\nffn_hidden_size: 3072\nnum_attention_heads: 12\nnormalization: layernorm\nmax_position_embeddings: 512\n"
	wantDetected(t, "NeMo's Megatron model fragment", "megatron_model_base_config.yaml", doc.YAML, nemo, "generic")
}

// A tokenizer's vocab.json names "trainer", "precision", "devices" and "strategy" among its
// tokens: a map of thousands of top-level keys is a table, read as no framework's and holding no
// settings.
func TestDetectVocabularyNotAConfig(t *testing.T) {
	words := []string{"trainer", "precision", "devices", "strategy", "logger", "callbacks", "max_epochs", "accelerator", "Keep"}
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 6000; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		w := "tok" + strconv.Itoa(i)
		if i < len(words) {
			w = words[i]
		}
		b.WriteString(`"` + w + `": ` + strconv.Itoa(i))
	}
	b.WriteString("}")
	wantDetected(t, "a vocabulary", "vocab.json", doc.JSON, b.String(), "generic")
	// Nor is a setting read from it: Whisper's vocab.json (in bytedance/LatentSync) has the
	// token "Keep", which read as a retention of 41,856 checkpoints.
	d := doc.Parse("vocab.json", []byte(b.String()), doc.JSON, doc.Limits{})
	if p := Detect(d).Normalize(d, Context{}); p.Ckpt.Retention.Known() {
		t.Errorf("a vocabulary's token read as a setting: %+v", p.Ckpt.Retention)
	}
	// The same eight words alone read as a Lightning trainer group file: the size decides.
	small := `{"trainer": 0, "precision": 1, "devices": 2, "strategy": 3, "logger": 4, "callbacks": 5, "max_epochs": 6, "accelerator": 7}`
	wantDetected(t, "the eight words alone", "t.json", doc.JSON, small, "lightning")
}

// ms-swift's configs (`swift sft --config`) extend the Trainer's names with their own (model,
// dataset, lora_rank, tuner_type): neither the Trainer's defaults nor axolotl's start-up
// refusals hold for them (its megatron example was told axolotl refuses a config without
// datasets).
func TestDetectSwiftNotHFOrAxolotl(t *testing.T) {
	swift := "model: Qwen/Qwen2.5-7B-Instruct\ntuner_type: lora\nlora_rank: 8\nlora_alpha: 32\ndataset:\n  - 'a#500'\n" +
		"split_dataset_ratio: 0.0\nmax_length: 2048\nmicro_batch_size: 2\nlearning_rate: 1e-4\nper_device_train_batch_size: 1\nwarmup_ratio: 0.05\n"
	wantDetected(t, "an ms-swift config", "sft.yaml", doc.YAML, swift, "generic")
	// Without swift's own keys the same names read as the Trainer's.
	hf := "model_name_or_path: Qwen/Qwen2.5-7B-Instruct\nlearning_rate: 1e-4\nper_device_train_batch_size: 1\nwarmup_ratio: 0.05\n"
	wantDetected(t, "a Trainer config", "sft.yaml", doc.YAML, hf, "huggingface")
	axo := "base_model: Qwen/Qwen2.5-7B\nadapter: lora\nlora_r: 8\nmicro_batch_size: 2\ndatasets:\n  - path: a\n    type: alpaca\n"
	wantDetected(t, "an axolotl config", "sft.yaml", doc.YAML, axo, "axolotl")
	wantDetected(t, "with swift's keys", "sft.yaml", doc.YAML, axo+"tuner_type: lora\ndataset_num_proc: 4\n", "generic")
	// A short swift config: a model id, its train_type, a dataset (no "dataset is not a
	// TrainingArguments setting").
	short := "model: Qwen/Qwen2.5-7B-Instruct\ntrain_type: lora\ndataset: alpaca\nper_device_train_batch_size: 1\n"
	wantDetected(t, "a short ms-swift config", "sft.yaml", doc.YAML, short, "generic")
	// One of swift's keys alone is no swift evidence.
	wantDetected(t, "a train_type alone", "sft.yaml", doc.YAML, "train_type: lora\n"+hf, "huggingface")
	// The arguments a run wrote (args.json in its output folder, fyh2001/megatron-sft-recipes):
	// LLaMA-Factory's weak spellings (template, lora_rank, eval_dataset) beside swift_version.
	dump := `{"per_device_train_batch_size": 1, "eval_strategy": "no", "model": "google/gemma-4-E4B", "tuner_backend": "peft", "template": "gemma4_nothinking", "lora_rank": 8, "eval_dataset": [], "evaluation_strategy": "no", "swift_version": "4.2.0.dev0"}`
	wantDetected(t, "ms-swift's args.json", "args.json", doc.JSON, dump, "generic")
	wantDetected(t, "the same keys without swift_version", "args.json", doc.JSON, strings.Replace(dump, `, "swift_version": "4.2.0.dev0"`, "", 1), "llama-factory")
}

// PaddleNLP's llm configs (sft_argument.json, read by PdArgumentParser) use the Trainer's names
// with tensor_parallel_degree and pipeline_parallel_degree of their own; PaddleNLP keeps
// evaluation_strategy and fp16_opt_level and reports to visualdl by default, so the Trainer's
// renames and defaults do not hold for them. One of the two keys alone is no such evidence.
func TestDetectPaddleNLPNotHF(t *testing.T) {
	hf := `{"model_name_or_path": "m", "output_dir": "o", "per_device_train_batch_size": 4, "evaluation_strategy": "epoch", "fp16_opt_level": "O2", "do_train": true`
	wantDetected(t, "a PaddleNLP config", "sft_argument.json", doc.JSON, hf+`, "tensor_parallel_degree": 4, "pipeline_parallel_degree": 1}`, "generic")
	wantDetected(t, "one parallel degree", "sft_argument.json", doc.JSON, hf+`, "tensor_parallel_degree": 4}`, "huggingface")
}

// PaddleFormers' configs (`paddleformers-cli train|export FILE`, read by PdArgumentParser into
// its own TrainingArguments: setilanaji/paddleocr-aksara-jawa's LoRA recipe, PaddleFormers'
// examples/best_practices/PaddleOCR-VL) keep evaluation_strategy, logging_dir, warmup_ratio
// and fp16_opt_level: they are neither the Trainer's files (whose renames would stop the run)
// nor LLaMA-Factory's (stage, template and mix_strategy are PaddleFormers' arguments too).
// Two of PaddleFormers' own arguments tell, or one beside a comment naming paddleformers-cli;
// one alone, or the comment alone, does not.
func TestDetectPaddleFormersNotHF(t *testing.T) {
	hf := "model_name_or_path: PaddlePaddle/PaddleOCR-VL\ndo_train: true\nper_device_train_batch_size: 8\nevaluation_strategy: \"no\"\n" +
		"save_strategy: steps\nsave_steps: 200\nlogging_dir: ./out/visualdl_logs/\noutput_dir: ./out\nwarmup_ratio: 0.01\nbf16: true\nfp16_opt_level: O2\n"
	wantDetected(t, "the Trainer's names alone", "c.yaml", doc.YAML, hf, "huggingface")
	train := "train_dataset_type: messages\ntrain_dataset_path: ./train.jsonl\ntrain_dataset_prob: \"1.0\"\nstage: VL-SFT\nfine_tuning: lora\n" + hf +
		"tensor_model_parallel_size: 1\npipeline_model_parallel_size: 1\nunified_checkpoint: false\n"
	wantDetected(t, "a PaddleFormers recipe", "c.yaml", doc.YAML, train, "generic")
	wantDetected(t, "a PaddleFormers recipe with template and mix_strategy", "c.yaml", doc.YAML,
		train+"template: paddleocr_vl\nmix_strategy: concat\nlora_rank: 16\nlora_alpha: 32\nstage: SFT\n", "generic")
	run := "# Run with:\n#   paddleformers-cli train training/c.yaml\n"
	wantDetected(t, "fine_tuning beside the command", "c.yaml", doc.YAML, run+"fine_tuning: lora\n"+hf, "generic")
	wantDetected(t, "fine_tuning alone", "c.yaml", doc.YAML, "fine_tuning: lora\n"+hf, "huggingface")
	wantDetected(t, "the command alone", "c.yaml", doc.YAML, run+hf, "huggingface")
	export := "# Run with:\n#   paddleformers-cli export training/e.yaml\nfine_tuning: LoRA\nmodel_name_or_path: PaddlePaddle/PaddleOCR-VL\noutput_dir: ./out\n"
	wantDetected(t, "an export file naming its command", "e.yaml", doc.YAML, export, "generic")
	wantDetected(t, "an export file with copy_custom_file_list", "e.yaml", doc.YAML,
		"fine_tuning: LoRA\nmodel_name_or_path: PaddlePaddle/PaddleOCR-VL\noutput_dir: ./out\ncopy_custom_file_list: \"modeling.py inference.yml\"\n", "generic")
}

// MMF's YAML configs hold optimizer and scheduler blocks of DeepSpeed's shape ({type, params})
// beside sections DeepSpeed never reads (training, model_config, dataset_config): 75 of them
// were labelled DeepSpeed. A DeepSpeed file with the same blocks is still one.
func TestDetectMMFNotDeepSpeed(t *testing.T) {
	blocks := "optimizer:\n  type: adam_w\n  params:\n    lr: 5.0e-05\nscheduler:\n  type: warmup_linear\n  params:\n    num_warmup_steps: 2000\n"
	wantDetected(t, "MMF's training section", "c.yaml", doc.YAML, blocks+"training:\n  batch_size: 480\n  max_updates: 88000\n", "generic")
	wantDetected(t, "MMF's sections, more DeepSpeed keys than others", "c.yaml", doc.YAML, blocks+"checkpoint:\n  max_to_keep: 5\nmodel_config:\n  unit: {}\n", "generic")
	wantDetected(t, "DeepSpeed's own keys", "ds.yaml", doc.YAML, blocks+"gradient_clipping: 1.0\nsteps_per_print: 10\n", "deepspeed")
	wantDetected(t, "a strong DeepSpeed key beside a foreign section", "ds.yaml", doc.YAML, blocks+"train_micro_batch_size_per_gpu: 4\nnotes:\n  by: me\n", "deepspeed")
}

// LLaMA-Factory's export and chat configs (examples/merge_lora, examples/inference: model
// arguments, a template and export_* or infer_backend, no Trainer key) are LLaMA-Factory's, not
// Trainer files, and they train nothing: their plan reads no training run. ms-swift's infer
// configs share infer_backend and template but name the model with a top-level model.
func TestDetectLlamaFactoryExportAndChat(t *testing.T) {
	export := "model_name_or_path: Qwen/Qwen3-4B-Instruct-2507\nadapter_name_or_path: saves/qwen3-4b/lora/sft\ntemplate: qwen3_nothink\ntrust_remote_code: true\nexport_dir: saves/merged\nexport_size: 5\nexport_device: cpu\nexport_legacy_format: false\n"
	chat := "model_name_or_path: Qwen/Qwen3-4B-Instruct-2507\ntemplate: qwen3_nothink\ninfer_backend: huggingface\ntrust_remote_code: true\n"
	swift := "model: Qwen/Qwen2.5-7B-Instruct\ninfer_backend: vllm\ntemplate: qwen\nmax_new_tokens: 2048\n"
	wantDetected(t, "an ms-swift infer config", "infer.yaml", doc.YAML, swift, "generic")
	for name, src := range map[string]string{"export": export, "chat": chat} {
		wantDetected(t, "LLaMA-Factory "+name+" config", name+".yaml", doc.YAML, src, "llama-factory")
		d := doc.Parse(name+".yaml", []byte(src), doc.YAML, doc.Limits{})
		p := ByName("llama-factory").Normalize(d, Context{})
		if p.Data.Workers.Known() || p.Eval.Enabled.Known() || len(p.Tracking.Trackers.Value) > 0 || p.Tracking.Trackers.Known() {
			t.Errorf("%s: a training run is read: %+v", name, p)
		}
	}
}

// A script that builds dicts with a capitalised 'type' (torchgeo's tests/data/vector/data.py
// writes GeoJSON: {'type': 'FeatureCollection', ...}) is run, not loaded as a config: a #! line
// or a top-level main guard says so, when such dicts are the only evidence. The same dicts in a
// plain module still read as a registry (and mmengine's demo_train.py, a script importing
// mmengine, stays MMEngine's: TestCorpusDetection).
func TestDetectScriptWithMainNotMMEngine(t *testing.T) {
	body := "import json\n\ngeojson = {'type': 'FeatureCollection', 'features': [{'type': 'Feature', 'properties': {'label_id': 1}}]}\n"
	wantDetected(t, "a module of registry-like dicts", "data.py", doc.Python, body, "mmengine")
	wantDetected(t, "a #! script", "data.py", doc.Python, "#!/usr/bin/env python3\n"+body, "generic")
	wantDetected(t, "a script with a main guard", "data.py", doc.Python, body+"\nif __name__ == '__main__':\n    json.dump(geojson, open('x', 'w'))\n", "generic")
}

func TestMainGuard(t *testing.T) {
	for line, want := range map[string]bool{
		`if __name__ == "__main__":`: true, `if __name__=='__main__':`: true, "if  __name__ ==\t'__main__' :  # run": true,
		`if __name__ == "__main__": main()`: true, `    if __name__ == "__main__":`: false, `# if __name__ == "__main__":`: false,
		`if __name__ == "__main__"`: false, `if __name__ != "__main__":`: false, `if name == "__main__":`: false,
		`if __name__ == '__main__ ':`: false, `if __name__ == '__main__":`: false,
	} {
		if got := mainGuard([]byte(line)); got != want {
			t.Errorf("mainGuard(%q) = %v, want %v", line, got, want)
		}
	}
}

// An export config is still held to the argument classes' own checks (ExportArguments'
// "Quantization dataset is necessary for exporting."), and so is a predict config that
// llamafactory-cli train runs ("`neat_packing` cannot be set as True except SFT.").
func TestLlamaFactoryChecksByCommand(t *testing.T) {
	says := func(src string) []string {
		p := ByName("llama-factory").Normalize(doc.Parse("a.yaml", []byte(src), doc.YAML, doc.Limits{}), Context{})
		var out []string
		for _, r := range p.Rejections {
			out = append(out, r.Says)
		}
		return out
	}
	export := "model_name_or_path: m\nadapter_name_or_path: a\ntemplate: llama3\nfinetuning_type: lora\nexport_dir: out\nexport_quantization_bit: 4\nneat_packing: true\n"
	if got := says(export); len(got) != 1 || got[0] != "Quantization dataset is necessary for exporting." {
		t.Errorf("export config: %q", got)
	}
	predict := "model_name_or_path: m\nstage: rm\ndo_predict: true\nfinetuning_type: lora\ntemplate: llama3\nneat_packing: true\n"
	if got := says(predict); len(got) != 1 || got[0] != "`neat_packing` cannot be set as True except SFT." {
		t.Errorf("predict config: %q", got)
	}
}

// TestLlamaFactoryTrainChecksNeedStage: lfRejections evaluates get_train_args' checks on export
// and chat configs too, which get_infer_args never runs. That is sound while every such check
// of the table needs a stage (which those configs do not write); a regenerated table that adds
// one without it needs those checks kept to the train command.
func TestLlamaFactoryTrainChecksNeedStage(t *testing.T) {
	n := 0
	for _, ch := range KnowledgeOf("llamafactory").liveChecks() {
		if ch.name != "get_train_args" {
			continue
		}
		n++
		if !strings.Contains(ch.text, "E:stage=") {
			t.Errorf("get_train_args check %s does not test the stage", ch.text)
		}
	}
	if n == 0 {
		t.Fatal("no live get_train_args check in the table")
	}
}

// A file whose every top-level value is a list of candidates is a grid a script expands into
// runs (Xilinx/brevitas papers/expansion/*.yaml: benchmark/utils.py takes the product of the
// lists and passes one value of each as --key value), not a config any framework reads as
// written: the Trainer's names in it (learning_rate: [1.5], max_steps: [100]) make it no
// Trainer file. The same keys with scalar values still are.
func TestDetectValueGridNotAConfig(t *testing.T) {
	grid := "learning_rate:\n- 1.5\nmax_steps:\n- 100\ngradient_accumulation_steps:\n- 8\ngradient_checkpointing:\n- true\nper_device_train_batch_size:\n- 4\nmodel_name_or_path:\n- meta-llama/Llama-3.2-1B\n"
	wantDetected(t, "a grid of candidate values", "quarot_star.yaml", doc.YAML, grid, "generic")
	plain := "learning_rate: 1.5\nmax_steps: 100\ngradient_accumulation_steps: 8\ngradient_checkpointing: true\nper_device_train_batch_size: 4\nmodel_name_or_path: meta-llama/Llama-3.2-1B\n"
	wantDetected(t, "the same keys as values", "train.yaml", doc.YAML, plain, "huggingface")
	// One list among scalars (a config with a list setting) is no grid.
	mixed := strings.Replace(plain, "max_steps: 100\n", "report_to:\n- wandb\n", 1)
	wantDetected(t, "one list among scalars", "train.yaml", doc.YAML, mixed, "huggingface")
}
