package doc

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"
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
	} else {
		d.YAMLReader = YAMLv3
		parseYAMLv3(d, lim)
	}
	flowColon := maybeFlowColon(d.Src) // both PyYAML passes ask it: the bytes are scanned once
	pyyamlCheck(d, flowColon)
	pyyamlPairs(d, flowColon)
	declineAnchorHolders(d)
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
	if marker(src) || HasBOM(src) && marker(src[3:]) {
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

type yamlConv struct {
	d   *Document
	x   *LineIndex
	src []byte
	lim Limits

	nodes, aliases, dups int
	anchored             int // anchored nodes being converted (their subtrees are kept)
	fatal                bool
	origin               int            // offset of the outermost node being converted (an alias's use site)
	clamped              int            // the last offset whose yaml.v3 line and column do not exist
	active               map[any]bool   // anchored nodes being expanded: a repeat is a cycle
	defined              map[string]int // the document's anchor names -> where each is defined
	dupAnchor            string         // the message about the first anchor defined twice
	dupAt                int            // where that second definition is

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
	return (&LineIndex{src: src, starts: starts, ascii: false}).withRunes()
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

// pos converts an offset into a position.
func (c *yamlConv) pos(off int) Pos { return c.x.Pos(off) }

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

// checkDup reports child's key when an earlier explicit entry of n has the same key: the same
// text read as the same kind (keyID), as PyYAML compares them: a plain null and a quoted
// "null" are None and the string "null", two keys.
func (c *yamlConv) checkDup(n, child *Node, seen *map[string]int) {
	first := -1
	if len(n.Children) < 32 && *seen == nil {
		// The IDs only of keys written alike: most keys of a mapping differ in text.
		for i, o := range n.Children {
			if o.Key == child.Key && !o.Alias && c.keyID(o) == c.keyID(child) {
				first = i
				break
			}
		}
	} else {
		id := c.keyID(child)
		if *seen == nil {
			*seen = make(map[string]int, len(n.Children)*2)
			for i, o := range n.Children {
				if o.Alias {
					continue
				}
				oid := c.keyID(o)
				if _, ok := (*seen)[oid]; !ok {
					(*seen)[oid] = i
				}
			}
		}
		if i, ok := (*seen)[id]; ok {
			first = i
		} else {
			(*seen)[id] = len(n.Children)
		}
	}
	if first < 0 {
		return
	}
	o := n.Children[first]
	how := overrides(o.KeySpan, child.KeySpan)
	c.d.addDuplicate(child.Key, o.KeySpan, child.KeySpan, how, &c.dups)
}

// keyID is n's key as checkDup compares it (loaderKeyID): a quoted key is its text, a plain one
// its text when every loader reads it as a string, else marked; a key after a tag (`!!str 1`,
// whose tag decides its value) is marked with what precedes it on its line, so it repeats only
// the same key after the same tag.
func (c *yamlConv) keyID(n *Node) string {
	s := n.KeySpan.Start.Offset
	if s < 0 || s >= len(c.src) {
		return loaderKeyID(n.Key)
	}
	if c.src[s] == '"' || c.src[s] == '\'' {
		return n.Key
	}
	j := s
	for j > 0 && strings.IndexByte("\n{[,?", c.src[j-1]) < 0 {
		j--
	}
	if bytes.IndexByte(c.src[j:s], '!') >= 0 {
		return "\x01" + string(bytes.TrimSpace(c.src[j:s])) + " " + n.Key
	}
	return loaderKeyID(n.Key)
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
func (c *yamlConv) tokenEnd(p int) int { return anchorEnd(c.src, p) }

// anchorEnd returns the end of the anchor or alias name in s starting at p (isAnchorChar).
func anchorEnd(s []byte, p int) int {
	for p < len(s) && isAnchorChar(s[p]) {
		p++
	}
	return p
}

func isAnchorChar(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' || b == '-'
}

func isSpaceOrBreak(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

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

// IsPlaceholder reports whether a string value is decided later: an interpolation, Hydra's
// mandatory "???", DeepSpeed's "auto", or gin's %gin.REQUIRED.
func IsPlaceholder(s string) bool {
	s = strings.TrimSpace(s)
	return strings.Contains(s, "${") || s == "???" || s == "auto" || s == "%gin.REQUIRED"
}
