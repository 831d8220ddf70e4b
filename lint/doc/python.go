package doc

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The Python front-end: a parser of ours (pyparse.go; no served pure-Go library parses the
// corpus, see the package documentation) and a static evaluator (pyeval.go). The Document's
// root is
//
//   - what `get_config()` returns when the file defines it (ml_collections: big_vision, scenic),
//     called with its parameters' defaults, or with Options.ConfigArg (`--config f.py:ARG`);
//     root Style "get_config"; no tree when what it returns is unknown (a call the evaluator
//     does not model), so no rule guesses; an argument big_vision's parse_arg refuses is a
//     Refused problem at the parse_arg call, saying why (Python raises there), and no tree.
//     The commonest such call is a function of another module of the repository (scenic's
//     `config = get_coco_config()` from the project's configs/common.py; 18 of the 24
//     get_config files without a tree among the 188 of scenic's tree, 2026-12). Read alone,
//     its value is unknown; the call is recorded (Document.Calls, moduleCall) when its
//     arguments are scalars, and composition reads the function from the tree
//     (Options.Call) and the file again with what it returned as its bases, the caller's
//     changes to it becoming BaseEdits (lint/compose/code_calls.go). Of those 18, 17 are
//     followed (the other passes get_config's own required argument, unknown statically);
//   - with Options.Call, what that function of the module returns for those arguments (style
//     "get_config" too; no tree when the module does not define it);
//   - otherwise the module's variables in order of first assignment (MMEngine configs: `model`,
//     `train_dataloader`, `_base_`, ...), leaving out modules, functions and imported names;
//     root Style "module".
//
// Spans: a value's Span is the expression that made it (the literal `4096` in
// `config.input.batch_size = 4096`, the `dict(...)` call of a section); a key's KeySpan is the
// attribute name, the keyword of `dict(k=...)`, the key of a `{...}` display, or the variable.
// Values the evaluator cannot know are Unknown scalars with Style "opaque" and their source text.

func parsePython(d *Document, lim Limits, configArg string, bases *Node, imports []Import, call *ModuleCall) {
	base := 0
	if HasBOM(d.Src) {
		base = 3
	}
	arena := getPyArena()
	defer arena.release()
	scr := getPyScratch()
	defer scr.release()
	tx := &arena.tx
	// The parser pulls its tokens from the lexer, which finds the line starts as it goes (no
	// second scan for the line index).
	stmts, cms, starts, lerr, perr := pyParseFile(d.Src, base, lim.MaxDepth, arena, scr.lines, d.lines == nil)
	if cap(starts) > cap(scr.lines) && cap(starts) <= 1<<14 {
		scr.lines = starts[:0] // line starts hold no pointers: nothing to clear
	}
	if lerr == nil && d.lines == nil {
		d.lines = newLineIndexStarts(d.Src, starts, d.allASCII)
	}
	x := d.Lines()
	text := tx.s
	if cap(cms) > cap(arena.cms) && cap(cms) <= 1<<14 {
		arena.cms = cms[:0] // comment ranges hold no pointers: nothing to clear
	}
	d.Comments = pyComments(x, d.Src, cms, text, base)
	if lerr != nil {
		d.addCodeError("python: ", lerr)
		return
	}
	if perr != nil {
		d.addCodeError("", perr)
		return
	}
	ev := &pyEval{}
	// The evaluator's byte buffers come from the pooled scratch and go back to it (bytes
	// only: every string made from them is a copy).
	defer scr.keepBufs(ev)
	var result *pyVal
	var env *pyEnv
	style := "module"
	for scalars := false; ; scalars = true {
		*ev = pyEval{src: d.Src, tx: tx, max: pyMaxSteps, maxSize: lim.MaxNodes, refs: &d.Refs, lines: x, arena: arena,
			noBase: !pyAssignsBase(arena, stmts, tx), bases: bases, imports: imports, baseScalars: scalars}
		ev.lazy = ev.noBase && bases != nil
		if ev.followsBases() {
			ev.module = stmts
		}
		ev.fbuf, ev.obuf, ev.ftext = scr.fbuf[:0], scr.obuf[:0], scr.ftext[:0]
		ev.predef = mmPredefined(arena, stmts, d.Path, tx)
		if n := pyImportCount(arena, stmts); n > 0 && d.Refs == nil {
			d.Refs = make([]FileRef, 0, n) // the module's imports become Refs: room for them at once
		}
		env = &arena.envs.take(1)[:1][0] // the module's scope dies with the arena, as the values do
		*env = pyEnv{}
		if n := int(stmts.n) + 4; n <= 128 {
			// Room for the module's names (about one per statement), so the scope seldom grows.
			env.names, env.vals = arena.argn.take(n), arena.argv.take(n)
		}
		result, style = nil, "module"
		stop := func() (stopped bool) {
			defer func() {
				if r := recover(); r != nil {
					s, ok := r.(pyLimitStop)
					if !ok {
						panic(r)
					}
					d.Problems = append(d.Problems, Problem{Kind: LimitExceeded,
						Message: limitMessage("python: "+s.msg, s.key), Span: x.Span(base, base)})
					stopped = true
				}
			}()
			var ret *pyVal
			ev.exec(stmts, env, &ret)
			fname := "get_config"
			if call != nil {
				fname = call.Func
			}
			if g, ok := env.lookup(fname); ok && g.k == pvFunc {
				style = "get_config"
				x := &pyExpr{op: xCall, s: g.s0, e: g.e0}
				args := pyArgs{ok: true}
				switch {
				case call != nil:
					// Composition asks what the function returns for a caller's arguments (its
					// Document.Calls): they span the definition, as a config argument does.
					// Given among the bases (under "_arg_N_"), an argument is a part of them:
					// left as it is, composition puts the caller's node there.
					for i, n := range call.Args {
						var v *pyVal
						if k := "_arg_" + itoa(i) + "_"; bases != nil && bases.Get(k) != nil {
							v = ev.val(pyVal{k: pvOpaque, s: "_base_." + k, s0: g.s0, e0: g.s0})
						} else if v = ev.baseScalar(&Node{Kind: Scalar, Type: n.Type, Value: n.Value}, g.s0, g.s0); v == nil {
							v = ev.val(pyVal{k: pvOpaque, s0: g.s0, e0: g.s0})
						}
						if n.Key == "" {
							args.pos = append(args.pos, v)
							continue
						}
						args.kw = append(args.kw, n.Key)
						args.kwKey = append(args.kwKey, ev.strVal(n.Key, g.s0, g.s0))
						args.kwv = append(args.kwv, v)
						args.kwpos = append(args.kwpos, [2]int{g.s0, g.s0})
					}
				case configArg != "" && len(g.fn.params) > 0 && g.fn.params[0].star == 0:
					// ml_collections' config_flags passes the text after the file's colon as the
					// one argument; it spans the definition (it is written on the command line).
					args.pos = []*pyVal{strVal(configArg, g.s0, g.s0)}
				}
				ev.calls = &d.Calls
				result = ev.callFunc(g, args, x)
				ev.calls = nil
				d.Calls = finishCalls(d.Calls)
			}
			return false
		}()
		if stop {
			return
		}
		if len(ev.baseObjs) == 0 || ev.baseFinish() {
			break
		}
		// An edit after a read of a container of the bases may have changed what the read
		// took: run the file again with containers of the bases unknown (a rare case; the
		// syntax tree is kept).
		scr.keepBufs(ev)
		if d.Refs != nil {
			d.Refs = d.Refs[:0]
		}
		d.Calls = nil
	}
	if r := ev.refused; r != nil {
		// Python raises at the parse_arg call: there is no config to read.
		d.Problems = append(d.Problems, Problem{Kind: Refused, Message: r.msg, Span: x.Span(r.s, r.e)})
		return
	}
	if call != nil && style != "get_config" {
		return // the module has no such function: nothing to read
	}
	rootBase := ""
	if style == "get_config" {
		d.MainBlock = pyMainBlock(ev, stmts, env)
		if result != nil && bases != nil {
			if p, exact, _ := basePathOf(result); exact && strings.HasPrefix(p, "_call_") {
				// What another module's function returned, as the file left it (moduleCall):
				// composition puts it, with the file's edits applied, at the run's root.
				rootBase = p
			}
		}
		if rootBase == "" && (result == nil || result.k != pvDict || result.dict.partial) {
			// get_config returns what this reader cannot know (a call it does not model): no
			// tree, so no rule takes the missing keys for defaults.
			return
		}
		// ml_collections' ConfigDict(...) made it (pyDict.mlc), not a plain dict.
		d.ConfigDict = rootBase == "" && result.dict.mlc()
	}
	// The builder goes on writing into the evaluator's block of computed strings (the
	// evaluator is done).
	// Values shared by reference (a dict placed in two keys, doubled thirty times in a loop)
	// make a node per place: like a YAML file's aliases, a file may expand to its size in bytes
	// plus a twentieth of MaxNodes (aliasBudget), so memory stays bounded by the file's size.
	budget := min(lim.MaxNodes, aliasBudget(len(d.Src), lim))
	b := &pyBuilder{d: d, x: x, lf: scr.newLineFinder(x), budget: budget, maxDepth: lim.MaxDepth, predef: ev.predef, text: text, base: base, strs: ev.strs, vars: scr.vars[:0], lazy: ev.lazy, baseOf: ev.baseOf, callee: call != nil}
	defer func() {
		if cap(b.vars) <= 1<<12 {
			scr.vars = b.vars[:0] // offsets hold no pointers: nothing to clear
		}
	}()
	if pyTreeHook != nil {
		// What the builds need, copied here: a closure that captured parsePython's own
		// variables would move them to the heap for every file.
		start, st, res, en, ed := *b, style, result, env, ev.baseEdits
		start.vars, start.strs = nil, pyStrs{} // blocks of its own: b's stay b's
		pyTreeHook(func() bool {
			c := start
			return c.tree(st, res, en, ed) != nil
		})
	}
	if style == "module" && pyDefinesCode(arena, stmts, d.Src) {

		style = "library"
	}
	d.Assignments = style == "module" && pyOnlyAssignments(arena, stmts)
	root := b.tree(style, result, env, ev.baseEdits)
	if b.over {
		d.Problems = append(d.Problems, Problem{Kind: LimitExceeded,
			Message: limitMessage("python: the evaluated config has more than "+itoa(budget)+" values"+expandBudgetNote(budget, lim)+" or is nested deeper than "+itoa(lim.MaxDepth)+" levels", "max_nodes"), Span: x.Span(base, base)})
		return
	}
	d.Root = root
	d.RootBase = rootBase
	if style == "module" {
		for i, name := range env.names {
			if v := env.vals[i]; v.k == pvModule {
				d.Imports = append(d.Imports, Import{Name: name, Path: v.s})
			}
		}
	}
	d.BaseEdits = b.edits // a module's bases, or what other modules' functions returned
	d.ReadsBases = ev.readsBases
}

// pyTreeHook, when set (BenchmarkPythonTree), is handed a function that builds the file's tree
// again from its evaluated values, before the tree is built for the Document: a benchmark of
// the builder alone.
var pyTreeHook func(build func() bool)

// tree builds the Document's root from the evaluated config: what get_config returned
// (style "get_config") or the module's variables (style "module"); nil when a limit is passed
// (b.over).
func (b *pyBuilder) tree(style string, result *pyVal, env *pyEnv, edits []pyBaseEdit) *Node {
	// The Document's own blocks of nodes and child-list slots, sized from a count of the
	// values (every node but the root takes one slot). Blocks shared with other files' trees
	// would chain every tree ever read into the live heap: a block stays alive while any of
	// its nodes is reachable, and its nodes point at their parents in the block before
	// (measured: 400 KB a pass over the corpus kept alive).
	total := 0
	if style == "get_config" {
		total += countValues(result, 4096)
	} else {
		for _, v := range env.vals {
			if total < 4096 {
				total += countValues(v, 4096-total)
			}
		}
	}
	for _, e := range edits {
		if total < 4096 {
			total += countValues(e.v, 4096-total)
		}
	}
	b.alloc.reserve(total+1, total)
	root := b.alloc.new()
	root.Kind, root.Style, root.Span = Map, style, b.x.Span(b.base, len(b.d.Src))
	if style == "get_config" {
		if result.k == pvDict {
			// FieldReferences show their values in get_config's own ConfigDict (pyrefs.go),
			// not in a function read for another module, whose caller may set them.
			b.refs = result.dict.cfg && !b.callee
			b.fill(root, result.dict, 0, nil)
			b.refs = false
		} // else what another module's function returned (Document.RootBase): no children
	} else {
		root.Children = b.alloc.children(len(env.names))
		for i, name := range env.names {
			v := env.vals[i]
			switch v.k {
			case pvModule, pvFunc, pvBuiltin:
				continue
			case pvOpaque:
				if b.lazy && strings.HasPrefix(v.s, "_base_.") && v.s[len("_base_."):] == name {
					continue // a name imported from the bases, as imported: the bases' own
				}
			}
			ks := b.keySpan(name, v)
			n := b.node(v, 1, nil, root, len(root.Children))
			if n == nil {
				break
			}
			n.Key = name
			n.KeySpan = ks
			root.Children = append(root.Children, n)
		}
	}
	for _, e := range edits {
		if b.over {
			break
		}
		// A detached value (no parent): composition puts a copy of it into the bases.
		n := b.node(e.v, 1, nil, nil, 0)
		if n == nil {
			break
		}
		n.Key = lastPathPart(e.path)
		n.KeySpan = b.lf.span(e.ks, e.ke)
		b.edits = append(b.edits, BaseEdit{Path: e.path, Value: n, Span: b.lf.span(e.s, e.e), Order: e.at, Merge: e.merge, InPlace: e.inPlace, Delete: e.del, IfPresent: e.ifPresent, MayDelete: e.mayDel})
	}
	if b.over {
		return nil
	}
	return root
}

type pyBuilder struct {
	d        *Document
	x        *LineIndex
	budget   int
	maxDepth int
	over     bool
	// The lines that start with `name =` or `name:` (the name's offsets), for KeySpans of
	// module variables, found when first needed (in the pooled scratch list); with many of
	// them, the first of each name in varSpans.
	varsFound bool
	vars      [][2]int32
	varSpans  map[string][2]int32
	alloc     nodeAlloc
	lf        lineFinder
	predef    *pyPredef // MMEngine's predefined variables were rewritten in string literals
	text      string    // the lexer's copy of Src[base:]: a literal's Value is a slice of it
	base      int
	strs      pyStrs    // where computed numbers' texts are written (the evaluator's block, taken over)
	lists     []*pyList // the lists being built, outermost first (a list inside itself is opaque)
	edits     []BaseEdit
	lazy      bool // a new-style config read with its bases (pyEval.lazy)
	baseOf    map[*pyVal]string
	callee    bool // the file is read as another module's function (Options.Call)
	refs      bool // FieldReferences in dicts (not lists) show their values (pyrefs.go)
}

// lastPathPart is the last part of a dotted path.
func lastPathPart(p string) string {
	return p[strings.LastIndexByte(p, '.')+1:]
}

// keySpan locates a module variable: the first `name =` at the start of a line (found lazily).
func (b *pyBuilder) keySpan(name string, v *pyVal) Span {
	if !b.varsFound {
		b.varsFound = true
		src := b.d.Src
		// Line starts only: from one to the next by a vectorised search.
		for i, next := 0, 0; i < len(src); i = next {
			next = len(src)
			if nl := bytes.IndexByte(src[i:], '\n'); nl >= 0 {
				next = i + nl + 1
			}
			j := i
			for j < len(src) && (isPyIdentStart(src[j]) || j > i && src[j] >= '0' && src[j] <= '9') {
				j++
			}
			if j == i {
				continue
			}
			k := j
			for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
				k++
			}
			if k < len(src) && (src[k] == '=' && (k+1 >= len(src) || src[k+1] != '=') || src[k] == ':') {
				b.vars = append(b.vars, [2]int32{int32(i), int32(j)})
			}
		}
		if len(b.vars) > 32 {
			// Many lines to search for each variable: a map of the first of each name.
			b.varSpans = make(map[string][2]int32, len(b.vars))
			for _, r := range b.vars {
				n := b.text[int(r[0])-b.base : int(r[1])-b.base] // a name never starts inside a BOM
				if _, ok := b.varSpans[n]; !ok {
					b.varSpans[n] = r
				}
			}
		}
	}
	if b.varSpans != nil {
		if r, ok := b.varSpans[name]; ok {
			return b.lf.span(int(r[0]), int(r[1]))
		}
	} else {
		for _, r := range b.vars {
			if int(r[1]-r[0]) == len(name) && b.text[int(r[0])-b.base:int(r[1])-b.base] == name {
				return b.lf.span(int(r[0]), int(r[1]))
			}
		}
	}
	return b.lf.span(v.s0, v.s0)
}

// pyImportCount is about how many Refs the imports among stmts make (outside functions):
// room to reserve, not a count anything relies on.
func pyImportCount(a *pyArena, stmts pyIds) int {
	n := 0
	for _, id := range a.ids(stmts) {
		st := a.st(id)
		switch st.kind {
		case sImport:
			n += len(a.more(st).names)
		case sFrom:
			n++
		case sDef:
			continue
		}
		n += pyImportCount(a, st.body) + pyImportCount(a, st.orelse)
		for _, x := range a.more(st).extra {
			n += pyImportCount(a, x)
		}
	}
	return n
}

// countValues is how many nodes v makes (dicts, lists and scalars), counting no further than
// limit: the builder takes one block of nodes for them (a dict that contains itself only runs
// into the limit).
func countValues(v *pyVal, limit int) int {
	n := 1
	switch v.k {
	case pvList, pvTuple:
		for _, it := range v.list.items {
			if n >= limit {
				break
			}
			if it.k != pvList && it.k != pvTuple && it.k != pvDict {
				n++ // a scalar: one node, no call
				continue
			}
			n += countValues(it, limit-n)
		}
	case pvDict:
		for i := range v.dict.ents {
			if n >= limit {
				break
			}
			if it := v.dict.ents[i].v; it.k != pvList && it.k != pvTuple && it.k != pvDict {
				n++
				continue
			}
			n += countValues(v.dict.ents[i].v, limit-n)
		}
	}
	return n
}

func (b *pyBuilder) fill(n *Node, d *pyDict, depth int, path []*pyDict) {
	n.Children = b.alloc.children(len(d.ents))
	// The path below d, made once for all its entries (appended to by deeper dicts in place
	// when there is room: each call reads only its own path[:len]).
	path = append(path, d)
	for i := range d.ents {
		en := &d.ents[i]
		key, ok := pyStr(en.k)
		if !ok {
			continue
		}
		// The key before its value: the line cursor then mostly steps forward.
		ks := b.lf.span(en.ks, en.ke)
		c := b.node(en.v, depth+1, path, n, len(n.Children))
		if c == nil {
			return
		}
		c.Key = key
		c.KeySpan = ks
		n.Children = append(n.Children, c)
	}
}

// node turns a value into a Node, the index-th child of parent at the given depth (nil when a
// limit is passed). Parent, depth and Index are set here.
func (b *pyBuilder) node(v *pyVal, depth int, path []*pyDict, parent *Node, index int) *Node {
	b.budget--
	if b.budget < 0 || depth > b.maxDepth {
		b.over = true
		return nil
	}
	n := b.alloc.new()
	n.Parent, n.depth, n.Index = parent, uint16(depth), index
	n.Span = b.lf.span(v.s0, v.e0)
	if b.baseOf != nil {
		if p, ok := b.baseOf[v]; ok {
			// Taken from the bases and left as it was (baseFinish): named as a part of them.
			n.Kind, n.Type, n.Style, n.Value = Scalar, Unknown, "opaque", "_base_."+p
			return n
		}
	}
	if r := refOf(v); r != nil && b.refs && len(b.lists) == 0 {
		if w := r.value(); w != nil {
			// Its value, placed where the reference is made or taken: FieldReference(512) and
			// config.get_ref('lr') are not written as their values (Style "python" below); a
			// field get_ref turned into a reference keeps its literal.
			x := *w
			x.s0, x.e0 = v.s0, v.e0
			v = &x
		}
	}
	switch v.k {
	case pvNone:
		n.Kind, n.Type, n.Value, n.Style = Scalar, Null, "null", "plain"
	case pvBool:
		n.Kind, n.Type, n.Style = Scalar, Bool, "plain"
		n.Value = strconv.FormatBool(v.b)
	case pvInt:
		n.Kind, n.Type, n.Style = Scalar, Int, "plain"
		var buf [24]byte
		f := strconv.AppendInt(buf[:0], v.i, 10)
		if v.s0 >= b.base && v.e0 <= len(b.d.Src) && string(b.d.Src[v.s0:v.e0]) == string(f) {
			n.Value = b.text[v.s0-b.base : v.e0-b.base] // written as its value: no new string
		} else {
			n.Value = b.strs.newStr(f)
		}
	case pvFloat:
		n.Kind, n.Type, n.Style = Scalar, Float, "plain"
		var buf [32]byte
		n.Value = b.strs.newStr(appendPyFloatRepr(buf[:0], v.f))
	case pvStr:
		n.Kind, n.Type, n.Style, n.Quoted = Scalar, String, "single", true
		if t := b.d.Src[v.s0:v.e0]; len(t) < 2 || t[0] != t[len(t)-1] || (t[0] != '"' && t[0] != '\'') || b.predef.predefIn(t) {
			// Computed (a + b, .format(), an f-string, a rewritten {{fileBasename}}) or
			// prefixed (r'...'): not a plain literal.
			n.Style = "python"
		} else if t[0] == '"' {
			n.Style = "double"
		}
		n.Value = v.s
	case pvList, pvTuple:
		if v.list.like == likePartial || v.list.like == likeSet || v.list.like == likeIter {
			return b.opaque(n, v) // changed in ways not followed, a set (its order is not known) or an iterator
		}
		for _, l := range b.lists {
			if l == v.list {
				// A list that contains itself (a.append(a)): unknown, as a dict that does.
				return b.opaque(n, v)
			}
		}
		n.Kind, n.Style = Seq, "flow"
		switch {
		case v.list.like != likeList:
			n.Style = "python" // a range or a view: not a list
		case v.k == pvTuple:
			n.Style = "tuple"
		case v.e0 <= v.s0 || b.d.Src[v.s0] != '[' || b.d.Src[v.e0-1] != ']':
			n.Style = "list" // a list computed ([1] * 2, a + b): not a bracketed list as written
		}
		n.Children = b.alloc.children(len(v.list.items))
		b.lists = append(b.lists, v.list)
		for _, it := range v.list.items {
			c := b.node(it, depth+1, path, n, len(n.Children))
			if c == nil {
				return nil
			}
			n.Children = append(n.Children, c)
		}
		b.lists = b.lists[:len(b.lists)-1]
	case pvDict:
		if v.dict.partial {
			return b.opaque(n, v)
		}
		for _, p := range path {
			if p == v.dict {
				// A dict that contains itself: show the cycle as unknown.
				return b.opaque(n, v)
			}
		}
		n.Kind, n.Style = Map, "python"
		b.fill(n, v.dict, depth, path)
		if b.over {
			return nil
		}
	case pvModule:
		// An imported name (new-style MMEngine `type=RetinaNet`): unknown, named by its path.
		n.Kind, n.Type, n.Style, n.Value = Scalar, Unknown, "reference", v.s
		return n
	default:
		return b.opaque(n, v)
	}
	if n.Kind == Scalar && n.Type != String && (v.e0 > len(b.d.Src) || string(b.d.Src[v.s0:v.e0]) != n.Value) {
		// True/False/None and computed values (4 * 1024) are not written as their Value.
		n.Style = "python"
	}
	return n
}

func (b *pyBuilder) opaque(n *Node, v *pyVal) *Node {
	n.Kind, n.Type, n.Style = Scalar, Unknown, "opaque"
	if v.s != "" {
		// A part of the bases (basePart), named by its path whatever the text that reached it
		// (`m.neck` after `m = _base_.model`): composition reads it from the bases.
		n.Value = v.s
		return n
	}
	if v.e0 > v.s0 && v.e0 <= len(b.d.Src) {
		if v.e0-v.s0 > 120 {
			n.Value = string(b.d.Src[v.s0:v.s0+120]) + "…"
		} else if v.s0 >= b.base {
			n.Value = b.text[v.s0-b.base : v.e0-b.base] // a slice of the lexer's copy: no new string
		} else {
			n.Value = string(b.d.Src[v.s0:v.e0])
		}
	}
	return n
}

// IsPythonConfig reports whether a parsed Python document looks like a training config (so a
// folder walk lints it): it defines get_config, names MMEngine bases, or has a module variable
// that is a dict. Scripts, modules of helpers and tests are skipped quietly. (A get_config
// whose value comes from another module's function has no tree alone and is not one here: its
// run lists it when composition reads it, lint.RunFile.) A module that parses the command line
// is a script, whatever it names: BIDL's tools/apuinfer_mutidevice.py binds _base_ to the
// folder of a compiled model, and a config loader that ran such a file would read its own
// command line's flags as the script's.
func IsPythonConfig(d *Document) bool {
	if d == nil || d.Format != Python || ParsesArgs(d.Src) {
		return false
	}
	if d.HasRef("base") {
		return true
	}
	if d.Root == nil {
		// Unreadable: report it when it reads like a config, so a broken config is not skipped.
		return len(d.Problems) > 0 && unreadableConfig(d.Src)
	}
	if d.Root.Style == "get_config" {
		return !d.MainBlock
	}
	if d.Root.Style == "library" && d.Root.Get("_base_") == nil {
		return false
	}
	for _, c := range d.Root.Children {
		if c.Key == "_base_" || c.Kind == Map {
			return true
		}
	}
	return false
}

// IsExecConfig reports whether a parsed Python module is a file of settings that a script of
// its repository execs into its own globals: only assignments to plain names
// (Document.Assignments), at least half of them names that such a script assigns before it
// execs its configurator (globals: lint.Options.ExecGlobals). nanoGPT's configurator.py execs
// each file named on train.py's command line (`exec(open(config_file).read())`,
// configurator.py:28 at karpathy/nanoGPT 3adf61e), and train.py execs configurator.py right
// after its own defaults (train.py:35-77), so such a file sets train.py's globals: its
// config/train_gpt2.py sets 12 names, all of them train.py's. A module of constants beside it
// (utils/const.py's IGNORE_LABEL_ID) names none of them, and stays a module.
func IsExecConfig(d *Document, globals map[string]bool) bool {
	if d == nil || d.Format != Python || !d.Assignments || d.Root == nil || len(globals) == 0 {
		return false
	}
	seen, in := map[string]bool{}, 0
	for _, c := range d.Root.Children {
		if !seen[c.Key] {
			seen[c.Key] = true
			if globals[c.Key] {
				in++
			}
		}
	}
	return in > 0 && 2*in >= len(seen)
}

// pyOnlyAssignments reports whether a module's top level is only assignments of values to
// plain names, docstrings and imports of math, os and time (Document.Assignments).
// nanoGPT's config/finetune_shakespeare.py imports time for its run name (`wandb_run_name =
// 'ft-' + str(time.time())`).
func pyOnlyAssignments(a *pyArena, stmts pyIds) bool {
	n := 0
	for _, id := range a.ids(stmts) {
		st := a.st(id)
		switch st.kind {
		case sAssign:
			for _, t := range a.ids(st.targets) {
				if a.ex(t).op != xName {
					return false
				}
			}
			n++
		case sExpr:
			if st.value == 0 || a.ex(st.value).op != xStr {
				return false
			}
		case sImport:
			x := a.more(st)
			for i, m := range x.names {
				if m != "math" && m != "os" && m != "time" || x.alias[i] != "" {
					return false
				}
			}
		default:
			return false
		}
	}
	return n > 0
}

// unreadableConfig reports whether a file that does not parse reads like a config, judged
// line by line: it defines get_config, assigns _base_ or opens read_base() at its top level,
// or names ConfigDict without defining a class or a function of its own. A library or a test
// with a syntax error (scenic's avatar/generation_trainer.py, whose functions take a
// ConfigDict; Dopamine's collector_test.py, which reads an attribute named _base_dir) is no
// broken config, and stays quiet in a walk as it would if it parsed.
func unreadableConfig(src []byte) bool {
	code := false // a top-level class or function other than get_config
	for line := range bytes.Lines(src) {
		switch {
		case hasWordPrefix(line, "def") && bytes.HasPrefix(bytes.TrimLeft(line[3:], " \t"), []byte("get_config")):
			return true
		case bytes.HasPrefix(line, []byte("_base_")) && bytes.HasPrefix(bytes.TrimLeft(line[6:], " \t"), []byte("=")),
			hasWordPrefix(line, "with") && bytes.Contains(line, []byte("read_base()")):
			return true
		case hasWordPrefix(line, "def"), hasWordPrefix(line, "class"), hasWordPrefix(line, "async"):
			code = true
		}
	}
	return !code && hasPyWord(src, "ConfigDict")
}

// ParsesArgs reports a call of argparse's parse_args or parse_known_args in src: a script, not a
// config (IsPythonConfig).
func ParsesArgs(src []byte) bool {
	return bytes.Contains(src, []byte(".parse_args(")) || bytes.Contains(src, []byte(".parse_known_args("))
}

// hasPyWord reports whether w occurs in src as a whole name (no name byte either side).
func hasPyWord(src []byte, w string) bool {
	for i := 0; i < len(src); {
		j := bytes.Index(src[i:], []byte(w))
		if j < 0 {
			return false
		}
		s, e := i+j, i+j+len(w)
		if (s == 0 || pyIdentByte[src[s-1]] == 0 && src[s-1] < utf8.RuneSelf) && (e == len(src) || pyIdentByte[src[e]] == 0 && src[e] < utf8.RuneSelf) {
			return true
		}
		i = s + 1
	}
	return false
}

// pyMainBlock reports whether the module has a top-level `if __name__ == "__main__":` block
// (Document.MainBlock).
func pyMainBlock(ev *pyEval, stmts pyIds, env *pyEnv) bool {
	a := ev.arena
	for _, id := range a.ids(stmts) {
		if st := a.st(id); st.kind == sIf && st.value != 0 && a.ex(st.value).op == xCmp {
			if runs, ok := ev.mainTest(a.ex(st.value), env); ok && !runs {
				return true
			}
		}
	}
	return false
}

// pyDefinesCode reports whether a module defines a class or a function at its top level (a
// get_config aside): a library module or a script, not a config. MMEngine configs assign
// values (the base files of mmdetection and mmpretrain define nothing), so the root of such a
// module gets style "library", which IsPythonConfig does not take for a config unless it
// names bases.
func pyDefinesCode(a *pyArena, stmts pyIds, src []byte) bool {
	for _, id := range a.ids(stmts) {
		st := a.st(id)
		switch {
		case st.kind == sDef && a.more(st).fn.name != "get_config":
			return true
		case st.kind == sSkip && st.x != 0 && a.more(st).fn != nil && a.more(st).fn.name != "get_config":
			// A decorated function (`@pytest.mark.skipif(...)` over a test), which the parser
			// keeps from ever being called.
			return true
		case st.kind == sSkip && st.s >= 0 && st.s+6 <= len(src) && string(src[st.s:st.s+5]) == "class" && (src[st.s+5] == ' ' || src[st.s+5] == '\t'):
			return true
		}
	}
	return false
}

// lineCursor converts offsets to positions like LineIndex.Pos, remembering the line it found
// last: the readers ask for spans mostly in source order, so the next offset is usually on
// that line or a few lines further, found by stepping instead of a binary search. Any other
// offset takes LineIndex.Pos. The positions are the same either way.
type lineCursor struct {
	x    *LineIndex
	line int // 0-based index into x.starts of the last line found
}

func (c *lineCursor) pos(off int) Pos {
	x := c.x
	st := x.starts
	l := c.line
	if off < 0 || off > len(x.src) || l >= len(st) || st[l] > off {
		p := x.Pos(off)
		if p.Line >= 1 && p.Line <= len(st) && st[p.Line-1] <= p.Offset {
			c.line = p.Line - 1
		}
		return p
	}
	for k := 0; l+1 < len(st) && st[l+1] <= off; k++ {
		if k == 8 {
			p := x.Pos(off)
			c.line = p.Line - 1
			return p
		}
		l++
	}
	c.line = l
	return Pos{Line: l + 1, Col: x.col(l, off), Offset: off}
}

// span is the span of [s, e): one that ends on its start's line (a name, a number, most values)
// in an ASCII file takes no second look-up.
func (c *lineCursor) span(s, e int) Span {
	x, l := c.x, c.line
	if st := x.starts; x.ascii && l < len(st) && st[l] <= s && s <= e && e <= len(x.src) && (l+1 >= len(st) || e < st[l+1]) {
		// On the line found last (a key and its value, most often): no call, no search.
		col := s - st[l] + 1
		return Span{Start: Pos{Line: l + 1, Col: col, Offset: s}, End: Pos{Line: l + 1, Col: col + e - s, Offset: e}}
	}
	p := c.pos(s)
	l = c.line
	if x.ascii && s <= e && l < len(x.starts) && x.starts[l] <= s && (l+1 >= len(x.starts) || e < x.starts[l+1]) && e <= len(x.src) {
		return Span{Start: p, End: Pos{Line: p.Line, Col: p.Col + e - s, Offset: e}}
	}
	return Span{Start: p, End: c.pos(e)}
}

// lineFinder converts offsets to spans like LineIndex.Span for the Python builder, which asks
// for them out of order: the values a helper function makes lie in its body, lines away from
// the keys they are stored under (flexivit's i21k_sup.py calls two helpers 80 times in loops),
// so a cursor that remembers the last line (lineCursor) jumped back and forth with a binary
// search each time, about a tenth of a Python read's instructions and mispredicted branches.
// blk[i] is the 0-based line that holds offset i*lineBlock: an offset's line is at most a few
// steps further, whatever was asked before. The positions are LineIndex.Pos's.
type lineFinder struct {
	x      *LineIndex
	starts []int // x's, and the fields below, kept here: no pointer to follow per span
	blk    []int32
	n      int // len(x.src)
	ascii  bool
}

// lineBlock is the span of bytes one entry of lineFinder.blk covers (a power of two: lines of
// code average 30-40 bytes, so an offset's line is a few steps from its block's).
const lineBlock = 64

// newLineFinder is x's lineFinder, its block table in the scratch's list (pooled: it holds no
// pointers).
func (s *pyScratch) newLineFinder(x *LineIndex) lineFinder {
	n := len(x.src)/lineBlock + 1
	if cap(s.blk) < n {
		s.blk = make([]int32, n, max(n, 256))
	}
	blk, st := s.blk[:n], x.starts
	// Line by line: each line takes the blocks that start inside it (most lines none or
	// one). Block 0 and those before the first line start (a BOM) take line 0.
	b := 0
	for l := range st {
		end := len(x.src) + 1
		if l+1 < len(st) {
			end = st[l+1]
		}
		for ; b < n && b*lineBlock < end; b++ {
			blk[b] = int32(l)
		}
	}
	return lineFinder{x: x, starts: st, blk: blk, n: len(x.src), ascii: x.ascii}
}

// span is LineIndex.Span(s, e): the end's line is looked for from the start's.
func (f *lineFinder) span(s, e int) Span {
	st := f.starts
	if len(st) == 0 || s < st[0] || e < s || e > f.n {
		return Span{Start: f.x.Pos(s), End: f.x.Pos(e)}
	}
	l := int(f.blk[s/lineBlock])
	for l+1 < len(st) && st[l+1] <= s {
		l++
	}
	m := l // e's line
	if l+1 < len(st) && st[l+1] <= e {
		m = max(l, int(f.blk[e/lineBlock]))
		for m+1 < len(st) && st[m+1] <= e {
			m++
		}
	}
	if f.ascii {
		return Span{Start: Pos{Line: l + 1, Col: s - st[l] + 1, Offset: s}, End: Pos{Line: m + 1, Col: e - st[m] + 1, Offset: e}}
	}
	return Span{Start: Pos{Line: l + 1, Col: f.x.col(l, s), Offset: s}, End: Pos{Line: m + 1, Col: f.x.col(m, e), Offset: e}}
}

// pyScratch is a Python read's reusable scratch memory, pooled between files: the lexer's line
// starts before the line index copies them (no pointers, so nothing of one file's tree is
// kept alive by the next).
type pyScratch struct {
	lines []int
	vars  [][2]int32 // pyBuilder.vars
	blk   []int32    // pyBuilder.lf's block table
	// the evaluator's buffers: f-strings (pyEval.fbuf), str.format and adjacent literals
	// (obuf), f-strings' literal text (ftext)
	fbuf, obuf, ftext []byte
}

// keepBufs keeps the evaluator's byte buffers for the next file (a huge one is not kept;
// fbuf is nil when an f-string was being formatted as the evaluation stopped).
func (s *pyScratch) keepBufs(ev *pyEval) {
	keep := func(dst *[]byte, b []byte) {
		if cap(b) > cap(*dst) && cap(b) <= 1<<16 {
			*dst = b[:0]
		}
	}
	keep(&s.fbuf, ev.fbuf)
	keep(&s.obuf, ev.obuf)
	keep(&s.ftext, ev.ftext)
}

var pyScratches keeper[pyScratch]

func getPyScratch() *pyScratch {
	if s := pyScratches.get(); s != nil {
		return s
	}
	return &pyScratch{lines: make([]int, 0, 256)}
}

func (s *pyScratch) release() { pyScratches.put(s) }
