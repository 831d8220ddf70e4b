package doc

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Python's format-spec mini-language ([[fill]align][sign][#][0][width][grouping][.precision]
// [type]) for the values the evaluator knows (int, float, str, bool, None), shared by f-strings
// and str.format. It follows CPython's Python/formatter_unicode.c
// (parse_internal_render_format_spec, calc_number_widths, format_string_internal,
// format_long_internal, format_float_internal) and Python/pystrtod.c (format_float_short,
// PyOS_double_to_string), read in the versions the code index stores (formatter_unicode.c at
// python/cpython 3310c87d and 081928b9, pystrtod.c before 3.11; a v3.12.0 checkout was too large
// to fetch). What changed in them by 3.12 is left unknown rather than guessed: the 'z' flag
// (3.11, pystrtod.c's no_negative_zero) and the '0' flag on strings (3.10). Also unknown (ok
// false, the string stays opaque): the 'n' type (it follows the running program's locale), inf
// and nan, !r and !a on non-ASCII strings (Python's printable table), and every spec CPython
// rejects.

// pyMaxSpecNum bounds width and precision: a larger one is left unknown rather than built.
const pyMaxSpecNum = 1000

type pySpec struct {
	fill      rune
	align     byte // 0: the type's default
	sign      byte // 0, '+', '-', ' '
	alt       bool
	zero      bool // the '0' flag (fill '0', align '=' unless given)
	width     int  // -1: none
	group     byte // 0, ',', '_'
	precision int  // -1: none
	typ       byte // 0: none
}

// parsePySpec parses a format spec as parse_internal_render_format_spec does; ok is false where
// CPython raises or where this reader stays unknown.
func parsePySpec(s string) (sp pySpec, ok bool) {
	sp = pySpec{fill: ' ', width: -1, precision: -1}
	isAlign := func(c byte) bool { return c == '<' || c == '>' || c == '=' || c == '^' }
	fillGiven := false
	if r, n := utf8.DecodeRuneInString(s); n > 0 && n < len(s) && isAlign(s[n]) {
		if r == utf8.RuneError && n == 1 {
			return sp, false
		}
		sp.fill, sp.align, fillGiven = r, s[n], true
		s = s[n+1:]
	} else if len(s) > 0 && isAlign(s[0]) {
		sp.align = s[0]
		s = s[1:]
	}
	if len(s) > 0 && (s[0] == '+' || s[0] == '-' || s[0] == ' ') {
		sp.sign = s[0]
		s = s[1:]
	}
	if len(s) > 0 && s[0] == 'z' {
		return sp, false // Python 3.11+ only
	}
	if len(s) > 0 && s[0] == '#' {
		sp.alt = true
		s = s[1:]
	}
	if !fillGiven && len(s) > 0 && s[0] == '0' {
		sp.zero = true
		s = s[1:]
	}
	num := func() (int, bool, bool) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, false, true
		}
		n, err := strconv.Atoi(s[:i])
		s = s[i:]
		if err != nil || n > pyMaxSpecNum {
			return 0, true, false
		}
		return n, true, true
	}
	n, got, fine := num()
	if !fine {
		return sp, false
	}
	if got {
		sp.width = n
	}
	if len(s) > 0 && (s[0] == ',' || s[0] == '_') {
		sp.group = s[0]
		s = s[1:]
		if len(s) > 0 && (s[0] == ',' || s[0] == '_') {
			return sp, false // "Cannot specify both ',' and '_'." (or a repeat: invalid)
		}
	}
	if len(s) > 0 && s[0] == '.' {
		s = s[1:]
		n, got, fine := num()
		if !fine || !got {
			return sp, false // "Format specifier missing precision"
		}
		sp.precision = n
	}
	switch len(s) {
	case 0:
	case 1:
		sp.typ = s[0]
	default:
		return sp, false // "Invalid format specifier"
	}
	if sp.group != 0 {
		switch sp.typ {
		case 'd', 'e', 'f', 'g', 'E', 'G', '%', 'F', 0:
		case 'b', 'o', 'x', 'X':
			if sp.group != '_' {
				return sp, false
			}
		default:
			return sp, false // "Cannot specify ',' with ..."
		}
	}
	return sp, true
}

// appendPyFormat appends format(v, spec) after conversion conv (0, 's', 'r' or 'a'); ok is
// false when the text is not known exactly (the caller leaves the string opaque).
func appendPyFormat(b []byte, v *pyVal, conv byte, spec string) ([]byte, bool) {
	var s string
	isStr := false
	switch conv {
	case 0:
		if v.k == pvStr {
			s, isStr = v.s, true
		}
	case 's':
		t, ok := pyStr(v)
		if !ok {
			return b, false
		}
		s, isStr = t, true
	case 'r', 'a':
		t, ok := pyValRepr(v)
		if !ok {
			return b, false
		}
		s, isStr = t, true
	default:
		return b, false
	}
	if spec == "" {
		// format(x, "") is str(x).
		if isStr {
			return append(b, s...), true
		}
		return appendPyStr(b, v)
	}
	sp, ok := parsePySpec(spec)
	if !ok {
		return b, false
	}
	if isStr {
		return appendPyFormatStr(b, s, sp)
	}
	switch v.k {
	case pvInt:
		return appendPyFormatInt(b, v.i, sp)
	case pvBool:
		// bool formats as int once the spec is not empty (int.__format__).
		i := int64(0)
		if v.b {
			i = 1
		}
		return appendPyFormatInt(b, i, sp)
	case pvFloat:
		return appendPyFormatFloat(b, v.f, sp)
	}
	// None and other values: object.__format__ rejects a non-empty spec.
	return b, false
}

// pyValRepr is repr(v) for values whose repr is known (strings: ASCII only; non-ASCII text
// keeps Python's printable characters, a table not followed here).
func pyValRepr(v *pyVal) (string, bool) {
	if v.k != pvStr {
		return pyStr(v)
	}
	for i := 0; i < len(v.s); i++ {
		if v.s[i] >= 0x80 {
			return "", false
		}
	}
	return pyRepr(v.s), true
}

// appendPyFormatStr is format_string_internal.
func appendPyFormatStr(b []byte, s string, sp pySpec) ([]byte, bool) {
	if sp.sign != 0 || sp.alt || sp.align == '=' || sp.zero || sp.group != 0 {
		return b, false
	}
	if sp.typ != 0 && sp.typ != 's' {
		return b, false
	}
	n := utf8.RuneCountInString(s)
	if sp.precision >= 0 && n > sp.precision {
		i := 0
		for k := 0; k < sp.precision; k++ {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
		}
		s, n = s[:i], sp.precision
	}
	align := sp.align
	if align == 0 {
		align = '<'
	}
	return pyPad(b, s, n, sp.width, align, sp.fill), true
}

// pyPad writes s (n runes) padded to width as calc_padding does.
func pyPad(b []byte, s string, n, width int, align byte, fill rune) []byte {
	pad := width - n
	if pad < 0 {
		pad = 0
	}
	left := 0
	switch align {
	case '>':
		left = pad
	case '^':
		left = pad / 2
	}
	for i := 0; i < left; i++ {
		b = utf8.AppendRune(b, fill)
	}
	b = append(b, s...)
	for i := 0; i < pad-left; i++ {
		b = utf8.AppendRune(b, fill)
	}
	return b
}

// appendPyFormatInt is _PyLong_FormatAdvancedWriter and format_long_internal.
func appendPyFormatInt(b []byte, i int64, sp pySpec) ([]byte, bool) {
	switch sp.typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		return appendPyFormatFloat(b, float64(i), sp)
	case 0, 'd', 'b', 'o', 'x', 'X', 'c':
	default:
		return b, false // 'n' follows the locale; anything else is an unknown code
	}
	if sp.precision >= 0 {
		return b, false // "Precision not allowed in integer format specifier"
	}
	if sp.typ == 'c' {
		if sp.sign != 0 || sp.alt || i < 0 || i > 0x10ffff || i >= 0xd800 && i < 0xe000 {
			return b, false
		}
		// One "remainder" character: no grouping, sign or prefix.
		return pyLayNumber(b, sp, false, "", "", string(rune(i))), true
	}
	base, prefix := 10, ""
	switch sp.typ {
	case 'b':
		base, prefix = 2, "0b"
	case 'o':
		base, prefix = 8, "0o"
	case 'x':
		base, prefix = 16, "0x"
	case 'X':
		base, prefix = 16, "0X"
	}
	if !sp.alt {
		prefix = ""
	}
	neg := i < 0
	u := uint64(i)
	if neg {
		u = -u
	}
	digits := strconv.FormatUint(u, base)
	if sp.typ == 'X' {
		digits = strings.ToUpper(digits)
	}
	return pyNumberGrouped(b, sp, neg, prefix, digits, "")
}

// pyNumberGrouped groups digits (the integer part) when the spec asks, then lays the number
// out. With fill '0' and '=' alignment the padding zeros are grouped too, as
// _PyUnicode_InsertThousandsGrouping does with calc_number_widths' n_min_width: the fewest
// digits whose grouped text fills the width left by the sign, prefix and rest, never starting
// with a separator (test_types.py test_float__format__ "0 padding with commas").
func pyNumberGrouped(b []byte, sp pySpec, neg bool, prefix, digits, rest string) ([]byte, bool) {
	if sp.group != 0 {
		every := 3
		if sp.group == '_' && (sp.typ == 'b' || sp.typ == 'o' || sp.typ == 'x' || sp.typ == 'X') {
			every = 4
		}
		n := len(digits)
		fill, align := sp.fill, sp.align
		if sp.zero {
			fill = '0'
			if align == 0 {
				align = '='
			}
		}
		if fill == '0' && align == '=' {
			other := len(prefix) + utf8.RuneCountInString(rest)
			if neg || sp.sign == '+' || sp.sign == ' ' {
				other++
			}
			for n+(n-1)/every < sp.width-other {
				n++
			}
		}
		g := make([]byte, 0, n+n/every)
		for k := 0; k < n; k++ {
			if k > 0 && (n-k)%every == 0 {
				g = append(g, sp.group)
			}
			if d := k - (n - len(digits)); d >= 0 {
				g = append(g, digits[d])
			} else {
				g = append(g, '0')
			}
		}
		digits = string(g)
	}
	return pyLayNumber(b, sp, neg, prefix, digits, rest), true
}

// pyLayNumber lays a number out as calc_number_widths and fill_number do:
// <lpadding><sign><prefix><spadding><digits><rest><rpadding>, rest being ASCII or one rune.
func pyLayNumber(b []byte, sp pySpec, neg bool, prefix, digits, rest string) []byte {
	sign := ""
	switch {
	case neg:
		sign = "-"
	case sp.sign == '+':
		sign = "+"
	case sp.sign == ' ':
		sign = " "
	}
	fill, align := sp.fill, sp.align
	if sp.zero {
		fill = '0'
		if align == 0 {
			align = '='
		}
	}
	if align == 0 {
		align = '>'
	}
	n := len(sign) + len(prefix) + len(digits) + utf8.RuneCountInString(rest)
	pad := sp.width - n
	if pad < 0 {
		pad = 0
	}
	lp, sp2, rp := 0, 0, 0
	switch align {
	case '<':
		rp = pad
	case '^':
		lp = pad / 2
		rp = pad - lp
	case '=':
		sp2 = pad
	default:
		lp = pad
	}
	for ; lp > 0; lp-- {
		b = utf8.AppendRune(b, fill)
	}
	b = append(b, sign...)
	b = append(b, prefix...)
	for ; sp2 > 0; sp2-- {
		b = utf8.AppendRune(b, fill)
	}
	b = append(b, digits...)
	b = append(b, rest...)
	for ; rp > 0; rp-- {
		b = utf8.AppendRune(b, fill)
	}
	return b
}

// appendPyFormatFloat is format_float_internal.
func appendPyFormatFloat(b []byte, f float64, sp pySpec) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	typ, prec, addDot0 := sp.typ, sp.precision, false
	switch typ {
	case 0:
		addDot0 = true
		if prec < 0 {
			typ, prec = 'r', 0
		} else {
			typ = 'g'
		}
	case 'e', 'E', 'f', 'F', 'g', 'G':
	case '%':
		if f *= 100; math.IsInf(f, 0) {
			return b, false // past float64 once scaled: Python writes inf%, left unknown
		}
	default:
		return b, false // 'n' follows the locale
	}
	if prec < 0 {
		prec = 6
	}
	neg := math.Signbit(f)
	t := pyFloatText(math.Abs(f), typ, prec, addDot0, sp.alt)
	if typ == '%' {
		t += "%"
	}
	// The integer digits (grouped) and the rest (decimal point, fraction, exponent).
	k := 0
	for k < len(t) && t[k] >= '0' && t[k] <= '9' {
		k++
	}
	return pyNumberGrouped(b, sp, neg, "", t[:k], t[k:])
}

// pyFloatText is PyOS_double_to_string(f, typ, prec, flags) for finite f >= 0 (no sign):
// typ 'r' is repr, 'e'/'E', 'f'/'F'/'%', 'g'/'G' as printf with Python's rules for 'g'
// (format_float_short in Python/pystrtod.c).
func pyFloatText(f float64, typ byte, prec int, addDot0, alt bool) string {
	upper := typ == 'E' || typ == 'F' || typ == 'G'
	var digits string
	var decpt int
	useExp := false
	vend := 0
	switch typ {
	case 'f', 'F', '%':
		s := strconv.FormatFloat(f, 'f', prec, 64)
		if alt && prec == 0 {
			s += "."
		}
		return s
	case 'e', 'E':
		// Mode 2 with prec+1 digits, padded to prec+1, always an exponent.
		digits, decpt = pyDigits(f, prec+1)
		useExp, vend = true, prec+1
	case 'g', 'G':
		if prec == 0 {
			prec = 1
		}
		digits, decpt = pyDigits(f, prec)
		lim := prec
		if addDot0 {
			lim = prec - 1
		}
		useExp = decpt <= -4 || decpt > lim
		vend = len(digits)
		if alt {
			vend = prec
		}
	case 'r':
		digits, decpt = pyDigits(f, 0)
		useExp = decpt <= -4 || decpt > 16
		vend = len(digits)
	}
	exp := 0
	if useExp {
		exp = decpt - 1
		decpt = 1
	}
	vstart := 0
	if decpt <= 0 {
		vstart = decpt - 1
	}
	if !useExp && addDot0 {
		vend = max(vend, decpt+1)
	} else {
		vend = max(vend, decpt)
	}
	var out []byte
	at := func(k int) byte {
		if k < 0 || k >= len(digits) {
			return '0'
		}
		return digits[k]
	}
	for k := vstart; k < vend; k++ {
		if k == decpt {
			out = append(out, '.')
		}
		out = append(out, at(k))
	}
	if decpt == vend {
		out = append(out, '.')
	}
	if out[len(out)-1] == '.' && !alt {
		out = out[:len(out)-1]
	}
	if useExp {
		e := byte('e')
		if upper {
			e = 'E'
		}
		out = append(out, e)
		if exp < 0 {
			out = append(out, '-')
			exp = -exp
		} else {
			out = append(out, '+')
		}
		if exp < 10 {
			out = append(out, '0')
		}
		out = strconv.AppendInt(out, int64(exp), 10)
	}
	return string(out)
}

// pyDigits is _Py_dg_dtoa's digit string and decimal point position for f >= 0: the shortest
// round-tripping digits when n is 0 (mode 0), else f correctly rounded to n significant digits
// (mode 2); trailing zeros removed, "0" with decpt 1 for zero.
func pyDigits(f float64, n int) (string, int) {
	if f == 0 {
		return "0", 1
	}
	s := strconv.FormatFloat(f, 'e', n-1, 64) // d.ddde±XX
	e := strings.IndexByte(s, 'e')
	x, _ := strconv.Atoi(s[e+1:])
	d := strings.Replace(s[:e], ".", "", 1)
	d = strings.TrimRight(d, "0")
	if d == "" {
		return "0", 1
	}
	return d, x + 1
}

// pyConvSpec splits a replacement field's tail ("!r:>8", ":{w}d", "!s") into its conversion
// and its format spec (which starts at tail[specAt:]); ok is false where Python raises (a
// conversion not one of s, r, a or not followed by ':' or the end).
func pyConvSpec(tail string) (conv byte, spec string, specAt int, ok bool) {
	if strings.HasPrefix(tail, "!") {
		if len(tail) < 2 {
			return 0, "", 0, false
		}
		conv = tail[1]
		if conv != 's' && conv != 'r' && conv != 'a' {
			return 0, "", 0, false
		}
		tail = tail[2:]
		specAt = 2
		if tail == "" {
			return conv, "", specAt, true
		}
	}
	if !strings.HasPrefix(tail, ":") {
		return 0, "", 0, false
	}
	return conv, tail[1:], specAt + 1, true
}

// pyExpandSpec replaces the nested fields of a format spec ("{w}" in ">{w}") with the text of
// their values, field(k, l) giving the value of the field in spec[k:l]. One level only, a
// field with its own conversion or spec, or a brace that does not pair, is unknown.
func pyExpandSpec(spec string, field func(k, l int) (*pyVal, bool)) (string, bool) {
	if indexEither(spec, '{', '}') < 0 {
		return spec, true
	}
	var out []byte
	for i := 0; i < len(spec); i++ {
		c := spec[i]
		if c == '}' {
			return "", false
		}
		if c != '{' {
			out = append(out, c)
			continue
		}
		j := strings.IndexByte(spec[i+1:], '}')
		if j < 0 {
			return "", false
		}
		inner := spec[i+1 : i+1+j]
		if indexEither(inner, '{', '!') >= 0 || strings.IndexByte(inner, ':') >= 0 {
			return "", false
		}
		v, ok := field(i+1, i+1+j)
		if !ok || v == nil {
			return "", false
		}
		var good bool
		if out, good = appendPyStr(out, v); !good || v.k == pvOpaque {
			return "", false
		}
		i += j + 1
	}
	return string(out), true
}

// indexEither is strings.IndexAny(s, string([]byte{a, b})) for ASCII a and b, without its
// set or rune loop: str.format and format specs search texts for braces by the thousand. Two
// vectorised searches, the second only up to the first's find.
func indexEither(s string, a, b byte) int {
	i := strings.IndexByte(s, a)
	if i >= 0 {
		s = s[:i]
	}
	if j := strings.IndexByte(s, b); j >= 0 {
		return j
	}
	return i
}
