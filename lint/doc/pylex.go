package doc

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A tokenizer for the Python-like syntax that both gin and Python configs are written in:
// names, numbers, strings (with the r/b/u/f prefixes and triple quotes), operators, and the
// NEWLINE/INDENT/DEDENT structure Python derives from line breaks and indentation (no line
// breaks inside brackets; a backslash joins lines). Comments are kept apart for suppressions.
// It never panics: the first thing it cannot read is an error with its byte offset.

type pyTokKind uint8

const (
	pyEOF pyTokKind = iota
	pyName
	pyNumber
	pyString
	pyOp
	pyNewline
	pyIndent
	pyDedent
)

// pyTok holds no pointer (32 bytes), so a file's token list is memory the collector never
// scans and writing it needs no write barrier: a token's text is a slice of the lexer's copy
// of the source, found through the file's pyText (pyText.at).
type pyTok struct {
	start, end int // byte offsets in the source
	body       int // strings: offset of the first byte after the opening quote(s)
	// esc is, for a string whose value differs from its source text (escapes resolved),
	// 1 + the index of that value in pyText.esc; 0 otherwise.
	esc    int32
	kind   pyTokKind
	quote  uint8 // strings: length of the quote, 1 or 3
	prefix uint8 // strings: prefix letters as bits (pfxRaw, pfxBytes, pfxFormat)
	// code is an operator's code (pyOpCode), or a keyword's (pyKeywordCode, Python's lexer
	// only; gin's names keep 0): the parser compares one byte, not the text.
	code pyCode
}

// pyText is what a file's token texts are read from: the lexer's one copy of the source from
// base on, and the values of the strings with escapes. The lexers of an f-string's fields
// share their file's pyText, so every token of a file reads from one.
type pyText struct {
	s    string
	base int
	esc  []string
}

// at is t's text: a name's, number's or operator's source text; a string's value (the text
// between its quotes, escapes resolved unless raw or formatted); "" for the other kinds.
func (x *pyText) at(t *pyTok) string {
	if t.kind == pyString {
		if t.esc != 0 {
			return x.esc[t.esc-1]
		}
		return x.s[t.body-x.base : t.end-int(t.quote)-x.base]
	}
	return x.s[t.start-x.base : t.end-x.base]
}

// pyCode numbers the operators and keywords, so that the parser tests a token with one byte
// compare and switches on a jump table. Operators are below pyKwFirst, keywords from it on;
// 0 is every other token (and every name when keywords are not coded).
type pyCode uint8

const (
	cNone pyCode = iota
	cLPar
	cRPar
	cLBrack
	cRBrack
	cLBrace
	cRBrace
	cComma
	cColon
	cSemi
	cDot
	cAssign // =
	cWalrus
	cArrow
	cEllipsis
	cPlus
	cMinus
	cStar
	cPow
	cSlash
	cFloorDiv
	cPercent
	cAt
	cAmp
	cPipe
	cCaret
	cTilde
	cShl
	cShr
	cLt
	cGt
	cEq
	cNe
	cLe
	cGe
	cBang
	cAugFirst // += and the other augmented assignments, cAugFirst..cAugLast
	cAugMinus
	cAugStar
	cAugPow
	cAugSlash
	cAugFloorDiv
	cAugPercent
	cAugAt
	cAugAmp
	cAugPipe
	cAugCaret
	cAugShl
	cAugShr
	cAugLast = cAugShr

	pyKwFirst pyCode = 64
)

const (
	kAnd pyCode = pyKwFirst + iota
	kAs
	kAssert
	kAsync
	kAwait
	kBreak
	kClass
	kContinue
	kDef
	kDel
	kElif
	kElse
	kExcept
	kFinally
	kFor
	kFrom
	kGlobal
	kIf
	kImport
	kIn
	kIs
	kLambda
	kNonlocal
	kNot
	kOr
	kPass
	kRaise
	kReturn
	kTry
	kWhile
	kWith
	kYield
	kTrue
	kFalse
	kNone
)

// pyCodeText is each code's text (for messages and the tables below).
var pyCodeText = [...]string{
	cLPar: "(", cRPar: ")", cLBrack: "[", cRBrack: "]", cLBrace: "{", cRBrace: "}", cComma: ",",
	cColon: ":", cSemi: ";", cDot: ".", cAssign: "=", cWalrus: ":=", cArrow: "->", cEllipsis: "...",
	cPlus: "+", cMinus: "-", cStar: "*", cPow: "**", cSlash: "/", cFloorDiv: "//", cPercent: "%",
	cAt: "@", cAmp: "&", cPipe: "|", cCaret: "^", cTilde: "~", cShl: "<<", cShr: ">>", cLt: "<",
	cGt: ">", cEq: "==", cNe: "!=", cLe: "<=", cGe: ">=", cBang: "!",
	cAugFirst: "+=", cAugMinus: "-=", cAugStar: "*=", cAugPow: "**=", cAugSlash: "/=",
	cAugFloorDiv: "//=", cAugPercent: "%=", cAugAt: "@=", cAugAmp: "&=", cAugPipe: "|=",
	cAugCaret: "^=", cAugShl: "<<=", cAugShr: ">>=",
	kAnd: "and", kAs: "as", kAssert: "assert", kAsync: "async", kAwait: "await", kBreak: "break",
	kClass: "class", kContinue: "continue", kDef: "def", kDel: "del", kElif: "elif", kElse: "else",
	kExcept: "except", kFinally: "finally", kFor: "for", kFrom: "from", kGlobal: "global", kIf: "if",
	kImport: "import", kIn: "in", kIs: "is", kLambda: "lambda", kNonlocal: "nonlocal", kNot: "not",
	kOr: "or", kPass: "pass", kRaise: "raise", kReturn: "return", kTry: "try", kWhile: "while",
	kWith: "with", kYield: "yield", kTrue: "True", kFalse: "False", kNone: "None",
}

// pyOp1 is the code of each one-byte operator (static data, like the tables below: an
// initialiser function would keep them in builds that never lex, the light WASM module's).
var pyOp1 = [256]pyCode{'(': cLPar, ')': cRPar, '[': cLBrack, ']': cRBrack, '{': cLBrace,
	'}': cRBrace, ',': cComma, ':': cColon, ';': cSemi, '.': cDot, '=': cAssign, '+': cPlus,
	'-': cMinus, '*': cStar, '/': cSlash, '%': cPercent, '@': cAt, '&': cAmp, '|': cPipe,
	'^': cCaret, '~': cTilde, '<': cLt, '>': cGt, '!': cBang}

// The lexer's byte classes (pyClass): the main loop jumps on them.
const (
	lxOther     uint8 = iota // operators of more than one form (- * / < > ...) and bad bytes: op
	lxBlank                  // space, tab, form feed
	lxNewline                // \n, \r
	lxHash                   // a comment
	lxBackslash              // a line continuation
	lxName                   // an ASCII letter or _
	lxDigit                  // 0-9
	lxDot                    // . (a number, an attribute's dot or ...)
	lxQuote                  // ' "
	lxOpen                   // ( [ {
	lxClose                  // ) ] }
	lxOp1                    // , ; ~: never the start of a longer operator
	lxOpEq                   // = ! + % & | ^ @ :: alone or followed by = only
	lxHigh                   // a byte of a non-ASCII character
)

// pyClass is each byte's class (static data, like pyOp1).
var pyClass = [256]uint8{
	' ': lxBlank, '\t': lxBlank, '\f': lxBlank, '\n': lxNewline, '\r': lxNewline, '#': lxHash,
	'\\': lxBackslash, 'a': lxName, 'b': lxName, 'c': lxName, 'd': lxName, 'e': lxName, 'f': lxName,
	'g': lxName, 'h': lxName, 'i': lxName, 'j': lxName, 'k': lxName, 'l': lxName, 'm': lxName,
	'n': lxName, 'o': lxName, 'p': lxName, 'q': lxName, 'r': lxName, 's': lxName, 't': lxName,
	'u': lxName, 'v': lxName, 'w': lxName, 'x': lxName, 'y': lxName, 'z': lxName, 'A': lxName,
	'B': lxName, 'C': lxName, 'D': lxName, 'E': lxName, 'F': lxName, 'G': lxName, 'H': lxName,
	'I': lxName, 'J': lxName, 'K': lxName, 'L': lxName, 'M': lxName, 'N': lxName, 'O': lxName,
	'P': lxName, 'Q': lxName, 'R': lxName, 'S': lxName, 'T': lxName, 'U': lxName, 'V': lxName,
	'W': lxName, 'X': lxName, 'Y': lxName, 'Z': lxName, '_': lxName, '0': lxDigit, '1': lxDigit,
	'2': lxDigit, '3': lxDigit, '4': lxDigit, '5': lxDigit, '6': lxDigit, '7': lxDigit, '8': lxDigit,
	'9': lxDigit, '.': lxDot, '\'': lxQuote, '"': lxQuote, '(': lxOpen, '[': lxOpen, '{': lxOpen,
	')': lxClose, ']': lxClose, '}': lxClose, ',': lxOp1, ';': lxOp1, '~': lxOp1, '=': lxOpEq,
	'!': lxOpEq, '+': lxOpEq, '%': lxOpEq, '&': lxOpEq, '|': lxOpEq, '^': lxOpEq, '@': lxOpEq,
	':': lxOpEq, 0x80: lxHigh, 0x81: lxHigh, 0x82: lxHigh, 0x83: lxHigh, 0x84: lxHigh, 0x85: lxHigh,
	0x86: lxHigh, 0x87: lxHigh, 0x88: lxHigh, 0x89: lxHigh, 0x8A: lxHigh, 0x8B: lxHigh, 0x8C: lxHigh,
	0x8D: lxHigh, 0x8E: lxHigh, 0x8F: lxHigh, 0x90: lxHigh, 0x91: lxHigh, 0x92: lxHigh, 0x93: lxHigh,
	0x94: lxHigh, 0x95: lxHigh, 0x96: lxHigh, 0x97: lxHigh, 0x98: lxHigh, 0x99: lxHigh, 0x9A: lxHigh,
	0x9B: lxHigh, 0x9C: lxHigh, 0x9D: lxHigh, 0x9E: lxHigh, 0x9F: lxHigh, 0xA0: lxHigh, 0xA1: lxHigh,
	0xA2: lxHigh, 0xA3: lxHigh, 0xA4: lxHigh, 0xA5: lxHigh, 0xA6: lxHigh, 0xA7: lxHigh, 0xA8: lxHigh,
	0xA9: lxHigh, 0xAA: lxHigh, 0xAB: lxHigh, 0xAC: lxHigh, 0xAD: lxHigh, 0xAE: lxHigh, 0xAF: lxHigh,
	0xB0: lxHigh, 0xB1: lxHigh, 0xB2: lxHigh, 0xB3: lxHigh, 0xB4: lxHigh, 0xB5: lxHigh, 0xB6: lxHigh,
	0xB7: lxHigh, 0xB8: lxHigh, 0xB9: lxHigh, 0xBA: lxHigh, 0xBB: lxHigh, 0xBC: lxHigh, 0xBD: lxHigh,
	0xBE: lxHigh, 0xBF: lxHigh, 0xC0: lxHigh, 0xC1: lxHigh, 0xC2: lxHigh, 0xC3: lxHigh, 0xC4: lxHigh,
	0xC5: lxHigh, 0xC6: lxHigh, 0xC7: lxHigh, 0xC8: lxHigh, 0xC9: lxHigh, 0xCA: lxHigh, 0xCB: lxHigh,
	0xCC: lxHigh, 0xCD: lxHigh, 0xCE: lxHigh, 0xCF: lxHigh, 0xD0: lxHigh, 0xD1: lxHigh, 0xD2: lxHigh,
	0xD3: lxHigh, 0xD4: lxHigh, 0xD5: lxHigh, 0xD6: lxHigh, 0xD7: lxHigh, 0xD8: lxHigh, 0xD9: lxHigh,
	0xDA: lxHigh, 0xDB: lxHigh, 0xDC: lxHigh, 0xDD: lxHigh, 0xDE: lxHigh, 0xDF: lxHigh, 0xE0: lxHigh,
	0xE1: lxHigh, 0xE2: lxHigh, 0xE3: lxHigh, 0xE4: lxHigh, 0xE5: lxHigh, 0xE6: lxHigh, 0xE7: lxHigh,
	0xE8: lxHigh, 0xE9: lxHigh, 0xEA: lxHigh, 0xEB: lxHigh, 0xEC: lxHigh, 0xED: lxHigh, 0xEE: lxHigh,
	0xEF: lxHigh, 0xF0: lxHigh, 0xF1: lxHigh, 0xF2: lxHigh, 0xF3: lxHigh, 0xF4: lxHigh, 0xF5: lxHigh,
	0xF6: lxHigh, 0xF7: lxHigh, 0xF8: lxHigh, 0xF9: lxHigh, 0xFA: lxHigh, 0xFB: lxHigh, 0xFC: lxHigh,
	0xFD: lxHigh, 0xFE: lxHigh, 0xFF: lxHigh,
}

// pyOpEq is the code of the two-byte operator an lxOpEq byte makes with a following "=".
var pyOpEq = [256]pyCode{'=': cEq, '!': cNe, '+': cAugFirst, '%': cAugPercent, '&': cAugAmp,
	'|': cAugPipe, '^': cAugCaret, '@': cAugAt, ':': cWalrus}

// pyBracketPair reports whether the bracket opened by o is closed by c.
func pyBracketPair(o, c byte) bool {
	switch c {
	case ')':
		return o == '('
	case ']':
		return o == '['
	}
	return o == '{'
}

// pyOpCode is the code of an operator of two or three bytes.
func pyOpCode(s string) pyCode {
	switch s {
	case ":=":
		return cWalrus
	case "->":
		return cArrow
	case "...":
		return cEllipsis
	case "**":
		return cPow
	case "//":
		return cFloorDiv
	case "<<":
		return cShl
	case ">>":
		return cShr
	case "==":
		return cEq
	case "!=":
		return cNe
	case "<=":
		return cLe
	case ">=":
		return cGe
	case "+=":
		return cAugFirst
	case "-=":
		return cAugMinus
	case "*=":
		return cAugStar
	case "**=":
		return cAugPow
	case "/=":
		return cAugSlash
	case "//=":
		return cAugFloorDiv
	case "%=":
		return cAugPercent
	case "@=":
		return cAugAt
	case "&=":
		return cAugAmp
	case "|=":
		return cAugPipe
	case "^=":
		return cAugCaret
	case "<<=":
		return cAugShl
	case ">>=":
		return cAugShr
	}
	return cNone
}

// pyKwLens[c] has bit n set when some keyword has n bytes and starts with c: most names fail
// it and skip the switch.
var pyKwLens = [256]uint16{'F': 0x020, 'N': 0x010, 'T': 0x010, 'a': 0x06c, 'b': 0x020, 'c': 0x120,
	'd': 0x008, 'e': 0x050, 'f': 0x098, 'g': 0x040, 'i': 0x044, 'l': 0x040, 'n': 0x108, 'o': 0x004,
	'p': 0x010, 'r': 0x060, 't': 0x008, 'w': 0x030, 'y': 0x020}

// pyKeywordCode is a name's keyword code, or cNone (a switch on the length first, then the
// text).
func pyKeywordCode(s string) pyCode {
	if len(s) < 2 || len(s) > 8 || pyKwLens[s[0]]&(1<<len(s)) == 0 {
		return cNone
	}
	switch s {
	case "and":
		return kAnd
	case "as":
		return kAs
	case "assert":
		return kAssert
	case "async":
		return kAsync
	case "await":
		return kAwait
	case "break":
		return kBreak
	case "class":
		return kClass
	case "continue":
		return kContinue
	case "def":
		return kDef
	case "del":
		return kDel
	case "elif":
		return kElif
	case "else":
		return kElse
	case "except":
		return kExcept
	case "finally":
		return kFinally
	case "for":
		return kFor
	case "from":
		return kFrom
	case "global":
		return kGlobal
	case "if":
		return kIf
	case "import":
		return kImport
	case "in":
		return kIn
	case "is":
		return kIs
	case "lambda":
		return kLambda
	case "nonlocal":
		return kNonlocal
	case "not":
		return kNot
	case "or":
		return kOr
	case "pass":
		return kPass
	case "raise":
		return kRaise
	case "return":
		return kReturn
	case "try":
		return kTry
	case "while":
		return kWhile
	case "with":
		return kWith
	case "yield":
		return kYield
	case "True":
		return kTrue
	case "False":
		return kFalse
	case "None":
		return kNone
	}
	return cNone
}

// pyCursor walks a token stream for the Python parser. The stream always ends with a pyEOF
// token, which next never passes. Either toks is the whole stream (an f-string field's,
// lexed at once), or the tokens come from lx as the parser reads them (a file's): toks is
// then a window of the stream, refilled by more, that always holds the token before the
// current one, the current one and the one after it (unless the current one is the end),
// and every token from pin on, so that the parser can look one token ahead and one back, and
// back up to pin (with and match statements). A window of a few hundred tokens stays in the
// cache; a whole file's token list was written once and read back once.
type pyCursor struct {
	toks []pyTok
	i    int
	tx   *pyText // the tokens' texts
	lx   *pyLexer
	off  int // lx: the place in the stream of toks[0]
	pin  int // lx: the place in the stream of the first token to keep; -1 none
	// lim: next passes a token before lim without a call (step): with lx, the window's last
	// but one (the last once the stream's end is in it), else the pyEOF token (0 until the
	// first step, which sets it).
	lim int
}

// txt is a token's text (pyText.at).
func (c *pyCursor) txt(t pyTok) string { return c.tx.at(&t) }

func (c *pyCursor) peek() pyTok { return c.toks[c.i] }

// cur is the current token, in place (valid until the cursor moves on: the window may move).
func (c *pyCursor) cur() *pyTok { return &c.toks[c.i] }

// skip is next without the token (no copy of it).
func (c *pyCursor) skip() {
	if c.i < c.lim {
		c.i++
	} else {
		c.step()
	}
}

func (c *pyCursor) next() pyTok {
	t := c.toks[c.i]
	if c.i < c.lim {
		c.i++
	} else {
		c.step()
	}
	return t
}

// step is next's way past lim: the end (not passed), or the window's end (more tokens).
func (c *pyCursor) step() {
	if c.toks[c.i].kind == pyEOF {
		return
	}
	c.i++
	if c.lx == nil {
		c.lim = len(c.toks) - 1 // the pyEOF token
	} else if c.i+1 >= len(c.toks) {
		c.more()
	}
}

// pyWindow is the size of the window of a file's tokens (pyCursor): 16 KiB.
var pyWindow = 512 // a variable for TestPyWindow

// room is where run stops for a parser that pulls tokens: the window's size less room for
// the rest of a line (a longer line grows the window), or a few tokens more than it holds.
func (l *pyLexer) room() int { return max(cap(l.toks)-pyWindow/4, len(l.toks)+8) }

// more lexes the tokens after the window's last one: the tokens the parser no longer needs
// (before the previous one, and before pin) make room first. A lexer error panics with the
// lexer's *pySyntaxError.
func (c *pyCursor) more() {
	l := c.lx
	if l.done {
		return
	}
	keep := c.i - 1
	if c.pin >= 0 {
		keep = min(keep, c.pin-c.off)
	}
	if keep > 0 {
		n := copy(c.toks, c.toks[keep:])
		c.toks = c.toks[:n]
		c.off += keep
		c.i -= keep
	}
	l.toks = c.toks
	l.stop = l.room()
	for !l.done && c.i+1 >= len(l.toks) {
		l.run()
		l.stop = len(l.toks) + 1 // a line longer than the room left
	}
	c.toks = l.toks
	c.lim = len(c.toks) - 2
	if l.done {
		c.lim = len(c.toks) - 1
	}
}

// save is the current token's place in the stream, to which restore backs up; until then no
// token from there on leaves the window. It returns the pin it replaces, for restore.
func (c *pyCursor) save() (at, old int) {
	at, old = c.off+c.i, c.pin
	// The token before stays too (the parser may look back at it after restore).
	if k := max(at-1, 0); c.lx != nil && (c.pin < 0 || k < c.pin) {
		c.pin = k
	}
	return at, old
}

// restore goes back to at (from save) when back is true, and puts back the pin old.
func (c *pyCursor) restore(at, old int, back bool) {
	if back {
		c.i = at - c.off
	}
	c.pin = old
}

// is reports whether the next token is the operator or keyword of code k.
func (c *pyCursor) is(k pyCode) bool { return c.toks[c.i].code == k }

const (
	pfxRaw uint8 = 1 << iota
	pfxBytes
	pfxFormat
)

func (t *pyTok) is(flag uint8) bool { return t.prefix&flag != 0 }

type pySyntaxError struct {
	msg string
	off int
	// limit is set when the error is a bound passed rather than bad syntax (the nesting depth):
	// the limit's key, as limitMessage takes it; the file is then input-limit-exceeded.
	limit string
	// number is set for a malformed number literal (the f-string field check reports only these).
	number bool
}

func (e *pySyntaxError) Error() string { return e.msg }

// pyLexFrom tokenizes src[base:]; lineStart false reads an expression inside a line (an
// f-string's replacement field), where leading spaces are not indentation. Python's lexers
// code keywords (pyLexFrom: the Python reader's f-string fields). tx receives the texts (see
// pyLexCoded).
func pyLexFrom(src []byte, base, maxDepth int, lineStart bool, tx *pyText) (toks []pyTok, comments [][2]int, x *pySyntaxError) {
	return pyLexCoded(src, base, maxDepth, lineStart, nil, tx, nil, true)
}

// pyLexInto is pyLexFrom writing the tokens into buf when it is large enough, without
// keyword codes (gin's lexer).
func pyLexInto(src []byte, base, maxDepth int, lineStart bool, buf []pyTok, tx *pyText) (toks []pyTok, comments [][2]int, x *pySyntaxError) {
	return pyLexCoded(src, base, maxDepth, lineStart, buf, tx, nil, false)
}

// pyLexCoded is pyLexInto with comments written into cbuf (a reused list); keywords true also
// gives Python's keywords their code (gin has none, so its names skip the lookup). The token
// texts go to tx: when tx.s is empty, the lexer makes it a string copy of src[base:] (token
// and comment texts are slices of it) with base; else tx is the file's, already made by its
// lexer from a base at or before this one (an f-string field's lexer), and is shared. Strings
// with escapes add their values to tx.esc.
func pyLexCoded(src []byte, base, maxDepth int, lineStart bool, buf []pyTok, tx *pyText, cbuf [][2]int, keywords bool) (toks []pyTok, comments [][2]int, x *pySyntaxError) {
	toks, comments, _, x = pyLexLines(src, base, maxDepth, lineStart, buf, tx, cbuf, keywords, nil, false)
	return toks, comments, x
}

// pyLexLines is pyLexCoded that also finds the start of every line (after each \n, \r\n or
// lone \r, the first at base), as NewLineIndex does, when lines is true: the lexer passes every
// line break anyway (those inside strings and continuations included), so a whole file's
// reader needs no second scan for its line index. The starts are appended to lbuf.
func pyLexLines(src []byte, base, maxDepth int, lineStart bool, buf []pyTok, tx *pyText, cbuf [][2]int, keywords bool, lbuf []int, lines bool) (toks []pyTok, comments [][2]int, starts []int, x *pySyntaxError) {
	if tx == nil {
		tx = &pyText{}
	}
	l := &pyLexer{}
	l.init(src, base, maxDepth, lineStart, tx, cbuf, keywords, lbuf, lines)
	if cap(buf) >= (len(src)-base)/8+8 {
		// A reused list about the file's size: lex into it (a file of unusually short tokens
		// grows it once) rather than count the tokens first, which was a full extra scan.
		l.toks = buf[:0]
	} else if est := tokenEstimate(src[base:]); cap(buf) >= est {
		l.toks = buf[:0]
	} else {
		l.toks = make([]pyTok, 0, est)
	}
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*pySyntaxError); ok {
				x, starts = e, l.lines[:0]
				return
			}
			panic(r)
		}
	}()
	l.run()
	return l.toks, l.comments, l.lines, nil
}

// init sets l to lex src from base (pyLexLines says what the arguments are); its token list is
// for the caller to set.
func (l *pyLexer) init(src []byte, base, maxDepth int, lineStart bool, tx *pyText, cbuf [][2]int, keywords bool, lbuf []int, lines bool) {
	*l = pyLexer{src: src, i: base, maxDepth: maxDepth, lineStart: lineStart, keywords: keywords, comments: cbuf[:0], tx: tx, stop: maxInt}
	if lineStart {
		// A file: the indentation and open-bracket stacks share one small block (each grows
		// on its own past its half).
		stacks := make([]int, 3*pyStackRoom)
		l.indents, l.opened = stacks[:1:pyStackRoom], stacks[pyStackRoom:pyStackRoom:2*pyStackRoom]
		l.alts = stacks[2*pyStackRoom : 2*pyStackRoom+1 : 3*pyStackRoom]
	} else {
		// An f-string's field: seldom a bracket, never an indented block (a line break
		// inside it still measures the next line).
		stacks := make([]int, 2)
		l.indents, l.alts = stacks[:1:1], stacks[1:2:2]
	}
	if lines {
		l.lines, l.wantLines = append(lbuf[:0], base), true
	}
	// One string of the source: token texts are slices of it, not an allocation each.
	// (Only src[base:] is copied: an f-string field is lexed from inside a large file.)
	if tx.s == "" {
		tx.s, tx.base = string(src[base:]), base
	}
}

const maxInt = int(^uint(0) >> 1)

type pyLexer struct {
	src       []byte
	tx        *pyText // the texts: tx.s is src[tx.base:] as a string
	i         int
	toks      []pyTok
	indents   []int
	alts      []int // the indentation levels with a tab counted as one column (TabError)
	depth     int
	maxDepth  int
	lineStart bool
	keywords  bool     // code Python's keywords
	comments  [][2]int // comment byte ranges (with '#')
	codeOnLn  bool     // some token precedes on the current line
	opened    []int    // offsets of the open brackets (the bracket is the source's byte there)
	lines     []int    // the line starts so far (pyLexLines), when wantLines
	wantLines bool
	// stop: run returns at the first line break where the token list holds this many tokens
	// (a parser pulling tokens, pyCursor.more; maxInt for a whole stream); done once the
	// stream's end is written.
	stop int
	done bool
}

// inconsistentTabs is CPython's TabError message.
const inconsistentTabs = "inconsistent use of tabs and spaces in indentation"

// pyStackRoom is the room the lexer's indentation and bracket stacks start with.
const pyStackRoom = 4

func (l *pyLexer) fail(off int, msg string) {
	panic(&pySyntaxError{msg: msg, off: off})
}

// failNumber is fail for a malformed number literal.
func (l *pyLexer) failNumber(off int, msg string) {
	panic(&pySyntaxError{msg: msg, off: off, number: true})
}

// tooDeep stops at a bracket that opens one level past the depth limit (not inlined: the
// lexer's loop stays small).
//
//go:noinline
func (l *pyLexer) tooDeep() {
	panic(&pySyntaxError{msg: "brackets nested deeper than " + strconv.Itoa(l.maxDepth) + " levels", off: l.i, limit: "max_depth"})
}

func (l *pyLexer) emit(k pyTokKind, s, e int) {
	l.toks = append(l.toks, pyTok{kind: k, start: s, end: e})
	if k != pyNewline && k != pyIndent && k != pyDedent {
		l.codeOnLn = true
	}
}

func (l *pyLexer) run() {
	src := l.src
	for {
		if l.lineStart && l.depth == 0 {
			// Measure indentation; blank and comment-only lines do not count. As CPython's
			// tokenizer: col with tabs to the next multiple of eight, alt with a tab as one
			// column, a form feed resetting both; indentation that the two measures order
			// differently depends on the tab width, which Python refuses (TabError). Gin's
			// parser (lexed without keywords) reads tokens from Python's tokenize module,
			// which makes no such check, so gin is not held to it.
			// A backslash ending a line inside the indentation joins the next line's, and
			// the first such backslash's column is the indentation (CPython 3.11's
			// cont_line_col, where 0 means none); one with no line after it is left to the
			// body, which refuses it.
			col, alt, cont, j := 0, 0, 0, l.i
		measure:
			for j < len(src) {
				switch src[j] {
				case '\t':
					col = (col/8 + 1) * 8
					alt++
				case ' ':
					col++
					alt++
				case '\f':
					col, alt = 0, 0
				case '\\':
					k := j + 1
					if k < len(src) && src[k] == '\r' {
						k++
					}
					if k < len(src) && src[k] == '\n' {
						k++
					}
					if k == j+1 || k >= len(src) {
						break measure
					}
					if cont == 0 {
						cont = col
					}
					if l.wantLines {
						l.lines = append(l.lines, k)
					}
					j = k
					continue
				default:
					break measure
				}
				j++
			}
			if cont != 0 {
				col, alt = cont, cont
			}
			l.i = j
			if j >= len(src) {
				break
			}
			if src[j] == '#' || src[j] == '\n' || src[j] == '\r' {
				l.lineStart = false
				goto body
			}
			if src[j] == '\\' && j+1 < len(src) && (src[j+1] == '\n' || src[j+1] == '\r') {
				l.lineStart = false
				goto body
			}
			top := len(l.indents) - 1
			switch {
			case col == l.indents[top]:
				if alt != l.alts[top] && l.keywords {
					l.fail(j, inconsistentTabs)
				}
			case col > l.indents[top]:
				if len(l.indents) > l.maxDepth {
					panic(&pySyntaxError{msg: "nesting deeper than " + strconv.Itoa(l.maxDepth) + " levels", off: j, limit: "max_depth"})
				}
				if alt <= l.alts[top] && l.keywords {
					l.fail(j, inconsistentTabs)
				}
				l.indents, l.alts = append(l.indents, col), append(l.alts, alt)
				l.emit(pyIndent, j, j)
			default:
				for col < l.indents[len(l.indents)-1] {
					l.indents, l.alts = l.indents[:len(l.indents)-1], l.alts[:len(l.alts)-1]
					l.emit(pyDedent, j, j)
				}
				if col != l.indents[len(l.indents)-1] {
					l.fail(j, "unindent does not match any outer indentation level")
				}
				if alt != l.alts[len(l.alts)-1] && l.keywords {
					l.fail(j, inconsistentTabs)
				}
			}
			l.lineStart = false
		}
	body:
		if l.i >= len(src) {
			break
		}
		c := src[l.i]
		// One jump on the byte's class; the common tokens (names, brackets, separators, one-
		// byte operators) are read here without a call.
		switch pyClass[c] {
		case lxBlank:
			// A run of blanks (indentation inside brackets) in one tight loop.
			j := l.i + 1
			for j < len(src) && pyClass[src[j]] == lxBlank {
				j++
			}
			l.i = j
		case lxNewline:
			s := l.i
			if c == '\r' && l.i+1 < len(src) && src[l.i+1] == '\n' {
				l.i++
			}
			l.i++
			if l.wantLines {
				l.lines = append(l.lines, l.i)
			}
			if l.depth == 0 {
				if l.codeOnLn && len(l.toks) > 0 && l.toks[len(l.toks)-1].kind != pyNewline {
					l.toks = append(l.toks, pyTok{kind: pyNewline, start: s, end: s})
				}
				l.codeOnLn = false
				l.lineStart = true
			}
			if len(l.toks) >= l.stop {
				// A parser pulls the tokens (pyCursor.more) and reads these first; the
				// fields of l say where to go on from (a check per line, not per token).
				return
			}
		case lxHash:
			// The comment runs to the line break (vectorised searches, not a loop per byte).
			s := l.i
			end := len(src)
			if j := bytes.IndexByte(src[s:], '\n'); j >= 0 {
				end = s + j
			}
			if j := bytes.IndexByte(src[s:end], '\r'); j >= 0 {
				end = s + j
			}
			l.i = end
			l.comments = append(l.comments, [2]int{s, l.i})
		case lxBackslash:
			j := l.i + 1
			if j < len(src) && src[j] == '\r' {
				j++
			}
			if j < len(src) && src[j] == '\n' {
				j++
			}
			if j == l.i+1 {
				l.fail(l.i, "unexpected character after line continuation")
			}
			if j == len(src) && l.depth == 0 {
				l.fail(l.i, "unexpected EOF while parsing") // a continuation with no line to join
			}
			if l.wantLines {
				l.lines = append(l.lines, j)
			}
			l.i = j
		case lxName:
			// An ASCII name: an index loop over the byte table, no rune decoding.
			s, j := l.i, l.i+1
			for j < len(src) && pyIdentByte[src[j]] != 0 {
				j++
			}
			if j < len(src) {
				if d := src[j]; d >= utf8.RuneSelf {
					l.i = j
					l.identRest()
					j = l.i
				} else if d == '\'' || d == '"' {
					if p, ok := pyStrPrefix(l.sub(s, j)); ok {
						l.i = j
						l.str(s, p)
						continue
					}
				}
			}
			l.i = j
			var code pyCode
			if l.keywords && j-s >= 2 && j-s <= 8 && pyKwLens[c]&(1<<(j-s)) != 0 {
				code = pyKeywordCode(l.sub(s, j))
			}
			l.toks = append(l.toks, pyTok{kind: pyName, start: s, end: j, code: code})
			l.codeOnLn = true
		case lxOpen:
			l.depth++
			if l.depth > l.maxDepth {
				l.tooDeep()
			}
			l.opened = append(l.opened, l.i)
			l.toks = append(l.toks, pyTok{kind: pyOp, start: l.i, end: l.i + 1, code: pyOp1[c]})
			l.i++
			l.codeOnLn = true
		case lxClose:
			// The open bracket's byte and the closing one differ by 1 (parentheses) or 2.
			if l.depth == 0 || !pyBracketPair(src[l.opened[len(l.opened)-1]], c) {
				l.fail(l.i, "unmatched "+strconv.Quote(string(c)))
			}
			l.depth--
			l.opened = l.opened[:len(l.opened)-1]
			l.toks = append(l.toks, pyTok{kind: pyOp, start: l.i, end: l.i + 1, code: pyOp1[c]})
			l.i++
			l.codeOnLn = true
		case lxOp1:
			// An operator that never starts a longer one (, ; ~).
			l.toks = append(l.toks, pyTok{kind: pyOp, start: l.i, end: l.i + 1, code: pyOp1[c]})
			l.i++
			l.codeOnLn = true
		case lxOpEq:
			// An operator whose only longer form adds "=" (= == : := + += ...).
			s, code := l.i, pyOp1[c]
			l.i++
			if l.i < len(src) && src[l.i] == '=' {
				l.i++
				code = pyOpEq[c]
			}
			l.toks = append(l.toks, pyTok{kind: pyOp, start: s, end: l.i, code: code})
			l.codeOnLn = true
		case lxDigit:
			l.number()
		case lxDot:
			if l.i+1 < len(src) && src[l.i+1] >= '0' && src[l.i+1] <= '9' {
				l.number()
			} else if l.i+1 < len(src) && src[l.i+1] == '.' {
				l.op() // perhaps "..."
			} else {
				// An attribute's dot (config.model.name: one of the commonest tokens), here
				// instead of through op's general search.
				l.toks = append(l.toks, pyTok{kind: pyOp, start: l.i, end: l.i + 1, code: cDot})
				l.i++
				l.codeOnLn = true
			}
		case lxQuote:
			l.str(l.i, "")
		case lxHigh:
			s := l.i
			r, n := utf8.DecodeRune(src[l.i:])
			if !unicode.IsLetter(r) {
				l.fail(l.i, "invalid character "+strconv.QuoteRune(r))
			}
			l.i += n
			l.identRest()
			name := l.sub(s, l.i)
			if l.i < len(src) && (src[l.i] == '\'' || src[l.i] == '"') && isStrPrefix(name) {
				l.str(s, strings.ToLower(name))
				continue
			}
			l.emit(pyName, s, l.i)
		default:
			l.op()
		}
	}
	if l.depth > 0 {
		at := l.opened[len(l.opened)-1]
		l.fail(at, strconv.Quote(string(src[at]))+" is never closed")
	}
	if len(l.toks) > 0 && l.toks[len(l.toks)-1].kind != pyNewline {
		l.emit(pyNewline, len(src), len(src))
	}
	for len(l.indents) > 1 {
		l.indents = l.indents[:len(l.indents)-1]
		l.emit(pyDedent, len(src), len(src))
	}
	l.emit(pyEOF, len(src), len(src))
	l.done = true
}

// identRest reads the rest of a name from l.i (letters and digits of any script).
func (l *pyLexer) identRest() {
	src := l.src
	for l.i < len(src) {
		b := src[l.i]
		if pyIdentByte[b] != 0 {
			l.i++
			continue
		}
		if b >= utf8.RuneSelf {
			r, n := utf8.DecodeRune(src[l.i:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				l.i += n
				continue
			}
		}
		break
	}
}

// pyStrStop marks the bytes a one-line string's scan stops at: quotes, backslash, line breaks.
var pyStrStop = [256]bool{'\'': true, '"': true, '\\': true, '\n': true, '\r': true}

// pyIdentByte is 1 for the ASCII bytes that start a name, 2 for digits, 0 otherwise.
var pyIdentByte = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case isPyIdentStart(byte(c)):
			t[c] = 1
		case c >= '0' && c <= '9':
			t[c] = 2
		}
	}
	return t
}()

func isPyIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// pyStrPrefix is string prefix s in lower case, the strings' own spellings without a call to
// strings.ToLower (f'...' in a loop of evaluators is common); ok is false when s is no prefix.
func pyStrPrefix(s string) (string, bool) {
	switch s {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf":
		return s, true
	}
	if len(s) <= 2 && isStrPrefix(s) {
		return strings.ToLower(s), true
	}
	return "", false
}

func isStrPrefix(s string) bool {
	switch strings.ToLower(s) {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf":
		return true
	}
	return false
}

func (l *pyLexer) number() {
	src := l.src
	s := l.i
	// An underscore stands only between two digits (or after a base prefix), as in Python:
	// 1_000 and 0x_1F are numbers, 1__0, 1_ and 1_.5 are not.
	if src[l.i] == '0' && l.i+1 < len(src) && strings.IndexByte("xXoObB", src[l.i+1]) >= 0 {
		// Each base has its digits: 0b12 and 0o8 are errors, as 0x1G is (below).
		base := src[l.i+1] | 0x20
		l.i += 2
		for l.i < len(src) && (isHex(src[l.i]) || src[l.i] == '_') {
			c := src[l.i]
			if c == '_' && (l.i+1 >= len(src) || !isHex(src[l.i+1])) {
				l.failNumber(l.i, "invalid number literal")
			}
			if base == 'b' && c > '1' && c != '_' || base == 'o' && c > '7' && c != '_' {
				name := map[byte]string{'b': "binary", 'o': "octal"}[base]
				if c <= '9' {
					l.failNumber(l.i, "invalid digit '"+string(c)+"' in "+name+" literal")
				}
				l.failNumber(l.i, "invalid "+name+" literal")
			}
			l.i++
		}
		if l.i == s+2 {
			l.failNumber(s, "invalid number literal") // 0x with no digit
		}
	} else {
		digits := func() {
			for l.i < len(src) && (src[l.i] >= '0' && src[l.i] <= '9' || src[l.i] == '_') {
				if src[l.i] == '_' && (l.i == s || src[l.i-1] < '0' || src[l.i-1] > '9' || l.i+1 >= len(src) || src[l.i+1] < '0' || src[l.i+1] > '9') {
					l.failNumber(l.i, "invalid number literal")
				}
				l.i++
			}
		}
		digits()
		if l.i < len(src) && src[l.i] == '.' {
			l.i++
			digits()
		}
		if l.i < len(src) && (src[l.i] == 'e' || src[l.i] == 'E') {
			j := l.i + 1
			if j < len(src) && (src[j] == '+' || src[j] == '-') {
				j++
			}
			if j < len(src) && src[j] >= '0' && src[j] <= '9' {
				l.i = j
				digits()
			}
		}
		if l.i < len(src) && (src[l.i] == 'j' || src[l.i] == 'J') {
			l.i++
		} else if src[s] == '0' && bytes.IndexAny(src[s:l.i], ".eE") < 0 && len(bytes.Trim(src[s:l.i], "0_")) > 0 {
			l.failNumber(s, "leading zeros in decimal integer literals are not permitted")
		}
	}
	// A number runs into a name only before a keyword Python lets it touch (1if x else 2, with
	// a warning); anything else (1abc, 5_) is an error.
	if l.i < len(src) && (isPyIdentStart(src[l.i]) || src[l.i] >= '0' && src[l.i] <= '9') && !pyKeywordAhead(src[l.i:]) {
		l.failNumber(l.i, "invalid number literal")
	}
	l.emit(pyNumber, s, l.i)
}

// pyKeywordAhead reports whether b starts with a keyword that CPython's tokenizer lets follow
// a number directly (verify_end_of_number: and, else, for, if, in, is, not, or).
func pyKeywordAhead(b []byte) bool {
	for _, k := range [...]string{"and", "else", "for", "if", "in", "is", "not", "or"} {
		if len(b) >= len(k) && string(b[:len(k)]) == k {
			return true
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// str reads a string literal whose prefix starts at s and whose quote is at l.i.
func (l *pyLexer) str(s int, prefix string) {
	src := l.src
	q := src[l.i]
	ql := 1
	if l.i+2 < len(src) && src[l.i+1] == q && src[l.i+2] == q {
		ql = 3
	}
	l.i += ql
	body := l.i
	// The prefix's letters (lower case), worked out once: most strings have none.
	var flags uint8
	for i := 0; i < len(prefix); i++ {
		switch prefix[i] {
		case 'r':
			flags |= pfxRaw
		case 'b':
			flags |= pfxBytes
		case 'f':
			flags |= pfxFormat
		}
	}
	raw, isBytes, isF := flags&pfxRaw != 0, flags&pfxBytes != 0, flags&pfxFormat != 0
	slash := false // the text has a backslash (the scan stops at every one)
	if isF {
		slash = l.fstr(s, q, ql) // ends at the closing quote
	}
	for !isF {
		if ql == 1 {
			// Skip the bytes that cannot end or escape a one-line string (a table lookup each).
			j := l.i
			for j < len(src) && !pyStrStop[src[j]] {
				j++
			}
			l.i = j
		}
		if l.i >= len(src) {
			l.fail(s, "unterminated string literal")
		}
		if ql == 3 {
			// A docstring is long: jump to the next quote or backslash (vectorised searches)
			// instead of a loop per byte.
			k := bytes.IndexByte(src[l.i:], q)
			if k < 0 {
				l.fail(s, "unterminated string literal")
			}
			if b := bytes.IndexByte(src[l.i:l.i+k], '\\'); b >= 0 {
				k = b
			}
			l.i += k
		}
		c := src[l.i]
		if c == '\\' {
			l.i += 2
			slash = true
			continue
		}
		if ql == 1 && (c == '\n' || c == '\r') {
			l.fail(s, "unterminated string literal")
		}
		if c == q && (ql == 1 || l.i+2 < len(src) && src[l.i+1] == q && src[l.i+2] == q) {
			break
		}
		l.i++
	}
	if l.wantLines && (ql == 3 || slash) {
		// Line breaks inside: a long string's, or escaped in a one-line one.
		l.lines = pyLineStarts(l.lines, src, body, l.i)
	}
	l.i += ql
	if isBytes {
		for _, c := range src[body : l.i-ql] {
			if c >= 0x80 {
				l.fail(s, "bytes can only contain ASCII literal characters")
			}
		}
	}
	var esc int32
	if slash && !raw {
		text, bad := pyUnescapeAt(l.sub(body, l.i-ql), isBytes)
		if bad >= 0 {
			kind := "(unicode error) malformed \\" + string(src[body+bad+1]) + " escape"
			if isBytes {
				kind = "(value error) invalid \\x escape"
			}
			l.fail(s, kind)
		}
		if !isF {
			l.tx.esc = append(l.tx.esc, text)
			esc = int32(len(l.tx.esc))
		}
	}
	l.toks = append(l.toks, pyTok{kind: pyString, start: s, end: l.i, esc: esc, prefix: flags, body: body, quote: uint8(ql)})
	l.codeOnLn = true
}

// fstr moves l.i from an f-string's first byte after its opening quote to its closing quote,
// reading replacement fields as Python 3.12 does (PEP 701): inside {…} a quote starts a string
// of its own whatever the f-string's quote (f"{d["a"]}"), which may be an f-string too; brackets
// nest; a field may span lines and hold a comment; a format spec may hold fields. Python 3.11
// refuses some of these files and 3.12 reads them: they are read. It reports whether the
// string holds a backslash or a line break (its line starts are then added).
func (l *pyLexer) fstr(s int, q byte, ql int) (slashOrBreak bool) {
	src := l.src
	for {
		if l.i >= len(src) {
			l.fail(s, "unterminated string literal")
		}
		switch c := src[l.i]; {
		case c == '\\':
			l.i += 2
			slashOrBreak = true
			continue
		case ql == 1 && (c == '\n' || c == '\r'):
			l.fail(s, "unterminated string literal")
		case c == '\n' || c == '\r':
			slashOrBreak = true
		case c == q && (ql == 1 || l.i+2 < len(src) && src[l.i+1] == q && src[l.i+2] == q):
			return slashOrBreak
		case c == '{' && l.i+1 < len(src) && src[l.i+1] == '{':
			l.i++
		case c == '{':
			l.i++
			if l.fstrField(s, 0) {
				slashOrBreak = true
			}
			continue
		}
		l.i++
	}
}

// fstrField reads a replacement field from l.i (after its '{') to after its closing '}', or
// stops at a quote or line end it cannot read past, which the f-string's own scan then judges
// (a field never closed is a syntax error in fstringError). depth counts the fields it is in.
func (l *pyLexer) fstrField(s, depth int) (brk bool) {
	src := l.src
	if depth > 200 {
		l.fail(s, "f-string: too many nested fields")
	}
	brackets := 0
	var open [32]byte // the open brackets, innermost last (deeper ones are not checked)
	for l.i < len(src) {
		switch c := src[l.i]; {
		case c == '\'' || c == '"':
			// A string of its own: its prefix letters were read as the field's text.
			p := l.i
			for p > 0 && strings.IndexByte("rRbBuUfF", src[p-1]) >= 0 {
				p--
			}
			fpre := p < l.i && (p == 0 || pyIdentByte[src[p-1]] == 0) && strings.ContainsAny(string(src[p:l.i]), "fF")
			ql := 1
			if l.i+2 < len(src) && src[l.i+1] == c && src[l.i+2] == c {
				ql = 3
			}
			l.i += ql
			if fpre {
				if l.fstr(s, c, ql) {
					brk = true
				}
			} else {
				for l.i < len(src) && !(src[l.i] == c && (ql == 1 || l.i+2 < len(src) && src[l.i+1] == c && src[l.i+2] == c)) {
					if src[l.i] == '\\' {
						l.i++
					} else if src[l.i] == '\n' || src[l.i] == '\r' {
						if ql == 1 {
							return brk // unterminated: the caller's scan fails
						}
						brk = true
					}
					l.i++
				}
			}
			l.i += ql
			continue
		case c == '#':
			for l.i < len(src) && src[l.i] != '\n' && src[l.i] != '\r' {
				l.i++
			}
			continue
		case c == '\n' || c == '\r':
			brk = true
		case c == '(' || c == '[' || c == '{':
			if brackets < len(open) {
				open[brackets] = c
			}
			brackets++
		case c == ')' || c == ']' || c == '}':
			if brackets <= 0 && c == '}' {
				l.i++
				return brk
			}
			if brackets <= 0 || brackets <= len(open) && open[brackets-1] != opener(c) {
				return brk // unmatched: the f-string's scan goes on, fstringError says where
			}
			brackets--
		case c == ':' && brackets <= 0: // {x:=5} too: a spec, as in Python
			// The format spec: text and nested fields up to the field's '}'.
			for l.i++; l.i < len(src); l.i++ {
				switch src[l.i] {
				case '{':
					l.i++
					if l.fstrField(s, depth+1) {
						brk = true
					}
					l.i--
				case '}':
					l.i++
					return brk
				case '\'', '"', '\\':
					return brk // left to the f-string's own scan
				case '\n', '\r':
					brk = true
				}
			}
			return brk
		}
		l.i++
	}
	return brk
}

// pyUnescape resolves Python's backslash escapes in a str literal's text; an escape it does not
// know stays as written, as Python keeps it (pyUnescapeAt tells malformed ones).
func pyUnescape(s string) string {
	out, _ := pyUnescapeAt(s, false)
	return out
}

// pyUnescapeAt resolves the escapes of a str literal's text (of a bytes literal's when isBytes:
// \u, \U and \N are then no escapes) and returns the offset in s of the first malformed one
// (-1 when none), as CPython refuses it: \x without two hex digits, \u without four, \U
// without eight or past U+10FFFF, \N without {name}. A \N{name} stays as written (the names
// are Unicode's, not known here); an octal escape (\0 to \777) is its code point.
func pyUnescapeAt(s string, isBytes bool) (string, int) {
	if !strings.Contains(s, "\\") {
		return s, -1
	}
	bad := -1
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		at := i
		i++
		switch e := s[i]; e {
		case '\n':
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := rune(e - '0')
			for k := 0; k < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; k++ {
				i++
				v = v*8 + rune(s[i]-'0')
			}
			if isBytes {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(v)
			}
		case 'x', 'u', 'U':
			n := 2
			if e == 'u' {
				n = 4
			} else if e == 'U' {
				n = 8
			}
			if isBytes && e != 'x' {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			if i+1+n <= len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32); err == nil && v <= unicode.MaxRune { // base 16: no sign, no underscore
					if isBytes {
						b.WriteByte(byte(v))
					} else {
						b.WriteRune(rune(v))
					}
					i += n
					continue
				}
			}
			if bad < 0 {
				bad = at
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		case 'N':
			if !isBytes {
				if j := strings.IndexByte(s[i:], '}'); i+1 >= len(s) || s[i+1] != '{' || j < 3 {
					if bad < 0 {
						bad = at
					}
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), bad
}

func (l *pyLexer) op() {
	src := l.src
	s := l.i
	rest := src[l.i:]
	// Operators of two or three characters, found by their first two bytes (brackets and
	// separators never start a longer operator, but "." may start "...").
	if len(rest) >= 2 {
		n := 0
		switch c, c2 := rest[0], rest[1]; c {
		case '*', '/', '<', '>':
			if c2 == c {
				n = 2
				if len(rest) >= 3 && rest[2] == '=' {
					n = 3 // **= //= <<= >>=
				}
			} else if c2 == '=' {
				n = 2
			}
		case '=', '!', '+', '%', '&', '|', '^', '@', ':':
			if c2 == '=' {
				n = 2
			}
		case '-':
			if c2 == '=' || c2 == '>' {
				n = 2
			}
		case '.':
			if c2 == '.' && len(rest) >= 3 && rest[2] == '.' {
				n = 3
			}
		}
		if n > 0 {
			l.i += n
			l.toks = append(l.toks, pyTok{kind: pyOp, start: s, end: l.i, code: pyOpCode(l.sub(s, l.i))})
			l.codeOnLn = true
			return
		}
	}
	c := src[l.i]
	switch c {
	case '(', '[', '{':
		l.depth++
		if l.depth > l.maxDepth {
			l.tooDeep()
		}
		l.opened = append(l.opened, l.i)
	case ')', ']', '}':
		if l.depth == 0 || !pyBracketPair(src[l.opened[len(l.opened)-1]], c) {
			l.fail(l.i, "unmatched "+strconv.Quote(string(c)))
		}
		l.depth--
		l.opened = l.opened[:len(l.opened)-1]
	case '+', '-', '*', '/', '%', '@', '&', '|', '^', '~', '<', '>', '=', '.', ',', ':', ';', '!':
	default:
		r, _ := utf8.DecodeRune(rest)
		l.fail(l.i, "invalid character "+strconv.QuoteRune(r))
	}
	l.i++
	l.toks = append(l.toks, pyTok{kind: pyOp, start: s, end: l.i, code: pyOp1[c]})
	l.codeOnLn = true
}

// pyLineStarts appends to starts the start of each line that begins inside src[a:b] (after a
// \n, a \r\n or a lone \r there), as NewLineIndex counts them; a \r at b-1 must not be followed
// by \n (the lexer's strings end before a quote).
func pyLineStarts(starts []int, src []byte, a, b int) []int {
	r := src[a:b]
	if bytes.IndexByte(r, '\r') < 0 {
		for i := 0; ; {
			j := bytes.IndexByte(r[i:], '\n')
			if j < 0 {
				return starts
			}
			i += j + 1
			starts = append(starts, a+i)
		}
	}
	for i, c := range r {
		if c == '\n' || c == '\r' && (i+1 >= len(r) || r[i+1] != '\n') {
			starts = append(starts, a+i+1)
		}
	}
	return starts
}

// sub is src[a:b] as a string, without a copy.
func (l *pyLexer) sub(a, b int) string { return l.tx.s[a-l.tx.base : b-l.tx.base] }

// pyComments turns comment ranges into Comments (Trailing when code precedes on the line).
func pyComments(x *LineIndex, src []byte, rs [][2]int, text string, base int) []Comment {
	if len(rs) == 0 {
		return nil
	}
	out := make([]Comment, 0, len(rs))
	// Each comment's text is a slice of the lexer's copy of the source (text, from base on).
	first := base
	lc := lineCursor{x: x}
	for _, r := range rs {
		// Trailing: something other than blanks (and a byte-order mark) before it on its line.
		trailing := false
		for ls := r[0]; ls > 0 && src[ls-1] != '\n' && src[ls-1] != '\r'; ls-- {
			if c := src[ls-1]; c != ' ' && c != '\t' && c != '\f' && c != '\v' {
				if ls >= 3 && src[ls-3] == 0xEF && src[ls-2] == 0xBB && c == 0xBF {
					ls -= 2
					continue
				}
				trailing = true
				break
			}
		}
		out = append(out, Comment{Text: text[r[0]+1-first : r[1]-first], Span: lc.span(r[0], r[1]), Trailing: trailing})
	}
	return out
}

// tokenEstimate guesses how many tokens src holds (code bytes outside comments over 4), so the
// token list is allocated once without zeroing room for the licence header's words.
func tokenEstimate(src []byte) int {
	code, inComment := 0, false
	for _, c := range src {
		switch {
		case c == '\n':
			inComment = false
		case c == '#':
			inComment = true
		case !inComment && c > ' ':
			code++
		}
	}
	return code/4 + 8
}
