package doc

import (
	"bytes"
	"slices"
	"strconv"
)

// A parser for the Python that configs are written in: every statement and expression form of
// Python 3.12 that a config file plausibly uses (assignments of all kinds, def with defaults,
// decorators, if/for/while/with/try, imports, lambda, comprehensions, f-strings, walrus,
// starred arguments, slices). class, match and async are parsed only as far as needed to skip
// them (their bodies are never evaluated). The tree is evaluated by pyeval.go, never executed.

// pyExprKind is what an expression is (the evaluator switches on it with a jump table).
type pyExprKind uint8

const (
	xUnset pyExprKind = iota
	xName
	xNum
	xStr
	xFstr
	xConst
	xList
	xTuple
	xSet
	xDict
	xCall
	xAttr
	xIndex
	xSlice
	xBin
	xUnary
	xNot
	xAnd
	xOr
	xCmp
	xIfexp
	xLambda
	xComp
	xStar
	xDstar
	xWalrus
	xEllipsis
	xOpaque
)

// pyStmtKind is what a statement is.
type pyStmtKind uint8

const (
	sUnset pyStmtKind = iota
	sExpr
	sAssign
	sAug
	sAnn
	sDef
	sIf
	sFor
	sWhile
	sWith
	sTry
	sImport
	sFrom
	sReturn
	sPass
	sBreak
	sContinue
	sSkip
	sDel
)

// The syntax tree holds no Go pointers: expressions and statements live in blocks of the
// file's pyArena (pyStore: blocks that never move, so an id stays valid while f-string fields
// parsed during evaluation add to the tree) and refer to each other by int32 ids (0: none);
// lists of them (operands, items, call arguments, targets, statement bodies, a comprehension's
// conditions) are ranges of the arena's id list (pyIds). So the blocks are memory the
// collector never scans, the parser writes them without write barriers, and they are kept
// between files at no cost to every collection. The rare parts that hold strings or grow
// (pyExprExt, pyStmtX, pyFunc) are in small tables of their own, found by index. Code reads
// the tree through pointers it holds on the stack (pyArena.ex, kid, ids).
type pyExpr struct {
	op pyExprKind
	// flags records what the evaluator worked out about the expression once (xfKw...)
	flags uint8
	s, e  int
	// nm is the name, attribute, operator or constant (True/False/None), as a place in the
	// lexer's copy of the source (pyNameRef.in), not a string.
	nm pyNameRef
	// t0 and tn are a string's tokens (adjacent literals are consecutive tokens): tn of them
	// from t0 in the file's list of string tokens (pyArena.ftoks, pyEval.etoks).
	t0, tn int32
	// id is the expression's own id (pyArena.ex(id) is the expression; 0 for one made on the
	// evaluator's stack, which nothing refers to).
	id int32
	// kids are the operands, items, call: func then positional args; dict: key and value
	// by turns (0, no expression, as the key of a **x entry); slice: its three parts (0 for a
	// missing one). An f-string's parsed fields are in its pyExprExt instead (they are added
	// during evaluation).
	kids pyIds
	// x is the id in pyArena.exts of what the rarer kinds also hold (call keywords,
	// comparisons, comprehensions, lambda, f-string parts); 0 for none.
	x int32
	// cv is 1 + the index in pyArena.cvs of the value of a constant (a number, True/False/
	// None, a one-part string, a builtin's name, an attribute target's key), made once: a
	// helper called in a loop evaluates the same literals every time, and values are never
	// changed in place. 0 until then.
	cv int32
	// at is, for an attribute read (x.name), 1 + the position of name's entry in the dict x was
	// last time (0: none yet): a helper called in a loop reads c.loss, c.input.data from the
	// same dict every time, and an entry whose key is the name is the name's entry (keys are
	// distinct), so one compare replaces the search (a hash, in a large dict).
	at int32
}

// pyIds is a list of ids of the tree: n of them from at in pyArena.idl.
type pyIds struct{ at, n int32 }

// pyNameRef is a name's place in the source: n bytes from offset off.
type pyNameRef struct{ off, n int32 }

// nameOf is token t's text as a pyName.
func nameOf(t *pyTok) pyNameRef { return pyNameRef{int32(t.start), int32(t.end - t.start)} }

// in is the name's text, read from tx (the file's pyText) as the name token's would be.
func (n pyNameRef) in(tx *pyText) string {
	if n.n == 0 {
		return ""
	}
	s := int(n.off) - tx.base // as tx.at reads a name token's text, without making one
	return tx.s[s : s+int(n.n)]
}

// pyExprExt holds the parts of the rarer expressions (a table of its own, found by
// pyExpr.x), so that expressions hold no pointers.
type pyExprExt struct {
	comp string   // comprehension: "gen", "list", "dict" or "set"
	kw   []pyKw   // call keywords (a call without them has no pyExprExt)
	ops  []string // comparison operators
	fors []pyFor  // comprehensions
	fn   *pyFunc  // lambda
	// fparts are an f-string's parts, worked out when it is first evaluated, and fields the
	// ids of its fields' expressions, parsed as they are first read (0: did not parse)
	fparts []pyFPart
	fields []int32
}

// pyKw is a call keyword: its name's place (empty for **x; the name's span is the keyword's
// key span), its value's id, and 1 + the index in pyArena.cvs of its name as a string value,
// made once (0 before). No pointers.
type pyKw struct {
	nm  pyNameRef
	val int32
	key int32
}

// pyFor is one for clause of a comprehension: its target's and iterable's ids and its
// conditions.
type pyFor struct {
	target, iter int32
	conds        pyIds
}

type pyParam struct {
	name string
	def  int32 // the default's id (0: none)
	star int   // 1 *args, 2 **kwargs
}

type pyFunc struct {
	name   string
	params []pyParam
	body   pyIds // statements
	expr   int32 // lambda body (0 for a def)
	// generator: the body yields, so a call returns a generator (unknown here), not what its
	// return statement gives
	generator bool
}

// pyStmt is a statement: its kind, span, targets (expressions), value (an expression's id, 0
// for none), body and else branch (statements).
type pyStmt struct {
	kind    pyStmtKind
	s, e    int
	targets pyIds
	value   int32
	// x is the id in pyArena.stmtxs of what the rarer statements also need (augmented
	// assignments, try, def, import); 0 for others.
	x            int32
	body, orelse pyIds
}

type pyStmtX struct {
	op    string   // augmented assignment: the operator without "="
	extra []pyIds  // try: handlers and finally
	fn    *pyFunc  // def
	mod   string   // import/from: module (with leading dots)
	names []string // import/from: names ("*" for star); "name as alias" split into names/alias
	alias []string
}

// noStmtX is what more gives for a statement without a pyStmtX (never written).
var noStmtX pyStmtX

// more is st's pyStmtX, empty when it has none.
func (a *pyArena) more(st *pyStmt) *pyStmtX {
	if st.x == 0 {
		return &noStmtX
	}
	return a.stmtxs.at(st.x)
}

// stmtX gives st an empty pyStmtX and returns it.
func (p *pyParser) stmtX(st *pyStmt) *pyStmtX {
	id, x := p.arena.stmtxs.add()
	*x = pyStmtX{}
	st.x = id
	return x
}

type pyParser struct {
	pyCursor
	src    []byte
	depth  int
	max    int
	yields bool // the function being read has a yield (funcDef sets pyFunc.generator from it)
	// fns counts the def and lambda bodies around what is being read, up to the nearest class
	// body (0: module or class level, where return and yield are syntax errors); classes counts
	// the class bodies around it; loops the for and while bodies within the innermost def or
	// class body (0: break and continue are syntax errors). CPython's compiler refuses these
	// when the file is compiled, before any of it runs.
	fns, classes, loops int
	fieldToks           []pyTok // checkField's token list, reused
	// starLoops is, inside an except* block, 1 + the loops around it (0: outside one): a break
	// or continue with no loop inside the block, or a return, would leave it.
	starLoops int
	arena     *pyArena // where the tree goes (never nil)
	// stack and kws collect the items of the lists being read (nested ones above outer ones),
	// each copied into the arena's id list (or a list of exact size) when its closing bracket
	// is read. Ids, not pointers: pushes and pops need no write barrier.
	stack []int32
	kws   []pyKw
	stmts []int32 // the statements of the blocks being read, as stack is for items
	// tbase is, for an f-string field's parser (whole token list, no lexer), the index of
	// toks[0] in pyArena.ftoks, where the evaluator put the field's tokens.
	tbase int
}

// pyArena holds the memory one Python file's parse and evaluation use: the syntax tree,
// values, lists and tokens, taken in blocks and reused for the next file (pyArenas), since
// none of it outlives parsePython (the Document holds copies). A config makes thousands of
// small expressions; allocating each, and collecting them, cost more than the parse itself.
type pyArena struct {
	// the syntax tree: expressions, statements and lists of their ids (pyIds), with no
	// pointers; idl is only ever appended to, so a slice of it stays right when it grows
	exprs pyStore[pyExpr]
	stmts pyStore[pyStmt]
	idl   []int32
	vals  pyChunks[pyVal]
	dicts pyChunks[pyDict]
	ents  pyChunks[pyEnt] // dict entries
	// call arguments: positional and keyword values, keyword names and spans
	argv  pyChunks[*pyVal]
	argn  pyChunks[string]
	args2 pyChunks[[2]int]
	kws   pyChunks[pyKw]   // call keywords
	envs  pyChunks[pyEnv]  // the scopes of function calls
	lists pyChunks[pyList] // list and tuple values
	// the tree's rarer parts (pyExpr.x, pyStmt.x), functions and their parameters, and an
	// f-string's fields (pyExprExt.fields)
	exts   pyRare[pyExprExt]
	stmtxs pyRare[pyStmtX]
	funcs  pyChunks[pyFunc] // def and lambda
	params pyChunks[pyParam]
	fields pyChunks[int32]
	// scalars are the values pyEval.scalar makes (list, dict, fn and x always nil), cvs the
	// constants' values (pyExpr.cv)
	scalars pyChunks[pyVal]
	cvs     []*pyVal
	valxs   pyChunks[pyValX] // function scopes and method receivers
	// the parser's stacks (pyParser.stack, kws, stmts), kept between files
	pstack []int32
	pkws   []pyKw
	pstmts []int32
	toks   []pyTok // the window of the file's tokens (pyCursor)
	lex    pyLexer // the file's lexer (pyParseFile)
	strs   []pyTok // room for ftoks, kept between files
	// ftoks is the file's list of string tokens while it is read: the module's strings'
	// (pyParser.atom copies them from the window), then the tokens of the f-string fields
	// parsed during evaluation appended (strings index it: pyExpr.t0).
	ftoks []pyTok
	cms   [][2]int // the lexer's comment ranges
	tx    pyText   // the file's token texts
}

// pyStoreBits is the log2 of the elements in a pyStore block.
const pyStoreBits = 9

// pyStore hands out elements by id from blocks of 1<<pyStoreBits that never move (an element
// stays where it is while more are added) and are kept for the next file. Id 0 is never handed
// out (it means none). A block of a type without pointers is memory the collector never scans.
type pyStore[T any] struct {
	blocks []*[1 << pyStoreBits]T
	n      int32 // the next id
}

// add is a new element and its id. It holds what an earlier file left there: callers set it.
func (s *pyStore[T]) add() (int32, *T) {
	if s.n == 0 {
		s.n = 1
	}
	id := s.n
	b := int(id >> pyStoreBits)
	if b == len(s.blocks) {
		s.blocks = append(s.blocks, new([1 << pyStoreBits]T))
	}
	s.n++
	return id, &s.blocks[b][id&(1<<pyStoreBits-1)]
}

// at is element id (an id add handed out).
func (s *pyStore[T]) at(id int32) *T { return &s.blocks[id>>pyStoreBits][id&(1<<pyStoreBits-1)] }

// reset makes the blocks free for the next file; more than 32 of them are not kept.
func (s *pyStore[T]) reset() {
	s.n = 0
	if len(s.blocks) > 32 {
		s.blocks = nil
	}
}

// pyRareBits is the log2 of the elements in a pyRare block.
const pyRareBits = 5

// pyRare is pyStore for the tree's rarer parts, which hold pointers: small blocks, so that
// the collector, which scans a kept block whole, scans little more than is used. (A type of
// its own rather than a block size in pyStore: at, which the evaluator calls for every
// operand, indexes an array of a constant size without a bounds check.)
type pyRare[T any] struct {
	blocks []*[1 << pyRareBits]T
	n      int32 // the next id
}

// add is a new element and its id. It holds what an earlier file left there: callers set it.
func (s *pyRare[T]) add() (int32, *T) {
	if s.n == 0 {
		s.n = 1
	}
	id := s.n
	b := int(id >> pyRareBits)
	if b == len(s.blocks) {
		s.blocks = append(s.blocks, new([1 << pyRareBits]T))
	}
	s.n++
	return id, &s.blocks[b][id&(1<<pyRareBits-1)]
}

// at is element id (an id add handed out).
func (s *pyRare[T]) at(id int32) *T { return &s.blocks[id>>pyRareBits][id&(1<<pyRareBits-1)] }

// reset makes the blocks free for the next file; more than 32 of them are not kept.
func (s *pyRare[T]) reset() {
	s.n = 0
	if len(s.blocks) > 32 {
		s.blocks = nil
	}
}

// ex is expression id.
func (a *pyArena) ex(id int32) *pyExpr { return a.exprs.at(id) }

// exOr is expression id, nil for 0.
func (a *pyArena) exOr(id int32) *pyExpr {
	if id == 0 {
		return nil
	}
	return a.exprs.at(id)
}

// st is statement id.
func (a *pyArena) st(id int32) *pyStmt { return a.stmts.at(id) }

// ids is the list r (a slice of the id list whose capacity ends at its length).
func (a *pyArena) ids(r pyIds) []int32 { return a.idl[r.at : r.at+r.n : r.at+r.n] }

// kid is e's i-th operand.
func (a *pyArena) kid(e *pyExpr, i int) *pyExpr { return a.exprs.at(a.idl[int(e.kids.at)+i]) }

// ext is e's pyExprExt, nil when it has none.
func (a *pyArena) ext(e *pyExpr) *pyExprExt {
	if e.x == 0 {
		return nil
	}
	return a.exts.at(e.x)
}

// newExt gives e an empty pyExprExt and returns it.
func (a *pyArena) newExt(e *pyExpr) *pyExprExt {
	id, x := a.exts.add()
	*x = pyExprExt{}
	e.x = id
	return x
}

// kwsOf are call e's keywords.
func (a *pyArena) kwsOf(e *pyExpr) []pyKw {
	if e.x == 0 {
		return nil
	}
	return a.exts.at(e.x).kw
}

// addIds appends ids to the id list and returns their range. Unless the list grows, only its
// length is written (an append would store its pointer too, through the write barrier).
func (a *pyArena) addIds(ids ...int32) pyIds {
	at, n := len(a.idl), len(a.idl)+len(ids)
	if n > cap(a.idl) {
		a.growIds(len(ids))
	}
	a.idl = a.idl[:n]
	copy(a.idl[at:n], ids)
	return pyIds{int32(at), int32(len(ids))}
}

// growIds makes room for n more ids (the old list stays as it was: slices of it stay right).
func (a *pyArena) growIds(n int) { a.idl = slices.Grow(a.idl, max(n, 1024)) }

// add1 and add2 are addIds for one and two ids, small enough to inline (most lists are an
// operator's operands). An append of elements (not of a slice) to the list it is assigned to
// writes only the length unless the list grows.
func (a *pyArena) add1(x int32) pyIds {
	a.idl = append(a.idl, x)
	return pyIds{int32(len(a.idl) - 1), 1}
}

func (a *pyArena) add2(x, y int32) pyIds {
	a.idl = append(a.idl, x, y)
	return pyIds{int32(len(a.idl) - 2), 2}
}

// pyChunks hands out elements and short slices carved from reused blocks of size elements
// (512 when size is 0).
type pyChunks[T any] struct {
	blocks [][]T
	i, j   int
	size   int
	cur    []T // blocks[i] once carved from since the last reset (nil before)
}

// carve is a slice of n elements (n at most the block size) whose capacity ends at its length,
// so appending to it moves it to the heap, never into a neighbour. Its elements hold what an
// earlier file left there: callers set them.
func (c *pyChunks[T]) carve(n int) []T {
	if j := c.j + n; j <= len(c.cur) {
		s := c.cur[c.j:j:j]
		c.j = j
		return s
	}
	return c.carveNext(n)
}

// carveNext is carve from a block after the current one (or the first).
func (c *pyChunks[T]) carveNext(n int) []T {
	if c.cur != nil {
		c.i, c.j = c.i+1, 0
	}
	for {
		if c.i == len(c.blocks) {
			size := c.size
			if size == 0 {
				size = 512
			}
			c.blocks = append(c.blocks, make([]T, size))
		}
		if b := c.blocks[c.i]; c.j+n <= len(b) {
			c.cur = b
			c.j += n
			return b[c.j-n : c.j : c.j]
		}
		c.i, c.j = c.i+1, 0
	}
}

// take is an empty slice with room for n (longer lists come from the heap).
func (c *pyChunks[T]) take(n int) []T {
	if n > 128 {
		return make([]T, 0, n)
	}
	return c.carve(n)[:0]
}

// one is one element (callers set it).
func (c *pyChunks[T]) one() *T {
	if c.j < len(c.cur) {
		c.j++
		return &c.cur[c.j-1]
	}
	return &c.carveNext(1)[0]
}

// reset makes the blocks free for the next file; more than 64 of them are not kept.
func (c *pyChunks[T]) reset() {
	c.i, c.j, c.cur = 0, 0, nil
	if len(c.blocks) > 64 {
		c.blocks = nil
	}
}

// pyArenas keeps a few arenas between files.
var pyArenas keeper[pyArena]

func getPyArena() *pyArena {
	if a := pyArenas.get(); a != nil {
		return a
	}
	a := new(pyArena)
	a.vals.size, a.dicts.size, a.ents.size = 256, 64, 1024
	a.scalars.size = 256
	a.funcs.size, a.params.size = 32, 128
	return a
}

// keepStacks keeps p's stacks for the next file's parser (a huge one is not kept). They hold
// no pointers: nothing to clear.
func (a *pyArena) keepStacks(p *pyParser) {
	if cap(p.stack) > 1<<12 || cap(p.kws) > 1<<12 || cap(p.stmts) > 1<<12 {
		a.pstack, a.pkws, a.pstmts = nil, nil, nil
		return
	}
	a.pstack, a.pkws, a.pstmts = p.stack[:0], p.kws[:0], p.stmts[:0]
}

// release returns the arena for reuse (its contents are dead: nothing may use them after).
func (a *pyArena) release() {
	a.exprs.reset()
	a.stmts.reset()
	a.idl = a.idl[:0]
	if cap(a.idl) > 1<<16 {
		a.idl = nil
	}
	a.vals.reset()
	a.dicts.reset()
	a.ents.reset()
	a.argv.reset()
	a.argn.reset()
	a.args2.reset()
	a.kws.reset()
	a.envs.reset()
	a.lists.reset()
	a.exts.reset()
	a.stmtxs.reset()
	a.scalars.reset()
	a.cvs = a.cvs[:0]
	if cap(a.cvs) > 1<<14 {
		a.cvs = nil
	}
	a.valxs.reset()
	a.funcs.reset()
	a.params.reset()
	a.fields.reset()
	clear(a.tx.esc)
	a.tx = pyText{esc: a.tx.esc[:0]}
	if cap(a.ftoks) <= 1<<12 {
		a.strs = a.ftoks[:0] // tokens hold no pointers: nothing to clear
	}
	a.ftoks = nil
	a.lex = pyLexer{} // it points at the file's bytes
	if cap(a.toks) > 1<<16 {
		a.toks = nil // a huge file's token list is not kept
	}
	pyArenas.put(a)
}

func (a *pyArena) val() *pyVal { return a.vals.one() }

// simpleStmt is mkStmt for a statement with no body, else branch or pyStmtX (assignments,
// expressions, return, pass and the like).
func (p *pyParser) simpleStmt(k pyStmtKind, s, e int, targets pyIds, value int32) *pyStmt {
	id, st := p.arena.stmts.add()
	*st = pyStmt{kind: k, s: s, e: e, targets: targets, value: value}
	p.stmts = append(p.stmts, id)
	return st
}

// mkStmt is mk for statements: a copy of x, pushed on p.stmts (the block being read).
func (p *pyParser) mkStmt(x pyStmt) *pyStmt {
	id, st := p.arena.stmts.add()
	*st = x
	p.stmts = append(p.stmts, id)
	return st
}

func (a *pyArena) dict() *pyDict {
	d := a.dicts.one()
	*d = pyDict{}
	return d
}

// entries is an empty entry list with room for n (a dict that outgrows it moves to the heap).
func (a *pyArena) entries(n int) []pyEnt {
	n = max(n, 4)
	if n > 256 {
		return make([]pyEnt, 0, n)
	}
	return a.ents.carve(n)[:0]
}

// leaf is mk for an operand with no operands and no extension (a name, number, constant or
// plain string).
func (p *pyParser) leaf(op pyExprKind, s, e int, nm pyNameRef, t0, tn int32) *pyExpr {
	id, x := p.arena.exprs.add()
	*x = pyExpr{op: op, s: s, e: e, nm: nm, t0: t0, tn: tn, id: id}
	return x
}

// mk returns a copy of x from the arena, with its id.
func (p *pyParser) mk(x pyExpr) *pyExpr {
	id, e := p.arena.exprs.add()
	x.id = id
	*e = x // x itself stays on the stack
	return e
}

// popList returns the items pushed on the stack since mark as one list and pops them.
func (p *pyParser) popList(mark int) pyIds {
	r := p.arena.addIds(p.stack[mark:]...)
	p.stack = p.stack[:mark]
	return r
}

// popKws is popList for call keywords.
func (p *pyParser) popKws(mark int) []pyKw {
	n := len(p.kws) - mark
	if n == 0 {
		return nil
	}
	out := p.arena.kws.take(n)[:n]
	copy(out, p.kws[mark:])
	p.kws = p.kws[:mark]
	return out
}

// popStmts returns the statements pushed on p.stmts since mark as one list and pops them.
func (p *pyParser) popStmts(mark int) pyIds {
	r := p.arena.addIds(p.stmts[mark:]...)
	p.stmts = p.stmts[:mark]
	return r
}

// ext gives e an empty pyExprExt and returns it.
func (p *pyParser) ext(e *pyExpr) *pyExprExt { return p.arena.newExt(e) }

// kids1 and kids2 are operand lists.
func (p *pyParser) kids1(x *pyExpr) pyIds { return p.arena.add1(x.id) }

func (p *pyParser) kids2(x, y *pyExpr) pyIds { return p.arena.add2(x.id, y.id) }

// idOf is e's id, 0 for nil.
func idOf(e *pyExpr) int32 {
	if e == nil {
		return 0
	}
	return e.id
}

type pyParseStop struct{ err *pySyntaxError }

// fstringError returns the offset in an f-string's body of a mistake every Python 3 refuses,
// and CPython's words for it, or -1: a single '}' outside a field, a field never closed, a
// field with no expression, or a conversion other than !r, !s and !a. (What Python 3.12 reads
// and 3.11 refuses, such as a backslash or the string's own quote inside a field, is not
// judged; the evaluator reads such a field as unknown.) \N{...} in a string that is not raw
// is an escape, not a field. When p is not nil, each field's expression is also checked by
// p.checkField (the body starting at p.src[base]).
func fstringError(body []byte, raw bool, p *pyParser, base int) (int, string) {
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '\\' && !raw && i+1 < len(body):
			if body[i+1] == 'N' && i+2 < len(body) && body[i+2] == '{' {
				if j := bytes.IndexByte(body[i:], '}'); j >= 0 {
					i += j
					continue
				}
			}
			i++
		case c == '}':
			if i+1 < len(body) && body[i+1] == '}' {
				i++
				continue
			}
			return i, "python: f-string: single '}' is not allowed"
		case c == '{':
			if i+1 < len(body) && body[i+1] == '{' {
				i++
				continue
			}
			end, exprEnd, conv, why := fstringField(body, i+1)
			if why != "" {
				return end, "python: f-string: " + why
			}
			if end < 0 {
				return i, "python: f-string: expecting '}'"
			}
			if len(bytes.TrimSpace(body[i+1:exprEnd])) == 0 {
				return i, "python: f-string: empty expression not allowed"
			}
			if p != nil {
				if off, msg := p.checkField(base, i+1, exprEnd); off >= 0 {
					return off, msg
				}
				// The format spec's own fields (f"{x:>{w}}").
				for k := exprEnd + 1; k < end; k++ {
					if body[k] == '{' {
						e2, x2, _, why2 := fstringField(body, k+1)
						if why2 != "" || e2 < 0 || e2 > end {
							break
						}
						if off, msg := p.checkField(base, k+1, x2); off >= 0 {
							return off, msg
						}
						k = e2
					}
				}
			}
			if conv >= 0 && (conv+1 >= len(body) || !bytes.ContainsRune([]byte("rsa"), rune(body[conv+1])) || body[conv+2] != ':' && body[conv+2] != '}') {
				return conv, "python: f-string: invalid conversion character: expected 's', 'r', or 'a'"
			}
			i = end
		}
	}
	return -1, ""
}

// checkField checks an expression of the f-string whose body starts at src[base] (body
// offsets s to e): a number every Python 3 refuses (f"{07}", f"{7None}") is refused in a field
// too, and so is a plain field that does not parse (f"{a b}", f"{n//7return}"). Plain means no
// backslash, comment, line break, trailing "=" (the self-documenting form) or the f-string's
// own quote: Python 3.11 and 3.12 read such a field the same way, as starred expressions.
// Other fields are read when they are evaluated, and one that does not parse is unknown (3.11
// and 3.12 differ there). A lone name (most fields) needs no lexer.
func (p *pyParser) checkField(base, s, e int) (int, string) {
	x := p.src[base+s : base+e]
	trimmed := bytes.TrimSpace(x)
	quote := p.src[base-1] // the f-string's own quote, which 3.11 refuses inside a field
	plain := len(trimmed) > 0 && bytes.IndexAny(x, "\\#\n\r") < 0 && bytes.IndexByte(x, quote) < 0 && trimmed[len(trimmed)-1] != '='
	if !plain && bytes.IndexAny(x, "0123456789") < 0 || pyLoneName(trimmed) {
		return -1, ""
	}
	toks, _, err := pyLexCoded(p.src[:base+e], base+s, 200, false, p.fieldToks, p.tx, nil, true)
	if err != nil {
		if err.number {
			return err.off - base, "python: " + err.msg
		}
		return -1, ""
	}
	p.fieldToks = toks[:0]
	if !plain {
		return -1, ""
	}
	return pyFieldParses(toks, p.tx, p.src, base, p.arena)
}

// pyLoneName reports whether x is one ASCII name that is no keyword.
func pyLoneName(x []byte) bool {
	if len(x) == 0 || pyIdentByte[x[0]] != 1 {
		return false
	}
	for _, c := range x[1:] {
		if pyIdentByte[c] == 0 {
			return false
		}
	}
	return pyKeywordCode(string(x)) == cNone
}

// pyFieldParses parses a plain field's tokens as starred expressions (in a function, so that a
// yield is not refused) and returns where and why it does not parse, as CPython words it, or -1.
func pyFieldParses(toks []pyTok, tx *pyText, src []byte, base int, arena *pyArena) (off int, msg string) {
	q := &pyParser{pyCursor: pyCursor{toks: toks, tx: tx}, src: src, max: 200, fns: 1, arena: arena}
	off = -1
	if len(toks) > 0 && toks[0].code == kYield {
		return -1, "" // a yield expression, the field's other form: not judged
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				stop, ok := r.(pyParseStop)
				if !ok {
					panic(r)
				}
				if stop.err.limit == "" {
					off, msg = stop.err.off-base, "python: f-string: invalid syntax"
				}
			}
		}()
		q.list(q.starOrExpr)
		if k := q.peek().kind; k != pyNewline && k != pyEOF {
			q.fail(q.peek().start, "")
		}
	}()
	return off, msg
}

// opener is the opening bracket of a closing one.
func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// fstringField reads the field whose expression starts at body[s]: the offset of its closing
// '}' (-1 when there is none; with why, the offset of a closing bracket that matches no open
// one, and CPython's words for it), where its expression ends, and the offset of its '!' conversion
// (-1 when it has none). The expression ends at a '!' (not '!='), ':' or '}' outside brackets
// and quotes; a format spec after ':' may hold fields of its own.
func fstringField(body []byte, s int) (end, exprEnd, conv int, why string) {
	depth, conv := 0, -1
	var open [32]byte // the brackets open in the expression, innermost last (deeper: not checked)
	var quote byte
	j := s
	for ; j < len(body); j++ {
		ch := body[j]
		if quote != 0 {
			if ch == quote {
				quote = 0
			}
			continue
		}
		if depth > 0 {
			switch ch {
			case '\'', '"':
				quote = ch
			case '(', '[', '{':
				if depth++; depth <= len(open) {
					open[depth-1] = ch
				}
			case ')', ']', '}':
				if depth <= len(open) && open[depth-1] != opener(ch) {
					return j, 0, 0, "closing parenthesis '" + string(ch) + "' does not match opening parenthesis '" + string(open[depth-1]) + "'"
				}
				depth--
			}
			continue
		}
		switch {
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '(' || ch == '[' || ch == '{':
			depth, open[0] = 1, ch
		case ch == ')' || ch == ']':
			return j, 0, 0, "unmatched '" + string(ch) + "'"
		case ch == '}' || ch == ':':
			exprEnd = j
			if conv >= 0 {
				exprEnd = conv
			}
			if ch == '}' {
				return j, exprEnd, conv, ""
			}
			// The format spec: up to the '}' that closes the field, past nested fields.
			for nest := 0; j+1 < len(body); {
				j++
				switch body[j] {
				case '{':
					nest++
				case '}':
					if nest == 0 {
						return j, exprEnd, conv, ""
					}
					nest--
				}
			}
			return -1, 0, 0, ""
		case ch == '!' && conv < 0 && (j+1 >= len(body) || body[j+1] != '='):
			conv = j
		}
	}
	return -1, 0, 0, ""
}

func (p *pyParser) fail(off int, msg string) {
	panic(pyParseStop{&pySyntaxError{msg: msg, off: off}})
}

func (p *pyParser) failTok(t pyTok, want string) {
	what := "end of file"
	switch t.kind {
	case pyNewline:
		what = "end of line"
	case pyIndent:
		what = "unexpected indentation"
	case pyDedent:
		what = "end of block"
	case pyString:
		what = "a string"
	case pyName, pyNumber, pyOp:
		what = strconv.Quote(p.txt(t))
	}
	p.fail(t.start, "python: expected "+want+", found "+what)
}

// expect reads the operator of code c, or fails.
func (p *pyParser) expect(c pyCode) pyTok {
	if !p.is(c) {
		p.failTok(p.peek(), strconv.Quote(pyCodeText[c]))
	}
	return p.next()
}

// enter counts one level of nesting (small enough to inline).
func (p *pyParser) enter() {
	p.depth++
	if p.depth > p.max {
		p.tooDeep()
	}
}

func (p *pyParser) tooDeep() {
	panic(pyParseStop{&pySyntaxError{msg: "python: nesting deeper than " + itoa(p.max) + " levels", off: p.cur().start, limit: "max_depth"}})
}

func (p *pyParser) leave() { p.depth-- }

// pyParseFile lexes and parses a whole Python file from base, the parser pulling its tokens
// from the lexer through a window (pyCursor) instead of reading a token list lexed first. cms
// are the file's comment ranges and starts its line starts (when lines: pyLexLines says which),
// both of the whole file. lerr is the lexer's error: the first thing it cannot read anywhere in
// the file wins over a parse error, as when the file was lexed before it was parsed (so after
// a parse error the lexer reads on to the end); cms is then nil. perr is the parser's error.
func pyParseFile(src []byte, base, maxDepth int, arena *pyArena, lbuf []int, lines bool) (stmts pyIds, cms [][2]int, starts []int, lerr, perr *pySyntaxError) {
	l := &arena.lex
	l.init(src, base, maxDepth, true, &arena.tx, arena.cms, true, lbuf, lines)
	buf := arena.toks[:0]
	if cap(buf) < pyWindow {
		buf = make([]pyTok, 0, pyWindow)
	}
	p := &pyParser{pyCursor: pyCursor{toks: buf, tx: &arena.tx, lx: l, pin: -1}, src: src, max: maxDepth, arena: arena}
	// The parser's stacks are kept in the arena between files (they end empty, or hold
	// garbage after a syntax error, which the next file's parser drops).
	p.stack, p.kws, p.stmts = arena.pstack[:0], arena.pkws[:0], arena.pstmts[:0]
	stmts, perr, lerr = p.parseModule()
	arena.keepStacks(p)
	if cap(p.toks) <= 1<<12 {
		arena.toks = p.toks[:0] // a window grown past 4,096 tokens (a long with or match) is not kept
	}
	if lerr == nil && !l.done {
		lerr = l.drain()
	}
	if lerr != nil {
		return pyIds{}, nil, l.lines[:0], lerr, nil
	}
	return stmts, l.comments, l.lines, nil, perr
}

// drain lexes the rest of the stream, for its comments, line starts and first error (the
// tokens are dropped).
func (l *pyLexer) drain() (err *pySyntaxError) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*pySyntaxError); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	for !l.done {
		// The last token stays: the lexer looks back at it at a line's end.
		if n := len(l.toks); n > 0 {
			l.toks[0] = l.toks[n-1]
			l.toks = l.toks[:1]
		}
		l.stop = l.room()
		l.run()
	}
	return nil
}

// parseModule parses the whole file, pulling its tokens from p.lx (pyParseFile). p.arena must
// be set: it keeps the file's strings' tokens (pyArena.ftoks), which the evaluator reads
// strings from (pyEval.etoks). lexErr is the lexer's error.
func (p *pyParser) parseModule() (stmts pyIds, err, lexErr *pySyntaxError) {
	p.arena.ftoks = p.arena.strs[:0]
	defer func() {
		if r := recover(); r != nil {
			if s, ok := r.(pyParseStop); ok {
				err = s.err
				return
			}
			if e, ok := r.(*pySyntaxError); ok {
				lexErr = e
				return
			}
			panic(r)
		}
	}()
	p.more() // the first tokens
	mark := len(p.stmts)
	for p.cur().kind != pyEOF {
		if p.cur().kind == pyNewline {
			p.skip()
			continue
		}
		p.statement()
	}
	return p.popStmts(mark), nil, nil
}

func (p *pyParser) block() pyIds {
	p.expect(cColon)
	mark := len(p.stmts)
	if p.cur().kind != pyNewline {
		p.simpleLine()
		return p.popStmts(mark)
	}
	p.skip()
	if t := p.next(); t.kind != pyIndent {
		p.failTok(t, "an indented block")
	}
	p.enter()
	defer p.leave()
	for {
		t := p.peek()
		if t.kind == pyDedent || t.kind == pyEOF {
			if t.kind == pyDedent {
				p.skip()
			}
			return p.popStmts(mark)
		}
		if t.kind == pyNewline {
			p.skip()
			continue
		}
		p.statement()
	}
}

// statement reads one statement (a line of simple ones: each) onto p.stmts. (Statements go
// there as they are made, mkStmt and simpleStmt: a compound statement before its blocks, which
// are popped from above it.)
func (p *pyParser) statement() {
	t := p.peek()
	if t.kind == pyIndent {
		p.fail(t.start, "python: unexpected indentation")
	}
	if t.kind == pyName {
		switch t.code {
		case kDef:
			p.funcDef()
			return
		case kIf:
			p.ifStmt()
			return
		case kFor:
			p.skip()
			target := p.targetList()
			p.checkTarget(target)
			if !p.is(kIn) {
				p.failTok(p.peek(), `"in"`)
			}
			p.skip()
			iter := p.starValues()
			st := p.mkStmt(pyStmt{kind: sFor, s: t.start, targets: p.kids1(target), value: iter.id})
			p.loops++
			st.body = p.block()
			p.loops--
			if p.is(kElse) {
				p.skip()
				st.orelse = p.block()
			}
			return
		case kWhile:
			p.skip()
			cond := p.namedExpr()
			st := p.mkStmt(pyStmt{kind: sWhile, s: t.start, value: cond.id})
			p.loops++
			st.body = p.block()
			p.loops--
			if p.is(kElse) {
				p.skip()
				st.orelse = p.block()
			}
			return
		case kWith:
			p.skip()
			st := p.mkStmt(pyStmt{kind: sWith, s: t.start})
			paren := false
			mark := len(p.stack) // the items, on the stack
			if p.is(cLPar) {
				// Python 3.9+ parenthesised with-items; a parenthesised expression reads the same.
				save, pin := p.save()
				p.skip()
				paren = true
				for !p.is(cRPar) {
					p.stack = append(p.stack, p.withItem().id)
					if !p.is(cComma) {
						break
					}
					p.skip()
				}
				if !p.is(cRPar) || p.toks[p.i+1].code != cColon {
					p.restore(save, pin, true)
					paren = false
					p.stack = p.stack[:mark]
				} else {
					p.restore(save, pin, false)
					p.skip()
				}
			}
			if !paren {
				for {
					p.stack = append(p.stack, p.withItem().id)
					if !p.is(cComma) {
						break
					}
					p.skip()
				}
			}
			st.targets = p.popList(mark)
			st.body = p.block()
			return
		case kTry:
			p.skip()
			st := p.mkStmt(pyStmt{kind: sTry, s: t.start})
			x := p.stmtX(st)
			st.body = p.block()
			kinds := 0 // bit 1: except, bit 2: except*
			for p.is(kExcept) {
				e := p.next()
				star := p.is(cStar)
				if star {
					p.skip()
					if p.is(cColon) {
						p.fail(p.cur().start, "python: expected one or more exception types")
					}
				}
				if kinds |= 1 << b2i(star); kinds == 3 {
					p.fail(e.start, "python: cannot have both 'except' and 'except*' on the same 'try'")
				}
				if !p.is(cColon) {
					p.expr()
					if p.is(kAs) {
						p.skip()
						p.skip()
					}
				}
				// In an except* block, break, continue and return may not leave it.
				outer := p.starLoops
				if star {
					p.starLoops = p.loops + 1
				}
				x.extra = append(x.extra, p.block())
				p.starLoops = outer
			}
			if len(x.extra) == 0 && !p.is(kFinally) {
				p.fail(p.cur().start, "python: expected 'except' or 'finally' block")
			}
			if p.is(kElse) {
				p.skip()
				st.orelse = p.block()
			}
			if p.is(kFinally) {
				p.skip()
				x.extra = append(x.extra, p.block())
			}
			return
		case kClass:
			p.skip()
			if n := p.next(); n.kind != pyName || n.code != cNone {
				p.fail(t.start, "python: expected a class name")
			}
			p.typeParams()
			if p.is(cLPar) {
				p.skip()
				p.callArgs(p.mk(pyExpr{}), nil)
				p.expect(cRPar)
			}
			fns, loops, star := p.fns, p.loops, p.starLoops
			p.fns, p.loops, p.starLoops = 0, 0, 0
			p.classes++
			p.block()
			p.fns, p.loops, p.starLoops = fns, loops, star
			p.classes--
			p.simpleStmt(sSkip, t.start, 0, pyIds{}, 0)
			return
		case kAsync:
			p.skip()
			p.statement()
			return
		case cNone:
			if p.txt(t) != "match" {
				break
			}
			// A soft keyword: `match x:` opens a block; `match = 1` is an assignment.
			if n := p.toks[p.i+1]; n.kind == pyName || n.kind == pyNumber || n.kind == pyString || n.code == cLPar || n.code == cLBrack || n.code == cLBrace || n.code == cMinus {
				save, pin := p.save()
				p.skip()
				if p.tryMatch() {
					p.restore(save, pin, false)
					p.simpleStmt(sSkip, t.start, 0, pyIds{}, 0)
					return
				}
				p.restore(save, pin, true)
			}
		}
	}
	if t.code == cAt {
		for p.is(cAt) {
			p.skip()
			p.namedExpr()
			if p.cur().kind != pyNewline {
				p.failTok(p.peek(), "end of line after the decorator")
			}
			p.skip()
		}
		mark := len(p.stmts)
		p.statement()
		if st := p.stmts[mark:]; len(st) == 1 && p.arena.st(st[0]).kind == sDef {
			// A decorated function is not the function itself: never call it.
			p.arena.st(st[0]).kind = sSkip
		}
		return
	}
	p.simpleLine()
}

// tryMatch skips a match statement's subject and block of cases (never evaluated).
func (p *pyParser) tryMatch() (ok bool) {
	marks := [2]int{len(p.stack), len(p.kws)}
	defer func() {
		if r := recover(); r != nil {
			if _, stop := r.(pyParseStop); !stop {
				panic(r)
			}
			// Drop what the failed parse left on the stacks.
			p.stack = p.stack[:marks[0]]
			p.kws = p.kws[:marks[1]]
			ok = false
		}
	}()
	p.exprList()
	if !p.is(cColon) || p.toks[p.i+1].kind != pyNewline {
		return false
	}
	p.skip()
	p.skip()
	if p.next().kind != pyIndent {
		return false
	}
	depth := 1
	for depth > 0 {
		t := p.next()
		switch t.kind {
		case pyIndent:
			depth++
		case pyDedent:
			depth--
		case pyEOF:
			return true
		}
	}
	return true
}

func (p *pyParser) withItem() *pyExpr {
	e := p.expr()
	if p.is(kAs) {
		p.skip()
		p.checkTarget(p.target())
	}
	return e
}

// ifStmt reads an if statement (an elif: its else branch, an if of its own) onto p.stmts.
func (p *pyParser) ifStmt() {
	t := p.next()
	cond := p.namedExpr()
	st := p.mkStmt(pyStmt{kind: sIf, s: t.start, value: cond.id})
	st.body = p.block()
	if p.is(kElif) {
		mark := len(p.stmts)
		p.ifStmt()
		st.orelse = p.popStmts(mark)
	} else if p.is(kElse) {
		p.skip()
		st.orelse = p.block()
	}
}

// funcDef reads a def onto p.stmts.
func (p *pyParser) funcDef() {
	t := p.next()
	name := p.next()
	if name.kind != pyName || name.code != cNone {
		p.failTok(name, "a function name")
	}
	p.typeParams()
	p.expect(cLPar)
	fn := p.fn(p.txt(name))
	fn.params = p.params(cRPar)
	p.expect(cRPar)
	if p.is(cArrow) {
		p.skip()
		p.expr()
	}
	outer, fns, loops, star := p.yields, p.fns, p.loops, p.starLoops
	p.yields, p.fns, p.loops, p.starLoops = false, fns+1, 0, 0
	fn.body = p.block()
	fn.generator, p.yields, p.fns, p.loops, p.starLoops = p.yields, outer, fns, loops, star
	st := p.mkStmt(pyStmt{kind: sDef, s: t.start, e: name.end})
	p.stmtX(st).fn = fn
}

// typeParams reads Python 3.12's type parameters after a def's or class's name, if any
// (`def first[T](xs: list[T])`, `class Box[T: int = int]`): type variables, *Ts and **P, each
// with an optional bound and (3.13) default. They are read, never evaluated.
func (p *pyParser) typeParams() {
	if !p.is(cLBrack) {
		return
	}
	p.skip()
	for {
		if p.is(cStar) || p.is(cPow) {
			p.skip()
		}
		if n := p.next(); n.kind != pyName || n.code != cNone {
			p.failTok(n, "a type parameter name")
		}
		if p.is(cColon) {
			p.skip()
			p.expr()
		}
		if p.is(cAssign) {
			p.skip()
			p.starOrExpr()
		}
		if !p.is(cComma) {
			break
		}
		p.skip()
		if p.is(cRBrack) {
			break
		}
	}
	p.expect(cRBrack)
}

// fn is a function named name, without parameters or body.
func (p *pyParser) fn(name string) *pyFunc {
	f := p.arena.funcs.one()
	*f = pyFunc{name: name}
	return f
}

// params reads a parameter list up to the closing token (")" for def, ":" for lambda).
func (p *pyParser) params(closer pyCode) []pyParam {
	var out []pyParam
	if !p.is(closer) {
		out = p.arena.params.take(6) // more parameters move the list to the heap
	}
	// Python refuses a name given twice, and a positional parameter without a default after
	// one with a default (keyword-only ones, after * or *args, may have none).
	defaults, kwOnly := false, false
	for !p.is(closer) {
		star := 0
		if p.is(cStar) {
			p.skip()
			star = 1
		} else if p.is(cPow) {
			p.skip()
			star = 2
		} else if p.is(cSlash) {
			p.skip()
			if !p.is(cComma) {
				break
			}
			p.skip()
			continue
		}
		if star == 1 && (p.is(cComma) || p.is(closer)) {
			// A bare * separates keyword-only parameters.
			kwOnly = true
		} else {
			n := p.next()
			if n.kind != pyName || n.code != cNone {
				p.failTok(n, "a parameter name")
			}
			par := pyParam{name: p.txt(n), star: star}
			for _, q := range out {
				if q.name == par.name {
					p.fail(n.start, "python: duplicate argument '"+par.name+"' in function definition")
				}
			}
			if closer == cRPar && p.is(cColon) {
				p.skip()
				p.expr()
			}
			if p.is(cAssign) {
				p.skip()
				par.def = p.expr().id
				defaults = true
			} else if star == 0 && defaults && !kwOnly {
				p.fail(n.start, "python: non-default argument follows default argument")
			}
			kwOnly = kwOnly || star == 1
			if len(out) > 0 && out[len(out)-1].star == 2 {
				p.fail(n.start, "python: arguments cannot follow var-keyword argument")
			}
			out = append(out, par)
		}
		if !p.is(cComma) {
			break
		}
		p.skip()
	}
	return out
}

func (p *pyParser) endLine() {
	t := p.peek()
	switch {
	case t.kind == pyNewline:
		p.skip()
	case t.kind == pyEOF || t.kind == pyDedent:
	default:
		p.failTok(t, "end of line")
	}
}

// simpleLine reads `stmt; stmt; ...` NEWLINE onto p.stmts.
func (p *pyParser) simpleLine() {
	p.simple()
	if !p.is(cSemi) {
		p.endLine()
		return
	}
	p.skip()
	if p.cur().kind == pyNewline || p.cur().kind == pyEOF {
		p.endLine()
		return
	}
	for {
		p.simple()
		if p.is(cSemi) {
			p.skip()
			if p.cur().kind == pyNewline || p.cur().kind == pyEOF {
				break
			}
			continue
		}
		break
	}
	p.endLine()
}

// simple reads one simple statement onto p.stmts.
func (p *pyParser) simple() *pyStmt {
	t := p.peek()
	if t.kind == pyName {
		switch t.code {
		case kPass, kBreak, kContinue:
			p.skip()
			k := sPass
			if t.code == kBreak {
				k = sBreak
				if p.loops == 0 {
					p.fail(t.start, "python: 'break' outside loop")
				}
				p.leavesExceptStar(t.start, p.loops < p.starLoops)
			} else if t.code == kContinue {
				k = sContinue
				if p.loops == 0 {
					p.fail(t.start, "python: 'continue' not properly in loop")
				}
				p.leavesExceptStar(t.start, p.loops < p.starLoops)
			}
			return p.simpleStmt(k, t.start, t.end, pyIds{}, 0)
		case kReturn:
			if p.fns == 0 {
				p.fail(t.start, "python: 'return' outside function")
			}
			p.leavesExceptStar(t.start, p.starLoops > 0)
			p.skip()
			st := p.simpleStmt(sReturn, t.start, 0, pyIds{}, 0)
			if !p.atLineEnd() {
				st.value = p.starValues().id
			}
			return st
		case kImport:
			p.skip()
			st := p.mkStmt(pyStmt{kind: sImport, s: t.start})
			x := p.stmtX(st)
			for {
				mod, _ := p.dottedName()
				alias := ""
				if p.is(kAs) {
					p.skip()
					alias = p.txt(p.next())
				}
				x.names = append(x.names, mod)
				x.alias = append(x.alias, alias)
				if !p.is(cComma) {
					break
				}
				p.skip()
			}
			st.e = p.toks[p.i-1].end
			return st
		case kFrom:
			p.skip()
			st := p.mkStmt(pyStmt{kind: sFrom, s: t.start})
			x := p.stmtX(st)
			mod := ""
			// Leading dots written together with the name (`.._base_.x`): a slice of the source.
			s0, e0, whole := p.cur().start, p.cur().start, true
			for p.is(cDot) || p.is(cEllipsis) {
				d := p.next()
				whole = whole && d.start == e0
				e0 = d.end
				mod += p.txt(d)
			}
			if !p.is(kImport) {
				whole = whole && p.cur().start == e0
				m, _ := p.dottedName()
				if whole && e0 != s0 && len(m) == p.toks[p.i-1].end-e0 {
					mod = p.tx.s[s0-p.tx.base : p.toks[p.i-1].end-p.tx.base]
				} else {
					mod += m
				}
			}
			x.mod = mod
			if !p.is(kImport) {
				p.failTok(p.peek(), `"import"`)
			}
			p.skip()
			paren := p.is(cLPar)
			if paren {
				p.skip()
			}
			for {
				if paren && p.is(cRPar) {
					break
				}
				if p.is(cStar) {
					p.skip()
					x.names = append(x.names, "*")
					x.alias = append(x.alias, "")
				} else {
					n := p.next()
					if n.kind != pyName {
						p.failTok(n, "a name to import")
					}
					alias := ""
					if p.is(kAs) {
						p.skip()
						alias = p.txt(p.next())
					}
					x.names = append(x.names, p.txt(n))
					x.alias = append(x.alias, alias)
				}
				if !p.is(cComma) {
					break
				}
				p.skip()
			}
			if paren {
				p.expect(cRPar)
			}
			st.e = p.toks[p.i-1].end
			return st
		case kYield:
			// A yield statement makes its function a generator (pyFunc.generator).
			p.yieldHere(&t)
			p.skip()
			p.yields = true
			if p.is(kFrom) {
				p.skip()
				p.expr()
			} else if !p.atLineEnd() {
				p.starValues()
			}
			return p.simpleStmt(sSkip, t.start, 0, pyIds{}, 0)
		case kDel, kGlobal, kNonlocal, kAssert, kRaise:
			if t.code == kNonlocal && p.fns == 0 && p.classes == 0 {
				p.fail(t.start, "python: nonlocal declaration not allowed at module level")
			}
			p.skip()
			if t.code != kRaise && p.atLineEnd() {
				p.failTok(p.peek(), "an expression") // only raise stands alone
			}
			var del *pyExpr
			if !p.atLineEnd() {
				if x := p.exprList(); t.code == kDel {
					p.checkDelete(x)
					del = x
				}
				if t.code == kAssert && p.is(cComma) {
					p.skip()
					p.expr()
				}
				if t.code == kRaise && p.is(kFrom) {
					p.skip()
					p.expr()
				}
			}
			if del != nil {
				return p.simpleStmt(sDel, t.start, del.e, pyIds{}, del.id) // its targets: a name, attribute, item or tuple of them
			}
			return p.simpleStmt(sSkip, t.start, 0, pyIds{}, 0)
		}
	}
	if t.kind == pyName && t.code == cNone && p.toks[p.i+1].kind == pyName && p.toks[p.i+1].code == cNone && p.txt(t) == "type" {
		// Python 3.12's type alias (`type Pair[T] = tuple[T, T]`; a name cannot follow a
		// name otherwise): read, never evaluated.
		p.skip()
		p.skip()
		p.typeParams()
		p.expect(cAssign)
		p.expr()
		return p.simpleStmt(sSkip, t.start, 0, pyIds{}, 0)
	}
	p.noWalrus()
	first := p.starExprList()
	switch {
	case p.is(cAssign):
		st := p.simpleStmt(sAssign, t.start, 0, pyIds{}, 0)
		p.skip()
		v := p.assignValue()
		if !p.is(cAssign) {
			// One target (most assignments): no trip through the stack.
			st.targets, st.value = p.kids1(first), v.id
			p.checkAssigned(first)
			return st
		}
		// Targets and value are collected on the stack: the last is the value.
		mark := len(p.stack)
		p.stack = append(p.stack, first.id, v.id)
		for p.is(cAssign) {
			p.skip()
			p.stack = append(p.stack, p.assignValue().id)
		}
		st.value = p.stack[len(p.stack)-1]
		p.stack = p.stack[:len(p.stack)-1]
		st.targets = p.popList(mark)
		for _, tg := range p.arena.ids(st.targets) {
			p.checkAssigned(p.arena.ex(tg))
		}
		return st
	case p.is(cColon) && !p.atLineEnd():
		p.skip()
		p.expr() // the annotation first: CPython's parser reads it before judging the target
		switch first.op {
		case xName, xAttr, xIndex:
		case xTuple, xList:
			p.fail(first.s, "python: only single target (not "+seqWord(first)+") can be annotated")
		default:
			p.fail(first.s, "python: illegal target for annotation")
		}
		st := p.simpleStmt(sAnn, t.start, 0, p.kids1(first), 0)
		if p.is(cAssign) {
			p.skip()
			st.value = p.assignValue().id
			st.kind = sAssign
		}
		return st
	case p.cur().code >= cAugFirst && p.cur().code <= cAugLast:
		switch first.op {
		case xName, xAttr, xIndex:
		case xTuple, xList:
			p.fail(first.s, "python: '"+seqWord(first)+"' is an illegal expression for augmented assignment")
		default:
			p.fail(first.s, "python: illegal expression for augmented assignment")
		}
		op := p.txt(p.next())
		st := p.mkStmt(pyStmt{kind: sAug, s: t.start, targets: p.kids1(first)})
		p.stmtX(st).op = op[:len(op)-1]
		st.value = p.assignValue().id
		return st
	}
	return p.simpleStmt(sExpr, t.start, 0, pyIds{}, first.id)
}

// noWalrus refuses `name := value` where Python's grammar has no named expression unless it is
// parenthesised: a statement of its own, an assignment's value.
func (p *pyParser) noWalrus() {
	if p.cur().kind == pyName && p.toks[p.i+1].code == cWalrus {
		p.failTok(p.toks[p.i+1], "end of line")
	}
}

func (p *pyParser) assignValue() *pyExpr {
	p.noWalrus()
	if p.is(kYield) {
		p.yieldHere(p.cur())
		p.yields = true
		t := p.next()
		if p.is(kFrom) {
			p.skip()
			p.expr()
		} else if !p.atLineEnd() {
			p.starValues()
		}
		return p.mk(pyExpr{op: xOpaque, s: t.start, e: p.toks[p.i-1].end})
	}
	x := p.starExprList()
	if x.op == xStar {
		p.fail(x.s, "python: can't use starred expression here")
	}
	return x
}

// seqWord is CPython's word for a tuple or list display e.
func seqWord(e *pyExpr) string {
	if e.op == xTuple {
		return "tuple"
	}
	return "list"
}

// leavesExceptStar refuses, at off, a statement that would leave an except* block.
func (p *pyParser) leavesExceptStar(off int, leaves bool) {
	if leaves {
		p.fail(off, "python: 'break', 'continue' and 'return' cannot appear in an except* block")
	}
}

// b2i is 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// yieldHere refuses a yield (at t) outside a function, as CPython's compiler does.
func (p *pyParser) yieldHere(t *pyTok) {
	if p.fns == 0 {
		p.fail(t.start, "python: 'yield' outside function")
	}
}

// starValues reads what return, yield and a for loop's iterable take: expressions, starred
// ones among them only in a tuple (`return *a, b`).
func (p *pyParser) starValues() *pyExpr {
	x := p.list(p.starOrExpr)
	if x.op == xStar {
		p.fail(x.s, "python: can't use starred expression here")
	}
	return x
}

func (p *pyParser) starOrExpr() *pyExpr {
	if p.is(cStar) {
		return p.starred()
	}
	return p.expr()
}

// starred reads `*x` from the current "*" (x an operand of |: no comparison or not).
func (p *pyParser) starred() *pyExpr {
	t := p.next()
	x := p.bitOr()
	return p.mk(pyExpr{op: xStar, s: t.start, e: x.e, kids: p.kids1(x)})
}

// checkAssigned checks an assignment's target: a starred name only inside a tuple or list,
// and at most one there.
func (p *pyParser) checkAssigned(e *pyExpr) {
	if e.op == xStar {
		p.fail(e.s, "python: starred assignment target must be in a list or tuple")
	}
	p.checkTarget(e)
}

// checkDelete checks what del is given: names, attributes and items, in tuples and lists.
func (p *pyParser) checkDelete(e *pyExpr) {
	switch e.op {
	case xName, xAttr, xIndex:
	case xTuple, xList:
		for _, k := range p.arena.ids(e.kids) {
			p.checkDelete(p.arena.ex(k))
		}
	case xCall:
		p.fail(e.s, "python: cannot delete function call")
	default:
		p.fail(e.s, "python: cannot delete this expression")
	}
}

func (p *pyParser) checkTarget(e *pyExpr) {
	switch e.op {
	case xName, xAttr, xIndex:
		return
	case xTuple, xList:
		stars := 0
		for _, id := range p.arena.ids(e.kids) {
			k := p.arena.ex(id)
			if k.op == xStar {
				if stars++; stars == 2 {
					p.fail(e.s, "python: multiple starred expressions in assignment")
				}
			}
			p.checkTarget(k)
		}
		return
	case xStar:
		p.checkTarget(p.arena.kid(e, 0))
		return
	case xCall:
		p.fail(e.s, "python: cannot assign to function call")
	}
	p.fail(e.s, "python: cannot assign to this expression")
}

func (p *pyParser) atLineEnd() bool {
	t := p.cur()
	return t.kind == pyNewline || t.kind == pyEOF || t.kind == pyDedent || t.code == cSemi
}

// pyListEnd marks the codes that end a bare tuple after a comma (list), as the end of a line
// does.
var pyListEnd = [256]bool{cSemi: true, cAssign: true, cRPar: true, cRBrack: true, cRBrace: true, cColon: true}

func (p *pyParser) dottedName() (string, int) {
	t := p.next()
	if t.kind != pyName {
		p.failTok(t, "a module name")
	}
	// Written without blanks (as almost always), the dotted name is a slice of the source.
	name, whole, end := "", true, t.end
	for p.is(cDot) {
		d := p.next()
		n := p.next()
		if n.kind != pyName {
			p.failTok(n, "a name")
		}
		if whole && d.start == end && n.start == d.end {
			end = n.end
			continue
		}
		if whole {
			name, whole = p.tx.s[t.start-p.tx.base:end-p.tx.base], false
		}
		name += "." + p.txt(n)
	}
	if whole {
		name = p.tx.s[t.start-p.tx.base : end-p.tx.base]
	}
	return name, t.start
}

// target reads one assignment target of a for loop or comprehension (no comparisons).
func (p *pyParser) target() *pyExpr {
	if p.is(cStar) {
		return p.starred()
	}
	return p.bitOr()
}

func (p *pyParser) targetList() *pyExpr {
	first := p.target()
	if !p.is(cComma) {
		return first
	}
	mark := len(p.stack)
	p.stack = append(p.stack, first.id)
	for p.is(cComma) {
		p.skip()
		if p.is(kIn) || p.is(cAssign) {
			break
		}
		p.stack = append(p.stack, p.target().id)
	}
	e := p.arena.ex(p.stack[len(p.stack)-1]).e
	return p.mk(pyExpr{op: xTuple, s: first.s, e: e, kids: p.popList(mark)})
}

// exprList reads `a, b, c` (a tuple when there is a comma).
func (p *pyParser) exprList() *pyExpr { return p.list(p.expr) }

func (p *pyParser) starExprList() *pyExpr { return p.list(p.starOrNamed) }

func (p *pyParser) list(item func() *pyExpr) *pyExpr {
	first := item()
	if !p.is(cComma) {
		return first
	}
	mark := len(p.stack)
	p.stack = append(p.stack, first.id)
	for p.is(cComma) {
		p.skip()
		if t := p.cur(); t.kind == pyNewline || t.kind == pyEOF || t.kind == pyDedent || pyListEnd[t.code] {
			break
		}
		p.stack = append(p.stack, item().id)
	}
	return p.mk(pyExpr{op: xTuple, s: first.s, e: p.toks[p.i-1].end, kids: p.popList(mark)})
}

func (p *pyParser) starOrNamed() *pyExpr {
	if p.is(cStar) {
		return p.starred()
	}
	return p.namedExpr()
}

func (p *pyParser) namedExpr() *pyExpr {
	if p.cur().kind == pyName && p.toks[p.i+1].code == cWalrus {
		t := p.next()
		p.skip()
		v := p.expr()
		return p.mk(pyExpr{op: xWalrus, s: t.start, e: v.e, nm: nameOf(&t), kids: p.kids1(v)})
	}
	return p.expr()
}

// expr reads a full expression: lambda, conditional, or, and, not, comparisons, operators.
func (p *pyParser) expr() *pyExpr {
	if p.leafAhead() {
		return p.atom()
	}
	p.enter()
	x := p.expr1()
	p.leave()
	return x
}

// leafAhead reports whether the expression ahead is a lone name, number or string followed by
// a delimiter (`,` `)` `]` `}` `:` `=` or the end of the line): every level of the chain from
// expr1 down to atom would hand it back unchanged, and most operands in configs are such
// leaves, so expr reads them with atom directly. Keywords other than True/False/None, and the
// last level before the nesting limit, take the chain, which reports them as it always has.
func (p *pyParser) leafAhead() bool {
	t := &p.toks[p.i]
	switch t.kind {
	case pyName:
		if t.code != cNone && t.code < kTrue {
			return false
		}
	case pyNumber, pyString:
	default:
		return false
	}
	if p.depth+1 > p.max {
		return false
	}
	n := &p.toks[p.i+1]
	if n.kind == pyNewline {
		return true
	}
	switch n.code {
	case cComma, cRPar, cRBrack, cRBrace, cColon, cAssign:
		return true
	}
	return false
}

func (p *pyParser) expr1() *pyExpr {
	if p.is(kLambda) {
		t := p.next()
		fn := p.fn("<lambda>")
		fn.params = p.params(cColon)
		p.expect(cColon)
		p.fns++
		body := p.expr()
		fn.expr = body.id
		p.fns--
		l := p.mk(pyExpr{op: xLambda, s: t.start, e: body.e})
		p.ext(l).fn = fn
		return l
	}
	var x *pyExpr
	if p.is(kNot) {
		x = p.orTest()
	} else {
		// orTest without its three calls down to comparison: each level only looks at the
		// token after the operand, and most operands end there (one table lookup).
		x = p.bitOr()
		if pyCmpOrLogic[p.cur().code] {
			x = p.orRest(p.andRest(p.comparisonRest(x)))
		}
	}
	if p.is(kIf) {
		p.skip()
		cond := p.orTest()
		if !p.is(kElse) {
			p.failTok(p.peek(), `"else"`)
		}
		p.skip()
		alt := p.expr()
		return p.mk(pyExpr{op: xIfexp, s: x.s, e: alt.e, kids: p.arena.addIds(cond.id, x.id, alt.id)})
	}
	return x
}

func (p *pyParser) orTest() *pyExpr { return p.orRest(p.andTest()) }

// orRest reads the `or` operands after the first, x.
func (p *pyParser) orRest(x *pyExpr) *pyExpr {
	for p.is(kOr) {
		p.skip()
		y := p.andTest()
		x = p.mk(pyExpr{op: xOr, s: x.s, e: y.e, kids: p.kids2(x, y)})
	}
	return x
}

func (p *pyParser) andTest() *pyExpr { return p.andRest(p.notTest()) }

// andRest reads the `and` operands after the first, x.
func (p *pyParser) andRest(x *pyExpr) *pyExpr {
	for p.is(kAnd) {
		p.skip()
		y := p.notTest()
		x = p.mk(pyExpr{op: xAnd, s: x.s, e: y.e, kids: p.kids2(x, y)})
	}
	return x
}

func (p *pyParser) notTest() *pyExpr {
	if p.is(kNot) {
		t := p.next()
		p.enter()
		x := p.notTest()
		p.leave()
		return p.mk(pyExpr{op: xNot, s: t.start, e: x.e, kids: p.kids1(x)})
	}
	return p.comparison()
}

func (p *pyParser) comparison() *pyExpr { return p.comparisonRest(p.bitOr()) }

// comparisonRest reads the comparisons after the first operand, x. A chain's operands
// (rare) are collected on the stack.
func (p *pyParser) comparisonRest(x *pyExpr) *pyExpr {
	var c *pyExpr
	var cx *pyExprExt
	var y *pyExpr
	mark := -1
	for {
		op := ""
		t := &p.toks[p.i]
		switch t.code {
		case cLt, cGt, cEq, cNe, cLe, cGe:
			op = p.tx.at(t)
			p.skip()
		case kIn:
			op = "in"
			p.skip()
		case kNot:
			if p.toks[p.i+1].code != kIn {
				break
			}
			op = "not in"
			p.skip()
			p.skip()
		case kIs:
			p.skip()
			op = "is"
			if p.is(kNot) {
				p.skip()
				op = "is not"
			}
		}
		if op == "" {
			break
		}
		if y != nil {
			// A chain: the operands so far go on the stack.
			if mark < 0 {
				mark = len(p.stack)
				p.stack = append(p.stack, x.id)
			}
			p.stack = append(p.stack, y.id)
		}
		y = p.bitOr()
		if c == nil {
			// The first comparison: its operator in an exact list (a chain grows it).
			c = p.mk(pyExpr{op: xCmp, s: x.s, e: y.e})
			cx = p.ext(c)
			cx.ops = pyCmpOne(op)
			continue
		}
		cx.ops = append(cx.ops, op)
		c.e = y.e
	}
	if c == nil {
		return x
	}
	if mark < 0 {
		c.kids = p.kids2(x, y)
	} else {
		p.stack = append(p.stack, y.id)
		c.kids = p.popList(mark)
	}
	return c
}

// pyCmpOrLogic marks the codes that go on from an operand at the comparison, and or or level.
var pyCmpOrLogic = [256]bool{cLt: true, cGt: true, cEq: true, cNe: true, cLe: true, cGe: true,
	kIn: true, kNot: true, kIs: true, kAnd: true, kOr: true}

// pyCmpOps are the comparison operators, each a list of one that comparisons share (its
// capacity ends at its length, so a chain's append copies it).
var pyCmpOps = [...][]string{{"<"}, {">"}, {"=="}, {"!="}, {"<="}, {">="}, {"in"}, {"not in"}, {"is"}, {"is not"}}

// pyCmpOne is the list of the one operator op.
func pyCmpOne(op string) []string {
	for _, l := range pyCmpOps {
		if l[0] == op {
			return l[:1:1]
		}
	}
	return []string{op}
}

// binPrec is a binary operator's precedence (higher binds tighter); 0 for other tokens.
var binPrec = [256]uint8{cPipe: 1, cCaret: 2, cAmp: 3, cShl: 4, cShr: 4, cPlus: 5, cMinus: 5,
	cStar: 6, cSlash: 6, cFloorDiv: 6, cPercent: 6, cAt: 6}

func (p *pyParser) bitOr() *pyExpr { return p.binary(1) }

// binary reads operators of precedence min and above by precedence climbing (left-assoc).
func (p *pyParser) binary(min uint8) *pyExpr {
	x := p.unary()
	for {
		t := &p.toks[p.i]
		prec := binPrec[t.code]
		if prec == 0 || prec < min {
			return x
		}
		op := nameOf(t) // before next: the window may move
		p.skip()
		p.enter()
		y := p.binary(prec + 1)
		p.leave()
		x = p.mk(pyExpr{op: xBin, nm: op, s: x.s, e: y.e, kids: p.kids2(x, y)})
	}
}

func (p *pyParser) unary() *pyExpr {
	t := &p.toks[p.i]
	if t.code == cMinus || t.code == cPlus || t.code == cTilde {
		op, s := nameOf(t), t.start // before next: the window may move
		p.skip()
		p.enter() // no deferred leave: a syntax error abandons the parser
		x := p.unary()
		p.leave()
		return p.mk(pyExpr{op: xUnary, nm: op, s: s, e: x.e, kids: p.kids1(x)})
	}
	// The power level, read here rather than in a call of its own.
	if t.code == kAwait {
		p.skip()
	}
	x := p.primary()
	if p.is(cPow) {
		op := nameOf(&p.toks[p.i])
		p.skip()
		p.enter()
		y := p.unary()
		p.leave()
		return p.mk(pyExpr{op: xBin, nm: op, s: x.s, e: y.e, kids: p.kids2(x, y)})
	}
	return x
}

func (p *pyParser) primary() *pyExpr {
	x := p.atom()
	for {
		switch p.cur().code {
		case cDot:
			p.skip()
			n := p.next()
			if n.kind != pyName || n.code != cNone { // config.in is a syntax error
				p.failTok(n, "an attribute name")
			}
			x = p.mk(pyExpr{op: xAttr, nm: nameOf(&n), s: x.s, e: n.end, kids: p.kids1(x)})
		case cLPar:
			p.skip()
			c := p.mk(pyExpr{op: xCall, s: x.s})
			p.callArgs(c, x)
			c.e = p.expect(cRPar).end
			x = c
		case cLBrack:
			p.skip()
			p.enter()
			idx := p.subscript()
			p.leave()
			e := p.expect(cRBrack).end
			x = p.mk(pyExpr{op: xIndex, s: x.s, e: e, kids: p.kids2(x, idx)})
		default:
			return x
		}
	}
}

func (p *pyParser) subscript() *pyExpr {
	first := p.sliceItem()
	if !p.is(cComma) {
		return first
	}
	kids := p.bracketItems(first, p.sliceItem, cRBrack)
	return p.mk(pyExpr{op: xTuple, s: first.s, e: p.toks[p.i-1].end, kids: kids})
}

// bracketItems reads the rest of a comma-separated list whose first item is read, up to the
// closing bracket close (a trailing comma allowed; the bracket is left unread), collecting the
// items on the parser's stack: a parenthesised tuple, a list display, a subscript's tuple.
func (p *pyParser) bracketItems(first *pyExpr, item func() *pyExpr, close pyCode) pyIds {
	mark := len(p.stack)
	p.stack = append(p.stack, first.id)
	for p.is(cComma) {
		p.skip()
		if p.is(close) {
			break
		}
		p.stack = append(p.stack, item().id)
	}
	return p.popList(mark)
}

func (p *pyParser) sliceItem() *pyExpr {
	s := p.cur().start
	var parts [3]*pyExpr
	isSlice := false
	for k := 0; k < 3; k++ {
		if !p.is(cColon) && !p.is(cRBrack) && !p.is(cComma) {
			if k == 0 {
				parts[k] = p.starOrNamed()
			} else {
				parts[k] = p.expr()
			}
		}
		if k < 2 && p.is(cColon) {
			p.skip()
			isSlice = true
			continue
		}
		break
	}
	if !isSlice {
		if parts[0] == nil {
			p.failTok(p.peek(), "an index")
		}
		return parts[0]
	}
	return p.mk(pyExpr{op: xSlice, s: s, e: p.toks[p.i-1].end, kids: p.arena.addIds(idOf(parts[0]), idOf(parts[1]), idOf(parts[2]))})
}

// callArgs reads arguments up to ")" into c: kids are the function fn, then the positional
// arguments.
func (p *pyParser) callArgs(c, fn *pyExpr) {
	p.enter()
	mark, kmark := len(p.stack), len(p.kws)
	p.stack = append(p.stack, idOf(fn))
	// What Python refuses in a call: a positional argument after a keyword or **mapping, and
	// *iterable after **mapping (keyword arguments may follow either).
	kw, dstar := false, false
	var names map[string]bool // the keywords' names, once there are many
	for !p.is(cRPar) {
		switch t := p.cur(); {
		case t.code == cStar:
			s := t.start
			if dstar {
				p.fail(s, "python: iterable argument unpacking follows keyword argument unpacking")
			}
			p.skip()
			x := p.expr()
			p.stack = append(p.stack, p.mk(pyExpr{op: xStar, s: s, e: x.e, kids: p.kids1(x)}).id)
		case t.code == cPow:
			kw, dstar = true, true
			p.skip()
			x := p.expr()
			p.kws = append(p.kws, pyKw{val: x.id})
		case t.kind == pyName && p.toks[p.i+1].code == cAssign:
			if t.code != cNone { // dict(if=1) is a syntax error
				p.failTok(*t, "a keyword argument name")
			}
			kw = true
			nm := nameOf(t)
			// A name given twice is refused by CPython's compiler (a long call looks names up
			// in a set, so a huge one stays linear).
			if name := nm.in(p.tx); len(p.kws)-kmark < 16 {
				for _, k := range p.kws[kmark:] {
					if k.nm.n == nm.n && k.nm.in(p.tx) == name {
						p.fail(t.start, "python: keyword argument repeated: "+name)
					}
				}
			} else {
				if names == nil {
					names = make(map[string]bool, 32)
					for _, k := range p.kws[kmark:] {
						if k.nm.n > 0 {
							names[k.nm.in(p.tx)] = true
						}
					}
				}
				if names[name] {
					p.fail(t.start, "python: keyword argument repeated: "+name)
				}
				names[name] = true
			}
			p.skip()
			p.skip()
			p.kws = append(p.kws, pyKw{nm: nm, val: p.expr().id})
		default:
			x := p.namedExpr()
			if kw {
				what := "keyword argument"
				if dstar {
					what = "keyword argument unpacking"
				}
				p.fail(x.s, "python: positional argument follows "+what)
			}
			if p.is(kFor) || p.is(kAsync) {
				x = p.comprehension("gen", x, nil, x.s)
				x.e = p.cur().start
			}
			p.stack = append(p.stack, x.id)
		}
		if !p.is(cComma) {
			break
		}
		p.skip()
	}
	c.kids = p.popList(mark)
	if kw := p.popKws(kmark); kw != nil {
		p.ext(c).kw = kw
	}
	p.leave()
}

func (p *pyParser) comprehension(kind string, elt, val *pyExpr, s int) *pyExpr {
	c := p.mk(pyExpr{op: xComp, s: s, kids: p.arena.addIds(elt.id, idOf(val))})
	x := p.ext(c)
	x.comp = kind
	for p.is(kFor) || p.is(kAsync) {
		if p.is(kAsync) {
			p.skip()
		}
		p.skip()
		target := p.targetList()
		p.checkTarget(target)
		f := pyFor{target: target.id}
		if !p.is(kIn) {
			p.failTok(p.peek(), `"in"`)
		}
		p.skip()
		f.iter = p.orTest().id
		mark := len(p.stack)
		for p.is(kIf) {
			p.skip()
			p.stack = append(p.stack, p.orTestNoCond().id)
		}
		f.conds = p.popList(mark)
		x.fors = append(x.fors, f)
	}
	return c
}

func (p *pyParser) orTestNoCond() *pyExpr {
	if p.is(kLambda) {
		return p.expr()
	}
	return p.orTest()
}

func (p *pyParser) atom() *pyExpr {
	t := p.next()
	switch t.kind {
	case pyName:
		if t.code != cNone {
			switch t.code {
			case kTrue, kFalse, kNone:
				return p.leaf(xConst, t.start, t.end, nameOf(&t), 0, 0)
			case kYield:
				p.yieldHere(&t)
				x := p.mk(pyExpr{op: xOpaque, s: t.start, e: t.end})
				if !p.is(cRPar) {
					x.e = p.exprList().e
				}
				return x
			}
			p.fail(t.start, "python: unexpected keyword "+strconv.Quote(p.txt(t)))
		}
		return p.leaf(xName, t.start, t.end, nameOf(&t), 0, 0)
	case pyNumber:
		return p.leaf(xNum, t.start, t.end, nameOf(&t), 0, 0)
	case pyString:
		var toks []pyTok
		var t0 int32
		if p.lx != nil {
			// A file's tokens pass through a window: its strings' tokens are copied to the
			// file's token list (adjacent strings consecutively).
			a := p.arena
			t0 = int32(len(a.ftoks))
			a.ftoks = append(a.ftoks, t)
			for p.cur().kind == pyString {
				a.ftoks = append(a.ftoks, p.next())
			}
			toks = a.ftoks[t0:]
		} else {
			// The adjacent strings are consecutive tokens: a slice of the token list, not a copy.
			first := p.i - 1
			for p.cur().kind == pyString {
				p.skip()
			}
			toks = p.toks[first:p.i:p.i]
			t0 = int32(p.tbase + first)
		}
		tn := int32(len(toks))
		if len(toks) > 1 {
			for _, s := range toks[1:] {
				if s.is(pfxBytes) != toks[0].is(pfxBytes) {
					p.fail(s.start, "python: cannot mix bytes and nonbytes literals")
				}
			}
		}
		for _, s := range toks {
			if s.is(pfxFormat) {
				for _, f := range toks {
					if b, e := f.body, f.end-int(f.quote); f.is(pfxFormat) && b <= e && e <= len(p.src) {
						if off, msg := fstringError(p.src[b:e], f.is(pfxRaw), p, b); off >= 0 {
							p.fail(b+off, msg)
						}
					}
				}
				// An f-string gets its parts and fields later (x, kids): not a leaf.
				return p.mk(pyExpr{op: xFstr, s: t.start, e: toks[len(toks)-1].end, t0: t0, tn: tn})
			}
		}
		return p.leaf(xStr, t.start, toks[len(toks)-1].end, pyNameRef{}, t0, tn)
	case pyOp:
		switch t.code {
		case cEllipsis:
			return p.mk(pyExpr{op: xEllipsis, s: t.start, e: t.end})
		case cLPar:
			if p.is(cRPar) {
				e := p.next()
				return p.mk(pyExpr{op: xTuple, s: t.start, e: e.end})
			}
			p.enter()
			first := p.starOrNamed()
			if p.is(kYield) {
				p.fail(p.cur().start, "python: yield is not supported here")
			}
			if p.is(kFor) || p.is(kAsync) {
				c := p.comprehension("gen", first, nil, t.start)
				c.e = p.expect(cRPar).end
				p.leave()
				return c
			}
			if p.is(cRPar) {
				e := p.next()
				p.leave()
				if first.op == xStar {
					p.fail(first.s, "python: cannot use starred expression here")
				}
				// Parentheses keep the inner expression, its span widened to them: what encloses
				// it then spans them too (`-(2**63)`, `(a + b).c`, `(x) % y`), and a value
				// written in parentheses is not taken for a bare literal.
				cp := *first
				cp.s, cp.e = t.start, e.end
				return p.mk(cp)
			}
			kids := p.bracketItems(first, p.starOrNamed, cRPar)
			tu := p.mk(pyExpr{op: xTuple, s: t.start, kids: kids})
			tu.e = p.expect(cRPar).end
			p.leave()
			return tu
		case cLBrack:
			return p.listDisplay(t)
		case cLBrace:
			return p.dictDisplay(t)
		}
	}
	p.failTok(t, "an expression")
	return nil
}

// listDisplay reads a list display or comprehension after its "[" t. It is a function of its
// own so that atom, which reads every operand, has no defer: a defer atom cannot open-code
// made every return from it go through the runtime's deferreturn.
func (p *pyParser) listDisplay(t pyTok) *pyExpr {
	p.enter()
	defer p.leave()
	l := p.mk(pyExpr{op: xList, s: t.start})
	if p.is(cRBrack) {
		l.e = p.next().end
		return l
	}
	first := p.starOrNamed()
	if p.is(kFor) || p.is(kAsync) {
		c := p.comprehension("list", first, nil, t.start)
		c.e = p.expect(cRBrack).end
		return c
	}
	l.kids = p.bracketItems(first, p.starOrNamed, cRBrack)
	l.e = p.expect(cRBrack).end
	return l
}

// dictDisplay reads a dict or set display or comprehension after its "{" t.
func (p *pyParser) dictDisplay(t pyTok) *pyExpr {
	p.enter()
	defer p.leave()
	d := p.mk(pyExpr{op: xDict, s: t.start})
	if p.is(cRBrace) {
		d.e = p.next().end
		return d
	}
	mark := len(p.stack)
	if p.is(cPow) {
		p.skip()
		p.stack = append(p.stack, 0, p.bitOr().id)
	} else {
		k := p.starOrNamed()
		if p.is(cColon) {
			p.skip()
			v := p.expr()
			if p.is(kFor) || p.is(kAsync) {
				c := p.comprehension("dict", k, v, t.start)
				c.e = p.expect(cRBrace).end
				return c
			}
			p.stack = append(p.stack, k.id, v.id)
		} else {
			// A set display or set comprehension.
			if p.is(kFor) || p.is(kAsync) {
				c := p.comprehension("set", k, nil, t.start)
				c.e = p.expect(cRBrace).end
				return c
			}
			d.op = xSet
			p.stack = append(p.stack, k.id)
		}
	}
	for p.is(cComma) {
		p.skip()
		if p.is(cRBrace) {
			break
		}
		if d.op == xSet {
			p.stack = append(p.stack, p.starOrNamed().id)
			continue
		}
		if p.is(cPow) {
			p.skip()
			p.stack = append(p.stack, 0, p.bitOr().id)
			continue
		}
		k := p.expr()
		p.expect(cColon)
		p.stack = append(p.stack, k.id, p.expr().id)
	}

	d.kids = p.popList(mark)
	d.e = p.expect(cRBrace).end
	return d
}
