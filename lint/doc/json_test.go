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
		if !checkKeyValue(t, d, n, c.path, c.key, c.val) {
			continue
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
		{"{'a': 1}", NonStandard, 1, 2, "^single-quoted string; JSON strings and keys must use double quotes$"},
		{"{\"a\": True}", Syntax, 1, 7, `invalid value "True"`},
		{"[1,\n 2", Syntax, 2, 3, "found the end of the file"},
		{"{\"a\" 1}", Syntax, 1, 6, `expected ':' after object key "a"`},
		{"[01]", Syntax, 1, 2, "leading zeros"},
		{"{\"a\": \"x\n\"}", Syntax, 1, 7, "not closed"},
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

// TestJSON5: the rest of JSON5's syntax is read too, into the tree the json5 package (v0.15.0)
// returns, with spans on the text as written; the first of each kind is one NonStandard
// problem, whose Readers say which lenient readers accept it (checked against json5 v0.15.0 and
// hjson-py 3.1.0, run on these constructs).
func TestJSON5(t *testing.T) {
	src := "{\n" +
		"  lr: 1e-4, // peak\n" +
		"  'name': 'it\\'s',\n" +
		"  $steps_2: 0x10,\n" +
		"  warm: .5, cool: 5.,\n" +
		"  plus: +1,\n" +
		"  inf: +Infinity, nan: -NaN,\n" +
		"  esc: \"\\x41\\v\",\n" +
		"  long: 'a\\\n" +
		"b',\n" +
		"  neg: -0x1F, big: 0x10000000000000000,\n" +
		"  \"é\": [0x0, +.5e3, 'ü'],\n" +
		"}\n"
	d := mustParse(t, JSON, src)
	if d.Root == nil {
		t.Fatalf("no tree: %+v", d.Problems)
	}
	both, json5Only, number := "JSON5 and hjson readers accept it", "JSON5 readers accept it; hjson refuses it", "JSON5 readers read it as a number; hjson does not"
	var got []string
	for _, p := range d.Problems {
		got = append(got, p.Kind.String()+" "+itoa(p.Span.Start.Line)+":"+itoa(p.Span.Start.Col)+"-"+itoa(p.Span.End.Line)+":"+itoa(p.Span.End.Col)+" "+p.Message+" | "+p.Readers)
	}
	want := []string{
		`non-standard 2:3-2:5 unquoted key "lr"; JSON keys must be in double quotes | ` + both,
		`non-standard 2:13-2:15 JSON does not allow comments | ` + both,
		`non-standard 3:3-3:9 single-quoted string; JSON strings and keys must use double quotes | ` + both,
		`non-standard 3:14-3:16 escape \' in a string; JSON does not allow it | ` + both,
		`non-standard 4:13-4:17 hexadecimal number "0x10"; JSON does not allow it | ` + number,
		`non-standard 5:9-5:11 number ".5" has no digit before its decimal point; JSON does not allow it | ` + number,
		`non-standard 6:9-6:11 number "+1" has a '+' sign; JSON does not allow it | ` + number,
		`non-standard 8:9-8:13 escape \x41 in a string; JSON does not allow it | ` + json5Only,
		`non-standard 9:11-9:12 backslash before a line break in a string; JSON does not allow it | ` + json5Only,
		`non-standard 12:25-12:26 trailing comma before '}'; JSON does not allow it | ` + both,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant (one of each kind):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	cases := []struct {
		path, key, val, style string
		typ                   Type
		value                 string
	}{
		{"lr", "lr", "1e-4", "plain", Float, "1e-4"},
		{"name", "'name'", `'it\'s'`, "single", String, "it's"},
		{"$steps_2", "$steps_2", "0x10", "json5", Int, "16"},
		{"warm", "warm", ".5", "json5", Float, "0.5"},
		{"cool", "cool", "5.", "json5", Float, "5.0"},
		{"plus", "plus", "+1", "json5", Int, "1"},
		{"inf", "inf", "+Infinity", "json5", Float, "Infinity"},
		{"nan", "nan", "-NaN", "json5", Float, "NaN"},
		{"esc", "esc", `"\x41\v"`, "double", String, "A\v"},
		{"long", "long", "'a\\\nb'", "single", String, "ab"},
		{"neg", "neg", "-0x1F", "json5", Int, "-31"},
		// Past uint64: the digits as written, which Int and Float refuse like 99999999999999999999999.
		{"big", "big", "0x10000000000000000", "json5", Int, "0x10000000000000000"},
		{"é.0", "", "0x0", "json5", Int, "0"},
		{"é.1", "", "+.5e3", "json5", Float, "0.5e3"},
		{"é.2", "", "'ü'", "single", String, "ü"},
	}
	at := func(path string) *Node { // "key" or "key.index"
		k, i, item := strings.Cut(path, ".")
		if n := d.Root.Get(k); item && n != nil {
			return n.Item(int(i[0] - '0'))
		} else {
			return n
		}
	}
	for _, c := range cases {
		n := at(c.path)
		if !checkKeyValue(t, d, n, c.path, c.key, c.val) {
			continue
		}
		if n.Style != c.style || n.Type != c.typ || n.Value != c.value || n.Quoted != (c.typ == String) {
			t.Errorf("%s: style %q type %v value %q quoted %v; want %q %v %q", c.path, n.Style, n.Type, n.Value, n.Quoted, c.style, c.typ, c.value)
		}
	}
	// What consumers read from the Values (Node.Int and Float; a decimal Int is what
	// strconv.ParseInt(v, 10, 64) reads too).
	if v, ok := d.Root.Get("$steps_2").Int(); !ok || v != 16 {
		t.Errorf("0x10 as int: %v %v", v, ok)
	}
	if v, ok := d.Root.Get("neg").Int(); !ok || v != -31 {
		t.Errorf("-0x1F as int: %v %v", v, ok)
	}
	if v, ok := d.Root.Get("cool").Float(); !ok || v != 5 {
		t.Errorf("5. as float: %v %v", v, ok)
	}
	if v, ok := d.Root.Get("nan").Float(); !ok || v == v {
		t.Errorf("-NaN as float: %v %v", v, ok)
	}
	if v, ok := at("é.1").Float(); !ok || v != 500 {
		t.Errorf("+.5e3 as float: %v %v", v, ok)
	}
	if _, ok := d.Root.Get("big").Int(); ok {
		t.Error("0x10000000000000000 fits no int64")
	}
	// Positions after the continued string and of a non-ASCII key and value (columns count code
	// points).
	if l := d.Root.Get("long"); l.Span.Start.Line != 9 || l.Span.Start.Col != 9 || l.Span.End.Line != 10 || l.Span.End.Col != 3 {
		t.Errorf("long spans %+v", l.Span)
	}
	if n := d.Root.Get("neg"); n.KeySpan.Start.Line != 11 || n.Span.Start.Col != 8 {
		t.Errorf("neg after the continued string at %+v", n.Span.Start)
	}
	if u := at("é.2"); u.Span.Start.Col != 21 || u.Span.End.Col != 24 || u.Span.End.Offset-u.Span.Start.Offset != 4 {
		t.Errorf("'ü' spans %+v", u.Span)
	}
}

// TestJSON5Keys: an unquoted key is what the json5 package's ident rule reads (ECMAScript's
// IdentifierName without escapes): the key is its text, and a key repeated with or without
// quotes is a duplicate.
func TestJSON5Keys(t *testing.T) {
	d := mustParse(t, JSON, "{$a_1: 1, _b$9: 2, é: 3, aé1: 4, \u2160: 5, a\u0301\u203f\u200c: 6, null: 7, NaN: 8, Infinity: 9, x\n:\n10}")
	var keys []string
	for _, c := range d.Root.Children {
		keys = append(keys, c.Key)
	}
	if want := "$a_1 _b$9 é aé1 \u2160 a\u0301\u203f\u200c null NaN Infinity x"; strings.Join(keys, " ") != want {
		t.Errorf("keys %q, want %q", strings.Join(keys, " "), want)
	}
	if len(d.Problems) != 1 || d.Problems[0].Kind != NonStandard || !strings.HasPrefix(d.Problems[0].Message, `unquoted key "$a_1"`) {
		t.Errorf("problems %+v, want one", d.Problems)
	}
	d = mustParse(t, JSON, "{\"a\": 1,\n a: 2}")
	if len(d.Problems) != 2 || d.Problems[1].Kind != DuplicateKey || d.Problems[1].Span.Start.Line != 2 || d.Problems[1].Span.Start.Col != 2 {
		t.Errorf("problems %+v, want the unquoted key and the duplicate at 2:2", d.Problems)
	}
}

// TestJSON5Errors: what JSON5 refuses too is a parse error at its position, the tree dropped,
// whatever was read past before it (and so are JSON5's forms left unread: \uXXXX in keys).
func TestJSON5Errors(t *testing.T) {
	cases := []problemCase{
		{"{a b: 1}", Syntax, 1, 4, `^expected ':' after object key "a", found "b"$`},
		// Keys neither JSON5 nor hjson reads (hjson: no white space inside a key, no bracket).
		{"{a-b c: 1}", Syntax, 1, 3, `expected ':' after object key "a", found "-b"`},
		{"{1a b: 1}", Syntax, 1, 2, `expected a string key or '\}', found "1a"`},
		{"{a: 1, 2b c: 1}", Syntax, 1, 8, `expected a string key after ',', found "2b"`},
		{"{a€ b: 1}", Syntax, 1, 3, `expected ':' after object key "a", found '€'`},
		{"{\\u0061]: 1}", Syntax, 1, 2, `expected a string key or '\}', found '\\\\'`},
		{"{a: b}", Syntax, 1, 5, `invalid value "b"`},
		{"{'a: 1}", Syntax, 1, 2, `^the string that starts here is not closed; a "'" is missing$`},
		{"{\"a\": 'x\n'}", Syntax, 1, 7, "not closed before the end of the line"},
		{"['x\\", Syntax, 1, 2, `not closed; a "'" is missing`},
		{"['\\x4']", Syntax, 1, 3, `^invalid escape \\x in a string; it needs two hex digits$`},
		{"[\"\\x4g\"]", Syntax, 1, 3, `invalid escape \\x`},
		{"['\\1']", Syntax, 1, 3, `^invalid escape \\1 in a string$`},
		{"['\\01']", Syntax, 1, 3, `^invalid escape \\0 before a digit in a string$`},
		{"['\\u00e']", Syntax, 1, 3, `invalid \\u escape; it needs four hex digits`},
		{"[0x]", Syntax, 1, 2, `^invalid number "0x"$`},
		{"[0x1g]", Syntax, 1, 2, `^invalid number "0x1g"$`},
		{"[0x1.5]", Syntax, 1, 2, `invalid number "0x1.5"`},
		{"[.]", Syntax, 1, 3, `expected a digit after the decimal point, found '\]'`},
		{"[-.e5]", Syntax, 1, 4, `expected a digit after the decimal point, found "e5"`},
		{"[1.e]", Syntax, 1, 5, `expected a digit in the exponent`},
		{"[00.5]", Syntax, 1, 2, "leading zeros"},
		{"[+]", Syntax, 1, 3, `expected a digit in number, found '\]'`},
		{"[++1]", Syntax, 1, 3, `expected a digit in number, found "\+1"`},
		{"[+-1]", Syntax, 1, 3, `expected a digit in number, found "-1"`},
		{"[--1]", Syntax, 1, 3, `expected a digit in number, found "-1"`},
		{"[+Infinityx]", Syntax, 1, 3, `expected a digit in number, found "Infinityx"`},
		{"[-NaN1]", Syntax, 1, 3, `expected a digit in number, found "NaN1"`},
		{"[1.5.5]", Syntax, 1, 2, `invalid number "1.5.5"`},
	}
	for _, c := range cases {
		checkRefusedJSON(t, c)
	}
}

// checkRefusedJSON checks that c.src gives no tree and one problem besides the NonStandard ones
// met before it, the one c describes.
func checkRefusedJSON(t *testing.T, c problemCase) {
	t.Helper()
	d := mustParse(t, JSON, c.src)
	var syntax []Problem
	for _, p := range d.Problems {
		if p.Kind != NonStandard {
			syntax = append(syntax, p)
		}
	}
	if len(syntax) != 1 || d.Root != nil {
		t.Errorf("%q: problems %+v, root %v; want one parse error and no tree", c.src, d.Problems, d.Root)
		return
	}
	if p := syntax[0]; p.Kind != c.kind || p.Span.Start.Line != c.line || p.Span.Start.Col != c.col || !regexpMatch(c.msg, p.Message) {
		t.Errorf("%q: got %s %d:%d %q; want %s %d:%d %q", c.src, p.Kind, p.Span.Start.Line, p.Span.Start.Col, p.Message, c.kind, c.line, c.col, c.msg)
	}
}

// TestJSON5OncePerKind: each kind is reported at its first use only, however often it recurs.
func TestJSON5OncePerKind(t *testing.T) {
	one := "{k: 'v', \"e\": \"\\'\\x41\\\n\", h: 0x1, p: .5, s: +1,} // c\n"
	d := mustParse(t, JSON, "["+one+", "+one+", "+strings.Repeat("{a: 'b', c: [0xF, 1., -NaN, '\\v\\\r\\n'],}, ", 50)+"{}]")
	if d.Root == nil || len(d.Root.Children) != 53 {
		t.Fatalf("tree %v, problems %+v", d.Root, d.Problems)
	}
	kinds := []string{`unquoted key "k"`, "single-quoted string", `escape \'`, `escape \x41`, "backslash before a line break",
		`hexadecimal number "0x1"`, `number ".5"`, `number "+1"`, "trailing comma", "JSON does not allow comments"}
	for _, k := range kinds {
		n := 0
		for _, p := range d.Problems {
			if strings.HasPrefix(p.Message, k) {
				n++
				if p.Kind != NonStandard || p.Span.Start.Offset > len(one) {
					t.Errorf("%q at %+v: want a NonStandard problem in the first object", p.Message, p.Span.Start)
				}
			}
		}
		if n != 1 {
			t.Errorf("%d problems %q..., want 1", n, k)
		}
	}
	if len(d.Problems) != len(kinds) {
		t.Errorf("problems %+v, want one of each kind", d.Problems)
	}
}

// checkKeyValue reports a node missing at path, or whose key and value spans do not read key
// and val; it returns false when there is no node.
func checkKeyValue(t *testing.T, d *Document, n *Node, path, key, val string) bool {
	t.Helper()
	if n == nil {
		t.Errorf("%s missing", path)
		return false
	}
	if got := text(d, n.KeySpan); got != key {
		t.Errorf("%s key %q want %q", path, got, key)
	}
	if got := text(d, n.Span); got != val {
		t.Errorf("%s value %q want %q", path, got, val)
	}
	return true
}
