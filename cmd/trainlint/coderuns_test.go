package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// codeTree is a small hand-made MMEngine tree in MMDetection's layout: a dataset base whose
// eval batch (1) is below its train batch (2), and a leaf that lists it; and a gin pair where
// the including file supplies the macro the included one uses.
var codeTree = map[string]string{
	"configs/_base_/datasets/data.py": "train_dataloader = dict(batch_size=2, num_workers=2)\nval_dataloader = dict(batch_size=1, num_workers=2)\n",
	"configs/_base_/runtime.py":       "default_hooks = dict(checkpoint=dict(type='CheckpointHook', interval=1))\n",
	"configs/det/leaf.py":             "_base_ = ['../_base_/datasets/data.py', '../_base_/runtime.py']\nmodel = dict(type='RetinaNet')\n",
	"configs/det/broken.py":           "_base_ = '../_base_/missing.py'\nmodel = dict(type='RetinaNet')\n",
}

// TestCodeRunsCLI: folders and named files compose MMEngine runs; a finding whose values are
// set in a base is reported there, once; a named leaf finds its bases above its folder; a
// base missing from the tree's _base_ folder is TL011 at the _base_ line (Config.fromfile's
// FileNotFoundError); a walk of the leaf's folder reads the bases above
// it; --override leaves code runs alone.
func TestCodeRunsCLI(t *testing.T) {
	writeTree(t, codeTree)
	const data = "configs/_base_/datasets/data.py"
	_, res, errs := checkJSON(t, ".")
	got := strings.Join(findings(res), " ")
	if got != data+":2 TL202 warning configs/det/broken.py:1 TL011 error" {
		t.Errorf("folder: %s\n%s", got, errs)
	}
	// The base alone is a fragment of the leaf's run: linted structurally, the run reports it.
	for _, d := range res.Diagnostics {
		if d.Code == "TL202" && len(d.Related) == 0 {
			t.Errorf("TL202 has no related location (the train batch): %+v", d)
		}
	}
	// Named alone, from the repository's top and from inside configs/.
	os.Mkdir(".git", 0o755)
	_, res, _ = checkJSON(t, "configs/det/leaf.py")
	if got := strings.Join(findings(res), " "); got != data+":2 TL202 warning" {
		t.Errorf("named leaf: %s", got)
	}
	// A walk of the leaf's folder composes as naming its files does: the bases above it are
	// read, not reported outside the tree.
	_, res, _ = checkJSON(t, "configs/det")
	if got := strings.Join(findings(res), " "); got != data+":2 TL202 warning configs/det/broken.py:1 TL011 error" {
		t.Errorf("walked leaf folder: %s", got)
	}
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "outside the tree") {
			t.Errorf("walked leaf folder: %s", d.Message)
		}
	}
	if err := os.Chdir("configs"); err != nil {
		t.Fatal(err)
	}
	_, res, _ = checkJSON(t, "det/leaf.py")
	if got := strings.Join(findings(res), " "); got != "_base_/datasets/data.py:2 TL202 warning" {
		t.Errorf("named leaf from configs/: %s", got)
	}
	// From the leaf's own folder: the repository (.git) above the working directory holds its
	// bases, which MMEngine opens relative to the file, so they are read and reported by the
	// shortest path from here, and a walk of the folder composes the same.
	if err := os.Chdir("det"); err != nil {
		t.Fatal(err)
	}
	_, res, _ = checkJSON(t, "leaf.py")
	if got := strings.Join(findings(res), " "); got != "../_base_/datasets/data.py:2 TL202 warning" {
		t.Errorf("named leaf from configs/det/: %s", got)
	}
	_, res, _ = checkJSON(t, ".")
	if got := strings.Join(findings(res), " "); got != "../_base_/datasets/data.py:2 TL202 warning broken.py:1 TL011 error" {
		t.Errorf("walk of configs/det/ from there: %s", got)
	}
	os.Chdir(filepath.Join("..", ".."))
	_, res, _ = checkJSON(t, "--override", "trainer.devices=8", ".")
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "override") {
			t.Errorf("an override reached a code run: %s", d.Message)
		}
	}
}

// TestCallRunsCLI: a get_config built by another module's function is listed and linted as its
// run, from the folder and named alone; the finding set in the module points there.
func TestCallRunsCLI(t *testing.T) {
	writeTree(t, callTree())
	const common, small = "scenic/projects/demo/configs/common.py", "scenic/projects/demo/configs/small.py"
	for _, arg := range []string{".", small} {
		_, res, errs := checkJSON(t, arg)
		if got := strings.Join(findings(res), " "); got != common+":8 TL304 warning" {
			t.Errorf("%s: %s\n%s", arg, got, errs)
		}
		listed := false
		for _, f := range res.Files {
			if f.Path == small {
				listed = f.Framework == "scenic"
			}
		}
		if !listed {
			t.Errorf("%s: small.py not listed as scenic's: %+v", arg, res.Files)
		}
	}
}

// TestCallRunsCLIOtherFramework: a folder walk skips a call-built config whose run is no known
// framework's config, as it skips any such Python file: not listed, no finding.
func TestCallRunsCLIOtherFramework(t *testing.T) {
	writeTree(t, map[string]string{
		"proj/configs/common.py": "import ml_collections\n\n\ndef get_base():\n  config = ml_collections.ConfigDict()\n  config.width = 4\n  return config\n",
		"proj/configs/run.py":    "from proj.configs import common\n\n\ndef get_config():\n  config = common.get_base()\n  config.model.depth = 2\n  return config\n",
	})
	_, res, errs := checkJSON(t, ".")
	if len(res.Diagnostics) != 0 || len(res.Files) != 0 {
		t.Errorf("files %+v, findings %+v\n%s", res.Files, res.Diagnostics, errs)
	}
}

// TestWalkMLCollectionsConfigs: a folder walk lints the ml_collections configs no dialect reads
// (score_sde's layout, written here for the test): a get_config that makes its ConfigDict, and
// one that takes it from the repository's get_default_configs, whose finding points where the
// defaults set the value; a training script, a module of torch.nn classes, the program that
// loads the config and a get_config of a plain dict stay skipped quietly.
func TestWalkMLCollectionsConfigs(t *testing.T) {
	writeTree(t, map[string]string{
		"configs/default_cifar10_configs.py": "import ml_collections\nimport torch\n\n\ndef get_default_configs():\n  config = ml_collections.ConfigDict()\n  config.training = training = ml_collections.ConfigDict()\n  training.batch_size = 128\n  training.eval_freq = 100\n  config.eval = evaluate = ml_collections.ConfigDict()\n  evaluate.batch_size = 1024\n  config.device = torch.device('cuda:0') if torch.cuda.is_available() else torch.device('cpu')\n  return config\n",
		"configs/ve/small.py":                "from configs.default_cifar10_configs import get_default_configs\n\n\ndef get_config():\n  config = get_default_configs()\n  training = config.training\n  training.batch_size = 8\n  return config\n",
		"configs/vp/own.py":                  "import ml_collections\n\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n  config.training = training = ml_collections.ConfigDict()\n  training.batch_size = 8\n  config.eval = evaluate = ml_collections.ConfigDict()\n  evaluate.batch_size = 1024\n  return config\n",
		"configs/plain.py":                   "def get_config():\n  return dict(batch_size=8, eval_batch_size=1024)\n",
		"run_lib.py":                         "import torch\n\n\ndef train(config, workdir):\n  batch_size = config.training.batch_size\n  return torch.zeros(batch_size)\n",
		"models/ncsnpp.py":                   "import torch.nn as nn\n\n\nclass NCSNpp(nn.Module):\n  def __init__(self, config):\n    super().__init__()\n    self.nf = config.model.nf\n",
		"main.py":                            "from absl import app\nfrom ml_collections.config_flags import config_flags\nimport run_lib\n\nconfig_flags.DEFINE_config_file('config', None, 'cfg')\n\n\ndef main(argv):\n  run_lib.train(FLAGS.config, FLAGS.workdir)\n\n\nif __name__ == '__main__':\n  app.run(main)\n",
	})
	os.Mkdir(".git", 0o755)
	_, res, errs := checkJSON(t, ".")
	if got := strings.Join(findings(res), " "); got != "configs/default_cifar10_configs.py:11 TL209 info configs/vp/own.py:9 TL209 info" {
		t.Errorf("findings: %s\n%s", got, errs)
	}
	for _, d := range res.Diagnostics {
		if d.File == "configs/default_cifar10_configs.py" && (len(d.Related) == 0 || d.Related[0].File != "configs/ve/small.py" || d.Related[0].Line != 7) {
			t.Errorf("the train batch is set in configs/ve/small.py:7: %+v", d.Related)
		}
	}
	var files []string
	for _, f := range res.Files {
		files = append(files, f.Path+" "+f.Framework)
	}
	if got := strings.Join(files, ", "); got != "configs/ve/small.py generic, configs/vp/own.py generic" {
		t.Errorf("files: %s", got)
	}
}

// TestWalkSkipsScriptWithBase: a script that parses its command line and binds _base_ to a
// folder (BIDL's tools/apuinfer_mutidevice.py) is no config, neither walked nor taken for a run
// of code configs; the config beside it still is.
func TestWalkSkipsScriptWithBase(t *testing.T) {
	writeTree(t, map[string]string{
		".git/HEAD":                    "ref: refs/heads/main\n",
		"tools/apuinfer_mutidevice.py": "import argparse\nimport os\nfrom utils.config import file2dict\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--config', type=str)\nargs = parser.parse_args()\ncfg = file2dict(args.config)\n_base_ = os.path.join(cfg['work_dir'], 'Net')\nmodel_path = os.path.join(f'{_base_}', 'Net_0')\n",
		"configs/_base_/data.py":       "train_dataloader = dict(batch_size=8, num_workers=2)\nval_dataloader = dict(batch_size=1, num_workers=2)\n",
		"configs/net.py":               "_base_ = ['./_base_/data.py']\nmodel = dict(type='ResNet')\n",
	})
	for _, arg := range []string{".", "tools/apuinfer_mutidevice.py"} {
		_, res, errs := checkJSON(t, arg)
		for _, d := range res.Diagnostics {
			if d.File == "tools/apuinfer_mutidevice.py" {
				t.Errorf("check %s: the script is linted: %+v\n%s", arg, d, errs)
			}
		}
		if arg == "." && !strings.Contains(strings.Join(findings(res), " "), "configs/_base_/data.py") {
			t.Errorf("the config beside it: %v\n%s", findings(res), errs)
		}
	}
}

// TestNamedBaseLintedInItsReadersRuns: a base named alone (pre-commit names the staged files)
// is linted in the runs of the configs built on it, directly or through another base, as a
// walk of the tree lints it: leaf.py reads coco_det.py through mid.py and overrides its eval
// batch, so the base's eval batch of 1 is no finding (linted alone, it was one); once plain.py
// reads the base as it is, the finding comes back. The configs read for it are not reported
// themselves.
func TestNamedBaseLintedInItsReadersRuns(t *testing.T) {
	tree := map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"configs/_base_/datasets/coco_det.py": "train_dataloader = dict(batch_size=2, num_workers=2)\n" +
			"val_dataloader = dict(batch_size=1, num_workers=2)\n",
		"configs/_base_/mid.py": "_base_ = ['./datasets/coco_det.py']\nmodel = dict(type='RetinaNet')\n",
		"configs/det/leaf.py":   "_base_ = ['../_base_/mid.py']\nval_dataloader = dict(batch_size=2)\n",
	}
	writeTree(t, tree)
	const base = "configs/_base_/datasets/coco_det.py"
	inBase := func(res *lint.Result) string { return findingsIn(res, base) }
	_, whole, _ := checkJSON(t, ".")
	_, named, _ := checkJSON(t, base)
	if got, want := inBase(named), inBase(whole); got != want || strings.Contains(got, "TL202") {
		t.Errorf("named base: %q, want the walk's %q and no TL202 (leaf.py overrides the eval batch)", got, want)
	}
	if len(named.Files) != 1 || named.Files[0].Path != base {
		t.Errorf("named base: files %+v, want the base alone", named.Files)
	}
	for _, d := range named.Diagnostics {
		if d.File != base {
			t.Errorf("named base: finding in a file not given: %+v", d)
		}
	}
	// A config that reads the base as it is: its run finds the eval batch.
	if err := os.WriteFile("configs/det/plain.py", []byte("_base_ = '../_base_/datasets/coco_det.py'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, named, _ = checkJSON(t, base)
	if got := inBase(named); got != base+":2 TL202 warning" {
		t.Errorf("named base with plain.py: %q, want TL202 at line 2", got)
	}
}

// TestNamedBaseAsTheWalk: the configs searched for a named base are those a walk lints: a
// gitignored work_dirs/ copy that overrides the eval batch does not hide the finding the walk
// reports, and a reader past thousands of other .py files is still found. A named script is
// searched for by nobody.
func TestNamedBaseAsTheWalk(t *testing.T) {
	tree := map[string]string{
		".git/HEAD":  "ref: refs/heads/main\n",
		".gitignore": "work_dirs/\n",
		"configs/_base_/datasets/coco_det.py": "train_dataloader = dict(batch_size=2, num_workers=2)\n" +
			"val_dataloader = dict(batch_size=1, num_workers=2)\n",
		"zz/x/y/leaf.py": "_base_ = ['../../../configs/_base_/datasets/coco_det.py']\nval_dataloader = dict(batch_size=2)\n",
		"tools/train.py": "import sys\n\n\ndef main():\n    print(sys.argv)\n",
	}
	for i := range maxCodeFiles + 50 {
		tree[fmt.Sprintf("pkg/m%04d/mod.py", i)] = "import os\n"
	}
	writeTree(t, tree)
	const base = "configs/_base_/datasets/coco_det.py"
	// zz/x/y/leaf.py overrides the eval batch, four folders down, below 3,050 files of pkg/.
	_, walk, _ := checkJSON(t, ".")
	_, named, _ := checkJSON(t, base)
	if w, n := strings.Join(findings(walk), " "), strings.Join(findings(named), " "); w != n || strings.Contains(n, "TL202") {
		t.Errorf("named base %q, walk %q: want the same, no TL202", n, w)
	}
	// Without zz/x/y/leaf.py only a gitignored copy overrides it: the walk and the named
	// base both report the finding.
	if err := os.Remove("zz/x/y/leaf.py"); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("work_dirs", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("work_dirs/exp.py", []byte("_base_ = ['../configs/_base_/datasets/coco_det.py']\nval_dataloader = dict(batch_size=2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, walk, _ = checkJSON(t, ".")
	_, named, _ = checkJSON(t, base)
	if w, n := strings.Join(findings(walk), " "), strings.Join(findings(named), " "); w != n || !strings.Contains(n, base+":2 TL202") {
		t.Errorf("without zz/x/y/leaf.py: named base %q, walk %q: want the same, with TL202 at line 2", n, w)
	}
	ins, _, _ := collectInputs([]string{"tools/train.py"}, "")
	if rp := planRuns(ins, nil, sameOptions(lint.Options{})); len(rp.trees) != 0 && len(rp.trees[0].extra) != 0 {
		t.Errorf("named script: %d configs added to its tree", len(rp.trees[0].extra))
	}
}

// TestTreeRootAboveWorkingDir: a code config named from a folder inside its repository is
// composed in the repository (the nearest .git, or the outermost Python project's folder of a
// release without one), so an include written from the repository's top resolves; a .git
// more than joinSearchDepth folders above the file, past the working directory, is not taken.
func TestTreeRootAboveWorkingDir(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a/b/base.gin": "X.y = 1\n",
		"a/c/run.gin":  "include 'a/b/base.gin'\nZ.w = 2\n",
	})
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	t.Chdir(filepath.Join(dir, "a", "c"))
	if _, res, _ := checkJSON(t, "run.gin"); len(res.Diagnostics) != 0 {
		t.Errorf("the include from the repository's top did not resolve: %v", findings(res))
	}
	// No .git: a Python project's file above the working directory marks the tree.
	os.Remove(filepath.Join(dir, ".git"))
	if _, res, _ := checkJSON(t, "run.gin"); strings.Join(findings(res), " ") != "run.gin:1 TL006 info" {
		t.Errorf("no repository, no project: %v", findings(res))
	}
	os.WriteFile(filepath.Join(dir, "setup.py"), []byte("from setuptools import setup\nsetup()\n"), 0o644)
	if _, res, _ := checkJSON(t, "run.gin"); len(res.Diagnostics) != 0 {
		t.Errorf("the release's project folder was not the tree: %v", findings(res))
	}
	os.Remove(filepath.Join(dir, "setup.py"))
	// A .git far above the file (a home folder kept in git): not taken past the working folder.
	deep := filepath.Join(dir, "a", "c", "1", "2", "3", "4", "5", "6")
	os.MkdirAll(deep, 0o755)
	os.WriteFile(filepath.Join(deep, "run.gin"), []byte("include 'a/b/base.gin'\nZ.w = 2\n"), 0o644)
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	if _, res, _ := checkJSON(t, "1/2/3/4/5/6/run.gin"); strings.Join(findings(res), " ") != "1/2/3/4/5/6/run.gin:1 TL006 info" {
		t.Errorf("a .git eight folders up, above the working folder, was taken: %v", findings(res))
	}
	// Nor a home folder kept in git.
	t.Setenv("HOME", dir)
	t.Chdir(filepath.Join(dir, "a", "c"))
	if _, res, _ := checkJSON(t, "run.gin"); strings.Join(findings(res), " ") != "run.gin:1 TL006 info" {
		t.Errorf("the home folder's .git was taken: %v", findings(res))
	}
}

// TestTreeRootThroughSymlink: from inside a folder that is a symbolic link into another
// place, the repository found above the working directory is the tree, not the folder ".."
// leads to from the link's target (where an unrelated configs/_base_ would be read).
func TestTreeRootThroughSymlink(t *testing.T) {
	top := writeTree(t, map[string]string{
		"repo/configs/_base_/data.py": "train_dataloader = dict(batch_size=2, num_workers=2)\nval_dataloader = dict(batch_size=1, num_workers=2)\n",
		"repo/configs/base.gin":       "X.y = 1\n",
		"x/shared/leaf.py":            "_base_ = ['../_base_/data.py']\nmodel = dict(type='RetinaNet')\n",
		"x/shared/run.gin":            "include 'configs/base.gin'\nZ.w = 2\n",
		// what the tree "../.." would hold seen from the link's target (top): another
		// configs/det/leaf.py and its base
		"configs/det/leaf.py":    "_base_ = ['../_base_/data.py']\n",
		"configs/_base_/data.py": "train_dataloader = dict(batch_size=8, num_workers=2)\nval_dataloader = dict(batch_size=2, num_workers=2)\n",
	})
	os.Mkdir(filepath.Join(top, "repo", ".git"), 0o755)
	if err := os.Symlink(filepath.Join(top, "x", "shared"), filepath.Join(top, "repo", "configs", "det")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	t.Chdir(filepath.Join(top, "repo", "configs", "det"))
	_, res, _ := checkJSON(t, "leaf.py", "run.gin")
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "eval batch 2") {
			t.Errorf("the link's target's ../_base_ was read: %s:%d %s", d.File, d.Line, d.Message)
		}
	}
}

// TestWalkedCodeConfigSeesRepositoryCode: an ml_collections config read generically gets the
// words and imports of the repository's code, as a YAML config does: google-research's
// swirl-dynamics hands Orbax a best_fn (so max_checkpoints_to_keep keeps the best N) and feeds
// num_workers to Grain, which reads ahead in threads with no worker processes.
func TestWalkedCodeConfigSeesRepositoryCode(t *testing.T) {
	cfg := "import ml_collections\n\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n  config.num_train_steps = 100000\n  config.save_interval_steps = 1000\n  config.max_checkpoints_to_keep = 3\n  config.batch_size = 8\n  config.num_workers = 0\n  return config\n"
	for _, c := range []struct {
		trainer, want string
	}{
		{"import grain.python as pygrain\nimport orbax.checkpoint as ocp\n\n\ndef train(config):\n  opts = ocp.CheckpointManagerOptions(max_to_keep=config.max_checkpoints_to_keep, best_fn=lambda m: m['loss'])\n  return pygrain.DataLoader(worker_count=config.num_workers, batch_size=config.batch_size, save=config.save_interval_steps, steps=config.num_train_steps)\n", ""},
		{"import torch\n\n\ndef train(config):\n  keep = config.max_checkpoints_to_keep\n  return torch.utils.data.DataLoader(None, num_workers=config.num_workers, batch_size=config.batch_size), keep, config.save_interval_steps, config.num_train_steps\n", "configs/c.py:8 TL301 warning configs/c.py:10 TL101 warning"},
	} {
		t.Run(c.want, func(t *testing.T) {
			writeTree(t, map[string]string{"configs/c.py": cfg, "train.py": c.trainer})
			os.Mkdir(".git", 0o755)
			_, res, errs := checkJSON(t, "--select", "TL101,TL301", ".")
			if got := strings.Join(findings(res), " "); got != c.want {
				t.Errorf("findings: %q, want %q\n%s", got, c.want, errs)
			}
		})
	}
}
