package dialect

import (
	"reflect"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

const composerPretrain = `variables:
  data_local: ./my-copy-c4
  max_seq_len: 2048
  global_seed: 17
  run_name:  # blank: read from $RUN_NAME
max_seq_len: ${variables.max_seq_len}
run_name: ${variables.run_name}
train_loader:
  name: text
  dataset:
    local: ${variables.data_local}
    shuffle: true
    shuffle_seed: ${variables.global_seed}
  drop_last: true
  num_workers: 8
eval_loader:
  name: text
  drop_last: false
  num_workers: 8
max_duration: 4800ba
eval_interval: 500ba
global_train_batch_size: 256
seed: ${variables.global_seed}
device_eval_batch_size: 8
device_train_microbatch_size: 16
precision: amp_bf16
save_folder: ./{run_name}/checkpoints
save_interval: 30sec
save_num_checkpoints_to_keep: 1
fsdp_config:
  sharding_strategy: FULL_SHARD
  state_dict_type: sharded
loggers:
  wandb: {}
  mlflow: {}
`

func TestComposerDefaultsAndUnits(t *testing.T) {
	src := `train_loader:
  name: finetuning
  num_workers: 0
eval_loader:
  name: finetuning
max_duration: 2h
global_train_batch_size: 64
device_train_microbatch_size: auto
tokenizer:
  name: gpt2
`
	d := tcgDoc(t, doc.YAML, src)
	if got := Detect(d); got != Composer {
		t.Fatalf("Detect = %v", got.Name)
	}
	p := Composer.Normalize(d, Context{})
	if f := p.Train.PerDeviceBatch; f.Known() || factLine(f) != 8 {
		t.Errorf("auto microbatch should be unknown at line 8: %+v", f)
	}
	if p.Eval.PerDeviceBatch.Known() {
		t.Errorf("eval batch cannot default from auto: %+v", p.Eval.PerDeviceBatch)
	}
	wantFact(t, "budget", p.Train.TimeBudget, plan.Interval{Value: 7200, Unit: plan.Seconds, Text: "2h"}, plan.Explicit, "max_duration", 6)
	wantFact(t, "eval interval", p.Eval.Interval, plan.Interval{Value: 1, Unit: plan.Epochs, Text: "1"}, plan.Default, "eval_interval", 0)
	s := p.Seeds.Init
	if s.Origin != plan.Default || s.Value.Value != "17" || s.Value.Varies != plan.SameOnEveryHost {
		t.Errorf("default seed %+v", s)
	}
	if p.Seeds.Data.Known() {
		t.Errorf("finetuning loader data seed should be unknown: %+v", p.Seeds.Data)
	}
	wantFact(t, "prefetch", p.Data.Prefetch, 0, plan.Default, "", -1)
	wantFact(t, "ckpt enabled", p.Ckpt.Enabled, false, plan.Default, "save_folder", 0)
	if p.Ckpt.Retention.Known() || p.Ckpt.Interval.Known() {
		t.Errorf("no checkpoints: retention/interval should be unknown")
	}
	// llm-foundry's hf_checkpointer callback writes Hugging Face weights at its own interval:
	// not "no checkpoints".
	hp := Composer.Normalize(tcgDoc(t, doc.YAML, src+"callbacks:\n  hf_checkpointer:\n    save_folder: ./checkpoints\n    save_interval: 1ep\n"), Context{})
	if hp.Ckpt.Enabled.Known() {
		t.Errorf("with hf_checkpointer: checkpoints %+v", hp.Ckpt.Enabled)
	}
	hp = Composer.Normalize(tcgDoc(t, doc.YAML, src+"callbacks:\n  hf_checkpointer:\n    save_folder: ./checkpoints\n    save_interval: 1dur\n"), Context{})
	wantFact(t, "hf_checkpointer at the end only", hp.Ckpt.Enabled, false, plan.Default, "save_folder", 0)
	if tr := p.Tracking.Trackers; tr.Origin != plan.Default || len(tr.Value) != 0 {
		t.Errorf("trackers %+v", tr)
	}

	// eval_interval: a bare integer is epochs; no evaluators + training = eval disabled.
	d = tcgDoc(t, doc.YAML, "train_loader: {name: text}\nmax_duration: 1ep\neval_interval: 2\ndevice_train_microbatch_size: 4\n")
	p = Composer.Normalize(d, Context{})
	wantFact(t, "int interval", p.Eval.Interval, plan.Interval{Value: 2, Unit: plan.Epochs, Text: "2"}, plan.Explicit, "eval_interval", 3)
	wantFact(t, "no evaluators", p.Eval.Enabled, false, plan.Default, "eval_loader", 0)
	wantFact(t, "eval batch default", p.Eval.PerDeviceBatch, 4, plan.Default, "device_eval_batch_size", 4)
	if ds := p.Seeds.Data; ds.Origin != plan.Default || ds.Value.Value != "9176" {
		t.Errorf("streaming default data seed %+v", ds)
	}
}

func TestComposerBareVariable(t *testing.T) {
	// Older llm-foundry files write ${global_seed} for a key of the variables section.
	d := tcgDoc(t, doc.YAML, "variables:\n  global_seed: 5\ntrain_loader: {name: text}\nseed: ${global_seed}\n")
	p := Composer.Normalize(d, Context{})
	if s := p.Seeds.Init; s.Origin != plan.Explicit || s.Value.Value != "5" || factLine(s) != 4 || s.Note != "= ${global_seed}" {
		t.Errorf("seed %+v", s)
	}
	// Eval-only configs get no periodic-eval facts.
	d = tcgDoc(t, doc.YAML, "icl_tasks: eval/yamls/tasks.yaml\ndevice_eval_batch_size: 4\n")
	p = Composer.Normalize(d, Context{})
	if p.Eval.Enabled.Known() || p.Eval.Interval.Known() || p.Seeds.Init.Known() {
		t.Errorf("eval-only config got training facts: %+v", p)
	}
	wantFact(t, "eval batch", p.Eval.PerDeviceBatch, 4, plan.Explicit, "device_eval_batch_size", 2)
}

func TestComposerTimeStrings(t *testing.T) {
	cases := []struct {
		src  string
		ok   bool
		want plan.Interval
	}{
		{"500ba", true, plan.Interval{Value: 500, Unit: plan.Steps, Text: "500ba"}},
		{"1ep", true, plan.Interval{Value: 1, Unit: plan.Epochs, Text: "1ep"}},
		{"1EP", true, plan.Interval{Value: 1, Unit: plan.Epochs, Text: "1EP"}},
		{"2048sp", true, plan.Interval{Value: 2048, Unit: plan.Samples, Text: "2048sp"}},
		{"3e4tok", true, plan.Interval{Value: 30000, Unit: plan.Tokens, Text: "3e4tok"}},
		{"0.1dur", true, plan.Interval{Value: 0.1, Unit: plan.Ratio, Text: "0.1dur"}},
		{"30sec", true, plan.Interval{Value: 30, Unit: plan.Seconds, Text: "30sec"}},
		{"1h30m", true, plan.Interval{Value: 5400, Unit: plan.Seconds, Text: "1h30m"}},
		{"45s", true, plan.Interval{Value: 45, Unit: plan.Seconds, Text: "45s"}},
		{"10m", true, plan.Interval{Value: 600, Unit: plan.Seconds, Text: "10m"}},
		{"3", true, plan.Interval{Value: 3, Unit: plan.Epochs, Text: "3"}},
		{"2iter", false, plan.Interval{}},
		{"fast", false, plan.Interval{}},
		{"ba", false, plan.Interval{}},
		{"'500'", false, plan.Interval{}},
		{"${variables.x}", false, plan.Interval{}},
		{"true", false, plan.Interval{}},
		{"null", false, plan.Interval{}},
	}
	for _, c := range cases {
		d := tcgDoc(t, doc.YAML, "x: "+c.src+"\n")
		got, ok := parseComposerTime(d.Root.Get("x"), plan.Epochs)
		if ok != c.ok || (ok && !reflect.DeepEqual(got, c.want)) {
			t.Errorf("parseComposerTime(%s) = %+v, %v; want %+v, %v", c.src, got, ok, c.want, c.ok)
		}
	}
}

func TestComposerMCLI(t *testing.T) {
	src := `integrations:
- integration_type: git_repo
  git_repo: mosaicml/llm-foundry
command: |
  composer train/train.py /mnt/config/parameters.yaml
image: mosaicml/llm-foundry:latest
compute:
  gpus: 8
parameters:
  variables:
    global_seed: 3
  seed: ${variables.global_seed}
  train_loader:
    name: finetuning
    prefetch_factor: 2
    num_workers: 8
  device_train_microbatch_size: 8
  device_eval_batch_size: 4
  max_duration: 1ep
  eval_interval: 1
  eval_loader:
    name: finetuning
`
	d := tcgDoc(t, doc.YAML, src)
	if got := Detect(d); got != Composer {
		t.Fatalf("Detect = %v", got.Name)
	}
	p := Composer.Normalize(d, Context{})
	if p.Variant != "mcli" {
		t.Errorf("variant %q", p.Variant)
	}
	wantFact(t, "micro", p.Train.PerDeviceBatch, 8, plan.Explicit, "device_train_microbatch_size", 17)
	wantFact(t, "eval", p.Eval.PerDeviceBatch, 4, plan.Explicit, "device_eval_batch_size", 18)
	wantFact(t, "prefetch", p.Data.Prefetch, 2, plan.Explicit, "train_loader.prefetch_factor", 15)
	wantFact(t, "interval", p.Eval.Interval, plan.Interval{Value: 1, Unit: plan.Epochs, Text: "1"}, plan.Explicit, "eval_interval", 20)
	if s := p.Seeds.Init; s.Value.Value != "3" || factLine(s) != 12 {
		t.Errorf("seed %+v", s)
	}
	// An mcli file with empty parameters is still a Composer run.
	d = tcgDoc(t, doc.YAML, "integrations:\n- git_repo: mosaicml/llm-foundry\ncommand: composer train/train.py x.yaml\nparameters: {}\n")
	if got := Detect(d); got != Composer {
		t.Errorf("empty mcli Detect = %v", got.Name)
	}
	_ = Composer.Normalize(d, Context{})
}

func TestComposerOddShapes(t *testing.T) {
	for _, src := range []string{
		"",
		"[1, 2]\n",
		"eval_interval: [1]\nsave_interval: {a: 1}\nmax_duration: true\nseed: [x]\nloggers: 3\ntrain_loader: 7\nfsdp_config: x\n",
		"eval_interval: ${variables.nope}\nvariables: 4\nseed: ${variables.seed}\nsave_num_checkpoints_to_keep: many\n",
		"parameters: 5\ncompute: {}\n",
		"variables:\n  a: ${variables.b}\n  b: ${variables.a}\nseed: ${variables.a}\neval_interval: ${variables.a}\n",
	} {
		d := doc.Parse("x.yaml", []byte(src), doc.YAML, doc.Limits{})
		_ = detectComposer(d)
		p := Composer.Normalize(d, Context{Hosts: 1, DevicesPerHost: 8})
		if p == nil || p.Eval.Interval.Known() || p.Seeds.Init.Origin == plan.Explicit {
			t.Errorf("%q: %+v", src, p)
		}
	}
	// keep -1 means all; 0 keeps none.
	d := tcgDoc(t, doc.YAML, "save_folder: x\nsave_num_checkpoints_to_keep: -1\n")
	wantFact(t, "keep all", Composer.Normalize(d, Context{}).Ckpt.Retention, plan.Retention{Kind: plan.KeepAll}, plan.Explicit, "", 2)
	d = tcgDoc(t, doc.YAML, "save_folder: x\nsave_num_checkpoints_to_keep: 0\n")
	wantFact(t, "keep none", Composer.Normalize(d, Context{}).Ckpt.Retention, plan.Retention{Kind: plan.KeepNone}, plan.Explicit, "", 2)
}

func TestComposerJSON(t *testing.T) {
	src := `{"global_train_batch_size": 32, "device_train_microbatch_size": 4,
 "device_eval_batch_size": 2, "eval_interval": "100ba", "max_duration": "1000ba",
 "train_loader": {"name": "text", "num_workers": 2}, "tokenizer": {"name": "gpt2"}}`
	d := tcgDoc(t, doc.JSON, src)
	if got := Detect(d); got != Composer {
		t.Fatalf("Detect = %v", got.Name)
	}
	p := Composer.Normalize(d, Context{})
	wantFact(t, "eval batch", p.Eval.PerDeviceBatch, 2, plan.Explicit, "device_eval_batch_size", 2)
	wantFact(t, "interval", p.Eval.Interval, plan.Interval{Value: 100, Unit: plan.Steps, Text: "100ba"}, plan.Explicit, "eval_interval", 2)
	wantFact(t, "workers", p.Data.Workers, 2, plan.Explicit, "train_loader.num_workers", 3)
}

// An mcli run file: llm-foundry's only when the command or the cloned repository names it (the
// `composer` launcher runs any script: mosaicml/examples' benchmarks run their own main.py),
// and its keys are checked against TrainConfig only when it runs the release the knowledge
// table read last (mosaicml/examples pins llm-foundry v0.2.0 and commits).
func TestComposerMCLIRuns(t *testing.T) {
	params := "parameters:\n  max_seq_len: 128\n  global_seed: 17\n  tokenizer_name: bert-base-uncased\n  model:\n    name: mosaic_bert\n" +
		"  global_train_batch_size: 256\n  device_train_microbatch_size: 32\n  max_duration: 1ep\n"
	bench := "name: bert\nimage: mosaicml/pytorch\nintegrations:\n- integration_type: git_repo\n  git_repo: mosaicml/examples\n" +
		"command: |\n  cd examples/benchmarks/bert\n  composer main.py /mnt/config/parameters.yaml\n" + params
	wantDetected(t, "a benchmark's mcli run", "mcloud_run.yaml", doc.YAML, bench, "generic")
	foundry := func(pin string) string {
		return "name: ft\nimage: mosaicml/pytorch\nintegrations:\n- integration_type: git_repo\n  git_repo: mosaicml/llm-foundry\n" + pin +
			"command: |\n  cd llm-foundry/scripts\n  composer train/train.py /mnt/config/parameters.yaml\n" + params +
			"  tokenizer:\n    name: gpt2\n"
	}
	for _, c := range []struct {
		pin  string
		maps int
	}{
		{"", 1},
		{"  git_branch: main\n", 1},
		{"  git_commit: v0.2.0\n", 0},
		{"  git_commit: 68448b2764cf6988c830e4d55796e6e28cdac20e\n", 0},
		{"  git_branch: " + KnowledgeOf("llm-foundry").Newest() + "\n", 1},
	} {
		d := tcgDoc(t, doc.YAML, foundry(c.pin))
		if got := Detect(d); got != Composer {
			t.Fatalf("%q: Detect = %v", c.pin, got.Name)
		}
		if got := len(composerKeyMaps(d)); got != c.maps {
			t.Errorf("%q: %d argument maps checked, want %d", c.pin, got, c.maps)
		}
	}
}

// TestComposerRemoteSaveFolder: with a save_folder in an object store Composer uploads every
// checkpoint and deletes only local copies (CheckpointSaver num_checkpoints_to_keep,
// composer/callbacks/checkpoint_saver.py @6405188): every checkpoint is kept. A local folder,
// a Windows drive and an unresolved reference keep the count's meaning.
func TestComposerRemoteSaveFolder(t *testing.T) {
	base := "variables:\n  bucket: s3://my-bucket/ckpt\ntrain_loader: {name: text}\nmax_duration: 1ep\nsave_interval: 500ba\nsave_num_checkpoints_to_keep: 1\n"
	for _, c := range []struct {
		folder string
		want   plan.Retention
		origin plan.Origin
	}{
		{"s3://my-bucket/ckpt/{run_name}", plan.Retention{Kind: plan.KeepAll}, plan.Derived},
		{"oci://bucket/run", plan.Retention{Kind: plan.KeepAll}, plan.Derived},
		{"${variables.bucket}", plan.Retention{Kind: plan.KeepAll}, plan.Derived},
		{"./checkpoints/{run_name}", plan.Retention{Kind: plan.KeepLatest, N: 1}, plan.Explicit},
		{`C:\runs\ckpt`, plan.Retention{Kind: plan.KeepLatest, N: 1}, plan.Explicit},
		{"${variables.missing}", plan.Retention{Kind: plan.KeepLatest, N: 1}, plan.Explicit},
	} {
		src := base + "save_folder: '" + c.folder + "'\n"
		p := Composer.Normalize(tcgDoc(t, doc.YAML, src), Context{})
		wantFact(t, c.folder, p.Ckpt.Retention, c.want, c.origin, "save_num_checkpoints_to_keep", 6)
	}
}

// TestComposerRemoteFolder checks the scheme test against the scheme Python's urlparse (which
// composer's parse_uri calls) gives each value in Debian's python3 3.11, one-letter schemes (a
// Windows drive) aside. Go's url.Parse is no substitute: it refuses the bucket with a space and
// the non-numeric port, which urlparse reads with their scheme.
func TestComposerRemoteFolder(t *testing.T) {
	for v, want := range map[string]bool{
		"s3://bucket/{run_name}/ckpt": true,
		"oci://b@ns/p":                true,
		"gs://my bucket/x":            true,
		"s3://bucket:abc/x":           true,
		"hf+x-1.2://repo":             true,
		"c:/ckpt":                     false, // a Windows drive
		"./ckpt":                      false,
		"ckpt/{run_name}":             false,
		"1s3://bucket":                false, // a scheme starts with a letter
		"s_3://bucket":                false,
		"":                            false,
	} {
		n := doc.Parse("x", []byte("save_folder: \""+v+"\"\n"), doc.YAML, doc.Limits{}).Root.At("save_folder")
		if got := composerRemoteFolder(n); got != want {
			t.Errorf("%q: remote %v, want %v", v, got, want)
		}
	}
}

// TestComposerEvalLoaders: llm-foundry builds evaluators from eval_loaders when eval_loader is
// absent (command_utils/train.py:286 @v0.21.0), so a file that lists its eval loaders there
// evaluates; with no evaluator at all it does not.
func TestComposerEvalLoaders(t *testing.T) {
	src := "train_loader:\n  name: text\nmax_duration: 10ba\nglobal_train_batch_size: 8\ntokenizer:\n  name: gpt2\n"
	p := Composer.Normalize(tcgDoc(t, doc.YAML, src+"eval_loaders:\n  - label: c4\n    name: text\n"), Context{})
	if e := p.Eval.Enabled; !e.Known() || !e.Value || e.Key != "eval_loaders" {
		t.Errorf("eval_loaders: enabled %+v", e)
	}
	for _, none := range []string{"", "eval_loaders: []\n", "eval_loaders: null\n"} {
		// an empty list or null builds no evaluator (builders.py:104-115 @v0.21.0)
		if e := Composer.Normalize(tcgDoc(t, doc.YAML, src+none), Context{}).Eval.Enabled; !e.Known() || e.Value {
			t.Errorf("no evaluator %q: enabled %+v", none, e)
		}
	}
}
