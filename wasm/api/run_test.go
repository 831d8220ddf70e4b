package api_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/wasm/api"
)

// hydraRun is a Hydra primary with its group files, as the checker's tabs hold them.
func hydraRun() []api.File {
	return []api.File{
		{Path: "configs/train.yaml", Text: "defaults:\n  - data: mnist\n  - trainer: default\n  - callbacks: default\n  - _self_\n\nseed: 12345\n"},
		{Path: "configs/data/mnist.yaml", Text: "_target_: src.data.mnist_datamodule.MNISTDataModule\nbatch_size: 128\nnum_workers: 0\n"},
		{Path: "configs/trainer/default.yaml", Text: "_target_: lightning.pytorch.trainer.Trainer\nmax_epochs: 10\ncheck_val_every_n_epoch: 1\n"},
		{Path: "configs/trainer/ddp.yaml", Text: "defaults:\n  - default\n\nstrategy: ddp\naccelerator: gpu\ndevices: 4\nnum_nodes: 1\n"},
		{Path: "configs/callbacks/default.yaml", Text: "defaults:\n  - model_checkpoint\n  - _self_\n\nmodel_checkpoint:\n  monitor: val/acc\n  save_top_k: 1\n"},
		{Path: "configs/callbacks/model_checkpoint.yaml", Text: "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  dirpath: ckpts\n  monitor: null\n  save_top_k: 1\n  mode: min\n"},
	}
}

// searchPathRun is a run whose group options lie in a package its hydra.searchpath names.
func searchPathRun() []api.File {
	return []api.File{
		{Path: "app/conf/train.yaml", Text: "hydra:\n  searchpath:\n    - pkg://app.common\ndefaults:\n  - trainer: default\n  - _self_\n\nseed: 1\n"},
		{Path: "app/common/trainer/default.yaml", Text: "_target_: lightning.pytorch.trainer.Trainer\nmax_epochs: 10\ncallbacks:\n  - _target_: lightning.pytorch.callbacks.ModelCheckpoint\n    save_top_k: 1\n"},
	}
}

// TestLintSearchPathRequest: the option is found through the search path (no TL006), and the
// run's rules read it (TL301: one checkpoint kept, none monitored).
func TestLintSearchPathRequest(t *testing.T) {
	res, err := api.Lint(api.Request{Files: searchPathRun()})
	if err != nil {
		t.Fatal(err)
	}
	if d := find(res.Diagnostics, "TL006", ""); d != nil {
		t.Errorf("TL006: %s", d.Message)
	}
	if find(res.Diagnostics, "TL301", "app/common/trainer/default.yaml") == nil {
		t.Errorf("no TL301 on the option read through the search path: %v", res.Diagnostics)
	}
}

// unreadOptionRun is a tree with a group option no run selects, whose value Lightning refuses
// when the command line chooses it (lint.UnreadRefusals).
func unreadOptionRun() []api.File {
	return []api.File{
		{Path: "unread/conf/train.yaml", Text: "defaults:\n  - callbacks: default\n  - _self_\nseed: 1\n"},
		{Path: "unread/conf/callbacks/default.yaml", Text: "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: val/acc\n  save_top_k: 3\n"},
		{Path: "unread/conf/callbacks/topk.yaml", Text: "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: null\n  save_top_k: 3\n"},
	}
}

// liteDeclinedRuns are requests the light module hands to the full one although it reads
// every file: what it leaves to the full module to judge (files under lite-declines/).
func liteDeclinedRuns() [][]api.File {
	return [][]api.File{
		// A base its siblings include, needing a key only they set (lint/compose/discover_lite.go).
		{
			{Path: "lite-declines/recipes/seg.yaml", Text: "defaults:\n  - training_hyperparams: default_train_params\n  - _self_\n\nexperiment_name: ${architecture}_cityscapes\n"},
			{Path: "lite-declines/recipes/seg_b0.yaml", Text: "defaults:\n  - seg\n  - _self_\n\narchitecture: segformer_b0\n"},
			{Path: "lite-declines/recipes/training_hyperparams/default_train_params.yaml", Text: "max_epochs: 2\n"},
		},
		// Experiments two primaries share (discover_lite.go's sharedExperiment).
		{
			{Path: "lite-declines/configs/train.yaml", Text: "defaults:\n  - datamodule: mnist\n  - experiment: null\n  - _self_\nseed: 1\n"},
			{Path: "lite-declines/configs/infer.yaml", Text: "defaults:\n  - experiment: null\n  - _self_\nseed: 1\n"},
			{Path: "lite-declines/configs/datamodule/mnist.yaml", Text: "batch_size: 64\n"},
			{Path: "lite-declines/configs/experiment/a.yaml", Text: "# @package _global_\ndefaults:\n  - override /datamodule: mnist\nseed: 2\n"},
		},
		// A missing option behind an unchosen ??? entry (lint/compose/unlooked_lite.go).
		{
			{Path: "lite-declines/conf/train.yaml", Text: "defaults:\n  - trainer: default\n  - experiment: ???\n  - _self_\nseed: 1\n"},
			{Path: "lite-declines/conf/trainer/base.yaml", Text: "max_epochs: 3\n"},
			{Path: "lite-declines/conf/experiment/e.yaml", Text: "# @package _global_\ndefaults:\n  - override /trainer: base\n"},
		},
		// A key repeated to carry anchors (lint/doc/yamlanchors_lite.go).
		{{Path: "lite-declines/opt.yml", Text: "define: &size 384\ndefine: &crop 224\nresize: *size\ncrop: *crop\n"}},
	}
}

// TestLintUnreadOptionRequest: the browser's request gets the refusal the CLI reports.
func TestLintUnreadOptionRequest(t *testing.T) {
	res, err := api.Lint(api.Request{Files: unreadOptionRun()})
	if err != nil {
		t.Fatal(err)
	}
	if d := find(res.Diagnostics, "TL011", "unread/conf/callbacks/topk.yaml"); d == nil || d.Line != 4 {
		t.Errorf("no TL011 at topk.yaml:4: %+v", res.Diagnostics)
	}
}

func find(ds []lint.Diagnostic, code, file string) *lint.Diagnostic {
	for i := range ds {
		if ds[i].Code == code && (file == "" || ds[i].File == file) {
			return &ds[i]
		}
	}
	return nil
}

// TestLintRunRequest: a request's files are one run. The group file alone looks like a
// ModelCheckpoint without a monitor (TL301); in the run the monitor comes from
// callbacks/default.yaml, and the wrong direction for it (TL310) is reported in the file that
// sets mode, with the monitor's file and line as a related location.
func TestLintRunRequest(t *testing.T) {
	const ckpt = "configs/callbacks/model_checkpoint.yaml"
	files := hydraRun()
	var alone api.File
	for _, f := range files {
		if f.Path == ckpt {
			alone = f
		}
	}
	res, err := api.Lint(api.Request{Files: []api.File{alone}})
	if err != nil {
		t.Fatal(err)
	}
	if find(res.Diagnostics, "TL301", ckpt) == nil {
		t.Fatalf("the group file alone no longer gets TL301, so this test proves nothing: %+v", res.Diagnostics)
	}
	res, err = api.Lint(api.Request{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != len(files) {
		t.Errorf("%d files in the result, want %d", len(res.Files), len(files))
	}
	if d := find(res.Diagnostics, "TL301", ""); d != nil {
		t.Errorf("TL301 in the run: %+v", d)
	}
	d := find(res.Diagnostics, "TL310", "")
	if d == nil || d.File != ckpt || d.Line != 6 {
		t.Fatalf("TL310 %+v, want it at %s:6", d, ckpt)
	}
	if len(d.Related) != 1 || d.Related[0].File != "configs/callbacks/default.yaml" || d.Related[0].Line != 6 {
		t.Errorf("TL310 related %+v, want configs/callbacks/default.yaml:6", d.Related)
	}
	if d := find(res.Diagnostics, "TL101", ""); d == nil || d.File != "configs/data/mnist.yaml" || d.Line != 3 {
		t.Errorf("TL101 %+v, want configs/data/mnist.yaml:3", d)
	}
	// An override changes the run: the value it sets is the run's, and says where it came from.
	res, err = api.Lint(api.Request{Files: files, Options: api.Options{Overrides: []string{" data.num_workers=4 "}}})
	if err != nil {
		t.Fatal(err)
	}
	if d := find(res.Diagnostics, "TL101", ""); d != nil {
		t.Errorf("TL101 with data.num_workers=4: %+v", d)
	}
	res, err = api.Lint(api.Request{Files: files, Options: api.Options{Overrides: []string{"callbacks.model_checkpoint.mode=max"}}})
	if err != nil {
		t.Fatal(err)
	}
	if d := find(res.Diagnostics, "TL310", ""); d != nil {
		t.Errorf("TL310 with mode=max: %+v", d)
	}
	res, err = api.Lint(api.Request{Files: files, Options: api.Options{Overrides: []string{"data=imagenet"}}})
	if err != nil {
		t.Fatal(err)
	}
	if d := find(res.Diagnostics, "TL006", ""); d == nil || !strings.Contains(d.Message, "imagenet") {
		t.Errorf("an override naming a missing option: %+v", res.Diagnostics)
	}
}

// TestFixRunRequest: fixing a run's files changes nothing where no finding has a fix (the
// run's TL310 has none), and the result is the run's.
func TestFixRunRequest(t *testing.T) {
	files := hydraRun()
	out, err := api.Fix(api.Request{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range out.Files {
		if f.Text != files[i].Text || f.Applied != 0 {
			t.Errorf("%s changed by fix: %d applied\n%s", f.Path, f.Applied, f.Text)
		}
	}
	if find(out.Result.Diagnostics, "TL310", "") == nil {
		t.Errorf("the fixed run lost its TL310: %+v", out.Result.Diagnostics)
	}
}

// TestFixRunRequestAppliesRunFixes: a finding only the run makes (train.yaml's eval batch
// against the train batch its trainer group sets) is fixed in the primary, which writes the
// value; the group file is left alone, and the result no longer has the finding.
func TestFixRunRequestAppliesRunFixes(t *testing.T) {
	files := []api.File{
		{Path: "configs/train.yaml", Text: "defaults:\n  - data: default\n  - _self_\n\neval:\n  batch_size: 4\n"},
		{Path: "configs/data/default.yaml", Text: "# @package _global_\ntrain:\n  batch_size: 32\n"},
	}
	if res, err := api.Lint(api.Request{Files: files[:1]}); err != nil || find(res.Diagnostics, "TL202", "") != nil {
		t.Fatalf("train.yaml alone: %v %+v", err, res)
	}
	out, err := api.Fix(api.Request{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(files[0].Text, "batch_size: 4", "batch_size: 32", 1); out.Files[0].Text != want || out.Files[0].Applied != 1 {
		t.Errorf("train.yaml: %d applied\n%s", out.Files[0].Applied, out.Files[0].Text)
	}
	if out.Files[1].Text != files[1].Text || out.Files[1].Applied != 0 {
		t.Errorf("the group file changed: %+v", out.Files[1])
	}
	if d := find(out.Result.Diagnostics, "TL202", ""); d != nil {
		t.Errorf("TL202 after the fix: %+v", d)
	}
}

// TestTargetsRequest: the version a request targets changes what a removed key means.
func TestTargetsRequest(t *testing.T) {
	f := []api.File{{Path: "sft.yaml", Text: "output_dir: out\noverwrite_output_dir: true\nper_device_train_batch_size: 8\n"}}
	res, err := api.Lint(api.Request{Files: f})
	if err != nil {
		t.Fatal(err)
	}
	d := find(res.Diagnostics, "TL005", "")
	if d == nil || d.Severity != lint.Warning || strings.Contains(d.Message, "still works") {
		t.Fatalf("newest: %+v", d)
	}
	for _, v := range []string{"", "newest"} {
		res, _ = api.Lint(api.Request{Files: f, Options: api.Options{Targets: map[string]string{"transformers": v}}})
		if got := find(res.Diagnostics, "TL005", ""); got == nil || got.Message != d.Message {
			t.Errorf("target %q: %+v, want the newest's", v, got)
		}
	}
	res, err = api.Lint(api.Request{Files: f, Options: api.Options{Targets: map[string]string{"transformers": "4.46"}}})
	if err != nil {
		t.Fatal(err)
	}
	d = find(res.Diagnostics, "TL005", "")
	if d == nil || d.Severity != lint.Info || !strings.Contains(d.Message, "the checker targets 4.46, where it still works") {
		t.Errorf("4.46: %+v", d)
	}
	for _, bad := range []map[string]string{{"pytorch": "2.0"}, {"trl": "latest"}} {
		if _, err := api.Lint(api.Request{Files: f, Options: api.Options{Targets: bad}}); err == nil {
			t.Errorf("targets %v accepted", bad)
		}
	}
}

// TestTargetsList: the selector's versions come from the knowledge table's tags and the
// settings' deprecation versions, oldest first.
func TestTargetsList(t *testing.T) {
	got := map[string][]string{}
	for _, ti := range api.Targets() {
		got[ti.Package] = ti.Versions
	}
	for pkg, want := range map[string][]string{"transformers": {"4.41", "5.0"}, "trl": {"0.19.0", "1.0.0"}, "deepspeed": {"0.14.0"}} {
		vs := strings.Join(got[pkg], " ")
		for _, v := range want {
			if !strings.Contains(" "+vs+" ", " "+v+" ") {
				t.Errorf("%s versions %q lack %s", pkg, vs, v)
			}
		}
	}
	// torchtune's main after 0.6.1 is read as v0.7.0-bd2a0fc; 0.7.0 was never released.
	if vs := " " + strings.Join(got["torchtune"], " ") + " "; !strings.Contains(vs, " 0.6.1 ") || strings.Contains(vs, " 0.7.0 ") {
		t.Errorf("torchtune versions %q: want 0.6.1 and no unreleased 0.7.0", vs)
	}
	// Every version listed is accepted in a request, and is a release number (a commit read for
	// an unreleased head is not one).
	for pkg, vs := range got {
		for _, v := range vs {
			if major, _, _ := strings.Cut(v, "."); len(major) > 2 || !strings.Contains(v, ".") {
				t.Errorf("%s lists %q, not a release number", pkg, v)
			}
			if _, err := api.Lint(api.Request{Files: []api.File{{Path: "a.yaml", Text: "x: 1\n"}}, Options: api.Options{Targets: map[string]string{pkg: v}}}); err != nil {
				t.Errorf("%s %s: %v", pkg, v, err)
			}
		}
	}
}

// TestDecodeRunOptions: overrides and targets cross as JSON; wrong shapes are clear errors.
func TestDecodeRunOptions(t *testing.T) {
	r, err := api.Decode([]byte(`{"files":[],"options":{"overrides":["experiment=x","+a=1"],"targets":{"trl":"0.19.0","deepspeed":""}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Options.Overrides, " ") != "experiment=x +a=1" || r.Options.Targets["trl"] != "0.19.0" || len(r.Options.Targets) != 2 {
		t.Errorf("decoded %+v", r.Options)
	}
	for req, want := range map[string]string{
		`{"options":{"overrides":"x=1"}}`:      "options.overrides is not an array",
		`{"options":{"overrides":[1]}}`:        "options.overrides holds a non-string",
		`{"options":{"targets":["trl"]}}`:      "options.targets is not an object",
		`{"options":{"targets":{"trl":0.19}}}`: "options.targets.trl is not a string",
	} {
		if _, err := api.Decode([]byte(req)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", req, err, want)
		}
	}
	if got := string(api.LintJSON([]byte(`{"files":[{"path":"a.yaml","text":"x: 1"}],"options":{"overrides":[" "]}}`))); !strings.Contains(got, "options.overrides[0] is empty") {
		t.Errorf("empty override: %s", got)
	}
}

// codeRuns are runs of configs written as code, as the checker's tabs hold an opened folder:
// an MMEngine config with two bases, and a gin file that includes another.
func codeRuns() [][]api.File {
	return [][]api.File{
		{
			{Path: "configs/_base_/schedule.py", Text: "train_cfg = dict(type='EpochBasedTrainLoop', max_epochs=12, val_interval=1)\n"},
			{Path: "configs/_base_/runtime.py", Text: "default_hooks = dict(checkpoint=dict(type='CheckpointHook', interval=1, max_keep_ckpts=3))\nrandomness = dict(seed=0)\n"},
			{Path: "configs/retina.py", Text: "_base_ = ['./_base_/schedule.py', './_base_/runtime.py']\noptim_wrapper = dict(optimizer=dict(type='SGD', lr=0.01))\ntrain_dataloader = dict(batch_size=16, num_workers=4)\nval_dataloader = dict(batch_size=4, num_workers=2)\nval_evaluator = dict(type='Accuracy')\nval_cfg = dict()\n"},
		},
		{
			{Path: "runs/base.gin", Text: "from t5x import utils\nutils.SaveCheckpointConfig.period = 2000\nutils.SaveCheckpointConfig.keep = 2\n"},
			{Path: "runs/train.gin", Text: "include 'runs/base.gin'\nfrom t5x import train as train_lib\ntrain.eval_period = 1000\ntrain/utils.DatasetConfig.batch_size = 128\ntrain_eval/utils.DatasetConfig.batch_size = 4096\n"},
		},
	}
}

// The API composes code runs from the files it is given: a value set in a base file is
// reported there, from the run that uses it.
func TestCodeRuns(t *testing.T) {
	want := []string{
		"configs/_base_/runtime.py:1 checkpoint-keeps-latest-not-best, configs/retina.py:4 eval-batch-smaller-than-train",
		"runs/base.gin:3 checkpoint-keeps-latest-not-best, runs/train.gin:5 eval-batch-much-larger-than-train",
	}
	for i, files := range codeRuns() {
		res, err := api.Lint(api.Request{Files: files, Options: api.Options{Hosts: 2, DevicesPerHost: 8}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range res.Diagnostics {
			got = append(got, d.File+":"+strconv.Itoa(d.Line)+" "+d.Rule)
		}
		if g := strings.Join(got, ", "); g != want[i] {
			t.Errorf("run %d: %s, want %s", i, g, want[i])
		}
	}
}
