package doc

import (
	"bytes"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// parseYAML is a first YAML front-end: positions from yaml.v3 nodes, value ends estimated from
// the source. (To be hardened: exact end spans for every scalar style, duplicate keys, limits.)
func parseYAML(d *Document, lim Limits) {
	dec := yaml.NewDecoder(bytes.NewReader(d.Src))
	first := true
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			d.Problems = append(d.Problems, Problem{Rule: "parse-error", Message: err.Error(), Span: d.Lines().Span(0, 0)})
			d.Root = nil
			return
		}
		root := n.Content
		if len(root) == 0 {
			continue
		}
		conv := yamlConv{d: d, x: d.Lines()}
		node := conv.node(root[0], nil, PathElem{}, false)
		if first {
			d.Root = node
			first = false
		} else {
			d.More = append(d.More, node)
		}
	}
}

type yamlConv struct {
	d *Document
	x *LineIndex
}

func (c *yamlConv) pos(line, col int) Pos {
	return c.x.Pos(c.x.Offset(line, col))
}

func (c *yamlConv) node(y *yaml.Node, parent *Node, elem PathElem, hasElem bool) *Node {
	for y.Kind == yaml.AliasNode && y.Alias != nil {
		y = y.Alias
	}
	n := &Node{Parent: parent}
	if parent != nil && hasElem {
		n.Path = parent.Path.Append(elem)
	}
	start := c.pos(y.Line, y.Column)
	n.Span = Span{Start: start, End: start}
	switch y.Kind {
	case yaml.MappingNode:
		n.Kind = Map
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			child := c.node(v, n, PathElem{Key: k.Value}, true)
			child.Key = k.Value
			child.Index = len(n.Children)
			ks := c.pos(k.Line, k.Column)
			child.KeySpan = Span{Start: ks, End: c.x.Pos(ks.Offset + len(k.Value))}
			n.Children = append(n.Children, child)
		}
	case yaml.SequenceNode:
		n.Kind = Seq
		for i, v := range y.Content {
			child := c.node(v, n, PathElem{Index: i, IsIndex: true}, true)
			child.Index = i
			n.Children = append(n.Children, child)
		}
	default:
		n.Kind = Scalar
		n.Value = y.Value
		n.Quoted = y.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0
		switch y.ShortTag() {
		case "!!int":
			n.Type = Int
		case "!!float":
			n.Type = Float
		case "!!bool":
			n.Type = Bool
		case "!!null":
			n.Type = Null
		default:
			n.Type = String
		}
		if IsPlaceholder(n.Value) && n.Type == String {
			n.Type = Unknown
		}
		end := start.Offset + len(y.Value)
		if n.Quoted {
			end += 2
		}
		if end > len(c.d.Src) {
			end = len(c.d.Src)
		}
		n.Span.End = c.x.Pos(end)
	}
	return n
}

// IsPlaceholder reports whether a string value is decided later: an interpolation, Hydra's
// mandatory "???", DeepSpeed's "auto", or gin's %gin.REQUIRED.
func IsPlaceholder(s string) bool {
	s = strings.TrimSpace(s)
	return strings.Contains(s, "${") || s == "???" || s == "auto" || s == "%gin.REQUIRED"
}
