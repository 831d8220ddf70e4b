package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckoutRecipesDecideValidation: in a copy of torchtune (UpstageAI's fork at 0318e7da,
// version.txt 0.7.0), `tune run qat_lora_finetune_distributed` runs the copy's own
// recipes/qat_lora_finetune_distributed.py, which reads no run_val_every_n_steps: its configs
// get no TL204. Where the copy's recipe reads the key (andrewor14's, and torchtune's at
// bd2a0fc), and for a config beside no torchtune package, the finding stays.
func TestCheckoutRecipesDecideValidation(t *testing.T) {
	cfg := "# Config for multi-device QAT + LoRA finetuning in qat_lora_finetune_distributed.py\n" +
		"#   tune run --nnodes 1 --nproc_per_node 2 qat_lora_finetune_distributed --config llama3_2/1B_qat_lora\n" +
		"model:\n  _component_: torchtune.models.llama3_2.lora_llama3_2_1b\nbatch_size: 4\nepochs: 1\nmax_steps_per_epoch: null\ngradient_accumulation_steps: 8\n" +
		"checkpointer:\n  _component_: torchtune.training.FullModelHFCheckpointer\n  checkpoint_files: [model.safetensors]\n" +
		"run_val_every_n_steps: null\ndataset_val:\n  _component_: torchtune.datasets.alpaca_cleaned_dataset\n"
	const noVal = "class QATLoRAFinetuneRecipeDistributed:\n    def setup(self, cfg):\n        self._dataloader = self._setup_data(cfg.dataset)\n"
	const val = "class QATLoRAFinetuneRecipeDistributed:\n    def __init__(self, cfg):\n        self._run_val_every_n_steps = cfg.get(\"run_val_every_n_steps\", None)\n"
	for _, c := range []struct {
		name   string
		recipe string // recipes/qat_lora_finetune_distributed.py; "" for none
		pkg    bool   // torchtune/__init__.py beside version.txt
		fires  bool
	}{
		{"recipe without validation", noVal, true, false},
		{"recipe that validates", val, true, true},
		{"no torchtune package", noVal, false, true},
	} {
		forgetRepo()
		files := map[string]string{"version.txt": "0.7.0\n", "recipes/configs/llama3_2/1B_qat_lora.yaml": cfg,
			"recipes/full_finetune_distributed.py": val}
		if c.recipe != "" {
			files["recipes/qat_lora_finetune_distributed.py"] = c.recipe
		}
		if c.pkg {
			files["torchtune/__init__.py"] = "__version__ = \"\"\n"
		}
		root := writeTree(t, files)
		_, out, _ := cli(t, nil, "check", "--select", "TL204", filepath.Join(root, "recipes", "configs", "llama3_2", "1B_qat_lora.yaml"))
		if got := strings.Contains(out, "run_val_every_n_steps null means no evaluation"); got != c.fires {
			t.Errorf("%s: TL204 reported %v, want %v:\n%s", c.name, got, c.fires, out)
		}
	}
}
