package lint_test

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/rules"
)

// TestForkRecipe: LLamaTuner's recipes have LLaMA-Factory's shape, but its own HfArgumentParser
// classes add wandb_project and eval_dataset_size (which gives them eval data). With those
// fields among the repository's dataclasses (Options.ScriptKeys) the file is no LLaMA-Factory
// file: no "refuses it at start-up", no "no eval data". One such key is not enough, and
// without the repository's fields the file is LLaMA-Factory's.
func TestForkRecipe(t *testing.T) {
	src := "model_name_or_path: Qwen/Qwen1.5-0.5B\nstage: sft\ndo_train: true\nfinetuning_type: lora\ndataset: alpaca\ntemplate: qwen\n" +
		"output_dir: out\nreport_to: wandb\nwandb_project: llamatuner\neval_dataset_size: 0.1\nper_device_eval_batch_size: 4\neval_strategy: steps\neval_steps: 500\n"
	fields := map[string]bool{"wandb_project": true, "eval_dataset_size": true, "seed": true}
	for _, tc := range []struct {
		name   string
		src    string
		fields map[string]bool
		fw     string
		codes  []string // codes that must (framework llama-factory) or must not appear
	}{
		{"the repository's fields", src, fields, "generic", nil},
		{"one field only", strings.Replace(src, "wandb_project: llamatuner\n", "", 1), fields, "llama-factory", []string{"TL003", "TL210"}},
		{"no repository fields", src, nil, "llama-factory", []string{"TL003", "TL210"}},
	} {
		info, ds := lint.LintFile(lint.File{Path: "qwen_lora_sft.yaml", Text: []byte(tc.src)}, rules.All(), lint.Options{ScriptKeys: tc.fields})
		if info.Framework != tc.fw {
			t.Errorf("%s: framework %s, want %s", tc.name, info.Framework, tc.fw)
		}
		got := map[string]bool{}
		for _, d := range ds {
			got[d.Code] = true
		}
		for _, c := range tc.codes {
			if !got[c] {
				t.Errorf("%s: no %s in %v", tc.name, c, got)
			}
		}
		if tc.fw == "generic" && (got["TL003"] || got["TL210"]) {
			t.Errorf("%s: %v", tc.name, got)
		}
	}
}

// TestOwnReadTrainerKeys: MFTCoder's xxpo_accelerate.py reads dpo_train_config.json with
// json.load into its own dataclass and builds DPOConfig by hand (eval_strategy="steps"); no
// Python of the repository uses HfArgumentParser. Keys no framework takes (xxpo, data_paths,
// saving_limit) that its code reads by name make the file the project's own: no claim of the
// Trainer's defaults. One such key is not enough, nor are keys the code does not read, and a
// repository with such a parser (its fields read) keeps the file the Trainer's.
func TestOwnReadTrainerKeys(t *testing.T) {
	src := `{"xxpo": "dpo", "data_paths": "d", "saving_limit": 5, "output_dir": "o", "per_device_train_batch_size": 1,
"per_device_eval_batch_size": 1, "learning_rate": 5e-7, "num_train_epochs": 2, "save_steps": 500, "eval_steps": 500}`
	reads := map[string]bool{"xxpo": true, "data_paths": true, "saving_limit": true, "output_dir": true}
	for _, tc := range []struct {
		name          string
		src           string
		fields, reads map[string]bool
		fw            string
	}{
		{"read by the project", src, nil, reads, "generic"},
		{"one key read", src, nil, map[string]bool{"xxpo": true, "output_dir": true}, "huggingface"},
		{"no Python", src, nil, nil, "huggingface"},
		{"a parser's fields", src, map[string]bool{"xxpo": true, "data_paths": true}, reads, "huggingface"},
	} {
		info, ds := lint.LintFile(lint.File{Path: "dpo_train_config.json", Text: []byte(tc.src)}, rules.All(), lint.Options{ScriptKeys: tc.fields, RepoReads: tc.reads})
		if info.Framework != tc.fw {
			t.Errorf("%s: framework %s, want %s", tc.name, info.Framework, tc.fw)
		}
		eval := false
		for _, d := range ds {
			eval = eval || d.Code == "TL204"
		}
		if eval != (tc.fw == "huggingface") {
			t.Errorf("%s: TL204 %v", tc.name, eval)
		}
	}
}
