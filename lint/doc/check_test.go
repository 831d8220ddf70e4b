package doc

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// checkDoc verifies the invariants every front-end must keep, and returns the first violation.
func checkDoc(d *Document) error {
	x := NewLineIndex(d.Src)
	checkSpan := func(what string, s Span) error {
		if s.Start.Offset < 0 || s.End.Offset > len(d.Src) || s.Start.Offset > s.End.Offset {
			return fmt.Errorf("%s: span %v out of range (len %d)", what, s, len(d.Src))
		}
		for _, p := range []Pos{s.Start, s.End} {
			if want := x.Pos(p.Offset); want != p {
				return fmt.Errorf("%s: position %+v inconsistent with line index %+v", what, p, want)
			}
		}
		return nil
	}
	for _, p := range d.Problems {
		if err := checkSpan("problem "+p.Message, p.Span); err != nil {
			return err
		}
		if p.Related != nil {
			if err := checkSpan("related", *p.Related); err != nil {
				return err
			}
		}
		if p.Message == "" || strings.HasPrefix(p.Message, "yaml:") {
			return fmt.Errorf("bad problem message %q", p.Message)
		}
	}
	for _, c := range d.Comments {
		if err := checkSpan("comment", c.Span); err != nil {
			return err
		}
		if d.Src[c.Span.Start.Offset] != '#' {
			return fmt.Errorf("comment span %v does not start at '#'", c.Span)
		}
	}
	var err error
	check := func(root *Node) {
		root.Walk(func(n *Node) bool {
			if err != nil {
				return false
			}
			path := n.Path()
			what := "node " + path.String()
			if e := checkSpan(what, n.Span); e != nil {
				err = e
				return false
			}
			if n.Kind < Map || n.Kind > Scalar {
				err = fmt.Errorf("%s: bad kind", what)
				return false
			}
			if n.Kind == Scalar && (n.Type < String || n.Type > Unknown) {
				err = fmt.Errorf("%s: bad type %d", what, n.Type)
				return false
			}
			if n.Kind != Scalar && len(n.Children) > 0 && n.Value != "" {
				err = fmt.Errorf("%s: collection with a value", what)
				return false
			}
			if n.Parent != nil {
				if len(path) != n.Depth() || n.Depth() != n.Parent.Depth()+1 {
					err = fmt.Errorf("%s: path length %d, depth %d under parent %d", what, len(path), n.Depth(), n.Parent.Depth())
					return false
				}
				last := path[len(path)-1]
				if n.Parent.Kind == Map && (last.IsIndex || last.Key != n.Key) {
					err = fmt.Errorf("%s: path elem %+v vs key %q", what, last, n.Key)
					return false
				}
				if n.Parent.Kind == Seq && (!last.IsIndex || last.Index != n.Index) {
					err = fmt.Errorf("%s: path elem %+v vs index %d", what, last, n.Index)
					return false
				}
				if n.Parent.Children[n.Index] != n {
					err = fmt.Errorf("%s: index %d is not its place in the parent", what, n.Index)
					return false
				}
				if n.Parent.Kind == Map {
					if e := checkSpan(what+" key", n.KeySpan); e != nil {
						err = e
						return false
					}
				}
				// Python values are made by statements anywhere in the file (config.x = 1 after
				// config = dict()), so only the other formats nest spans.
				if !n.Alias && !n.Parent.Alias && d.Format != Python {
					ps := n.Parent.Span
					for _, s := range []Span{n.Span, n.KeySpan} {
						if s.IsZero() {
							continue
						}
						if s.Start.Offset < ps.Start.Offset || s.End.Offset > ps.End.Offset {
							err = fmt.Errorf("%s: span %d-%d outside parent %d-%d", what, s.Start.Offset, s.End.Offset, ps.Start.Offset, ps.End.Offset)
							return false
						}
					}
				}
			}
			return true
		})
	}
	if d.Root != nil {
		check(d.Root)
	}
	for _, m := range d.More {
		check(m)
	}
	return err
}

// text returns the source text a span covers.
func text(d *Document, s Span) string { return string(d.Src[s.Start.Offset:s.End.Offset]) }

// parse reads src as every document test does: a YAML file is read twice, by default (the
// direct reader, which passes what it declines to yaml.v3) and with the direct reader switched
// off (Options.NoDirectYAML). The test fails unless the switch made yaml.v3 read the file and
// the two Documents agree in everything dumpDoc shows. It returns the default Document; as the
// two are equal, every assertion a test makes on it holds on the yaml.v3 path too.
func parse(t testing.TB, path string, src []byte, f Format, lim Limits) *Document {
	t.Helper()
	d := Parse(path, src, f, lim)
	if f != YAML {
		return d
	}
	v3 := ParseWith(path, src, f, Options{Limits: lim, NoDirectYAML: true})
	if v3.YAMLReader != YAMLv3 && d.YAMLReader != YAMLNone {
		t.Errorf("%s: with NoDirectYAML the %s reader read the file, want yaml.v3", path, v3.YAMLReader)
	}
	if !sameDoc(d, v3) {
		t.Errorf("%s: the %s reader and yaml.v3 alone read it differently (%s)", path, d.YAMLReader, lineDiff(dumpDoc(v3), dumpDoc(d)))
	}
	return d
}

// sameComment compares two comments field by field (Comment is not comparable).
func sameComment(a, b Comment) bool {
	return a.Text == b.Text && a.Span == b.Span && a.Trailing == b.Trailing
}

// sameDoc reports whether two Documents agree in everything dumpDoc shows, without rendering
// them (the robust tests read files of hundreds of thousands of nodes).
func sameDoc(a, b *Document) bool {
	if a.CRLF != b.CRLF || len(a.More) != len(b.More) || !slices.EqualFunc(a.Comments, b.Comments, sameComment) || len(a.Problems) != len(b.Problems) {
		return false
	}
	for i, p := range a.Problems {
		q := b.Problems[i]
		if p.Kind != q.Kind || p.Message != q.Message || p.Readers != q.Readers || p.Span != q.Span || p.RelatedMessage != q.RelatedMessage ||
			(p.Related == nil) != (q.Related == nil) || p.Related != nil && *p.Related != *q.Related {
			return false
		}
	}
	if !sameNode(a.Root, b.Root, nil, nil) {
		return false
	}
	for i := range a.More {
		if !sameNode(a.More[i], b.More[i], nil, nil) {
			return false
		}
	}
	return true
}

func sameNode(x, y, px, py *Node) bool {
	if x == nil || y == nil {
		return x == y
	}
	if x.Kind != y.Kind || x.Type != y.Type || x.Style != y.Style || x.Value != y.Value || x.Quoted != y.Quoted ||
		x.Key != y.Key || x.Index != y.Index || !slices.EqualFunc(x.Path(), y.Path(), samePathElem) || x.KeySpan != y.KeySpan ||
		x.Span != y.Span || x.Alias != y.Alias || x.flags != y.flags || (x.Parent == px) != (y.Parent == py) ||
		len(x.Children) != len(y.Children) {
		return false
	}
	for i := range x.Children {
		if !sameNode(x.Children[i], y.Children[i], x, y) {
			return false
		}
	}
	return true
}

func mustParse(t *testing.T, f Format, src string) *Document {
	t.Helper()
	d := parse(t, "t."+string(f), []byte(src), f, Limits{})
	if err := checkDoc(d); err != nil {
		t.Fatalf("invariant: %v\nsrc:\n%s", err, src)
	}
	return d
}

func regexpMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }

// problemCase is a source that must give exactly one problem: its kind, start and message (a
// regular expression).
type problemCase struct {
	src       string
	kind      ProblemKind
	line, col int
	msg       string
}

// checkProblem parses c.src and asserts c's one problem, and that the tree is kept after a
// duplicate key and dropped after any other problem. It returns the problem, or nil when there
// was not exactly one.
func checkProblem(t *testing.T, f Format, c problemCase) *Problem {
	t.Helper()
	d := mustParse(t, f, c.src)
	if len(d.Problems) != 1 {
		t.Errorf("%.40q: problems %+v", c.src, d.Problems)
		return nil
	}
	p := &d.Problems[0]
	if p.Kind != c.kind || p.Span.Start.Line != c.line || p.Span.Start.Col != c.col || !regexpMatch(c.msg, p.Message) {
		t.Errorf("%.40q: got %s %d:%d %q; want %s %d:%d %q", c.src, p.Kind, p.Span.Start.Line, p.Span.Start.Col, p.Message, c.kind, c.line, c.col, c.msg)
	}
	if (p.Kind != DuplicateKey && p.Kind != NonStandard) != (d.Root == nil) {
		t.Errorf("%.40q: root %v after %s", c.src, d.Root, p.Kind)
	}
	return p
}

// TestSameDocSeesDifferences: the comparison behind every two-reader check notices a change in
// any part of a Document it compares.
func TestSameDocSeesDifferences(t *testing.T) {
	src := []byte("a: 1 # c\nb: [x, {y: 2}]\na: 3\n")
	fresh := func() *Document { return Parse("x.yaml", src, YAML, Limits{}) }
	if d := fresh(); d.Root == nil || len(d.Problems) != 1 || len(d.Comments) != 1 || !sameDoc(d, fresh()) {
		t.Fatalf("want a tree, one duplicate-key problem, one comment, and equal parses: %+v", d)
	}
	for name, change := range map[string]func(d *Document){
		"value":          func(d *Document) { d.Root.Children[0].Value = "2" },
		"deep span":      func(d *Document) { d.Root.Children[1].Children[1].Children[0].Span.End.Col++ },
		"key span":       func(d *Document) { d.Root.Children[1].KeySpan.Start.Offset++ },
		"path":           func(d *Document) { d.Root.Children[1].Children[0].Parent = d.Root.Children[0] },
		"type":           func(d *Document) { d.Root.Children[0].Type = String },
		"style":          func(d *Document) { d.Root.Children[1].Style = "block" },
		"parent":         func(d *Document) { d.Root.Children[1].Children[0].Parent = d.Root },
		"children":       func(d *Document) { d.Root.Children = d.Root.Children[:1] },
		"comment":        func(d *Document) { d.Comments[0].Trailing = false },
		"problem":        func(d *Document) { d.Problems[0].Message += "!" },
		"related":        func(d *Document) { d.Problems[0].Related.Start.Line++ },
		"more documents": func(d *Document) { d.More = append(d.More, d.Root) },
		"line endings":   func(d *Document) { d.CRLF = true },
	} {
		d := fresh()
		change(d)
		if sameDoc(d, fresh()) || sameDoc(fresh(), d) {
			t.Errorf("%s: a changed Document compares equal", name)
		}
	}
}

// samePathElem compares two path elements field by field (PathElem is not comparable).
func samePathElem(a, b PathElem) bool {
	return a.Key == b.Key && a.Index == b.Index && a.IsIndex == b.IsIndex
}
