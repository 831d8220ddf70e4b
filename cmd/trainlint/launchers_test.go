package main

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/trainlint/trainlint/lint/testfs"
)

// launchKeys reads the key=value words after a config file on each launch command line, across
// continued lines, from the repository root or the script's folder; comments, echoed usage
// lines and configs that name no file are no launch, and a key counts when every launch of
// the config gives it.
func TestLaunchKeys(t *testing.T) {
	root := t.TempDir()
	testfs.Write(t, root, map[string]string{"configs/base.yaml": "a: 1\n", "jobs/local.yaml": "b: 2\n", "configs/other.yaml": "c: 3\n", "jobs/local2.yaml": "d: 4\n"})
	script := filepath.Join(root, "jobs", "run.sbatch")
	launch := map[string][]map[string]bool{}
	launchKeys(root, script, "#!/bin/bash\naccelerate launch \\\n  src/train.py configs/base.yaml \\\n  model_name_or_path=\"Qwen/Qwen2.5-7B\" \\\n  dataset=x output_dir=out --flag\n"+
		"llamafactory-cli train local.yaml lora.rank=8 # trailing=comment\n"+
		"python train.py configs/missing.yaml model_name_or_path=m\npython train.py configs/base.yaml dataset=y\necho configs/base.yaml=1\n"+
		"# llamafactory-cli train configs/other.yaml model_name_or_path=m\necho \"usage: llamafactory-cli train configs/other.yaml model_name_or_path=MODEL\"\n"+
		"llamafactory-cli train configs/other.yaml\n"+
		"echo \"run: llamafactory-cli train jobs/local2.yaml model_name_or_path=MODEL\"\n", launch)
	got := map[string]map[string]bool{}
	for cfg, ls := range launch {
		got[cfg] = launchedKeys(ls)
	}
	want := map[string]map[string]bool{
		filepath.Join(root, "configs", "base.yaml"):  {"dataset": true},
		filepath.Join(root, "jobs", "local.yaml"):    {"lora.rank": true},
		filepath.Join(root, "configs", "other.yaml"): nil,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

// A LLaMA-Factory base recipe without model_name_or_path stops at start-up when run alone, but
// not when every run the repository's launchers make gives the model on the command line
// (read_args merges the words into the YAML): the refusal is then no claim about the file.
func TestLaunchKeysSilenceMissingModel(t *testing.T) {
	const recipe = "stage: sft\ndo_train: true\nfinetuning_type: lora\ndataset: alpaca\ntemplate: qwen\noutput_dir: out\n"
	for _, tc := range []struct {
		script, pin, recipe string
		want                bool
	}{
		{"llamafactory-cli train configs/base.yaml model_name_or_path=Qwen/Qwen2.5-7B\n", "", recipe, false},
		{"llamafactory-cli train configs/base.yaml model_name_or_path=Qwen/Qwen2.5-7B\n", "", "model_name_or_path:\n" + recipe, false},
		{"llamafactory-cli train configs/base.yaml learning_rate=1e-4\n", "", recipe, true},
		{"", "", recipe, true},
		// Before v0.9.3 read_args hands the words to the parser, which refuses them.
		{"llamafactory-cli train configs/base.yaml model_name_or_path=Qwen/Qwen2.5-7B\n", "llamafactory==0.9.2\n", recipe, true},
	} {
		root := t.TempDir()
		files := map[string]string{".git/HEAD": "ref: refs/heads/main\n", "configs/base.yaml": tc.recipe}
		if tc.pin != "" {
			files["requirements.txt"] = tc.pin
		}
		if tc.script != "" {
			files["scripts/run.sh"] = tc.script
		}
		testfs.Write(t, root, files)
		_, res, _ := checkJSON(t, "--select", "TL011", filepath.Join(root, "configs"))
		if got := len(res.Diagnostics) == 1; got != tc.want {
			t.Errorf("script %q: findings %+v", tc.script, res.Diagnostics)
		}
	}
}
