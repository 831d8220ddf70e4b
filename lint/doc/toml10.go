//go:build !trainlint_lite

package doc

import "strconv"

// go-toml's parser reads some of TOML 1.1 (the \e and \x escapes, times without seconds,
// inline tables over several lines or with a trailing comma) and scans a date or time as one
// token without checking it (1979-02-30, 24:00:00, 1979-05-27 10). The frameworks read TOML
// 1.0: torchtitan (v0.2.0 to v0.2.2, torchtitan/config/manager.py) loads its configs with
// Python's tomllib (tomli before Python 3.11), whose documentation names TOML 1.0.0 and which
// refuses all of these when the job starts. The checks below hold the reader to what tomllib
// reads (its _re.py and _parser.py in CPython 3.11), so that a file it refuses gets a
// parse-error here too; TestTOMLAgreesWithTomllib compares the two on mutants of the corpus.

// tomlV10 is the message's reference to what reads the file.
const tomlV10 = "TOML 1.0 (what Python's tomllib reads; torchtitan loads its configs with it)"

// refuse reports what tomllib refuses as a syntax problem at [start, end) and stops reading.
func (b *tomlBuilder) refuse(msg string, start, end int) { b.stop(Syntax, msg, start, end) }

// checkEscapes refuses the escapes TOML 1.0 lacks in the basic string src[s:e] (quotes
// included): \e and \xHH came with TOML 1.1. Other invalid escapes are go-toml's own errors.
func (b *tomlBuilder) checkEscapes(s, e int) {
	if e <= s || b.src[s] != '"' {
		return // a literal string: no escapes
	}
	for i := s + 1; i+1 < e; i++ {
		if b.src[i] != '\\' {
			continue
		}
		switch c := b.src[i+1]; c {
		case 'e', 'x':
			b.refuse("the escape \\"+string(c)+" is TOML 1.1; "+tomlV10+" has only \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX and \\UXXXXXXXX", i, i+2)
			return
		}
		i++ // the escaped character, which may be a backslash
	}
}

// checkDateTime refuses the date or time src[s:e] unless tomllib reads all of it: a date
// YYYY-MM-DD that exists, optionally followed by T, t or a space and a time; a time
// HH:MM:SS with an optional fraction; a date and time optionally followed by Z, z or ±HH:MM.
func (b *tomlBuilder) checkDateTime(s, e int) {
	t := b.src[s:e]
	n, ok := tomlDateTimeLen(t)
	switch {
	case !ok:
		b.refuse("the date "+strconv.Quote(string(t))+" does not exist (tomllib refuses it)", s, e)
	case n < len(t):
		const forms = " writes a date 1979-05-27, a time 07:32:00 (seconds required, hours 00-23) or both, 1979-05-27T07:32:00, with an optional fraction and Z or ±HH:MM offset"
		if n == 0 {
			b.refuse(strconv.Quote(string(t))+" is not a date or time: "+tomlV10+forms, s, e)
		} else {
			b.refuse("the date or time "+strconv.Quote(string(t[:n]))+" is followed by "+strconv.Quote(string(t[n:]))+", which tomllib refuses: "+tomlV10+forms, s+n, e)
		}
	}
}

// tomlDateTimeLen returns how many bytes of t tomllib's date-time or local-time pattern
// matches (0 if none), and whether the date matched, if any, exists.
func tomlDateTimeLen(t []byte) (int, bool) {
	digits := func(i, n int) (int, bool) {
		if i+n > len(t) {
			return 0, false
		}
		v := 0
		for _, c := range t[i : i+n] {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = 10*v + int(c-'0')
		}
		return v, true
	}
	// timeAt matches HH:MM:SS(.fraction)? at i and returns its end.
	timeAt := func(i int) int {
		h, ok1 := digits(i, 2)
		m, ok2 := digits(i+3, 2)
		sec, ok3 := digits(i+6, 2)
		if !ok1 || !ok2 || !ok3 || t[i+2] != ':' || t[i+5] != ':' || h > 23 || m > 59 || sec > 59 {
			return i
		}
		j := i + 8
		if j+1 < len(t) && t[j] == '.' && t[j+1] >= '0' && t[j+1] <= '9' {
			for j++; j < len(t) && t[j] >= '0' && t[j] <= '9'; j++ {
			}
		}
		return j
	}
	y, okY := digits(0, 4)
	mo, okM := digits(5, 2)
	d, okD := digits(8, 2)
	if !okY || !okM || !okD || t[4] != '-' || t[7] != '-' || mo < 1 || mo > 12 || d < 1 || d > 31 {
		return timeAt(0), true // a local time, or nothing
	}
	i := 10
	if i < len(t) && (t[i] == 'T' || t[i] == 't' || t[i] == ' ') {
		if j := timeAt(i + 1); j > i+1 {
			i = j
			switch {
			case i < len(t) && (t[i] == 'Z' || t[i] == 'z'):
				i++
			case i < len(t) && (t[i] == '+' || t[i] == '-'):
				oh, ok1 := digits(i+1, 2)
				om, ok2 := digits(i+4, 2)
				if ok1 && ok2 && t[i+3] == ':' && oh <= 23 && om <= 59 {
					i += 6
				}
			}
		}
	}
	return i, DayExists(y, mo, d)
}

// checkInlineGap refuses a line break or comment between the parts of an inline table
// (src[s:e] lies between its braces and its entries), and a comma right before its closing
// brace when last is set: TOML 1.1 allows both, TOML 1.0 keeps an inline table on one line
// with no trailing comma.
func (b *tomlBuilder) checkInlineGap(s, e int, last bool) {
	comma := -1
	for i := s; i < e && i < len(b.src); i++ {
		switch b.src[i] {
		case '\n', '#':
			what := "a line break"
			if b.src[i] == '#' {
				what = "a comment"
			}
			b.refuse(what+" inside an inline table is TOML 1.1; "+tomlV10+" keeps an inline table on one line: use a [table] for a long one", i, i+1)
			return
		case ',':
			comma = i
		}
	}
	if last && comma >= 0 {
		b.refuse("a comma after an inline table's last entry is TOML 1.1; "+tomlV10+" refuses it: remove it", comma, comma+1)
	}
}
