//go:build !trainlint_lite

package compose

import (
	"os"
	"sort"
	"strings"
	"testing"
)

// Hydra's own verdicts on the searchpath tree are in TestComposeTreesLikeHydra; these tests
// hold what the oracle cannot see: problems, Partial, Mandatory and discovery.

func TestSearchPathProblems(t *testing.T) {
	tree := FromFS(os.DirFS("testdata/hydra-trees"))
	for _, tc := range []struct {
		primary   string
		overrides []string
		unknown   string // the packages not known, joined
		problem   string // a problem's text ("" for none)
	}{
		{"searchpath/app/conf/config.yaml", nil, "", ""},
		{"searchpath/fileapp/config.yaml", []string{"worker=ray"}, "", ""},
		// Hydra refuses model=huge (MissingConfigException): no folder read holds it and every
		// entry was read, so it is reported missing, not left open.
		{"searchpath/app/conf/config.yaml", []string{"model=huge"}, "model", `option "huge" of group "model" not found`},
		{"searchpath/badsp/config.yaml", nil, "", "searchpath/badsp/config.yaml:2 hydra.searchpath must be a list of strings"},
		// A package outside the tree may hold model/small: not reported missing, its keys not known.
		{"searchpath/openapp/config.yaml", nil, "model", `searchpath/openapp/config.yaml:3 hydra.searchpath entry "pkg://no_such_package.conf" names no folder of this tree, and Hydra may find "model/small" there`},
	} {
		r := Compose(tree, tc.primary, tc.overrides, Limits{})
		got := problems(r)
		if r.Partial || strings.Join(r.Unknown, " ") != tc.unknown || tc.problem == "" && got != "" || !strings.Contains(got, tc.problem) {
			t.Errorf("%s %v: Partial %v, Unknown %q, problems:\n%s\nwant Unknown %q and %q", tc.primary, tc.overrides, r.Partial, r.Unknown, got, tc.unknown, tc.problem)
		}
	}
	// The command line's list replaces the file's and is not read: common.yaml, merged at the
	// root, may be there, so the run is Partial.
	r := Compose(tree, "searchpath/app/conf/config.yaml", []string{"hydra.searchpath=[pkg://other]"}, Limits{})
	if !r.Partial || !strings.Contains(problems(r), `config "common" was not found in the folders read, and the command line's hydra.searchpath ("hydra.searchpath=[pkg://other]") is not read`) ||
		strings.Count(problems(r), "is not read") != 1 {
		t.Errorf("command-line search path: Partial %v, problems (the search path named once):\n%s", r.Partial, problems(r))
	}
	// The config directory wins over the search path (db/mysql.yaml is in both), and options
	// only the search path has are read from it.
	r = Compose(tree, "searchpath/app/conf/config.yaml", []string{"worker=ray"}, Limits{})
	if got := r.Doc.Root.At("db.from"); got == nil || got.Value != "app" {
		t.Errorf("db.from = %v, want the config directory's", got)
	}
	if got := r.Doc.Root.At("worker.workers"); got == nil || got.Value != "8" {
		t.Errorf("worker.workers = %v, want ray's 8 from the search path", got)
	}
	if o := r.Origin(r.Doc.Root.At("worker.workers")); o.File != "searchpath/lib/conf/worker/ray.yaml" {
		t.Errorf("worker.workers set by %q", o.File)
	}
}

// TestSearchPathFromTheEnvironment: an entry that interpolates (RLinf's
// file://${oc.env:REPO_PATH}/examples/embodiment/config/) is not said to name no folder of the
// tree: which folder it is, the launch's environment says. What it may hold stays unknown.
func TestSearchPathFromTheEnvironment(t *testing.T) {
	m := map[string]string{
		"conf/run.yaml": "defaults:\n  - hybrid_engines: fsdp\n  - _self_\nhydra:\n  searchpath:\n    - file://${oc.env:REPO_PATH}/examples/config/\nx: 1\n",
	}
	r := Compose(mapFS(m), "conf/run.yaml", nil, Limits{})
	got := problems(r)
	if !strings.Contains(got, `hydra.searchpath entry "file://${oc.env:REPO_PATH}/examples/config/" is a folder the launch's environment or config names, and Hydra may find "hybrid_engines/fsdp" there`) ||
		strings.Contains(got, "names no folder") || strings.Join(r.Unknown, " ") != "hybrid_engines" {
		t.Errorf("problems:\n%s\nUnknown %q", got, r.Unknown)
	}
}

func TestSearchPathOpenGroupOverride(t *testing.T) {
	// A group override for a group no folder read has may be for a group of the unread entry:
	// not refused as a value override for a key the run lacks.
	fs := mapFS(map[string]string{
		"conf/config.yaml": "hydra:\n  searchpath: [pkg://elsewhere.conf]\ndefaults:\n  - _self_\nx: 1\n",
	})
	r := Compose(fs, "conf/config.yaml", []string{"agent=mlp"}, Limits{})
	if !r.Partial || strings.Contains(problems(r), "stops") {
		t.Errorf("Partial %v, problems %s", r.Partial, problems(r))
	}
	// An optional option found in no folder read, under a package of its own (NeMo launcher's
	// base configs: `optional tp_overlap@model.ub_tp_comm_overlap_cfg: ...` with an absolute
	// file:// search path): only that package is not known.
	fs = mapFS(map[string]string{
		"conf/config.yaml": "defaults:\n  - _self_\n  - optional tp@model.ub: h100\nhydra:\n  searchpath:\n    - file:///opt/NeMo/conf\nmodel:\n  layers: 2\n",
	})
	r = Compose(fs, "conf/config.yaml", nil, Limits{})
	if r.Partial || strings.Join(r.Unknown, " ") != "model.ub" || r.Doc.Root.At("model.layers") == nil {
		t.Errorf("optional under an open search path: Partial %v, Unknown %q, problems %s", r.Partial, r.Unknown, problems(r))
	}
	// A key the primary sets is overridden as a value, search path or not.
	r = Compose(mapFS(map[string]string{
		"conf/config.yaml": "hydra:\n  searchpath: [pkg://elsewhere.conf]\ndefaults:\n  - _self_\nx: 1\n",
	}), "conf/config.yaml", []string{"x=5"}, Limits{})
	if r.Partial || r.Doc.Root.At("x").Value != "5" {
		t.Errorf("x=5: Partial %v, x %v", r.Partial, r.Doc.Root.At("x"))
	}
	// Hydra's own settings are its config's, which the tree leaves out: not refused (Hydra
	// 1.3.2 accepts hydra.searchpath=[...] and hydra.run.dir=... on the command line).
	r = Compose(mapFS(map[string]string{"conf/config.yaml": "x: 1\n"}), "conf/config.yaml", []string{"hydra.run.dir=/out", "hydra.searchpath=[pkg://foo.conf]"}, Limits{})
	if hasKind(r, Refused) {
		t.Errorf("hydra.* overrides refused: %s", problems(r))
	}
	// Without a search path the same override is refused, as Hydra refuses it.
	fs = mapFS(map[string]string{"conf/config.yaml": "defaults:\n  - _self_\nx: 1\n"})
	if r := Compose(fs, "conf/config.yaml", []string{"agent=mlp"}, Limits{}); r.Partial || !hasKind(r, Refused) {
		t.Errorf("no search path: Partial %v, problems %s", r.Partial, problems(r))
	}
}

func hasKind(r *Run, k ProblemKind) bool {
	for _, p := range r.Problems {
		if p.Kind == k {
			return true
		}
	}
	return false
}

func TestSearchPathMandatory(t *testing.T) {
	fs := mapFS(map[string]string{
		"conf/config.yaml":      "defaults:\n  - split: ???\n  - world: ???\n  - _self_\npath: ${split.name}\n",
		"conf/split/train.yaml": "name: train\n",
		"conf/world/big.yaml":   "# @package _global_\nsize: 3\n",
	})
	r := Compose(fs, "conf/config.yaml", nil, Limits{})
	if len(r.Unknown) != 1 || r.Unknown[0] != "split" || !r.Partial {
		t.Errorf("Mandatory %q Partial %v: want [split] and Partial (world's options write at the root)", r.Unknown, r.Partial)
	}
	r = Compose(fs, "conf/config.yaml", []string{"world=big"}, Limits{})
	if len(r.Unknown) != 1 || r.Partial {
		t.Errorf("world chosen: Mandatory %q Partial %v", r.Unknown, r.Partial)
	}
	r = Compose(fs, "conf/config.yaml", []string{"world=big", "split=train"}, Limits{})
	if len(r.Unknown) != 0 || r.Doc.Root.At("split.name") == nil {
		t.Errorf("both chosen: Mandatory %q", r.Unknown)
	}
}

func TestDiscoverSearchPath(t *testing.T) {
	tree := FromFS(os.DirFS("testdata/hydra-trees"))
	files := []string{
		"searchpath/app/conf/config.yaml", "searchpath/app/conf/db/mysql.yaml",
		"searchpath/lib/conf/common.yaml", "searchpath/lib/conf/db/mysql.yaml", "searchpath/lib/conf/worker/ray.yaml",
		"searchpath/openapp/config.yaml",
	}
	runs, frags := Discover(tree, files)
	var primaries []string
	for _, r := range runs {
		primaries = append(primaries, r.Primary)
	}
	if got := strings.Join(primaries, " "); got != "searchpath/app/conf/config.yaml searchpath/openapp/config.yaml" {
		t.Errorf("runs %s: common.yaml (a config of app's search path, with a defaults list) is no run", got)
	}
	for _, f := range files[1:5] {
		if !frags[f] {
			t.Errorf("%s is not a fragment", f)
		}
	}
}

// TestDiscoverSearchPathKeepsOtherPrimaries: a primary that lies in another primary's search
// folder but is not read by it (tools/conf/config.yaml searches configs/, whose train.yaml it
// never names) stays a run of its own.
func TestDiscoverSearchPathKeepsOtherPrimaries(t *testing.T) {
	fs := mapFS(map[string]string{
		"configs/train.yaml":              "defaults:\n  - callbacks: default\n  - _self_\nseed: 1\n",
		"configs/callbacks/default.yaml":  "model_checkpoint:\n  monitor: val/loss\n",
		"tools/conf/config.yaml":          "hydra:\n  searchpath: [file://configs]\ndefaults:\n  - callbacks: default\n  - _self_\n",
		"tools/conf/callbacks/other.yaml": "x: 1\n",
	})
	runs, _ := Discover(fs, []string{"configs/train.yaml", "configs/callbacks/default.yaml", "tools/conf/config.yaml", "tools/conf/callbacks/other.yaml"})
	var got []string
	for _, r := range runs {
		got = append(got, r.Primary)
	}
	if strings.Join(got, " ") != "configs/train.yaml tools/conf/config.yaml" {
		t.Errorf("runs %q", got)
	}
}

// TestSearchDirModules: a pkg:// entry names a module Python imports (Hydra turns / into . and
// drops trailing dots); "." and ".." name none, so they resolve to no folder.
func TestSearchDirModules(t *testing.T) {
	tree := FromFS(os.DirFS("testdata/hydra-trees"))
	for entry, want := range map[string]string{
		"pkg://searchpath.lib.conf":  "searchpath/lib/conf",
		"pkg://searchpath/lib/conf/": "searchpath/lib/conf",
		"pkg://.":                    "",
		"pkg://..":                   "",
		"pkg://searchpath..lib":      "",
		"file://searchpath/lib/conf": "searchpath/lib/conf",
		"file:///etc":                "",
		"structured://x":             "",
	} {
		got, ok := searchDir(tree, entry, "searchpath/app/conf/config.yaml")
		if got != want || ok != (want != "") {
			t.Errorf("%s: %q %v, want %q", entry, got, ok, want)
		}
	}
}

// TestDiscoverSearchFolderHoldingPrimary: Stoix's cfg/default/main.yaml searches cfg/, the
// folder that holds it. The configs of the groups it chooses there are its options, composed in
// its runs (env=kin/small, whose `kin/train: s` Hydra resolves against the group env: see the
// relgroup tree in TestComposeTreesLikeHydra), not primaries of their own, whose relative
// groups would be read against their file's folder (env/kin/kin/train). Other configs of the
// folder stay runs.
func TestDiscoverSearchFolderHoldingPrimary(t *testing.T) {
	m := map[string]string{
		"cfg/default/main.yaml":     "defaults:\n  - env: gym/cartpole\n  - _self_\nhydra:\n  searchpath:\n    - file://cfg\n",
		"cfg/env/gym/cartpole.yaml": "env_name: cartpole\n",
		"cfg/env/kin/small.yaml":    "defaults:\n  - kin/train: s\n  - _self_\nenv_name: kin\n",
		"cfg/env/kin/train/s.yaml":  "levels: [a, b]\n",
		"cfg/eval/main.yaml":        "defaults:\n  - net: big\n  - _self_\n",
		"cfg/eval/net/big.yaml":     "width: 2\n",
	}
	var files []string
	for f := range m {
		files = append(files, f)
	}
	sort.Strings(files)
	runs, frags := Discover(mapFS(m), files)
	var got []string
	for _, r := range runs {
		got = append(got, r.Primary)
	}
	if strings.Join(got, " ") != "cfg/default/main.yaml cfg/eval/main.yaml" {
		t.Errorf("runs %v, want cfg/default/main.yaml and cfg/eval/main.yaml", got)
	}
	for _, f := range []string{"cfg/env/gym/cartpole.yaml", "cfg/env/kin/small.yaml", "cfg/env/kin/train/s.yaml", "cfg/eval/net/big.yaml"} {
		if !frags[f] {
			t.Errorf("%s is no fragment (fragments %v)", f, frags)
		}
	}
	if frags["cfg/eval/main.yaml"] {
		t.Errorf("cfg/eval/main.yaml is a fragment")
	}
	r := Compose(mapFS(m), "cfg/default/main.yaml", []string{"env=kin/small"}, Limits{})
	if p := problems(r); p != "" || r.Doc.Root.At("env.kin.train.levels") == nil {
		t.Errorf("env=kin/small: problems %s", p)
	}
}

// TestComposeConfigDir: a primary outside the folder the scripts name as config_path
// (Cache.MainDir) is run with --config-dir, so its options are read from that folder too, and
// from it first (naver/splade's main_config/<exp>/*.yaml, their groups in conf/); an option in
// neither folder is still missing. The folder is not read for a primary inside it, nor for one
// it has a namesake of (--config-name would load that one).
func TestComposeConfigDir(t *testing.T) {
	fs := mapFS(map[string]string{
		"conf/config.yaml":                     "defaults:\n  - index: gone\n",
		"conf/train/model/splade.yaml":         "hidden: 768\n",
		"conf/index/msmarco.yaml":              "dir: msmarco\n",
		"conf/shadowed.yaml":                   "x: 1\n",
		"main_config/two/splade_default.yaml":  "defaults:\n  - train/model: splade\n  - index: msmarco\n  - flops: nowhere\n",
		"main_config/both/splade_default.yaml": "defaults:\n  - train/model: splade\n  - index: msmarco\n  - index@own: local\n",
		"main_config/both/index/msmarco.yaml":  "dir: both\n",
		"main_config/both/index/local.yaml":    "dir: local\n",
		"main_config/shadow/shadowed.yaml":     "defaults:\n  - train/model: splade\n",
		"splade/hf_train.py":                   "",
	})
	for _, tc := range []struct {
		primary, main string
		problems      string // the not-found groups, in order
		dir           string // index.dir's value and file
	}{
		{"main_config/two/splade_default.yaml", "conf", "flops", "msmarco conf/index/msmarco.yaml:1"},
		{"main_config/two/splade_default.yaml", "", "train/model index flops", "<absent> "},
		{"main_config/both/splade_default.yaml", "conf", "", "msmarco conf/index/msmarco.yaml:1"},
		{"main_config/both/splade_default.yaml", "", "train/model", "both main_config/both/index/msmarco.yaml:1"},
		{"conf/config.yaml", "conf", "index", "<absent> "},
		{"main_config/shadow/shadowed.yaml", "conf", "train/model", "<absent> "},
		{"main_config/two/splade_default.yaml", "splade", "train/model index flops", "<absent> "}, // no config there
	} {
		k := NewCache()
		k.MainDir = tc.main
		r := k.Compose(fs, tc.primary, nil, Limits{})
		var groups []string
		for _, p := range r.Problems {
			_, rest, _ := strings.Cut(p.Message, `of group "`)
			g, _, _ := strings.Cut(rest, `"`)
			groups = append(groups, g)
		}
		if got := strings.Join(groups, " "); got != tc.problems {
			t.Errorf("%s with MainDir %q: not found %q, want %q:\n%s", tc.primary, tc.main, got, tc.problems, problems(r))
		}
		if v, at := val(t, r, "index.dir"); v+" "+at != tc.dir {
			t.Errorf("%s with MainDir %q: index.dir = %s at %q, want %s", tc.primary, tc.main, v, at, tc.dir)
		}
		if tc.main == "conf" && tc.problems == "flops" {
			if v, at := val(t, r, "train.model.hidden"); v != "768" || at != "conf/train/model/splade.yaml:1" {
				t.Errorf("train.model.hidden = %s at %s, want 768 from conf/train/model/splade.yaml:1", v, at)
			}
		}
	}
}
