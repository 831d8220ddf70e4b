package doc

import (
	"bytes"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/corpustest"
)

// The loaders' own patterns, as written in PyYAML's resolver.py (6.0) and OmegaConf's _yaml.py
// (2.3), base-60 alternatives left out (loaderNumber's comment says why).
var (
	pyyamlInt   = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+)$`)
	pyyamlFloat = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	omegaFloat  = regexp.MustCompile(`^(?:[-+]?[0-9]+(?:_[0-9]+)*\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9]+(?:_[0-9]+)*(?:[eE][-+]?[0-9]+)|\.[0-9]+(?:_[0-9]+)*(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
)

// TestLoaderNumberMatchesPatterns holds loaderNumber to the loaders' patterns on the type samples
// and on 200,000 random strings over the characters numbers are written with.
func TestLoaderNumberMatchesPatterns(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	const alphabet = "00111789_._+-eEbxoBXa"
	values := append([]string(nil), plainTypeSamples...)
	for range 200000 {
		b := make([]byte, 1+r.Intn(7))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		values = append(values, string(b))
	}
	values = append(values, ".inf", "-.inf", ".nan", "-.nan", "+.Inf", ".NaN")
	for _, v := range values {
		want := pyyamlInt.MatchString(v) || pyyamlFloat.MatchString(v) || omegaFloat.MatchString(v)
		if got := loaderNumber(v); got != want {
			t.Errorf("loaderNumber(%q) = %v, the patterns say %v", v, got, want)
		}
	}
}

// TestPythonNumberLikeFloat holds pythonNumber to Python's float(), and Node.Int of a string to
// int(), on the same kind of strings,
// written in ASCII: float() also reads other scripts' decimal digits ("١٢"), which Node.Float
// does not (it stays silent on them).
func TestPythonNumberLikeFloat(t *testing.T) {
	py := corpustest.Python(t, "json")
	r := rand.New(rand.NewSource(4))
	const alphabet = "00119_._+-eEinfatyINx"
	values := append([]string{"inf", "-Infinity", "nan", "1_000.5", "1__0", "1_", "_1", ".5", "5.", ".", "1e5",
		"1e_5", "1.0e_8", "0x1F", "0o17", "1e1_0", "+.5e-3", "infinity", "infinit", "-nan", ""}, plainTypeSamples...)
	for range 20000 {
		b := make([]byte, 1+r.Intn(6))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		values = append(values, string(b))
	}
	var in bytes.Buffer
	for _, v := range values {
		in.WriteString(strings.NewReplacer("\n", " ", "\u00a0", " ").Replace(v) + "\n")
	}
	text := in.String()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	verdicts := corpustest.RunPython(t, py, `import sys
for line in sys.stdin.read().split("\n")[:-1]:
    try:
        float(line) if line.strip() == line else 1/0
        f = "1"
    except Exception:
        f = "0"
    try:
        i = "1" if -2**63 <= int(line) < 2**63 else "0"
    except Exception:
        i = "0"
    print(f + i)`, text, len(lines))
	for i, v := range lines {
		if !isASCII([]byte(v)) {
			continue
		}
		if got, want := pythonNumber(v), verdicts[i][0] == '1'; got != want {
			t.Errorf("pythonNumber(%q) = %v, float() says %v", v, got, want)
		}
		n := &Node{Kind: Scalar, Type: String, Value: v}
		if _, got := n.Int(); got != (verdicts[i][1] == '1') {
			t.Errorf("Int of the string %q: %v, int() says %v", v, got, !got)
		}
		if _, got := n.Float(); got && verdicts[i][0] != '1' && v == strings.TrimSpace(v) {
			t.Errorf("Float of the string %q reads a number, float() raises", v)
		}
	}
}
