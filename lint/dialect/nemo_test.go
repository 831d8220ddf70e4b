package dialect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/corpustest"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

func nemoPlan(t *testing.T, src string) *plan.Plan {
	t.Helper()
	d := parseYAMLDoc(t, src)
	if got := Detect(d); got.Name != "nemo" {
		t.Fatalf("detected %q, want nemo", got.Name)
	}
	return NeMo.Normalize(d, Context{})
}

const nemoMegatron = `
name: megatron_gpt
trainer:
  devices: 8
  num_nodes: 2
  logger: False
  enable_checkpointing: False
  use_distributed_sampler: False
  max_steps: 100000
  val_check_interval: 100
  limit_val_batches: 50
  accumulate_grad_batches: 1
exp_manager:
  name: megatron_gpt
  create_wandb_logger: True
  wandb_logger_kwargs:
    project: gpt
    name: gpt-run
  checkpoint_callback_params:
    monitor: val_loss
    save_top_k: 10
    mode: min
model:
  micro_batch_size: 4
  global_batch_size: 256
  tensor_model_parallel_size: 2
  pipeline_model_parallel_size: 1
  normalization: layernorm
  data:
    num_workers: 2
`

func TestNeMoDefaultsAndSwitches(t *testing.T) {
	// exp_manager present but empty of checkpoint params: the CallbackParams dataclass defaults.
	p := nemoPlan(t, `
name: asr
trainer:
  devices: 2
exp_manager:
  exp_dir: null
model:
  train_ds:
    batch_size: 32
    num_workers: 4
  validation_ds:
    batch_size: 8
  encoder:
    _target_: nemo.collections.asr.modules.ConvASREncoder
`)
	wantFact(t, "retention", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepBest, N: 3}, plan.Default, "exp_manager.checkpoint_callback_params.save_top_k", -1)
	wantFact(t, "best metric", p.Ckpt.BestMetric, "val_loss", plan.Default, "exp_manager.checkpoint_callback_params.monitor", -1)
	if !strings.Contains(whyText(p.Ckpt.Retention), "NeMo exp_manager default") {
		t.Errorf("retention note %q", p.Ckpt.Retention.Note)
	}
	wantFact(t, "train batch", p.Train.PerDeviceBatch, 32, plan.Explicit, "model.train_ds.batch_size", 8)
	wantFact(t, "eval batch", p.Eval.PerDeviceBatch, 8, plan.Explicit, "model.validation_ds.batch_size", 11)
	wantFact(t, "workers", p.Data.Workers, 4, plan.Explicit, "model.train_ds.num_workers", 9)
	// strategy unset ("auto") and no accelerator named: DDP on GPUs (rank 0's statistics
	// broadcast), XLAStrategy on TPUs (each device its own), so unknown.
	if p.BN.Sync.Known() || p.BN.Sync.Key != "trainer.sync_batchnorm" {
		t.Errorf("bn sync %+v: want unknown", p.BN.Sync)
	}
	if !p.BN.Present.Known() || !p.BN.Present.Value || !strings.Contains(p.BN.Evidence, "ConvASREncoder") {
		t.Errorf("bn present %+v %q", p.BN.Present, p.BN.Evidence)
	}
	wantFact(t, "logging scope", p.Logging.Scope, plan.EveryRank, plan.Default, "", -1)
	if tr := p.Tracking.Trackers; tr.Origin != plan.Default || strings.Join(tr.Value, ",") != "tensorboard" {
		t.Errorf("trackers default %+v", tr)
	}
	if p.Train.GlobalBatch.Known() || p.Seeds.Init.Known() || p.Eval.DropLast.Known() {
		t.Errorf("non-megatron model must not get megatron facts")
	}

	cases := []struct {
		yaml   string
		scope  plan.Scope
		origin plan.Origin
	}{
		{"log_global_rank_0_only: true", plan.PrimaryHost, plan.Explicit},
		{"log_local_rank_0_only: true", plan.EveryHost, plan.Explicit},
		{"log_local_rank_0_only: false", plan.EveryRank, plan.Explicit},
		{"log_local_rank_0_only: true\n  log_global_rank_0_only: true", "", plan.Unknown},
		{"log_global_rank_0_only: ${x}", "", plan.Unknown},
	}
	for _, c := range cases {
		p := nemoPlan(t, "trainer: {devices: 1}\nexp_manager:\n  exp_dir: null\n  "+c.yaml+"\n")
		wantFact(t, c.yaml, p.Logging.Scope, c.scope, c.origin, "", -1)
	}

	// Checkpoint callback off; time budget per run; time-based validation.
	p = nemoPlan(t, `
trainer:
  val_check_interval: "00:00:15:00"
  max_time: "00:10:00:00"
  enable_checkpointing: false
  logger: false
exp_manager:
  create_checkpoint_callback: false
  max_time_per_run: 00:03:50:00
  create_tensorboard_logger: false
`)
	wantFact(t, "ckpt enabled", p.Ckpt.Enabled, false, plan.Explicit, "exp_manager.create_checkpoint_callback", 7)
	if p.Ckpt.Retention.Known() {
		t.Errorf("retention with the callback off: %+v", p.Ckpt.Retention)
	}
	wantFact(t, "time budget", p.Train.TimeBudget, plan.Interval{Value: 3*3600 + 50*60, Unit: plan.Seconds, Text: "00:03:50:00"}, plan.Explicit, "exp_manager.max_time_per_run", 8)
	wantFact(t, "eval interval", p.Eval.Interval, plan.Interval{Value: 900, Unit: plan.Seconds, Text: "00:00:15:00"}, plan.Explicit, "trainer.val_check_interval", 2)
	if tr := p.Tracking.Trackers; !tr.IsExplicit() || len(tr.Value) != 0 {
		t.Errorf("no trackers: %+v", tr)
	}

	// The evaluation-script layout: model keys at the top level, no exp_manager.
	p = nemoPlan(t, `
trainer:
  devices: 1
  num_nodes: 1
tensor_model_parallel_size: ???
pipeline_model_parallel_size: ???
micro_batch_size: null
global_batch_size: null
`)
	if p.Train.PerDeviceBatch.Known() || p.Train.GradAccum.Known() {
		t.Errorf("unknown sizes must stay unknown: %+v %+v", p.Train.PerDeviceBatch, p.Train.GradAccum)
	}
}

// corpusExpect lists the framework trainlint should detect for every corpus file of the
// Lightning and NeMo repositories (MANIFEST labels lightning-cli, lightning-hydra → lightning,
// nemo → nemo). The exceptions are files that hold nothing a training framework reads: they
// fall to the generic dialect, and each says why.
var corpusGeneric = map[string]string{
	"Lightning-AI__pytorch-lightning/tests__tests_pytorch__models__conf__config.yaml":            "a Hydra test fixture: defaults + log: ${training.log}",
	"Lightning-AI__pytorch-lightning/tests__tests_pytorch__models__conf__training__default.yaml": "a test fixture: log: Something",
	"ashleve__lightning-hydra-template/configs__callbacks__none.yaml":                            "empty file",
	"ashleve__lightning-hydra-template/configs__extras__default.yaml":                            "template utility flags only",
	"ashleve__lightning-hydra-template/configs__hparams_search__mnist_optuna.yaml":               "a Hydra Optuna sweeper config",
	"ashleve__lightning-hydra-template/configs__hydra__default.yaml":                             "Hydra run/sweep directories",
	"ashleve__lightning-hydra-template/configs__logger__many_loggers.yaml":                       "a defaults list of logger names only",
	"ashleve__lightning-hydra-template/configs__paths__default.yaml":                             "path interpolations only",
}

func TestCorpusLightningNeMoDetection(t *testing.T) {
	counts := map[string]int{}
	eachCorpusDoc(t, func(e corpustest.Entry, d *doc.Document) {
		want := ""
		switch e.Label {
		case "lightning-cli", "lightning-hydra":
			want = "lightning"
		case "nemo":
			want = "nemo"
		}
		if _, generic := corpusGeneric[e.Path]; generic {
			want = "generic"
		}
		got := Detect(d).Name
		switch {
		case want != "":
			counts[want]++
			if got != want {
				t.Errorf("%s: detected %q, want %q (lightning %d, nemo %d)", e.Path, got, want, Lightning.Detect(d), NeMo.Detect(d))
			}
			// Normalising a real file never panics and keeps the framework.
			if want != "generic" {
				if p := ByName(want).Normalize(d, Context{}); p.Framework != want {
					t.Errorf("%s: plan framework %q", e.Path, p.Framework)
				}
			}
		default:
			// Every other framework's file (LitGPT included: Fabric scripts with their own
			// train.*/eval.* keys, left to other dialects) must stay below the claim threshold.
			if d.Root == nil {
				return
			}
			if s := Lightning.Detect(d); s >= MinScore {
				t.Errorf("%s (%s): lightning scores %d", e.Path, e.Label, s)
			}
			if s := NeMo.Detect(d); s >= MinScore {
				t.Errorf("%s (%s): nemo scores %d", e.Path, e.Label, s)
			}
		}
	})
	// The corpus holds 35 NeMo files and 50 Lightning ones (15 anomalib, 33 template, 2 tests).
	if counts["nemo"] != 35 || counts["lightning"] != 42 || counts["generic"] != 8 {
		t.Errorf("corpus counts %v", counts)
	}
}

// TestCorpusNeMoFacts pins facts of real NeMo files that the rules depend on.
func TestCorpusNeMoFacts(t *testing.T) {
	dir := corpustest.Dir(t)
	load := func(name string) *plan.Plan {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		d := doc.Parse(name, src, doc.YAML, doc.Limits{})
		return Detect(d).Normalize(d, Context{})
	}
	p := load("NVIDIA__NeMo/examples__asr__conf__conformer__conformer_ctc_bpe.yaml")
	if p.Framework != "nemo" || !p.BN.Present.Value || p.BN.Sync.Value != plan.BNSyncPerStep || !p.BN.Sync.IsExplicit() {
		t.Errorf("conformer: bn %+v sync %+v", p.BN.Present, p.BN.Sync)
	}
	if p.Topology.DevicesPerHost.Known() { // devices: -1 = all available
		t.Errorf("conformer devices %+v", p.Topology.DevicesPerHost)
	}
	p = load("NVIDIA__NeMo/examples__speechlm2__conf__salm.yaml")
	if iv := p.Eval.Interval; iv.Value.Unit != plan.Steps || iv.Value.Value != 100 || !strings.Contains(iv.Note, "limit_train_batches") {
		t.Errorf("salm eval interval %+v", iv)
	}
	if tb := p.Train.TimeBudget; tb.Value.Value != 13800 || tb.Key != "exp_manager.max_time_per_run" {
		t.Errorf("salm time budget %+v", tb)
	}
	p = load("ashleve__lightning-hydra-template/configs__trainer__ddp.yaml")
	if p.BN.Sync.Value != plan.BNSyncPerStep || p.Topology.DevicesPerHost.Value != 4 || p.Topology.Hosts.Value != 1 {
		t.Errorf("template ddp: %+v %+v", p.BN.Sync, p.Topology)
	}
	p = load("ashleve__lightning-hydra-template/configs__callbacks__model_checkpoint.yaml")
	if r := p.Ckpt.Retention; r.Value.Kind != plan.KeepLatest || !r.IsExplicit() {
		t.Errorf("template model_checkpoint (monitor null, save_top_k 1): %+v", r)
	}
	p = load("open-edge-platform__anomalib/examples__configs__model__padim.yaml")
	if !p.BN.Present.Value || !strings.Contains(p.BN.Evidence, "resnet18") {
		t.Errorf("padim bn evidence %q", p.BN.Evidence)
	}
	// TTS configs keep their DataLoader arguments under dataloader_params.
	p = load("NVIDIA__NeMo/examples__tts__conf__tacotron2.yaml")
	if tr, ev := p.Train.PerDeviceBatch, p.Eval.PerDeviceBatch; tr.Value != 48 || ev.Value != 24 || tr.Key != "model.train_ds.dataloader_params.batch_size" ||
		ev.Key != "model.validation_ds.dataloader_params.batch_size" || !ev.IsExplicit() {
		t.Errorf("tacotron2 batches: train %+v eval %+v", tr, ev)
	}
	if w := p.Data.Workers; w.Value != 4 || w.Key != "model.train_ds.dataloader_params.num_workers" {
		t.Errorf("tacotron2 workers %+v", w)
	}
}

// eachCorpusDoc parses every corpus file whose format its name gives and hands it to f.
func eachCorpusDoc(t *testing.T, f func(e corpustest.Entry, d *doc.Document)) {
	t.Helper()
	dir, entries := corpustest.Manifest(t)
	for _, e := range entries {
		format, ok := doc.FormatFromPath(e.Path)
		if !ok {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		f(e, doc.Parse(e.Path, src, format, doc.Limits{}))
	}
}

// A Megatron model's batch-norm sync is not read from Lightning's DDP: NLPDDPStrategy wraps it
// in DDP only in some set-ups (nlp_overrides.py configure_ddp @8cfedd7). An ASR model under the
// same trainer is DDP's: rank 0's statistics are broadcast.
func TestNeMoMegatronBNSyncUnknown(t *testing.T) {
	trainer := "trainer:\n  devices: 8\n  accelerator: gpu\n  strategy: ddp\n  sync_batchnorm: false\n"
	p := nemoPlan(t, trainer+"model:\n  micro_batch_size: 4\n  global_batch_size: 256\n  tensor_model_parallel_size: 2\n  optim:\n    name: fused_adam\n")
	if p.BN.Sync.Known() || p.BN.Broadcaster != "" {
		t.Errorf("megatron: bn sync %+v, broadcaster %q: want unknown", p.BN.Sync, p.BN.Broadcaster)
	}
	p = nemoPlan(t, trainer+"model:\n  train_ds:\n    batch_size: 32\n  optim:\n    name: adamw\n  encoder:\n    _target_: nemo.collections.asr.modules.ConvASREncoder\n")
	if !p.BN.Sync.Known() || p.BN.Sync.Value != plan.BNSyncBroadcast || p.BN.Broadcaster == "" {
		t.Errorf("asr: bn sync %+v, broadcaster %q: want broadcast", p.BN.Sync, p.BN.Broadcaster)
	}
}

// NeMo-Aligner merges the model section over the config saved in the checkpoint it restores
// (load_and_override_model_config, @af2b3bd9), so a parallel size the file leaves out is the
// checkpoint's: the model-parallel size is unknown and no data-parallel size is derived from
// it (training_rm.yaml was told that 64 is not a multiple of 2 × 64 data-parallel ranks).
func TestNeMoParallelSizesFromCheckpoint(t *testing.T) {
	trainer := "trainer:\n  num_nodes: 8\n  devices: 8\n  accelerator: gpu\n"
	model := "model:\n  micro_batch_size: 2\n  global_batch_size: 64\n  optim:\n    name: distributed_fused_adam\n"
	p := nemoPlan(t, trainer+model)
	if f := p.Schedule.ModelParallel; !f.Known() || f.Value != 1 {
		t.Errorf("no checkpoint: model parallel %+v, want the default 1", f)
	}
	for _, ck := range []string{"pretrained_checkpoint:\n  restore_from_path: null\n", "  restore_from_path: /ckpt/model.nemo\n"} {
		src := trainer + ck + model
		if strings.HasPrefix(ck, "  ") {
			src = trainer + model + ck
		}
		p = nemoPlan(t, src)
		if f := p.Schedule.ModelParallel; f.Known() {
			t.Errorf("%q: model parallel %+v, want unknown", ck, f)
		}
		if a := p.Train.GradAccum; a.Known() {
			t.Errorf("%q: gradient accumulation %+v derived from an unknown data-parallel size", ck, a)
		}
	}
}

// TestNeMoTrainerKeepsItsOwn: with exp_manager's checkpoint callback and loggers off, the
// Lightning Trainer still saves with its own ModelCheckpoint and logs with its own logger unless
// trainer.enable_checkpointing and trainer.logger are false (aksingh5tech/ASR's parakeet
// configs, run by NeMo's speech_to_text_finetune.py): neither checkpoints nor tracking are off.
func TestNeMoTrainerKeepsItsOwn(t *testing.T) {
	const em = "exp_manager:\n  create_checkpoint_callback: false\n  create_tensorboard_logger: false\n"
	for trainer, off := range map[string]bool{
		"trainer:\n  devices: 1\n": false,
		"trainer:\n  devices: 1\n  enable_checkpointing: true\n  logger: true\n":   false,
		"trainer:\n  devices: 1\n  enable_checkpointing: false\n  logger: false\n": true,
	} {
		p := nemoPlan(t, trainer+em)
		if ck := p.Ckpt.Enabled; ck.Known() != off || off && ck.Value {
			t.Errorf("%q: checkpoints %+v", trainer, ck)
		}
		if tr := p.Tracking.Trackers; tr.Known() != off || off && len(tr.Value) != 0 {
			t.Errorf("%q: trackers %+v", trainer, tr)
		}
	}
}

// TestNeMoNoTrainerSection: a NeMo file with no trainer section whose exp_manager makes no
// logger says nothing of tracking: the Trainer's arguments, its logger among them, are set
// elsewhere.
func TestNeMoNoTrainerSection(t *testing.T) {
	p := nemoPlan(t, "model:\n  train_ds:\n    batch_size: 8\nexp_manager:\n  create_tensorboard_logger: false\n  create_wandb_logger: false\n")
	if tr := p.Tracking.Trackers; tr.Known() {
		t.Errorf("trackers %+v", tr)
	}
}
