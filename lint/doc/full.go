//go:build !trainlint_lite

package doc

import "unicode"

// The full build reads every format (lite.go says what the light build leaves out).

func readGin(d *Document, lim Limits, o Options) { parseGin(d, lim, o.GinFork) }

func readPython(d *Document, lim Limits, o Options) {
	parsePython(d, lim, o.ConfigArg, o.Bases, o.Imports, o.Call)
}

func readTOML(d *Document, lim Limits) { parseTOML(d, lim) }

// jsonIdentRune reports whether r, beyond ASCII, may stand in a JSON5 unquoted key (first: begin
// it), as the json5 package's ident rule reads it (json.go): a Unicode letter (Lu, Ll, Lt, Lm,
// Lo) or letter number (Nl), and after the first character also a mark (Mn, Mc), a decimal
// number (Nd), connector punctuation (Pc), U+200C or U+200D. (Python's unicodedata and Go's
// unicode tables may be of different Unicode versions.) known is false only in the light build.
func jsonIdentRune(_ *Document, r rune, first bool) (in, known bool) {
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) ||
		!first && (unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc) || r == 0x200c || r == 0x200d), true
}
