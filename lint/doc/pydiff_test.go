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

// TestPythonSyntaxAgreesWithCPython mutates the corpus's Python configs (insertions of Python
// fragments, deletions) and asks CPython's own parser (python3's ast.parse, one process for all
// files) which of them are valid: the reader must refuse none that CPython accepts, so a
// parse-error finding is never a false one. The other direction (files CPython refuses and the
// reader reads: invalid f-strings, statements only Python's compiler refuses) is logged.
// python3 is on every machine that runs the tests (.ci/run installs python3-venv); without it
// the test fails rather than skips.
func TestPythonSyntaxAgreesWithCPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 not found (%v): install Debian's python3 (.ci/run does)", err)
	}
	files := corpusBytes(t, Python)
	if len(files) < 20 {
		t.Fatalf("only %d corpus Python files", len(files))
	}
	pieces := []string{"(", ")", "[", "]", "{", "}", ",", ":", "=", "'", "\"", "\n", "  ", "\t", "#", "\\",
		"**", "*", "not ", " in ", "lambda x: x", "dict(", "0x1F", "1_000", "1e-3", "00", "07", "0_", "1__0",
		" if x else ", "for i in range(3)", "+=", "==", "<=", "é", "is not", "None", "True", "@", ":=", "...",
		";", "del x", "del ", "'a' 'b'", "rb'x'", "b'x'", "u'x'", "%", "0o7", "1j", "1if ", "global x", "return",
		"pass", "lambda: 0", "*a, b = c", "x[1:2:3]", "{**a}", "[*a]", "f(*a, **k)", "a=1, ", "**k, ", "*a, ",
		"class ", "def ", "try:", "else:", "elif ", "while ", " and ", " or ", "~", "^", "|", "<<", "//", "-",
		"+", ".", ".in", ".if", "in=", "\\x4", "\\u00e", "\\U0011", "\\N", "\\012", "\\n"}
	dir := t.TempDir()
	r := rand.New(rand.NewSource(29))
	const n = 1500
	ours := make([]string, n)
	for i := range n {
		src := mutate(r, files[r.Intn(len(files))], pieces, 2, 8)
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i)+".py"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		ours[i] = "ok"
		for _, p := range Parse("m.py", src, Python, Limits{}).Problems {
			if p.Kind == Syntax {
				ours[i] = fmt.Sprintf("%d:%d %s", p.Span.Start.Line, p.Span.Start.Col, p.Message)
				break
			}
		}
	}
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
	refused, accepted := 0, 0
	for i, v := range verdicts {
		switch {
		case v == "ok" && ours[i] != "ok":
			refused++
			t.Errorf("mutant %d: CPython parses it, the reader reports %q", i, ours[i])
		case v != "ok" && ours[i] == "ok":
			accepted++
		}
	}
	t.Logf("%d mutants: the reader refuses %d that CPython accepts, reads %d that CPython refuses", n, refused, accepted)
}
