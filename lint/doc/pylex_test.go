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
	files := corpusBytes(t, Python)
	files = append(files, corpusBytes(t, Gin)...)
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
		if HasBOM(src) {
			base = 3
		}
		_, cms, starts, err := pyLexLines(src, base, 100, true, nil, nil, nil, true, nil, true)
		// The Python reader's lexer, which its parser pulls tokens from (pyParseFile), finds
		// the same starts, comments and error, whatever the parser makes of the tokens.
		a := getPyArena()
		_, cms2, starts2, lerr2, _ := pyParseFile(src, base, 100, a, nil, true)
		if !slices.Equal(starts, starts2) || !slices.Equal(cms, cms2) || (err == nil) != (lerr2 == nil) || err != nil && (err.msg != lerr2.msg || err.off != lerr2.off) {
			t.Errorf("%.60q: pyParseFile's lexer gives starts %v, comments %v, error %v; pyLexLines %v, %v, %v", s, starts2, cms2, lerr2, starts, cms, err)
		}
		a.release()
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

// TestPyWindow: the Python reader's parser reads its tokens through a window of the stream
// (pyCursor), which the lexer refills as the parser goes and which keeps what the parser may
// back up to (with and match statements). Windows of a few tokens give the same Documents as
// the usual one on the corpus's Python files, on those files with lines cut and joined, and
// on texts that back up across refills.
func TestPyWindow(t *testing.T) {
	srcs := []string{
		"with (a as b, c as d):\n  x = 1\n",
		"with (a, b) as c, (d):\n  x = [1, 2, 3, 4, 5, 6, 7, 8, 9]\n",
		"with (open(f) as g, h(1, 2, 3, 4, 5, 6, 7)):\n  pass\nx = dict(a=1, b=[2, 3])\n",
		"match x:\n  case [1, 2, 3, 4, 5, 6]:\n    y = 1\nz = 2\n",
		"match (1, 2, 3, 4, 5, 6, 7, 8) + (9, 10) - f(a, b, c):\n  case _:\n    pass\n",
		"match = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nmatch(1, 2, 3, 4, 5, 6)\nmatch[1] = 2\n",
		"x = ('a' 'b' 'c' 'd' 'e' 'f' 'g' 'h' 'i' 'j' 'k' f'{l}' 'm')\n",
		"x = [\n" + strings.Repeat("  1, 2, 3, 4, 5, 6, 7, 8,\n", 40) + "]\ny = 1 +\n",
		"def f(a, b=1, *c, d=2, **e):\n  return a if b else -c ** 2 < d <= e\n\nx = f(1)\n",
		"x = 1\n" + strings.Repeat("    ", 3) + "y = 2\n",
		"s = '''\n\n''' ; t = 1 ; u = [a for a in (1, 2, 3) if a > 1]\n",
		"x = (1,\n" + strings.Repeat("  2,", 300) + ")\nif x:\n  y = {'a': 1}\n",
		// Backing up across refills: the lexer stops at line breaks, brackets' included.
		"with (\n" + strings.Repeat("  a,\n", 30) + "  b\n) as c:\n  pass\nx = 1\n",
		"with (\n" + strings.Repeat("  a as b,\n", 30) + "):\n  pass\nx = 1\n",
		"match (\n" + strings.Repeat("  a,\n", 30) + "):\n  case _:\n    pass\nx = 1\n",
		"match (\n" + strings.Repeat("  a,\n", 30) + ")\nx = 1\n",
		"match [\n" + strings.Repeat("  a,\n", 30) + "] = 1\nx = 1\n",
	}
	for _, f := range corpusBytes(&testing.B{}, Python) {
		srcs = append(srcs, string(f))
		lines := strings.SplitAfter(string(f), "\n")
		for k := 1; k < len(lines); k += 7 {
			// A line cut in half, or joined to the next.
			cut := slices.Clone(lines)
			cut[k] = cut[k][:len(cut[k])/2]
			srcs = append(srcs, strings.Join(cut, ""))
			cut[k] = strings.TrimSuffix(lines[k], "\n")
			srcs = append(srcs, strings.Join(cut, ""))
		}
	}
	render := func(window int) []string {
		old := pyWindow
		defer func() { pyWindow = old }()
		pyWindow = window
		out := make([]string, len(srcs))
		for i, s := range srcs {
			// A new arena, so a new window of the size (a long line grows a window, and an
			// arena keeps its window).
			pyArenas.Lock()
			pyArenas.free = nil
			pyArenas.Unlock()
			var b strings.Builder
			renderDoc(&b, Parse("x.py", []byte(s), Python, Limits{}))
			out[i] = b.String()
		}
		return out
	}
	want := render(pyWindow)
	errs := 0
	for _, s := range want {
		if strings.Contains(s, "problem ") {
			errs++
		}
	}
	if errs < len(srcs)/4 || errs == len(srcs) {
		t.Errorf("%d of %d texts have problems: the cut lines should break about half", errs, len(srcs))
	}
	for _, w := range []int{5, 8, 13, 64} {
		got := render(w)
		for i := range srcs {
			if got[i] != want[i] {
				t.Errorf("window %d: %.60q reads differently:\n%s\nwant\n%s", w, srcs[i], got[i], want[i])
			}
		}
	}
}

// TestPyLexErrorWins: the Python reader's parser pulls its tokens from the lexer, yet a file
// with a syntax error the parser meets first and a character the lexer cannot read further on
// reports the lexer's error, as when the whole file was lexed before parsing; with only the
// parser's error, that one, and the comments after it are kept either way.
func TestPyLexErrorWins(t *testing.T) {
	long := strings.Repeat("x = [1, 2, 3]  # c\n", 200) // past the window of tokens
	for _, c := range []struct{ src, want string }{
		{"a = = 1\n" + long + "b = 1 $ 2\n", "python: invalid character '$'"},
		{"a = = 1\n" + long + "b = (1,\n", `python: "(" is never closed`},
		{"a = = 1\n" + long, `python: expected an expression, found "="`},
		{"with (a, b) as c:\n  x = = 1\n" + long + "s = 'open\n", "python: unterminated string literal"},
	} {
		d := Parse("x.py", []byte(c.src), Python, Limits{})
		if len(d.Problems) != 1 || d.Problems[0].Message != c.want {
			t.Errorf("%.30q: problems %v, want one %q", c.src, d.Problems, c.want)
			continue
		}
		if strings.HasPrefix(c.want, "python: expected") && len(d.Comments) != 200 {
			t.Errorf("%.30q: %d comments, want 200", c.src, len(d.Comments))
		}
	}
}
