//go:build !trainlint_lite

package doc

// yaml.v3 reads what the direct reader declines; the light build (lite.go) has no yaml.v3.

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// parseYAMLv3 reads d.Src through yaml.v3: every file the direct reader (yamlfast.go) leaves.
func parseYAMLv3(d *Document, lim Limits) {
	src, standIn := yamlSlashes(d.Src)
	src = yamlVersionDirectives(src)
	c := &yamlConv{d: d, x: d.Lines(), src: src, lim: lim, clamped: -1}
	c.yx = c.x
	if hasUnicodeBreak(d.Src) {
		c.yx = yamlLineIndex(d.Src)
	}
	next := yamlDocs(src)
	var roots []*Node
	for {
		var n yaml.Node
		err := next(&n)
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			c.syntaxError(err)
			return
		}
		if n.Kind != yaml.DocumentNode || len(n.Content) == 0 {
			continue
		}
		c.alloc.reserve(yamlSize(n.Content[0]))
		c.defined = nil // PyYAML forgets a document's anchors at its end (composer.py:54)
		node, _ := c.conv(n.Content[0], nil, 0, -1, false)
		if c.fatal {
			d.Root, d.More = nil, nil
			return
		}
		if c.dupAnchor != "" && kubeObject(node) {
			// A Kubernetes object (apiVersion and kind at its top) is read by kubectl and
			// its Go tooling, whose YAML (sigs.k8s.io/yaml over go-yaml v2: decode.go:135-137
			// at v2.4.0, as yaml.v3 here) rebinds the name: the alias takes the latest.
			c.dupAnchor = ""
		}
		if c.dupAnchor != "" {
			// PyYAML composes the stream document by document and stops at the first
			// anchor a document defines twice (yaml/composer.py:73-77 at 6.0.2: "found
			// duplicate anchor"), where yaml.v3 rebinds the name: the file loads nowhere.
			d.Root, d.More = nil, nil
			d.addProblem(Syntax, c.dupAnchor, c.dupAt, c.dupAt+1)
			return
		}
		roots = append(roots, node)
	}
	if len(roots) > 0 {
		d.Root = roots[0]
	}
	if len(roots) > 1 {
		d.More = roots[1:]
	}
	if standIn.esc != 0 {
		standIn.restore(d.Src, roots)
		c.src = d.Src
	}
	c.comments()
}

// The escape \/ in a double-quoted scalar is YAML 1.2's and PyYAML's (scanner.py's
// ESCAPE_REPLACEMENTS since 4.1, first released in 5.1): it means "/". yaml.v3 refuses it ("found
// unknown escape character"), which made a file every YAML framework loads a parse error. So
// yaml.v3 is given the file with each \/ whose backslash is not itself escaped rewritten to a
// two-byte escape the file does not use (\a if it can), whose character YAML forbids written raw;
// the rewrite keeps every offset. After the conversion, a double-quoted value or key gets "/"
// back for that character, and any other (plain, single-quoted, block: where a backslash is a
// backslash) gets its \/ back for the stand-in's two characters. A file that uses every stand-in
// keeps yaml.v3's refusal.
type slashStandIn struct{ esc, char byte }

var slashStandIns = []slashStandIn{{'a', 0x07}, {'b', 0x08}, {'v', 0x0b}, {'f', 0x0c}, {'e', 0x1b}}

// yamlSlashes returns src with its \/ escapes rewritten and the stand-in used, or src and a zero
// stand-in when it has none or every stand-in occurs in it.
func yamlSlashes(src []byte) ([]byte, slashStandIn) {
	if bytes.Index(src, []byte(`\/`)) < 0 {
		return src, slashStandIn{}
	}
	for _, s := range slashStandIns {
		if bytes.Contains(src, []byte{'\\', s.esc}) || bytes.IndexByte(src, s.char) >= 0 {
			continue
		}
		out := bytes.Clone(src)
		for i := 1; i < len(out); i++ {
			if out[i] != '/' || out[i-1] != '\\' {
				continue
			}
			run := 0 // the backslashes before the slash: an odd run escapes it
			for k := i - 1; k >= 0 && src[k] == '\\'; k-- {
				run++
			}
			if run%2 == 1 {
				out[i] = s.esc
			}
		}
		return out, s
	}
	return src, slashStandIn{}
}

// restore puts the slashes back into the values and keys of the trees converted from the
// rewritten source.
func (s slashStandIn) restore(src []byte, roots []*Node) {
	double, other := string(rune(s.char)), string([]byte{'\\', s.esc})
	fix := func(v string, quoted bool) string {
		if quoted {
			return strings.ReplaceAll(v, double, "/")
		}
		return strings.ReplaceAll(v, other, `\/`)
	}
	for _, r := range roots {
		r.Walk(func(n *Node) bool {
			if n.Kind == Scalar {
				n.Value = fix(n.Value, n.Style == "double")
			}
			if n.Key != "" {
				o := n.KeySpan.Start.Offset
				n.Key = fix(n.Key, !n.KeySpan.IsZero() && o < len(src) && src[o] == '"')
			}
			return true
		})
	}
}

// yamlSize counts what converting y takes from a nodeAlloc, aliases not expanded: nodes (one
// per value; mapping keys are not nodes) and child-list slots (for lists of up to 64 children,
// which come from the allocator's block).
func yamlSize(y *yaml.Node) (nodes, kids int) {
	nodes = 1
	if y.Kind != yaml.MappingNode && y.Kind != yaml.SequenceNode {
		return
	}
	step, first := 1, 0
	if y.Kind == yaml.MappingNode {
		step, first = 2, 1
	}
	if k := len(y.Content) / step; k <= 64 {
		kids = k
	}
	for i := first; i < len(y.Content); i += step {
		n, k := yamlSize(y.Content[i])
		nodes, kids = nodes+n, kids+k
	}
	return
}

// yamlDocs returns a function that decodes the stream's documents one by one (io.EOF at the
// end). A file without document markers is decoded from the bytes directly, which saves
// yaml.v3's reader buffering; a stream goes through a Decoder.
func yamlDocs(src []byte) func(*yaml.Node) error {
	if !multiDoc(src) {
		done := false
		return func(n *yaml.Node) error {
			if done {
				return io.EOF
			}
			done = true
			if err := yaml.Unmarshal(src, n); err != nil {
				return err
			}
			if n.Kind == 0 {
				return io.EOF
			}
			return nil
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	return func(n *yaml.Node) error { return dec.Decode(n) }
}

// release drops y's i-th child once it is converted, so that the garbage collector can reclaim
// the yaml.v3 tree while ours grows (it matters for files of many megabytes). Nodes inside an
// anchored node are kept: an alias may convert them again.
func (c *yamlConv) release(y *yaml.Node, i int, aliased bool) {
	if !aliased && c.anchored == 0 {
		y.Content[i] = nil
	}
}

// conv converts y (with path) into a Node under parent. indent is the indentation of the block
// collection that contains y (-1 at the top), which block scalars with an explicit indentation
// indicator are relative to. aliased marks copies reached through an alias. It returns the node
// and the end offset of y's text where it is written (for an alias, the end of `*name`).
func (c *yamlConv) conv(y *yaml.Node, parent *Node, depth, indent int, aliased bool) (*Node, int) {
	if c.fatal {
		return nil, 0
	}
	off := c.offset(y.Line, y.Column)
	if y.Anchor != "" {
		if !aliased && c.dupAnchor == "" {
			c.defineAnchor(y.Anchor, off)
		}
		c.anchored++
		defer func() { c.anchored-- }()
	}
	c.nodes++
	if c.nodes > c.lim.MaxNodes {
		c.limit(limitMessage("the document expands to more than "+itoa(c.lim.MaxNodes)+" nodes", "max_nodes"), off)
		return nil, 0
	}
	if c.nodes > aliasBudget(len(c.src), c.lim) {
		c.limit(limitMessage("aliases expand the document to more than "+itoa(aliasBudget(len(c.src), c.lim))+
			" nodes (its size in bytes plus a twentieth of max_nodes)", "max_nodes"), off)
		return nil, 0
	}
	if depth > c.lim.MaxDepth {
		c.limit(limitMessage("nesting is deeper than "+itoa(c.lim.MaxDepth)+" levels", "max_depth"), off)
		return nil, 0
	}
	if !aliased {
		c.origin = off
	}
	if y.Kind == yaml.AliasNode {
		end := c.tokenEnd(off + 1)
		c.aliases++
		if c.aliases > c.lim.MaxAliases {
			c.limit(limitMessage("aliases are expanded more than "+itoa(c.lim.MaxAliases)+" times", "max_aliases"), off)
			return nil, 0
		}
		t := y.Alias
		if t == nil {
			c.fatal = true
			c.d.addProblem(Syntax, "alias "+strconv.Quote("*"+y.Value)+" refers to an undefined anchor", off, end)
			return nil, 0
		}
		if c.active[t] {
			c.fatal = true
			c.d.addProblem(Syntax, "alias "+strconv.Quote("*"+y.Value)+" is used inside its own anchor's value; a recursive structure cannot be a config", off, end)
			return nil, 0
		}
		if c.active == nil {
			c.active = map[any]bool{}
		}
		c.active[t] = true
		n, _ := c.conv(t, parent, depth, indent, true)
		delete(c.active, t)
		if n == nil {
			return nil, 0
		}
		n.Alias = true
		st := c.startPos(y, off, off)
		n.Span = Span{Start: st, End: c.after(st, end)}
		return n, end
	}

	n := c.alloc.new()
	n.setParent(parent)
	n.Alias = aliased
	p := c.skipProps(off)
	if y.Kind == yaml.ScalarNode && y.Value == "" && y.Style == 0 && off > 0 && (c.src[off-1] == ':' || c.src[off-1] == '-') && !c.propsAt(off) {
		// A value left out ("key:" or "-" and a line break): yaml.v3 places it at the end of
		// the ':' or '-', where a value would be written. Skipping to the next token would put it
		// on a later line, and a finding about it there. (Other empty nodes, such as the key of
		// a bare '?', keep the next token's position, as their mapping's span does.)
		p = off
	}
	sp := c.startPos(y, off, p)
	end := p
	if y.Style&yaml.TaggedStyle != 0 && !aliased && !coreTags[y.Tag] {
		c.d.Tagged = append(c.d.Tagged, Tagged{Node: n, Tag: y.Tag})
	}
	switch y.Kind {
	case yaml.ScalarNode:
		n.Kind = Scalar
		n.Value = y.Value
		var style string
		style, end = c.scalarEnd(y, p, indent, aliased)
		n.Style = style
		n.Quoted = style == "single" || style == "double"
		n.Type = yamlType(y)
		if n.Type == String && IsPlaceholder(n.Value) {
			n.Type = Unknown
		}
		if !aliased && c.badTag(y, p, end) {
			n.Type = Unknown
		}
	case yaml.MappingNode:
		n.Kind = Map
		end = c.mapping(n, y, p, depth, aliased)
	case yaml.SequenceNode:
		n.Kind = Seq
		end = c.sequence(n, y, p, sp, depth, aliased)
	default:
		// A document node cannot appear inside a document; treat it as an empty value.
		n.Kind = Scalar
		n.Type = Null
		n.Style = "plain"
	}
	if c.fatal {
		return nil, 0
	}
	if n.Kind != Map || n.Style == "flow" {
		n.Span.Start = sp
	}
	if end < n.Span.Start.Offset {
		end = n.Span.Start.Offset
	}
	n.Span.End = c.after(n.Span.Start, end)
	return n, end
}

// coreTags are the explicit tags (yaml.v3's short forms) of the types PyYAML's SafeLoader
// builds (yaml/constructor.py, SafeConstructor, unchanged from 5.1 to 6.0.3) and yaml.v3
// decodes, less !!set and !!timestamp, which build a Python set and date that some loaders'
// configs cannot hold (OmegaConf's): tags outside them go to Document.Tagged.
var coreTags = map[string]bool{"!!null": true, "!!bool": true, "!!int": true, "!!float": true, "!!str": true,
	"!!seq": true, "!!map": true, "!!binary": true, "!!omap": true, "!!pairs": true}

// defineAnchor records the anchor name defined at off (a node's start, as yaml.v3 reads it:
// before the anchor, or at it) and notes the first one the document already defined.
func (c *yamlConv) defineAnchor(name string, off int) {
	if first, ok := c.defined[name]; ok {
		at := off
		if i := bytes.Index(c.src[min(off, len(c.src)):], []byte("&"+name)); i >= 0 {
			at = off + i
		}
		c.dupAnchor = "anchor &" + name + " is defined a second time (first on line " + itoa(c.x.Pos(first).Line) +
			"): PyYAML, which the frameworks load YAML with, refuses the file (\"found duplicate anchor\"); give one of them another name"
		c.dupAt = at
		return
	}
	if c.defined == nil {
		c.defined = map[string]int{}
	}
	c.defined[name] = off
}

// badTag reports a scalar whose explicit tag its text does not fit ("!!int abc"): yaml.v3 keeps
// it silently, but loaders (PyYAML, OmegaConf, yaml.v3 decoding into a value) refuse the file.
func (c *yamlConv) badTag(y *yaml.Node, start, end int) bool {
	if y.Tag == "" || y.Tag == "!" {
		return false
	}
	want := y.ShortTag()
	if want != "!!int" && want != "!!float" {
		// !!bool and !!null differ between loaders (YAML 1.1's "yes", PyYAML's null of any
		// text); only numbers are refused by all of them.
		return false
	}
	got := (&yaml.Node{Kind: yaml.ScalarNode, Value: y.Value}).ShortTag()
	if got == want || want == "!!float" && (got == "!!int" || pyYAMLFloat(y.Value)) {
		return false
	}
	what := "an integer"
	if want == "!!float" {
		what = "a number"
	}
	c.d.addProblem(Syntax, "value "+strconv.Quote(y.Value)+" is tagged "+want+" but is not "+what+"; YAML loaders refuse this file", start, end)
	return true
}

func yamlType(y *yaml.Node) Type {
	switch t := y.ShortTag(); t {
	case "!!int", "!!float":
		if y.Style&yaml.TaggedStyle == 0 && !loaderNumber(y.Value) {
			return String // as plainType: a number to yaml.v3 alone
		}
		if t == "!!int" {
			return Int
		}
		return Float
	case "!!bool":
		return Bool
	case "!!null":
		return Null
	case "!!str":
		if y.Style == 0 && yaml11Bool(y.Value) {
			return Bool // as plainType
		}
	}
	return String
}

// startPos is the position of a node's content at p; off is where yaml.v3 says the node starts
// (its anchor or tag, if any). yaml.v3 counts lines and columns as LineIndex does (code points,
// after a BOM), so the common case needs no search.
func (c *yamlConv) startPos(y *yaml.Node, off, p int) Pos {
	if p == off && off != c.clamped && c.yx == c.x {
		return Pos{Line: y.Line, Col: y.Column, Offset: off}
	}
	return c.x.Pos(p)
}

func (c *yamlConv) mapping(n *Node, y *yaml.Node, p int, depth int, aliased bool) int {
	flow := y.Style&yaml.FlowStyle != 0
	n.Style = "block"
	if flow {
		n.Style = "flow"
	}
	pairs := len(y.Content) / 2
	n.Children = c.alloc.children(pairs)
	// The indentation of this block mapping: its first key's column.
	myIndent := -1
	if pairs > 0 && !flow {
		myIndent = y.Content[0].Column - 1
	}
	hasMerge := false
	for i := 0; i < len(y.Content)-1; i += 2 {
		if isMergeKey(y.Content[i]) {
			hasMerge = true
			break
		}
	}
	// explicit holds the keys written in this mapping; merged entries never override them.
	var explicit map[string]bool
	if hasMerge {
		explicit = map[string]bool{}
		for i := 0; i < len(y.Content)-1; i += 2 {
			if k := y.Content[i]; !isMergeKey(k) && k.Kind == yaml.ScalarNode {
				explicit[k.Value] = true
			}
		}
	}
	var seen map[string]int // key -> index of its first occurrence, for large mappings
	last := p
	start := -1
	var startPos Pos
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if isMergeKey(k) {
			ks := c.offset(k.Line, k.Column)
			if start < 0 {
				start = ks
				startPos = c.startPos(k, ks, ks)
			}
			mv, mend := c.conv(v, n, depth+1, myIndent, aliased)
			if c.fatal {
				return 0
			}
			last = max(last, mend)
			if v.Kind == yaml.ScalarNode && strings.HasPrefix(v.Tag, "!") && !strings.HasPrefix(v.Tag, "!!") {
				// `<<: !include common.yaml`: the loader's constructor for its own tag makes the
				// mapping (ESPHome's yaml_util.py loads the file and merges what it returns), so
				// nothing is wrong with it, and what it merges is not known here.
				continue
			}
			if !mergeable(mv) {
				c.fatal = true
				c.d.Problems = append(c.d.Problems, Problem{Kind: Syntax, Span: mv.Span,
					Message: "the merge key \"<<\" needs a mapping, an alias of one, or a list of them; YAML loaders reject this value"})
				return 0
			}
			c.merge(n, mv, explicit)
			continue
		}
		kspan, ke, key := c.keySpan(k, myIndent, aliased)
		if c.fatal {
			return 0
		}
		if start < 0 {
			start = kspan.Start.Offset
			startPos = kspan.Start
		}
		child, vend := c.conv(v, n, depth+1, myIndent, aliased)
		if c.fatal {
			return 0
		}
		if child.Kind == Scalar && child.Value == "" && child.Span.Start == child.Span.End && child.Span.Start.Offset < ke {
			// yaml.v3 can mark an empty value before its key ends (a bare '?' key before a
			// comment and a lone CR); a value cannot come before its key.
			child.Span = Span{Start: kspan.End, End: kspan.End}
		}
		last = max(last, ke, vend)
		child.Key = key
		child.KeySpan = kspan
		if k.Kind != yaml.ScalarNode && k.Kind != yaml.AliasNode && unhashableTag[k.Tag] {
			// Another tag names a constructor that may return a hashable key (torchdistill's
			// !join makes a string of a list; FullLoader's !!python/tuple a tuple).
			child.flags |= yamlComplexKey
		}
		if !aliased && k.Kind == yaml.ScalarNode {
			c.checkDup(n, child, &seen)
		}
		child.Index = len(n.Children)
		n.Children = append(n.Children, child)
		c.release(y, i, aliased)
		c.release(y, i+1, aliased)
	}
	if flow {
		return c.flowEnd(p, last, '}')
	}
	if start < 0 {
		startPos = c.pos(p)
	}
	n.Span.Start = startPos
	return last
}

// isMergeKey reports a `<<` key that yaml.v3 resolved as a merge (a quoted "<<" is a string).
func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.ShortTag() == "!!merge"
}

// keySpan returns the span of a mapping key, its end offset and its text.
func (c *yamlConv) keySpan(k *yaml.Node, indent int, aliased bool) (Span, int, string) {
	off := c.offset(k.Line, k.Column)
	switch k.Kind {
	case yaml.ScalarNode:
		p := c.skipProps(off)
		_, end := c.scalarEnd(k, p, indent, aliased)
		st := c.startPos(k, off, p)
		if !aliased {
			c.badTag(k, p, end) // a key is constructed like a value ("!!int fp16: x" is refused)
		}
		return Span{Start: st, End: c.after(st, end)}, end, k.Value
	case yaml.AliasNode:
		end := c.tokenEnd(off + 1)
		st := c.startPos(k, off, off)
		sp := Span{Start: st, End: c.after(st, end)}
		if k.Alias != nil && k.Alias.Kind == yaml.ScalarNode {
			return sp, end, k.Alias.Value
		}
		return sp, end, ""
	}
	// A complex key (a mapping or sequence used as a key): no text to look it up by.
	kn, end := c.conv(k, nil, 0, indent, aliased)
	if kn == nil {
		st := c.pos(off)
		return Span{Start: st, End: st}, off, ""
	}
	return kn.Span, end, ""
}

func (c *yamlConv) sequence(n *Node, y *yaml.Node, p int, sp Pos, depth int, aliased bool) int {
	flow := y.Style&yaml.FlowStyle != 0
	n.Style = "block"
	if flow {
		n.Style = "flow"
	}
	myIndent := -1
	if !flow {
		myIndent = sp.Col - 1
	}
	n.Children = c.alloc.children(len(y.Content))
	last := p + 1
	for i, v := range y.Content {
		child, vend := c.conv(v, n, depth+1, myIndent, aliased)
		if c.fatal {
			return 0
		}
		child.Index = i
		last = max(last, vend)
		n.Children = append(n.Children, child)
		c.release(y, i, aliased)
	}
	if flow {
		return c.flowEnd(p, last, ']')
	}
	return last
}

// scalarEnd returns a scalar's style and the end offset of its text, which starts at p.
func (c *yamlConv) scalarEnd(y *yaml.Node, p, indent int, aliased bool) (string, int) {
	s := c.src
	switch {
	case y.Style&yaml.DoubleQuotedStyle != 0 && p < len(s) && s[p] == '"':
		i := p + 1
		for i < len(s) {
			if s[i] == '\\' {
				i += 2
				continue
			}
			if s[i] == '"' {
				i++
				break
			}
			i++
		}
		i = min(i, len(s))
		if !aliased {
			c.noComment = append(c.noComment, [2]int{p, i})
		}
		return "double", i
	case y.Style&yaml.SingleQuotedStyle != 0 && p < len(s) && s[p] == '\'':
		i := p + 1
		for i < len(s) {
			if s[i] == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					i += 2
					continue
				}
				i++
				break
			}
			i++
		}
		if !aliased {
			c.noComment = append(c.noComment, [2]int{p, i})
		}
		return "single", i
	case y.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 && p < len(s) && (s[p] == '|' || s[p] == '>'):
		style := "literal"
		if s[p] == '>' {
			style = "folded"
		}
		return style, c.blockEnd(p, indent, aliased)
	}
	return "plain", c.plainEnd(p, y.Value)
}

// bisectErrorLine finds the first line L such that the file cut after line L fails with the
// same message: that is where the parser meets the problem. It gives up (0) on large files.
// When yaml.v3 names a line for the whole file before its last one, a cut must fail there too:
// a cut that ends inside an open flow collection (`values: [` on line 2 of a file whose error
// is a `???` inside a later one) fails with the same message at the cut's own end, which says
// nothing about the whole file's error. A line at or past the last is no such place: yaml.v3
// gives the start of the enclosing quote or bracket only when it is past the first line
// (decode.go fail: context_mark.line != 0), and the end of the stream otherwise (an unclosed
// quote on line 1), where every cut fails at its own end.
func (c *yamlConv) bisectErrorLine(msg string, line int) int {
	if len(c.src) > 1<<20 {
		return 0
	}
	if line >= c.x.NumLines() {
		line = 0
	}
	fails := func(l int) bool {
		err := firstYAMLError(c.src[:c.x.LineEnd(l)])
		if err == nil {
			return false
		}
		l, m := splitYAMLError(err.Error())
		return m == msg && (line <= 0 || l == line)
	}
	lo, hi := 1, c.x.NumLines()
	if !fails(hi) {
		return 0
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// syntaxError turns a yaml.v3 error into a parse-error (or input-limit-exceeded) problem with
// the best position available: yaml.v3 gives at most a line, and often the line where the
// enclosing construct began, so the line is found by parsing growing prefixes of the file.
func (c *yamlConv) syntaxError(err error) {
	c.d.Root, c.d.More = nil, nil
	line, msg := splitYAMLError(err.Error())
	if strings.HasPrefix(msg, "exceeded max depth of ") {
		off := 0
		if line > 0 {
			off = c.x.LineStart(line)
		}
		c.d.addProblem(LimitExceeded, "nesting is deeper than the YAML parser's own limit of "+
			strings.TrimPrefix(msg, "exceeded max depth of ")+" levels, which cannot be raised; the file was not analysed", off, off)
		return
	}
	if l := c.bisectErrorLine(msg, line); l > 0 {
		line = l
	}
	if line < 1 {
		line = 1
	}
	if line > c.x.NumLines() {
		line = c.x.NumLines()
	}
	start, end := c.errorColumn(line, msg)
	text := friendlyYAMLMessage(msg)
	if msg == "did not find expected key" || msg == "did not find expected '-' indicator" {
		ls := c.x.LineStart(line)
		at, what, ok := textAfterClosedValue(c.src[ls:c.x.LineEnd(line)])
		if te := c.trimmedEnd(line); ok && c.parsesWithout(ls+at, te) {
			// `prompt: "a" or "b"`, `path: {dir}/model`: the value ended at its closing
			// quote or bracket, and the rest of the line can be no key (PyYAML: "expected
			// <block end>, but found '<scalar>'" at that text).
			start, end = ls+at, te
			text = "text after the closing " + what + " of a value: YAML ends the value there; quote the whole value (a value starting with a quote, '{' or '[' is read up to its closing one)"
		}
	}
	c.d.addProblem(Syntax, text, start, end)
}

// parsesWithout reports whether the file up to the end of the line holding [from, to) parses
// once that text is removed: the text is then what the parser stopped at, not an indentation
// error of the line itself. Not tried on large files.
func (c *yamlConv) parsesWithout(from, to int) bool {
	if len(c.src) > 1<<20 {
		return false
	}
	end := c.x.LineEnd(c.x.Pos(from).Line)
	cut := make([]byte, 0, end)
	cut = append(append(cut, c.src[:from]...), c.src[to:end]...)
	return firstYAMLError(cut) == nil
}

// firstYAMLError is the first error reading src's documents in turn, nil when all read.
func firstYAMLError(src []byte) error {
	next := yamlDocs(src)
	for {
		var n yaml.Node
		err := next(&n)
		if err == nil {
			continue
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
}

// trimmedEnd is the offset of line's end before trailing blanks.
func (c *yamlConv) trimmedEnd(line int) int {
	ls, end := c.x.LineStart(line), c.x.LineEnd(line)
	for end > ls && (c.src[end-1] == ' ' || c.src[end-1] == '\t' || c.src[end-1] == '\r') {
		end--
	}
	return end
}

// textAfterClosedValue finds, in a block line `key: VALUE rest` or `- VALUE rest` whose value
// starts with a quote or a flow bracket, text after the value's closing quote or bracket that is
// not a comment: the offset of that text in line and what closed the value ("quote" or
// "bracket"). The value must close on the line (a multi-line one is not judged).
func textAfterClosedValue(line []byte) (int, string, bool) {
	blanks := func(i int) int { // the first offset from i that is no space or tab
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		return i
	}
	i := blanks(0)
	if i+1 < len(line) && line[i] == '-' && line[i+1] == ' ' {
		i += 2
	} else {
		k := -1
		for j := i; j+1 < len(line); j++ {
			if line[j] == ':' && (line[j+1] == ' ' || line[j+1] == '\t') {
				k = j - i
				break
			}
		}
		if k <= 0 || bytes.IndexAny(line[i:i+k], "\"'{[#") >= 0 {
			return 0, "", false
		}
		i += k + 2
	}
	if i = blanks(i); i >= len(line) {
		return 0, "", false
	}
	what := "quote"
	switch q := line[i]; q {
	case '"', '\'':
		j := i + 1
		for ; j < len(line); j++ {
			if q == '"' && line[j] == '\\' {
				j++
				continue
			}
			if line[j] == q {
				if q == '\'' && j+1 < len(line) && line[j+1] == '\'' {
					j++ // '' is a quote inside a single-quoted value
					continue
				}
				break
			}
		}
		if j >= len(line) {
			return 0, "", false
		}
		i = j + 1
	case '{', '[':
		what = "bracket"
		depth := 0
		j := i
		for ; j < len(line); j++ {
			switch line[j] {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			case '"', '\'':
				return 0, "", false // quotes inside: not judged
			}
			if depth == 0 {
				break
			}
		}
		if j >= len(line) {
			return 0, "", false
		}
		i = j + 1
	default:
		return 0, "", false
	}
	rest := blanks(i)
	if rest >= len(line) || line[rest] == '#' && rest > i || line[rest] == '\r' {
		return 0, "", false
	}
	return rest, what, true
}

// splitYAMLError strips yaml.v3's "yaml: " and "line N: " prefixes.
func splitYAMLError(s string) (int, string) {
	s = strings.TrimPrefix(s, "yaml: ")
	line := 0
	if strings.HasPrefix(s, "line ") {
		rest := s[len("line "):]
		if i := strings.Index(rest, ": "); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				line = n
				s = rest[i+2:]
			}
		}
	}
	return line, s
}

// errorColumn picks the span on an error's line: the offending character when the message
// names one, else the line's text from its first non-blank character.
func (c *yamlConv) errorColumn(line int, msg string) (int, int) {
	ls, le := c.x.LineStart(line), c.x.LineEnd(line)
	text := c.src[ls:le]
	first := 0
	for first < len(text) && (text[first] == ' ') {
		first++
	}
	switch {
	case strings.Contains(msg, "cannot start any token"):
		if i := bytes.IndexByte(text, '\t'); i >= 0 && i <= first {
			return ls + i, ls + i + 1
		}
		if first < len(text) {
			for i := first; i < len(text); i++ {
				if b := text[i]; (b == '@' || b == '`' || b == '\t') && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t') {
					return ls + i, ls + i + 1
				}
			}
		}
	case strings.HasPrefix(msg, "unknown anchor '"):
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
		if i := bytes.Index(text, []byte("*"+name)); i >= 0 {
			return ls + i, ls + i + 1 + len(name)
		}
	case msg == "did not find expected ',' or ']'" || msg == "did not find expected ',' or '}'":
		open := byte('[')
		if strings.HasSuffix(msg, "'}'") {
			open = '{'
		}
		if i := bytes.LastIndexByte(text, open); i >= 0 {
			return ls + i, ls + i + 1
		}
	case msg == "did not find expected node content":
		// A flow collection opened or continued at the line's end: the node that could not
		// start is the next content, on a later line (a `???` in `values: [` then `???`).
		if t := bytes.TrimRight(text, " \t\r"); len(t) > 0 && (t[len(t)-1] == '[' || t[len(t)-1] == '{' || t[len(t)-1] == ',') {
			for l := line + 1; l <= c.x.NumLines(); l++ {
				ns, ne := c.x.LineStart(l), c.x.LineEnd(l)
				u := bytes.TrimLeft(c.src[ns:ne], " \t")
				if len(u) == 0 || u[0] == '#' || u[0] == '\r' {
					continue
				}
				at := ne - len(u)
				return at, at + 1
			}
		}
	case msg == "did not find expected alphabetic or numeric character":
		if i := bytes.IndexAny(text, "*&"); i >= 0 {
			return ls + i, ls + i + 1
		}
	case strings.Contains(msg, "mapping values are not allowed"):
		seen := 0
		for i := 0; i < len(text); i++ {
			if text[i] == ':' && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t') {
				seen++
				if seen == 2 {
					return ls + i, ls + i + 1
				}
			}
		}
	}
	end := le
	for end > ls+first && (c.src[end-1] == ' ' || c.src[end-1] == '\t') {
		end--
	}
	return ls + first, end
}

// friendlyYAMLMessage rewords yaml.v3's most common messages for people who edit configs.
func friendlyYAMLMessage(m string) string {
	switch {
	case m == "mapping values are not allowed in this context":
		return "unexpected ':' here; a value that contains \": \" must be quoted, and a nested mapping must start on its own line"
	case m == "found character that cannot start any token":
		return "found a character that cannot start a value (YAML is indented with spaces, not tabs; values starting with '@' or '`' must be quoted)"
	case m == "did not find expected key":
		return "expected a key at this indentation; check that this line lines up with its siblings"
	case m == "found unexpected end of stream":
		return "the file ends inside a quoted string or a bracketed collection; a closing quote or bracket is missing"
	case m == "could not find expected ':'":
		return "expected ':' after a key; each line of a mapping is \"key: value\""
	case m == "did not find expected '-' indicator":
		return "expected a '-' list item at this indentation; a list and a mapping cannot share one level"
	case m == "did not find expected alphabetic or numeric character":
		return "expected a name after '*' or '&' (an alias or anchor needs one)"
	case m == "did not find expected ',' or ']'":
		return "expected ',' or ']' in a bracketed list; the list is not closed"
	case m == "did not find expected ',' or '}'":
		return "expected ',' or '}' in a braced mapping; the mapping is not closed"
	case strings.HasPrefix(m, "did not find expected "):
		return "expected " + strings.TrimPrefix(m, "did not find expected ")
	case strings.HasPrefix(m, "unknown anchor '"):
		name := strings.TrimSuffix(strings.TrimPrefix(m, "unknown anchor '"), "' referenced")
		return "alias " + strconv.Quote("*"+name) + " refers to an anchor that is not defined before it"
	case strings.HasPrefix(m, "found unknown escape character"):
		return "unknown escape sequence in a double-quoted string; use single quotes for backslashes"
	}
	return m
}

// pyYAMLFloat reports a text PyYAML's construct_yaml_float reads under an explicit !!float
// (yaml/constructor.py, 5.1 to 6.0.3): underscores dropped, lowercased, a sign, then .inf,
// .nan, base-60 parts, or what Python's float() takes, which includes inf, infinity and nan
// (fast3r's `!!float -inf`).
func pyYAMLFloat(v string) bool {
	v = strings.ToLower(strings.ReplaceAll(v, "_", ""))
	if strings.HasPrefix(v, "+") || strings.HasPrefix(v, "-") {
		v = v[1:] // PyYAML's sign; float() then takes one more
	}
	switch {
	case v == "":
		return false
	case v == ".inf" || v == ".nan":
		return true
	case strings.Contains(v, ":"):
		for _, part := range strings.Split(v, ":") {
			if _, err := strconv.ParseFloat(part, 64); err != nil || strings.HasPrefix(part, "0x") {
				return false
			}
		}
		return true
	case strings.HasPrefix(v, "0x") || strings.Contains(v, "p"):
		return false // Go reads hexadecimal floats, Python's float() does not
	}
	if strings.HasPrefix(v, "+") || strings.HasPrefix(v, "-") {
		v = v[1:]
	}
	if v == "" || v[0] == '+' || v[0] == '-' || v[0] == '.' && len(v) > 1 && (v[1] < '0' || v[1] > '9') {
		return false
	}
	_, err := strconv.ParseFloat(v, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// yamlVersionDirectives reads a `%YAML 1.2` (or any 1.x) directive as `%YAML 1.1`, the one
// version yaml.v3 takes: PyYAML, which the frameworks load configs with, refuses only another
// major version (yaml/parser.py process_directives, 6.0: "found incompatible YAML document (version
// 1.* is required)"). The rewrite keeps every byte's offset.
func yamlVersionDirectives(src []byte) []byte {
	out := src
	for i := 0; i < len(src); {
		line := src[i:]
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j+1]
		}
		if t := bytes.TrimRight(line, " \t\r\n"); len(t) == len("%YAML 1.x") && bytes.HasPrefix(t, []byte("%YAML 1.")) && t[8] >= '2' && t[8] <= '9' {
			if &out[0] == &src[0] {
				out = bytes.Clone(src)
			}
			out[i+8] = '1'
		}
		if len(line) > 0 && line[0] != '%' && line[0] != '#' && strings.TrimSpace(string(line)) != "" {
			break // directives come first
		}
		i += len(line)
	}
	return out
}

// unhashableTag are the tags of a collection key PyYAML's safe loader builds into a list, dict or
// set (no tag; !!seq, !!map; !!set; !!omap and !!pairs, lists of pairs): "found unhashable key".
var unhashableTag = map[string]bool{"": true, "!!seq": true, "!!map": true, "!!set": true, "!!omap": true, "!!pairs": true}

// kubeObject reports a document that is a Kubernetes object: a mapping with apiVersion and kind
// scalars.
func kubeObject(n *Node) bool {
	if n == nil || n.Kind != Map {
		return false
	}
	a, k := n.Get("apiVersion"), n.Get("kind")
	return a != nil && a.Kind == Scalar && k != nil && k.Kind == Scalar
}
