package doc

import (
	"regexp"
	"strings"
	"testing"
)

func TestTOMLSpans(t *testing.T) {
	src := "# top\r\ntitle = \"x\" # c\r\n[train]\r\nlr = 1e-4\r\nsteps = 1_000\r\nopt.name = 'adam'\r\nopt.betas = [0.9, 0.99]\r\n[[data]]\r\npath = \"a#b\"\r\n[[data]]\r\npath = \"\"\"\r\nmulti # no\r\n\"\"\"\r\ninl = {a = 1, b.c = [1, {d = \"${x}\"}]}\r\n[x.y.z]\r\nq = 2024-01-01\r\n[x]\r\nw = true\r\n"
	d := mustParse(t, TOML, src)
	if len(d.Problems) != 0 {
		t.Fatalf("problems %+v", d.Problems)
	}
	if !d.CRLF {
		t.Error("CRLF not set")
	}
	cases := []struct {
		path, key, val, style string
		typ                   Type
	}{
		{"title", "title", `"x"`, "double", String},
		{"train", "train", "[train]\r\nlr = 1e-4\r\nsteps = 1_000\r\nopt.name = 'adam'\r\nopt.betas = [0.9, 0.99]", "block", 0},
		{"train.lr", "lr", "1e-4", "plain", Float},
		{"train.steps", "steps", "1_000", "plain", Int},
		{"train.opt", "opt", "opt.name = 'adam'\r\nopt.betas = [0.9, 0.99]", "block", 0},
		{"train.opt.name", "name", "'adam'", "single", String},
		{"train.opt.betas", "betas", "[0.9, 0.99]", "flow", 0},
		{"x.y.z.q", "q", "2024-01-01", "plain", String},
		{"x.w", "w", "true", "plain", Bool},
		{"x", "x", "[x.y.z]\r\nq = 2024-01-01\r\n[x]\r\nw = true", "block", 0},
	}
	for _, c := range cases {
		n := d.Root.At(c.path)
		if n == nil {
			t.Errorf("%s missing", c.path)
			continue
		}
		if got := text(d, n.KeySpan); got != c.key {
			t.Errorf("%s key %q want %q", c.path, got, c.key)
		}
		if got := text(d, n.Span); got != c.val {
			t.Errorf("%s value %q want %q", c.path, got, c.val)
		}
		if n.Style != c.style || (c.typ != 0 && n.Type != c.typ) {
			t.Errorf("%s: style %q type %v", c.path, n.Style, n.Type)
		}
	}
	if v, ok := d.Root.At("train.steps").Int(); !ok || v != 1000 {
		t.Errorf("steps %d %v", v, ok)
	}
	data := d.Root.Get("data")
	if data.Kind != Seq || len(data.Children) != 2 {
		t.Fatalf("data %+v", data)
	}
	inl := data.Item(1).Get("inl")
	if got := text(d, inl.Span); got != `{a = 1, b.c = [1, {d = "${x}"}]}` || inl.Style != "flow" {
		t.Errorf("inline %q", got)
	}
	dd := inl.At("b.c").Item(1).Get("d")
	if dd.Type != Unknown || dd.Path().String() != "data[1].inl.b.c[1].d" || text(d, dd.Span) != `"${x}"` {
		t.Errorf("d: %v %s %q", dd.Type, dd.Path(), text(d, dd.Span))
	}
	if p := data.Item(1).Get("path"); p.Value != "multi # no\r\n" && p.Value != "multi # no\n" {
		t.Errorf("multi-line value %q", p.Value)
	}
	var cm []string
	for _, c := range d.Comments {
		cm = append(cm, c.Text)
	}
	if strings.Join(cm, "|") != " top| c" || d.Comments[0].Span.Start.Col != 1 || d.Comments[0].Span.Start.Offset != 0 {
		t.Errorf("comments %q %+v", cm, d.Comments)
	}
}

func TestTOMLErrorsAndDuplicates(t *testing.T) {
	cases := []problemCase{
		{"a = 1\na = 2\n", DuplicateKey, 2, 1, `key "a" is repeated; TOML does not allow this`},
		{"[t]\nx = 1\n[t]\n", DuplicateKey, 3, 2, `table "t" is defined twice`},
		{"a.b = 1\n[a]\n", DuplicateKey, 2, 2, `table "a" is defined twice`},
		{"a = 1\n[a.b]\n", DuplicateKey, 2, 2, `key "a" is repeated`},
		{"[t]\na = {x = 1}\na.y = 2\n", DuplicateKey, 3, 1, `key "t.a" is repeated`},
		{"a = []\n[[a]]\n", DuplicateKey, 2, 3, `key "a" is repeated`},
		{"a = \nb = 1\n", Syntax, 1, 5, "expected a value, found a line break"},
		{"a = \"x\n", Syntax, 1, 5, "not closed before the end of the line"},
		{"[a\n", Syntax, 1, 3, `expected '\]' to close table name`},
		{"a = 1 b = 2\n", Syntax, 1, 7, "expected a line break after the value"},
		// What go-toml reads and tomllib (TOML 1.0) refuses: toml10.go.
		{"a = \"x\\x41\"\n", Syntax, 1, 7, `the escape \\x is TOML 1.1; TOML 1\.0 \(what Python's tomllib reads`},
		{"a = \"\"\"\\\\\\e\"\"\"\n", Syntax, 1, 10, `the escape \\e is TOML 1.1`},
		{"\"k\\e\" = 1\n", Syntax, 1, 3, `the escape \\e`},
		{"a =1979-05-27 10\n", Syntax, 1, 14, `the date or time "1979-05-27" is followed by " 10", which tomllib refuses`},
		{"a = 1979-05-27T07:32:00Z0.8\n", Syntax, 1, 25, `followed by "0.8"`},
		{"a = [1979-05-27T07:32]\n", Syntax, 1, 16, `followed by "T07:32"`},
		{"a = 1979-02-29\n", Syntax, 1, 5, `the date "1979-02-29" does not exist`},
		{"a = 24:00:00\n", Syntax, 1, 5, `"24:00:00" is not a date or time`},
		{"a = 07:32\n", Syntax, 1, 5, `seconds required`},
		{"a = {b = 1,}\n", Syntax, 1, 11, `a comma after an inline table's last entry is TOML 1.1`},
		{"a = {\nb = 1}\n", Syntax, 1, 6, `a line break inside an inline table is TOML 1.1`},
		{"a = {b = 1 # c\n}\n", Syntax, 1, 12, `a comment inside an inline table`},
		{"é = 1\n", Syntax, 1, 1, `invalid character at start of key: 'é'`},
		{"\ufeffa = 1\n", Syntax, 1, 1, `starts with a byte order mark .*tomllib`},
		{"a = " + strings.Repeat("[", 100000), LimitExceeded, 1, 10005, "nested deeper"},
		{"a = " + strings.Repeat("[", 1500) + strings.Repeat("]", 1500), LimitExceeded, 1, 1005, "nesting is deeper than 1000 levels"},
		{"[" + strings.Repeat("a.", 2000) + "a]", LimitExceeded, 1, 2002, "nesting is deeper than 1000 levels"},
	}
	// TOML 1.0 that go-toml and tomllib both read, beside the cases above that only go-toml reads.
	for _, src := range []string{
		"a = '\\e'\n",
		"a = 2000-02-29\nb = 1979-05-27t07:32:00.1234567z\nc = 1979-05-27 07:32:00-08:00\nd = 23:59:59\n",
		"a = {b = 1, c = [\n1,\n]}\n",
	} {
		if d := mustParse(t, TOML, src); len(d.Problems) != 0 || d.Root == nil {
			t.Errorf("%q: %+v", src, d.Problems)
		}
	}
	for _, c := range cases {
		p := checkProblem(t, TOML, c)
		if p == nil {
			continue
		}
		if p.Kind == DuplicateKey && (p.Related == nil || p.Related.Start.Line != 1 && p.Related.Start.Line != 2) {
			t.Errorf("%.40q: related %+v", c.src, p.Related)
		}
	}
}

var codePointRe = regexp.MustCompile(`U\+[0-9A-F]{4,6} ('.+?')`)

var codePointSamples = []string{
	"", "U+0041 'A'", "invalid character U+000A 'a' at start", "U+0041 'A' and U+0042 'B'", "U+41 'A'", "U+0000000 'x'",
	"U+00411 'x'", "U+004G 'x'", "U+0041 ''", "U+0041 '''", "U+0041 'a\n'", "U+0041 'ab", "U+0041  'a'", "U+0041 '\xff'",
	"UU+0041 'é' x", "U+0041 'a'U+0042 'b'", "U+0041 'U+0042 'b''", "U+0041 'é'", "U+0041 '",
}

func TestDropCodePointsLikeRegexp(t *testing.T) {
	for _, s := range codePointSamples {
		if got, want := dropCodePoints(s), codePointRe.ReplaceAllString(s, "$1"); got != want {
			t.Errorf("dropCodePoints(%q) = %q, the regexp gives %q", s, got, want)
		}
	}
}

func FuzzDropCodePoints(f *testing.F) {
	for _, s := range codePointSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := dropCodePoints(s), codePointRe.ReplaceAllString(s, "$1"); got != want {
			t.Errorf("dropCodePoints(%q) = %q, the regexp gives %q", s, got, want)
		}
	})
}
