package dialect

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

const genericInHouse = `experiment:
  name: resnet-baseline
model:
  backbone: resnet50
  sync_bn: false
train:
  batch_size: 256
  max_steps: 100000
  seed: 7
eval:
  batch_size: 128
  eval_every: 30m
  drop_remainder: true
data:
  seed: ${oc.env:RANK}
  num_workers: 0
  prefetch: 2
  shard_by_host: true
checkpoint:
  keep: 3
  save_every_steps: 5000
  checkpoint_all_hosts: true
logging:
  log_all_hosts: true
  use_wandb: true
distributed:
  num_hosts: 4
  gpus_per_node: 8
`

func TestGenericInHouse(t *testing.T) {
	d := tcgDoc(t, doc.YAML, genericInHouse)
	if got := Detect(d); got != Generic {
		t.Fatalf("Detect = %v, want generic", got.Name)
	}
	p := Generic.Normalize(d, Context{})
	if p.Framework != "generic" || p.Variant != "" {
		t.Errorf("framework %q variant %q", p.Framework, p.Variant)
	}
	wantFact(t, "train batch", p.Train.PerDeviceBatch, 256, plan.Explicit, "train.batch_size", 7)
	wantFact(t, "eval batch", p.Eval.PerDeviceBatch, 128, plan.Explicit, "eval.batch_size", 11)
	if !strings.Contains(p.Eval.PerDeviceBatch.Note, "like for like") {
		t.Errorf("eval batch note %q", p.Eval.PerDeviceBatch.Note)
	}
	wantFact(t, "max steps", p.Train.MaxSteps, 100000, plan.Explicit, "train.max_steps", 8)
	wantFact(t, "eval interval", p.Eval.Interval, plan.Interval{Value: 1800, Unit: plan.Seconds, Text: "30m"}, plan.Explicit, "eval.eval_every", 12)
	wantFact(t, "eval enabled", p.Eval.Enabled, true, plan.Derived, "", 12)
	wantFact(t, "drop last", p.Eval.DropLast, true, plan.Explicit, "eval.drop_remainder", 13)
	if s := p.Seeds.Init; s.Origin != plan.Explicit || s.Value.Value != "7" || s.Value.Varies != plan.SameOnEveryHost || factLine(s) != 9 {
		t.Errorf("init seed %+v", s)
	}
	if s := p.Seeds.Data; s.Origin != plan.Explicit || s.Value.Varies != plan.VariesByHost || !strings.Contains(s.Value.Why, "RANK") || factLine(s) != 15 {
		t.Errorf("data seed %+v", s)
	}
	wantFact(t, "workers", p.Data.Workers, 0, plan.Explicit, "data.num_workers", 16)
	wantFact(t, "prefetch", p.Data.Prefetch, 2, plan.Explicit, "data.prefetch", 17)
	wantFact(t, "sharding", p.Data.Sharding, plan.PerHostStream, plan.Explicit, "data.shard_by_host", 18)
	wantFact(t, "retention", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 3}, plan.Explicit, "checkpoint.keep", 20)
	wantFact(t, "ckpt interval", p.Ckpt.Interval, plan.Interval{Value: 5000, Unit: plan.Steps, Text: "5000"}, plan.Explicit, "checkpoint.save_every_steps", 21)
	wantFact(t, "ckpt scope", p.Ckpt.Scope, plan.EveryHost, plan.Explicit, "checkpoint.checkpoint_all_hosts", 22)
	wantFact(t, "log scope", p.Logging.Scope, plan.EveryHost, plan.Explicit, "logging.log_all_hosts", 24)
	wantFact(t, "hosts", p.Topology.Hosts, 4, plan.Explicit, "distributed.num_hosts", 27)
	wantFact(t, "devices", p.Topology.DevicesPerHost, 8, plan.Explicit, "distributed.gpus_per_node", 28)
	wantFact(t, "bn present", p.BN.Present, true, plan.Explicit, "model.backbone", 4)
	wantFact(t, "bn sync", p.BN.Sync, plan.BNSyncNone, plan.Explicit, "model.sync_bn", 5)
	if tr := p.Tracking.Trackers; len(tr.Value) != 1 || tr.Value[0] != "wandb" || factLine(tr) != 25 {
		t.Errorf("trackers %+v", tr)
	}
	wantFact(t, "run name", p.Tracking.RunName, "resnet-baseline", plan.Explicit, "experiment.name", 2)

	// The file's own hosts win over the launch context; devices too.
	p = Generic.Normalize(d, Context{Hosts: 1, DevicesPerHost: 2})
	wantFact(t, "hosts explicit", p.Topology.Hosts, 4, plan.Explicit, "", 27)
}

func TestGenericConservative(t *testing.T) {
	// Nothing a rule could misread: unknown granularity alone, eval_steps (a count elsewhere),
	// a bare "interval" outside an eval section, a "freq" under logging, "validate" (a mode
	// that only validates as often as a switch of evaluation during training).
	src := `batch_size: 32
validate: false
eval_steps: 50
interval: 100
logging:
  freq: 10
model:
  name: bert-base
  type: transformer
`
	d := tcgDoc(t, doc.YAML, src)
	p := Generic.Normalize(d, Context{})
	want := &plan.Plan{Framework: "generic"}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("generic read facts from an ambiguous file:\n%+v", p)
	}
	// Absent keys stay unknown: no defaults are assumed.
	d = tcgDoc(t, doc.YAML, "foo: 1\n")
	p = Generic.Normalize(d, Context{Hosts: 2})
	if p.Eval.Enabled.Known() || p.Data.Workers.Known() || p.Seeds.Init.Known() || p.Ckpt.Retention.Known() {
		t.Errorf("defaults assumed: %+v", p)
	}
	wantFact(t, "context hosts", p.Topology.Hosts, 2, plan.Context, "--hosts", 0)
}

func TestGenericIntervals(t *testing.T) {
	cases := []struct {
		src  string
		want plan.Interval
		key  string
	}{
		{"eval_every: 1000\n", plan.Interval{Value: 1000, Unit: plan.Steps, Text: "1000"}, "eval_every"},
		{"eval_every: 90s\n", plan.Interval{Value: 90, Unit: plan.Seconds, Text: "90s"}, "eval_every"},
		{"eval_every: 1h\n", plan.Interval{Value: 3600, Unit: plan.Seconds, Text: "1h"}, "eval_every"},
		{"eval_interval: \"1000steps\"\n", plan.Interval{Value: 1000, Unit: plan.Steps, Text: "1000steps"}, "eval_interval"},
		{"eval_interval: 2 epochs\n", plan.Interval{Value: 2, Unit: plan.Epochs, Text: "2 epochs"}, "eval_interval"},
		{"eval_interval: 5\neval_interval_unit: epoch\n", plan.Interval{Value: 5, Unit: plan.Epochs, Text: "5"}, "eval_interval"},
		{"trainer:\n  eval_every_secs: 600\n", plan.Interval{Value: 600, Unit: plan.Seconds, Text: "600"}, "trainer.eval_every_secs"},
		{"eval_interval_seconds: 120\n", plan.Interval{Value: 120, Unit: plan.Seconds, Text: "120"}, "eval_interval_seconds"},
		{"eval_throttle_secs: 60\n", plan.Interval{Value: 60, Unit: plan.Seconds, Text: "60"}, "eval_throttle_secs"},
		{"evaluation:\n  every_steps: 250\n", plan.Interval{Value: 250, Unit: plan.Steps, Text: "250"}, "evaluation.every_steps"},
		{"eval_every_minutes: 10\n", plan.Interval{Value: 600, Unit: plan.Seconds, Text: "10"}, "eval_every_minutes"},
		{"eval_every: \"00:30:00\"\n", plan.Interval{Value: 1800, Unit: plan.Seconds, Text: "00:30:00"}, "eval_every"},
		{"eval-interval: 1000\n", plan.Interval{Value: 1000, Unit: plan.Steps, Text: "1000"}, "eval-interval"},
	}
	for _, c := range cases {
		d := tcgDoc(t, doc.YAML, c.src)
		p := Generic.Normalize(d, Context{})
		wantFact(t, c.src, p.Eval.Interval, c.want, plan.Explicit, c.key, 1+strings.Count(c.key, "."))
	}
	for _, src := range []string{"eval_every: soon\n", "eval_every: ${oc.env:EVERY}\n", "eval_every: [1]\n", "eval_every: true\n"} {
		d := tcgDoc(t, doc.YAML, src)
		p := Generic.Normalize(d, Context{})
		if p.Eval.Interval.Known() || p.Eval.Interval.Node == nil {
			t.Errorf("%q: interval %+v, want unknown and located", src, p.Eval.Interval)
		}
	}
}

func TestGenericSeedsAndRetention(t *testing.T) {
	src := `seed: 42
shuffle_seed: "seed + rank"
checkpointing:
  keep_best_n: 2
  best_metric: val/acc
sampler: distributed
`
	d := tcgDoc(t, doc.YAML, src)
	p := Generic.Normalize(d, Context{})
	if s := p.Seeds.Data; s.Value.Varies != plan.VariesByHost || factLine(s) != 2 {
		t.Errorf("data seed %+v", s)
	}
	wantFact(t, "retention", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepBest, N: 2}, plan.Explicit, "checkpointing.keep_best_n", 4)
	wantFact(t, "metric", p.Ckpt.BestMetric, "val/acc", plan.Explicit, "checkpointing.best_metric", 5)
	wantFact(t, "sampler", p.Data.Sharding, plan.GlobalIndexSampler, plan.Explicit, "sampler", 6)

	d = tcgDoc(t, doc.YAML, "init_seed: 0\nmodel_seed: 3\ndata_seed: 1\nmax_to_keep: 0\n")
	p = Generic.Normalize(d, Context{})
	if s := p.Seeds.Init; s.Value.Value != "0" || s.Key != "init_seed" {
		t.Errorf("init seed %+v", s)
	}
	if s := p.Seeds.Data; s.Value.Value != "1" || s.Value.Varies != plan.SameOnEveryHost {
		t.Errorf("data seed %+v", s)
	}
	wantFact(t, "keep all", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepAll}, plan.Explicit, "max_to_keep", 4)

	d = tcgDoc(t, doc.YAML, "save_total_limit: 2\nload_best_model_at_end: true\n")
	wantFact(t, "trainer keep best", Generic.Normalize(d, Context{}).Ckpt.Retention, plan.Retention{Kind: plan.KeepBest, N: 2}, plan.Explicit, "save_total_limit", 1)
	d = tcgDoc(t, doc.YAML, "save_total_limit: 2\n")
	wantFact(t, "trainer keep latest", Generic.Normalize(d, Context{}).Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 2}, plan.Explicit, "save_total_limit", 1)
}

func TestGenericMapping(t *testing.T) {
	src := `trainer:
  eval_every_secs2: 300
  bs: 16
  ebs: 8
model:
  init_rng: ${oc.env:PROCESS_ID}
team:
  hosts_n: 2
`
	d := tcgDoc(t, doc.YAML, src)
	ctx := Context{Mapping: map[string]string{
		"eval.interval_seconds": "trainer.eval_every_secs2",
		"train.batch_size":      "trainer.bs",
		"eval.batch_size":       "trainer.ebs",
		"seed.init":             "model.init_rng",
		"hosts":                 "team.hosts_n",
		"data.workers":          "not.there",
	}}
	p := Generic.Normalize(d, ctx)
	wantFact(t, "interval", p.Eval.Interval, plan.Interval{Value: 300, Unit: plan.Seconds, Text: "300"}, plan.Explicit, "trainer.eval_every_secs2", 2)
	wantFact(t, "train", p.Train.PerDeviceBatch, 16, plan.Explicit, "trainer.bs", 3)
	wantFact(t, "eval", p.Eval.PerDeviceBatch, 8, plan.Explicit, "trainer.ebs", 4)
	wantFact(t, "hosts", p.Topology.Hosts, 2, plan.Explicit, "team.hosts_n", 8)
	if s := p.Seeds.Init; s.Value.Varies != plan.VariesByHost || factLine(s) != 6 {
		t.Errorf("seed %+v", s)
	}
	if p.Data.Workers.Known() || p.Data.Workers.Node != nil {
		t.Errorf("missing mapped key read: %+v", p.Data.Workers)
	}
}

// Every documented concept must change the plan when its key is mapped: a concept listed but not
// handled would silently do nothing.
func TestGenericMappingCoversConcepts(t *testing.T) {
	d := tcgDoc(t, doc.YAML, "x: 7\n")
	base := Generic.Normalize(d, Context{})
	for _, c := range MappingConcepts {
		if !IsMappingConcept(c) {
			t.Errorf("IsMappingConcept(%q) = false", c)
		}
		p := Generic.Normalize(d, Context{Mapping: map[string]string{c: "x"}})
		if reflect.DeepEqual(p, base) {
			t.Errorf("concept %q mapped to x changed nothing", c)
		}
	}
	if IsMappingConcept("eval.nope") {
		t.Error("unknown concept accepted")
	}
}

// The [mapping] names are the plan's concept names (Key.Concept), with a qualifier for a fixed
// unit or kind; the old names are aliases of one of them and read the same way.
func TestMappingNamesAreConcepts(t *testing.T) {
	concepts := map[string]bool{}
	for _, dl := range All() {
		for _, k := range dl.Keys {
			concepts[k.Concept] = true
		}
	}
	d := tcgDoc(t, doc.YAML, "x: 7\n")
	for _, e := range mappingTable {
		base := e.Name
		for _, q := range []string{"_seconds", "_epochs", "_best"} {
			base = strings.TrimSuffix(base, q)
		}
		if !concepts[base] {
			t.Errorf("mapping name %q: %q is no Key.Concept of any dialect", e.Name, base)
		}
		want := Generic.Normalize(d, Context{Mapping: map[string]string{e.Name: "x"}})
		for _, a := range e.Aliases {
			if got := Generic.Normalize(d, Context{Mapping: map[string]string{a: "x"}}); !reflect.DeepEqual(got, want) {
				t.Errorf("alias %q reads differently from %q", a, e.Name)
			}
		}
	}
}

func TestGenericDurations(t *testing.T) {
	for in, want := range map[string]float64{
		"30m": 1800, "1h": 3600, "90s": 90, "1h30m": 5400, "10 minutes": 600, "2 hours": 7200,
		"1d": 86400, "00:30:00": 1800, "01:00:00:00": 86400, "1.5h": 5400, "500ms": 0.5,
	} {
		if got, ok := genDurationSeconds(in); !ok || got != want {
			t.Errorf("genDurationSeconds(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "soon", "10", "-5m", "1x"} {
		if _, ok := genDurationSeconds(in); ok {
			t.Errorf("genDurationSeconds(%q) accepted", in)
		}
	}
}

func TestGenericOddShapes(t *testing.T) {
	for _, src := range []string{
		"", "null\n", "[1, 2, 3]\n", "scalar\n",
		"train: 5\neval: [1]\ndata: null\ncheckpoint: true\nlogging: {log_all_hosts: maybe}\n",
		"train:\n  batch_size: {a: 1}\neval:\n  batch_size: [2]\n",
		"seed: [1]\ndata_seed: {a: b}\nnum_workers: x\nprefetch: autotune\nkeep: null\nnum_hosts: -3\n",
		"eval_every: 99999999999999999999999999s\n",
	} {
		d := doc.Parse("x.yaml", []byte(src), doc.YAML, doc.Limits{})
		p := Generic.Normalize(d, Context{Mapping: map[string]string{"hosts": "num_hosts", "seed.init": "seed"}})
		if p == nil || p.Framework != "generic" {
			t.Fatalf("%q: plan %+v", src, p)
		}
		if p.Topology.Hosts.Known() && p.Topology.Hosts.Value <= 0 {
			t.Errorf("%q: non-positive hosts %+v", src, p.Topology.Hosts)
		}
	}
}

func TestGenericIsFallback(t *testing.T) {
	all := All()
	if all[len(all)-1] != Generic {
		t.Fatalf("All() does not end with Generic")
	}
	for _, d := range all[:len(all)-1] {
		if d == Generic {
			t.Fatalf("Generic listed twice")
		}
	}
	if Generic.Detect != nil {
		t.Errorf("Generic must not score itself")
	}
	if ByName("generic") != Generic {
		t.Errorf("ByName(generic)")
	}
	d := tcgDoc(t, doc.YAML, "foo: 1\n")
	if got := Detect(d); got != Generic {
		t.Errorf("Detect(foo: 1) = %s", got.Name)
	}
	for _, k := range Generic.Keys {
		if k.Path == "" || k.Type == "" || k.Doc == "" {
			t.Errorf("incomplete key %+v", k)
		}
	}
}

func TestGenericJSON(t *testing.T) {
	src := `{"training": {"per_device_batch_size": 16, "eval_every_steps": 500},
 "evaluation": {"per_device_eval_batch_size": 8},
 "seed": 3, "checkpoint": {"max_to_keep": 2}}`
	d := tcgDoc(t, doc.JSON, src)
	p := Generic.Normalize(d, Context{})
	wantFact(t, "train", p.Train.PerDeviceBatch, 16, plan.Explicit, "training.per_device_batch_size", 1)
	wantFact(t, "eval", p.Eval.PerDeviceBatch, 8, plan.Explicit, "evaluation.per_device_eval_batch_size", 2)
	wantFact(t, "interval", p.Eval.Interval, plan.Interval{Value: 500, Unit: plan.Steps, Text: "500"}, plan.Explicit, "training.eval_every_steps", 1)
	wantFact(t, "keep", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 2}, plan.Explicit, "checkpoint.max_to_keep", 3)
}

// TestGenericKeepUnknown: a keep count whose meaning the file does not decide is unknown, and the
// same count without that context is the most recent N.
//   - Beside an early-stopping block that names its metric: MMF's EarlyStopping saves best.ckpt
//     whenever the criteria improves and max_to_keep prunes only model_*.ckpt, so the best is not
//     lost; the generic reader cannot tell that framework from one that loses it.
//   - A limit of at least the run's epochs where the file states no save interval: the loop
//     saves once an epoch or on a better eval metric (DCRNN_PyTorch's supervisor), and deletes
//     nothing; a shorter limit, or one beside a step interval, is the most recent N.
//   - In a SpeechBrain hparams file (HyperPyYAML: !ref, !new:): the recipe script's
//     Checkpointer.save_and_keep_only(num_to_keep=..., min_keys=["loss"]) keeps the best by valid
//     loss as well as the most recent (LibriTTS/focalcodec's train_quantizer.py), or by epoch only
//     (its train_decoder.py): which, the file does not say.
//   - In an ms-swift arguments file: swift sets metric_for_best_model to "loss" when the file
//     does not, so save_total_limit's rotation keeps the best evaluated checkpoint; whether
//     evaluation runs, the file does not say.
func TestGenericKeepUnknown(t *testing.T) {
	for _, c := range []struct {
		name, src, key, plain string
		n, line               int
	}{
		{"early stopping", "training:\n  early_stop:\n    criteria: coco/ap\n    minimize: false\ncheckpoint:\n  max_to_keep: 5\n", "checkpoint.max_to_keep",
			"training:\n  early_stop:\n    enabled: true\ncheckpoint:\n  max_to_keep: 5\n", 5, 5},
		{"HyperPyYAML", "seed: 1\noutput_folder: !ref results/<seed>\nkeep_checkpoints: 2\ncheckpointer: !new:speechbrain.utils.checkpoints.Checkpointer\n  checkpoints_dir: !ref <output_folder>/save\n", "keep_checkpoints",
			"seed: 1\nkeep_checkpoints: 2\n", 2, 2},
		{"ms-swift", "model: Qwen/Qwen2.5-7B-Instruct\ntuner_type: lora\ndataset: swift/self-cognition#500\nsave_steps: 50\nsave_total_limit: 2\n", "save_total_limit",
			"model: resnet50\nsave_total_limit: 2\n", 2, 2},
		{"epochs, no save interval", "train:\n  epochs: 100\n  max_to_keep: 100\n", "train.max_to_keep",
			"train:\n  epochs: 100\n  max_to_keep: 10\n", 10, 3},
		{"accelerate loop", "model_name_or_path: allenai/tulu-2-7b\nwith_tracking: true\ncheckpointing_steps: 1000\nkeep_last_n_checkpoints: 3\n", "keep_last_n_checkpoints",
			"model_name_or_path: allenai/tulu-2-7b\nkeep_last_n_checkpoints: 3\n", 3, 2},
	} {
		p := Generic.Normalize(tcgDoc(t, doc.YAML, c.src), Context{})
		if r := p.Ckpt.Retention; r.Known() || r.Key != c.key || r.Node == nil {
			t.Errorf("%s: retention = %+v, want unknown at %s", c.name, r, c.key)
		}
		p = Generic.Normalize(tcgDoc(t, doc.YAML, c.plain), Context{})
		wantFact(t, c.name+" without it", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: c.n}, plan.Explicit, c.key, c.line)
	}
	p := Generic.Normalize(tcgDoc(t, doc.YAML, "train:\n  epochs: 100\n  save_steps: 500\n  max_to_keep: 100\n"), Context{})
	wantFact(t, "epochs and a step interval", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 100}, plan.Explicit, "train.max_to_keep", 4)
}

// FuzzTCGNormalize feeds arbitrary YAML to the torchtune, Composer and generic readers.
func FuzzTCGNormalize(f *testing.F) {
	for _, s := range []string{ttRecipe, composerPretrain, genericInHouse, "a: ${a}\n", "variables: {x: ${variables.x}}\nseed: ${x}\n", "a: [1, [2]]\nb: ${a.1.0}\nc: ${a.9}\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		d := doc.Parse("f.yaml", []byte(src), doc.YAML, doc.Limits{})
		m := map[string]string{}
		for _, c := range MappingConcepts {
			m[c] = "a.b"
		}
		for _, dl := range []*Dialect{Torchtune, Composer, Generic, Torchtitan, GPTNeoX} {
			if dl.Detect != nil {
				_ = dl.Detect(d)
			}
			_ = dl.Normalize(d, Context{Hosts: 2, DevicesPerHost: 2, Mapping: m})
		}
	})
}

func TestGenericDevices(t *testing.T) {
	d := tcgDoc(t, doc.YAML, "devices: 8\nnum_nodes: 2\n")
	p := Generic.Normalize(d, Context{})
	wantFact(t, "devices", p.Topology.DevicesPerHost, 8, plan.Explicit, "devices", 1)
	wantFact(t, "nodes", p.Topology.Hosts, 2, plan.Explicit, "num_nodes", 2)
	d = tcgDoc(t, doc.YAML, "cluster:\n  hosts: [node-a, node-b, node-c]\n")
	wantFact(t, "host list", Generic.Normalize(d, Context{}).Topology.Hosts, 3, plan.Explicit, "cluster.hosts", 2)
	d = tcgDoc(t, doc.YAML, "hosts: [1, {a: 2}]\n")
	if h := Generic.Normalize(d, Context{}).Topology.Hosts; h.Known() {
		t.Errorf("odd host list counted: %+v", h)
	}
	d = tcgDoc(t, doc.YAML, "devices: auto\n")
	p = Generic.Normalize(d, Context{DevicesPerHost: 4})
	wantFact(t, "auto devices", p.Topology.DevicesPerHost, 4, plan.Context, "--devices-per-host", 0)
}

// The documented keys are what `trainlint schema` and the framework pages are built from.
func TestTCGKeysDocumented(t *testing.T) {
	types := map[string]bool{"integer": true, "number": true, "string": true, "boolean": true, "object": true, "array": true}
	for _, dl := range []*Dialect{Torchtune, Composer, Generic, Torchtitan, GPTNeoX} {
		if dl.Version == "" || dl.Title == "" || len(dl.Formats) == 0 {
			t.Errorf("%s: version/title/formats missing", dl.Name)
		}
		seen := map[string]bool{}
		for _, k := range dl.Keys {
			if k.Path == "" || k.Doc == "" {
				t.Errorf("%s: incomplete key %+v", dl.Name, k)
			}
			for _, ty := range strings.Split(k.Type, "|") {
				if !types[ty] {
					t.Errorf("%s %s: type %q", dl.Name, k.Path, k.Type)
				}
			}
			if seen[k.Path] {
				t.Errorf("%s: key %s listed twice", dl.Name, k.Path)
			}
			seen[k.Path] = true
		}
	}
}

func TestGenericLitGPTAndLudwig(t *testing.T) {
	// LitGPT: micro batch per device, eval.interval in steps, logger_name names the tracker.
	d := tcgDoc(t, doc.YAML, `train:
  global_batch_size: 16
  micro_batch_size: 4
  save_interval: 800
eval:
  interval: 25
logger_name: csv
seed: 1337
`)
	p := Generic.Normalize(d, Context{})
	wantFact(t, "micro", p.Train.PerDeviceBatch, 4, plan.Explicit, "train.micro_batch_size", 3)
	wantFact(t, "global", p.Train.GlobalBatch, 16, plan.Explicit, "train.global_batch_size", 2)
	wantFact(t, "save", p.Ckpt.Interval, plan.Interval{Value: 800, Unit: plan.Steps, Text: "800"}, plan.Explicit, "train.save_interval", 4)
	wantFact(t, "eval", p.Eval.Interval, plan.Interval{Value: 25, Unit: plan.Steps, Text: "25"}, plan.Explicit, "eval.interval", 6)
	if tr := p.Tracking.Trackers.Value; len(tr) != 1 || tr[0] != "csv" {
		t.Errorf("trackers %v", tr)
	}
	// Ludwig: trainer.eval_steps is a count of eval batches, never an interval.
	d = tcgDoc(t, doc.YAML, "trainer:\n  batch_size: 64\n  eval_batch_size: 32\n  eval_steps: 10\n  steps_per_checkpoint: 500\n")
	p = Generic.Normalize(d, Context{})
	wantFact(t, "train", p.Train.PerDeviceBatch, 64, plan.Explicit, "trainer.batch_size", 2)
	wantFact(t, "eval batch", p.Eval.PerDeviceBatch, 32, plan.Explicit, "trainer.eval_batch_size", 3)
	wantFact(t, "ckpt", p.Ckpt.Interval, plan.Interval{Value: 500, Unit: plan.Steps, Text: "500"}, plan.Explicit, "trainer.steps_per_checkpoint", 5)
	if p.Eval.Interval.Known() {
		t.Errorf("eval_steps read as an interval: %+v", p.Eval.Interval)
	}
	// MaxText: checkpoint_period is in steps (src/maxtext/common/checkpointing.py:814 @e591f30:
	// `step % config.checkpoint_period == 0`), as detectron2's SOLVER.CHECKPOINT_PERIOD is in
	// iterations; with the step budget it tells how many checkpoints a run writes.
	d = tcgDoc(t, doc.YAML, "steps: 400\ncheckpoint_period: 50\nmax_num_checkpoints_to_keep: 10\n")
	p = Generic.Normalize(d, Context{})
	wantFact(t, "period", p.Ckpt.Interval, plan.Interval{Value: 50, Unit: plan.Steps, Text: "50"}, plan.Explicit, "checkpoint_period", 2)
}

// A hostile file with a huge map must not make the generic reader quadratic: it looks up some
// hundreds of spellings, each of which used to scan every key (15 s for 200k keys).
func TestGenericHugeMapIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	// Below a section: a top-level map of more than maxConfigKeys keys is a table, from which
	// nothing is read at all.
	var b strings.Builder
	b.WriteString("train:\n")
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&b, "  k%d: 1\n", i)
	}
	b.WriteString("  eval_every: 30m\n")
	d := tcgDoc(t, doc.YAML, b.String())
	start := time.Now()
	p := Generic.Normalize(d, Context{})
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("generic normalize took %v on 200k keys", el)
	}
	if p.Eval.Interval.Value.Value != 1800 {
		t.Errorf("interval %+v", p.Eval.Interval)
	}
}

// In-house retention spellings (MaxText, TF Object Detection, dataclass configs) keep the latest N.
func TestGenericRetentionSpellings(t *testing.T) {
	for _, c := range []struct{ src, key string }{
		{"train:\n  batch_size: 8\nmax_num_checkpoints_to_keep: 3\n", "max_num_checkpoints_to_keep"},
		{"train:\n  batch_size: 8\n  max_checkpoints_to_keep: 3\n", "train.max_checkpoints_to_keep"},
		{"checkpoint:\n  every_steps: 100\n  keep_latest: 3\n", "checkpoint.keep_latest"},
		{"checkpoint:\n  checkpoint_max_to_keep: 3\n", "checkpoint.checkpoint_max_to_keep"},
	} {
		p := Generic.Normalize(tcgDoc(t, doc.YAML, c.src), Context{})
		r := p.Ckpt.Retention
		if r.Origin != plan.Explicit || !reflect.DeepEqual(r.Value, plan.Retention{Kind: plan.KeepLatest, N: 3}) || r.Key != c.key {
			t.Errorf("%q: retention %+v", c.src, r)
		}
	}
}

// JAX trainers say "process" for a host: shard_by_process is a per-host stream.
func TestGenericShardByProcess(t *testing.T) {
	p := Generic.Normalize(tcgDoc(t, doc.YAML, "seed: 42\ndata:\n  shard_by_process: true\n  seed: 42\ntrain:\n  batch_size: 8\n"), Context{Hosts: 4})
	if s := p.Data.Sharding; s.Origin != plan.Explicit || s.Value != plan.PerHostStream || s.Key != "data.shard_by_process" {
		t.Errorf("sharding %+v", s)
	}
}

// fairseq's layout (dataset and optimization sections): a thread preloads
// dataset.data_buffer_size batches, 10 unless set, so no worker is no "nothing prefetched".
func TestGenericFairseqDataBuffer(t *testing.T) {
	src := "common:\n  log_interval: 200\ndataset:\n  num_workers: 0\n  max_tokens: 3200000\noptimization:\n  max_update: 25000\n"
	p := Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{})
	if f := p.Data.Prefetch; f.Value != 10 || f.Origin != plan.Default || f.Key != "dataset.data_buffer_size" {
		t.Errorf("default buffer: %+v", f)
	}
	p = Generic.Normalize(tcgDoc(t, doc.YAML, strings.Replace(src, "  max_tokens", "  data_buffer_size: 0\n  max_tokens", 1)), Context{})
	if f := p.Data.Prefetch; f.Value != 0 || f.Origin != plan.Explicit {
		t.Errorf("data_buffer_size 0: %+v", f)
	}
	// A run_config fragment: distributed_training and common beside dataset.
	p = Generic.Normalize(tcgDoc(t, doc.YAML, "distributed_training:\n  distributed_world_size: 1\ncommon:\n  log_interval: 1\ndataset:\n  num_workers: 0\n"), Context{})
	if f := p.Data.Prefetch; f.Value != 10 || f.Origin != plan.Default {
		t.Errorf("run_config fragment: %+v", f)
	}
	for _, other := range []string{strings.Replace(src, "optimization:", "train:", 1), strings.Replace(src, "common:", "model:", 1)} {
		if p = Generic.Normalize(tcgDoc(t, doc.YAML, other), Context{}); p.Data.Prefetch.Known() {
			t.Errorf("not fairseq's layout: %+v", p.Data.Prefetch)
		}
	}
	// data_buffer_size elsewhere (a replay buffer) is no prefetch depth.
	p = Generic.Normalize(tcgDoc(t, doc.YAML, "data:\n  num_workers: 0\n  data_buffer_size: 100000\ntrain:\n  steps: 10\n"), Context{})
	if p.Data.Prefetch.Known() {
		t.Errorf("a replay buffer: %+v", p.Data.Prefetch)
	}
}

// Loaders that prefetch from a thread whatever num_workers is: MONAI's ThreadDataLoader named
// beside the key, and Paddle's DataLoader in a repository whose code is Paddle's: it never names
// torch, or its files import paddle tenfold as often as torch (rexzhengzhihong/PaddleNLP-2.4,
// whose checkpoint-conversion scripts import torch: its machine translation configs' num_workers
// 0 got TL101). A torch repository with paddle conversion scripts is not.
func TestGenericThreadPrefetch(t *testing.T) {
	monai := "data_loader:\n  _target_: ThreadDataLoader\n  batch_size: 64\n  num_workers: 0\ntrainer:\n  _target_: SupervisedTrainer\n  max_epochs: 200\n"
	if p := Generic.Normalize(tcgDoc(t, doc.YAML, monai), Context{}); p.Data.Prefetch.Value != 1 || p.Data.Prefetch.Origin != plan.Default {
		t.Errorf("ThreadDataLoader: %+v", p.Data.Prefetch)
	}
	if p := Generic.Normalize(tcgDoc(t, doc.YAML, strings.Replace(monai, "ThreadDataLoader", "DataLoader", 1)), Context{}); p.Data.Prefetch.Known() {
		t.Errorf("DataLoader: %+v", p.Data.Prefetch)
	}
	paddle := "batch_size: 1\nnum_workers: 0\n"
	for _, c := range []struct {
		names map[string]bool
		want  bool
	}{{map[string]bool{"paddle": true, "num_workers": true, "batch_size": true}, true}, {map[string]bool{"paddle": true, "torch": true, "num_workers": true, "batch_size": true}, false}, {nil, false}} {
		if p := Generic.Normalize(tcgDoc(t, doc.YAML, paddle), Context{RepoNames: c.names}); p.Data.Prefetch.Known() != c.want {
			t.Errorf("%v: %+v", c.names, p.Data.Prefetch)
		}
	}
	both := map[string]bool{"paddle": true, "torch": true, "num_workers": true, "batch_size": true}
	for _, c := range []struct {
		imports map[string]int
		want    bool
	}{{map[string]int{"paddle": 1159, "torch": 10}, true}, {map[string]int{"paddle": 3}, true}, {map[string]int{"paddle": 46, "torch": 149}, false}, {map[string]int{"paddle": 9, "torch": 1}, false}, {map[string]int{"torch": 5}, false}} {
		if p := Generic.Normalize(tcgDoc(t, doc.YAML, paddle), Context{RepoNames: both, RepoImports: c.imports}); p.Data.Prefetch.Known() != c.want {
			t.Errorf("imports %v: %+v", c.imports, p.Data.Prefetch)
		}
	}
}

// An evaluation or inference config (an evaluator or inferer, no trainer or optimizer) trains
// nothing: no data facts; beside a trainer the same evaluator is the run's validation.
func TestGenericInferenceConfig(t *testing.T) {
	src := "dataloader:\n  _target_: DataLoader\n  batch_size: 1\n  num_workers: 0\nevaluator:\n  _target_: SupervisedEvaluator\nrun: $@evaluator.run()\n"
	if p := Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{}); p.Data.Workers.Known() {
		t.Errorf("inference config: workers %+v", p.Data.Workers)
	}
	if p := Generic.Normalize(tcgDoc(t, doc.YAML, src+"trainer:\n  _target_: SupervisedTrainer\n"), Context{}); !p.Data.Workers.Known() {
		t.Errorf("with a trainer: workers %+v", p.Data.Workers)
	}
	// A decoding config (fairseq's generation section) and a file named for inference or
	// evaluation hold no training either; the same keys in a file with a training length, or under another name, do.
	for _, tc := range []struct {
		name, src string
		trains    bool
	}{
		{"conf/s2s_decode.yaml", "generation:\n  beam: 50\ndataset:\n  gen_subset: valid\n  num_workers: 0\n", false},
		{"conf/s2s.yaml", "generation:\n  beam: 50\noptimization:\n  max_update: 100\ndataset:\n  num_workers: 0\n", true},
		{"bundle/configs/infer.yaml", "batch_size: 1\nnum_workers: 0\n", false},
		{"bundle/configs/infer.yaml", "batch_size: 1\nnum_workers: 0\nepochs: 10\n", true},
		{"bundle/configs/common.yaml", "batch_size: 1\nnum_workers: 0\n", true},
		// A file named for validation that holds no training key (klomucaj/slowfast-project's
		// slowfast_validation.yaml, read only by its validate.py) trains nothing; with a
		// learning rate or a length, a file named for evaluation still trains.
		{"configs/slowfast_validation.yaml", "MODEL:\n  ARCH: slowfast\nDATA:\n  BATCH_SIZE: 2\n  NUM_WORKERS: 0\n", false},
		{"configs/eval.yaml", "data:\n  batch_size: 2\n  num_workers: 0\n", false},
		{"configs/train_eval.yaml", "optimizer:\n  lr: 0.1\ndata:\n  num_workers: 0\n", true},
		{"configs/evaluation.yaml", "max_epochs: 10\ndata:\n  num_workers: 0\n", true},
		// A task named prediction, or an RL config's generation section, beside training keys.
		{"configs/traffic_prediction.yaml", "solver:\n  base_lr: 0.01\n  max_epochs: 10\ndata:\n  num_workers: 0\n", true},
		{"configs/grpo.yaml", "generation:\n  max_new_tokens: 256\nrl:\n  learning_rate: 1.0e-6\n  total_steps: 100\ndata:\n  num_workers: 0\n", true},
		// Zero epochs and no step budget (RecBole3.0's llmrank.yaml): no batch is ever loaded;
		// with a step budget, or epochs not an integer literal, it trains.
		{"configs/llmrank.yaml", "trainer:\n  batch_size: 32\n  dataloader_num_workers: 0\n  max_epochs: 0\n", false},
		{"configs/llmrank.yaml", "trainer:\n  batch_size: 32\n  dataloader_num_workers: 0\n  max_epochs: 0\n  max_steps: 100\n", true},
		{"configs/llmrank.yaml", "trainer:\n  batch_size: 32\n  dataloader_num_workers: 0\n  max_epochs: 0\nmax_iters: ${steps}\n", true},
		{"configs/llmrank.yaml", "trainer:\n  batch_size: 32\n  dataloader_num_workers: 0\n  max_epochs: ${n}\n", true},
	} {
		d := doc.Parse(tc.name, []byte(tc.src), doc.YAML, doc.Limits{})
		if p := Generic.Normalize(d, Context{}); p.Data.Workers.Known() != tc.trains {
			t.Errorf("%s %q: workers read %v, want %v", tc.name, tc.src, p.Data.Workers.Known(), tc.trains)
		}
	}
}

// Time-based eval intervals spelled with minutes or hours in the key.
func TestGenericEvalIntervalMinutesHours(t *testing.T) {
	for _, c := range []struct {
		src  string
		secs float64
	}{
		{"eval:\n  batch_size: 8\n  eval_every_n_minutes: 30\n", 1800},
		{"train:\n  batch_size: 8\n  eval_every_hours: 2\n", 7200},
	} {
		p := Generic.Normalize(tcgDoc(t, doc.YAML, c.src), Context{})
		if iv := p.Eval.Interval; iv.Origin != plan.Explicit || iv.Value.Unit != plan.Seconds || iv.Value.Value != c.secs {
			t.Errorf("%q: interval %+v", c.src, iv)
		}
	}
}

// TrainingArguments' names nested in a trainer block (bionemo's esm2 hydra defaults): do_eval
// false beside an eval_strategy other than "no" does not turn evaluation off, since
// TrainingArguments.__post_init__ turns do_eval back on; alone, or with "no", it does.
// MindFormers' run_mindformer.py (@fd4deeb) trains only under run_mode train or finetune: a
// predict config's do_eval says nothing of a training run.
func TestGenericDoEvalUnderEvalStrategy(t *testing.T) {
	for _, c := range []struct {
		src          string
		known, value bool
	}{
		{"trainer:\n  do_eval: false\n  eval_strategy: steps\n  eval_steps: 100\n", false, false},
		{"trainer:\n  do_eval: false\n  evaluation_strategy: epoch\n", false, false},
		{"trainer:\n  do_eval: false\n  eval_strategy: \"no\"\n", true, false},
		{"trainer:\n  do_eval: false\n", true, false},
		// MindFormers' predict configs (run_mode predict) train nothing; train or finetune ones do.
		{"run_mode: 'predict'\ntrainer:\n  type: CausalLanguageModelingTrainer\ndo_eval: False\n", false, false},
		{"run_mode: 'finetune'\ntrainer:\n  type: CausalLanguageModelingTrainer\ndo_eval: False\n", true, false},
	} {
		e := Generic.Normalize(tcgDoc(t, doc.YAML, c.src), Context{}).Eval.Enabled
		if e.Known() != c.known || c.known && e.Value != c.value {
			t.Errorf("%q: eval enabled %+v", c.src, e)
		}
	}
}

// A config switch that offsets the data seed by host makes a literal data seed vary by host.
func TestGenericDataSeedOffsetByHost(t *testing.T) {
	src := "data:\n  per_host_shards: true\n  shuffle_seed: 17\n  seed_offset_by_host: true\ntrain:\n  batch_size: 8\n"
	p := Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{Hosts: 4})
	if d := p.Seeds.Data; d.Origin != plan.Explicit || d.Value.Varies != plan.VariesByHost || d.Key != "data.shuffle_seed" {
		t.Errorf("data seed %+v", d)
	}
	src = "data:\n  per_host_shards: true\n  shuffle_seed: 17\n  seed_offset_by_host: false\n"
	if d := Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{Hosts: 4}).Seeds.Data; d.Value.Varies != plan.SameOnEveryHost {
		t.Errorf("data seed with the switch off %+v", d)
	}
}

// TestNeoXS3KeepsAll: GPT-NeoX uploads every checkpoint to s3_path and keep_last_n_checkpoints
// prunes only the local copies (megatron/checkpointing.py @ea7aefd).
func TestNeoXS3KeepsAll(t *testing.T) {
	src := "{\n  \"pipe_parallel_size\": 1,\n  \"model_parallel_size\": 1,\n  \"num_layers\": 12,\n  \"train_iters\": 1000,\n  \"keep-last-n-checkpoints\": 2,\n  \"s3_path\": \"s3://bucket/neox\"\n}\n"
	d := tcgDoc(t, doc.JSON, src)
	if got := Detect(d); got != GPTNeoX {
		t.Fatalf("detected %s", got.Name)
	}
	wantFact(t, "with s3", GPTNeoX.Normalize(d, Context{}).Ckpt.Retention, plan.Retention{Kind: plan.KeepAll}, plan.Derived, "keep-last-n-checkpoints", 6)
	d = tcgDoc(t, doc.JSON, strings.Replace(src, "\"s3_path\": \"s3://bucket/neox\"", "\"s3_path\": null", 1))
	wantFact(t, "without", GPTNeoX.Normalize(d, Context{}).Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 2}, plan.Explicit, "keep-last-n-checkpoints", 6)
}

// TestGenericKeysTheRepositoryNeverNames: a file of no known framework is read by the
// repository's own code, so a key no word of that code names is read by nothing (Amphion's
// train.keep_checkpoint_max beside the keep_last its trainers read): no fact from it. Another
// spelling the code does name still counts; with the code's words unknown, every key does.
func TestGenericKeysTheRepositoryNeverNames(t *testing.T) {
	d := tcgDoc(t, doc.YAML, "train:\n  keep_checkpoint_max: 100\n  save_steps: 500\n")
	words := map[string]bool{"train": true, "save_steps": true, "keep_last": true}
	if r := Generic.Normalize(d, Context{RepoNames: words}).Ckpt.Retention; r.Known() || r.Key != "" {
		t.Errorf("a key the code never names: retention %+v", r)
	}
	wantFact(t, "code words unknown", Generic.Normalize(d, Context{}).Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 100}, plan.Explicit, "train.keep_checkpoint_max", 2)
	d = tcgDoc(t, doc.YAML, "train:\n  keep-last: 3\n")
	wantFact(t, "a dashed key the code names", Generic.Normalize(d, Context{RepoNames: words}).Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 3}, plan.Explicit, "train.keep-last", 2)
	// A key a framework's argument classes take may be handed to them (TrainingArguments(**cfg.trainer))
	// where the code names them, or where the section names its class; a key only the
	// Trainer's classes take is read by nothing in code that builds none (SkyRL's
	// save_total_limit); another library's key still counts.
	d = tcgDoc(t, doc.YAML, "trainer:\n  save_total_limit: 5\n")
	hf := map[string]bool{"train": true, "trainingarguments": true}
	wantFact(t, "a library's key", Generic.Normalize(d, Context{RepoNames: hf}).Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 5}, plan.Explicit, "trainer.save_total_limit", 2)
	// ("trl" and "alignment" as words of a model's name and a comment; TRL imported)
	other := map[string]bool{"train": true, "trl": true, "alignment": true}
	if r := Generic.Normalize(d, Context{RepoNames: other}).Ckpt.Retention; r.Known() || r.Key != "" {
		t.Errorf("the Trainer's key in code that builds no TrainingArguments: retention %+v", r)
	}
	wantFact(t, "TRL imported", Generic.Normalize(d, Context{RepoNames: other, RepoImports: map[string]int{"trl": 1}}).Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 5}, plan.Explicit, "trainer.save_total_limit", 2)
	d = tcgDoc(t, doc.YAML, "trainer:\n  _target_: transformers.TrainingArguments\n  save_total_limit: 5\n")
	wantFact(t, "a section naming its class", Generic.Normalize(d, Context{RepoNames: words}).Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 5}, plan.Explicit, "trainer.save_total_limit", 3)
	d = tcgDoc(t, doc.YAML, "checkpoint:\n  keep_last_n_checkpoints: 2\n")
	wantFact(t, "another library's key", Generic.Normalize(d, Context{RepoNames: words}).Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 2}, plan.Explicit, "checkpoint.keep_last_n_checkpoints", 2)
	// A key the code names only to declare it (WeDLM's save_total_limit, a dataclass field its
	// trainer never reads) keeps nothing; read as an attribute or a quoted key, it counts.
	d = tcgDoc(t, doc.YAML, "save_steps: 500\nsave_total_limit: 3\n")
	declared := map[string]bool{"save_steps": true, "save_total_limit": true}
	if r := Generic.Normalize(d, Context{RepoNames: declared, RepoReads: map[string]bool{"save_steps": true}}).Ckpt.Retention; r.Known() {
		t.Errorf("a key the code declares and never reads: retention %+v", r)
	}
	wantFact(t, "a key the code reads", Generic.Normalize(d, Context{RepoNames: declared, RepoReads: map[string]bool{"save_total_limit": true}}).Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 3}, plan.Explicit, "save_total_limit", 2)
}

// TestGenericBatchPairNeedsAlikeExamples: train.batch_size and val.batch_size compare only when
// their sections state the same example size, or none (HRFormer's openseg configs train on
// 1024×512 crops and validate on 2048×1024 images: an eval example is four training ones).
func TestGenericBatchPairNeedsAlikeExamples(t *testing.T) {
	for _, tc := range []struct {
		src   string
		known bool
	}{
		{`{"train": {"batch_size": 16, "data_transformer": {"input_size": [1024, 512]}}, "val": {"batch_size": 8, "data_transformer": {"input_size": [2048, 1024]}}}`, false},
		{`{"train": {"batch_size": 16, "data_transformer": {"input_size": [512, 512]}}, "val": {"batch_size": 8}}`, false},
		{`{"train": {"batch_size": 16, "data_transformer": {"input_size": [512, 512]}}, "val": {"batch_size": 8, "data_transformer": {"input_size": [512, 512]}}}`, true},
		{`{"train": {"batch_size": 16}, "val": {"batch_size": 8}}`, true},
	} {
		p := Generic.Normalize(tcgDoc(t, doc.JSON, tc.src), Context{})
		if p.Eval.PerDeviceBatch.Known() != tc.known || p.Train.PerDeviceBatch.Known() != tc.known {
			t.Errorf("%s: eval %+v train %+v, want known %v", tc.src, p.Eval.PerDeviceBatch, p.Train.PerDeviceBatch, tc.known)
		}
	}
}

// A file whose only training-like key is num_workers (peft-sft-lab's global_meta.json, an
// analysis' record) says nothing of a training input pipeline; beside a batch size, or a
// training length under another name, it does.
func TestGenericWorkersNeedATrainingConfig(t *testing.T) {
	for src, known := range map[string]bool{
		`{"runs_root": "runs/x", "metric": "subspace", "device": "cpu", "num_workers": 0}`: false,
		`{"data": {"path": "x", "num_workers": 0}, "batch_size": 8}`:                       true,
		`{"train_iters": 1000, "train_micro_batch_size_per_gpu": 4, "num_workers": 0}`:     true,
		`{"training": {"epochs": 3}, "loader": {"num_workers": 0}}`:                        true,
		`{"policy": {"train_global_batch_size": 32}, "data": {"num_workers": 0}}`:          true,
		`{"DATASET": {"test_batch_size": 1, "num_workers": 0}, "METRIC": {"name": "x"}}`:   false,
	} {
		p := Generic.Normalize(tcgDoc(t, doc.JSON, src), Context{})
		if p.Data.Workers.Known() != known {
			t.Errorf("%s: workers read %v, want %v", src, p.Data.Workers.Known(), known)
		}
	}
}

// TestGenericGinMacrosMeanTheirBindings: a gin macro is a named value that means what the
// parameters bound to it mean (hypernerf binds eval_batch_size to EvalConfig.chunk, rays
// rendered per pass by a separate evaluation job), so the generic reader reads no setting from
// a macro's name; a configurable's binding is still read.
func TestGenericGinMacrosMeanTheirBindings(t *testing.T) {
	src := "TrainConfig.batch_size = %batch_size\nEvalConfig.chunk = %eval_batch_size\nbatch_size = 512\neval_batch_size = 8192\nseed = 3\n"
	p := Generic.Normalize(tcgDoc(t, doc.Gin, src), Context{})
	for name, known := range map[string]bool{
		"eval batch": p.Eval.PerDeviceBatch.Known() || p.Eval.GlobalBatch.Known(),
		"seed":       p.Seeds.Init.Known(),
	} {
		if known {
			t.Errorf("%s read from a macro's name", name)
		}
	}
	// the same names as a configurable's parameters are settings
	p = Generic.Normalize(tcgDoc(t, doc.Gin, "train.seed = 3\n"), Context{})
	if !p.Seeds.Init.Known() {
		t.Errorf("train.seed not read")
	}
}

// TestGenericOrbaxKeepPeriod: beside Orbax's keep_period, max_to_keep does not say which
// checkpoints are kept (a step that is a multiple of keep_period is never deleted: a MaxText
// fork's base.yml keeps every one of its checkpoints that way); without it, or with 0, the count
// keeps the latest.
func TestGenericOrbaxKeepPeriod(t *testing.T) {
	for src, latest := range map[string]bool{
		"enable_checkpointing: true\nkeep_period: 1000\ncheckpoint_period: 10_000\nmax_to_keep: 4\nper_device_batch_size: 8\n": false,
		"enable_checkpointing: true\nkeep_period: 0\ncheckpoint_period: 10_000\nmax_to_keep: 4\nper_device_batch_size: 8\n":    true,
		"enable_checkpointing: true\ncheckpoint_period: 10_000\nmax_to_keep: 4\nper_device_batch_size: 8\n":                    true,
	} {
		p := Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{})
		if got := p.Ckpt.Retention.Known() && p.Ckpt.Retention.Value.Kind == plan.KeepLatest; got != latest {
			t.Errorf("%q: latest-only %v, want %v (%+v)", src, got, latest, p.Ckpt.Retention)
		}
	}
}

// TestGenericEvalSectionThatTrains: an eval section with an epoch count or a learning rate of
// its own trains a model (SimSiam's linear probe after pre-training), so its batch_size is not an
// eval batch of the train section's run; an eval section without them is.
func TestGenericEvalSectionThatTrains(t *testing.T) {
	for src, paired := range map[string]bool{
		"train:\n  num_epochs: 800\n  batch_size: 512\neval:\n  base_lr: 30\n  batch_size: 256\n  num_epochs: 100\n": false,
		"train:\n  num_epochs: 800\n  batch_size: 512\neval:\n  batch_size: 256\n  interval: 10\n":                   true,
	} {
		p := Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{})
		if got := p.Eval.PerDeviceBatch.Known(); got != paired {
			t.Errorf("%q: eval batch read %v, want %v (%+v)", src, got, paired, p.Eval.PerDeviceBatch)
		}
	}
}

// TestGenericTrainingSwitchedOff: PySlowFast's launcher trains only when TRAIN.ENABLE is true,
// so a config of its layout that sets it False (SlowFast's AVA/c2 configs, which test converted
// checkpoints) has no training input pipeline, whatever its TRAIN section's batch size says.
func TestGenericTrainingSwitchedOff(t *testing.T) {
	const slowfast = "TRAIN:\n  ENABLE: %s\n  DATASET: ava\n  BATCH_SIZE: 16\nSOLVER:\n  MOMENTUM: 0.9\n  OPTIMIZING_METHOD: sgd\nTEST:\n  ENABLE: True\n  BATCH_SIZE: 8\nDATA_LOADER:\n  NUM_WORKERS: 0\n"
	for _, tc := range []struct {
		src    string
		trains bool
	}{
		{fmt.Sprintf(slowfast, "False"), false},
		{fmt.Sprintf(slowfast, "True"), true},
		// Only the yacs spelling of a boolean switch: a quoted string, or another program's
		// lower-case train.enable, says nothing of PySlowFast's launcher.
		{fmt.Sprintf(slowfast, `"False"`), true},
		{"train:\n  enable: false\n  batch_size: 16\ndata_loader:\n  num_workers: 0\n", true},
	} {
		d := doc.Parse("configs/AVA/c2/SLOWFAST_64x2_R101_50_50.yaml", []byte(tc.src), doc.YAML, doc.Limits{})
		if p := Generic.Normalize(d, Context{}); p.Data.Workers.Known() != tc.trains {
			t.Errorf("%q: workers read %v, want %v", tc.src, p.Data.Workers.Known(), tc.trains)
		}
	}
}

// A run's length in epochs and TrainingArguments' save_strategy "epoch" (wooseungw/panollava's
// configs pass training.num_epochs, save_strategy and save_total_limit to the Trainer): read
// where no step budget is written, since a positive max_steps overrides the epochs.
func TestGenericEpochsAndEpochSaves(t *testing.T) {
	src := "training:\n  num_epochs: 1\n  save_strategy: \"epoch\"\n  save_steps: 100\n  save_total_limit: 2\n"
	p := Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{})
	wantFact(t, "epochs", p.Train.Epochs, 1.0, plan.Explicit, "training.num_epochs", 2)
	wantFact(t, "save interval", p.Ckpt.Interval, plan.Interval{Value: 1, Unit: plan.Epochs, Text: "epoch"}, plan.Explicit, "training.save_strategy", 3)
	for _, c := range []struct {
		src   string
		known bool
	}{
		{"training:\n  num_epochs: 2.5\n", true},
		{"epochs: 3\ntrain:\n  max_steps: -1\n", true},
		{"training:\n  num_epochs: 1\n  max_steps: 100\n", false},
		{"training:\n  num_epochs: 1\n  max_steps: ${oc.env:STEPS}\n", false},
		// a list of milestones (DCRNN's learning-rate decay epochs) is no step budget
		{"train:\n  epochs: 100\n  steps: [20, 30, 40, 50]\n", true},
		{"train:\n  epochs: 100\n  steps:\n    decay: 20\n", true},
		{"training:\n  num_epochs: 1\nmax_iters: 5000\n", false},
		{"training:\n  num_epochs: \"1\"\n", false},
		{"training:\n  num_epochs: 0\n", false},
	} {
		if e := Generic.Normalize(tcgDoc(t, doc.YAML, c.src), Context{}).Train.Epochs; e.Known() != c.known {
			t.Errorf("%q: epochs %+v", c.src, e)
		}
	}
	// Another strategy leaves the interval to the keys that give it.
	p = Generic.Normalize(tcgDoc(t, doc.YAML, "training:\n  save_strategy: steps\n  save_steps: 100\n"), Context{})
	wantFact(t, "steps interval", p.Ckpt.Interval, plan.Interval{Value: 100, Unit: plan.Steps, Text: "100"}, plan.Explicit, "training.save_steps", 3)
}

// TestGenericRemoteLevanterCache: Levanter tokenizes a source's train_urls into its cache_dir
// (local "cache/" unless the file names another) before training, so remote URLs there are
// staged; the same URLs under a key of another shape are read while training. AllenNLP's
// train_data_path beside a dataset_reader is the reader's to open: unknown.
func TestGenericRemoteLevanterCache(t *testing.T) {
	for _, c := range []struct {
		src    string
		remote bool
	}{
		{"train_urls:\n  - gs://b/owt_train.{1..128}-of-128.jsonl.gz\nvalidation_urls:\n  - gs://b/owt_val.jsonl.gz\ntokenizer: gpt2\n", false},
		{"data:\n  train_urls: [\"gs://b/train.jsonl.gz\"]\n  tokenizer: gpt2\n", false},
		{"train_urls:\n  - gs://b/shard-{000..099}.tar\n", true},
		{"data:\n  train_data: gs://b/train.jsonl.gz\n  tokenizer: gpt2\n", true},
		// AllenNLP: the dataset_reader opens train_data_path, its own readers through the
		// local cache (cached_path); a reader of the project's may not, so nothing is known.
		{"dataset_reader:\n  type: text_classification_json\ntrain_data_path: s3://b/train.jsonl\n", false},
		{"train_data_path: s3://b/train.jsonl\n", true},
	} {
		p := Generic.Normalize(tcgDoc(t, doc.YAML, c.src), Context{})
		if got := p.Data.Remote.Known(); got != c.remote {
			t.Errorf("%q: remote = %v (%+v), want %v", c.src, got, p.Data.Remote, c.remote)
		}
	}
}

// TestGenericEvalEpisodes: an eval section that runs episodes (LeRobot's n_episodes) counts
// environments in its batch_size, which does not compare with the training batch; the same pair
// without episodes is read like for like.
func TestGenericEvalEpisodes(t *testing.T) {
	src := "training:\n  batch_size: 64\neval:\n  n_episodes: 50\n  batch_size: 50\n"
	p := Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{})
	if p.Eval.PerDeviceBatch.Known() || p.Eval.GlobalBatch.Known() {
		t.Errorf("episodes: eval batch %+v, want unknown", p.Eval.PerDeviceBatch)
	}
	p = Generic.Normalize(tcgDoc(t, doc.YAML, strings.Replace(src, "  n_episodes: 50\n", "", 1)), Context{})
	wantFact(t, "no episodes", p.Eval.PerDeviceBatch, 50, plan.Explicit, "eval.batch_size", 4)
	// episodes of the training section say nothing of its eval batch
	p = Generic.Normalize(tcgDoc(t, doc.YAML, "train:\n  epochs: 10\n  n_episodes: 1000\n  batch_size: 64\n  eval_batch_size: 8\n"), Context{})
	wantFact(t, "training episodes", p.Eval.PerDeviceBatch, 8, plan.Explicit, "train.eval_batch_size", 5)
}

// TestGenericPairsNotCompared: a training section with small_batch_size beside batch_size
// (PFGM's configs/poisson/*.py in Newbeeer/Poisson_flow) trains the network on a slice of each
// batch and evaluates it the same way, and USB's configs give the labelled batch as batch_size
// beside uratio, the unlabelled examples a step takes for each: either way batch_size is no
// step's batch and does not compare with the eval batch. The same pair without the key is read
// like for like.
func TestGenericPairsNotCompared(t *testing.T) {
	for _, tc := range []struct {
		format   doc.Format
		src, key string
		eval     int
		evalKey  string
		line     int
	}{
		{doc.Python, "import ml_collections\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n  config.training = training = ml_collections.ConfigDict()\n  training.batch_size = 4096\n  training.small_batch_size = 128\n  config.eval = evaluate = ml_collections.ConfigDict()\n  evaluate.batch_size = 1000\n  return config\n",
			"  training.small_batch_size = 128\n", 1000, "eval.batch_size", 8},
		{doc.YAML, "algorithm: flexmatch\nbatch_size: 16\neval_batch_size: 256\nuratio: 7\nuse_cat: True\nnum_workers: 4\n",
			"uratio: 7\n", 256, "eval_batch_size", 3},
	} {
		p := Generic.Normalize(tcgDoc(t, tc.format, tc.src), Context{})
		if p.Train.PerDeviceBatch.Known() || p.Eval.PerDeviceBatch.Known() {
			t.Errorf("%q: train %+v, eval %+v, want unknown", tc.key, p.Train.PerDeviceBatch, p.Eval.PerDeviceBatch)
		}
		p = Generic.Normalize(tcgDoc(t, tc.format, strings.Replace(tc.src, tc.key, "", 1)), Context{})
		wantFact(t, "without "+tc.key, p.Eval.PerDeviceBatch, tc.eval, plan.Explicit, tc.evalKey, tc.line)
	}
}

// TestGenericSpeechBrainLoaderOptions: a SpeechBrain recipe hands its hparams'
// dataloader_opts (train_dataloader_opts, dataloader_options) to Brain.fit as
// train_loader_kwargs, which make_dataloader passes to the DataLoader
// (speechbrain/dataio/dataloader.py:70-141 in caizexin/speechbrain_PartialFake @3cefaba), so
// its num_workers is the loader's worker count.
func TestGenericSpeechBrainLoaderOptions(t *testing.T) {
	for _, sec := range []string{"dataloader_opts", "train_dataloader_opts", "dataloader_options", "train_dataloader_options"} {
		src := "seed: 1234\nnumber_of_epochs: 200\nbatch_size: 1\n" + sec + ":\n  batch_size: !ref <batch_size>\n  num_workers: 0\n"
		p := Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{})
		wantFact(t, sec, p.Data.Workers, 0, plan.Explicit, sec+".num_workers", 6)
	}
	// A validation loader's options are not the training loader's.
	p := Generic.Normalize(tcgDoc(t, doc.YAML, "number_of_epochs: 200\nbatch_size: 1\nvalid_dataloader_opts:\n  num_workers: 0\n"), Context{})
	if p.Data.Workers.Known() {
		t.Errorf("valid_dataloader_opts: workers %+v", p.Data.Workers)
	}
}

// TestGenericEvalDuringTrain: eval_during_train false (PaddleScience's TRAIN section) turns
// periodic evaluation off, so an EVAL section's batch serves a separate evaluation job.
func TestGenericEvalDuringTrain(t *testing.T) {
	p := Generic.Normalize(tcgDoc(t, doc.YAML, "TRAIN:\n  epochs: 10\n  eval_during_train: false\n  batch_size: 8\nEVAL:\n  batch_size: 1\n"), Context{})
	wantFact(t, "eval_during_train", p.Eval.Enabled, false, plan.Explicit, "TRAIN.eval_during_train", 3)
	// G-effect's forget configs: eval_while_train false makes its TrainingArguments' strategy "no".
	p = Generic.Normalize(tcgDoc(t, doc.YAML, "batch_size: 2\neval_while_train: false\neval_batch_size: 30\n"), Context{})
	wantFact(t, "eval_while_train", p.Eval.Enabled, false, plan.Explicit, "eval_while_train", 2)
}

// TestGenericEvalStepsZero: GPT-Neo's eval_steps (beside its predict_steps) counts eval
// batches, and 0 evaluates nothing (its eval batch then serves no run); with eval_tasks, beside
// an eval strategy, or in another framework's shape, it says nothing of whether evaluation runs.
func TestGenericEvalStepsZero(t *testing.T) {
	src := "{\"train_batch_size\": 256,\n \"train_steps\": 572300,\n \"eval_steps\": 0,\n \"eval_batch_size\": 64,\n \"predict_steps\": 0}\n"
	wantFact(t, "eval_steps 0", Generic.Normalize(tcgDoc(t, doc.JSON, src), Context{}).Eval.Enabled, false, plan.Explicit, "eval_steps", 3)
	for _, src := range []string{
		"{\"train_batch_size\": 256, \"eval_steps\": 0, \"eval_tasks\": [\"lambada\"], \"eval_batch_size\": 64}\n",
		"{\"train\": {\"per_device_train_batch_size\": 8, \"eval_strategy\": \"steps\", \"eval_steps\": 0}}\n",
		"{\"train_batch_size\": 256, \"eval_steps\": 10, \"eval_batch_size\": 64}\n",
		// ROLL's eval_steps is an interval its pipeline divides the step by: not GPT-Neo's shape
		"{\"rollout_batch_size\": 64, \"eval_steps\": 0, \"validation\": {\"data_args\": {}}}\n",
	} {
		if e := Generic.Normalize(tcgDoc(t, doc.JSON, src), Context{}).Eval.Enabled; e.Known() && !e.Value {
			t.Errorf("%s: evaluation read as off: %+v", src, e)
		}
	}
}

// TestGenericMeshMicrobatches: mesh-tensorflow's tokens_per_mb_per_replica splits each train
// step into microbatches (evaluation runs whole), so the train batch is not what a pass holds
// and the eval batch is not compared with it; without the key it is.
func TestGenericMeshMicrobatches(t *testing.T) {
	src := "{\"train_batch_size\": 1024, \"eval_batch_size\": 512, \"n_ctx\": 2048%s}\n"
	p := Generic.Normalize(tcgDoc(t, doc.JSON, fmt.Sprintf(src, ", \"tokens_per_mb_per_replica\": 2048")), Context{})
	if p.Train.PerDeviceBatch.Known() || p.Eval.PerDeviceBatch.Known() {
		t.Errorf("microbatched: train %+v eval %+v", p.Train.PerDeviceBatch, p.Eval.PerDeviceBatch)
	}
	p = Generic.Normalize(tcgDoc(t, doc.JSON, fmt.Sprintf(src, "")), Context{})
	wantFact(t, "train batch", p.Train.PerDeviceBatch, 1024, plan.Explicit, "train_batch_size", 1)
}

// TestGenericRolloutWorkers: RLlib's num_workers, beside its rollout settings, counts rollout
// actors, not data-loading processes; the same count beside a batch alone is a loader's.
func TestGenericRolloutWorkers(t *testing.T) {
	src := "env: HalfCheetah-v2\nnum_workers: 0\nrollout_fragment_length: 1\ntrain_batch_size: 64\n"
	if w := Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{}).Data.Workers; w.Known() {
		t.Errorf("rollout workers read as loader workers: %+v", w)
	}
	src = "num_workers: 0\nbatch_size: 64\nepochs: 10\n"
	wantFact(t, "loader workers", Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{}).Data.Workers, 0, plan.Explicit, "num_workers", 1)
	// a diffusion config's sampling batch is no rollout setting
	src = "num_workers: 0\nbatch_size: 64\nsample_batch_size: 16\nnum_epochs: 2200\n"
	wantFact(t, "sampling batch", Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{}).Data.Workers, 0, plan.Explicit, "num_workers", 1)
}

// TestGenericOrbaxBestFn: a repository whose Python gives Orbax's CheckpointManagerOptions a
// best_fn (swirl-dynamics' run_training.py) keeps the N best by that metric, so a keep count
// of its configs is not the most recent N; without best_fn in its code it is.
func TestGenericOrbaxBestFn(t *testing.T) {
	d := tcgDoc(t, doc.YAML, "train:\n  num_train_steps: 1000\n  checkpoint_max_to_keep: 3\n")
	words := map[string]bool{"train": true, "checkpoint_max_to_keep": true, "checkpointmanageroptions": true, "best_fn": true}
	if r := Generic.Normalize(d, Context{RepoNames: words}).Ckpt.Retention; r.Known() || r.Key != "train.checkpoint_max_to_keep" {
		t.Errorf("best_fn in the code: retention %+v", r)
	}
	delete(words, "best_fn")
	wantFact(t, "no best_fn", Generic.Normalize(d, Context{RepoNames: words}).Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 3}, plan.Explicit, "train.checkpoint_max_to_keep", 3)
}

// TestGenericLAVISEvaluateOnly: a LAVIS run section with evaluate true only evaluates, so its
// loader settings describe no training; with evaluate false it trains.
func TestGenericLAVISEvaluateOnly(t *testing.T) {
	src := "model:\n  arch: gpt_dialogue\nrun:\n  task: dialogue\n  batch_size_train: 16\n  batch_size_eval: 16\n  num_workers: 0\n  evaluate: True\n  valid_splits: [\"test\"]\n"
	if w := Generic.Normalize(tcgDoc(t, doc.YAML, src), Context{}).Data.Workers; w.Known() {
		t.Errorf("evaluate-only run: workers %+v", w)
	}
	p := Generic.Normalize(tcgDoc(t, doc.YAML, strings.Replace(src, "evaluate: True", "evaluate: False", 1)), Context{})
	wantFact(t, "training run", p.Data.Workers, 0, plan.Explicit, "run.num_workers", 7)
}

// TestGenericSampleFactoryBest: Sample Factory writes a best_* checkpoint by save_best_metric
// apart from the keep_checkpoints rotation, so that count keeps the best; without the metric
// it is the most recent N.
func TestGenericSampleFactoryBest(t *testing.T) {
	src := "{\n  \"batch_size\": 16384,\n  \"train_for_env_steps\": 20000000,\n  \"keep_checkpoints\": 1,\n  \"save_best_metric\": \"avg_throughput\"\n}\n"
	p := Generic.Normalize(tcgDoc(t, doc.JSON, src), Context{})
	if r := p.Ckpt.Retention; !r.Known() || r.Value.Kind != plan.KeepBest {
		t.Errorf("save_best_metric: retention %+v", r)
	}
	p = Generic.Normalize(tcgDoc(t, doc.JSON, strings.Replace(src, ",\n  \"save_best_metric\": \"avg_throughput\"", "", 1)), Context{})
	wantFact(t, "no best metric", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 1}, plan.Explicit, "keep_checkpoints", 4)
}

// TestGenericMaxTrainingSteps: EasyDeL's max_training_steps is its step budget
// (TrainingArguments, easydel/trainers/training_configurations.py), so a run of 8 steps that
// saves every 1000 writes only its last checkpoint.
func TestGenericMaxTrainingSteps(t *testing.T) {
	p := Generic.Normalize(tcgDoc(t, doc.YAML, "trainer:\n  max_training_steps: 8\n  save_steps: 1000\n  save_total_limit: 1\n"), Context{})
	wantFact(t, "max_training_steps", p.Train.MaxSteps, 8, plan.Explicit, "trainer.max_training_steps", 2)
}

// TestGenericNotABudgetOrPair: max_time beside min_time bounds a model's time variable
// (swirl-dynamics' flow time, passed as max_train_time), not the run's length; score_sde's eval
// section with begin_ckpt configures its separate evaluation job, not the periodic one, whose
// batch is training.batch_size (datasets.py:83 @ score_sde_pytorch).
func TestGenericNotABudgetOrPair(t *testing.T) {
	p := Generic.Normalize(tcgDoc(t, doc.YAML, "num_train_steps: 1000\nmin_time: 0.0001\nmax_time: 0.9999\n"), Context{})
	if p.Train.TimeBudget.Known() {
		t.Errorf("flow time read as a budget: %+v", p.Train.TimeBudget)
	}
	p = Generic.Normalize(tcgDoc(t, doc.YAML, "num_train_steps: 1000\nmax_time: 3600\n"), Context{})
	if !p.Train.TimeBudget.Known() {
		t.Errorf("max_time alone: %+v", p.Train.TimeBudget)
	}
	// time_limit as a bare number beside an environment's settings is an RL episode's step cap
	// (seac's gym TimeLimit): no budget; written as a duration, or elsewhere (OLMo's
	// time_limit: 171000.0, seconds), it is one.
	p = Generic.Normalize(tcgDoc(t, doc.YAML, "env_name: rware-tiny-4ag-v1\ntime_limit: 500\nmax_steps: 100\n"), Context{})
	if p.Train.TimeBudget.Known() {
		t.Errorf("an episode's time_limit read as a budget: %+v", p.Train.TimeBudget)
	}
	p = Generic.Normalize(tcgDoc(t, doc.YAML, "time_limit: \"12:00:00\"\nmax_steps: 100\n"), Context{})
	if !p.Train.TimeBudget.Known() || p.Train.TimeBudget.Value.Value != 43200 {
		t.Errorf("a duration under time_limit: %+v", p.Train.TimeBudget)
	}
	p = Generic.Normalize(tcgDoc(t, doc.YAML, "run_name: test\ntime_limit: 171000.0\nmax_duration: 100\n"), Context{})
	if !p.Train.TimeBudget.Known() || p.Train.TimeBudget.Value.Value != 171000 {
		t.Errorf("OLMo's seconds under time_limit: %+v", p.Train.TimeBudget)
	}
	src := "training:\n  batch_size: 8\n  n_iters: 1000\neval:\n  batch_size: 1024\n%s"
	p = Generic.Normalize(tcgDoc(t, doc.YAML, fmt.Sprintf(src, "  begin_ckpt: 9\n  end_ckpt: 26\n")), Context{})
	if p.Eval.PerDeviceBatch.Known() || p.Train.PerDeviceBatch.Known() {
		t.Errorf("score_sde eval job paired: train %+v eval %+v", p.Train.PerDeviceBatch, p.Eval.PerDeviceBatch)
	}
	p = Generic.Normalize(tcgDoc(t, doc.YAML, fmt.Sprintf(src, "")), Context{})
	wantFact(t, "eval batch", p.Eval.PerDeviceBatch, 1024, plan.Explicit, "eval.batch_size", 5)
}
