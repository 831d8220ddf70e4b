package doc

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestPythonEvalShortcuts holds the evaluator's shortcuts to what the general paths give: a
// long dict(k=v, ...) (indexed), a bound method named like a
// builtin (never the builtin), and numbers formatted into f-strings and str.format (automatic
// and numbered fields are never mixed: Python refuses that).
func TestPythonEvalShortcuts(t *testing.T) {
	src := `long = dict(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11, k12=12, k13=13, k14=14, k15=15, k16=16)
picked = long['k16']
s = 'x'
notdict = s.dict(a=1)
notlen = s.len()
parts = [1, 2]
parts.append(3)
f = f'{7}-{-2}-{2.0}-{1e20}-{0.25}-{True}-{None}'
g = '{}|{}|{}|{x}'.format(7, 2.0, 0.1, x=-5)
h = 'a{{b}}c{0}d}}e{1}'.format('X', 'Y')
`
	d := mustParse(t, Python, src)
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	if n := pyGet(t, d, "long"); len(n.Children) != 17 {
		t.Errorf("long: %d entries", len(n.Children))
	}
	if v, _ := pyGet(t, d, "picked").Int(); v != 16 {
		t.Errorf("picked = %d", v)
	}
	wantUnknown(t, d, "notdict", "notlen")
	if n := pyGet(t, d, "parts"); len(n.Children) != 3 {
		t.Errorf("parts: %+v", n.Children)
	}
	if n := pyGet(t, d, "f"); n.Value != "7--2-2.0-1e+20-0.25-True-None" {
		t.Errorf("f = %q", n.Value)
	}
	if n := pyGet(t, d, "g"); n.Value != "7|2.0|0.1|-5" {
		t.Errorf("g = %q", n.Value)
	}
	if n := pyGet(t, d, "h"); n.Value != "a{b}cXd}eY" {
		t.Errorf("h = %q", n.Value)
	}
}

// TestPySliceSteps: slices with a step follow Python's slice.indices (mmpretrain's bases write
// bgr_mean = data_preprocessor['mean'][::-1]); a step of 0 raises in Python and stays unknown.
func TestPySliceSteps(t *testing.T) {
	src := "dp = dict(mean=[123.675, 116.28, 103.53])\nbgr = dp['mean'][::-1]\nodd = [0, 1, 2, 3, 4][::2]\n" +
		"back = [0, 1, 2, 3, 4][-1:0:-2]\ns = 'abcdef'[4::-2]\nnone = [0, 1, 2][None:None:-1]\nzero = [1, 2][::0]\n"
	d := mustParse(t, Python, src)
	for k, want := range map[string]string{"bgr": "103.53 116.28 123.675", "odd": "0 2 4", "back": "4 2", "none": "2 1 0"} {
		n := pyGet(t, d, k)
		var got []string
		for _, c := range n.Children {
			got = append(got, c.Value)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s = %v, want %s", k, got, want)
		}
	}
	if n := pyGet(t, d, "s"); n.Value != "eca" {
		t.Errorf("s = %q", n.Value)
	}
	if n := pyGet(t, d, "zero"); !n.IsUnknown() {
		t.Errorf("zero = %+v, want unknown (ValueError)", n)
	}
}

// TestPyCopy: copy.deepcopy and copy.copy as the standard library makes them (mmpretrain's
// mobileone configs deep-copy a pipeline, then change the copy): a deep copy shares nothing
// mutable, a shallow one shares the items; a copy of a part of the bases is not a part of
// them, so changing it is no edit of the bases.
func TestPyCopy(t *testing.T) {
	src := "import copy\nfrom copy import deepcopy\nbase = [dict(type='A', scale=224), dict(type='B')]\n" +
		"c1 = copy.deepcopy(base)\nc1[0]['scale'] = 160\nc2 = copy.copy(base)\nc2.append(dict(type='C'))\nc2[1]['k'] = 1\n" +
		"c3 = deepcopy(dict(a=[1, 2]))\nu = copy.deepcopy(unknown_name)\nv = copy.deepcopy(dict(a=1).keys())\n"
	d := mustParse(t, Python, src)
	wantValues(t, d.Root, "", map[string]string{"base.0.scale": "224", "c1.0.scale": "160", "c2.2.type": "C", "base.1.k": "1", "c3.a.1": "2"})
	if n := d.Root.Get("base"); n == nil || len(n.Children) != 2 {
		t.Errorf("base = %+v: a shallow copy's append changed it", n)
	}
	wantUnknown(t, d, "u", "v")
	bases := ParseWith("b.py", []byte("l = [dict(k=1), 2]\n"), Python, Options{}).Root
	d = ParseWith("a.py", []byte("_base_ = './b.py'\nimport copy\nc = copy.deepcopy(_base_.l)\nc[0]['k'] = 9\n"), Python, Options{Bases: bases})
	if n := d.Root.StepPath("c.0.k"); n == nil || n.Value != "9" || len(d.BaseEdits) != 0 {
		t.Errorf("c = %+v, edits %+v", d.Root.Get("c"), d.BaseEdits)
	}
	// The copy's dict is its own (written out); a scalar it holds is the bases' own (immutable,
	// so shared by the copy), named as their part for composition to put their node there.
	if n := d.Root.StepPath("c.1"); n == nil || n.Value != "_base_.l.1" {
		t.Errorf("c.1 = %+v, want the bases' l.1", n)
	}
}

// TestPyDel: del removes what Python removes (a dict's entry, a list's item), a deleted name
// is unknown (Python unbinds it), and what the reader cannot place (an unknown key or index, a
// del that may not run, an attribute of a dict) leaves the container unknown. An item
// assignment at an unknown index leaves the list's items unknown.
func TestPyDel(t *testing.T) {
	src := "d = dict(a=1, b=2, c=3)\ndel d['a']\nl = [1, 2, 3, 4]\ndel l[1], l[-1]\nx = 5\ndel x\n" +
		"e = dict(a=1)\ndel e[k]\nf = dict(a=1)\ndel f.a\ng = [1, 2]\ndel g[k]\nh = dict(a=1)\n" +
		"if k:\n    del h['a']\nm = [1, 2]\nm[k] = 3\n"
	d := mustParse(t, Python, src)
	if n := pyGet(t, d, "d"); n.Get("a") != nil || len(n.Children) != 2 {
		t.Errorf("d = %+v", n.Children)
	}
	if n := pyGet(t, d, "l"); len(n.Children) != 2 || n.Children[0].Value != "1" || n.Children[1].Value != "3" {
		t.Errorf("l = %+v", n.Children)
	}
	wantUnknown(t, d, "x", "e", "f", "h")
	for _, k := range []string{"g", "m"} {
		n := pyGet(t, d, k)
		for _, c := range n.Children {
			if !c.IsUnknown() {
				t.Errorf("%s's items = %+v, want unknown", k, n.Children)
				break
			}
		}
	}
}

// TestPyUnknownCalleeChanges: a call of what the reader does not follow may change what it is
// given, whether its value is dropped (big_vision's load_and_eval.py runs
// `globals()[config.name](config)`) or used (`v = common.make(u)`): every dict reachable from
// the arguments is unknown afterwards, every list's items too, and a part of MMEngine's bases is
// an edit of unknown effect. A function the reader follows, the builtins and the standard
// library's loggers change nothing.
func TestPyUnknownCalleeChanges(t *testing.T) {
	src := "import logging\nimport common\n" +
		"s = dict(b=2)\nc = dict(a=1, sub=s)\ncommon.fill(c)\n" +
		"l = [1, dict(x=1)]\nhelper(l)\n" +
		"k = dict(a=1)\nglobals()['set_up'](config=k)\n" +
		"u = dict(a=1)\nv = common.make(u)\np = dict(a=1)\nq = [1, str(common.make(x=p))]\n" +
		"m = dict(a=1)\nlogging.info(m)\nprint(m)\nn = len(m) + len(str(m))\n" +
		"def f(d):\n    d['z'] = 3\nw = dict(a=1)\nf(w)\n"
	d := mustParse(t, Python, src)
	wantUnknown(t, d, "s", "c", "k", "l", "u", "p") // l: its items and its length
	if n := pyGet(t, d, "m"); n.Get("a") == nil || n.Get("a").Value != "1" {
		t.Errorf("m = %+v, want a=1: nothing changed it", n)
	}
	if n := pyGet(t, d, "w"); n.Get("z").Value != "3" {
		t.Errorf("w = %+v, want z=3 from f", n)
	}
	// big_vision's format_str only takes references to the fields it names; another module's
	// function of that name may change what it is given.
	d = mustParse(t, Python, "import big_vision.configs.common as bvcc\nfrom other import format_str\n"+
		"c = dict(variant='B')\nc['init'] = bvcc.format_str('x_{variant}', c)\no = dict(variant='B')\nformat_str('x', o)\n")
	if n := pyGet(t, d, "c"); n.IsUnknown() || n.Get("variant").Value != "B" || !n.Get("init").IsUnknown() {
		t.Errorf("c = %+v, want variant B and init unknown", n)
	}
	wantUnknown(t, d, "o")
	// In a block that may not run, the call is not run: what it may change is unknown, whatever
	// the callee (a followed function, a method that changes its object, a helper); builtins,
	// loggers and methods that only read leave it as it was.
	d = mustParse(t, Python, "import common, logging\ndef add(c):\n  c['x'] = 1\n"+
		"a = dict(k=1)\nb = dict(k=1)\ne = dict(k=1)\nl = [1]\nr = dict(k=1)\n"+
		"if flag:\n  add(a)\n  common.fill(x=b)\n  e.update(y=2)\n  r['k'] = 2\n"+
		"if flag:\n  l.append(2)\n  print(r)\n  logging.info(r)\n  r.get('k')\n"+
		"f = dict(k=1)\ng = dict(k=1)\nh = dict(k=1)\ni = dict(k=1)\nj = dict(k=1)\n"+
		"if flag:\n  y = add(f)\n  print(common.fill(g))\n  z = [dict(v=add(h))]\n"+
		"  while common.step(i):\n    pass\n  for t in common.each(j):\n    pass\n")
	wantUnknown(t, d, "a", "b", "e", "l", "f", "g", "h", "i", "j") // l: its items and its length
	// a while loop is not run: the calls of its test may change what they are given
	wantUnknown(t, mustParse(t, Python, "import common\nk = dict(k=1)\nwhile common.step(k):\n  pass\n"), "k")
	// a return in a block that may not run: the call it makes may change what it is given
	wantUnknown(t, mustParse(t, Python, "import common\ndef g(c):\n  if flag:\n    return common.fill(c)\n  return 1\n"+
		"k = dict(k=1)\ng(k)\n"), "k")
	if n := pyGet(t, d, "r"); n.IsUnknown() || n.Get("k") == nil || !n.Get("k").IsUnknown() {
		t.Errorf("r = %+v, want r.k unknown (assigned where it may not run) and r itself known", n)
	}
	// get_config's result given to a helper: no tree, so no rule reads a key as missing.
	g := Parse("c.py", []byte("import ml_collections\nfrom configs import common\ndef get_config():\n"+
		"  c = ml_collections.ConfigDict()\n  c.seed = 0\n  common.add_defaults(c)\n  return c\n"), Python, Limits{})
	if g.Root != nil && !g.Root.IsUnknown() && g.Root.Kind == Map {
		t.Errorf("get_config given to a helper read as %+v", g.Root.Children)
	}
	// A part of the bases given to a helper is an edit of unknown effect.
	b := Parse("c.py", []byte("_base_ = ['./b.py']\nimport tools\ntools.patch(_base_.model)\n"), Python, Limits{})
	found := false
	for _, e := range b.BaseEdits {
		found = found || e.Path == "model" && e.Value.IsUnknown()
	}
	if !found {
		t.Errorf("edits %+v: want model unknown", b.BaseEdits)
	}
}

// TestPyPartialDicts: a dict changed in ways not followed (partial: given to a helper, written
// at an unknown key, changed by a method not followed) answers no read of its entries: what
// is read from it is unknown, not what it held before. So does a list (likePartial), whose
// length is not known either (`hooks = []; add_hooks(hooks)` is not an empty list). A method not followed may change its
// object, and so may a method call whose arguments are not known.
func TestPyPartialDicts(t *testing.T) {
	d := mustParse(t, Python, "import common\n"+
		"c = dict(batch=32, sub=dict(a=1))\ncommon.fill(c)\n"+
		"x = c['batch']\ny = c.batch\nz = c.get('batch', 1)\nw = 'batch' in c\nn = len(c)\nks = list(c)\n"+
		"d = dict(k=1)\nd[key] = 2\nv = d['k']\n"+
		"e = dict(k=1, m=2)\ne.popitem()\nl = [3, 1, 2]\nl.sort()\n"+
		"f = dict(k=1)\nf.update(**common.extra())\ng = dict(k=1)\np = g.pop(key, 0)\n"+
		"h = dict(k=1)\nq = h.get('k')\nr = h.pop('k')\n"+
		"hooks = []\ncommon.add_hooks(hooks)\nhn = len(hooks)\nh0 = hooks[0] if hooks else None\nhs = hooks[:1]\n"+
		"hi = 'x' in hooks\nhl = [*hooks]\nhc = hooks.copy()\nhd = dict(hooks)\nhe = hooks == []\n")
	wantUnknown(t, d, "x", "y", "z", "w", "n", "ks", "v", "e", "f", "g", "p", "hooks", "hn", "h0", "hs", "hi", "hl", "hc", "hd", "he", "l")
	if q, r, h := pyGet(t, d, "q"), pyGet(t, d, "r"), pyGet(t, d, "h"); q.Value != "1" || r.Value != "1" || len(h.Children) != 0 {
		t.Errorf("a dict read as it is: q = %+v, r = %+v, h = %+v", q, r, h)
	}
}

// TestPyLeavesStayLeaves: the values pyEval.scalar makes come from blocks whose list, dict,
// fn and x are never written, so it writes only their other fields; nothing may give a scalar
// a list, dict, function or extension. After every corpus Python file and constructs that
// make values of every kind, no scalar block holds one.
func TestPyLeavesStayLeaves(t *testing.T) {
	srcs := []string{`x = (f'{a}-{b!r}' 'c', [i for i in (1, 2) if i > 1], {k: v for k, v in {}.items()})
y = dict(a=('s'), b=(1), c=(True), d=-(2) ** 3, e=not x, f=(lambda q: q)(1), g=(z := 4))
def h(p, *a, q=1, **k):
  return f"{p}{q:>3}" if p in (1, 2) else {**k}
w = h(1, q=2)[0] + x[1:2][0]
`}
	for path, f := range corpusFiles(t, map[Format]bool{Python: true}) {
		if f != Python {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(src))
	}
	for _, src := range srcs {
		Parse("x.py", []byte(src), Python, Limits{})
	}
	pyArenas.Lock()
	defer pyArenas.Unlock()
	n := 0
	for _, a := range pyArenas.free {
		for _, b := range a.scalars.blocks {
			for i := range b {
				if v := &b[i]; v.list != nil || v.dict != nil || v.fn != nil || v.x != nil {
					t.Fatalf("scalar %d (kind %d at %d) has a list, dict, function or extension", i, v.k, v.s0)
				}
				if b[i].k != pvNone || b[i].e0 != 0 {
					n++
				}
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d scalars seen", n)
	}
}

// TestPyTreeHasNoPointers: the syntax tree's blocks (expressions, statements, id lists,
// keywords, comprehension clauses) hold no pointers, so the collector never scans them and the
// parser writes them without write barriers (pyExpr says why). A field added with a pointer in
// it would quietly bring both back.
func TestPyTreeHasNoPointers(t *testing.T) {
	for _, v := range []any{pyExpr{}, pyStmt{}, pyIds{}, pyKw{}, pyFor{}, pyTok{}} {
		if ty := reflect.TypeOf(v); hasPointers(ty) {
			t.Errorf("%v holds pointers", ty)
		}
	}
}

// hasPointers reports whether a value of type ty holds a pointer the collector would follow.
func hasPointers(ty reflect.Type) bool {
	switch ty.Kind() {
	case reflect.Struct:
		for i := range ty.NumField() {
			if hasPointers(ty.Field(i).Type) {
				return true
			}
		}
		return false
	case reflect.Array:
		return ty.Len() > 0 && hasPointers(ty.Elem())
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	}
	return true
}

// refDictKey is the map key the indexed dict's table replaced (a hashable value's identity:
// "s"+text, numbers by value so 1 == 1.0 == True): the table must find what a map keyed by it
// found.
func refDictKey(k *pyVal) string {
	switch k.k {
	case pvStr:
		return "s" + k.s
	case pvInt:
		return "i" + strconv.FormatInt(k.i, 10)
	case pvBool:
		if k.b {
			return "i1"
		}
		return "i0"
	case pvFloat:
		if k.f == math.Trunc(k.f) && math.Abs(k.f) < 1<<53 {
			return "i" + strconv.FormatInt(int64(k.f), 10)
		}
		return "f" + strconv.FormatFloat(k.f, 'g', -1, 64)
	}
	return "n"
}

// TestPyDictIndex holds an indexed dict's table to a map keyed by refDictKey: random keys of
// every hashable kind (strings, ints, bools, floats integral or not, NaN, ±0, ±Inf, ints past
// 2^53, None) set, looked up and deleted in random order.
func TestPyDictIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 34))
	key := func() *pyVal {
		switch rng.IntN(9) {
		case 0, 1:
			return strVal(strconv.Itoa(rng.IntN(60)), 0, 0)
		case 2:
			return intVal(int64(rng.IntN(60)-5), 0, 0)
		case 3:
			return boolVal(rng.IntN(2) == 0, 0, 0)
		case 4:
			return floatVal(float64(rng.IntN(60))/float64(1+rng.IntN(3)), 0, 0)
		case 5:
			return floatVal([]float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 1 << 60, 1<<53 + 2}[rng.IntN(7)], 0, 0)
		case 6:
			return intVal([]int64{1 << 60, 1<<53 + 1, 1 << 53, math.MinInt64, math.MaxInt64}[rng.IntN(5)], 0, 0)
		case 7:
			return noneVal(0, 0)
		}
		return strVal(string(rune('a'+rng.IntN(26)))+"_key", 0, 0)
	}
	for round := 0; round < 50; round++ {
		d := &pyDict{}
		for n := 0; n < 40; n++ {
			d.ents = append(d.ents, pyEnt{k: strVal("k"+strconv.Itoa(n), 0, 0), v: intVal(int64(n), 0, 0)})
		}
		d.reindex()
		ref := map[string]int{}
		for j := range d.ents {
			ref[refDictKey(d.ents[j].k)] = j
		}
		for op := 0; op < 300; op++ {
			k := key()
			switch rng.IntN(4) {
			case 0:
				d.set(k, intVal(int64(op), 0, 0), 0, 0)
			case 1:
				if len(d.ents) > pyDictIndexed {
					d.del(k)
				}
			}
			ref = map[string]int{}
			for j := range d.ents {
				ref[refDictKey(d.ents[j].k)] = j
			}
			want, ok := ref[refDictKey(k)]
			if !ok {
				want = -1
			}
			if got := d.find(k); got != want {
				t.Fatalf("round %d op %d: find(%s) = %d, want %d", round, op, refDictKey(k), got, want)
			}
			if k.k == pvStr {
				v, ok := d.getStr(k.s)
				if ok != (want >= 0) || ok && v != d.ents[want].v {
					t.Fatalf("round %d op %d: getStr(%q) = %v, %v", round, op, k.s, v, ok)
				}
			}
		}
	}
}

// BenchmarkPythonTree builds the Document of the corpus's flexivit i21k_sup.py (843 nodes,
// most of them from its loops' evaluators) from its evaluated values again and again: the
// builder's own cost per node (allocating the nodes, their spans and texts), without the
// lexer, parser and evaluator (pyTreeHook).
func BenchmarkPythonTree(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(corpusDir(b), "py", "google-research__big_vision", "big_vision__configs__proj__flexivit__i21k_sup.py"))
	if err != nil {
		b.Fatal(err)
	}
	ran := false
	pyTreeHook = func(build func() bool) {
		ran = true
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if !build() {
				b.Fatal("no tree")
			}
		}
		b.StopTimer()
	}
	defer func() { pyTreeHook = nil }()
	d := Parse("i21k_sup.py", src, Python, Limits{})
	if !ran || d.Root == nil || len(d.Root.Children) == 0 {
		b.Fatal("i21k_sup.py was not read to a tree")
	}
}

// TestPyNumberUnderscores holds the evaluator's shortcut for decimal ints with underscores
// (250_000) to the general number parser's reading (underscores dropped, then ParseInt) and
// leaves every other spelling to that parser.
func TestPyNumberUnderscores(t *testing.T) {
	for _, lit := range []string{"250_000", "1_2_3", "10_000_000", "999_999_999_999_999_999", "1_000_000_000_000_000_000", "123456789012345678", "1234567890123456789", "0", "7"} {
		d := Parse("x.py", []byte("a = "+lit+"\n"), Python, Limits{})
		if d.Root == nil || len(d.Root.Children) != 1 {
			t.Fatalf("%s: no tree: %v", lit, d.Problems)
		}
		n := d.Root.Children[0]
		want, err := strconv.ParseInt(strings.ReplaceAll(lit, "_", ""), 10, 64)
		if err != nil {
			if n.Type != Unknown {
				t.Errorf("%s: %v %q, want unknown (past int64)", lit, n.Type, n.Value)
			}
			continue
		}
		if n.Type != Int || n.Value != strconv.FormatInt(want, 10) {
			t.Errorf("%s: %v %q, want int %d", lit, n.Type, n.Value, want)
		}
		if wantStyle := map[bool]string{true: "plain", false: "python"}[!strings.Contains(lit, "_")]; n.Style != wantStyle {
			t.Errorf("%s: style %q, want %q", lit, n.Style, wantStyle)
		}
	}
}

// TestPyFieldsParsedLate: an f-string's fields are parsed when it is first evaluated, so their
// expressions join the tree after the whole file's; here they land in a block of their own
// past the file's first 512 expressions, and the parsing runs while the evaluator holds the
// f-string, its extension and the loop's lists (pyStore's blocks never move, the id list is
// only appended to).
func TestPyFieldsParsedLate(t *testing.T) {
	var b strings.Builder
	b.WriteString("pad = [")
	for i := range 700 {
		b.WriteString(strconv.Itoa(i+1) + ", ")
	}
	b.WriteString("]\n" + `def name(i, **kw):
    return f"{i}-{pad[i]:03d}-{'x' * (i % 3)}-{dict(k=i, **kw)['k']}-{len([j for j in range(i) if j > 1])}"
out = [name(i, z=1) for i in range(5)]
`)
	d := mustParse(t, Python, b.String())
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	want := []string{"0-001--0-0", "1-002-x-1-0", "2-003-xx-2-0", "3-004--3-1", "4-005-x-4-2"}
	out := pyGet(t, d, "out")
	if len(out.Children) != len(want) {
		t.Fatalf("out: %d items", len(out.Children))
	}
	for i, w := range want {
		if got := out.Children[i].Value; got != w {
			t.Errorf("out[%d] = %q, want %q", i, got, w)
		}
	}
}

// TestPyArenaListsStartClean: the arena's list blocks are kept for the next file, and a list a
// call spoiled there (likePartial) must not leave its mark on the lists the next file makes.
func TestPyArenaListsStartClean(t *testing.T) {
	for range 3 {
		mustParse(t, Python, "import m\nl = [[1], [2], [3]]\nm.f(l)\n")
		d := mustParse(t, Python, "x = [[1], [2], [3]]\n")
		if n := pyGet(t, d, "x"); n.IsUnknown() || len(n.Children) != 3 || n.Children[0].IsUnknown() {
			t.Fatalf("x = %+v: a list of the next file inherited a spoiled list's mark", n)
		}
	}
}

// A name imported from a package by dots alone names its module under them: `from .. import
// sched` is ..sched, not .sched (one folder too shallow), and `from ._base_ import sched` is
// ._base_.sched.
func TestFromDotsImportNamesModule(t *testing.T) {
	src := "from .. import sched\nfrom ._base_ import runtime\nmodel = dict(a=sched, b=runtime)\n"
	d := Parse("configs/x.py", []byte(src), Python, Limits{})
	if d.Root == nil {
		t.Fatalf("no tree: %v", d.Problems)
	}
	for path, want := range map[string]string{"model.a": "..sched", "model.b": "._base_.runtime"} {
		if n := d.Root.At(path); n == nil || n.Style != "reference" || n.Value != want {
			t.Errorf("%s: %+v, want the reference %s", path, n, want)
		}
	}
}
