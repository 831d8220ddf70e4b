package main

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestEnvSetBy: rootutils' setup_root (pyrootutils' too, and autoroot's import) sets
// PROJECT_ROOT unless told not to; a module-level os.environ assignment in a Hydra script sets
// its variable; one inside a function, in a file without Hydra, or a call of another setup_root
// sets nothing.
func TestEnvSetBy(t *testing.T) {
	wantKeys(t, envSetBy, []keysCase{
		{"import rootutils\n\nrootutils.setup_root(__file__, indicator=\".project-root\", pythonpath=True)\n", "PROJECT_ROOT"},
		{"import pyrootutils\nroot = pyrootutils.setup_root(\n    search_from=__file__,\n    indicator=[\".git\"],\n    dotenv=True,\n)\n", "PROJECT_ROOT"},
		{"from rootutils import setup_root\nsetup_root(__file__)\n", "PROJECT_ROOT"},
		{"from rootutils import setup_root\nroot = setup_root(__file__, pythonpath=True)\n", "PROJECT_ROOT"},
		{"import rootutils\ndef setup_root(x):\n    pass\n", ""},
		{"import autoroot\nimport hydra\n", "PROJECT_ROOT"},
		{"import rootutils\nrootutils.setup_root(__file__, project_root_env_var=False, pythonpath=True)\n", ""},
		{"from mylib import setup_root\nsetup_root(__file__)\n", ""},
		{"import os\nimport hydra\nos.environ[\"DATA_DIR\"] = \"/data\"\nos.environ.setdefault('WANDB_DIR', '/tmp')\n", "DATA_DIR WANDB_DIR"},
		{"import os\nimport hydra\ndef main():\n    os.environ[\"DATA_DIR\"] = \"/data\"\n", ""},
		{"import os\nos.environ[\"DATA_DIR\"] = \"/data\"\n", ""},
		{"import os\nimport hydra\nif os.environ[\"DATA_DIR\"] == \"x\":\n    pass\n", ""},
	})
}

// keysCase is a script's text and the keys, sorted and space-separated, a scan finds in it.
type keysCase struct{ text, want string }

// wantKeys runs scan on each case's text and compares the keys it finds with the case's.
func wantKeys(t *testing.T, scan func(string, map[string]bool) map[string]bool, cases []keysCase) {
	t.Helper()
	for _, tc := range cases {
		got := slices.Sorted(maps.Keys(scan(tc.text, nil)))
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%q: %q, want %q", tc.text, g, tc.want)
		}
	}
}

// TestEnvSetByRepository: through check, the lightning-hydra-template's
// ${oc.env:PROJECT_ROOT} is no unresolved reference in a repository whose train.py calls
// rootutils.setup_root before @hydra.main; without that call it is reported.
func TestEnvSetByRepository(t *testing.T) {
	files := map[string]string{
		"setup.py":                   "",
		"src/train.py":               "import hydra\nimport rootutils\n\nrootutils.setup_root(__file__, indicator=\".project-root\", pythonpath=True)\n\n@hydra.main(version_base=\"1.3\", config_path=\"../configs\", config_name=\"train.yaml\")\ndef main(cfg):\n    pass\n",
		"configs/train.yaml":         "defaults:\n  - paths: default\n  - _self_\nseed: 1\n",
		"configs/paths/default.yaml": "root_dir: ${oc.env:PROJECT_ROOT}\n",
	}
	if out := lintInRepo(t, files, "configs/train.yaml", "TL006"); strings.Contains(out, "TL006") {
		t.Errorf("setup_root sets PROJECT_ROOT:\n%s", out)
	}
	files["src/train.py"] = "import hydra\n\n@hydra.main(version_base=\"1.3\", config_path=\"../configs\", config_name=\"train.yaml\")\ndef main(cfg):\n    pass\n"
	if out := lintInRepo(t, files, "configs/train.yaml", "TL006"); !strings.Contains(out, "PROJECT_ROOT") {
		t.Errorf("no setup_root:\n%s", out)
	}
	// A module the app imports at its top sets it (alex-hh/profam's profam/constants.py,
	// imported by train.py as `from profam import constants`); one it does not import, or
	// that sets it inside a function, does not.
	files["src/proj/constants.py"] = "import os\n\nos.environ.setdefault(\"PROJECT_ROOT\", \"/r\")\n"
	for _, c := range []struct {
		train, consts string
		set           bool
	}{
		{"from proj import constants as _c  # sets env vars\n", "", true},
		{"import proj.constants\n", "", true},
		{"from proj.constants import ROOT\n", "", true},
		{"from proj import (  # the package's modules\n    utils,  # helpers\n    constants,\n)\n", "", true},
		{"from proj import utils\n", "", false},
		{"from proj import constants\n", "import os\n\ndef f():\n    os.environ.setdefault(\"PROJECT_ROOT\", \"/r\")\n", false},
	} {
		files["src/train.py"] = c.train + "import hydra\n\n@hydra.main(version_base=\"1.3\", config_path=\"../configs\", config_name=\"train.yaml\")\ndef main(cfg):\n    pass\n"
		if c.consts != "" {
			files["src/proj/constants.py"] = c.consts
		}
		if out := lintInRepo(t, files, "configs/train.yaml", "TL006"); strings.Contains(out, "PROJECT_ROOT") == c.set {
			t.Errorf("%q (module %q): set %v:\n%s", c.train, c.consts, c.set, out)
		}
	}
}

// TestScriptAdds: keys a script adds to a struct-mode Hydra config: OmegaConf.update with
// force_add=True, assignments inside `with open_dict(cfg):` (not after the block), and every
// assignment once set_struct(cfg, False); a plain assignment or an update without force_add
// adds nothing (OmegaConf refuses a new key then).
func TestScriptAdds(t *testing.T) {
	wantKeys(t, scriptAdds, []keysCase{
		{"def f(cfg):\n    OmegaConf.update(cfg, \"out_dim\", n, force_add=True)\n    OmegaConf.update(cfg.model, 'arch.width', 8, merge=True, force_add = True)\n", "model.arch.width out_dim"},
		{"OmegaConf.update(cfg, \"out_dim\", n)\ncfg.datamodule.datasets = d\n", ""},
		{"def main(cfg):\n    with open_dict(cfg):\n        cfg.model.num_classes = n\n\n        # a comment\n        cfg.extra = 1\n    cfg.after = 2\n", "extra model.num_classes"},
		{"with omegaconf.open_dict(cfg.model):\n    cfg.model.x = 1\n", "model.x"},
		{"OmegaConf.set_struct(cfg, False)\ncfg.a.b = 1\nconfig.c = 2\n", "a.b c"},
		// A node opened adds keys below it only (OmegaConf refuses cfg.top there).
		{"with open_dict(cfg.model):\n    cfg.model.x = 1\n    cfg.top = 1\n", "model.x"},
		{"OmegaConf.set_struct(cfg.model, False)\ncfg.model.y = 1\ncfg.z = 2\n", "model.y"},
		// The one-line form, item assignments and keyword updates.
		{"with open_dict(cfg): cfg.device = 'cuda' if ok else 'cpu'\n", "device"},
		{"with open_dict(cfg):\n    cfg.update(device=d, world_size=n)\n    cfg.model[\"heads\"] = 8\n", "device model.heads world_size"},
		// OmegaConf's read_write leaves struct mode on; a docstring's example is no code.
		{"with read_write(cfg):\n    cfg.x = 1\n", ""},
		{"def f(cfg):\n    \"\"\"Example:\n\n    with open_dict(cfg):\n        cfg.out_dim = 4\n    \"\"\"\n", ""},
		// NeMo-Aligner's checkpoint merge is tied to its script's configs (checkpointAdds).
		{"def main(cfg) -> None:\n    cfg.model = load_and_override_model_config(cfg.pretrained_checkpoint.restore_from_path, cfg.model)\n", ""},
	})
}

// TestScriptAddsByRepository: through check, a ${out_dim} the repository's script adds with
// OmegaConf.update(..., force_add=True) is not reported; a plain assignment does not hide it.
func TestScriptAddsByRepository(t *testing.T) {
	files := map[string]string{
		"setup.py":             "",
		"src/train.py":         "import hydra\nfrom omegaconf import OmegaConf\n\n@hydra.main(version_base=\"1.3\", config_path=\"../conf\", config_name=\"train\")\ndef main(cfg):\n    OmegaConf.update(cfg, \"out_dim\", 4, force_add=True)\n",
		"conf/train.yaml":      "defaults:\n  - model: mlp\n  - _self_\nseed: 1\n",
		"conf/model/mlp.yaml":  "out_channels: ${out_dim}\n",
		"conf/model/conv.yaml": "k: 3\n",
	}
	if out := lintInRepo(t, files, "conf/train.yaml", "TL006"); strings.Contains(out, "TL006") {
		t.Errorf("a key the script adds:\n%s", out)
	}
	files["src/train.py"] = strings.Replace(files["src/train.py"], "OmegaConf.update(cfg, \"out_dim\", 4, force_add=True)", "cfg.out_dim = 4", 1)
	if out := lintInRepo(t, files, "conf/train.yaml", "TL006"); !strings.Contains(out, "${out_dim}") {
		t.Errorf("a plain assignment adds no key:\n%s", out)
	}
	// NeMo-Aligner's train scripts merge the checkpoint's model config under cfg.model before
	// the config is resolved: a ${model.*} the file lacks is the checkpoint's, in a file read
	// alone (no defaults list) too.
	aligner := map[string]string{
		"setup.py":                   "",
		"examples/train_dpo.py":      "from nemo.core.config import hydra_runner\nfrom nemo_aligner.utils.utils import load_and_override_model_config\n\n@hydra_runner(config_path=\"conf\", config_name=\"gpt_dpo\")\ndef main(cfg) -> None:\n    cfg.model = load_and_override_model_config(cfg.pretrained_checkpoint.restore_from_path, cfg.model)\n",
		"examples/conf/gpt_dpo.yaml": "trainer:\n  devices: 8\npretrained_checkpoint:\n  restore_from_path: null\nexp_manager:\n  checkpoint_callback_params:\n    model_parallel_size: ${model.tensor_model_parallel_size}\nmodel:\n  micro_batch_size: 1\n",
	}
	aligner["examples/conf/baseline.yaml"] = "trainer:\n  devices: 8\nmodel:\n  micro_batch_size: 1\ntypo_check: ${model.precison}\n"
	aligner["examples/train_rm.py"] = "from nemo.core.config import hydra_runner\n\n@hydra_runner(config_path=\"conf\", config_name=\"baseline\")\ndef main(cfg) -> None:\n    trainer.fit(model)\n"
	if out := lintInRepo(t, aligner, "examples/conf/gpt_dpo.yaml", "TL006"); strings.Contains(out, "TL006") {
		t.Errorf("a key of the checkpoint's model config:\n%s", out)
	}
	// A config no merging script reads keeps its unresolved reference, and so does a file
	// checked alone whose key a library adds to a config of its own (NeMo's modelPT.py turns
	// struct mode off on the model config it is given: repository-wide adds count in runs only).
	aligner["nemo/core/model.py"] = "from omegaconf import OmegaConf\ndef setup(cfg):\n    OmegaConf.set_struct(cfg, False)\n    cfg.model.precison = 16\n"
	if out := lintInRepo(t, aligner, "examples/conf/baseline.yaml", "TL006"); !strings.Contains(out, "${model.precison}") {
		t.Errorf("a config no merging script reads:\n%s", out)
	}
	aligner["examples/train_dpo.py"] = strings.Replace(aligner["examples/train_dpo.py"], "cfg.model = load_and_override_model_config", "m = load_and_override_model_config", 1)
	if out := lintInRepo(t, aligner, "examples/conf/gpt_dpo.yaml", "TL006"); !strings.Contains(out, "${model.tensor_model_parallel_size}") {
		t.Errorf("the merged config not assigned to cfg.model:\n%s", out)
	}
}
