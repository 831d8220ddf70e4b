package doc

import (
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// TestPyFormatSpec holds format(value, spec) to CPython's own expectations. Sources (cited per
// block): Lib/test/test_types.py at python/cpython 00639fc9 (TypesTests.test_int__format__,
// test_float__format__, test_format_spec_errors); Lib/test/test_str.py StrTest.test_format and
// test_repr (CPython v3.13.5, as copied into pytorch's dynamo tests); and, marked "algorithm",
// values worked by hand from Python/pystrtod.c format_float_short ('r': an exponent when
// decpt <= -4 or decpt > 16; 'g' with no type: decpt > precision-1) and
// Python/formatter_unicode.c. want unk means unknown: CPython raises, or the value depends on
// what this reader does not follow (locale, Python version).
func TestPyFormatSpec(t *testing.T) {
	i := func(n int64) *pyVal { return intVal(n, 0, 0) }
	f := func(x float64) *pyVal { return floatVal(x, 0, 0) }
	s := func(x string) *pyVal { return strVal(x, 0, 0) }
	const unk = "\x00unknown"
	cases := []struct {
		v    *pyVal
		conv byte
		spec string
		want string
	}{
		// test_int__format__
		{i(1), 0, " 3", "  1"},
		{i(-1), 0, " ", "-1"},
		{i(1234), 0, "8x", "     4d2"},
		{i(-1234), 0, "8x", "    -4d2"},
		{i(0xbe), 0, "X", "BE"},
		{i(-0xbe), 0, "x", "-be"},
		{i(-65), 0, "o", "-101"},
		{i(1234), 0, " o", " 2322"},
		{i(1234), 0, " b", " 10011010010"},
		{i(-1234), 0, "+b", "-10011010010"},
		{i(-1), 0, "-#5b", " -0b1"},
		{i(100), 0, "#012b", "0b0001100100"},
		{i(-100), 0, "#012o", "-0o000000144"},
		{i(123456), 0, "#012x", "0x000001e240"},
		{i(-123456), 0, "#012X", "-0X00001E240"},
		{i(1), 0, "+#5X", " +0X1"},
		{i(-1234567), 0, ",", "-1,234,567"},
		{i(1234), 0, "010,", "00,001,234"},
		{i(123456), 0, "0<20", "12345600000000000000"},
		{i(123456), 0, "1>20", "11111111111111123456"},
		{i(123456), 0, "*=20", "**************123456"},
		{i(3), 0, "1.3", unk}, // precision disallowed
		{i(3), 0, "+c", unk},
		{i(3), 0, ",n", unk},
		{i(3), 0, ",c", unk},
		{i(3), 0, "#c", unk},
		{i(0), 0, "k", unk}, // only bcdoxXeEfFgGn% work on int
		{i(0), 0, "s", unk},
		{i(1234567890), 0, "e", "1.234568e+09"}, // == float(value).__format__: algorithm
		{i(-100), 0, "%", "-10000.000000%"},
		// test_format_spec_errors: ',' is refused with x, X, o, b, n, s.
		{i(0), 0, ",x", unk},
		{i(0), 0, ",b", unk},
		{i(0), 0, ",s", unk},
		// test_float__format__
		{f(0.0), 0, "f", "0.000000"},
		{f(0.0), 0, "", "0.0"},
		{f(0.01), 0, "g", "0.01"},
		{f(1.23), 0, "1", "1.23"},
		{f(-1.23), 0, "1g", "-1.23"},
		{f(1.0), 0, " g", " 1"},
		{f(1.0), 0, "+g", "+1"},
		{f(1.1234e200), 0, "g", "1.1234e+200"},
		{f(1.1234e200), 0, "G", "1.1234E+200"},
		{f(-1.0), 0, " f", "-1.000000"},
		{f(1.0), 0, "+f", "+1.000000"},
		{f(-1.0), 0, "E", "-1.000000E+00"},
		{f(1.1234e20), 0, "e", "1.123400e+20"},
		{f(1e200), 0, "+", "+1e+200"},
		{f(1.1e200), 0, "+", "+1.1e+200"},
		{f(1234.), 0, "012f", "01234.000000"},
		{f(-1234.), 0, "013f", "-01234.000000"},
		{f(-1234.12341234), 0, "013f", "-01234.123412"},
		{f(-123456.12341234), 0, "011.2f", "-0123456.12"},
		{f(1.2), 0, "010,.2", "0,000,001.2"},
		{f(1234.), 0, "011,f", "1,234.000000"},
		{f(1234.), 0, "013,f", "01,234.000000"},
		{f(-1234.), 0, "014,f", "-01,234.000000"},
		{f(-12345.), 0, "015,f", "-012,345.000000"},
		{f(-123456.), 0, "016,f", "-0,123,456.000000"},
		{f(-123456.), 0, "017,f", "-0,123,456.000000"},
		{f(-123456.12341234), 0, "013,.2f", "-0,123,456.12"},
		{f(-1.0), 0, "%", "-100.000000%"},
		{f(1.0), 0, "d", unk}, // int codes refused on float
		{f(1.0), 0, "x", unk},
		{f(1.0), 0, ".0e", "1e+00"},
		{f(1.0), 0, "#.0e", "1.e+00"},
		{f(1.0), 0, ".0f", "1"},
		{f(1.0), 0, "#.0f", "1."},
		{f(1.1), 0, "g", "1.1"},
		{f(1.1), 0, "#g", "1.10000"},
		{f(1.0), 0, ".0%", "100%"},
		{f(1.0), 0, "#.0%", "100.%"},
		{f(1.0), 0, "#0e", "1.000000e+00"},
		{f(1.0), 0, "#.1f", "1.0"},
		{f(1.0), 0, ".1%", "100.0%"},
		{f(12345.6), 0, "0<20", "12345.60000000000000"},
		{f(12345.6), 0, "*<20", "12345.6*************"},
		{f(12345.6), 0, "0>20", "000000000000012345.6"},
		{f(12345.6), 0, "0=20", "000000000000012345.6"},
		{f(12345.6), 0, "1=20", "111111111111112345.6"},
		{f(1.0), 0, "n", unk},     // the running program's locale
		{f(-0.5), 0, "z.0f", unk}, // 3.11+ only
		// algorithm (pystrtod.c): repr and the no-type 'g' with at least one decimal.
		{f(1234567.5), 0, "", "1234567.5"},
		{f(1e16), 0, "", "1e+16"},
		{f(1e-5), 0, "", "1e-05"},
		{f(1e-4), 0, "", "0.0001"},
		{f(100.0), 0, ".3", "1e+02"},
		{f(12.34567), 0, "10.4", "     12.35"},
		{f(3e-5), 0, ".0e", "3e-05"},
		{f(0.125), 0, ".2g", "0.12"}, // correctly rounded, half to even
		{f(2.5), 0, ".0f", "2"},
		{f(123456789.0), 0, "g", "1.23457e+08"},
		// StrTest.test_format
		{s("abcdef"), 0, ".3s", "abc"},
		{s("abcdef"), 0, ".0s", ""},
		{s("abc"), 0, "3.2s", "ab "},
		{s("result"), 0, "x<7s", "resultx"},
		{s("result"), 0, ">8s", "  result"},
		{s("result"), 0, "^8s", " result "},
		{s("result"), 0, "^9s", " result  "},
		{s("result"), 0, "=8s", unk},
		{s("result"), 0, "+s", unk},
		{s("result"), 0, "d", unk},
		{s("result"), 0, "08", unk}, // '0' on str: changed in 3.10
		// StrTest.test_repr: !r and !a
		{s("ab\\c"), 'r', "", `'ab\\c'`},
		{s("\n"), 'r', "", `'\n'`},
		{s("\b"), 'a', "", `'\x08'`},
		{s("'"), 'r', "", `"'"`},
		{s("'\""), 'r', "", `'\'"'`},
		{s("é"), 'r', "", unk}, // printable non-ASCII: not followed
		{i(7), 'r', ">3", "  7"},
		{f(0.5), 's', "", "0.5"},
		{s("x"), 'r', "^5", " 'x' "},
		// bool formats as int once the spec is not empty (int.__format__); None refuses a spec.
		{boolVal(true, 0, 0), 0, "", "True"},
		{boolVal(true, 0, 0), 0, ">3", "  1"},
		{noneVal(0, 0), 0, ">5", unk},
		{noneVal(0, 0), 0, "", "None"},
	}
	for _, c := range cases {
		b, ok := appendPyFormat(nil, c.v, c.conv, c.spec)
		got := string(b)
		if !ok {
			got = unk
		}
		if got != c.want {
			t.Errorf("format(%v, %q) conv %q = %q (ok %v), want %q", c.v.k, c.spec, c.conv, got, ok, c.want)
		}
	}
}

// TestFlexiViTEvals reads big_vision's flexivit config from the corpus: its evaluators are
// keyed by f'test{s:02d}' and the like in two loops over c.flexi.seqhw.v (10 sequence lengths,
// 3 i21k and 5 i1k evaluators each, lines 118-140), so with format specs followed `evals` is a
// map of all 80 (the brief said 90: 10 x 8 is 80, no key repeats) instead of one
// opaque value.
func TestFlexiViTEvals(t *testing.T) {
	p := filepath.Join("..", "..", "..", "shared", "corpus", "py", "google-research__big_vision",
		"big_vision__configs__proj__flexivit__i21k_sup.py")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("corpus file: %v (this test must not skip)", err)
	}
	d := Parse("i21k_sup.py", src, Python, Limits{})
	if d.Root == nil {
		t.Fatalf("no tree: %+v", d.Problems)
	}
	ev := d.Root.Get("evals")
	if ev == nil || ev.Kind != Map || len(ev.Children) != 80 {
		t.Fatalf("evals = %+v, want a map of 80 evaluators", ev)
	}
	for _, k := range []string{"test05", "val30", "train08", "i1k_val16", "i1k_v220", "i1k_a24", "i1k_r10", "i1k_real12"} {
		if n := ev.Get(k); n == nil || n.Kind != Map {
			t.Errorf("evals.%s = %+v", k, n)
		}
	}
	for i, n := range ev.Children {
		if i < 30 && n.Key[len(n.Key)-2:] != []string{"05", "06", "08", "10", "12", "15", "16", "20", "24", "30"}[i/3] {
			t.Errorf("evals key %d is %q", i, n.Key)
		}
	}
	if n := d.Root.At("evals.test08.pred"); n == nil || n.Value != "predict_seqhw=8" {
		t.Errorf("evals.test08.pred = %+v", n)
	}
}

// FuzzPyFormat formats ints, floats and strings with arbitrary specs: no panic, and a known
// result is never narrower than the width the spec asks for (calc_padding's n_total).
func FuzzPyFormat(f *testing.F) {
	for _, s := range []string{"02d", "_x", "#012X", ">{w}", ".3", "010,.2", "*^9s", "+.0e", "0=20", "x<7s", ",", "%"} {
		f.Add(int64(-1234), 1234.5, "ab", s)
	}
	f.Fuzz(func(t *testing.T, i int64, x float64, s, spec string) {
		for _, v := range []*pyVal{intVal(i, 0, 0), floatVal(x, 0, 0), strVal(s, 0, 0), boolVal(i&1 == 1, 0, 0)} {
			for _, conv := range []byte{0, 'r'} {
				b, ok := appendPyFormat(nil, v, conv, spec)
				if !ok || spec == "" {
					continue
				}
				sp, good := parsePySpec(spec)
				if !good {
					t.Fatalf("format(%v, %q) known though the spec does not parse", v.k, spec)
				}
				if n := utf8.RuneCount(b); n < sp.width {
					t.Fatalf("format(%v, %q) = %q: %d runes, width %d", v.k, spec, b, n, sp.width)
				}
			}
		}
	})
}

// TestPyFloatReprFastPath holds the shortcut pyFloatRepr and appendPyStr take below 1e6 (Go's
// shortest 'g') to the pystrtod.c 'r' algorithm pyFloatText follows, on random values of every
// magnitude from 1e-320 to 1e6.
func TestPyFloatReprFastPath(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) >= 1e6 {
			f = math.Ldexp(r.Float64(), -r.Intn(1060)+19)
			if r.Intn(2) == 0 {
				f = -f
			}
		}
		if math.Abs(f) >= 1e6 || f == math.Trunc(f) {
			continue
		}
		want := pyFloatText(math.Abs(f), 'r', 0, true, false)
		if f < 0 {
			want = "-" + want
		}
		if got := pyFloatRepr(f); got != want {
			t.Fatalf("repr(%v): fast path %q, pystrtod.c %q", f, got, want)
		}
		if b, _ := appendPyStr(nil, floatVal(f, 0, 0)); string(b) != want {
			t.Fatalf("str(%v): fast path %q, pystrtod.c %q", f, b, want)
		}
	}
}
