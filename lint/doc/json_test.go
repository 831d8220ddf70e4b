package doc

import (
	"strings"
	"testing"
)

func TestJSONSpans(t *testing.T) {
	src := "{\n  \"train\": {\"lr\": 1e-4, \"steps\": 100},\n  \"name\": \"x\\u00e9\\\"y\",\n  \"é\": [true, null, -0.5],\n  \"batch\": \"auto\"\n}\n"
	d := mustParse(t, JSON, src)
	if len(d.Problems) != 0 {
		t.Fatalf("problems %+v", d.Problems)
	}
	cases := []struct {
		path, key, val, style string
		typ                   Type
		value                 string
	}{
		{"train", `"train"`, `{"lr": 1e-4, "steps": 100}`, "flow", 0, ""},
		{"train.lr", `"lr"`, "1e-4", "plain", Float, "1e-4"},
		{"train.steps", `"steps"`, "100", "plain", Int, "100"},
		{"name", `"name"`, `"x\u00e9\"y"`, "double", String, "xé\"y"},
		{"é", `"é"`, "[true, null, -0.5]", "flow", 0, ""},
		{"batch", `"batch"`, `"auto"`, "double", Unknown, "auto"},
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
		if n.Style != c.style || (c.typ != 0 && n.Type != c.typ) || (c.value != "" && n.Value != c.value) {
			t.Errorf("%s: style %q type %v value %q", c.path, n.Style, n.Type, n.Value)
		}
	}
	e := d.Root.Get("é")
	if e.KeySpan.Start.Line != 4 || e.KeySpan.Start.Col != 3 || e.KeySpan.End.Col != 6 || e.Span.Start.Col != 8 {
		t.Errorf("é spans %+v %+v", e.KeySpan, e.Span)
	}
	if v, ok := e.Item(2).Float(); !ok || v != -0.5 {
		t.Errorf("item float %v %v", v, ok)
	}
	if got := d.Root.At("train").Get("lr").Path().String(); got != "train.lr" {
		t.Errorf("path %q", got)
	}
}

func TestJSONErrors(t *testing.T) {
	cases := []problemCase{
		{"{\"a\": 1]", Syntax, 1, 8, `expected ',' or '}' after object member, found '\]'`},
		{"{\"a\": 1,}", NonStandard, 1, 8, "trailing comma"},
		{"{\"a\": 1, 2}", Syntax, 1, 10, `expected a string key after ',', found "2"`},
		{"{,}", Syntax, 1, 2, `expected a string key or '\}', found ','`},
		{"[1,]", NonStandard, 1, 3, `trailing comma before '\]'; JSON does not allow it`},
		{"[1 2]", Syntax, 1, 4, `expected ',' or '\]' after array element, found "2"`},
		{"{'a': 1}", Syntax, 1, 2, "double quotes"},
		{"{\"a\": True}", Syntax, 1, 7, `invalid value "True"`},
		{"[1,\n 2", Syntax, 2, 3, "found the end of the file"},
		{"{\"a\" 1}", Syntax, 1, 6, `expected ':' after object key "a"`},
		{"01", Syntax, 1, 1, "leading zeros"},
		{"{\"a\": \"x\n\"}", Syntax, 1, 7, "not closed"},
		{"", Syntax, 1, 1, "empty"},
		{"{} {}", Syntax, 1, 4, "after the end of the top-level value"},
		{"[nan]", Syntax, 1, 2, `invalid value "nan"; strings must be in double quotes`},
		{"// c\n{}", NonStandard, 1, 1, "comments"},
		{"{\"a\": 1 /* open", Syntax, 1, 9, "comment opened with /\\* is not closed"},
		{"{\"a\": \"\\x\"}", Syntax, 1, 8, `invalid escape \\x`},
		{"{\"a\": 1,\r\n \"a\": 2}", DuplicateKey, 2, 2, `key "a" is repeated; the value on line 2 silently overrides the one on line 1`},
		{strings.Repeat("[", 100000) + strings.Repeat("]", 100000), LimitExceeded, 1, 1002, `nesting is deeper than 1000 levels.*limits.max_depth`},
	}
	for _, c := range cases {
		checkProblem(t, JSON, c)
	}
}

func TestJSONHugeNumbers(t *testing.T) {
	d := mustParse(t, JSON, `{"a": 1e400, "b": 99999999999999999999999, "c": -1e-400}`)
	if len(d.Problems) != 0 {
		t.Fatal(d.Problems)
	}
	if _, ok := d.Root.Get("a").Int(); ok {
		t.Error("1e400 as int")
	}
	if _, ok := d.Root.Get("b").Int(); ok {
		t.Error("99999999999999999999999 fits no int64")
	}
	if d.Root.Get("b").Type != Int || d.Root.Get("b").Value != "99999999999999999999999" {
		t.Error("huge int text not kept")
	}
}

func TestJSONPythonFloats(t *testing.T) {
	d := mustParse(t, JSON, `{"a": NaN, "b": Infinity, "c": -Infinity}`)
	if len(d.Problems) != 0 {
		t.Fatal(d.Problems)
	}
	for _, k := range []string{"a", "b", "c"} {
		if n := d.Root.Get(k); n.Type != Float || text(d, n.Span) != n.Value {
			t.Errorf("%s: %v %q", k, n.Type, n.Value)
		}
	}
	if v, ok := d.Root.Get("c").Float(); !ok || v > -1e308 {
		t.Errorf("-Infinity as float: %v %v", v, ok)
	}
}

// TestJSONBOMCRLF: CRLF line breaks read as LF ones; a byte order mark is a parse error, as
// Python's json refuses it when transformers and accelerate read the file (opened as "utf-8").
func TestJSONBOMCRLF(t *testing.T) {
	checkProblem(t, JSON, problemCase{"\ufeff{\r\n  \"a\": \"x\"\r\n}\r\n", Syntax, 1, 1, `starts with a byte order mark .*"Unexpected UTF-8 BOM"`})
	d := mustParse(t, JSON, "{\r\n  \"a\": \"x\",\r\n  \"b\": [1]\r\n}\r\n")
	if len(d.Problems) != 0 || !d.CRLF {
		t.Fatalf("problems %+v crlf %v", d.Problems, d.CRLF)
	}
	b := d.Root.Get("b")
	if b.KeySpan.Start.Line != 3 || b.KeySpan.Start.Col != 3 || text(d, b.Span) != "[1]" {
		t.Errorf("b at %+v %q", b.KeySpan.Start, text(d, b.Span))
	}
}

// TestJSONLenient: comments and trailing commas are read past as JSON5 and hjson readers do, the
// first of each reported as NonStandard, with the tree and its positions as Python's json would
// give them without the additions.
func TestJSONLenient(t *testing.T) {
	d := mustParse(t, JSON, "{\"a\": [1, /* x\n y */ 2,],\r\n\"b\": 3, // z\n/* again */ \"c\": {\"d\": 4,},\n}")
	var got []string
	for _, p := range d.Problems {
		got = append(got, p.Kind.String()+" "+itoa(p.Span.Start.Line)+":"+itoa(p.Span.Start.Col)+" "+p.Message)
	}
	want := []string{"non-standard 1:11 JSON does not allow comments", "non-standard 2:8 trailing comma before ']'; JSON does not allow it"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("problems %q, want %q (the first of each kind)", got, want)
	}
	if d.Root == nil {
		t.Fatal("no tree")
	}
	a := d.Root.Get("a")
	if len(a.Children) != 2 || a.Item(1).Value != "2" || a.Item(1).Span.Start.Line != 2 {
		t.Errorf("a = %+v", a)
	}
	if b := d.Root.Get("b"); b.Value != "3" || b.Span.Start.Line != 3 || b.Span.Start.Col != 6 {
		t.Errorf("b at %+v", b.Span)
	}
	if c := d.Root.At("c.d"); c == nil || c.Value != "4" || c.Span.Start.Line != 4 {
		t.Errorf("c.d = %+v", c)
	}
}
