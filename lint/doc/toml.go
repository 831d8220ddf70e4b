//go:build !trainlint_lite

package doc

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
)

// The TOML front-end builds the tree from go-toml's unstable parser, which yields one top-level
// expression at a time ([table], [[array.table]], key = value) with the byte range of every key
// part and scalar. The table semantics (implicit parents, dotted keys, arrays of tables,
// redefinition rules of TOML 1.0) are applied here, so that a repeated key or table becomes a
// duplicate-key problem with both locations instead of a bare error.
//
// Spans: a key's KeySpan is its last key part as written (quotes included); a scalar's Span is
// its text; arrays and inline tables span their brackets; a [table] or [[array]] item spans
// its header to its last key-value; tables created implicitly (by a header's or a dotted key's
// earlier parts) span everything they contain. Styles: "double" and "single" for basic and
// literal strings (multi-line ones too), "plain" for other scalars, "flow" for arrays and inline
// tables, "block" for tables and arrays of tables.

func parseTOML(d *Document, lim Limits) {
	// tomllib.load decodes the bytes as "utf-8", which keeps the mark, and then refuses it
	// ("Invalid statement"); torchtitan v0.2.2 reads its config so (config/manager.py).
	if refusedBOM(d, "Python's tomllib, which torchtitan reads its configs with, refuses it", "Invalid statement") {
		return
	}
	b := &tomlBuilder{d: d, x: d.Lines(), src: d.Src, lim: lim}
	root := b.alloc.new()
	root.Kind, root.Style = Map, "block"
	root.Span = Span{Start: b.pos(0), End: b.pos(0)}
	b.root = root
	var p unstable.Parser
	p.Reset(b.src)
	cur := root
	for p.NextExpression() && !b.fatal {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			cur = b.header(e)
		case unstable.KeyValue:
			b.keyValue(cur, e)
		}
	}
	if b.fatal {
		return
	}
	if err := p.Error(); err != nil {
		b.syntaxError(err)
		return
	}
	d.Root = root
	d.Comments = collectComments(b.x, b.src, "", b.noComment, false)
}

const (
	tomlHeader      uint8 = 1 << iota // defined by a [table] header
	tomlDotted                        // defined by dotted keys
	tomlInline                        // an inline table or array: closed to later additions
	tomlArrayTables                   // a sequence made by [[...]] headers
	tomlValue                         // a value written with "="
)

type tomlBuilder struct {
	d   *Document
	x   *LineIndex
	src []byte
	lim Limits

	root        *Node
	index       map[*Node]map[string]*Node // key -> last child, for tables too large to scan
	nodes, dups int
	fatal       bool
	alloc       nodeAlloc
	noComment   [][2]int
}

func (b *tomlBuilder) pos(off int) Pos { return b.x.Pos(off) }

// rng converts a range the parser gives into start and end offsets in src.
func (b *tomlBuilder) rng(r unstable.Range) (int, int) {
	return int(r.Offset), int(r.Offset) + int(r.Length)
}

func (b *tomlBuilder) span(start, end int) Span { return Span{Start: b.pos(start), End: b.pos(end)} }

// stop reports the file's one fatal problem at [start, end) and stops reading: the document has
// no tree. limit and refuse (toml10.go) are its two kinds.
func (b *tomlBuilder) stop(kind ProblemKind, msg string, start, end int) {
	if !b.fatal {
		b.fatal = true
		b.d.addProblem(kind, msg, start, end)
	}
}

func (b *tomlBuilder) limit(msg string, off int) { b.stop(LimitExceeded, msg, off, off) }

// keyPart is one part of a (dotted) key as written.
type keyPart struct {
	key        string
	start, end int
}

func (b *tomlBuilder) keyParts(it unstable.Iterator) []keyPart {
	var parts []keyPart
	for it.Next() {
		k := it.Node()
		s, e := b.rng(k.Raw)
		parts = append(parts, keyPart{key: string(k.Data), start: s, end: e})
		if e > s && (b.src[s] == '"' || b.src[s] == '\'') {
			b.noComment = append(b.noComment, [2]int{s, e})
			b.checkEscapes(s, e)
		}
	}
	return parts
}

// newChild adds an empty node for key under parent.
func (b *tomlBuilder) newChild(parent *Node, kp keyPart, kind Kind) *Node {
	b.nodes++
	if b.nodes > b.lim.MaxNodes {
		b.limit(limitMessage("the file has more than "+itoa(b.lim.MaxNodes)+" values", "max_nodes"), kp.start)
		return nil
	}
	if parent.Depth()+1 > b.lim.MaxDepth {
		b.limit(limitMessage("nesting is deeper than "+itoa(b.lim.MaxDepth)+" levels", "max_depth"), kp.start)
		return nil
	}
	n := b.alloc.new()
	n.Kind = kind
	n.setParent(parent)
	n.Index = len(parent.Children)
	if parent.Kind != Seq {
		n.Key = kp.key
		n.KeySpan = b.span(kp.start, kp.end)
		if m := b.index[parent]; m != nil {
			m[kp.key] = n
		}
	}
	parent.Children = append(parent.Children, n)
	return n
}

// lookup returns the last child of parent with the key: by a scan in small tables, through an
// index built on first use in large ones.
func (b *tomlBuilder) lookup(parent *Node, key string) *Node {
	if len(parent.Children) <= 16 {
		for i := len(parent.Children) - 1; i >= 0; i-- {
			if c := parent.Children[i]; c.Key == key {
				return c
			}
		}
		return nil
	}
	m := b.index[parent]
	if m == nil {
		if b.index == nil {
			b.index = map[*Node]map[string]*Node{}
		}
		m = make(map[string]*Node, 2*len(parent.Children))
		for _, c := range parent.Children {
			m[c.Key] = c
		}
		b.index[parent] = m
	}
	return m[key]
}

// extend grows n and its ancestors to cover [start, end).
func (b *tomlBuilder) extend(n *Node, start, end int) {
	for a := n; a != nil; a = a.Parent {
		changed := false
		if a.Span.IsZero() || start < a.Span.Start.Offset {
			a.Span.Start = b.pos(start)
			changed = true
		}
		if a.Span.IsZero() || end > a.Span.End.Offset {
			a.Span.End = b.pos(end)
			changed = true
		}
		if !changed {
			return
		}
	}
}

func dotted(parts []keyPart) string {
	var p Path
	for _, k := range parts {
		p = append(p, PathElem{Key: k.key})
	}
	return p.String()
}

// redefined reports a TOML key or table defined twice.
func (b *tomlBuilder) redefined(_ string, first *Node, kp keyPart) {
	second := b.span(kp.start, kp.end)
	what := first.Path().String()
	msg := RepeatedKeyMessage(what, "TOML does not allow this, so the file does not load")
	if first.Kind == Map && first.Style == "block" && kp.start > 0 && b.isHeader(kp.start) {
		msg = "table " + strconv.Quote(what) + " is defined twice; TOML does not allow this, so the file does not load"
	}
	b.dups++
	if b.dups > maxDupProblems {
		return
	}
	if b.dups == maxDupProblems {
		msg += MoreDuplicatesNote
	}
	f := first.KeySpan
	b.d.Problems = append(b.d.Problems, Problem{Kind: DuplicateKey, Message: msg, Span: second,
		Related: &f, RelatedMessage: "first definition of " + strconv.Quote(what)})
}

// header handles [a.b] and [[a.b]] and returns the table that following key-values fill.
func (b *tomlBuilder) header(e *unstable.Node) *Node {
	parts := b.keyParts(e.Key())
	if len(parts) == 0 {
		return b.root
	}
	// The header spans from its '[' to its closing bracket.
	hs := parts[0].start
	for hs > 0 && (b.src[hs-1] == ' ' || b.src[hs-1] == '\t' || b.src[hs-1] == '[') {
		hs--
	}
	he := parts[len(parts)-1].end
	for he < len(b.src) && (b.src[he] == ' ' || b.src[he] == '\t' || b.src[he] == ']') {
		he++
	}
	t := b.root
	for i, kp := range parts[:len(parts)-1] {
		next := b.lookup(t, kp.key)
		switch {
		case next == nil:
			next = b.blockChild(t, kp, Map, 0)
			if next == nil {
				return b.root
			}
		case next.Kind == Seq && next.flags&tomlArrayTables != 0 && len(next.Children) > 0:
			next = next.Children[len(next.Children)-1]
		case next.Kind == Map && next.flags&tomlInline == 0:
		default:
			b.redefined(dotted(parts[:i+1]), next, kp)
			next = b.blockChild(t, kp, Map, 0)
			if next == nil {
				return b.root
			}
		}
		t = next
	}
	last := parts[len(parts)-1]
	existing := b.lookup(t, last.key)
	if e.Kind == unstable.ArrayTable {
		seq := existing
		if seq == nil || seq.Kind != Seq || seq.flags&tomlArrayTables == 0 {
			if seq != nil {
				b.redefined(dotted(parts), seq, last)
			}
			seq = b.blockChild(t, last, Seq, tomlArrayTables)
			if seq == nil {
				return b.root
			}
		}
		return b.headerTable(seq, last, hs, he)
	}
	if existing != nil && existing.Kind == Map && existing.flags&(tomlHeader|tomlDotted|tomlInline|tomlValue) == 0 {
		// Created implicitly by an earlier [a.b.c]: this header defines it now.
		existing.flags |= tomlHeader
		existing.KeySpan = b.span(last.start, last.end)
		b.extend(existing, hs, he)
		return existing
	}
	if existing != nil {
		b.redefined(dotted(parts), existing, last)
		if existing.Kind == Map && existing.flags&tomlInline == 0 {
			b.extend(existing, hs, he)
			return existing
		}
	}
	return b.headerTable(t, last, hs, he)
}

// headerTable creates the table a [header] defines under parent (for [[header]], the new item
// of the array), spanning the header text [hs, he). A limit that stops the parse gives b.root,
// as header's other early exits do.
func (b *tomlBuilder) headerTable(parent *Node, kp keyPart, hs, he int) *Node {
	n := b.blockChild(parent, kp, Map, tomlHeader)
	if n == nil {
		return b.root
	}
	b.extend(n, hs, he)
	return n
}

// blockChild adds under parent a table or array of tables that a header or a dotted key defines
// (Style "block": the node is not itself written as an inline {...}), marked with flags. nil
// when a limit stopped the parse.
func (b *tomlBuilder) blockChild(parent *Node, kp keyPart, kind Kind, flags uint8) *Node {
	n := b.newChild(parent, kp, kind)
	if n != nil {
		n.Style = "block"
		n.flags |= flags
	}
	return n
}

// leafValue creates the node for the value of a (dotted) key whose last part goes in table t,
// for key-values at top level and in inline tables alike; a key already there is reported as
// redefined. nil when a limit stopped the parse.
func (b *tomlBuilder) leafValue(t *Node, parts []keyPart) *Node {
	last := parts[len(parts)-1]
	if prev := b.lookup(t, last.key); prev != nil {
		b.redefined(dotted(parts), prev, last)
	}
	n := b.newChild(t, last, Scalar)
	if n != nil {
		n.flags |= tomlValue
	}
	return n
}

// keyValue adds `a.b.c = value` to table t.
func (b *tomlBuilder) keyValue(t *Node, e *unstable.Node) {
	parts := b.keyParts(e.Key())
	if len(parts) == 0 {
		return
	}
	for i, kp := range parts[:len(parts)-1] {
		next := b.lookup(t, kp.key)
		switch {
		case next == nil:
			next = b.blockChild(t, kp, Map, tomlDotted)
			if next == nil {
				return
			}
		case next.Kind == Map && next.flags&tomlDotted != 0:
		default:
			b.redefined(dotted(parts[:i+1]), next, kp)
			next = b.blockChild(t, kp, Map, tomlDotted)
			if next == nil {
				return
			}
		}
		t = next
	}
	n := b.leafValue(t, parts)
	if n == nil {
		return
	}
	end := b.value(n, e.Value(), b.skipSep(parts[len(parts)-1].end))
	if b.fatal {
		return
	}
	b.extend(t, parts[0].start, end)
}

// skipSep skips whitespace, line breaks, comments and the separators ',' and '=' from i.
func (b *tomlBuilder) skipSep(i int) int {
	s := b.src
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\r', '\n', ',', '=':
			i++
		case '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// value fills n from the parser's value node v, whose text starts at or after start, and returns
// the end offset of the value's text.
func (b *tomlBuilder) value(n *Node, v *unstable.Node, start int) int {
	switch v.Kind {
	case unstable.Array, unstable.InlineTable:
		if n.Depth() > b.lim.MaxDepth {
			b.limit(limitMessage("nesting is deeper than "+itoa(b.lim.MaxDepth)+" levels", "max_depth"), start)
			return start
		}
		n.Style = "flow"
		n.flags |= tomlInline
		closer := byte(']')
		if v.Kind == unstable.InlineTable {
			n.Kind = Map
			closer = '}'
			start, _ = b.rng(v.Raw)
		} else {
			n.Kind = Seq
		}
		n.Span.Start = b.pos(start)
		end := start + 1
		inline := v.Kind == unstable.InlineTable
		it := v.Children()
		for it.Next() && !b.fatal {
			c := it.Node()
			switch c.Kind {
			case unstable.Comment:
				continue
			case unstable.KeyValue:
				parts := b.keyParts(c.Key())
				if len(parts) == 0 {
					continue
				}
				if inline {
					b.checkInlineGap(end, parts[0].start, false)
				}
				t := n
				for i, kp := range parts[:len(parts)-1] {
					next := b.lookup(t, kp.key)
					if next == nil || next.Kind != Map || next.flags&tomlDotted == 0 {
						if next != nil {
							b.redefined(dotted(parts[:i+1]), next, kp)
						}
						next = b.blockChild(t, kp, Map, tomlDotted|tomlInline)
						if next == nil {
							return end
						}
					}
					t = next
				}
				child := b.leafValue(t, parts)
				if child == nil {
					return end
				}
				end = b.value(child, c.Value(), b.skipSep(parts[len(parts)-1].end))
				for a := t; a != n; a = a.Parent {
					if a.Span.IsZero() || parts[0].start < a.Span.Start.Offset {
						a.Span.Start = b.pos(parts[0].start)
					}
					if a.Span.IsZero() || end > a.Span.End.Offset {
						a.Span.End = b.pos(end)
					}
				}
			default:
				es := b.skipSep(end)
				child := b.newChild(n, keyPart{start: es, end: es}, Scalar)
				if child == nil {
					return end
				}
				end = b.value(child, c, es)
			}
		}
		if b.fatal {
			return end
		}
		i := b.skipSep(end)
		if inline {
			b.checkInlineGap(end, i, true)
		}
		if i < len(b.src) && b.src[i] == closer {
			end = i + 1
		}
		n.Span.End = b.pos(end)
		return end
	}
	s, e := b.rng(v.Raw)
	n.Kind = Scalar
	n.Span = b.span(s, e)
	n.Style = "plain"
	switch v.Kind {
	case unstable.String:
		n.Type, n.Value, n.Quoted = String, string(v.Data), true
		n.Style = "double"
		if b.src[s] == '\'' {
			n.Style = "single"
		}
		b.noComment = append(b.noComment, [2]int{s, e})
		b.checkEscapes(s, e)
		if IsPlaceholder(n.Value) {
			n.Type = Unknown
		}
	case unstable.Bool:
		n.Type, n.Value = Bool, string(v.Data)
	case unstable.Integer:
		n.Type, n.Value = Int, string(v.Data)
	case unstable.Float:
		n.Type, n.Value = Float, string(v.Data)
	default: // dates and times
		n.Type, n.Value = String, string(v.Data)
		b.checkDateTime(s, e)
	}
	return e
}

// dropCodePoints rewrites go-toml's "U+0041 'A'" as "'A'": what the regular expression
// `U\+[0-9A-F]{4,6} ('.+?')` replaced by its group did, without linking package regexp into the
// WebAssembly module (TestDropCodePointsLikeRegexp).
func dropCodePoints(msg string) string {
	var b strings.Builder
	last := 0
	for i := 0; i+1 < len(msg); i++ {
		if msg[i] != 'U' || msg[i+1] != '+' {
			continue
		}
		j := i + 2
		for j < len(msg) && j-(i+2) < 6 && (msg[j] >= '0' && msg[j] <= '9' || msg[j] >= 'A' && msg[j] <= 'F') {
			j++
		}
		if n := j - (i + 2); n < 4 || j+2 >= len(msg) || msg[j] != ' ' || msg[j+1] != '\'' {
			continue
		}
		// '.+?': at least one character other than a line break, up to the first quote after it.
		q := j + 2
		if msg[q] == '\n' {
			continue
		}
		_, size := utf8.DecodeRuneInString(msg[q:])
		end := -1
		for k := q + size; k < len(msg) && msg[k] != '\n'; k++ {
			if msg[k] == '\'' {
				end = k + 1
				break
			}
		}
		if end < 0 {
			continue
		}
		b.WriteString(msg[last:i])
		b.WriteString(msg[j+1 : end])
		last = end
		i = end - 1
	}
	if last == 0 {
		return msg
	}
	b.WriteString(msg[last:])
	return b.String()
}

// syntaxError turns go-toml's error into a parse-error at its highlighted bytes.
func (b *tomlBuilder) syntaxError(err error) {
	b.d.Root = nil
	var pe *unstable.ParserError
	start, end := len(b.src), len(b.src)
	msg := err.Error()
	if errors.As(err, &pe) {
		if pe.Highlight != nil {
			start = cap(b.src) - cap(pe.Highlight)
			end = start + len(pe.Highlight)
		}
		msg = pe.Message
	}
	start = max(0, min(start, len(b.src)))
	end = max(start, min(end, len(b.src)))
	if strings.Contains(msg, "nested more than the maximum") {
		b.d.addProblem(LimitExceeded, "arrays and inline tables are nested deeper than the TOML parser's own limit of 10000 levels, which cannot be raised; the file was not analysed", start, end)
		return
	}
	msg = dropCodePoints(msg)
	// go-toml quotes the byte it stopped at as if it were a character: a non-ASCII one shows as
	// its Latin-1 reading ('Ã' for the first byte of é). Quote the character written there.
	if start < len(b.src) && b.src[start] >= utf8.RuneSelf {
		if bad := "'" + string(rune(b.src[start])) + "'"; strings.HasSuffix(msg, bad) {
			r, size := utf8.DecodeRune(b.src[start:])
			msg = strings.TrimSuffix(msg, bad) + strconv.QuoteRune(r)
			end = max(end, start+size)
		}
	}
	msg = strings.NewReplacer("U+000A", "a line break", "U+000D", "a carriage return", "U+0009", "a tab").Replace(msg)
	switch {
	case strings.HasPrefix(msg, "unexpected character ") && strings.HasSuffix(msg, " at start of value"):
		msg = "expected a value, found " + strings.TrimSuffix(strings.TrimPrefix(msg, "unexpected character "), " at start of value")
	case strings.HasPrefix(msg, "expected newline but got "):
		msg = "expected a line break after the value (one key = value per line), found " + strings.TrimPrefix(msg, "expected newline but got ")
	case msg == "basic strings cannot have new lines" || msg == "literal strings cannot have new lines":
		msg = "the string is not closed before the end of the line"
		// Point at the opening quote: the string holds no other quote of its kind.
		q := byte('"')
		if strings.HasPrefix(pe.Message, "literal") {
			q = '\''
		}
		for i := start - 1; i >= 0 && b.src[i] != '\n'; i-- {
			if b.src[i] == q {
				start, end = i, i+1
				break
			}
		}
	}
	b.d.addProblem(Syntax, msg, start, end)
}

// isHeader reports whether the key part at off is inside a [table] header line.
func (b *tomlBuilder) isHeader(off int) bool {
	i := off
	for i > 0 && b.src[i-1] != '\n' {
		i--
	}
	for i < off && (b.src[i] == ' ' || b.src[i] == '\t') {
		i++
	}
	return b.src[i] == '['
}
