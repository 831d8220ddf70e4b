package dialect

import "strings"

// OmegaConf's interpolation grammar, as a recogniser: whether OmegaConf accepts a string that
// holds "${" when it loads it, and where it stops if not. Read from omegaconf/grammar/
// OmegaConfGrammarLexer.g4 and OmegaConfGrammarParser.g4, omegaconf/grammar_parser.py and
// omegaconf/_utils.py (_is_interpolation_string) at v2.1.0, v2.2.2, v2.3.0 and v2.3.1.
//
// OmegaConf first tries a regular expression (SIMPLE_INTERPOLATION_PATTERN); only a string it
// does not match is parsed, and the first lexer or parser error raises GrammarParseError
// (grammar_parser.py's error listener). The versions differ in two places: ID and the pattern's
// resolver names admit "-" from v2.3.0, UNQUOTED_CHAR and the pattern's arguments admit "|"
// from v2.2. Each change only admits more (FuzzOmegaConfGrammar checks it), so what the newest
// reading (ocNewest) refuses, every version from 2.1 refuses: the rule judges by it.
//
// The recogniser follows the lexer's modes (DEFAULT_MODE at the top, INTERPOLATION_MODE after
// "${", VALUE_MODE after a resolver's ":", the two quoted modes) with its longest-match rule,
// and the parser's rules by recursive descent. The grammar needs no backtracking: every choice
// is made by the next token, except an interpolation's head, a node path or a resolver name
// alike until a ":" (a resolver) or anything else (a node) follows it, which is read once as
// the common prefix. The token kinds the parser treats alike are one kind here: in VALUE_MODE
// every primitive token but ":" (ID, NULL, INT, FLOAT, BOOL, UNQUOTED_CHAR, ESC, WS) is ocPrim,
// since the rules that take one (primitive, dictKey) take them all; in the other modes every
// token that text takes is ocText.

// ocGrammar is one version's reading of the grammar.
type ocGrammar struct {
	idDash bool // ID may hold "-" (v2.3.0)
	pipe   bool // "|" is an UNQUOTED_CHAR (v2.2)
}

var (
	ocNewest = ocGrammar{idDash: true, pipe: true}
	oc22     = ocGrammar{pipe: true}
	oc21     = ocGrammar{}
)

// ocMaxDepth bounds the nesting judged (interpolations, lists and dicts inside each other):
// Python's own recursion limit stops OmegaConf's parser long before a deeper value, with another
// error than the grammar's, so such a value is not judged.
const ocMaxDepth = 100

type ocKind uint8

const (
	ocEOF ocKind = iota
	ocErr        // no lexer rule matches here
	ocInterOpen
	ocInterClose // "}" closing a node interpolation
	ocBraceOpen
	ocBraceClose // "}" closing a resolver or a dict
	ocQuoteOpen
	ocQuoteClose
	ocComma
	ocBracketOpen
	ocBracketClose
	ocColon
	ocDot
	ocID
	ocInterKey
	ocPrim
	ocText
)

type ocMode uint8

const (
	ocDefault ocMode = iota
	ocInterp
	ocValue
	ocQuoted1 // '
	ocQuoted2 // "
)

// ocLexer hands out the tokens of s one at a time, switching modes as the lexer's actions do.
type ocLexer struct {
	g     ocGrammar
	s     string
	i     int
	mode  ocMode
	stack []ocMode
}

func (l *ocLexer) push(m ocMode) { l.stack = append(l.stack, l.mode); l.mode = m }

func (l *ocLexer) pop() bool {
	if len(l.stack) == 0 {
		return false // ANTLR's "Empty Stack": cannot happen from the top mode, kept for safety
	}
	l.mode = l.stack[len(l.stack)-1]
	l.stack = l.stack[:len(l.stack)-1]
	return true
}

func ocBlank(c byte) bool { return c == ' ' || c == '\t' }

// blanks returns the end of the run of spaces and tabs at i.
func (l *ocLexer) blanks(i int) int {
	for i < len(l.s) && ocBlank(l.s[i]) {
		i++
	}
	return i
}

// ocEscaped reports whether the byte at i of s follows an odd number of backslashes: in the top
// and quoted modes a backslash run before "${" or a quote always starts a token of its own (a
// plain run of text cannot end with a backslash), and the rules pair the backslashes.
func ocEscaped(s string, i int) bool {
	n := 0
	for i > 0 && s[i-1] == '\\' {
		i--
		n++
	}
	return n%2 == 1
}

// next returns the next token's kind and start; the lexer is then past it.
func (l *ocLexer) next() (ocKind, int) {
	s, at := l.s, l.i
	if at >= len(s) {
		return ocEOF, at
	}
	// "${" opens an interpolation in every mode (INTER_OPEN with its blanks); in the top and
	// quoted modes a token never starts after a backslash, so it is never escaped here.
	if s[at] == '$' && at+1 < len(s) && s[at+1] == '{' {
		l.i = l.blanks(at + 2)
		l.push(ocInterp)
		return ocInterOpen, at
	}
	switch l.mode {
	case ocDefault, ocQuoted1, ocQuoted2:
		quote := byte(0)
		if l.mode == ocQuoted1 {
			quote = '\''
		} else if l.mode == ocQuoted2 {
			quote = '"'
		}
		if quote != 0 && s[at] == quote {
			l.i = at + 1
			l.pop()
			return ocQuoteClose, at
		}
		// Text up to the next "${" or closing quote that no odd run of backslashes escapes.
		j := at + 1
		for ; j < len(s); j++ {
			c := s[j]
			if (c == '$' && j+1 < len(s) && s[j+1] == '{' || quote != 0 && c == quote) && !ocEscaped(s, j) {
				break
			}
		}
		l.i = j
		return ocText, at
	case ocInterp:
		c := s[at]
		j := l.blanks(at)
		if j < len(s) && s[j] == ':' {
			l.i = l.blanks(j + 1)
			l.mode = ocValue
			return ocColon, at
		}
		if j < len(s) && s[j] == '}' {
			l.i = j + 1
			if !l.pop() {
				return ocErr, at
			}
			return ocInterClose, at
		}
		switch c {
		case '.':
			l.i = at + 1
			return ocDot, at
		case '[':
			l.i = at + 1
			return ocBracketOpen, at
		case ']':
			l.i = at + 1
			return ocBracketClose, at
		}
		// ID and INTER_KEY: the key's run is at least as long; a tie is an ID (first rule).
		k := at
		for k < len(s) && !ocKeyStop(s[k]) {
			k++
		}
		if k == at {
			return ocErr, at
		}
		l.i = k
		if l.g.idEnd(s, at) == k {
			return ocID, at
		}
		return ocInterKey, at
	default: // ocValue
		c := s[at]
		j := l.blanks(at)
		if j < len(s) {
			switch s[j] {
			case ',':
				l.i = l.blanks(j + 1)
				return ocComma, at
			case ':':
				l.i = l.blanks(j + 1)
				return ocColon, at
			case '}':
				l.i = j + 1
				if !l.pop() {
					return ocErr, at
				}
				return ocBraceClose, at
			case ']':
				l.i = j + 1
				return ocBracketClose, at
			}
		}
		if j > at {
			l.i = j
			return ocPrim, at // WS
		}
		switch c {
		case '{':
			l.i = l.blanks(at + 1)
			l.push(ocValue)
			return ocBraceOpen, at
		case '[':
			l.i = l.blanks(at + 1)
			return ocBracketOpen, at
		case '\'':
			l.i = at + 1
			l.push(ocQuoted1)
			return ocQuoteOpen, at
		case '"':
			l.i = at + 1
			l.push(ocQuoted2)
			return ocQuoteOpen, at
		case '\\':
			// ESC: pairs of a backslash and one of \ ( ) [ ] { } : = , space tab; a lone
			// backslash is an UNQUOTED_CHAR.
			k := at
			for k+1 < len(s) && s[k] == '\\' && ocEscapable(s[k+1]) {
				k += 2
			}
			l.i = max(k, at+1)
			return ocPrim, at
		}
		if ocWordByte(c) {
			// ID, INT, FLOAT, BOOL, NULL: where one ends and the next begins does not matter,
			// since every run of them is a primitive's or a dict key's.
			k := at + 1
			for k < len(s) && ocWordByte(s[k]) {
				k++
			}
			l.i = k
			return ocPrim, at
		}
		if ocUnquoted(c) || c == '|' && l.g.pipe {
			l.i = at + 1
			return ocPrim, at
		}
		return ocErr, at
	}
}

// ocKeyStop: the bytes an INTER_KEY cannot hold.
func ocKeyStop(c byte) bool {
	switch c {
	case '\\', '{', '}', '(', ')', '[', ']', ':', '.', ' ', '\t', '\'', '"':
		return true
	}
	return false
}

func ocEscapable(c byte) bool {
	switch c {
	case '\\', '(', ')', '[', ']', '{', '}', ':', '=', ',', ' ', '\t':
		return true
	}
	return false
}

func ocLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func ocDigit(c byte) bool { return c >= '0' && c <= '9' }

func ocWordByte(c byte) bool { return ocLetter(c) || ocDigit(c) || c == '_' }

// ocUnquoted: UNQUOTED_CHAR but "|", which depends on the version.
func ocUnquoted(c byte) bool {
	switch c {
	case '/', '-', '\\', '+', '.', '$', '%', '*', '@', '?':
		return true
	}
	return false
}

// idEnd returns the end of the ID at i of s (the lexer's ID, the pattern's resolver name
// part), or i if none starts there.
func (g ocGrammar) idEnd(s string, i int) int {
	if i >= len(s) || !(ocLetter(s[i]) || s[i] == '_') {
		return i
	}
	j := i + 1
	for j < len(s) && (ocWordByte(s[j]) || s[j] == '-' && g.idDash) {
		j++
	}
	return j
}

// ocParser reads configValue (text EOF) from its lexer's tokens.
type ocParser struct {
	lx    ocLexer
	tok   ocKind
	at    int
	depth int
	top   int // the start of the top-level interpolation being read
	fail  int // where the parse failed, -1 before
	deep  bool
}

func (p *ocParser) advance() { p.tok, p.at = p.lx.next() }

// stop records a failure at the current token and reports false, for the callers to return.
func (p *ocParser) stop() bool {
	if p.fail < 0 {
		p.fail = p.at
	}
	return false
}

func (p *ocParser) expect(k ocKind) bool {
	if p.tok != k {
		return p.stop()
	}
	p.advance()
	return true
}

// ocParse reads s as OmegaConf's grammar of version g does. It returns -1, -1 when s parses;
// otherwise the start of the top-level interpolation that holds the failure and the failure's
// offset. judged is false for a value nested deeper than ocMaxDepth.
func (g ocGrammar) parse(s string) (top, at int, judged bool) {
	p := &ocParser{lx: ocLexer{g: g, s: s}, fail: -1, top: -1}
	p.advance()
	ok := p.text() && p.expect(ocEOF)
	if p.deep {
		return -1, -1, false
	}
	if ok {
		return -1, -1, true
	}
	return max(p.top, 0), p.fail, true
}

// text: (interpolation | ANY_STR | ESC | ESC_INTER | TOP_ESC | QUOTED_ESC)+
func (p *ocParser) text() bool { return p.some(ocText, ocText) }

// some reads one or more tokens of kind a or b or interpolations: the (...)+ of text and of
// primitive. An interpolation outside any other is a top-level one.
func (p *ocParser) some(a, b ocKind) bool {
	for n := 0; ; n++ {
		switch {
		case p.tok == ocInterOpen:
			if p.depth == 0 {
				p.top = p.at
			}
			if !p.interpolation() {
				return false
			}
		case p.tok == a || p.tok == b:
			p.advance()
		case n == 0:
			return p.stop()
		default:
			return true
		}
	}
}

// nested runs read one level deeper; past ocMaxDepth it gives up (p.deep).
func (p *ocParser) nested(read func() bool) bool {
	if p.depth >= ocMaxDepth {
		p.deep = true
		return false
	}
	p.depth++
	ok := read()
	p.depth--
	return ok
}

// interpolation: interpolationNode | interpolationResolver. A node is INTER_OPEN DOT*
// (configKey | [configKey]) (DOT configKey | [configKey])* INTER_CLOSE; a resolver is
// INTER_OPEN resolverName COLON sequence? BRACE_CLOSE, its name (interpolation | ID) (DOT
// (interpolation | ID))*. A head of IDs and interpolations joined by dots is either's.
func (p *ocParser) interpolation() bool { return p.nested(p.interpolationIn) }

func (p *ocParser) interpolationIn() bool {
	if !p.expect(ocInterOpen) {
		return false
	}
	if p.tok == ocID || p.tok == ocInterOpen {
		for {
			switch p.tok {
			case ocID:
				p.advance()
			case ocInterOpen:
				if !p.interpolation() {
					return false
				}
			default:
				// After a dot, a key no resolver name can hold: a node.
				return p.configKey() && p.nodeTail()
			}
			switch p.tok {
			case ocColon:
				p.advance()
				if p.tok != ocBraceClose && !p.sequence() {
					return false
				}
				return p.expect(ocBraceClose)
			case ocInterClose:
				p.advance()
				return true
			case ocDot:
				p.advance()
			case ocBracketOpen:
				return p.nodeTail()
			default:
				return p.stop()
			}
		}
	}
	for p.tok == ocDot {
		p.advance()
	}
	if p.tok == ocBracketOpen {
		p.advance()
		if !p.configKey() || !p.expect(ocBracketClose) {
			return false
		}
	} else if !p.configKey() {
		return false
	}
	return p.nodeTail()
}

// nodeTail: (DOT configKey | BRACKET_OPEN configKey BRACKET_CLOSE)* INTER_CLOSE
func (p *ocParser) nodeTail() bool {
	for {
		switch p.tok {
		case ocDot:
			p.advance()
			if !p.configKey() {
				return false
			}
		case ocBracketOpen:
			p.advance()
			if !p.configKey() || !p.expect(ocBracketClose) {
				return false
			}
		default:
			return p.expect(ocInterClose)
		}
	}
}

// configKey: interpolation | ID | INTER_KEY
func (p *ocParser) configKey() bool {
	switch p.tok {
	case ocID, ocInterKey:
		p.advance()
		return true
	case ocInterOpen:
		return p.interpolation()
	}
	return p.stop()
}

func ocStartsElement(k ocKind) bool {
	switch k {
	case ocPrim, ocColon, ocInterOpen, ocQuoteOpen, ocBracketOpen, ocBraceOpen:
		return true
	}
	return false
}

// sequence: (element (COMMA element?)*) | (COMMA element?)+
func (p *ocParser) sequence() bool {
	if p.tok != ocComma && !p.element() {
		return false
	}
	for p.tok == ocComma {
		p.advance()
		if ocStartsElement(p.tok) && !p.element() {
			return false
		}
	}
	return true
}

// element: primitive | quotedValue | listContainer | dictContainer
func (p *ocParser) element() bool { return p.nested(p.elementIn) }

func (p *ocParser) elementIn() bool {
	switch p.tok {
	case ocQuoteOpen: // quotedValue: QUOTE_OPEN text? MATCHING_QUOTE_CLOSE
		p.advance()
		if p.tok != ocQuoteClose && !p.text() {
			return false
		}
		return p.expect(ocQuoteClose)
	case ocBracketOpen: // listContainer: BRACKET_OPEN sequence? BRACKET_CLOSE
		p.advance()
		if p.tok != ocBracketClose && !p.sequence() {
			return false
		}
		return p.expect(ocBracketClose)
	case ocBraceOpen: // dictContainer: BRACE_OPEN (pair (COMMA pair)*)? BRACE_CLOSE
		p.advance()
		if p.tok != ocBraceClose {
			for {
				if !p.dictPair() {
					return false
				}
				if p.tok != ocComma {
					break
				}
				p.advance()
			}
		}
		return p.expect(ocBraceClose)
	}
	// primitive: (ID | NULL | INT | FLOAT | BOOL | UNQUOTED_CHAR | COLON | ESC | WS |
	// interpolation)+
	return p.some(ocPrim, ocColon)
}

// dictPair: dictKey COLON element, the key one or more primitive tokens but ":" and
// interpolations.
func (p *ocParser) dictPair() bool {
	if p.tok != ocPrim {
		return p.stop()
	}
	for p.tok == ocPrim {
		p.advance()
	}
	return p.expect(ocColon) && p.element()
}

// refuses reports whether OmegaConf of version g refuses s as it loads it, and where: the
// start of the top-level interpolation that fails and the failure's offset. judged is false
// when the recogniser does not say (nesting past ocMaxDepth).
func (g ocGrammar) refuses(s string) (top, at int, judged bool) {
	if !strings.Contains(s, "${") || g.simple(s) {
		return -1, -1, true
	}
	return g.parse(s)
}
