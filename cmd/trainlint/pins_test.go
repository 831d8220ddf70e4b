package main

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/config"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/testfs"
)

func TestParsePins(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       map[string]string
	}{
		{"requirements.txt", "torch>=2.1\ntransformers==4.46.3\ntrl[vllm]~=0.23\nsentence-transformers==3.0.1\n", map[string]string{"transformers": "4.46.3", "trl": "0.23"}},
		{"requirements.txt", "transformers>=4.40\n", map[string]string{}}, // a lower bound is not a pin
		{"setup.py", "    \"transformers>=4.46.1,<=4.46.1\",\n    \"trl<=0.12, >=0.12\",\n    \"deepspeed>=0.14,<=0.15\",\n", map[string]string{"transformers": "4.46.1", "trl": "0.12"}}, // bounds that meet
		{"pyproject.toml", "[project]\ndependencies = [\"deepspeed==0.14.4\", \"transformers>=4\"]\n", map[string]string{"deepspeed": "0.14.4"}},
		{"pyproject.toml", "[tool.poetry.dependencies]\ntransformers = \"^4.46.0\"\ntrl = {version = \"0.19.1\"}\n", map[string]string{"transformers": "4.46.0", "trl": "0.19.1"}},
		{"environment.yml", "dependencies:\n  - pip:\n    - transformers==4.51.0\n", map[string]string{"transformers": "4.51.0"}},
		{"requirements.txt", "pytorch-lightning==2.1.3\nlightning-utilities==0.11\n", map[string]string{"lightning": "2.1.3"}}, // the same versions as lightning
		{"requirements.txt", "lightning[extra]==2.5.1\n", map[string]string{"lightning": "2.5.1"}},
		// torch's pin bounds Lightning (withFloorBounds); ~= and ^ allow the next major release
		{"requirements.txt", "torch==1.8.1\n", map[string]string{"torch": "1.8.1"}},
		{"requirements.txt", "torch~=1.8\n", map[string]string{}},
		{"pyproject.toml", "[tool.poetry.dependencies]\ntorch = \"^1.8.1\"\n", map[string]string{}},
		// huggingface-hub's bounds transformers (withFloorBounds); ~= allows the releases up to 1
		{"requirements.txt", "huggingface_hub==0.28.1\n", map[string]string{"huggingface-hub": "0.28.1"}},
		{"requirements.txt", "huggingface-hub~=0.28\n", map[string]string{}},
		{"uv.lock", "[[package]]\nname = \"transformers\"\nversion = \"5.1.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n", map[string]string{"transformers": "5.1.0"}},
		{"uv.lock", "[[package]]\nname = \"transformers\"\nversion = \"4.50.0.dev0\"\nsource = { git = \"https://github.com/huggingface/transformers?rev=336dc69#336dc69d\" }\n", map[string]string{"transformers": "4.50.0.dev0"}}, // a development build, before 4.50.0
		{"requirements.txt", "axolotl[deepspeed,flash-attn]==0.10.0\nllamafactory==0.9.3\n", map[string]string{"axolotl": "0.10.0", "llamafactory": "0.9.3"}},
		{"Dockerfile", "FROM nvcr.io/nvidia/pytorch:22.12-py3\nENV TRANSFORMERS_CACHE=/c\nRUN pip install transformers==4.25.1 datasets==2.8.0 pytorch-lightning==1.8.6 \\\n    \"deepspeed==0.7.7\"\n", map[string]string{"transformers": "4.25.1", "lightning": "1.8.6", "deepspeed": "0.7.7"}},
		{"setup.py", "_deps = [\n    \"accelerate>=1.2.1\",\n    \"transformers==4.52.3\",\n    \"trl[vllm]==0.18.0\",\n]\nsetup(install_requires=[\"deepspeed==0.16.8\"])\n", map[string]string{"transformers": "4.52.3", "trl": "0.18.0", "deepspeed": "0.16.8"}},
		// conda's own dependencies, as `conda env export` writes them (zhejz/TrafficBots'
		// environment.yml); a version of two parts matches every release under it: no pin
		{"environment.yml", "name: tb\ndependencies:\n  - python=3.8.12=h12debd9_0\n  - pytorch-lightning=1.5.10=pyhd8ed1ab_0\n  - pytorch=1.10.1\n  - transformers=4.18\n  - pip:\n    - deepspeed==0.6.0\n", map[string]string{"lightning": "1.5.10", "deepspeed": "0.6.0"}},
		{"conda-env.yaml", "dependencies:\n  - transformers=4.30.2\n", map[string]string{"transformers": "4.30.2"}},
		{"requirements.txt", "transformers=4.30.2\n", map[string]string{}},
		// PEP 508's specifier in parentheses, as Poetry 2 writes [project] dependencies
		// (Ice-Moon-28/Mini-R1's "transformers (==4.48.1)")
		{"pyproject.toml", "[project]\ndependencies = [\n    \"transformers (==4.48.1)\",\n    \"trl (==0.15.0)\",\n    \"huggingface-hub (>=0.28.1,<0.29.0)\",\n]\n", map[string]string{"transformers": "4.48.1", "trl": "0.15.0"}},
		{"requirements.txt", "transformers[torch] ( == 4.46.3 )\ndeepspeed (>=0.15.4,<=0.15.4)\ntrl (>=0.12)\n", map[string]string{"transformers": "4.46.3", "deepspeed": "0.15.4"}},
		{"setup.py", "setup(install_requires=[\"transformers(==4.52.3)\", 'trl (~=0.18)'])\n", map[string]string{"transformers": "4.52.3", "trl": "0.18"}},
	} {
		if got := parsePins(c.name, c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q: got %v, want %v", c.name, c.text, got, c.want)
		}
	}
}

// TestTargetsFromPinsAndConfig: the nearest folder's pins apply from the linted file upwards,
// and the config file's [target] wins over them.
func TestTargetsFromPinsAndConfig(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "recipes", "sft")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "requirements.txt"), "transformers==4.46.0\ntrl==0.19.1\n")
	file := filepath.Join(sub, "config.yaml")
	write(file, "output_dir: out\n")
	o := withPins(lint.Options{}, file)
	if got := o.Targets["transformers"]; !reflect.DeepEqual(got, lint.Target{Version: "4.46.0", Source: "requirements.txt pins 4.46.0"}) {
		t.Errorf("transformers target %+v", got)
	}
	write(filepath.Join(root, ".trainlint.toml"), "[target]\ntransformers = \"5.0\"\n")
	o, err := fileOptions(config.NewLoader(allRules()), file)
	if err != nil {
		t.Fatal(err)
	}
	if got := o.Targets["transformers"]; got.Version != "5.0" || got.Source != ".trainlint.toml [target] sets 5.0" {
		t.Errorf("transformers target with [target]: %+v", got)
	}
	if got := o.Targets["trl"]; got.Version != "0.19.1" {
		t.Errorf("trl target falls back to the pins: %+v", got)
	}
}

// TestPinsFromInstallScript: divelab/AIRS's ATGC_Gen pins Lightning only in install.sh (`pip
// install pytorch_lightning==1.8.6`); a commented line, or a script of another name (a data
// download), pins nothing.
func TestPinsFromInstallScript(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "configs", "trainer")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A git URL and a bound written outside an install line (an echo, a clone) pin nothing
	// either: only what the script installs does.
	write("install.sh", "conda create -n atgc python=3.9\n# pip install transformers==4.20.0\nwget https://x/deepspeed==0.9.0.tar\npip install \\\n  pytorch_lightning==1.8.6 torchmetrics==0.11.4\n"+
		"echo 'then run: pip3 download git+https://github.com/huggingface/trl.git@v0.16.0'\necho 'needs transformers<4.30'\n")
	write("download_data.sh", "pip install transformers==4.10.0\n")
	write("setup_data.sh", "pip install trl==0.7.0\n")
	o := withPins(lint.Options{}, filepath.Join(sub, "full.yaml"))
	if got := o.Targets["lightning"]; !reflect.DeepEqual(got, lint.Target{Version: "1.8.6", Source: "install.sh pins 1.8.6"}) {
		t.Errorf("lightning target %+v", got)
	}
	for _, pkg := range []string{"transformers", "deepspeed", "trl"} {
		if got, ok := o.Targets[pkg]; ok {
			t.Errorf("%s target %+v from a comment, a URL, an echo or a data script", pkg, got)
		}
	}
	for name, want := range map[string]bool{"install.sh": true, "setup.sh": true, "install_env.sh": true, "env_setup.sh": true, "conda-install.sh": true, "install_deps.sh": true,
		"run_setup_data.sh": false, "setup_data.sh": false, "setup_eval.sh": false, "install_eval_deps.sh": false, "train.sh": false, "reinstall.sh": false} {
		if got := installScriptName.MatchString(name); got != want {
			t.Errorf("installScriptName(%q) = %v", name, got)
		}
	}
}

// TestPinsFromDockerfile: flash-attention's training/ pins Lightning only in its Dockerfile
// (pytorch-lightning==1.8.6); a requirements file in the same folder wins over it.
func TestPinsFromDockerfile(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "configs", "trainer")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	docker := "FROM nvcr.io/nvidia/pytorch:22.12-py3\nRUN pip install transformers==4.25.1 pytorch-lightning==1.8.6\n"
	if err := os.WriteFile(filepath.Join(root, "Dockerfile"), []byte(docker), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "requirements.txt"), []byte("transformers==4.30.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := withPins(lint.Options{}, filepath.Join(sub, "all_params.yaml"))
	if got := o.Targets["lightning"]; !reflect.DeepEqual(got, lint.Target{Version: "1.8.6", Source: "Dockerfile pins 1.8.6"}) {
		t.Errorf("lightning target %+v", got)
	}
	if got := o.Targets["transformers"]; got.Version != "4.30.0" {
		t.Errorf("transformers target %+v (requirements.txt comes first)", got)
	}
}

// A repository that keeps its environment in a folder of its own at the root (pdearena's
// docker/environment.yml) pins its configs' packages when no folder above a config does; a
// pin above the config still wins.
func TestPinsFromEnvironmentFolder(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		".git/HEAD":              "",
		"setup.py":               "install_requires=['pytorch-lightning>=1.7']\n",
		"docker/environment.yml": "name: x\ndependencies:\n  - pip:\n    - pytorch-lightning==1.7.7\n    - transformers==4.20.0\n",
		"exp/requirements.txt":   "transformers==4.30.0\n",
		"docker/Dockerfile":      "FROM python:3.11\nRUN pip install trl==0.8.0 fastapi\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := withPins(lint.Options{}, filepath.Join(root, "exp", "configs", "a.yaml"))
	if got := o.Targets["lightning"]; got.Version != "1.7.7" || got.Source != "docker/environment.yml pins 1.7.7" {
		t.Errorf("lightning target %+v", got)
	}
	if got := o.Targets["transformers"]; got.Version != "4.30.0" {
		t.Errorf("transformers target %+v (exp/requirements.txt is above the config)", got)
	}
	// A Dockerfile there may build a serving image: it pins nothing for training.
	if got, ok := o.Targets["trl"]; ok {
		t.Errorf("trl pinned by a serving image: %+v", got)
	}
}

// A Dockerfile built on axolotl's image pins the release its tag names; a main-… tag (a build
// of the main branch) or another tag places axolotl at no release.
func TestPinsFromAxolotlImage(t *testing.T) {
	for from, want := range map[string]string{
		"FROM axolotlai/axolotl:0.12.0-py3.11-cu126-2.7.1\n":               "0.12.0",
		"FROM --platform=linux/amd64 winglian/axolotl:v0.4.0-py3.10\n":     "0.4.0",
		"FROM docker.io/axolotlai/axolotl-cloud:main-py3.11-cu128-2.7.1\n": gitVersion,
		"FROM axolotlai/axolotl:latest\n":                                  gitVersion,
		"FROM pytorch/pytorch:2.7.1\n":                                     "",
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte(from), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := folderPins(dir)["axolotl"]; got.Version != want {
			t.Errorf("%q: axolotl target %+v, want %q", from, got, want)
		}
	}
}

// TestPinsFromSingularRequirement: TinyZero-TRL pins transformers==4.49.0 in requirement.txt,
// the singular, which pip reads as well as any other name given to -r.
func TestPinsFromSingularRequirement(t *testing.T) {
	forgetRepo()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "requirement.txt"), []byte("transformers==4.49.0\ntrl==0.15.2 ; python_version >= '3.9'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := withPins(lint.Options{}, filepath.Join(root, "recipe.yaml"))
	if got := o.Targets["transformers"]; got.Version != "4.49.0" || got.Source != "requirement.txt pins 4.49.0" {
		t.Errorf("transformers target %+v", got)
	}
	if _, ok := o.Targets["trl"]; ok {
		t.Errorf("a requirement with a marker is no pin: %+v", o.Targets["trl"])
	}
}

// TestPinsFromSetupPy: a repository that pins its frameworks only in setup.py (open-r1:
// "transformers==4.52.3" in a _deps list) is linted for those versions.
func TestPinsFromSetupPy(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "recipes")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	setup := "_deps = [\n    \"accelerate>=1.2.1\",\n    \"transformers==4.52.3\",\n    \"trl[vllm]==0.18.0\",\n]\n"
	if err := os.WriteFile(filepath.Join(root, "setup.py"), []byte(setup), 0o644); err != nil {
		t.Fatal(err)
	}
	o := withPins(lint.Options{}, filepath.Join(sub, "config.yaml"))
	if got := o.Targets["transformers"]; !reflect.DeepEqual(got, lint.Target{Version: "4.52.3", Source: "setup.py pins 4.52.3"}) {
		t.Errorf("transformers target %+v", got)
	}
	if got := o.Targets["trl"]; got.Version != "0.18.0" {
		t.Errorf("trl target %+v", got)
	}
}

// TestPinsFromVendoredDependencyChecks: a copy of LLaMA-Factory bounds its dependencies at
// start-up (extras/misc.py check_dependencies, v0.9.1: transformers<=4.46.1, trl<=0.9.6), which
// count as upper bounds where the folder's own files pin nothing; a requirement file's pin wins.
// (LLaMA-Factory-GSM8K: under transformers 4.x an unset report_to reports to every
// integration, not to none.)
func TestPinsFromVendoredDependencyChecks(t *testing.T) {
	root := t.TempDir()
	testfs.Write(t, root, map[string]string{
		"src/llamafactory/extras/env.py":  "VERSION = \"0.9.1.dev0\"\n",
		"src/llamafactory/extras/misc.py": "def check_dependencies():\n    require_version(\"transformers>=4.41.2,<=4.46.1\", \"To fix: pip install transformers>=4.41.2,<=4.46.1\")\n    require_version(\"trl>=0.8.6,<=0.9.6\", \"To fix: pip install trl>=0.8.6,<=0.9.6\")\n",
		"examples/sft.yaml":               "model_name_or_path: m\nstage: sft\ndo_train: true\n",
	})
	forgetRepo()
	o := withPins(lint.Options{}, filepath.Join(root, "examples", "sft.yaml"))
	if got := o.Targets["transformers"]; got.Version != "4.46.1" || !strings.Contains(got.Source, "misc.py") {
		t.Errorf("transformers target %+v", got)
	}
	if got := o.Targets["trl"]; got.Version != "0.9.6" {
		t.Errorf("trl target %+v", got)
	}
	testfs.Write(t, root, map[string]string{"requirements.txt": "transformers==4.45.0\n"})
	forgetRepo()
	if got := withPins(lint.Options{}, filepath.Join(root, "examples", "sft.yaml")).Targets["transformers"]; got.Version != "4.45.0" {
		t.Errorf("with requirements.txt: transformers target %+v", got)
	}
}

// TestPinsFromVendoredSource: a repository that carries a framework's own source (LIMO's
// train/ is a copy of LLaMA-Factory whose env.py says VERSION = "0.9.2.dev0") is linted for that
// version, a development build that still has image_resolution (removed in 0.9.2): no refusal is
// claimed. The same file beside a 0.9.2 source gets one.
func TestPinsFromVendoredSource(t *testing.T) {
	root := t.TempDir()
	testfs.Write(t, root, map[string]string{
		"train/requirements.txt":  "transformers>=4.41.2\n",
		"train/examples/sft.yaml": "model_name_or_path: Qwen/Qwen2-VL-7B-Instruct\nimage_resolution: 262144\nstage: sft\ndo_train: true\nfinetuning_type: lora\ndataset: mllm_demo\ntemplate: qwen2_vl\noutput_dir: saves/x\n",
	})
	for _, c := range []struct {
		version string
		want    bool
	}{{"0.9.2.dev0", false}, {"0.9.2", true}} {
		testfs.Write(t, root, map[string]string{"train/src/llamafactory/extras/env.py": "import platform\n\nVERSION = \"" + c.version + "\"\n"})
		forgetRepo()
		o := withPins(lint.Options{}, filepath.Join(root, "train", "examples", "sft.yaml"))
		if got := o.Targets["llamafactory"]; got.Version != c.version || got.Source != "src/llamafactory/extras/env.py says "+c.version {
			t.Errorf("%s: llamafactory target %+v", c.version, got)
		}
		_, out, _ := cli(t, nil, "check", "--select", "TL003", filepath.Join(root, "train", "examples", "sft.yaml"))
		if got := strings.Contains(out, "image_resolution"); got != c.want {
			t.Errorf("%s: image_resolution reported %v, want %v:\n%s", c.version, got, c.want, out)
		}
	}
	// trl keeps its version in a VERSION file beside its package.
	testfs.Write(t, root, map[string]string{
		"trl/__init__.py": "from importlib.metadata import version\n__version__ = version(\"trl\")\n",
		"VERSION":         "0.24.0.dev0\n",
	})
	forgetRepo()
	if got := withPins(lint.Options{}, filepath.Join(root, "examples", "a.yaml")).Targets["trl"]; got.Version != "0.24.0.dev0" || got.Source != "VERSION says 0.24.0.dev0" {
		t.Errorf("trl target %+v", got)
	}
}

// TestLitGPTPinDecidesStartupCheck: pretrain refused train.max_steps up to LitGPT v0.5.12 and
// only warns at v0.5.13 (validate_args, litgpt/pretrain.py): a repository pinning 0.5.10 gets
// the refusal, one pinning 0.5.13 and one pinning nothing (read at 0.5.13) do not.
func TestLitGPTPinDecidesStartupCheck(t *testing.T) {
	cfg := "model_name: pythia-14m\nout_dir: out\ntrain:\n  global_batch_size: 8\n  micro_batch_size: 2\n  max_tokens: 1000000\n  max_steps: 100\neval:\n  interval: 10\n"
	for _, c := range []struct {
		pins, want string
	}{
		{"litgpt==0.5.10\n", `train.max_steps is set, which pretrain does not support: litgpt 0.5.10 stops at start-up (requirements.txt pins 0.5.10)`},
		{"litgpt==0.5.13\n", ""},
		{"", ""},
	} {
		files := map[string]string{"setup.py": "", "pretrain.yaml": cfg}
		if c.pins != "" {
			files["requirements.txt"] = c.pins
		}
		out := lintInRepo(t, files, "pretrain.yaml", "TL011")
		if c.want == "" && strings.Contains(out, "TL011") || c.want != "" && !strings.Contains(out, c.want) {
			t.Errorf("pins %q: got\n%s\nwant %q", c.pins, out, c.want)
		}
	}
}

// TestParseCaps: an upper bound is linted for the newest version it allows (just below a strict
// bound), named by the bound; a pin in the same text wins (folderPins asks parsePins first).
func TestParseCaps(t *testing.T) {
	for _, c := range []struct {
		text string
		want map[string]lint.Target
	}{
		{"transformers>=4.41.2,<4.46\n", map[string]lint.Target{"transformers": {Version: "4.45.999999", Shown: "<4.46", Source: "requirements.txt requires transformers<4.46"}}},
		{"trl<0.20.0\ndeepspeed<=0.15.4\n", map[string]lint.Target{"trl": {Version: "0.19.999999", Shown: "<0.20.0", Source: "requirements.txt requires trl<0.20.0"},
			"deepspeed": {Version: "0.15.4", Shown: "<=0.15.4", Source: "requirements.txt requires deepspeed<=0.15.4"}}},
		{"transformers!=4.40.0,<5\ntorch<2.3\n", map[string]lint.Target{"transformers": {Version: "4.999999", Shown: "<5", Source: "requirements.txt requires transformers<5"},
			"torch": {Version: "2.2.999999", Shown: "<2.3", Source: "requirements.txt requires torch<2.3"}}}, // torch's bounds Lightning (withFloorBounds)
		{"transformers>=4.40\nsentence-transformers<3\n", map[string]lint.Target{}},
		{"huggingface-hub>=0.19.2,<1.0\n", map[string]lint.Target{"huggingface-hub": {Version: "0.999999", Shown: "<1.0", Source: "requirements.txt requires huggingface-hub<1.0"}}}, // it bounds transformers (withFloorBounds)
		// a PEP 508 specifier in parentheses
		{"transformers (>=4.41.2, <4.46)\n", map[string]lint.Target{"transformers": {Version: "4.45.999999", Shown: "<4.46", Source: "requirements.txt requires transformers<4.46"}}},
		// pre-releases on either side
		{"transformers>=4.40.0.dev0,<4.46\n", map[string]lint.Target{"transformers": {Version: "4.45.999999", Shown: "<4.46", Source: "requirements.txt requires transformers<4.46"}}},
		{"transformers>=4.41.0rc1,<5.0.0rc1\n", map[string]lint.Target{"transformers": {Version: "4.999999", Shown: "<5.0.0rc1", Source: "requirements.txt requires transformers<5.0.0rc1"}}},
		{"transformers<=4.46.0rc1\n", map[string]lint.Target{"transformers": {Version: "4.45.999999", Shown: "<=4.46.0rc1", Source: "requirements.txt requires transformers<=4.46.0rc1"}}},
		{"transformers<4.41.0.post1\n", map[string]lint.Target{"transformers": {Version: "4.41.0", Shown: "<4.41.0.post1", Source: "requirements.txt requires transformers<4.41.0.post1"}}},
		// past the newest release read: linted for it, as with no bound
		{"deepspeed>=0.14,<1.0\ntrl<9\n", map[string]lint.Target{}},
		// a bound in a comment, or under an environment marker, is none
		{"transformers>=5.0  # we dropped transformers<5 in March\n", map[string]lint.Target{}},
		{"transformers>=4.40,<5 ; python_version < \"3.10\"\ntransformers>=5.0 ; python_version >= \"3.10\"\n", map[string]lint.Target{}},
	} {
		if got := parseCaps("requirements.txt", c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %+v, want %+v", c.text, got, c.want)
		}
	}
	// A marker or a '#' that belongs to another requirement of the line leaves the bound.
	for name, text := range map[string]string{
		"pyproject.toml": "dependencies = [\"torch>=2.1; sys_platform == 'linux'\", \"transformers>=4.41.2,<4.46\"]\n",
		"setup.py":       "setup(name=\"x\", install_requires=[\"mylib @ git+https://github.com/o/r.git#subdirectory=pkg\", \"transformers>=4.41.2,<4.46\", \"accelerate; python_version>'3.8'\"])\n",
		"Dockerfile":     "RUN set -eux; pip install \"transformers<4.46\"\n",
	} {
		if got := parseCaps(name, text)["transformers"]; got.Shown != "<4.46" {
			t.Errorf("%s %q: transformers %+v, want the bound <4.46", name, text, got)
		}
	}
	// A shell command's ';' inside quotes is no marker.
	for _, text := range []string{"RUN /bin/bash -c \"set -e; pip install transformers==4.34.0\"\n",
		"RUN [\"/bin/bash\", \"-c\", \"pip install transformers==4.34.0; pip cache purge\"]\n"} {
		if got := parsePins("Dockerfile", text)["transformers"]; got != "4.34.0" {
			t.Errorf("Dockerfile %q: transformers %q, want 4.34.0", text, got)
		}
	}
	if got := parseCaps("Dockerfile", "RUN bash -c 'cd /w; pip install \"transformers>=4.30,<4.41\"'\n")["transformers"]; got.Shown != "<4.41" {
		t.Errorf("Dockerfile bound in a shell command: %+v", got)
	}
	// A pin in a comment or under a marker is none.
	for name, text := range map[string]string{
		"Dockerfile":             "# RUN pip install transformers==4.57.6\n",
		"requirements-py313.txt": "transformers==4.57.6; python_version >= \"3.13\"\n",
		"pyproject.toml":         "dependencies = [\"transformers==4.57.6; python_version >= '3.13'\"]  # transformers==4.50.0\n",
	} {
		if got := parsePins(name, text); len(got) != 0 {
			t.Errorf("%s %q: pins %v, want none", name, text, got)
		}
	}
	for v, want := range map[string]string{"4.46": "4.45.999999", "5.0": "4.999999", "0.19.1": "0.19.0.999999", "0": ""} {
		if got := justBelow(v); got != want {
			t.Errorf("justBelow(%q) = %q, want %q", v, got, want)
		}
	}
}

// TestPinBeatsBound: a pin in any file of the folder wins over a bound in a file read before it.
func TestPinBeatsBound(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"setup.py":         "setup(install_requires=[\"transformers>=4.40,<4.47\"])\n",
		"requirements.txt": "transformers==4.45.2\n",
	})
	if got := folderPins(dir)["transformers"]; got.Version != "4.45.2" || got.Shown != "" {
		t.Errorf("target %+v, want requirements.txt's pin", got)
	}
}

// TestParenthesizedPinNoV5Claims: Ice-Moon-28/Mini-R1's pyproject.toml pins
// "transformers (==4.48.1)", the PEP 508 form Poetry 2 writes: its GRPO recipe is linted for
// 4.48.1, where warmup_ratio is no deprecated key, not for transformers 5.
func TestParenthesizedPinNoV5Claims(t *testing.T) {
	writeTree(t, map[string]string{
		".git/HEAD":      "ref: refs/heads/main\n",
		"pyproject.toml": "[project]\nname = \"mini-r1\"\ndependencies = [\n    \"transformers (==4.48.1)\",\n    \"trl (==0.15.0)\",\n]\n",
		"grpo.yaml":      "model_name_or_path: Qwen/Qwen2.5-3B\noutput_dir: out\nmax_steps: 600\nlearning_rate: 1.0e-6\nwarmup_ratio: 0.05\nreport_to:\n- wandb\n",
	})
	_, res, _ := checkJSON(t, "--select", "TL005", "grpo.yaml")
	if len(res.Diagnostics) != 0 {
		t.Errorf("transformers (==4.48.1): %v %s", findings(res), res.Diagnostics[0].Message)
	}
}

// TestCapBelowFiveNoV5Claims: 360-LLaMA-Factory requires transformers>=4.41.2,<4.46: keys
// deprecated in transformers 5 are no warnings there, one removed in 5 still works (info), and
// the v5 report_to default is not claimed, for an HF recipe or a LLaMA-Factory one.
func TestCapBelowFiveNoV5Claims(t *testing.T) {
	writeTree(t, map[string]string{
		".git/HEAD":        "ref: refs/heads/main\n",
		"requirements.txt": "transformers>=4.41.2,<4.46\n",
		"sft.yaml":         "output_dir: out\nper_device_train_batch_size: 4\nwarmup_ratio: 0.1\nlogging_dir: logs\noverwrite_output_dir: true\neval_strategy: steps\neval_steps: 10\ndataloader_num_workers: 2\n",
		"lf.yaml":          "model_name_or_path: m\nstage: sft\ndo_train: true\nfinetuning_type: lora\ndataset: alpaca\noutput_dir: out\n",
	})
	_, res, _ := checkJSON(t, "sft.yaml", "lf.yaml")
	for _, d := range res.Diagnostics {
		switch {
		case d.Code == "TL401", d.Code == "TL005" && d.Severity != lint.Info:
			t.Errorf("%s:%d %s %s %s", d.File, d.Line, d.Code, d.Severity, d.Message)
		case d.Code == "TL005" && !strings.Contains(d.Message, "requirements.txt requires transformers<4.46, where it still works"):
			t.Errorf("TL005 without the bound: %s", d.Message)
		}
	}
	if !strings.Contains(findingsIn(res, "sft.yaml"), "TL005") {
		t.Errorf("overwrite_output_dir not noted: %v", findings(res))
	}
}

// TestEvalStrategyNameBefore441: Firefly pins transformers 4.34, where the key is
// evaluation_strategy (HfArgumentParser refuses eval_strategy): the no-evaluation finding and
// its help name it; with 4.41 or later they name eval_strategy.
func TestEvalStrategyNameBefore441(t *testing.T) {
	writeTree(t, map[string]string{
		".git/HEAD":            "ref: refs/heads/main\n",
		"requirements.txt":     "transformers==4.34\n",
		"r.yaml":               "output_dir: out\nper_device_train_batch_size: 4\ndataloader_num_workers: 2\nreport_to: wandb\n",
		"new/requirements.txt": "transformers==4.46.0\n",
		"new/r.yaml":           "output_dir: out\nper_device_train_batch_size: 4\ndataloader_num_workers: 2\nreport_to: wandb\n",
	})
	tl204 := func(file string) lint.Diagnostic {
		t.Helper()
		_, res, _ := checkJSON(t, file)
		for _, d := range res.Diagnostics {
			if d.Code == "TL204" {
				return d
			}
		}
		t.Fatalf("no TL204: %v", findings(res))
		return lint.Diagnostic{}
	}
	if d := tl204("r.yaml"); !strings.HasPrefix(d.Message, "evaluation_strategy is not set") || !strings.HasPrefix(d.Help, "set evaluation_strategy:") {
		t.Errorf("4.34: %q / %q", d.Message, d.Help)
	}
	if d := tl204("new/r.yaml"); !strings.HasPrefix(d.Message, "eval_strategy is not set") || !strings.HasPrefix(d.Help, "set eval_strategy:") {
		t.Errorf("4.46: %q / %q", d.Message, d.Help)
	}
}

// TestMarkedCaps: requirements that each carry an environment marker bound the package when
// every one of them has an upper bound or a pin (the loosest wins, whichever line applies);
// one open line, or an unmarked requirement of the package, leaves it unbounded.
func TestMarkedCaps(t *testing.T) {
	limo := "transformers>=4.41.2,<=4.45.2;python_version<'3.10'\ntransformers>=4.41.2,<=4.48.2,!=4.46.*,!=4.47.*,!=4.48.0;python_version>='3.10'\n"
	for _, c := range []struct {
		name, text string
		want       map[string]lint.Target
	}{
		{"requirements.txt", limo, map[string]lint.Target{"transformers": {Version: "4.48.2", Shown: "<=4.48.2", Source: "requirements.txt requires transformers<=4.48.2 under each of its environment markers"}}},
		{"requirements.txt", "transformers==4.30.2; python_version<'3.8'\ntransformers<4.46 ; python_version>='3.8'\n", map[string]lint.Target{"transformers": {Version: "4.45.999999", Shown: "<4.46", Source: "requirements.txt requires transformers<4.46 under each of its environment markers"}}},
		{"requirements.txt", "transformers==4.30.2; python_version<'3.8'\ntransformers==4.44.0; python_version>='3.8'\n", map[string]lint.Target{"transformers": {Version: "4.44.0", Shown: "<=4.44.0", Source: "requirements.txt requires transformers<=4.44.0 under each of its environment markers"}}},
		{"pyproject.toml", "dependencies = [\"transformers<=4.45.2; python_version<'3.10'\", \"transformers<=4.48.2; python_version>='3.10'\"]\n", map[string]lint.Target{"transformers": {Version: "4.48.2", Shown: "<=4.48.2", Source: "pyproject.toml requires transformers<=4.48.2 under each of its environment markers"}}},
		{"pyproject.toml", "dependencies = [\"transformers (<=4.45.2) ; python_version<'3.10'\", \"transformers (==4.48.2) ; python_version>='3.10'\"]\n", map[string]lint.Target{"transformers": {Version: "4.48.2", Shown: "<=4.48.2", Source: "pyproject.toml requires transformers<=4.48.2 under each of its environment markers"}}},
		// an open line, a compatible-release bound, or an unmarked requirement: no bound
		{"requirements.txt", "transformers>=4.40,<5 ; python_version < \"3.10\"\ntransformers>=5.0 ; python_version >= \"3.10\"\n", map[string]lint.Target{}},
		{"requirements.txt", "transformers~=4.41; python_version>='3.10'\n", map[string]lint.Target{}},
		{"requirements.txt", "transformers<4.46; sys_platform=='linux'\ntransformers>=4.40\n", map[string]lint.Target{}},
		{"requirements.txt", "# transformers<4.46; python_version<'3.10'\n", map[string]lint.Target{}},
		// one marked line (other environments unbounded), a marked URL (no bound), an
		// unmarked conda or quoted list item beside the marked ones
		{"requirements.txt", "transformers<4.46; python_version<'3.9'\n", map[string]lint.Target{}},
		{"requirements.txt", "transformers<=4.45.2; python_version<'3.10'\ntransformers @ git+https://github.com/huggingface/transformers ; python_version>='3.10'\n", map[string]lint.Target{}},
		{"environment.yml", "dependencies:\n  - pip:\n    - transformers<=4.45.2; python_version<'3.10'\n    - transformers<=4.48.2; python_version>='3.10'\n    - transformers>=4.46\n", map[string]lint.Target{}},
		{"environment.yml", "dependencies:\n  - pip:\n    - transformers<=4.45.2; python_version<'3.10'\n    - transformers<=4.48.2; python_version>='3.10'\n    - \"transformers>=4.46\"\n", map[string]lint.Target{}},
		{"pyproject.toml", "dependencies = [\"transformers (<=4.45.2) ; python_version<'3.10'\", \"transformers (<=4.48.2) ; python_version>='3.10'\", \"transformers (>=4.46)\"]\n", map[string]lint.Target{}},
	} {
		if got := markedCaps(c.name, c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q: got %+v, want %+v", c.name, c.text, got, c.want)
		}
	}
	// In a repository: the marked bounds are linted for when nothing unmarked bounds it.
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{"requirements.txt": limo})
	if got := folderPins(dir)["transformers"]; got.Version != "4.48.2" {
		t.Errorf("folderPins: transformers %+v, want 4.48.2", got)
	}
	// another file of the folder requiring it unmarked leaves it unbounded
	dir = t.TempDir()
	testfs.Write(t, dir, map[string]string{"requirements.txt": limo, "setup.py": "setup(install_requires=['transformers'])\n"})
	if got, ok := folderPins(dir)["transformers"]; ok {
		t.Errorf("folderPins with setup.py requiring transformers unmarked: %+v, want none", got)
	}
}

// TestParseGitPins: a tracked package installed from git is pinned by a release tag and
// otherwise installed at a version no table places (gitVersion), from a direct reference, a
// bare URL in a requirements file or a Dockerfile's pip install, named by #egg= or by the
// repository.
func TestParseGitPins(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       map[string]lint.Target
	}{
		{"setup.py", "_deps = [\n    \"transformers @ git+https://github.com/huggingface/transformers.git@336dc69d63d56f232a183a3e7f52790429b871ef\",\n]\n",
			map[string]lint.Target{"transformers": {Version: gitVersion, Source: "setup.py installs transformers from git (336dc69d63d5)"}}},
		{"requirements.txt", "git+https://github.com/huggingface/transformers@v4.49.0\ntorch\n",
			map[string]lint.Target{"transformers": {Version: "4.49.0", Source: "requirements.txt installs transformers v4.49.0 from git"}}},
		{"requirements.txt", "trl@git+https://github.com/huggingface/trl.git@019fc6dbaa03b888f9d5c1845f0f690da8ed310c#egg=trl[main]\n",
			map[string]lint.Target{"trl": {Version: gitVersion, Source: "requirements.txt installs trl from git (019fc6dbaa03)"}}},
		{"Dockerfile", "RUN pip install \\\n    git+https://github.com/huggingface/transformers.git \\\n    git+ssh://git@github.com/deepspeedai/DeepSpeed.git@v0.16.4\n",
			map[string]lint.Target{"transformers": {Version: gitVersion, Source: "Dockerfile installs transformers from git (the default branch)"},
				"deepspeed": {Version: "0.16.4", Source: "Dockerfile installs deepspeed v0.16.4 from git"}}},
		{"requirements.txt", "-e git+https://github.com/hiyouga/LLaMA-Factory.git@main#egg=llamafactory\n",
			map[string]lint.Target{"llamafactory": {Version: gitVersion, Source: "requirements.txt installs llamafactory from git (main)"}}},
		{"requirements.txt", "transformers @ git+https://github.com/huggingface/transformers@v4.49.0#egg=trl\n", // pip takes the name
			map[string]lint.Target{"transformers": {Version: "4.49.0", Source: "requirements.txt installs transformers v4.49.0 from git"}}},
		{"Dockerfile", "RUN pip install git+https://github.com/huggingface/transformers@v4.49.0&&echo ok\n",
			map[string]lint.Target{"transformers": {Version: "4.49.0", Source: "Dockerfile installs transformers v4.49.0 from git"}}},
		{"requirements.txt", "git+https://github.com/huggingface/transformers@v4.49.0-Gemma-3\n", // a release with models added
			map[string]lint.Target{"transformers": {Version: gitVersion, Source: "requirements.txt installs transformers from git (v4.49.0-Gemm)"}}},
		{"requirements.txt", "# git+https://github.com/huggingface/transformers\ngit+https://github.com/huggingface/peft\n", map[string]lint.Target{}},
		{"requirements.txt", "transformers @ git+https://github.com/huggingface/transformers ; python_version >= '3.10'\n", map[string]lint.Target{}}, // marked
		{"pyproject.toml", "[tool.poetry.dependencies]\ntransformers = { git = \"https://github.com/huggingface/transformers.git\", rev = \"336dc69d63d5\" }\n" +
			"[tool.uv.sources]\n\"trl\" = { git = \"https://github.com/huggingface/trl\", tag = \"v0.16.0\" }\n# deepspeed = { git = \"https://github.com/deepspeedai/DeepSpeed\" }\n",
			map[string]lint.Target{"transformers": {Version: gitVersion, Source: "pyproject.toml installs transformers from git (336dc69d63d5)"},
				"trl": {Version: "0.16.0", Source: "pyproject.toml installs trl v0.16.0 from git"}}},
	} {
		got := parseGitPins(c.name, c.text)
		if len(got) != len(c.want) {
			t.Errorf("%s %q: got %+v, want %+v", c.name, c.text, got, c.want)
			continue
		}
		for pkg, w := range c.want {
			if g := got[pkg]; g.Version != w.Version || g.Source != w.Source || g.Shown != w.Shown {
				t.Errorf("%s %q: %s got %+v, want %+v", c.name, c.text, pkg, g, w)
			}
		}
	}
}

// TestGitInstalledTransformersNoVersionClaims: R1-V's setup.py installs transformers from a
// commit, so its recipe is not told that keys are deprecated in transformers 5 or that an unset
// report_to reports nowhere (4.x reported to every integration). A release tag pins as
// `==` does.
func TestGitInstalledTransformersNoVersionClaims(t *testing.T) {
	const recipe = "output_dir: out\nper_device_train_batch_size: 4\nwarmup_ratio: 0.1\noverwrite_output_dir: true\neval_strategy: steps\neval_steps: 10\ndataloader_num_workers: 2\n"
	writeTree(t, map[string]string{
		".git/HEAD":            "ref: refs/heads/main\n",
		"sft.yaml":             recipe,
		"commit/setup.py":      "_deps = [\n    \"transformers @ git+https://github.com/huggingface/transformers.git@336dc69d63d56f232a183a3e7f52790429b871ef\",\n]\n",
		"commit/sft.yaml":      recipe,
		"tag/requirements.txt": "git+https://github.com/huggingface/transformers@v4.49.0\n",
		"tag/sft.yaml":         recipe,
	})
	_, res, _ := checkJSON(t, "sft.yaml", "commit/sft.yaml", "tag/sft.yaml")
	codes := func(file string) string {
		var out []string
		for _, d := range res.Diagnostics {
			if d.File == file {
				out = append(out, d.Code+" "+d.Severity.String())
			}
		}
		return strings.Join(out, ",")
	}
	// (No TL401: overwrite_output_dir, which 5.0 refuses, makes the file a 4.x one, whose
	// report_to default is every installed integration.)
	if got := codes("sft.yaml"); got != "TL005 warning,TL702 info,TL005 warning" {
		t.Errorf("newest: %s", got)
	}
	if got := codes("commit/sft.yaml"); got != "TL702 info" {
		t.Errorf("from a commit: %s: %v", got, findings(res))
	}
	var tagged []string
	for _, d := range res.Diagnostics {
		if d.File == "tag/sft.yaml" && d.Code == "TL005" {
			tagged = append(tagged, d.Severity.String()+" "+d.Message)
		}
	}
	if len(tagged) != 1 || !strings.Contains(tagged[0], "requirements.txt installs transformers v4.49.0 from git, where it still works") {
		t.Errorf("from a tag: %q", tagged)
	}
}

// TestPinsFromCondaFiles: a conda environment file under another name than environment.yml
// pins (caduceus_env.yml installs pytorch-lightning==1.8.6 with pip); a YAML file so named
// without a top-level dependencies list is no environment and is not read.
func TestPinsFromCondaFiles(t *testing.T) {
	root := writeTree(t, map[string]string{
		"caduceus_env.yml":     "name: caduceus_env\nchannels:\n  - pytorch\ndependencies:\n  - python=3.8\n  - pip:\n    - pytorch-lightning==1.8.6\n    - transformers==4.26.1\n",
		"configs/env.yaml":     "transformers==4.46.0\ntrl==0.12.0\n",
		"configs/sft.yaml":     "output_dir: out\n",
		"other/conda-gpu.yaml": "dependencies:\n  - pip:\n      - \"trl==0.19.1\"\n",
		"other/sft.yaml":       "output_dir: out\n",
	})
	o := withPins(lint.Options{}, filepath.Join(root, "configs", "sft.yaml"))
	if got := o.Targets["lightning"]; got.Version != "1.8.6" || got.Source != "caduceus_env.yml pins 1.8.6" {
		t.Errorf("lightning: %+v", got)
	}
	if got := o.Targets["transformers"]; got.Version != "4.26.1" {
		t.Errorf("transformers (configs/env.yaml is no environment): %+v", got)
	}
	if got := withPins(lint.Options{}, filepath.Join(root, "other", "sft.yaml")).Targets["trl"]; got.Version != "0.19.1" || got.Source != "conda-gpu.yaml pins 0.19.1" {
		t.Errorf("trl: %+v", got)
	}
}

// TestPinsIgnoreToolTables: a linter's table in pyproject.toml naming the package (R1-Onevision's
// [tool.ruff.lint.isort] known-third-party) requires nothing, so the folder's marked bounds
// still bound it; Poetry's table does require it.
func TestPinsIgnoreToolTables(t *testing.T) {
	reqs := "transformers>=4.41.2,<=4.49.0,!=4.46.*;python_version<'3.10'\ntransformers>=4.41.2,<=4.49.0,!=4.48.0;python_version>='3.10'\n"
	root := writeTree(t, map[string]string{
		"a/requirements.txt": reqs,
		"a/pyproject.toml":   "[project]\nname = \"x\"\n[tool.ruff.lint.isort]\nknown-third-party = [\n  \"transformers\",\n  [\"nested\"],\n  \"peft\",\n]\n[tool.mypy]\nplugins = [\"transformers\"]\n",
		"b/requirements.txt": reqs,
		"b/pyproject.toml":   "[tool.poetry.dependencies]\ntransformers = \"*\"\n",
		// a table header with a comment ends the linter's table; an installer's table pins
		"c/pyproject.toml": "[tool.ruff]\nline-length = 100\n[project] # main\ndependencies = [\"transformers==4.46.0\"]\n",
		"d/pyproject.toml": "[tool.ruff.lint.isort]\nknown-third-party = [\"x\"]\n[tool.hatch.envs.default]\ndependencies = [\"transformers==4.46.0\"]\n",
		// a locked development build (a git install) is no version
		"e/uv.lock": "[[package]]\nname = \"transformers\"\nversion = \"4.50.0.dev0\"\n",
	})
	for _, c := range []struct{ dir, version string }{{"c", "4.46.0"}, {"d", "4.46.0"}, {"e", gitVersion}} {
		if got := withPins(lint.Options{}, filepath.Join(root, c.dir, "sft.yaml")).Targets["transformers"]; got.Version != c.version {
			t.Errorf("%s: %+v, want %s", c.dir, got, c.version)
		}
	}
	if got := withPins(lint.Options{}, filepath.Join(root, "a", "sft.yaml")).Targets["transformers"]; got.Shown != "<=4.49.0" {
		t.Errorf("a linter's table: %+v", got)
	}
	if got, ok := withPins(lint.Options{}, filepath.Join(root, "b", "sft.yaml")).Targets["transformers"]; ok {
		t.Errorf("Poetry's table requires it unbounded: %+v", got)
	}
}

// TestPinsFromVendoredLF07: LLaMA-Factory 0.7.x writes VERSION in src/llamafactory/cli.py
// (0.8 on, in extras/env.py): a repository carrying such a copy (llm-cybersecurity's
// 0.7.2.dev0) is linted for that version.
func TestPinsFromVendoredLF07(t *testing.T) {
	forgetRepo()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src", "llamafactory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "llamafactory", "cli.py"), []byte("import sys\n\nVERSION = \"0.7.2.dev0\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := withPins(lint.Options{}, filepath.Join(root, "sft.yaml"))
	if got := o.Targets["llamafactory"]; got.Version != "0.7.2.dev0" || !strings.Contains(got.Source, "src/llamafactory/cli.py") {
		t.Errorf("llamafactory target %+v", got)
	}
}

// TestPinsFromVendoredLLMTuner: before 0.8.0 LLaMA-Factory's package was llmtuner, its version
// in src/llmtuner/__init__.py (0.7.0 and before, and Tongyaya's Hbb_bakery at 0.7.1.dev0) or
// src/llmtuner/cli.py (0.7.1). Such a copy is linted for its own version, older than every
// release the table read: dpo_ftx, which 0.7.1 defines and 0.9.5 refuses, is not reported.
func TestPinsFromVendoredLLMTuner(t *testing.T) {
	for file, text := range map[string]string{
		"__init__.py": "__version__ = \"0.7.1.dev0\"\n",
		"cli.py":      "import sys\n\nVERSION = \"0.7.1\"\n",
	} {
		forgetRepo()
		root := t.TempDir()
		testfs.Write(t, root, map[string]string{
			"src/llmtuner/" + file: text,
			"examples/dpo.yaml":    "model_name_or_path: m\nstage: dpo\ndo_train: true\nfinetuning_type: lora\ndataset: dpo_mix_en\ntemplate: llama3\ndpo_ftx: 1.0\noutput_dir: saves/x\n",
		})
		want := strings.Trim(strings.SplitN(text, "\"", 2)[1], "\"\n")
		o := withPins(lint.Options{}, filepath.Join(root, "examples", "dpo.yaml"))
		if got := o.Targets["llamafactory"]; got.Version != want || got.Source != "src/llmtuner/"+file+" says "+want || !got.Vendored {
			t.Errorf("%s: llamafactory target %+v", file, got)
		}
		_, out, _ := cli(t, nil, "check", "--select", "TL003", filepath.Join(root, "examples", "dpo.yaml"))
		if strings.Contains(out, "dpo_ftx") {
			t.Errorf("%s: dpo_ftx reported against another version:\n%s", file, out)
		}
	}
}

// TestPinsFromVendoredLLMFoundry: a repository that is llm-foundry itself, or a fork of it
// (superagi's at 0.4.0, __version__ in llmfoundry/__init__.py; _version.py from 0.10), is linted
// for its own version.
func TestPinsFromVendoredLLMFoundry(t *testing.T) {
	for file, text := range map[string]string{"__init__.py": "__version__ = '0.4.0'\n", "_version.py": "__version__ = '0.21.0'\n"} {
		forgetRepo()
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "llmfoundry"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "llmfoundry", file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		o := withPins(lint.Options{}, filepath.Join(root, "scripts", "train", "yamls", "mpt.yaml"))
		if got := o.Targets["llm-foundry"]; !strings.Contains(text, got.Version) || got.Version == "" || !strings.Contains(got.Source, "llmfoundry/"+file) {
			t.Errorf("%s: llm-foundry target %+v", file, got)
		}
	}
}

// A repository whose Python imports a Lightning module that 1.9.0 removed
// (pytorch_lightning.core.lightning) runs Lightning 1.8 or older: with no pin, its configs are
// read for Lightning <1.9, where auto_lr_find is still a Trainer argument (a note of its removal
// in 2.0, not a warning); a pin wins.
func TestLightningVersionFromImports(t *testing.T) {
	const cfg = "seed_everything: 1\ntrainer:\n  max_epochs: 3\n  auto_lr_find: true\nmodel:\n  class_path: m.Model\n"
	for _, tc := range []struct {
		files map[string]string
		want  bool // a warning on auto_lr_find
	}{
		{map[string]string{"model.py": "from pytorch_lightning.core.lightning import LightningModule\n"}, false},
		{map[string]string{"model.py": "from pytorch_lightning import LightningModule\n"}, true},
		{map[string]string{"pipe.py": "from pytorch_lightning.loggers import LightningLoggerBase\n"}, false},
		{map[string]string{"pipe.py": "from pytorch_lightning.loggers import (\n    CSVLogger,\n    LightningLoggerBase,\n)\n"}, false},
		{map[string]string{"pipe.py": "import pytorch_lightning.loggers.base\n"}, false},
		{map[string]string{"pipe.py": "from pytorch_lightning.loggers import Logger  # not LightningLoggerBase\n"}, true},
		{map[string]string{"pipe.py": "from pytorch_lightning.loggers import CSVLogger\nx = 'LightningLoggerBase'\n"}, true},
		{map[string]string{"model.py": "from pytorch_lightning.core.lightning import LightningModule\n", "requirements.txt": "lightning==2.1.0\n"}, true},
		// a shim that falls back to the new module, a docstring's example, or the new module
		// imported elsewhere: which release runs is not told
		{map[string]string{"cli.py": "try:\n    from pytorch_lightning.utilities.cli import LightningCLI\nexcept ImportError:\n    from pytorch_lightning.cli import LightningCLI\n"}, true},
		{map[string]string{"doc.py": "def f():\n    \"\"\"\n    from pytorch_lightning.utilities.cli import LightningCLI\n    \"\"\"\n"}, true},
		{map[string]string{"model.py": "from pytorch_lightning.core.lightning import LightningModule\n", "cli.py": "from lightning.pytorch.cli import LightningCLI\n"}, true},
	} {
		root := t.TempDir()
		files := map[string]string{".git/HEAD": "ref: refs/heads/main\n", "configs/run.yaml": cfg}
		for k, v := range tc.files {
			files[k] = v
		}
		testfs.Write(t, root, files)
		_, res, _ := checkJSON(t, "--select", "TL003,TL005", filepath.Join(root, "configs"))
		got := false
		for _, d := range res.Diagnostics {
			got = got || d.Severity == lint.Warning && strings.Contains(d.Message, "auto_lr_find")
		}
		if got != tc.want {
			t.Errorf("%v: a warning on auto_lr_find %v, want %v: %+v", tc.files, got, tc.want, res.Diagnostics)
		}
	}
}

// TestLightningBoundByTorch: kuielab/mdx-net pins torch==1.8.1 beside
// pytorch-lightning>=1.3.2, which installs Lightning 1.6.5 at the newest: its Hydra trainer group
// is not checked against the newest Trainer, and the arguments 2.0 removed still work there
// (deprecated-key's info); where they are gone the Trainer refuses them (unknown-key's). torch 2.0.1 installs 2.3.3, which has no enable_autolog_hparams
// (2.6.0); a lower bound on torch bounds nothing, and a Lightning pin says what runs.
func TestLightningBoundByTorch(t *testing.T) {
	const group = "_target_: pytorch_lightning.Trainer\ngpus: 4\nauto_lr_find: false\nmax_epochs: 3\namp_backend: native\n"
	const works = "TL005/info:gpus TL005/info:auto_lr_find TL005/info:amp_backend"
	const gone = "TL003/warning:gpus TL003/warning:auto_lr_find TL003/warning:amp_backend"
	for _, tc := range []struct {
		reqs, key, want string // want: the findings' codes, severities and keys, space-separated
	}{
		{"torch==1.8.1\npytorch-lightning>=1.3.2\n", "", works},
		{"torch<1.9\npytorch-lightning\n", "", works},
		{"torch==2.0.1\npytorch-lightning\n", "enable_autolog_hparams: true\n", gone + " TL003/warning:enable_autolog_hparams"},
		{"torch==2.6.0\npytorch-lightning\n", "enable_autolog_hparams: true\n", gone},
		{"torch>=1.8\npytorch-lightning>=1.3.2\n", "", gone},
		{"torch==1.8.1\npytorch-lightning==2.1.0\n", "", gone},
	} {
		root := t.TempDir()
		testfs.Write(t, root, map[string]string{
			".git/HEAD":                    "ref: refs/heads/main\n",
			"requirements.txt":             tc.reqs,
			"configs/config.yaml":          "defaults:\n  - trainer: minimal\n",
			"configs/trainer/minimal.yaml": group + tc.key,
		})
		_, res, _ := checkJSON(t, "--select", "TL003,TL005", filepath.Join(root, "configs"))
		var got []string
		for _, d := range res.Diagnostics {
			key, _, _ := strings.Cut(strings.TrimPrefix(d.Message, "\""), "\"")
			got = append(got, d.Code+"/"+d.Severity.String()+":"+key)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%q: findings on %v, want %q", tc.reqs, got, tc.want)
		}
	}
	if k := dialect.KnowledgeOf("lightning"); lightningTorchFloors[len(lightningTorchFloors)-1].newest != k.Newest() {
		t.Errorf("lightningTorchFloors ends at %s, the table at %s: read the floors of the releases since",
			lightningTorchFloors[len(lightningTorchFloors)-1].newest, k.Newest())
	}
}

// TestTransformersBoundByHub: the alignment-handbook forks (wsklee's, xiyang-aads-lilly's)
// cap huggingface-hub<1.0 in setup.py beside transformers>=4.39.3: every transformers 5
// requires huggingface-hub>=1.0, so pip installs 4.57.6 at the newest, where warmup_ratio is no
// deprecated key, overwrite_output_dir still works and report_to's default reports to every
// installed integration. A lower cap bounds an older release; a transformers pin, or a tighter
// bound of transformers itself, says what runs; a cap 5.x allows bounds nothing.
func TestTransformersBoundByHub(t *testing.T) {
	writeTree(t, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"setup.py":  "_deps = [\n    \"huggingface-hub>=0.19.2,<1.0\",\n    \"tensorboard\",\n    \"transformers>=4.39.3\",\n    \"trl>=0.9.6\",\n]\nsetup(name=\"alignment-handbook\", install_requires=_deps)\n",
		"recipes/dpo/config_full.yaml": "model_name_or_path: m\nbf16: true\nbeta: 0.01\nlearning_rate: 5.0e-7\noutput_dir: out\noverwrite_output_dir: true\n" +
			"per_device_train_batch_size: 8\nwarmup_ratio: 0.1\n",
	})
	_, res, _ := checkJSON(t, "--select", "TL005,TL401", "recipes/dpo/config_full.yaml")
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Code+" "+d.Severity.String()+" "+d.Message)
	}
	want := `TL005 info "overwrite_output_dir" is removed in transformers 5.0; setup.py requires huggingface-hub<1.0, so transformers 4.57.6 at most, where it still works`
	if len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("findings %q, want one: %s...", got, want)
	}

	for _, tc := range []struct {
		reqs string
		want lint.Target // transformers'; none for a zero Version
	}{
		{"huggingface-hub<1.0\ntransformers>=4.39.3\n", lint.Target{Version: "4.57.6", Source: "requirements.txt requires huggingface-hub<1.0, so transformers 4.57.6 at most"}},
		{"huggingface_hub==0.28.1\n", lint.Target{Version: "4.50.3", Source: "requirements.txt pins huggingface-hub 0.28.1, so transformers 4.50.3 at most"}},
		{"huggingface-hub>=0.30,<0.34\n", lint.Target{Version: "4.53.3", Source: "requirements.txt requires huggingface-hub<0.34, so transformers 4.53.3 at most"}},
		{"huggingface-hub==0.22.2\n", lint.Target{Version: "4.40.999999", Shown: "<4.41", Source: "requirements.txt pins huggingface-hub 0.22.2, so transformers <4.41"}},
		{"huggingface-hub==0.34.0\ntransformers<4.46\n", lint.Target{Version: "4.45.999999", Shown: "<4.46", Source: "requirements.txt requires transformers<4.46"}},
		{"huggingface-hub<0.30\ntransformers<5\n", lint.Target{Version: "4.50.3", Source: "requirements.txt requires huggingface-hub<0.30, so transformers 4.50.3 at most"}},
		{"huggingface-hub<1.0\ntransformers==4.46.0\n", lint.Target{Version: "4.46.0", Source: "requirements.txt pins 4.46.0"}},
		// what 5.x allows, a floor, or a compatible release up to 1.0: no bound
		{"huggingface-hub<1.4\n", lint.Target{}},
		{"huggingface-hub==1.2.0\n", lint.Target{}},
		{"huggingface-hub>=0.30\n", lint.Target{}},
		{"huggingface-hub~=0.28\n", lint.Target{}},
		// a PEP 508 specifier in parentheses (Ice-Moon-28/Mini-R1's pyproject.toml)
		{"huggingface-hub (>=0.28.1,<0.29.0)\n", lint.Target{Version: "4.50.3", Source: "requirements.txt requires huggingface-hub<0.29.0, so transformers 4.50.3 at most"}},
	} {
		root := t.TempDir()
		testfs.Write(t, root, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "requirements.txt": tc.reqs})
		file := filepath.Join(root, "sft.yaml")
		got, ok := withFloorBounds(withPins(lint.Options{}, file), file).Targets["transformers"]
		if ok != (tc.want.Version != "") || got.Version != tc.want.Version || got.Shown != tc.want.Shown || got.Source != tc.want.Source {
			t.Errorf("%q: transformers %+v (%v), want %+v", tc.reqs, got, ok, tc.want)
		}
	}
	// The last floor below 1.0 holds to the newest 4.x release the knowledge table read.
	k := dialect.KnowledgeOf("transformers")
	last := dialect.ParseVersion("4.57.6")
	for _, tag := range k.Tags {
		v := dialect.ParseVersion(tag)
		if dialect.CompareVersions(v, last) > 0 && dialect.CompareVersions(v, []int{5}) < 0 {
			t.Errorf("the knowledge table reads %s, after 4.57.6: read its huggingface-hub floor", tag)
		}
	}
	if !slices.Contains(k.Tags, "v4.57.6") {
		t.Errorf("the knowledge table no longer reads 4.57.6, the newest release below huggingface-hub 1.0")
	}
}

// TestPinsFromTorchtuneCheckout: a repository that is torchtune itself (janhq's fork: a
// torchtune/ package whose __init__.py says __version__ = "" and version.txt 0.5.0 at the root)
// is linted for that release, whose recipes never validate: TL204 has no advice for its configs.
// A version.txt without the package is no torchtune's.
func TestPinsFromTorchtuneCheckout(t *testing.T) {
	cfg := "# Config for multi-device full finetuning in full_finetune_distributed.py\n" +
		"#   tune run --nproc_per_node 4 full_finetune_distributed --config llama3_1/8B_full\n" +
		"model:\n  _component_: torchtune.models.llama3_1.llama3_1_8b\nbatch_size: 2\nepochs: 1\nmax_steps_per_epoch: null\ngradient_accumulation_steps: 1\n" +
		"checkpointer:\n  _component_: torchtune.training.FullModelHFCheckpointer\n  checkpoint_files: [model-00001-of-00004.safetensors]\n"
	for _, c := range []struct {
		pkg  bool
		want string // the torchtune target's version
	}{{true, "0.5.0"}, {false, ""}} {
		forgetRepo()
		files := map[string]string{"version.txt": "0.5.0\n", "recipes/configs/llama3_1/8B_full.yaml": cfg}
		if c.pkg {
			files["torchtune/__init__.py"] = "__version__ = \"\"\n"
		}
		root := writeTree(t, files)
		file := filepath.Join(root, "recipes", "configs", "llama3_1", "8B_full.yaml")
		got := withPins(lint.Options{}, file).Targets["torchtune"]
		if got.Version != c.want || c.want != "" && (got.Source != "version.txt says 0.5.0" || !got.Vendored) {
			t.Errorf("package %v: torchtune target %+v, want %q", c.pkg, got, c.want)
		}
		_, out, _ := cli(t, nil, "check", "--select", "TL204", file)
		if fires := strings.Contains(out, "TL204"); fires != (c.want == "") {
			t.Errorf("package %v: TL204 reported %v:\n%s", c.pkg, fires, out)
		}
	}
}

// TestPinsGinFork: a repository whose pin files install HorizonRobotics' fork of gin-config
// (ALF's setup.py) has its gin files read in the fork's grammar, so `@AdamTF(lr=3e-4)` is no
// parse error there; upstream gin-config, from PyPI or from git, and a commented-out install
// leave upstream's grammar, which refuses it.
func TestPinsGinFork(t *testing.T) {
	for _, c := range []struct {
		file, text string
		fork       bool
	}{
		{"setup.py", "setup(name='alf', install_requires=['gin-config@git+https://github.com/HorizonRobotics/gin-config.git'])\n", true},
		{"requirements.txt", "git+https://github.com/HorizonRobotics/gin-config@c8a2c66#egg=gin-config\n", true},
		{"requirements.txt", "# git+https://github.com/HorizonRobotics/gin-config.git\ngin-config==0.5.0\n", false},
		{"setup.py", "setup(install_requires=['gin-config@git+https://github.com/google/gin-config.git'])\n", false},
		{"requirements.txt", "gin-config\n", false},
	} {
		root := t.TempDir()
		sub := filepath.Join(root, "alf", "examples")
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, c.file), []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		gin := filepath.Join(sub, "sac.gin")
		if err := os.WriteFile(gin, []byte("SacAlgorithm.actor_optimizer=@AdamTF(lr=3e-4)\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		o := withPins(lint.Options{}, gin)
		if o.GinFork != c.fork {
			t.Errorf("%s %q: GinFork %v, want %v", c.file, c.text, o.GinFork, c.fork)
		}
		res := lint.Lint([]lint.File{{Path: gin, Text: []byte("SacAlgorithm.actor_optimizer=@AdamTF(lr=3e-4)\n")}}, allRules(), o)
		parseErrors := 0
		for _, d := range res.Diagnostics {
			if d.Code == "TL001" {
				parseErrors++
			}
		}
		if want := map[bool]int{true: 0, false: 1}[c.fork]; parseErrors != want {
			t.Errorf("%s %q: %d parse errors, want %d: %+v", c.file, c.text, parseErrors, want, res.Diagnostics)
		}
	}
}

// TestHydraPinComposesAsHydra10: a hydra-core pin below 1.1 (requirements.txt or a conda
// environment's pip list) composes the repository's configs as Hydra 1.0 does, which merges a
// group's repeated defaults entries in turn (zhejz/carla-roach); 1.1 and later refuse them.
func TestHydraPinComposesAsHydra10(t *testing.T) {
	files := map[string]string{
		"setup.py":            "",
		"config/main.yaml":    "defaults:\n  - agent: x\n  - agent: y\n",
		"config/agent/x.yaml": "# @package _group_\nroaming:\n  speed: 1\n",
		"config/agent/y.yaml": "# @package _group_\nppo:\n  lr: 0.1\n",
	}
	for pins, refused := range map[string]bool{
		"requirements.txt:hydra-core==1.0.3":                                 false,
		"environment.yml:dependencies:\n  - pip:\n    - hydra-core==1.0.3\n": false,
		"requirements.txt:hydra-core<1.1":                                    false,
		"requirements.txt:hydra-core==1.3.2":                                 true,
		"requirements.txt:hydra-core>=1.0":                                   true,
	} {
		name, text, _ := strings.Cut(pins, ":")
		m := map[string]string{name: text + "\n"}
		for k, v := range files {
			m[k] = v
		}
		out := lintInRepo(t, m, "config/main.yaml", "TL011")
		if got := strings.Contains(out, "Multiple values for agent."); got != refused {
			t.Errorf("%s: refused %v, want %v:\n%s", pins, got, refused, out)
		}
	}
}
