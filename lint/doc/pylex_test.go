package doc

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPyCodes checks the operator and keyword codes against their texts: every operator lexes
// to its code, every keyword gets its code from Python's lexer and none from gin's, and a name
// that is no keyword gets none.
func TestPyCodes(t *testing.T) {
	n := 0
	for c, text := range pyCodeText {
		if text == "" {
			continue
		}
		n++
		src := "x " + text + " y\n"
		if pyCode(c) >= pyKwFirst {
			src = text + "\n"
		}
		tx := &pyText{}
		toks, _, err := pyLexFrom([]byte(src), 0, 10, true, tx)
		if err != nil && text != "(" && text != "[" && text != "{" && text != ")" && text != "]" && text != "}" {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if err != nil {
			continue // an unbalanced bracket alone; its code is tested below
		}
		tok := toks[0]
		if pyCode(c) < pyKwFirst {
			tok = toks[1]
		}
		if tok.code != pyCode(c) || tx.at(&tok) != text {
			t.Errorf("%q lexes to code %d text %q, want %d", text, tok.code, tx.at(&tok), c)
		}
		if pyCode(c) >= pyKwFirst {
			gt, _, _ := pyLexInto([]byte(src), 0, 10, true, nil, nil)
			if gt[0].code != cNone {
				t.Errorf("gin's lexer gives keyword %q code %d", text, gt[0].code)
			}
		}
	}
	if n != 48+35 {
		t.Errorf("%d codes with a text, want 48 operators and 35 keywords", n)
	}
	tx := &pyText{}
	toks, _, err := pyLexFrom([]byte("f(a)[b]{c}\nmatch true none For iff\n"), 0, 10, true, tx)
	if err != nil {
		t.Fatal(err)
	}
	want := []pyCode{cNone, cLPar, cNone, cRPar, cLBrack, cNone, cRBrack, cLBrace, cNone, cRBrace}
	for i, c := range want {
		if toks[i].code != c {
			t.Errorf("token %d %q: code %d, want %d", i, tx.at(&toks[i]), toks[i].code, c)
		}
	}
	for _, tok := range toks[len(want):] {
		if tok.code != cNone {
			t.Errorf("%q: code %d, want none", tx.at(&tok), tok.code)
		}
	}
}

// BenchmarkLexPython and BenchmarkLexGin time the shared lexer alone on the corpus's Python
// (keywords coded) and gin files (as gin.go calls it).
func BenchmarkLexPython(b *testing.B) {
	var buf []pyTok
	benchEach(b, corpusBytes(b, Python), func(s []byte) {
		toks, _, _ := pyLexCoded(s, 0, 1000, true, buf, nil, nil, true)
		buf = toks[:0]
	})
}

func BenchmarkLexGin(b *testing.B) {
	var buf []pyTok
	var tx pyText
	benchEach(b, corpusBytes(b, Gin), func(s []byte) {
		tx = pyText{esc: tx.esc[:0]}
		toks, _, _ := pyLexInto(s, 0, 1000, true, buf, &tx)
		buf = toks[:0]
	})
}

// TestPyTables checks the lexer's static tables against the code texts they are written from.
func TestPyTables(t *testing.T) {
	var lens [256]uint16
	for c := pyKwFirst; int(c) < len(pyCodeText); c++ {
		if s := pyCodeText[c]; s != "" {
			lens[s[0]] |= 1 << len(s)
		}
	}
	if lens != pyKwLens {
		t.Error("pyKwLens does not match the keywords")
	}
	var op1 [256]pyCode
	for c := cLPar; c < pyKwFirst; c++ {
		if s := pyCodeText[c]; len(s) == 1 {
			op1[s[0]] = c
		}
	}
	if op1 != pyOp1 {
		t.Error("pyOp1 does not match the one-byte operators")
	}
	for c := 0; c < 256; c++ {
		if want := c == '\'' || c == '"' || c == '\\' || c == '\n' || c == '\r'; pyStrStop[c] != want {
			t.Errorf("pyStrStop[%q] = %v", rune(c), pyStrStop[c])
		}
	}
	// The byte classes the main loop jumps on, from what each byte may start.
	longer := func(c byte) (n int) { // how many operators of two or three bytes start with c
		for k := cLPar; k < pyKwFirst; k++ {
			if s := pyCodeText[k]; len(s) > 1 && s[0] == c {
				n++
			}
		}
		return n
	}
	for i := 0; i < 256; i++ {
		c := byte(i)
		want := lxOther
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			want = lxBlank
		case c == '\n' || c == '\r':
			want = lxNewline
		case c == '#':
			want = lxHash
		case c == '\\':
			want = lxBackslash
		case pyIdentByte[c] == 1:
			want = lxName
		case pyIdentByte[c] == 2:
			want = lxDigit
		case c == '.':
			want = lxDot
		case c == '\'' || c == '"':
			want = lxQuote
		case c == '(' || c == '[' || c == '{':
			want = lxOpen
		case c == ')' || c == ']' || c == '}':
			want = lxClose
		case c >= utf8.RuneSelf:
			want = lxHigh
		case pyOp1[c] != cNone && longer(c) == 0:
			want = lxOp1
		case pyOp1[c] != cNone && longer(c) == 1 && pyOpCode(string(c)+"=") != cNone:
			want = lxOpEq
		}
		if pyClass[c] != want {
			t.Errorf("pyClass[%q] = %d, want %d", rune(c), pyClass[c], want)
		}
		if wantEq := pyOpCode(string(c) + "="); want == lxOpEq && pyOpEq[c] != wantEq || want != lxOpEq && pyOpEq[c] != cNone {
			t.Errorf("pyOpEq[%q] = %d, want %d", rune(c), pyOpEq[c], wantEq)
		}
	}
	for _, o := range []byte("([{") {
		for _, c := range []byte(")]}") {
			if want := strings.IndexByte("([{", o) == strings.IndexByte(")]}", c); pyBracketPair(o, c) != want {
				t.Errorf("pyBracketPair(%q, %q) = %v", o, c, !want)
			}
		}
	}
}

// TestLexLineStarts holds the lexer's line starts (pyLexLines, which the Python reader's line
// index is made from) to NewLineIndex's on the corpus's Python and gin files, on line breaks
// of every kind in every place the lexer passes them (strings, docstrings, continuations,
// comments, brackets), and on those files with bytes replaced at random.
func TestLexLineStarts(t *testing.T) {
	srcs := []string{
		"", "\n", "\r", "\r\n", "x", "x\n", "x\r\ny\r\n", "x\ry\rz", "\xEF\xBB\xBFx = 1\n",
		"\xEF\xBB\xBF\n\n", "a = (1,\n  2)\r\n", "a = 1 + \\\n  2\n", "a = 1 + \\\r\n 2\r", "a = 1 + \\\r 2",
		"s = '''x\ny\r\nz\rw'''\n", "s = \"\"\"\r\"\"\"\r", "s = 'a\\\nb'\n", "s = 'a\\\rb'\n",
		"s = '''a\\\r\nb'''\n", "# c\r\n# d\rx = 1 # e\n", "def f():\n\tif x:\n\t\treturn 1\n\n\n",
		"x = [\n\n#\n\r\n]\n", "s = r'''\\\n'''\n", "s = f'{a}\\\n{b}'\n",
	}
	files := corpusBytes(&testing.B{}, Python)
	files = append(files, corpusBytes(&testing.B{}, Gin)...)
	for _, f := range files {
		srcs = append(srcs, string(f))
	}
	rng := uint64(12)
	swap := []byte("\n\r\n\r\\  x#'")
	for _, f := range files {
		for k := 0; k < 20; k++ {
			b := []byte(string(f))
			for m := 0; m < 2 && len(b) > 0; m++ {
				rng = rng*6364136223846793005 + 1442695040888963407
				b[int(rng>>33)%len(b)] = swap[int(rng>>20)%len(swap)]
			}
			srcs = append(srcs, string(b))
		}
	}
	lexed := 0
	for _, s := range srcs {
		src := []byte(s)
		base := 0
		if hasBOM(src) {
			base = 3
		}
		_, _, starts, err := pyLexLines(src, base, 100, true, nil, nil, nil, true, nil, true)
		if err != nil {
			if len(starts) != 0 {
				t.Errorf("%.40q: %d line starts with error %q", s, len(starts), err.msg)
			}
			continue
		}
		lexed++
		if want := NewLineIndex(src).starts; !slices.Equal(starts, want) {
			t.Errorf("%.60q: line starts %v, want %v", s, starts, want)
		}
	}
	t.Logf("%d of %d texts lexed", lexed, len(srcs))
	if lexed < len(srcs)/2 {
		t.Errorf("only %d of %d texts lexed", lexed, len(srcs))
	}
}
