package compose

import (
	"strings"
	"testing"
)

// Hydra's override values, read as hydra/grammar/*.g4 and overrides_visitor.py (v1.3.2) read
// them; the expectations follow the grammar and the cases of Hydra's own parser tests
// (tests/test_overrides_parser.py), written here as the YAML text the composer reads.
func TestHydraValue(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// one token keeps its type
		{"10", "10"}, {"-1", "-1"}, {"+5", "5"}, {"10_0", "100"}, {"0", "0"},
		{"0.0", "0.0"}, {"0.51", "0.51"}, {"1e-05", "1e-05"}, {"-3.14", "-3.14"}, {"3.1_4", "3.14"},
		{"10e0", "10.0"}, {"-10e1", "-100.0"}, {"1.", "1.0"}, {".5", "0.5"}, {"1.e2", "100.0"},
		{"inf", ".inf"}, {"INF", ".inf"}, {"-inf", "-.inf"}, {"nan", ".nan"}, {"NaN", ".nan"}, {"1e999", ".inf"},
		{"true", "true"}, {"TRUE", "true"}, {"trUe", "true"}, {"faLse", "false"}, {"null", "null"}, {"NULL", "null"},
		// what YAML would type and Hydra does not
		{"on", `"on"`}, {"yes", `"yes"`}, {"off", `"off"`}, {"0x10", `"0x10"`}, {"1_000_", `"1_000_"`},
		{"0123", `"0123"`}, {"1__0", `"1__0"`}, {"2001-01-01", `"2001-01-01"`},
		// strings: an ID, or several tokens joined (escapes undone, the ends' whitespace dropped)
		{"abc", `"abc"`}, {"abc-123", `"abc-123"`}, {"10abc", `"10abc"`}, {"0.foo", `"0.foo"`},
		{"a.b.c", `"a.b.c"`}, {"truex", `"truex"`}, {"infinity", `"infinity"`}, {"1.5.2", `"1.5.2"`},
		{" abc-123 ", `"abc-123"`}, {"a b c\t-\t1 2 3", `"a b c\t-\t1 2 3"`}, {`c:\foo\a-b.txt`, `"c:\\foo\\a-b.txt"`},
		{`a\,b`, `"a,b"`}, {`\(x\)`, `"(x)"`}, {`a\\b`, `"a\\b"`}, {"/path/to/x", `"/path/to/x"`},
		{"$x%*@?|+", `"$x%*@?|+"`}, {"a:b", `"a:b"`}, {"a : b", `"a : b"`},
		{"xyz_${a.b.c}", `"xyz_${a.b.c}"`}, {"${foo:1,2,3}", `"${foo:1,2,3}"`}, {"${foo:[1,2,3]}", `"${foo:[1,2,3]}"`},
		// quoted: the text inside, quotes before an odd run of backslashes kept
		{"'1'", `"1"`}, {`"a b"`, `"a b"`}, {`''`, `""`}, {`'  foo,bar	'`, `"  foo,bar\t"`},
		{`'a \'${b}\''`, `"a '${b}'"`}, {`'a \\\'${b}\\\''`, `"a \\'${b}\\'"`}, {`'abc\\'`, `"abc\\"`},
		{`'a\b'`, `"a\\b"`}, {`"it's"`, `"it's"`},
		// containers
		{"[]", "[]"}, {"[1,2,3]", "[1, 2, 3]"}, {"[1  ,\t2\t]", "[1, 2]"}, {"[a,[b,on]]", `["a", ["b", "on"]]`},
		{"{}", "{}"}, {"{a:10,b:20}", `{"a": 10, "b": 20}`}, {"{a: [1, 2], b: {c: x}}", `{"a": [1, 2], "b": {"c": "x"}}`},
		{"{1: x}", `{1: "x"}`}, {"['a,b', c]", `["a,b", "c"]`},
		// empty: the empty string
		{"", `""`}, {"  ", `""`},
	} {
		got, opaque, at, why := hydraValue(c.in)
		if got != c.want || opaque || at >= 0 {
			t.Errorf("hydraValue(%q) = %q (opaque %v, stops at %d: %s), want %q", c.in, got, opaque, at, why, c.want)
		}
	}
	// Sweeps and function calls: read, but their value depends on the launch.
	for _, in := range []string{"1,2", "a , b", "1 ,  2,\t\t3", "[1,2],[3,4]", "choice(1,2)", "choice\t(  1\t\t )",
		"range(1,10,step=2)", "interval(0,1)", "str(\t  [  1,\t2  ]\t   )", "[1, choice(2,3)]", "int()", "glob(*)"} {
		if _, opaque, at, why := hydraValue(in); !opaque || at >= 0 {
			t.Errorf("hydraValue(%q): opaque %v, stops at %d (%s); want an opaque value", in, opaque, at, why)
		}
	}
	// What Hydra's parse refuses.
	for _, c := range []struct {
		in   string
		at   int
		says string
	}{
		{"a=b", 1, `"=" is not expected`}, {"~/data", 0, `'~' cannot be written unquoted`}, {"café", 3, `'é' cannot`},
		{"a#b", 1, `'#' cannot`}, {"[]aa", 2, `"aa" is not expected`}, {"[1,2,3]'", 7, `'\'' cannot`},
		{`['a\', 'b']`, 8, `"b" is not expected`}, {"{' abc ': 0}", 1, "quoted value"}, {"[1,2", 4, "ends too early"},
		{"abc'd'", 3, "quoted value"}, {"${}", 1, `"{" is not expected`}, {"{a}", 2, `"}" is not expected`},
		{"x (y", 4, "ends too early"}, {"a,", 2, "ends too early"},
		// What Hydra refuses when it evaluates the calls of a value that parsed: the first, in
		// its order (arguments left to right, then the call); any parse refusal before them.
		{"f()", 0, `no function "f"`}, {"[1, choice(2), foo(x=1)]", 15, `no function "foo"`},
		{"choice(a=1, 2)", 12, "positional argument follows a keyword"}, {"foo(bar(1))", 4, `no function "bar"`},
		{"foo(1, a=2, 3)", 12, "positional argument follows"}, {"foo(1), =", 8, `"=" is not expected`},
	} {
		_, _, at, why := hydraValue(c.in)
		if at != c.at || !strings.Contains(why, c.says) {
			t.Errorf("hydraValue(%q) stops at %d (%s); want %d (%s)", c.in, at, why, c.at, c.says)
		}
	}
}
