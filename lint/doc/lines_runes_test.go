package doc

import (
	"math/rand"
	"testing"
	"unicode/utf8"
)

// TestColumnsOnLongLines holds the column checkpoints of long non-ASCII lines to the plain
// count (utf8.RuneCount from the line's start) at every offset, character boundary or not, over
// random texts of ASCII, two- to four-byte characters, invalid bytes, BOMs and \n, \r\n and
// lone \r breaks, with lines from a few bytes to several checkpoints long.
func TestColumnsOnLongLines(t *testing.T) {
	pieces := []string{"a", "key", ": ", "\n", "\r\n", "\r", "é", "Ġ", "€", "😀", "\xff", "\xe2\x82", "\x80", "\xf0\x9f", " "}
	r := rand.New(rand.NewSource(7))
	checked, withMarks := 0, 0
	for n := 0; n < 300; n++ {
		var b []byte
		if n%5 == 0 {
			b = append(b, 0xEF, 0xBB, 0xBF)
		}
		size := r.Intn(3000)
		for len(b) < size {
			p := pieces[r.Intn(len(pieces))]
			if r.Intn(40) != 0 && (p == "\n" || p == "\r\n" || p == "\r") && n%2 == 0 {
				p = "x" // some texts are one long line, others have breaks now and then
			}
			b = append(b, p...)
		}
		x := NewLineIndex(b)
		if x.markPos != nil {
			withMarks++
		}
		for off := x.starts[0]; off <= len(b); off++ { // an offset inside a BOM is line 1 column 1
			p := x.Pos(off)
			want := utf8.RuneCount(b[x.starts[p.Line-1]:off]) + 1
			if p.Col != want {
				t.Fatalf("text %d (%d bytes, checkpoints %v): offset %d line %d: column %d, want %d", n, len(b), x.markPos != nil, off, p.Line, p.Col, want)
			}
			if got := x.posOnLine(p.Line, off).Col; got != want {
				t.Fatalf("text %d: posOnLine at %d: column %d, want %d", n, off, got, want)
			}
			checked++
		}
	}
	if checked < 100000 || withMarks < 50 {
		t.Fatalf("only %d offsets checked, %d texts with checkpoints", checked, withMarks)
	}
}

// longVocabJSON is a one-line JSON object of n keys with non-ASCII text, the shape of a
// tokenizer's vocab.json.
func longVocabJSON(n int) []byte {
	b := []byte{'{'}
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',', ' ')
		}
		b = append(b, `"Ġtöken`...)
		b = append(b, byte('a'+i%26), byte('a'+i/26%26), byte('a'+i/676%26))
		b = append(b, `": `...)
		b = append(b, byte('0'+i%10))
	}
	return append(b, '}', '\n')
}

// longGinDict is a gin binding of a dict literal of n entries, the last repeating key t7.
func longGinDict(n int) []byte {
	b := []byte("train.vocab = {")
	for i := 0; i < n; i++ {
		b = append(b, '"', 't')
		b = append(b, itoa(i)...)
		b = append(b, `": 1, `...)
	}
	return append(b, "\"t7\": 2}\n"...)
}

// TestLongNonASCIILine: the one-line vocabulary's columns are right and come from checkpoints
// (BenchmarkLongLines has the cost: it was quadratic in the line's length).
func TestLongNonASCIILine(t *testing.T) {
	b := longVocabJSON(20000)
	d := Parse("vocab.json", b, JSON, Limits{})
	if d.Root == nil || len(d.Root.Children) != 20000 {
		t.Fatalf("parsed %v", d.Problems)
	}
	if d.Lines().markPos == nil {
		t.Error("no column checkpoints on a line of a megabyte")
	}
	for _, i := range []int{0, 1, 7777, 19999} {
		k := d.Root.Children[i].KeySpan.Start
		if want := utf8.RuneCount(b[:k.Offset]) + 1; k.Col != want || k.Line != 1 {
			t.Errorf("key %d at %d:%d, want 1:%d", i, k.Line, k.Col, want)
		}
	}
}

// TestGinLongDict: a key repeated far apart in a dict literal of 40,000 entries is found (its
// keys go through the parser's index, BenchmarkLongLines): gin keeps the later value, and the
// duplicate is reported once.
func TestGinLongDict(t *testing.T) {
	d := Parse("vocab.gin", longGinDict(40000), Gin, Limits{})
	v := d.Root.At("train.vocab")
	if v == nil || len(v.Children) != 40000 {
		t.Fatalf("vocab: %v, problems %v", v, d.Problems)
	}
	if n := v.Get("t7"); n == nil || n.Value != "2" || v.Children[39999] != n {
		t.Errorf("the repeated key: %+v", n)
	}
	dups := 0
	for _, p := range d.Problems {
		if p.Kind == DuplicateKey {
			dups++
		}
	}
	if dups != 1 {
		t.Errorf("%d duplicate-key problems, want 1: %v", dups, d.Problems)
	}
}

// BenchmarkLongLines reads the two long-line shapes that used to cost time quadratic in the
// line: a one-line non-ASCII vocab.json of 20,000 keys and a gin dict of 40,000 entries.
func BenchmarkLongLines(b *testing.B) {
	for _, c := range []struct {
		name string
		src  []byte
		f    Format
	}{{"vocab-json-20k", longVocabJSON(20000), JSON}, {"gin-dict-40k", longGinDict(40000), Gin}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.src)))
			for i := 0; i < b.N; i++ {
				Parse("x", c.src, c.f, Limits{})
			}
		})
	}
}

// ginMacroChain binds n macros, each the one before (M1 = %M0, ...), and uses the last.
func ginMacroChain(n int) []byte {
	b := []byte("M0 = 1\n")
	for i := 1; i < n; i++ {
		b = append(b, "M"+itoa(i)+" = %M"+itoa(i-1)+"\n"...)
	}
	return append(b, "train.x = %M"+itoa(n-1)+"\n"...)
}

// TestGinMacroChain: a use takes the value at the end of a chain of macros, as gin reads it
// (each macro resolved in file order takes the value of the one before), also through 20,000
// macros looked up in the parser's index (BenchmarkGinMacroChain).
func TestGinMacroChain(t *testing.T) {
	for _, n := range []int{50, 20000} {
		d := Parse("m.gin", ginMacroChain(n), Gin, Limits{})
		if x := d.Root.At("train.x"); x == nil || x.Value != "1" || x.Span.Start.Line != 1 {
			t.Errorf("%d macros: train.x = %+v, want 1 from line 1", n, x)
		}
	}
}

// BenchmarkGinMacroChain reads 20,000 macros, each naming the one before: each use was looked
// up among all the file's bindings one by one (0.9 s through the CLI).
func BenchmarkGinMacroChain(b *testing.B) {
	src := ginMacroChain(20000)
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		Parse("m.gin", src, Gin, Limits{})
	}
}
