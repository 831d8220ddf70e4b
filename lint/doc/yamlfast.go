package doc

import (
	"bytes"
	"unicode/utf8"
)

// The direct YAML reader. Most configs keep to a part of YAML: block mappings and sequences
// indented with spaces, one-line plain and quoted scalars, flow collections of those, literal and
// folded block scalars, and simple anchors and aliases. yaml.v3 reads such a file in about three
// times the time it takes to walk its bytes once, because it builds a token queue, an event
// stream and a yaml.Node tree before our converter builds the Document tree from that. fastYAML
// builds the Document tree straight from the bytes instead, and gives up (returns false, leaving
// d as it found it) at the first thing outside that part: tags, merge keys, aliases inside
// anchored nodes, multi-line plain or quoted scalars, indentation indicators, document markers
// and directives, tabs, CR line breaks, characters YAML forbids, rare escapes, anything yaml.v3
// would reject, and anything past a limit. parseYAML then reads the file through yaml.v3 as
// before, so every error message, every limit finding and every rare construct comes from one
// place.
//
// The contract is exact agreement: whenever fastYAML accepts a file, the Document (values,
// types, styles, keys, paths, spans, comments, duplicate-key problems) equals what the yaml.v3
// path builds, including that path's conventions (an empty value sits right after its ':' or
// '-', a collection ends where its last value ends, an alias's copy keeps the definition's
// spans). yamlfast_test.go checks this on the corpus, on the repository's examples, on edge cases
// and under fuzzing. Scalar types are resolved as yaml.v3 resolves them (plainType, held to
// yaml.Node.ShortTag by TestPlainTypeLikeYAMLv3 and FuzzPlainType), so "0x1F" or ".inf" mean
// what they mean to the loaders.

// fastMaxDepth keeps the reader well inside yaml.v3's own nesting limit (10,000 levels, which
// max_depth may be raised past): deeper files get yaml.v3's finding.
const fastMaxDepth = 5000

// fastFail is the panic value with which the reader gives up; fastYAML recovers it.
type fastFail struct{}

type fastReader struct {
	c    *yamlConv
	src  []byte
	str  string // src as a string: values are substrings of it
	x    *LineIndex
	i    int // the read position
	line int // the 1-based line of i
	ls   int // the offset where that line starts

	stack []*Node // children of the collections being read, innermost last

	// anchors maps each anchor name to its definition, whose node is nil while it is being read
	// (an alias to it then is a cycle). aliases counts the aliases read, so that an anchored node
	// knows whether it holds any.
	anchors map[string]*anchorDef
	aliases int
	ended   bool // the value just read (a block scalar) took its lines: f.i is past them

	// The last column computed (for non-ASCII text): positions on one line are asked for in
	// increasing order, so each is counted from the previous one, not from the line start.
	cline, coff, ccol int
}

// fastYAML reads d.Src into d.Root and d.Comments (and d.Problems for repeated keys) when the
// file keeps to the subset described above; otherwise it returns false with d unchanged.
func fastYAML(d *Document, lim Limits) (ok bool) {
	src := d.Src
	if HasBOM(src) || multiDoc(src) || !fastText(src) {
		return false
	}
	x := d.Lines()
	problems := len(d.Problems)
	c := &yamlConv{d: d, x: x, src: src, lim: lim, clamped: -1}
	f := &fastReader{c: c, src: src, x: x, line: 1}
	defer func() {
		if r := recover(); r != nil {
			if _, mine := r.(fastFail); !mine {
				panic(r)
			}
			d.Root, d.More, d.Comments = nil, nil, nil
			d.Problems = d.Problems[:problems]
			ok = false
		}
	}()
	f.skip()
	if f.i == len(src) {
		// Empty, or comments only: no document (as yaml.v3 reads it).
		c.comments()
		return true
	}
	f.str = string(src)
	c.text = f.str
	// Every node but the root follows a ':', a "- " or a ',' (the count also takes those in
	// values and comments, so it errs on the large side).
	nodes := 1 + bytes.Count(src, []byte(":")) + bytes.Count(src, []byte("- ")) + bytes.Count(src, []byte(","))
	c.alloc.reserve(nodes, nodes)
	root, _ := f.block(nil, 0, -1)
	if f.i < len(src) {
		f.fail() // content after the root ends: an indentation yaml.v3 rejects
	}
	d.Root = root
	c.comments()
	return true
}

// fastText reports whether src holds only characters the reader handles: no tab, no control
// character, and none of the characters YAML treats as line breaks or forbids (NEL, U+2028,
// U+2029, C1 controls, U+FEFF, U+FFFE, U+FFFF).
func fastText(src []byte) bool {
	for i := 0; i < len(src); {
		b := src[i]
		if b < utf8.RuneSelf {
			if b < 0x20 && b != '\n' || b == 0x7F {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if r >= 0x80 && r <= 0x9F || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF || r == utf8.RuneError {
			return false
		}
		i += size
	}
	return true
}

// fail gives up on the file: fastYAML recovers and the yaml.v3 path reads it.
func (f *fastReader) fail() { panic(fastFail{}) }

// blank reports whether offset i is a space, a line break or the end.
func (f *fastReader) blank(i int) bool {
	return i >= len(f.src) || f.src[i] == ' ' || f.src[i] == '\n'
}

// skip moves past spaces, line breaks and comments to the next content byte or the end.
func (f *fastReader) skip() {
	s := f.src
	for f.i < len(s) {
		switch s[f.i] {
		case ' ':
			f.i++
		case '\n':
			f.i++
			f.line++
			f.ls = f.i
		case '#':
			if f.i > f.ls && s[f.i-1] != ' ' {
				f.fail()
			}
			j := bytes.IndexByte(s[f.i:], '\n')
			if j < 0 {
				f.i = len(s)
				return
			}
			f.i += j
		default:
			return
		}
	}
}

// endLine checks that only spaces and a comment follow a value on its line, then skips to the
// next content.
func (f *fastReader) endLine() {
	if f.ended { // a block scalar ends at the next content itself
		f.ended = false
		f.skip()
		return
	}
	s := f.src
	j := f.i
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j < len(s) && s[j] != '\n' && (s[j] != '#' || j == f.i) {
		f.fail()
	}
	f.i = j
	f.skip()
}

// pos is the position of offset off on the current line.
func (f *fastReader) pos(off int) Pos {
	if f.x.ascii {
		return Pos{Line: f.line, Col: off - f.ls + 1, Offset: off}
	}
	if f.cline != f.line || off < f.coff {
		f.cline, f.coff, f.ccol = f.line, f.ls, 1
	}
	f.ccol += utf8.RuneCount(f.src[f.coff:off])
	f.coff = off
	return Pos{Line: f.line, Col: f.ccol, Offset: off}
}

// node takes a node from the allocator and counts it against the limits.
func (f *fastReader) node(parent *Node, depth int) *Node {
	c := f.c
	c.nodes++
	if c.nodes > c.lim.MaxNodes || c.nodes > aliasBudget(len(c.src), c.lim) || depth > c.lim.MaxDepth || depth > fastMaxDepth {
		f.fail()
	}
	n := c.alloc.new()
	n.setParent(parent)
	return n
}

// entry adds child, the value of key, to the mapping n whose entries are collected from base,
// reporting the key if an earlier entry has it. checkDup looks at n.Children, so it sees the
// entries collected so far.
func (f *fastReader) entry(n *Node, base int, child *Node, key string, kspan Span, seen *map[string]int) {
	child.Key = key
	child.KeySpan = kspan
	n.Children = f.stack[base:]
	f.c.checkDup(n, child, seen)
	child.Index = len(f.stack) - base
	f.stack = append(f.stack, child)
}

// children moves the children collected since base into n's own list.
func (f *fastReader) children(n *Node, base int) {
	k := f.stack[base:]
	n.Children = append(f.c.alloc.children(len(k)), k...)
	clear(k)
	f.stack = f.stack[:base]
}

// block reads the node at f.i, which starts a line's content or follows "- ", inside a block
// collection indented by indent: a block sequence, a block mapping, or a one-line value.
func (f *fastReader) block(parent *Node, depth, indent int) (*Node, int) {
	s := f.src
	col := f.i - f.ls // the line's text before f.i is spaces and "- " indicators
	if s[f.i] == '-' && f.blank(f.i+1) {
		return f.sequence(parent, depth, col)
	}
	if _, _, ok := f.keyAhead(); ok {
		return f.mapping(parent, depth, col)
	}
	n, end := f.inline(parent, depth, indent)
	f.endLine()
	return n, end
}

// keyAhead looks for a mapping key at f.i: a one-line plain or quoted scalar followed by ':'
// and a space or line break. It returns the key's end and the offset of the ':'.
func (f *fastReader) keyAhead() (end, colon int, ok bool) {
	s := f.src
	i := f.i
	switch s[i] {
	case '"', '\'':
		end = f.quotedEnd(i)
		if end < 0 {
			return 0, 0, false
		}
		j := end
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j < len(s) && s[j] == ':' && f.blank(j+1) {
			if j-i > 1000 {
				f.fail() // yaml.v3 takes no key longer than 1024 characters
			}
			return end, j, true
		}
		return 0, 0, false
	}
	if !plainStart(s, i, false) {
		return 0, 0, false
	}
	for j := i; j < len(s) && s[j] != '\n'; j++ {
		switch s[j] {
		case ':':
			if f.blank(j + 1) {
				if j-i > 1000 {
					f.fail() // yaml.v3 takes no key longer than 1024 characters
				}
				end = j
				for end > i && s[end-1] == ' ' {
					end--
				}
				return end, j, true
			}
		case '#':
			if s[j-1] == ' ' {
				return 0, 0, false
			}
		}
	}
	return 0, 0, false
}

// plainStart reports whether a plain scalar may start at i: not with an indicator, and not with
// '-' or '?' followed by a space (those are indicators then). A leading ':' is left to yaml.v3.
func plainStart(s []byte, i int, flow bool) bool {
	switch s[i] {
	case '-':
		return i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\n' && !(flow && isFlowIndicator(s[i+1]))
	case '?': // "???" is Hydra's mandatory value; in a flow collection '?' starts a key
		return !flow && i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\n'
	case ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\n':
		return false
	}
	return true
}

func isFlowIndicator(b byte) bool { return b == ',' || b == '[' || b == ']' || b == '{' || b == '}' }

// quotedEnd returns the end of the one-line quoted scalar that opens at i, or -1.
func (f *fastReader) quotedEnd(i int) int {
	s := f.src
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\n':
			return -1
		case '\\':
			if q == '"' {
				j++
			}
		case q:
			if q == '\'' && j+1 < len(s) && s[j+1] == '\'' {
				j++
				continue
			}
			return j + 1
		}
	}
	return -1
}

// mapping reads a block mapping whose keys are at column col.
func (f *fastReader) mapping(parent *Node, depth, col int) (*Node, int) {
	c := f.c
	s := f.src
	n := f.node(parent, depth)
	n.Kind = Map
	n.Style = "block"
	base := len(f.stack)
	var seen map[string]int
	last := f.i
	first := true
	for {
		kend, colon, ok := f.keyAhead()
		if !ok {
			f.fail()
		}
		kstart := f.i
		key := f.keyText(kstart, kend)
		kspan := Span{Start: f.pos(kstart), End: f.pos(kend)}
		if first {
			n.Span.Start = kspan.Start
			first = false
		}
		f.i = colon + 1
		child, vend := f.value(n, depth+1, col)
		last = max(last, kend, vend)
		f.entry(n, base, child, key, kspan, &seen)
		if f.i >= len(s) {
			break
		}
		if nc := f.i - f.ls; nc < col {
			break
		} else if nc > col || s[f.i] == '-' && f.blank(f.i+1) {
			f.fail()
		}
	}
	f.children(n, base)
	n.Span.End = c.after(n.Span.Start, last)
	return n, last
}

// keyText returns the text of the key written at [start, end), noting a quoted key's range.
func (f *fastReader) keyText(start, end int) string {
	if q := f.src[start]; q == '"' || q == '\'' {
		f.c.noComment = append(f.c.noComment, [2]int{start, end})
		return f.unquote(start, end)
	}
	key := f.str[start:end]
	if key == "<<" {
		f.fail() // a merge key: yaml.v3 expands it
	}
	return key
}

// value reads a mapping value after its ':' (at f.i), in a mapping at column col.
func (f *fastReader) value(parent *Node, depth, col int) (*Node, int) {
	s := f.src
	at := f.pos(f.i)
	for f.i < len(s) && s[f.i] == ' ' {
		f.i++
	}
	if f.i < len(s) && s[f.i] != '\n' && s[f.i] != '#' {
		switch {
		case s[f.i] == '-' && f.blank(f.i+1):
			f.fail()
		case s[f.i] == '&':
			return f.anchor(parent, depth, col, true)
		}
		n, end := f.inline(parent, depth, col)
		f.endLine()
		return n, end
	}
	f.skip()
	if f.i < len(s) {
		if nc := f.i - f.ls; nc > col || nc == col && s[f.i] == '-' && f.blank(f.i+1) {
			return f.block(parent, depth, col)
		}
	}
	return f.empty(parent, depth, at)
}

// empty makes the null of a value left out: it sits at at, right after its ':' or '-'.
func (f *fastReader) empty(parent *Node, depth int, at Pos) (*Node, int) {
	n := f.node(parent, depth)
	n.Kind = Scalar
	n.Type = Null
	n.Style = "plain"
	n.Span = Span{Start: at, End: at}
	return n, at.Offset
}

// sequence reads a block sequence whose '-' indicators are at column col.
func (f *fastReader) sequence(parent *Node, depth, col int) (*Node, int) {
	c := f.c
	s := f.src
	n := f.node(parent, depth)
	n.Kind = Seq
	n.Style = "block"
	start := f.pos(f.i)
	n.Span.Start = start
	last := f.i + 1
	base := len(f.stack)
	for k := 0; ; k++ {
		f.i++ // the '-'
		at := f.pos(f.i)
		for f.i < len(s) && s[f.i] == ' ' {
			f.i++
		}
		var child *Node
		var end int
		if f.i < len(s) && s[f.i] == '&' {
			child, end = f.anchor(n, depth+1, col, false)
		} else if f.i < len(s) && s[f.i] != '\n' && s[f.i] != '#' {
			child, end = f.block(n, depth+1, col)
		} else {
			f.skip()
			if f.i < len(s) && f.i-f.ls > col {
				child, end = f.block(n, depth+1, col)
			} else {
				child, end = f.empty(n, depth+1, at)
			}
		}
		last = max(last, end)
		child.Index = k
		f.stack = append(f.stack, child)
		if f.i >= len(s) {
			break
		}
		nc := f.i - f.ls
		if nc < col || nc == col && !(s[f.i] == '-' && f.blank(f.i+1)) {
			break // the enclosing collection goes on, or rejects what follows
		}
		if nc > col {
			f.fail()
		}
	}
	f.children(n, base)
	n.Span.End = c.after(start, last)
	return n, last
}

// inline reads a value that lies on one line (a plain or quoted scalar) or a flow collection,
// in a block collection indented by indent.
func (f *fastReader) inline(parent *Node, depth, indent int) (*Node, int) {
	s := f.src
	switch s[f.i] {
	case '"', '\'':
		return f.quoted(parent, depth)
	case '[', '{':
		return f.flow(parent, depth)
	case '|', '>':
		return f.blockScalar(parent, depth, indent)
	case '*':
		return f.alias(parent, depth)
	}
	if !plainStart(s, f.i, false) {
		f.fail()
	}
	start := f.i
	j := start
	for j < len(s) && s[j] != '\n' {
		if s[j] == ':' && f.blank(j+1) {
			f.fail() // "a: b: c" and the like
		}
		if s[j] == '#' && s[j-1] == ' ' {
			break
		}
		j++
	}
	for s[j-1] == ' ' {
		j--
	}
	f.i = j
	return f.plain(parent, depth, start, j), j
}

// blockScalar reads a literal (|) or folded (>) block scalar whose header is at f.i, in a block
// collection indented by indent. Its value follows YAML's rules as yaml.v3 applies them: the
// content indentation is that of the first non-empty line, line breaks are kept (literal) or
// folded into spaces between lines that do not start with a space (folded), and the chomping
// indicator decides the final line breaks (clip: one, '-': none, '+': all). An indentation
// indicator (|2), a header with more than a comment after it, and a leading empty line with more
// spaces than the first content line are left to yaml.v3, as is a line of only spaces longer
// than the indentation (content to yaml.v3, but not to the span the other path computes).
func (f *fastReader) blockScalar(parent *Node, depth, indent int) (*Node, int) {
	s := f.src
	start := f.i
	literal := s[start] == '|'
	j := start + 1
	chomp := 0
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		chomp = 1
		if s[j] == '-' {
			chomp = -1
		}
		j++
	}
	headerEnd := j
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j < len(s) && s[j] == '#' && j > headerEnd {
		for j < len(s) && s[j] != '\n' {
			j++
		}
	}
	if j < len(s) && s[j] != '\n' {
		f.fail() // an indentation indicator, or text after the header
	}
	contentStart := j
	last := headerEnd // the end of the last content line
	minIndent := max(indent+1, 1)

	// breaks eats, from a line start, the indentation (up to n spaces; n == 0 means any) and
	// the lines that hold nothing more, counting them; it returns the column reached on the
	// first line with content and the most spaces seen.
	line, ls := f.line, f.ls
	pos := j
	nextLine := func() {
		pos++
		line++
		ls = pos
	}
	breaks := func(n int) (col, trailing, most int) {
		for {
			col = 0
			for pos < len(s) && s[pos] == ' ' && (n == 0 || col < n) {
				pos++
				col++
			}
			most = max(most, col)
			if pos >= len(s) || s[pos] != '\n' {
				return col, trailing, most
			}
			trailing++
			nextLine()
		}
	}
	var value []byte
	leadingBreak, leadingBlank := false, false
	col, trailing := 0, 0
	n := 0
	if pos < len(s) {
		nextLine() // the header's line break
		var most int
		col, trailing, most = breaks(0)
		n = max(most, minIndent)
		if pos < len(s) && most > col && col >= minIndent {
			f.fail() // a leading empty line indented deeper than the content
		}
	}
	for col == n && pos < len(s) {
		trailingBlank := s[pos] == ' '
		if !literal && leadingBreak && !leadingBlank && !trailingBlank {
			if trailing == 0 {
				value = append(value, ' ')
			}
		} else if leadingBreak {
			value = append(value, '\n')
		}
		leadingBreak = false
		for ; trailing > 0; trailing-- {
			value = append(value, '\n')
		}
		leadingBlank = trailingBlank
		e := bytes.IndexByte(s[pos:], '\n')
		if e < 0 {
			e = len(s) - pos
		}
		text := s[pos : pos+e]
		if len(bytes.TrimLeft(text, " ")) == 0 {
			f.fail() // only spaces, more of them than the indentation
		}
		value = append(value, text...)
		pos += e
		last = pos
		if pos < len(s) {
			leadingBreak = true
			nextLine()
		}
		col, trailing, _ = breaks(n)
	}
	if chomp != -1 && leadingBreak {
		value = append(value, '\n')
	}
	if chomp == 1 {
		for ; trailing > 0; trailing-- {
			value = append(value, '\n')
		}
	}

	n0 := f.node(parent, depth)
	n0.Kind = Scalar
	n0.Type = String
	n0.Style = "folded"
	if literal {
		n0.Style = "literal"
	}
	n0.Value = string(value)
	if IsPlaceholder(n0.Value) {
		n0.Type = Unknown
	}
	sp := f.pos(start)
	n0.Span = Span{Start: sp, End: f.c.after(sp, last)}
	if last > contentStart {
		f.c.noComment = append(f.c.noComment, [2]int{contentStart, last})
	}
	f.i, f.line, f.ls = pos, line, ls
	f.ended = true
	return n0, last
}

// anchorDef is an anchored node as the reader keeps it.
type anchorDef struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	node   *Node
	nested bool // the node holds an alias or a block scalar: its copies are left to yaml.v3
}

// anchorName returns the end of the anchor or alias name that starts after the '&' or '*' at
// i. The name must be followed by a space, a line break or the end; anything else (yaml.v3 also
// ends a name at ':' and a few other characters) is left to yaml.v3.
func (f *fastReader) anchorName(i int) int {
	end := f.c.tokenEnd(i + 1)
	if end == i+1 || !f.blank(end) {
		f.fail()
	}
	return end
}

// anchor reads an anchored value after a mapping's ':' or a sequence's '-' (the '&' at f.i):
// the value on the same line, or the block collection on the lines below (a mapping value,
// indentless marks, may also be a sequence at the mapping's own column). An anchored empty
// value, an anchor on a key, and an anchor with a tag are left to yaml.v3.
func (f *fastReader) anchor(parent *Node, depth, col int, indentless bool) (*Node, int) {
	s := f.src
	end := f.anchorName(f.i)
	name := f.str[f.i+1 : end]
	if f.anchors == nil {
		f.anchors = map[string]*anchorDef{}
	}
	if f.anchors[name] != nil {
		f.fail() // defined twice: PyYAML refuses the file, yaml.v3's conversion says so
	}
	// yaml.v3 binds the name as the node starts: an alias to it inside is a cycle.
	def := &anchorDef{}
	f.anchors[name] = def
	before := f.aliases
	f.i = end
	for f.i < len(s) && s[f.i] == ' ' {
		f.i++
	}
	var n *Node
	if f.i < len(s) && s[f.i] != '\n' && s[f.i] != '#' {
		if _, _, key := f.keyAhead(); key || s[f.i] == '-' && f.blank(f.i+1) || s[f.i] == '*' {
			f.fail() // an anchor on a key, on a sequence, or on an alias
		}
		n, end = f.inline(parent, depth, col)
		f.endLine()
	} else {
		f.skip()
		if f.i >= len(s) {
			f.fail()
		}
		nc := f.i - f.ls
		if !(nc > col || indentless && nc == col && s[f.i] == '-' && f.blank(f.i+1)) || s[f.i] == '*' {
			f.fail() // an anchored empty value, or an anchor on an alias
		}
		n, end = f.block(parent, depth, col)
	}
	nested := f.aliases != before
	n.Walk(func(m *Node) bool {
		nested = nested || m.Style == "literal" || m.Style == "folded"
		return !nested
	})
	def.node, def.nested = n, nested
	return n, end
}

// alias reads an alias (the '*' at f.i) and makes a copy of its anchored node, as yaml.v3
// expands it: the copy and everything in it are marked Alias, keep the spans of the definition,
// and take their paths from where the alias is; the copy itself spans the alias.
func (f *fastReader) alias(parent *Node, depth int) (*Node, int) {
	c := f.c
	start := f.i
	end := f.anchorName(start)
	def := f.anchors[f.str[start+1:end]]
	if def == nil || def.node == nil || def.nested {
		// Undefined, a cycle, or a copy whose spans yaml.v3 computes at the alias (a block
		// scalar's indentation) or that expands further aliases.
		f.fail()
	}
	f.aliases++
	c.aliases++
	if c.aliases > c.lim.MaxAliases {
		f.fail()
	}
	n := f.copyTree(def.node, parent, depth)
	n.Key, n.KeySpan, n.Index = "", Span{}, 0
	sp := f.pos(start)
	n.Span = Span{Start: sp, End: f.pos(end)}
	f.i = end
	return n, end
}

// copyTree copies t under parent, marking every node of the copy Alias.
func (f *fastReader) copyTree(t, parent *Node, depth int) *Node {
	n := f.node(parent, depth)
	*n = *t
	n.Alias = true
	n.setParent(parent)
	if t.Children == nil {
		return n
	}
	n.Children = f.c.alloc.children(len(t.Children))
	for _, ch := range t.Children {
		n.Children = append(n.Children, f.copyTree(ch, n, depth+1))
	}
	return n
}

// plain makes the plain scalar written at [start, end) on the current line.
func (f *fastReader) plain(parent *Node, depth, start, end int) *Node {
	n := f.node(parent, depth)
	n.Kind = Scalar
	n.Style = "plain"
	n.Value = f.str[start:end]
	n.Type = plainType(n.Value)
	if n.Type == String && IsPlaceholder(n.Value) {
		n.Type = Unknown
	}
	n.Span = Span{Start: f.pos(start), End: f.pos(end)}
	return n
}

// quoted reads a one-line quoted scalar at f.i.
func (f *fastReader) quoted(parent *Node, depth int) (*Node, int) {
	start := f.i
	end := f.quotedEnd(start)
	if end < 0 {
		f.fail()
	}
	n := f.node(parent, depth)
	n.Kind = Scalar
	n.Type = String
	n.Quoted = true
	n.Style = "double"
	if f.src[start] == '\'' {
		n.Style = "single"
	}
	n.Value = f.unquote(start, end)
	if IsPlaceholder(n.Value) {
		n.Type = Unknown
	}
	n.Span = Span{Start: f.pos(start), End: f.pos(end)}
	f.c.noComment = append(f.c.noComment, [2]int{start, end})
	f.i = end
	return n, end
}

// unquote returns the value of the quoted scalar written at [start, end), quotes included.
// Double-quoted escapes other than \\ \" \/ \n \t \r \0 are left to yaml.v3 (\/ is read as
// parseYAMLv3 reads it: yamlSlashes).
func (f *fastReader) unquote(start, end int) string {
	body := f.src[start+1 : end-1]
	if f.src[start] == '\'' {
		if bytes.IndexByte(body, '\'') < 0 {
			return f.str[start+1 : end-1]
		}
		return string(bytes.ReplaceAll(body, []byte("''"), []byte("'")))
	}
	if bytes.IndexByte(body, '\\') < 0 {
		return f.str[start+1 : end-1]
	}
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); i++ {
		b := body[i]
		if b != '\\' {
			out = append(out, b)
			continue
		}
		i++
		switch body[i] {
		case '\\', '"', '/':
			out = append(out, body[i])
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case '0':
			out = append(out, 0)
		default:
			f.fail()
		}
	}
	return string(out)
}

// flow reads a flow sequence or mapping at f.i; it may span lines.
func (f *fastReader) flow(parent *Node, depth int) (*Node, int) {
	c := f.c
	s := f.src
	n := f.node(parent, depth)
	closer := byte(']')
	n.Kind = Seq
	if s[f.i] == '{' {
		closer = '}'
		n.Kind = Map
	}
	n.Style = "flow"
	start := f.pos(f.i)
	n.Span.Start = start
	f.i++
	base := len(f.stack)
	var seen map[string]int
	for k := 0; ; k++ {
		f.skipFlow()
		if s[f.i] == closer {
			break
		}
		if n.Kind == Seq {
			child, _ := f.flowItem(n, depth+1)
			child.Index = k
			f.stack = append(f.stack, child)
		} else {
			kstart := f.i
			var kend int
			if q := s[kstart]; q == '"' || q == '\'' {
				kend = f.quotedEnd(kstart)
				if kend < 0 {
					f.fail()
				}
			} else {
				kend = f.flowPlainEnd(kstart, true)
			}
			key := f.keyText(kstart, kend)
			kspan := Span{Start: f.pos(kstart), End: f.pos(kend)}
			f.i = kend
			for f.i < len(s) && s[f.i] == ' ' {
				f.i++
			}
			if f.i >= len(s) || s[f.i] != ':' || !f.blank(f.i+1) || f.i-kstart > 1000 {
				f.fail() // no ':', or a key longer than yaml.v3 takes
			}
			f.i++
			f.skipFlow()
			if s[f.i] == ',' || s[f.i] == closer {
				f.fail() // an empty value
			}
			child, _ := f.flowItem(n, depth+1)
			f.entry(n, base, child, key, kspan, &seen)
		}
		f.skipFlow()
		switch s[f.i] {
		case ',':
			f.i++
			continue
		case closer:
		default:
			f.fail()
		}
		break
	}
	f.i++ // the closer
	f.children(n, base)
	end := f.i
	n.Span.End = c.after(start, end)
	return n, end
}

// skipFlow is skip inside a flow collection, where the end of the file is an error. Like
// yaml.v3, it does not check how the lines of a flow collection are indented.
func (f *fastReader) skipFlow() {
	f.skip()
	if f.i >= len(f.src) {
		f.fail()
	}
}

// flowItem reads one entry of a flow sequence or one value of a flow mapping.
func (f *fastReader) flowItem(parent *Node, depth int) (*Node, int) {
	s := f.src
	switch s[f.i] {
	case '"', '\'':
		return f.quoted(parent, depth)
	case '[', '{':
		return f.flow(parent, depth)
	}
	start := f.i
	end := f.flowPlainEnd(start, false)
	f.i = end
	return f.plain(parent, depth, start, end), end
}

// flowPlainEnd returns the end of a one-line plain scalar in a flow collection at i. A key
// (asKey) ends before spaces and a ':'; any other ':' is left to yaml.v3.
func (f *fastReader) flowPlainEnd(i int, asKey bool) int {
	s := f.src
	if !plainStart(s, i, true) {
		f.fail()
	}
	j := i
	for j < len(s) {
		b := s[j]
		if b == '\n' || isFlowIndicator(b) || b == '#' && s[j-1] == ' ' {
			break
		}
		if b == ':' {
			if !asKey {
				f.fail()
			}
			break
		}
		if b == '?' {
			f.fail() // yaml.v3 ends a flow plain scalar at '?' and then rejects what follows
		}
		j++
	}
	for j > i && s[j-1] == ' ' {
		j--
	}
	if j == i {
		f.fail()
	}
	return j
}
