//go:build !trainlint_lite

package compose

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Hydra reads the value of a command-line override (what follows "key=") with a grammar of its
// own, not as YAML (hydra/grammar/OverrideLexer.g4 and OverrideParser.g4, the same from 1.1.0 to
// 1.3.5 but for "|", allowed from 1.2; values built by core/override_parser/overrides_visitor.py,
// read at v1.3.2). It types what YAML would not: on, yes and off are strings, True, TRUE and
// tRuE booleans, inf and nan floats, 0x10 the string "0x10"; "a,b" is a sweep and "f(x)" a
// function call; a=b and an unquoted ~, #, ! or ' stop Hydra at start-up.
//
// hydraValue reads value s as Hydra does and returns it as YAML flow text that the composer
// reads into the run (a string double-quoted, numbers in a form the readers type as Hydra
// does), opaque when the value is a sweep or a function call (what it becomes depends on the
// launch: rules stay silent on it), or where and why Hydra's parse stops (at is a byte offset).

// hydraValueDeclined is false: this build reads override values (hydravalue_lite.go: the light
// WebAssembly module does not).
const hydraValueDeclined = false

type hvKind uint8

const (
	hvEnd hvKind = iota
	hvPOpen
	hvComma
	hvPClose
	hvBOpen
	hvBClose
	hvCOpen
	hvCClose
	hvColon
	hvEqual
	hvFloat
	hvInt
	hvBool
	hvNull
	hvChar // UNQUOTED_CHAR
	hvID
	hvEsc
	hvWS
	hvQuoted
	hvInterp
	hvBad // no rule matches here
)

type hvTok struct {
	kind       hvKind
	start, end int
}

// hvLex splits s into the value mode's tokens: at each offset the longest match of any rule, the
// rule written first on a tie (ANTLR's lexer). A character no rule takes ends the list with hvBad.
func hvLex(s string) []hvTok {
	var toks []hvTok
	closeAt, closeFrom := -1, -1 // the first "}" at or after closeFrom (-1: none), found once per stretch
	for i := 0; i < len(s); {
		kind, end := hvBad, i
		try := func(k hvKind, e int) {
			if e > end {
				kind, end = k, e
			}
		}
		ws := hvRun(s, i, " \t")
		at := func(c byte) bool { return ws < len(s) && s[ws] == c }
		if at('(') {
			try(hvPOpen, hvRun(s, ws+1, " \t"))
		}
		if at(',') {
			try(hvComma, hvRun(s, ws+1, " \t"))
		}
		if at(')') {
			try(hvPClose, ws+1)
		}
		if s[i] == '[' {
			try(hvBOpen, hvRun(s, i+1, " \t"))
		}
		if at(']') {
			try(hvBClose, ws+1)
		}
		if s[i] == '{' {
			try(hvCOpen, hvRun(s, i+1, " \t"))
		}
		if at('}') {
			try(hvCClose, ws+1)
		}
		if at(':') {
			try(hvColon, hvRun(s, ws+1, " \t"))
		}
		if at('=') {
			try(hvEqual, hvRun(s, ws+1, " \t"))
		}
		try(hvFloat, hvFloatEnd(s, i))
		try(hvInt, hvIntEnd(s, i))
		for _, w := range []string{"true", "false"} {
			if len(s)-i >= len(w) && strings.EqualFold(s[i:i+len(w)], w) {
				try(hvBool, i+len(w))
			}
		}
		if len(s)-i >= 4 && strings.EqualFold(s[i:i+4], "null") {
			try(hvNull, i+4)
		}
		if strings.IndexByte(`/-\+.$%*@?|`, s[i]) >= 0 {
			try(hvChar, i+1)
		}
		if hvLetter(s[i]) || s[i] == '_' {
			try(hvID, hvRun(s, i+1, "_-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
		}
		try(hvEsc, hvEscEnd(s, i))
		try(hvWS, ws)
		if s[i] == '"' || s[i] == '\'' {
			try(hvQuoted, hvQuotedEnd(s, i))
		}
		if strings.HasPrefix(s[i:], "${") {
			if closeFrom < 0 || i+2 > closeAt && closeAt >= 0 {
				closeFrom, closeAt = i+2, strings.IndexByte(s[i+2:], '}')
				if closeAt >= 0 {
					closeAt += i + 2
				}
			}
			if closeAt > i+2 {
				try(hvInterp, closeAt+1)
			}
		}
		toks = append(toks, hvTok{kind, i, end})
		if kind == hvBad {
			return toks
		}
		i = end
	}
	return append(toks, hvTok{hvEnd, len(s), len(s)})
}

func hvLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func hvDigit(s string, i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }

func hvRun(s string, i int, set string) int {
	for i < len(s) && strings.IndexByte(set, s[i]) >= 0 {
		i++
	}
	return i
}

// hvDigits is the end of DIGIT ('_'? DIGIT)* from i, or -1.
func hvDigits(s string, i int) int {
	if !hvDigit(s, i) {
		return -1
	}
	i++
	for {
		switch {
		case hvDigit(s, i):
			i++
		case i < len(s) && s[i] == '_' && hvDigit(s, i+1):
			i += 2
		default:
			return i
		}
	}
}

// hvUnsigned is the end of INT_UNSIGNED ('0' or [1-9] ('_'? DIGIT)*) from i, or -1.
func hvUnsigned(s string, i int) int {
	switch {
	case !hvDigit(s, i):
		return -1
	case s[i] == '0':
		return i + 1
	}
	return hvDigits(s, i)
}

func hvSign(s string, i int) int {
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		return i + 1
	}
	return i
}

func hvIntEnd(s string, i int) int { return hvUnsigned(s, hvSign(s, i)) }

// hvFloatEnd is the end of the longest FLOAT from i, or -1: a sign, then a point float
// (INT_UNSIGNED '.', or INT_UNSIGNED? '.' digits), an exponent float (either base, [eE], a
// sign, digits), inf or nan in any case.
func hvFloatEnd(s string, i int) int {
	j := hvSign(s, i)
	best := -1
	if len(s)-j >= 3 && (strings.EqualFold(s[j:j+3], "inf") || strings.EqualFold(s[j:j+3], "nan")) {
		best = j + 3
	}
	var bases []int // the ends of the numbers an exponent may follow
	if u := hvUnsigned(s, j); u >= 0 {
		bases = append(bases, u)
		if u < len(s) && s[u] == '.' {
			best = max(best, u+1)
			bases = append(bases, u+1)
			if d := hvDigits(s, u+1); d >= 0 {
				best = max(best, d)
				bases = append(bases, d)
			}
		}
	}
	if j < len(s) && s[j] == '.' {
		if d := hvDigits(s, j+1); d >= 0 {
			best = max(best, d)
			bases = append(bases, d)
		}
	}
	for _, b := range bases {
		if b < len(s) && (s[b] == 'e' || s[b] == 'E') {
			if d := hvDigits(s, hvSign(s, b+1)); d >= 0 {
				best = max(best, d)
			}
		}
	}
	return best
}

// hvEscEnd is the end of a run of escapes (\\ and a backslash before one of ()[]{}:=, space or
// tab) from i, or -1.
func hvEscEnd(s string, i int) int {
	j := i
	for j+1 < len(s) && s[j] == '\\' && strings.IndexByte("\\()[]{}:=, \t", s[j+1]) >= 0 {
		j += 2
	}
	if j == i {
		return -1
	}
	return j
}

// hvQuotedEnd is the end of a quoted value from i (s[i] its quote), or -1: the first same quote
// after an even number of backslashes closes it.
func hvQuotedEnd(s string, i int) int {
	q := s[i]
	bs := 0
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[j] == '\\':
			bs++
			continue
		case s[j] == q && bs%2 == 0:
			return j + 1
		}
		bs = 0
	}
	return -1
}

// hvUnquote is a quoted value's text: a run of backslashes before a quote of its kind keeps
// every other one (the last quote's run is halved, one in the middle halved and the quote kept);
// other backslashes stay.
func hvUnquote(t string) string {
	q, body := t[0], t[1:len(t)-1]
	var b strings.Builder
	for i := 0; i < len(body); {
		if body[i] != '\\' {
			b.WriteByte(body[i])
			i++
			continue
		}
		j := hvRun(body, i, `\`)
		switch {
		case j < len(body) && body[j] == q: // escaped quote in the middle
			b.WriteString(strings.Repeat(`\`, (j-i)/2))
			b.WriteByte(q)
			j++
		case j == len(body): // before the closing quote: an even run, halved
			b.WriteString(strings.Repeat(`\`, (j-i)/2))
		default:
			b.WriteString(body[i:j])
		}
		i = j
	}
	return b.String()
}

type hvParser struct {
	s      string
	toks   []hvTok
	i      int
	opaque bool
	depth  int // lists, dicts and calls open around the current element
	at     int // where the parse stopped; -1 while it has not
	why    string
	// evalAt and evalWhy: the first refusal Hydra makes when it evaluates the function calls of
	// a value that parsed (evalFail); -1 while none.
	evalAt  int
	evalWhy string
}

func hydraValue(s string) (yaml string, opaque bool, at int, why string) {
	lead := len(s) - len(strings.TrimLeft(s, " \t")) // taken with the "=" before the value
	if lead == len(s) {
		return `""`, false, -1, ""
	}
	p := &hvParser{s: s[lead:], toks: hvLex(s[lead:]), at: -1, evalAt: -1}
	out := p.element()
	if p.at < 0 && p.peek().kind == hvComma {
		p.opaque = true // a sweep: value1,value2,...
		for p.at < 0 && p.peek().kind == hvComma {
			p.i++
			p.element()
		}
	}
	if p.at < 0 && p.peek().kind != hvEnd {
		p.fail(p.peek())
	}
	if p.at < 0 && p.evalAt >= 0 {
		p.at, p.why = p.evalAt, p.evalWhy
	}
	if p.at >= 0 {
		return "", false, lead + p.at, p.why
	}
	return out, p.opaque, -1, ""
}

func (p *hvParser) peek() hvTok { return p.toks[min(p.i, len(p.toks)-1)] }

func (p *hvParser) fail(t hvTok) {
	if p.at >= 0 {
		return
	}
	p.at = t.start
	switch t.kind {
	case hvEnd:
		p.why = "the value ends too early"
	case hvBad:
		r, _ := utf8.DecodeRuneInString(p.s[t.start:])
		p.why = strconv.QuoteRune(r) + " cannot be written unquoted"
	case hvQuoted:
		p.why = "a quoted value must be the whole value or item"
	default:
		p.why = strconv.Quote(strings.TrimSpace(p.s[t.start:t.end])) + " is not expected here"
	}
}

func (p *hvParser) expect(k hvKind) bool {
	if t := p.peek(); t.kind == k {
		p.i++
		return true
	}
	p.fail(p.peek())
	return false
}

// hvMaxDepth bounds the nesting of lists, dicts and calls a value may have: a deeper one is
// refused here (Hydra's own limit is Python's recursion limit, about a thousand frames).
const hvMaxDepth = 200

// element reads a primitive, a list, a dict or a function call.
func (p *hvParser) element() string {
	if p.depth++; p.depth > hvMaxDepth {
		p.at, p.why = p.peek().start, "the value is nested more than "+strconv.Itoa(hvMaxDepth)+" levels deep"
	}
	defer func() { p.depth-- }()
	if p.at >= 0 {
		return ""
	}
	switch t := p.peek(); t.kind {
	case hvBOpen:
		p.i++
		var items []string
		if p.peek().kind != hvBClose {
			items = append(items, p.element())
			for p.at < 0 && p.peek().kind == hvComma {
				p.i++
				items = append(items, p.element())
			}
		}
		p.expect(hvBClose)
		return "[" + strings.Join(items, ", ") + "]"
	case hvCOpen:
		p.i++
		var items []string
		seen := map[string]int{} // a key given again keeps its place and takes the later value (a Python dict)
		if p.peek().kind != hvCClose {
			for p.at < 0 {
				k := p.primitive(true)
				p.expect(hvColon)
				item := k + ": " + p.element()
				if j, again := seen[k]; again {
					items[j] = item
				} else {
					seen[k] = len(items)
					items = append(items, item)
				}
				if p.at >= 0 || p.peek().kind != hvComma {
					break
				}
				p.i++
			}
		}
		p.expect(hvCClose)
		return "{" + strings.Join(items, ", ") + "}"
	case hvID:
		if p.i+1 < len(p.toks) && p.toks[p.i+1].kind == hvPOpen {
			p.function()
			return "null"
		}
	}
	return p.primitive(false)
}

// hvFunctions are the functions Hydra's override parser knows (overrides_parser.py
// create_functions, the same eleven from 1.1.0 to 1.3.5); no plugin can add one.
var hvFunctions = map[string]bool{"int": true, "str": true, "bool": true, "float": true, "choice": true,
	"range": true, "interval": true, "tag": true, "sort": true, "shuffle": true, "glob": true}

// function reads name(args): positional elements, then name=element pairs. Hydra evaluates a
// call once the whole value has parsed, its arguments first, left to right: an unknown function
// or a positional argument after a keyword one then stops it (overrides_visitor.py
// visitFunction and functions.py Functions.eval); the first such refusal is kept in p.evalAt.
// A call to a known function whose arguments it rejects is left unknown.
func (p *hvParser) function() {
	p.opaque = true
	name := p.peek()
	p.i += 2
	kw := false
	for p.at < 0 && p.peek().kind != hvPClose {
		if p.peek().kind == hvID && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == hvEqual {
			p.i += 2
			kw = true
		} else if kw {
			p.evalFail(p.peek().start, "a positional argument follows a keyword argument")
		}
		p.element()
		if p.at >= 0 || p.peek().kind != hvComma {
			break
		}
		p.i++
	}
	p.expect(hvPClose)
	if n := p.s[name.start:name.end]; !hvFunctions[n] {
		p.evalFail(name.start, "Hydra has no function "+strconv.Quote(n))
	}
}

// evalFail records a refusal Hydra makes when it evaluates the parsed value, unless an earlier
// one was recorded; a parse refusal (p.at) comes before any of them.
func (p *hvParser) evalFail(at int, why string) {
	if p.evalAt < 0 {
		p.evalAt, p.evalWhy = at, why
	}
}

// primitive reads a quoted value or a run of ID, NULL, INT, FLOAT, BOOL, interpolation,
// unquoted character, ":" (not in a dict key), escape and whitespace tokens; one token (past
// whitespace at either end) keeps its type, several make a string of their texts (escapes
// undone, the end whitespace dropped).
func (p *hvParser) primitive(key bool) string {
	first := p.i
	if t := p.peek(); t.kind == hvQuoted && !key {
		p.i++
		return strconv.Quote(hvUnquote(p.s[t.start:t.end]))
	}
	for {
		switch p.peek().kind {
		case hvID, hvNull, hvInt, hvFloat, hvBool, hvChar, hvEsc, hvWS:
			p.i++
			continue
		case hvInterp, hvColon:
			if !key {
				p.i++
				continue
			}
		}
		break
	}
	toks := p.toks[first:p.i]
	if len(toks) > 0 && toks[0].kind == hvWS {
		toks = toks[1:]
	}
	if len(toks) > 0 && toks[len(toks)-1].kind == hvWS {
		toks = toks[:len(toks)-1]
	}
	if len(toks) == 0 {
		p.fail(p.peek())
		return ""
	}
	if len(toks) == 1 {
		t := toks[0]
		text := p.s[t.start:t.end]
		switch t.kind {
		case hvInt:
			return strings.TrimPrefix(strings.ReplaceAll(text, "_", ""), "+")
		case hvFloat:
			return hvFloatText(text)
		case hvBool:
			return strings.ToLower(text)
		case hvNull:
			return "null"
		}
	}
	var b strings.Builder
	for _, t := range toks {
		text := p.s[t.start:t.end]
		if t.kind == hvEsc {
			for j := 1; j < len(text); j += 2 {
				b.WriteByte(text[j])
			}
			continue
		}
		b.WriteString(text)
	}
	return strconv.Quote(b.String())
}

// hvFloatText is Python's float(text) as YAML text the readers type as a float.
func hvFloatText(text string) string {
	f, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case err != nil:
		return strconv.Quote(text)
	}
	out := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(out, ".e") {
		out += ".0"
	}
	return out
}
