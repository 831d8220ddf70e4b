//go:build !trainlint_lite

package compose

import (
	"strings"
	"testing"
)

// A project's shared config module and the configs built from it, as scenic writes them
// (written here for the test: a get_config that starts from `get_base()` of the project's
// configs/common.py, or returns the project's other config called with arguments).
var callTree = map[string]string{
	"proj/configs/common.py": `import ml_collections

_STEPS = 1000


def get_base(batch=32, name='base'):
  config = ml_collections.ConfigDict()
  config.experiment_name = name
  config.batch_size = batch
  config.num_training_steps = _STEPS
  config.checkpoint_steps = 100
  config.dataset_configs = ml_collections.ConfigDict()
  config.dataset_configs.prefetch_to_device = 2
  return config
`,
	"proj/configs/small.py": `from proj.configs.common import get_base


def get_config():
  config = get_base()
  config.batch_size = 8
  config.dataset_configs.prefetch_to_device = 1
  config.log_eval_steps = config.checkpoint_steps
  return config
`,
	"proj/configs/named.py": `from proj.configs import common as base_module


def get_config():
  return base_module.get_base(batch=64, name='named')
`,
	"proj/configs/chained.py": `from proj.configs import named


def get_config():
  config = named.get_config()
  config.experiment_name = 'chained'
  return config
`,
	"proj/configs/holder.py": `import ml_collections
from proj.configs.common import get_base


def get_config():
  config = ml_collections.ConfigDict()
  config.run = get_base(16)
  config.seed = 0
  return config
`,
}

func composeCall(t *testing.T, files map[string]string, primary string) *Run {
	t.Helper()
	return NewCache().Compose(mapFS(files), primary, nil, Limits{})
}

// The caller's value is the callee's, with the caller's changes applied in order: an unchanged
// value points at the callee's file, a changed one at the caller's line.
func TestCallComposesCalleeAndEdits(t *testing.T) {
	r := composeCall(t, callTree, "proj/configs/small.py")
	if r.Doc.Root == nil {
		t.Fatalf("no tree; problems %+v", r.Problems)
	}
	expect(t, r, "batch_size", "8", "proj/configs/small.py:6")
	expect(t, r, "dataset_configs.prefetch_to_device", "1", "proj/configs/small.py:7")
	expect(t, r, "num_training_steps", "1000", "proj/configs/common.py:3") // _STEPS
	expect(t, r, "experiment_name", "base", "proj/configs/common.py:6")    // the default
	// A read of what the call returned, after it: Python reads the callee's value.
	expect(t, r, "log_eval_steps", "100", "proj/configs/common.py:11")
	if len(r.Files) != 2 || r.Files[1].Path != "proj/configs/common.py" {
		t.Errorf("run files %v", r.Files)
	}
	if r.Doc.Root.Style != "get_config" {
		t.Errorf("root style %q", r.Doc.Root.Style)
	}
}

// Arguments the caller passes reach the callee's parameters; a config that is itself built by a
// call is followed in turn.
func TestCallArgumentsAndChains(t *testing.T) {
	r := composeCall(t, callTree, "proj/configs/named.py")
	expect(t, r, "batch_size", "64", "proj/configs/named.py:5") // where the caller wrote it
	expect(t, r, "experiment_name", "named", "proj/configs/named.py:5")
	expect(t, r, "checkpoint_steps", "100", "proj/configs/common.py:11")
	// A key span is in the node's own file: the caller's argument has none (its value is where
	// a finding at its key points); an unchanged value keeps the callee's key.
	if n := r.Doc.Root.At("batch_size"); !n.KeySpan.IsZero() {
		t.Errorf("batch_size from the caller's argument has the callee's key span %+v", n.KeySpan)
	}
	if n := r.Doc.Root.At("checkpoint_steps"); n.KeySpan.Start.Line != 11 {
		t.Errorf("checkpoint_steps key span %+v", n.KeySpan)
	}
	r = composeCall(t, callTree, "proj/configs/chained.py")
	expect(t, r, "batch_size", "64", "proj/configs/named.py:5")
	expect(t, r, "experiment_name", "chained", "proj/configs/chained.py:6")
	r = composeCall(t, callTree, "proj/configs/holder.py")
	expect(t, r, "run.batch_size", "16", "proj/configs/holder.py:7")
	expect(t, r, "run.experiment_name", "base", "proj/configs/common.py:6")
	expect(t, r, "seed", "0", "proj/configs/holder.py:8")
}

// What the reader cannot follow leaves the run without a tree, as the file read alone has: a
// module outside the tree, a call with an argument it does not know, a call in a loop, the
// config given to a function it does not read (big_vision's format_str(s, config)).
func TestCallNotFollowedHasNoTree(t *testing.T) {
	cases := map[string]string{
		"outside":          "from other.pkg.configs import base\n\ndef get_config():\n  return base.get_config()\n",
		"unknown argument": "import os\nfrom proj.configs.common import get_base\n\ndef get_config():\n  return get_base(int(os.environ['B']))\n",
		"no such function": "from proj.configs.common import get_other\n\ndef get_config():\n  return get_other()\n",
		"loop":             "from proj.configs.common import get_base\n\ndef get_config():\n  c = None\n  for b in [1, 2]:\n    c = get_base(b)\n  return c\n",
		"given away":       "import ml_collections\nfrom other import helpers\n\ndef get_config():\n  c = ml_collections.ConfigDict()\n  c.ckpt_steps = 1000\n  helpers.fill(c)\n  return c\n",
	}
	for name, src := range cases {
		files := map[string]string{"proj/configs/common.py": callTree["proj/configs/common.py"], "proj/configs/x.py": src}
		r := composeCall(t, files, "proj/configs/x.py")
		if r.Doc.Root != nil {
			t.Errorf("%s: a tree %s", name, flat(r.Doc.Root))
		}
	}
}

// ml_collections' update is not modelled: the part it changes is unknown. An assignment under
// a part the callee does not set is Python's AttributeError: a problem naming the call; under
// a part whose value the reader does not know, no problem (Python may find it there).
func TestCallEditsNotFollowed(t *testing.T) {
	files := map[string]string{
		"proj/configs/common.py": strings.Replace(callTree["proj/configs/common.py"], "  return config\n",
			"  config.aug = augment.make()\n  return config\n", 1) + "\nfrom other import augment\n",
		"proj/configs/x.py": `from proj.configs.common import get_base


def get_config():
  config = get_base()
  config.dataset_configs.update(prefetch_to_device=4)
  config.model.depth = 50
  config.aug.level = 3
  return config
`,
	}
	r := composeCall(t, files, "proj/configs/x.py")
	if r.Doc.Root == nil {
		t.Fatalf("no tree; problems %+v", r.Problems)
	}
	if n := r.Doc.Root.At("dataset_configs"); n == nil || !n.IsUnknown() {
		t.Errorf("dataset_configs after update: %s", flat(n))
	}
	msgs := problemMessages(r)
	want := "get_base().model.depth is assigned, but what get_base() returns does not set what it is part of"
	if len(msgs) != 1 || msgs[0] != want {
		t.Errorf("problems %q, want %q", msgs, want)
	}
}

// A module that calls itself back, directly or through another, is not followed (Python
// refuses no recursion; the value stays unknown) and is no problem; nothing hangs.
func TestCallCycle(t *testing.T) {
	files := map[string]string{
		"proj/configs/a.py": "from proj.configs import b\n\ndef get_config():\n  return b.get_config()\n",
		"proj/configs/b.py": "from proj.configs import a\n\ndef get_config():\n  return a.get_config()\n",
		"proj/configs/c.py": "import ml_collections\nfrom proj.configs import c\n\ndef get_config():\n  x = ml_collections.ConfigDict()\n  x.y = c.part()\n  return x\n\ndef part():\n  return ml_collections.ConfigDict(dict(k=1))\n",
	}
	for _, p := range []string{"proj/configs/a.py", "proj/configs/c.py"} {
		r := composeCall(t, files, p)
		if len(r.Problems) != 0 {
			t.Errorf("%s: problems %+v", p, r.Problems)
		}
		if p == "proj/configs/a.py" && r.Doc.Root != nil {
			t.Errorf("a tree from a cycle: %s", flat(r.Doc.Root))
		}
		if p == "proj/configs/c.py" && flat(r.Doc.Root) != "{y:?}" {
			t.Errorf("c.py: %s", flat(r.Doc.Root))
		}
	}
}

// Discovery: a config built with a call is a run; the module it calls is not a fragment (a
// config of its own is still linted alone).
func TestDiscoverCallRuns(t *testing.T) {
	got, frags := discoverTree(callTree)
	if got != "proj/configs/chained.py|proj/configs/holder.py|proj/configs/named.py|proj/configs/small.py" {
		t.Errorf("runs %q", got)
	}
	if len(frags) != 0 {
		t.Errorf("fragments %v", frags)
	}
}

// A file of many calls, or a chain that fans out, ends with a Limit problem: every call reads
// a module, and a chain of modules each calling the next twice would otherwise be read until
// the run's bound on loads (10,000 by default).
func TestCallReadsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("import ml_collections\nfrom proj.configs import m0\n\ndef get_config():\n  c = ml_collections.ConfigDict()\n")
	for i := range 200 {
		b.WriteString("  c.x" + itoa(i) + " = m0.f()\n")
	}
	b.WriteString("  return c\n")
	many := map[string]string{"proj/configs/x.py": b.String(), "proj/configs/m0.py": "import ml_collections\n\ndef f():\n  return ml_collections.ConfigDict()\n"}
	fan := map[string]string{"proj/configs/x.py": "from proj.configs import m0\n\ndef get_config():\n  return m0.f()\n"}
	for k := range 20 {
		fan["proj/configs/m"+itoa(k)+".py"] = "import ml_collections\nfrom proj.configs import m" + itoa(k+1) +
			"\n\ndef f():\n  c = ml_collections.ConfigDict()\n  c.a = m" + itoa(k+1) + ".f()\n  c.b = m" + itoa(k+1) + ".f()\n  return c\n"
	}
	fan["proj/configs/m20.py"] = "import ml_collections\n\ndef f():\n  return ml_collections.ConfigDict()\n"
	for name, files := range map[string]map[string]string{"many calls": many, "fan-out": fan} {
		r := composeCall(t, files, "proj/configs/x.py")
		limit := 0
		for _, p := range r.Problems {
			if p.Kind == Limit && strings.Contains(p.Message, "functions of other modules") {
				limit++
			}
		}
		if limit != 1 {
			t.Errorf("%s: problems %+v", name, r.Problems)
		}
	}
}

// composeCaller composes proj/configs/x.py, a get_config that keeps get_base() of callTree's
// common.py under config.base and then runs body (lines indented by two spaces).
func composeCaller(t *testing.T, body string) *Run {
	t.Helper()
	files := map[string]string{
		"proj/configs/common.py": callTree["proj/configs/common.py"],
		"proj/configs/x.py": "import ml_collections\nfrom proj.configs.common import get_base\n\n\ndef get_config():\n" +
			"  config = ml_collections.ConfigDict()\n  config.base = get_base()\n" + body + "  return config\n",
	}
	r := composeCall(t, files, "proj/configs/x.py")
	if r.Doc.Root == nil {
		t.Fatalf("no tree; problems %+v", r.Problems)
	}
	return r
}

// A FieldReference the caller puts into what a call returned may be set by a later assignment
// there, which the bases' edits do not follow: every field holding it is unknown.
func TestCallFieldReferenceInBases(t *testing.T) {
	r := composeCaller(t, "  r = ml_collections.FieldReference(5)\n  config.base.batch_size = r\n  config.x = r\n  config.base.batch_size = 6\n")
	if n := r.Doc.Root.At("x"); n == nil || !n.IsUnknown() {
		t.Errorf("x: %s", flat(n))
	}
}

// What a call returned, kept in a field of the caller's own config, is changed through that
// field (Python's same object): never the callee's value where the caller set another. The
// reader leaves such a part unknown (the edit comes after a read of the container: baseFinish).
func TestCallEditedThroughField(t *testing.T) {
	r := composeCaller(t, "  config.base.batch_size = 5\n  config.base['checkpoint_steps'] = 7\n"+
		"  config.base.dataset_configs.update(prefetch_to_device=4)\n  config.seed = 1\n")
	expect(t, r, "seed", "1", "proj/configs/x.py:11")
	for k, set := range map[string]string{"base.batch_size": "5", "base.checkpoint_steps": "7", "base.dataset_configs.prefetch_to_device": "4"} {
		if n := r.Doc.Root.StepPath(k); n != nil && !n.IsUnknown() && n.Value != set {
			t.Errorf("%s = %s, the callee's value where the caller set %s", k, n.Value, set)
		}
	}
	if r.Doc.Root.At("base") == nil {
		t.Errorf("no base: %s", flat(r.Doc.Root))
	}
}

// score_sde's layout (configs/default_cifar10_configs.py's get_default_configs, which the
// configs of configs/ve/ start from; FLIP's configs/default.py get_config, which its
// cfg_flip_*.py start from), written here for the test.
var sdeTree = map[string]string{
	"configs/default_cifar10_configs.py": "import ml_collections\nimport torch\n\n\ndef get_default_configs():\n  config = ml_collections.ConfigDict()\n  config.training = training = ml_collections.ConfigDict()\n  training.batch_size = 128\n  config.eval = evaluate = ml_collections.ConfigDict()\n  evaluate.batch_size = 1024\n  config.device = torch.device('cpu')\n  return config\n",
	"configs/ve/small.py":                "from configs.default_cifar10_configs import get_default_configs\n\n\ndef get_config():\n  config = get_default_configs()\n  training = config.training\n  training.batch_size = 8\n  return config\n",
	"configs/default.py":                 "import ml_collections\n\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n  config.batch_size = 4096\n  return config\n",
	"configs/cfg_base.py":                "import configs.default as default\n\n\ndef get_config():\n  config = default.get_config()\n  config.num_epochs = 100\n  return config\n",
	"configs/chained.py":                 "from configs import cfg_base\n\n\ndef get_config():\n  return cfg_base.get_config()\n",
	"configs/plain.py":                   "def get_default_configs():\n  return dict(batch_size=8)\n",
	"configs/on_plain.py":                "from configs.plain import get_default_configs\n\n\ndef get_config():\n  return get_default_configs()\n",
}

// Run.Doc.ConfigDict: a run whose root is the ConfigDict a repository module's
// get_default_configs or get_config made is an ml_collections config (the CLI walks it and lints
// its run when no dialect reads it); what another helper made (scenic's get_base, vmoe's
// get_base_config) or a plain dict is not marked.
func TestCallConfigDictRun(t *testing.T) {
	r := composeCall(t, sdeTree, "configs/ve/small.py")
	expect(t, r, "training.batch_size", "8", "configs/ve/small.py:7")
	expect(t, r, "eval.batch_size", "1024", "configs/default_cifar10_configs.py:10")
	for primary, want := range map[string]bool{
		"configs/ve/small.py":     true,
		"configs/cfg_base.py":     true,
		"configs/chained.py":      true,
		"configs/default.py":      true, // made in the file
		"configs/on_plain.py":     false,
		"proj/configs/small.py":   false, // get_base()
		"proj/configs/holder.py":  true,  // its own ConfigDict, holding get_base()'s
		"proj/configs/chained.py": false, // named.get_config() returns get_base()'s
	} {
		files := map[string]string{}
		for k, v := range sdeTree {
			files[k] = v
		}
		for k, v := range callTree {
			files[k] = v
		}
		r := composeCall(t, files, primary)
		if r.Doc.Root == nil {
			t.Errorf("%s: no tree; problems %+v", primary, r.Problems)
			continue
		}
		if r.Doc.ConfigDict != want {
			t.Errorf("%s: ConfigDict %v, want %v", primary, r.Doc.ConfigDict, want)
		}
	}
}
