package main

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
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
cfg.batch_size //= num_gpus
cfg.lr *= 2
cfg.seed_offset += rank
if cfg.eval_batch_size <= 4: pass
`
	root := t.TempDir()
	scales := map[string]bool{}
	scan := func(text string, gets map[string]string, sets map[string]bool) {
		scriptSets(root, filepath.Join(root, "train.py"), text, gets, sets, scales, map[string]map[string]bool{})
	}
	gets, sets := map[string]string{}, map[string]bool{}
	scan(text, gets, sets)
	if !reflect.DeepEqual(gets, map[string]string{"save_steps": "50000"}) {
		t.Errorf("defaults %v", gets)
	}
	if !reflect.DeepEqual(sets, map[string]bool{"model.global_batch_size": true, "seed": true, "seed_offset": true}) {
		t.Errorf("assignments %v", sets)
	}
	if !reflect.DeepEqual(scales, map[string]bool{"batch_size": true, "lr": true}) {
		t.Errorf("scalings %v", scales)
	}
	// two reads of a key with different defaults: which applies is not known
	scan("a = d.get(\"save_steps\", 100)\n", gets, sets)
	if gets["save_steps"] != "" {
		t.Errorf("two defaults: %q", gets["save_steps"])
	}
}

// A script that names the config file it loads sets keys in that file alone: AblateIt's
// sweep.py loads its template (an argument's default), rewrites run_config["save_strategy"] and
// ["save_steps"] and launches the rewritten copy, so the template's mismatch, which axolotl
// would refuse, never reaches it; a template the script does not name keeps the finding.
func TestScriptItemSetsInNamedConfig(t *testing.T) {
	const tmpl = "base_model: m\ndatasets:\n  - path: d\n    type: alpaca\nval_set_size: 0.05\noutput_dir: ./out\nmicro_batch_size: 1\nnum_epochs: 7\nlearning_rate: 0.00002\nwandb_project: x\n" +
		"save_strategy: epoch\neval_strategy: epoch\neval_steps: 0.2\nsave_steps: 0.2\n"
	root := t.TempDir()
	testfs.Write(t, root, map[string]string{".git/HEAD": "ref: refs/heads/main\n",
		"sweep.py": "import argparse, yaml\nparser = argparse.ArgumentParser()\nparser.add_argument(\"--default_training_args\", default=\"configs/default_qlora.yaml\")\nargs = parser.parse_args()\n" +
			"run_config = yaml.safe_load(open(args.default_training_args))\nif run_config[\"save_strategy\"] == \"epoch\":\n    run_config[\"save_steps\"] = 200\n    run_config[\"save_strategy\"] = \"steps\"\n",
		"configs/default_qlora.yaml": tmpl, "configs/other.yaml": tmpl})
	_, res, _ := checkJSON(t, "--select", "TL011", filepath.Join(root, "configs"))
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, filepath.Base(d.File))
	}
	if !reflect.DeepEqual(got, []string{"other.yaml"}) {
		t.Errorf("TL011 in %v, want other.yaml alone: %+v", got, res.Diagnostics)
	}
}

// Where a script's assignments apply (scriptSets): in the files it names, when it reads no
// command line; everywhere when it names none, or reads its command line (it may load whatever
// it is handed). Item assignments count only in named files.
func TestScriptSetsScope(t *testing.T) {
	root := t.TempDir()
	testfs.Write(t, root, map[string]string{"a.yaml": "x: 1\n", "b.yaml": "x: 1\n"})
	a, b := filepath.Join(root, "a.yaml"), filepath.Join(root, "b.yaml")
	for _, tc := range []struct {
		text       string
		global, aa []string
	}{
		{"config = OmegaConf.load(\"a.yaml\")\nconfig.save_folder = 'x'\nconfig[\"seed\"] = 3\n", nil, []string{"save_folder", "seed"}},
		{"p.add_argument('--c', default='a.yaml')\nconfig = OmegaConf.load(args.c)\nconfig.save_folder = 'x'\nconfig['seed'] = 3\n", []string{"save_folder"}, []string{"save_folder", "seed"}},
		{"config = OmegaConf.load(args.c)\nconfig.save_folder = 'x'\nconfig['seed'] = 3\n", []string{"save_folder"}, nil},
		{"config = OmegaConf.load('missing.yaml')\nconfig.save_folder = 'x'\n", []string{"save_folder"}, nil},
		// a helper module handed a path another file's argparse reads, or one from the environment
		{"cfg = OmegaConf.merge(OmegaConf.load('a.yaml'), OmegaConf.load(path))\ncfg.TRAIN.BATCH_SIZE = 1\n", []string{"TRAIN.BATCH_SIZE"}, []string{"TRAIN.BATCH_SIZE"}},
		{"vocab = json.load(open('a.yaml'))\ncfg = OmegaConf.load(os.environ['CFG'])\ncfg.TRAIN.BATCH_SIZE = 1\n", []string{"TRAIN.BATCH_SIZE"}, []string{"TRAIN.BATCH_SIZE"}},
		// the path bound to a name first, or a file opened from it: still the file named
		{"config_path = \"a.yaml\"\nconfig = OmegaConf.load(config_path)\nconfig.save_folder = 'x'\n", nil, []string{"save_folder"}},
		{"with open('a.yaml') as f:\n    config = yaml.safe_load(f)\nconfig.save_folder = 'x'\n", nil, []string{"save_folder"}},
		// files written, checkpoints and images read are no configs loaded
		{"with open('a.yaml') as f:\n    config = yaml.safe_load(f)\nconfig.save_folder = 'x'\nopen(os.path.join(out, 'notes.txt'), 'w').write('x')\nsd = torch.load(ckpt)\nim = Image.open(p)\n", nil, []string{"save_folder"}},
		{"with open('a.yaml') as f:\n    config = yaml.safe_load(f)\nconfig.save_folder = 'x'\nextra = yaml.safe_load(open(other_path, mode='r'))\n", []string{"save_folder"}, []string{"save_folder"}},
		// OmegaConf.update with a literal key, on the config or a node of it (physicsnemo)
		{"import hydra\ndef main(cfg):\n    OmegaConf.update(cfg, \"out_dim\", 4, force_add=True)\n    OmegaConf.update(cfg.model, 'arch.width', 8)\n    OmegaConf.update(cfg, key, 1)\n", []string{"model.arch.width", "out_dim"}, nil},
		// a fixed base and the experiment file the command line names (motion-latent-diffusion)
		{"parser = argparse.ArgumentParser()\ncfg = OmegaConf.merge(OmegaConf.load('a.yaml'), OmegaConf.load(params.cfg))\ncfg.TRAIN.BATCH_SIZE = 4\n", []string{"TRAIN.BATCH_SIZE"}, []string{"TRAIN.BATCH_SIZE"}},
	} {
		gets, sets, setsFor := map[string]string{}, map[string]bool{}, map[string]map[string]bool{}
		scriptSets(root, filepath.Join(root, "train.py"), tc.text, gets, sets, map[string]bool{}, setsFor)
		if got := sortedKeys(sets); !reflect.DeepEqual(got, tc.global) {
			t.Errorf("%q: repository-wide %v, want %v", tc.text, got, tc.global)
		}
		if got := sortedKeys(setsFor[a]); !reflect.DeepEqual(got, tc.aa) {
			t.Errorf("%q: in a.yaml %v, want %v", tc.text, got, tc.aa)
		}
		if setsFor[b] != nil {
			t.Errorf("%q: b.yaml %v", tc.text, setsFor[b])
		}
	}
}

// sortedKeys lists a set's keys in order (nil for an empty set).
func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// A script that may be handed any config (it reads its command line) and assigns a key on it,
// conditionally or not, does not stop the framework refusing the value a file writes: the file
// may be launched as it is. (Its facts still go: what the script sets is not the file's.)
func TestScriptSetsAnywhereKeepRefusals(t *testing.T) {
	const tmpl = "base_model: m\ndatasets:\n  - path: d\n    type: alpaca\nval_set_size: 0.05\noutput_dir: ./out\nmicro_batch_size: 1\nnum_epochs: 7\nlearning_rate: 0.00002\nwandb_project: x\n" +
		"save_strategy: epoch\nsave_steps: 0.2\n"
	root := t.TempDir()
	testfs.Write(t, root, map[string]string{".git/HEAD": "ref: refs/heads/main\n",
		"debug.py":       "import argparse\nargs = argparse.ArgumentParser().parse_args()\ncfg = load(args.config)\nif args.quick:\n    cfg.save_strategy = \"no\"\n",
		"configs/a.yaml": tmpl})
	_, res, _ := checkJSON(t, "--select", "TL011", filepath.Join(root, "configs"))
	if len(res.Diagnostics) != 1 {
		t.Errorf("want the save mismatch refused: %+v", res.Diagnostics)
	}
}

// A key a script scales in place is not the file's value, unless that value is 0, which the
// scaling keeps: MMAudio's train.py turns a global batch_size into a per-GPU one with
// `cfg.batch_size //= num_gpus`, so no per-GPU train batch is read from the file (no TL202 against
// the per-GPU eval batch), while Cutie's `cfg.num_workers //= num_gpus` leaves a 0 a 0 (TL101
// stays).
func TestScriptScalesKeepZero(t *testing.T) {
	files := map[string]string{
		"setup.py":                 "",
		"train.py":                 "import hydra\n@hydra.main(version_base='1.3', config_path='config', config_name='train_config')\ndef main(cfg):\n    cfg.batch_size //= num_gpus\n    cfg.num_workers //= num_gpus\n    train(cfg)\n",
		"config/train_config.yaml": "batch_size: 512\neval_batch_size: 256\nnum_workers: 0\nnum_iterations: 100000\nlearning_rate: 1.0e-4\n",
	}
	out := lintInRepo(t, files, "config/train_config.yaml", "TL101,TL202")
	if strings.Contains(out, "TL202") || !strings.Contains(out, "TL101") {
		t.Errorf("scaled keys: want TL101 and no TL202:\n%s", out)
	}
	files["train.py"] = strings.NewReplacer("    cfg.batch_size //= num_gpus\n", "", "    cfg.num_workers //= num_gpus\n", "").Replace(files["train.py"])
	if out := lintInRepo(t, files, "config/train_config.yaml", "TL101,TL202"); !strings.Contains(out, "TL202") || !strings.Contains(out, "TL101") {
		t.Errorf("without the scaling: want TL101 and TL202:\n%s", out)
	}
}
