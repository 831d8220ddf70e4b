package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/cmd/trainlint/internal/lsp"
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/testfs"
)

// splade is naver/splade's shape: the scripts' config_path names conf/, which holds the groups,
// and the primaries in main_config/two/ are run with --config-dir=main_config/two. flops:
// nowhere is in neither folder.
func splade(script string, extra map[string]string) map[string]string {
	files := map[string]string{
		".git/HEAD":                           "ref: refs/heads/main\n",
		"splade/hf_train.py":                  script,
		"conf/train/model/splade.yaml":        "hidden: 768\n",
		"conf/index/msmarco.yaml":             "dir: msmarco\n",
		"main_config/two/splade_default.yaml": "defaults:\n  - train/model: splade\n  - index: msmarco\n  - flops: nowhere\n\nconfig:\n  out_dir: out\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	return files
}

const (
	literalMain  = "import hydra\n\n@hydra.main(config_path=\"../conf\", config_name=\"config_default\", version_base=\"1.2\")\ndef train(cfg):\n    print(cfg)\n"
	constantMain = "import hydra\nfrom conf.CONFIG_CHOICE import CONFIG_NAME, CONFIG_PATH\n\n\n@hydra.main(config_path=CONFIG_PATH, config_name=CONFIG_NAME, version_base=\"1.2\")\ndef train(cfg):\n    print(cfg)\n"
)

// TestHydraMainDir: the folder every @hydra.main of the repository names as config_path, from a
// literal or a module constant bound once to one; none when a decorator's folder is not known
// (a constant bound again when an environment variable is set, as SPLADE's CONFIG_CHOICE.py
// does; no config_path; NeMo's hydra_runner) or two scripts name different folders. A folder
// that does not exist launches nothing (Hydra stops) and does not count.
func TestHydraMainDir(t *testing.T) {
	const choice = "CONFIG_NAME = \"config_default\"\nCONFIG_PATH = \"../conf\"  # the groups\n"
	for _, tc := range []struct {
		name  string
		extra map[string]string
		main  string // the script
		want  string
	}{
		{"literal", nil, literalMain, "conf"},
		{"constant", map[string]string{"conf/CONFIG_CHOICE.py": choice}, constantMain, "conf"},
		{"constant in the script", nil, "import hydra\nCONFIG_PATH = '../conf'\n\n@hydra.main(config_path=CONFIG_PATH, config_name='c')\ndef train(cfg):\n    pass\n", "conf"},
		{"constant set again", map[string]string{"conf/CONFIG_CHOICE.py": choice + "import os\nif 'FULLPATH' in os.environ:\n    CONFIG_PATH, CONFIG_NAME = os.path.split(os.environ['FULLPATH'])\n"}, constantMain, ""},
		{"constant read again", map[string]string{"conf/CONFIG_CHOICE.py": choice}, constantMain + "print(CONFIG_PATH)\n", ""},
		{"constant of two modules", map[string]string{"conf/CONFIG_CHOICE.py": choice, "splade/conf/CONFIG_CHOICE.py": choice}, constantMain, ""},
		{"no config_path", nil, "import hydra\n\n@hydra.main(config_name='c')\ndef train(cfg):\n    pass\n", ""},
		{"expression", nil, "import hydra, os\n\n@hydra.main(config_path=os.path.join('..', 'conf'), config_name='c')\ndef train(cfg):\n    pass\n", ""},
		{"two folders", map[string]string{"eval.py": "import hydra\n@hydra.main(config_path='main_config', config_name='c')\ndef ev(cfg):\n    pass\n"}, literalMain, ""},
		{"same folder twice", map[string]string{"eval.py": "import hydra\n@hydra.main(config_path='conf', config_name='c')\ndef ev(cfg):\n    pass\n"}, literalMain, "conf"},
		{"a missing folder", map[string]string{"splade/utils/fig.py": "import hydra\n@hydra.main(config_path='../conf', config_name='c')\ndef fig(cfg):\n    pass\n"}, literalMain, "conf"},
		{"hydra_runner", map[string]string{"nemo.py": "from nemo.core.config import hydra_runner\n@hydra_runner(config_path='other', config_name='c')\ndef main(cfg):\n    pass\n"}, literalMain, ""},
		{"compose API", map[string]string{"nb.py": "from hydra import compose, initialize\nwith initialize(config_path='other'):\n    cfg = compose('c')\n"}, literalMain, ""},
		{"tests aside", map[string]string{"tests/test_x.py": "import hydra\n@hydra.main(config_path='other', config_name='c')\ndef t(cfg):\n    pass\n"}, literalMain, "conf"},
	} {
		root := t.TempDir()
		testfs.Write(t, root, splade(tc.main, tc.extra))
		if got := hydraMainDir(root); got != tc.want {
			t.Errorf("%s: hydraMainDir %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestHydraMainCandidates: a decorator's config_path constant bound to a literal and again from
// the environment (SPLADE's CONFIG_CHOICE.py) gives no folder for sure, but the literal's folder
// is a candidate, with the folders other decorators name; none when one folder is known or
// the constant has no literal binding. Through check (and the editor), the options only the
// candidate holds are not reported missing: train/model and index are in conf/, flops: nowhere
// in no folder.
func TestHydraMainCandidates(t *testing.T) {
	const choice = "CONFIG_NAME = \"config_default\"\nCONFIG_PATH = \"../conf\"  # the groups\nimport os\nif 'FULLPATH' in os.environ:\n    CONFIG_PATH, CONFIG_NAME = os.path.split(os.environ['FULLPATH'])\n"
	for _, tc := range []struct {
		name  string
		extra map[string]string
		main  string
		want  string
	}{
		{"constant set again", map[string]string{"conf/CONFIG_CHOICE.py": choice}, constantMain, "conf"},
		{"and another script's folder", map[string]string{"conf/CONFIG_CHOICE.py": choice, "eval.py": "import hydra\n@hydra.main(config_path='main_config', config_name='c')\ndef ev(cfg):\n    pass\n"}, constantMain, "conf main_config"},
		{"known folder", nil, literalMain, ""},
		{"no literal", map[string]string{"conf/CONFIG_CHOICE.py": "import os\nCONFIG_PATH = os.environ['P']\nCONFIG_NAME = 'c'\n"}, constantMain, ""},
		{"a literal naming no folder", map[string]string{"conf/CONFIG_CHOICE.py": strings.ReplaceAll(choice, "../conf", "../nowhere")}, constantMain, ""},
	} {
		root := t.TempDir()
		testfs.Write(t, root, splade(tc.main, tc.extra))
		if got := strings.Join(hydraMainCandidates(root), " "); got != tc.want {
			t.Errorf("%s: hydraMainCandidates %q, want %q", tc.name, got, tc.want)
		}
	}
	root := t.TempDir()
	testfs.Write(t, root, splade(constantMain, map[string]string{"conf/CONFIG_CHOICE.py": choice}))
	for _, arg := range []string{".", "main_config"} {
		_, res, _ := checkJSON(t, "--select", "TL006", filepath.Join(root, arg))
		var got []string
		for _, d := range res.Diagnostics {
			got = append(got, filepath.Base(d.File)+":"+itoa(d.Line)+" "+d.Message)
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], `splade_default.yaml:4 option "nowhere" of group "flops" not found`) {
			t.Errorf("check %s: TL006 %q, want flops' alone", arg, got)
		}
	}
	// A primary in a folder a decorator names for sure is run from there: an option only the
	// constant's folder holds is missing for it (train.py's configs/ beside a tool's ../conf).
	other := t.TempDir()
	testfs.Write(t, other, map[string]string{
		".git/HEAD":                "ref: refs/heads/main\n",
		"train.py":                 "import hydra\n@hydra.main(config_path=\"configs\", config_name=\"train\")\ndef m(cfg):\n    pass\n",
		"tools/export.py":          "import hydra, os\nCONFIG_PATH = \"../conf\"\nif 'P' in os.environ:\n    CONFIG_PATH = os.environ['P']\n@hydra.main(config_path=CONFIG_PATH, config_name=\"export\")\ndef e(cfg):\n    pass\n",
		"configs/train.yaml":       "defaults:\n  - model: resnet50\n  - _self_\nlr: 1\n",
		"configs/model/vit.yaml":   "w: 1\n",
		"conf/model/resnet50.yaml": "depth: 50\n",
	})
	if _, res, _ := checkJSON(t, "--select", "TL006", other); !strings.Contains(strings.Join(findings(res), " "), "train.yaml:2 TL006") {
		t.Errorf("a primary in a named folder: findings %v", findings(res))
	}
	runs := editorRuns(filepath.Join(root, "main_config", "two", "splade_default.yaml"), diskRead, "")
	if len(runs) != 1 || runs[0].MainDir != "" || strings.Join(runs[0].MainCandidates, " ") != "conf" {
		t.Fatalf("editor runs %+v, want one with conf a candidate", runs)
	}
	got := editorTL006(runs[0], lint.Options{HydraMainCandidates: runs[0].MainCandidates})
	if len(got) != 1 || !strings.Contains(got[0], `"nowhere"`) {
		t.Errorf("editor lint TL006 %q, want flops' alone", got)
	}
}

// TestCheckConfigDirPrimary: check finds splade_default.yaml's options in conf/ (only flops:
// nowhere is reported missing) whether the repository, the experiments' folder or the file
// alone (pre-commit) is checked, and reads the options' values from there.
func TestCheckConfigDirPrimary(t *testing.T) {
	root := t.TempDir()
	testfs.Write(t, root, splade(literalMain, nil))
	for _, arg := range []string{".", "main_config", "main_config/two/splade_default.yaml"} {
		_, res, _ := checkJSON(t, "--select", "TL006", filepath.Join(root, filepath.FromSlash(arg)))
		var got []string
		for _, d := range res.Diagnostics {
			got = append(got, filepath.Base(d.File)+":"+itoa(d.Line)+" "+d.Message)
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], `splade_default.yaml:4 option "nowhere" of group "flops" not found`) {
			t.Errorf("check %s: TL006 %q, want flops' alone", arg, got)
		}
	}
}

// TestEditorRunsConfigDir: the language server composes splade_default.yaml from the
// repository's root with conf/ read, as check does, and its lint reports only flops: nowhere.
func TestEditorRunsConfigDir(t *testing.T) {
	dir := writeTree(t, splade(literalMain, nil))
	primary := filepath.Join(dir, "main_config", "two", "splade_default.yaml")
	runs := editorRuns(primary, diskRead, "")
	if len(runs) != 1 || runs[0].Root != dir || runs[0].MainDir != "conf" ||
		!strings.Contains(strings.Join(runs[0].Files, " "), filepath.Join(dir, "conf", "index", "msmarco.yaml")) {
		t.Fatalf("runs %+v, want one from the root reading conf/index/msmarco.yaml", runs)
	}
	got := editorTL006(runs[0], lint.Options{HydraMainDir: runs[0].MainDir})
	if len(got) != 1 || !strings.HasPrefix(got[0], `option "nowhere" of group "flops" not found`) {
		t.Errorf("TL006 %q, want flops' alone", got)
	}
}

// editorTL006 lints an editor run's files from disk as the language server does, with o, and
// gives its TL006 messages.
func editorTL006(run lsp.Run, o lint.Options) []string {
	var files []lint.File
	for _, p := range run.Files {
		b, _ := diskRead(p)
		files = append(files, lint.File{Path: p, Text: b})
	}
	res := lsp.LintRunAt(run.Root, files, nil, allRules(), o)
	var got []string
	for _, d := range res.Diagnostics {
		if d.Code == "TL006" {
			got = append(got, d.Message)
		}
	}
	return got
}
