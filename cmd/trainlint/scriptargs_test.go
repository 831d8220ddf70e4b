package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/testfs"
)

// TestDataclassFields: a dataclass body's own annotated names at its first level, and nothing
// from docstrings, bracketed continuations, methods, ClassVar or InitVar, or plain classes.
func TestDataclassFields(t *testing.T) {
	src := `from dataclasses import dataclass, field
from typing import ClassVar

@dataclass
class ScriptArguments(BaseArgs):
    """Arguments.

    Args:
    not_a_field: str
    """
    dataset_split: str = "train"
    pass_rate_min: float = field(
        default=0.1,
    metadata_like: "x"
    )
    # comment_field: int
    registry: ClassVar[dict] = {}
    init_only: "InitVar[int]" = 0
    shadowed:int=3

    def method(self):
        local_name: int = 1
        if local_name:
            pass
    else_like = 2


class Plain:
    plain_field: int = 0


@dataclasses.dataclass(frozen=True)
@other_decorator
class Second:
  '''One-line docstring: not_a_field2: x'''
  second_field: list[str] = field(default_factory=lambda: ["a: b"])

@dataclass
def not_a_class(): pass
`
	got := dataclassFields(src)
	want := []string{"dataset_split", "pass_rate_min", "shadowed", "second_field"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestConfigSubclassFork: neuronx-distributed-training's utils/exp_manager.py derives its
// ExpManagerConfig from NeMo's (nemo_exp_manager.ExpManagerConfig) and adds log_parameter_norm
// and save_xser; its exp_manager merges the YAML into its own classes, so NeMo's refusal of
// those keys says nothing of the run. Without the subclass (or with one key of it only) the keys
// are NeMo's unknown keys.
func TestConfigSubclassFork(t *testing.T) {
	const yaml = "name: hf_llama\ntrainer:\n  devices: 32\n  max_steps: 100\nexp_manager:\n  log_parameter_norm: true\n  save_xser: true\nmodel:\n  micro_batch_size: 1\n  global_batch_size: 32\n"
	lintRepo := func(py string) string {
		t.Helper()
		root := t.TempDir()
		for p, s := range map[string]string{
			"setup.py":                 "from setuptools import setup\nsetup(name='x')\n",
			"src/pkg/exp_manager.py":   py,
			"examples/conf/llama.yaml": yaml,
		} {
			full := filepath.Join(root, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, out, _ := cli(t, nil, "check", "--select", "TL003", filepath.Join(root, "examples"))
		return out
	}
	const sub = "from dataclasses import dataclass\nfrom nemo.utils import exp_manager as nemo_exp_manager\n\n" +
		"@dataclass\nclass ExpManagerConfig(nemo_exp_manager.ExpManagerConfig):\n    log_parameter_norm: bool = True\n    save_xser: bool = True\n"
	if out := lintRepo(sub); strings.Contains(out, "TL003") {
		t.Errorf("the repository's ExpManagerConfig takes the keys, yet:\n%s", out)
	}
	// NeMo's class imported under another name (the SageMaker HyperPod adapter's
	// NeMoExpManagerConfig), in a list or on its own line.
	for _, imp := range []string{
		"from nemo.utils.exp_manager import ExpManagerConfig as NeMoExpManagerConfig\n",
		"from nemo.utils.exp_manager import (\n    CallbackParams,\n    ExpManagerConfig as NeMoExpManagerConfig,\n)\n",
	} {
		aliased := "from dataclasses import dataclass\n" + imp +
			"\n@dataclass\nclass ExpManagerConfig(NeMoExpManagerConfig):\n    log_parameter_norm: bool = True\n    save_xser: bool = True\n"
		if out := lintRepo(aliased); strings.Contains(out, "TL003") {
			t.Errorf("the repository's ExpManagerConfig over an alias takes the keys, yet:\n%s", out)
		}
	}
	if out := lintRepo("import json\n"); !strings.Contains(out, `"save_xser" is not an exp_manager setting`) {
		t.Errorf("no subclass, yet no unknown key:\n%s", out)
	}
	if out := lintRepo(strings.Replace(sub, "    save_xser: bool = True\n", "", 1)); !strings.Contains(out, `"save_xser" is not an exp_manager setting`) {
		t.Errorf("one added key only, yet no unknown key:\n%s", out)
	}
}

// TestScriptKeysSilenceUnknownKey: open-r1's filtering recipe writes dataset_split, a field of
// its script's own dataclass and one letter from alignment-handbook's dataset_splits. With the
// repository's scripts using TrlParser, the key is the script's: no unknown-key warning. A
// repository whose dataclasses no such parser fills keeps the warning, and so does a key the
// dataclass only declares as a ClassVar.
func TestScriptKeysSilenceUnknownKey(t *testing.T) {
	lintRepo := func(script, configs string) string {
		t.Helper()
		root := t.TempDir()
		for p, s := range map[string]string{
			"setup.py":                        "from setuptools import setup\nsetup(name='x')\n",
			"scripts/filter.py":               script,
			"src/pkg/configs.py":              configs,
			"recipes/filtering/config.yaml":   "model_name_or_path: m\nper_device_train_batch_size: 4\nnum_train_epochs: 1\ndataset_split: train\n",
			"recipes/filtering/unrelated.txt": "dataset_split",
		} {
			full := filepath.Join(root, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, out, _ := cli(t, nil, "check", "--select", "TL003", filepath.Join(root, "recipes"))
		return out
	}
	const fields = "from dataclasses import dataclass\n\n@dataclass\nclass PassRateScriptArguments(GRPOScriptArguments):\n    dataset_split: str = 'train'\n"
	const parser = "from trl import TrlParser\nfrom pkg.configs import PassRateScriptArguments\nparser = TrlParser((PassRateScriptArguments,))\n"
	if out := lintRepo(parser, fields); strings.Contains(out, "TL003") {
		t.Errorf("a field of the repository's dataclass is reported:\n%s", out)
	}
	if out := lintRepo("import json\n", fields); !strings.Contains(out, `"dataset_split" is not a TrainingArguments setting (did you mean "dataset_splits"?)`) {
		t.Errorf("no parser fills the dataclass, yet the near miss is not reported:\n%s", out)
	}
	classVar := strings.Replace(fields, "dataset_split: str", "dataset_split: ClassVar[str]", 1)
	if out := lintRepo(parser, classVar); !strings.Contains(out, "TL003") {
		t.Errorf("a ClassVar is no field, yet the near miss is not reported:\n%s", out)
	}
}

// TestForkRecipeInRepository: a LLaMA-Factory-shaped recipe two of whose keys only the
// repository's own parser classes take (LLamaTuner) is no LLaMA-Factory file; in LLaMA-Factory's
// own repository (src/llamafactory), whose classes may be newer than the knowledge table, it is.
func TestForkRecipeInRepository(t *testing.T) {
	const recipe = "model_name_or_path: m\nstage: sft\ndo_train: true\nfinetuning_type: lora\ndataset: alpaca\ntemplate: qwen\n" +
		"output_dir: out\nwandb_project: p\neval_dataset_size: 0.1\neval_strategy: steps\neval_steps: 10\n"
	const classes = "from dataclasses import dataclass, field\nfrom transformers import HfArgumentParser\n\n@dataclass\nclass FinetuningArguments:\n" +
		"    wandb_project: str = field(default='x')\n    eval_dataset_size: float = 0.0\n"
	for _, tc := range []struct {
		pkg, fw string
	}{{"llamatuner", "generic"}, {"llamafactory", "llama-factory"}} {
		root := t.TempDir()
		testfs.Write(t, root, map[string]string{
			"setup.py":                           "from setuptools import setup\nsetup(name='x')\n",
			"src/" + tc.pkg + "/__init__.py":     "",
			"src/" + tc.pkg + "/hparams.py":      classes,
			"examples/train_lora/qwen_lora.yaml": recipe,
		})
		_, out, errs := cli(t, nil, "check", "--format", "json", filepath.Join(root, "examples"))
		var res lint.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v\n%s\n%s", err, out, errs)
		}
		if len(res.Files) != 1 || res.Files[0].Framework != tc.fw {
			t.Errorf("package %s: files %+v, want %s", tc.pkg, res.Files, tc.fw)
		}
	}
}

// TestGenericKeyTheCodeNeverReads: in a repository whose Python never names
// keep_checkpoint_max (Amphion's trainers read keep_last), a config of no known framework that
// sets it keeps nothing, so no TL301 rests on it; once the code reads it, the finding is back.
func TestGenericKeyTheCodeNeverReads(t *testing.T) {
	const cfg = `{"train": {"keep_checkpoint_max": 2, "save_checkpoint_stride": [5], "max_epoch": 100, "valid_interval": 5}}`
	for _, tc := range []struct {
		code string
		want bool
	}{{"keep_last = cfg.train.keep_last\n", false}, {"keep = cfg.train.keep_checkpoint_max\n", true}} {
		root := t.TempDir()
		testfs.Write(t, root, map[string]string{
			".git/HEAD":               "ref: refs/heads/main\n",
			"trainer.py":              tc.code,
			"egs/tts/exp_config.json": cfg,
		})
		_, out, errs := cli(t, nil, "check", "--format", "json", "--select", "TL301", filepath.Join(root, "egs"))
		var res lint.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v\n%s\n%s", err, out, errs)
		}
		if got := len(res.Diagnostics) > 0; got != tc.want {
			t.Errorf("code %q: TL301 %v, want %v: %+v", tc.code, got, tc.want, res.Diagnostics)
		}
	}
}

// TestLSPRelintsWhenDataclassChanges: the editor shows TL003 for a recipe key no dataclass of
// the repository has; once the key is added to the script's dataclass on disk, the watched
// file's change makes the server read the repository again, and the finding goes.
func TestLSPRelintsWhenDataclassChanges(t *testing.T) {
	const configs = "from dataclasses import dataclass\n\n@dataclass\nclass ScriptArguments:\n    other: int = 0\n"
	dir := writeTree(t, map[string]string{
		"setup.py":           "from setuptools import setup\nsetup(name='x')\n",
		"scripts/run.py":     "from trl import TrlParser\nparser = TrlParser((ScriptArguments,))\n",
		"src/pkg/configs.py": configs,
		"recipes/a.yaml":     "model_name_or_path: m\nper_device_train_batch_size: 4\nnum_train_epochs: 1\ndataset_split: train\n",
	})
	dynamic := true
	init := &protocol.InitializeParams{}
	init.Capabilities.Workspace = &protocol.WorkspaceClientCapabilities{
		DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: &dynamic}}
	ctx, server, rec := startEditor(t, lspEngine(allRules()), init)
	server.Initialized(ctx, &protocol.InitializedParams{})
	// The server asks to watch what the repository's facts are read from.
	select {
	case r := <-rec.Registrations:
		var globs []string
		for _, reg := range r.Registrations {
			var o protocol.DidChangeWatchedFilesRegistrationOptions
			if err := protocol.Unmarshal(reg.RegisterOptions, &o); err != nil {
				t.Fatal(err)
			}
			for _, w := range o.Watchers {
				globs = append(globs, fmt.Sprint(w.GlobPattern))
			}
		}
		for _, want := range []string{"**/*.py", "**/requirement*.txt", "**/setup.py", "**/.trainlint.toml"} {
			if !slices.Contains(globs, want) {
				t.Errorf("watched %v, want %s among them", globs, want)
			}
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no watchers registered")
	}
	recipe := filepath.Join(dir, "recipes", "a.yaml")
	text, _ := os.ReadFile(recipe)
	server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri.File(recipe), LanguageID: "yaml", Version: 1, Text: string(text)}})
	wait := func(want bool) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for {
			select {
			case p := <-rec.Diags:
				if p.URI != uri.File(recipe) {
					continue
				}
				got := false
				for _, d := range p.Diagnostics {
					if c, ok := d.Code.(protocol.String); ok && string(c) == "TL003" {
						got = true
					}
				}
				if got == want {
					return
				}
			case <-deadline:
				t.Fatalf("no publication with TL003 %v", want)
			}
		}
	}
	wait(true)
	py := filepath.Join(dir, "src", "pkg", "configs.py")
	if err := os.WriteFile(py, []byte(configs+"    dataset_split: str = 'train'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	server.DidChangeWatchedFiles(ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{
		{URI: uri.File(py), Type: protocol.FileChangeTypeChanged}}})
	wait(false)
}

// FuzzDataclassFields: any text gives identifiers only, never a panic or a hang.
func FuzzDataclassFields(f *testing.F) {
	for _, s := range []string{
		"@dataclass\nclass A:\n    x: int = 1\n    y: str = field(\n        default='a: b')\n",
		"@dataclass\nclass A:\n    '''doc\n    z: int\n    '''\n    x: int\n",
		"@dataclass\n", "@dataclass\nclass", "@dataclass\nclass A:\n\tx:", "\"\"\"\n@dataclass\nclass A:\n    x: int\n",
		"@dataclass\nclass A:\n    x: 'unterminated\n    y: int\n", "@dataclass\r\nclass A:\r\n    x: int\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range dataclassFields(s) {
			if !fieldName.MatchString(k) {
				t.Fatalf("dataclassFields(%q) gives %q", s, k)
			}
		}
	})
}

var fieldName = regexp.MustCompile(`^[A-Za-z_]\w*$`)

// TestModelCallbacks: the callbacks named in a configure_callbacks body, and only there.
func TestModelCallbacks(t *testing.T) {
	for src, want := range map[string][]string{
		"class M(LightningModule):\n    def configure_callbacks(self):\n        return [EarlyStopping(monitor='val_loss'), ModelCheckpoint()]\n":                                                                  {"ModelCheckpoint", "EarlyStopping"},
		"class M(LightningModule):\n    def configure_callbacks(self):\n        cb = BestModelCheckpoint(\n            monitor='val_loss',\n        )\n        return cb\n":                                       {"ModelCheckpoint"},
		"from lightning.pytorch.callbacks import ModelCheckpoint\n\nclass M(LightningModule):\n    def configure_callbacks(self):\n        return []\n\n    def other(self):\n        return ModelCheckpoint()\n": nil,
		"ckpt = ModelCheckpoint()\n# def configure_callbacks(self): return ckpt\n":                                                                                                                                nil,
	} {
		if got := modelCallbacks(src); !reflect.DeepEqual(got, want) {
			t.Errorf("modelCallbacks(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestModelCallbacksSilenceCheckpointFindings: a LightningCLI config with no callbacks gets
// Lightning's default ModelCheckpoint (no monitor, keeps the latest: TL301). Where a module of
// the repository returns its own ModelCheckpoint from configure_callbacks, Lightning replaces
// the default with it, so nothing is said of the checkpoints; without such a module the
// finding stays.
func TestModelCallbacksSilenceCheckpointFindings(t *testing.T) {
	lintRepo := func(model string) string {
		t.Helper()
		return lintInRepo(t, map[string]string{
			"pyproject.toml":     "[project]\nname = 'x'\n",
			"src/pkg/model.py":   model,
			"configs/train.yaml": "trainer:\n  max_epochs: 10\nmodel:\n  class_path: pkg.model.Task\n  init_args:\n    lr: 0.001\ndata:\n  class_path: pkg.data.DM\n  init_args:\n    batch_size: 32\n    num_workers: 4\n",
		}, "configs/train.yaml", "TL301,TL302")
	}
	// (A module with no training_step could not be fit at all: nofitmodels.go.)
	plain := "from lightning.pytorch import LightningModule\n\nclass Task(LightningModule):\n    def training_step(self, batch, idx):\n        return self(batch)\n    validation_step = training_step\n"
	if out := lintRepo(plain); !strings.Contains(out, "TL301") {
		t.Fatalf("the default ModelCheckpoint is not reported:\n%s", out)
	}
	own := plain + "\n    def configure_callbacks(self):\n        return [ModelCheckpoint(monitor='val_loss', mode='min')]\n"
	if out := lintRepo(own); strings.Contains(out, "TL301") || strings.Contains(out, "TL302") {
		t.Errorf("the module's own ModelCheckpoint is not seen:\n%s", out)
	}
}

// TestScriptCallbacks: the callbacks a script builds, when it hands callbacks to a Trainer that
// also unpacks the config's settings; not another trainer's, not a Trainer that takes only the
// config's, and not a test's.
func TestScriptCallbacks(t *testing.T) {
	launch := "callbacks = [ModelCheckpoint(dirpath=d, **cfg.checkpoint), LearningRateMonitor()]\n" +
		"trainer = Trainer(\n    callbacks=callbacks,\n    logger=loggers,\n    **cfg.trainer,\n)\n"
	for src, want := range map[string][]string{
		launch: {"ModelCheckpoint"},
		strings.Replace(launch, "Trainer(", "pl.Trainer(", 1) + "es = EarlyStopping(monitor='val')\n": {"ModelCheckpoint", "EarlyStopping"},
		strings.Replace(launch, "Trainer(", "SFTTrainer(", 1):                                         nil,
		"ckpt = ModelCheckpoint()\ntrainer = Trainer(**cfg.trainer)\n":                                nil,
		"trainer = Trainer(callbacks=cbs, **cfg.trainer)\n":                                           nil,
		// keyword arguments built with the callbacks, then unpacked (earthformer, PreDiff)
		"def kw(self):\n    callbacks = [ModelCheckpoint(monitor='valid_loss_epoch')]\n    return dict(callbacks=callbacks, max_epochs=5)\ntrainer = Trainer(**trainer_kwargs)\n": {"ModelCheckpoint"},
		"ck = ModelCheckpoint()\nkw = {\"callbacks\": [ck]}\ntrainer = pl.Trainer(**kw)\n":                                                                                        {"ModelCheckpoint"},
		// the config's trainer section copied, its callbacks key set (RoboVLMs, GR-MG)
		"tc = deepcopy(configs['trainer'])\ntc['callbacks'] = [ModelCheckpoint(save_top_k=-1)]\ntrainer = Trainer(**tc)\n": {"ModelCheckpoint"},
		"tc = deepcopy(configs['trainer'])\nif tc['callbacks'] == []:\n    ModelCheckpoint()\ntrainer = Trainer(**tc)\n":   nil,
		// a list named, which may hold the callback only under a condition (torchgeo-cimae)
		"cbs = []\nif conf.overwrite:\n    cbs.append(ModelCheckpoint(save_top_k=-1))\nta['callbacks'] = cbs\nt = Trainer(**ta)\n": nil,
		"ta['callbacks'] = [LearningRateMonitor()]\nif c:\n    x = ModelCheckpoint()\nt = Trainer(**ta)\n":                         nil,
		// a debug run's own callbacks are not what the config's Trainer gets
		"if debug:\n    t = pl.Trainer(fast_dev_run=True, callbacks=[ModelCheckpoint(monitor='val_loss')])\nelse:\n    t = pl.Trainer(**cfg['trainer'])\n": nil,
		"kw = dict(callbacks=[ModelCheckpoint()])\nt = pl.Trainer(**cfg.trainer)\n":                                                                        nil,
		"x = f(Trainer(\n": nil,
	} {
		if got := scriptCallbacks(src); !reflect.DeepEqual(got, want) {
			t.Errorf("scriptCallbacks(%q) = %v, want %v", src, got, want)
		}
	}
	for p, want := range map[string]bool{"tests/test_train.py": true, "pkg/trainer_test.py": true, "launch.py": false, "src/testing/launch.py": false} {
		if testFile(p) != want {
			t.Errorf("testFile(%q) = %v", p, !want)
		}
	}
}

// TestScriptCallbacksSilenceCheckpointFindings: threestudio's launch.py builds its own
// ModelCheckpoint from the config's checkpoint section and hands it to Trainer(callbacks=...,
// **cfg.trainer); its configs, which name no callback, were told that Lightning's default
// ModelCheckpoint keeps only the latest checkpoint.
func TestScriptCallbacksSilenceCheckpointFindings(t *testing.T) {
	lintRepo := func(script string) string {
		t.Helper()
		return lintInRepo(t, map[string]string{
			"setup.py":       "",
			"launch.py":      script,
			"configs/a.yaml": "trainer:\n  max_steps: 10000\n  val_check_interval: 200\n  precision: 16-mixed\ncheckpoint:\n  save_last: true\n  save_top_k: -1\nsystem_type: dreamfusion-system\nsystem:\n  loggers:\n    wandb:\n      enable: false\n",
		}, "configs/a.yaml", "TL301")
	}
	if out := lintRepo("trainer = Trainer(**cfg.trainer)\n"); !strings.Contains(out, "TL301") {
		t.Fatalf("the default ModelCheckpoint is not reported:\n%s", out)
	}
	script := "callbacks = [ModelCheckpoint(dirpath=d, **cfg.checkpoint)]\ntrainer = Trainer(callbacks=callbacks, **cfg.trainer)\n"
	if out := lintRepo(script); strings.Contains(out, "TL301") {
		t.Errorf("the script's own ModelCheckpoint is not seen:\n%s", out)
	}
}

// FuzzScriptCallbacks: any text gives known callback names, in modelCallbackClasses' order.
func FuzzScriptCallbacks(f *testing.F) {
	for _, s := range []string{
		"trainer = Trainer(callbacks=[ModelCheckpoint()], **cfg.trainer)\n", "Trainer(", "Trainer(((", "x.Trainer()]]callbacks**",
		"pl.Trainer(callbacks=cbs,\n    **kw)\nEarlyStopping(\n", "SFTTrainer(callbacks=c, **k)", "Trainer(callbacks=c, **k) Trainer(",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := scriptCallbacks(s)
		i := 0
		for _, c := range got {
			for i < len(modelCallbackClasses) && modelCallbackClasses[i] != c {
				i++
			}
			if i == len(modelCallbackClasses) {
				t.Fatalf("scriptCallbacks(%q) = %v", s, got)
			}
			i++
		}
	})
}

// FuzzTrainerDefaults: any text gives dicts whose body and top have the same length, top
// blanking only (never adding) what body holds, and the scans built on them do not panic.
func FuzzTrainerDefaults(f *testing.F) {
	for _, s := range []string{
		"LightningCLI(trainer_defaults={\"logger\": {\"a\": 1}, \"enable_checkpointing\": False})",
		"trainer_defaults={'callbacks': [ModelCheckpoint()], # }\n}", "trainer_defaults={\"", "trainer_defaults={#", "trainer_defaults = {{{]]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		bodies, tops := trainerDefaults(s)
		if len(bodies) != len(tops) {
			t.Fatalf("%d bodies, %d tops", len(bodies), len(tops))
		}
		for i, b := range bodies {
			if len(b) != len(tops[i]) {
				t.Fatalf("body %q, top %q: lengths differ", b, tops[i])
			}
			for k := range len(b) {
				if tops[i][k] != b[k] && tops[i][k] != ' ' {
					t.Fatalf("top %q adds to body %q at %d", tops[i], b, k)
				}
			}
		}
		trainerDefaultCallbacks("LightningCLI " + s)
		cliNoCheckpointing(s)
	})
}

// initArgsOf scans text alone for the parameters the classes it hands over as *_class keyword
// arguments add to their bases.
func initArgsOf(text string) map[string]map[string]bool {
	s := &initScan{handed: map[string]bool{}}
	s.read("x.py", text)
	return s.args(func(string) ([]byte, error) { return []byte(text), nil })
}

// FuzzSubclassInitArgs: the scan of classes' __init__ parameters never panics, and records only
// names written in the text, under base names written there.
func FuzzSubclassInitArgs(f *testing.F) {
	for _, s := range []string{
		"class A(Trainer):\n    def __init__(self, *a, x=1, y: int = 2, **k):\n        pass\n",
		"class A(pl.Trainer):\n    def __init__(\n        self,  # c\n        # c2\n        x=(1, 2),\n    ):\n",
		"class A(B, metaclass=M):\n  def __init__(self, z=f(1,2)):\n", "class A(B):\n", "class A(B):\n    def __init__(", "class (:\n def __init__(",
		"cli(trainer_class=A)\nclass A(B):\n  def __init__(self, q):\n", "x_class = m.A\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for base, params := range initArgsOf(s) {
			if !strings.Contains(s, base) {
				t.Fatalf("base %q not in %q", base, s)
			}
			for p := range params {
				if !paramName.MatchString(p) || !strings.Contains(s, p) || p == "self" {
					t.Fatalf("parameter %q of %q", p, s)
				}
			}
		}
	})
}

// lintInRepo writes files into a fresh folder (a repository when they hold a marker such as
// setup.py) and returns the text output of checking one of them with the rules selected.
func lintInRepo(t *testing.T, files map[string]string, file, sel string) string {
	t.Helper()
	dir := writeTree(t, files)
	_, out, _ := cli(t, nil, "check", "--select", sel, filepath.Join(dir, filepath.FromSlash(file)))
	return out
}

// TestAddWordsReads: attribute names and whole string literals are reads, as written;
// declarations, parameters and words inside longer strings are not.
func TestAddWordsReads(t *testing.T) {
	names, reads := map[string]bool{}, map[string]bool{}
	addWords(names, reads, []byte("cfg = OmegaConf.load(p)\nname = cfg.Model_Name\nn = cfg.get(\"eval_samples\", 8)\nm = cfg['lr']\n"+
		"@dataclass\nclass A:\n    dataset_split: str = 'train'\ndef f(model_id: str = \"x\"):\n    print(\"a dataset_name here\")\n"))
	for _, w := range []string{"Model_Name", "eval_samples", "lr", "load", "get", "train", "x"} {
		if !reads[w] {
			t.Errorf("%q is a read", w)
		}
	}
	for _, w := range []string{"model_name", "dataset_split", "model_id", "dataset_name", "cfg"} {
		if reads[w] {
			t.Errorf("%q is no read", w)
		}
	}
	if !names["model_name"] || !names["dataset_split"] {
		t.Errorf("words: %v", names)
	}
}

// TestCheckpointSubclassInRepository: a trainer callback that derives from ModelCheckpoint in
// the repository's code (class SaveBest(ModelCheckpoint), or one step further) is a Checkpoint,
// so Lightning adds no default ModelCheckpoint (2.6.0 _configure_checkpoint_callbacks) and
// nothing is said of one; a callback of another base leaves the default in place.
func TestCheckpointSubclassInRepository(t *testing.T) {
	lintRepo := func(cb string) string {
		t.Helper()
		return lintInRepo(t, map[string]string{
			"pyproject.toml":     "[project]\nname = 'x'\n",
			"src/pkg/cb.py":      "from lightning.pytorch.callbacks import Callback, ModelCheckpoint\n\nclass SaveBest(ModelCheckpoint):\n    pass\n\nclass SaveTop(SaveBest):\n    pass\n\nclass PrintMetrics(Callback):\n    pass\n",
			"configs/train.yaml": "trainer:\n  max_epochs: 10\n  callbacks:\n    - class_path: pkg.cb." + cb + "\nmodel:\n  class_path: pkg.model.Task\n",
		}, "configs/train.yaml", "TL301")
	}
	for _, cb := range []string{"SaveBest", "SaveTop"} {
		if out := lintRepo(cb); strings.Contains(out, "TL301") {
			t.Errorf("%s derives from ModelCheckpoint, yet the default is assumed:\n%s", cb, out)
		}
	}
	if out := lintRepo("PrintMetrics"); !strings.Contains(out, "TL301") {
		t.Errorf("a plain callback leaves the default ModelCheckpoint, yet TL301 is gone:\n%s", out)
	}
}

// TestScriptKeysSilenceDeprecatedKey: VRL's GRPO configs write evaluation_strategy, a required
// field of its script's own dataclass (TrlParser(dataclass_types=[MyArguments])) that it passes
// on as GRPOConfig(eval_strategy=...): renaming it, as a deprecated Trainer key, would make
// TrlParser refuse the file. Without the dataclass the key is the Trainer's deprecated one.
func TestScriptKeysSilenceDeprecatedKey(t *testing.T) {
	files := map[string]string{
		"pyproject.toml": "[project]\nname = 'x'\n",
		"train.py": "from dataclasses import dataclass\nfrom trl import GRPOConfig, TrlParser\n\n@dataclass\nclass MyArguments:\n    output_dir: str\n    evaluation_strategy: str\n\n" +
			"args = TrlParser(dataclass_types=[MyArguments]).parse_args_and_config()[0]\n",
		"config.yaml": "output_dir: out\nevaluation_strategy: steps\neval_steps: 10\nper_device_train_batch_size: 4\n",
	}
	if out := lintInRepo(t, files, "config.yaml", "TL005"); strings.Contains(out, "TL005") {
		t.Errorf("a field of the script's dataclass is called deprecated:\n%s", out)
	}
	files["train.py"] = "import json\n"
	if out := lintInRepo(t, files, "config.yaml", "TL005"); !strings.Contains(out, `"evaluation_strategy" is deprecated`) {
		t.Errorf("the Trainer's deprecated key is not reported:\n%s", out)
	}
}

// TestCLICallbacks: a LightningCLI subclass that builds a ModelCheckpoint (ProbTS's run.py swaps
// the Trainer's for its own before fitting) makes the config's view of it unknown; a file that
// builds one without subclassing the CLI is not read so.
func TestCLICallbacks(t *testing.T) {
	sub := "from lightning.pytorch.cli import LightningCLI\n\nclass ProbTSCli(LightningCLI):\n    def init_exp(self):\n        self.ckpt = ModelCheckpoint(monitor='val_CRPS', save_top_k=-1)\n"
	if got := cliCallbacks(sub); !reflect.DeepEqual(got, []string{"ModelCheckpoint"}) {
		t.Errorf("subclass: %v", got)
	}
	if got := cliCallbacks("cli = LightningCLI(Model)\nckpt = ModelCheckpoint()\n"); got != nil {
		t.Errorf("no subclass: %v", got)
	}
	out := lintInRepo(t, map[string]string{
		"pyproject.toml":     "[project]\nname = 'x'\n",
		"run.py":             sub,
		"configs/train.yaml": "trainer:\n  max_epochs: 10\nmodel:\n  class_path: pkg.model.Task\n",
	}, "configs/train.yaml", "TL301")
	if strings.Contains(out, "TL301") {
		t.Errorf("the CLI's own ModelCheckpoint is not seen:\n%s", out)
	}
}

// TestCLIDefaultCallbacks: a LightningCLI that loads a defaults file with a ModelCheckpoint under
// every fit (the parser's or fit's default_config_files, a computed path included) or appends
// trainer_defaults' callbacks gives its configs those callbacks, or turns checkpointing off in
// trainer_defaults, so a config fragment with no trainer.callbacks does not get the Trainer's
// default ModelCheckpoint, while a config's own
// callbacks still replace the defaults file's; a test subcommand's defaults file, or one
// without a checkpoint callback, changes nothing.
func TestCLIDefaultCallbacks(t *testing.T) {
	defaults := "trainer:\n  callbacks:\n    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        monitor: val_loss\n"
	for _, tc := range []struct {
		name, script, defaults string
		silent                 bool
	}{
		{"computed fit path", "import os\nfrom lightning.pytorch.cli import LightningCLI\n# the CLI's defaults\nbase = os.path.dirname(os.path.dirname(__file__))\ndefault = os.path.join(base, \"configs/defaults.yaml\")\nLightningCLI(parser_kwargs={\"fit\": {\"default_config_files\": [default]}})\n", defaults, true},
		{"parser's own list", "LightningCLI(parser_kwargs={\"default_config_files\": [\"configs/defaults.yaml\"]})\n", defaults, true},
		{"trainer_defaults", "LightningCLI(trainer_defaults={\"max_epochs\": 5, \"callbacks\": [ModelCheckpoint(monitor=\"val_loss\")]})\n", "", true},
		{"trainer_defaults without callbacks", "LightningCLI(trainer_defaults={\"max_epochs\": 5})\nModelCheckpoint\n", "", false},
		// Kurokabe/TorchGANime's train_vqgan.py: the callback made beforehand, named in the list.
		{"trainer_defaults naming a callback made before", "def cli_main():\n    checkpoint_callback = ModelCheckpoint(save_top_k=1, monitor=\"val/rec_loss_epoch\")\n    cli = LightningCLI(\n        VQGAN,\n        trainer_defaults={\"callbacks\": [checkpoint_callback]},\n    )\n", "", true},
		{"trainer_defaults naming another callback made before", "def cli_main():\n    lr = LearningRateMonitor()\n    cli = LightningCLI(VQGAN, trainer_defaults={\"callbacks\": [lr]})\n", "", false},
		// A subclass (gaussian-splatting-lightning's CLI) turning checkpointing off: no
		// ModelCheckpoint runs, whose latest-only retention could be reported.
		{"trainer_defaults turning checkpointing off", "from internal.cli import CLI\nCLI(Model, Data, trainer_defaults={\n    \"devices\": 1,\n    \"enable_checkpointing\": False,\n    \"callbacks\": [lazy_instance(SaveGaussian)],\n})\n", "", true},
		// spikingjelly's memopt/train.py: a nested dict before the key.
		{"trainer_defaults off after a nested dict", "from lightning.pytorch.cli import LightningCLI\ncli = LightningCLI(\n    run=False,\n    trainer_defaults={\n        \"logger\": {\"class_path\": \"CSVLogger\", \"init_args\": {\"save_dir\": \"./logs\"}},  # {\n        \"enable_checkpointing\": False,\n    },\n)\n", "", true},
		{"in a comment after code", "cli = LightningCLI(Model)  # or trainer_defaults={\"enable_checkpointing\": False}\n", "", false},
		{"a # in a string before it", "LightningCLI(M, parser_kwargs={\"description\": \"#1\"}, trainer_defaults={\"enable_checkpointing\": False})\n", "", true},
		{"off in a nested dict only", "LightningCLI(trainer_defaults={\"plugins\": {\"enable_checkpointing\": False}})\n", "", false},
		{"callbacks after a nested dict", "LightningCLI(trainer_defaults={\"logger\": {\"a\": {\"b\": 1}}, \"callbacks\": [ModelCheckpoint(monitor='val')]})\n", "", true},
		{"trainer_defaults leaving checkpointing on", "CLI(Model, Data, trainer_defaults={\"enable_checkpointing\": True})\n", "", false},
		{"trainer_defaults off only in a comment", "# old: LightningCLI(trainer_defaults={\"enable_checkpointing\": False})\nLightningCLI()\n", "", false},
		{"test subcommand's file", "LightningCLI(parser_kwargs={\"test\": {\"default_config_files\": [\"configs/defaults.yaml\"]}})\n", defaults, false},
		{"no checkpoint in the defaults", "LightningCLI(parser_kwargs={\"default_config_files\": [\"configs/defaults.yaml\"]})\n", "trainer:\n  max_steps: 100\n", false},
	} {
		files := map[string]string{
			"pyproject.toml":              "[project]\nname = 'x'\n",
			"pkg/main.py":                 tc.script,
			"configs/examples/wandb.yaml": "trainer:\n  logger:\n    class_path: lightning.pytorch.loggers.WandbLogger\n",
		}
		if tc.defaults != "" {
			files["configs/defaults.yaml"] = tc.defaults
		}
		out := lintInRepo(t, files, "configs/examples/wandb.yaml", "TL301")
		if strings.Contains(out, "TL301") == tc.silent {
			t.Errorf("%s: silent %v, want %v:\n%s", tc.name, !strings.Contains(out, "TL301"), tc.silent, out)
		}
		if tc.name == "trainer_defaults turning checkpointing off" {
			// A config that turns checkpointing back on gets Lightning's default ModelCheckpoint.
			files["configs/on.yaml"] = "trainer:\n  enable_checkpointing: true\n  logger:\n    class_path: lightning.pytorch.loggers.WandbLogger\n"
			if out := lintInRepo(t, files, "configs/on.yaml", "TL301"); !strings.Contains(out, "TL301") {
				t.Errorf("checkpointing turned back on under the CLI's trainer_defaults:\n%s", out)
			}
		}
		if tc.name == "parser's own list" {
			// A config's own callbacks replace the defaults file's: its ModelCheckpoint
			// without a monitor is what runs.
			files["configs/own.yaml"] = "trainer:\n  callbacks:\n    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        save_top_k: 1\n"
			if out := lintInRepo(t, files, "configs/own.yaml", "TL301"); !strings.Contains(out, "TL301") {
				t.Errorf("a config's own callbacks under the CLI's defaults:\n%s", out)
			}
		}
	}
}

// TestConfigCallbacks: a script that sets the parsed config's trainer callbacks to a list
// holding a monitored ModelCheckpoint (ptlflow's train.py, as class_path dicts) runs those, so
// its configs with no callbacks get no default ModelCheckpoint; a script that only reads them,
// or compares them, changes nothing.
func TestConfigCallbacks(t *testing.T) {
	ptl := "from ptlflow.utils.lightning.ptlflow_cli import PTLFlowCLI\n\ndef main():\n    cfg = PTLFlowCLI(run=False, parse_only=True).config\n    callbacks = []\n    callbacks.append({\"class_path\": \"lightning.pytorch.callbacks.model_checkpoint.ModelCheckpoint\",\n                      \"init_args\": {\"save_top_k\": 1, \"monitor\": \"main_val_metric\"}})\n    cfg.trainer.callbacks = callbacks\n    cli = PTLFlowCLI(args=cfg, run=False)\n    cli.trainer.fit(cli.model)\n"
	for _, tc := range []struct {
		name, script string
		silent       bool
	}{
		{"assigned", ptl, true},
		{"item assigned", strings.Replace(ptl, "cfg.trainer.callbacks = callbacks", "cfg['trainer']['callbacks'] = callbacks", 1), true},
		{"read only", strings.Replace(ptl, "cfg.trainer.callbacks = callbacks", "print(cfg.trainer.callbacks == callbacks)", 1), false},
		{"no checkpoint", strings.Replace(ptl, "model_checkpoint.ModelCheckpoint", "lr_monitor.LearningRateMonitor", 1), false},
		{"filtered", strings.Replace(ptl, "cfg.trainer.callbacks = callbacks", "cfg.trainer.callbacks = [c for c in callbacks if \"ModelCheckpoint\" not in c[\"class_path\"]]", 1), false},
		{"filtered over lines", strings.Replace(ptl, "cfg.trainer.callbacks = callbacks", "cfg.trainer.callbacks = [\n        c for c in callbacks if \"ModelCheckpoint\" not in c[\"class_path\"]\n    ]", 1), false},
		{"filter()", strings.Replace(ptl, "cfg.trainer.callbacks = callbacks", "cfg.trainer.callbacks = list(filter(lambda c: \"ModelCheckpoint\" not in c[\"class_path\"], callbacks))", 1), false},
		{"a comment after it", strings.Replace(ptl, "cfg.trainer.callbacks = callbacks", "cfg.trainer.callbacks = callbacks  # callbacks for the run", 1), true},
	} {
		out := lintInRepo(t, map[string]string{
			"pyproject.toml":                  "[project]\nname = 'x'\n",
			"train.py":                        tc.script,
			"configs/raft-train1-chairs.yaml": "seed_everything: true\ntrainer:\n  max_epochs: 45\nmodel:\n  class_path: ptlflow.models.raft\n",
		}, "configs/raft-train1-chairs.yaml", "TL301")
		if strings.Contains(out, "TL301") == tc.silent {
			t.Errorf("%s: silent %v, want %v:\n%s", tc.name, !strings.Contains(out, "TL301"), tc.silent, out)
		}
	}
}

// TestBracketBody: a dict's text up to its closing bracket, what nested brackets hold blanked
// in top; brackets in quotes and comments are not counted; an unclosed bracket, an unclosed
// quote or a comment running to the end is no dict (and no panic).
func TestBracketBody(t *testing.T) {
	for _, tc := range []struct{ in, body, top string }{
		{`"a": {"b": "}"}, "c": [1, (2)]} rest`, `"a": {"b": "}"}, "c": [1, (2)]`, `"a": {        }, "c": [      ]`},
		{"\"a\": 1,  # }\n\"b\": 2}", "\"a\": 1,     \n\"b\": 2", "\"a\": 1,     \n\"b\": 2"},
		{`"a": "{"}`, `"a": "{"`, `"a": "{"`},
	} {
		body, top, ok := bracketBody(tc.in)
		if !ok || body != tc.body || top != tc.top {
			t.Errorf("bracketBody(%q) = %q, %q, %v; want %q, %q", tc.in, body, top, ok, tc.body, tc.top)
		}
	}
	for _, in := range []string{`"a": {"b": 1}`, `"a": "}`, "\"a\": 1 # }", "(", `"\`, `'\`, "#", "x"} {
		if _, _, ok := bracketBody(in); ok {
			t.Errorf("bracketBody(%q): a dict", in)
		}
	}
}

// TestClassArgCallbacks: a CLI whose parser takes a ModelCheckpoint's arguments
// (add_lightning_class_args, transformertf's main.py) builds that callback for every run, so a
// config with no callbacks does not get the Trainer's default one; a parser taking another
// class's arguments changes nothing.
func TestClassArgCallbacks(t *testing.T) {
	if got := classArgCallbacks("parser.add_lightning_class_args(ModelCheckpoint, 'a')\nparser.add_lightning_class_args(\n  pl.callbacks.EarlyStopping, 'b')\nparser.add_lightning_class_args(LearningRateMonitor, 'c')\n"); !reflect.DeepEqual(got, []string{"ModelCheckpoint", "EarlyStopping"}) {
		t.Errorf("classArgCallbacks: %v", got)
	}
	lintWith := func(script string) string {
		return lintInRepo(t, map[string]string{
			"pyproject.toml":   "[project]\nname = 'x'\n",
			"pkg/main.py":      script,
			"configs/lstm.yml": "trainer:\n  max_epochs: 10\nmodel:\n  class_path: pkg.Model\n",
		}, "configs/lstm.yml", "TL301")
	}
	cli := "from lightning.pytorch.cli import LightningCLI\nclass CLI(LightningCLI):\n    def add_arguments_to_parser(self, parser):\n        parser.add_lightning_class_args(%s, 'checkpoint_best')\n"
	if out := lintWith(fmt.Sprintf(cli, "ModelCheckpoint")); strings.Contains(out, "TL301") {
		t.Errorf("the CLI's own ModelCheckpoint is not seen:\n%s", out)
	}
	if out := lintWith(fmt.Sprintf(cli, "LearningRateMonitor")); !strings.Contains(out, "TL301") {
		t.Errorf("another class's arguments: no TL301:\n%s", out)
	}
}

// TestVendoredFrameworkFields: a repository carrying LLaMA-Factory's source (DiRL's copy,
// extras/env.py saying 0.9.4.dev0) is linted for that version, and the fields its copy adds to
// the dataclasses its HfArgumentParser fills (block_length) are that version's settings; a key
// no field takes is still reported.
func TestVendoredFrameworkFields(t *testing.T) {
	out := lintInRepo(t, map[string]string{
		"pyproject.toml":                        "[project]\nname = 'x'\n",
		"src/llamafactory/extras/env.py":        "VERSION = \"0.9.4.dev0\"\n",
		"src/llamafactory/hparams/parser.py":    "from transformers import HfArgumentParser\n",
		"src/llamafactory/hparams/data_args.py": "from dataclasses import dataclass\n\n@dataclass\nclass DataArguments:\n    template: str = None\n    block_length: int = 4\n",
		"examples/sft.yaml":                     "model_name_or_path: m\nstage: sft\ndo_train: true\nfinetuning_type: full\ndataset: d\ntemplate: qwen\ncutoff_len: 2048\noutput_dir: out\nblock_length: 4\ncutoff_lenn: 1\n",
	}, "examples/sft.yaml", "TL003")
	if strings.Contains(out, `"block_length"`) || !strings.Contains(out, `"cutoff_lenn"`) {
		t.Errorf("want cutoff_lenn alone reported:\n%s", out)
	}
}

// TestVendoredFrameworkClassFields: a fork carrying llm-foundry's source (llmfoundry/_version.py
// says 0.17.0.dev0) that adds results_path to its own EvalConfig, which its eval script checks
// the YAML against, takes that key; a key its EvalConfig lacks is still reported, and the same
// field in a class of another name changes nothing.
func TestVendoredFrameworkClassFields(t *testing.T) {
	files := map[string]string{
		"pyproject.toml":                   "[project]\nname = 'llm-foundry'\n",
		"llmfoundry/__init__.py":           "",
		"llmfoundry/_version.py":           "__version__ = '0.17.0.dev0'\n",
		"llmfoundry/utils/config_utils.py": "from dataclasses import dataclass\n\n@dataclass\nclass EvalConfig:\n    models: list = MISSING\n    results_path: Optional[str] = None  # results save path\n",
		"scripts/eval/yamls/eval.yaml":     "max_seq_len: 2048\nmodels:\n- model_name: m\n  model: {name: hf_causal_lm}\n  tokenizer: {name: m}\ndevice_eval_batch_size: 8\nresults_path: ./out\nresults_pth: ./out\nicl_tasks: tasks.yaml\n",
	}
	out := lintInRepo(t, files, "scripts/eval/yamls/eval.yaml", "TL003")
	if strings.Contains(out, `"results_path"`) || !strings.Contains(out, `"results_pth"`) {
		t.Errorf("want results_pth alone reported:\n%s", out)
	}
	files["llmfoundry/utils/config_utils.py"] = strings.Replace(files["llmfoundry/utils/config_utils.py"], "class EvalConfig", "class SaveConfig", 1)
	if out := lintInRepo(t, files, "scripts/eval/yamls/eval.yaml", "TL003"); !strings.Contains(out, `"results_path"`) {
		t.Errorf("another class's field: want results_path reported:\n%s", out)
	}
	// a copy in a subfolder (foundry/llmfoundry/, its configs beside it) is the copy too
	sub := map[string]string{".git/HEAD": "ref: refs/heads/main\n"}
	for k, v := range files {
		if k != "pyproject.toml" && k != "myproj/other.py" {
			sub["foundry/"+k] = v
		}
	}
	sub["foundry/llmfoundry/utils/config_utils.py"] = strings.Replace(sub["foundry/llmfoundry/utils/config_utils.py"], "class SaveConfig", "class EvalConfig", 1)
	if out := lintInRepo(t, sub, "foundry/scripts/eval/yamls/eval.yaml", "TL003"); strings.Contains(out, `"results_path"`) || !strings.Contains(out, `"results_pth"`) {
		t.Errorf("a copy in a subfolder: want results_pth alone reported:\n%s", out)
	}
	// a class of that name outside the copy (the project's own) changes nothing either
	files["myproj/other.py"] = "from dataclasses import dataclass\n\n@dataclass\nclass EvalConfig:\n    results_path: str = ''\n"
	if out := lintInRepo(t, files, "scripts/eval/yamls/eval.yaml", "TL003"); !strings.Contains(out, `"results_path"`) {
		t.Errorf("a project class of the name: want results_path reported:\n%s", out)
	}
}

// TestVendoredFrameworkPoppedKeys: a copy of LLaMA-Factory whose _training_function takes keys
// out of the arguments before get_train_args parses them (LLaMA-Factory-RoboG-v2's
// args.pop("evaluators")) reads them itself, so they are not refused; other keys still are.
func TestVendoredFrameworkPoppedKeys(t *testing.T) {
	out := lintInRepo(t, map[string]string{
		"pyproject.toml":                     "[project]\nname = 'x'\n",
		"src/llamafactory/extras/env.py":     "VERSION = \"0.9.4.dev0\"\n",
		"src/llamafactory/hparams/parser.py": "from transformers import HfArgumentParser\n",
		"src/llamafactory/train/tuner.py":    "def _training_function(config):\n    args = config.get(\"args\")\n    evaluators = args.pop(\"evaluators\", None)\n    model_args, data_args, training_args, finetuning_args, generating_args = get_train_args(args)\n",
		"examples/sft.yaml":                  "model_name_or_path: m\nstage: sft\ndo_train: true\nfinetuning_type: full\ndataset: d\ntemplate: qwen\ncutoff_len: 2048\noutput_dir: out\nevaluators: [a]\ncutoff_lenn: 1\n",
	}, "examples/sft.yaml", "TL003")
	if strings.Contains(out, `"evaluators"`) || !strings.Contains(out, `"cutoff_lenn"`) {
		t.Errorf("want cutoff_lenn alone reported:\n%s", out)
	}
}

// dataclassFields lists the fields of every @dataclass class of a Python text, in order (what
// the repository scan records of each, pyDataclass.fields).
func dataclassFields(text string) []string {
	var out []string
	for _, c := range dataclassClasses(text) {
		out = append(out, c.fields...)
	}
	return out
}

// TestTorchtitanCopyInRepository: a repository holding its own torchtitan package runs its job
// files with that copy, whose defaults may differ from the upstream commit trainlint read
// (llama-mimi's dataloader takes 2 workers): no finding rests on a default there, while what the
// file sets is still judged. Beside a torchtitan installed as a dependency, the defaults hold.
// A copy without __init__.py is a namespace package, its own when a script imports a module of
// it (PC-Layer-torchtitan's train.py: `from torchtitan.config_manager import JobConfig`); a
// folder of that name whose modules no import names is not taken for the package.
func TestTorchtitanCopyInRepository(t *testing.T) {
	const job = "[job]\ndump_folder = \"out\"\n[model]\nname = \"llama3\"\nflavor = \"1B\"\n[parallelism]\ndata_parallel_shard_degree = -1\n" +
		"[training]\nlocal_batch_size = 8\nsteps = 1000\n[checkpoint]\nenable = false\n"
	for name, tc := range map[string]struct {
		own   bool
		files map[string]string
	}{
		"package":           {true, map[string]string{"torchtitan/__init__.py": ""}},
		"dependency":        {false, nil},
		"namespace package": {true, map[string]string{"torchtitan/config_manager.py": "class JobConfig: pass\n", "train.py": "from torchtitan.config_manager import JobConfig\n"}},
		"unimported folder": {false, map[string]string{"torchtitan/notes.py": "x = 1\n", "train.py": "from torchtitan.config_manager import JobConfig\n"}},
	} {
		own := tc.own
		root := t.TempDir()
		files := map[string]string{".git/HEAD": "ref: refs/heads/main\n", "config/job.toml": job, "train.py": "import torchtitan\n"}
		for k, v := range tc.files {
			files[k] = v
		}
		testfs.Write(t, root, files)
		_, res, _ := checkJSON(t, "--select", "TL101,TL204,TL304", filepath.Join(root, "config"))
		codes := map[string]bool{}
		for _, d := range res.Diagnostics {
			codes[d.Code] = true
		}
		if !codes["TL304"] || codes["TL101"] == own || codes["TL204"] == own {
			t.Errorf("%s: own copy %v: findings %v", name, own, codes)
		}
	}
}

// TestPaddleRepositoryLoaderPrefetches: a repository whose Python is Paddle's, with a few
// checkpoint-conversion scripts importing torch (rexzhengzhihong/PaddleNLP-2.4: 1,159 files
// import paddle, 10 torch), feeds paddle.io.DataLoader, which prefetches from a thread whatever
// num_workers is: its machine translation config's num_workers 0 gets no TL101. A torch
// repository with a paddle conversion script keeps it.
func TestPaddleRepositoryLoaderPrefetches(t *testing.T) {
	const cfg = "batch_size: 4096\nshuffle: True\n# For Dataloader num_workers\nnum_workers: 0\nepoch: 30\n"
	reader := "import paddle\n\ndef create_data_loader(args, dataset):\n    return paddle.io.DataLoader(dataset, num_workers=args.num_workers)\n"
	for _, tc := range []struct {
		what          string
		paddle, torch int
		want          bool
	}{{"a Paddle repository", 12, 1, false}, {"a torch repository", 1, 12, true}} {
		files := map[string]string{".git/HEAD": "ref: refs/heads/main\n", "configs/transformer.base.yaml": cfg}
		for i := range tc.paddle {
			files[fmt.Sprintf("paddle_%d.py", i)] = reader
		}
		for i := range tc.torch {
			files[fmt.Sprintf("torch_%d.py", i)] = "import torch\nfrom torch.utils.data import DataLoader\n"
		}
		out := lintInRepo(t, files, "configs/transformer.base.yaml", "TL101")
		if got := strings.Contains(out, "TL101"); got != tc.want {
			t.Errorf("%s: TL101 %v, want %v:\n%s", tc.what, got, tc.want, out)
		}
	}
}

// TestTrainerKeysNeedTrainerCode: a config of no known framework whose training section holds
// save_total_limit keeps checkpoints so only where the code could hand the section to a Trainer
// argument class (Seq2SeqTrainingArguments(**cfg["training"]): the word ending in
// "trainingarguments" counts); a loop of the repository's own that never names the key reads
// nothing of it (finetune-InternVL2).
func TestTrainerKeysNeedTrainerCode(t *testing.T) {
	const cfg = "training:\n  num_epochs: 3\n  eval_strategy: steps\n  eval_steps: 100\n  save_steps: 100\n  save_total_limit: 2\n  learning_rate: 0.001\n"
	for script, want := range map[string]bool{
		"import yaml\ncfg = yaml.safe_load(open('config.yaml'))\nargs = Seq2SeqTrainingArguments(**cfg['training'])\n":  true,
		"import yaml\ncfg = yaml.safe_load(open('config.yaml'))\nfor e in range(cfg['training']['num_epochs']): pass\n": false,
	} {
		out := lintInRepo(t, map[string]string{"setup.py": "from setuptools import setup\nsetup(name='x')\n", "train.py": script, "config.yaml": cfg}, "config.yaml", "TL301")
		if got := strings.Contains(out, "TL301"); got != want {
			t.Errorf("script %q: TL301 %v, want %v:\n%s", script, got, want, out)
		}
	}
}

// TestTextImports: an import statement of the module or a submodule counts, indented or not; a
// module whose name only starts with it, a comment or a word in a string does not.
func TestTextImports(t *testing.T) {
	for text, want := range map[string]bool{
		"import paddle\n": true, "from paddle.io import DataLoader\n": true, "    import paddle.nn as nn\n": true,
		"import paddle, numpy\n": true, "import paddlenlp\n": false, "# import paddle\n": false,
		"x = 'import paddle'\n": false, "from paddle_utils import f\n": false, "import\tpaddle\r\n": true,
	} {
		if got := textImports(text, "paddle"); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}

// TestSubclassInitArgs: RWKV-infctx-trainer's LightningCLI builds the trainer section with
// RWKVLightningTrainer(Trainer), whose __init__ takes target_batch_size and microbatch_size, so
// LightningCLI accepts them there; a key neither class takes is still refused, and so is one only
// a subclass no CLI is handed takes (a distillation script's DistillTrainer on the Hugging Face
// Trainer); so are the keys without the subclass, and in a section that names Lightning's own
// Trainer as the class to build (TALI's configs/trainer/default.yaml, `_target_: pytorch_lightning.Trainer`):
// a key only the subclass takes (microbatch_size) is refused there.
func TestSubclassInitArgs(t *testing.T) {
	const yaml = "seed_everything: true\ntrainer:\n  accelerator: gpu\n  devices: auto\n  max_epochs: 1\n  target_batch_size: 32\n  microbatch_size: 4\n  accumulate_grad_batchez: 2\n  temperature: 2.0\n" +
		"model:\n  ctx_len: 2048\ndata:\n  data_path: ../datapath/\n"
	lintRepo := func(py string) string {
		t.Helper()
		root := writeTree(t, map[string]string{
			"setup.py":                     "from setuptools import setup\nsetup(name='x')\n",
			"requirements.txt":             "lightning==2.0.5\n",
			"src/trainer.py":               py,
			"lightning_trainer.py":         "from lightning.pytorch.cli import LightningCLI\nfrom src.trainer import RWKVLightningTrainer\nLightningCLI(trainer_class=RWKVLightningTrainer)\nLightningCLI(trainer_class=CustomTrainer)\n",
			"src/distill.py":               "from transformers import Trainer\nclass DistillTrainer(Trainer):\n    def __init__(self, *a, temperature=2.0, **k):\n        super().__init__(*a, **k)\n",
			"config-example.yaml":          yaml,
			"configs/trainer/default.yaml": "_target_: lightning.Trainer\nmax_epochs: 1\nmicrobatch_size: 2\n",
		})
		_, out, _ := cli(t, nil, "check", "--select", "TL003", root)
		return out
	}
	const sub = "from lightning import Trainer\n\nclass RWKVLightningTrainer(Trainer):\n" +
		"    def __init__(\n        self,\n        *args,\n        # the global batch\n        target_batch_size=-1,\n        microbatch_size: int = 1,\n        **kwargs,\n    ):\n" +
		"        def helper(x, unused_arg=1):\n            return x\n        super().__init__(*args, **kwargs)\n" +
		"\nclass CustomTrainer(Trainer):\n    def __init__(self, gpus=None, **kwargs):\n        super().__init__(**kwargs)\n"
	out := lintRepo(sub)
	if strings.Contains(out, `"target_batch_size"`) || strings.Contains(out, `"microbatch_size" is not a Trainer argument: LightningCLI`) {
		t.Errorf("the subclass's __init__ takes the keys, yet:\n%s", out)
	}
	if !strings.Contains(out, `"accumulate_grad_batchez"`) {
		t.Errorf("a key neither class takes is not reported:\n%s", out)
	}
	if !strings.Contains(out, `"temperature"`) {
		t.Errorf("a key of a subclass no CLI is handed (a Hugging Face Trainer's) is not reported:\n%s", out)
	}
	if !strings.Contains(out, `"microbatch_size" is not a Trainer argument: Hydra's instantiate`) {
		t.Errorf("a section building Lightning's Trainer takes the subclass's keys:\n%s", out)
	}
	if out := lintRepo("import json\n"); !strings.Contains(out, `"target_batch_size"`) {
		t.Errorf("no subclass, yet no unknown key:\n%s", out)
	}
	cliText := "LightningCLI(trainer_class=src.trainer.RWKVLightningTrainer)\n"
	if got := initArgsOf(sub); got != nil {
		t.Errorf("classes no CLI is handed: init args %v", got)
	}
	got := initArgsOf(sub + "\nclass Plain:\n    def __init__(self, other=1):\n        pass\n" + cliText + "LightningCLI(trainer_class=CustomTrainer)\n")
	if len(got) != 1 || len(got["Trainer"]) != 3 || !got["Trainer"]["target_batch_size"] || !got["Trainer"]["microbatch_size"] || !got["Trainer"]["gpus"] {
		t.Errorf("init args %v, want Trainer: target_batch_size, microbatch_size, gpus", got)
	}
	// A class handed to a call as trainer_class, not one assigned to a name of that ending.
	handed := map[string]bool{}
	handedClasses("class M(Model):\n    config_class = Foo\n    self.trainer_class = Bar\nLightningCLI(M,\n    trainer_class = pl.R,\n)\nx = f(a, my_trainer_class=Q)\n", handed)
	if len(handed) != 1 || !handed["R"] {
		t.Errorf("handed %v, want R", handed)
	}
	// Bases over several lines; a docstring at column 0, or one showing a def, in the body.
	for _, src := range []string{
		"from lightning import Trainer as PLTrainer\nclass RWKVLightningTrainer(PLTrainer):\n    def __init__(self, target_batch_size=-1):\n        pass\n",
		"class RWKVLightningTrainer(\n    pl.Trainer,\n):\n    def __init__(self, *args, target_batch_size=-1, **kwargs):\n        pass\n",
		"class RWKVLightningTrainer(Trainer):\n    \"\"\"\nA trainer that\naccumulates.\n    \"\"\"\n    def __init__(self, *args, target_batch_size=-1, **kwargs):\n        pass\n",
		"class RWKVLightningTrainer(Trainer):\n    \"\"\"Example::\n\n    def __init__(self, bogus_key=1):\n    \"\"\"\n    def __init__(self, *args, target_batch_size=-1, **kwargs):\n        pass\n",
	} {
		got := initArgsOf(src + cliText)
		if len(got) != 1 || len(got["Trainer"]) != 1 || !got["Trainer"]["target_batch_size"] {
			t.Errorf("init args of %q: %v, want Trainer: target_batch_size", src, got)
		}
	}
}
