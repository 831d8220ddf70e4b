package doc

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/corpustest"
)

func TestYAMLSpans(t *testing.T) {
	src := "# head comment\n" + // 1
		"plain: hello world   # trailing\n" + // 2
		"single: 'it''s'\n" + // 3
		"double: \"a \\\" # not\"\n" + // 4
		"lit: |\n" + // 5
		"  line one\n" + // 6
		"  # not a comment\n" + // 7
		"\n" + // 8
		"  line three\n" + // 9
		"fold: >-\n" + // 10
		"  folded\n" + // 11
		"  text\n" + // 12
		"flowmap: {a: 1, b: [x, 'y'] }  # c2\n" + // 13
		"flowseq: [1, 2.5, true, null]\n" + // 14
		"multi: first\n" + // 15
		"  second\n" + // 16
		"\n" + // 17
		"  third\n" + // 18
		"nested:\n" + // 19
		"  - a: 1\n" + // 20
		"    b: é\n" + // 21
		"  - &anc {x: 1}\n" + // 22
		"empty:\n" + // 23
		"tagged: !!str 12\n" + // 24
		"ph: ${oc.env:RANK}\n" + // 25
		"yes11: yes\n" // 26
	d := mustParse(t, YAML, src)
	if len(d.Problems) != 0 {
		t.Fatalf("problems: %+v", d.Problems)
	}
	cases := []struct {
		path, key, val, style string
		typ                   Type
	}{
		{"plain", "plain", "hello world", "plain", String},
		{"single", "single", "'it''s'", "single", String},
		{"double", "double", `"a \" # not"`, "double", String},
		{"lit", "lit", "|\n  line one\n  # not a comment\n\n  line three", "literal", String},
		{"fold", "fold", ">-\n  folded\n  text", "folded", String},
		{"flowmap", "flowmap", "{a: 1, b: [x, 'y'] }", "flow", 0},
		{"flowmap.b", "b", "[x, 'y']", "flow", 0},
		{"flowseq", "flowseq", "[1, 2.5, true, null]", "flow", 0},
		{"multi", "multi", "first\n  second\n\n  third", "plain", String},
		{"nested", "nested", "- a: 1\n    b: é\n  - &anc {x: 1}", "block", 0},
		{"empty", "empty", "", "plain", Null},
		{"tagged", "tagged", "12", "plain", String},
		{"ph", "ph", "${oc.env:RANK}", "plain", Unknown},
		{"yes11", "yes11", "yes", "plain", Bool}, // YAML 1.1, as PyYAML reads it
	}
	for _, c := range cases {
		n := d.Root.At(c.path)
		if n == nil {
			t.Errorf("%s: missing", c.path)
			continue
		}
		if got := text(d, n.KeySpan); got != c.key {
			t.Errorf("%s: key text %q, want %q", c.path, got, c.key)
		}
		if got := text(d, n.Span); got != c.val {
			t.Errorf("%s: value text %q, want %q", c.path, got, c.val)
		}
		if n.Style != c.style {
			t.Errorf("%s: style %q, want %q", c.path, n.Style, c.style)
		}
		if c.typ != 0 && n.Type != c.typ {
			t.Errorf("%s: type %v, want %v", c.path, n.Type, c.typ)
		}
	}
	if v := d.Root.At("multi").Value; v != "first second\nthird" {
		t.Errorf("multi value %q", v)
	}
	seq := d.Root.Get("nested")
	if got := text(d, seq.Item(0).Span); got != "a: 1\n    b: é" {
		t.Errorf("block map in seq: %q", got)
	}
	b := seq.Item(0).Get("b")
	if b.Span.Start.Line != 21 || b.Span.Start.Col != 8 || b.Span.End.Col != 9 || b.Span.End.Offset-b.Span.Start.Offset != 2 {
		t.Errorf("é span %+v", b.Span)
	}
	if got := text(d, seq.Item(1).Span); got != "{x: 1}" {
		t.Errorf("anchored flow map: %q", got)
	}
	if got := seq.Item(1).Get("x").Path().String(); got != "nested[1].x" {
		t.Errorf("path %q", got)
	}
	var cm []string
	for _, c := range d.Comments {
		cm = append(cm, text(d, c.Span))
	}
	if want := []string{"# head comment", "# trailing", "# c2"}; strings.Join(cm, "|") != strings.Join(want, "|") {
		t.Errorf("comments %q, want %q", cm, want)
	}
	if d.Comments[0].Trailing || !d.Comments[1].Trailing {
		t.Errorf("trailing flags wrong: %+v", d.Comments)
	}
}

func TestYAMLErrors(t *testing.T) {
	cases := []problemCase{
		{"a:\n  b: 1\n c: 2\n", Syntax, 3, 2, "expected a key"},
		{"a: 1\nb: [1, 2\nc: 3\n", Syntax, 2, 4, "expected ',' or ']' in a bracketed list"},
		{"- a\nb: 1\n", Syntax, 2, 1, "expected a '-' list item"},
		{"a:\n  b: 1\n  c\n", Syntax, 3, 3, "expected ':' after a key"},
		{"a: *\n", Syntax, 1, 4, "expected a name after"},
		{"a: 1\nb: \"x\n", Syntax, 2, 1, "closing quote"},
		{"a: 1\nb: @x\n", Syntax, 2, 4, "cannot start a value"},
		{"a: 1\nb: c: d\n", Syntax, 2, 5, "unexpected ':'"},
		{"a: 1\n\tb: 1\n", Syntax, 2, 1, "tab"},
		{"a: &x [*x]\n", Syntax, 1, 8, "inside its own anchor"},
		{"a: 1\nb: *nope\n", Syntax, 2, 4, `alias "\*nope" refers to an anchor that is not defined`},
		{"a: 1\n<<<<<<< HEAD\na: 1\n=======\na: 2\n>>>>>>> branch\n", Syntax, 2, 1, "merge conflict"},
		{"a: 1\nb: \xff\n", Syntax, 2, 4, "not UTF-8 text: invalid byte 0xff at line 2 column 4"},
		{"a: 1\nb: x\x00y\n", Syntax, 2, 5, "NUL byte"},
		{"\xff\xfea\x00:\x00", Syntax, 1, 1, "UTF-16"},
		{strings.Repeat("[", 20000), LimitExceeded, 1, 1, "nesting is deeper"},
		{"a: &x 1\nb:\n  <<: *x\n", Syntax, 3, 7, `merge key "<<" needs a mapping`},
		{"a: 1\na: 2\n", DuplicateKey, 2, 1, `key "a" is repeated; the value on line 2 silently overrides the one on line 1`},
		// A `???` in a flow list (ProteinWorkshop's sweeps): at the ??? itself, not at an
		// earlier valid flow list, where a cut of the file also ends inside an open bracket.
		{"s:\n  values: [\n      a,\n      b,\n    ]\n  other:\n    values:\n      [\n        ???\n      ]\n", Syntax, 9, 9, "expected node content"},
		{"a: [\n  ???\n]\n", Syntax, 2, 3, "expected node content"},
		// An unclosed quote on line 1: yaml.v3 names the end of the stream, not the quote.
		{"name: \"resnet50\nlr: 0.1\nepochs: 90\nbatch_size: 256\n", Syntax, 1, 1, "quoted string"},
		{"- \"a\nb: 1\nc: 2\n", Syntax, 1, 1, "quoted string"},
		// Text after a value's closing quote or bracket (Video-LLaMA's `"a" or "b"`, Tool-Star's
		// `{your_path_to_model}/...`): at that text, where PyYAML places it too (column 15).
		{"model:\n  arch: v\n  prompt: \"a\" or \"b\"\n  x: 1\n", Syntax, 3, 15, "text after the closing quote of a value"},
		{"a: 1\nmodel_path: {your_path_to_model}/qwen\nb: 2\n", Syntax, 2, 33, "text after the closing bracket of a value"},
		{"a: 1\nitems:\n  - \"x\" y\n  - z\n", Syntax, 3, 9, "text after the closing quote"},
		{"a: 1\nb: 'it''s' fine\n", Syntax, 2, 12, "text after the closing quote"},
		{"a: 1\nb:\t\"x\" y\n", Syntax, 2, 8, "text after the closing quote"},
		// A value that does not close on its line, or a key that is quoted, is not judged so.
		{"a:\n  b: 1\n c: \"x\" y\n", Syntax, 3, 2, "expected a key"},
	}
	for _, c := range cases {
		checkProblem(t, YAML, c)
	}
}

func TestYAMLMergeAndAliases(t *testing.T) {
	src := "base: &b\n  lr: 1\n  wd: 2\nx:\n  <<: *b\n  lr: 3\ny: *b\nz:\n  <<: [{q: 1, lr: 9}, *b]\n"
	d := mustParse(t, YAML, src)
	if len(d.Problems) != 0 {
		t.Fatalf("merge keys reported: %+v", d.Problems)
	}
	x := d.Root.Get("x")
	if v, _ := x.Get("lr").Int(); v != 3 {
		t.Errorf("explicit key must win over merged: lr=%d", v)
	}
	if v, _ := x.Get("wd").Int(); v != 2 || !x.Get("wd").Alias || x.Get("wd").Path().String() != "x.wd" {
		t.Errorf("merged wd: %+v", x.Get("wd"))
	}
	if len(x.Children) != 2 {
		t.Errorf("x has %d children, want 2", len(x.Children))
	}
	if text(d, x.Get("wd").KeySpan) != "wd" || x.Get("wd").KeySpan.Start.Line != 3 {
		t.Errorf("merged key span should point at the anchor's entry: %+v", x.Get("wd").KeySpan)
	}
	y := d.Root.Get("y")
	if text(d, y.Span) != "*b" || y.Kind != Map || y.At("lr").Value != "1" || y.Get("lr").Path().String() != "y.lr" {
		t.Errorf("alias y: %q %v", text(d, y.Span), y.Kind)
	}
	z := d.Root.Get("z")
	if v, _ := z.Get("lr").Int(); v != 9 {
		t.Errorf("first merge source must win: lr=%d", v)
	}
	if z.Get("wd") == nil || z.Get("q") == nil {
		t.Errorf("z children %d", len(z.Children))
	}
}

// TestYAMLMergeOfLocalTag: a merge key whose value is a tag of the loader's own (ESPHome's
// `<<: !include common.yaml`, whose constructor loads and returns a mapping) is no error, and
// merges nothing known; a plain scalar, or one of YAML's own tags, still is.
func TestYAMLMergeOfLocalTag(t *testing.T) {
	d := mustParse(t, YAML, "a: 1\n<<: !include common.yaml\nb: 2\n")
	if len(d.Problems) != 0 || d.Root == nil || len(d.Root.Children) != 2 || d.Root.Get("b") == nil {
		t.Fatalf("problems %+v root %+v", d.Problems, d.Root)
	}
	for _, src := range []string{"a: 1\n<<: 5\n", "a: 1\n<<: !!str x\n"} {
		if d := mustParse(t, YAML, src); len(d.Problems) != 1 || !strings.Contains(d.Problems[0].Message, `the merge key "<<" needs a mapping`) {
			t.Errorf("%q: problems %+v", src, d.Problems)
		}
	}
}

func TestYAMLMultiDocBOMCRLF(t *testing.T) {
	src := "\ufeffa: 1 # c\r\nb: \"x\"\r\n---\r\nc: |\r\n  t\r\n...\r\n"
	d := mustParse(t, YAML, src)
	if len(d.Problems) != 0 || d.Root == nil || len(d.More) != 1 {
		t.Fatalf("problems %+v root %v more %d", d.Problems, d.Root, len(d.More))
	}
	if !d.CRLF {
		t.Error("CRLF not set")
	}
	a := d.Root.Get("a")
	if a.KeySpan.Start != (Pos{Line: 1, Col: 1, Offset: 3}) {
		t.Errorf("after BOM: key at %+v, want 1:1 offset 3", a.KeySpan.Start)
	}
	if text(d, d.Root.Get("b").Span) != `"x"` {
		t.Errorf("b span %q", text(d, d.Root.Get("b").Span))
	}
	c := d.More[0].Get("c")
	if got := text(d, c.Span); got != "|\r\n  t" || c.Value != "t\n" {
		t.Errorf("c span %q value %q", got, c.Value)
	}
	if len(d.Comments) != 1 || d.Comments[0].Text != " c" {
		t.Errorf("comments %+v", d.Comments)
	}
}

func TestYAMLCommentsNotInStrings(t *testing.T) {
	src := "a: 'x # y'\nb: \"p #q\"\nc: |\n  # inside\n  text\nd: e#f\n# trainlint: disable=TL101 -- reason\ne: 1 # trainlint: disable=TL002\nf: >  # header\n  x\n"
	d := mustParse(t, YAML, src)
	var got []string
	for _, c := range d.Comments {
		got = append(got, c.Text)
	}
	want := []string{" trainlint: disable=TL101 -- reason", " trainlint: disable=TL002", " header"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("comments %q, want %q", got, want)
	}
}

func TestYAMLSpansMore(t *testing.T) {
	cases := []struct{ src, path, key, val string }{
		{"a: [x\n  y, # c\n  z]\n", "a", "a", "[x\n  y, # c\n  z]"},
		{"b: {p: \"q\",\n  r: s}\n", "b.r", "r", "s"},
		{"a:    value   \nb: x # c\n", "a", "a", "value"},
		{"k:\n  - |1\n    x\n  - >\n   folded\n\n   para\nz: 1\n", "k", "k", "- |1\n    x\n  - >\n   folded\n\n   para"},
		{"a: \"multi\n  line\"\nb: 'x\n\n  y'\n", "b", "b", "'x\n\n  y'"},
		{"{é: 1, x: 2}\n", "x", "x", "2"},
		{"\"q k\": 1\n't': 2\n", "t", "'t'", "2"},
		{"t: !!map\n  x: 1\n", "t", "t", "x: 1"},
		{"a: &x\n  b: 1\nc: *x\n", "c", "c", "*x"},
		{"a:\n  b: |\n    # not a comment\n  c: 1\n", "a.b", "b", "|\n    # not a comment"},
		{"a: x\n\n\n# trailing comment\n", "a", "a", "x"},
	}
	for _, c := range cases {
		d := mustParse(t, YAML, c.src)
		if len(d.Problems) != 0 {
			t.Errorf("%q: %+v", c.src, d.Problems)
			continue
		}
		if err := checkSpanText(d); err != nil {
			t.Errorf("%q: %v", c.src, err)
		}
		n := d.Root.At(c.path)
		if n == nil {
			t.Errorf("%q: no %s", c.src, c.path)
			continue
		}
		if got := text(d, n.KeySpan); got != c.key {
			t.Errorf("%q %s: key %q want %q", c.src, c.path, got, c.key)
		}
		if got := text(d, n.Span); got != c.val {
			t.Errorf("%q %s: value %q want %q", c.src, c.path, got, c.val)
		}
	}
}

// A value left out sits right after its ':' or '-', on that line, not at the next token (where
// a finding about it would point at an unrelated key); both YAML readers agree.
func TestYAMLEmptyValuePosition(t *testing.T) {
	for _, src := range []string{
		"a:\nb: 1\n",                // direct reader
		"a:\nb: 1\nc: &x 2\n",       // yaml.v3 (an anchor)
		"list:\n  -\n  - 2\nb: 1\n", // seq item left out
		"list:\n  -\n  - &y 2\n",
	} {
		d := mustParse(t, YAML, src)
		var n *Node
		if strings.HasPrefix(src, "list") {
			if l := d.Root.Get("list"); l != nil && len(l.Children) > 0 {
				n = l.Children[0]
			}
		} else {
			n = d.Root.At("a")
		}
		if n == nil || n.Type != Null {
			t.Fatalf("%q: no null value", src)
		}
		want := strings.IndexAny(src, ":-") + 1
		if strings.HasPrefix(src, "list") {
			want = strings.Index(src, "-") + 1
		}
		if n.Span.Start.Offset != want || n.Span.End != n.Span.Start || n.Span.Start.Line != d.Lines().Pos(want).Line {
			t.Errorf("%q: empty value at %+v, want offset %d on its key's line", src, n.Span, want)
		}
	}
}

// An explicit number tag the text does not fit is a parse-error at the value or key (PyYAML
// constructs keys as it does values); fitting ones are not, and !!bool and !!null are left alone
// (loaders disagree on them).
func TestYAMLBadTag(t *testing.T) {
	d := parse(t, "x.yaml", []byte("a: !!int abc\nb: !!float 3\nc: !!bool yes\nd: !!int 0x1F\ne: !!null ''\nf: !!str 12\ng: !!float 1e-4x\n!!int main_fn: main\nh: {!!float \"fp16\": true, !!int 12: x}\n"), YAML, Limits{})
	var got []string
	for _, p := range d.Problems {
		got = append(got, fmt.Sprintf("%s %d:%d-%d %s", p.Kind, p.Span.Start.Line, p.Span.Start.Col, p.Span.End.Col, p.Message))
	}
	want := []string{
		`syntax 1:10-13 value "abc" is tagged !!int but is not an integer; YAML loaders refuse this file`,
		`syntax 7:12-17 value "1e-4x" is tagged !!float but is not a number; YAML loaders refuse this file`,
		`syntax 8:7-14 value "main_fn" is tagged !!int but is not an integer; YAML loaders refuse this file`,
		`syntax 9:13-19 value "fp16" is tagged !!float but is not a number; YAML loaders refuse this file`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// What PyYAML 6's construct_yaml_float reads (Python's float() after its own sign): fast3r's
	// `!!float -inf` among them; 0x1p3 and ---1 it refuses.
	for v, ok := range map[string]bool{"-inf": true, "inf": true, "Infinity": true, "nan": true, "1_000.5": true, "1:30.5": true,
		"+.inf": true, "--1": true, "0x1p3": false, "---1": false, "-.inf": true, "..5": false} {
		d := parse(t, "x.yaml", []byte("a: !!float "+v+"\n"), YAML, Limits{})
		if (len(d.Problems) == 0) != ok {
			t.Errorf("!!float %s: problems %v, want accepted %v", v, d.Problems, ok)
		}
	}
	if d.Root == nil || d.Root.Get("a").Type != Unknown || d.Root.Get("d").Type != Int {
		t.Errorf("types: a %v, d %v", d.Root.Get("a").Type, d.Root.Get("d").Type)
	}
}

// NEL, U+2028 and U+2029 end a line for yaml.v3 but not in editors: spans still cover the right
// text and positions count lines as editors do.
func TestYAMLUnicodeLineBreaks(t *testing.T) {
	for _, src := range []string{
		"\u00850",
		"0\u00850",
		"!\u00850",
		"a: # c\u2028  1\n",
		"a: [1, 2\u2028]\nb: {c: 1 # x\u0085}\n",
		"a: b\u2028 c\nd: 1\n",
		"a: 1\u2028b: 2\n",
		"x: y\n\u2029\nz: [1, 2]\nw: 'q'\n",
		"a:\u0085  - 1\u0085  - 2\nb: c # d\n",
	} {
		d := mustParse(t, YAML, src)
		if err := checkDoc(d); err != nil {
			t.Errorf("%q: %v", src, err)
		}
		if err := checkSpanText(d); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
	d := mustParse(t, YAML, "x: y\n\u2029\nz: [1, 2]\n")
	if n := d.Root.Get("z"); n == nil || n.Span.Start.Line != 3 || n.Span.Start.Col != 4 {
		t.Errorf("z at %+v, want line 3 column 4 (editors do not break at U+2029)", n)
	}
}

// TestYAMLSlashEscape: the double-quoted escape \/ is "/" (PyYAML since 5.1, YAML 1.2), which
// yaml.v3 refuses: both readers give PyYAML's values, a backslash outside double quotes stays a
// backslash, and an escaped backslash before a slash is not the escape. The direct reader
// declines the anchor, so the second file is read through yaml.v3.
func TestYAMLSlashEscape(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want map[string]string // path: value
	}{
		{"a: \"http:\\/\\/x\"\nb: 'c\\/d'\nc: e\\/f\nd: \"\\\\/\"\n\"k\\/\": [\"\\/\", g\\/]\nh: |\n  i\\/j\n",
			map[string]string{"a": "http://x", "b": `c\/d`, "c": `e\/f`, "d": `\/`, "k/[0]": "/", "k/[1]": `g\/`, "h": "i\\/j\n"}},
		{"a: &x \"\\/\"\nb: *x\nc: {d: \"e\\/\"}\n'f\\/': 1\n",
			map[string]string{"a": "/", "b": "/", "c.d": "e/", `f\/`: "1"}},
		// \a is used, so the stand-in is the next one.
		{"a: \"\\a\\/\"\n", map[string]string{"a": "\a/"}},
	} {
		for _, noDirect := range []bool{false, true} {
			d := ParseWith("x.yaml", []byte(tc.src), YAML, Options{NoDirectYAML: noDirect})
			if len(d.Problems) > 0 || d.Root == nil {
				t.Errorf("%q (noDirect %v): %v", tc.src, noDirect, d.Problems)
				continue
			}
			got := map[string]string{}
			d.Root.Walk(func(n *Node) bool {
				if n.Kind == Scalar {
					got[n.Path().String()] = n.Value
				}
				return true
			})
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%q (noDirect %v): %s = %q, want %q (all: %q)", tc.src, noDirect, k, got[k], v, got)
				}
			}
		}
	}
}

// Explicit tags outside YAML's own types are listed with their nodes, once each (not again where
// an alias copies them), in yaml.v3's short form or, under a %TAG directive, the full tag.
func TestYAMLTagged(t *testing.T) {
	src := "a: !!python/tuple [1, 2]\nb: !custom x\nc: !!str 1\nd: !<tag:yaml.org,2002:python/tuple> [1]\n" +
		"e: &x !foo {k: !!python/name:os.path 1}\nf: *x\ng: ! x\nh: !!int 3\n"
	want := []string{"a !!python/tuple", "b !custom", "d !!python/tuple", "e !foo", "e.k !!python/name:os.path"}
	for _, noDirect := range []bool{false, true} {
		d := ParseWith("x.yaml", []byte(src), YAML, Options{NoDirectYAML: noDirect})
		var got []string
		for _, g := range d.Tagged {
			got = append(got, g.Node.Path().String()+" "+g.Tag)
		}
		if strings.Join(got, "; ") != strings.Join(want, "; ") || len(d.Problems) > 0 {
			t.Errorf("tags %q (problems %v), want %q", got, d.Problems, want)
		}
	}
	d := Parse("x.yaml", []byte("%TAG !e! tag:example.com,2000:\n---\na: !e!foo 1\n"), YAML, Limits{})
	if len(d.Tagged) != 1 || d.Tagged[0].Tag != "tag:example.com,2000:foo" {
		t.Errorf("a %%TAG handle: %+v", d.Tagged)
	}
	if d := Parse("x.yaml", []byte("a: [1, 2]\nb: x\n"), YAML, Limits{}); d.Tagged != nil {
		t.Errorf("an untagged file lists tags: %+v", d.Tagged)
	}
}

// TestYAMLDuplicateKeysAgreeWithPyYAML writes two keys in every spelling pair of a list (plain,
// quoted, tagged, words YAML 1.1 types, numbers in every base and form, dates), block and flow,
// and gives each text to PyYAML's safe_load and to OmegaConf's loader (which reads dates as
// strings and "1e3" as a float, like jsonargparse's): a repeated key is reported exactly where
// both build one key of the two (OmegaConf's refusing a repeated string key counts as one), and
// always where the two are written alike. (Keys written differently that both read as one value,
// yes and true, are not compared.)
// Texts PyYAML cannot load (an invalid date) are left out.
func TestYAMLDuplicateKeysAgreeWithPyYAML(t *testing.T) {
	keys := []string{"a", `"a"`, "'a'", "null", `"null"`, "~", "'~'", "1", `"1"`, "01", "1.0", "1.", "true", `"true"`,
		"yes", `"yes"`, "YES", "on", "1.5", `"1.5"`, "0x1", `"0x1"`, "1e3", `"1e3"`, "1.0e+3", "1000", "1_000", "-x", `"-x"`,
		"1:00", "1:00.0", "60", "0:30", "2001-01-01", `"2001-01-01"`, "2001-1-1 1:00:00", "2001-12-14t21:59:43.10-05:00",
		".nan", ".NaN", ".inf", "+.inf", "-.inf", "0", "-0.0", "0.0", "false", "no", "0o7", "0_", "0b1", "0b_1", "._5",
		"1_0.5e+0", "10.5", "!!str 1", "!!int 1", "-0x10", "-16", "020", "16", "9223372036854775808", "9.223372036854775808e+18",
		"1.5e+400", "2e+400"}
	var texts []string
	var same []bool
	for _, k1 := range keys {
		for _, k2 := range keys {
			for _, form := range []string{"%s: 1\n%s: 2\n", "{%s: 1, %s: 2}\n"} {
				texts = append(texts, fmt.Sprintf(form, k1, k2))
				same = append(same, k1 == k2)
			}
		}
	}
	var in strings.Builder
	for _, s := range texts {
		in.WriteString(strconv.Quote(s) + "\n")
	}
	verdicts := corpustest.RunPython(t, corpustest.Python(t, "omegaconf"), `import sys, json, yaml
from omegaconf._utils import get_yaml_loader
for line in sys.stdin.read().split("\n")[:-1]:
    text = json.loads(line)
    try:
        py = str(len(yaml.safe_load(text)))
    except Exception:
        py = "E"
    try:
        oc = str(len(yaml.load(text, Loader=get_yaml_loader())))
    except yaml.constructor.ConstructorError as e:
        oc = "1" if "found duplicate key" in str(e) else "E"
    except Exception:
        oc = "E"
    print(py + " " + oc)`, in.String(), len(texts))
	claimed, both := 0, 0
	for i, text := range texts {
		if strings.HasPrefix(verdicts[i], "E") {
			continue
		}
		one := verdicts[i] == "1 1"
		if one {
			both++
		}
		for _, noDirect := range []bool{false, true} {
			d := ParseWith("x.yaml", []byte(text), YAML, Options{NoDirectYAML: noDirect})
			dup := false
			for _, p := range d.Problems {
				dup = dup || p.Kind == DuplicateKey
			}
			if dup && !one {
				t.Errorf("%q (direct reader off: %v): reported repeated, but PyYAML and OmegaConf's loader build %s keys", text, noDirect, verdicts[i])
			}
			if same[i] && !dup {
				t.Errorf("%q (direct reader off: %v): the same key twice is not reported", text, noDirect)
			}
			if dup && !noDirect {
				claimed++
			}
		}
	}
	t.Logf("%d texts, %d of them one key to both loaders, %d reported", len(texts), both, claimed)
}
