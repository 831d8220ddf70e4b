package dialect

import (
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// ocCases are values written to reach each of the grammar's rules; omegaconfVerdicts gives
// them to OmegaConf with the corpus's values and their mutants.
var ocCases = []string{
	"${a}", "${a.b[c]}", "${.a}", "${..a}", "${[a]}", "${a[0][1]}", "${a.0}", "${a-b}", "${$a}",
	"${a..b}", "${a.}", "${}", "${ a }", "${a b}", "${a${b}}", "${${a}}", "${a.${b}}", "${a[${b}]}",
	"${a[}", "${a]}", "${a[b}", "${a:}", "${:a}", "${a:b}", "${a: b , c }", "${a:,}", "${a:,b,,c}",
	"${a.b:c}", "${a.${b}:c}", "${${a}:b}", "${a-b:c}", "${1a:b}", "${a b:c}", "${a:b:c}",
	"${a:'b}", "${a:'b'}", "${a:\"b\"}", "${a:'${b}'}", "${a:'\\'b'}", "${a:'\\\\'b'}", "${a:''}",
	"${a:[1,2]}", "${a:[1,2}", "${a:[]}", "${a:[,]}", "${a:{}}", "${a:{b:1}}", "${a:{b:1,c:[2]}}",
	"${a:{b:1}", "${a:{b}}", "${a:{:1}}", "${a:{b c:1}}", "${a:{b:1,}}", "${a:{${b}:1}}",
	"${a:b=c}", "${a:(b)}", "${a:b)}", "${a:\\(b\\)}", "${a:b\\,c}", "${a:b|c}", "${a:b?c}",
	"${a:1.5e-3,-inf,nan,true,null}", "${a:b#c}", "${a:b\nc}", "${a:\tb\t}", "${a:é}", "${a\nb}",
	"${now:%Y-%m-%d_%H-%M-%S}", "${oc.env:HOME,/tmp}", "${eval:'${a} * ${b}'}", "${eval:${a}*2}",
	"\\${a b}", "\\\\${a b}", "\\\\\\${a b}", "x $ y ${a}", "$${a}", "${a}}", "{${a}}", "${a}${b}",
	"${a:${b:${c}}}", "${a:[${b}, {c: ${d}}]}", "'${a}'", "${a:b}.c", "${a.b-c:d}", "${ a : b }",
	"${a:\\}", "${a:\\\\}", "${a:\\x}", "${a:$}", "${a:${}", "${a:b}c}",
}

// omegaconfVerdicts returns OmegaConf's version and, for each value, whether it refuses the value
// as it is set (any exception).
func omegaconfVerdicts(t *testing.T, values []string) (string, []bool) {
	t.Helper()
	lines := runOmegaConf(t, values, `OmegaConf.create({"k": v})`, "omegaconf.__version__")
	refused := make([]bool, len(values))
	for i, v := range lines[1:] {
		refused[i] = v != "ok"
	}
	return lines[0], refused
}

// ocValues: the corpus's values that hold "${", ocCases, and n mutants of both.
func ocValues(t *testing.T, n int, seed int64) []string {
	base := corpusInterpolations(t)
	if len(base) < 100 {
		t.Fatalf("only %d corpus values hold ${", len(base))
	}
	base = append(base, ocCases...)
	pieces := []string{"${", "}", "{", "\\", "\\\\", ":", ".", "'", "\"", " ", "[", "]", ",", "$", "a", "(", ")",
		"..", "\t", "=", "|", "?", "-", "1", "1.5", "e", "true", "\n", "#", "${a}", "${a:b}", "'x'", "é"}
	r := rand.New(rand.NewSource(seed))
	values := append([]string(nil), base...)
	for range n {
		s := []byte(base[r.Intn(len(base))])
		for m := 0; m < 1+r.Intn(3); m++ {
			p := r.Intn(len(s) + 1)
			if r.Intn(3) == 0 {
				s = append(s[:p:p], s[min(len(s), p+1+r.Intn(4)):]...)
			} else {
				s = append(s[:p:p], append([]byte(pieces[r.Intn(len(pieces))]), s[p:]...)...)
			}
		}
		if strings.Contains(string(s), "${") {
			values = append(values, string(s))
		}
	}
	return values
}

// TestOmegaConfGrammarAgreesWithOmegaConf: the recogniser, read as Debian's OmegaConf's version,
// accepts and refuses exactly what that OmegaConf does, on the corpus's values, the cases above
// and their mutants; the newest version's reading, which the rule uses, refuses nothing that
// OmegaConf reads; and neither does the check the rule makes (badInterpolation, which keeps the
// lexer rules' verdict on values nested too deep to judge).
func TestOmegaConfGrammarAgreesWithOmegaConf(t *testing.T) {
	values := ocValues(t, 6000, 71)
	version, refused := omegaconfVerdicts(t, values)
	var g ocGrammar
	switch {
	case strings.HasPrefix(version, "2.1."):
		g = oc21
	case strings.HasPrefix(version, "2.2."):
		g = oc22
	case strings.HasPrefix(version, "2.3."):
		g = ocNewest
	default:
		t.Fatalf("OmegaConf %s: the recogniser reads 2.1 to 2.3; compare its grammar files and add it", version)
	}
	agree, nRefused, wrong, flagged := 0, 0, 0, 0
	for i, v := range values {
		_, at, judged := g.refuses(v)
		if refused[i] {
			nRefused++
		}
		if j, _ := badInterpolation(v); j >= 0 {
			flagged++
			if !refused[i] {
				t.Errorf("%q: called unparsable, but OmegaConf %s reads it", v, version)
			}
		}
		if !judged {
			continue
		}
		if (at >= 0) != refused[i] {
			if wrong++; wrong <= 40 {
				t.Errorf("%q: OmegaConf %s refuses it: %v; the recogniser: %v (at %d)", v, version, refused[i], at >= 0, at)
			}
			continue
		}
		agree++
		if _, at, _ := ocNewest.refuses(v); at >= 0 && !refused[i] {
			t.Errorf("%q: the newest reading refuses it, OmegaConf %s reads it", v, version)
		}
	}
	t.Logf("OmegaConf %s: %d values, %d refused; the recogniser agrees on %d, disagrees on %d; the check names %d", version, len(values), nRefused, agree, wrong, flagged)
	if flagged < 100 {
		t.Errorf("only %d values called unparsable: the mutants no longer test the check", flagged)
	}
	if nRefused < 1000 || len(values)-nRefused < 1000 {
		t.Errorf("%d of %d values refused: the mutants no longer test both verdicts", nRefused, len(values))
	}
}

// FuzzOmegaConfGrammar: the recogniser never panics, names a failure inside the value, after the
// top-level interpolation it blames, and each version's reading admits what the one before it
// does (2.1, 2.2, then 2.3), which is why the rule may judge by the newest alone.
func FuzzOmegaConfGrammar(f *testing.F) {
	for _, c := range ocCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var refused [3]bool
		for i, g := range []ocGrammar{oc21, oc22, ocNewest} {
			top, at, judged := g.refuses(s)
			if !judged {
				return
			}
			if at >= 0 && (at > len(s) || top < 0 || top > at || !strings.HasPrefix(s[top:], "${")) {
				t.Fatalf("%q: version %d blames %d, fails at %d", s, i, top, at)
			}
			refused[i] = at >= 0
		}
		if refused[2] && !(refused[1] && refused[0]) || refused[1] && !refused[0] {
			t.Errorf("%q: refused by 2.1, 2.2, 2.3: %v", s, refused)
		}
	})
}

// TestOmegaConfGrammarHostile: values nested past the judged depth are not judged, and long
// flat ones are read once (a few milliseconds for a megabyte).
func TestOmegaConfGrammarHostile(t *testing.T) {
	deep := strings.Repeat("${a:[", ocMaxDepth) + strings.Repeat("]}", ocMaxDepth)
	if _, _, judged := ocNewest.refuses(deep); judged {
		t.Errorf("nesting %d deep was judged", ocMaxDepth)
	}
	if _, at, judged := ocNewest.refuses(strings.Repeat("${a:[", 20) + strings.Repeat("]}", 20)); !judged || at >= 0 {
		t.Errorf("nesting 20 deep: judged %v, fails at %d", judged, at)
	}
	flat := "${f:" + strings.Repeat("a, ", 1<<18) + "(}"
	if top, at, judged := ocNewest.refuses(flat); !judged || top != 0 || at != len(flat)-2 {
		t.Errorf("a long argument list: judged %v, blames %d, fails at %d", judged, top, at)
	}
}

// TestOmegaConfDuplicateKeysAgreeWithOmegaConf gives OmegaConf mappings that repeat a key in every
// spelling pair of a few keys, and each of many number-like and indicator-led plain keys twice and
// next to its quoted twin (block and flow, top level and nested): each repetition the dialect
// calls refused, OmegaConf refuses with "found duplicate key", and it finds every one OmegaConf
// refuses (but for keys whose tag OmegaConf 2.3 changed from the installed version's).
func TestOmegaConfDuplicateKeysAgreeWithOmegaConf(t *testing.T) {
	keys := []string{"a", `"a"`, "'a'", "1", `"1"`, "true", `"true"`, "True", "yes", "on", "null", "~",
		"x.y", `"x.y"`, "a b", "_a", "-a", ".5", "0x1", "é", "n", "y", "Off", "<<"}
	// Plain keys a resolver may take, each paired with itself and its quoted spelling: every
	// alternative of PyYAML's int and float patterns and OmegaConf's float, near misses, and
	// the other resolvers' first characters.
	plain := []string{"+a", "1a", "1_0", "-1_000", "0b1_0", "0b2", "0o7", "017", "08", "0_7", "1:30", "-1:3:59",
		"1:60", "1:30.5", "1:30x", "1e5", "1E-3", "+1e+5", "1e", "1e5x", "1_0e-3", "1__0.5", "1.", "-1.5_",
		"1.5e3", "1.5e+3", "1.5ex", ".5e-3", ".5e3", ".inf", "-.inf", "+.Inf", ".INF", ".Inf", ".nan", ".NaN", ".NAN",
		".Nan", "-.nan", ".x", ".", "-", "+", "~a", "<a", "<<<", "=", "=a", "==", "2001-01-01", "0x", "0x_",
		"-0x1f", "0x1g", "0xFF_FF", "1_", "_1", "9_9", "0", "-0", "00", "07_7", "1..2", "1.2.3", "nul", "Null",
		"NULL", "yES", "oN", "TRUE", "FALSE", "off"}
	changedIn23 := map[string]bool{"._": true, "._5": true} // float before 2.3, str after
	plain = append(plain, "._", "._5")
	var texts []string
	var pairs [][2]string
	add := func(k1, k2 string) {
		for _, form := range []string{"%s: 1\n%s: 2\n", "top:\n  %s: 1\n  other: 0\n  %s: 2\n", "{%s: 1, %s: 2}\n"} {
			texts = append(texts, fmt.Sprintf(form, k1, k2))
			pairs = append(pairs, [2]string{k1, k2})
		}
	}
	for _, k1 := range keys {
		for _, k2 := range keys {
			if k1 != "<<" && k2 != "<<" {
				add(k1, k2)
			}
		}
	}
	for _, k := range plain {
		add(k, k)
		add(k, `"`+k+`"`)
	}
	texts = append(texts, "base: &b {a: 1}\nx:\n  <<: *b\n  a: 2\n", "x:\n  <<: {a: 1}\n  <<: {b: 2}\n")
	pairs = append(pairs, [2]string{"<<", "a"}, [2]string{"<<", "<<"})
	verdicts := runOmegaConf(t, texts, "OmegaConf.create(v)", "")
	claimed, refused := 0, 0
	for i, text := range texts {
		d := doc.Parse("c.yaml", []byte(text), doc.YAML, doc.Limits{})
		if len(d.Problems) > 0 && d.Problems[0].Kind == doc.Syntax {
			continue
		}
		var p plan.Plan
		omegaconfDuplicateKeys(&p, d.Src, d.Root, byOmegaConf)
		dup, _ := omegaconfSays(verdicts[i])
		if dup {
			refused++
		}
		if len(p.Rejections) > 0 {
			claimed++
			if !dup {
				t.Errorf("%q: called a refused repetition; OmegaConf: %s", text, verdicts[i])
			}
		}
		if dup && len(p.Rejections) == 0 && !changedIn23[pairs[i][0]] {
			t.Errorf("%q: OmegaConf refuses the repeated key (%s), the dialect does not say so", text, verdicts[i])
		}
	}
	t.Logf("%d texts: OmegaConf refuses %d for a repeated key, the dialect claims %d", len(texts), refused, claimed)
}

// TestYAMLNumber holds doc.AnyLoaderNumber to the resolvers' patterns, written here as one regexp (PyYAML's
// int and float, yaml/resolver.py 5.1-6.0.3, and OmegaConf's float of 2.0.1-2.2.x, _utils.py),
// on every text of up to five characters from an alphabet of the characters they use, and on
// random longer ones.
func TestYAMLNumber(t *testing.T) {
	sign, digits, sexagesimal := `[-+]?`, `[0-9][0-9_]*`, `(?::[0-5]?[0-9])+`
	re := regexp.MustCompile(`^(?:` + strings.Join([]string{
		sign + `0b[0-1_]+`, sign + `0[0-7_]+`, sign + `(?:0|[1-9][0-9_]*)`, sign + `0x[0-9a-fA-F_]+`,
		sign + `[1-9][0-9_]*` + sexagesimal,
		sign + `(?:` + digits + `)\.[0-9_]*(?:[eE][-+][0-9]+)?`, `\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?`,
		sign + digits + sexagesimal + `\.[0-9_]*`, sign + `\.(?:inf|Inf|INF)`, `\.(?:nan|NaN|NAN)`,
		sign + `(?:` + digits + `)\.[0-9_]*(?:[eE][-+]?[0-9]+)?`, sign + `(?:` + digits + `)(?:[eE][-+]?[0-9]+)`,
		`\.[0-9_]+(?:[eE][-+][0-9]+)?`,
	}, "|") + `)$`)
	alphabet := "0159_-+.eE:bxaF"
	n, matched := 0, 0
	check := func(s string) {
		n++
		want := re.MatchString(s)
		if want {
			matched++
		}
		if got := doc.AnyLoaderNumber(s); got != want {
			t.Errorf("doc.AnyLoaderNumber(%q) = %v, the patterns say %v", s, got, want)
		}
	}
	var walk func(prefix string, left int)
	walk = func(prefix string, left int) {
		check(prefix)
		if left == 0 {
			return
		}
		for i := range len(alphabet) {
			walk(prefix+alphabet[i:i+1], left-1)
		}
	}
	walk("", 5)
	for _, s := range []string{".inf", "-.Inf", "+.INF", ".nan", ".NaN", ".NAN", "-.nan", ".Nan", "1:59:59.5",
		"190:20:30", "0x_", "0b", "0xFF_ff", "1_000_000.5e+10", "2001-01-01"} {
		check(s)
	}
	r := rand.New(rand.NewSource(7))
	for range 200000 {
		b := make([]byte, 6+r.Intn(6))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		check(string(b))
	}
	if matched < 10000 {
		t.Errorf("only %d of %d texts are numbers: the alphabet no longer exercises the patterns", matched, n)
	}
	t.Logf("%d texts, %d numbers", n, matched)
}
