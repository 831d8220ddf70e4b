package doc

import (
	"bytes"
	"hash/maphash"
	"math"
	"sort"
	"strconv"
	"strings"
	"unsafe"
)

// Static evaluation of a Python config over a safe subset: literals, names, assignments
// (including attribute and item assignment on dicts and ConfigDicts), dict()/ConfigDict(),
// displays, arithmetic and string operations, f-strings, comprehensions, `if` on known values,
// `for` over known sequences, functions defined in the file (get_config and its helpers),
// big_vision's parse_arg with its defaults. Everything else is an opaque value that keeps the
// span of the expression that made it: the Document shows it as an Unknown scalar, so rules stay
// silent on it. Nothing is imported or executed; work is bounded by a step budget, a call depth
// and size limits, past which the file is input-limit-exceeded.

type pvKind uint8

const (
	pvNone pvKind = iota
	pvBool
	pvInt
	pvFloat
	pvStr
	pvList
	pvTuple
	pvDict
	pvOpaque
	pvFunc
	pvModule
	pvBuiltin
)

type pyVal struct {
	k pvKind
	b bool
	// i is an int's value; for a part of the bases (an opaque value with s), how many edits
	// of them had been made when the object was read (pyEval.maybeDetached)
	i int64
	f float64
	// s is a string's value, a module's path, a builtin's name or a bound method's bare name
	s    string
	list *pyList
	dict *pyDict
	fn   *pyFunc
	// x holds what functions and bound methods alone need: a value is 88 bytes with five
	// pointers, not 112 with seven (values are copied and scanned by the collector by the
	// thousand; their pointers are what the write barrier records)
	x  *pyValX
	s0 int // span of the expression that made the value
	e0 int
}

// pyValX is the rest of a function value (the scope it was defined in) or of a bound
// method (its receiver).
type pyValX struct {
	env  *pyEnv
	recv *pyVal
	ref  *pyRef // an ml_collections FieldReference (an opaque value's: pyrefs.go)
}

// pyList is a list's or tuple's items. like says when the value is not a list or tuple in
// Python but is read as its items are: CPython raises where the evaluator would go on as with
// a list, so it gives an unknown value there instead.
type pyList struct {
	items []*pyVal
	like  pySeqLike
}

type pySeqLike uint8

const (
	likeList pySeqLike = iota
	// likeRange: range(), which iterates, indexes, slices (to a range), compares and counts like
	// its items' list, but has no arithmetic (range(3) + range(3) raises), no list methods, and
	// equals no list.
	likeRange
	// likeView: a dict's keys(), values() or items(), which iterate but take no index or slice,
	// no list arithmetic and no list methods, and compare as sets (left unknown).
	likeView
	// likePartial: a list changed in ways this reader could not follow (spoil): its items and
	// its length are not known, so it is unknown in the tree and nothing is read from it.
	likePartial
	// likeSet: a set or frozenset of hashable scalars, each once (setOf): membership, len and
	// sorted() are known; its iteration order is the hashes' (string hashes are randomized
	// per process), so it iterates, indexes, prints and shows in the tree as unknown.
	likeSet
	// likeIter: an iterator (zip, enumerate), which its first iteration exhausts (iterate
	// empties it); it has no len, index or list methods, compares by identity and shows in
	// the tree as unknown.
	likeIter
)

type pyDict struct {
	ents []pyEnt
	// index finds the entries of a large dict (pyDictIndexed entries or more; nil for a small
	// one): a table of entry positions + 1 (0: empty) by pyKeyHash, its length a power of two
	// at least twice the entries', probed in order; keys are the same when their pyKeyOf is.
	// No pointers, so the collector never scans it.
	index []int32
	// partial: the dict was changed in a way this reader could not follow (a key it cannot
	// know, an update from an unknown value, a call that may change it: spoil), so it is
	// unknown in the tree and what is read from its entries is unknown.
	partial bool
	// cfg: made by ml_collections' ConfigDict(...) or big_vision's parse_arg (FieldReferences
	// in its fields are read through: pyrefs.go; MMEngine's ConfigDict, an addict Dict, is not).
	cfg bool
	// loose: an ml_collections ConfigDict made with convert_dict=False, which stores dicts as
	// they are (cfg is false for it: its fields' FieldReferences are not shown); unsorted: one
	// made with sort_keys=False, which iterates in insertion order (pycfgdict.go).
	loose, unsorted bool
	// mm: an MMEngine ConfigDict (made from the bases, a copy of one, or what the bases
	// stored), which ConfigDict._hook shares where it copies a plain dict (pybase.go hooked).
	mm bool
	// own marks the first 64 entries whose dict value the dict's own display or dict(k=...)
	// call made fresh (pyEval.fresh): nothing else holds it. Read only while the dict is
	// fresh itself (cfgInPlace), before anything can change it.
	own uint64
	// arena, when not nil, gives a full dict's entries room to grow (up to 256 entries)
	// instead of the heap.
	arena *pyArena
}

// pyEnt is one entry of a dict: key, value and the key's span. One slice of entries, not three
// parallel slices, so a growing dict grows once.
type pyEnt struct {
	k, v   *pyVal
	ks, ke int
}

// pyEnv is a scope: its names in order of first assignment and their values. A function's
// scope holds a handful of names, so a scan beats a map; a module with many variables gets an
// index past pyEnvIndexed names.
type pyEnv struct {
	names  []string
	vals   []*pyVal
	index  map[string]int
	parent *pyEnv
}

const pyEnvIndexed = 24

// local is the position of name in this scope alone, or -1.
func (e *pyEnv) local(name string) int {
	if e.index != nil {
		if i, ok := e.index[name]; ok {
			return i
		}
		return -1
	}
	for i, n := range e.names {
		if n == name {
			return i
		}
	}
	return -1
}

// lookup is name's value in this scope alone.
func (e *pyEnv) lookup(name string) (*pyVal, bool) {
	if i := e.local(name); i >= 0 {
		return e.vals[i], true
	}
	return nil, false
}

func (e *pyEnv) get(name string) (*pyVal, bool) {
	for x := e; x != nil; x = x.parent {
		if i := x.local(name); i >= 0 {
			return x.vals[i], true
		}
	}
	return nil, false
}

func (e *pyEnv) set(name string, v *pyVal) {
	if i := e.local(name); i >= 0 {
		e.vals[i] = v
		return
	}
	e.add(name, v)
}

// add binds a name the scope does not hold yet (a call's parameters, which the parser keeps
// distinct): set without the search.
func (e *pyEnv) add(name string, v *pyVal) {
	e.names = append(e.names, name)
	e.vals = append(e.vals, v)
	if e.index != nil {
		e.index[name] = len(e.names) - 1
	} else if len(e.names) > pyEnvIndexed {
		e.index = make(map[string]int, 2*len(e.names))
		for i, n := range e.names {
			e.index[n] = i
		}
	}
}

type pyLimitStop struct{ msg, key string }

type pyEval struct {
	src     []byte
	tx      *pyText // the file's token texts
	steps   int
	max     int
	depth   int
	size    int // total items and string bytes made
	maxSize int
	refs    *[]FileRef
	lines   *LineIndex
	arena   *pyArena // where values come from (nil: the heap)
	// seen is the dicts a ConfigDict conversion or copy has met (pycfgdict.go), kept between
	// them: one runs at a time and runs no code.
	seen cfgSeen
	// fbuf is the f-string buffer kept between f-strings (nil while one is being formatted:
	// a field that holds an f-string formats into its own).
	fbuf []byte
	// refused is the first argument big_vision's parse_arg refused: Python raises there, so
	// the config does not load (parsePython reports it and builds no tree).
	refused *pyRefusal
	// predef rewrites MMEngine's predefined variables in string literals (nil: not rewritten).
	predef *pyPredef
	// inTry counts the try bodies being run: a refusal there may be caught by a handler, so
	// it only leaves the call unknown.
	inTry int
	// inReadBase counts the `with read_base():` blocks being executed: MMEngine takes every
	// `from X import` in them, relative or absolute, as a base config (Config._get_base_modules,
	// v0.10.7) and any other import as a module (a LazyObject).
	inReadBase int
	// strs is the file's block of computed strings (f-strings, str.format, +; the tree's
	// numbers); obuf is str.format's buffer kept between calls.
	strs pyStrs
	obuf []byte
	// fpbuf and ftext are fparts' scratch lists, kept between f-strings.
	fpbuf []pyFPart
	ftext []byte
	// baseEdits are the file's assignments into MMEngine's `_base_` (pybase.go), in the order
	// they ran; noBase is set when the file does not assign _base_ at its top level (no
	// MMEngine bases: nothing to record).
	baseEdits []pyBaseEdit
	noBase    bool
	// module is the module's statement list and top where the one of them now running ends
	// (the next one's start): an edit made in a call takes effect, in the run's order, there.
	module pyIds
	top    int
	// baseLine is set once the module's first `_base_ = ...` has run.
	baseLine bool
	// bases is what composition gives an MMEngine config (Options.Bases; nil when the file is
	// read alone): an old-style file's merged bases, or the names a new-style file imports,
	// where an operation reads the value of a part of them (baseVal); readsBases is set when an
	// operation met such a part.
	bases      *Node
	readsBases bool
	// imports are the imported names the bases bind (Options.Imports), which a new-style
	// file's `with read_base():` imports take as they take the bases' variables (lazyImport).
	imports []Import
	// lazy is set when bases are given to a new-style config (no `_base_ = ...` line): the
	// names its `with read_base():` imports take are parts of them (lazyImport).
	lazy bool
	// baseObjs, baseReads and baseSnaps are the containers of the bases operations took
	// (baseVal, baseFinish); baseScalars leaves containers unknown (the second reading of a
	// file whose edits may have changed what such a read took).
	baseObjs    []pyBaseObj
	baseReads   []pyBaseRead
	baseSnaps   []pyBaseSnap
	baseScalars bool
	// fieldRefs is what the run's ml_collections FieldReferences share (pyrefs.go).
	fieldRefs *pyRefs
	// baseOf names the values made from the bases that the file left as they were, by their
	// path under the bases (baseFinish): the tree shows them as parts of the bases.
	baseOf map[*pyVal]string
	// calls is where the calls of other modules' functions made while get_config runs are
	// recorded (moduleCall; Document.Calls), nil before get_config is called.
	calls *[]ModuleCall
	// newD is the dict the last dict display or dict(k=...) call made, newE that expression;
	// retD is the dict the last return statement returned when its expression was such a
	// display or call (nil otherwise); callD is the dict the last call of a function returned
	// that way, callE that call. A dict that is one of them for the expression just evaluated
	// is fresh: nothing else holds it (ConfigDict then converts it in place: fresh).
	newD, retD, callD *pyDict
	newE, callE       *pyExpr
}

// fresh reports whether v, just evaluated from e, is a dict nothing else holds: made by e
// itself (a dict display or a dict(k=...) call), or returned by e, a call of a function whose
// return statement made it.
func (ev *pyEval) fresh(e *pyExpr, v *pyVal) bool {
	if v.k != pvDict {
		return false
	}
	return ev.newE == e && ev.newD == v.dict || ev.callE == e && ev.callD == v.dict
}

// pyStrs is a file's block of computed strings: newStr writes a string's bytes into it instead
// of an allocation of their own (a loop of f-strings makes hundreds). The block is only ever
// appended to, so a string made from it never changes; it is this file's alone (never pooled:
// the tree's values point into it), and dies with the file's values and tree.
type pyStrs struct{ b []byte }

// newStr is the string of b's bytes.
func (p *pyStrs) newStr(b []byte) string {
	n := len(b)
	if n == 0 || n > 256 {
		return string(b)
	}
	p.room(n)
	i := len(p.b)
	p.b = append(p.b, b...)
	return unsafe.String(&p.b[i], n)
}

// concat is a + b, written as newStr writes.
func (p *pyStrs) concat(a, b string) string {
	n := len(a) + len(b)
	if len(a) == 0 || len(b) == 0 || n > 256 {
		return a + b
	}
	p.room(n)
	i := len(p.b)
	p.b = append(append(p.b, a...), b...)
	return unsafe.String(&p.b[i], n)
}

// room makes room for n more bytes (a new block when the rest of this one is too short: what
// was written stays where it is).
func (p *pyStrs) room(n int) {
	if cap(p.b)-len(p.b) < n {
		p.b = make([]byte, 0, min(max(2*cap(p.b), 512), 8192))
	}
}

func (ev *pyEval) newStr(b []byte) string    { return ev.strs.newStr(b) }
func (ev *pyEval) concat(a, b string) string { return ev.strs.concat(a, b) }

// pyRefusal is why parse_arg refuses its argument, at the parse_arg call.
type pyRefusal struct {
	msg  string
	s, e int
}

const (
	pyMaxSteps = 2_000_000
	pyMaxCalls = 64
	pyMaxStr   = 1 << 20
)

// step counts one step of the budget (small enough to inline: it runs for every expression
// and statement).
func (ev *pyEval) step() {
	ev.steps++
	if ev.steps > ev.max {
		ev.overBudget()
	}
}

func (ev *pyEval) overBudget() {
	panic(pyLimitStop{"evaluating it would take more than " + itoa(ev.max) + " steps", "max_nodes"})
}

// work counts n steps at once: an operation that copies or scans a value does work in
// proportion to its size (a slice of 100,000 items, a string method over a megabyte), which a
// long loop would otherwise repeat for minutes while the budget counted one step each time.
func (ev *pyEval) work(n int) {
	ev.steps += n
	if ev.steps > ev.max {
		ev.overBudget()
	}
}

// pySize is what copying or scanning v costs in steps: its items, a dict's entries, a
// string's bytes by sixteen (a step of the budget is worth about that much byte work).
func pySize(v *pyVal) int {
	switch v.k {
	case pvList, pvTuple:
		return len(v.list.items)
	case pvDict:
		return len(v.dict.ents)
	case pvStr:
		return len(v.s) >> 4
	}
	return 0
}

func (ev *pyEval) grow(n int) {
	ev.size += n
	if ev.size > ev.maxSize {
		panic(pyLimitStop{"its values grow past " + itoa(ev.maxSize) + " items", "max_nodes"})
	}
}

// ptrs is an empty value list with room for n, from the arena when there is one.
func (ev *pyEval) ptrs(n int) []*pyVal {
	if ev.arena == nil {
		return make([]*pyVal, 0, n)
	}
	return ev.arena.argv.take(n)
}

// nm is e's name, attribute, operator or constant as text.
func (ev *pyEval) nm(e *pyExpr) string { return e.nm.in(ev.tx) }

// cv is the value made once for constant e (pyExpr.cv), nil before; setCV records it.
func (ev *pyEval) cv(e *pyExpr) *pyVal {
	if e.cv == 0 {
		return nil
	}
	return ev.arena.cvs[e.cv-1]
}

func (ev *pyEval) setCV(e *pyExpr, v *pyVal) *pyVal {
	ev.arena.cvs = append(ev.arena.cvs, v)
	e.cv = int32(len(ev.arena.cvs))
	return v
}

// etoks are string e's tokens.
func (ev *pyEval) etoks(e *pyExpr) []pyTok { return ev.arena.ftoks[e.t0 : e.t0+e.tn] }

func (ev *pyEval) opaque(e *pyExpr) *pyVal { return ev.scalar(pvOpaque, false, 0, 0, "", e.s, e.e) }

// ex is expression id; kid is e's i-th operand; kids are e's operands' ids.
func (ev *pyEval) ex(id int32) *pyExpr { return ev.arena.exprs.at(id) }

func (ev *pyEval) kid(e *pyExpr, i int) *pyExpr { return ev.arena.kid(e, i) }

func (ev *pyEval) kids(e *pyExpr) []int32 { return ev.arena.ids(e.kids) }

// list holds items (from the arena when there is one).
func (ev *pyEval) list(items []*pyVal) *pyList {
	if ev.arena == nil {
		return &pyList{items: items}
	}
	l := ev.arena.lists.one()
	*l = pyList{items: items} // the block holds what an earlier file left there (like too)
	return l
}

// newDict is an empty dict with room for n entries, from the arena when there is one.
func (ev *pyEval) newDict(n int) *pyDict {
	if ev.arena == nil {
		return &pyDict{ents: make([]pyEnt, 0, n)}
	}
	d := ev.arena.dict()
	d.ents = ev.arena.entries(n)
	d.arena = ev.arena
	return d
}

// disown clears the own mark of key k's entry (about to be replaced).
func (d *pyDict) disown(k *pyVal) {
	if d.own != 0 {
		if j := d.find(k); j >= 0 && j < 64 {
			d.own &^= 1 << j
		}
	}
}

// hashable reports whether a value can be a dict key here.
func hashable(k *pyVal) bool {
	switch k.k {
	case pvStr, pvInt, pvBool, pvNone, pvFloat:
		return true
	}
	return false
}

// sameKey compares two hashable keys as Python would.
func sameKey(a, b *pyVal) bool {
	if a.k == pvStr || b.k == pvStr {
		return a.k == b.k && a.s == b.s
	}
	if a.k == pvNone || b.k == pvNone {
		return a.k == b.k
	}
	x, y, _ := numbers(a, b)
	return x == y
}

// find is the position of key k: a scan for small dicts (most config sections), an index past
// pyDictIndexed keys.
func (d *pyDict) find(k *pyVal) int {
	if d.index != nil {
		id := pyKeyOf(k)
		return d.lookup(id, pyKeyHash(id))
	}
	if k.k == pvStr {
		// A string key (nearly every key of a config): sameKey's answer without a call per
		// entry.
		for i := range d.ents {
			if x := d.ents[i].k; x.k == pvStr && x.s == k.s {
				return i
			}
		}
		return -1
	}
	for i := range d.ents {
		if sameKey(d.ents[i].k, k) {
			return i
		}
	}
	return -1
}

const pyDictIndexed = 16

// pyKey is a hashable value's identity in an indexed dict, so 1 == 1.0 == True as in Python: a
// string's text (kind 's'), an int, bool or integral float below 2^53 by its integer (kind
// 'i'), another float by its bits (kind 'f', every NaN alike), None (kind 'n'). The same
// identity as the strings ("s"+text, "i"+integer, "f"+shortest float) the maps it replaced
// were keyed by (TestPyDictIndex).
type pyKey struct {
	kind byte
	bits uint64
	s    string
}

func pyKeyOf(k *pyVal) pyKey {
	switch k.k {
	case pvStr:
		return pyKey{kind: 's', s: k.s}
	case pvInt:
		return pyKey{kind: 'i', bits: uint64(k.i)}
	case pvBool:
		if k.b {
			return pyKey{kind: 'i', bits: 1}
		}
		return pyKey{kind: 'i'}
	case pvFloat:
		if k.f == math.Trunc(k.f) && math.Abs(k.f) < 1<<53 {
			return pyKey{kind: 'i', bits: uint64(int64(k.f))}
		}
		if math.IsNaN(k.f) {
			return pyKey{kind: 'f', bits: 0x7ff8000000000001}
		}
		return pyKey{kind: 'f', bits: math.Float64bits(k.f)}
	}
	return pyKey{kind: 'n'}
}

var pyKeySeed = maphash.MakeSeed()

func pyKeyHash(id pyKey) uint64 {
	if id.kind == 's' {
		return maphash.String(pyKeySeed, id.s)
	}
	h := (id.bits ^ uint64(id.kind)<<56) * 0x9e3779b97f4a7c15
	return h ^ h>>29
}

// lookup is the position of the entry whose key is id (hash h) in an indexed dict, or -1.
func (d *pyDict) lookup(id pyKey, h uint64) int {
	mask := uint64(len(d.index) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		j := d.index[i]
		if j == 0 {
			return -1
		}
		if pyKeyOf(d.ents[j-1].k) == id {
			return int(j - 1)
		}
	}
}

// reindex rebuilds the index from the entries (none for a small dict).
func (d *pyDict) reindex() {
	d.index = nil
	if len(d.ents) < pyDictIndexed {
		return
	}
	n := 32
	for n < 2*len(d.ents) {
		n *= 2
	}
	d.index = make([]int32, n)
	for j := range d.ents {
		d.addIndex(d.ents[j].k, j)
	}
}

// addIndex records that key k is entry j (in an indexed dict): a later entry with the same
// key replaces an earlier one's place, as the map this index replaced did.
func (d *pyDict) addIndex(k *pyVal, j int) {
	if 2*(len(d.ents)) > len(d.index) {
		d.reindex() // the table grows (and takes every entry, j too)
		return
	}
	id := pyKeyOf(k)
	mask := uint64(len(d.index) - 1)
	for i := pyKeyHash(id) & mask; ; i = (i + 1) & mask {
		x := d.index[i]
		if x == 0 || pyKeyOf(d.ents[x-1].k) == id {
			d.index[i] = int32(j + 1)
			return
		}
	}
}

func (d *pyDict) get(k *pyVal) (*pyVal, bool) {
	if !hashable(k) {
		return nil, false
	}
	if i := d.find(k); i >= 0 {
		return d.ents[i].v, true
	}
	return nil, false
}

// getStr looks a string key up without making a value for it.
func (d *pyDict) getStr(name string) (*pyVal, bool) {
	if i := d.strAt(name); i >= 0 {
		return d.ents[i].v, true
	}
	return nil, false
}

// strAt is the position of string key name's entry, or -1.
func (d *pyDict) strAt(name string) int {
	if d.index != nil {
		id := pyKey{kind: 's', s: name}
		return d.lookup(id, pyKeyHash(id))
	}
	for i := range d.ents {
		if x := d.ents[i].k; x.k == pvStr && x.s == name {
			return i
		}
	}
	return -1
}

// set sets key k to v (ks..ke: the key's span) and returns the value it replaced (nil for a
// new key).
func (d *pyDict) set(k, v *pyVal, ks, ke int) (old *pyVal) {
	if !hashable(k) {
		return nil
	}
	if i := d.find(k); i >= 0 {
		old = d.ents[i].v
		if r := refOf(old); r != nil {
			// A ConfigDict sets the reference its field holds, and every field holding it shows
			// the value: not followed, so it is unknown (a plain dict replaces the entry, but
			// this reader does not tell the two apart).
			r.bad = true
			d.ents[i].ks, d.ents[i].ke = ks, ke
			return old
		}
		d.ents[i].v = v
		d.ents[i].ks, d.ents[i].ke = ks, ke
		return old
	}
	if n := len(d.ents); n == cap(d.ents) && d.arena != nil && 2*n <= 256 {
		d.ents = append(d.arena.entries(2*n), d.ents...)
	}
	d.ents = append(d.ents, pyEnt{k: k, v: v, ks: ks, ke: ke})
	if d.index != nil {
		d.addIndex(k, len(d.ents)-1)
	} else if len(d.ents) >= pyDictIndexed {
		d.reindex()
	}
	return nil
}

func (d *pyDict) del(k *pyVal) {
	if !hashable(k) {
		return
	}
	i := d.find(k)
	if i < 0 {
		return
	}
	d.ents = append(d.ents[:i], d.ents[i+1:]...)
	d.reindex()
}

// copyDict is a shallow copy of d (room for one more entry, the usual next step).
func (ev *pyEval) copyDict(d *pyDict) *pyDict { return ev.dictOf(d.ents, d.partial) }

// dictOf is a new dict of ents, in their order (room for one more entry).
func (ev *pyEval) dictOf(ents []pyEnt, partial bool) *pyDict {
	c := ev.newDict(len(ents) + 1)
	c.ents = append(c.ents, ents...)
	c.partial = partial
	c.reindex()
	return c
}

// entKeys lists the keys of ents in order (a fresh slice).
func entKeys(ents []pyEnt) []*pyVal {
	out := make([]*pyVal, len(ents))
	for i := range ents {
		out[i] = ents[i].k
	}
	return out
}

func strVal(s string, a, b int) *pyVal    { return &pyVal{k: pvStr, s: s, s0: a, e0: b} }
func intVal(i int64, a, b int) *pyVal     { return &pyVal{k: pvInt, i: i, s0: a, e0: b} }
func boolVal(v bool, a, b int) *pyVal     { return &pyVal{k: pvBool, b: v, s0: a, e0: b} }
func floatVal(f float64, a, b int) *pyVal { return &pyVal{k: pvFloat, f: f, s0: a, e0: b} }
func noneVal(a, b int) *pyVal             { return &pyVal{k: pvNone, s0: a, e0: b} }

// val returns a copy of v from the evaluator's arena (the heap without one); the constructors
// below are the free ones through it. Values never outlive parsePython: the tree copies them.
func (ev *pyEval) val(v pyVal) *pyVal {
	var p *pyVal
	if ev.arena == nil {
		p = new(pyVal)
	} else {
		p = ev.arena.val()
	}
	*p = v
	return p
}

// valX is a function's scope or a bound method's receiver, from the arena when there is one.
func (ev *pyEval) valX(env *pyEnv, recv *pyVal) *pyValX {
	if ev.arena == nil {
		return &pyValX{env: env, recv: recv}
	}
	x := ev.arena.valxs.one()
	*x = pyValX{env: env, recv: recv}
	return x
}

// scalar is val for a value with no list, dict, function or extension (a string, number,
// bool, None or opaque value). With an arena it comes from blocks that hold nothing but such
// values, whose list, dict, fn and x are therefore always nil (values are never changed once
// made), and is written field by field: one pointer (s) for the write barrier to record
// instead of a copy of the whole value (TestPyLeavesStayLeaves).
func (ev *pyEval) scalar(k pvKind, b bool, i int64, f float64, s string, s0, e0 int) *pyVal {
	if ev.arena == nil {
		return ev.val(pyVal{k: k, b: b, i: i, f: f, s: s, s0: s0, e0: e0})
	}
	p := ev.arena.scalars.one()
	p.k, p.b, p.i, p.f, p.s0, p.e0 = k, b, i, f, s0, e0
	p.s = s
	return p
}

func (ev *pyEval) strVal(s string, a, b int) *pyVal {
	if len(s) >= 64 {
		ev.work(len(s) >> 4) // a string made is bytes written
	}
	return ev.scalar(pvStr, false, 0, 0, s, a, b)
}

func (ev *pyEval) intVal(i int64, a, b int) *pyVal { return ev.scalar(pvInt, false, i, 0, "", a, b) }
func (ev *pyEval) boolVal(v bool, a, b int) *pyVal { return ev.scalar(pvBool, v, 0, 0, "", a, b) }
func (ev *pyEval) floatVal(f float64, a, b int) *pyVal {
	return ev.scalar(pvFloat, false, 0, f, "", a, b)
}
func (ev *pyEval) noneVal(a, b int) *pyVal { return ev.scalar(pvNone, false, 0, 0, "", a, b) }

// truth returns a value's truth and whether it is known.
func truth(v *pyVal) (bool, bool) {
	switch v.k {
	case pvNone:
		return false, true
	case pvBool:
		return v.b, true
	case pvInt:
		return v.i != 0, true
	case pvFloat:
		return v.f != 0, true
	case pvStr:
		return v.s != "", true
	case pvList, pvTuple:
		if v.list.like == likeIter {
			return true, true // an object: true, however many items are left
		}
		return len(v.list.items) > 0, v.list.like != likePartial
	case pvDict:
		return len(v.dict.ents) > 0, !v.dict.partial
	case pvFunc, pvModule, pvBuiltin:
		return true, true
	}
	return false, false
}

type pyFlow uint8

const (
	flowNext pyFlow = iota
	flowReturn
	flowBreak
	flowContinue
)

// exec runs statements in env; ret receives a return value.
func (ev *pyEval) exec(stmts pyIds, env *pyEnv, ret **pyVal) pyFlow {
	a := ev.arena
	ids := a.ids(stmts)
	for i, sid := range ids {
		st := a.st(sid)
		ev.step()
		if stmts == ev.module {
			ev.top = len(ev.src) // the statement is done where the next one starts
			if i+1 < len(ids) {
				ev.top = a.st(ids[i+1]).s
			}
		}
		switch st.kind {
		case sExpr:
			ev.eval(a.ex(st.value), env)
		case sAssign:
			if !ev.noBase && isBaseLine(a, st, ev.tx) {
				// MMEngine takes the base files from the first such statement at the top level
				// and removes every one of them before the file runs (pybase.go): only that first
				// binds _base_ here (to the files, which composition reads), and only _base_.
				if stmts == ev.module && !ev.baseLine {
					ev.baseLine = true
					env.set("_base_", ev.eval(a.ex(st.value), env))
				}
				continue
			}
			x := a.ex(st.value)
			v := ev.eval(x, env)
			ts := a.ids(st.targets)
			if len(ts) == 1 && ev.fresh(x, v) {
				ev.assignFresh(a.ex(ts[0]), v, env, true)
				continue
			}
			for _, t := range ts {
				ev.assign(a.ex(t), v, env)
			}
		case sAnn:
		case sAug:
			t := a.ex(a.ids(st.targets)[0])
			cur := ev.eval(t, env)
			val := a.ex(st.value)
			op := a.more(st).op
			v := ev.binop(op, cur, ev.eval(val, env), &pyExpr{s: st.s, e: val.e})
			if ev.augBase(t, cur, v, op, env, st) {
				continue
			}
			// list += x and *= n, dict |= x and a set's |=, &=, -= and ^= change the object in
			// place (every name and field that holds it sees the change) and bind it again.
			switch {
			case inPlaceOp(cur, op):
				switch {
				case v.k == pvList && cur.k == pvList:
					cur.list.items = v.list.items
				case v.k == pvDict && cur.k == pvDict:
					cur.dict.ents, cur.dict.partial = v.dict.ents, v.dict.partial
					cur.dict.reindex()
				default:
					ev.spoil(cur, val, map[any]bool{})
				}
				continue
			case cur.k == pvList && cur.list.like == likeSet && (op == "|" || op == "&" || op == "-" || op == "^"):
				ev.spoil(cur, val, map[any]bool{})
				continue
			}
			ev.assign(t, v, env)
		case sDef:
			fn := a.more(st).fn
			env.set(fn.name, ev.val(pyVal{k: pvFunc, fn: fn, x: ev.valX(env, nil), s0: st.s, e0: st.e}))
		case sIf:
			c := ev.baseVal(ev.eval(a.ex(st.value), env))
			if b, ok := truth(c); ok {
				body := st.orelse
				if b {
					body = st.body
				}
				if f := ev.exec(body, env, ret); f != flowNext {
					return f
				}
			} else {
				ev.taint(st.body, env)
				ev.taint(st.orelse, env)
			}
		case sFor:
			it := ev.eval(a.ex(st.value), env)
			items, ok := ev.iterate(it)
			if !ok {
				// The loop may run: its variable stays bound after it (unless nothing was
				// iterated), and what its body assigns is unknown.
				ev.assignMaybe(a.ex(a.ids(st.targets)[0]), ev.baseHeld(a.ex(st.value), env), env, st)
				ev.taint(st.body, env)
				ev.taint(st.orelse, env)
				continue
			}
			broke := false
			target := a.ex(a.ids(st.targets)[0])
			for _, x := range items {
				ev.assign(target, x, env)
				f := ev.exec(st.body, env, ret)
				if f == flowReturn {
					return f
				}
				if f == flowBreak {
					broke = true
					break
				}
			}
			if !broke {
				if f := ev.exec(st.orelse, env, ret); f != flowNext {
					return f
				}
			}
		case sWhile:
			// Loops whose end depends on state are not evaluated: what they assign is unknown,
			// and so is what the calls of their test may change.
			ev.mayRunCalls(a.ex(st.value), env)
			ev.taint(st.body, env)
			ev.taint(st.orelse, env)
		case sWith:
			readBase := 0
			for _, id := range a.ids(st.targets) {
				item := a.ex(id)
				ev.eval(item, env)
				if item.op == xCall && item.kids.n > 0 && a.kid(item, 0).op == xName && ev.nm(a.kid(item, 0)) == "read_base" {
					readBase = 1
				}
			}
			ev.inReadBase += readBase
			f := ev.exec(st.body, env, ret)
			ev.inReadBase -= readBase
			if f != flowNext {
				return f
			}
		case sTry:
			ev.inTry++
			f := ev.exec(st.body, env, ret)
			ev.inTry--
			if f != flowNext {
				return f
			}
			if f := ev.exec(st.orelse, env, ret); f != flowNext {
				return f
			}
			for _, h := range a.more(st).extra {
				ev.taint(h, env)
			}
		case sImport:
			x := a.more(st)
			for i, mod := range x.names {
				name := x.alias[i]
				if name == "" {
					name, _, _ = strings.Cut(mod, ".")
					env.set(name, ev.val(pyVal{k: pvModule, s: name, s0: st.s, e0: st.e}))
				} else {
					env.set(name, ev.val(pyVal{k: pvModule, s: mod, s0: st.s, e0: st.e}))
				}
				if env.parent == nil {
					*ev.refs = append(*ev.refs, FileRef{Kind: "import", Target: mod, Span: ev.lines.Span(st.s, st.e)})
				}
			}
		case sFrom:
			x := a.more(st)
			for i, n := range x.names {
				if n == "*" {
					kind := "import"
					if ev.inReadBase > 0 {
						kind = "base"
					}
					*ev.refs = append(*ev.refs, FileRef{Kind: kind, Target: x.mod, Span: ev.lines.Span(st.s, st.e)})
					continue
				}
				name := x.alias[i]
				if name == "" {
					name = n
				}
				sub := ev.concat(x.mod, n) // from .. import n: "..n"
				if strings.Trim(x.mod, ".") != "" {
					sub = ev.concat(ev.concat(x.mod, "."), n)
				}
				env.set(name, ev.val(pyVal{k: pvModule, s: sub, s0: st.s, e0: st.e}))
			}
			if ev.lazy && ev.inReadBase > 0 && env.parent == nil {
				ev.lazyImport(x.mod, x.names, x.alias, env, st.s, st.e)
			}
			if env.parent == nil && !containsStar(x.names) {
				kind := "import"
				if ev.inReadBase > 0 {
					kind = "base"
				}
				*ev.refs = append(*ev.refs, FileRef{Kind: kind, Target: x.mod, Span: ev.lines.Span(st.s, st.e)})
			}
		case sReturn:
			ev.retD = nil
			if st.value != 0 {
				x := a.ex(st.value)
				*ret = ev.eval(x, env)
				if ev.fresh(x, *ret) {
					ev.retD = (*ret).dict
				}
			} else {
				*ret = ev.noneVal(st.s, st.s)
			}
			return flowReturn
		case sBreak:
			return flowBreak
		case sContinue:
			return flowContinue
		case sDel:
			ev.del(a.ex(st.value), env, st, false)
		}
	}
	return flowNext
}

// del runs `del target, ...`: a name becomes unknown (Python unbinds it; the tree shows it as
// unknown rather than gone), an entry of a dict is removed (d['k']; d.k leaves it unknown:
// a ConfigDict deletes the entry, a plain dict raises), an item of a list is removed; a key or index this reader does not know leaves the dict
// partial or the list's items unknown; a part of MMEngine's bases is an edit (baseDel). maybe:
// the statement is in a block that may or may not run (taint), so whatever it would delete is
// unknown.
func (ev *pyEval) del(t *pyExpr, env *pyEnv, st *pyStmt, maybe bool) {
	switch t.op {
	case xTuple, xList:
		for _, k := range ev.kids(t) {
			ev.del(ev.ex(k), env, st, maybe)
		}
		return
	case xName:
		env.set(ev.nm(t), ev.val(pyVal{k: pvOpaque, s0: st.s, e0: st.e}))
		return
	case xAttr, xIndex:
		if x := ev.kid(t, 0); maybe && x.op != xName && x.op != xAttr && x.op != xIndex {
			break // not evaluated where it may not run (a call)
		}
		obj := ev.eval(ev.kid(t, 0), env)
		switch obj.k {
		case pvDict:
			if t.op == xAttr && obj.dict.mlc() && !maybe && !obj.dict.partial {
				// del config.k: ml_collections' ConfigDict.__delattr__ deletes the field
				// (del self[attribute], config_dict.py at v0.1.1 and 5f7343a), as del
				// config['k'] does (magvit's vqgan3d_ucf101_config.py).
				obj.dict.del(ev.strVal(ev.nm(t), t.s, t.e))
				return
			}
			if t.op == xAttr || ev.kid(t, 1).op == xSlice {
				// del d.k: AttributeError on a plain dict, and an MMEngine ConfigDict's (an
				// addict Dict) is not read here; del d[a:b] raises.
				obj.dict.partial = true
				return
			}
			key := ev.eval(ev.kid(t, 1), env)
			if hashable(key) && !maybe {
				obj.dict.del(key)
			} else {
				obj.dict.partial = true
			}
			return
		case pvList:
			if t.op == xIndex && ev.kid(t, 1).op != xSlice && !maybe {
				if key := ev.eval(ev.kid(t, 1), env); key.k == pvInt {
					if i, ok := pyIndex(key.i, len(obj.list.items)); ok {
						obj.list.items = append(obj.list.items[:i:i], obj.list.items[i+1:]...)
					}
					return
				}
			}
			ev.unknownItems(obj.list, t)
			return
		}
	}
	ev.baseDel(t, env, st, maybe)
}

// unknownItems makes every item of l unknown, spanned at e (a change to some of them that
// this reader cannot place).
func (ev *pyEval) unknownItems(l *pyList, e *pyExpr) {
	for i := range l.items {
		l.items[i] = ev.opaque(e)
	}
}

func containsStar(names []string) bool {
	for _, n := range names {
		if n == "*" {
			return true
		}
	}
	return false
}

// mainTest answers `__name__ == "__main__"` (or !=, either way round) when the file does not
// bind __name__: a config is never run as the main module. MMEngine executes an old-style
// config with globals that hold only _base_ (mmengine v0.10.7 config.py _file2dict: eval(codeobj,
// {"_base_": ...}), so __name__ is the builtins module's, "builtins"), imports a new-style one,
// and ml_collections' config_flags import the file as a module; gin has no such test. So the
// block under `if __name__ == "__main__":` never runs when the framework reads the config.
func (ev *pyEval) mainTest(e *pyExpr, env *pyEnv) (result, ok bool) {
	ops := ev.arena.ext(e).ops
	if len(ops) != 1 || ops[0] != "==" && ops[0] != "!=" || e.kids.n != 2 {
		return false, false
	}
	for i := range 2 {
		if k := ev.kid(e, i); k.op != xName || ev.nm(k) != "__name__" {
			continue
		}
		if _, bound := env.get("__name__"); bound {
			return false, false
		}
		if o := ev.kid(e, 1-i); o.op != xStr {
			return false, false
		} else if v := ev.eval(o, env); v.k == pvStr && v.s == "__main__" {
			return ops[0] == "!=", true
		}
		return false, false
	}
	return false, false
}

// taint makes what a skipped block would assign unknown: names and the keys of dicts it sets.
func (ev *pyEval) taint(stmts pyIds, env *pyEnv) {
	a := ev.arena
	for _, sid := range a.ids(stmts) {
		st := a.st(sid)
		ev.step()
		switch st.kind {
		case sAssign, sAug:
			if !ev.noBase && isBaseLine(a, st, ev.tx) {
				continue // MMEngine removes it before the file runs (exec)
			}
			ev.mayRunCalls(a.ex(st.value), env) // `y = add(c)` may change c
			held := ""
			if st.kind == sAssign {
				held = ev.baseHeld(a.ex(st.value), env)
			}
			for _, t := range a.ids(st.targets) {
				tx := a.ex(t)
				if st.kind == sAug && tx.op == xName {
					// x += y may change in place the part of the bases x is (a name is read
					// without running anything; another target is not read at all here).
					if p, _, rooted := basePathOf(ev.eval(tx, env)); rooted {
						ev.editInPlace(p, ev.val(pyVal{k: pvOpaque, s0: st.s, e0: st.e}), st.s, st.e, tx.s, tx.e)
						held = ev.baseHeld(tx, env)
					}
				}
				ev.assignMaybe(tx, held, env, st)
			}
		case sIf, sFor, sWhile, sWith, sTry:
			if st.value != 0 {
				ev.mayRunCalls(a.ex(st.value), env) // the test or the iterable
			}
			if st.kind == sFor {
				ev.assignMaybe(a.ex(a.ids(st.targets)[0]), ev.baseHeld(a.ex(st.value), env), env, st)
			}
			ev.taint(st.body, env)
			ev.taint(st.orelse, env)
			for _, h := range a.more(st).extra {
				ev.taint(h, env)
			}
		case sDef:
			env.set(a.more(st).fn.name, ev.val(pyVal{k: pvOpaque, s0: st.s, e0: st.e}))
		case sDel:
			ev.del(a.ex(st.value), env, st, true) // it may run: what it deletes is unknown
		case sExpr:
			x := a.ex(st.value)
			if x.op == xCall {
				ev.baseCall(x, env, nil) // a method that may change a part of _base_
			}
			ev.mayRunCalls(x, env)
		case sReturn:
			if st.value != 0 {
				ev.mayRunCalls(a.ex(st.value), env)
			}
		}
	}
}

// mayRunCalls is mayRunCall for every call in x, however deep (`print(add(c))`, `y =
// dict(a=add(c))`): the operands, items and arguments of the expressions it is made of.
// Comprehensions, lambdas and f-string fields are not searched.
func (ev *pyEval) mayRunCalls(x *pyExpr, env *pyEnv) {
	ev.step()
	if x.op == xCall {
		ev.mayRunCall(x, env)
		for _, kw := range ev.arena.kwsOf(x) {
			if kw.val != 0 {
				ev.mayRunCalls(ev.ex(kw.val), env)
			}
		}
	}
	for _, id := range ev.kids(x) {
		if id != 0 {
			ev.mayRunCalls(ev.ex(id), env)
		}
	}
}

func (ev *pyEval) assignOpaque(t *pyExpr, env *pyEnv, st *pyStmt) {
	switch t.op {
	case xTuple, xList:
		for _, k := range ev.kids(t) {
			ev.assignOpaque(ev.ex(k), env, st)
		}
		return
	case xStar:
		ev.assignOpaque(ev.kid(t, 0), env, st)
		return
	}
	end := t.e
	if st.value != 0 {
		end = ev.ex(st.value).e
	}
	ev.assign(t, ev.val(pyVal{k: pvOpaque, s0: st.s, e0: end}), env)
}

// augBase is `t op= ...` (value v) when t holds a part of the bases (cur) and the assignment
// does not name that part itself (a name or a plain dict's entry that holds it): a list's +=
// and *= and a dict's |= change that part in place, an edit of the bases with t still holding
// it; a value whose type is not known may be changed in place, so the part becomes unknown and
// t holds it, not known where. It reports whether it did the assignment.
func (ev *pyEval) augBase(t *pyExpr, cur, v *pyVal, op string, env *pyEnv, st *pyStmt) bool {
	p, exact, rooted := basePathOf(cur)
	if !rooted {
		return false
	}
	if t.op != xName {
		if _, _, named := ev.basePath(t, env); named {
			return false // `_base_.l += [3]`: the assignment is the edit (baseAssign)
		}
	}
	x := ev.baseVal(cur)
	inPlace := inPlaceOp(x, op)
	switch {
	case inPlace && exact && v.k == x.k:
		ev.editInPlace(p, v, st.s, st.e, t.s, t.e)
		return true
	case inPlace || x.k == pvOpaque || x.k == pvList && x.list.like != likeList:
		ev.editInPlace(p, ev.val(pyVal{k: pvOpaque, s0: st.s, e0: st.e}), st.s, st.e, t.s, t.e)
		ev.assign(t, ev.val(pyVal{k: pvOpaque, s: heldSomewhere(p), s0: st.s, e0: st.e}), env)
		return true
	}
	return false
}

// inPlaceOp reports whether `x op= y` changes x in place: a list's += and *=, a dict's |=.
func inPlaceOp(x *pyVal, op string) bool {
	return x.k == pvList && x.list.like == likeList && (op == "+" || op == "*") || x.k == pvDict && op == "|"
}

// heldSomewhere names the value inside the part p of the bases, not known where
// ("_base_.p.[?]"; a change through it makes p unknown).
func heldSomewhere(p string) string { return "_base_." + joinBasePath(p, "[?]") }

// assignMaybe is assignOpaque for an assignment that may run, whose value may be or be inside
// the part of the bases held ("_base_.p.[?]", from baseHeld; "" for none): a name is bound to
// that part, not known where (so an edit through it makes the part unknown).
func (ev *pyEval) assignMaybe(t *pyExpr, held string, env *pyEnv, st *pyStmt) {
	if held == "" || t.op != xName {
		ev.assignOpaque(t, env, st)
		return
	}
	ev.assign(t, ev.val(pyVal{k: pvOpaque, s: held, s0: st.s, e0: st.e}), env)
}

// baseHeld is the part of the bases, not known where ("_base_.p.[?]"), that the value of x may
// be or be inside: x an attribute, item or method-call chain (or a name) whose first name
// holds the part p of the bases. "" when it holds none, or the file follows no bases. Only
// names are read: nothing runs.
func (ev *pyEval) baseHeld(x *pyExpr, env *pyEnv) string {
	if !ev.followsBases() {
		return ""
	}
	for x.op == xAttr || x.op == xIndex || x.op == xCall {
		x = ev.kid(x, 0)
	}
	if x.op != xName {
		return ""
	}
	p, _, rooted := basePathOf(ev.eval(x, env))
	if !rooted {
		return ""
	}
	return heldSomewhere(p)
}

func (ev *pyEval) assign(t *pyExpr, v *pyVal, env *pyEnv) {
	ev.assignFresh(t, v, env, false)
}

// assignFresh is assign; with fresh, v is a dict nothing else holds (pyEval.fresh), which a
// ConfigDict field converts in place.
func (ev *pyEval) assignFresh(t *pyExpr, v *pyVal, env *pyEnv, fresh bool) {
	switch t.op {
	case xName:
		if !ev.noBase && ev.nm(t) == "_base_" {
			return // _base_ stays the bases while the file runs (a later binding of it is no base line)
		}
		env.set(ev.nm(t), v)
	case xAttr:
		obj := ev.eval(ev.kid(t, 0), env)
		if obj.k == pvDict {
			key := ev.cv(t)
			if key == nil {
				key = ev.setCV(t, ev.strVal(ev.nm(t), 0, 0)) // the key, made once per target (values are never changed)
			}
			ev.refsOff(obj.dict.set(key, ev.cfgStore(obj.dict, key, v, fresh), t.e-int(t.nm.n), t.e)) // the field's unknown value may be a FieldReference
		} else {
			ev.baseAssign(t, v, env)
		}
	case xIndex:
		obj := ev.eval(ev.kid(t, 0), env)
		kx := ev.kid(t, 1)
		key := ev.eval(kx, env)
		switch obj.k {
		case pvDict:
			if !hashable(key) {
				obj.dict.partial = true // d[unknown] = v: which entry changed is not known
				return
			}
			ev.refsOff(obj.dict.set(key, ev.cfgStore(obj.dict, key, v, fresh), kx.s, kx.e))
		case pvList:
			if key.k == pvInt {
				if i, ok := pyIndex(key.i, len(obj.list.items)); ok {
					obj.list.items[i] = v
				}
			} else {
				ev.unknownItems(obj.list, t) // l[unknown] = v or a slice: which items changed is not known
			}
		default:
			ev.baseAssign(t, v, env)
		}
	case xTuple, xList:
		items, ok := ev.iterate(v)
		star := -1
		kids := ev.kids(t)
		for i, k := range kids {
			if ev.ex(k).op == xStar {
				star = i
			}
		}
		if !ok || star < 0 && len(items) != len(kids) || star >= 0 && len(items) < len(kids)-1 {
			for _, id := range kids {
				k := ev.ex(id)
				if k.op == xStar {
					k = ev.kid(k, 0)
				}
				ev.assign(k, ev.val(pyVal{k: pvOpaque, s0: v.s0, e0: v.e0}), env)
			}
			return
		}
		if star < 0 {
			for i, k := range kids {
				ev.assign(ev.ex(k), items[i], env)
			}
			return
		}
		rest := len(items) - (len(kids) - 1)
		for i := 0; i < star; i++ {
			ev.assign(ev.ex(kids[i]), items[i], env)
		}
		ev.assign(ev.kid(ev.ex(kids[star]), 0), ev.val(pyVal{k: pvList, list: &pyList{items: append([]*pyVal(nil), items[star:star+rest]...)}, s0: v.s0, e0: v.e0}), env)
		for i := star + 1; i < len(kids); i++ {
			ev.assign(ev.ex(kids[i]), items[rest+i-1], env)
		}
	case xStar:
		ev.assign(ev.kid(t, 0), v, env)
	}
}

// pyIndex is the position Python's index i names in a sequence of n items (a negative one
// counts from the end); ok is false when it is out of range (IndexError).
func pyIndex(i int64, n int) (int, bool) {
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) {
		return 0, false
	}
	return int(i), true
}

// iterate lists what a for loop would see; ok is false when it is not known.
func (ev *pyEval) iterate(v *pyVal) ([]*pyVal, bool) {
	if v.k == pvOpaque && v.s != "" {
		v = ev.baseVal(v) // a part of the bases: their items (`[*_base_.pre_transform]`)
	}
	ev.work(pySize(v))
	switch v.k {
	case pvList, pvTuple:
		if v.list.like == likePartial || v.list.like == likeSet {
			return nil, false
		}
		if v.list.like == likeIter {
			items := v.list.items
			v.list.items = nil // exhausted
			return items, true
		}
		if len(v.list.items) == 0 {
			return nil, true
		}
		return append(ev.ptrs(len(v.list.items)), v.list.items...), true
	case pvDict:
		if v.dict.partial {
			return nil, false
		}
		ents, ok := v.dict.orderIn()
		if !ok {
			return nil, false
		}
		return entKeys(ents), true
	case pvStr:
		if len(v.s) > 10000 {
			return nil, false
		}
		var out []*pyVal
		for _, r := range v.s {
			out = append(out, ev.strVal(string(r), v.s0, v.e0))
		}
		ev.grow(len(out))
		return out, true
	}
	return nil, false
}

func (ev *pyEval) eval(e *pyExpr, env *pyEnv) *pyVal {
	ev.step()
	switch e.op {
	case xConst:
		if v := ev.cv(e); v != nil {
			return v
		}
		switch ev.nm(e) {
		case "True":
			return ev.setCV(e, ev.boolVal(true, e.s, e.e))
		case "False":
			return ev.setCV(e, ev.boolVal(false, e.s, e.e))
		}
		return ev.setCV(e, ev.noneVal(e.s, e.e))
	case xNum:
		if v := ev.cv(e); v != nil {
			return v
		}
		return ev.setCV(e, ev.number(e))
	case xStr:
		if v := ev.cv(e); v != nil {
			return v
		}
		if ev.predef != nil {
			if v := ev.predefStr(e); v != nil {
				return v
			}
		}
		toks := ev.etoks(e)
		if len(toks) == 1 {
			if toks[0].is(pfxBytes) {
				return ev.opaque(e)
			}
			return ev.setCV(e, ev.strVal(ev.tx.at(&toks[0]), e.s, e.e))
		}
		// Adjacent literals ('a' 'b'): their texts joined in the str.format buffer, copied
		// once into the block of computed strings.
		b := ev.obuf[:0]
		for i := range toks {
			t := &toks[i]
			if t.is(pfxBytes) {
				return ev.opaque(e)
			}
			b = append(b, ev.tx.at(t)...)
		}
		if cap(b) <= 1<<16 {
			ev.obuf = b[:0]
		}
		ev.grow(len(b) / 64)
		return ev.strVal(ev.newStr(b), e.s, e.e)
	case xFstr:
		return ev.fstring(e, env)
	case xName:
		name := ev.nm(e)
		if !ev.noBase && name == "_base_" {
			// MMEngine runs the file with _base_ bound to the bases' dict, not the list of
			// paths the file assigns (pybase.go): `_base_` is an unknown value that remembers
			// it is the bases, so `b = _base_` then `b.x = 1` is an edit of them.
			return ev.basePart(e, "_base_")
		}
		if v, ok := env.get(name); ok {
			if v.k == pvOpaque && v.s != "" {
				// A part of the bases, read here: where it is read decides which edits it
				// follows (composition's staleBaseRead), not where the name was bound. The
				// object is the one the name took (its edit count).
				return ev.basePartIn(v, e, v.s)
			}
			return v
		}
		if v := ev.cv(e); v != nil {
			return v // the builtin this name fell back to before (values are never changed)
		}
		if b := pyBuiltin(name); b {
			return ev.setCV(e, ev.val(pyVal{k: pvBuiltin, s: name, s0: e.s, e0: e.e}))
		}
		return ev.opaque(e)
	case xList, xTuple, xSet:
		if e.op == xSet && ev.baseVarSet(e) {
			in := ev.kid(e, 0)
			x := ev.val(pyVal{k: pvList, list: ev.list([]*pyVal{ev.eval(ev.kid(in, 0), env)}), s0: in.s, e0: in.e})
			return ev.val(pyVal{k: pvList, list: ev.list([]*pyVal{x}), s0: e.s, e0: e.e})
		}
		var items []*pyVal
		if int(e.kids.n) > 0 {
			items = ev.ptrs(int(e.kids.n)) // a starred item past this room moves it to the heap
		}
		for _, id := range ev.kids(e) {
			k := ev.ex(id)
			if k.op == xStar {
				x := ev.eval(ev.kid(k, 0), env)
				xs, ok := ev.iterate(x)
				if !ok {
					return ev.opaque(e)
				}
				items = append(items, xs...)
				continue
			}
			items = append(items, ev.eval(k, env))
		}
		ev.grow(len(items))
		if e.op == xSet {
			return ev.setOf(items, e)
		}
		kind := pvList
		if e.op == xTuple {
			kind = pvTuple
		}
		return ev.val(pyVal{k: kind, list: ev.list(items), s0: e.s, e0: e.e})
	case xDict:
		d := ev.newDict(int(e.kids.n) / 2)
		kids := ev.kids(e)
		for i := 0; i+1 < len(kids); i += 2 {
			if kids[i] == 0 {
				x := ev.eval(ev.ex(kids[i+1]), env)
				if x.k != pvDict {
					return ev.opaque(e)
				}
				ents, ok := x.dict.orderIn() // a ConfigDict unpacks in its keys() order
				if !ok {
					return ev.opaque(e)
				}
				for _, en := range ents {
					d.disown(en.k)
					d.set(en.k, en.v, en.ks, en.ke)
				}
				d.partial = d.partial || x.dict.partial
				continue
			}
			k := ev.ex(kids[i])
			kv := ev.eval(k, env)
			if !hashable(kv) {
				return ev.opaque(e)
			}
			x := ev.ex(kids[i+1])
			v := ev.eval(x, env)
			fresh := ev.fresh(x, v)
			d.disown(kv)
			d.set(kv, v, k.s, k.e)
			if fresh {
				if j := d.find(kv); j >= 0 && j < 64 {
					d.own |= 1 << j
				}
			}
		}
		ev.grow(len(d.ents))
		ev.newD, ev.newE = d, e
		return ev.val(pyVal{k: pvDict, dict: d, s0: e.s, e0: e.e})
	case xAttr:
		obj := ev.eval(ev.kid(e, 0), env)
		switch obj.k {
		case pvDict:
			name, ents := ev.nm(e), obj.dict.ents
			if obj.dict.partial && !pyDictMethods[name] {
				return ev.opaque(e) // an entry of a dict changed in ways not followed (partial)
			}
			// An attribute is a ConfigDict's field: one holding a FieldReference reads its value.
			if i := int(e.at) - 1; i >= 0 && i < len(ents) && ents[i].k.k == pvStr && ents[i].k.s == name {
				return ev.fieldVal(ents[i].v, e) // where the name was last time (pyExpr.at)
			}
			if i := obj.dict.strAt(name); i >= 0 {
				e.at = int32(i + 1)
				return ev.fieldVal(obj.dict.ents[i].v, e)
			}
			if pyDictMethods[ev.nm(e)] {
				// A bound method keeps its bare name: builtin sends a value with a receiver to
				// method, so it never meets a builtin's name (no "dict."+name string per access).
				return ev.val(pyVal{k: pvBuiltin, s: ev.nm(e), x: ev.valX(nil, obj), s0: e.s, e0: e.e})
			}
			return ev.opaque(e)
		case pvModule:
			return ev.val(pyVal{k: pvModule, s: ev.concat(ev.concat(obj.s, "."), ev.nm(e)), s0: e.s, e0: e.e})
		case pvOpaque:
			if obj.s != "" {
				return ev.basePartIn(obj, e, ev.concat(ev.concat(obj.s, "."), ev.nm(e)))
			}
			if r := refOf(obj); r != nil {
				r.bad = true // ref.set(3) and the like: not followed
			}
		case pvStr, pvList:
			return ev.val(pyVal{k: pvBuiltin, s: ev.nm(e), x: ev.valX(nil, obj), s0: e.s, e0: e.e})
		}
		return ev.opaque(e)
	case xIndex:
		obj := ev.eval(ev.kid(e, 0), env)
		if ev.kid(e, 1).op == xSlice {
			return ev.slice(ev.baseVal(obj), ev.kid(e, 1), env, e)
		}
		key := ev.eval(ev.kid(e, 1), env)
		switch obj.k {
		case pvOpaque:
			if obj.s != "" {
				return ev.basePartIn(obj, e, baseItem(ev, obj.s, key))
			}
		case pvDict:
			if obj.dict.partial {
				return ev.opaque(e)
			}
			if v, ok := obj.dict.get(key); ok {
				return v
			}
		case pvList, pvTuple:
			if key.k == pvInt && (obj.list.like == likeList || obj.list.like == likeRange) {
				if i, ok := pyIndex(key.i, len(obj.list.items)); ok {
					return obj.list.items[i]
				}
			}
		case pvStr:
			if key.k == pvInt {
				if i, ok := pyIndex(key.i, len(obj.s)); ok && isASCIIString(obj.s) {
					return ev.strVal(obj.s[i:i+1], e.s, e.e)
				}
			}
		}
		return ev.opaque(e)
	case xBin:
		return ev.binop(ev.nm(e), ev.eval(ev.kid(e, 0), env), ev.eval(ev.kid(e, 1), env), e)
	case xUnary:
		x := ev.baseVal(ev.eval(ev.kid(e, 0), env))
		switch {
		case ev.nm(e) == "-" && x.k == pvInt && x.i != math.MinInt64:
			return ev.intVal(-x.i, e.s, e.e)
		case ev.nm(e) == "-" && x.k == pvFloat:
			return ev.floatVal(-x.f, e.s, e.e)
		case ev.nm(e) == "+" && (x.k == pvInt || x.k == pvFloat):
			y := *x
			y.s0, y.e0 = e.s, e.e
			return &y
		case ev.nm(e) == "~" && x.k == pvInt:
			return ev.intVal(^x.i, e.s, e.e)
		case ev.nm(e) == "-" && x.k == pvOpaque:
			if v := ev.refNeg(x, e); v != nil {
				return v
			}
		}
		return ev.opaque(e)
	case xNot:
		if b, ok := truth(ev.baseVal(ev.eval(ev.kid(e, 0), env))); ok {
			return ev.boolVal(!b, e.s, e.e)
		}
		return ev.opaque(e)
	case xAnd, xOr:
		x := ev.baseVal(ev.eval(ev.kid(e, 0), env))
		b, ok := truth(x)
		if !ok {
			return ev.opaque(e)
		}
		if b == (e.op == xOr) {
			return x
		}
		return ev.eval(ev.kid(e, 1), env)
	case xIfexp:
		c := ev.baseVal(ev.eval(ev.kid(e, 0), env))
		b, ok := truth(c)
		if !ok {
			return ev.opaque(e)
		}
		if b {
			return ev.eval(ev.kid(e, 1), env)
		}
		return ev.eval(ev.kid(e, 2), env)
	case xCmp:
		if r, ok := ev.mainTest(e, env); ok {
			return ev.boolVal(r, e.s, e.e)
		}
		left := ev.baseVal(ev.eval(ev.kid(e, 0), env))
		for i, op := range ev.arena.ext(e).ops {
			right := ev.baseVal(ev.eval(ev.kid(e, i+1), env))
			ev.work(pySize(left) + pySize(right)) // ==, in and < scan containers and strings
			r, ok := compare(op, left, right)
			if !ok {
				return ev.opaque(e)
			}
			if !r {
				return ev.boolVal(false, e.s, e.e)
			}
			left = right
		}
		return ev.boolVal(true, e.s, e.e)
	case xCall:
		return ev.call(e, env)
	case xComp:
		return ev.comprehension(e, env)
	case xLambda:
		return ev.val(pyVal{k: pvFunc, fn: ev.arena.ext(e).fn, x: ev.valX(env, nil), s0: e.s, e0: e.e})

	case xWalrus:
		v := ev.eval(ev.kid(e, 0), env)
		env.set(ev.nm(e), v)
		return v
	}
	return ev.opaque(e)
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func (ev *pyEval) number(e *pyExpr) *pyVal {
	if t := ev.nm(e); len(t) <= 24 && (t[0] != '0' || len(t) == 1) {
		// Plain decimal digits (most numbers in configs), single underscores between them
		// (250_000): no copy, no general parser.
		v, n := int64(0), 0
		for i := 0; i < len(t); i++ {
			if t[i] == '_' && i > 0 && i+1 < len(t) && t[i-1] != '_' && t[i+1] >= '0' && t[i+1] <= '9' {
				continue
			}
			if t[i] < '0' || t[i] > '9' {
				goto general
			}
			v = v*10 + int64(t[i]-'0')
			n++
		}
		if n <= 18 {
			return ev.intVal(v, e.s, e.e)
		}
	}
general:
	text := strings.ReplaceAll(ev.nm(e), "_", "")
	low := strings.ToLower(text)
	if strings.HasSuffix(low, "j") {
		return ev.opaque(e)
	}
	if !strings.ContainsAny(low, ".e") || strings.HasPrefix(low, "0x") {
		if v, err := strconv.ParseInt(low, 0, 64); err == nil {
			return ev.intVal(v, e.s, e.e)
		}
		if strings.Trim(low, "0") == "" {
			return ev.intVal(0, e.s, e.e)
		}
		return ev.opaque(e)
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return ev.opaque(e)
	}
	return ev.floatVal(f, e.s, e.e)
}

func (ev *pyEval) slice(obj *pyVal, sl *pyExpr, env *pyEnv, e *pyExpr) *pyVal {
	n := 0
	switch obj.k {
	case pvList, pvTuple:
		if obj.list.like != likeList && obj.list.like != likeRange {
			return ev.opaque(e) // a view, a set or an iterator takes no slice; a partial list's items are not known
		}
		n = len(obj.list.items)
	case pvStr:
		if !isASCIIString(obj.s) {
			return ev.opaque(e)
		}
		n = len(obj.s)
	default:
		return ev.opaque(e)
	}
	// Python's slice.indices (CPython's PySlice_AdjustIndices): start, stop and step are
	// evaluated in that order; a missing or None part is the default; a step of 0 raises.
	var v [3]int64
	var given [3]bool
	for k, id := range ev.kids(sl)[:3] { // 0 for a missing part
		if x := ev.arena.exOr(id); x != nil {
			switch pv := ev.eval(x, env); pv.k {
			case pvNone:
			case pvInt:
				v[k], given[k] = pv.i, true
			default:
				return ev.opaque(e)
			}
		}
	}
	step := int64(1)
	if given[2] {
		step = v[2]
	}
	if step == 0 {
		return ev.opaque(e)
	}
	lower, upper := int64(0), int64(n)
	if step < 0 {
		lower, upper = -1, int64(n)-1
	}
	bound := func(k int, def int64) int64 {
		switch i := v[k]; {
		case !given[k]:
			return def
		case i < 0:
			return max(i+int64(n), lower)
		default:
			return min(i, upper)
		}
	}
	a, b := bound(0, lower), bound(1, upper)
	if step < 0 {
		a, b = bound(0, upper), bound(1, lower)
	}
	if step == 1 {
		b = max(a, b)
		ev.work(int(b - a))
		if obj.k == pvStr {
			return ev.strVal(obj.s[a:b], e.s, e.e)
		}
		return ev.val(pyVal{k: obj.k, list: &pyList{items: append([]*pyVal(nil), obj.list.items[a:b]...), like: obj.list.like}, s0: e.s, e0: e.e})
	}
	ev.work(n)
	var out []byte
	var items []*pyVal
	for i := a; step > 0 && i < b || step < 0 && i > b; i += step {
		if obj.k == pvStr {
			out = append(out, obj.s[i])
		} else {
			items = append(items, obj.list.items[i])
		}
	}
	if obj.k == pvStr {
		return ev.strVal(string(out), e.s, e.e)
	}
	return ev.val(pyVal{k: obj.k, list: &pyList{items: items, like: obj.list.like}, s0: e.s, e0: e.e})
}

func compare(op string, a, b *pyVal) (bool, bool) {
	switch op {
	case "is", "is not":
		if a.k == pvNone || b.k == pvNone {
			if a.k == pvOpaque || b.k == pvOpaque {
				return false, false
			}
			return (a.k == b.k) == (op == "is"), true
		}
		if a.k == pvBool && b.k == pvBool {
			return (a.b == b.b) == (op == "is"), true
		}
		return false, false
	case "in", "not in":
		var found, known bool
		switch b.k {
		case pvStr:
			if a.k == pvStr {
				found, known = strings.Contains(b.s, a.s), true
			}
		case pvList, pvTuple:
			known = b.list.like != likePartial && b.list.like != likeIter // (`in` consumes an iterator)
			for _, x := range b.list.items {
				if !known {
					break
				}
				eq, ok := equal(a, x)
				if !ok {
					known = false
					break
				}
				if eq {
					found = true
					break
				}
			}
		case pvDict:
			if hashable(a) && !b.dict.partial {
				_, found = b.dict.get(a)
				known = true
			}
		}
		return found == (op == "in"), known
	case "==", "!=":
		eq, ok := equal(a, b)
		return eq == (op == "=="), ok
	}
	// Ordering.
	if x, y, ok := numbers(a, b); ok {
		switch op {
		case "<":
			return x < y, true
		case ">":
			return x > y, true
		case "<=":
			return x <= y, true
		case ">=":
			return x >= y, true
		}
	}
	if a.k == pvStr && b.k == pvStr {
		c := strings.Compare(a.s, b.s)
		switch op {
		case "<":
			return c < 0, true
		case ">":
			return c > 0, true
		case "<=":
			return c <= 0, true
		case ">=":
			return c >= 0, true
		}
	}
	return false, false
}

func numbers(a, b *pyVal) (float64, float64, bool) {
	num := func(v *pyVal) (float64, bool) {
		switch v.k {
		case pvInt:
			return float64(v.i), true
		case pvFloat:
			return v.f, true
		case pvBool:
			if v.b {
				return 1, true
			}
			return 0, true
		}
		return 0, false
	}
	x, ok1 := num(a)
	y, ok2 := num(b)
	return x, y, ok1 && ok2
}

func equal(a, b *pyVal) (bool, bool) {
	if a.k == pvOpaque || b.k == pvOpaque || a.k == pvModule || b.k == pvModule || a.k == pvFunc || b.k == pvFunc || a.k == pvBuiltin || b.k == pvBuiltin {
		return false, false
	}
	if x, y, ok := numbers(a, b); ok {
		return x == y, true
	}
	if a.k != b.k {
		if (a.k == pvList || a.k == pvTuple) && (b.k == pvList || b.k == pvTuple) {
			return false, true
		}
		return false, true
	}
	switch a.k {
	case pvNone:
		return true, true
	case pvStr:
		return a.s == b.s, true
	case pvList, pvTuple:
		if a.list.like == likeView || b.list.like == likeView || a.list.like == likePartial || b.list.like == likePartial || a.list.like == likeSet && b.list.like == likeSet || a.list.like == likeIter || b.list.like == likeIter {
			return false, false // (two sets are equal whatever their order: not compared here)
		}
		if len(a.list.items) != len(b.list.items) || a.list.like != b.list.like {
			return false, true
		}
		for i := range a.list.items {
			eq, ok := equal(a.list.items[i], b.list.items[i])
			if !ok || !eq {
				return eq, ok
			}
		}
		return true, true
	}
	return false, false
}

func (ev *pyEval) binop(op string, a, b *pyVal, e *pyExpr) *pyVal {
	a, b = ev.baseVal(a), ev.baseVal(b)
	if a.k == pvOpaque || b.k == pvOpaque || a.k == pvList && a.list.like != likeList || b.k == pvList && b.list.like != likeList {
		if v := ev.refOp(op, a, b, e); v != nil {
			return v // a FieldReference's arithmetic
		}
		return ev.opaque(e) // a range or a view has no list arithmetic
	}
	if a.k == pvInt && b.k == pvInt {
		x, y := a.i, b.i
		switch op {
		case "+":
			if r := x + y; (r > x) == (y > 0) {
				return ev.intVal(r, e.s, e.e)
			}
		case "-":
			if r := x - y; (r < x) == (y > 0) {
				return ev.intVal(r, e.s, e.e)
			}
		case "*":
			if x == 0 || y == 0 {
				return ev.intVal(0, e.s, e.e)
			}
			if r := x * y; r/y == x && !(x == -1 && y == math.MinInt64) && !(y == -1 && x == math.MinInt64) {
				return ev.intVal(r, e.s, e.e)
			}
		case "//":
			if y != 0 && !(x == math.MinInt64 && y == -1) {
				q := x / y
				if (x%y != 0) && ((x < 0) != (y < 0)) {
					q--
				}
				return ev.intVal(q, e.s, e.e)
			}
		case "%":
			if y != 0 && !(x == math.MinInt64 && y == -1) {
				m := x % y
				if m != 0 && (m < 0) != (y < 0) {
					m += y
				}
				return ev.intVal(m, e.s, e.e)
			}
		case "/":
			if y != 0 {
				return ev.floatVal(float64(x)/float64(y), e.s, e.e)
			}
		case "**":
			if y >= 0 && y < 64 {
				r := int64(1)
				for i := int64(0); i < y; i++ {
					n := r * x
					if x != 0 && n/x != r {
						return ev.opaque(e)
					}
					r = n
				}
				return ev.intVal(r, e.s, e.e)
			}
		case "<<":
			if y >= 0 && y < 63 && x>>(62-y) == 0 && x >= 0 {
				return ev.intVal(x<<y, e.s, e.e)
			}
		case ">>":
			if y >= 0 {
				return ev.intVal(x>>min(y, 63), e.s, e.e)
			}
		case "&":
			return ev.intVal(x&y, e.s, e.e)
		case "|":
			return ev.intVal(x|y, e.s, e.e)
		case "^":
			return ev.intVal(x^y, e.s, e.e)
		}
		return ev.opaque(e)
	}
	if x, y, ok := numbers(a, b); ok && a.k != pvBool && b.k != pvBool {
		var r float64
		switch op {
		case "+":
			r = x + y
		case "-":
			r = x - y
		case "*":
			r = x * y
		case "/":
			if y == 0 {
				return ev.opaque(e)
			}
			r = x / y
		case "//", "%":
			if y == 0 {
				return ev.opaque(e)
			}
			div, mod := pyFloatDivmod(x, y)
			if r = div; op == "%" {
				r = mod
			}
		case "**":
			var ok bool
			if r, ok = pyFloatPow(x, y); !ok {
				return ev.opaque(e)
			}
		default:
			return ev.opaque(e)
		}
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return ev.opaque(e)
		}
		return ev.floatVal(r, e.s, e.e)
	}
	switch {
	case op == "+" && a.k == pvStr && b.k == pvStr:
		if len(a.s)+len(b.s) > pyMaxStr {
			panic(pyLimitStop{"a string grows past " + humanBytes(pyMaxStr), "max_bytes"})
		}
		ev.grow((len(a.s) + len(b.s)) / 64)
		return ev.strVal(ev.concat(a.s, b.s), e.s, e.e)
	case op == "+" && (a.k == pvList && b.k == pvList || a.k == pvTuple && b.k == pvTuple):
		ev.grow(len(a.list.items) + len(b.list.items))
		items := append(append([]*pyVal(nil), a.list.items...), b.list.items...)
		return ev.val(pyVal{k: a.k, list: &pyList{items: items}, s0: e.s, e0: e.e})
	case op == "*" && (a.k == pvStr || a.k == pvList || a.k == pvTuple) && b.k == pvInt,
		op == "*" && a.k == pvInt && (b.k == pvStr || b.k == pvList || b.k == pvTuple):
		seq, n := a, b.i
		if a.k == pvInt {
			seq, n = b, a.i
		}
		if n < 0 {
			n = 0
		}
		if seq.k == pvStr {
			if repeatOver(len(seq.s), n, pyMaxStr) {
				panic(pyLimitStop{"a string grows past " + humanBytes(pyMaxStr), "max_bytes"})
			}
			ev.grow(int(int64(len(seq.s))*n) / 64)
			return ev.strVal(strings.Repeat(seq.s, int(n)), e.s, e.e)
		}
		if repeatOver(len(seq.list.items), n, int64(ev.maxSize)) {
			panic(pyLimitStop{"a list grows past " + itoa(ev.maxSize) + " items", "max_nodes"})
		}
		if len(seq.list.items) == 0 {
			n = 0 // [] * 2**40 is []: not 2**40 empty appends
		}
		ev.grow(len(seq.list.items) * int(n))
		var items []*pyVal
		for i := int64(0); i < n; i++ {
			items = append(items, seq.list.items...)
		}
		return ev.val(pyVal{k: seq.k, list: &pyList{items: items}, s0: e.s, e0: e.e})
	case op == "|" && a.k == pvDict && b.k == pvDict:
		d := ev.copyDict(a.dict)
		for _, en := range b.dict.ents {
			d.set(en.k, en.v, en.ks, en.ke)
		}
		d.partial = d.partial || b.dict.partial
		return ev.val(pyVal{k: pvDict, dict: d, s0: e.s, e0: e.e})
	case op == "%" && a.k == pvStr:
		return ev.percent(a, b, e)
	}
	return ev.opaque(e)
}

// percent formats "..%s.." % x for %s and %d with known values; anything else is opaque.
func (ev *pyEval) percent(a, b *pyVal, e *pyExpr) *pyVal {
	args := []*pyVal{b}
	if b.k == pvTuple {
		args = b.list.items
	}
	var out strings.Builder
	k := 0
	s := a.s
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			out.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			return ev.opaque(e)
		}
		i++
		switch s[i] {
		case '%':
			out.WriteByte('%')
		case 's', 'd', 'i':
			if k >= len(args) {
				return ev.opaque(e)
			}
			t, ok := pyStr(args[k])
			if !ok || s[i] != 's' && args[k].k != pvInt {
				return ev.opaque(e)
			}
			out.WriteString(t)
			k++
		default:
			return ev.opaque(e)
		}
		if out.Len() > pyMaxStr {
			return ev.opaque(e)
		}
	}
	if k != len(args) {
		return ev.opaque(e)
	}
	return ev.strVal(out.String(), e.s, e.e)
}

// pyStr is str(v) for values whose text is known.
func pyStr(v *pyVal) (string, bool) {
	switch v.k {
	case pvStr:
		return v.s, true
	case pvInt:
		return strconv.FormatInt(v.i, 10), true
	case pvFloat:
		return pyFloatRepr(v.f), true
	case pvBool:
		if v.b {
			return "True", true
		}
		return "False", true
	case pvNone:
		return "None", true
	}
	return "", false
}

// appendPyStr is append(b, pyStr(v)...) without the string pyStr makes for a number.
func appendPyStr(b []byte, v *pyVal) ([]byte, bool) {
	switch v.k {
	case pvStr:
		return append(b, v.s...), true
	case pvInt:
		return strconv.AppendInt(b, v.i, 10), true
	case pvFloat:
		return appendPyFloatRepr(b, v.f), true
	}
	s, ok := pyStr(v)
	return append(b, s...), ok
}

// pyFloatRepr is repr(f) (float_repr: PyOS_double_to_string(f, 'r', 0, Py_DTSF_ADD_DOT_0)).
func pyFloatRepr(f float64) string {
	var buf [32]byte
	return string(appendPyFloatRepr(buf[:0], f))
}

// appendPyFloatRepr is append(b, pyFloatRepr(f)...), without a string of its own for the
// common cases (f-strings and str.format write numbers straight into their text).
func appendPyFloatRepr(b []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1e16 {
		return strconv.AppendFloat(b, f, 'f', 1, 64)
	}
	if math.Abs(f) < 1e6 || math.IsInf(f, 0) || math.IsNaN(f) {
		// Below 1e6 Go's shortest 'g' is repr: the same shortest digits, an exponent (two digits
		// at least) exactly when the decimal exponent is below -4. From exponent 6 on Go writes
		// an exponent where repr waits for 16 (TestPyFloatReprFastPath).
		return strconv.AppendFloat(b, f, 'g', -1, 64)
	}
	if math.Signbit(f) {
		b = append(b, '-')
	}
	return append(b, pyFloatText(math.Abs(f), 'r', 0, true, false)...)
}

func (ev *pyEval) fstring(e *pyExpr, env *pyEnv) *pyVal {
	if ev.predef != nil {
		for _, t := range ev.etoks(e) {
			if ev.predef.predefIn(ev.src[t.body : t.end-int(t.quote)]) {
				// MMEngine rewrites the text before Python reads the f-string's fields and
				// braces: not followed here.
				return ev.opaque(e)
			}
		}
	}
	// The f-string's parts are worked out once (a helper called in a loop formats the same
	// f-string many times): literal text, fields, and where it cannot be read.
	x := ev.arena.ext(e)
	if x == nil {
		x = ev.arena.newExt(e)
		x.fparts = ev.fparts(e)
		if n := pyFieldCount(x.fparts); n > 0 && n <= 128 {
			x.fields = ev.arena.fields.take(n) // room for the parsed fields (subExpr)
		}
	}
	// The result is written into one reused buffer (nil while it is in use: a field that
	// holds an f-string formats into its own) and copied into a string once.
	b := ev.fbuf[:0]
	ev.fbuf = nil
	b, ok := ev.fjoin(e, x, env, b)
	var v *pyVal
	if ok {
		v = ev.strVal(ev.newStr(b), e.s, e.e)
	} else {
		v = ev.opaque(e)
	}
	if cap(b) <= 1<<16 {
		ev.fbuf = b[:0]
	}
	return v
}

// fjoin appends the text of f-string e's parts (x, its pyExprExt) to b; ok is false when it is
// not known.
func (ev *pyEval) fjoin(e *pyExpr, x *pyExprExt, env *pyEnv, b []byte) (_ []byte, ok bool) {
	for i := range x.fparts {
		p := &x.fparts[i]
		switch p.field {
		case pyFieldLit:
			b = append(b, p.lit...)
		case pyFieldBad:
			return b, false
		default:
			v := ev.subExpr(x, p.field, p.s, p.e, env)
			if v == nil {
				return b, false
			}
			v = ev.baseVal(v)
			if p.spec {
				if b, ok = ev.fspec(b, v, p, env); !ok || len(b) > pyMaxStr {
					return b, false
				}
				continue
			}
			if b, ok = appendPyStr(b, v); !ok || len(b) > pyMaxStr {
				return b, false
			}
		}
	}
	return b, true
}

// fspec appends field p's value v with its conversion and format spec; a nested field in the
// spec ({x:{w}}) is an expression evaluated in env. ok is false when the text is not known.
func (ev *pyEval) fspec(b []byte, v *pyVal, p *pyFPart, env *pyEnv) ([]byte, bool) {
	tail := p.tail
	if !p.raw && strings.IndexByte(tail, '\\') >= 0 {
		return b, false // escapes in the spec: not followed
	}
	conv, spec, specAt, ok := pyConvSpec(tail)
	if !ok {
		return b, false
	}
	spec, ok = pyExpandSpec(spec, func(k, l int) (*pyVal, bool) {
		s, e := p.ts+specAt+k, p.ts+specAt+l
		if s == e {
			return nil, false
		}
		x := ev.parseField(s, e)
		if x == nil {
			return nil, false
		}
		return ev.eval(x, env), true
	})
	if !ok {
		return b, false
	}
	return appendPyFormat(b, v, conv, spec)
}

// pyFPart is one part of an f-string: literal text (pyFieldLit), field number field (its
// expression in src[s:e], spec when a conversion or format spec follows), or pyFieldBad where
// the f-string cannot be read (a bytes part, an unterminated field).
type pyFPart struct {
	lit   string
	field int
	s, e  int
	spec  bool
	// tail is the field's conversion and format spec ("!r", ":>8", "!s:{w}"), from src[ts:]
	// on; raw when the f-string is raw (no escapes in the spec).
	tail string
	ts   int
	raw  bool
}

const (
	pyFieldLit = -1
	pyFieldBad = -2
)

// pyFieldCount is how many fields parts holds.
func pyFieldCount(parts []pyFPart) int {
	n := 0
	for i := range parts {
		if parts[i].field >= 0 {
			n++
		}
	}
	return n
}

// fparts splits an f-string into its parts, in order (adjacent literal text joined).
//
// The parts are collected in the evaluator's scratch lists and copied into one exact-size
// list; literal texts go to the block of computed strings (newStr).
func (ev *pyEval) fparts(e *pyExpr) []pyFPart {
	out := ev.fpbuf[:0]
	text := ev.ftext[:0] // literal text not yet added
	defer func() {
		if cap(out) <= 1<<10 && cap(text) <= 1<<16 {
			ev.fpbuf, ev.ftext = out[:0], text[:0]
		}
	}()
	flush := func() {
		if len(text) > 0 {
			out = append(out, pyFPart{lit: ev.newStr(text), field: pyFieldLit})
			text = text[:0]
		}
	}
	// done is the parts as a list of their own (the scratch list is reused).
	done := func() []pyFPart {
		flush()
		r := make([]pyFPart, len(out))
		copy(r, out)
		return r
	}
	field := 0 // the fields are numbered in order: pyExprExt.fields keeps their parsed expressions
	for _, t := range ev.etoks(e) {
		if !t.is(pfxFormat) {
			if t.is(pfxBytes) {
				flush()
				out = append(out, pyFPart{field: pyFieldBad})
				return done()
			}
			text = append(text, ev.tx.at(&t)...)
			continue
		}
		raw := t.is(pfxRaw)
		body := ev.src[t.body : t.end-int(t.quote)]
		lit := func(s []byte) {
			if raw || bytes.IndexByte(s, '\\') < 0 {
				text = append(text, s...)
			} else {
				text = append(text, pyUnescape(string(s))...)
			}
		}
		start := 0
		for i := 0; i < len(body); i++ {
			c := body[i]
			if c == '}' {
				if i+1 >= len(body) || body[i+1] != '}' {
					flush() // SyntaxError: f-string: single '}' is not allowed
					out = append(out, pyFPart{field: pyFieldBad})
					return done()
				}
				lit(body[start:i])
				text = append(text, '}')
				i++
				start = i + 1
				continue
			}
			if c != '{' {
				continue
			}
			if i+1 < len(body) && body[i+1] == '{' {
				lit(body[start:i])
				text = append(text, '{')
				i++
				start = i + 1
				continue
			}
			lit(body[start:i])
			// The field's end: the matching '}' outside brackets and strings (fstringField, as
			// the parser checked it).
			j, exprEnd, _, why := fstringField(body, i+1)
			if j < 0 || why != "" {
				flush()
				out = append(out, pyFPart{field: pyFieldBad})
				return done()
			}
			flush()
			out = append(out, pyFPart{field: field, s: t.body + i + 1, e: t.body + exprEnd, spec: exprEnd != j,
				tail: ev.newStr(body[exprEnd:j]), ts: t.body + exprEnd, raw: raw})
			field++
			i = j
			start = j + 1
		}
		lit(body[start:])
	}
	return done()
}

// subExpr parses and evaluates the expression in src[s:e], field k of the f-string whose
// pyExprExt is fs; nil when it does not parse.
func (ev *pyEval) subExpr(fs *pyExprExt, k, s, e int, env *pyEnv) *pyVal {
	// Fields are parsed once, their ids kept in fs.fields (0: did not parse): a helper called
	// in a loop evaluates its f-strings many times, and each time reads the fields in the same
	// order. The tree's blocks never move, so the ids stay valid as fields are added.
	var x *pyExpr
	if k < len(fs.fields) {
		x = ev.arena.exOr(fs.fields[k])
	} else {
		x = ev.parseField(s, e)
		if k == len(fs.fields) {
			fs.fields = append(fs.fields, idOf(x))
		}
	}
	if x == nil {
		return nil
	}
	return ev.eval(x, env)
}

// parseField parses the expression of an f-string field in src[s:e]; nil when it does not.
func (ev *pyEval) parseField(s, e int) *pyExpr {
	if name := ev.src[s:e]; len(name) > 0 && pyIdentByte[name[0]] == 1 {
		// A lone ASCII name (most fields): no lexer or parser.
		j := 1
		for j < len(name) && pyIdentByte[name[j]] != 0 {
			j++
		}
		if j == len(name) && pyKeywordCode(string(name)) == cNone {
			id, x := ev.arena.exprs.add()
			*x = pyExpr{op: xName, nm: pyNameRef{int32(s), int32(e - s)}, s: s, e: e, id: id}
			return x
		}

	}
	if bytes.HasSuffix(bytes.TrimSpace(ev.src[s:e]), []byte("=")) {
		return nil // f"{x=}" self-documenting form
	}
	toks, _, err := pyLexFrom(ev.src[:e], s, 200, false, ev.tx)
	if err != nil {
		return nil
	}
	if bytes.IndexByte(ev.src[s:e], '\n') >= 0 || bytes.IndexByte(ev.src[s:e], '\r') >= 0 {
		// A field over lines (Python 3.12) reads as if in brackets: its line breaks and
		// indentation are no tokens.
		last := len(toks) - 1
		for last >= 0 && (toks[last].kind == pyEOF || toks[last].kind == pyNewline || toks[last].kind == pyDedent) {
			last--
		}
		kept := toks[:0]
		for i, t := range toks {
			if i > last || t.kind != pyNewline && t.kind != pyIndent && t.kind != pyDedent {
				kept = append(kept, t)
			}
		}
		toks = kept
	}
	// The field's tokens join the file's token list, which its strings index.
	base := len(ev.arena.ftoks)
	ev.arena.ftoks = append(ev.arena.ftoks, toks...)
	toks = ev.arena.ftoks[base:]
	p := &pyParser{pyCursor: pyCursor{toks: toks, tx: ev.tx}, src: ev.src, max: 200, arena: ev.arena, tbase: base}
	var x *pyExpr
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(pyParseStop); !ok {
					panic(r)
				}
				x = nil
			}
		}()
		x = p.exprList()
		if k := p.peek().kind; k != pyNewline && k != pyEOF {
			x = nil
		}
	}()
	return x
}

func (ev *pyEval) comprehension(e *pyExpr, env *pyEnv) *pyVal {
	scope := &pyEnv{parent: env}
	cx := ev.arena.ext(e)
	var items []*pyVal
	d := ev.newDict(0)
	known := true
	var loop func(k int)
	loop = func(k int) {
		if !known {
			return
		}
		if k == len(cx.fors) {
			if cx.comp == "dict" {
				kv := ev.eval(ev.kid(e, 0), scope)
				if !hashable(kv) {
					known = false
					return
				}
				d.set(kv, ev.eval(ev.kid(e, 1), scope), ev.kid(e, 0).s, ev.kid(e, 0).e)
				ev.grow(1)
				return
			}
			items = append(items, ev.eval(ev.kid(e, 0), scope))
			ev.grow(1)
			return
		}
		f := cx.fors[k]
		xs, ok := ev.iterate(ev.eval(ev.ex(f.iter), scope))
		if !ok {
			known = false
			return
		}
		target := ev.ex(f.target)
		for _, x := range xs {
			ev.assign(target, x, scope)
			pass := true
			for _, c := range ev.arena.ids(f.conds) {
				b, ok := truth(ev.eval(ev.ex(c), scope))
				if !ok {
					known = false
					return
				}
				if !b {
					pass = false
					break
				}
			}
			if pass {
				loop(k + 1)
			}
		}
	}
	loop(0)
	if !known {
		return ev.opaque(e)
	}
	switch cx.comp {
	case "dict":
		return ev.val(pyVal{k: pvDict, dict: d, s0: e.s, e0: e.e})
	case "set":
		return ev.setOf(items, e)
	case "gen":
		return ev.val(pyVal{k: pvTuple, list: ev.list(items), s0: e.s, e0: e.e})
	}
	return ev.val(pyVal{k: pvList, list: ev.list(items), s0: e.s, e0: e.e})
}

var pyDictMethods = map[string]bool{"get": true, "update": true, "copy": true, "keys": true, "values": true, "items": true, "pop": true, "setdefault": true, "lock": true, "unlock": true, "copy_and_resolve_references": true, "to_dict": true, "popitem": true, "clear": true, "get_ref": true, "get_oneway_ref": true}

// pyBuiltin reports whether name is a builtin the evaluator knows (a switch, not a map's hash).
func pyBuiltin(name string) bool {
	switch name {
	case "dict", "list", "tuple", "set", "frozenset", "len", "range", "int", "float", "str", "bool", "min", "max", "sum", "abs", "round", "sorted", "reversed", "enumerate", "zip", "print", "any", "all", "getattr":
		return true
	}
	return false
}

type pyArgs struct {
	pos   []*pyVal
	kw    []string
	kwKey []*pyVal // kw as string values
	kwv   []*pyVal
	kwpos [][2]int
	ok    bool
}

func (a *pyArgs) get(name string) (*pyVal, bool) {
	for i, k := range a.kw {
		if k == name {
			return a.kwv[i], true
		}
	}
	return nil, false
}

func (ev *pyEval) args(e *pyExpr, env *pyEnv) pyArgs {
	a := pyArgs{ok: true}
	if n := int(e.kids.n) - 1; n > 0 {
		a.pos = ev.ptrs(n)
	}
	kws := ev.arena.kwsOf(e)
	if n := len(kws); n > 0 {
		// ** may add more; append then moves a list to the heap.
		if ev.arena == nil {
			a.kw = make([]string, 0, n)
			a.kwpos = make([][2]int, 0, n)
		} else {
			a.kw = ev.arena.argn.take(n)
			a.kwpos = ev.arena.args2.take(n)
		}
		vals := ev.ptrs(2 * n)
		a.kwKey, a.kwv = vals[:0:n], vals[n:n:2*n]
	}
	for _, id := range ev.kids(e)[1:] {
		k := ev.ex(id)
		if k.op == xStar {

			xs, ok := ev.iterate(ev.eval(ev.kid(k, 0), env))
			if !ok {
				a.ok = false
				continue
			}
			a.pos = append(a.pos, xs...)
			continue
		}
		a.pos = append(a.pos, ev.eval(k, env))
	}
	for j := range kws {
		kw := &kws[j]
		v := ev.eval(ev.ex(kw.val), env)
		if kw.nm.n == 0 {
			if v.k != pvDict || v.dict.partial {
				a.ok = false
				continue
			}
			ents, ok := v.dict.orderIn() // a ConfigDict unpacks in its keys() order
			if !ok {
				a.ok = false
				continue
			}
			for _, en := range ents {
				if en.k.k != pvStr {
					a.ok = false
					continue
				}
				a.kw = append(a.kw, en.k.s)
				a.kwKey = append(a.kwKey, en.k)
				a.kwv = append(a.kwv, en.v)
				a.kwpos = append(a.kwpos, [2]int{en.ks, en.ke})
			}
			continue
		}
		key := ev.kwKey(kw)
		a.kw = append(a.kw, key.s)
		a.kwKey = append(a.kwKey, key)
		a.kwv = append(a.kwv, v)
		a.kwpos = append(a.kwpos, [2]int{int(kw.nm.off), int(kw.nm.off + kw.nm.n)})
	}
	return a
}

// lastName is the final dotted component of a callee (ConfigDict for ml_collections.ConfigDict).
func (ev *pyEval) lastName(v *pyVal, e *pyExpr) string {
	switch {
	case v.k == pvModule:
		n := v.s
		if i := strings.LastIndexByte(n, '.'); i >= 0 {
			return n[i+1:]
		}
		return n
	case e.op == xAttr:
		return ev.nm(e)
	case e.op == xName:
		return ev.nm(e)
	}
	return ""
}

func (ev *pyEval) call(e *pyExpr, env *pyEnv) *pyVal {
	fnv := ev.eval(ev.kid(e, 0), env)
	if int(e.kids.n) == 1 && (fnv.k == pvBuiltin && fnv.x == nil && fnv.s == "dict" || fnv.k == pvModule && isConfigDict(ev.lastName(fnv, ev.kid(e, 0))) && !strings.HasPrefix(fnv.s, "ml_collections")) {
		if v := ev.kwDict(e, env); v != nil {
			return v
		}
	}
	a := ev.args(e, env)
	// Not a dict this call makes, unless a function's return statement made it (callFunc).
	ev.newD, ev.callD = nil, nil
	if fnv.k == pvOpaque && fnv.s != "" {
		ev.baseCall(e, env, &a) // a method of a part of _base_ (basePart) may change it
	} else if ev.mayChange(fnv, e) {
		ev.changedBy(e, a)
	}
	if !a.ok {
		if fnv.k == pvBuiltin && fnv.x != nil && !pyReadOnlyMethods[fnv.s] {
			ev.spoil(fnv.x.recv, e, map[any]bool{}) // c.update(**unknown): not followed, it may change c
		}
		return ev.opaque(e)
	}
	switch fnv.k {
	case pvFunc:
		return ev.callFunc(fnv, a, e)
	case pvBuiltin:
		return ev.builtin(fnv, a, e)
	case pvModule:
		switch name := ev.lastName(fnv, ev.kid(e, 0)); {
		case isConfigDict(name) && strings.HasPrefix(fnv.s, "ml_collections"):
			return ev.mlcConfigDict(a, e, name == "FrozenConfigDict")
		case isConfigDict(name):
			return ev.makeDict(a, e)
		case name == "FieldReference" && strings.HasPrefix(fnv.s, "ml_collections"):
			return ev.newRef(a, e)
		case name == "placeholder" && strings.HasPrefix(fnv.s, "ml_collections"):
			return ev.newRef(pyArgs{}, e) // a reference to None: unknown
		case name == "parse_arg":
			// big_vision.configs.common.parse_arg(arg, **spec) (big_vision @0127fb6
			// configs/common.py:29): with no argument it is a ConfigDict of the spec's defaults;
			// a tuple spec (default, converter) gives its first element.
			if len(a.pos) >= 1 && (a.pos[0].k == pvNone || a.pos[0].k == pvStr) && strings.Contains(fnv.s, "common") {
				d, why := ev.parseArg(a, e)
				if d != nil {
					d.cfg = true
					return ev.val(pyVal{k: pvDict, dict: d, s0: e.s, e0: e.e})
				}
				if why != "" && ev.refused == nil && ev.inTry == 0 {
					ev.refused = &pyRefusal{msg: why, s: e.s, e: e.e}
				}
			}
		case name == "read_base":
			return ev.noneVal(e.s, e.e)
		case (fnv.s == "copy.deepcopy" || fnv.s == "copy.copy") && len(a.pos) == 1 && len(a.kw) == 0:
			return ev.copyVal(a.pos[0], fnv.s == "copy.deepcopy", e)
		default:
			if v := ev.moduleCall(fnv, a, e); v != nil {
				return v
			}
		}
	}
	return ev.opaque(e)
}

// mayChange reports a callee this reader does not follow (`helper(config)`,
// `globals()[config.name](config)`, `x = common.make(config)`): whether its value is used or
// not, it may change what it is given. Not the module functions the evaluator models
// (ConfigDict, parse_arg, read_base, copy) nor the standard library's loggers and printers,
// which only read their arguments, nor big_vision's format_str (configs/common.py @0127fb6:
// it takes a FieldReference to each field its format names, get_ref, which leaves the values
// as they are, and returns the formatted reference).
func (ev *pyEval) mayChange(fnv *pyVal, e *pyExpr) bool {
	switch fnv.k {
	case pvOpaque:
		return true
	case pvModule:
		if name := ev.lastName(fnv, ev.kid(e, 0)); isConfigDict(name) || name == "parse_arg" || name == "read_base" {
			return false
		}
		for _, m := range []string{"copy.", "logging.", "absl.logging.", "warnings.", "pprint."} {
			if strings.HasPrefix(fnv.s, m) {
				return false
			}
		}
		return fnv.s != "big_vision.configs.common.format_str"
	}
	return false
}

// changedBy makes what call e's arguments hold unknown where the callee may have changed it
// (spoil).
func (ev *pyEval) changedBy(e *pyExpr, a pyArgs) {
	seen := map[any]bool{}
	for _, v := range a.pos {
		ev.spoil(v, e, seen)
	}
	for _, v := range a.kwv {
		ev.spoil(v, e, seen)
	}
}

// spoil makes what v holds unknown where call e may have changed it: every dict reachable from
// it becomes partial (unknown in the tree), every list's items unknown, and a part of MMEngine's
// bases an edit of unknown effect. seen holds the dicts and lists already done.
func (ev *pyEval) spoil(v *pyVal, e *pyExpr, seen map[any]bool) {
	if v == nil {
		return
	}
	ev.step()
	switch v.k {
	case pvDict:
		if seen[v.dict] {
			return
		}
		seen[v.dict] = true
		v.dict.partial = true
		for i := range v.dict.ents {
			ev.spoil(v.dict.ents[i].v, e, seen)
		}
	case pvList, pvTuple:
		if seen[v.list] {
			return
		}
		seen[v.list] = true
		if v.k == pvList && (v.list.like == likeList || v.list.like == likeSet || v.list.like == likeIter) {
			v.list.like = likePartial // a range or a view cannot be changed
		}
		for _, it := range v.list.items {
			ev.spoil(it, e, seen)
		}
	case pvOpaque:
		if p, _, rooted := basePathOf(v); rooted && ev.followsBases() {
			ev.editInPlace(p, ev.opaque(e), e.s, e.e, v.s0, v.e0)
		}
		if r := refOf(v); r != nil {
			r.bad = true // the call may set it
		}
	}
}

// mayRunCall is a call statement in a block that may or may not run (taint): it is not run, so
// what it may change becomes unknown (spoil): its arguments, and the object of a method that
// may change it. Only names, attributes and literal indexes are read for that (reading them
// runs nothing); builtins and the loggers change nothing.
func (ev *pyEval) mayRunCall(x *pyExpr, env *pyEnv) {
	f := ev.kid(x, 0)
	if ev.purePath(f) {
		switch fnv := ev.eval(f, env); {
		case fnv.k == pvBuiltin && fnv.x == nil, fnv.k == pvModule && !ev.mayChange(fnv, x):
			return
		}
	}
	seen := map[any]bool{}
	if f.op == xAttr && !pyReadOnlyMethods[ev.nm(f)] {
		if r := ev.kid(f, 0); ev.purePath(r) {
			ev.spoil(ev.eval(r, env), x, seen)
		}
	}
	for _, id := range ev.kids(x)[1:] {
		k := ev.ex(id)
		if k.op == xStar {
			k = ev.kid(k, 0)
		}
		if ev.purePath(k) {
			ev.spoil(ev.eval(k, env), x, seen)
		}
	}
	for _, kw := range ev.arena.kwsOf(x) {
		if k := ev.ex(kw.val); ev.purePath(k) {
			ev.spoil(ev.eval(k, env), x, seen)
		}
	}
}

// purePath reports a name, or attributes and literal indexes of one: reading it runs nothing.
func (ev *pyEval) purePath(x *pyExpr) bool {
	for {
		switch x.op {
		case xName:
			return true
		case xAttr:
		case xIndex:
			if k := ev.kid(x, 1); k.op != xNum && k.op != xStr {
				return false
			}
		default:
			return false
		}
		x = ev.kid(x, 0)
	}
}

// copyVal is copy.copy(v) or copy.deepcopy(v) (the standard library's copy module: mmpretrain's
// configs deep-copy a pipeline before changing it). A part of the bases is copied from their
// value when it is known (baseVal); a copy never stays a part of them, so changing it is not an
// edit of the bases. Unknown when v holds what this reader cannot copy: an unknown value, a
// function, a module (deepcopy of a module raises).
func (ev *pyEval) copyVal(v *pyVal, deep bool, e *pyExpr) *pyVal {
	v = ev.baseVal(v)
	ev.work(pySize(v))
	if !deep {
		switch v.k {
		case pvDict:
			// A ConfigDict's copy is one (its __setstate__ makes a new ConfigDict and sets the
			// fields; sort_keys goes back to its default).
			c := ev.copyDict(v.dict)
			c.cfg, c.loose, c.mm = v.dict.cfg, v.dict.loose, v.dict.mm
			return ev.val(pyVal{k: pvDict, dict: c, s0: v.s0, e0: v.e0})
		case pvList:
			if v.list.like != likeView && v.list.like != likeIter { // a dict's view cannot be copied (TypeError)
				return ev.val(pyVal{k: pvList, list: &pyList{items: append([]*pyVal(nil), v.list.items...), like: v.list.like}, s0: v.s0, e0: v.e0})
			}
		case pvNone, pvBool, pvInt, pvFloat, pvStr, pvTuple:
			return v
		}
		return ev.opaque(e)
	}
	// memo is deepcopy's, by object: a dict or list that two values hold is copied once.
	memo := map[any]*pyVal{}
	var cp func(x *pyVal) *pyVal
	cp = func(x *pyVal) *pyVal {
		ev.step()
		switch x.k {
		case pvList, pvTuple:
			if c, ok := memo[x.list]; ok {
				return c
			}
		case pvDict:
			if c, ok := memo[x.dict]; ok {
				return c
			}
		}
		switch x.k {
		case pvNone, pvBool, pvInt, pvFloat, pvStr:
			return x
		case pvList, pvTuple:
			if x.list.like == likeView || x.list.like == likePartial || x.list.like == likeIter {
				return nil
			}
			c := ev.val(pyVal{k: x.k, s0: x.s0, e0: x.e0})
			memo[x.list] = c
			items := make([]*pyVal, len(x.list.items))
			for i, it := range x.list.items {
				if items[i] = cp(it); items[i] == nil {
					return nil
				}
			}
			ev.grow(len(items))
			c.list = &pyList{items: items, like: x.list.like}
			return c
		case pvDict:
			c := ev.val(pyVal{k: pvDict, s0: x.s0, e0: x.e0})
			memo[x.dict] = c
			d := ev.newDict(len(x.dict.ents))
			for _, en := range x.dict.ents {
				cv := cp(en.v)
				if cv == nil {
					return nil
				}
				d.set(en.k, cv, en.ks, en.ke)
			}
			d.partial, d.cfg, d.loose, d.mm = x.dict.partial, x.dict.cfg, x.dict.loose, x.dict.mm
			ev.grow(len(x.dict.ents))
			c.dict = d
			return c
		}
		return nil
	}
	if c := cp(v); c != nil {
		return c
	}
	return ev.opaque(e)
}

// isConfigDict reports the ml_collections and MMEngine classes a call of which makes a dict.
func isConfigDict(name string) bool {
	switch name {
	case "ConfigDict", "FrozenConfigDict", "Config", "ConfigDictBase":
		return true
	}
	return false
}

// What the evaluator records about a call's keywords in pyExpr.flags, once per call.
const (
	xfKwChecked uint8 = 1 << iota // the one below is known
	xfKwStarred                   // some keyword is **x
)

// kwKey is keyword kw's name as a string value, made once.
func (ev *pyEval) kwKey(kw *pyKw) *pyVal {
	if kw.key != 0 {
		return ev.arena.cvs[kw.key-1]
	}
	v := ev.strVal(kw.nm.in(ev.tx), 0, 0)
	ev.arena.cvs = append(ev.arena.cvs, v)
	kw.key = int32(len(ev.arena.cvs))
	return v
}

// kwFlags works out (once) whether a call's keywords are all named. (They are all different:
// the parser refuses a name given twice, as CPython's compiler does.)
func (ev *pyEval) kwFlags(e *pyExpr) uint8 {
	if e.flags&xfKwChecked == 0 {
		f := xfKwChecked
		for _, kw := range ev.arena.kwsOf(e) {
			if kw.nm.n == 0 {
				f |= xfKwStarred
				break
			}
		}
		e.flags |= f
	}
	return e.flags
}

// kwDict is dict(k=v, ...) (or a ConfigDict) with named keywords only, made straight from the
// keywords as makeDict would from the call's arguments; nil when a keyword is **x. The keys
// are all different (the parser refuses a repeated one): each is appended without looking for
// an earlier one.
func (ev *pyEval) kwDict(e *pyExpr, env *pyEnv) *pyVal {
	if ev.kwFlags(e)&xfKwStarred != 0 {
		return nil
	}
	kws := ev.arena.kwsOf(e)
	d := ev.newDict(len(kws))
	for j := range kws {
		kw := &kws[j]
		x := ev.ex(kw.val)
		v := ev.eval(x, env)
		if j < 64 && ev.fresh(x, v) {
			d.own |= 1 << j
		}
		key := ev.kwKey(kw)
		d.ents = append(d.ents, pyEnt{k: key, v: v, ks: int(kw.nm.off), ke: int(kw.nm.off + kw.nm.n)})
	}
	if len(d.ents) >= pyDictIndexed {
		d.reindex()
	}
	ev.grow(len(d.ents))
	ev.newD, ev.newE = d, e
	return ev.val(pyVal{k: pvDict, dict: d, s0: e.s, e0: e.e})
}

// mlcConfigDict is ml_collections' ConfigDict(initial_dictionary=None, type_safe=True,
// convert_dict=True, *, allow_dotted_keys=False, sort_keys=True) or FrozenConfigDict
// (initial_dictionary=None, type_safe=True) (google/ml_collections @5f7343a,
// config_dict.py:641, 1790): its keywords are options, not entries; the entries are
// initial_dictionary's. Unknown for another keyword (a TypeError), more than three positional
// arguments, or an initial_dictionary that is not a dict the evaluator knows. With
// convert_dict=False the dicts it holds stay plain dicts: not read as ConfigDict fields
// (FieldReferences, pyrefs.go).
func (ev *pyEval) mlcConfigDict(a pyArgs, e *pyExpr, frozen bool) *pyVal {
	if len(a.pos) > 3 || frozen && len(a.pos) > 2 {
		return ev.opaque(e)
	}
	var init *pyVal
	convert, sorted := true, true
	if len(a.pos) > 0 {
		init = a.pos[0]
	}
	if len(a.pos) > 2 {
		b, ok := truth(a.pos[2])
		if !ok {
			return ev.opaque(e) // whether it converts dicts (copies them) not known
		}
		convert = b
	}
	for i, k := range a.kw {
		switch k {
		case "initial_dictionary":
			if len(a.pos) > 0 {
				return ev.opaque(e) // given twice: TypeError
			}
			init = a.kwv[i]
		case "convert_dict":
			if frozen {
				return ev.opaque(e)
			}
			b, ok := truth(a.kwv[i])
			if !ok {
				return ev.opaque(e)
			}
			convert = b
		case "sort_keys":
			if frozen {
				return ev.opaque(e) // not a FrozenConfigDict keyword: TypeError
			}
			b, ok := truth(a.kwv[i])
			if !ok {
				return ev.opaque(e) // its order not known
			}
			sorted = b
		case "allow_dotted_keys":
			if frozen {
				return ev.opaque(e)
			}
		case "type_safe":
		default:
			return ev.opaque(e)
		}
	}
	var d *pyDict
	switch {
	case init == nil || init.k == pvNone:
		d = ev.newDict(0)
		d.cfg, d.loose = convert, !convert
	case init.k == pvDict:
		ev.seen = ev.seen[:0]
		d = ev.cfgFrom(init, convert).dict // a new ConfigDict, plain dicts in it converted
	default:
		return ev.opaque(e)
	}
	d.unsorted = !sorted
	if frozen {
		// A snapshot (config_dict.py:1790): what it holds is copied, lists into tuples, so
		// nothing done to the dict it was made from reaches it. Copied whole here.
		return ev.copyVal(ev.val(pyVal{k: pvDict, dict: d, s0: e.s, e0: e.e}), true, e)
	}
	return ev.val(pyVal{k: pvDict, dict: d, s0: e.s, e0: e.e})
}

func (ev *pyEval) makeDict(a pyArgs, e *pyExpr) *pyVal {
	var d *pyDict
	if len(a.pos) > 1 {
		return ev.opaque(e)
	}
	if len(a.pos) == 1 {
		src := a.pos[0]
		switch src.k {
		case pvDict:
			ents, ok := src.dict.orderIn() // dict(cfg) takes a ConfigDict's keys() order (sorted)
			if !ok {
				return ev.opaque(e)
			}
			d = ev.dictOf(ents, src.dict.partial)
		case pvList, pvTuple:
			if src.list.like == likePartial || src.list.like == likeSet {
				return ev.opaque(e)
			}
			items := src.list.items
			if src.list.like == likeIter {
				items, _ = ev.iterate(src) // dict(zip(...)) exhausts it
			}
			d = ev.newDict(len(items) + len(a.kw))
			for _, it := range items {
				if (it.k != pvList && it.k != pvTuple) || len(it.list.items) != 2 {
					return ev.opaque(e)
				}
				d.set(it.list.items[0], it.list.items[1], it.s0, it.e0)
			}
		case pvNone:
		default:
			return ev.opaque(e)
		}
	}
	if d == nil {
		d = ev.newDict(len(a.kw))
	}
	for i := range a.kw {
		d.set(a.kwKey[i], a.kwv[i], a.kwpos[i][0], a.kwpos[i][1])
	}
	ev.grow(len(d.ents))
	return ev.val(pyVal{k: pvDict, dict: d, s0: e.s, e0: e.e})
}

func (ev *pyEval) callFunc(fnv *pyVal, a pyArgs, e *pyExpr) *pyVal {
	ev.depth++
	defer func() { ev.depth-- }()
	if ev.depth > pyMaxCalls {
		panic(pyLimitStop{"calls nest deeper than " + itoa(pyMaxCalls) + " levels", "max_depth"})
	}
	fn := fnv.fn
	if fn.generator {
		return ev.opaque(e) // a generator object: what it yields is not read
	}
	var scope *pyEnv
	if ev.arena != nil {
		scope = &ev.arena.envs.take(1)[:1][0]
		*scope = pyEnv{parent: fnv.x.env}
	} else {
		scope = &pyEnv{parent: fnv.x.env}
	}
	if n := len(fn.params) + 4; ev.arena != nil {
		scope.names, scope.vals = ev.arena.argn.take(n), ev.ptrs(n)
	} else {
		scope.names, scope.vals = make([]string, 0, n), make([]*pyVal, 0, n)
	}
	var usedBuf [16]bool
	used := usedBuf[:0]
	if len(a.kw) <= len(usedBuf) {
		used = usedBuf[:len(a.kw)]
	} else {
		used = make([]bool, len(a.kw))
	}
	pi := 0
	for k := range fn.params {
		p := &fn.params[k]
		switch p.star {
		case 1:
			rest := []*pyVal{}
			if pi < len(a.pos) {
				rest = a.pos[pi:]
				pi = len(a.pos)
			}
			scope.add(p.name, ev.val(pyVal{k: pvTuple, list: &pyList{items: rest}, s0: e.s, e0: e.e}))
			continue
		case 2:
			d := ev.newDict(len(a.kw))
			for i, k := range a.kw {
				if !used[i] {
					d.set(ev.strVal(k, 0, 0), a.kwv[i], a.kwpos[i][0], a.kwpos[i][1])
					used[i] = true
				}
			}
			scope.add(p.name, ev.val(pyVal{k: pvDict, dict: d, s0: e.s, e0: e.e}))
			continue
		}
		if pi < len(a.pos) {
			scope.add(p.name, a.pos[pi])
			pi++
			continue
		}
		found := false
		for i, k := range a.kw {
			if k == p.name && !used[i] {
				scope.add(p.name, a.kwv[i])
				used[i] = true
				found = true
				break
			}
		}
		if found {
			continue
		}
		if p.def != 0 {
			// Defaults are evaluated where the function is defined.
			scope.add(p.name, ev.eval(ev.ex(p.def), fnv.x.env))
			continue
		}
		return ev.opaque(e)
	}
	var ret *pyVal
	if fn.expr != 0 {
		x := ev.ex(fn.expr)
		ret = ev.eval(x, scope)
		ev.retD = nil
		if ev.fresh(x, ret) {
			ev.retD = ret.dict
		}
	} else {
		ev.retD = nil
		ev.exec(fn.body, scope, &ret)
		if ret == nil {
			return ev.noneVal(e.s, e.e)
		}
	}
	// What the function's return statement made, nothing else holds.
	ev.callD, ev.callE = nil, nil
	if ret.k == pvDict && ev.retD == ret.dict {
		ev.callD, ev.callE = ret.dict, e
	}
	return ret
}

func (ev *pyEval) builtin(fnv *pyVal, a pyArgs, e *pyExpr) *pyVal {
	if fnv.x != nil {
		return ev.method(fnv, a, e)
	}
	if ev.fieldRefs != nil {
		// getattr(ref, 'set'), max(ref, 0): a reference given to a builtin may be set, or come
		// back where the evaluator no longer sees it (pyrefs.go).
		badRefs(a.pos)
		badRefs(a.kwv)
	}
	for _, x := range a.pos {
		ev.work(pySize(x)) // str(a), sorted(a), max(a), dict(d): a pass over each argument
	}
	one := func() (*pyVal, bool) {
		if len(a.pos) == 1 && len(a.kw) == 0 {
			return a.pos[0], true
		}
		return nil, false
	}
	switch fnv.s {
	case "dict":
		if len(a.pos) == 1 && a.pos[0].k == pvNone {
			return ev.opaque(e) // dict(None) raises; ConfigDict(None) is empty (makeDict)
		}
		return ev.makeDict(a, e)
	case "list", "tuple", "set", "frozenset", "sorted", "reversed":
		if len(a.pos) == 0 && len(a.kw) == 0 {
			switch fnv.s {
			case "tuple":
				return ev.val(pyVal{k: pvTuple, list: &pyList{}, s0: e.s, e0: e.e})
			case "set", "frozenset":
				return ev.setOf(nil, e)
			}
			return ev.val(pyVal{k: pvList, list: &pyList{}, s0: e.s, e0: e.e})
		}
		x, ok := one()
		if !ok {
			return ev.opaque(e)
		}
		var items []*pyVal
		if x.k == pvList && x.list.like == likeSet && fnv.s != "list" && fnv.s != "tuple" && fnv.s != "reversed" {
			// sorted() and set() do not depend on a set's order (list() and tuple() do).
			ev.work(len(x.list.items))
			items, ok = append([]*pyVal(nil), x.list.items...), true
		} else {
			items, ok = ev.iterate(x)
		}
		if !ok {
			return ev.opaque(e)
		}
		switch fnv.s {
		case "sorted":
			var sortErr bool
			sort.SliceStable(items, func(i, j int) bool {
				r, ok := compare("<", items[i], items[j])
				if !ok {
					sortErr = true
				}
				return r
			})
			if sortErr {
				return ev.opaque(e)
			}
		case "reversed":
			for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
				items[i], items[j] = items[j], items[i]
			}
		case "set", "frozenset":
			return ev.setOf(items, e)
		}
		kind := pvList
		if fnv.s == "tuple" {
			kind = pvTuple
		}
		return ev.val(pyVal{k: kind, list: &pyList{items: items}, s0: e.s, e0: e.e})
	case "getattr":
		return ev.baseGetattr(a, e)
	case "len":
		x, ok := one()
		if !ok {
			return ev.opaque(e)
		}
		switch x.k {
		case pvStr:
			return ev.intVal(int64(len([]rune(x.s))), e.s, e.e)
		case pvList, pvTuple:
			if x.list.like != likePartial && x.list.like != likeIter {
				return ev.intVal(int64(len(x.list.items)), e.s, e.e)
			}
		case pvDict:
			if !x.dict.partial {
				return ev.intVal(int64(len(x.dict.ents)), e.s, e.e)
			}
		}
	case "zip", "enumerate":
		return ev.zipEnumerate(fnv.s, a, e)
	case "range":
		if len(a.kw) > 0 || len(a.pos) == 0 || len(a.pos) > 3 {
			return ev.opaque(e)
		}
		var n [3]int64
		for i, p := range a.pos {
			if p.k != pvInt {
				return ev.opaque(e)
			}
			n[i] = p.i
		}
		start, stop, stepv := int64(0), n[0], int64(1)
		if len(a.pos) >= 2 {
			start, stop = n[0], n[1]
		}
		if len(a.pos) == 3 {
			stepv = n[2]
		}
		if stepv == 0 {
			return ev.opaque(e)
		}
		var items []*pyVal
		for i := start; (stepv > 0 && i < stop) || (stepv < 0 && i > stop); i += stepv {
			ev.step()
			ev.grow(1)
			items = append(items, ev.intVal(i, e.s, e.e))
		}
		return ev.val(pyVal{k: pvList, list: &pyList{items: items, like: likeRange}, s0: e.s, e0: e.e})
	case "int", "float", "str", "bool", "abs", "round":
		x, ok := one()
		if !ok {
			if len(a.pos) == 0 && len(a.kw) == 0 {
				switch fnv.s {
				case "int":
					return ev.intVal(0, e.s, e.e)
				case "float":
					return ev.floatVal(0, e.s, e.e)
				case "str":
					return ev.strVal("", e.s, e.e)
				case "bool":
					return ev.boolVal(false, e.s, e.e)
				}
			}
			return ev.opaque(e)
		}
		switch fnv.s {
		case "int":
			switch x.k {
			case pvInt:
				return ev.intVal(x.i, e.s, e.e)
			case pvFloat:
				if math.Abs(x.f) < 1<<62 {
					return ev.intVal(int64(x.f), e.s, e.e)
				}
			case pvBool:
				if x.b {
					return ev.intVal(1, e.s, e.e)
				}
				return ev.intVal(0, e.s, e.e)
			case pvStr:
				if v, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(x.s), "_", ""), 10, 64); err == nil {
					return ev.intVal(v, e.s, e.e)
				}
			}
		case "float":
			switch x.k {
			case pvInt:
				return ev.floatVal(float64(x.i), e.s, e.e)
			case pvFloat:
				return ev.floatVal(x.f, e.s, e.e)
			case pvStr:
				if v, err := strconv.ParseFloat(strings.TrimSpace(x.s), 64); err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
					return ev.floatVal(v, e.s, e.e)
				}
			}
		case "str":
			if s, ok := pyStr(x); ok {
				return ev.strVal(s, e.s, e.e)
			}
		case "bool":
			if b, ok := truth(x); ok {
				return ev.boolVal(b, e.s, e.e)
			}
		case "abs":
			if x.k == pvInt && x.i != math.MinInt64 {
				if x.i < 0 {
					return ev.intVal(-x.i, e.s, e.e)
				}
				return ev.intVal(x.i, e.s, e.e)
			}
			if x.k == pvFloat {
				return ev.floatVal(math.Abs(x.f), e.s, e.e)
			}
		case "round":
			if x.k == pvInt {
				return ev.intVal(x.i, e.s, e.e)
			}
			if x.k == pvFloat && math.Abs(x.f) < 1<<62 {
				return ev.intVal(int64(math.RoundToEven(x.f)), e.s, e.e)
			}
		}
	case "min", "max", "sum", "any", "all":
		items := a.pos
		if len(items) == 1 {
			xs, ok := ev.iterate(items[0])
			if !ok {
				return ev.opaque(e)
			}
			items = xs
		}
		if len(a.kw) > 0 {
			return ev.opaque(e)
		}
		switch fnv.s {
		case "any", "all":
			want := fnv.s == "any"
			for _, x := range items {
				b, ok := truth(x)
				if !ok {
					return ev.opaque(e)
				}
				if b == want {
					return ev.boolVal(want, e.s, e.e)
				}
			}
			return ev.boolVal(!want, e.s, e.e)
		case "sum":
			acc := ev.intVal(0, e.s, e.e)
			for _, x := range items {
				acc = ev.binop("+", acc, x, e)
				if acc.k == pvOpaque {
					return acc
				}
			}
			return acc
		}
		if len(items) == 0 {
			return ev.opaque(e)
		}
		best := items[0]
		for _, x := range items[1:] {
			r, ok := compare("<", x, best)
			if !ok {
				return ev.opaque(e)
			}
			if r == (fnv.s == "min") {
				best = x
			}
		}
		return best
	case "print":
		return ev.noneVal(e.s, e.e)
	}
	return ev.opaque(e)
}

func (ev *pyEval) method(fnv *pyVal, a pyArgs, e *pyExpr) *pyVal {
	r, name := fnv.x.recv, fnv.s
	if r.k == pvStr || r.k == pvList && name != "append" && name != "pop" || r.k == pvDict && name != "get" && name != "setdefault" && name != "pop" {
		// Most methods copy or scan their receiver (dict.get, list.append and the like do not).
		ev.work(pySize(r))
	}
	for _, x := range a.pos {
		ev.work(pySize(x))
	}
	switch r.k {
	case pvDict:
		d := r.dict
		if d.partial && name != "update" && name != "copy" && name != "copy_and_resolve_references" && name != "to_dict" {
			break // its entries are not known (partial): what the method reads or returns is not
		}
		switch name {
		case "get":
			if len(a.pos) >= 1 && len(a.pos) <= 2 && len(a.kw) == 0 {
				if !hashable(a.pos[0]) {
					return ev.opaque(e)
				}
				if v, ok := d.get(a.pos[0]); ok {
					return v
				}
				if len(a.pos) == 2 {
					return a.pos[1]
				}
				return ev.noneVal(e.s, e.e)
			}
		case "update":
			if d.mlc() {
				ev.mlcUpdate(d, a, e)
				return ev.noneVal(e.s, e.e)
			}
			if len(a.pos) == 1 && a.pos[0].k == pvDict {
				s := a.pos[0].dict
				for _, en := range s.ents {
					ev.refsOff(d.set(en.k, en.v, en.ks, en.ke))
				}
				d.partial = d.partial || s.partial
			} else if len(a.pos) > 0 {
				d.partial = true // updated from what this reader cannot know
				return ev.opaque(e)
			}
			for i, k := range a.kw {
				ev.refsOff(d.set(ev.strVal(k, 0, 0), a.kwv[i], a.kwpos[i][0], a.kwpos[i][1]))
			}
			return ev.noneVal(e.s, e.e)
		case "get_ref", "get_oneway_ref":
			if v := ev.getRef(d, a, name == "get_oneway_ref", e); v != nil {
				return v
			}
			return ev.opaque(e)
		case "copy_and_resolve_references", "to_dict":
			if d.mlc() && len(a.pos) == 0 && len(a.kw) == 0 {
				ev.seen = ev.seen[:0]
				return ev.cfgCopy(r, name == "to_dict")
			}
			return ev.opaque(e)
		case "copy":
			if !d.mlc() {
				c := ev.copyDict(d)
				c.mm = d.mm // MMEngine's ConfigDict.copy is its __copy__: a ConfigDict
				return ev.val(pyVal{k: pvDict, dict: c, s0: r.s0, e0: r.e0})
			}
		case "keys", "values", "items":
			// A dict's are views; a ConfigDict's are lists, in sorted key order.
			ents, ok := d.orderIn()
			if !ok {
				return ev.opaque(e)
			}
			like := likeView
			if d.mlc() {
				like = likeList
			}
			items := make([]*pyVal, len(ents))
			for i, en := range ents {
				switch name {
				case "keys":
					items[i] = en.k
				case "values":
					items[i] = en.v
				default:
					items[i] = ev.val(pyVal{k: pvTuple, list: &pyList{items: []*pyVal{en.k, en.v}}, s0: e.s, e0: e.e})
				}
			}
			ev.grow(len(items))
			return ev.val(pyVal{k: pvList, list: &pyList{items: items, like: like}, s0: e.s, e0: e.e})
		case "pop":
			if len(a.pos) >= 1 && hashable(a.pos[0]) {
				v, ok := d.get(a.pos[0])
				if ok {
					d.del(a.pos[0])
					return v
				}
				if len(a.pos) == 2 {
					return a.pos[1]
				}
			}
		case "setdefault":
			if len(a.pos) >= 1 && hashable(a.pos[0]) {
				if v, ok := d.get(a.pos[0]); ok {
					return v
				}
				v := ev.noneVal(e.s, e.e)
				if len(a.pos) == 2 {
					v = a.pos[1]
				}
				d.set(a.pos[0], v, a.pos[0].s0, a.pos[0].e0)
				return v
			}
		case "lock", "unlock":
			if d.mlc() && len(a.pos) == 0 && len(a.kw) == 0 {
				// ml_collections' ConfigDict.lock and unlock return the ConfigDict itself
				// (config_dict.py at v0.1.1 and 5f7343a), so `return config.lock()` returns
				// the config (vision_transformer's vit_jax configs).
				return r
			}
			return ev.opaque(e) // a plain dict has no lock: AttributeError
		}
	case pvList:
		if r.list.like == likeSet {
			break // not followed (add, update, union, ...); one that may change it spoils it below
		}
		if r.list.like == likeView || r.list.like == likePartial || r.list.like == likeIter || r.list.like == likeRange && name != "count" && name != "index" {
			return ev.opaque(e) // not a list method of a range or a view
		}
		switch name {
		case "append":
			if len(a.pos) == 1 {
				ev.grow(1)
				r.list.items = append(r.list.items, a.pos[0])
				return ev.noneVal(e.s, e.e)
			}
		case "extend":
			if len(a.pos) == 1 {
				xs, ok := ev.iterate(a.pos[0])
				if ok {
					ev.grow(len(xs))
					r.list.items = append(r.list.items, xs...)
					return ev.noneVal(e.s, e.e)
				}
			}
		case "copy":
			return ev.val(pyVal{k: pvList, list: &pyList{items: append([]*pyVal(nil), r.list.items...)}, s0: r.s0, e0: r.e0})
		}
	case pvStr:
		s := r.s
		strArg := func(i int) (string, bool) {
			if i < len(a.pos) && a.pos[i].k == pvStr {
				return a.pos[i].s, true
			}
			return "", false
		}
		switch name {
		case "format":
			return ev.format(s, a, e)
		case "join":
			if len(a.pos) == 1 {
				xs, ok := ev.iterate(a.pos[0])
				if !ok {
					return ev.opaque(e)
				}
				parts := make([]string, len(xs))
				total := 0
				for i, x := range xs {
					if x.k != pvStr {
						return ev.opaque(e)
					}
					parts[i] = x.s
					total += len(x.s) + len(s)
				}
				if total > pyMaxStr {
					return ev.opaque(e)
				}
				return ev.strVal(strings.Join(parts, s), e.s, e.e)
			}
		case "replace":
			x, ok1 := strArg(0)
			y, ok2 := strArg(1)
			if ok1 && ok2 && len(a.pos) == 2 && x != "" {
				if n := strings.Count(s, x); len(s)+n*(len(y)-len(x)) <= pyMaxStr {
					return ev.strVal(strings.ReplaceAll(s, x, y), e.s, e.e)
				}
			}
		case "lower", "upper":
			// Python maps case fully (ß.upper() is SS, a final Σ lowers to ς), Go rune by rune:
			// past ASCII the value is not known here.
			for i := 0; i < len(s); i++ {
				if s[i] >= 0x80 {
					return ev.opaque(e)
				}
			}
			if name == "lower" {
				return ev.strVal(strings.ToLower(s), e.s, e.e)
			}
			return ev.strVal(strings.ToUpper(s), e.s, e.e)
		case "strip":
			if len(a.pos) == 0 {
				return ev.strVal(strings.TrimFunc(s, pyIsSpace), e.s, e.e)
			}
		case "lstrip":
			if len(a.pos) == 0 {
				return ev.strVal(strings.TrimLeftFunc(s, pyIsSpace), e.s, e.e)
			}
		case "rstrip":
			if len(a.pos) == 0 {
				return ev.strVal(strings.TrimRightFunc(s, pyIsSpace), e.s, e.e)
			}
		case "startswith", "endswith":
			if x, ok := strArg(0); ok && len(a.pos) == 1 {
				if name == "startswith" {
					return ev.boolVal(strings.HasPrefix(s, x), e.s, e.e)
				}
				return ev.boolVal(strings.HasSuffix(s, x), e.s, e.e)
			}
		case "split":
			if x, ok := strArg(0); ok && len(a.pos) == 1 && x != "" {
				var items []*pyVal
				for _, part := range strings.Split(s, x) {
					items = append(items, ev.strVal(part, e.s, e.e))
				}
				ev.grow(len(items))
				return ev.val(pyVal{k: pvList, list: &pyList{items: items}, s0: e.s, e0: e.e})
			}
		}
	}
	if (r.k == pvDict || r.k == pvList) && !pyReadOnlyMethods[name] {
		// A method not followed here (popitem, clear, insert, sort, extend by what is not
		// known, ...) may change its object.
		ev.spoil(r, e, map[any]bool{})
	}
	return ev.opaque(e)
}

// format is str.format with automatic, numbered and named fields, conversions and format
// specs (one level of nested fields in a spec, numbered after their field as
// Objects/stringlib/unicode_format.h does).
func (ev *pyEval) format(s string, a pyArgs, e *pyExpr) *pyVal {
	// The text is written into a buffer kept between calls (nothing in here formats another
	// string) and copied once into the block of computed strings.
	out := pyOut{b: ev.obuf[:0]}
	defer func() {
		if cap(out.b) <= 1<<16 {
			ev.obuf = out.b[:0]
		}
	}()
	auto := 0
	manual := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '}' {
			if i+1 >= len(s) || s[i+1] != '}' {
				return ev.opaque(e) // ValueError: Single '}' encountered in format string
			}
			i++
			out.byte('}')
			continue
		}
		if c != '{' {
			// The run of text up to the next brace, in one write.
			j := indexEither(s[i:], '{', '}')
			if j < 0 {
				j = len(s) - i
			}
			out.WriteString(s[i : i+j])
			i += j - 1
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			out.byte('{')
			i++
			continue
		}
		// The field ends at the '}' that pairs with its '{' (a spec may hold nested fields).
		j, depth := i+1, 1
		for ; j < len(s); j++ {
			if s[j] == '{' {
				depth++
			} else if s[j] == '}' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if j >= len(s) {
			return ev.opaque(e)
		}
		field := s[i+1 : j]
		i = j
		tail := ""
		if k := indexEither(field, '!', ':'); k >= 0 {
			field, tail = field[:k], field[k:]
		}
		// arg is the value of a field name; numbering automatic and manual fields together
		// is an error in Python.
		arg := func(field string) *pyVal {
			switch {
			case field == "":
				if auto >= len(a.pos) || manual {
					return nil
				}
				auto++
				return a.pos[auto-1]
			case field[0] >= '0' && field[0] <= '9':
				n, err := strconv.Atoi(field)
				if err != nil || n >= len(a.pos) || auto > 0 {
					return nil
				}
				manual = true
				return a.pos[n]
			}
			x, ok := a.get(field)
			if !ok {
				return nil
			}
			return x
		}
		v := arg(field)
		if v == nil {
			return ev.opaque(e)
		}
		if tail != "" {
			conv, spec, _, ok := pyConvSpec(tail)
			if !ok {
				return ev.opaque(e)
			}
			spec, ok = pyExpandSpec(spec, func(k, l int) (*pyVal, bool) {
				x := arg(spec[k:l])
				return x, x != nil
			})
			if !ok {
				return ev.opaque(e)
			}
			var buf [64]byte
			t, ok := appendPyFormat(buf[:0], v, conv, spec)
			if !ok {
				return ev.opaque(e)
			}
			out.Write(t)
		} else if v.k == pvStr {
			out.WriteString(v.s)
		} else {
			var num [32]byte // a number's text without a string of its own
			t, ok := appendPyStr(num[:0], v)
			if !ok {
				return ev.opaque(e)
			}
			out.Write(t)
		}
		if len(out.b) > pyMaxStr {
			return ev.opaque(e)
		}
	}
	return ev.strVal(ev.newStr(out.b), e.s, e.e)
}

// pyOut is a reusable buffer with the few writes format makes.
type pyOut struct{ b []byte }

func (o *pyOut) byte(c byte)          { o.b = append(o.b, c) }
func (o *pyOut) WriteString(s string) { o.b = append(o.b, s...) }
func (o *pyOut) Write(p []byte)       { o.b = append(o.b, p...) }

// parseArg is big_vision.configs.common.parse_arg (big_vision @0127fb6 configs/common.py:29)
// on a known argument string (None or "" give every spec default): "a=1,b" sets a to 1 and b
// to True; a lone value names a spec entry (then True) or is the first entry's value. Values
// convert as parse_arg does: by the default's type (bool strictly: true/false/""), or by the
// converter of a (default, int|float|str) tuple; with lazy=True keys outside the spec are
// auto-typed. What parse_arg refuses (an unknown key without lazy, a value its converter
// rejects) returns nil and why, in our words with Python's exception; a spec this reader cannot
// follow (a converter it does not know) returns nil and "": the call stays unknown. Converted
// values span the call.
func (ev *pyEval) parseArg(a pyArgs, e *pyExpr) (*pyDict, string) {
	arg := ""
	if a.pos[0].k == pvStr {
		arg = a.pos[0].s
	}
	lazy := false
	type entry struct {
		name string
		def  *pyVal
		conv string // "bool" (strict), "pybool" (bool()), "int", "float", "str", "none"; "" when unknown
		ks   [2]int
	}
	spec := make([]entry, 0, len(a.kw))
	for i, k := range a.kw {
		v := a.kwv[i]
		if k == "lazy" {
			lazy, _ = truth(v)
			continue
		}
		en := entry{name: k, def: v, ks: a.kwpos[i]}
		switch v.k {
		case pvTuple, pvList:
			if len(v.list.items) != 2 {
				return nil, ""
			}
			en.def = v.list.items[0]
			if t := v.list.items[1]; t.k == pvBuiltin && t.x == nil && (t.s == "int" || t.s == "float" || t.s == "str" || t.s == "bool") {
				en.conv = t.s
				if t.s == "bool" {
					en.conv = "pybool" // the converter itself: bool("false") is True
				}
			}
		case pvBool:
			en.conv = "bool"
		case pvInt:
			en.conv = "int"
		case pvFloat:
			en.conv = "float"
		case pvStr:
			en.conv = "str"
		case pvNone:
			en.conv = "none" // type(None) converts nothing
		}
		spec = append(spec, en)
	}
	if arg != "" && !strings.ContainsAny(arg, ",=") {
		in := len(spec) == 0
		for _, en := range spec {
			if en.name == arg {
				in = true
			}
		}
		if in {
			arg += "=True"
		} else {
			arg = spec[0].name + "=" + arg
		}
	}
	raw := map[string]string{}
	var order []string
	for _, part := range strings.Split(arg, ",") {
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			v = "True"
		}
		if _, seen := raw[k]; !seen {
			order = append(order, k)
		}
		raw[k] = v
	}
	d := ev.newDict(len(spec))
	for _, en := range spec {
		s, given := raw[en.name]
		delete(raw, en.name)
		if !given {
			d.set(ev.strVal(en.name, 0, 0), en.def, en.ks[0], en.ks[1])
			continue
		}
		v, why := convertArg(s, en.conv, e)
		if v == nil {
			if why != "" {
				why = "parse_arg refuses the config argument " + strconv.Quote(a.pos[0].s) + ": " + en.name + " " + why
			}
			return nil, why
		}
		d.set(ev.strVal(en.name, 0, 0), v, en.ks[0], en.ks[1])
	}
	var left []string
	for _, k := range order {
		s, ok := raw[k]
		if !ok {
			continue
		}
		if !lazy {
			left = append(left, pyRepr(k)+": "+pyRepr(s))
			continue
		}
		d.set(ev.strVal(k, 0, 0), autotypeArg(s, e), e.s, e.s)
	}
	if len(left) > 0 {
		// parse_arg raises ValueError(f'Unhandled config args remain: {raw_kv}').
		var names []string
		for _, en := range spec {
			names = append(names, en.name)
		}
		known := "it has no options"
		if len(names) > 0 {
			known = "its options are " + strings.Join(names, ", ")
		}
		return nil, "parse_arg refuses the config argument " + strconv.Quote(a.pos[0].s) + ": " + known +
			" (ValueError: Unhandled config args remain: {" + strings.Join(left, ", ") + "})"
	}
	return d, ""
}

// pyRepr is Python's repr of a str, as parse_arg's error messages show keys and values.
func pyRepr(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\' || r == rune(q):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x` + strconv.FormatInt(int64(r)|0x100, 16)[1:])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// convertArg converts a parse_arg value as the spec entry's converter does; a nil value comes
// with why the converter refuses it (after the option's name), or "" when conv is unknown.
func convertArg(s, conv string, e *pyExpr) (*pyVal, string) {
	switch conv {
	case "bool":
		// get_type_with_default's strict_bool: assert x.lower() in {'true', 'false', ''}.
		switch strings.ToLower(s) {
		case "true":
			return boolVal(true, e.s, e.e), ""
		case "false", "":
			return boolVal(false, e.s, e.e), ""
		}
		return nil, "takes true, false or nothing (AssertionError in strict_bool)"
	case "pybool":
		return boolVal(s != "", e.s, e.e), ""
	case "int":
		if i, err := strconv.ParseInt(strings.TrimSpace(strings.ReplaceAll(s, "_", "")), 10, 64); err == nil {
			return intVal(i, e.s, e.e), ""
		}
		return nil, "takes an int (ValueError: invalid literal for int() with base 10: " + pyRepr(s) + ")"
	case "float":
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
			return floatVal(f, e.s, e.e), ""
		}
		return nil, "takes a float (ValueError: could not convert string to float: " + pyRepr(s) + ")"
	case "str":
		return strVal(s, e.s, e.e), ""
	case "none":
		return nil, "takes no value: its default is None (TypeError: NoneType takes no arguments)"
	}
	return nil, ""
}

// autotypeArg is parse_arg's autotype: bool, int, float, else the string.
func autotypeArg(s string, e *pyExpr) *pyVal {
	switch strings.ToLower(s) {
	case "true":
		return boolVal(true, e.s, e.e)
	case "false":
		return boolVal(false, e.s, e.e)
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return intVal(i, e.s, e.e)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return floatVal(f, e.s, e.e)
	}
	return strVal(s, e.s, e.e)
}

// pyFloatDivmod is CPython's floor division and modulo of floats (floatobject.c,
// float_divmod): the remainder is fmod's, moved to the divisor's sign, and the quotient is
// computed from it, so 1.0 // 0.1 is 9.0, not the floor of 1.0 / 0.1 (10.0).
func pyFloatDivmod(x, y float64) (div, mod float64) {
	mod = math.Mod(x, y)
	d := (x - mod) / y
	if mod != 0 {
		if (y < 0) != (mod < 0) {
			mod += y
			d--
		}
	} else {
		mod = math.Copysign(0, y)
	}
	if d == 0 {
		return math.Copysign(0, x/y), mod
	}
	div = math.Floor(d)
	if d-div > 0.5 {
		div++
	}
	return div, mod
}

// pyFloatPow is x ** y for floats. An integer exponent (up to 64 either way) is computed in
// double-double arithmetic and rounded once, as C's pow rounds (Go's math.Pow can be an ulp
// off: (-1e-4) ** 3). ok is false for another exponent: CPython calls the C library's pow,
// which is not correctly rounded everywhere (glibc's within 0.52 ulp: 0.99 ** 0.8 is
// 0.9919919678228657 there and 0.9919919678228656 from math.Pow, and even x ** 0.5 differs
// from the square root for about one x in a thousand), so its last bit is the platform's.
// math/big would do it too, but the light WebAssembly module does not link it.
func pyFloatPow(x, y float64) (float64, bool) {
	if y == 0 || x == 1 {
		return 1, true
	}
	if y != math.Trunc(y) || math.Abs(y) > 64 {
		return 0, false
	}
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Pow(x, y), true // 0, ±inf or nan: exact
	}
	// mul multiplies double-doubles: the product's rounded value and its error (FMA).
	mul := func(ah, al, bh, bl float64) (float64, float64) {
		p := ah * bh
		e := math.FMA(ah, bh, -p) + (ah*bl + al*bh)
		h := p + e
		return h, e - (h - p)
	}
	rh, rl, bh, bl := 1.0, 0.0, x, 0.0
	for n := int(math.Abs(y)); n > 0; n >>= 1 {
		if n&1 == 1 {
			rh, rl = mul(rh, rl, bh, bl)
		}
		bh, bl = mul(bh, bl, bh, bl)
	}
	if math.IsInf(rh, 0) || math.IsNaN(rh) || math.IsNaN(rl) || rh == 0 {
		return 0, false // past the range of float64 on the way
	}
	if y > 0 {
		return rh, true
	}
	q := 1 / rh // 1 / (rh + rl), corrected by the remainder
	return q + (-math.FMA(q, rh, -1)-q*rl)/rh, true
}

// repeatOver reports whether size repeated n times (a sequence times an int, n >= 0) is more
// than max, without computing the product, which overflows for counts such as 2**62.
func repeatOver(size int, n, max int64) bool {
	return size > 0 && n > max/int64(size)
}

// setOf is the set of items (a set display, a set comprehension, set() or frozenset()): each
// item once, as Python's hash and equality tell them apart (1, 1.0 and True are one item), or
// unknown when an item is not a scalar this reader can hash.
func (ev *pyEval) setOf(items []*pyVal, e *pyExpr) *pyVal {
	var out []*pyVal
	seen := map[pyKey]bool{}
	for _, it := range items {
		if !hashable(it) {
			return ev.opaque(e)
		}
		k := pyKeyOf(it)
		if !seen[k] {
			seen[k] = true
			out = append(out, it)
		}
	}
	return ev.val(pyVal{k: pvList, list: &pyList{items: out, like: likeSet}, s0: e.s, e0: e.e})
}

// baseVarSet reports `{{_base_.x}}`, which MMEngine replaces before the file runs
// (Config._pre_substitute_base_vars) and Python would read as a set holding a set: it stays a
// sequence holding a sequence, which composition substitutes (compose.baseRef).
func (ev *pyEval) baseVarSet(e *pyExpr) bool {
	if e.kids.n != 1 || e.e-e.s < 4 || string(ev.src[e.s:e.s+2]) != "{{" {
		return false
	}
	in := ev.kid(e, 0)
	return in.op == xSet && in.kids.n == 1
}

// zipEnumerate is zip(*iterables, strict=False) or enumerate(iterable, start=0): an iterator
// of their tuples (likeIter). Unknown when an iterable's items are not known,
// strict=True meets lengths that differ (ValueError), or an argument is not of the kind Python
// takes.
func (ev *pyEval) zipEnumerate(name string, a pyArgs, e *pyExpr) *pyVal {
	var seqs [][]*pyVal
	start := int64(0)
	if name == "enumerate" {
		if len(a.pos) == 0 || len(a.pos) > 2 {
			return ev.opaque(e)
		}
		if len(a.pos) == 2 {
			if a.pos[1].k != pvInt {
				return ev.opaque(e)
			}
			start = a.pos[1].i
		}
		for i, k := range a.kw {
			if k != "start" || len(a.pos) == 2 || a.kwv[i].k != pvInt {
				return ev.opaque(e)
			}
			start = a.kwv[i].i
		}
		xs, ok := ev.iterate(a.pos[0])
		if !ok {
			return ev.opaque(e)
		}
		seqs = append(seqs, xs)
	} else {
		strict := false
		for i, k := range a.kw {
			b, ok := truth(a.kwv[i])
			if k != "strict" || !ok {
				return ev.opaque(e)
			}
			strict = b
		}
		for _, p := range a.pos {
			xs, ok := ev.iterate(p)
			if !ok {
				return ev.opaque(e)
			}
			seqs = append(seqs, xs)
		}
		for _, xs := range seqs {
			if strict && len(xs) != len(seqs[0]) {
				return ev.opaque(e)
			}
		}
	}
	n := -1
	for _, xs := range seqs {
		if n < 0 || len(xs) < n {
			n = len(xs)
		}
	}
	items := make([]*pyVal, 0, max(n, 0))
	for i := 0; i < n; i++ {
		ev.step()
		var t []*pyVal
		if name == "enumerate" {
			t = []*pyVal{ev.intVal(start+int64(i), e.s, e.e), seqs[0][i]}
		} else {
			t = make([]*pyVal, len(seqs))
			for j, xs := range seqs {
				t[j] = xs[i]
			}
		}
		items = append(items, ev.val(pyVal{k: pvTuple, list: &pyList{items: t}, s0: e.s, e0: e.e}))
	}
	ev.grow(len(items))
	return ev.val(pyVal{k: pvList, list: &pyList{items: items, like: likeIter}, s0: e.s, e0: e.e})
}
