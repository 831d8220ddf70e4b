package doc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/corpustest"
)

// pyExprGen writes random Python expressions from the part of the language configs compute
// with: literals, arithmetic, comparisons, conditionals, the builtins and string methods the
// evaluator knows, formatting (%, format, f-strings), subscripts and comprehensions.
// Every expression it writes is also recorded in subs, so a test can ask about the parts.
type pyExprGen struct {
	r    *rand.Rand
	subs *[]string
}

func (g pyExprGen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

func (g pyExprGen) leaf() string {
	switch g.r.Intn(6) {
	case 0:
		return g.pick("0", "1", "2", "3", "7", "-1", "10", "256", "1_000", "0x1F", "0o17", "0b101", "2**40", "12345678901234567890")
	case 1:
		return g.pick("0.5", "1e-4", "2.5", "-0.0", "1.0", "3e8", "0.1", "1e308", "6.25e-2", ".5", "5.")
	case 2:
		return g.pick(`'a'`, `"bc"`, `''`, `'x_y'`, `"1.5"`, `'12'`, `"A b"`, `'%s-%d'`, `'{}/{}'`, `'{0}{x}'`, `'\xa0a\x1c '`, `'ß\u2003'`, `'ΑΣ'`)
	case 3:
		return g.pick("True", "False", "None")
	case 4:
		return g.pick("[1, 2, 3]", "[]", "['a', 'b']", "(1, 'x')", "{'k': 1, 'j': 2}", "{}", "[0.5, 2]", "(4,)")
	}
	return g.pick("range(3)", "list(range(4))", "dict(a=1, b='x')")
}

func (g pyExprGen) expr(depth int) string {
	x := g.compound(depth)
	*g.subs = append(*g.subs, x)
	return x
}

func (g pyExprGen) compound(depth int) string {
	if depth <= 0 || g.r.Intn(4) == 0 {
		return g.leaf()
	}
	e := func() string { return g.expr(depth - 1) }
	switch g.r.Intn(14) {
	case 0, 1:
		if g.r.Intn(7) == 0 { // a small power: CPython would compute a huge one for ever
			return "(" + e() + " ** " + g.pick("0", "2", "-1", "0.5", "3") + ")"
		}
		return "(" + e() + " " + g.pick("+", "-", "*", "/", "//", "%") + " " + e() + ")"
	case 2:
		return "(" + e() + " " + g.pick("<", "<=", "==", "!=", ">", ">=", "in", "not in", "and", "or", "is", "is not") + " " + e() + ")"
	case 3:
		return "(" + g.pick("-", "+", "not ") + "(" + e() + "))"
	case 4:
		return "(" + e() + " if " + e() + " else " + e() + ")"
	case 5:
		return g.pick("str", "int", "float", "len", "abs", "bool", "list", "tuple", "sorted", "sum", "max", "min", "round", "repr", "dict") + "(" + e() + ")"
	case 6:
		return g.pick("max", "min", "round", "divmod", "isinstance") + "(" + e() + ", " + e() + ")"
	case 7:
		return "(" + e() + ")." + g.pick("upper()", "lower()", "strip()", "split()", "split(',')", "replace('a', 'b')", "startswith('a')", "endswith('c')", "format(1, 2, x=3)", "join(['p', 'q'])", "get('k')", "keys()", "values()", "items()", "count('a')", "title()", "zfill(4)")
	case 8:
		inner := strings.ReplaceAll(e(), `"`, `'`)
		if strings.Contains(inner, "f'") || strings.Contains(inner, "\\") {
			inner = g.leaf()
		}
		return `f"<{` + strings.ReplaceAll(inner, `"`, `'`) + g.pick("", ":.2f", ":>5", "!r", ":d", ":,", ":e", ":x", ":03d", ":.1%") + `}>"`
	case 9:
		return "(" + g.pick(`'%s'`, `'%d'`, `'%.3f'`, `'%s-%s'`, `'%5.1f%%'`, `'%r'`, `'%x'`) + " % " + e() + ")"
	case 10:
		return "(" + e() + ")[" + g.pick("0", "1", "-1", "1:", ":2", "::-1", "'k'", "2:1", "::2", "1::-1", "-1:0:-2", "::-2", "3:0:-1", "None:2", ":-1:2", "::0", "5:-9:-3", "-9::2") + "]"
	case 11:
		return "[" + g.pick("x", "x * 2", "str(x)", "x % 2", "(x, x)") + " for x in " + e() + g.pick("", " if x") + "]"
	case 12:
		return "{" + g.pick("str(x): x", "x: x * 2") + " for x in " + e() + "}"
	}
	return "[" + e() + ", " + e() + "]"
}

// TestPythonValuesAgreeWithCPython: the value the evaluator gives each of 4,000 random
// expressions (pyExprGen) is the value CPython gives it. Where the evaluator gives an unknown
// value it claims nothing and is not compared. Where CPython raises, the evaluator must give no
// value either, unless a part of the expression is unknown to it and raises in CPython: the
// evaluator takes an unknown value for one that exists (a list holding it is still non-empty),
// which a config that loads makes true.
func TestPythonValuesAgreeWithCPython(t *testing.T) {
	py := corpustest.Python(t, "ast")
	var subs []string
	g := pyExprGen{rand.New(rand.NewSource(61)), &subs}
	const n = 4000
	parts := make([][2]int, n) // each expression's parts: lines [from, to) of the file
	var lines, names []string
	for i := range n {
		subs = subs[:0]
		top := g.expr(3)
		lines, names = append(lines, "v"+strconv.Itoa(i)+" = "+top), append(names, "v"+strconv.Itoa(i))
		from := len(lines)
		for j, sub := range subs[:len(subs)-1] {
			name := fmt.Sprintf("p%d_%d", i, j)
			lines, names = append(lines, name+" = "+sub), append(names, name)
		}
		parts[i] = [2]int{from, len(lines)}
	}
	text := strings.Join(lines, "\n") + "\n"
	// Each line is read as a file of its own, so that one past a limit (a string of a million
	// characters) or with a syntax error leaves the others known.
	docs := make([]*Document, len(lines))
	var refused []int
	for k, line := range lines {
		docs[k] = Parse("gen.py", []byte(line+"\n"), Python, Limits{})
		if docs[k].Root == nil && !hasProblem(docs[k], LimitExceeded) {
			refused = append(refused, k) // a syntax error: CPython must refuse the line too
		}
	}
	script := "import sys, json\n" + pyValueTree + `
for line in sys.stdin.read().split("\n")[:-1]:
    try:
        ns = {}
        exec(line, ns)
        print(json.dumps(tree(ns[line.split(" = ")[0]])))
    except Exception as e:
        print(json.dumps("raises " + type(e).__name__))
`
	theirs := corpustest.RunPython(t, py, script, text, len(lines))
	// known reports the evaluator's value of line k, or nil when it is unknown.
	known := func(k int) *Node {
		if node := docs[k].Root.Get(names[k]); node != nil && !hasUnknown(node) { // Get on nil: nil
			return node
		}
		return nil
	}
	raises := func(k int) bool { return strings.HasPrefix(theirs[k], `"raises`) }
	for _, k := range refused {
		if theirs[k] != `"raises SyntaxError"` {
			t.Errorf("%s: a syntax error to the reader (%v), CPython gives %s", lines[k], docs[k].Problems, theirs[k])
		}
	}
	compared, unknown, absorbed, bad := 0, 0, 0, 0
	for i := range n {
		k := parts[i][0] - 1 // the expression's own line
		node := known(k)
		if node == nil {
			unknown++
			continue
		}
		b, _ := json.Marshal(valueTree(node))
		var diffs []string
		if raises(k) {
			excused := false
			for p := parts[i][0]; p < parts[i][1] && !excused; p++ {
				excused = raises(p) && known(p) == nil
			}
			if excused {
				absorbed++
				continue
			}
			diffs = append(diffs, fmt.Sprintf("CPython %s, the evaluator %s", theirs[k], b))
		} else {
			compared++
			var ours, th any
			json.Unmarshal(b, &ours)
			json.Unmarshal([]byte(theirs[k]), &th)
			sameValues("", ours, th, &diffs)
		}
		if len(diffs) > 0 {
			if bad++; bad <= 15 {
				t.Errorf("%s: %s", lines[k], strings.Join(diffs[:min(2, len(diffs))], "; "))
			}
		}
	}
	t.Logf("%d expressions: %d compared, %d unknown to the evaluator, %d raise in CPython through a part unknown to the evaluator, %d lines (expressions or parts) syntax errors to both, %d differ", n, compared, unknown, absorbed, len(refused), bad)
}

// hasUnknown reports whether n or a value under it is unknown.
func hasUnknown(n *Node) bool {
	found := false
	n.Walk(func(c *Node) bool {
		found = found || c.Kind == Scalar && c.Type == Unknown
		return !found
	})
	return found
}

// TestPyFloatPowRounding: x ** n for integer n is the exact power rounded once (computed here
// with rationals) on 20,000 random cases; math.Pow, which it replaces, was off in about half of
// them (2026-12-02), and CPython (glibc's pow) in 6 of 19,811.
func TestPyFloatPowRounding(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	bad := 0
	for range 20000 {
		x := []float64{r.Float64()*20 - 10, (r.Float64()*2 - 1) * 1e-3, math.Pow(10, r.Float64()*60-30), 1e-4, -1e-4, 0.1, 3}[r.Intn(7)]
		n := r.Intn(41) - 20
		if x == 0 || n == 0 {
			continue
		}
		exact := new(big.Rat).SetInt64(1)
		base := new(big.Rat).SetFloat64(x)
		for range abs(n) {
			exact.Mul(exact, base)
		}
		if n < 0 {
			exact.Inv(exact)
		}
		want, _ := exact.Float64()
		if math.IsInf(want, 0) || want == 0 || math.Abs(want) < 0x1p-1022 {
			continue // past float64's normal range: math.Pow decides there
		}
		if got, _ := pyFloatPow(x, float64(n)); got != want {
			if bad++; bad <= 5 {
				t.Errorf("%v ** %d = %v, want %v", x, n, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d powers not rounded once", bad)
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestPyFloatDivmod: floor division and modulo of floats as CPython 3.11 gives them (printed
// with repr by python3).
func TestPyFloatDivmod(t *testing.T) {
	for _, c := range [][4]float64{
		{1.0, 0.1, 9.0, 0.09999999999999995},
		{-7.5, 2.0, -4.0, 0.5},
		{7.5, -2.0, -4.0, -0.5},
		{0.5, 1e-4, 4999.0, 9.999999999997604e-05},
		{6.25e-2, 1e-4, 624.0, 9.999999999999701e-05},
		{1e-300, 1e300, 0.0, 1e-300},
	} {
		if d, m := pyFloatDivmod(c[0], c[1]); d != c[2] || m != c[3] {
			t.Errorf("divmod(%v, %v) = %v, %v; want %v, %v", c[0], c[1], d, m, c[2], c[3])
		}
	}
	if d, m := pyFloatDivmod(math.Copysign(0, -1), 3); !math.Signbit(d) || math.Signbit(m) {
		t.Errorf("divmod(-0.0, 3.0) = %v, %v; want -0.0, 0.0", d, m)
	}
}

// TestFStringErrorsLikeCPython: an f-string the reader refuses (fstringError's checks and the
// fields' numbers and plain expressions, through Parse) is one CPython's compile() refuses, on
// 20,000 random f-strings in a function; the other way (3.11 refuses what 3.12 reads, such as
// a backslash in a field; fields that are not plain) is logged.
func TestFStringErrorsLikeCPython(t *testing.T) {
	py := corpustest.Python(t, "ast")
	r := rand.New(rand.NewSource(12))
	pieces := []string{"{", "}", "{{", "}}", "x", "1", " ", "!r", "!s", "!x", "!", ":", ":>5", ":{w}", "(", ")", "[",
		"]", "'a'", "=", "!=", "\\N{EM DASH}", "\\n", "a.b", "x[0]", "{x}", "{x!r:>{w}}", ",", "lambda: 1",
		"*", "*a", "**", "yield", "07", "0b2", "1e", "1_0", " if x else y", "return", "not ", " in ", "a b", "+", "//",
		"#", ":=", "{1: 2}", "{a, b}", "await x", "0x1F", ".5", "5."}
	var srcs []string
	for range 20000 {
		var b strings.Builder
		b.WriteString("def f(x, a, w, y):\n    return f\"")
		for range 1 + r.Intn(6) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		b.WriteString("\"\n")
		srcs = append(srcs, b.String())
	}
	var in bytes.Buffer
	for _, s := range srcs {
		in.WriteString(strconv.Quote(s) + "\n")
	}
	verdicts := corpustest.RunPython(t, py, `import json, sys, warnings
warnings.simplefilter("ignore")
for line in sys.stdin:
    src = json.loads(line)
    try:
        compile(src, "m", "exec")
        print("ok")
    except SyntaxError:
        print("err")`, in.String(), len(srcs))
	refused, lenient := 0, 0
	for i, s := range srcs {
		var problem *Problem
		for _, p := range Parse("m.py", []byte(s), Python, Limits{}).Problems {
			if p.Kind == Syntax {
				problem = &p
				break
			}
		}
		switch {
		case problem != nil && verdicts[i] == "ok":
			if refused++; refused <= 10 {
				t.Errorf("%q: CPython reads it, the reader says %q at %d:%d", s, problem.Message, problem.Span.Start.Line, problem.Span.Start.Col)
			}
		case problem == nil && verdicts[i] == "err":
			lenient++
		}
	}
	t.Logf("%d f-strings: %d refused that CPython reads, %d read that it refuses", len(srcs), refused, lenient)
}

// TestMMEngineConfigsAgreeWithCPython: the corpus's MMEngine configs that import nothing, and
// 3,000 mutants of them (values, operators, brackets and calls inserted or cut), run by CPython
// (exec): every variable the evaluator knows (none of it unknown) holds CPython's value, in each
// file both read without an error.
func TestMMEngineConfigsAgreeWithCPython(t *testing.T) {
	py := corpustest.Python(t, "json")
	var files [][]byte
	for _, src := range corpusBytes(t, Python) {
		if bytes.Contains(src, []byte("_base_")) || bytes.Contains(src, []byte("dict(")) {
			if !bytes.Contains(src, []byte("import")) {
				files = append(files, src)
			}
		}
	}
	if len(files) < 5 {
		t.Fatalf("only %d import-free MMEngine configs in the corpus", len(files))
	}
	pieces := []string{"1", "0.5", "-", "+", "*", "2", "'a'", "[", "]", "(", ")", ",", " * 2", " + 1", "dict(", "x",
		"=", "\n", "True", "None", "{", "}", ":", " if True else ", "f'{1}'", "1e-3", "//", "%", "[0]", ".copy()", "**"}
	r := rand.New(rand.NewSource(3))
	dir := t.TempDir()
	const n = 3000
	var ours []string
	for i := range n {
		src := files[i%len(files)]
		if i >= len(files) {
			src = mutate(r, files[r.Intn(len(files))], pieces, 3, 6)
		}
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i)+".py"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		d := Parse("x.py", src, Python, Limits{})
		if d.Root == nil || hasProblem(d, Syntax, LimitExceeded) {
			ours = append(ours, "refused")
			continue
		}
		known := map[string]any{}
		for _, c := range d.Root.Children {
			if !strings.HasPrefix(c.Key, "_") && !hasUnknown(c) {
				b, _ := json.Marshal(valueTree(c))
				var v any
				json.Unmarshal(b, &v)
				known[c.Key] = v
			}
		}
		b, _ := json.Marshal(known)
		ours = append(ours, string(b))
	}
	script := "import json, sys\n" + pyValueTree + `
for i in range(int(sys.argv[2])):
    ns = {}
    try:
        exec(open(sys.argv[1] + "/" + str(i) + ".py").read(), ns)
        print(json.dumps({k: tree(v) for k, v in ns.items() if not k.startswith("_")}))
    except BaseException as e:
        print(json.dumps("raises " + type(e).__name__))
`
	theirs := corpustest.RunPython(t, py, script, "", n, dir, strconv.Itoa(n))
	compared, bad := 0, 0
	for i := range n {
		if ours[i] == "refused" || strings.HasPrefix(theirs[i], `"raises`) {
			continue
		}
		compared++
		var o, p map[string]any
		json.Unmarshal([]byte(ours[i]), &o)
		json.Unmarshal([]byte(theirs[i]), &p)
		var diffs []string
		for k, v := range o {
			if pv, ok := p[k]; !ok {
				diffs = append(diffs, k+": not a variable to CPython")
			} else {
				sameValues(k, v, pv, &diffs)
			}
		}
		if len(diffs) > 0 {
			if bad++; bad <= 10 {
				t.Errorf("file %d: %s", i, strings.Join(diffs[:min(3, len(diffs))], "; "))
			}
		}
	}
	t.Logf("%d files (%d configs, then mutants of them): %d read by both and compared, %d differ", n, len(files), compared, bad)
	if compared < 300 {
		t.Errorf("only %d files compared", compared)
	}
}
