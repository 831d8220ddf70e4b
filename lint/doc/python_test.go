package doc

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func pyGet(t *testing.T, d *Document, path string) *Node {
	t.Helper()
	n := d.Root.At(path)
	if n == nil {
		t.Fatalf("no %s", path)
	}
	return n
}

// wantValues asserts that each path of want (stepping through lists) is known in the tree
// under root with that value; label starts each message (lint's code_runs_test.go has its twin
// for composed runs).
// pyTree reads src as a Python config (c.py) and stops the test when it gives no tree.
func pyTree(t *testing.T, src string) *Document {
	t.Helper()
	d := Parse("c.py", []byte(src), Python, Limits{})
	if d.Root == nil {
		t.Fatalf("no tree: %+v", d.Problems)
	}
	return d
}

func wantValues(t *testing.T, root *Node, label string, want map[string]string) {
	t.Helper()
	for k, w := range want {
		if n := root.StepPath(k); n == nil || n.IsUnknown() || n.Value != w {
			t.Errorf("%s%s = %+v, want %s", label, k, n, w)
		}
	}
}

// wantUnknown asserts that each of paths is in d's tree and unknown.
func wantUnknown(t *testing.T, d *Document, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if n := d.Root.At(p); n == nil || !n.IsUnknown() {
			t.Errorf("%s = %+v, want unknown", p, n)
		}
	}
}

func TestPythonGetConfig(t *testing.T) {
	src := `import ml_collections as mlc
import big_vision.configs.common as bvcc

BASE = {'small': 256, 'big': 4096}

def get_config(arg=None):
  arg = bvcc.parse_arg(arg, variant='B/16', size='big', runlocal=False)
  config = mlc.ConfigDict()
  config.seed = 0
  config.input = dict()
  config.input.batch_size = BASE[arg.size]  # trainlint: disable=TL202 -- fine
  config.input.prefetch = 8 if not arg.runlocal else 1
  config.total_steps = 10 * 1_000
  config.name = f'vit-{arg.variant}-{config.seed}'
  config.evals = {}
  for name in ['val', 'v2']:
    config.evals[name] = dict(type='classification', log_steps=1000, batch_size=config.input.batch_size // 2)
  config.layers = [i * 2 for i in range(3) if i != 1]
  config.opaque = some_module.fn(3)
  if arg.unknown_flag:
    config.tainted = 1
  def helper(x, scale=2):
    return x * scale
  config.helped = helper(21)
  return config
`
	d := mustParse(t, Python, src)
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	if err := checkSpanText(d); err != nil {
		t.Fatal(err)
	}
	if d.Root.Style != "get_config" || !IsPythonConfig(d) {
		t.Errorf("root style %q", d.Root.Style)
	}
	bs := pyGet(t, d, "input.batch_size")
	if v, _ := bs.Int(); v != 4096 || text(d, bs.KeySpan) != "batch_size" || bs.KeySpan.Start.Line != 11 || bs.Span.Start.Line != 4 {
		t.Errorf("batch_size: %+v", bs)
	}
	if v, _ := pyGet(t, d, "input.prefetch").Int(); v != 8 {
		t.Error("prefetch")
	}
	if n := pyGet(t, d, "total_steps"); n.Value != "10000" || n.Style != "python" {
		t.Errorf("total_steps %+v", n)
	}
	if n := pyGet(t, d, "name"); n.Value != "vit-B/16-0" {
		t.Errorf("f-string: %q", n.Value)
	}
	if n := pyGet(t, d, "evals.v2.batch_size"); n.Value != "2048" {
		t.Errorf("loop: %+v", n)
	}
	if n := pyGet(t, d, "layers"); len(n.Children) != 2 || n.Children[1].Value != "4" {
		t.Errorf("comprehension: %+v", n)
	}
	if n := pyGet(t, d, "opaque"); !n.IsUnknown() || n.Value != "some_module.fn(3)" {
		t.Errorf("opaque: %+v", n)
	}
	if n := pyGet(t, d, "helped"); n.Value != "42" {
		t.Errorf("helper: %+v", n)
	}
	if n := d.Root.Get("tainted"); n == nil || !n.IsUnknown() {
		t.Errorf("a key set under an unknown condition must be unknown: %+v", n)
	}
	if len(d.Comments) != 1 || !d.Comments[0].Trailing {
		t.Errorf("comments %+v", d.Comments)
	}
	if len(d.Refs) != 2 || d.Refs[0].Target != "ml_collections" {
		t.Errorf("refs %+v", d.Refs)
	}
}

// TestPythonParenthesizedSpans: an expression that begins or ends with a parenthesised one
// spans its parentheses (as Python's own positions do), so an opaque value shows what is
// written and an edit of the value would not leave a parenthesis behind.
func TestPythonParenthesizedSpans(t *testing.T) {
	src := "big = -(2**63)\nneg = (-2**63) % -1\nscaled = (1e-4 / 256) * 8\nattr = (a + b).c\nwrapped = (\n  'x' +\n  'y'\n)\nbare = (32)\n"
	d := mustParse(t, Python, src)
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	if err := checkSpanText(d); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"big":     "-(2**63)",
		"neg":     "(-2**63) % -1",
		"scaled":  "(1e-4 / 256) * 8",
		"attr":    "(a + b).c",
		"wrapped": "(\n  'x' +\n  'y'\n)",
		"bare":    "(32)",
	} {
		if n := pyGet(t, d, key); text(d, n.Span) != want {
			t.Errorf("%s spans %q, want %q", key, text(d, n.Span), want)
		}
	}
	// A parenthesised number is not a bare literal: no fix rewrites it as one.
	if n := pyGet(t, d, "bare"); n.Value != "32" || n.Style != "python" {
		t.Errorf("bare: %+v", n)
	}
	if n := pyGet(t, d, "big"); !n.IsUnknown() || n.Value != "-(2**63)" {
		t.Errorf("big: %+v", n)
	}
}

// TestPythonManyKeywords: a call with more than 16 keywords checks them for repeats through a
// set (comparing each with all before it was quadratic: 20,000 took 1.2 s); a repeated one is
// CPython's syntax error at the second name, with a few keywords or many.
func TestPythonManyKeywords(t *testing.T) {
	for _, n := range []int{5, 40} {
		var b strings.Builder
		b.WriteString("y = dict(")
		for i := range n {
			fmt.Fprintf(&b, "k%d=%d, ", i, i)
		}
		b.WriteString("z=1)\nx = dict(")
		for i := range n {
			fmt.Fprintf(&b, "k%d=%d, ", i, i)
		}
		b.WriteString("k3=99)\n")
		src := b.String()
		d := Parse("c.py", []byte(src), Python, Limits{})
		if len(d.Problems) != 1 || d.Problems[0].Message != "python: keyword argument repeated: k3" || d.Problems[0].Span.Start.Offset != strings.LastIndex(src, "k3=") {
			t.Errorf("%d keywords and a repeat: %+v", n, d.Problems)
		}
		d = mustParse(t, Python, src[:strings.Index(src, "\nx")+1])
		if y := pyGet(t, d, "y"); len(y.Children) != n+1 || y.Get("k3").Value != "3" || y.Get("z") == nil {
			t.Errorf("%d keywords: %d keys", n+1, len(y.Children))
		}
	}
}

// TestPythonSelfContaining: a dict or list that contains itself is unknown where it recurs, and
// the rest of the config is read (a list used to run into the depth limit).
func TestPythonSelfContaining(t *testing.T) {
	d := mustParse(t, Python, "a = [1]\na.append(a)\nd = dict(x=1)\nd['self'] = d\nb = [a, [2]]\n")
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	a, dd, b := pyGet(t, d, "a"), pyGet(t, d, "d"), pyGet(t, d, "b")
	if len(a.Children) != 2 || a.Children[0].Value != "1" || !a.Children[1].IsUnknown() {
		t.Errorf("a: %+v", a.Children)
	}
	if dd.Get("x").Value != "1" || !dd.Get("self").IsUnknown() {
		t.Errorf("d: %+v", dd.Children)
	}
	if len(b.Children) != 2 || len(b.Children[0].Children) != 2 || !b.Children[0].Children[1].IsUnknown() || b.Children[1].Children[0].Value != "2" {
		t.Errorf("b: %+v", b.Children)
	}
}

// TestPythonEscapes: string escapes as CPython decodes them (octal included; bytes keep \u).
func TestPythonEscapes(t *testing.T) {
	d := mustParse(t, Python, `a = '\012\101\0'
b = '\x41\u00e9\U0001F600'
c = r'\u12'
e = '\q'
f = 'x\N{BULLET}y'
m = dict(type='match', case=1)
`)
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	for k, want := range map[string]string{"a": "\nA\x00", "b": "Aé😀", "c": `\u12`, "e": `\q`, "f": `x\N{BULLET}y`} {
		if n := pyGet(t, d, k); n.Value != want {
			t.Errorf("%s = %q, want %q", k, n.Value, want)
		}
	}
}

// TestPythonStrCaseAndStrip: str.strip() and its kin take what str.isspace() takes (U+00A0,
// U+001C to U+001F), as python3 gives them; lower() and upper() past ASCII, where Python maps
// case fully (ß.upper() is SS, a final Σ lowers to ς) and Go rune by rune, are unknown.
func TestPythonStrCaseAndStrip(t *testing.T) {
	d := mustParse(t, Python, "s = '\\xa0a\\x1c '\na = s.strip()\nb = s.lstrip()\nc = s.rstrip()\nd = 'Ab_1'.lower()\ne = 'ß'.upper()\nf = 'ΑΣ'.lower()\n")
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	for k, want := range map[string]string{"a": "a", "b": "a\x1c ", "c": "\u00a0a", "d": "ab_1"} {
		if n := pyGet(t, d, k); n.Value != want || n.IsUnknown() {
			t.Errorf("%s = %q, want %q", k, n.Value, want)
		}
	}
	wantUnknown(t, d, "e", "f")
}

// TestPythonGenerators: a function that yields returns a generator, unknown here; a bare yield
// statement used to be a parse error although CPython's parser takes it.
func TestPythonGenerators(t *testing.T) {
	d := mustParse(t, Python, "def g():\n  yield\n  yield from [1]\n  return 3\nx = dict(a=g(), b=2)\n")
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	if a := pyGet(t, d, "x.a"); !a.IsUnknown() {
		t.Errorf("a generator's call: %+v", a)
	}
	if b := pyGet(t, d, "x.b"); b.Value != "2" {
		t.Errorf("b: %+v", b)
	}
	d = mustParse(t, Python, "def get_config():\n  c = dict(a=1)\n  yield c\n")
	if len(d.Problems) != 0 || d.Root != nil {
		t.Errorf("a generator get_config: no tree, no problem: %+v %v", d.Problems, d.Root)
	}
}

func TestPythonMMEngine(t *testing.T) {
	src := `_base_ = ['../_base_/default_runtime.py', '../_base_/schedules/schedule_1x.py']
norm_cfg = dict(type='SyncBN', requires_grad=True)
model = dict(
    type='RetinaNet',
    backbone=dict(type='ResNet', depth=50, norm_cfg=norm_cfg),
    neck=dict(type='FPN', in_channels=[256, 512], out_channels=256))
train_dataloader = dict(batch_size=2, num_workers=2, persistent_workers=True)
val_dataloader = dict(batch_size=1, dataset=dict(pipeline=[dict(type='Resize', scale=(1333, 800))]))
default_hooks = dict(checkpoint=dict(type='CheckpointHook', interval=1, max_keep_ckpts=3))
optim_wrapper = dict(optimizer=dict(lr=0.02 * 2, weight_decay=1e-4), _delete_=True)
randomness = dict(seed=42, diff_rank_seed=True)
`
	d := mustParse(t, Python, src)
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	if d.Root.Style != "module" || !IsPythonConfig(d) {
		t.Fatal("style")
	}
	n := pyGet(t, d, "model.backbone.norm_cfg.type")
	if n.Value != "SyncBN" || n.Span.Start.Line != 2 || text(d, n.Span) != "'SyncBN'" {
		t.Errorf("norm_cfg: %+v", n)
	}
	if k := pyGet(t, d, "default_hooks.checkpoint.max_keep_ckpts"); text(d, k.KeySpan) != "max_keep_ckpts" || text(d, k.Span) != "3" {
		t.Errorf("max_keep_ckpts: %+v", k)
	}
	if k := pyGet(t, d, "model"); text(d, k.KeySpan) != "model" || k.KeySpan.Start.Line != 3 {
		t.Errorf("model key: %+v", k)
	}
	if v, _ := pyGet(t, d, "optim_wrapper.optimizer.lr").Float(); v != 0.04 {
		t.Errorf("lr %v", v)
	}
	if b, _ := pyGet(t, d, "optim_wrapper._delete_").Bool(); !b {
		t.Error("_delete_")
	}
	if n := pyGet(t, d, "_base_"); len(n.Children) != 2 {
		t.Error("_base_")
	}
}

// A config is never run as the main module (pyEval.mainTest): the block under
// `if __name__ == '__main__':` does not run, its else does, and a file that binds __name__
// itself is read as written.
func TestPythonMainBlock(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"model = dict(depth=50)\nif __name__ == '__main__':\n    model = str(model)\n", "map"},
		{"model = dict(depth=50)\nif '__main__' == __name__:\n    model = 1\n", "map"},
		{"model = 1\nif __name__ != \"__main__\":\n    model = dict(depth=50)\n", "map"},
		{"model = 1\nif __name__ == '__main__':\n    pass\nelse:\n    model = dict(depth=50)\n", "map"},
		{"__name__ = '__main__'\nmodel = 1\nif __name__ == '__main__':\n    model = dict(depth=50)\n", "map"},
		{"__name__ = 'x'\nmodel = dict(depth=50)\nif __name__ == '__main__':\n    model = 1\n", "map"},
		// Another name, or another string: not the test, and unknown as before.
		{"model = dict(depth=50)\nif __file__ == '__main__':\n    model = 1\n", "unknown"},
		{"model = dict(depth=50)\nif __name__ == 'builtins':\n    model = 1\n", "unknown"},
	} {
		d := mustParse(t, Python, c.src)
		n := pyGet(t, d, "model")
		got := "other"
		switch {
		case n.IsUnknown():
			got = "unknown"
		case n.Kind == Map:
			got = "map"
		}
		if got != c.want {
			t.Errorf("%q: model is %s (%+v), want %s", c.src, got, n, c.want)
		}
	}
}

func TestPythonReadBase(t *testing.T) {
	src := `from mmengine.config import read_base

with read_base():
    from .._base_.default_runtime import *
    from .._base_.models.retinanet import model as base_model

from mmdet.models import RetinaNet
train_cfg = dict(type=RetinaNet, max_epochs=12)
`
	d := mustParse(t, Python, src)
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	var bases []string
	for _, r := range d.Refs {
		if r.Kind == "base" {
			bases = append(bases, r.Target)
		}
	}
	if strings.Join(bases, " ") != ".._base_.default_runtime .._base_.models.retinanet" {
		t.Errorf("bases %v", bases)
	}
	if n := pyGet(t, d, "train_cfg.type"); !n.IsUnknown() || n.Value != "mmdet.models.RetinaNet" {
		t.Errorf("imported class: %+v", n)
	}
	if d.Root.Get("RetinaNet") != nil || d.Root.Get("base_model") != nil {
		t.Error("imported names are not config keys")
	}
	if !IsPythonConfig(d) {
		t.Error("a read_base file is a config")
	}
}

func TestPythonNotAConfig(t *testing.T) {
	d := mustParse(t, Python, "import argparse\n\ndef main():\n    print('hi')\n\nif __name__ == '__main__':\n    main()\n")
	if len(d.Problems) != 0 || IsPythonConfig(d) {
		t.Errorf("a script is not a config: %+v", d.Problems)
	}
	// A get_config beside a `__main__` block is a program's own (scenic's matvit
	// classification_eval_main.py, av_mae's tests); an MMEngine module's block is not.
	for src, want := range map[string]bool{
		"from absl import app\n\ndef get_config():\n  return dict(batch_size=8)\n\ndef main(_):\n  get_config()\n\nif __name__ == '__main__':\n  app.run(main)\n": false,
		"def get_config():\n  return dict(batch_size=8)\n\nif '__main__' == __name__:\n  print(get_config())\n":                                                   false,
		"def get_config():\n  return dict(batch_size=8)\n":                     true,
		"model = dict(depth=50)\nif __name__ == '__main__':\n  print(model)\n": true,
		// BIDL's tools/apuinfer_mutidevice.py: a script binding _base_ to a folder
		"import argparse, os\nparser = argparse.ArgumentParser()\nargs = parser.parse_args()\nopath = args.out\n_base_ = os.path.join(opath, 'net')\nmodel = dict(path=_base_)\n": false,
		"_base_ = ['../base.py']\nmodel = dict(depth=50)\n": true,
		// other tests at the top level are no program's block (a flag, a call, a list)
		"_DEBUG = False\nif _DEBUG:\n  _STEPS = 10\nelse:\n  _STEPS = 1000\nif len([1]) > 0 and _DEBUG:\n  pass\nif []:\n  pass\ndef get_config():\n  return dict(steps=_STEPS)\n": true,
	} {
		if d := mustParse(t, Python, src); IsPythonConfig(d) != want {
			t.Errorf("%q: config %v, want %v", src, !want, want)
		}
	}
	// A package's module imports its neighbours relatively; only imports inside
	// `with read_base():` are MMEngine base configs (Config._get_base_modules).
	for _, src := range []string{
		"from .base import CheckpointManager, MODEL\n\n__all__ = ['CheckpointManager', 'MODEL']\n",
		"import torch\nfrom .utils import module_filter_fn\nfrom . import *\n\ndef build(cfg):\n    return module_filter_fn(cfg)\n",
	} {
		d := mustParse(t, Python, src)
		for _, r := range d.Refs {
			if r.Kind == "base" {
				t.Errorf("%q: %q read as a base config", src, r.Target)
			}
		}
		if IsPythonConfig(d) {
			t.Errorf("%q: a package module read as a config", src)
		}
	}
	// Module variables beside a class or a function are a library's or a script's (trl's
	// chat_template_utils.py: JSON schemas as dicts; mmengine's own fileio/io.py), unless the
	// file names bases.
	for _, c := range []struct {
		src    string
		config bool
	}{
		{"schema = {'type': 'object', 'properties': {}}\n\ndef parse(x):\n    return x\n", false},
		{"MODULE2PACKAGE = {'mmdet': 'mmdet'}\n\nclass Handler:\n    pass\n", false},
		{"@dataclass\nclass Args:\n    lr: float = 0.1\n\ndefaults = dict(lr=0.1)\n", false},
		// mmselfsup's tests/test_models/test_algorithms/test_byol.py: model parts as module
		// variables, and a decorated test function.
		{"neck = dict(type='NonLinearNeck', norm_cfg=dict(type='BN1d'))\n\n@pytest.mark.skipif(True, reason='x')\ndef test_byol():\n    pass\n", false},
		{"@functools.cache\ndef get_config():\n    return {'a': 1}\n", false},
		{"model = dict(type='ImageClassifier')\noptim_wrapper = dict(optimizer=dict(type='SGD'))\n", true},
		{"_base_ = ['./base.py']\ndef scale(x):\n    return 2 * x\nmodel = dict(depth=scale(25))\n", true},
		{"import ml_collections\n\ndef get_config():\n    c = ml_collections.ConfigDict()\n    c.lr = 0.1\n    return c\n", true},
		// Unreadable files: a config's names, as whole words, mark a broken config to report;
		// a test reading an attribute named _base_dir is none (Dopamine's collector_test.py).
		{"_base_ = ['./a.py']\nmodel = dict(x=\n", true},
		{"def get_config():\n  return {'a': 1\n", true},
		{"class T(absltest.TestCase):\n  def setUp(self):\n    self._tmpdir = flags.'/tmp/x'\n    self.c._base_dir = 1\n", false},
		{"config_cls = get_configs(\n", false},
		{"def train(config: ml_collections.ConfigDict):\n  if x:\n    pass\n  )\n", false},
		{"config = ml_collections.ConfigDict()\nconfig.lr = (\n", true},
		{"with read_base():\n    from .base import *\nmodel = dict(\n", true},
	} {
		if got := IsPythonConfig(mustParse(t, Python, c.src)); got != c.config {
			t.Errorf("%q: IsPythonConfig %v, want %v", c.src, got, c.config)
		}
	}
}

// Document.ConfigDict: a get_config that returns an ml_collections ConfigDict (score_sde's
// configs, U-ViT's `d(**kwargs)` helper), whatever import spells it; not a plain dict, an
// MMEngine module, or a value the reader does not know.
func TestPythonConfigDict(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"import ml_collections\nimport torch\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n  config.training = training = ml_collections.ConfigDict()\n  training.batch_size = 128\n  config.device = torch.device('cuda:0') if torch.cuda.is_available() else torch.device('cpu')\n  return config\n", true},
		{"import ml_collections\n\ndef d(**kwargs):\n  return ml_collections.ConfigDict(initial_dictionary=kwargs)\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n  config.train = d(batch_size=128)\n  return config\n", true},
		{"from ml_collections import config_dict\n\ndef get_config():\n  return config_dict.ConfigDict({'batch_size': 8})\n", true},
		{"def get_config():\n  return dict(batch_size=8)\n", false},
		{"import ml_collections\n\ndef get_config():\n  return {'train': ml_collections.ConfigDict()}\n", false},
		{"model = dict(type='ImageClassifier')\n", false},
		{"from configs.default_cifar10_configs import get_default_configs\n\ndef get_config():\n  config = get_default_configs()\n  config.training.batch_size = 8\n  return config\n", false},
	} {
		if d := mustParse(t, Python, c.src); d.ConfigDict != c.want {
			t.Errorf("%q: ConfigDict %v, want %v", c.src, d.ConfigDict, c.want)
		}
	}
}

func TestPythonErrors(t *testing.T) {
	for _, c := range []problemCase{
		{src: "x = (1,\n", kind: Syntax, line: 1, col: 5, msg: `^python: "\(" is never closed$`},
		{src: "x = 1 +\n", kind: Syntax, line: 1, col: 8, msg: `python: expected an expression, found end of line`},
		{src: "def f(:)\n  pass\n", kind: Syntax, line: 1, col: 7, msg: `python: expected a parameter name`},
		{src: "if x:\npass\n", kind: Syntax, line: 2, col: 1, msg: `expected an indented block`},
		{src: "x = 'abc\n", kind: Syntax, line: 1, col: 5, msg: `unterminated string`},
		{src: "1 = x\n", kind: Syntax, line: 1, col: 1, msg: `cannot assign`},
		// A walrus after an attribute is invalid syntax in Python; it used to be read as an
		// augmented assignment with operator ":".
		{src: "c.a := b\n", kind: Syntax, line: 1, col: 5, msg: `python: expected end of line, found ":="`},
		{src: "c.a:=b.c = 1\n", kind: Syntax, line: 1, col: 4, msg: `found ":="`},
		{src: "def f(n):\n  return f(n)\nx = f(1)\n", kind: LimitExceeded, line: 1, col: 1, msg: `calls nest deeper than 64`},
		{src: "x = 'a' * 10**9\n", kind: LimitExceeded, line: 1, col: 1, msg: `string grows past 1 MiB`},
		// What CPython's parser refuses: bytes beside str, a bare named expression, a keyword
		// with nothing after it, a positional argument after a keyword one, leading zeros.
		{src: "mixed = f'{1}' b'x'\n", kind: Syntax, line: 1, col: 16, msg: `^python: cannot mix bytes and nonbytes literals$`},
		{src: "x := 1\n", kind: Syntax, line: 1, col: 3, msg: `^python: expected end of line, found ":="$`},
		{src: "a = x := 1\n", kind: Syntax, line: 1, col: 7, msg: `^python: expected end of line, found ":="$`},
		{src: "del\n", kind: Syntax, line: 1, col: 4, msg: `^python: expected an expression, found end of line$`},
		{src: "x = dict(a=1, b)\n", kind: Syntax, line: 1, col: 15, msg: `^python: positional argument follows keyword argument$`},
		{src: "x = f(**k, b)\n", kind: Syntax, line: 1, col: 12, msg: `^python: positional argument follows keyword argument unpacking$`},
		{src: "x = f(**k, *b)\n", kind: Syntax, line: 1, col: 12, msg: `^python: iterable argument unpacking follows keyword argument unpacking$`},
		{src: "x = dict(weight_decay=001)\n", kind: Syntax, line: 1, col: 23, msg: `^python: leading zeros in decimal integer literals are not permitted$`},
		{src: "x = 0x\n", kind: Syntax, line: 1, col: 5, msg: `^python: invalid number literal$`},
		// A keyword is no attribute or keyword-argument name; escapes CPython cannot decode.
		{src: "x = c.in\n", kind: Syntax, line: 1, col: 7, msg: `^python: expected an attribute name, found "in"$`},
		{src: "x = dict(if=1)\n", kind: Syntax, line: 1, col: 10, msg: `^python: expected a keyword argument name, found "if"$`},
		{src: "x = 'a\\u12'\n", kind: Syntax, line: 1, col: 5, msg: `^python: \(unicode error\) malformed \\u escape$`},
		{src: "x = '\\x1'\n", kind: Syntax, line: 1, col: 5, msg: `^python: \(unicode error\) malformed \\x escape$`},
		{src: "x = '\\U00110000'\n", kind: Syntax, line: 1, col: 5, msg: `malformed \\U escape$`},
		{src: "x = b'\\x1'\n", kind: Syntax, line: 1, col: 5, msg: `^python: \(value error\) invalid \\x escape$`},
		// An underscore in a number stands between two digits (Python: invalid decimal literal).
		{src: "x = 1__0\n", kind: Syntax, line: 1, col: 6, msg: `^python: invalid number literal$`},
		{src: "x = 10_\n", kind: Syntax, line: 1, col: 7, msg: `^python: invalid number literal$`},
		{src: "x = 1._5\n", kind: Syntax, line: 1, col: 7, msg: `^python: invalid number literal$`},
		// An f-string every Python 3 refuses (3.11, 3.12 and 3.13 alike, each run on these): a
		// single '}', a field never closed or closed by the wrong bracket, no expression, an
		// unknown conversion.
		{src: "x = f'a}b{1}'\n", kind: Syntax, line: 1, col: 8, msg: `^python: f-string: single '}' is not allowed$`},
		{src: "x = f'{1}}'\n", kind: Syntax, line: 1, col: 10, msg: `single '}'`},
		{src: "x = f'{name(1'\n", kind: Syntax, line: 1, col: 5, msg: `^python: unterminated string literal$`}, // as 3.12 reads fields: the quote opens a string
		{src: "x = f'{name(1}'\n", kind: Syntax, line: 1, col: 14, msg: `^python: f-string: closing parenthesis '}' does not match opening parenthesis '\('$`},
		{src: "x = f'{a)}'\n", kind: Syntax, line: 1, col: 9, msg: `^python: f-string: unmatched '\)'$`},
		{src: "x = f'{ }'\n", kind: Syntax, line: 1, col: 7, msg: `^python: f-string: empty expression not allowed$`},
		{src: "x = f'{3!x}'\n", kind: Syntax, line: 1, col: 9, msg: `^python: f-string: invalid conversion character`},
		// Indentation whose order depends on the tab width (CPython 3.11's TabError, each
		// checked there): a tab against eight spaces, either way, and a dedent to a level the
		// two measures place differently; a form feed resets the column.
		{src: "if x:\n\tA = 1\n        B = 2\n", kind: Syntax, line: 3, col: 9, msg: `^python: inconsistent use of tabs and spaces in indentation$`},
		{src: "if x:\n        A = 1\n\tB = 2\n", kind: Syntax, line: 3, col: 2, msg: `^python: inconsistent use of tabs and spaces in indentation$`},
		{src: "if x:\n\tif y:\n\t\tA = 1\n        B = 2\n", kind: Syntax, line: 4, col: 9, msg: `^python: inconsistent use of tabs and spaces in indentation$`},
		{src: "if x:\n    A = 1\n  \f  B = 2\n", kind: Syntax, line: 3, col: 6, msg: `^python: unindent does not match any outer indentation level$`},
		{src: "x = [0] * 10**9\n", kind: LimitExceeded, line: 1, col: 1, msg: `list grows past`},
		// Repeat counts whose product with the length overflows an int64 (4 * 2**62 wraps to 0,
		// 2 * 2**62 to a negative number): they used to pass the size check, then a string
		// repetition panicked (reported as an unreadable file) and a list one never ended.
		{src: "x = 'abcd' * 2**62\n", kind: LimitExceeded, line: 1, col: 1, msg: `string grows past 1 MiB`},
		{src: "x = 2**62 * 'ab'\n", kind: LimitExceeded, line: 1, col: 1, msg: `string grows past 1 MiB`},
		{src: "x = [1, 2, 3, 4] * 2**62\n", kind: LimitExceeded, line: 1, col: 1, msg: `list grows past`},
		{src: "x = (1, 2) * 2**62\n", kind: LimitExceeded, line: 1, col: 1, msg: `list grows past`},
		{src: "x = [i for i in range(10**9)]\n", kind: LimitExceeded, line: 1, col: 1, msg: `more than`},
		// A dict placed twice at each of 30 steps: 2**30 places from 80 bytes. The tree may
		// hold the file's size plus a twentieth of max_nodes (it took 450 MB to reach max_nodes).
		{src: "d = dict(a=1)\nfor i in range(30):\n  d = dict(x=d, y=d)\n", kind: LimitExceeded, line: 1, col: 1, msg: `^python: the evaluated config has more than 100055 values \(its size in bytes plus a twentieth of max_nodes\)`},
		// Nesting past the depth limit is a limit passed, not a syntax error: in brackets, in
		// indented blocks and in the expression grammar (a chain of conditionals).
		{src: "x = " + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "\n", kind: LimitExceeded, line: 1, col: 1005, msg: `brackets nested deeper than 1000 levels.*raise max-depth`},
		{src: pyIndented(1001), kind: LimitExceeded, line: 1002, col: 1002, msg: `^python: nesting deeper than 1000 levels.*limits.max_depth`},
		{src: "x = " + strings.Repeat("1 if c else ", 1001) + "1\n", kind: LimitExceeded, line: 1, col: 12005, msg: `^python: nesting deeper than 1000 levels`},
	} {
		checkProblem(t, Python, c)
	}
}

// pyIndented is a file of n nested if blocks.
func pyIndented(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i) + "if c:\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "x = 1\n")
	return b.String()
}

func TestPythonSyntaxCoverage(t *testing.T) {
	// Forms a config may use that are parsed (and mostly left opaque).
	src := `from __future__ import annotations
import a.b.c as d, e
x: int = 1
y = z = [*range(3), 4]
a, *b = 1, 2, 3
t = lambda q, *r, k=1, **kw: q
s = {1, 2}
g = sum(i for i in (1, 2))
w = (n := 5) + n
sl = 'abcdef'[1:3]
cond = 1 < 2 <= 3 and not False or None
bits = ~1 | 2 & 3 ^ 4 << 1 >> 1
power = -2 ** 2
call = f(*args, **kw)
dd = {**{'a': 1}, 'b': 2}
x += 1
@decorator(1)
def deco():
  pass
class C(object):
  attr = 1
try:
  import foo
except (ImportError, ValueError) as err:
  foo = None
finally:
  pass
while False:
  break
with open('x') as fh, other():
  pass
match = 3
assert x, 'msg'
del y
global q
r = b'bytes'
u = u'\u00e9\N{BULLET}'
rs = r'\d+'
fl = 1.5e-3 + .5 + 3.
kwstar = f(a=1, *b)
touch = 1if True else 2
zeros = 00 + 01.5 + 01e3 + 0_0
hx = 0x1F + 0o7 + 0b1
cx = 1j
ell = ...
`
	d := mustParse(t, Python, src)
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	for path, want := range map[string]string{"x": "2", "a": "1", "b[1]": "3", "g": "3", "w": "10", "sl": "bc", "cond": "true", "power": "-4", "dd.b": "2", "hx": "39", "rs": `\d+`, "fl": "3.5015", "match": "3"} {
		if n := d.Root.At(path); path == "b[1]" {
			n = d.Root.Get("b").Item(1)
			if n == nil || n.Value != want {
				t.Errorf("%s = %+v, want %s", path, n, want)
			}
		} else if n == nil || n.Value != want {
			t.Errorf("%s = %+v, want %s", path, n, want)
		}
	}
	if n := d.Root.Get("bits"); n == nil || n.Value != "-2" {
		t.Errorf("bits %+v", n)
	}
}

// TestPythonConfigArg: --config file.py:ARG calls get_config with ARG, and big_vision's
// parse_arg reads it as big_vision does (configs/common.py @0127fb6): named values, a lone
// value for the first entry or a flag, converters from the defaults, and what parse_arg
// refuses is a Refused problem at the parse_arg call with no tree (TestPythonConfigArgRefused).
func TestPythonConfigArg(t *testing.T) {
	src := `import big_vision.configs.common as bvcc
import ml_collections as mlc

def get_config(arg=None):
  arg = bvcc.parse_arg(arg, res=(224, int), variant='B/16', runlocal=False, lr=0.1)
  config = mlc.ConfigDict()
  config.res = arg.res
  config.variant = arg.variant
  config.batch_size = 32 if arg.runlocal else 4096
  config.lr = arg.lr
  return config
`
	for _, c := range []struct{ arg, want string }{
		{"", "224 B/16 4096 0.1"},
		{"runlocal", "224 B/16 32 0.1"},
		{"128", "128 B/16 4096 0.1"},
		{"variant=L/16,res=384,runlocal=False,lr=3e-4", "384 L/16 4096 0.0003"},
	} {
		d := ParseWith("c.py", []byte(src), Python, Options{ConfigArg: c.arg})
		if len(d.Problems) != 0 {
			t.Fatalf("%q: problems %+v", c.arg, d.Problems)
		}
		var got []string
		for _, k := range []string{"res", "variant", "batch_size", "lr"} {
			n := d.Root.At(k)
			switch {
			case n == nil:
				got = append(got, "<nil>")
			case n.IsUnknown():
				got = append(got, "?")
			default:
				got = append(got, n.Value)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("config arg %q: %s, want %s", c.arg, strings.Join(got, " "), c.want)
		}
	}
	// scenic-style: the argument is get_config's own parameter.
	d := ParseWith("s.py", []byte("def get_config(runlocal=''):\n  return dict(batch_size=8 if runlocal else 1024)\n"), Python, Options{ConfigArg: "1"})
	if v := d.Root.At("batch_size"); v == nil || v.Value != "8" {
		t.Errorf("scenic-style argument: %+v", v)
	}
}

// TestLineCursor: the readers' line cursor gives LineIndex.Pos's positions for offsets asked in
// any order (in order, backwards, far jumps, out of range), with a BOM, CRLF, lone CR and
// multi-byte characters.
func TestLineCursor(t *testing.T) {
	srcs := []string{
		"",
		"a = 1\nb = 2\n",
		"\xef\xbb\xbfx = 'é'\r\ny = [1,\r\n  2]\rz = 3\n\n\n# ü\nw = 4",
		strings.Repeat("k = 1\n", 200) + "last = 'ß'",
		strings.Repeat("key = [1, 2]  # c\r\n", 50) + "\n\n" + strings.Repeat("x", 40),
	}
	for _, src := range srcs {
		x := NewLineIndex([]byte(src))
		var offs []int
		for i := -2; i <= len(src)+2; i++ {
			offs = append(offs, i)
		}
		for i := len(src) + 2; i >= -2; i -= 3 {
			offs = append(offs, i)
		}
		for i := 0; i < 300; i++ {
			offs = append(offs, (i*7919)%(len(src)+5)-2)
		}
		c := lineCursor{x: x}
		for _, off := range offs {
			if got, want := c.pos(off), x.Pos(off); got != want {
				t.Fatalf("%q: offset %d: cursor %+v, LineIndex %+v", src, off, got, want)
			}
		}
		// Spans: both ends as Pos gives them, in and out of the line found last.
		c = lineCursor{x: x}
		for i, off := range offs {
			for _, e := range []int{off, off + 1, off + 4, off + 9, off - 1, offs[(i*31)%len(offs)]} {
				if got, want := c.span(off, e), x.Span(off, e); got != want {
					t.Fatalf("%q: span %d-%d: cursor %+v, LineIndex %+v", src, off, e, got, want)
				}
			}
		}
	}
}

// TestPythonConfigArgRefused: an argument big_vision's parse_arg refuses (configs/common.py
// @0127fb6: ValueError for keys outside the spec without lazy and for values int() or float()
// reject, AssertionError in strict_bool, TypeError from type(None)) makes Python raise at the
// parse_arg call, so the file gives a Refused problem there saying why, and no tree. A
// (default, bool) spec converts with bool() itself, which refuses nothing.
func TestPythonConfigArgRefused(t *testing.T) {
	src := `import big_vision.configs.common as bvcc

def get_config(arg=None):
  arg = bvcc.parse_arg(arg, res=(224, int), runlocal=False, lr=0.1, init=None, flag=(False, bool))
  config = dict(res=arg.res, lr=arg.lr, flag=arg.flag)
  return config
`
	call := strings.Index(src, "bvcc.parse_arg")
	end := call + strings.Index(src[call:], "\n")
	for _, c := range []struct{ arg, want string }{
		{"res=big", `parse_arg refuses the config argument "res=big": res takes an int (ValueError: invalid literal for int() with base 10: 'big')`},
		{"big", `parse_arg refuses the config argument "big": res takes an int (ValueError: invalid literal for int() with base 10: 'big')`},
		{"lr=fast", `parse_arg refuses the config argument "lr=fast": lr takes a float (ValueError: could not convert string to float: 'fast')`},
		{"runlocal=yes", `parse_arg refuses the config argument "runlocal=yes": runlocal takes true, false or nothing (AssertionError in strict_bool)`},
		{"init=ckpt", `parse_arg refuses the config argument "init=ckpt": init takes no value: its default is None (TypeError: NoneType takes no arguments)`},
		{"unknown=1,res=3,x", `parse_arg refuses the config argument "unknown=1,res=3,x": its options are res, runlocal, lr, init, flag (ValueError: Unhandled config args remain: {'unknown': '1', 'x': 'True'})`},
	} {
		d := ParseWith("c.py", []byte(src), Python, Options{ConfigArg: c.arg})
		if d.Root != nil {
			t.Errorf("%q: a refused argument must leave no tree", c.arg)
		}
		if len(d.Problems) != 1 || d.Problems[0].Kind != Refused {
			t.Fatalf("%q: problems %+v, want one refused", c.arg, d.Problems)
		}
		p := d.Problems[0]
		if p.Message != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.arg, p.Message, c.want)
		}
		if p.Span.Start.Offset != call || p.Span.End.Offset != end || p.Span.Start.Line != 4 {
			t.Errorf("%q: span %+v, want the parse_arg call at bytes %d-%d on line 4", c.arg, p.Span, call, end)
		}
	}
	for arg, want := range map[string]string{"flag=false": "true", "flag=": "false", "runlocal=": ""} {
		d := ParseWith("c.py", []byte(src), Python, Options{ConfigArg: arg})
		if len(d.Problems) != 0 || d.Root == nil {
			t.Fatalf("%q: problems %+v", arg, d.Problems)
		}
		if want != "" {
			if n := d.Root.Get("flag"); n == nil || n.Value != want {
				t.Errorf("%q: flag %+v, want %s (bool() of the text)", arg, n, want)
			}
		}
	}
	// Inside try, a handler may catch parse_arg's error: the call is only unknown.
	guarded := "import big_vision.configs.common as bvcc\n\ndef get_config(arg=None):\n  try:\n    arg = bvcc.parse_arg(arg, res=224)\n  except ValueError:\n    arg = None\n  return dict(batch_size=8)\n"
	if d := ParseWith("c.py", []byte(guarded), Python, Options{ConfigArg: "res=big"}); len(d.Problems) != 0 || d.Root == nil {
		t.Errorf("a refusal inside try: problems %+v, tree %v", d.Problems, d.Root != nil)
	}
	// lazy=True takes keys outside the spec, auto-typed.
	lazy := strings.Replace(src, "parse_arg(arg, ", "parse_arg(arg, lazy=True, ", 1)
	lazy = strings.Replace(lazy, "flag=arg.flag)", "flag=arg.flag, extra=arg.extra)", 1)
	d := ParseWith("c.py", []byte(lazy), Python, Options{ConfigArg: "extra=3"})
	if n := d.Root.Get("extra"); len(d.Problems) != 0 || n == nil || n.Value != "3" || n.Type != Int {
		t.Errorf("lazy: problems %+v, extra %+v", d.Problems, n)
	}
}

// TestMMEnginePredefinedVars: MMEngine (v0.10.7 Config._substitute_predefined_vars) rewrites
// {{fileDirname}}, {{fileBasename}}, {{fileBasenameNoExtension}} and {{fileExtname}} in an
// old-style config's text before Python reads it, with the file's own names; lazy-import
// configs and ml_collections configs are not rewritten.
func TestMMEnginePredefinedVars(t *testing.T) {
	old := `_base_ = ['../_base_/default_runtime.py']
item1 = '{{fileBasename}}'
item2 = '{{ fileDirname}}'
item3 = 'abc_{{ fileBasenameNoExtension }}'
item4 = "{{fileExtname}}"
work_dir = './work_dirs/' + '{{fileBasenameNoExtension}}'
raw = r'{{ fileBasename }}\n'
esc = '{{ fileBasename }}\t|'
other = '{{ fileName }} {{fileBasename'
fstr = f'{{{{fileBasename}}}}'
plain = 'x'
`
	values := func(path, src string) map[string]string {
		d := Parse(path, []byte(src), Python, Limits{})
		if d.Root == nil || len(d.Problems) > 0 {
			t.Fatalf("%s: problems %+v", path, d.Problems)
		}
		out := map[string]string{}
		for _, c := range d.Root.Children {
			v := c.Value
			if c.IsUnknown() {
				v = "?"
			}
			out[c.Key] = v
			if c.Key == "item1" && c.Style != "python" {
				t.Errorf("%s: a rewritten literal is not written as its value: style %q", path, c.Style)
			}
			if c.Key == "plain" && c.Style != "single" {
				t.Errorf("%s: plain style %q", path, c.Style)
			}
		}
		return out
	}
	for path, want := range map[string][5]string{
		"configs/retinanet/retinanet_r50_fpn_1x_coco.py": {"retinanet_r50_fpn_1x_coco.py", "configs/retinanet", "retinanet_r50_fpn_1x_coco", ".py", "./work_dirs/retinanet_r50_fpn_1x_coco"},
		"cfg.py":         {"cfg.py", ".", "cfg", ".py", "./work_dirs/cfg"},
		`win\dir\a.b.py`: {"a.b.py", "win/dir", "a.b", ".py", "./work_dirs/a.b"},
		"/abs/.hidden":   {".hidden", "/abs", ".hidden", "", "./work_dirs/.hidden"},
		"/top.py":        {"top.py", "/", "top", ".py", "./work_dirs/top"},
	} {
		got := values(path, old)
		if got["item1"] != want[0] || got["item2"] != want[1] || got["item3"] != "abc_"+want[2] || got["item4"] != want[3] || got["work_dir"] != want[4] {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
		if got["raw"] != want[0]+`\n` || got["esc"] != want[0]+"\t|" || got["other"] != "{{ fileName }} {{fileBasename" || got["fstr"] != "?" || got["plain"] != "x" {
			t.Errorf("%s: raw %q, esc %q, other %q, fstr %q, plain %q", path, got["raw"], got["esc"], got["other"], got["fstr"], got["plain"])
		}
	}
	// Without _base_ the file is still old style (Config._is_lazy_import finds nothing lazy);
	// an import of the standard library does not make it lazy.
	if got := values("a/x.py", "import os\nitem = '{{fileBasename}}'\n"); got["item"] != "x.py" {
		t.Errorf("old style without bases: %v", got)
	}
	// Lazy import (read_base, a relative import, a non-standard module before any _base_) and
	// ml_collections configs keep the text as written.
	for _, src := range []string{
		"from mmengine.config import read_base\nwith read_base():\n    from .._base_.default_runtime import *\nitem = '{{fileBasename}}'\n",
		"from .base import *\nitem = '{{fileBasename}}'\n",
		"from mmdet.models import RetinaNet\n_base_ = 'x.py'\nitem = '{{fileBasename}}'\n",
		"import torch\nitem = '{{fileBasename}}'\n",
	} {
		if got := values("a/x.py", src); got["item"] != "{{fileBasename}}" {
			t.Errorf("lazy-import config rewritten: %v\n%s", got, src)
		}
	}
	d := Parse("a/x.py", []byte("def get_config():\n  return dict(item='{{fileBasename}}')\n"), Python, Limits{})
	if n := d.Root.Get("item"); n == nil || n.Value != "{{fileBasename}}" {
		t.Errorf("ml_collections config rewritten: %+v", n)
	}
	// _base_ first, then a non-standard import: _is_lazy_import stops at _base_.
	if got := values("a/x.py", "_base_ = 'b.py'\nimport torch\nitem = '{{fileBasename}}'\n"); got["item"] != "x.py" {
		t.Errorf("_base_ before an import: %v", got)
	}
}

// TestPythonPartialDict: a dict written with a key this reader cannot know (a call it does not
// model, a format spec it does not follow) or updated from an unknown value is unknown in the
// tree, not a dict that lacks the entry (big_vision's flexivit config, which fills `evals` with
// `c.evals[f'test{s:02d}'] = ...`, used to read as an empty dict; its keys are now known,
// TestFlexiViTEvals). Copies, `**` and `|` carry it; a get_config whose config is such a dict
// gives no tree.
func TestPythonPartialDict(t *testing.T) {
	src := `import somewhere
evals = {}
for s in (1, 2):
  evals[somewhere.key(s)] = dict(type='classification')
known = {}
known['a'] = 1
upd = dict(a=1)
upd.update(somewhere.more())
cp = dict(evals)
spread = {**evals, 'b': 2}
merged = known | evals
after = dict(**evals)
`
	d := Parse("m.py", []byte(src), Python, Limits{})
	if d.Root == nil {
		t.Fatalf("no tree: %+v", d.Problems)
	}
	wantUnknown(t, d, "evals", "upd", "cp", "spread", "merged", "after")
	if n := d.Root.At("known.a"); n == nil || n.Value != "1" {
		t.Errorf("known.a: %+v", n)
	}
	g := Parse("g.py", []byte("def get_config():\n  c = {}\n  c['seed'] = 0\n  c[name()] = 1\n  return c\n"), Python, Limits{})
	if g.Root != nil || len(g.Problems) != 0 {
		t.Errorf("get_config returning a partial dict: tree %v, problems %+v", g.Root != nil, g.Problems)
	}
}

// TestPythonFStrings: an f-string is worked out once and formatted at every evaluation (a
// helper called in a loop), literal braces and escapes kept, and what this reader does not
// format (an unterminated field, a field it cannot know, a spec CPython refuses
// or one this reader does not follow) leaves the whole string unknown. Conversions and format
// specs, nested fields in a spec included, go through the formatter TestPyFormatSpec holds.
func TestPythonFStrings(t *testing.T) {
	src := `def name(i, sep='-'):
  return f'run{sep}{i}' '/' f"{{x}}\t{i * 2}"
names = [name(i) for i in range(3)]
last = name(7, sep='_')
spec = f'{3:02d}'
conv = f'{3!r}'
unknown = f'{nothing}'
plain = f'abc'
w = 6
nested = f'<{0.5:{w}.{w - 4}%}|{"ab"!r:>{w}}|{1e-4:.0e}|{12345:_}>'
keys = {f'test{s:02d}': s for s in (8, 10, 12)}
badspec = f'{3:.2d}'
nestedunknown = f'{3:{nothing}}'
strzero = f'{"a":05}'
fmt = '{:{}}|{:>{w}.1f}|{!r}|{n:#x}'.format('ab', 4, 2.25, 'q', w=6, n=255)
fmtbad = '{:d}'.format('a')
fmtmix = '{}{0}'.format(1)
fmtbrace = 'a}b'.format()
`
	d := mustParse(t, Python, src)
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	for i, want := range []string{"run-0/{x}\t0", "run-1/{x}\t2", "run-2/{x}\t4"} {
		if n := d.Root.Get("names").Item(i); n == nil || n.Value != want || n.Type != String {
			t.Errorf("names[%d] = %+v, want %q", i, n, want)
		}
	}
	if n := d.Root.Get("last"); n == nil || n.Value != "run_7/{x}\t14" {
		t.Errorf("last = %+v", n)
	}
	if n := d.Root.Get("plain"); n == nil || n.Value != "abc" || n.Type != String {
		t.Errorf("plain = %+v", n)
	}
	for k, want := range map[string]string{
		"spec": "03", "conv": "3",
		"nested": "<50.00%|  'ab'|1e-04|12_345>",
		"fmt":    "ab  |   2.2|'q'|0xff", // 2.25 rounds half to even
	} {
		if n := d.Root.Get(k); n == nil || n.Value != want || n.Type != String {
			t.Errorf("%s = %+v, want %q", k, n, want)
		}
	}
	if n := d.Root.Get("keys"); n == nil || len(n.Children) != 3 || n.Children[0].Key != "test08" || n.Children[2].Key != "test12" {
		t.Errorf("keys = %+v", n)
	}
	for _, k := range []string{"unknown", "badspec", "nestedunknown", "strzero", "fmtbad", "fmtmix", "fmtbrace"} {
		if n := d.Root.Get(k); n == nil || n.Type != Unknown || n.Style != "opaque" {
			t.Errorf("%s = %+v, want an opaque value", k, n)
		}
	}
}

// TestPythonTreesNotRetained checks that a Python Document keeps nothing of the files read
// before it alive: 30 passes over the corpus's Python files, their Documents dropped, leave the
// live heap where one pass left it. (Blocks of nodes shared between files' trees once chained
// every tree read into the live heap, about 400 KB a pass: a block stays alive while one of its
// nodes is reachable, and its nodes point at their parents in the block before.)
func TestPythonTreesNotRetained(t *testing.T) { treesNotRetained(t, Python) }

// TestGinTreesNotRetained: gin's parser hands out nodes from a slab it keeps between files; a
// slab shared by two files' trees chained every earlier tree into the live heap (a node points
// at its parent in the block before).
func TestGinTreesNotRetained(t *testing.T) {
	treesNotRetained(t, Gin)
	// One file of 1,001 nodes read over and over: its trees shared their first and last
	// blocks with the trees before and after, and a chain of 85 of them (17 MB) stayed alive.
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "train.v%d = %d\n", i, i)
	}
	src := []byte(b.String())
	live := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	Parse("x.gin", src, Gin, Limits{})
	before := live()
	for range 100 {
		if d := Parse("x.gin", src, Gin, Limits{}); len(d.Problems) > 0 {
			t.Fatal(d.Problems[0].Message)
		}
	}
	after := live()
	t.Logf("live heap after 1 read %d KB, after 101 %d KB", before/1024, after/1024)
	if after > before+1<<20 {
		t.Errorf("100 reads of one file kept %d KB alive", (after-before)/1024)
	}
}

// treesNotRetained reads the corpus's files of format f 1+passes times and fails when the live heap
// after a collection grew by more than 512 KB from the first pass to the last: Documents that
// nothing holds any more must not be kept alive by the reader's pooled buffers.
func treesNotRetained(t *testing.T, f Format) {
	const passes = 200
	files := corpusBytes(&testing.B{}, f)
	pass := func() {
		for _, s := range files {
			if d := Parse("x", s, f, Limits{}); d.Root == nil && len(d.Problems) > 0 {
				t.Fatal(d.Problems[0].Message)
			}
		}
	}
	live := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	pass()
	before := live()
	for range passes {
		pass()
	}
	after := live()
	t.Logf("live heap after 1 pass %d KB, after %d %d KB", before/1024, 1+passes, after/1024)
	if after > before+512<<10 {
		t.Errorf("%d passes over %d files kept %d KB alive", passes, len(files), (after-before)/1024)
	}
}

// TestPythonFStrings312: f-strings as Python 3.12 reads them (PEP 701), which 3.11 refuses:
// the string's own quote inside a field, a field over lines or with a comment, nested
// f-strings, a backslash in a field. The values are what python3.12 gives for this file (run
// locally, 2026-12-02; CI's python3 is 3.11).
func TestPythonFStrings312(t *testing.T) {
	src := "d = {\"a\": 1, \"b\": \"q\"}\nw = 7\nv1 = f\"{d[\"a\"]}\"\nv2 = f\"{1 +\n 2}\"\n" +
		"v3 = f\"{f\"{w}\"}-{f'{w}'}\"\nv4 = f\"{w # the width\n}\"\nv5 = f\"{d[\"b\"]:>{w}}|\"\n" +
		"v6 = f'{\"\\n\".join([\"x\", \"y\"])}'\nv7 = f\"\"\"{d[\"a\"]}\n{w}\"\"\"\nlast = 1\nv8 = f\"{d['b']:'>3}\"\n"
	d := mustParse(t, Python, src)
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	for k, want := range map[string]string{"v1": "1", "v2": "3", "v3": "7-7", "v4": "7", "v5": "      q|", "v7": "1\n7", "v8": "''q"} {
		if n := d.Root.Get(k); n == nil || n.Value != want || n.Type != String {
			t.Errorf("%s = %+v, want %q", k, n, want)
		}
	}
	// A backslash in a field: read, its value left unknown (the evaluator's field parser
	// follows 3.11 there).
	if n := d.Root.Get("v6"); n == nil || n.Type != String && n.Type != Unknown {
		t.Errorf("v6 = %+v", n)
	}
	if n := d.Root.Get("last"); n == nil || n.Span.Start.Line != 13 {
		t.Errorf("last = %+v: the lines after the f-strings are counted wrong", n)
	}
}

// TestPythonBaseEdits: an old-style MMEngine config's assignments into `_base_` are listed in
// the order they run, with the part they name and the value (unknown when the reader cannot
// follow the change); `_base_.x` read at the top level is a value of the run, not a method of
// the list of base paths.
func TestPythonBaseEdits(t *testing.T) {
	src := "_base_ = ['./b.py']\n" +
		"_base_.model.backbone.norm_cfg.type = 'SyncBN'\n" +
		"m = _base_.model\nm.neck['n'] = 4\n" +
		"_base_.sched[0].end = 10\n" +
		"_base_.sched[-1].end = 10\n" +
		"_base_.hooks.append(1)\n_base_.hooks.copy()\n" +
		"_base_.epochs += 1\n" +
		"del _base_.x, y\n" +
		"d = dict(a=1)\nd.b = 2\nd.update(c=3)\n" +
		"def f(c):\n    c.depth = 101\nf(_base_.model.backbone)\n" +
		"b = m.backbone\nb.style = 'caffe'\n" + // line 18: an alias of an alias
		"s0 = _base_.sched[0]\ns0.begin = 1\n" + // line 20: an alias of an item
		"k = dict()\nsk = _base_.sched[k]\nsk.begin = 2\n" + // line 23: of an item not known
		"bb = _base_\nbb.optim.lr = 0.1\n" + // line 25: a name bound to the bases as a whole
		"def g(c):\n    c['runner'] = 1\n    c.update(x=1)\ng(_base_)\n" // line 27: a parameter
	d := Parse("a.py", []byte(src), Python, Limits{})
	var got []string
	for _, e := range d.BaseEdits {
		v := e.Value.Value
		if e.Value.IsUnknown() {
			v = "?"
		}
		if e.Merge {
			var ks []string
			for _, c := range e.Value.Children {
				ks = append(ks, c.Key+":"+c.Value)
			}
			v = "+{" + strings.Join(ks, ",") + "}" // update(...): merged into the part
		}
		got = append(got, e.Path+"="+v+"@"+itoa(e.Span.Start.Line)+":"+e.Value.Key)
	}
	want := "model.backbone.norm_cfg.type=SyncBN@2:type model.neck.n=4@4:n sched.0.end=10@5:end sched=?@6:sched " +
		"hooks=?@7:hooks epochs=?@9:epochs x=?@10:x model.backbone.depth=101@15:depth " +
		"model.backbone.style=caffe@18:style sched.0.begin=1@20:begin sched=?@23:sched " +
		"optim.lr=0.1@25:lr runner=1@27:runner =+{x:1}@28:"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("edits\n got %s\nwant %s", s, want)
	}
	// An edit takes effect where the module-level statement that runs it ends: a function's
	// edits at its call, not where its body is written.
	for _, e := range d.BaseEdits {
		end := e.Span.End.Offset + 1 // the next line, where the next statement starts
		switch e.Path {
		case "model.backbone.depth":
			end = strings.Index(src, "f(_base_.model.backbone)\n") + len("f(_base_.model.backbone)\n")
		case "runner", "":
			end = len(src)
		}
		if e.Order != end {
			t.Errorf("edit of %q takes effect at %d, want %d", e.Path, e.Order, end)
		}
	}
	if bb := d.Root.Get("bb"); bb == nil || !bb.IsUnknown() {
		t.Errorf("bb = _base_: %+v", bb)
	}
	if m := d.Root.Get("m"); m == nil || !m.IsUnknown() || m.Value != "_base_.model" {
		t.Errorf("m = _base_.model: %+v", m)
	}
	if d.Root.At("d.b").Value != "2" {
		t.Error("a dict of the file's own is still changed in place")
	}
	// MMEngine takes the bases from the first top-level `_base_ = ...` and removes every such
	// statement before the file runs: a later one binds nothing (not even its other targets).
	d = Parse("a.py", []byte("_base_ = ['./a.py']\n_base_ = y = ['./b.py']\ndef f():\n    _base_ = 5\n    return _base_\n"+
		"z = f()\nfor _base_ in [1]:\n    pass\nw = 2\nimport os\nif os.environ.get('A'):\n    _base_ = v = 3\n"), Python, Limits{})
	if b := d.Root.Get("_base_"); b == nil || len(b.Children) != 1 || b.Children[0].Value != "./a.py" {
		t.Errorf("_base_ after later base lines: %+v", b)
	}
	if d.Root.Get("y") != nil || d.Root.Get("v") != nil || d.Root.At("w").Value != "2" {
		t.Errorf("a later base line is removed, the rest runs: y %+v, w %+v", d.Root.Get("y"), d.Root.Get("w"))
	}
	if z := d.Root.Get("z"); z == nil || !z.IsUnknown() || z.Value != "_base_" {
		t.Errorf("a function's _base_ after its removed base line is the bases: %+v", z)
	}
	if d := Parse("a.py", []byte("x = dict()\nx.a = 1\n"), Python, Limits{}); d.BaseEdits != nil {
		t.Errorf("a file that never names _base_ has no edits: %+v", d.BaseEdits)
	}
}

// TestPythonReadsBases: an operation on a part of `_base_` marks the file (composition reads it
// again with Options.Bases) and, given the bases, takes a scalar's value from them; whole-value
// reads, files without a base line, containers and parts already edited do not.
func TestPythonReadsBases(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"_base_ = './b.py'\nx = _base_.a\ny = dict(k=_base_.b)\nz = [_base_.c]\n", false},
		{"_base_ = './b.py'\nx = _base_.a + 1\n", true},
		{"_base_ = './b.py'\nx = f'{_base_.a}'\n", true},
		{"_base_ = './b.py'\nif _base_.a:\n    x = 1\n", true},
		{"y = 1\nx = _base_.a + 1\n", false},
	} {
		d := ParseWith("a.py", []byte(tc.src), Python, Options{})
		if d.ReadsBases != tc.want {
			t.Errorf("%q: ReadsBases %v", tc.src, d.ReadsBases)
		}
		if x := d.Root.Get("x"); tc.want && (x == nil || !x.IsUnknown()) {
			t.Errorf("%q read alone: x = %+v", tc.src, x)
		}
	}
	bases := ParseWith("b.py", []byte("a = 2\nl = [1, 2]\nd = dict(k=-3)\nf = 1.5\ns = 'p'\n"), Python, Options{}).Root
	src := "_base_ = './b.py'\nx = _base_.a + 1\ny = _base_.l + [3]\nz = _base_.d.k * 2\nw = -_base_.f\n" +
		"v = _base_.s * 2\nu = _base_.l[1] - 1\n_base_.a = 5\nlate = _base_.a + 1\n"
	d := ParseWith("a.py", []byte(src), Python, Options{Bases: bases})
	wantValues(t, d.Root, "with bases, ", map[string]string{"x": "3", "z": "-6", "w": "-1.5", "v": "pp", "u": "1", "y.2": "3"})
	// y's first items are the bases' own, named as parts of them (composition puts the bases'
	// nodes there), spanned where the file reads them.
	wantBaseRefs(t, d.Root, map[string]string{"y.0": "_base_.l.0", "y.1": "_base_.l.1"})
	if n := d.Root.StepPath("y.0"); n == nil || n.Span.Start.Line != 3 || n.Span.Start.Col != 5 {
		t.Errorf("y.0 is spanned where the file reads it: %+v", n)
	}
	if n := d.Root.Get("late"); n == nil || !n.IsUnknown() {
		t.Errorf("with bases, late = %+v, want unknown (a part edited before the read)", n)
	}
}

// TestPythonBaseContainers: a container of the bases that an operation takes (a star, a slice,
// +, a loop, getattr with a default) is the bases' own object, as in Python: shared by every
// read, its changes seen by each, and a change the file makes to it is an edit of unknown
// effect at its path. Where an edit after the read may have changed what it took, or the
// bases' value cannot be made exactly, the result stays unknown.
func TestPythonBaseContainers(t *testing.T) {
	bases := ParseWith("b.py", []byte("l = [1, 2]\nhooks = [dict(type='A', priority=1), dict(type='B')]\n"+
		"t = (1, 2)\nrg = range(2)\nnk = {1: 'a'}\nm = dict(x=dict(y=1))\nq = [3]\n"), Python, Options{}).Root
	read := func(src string) *Document {
		t.Helper()
		d := ParseWith("a.py", []byte("_base_ = './b.py'\n"+src), Python, Options{Bases: bases})
		if d.Root == nil || len(d.Problems) > 0 {
			t.Fatalf("%q: %+v", src, d.Problems)
		}
		return d
	}
	d := read("p = [*_base_.l, 9]\ns = _base_.hooks[:-1]\ng = getattr(_base_, 'l', []) + [0]\n" +
		"h = getattr(_base_, 'missing', []) + [0]\nk = getattr(_base_, 'keys', None)\n" +
		"tt = [*_base_.t]\ntl = _base_.t + [3]\nt2 = _base_.t + (3,)\nr = [*_base_.rg]\nn = [*_base_.nk]\nfor i in _base_.l:\n    last = i\n" +
		"s1 = [*_base_.hooks]\ns2 = _base_.hooks[:]\ns1[1]['priority'] = 3\nmy = s2[1]['priority'] + 1\n" +
		"c = [*_base_.m.x]\n")
	wantValues(t, d.Root, "", map[string]string{"p.2": "9", "s.0.type": "A", "g.2": "0",
		"h.0": "0", "my": "4", "c.0": "y", "t2.2": "3"})
	// What the file left as the bases had it is named as their part (composition puts their
	// node there); hooks, which the file changed (s1[1]['priority'] = 3), is written out.
	wantBaseRefs(t, d.Root, map[string]string{"p.0": "_base_.l.0", "p.1": "_base_.l.1", "last": "_base_.l.1",
		"g.0": "_base_.l.0", "tt.1": "_base_.t.1", "t2.0": "_base_.t.0"})
	if n := d.Root.Get("s"); n == nil || len(n.Children) != 1 || d.Root.Get("h") == nil || len(d.Root.Get("h").Children) != 1 {
		t.Errorf("s = %+v, h = %+v", n, d.Root.Get("h"))
	}
	// getattr's answers from a dict's own attributes; a tuple plus a list (Python raises), a
	// range and a dict with a key that may be an int are not made.
	wantUnknown(t, d, "k", "tl", "r", "n")
	// s1[1]['priority'] = 3 changed the bases' own hooks[1]: an edit of unknown effect there.
	found := false
	for _, e := range d.BaseEdits {
		if e.Path == "hooks.1" && e.Value.IsUnknown() {
			found = true
		}
		if e.Path == "l" || e.Path == "m" || e.Path == "m.x" {
			t.Errorf("unchanged container recorded as an edit: %+v", e)
		}
	}
	if !found {
		t.Errorf("edits %+v: want hooks.1 unknown", d.BaseEdits)
	}
	// An edit after the read may have changed what it took: the file is read with containers
	// unknown; the edit itself stays.
	d = read("c = [*_base_.l]\n_base_.l[0] = 7\nz = _base_.q + [4]\n")
	if n := d.Root.Get("c"); n == nil || !n.IsUnknown() {
		t.Errorf("c = %+v, want unknown", n)
	}
	if n := d.Root.Get("z"); n == nil || !n.IsUnknown() {
		t.Errorf("z = %+v, want unknown (containers left unknown in the second run)", n)
	}
	if len(d.BaseEdits) != 1 || d.BaseEdits[0].Path != "l.0" || d.BaseEdits[0].Value.Value != "7" {
		t.Errorf("edits %+v", d.BaseEdits)
	}
	// Edits before the read: the part is not taken.
	d = read("_base_.l.append(3)\nc = [*_base_.l]\nr = [*_base_.q]\n")
	if n := d.Root.Get("c"); n == nil || !n.IsUnknown() {
		t.Errorf("c after append = %+v, want unknown", n)
	}
	wantBaseRefs(t, d.Root, map[string]string{"r.0": "_base_.q.0"})
}

// wantBaseRefs checks that each dotted path (list items by number) under root is a part of the
// bases, named by its path there (an opaque value that composition replaces).
func wantBaseRefs(t *testing.T, root *Node, want map[string]string) {
	t.Helper()
	for k, w := range want {
		if n := root.StepPath(k); n == nil || !n.IsUnknown() || n.Style != "opaque" || n.Value != w {
			t.Errorf("%s = %+v, want the bases' %s", k, n, w)
		}
	}
}

// TestPythonBasesGivenToHelpers: a container of the bases handed to a call the reader does not
// follow may be changed there, as the bases' own object: that part of the bases is an edit of
// unknown effect, and what the file reads of it afterwards is unknown.
func TestPythonBasesGivenToHelpers(t *testing.T) {
	bases := ParseWith("b.py", []byte("hooks = [dict(type='A', priority=1), dict(type='B')]\nq = [3]\nm = dict(x=dict(y=1))\n"), Python, Options{}).Root
	for _, c := range []struct {
		src   string
		edits []string
		read  string
	}{
		{"z = _base_.q\ntools.patch(z)\nw = z\n", []string{"q"}, "w"},
		{"s = [*_base_.hooks]\ntools.patch(s)\n", []string{"hooks.0", "hooks.1"}, "s"},
		{"mx = _base_.m.x\ntools.patch(mx)\nv = _base_.m.x.y\n", []string{"m.x"}, "v"},
	} {
		d := ParseWith("a.py", []byte("_base_ = './b.py'\nimport tools\n"+c.src), Python, Options{Bases: bases})
		got := map[string]bool{}
		for _, e := range d.BaseEdits {
			if e.Value.IsUnknown() {
				got[e.Path] = true
			}
		}
		for _, p := range c.edits {
			if !got[p] {
				t.Errorf("%q: edits %+v, want %s unknown", c.src, d.BaseEdits, p)
			}
		}
		if n := d.Root.Get(c.read); n == nil || !n.IsUnknown() {
			t.Errorf("%q: %s = %+v, want unknown", c.src, c.read, n)
		}
	}
}

// TestPythonTabsCPythonAccepts: indentation mixing tabs and spaces that orders the same with a
// tab of one column and of eight (CPython 3.11 accepts each) is read, values and all.
func TestPythonTabsCPythonAccepts(t *testing.T) {
	for _, src := range []string{
		"if True:\n\tA = 1\n\tB = 2\n",
		"if True:\n  \tA = 1\n",
		"if True:\n       \tA = 1\n",
		"if True:\n    \tif True:\n\t        A = 1\n",
		"\fA = 1\n",
	} {
		d := mustParse(t, Python, src)
		if len(d.Problems) != 0 || d.Root == nil || d.Root.Get("A") == nil {
			t.Errorf("%q: problems %+v", src, d.Problems)
		}
	}
}

// TestPythonIndentAcrossBackslash: a backslash ending a line inside the indentation joins the
// next line's, and CPython 3.11 measures the statement's indentation across it (the first such
// backslash's column, else the joined line's), tab width and all. Each verdict is CPython
// 3.11.7's compile() on the same text.
func TestPythonIndentAcrossBackslash(t *testing.T) {
	for src, want := range map[string]string{
		"if x:\n    a = 1\n\\\n\tb = 2\n":            inconsistentTabs,
		"if x:\n\ta = 1\n\t\\\n        b = 2\n":      inconsistentTabs,
		"if x:\n\ta = 1\n    \\\n\tb = 2\n":          "unindent does not match any outer indentation level",
		"if x:\n    a = 1\n    \\\n    b = 2\n":      "",
		"x = 1\n\\\ny = 2\n":                         "",
		"x = 1 + \\\n  2\n":                          "",
		"x = 1\n\\\n":                                "unexpected EOF while parsing",
		"x = 1\n\\\n\ny = 2\n":                       "",
		"if x:\n    a = 1\n    \\\n# c\n    b = 2\n": "",
	} {
		d := mustParse(t, Python, src)
		got := ""
		if len(d.Problems) > 0 {
			got = d.Problems[0].Message
		}
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("%q: %q, want %q", src, got, want)
		}
	}
}

// IsExecConfig: a module of plain assignments (nanoGPT's config/*.py, which configurator.py
// execs into train.py's globals) is a config where most of its names are the globals a
// training script execs it into; a module of constants, one with code, or one importing
// more than math, os or time is not.
func TestPythonExecConfig(t *testing.T) {
	globals := map[string]bool{"batch_size": true, "gradient_accumulation_steps": true, "max_iters": true,
		"eval_interval": true, "wandb_log": true, "wandb_project": true, "wandb_run_name": true}
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"# config for training GPT-2\nwandb_log = True\nwandb_project = 'owt'\nbatch_size = 12\ngradient_accumulation_steps = 5 * 8\nmax_iters = 600000\n", true},
		// config/finetune_shakespeare.py names its run with time.time()
		{"\"\"\"finetune\"\"\"\nimport time\nwandb_run_name = 'ft-' + str(time.time())\nbatch_size = 1\n", true},
		// names of its own beside the script's, as long as half are the script's
		{"batch_size = 8\nmax_iters = 100\nattention_impl = 'sdpa'\nchunked_ce = True\n", true},
		{"batch_size = 8\nvocab_size_override = 1\nattention_impl = 'sdpa'\nchunked_ce = True\n", false},
		// utils/const.py of a nanoGPT fork: none of the script's names
		{"IGNORE_LABEL_ID = -100\nPAD = 0\n", false},
		{"import torch\nbatch_size = 12\n", false},
		{"import time as t\nbatch_size = 12\n", false},
		{"batch_size = 12\ndef scale(x):\n    return x\n", false},
		{"batch_size = 12\nif max_iters > 10:\n    eval_interval = 5\n", false},
		{"batch_size = 12\nbatch_size *= 2\n", false},
		{"cfg.batch_size = 12\n", false},
	} {
		d := mustParse(t, Python, c.src)
		if got := IsExecConfig(d, globals); got != c.want {
			t.Errorf("%q: IsExecConfig %v, want %v", c.src, got, c.want)
		}
		if IsExecConfig(d, nil) {
			t.Errorf("%q: an exec config with no script that execs one", c.src)
		}
	}
}
