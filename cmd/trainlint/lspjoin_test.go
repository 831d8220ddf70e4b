package main

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/cmd/trainlint/internal/lsp"
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/testfs"
)

// joinTree is a repository with an alignment-handbook-style recipe three folders down that names
// its DeepSpeed file from the repository's root, the DeepSpeed file disagreeing with it (micro
// batch 4 against the recipe's 8, fp16 against bf16), another recipe that names another file,
// and a DeepSpeed file no recipe names.
func joinTree() map[string]string {
	return map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"recipes/zephyr/sft/config.yaml": "output_dir: out\nlearning_rate: 2.0e-05\nper_device_train_batch_size: 8\n" +
			"gradient_accumulation_steps: 2\nbf16: true\ndeepspeed: recipes/accelerate_configs/ds.json\n",
		"recipes/accelerate_configs/ds.json": "{\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"gradient_accumulation_steps\": \"auto\",\n" +
			"  \"fp16\": {\"enabled\": true}\n}\n",
		"recipes/other/config.yaml":            "output_dir: out\ndeepspeed: recipes/accelerate_configs/z3.json\n",
		"recipes/accelerate_configs/z3.json":   "{\"train_micro_batch_size_per_gpu\": \"auto\"}\n",
		"recipes/accelerate_configs/lone.json": "{\"train_micro_batch_size_per_gpu\": 2}\n",
	}
}

// TestEditorJoinedRuns: the language server finds the run of a recipe and the DeepSpeed file it
// names from either side, reads them from the repository's root, and lints them as check does:
// the mismatches are reported at the JSON's lines, with the recipe as related location. A
// DeepSpeed file no recipe names stays a run of one.
func TestEditorJoinedRuns(t *testing.T) {
	dir := writeTree(t, joinTree())
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	recipe, ds := p("recipes/zephyr/sft/config.yaml"), p("recipes/accelerate_configs/ds.json")
	for _, edited := range []string{recipe, ds} {
		runs := editorRuns(edited, diskRead, "")
		if len(runs) != 1 || runs[0].Root != dir || strings.Join(runs[0].Files, " ") != recipe+" "+ds {
			t.Fatalf("%s: runs %+v, want the zephyr recipe and ds.json from %s", edited, runs, dir)
		}
	}
	if runs := editorRuns(p("recipes/accelerate_configs/lone.json"), diskRead, ""); len(runs) != 1 || runs[0].Root != "" || len(runs[0].Files) != 1 {
		t.Errorf("lone.json: runs %+v, want a run of one", runs)
	}
	// The editor's unsaved text counts: a recipe whose deepspeed: line is being deleted has no
	// joined run.
	unsaved := func(q string) ([]byte, bool) {
		if q == recipe {
			return []byte("output_dir: out\nper_device_train_batch_size: 8\n"), true
		}
		return diskRead(q)
	}
	if runs := editorRuns(ds, unsaved, ""); len(runs) != 1 || len(runs[0].Files) != 1 {
		t.Errorf("ds.json with the recipe's deepspeed: line removed: runs %+v, want a run of one", runs)
	}

	res := lintEditorRun(t, editorRuns(ds, diskRead, "")[0])
	got := map[string]bool{}
	for _, d := range res.Diagnostics {
		if d.File == ds && (d.Code == "TL701" || d.Code == "TL706") {
			got[d.Code] = true
			if len(d.Related) == 0 || d.Related[0].File != recipe {
				t.Errorf("%s at ds.json:%d: related %+v, want the recipe", d.Code, d.Line, d.Related)
			}
		}
	}
	if !got["TL701"] || !got["TL706"] {
		t.Errorf("findings at ds.json %v, want TL701 (micro batch 4 vs 8) and TL706 (fp16 vs bf16); all: %+v", got, res.Diagnostics)
	}
}

// TestEditorHydraRunReadsDeepSpeedFromTop: a Hydra group option that sets `deepspeed:` (a path
// written from the repository's top, outside the config directory) is linted in its config
// directory's run composed from the top, as check composes it: the run holds the DeepSpeed
// file, and the micro batch against the option's is reported there, with the option as the
// related location; editing the DeepSpeed file gives the same run. Without the key, the run
// stays rooted in the config directory.
func TestEditorHydraRunReadsDeepSpeedFromTop(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".git/HEAD":              "ref: refs/heads/main\n",
		"conf/config.yaml":       "defaults:\n  - _self_\n  - training: sft\nreport_to: wandb\n",
		"conf/training/sft.yaml": "# @package _global_\nper_device_train_batch_size: 8\ndeepspeed: ds/z.json\n",
		"ds/z.json":              "{\n  \"train_micro_batch_size_per_gpu\": 4\n}\n",
	})
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	option := p("conf/training/sft.yaml")
	runs := editorRuns(option, diskRead, "")
	if len(runs) != 1 || runs[0].Root != dir || strings.Join(runs[0].Files, " ") != p("conf/config.yaml")+" "+option+" "+p("ds/z.json") {
		t.Fatalf("runs %+v, want conf/config.yaml's run with ds/z.json, from %s", runs, dir)
	}
	res := lintEditorRun(t, runs[0])
	found := false
	for _, d := range res.Diagnostics {
		if d.Code == "TL006" {
			t.Errorf("TL006 at %s:%d: %s", d.File, d.Line, d.Message)
		}
		if d.Code == "TL701" && d.File == p("ds/z.json") {
			found = true
			if len(d.Related) == 0 || d.Related[0].File != option {
				t.Errorf("TL701 related %+v, want the option", d.Related)
			}
		}
	}
	if !found {
		t.Errorf("no TL701 at ds/z.json: %+v", res.Diagnostics)
	}
	// Edited from the DeepSpeed file's side, the option is still linted in its config
	// directory's run, not as a recipe of its own (whose report_to would be unset).
	if ds := editorRuns(p("ds/z.json"), diskRead, ""); len(ds) != 1 || strings.Join(ds[0].Files, " ") != strings.Join(runs[0].Files, " ") || ds[0].Root != dir {
		t.Errorf("ds/z.json edited: runs %+v, want the option's %+v", ds, runs)
	}
	unsaved := func(q string) ([]byte, bool) {
		if q == option {
			return []byte("# @package _global_\nper_device_train_batch_size: 8\n"), true
		}
		return diskRead(q)
	}
	if runs := editorRuns(option, unsaved, ""); len(runs) != 1 || runs[0].Root != "" || len(runs[0].Files) != 2 {
		t.Errorf("without deepspeed: runs %+v, want the config directory's run of two files", runs)
	}
	// Two options of the group name the file: the JSON's side has the runs of each (the
	// primary's default, and the experiment that chooses the other), once each; a third
	// option no run chooses is no recipe of its own either.
	testfs.Write(t, dir, map[string]string{
		"conf/config.yaml":           "defaults:\n  - _self_\n  - training: sft\n  - experiment: null\nreport_to: wandb\n",
		"conf/training/dpo.yaml":     "# @package _global_\nper_device_train_batch_size: 2\ndeepspeed: ds/z.json\n",
		"conf/training/unused.yaml":  "# @package _global_\nper_device_train_batch_size: 2\ndeepspeed: ds/z.json\n",
		"conf/experiment/dpo.yaml":   "# @package _global_\ndefaults:\n  - override /training: dpo\n",
		"conf/experiment/again.yaml": "# @package _global_\nreport_to: none\n",
	})
	var got []string
	for _, r := range editorRuns(p("ds/z.json"), diskRead, "") {
		opt := "?"
		for _, f := range r.Files {
			if filepath.Base(filepath.Dir(f)) == "training" {
				opt = filepath.Base(f)
			}
		}
		got = append(got, strings.Join(r.Overrides, ",")+":"+opt)
	}
	sort.Strings(got)
	if strings.Join(got, " ") != ":sft.yaml experiment=again:sft.yaml experiment=dpo:dpo.yaml" {
		t.Errorf("ds/z.json edited beside two options: runs %v", got)
	}
}

// mmCodeTree is an MMDetection-style repository: a leaf config built on a dataset base whose
// evaluation batch (1) is smaller than its training batch (2), a runtime base, a second leaf on
// the runtime base alone, and a training script that is not a config.
func mmCodeTree() map[string]string {
	return map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"configs/_base_/datasets/data.py": "train_dataloader = dict(batch_size=2, num_workers=2, dataset=dict(type='CocoDataset'))\n" +
			"val_dataloader = dict(batch_size=1, num_workers=2, dataset=dict(type='CocoDataset', test_mode=True))\n" +
			"val_evaluator = dict(type='CocoMetric')\n",
		"configs/_base_/default_runtime.py": "default_scope = 'mmdet'\ndefault_hooks = dict(checkpoint=dict(type='CheckpointHook', interval=1))\n",
		"configs/det/leaf.py":               "_base_ = ['../_base_/datasets/data.py', '../_base_/default_runtime.py']\ntrain_cfg = dict(type='EpochBasedTrainLoop', max_epochs=12, val_interval=1)\n",
		"configs/det/other.py":              "_base_ = '../_base_/default_runtime.py'\n",
		"tools/train.py":                    "import sys\n\ndef main():\n    print(sys.argv)\n",
	}
}

// TestEditorCodeRuns: a base edited in the editor is linted through the configs built on it
// (here only leaf.py reads the dataset base), from the repository's root, so the evaluation
// batch finding lands at the base's own line; a leaf is linted as its own run; a script is a
// run of one.
func TestEditorCodeRuns(t *testing.T) {
	dir := writeTree(t, mmCodeTree())
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	base, leaf := p("configs/_base_/datasets/data.py"), p("configs/det/leaf.py")
	runs := editorRuns(base, diskRead, "")
	if len(runs) != 1 || runs[0].Root != dir || runs[0].Files[0] != leaf || !slices.Contains(runs[0].Files, base) {
		t.Fatalf("data.py: runs %+v, want leaf.py's run from %s", runs, dir)
	}
	if own := editorRuns(leaf, diskRead, ""); len(own) != 1 || own[0].Files[0] != leaf || len(own[0].Files) != 3 {
		t.Errorf("leaf.py: runs %+v, want its own run of three files", own)
	}
	if rt := editorRuns(p("configs/_base_/default_runtime.py"), diskRead, ""); len(rt) != 2 {
		t.Errorf("default_runtime.py: runs %+v, want leaf.py's and other.py's", rt)
	}
	if s := editorRuns(p("tools/train.py"), diskRead, ""); len(s) != 1 || s[0].Root != "" || len(s[0].Files) != 1 {
		t.Errorf("tools/train.py: runs %+v, want a run of one", s)
	}
	res := lintEditorRun(t, runs[0])
	found := false
	for _, d := range res.Diagnostics {
		if d.Code == "TL202" && d.File == base && d.Line == 2 {
			found = true
		}
	}
	if !found {
		t.Errorf("no TL202 at data.py:2 (eval batch 1 < train batch 2): %+v", res.Diagnostics)
	}
}

// TestEditorCodeRunsInWorkspace: without .git (a downloaded release opened in the editor), the
// workspace folder is where the finder looks for the configs built on an edited base: with it
// the dataset base is linted through leaf.py in a sibling folder, without it the base is a run
// of one. A .git above the workspace folder still wins (the workspace is part of a repository).
func TestEditorCodeRunsInWorkspace(t *testing.T) {
	tree := mmCodeTree()
	delete(tree, ".git/HEAD")
	dir := writeTree(t, tree)
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	base, leaf := p("configs/_base_/datasets/data.py"), p("configs/det/leaf.py")
	if runs := editorRuns(base, diskRead, ""); len(runs) != 1 || len(runs[0].Files) != 1 {
		t.Fatalf("data.py with no workspace folder: runs %+v, want a run of one", runs)
	}
	runs := editorRuns(base, diskRead, dir)
	if len(runs) != 1 || runs[0].Root != dir || runs[0].Files[0] != leaf || !slices.Contains(runs[0].Files, base) {
		t.Fatalf("data.py in workspace %s: runs %+v, want leaf.py's run from the workspace folder", dir, runs)
	}
	// A workspace folder that does not hold the file, or lies further up than the search goes,
	// is not used.
	if runs := editorRuns(base, diskRead, p("configs/det")); len(runs) != 1 || len(runs[0].Files) != 1 {
		t.Errorf("data.py with another folder as workspace: runs %+v, want a run of one", runs)
	}
	// A Python project's file below the workspace folder marks the project's top: a workspace
	// opened on a home folder is not searched.
	if err := os.WriteFile(filepath.Join(dir, "configs", "setup.cfg"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := launchRoot(base, filepath.Dir(dir)); got != p("configs") {
		t.Errorf("launchRoot with setup.cfg in configs/ and the workspace above the tree: %s, want %s", got, p("configs"))
	}
	// A release whose projects/ hold setup.py files of their own: the outermost project file
	// is the top (mmdetection3d's projects/DSVT/configs build on the top's configs/_base_).
	if err := os.WriteFile(filepath.Join(dir, "setup.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := launchRoot(base, ""); got != dir {
		t.Errorf("launchRoot with setup.py at the top and setup.cfg in configs/: %s, want the top %s", got, dir)
	}
	for _, f := range []string{filepath.Join(dir, "configs", "setup.cfg"), filepath.Join(dir, "setup.py")} {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	// The workspace is a subfolder of a repository: the repository's root is the launch root.
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := launchRoot(base, p("configs")); got != dir {
		t.Errorf("launchRoot under a repository with workspace configs/: %s, want the repository %s", got, dir)
	}
	if got := launchRoot(base, ""); got != dir {
		t.Errorf("launchRoot under a repository: %s, want %s", got, dir)
	}
}

// TestEditorCodeRunsThroughBases: a dataset base read only through another base (mid.py) is
// linted in the run of the config built on that base (leaf.py names mid.py, not the dataset's
// file), as check lints it: leaf.py's eval batch of 2 overrides the base's 1, so the eval batch
// finding mid.py's partial run would make at the dataset base is not there.
func TestEditorCodeRunsThroughBases(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"configs/_base_/datasets/coco_det.py": "train_dataloader = dict(batch_size=2, num_workers=2, dataset=dict(type='CocoDataset'))\n" +
			"val_dataloader = dict(batch_size=1, num_workers=2, dataset=dict(type='CocoDataset', test_mode=True))\n" +
			"val_evaluator = dict(type='CocoMetric')\n",
		"configs/_base_/mid.py": "_base_ = ['./datasets/coco_det.py']\nmodel = dict(type='RetinaNet')\n",
		"configs/det/leaf.py": "_base_ = [\n    '../_base_/mid.py',\n]\nval_dataloader = dict(batch_size=2)\n" +
			"train_cfg = dict(type='EpochBasedTrainLoop', max_epochs=12, val_interval=1)\n",
		"configs/det/other.py": "from mmengine.config import read_base\n\nwith read_base():\n    from .leaf import *\n",
	})
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	base := p("configs/_base_/datasets/coco_det.py")
	runs := editorRuns(base, diskRead, "")
	var primaries []string
	for _, r := range runs {
		primaries = append(primaries, r.Files[0])
	}
	if !slices.Equal(primaries, []string{p("configs/det/leaf.py"), p("configs/det/other.py")}) {
		t.Fatalf("coco_det.py: runs of %q, want leaf.py's and other.py's (read_base of leaf)", primaries)
	}
	for _, d := range lintEditorRun(t, runs[0]).Diagnostics {
		if d.Code == "TL202" {
			t.Errorf("TL202 at %s:%d in leaf.py's run, whose eval batch is 2: %s", d.File, d.Line, d.Message)
		}
	}
}

// TestRefNames: the names a code config refers to files by.
func TestRefNames(t *testing.T) {
	text := "_base_ = ['../_base_/default_runtime.py', 'mmdet::_base_/models/rtm-det_l.py']\n" +
		"x = 'a.pyx'\ninclude 't5x/configs/base.gin'\n  from ._base_ import sched, opt\nimport foo.bar_baz\ny = 'é_ü.py'\n"
	got := refNames(text)
	for _, w := range []string{"default_runtime", "rtm-det_l", "base", "_base_", "sched", "opt", "foo", "bar_baz", "é_ü"} {
		if !slices.Contains(got, w) {
			t.Errorf("refNames: no %q in %q", w, got)
		}
	}
	for _, w := range []string{"a", "x", "y", "models"} {
		if slices.Contains(got, w) {
			t.Errorf("refNames: %q listed, not a name of a file referred to: %q", w, got)
		}
	}
}

// callTree is a scenic-style repository: a project's shared config function that turns
// checkpoints off, and a get_config built on it.
func callTree() map[string]string {
	return map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"scenic/projects/demo/configs/common.py": "import ml_collections\n\n\ndef get_base():\n" +
			"  config = ml_collections.ConfigDict()\n  config.trainer_name = 'classification_trainer'\n" +
			"  config.num_training_steps = 1000\n  config.checkpoint = False\n  return config\n",
		"scenic/projects/demo/configs/small.py": "from scenic.projects.demo.configs.common import get_base\n\n\n" +
			"def get_config():\n  config = get_base()\n  config.batch_size = 8\n  return config\n",
		"scenic/projects/demo/tools/train.py": "import sys\n\ndef main():\n    print(sys.argv)\n",
	}
}

// TestEditorCallRuns: a get_config built by another module's function is linted as its run in
// the editor, and the module it calls, edited, gets that run's findings at its own lines.
func TestEditorCallRuns(t *testing.T) {
	dir := writeTree(t, callTree())
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	common, small := p("scenic/projects/demo/configs/common.py"), p("scenic/projects/demo/configs/small.py")
	for _, edited := range []string{small, common} {
		runs := editorRuns(edited, diskRead, "")
		if len(runs) != 1 || runs[0].Root != dir || runs[0].Files[0] != small || !slices.Contains(runs[0].Files, common) {
			t.Fatalf("%s: runs %+v, want small.py's run of two files from %s", edited, runs, dir)
		}
		res := lintEditorRun(t, runs[0])
		found := false
		for _, d := range res.Diagnostics {
			found = found || d.Code == "TL304" && d.File == common && d.Line == 8
		}
		if !found {
			t.Errorf("%s: no TL304 at common.py:8 (checkpoint = False): %+v", edited, res.Diagnostics)
		}
	}
	if s := editorRuns(p("scenic/projects/demo/tools/train.py"), diskRead, ""); len(s) != 1 || s[0].Root != "" || len(s[0].Files) != 1 {
		t.Errorf("tools/train.py: runs %+v, want a run of one", s)
	}
}

// lintEditorRun lints an editor run's files from the disk as the language server does.
func lintEditorRun(t *testing.T, r lsp.Run) *lint.Result {
	t.Helper()
	var files []lint.File
	for _, f := range r.Files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, lint.File{Path: f, Text: b})
	}
	return lsp.LintRunAt(r.Root, files, nil, allRules(), lint.Options{})
}

// TestReadersOf: the configs that may read a file are found through whole names only (a stem
// inside a longer word is no reference), through a middle config whose name has a dot, and a
// file with no name before its extension is read by none.
func TestReadersOf(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"c/_base_/ak.py":       "x = 1\n",
		"c/_base_/coco_det.py": "y = 2\n",
		"c/_base_/.gin":        "a.b = 1\n",
		"c/peak.py":            "# the peak of the break\nz = 3\n",
		"c/uses_ak.py":         "_base_ = ['./_base_/ak.py']\n",
		"c/mid.v2.py":          "_base_ = './_base_/coco_det.py'\n",
		"c/leaf.py":            "_base_ = ['./mid.v2.py']\n",
		"c/far.py":             "_base_ = ['./leaf.py']\n",
		"c/other.gin":          "include 'c/other2.gin'\n",
	})
	fsys, _, done := openEditorTree(dir, filepath.Join(dir, "c", "leaf.py"), diskRead)
	defer done()
	all := filesBelow(fsys, codeWalkDepth, maxCodeFiles, func(string) bool { return true })
	if got := readersOf(fsys, []string{"c/_base_/ak.py"}, all); !slices.Equal(got, []string{"c/_base_/ak.py", "c/uses_ak.py"}) {
		t.Errorf("ak.py: %q, want uses_ak.py alone (peak.py says break and peak)", got)
	}
	got := readersOf(fsys, []string{"c/_base_/coco_det.py"}, all)
	slices.Sort(got)
	if want := []string{"c/_base_/coco_det.py", "c/far.py", "c/leaf.py", "c/mid.v2.py"}; !slices.Equal(got, want) {
		t.Errorf("coco_det.py: %q, want %q (through mid.v2.py)", got, want)
	}
	if got := readersOf(fsys, []string{"c/_base_/.gin"}, all); len(got) != 1 {
		t.Errorf(".gin: %q, want itself alone", got)
	}
}

// TestEditorRunsSkipGitignored: the editor searches the configs a walk lints, so a gitignored
// copy built on an edited base is no run of it, as it is none of check's.
func TestEditorRunsSkipGitignored(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".git/HEAD":                       "ref: refs/heads/main\n",
		".gitignore":                      "work_dirs/\n",
		"configs/_base_/datasets/data.py": "train_dataloader = dict(batch_size=2)\nval_dataloader = dict(batch_size=1)\n",
		"configs/det/leaf.py":             "_base_ = ['../_base_/datasets/data.py']\n",
		"work_dirs/exp.py":                "_base_ = ['../configs/_base_/datasets/data.py']\nval_dataloader = dict(batch_size=2)\n",
	})
	base := filepath.Join(dir, "configs", "_base_", "datasets", "data.py")
	var primaries []string
	for _, r := range editorRuns(base, diskRead, "") {
		primaries = append(primaries, r.Files[0])
	}
	if want := []string{filepath.Join(dir, "configs", "det", "leaf.py")}; !slices.Equal(primaries, want) {
		t.Errorf("data.py: runs of %q, want leaf.py's alone", primaries)
	}
}

// TestEditorJoinedRunsDeepRecipe: the editor finds a recipe that names an edited DeepSpeed file
// among the files a walk lints, as check does, here five folders down (the nearest-first search
// stopped at four).
func TestEditorJoinedRunsDeepRecipe(t *testing.T) {
	tree := joinTree()
	tree["recipes/a/b/c/d/config.yaml"] = "output_dir: out\nper_device_train_batch_size: 4\ndeepspeed: recipes/accelerate_configs/lone.json\n"
	dir := writeTree(t, tree)
	lone := filepath.Join(dir, "recipes", "accelerate_configs", "lone.json")
	runs := editorRuns(lone, diskRead, "")
	if len(runs) != 1 || runs[0].Files[0] != filepath.Join(dir, "recipes", "a", "b", "c", "d", "config.yaml") {
		t.Errorf("lone.json: runs %+v, want the deep recipe's", runs)
	}
}
