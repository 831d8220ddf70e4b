package main

import (
	"strings"
	"testing"
)

// TestOwnRunner: a repository whose script builds a runner class of its own (no Runner base)
// from an MMEngine-format config, and never MMEngine's or MMCV's runner, is marked; one that
// subclasses MMEngine's Runner, builds MMEngine's, or calls an OpenMMLab training API is not.
func TestOwnRunner(t *testing.T) {
	own := "class AccelerateRunner:\n    @classmethod\n    def from_cfg(cls, cfg):\n        return cls(cfg)\n"
	train := "from mmengine.config import Config\ncfg = Config.fromfile(path)\nrunner = AccelerateRunner.from_cfg(cfg)\nrunner.train()\n"
	loop := "from mmengine.config import Config\nfrom torch.utils.data import DataLoader\nfrom estimator.trainer import Trainer\ncfg = Config.fromfile(args.config)\nloader = DataLoader(ds, batch_size=cfg.train_dataloader.batch_size)\nTrainer(config=cfg, train_loader=loader).run()\n"
	for _, tc := range []struct {
		texts []string
		want  bool
	}{
		{[]string{own, train}, true},
		{[]string{"class MyRunner(Runner):\n    pass\n", "runner = MyRunner.from_cfg(cfg)\n"}, false},
		{[]string{own, train, "from mmengine.runner import Runner\nrunner = Runner.from_cfg(cfg)\n"}, false},
		{[]string{own, train, "from mmdet.apis import train_detector\ntrain_detector(model, ds, cfg)\n"}, false},
		{[]string{own}, false}, // defined, never built
		{[]string{own, "cfg = Config.fromfile(p)\nrunner = AccelerateRunner.from_cfg(cfg)\nrunner.infer(x)\n"}, false}, // built, never trained
		{[]string{own, train, "import mmengine\nrunner = mmengine.Runner.from_cfg(cfg)\n"}, false},
		// PatchFusion's tools/train.py: its own DataLoaders and Trainer class, no runner
		{[]string{loop}, true},
		{[]string{loop, "from mmdet.apis import train_detector\ntrain_detector(model, ds, cfg)\n"}, false},
		{[]string{"cfg = Config.fromfile(p)\nmodel = build(cfg.model)\n"}, false}, // parsed, no loader built
		// accelerate's backward, DETR's train_one_epoch
		{[]string{strings.Replace(loop, "Trainer(config=cfg, train_loader=loader).run()", "for b in loader:\n    accelerator.backward(model(b))", 1)}, true},
		{[]string{strings.Replace(loop, "Trainer(config=cfg, train_loader=loader).run()", "train_one_epoch(model, loader, opt)", 1)}, true},
		// a loader built, nothing trained (a dataset browser's statistics)
		{[]string{"cfg = Config.fromfile(p)\nfor b in DataLoader(build(cfg.train_dataloader.dataset)):\n    count(b)\n"}, false},
	} {
		r := &runnerScan{own: map[string]bool{}, called: map[string]bool{}}
		for _, text := range tc.texts {
			runnerUses("tools/train.py", text, r)
		}
		if got := r.ownRunner(); got != tc.want {
			t.Errorf("%q: own runner %v, want %v", tc.texts, got, tc.want)
		}
	}
	// Only a train*.py: a browser of the training set that puts a model in train mode is none.
	r := &runnerScan{own: map[string]bool{}, called: map[string]bool{}}
	runnerUses("tools/browse_train_set.py", "cfg = Config.fromfile(p)\nmodel.train()\nfor b in DataLoader(ds):\n    show(b)\n", r)
	if r.ownRunner() {
		t.Error("browse_train_set.py: own runner")
	}
}

// TestOwnRunnerSkipsRunnerChecks: through check, MMEngine's Runner start-up check (all of
// train_dataloader, train_cfg and optim_wrapper, or none) is not reported in a repository whose
// own runner reads cfg.optimizer (HFTrainer), while the config's other findings stay; beside
// MMEngine's runner it is.
func TestOwnRunnerSkipsRunnerChecks(t *testing.T) {
	cfg := "train_dataloader = dict(type='AlpacaDataset', batch_size=2, num_workers=0, shuffle=True)\ntrain_cfg = dict(by_epoch=False, max_iters=1000)\noptimizer = dict(type='AdamW', lr=2e-5)\nmodel = dict(type='Llama')\n"
	files := map[string]string{
		"pyproject.toml":           "[project]\nname = 'x'\n",
		"pkg/runner.py":            "class AccelerateRunner:\n    @classmethod\n    def from_cfg(cls, cfg):\n        return cls()\n",
		"tools/train.py":           "from mmengine.config import Config\ncfg = Config.fromfile(p)\nrunner = AccelerateRunner.from_cfg(cfg)\nrunner.train()\n",
		"configs/llm/llama_sft.py": cfg,
	}
	out := lintInRepo(t, files, "configs/llm/llama_sft.py", "TL011,TL101")
	if strings.Contains(out, "TL011") || !strings.Contains(out, "TL101") {
		t.Errorf("own runner:\n%s", out)
	}
	files["tools/train.py"] = "from mmengine.runner import Runner\nfrom mmengine.config import Config\nrunner = Runner.from_cfg(Config.fromfile(p))\n"
	if out := lintInRepo(t, files, "configs/llm/llama_sft.py", "TL011"); !strings.Contains(out, "TL011") {
		t.Errorf("MMEngine's runner:\n%s", out)
	}
	// PatchFusion: no runner class at all, the script builds its loaders and loop itself.
	delete(files, "pkg/runner.py")
	files["tools/train.py"] = "from mmengine.config import Config\nfrom torch.utils.data import DataLoader\ncfg = Config.fromfile(p)\nloader = DataLoader(ds, batch_size=cfg.train_dataloader.batch_size)\nTrainer(config=cfg, train_loader=loader).run()\n"
	if out := lintInRepo(t, files, "configs/llm/llama_sft.py", "TL011,TL101"); strings.Contains(out, "TL011") || !strings.Contains(out, "TL101") {
		t.Errorf("own loaders and loop:\n%s", out)
	}
	// The same script as a dataset browser (configs trained by mim train): MMEngine's Runner
	// may run them, so its start-up checks stay.
	delete(files, "tools/train.py")
	files["tools/browse_dataset_stats.py"] = "from mmengine.config import Config\nfrom torch.utils.data import DataLoader\ncfg = Config.fromfile(p)\nfor b in DataLoader(ds):\n    print(len(b))\n"
	if out := lintInRepo(t, files, "configs/llm/llama_sft.py", "TL011"); !strings.Contains(out, "TL011") {
		t.Errorf("a dataset browser's loader:\n%s", out)
	}
}

// TestOwnTrainingLoop: a repository whose Python parses TrainingArguments but names no Trainer
// class (finetune-hf-vits: trainer_utils is a module, not a class) runs its own loop; one that
// names any Trainer class, or parses no TrainingArguments, or has no Python, does not.
func TestOwnTrainingLoop(t *testing.T) {
	for _, tc := range []struct {
		names map[string]bool
		loop  bool
	}{
		{map[string]bool{"hfargumentparser": true, "trainingarguments": true, "trainer_utils": true}, true},
		{map[string]bool{"hfargumentparser": true, "seq2seqtrainer": true}, false},
		{map[string]bool{"accelerator": true}, false},
		{nil, false},
	} {
		if got := ownTrainingLoop(tc.names); got != tc.loop {
			t.Errorf("%v: own loop %v, want %v", tc.names, got, tc.loop)
		}
	}
}
