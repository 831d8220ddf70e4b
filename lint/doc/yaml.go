package doc

import (
	"bytes"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// The YAML front-end decodes the stream into yaml.v3 nodes, which carry each node's start line
// and column (in code points, after any BOM) but no end, and converts them into the Document
// tree. Ends are found by scanning the source from the start according to the node's style:
// quoted scalars to their closing quote, plain scalars by matching the resolved value against
// the text (folding whitespace), block scalars by indentation, flow collections to their closing
// bracket after the last child, block collections at their last child's end. Value spans exclude
// anchors and tags (`&x`, `!!str`), so an edit of the span keeps them.
//
// Styles: scalars "plain", "single", "double", "literal", "folded"; collections "flow" or "block".

func parseYAML(d *Document, lim Limits, noDirect bool) {
	if !noDirect && fastYAML(d, lim) {
		d.YAMLReader = YAMLDirect
		return
	}
	d.YAMLReader = YAMLv3
	parseYAMLv3(d, lim)
}

// parseYAMLv3 reads d.Src through yaml.v3: every file the direct reader (yamlfast.go) leaves.
func parseYAMLv3(d *Document, lim Limits) {
	c := &yamlConv{d: d, x: d.Lines(), src: d.Src, lim: lim, clamped: -1}
	c.yx = c.x
	if hasUnicodeBreak(d.Src) {
		c.yx = yamlLineIndex(d.Src)
	}
	next := yamlDocs(d.Src)
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
		node, _ := c.conv(n.Content[0], nil, 0, -1, false)
		if c.fatal {
			d.Root, d.More = nil, nil
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
	c.comments()
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

// multiDoc reports whether src may hold document markers ("---", "...") or directives ("%"),
// i.e. whether it may be a stream of several documents.
func multiDoc(src []byte) bool {
	if bytes.IndexByte(src, '\r') >= 0 { // lone CR line breaks: leave them to the Decoder too
		return true
	}
	// One pass over the line starts (this runs on every YAML file; three Contains scans were
	// a tenth of the conversion's own time).
	marker := func(line []byte) bool {
		return bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("...")) || bytes.HasPrefix(line, []byte("%"))
	}
	if marker(src) || hasBOM(src) && marker(src[3:]) {
		return true
	}
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return false
		}
		i += j + 1
		if marker(src[i:]) {
			return true
		}
	}
}

// release drops y's i-th child once it is converted, so that the garbage collector can reclaim
// the yaml.v3 tree while ours grows (it matters for files of many megabytes). Nodes inside an
// anchored node are kept: an alias may convert them again.
func (c *yamlConv) release(y *yaml.Node, i int, aliased bool) {
	if !aliased && c.anchored == 0 {
		y.Content[i] = nil
	}
}

type yamlConv struct {
	d   *Document
	x   *LineIndex
	src []byte
	lim Limits

	nodes, aliases, dups int
	anchored             int // anchored nodes being converted (their subtrees are kept)
	fatal                bool
	origin               int                 // offset of the outermost node being converted (an alias's use site)
	clamped              int                 // the last offset whose yaml.v3 line and column do not exist
	active               map[*yaml.Node]bool // anchored nodes being expanded: a repeat is a cycle

	// noComment are byte ranges where '#' does not start a comment (quoted scalars, block
	// scalar contents), in source order.
	noComment [][2]int

	alloc nodeAlloc
	text  string // src as a string, when the reader made one (comments share it)

	// yx reads yaml.v3's lines and columns: x itself, unless the file holds a character YAML
	// counts as a line break and editors do not (NEL, U+2028, U+2029).
	yx *LineIndex
}

// hasUnicodeBreak reports whether src holds NEL (U+0085), U+2028 or U+2029: YAML 1.1 parsers,
// yaml.v3 among them, count each as a line break, so their line numbers run ahead of an
// editor's from there on.
func hasUnicodeBreak(src []byte) bool {
	return bytes.Contains(src, []byte("\u0085")) || bytes.Contains(src, []byte("\u2028")) || bytes.Contains(src, []byte("\u2029"))
}

// unicodeBreakLen is the length of the NEL, U+2028 or U+2029 at s[i], or 0.
func unicodeBreakLen(s []byte, i int) int {
	switch {
	case s[i] == 0xC2 && i+1 < len(s) && s[i+1] == 0x85:
		return 2
	case s[i] == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
		return 3
	}
	return 0
}

// yamlLineIndex indexes lines the way yaml.v3 counts them: NEL, U+2028 and U+2029 also end a
// line. It converts yaml.v3's positions into offsets; positions reported to users still come
// from the document's own index.
func yamlLineIndex(src []byte) *LineIndex {
	x := NewLineIndex(src)
	var starts []int
	k := 0
	for i := x.starts[0]; i < len(src); i++ {
		for k < len(x.starts) && x.starts[k] <= i {
			starts = append(starts, x.starts[k])
			k++
		}
		if n := unicodeBreakLen(src, i); n > 0 {
			starts = append(starts, i+n)
		}
	}
	// Merged in order: a break's line starts after the break, so it is already sorted and
	// never repeats a start of x.
	starts = append(starts, x.starts[k:]...)
	return &LineIndex{src: src, starts: starts, ascii: false}
}

// limit records an input-limit-exceeded problem at the given offset and stops the conversion.
func (c *yamlConv) limit(msg string, off int) {
	if c.fatal {
		return
	}
	c.fatal = true
	if off != c.origin && c.origin >= 0 {
		// Inside an expansion: report where the outermost alias is written, not the anchor.
		off = c.origin
	}
	c.d.addProblem(LimitExceeded, msg, off, off)
}

// offset converts a yaml.v3 line and column into a byte offset. yaml.v3 occasionally places an
// empty node past the end of the text (line N+1); such positions are marked so that startPos
// does not trust them.
func (c *yamlConv) offset(line, col int) int {
	off, ok := c.yx.offset(line, col)
	if !ok {
		c.clamped = off
	}
	return off
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
			c.active = map[*yaml.Node]bool{}
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
	if got == want || want == "!!float" && got == "!!int" {
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
	switch y.ShortTag() {
	case "!!int":
		return Int
	case "!!float":
		return Float
	case "!!bool":
		return Bool
	case "!!null":
		return Null
	}
	return String
}

// pos converts an offset into a position.
func (c *yamlConv) pos(off int) Pos { return c.x.Pos(off) }

// startPos is the position of a node's content at p; off is where yaml.v3 says the node starts
// (its anchor or tag, if any). yaml.v3 counts lines and columns as LineIndex does (code points,
// after a BOM), so the common case needs no search.
func (c *yamlConv) startPos(y *yaml.Node, off, p int) Pos {
	if p == off && off != c.clamped && c.yx == c.x {
		return Pos{Line: y.Line, Col: y.Column, Offset: off}
	}
	return c.x.Pos(p)
}

// after is the position of offset end, at or after s: on s's line it is counted from s.
func (c *yamlConv) after(s Pos, end int) Pos {
	x := c.x
	if s.Line >= len(x.starts) || x.starts[s.Line] > end {
		if x.ascii {
			return Pos{Line: s.Line, Col: s.Col + end - s.Offset, Offset: end}
		}
		return Pos{Line: s.Line, Col: s.Col + utf8.RuneCount(c.src[s.Offset:end]), Offset: end}
	}
	return x.Pos(end)
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
		if k.Kind != yaml.ScalarNode && k.Kind != yaml.AliasNode {
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

// checkDup reports child's key when an earlier explicit entry of n has the same key.
func (c *yamlConv) checkDup(n, child *Node, seen *map[string]int) {
	first := -1
	if len(n.Children) < 32 && *seen == nil {
		for i, o := range n.Children {
			if o.Key == child.Key && !o.Alias {
				first = i
				break
			}
		}
	} else {
		if *seen == nil {
			*seen = make(map[string]int, len(n.Children)*2)
			for i, o := range n.Children {
				if _, ok := (*seen)[o.Key]; !ok && !o.Alias {
					(*seen)[o.Key] = i
				}
			}
		}
		if i, ok := (*seen)[child.Key]; ok {
			first = i
		} else {
			(*seen)[child.Key] = len(n.Children)
		}
	}
	if first < 0 {
		return
	}
	o := n.Children[first]
	how := overrides(o.KeySpan, child.KeySpan)
	c.d.addDuplicate(child.Key, o.KeySpan, child.KeySpan, how, &c.dups)
}

// merge adds the entries of a merge key's value (a mapping, or a sequence of mappings where the
// first wins) to n, except keys n writes itself or already has from an earlier source.
func (c *yamlConv) merge(n, mv *Node, explicit map[string]bool) {
	if mv == nil {
		return
	}
	var sources []*Node
	switch mv.Kind {
	case Map:
		sources = []*Node{mv}
	case Seq:
		for _, s := range mv.Children {
			if s.Kind == Map {
				sources = append(sources, s)
			}
		}
	}
	for _, s := range sources {
		for _, e := range s.Children {
			if explicit[e.Key] {
				continue
			}
			explicit[e.Key] = true // an earlier source wins over a later one
			e.Index = len(n.Children)
			rebase(e, n)
			n.Children = append(n.Children, e)
		}
	}
}

// mergeable reports whether a merge key's value is a mapping or a sequence of mappings.
func mergeable(mv *Node) bool {
	switch mv.Kind {
	case Map:
		return true
	case Seq:
		for _, s := range mv.Children {
			if s.Kind != Map {
				return false
			}
		}
		return true
	}
	return false
}

// rebase moves n under parent and gives its subtree the depths of its new place.
func rebase(n, parent *Node) {
	n.setParent(parent)
	for _, ch := range n.Children {
		rebase(ch, n)
	}
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

// flowEnd finds the closing bracket of a flow collection opened at open, scanning from the end
// of its last entry over separators and comments.
func (c *yamlConv) flowEnd(open, from int, closer byte) int {
	s := c.src
	i := max(from, open+1)
	for i < len(s) {
		switch s[i] {
		case closer:
			return i + 1
		case ' ', '\t', '\r', '\n', ',', ':', '?':
			i++
		case '#':
			for i < len(s) && s[i] != '\n' && s[i] != '\r' && unicodeBreakLen(s, i) == 0 {
				i++
			}
		default:
			if n := unicodeBreakLen(s, i); n > 0 {
				i += n
				continue
			}
			// Not a separator: the collection is an implicit one (a `[k: v]` pair); it ends
			// with its last entry.
			return from
		}
	}
	return from
}

// skipProps skips anchors, tags, whitespace and comments that precede a node's content.
func (c *yamlConv) skipProps(p int) int {
	s := c.src
	for {
		p = c.skipBlank(p)
		if p >= len(s) {
			return p
		}
		switch s[p] {
		case '&':
			p = c.tokenEnd(p + 1)
		case '!':
			if p+1 < len(s) && s[p+1] == '<' {
				for p < len(s) && s[p] != '>' {
					p++
				}
				if p < len(s) {
					p++
				}
				continue
			}
			for p < len(s) && !isSpaceOrBreak(s[p]) && unicodeBreakLen(s, p) == 0 {
				p++
			}
		default:
			return p
		}
	}
}

// skipBlank skips whitespace, line breaks (NEL, U+2028 and U+2029 too, as yaml.v3 counts them)
// and comments.
func (c *yamlConv) skipBlank(p int) int {
	s := c.src
	for p < len(s) {
		switch s[p] {
		case ' ', '\t', '\r', '\n':
			p++
		case '#':
			for p < len(s) && s[p] != '\n' && s[p] != '\r' && unicodeBreakLen(s, p) == 0 {
				p++
			}
		default:
			n := unicodeBreakLen(s, p)
			if n == 0 {
				return p
			}
			p += n
		}
	}
	return p
}

// propsAt reports whether an anchor or a tag is the first thing after p, past whitespace and
// comments.
func (c *yamlConv) propsAt(p int) bool {
	p = c.skipBlank(p)
	return p < len(c.src) && (c.src[p] == '&' || c.src[p] == '!')
}

// tokenEnd returns the end of an anchor or alias name starting at p. yaml.v3 (like libyaml)
// takes only [0-9A-Za-z_-] into the name, so "&a:b" is anchor "a" on the plain scalar ":b".
func (c *yamlConv) tokenEnd(p int) int {
	s := c.src
	for p < len(s) && isAnchorChar(s[p]) {
		p++
	}
	return p
}

func isAnchorChar(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' || b == '-'
}

func isSpaceOrBreak(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

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

// plainEnd matches a plain scalar's value against the source from p. Line breaks and the
// whitespace around them fold into a space (or into newlines for empty lines) in the value, so
// a whitespace run that contains a line break matches any whitespace run of the value.
func (c *yamlConv) plainEnd(p int, v string) int {
	s := c.src
	i, j := p, 0
	for j < len(v) && i < len(s) {
		if b := s[i]; b == ' ' || b == '\t' || b == '\r' || b == '\n' || unicodeBreakLen(s, i) > 0 {
			r := i
			brk := false
			for r < len(s) {
				if n := unicodeBreakLen(s, r); n > 0 {
					brk = true
					r += n
					continue
				}
				if !isSpaceOrBreak(s[r]) {
					break
				}
				if s[r] == '\n' || s[r] == '\r' {
					brk = true
				}
				r++
			}
			if brk {
				i = r
				for j < len(v) && (v[j] == ' ' || v[j] == '\n') {
					j++
				}
				continue
			}
		}
		if s[i] != v[j] {
			break
		}
		i++
		j++
	}
	return i
}

// blockEnd returns the end of a literal or folded block scalar whose header starts at p: the end
// of its last non-blank content line, or of the header when it has no content.
func (c *yamlConv) blockEnd(p, parentIndent int, aliased bool) int {
	s := c.src
	i := p + 1
	m := 0
	for i < len(s) && (s[i] >= '1' && s[i] <= '9' || s[i] == '+' || s[i] == '-') {
		if s[i] != '+' && s[i] != '-' {
			m = int(s[i] - '0')
		}
		i++
	}
	headerEnd := i
	line := c.x.Pos(p).Line
	n := 0
	if m > 0 {
		if parentIndent >= 0 {
			n = parentIndent + m
		} else {
			n = m
		}
	} else {
		for l := line + 1; l <= c.x.NumLines(); l++ {
			sp, blank := indentOf(c.x.Line(l))
			if !blank {
				n = sp
				break
			}
		}
		n = max(n, parentIndent+1, 1)
	}
	last := headerEnd
	contentStart := c.x.LineEnd(line)
	for l := line + 1; l <= c.x.NumLines(); l++ {
		text := c.x.Line(l)
		sp, blank := indentOf(text)
		if blank {
			continue
		}
		if sp < n {
			break
		}
		last = c.x.LineEnd(l)
	}
	if !aliased && last > contentStart {
		c.noComment = append(c.noComment, [2]int{contentStart, last})
	}
	return last
}

// indentOf counts a line's leading spaces and reports whether it holds only whitespace.
func indentOf(line []byte) (int, bool) {
	sp := 0
	for sp < len(line) && line[sp] == ' ' {
		sp++
	}
	for i := sp; i < len(line); i++ {
		if line[i] != ' ' && line[i] != '\t' {
			return sp, false
		}
	}
	return sp, true
}

// comments collects every `#` comment: a '#' at the start of a line or after whitespace, outside
// quoted scalars and block scalar contents.
func (c *yamlConv) comments() {
	c.d.Comments = collectComments(c.x, c.src, c.text, c.noComment, true)
}

// collectComments finds `#` comments in src, skipping the byte ranges in skip (which need not
// be sorted). With needSpace (YAML), a '#' starts a comment only at the start of a line or after
// whitespace; in TOML every '#' outside a string does.
//
// text, when not empty, is src as a string, which the comments' texts then share.
func collectComments(x *LineIndex, src []byte, text string, skip [][2]int, needSpace bool) []Comment {
	sorted := true
	for i := 1; i < len(skip); i++ {
		if skip[i][0] < skip[i-1][0] {
			sorted = false
			break
		}
	}
	if !sorted {
		sortRanges(skip)
	}
	var out []Comment
	k := 0
	line := 1 // the 1-based line of the current '#'
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '#')
		if j < 0 {
			break
		}
		h := i + j
		i = h + 1
		for k < len(skip) && skip[k][1] <= h {
			k++
		}
		if k < len(skip) && skip[k][0] <= h && h < skip[k][1] {
			i = skip[k][1]
			continue
		}
		for line < len(x.starts) && x.starts[line] <= h {
			line++
		}
		ls := x.starts[line-1]
		if needSpace && h > ls && src[h-1] != ' ' && src[h-1] != '\t' {
			continue
		}
		start := x.posOnLine(line, h)
		le := x.LineEnd(line)
		trailing := len(bytes.TrimLeft(src[ls:h], " \t")) > 0
		if text == "" {
			text = string(src)
		}
		out = append(out, Comment{Text: text[h+1 : le], Span: Span{Start: start, End: x.posOnLine(line, le)}, Trailing: trailing})
		i = le
	}
	return out
}

func sortRanges(r [][2]int) {
	sort.Slice(r, func(i, j int) bool { return r[i][0] < r[j][0] })
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
	if l := c.bisectErrorLine(msg); l > 0 {
		line = l
	}
	if line < 1 {
		line = 1
	}
	if line > c.x.NumLines() {
		line = c.x.NumLines()
	}
	start, end := c.errorColumn(line, msg)
	c.d.addProblem(Syntax, friendlyYAMLMessage(msg), start, end)
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

// bisectErrorLine finds the first line L such that the file cut after line L fails with the
// same message: that is where the parser meets the problem. It gives up (0) on large files.
func (c *yamlConv) bisectErrorLine(msg string) int {
	if len(c.src) > 1<<20 {
		return 0
	}
	fails := func(l int) bool {
		prefix := c.src[:c.x.LineEnd(l)]
		next := yamlDocs(prefix)
		for {
			var n yaml.Node
			err := next(&n)
			if err == nil {
				continue
			}
			if errors.Is(err, io.EOF) {
				return false
			}
			_, m := splitYAMLError(err.Error())
			return m == msg
		}
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

// IsPlaceholder reports whether a string value is decided later: an interpolation, Hydra's
// mandatory "???", DeepSpeed's "auto", or gin's %gin.REQUIRED.
func IsPlaceholder(s string) bool {
	s = strings.TrimSpace(s)
	return strings.Contains(s, "${") || s == "???" || s == "auto" || s == "%gin.REQUIRED"
}
