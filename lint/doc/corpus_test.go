package doc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir is the shared corpus of real configs (outside the repository; see MANIFEST.tsv).
func corpusDir(t testing.TB) string {
	dir := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("corpus not present:", dir)
	}
	return dir
}

func corpusFiles(t testing.TB, want map[Format]bool) map[string]Format {
	files := map[string]Format{}
	err := filepath.WalkDir(corpusDir(t), func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if f, ok := FormatFromPath(p); ok && want[f] {
			files[p] = f
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestCorpus parses every YAML, JSON and TOML file of the corpus: they are all valid, so no
// problem may be reported, and every span must keep the invariants.
func TestCorpus(t *testing.T) {
	files := corpusFiles(t, map[Format]bool{YAML: true, JSON: true, TOML: true})
	count := map[Format]int{}
	for _, f := range files {
		count[f]++
	}
	t.Logf("corpus files: %v", count)
	if count[YAML] < 10 || count[JSON] < 5 || count[TOML] < 5 {
		t.Fatalf("too few corpus files: %v", count)
	}
	for p, f := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d := parse(t, p, src, f, Limits{})
		for _, pr := range d.Problems {
			t.Errorf("%s:%d:%d: %s: %s", p, pr.Span.Start.Line, pr.Span.Start.Col, pr.Kind, pr.Message)
		}
		if d.Root == nil && len(d.Problems) == 0 && len(src) > 0 {
			t.Logf("%s: empty document", p)
		}
		if err := checkDoc(d); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if err := checkSpanText(d); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// checkText verifies that spans cover the right text: a plain single-line scalar's span is its
// value, a quoted one starts and ends with its quote, a plain key's span is the key, a flow
// collection's span is bracketed.
func checkSpanText(d *Document) error {
	var err error
	for _, r := range append([]*Node{d.Root}, d.More...) {
		r.Walk(func(n *Node) bool {
			if err != nil || n.Alias {
				return false
			}
			got := text(d, n.Span)
			switch {
			case n.Kind == Scalar && n.Style == "plain" && !strings.ContainsAny(got, "\n\r\u0085\u2028\u2029") && got != n.Value:
				err = fmt.Errorf("%s: plain span %q, value %q", n.Path(), got, n.Value)
			case n.Style == "double" && (len(got) < 2 || got[0] != '"' || got[len(got)-1] != '"'),
				n.Style == "single" && (len(got) < 2 || got[0] != '\'' || got[len(got)-1] != '\''):
				err = fmt.Errorf("%s: quoted span %q", n.Path(), got)
			case n.Kind == Map && n.Style == "flow" && d.Format == YAML && (got == "" || got[0] != '{' || got[len(got)-1] != '}') && !implicitPair(n, got),
				n.Kind == Seq && n.Style == "flow" && (got == "" || got[0] != '[' || got[len(got)-1] != ']'):
				err = fmt.Errorf("%s: flow span %q", n.Path(), got)
			case n.Kind == Scalar && (n.Style == "literal" || n.Style == "folded") && !strings.HasPrefix(got, "|") && !strings.HasPrefix(got, ">"):
				err = fmt.Errorf("%s: block span %q", n.Path(), got)
			}
			if n.Parent != nil && n.Parent.Kind == Map && d.Format != TOML {
				k := text(d, n.KeySpan)
				// Quoted, complex (flow or block) and alias keys are written differently from
				// their text.
				// A Python key may be computed (an f-string, a variable, config[name]); a gin dict
				// key is a literal whose key is its value (True is "true", b'k' is "k").
				computed := d.Format == Python || d.Format == Gin && n.Parent.Style == "flow" && k != ""
				if k != n.Key && !computed && n.flags&yamlComplexKey == 0 && (k == "" || !strings.ContainsRune("\"'[{*&!|>", rune(k[0]))) && !strings.ContainsAny(k, "\r\n") {
					err = fmt.Errorf("%s: key span %q, key %q", n.Path(), k, n.Key)
				}
			}
			return err == nil
		})
	}
	return err
}

// implicitPair reports a YAML single-pair mapping written inside a flow sequence without braces
// ("[k: v]"): yaml.v3 gives it flow style, and its span is the pair itself (empty when both the
// key and the value are, as in "[&a :]").
func implicitPair(n *Node, text string) bool {
	return n.Parent != nil && n.Parent.Kind == Seq && n.Parent.Style == "flow" && len(n.Children) == 1 && (text == "" || text[0] != '{')
}
