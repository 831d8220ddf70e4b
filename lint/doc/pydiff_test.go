package doc

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// oracleAgrees writes n mutants of the corpus files (mutate with pieces, seeded by seed) to a
// folder as 0.ext, 1.ext, …, reads each with the reader for format f and runs script under
// python3 (arguments: the folder and n), which prints one line per file: "ok" when the
// framework's own parser reads it, anything else when it refuses it. The reader must refuse no
// file the oracle reads, so a parse-error finding is never a false one; with both set, it must
// also read every file the oracle reads. It returns how many files disagree each way.
// python3 is on every machine that runs the tests (.ci/run installs python3-venv); without it
// the test fails rather than skips.
func oracleAgrees(t *testing.T, f Format, ext string, pieces []string, seed int64, n int, script string, both bool) (refused, accepted int) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 not found (%v): install Debian's python3 (.ci/run does)", err)
	}
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
			if p.Kind == Syntax || p.Kind == DuplicateKey {
				ours[i] = fmt.Sprintf("%d:%d %s", p.Span.Start.Line, p.Span.Start.Col, p.Message)
				break
			}
		}
	}
	var out, stderr bytes.Buffer
	cmd := exec.Command(py, "-c", script, dir, strconv.Itoa(n))
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("python3: %v\n%s", err, stderr.String())
	}
	verdicts := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(verdicts) != n {
		t.Fatalf("python3 gave %d verdicts for %d files", len(verdicts), n)
	}
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
	return refused, accepted
}

// TestPythonSyntaxAgreesWithCPython mutates the corpus's Python configs (insertions of Python
// fragments, deletions) and asks CPython's own parser (python3's ast.parse, one process for all
// files) which of them are valid: the reader must refuse none that CPython accepts. The other
// direction (files CPython refuses and the reader reads: invalid f-strings, statements only
// Python's compiler refuses) is logged.
func TestPythonSyntaxAgreesWithCPython(t *testing.T) {
	pieces := []string{"(", ")", "[", "]", "{", "}", ",", ":", "=", "'", "\"", "\n", "  ", "\t", "#", "\\",
		"**", "*", "not ", " in ", "lambda x: x", "dict(", "0x1F", "1_000", "1e-3", "00", "07", "0_", "1__0",
		" if x else ", "for i in range(3)", "+=", "==", "<=", "é", "is not", "None", "True", "@", ":=", "...",
		";", "del x", "del ", "'a' 'b'", "rb'x'", "b'x'", "u'x'", "%", "0o7", "1j", "1if ", "global x", "return",
		"pass", "lambda: 0", "*a, b = c", "x[1:2:3]", "{**a}", "[*a]", "f(*a, **k)", "a=1, ", "**k, ", "*a, ",
		"class ", "def ", "try:", "else:", "elif ", "while ", " and ", " or ", "~", "^", "|", "<<", "//", "-",
		"+", ".", ".in", ".if", "in=", "\\x4", "\\u00e", "\\U0011", "\\N", "\\012", "\\n"}
	script := `import ast, sys, warnings
warnings.simplefilter("ignore")
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    with open(f"{d}/{i}.py", "rb") as f:
        src = f.read()
    try:
        ast.parse(src)
        print("ok")
    except SyntaxError as e:
        print("err", e.msg.replace("\n", " "))
    except Exception as e:
        print("err", type(e).__name__)
`
	const n = 1500
	refused, accepted := oracleAgrees(t, Python, ".py", pieces, 29, n, script, false)
	t.Logf("%d mutants: the reader refuses %d that CPython accepts, reads %d that CPython refuses", n, refused, accepted)
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
	script := `import sys, tomllib
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    with open(f"{d}/{i}.toml", "rb") as f:
        src = f.read()
    try:
        tomllib.loads(src.decode("utf-8"))
        print("ok")
    except Exception as e:
        print("err", type(e).__name__, str(e).replace("\n", " ").replace("\r", " "))
`
	const n = 3000
	refused, accepted := oracleAgrees(t, TOML, ".toml", pieces, 31, n, script, true)
	t.Logf("%d mutants: the reader refuses %d that tomllib reads, reads %d that tomllib refuses", n, refused, accepted)
}
