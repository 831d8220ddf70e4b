package doc

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var updateGinTrees = flag.Bool("update-gin-trees", false, "rewrite testdata/gin_trees.sha256 from the current gin reader")

const ginTreesFile = "testdata/gin_trees.sha256"

// TestGinTrees guards the gin reader's output while it is made faster: the Document of every
// corpus .gin file (tree with kinds, types, values, styles, keys, spans, macro uses; comments;
// problems; refs) is rendered and its SHA-256 compared with the committed list. Variants of each
// file guard the other paths: CRLF line ends, a byte-order mark, and six truncations (most end
// in a syntax error at a position). Only hashes are committed, never corpus text. The corpus
// is beside the repository in CI (.ci/run), so a missing corpus fails rather than skips.
func TestGinTrees(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("corpus not present (%v): TestGinTrees needs ../shared/corpus beside the repository", err)
	}
	got := ginTreeHashes(t, dir)
	if len(got) < 32*9 {
		t.Fatalf("only %d gin documents hashed", len(got))
	}
	var lines []string
	for name, h := range got {
		lines = append(lines, h+"  "+name)
	}
	sort.Strings(lines)
	if *updateGinTrees {
		if err := os.WriteFile(ginTreesFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(ginTreesFile)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		h, name, ok := strings.Cut(l, "  ")
		if !ok {
			t.Fatalf("bad line %q in %s", l, ginTreesFile)
		}
		want[name] = h
	}
	for name, h := range got {
		if w, ok := want[name]; !ok {
			t.Errorf("%s: not in %s (run with -update-gin-trees after checking the change)", name, ginTreesFile)
		} else if w != h {
			t.Errorf("%s: the gin reader's Document changed", name)
		}
	}
	for name := range want {
		if _, ok := got[name]; !ok {
			t.Errorf("%s: listed in %s but not read", name, ginTreesFile)
		}
	}
}

func ginTreeHashes(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".gin") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		add := func(variant string, b []byte) {
			h := sha256.Sum256([]byte(dumpGinDoc(Parse("x.gin", b, Gin, Limits{}))))
			out[rel+variant] = hex.EncodeToString(h[:])
		}
		add("", src)
		add("@crlf", bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n")))
		add("@bom", append([]byte("\xEF\xBB\xBF"), src...))
		for k := 1; k <= 6; k++ {
			add(fmt.Sprintf("@cut%d", k), src[:len(src)*k/7])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// dumpGinDoc is dumpDoc with what a gin Document adds: macro uses and refs.
func dumpGinDoc(d *Document) string {
	var b strings.Builder
	b.WriteString(dumpDoc(d))
	sp := func(s Span) string {
		return fmt.Sprintf("%d:%d@%d-%d:%d@%d", s.Start.Line, s.Start.Col, s.Start.Offset, s.End.Line, s.End.Col, s.End.Offset)
	}
	if d.Root != nil {
		d.Root.Walk(func(n *Node) bool {
			if n.Use != nil {
				fmt.Fprintf(&b, "use %s %s\n", n.Path(), sp(*n.Use))
			}
			return true
		})
	}
	for _, r := range d.Refs {
		fmt.Fprintf(&b, "ref %s %q %s\n", r.Kind, r.Target, sp(r.Span))
	}
	return b.String()
}
