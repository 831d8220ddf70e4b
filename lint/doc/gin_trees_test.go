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
// file guard the other paths: CRLF line ends, a byte-order mark, six truncations (most end in
// a syntax error at a position), and low node and depth limits; so do ginEdgeCases. Only hashes are committed, never corpus text. The corpus
// is beside the repository in CI (.ci/run), so a missing corpus fails rather than skips.
func TestGinTrees(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("corpus not present (%v): TestGinTrees needs ../shared/corpus beside the repository", err)
	}
	got := ginTreeHashes(t, dir)
	if len(got) < 32*11 {
		t.Fatalf("only %d gin documents hashed", len(got))
	}
	for i, s := range ginEdgeCases {
		h := sha256.Sum256([]byte(dumpGinDoc(Parse("x.gin", []byte(s), Gin, Limits{}))))
		got[fmt.Sprintf("edge/%02d", i)] = hex.EncodeToString(h[:])
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

// ginEdgeCases are the paths the corpus does not take: macros that contain themselves or
// chain, a configurable replaced by a value and back, repeated dict keys, numbers of every
// kind, spaces inside references, blocks then dotted bindings of the same names, limits.
var ginEdgeCases = []string{
	"A = [%A, 1]\nx.y = %A\n",
	"A = {'k': %A}\nB = %A\n",
	"A = [1, (2, %B)]\nB = %A\nc.d = %B\n",
	"A = 1\nA.b = 2\nA = 3\nx.y = (%A,)\n",
	"X = 0x1F\nY = 1_000j\nZ = 1E400\n",
	"X = 1e5\nY=-0o17\nZ=00\nW=True\nV=False\nU=None\nT=0B1_0\nS=1_0.5E-3\n",
	"a.b = % M\nM = 2\n",
	"a/b.c.d = 1\na/b.c.e = @f.g()\na/b.c.d = [1,2,]\nr = @ x.y ( )\n",
	"a.b = 1\na = 2\na.c = 3\na.c = 4\nb.c.d = 1\nb.c = 2\nb.c.e = 3\n",
	"s.f:\n  x = 1\n  y.z = 2\ns.f.x = 3\n",
	"D = {'a': 1, 'a': 2, 'b': {'c': 3}, 4: (5)}\nE = %D\nF = %E\n",
	"X = %gin.REQUIRED\nX = 1\nX = 2\nY = %X\n",
	"A = %B\nB = %A\nx.y = %A\n",
	"s = 'a' \"b\" r'c'\nt = \"\"\"d\"\"\"\nu = b'e'\n",
	"import a.b as c\nfrom d import e\nimport f . g\ninclude 'h.gin'\n",
	"a.b = [[[[[[[[1]]]]]]]]\n",
	"a.b = {1: [2, {3: 4}]}\n",
	"a. b = 1\n",
	"a.b = c\n",
	"a.b = 01\n",
	"a.b = 0x\n",
	"x:\n  y = 1\n    z = 2\n",
	"%A = 1\n",
	"a.b = {[1]: 2}\n",
	"a.b = @\n",
	"a.b = 1 2\n",
	"\ta.b = 1\n",
	"a.b = (1\n",
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
		addLim := func(variant string, b []byte, lim Limits) {
			h := sha256.Sum256([]byte(dumpGinDoc(Parse("x.gin", b, Gin, lim))))
			out[rel+variant] = hex.EncodeToString(h[:])
		}
		add := func(variant string, b []byte) { addLim(variant, b, Limits{}) }
		add("", src)
		addLim("@nodes30", src, Limits{MaxNodes: 30})
		addLim("@depth1", src, Limits{MaxDepth: 1})
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

// TestGinConcurrent: the pooled parsers and the node slabs they share between files give every
// goroutine the trees a lone read gives (run it with -race to check the pool).
func TestGinConcurrent(t *testing.T) {
	var srcs [][]byte
	for p, f := range corpusFiles(t, map[Format]bool{Gin: true}) {
		if f != Gin {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, b)
	}
	if len(srcs) < 32 {
		t.Fatalf("only %d gin corpus files", len(srcs))
	}
	want := make([]string, len(srcs))
	for i, s := range srcs {
		want[i] = dumpGinDoc(Parse("x.gin", s, Gin, Limits{}))
	}
	errs := make(chan error, 4)
	for w := 0; w < 4; w++ {
		go func(w int) {
			var docs []*Document // kept alive while the others read, so that slabs are shared
			for k := 0; k < 3*len(srcs); k++ {
				i := (k*7 + w*5) % len(srcs)
				d := Parse("x.gin", srcs[i], Gin, Limits{})
				docs = append(docs, d)
				if got := dumpGinDoc(d); got != want[i] {
					errs <- fmt.Errorf("goroutine %d: file %d reads differently", w, i)
					return
				}
			}
			for k, d := range docs {
				if got := dumpGinDoc(d); got != want[(k*7+w*5)%len(srcs)] {
					errs <- fmt.Errorf("goroutine %d: document %d changed after later reads", w, k)
					return
				}
			}
			errs <- nil
		}(w)
	}
	for w := 0; w < 4; w++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
