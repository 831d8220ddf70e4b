package doc

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The direct YAML reader must build exactly what the yaml.v3 path builds whenever it accepts a
// file. These tests compare the two on every corpus file, on edge cases and under fuzzing, and
// check that the reader does accept the shapes configs are written in (else the comparison would
// pass by never taking the fast path).

// dumpDoc renders everything a Document holds that rules and fixes can see.
func dumpDoc(d *Document) string {
	var b strings.Builder
	sp := func(s Span) string {
		return fmt.Sprintf("%d:%d@%d-%d:%d@%d", s.Start.Line, s.Start.Col, s.Start.Offset, s.End.Line, s.End.Col, s.End.Offset)
	}
	var walk func(n, parent *Node, depth int)
	walk = func(n, parent *Node, depth int) {
		if n == nil {
			fmt.Fprintf(&b, "%*snil\n", depth*2, "")
			return
		}
		fmt.Fprintf(&b, "%*s%s %s %s value=%q quoted=%v key=%q index=%d path=%s depth=%d keyspan=%s span=%s alias=%v flags=%d parentOK=%v\n",
			depth*2, "", n.Kind, n.Type, n.Style, n.Value, n.Quoted, n.Key, n.Index, n.Path(), n.depth, sp(n.KeySpan), sp(n.Span), n.Alias, n.flags, n.Parent == parent)
		for _, ch := range n.Children {
			walk(ch, n, depth+1)
		}
	}
	walk(d.Root, nil, 0)
	fmt.Fprintf(&b, "more=%d crlf=%v\n", len(d.More), d.CRLF)
	for _, m := range d.More {
		walk(m, nil, 0)
	}
	for _, c := range d.Comments {
		fmt.Fprintf(&b, "comment %q %s trailing=%v\n", c.Text, sp(c.Span), c.Trailing)
	}
	for _, p := range d.Problems {
		rel := ""
		if p.Related != nil {
			rel = sp(*p.Related) + " " + p.RelatedMessage
		}
		fmt.Fprintf(&b, "problem %s %q %s %s\n", p.Kind, p.Message, sp(p.Span), rel)
	}
	return b.String()
}

// bothYAML reads src through the direct reader and through yaml.v3 alone. ok is false when the
// bytes never reach a YAML reader (Parse rejects them first) or the direct reader declines.
func bothYAML(src []byte, lim Limits) (fast, slow *Document, ok bool) {
	lim = lim.withDefaults()
	pre := &Document{Path: "x.yaml", Format: YAML, Src: src}
	if len(src) > lim.MaxBytes || !checkText(pre) || conflictMarkers(pre) {
		return nil, nil, false
	}
	fast = &Document{Path: "x.yaml", Format: YAML, Src: src}
	if !fastYAML(fast, lim) {
		if fast.Root != nil || len(fast.Problems) > 0 || len(fast.Comments) > 0 {
			panic("fastYAML declined but left state behind")
		}
		return nil, nil, false
	}
	slow = &Document{Path: "x.yaml", Format: YAML, Src: src}
	parseYAMLv3(slow, lim)
	return fast, slow, true
}

func compareYAML(t testing.TB, name string, src []byte, lim Limits) bool {
	t.Helper()
	fast, slow, ok := bothYAML(src, lim)
	if !ok {
		return false
	}
	if f, s := dumpDoc(fast), dumpDoc(slow); f != s {
		t.Errorf("%s: the direct reader disagrees with yaml.v3 on\n%s\n%s", name, src, lineDiff(s, f))
	}
	return true
}

// lineDiff shows the first differing lines of two dumps.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n yaml.v3: %s\n direct:  %s", i+1, a, b)
		}
	}
	return "(equal)"
}

func TestYAMLFastCorpus(t *testing.T) {
	files := corpusFiles(t, map[Format]bool{YAML: true})
	var declined []string
	for p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !compareYAML(t, p, src, Limits{}) {
			declined = append(declined, filepath.Base(p))
		}
	}
	sort.Strings(declined)
	t.Logf("direct reader: %d of %d corpus YAML files; yaml.v3 for %v", len(files)-len(declined), len(files), declined)
	if len(declined)*10 > len(files) {
		t.Errorf("the direct reader declined %d of %d corpus files (want at most a tenth)", len(declined), len(files))
	}
}

// TestYAMLFastRepoExamples compares the readers on the YAML the repository itself holds: every
// YAML section of the rule archives (rules/testdata, which also feed the site and `explain`) and
// the bundled examples. Unlike the corpus, these are always present.
func TestYAMLFastRepoExamples(t *testing.T) {
	srcs := repoYAML(t)
	taken := 0
	for name, src := range srcs {
		if compareYAML(t, name, src, Limits{}) {
			taken++
		}
	}
	t.Logf("direct reader: %d of %d repository YAML examples", taken, len(srcs))
	if taken*10 < len(srcs)*8 {
		t.Errorf("the direct reader took only %d of %d repository examples", taken, len(srcs))
	}
}

// TestYAMLReaderSwitch counts which reader Parse used on each YAML example of the repository,
// with the direct reader on (the default) and switched off (Options.NoDirectYAML): on, it takes
// most files and yaml.v3 the rest; off, yaml.v3 takes every one. Bytes refused before any reader
// runs (a NUL byte, invalid UTF-8) and other formats name no reader.
func TestYAMLReaderSwitch(t *testing.T) {
	srcs := repoYAML(t)
	on, off := map[YAMLReader]int{}, map[YAMLReader]int{}
	for name, src := range srcs {
		on[ParseWith(name, src, YAML, Options{}).YAMLReader]++
		off[ParseWith(name, src, YAML, Options{NoDirectYAML: true}).YAMLReader]++
	}
	t.Logf("%d repository YAML examples; default: direct %d, yaml.v3 %d; NoDirectYAML: direct %d, yaml.v3 %d",
		len(srcs), on[YAMLDirect], on[YAMLv3], off[YAMLDirect], off[YAMLv3])
	read := len(srcs) - on[YAMLNone]
	if on[YAMLDirect]*10 < read*8 || on[YAMLv3] == 0 || on[YAMLNone] > 2 {
		t.Errorf("default: %v; want the direct reader on at least 80%% of %d files and yaml.v3 on the rest", on, read)
	}
	if off[YAMLv3] != read || off[YAMLNone] != on[YAMLNone] {
		t.Errorf("NoDirectYAML: %v; want yaml.v3 on all %d files the default read", off, read)
	}
	for _, f := range []Format{JSON, TOML} {
		if r := ParseWith("x", []byte("{}"), f, Options{}).YAMLReader; r != YAMLNone {
			t.Errorf("%s file: YAMLReader %s, want none", f, r)
		}
	}
	if r := Parse("x.yaml", []byte("a: \x00\n"), YAML, Limits{}).YAMLReader; r != YAMLNone {
		t.Errorf("bytes refused before any reader: YAMLReader %s, want none", r)
	}
}

// repoYAML returns the YAML sections of the rule archives and the bundled examples, by name.
func repoYAML(t *testing.T) map[string][]byte {
	t.Helper()
	srcs := map[string][]byte{}
	archives, _ := filepath.Glob(filepath.Join("..", "..", "rules", "testdata", "*.txtar"))
	for _, a := range archives {
		b, err := os.ReadFile(a)
		if err != nil {
			t.Fatal(err)
		}
		// Sections start at lines "-- NAME --".
		name := ""
		var cur []string
		flush := func() {
			if strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") {
				srcs[filepath.Base(a)+":"+name] = []byte(strings.Join(cur, ""))
			}
		}
		for _, line := range strings.SplitAfter(string(b), "\n") {
			if l := strings.TrimRight(line, "\n"); strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --") {
				flush()
				name, cur = strings.TrimSuffix(strings.TrimPrefix(l, "-- "), " --"), nil
				continue
			}
			cur = append(cur, line)
		}
		flush()
	}
	examples, _ := filepath.Glob(filepath.Join("..", "..", "cmd", "trainlint", "examples", "*.y*ml"))
	for _, e := range examples {
		b, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		srcs[e] = b
	}
	if len(srcs) < 100 {
		t.Fatalf("found only %d YAML examples in the repository", len(srcs))
	}
	return srcs
}

// yamlFastCases are shapes configs use; accept marks those the direct reader must take.
type yamlFastCase struct {
	src    string
	accept bool
}

var yamlFastCases = []yamlFastCase{
	{"", true},
	{"# only a comment\n", true},
	{"a: 1\n", true},
	{"a: 1", true},
	{"a:\n", true},
	{"a:", true},
	{"a: # why\n", true},
	{"a:\nb: 2\n", true},
	{"a:\n  # note\nb: 2\n", true},
	{"a:\n  b:\nc: 1\n", true},
	{"a:\n  b: 1\n  c:\n    d: [1, 2]\ne: x\n", true},
	{"model:\n  name: llama  # base\n  lr: 3e-4\n  betas: [0.9, 0.999]\n  flags: {a: 1, b: 'two'}\n", true},
	{"list:\n- a\n- b\nnext: 1\n", true},
	{"list:\n  - a\n  -\n  - c\n", true},
	{"- a\n- b: 1\n  c: 2\n- - x\n  - y\n-\n", true},
	{"- a:\n  - x\n- b\n", true},
	{"a: \"q\\\"uote\\n\"\nb: 'it''s'\n\"c d\": 1\n'e': \"\"\n", true},
	{"a: yes\nb: no\nc: ~\nd: null\ne: 0x1F\nf: .inf\ng: 1_000\nh: 1e3\ni: True\nj: 012\nk: +1\n", true},
	{"a: ${oc.env:RANK}\nb: ???\nc: auto\nd: \"${x}\"\n", true},
	{"a: 1\na: 2\nb: {c: 1, c: 2}\n", true},
	{"files: [\n  a.bin,\n  b.bin,\n]\nnext: 1\n", true},
	{"m: {a: [1, {b: c}], 'd': \"e\"}\n", true},
	{"a: [] # empty\nb: {}\n", true},
	{"a: b#c\nd: e # f\nurl: http://x:8/y\ntime: 12:30\n", true},
	{"  a: 1\n  b: 2\n", true},
	{"plain\n", true},
	{"[1, 2]\n", true},
	{"é: ü # ß\nx: 'ç'\n", true},
	{"a: x]\nb: c}\n", true},
	{"key with spaces: v\n", true},
	// Left to yaml.v3 (or rejected by it).
	{"a: &x 1\nb: *x\n", true},
	{"name: &name \"TitaNet\"\nrate: &rate 16000\nmodel:\n  sr: *rate\n  n: *name # c\n", true},
	{"base: &b\n  lr: 1\n  opt: {m: [1, 2]}\nrun:\n  cfg: *b\n  list:\n    - *b\n    - &s [x]\n    - *s\n", true},
	{"l: &l\n- a\n- b\nm: *l\n", true},
	{"- &i\n  k: v\n- *i\n", true},
	// An anchor defined twice: PyYAML refuses the file, which the yaml.v3 path reports.
	{"a: &x 1\nb: &x 2\nc: *x\n", false},
	{"a: &x\n  b: &x 1\nc: *x\n", false},
	{"a: *x\n", false},
	{"a: &x\n  b: *x\n", false},
	{"a: &x 1\nb: &x\n  c: *x\n", false},
	{"a: &x [*y]\n", false},
	{"a: &x |\n  t\nb: *x\n", false},
	{"a: &x\nb: 1\n", false},
	{"- &x a: 1\n", false},
	{"&x a: 1\n", false},
	{"a: &x:y 1\n", false},
	{"a: [&x 1, *x]\n", false},
	{"a: &x 1\n<<: *x\n", false},
	{"a: &x 1\nb: &y *x\n", false},
	{"a: &x 1\nb: &y\n  *x\n", false},
	{"*x : 1\n", false},
	{"a: |\n  text\n", true},
	{"a: >-\n  text\n", true},
	{"a: |\n  one\n\n   two # not a comment\n  # nor this\n\n\nb: 1\n", true},
	{"a: |+\n  one\n\n\nb: 1\n", true},
	{"a: |-\n  one\n  two\n", true},
	{"a: >\n  one\n  two\n\n  three\n    indented\n  four\n# c\nb: 1\n", true},
	{"a: > # why\n  one\n", true},
	{"a: |\nb: 1\n", true},
	{"a: |", true},
	{"- |\n  x\n- >+\n  y\n\n", true},
	{"a:\n  b: |\n    deep\n     deeper\n  c: ${x}\n", true},
	{"|\n root\n", true},
	{"a: |2\n   x\n", false},
	{"a: | x\n", false},
	{"a: |\n     \n  x\n", false},
	{"a: |\n  x\n      \n  y\n", false},
	{"a: !!str 1\n", false},
	{"---\na: 1\n", false},
	{"a: 1\r\nb: 2\r\n", false},
	{"a:\tb\n", false},
	{"a: b\n  c\n", false},
	{"a: 'b\n  c'\n", false},
	{"a: b: c\n", false},
	{"a: - b\n", false},
	{"a: 1\n- b\n", false},
	{"a:\n  - x\n  b: 1\n", false},
	{"a: 1\n b: 2\n", false},
	{"<<: {a: 1}\n", false},
	{"? a\n: b\n", false},
	{"[a]: b\n", false},
	{"a: [b: c]\n", false},
	{"a: {b}\n", false},
	{"a: [1,,2]\n", false},
	{"a: \"\\u00e9\"\n", false},
	{"a: @x\n", false},
	{"a: [1, 2\n", false},
	{"a: 'x'y\n", false},
	{"a: [x\ny]\n", false},
	{"\ufeffa: 1\n", false},
	{"a: \"http:\\/\\/x\"\nb: 'c\\/d'\ne: f\\/g\n", true},
	{"a: \"\\\\/\"\n", true},
	{"\"k\\/\": [\"\\/\", x\\/]\n", true},
}

func TestYAMLFastCases(t *testing.T) {
	long := strings.Repeat("k", 1100)
	cases := append(yamlFastCases[:len(yamlFastCases):len(yamlFastCases)],
		yamlFastCase{long + ": 1\n", false}, // yaml.v3 takes no key over 1,024 characters
		yamlFastCase{"\"" + long + "\": 1\n", false},
		yamlFastCase{"a: " + long + "\n", true},
		yamlFastCase{"{" + long + ": 1}\n", false},
		yamlFastCase{"[" + long + "]\n", true})
	for _, tc := range cases {
		took := compareYAML(t, strconv.Quote(tc.src), []byte(tc.src), Limits{})
		if tc.accept && !took {
			t.Errorf("%q: the direct reader declined a shape it must read", tc.src)
		}
		if !tc.accept && took {
			t.Errorf("%q: the direct reader took a file it must leave to yaml.v3", tc.src)
		}
	}
}

// TestYAMLFastLimits: past a limit the direct reader declines, so the limit finding comes from
// the yaml.v3 path.
func TestYAMLFastLimits(t *testing.T) {
	deep := strings.Repeat("[", 50) + strings.Repeat("]", 50)
	if _, _, ok := bothYAML([]byte(deep), Limits{MaxDepth: 10}); ok {
		t.Error("took a file nested deeper than max_depth")
	}
	deeper := strings.Repeat("[", 12000) + strings.Repeat("]", 12000)
	if _, _, ok := bothYAML([]byte(deeper), Limits{MaxDepth: 20000}); ok {
		t.Error("took a file nested deeper than yaml.v3's own limit")
	}
	many := strings.Repeat("- x\n", 100)
	if _, _, ok := bothYAML([]byte(many), Limits{MaxNodes: 50}); ok {
		t.Error("took a file of more than max_nodes nodes")
	}
	aliases := "a: &x 1\nl:\n" + strings.Repeat("  - *x\n", 20)
	if _, _, ok := bothYAML([]byte(aliases), Limits{MaxAliases: 10}); ok {
		t.Error("took a file of more than max_aliases alias expansions")
	}
	if _, _, ok := bothYAML([]byte(aliases), Limits{MaxAliases: 20}); !ok {
		t.Error("declined a file within max_aliases")
	}
	d := Parse("x.yaml", []byte(many), YAML, Limits{MaxNodes: 50})
	if len(d.Problems) != 1 || d.Problems[0].Kind != LimitExceeded {
		t.Errorf("problems = %v, want one input-limit-exceeded", d.Problems)
	}
}

func FuzzYAMLFast(f *testing.F) {
	for _, tc := range yamlFastCases {
		f.Add([]byte(tc.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fast, slow, ok := bothYAML(src, Limits{MaxBytes: 1 << 20, MaxNodes: 200000})
		if !ok {
			return
		}
		if a, b := dumpDoc(fast), dumpDoc(slow); a != b {
			t.Fatalf("the direct reader disagrees with yaml.v3 on %q\n%s", src, lineDiff(b, a))
		}
	})
}

// plainTypeSamples are values at the edges of yaml.v3's plain-scalar resolution.
var plainTypeSamples = []string{
	"", "~", "null", "NULL", "nULL", "true", "True", "tRUE", "yes", "no", "on", "off", "y", "n", "<<", "<",
	".inf", "-.Inf", "+.INF", ".nan", "-.nan", ".", ".5", ".e3", "._5", ".0x1p3", ".inf5", ".Infinity",
	"0", "-0", "+0", "00", "012", "09", "0.", "1.", "1.5", "1e3", "1E+3", "1e", "1e+", "-1.5e-3", "+.5", "+.", "-",
	"+", "1_000", "1__0", "_1", "1_", "0x1F", "0X1f", "-0x1F", "0x", "0b101", "0B101", "-0b101", "0b", "0b2",
	"0o17", "0O17", "-0o17", "0o8", "0o", "0b1111111111111111111111111111111111111111111111111111111111111111",
	"0o1777777777777777777777", "-0b1111111111111111111111111111111111111111111111111111111111111111",
	"18446744073709551615", "18446744073709551616", "-9223372036854775808", "-9223372036854775809",
	"1e400", "-1e400", "1_000.5", "1_0e1_0", "0x1p-2", "0x1.8p1", "inf", "+inf", "-Infinity", "nan", "NaN",
	"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10", "2002-12-14x", "1:20", "1,000",
	"12e3e4", "1.2.3", "--1", "+-1", "0.1_5", "1 ", " 1", "१२", "٣", "1\u00a0", "1.0e_8", "1e_5", "-1.5E-_3",
	"1e1_0", "0x1e_5", ".5e_3",
}
