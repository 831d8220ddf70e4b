package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestScriptReads: a @hydra.main script that only tests, and LightningCLI's default config
// files of the test/validate/predict subcommands, mark their configs as read by no training;
// a script that fits, or the fit subcommand's or the parser's own default files, do not.
func TestScriptReads(t *testing.T) {
	root := filepath.FromSlash("/r")
	fit, noFit, hn := map[string]bool{}, map[string]bool{}, map[string]bool{}
	scriptReads(root, filepath.FromSlash("/r/src/eval.py"), "@hydra.main(version_base=\"1.3\", config_path=\"../configs\", config_name=\"eval.yaml\")\ndef main(cfg):\n    trainer.test(model)\n", fit, noFit, hn)
	scriptReads(root, filepath.FromSlash("/r/src/train.py"), "@hydra.main(config_path=\"../configs\", config_name=\"train\")\ndef main(cfg):\n    trainer.fit(model)\n    trainer.test(model)\n", fit, noFit, hn)
	scriptReads(root, filepath.FromSlash("/r/src/predict.py"), "@hydra.main(config_path='pkg://x.conf', config_name='p')\ndef main(cfg):\n    trainer.predict(model)\n", fit, noFit, hn)
	scriptReads(root, filepath.FromSlash("/r/run.py"), `LightningCLI(M, D, parser_kwargs={"test": {"default_config_files": ["configs/test.yaml"]}, "fit": {"default_config_files": ["configs/fit.yaml"]}, "default_config_files": ["configs/all.yaml"]})`, fit, noFit, hn)
	for p, want := range map[string]bool{"/r/configs/eval.yaml": true, "/r/configs/test.yaml": true} {
		if noFit[filepath.FromSlash(p)] != want {
			t.Errorf("%s: noFit %v, want %v (%v)", p, noFit[filepath.FromSlash(p)], want, noFit)
		}
	}
	for _, p := range []string{"/r/configs/train.yaml", "/r/configs/fit.yaml", "/r/configs/all.yaml"} {
		if !fit[filepath.FromSlash(p)] || noFit[filepath.FromSlash(p)] {
			t.Errorf("%s: fit %v noFit %v", p, fit[filepath.FromSlash(p)], noFit[filepath.FromSlash(p)])
		}
	}
	// A test subcommand's default file whose name does not say it evaluates may be passed to
	// fit with --config; a training script that calls a helper (run_training) is not known
	// not to train, but its config's name says train, so it is not marked either.
	scriptReads(root, filepath.FromSlash("/r/main.py"), `LightningCLI(parser_kwargs={"test": {"default_config_files": ["configs/default.yaml"]}})`, fit, noFit, hn)
	scriptReads(root, filepath.FromSlash("/r/train.py"), "@hydra.main(version_base=\"1.3\", config_path=\"configs\", config_name=\"train2\")\ndef main(cfg):\n    t = run_training(cfg)\n    t.test(m)\n", fit, noFit, hn)
	if len(noFit) != 2 { // eval.yaml, and test.yaml (the script's folder is the root)
		t.Errorf("noFit %v", noFit)
	}
}

// TestScriptReadsInferOnly: NeMo's @hydra_runner scripts that never train and call no test
// either mark their config when its name says it infers, exports or merges; a script that
// trains, a name without such a word, or one that also says train, is not marked; and a
// decorator with config_name=None in a script that does not train leaves the others marked.
func TestScriptReadsInferOnly(t *testing.T) {
	root := filepath.FromSlash("/r")
	fit, noFit, hn := map[string]bool{}, map[string]bool{}, map[string]bool{}
	read := func(p, text string) { scriptReads(root, filepath.FromSlash(p), text, fit, noFit, hn) }
	read("/r/sd/sd_infer.py", "from nemo.core.config import hydra_runner\n@hydra_runner(config_path='conf', config_name='sd_infer')\ndef main(cfg):\n    pipeline(model, cfg)\n")
	read("/r/sd/sd_xl_export.py", "@hydra_runner(config_path='conf', config_name='sd_xl_export')\ndef main(cfg):\n    export(cfg)\n")
	read("/r/m/merge.py", "@hydra_runner(config_path=\"conf\", config_name=\"merge_lora_weights\")\ndef main(cfg):\n    merge(cfg)\n")
	read("/r/sd/sd_train.py", "@hydra_runner(config_path='conf', config_name='sd_train')\ndef main(cfg):\n    trainer.fit(model)\n")
	read("/r/sd/fid.py", "@hydra_runner(config_path='conf', config_name='sd_fid_images')\ndef main(cfg):\n    gen(cfg)\n")
	read("/r/sd/lora.py", "@hydra_runner(config_path='conf', config_name='sd_lora_infer_train')\ndef main(cfg):\n    go(cfg)\n")
	read("/r/sd/both.py", "@hydra_runner(config_path='conf', config_name='sd_export')\ndef main(cfg):\n    trainer.fit(model)\n")
	read("/r/avg.py", "@hydra_runner(config_path=None, config_name=None)\ndef main(cfg):\n    average(cfg)\n")
	want := map[string]bool{"/r/sd/conf/sd_infer.yaml": true, "/r/sd/conf/sd_xl_export.yaml": true, "/r/m/conf/merge_lora_weights.yaml": true}
	for p := range want {
		if !noFit[filepath.FromSlash(p)] || !hn[filepath.FromSlash(p)] {
			t.Errorf("%s: not marked (noFit %v)", p, noFit)
		}
	}
	if len(noFit) != len(want) {
		t.Errorf("noFit %v, want only %v", noFit, want)
	}
	if fit[anyHydra] {
		t.Error("config_name=None in a script that does not train made every primary unread")
	}
	// The same decorator in a script that trains may train any file the command line names.
	read("/r/avg2.py", "@hydra_runner(config_path=None, config_name=None)\ndef main(cfg):\n    trainer.fit(model)\n")
	if !fit[anyHydra] {
		t.Error("config_name=None in a training script: primaries still marked")
	}
}

// TestNoFitConfigsGetNoTrainingRules: through check, a Hydra evaluation primary whose script
// only tests gets no batch-norm or checkpoint finding, while the same primary run by a script
// that fits does.
func TestNoFitConfigsGetNoTrainingRules(t *testing.T) {
	files := map[string]string{
		"setup.py":                  "",
		"configs/eval.yaml":         "defaults:\n  - _self_\n  - model: resnet\n  - trainer: gpu\nckpt_path: ???\n",
		"configs/model/resnet.yaml": "_target_: models.Net\nbackbone: resnet50\nnorm: batchnorm\n",
		"configs/trainer/gpu.yaml":  "_target_: lightning.pytorch.Trainer\naccelerator: gpu\ndevices: 4\nstrategy: ddp\nmax_epochs: 10\n",
		"eval.py":                   "import hydra\n@hydra.main(version_base=\"1.3\", config_path=\"configs\", config_name=\"eval.yaml\")\ndef main(cfg):\n    trainer.test(model=model, ckpt_path=cfg.ckpt_path)\n",
	}
	writeTree(t, files)
	_, res, _ := checkJSON(t, "--hosts", "2", ".")
	if got := strings.Join(findings(res), "\n"); strings.Contains(got, "TL501") {
		t.Errorf("an evaluation script's run: %s", got)
	}
	// A @hydra.main this reading cannot tell (positional arguments) may be eval.yaml's trainer.
	files["train.py"] = "import hydra\n@hydra.main(\"configs\", \"eval\")\ndef main(cfg):\n    run(cfg)\n"
	writeTree(t, files)
	if _, res, _ := checkJSON(t, "--hosts", "2", "."); !strings.Contains(strings.Join(findings(res), "\n"), "TL501") {
		t.Errorf("beside an unread @hydra.main: %s", findings(res))
	}
	delete(files, "train.py")
	files["eval.py"] = strings.Replace(files["eval.py"], "trainer.test(", "trainer.fit(model)\n    trainer.test(", 1)
	writeTree(t, files)
	if _, res, _ := checkJSON(t, "--hosts", "2", "."); !strings.Contains(strings.Join(findings(res), "\n"), "TL501") {
		t.Errorf("a training script's run: %s", findings(res))
	}
}

// The options a repository's Python registers with Hydra's ConfigStore, by group and name.
func TestStoreGroupsScan(t *testing.T) {
	text := "cs = ConfigStore.instance()\ncs.store(group=\"model\", name=\"resnet\", node=ResNetConf)\ncs.store(name=\"config\", node=Config)\n" +
		"cs.store(\n    group='db/',\n    name='mysql',\n    node=MySQL(),\n)\n"
	if got := storeGroups(text, nil); !reflect.DeepEqual(got, map[string]bool{"model/resnet": true, "db/mysql": true, "config": true}) {
		t.Errorf("registered options: %v", got)
	}
	// the name by position (ConfigStore.store(name, node, group=...)), or after a nested call
	text = "cs.store(\"resnet\", ResNetConf, group=\"model\")\ncs.store(group=\"model\", node=builds(ResNet, depth=(1, 2)), name=\"resnet50\")\n"
	if got := storeGroups(text, nil); !reflect.DeepEqual(got, map[string]bool{"model/resnet": true, "model/resnet50": true}) {
		t.Errorf("positional and nested: %v", got)
	}
	// a group or a name computed (fairseq's registries), a name holding a "/" without a group
	// (no entry finds it), a group that may come by position or unpacked: nothing
	if got := storeGroups("cs.store(name=name, group=registry_name, node=node)\ncs.store(name=name, group=\"model\", node=node)\n"+
		"cs.store(name=\"a/b\", node=Config)\ncs.store(\"mlp\", MLP, g)\ncs.store(\"mlp\", MLP, **kw)\n", nil); got != nil {
		t.Errorf("a computed group or name, a path, a group by position: %v", got)
	}
	// no group: the config at the store's top, by name (metaseq's base_config; ".yaml" is the
	// store's own suffix)
	if got := storeGroups("cs.store(name=\"base_config\", node=MetaseqConfig)\ncs.store(\"eval.yaml\", Eval, package=\"x\")\n", nil); !reflect.DeepEqual(got, map[string]bool{"base_config": true, "eval": true}) {
		t.Errorf("configs of no group: %v", got)
	}
}

// The options fairseq's registries store: register_x(name, dataclass) by keyword or position,
// not with dataclass=None or none, in the group setup_registry's flag names.
func TestRegistryScan(t *testing.T) {
	var r registryScan
	r.read("def setup_registry(registry_name):\n    cs.store(name=name, group=registry_name, node=node, provider=\"fairseq\")\n")
	r.read("build_bpe, register_bpe, BPE_REGISTRY, _ = registry.setup_registry(\"--bpe\", default=None)\n" +
		"(build_lr_scheduler_, register_lr_scheduler) = setup_registry(\"--lr-scheduler\")\n")
	r.read("@register_bpe(\"gpt2\", dataclass=GPT2BPEConfig)\nclass A: pass\n@register_bpe(\"bytes\")\nclass B: pass\n" +
		"@register_bpe('chars', dataclass=None)\nclass C: pass\n@register_lr_scheduler(\n    \"fixed\", FixedConfig\n)\nclass D: pass\n" +
		"@register_model(\"transformer\", dataclass=TransformerConfig)\nclass E: pass\n")
	if got := r.groups(nil); !reflect.DeepEqual(got, map[string]bool{"bpe/gpt2": true, "lr_scheduler/fixed": true}) {
		t.Errorf("registered options: %v", got)
	}
	r.stores = false // a setup_registry that stores nothing
	if got := r.groups(nil); got != nil {
		t.Errorf("without a storing registry: %v", got)
	}
}
