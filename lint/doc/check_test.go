package doc

import (
	"fmt"
	"regexp"
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
			what := "node " + n.Path.String()
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
				if len(n.Path) != len(n.Parent.Path)+1 {
					err = fmt.Errorf("%s: path length %d under parent %d", what, len(n.Path), len(n.Parent.Path))
					return false
				}
				last := n.Path[len(n.Path)-1]
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

func mustParse(t *testing.T, f Format, src string) *Document {
	t.Helper()
	d := Parse("t."+string(f), []byte(src), f, Limits{})
	if err := checkDoc(d); err != nil {
		t.Fatalf("invariant: %v\nsrc:\n%s", err, src)
	}
	return d
}

func rules(d *Document) []string {
	var out []string
	for _, p := range d.Problems {
		out = append(out, p.Rule)
	}
	return out
}

func regexpMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }

// problemCase is a source that must give exactly one problem: its rule, start and message (a
// regular expression).
type problemCase struct {
	src, rule string
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
	if p.Rule != c.rule || p.Span.Start.Line != c.line || p.Span.Start.Col != c.col || !regexpMatch(c.msg, p.Message) {
		t.Errorf("%.40q: got %s %d:%d %q; want %s %d:%d %q", c.src, p.Rule, p.Span.Start.Line, p.Span.Start.Col, p.Message, c.rule, c.line, c.col, c.msg)
	}
	if (p.Rule != "duplicate-key") != (d.Root == nil) {
		t.Errorf("%.40q: root %v after %s", c.src, d.Root, p.Rule)
	}
	return p
}
