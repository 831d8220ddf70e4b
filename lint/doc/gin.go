package doc

import (
	"errors"
	"strconv"
	"strings"
)

// The gin front-end (gin-config, as T5X and flaxformer use it). No Go library reads gin, so
// this is ours, on the shared Python tokenizer (pylex.go). Statements:
//
//	from __gin__ import dynamic_registration      import (recorded in Document.Refs)
//	import t5x.utils as utils                      import
//	include 't5x/configs/runs/pretrain.gin'        include (Refs; composition reads it)
//	BATCH_SIZE = 128                               macro: a top-level key
//	train/utils.DatasetConfig.batch_size = 128     binding: key path train/utils → DatasetConfig → batch_size
//	train_script.train:                            block: the indented lines bind its parameters
//	  eval_period = 1000
//
// Key paths split the binding's selector at dots; a scope stays on its configurable's first
// part ("train/utils"), so a scoped binding never reads as the unscoped one. Values are Python
// literals (numbers, strings, True/False/None, lists, tuples, dicts), references `@fn` and
// `@fn()` (Unknown scalars whose Value is the reference as written; Style "reference") and
// macros `%NAME`: resolved to a copy of the macro's value whose spans are the definition's
// (findings and fixes land where the value is written) with Node.Use at the `%NAME`; a macro
// this file does not define, and `%gin.REQUIRED`, are Unknown scalars. A binding repeated in
// one file is a duplicate-key problem (gin keeps the later one), unless the first binding was
// %gin.REQUIRED.

func parseGin(d *Document, lim Limits, fork bool) {
	// gin-config opens a config file as text, "utf-8" keeps the mark, and its parser then
	// stops at it ("Unexpected token", config_parser.py at 8ebbd2a).
	if refusedBOM(d, "gin-config reads it as text with the mark kept and refuses it", "Unexpected token") {
		return
	}
	g := getGinParser()
	defer g.release()
	g.tx = pyText{esc: g.tx.esc[:0]}
	toks, cms, err := pyLexInto(d.Src, 0, lim.MaxDepth, true, g.toks, &g.tx)
	text := g.tx.s
	if cap(toks) > cap(g.toks) {
		g.toks = toks[:0]
	}
	x := d.Lines()
	d.Comments = pyComments(x, d.Src, cms, text, 0)
	if err != nil {
		d.addCodeError("gin: ", err)
		return
	}
	g.toks, g.i = toks, 0
	g.d, g.lim, g.x, g.lc, g.src, g.fork = d, lim, x, lineCursor{x: x}, text, fork
	root := g.node()
	root.Kind, root.Style = Map, "block"
	g.root = root
	ok := g.file()
	if len(g.frefs) > 0 {
		// Collected in the parser's list, copied once at their number (a syntax error
		// further on keeps those before it).
		d.Refs = append([]FileRef(nil), g.frefs...)
	}
	if !ok {
		return
	}
	root.Span = x.Span(0, len(d.Src))
	g.resolveMacros()
	if g.fatal {
		return
	}
	g.finish(root)
	d.Root = root
}

// ginParser reads one file's tokens. Parsers are pooled (getGinParser): the token list, the
// selector buffers, the macro list, the scratch child lists and the node slab are kept between
// files, so a file allocates its nodes, one block of child lists, its comments and its refs
// (and the lexer's copy of the source), little else.
type ginParser struct {
	toks  []pyTok // read through an index (tok, adv, at), not pyCursor's copies
	i     int
	d     *Document
	lim   Limits
	x     *LineIndex
	root  *Node
	nodes int
	dups  int
	refs  []*Node   // %MACRO placeholders, resolved after the whole file is read
	frefs []FileRef // the file's imports and includes (Document.Refs)
	fatal bool
	fork  bool // the grammar of HorizonRobotics' fork (Options.GinFork)
	lc    lineCursor
	src   string // the lexer's copy of the source (names are slices of it)
	tx    pyText // the token texts (src is its s)
	// slab hands out the trees' nodes (node); began says this file has taken a node from it,
	// spilled that it then needed a new block.
	slab           []Node
	began, spilled bool
	uses           []Span
	// reusable buffers: a selector's parts, a block line's full key path, the maps a binding
	// passes through
	keyBuf, paramBuf, refBuf, pathBuf []selPart
	hit                               *Node // get's last find at the top level
	// wide indexes the children of maps with ginIndexAt or more keys by key: get scanned a
	// map's list once per binding, quadratic in a file of tens of thousands of distinct
	// configurables (40,000 one-line bindings took 7 s).
	wide map[*Node]map[string]*Node
	// kids holds the child lists while the file is read (a list that fills up moves to the end
	// with twice the room); finish copies the final lists into one exact block of the tree.
	kids  []*Node
	nkids int // entries added to child lists (an upper bound of the tree's)
}

var ginParsers keeper[ginParser]

func getGinParser() *ginParser {
	if g := ginParsers.get(); g != nil {
		return g
	}
	return &ginParser{kids: make([]*Node, 0, 1024)}
}

// release returns g to the pool with its buffers (huge ones dropped) and nothing else of this
// file. The scratch child lists are not cleared: they keep at most a few trees of the last
// files alive, and clearing them cost more than the rest of the release.
func (g *ginParser) release() {
	clear(g.refs)
	clear(g.frefs)
	g.toks, g.kids, g.refs, g.frefs = g.toks[:0], g.kids[:0], g.refs[:0], g.frefs[:0]
	if cap(g.toks) > 1<<16 {
		g.toks = nil
	}
	if cap(g.kids) > 1<<14 {
		g.kids = make([]*Node, 0, 1024)
	}
	if cap(g.refs) > 1<<12 || cap(g.frefs) > 1<<12 {
		g.refs, g.frefs = nil, nil
	}
	g.i, g.d, g.x, g.root, g.nodes, g.dups, g.fatal, g.lc, g.src = 0, nil, nil, nil, 0, 0, false, lineCursor{}, ""
	g.hit, g.wide = nil, nil
	g.nkids = 0
	// A file whose nodes span two blocks does not hand the rest of its last block to the next
	// file (TestGinTreesNotRetained): a block's nodes all stay alive while any of them is
	// reachable, and this file's nodes there point back at its first block. Only blocks
	// shared by files that each lie in one block are handed on, so a tree keeps at most the
	// one block before its own alive, never a chain of earlier trees.
	if g.spilled {
		g.slab = nil
	}
	g.began, g.spilled = false, false
	ginParsers.put(g)
}

// ginSlab is how many nodes a slab holds: 85 of 192 bytes fill a 16 KiB size class.
const ginSlab = 85

// node hands out a zero node from the parser's slab: a file's tree takes the nodes it needs
// without counting them first (a count from the tokens cost about as much as a tenth of the
// nodes it reserved in excess), from what the file before left in its block when that file
// lay in one block (release), then from new blocks of ginSlab.
func (g *ginParser) node() *Node {
	if len(g.slab) == 0 {
		size := ginSlab
		if g.began { // the rest of this file only: sized from the tokens left
			size = min(max((len(g.toks)-g.i)/4+4, 8), ginSlab)
		}
		g.slab = make([]Node, size)
		g.spilled = g.began
	}
	g.began = true
	n := &g.slab[0]
	g.slab = g.slab[1:]
	return n
}

func (g *ginParser) tok() *pyTok { return &g.toks[g.i] }

// adv returns the current token and moves past it (never past the final pyEOF).
func (g *ginParser) adv() *pyTok {
	t := &g.toks[g.i]
	if t.kind != pyEOF {
		g.i++
	}
	return t
}

// at reports whether the current token is the one-character operator c.
func (g *ginParser) at(c byte) bool {
	t := &g.toks[g.i]
	return t.kind == pyOp && t.end-t.start == 1 && g.src[t.start] == c
}

// txt is a token's text (pyText.at).
func (g *ginParser) txt(t *pyTok) string { return g.tx.at(t) }

// addKid appends c to a child list held in g.kids.
func (g *ginParser) addKid(list []*Node, c *Node) []*Node {
	g.nkids++
	if len(list) < cap(list) {
		return append(list, c)
	}
	return g.moveKids(list, c)
}

// moveKids is addKid for a full list: it moves to the end of g.kids with twice the room (not
// inlined, so that addKid is).
//
//go:noinline
func (g *ginParser) moveKids(list []*Node, c *Node) []*Node {
	n := max(2*len(list), 4)
	if len(g.kids)+n > cap(g.kids) {
		// A new scratch array (the lists already in the old one stay valid there).
		g.kids = make([]*Node, 0, max(2*cap(g.kids), n))
	}
	at := len(g.kids)
	g.kids = g.kids[:at+n]
	moved := g.kids[at : at+len(list) : at+n]
	copy(moved, list)
	return append(moved, c)
}

// kidList is an empty scratch child list with room for n.
func (g *ginParser) kidList(n int) []*Node {
	if len(g.kids)+n > cap(g.kids) {
		g.kids = make([]*Node, 0, max(2*cap(g.kids), n))
	}
	at := len(g.kids)
	g.kids = g.kids[:at+n]
	return g.kids[at : at : at+n]
}

// finish moves every child list of the tree into one block (of the size the lists were given,
// exact unless a binding was replaced) and sets Parent (with the depth) and Index on every node
// below root. The block doubles as the walk's queue: a node's children are
// laid out in it before the nodes after them are visited.
func (g *ginParser) finish(root *Node) {
	block := make([]*Node, g.nkids)
	next := 0
	n := root
	for done := 0; ; done++ {
		if k := len(n.Children); k > 0 {
			if next+k > len(block) {
				block = append(block[:next], make([]*Node, k)...) // not reached: nkids bounds the lists
			}
			kids := block[next : next+k : next+k]
			copy(kids, n.Children)
			next += k
			n.Children = kids
			seq := n.Kind == Seq
			for i, c := range kids {
				c.setParent(n)
				c.Index = i
				if seq {
					c.Key = ""
					c.KeySpan = Span{}
				}
			}
		} else if n.Children != nil {
			n.Children = nil
		}
		if done == next {
			return
		}
		n = block[done]
	}
}

type ginStop struct{}

func (g *ginParser) fail(off int, msg string) {
	end := off + 1
	if end > len(g.d.Src) {
		end = len(g.d.Src)
	}
	g.d.addProblem(Syntax, msg, off, end)
	g.fatal = true
	panic(ginStop{})
}

func (g *ginParser) failTok(t pyTok, want string) {
	what := "end of file"
	switch t.kind {
	case pyNewline:
		what = "end of line"
	case pyIndent:
		what = "unexpected indentation"
	case pyDedent:
		what = "end of block"
	case pyString:
		what = "string " + strconv.Quote(Shorten(g.txt(&t), 40))
	case pyName, pyNumber, pyOp:
		what = strconv.Quote(g.txt(&t))
	}
	g.fail(t.start, "gin: expected "+want+", found "+what)
}

func (g *ginParser) expectOp(c byte) *pyTok {
	if !g.at(c) {
		g.failTok(*g.tok(), strconv.Quote(string(c)))
	}
	return g.adv()
}

func (g *ginParser) expectNewline() {
	t := g.tok()
	if t.kind == pyNewline {
		g.i++
		return
	}
	if t.kind == pyEOF || t.kind == pyDedent {
		return
	}
	g.failTok(*t, "end of line")
}

func (g *ginParser) file() (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, stop := r.(ginStop); !stop {
				panic(r)
			}
			ok = false
		}
	}()
	for {
		t := g.tok()
		switch t.kind {
		case pyEOF:
			return true
		case pyNewline:
			g.i++
			continue
		case pyIndent, pyDedent:
			// Outside a block gin skips indentation (config_parser's
			// _skip_whitespace_and_comments): an indented line is a statement like any other.
			g.i++
			continue
		case pyName:
			switch g.txt(t) {
			case "include":
				if g.toks[g.i+1].kind == pyString {
					g.i++
					s := g.adv()
					target, end := g.strings(s) // adjacent strings make one path
					if s.is(pfxBytes) {
						g.fail(s.start, "gin: expected a file path as a string, found bytes")
					}
					g.frefs = append(g.frefs, FileRef{Kind: "include", Target: target, Span: g.lc.span(s.start, end)})
					g.expectNewline()
					continue
				}
			case "import", "from":
				if g.toks[g.i+1].kind == pyName {
					g.importStmt()
					continue
				}
			}
			g.binding()
			continue
		case pyOp:
			if g.txt(t) == "%" {
				g.binding()
				continue
			}
		}
		g.failTok(*t, "a binding (configurable.parameter = value), an import or an include")
	}
}

func (g *ginParser) importStmt() {
	kw := g.adv()
	mod, s, e := g.dotted()
	if g.txt(kw) == "from" {
		if t := g.adv(); t.kind != pyName || g.txt(t) != "import" {
			g.failTok(*t, `"import"`)
		}
		n := g.ident("a name") // one name: gin's _parse_identifier
		mod += "." + g.txt(n)
		e = n.end
	}
	if t := g.tok(); t.kind == pyName && g.txt(t) == "as" {
		g.i++
		e = g.ident("a name").end
	}
	g.frefs = append(g.frefs, FileRef{Kind: "import", Target: mod, Span: g.lc.span(s, e)})
	g.expectNewline()
}

// strings reads the strings adjacent to first (already read) as one value, as gin does (by
// literal_eval of them together, which refuses bytes beside str): its text and end.
func (g *ginParser) strings(first *pyTok) (string, int) {
	if first.is(pfxFormat) {
		g.fail(first.start, fstringRefused)
	}
	text, end := g.txt(first), first.end
	for g.tok().kind == pyString {
		n := g.adv()
		if n.is(pfxFormat) {
			g.fail(n.start, fstringRefused)
		}
		if n.is(pfxBytes) != first.is(pfxBytes) {
			g.fail(n.start, "gin: cannot mix bytes and nonbytes literals")
		}
		text += g.txt(n)
		end = n.end
	}
	return text, end
}

// fstringRefused: gin reads a string with ast.literal_eval (config_parser.py
// _maybe_parse_basic_type), which refuses an f-string (a JoinedStr is no literal).
const fstringRefused = "gin: an f-string is not a literal gin reads"

// dotted reads NAME(.NAME)*, written without spaces (gin's _parse_selector refuses them).
func (g *ginParser) dotted() (string, int, int) {
	t := g.ident("a name")
	s, e := t.start, t.end
	for g.at('.') {
		dot := g.adv()
		n := g.ident("a name")
		if dot.start != e || n.start != dot.end {
			g.fail(dot.start, "gin: no spaces inside a module name")
		}
		e = n.end
	}
	return g.src[s:e], s, e
}

// ident reads one name (want says what, when the token is none), which gin requires to start
// with an ASCII letter or an underscore (IDENTIFIER_RE).
func (g *ginParser) ident(want string) *pyTok {
	t := g.adv()
	if t.kind != pyName {
		g.failTok(*t, want)
	}
	if c := g.src[t.start]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		g.fail(t.start, "gin: invalid identifier name "+strconv.Quote(g.txt(t)))
	}
	return t
}

// selector reads [scope/]*name(.name)* and returns its parts split at dots (the scope stays on
// the first part) as byte ranges (names are written without spaces: a part's text is the
// source's, g.part).
type selPart struct{ start, end int }

// selMode is what a selector may hold, as gin's parser allows.
type selMode uint8

const (
	selKey   selMode = iota // a binding's key: [scope/]*configurable.parameter, no period in a scope
	selParam                // a parameter in a block: one name
	selRef                  // an @reference or a %MACRO: periods allowed in scopes
)

func (g *ginParser) part(p selPart) string { return g.src[p.start:p.end] }

func (g *ginParser) selector(buf *[]selPart, mode selMode) []selPart {
	parts := (*buf)[:0]
	t := g.ident("a configurable name")
	cur := selPart{t.start, t.end}
	for {
		op := g.tok()
		if op.kind != pyOp || len(g.txt(op)) != 1 || g.txt(op)[0] != '/' && g.txt(op)[0] != '.' {
			break
		}
		if mode == selParam {
			g.failTok(*op, `"="`) // a block's parameter is one name
		}
		if op.start != cur.end || g.toks[g.i+1].start != op.end {
			g.fail(op.start, "gin: no spaces inside a configurable name")
		}
		if g.txt(op)[0] == '/' && mode == selKey && len(parts) > 0 {
			// A binding's scopes come first and hold no period: scope/configurable.param.
			g.fail(t.start, "gin: malformed scope or selector (scopes come first: scope/configurable.parameter)")
		}
		g.i++
		want := "a name"
		if g.txt(op)[0] == '/' {
			want = "a name after the scope"
		}
		n := g.ident(want)
		if g.txt(op)[0] == '/' {
			cur.end = n.end // the scoped name as written
			continue
		}
		parts = append(parts, cur)
		cur = selPart{n.start, n.end}
	}
	parts = append(parts, cur)
	*buf = parts[:0] // the buffer keeps the grown array
	return parts
}

func (g *ginParser) binding() {
	if start := g.tok(); start.kind == pyOp {
		g.failTok(*start, "a binding")
	}
	parts := g.selector(&g.keyBuf, selKey)
	switch {
	case g.at('='):
		g.i++
		v := g.value(0)
		g.bind(parts, v)
		g.expectNewline()
	case g.at(':'):
		g.i++
		if t := g.adv(); t.kind != pyNewline {
			g.failTok(*t, "end of line after the block's \":\"")
		}
		if t := g.adv(); t.kind != pyIndent {
			g.failTok(*t, "an indented parameter binding")
		}
		for {
			t := g.tok()
			if t.kind == pyDedent {
				g.i++
				break
			}
			if t.kind == pyEOF {
				break
			}
			if t.kind == pyNewline {
				g.i++
				continue
			}
			prefix := append(g.pathBuf[:0], parts...)
			param := g.selector(&g.paramBuf, selParam)
			g.expectOp('=')
			v := g.value(0)
			all := append(prefix, param...)
			g.pathBuf = all[:0]
			g.bind(all, v)
			g.expectNewline()
		}
	default:
		g.failTok(*g.tok(), `"=" or ":"`)
	}
}

// bind places value v at the key path parts. The leaf's KeySpan is the parameter name, as a
// key's span is its own token in the other formats; each configurable part is the KeySpan of
// its map.
func (g *ginParser) bind(parts []selPart, v *Node) {
	parent := g.root
	var onStack [8]*Node
	via := onStack[:0] // the maps passed through, for their spans
	for i, p := range parts[:len(parts)-1] {
		key := g.part(p)
		c := g.get(parent, key)
		if c != nil && c.Kind != Map {
			// `a.b = 1` binds parameter b of configurable a, `a.b.c = 2` parameter c of
			// configurable a.b (gin splits a key at its last dot, config_parser.py
			// _parse_selector): no repetition in gin, but one key here; the first is kept.
			return
		}
		if c == nil {
			c = g.node()
			c.Kind, c.Style, c.Key = Map, "block", key
			c.KeySpan = g.lc.span(p.start, p.end)
			c.Span = g.lc.span(parts[min(i, len(parts)-1)].start, p.end)
			c.Children = g.kidList(4)
			parent.Children = g.addKid(parent.Children, c)
			g.added(parent, c)
			g.count()
		}
		via = append(via, c)
		parent = c
	}
	last := parts[len(parts)-1]
	v.Key = g.part(last)
	v.KeySpan = g.lc.span(last.start, last.end)
	if old := g.get(parent, v.Key); old != nil {
		if old.Kind == Map && old.Style == "block" {
			return // configurable a.b, then parameter b of a (above): the first is kept
		}
		// `X = %gin.REQUIRED` then `X = value` declares a required binding and supplies it
		// (T5X's runs/export.gin does): not a mistake.
		if !(old.IsUnknown() && old.Value == "%gin.REQUIRED") {
			g.dup(g.dottedKey(parts), old, v.KeySpan)
		}
		g.remove(parent, old)
	}
	parent.Children = g.addKid(parent.Children, v)
	g.added(parent, v)
	// Parents span what they contain.
	for _, n := range via {
		if n.Span.End.Offset < v.Span.End.Offset {
			n.Span.End = v.Span.End
		}
	}
}

// get is parent.Get(key), first trying the top-level map the last binding went through
// (consecutive bindings mostly name the same configurable, and the top level is the longest
// list). Keys are unique among a map's children (a repeated one replaces the first), so the
// one remembered is the one Get finds.
func (g *ginParser) get(parent *Node, key string) *Node {
	if m := g.wide[parent]; m != nil {
		return m[key]
	}
	if len(parent.Children) >= ginIndexAt {
		m := make(map[string]*Node, 2*len(parent.Children))
		for _, c := range parent.Children {
			m[c.Key] = c
		}
		if g.wide == nil {
			g.wide = map[*Node]map[string]*Node{}
		}
		g.wide[parent] = m
		return m[key]
	}
	if parent != g.root {
		return parent.Get(key)
	}
	if h := g.hit; h != nil && h.Key == key {
		return h
	}
	c := parent.Get(key)
	if c != nil {
		g.hit = c
	}
	return c
}

// remove takes c out of parent's children (and out of get's memory).
func (g *ginParser) remove(parent, c *Node) {
	if g.hit == c {
		g.hit = nil
	}
	if m := g.wide[parent]; m != nil {
		delete(m, c.Key)
	}
	removeChild(parent, c)
}

// ginIndexAt is the number of keys from which a map's children are indexed (ginParser.wide).
const ginIndexAt = 64

// added records c, just appended to parent's children, in parent's index if it has one.
func (g *ginParser) added(parent, c *Node) {
	if m := g.wide[parent]; m != nil {
		m[c.Key] = c
	}
}

// dottedKey is a binding's key as gin names it (scope/configurable.parameter): the parts joined
// by periods, since a block's parameter is written lines away from its configurable.
func (g *ginParser) dottedKey(parts []selPart) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(g.part(p))
	}
	return b.String()
}

func (g *ginParser) dup(key string, old *Node, at Span) {
	first := old.KeySpan
	if first.IsZero() {
		first = old.Span
	}
	g.d.addDuplicate(key, first, at, "gin keeps the later binding", &g.dups)
}

func removeChild(parent, c *Node) {
	for i, x := range parent.Children {
		if x == c {
			parent.Children = append(parent.Children[:i], parent.Children[i+1:]...)
			return
		}
	}
}

func (g *ginParser) count() {
	g.nodes++
	if g.nodes > g.lim.MaxNodes {
		g.tooMany()
	}
}

func (g *ginParser) tooMany() {
	g.d.Problems = append(g.d.Problems, Problem{Kind: LimitExceeded,
		Message: limitMessage("file has more than "+itoa(g.lim.MaxNodes)+" values", "max_nodes"),
		Span:    g.lc.span(g.tok().start, g.tok().start)})
	g.fatal = true
	panic(ginStop{})
}

// scalar makes a scalar node (the block's nodes are zero: only the set fields are written).
func (g *ginParser) scalar(t Type, val string, s, e int, style string) *Node {
	g.count()
	n := g.node()
	n.Kind, n.Type, n.Value, n.Style = Scalar, t, val, style
	n.Span = g.lc.span(s, e)
	return n
}

// value reads one gin value.
func (g *ginParser) value(depth int) *Node {
	if depth > g.lim.MaxDepth {
		t := g.tok()
		g.d.Problems = append(g.d.Problems, Problem{Kind: LimitExceeded,
			Message: limitMessage("values nested deeper than "+itoa(g.lim.MaxDepth)+" levels", "max_depth"), Span: g.lc.span(t.start, t.start)})
		g.fatal = true
		panic(ginStop{})
	}
	t := g.adv()
	switch t.kind {
	case pyString:
		style := "single"
		if g.d.Src[t.body-1] == '"' {
			style = "double"
		}
		if c := g.d.Src[t.start]; t.prefix != 0 || c != '\'' && c != '"' || g.tok().kind == pyString {
			// prefixed (r'...', and u'...', whose prefix changes nothing) or concatenated: not
			// one plain literal
			style = "python"
		}
		val, end := g.strings(t)
		n := g.scalar(String, val, t.start, end, style)
		n.Quoted = true
		return n
	case pyNumber:
		return g.number(t, t.start)
	case pyName:
		switch g.txt(t) {
		case "True":
			return g.scalar(Bool, "true", t.start, t.end, "python")
		case "False":
			return g.scalar(Bool, "false", t.start, t.end, "python")
		case "None":
			return g.scalar(Null, "null", t.start, t.end, "python")
		}
		if g.fork {
			// An identifier reference (module.name, name(args)): the Python object it names,
			// looked up in the modules the file imports, unknown here.
			g.i--
			_, s, e := g.dotted()
			e = g.callArgs(depth, e)
			return g.scalar(Unknown, g.src[s:e], s, e, "reference")
		}
		g.fail(t.start, "gin: "+strconv.Quote(g.txt(t))+" is not a value (write a literal, @reference or %MACRO)")
	case pyOp:
		if len(g.txt(t)) != 1 {
			break
		}
		switch g.txt(t)[0] {
		case '-': // gin takes a minus sign before a number, and no plus sign
			if n := g.tok(); n.kind == pyOp && (g.txt(n) == "@" || g.txt(n) == "%") {
				// gin's parser consumes the minus while looking for a number, then reads the
				// reference or macro after it as if the minus were not there.
				return g.value(depth)
			}
			n := g.adv()
			if n.kind != pyNumber {
				g.failTok(*n, "a number")
			}
			return g.number(n, t.start)
		case '@':
			parts := g.selector(&g.refBuf, selRef)
			end := parts[len(parts)-1].end
			if g.fork {
				end = g.callArgs(depth, end)
			} else if g.at('(') {
				g.i++
				end = g.expectOp(')').end
			}
			return g.scalar(Unknown, g.src[t.start:end], t.start, end, "reference")
		case '%':
			parts := g.selector(&g.refBuf, selRef)
			end := parts[len(parts)-1].end
			name := g.src[parts[0].start:end]
			ref := g.src[t.start:end] // "%NAME" when written without a space
			if parts[0].start != t.end {
				ref = "%" + name
			}
			n := g.scalar(Unknown, ref, t.start, end, "macro")
			if name != "gin.REQUIRED" {
				g.refs = append(g.refs, n)
			}
			return n
		case '[', '(':
			var closer byte = ']'
			if g.txt(t)[0] == '(' {
				closer = ')'
			}
			n := g.node()
			n.Kind, n.Style = Seq, "flow"
			g.count()
			tuple := closer == ']'
			for !g.at(closer) {
				n.Children = g.addKid(n.Children, g.value(depth+1))
				if g.at(',') {
					g.i++
					tuple = true
					continue
				}
				if !g.at(closer) {
					g.failTok(*g.tok(), `"," or "`+string(closer)+`"`)
				}
			}
			e := g.adv()
			if closer == ')' && !tuple && len(n.Children) == 1 {
				// A parenthesised value, not a tuple.
				return n.Children[0]
			}
			n.Span = g.lc.span(t.start, e.end)
			if closer == ')' {
				n.Style = "python" // a tuple
			}
			return n
		case '{':
			n := g.node()
			n.Kind, n.Style = Map, "flow"
			g.count()
			for !g.at('}') {
				k := g.value(depth + 1)
				g.expectOp(':')
				v := g.value(depth + 1)
				switch {
				case k.Kind == Scalar:
					v.Key = k.Value
				case k.Kind == Seq && k.Style == "python":
					// a tuple, hashable as Python's dict keys must be: its text
					v.Key = g.spanText(k.Span)
				default:
					g.fail(k.Span.Start.Offset, "gin: a dict key must be a literal")
				}
				v.KeySpan = k.Span
				// Through the parser's index past ginIndexAt keys: a dict literal of a
				// tokenizer's 40,000 entries took seconds, each key compared with every other.
				if old := g.get(n, v.Key); old != nil {
					// 1 and '1', None and 'null', @f and '@f' are different keys to Python
					// (gin's dict keeps both); the tree keeps one of them.
					if ginKeyKind(g.spanText(old.KeySpan)) == ginKeyKind(g.spanText(k.Span)) {
						g.dup(v.Key, old, v.KeySpan)
					}
					g.remove(n, old)
				}
				n.Children = g.addKid(n.Children, v)
				g.added(n, v)
				if g.at(',') {
					g.i++
					continue
				}
				if !g.at('}') {
					g.failTok(*g.tok(), `"," or "}"`)
				}
			}
			e := g.adv()
			n.Span = g.lc.span(t.start, e.end)
			return n
		}
	}
	g.failTok(*t, "a value")
	return nil
}

// callArgs reads the arguments of a reference evaluated with them, `@name(1, lr=3e-4)` or
// `module.fn(...)`, in the grammar of HorizonRobotics' fork of gin-config, and returns where the
// value ends (end when no call follows). The fork (gin/config_parser.py at c8a2c66, lines
// 256-271, 450-538) parses them with _parse_args_kwargs: values, each optionally after `name=`,
// separated by commas; the reference stays opaque (its result is known only when it runs).
func (g *ginParser) callArgs(depth int, end int) int {
	if !g.at('(') {
		return end
	}
	g.i++
	for !g.at(')') {
		if t := g.tok(); t.kind == pyName && g.i+1 < len(g.toks) {
			if n := &g.toks[g.i+1]; n.kind == pyOp && g.txt(n) == "=" {
				g.i += 2 // a keyword argument's name
			}
		}
		g.value(depth + 1)
		if g.at(',') {
			g.i++
			continue
		}
		if !g.at(')') {
			g.failTok(*g.tok(), `"," or ")"`)
		}
	}
	return g.adv().end
}

// number reads a numeric literal; start is where its sign (if any) begins. Value is the text as
// written (Node.Int and Float read underscores and hex), a slice of the lexer's copy of the
// source. The lexer has matched the literal's shape; what is checked here is what it lets
// through: hex, octal and binary values past 64 bits, leading zeros, floats out of range.
func (g *ginParser) number(t *pyTok, start int) *Node {
	text := g.txt(t)
	written := g.src[start:t.end]
	if strings.IndexByte(text, '_') >= 0 {
		text = strings.ReplaceAll(text, "_", "")
	}
	if n := len(text); n > 0 && (text[n-1] == 'j' || text[n-1] == 'J') {
		return g.scalar(Unknown, written, start, t.end, "plain")
	}
	if len(text) > 1 && text[0] == '0' && strings.IndexByte("xobXOB", text[1]) >= 0 {
		if _, err := strconv.ParseInt(strings.ToLower(text), 0, 64); err == nil {
			return g.scalar(Int, written, start, t.end, "plain")
		}
		g.fail(t.start, "gin: invalid number "+strconv.Quote(g.txt(t)))
	}
	if strings.IndexAny(text, ".eE") < 0 {
		return g.scalar(Int, written, start, t.end, "plain") // the lexer refused leading zeros
	}
	if _, err := strconv.ParseFloat(text, 64); err != nil && !errors.Is(err, strconv.ErrRange) {
		g.fail(t.start, "gin: invalid number "+strconv.Quote(g.txt(t)))
	}
	// Out of float64's range (1e400) it is inf or 0.0 to Python's literal_eval, as gin reads it.
	return g.scalar(Float, written, start, t.end, "plain")
}

// resolveMacros replaces every %NAME placeholder with a copy of the top-level macro NAME
// (following chains, refusing cycles).
func (g *ginParser) resolveMacros() {
	defer func() {
		if r := recover(); r != nil {
			if _, stop := r.(ginStop); !stop {
				panic(r)
			}
		}
	}()
	// Macros used in many places copy their values there: like a YAML file's aliases, the file
	// may expand to its size in bytes plus a twentieth of MaxNodes (aliasBudget).
	most := min(g.lim.MaxNodes, aliasBudget(len(g.d.Src), g.lim))
	budget := most - g.nodes
	for _, ref := range g.refs {
		name := ref.Value[1:]
		def := g.get(g.root, name) // indexed: 20,000 macros took 0.9 s looked up one by one
		seen := 0
		for def != nil && def.Style == "macro" && def.Kind == Scalar && seen < 100 {
			// A macro defined as another macro: follow it (an unresolved one stays Unknown).
			nd := g.get(g.root, def.Value[1:])
			if nd == nil || nd == def {
				break
			}
			def = nd
			seen++
		}
		if def == nil || def.Style == "macro" || def == ref {
			continue
		}
		use := ref.Span
		key, keySpan := ref.Key, ref.KeySpan
		ok := true
		if len(def.Children) == 0 {
			ok = g.copyInto(ref, def, &budget)
		} else {
			// Copied aside first: the definition may hold this very reference (A = [%A]),
			// whose copy must be the reference as it was.
			cp := g.node()
			if ok = g.copyInto(cp, def, &budget); ok {
				*ref = *cp
			}
		}
		if !ok {
			g.d.Problems = append(g.d.Problems, Problem{Kind: LimitExceeded,
				Message: limitMessage("macros expand to more than "+itoa(most)+" values"+expandBudgetNote(most, g.lim), "max_nodes"), Span: use})
			g.fatal = true
			return
		}
		ref.Key, ref.KeySpan = key, keySpan
		ref.Alias = true
		if len(g.uses) == 0 {
			g.uses = make([]Span, 32) // the macro uses' spans, file after file as the nodes
		}
		ref.Use = &g.uses[0]
		g.uses[0], g.uses = use, g.uses[1:]
	}
}

// copyInto makes dst a deep copy of the subtree n (without n's Key, KeySpan or Parent; its
// descendants keep theirs); false when the budget of nodes runs out. The copies below dst come
// from the file's node block, their child lists from the scratch lists.
func (g *ginParser) copyInto(dst, n *Node, budget *int) bool {
	*budget--
	if *budget < 0 {
		return false
	}
	kids := n.Children
	*dst = *n
	dst.Key, dst.KeySpan, dst.Parent, dst.depth = "", Span{}, nil, 0
	if len(kids) > 0 {
		dst.Children = g.kidList(len(kids))
		for _, k := range kids {
			kc := g.node()
			if !g.copyInto(kc, k, budget) {
				return false
			}
			kc.Key, kc.KeySpan = k.Key, k.KeySpan
			dst.Children = append(dst.Children, kc)
			g.nkids++
		}
	}
	return true
}

// ginKeyKind is what kind of Python value a dict key written as text is, beside its value: a
// string (quoted, after any prefix letters), a tuple, a reference (@f), a macro (%M), None, a
// boolean or a number. It is read from the key's text only when two keys' values meet.
func ginKeyKind(text string) byte {
	if t := strings.TrimLeft(text, "rRbBuUfF"); t != "" && (t[0] == '\'' || t[0] == '"') {
		return 's'
	}
	switch {
	case text == "":
		return 0
	case text[0] == '(' || text[0] == '@' || text[0] == '%':
		return text[0]
	case text == "None":
		return 'n'
	case text == "True" || text == "False":
		return 'b'
	}
	return '0'
}

// spanText is the source text of s.
func (g *ginParser) spanText(s Span) string { return g.src[s.Start.Offset:s.End.Offset] }
