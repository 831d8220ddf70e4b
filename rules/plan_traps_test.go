//go:build !trainlint_lite

package rules

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// Table tests of the playbook rules on hand-built plans: the false-positive traps of rules.md
// checked independently of any dialect (the archives check them through real configs).

func set[T any](v T, key string) plan.Fact[T] {
	return plan.Fact[T]{Value: v, Origin: plan.Explicit, Key: key}
}
func def[T any](v T, key, by string) plan.Fact[T] {
	return plan.Fact[T]{Value: v, Origin: plan.Default, Key: key, By: by}
}
func derived[T any](v T, key, note string) plan.Fact[T] {
	return plan.Fact[T]{Value: v, Origin: plan.Derived, Key: key, Note: note}
}
func hosts(n int) plan.Topology {
	return plan.Topology{Hosts: plan.Fact[int]{Value: n, Origin: plan.Context, Key: "--hosts"}, DevicesPerHost: set(8, "devices")}
}

// onPlan runs rule r on a tiny file whose plan is replaced by pl, and returns its findings.
func onPlan(t *testing.T, r *lint.Rule, pl *plan.Plan) []lint.Diagnostic {
	t.Helper()
	w := *r
	w.Check = func(p *lint.Pass) { p.Plan = pl; r.Check(p) }
	_, diags := lint.LintFile(lint.File{Path: "x.yaml", Text: []byte("a: 1\n")}, []*lint.Rule{&w}, lint.Options{Framework: "generic"})
	return diags
}

type trap struct {
	name string
	pl   plan.Plan
	sev  lint.Severity // 0: no finding
	msg  string        // substring of the message
}

func runTraps(t *testing.T, r *lint.Rule, traps []trap) {
	t.Helper()
	for _, c := range traps {
		t.Run(c.name, func(t *testing.T) {
			pl := c.pl
			ds := onPlan(t, r, &pl)
			if c.sev == 0 {
				if len(ds) != 0 {
					t.Fatalf("want no finding, got %s", listDiags(ds))
				}
				return
			}
			if len(ds) != 1 {
				t.Fatalf("want one finding, got %d:\n%s", len(ds), listDiags(ds))
			}
			if ds[0].Severity != c.sev || !strings.Contains(ds[0].Message, c.msg) {
				t.Errorf("got %s %q, want %s containing %q", ds[0].Severity, ds[0].Message, c.sev, c.msg)
			}
		})
	}
}

func TestInputNoPrefetchTraps(t *testing.T) {
	runTraps(t, InputNoPrefetch, []trap{
		{"workers explicit 0", plan.Plan{Framework: "huggingface", Data: plan.Data{Workers: set(0, "dataloader_num_workers")}},
			lint.Warning, "dataloader_num_workers 0 loads batches in the training process"},
		{"workers default 0 is info", plan.Plan{Framework: "huggingface", Data: plan.Data{Workers: def(0, "dataloader_num_workers", "the Trainer default")}},
			lint.Info, "dataloader_num_workers is not set: the Trainer default 0 loads batches"},
		{"workers > 0", plan.Plan{Framework: "huggingface", Data: plan.Data{Workers: set(4, "dataloader_num_workers"), Prefetch: set(0, "p")}}, 0, ""},
		{"torch prefetch without workers does not help", plan.Plan{Framework: "huggingface", Data: plan.Data{Workers: set(0, "w"), Prefetch: set(2, "pf")}},
			lint.Warning, "pf 2 has no effect without workers"},
		{"explicit prefetch with default 0 workers is a warning", plan.Plan{Framework: "huggingface", Data: plan.Data{Workers: def(0, "dataloader_num_workers", "the Trainer default"), Prefetch: set(2, "dataloader_prefetch_factor")}},
			lint.Warning, "dataloader_num_workers is not set: the Trainer default 0 loads batches in the training process, so nothing is prefetched; dataloader_prefetch_factor 2 has no effect without workers"},
		{"torchtitan is torch", plan.Plan{Framework: "torchtitan", Data: plan.Data{Workers: set(0, "w"), Prefetch: set(2, "pf")}},
			lint.Warning, "has no effect without workers"},
		{"tf.data prefetch without workers works", plan.Plan{Framework: "generic", Data: plan.Data{Workers: set(0, "w"), Prefetch: set(2, "prefetch")}}, 0, ""},
		{"prefetch explicit 0", plan.Plan{Framework: "generic", Data: plan.Data{Prefetch: set(0, "input.prefetch")}}, lint.Warning, "input.prefetch 0 turns prefetching off"},
		{"unknown", plan.Plan{Framework: "generic"}, 0, ""},
		{"negative workers are not zero", plan.Plan{Framework: "generic", Data: plan.Data{Workers: set(-1, "w")}}, 0, ""},
	})
}

func TestEvalIntervalTraps(t *testing.T) {
	iv := func(v float64, u plan.Unit, text string) plan.Fact[plan.Interval] {
		return set(plan.Interval{Value: v, Unit: u, Text: text}, "eval_interval")
	}
	runTraps(t, EvalIntervalTimeBased, []trap{
		{"seconds", plan.Plan{Eval: plan.Eval{Interval: iv(1800, plan.Seconds, "1800sec")}}, lint.Warning, `eval_interval "1800sec" schedules evaluation by wall-clock time`},
		{"seconds without text", plan.Plan{Eval: plan.Eval{Interval: iv(600, plan.Seconds, "")}}, lint.Warning, `"600s"`},
		{"epochs are step-regular", plan.Plan{Eval: plan.Eval{Interval: iv(1, plan.Epochs, "1ep")}}, 0, ""},
		{"epoch fraction", plan.Plan{Eval: plan.Eval{Interval: iv(0.25, plan.EpochFraction, "0.25")}}, 0, ""},
		{"steps", plan.Plan{Eval: plan.Eval{Interval: iv(500, plan.Steps, "500ba")}}, 0, ""},
		{"a time budget is not an interval", plan.Plan{Train: plan.Train{TimeBudget: set(plan.Interval{Value: 3600, Unit: plan.Seconds}, "max_time")}}, 0, ""},
		{"eval disabled", plan.Plan{Eval: plan.Eval{Enabled: set(false, "e"), Interval: iv(600, plan.Seconds, "600")}}, 0, ""},
	})
}

func TestEvalBatchTraps(t *testing.T) {
	runTraps(t, EvalBatchSmallerThanTrain, []trap{
		{"per device", plan.Plan{Eval: plan.Eval{PerDeviceBatch: set(4, "e")}, Train: plan.Train{PerDeviceBatch: set(16, "t")}},
			lint.Warning, "per-device eval batch 4 is smaller than per-device train batch 16"},
		{"global", plan.Plan{Eval: plan.Eval{GlobalBatch: set(64, "e")}, Train: plan.Train{GlobalBatch: set(256, "t")}},
			lint.Warning, "global eval batch 64 is smaller than global train batch 256"},
		{"never across granularities", plan.Plan{Eval: plan.Eval{PerDeviceBatch: set(16, "e")}, Train: plan.Train{GlobalBatch: set(256, "t")}}, 0, ""},
		{"accumulation never counts", plan.Plan{Eval: plan.Eval{PerDeviceBatch: set(8, "e")}, Train: plan.Train{PerDeviceBatch: set(8, "t"), GradAccum: set(16, "ga"),
			GlobalBatch: derived(1024, "t", "= t × ga × 8 devices")}}, 0, ""},
		{"per device decides before global", plan.Plan{Eval: plan.Eval{PerDeviceBatch: set(8, "e"), GlobalBatch: derived(64, "e", "")},
			Train: plan.Train{PerDeviceBatch: set(8, "t"), GlobalBatch: derived(512, "t", "with accumulation")}}, 0, ""},
		{"eval default smaller than explicit train", plan.Plan{Eval: plan.Eval{PerDeviceBatch: def(8, "per_device_eval_batch_size", "the Trainer default")},
			Train: plan.Train{PerDeviceBatch: set(32, "per_device_train_batch_size")}},
			lint.Warning, "per_device_eval_batch_size is not set: the Trainer default 8 is smaller than per_device_train_batch_size 32"},
		{"train default larger than explicit eval", plan.Plan{Eval: plan.Eval{PerDeviceBatch: set(4, "e")}, Train: plan.Train{PerDeviceBatch: def(8, "t", "the Trainer default")}},
			lint.Warning, "per-device eval batch 4 is smaller than per-device train batch 8 (t is not set: the Trainer default)"},
		{"separate eval job", plan.Plan{Eval: plan.Eval{PerDeviceBatch: set(4, "e"), Colocated: set(false, "c")}, Train: plan.Train{PerDeviceBatch: set(16, "t")}}, 0, ""},
		{"eval off", plan.Plan{Eval: plan.Eval{PerDeviceBatch: set(4, "e"), Enabled: def(false, "eval_strategy", "")}, Train: plan.Train{PerDeviceBatch: set(16, "t")}}, 0, ""},
		{"equal", plan.Plan{Eval: plan.Eval{PerDeviceBatch: set(16, "e")}, Train: plan.Train{PerDeviceBatch: set(16, "t")}}, 0, ""},
		{"unknown eval", plan.Plan{Train: plan.Train{PerDeviceBatch: set(16, "t")}}, 0, ""},
	})
}

func TestCheckpointRetentionTraps(t *testing.T) {
	ret := func(k plan.RetentionKind, n int) plan.Fact[plan.Retention] {
		return set(plan.Retention{Kind: k, N: n}, "save_total_limit")
	}
	steps := func(v float64) plan.Fact[plan.Interval] {
		return set(plan.Interval{Value: v, Unit: plan.Steps}, "save_steps")
	}
	runTraps(t, CheckpointKeepsLatestNotBest, []trap{
		{"latest N", plan.Plan{Ckpt: plan.Checkpoint{Retention: ret(plan.KeepLatest, 2)}}, lint.Warning, "keeps only the 2 most recent checkpoints"},
		{"latest 1", plan.Plan{Ckpt: plan.Checkpoint{Retention: ret(plan.KeepLatest, 1)}}, lint.Warning, "keeps only the most recent checkpoint"},
		{"keep all", plan.Plan{Ckpt: plan.Checkpoint{Retention: ret(plan.KeepAll, 0)}}, 0, ""},
		{"best N", plan.Plan{Ckpt: plan.Checkpoint{Retention: ret(plan.KeepBest, 3)}}, 0, ""},
		{"default latest is info", plan.Plan{Ckpt: plan.Checkpoint{Retention: def(plan.Retention{Kind: plan.KeepLatest, N: 1}, "save_top_k", "the Lightning default")}},
			lint.Info, "save_top_k is not set: the Lightning default 1 keeps only"},
		{"short run writes no more than N", plan.Plan{Train: plan.Train{MaxSteps: set(1000, "max_steps")},
			Ckpt: plan.Checkpoint{Retention: ret(plan.KeepLatest, 2), Interval: steps(500)}}, 0, ""},
		{"longer run deletes", plan.Plan{Train: plan.Train{MaxSteps: set(1500, "max_steps")},
			Ckpt: plan.Checkpoint{Retention: ret(plan.KeepLatest, 2), Interval: steps(500)}}, lint.Warning, "2 most recent"},
		{"checkpointing off", plan.Plan{Ckpt: plan.Checkpoint{Enabled: set(false, "save_strategy"), Retention: ret(plan.KeepLatest, 2)}}, 0, ""},
		// 250 steps saving every 100 and after the last step: 100, 200 and 250, one too many.
		{"the save after the last step counts", plan.Plan{Train: plan.Train{MaxSteps: set(250, "max_steps")},
			Ckpt: plan.Checkpoint{Retention: ret(plan.KeepLatest, 2), Interval: steps(100), AtEnd: def(true, "save_steps", "")}}, lint.Warning, "2 most recent"},
		{"a save after the last step may happen", plan.Plan{Train: plan.Train{MaxSteps: set(250, "max_steps")},
			Ckpt: plan.Checkpoint{Retention: ret(plan.KeepLatest, 2), Interval: steps(100)}}, lint.Warning, "2 most recent"},
		{"no save after the last step", plan.Plan{Train: plan.Train{MaxSteps: set(250, "max_steps")},
			Ckpt: plan.Checkpoint{Retention: ret(plan.KeepLatest, 2), Interval: steps(100), AtEnd: def(false, "save_steps", "")}}, 0, ""},
		{"the last step on a save", plan.Plan{Train: plan.Train{MaxSteps: set(200, "max_steps")},
			Ckpt: plan.Checkpoint{Retention: ret(plan.KeepLatest, 2), Interval: steps(100), AtEnd: def(true, "save_steps", "")}}, 0, ""},
		{"one epoch of epoch saves", plan.Plan{Train: plan.Train{Epochs: set(1.0, "num_epochs")},
			Ckpt: plan.Checkpoint{Retention: ret(plan.KeepLatest, 2), Interval: set(plan.Interval{Value: 1, Unit: plan.Epochs}, "save_strategy")}}, 0, ""},
		// 1.5 epochs end with a partial epoch, and its end saves too: 2 checkpoints.
		{"a partial last epoch saves", plan.Plan{Train: plan.Train{Epochs: set(1.5, "num_epochs")},
			Ckpt: plan.Checkpoint{Retention: ret(plan.KeepLatest, 1), Interval: set(plan.Interval{Value: 1, Unit: plan.Epochs}, "save_strategy")}}, lint.Warning, "most recent checkpoint"},
	})
}

func TestBNTraps(t *testing.T) {
	bn := func(present plan.Fact[bool], sync plan.Fact[plan.BNSync]) plan.BatchNorm {
		return plan.BatchNorm{Present: present, Sync: sync, Evidence: "backbone resnet50"}
	}
	yes := derived(true, "backbone", "")
	none := set(plan.BNSyncNone, "trainer.sync_batchnorm")
	one := plan.Topology{Hosts: set(1, "num_nodes"), DevicesPerHost: set(8, "devices")}
	runTraps(t, BNStatsNotSynced, []trap{
		{"unsynced on 8 devices", plan.Plan{BN: bn(yes, none), Topology: one}, lint.Warning, "leaves each of the 8 devices"},
		{"multi-host is an error", plan.Plan{BN: bn(yes, none), Topology: hosts(2)}, lint.Error, "16 devices on 2 hosts"},
		{"devices per host alone", plan.Plan{BN: bn(yes, none), Topology: plan.Topology{DevicesPerHost: set(4, "devices")}}, lint.Warning, "4 devices"},
		{"broadcast is info", plan.Plan{BN: bn(yes, set(plan.BNSyncBroadcast, "dist_bn")), Topology: one}, lint.Info, "copies the first device's"},
		// num_nodes 8 with the devices per host unread (Lightning 1.x's gpus): 8 hosts, not 8 devices
		{"broadcast over hosts alone", plan.Plan{BN: bn(yes, set(plan.BNSyncBroadcast, "sync_batchnorm")), Topology: plan.Topology{Hosts: set(8, "num_nodes")}},
			lint.Info, "statistics to every other device on the 8 hosts instead"},
		{"synced before use is fine (no per-step SyncBN needed)", plan.Plan{BN: bn(yes, set(plan.BNSyncBeforeUse, "hook")), Topology: hosts(4)}, 0, ""},
		{"per-step sync", plan.Plan{BN: bn(yes, set(plan.BNSyncPerStep, "s")), Topology: hosts(4)}, 0, ""},
		{"no evidence of BN", plan.Plan{BN: bn(plan.Fact[bool]{}, none), Topology: hosts(4)}, 0, ""},
		{"BN absent", plan.Plan{BN: bn(set(false, "norm"), none), Topology: hosts(4)}, 0, ""},
		{"one device", plan.Plan{BN: bn(yes, none), Topology: plan.Topology{Hosts: set(1, "n"), DevicesPerHost: set(1, "d")}}, 0, ""},
		{"unknown devices", plan.Plan{BN: bn(yes, none)}, 0, ""},
	})
}

func TestMultiHostTraps(t *testing.T) {
	single := plan.Topology{Hosts: set(1, "num_nodes")}
	runTraps(t, MultiHostLoggingOnAllHosts, []trap{
		{"every rank", plan.Plan{Topology: hosts(4), Logging: plan.Logging{Scope: set(plan.EveryRank, "log_all_ranks")}}, lint.Warning, "every process write metrics"},
		{"default every rank", plan.Plan{Topology: hosts(4), Logging: plan.Logging{Scope: def(plan.EveryRank, "exp_manager.log_global_rank_0_only", "the NeMo exp_manager default")}},
			lint.Warning, "is not set: with the NeMo exp_manager default every process writes"},
		{"primary", plan.Plan{Topology: hosts(4), Logging: plan.Logging{Scope: set(plan.PrimaryHost, "s")}}, 0, ""},
		{"unknown hosts", plan.Plan{Logging: plan.Logging{Scope: set(plan.EveryHost, "s")}}, 0, ""},
		{"single host", plan.Plan{Topology: single, Logging: plan.Logging{Scope: set(plan.EveryHost, "s")}}, 0, ""},
		{"console explicit is info", plan.Plan{Topology: hosts(2), Logging: plan.Logging{ConsoleScope: set(plan.EveryHost, "log_on_each_node")}}, lint.Info, "print console logs"},
		{"console default is silent", plan.Plan{Topology: hosts(2), Logging: plan.Logging{ConsoleScope: def(plan.EveryHost, "log_on_each_node", "")}}, 0, ""},
	})
	runTraps(t, MultiHostCheckpointOnAllHosts, []trap{
		{"every host", plan.Plan{Topology: hosts(2), Ckpt: plan.Checkpoint{Scope: set(plan.EveryHost, "save_on_each_node")}}, lint.Error, "every host write full checkpoints on 2 hosts"},
		{"sharded is correct", plan.Plan{Topology: hosts(2), Ckpt: plan.Checkpoint{Scope: set(plan.Sharded, "s")}}, 0, ""},
		{"unknown hosts", plan.Plan{Ckpt: plan.Checkpoint{Scope: set(plan.EveryHost, "s")}}, 0, ""},
		{"checkpointing off", plan.Plan{Topology: hosts(2), Ckpt: plan.Checkpoint{Enabled: set(false, "e"), Scope: set(plan.EveryHost, "s")}}, 0, ""},
	})
	seed := func(s plan.Seed) plan.Seeds { return plan.Seeds{Init: set(s, "seed")} }
	runTraps(t, InitSeedVariesAcrossHosts, []trap{
		{"rank-derived", plan.Plan{Topology: hosts(2), Seeds: seed(plan.Seed{Value: "${oc.env:RANK}", Varies: plan.VariesByHost, Why: "derived from RANK"})},
			lint.Error, `initialisation seed "${oc.env:RANK}" differs from process to process on 2 hosts (derived from RANK)`},
		{"no seed", plan.Plan{Topology: hosts(2), Seeds: seed(plan.Seed{Varies: plan.VariesByHost, Why: "each process draws its own"})}, lint.Error, "no initialisation seed is set"},
		{"broadcast is info", plan.Plan{Topology: hosts(2), Seeds: seed(plan.Seed{Value: "x", Varies: plan.VariesByHost, Broadcast: true})}, lint.Info, "harmless here"},
		{"pretrained is info", plan.Plan{Topology: hosts(2), Seeds: seed(plan.Seed{Value: "42", Varies: plan.VariesByHost, Pretrained: true})}, lint.Info, "pretrained weights"},
		{"same seed", plan.Plan{Topology: hosts(2), Seeds: seed(plan.Seed{Value: "42", Varies: plan.SameOnEveryHost})}, 0, ""},
		{"unknown variation", plan.Plan{Topology: hosts(2), Seeds: seed(plan.Seed{Value: "${x}"})}, 0, ""},
		{"unknown hosts", plan.Plan{Seeds: seed(plan.Seed{Value: "x", Varies: plan.VariesByHost})}, 0, ""},
	})
	data := func(sh plan.Sharding, v plan.Variation) plan.Plan {
		return plan.Plan{Topology: hosts(8), Data: plan.Data{Sharding: set(sh, "per_host_pipeline")}, Seeds: plan.Seeds{Data: set(plan.Seed{Value: "42", Varies: v}, "shuffle_seed")}}
	}
	runTraps(t, DataSeedIdenticalAcrossHosts, []trap{
		{"per-host stream, same seed", data(plan.PerHostStream, plan.SameOnEveryHost), lint.Error, `data seed "42" is the same on every host`},
		{"never for global-index samplers", data(plan.GlobalIndexSampler, plan.SameOnEveryHost), 0, ""},
		{"per-host stream, varied seed", data(plan.PerHostStream, plan.VariesByHost), 0, ""},
		{"not sharded", data(plan.NotSharded, plan.SameOnEveryHost), 0, ""},
	})
}

// Messages name whose default a fact holds from its typed provenance, never from its note.
func TestDefaultName(t *testing.T) {
	if got := defaultName(def(8, "k", "the Trainer default")); got != "the Trainer default" {
		t.Errorf("defaultName = %q", got)
	}
	f := def(8, "k", "")
	f.Note = "the Trainer default (transformers v5)" // a note is never parsed
	if got := defaultName(f); got != "the default" {
		t.Errorf("defaultName without By = %q, want \"the default\"", got)
	}
}
