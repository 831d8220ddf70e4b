package doc

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var updateCodeHashes = flag.Bool("update-code-hashes", false, "rewrite testdata/code-docs.sha256 from the corpus")

// codeHashFile lists, per corpus gin and Python file, the SHA-256 of its rendered Document
// (every node's kind, type, style, key, index, value, spans, use, and the comments, refs and
// problems). Hashes only: the corpus text stays outside the repository.
const codeHashFile = "testdata/code-docs.sha256"

// TestCodeDocHashes guards the gin and Python readers' output on the whole corpus: any change
// to a Document of a corpus .gin or .py file changes its hash. A change that is a real fix is
// rewritten with -update-code-hashes and said so in the commit. The corpus must be present
// (it is in CI): a missing one fails rather than skips.
func TestCodeDocHashes(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("corpus not present at %s: this test must not skip", dir)
	}
	files := corpusFiles(t, map[Format]bool{Gin: true, Python: true})
	got := map[string]string{}
	for p, f := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		renderDoc(h, Parse(filepath.ToSlash(rel), src, f, Limits{}))
		got[filepath.ToSlash(rel)] = hex.EncodeToString(h.Sum(nil))
		if f == Python && strings.Contains(string(src), "get_config(arg") {
			// big_vision's other branch: get_config called with an argument (--config f.py:ARG).
			h.Reset()
			renderDoc(h, ParseWith(filepath.ToSlash(rel), src, f, Options{ConfigArg: "runlocal"}))
			got[filepath.ToSlash(rel)+":runlocal"] = hex.EncodeToString(h.Sum(nil))
		}
	}
	if len(got) < 55+11 {
		t.Fatalf("only %d gin and Python corpus files", len(got))
	}
	names := make([]string, 0, len(got))
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	if *updateCodeHashes {
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, "%s  %s\n", got[n], n)
		}
		if err := os.WriteFile(codeHashFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	fh, err := os.Open(codeHashFile)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("bad line %q", sc.Text())
		}
		want[name] = sum
	}
	if len(want) != len(got) {
		t.Errorf("%s lists %d reads, the corpus gives %d", codeHashFile, len(want), len(got))
	}
	for _, n := range names {
		if w, ok := want[n]; !ok {
			t.Errorf("%s: not in %s", n, codeHashFile)
		} else if w != got[n] {
			t.Errorf("%s: Document changed (hash %s, want %s)", n, got[n][:12], w[:12])
		}
	}
}

// mutationsHashFile holds, per block of 100 mutated corpus inputs, the SHA-256 of their
// rendered Documents (hashes only).
const mutationsHashFile = "testdata/code-mutations.sha256"

// TestCodeDocMutations reads 5,000 inputs made from the corpus's gin and Python files by
// deleting spans and inserting tokens at random places (a fixed seed: the same inputs every
// run), so broken and odd code is covered too: error messages and positions, the trees of
// what still parses. Any change of a Document changes its block's hash; rewrite the list
// with -update-code-hashes when the change is a fix, and say so in the commit.
func TestCodeDocMutations(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("corpus not present at %s: this test must not skip", dir)
	}
	type input struct {
		f   Format
		src []byte
	}
	var files []input
	for p, f := range corpusFiles(t, map[Format]bool{Gin: true, Python: true}) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, input{f, src})
	}
	sort.Slice(files, func(i, j int) bool { return string(files[i].src) < string(files[j].src) })
	pieces := []string{"(", ")", "[", "]", "{", "}", ",", ":", "=", "'", "\"", "f'{x}'", "\n", "  ", "\t",
		"#", "\\", "**", "*", "not ", " in ", "lambda x: x", "dict(", "0x1F", "1_000", "1e-3", "00", "07",
		" if x else ", "for i in range(3)", "+=", "==", "!=", "<=", "é", "is not", "None", "True", "@",
		":=", "...", "->", ";", "del x", "'a' 'b'", "rb'x'", "u'x'", "F'{1}'", "%", "include", "@f()"}
	r := rand.New(rand.NewSource(1))
	var got []string
	h := sha256.New()
	for i := 0; i < 5000; i++ {
		in := files[r.Intn(len(files))]
		src := mutate(r, in.src, pieces, 4, 20)
		renderDoc(h, Parse("m."+string(in.f), src, in.f, Limits{}))
		if i%100 == 99 {
			got = append(got, hex.EncodeToString(h.Sum(nil)))
			h.Reset()
		}
	}
	if *updateCodeHashes {
		if err := os.WriteFile(mutationsHashFile, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(mutationsHashFile)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(b))
	if len(want) != len(got) {
		t.Fatalf("%s has %d blocks, want %d", mutationsHashFile, len(want), len(got))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("inputs %d-%d: a Document changed", i*100, i*100+99)
		}
	}
}

// mutate returns a copy of src with a few random edits (the draw for another edit is made before
// each one, so the count varies as 1+Intn(edits) redrawn each time): a cut of up to maxCut-1
// bytes one time in three, else the insertion of one of pieces.
func mutate(r *rand.Rand, src []byte, pieces []string, edits, maxCut int) []byte {
	src = append([]byte(nil), src...)
	for m := 0; m < 1+r.Intn(edits); m++ {
		p := r.Intn(len(src) + 1)
		if r.Intn(3) == 0 {
			q := min(len(src), p+r.Intn(maxCut))
			src = append(src[:p:p], src[q:]...)
		} else {
			src = append(src[:p:p], append([]byte(pieces[r.Intn(len(pieces))]), src[p:]...)...)
		}
	}
	return src
}

// renderDoc writes everything a Document says about its bytes, one line per item.
func renderDoc(w io.Writer, d *Document) {
	sp := func(s Span) string {
		return fmt.Sprintf("%d:%d@%d-%d:%d@%d", s.Start.Line, s.Start.Col, s.Start.Offset, s.End.Line, s.End.Col, s.End.Offset)
	}
	fmt.Fprintf(w, "format %s crlf %v declined %v\n", d.Format, d.CRLF, d.Declined)
	for _, p := range d.Problems {
		rel := "-"
		if p.Related != nil {
			rel = sp(*p.Related)
		}
		fmt.Fprintf(w, "problem %d %q %s %s %q\n", p.Kind, p.Message, sp(p.Span), rel, p.RelatedMessage)
	}
	for _, c := range d.Comments {
		fmt.Fprintf(w, "comment %q %s %v\n", c.Text, sp(c.Span), c.Trailing)
	}
	for _, r := range d.Refs {
		fmt.Fprintf(w, "ref %s %q %s\n", r.Kind, r.Target, sp(r.Span))
	}
	var node func(n *Node)
	node = func(n *Node) {
		use := "-"
		if n.Use != nil {
			use = sp(*n.Use)
		}
		par := -1
		if n.Parent != nil {
			par = int(n.Parent.Kind)
		}
		fmt.Fprintf(w, "node %d %d %s q%v a%v d%d %q %d %q %s %s use %s parent %d kids %d\n", n.Kind, n.Type, n.Style,
			n.Quoted, n.Alias, n.Depth(), n.Key, n.Index, n.Value, sp(n.KeySpan), sp(n.Span), use, par, len(n.Children))
		for _, c := range n.Children {
			if c.Parent != n {
				fmt.Fprintf(w, "bad parent\n")
			}
			node(c)
		}
	}
	for i, r := range append([]*Node{d.Root}, d.More...) {
		fmt.Fprintf(w, "root %d\n", i)
		if r != nil {
			node(r)
		}
	}
}
