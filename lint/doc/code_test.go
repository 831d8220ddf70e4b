package doc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusCode reads every gin and Python file of the corpus: none may give a parse error or
// hit a limit, every span keeps the invariants, and every file yields a tree.
func TestCorpusCode(t *testing.T) {
	files := corpusFiles(t, map[Format]bool{Gin: true, Python: true})
	count := map[Format]int{}
	for p, f := range files {
		count[f]++
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d := Parse(p, src, f, Limits{})
		for _, pr := range d.Problems {
			t.Errorf("%s:%d:%d: %s: %s", p, pr.Span.Start.Line, pr.Span.Start.Col, pr.Kind, pr.Message)
		}
		if d.Root == nil {
			t.Errorf("%s: no tree", p)
			continue
		}
		if err := checkDoc(d); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if err := checkSpanText(d); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	t.Logf("corpus files: %v", count)
	if count[Gin] != 32 || count[Python] != 23 {
		t.Errorf("want 32 gin and 23 Python corpus files, found %v", count)
	}
}

func TestGinBindings(t *testing.T) {
	src := `from __gin__ import dynamic_registration
import __main__ as train_script
from t5x import utils
include 't5x/configs/runs/pretrain.gin'  # defines %MODEL

BATCH_SIZE = 128
TRAIN_STEPS = 1_000
FEATURES = {"inputs": 256, "targets": (1, -2.5e-3)}
DEFAULT = %BATCH_SIZE

train_script.train:
  eval_period = 1000   # trainlint: disable=TL201
  total_steps = %TRAIN_STEPS
  partitioner = @partitioning.PjitPartitioner()
  trainer_cls = @trainer.Trainer
  model = %MODEL

train/utils.DatasetConfig.batch_size = %DEFAULT
utils.SaveCheckpointConfig.keep = None
utils.SaveCheckpointConfig.period = [
    1,
    2,  # trailing comma
]
MODEL_DIR = %gin.REQUIRED
`
	d := mustParse(t, Gin, src)
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	if err := checkSpanText(d); err != nil {
		t.Fatal(err)
	}
	get := func(path string) *Node {
		t.Helper()
		n := d.Root.At(path)
		if n == nil {
			t.Fatalf("no %s", path)
		}
		return n
	}
	if n := get("train_script.train.eval_period"); n.Value != "1000" || n.Type != Int || text(d, n.KeySpan) != "eval_period" || n.Span.Start.Line != 12 {
		t.Errorf("eval_period: %+v", n)
	}
	// A macro reference resolves to the definition's value and span, with the use kept.
	ts := get("train_script.train.total_steps")
	if v, ok := ts.Int(); !ok || v != 1000 || ts.Span.Start.Line != 7 || ts.Use == nil || ts.Use.Start.Line != 13 || !ts.Alias {
		t.Errorf("total_steps: %+v", ts)
	}
	// Chains of macros resolve too.
	bs := get("train/utils.DatasetConfig.batch_size")
	if bs.Value != "128" || bs.Span.Start.Line != 6 || text(d, bs.KeySpan) != "batch_size" || text(d, bs.Parent.KeySpan) != "DatasetConfig" || text(d, bs.Parent.Parent.KeySpan) != "train/utils" {
		t.Errorf("batch_size: %+v %q", bs, text(d, bs.KeySpan))
	}
	if get("train_script.train.partitioner").Value != "@partitioning.PjitPartitioner()" || !get("train_script.train.partitioner").IsUnknown() {
		t.Error("reference")
	}
	if m := get("train_script.train.model"); !m.IsUnknown() || m.Value != "%MODEL" {
		t.Errorf("an undefined macro stays unknown: %+v", m)
	}
	if !get("MODEL_DIR").IsUnknown() || !get("utils.SaveCheckpointConfig.keep").IsNull() {
		t.Error("REQUIRED / None")
	}
	if n := get("FEATURES.targets"); n.Kind != Seq || len(n.Children) != 2 || n.Children[1].Value != "-2.5e-3" {
		t.Errorf("tuple: %+v", n)
	}
	if n := get("utils.SaveCheckpointConfig.period"); n.Kind != Seq || len(n.Children) != 2 {
		t.Errorf("multi-line list: %+v", n)
	}
	if len(d.Refs) != 4 || d.Refs[3].Kind != "include" || d.Refs[3].Target != "t5x/configs/runs/pretrain.gin" || d.Refs[0].Target != "__gin__.dynamic_registration" {
		t.Errorf("refs: %+v", d.Refs)
	}
	// gin's parser refuses a dotted module written with spaces (Malformatted scope or selector).
	sp := Parse("s.gin", []byte("import t5x .models as m\n"), Gin, Limits{})
	if len(sp.Problems) != 1 || sp.Problems[0].Kind != Syntax || !strings.Contains(sp.Problems[0].Message, "no spaces inside a module name") {
		t.Errorf("spaced module: %+v", sp.Problems)
	}
	if len(d.Comments) != 3 || !d.Comments[1].Trailing || !strings.Contains(d.Comments[1].Text, "trainlint: disable=TL201") {
		t.Errorf("comments: %+v", d.Comments)
	}
}

// ginDoubling is n macros, each a list of two of the one before, and a binding of the last.
func ginDoubling(n int) string {
	var b strings.Builder
	b.WriteString("M0 = 1\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "M%d = [%%M%d, %%M%d]\n", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "t.x = %%M%d\n", n-1)
	return b.String()
}

func TestGinErrors(t *testing.T) {
	for _, c := range []problemCase{
		{src: "a.b = \n", kind: Syntax, line: 1, col: 7, msg: `gin: expected a value, found end of line`},
		{src: "a.b = [1, 2\nc.d = 3\n", kind: Syntax, line: 1, col: 7, msg: `^gin: "\[" is never closed$`},
		{src: "a.b = foo\n", kind: Syntax, line: 1, col: 7, msg: `"foo" is not a value`},
		{src: "a.b = 'x\n", kind: Syntax, line: 1, col: 7, msg: `unterminated string`},
		{src: "a.b = 1\na.b = 2\n", kind: DuplicateKey, line: 2, col: 3, msg: `key "a.b" is repeated; gin keeps the later binding`},
		// A block's parameter is named scope/configurable.parameter, not by the text between.
		{src: "foo.Bar:\n  a = 1\n  # c\n  a = 3\n", kind: DuplicateKey, line: 4, col: 3, msg: `^key "foo.Bar.a" is repeated; gin keeps the later binding$`},
		{src: "train/utils.Cfg.keep = 3\ntrain/utils.Cfg:\n  keep = 5\n", kind: DuplicateKey, line: 3, col: 3, msg: `^key "train/utils.Cfg.keep" is repeated`},
		{src: "x.y = {'k': 1, \"k\": 2}\n", kind: DuplicateKey, line: 1, col: 16, msg: `key "k" is repeated`},
		// gin reads a string with ast.literal_eval, which refuses an f-string
		{src: "a.b = f'x'\n", kind: Syntax, line: 1, col: 7, msg: `^gin: an f-string is not a literal gin reads$`},
		{src: "a.b = 'x' F'y'\n", kind: Syntax, line: 1, col: 11, msg: `^gin: an f-string is not a literal gin reads$`},
		{src: "X = %gin.REQUIRED\nX = 1\nX = 2\n", kind: DuplicateKey, line: 3, col: 1, msg: `key "X" is repeated`},
		{src: "a.b = 01\n", kind: Syntax, line: 1, col: 7, msg: `leading zeros`},
		{src: "a.b: 1\n", kind: Syntax, line: 1, col: 6, msg: `end of line after the block`},
		// What gin's parser (config_parser.py at 8ebbd2a) refuses in names: a scope after a
		// period in a binding's key, a dotted or scoped parameter inside a block, a name that
		// does not start with an ASCII letter or underscore, a dotted alias.
		{src: "inputs/seqio.Feature.vo/cabulary = 1\n", kind: Syntax, line: 1, col: 1, msg: `^gin: malformed scope or selector`},
		{src: "f:\n  a.b = 1\n", kind: Syntax, line: 2, col: 4, msg: `^gin: expected "=", found "\."$`},
		{src: "f:\n  s/b = 1\n", kind: Syntax, line: 2, col: 4, msg: `^gin: expected "=", found "/"$`},
		{src: "f.éa = 1\n", kind: Syntax, line: 1, col: 3, msg: `^gin: invalid identifier name "éa"$`},
		{src: "import a as b.c\n", kind: Syntax, line: 1, col: 14, msg: `^gin: expected end of line, found "\."$`},
		{src: "a.b = 'x' b'y'\n", kind: Syntax, line: 1, col: 11, msg: `^gin: cannot mix bytes and nonbytes literals$`},
		{src: "include b'x.gin'\n", kind: Syntax, line: 1, col: 9, msg: `^gin: expected a file path as a string, found bytes$`},
		// Numbers as gin reads them (Python's tokenizer, then literal_eval after an optional
		// minus): no plus sign, an underscore only between digits.
		{src: "a.b = +1\n", kind: Syntax, line: 1, col: 7, msg: `^gin: expected a value, found "\+"$`},
		{src: "a.b = 1__0\n", kind: Syntax, line: 1, col: 8, msg: `^gin: invalid number literal$`},
		{src: "a.b = 1_\n", kind: Syntax, line: 1, col: 8, msg: `^gin: invalid number literal$`},
		{src: "a.b = 1_.5\n", kind: Syntax, line: 1, col: 8, msg: `^gin: invalid number literal$`},
		{src: "a.b = 0x__1\n", kind: Syntax, line: 1, col: 9, msg: `^gin: invalid number literal$`},
		// gin-config reads the file as text with a byte order mark kept, and refuses it.
		{src: "\ufeffa.b = 1\n", kind: Syntax, line: 1, col: 1, msg: `starts with a byte order mark .*gin-config.*"Unexpected token"`},
		// Macros that double at each step: 2**40 values from 1 KB. They may expand to the file's
		// size plus a twentieth of max_nodes, as a YAML file's aliases may (it took 480 MB to
		// reach the two million of max_nodes).
		{src: ginDoubling(40), kind: LimitExceeded, line: 16, col: 14, msg: `^macros expand to more than 10\d{4} values \(its size in bytes plus a twentieth of max_nodes\).*max_nodes`},
	} {
		checkProblem(t, Gin, c)
	}
}

// TestGinWideMaps: maps with many keys are looked up through an index (ginParser.wide) once
// they pass ginIndexAt keys; a later binding of a key must still replace the first and be
// reported, in the top-level map and in a configurable's own map, and a map that shrinks
// back must keep answering.
func TestGinWideMaps(t *testing.T) {
	var b strings.Builder
	for i := range 3 * ginIndexAt {
		fmt.Fprintf(&b, "s%d/train.x = %d\n", i, i)
		fmt.Fprintf(&b, "wide.k%d = %d\n", i, i)
	}
	// Keys bound before and after the maps grew past ginIndexAt, bound again.
	b.WriteString("s5/train.x = 'again'\nwide.k7 = 'again'\ns5/train.y = 1\n")
	b.WriteString("s150/train.x = 'again'\nwide.k150 = 'again'\n")
	d := mustParse(t, Gin, b.String())
	var dups []string
	for _, p := range d.Problems {
		if p.Kind != DuplicateKey {
			t.Fatalf("problem %+v", p)
		}
		dups = append(dups, text(d, p.Span))
	}
	if strings.Join(dups, " ") != "x k7 x k150" {
		t.Fatalf("duplicates at %q, want x, k7, x, k150", dups)
	}
	if got := len(d.Root.Children); got != 3*ginIndexAt+1 {
		t.Errorf("%d top-level keys, want %d", got, 3*ginIndexAt+1)
	}
	s5 := d.Root.Get("s5/train")
	if s5 == nil || len(s5.Children) != 2 || s5.Get("x").Value != "again" || s5.Get("y") == nil {
		t.Fatalf("s5/train: %+v", s5)
	}
	if x := s5.Children[len(s5.Children)-1]; x.Key != "y" || s5.Children[0].Key != "x" {
		t.Errorf("s5/train's keys in the order bound: %q, %q", s5.Children[0].Key, x.Key)
	}
	wide := d.Root.Get("wide")
	if wide == nil || len(wide.Children) != 3*ginIndexAt || wide.Get("k7").Value != "again" || wide.Get("k150").Value != "again" || wide.Get("k8").Value != "8" {
		t.Fatalf("wide: %d keys", len(wide.Children))
	}
}

// TestGinNumbers: numbers gin reads (literal_eval of the token, after an optional minus).
func TestGinNumbers(t *testing.T) {
	d := mustParse(t, Gin, "a.big = 1e400\na.tiny = -1e-400\na.sep = 1_000.5_5\na.hex = 0x_1F\na.neg = - 1\n")
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	for k, want := range map[string]string{"big": "1e400", "tiny": "-1e-400", "sep": "1_000.5_5", "hex": "0x_1F", "neg": "- 1"} {
		if n := d.Root.At("a." + k); n == nil || n.Value != want {
			t.Errorf("%s: %+v", k, n)
		}
	}
	if n := d.Root.At("a.big"); n.Type != Float {
		t.Errorf("1e400 is a float to literal_eval (inf): %v", n.Type)
	}
}

// TestGinAsGinReadsIt: what gin's parser accepts and this reader used to refuse or read
// otherwise: indentation outside a block is skipped (an indented line is a statement),
// references may carry periods in their scopes, adjacent strings make one include path.
// gin splits a binding's key at its last dot (config_parser.py _parse_selector): `a.b = 1`
// binds parameter b of configurable a, `a.b.c = 2` parameter c of configurable a.b, and a macro
// `a = 1` is none of them; a dict's keys are Python values (1 and '1' differ, a tuple is one).
// None of these is a repetition.
func TestGinKeysAsGinSplitsThem(t *testing.T) {
	for _, src := range []string{
		"a.b = 1\na.b.c = 2\n",
		"a.b.c = 2\na.b = 1\n",
		"A = 1\nA.b = 2\n",
		"x.y = {1: 'a', '1': 'b', None: 1, 'null': 2, True: 3, 'true': 4, @f: 5, '@f': 6}\n",
		"x.y = {(1, 2): 3, (): 1, '(1, 2)': 4}\n",
	} {
		d := mustParse(t, Gin, src)
		if len(d.Problems) != 0 {
			t.Errorf("%q: problems %+v", src, d.Problems)
		}
	}
	if n := mustParse(t, Gin, "x.y = {(1, 2): 3}\n").Root.At("x.y"); n == nil || len(n.Children) != 1 || n.Children[0].Key != "(1, 2)" || n.Children[0].Value != "3" {
		t.Errorf("a tuple key: %+v", n)
	}
}

func TestGinAsGinReadsIt(t *testing.T) {
	d := mustParse(t, Gin, "f:\n  a = 1\nX = 2\n  Y = 3\n\tg.b = @s.t/h.k()\ninclude 'a' \"b.gin\"\ng.c = - @r\n")
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	if d.Root.Get("Y") == nil || d.Root.Get("X") == nil || d.Root.At("f.a") == nil {
		t.Errorf("keys: %+v", d.Root.Children)
	}
	if n := d.Root.At("g.b"); n == nil || n.Value != "@s.t/h.k()" {
		t.Errorf("reference: %+v", n)
	}
	if n := d.Root.At("g.c"); n == nil || n.Value != "@r" {
		t.Errorf("a minus before a reference (gin drops it): %+v", n)
	}
	if len(d.Refs) != 1 || d.Refs[0].Target != "ab.gin" {
		t.Errorf("include: %+v", d.Refs)
	}
}

func TestGinDepthLimit(t *testing.T) {
	src := "a.b = " + strings.Repeat("[", 50) + strings.Repeat("]", 50) + "\n"
	d := Parse("x.gin", []byte(src), Gin, Limits{MaxDepth: 20})
	if len(d.Problems) != 1 || d.Root != nil {
		t.Fatalf("%+v", d.Problems)
	}
	// Too deep is a limit passed (input-limit-exceeded, naming the limit), not a syntax error.
	if p := d.Problems[0]; p.Kind != LimitExceeded || !strings.Contains(p.Message, "brackets nested deeper than 20 levels") || !strings.Contains(p.Message, "raise max-depth") {
		t.Errorf("%+v", p)
	}
}

// addCorpusSeeds seeds a fuzz target with the corpus files of one format, read at test time
// (the corpus is never copied into the repository).
func addCorpusSeeds(f *testing.F, want Format) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		return
	}
	_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if fm, ok := FormatFromPath(p); ok && fm == want {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
		return nil
	})
}

func FuzzParseGin(f *testing.F) {
	for _, s := range []string{
		"a.b = 1\n",
		"from __gin__ import dynamic_registration\ninclude 'x.gin'\nM = {'a': (1, -2.0)}\ns/c.p:\n  q = %M\n  r = @f()\n",
		"A = %B\nB = %A\nx.y = %A\n",
		"x.y = [\n  1,  # c\n]\n",
	} {
		f.Add([]byte(s))
	}
	addCorpusSeeds(f, Gin)
	f.Fuzz(func(t *testing.T, src []byte) { fuzzParse(t, Gin, src) })
}

// FuzzParseGinFork reads gin in the grammar of HorizonRobotics' fork (Options.GinFork):
// evaluated references with arguments and dotted calls as values; the same invariants as
// FuzzParseGin.
func FuzzParseGinFork(f *testing.F) {
	for _, s := range []string{
		"a.b = functools.partial(@f, x=1)\n",
		"T.c = @alf.nest.get_field(nest=%N, field='a.b')\nN = {'a': {'b': 1}}\n",
		"x.y = @m.C(1, k=[2, (3,)])\n",
		"x.y = a.b.c\nz.w = @f(\n",
	} {
		f.Add([]byte(s))
	}
	addCorpusSeeds(f, Gin)
	f.Fuzz(func(t *testing.T, src []byte) {
		checkFuzzed(t, ParseWith("fuzz.gin", src, Gin, Options{Limits: Limits{MaxBytes: 1 << 20, MaxNodes: 200000}, GinFork: true}), src)
	})
}

func FuzzParsePython(f *testing.F) {
	for _, s := range []string{
		"x = dict(a=1, b=[1, 2])\n",
		"def get_config(arg=None):\n  c = {}\n  c['x'] = f'{arg}-{1+1}'\n  return c\n",
		"_base_ = ['a.py']\nmodel = dict(_delete_=True)\n",
		"with read_base():\n    from .a import *\n",
		"def f(n):\n  return f(n)\nx = f(1)\n",
		"_base_ = 'a.py'\nw = './w/{{ fileBasenameNoExtension }}'\nd = r'{{fileDirname}}\\n' '{{fileExtname}}'\nf = f'{{{{fileBasename}}}}'\n",
		"x = 'ab' * 2**62\ny = [1, 2, 3, 4] * 2**62\nz = -(2**63) + (1)\n",
		"import copy\na = [dict(k=[1, 2]), (3, [4])]\na.append(a)\nb = copy.deepcopy(a)[::-1]\nc = copy.copy(a)[-1:0:-2]\nd = 'abc'[::0]\n",
		"d = dict(a=1)\nl = [1, 2, d]\ndel l[0], d['a'], x\nif q:\n    del l[q], d.a, f()[0]\nl[q] = 1\ndel l[::2], d[1:]\n",
		"_base_ = ['b.py']\nimport m, logging\nd = dict(a=[1, dict(b=2)])\nd['a'].append(d)\nm.fill(d, k=(d, [d]))\nglobals()['g'](_base_.x)\nlogging.info(d)\ny = m.make(d)\nif q:\n  d['a'][1].update(*d['a'], k=d)\n  print(d)\n",
		"e = dict(k=1, l=[3, 1])\ne[k] = 2\nx = (e['k'], e.k, e.get('k'), 'k' in e, len(e), list(e), e.pop(q, 0))\ne['l'].sort()\ne.popitem()\ne.update(**q)\n",
		"import ml_collections as m\ndef get_config():\n  c = m.ConfigDict()\n  r = m.FieldReference(8)\n  c.a = r\n  c.b = 100 // r - -r\n  c.d = dict(e=c.get_ref('a') * c.get_oneway_ref('b'))\n  c.l = [r, c.a]\n  c['a'] = 2\n  r.set(c.a)\n  return c\n",
	} {
		f.Add([]byte(s))
	}
	addCorpusSeeds(f, Python)
	f.Fuzz(func(t *testing.T, src []byte) { fuzzParse(t, Python, src) })
}

// FuzzParsePythonConfigArg reads an ml_collections config with a --config-arg string: big_vision's
// parse_arg either converts it or refuses it with a Refused problem at a real span, never a
// panic.
func FuzzParsePythonConfigArg(f *testing.F) {
	cfg := "import big_vision.configs.common as bvcc\ndef get_config(arg=None):\n  arg = bvcc.parse_arg(arg, res=(224, int), runlocal=False, lr=0.1, init=None, flag=(False, bool))\n  return dict(res=arg.res, lr=arg.lr)\n"
	for _, a := range []string{"", "runlocal", "128", "res=big", "unknown=1,x", "lr=1e-3,flag=", "init=x", "a=b=c,,=,res= 7 "} {
		f.Add([]byte(cfg), a)
	}
	f.Add([]byte(strings.Replace(cfg, "parse_arg(arg, ", "parse_arg(arg, lazy=True, ", 1)), "k=v,n=3")
	f.Fuzz(func(t *testing.T, src []byte, arg string) {
		d := ParseWith("c.py", src, Python, Options{Limits: Limits{MaxBytes: 1 << 20, MaxNodes: 200000}, ConfigArg: arg})
		for _, p := range d.Problems {
			if p.Message == "the parser could not read this file" {
				t.Fatalf("panic while parsing %q with %q", src, arg)
			}
			if p.Kind == Refused && (d.Root != nil || p.Span.End.Offset > len(src) || p.Span.Start.Offset > p.Span.End.Offset || !strings.Contains(p.Message, "parse_arg refuses")) {
				t.Fatalf("refusal %+v (tree %v) for %q with %q", p, d.Root != nil, src, arg)
			}
		}
		if err := checkDoc(d); err != nil {
			t.Fatalf("%v\nsrc: %q arg %q", err, src, arg)
		}
		if err := checkSpanText(d); err != nil {
			t.Fatalf("%v\nsrc: %q arg %q", err, src, arg)
		}
	})
}

// TestArenaReuse: the memory pyArena keeps between files (expressions, operand lists, tokens)
// carries nothing from one file into the next: every corpus gin and Python file reads to the
// same tree whatever was read before it.
func TestArenaReuse(t *testing.T) {
	var srcs [][]byte
	var formats []Format
	for p, f := range corpusFiles(t, map[Format]bool{Gin: true, Python: true}) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs, formats = append(srcs, b), append(formats, f)
	}
	if len(srcs) < 40 {
		t.Fatalf("only %d corpus files", len(srcs))
	}
	first := make([]string, len(srcs))
	for i := range srcs {
		first[i] = dumpDoc(Parse("x", srcs[i], formats[i], Limits{}))
	}
	for i := len(srcs) - 1; i >= 0; i-- {
		if got := dumpDoc(Parse("x", srcs[i], formats[i], Limits{})); got != first[i] {
			t.Fatalf("file %d reads differently after other files", i)
		}
	}
}
