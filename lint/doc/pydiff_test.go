package doc

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/corpustest"
)

// oracleAgrees writes n mutants of the corpus files (mutate with pieces, seeded by seed) to a
// folder as 0.ext, 1.ext, …, reads each with the reader for format f, and has a python3 that can
// import module evaluate load on each file's bytes (src) in one process: a file the expression
// reads without an exception is one the framework's own parser reads. The reader refuses a file
// when it reports a problem of one of the kinds given. It must refuse no file the oracle reads,
// so a parse-error finding is never a false one; with both set, it must also refuse every file
// the oracle refuses. It logs how many files disagree each way.
func oracleAgrees(t *testing.T, f Format, ext string, pieces []string, seed int64, n int, module, load string, both bool, kinds ...ProblemKind) {
	t.Helper()
	py := corpustest.Python(t, module)
	files := corpusBytes(t, f)
	if len(files) < 20 {
		t.Fatalf("only %d corpus %s files", len(files), f)
	}
	dir := t.TempDir()
	r := rand.New(rand.NewSource(seed))
	ours := make([]string, n)
	for i := range n {
		src := mutate(r, files[r.Intn(len(files))], pieces, 2, 8)
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i)+ext), src, 0o644); err != nil {
			t.Fatal(err)
		}
		ours[i] = "ok"
		for _, p := range Parse("m"+ext, src, f, Limits{}).Problems {
			if slices.Contains(kinds, p.Kind) {
				ours[i] = fmt.Sprintf("%d:%d %s", p.Span.Start.Line, p.Span.Start.Col, p.Message)
				break
			}
		}
	}
	script := "import sys, warnings, " + module + `
warnings.simplefilter("ignore")
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    with open(f"{d}/{i}` + ext + `", "rb") as f:
        src = f.read()
    try:
        ` + load + `
        print("ok")
    except Exception as e:
        print("err", type(e).__name__, str(e).replace("\n", " ").replace("\r", " "))
`
	verdicts := corpustest.RunPython(t, py, script, "", n, dir, strconv.Itoa(n))
	refused, accepted := 0, 0
	for i, v := range verdicts {
		switch {
		case v == "ok" && ours[i] != "ok":
			refused++
			t.Errorf("mutant %d: the framework's parser reads it, the reader reports %q", i, ours[i])
		case v != "ok" && ours[i] == "ok":
			accepted++
			if both {
				t.Errorf("mutant %d: the framework's parser refuses it (%s), the reader reads it", i, v)
			}
		}
	}
	t.Logf("%d mutants: the reader refuses %d that %s reads, reads %d that it refuses", n, refused, module, accepted)
}

// TestPythonSyntaxAgreesWithCPython mutates the corpus's Python configs (insertions of Python
// fragments, deletions) and asks CPython (python3's compile(), one process for all files: what
// importing or exec'ing a config does first, parser and compiler) which of them are valid: the
// reader must refuse none that CPython accepts. The other direction (files CPython refuses and
// the reader reads: mostly f-string fields that do not parse, which are read as unknown) is
// logged.
func TestPythonSyntaxAgreesWithCPython(t *testing.T) {
	pieces := []string{"(", ")", "[", "]", "{", "}", ",", ":", "=", "'", "\"", "\n", "  ", "\t", "#", "\\",
		"**", "*", "not ", " in ", "lambda x: x", "dict(", "0x1F", "1_000", "1e-3", "00", "07", "0_", "1__0",
		" if x else ", "for i in range(3)", "+=", "==", "<=", "é", "is not", "None", "True", "@", ":=", "...",
		";", "del x", "del ", "'a' 'b'", "rb'x'", "b'x'", "u'x'", "%", "0o7", "1j", "1if ", "global x", "return",
		"pass", "lambda: 0", "*a, b = c", "x[1:2:3]", "{**a}", "[*a]", "f(*a, **k)", "a=1, ", "**k, ", "*a, ",
		"class ", "def ", "try:", "else:", "elif ", "while ", " and ", " or ", "~", "^", "|", "<<", "//", "-",
		"+", ".", ".in", ".if", "in=", "\\x4", "\\u00e", "\\U0011", "\\N", "\\012", "\\n"}
	oracleAgrees(t, Python, ".py", pieces, 29, 1500, "ast", `compile(src, "m", "exec")`, false, Syntax)
}

// TestTOMLAgreesWithTomllib does the same for TOML with Python's tomllib (TOML 1.0.0, what
// torchtitan loads its configs with), in both directions: the reader must refuse exactly the
// files tomllib refuses. go-toml alone reads some of TOML 1.1 and unchecked dates (toml10.go).
func TestTOMLAgreesWithTomllib(t *testing.T) {
	pieces := []string{"[", "]", "[[", "]]", "{", "}", ",", "=", "'", "\"", "\"\"\"", "'''", "\n", " ", "\t", "#",
		"\\", ".", "a.b", "\"k\"", "1_000", "1__0", "0x1F", "0o7", "0b1", "1e-3", "1.", ".5", "+1", "-0", "00",
		"07", "inf", "nan", "+inf", "true", "false", "True", "1979-05-27", "1979-05-27T07:32:00Z", "07:32:00",
		"1979-05-27 07:32", "1979-05-27T07:32:00.999+01:00", "\\x41", "\\u00e9", "\\U0001F600", "\\e", "\\t", "é",
		"\r\n", "\r", "x = 1\n", "[t]\n", "[[a]]\n", "a = {b = 1}\n", "\x00", "\x7f", "\x01", "a = {b = 1, c = 2}",
		"{\n", ",}", "ü", "\"\"\"\n", "'''\n", "\\\n", "-inf", "0.0", "1e", "e5", "1.e5", "_", "[a.b]\n", "[ a ]\n",
		"\"\" = 1\n", "a.\"b\" = 1\n", `\u0000`, `\ud800`, "1979-05-27T07:32:00-08:00", "1979-02-29", "2000-02-29",
		"24:00:00", "07:32:60"}
	oracleAgrees(t, TOML, ".toml", pieces, 31, 3000, "tomllib", `tomllib.loads(src.decode("utf-8"))`, true, Syntax, DuplicateKey)
}

// TestYAMLAgreesWithPyYAML does the same for YAML with PyYAML's safe_load_all, which the
// frameworks load YAML with (directly, or through OmegaConf, Hydra and jsonargparse), in both
// directions (pyyaml.go): a duplicate key is not a refusal here, since PyYAML keeps the last.
// Left out of the pieces, as known differences: explicit tags (a framework's loader may add
// its own, so the reader does not judge them) and a byte order mark after the start (a character
// to PyYAML, nothing to yaml.v3).
func TestYAMLAgreesWithPyYAML(t *testing.T) {
	pieces := []string{"[", "]", "{", "}", ",", ":", ": ", "- ", "-", "'", "\"", "\n", "  ", " ", "\t", "#", " #",
		"\\", "&a ", "*a", "<<: *a\n", "? ", "|\n", ">\n", "|-\n", "---\n", "...\n", "%YAML 1.1\n", "yes",
		"1e-4", "0x1F", "0o7", "1_000", "~", "null", "\u00e9", "\r\n", "\r", "\x00", "\x7f", "\x85", "\u2028",
		"@", "`", "%", "a: b: c", "\"\\x41\"", "\"\\e\"", "\"\\q\"", "\"\\'\"", "'it''s'", "key: value\n",
		"- item\n", "  - x\n", "x: |\n  a\n", "{a: 1}", "[1, 2]", "? a\n: b\n", "? [a]\n: b\n", "[a]: 1", "=",
		"\"\\/\"", "\\/", "\\\\/", ":}", ":,", "{a: b:}", "[a: b:]"}
	oracleAgrees(t, YAML, ".yaml", pieces, 37, 1500, "yaml", "list(yaml.safe_load_all(src))", true, Syntax)
}

// TestJSONAgreesWithPython does the same for JSON with Python's json.load on the file opened as
// UTF-8, as transformers and accelerate read a DeepSpeed config (NaN and Infinity are read, a
// byte order mark is refused), in both directions; a duplicate key is not a refusal to it, a
// comment, a trailing comma or the rest of JSON5's syntax (read past, NonStandard) is. The
// byte order mark is also checked by TestJSONBOMCRLF: a mutation seldom puts one first.
func TestJSONAgreesWithPython(t *testing.T) {
	pieces := []string{"[", "]", "{", "}", ",", ":", "\"", "\n", " ", "\t", "\\", "//", "/*", "#", "NaN", "Infinity",
		"-Infinity", "-", "+1", "01", "1.", ".5", "1e5", "1E+5", "-0", "1e", "true", "false", "null", "True", "None",
		"\\u00e9", `\ud800`, "\\x41", "\\/", "\\'", "é", "\x00", "\x01", "\x7f", "\r\n", "\r", "\ufeff", "\u2028",
		"\"k\": 1,", ",}", ",]", "'s'", "\"a\":", "k", "$", "'", "0x1F", "+Infinity", "-NaN", "\\\n", "\\v"}
	oracleAgrees(t, JSON, ".json", pieces, 43, 2000, "json", `json.loads(src.decode("utf-8"))`, true, Syntax, NonStandard)
}

// TestPythonCompileErrorsLikeCPython holds the reader to python3's compile() on the mistakes that
// CPython's parser lets through and its compiler refuses (return, yield, break, continue and
// nonlocal out of place, targets that cannot be assigned, deleted or annotated, starred
// expressions alone, repeated keywords and parameters, a parameter without a default after one
// with a default, try without except or finally, except* blocks left by break, continue or
// return), on the lexer's (digits of a base, bytes that are not ASCII, numbers inside f-string
// fields, a continuation at the end of the file), on plain f-string fields that do not parse, and
// on valid lines near them: each is refused exactly when CPython refuses it, at CPython's line,
// and at its column where both name the same token. Two of CPython's refusals are not judged and
// not listed: a name assigned before its global declaration, and \N{...} with a name that is not
// Unicode's (no name table in the engine).
func TestPythonCompileErrorsLikeCPython(t *testing.T) {
	cases := []struct {
		src   string
		exact bool // the column is CPython's too
	}{
		{"x = f'{7None}'\n", false}, {"x = f'{07}'\n", false}, {"x = f'{a.1_0x}'\n", false}, {"x = f'{1_000:>{w}}'\n", true},
		{"x = f'{x!r:>{0b2}}'\n", false}, {"x = 07\n", true}, {"x = 0b12\n", true}, {"x = 0o8\n", true}, {"x = 0b1a\n", false},
		{"x = 0x1f\n", true}, {"x = 0o17 + 0b101\n", true}, {"x = b'\xc3\xa9'\n", false}, {"x = b'\\xe9'\n", true},
		{"x = 1\\\n", false}, {"x = 1 \\\n\n", true},
		{"def get_config(try=None):\n  return 1\n", true}, {"def if(): pass\n", true}, {"class None: pass\n", false},
		{"f(x) = 1\n", true}, {"*a = [1]\n", true}, {"*a, b = [1, 2]\n", true}, {"*a, *b = c\n", true},
		{"x = *a\n", true}, {"x = *a,\n", true}, {"x = (*a)\n", true}, {"x = [*a]\n", true}, {"print(*a)\n", true},
		{"return 1\n", true}, {"def f():\n  return *a, 1\n", true}, {"def f():\n  return *a\n", true},
		{"def f():\n  for x in *a, b:\n    yield x\n", true}, {"class A:\n  return 1\n", true},
		{"def f():\n  class A:\n    return 1\n", true}, {"x = yield\n", true}, {"lambda: (yield)\n", true},
		{"def f():\n  x = yield\n  y = yield from x\n", true}, {"yield 1\n", true},
		{"break\n", true}, {"continue\n", true}, {"for x in y:\n  break\nelse:\n  continue\n", true},
		{"while x:\n  def f():\n    break\n", true}, {"while x:\n  if y:\n    continue\n", true},
		{"nonlocal x\n", true}, {"def f():\n  x = 1\n  def g():\n    nonlocal x\n", true}, {"global x\nx = 1\n", true},
		{"f(a=1, a=2)\n", true}, {"class A(x=1, x=2): pass\n", true}, {"f(a=1, **k, a=2)\n", true}, {"f(a=1, **{'a': 2})\n", true},
		{"def f(a, a): pass\n", true}, {"g = lambda a, a: 0\n", false}, {"def f(a=1, b): pass\n", true},
		{"def f(a=1, *, b): pass\n", true}, {"def f(a=1, *args, b): pass\n", true}, {"def f(a=1, /, b=2): pass\n", true},
		{"def f(**k, a): pass\n", true},
		{"try:\n  x = 1\ny = 2\n", true}, {"try:\n  x = 1\nfinally:\n  y = 2\n", true}, {"try:\n  x = 1\nexcept E:\n  pass\nelse:\n  y = 2\n", true},
		{"del f(x)\n", true}, {"del x, y[0], z.a\n", true}, {"del (x, [y])\n", true}, {"for f() in y: pass\n", true},
		{"with open(x) as f(): pass\n", true}, {"with open(x) as (a, b): pass\n", true}, {"x = [1 for f() in y]\n", true},
		{"(a, b) += 1\n", true}, {"a, b += 1\n", true}, {"[a] += 1\n", true}, {"a.b += 1\n", true},
		{"(x, y): int = 1\n", true}, {"[x]: int\n", true}, {"f(): int\n", true}, {"(x): int = 1\n", true}, {"x.y: int\n", true},
		{"def f[T](x: T) -> T:\n  return x\n", true}, {"class Box[T, *Ts, **P]:\n  pass\n", true}, {"type Pair[T] = tuple[T, T]\n", true},
		{"type = 3\ntype.x = 1\n", true},
		{"x = f'{a b}'\n", false}, {"x = f'{n//7return}'\n", false}, {"x = f'{lambda x: 1}'\n", false},
		{"x = f'{a:{b c}}'\n", false}, {"x = f'{*a, b}' + f'{a = !r}' + f'{ {1: 2}[1] }' + f'{(lambda: 1)()}'\n", true},
		{"def g():\n  y = f'{yield}' + f'{(yield)}'\n", true},
		{"for x in y:\n  try:\n    pass\n  except* E:\n    break\n", true},
		{"try:\n  pass\nexcept* E:\n  for x in y:\n    break\n", true},
		{"def f():\n  try:\n    pass\n  except* E:\n    def g():\n      return 1\n", true},
		{"def f():\n  try:\n    pass\n  except* E:\n    return\n", true},
		{"for x in y:\n  try:\n    pass\n  except* E:\n    continue\n  finally:\n    pass\n", true},
		{"try:\n  pass\nexcept* E:\n  pass\nexcept F:\n  pass\n", true},
		{"try:\n  pass\nexcept*:\n  pass\n", true}, {"try:\n  pass\nexcept* (E, F) as g:\n  pass\n", true},
	}
	py := corpustest.Python(t, "ast")
	var in strings.Builder
	for _, c := range cases {
		in.WriteString(strconv.Quote(c.src) + "\n")
	}
	// CPython's column is a 1-based character count; the reader's too (Pos.Col counts runes).
	verdicts := corpustest.RunPython(t, py, `import json, sys
for line in sys.stdin:
    src = json.loads(line)
    try:
        compile(src, "m", "exec")
        print("ok")
    except SyntaxError as e:
        print(f"{e.lineno}:{e.offset} {e.msg}")`, in.String(), len(cases))
	typeParams := sys312(t, py)
	for i, c := range cases {
		want := verdicts[i]
		if strings.Contains(c.src, "[T") && !typeParams && want != "ok" {
			want = "ok" // Python 3.12's type parameters: read, as 3.12 reads them
		}
		d := Parse("m.py", []byte(c.src), Python, Limits{})
		got := "ok"
		for _, p := range d.Problems {
			if p.Kind == Syntax {
				got = fmt.Sprintf("%d:%d %s", p.Span.Start.Line, p.Span.Start.Col, p.Message)
				break
			}
		}
		switch {
		case (got == "ok") != (want == "ok"):
			t.Errorf("%q: CPython %q, the reader %q", c.src, want, got)
		case got == "ok":
		case c.exact && strings.Fields(got)[0] != strings.Fields(want)[0],
			strings.Split(got, ":")[0] != strings.Split(want, ":")[0]:
			t.Errorf("%q: CPython refuses it at %q, the reader at %q", c.src, want, got)
		}
	}
}

// sys312 reports whether py is Python 3.12 or later.
func sys312(t *testing.T, py string) bool {
	v := corpustest.RunPython(t, py, "import sys\nprint(sys.version_info >= (3, 12))", "", 1)
	return v[0] == "True"
}
