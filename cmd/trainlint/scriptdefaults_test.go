package main

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/trainlint/trainlint/lint/testfs"
)

// A Trainer-shaped YAML that the repository's script reads itself, with defaults of its own
// (brineylab's robertaconfig-train.py: save_steps=train_config.get("save_steps", 50000)), gets
// no finding resting on the Trainer's default for such a key; without that script it does.
func TestScriptDefaultsReplaceFrameworkDefaults(t *testing.T) {
	const cfg = "run_name: x\nbatch_size: 32\nlogging_steps: 100\neval_strategy: steps\neval_steps: 25000\ndataloader_num_workers: 4\nreport_to: wandb\nmax_steps: 500000\n"
	for _, tc := range []struct {
		script string
		want   int
	}{
		{"import yaml\nfrom transformers import TrainingArguments\ncfg = yaml.safe_load(open('c.yaml'))\nargs = TrainingArguments(eval_steps=cfg.get(\"eval_steps\", 25000), save_steps=cfg.get(\"save_steps\", 50000))\n", 0},
		{"import yaml\ncfg = yaml.safe_load(open('c.yaml'))\nsave = cfg.get(\"save_steps\", None)\n", 1},
		{"print('hi')\n", 1},
	} {
		root := t.TempDir()
		testfs.Write(t, root, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "train.py": tc.script, "configs/c.yaml": cfg})
		_, res, _ := checkJSON(t, "--select", "TL303", "--framework", "huggingface", filepath.Join(root, "configs"))
		if len(res.Diagnostics) != tc.want {
			t.Errorf("script %q: findings %+v", tc.script, res.Diagnostics)
		}
	}
}

// A value the repository's script assigns on the config before using it (NeMo-Aligner's
// train_reward_model.py: cfg.model.global_batch_size = devices × nodes × micro batch) is not
// the file's: no finding rests on what the file writes for it.
func TestScriptSetsReplaceFileValues(t *testing.T) {
	const cfg = "trainer:\n  devices: 8\n  num_nodes: 1\nmodel:\n  micro_batch_size: 16\n  global_batch_size: 16\n  tensor_model_parallel_size: 1\n  pipeline_model_parallel_size: 1\n"
	for _, tc := range []struct {
		script string
		want   int
	}{
		{"@hydra_runner(config_path='conf', config_name='baseline')\ndef main(cfg):\n    cfg.model.global_batch_size = cfg.trainer.devices * cfg.model.micro_batch_size\n", 0},
		{"@hydra_runner(config_path='conf', config_name='baseline')\ndef main(cfg):\n    if cfg.model.global_batch_size == 16:\n        pass\n", 1},
	} {
		for _, composed := range []bool{false, true} {
			root := t.TempDir()
			c := cfg
			files := map[string]string{".git/HEAD": "ref: refs/heads/main\n", "train.py": tc.script}
			if composed {
				// A primary with a defaults list is linted as a composed run.
				c = "defaults:\n  - optim@model.optim: adam\n  - _self_\n" + cfg
				files["conf/optim/adam.yaml"] = "name: adam\n"
			}
			files["conf/baseline.yaml"] = c
			testfs.Write(t, root, files)
			_, res, _ := checkJSON(t, "--select", "TL701", "--framework", "nemo", filepath.Join(root, "conf"))
			if len(res.Diagnostics) != tc.want {
				t.Errorf("script %q, composed %v: findings %+v", tc.script, composed, res.Diagnostics)
			}
		}
	}
}

// What the scan takes as a script's own default or assignment, and what it leaves.
func TestScriptDefaultPatterns(t *testing.T) {
	text := `a = cfg.get("save_steps", 50000)
b = cfg.get("eval_steps", None)
c = cfg.get("logging_steps", default=None)
cfg.model.global_batch_size = 8
self.config.hidden_size = 4
model.config.vocab_size = 3
if cfg.trainer.devices == 8: pass
config.seed = 1
`
	gets, sets := map[string]bool{}, map[string]bool{}
	configUses(text, gets, sets)
	if !reflect.DeepEqual(gets, map[string]bool{"save_steps": true}) {
		t.Errorf("defaults %v", gets)
	}
	if !reflect.DeepEqual(sets, map[string]bool{"model.global_batch_size": true, "seed": true}) {
		t.Errorf("assignments %v", sets)
	}
}
