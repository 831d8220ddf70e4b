package doc

import (
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

func parseGin(d *Document, lim Limits) {
	base := 0
	if hasBOM(d.Src) {
		base = 3
	}
	var text string
	arena := getPyArena() // for its token list
	defer arena.release()
	toks, cms, err := pyLexInto(d.Src, base, lim.MaxDepth, true, arena.toks, &text)
	if cap(toks) > cap(arena.toks) {
		arena.toks = toks[:0]
	}
	x := d.Lines()
	d.Comments = pyComments(x, d.Src, cms, text, base)
	if err != nil {
		d.addProblem(Syntax, "gin: "+err.msg, err.off, min(err.off+1, len(d.Src)))
		return
	}
	g := &ginParser{pyCursor: pyCursor{toks: toks}, d: d, lim: lim, x: x, lc: lineCursor{x: x}, src: text, base: base}
	g.alloc.reserve(ginNodeEstimate(toks), 0)
	root := g.alloc.new()
	root.Kind, root.Style = Map, "block"
	g.root = root
	ok := g.file()
	if !ok {
		return
	}
	root.Span = x.Span(base, len(d.Src))
	g.resolveMacros()
	if g.fatal {
		return
	}
	finishTree(root)
	d.Root = root
}

type ginParser struct {
	pyCursor
	d     *Document
	lim   Limits
	x     *LineIndex
	root  *Node
	nodes int
	dups  int
	refs  []*Node // %MACRO placeholders, resolved after the whole file is read
	fatal bool
	lc    lineCursor
	src   string // the lexer's copy of the source from base on (names are slices of it)
	base  int
	alloc nodeAlloc
	// reusable buffers: a selector's parts, a block line's full key path
	keyBuf, paramBuf, refBuf, pathBuf []selPart
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
		what = "string " + strconv.Quote(shorten(t.text))
	case pyName, pyNumber, pyOp:
		what = strconv.Quote(t.text)
	}
	g.fail(t.start, "gin: expected "+want+", found "+what)
}

func shorten(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func (g *ginParser) expectOp(s string) pyTok {
	if !g.isOp(s) {
		g.failTok(g.peek(), strconv.Quote(s))
	}
	return g.next()
}

func (g *ginParser) expectNewline() {
	t := g.peek()
	if t.kind == pyNewline {
		g.next()
		return
	}
	if t.kind == pyEOF || t.kind == pyDedent {
		return
	}
	g.failTok(t, "end of line")
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
		t := g.peek()
		switch {
		case t.kind == pyEOF:
			return true
		case t.kind == pyNewline:
			g.next()
		case t.kind == pyIndent:
			g.fail(t.start, "gin: unexpected indentation")
		case t.kind == pyName && t.text == "include" && g.toks[g.i+1].kind == pyString:
			g.next()
			s := g.next()
			g.d.Refs = append(g.d.Refs, FileRef{Kind: "include", Target: s.text, Span: g.lc.span(s.start, s.end)})
			g.expectNewline()
		case t.kind == pyName && (t.text == "import" || t.text == "from") && g.toks[g.i+1].kind == pyName:
			g.importStmt()
		case t.kind == pyName || t.kind == pyOp && t.text == "%":
			g.binding()
		default:
			g.failTok(t, "a binding (configurable.parameter = value), an import or an include")
		}
	}
}

func (g *ginParser) importStmt() {
	kw := g.next()
	mod, s, e := g.dotted()
	if kw.text == "from" {
		if t := g.next(); t.kind != pyName || t.text != "import" {
			g.failTok(t, `"import"`)
		}
		name, _, ne := g.dotted()
		mod += "." + name
		e = ne
	}
	if t := g.peek(); t.kind == pyName && t.text == "as" {
		g.next()
		_, _, e = g.dotted()
	}
	g.d.Refs = append(g.d.Refs, FileRef{Kind: "import", Target: mod, Span: g.lc.span(s, e)})
	g.expectNewline()
}

// dotted reads NAME(.NAME)*.
func (g *ginParser) dotted() (string, int, int) {
	t := g.next()
	if t.kind != pyName {
		g.failTok(t, "a name")
	}
	s, e := t.start, t.end
	var b strings.Builder
	adjacent := true // written without spaces: the name is a slice of the source
	for g.isOp(".") {
		dot := g.next()
		n := g.next()
		if n.kind != pyName {
			g.failTok(n, "a name")
		}
		if adjacent && (dot.start != e || n.start != dot.end) {
			adjacent = false
			b.WriteString(g.src[s-g.base : e-g.base])
		}
		if !adjacent {
			b.WriteByte('.')
			b.WriteString(n.text)
		}
		e = n.end
	}
	if adjacent {
		return g.src[s-g.base : e-g.base], s, e
	}
	return b.String(), s, e
}

// selector reads [scope/]*name(.name)* and returns its parts split at dots (the scope stays on
// the first part), with each part's byte range.
type selPart struct {
	text       string
	start, end int
}

func (g *ginParser) selector(buf *[]selPart) []selPart {
	parts := (*buf)[:0]
	defer func() { *buf = parts[:0] }()
	t := g.next()
	if t.kind != pyName {
		g.failTok(t, "a configurable name")
	}
	cur := selPart{text: t.text, start: t.start, end: t.end}
	for {
		if (g.isOp("/") || g.isOp(".")) && (g.peek().start != cur.end || g.toks[g.i+1].start != g.peek().end) {
			g.fail(g.peek().start, "gin: no spaces inside a configurable name")
		}
		if g.isOp("/") {
			g.next()
			n := g.next()
			if n.kind != pyName {
				g.failTok(n, "a name after the scope")
			}
			cur.end = n.end
			cur.text = g.src[cur.start-g.base : cur.end-g.base] // adjacent tokens: the scoped name as written
			continue
		}
		if g.isOp(".") {
			g.next()
			n := g.next()
			if n.kind != pyName {
				g.failTok(n, "a name")
			}
			parts = append(parts, cur)
			cur = selPart{text: n.text, start: n.start, end: n.end}
			continue
		}
		break
	}
	// The buffer keeps the grown array (the deferred reset sees this append).
	parts = append(parts, cur)
	return parts
}

func (g *ginParser) binding() {
	start := g.peek()
	if start.kind == pyOp {
		g.failTok(start, "a binding")
	}
	parts := g.selector(&g.keyBuf)
	switch {
	case g.isOp("="):
		g.next()
		v := g.value(0)
		g.bind(parts, v)
		g.expectNewline()
	case g.isOp(":"):
		g.next()
		if t := g.next(); t.kind != pyNewline {
			g.failTok(t, "end of line after the block's \":\"")
		}
		if t := g.next(); t.kind != pyIndent {
			g.failTok(t, "an indented parameter binding")
		}
		for {
			t := g.peek()
			if t.kind == pyDedent {
				g.next()
				break
			}
			if t.kind == pyEOF {
				break
			}
			if t.kind == pyNewline {
				g.next()
				continue
			}
			prefix := append(g.pathBuf[:0], parts...)
			param := g.selector(&g.paramBuf)
			g.expectOp("=")
			v := g.value(0)
			all := append(prefix, param...)
			g.pathBuf = all[:0]
			g.bind(all, v)
			g.expectNewline()
		}
	default:
		g.failTok(g.peek(), `"=" or ":"`)
	}
}

// bind places value v at the key path parts. The leaf's KeySpan is the parameter name, as a
// key's span is its own token in the other formats; each configurable part is the KeySpan of
// its map.
func (g *ginParser) bind(parts []selPart, v *Node) {
	parent := g.root
	for i, p := range parts[:len(parts)-1] {
		c := parent.Get(p.text)
		if c == nil || c.Kind != Map {
			if c != nil {
				g.dup(p.text, c, g.lc.span(parts[0].start, p.end))
				removeChild(parent, c)
			}
			c = g.alloc.new()
			*c = Node{Kind: Map, Style: "block", Key: p.text, KeySpan: g.lc.span(p.start, p.end), Span: g.lc.span(parts[min(i, len(parts)-1)].start, p.end), Children: g.alloc.children(4)}
			parent.Children = append(parent.Children, c)
			g.count()
		}
		parent = c
	}
	last := parts[len(parts)-1]
	v.Key = last.text
	v.KeySpan = g.lc.span(last.start, last.end)
	if old := parent.Get(last.text); old != nil {
		// `X = %gin.REQUIRED` then `X = value` declares a required binding and supplies it
		// (T5X's runs/export.gin does): not a mistake.
		if !(old.IsUnknown() && old.Value == "%gin.REQUIRED") {
			g.dup(last.text, old, v.KeySpan)
		}
		removeChild(parent, old)
	}
	parent.Children = append(parent.Children, v)
	// Parents span what they contain.
	for n, i := g.root, 0; i < len(parts)-1; i++ {
		n = n.Get(parts[i].text)
		if n.Span.End.Offset < v.Span.End.Offset {
			n.Span.End = v.Span.End
		}
	}
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
		g.d.Problems = append(g.d.Problems, Problem{Kind: LimitExceeded,
			Message: limitMessage("file has more than "+itoa(g.lim.MaxNodes)+" values", "max_nodes"),
			Span:    g.lc.span(g.peek().start, g.peek().start)})
		g.fatal = true
		panic(ginStop{})
	}
}

func (g *ginParser) scalar(t Type, val string, s, e int, style string) *Node {
	g.count()
	n := g.alloc.new()
	*n = Node{Kind: Scalar, Type: t, Value: val, Style: style, Span: g.lc.span(s, e)}
	return n
}

// ginNodeEstimate guesses a file's node count from its tokens (a node per binding and per
// item, and one per bracket), so the nodes come in one block.
func ginNodeEstimate(toks []pyTok) int {
	n := 4
	for i := range toks {
		if t := &toks[i]; t.kind == pyOp && len(t.text) == 1 {
			switch t.text[0] {
			case '=', ',', '[', '(', '{':
				n++
			}
		}
	}
	return n
}

// value reads one gin value.
func (g *ginParser) value(depth int) *Node {
	if depth > g.lim.MaxDepth {
		t := g.peek()
		g.d.Problems = append(g.d.Problems, Problem{Kind: LimitExceeded,
			Message: limitMessage("values nested deeper than "+itoa(g.lim.MaxDepth)+" levels", "max_depth"), Span: g.lc.span(t.start, t.start)})
		g.fatal = true
		panic(ginStop{})
	}
	t := g.next()
	switch t.kind {
	case pyString:
		val, end := t.text, t.end
		style := "single"
		if g.d.Src[t.body-1] == '"' {
			style = "double"
		}
		if t.prefix != 0 || g.peek().kind == pyString {
			style = "python" // prefixed (r'...') or concatenated: not one plain literal
		}
		for g.peek().kind == pyString {
			n := g.next()
			val += n.text
			end = n.end
		}
		n := g.scalar(String, val, t.start, end, style)
		n.Quoted = true
		return n
	case pyNumber:
		return g.number(t, t.start)
	case pyName:
		switch t.text {
		case "True", "False":
			return g.scalar(Bool, strings.ToLower(t.text), t.start, t.end, "python")
		case "None":
			return g.scalar(Null, "null", t.start, t.end, "python")
		}
		g.fail(t.start, "gin: "+strconv.Quote(t.text)+" is not a value (write a literal, @reference or %MACRO)")
	case pyOp:
		switch t.text {
		case "-", "+":
			n := g.next()
			if n.kind != pyNumber {
				g.failTok(n, "a number")
			}
			return g.number(n, t.start)
		case "@":
			parts := g.selector(&g.refBuf)
			end := parts[len(parts)-1].end
			if g.isOp("(") {
				g.next()
				end = g.expectOp(")").end
			}
			return g.scalar(Unknown, string(g.d.Src[t.start:end]), t.start, end, "reference")
		case "%":
			parts := g.selector(&g.refBuf)
			end := parts[len(parts)-1].end
			name := string(g.d.Src[parts[0].start:end])
			n := g.scalar(Unknown, "%"+name, t.start, end, "macro")
			if name != "gin.REQUIRED" {
				g.refs = append(g.refs, n)
			}
			return n
		case "[", "(":
			closer := "]"
			if t.text == "(" {
				closer = ")"
			}
			n := g.alloc.new()
			n.Kind, n.Style = Seq, "flow"
			g.count()
			tuple := t.text == "["
			for !g.isOp(closer) {
				n.Children = append(n.Children, g.value(depth+1))
				if g.isOp(",") {
					g.next()
					tuple = true
					continue
				}
				if !g.isOp(closer) {
					g.failTok(g.peek(), `"," or "`+closer+`"`)
				}
			}
			e := g.next()
			if t.text == "(" && !tuple && len(n.Children) == 1 {
				// A parenthesised value, not a tuple.
				return n.Children[0]
			}
			n.Span = g.lc.span(t.start, e.end)
			if t.text == "(" {
				n.Style = "python" // a tuple
			}
			return n
		case "{":
			n := g.alloc.new()
			n.Kind, n.Style = Map, "flow"
			g.count()
			for !g.isOp("}") {
				k := g.value(depth + 1)
				g.expectOp(":")
				v := g.value(depth + 1)
				if k.Kind != Scalar {
					g.fail(k.Span.Start.Offset, "gin: a dict key must be a literal")
				}
				v.Key = k.Value
				v.KeySpan = k.Span
				if old := n.Get(v.Key); old != nil {
					g.dup(v.Key, old, v.KeySpan)
					removeChild(n, old)
				}
				n.Children = append(n.Children, v)
				if g.isOp(",") {
					g.next()
					continue
				}
				if !g.isOp("}") {
					g.failTok(g.peek(), `"," or "}"`)
				}
			}
			e := g.next()
			n.Span = g.lc.span(t.start, e.end)
			return n
		}
	}
	g.failTok(t, "a value")
	return nil
}

// number reads a numeric literal; start is where its sign (if any) begins. Value is the text as
// written (Node.Int and Float read underscores and hex).
func (g *ginParser) number(t pyTok, start int) *Node {
	text := strings.ReplaceAll(t.text, "_", "")
	low := strings.ToLower(text)
	if strings.HasSuffix(low, "j") {
		return g.scalar(Unknown, string(g.d.Src[start:t.end]), start, t.end, "plain")
	}
	if len(low) > 1 && low[0] == '0' && strings.IndexByte("xob", low[1]) >= 0 {
		if _, err := strconv.ParseInt(low, 0, 64); err == nil {
			return g.scalar(Int, string(g.d.Src[start:t.end]), start, t.end, "plain")
		}
		g.fail(t.start, "gin: invalid number "+strconv.Quote(t.text))
	}
	if !strings.ContainsAny(low, ".e") {
		if len(low) > 1 && low[0] == '0' && strings.Trim(low, "0") != "" {
			g.fail(t.start, "gin: leading zeros in a decimal integer are not allowed: "+strconv.Quote(t.text))
		}
		return g.scalar(Int, string(g.d.Src[start:t.end]), start, t.end, "plain")
	}
	if _, err := strconv.ParseFloat(text, 64); err != nil {
		g.fail(t.start, "gin: invalid number "+strconv.Quote(t.text))
	}
	return g.scalar(Float, string(g.d.Src[start:t.end]), start, t.end, "plain")
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
	budget := g.lim.MaxNodes - g.nodes
	for _, ref := range g.refs {
		name := strings.TrimPrefix(ref.Value, "%")
		def := g.root.Get(name)
		seen := 0
		for def != nil && def.Style == "macro" && def.Kind == Scalar && seen < 100 {
			// A macro defined as another macro: follow it (an unresolved one stays Unknown).
			nd := g.root.Get(strings.TrimPrefix(def.Value, "%"))
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
		cp := copyNode(def, &budget)
		if cp == nil {
			g.d.Problems = append(g.d.Problems, Problem{Kind: LimitExceeded,
				Message: limitMessage("macros expand to more than "+itoa(g.lim.MaxNodes)+" values", "max_nodes"), Span: use})
			g.fatal = true
			return
		}
		key, keySpan := ref.Key, ref.KeySpan
		*ref = *cp
		ref.Key, ref.KeySpan = key, keySpan
		ref.Alias = true
		ref.Use = &use
	}
}

// copyNode deep-copies a subtree (without Key, KeySpan or Parent of its root); nil when the
// budget of nodes runs out.
func copyNode(n *Node, budget *int) *Node {
	*budget--
	if *budget < 0 {
		return nil
	}
	c := *n
	c.Key, c.KeySpan, c.Parent, c.depth = "", Span{}, nil, 0
	if len(n.Children) > 0 {
		c.Children = make([]*Node, len(n.Children))
		for i, k := range n.Children {
			kc := copyNode(k, budget)
			if kc == nil {
				return nil
			}
			kc.Key, kc.KeySpan = k.Key, k.KeySpan
			c.Children[i] = kc
		}
	}
	return &c
}

// finishTree sets Parent (with the depth) and Index on every node below root (iteratively).
func finishTree(root *Node) {
	stack := make([]*Node, 1, 64)
	stack[0] = root
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i, c := range n.Children {
			c.setParent(n)
			c.Index = i
			if n.Kind == Seq {
				c.Key = ""
				c.KeySpan = Span{}
			}
			stack = append(stack, c)
		}
	}
}
