package compose

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trainlint/trainlint/lint/doc"
)

func mapFS(files map[string]string) FS {
	m := fstest.MapFS{}
	for k, v := range files {
		m[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return FromFS(m)
}

// val returns the composed value at a dotted path and the file:line that set it.
func val(t *testing.T, r *Run, dotted string) (string, string) {
	t.Helper()
	n := r.Doc.Root.At(dotted)
	if n == nil {
		return "<absent>", ""
	}
	o := r.Origin(n)
	where := o.File + ":" + itoa(n.Span.Start.Line)
	if o.Override != "" {
		where = "override " + o.Override
	}
	return n.Value, where
}

func expect(t *testing.T, r *Run, dotted, want, wantWhere string) {
	t.Helper()
	got, where := val(t, r, dotted)
	if got != want || where != wantWhere {
		t.Errorf("%s = %q from %s, want %q from %s", dotted, got, where, want, wantWhere)
	}
}

var tree = map[string]string{
	"conf/train.yaml": `# @package _global_
defaults:
  - _self_
  - trainer: default
  - callbacks: default
  - model@net: small
  - optional local: default
  - experiment: null
seed: 1
trainer:
  max_epochs: 99
`,
	"conf/trainer/default.yaml": "max_epochs: 10\ndevices: 1\naccelerator: cpu\n",
	"conf/trainer/ddp.yaml":     "defaults:\n  - default\ndevices: 4\nstrategy: ddp\n",
	"conf/callbacks/default.yaml": `defaults:
  - model_checkpoint
  - _self_
model_checkpoint:
  monitor: val/acc
`,
	"conf/callbacks/model_checkpoint.yaml": "model_checkpoint:\n  monitor: null\n  save_top_k: 1\n",
	"conf/model/small.yaml":                "width: 8\n",
	"conf/experiment/big.yaml": `# @package _global_
defaults:
  - override /trainer: ddp
seed: 7
trainer:
  max_epochs: 3
`,
}

func TestComposeOrderAndPackages(t *testing.T) {
	r := Compose(mapFS(tree), "conf/train.yaml", nil, Limits{})
	if len(r.Problems) != 0 {
		t.Fatalf("problems: %+v", r.Problems)
	}
	// _self_ first: the group's value wins over the primary's own.
	expect(t, r, "trainer.max_epochs", "10", "conf/trainer/default.yaml:1")
	// _self_ last in callbacks/default.yaml: its monitor wins over model_checkpoint.yaml's.
	expect(t, r, "callbacks.model_checkpoint.monitor", "val/acc", "conf/callbacks/default.yaml:5")
	expect(t, r, "callbacks.model_checkpoint.save_top_k", "1", "conf/callbacks/model_checkpoint.yaml:3")
	// group@pkg moves the option's keys.
	expect(t, r, "net.width", "8", "conf/model/small.yaml:1")
	if r.Doc.Root.Get("model") != nil {
		t.Error("model@net also composed at model")
	}
	expect(t, r, "seed", "1", "conf/train.yaml:9")
}

func TestComposeExperimentOverride(t *testing.T) {
	r := Compose(mapFS(tree), "conf/train.yaml", []string{"experiment=big", "trainer.devices=8", "+extra.x=1", "~seed"}, Limits{})
	if len(r.Problems) != 0 {
		t.Fatalf("problems: %+v", r.Problems)
	}
	if r.Choices["trainer"] != "ddp" {
		t.Errorf("trainer choice %q, want ddp (the experiment's override)", r.Choices["trainer"])
	}
	expect(t, r, "trainer.strategy", "ddp", "conf/trainer/ddp.yaml:4")
	expect(t, r, "trainer.max_epochs", "3", "conf/experiment/big.yaml:6")
	expect(t, r, "trainer.devices", "8", "override trainer.devices=8")
	expect(t, r, "extra.x", "1", "override +extra.x=1")
	expect(t, r, "seed", "<absent>", "")
	// The composed tree's paths are the run's keys.
	if p := r.Doc.Root.At("trainer.devices").Path().String(); p != "trainer.devices" {
		t.Errorf("path %q", p)
	}
}

func TestComposeCommandLineBeatsDefaultsOverride(t *testing.T) {
	r := Compose(mapFS(tree), "conf/train.yaml", []string{"experiment=big", "trainer=default"}, Limits{})
	expect(t, r, "trainer.strategy", "<absent>", "")
	expect(t, r, "trainer.devices", "1", "conf/trainer/default.yaml:2")
}

// problemMessages are the messages of the run's problems, in order.
func problemMessages(r *Run) []string {
	var msgs []string
	for _, p := range r.Problems {
		msgs = append(msgs, p.Message)
	}
	return msgs
}

func problems(r *Run) string {
	var b []string
	for _, p := range r.Problems {
		b = append(b, p.File+":"+itoa(p.Span.Start.Line)+" "+p.Message)
	}
	return strings.Join(b, "\n")
}

// A config file's key written as a command-line override (`+callbacks:`, `++trainer:`,
// `~logger:`) is a key of that name to Hydra, which loads files with OmegaConf.load: it is
// reported (Literal, unknown-key) in the file that holds it, at its key. Hydra's own config
// (the hydra: section, a hydra/ group option, a file placed in hydra by its header), whose
// sweeper params are override keys, and the defaults list are left alone, as are `+` inside
// a value and a key that is only `+`.
func TestComposeOverrideKeys(t *testing.T) {
	m := map[string]string{
		"c/train.yaml":              "defaults:\n  - base\n  - override hydra/sweeper: grid\n  - _self_\n+callbacks:\n  - _target_: x.EarlyStopping\ntrainer:\n  ++max_epochs: 3\n  ~logger: null\n  name: a+b\n  +: 1\nhydra:\n  sweeper:\n    params:\n      +model.lr: 0.1,0.2\n",
		"c/base.yaml":               "# @package _global_\nlr: 1\n~seed: 0\n",
		"c/hydra/sweeper/grid.yaml": "# @package hydra.sweeper\nparams:\n  +x: 1,2\n",
	}
	r := Compose(mapFS(m), "c/train.yaml", nil, Limits{})
	var got []string
	for _, p := range r.Problems {
		if p.Kind == Literal {
			got = append(got, p.File+":"+itoa(p.Span.Start.Line)+":"+itoa(p.Span.Start.Col))
		}
	}
	if want := "c/base.yaml:3:1 c/train.yaml:5:1 c/train.yaml:8:3 c/train.yaml:9:3"; strings.Join(got, " ") != want {
		t.Errorf("override keys at %q, want %q; problems:\n%s", got, want, problems(r))
	}
	// An option the defaults list places in Hydra's config (Optuna's search space:
	// `- search_space@hydra.sweeper.params: mlp`, whose keys the sweeper parses as overrides).
	m2 := map[string]string{
		"c/train.yaml":            "defaults:\n  - search_space@hydra.sweeper.params: mlp\n  - _self_\nlr: 1\n",
		"c/search_space/mlp.yaml": "+model.dropout: interval(0.0, 0.5)\n",
	}
	for _, p := range Compose(mapFS(m2), "c/train.yaml", nil, Limits{}).Problems {
		if p.Kind == Literal {
			t.Errorf("a sweeper's search space: %s", p.Message)
		}
	}
	for k, want := range map[string]bool{"+callbacks": true, "++a": true, "~b": true, "+_x": true, "+": false, "+++a": false, "+1": false, "a+": false, "~": false, "~~a": false} {
		if OverrideKey(k) != want {
			t.Errorf("OverrideKey(%q) = %v", k, !want)
		}
	}
}

func TestComposeProblems(t *testing.T) {
	fs := mapFS(map[string]string{
		"c/main.yaml":            "defaults:\n  - trainer: missing\n  - optional local: none\n  - a\n  - /../../etc/passwd\n  - ../../outside\nx: 1\n",
		"c/a.yaml":               "defaults:\n  - b\n",
		"c/b.yaml":               "defaults:\n  - a\n",
		"c/trainer/default.yaml": "devices: 1\n",
		"outside.yaml":           "secret: 1\n",
	})
	r := Compose(fs, "c/main.yaml", []string{"nokey.deep=3", "garbage"}, Limits{})
	got := problems(r)
	for _, want := range []string{
		`c/main.yaml:2 option "missing" of group "trainer" not found (c/trainer/missing.yaml does not exist; an option Python code registers (Hydra's ConfigStore, a search path plugin) is not read)`,
		`c/b.yaml:2 defaults list cycle: c/a.yaml → c/b.yaml → c/a.yaml`,
		`c/main.yaml:6 config "../../outside" is outside the config directory`,
		`override "garbage" is not key=value`,
		`override "nokey.deep=3" sets "nokey.deep", which the run does not have`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing problem %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "local") {
		t.Errorf("an optional missing option is a problem:\n%s", got)
	}
	for _, d := range r.Files {
		if strings.Contains(d.Path, "outside") || strings.Contains(d.Path, "etc") {
			t.Errorf("read %s outside the config directory", d.Path)
		}
	}
	var cyc int
	for _, p := range r.Problems {
		if p.Kind == Cycle {
			cyc++
		}
	}
	if cyc != 1 {
		t.Errorf("%d cycle problems, want 1", cyc)
	}
	if r.Doc.Root.At("x") == nil {
		t.Error("the primary's own values were lost")
	}
}

// TestComposeMissingRootConfig: a config entry of no group in the primary's defaults list
// (`- base_config`, a dataclass stored with ConfigStore) merges at the root (Hydra 1.3.2
// default_element.py _get_final_package: the parent's package "" joined with an empty group
// path), so what it sets may be any key of the run: the run is Partial, as for a missing
// option whose group writes at the root. Under a group's package it leaves that package
// unknown.
func TestComposeMissingRootConfig(t *testing.T) {
	fs := mapFS(map[string]string{
		"c/main.yaml":            "defaults:\n  - base_config\n  - trainer: default\n  - _self_\nseed: ${random_seed}\n",
		"c/trainer/default.yaml": "defaults:\n  - base\nmax_epochs: 3\n",
	})
	r := Compose(fs, "c/main.yaml", nil, Limits{})
	if !r.Partial || !strings.Contains(problems(r), `config "base_config" not found`) {
		t.Errorf("missing root config: Partial %v, problems:\n%s", r.Partial, problems(r))
	}
	fs = mapFS(map[string]string{
		"c/main.yaml":            "defaults:\n  - trainer: default\n  - _self_\n",
		"c/trainer/default.yaml": "defaults:\n  - base\nmax_epochs: 3\n",
	})
	if r := Compose(fs, "c/main.yaml", nil, Limits{}); r.Partial || strings.Join(r.Unknown, " ") != "trainer" {
		t.Errorf("missing config under a group: Partial %v, Unknown %q, problems:\n%s", r.Partial, r.Unknown, problems(r))
	}
}

// TestComposeUnmatchedOverrideEntry: an experiment's `override /callbacks: default` in a run
// whose defaults lists have no callbacks entry stops Hydra (1.3.2, checked by composing: "In
// 'experiment/x': Could not override 'callbacks'. No match in the defaults list."), so the run
// is refused at the entry and not read further; with the entry, the override applies.
func TestComposeUnmatchedOverrideEntry(t *testing.T) {
	files := map[string]string{
		"c/train.yaml":             "defaults:\n  - _self_\n  - callbacks: none\n  - experiment: null\n",
		"c/eval.yaml":              "defaults:\n  - _self_\n  - experiment: null\nckpt_path: last.ckpt\n",
		"c/callbacks/none.yaml":    "{}\n",
		"c/callbacks/default.yaml": "model_checkpoint:\n  mode: max\n",
		"c/experiment/x.yaml":      "# @package _global_\ndefaults:\n  - override /callbacks: default\ncallbacks:\n  model_checkpoint:\n    monitor: val/iou\n",
	}
	// A primary's own override entry, with no command line: the light build declines the run
	// (the full module reports it); the full build refuses it.
	one := mapFS(map[string]string{"c/p.yaml": "defaults:\n  - override /callbacks: default\n  - _self_\nseed: 1\n", "c/callbacks/default.yaml": "{}\n"})
	if r := Compose(one, "c/p.yaml", nil, Limits{}); hydraValueDeclined != r.Doc.Declined || hydraValueDeclined == (len(r.Problems) == 1) {
		t.Errorf("a primary's override entry: declined %v, problems %+v", r.Doc.Declined, r.Problems)
	}
	if hydraValueDeclined {
		return // the light build reads no command-line override
	}
	r := Compose(mapFS(files), "c/eval.yaml", []string{"experiment=x"}, Limits{})
	if !r.Partial || len(r.Problems) != 1 || r.Problems[0].Kind != Refused || r.Problems[0].File != "c/experiment/x.yaml" ||
		!strings.Contains(r.Problems[0].Message, `Could not override 'callbacks'. No match in the defaults list.`) || r.Problems[0].Span.Start.Line != 3 {
		t.Errorf("eval with the experiment: Partial %v, problems %+v", r.Partial, r.Problems)
	}
	// Of several, Hydra names the first it registered (checked with 1.3.2): a file's in list
	// order (zeta, not alpha), the primary's before an experiment's.
	two := map[string]string{
		"c/train.yaml":        "defaults:\n  - _self_\n  - data: a\n  - experiment: null\n",
		"c/data/a.yaml":       "x: 1\n",
		"c/experiment/x.yaml": "# @package _global_\ndefaults:\n  - override /zeta: a\n  - override /alpha: a\n",
	}
	first := func(want string, line int) {
		t.Helper()
		r := Compose(mapFS(two), "c/train.yaml", []string{"experiment=x"}, Limits{})
		if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, "Could not override '"+want+"'") || r.Problems[0].Span.Start.Line != line {
			t.Errorf("want %s at line %d: %+v", want, line, r.Problems)
		}
	}
	first("zeta", 3)
	two["c/train.yaml"] += "  - override /omega: a\n"
	first("omega", 5)
	// Included configs: Hydra walks a list in reverse, depth first (checked with 1.3.2): of two
	// options, the later one's entry; of a data option and an experiment listed after it, the
	// experiment's; a command line's +experiment=x comes after the list, so first.
	walk := func(files map[string]string, ovs []string, wantFile string) {
		t.Helper()
		r := Compose(mapFS(files), "c/train.yaml", ovs, Limits{})
		if len(r.Problems) != 1 || r.Problems[0].File != wantFile {
			t.Errorf("%v: want the refusal in %s: %+v", ovs, wantFile, r.Problems)
		}
	}
	walk(map[string]string{
		"c/train.yaml": "defaults:\n  - _self_\n  - a: x\n  - b: y\n",
		"c/a/x.yaml":   "defaults:\n  - override /zeta: q\n",
		"c/b/y.yaml":   "defaults:\n  - override /alpha: q\n",
	}, nil, "c/b/y.yaml")
	three := map[string]string{
		"c/train.yaml":        "defaults:\n  - _self_\n  - data: a\n  - experiment: x\n",
		"c/data/a.yaml":       "defaults:\n  - override /zeta: q\nv: 1\n",
		"c/experiment/x.yaml": "# @package _global_\ndefaults:\n  - override /alpha: q\n",
	}
	walk(three, nil, "c/experiment/x.yaml")
	three["c/train.yaml"] = "defaults:\n  - _self_\n  - data: a\n"
	walk(three, []string{"+experiment=x"}, "c/experiment/x.yaml")
	// Overrides of Hydra's own groups match entries of Hydra's config, not the run's.
	files["c/train.yaml"] = "defaults:\n  - _self_\n  - callbacks: none\n  - experiment: null\n  - override hydra/job_logging: colorlog\n  - hydra: default\n"
	files["c/hydra/default.yaml"] = "defaults:\n  - override hydra_logging: colorlog\n"
	r = Compose(mapFS(files), "c/train.yaml", []string{"experiment=x"}, Limits{})
	if r.Partial || len(r.Problems) != 0 || r.Doc.Root.At("callbacks.model_checkpoint.mode") == nil {
		t.Errorf("train with the experiment: Partial %v, problems %+v", r.Partial, r.Problems)
	}
	// A command line's +group=x adds an entry the override matches (Hydra 1.3.2 composes it).
	sel := mapFS(map[string]string{"c/s.yaml": "defaults:\n  - _self_\n  - override db: pg\nseed: 1\n", "c/db/mysql.yaml": "host: a\n", "c/db/pg.yaml": "host: b\n"})
	if r := Compose(sel, "c/s.yaml", []string{"+db=mysql"}, Limits{}); len(r.Problems) != 0 || r.Partial {
		t.Errorf("+db=mysql: Partial %v, problems %+v", r.Partial, r.Problems)
	}
	// A choice left to the launch (model: ???) may bring the entry (model/a.yaml's optimizer).
	files["c/t.yaml"] = "defaults:\n  - _self_\n  - model: ???\n  - experiment: null\n"
	files["c/model/a.yaml"] = "defaults:\n  - optimizer: sgd\ndim: 1\n"
	files["c/experiment/fast.yaml"] = "# @package _global_\ndefaults:\n  - override /model/optimizer: adamw\n"
	if r := Compose(mapFS(files), "c/t.yaml", []string{"experiment=fast"}, Limits{}); len(r.Problems) != 0 {
		t.Errorf("model: ???: problems %+v", r.Problems)
	}
	// A defaults list not read whole (a missing option) may hold the entry: no claim.
	delete(files, "c/callbacks/none.yaml")
	files["c/eval.yaml"] = "defaults:\n  - _self_\n  - extra: gone\n  - experiment: null\n"
	r = Compose(mapFS(files), "c/eval.yaml", []string{"experiment=x"}, Limits{})
	for _, p := range r.Problems {
		if p.Kind == Refused {
			t.Errorf("a run not read whole: %+v", r.Problems)
		}
	}
}

func TestComposeLimits(t *testing.T) {
	files := map[string]string{}
	// A chain of 50 configs each including the next: past MaxDepth, never a hang.
	for i := 0; i < 50; i++ {
		files["c/n"+itoa(i)+".yaml"] = "defaults:\n  - n" + itoa(i+1) + "\nv" + itoa(i) + ": 1\n"
	}
	r := Compose(mapFS(files), "c/n0.yaml", nil, Limits{MaxDepth: 10})
	if !strings.Contains(problems(r), "nest deeper than 10") {
		t.Errorf("no depth problem:\n%s", problems(r))
	}
	big := strings.Repeat("k: 1\n", 1) + "m:\n" + strings.Repeat("  - 1\n", 200)
	r = Compose(mapFS(map[string]string{"c/a.yaml": big}), "c/a.yaml", nil, Limits{MaxNodes: 50})
	if !strings.Contains(problems(r), "more than 50 values") {
		t.Errorf("no node problem:\n%s", problems(r))
	}
	n := 0
	r.Doc.Root.Walk(func(*doc.Node) bool { n++; return true })
	if n > 60 {
		t.Errorf("composed tree has %d nodes past a limit of 50", n)
	}
}

// TestDiscoverExperimentBases: an experiment other experiments include (riemannian-score-sde's
// earth_data.yaml, `- earth_data` in fire.yaml, which Hydra reads from the experiment group) is
// a shared base, not a run of its own: alone it lacks the name its users set.
func TestDiscoverExperimentBases(t *testing.T) {
	tree := map[string]string{
		"config/main.yaml":                  "defaults:\n  - _self_\n  - server: base\n  - experiment: fire\nseed: 0\n",
		"config/server/base.yaml":           "# @package _global_\nhydra:\n  run:\n    dir: ./results/${name}/${seed}\n",
		"config/experiment/earth_data.yaml": "# @package _global_\nbatch_size: 512\n",
		"config/experiment/fire.yaml":       "# @package _global_\nname: fire\ndefaults:\n  - earth_data\n",
		"config/experiment/flood.yaml":      "# @package _global_\nname: flood\ndefaults:\n  - /experiment/earth_data\n",
		"config/experiment/solo.yaml":       "# @package _global_\nname: solo\n",
		"config/experiment/base.yaml":       "# @package _global_\nlr: 1\n",
		"config/experiment/vit.yaml":        "# @package _global_\ndefaults:\n  - base.yaml\nname: vit\n",
	}
	var files []string
	for k := range tree {
		files = append(files, k)
	}
	sort.Strings(files)
	runs, _ := Discover(mapFS(tree), files)
	var names []string
	for _, r := range runs {
		names = append(names, r.Name())
	}
	if got := strings.Join(names, "|"); got != "config/main.yaml|config/main.yaml experiment=fire|config/main.yaml experiment=flood|config/main.yaml experiment=solo|config/main.yaml experiment=vit" {
		t.Errorf("runs %q", got)
	}
}

func TestDiscover(t *testing.T) {
	fs := mapFS(tree)
	var files []string
	for k := range tree {
		files = append(files, k)
	}
	runs, frags := Discover(fs, files)
	var names []string
	for _, r := range runs {
		names = append(names, r.Name())
	}
	if got := strings.Join(names, "|"); got != "conf/train.yaml|conf/train.yaml experiment=big" {
		t.Errorf("runs %q", got)
	}
	if !frags["conf/callbacks/default.yaml"] || !frags["conf/experiment/big.yaml"] || frags["conf/train.yaml"] {
		t.Errorf("fragments %v", frags)
	}
}

// countingFS counts the listings of each folder.
type countingFS struct {
	FS
	lists map[string]int
}

func (c *countingFS) ReadDir(name string) ([]Entry, error) {
	c.lists[name]++
	return c.FS.ReadDir(name)
}

// TestDiscoverListsEachFolderOnce: a config folder with many primaries is listed once, not once
// per primary (2,000 primaries beside 3,000 group options took 13.6 s), and the runs found are
// the same.
func TestDiscoverListsEachFolderOnce(t *testing.T) {
	m := map[string]string{"conf/experiment/e1.yaml": "# @package _global_\nseed: 3\n"}
	var files []string
	for i := range 50 {
		n := itoa(i)
		m["conf/model/m"+n+".yaml"] = "lr: 1\n"
		m["conf/c"+n+".yaml"] = "defaults:\n  - model: m" + n + "\n  - experiment: null\n  - _self_\nseed: 1\n"
	}
	for k := range m {
		files = append(files, k)
	}
	fs := &countingFS{FS: mapFS(m), lists: map[string]int{}}
	runs, frags := Discover(fs, files)
	if len(runs) != 100 || len(frags) != 51 {
		t.Errorf("%d runs (want 50 primaries and 50 with experiment=e1), %d fragments (want 51)", len(runs), len(frags))
	}
	for dir, n := range fs.lists {
		if n > 1 {
			t.Errorf("%s listed %d times", dir, n)
		}
	}
}

func TestComposeGroupOverrideNotInDefaults(t *testing.T) {
	m := map[string]string{"conf/optim/adam.yaml": "lr: 1\n"}
	for k, v := range tree {
		m[k] = v
	}
	r := Compose(mapFS(m), "conf/train.yaml", []string{"optim=adam"}, Limits{})
	if !strings.Contains(problems(r), `chooses group "optim", which no defaults list of the run has`) {
		t.Errorf("problems:\n%s", problems(r))
	}
	if r.Doc.Root.Get("optim") != nil {
		t.Error("a group no defaults list names was composed")
	}
	r = Compose(mapFS(tree), "conf/train.yaml", []string{"trainer=ddp"}, Limits{})
	if p := problems(r); p != "" {
		t.Errorf("unexpected problems:\n%s", p)
	}
}

// TestComposeEmptyOption: an option whose file holds only comments makes its package an empty
// mapping, as Hydra does (lightning-hydra-template's callbacks=none gives callbacks: {}); with
// a # @package _global_ header it adds nothing.
func TestComposeEmptyOption(t *testing.T) {
	files := map[string]string{
		"c/train.yaml":          "defaults:\n  - callbacks: none\n  - extra: none\n  - _self_\nseed: 1\n",
		"c/callbacks/none.yaml": "# no callbacks\n",
		"c/extra/none.yaml":     "# @package _global_\n",
	}
	r := Compose(mapFS(files), "c/train.yaml", nil, Limits{})
	cb := r.Doc.Root.Get("callbacks")
	if cb == nil || cb.Kind != doc.Map || len(cb.Children) != 0 {
		t.Errorf("callbacks: %+v, want an empty mapping", cb)
	}
	if len(r.Doc.Root.Children) != 2 || r.Doc.Root.Get("extra") != nil {
		t.Errorf("keys %v, want callbacks and seed", r.Doc.Root.Children)
	}
	if p := problems(r); p != "" {
		t.Errorf("problems:\n%s", p)
	}
}

// TestComposeDiamondBounded: each config includes the next one twice, 40 levels deep: 2^40
// merges if nothing counted them.
func TestComposeDiamondBounded(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 40; i++ {
		files["c/n"+itoa(i)+".yaml"] = "defaults:\n  - n" + itoa(i+1) + "\n  - n" + itoa(i+1) + "\nv" + itoa(i) + ": 1\n"
	}
	files["c/n40.yaml"] = "leaf: 1\n"
	r := Compose(mapFS(files), "c/n0.yaml", nil, Limits{MaxDepth: 64})
	if !strings.Contains(problems(r), "merges configs more than 10000 times") {
		t.Errorf("no merge-count problem:\n%s", problems(r))
	}
}

// TestJoin: the files keys name join a run from the root, else from the naming file's folder
// or a folder above it;
// a Lightning strategy's config only when the strategy is DeepSpeed's; an inline config joins
// as it is; a path out of the root or to nothing is a problem at the key.
func TestJoin(t *testing.T) {
	fsys := mapFS(map[string]string{
		"recipes/sft.yaml":   "deepspeed: ds/z3.json\n",
		"recipes/ds/z3.json": "{\"zero_optimization\": {\"stage\": 3}}\n",
		"root.yaml":          "deepspeed: recipes/ds/z3.json\n",
		"inline.yaml":        "deepspeed:\n  zero_optimization:\n    stage: 2\n",
		"out.yaml":           "deepspeed: ../../etc/ds.json\n",
		"missing.yaml":       "deepspeed: nowhere.json\n",
		"interp.yaml":        "deepspeed: ${oc.env:DS}\n",
		"preset.yaml":        "deepspeed: zero2\n",                                     // ms-swift's preset name, no file
		"jsonstr.yaml":       "deepspeed: '{\"zero_optimization\": {\"stage\": 2}}'\n", // the config as a JSON string
		"off.yaml":           "deepspeed: false\n",                                     // DeepSpeed off, no file (InternVL's MMSeg configs)
		"ddp.yaml":           "trainer:\n  strategy:\n    class_path: lightning.pytorch.strategies.FSDPStrategy\n    init_args:\n      config: recipes/ds/z3.json\n",
		"lds.yaml":           "trainer:\n  strategy:\n    _target_: lightning.pytorch.strategies.DeepSpeedStrategy\n    config: recipes/ds/z3.json\n",
		"accelerate/ds.yaml": "distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ../recipes/ds/z3.json\n",
		// A project in a sub-folder (GAIR-NLP/LIMO's train/) names paths from its own top.
		"train/examples/train_full/sft.yaml":         "deepspeed: examples/deepspeed/z3.json\n",
		"train/examples/deepspeed/z3.json":           "{\"zero_optimization\": {\"stage\": 3}}\n",
		"train/examples/train_full/sub/nowhere.yaml": "deepspeed: examples/deepspeed/z2.json\n",
	})
	for _, tc := range []struct {
		file, launcher, joined, problem string
	}{
		{"recipes/sft.yaml", "", "recipes/ds/z3.json", ""},
		{"root.yaml", "", "recipes/ds/z3.json", ""},
		{"inline.yaml", "", "inline.yaml", ""},
		{"out.yaml", "", "", "outside the folder checked"},
		{"missing.yaml", "", "", "not found in the folder checked"},
		{"train/examples/train_full/sft.yaml", "", "train/examples/deepspeed/z3.json", ""},
		{"train/examples/train_full/sub/nowhere.yaml", "", "", "not found in the folder checked"},
		{"interp.yaml", "", "", ""},
		{"preset.yaml", "", "", ""},
		{"jsonstr.yaml", "", "", ""},
		{"off.yaml", "", "", ""},
		{"ddp.yaml", "", "", ""},
		{"lds.yaml", "", "recipes/ds/z3.json", ""},
		{"root.yaml", "accelerate/ds.yaml", "recipes/ds/z3.json recipes/ds/z3.json", ""},
		{"root.yaml", "nope.yaml", "recipes/ds/z3.json", "launcher config \"nope.yaml\" not found"},
	} {
		k := NewCache()
		run := k.Single(fsys, tc.file, Limits{})
		k.Join(fsys, run, Limits{})
		k.Launch(fsys, run, tc.launcher, Limits{})
		var got []string
		for _, j := range run.Joined {
			got = append(got, j.Doc.Path)
		}
		if strings.Join(got, " ") != tc.joined {
			t.Errorf("%s: joined %v, want %q", tc.file, got, tc.joined)
		}
		p := problems(run)
		if (tc.problem == "") != (p == "") || !strings.Contains(p, tc.problem) {
			t.Errorf("%s: problems %q, want %q", tc.file, p, tc.problem)
		}
	}
}

// Override values are typed as Hydra types them, a sweep or a function call is left unknown, and a
// value Hydra cannot parse is a problem saying it stops there.
func TestComposeOverrideValuesAsHydraReadsThem(t *testing.T) {
	r := Compose(mapFS(tree), "conf/train.yaml", []string{"trainer.devices=on", "+extra.a=TRUE", "+extra.b=inf",
		"+extra.c=0x10", "+extra.d=[1, 2]", "+extra.e=1,2", "+extra.f=choice(1,2)", "+extra.g='8'", "+extra.h=a=b"}, Limits{})
	for _, c := range []struct {
		path, value string
		typ         doc.Type
	}{
		{"trainer.devices", "on", doc.String}, {"extra.a", "true", doc.Bool}, {"extra.b", ".inf", doc.Float},
		{"extra.c", "0x10", doc.String}, {"extra.e", "1,2", doc.Unknown}, {"extra.f", "choice(1,2)", doc.Unknown},
		{"extra.g", "8", doc.String},
	} {
		n := r.Doc.Root.At(c.path)
		if n == nil || n.Value != c.value || n.Type != c.typ {
			t.Errorf("%s: %+v, want %q of type %v", c.path, n, c.value, c.typ)
		}
	}
	if d := r.Doc.Root.At("extra.d"); d == nil || d.Kind != doc.Seq || len(d.Children) != 2 || d.Children[1].Type != doc.Int {
		t.Errorf("extra.d: %+v, want a list of two ints", d)
	}
	if r.Doc.Root.At("extra.h") != nil {
		t.Error("an override Hydra cannot read was applied")
	}
	want := `override "+extra.h=a=b" is not a value Hydra can read ("=" is not expected here, at character 2 of "a=b"): Hydra stops at start-up`
	if got := problems(r); !strings.Contains(got, want) {
		t.Errorf("problems:\n%s\nwant %q", got, want)
	}
}

// A top-level `defaults:` that is a mapping (a GitHub workflow's `defaults: run: shell: bash`)
// is no Hydra defaults list: the file is no primary config, so Hydra's load checks are not
// applied to its `${{ ... }}` expressions.
func TestDiscoverDefaultsMappingIsNoList(t *testing.T) {
	m := map[string]string{
		"wf/publish.yml":        "on: push\ndefaults:\n  run:\n    shell: bash\njobs:\n  j:\n    secrets:\n      T: ${{ secrets.T }}\n",
		"conf/train.yaml":       "defaults:\n  - model: small\n  - _self_\nseed: 1\n",
		"conf/model/small.yaml": "width: 8\n",
	}
	files := []string{"wf/publish.yml", "conf/train.yaml", "conf/model/small.yaml"}
	runs, frags := Discover(mapFS(m), files)
	if len(runs) != 1 || runs[0].Primary != "conf/train.yaml" || frags["wf/publish.yml"] {
		t.Errorf("runs %v, fragments %v", runs, frags)
	}
	if got := defaultsKeys([]byte(m["wf/publish.yml"])); len(got) != 0 {
		t.Errorf("defaults keys of a mapping: %q", got)
	}
}

// A group option's defaults list may climb to a sibling group (verl's actor/dp_actor.yaml lists
// `../optim@optim: fsdp`): Hydra's file config source joins the path with os.path.join, so it
// reads c/optim/fsdp.yaml, and one climbing past the config directory reads escape/no.yaml
// (file_config_source.py:21-23 at v1.1.1 and v1.3.2). A ".." past the tree's top is not read.
func TestComposeRelativeGroupUpward(t *testing.T) {
	fs := mapFS(map[string]string{
		"c/main.yaml":       "defaults:\n  - actor: dp\n  - _self_\n",
		"c/actor/dp.yaml":   "defaults:\n  - ../optim@optim: fsdp\n  - ../../escape@x: no\n  - ../../../up@y: no\n  - _self_\nppo_epochs: 1\n",
		"c/optim/fsdp.yaml": "lr: 0.001\n",
		"escape/no.yaml":    "secret: 1\n",
	})
	r := Compose(fs, "c/main.yaml", nil, Limits{})
	if n := r.Doc.Root.At("actor.optim.lr"); n == nil || n.Value != "0.001" {
		t.Errorf("actor.optim.lr = %v; problems:\n%s", n, problems(r))
	}
	if got := problems(r); strings.Contains(got, "actor/../optim") || strings.Contains(got, "escape") ||
		!strings.Contains(got, `config "actor/../../../up/no" is outside the config directory`) {
		t.Errorf("problems:\n%s", got)
	}
	if n := r.Doc.Root.At("actor.x.secret"); n == nil || n.Value != "1" {
		t.Errorf("actor.x.secret = %v: the file in the tree past the config directory was not read", n)
	}
	if !slices.Contains(r.Unknown, "actor.y") {
		t.Errorf("unknown packages %v: what the config not read sets is known", r.Unknown)
	}
}

// A primary's defaults list may name a config out of its config directory (hulc2's
// conf/affordance/train_affordance.yaml lists `../paths@paths: general_paths`): Hydra reads
// conf/paths/general_paths.yaml (file_config_source.py:21-23 and :46-49 at v1.1.1 and v1.3.2:
// the name joined to the config directory, its real path taken) at the entry's package
// (default_element.py _get_final_package), so ${paths.datasets} names a key. Without a package
// of the entry or a header, Hydra's package is the group path read with dots ("...paths"): its
// keys' place is not known and the run is partial. A name in the tree that is no file is not
// found.
func TestComposeOutOfConfigDir(t *testing.T) {
	for _, tc := range []struct {
		entry, want string // want: the value of paths.datasets, or "partial", or a problem
	}{
		{"../paths@paths: general_paths", "/tmp/datasets/"},
		{"../paths/general_paths@paths", "/tmp/datasets/"},
		{"../paths: global_paths", "/tmp/global/"},
		{"../paths: general_paths", "partial"},
		{"../paths/general_paths", "partial"},
		{"../paths@paths: missing", `option "missing" of group "../paths" not found (conf/paths/missing.yaml does not exist`},
	} {
		fs := mapFS(map[string]string{
			"conf/affordance/train.yaml":    "defaults:\n  - " + tc.entry + "\n  - _self_\ndata_dir: ${paths.datasets}/x\n",
			"conf/paths/general_paths.yaml": "parent_folder: ../\nvr_data: ${paths.parent_folder}/VREnv/data/\ndatasets: /tmp/datasets/\n",
			"conf/paths/global_paths.yaml":  "# @package paths\ndatasets: /tmp/global/\n",
		})
		r := Compose(fs, "conf/affordance/train.yaml", nil, Limits{})
		got := problems(r)
		switch n := r.Doc.Root.At("paths.datasets"); {
		case tc.want == "partial":
			if !r.Partial || n != nil || got != "" {
				t.Errorf("%s: partial %v, paths.datasets %v, problems:\n%s", tc.entry, r.Partial, n, got)
			}
		case strings.HasPrefix(tc.want, "option"):
			if !strings.Contains(got, tc.want) {
				t.Errorf("%s: problems:\n%s", tc.entry, got)
			}
		default:
			if n == nil || n.Value != tc.want || r.Partial || got != "" {
				t.Errorf("%s: paths.datasets %v, partial %v, problems:\n%s", tc.entry, n, r.Partial, got)
			}
		}
	}
}

// A group option with a defaults list of its own, beside folders of its own groups
// (yet-another-lightning-hydra-template's datamodule/datamodule.yaml lists loaders: and
// transforms:), is no primary when a primary above names its group: composed alone, its
// ${paths.data_dir} named no key. A folder no primary names keeps its own primary.
func TestDiscoverGroupOptionWithGroups(t *testing.T) {
	m := map[string]string{
		"configs/train.yaml":                      "defaults:\n  - _self_\n  - datamodule: mnist.yaml\n  - paths: default.yaml\n",
		"configs/paths/default.yaml":              "data_dir: /data\n",
		"configs/datamodule/mnist.yaml":           "batch_size: 8\n",
		"configs/datamodule/datamodule.yaml":      "defaults:\n  - _self_\n  - loaders: default.yaml\npath: ${paths.data_dir}/x\n",
		"configs/datamodule/loaders/default.yaml": "num_workers: 2\n",
		"configs/serve/app.yaml":                  "defaults:\n  - db: sqlite\n",
		"configs/serve/db/sqlite.yaml":            "file: a.db\n",
	}
	got, frags := discoverTree(m)
	if got != "configs/serve/app.yaml|configs/train.yaml" {
		t.Errorf("runs %q", got)
	}
	if !frags["configs/datamodule/datamodule.yaml"] || frags["configs/serve/app.yaml"] {
		t.Errorf("fragments %v", frags)
	}
}

// A config whose header places it in a package, below a primary's folder, is an option of a
// group of that config directory even when no list names the group (open-unlearning's
// configs/eval/tofu.yaml, `# @package eval.tofu`, chosen with eval=tofu): composed alone, its
// ${paths.output_dir} named no key. Without the header, or with `_global_`, it stays a primary.
func TestDiscoverPackagedGroupOption(t *testing.T) {
	for _, tc := range []struct{ header, want string }{
		{"# @package eval.tofu\n", "configs/unlearn.yaml"},
		{"", "configs/eval/tofu.yaml|configs/unlearn.yaml"},
		{"# @package _global_\n", "configs/eval/tofu.yaml|configs/unlearn.yaml"},
	} {
		m := map[string]string{
			"configs/unlearn.yaml":                          "defaults:\n  - paths: default\n  - _self_\nlr: 1\n",
			"configs/paths/default.yaml":                    "output_dir: out\n",
			"configs/eval/tofu.yaml":                        tc.header + "defaults:\n  - tofu_metrics:\n    - forget_quality\nout: ${paths.output_dir}\n",
			"configs/eval/tofu_metrics/forget_quality.yaml": "k: 1\n",
		}
		if got, _ := discoverTree(m); got != tc.want {
			t.Errorf("header %q: runs %q, want %q", tc.header, got, tc.want)
		}
	}
}

// A config another folder's config loads by path (TEMOS's data option lists
// `- /transforms/xyz.yaml@transforms`) is a part of that config's runs, not a run, though
// groups of its own lie beside it, and so is any config of that folder (teach's rismpl.yaml);
// a sibling a config builds on (`- base`) may still be one. An
// experiment that overrides a group none of its entries chooses (hannah's pseudo_label.yaml,
// whose primary's groups come from a base on a search path) is no run either: Hydra would
// refuse its override alone.
func TestDiscoverIncludedAndOverridingConfigs(t *testing.T) {
	m := map[string]string{
		"configs/train.yaml":                          "defaults:\n  - data: kit\n  - _self_\n",
		"configs/data/kit.yaml":                       "defaults:\n  - /transforms/xyz.yaml@transforms\n\ndataname: kit\n",
		"configs/transforms/xyz.yaml":                 "defaults:\n  - joints2jfeats: rifke\n\nename: xyz\n",
		"configs/transforms/joints2jfeats/rifke.yaml": "dataset: ${data.dataname}\n",
		// an option beside it that no list names (teach's rismpl.yaml): no run either
		"configs/transforms/rismpl.yaml": "defaults:\n  - joints2jfeats: rifke\n\nename: rismpl\n",
		// a config naming another of its own folder by path stays a run
		"runs/exp/a.yaml":        "defaults:\n  - /exp/base\n  - model: m\n",
		"runs/exp/base.yaml":     "lr: 1\n",
		"runs/model/m.yaml":      "w: 1\n",
		"exp/config.yaml":        "defaults:\n  - base_config\n  - _self_\n",
		"exp/experiment/pl.yaml": "# @package _global_\ndefaults:\n  - /augmentation: null\n  - override /pseudo_labeling: hard\n",
		"other/big.yaml":         "defaults:\n  - base\n  - model: b\n",
		"other/base.yaml":        "defaults:\n  - model: a\n",
		"other/model/a.yaml":     "w: 1\n",
		"other/model/b.yaml":     "w: 2\n",
	}
	got, _ := discoverTree(m)
	if got != "configs/train.yaml|other/base.yaml|other/big.yaml|runs/exp/a.yaml" {
		t.Errorf("runs %q", got)
	}
	// A config outside every group folder that builds on a primary (runs/long.yaml listing
	// /train, run with --config-name runs/long) leaves it a run.
	m["configs/runs/long.yaml"] = "defaults:\n  - /train\n  - _self_\ntrainer:\n  max_epochs: 300\n"
	if got, _ := discoverTree(m); !strings.Contains(got, "configs/train.yaml") {
		t.Errorf("runs %q", got)
	}
	delete(m, "configs/runs/long.yaml")
	// An override of a group the file chooses itself is no sign of an experiment.
	m["exp/experiment/pl.yaml"] = "defaults:\n  - pseudo_labeling: soft\n  - override pseudo_labeling: hard\n"
	if got, _ := discoverTree(m); !strings.Contains(got, "exp/experiment/pl.yaml") {
		t.Errorf("runs %q", got)
	}
}

// A config that reuses another primary's group option by path (finetune/train.yaml's
// `/pretrain/model/vit@model`) makes pretrain/model a folder of options, not pretrain, whose
// train.yaml stays a run; a config a script launches from a folder reached so stays one too.
func TestDiscoverReachedFolderIsTheNamedFiles(t *testing.T) {
	m := map[string]string{
		"conf/pretrain/train.yaml":     "defaults:\n  - model: vit\n  - _self_\nname: run_${model.depth}\n",
		"conf/pretrain/model/vit.yaml": "depth: 12\n",
		"conf/finetune/train.yaml":     "defaults:\n  - /pretrain/model/vit@model\n  - _self_\nlr: 1\n",
	}
	if got, _ := discoverTree(m); !strings.Contains(got, "conf/pretrain/train.yaml") {
		t.Errorf("runs %q", got)
	}
	// A config that extends a primary by path, in no package of its own, leaves it a run.
	ext := map[string]string{
		"conf/tasks/cls/train.yaml":     "defaults:\n  - model: vit\n  - _self_\n",
		"conf/tasks/cls/model/vit.yaml": "depth: 12\n",
		"conf/tasks/det/train.yaml":     "defaults:\n  - /tasks/cls/train@_here_\n  - head: a\n  - _self_\n",
		"conf/tasks/det/head/a.yaml":    "k: 1\n",
	}
	if got, _ := discoverTree(ext); got != "conf/tasks/cls/train.yaml|conf/tasks/det/train.yaml" {
		t.Errorf("a primary extended by path: runs %q", got)
	}
	// teach's shape, its unnamed option launched by a script: a run.
	m = map[string]string{
		"conf/train.yaml":               "defaults:\n  - data: kit\n",
		"conf/data/kit.yaml":            "defaults:\n  - /transforms/b.yaml@transforms\n",
		"conf/transforms/b.yaml":        "x: 1\n",
		"conf/transforms/a.yaml":        "defaults:\n  - joints: x\n",
		"conf/transforms/joints/x.yaml": "y: 1\n",
	}
	if got, _ := discoverTree(m); strings.Contains(got, "conf/transforms/a.yaml") {
		t.Errorf("an option of a reached folder is a run: %q", got)
	}
	k := NewCache()
	k.Launched = map[string]bool{"conf/transforms/a.yaml": true}
	if got, _ := discoverTreeWith(k, m); !strings.Contains(got, "conf/transforms/a.yaml") {
		t.Errorf("a launched config of a reached folder: runs %q", got)
	}
}

// An experiments folder beside a primary whose defaults list has no experiment entry is run
// as Hydra's experiment pattern runs it, +experiment=x (modulus' lagrangian_mgn: its README
// runs `train.py +experiment=water`): experiment=x would choose a group no list has, which
// Hydra refuses.
func TestDiscoverAddedExperiments(t *testing.T) {
	m := map[string]string{
		"conf/config.yaml":          "defaults:\n  - model: small\n  - _self_\n# The loss is set in the experiment.\nlr: 0.1\n",
		"conf/model/small.yaml":     "width: 8\n",
		"conf/experiment/sand.yaml": "# @package _global_\nlr: 0.01\n",
	}
	if got, _ := discoverTree(m); got != "conf/config.yaml|conf/config.yaml +experiment=sand" {
		t.Errorf("runs %q", got)
	}
	r := Compose(mapFS(m), "conf/config.yaml", []string{"+experiment=sand"}, Limits{})
	if len(r.Problems) != 0 || r.Doc.Root.Get("lr").Value != "0.01" {
		t.Errorf("problems %v, lr %v", r.Problems, r.Doc.Root.Get("lr"))
	}
}

// A key named experiment (a logger's experiment name) is no mention of the experiment group:
// the eval config is not paired with the experiments, which override groups only train.yaml
// has (Lightning-hydra's eval_aasist_multiview.yaml). A comment naming them still pairs it.
func TestDiscoverExperimentKeyIsNoMention(t *testing.T) {
	m := map[string]string{
		"configs/train.yaml":             "defaults:\n  - _self_\n  - data: a\n  - callbacks: default\n  - experiment: null\n",
		"configs/eval.yaml":              "defaults:\n  - _self_\n  - data: a\nlogger:\n  aim:\n    experiment: my_eval\n",
		"configs/data/a.yaml":            "x: 1\n",
		"configs/callbacks/default.yaml": "c: 1\n",
		"configs/experiment/x.yaml":      "# @package _global_\ndefaults:\n  - override /callbacks: default\n",
	}
	if got, _ := discoverTree(m); got != "configs/eval.yaml|configs/train.yaml|configs/train.yaml experiment=x" {
		t.Errorf("runs %q", got)
	}
	base := m["configs/eval.yaml"]
	for comment, pairs := range map[string]bool{
		"# run with +experiment=x\n":           true,
		"# see the experiments folder\n":       true,
		"# experiment\n":                       true,
		"# experimental: the new logger\n":     false,
		"# run experiments/x.yaml with care\n": true,
	} {
		m["configs/eval.yaml"] = base + comment
		if got, _ := discoverTree(m); strings.Contains(got, "configs/eval.yaml +experiment=x") != pairs {
			t.Errorf("%q: runs %q", comment, got)
		}
	}
}

// Primaries of one folder that each have an experiment entry share the experiments: an
// experiment is paired with those whose defaults lists have the groups its override entries
// name, as Hydra refuses the others ("Could not override 'datamodule'"): a training
// experiment is not run with infer.yaml (RSWAIN1486/emlov3-pytorchlightning-hydra). One that
// fits both is paired with both; one that fits none with every primary, whose runs report it.
func TestDiscoverSharedExperimentsFitTheirPrimary(t *testing.T) {
	m := map[string]string{
		"configs/train.yaml":                "defaults:\n  - _self_\n  - datamodule: mnist\n  - model: vit\n  - experiment: null\n",
		"configs/infer.yaml":                "defaults:\n  - _self_\n  - model: vit\n  - experiment: null\n",
		"configs/datamodule/mnist.yaml":     "batch_size: 64\n",
		"configs/datamodule/cat_dog.yaml":   "batch_size: 64\n",
		"configs/model/vit.yaml":            "w: 1\n",
		"configs/experiment/cat_dog.yaml":   "# @package _global_\ndefaults:\n  - override /datamodule: cat_dog\n  - override /model: vit\n  - override /hydra/launcher: basic\n",
		"configs/experiment/cat_infer.yaml": "# @package _global_\ndefaults:\n  - override /model: vit\n",
		"configs/experiment/typo.yaml":      "# @package _global_\ndefaults:\n  - override /datamodul: cat_dog\n",
		"configs/experiment/own_group.yaml": "# @package _global_\ndefaults:\n  - /datamodule: cat_dog\n  - override /datamodule: mnist\n",
	}
	// (own_group fits neither list as read, but composes cleanly with infer.yaml only: with
	// train.yaml its own /datamodule entry chooses a group the primary chooses too, which
	// Hydra refuses; TestDiscoverExperimentComposesBest.)
	want := "configs/infer.yaml|configs/infer.yaml experiment=cat_infer|configs/infer.yaml experiment=own_group|configs/infer.yaml experiment=typo|" +
		"configs/train.yaml|configs/train.yaml experiment=cat_dog|configs/train.yaml experiment=cat_infer|configs/train.yaml experiment=typo"
	if got, _ := discoverTree(m); got != want {
		t.Errorf("runs\n%q\nwant\n%q", got, want)
	}
	// A script launches infer.yaml only (tabular-ssl's train.py names config.yaml): an
	// experiment no launched primary fits is paired with it, where Hydra refuses the launch,
	// and not with the primary no script launches (the misspelt override's run).
	k := NewCache()
	k.Launched = map[string]bool{"configs/infer.yaml": true}
	if got, _ := discoverTreeWith(k, m); !strings.Contains(got, "configs/infer.yaml experiment=cat_dog") || strings.Contains(got, "configs/train.yaml experiment=typo") {
		t.Errorf("infer.yaml launched: runs %q", got)
	}
	// A group option's relative entries stay in its group (callbacks/default.yaml's
	// `- model_checkpoint`): they hold no datamodule, and cat_dog is not paired with infer.yaml.
	m["configs/infer.yaml"] = "defaults:\n  - _self_\n  - callbacks: default\n  - experiment: null\n"
	m["configs/callbacks/default.yaml"] = "defaults:\n  - model_checkpoint\n"
	m["configs/callbacks/model_checkpoint.yaml"] = "model_checkpoint:\n  monitor: val/acc\n"
	if got, _ := discoverTree(m); strings.Contains(got, "configs/infer.yaml experiment=cat_dog") {
		t.Errorf("a group option's relative entries: runs %q", got)
	}
	// infer.yaml loading a config with a defaults list of its own (an eval base listing the
	// datamodule): Hydra matches the override there, so the pairing is kept.
	m["configs/infer.yaml"] = "defaults:\n  - _self_\n  - eval_base\n  - experiment: null\n"
	m["configs/eval_base.yaml"] = "defaults:\n  - datamodule: mnist\n  - model: vit\n"
	if got, _ := discoverTree(m); !strings.Contains(got, "configs/infer.yaml experiment=cat_dog") {
		t.Errorf("a primary whose nested list may hold the group: runs %q", got)
	}
	// A primary alone is paired with every experiment, as before.
	delete(m, "configs/train.yaml")
	if got, _ := discoverTree(m); !strings.Contains(got, "configs/infer.yaml experiment=cat_dog") {
		t.Errorf("one primary: runs %q", got)
	}
}

// An option Hydra's walk reaches only after an unchosen `experiment: ???` is never looked up
// when every experiment overrides its group: the bare run stops at the mandatory entry, and
// each experiment's override replaces the choice first (willyfh/lightning-hydra-boilerplate's
// missing trainer/default). Listed after the mandatory entry (walked before it), or with an
// experiment that keeps it, the option is looked up and reported.
func TestMissingOptionAfterMandatoryExperiment(t *testing.T) {
	m := map[string]string{
		"configs/train.yaml":                         "defaults:\n  - _self_\n  - trainer: default\n  - experiment: ???\nmode: train\n",
		"configs/trainer/base.yaml":                  "max_epochs: 2\n",
		"configs/experiment/example_experiment.yaml": "# @package _global_\ndefaults:\n  - override /trainer: base\n",
	}
	missing := func() bool {
		for _, p := range Compose(mapFS(m), "configs/train.yaml", nil, Limits{}).Problems {
			if strings.Contains(p.Message, `"default" of group "trainer" not found`) {
				return true
			}
		}
		return false
	}
	if missing() {
		t.Errorf("trainer/default reported, which Hydra never looks up")
	}
	m["configs/train.yaml"] = "defaults:\n  - _self_\n  - experiment: ???\n  - trainer: default\nmode: train\n"
	if !missing() {
		t.Errorf("trainer/default walked before the mandatory entry: not reported")
	}
	m["configs/train.yaml"] = "defaults:\n  - _self_\n  - trainer: default\n  - experiment: ???\nmode: train\n"
	m["configs/experiment/other.yaml"] = "# @package _global_\nseed: 1\n"
	if !missing() {
		t.Errorf("an experiment keeping trainer/default: not reported")
	}
}

// discoverTree runs Discover over every file of m (in name order) and gives the runs' names
// joined by "|", and the fragments.
func discoverTree(m map[string]string) (string, map[string]bool) {
	return discoverTreeWith(NewCache(), m)
}

// discoverTreeWith is discoverTree with a cache of the caller's (its Launched set).
func discoverTreeWith(k *Cache, m map[string]string) (string, map[string]bool) {
	files := slices.Sorted(maps.Keys(m))
	runs, frags := k.Discover(mapFS(m), files, Limits{})
	var names []string
	for _, r := range runs {
		names = append(names, r.Name())
	}
	return strings.Join(names, "|"), frags
}

// A config whose defaults list names a sibling config (fish-speech's text2semantic_finetune.yaml:
// `- base`, `- _self_`) is a run of its own, composed over base.yaml, even with no group folders:
// linted alone, its callbacks.model_checkpoint override lacked the monitor base.yaml sets. The
// sibling it names is part of the run; a plain list entry naming no file makes no run.
func TestDiscoverSiblingBase(t *testing.T) {
	m := map[string]string{
		"configs/base.yaml":     "callbacks:\n  model_checkpoint:\n    _target_: lightning.pytorch.callbacks.ModelCheckpoint\n    monitor: step\n    mode: max\n    save_top_k: 5\n",
		"configs/finetune.yaml": "defaults:\n  - base\n  - _self_\ncallbacks:\n  model_checkpoint:\n    every_n_train_steps: 100\n",
		"configs/lora/r8.yaml":  "r: 8\n",
		"other/app.yaml":        "defaults:\n  - nothing_here\n  - _self_\nx: 1\n",
		"other/unrelated.yaml":  "y: 2\n",
	}
	got, frags := discoverTree(m)
	if got != "configs/finetune.yaml" {
		t.Errorf("runs %q", got)
	}
	if !frags["configs/lora/r8.yaml"] || frags["other/unrelated.yaml"] {
		t.Errorf("fragments %v", frags)
	}
	r := Compose(mapFS(m), "configs/finetune.yaml", nil, Limits{})
	if n := r.Doc.Root.At("callbacks.model_checkpoint.monitor"); n == nil || n.Value != "step" {
		t.Errorf("monitor %v; problems:\n%s", n, problems(r))
	}
	// A group option that lists a sibling (lightning-hydra-template's callbacks/default.yaml)
	// is no run, even when only its folder is linted: the config above names its group.
	tree := map[string]string{
		"conf/train.yaml":                      "defaults:\n  - callbacks: default\n  - _self_\n",
		"conf/callbacks/default.yaml":          "defaults:\n  - model_checkpoint\n  - _self_\n",
		"conf/callbacks/model_checkpoint.yaml": "model_checkpoint:\n  monitor: null\n",
	}
	if runs, _ := Discover(mapFS(tree), []string{"conf/callbacks/default.yaml", "conf/callbacks/model_checkpoint.yaml"}); len(runs) != 0 {
		t.Errorf("a group option listing a sibling made runs %v", runs)
	}
	// A config built on a sibling that chooses the experiment (state-spaces/s4's generate.yaml
	// over config.yaml) is one run, not one per experiment: adding the group again is refused.
	s4 := map[string]string{
		"configs/config.yaml":          "defaults:\n  - _self_\n  - experiment: base\n",
		"configs/generate.yaml":        "defaults:\n  - config\nexperiment_path: null\n",
		"configs/experiment/base.yaml": "lr: 1\n",
		"configs/experiment/rnn.yaml":  "lr: 2\n",
	}
	runs, _ := Discover(mapFS(s4), []string{"configs/config.yaml", "configs/generate.yaml", "configs/experiment/base.yaml", "configs/experiment/rnn.yaml"})
	var gen []string
	for _, r := range runs {
		if r.Primary == "configs/generate.yaml" {
			gen = append(gen, strings.Join(r.Overrides, " "))
		}
	}
	if len(gen) != 1 || gen[0] != "" {
		t.Errorf("generate.yaml runs %q (all runs %v)", gen, runs)
	}
	if got := defaultsNames([]byte(m["configs/finetune.yaml"])); strings.Join(got, ",") != "base,_self_" {
		t.Errorf("defaults names %q", got)
	}
}

// A base recipe that sibling recipes build on (`- cityscapes_segformer` in super-gradients'
// cityscapes_segformer_b0.yaml) and whose ${architecture} only they set is a part of their runs,
// not a run of its own (linted alone, it reported the reference unresolved), as is one whose
// key an option the includers choose sets. A base that composes every key it names stays a run, and so does a primary whose missing key no includer
// sets (its TL006 is true).
func TestDiscoverBaseNeedingItsIncluders(t *testing.T) {
	m := map[string]string{
		"recipes/segformer.yaml":                                 "defaults:\n  - training_hyperparams: default_train_params\n  - _self_\n\nexperiment_name: ${architecture}_cityscapes\n",
		"recipes/segformer_b0.yaml":                              "defaults:\n  - segformer\n  - _self_\n\narchitecture: segformer_b0\n",
		"recipes/training_hyperparams/default_train_params.yaml": "max_epochs: 2\n",
	}
	got, frags := discoverTree(m)
	if got != "recipes/segformer_b0.yaml" || !frags["recipes/segformer.yaml"] {
		t.Errorf("runs %q, fragments %v", got, frags)
	}
	r := Compose(mapFS(m), "recipes/segformer_b0.yaml", nil, Limits{})
	if r.Doc.Root.Get("experiment_name") == nil || r.Doc.Root.Get("architecture") == nil {
		t.Errorf("the b0 run lacks the base's keys; problems:\n%s", problems(r))
	}
	for name, src := range map[string]string{
		// the base sets the key itself, or a group option it chooses does
		"itself": "defaults:\n  - training_hyperparams: default_train_params\n  - _self_\narchitecture: b\nexperiment_name: ${architecture}_x\n",
		"option": "defaults:\n  - training_hyperparams: arch\n  - _self_\nexperiment_name: ${architecture}_x\n",
		// the reference names a key no includer sets: a true finding of the base's own run
		"nobody": "defaults:\n  - training_hyperparams: default_train_params\n  - _self_\nexperiment_name: ${arch}_x\n",
	} {
		m["recipes/segformer.yaml"] = src
		m["recipes/training_hyperparams/arch.yaml"] = "# @package _global_\narchitecture: a\n"
		if got, frags := discoverTree(m); got != "recipes/segformer.yaml|recipes/segformer_b0.yaml" || frags["recipes/segformer.yaml"] {
			t.Errorf("%s: runs %q, fragments %v", name, got, frags)
		}
	}
	// The key comes from a group option the includer chooses (SSLH's fixmatch.yaml lists
	// `- common` and `- data: ssl_cifar10`, whose `# @package data` file sets the
	// data.monitor common.yaml names): the base is a part of its runs too.
	sslh := map[string]string{
		"conf/common.yaml":           "# @package _global_\ndefaults:\n  - launcher: local\nckpt:\n  monitor: ${data.monitor}\n",
		"conf/fixmatch.yaml":         "# @package _global_\ndefaults:\n  - common\n  - data: ssl_cifar10\n  - _self_\n",
		"conf/data/ssl_cifar10.yaml": "# @package data\nmonitor: val/acc\n",
		"conf/launcher/local.yaml":   "# @package hydra\njob:\n  chdir: true\n",
	}
	if got, frags := discoverTree(sslh); got != "conf/fixmatch.yaml" || !frags["conf/common.yaml"] {
		t.Errorf("a key of the includer's option: runs %q, fragments %v", got, frags)
	}
	// The reference is in an option the base chooses, not in its own file (QtacierP/PRIOR's
	// base_callback.yaml chooses callbacks/model_checkpoint, whose ${logger.monitor_metric}
	// only the primaries listing base_callback set): the base is a part of their runs too; with
	// the key set by no includer, it stays a run.
	prior := map[string]string{
		"configs/base_pre_train.yaml":             "defaults:\n  - base_callback\n  - _self_\nlogger:\n  monitor_metric: train_loss\n",
		"configs/base_callback.yaml":              "defaults:\n  - callbacks: [model_checkpoint]\n",
		"configs/callbacks/model_checkpoint.yaml": "model_checkpoint:\n  monitor: ${logger.monitor_metric}\n",
	}
	if got, frags := discoverTree(prior); got != "configs/base_pre_train.yaml" || !frags["configs/base_callback.yaml"] {
		t.Errorf("a reference of the base's option: runs %q, fragments %v", got, frags)
	}
	prior["configs/callbacks/model_checkpoint.yaml"] = "model_checkpoint:\n  monitor: ${logger.metric}\n"
	if got, _ := discoverTree(prior); got != "configs/base_callback.yaml|configs/base_pre_train.yaml" {
		t.Errorf("a reference no includer sets: runs %q", got)
	}
	// A script launches the base alone (@hydra.main(config_name="segformer")): it is a run.
	m["recipes/segformer.yaml"] = "defaults:\n  - training_hyperparams: default_train_params\n  - _self_\n\nexperiment_name: ${architecture}_cityscapes\n"
	k := NewCache()
	k.Launched = map[string]bool{"recipes/segformer.yaml": true}
	if runs, frags := discoverTreeWith(k, m); runs != "recipes/segformer.yaml|recipes/segformer_b0.yaml" || frags["recipes/segformer.yaml"] {
		t.Errorf("launched by a script: runs %q, fragments %v", runs, frags)
	}
}

// An experiment that fits two primaries' lists is run with the one it composes cleanly with:
// BorealisAI/adaflood's tpp experiment overrides /data, which train_cls.yaml and train_tpp.yaml
// both list, but composed with train_cls.yaml that primary's ${data.imb_factor} names a key the
// tpp data option lacks; only train_tpp.py runs it. When it composes cleanly with both, or with
// neither, both pairings stay (the second reports what fails everywhere).
func TestDiscoverExperimentComposesBest(t *testing.T) {
	m := map[string]string{
		"configs/train_cls.yaml":        "defaults:\n  - _self_\n  - data: cls\n  - experiment: null\ntask_name: imb${data.imb_factor}\n",
		"configs/train_tpp.yaml":        "defaults:\n  - _self_\n  - data: tpp\n  - experiment: null\ntask_name: tpp\n",
		"configs/data/cls.yaml":         "imb_factor: 1.0\n",
		"configs/data/tpp.yaml":         "num_marks: 3\n",
		"configs/experiment/tpp_a.yaml": "# @package _global_\ndefaults:\n  - override /data: tpp\nseed: 1\n",
		"configs/experiment/cls_a.yaml": "# @package _global_\ndefaults:\n  - override /data: cls\nseed: 2\n",
	}
	want := "configs/train_cls.yaml|configs/train_cls.yaml experiment=cls_a|configs/train_tpp.yaml|configs/train_tpp.yaml experiment=cls_a|configs/train_tpp.yaml experiment=tpp_a"
	if got, _ := discoverTree(m); got != want {
		t.Errorf("runs\n%q\nwant\n%q", got, want)
	}
	// a primary that fails composed alone (lobster's perplexity.yaml, whose own reference
	// names no key) keeps its pairing: the failure is its own, and its runs report it
	m["configs/train_cls.yaml"] = "defaults:\n  - _self_\n  - data: cls\n  - experiment: null\ntask_name: imb${data.nothing}\n"
	if got, _ := discoverTree(m); !strings.Contains(got, "configs/train_cls.yaml experiment=tpp_a") {
		t.Errorf("a primary failing alone: runs %q", got)
	}
	m["configs/train_cls.yaml"] = "defaults:\n  - _self_\n  - data: cls\n  - experiment: null\ntask_name: imb${data.imb_factor}\n"
	// an experiment that sets Hydra's own config alone (lobster's slurm.yaml: a launcher) is
	// paired with every primary, though it composes cleanly with one only
	// (embed.yaml names ${paths.out}, which only another experiment sets: clean alone, where
	// that experiment may be chosen; with slurm chosen it is not, and train.yaml sets paths)
	lob := map[string]string{
		"conf/train.yaml":            "defaults:\n  - _self_\n  - experiment: null\npaths:\n  out: o\nx: ${paths.out}\n",
		"conf/embed.yaml":            "defaults:\n  - _self_\n  - experiment: null\nx: ${paths.out}\n",
		"conf/experiment/slurm.yaml": "# @package _global_\ndefaults:\n  - override /hydra/launcher: submitit_slurm\nhydra:\n  launcher:\n    nodes: 1\n",
		"conf/experiment/big.yaml":   "# @package _global_\npaths:\n  out: big\n",
	}
	if got, _ := discoverTree(lob); !strings.Contains(got, "conf/embed.yaml experiment=slurm") || !strings.Contains(got, "conf/train.yaml experiment=slurm") {
		t.Errorf("a launcher experiment: runs %q", got)
	}
	// with neither composing cleanly (the experiment names a key no data option sets), both stay
	m["configs/experiment/tpp_a.yaml"] = "# @package _global_\ndefaults:\n  - override /data: tpp\nseed: ${data.seed}\n"
	if got, _ := discoverTree(m); !strings.Contains(got, "configs/train_cls.yaml experiment=tpp_a") || !strings.Contains(got, "configs/train_tpp.yaml experiment=tpp_a") {
		t.Errorf("neither clean: runs %q", got)
	}
}

// A config found only by the group it chooses (NeMo-Framework-Launcher's
// auto_configurator/base_configs/llama3_8b.yaml: `- _self_` and an optional tp_overlap group that
// is not in the tree) that no script launches, naming keys only a launched primary sets
// (${base_results_dir}), is a part of that primary's runs, not a run: its generator reads it raw.
// Launched itself, or with no launched primary setting the key, or setting every key it
// names, it stays a run.
func TestDiscoverTemplateOfLaunchedPrimary(t *testing.T) {
	m := map[string]string{
		"conf/config.yaml":            "defaults:\n  - _self_\n  - cluster: bcm\nbase_results_dir: /r\ndata_dir: /d\n",
		"conf/cluster/bcm.yaml":       "partition: p\n",
		"base_configs/llama3_8b.yaml": "defaults:\n  - _self_\n  - optional tp_overlap@model.ub_tp_comm_overlap_cfg:\nrun:\n  results_dir: ${base_results_dir}/x\ntrainer:\n  max_steps: 10\n",
	}
	k := NewCache()
	k.Launched = map[string]bool{"conf/config.yaml": true}
	runs, frags := discoverTreeWith(k, m)
	if runs != "conf/config.yaml" || !frags["base_configs/llama3_8b.yaml"] {
		t.Errorf("runs %q, fragments %v", runs, frags)
	}
	// with no script launching anything, the template stays a run (its TL006 is then the run's)
	if runs, frags := discoverTree(m); runs != "base_configs/llama3_8b.yaml|conf/config.yaml" || frags["base_configs/llama3_8b.yaml"] {
		t.Errorf("nothing launched: runs %q, fragments %v", runs, frags)
	}
	// launched itself
	k = NewCache()
	k.Launched = map[string]bool{"conf/config.yaml": true, "base_configs/llama3_8b.yaml": true}
	if runs, _ := discoverTreeWith(k, m); runs != "base_configs/llama3_8b.yaml|conf/config.yaml" {
		t.Errorf("launched template: runs %q", runs)
	}
	// beside the launched primary, in its config folder, it may be launched with --config-name
	// (a shell script's, which no decorator tells): it stays a run
	m2 := map[string]string{
		"conf/gpt.yaml":         "defaults:\n  - _self_\n  - cluster: bcm\ntrainer:\n  devices: 8\n",
		"conf/cluster/bcm.yaml": "partition: p\n",
		"conf/llama.yaml":       "defaults:\n  - _self_\n  - optional tp_overlap@model.ub:\nrun:\n  d: ${trainer.devices}\n",
	}
	k = NewCache()
	k.Launched = map[string]bool{"conf/gpt.yaml": true}
	if runs, _ := discoverTreeWith(k, m2); runs != "conf/gpt.yaml|conf/llama.yaml" {
		t.Errorf("beside the launched primary: runs %q", runs)
	}
	// it names only keys it sets itself, or one the launched primary does not set either
	for name, src := range map[string]string{
		"itself": "defaults:\n  - _self_\n  - optional tp_overlap@model.ub:\nbase_results_dir: /b\nrun:\n  results_dir: ${base_results_dir}/x\n",
		"nobody": "defaults:\n  - _self_\n  - optional tp_overlap@model.ub:\nrun:\n  results_dir: ${results_root}/x\n",
	} {
		m["base_configs/llama3_8b.yaml"] = src
		k = NewCache()
		k.Launched = map[string]bool{"conf/config.yaml": true}
		if runs, frags := discoverTreeWith(k, m); runs != "base_configs/llama3_8b.yaml|conf/config.yaml" || frags["base_configs/llama3_8b.yaml"] {
			t.Errorf("%s: runs %q, fragments %v", name, runs, frags)
		}
	}
}

// TestIsRecipeJSON: a JSON file is a recipe when it is an object whose "deepspeed" names a
// .json file or holds a config inline, as an HF recipe read by parse_json_file does; a file
// that only mentions the word, or names no file the Trainer reads, is none.
func TestIsRecipeJSON(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{`{"output_dir": "o", "deepspeed": "configs/ds_z3.json"}`, true},
		{"\ufeff{\n  \"deepspeed\" :\n  \"DS.JSON\"\n}", true},
		{`{"deepspeed": {"zero_optimization": {"stage": 2}}}`, true},
		{`{"strategy": "deepspeed", "x": 1, "deepspeed": "ds.json"}`, true},
		{`{"model": "Qwen/Qwen2.5-7B", "deepspeed": "ZeRO Stage 2", "num_gpus": 8}`, false},
		{`{"deepspeed": "zero3"}`, false},
		{`{"deepspeed": null, "bf16": true}`, false},
		{`{"strategy": "deepspeed"}`, false},
		{`[{"deepspeed": "ds.json"}]`, false},
		{`{"deepspeed"`, false},
		{`{"deepspeed": "ds.json`, false},
		// only the top level's key counts, as Join reads only it
		{`{"experiments": [{"deepspeed": "configs/ds_z3.json"}], "deepspeed": "zero3"}`, false},
		{`{"sweep": {"deepspeed": "configs/ds_z3.json"}, "deepspeed": "ZeRO-3"}`, false},
		{`{"sweep": {"deepspeed": "x"}, "deepspeed": "ds.json"}`, true},
		{`{"note": "a \"deepspeed\": \"x.json\" line", "lr": 1}`, false},
		{`{"deepspeed_config": "ds.json", "my deepspeed": "ds.json"}`, false},
		{`{"a": "deepspeed", "deepspeed" : {"stage": 3}}`, true},
		// a repeated key: the last value, as Python's json and Join keep
		{`{"deepspeed": "zero3", "lr": 1, "deepspeed": "recipes/ds/ds.json"}`, true},
		{`{"deepspeed": "recipes/ds/ds.json", "deepspeed": "zero3"}`, false},
		{`{"deepspeed": null, "deepspeed": {"stage": 3}}`, true},
	} {
		if got := IsRecipe("args.json", []byte(c.text)); got != c.want {
			t.Errorf("IsRecipe(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	if !IsRecipe("r.yaml", []byte("deepspeed: ds.json\n")) || IsRecipe("r.yaml", []byte("strategy: deepspeed\n")) {
		t.Error("YAML recipes are MentionsFileKey's")
	}
}

// jsonRecipeOracle is jsonRecipe's claim read off a real JSON parse (encoding/json): the text
// is an object whose top-level "deepspeed" is an object or a string ending in .json. ok is
// false for a text encoding/json refuses (the scanner's answer is then not judged).
func jsonRecipeOracle(b []byte) (recipe, ok bool) {
	var top map[string]any
	if err := json.Unmarshal(bytes.TrimPrefix(b, []byte("\ufeff")), &top); err != nil {
		return false, false
	}
	switch v := top["deepspeed"].(type) {
	case map[string]any:
		return true, true
	case string:
		return strings.HasSuffix(strings.ToLower(v), ".json"), true
	}
	return false, true
}

// TestIsRecipeJSONAgreesWithParse holds the scanner to a real parse over every JSON file of
// the corpus and the hand-made cases, each also with its "deepspeed" values rewritten.
func TestIsRecipeJSONAgreesWithParse(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus")
	var texts [][]byte
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".json") {
			if b, err := os.ReadFile(p); err == nil {
				texts = append(texts, b)
			}
		}
		return nil
	})
	if len(texts) == 0 {
		t.Skip("no corpus JSON beside the repository")
	}
	texts = append(texts, []byte(`{"sweep": {"deepspeed": "x.json"}, "deepspeed": "zero3"}`), []byte(`{"a": ["deepspeed", {"deepspeed": {}}], "deepspeed": "d.JSON"}`))
	n := 0
	for _, b := range texts {
		for _, v := range [][]byte{b, bytes.ReplaceAll(b, []byte(`"train_batch_size"`), []byte(`"deepspeed"`)),
			append([]byte(`{"deepspeed": "ds_z3.json", "x": `), append(bytes.TrimSpace(b), '}')...)} {
			want, ok := jsonRecipeOracle(v)
			if !ok {
				continue
			}
			n++
			if got := jsonRecipe(v); got != want {
				t.Errorf("jsonRecipe = %v, a parse says %v: %.200s", got, want, v)
			}
		}
	}
	t.Logf("%d texts judged", n)
}

// TestYmlPrimaryAndJekyllDefaults: a primary named .yml is read by its own name (Hydra before
// version_base 1.2 loads config_name="train.yml"), not as train.yaml; a Jekyll site's
// `defaults:` list of scope/values mappings is no Hydra defaults list, so its file is no run.
func TestYmlPrimaryAndJekyllDefaults(t *testing.T) {
	fs := mapFS(map[string]string{
		"conf/train.yml":        "defaults:\n  - model: small\n  - _self_\nseed: 1\n",
		"conf/model/small.yaml": "layers: 2\n",
		"docs/_config.yml":      "title: site\ndefaults:\n  - scope:\n      path: \"\"\n    values:\n      layout: single\n",
		"docs/_data/nav.yml":    "main: []\n",
		"site/_config.yml":      "defaults:\n  - scope: {path: posts}\n",
		"site/scope/posts.yaml": "x: 1\n",
	})
	r := Compose(fs, "conf/train.yml", nil, Limits{})
	if got := problems(r); got != "" || r.Doc.Root.At("model.layers") == nil || r.Doc.Root.At("seed") == nil {
		t.Errorf("train.yml: problems %q, tree %v", got, r.Doc.Root)
	}
	runs, _ := Discover(fs, []string{"conf/train.yml", "conf/model/small.yaml", "docs/_config.yml", "docs/_data/nav.yml", "site/_config.yml", "site/scope/posts.yaml"})
	var got []string
	for _, s := range runs {
		got = append(got, s.Primary)
	}
	if strings.Join(got, " ") != "conf/train.yml" {
		t.Errorf("runs %q, want conf/train.yml alone", got)
	}
}

// TestDiscoverDefaultsWithSpace: `defaults :` is the same YAML key as `defaults:`
// (modulus-sym's examples write it so).
func TestDiscoverDefaultsWithSpace(t *testing.T) {
	fs := mapFS(map[string]string{
		"conf/config.yaml":      "defaults :\n  - arch: fc\n  - _self_\nx: 1\n",
		"conf/arch/fc.yaml":     "layers: 2\n",
		"conf/notes/other.yaml": "defaultsx: 1\n",
	})
	runs, frags := Discover(fs, []string{"conf/config.yaml", "conf/arch/fc.yaml", "conf/notes/other.yaml"})
	if len(runs) != 1 || runs[0].Primary != "conf/config.yaml" || !frags["conf/arch/fc.yaml"] {
		t.Errorf("runs %v fragments %v", runs, frags)
	}
	if r := Compose(fs, "conf/config.yaml", nil, Limits{}); r.Doc.Root.At("arch.layers") == nil {
		t.Errorf("not composed: %s", problems(r))
	}
}

// TestDiscoverFlowDefaults: a defaults list written in flow style on its line is read as the
// block one is (`defaults: [_self_, data: d, {exp: e}]`).
func TestDiscoverFlowDefaults(t *testing.T) {
	fs := mapFS(map[string]string{
		"conf/config.yaml": "defaults: [_self_, data: d, {exp: e}]  # flow\nx: 1\n",
		"conf/data/d.yaml": "root: /x\n",
		"conf/exp/e.yaml":  "# @package _global_\ny: ${data.root}\n",
	})
	runs, frags := Discover(fs, []string{"conf/config.yaml", "conf/data/d.yaml", "conf/exp/e.yaml"})
	if len(runs) != 1 || runs[0].Primary != "conf/config.yaml" || !frags["conf/exp/e.yaml"] {
		t.Errorf("runs %v fragments %v", runs, frags)
	}
	if got, ok := flowItems("defaults: [a, b: c, {d: e}]  # x"); !ok || strings.Join(got, "|") != "a|b: c|d: e" {
		t.Errorf("flowItems %q %v", got, ok)
	}
}

// TestListRootedOption: a group option whose file is a YAML list becomes its package's value
// (MLShukai/ami's devices/cuda.yaml), and the placements Hydra refuses are refused at the entry
// that loads it. Hydra's verdicts on the listroot tree are in TestComposeTreesLikeHydra.
func TestListRootedOption(t *testing.T) {
	tree := FromFS(os.DirFS("testdata/hydra-trees"))
	for _, tc := range []struct {
		primary   string
		overrides []string
		problem   string // "" for none
	}{
		{"config", nil, ""},
		{"atpkg", nil, ""},
		{"config", []string{"devices=global"}, `listroot/conf/config.yaml:5 option "global" of group "devices" is a list (listroot/conf/devices/global.yaml), and here it merges at the root`},
		{"atroot", nil, `listroot/conf/atroot.yaml:4 option "cuda" of group "devices" is a list`},
		{"here", nil, `listroot/conf/here.yaml:3 option "cuda" of group "devices" is a list`},
		{"overlap", nil, `listroot/conf/overlap.yaml:4 option "dict" of group "extra" merges at "devices", but an earlier config of the run made "devices" a list`},
		{"underlap", nil, `listroot/conf/underlap.yaml:4 option "cpu" of group "devices" is a list (listroot/conf/devices/cpu.yaml), and an earlier config of the run made "extra" a mapping`},
		{"selfover", nil, `listroot/conf/selfover.yaml:6 this mapping merges onto "devices", which an earlier config of the run set to a list`},
		{"config", []string{"devices.1=x"}, `:0 override "devices.1=x" names "1" in the list "devices" (length 1)`},
		{"config", []string{"~devices.0"}, `:0 override "~devices.0" names "0" in the list "devices"`},
	} {
		r := Compose(tree, "listroot/conf/"+tc.primary+".yaml", tc.overrides, Limits{})
		got := problems(r)
		if tc.problem == "" && got != "" || !strings.HasPrefix(got, tc.problem) {
			t.Errorf("%s %v: problems:\n%s\nwant %q", tc.primary, tc.overrides, got, tc.problem)
		}
		if tc.problem != "" && r.Problems[0].Kind != Refused {
			t.Errorf("%s %v: %v, want Refused", tc.primary, tc.overrides, r.Problems[0].Kind)
		}
	}
	r := Compose(tree, "listroot/conf/config.yaml", []string{"devices.0=cuda:1"}, Limits{})
	if d := r.Doc.Root.Get("devices"); d == nil || d.Kind != doc.Seq || d.Item(0).Value != "cuda:1" || r.Origin(d.Item(0)).Override != "devices.0=cuda:1" {
		t.Errorf("devices.0=cuda:1: devices %+v, problems %s", d, problems(r))
	}
	r = Compose(tree, "listroot/conf/atpkg.yaml", nil, Limits{})
	if d := r.Doc.Root.At("run.dev"); d == nil || d.Kind != doc.Seq || r.Origin(d).File != "listroot/conf/devices/cuda.yaml" {
		t.Errorf("atpkg: run.dev %+v", d)
	}
	// Through a list's scalar item: Hydra 1.3.2 composes +y.0.a=1 over y: [1, 2] as
	// [{a: 1}, 2] and ++y.1.b.c=2 as [1, {b: {c: 2}}], the item replaced in place.
	items := mapFS(map[string]string{"c/config.yaml": "y: [1, 2]\nref: ${y.0.a}\n"})
	for ov, want := range map[string]string{"+y.0.a=1": "y.0.a", "++y.1.b.c=2": "y.1.b.c"} {
		r = Compose(items, "c/config.yaml", []string{ov}, Limits{})
		y := r.Doc.Root.Get("y")
		if y == nil || len(y.Children) != 2 || r.Doc.Root.StepPath(want) == nil || problems(r) != "" {
			t.Errorf("%s: y %s, problems %s", ov, flat(y), problems(r))
		}
	}
}

// TestSweeperParams: the keys of hydra.sweeper.params are set in every job of a multirun, to
// values the run does not fix (checked with Hydra 1.3.2's BasicSweeper: ++key, +key and a key
// the config sets, swept over; a group's options swept). With hydra.mode MULTIRUN a value the
// config sets is no job's value and becomes unknown; without it (a launch may add --multirun)
// the keys are Unknown but the run's values stay.
func TestSweeperParams(t *testing.T) {
	for _, mode := range []string{"MULTIRUN", "RUN"} {
		fs := mapFS(map[string]string{
			"conf/train.yaml":          "defaults:\n  - _self_\n  - model: a\n  - experiment: null\nlr: 0.5\n",
			"conf/model/a.yaml":        "w: a\n",
			"conf/model/b.yaml":        "w: b\n",
			"conf/experiment/ens.yaml": "# @package _global_\nhydra:\n  mode: " + mode + "\n  sweeper:\n    params:\n      ++chunk_idx: range(0, 2, 1)\n      +other: x,y\n      lr: 0.1,0.2\n      model: a,b\n",
		})
		r := Compose(fs, "conf/train.yaml", []string{"experiment=ens"}, Limits{})
		if got := strings.Join(r.Unknown, " "); got != "chunk_idx other lr model" || problems(r) != "" {
			t.Errorf("%s: Unknown %q, problems %s", mode, got, problems(r))
		}
		lr := r.Doc.Root.Get("lr")
		if mode == "MULTIRUN" && (!lr.IsUnknown() || lr.Value != "0.1,0.2" || r.Origin(lr).File != "conf/experiment/ens.yaml") ||
			mode == "RUN" && lr.Value != "0.5" {
			t.Errorf("%s: lr %+v (origin %v)", mode, lr, r.Origin(lr))
		}
	}
}

// TestSweeperGroupAtPackage: a sweep of model@net makes the net package unknown, not model
// (Hydra 1.3.2, a multirun of model@net: small,big resolves ${net.extra} in every big job).
func TestSweeperGroupAtPackage(t *testing.T) {
	fs := mapFS(map[string]string{
		"conf/config.yaml":      "defaults:\n  - model@net: small\n  - _self_\nref: ${net.extra}\nhydra:\n  mode: MULTIRUN\n  sweeper:\n    params:\n      model@net: small,big\n",
		"conf/model/small.yaml": "width: 1\n",
		"conf/model/big.yaml":   "width: 2\nextra: 1\n",
	})
	r := Compose(fs, "conf/config.yaml", nil, Limits{})
	if got := strings.Join(r.Unknown, " "); got != "net" {
		t.Errorf("Unknown %q, want net", got)
	}
}

// TestOverrideEntryMissingOption: an experiment's `override /model: huge` names an option the
// tree lacks (RolnickLab/climart). Hydra stops ("In 'config': Could not find 'model/huge'",
// the experiment tree in TestComposeTreesLikeHydra); the problem is at the override, which
// names the option and is read only in the experiment's run, not at the primary's entry, which
// composes in every other run. A choice the command line fixes is not the override's.
func TestOverrideEntryMissingOption(t *testing.T) {
	tree := FromFS(os.DirFS("testdata/hydra-trees"))
	r := Compose(tree, "experiment/conf/config.yaml", []string{"experiment=missing"}, Limits{})
	want := `experiment/conf/experiment/missing.yaml:5 option "huge" of group "model" not found (experiment/conf/model/huge.yaml does not exist; an option Python code registers (Hydra's ConfigStore, a search path plugin) is not read; this override chooses it for the entry at experiment/conf/config.yaml:2, where Hydra reports it)`
	if got := problems(r); got != want {
		t.Errorf("problems:\n%s\nwant\n%s", got, want)
	}
	if r := Compose(tree, "experiment/conf/config.yaml", []string{"experiment=missing", "model=huge"}, Limits{}); !strings.HasPrefix(problems(r), `experiment/conf/config.yaml:2 option "huge" of group "model" not found (experiment/conf/model/huge.yaml does not exist; an option Python code registers (Hydra's ConfigStore, a search path plugin) is not read)`) {
		t.Errorf("model=huge on the command line: %s", problems(r))
	}
	if r := Compose(tree, "experiment/conf/config.yaml", []string{"experiment=missing", "model=big"}, Limits{}); problems(r) != "" {
		t.Errorf("model=big on the command line: %s", problems(r))
	}
	// An override naming the option the entry names too (lightning-hydra-template's
	// `override /data: mnist` when data/mnist.yaml is missing): the entry's option is missing in
	// every run, and is reported there, once.
	fs := mapFS(map[string]string{
		"c/config.yaml":       "defaults:\n  - data: mnist\n  - experiment: null\n  - _self_\n",
		"c/data/other.yaml":   "x: 1\n",
		"c/experiment/e.yaml": "# @package _global_\ndefaults:\n  - override /data: mnist\n",
	})
	if r := Compose(fs, "c/config.yaml", []string{"experiment=e"}, Limits{}); !strings.HasPrefix(problems(r), `c/config.yaml:2 option "mnist" of group "data" not found (c/data/mnist.yaml does not exist; an option Python code registers (Hydra's ConfigStore, a search path plugin) is not read)`) {
		t.Errorf("same option: %s", problems(r))
	}
}

// Hydra's own groups, chosen in the legacy form without `override` (Hydra before version_base
// 1.2 reads `hydra/job_logging: disabled` as an override): an option the tree does not hold is
// Hydra's or a plugin's (hydra/conf/hydra/job_logging/disabled.yaml at v1.3.2), so it is not
// reported missing and the run is read whole; an app group's missing option still is.
func TestHydraOwnGroupLegacyEntry(t *testing.T) {
	fs := mapFS(map[string]string{
		"c/config.yaml": "defaults:\n  - _self_\n  - hydra/job_logging: disabled\n  - hydra/launcher: submitit_slurm\n  - data: a\nlr: 0.1\n",
		"c/data/a.yaml": "x: 1\n",
	})
	r := Compose(fs, "c/config.yaml", nil, Limits{})
	if problems(r) != "" || r.Partial || len(r.Unknown) > 0 {
		t.Errorf("Hydra's own options: %s partial %v unknown %v", problems(r), r.Partial, r.Unknown)
	}
	fs = mapFS(map[string]string{"c/config.yaml": "defaults:\n  - _self_\n  - hydrax/job: disabled\n"})
	if r := Compose(fs, "c/config.yaml", nil, Limits{}); !strings.Contains(problems(r), `option "disabled" of group "hydrax/job" not found`) {
		t.Errorf("an app group's missing option: %s", problems(r))
	}
	// lightning-hydra-template's `- hydra: default` is the app's own hydra/default.yaml:
	// Hydra ships no such option, so one missing is reported.
	fs = mapFS(map[string]string{"c/config.yaml": "defaults:\n  - _self_\n  - hydra: default\n"})
	if r := Compose(fs, "c/config.yaml", nil, Limits{}); !strings.Contains(problems(r), `option "default" of group "hydra" not found`) {
		t.Errorf("the app's hydra option: %s", problems(r))
	}
}

// A primary whose defaults list loads its configs by path only (LeCAR-Lab's HumanoidVerse and
// ASAP: base.yaml lists `- base/hydra`, `- base/structure`, and is run with `+exp=locomotion`)
// is the run: its group folders' options (exp/*.yaml choosing `/algo: ppo`, env/*.yaml building
// on a sibling) are fragments, not runs of their folders, where `/algo` was sought in exp/algo/
// and ${experiment_name} named no key. A path naming no file, or a group option that loads a
// config of its own folder by path, makes no run.
func TestDiscoverPathOnlyPrimary(t *testing.T) {
	m := map[string]string{
		"config/base.yaml":           "defaults:\n  - _self_\n  - base/hydra\n  - /base/structure\nexperiment_name: TEST\nnum_envs: 8\n",
		"config/base/hydra.yaml":     "# @package _global_\nhydra:\n  job:\n    chdir: false\n",
		"config/base/structure.yaml": "# @package _global_\nalgo: ???\nenv: ???\n",
		"config/algo/ppo.yaml":       "lr: 0.1\n",
		"config/exp/legged.yaml":     "# @package _global_\ndefaults:\n  - /algo: ppo\n  - /env: legged\nexperiment_name: LEGGED\n",
		"config/env/legged.yaml":     "# @package _global_\ndefaults:\n  - base_task\nenv:\n  spacing: 5\n",
		"config/env/base_task.yaml":  "# @package _global_\nenv:\n  config:\n    experiment_name: ${experiment_name}\n    num_envs: ${num_envs}\n",
		"other/app.yaml":             "defaults:\n  - nothing/here\n  - _self_\nx: 1\n",
		"other/nothing/else.yaml":    "y: 2\n",
		"conf/train.yaml":            "defaults:\n  - model: big\n  - _self_\n",
		"conf/model/big.yaml":        "defaults:\n  - parts/enc\nwidth: 8\n",
		"conf/model/parts/enc.yaml":  "depth: 2\n",
	}
	got, frags := discoverTree(m)
	if got != "conf/train.yaml|config/base.yaml" {
		t.Errorf("runs %q", got)
	}
	for _, f := range []string{"config/exp/legged.yaml", "config/env/legged.yaml", "config/env/base_task.yaml", "conf/model/big.yaml"} {
		if !frags[f] {
			t.Errorf("%s is no fragment: %v", f, frags)
		}
	}
	r := Compose(mapFS(m), "config/base.yaml", []string{"+exp=legged"}, Limits{})
	if len(r.Problems) != 0 {
		t.Errorf("problems:\n%s", problems(r))
	}
	expect(t, r, "algo.lr", "0.1", "config/algo/ppo.yaml:1")
	expect(t, r, "hydra.job.chdir", "false", "config/base/hydra.yaml:4")
}

// TestLegacyPackages: under Hydra 1.0 and 0.11 (Cache.LegacyPackages) a group option without a
// @package header merges at the root (pytorch_sac's agent/sac.yaml writes its own agent: and
// double_q_critic: keys, which train.yaml's ${double_q_critic} names); one with a `_group_`
// header stays under its group. Hydra 1.1 and later put both under the group.
func TestLegacyPackages(t *testing.T) {
	files := mapFS(map[string]string{
		"config/train.yaml":       "defaults:\n  - agent: sac\n  - env: cheetah\ncritic: ${double_q_critic.dim}\nname: ${agent.name}\nsteps: ${env.steps}\n",
		"config/agent/sac.yaml":   "agent:\n  name: sac\ndouble_q_critic:\n  dim: 3\n",
		"config/env/cheetah.yaml": "# @package _group_\nsteps: 10\n",
	})
	for _, legacy := range []bool{false, true} {
		k := NewCache()
		k.LegacyPackages = legacy
		r := k.Compose(files, "config/train.yaml", nil, Limits{})
		got := 0
		for _, p := range r.Problems {
			if p.Kind == Unresolved {
				got++
			}
		}
		if legacy && (got != 0 || r.Doc.Root.At("double_q_critic.dim") == nil || r.Doc.Root.At("env.steps") == nil) || !legacy && r.Doc.Root.At("agent.agent.name") == nil {
			t.Errorf("legacy %v: %d unresolved %+v", legacy, got, r.Problems)
		}
	}
}

// TestStoreGroups: an option missing from the tree that the repository's Python registers with
// Hydra's ConfigStore (Cache.StoreGroups: "group/name", as modulus-sym registers
// arch/fully_connected) is not reported missing; another option is.
func TestStoreGroups(t *testing.T) {
	files := mapFS(map[string]string{
		"config/config.yaml": "defaults:\n  - criterion: cross_entropy\n  - lr_scheduler: fixed\n  - _self_\nseed: 1\n",
	})
	for _, tc := range []struct {
		groups map[string]bool
		want   int
	}{
		{nil, 2},
		{map[string]bool{"criterion/cross_entropy": true}, 1},
		{map[string]bool{"criterion/cross_entropy": true, "lr_scheduler/cosine": true}, 1},
		{map[string]bool{"criterion/cross_entropy": true, "lr_scheduler/fixed": true}, 0},
	} {
		k := NewCache()
		k.StoreGroups = tc.groups
		r := k.Compose(files, "config/config.yaml", nil, Limits{})
		got := 0
		for _, p := range r.Problems {
			if p.Kind == Unresolved && strings.Contains(p.Message, "not found") {
				got++
			}
		}
		if got != tc.want {
			t.Errorf("groups %v: %d missing options, want %d: %+v", tc.groups, got, tc.want, r.Problems)
		}
	}
}

// NamesAbove: a defaults entry naming a config out of the config directory, from the file's
// folder (a group option's `../optim` stays in), absolute ones from the top.
func TestNamesAbove(t *testing.T) {
	for _, tc := range []struct {
		text, dir string
		want      bool
	}{
		{"defaults:\n  - ../paths@paths: general_paths\n  - _self_\n", "", true},
		{"defaults:\n  - ../paths/general_paths\n", "", true},
		{"defaults:\n  - optional /../x: y\n", "actor", true},
		{"defaults:\n  - ../optim@optim: fsdp\n", "actor", false},
		{"defaults:\n  - ../../escape@x: no\n", "actor", true},
		{"defaults:\n  - model: ../x\n  - /model@m: a\n", "", false},
		{"x: ../y\n", "", false},
	} {
		if got := NamesAbove([]byte(tc.text), tc.dir); got != tc.want {
			t.Errorf("%q in %q: %v, want %v", tc.text, tc.dir, got, tc.want)
		}
	}
}

// TestStoreGroupsPlainConfig: a config of no group missing from the tree that the
// repository's Python registers with Hydra's ConfigStore by name (Cache.StoreGroups "config",
// as dpr-scale's conf/config.py stores MainConfig for nq.yaml's `- config`) is not reported
// missing, and what it sets is unknown (the run is partial: the override of a group its
// defaults list may hold is no refusal); a name registered under a group, or another name,
// does not count.
func TestStoreGroupsPlainConfig(t *testing.T) {
	files := mapFS(map[string]string{
		"conf/nq.yaml":            "defaults:\n  - config\n  - override trainer: slurm\ntrainer:\n  max_epochs: 40\n",
		"conf/trainer/slurm.yaml": "devices: 8\n",
	})
	for _, tc := range []struct {
		stored map[string]bool
		want   int
	}{
		{nil, 1},
		{map[string]bool{"config": true}, 0},
		{map[string]bool{"base_config": true, "model/config": true}, 1},
	} {
		k := NewCache()
		k.StoreGroups = tc.stored
		r := k.Compose(files, "conf/nq.yaml", nil, Limits{})
		got := 0
		for _, p := range r.Problems {
			if p.Kind == Unresolved && strings.Contains(p.Message, `config "config" not found`) {
				got++
			}
		}
		if got != tc.want || !r.Partial || len(r.Problems) != tc.want {
			t.Errorf("stored %v: %d missing (want %d), partial %v: %+v", tc.stored, got, tc.want, r.Partial, r.Problems)
		}
	}
}

// TestStoreGroupsFolderGroup: a primary in a folder named as a group the repository's Python
// registers options of (FLSim's trainer/sync_trainer.yaml, composed from the folder above)
// names one of them relatively (`- base_sync_trainer`): Hydra resolves it in that group, so it is
// not reported missing; a name the group does not register still is.
func TestStoreGroupsFolderGroup(t *testing.T) {
	files := mapFS(map[string]string{
		"res/trainer/sync_trainer.yaml": "defaults:\n  - base_sync_trainer\n  - /aggregator: fedavg\nepochs: 1\n",
	})
	for _, tc := range []struct {
		stored map[string]bool
		want   int
	}{
		{map[string]bool{"aggregator/fedavg": true}, 1},
		{map[string]bool{"aggregator/fedavg": true, "model/base_sync_trainer": true}, 1},
		{map[string]bool{"aggregator/fedavg": true, "trainer/base_sync_trainer": true}, 0},
	} {
		k := NewCache()
		k.StoreGroups = tc.stored
		r := k.Compose(files, "res/trainer/sync_trainer.yaml", nil, Limits{})
		got := 0
		for _, p := range r.Problems {
			if p.Kind == Unresolved {
				got++
			}
		}
		if got != tc.want {
			t.Errorf("stored %v: %d unresolved, want %d: %+v", tc.stored, got, tc.want, r.Problems)
		}
	}
}

// TestGinForkIncludes: a repository pinning HorizonRobotics' gin-config fork (Cache.GinFork)
// has its included gin files read in the fork's grammar too, so their bindings reach the run;
// in upstream grammar the include does not parse and its bindings are not there.
func TestGinForkIncludes(t *testing.T) {
	m := map[string]string{
		"alf/base.gin": "TrainerConfig.num_iterations = 100\nSacAlgorithm.actor_optimizer = @AdamTF(lr=3e-4)\n",
		"alf/run.gin":  "include 'base.gin'\nTrainerConfig.eval_interval = 10\n",
	}
	for fork, want := range map[bool]bool{true: true, false: false} {
		k := NewCache()
		k.GinFork = fork
		r := k.Compose(mapFS(m), "alf/run.gin", nil, Limits{})
		if got := r.Doc.Root.At("TrainerConfig.num_iterations") != nil; got != want {
			t.Errorf("GinFork %v: num_iterations in the run %v, want %v; problems:\n%s", fork, got, want, problems(r))
		}
	}
}

// A later `key: ???` does not erase what an earlier config set: OmegaConf's merge keeps the
// destination's node when the source's value is missing (BaseContainer._map_merge,
// src_node_missing; checked with OmegaConf 2.2.2: merging {net: ???, x: ???} onto {net: {a: 1},
// x: 5} keeps both; 2.0, Hydra 1.0's, replaced it, basecontainer.py v2.0.6). superpoint_transformer's model/default.yaml ends with `net: ???` and is
// included again after _point.yaml set net.point_cnn_blocks; a key nothing set stays missing.
func TestComposeMissingKeepsEarlierValue(t *testing.T) {
	files := map[string]string{
		"conf/train.yaml":       "defaults:\n  - _self_\n  - model: spt2\n",
		"conf/model/spt2.yaml":  "# @package model\ndefaults:\n  - /model/spt\nnet:\n  a: 1\n",
		"conf/model/spt.yaml":   "# @package model\ndefaults:\n  - /model/base\n  - /model/point\n  - /model/down\n",
		"conf/model/base.yaml":  "# @package model\nx: ${model.net.point_cnn_blocks}\nnet: ???\nlr: ???\nsize: ???\n",
		"conf/model/point.yaml": "# @package model\nnet:\n  point_cnn_blocks: false\nlr: 0.01\n",
		"conf/model/down.yaml":  "# @package model\ndefaults:\n  - /model/base\n",
	}
	r := Compose(mapFS(files), "conf/train.yaml", nil, Limits{})
	for _, p := range r.Problems {
		t.Errorf("problem: %+v", p)
	}
	expect(t, r, "model.net.point_cnn_blocks", "false", "conf/model/point.yaml:3")
	expect(t, r, "model.net.a", "1", "conf/model/spt2.yaml:5")
	expect(t, r, "model.lr", "0.01", "conf/model/point.yaml:4")
	expect(t, r, "model.size", "???", "conf/model/base.yaml:5")
	// Hydra 1.0's OmegaConf 2.0 let the missing value replace the earlier one.
	k := NewCache()
	k.LegacyPackages = true
	r = k.Compose(mapFS(files), "conf/train.yaml", nil, Limits{})
	expect(t, r, "model.lr", "???", "conf/model/base.yaml:4")
}

// A group every launch must choose (`- data: ???`) makes each option of its folder a run, and
// the primary alone (which Hydra refuses) none; two such groups, an optional entry, a search
// path, an existing default or a missing one (its options may be written for other primaries)
// leave the primary alone as before.
func TestDiscoverGroupChosenOnLaunch(t *testing.T) {
	opts := map[string]string{
		"conf/data/mp20.yaml":         "batch_size: 256\n",
		"conf/data/perov.yaml":        "defaults:\n  - base_data\nbatch_size: 128\n",
		"conf/data/base_data.yaml":    "num_workers: 0\n",
		"conf/trainer/default.yaml":   "max_epochs: 10\n",
		"conf/model/vae.yaml":         "z: 1\n",
		"conf/model/encoder/big.yaml": "w: 1\n",
	}
	for primary, want := range map[string]string{
		"defaults:\n  - data: ???\n  - trainer: default\n  - _self_\n":          "conf/train.yaml data=mp20|conf/train.yaml data=perov",
		"defaults:\n  - data: '???'  # pick one\n  - trainer: default\n":        "conf/train.yaml data=mp20|conf/train.yaml data=perov",
		"defaults:\n  - data: default\n  - trainer: default\n":                  "conf/train.yaml",
		"defaults:\n  - data@dm: ???\n":                                         "conf/train.yaml data@dm=mp20|conf/train.yaml data@dm=perov",
		"defaults:\n  - data: mp20\n  - trainer: default\n":                     "conf/train.yaml",
		"defaults:\n  - optional data: default\n  - trainer: default\n":         "conf/train.yaml",
		"defaults:\n  - data: ???\n  - model: ???\n":                            "conf/train.yaml",
		"defaults:\n  - data: ???\n  - override hydra/launcher: joblib\n":       "conf/train.yaml data=mp20|conf/train.yaml data=perov",
		"defaults:\n  - data: ???\nhydra:\n  searchpath:\n    - pkg://x.conf\n": "conf/train.yaml",
		"defaults:\n  - trainer: ???\n  - data: mp20\n":                         "conf/train.yaml trainer=default",
		"defaults:\n  - model: vae\n  - model/encoder: ???\n":                   "conf/train.yaml model/encoder=big",
	} {
		m := map[string]string{"conf/train.yaml": primary}
		for k, v := range opts {
			m[k] = v
		}
		if got, _ := discoverTree(m); got != want {
			t.Errorf("%q: runs %q, want %q", primary, got, want)
		}
	}
}

// Two entries of one group with different options: Hydra 1.1 and later stop at start-up
// ("Multiple values for agent."); Hydra 1.0 (LegacyPackages) merges both in turn, as
// zhejz/carla-roach, pinned to hydra-core 1.0.3, relies on.
func TestRepeatedGroupEntryByHydraVersion(t *testing.T) {
	files := map[string]string{
		"config/main.yaml":    "defaults:\n  - agent: x\n  - agent: y\n",
		"config/agent/x.yaml": "# @package _group_\nroaming:\n  speed: 1\n",
		"config/agent/y.yaml": "# @package _group_\nppo:\n  lr: 0.1\n",
	}
	r := Compose(mapFS(files), "config/main.yaml", nil, Limits{})
	if len(r.Problems) != 1 || r.Problems[0].Kind != Refused || !strings.Contains(r.Problems[0].Message, "Multiple values for agent.") {
		t.Errorf("Hydra 1.3: problems %+v, want the refusal", r.Problems)
	}
	k := NewCache()
	k.LegacyPackages = true
	r = k.Compose(mapFS(files), "config/main.yaml", nil, Limits{})
	if len(r.Problems) != 0 {
		t.Errorf("Hydra 1.0: problems %+v, want none", r.Problems)
	}
	expect(t, r, "agent.roaming.speed", "1", "config/agent/x.yaml:3")
	expect(t, r, "agent.ppo.lr", "0.1", "config/agent/y.yaml:3")
}

// TestGinIncludeOfInstalledT5X: an include of T5X's own configs (t5x/configs/...) that the tree
// does not hold says that T5X's train.py also looks in its installed package (always on gin's
// search path), which was not read; another missing include, or one in a fork of T5X itself, is
// not found in the tree.
func TestGinIncludeOfInstalledT5X(t *testing.T) {
	m := map[string]string{
		"configs/ft.gin": "include 't5x/configs/runs/finetune.gin'\ninclude 'configs/missing.gin'\ninclude 't5x/t5x/configs/runs/eval.gin'\nTRAIN_STEPS = 10\n",
	}
	r := Compose(mapFS(m), "configs/ft.gin", nil, Limits{})
	got := problems(r)
	for _, want := range []string{
		`include "t5x/configs/runs/finetune.gin" is not in the tree; T5X's train.py also looks for it in the installed t5x package, which was not read`,
		`include "configs/missing.gin" not found in the tree`,
		`include "t5x/t5x/configs/runs/eval.gin" not found in the tree`, // a clone below the working folder
	} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in\n%s", want, got)
		}
	}
	// A fork of T5X holds the package itself: what is not in the tree is nowhere.
	m["t5x/train.py"] = "import gin\n"
	m["t5x/configs/runs/pretrain.gin"] = "include 't5x/configs/runs/pretrain_deterministic.gin'\nTRAIN_STEPS = 10\n"
	r = Compose(mapFS(m), "t5x/configs/runs/pretrain.gin", nil, Limits{})
	if got := problems(r); !strings.Contains(got, `include "t5x/configs/runs/pretrain_deterministic.gin" not found in the tree`) {
		t.Errorf("a fork of T5X: %s", got)
	}
}
