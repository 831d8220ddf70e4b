package main

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Configs in MMEngine's Python format that no MMEngine Runner runs. HFTrainer's tools/train.py
// parses a config with mmengine's Config.fromfile and hands it to AccelerateRunner.from_cfg, a
// class of its own that reads cfg.optimizer: MMEngine's Runner.__init__, whose start-up checks
// the mmengine dialect reports (train_dataloader, train_cfg and optim_wrapper all set or none),
// never runs, and neither do its hooks and defaults. The scan (runnerUses) notes the runner
// classes the repository defines that derive from no Runner, the ones its scripts build from a
// config, and whether any script uses MMEngine's or MMCV's runner (or an OpenMMLab package's
// training API, which builds one); only a repository that builds one of its own and never theirs
// is marked (lint.Options.OwnRunner). So is one whose training script (a train*.py that
// runs a loop: run(), train(), fit(, backward(, train_one_epoch() parses a config with Config.fromfile and builds its
// DataLoaders itself, never using theirs: PatchFusion's tools/train.py (@edb4679 :81,
// :172-215) hands the config to a Trainer class of its own that runs its own loop. A dataset
// browser that builds a DataLoader beside configs trained by mim train is no such script.

var (
	// ownRunnerRE: `class AccelerateRunner:` or `class X(object):` with Runner in the name and
	// no Runner among the bases.
	ownRunnerRE = regexp.MustCompile(`(?m)^class\s+(\w*Runner)\s*(?:\(([^)]*)\))?\s*:`)
	// runnerBaseRE: a base class that is a runner.
	runnerBaseRE = regexp.MustCompile(`Runner\b`)
	// trainsRE: a script that runs a training loop (trainer.run(), runner.train(),
	// trainer.fit(...), loss.backward(), accelerator.backward(loss), DETR's train_one_epoch(...)).
	trainsRE = regexp.MustCompile(`\.(?:run|train)\(\)|\.fit\(|\.backward\(|\btrain_one_epoch\(`)
	// builtRE: a runner class built from a config, `X.from_cfg(` or `X(cfg`.
	builtRE = regexp.MustCompile(`\b(\w*Runner)(?:\.from_cfg\(|\(\s*cfg\b)`)
	// theirRunnerRE: MMEngine's or MMCV's runner, or an OpenMMLab training API that builds one.
	theirRunnerRE = regexp.MustCompile(`mmengine\.runner|mmengine\.Runner\b|mmcv\.runner|from mmengine import[^\n]*\bRunner\b|RUNNERS\.build|build_runner\(|(?:^|[^\w.])Runner(?:\.from_cfg)?\(|\bmm\w+\.apis\b|\btrain_(?:detector|segmentor|model)\(`)
)

// runnerScan is what runnerUses found over a repository's scripts.
type runnerScan struct {
	own, called map[string]bool
	theirs      bool
	// ownLoader: a script parses a config and builds its DataLoaders itself
	ownLoader bool
}

// runnerUses notes the runner classes text defines with no Runner base, the runner classes it
// builds from a config in a script that trains (calls .train()), and whether it uses
// MMEngine's or MMCV's.
func runnerUses(p, text string, r *runnerScan) {
	if !strings.Contains(text, "Runner") && !strings.Contains(text, "fromfile(") && !strings.Contains(text, ".apis") &&
		!strings.Contains(text, "train_detector(") && !strings.Contains(text, "train_segmentor(") && !strings.Contains(text, "train_model(") {
		return // a file naming none of these is not read (a bare mmengine.runner import neither)
	}
	for _, m := range ownRunnerRE.FindAllStringSubmatch(text, -1) {
		if !runnerBaseRE.MatchString(m[2]) {
			r.own[m[1]] = true
		}
	}
	if strings.Contains(text, ".train()") {
		// Built where it trains (tools/train.py's runner.train()), not an inference runner.
		for _, m := range builtRE.FindAllStringSubmatch(text, -1) {
			r.called[m[1]] = true
		}
	}
	if theirRunnerRE.MatchString(text) {
		r.theirs = true
	}
	if strings.Contains(text, "Config.fromfile(") && strings.Contains(text, "DataLoader(") &&
		strings.HasPrefix(filepath.Base(p), "train") && trainsRE.MatchString(text) {
		r.ownLoader = true
	}
}

// ownRunner reports a repository whose scripts build a runner class of their own from a
// config and never MMEngine's or MMCV's.
func (r *runnerScan) ownRunner() bool {
	if r.theirs {
		return false
	}
	if r.ownLoader {
		return true
	}
	for c := range r.called {
		if r.own[c] {
			return true
		}
	}
	return false
}
