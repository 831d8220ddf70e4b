package dialect

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

func parseYAMLDoc(t *testing.T, src string) *doc.Document {
	t.Helper()
	d := doc.Parse("config.yaml", []byte(strings.TrimLeft(src, "\n")), doc.YAML, doc.Limits{})
	for _, pr := range d.Problems {
		if pr.Kind == doc.Syntax {
			t.Fatalf("parse: %s", pr.Message)
		}
	}
	return d
}

func lightningPlan(t *testing.T, src string) *plan.Plan {
	t.Helper()
	d := parseYAMLDoc(t, src)
	return Lightning.Normalize(d, Context{})
}

func TestLightningValCheckIntervalSpellings(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       plan.Interval
		origin     plan.Origin
		key        string
		noteHas    string
	}{
		{"int batches", "val_check_interval: 250", plan.Interval{Value: 250, Unit: plan.Steps, Text: "250"}, plan.Explicit, "trainer.val_check_interval", ""},
		{"float fraction", "val_check_interval: 0.25", plan.Interval{Value: 0.25, Unit: plan.EpochFraction, Text: "0.25"}, plan.Explicit, "", ""},
		{"float one is an epoch", "val_check_interval: 1.0", plan.Interval{Value: 1, Unit: plan.Epochs}, plan.Explicit, "trainer.val_check_interval", ""},
		{"float one with every 3 epochs", "val_check_interval: 1.0\n  check_val_every_n_epoch: 3", plan.Interval{Value: 3, Unit: plan.Epochs}, plan.Explicit, "trainer.val_check_interval", "check_val_every_n_epoch"},
		{"whole float is batches", "val_check_interval: 300.0", plan.Interval{Value: 300, Unit: plan.Steps, Text: "300.0"}, plan.Explicit, "", ""},
		{"every 2 epochs", "check_val_every_n_epoch: 2", plan.Interval{Value: 2, Unit: plan.Epochs}, plan.Explicit, "trainer.check_val_every_n_epoch", ""},
		{"DD:HH:MM:SS quoted", `val_check_interval: "00:00:30:00"`, plan.Interval{Value: 1800, Unit: plan.Seconds, Text: "00:00:30:00"}, plan.Explicit, "trainer.val_check_interval", ""},
		{"YAML 1.1 base-60 integer", `val_check_interval: 1:00:00:00`, plan.Interval{Value: 216000, Unit: plan.Steps, Text: "1:00:00:00"}, plan.Explicit, "", "base-60 integer 216000"},
		{"quoted is a duration", `val_check_interval: "1:00:00:00"`, plan.Interval{Value: 86400, Unit: plan.Seconds, Text: "1:00:00:00"}, plan.Explicit, "", ""},
		{"int within every 2nd epoch", "val_check_interval: 50\n  check_val_every_n_epoch: 2", plan.Interval{Value: 50, Unit: plan.Steps, Text: "50"}, plan.Explicit, "", "validated every 2 epochs"},
		{"DD:HH:MM:SS plain", `val_check_interval: 01:02:03:04`, plan.Interval{Value: 93784, Unit: plan.Seconds, Text: "01:02:03:04"}, plan.Explicit, "", ""},
		{"HH:MM:SS is rejected by Lightning", `val_check_interval: "00:30:00"`, plan.Interval{Value: 1800, Unit: plan.Seconds, Text: "00:30:00"}, plan.Explicit, "", "DD:HH:MM:SS"},
		{"dict minutes", "val_check_interval:\n    minutes: 30", plan.Interval{Value: 1800, Unit: plan.Seconds, Text: "{minutes: 30}"}, plan.Explicit, "trainer.val_check_interval", ""},
		{"dict hours and minutes", "val_check_interval: {hours: 2, minutes: 30}", plan.Interval{Value: 9000, Unit: plan.Seconds, Text: "{hours: 2, minutes: 30}"}, plan.Explicit, "", ""},
		{"hydra timedelta target", "val_check_interval:\n    _target_: datetime.timedelta\n    hours: 1", plan.Interval{Value: 3600, Unit: plan.Seconds, Text: "{hours: 1}"}, plan.Explicit, "", ""},
		{"same-file reference", "limit_train_batches: 100\n  val_check_interval: ${trainer.limit_train_batches}", plan.Interval{Value: 100, Unit: plan.Steps, Text: "100"}, plan.Explicit, "trainer.val_check_interval", "= ${trainer.limit_train_batches}"},
		{"env interpolation", "val_check_interval: ${oc.env:VAL_EVERY}", plan.Interval{}, plan.Unknown, "trainer.val_check_interval", ""},
		{"mandatory", "val_check_interval: ???", plan.Interval{}, plan.Unknown, "", ""},
		{"dangling reference", "val_check_interval: ${trainer.nope}", plan.Interval{}, plan.Unknown, "", ""},
		{"wrong type list", "val_check_interval: [1, 2]", plan.Interval{}, plan.Unknown, "", ""},
		{"bool", "val_check_interval: true", plan.Interval{}, plan.Unknown, "", ""},
		{"nonsense string", "val_check_interval: often", plan.Interval{}, plan.Unknown, "", ""},
		{"float out of range", "val_check_interval: 1.5", plan.Interval{}, plan.Unknown, "", ""},
		{"null means default", "val_check_interval: null", plan.Interval{Value: 1, Unit: plan.Epochs}, plan.Default, "", ""},
		{"float with step-only validation", "val_check_interval: 0.5\n  check_val_every_n_epoch: null", plan.Interval{Value: 0.5, Unit: plan.EpochFraction, Text: "0.5"}, plan.Explicit, "", ""},
		{"absent with step-only validation", "check_val_every_n_epoch: null", plan.Interval{}, plan.Unknown, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := lightningPlan(t, "trainer:\n  "+c.yaml+"\n")
			wantFact(t, "eval interval", p.Eval.Interval, c.want, c.origin, c.key, -1)
			if c.noteHas != "" && !strings.Contains(p.Eval.Interval.Note, c.noteHas) {
				t.Errorf("note %q lacks %q", p.Eval.Interval.Note, c.noteHas)
			}
		})
	}
}

func TestLightningTopologyAndEvalEnabled(t *testing.T) {
	cases := []struct {
		yaml            string
		hosts, devices  int
		hostsK, devK    bool
		enabled, enKnow bool
	}{
		{"num_nodes: 4\n  devices: 8", 4, 8, true, true, true, true},
		{"devices: \"0,1,3\"", 0, 3, false, true, true, true},
		{"devices: \"2\"", 0, 2, false, true, true, true},
		{"devices: -1", 0, 0, false, false, true, true},
		{"devices: auto", 0, 0, false, false, true, true},
		{"num_nodes: ${oc.env:NNODES}\n  devices: ${trainer.num_nodes}", 0, 0, false, false, true, true},
		{"num_nodes: 0", 0, 0, false, false, true, true},
		{"limit_val_batches: 0", 0, 0, false, false, false, true},
		{"limit_val_batches: 0.0", 0, 0, false, false, false, true},
		{"limit_val_batches: 0.1", 0, 0, false, false, true, true},
		{"limit_val_batches: ${x.y}", 0, 0, false, false, false, false},
	}
	for _, c := range cases {
		p := lightningPlan(t, "trainer:\n  "+c.yaml+"\n")
		h, d := p.Topology.Hosts, p.Topology.DevicesPerHost
		if h.Known() != c.hostsK || (c.hostsK && h.Value != c.hosts) {
			t.Errorf("%q: hosts %+v", c.yaml, h)
		}
		if d.Known() != c.devK || (c.devK && d.Value != c.devices) {
			t.Errorf("%q: devices %+v", c.yaml, d)
		}
		if e := p.Eval.Enabled; e.Known() != c.enKnow || (c.enKnow && e.Value != c.enabled) {
			t.Errorf("%q: eval enabled %+v", c.yaml, e)
		}
	}
}

func TestLightningContextFillsTopology(t *testing.T) {
	d := parseYAMLDoc(t, "trainer:\n  devices: 8\n")
	p := Lightning.Normalize(d, Context{Hosts: 4, DevicesPerHost: 2})
	wantFact(t, "hosts", p.Topology.Hosts, 4, plan.Context, "--hosts", 0)
	// An explicit value wins over the context.
	wantFact(t, "devices", p.Topology.DevicesPerHost, 8, plan.Explicit, "trainer.devices", 2)
}

func TestLightningCheckpointRetention(t *testing.T) {
	cases := []struct {
		name, init string
		want       plan.Retention
		origin     plan.Origin
		metric     string
	}{
		{"top k with monitor", "monitor: val_acc\n        save_top_k: 3", plan.Retention{Kind: plan.KeepBest, N: 3}, plan.Explicit, "val_acc"},
		{"default k with monitor", "monitor: val_acc", plan.Retention{Kind: plan.KeepBest, N: 1}, plan.Default, "val_acc"},
		{"no monitor keeps latest", "save_top_k: 1", plan.Retention{Kind: plan.KeepLatest, N: 1}, plan.Explicit, ""},
		{"keep all", "save_top_k: -1", plan.Retention{Kind: plan.KeepAll}, plan.Explicit, ""},
		{"keep none", "save_top_k: 0", plan.Retention{Kind: plan.KeepNone}, plan.Explicit, ""},
		{"k>1 without monitor is invalid", "save_top_k: 3", plan.Retention{}, plan.Unknown, ""},
		{"interpolated k", "monitor: val_acc\n        save_top_k: ${k}", plan.Retention{}, plan.Unknown, "val_acc"},
		{"interpolated monitor", "monitor: ${m}\n        save_top_k: 2", plan.Retention{}, plan.Unknown, ""},
		// Lightning ranks by the trainer's own step and epoch when monitor names them
		// (ModelCheckpoint._monitor_candidates): the highest are the latest (fish-speech's
		// base.yaml keeps 5 of 20 so, Matcha-TTS's model_checkpoint.yaml 10 by epoch).
		{"top k by step, highest", "monitor: step\n        mode: max\n        save_top_k: 5", plan.Retention{Kind: plan.KeepLatest, N: 5}, plan.Explicit, "step"},
		{"top k by epoch, highest", "monitor: epoch\n        mode: max\n        save_top_k: 10", plan.Retention{Kind: plan.KeepLatest, N: 10}, plan.Explicit, "epoch"},
		{"top k by step, lowest", "monitor: step\n        save_top_k: 5", plan.Retention{Kind: plan.KeepBest, N: 5}, plan.Explicit, "step"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := lightningPlan(t, `
trainer:
  callbacks:
    - class_path: lightning.pytorch.callbacks.ModelCheckpoint
      init_args:
        `+c.init+"\n")
			wantFact(t, "retention", p.Ckpt.Retention, c.want, c.origin, "trainer.callbacks[0].init_args.save_top_k", -1)
			if c.metric != "" && p.Ckpt.BestMetric.Value != c.metric {
				t.Errorf("best metric %+v", p.Ckpt.BestMetric)
			}
		})
	}
}

// TestLightningCheckpointRetentionOfSeveral: FlowDock saves a "last" checkpoint without a
// monitor beside one that keeps the best by a validation metric. The monitored one decides
// which checkpoints are kept, in whichever order the callbacks come, in a CLI file and under
// Hydra; with no monitor anywhere, the first one does.
func TestLightningCheckpointRetentionOfSeveral(t *testing.T) {
	last := "    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        filename: last\n        monitor: null\n        save_top_k: 1\n"
	best := "    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        filename: best\n        monitor: val/acc\n        mode: max\n        save_top_k: 2\n"
	for _, order := range []string{last + best, best + last} {
		p := lightningPlan(t, "trainer:\n  callbacks:\n"+order)
		if r := p.Ckpt.Retention; !r.Known() || r.Value.Kind != plan.KeepBest || r.Value.N != 2 || p.Ckpt.BestMetric.Value != "val/acc" {
			t.Errorf("%s: retention %+v, metric %+v", order, r, p.Ckpt.BestMetric)
		}
	}
	hydra := "trainer:\n  max_epochs: 10\ncallbacks:\n  last:\n    _target_: lightning.pytorch.callbacks.ModelCheckpoint\n    monitor: null\n" +
		"  best:\n    _target_: lightning.pytorch.callbacks.ModelCheckpoint\n    monitor: val/loss\n    save_top_k: 3\n"
	if p := lightningPlan(t, hydra); p.Ckpt.Retention.Value.Kind != plan.KeepBest || p.Ckpt.Retention.Value.N != 3 {
		t.Errorf("hydra: retention %+v", p.Ckpt.Retention)
	}
	if p := lightningPlan(t, "trainer:\n  callbacks:\n"+last+strings.ReplaceAll(last, "last", "other")); p.Ckpt.Retention.Value.Kind != plan.KeepLatest {
		t.Errorf("no monitor: retention %+v", p.Ckpt.Retention)
	}
}

func TestLightningCheckpointInterval(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       plan.Interval
		origin     plan.Origin
	}{
		{"steps", "every_n_train_steps: 500", plan.Interval{Value: 500, Unit: plan.Steps, Text: "500"}, plan.Explicit},
		{"epochs", "every_n_epochs: 2", plan.Interval{Value: 2, Unit: plan.Epochs, Text: "2"}, plan.Explicit},
		{"time dict", "train_time_interval: {minutes: 15}", plan.Interval{Value: 900, Unit: plan.Seconds, Text: "{minutes: 15}"}, plan.Explicit},
		{"time string", "train_time_interval: \"00:01:00:00\"", plan.Interval{Value: 3600, Unit: plan.Seconds, Text: "00:01:00:00"}, plan.Explicit},
		{"default after each step-based validation", "monitor: val_loss", plan.Interval{Value: 200, Unit: plan.Steps, Text: "200"}, plan.Derived},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := lightningPlan(t, `
trainer:
  val_check_interval: 200
  callbacks:
    - class_path: lightning.pytorch.callbacks.ModelCheckpoint
      init_args:
        `+c.yaml+"\n")
			wantFact(t, "ckpt interval", p.Ckpt.Interval, c.want, c.origin, "", -1)
		})
	}
}

func TestLightningHydraShapes(t *testing.T) {
	// A full Hydra config (lightning-hydra-template experiment style).
	d := parseYAMLDoc(t, `
# @package _global_
defaults:
  - override /trainer: default
seed: 12345
trainer:
  _target_: lightning.pytorch.trainer.Trainer
  devices: 2
  val_check_interval: 0.5
callbacks:
  model_checkpoint:
    _target_: lightning.pytorch.callbacks.ModelCheckpoint
    monitor: val/acc
    mode: max
    save_top_k: 2
logger:
  wandb:
    _target_: lightning.pytorch.loggers.wandb.WandbLogger
data:
  _target_: src.data.MNISTDataModule
  batch_size: 128
  num_workers: 0
`)
	if got := Detect(d); got.Name != "lightning" {
		t.Fatalf("detected %q", got.Name)
	}
	p := Lightning.Normalize(d, Context{})
	if p.Variant != "hydra" {
		t.Errorf("variant %q", p.Variant)
	}
	wantFact(t, "eval interval", p.Eval.Interval, plan.Interval{Value: 0.5, Unit: plan.EpochFraction, Text: "0.5"}, plan.Explicit, "trainer.val_check_interval", 8)
	wantFact(t, "retention", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepBest, N: 2}, plan.Explicit, "callbacks.model_checkpoint.save_top_k", 14)
	wantFact(t, "workers", p.Data.Workers, 0, plan.Explicit, "data.num_workers", 21)
	// The template's DataModule divides batch_size by the world size: a global batch.
	wantFact(t, "global batch", p.Train.GlobalBatch, 128, plan.Explicit, "data.batch_size", 20)
	if p.Train.PerDeviceBatch.Known() {
		t.Errorf("hydra batch_size is not per device: %+v", p.Train.PerDeviceBatch)
	}
	if s := p.Seeds.Init; !s.IsExplicit() || s.Value.Value != "12345" || s.Key != "seed" {
		t.Errorf("seed %+v", s)
	}
	if tr := p.Tracking.Trackers; !tr.IsExplicit() || len(tr.Value) != 1 || tr.Value[0] != "WandbLogger" {
		t.Errorf("trackers %+v", tr)
	}

	// A trainer group file: Trainer arguments at the root, keys spelt without "trainer.".
	d = parseYAMLDoc(t, `
defaults:
  - default
strategy: ddp
accelerator: gpu
devices: 4
num_nodes: 1
sync_batchnorm: True
`)
	if got := Detect(d); got.Name != "lightning" {
		t.Fatalf("trainer group detected %q", got.Name)
	}
	p = Lightning.Normalize(d, Context{})
	wantFact(t, "bn sync", p.BN.Sync, plan.BNSyncPerStep, plan.Explicit, "sync_batchnorm", 7)
	wantFact(t, "devices", p.Topology.DevicesPerHost, 4, plan.Explicit, "devices", 5)
	wantFact(t, "eval interval", p.Eval.Interval, plan.Interval{Value: 1, Unit: plan.Epochs}, plan.Default, "val_check_interval", 0)
	// Under Hydra the callbacks and loggers live in other groups: nothing is assumed here.
	if p.Ckpt.Retention.Known() || p.Tracking.Trackers.Known() {
		t.Errorf("hydra trainer group must not assume callbacks/loggers: %+v %+v", p.Ckpt.Retention, p.Tracking.Trackers)
	}

	// A callbacks group override without _target_ (lightning-hydra-template callbacks/default.yaml).
	p = lightningPlan(t, `
defaults:
  - model_checkpoint
  - _self_
model_checkpoint:
  monitor: "val/acc"
  mode: "max"
`)
	wantFact(t, "retention", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepBest, N: 1}, plan.Default, "model_checkpoint.save_top_k", 4) // the section, at its key
	wantFact(t, "best metric", p.Ckpt.BestMetric, "val/acc", plan.Explicit, "model_checkpoint.monitor", 5)
	// The save point follows validation, whose interval this file does not know.
	wantFact(t, "ckpt interval", p.Ckpt.Interval, plan.Interval{}, plan.Unknown, "", -1)
}

func TestLightningSeeds(t *testing.T) {
	cases := []struct {
		yaml   string
		origin plan.Origin
		varies plan.Variation
	}{
		{"seed_everything: 7\ntrainer: {}", plan.Explicit, plan.SameOnEveryHost},
		{"seed_everything: true\ntrainer: {}", plan.Explicit, plan.SameOnEveryHost},
		{"seed_everything: false\ntrainer: {}", plan.Explicit, plan.VariationUnknown},
		{"seed_everything: ${oc.env:RANK}\ntrainer: {}", plan.Explicit, plan.VariesByHost},
		{"seed_everything: ${oc.env:SEED}\ntrainer: {}", plan.Unknown, plan.VariationUnknown},
		{"seed: ${oc.env:LOCAL_RANK}\ndefaults: [_self_]\ntrainer: {max_epochs: 1}", plan.Explicit, plan.VariesByHost},
		{"seed: null\ndefaults: [_self_]\ntrainer: {max_epochs: 1}", plan.Unknown, plan.VariationUnknown},
	}
	for _, c := range cases {
		p := lightningPlan(t, c.yaml)
		s := p.Seeds.Init
		if s.Origin != c.origin || (c.origin != plan.Unknown && s.Value.Varies != c.varies) {
			t.Errorf("%q: seed %+v", c.yaml, s)
		}
	}
	// DistributedSampler off: the Trainer does not shard (the note says user code may), and the
	// data seed stays unknown.
	p := lightningPlan(t, "trainer:\n  use_distributed_sampler: false\n")
	if sh := p.Data.Sharding; sh.Value != plan.NotSharded || !sh.IsExplicit() || sh.Note == "" || p.Seeds.Data.Known() {
		t.Errorf("sharding with use_distributed_sampler false: %+v", p.Data.Sharding)
	}
	// A repository whose code takes the rank for its data (Clay's sampler, get_rank) may shard
	// in its own loaders: not known.
	d := parseYAMLDoc(t, "trainer:\n  use_distributed_sampler: false\n")
	if sh := Lightning.Normalize(d, Context{RepoNames: map[string]bool{"get_rank": true}}).Data.Sharding; sh.Known() || sh.Key != "trainer.use_distributed_sampler" {
		t.Errorf("sharding beside rank-aware code: %+v", sh)
	}
}

func TestLightningOddShapesDoNotPanic(t *testing.T) {
	srcs := []string{
		"",
		"# only a comment\n",
		"[1, 2, 3]\n",
		"just a string\n",
		"trainer: null\n",
		"trainer: 5\n",
		"trainer: [a, b]\n",
		"trainer:\n  callbacks: 3\n  logger: [1, {class_path: 2}]\n  devices: {a: 1}\n  strategy: {class_path: x}\n",
		"trainer:\n  callbacks:\n    class_path: lightning.pytorch.callbacks.ModelCheckpoint\n    init_args: 7\n",
		"trainer:\n  val_check_interval: {minutes: ${m}}\n  max_time: {days: x}\n",
		"trainer:\n  val_check_interval: {bogus: 1}\n  max_time: [1]\n",
		"seed_everything: [1]\ndata: {init_args: {batch_size: '16', num_workers: [2]}}\n",
		"model_checkpoint: {save_top_k: {a: 1}, monitor: [x], every_n_epochs: -3, train_time_interval: 5}\n",
		"a: &x {b: *x}\n",
	}
	for _, s := range srcs {
		d := doc.Parse("x.yaml", []byte(s), doc.YAML, doc.Limits{})
		_ = Lightning.Detect(d)
		_ = NeMo.Detect(d)
		p := Lightning.Normalize(d, Context{Hosts: 2})
		q := NeMo.Normalize(d, Context{})
		if p == nil || q == nil || p.Framework != "lightning" || q.Framework != "nemo" {
			t.Fatalf("%q: nil or wrong plan", s)
		}
	}
	// A quoted number is a string to Lightning, so no batch size is claimed.
	p := lightningPlan(t, "data: {init_args: {batch_size: '16'}}\n")
	if p.Train.PerDeviceBatch.Known() {
		t.Errorf("quoted batch size: %+v", p.Train.PerDeviceBatch)
	}
}

func TestLightningKeysDocumented(t *testing.T) {
	for _, dl := range []*Dialect{Lightning, NeMo} {
		if len(dl.Keys) < 20 {
			t.Errorf("%s: only %d keys", dl.Name, len(dl.Keys))
		}
		seen := map[string]bool{}
		for _, k := range dl.Keys {
			if k.Path == "" || k.Type == "" || k.Concept == "" || k.Doc == "" {
				t.Errorf("%s: incomplete key %+v", dl.Name, k)
			}
			if seen[k.Path] {
				t.Errorf("%s: duplicate key %q", dl.Name, k.Path)
			}
			seen[k.Path] = true
		}
		if !strings.Contains(dl.Version, "@") {
			t.Errorf("%s: version %q names no commit", dl.Name, dl.Version)
		}
	}
}

// FuzzLightningNeMoNormalize: detection and normalisation never panic on any YAML.
func FuzzLightningNeMoNormalize(f *testing.F) {
	for _, s := range []string{
		"trainer:\n  val_check_interval: {minutes: 30}\n  devices: [0, 1]\n",
		"seed_everything: ${oc.env:RANK}\ntrainer:\n  callbacks:\n    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args: {monitor: v, save_top_k: 2}\n",
		nemoMegatron,
		"defaults: [default]\nsync_batchnorm: true\ndevices: 4\n",
		"model_checkpoint: {monitor: ${a}, save_top_k: -1, every_n_epochs: ${b}}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := doc.Parse("f.yaml", []byte(s), doc.YAML, doc.Limits{MaxBytes: 1 << 16})
		_, _ = Lightning.Detect(d), NeMo.Detect(d)
		_ = Lightning.Normalize(d, Context{Hosts: 2, DevicesPerHost: 2})
		_ = NeMo.Normalize(d, Context{})
	})
}

func TestLightningCLISubcommandSection(t *testing.T) {
	d := parseYAMLDoc(t, `
fit:
  seed_everything: 3
  trainer:
    devices: 2
    val_check_interval: {hours: 1}
  data:
    init_args:
      num_workers: 6
`)
	if got := Detect(d); got.Name != "lightning" {
		t.Fatalf("detected %q", got.Name)
	}
	p := Lightning.Normalize(d, Context{})
	wantFact(t, "eval interval", p.Eval.Interval, plan.Interval{Value: 3600, Unit: plan.Seconds, Text: "{hours: 1}"}, plan.Explicit, "fit.trainer.val_check_interval", 5)
	wantFact(t, "devices", p.Topology.DevicesPerHost, 2, plan.Explicit, "fit.trainer.devices", 4)
	wantFact(t, "workers", p.Data.Workers, 6, plan.Explicit, "fit.data.init_args.num_workers", 8)
	// strategy unset and no accelerator named: DDP on GPUs, XLAStrategy on TPUs, so unknown.
	if p.BN.Sync.Known() || p.BN.Sync.Key != "fit.trainer.sync_batchnorm" {
		t.Errorf("bn sync %+v: want unknown", p.BN.Sync)
	}
	if s := p.Seeds.Init; !s.IsExplicit() || s.Key != "fit.seed_everything" || s.Value.Value != "3" {
		t.Errorf("seed %+v", s)
	}
}

// ddpBroadcastsBuffers: which strategies copy rank 0's buffers at each step, and when that is
// not known (Lightning 2.6 accelerator_connector.py _choose_strategy, strategies/ddp.py).
func TestDDPBroadcastsBuffers(t *testing.T) {
	for _, c := range []struct {
		trainer          string
		broadcast, known bool
	}{
		{"strategy: ddp\n", true, true},
		{"strategy: ddp_find_unused_parameters_true\n", true, true},
		{"strategy: fsdp\n", false, true},
		{"strategy: deepspeed_stage_2\n", false, true},
		{"strategy: xla\n", false, true},
		{"strategy: auto\naccelerator: gpu\n", true, true},
		{"accelerator: gpu\n", true, true},
		{"accelerator: tpu\n", false, true},
		{"strategy: auto\n", false, false},
		{"devices: 8\n", false, false},
		{"accelerator: ${oc.env:ACC,gpu}\n", false, false},
		{"strategy: ${oc.env:STRATEGY,ddp}\naccelerator: gpu\n", false, false},
		{"strategy:\n  class_path: lightning.pytorch.strategies.DDPStrategy\n", true, true},
		{"strategy:\n  class_path: lightning.pytorch.strategies.DDPStrategy\n  init_args:\n    broadcast_buffers: false\n", false, true},
		{"strategy:\n  class_path: lightning.pytorch.strategies.FSDPStrategy\n", false, true},
	} {
		d := doc.Parse("t.yaml", []byte(c.trainer), doc.YAML, doc.Limits{})
		b, k := ddpBroadcastsBuffers(d.Root)
		if b != c.broadcast || k != c.known {
			t.Errorf("%q: broadcast %v known %v, want %v %v", c.trainer, b, k, c.broadcast, c.known)
		}
	}
}

// An inference server's config (a trainer, an inference section and a model to load; no
// optimizer or training data) trains nothing: no checkpoint or tracking defaults are claimed of
// it. With an optimizer it is read as a training config again.
func TestLightningInferenceConfigTrainsNothing(t *testing.T) {
	src := "trainer:\n  devices: 8\n  accelerator: gpu\n  logger: false\ninference:\n  port: 5555\nrm_model_file: null\nmodel:\n  forward_micro_batch_size: 4\n"
	wantDetected(t, "inference server", "inference_rm.yaml", doc.YAML, src, "lightning")
	p := lightningPlan(t, src)
	if p.Variant != "eval" || p.Ckpt.Retention.Known() || p.Tracking.Trackers.Known() {
		t.Errorf("variant %q, retention %+v, trackers %+v: want eval and nothing known", p.Variant, p.Ckpt.Retention, p.Tracking.Trackers)
	}
	p = lightningPlan(t, src+"optimizer:\n  class_path: torch.optim.AdamW\n")
	if p.Variant == "eval" || !p.Tracking.Trackers.Known() {
		t.Errorf("with an optimizer: variant %q, trackers %+v", p.Variant, p.Tracking.Trackers)
	}
}

// A Hydra app config named by its hydra: block alone (lightly's CLI config: no defaults list, a
// trainer section its own code passes on, with a checkpoint callback it builds itself with
// monitor="loss") gets no Trainer-added ModelCheckpoint assumed; without the block, a plain
// Trainer section does.
func TestLightningHydraBlockNoDefaultCheckpoint(t *testing.T) {
	const body = "trainer:\n  max_epochs: 100\n  precision: 32\n  enable_model_summary: true\ncheckpoint_callback:\n  save_last: true\n  save_top_k: 1\nseed: 1\n"
	for _, c := range []struct {
		name, src string
		assumed   bool
	}{
		{"hydra block", body + "hydra:\n  run:\n    dir: lightly_outputs/${now:%Y-%m-%d}\n", false},
		{"plain", body, true},
	} {
		d := parseYAMLDoc(t, c.src)
		if got := Detect(d); got.Name != "lightning" {
			t.Fatalf("%s: detected %q", c.name, got.Name)
		}
		p := Detect(d).Normalize(d, Context{})
		if got := p.Ckpt.Retention.Known(); got != c.assumed {
			t.Errorf("%s: retention known %v, want %v: %+v", c.name, got, c.assumed, p.Ckpt.Retention)
		}
	}
}

// TestLightningModelCallbacks: a module's configure_callbacks replaces the Trainer's callbacks
// of the same type, so the config's ModelCheckpoint says nothing of what runs (its scope
// stays), and its EarlyStopping nothing of early stopping.
func TestLightningModelCallbacks(t *testing.T) {
	src := "trainer:\n  max_epochs: 10\n  callbacks:\n    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        monitor: val_loss\n        save_top_k: 2\n" +
		"    - class_path: lightning.pytorch.callbacks.EarlyStopping\n      init_args:\n        monitor: val_loss\nmodel:\n  class_path: pkg.Task\n"
	d := doc.Parse("train.yaml", []byte(src), doc.YAML, doc.Limits{})
	plain := Lightning.Normalize(d, Context{})
	if !plain.Ckpt.Retention.Known() || !plain.Ckpt.EarlyStopping.Known() || !plain.Ckpt.Scope.Known() {
		t.Fatalf("the config's callbacks are not read: %+v", plain.Ckpt)
	}
	p := Lightning.Normalize(d, Context{ModelCallbacks: []string{"ModelCheckpoint"}})
	if p.Ckpt.Retention.Known() || p.Ckpt.Enabled.Known() || !p.Ckpt.EarlyStopping.Known() || !p.Ckpt.Scope.Known() {
		t.Errorf("with the module's ModelCheckpoint: %+v", p.Ckpt)
	}
	p = Lightning.Normalize(d, Context{ModelCallbacks: []string{"EarlyStopping"}})
	if !p.Ckpt.Retention.Known() || p.Ckpt.EarlyStopping.Known() {
		t.Errorf("with the module's EarlyStopping: %+v", p.Ckpt)
	}
}

// TestLightningEarlyStoppingThatCannotStop: an EarlyStopping whose patience is more than the
// validation checks the Trainer makes can never stop on a plateau (nn-template's patience 42
// over 3 epochs), nor can one whose patience is null, so they say nothing of early stopping;
// within reach, or with a threshold, an interval in batches or no epoch budget, it does. Its
// checks are the validations unless it checks at each training epoch's end.
func TestLightningEarlyStoppingThatCannotStop(t *testing.T) {
	for _, tc := range []struct {
		trainer, es string
		on          bool
	}{
		{"max_epochs: 3\n  val_check_interval: 1.0", "patience: 42", false},
		{"max_epochs: 3", "patience: 4", false},
		{"max_epochs: 10\n  check_val_every_n_epoch: 5", "patience: 11", false},
		{"max_epochs: 3", "", false}, // default patience 3: 3 checks leave wait_count at most 2
		{"max_epochs: 4", "", true},  // 4 checks: the fourth may be the third without improvement
		{"max_epochs: 3", "patience: 2", true},
		{"max_epochs: 100", "patience: 42", true},
		{"max_epochs: 10\n  val_check_interval: 0.25", "patience: 20", true}, // 40 checks
		{"max_epochs: 3\n  val_check_interval: 100", "patience: 42", true},   // batches: not known
		{"max_steps: 1000", "patience: 42", true},
		{"max_epochs: 3", "patience: 42\n        stopping_threshold: 0.1", true},
		// patience null reaches the callback as None: the first check without improvement
		// raises TypeError (ML4GW/aframe's bbh.yaml), so the run never stops early; a
		// threshold may still stop it first.
		{"max_epochs: 100", "patience: null", false},
		{"max_steps: 1000", "patience: null", false},
		{"max_epochs: 100", "patience: null\n        stopping_threshold: 0.99", true},
		// Validating every n epochs, the callback checks after validations only: anomalib's
		// reverse_distillation.yaml validates once in 200 epochs, and patience 3 never fires;
		// told to check every training epoch's end, it may.
		{"max_epochs: 200\n  check_val_every_n_epoch: 200", "patience: 3", false},
		{"max_epochs: 20\n  check_val_every_n_epoch: 5", "patience: 4", false},
		{"max_epochs: 20\n  check_val_every_n_epoch: 5", "patience: 3", true},
		{"max_epochs: 200\n  check_val_every_n_epoch: 200", "patience: 3\n        check_on_train_epoch_end: true", true},
		{"max_epochs: 200\n  check_val_every_n_epoch: 200", "patience: 3\n        check_on_train_epoch_end: false", false},
	} {
		es := "    - class_path: lightning.pytorch.callbacks.EarlyStopping\n      init_args:\n        monitor: val_loss\n"
		if tc.es != "" {
			es += "        " + tc.es + "\n"
		}
		src := "trainer:\n  " + tc.trainer + "\n  callbacks:\n" + es + "model:\n  class_path: pkg.Task\n"
		p := Lightning.Normalize(doc.Parse("train.yaml", []byte(src), doc.YAML, doc.Limits{}), Context{})
		if p.Ckpt.EarlyStopping.Known() != tc.on {
			t.Errorf("%q / %q: early stopping known %v, want %v", tc.trainer, tc.es, p.Ckpt.EarlyStopping.Known(), tc.on)
		}
	}
	// Lightning 1.4.0 to 1.4.5 checked at every training epoch's end by default: validating
	// once in 200 epochs, patience 3 may still stop the run there; not before 1.4 or from 1.4.6.
	src := "trainer:\n  max_epochs: 200\n  check_val_every_n_epoch: 200\n  callbacks:\n    - class_path: pytorch_lightning.callbacks.EarlyStopping\n      init_args:\n        monitor: val_loss\n        patience: 3\nmodel:\n  class_path: pkg.Task\n"
	for v, on := range map[string]bool{"1.4.0": true, "1.4.5": true, "1.4.6": false, "1.3.8": false} {
		p := Lightning.Normalize(doc.Parse("train.yaml", []byte(src), doc.YAML, doc.Limits{}), Context{Targets: map[string]string{"lightning": v}})
		if p.Ckpt.EarlyStopping.Known() != on {
			t.Errorf("at %s: early stopping known %v, want %v", v, p.Ckpt.EarlyStopping.Known(), on)
		}
	}
}

// TestLightningSingleSave: a one-epoch run checkpointed by epochs writes one checkpoint, so a
// callback that keeps the latest deletes nothing (cellarium-ml's one-pass runs); more epochs,
// saves by steps, or several validations an epoch keep the latest of several.
func TestLightningSingleSave(t *testing.T) {
	for _, tc := range []struct {
		src    string
		latest bool
	}{
		{"trainer:\n  max_epochs: 1\nmodel:\n  class_path: pkg.Task\n", false},
		{"trainer:\n  max_epochs: 1\n  val_check_interval: 1.0\n  callbacks:\n    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        save_top_k: 1\nmodel:\n  class_path: pkg.Task\n", false},
		{"trainer:\n  max_epochs: 2\nmodel:\n  class_path: pkg.Task\n", true},
		{"trainer:\n  max_epochs: 1\n  val_check_interval: 0.5\nmodel:\n  class_path: pkg.Task\n", true},
		{"trainer:\n  max_epochs: 1\n  callbacks:\n    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        every_n_train_steps: 100\nmodel:\n  class_path: pkg.Task\n", true},
	} {
		p := Lightning.Normalize(doc.Parse("train.yaml", []byte(tc.src), doc.YAML, doc.Limits{}), Context{})
		r := p.Ckpt.Retention
		if got := r.Known() && r.Value.Kind == plan.KeepLatest; got != tc.latest {
			t.Errorf("%q: keeps the latest %v, want %v (%+v)", tc.src, got, tc.latest, r)
		}
	}
}

// TestLightningPipelineTrainer: anomalib's tiled-ensemble pipeline configs keep the Trainer's
// arguments under TrainModels.trainer, and a root of pipeline settings beside a CLI data
// section (seed, accelerator, default_root_dir) is no Trainer: the run checkpoints through
// TrainModels.trainer, one epoch there saves once and an EarlyStopping in its callbacks checks
// once. Two epochs there may stop early.
func TestLightningPipelineTrainer(t *testing.T) {
	head := "seed: 42\naccelerator: cpu\ndefault_root_dir: results\ndata:\n  class_path: anomalib.data.MVTecAD\n  init_args:\n    category: bottle\n"
	if p := Lightning.Normalize(doc.Parse("ens_config.yaml", []byte(head+"TrainModels:\n  model:\n    class_path: Padim\n"), doc.YAML, doc.Limits{}), Context{}); p.Ckpt.Retention.Known() || p.Eval.Interval.Known() {
		t.Errorf("the pipeline's root is read as the Trainer: %+v %+v", p.Ckpt.Retention, p.Eval.Interval)
	}
	tm := head + "TrainModels:\n  model:\n    class_path: Fastflow\n  trainer:\n    max_epochs: 1\n    callbacks:\n      - class_path: lightning.pytorch.callbacks.EarlyStopping\n        init_args:\n          patience: 1\n          monitor: pixel_AUROC\n"
	for src, stops := range map[string]bool{tm: false, strings.Replace(tm, "max_epochs: 1", "max_epochs: 2", 1): true} {
		p := Lightning.Normalize(doc.Parse("dummy_config.yaml", []byte(src), doc.YAML, doc.Limits{}), Context{})
		if p.Ckpt.EarlyStopping.Known() != stops {
			t.Errorf("%q: early stopping known %v, want %v", src, p.Ckpt.EarlyStopping.Known(), stops)
		}
	}
	// A Hydra trainer group file still is the Trainer's arguments.
	if p := Lightning.Normalize(doc.Parse("trainer/default.yaml", []byte("accelerator: gpu\ndevices: 1\nmax_epochs: 10\ndefault_root_dir: out\n"), doc.YAML, doc.Limits{}), Context{}); !p.Eval.Interval.Known() {
		t.Error("a trainer group file: the Trainer is not read")
	}
}

// TestLightningPredictConfig: a CLI config with a prediction writer among its callbacks and a
// checkpoint to load is made for predict (cellarium-ml's scvi predict configs): nothing trains,
// so no checkpoint, worker or evaluation fact is read. Without the checkpoint, or without the
// writer, it is a training config.
func TestLightningPredictConfig(t *testing.T) {
	base := "trainer:\n  max_epochs: 50\n  callbacks:\n  - class_path: cellarium.ml.callbacks.PredictionWriter\n    init_args:\n      output_dir: out\nmodel:\n  class_path: pkg.Task\ndata:\n  init_args:\n    num_workers: 0\n"
	for src, trains := range map[string]bool{
		base + "ckpt_path: lightning_logs/version_0/checkpoints/last.ckpt\n": false,
		base: true,
		strings.Replace(base, "cellarium.ml.callbacks.PredictionWriter", "pkg.Logger", 1) + "ckpt_path: a.ckpt\n": true,
	} {
		p := Lightning.Normalize(doc.Parse("c.yaml", []byte(src), doc.YAML, doc.Limits{}), Context{})
		if got := p.Ckpt.Retention.Known(); got != trains {
			t.Errorf("%q: checkpoint retention read %v, want %v", src, got, trains)
		}
	}
}

// A Trainer that runs no training run: fast_dev_run on (a smoke test of a few batches, with
// checkpointing and logging suppressed) or a length of 0. lightning-hydra-template's
// debug/fdr.yaml run was told that its checkpoint callback drops the best checkpoint. Its
// start-up checks and precision are still read; an interpolated value is not taken for either.
func TestLightningTrainsNot(t *testing.T) {
	const run = "seed_everything: 1\ntrainer:\n  devices: 8\n  precision: 16-mixed\n" +
		"  strategy:\n    class_path: lightning.pytorch.strategies.DeepSpeedStrategy\n    init_args:\n      config:\n        bf16:\n          enabled: true\n" +
		"  callbacks:\n" +
		"    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        save_top_k: 1\n%s" +
		"data:\n  init_args:\n    batch_size: 32\n    num_workers: 0\n"
	for _, c := range []struct {
		trainer string
		trains  bool
	}{
		{"  fast_dev_run: true\n", false}, {"  fast_dev_run: 5\n", false}, {"  max_epochs: 0\n", false},
		{"  max_steps: 0\n", false}, {"  limit_train_batches: 0.0\n", false}, {"  limit_train_batches: 0\n", false},
		{"", true}, {"  fast_dev_run: false\n", true}, {"  fast_dev_run: 0\n", true}, {"  fast_dev_run: ${debug}\n", true},
		{"  max_epochs: 10\n", true}, {"  max_steps: -1\n", true}, {"  limit_train_batches: 0.25\n", true},
	} {
		p := lightningPlan(t, strings.Replace(run, "%s", c.trainer, 1))
		if trains := p.Ckpt.Retention.Known() || p.Data.Workers.Known() || p.Seeds.Init.Known(); trains != c.trains {
			t.Errorf("%q: read as a training run %v, want %v (retention %+v, workers %+v)", c.trainer, trains, c.trains, p.Ckpt.Retention, p.Data.Workers)
		}
		if pr := p.Precision; !pr.FP16.Value || !pr.BF16.Value {
			t.Errorf("%q: precision 16-mixed beside DeepSpeed's bf16 not read: %+v", c.trainer, pr)
		}
	}
	p := lightningPlan(t, strings.Replace(run, "%s", "  fast_dev_run: true\n  barebones: true\n", 1))
	if len(p.Rejections) == 0 {
		t.Error("fast_dev_run with barebones: the Trainer's refusal dropped")
	}
}

// TestLightningTerratorchDefaultCheckpoint: terratorch's CLI adds a ModelCheckpoint monitoring
// val/loss when trainer.callbacks has none, so a terratorch task's file keeps the best
// checkpoint; another model's gets the Trainer's own ModelCheckpoint, which keeps the latest.
func TestLightningTerratorchDefaultCheckpoint(t *testing.T) {
	const src = "trainer:\n  max_epochs: 50\n  callbacks:\n    - class_path: LearningRateMonitor\nmodel:\n  class_path: %s\n"
	p := lightningPlan(t, strings.Replace(src, "%s", "terratorch.tasks.SemanticSegmentationTask", 1))
	if r := p.Ckpt.Retention; r.Value.Kind != plan.KeepBest || r.Value.N != 1 || p.Ckpt.BestMetric.Value != "val/loss" {
		t.Errorf("terratorch: retention %+v, metric %+v", r, p.Ckpt.BestMetric)
	}
	if r := lightningPlan(t, strings.Replace(src, "%s", "my.Model", 1)).Ckpt.Retention; r.Value.Kind != plan.KeepLatest {
		t.Errorf("another model: retention %+v", r)
	}
	// A task named short (terratorch's registry: WxCTask) beside a terratorch datamodule.
	short := strings.Replace(src, "%s", "WxCTask", 1) + "data:\n  class_path: terratorch.datamodules.era5.ERA5DataModule\n"
	if r := lightningPlan(t, short).Ckpt.Retention; r.Value.Kind != plan.KeepBest {
		t.Errorf("terratorch datamodule: retention %+v", r)
	}
}

// TestLightningNoFit: a trainer section of devices, precision and a logger beside no model,
// data or callbacks (NeMo's merge_lora_weights.yaml: merge.py builds a Trainer for predict and
// save_to) runs no training: no checkpoint or tracking facts; with a model section it trains.
func TestLightningNoFit(t *testing.T) {
	src := "trainer:\n  devices: 1\n  num_nodes: 1\n  accelerator: gpu\n  logger: False\n  precision: 16\n\ngpt_model_file: null\nlora_model_path: ???\n"
	p := lightningPlan(t, src)
	if p.Ckpt.Retention.Known() || p.Tracking.Trackers.Known() || p.Ckpt.Enabled.Known() {
		t.Errorf("merge config: retention %+v, trackers %+v", p.Ckpt.Retention, p.Tracking.Trackers)
	}
	p = lightningPlan(t, src+"model:\n  class_path: m.M\n")
	if !p.Ckpt.Enabled.Known() {
		t.Errorf("with a model: checkpointing %+v", p.Ckpt.Enabled)
	}
}

// TestLightningWandbLogsEveryCheckpoint: WandbLogger(log_model="all") uploads each checkpoint as
// it is saved (eeg-ssl's SimCLR config), so a ModelCheckpoint without a monitor loses none that
// was saved; log_model true uploads only what is left at the end, and the latest-only retention
// stands. The Hydra logger group's form counts too.
func TestLightningWandbLogsEveryCheckpoint(t *testing.T) {
	const ckpt = "    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        every_n_epochs: 3\n"
	for logModel, latest := range map[string]bool{"all": false, "true": true, "false": true} {
		p := lightningPlan(t, "trainer:\n  max_epochs: 30\n  logger:\n    class_path: lightning.pytorch.loggers.WandbLogger\n    init_args:\n      project: x\n      log_model: "+logModel+"\n  callbacks:\n"+ckpt)
		if got := p.Ckpt.Retention.Known() && p.Ckpt.Retention.Value.Kind == plan.KeepLatest; got != latest {
			t.Errorf("log_model %s: latest-only %v, want %v (%+v)", logModel, got, latest, p.Ckpt.Retention)
		}
	}
	for logModel, latest := range map[string]bool{"all": false, "true": true} {
		p := lightningPlan(t, "defaults:\n  - _self_\ntrainer:\n  _target_: lightning.pytorch.Trainer\n  max_epochs: 30\n  callbacks:\n    - _target_: lightning.pytorch.callbacks.ModelCheckpoint\n      every_n_epochs: 3\n"+
			"logger:\n  wandb:\n    _target_: lightning.pytorch.loggers.wandb.WandbLogger\n    log_model: "+logModel+"\n")
		if got := p.Ckpt.Retention.Known() && p.Ckpt.Retention.Value.Kind == plan.KeepLatest; got != latest {
			t.Errorf("Hydra logger group, log_model %s: latest-only %v, want %v (%+v)", logModel, got, latest, p.Ckpt.Retention)
		}
	}
}

// TestLightningFactoryKindEntries: ml-jku/MIM-Refiner's trainer section names its own trainer
// class with `kind` and lists its callbacks as `kind` entries, for its own factories; Lightning's
// Trainer takes no `kind`, so the file is not Lightning's and no default ModelCheckpoint is
// claimed. The same section without `kind` is still a Trainer's. Callbacks written as `kind`
// entries beside Trainer arguments are built by the repository's code, which may add a
// checkpoint callback: the Trainer's default is not assumed there, and is without them.
func TestLightningFactoryKindEntries(t *testing.T) {
	const args = "  precision: bfloat16\n  max_epochs: 50\n"
	wantDetected(t, "a trainer section with a kind", "refine.yaml", doc.YAML,
		"trainer:\n  kind: classification_trainer\n"+args+"  callbacks:\n    - kind: offline_accuracy_callback\n", "generic")
	wantDetected(t, "the same Trainer arguments without a kind", "refine.yaml", doc.YAML,
		"trainer:\n"+args+"  callbacks:\n    - class_path: pkg.AccuracyCallback\n", "lightning")
	for _, c := range []struct {
		name, callbacks string
		assumed         bool
	}{
		{"no callbacks", "", true},
		{"a Lightning callback", "  callbacks:\n    - class_path: lightning.pytorch.callbacks.LearningRateMonitor\n", true},
		{"a factory's callback", "  callbacks:\n    - kind: checkpoint_callback\n      every_n_epochs: 1\n", false},
	} {
		p := lightningPlan(t, "trainer:\n"+args+c.callbacks)
		if got := p.Ckpt.Retention.Known(); got != c.assumed {
			t.Errorf("%s: retention known %v, want %v: %+v", c.name, got, c.assumed, p.Ckpt.Retention)
		}
	}
}

// TestLightningForeignTrainer: Unbabel/OpenKiwi's trainer section holds a few Trainer
// arguments (deterministic, gpus, precision) among its own schema's keys (epochs,
// main_metric, gradient_max_norm, log_interval, checkpoint), which its pydantic models read:
// not Lightning's. One key of Lightning's alone (log_every_n_steps), or fewer foreign keys
// than Trainer ones, keeps it Lightning's (a typo is unknown-key's).
func TestLightningForeignTrainer(t *testing.T) {
	const kiwi = "trainer:\n  deterministic: true\n  gpus: -1\n  epochs: 10\n  main_metric:\n    - PEARSON\n  gradient_max_norm: 1.\n  amp_level: O2\n  precision: 16\n  log_interval: 100\n  checkpoint:\n    validation_steps: 0.2\ndefaults:\n  - data: wmt20\nsystem:\n  class_name: XLM\n"
	wantDetected(t, "OpenKiwi", "xlm.yaml", doc.YAML, kiwi, "generic")
	wantDetected(t, "with a Lightning-only argument", "xlm.yaml", doc.YAML, strings.Replace(kiwi, "  log_interval: 100\n", "  log_every_n_steps: 100\n", 1), "lightning")
	wantDetected(t, "one foreign key", "xlm.yaml", doc.YAML, "trainer:\n  deterministic: true\n  gpus: 2\n  precision: 16\n  max_epochs: 3\n  epochs: 10\ndefaults:\n  - data: wmt20\n", "lightning")
	if foreignTrainer(doc.Parse("x.yaml", []byte("trainer:\n  epochs: 1\n  main_metric: x\n  log_interval: 3\n  gpus: 1\n"), doc.YAML, doc.Limits{}).Root.Get("trainer")) != true {
		t.Errorf("three foreign keys against one: not foreign")
	}
}

// TestLightningEpochSavesWaitForValidation: with check_val_every_n_epoch other than 1 and
// save_on_train_epoch_end unset, ModelCheckpoint saves only after a validation run, in an epoch
// that every_n_epochs counts (Michedev/lightning-hydra-just-template: every_n_epochs 5,
// check_val_every_n_epoch 10), so it saves every lcm(5, 10) = 10 epochs, each at a validation;
// every_n_epochs 3 saves every 30. save_on_train_epoch_end true saves at the end of every 5th
// training epoch, validated or not; false is the same as unset here.
func TestLightningEpochSavesWaitForValidation(t *testing.T) {
	cfg := func(every, cve int, soe string) string {
		s := "trainer:\n  max_epochs: 50\n  check_val_every_n_epoch: " + strconv.Itoa(cve) + "\n  callbacks:\n" +
			"    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        monitor: val/loss\n" +
			"        save_top_k: 3\n        every_n_epochs: " + strconv.Itoa(every) + "\n"
		if soe != "" {
			s += "        save_on_train_epoch_end: " + soe + "\n"
		}
		return s
	}
	for _, c := range []struct {
		every, cve int
		soe        string
		want       float64
		origin     plan.Origin
	}{
		{5, 10, "", 10, plan.Derived},
		{5, 10, "false", 10, plan.Derived},
		{3, 10, "", 30, plan.Derived},
		{20, 10, "", 20, plan.Derived},
		{5, 10, "true", 5, plan.Explicit},
		{5, 1, "", 5, plan.Explicit}, // validation every epoch: saved at the training epoch's end
	} {
		iv := lightningPlan(t, cfg(c.every, c.cve, c.soe)).Ckpt.Interval
		if !iv.Known() || iv.Value.Unit != plan.Epochs || iv.Value.Value != c.want || iv.Origin != c.origin {
			t.Errorf("every_n_epochs %d, check_val_every_n_epoch %d, save_on_train_epoch_end %q: %+v, want %v epochs (%v)",
				c.every, c.cve, c.soe, iv, c.want, c.origin)
		}
	}
	// Before 1.4.6 the automatic choice read val_check_interval alone: validation once in the
	// epochs it runs still saves at each N-th training epoch's end. Before 1.4.0 there was no
	// choice to read: the interval is unknown.
	for version, want := range map[string]float64{"1.4.6": 10, "1.4.5": 5, "1.3.8": 0} {
		iv := Lightning.Normalize(parseYAMLDoc(t, cfg(5, 10, "")), Context{Targets: map[string]string{"lightning": version}}).Ckpt.Interval
		if got := iv.Value.Value; want == 0 && iv.Known() || want != 0 && (!iv.Known() || got != want) {
			t.Errorf("Lightning %s: %+v, want %v epochs (0: unknown)", version, iv, want)
		}
	}
}

// TestLightningEvalSubsetOfAStream: limit_val_batches reads the same first batches at every
// validation, unless the config's validation loader shuffles or cycles (uni2ts' pretrain
// default.yaml: an endless stream each validation reads on from), where it is what ends a
// validation and no subset is reported.
func TestLightningEvalSubsetOfAStream(t *testing.T) {
	src := "trainer:\n  _target_: lightning.Trainer\n  max_epochs: 100\n  limit_val_batches: 100\nval_dataloader:\n  _target_: uni2ts.data.loader.DataLoader\n  batch_size: 512\n%s"
	for extra, subset := range map[string]bool{"": true, "  cycle: true\n": false, "  shuffle: true\n": false, "  cycle: false\n": true} {
		p := Lightning.Normalize(doc.Parse("default.yaml", []byte(fmt.Sprintf(src, extra)), doc.YAML, doc.Limits{}), Context{})
		if p.Eval.Subset.Known() != subset {
			t.Errorf("%q: subset %+v, want known %v", extra, p.Eval.Subset, subset)
		}
	}
}

// TestLightningInstantiatedLoader: a Hydra app that instantiates its own train_dataloader
// (uni2ts' pretrain configs) gives it num_workers: 0 is read as the loader's workers; a loader
// that does not set it, or one with no _target_, says nothing.
func TestLightningInstantiatedLoader(t *testing.T) {
	src := "trainer:\n  _target_: lightning.Trainer\n  max_epochs: 10\ntrain_dataloader:\n  _target_: uni2ts.data.loader.DataLoader\n  batch_size: 128\n%s"
	p := Lightning.Normalize(doc.Parse("sample_only.yaml", []byte(fmt.Sprintf(src, "  num_workers: 0\n")), doc.YAML, doc.Limits{}), Context{})
	wantFact(t, "workers", p.Data.Workers, 0, plan.Explicit, "train_dataloader.num_workers", 7)
	if p.Train.PerDeviceBatch.Known() || p.Train.GlobalBatch.Known() {
		t.Errorf("the app's batch_size read: %+v %+v", p.Train.PerDeviceBatch, p.Train.GlobalBatch)
	}
	for _, s := range []string{fmt.Sprintf(src, ""), strings.Replace(fmt.Sprintf(src, "  num_workers: 0\n"), "  _target_: uni2ts.data.loader.DataLoader\n", "", 1)} {
		if p := Lightning.Normalize(doc.Parse("c.yaml", []byte(s), doc.YAML, doc.Limits{}), Context{}); p.Data.Workers.Known() {
			t.Errorf("%q: workers %+v", s, p.Data.Workers)
		}
	}
}

// A Hydra data group file whose datamodule takes per-split maps (cdvae's conf/data/perov.yaml,
// DiffCSP's mp_20.yaml: CrystDataModule builds each DataLoader with batch_size=self.batch_size.train
// or .val and num_workers=self.num_workers.train, cdvae/pl_data/datamodule.py:99-117 @txie-93/cdvae
// HEAD): the train split's workers, and the train and val batches compared like for like.
func TestLightningSplitMapDataModule(t *testing.T) {
	src := "root_path: data/perov_5\ntrain_max_epochs: 3000\nearly_stopping_patience: 100000\n" +
		"datamodule:\n  _target_: cdvae.pl_data.datamodule.CrystDataModule\n  datasets:\n    train:\n      _target_: cdvae.pl_data.dataset.CrystDataset\n" +
		"  num_workers:\n    train: 0\n    val: 0\n    test: 0\n  batch_size:\n    train: 512\n    val: 256\n    test: 256\n"
	d := doc.Parse("conf/data/perov.yaml", []byte(src), doc.YAML, doc.Limits{})
	p := Lightning.Normalize(d, Context{})
	wantFact(t, "workers", p.Data.Workers, 0, plan.Explicit, "datamodule.num_workers.train", 10)
	wantFact(t, "train batch", p.Train.PerDeviceBatch, 512, plan.Explicit, "datamodule.batch_size.train", 14)
	wantFact(t, "eval batch", p.Eval.PerDeviceBatch, 256, plan.Explicit, "datamodule.batch_size.val", 15)
	if p.Train.Granularity != plan.Unstated || p.Eval.Granularity != plan.Unstated {
		t.Errorf("a split map does not say per device: %q %q", p.Train.Granularity, p.Eval.Granularity)
	}
	// Composed, the group's keys lie under data (the primary's `- data: perov`).
	d = doc.Parse("conf/default.yaml", []byte("data:\n  "+strings.ReplaceAll(strings.TrimSuffix(src, "\n"), "\n", "\n  ")+"\n"), doc.YAML, doc.Limits{})
	p = Lightning.Normalize(d, Context{})
	wantFact(t, "composed eval batch", p.Eval.PerDeviceBatch, 256, plan.Explicit, "data.datamodule.batch_size.val", 16)
	// A scalar batch_size beside a split map of workers: the batch is read as before.
	d = doc.Parse("conf/data/x.yaml", []byte(strings.Replace(src, "  batch_size:\n    train: 512\n    val: 256\n    test: 256\n", "  batch_size: 64\n", 1)), doc.YAML, doc.Limits{})
	p = Lightning.Normalize(d, Context{})
	if p.Eval.PerDeviceBatch.Known() || !p.Data.Workers.Known() {
		t.Errorf("no eval batch is written, the train workers are: %+v %+v", p.Eval.PerDeviceBatch, p.Data.Workers)
	}
	if b := p.Train.GlobalBatch; !b.Known() && !p.Train.PerDeviceBatch.Known() {
		t.Errorf("the scalar batch_size is still read: %+v %+v", b, p.Train.PerDeviceBatch)
	}
}

// logger: false beside a callback that reports to a tracker itself (lighter's LighterLogger
// with wandb: True calls wandb.init and wandb.log, lighter/callbacks/logger.py @8411b19; a
// callback whose class names W&B or MLflow) does not say the run is untracked: unknown. A
// callback that logs through the trainer's loggers (CompVis' ImageLogger) leaves it untracked.
func TestLightningTrackingCallback(t *testing.T) {
	const src = "trainer:\n  _target_: pytorch_lightning.Trainer\n  max_epochs: 100\n  logger: False\n  callbacks:\n%s"
	for cb, known := range map[string]bool{
		"    - _target_: lighter.callbacks.LighterLogger\n      project: fmcib\n      wandb: True\n": false,
		"    - _target_: mypkg.callbacks.WandbImageCallback\n":                                       false,
		"    - class_path: mypkg.MLflowModelLogger\n":                                                false,
		"    - _target_: main.ImageLogger\n      batch_frequency: 500\n":                             true,
		"    - _target_: lighter.callbacks.LighterLogger\n      wandb: False\n":                      true,
	} {
		p := Lightning.Normalize(parseYAMLDoc(t, fmt.Sprintf(src, cb)), Context{})
		if got := p.Tracking.Trackers.Known(); got != known {
			t.Errorf("%q: trackers known %v, want %v (%+v)", cb, got, known, p.Tracking.Trackers)
		}
	}
}
