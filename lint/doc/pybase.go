package doc

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// An old-style MMEngine config runs with the global `_base_` bound to its bases' merged
// ConfigDict (mmengine v0.10.7 config/config.py, Config._file2dict: `_base_ = ...` is removed
// from the code, then eval(codeobj, {"_base_": base_cfg_dict})), and the file's variables are
// merged into that same dict afterwards (_merge_a_into_b copies only its top level). So a
// statement that assigns into `_base_` (`_base_.model.backbone.norm_cfg.type = 'SyncBN'`,
// `_base_.param_scheduler[0].end = 10`), directly or through a name bound to a part of it
// (`m = _base_.model` then `m.neck.num_outs = 4`, `b = m.backbone` then `b.depth = 101`,
// `c = _base_` then `c.model.depth = 101`, or a function given one), changes the run as much
// as the file's own variables do. The evaluator records each such edit in the order it runs
// (Document.BaseEdits), with the place in the file where it takes effect (a function's edits
// at its call: BaseEdit.Order), and composition applies them to the bases before the file is
// merged in. A change it cannot follow (a method such as update or append
// called on a part of `_base_`, `+=` on a value it does not know, `del`, an index it cannot
// evaluate) is recorded as an unknown value at the deepest part it can name, so rules stay
// silent there instead of judging the bases' value. Reads go the other way: a part of
// `_base_` is an unknown value that remembers its path (basePart), which composition replaces
// with the bases' value where it stands whole; where an operation needs its value (baseVal:
// arithmetic, a test, a star, a slice, a loop), the file is marked (Document.ReadsBases) and
// composition reads it again with the bases.

// pyAssignsBase reports whether the module assigns `_base_` at its top level (an old-style
// MMEngine config: Config._get_base_files reads that assignment); only then are edits of
// `_base_` recorded. A scan of the top-level statements, cheaper than a search of the text.
func pyAssignsBase(a *pyArena, module pyIds, tx *pyText) bool {
	for _, id := range a.ids(module) {
		if isBaseLine(a, a.st(id), tx) {
			return true
		}
	}
	return false
}

// isBaseLine reports whether st is an assignment whose first target is the name `_base_`
// (mmengine v0.10.7 config.py): Config._get_base_files evaluates the value of the first such
// statement at the top level for the base files, and RemoveAssignFromAST drops every such
// statement, wherever it is, before the file runs with _base_ bound to the bases.
func isBaseLine(a *pyArena, st *pyStmt, tx *pyText) bool {
	if st.kind != sAssign || st.targets.n == 0 {
		return false
	}
	x := a.ex(a.ids(st.targets)[0])
	return x.op == xName && x.nm.in(tx) == "_base_"
}

// pyBaseEdit is one recorded assignment into `_base_`.
type pyBaseEdit struct {
	path   string // dotted under _base_; "" is _base_ itself
	v      *pyVal // the assigned value (opaque when the edit's effect is unknown)
	s, e   int    // the statement (or the part of it that made the edit)
	ks, ke int    // the last attribute's name or the last index
	at     int    // where it takes effect in the run's order (BaseEdit.Order)
	merge  bool   // v (a dict) is merged as ConfigDict.update merges (BaseEdit.Merge)
	// inPlace: the object at path stays the one it was, its contents changed (BaseEdit.InPlace).
	inPlace   bool
	del       bool // `del` of the part at path (BaseEdit.Delete)
	ifPresent bool // pop('key') (BaseEdit.IfPresent)
	mayDel    bool // an unknown edit that may delete entries (BaseEdit.MayDelete)
}

// edit records an edit of the part of `_base_` at path, made by the code from s to e. The
// bases are MMEngine ConfigDicts, which store a copy of a plain dict or list assigned to them
// (ConfigDict._hook, mmengine v0.10.7 config/config.py): what the file does to v afterwards
// does not reach the bases (mmpretrain's mobileone-s1 scales magnitude_level of its
// pipeline after placing it in them), so the edit keeps v as it is now.
func (ev *pyEval) edit(path string, v *pyVal, s, e, ks, ke int) {
	if v.k == pvDict || v.k == pvList || v.k == pvTuple {
		v = ev.hooked(v, nil)
	}
	ev.baseEdits = append(ev.baseEdits, pyBaseEdit{path: path, v: v, s: s, e: e, ks: ks, ke: ke, at: max(ev.top, e)})
}

// editInPlace is edit for a change of the contents of the object at path (a method such as
// append or update, an item below it not known statically, a call given it), which stays the
// object a name that took it holds.
func (ev *pyEval) editInPlace(path string, v *pyVal, s, e, ks, ke int) {
	ev.edit(path, v, s, e, ks, ke)
	ev.baseEdits[len(ev.baseEdits)-1].inPlace = true
}

// hooked is what ConfigDict._hook stores for v: a list or tuple is a new one of its items'
// hooked values; a plain dict is a new ConfigDict of them; a ConfigDict (pyDict.mm) and every
// other value are v itself. A structure that holds itself (Python recurses until it fails) or
// nests past 64 levels is unknown; open lists the containers being copied.
func (ev *pyEval) hooked(v *pyVal, open []any) *pyVal {
	switch {
	case v.k == pvDict:
	case (v.k == pvList || v.k == pvTuple) && v.list.like == likeList:
	default:
		return v
	}
	var c any = v.list
	if v.k == pvDict {
		if v.dict.mm {
			return v
		}
		c = v.dict
	}
	if len(open) > 64 || slices.Contains(open, c) {
		return ev.val(pyVal{k: pvOpaque, s0: v.s0, e0: v.e0})
	}
	open = append(open, c)
	ev.step()
	if v.k == pvList || v.k == pvTuple {
		items := make([]*pyVal, len(v.list.items))
		for i, it := range v.list.items {
			items[i] = ev.hooked(it, open)
		}
		ev.grow(len(items))
		return ev.val(pyVal{k: v.k, list: &pyList{items: items}, s0: v.s0, e0: v.e0})
	}
	d := ev.newDict(len(v.dict.ents))
	for _, en := range v.dict.ents {
		d.ents = append(d.ents, pyEnt{k: en.k, v: ev.hooked(en.v, open), ks: en.ks, ke: en.ke})
	}
	d.partial, d.mm = v.dict.partial, true
	d.reindex()
	ev.grow(len(d.ents))
	return ev.val(pyVal{k: pvDict, dict: d, s0: v.s0, e0: v.e0})
}

// pyReadOnlyMethods are the methods of dict and list that leave their object as it was; any
// other method called on a part of `_base_` may change it.
var pyReadOnlyMethods = map[string]bool{"get": true, "copy": true, "keys": true, "values": true,
	"items": true, "count": true, "index": true, "to_dict": true, "__getitem__": true, "__contains__": true}

// basePath names the part of `_base_` the expression x is: its dotted path under _base_ ("" for
// _base_ itself). rooted is false when x is not a part of `_base_`; exact is false when a step
// of it cannot be named statically (an index that is not a literal), and then path is the
// deepest part that can.
func (ev *pyEval) basePath(x *pyExpr, env *pyEnv) (path string, exact, rooted bool) {
	switch x.op {
	case xName:
		// _base_ itself, or a name bound to a part of it (m = _base_.model, b = m.backbone, or
		// a parameter given one): its value remembers the part (basePart; eval makes the name
		// _base_ the bases).
		return ev.heldPath(ev.eval(x, env))
	case xAttr:
		p, exact, rooted := ev.heldBasePath(ev.kid(x, 0), env)
		if !rooted || !exact {
			return p, exact, rooted
		}
		return joinBasePath(p, ev.nm(x)), true, true
	case xIndex:
		p, exact, rooted := ev.heldBasePath(ev.kid(x, 0), env)
		if !rooted || !exact {
			return p, exact, rooted
		}
		if k := ev.kid(x, 1); k.op == xNum || k.op == xStr {
			if step, ok := baseKey(ev.eval(k, env)); ok {
				return joinBasePath(p, step), true, true
			}
		}
		return p, false, true
	}
	return "", false, false
}

// heldBasePath is basePath of x, the object of an attribute or item, or, when x is no path
// into the bases written as such, the part of the bases its value is: a field or an item
// that holds one (`config.model = get_model()` then `config.model.depth = 50`, which changes
// what the call returned). x is read only when reading it runs nothing (purePath).
func (ev *pyEval) heldBasePath(x *pyExpr, env *pyEnv) (path string, exact, rooted bool) {
	p, exact, rooted := ev.basePath(x, env)
	if rooted || x.op == xName || !ev.purePath(x) {
		return p, exact, rooted
	}
	return ev.heldPath(ev.eval(x, env))
}

// heldPath is basePathOf for a value a name or a field holds: inexact when the object may be
// detached from its path (maybeDetached).
func (ev *pyEval) heldPath(v *pyVal) (path string, exact, rooted bool) {
	path, exact, rooted = basePathOf(v)
	if rooted && exact && ev.maybeDetached(v) {
		exact = false
	}
	return path, exact, rooted
}

// basePathOf is basePath for a value: the part of `_base_` v is when it is one (basePart).
func basePathOf(v *pyVal) (path string, exact, rooted bool) {
	if v.k != pvOpaque || v.s == "" {
		return "", false, false
	}
	p := strings.TrimPrefix(strings.TrimPrefix(v.s, "_base_"), ".")
	if i := strings.Index(p, "[?]"); i >= 0 {
		return strings.TrimSuffix(p[:i], "."), false, true
	}
	return p, true, true
}

// basePart is the value of e, a part of `_base_` whose path is part ("_base_.a.b"): unknown
// here (composition reads it from the bases), remembering its part in s so that assignments
// through a name bound to it are edits of the bases. Only opaque values that are parts of
// _base_ have an s.
func (ev *pyEval) basePart(e *pyExpr, part string) *pyVal {
	v := ev.opaque(e)
	v.s, v.i = part, int64(len(ev.baseEdits))
	return v
}

// basePartIn is basePart for a part read through obj, a part of the bases a name or an
// expression holds: the object read is inside the one obj is (its edit count, maybeDetached).
func (ev *pyEval) basePartIn(obj *pyVal, e *pyExpr, part string) *pyVal {
	v := ev.basePart(e, part)
	v.i = obj.i
	return v
}

// maybeDetached reports whether v, a part of the bases, may no longer be the object at its
// path: since it was read (pyVal.i), an edit put another object at its path or at a part it
// is in (`h = _base_.model.head` then `_base_.model.head = dict(n=7)`: h is the old head,
// which MMEngine's run no longer holds). A change through it is then no edit of that path
// the reader can name: basePath reports it inexact, and the path becomes unknown.
func (ev *pyEval) maybeDetached(v *pyVal) bool {
	p, _, rooted := basePathOf(v)
	if !rooted || v.i < 0 || v.i > int64(len(ev.baseEdits)) {
		return rooted
	}
	for _, e := range ev.baseEdits[v.i:] {
		if !e.inPlace && !e.merge && (e.path == "" || p == e.path || strings.HasPrefix(p, e.path+".")) {
			return true
		}
	}
	return false
}

// baseKey is the step of a path under _base_ that item key names: a non-negative int (a list's
// item) or a string that is one name (no dot, no "[?]"); ok is false for any other key.
func baseKey(key *pyVal) (step string, ok bool) {
	switch key.k {
	case pvInt:
		if key.i >= 0 {
			return strconv.FormatInt(key.i, 10), true
		}
	case pvStr:
		if key.s != "" && strings.IndexByte(key.s, '.') < 0 && !strings.Contains(key.s, "[?]") {
			return key.s, true
		}
	}
	return "", false
}

// baseItem is the path of item key of the part of _base_ at path: a key baseKey names adds a
// step, anything else "[?]" (the part below is not known statically).
func baseItem(ev *pyEval, path string, key *pyVal) string {
	if step, ok := baseKey(key); ok {
		return ev.concat(ev.concat(path, "."), step)
	}
	if strings.Contains(path, "[?]") {
		return path
	}
	return ev.concat(path, ".[?]")
}

func joinBasePath(p, k string) string {
	if p == "" {
		return k
	}
	return p + "." + k
}

// followsBases reports whether the file has MMEngine bases whose parts the reader follows: an
// old-style file that assigns `_base_`, or a new-style one given its bases (lazy).
func (ev *pyEval) followsBases() bool { return !ev.noBase || ev.lazy }

// baseAssign records an assignment of v to the target t when t is a part of `_base_`.
func (ev *pyEval) baseAssign(t *pyExpr, v *pyVal, env *pyEnv) {
	if r := refOf(v); r != nil {
		r.bad = true // in a part of the bases, a later assignment there may set it (pyrefs.go)
	}
	if !ev.followsBases() {
		return
	}
	p, exact, rooted := ev.basePath(t, env)
	if !rooted {
		return
	}
	end := max(t.e, v.e0)
	if !exact {
		v = ev.val(pyVal{k: pvOpaque, s0: t.s, e0: end})
	}
	ks, ke := t.s, t.e
	switch t.op {
	case xAttr:
		ks = t.e - int(t.nm.n)
	case xIndex:
		k := ev.kid(t, 1)
		ks, ke = k.s, k.e
	}
	if !exact {
		ev.editInPlace(p, v, t.s, end, ks, ke) // an item or attribute below p, not known which
		return
	}
	ev.edit(p, v, t.s, end, ks, ke)
}

// baseCall records a method call on a part of `_base_` that may change it (e.g.
// `_base_.custom_hooks.append(h)`): that part's value becomes unknown, except for update
// with arguments the evaluator knows (a, nil when the call was not run): a merge edit.
func (ev *pyEval) baseCall(e *pyExpr, env *pyEnv, a *pyArgs) {
	if !ev.followsBases() {
		return
	}
	f := ev.kid(e, 0)
	if f.op != xAttr || pyReadOnlyMethods[ev.nm(f)] {
		return
	}
	obj := ev.kid(f, 0)
	p, exact, rooted := ev.basePath(obj, env)
	if !rooted {
		return
	}
	// ml_collections' ConfigDict.update (what another module's function returned, moduleCall)
	// also recurses, but refuses what MMEngine's replaces and sets field references: unknown.
	if exact && a != nil && a.ok && ev.nm(f) == "update" && !strings.HasPrefix(p, "_call_") {
		if d := ev.updateArg(a, e); d != nil {
			ev.editInPlace(p, d, e.s, e.e, obj.s, obj.e)
			ev.baseEdits[len(ev.baseEdits)-1].merge = true
			return
		}
	}
	// pop('key') removes the entry when there is one (masa's bases drop keys their children
	// set again with it); MMEngine's ConfigDict.pop(key, default=None) raises nothing when
	// there is none (mmengine v0.10.7 config/config.py).
	if exact && a != nil && a.ok && ev.nm(f) == "pop" && len(a.pos) >= 1 && len(a.pos) <= 2 && len(a.kw) == 0 && a.pos[0].k == pvStr && !strings.HasPrefix(p, "_call_") {
		if step, ok := baseKey(a.pos[0]); ok {
			ev.edit(joinBasePath(p, step), ev.val(pyVal{k: pvOpaque, s0: e.s, e0: e.e}), e.s, e.e, obj.s, obj.e)
			ev.baseEdits[len(ev.baseEdits)-1].del = true
			ev.baseEdits[len(ev.baseEdits)-1].ifPresent = true
			return
		}
	}
	ev.editInPlace(p, ev.opaque(e), e.s, e.e, obj.s, obj.e)
	switch ev.nm(f) {
	case "pop", "popitem", "clear", "__delitem__", "__delattr__":
		ev.baseEdits[len(ev.baseEdits)-1].mayDel = true
	}
}

// updateArg is the dict ConfigDict.update(*args, **kwargs) takes from its arguments (mmengine
// v0.10.7 config/config.py: the one positional dict's entries, then the keywords, as dict(...)
// makes them), or nil when that is not known: more than one positional argument (update
// raises), one that is not a dict the evaluator knows whole, a key that is not a string.
func (ev *pyEval) updateArg(a *pyArgs, e *pyExpr) *pyVal {
	if len(a.pos) == 1 && (a.pos[0].k != pvDict || a.pos[0].dict.partial) {
		return nil
	}
	v := ev.makeDict(*a, e)
	if v.k != pvDict {
		return nil
	}
	for _, en := range v.dict.ents {
		if en.k.k != pvStr {
			return nil
		}
	}
	return v
}

// baseDel records `del` of a part of `_base_` (each target of a del statement): a part at a
// path known statically is deleted (BaseEdit.Delete: MMEngine's ConfigDict deletes the key,
// addict's __delattr__, so the file's own value of that name later merges into bases that no
// longer hold it); the evaluator reads it as unknown from there on. A part below one not known
// statically leaves that one unknown, and so does a del that may not run (maybe).
func (ev *pyEval) baseDel(t *pyExpr, env *pyEnv, st *pyStmt, maybe bool) {
	if !ev.followsBases() {
		return
	}
	if t.op == xTuple || t.op == xList {
		for _, k := range ev.kids(t) {
			ev.baseDel(ev.ex(k), env, st, maybe)
		}
		return
	}
	if t.op != xAttr && t.op != xIndex {
		return
	}
	p, exact, rooted := ev.basePath(t, env)
	switch {
	case rooted && exact:
		ev.edit(p, ev.val(pyVal{k: pvOpaque, s0: st.s, e0: st.e}), st.s, st.e, t.s, t.e)
		ev.baseEdits[len(ev.baseEdits)-1].del = !maybe // one that may not run leaves it unknown
	case rooted:
		ev.editInPlace(p, ev.val(pyVal{k: pvOpaque, s0: st.s, e0: st.e}), st.s, st.e, t.s, t.e) // an item below p
		ev.baseEdits[len(ev.baseEdits)-1].mayDel = true
	}
}

// lazyImport binds, in a new-style config read with its bases (pyEval.lazy), the names a
// `from M import ...` inside `with read_base():` takes from them: MMEngine runs the file with
// those names bound to the base modules' own values (mmengine v0.10.7 config/utils.py,
// ImportTransformer.visit_ImportFrom: global_dict takes base_dict's values, no copy), so an
// in-place change (`model.head.loss = ...`, `randomness.update(seed=0)`) changes what the run
// gets. Each name is a part of the bases the composer gathered (Options.Bases, keyed by the
// names as imported), recorded as edits like `_base_.x` in an old-style config. A star import
// binds every name the bases export (the composer gathered only those of the file's imports).
// A name a base binds to an import (Options.Imports) is that import here too: MMEngine keeps
// a base module's imported classes, as LazyObjects, among the globals a star import copies
// (mmengine v0.10.7 config/config.py:1113-1117 Config._parse_lazy_import keeps every global
// but `__*` and LazyObject itself; config/utils.py:334-335 `global_dict.update(...)` for `*`),
// so `type=SegDataPreProcessor` after `from .._base_.models.x import *` names the class the
// base imported.
func (ev *pyEval) lazyImport(mod string, names, alias []string, env *pyEnv, s, e int) {
	bind := func(name string) {
		v := ev.val(pyVal{k: pvOpaque, s: "_base_." + name, s0: s, e0: e})
		env.set(name, v)
	}
	for i, n := range names {
		name := alias[i]
		if name == "" {
			name = n
		}
		if n == "*" {
			for _, ch := range ev.bases.Children {
				bind(ch.Key)
			}
		} else if ev.bases.Get(name) != nil {
			bind(name)
			continue
		}
		for _, im := range ev.imports {
			if im.From == mod && (n == "*" || im.Name == name) && ev.bases.Get(im.Name) == nil {
				env.set(im.Name, ev.val(pyVal{k: pvModule, s: im.Path, s0: s, e0: e}))
			}
		}
	}
}

// baseVal is v, or, when v is a part of `_base_` (basePart) that an operation needs the value
// of (`_base_.max_epochs - 2`, `-_base_.img_scale[0] // 2`, a comparison, a test, an f-string
// field, `[*_base_.pre_transform, ...]`, `_base_.custom_hooks[:-2]`, a loop over it), the
// value the bases give that part, when composition gave them (Options.Bases: the file runs
// with `_base_` bound to them, mmengine v0.10.7 Config._file2dict) and no edit made so far in
// the run may have changed it (ev.baseEdits are the edits that ran before this read, in the
// run's own order). Anything else stays unknown: a path not known statically, a scalar whose
// text this reader does not read back exactly, a part the bases do not set.
//
// A container is the bases' own object in Python, shared with everything that reads it: its
// values are made once for the whole top-level name it is under (baseObj), and every later
// read under that name steps into them, so that a change made through one read is seen by the
// others. What the run does to it afterwards is checked when the run ends (baseFinish).
func (ev *pyEval) baseVal(v *pyVal) *pyVal {
	if v.k != pvOpaque || v.s == "" || !ev.followsBases() {
		return v
	}
	ev.readsBases = true
	if ev.bases == nil {
		return v
	}
	p, ok := strings.CutPrefix(v.s, "_base_.")
	if !ok || strings.Contains(p, "[?]") {
		return v
	}
	if editsOverlap(ev.baseEdits, p) {
		return v
	}
	top, rest, _ := strings.Cut(p, ".")
	if o := ev.baseObj(top); o != nil {
		return ev.baseShared(o.v, rest, p, v)
	}
	n := ev.bases.StepPath(p)
	if n == nil {
		return v
	}
	if n.Kind == Scalar {
		if x := ev.baseScalar(n, v.s0, v.e0); x != nil {
			return x
		}
		return v
	}
	if ev.baseScalars {
		return v
	}
	tn := ev.bases.Step(top)
	o := ev.fromBase(tn, top, v.s0, v.e0)
	ev.baseObjs = append(ev.baseObjs, pyBaseObj{top: top, v: o, s: v.s0, e: v.e0})
	return ev.baseShared(o, rest, p, v)
}

// baseGetattr is getattr(obj, name) or getattr(obj, name, default) where obj is `_base_` or a
// part of it: the part (as `obj.name` reads it), or the default when the bases, as the run has
// left them so far, are a dict there without that key (mmengine v0.10.7 ConfigDict.__getattr__
// raises AttributeError for a missing key). Any other object, a name dict's own attributes
// answer (keys, update, ...), or a part whose keys may have changed: unknown.
func (ev *pyEval) baseGetattr(a pyArgs, e *pyExpr) *pyVal {
	if len(a.kw) != 0 || len(a.pos) < 2 || len(a.pos) > 3 || a.pos[1].k != pvStr {
		return ev.opaque(e)
	}
	obj, name := a.pos[0], a.pos[1].s
	if obj.k != pvOpaque || obj.s == "" || !ev.followsBases() || !stringKey(name) ||
		strings.ContainsAny(name, ".[") || strings.HasPrefix(name, "_") || pyDictMethods[name] ||
		name == "fromkeys" || name == "merge" || name == "lazy" {
		return ev.opaque(e)
	}
	part := ev.basePartIn(obj, e, ev.concat(ev.concat(obj.s, "."), name))
	if len(a.pos) == 2 {
		return part
	}
	ev.readsBases = true
	p, ok := strings.CutPrefix(part.s, "_base_.")
	if ev.bases == nil || !ok || strings.Contains(p, "[?]") {
		return ev.opaque(e)
	}
	parent := ""
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		parent = p[:i]
	}
	if editsOverlap(ev.baseEdits, parent) {
		return ev.opaque(e)
	}
	if top, _, _ := strings.Cut(parent, "."); parent != "" && ev.baseObj(top) != nil {
		return ev.opaque(e) // a dict made from the bases (baseObjs) may have lost or gained the key
	}
	holder := ev.bases.StepPath(parent)
	switch {
	case holder == nil || holder.Kind != Map:
		return ev.opaque(e)
	case holder.Get(name) != nil:
		return part
	}
	return a.pos[2]
}

// pyBaseObj is a top-level name of the bases whose value an operation took as a container
// (baseVal): the values made from the bases' node once, shared by every read under top, and
// where the first read was (s, e).
type pyBaseObj struct {
	top  string
	v    *pyVal
	s, e int
}

// baseObj is the values made for the top-level name top of the bases, or nil.
func (ev *pyEval) baseObj(top string) *pyBaseObj {
	for i := range ev.baseObjs {
		if ev.baseObjs[i].top == top {
			return &ev.baseObjs[i]
		}
	}
	return nil
}

// editsOverlap reports whether one of edits changes the part of the bases at path, or a part
// of it, or what it is part of.
func editsOverlap(edits []pyBaseEdit, path string) bool {
	for i := range edits {
		if BasePathsOverlap(path, edits[i].path) {
			return true
		}
	}
	return false
}

// pyBaseRead is a read of a container of the bases at path, made after the run's first seq
// edits; pyBaseSnap is one container made from the bases (fromBase) as it was made: its items,
// or its dict's entries' keys and values, to tell at the run's end whether the file changed it.
type pyBaseRead struct {
	path string
	seq  int
}

type pyBaseSnap struct {
	path string
	list *pyList
	dict *pyDict
	kids []*pyVal
}

// baseShared is the value at the dotted path rest under o (values made from the bases), for a
// read of part p written as v: a container is the shared one (its read recorded); a scalar is
// the read's own copy, spanned where it is read; unknown when o does not have it.
func (ev *pyEval) baseShared(o *pyVal, rest, p string, v *pyVal) *pyVal {
	x := o
	for more := rest != ""; more && x != nil; {
		var k string
		k, rest, more = strings.Cut(rest, ".")
		switch x.k {
		case pvDict:
			if x.dict.partial {
				return v
			}
			x, _ = x.dict.getStr(k)
		case pvList, pvTuple:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x.list.items) || !decimalInt(k) || x.list.like == likePartial {
				return v
			}
			x = x.list.items[i]
		default:
			return v
		}
	}
	switch {
	case x == nil || x.k == pvOpaque:
		return v
	case x.k == pvList || x.k == pvTuple || x.k == pvDict:
		ev.baseReads = append(ev.baseReads, pyBaseRead{path: p, seq: len(ev.baseEdits)})
		return x
	}
	c := *x
	c.s0, c.e0 = v.s0, v.e0
	return ev.val(c)
}

// fromBase is the value the bases' node n (at path) has when the file runs: maps as dicts,
// lists as lists, scalars as baseScalar reads them, all spanned at the read (s, e). A part
// this reader cannot make exactly is unknown: a scalar it does not read back, a sequence that
// is neither a list nor a tuple (Style "python": a range), a map with a key that may not be a
// string (the tree keeps keys as text). A tuple (Style "tuple") stays a tuple: a tuple plus a
// list raises, a list plus a list does not.
func (ev *pyEval) fromBase(n *Node, path string, s, e int) *pyVal {
	ev.step()
	switch n.Kind {
	case Scalar:
		if x := ev.baseScalar(n, s, e); x != nil {
			return x
		}
	case Seq:
		if n.Style == "python" {
			break
		}
		items := make([]*pyVal, 0, len(n.Children))
		for i, c := range n.Children {
			items = append(items, ev.fromBase(c, joinBasePath(path, strconv.Itoa(i)), s, e))
		}
		ev.grow(len(items))
		l := &pyList{items: items}
		kind := pvList
		if n.Style == "tuple" {
			kind = pvTuple // immutable: nothing to watch
		} else {
			ev.baseSnaps = append(ev.baseSnaps, pyBaseSnap{path: path, list: l, kids: append([]*pyVal(nil), items...)})
		}
		return ev.val(pyVal{k: kind, list: l, s0: s, e0: e})
	case Map:
		for _, c := range n.Children {
			if !stringKey(c.Key) {
				return ev.val(pyVal{k: pvOpaque, s0: s, e0: e})
			}
		}
		d := ev.newDict(len(n.Children))
		kids := make([]*pyVal, 0, 2*len(n.Children))
		for _, c := range n.Children {
			k, x := ev.strVal(c.Key, s, e), ev.fromBase(c, joinBasePath(path, c.Key), s, e)
			d.set(k, x, s, e)
			kids = append(kids, k, x)
		}
		ev.grow(len(n.Children))
		d.mm = true // the bases' dicts are ConfigDicts
		ev.baseSnaps = append(ev.baseSnaps, pyBaseSnap{path: path, dict: d, kids: kids})
		return ev.val(pyVal{k: pvDict, dict: d, s0: s, e0: e})
	}
	return ev.val(pyVal{k: pvOpaque, s0: s, e0: e})
}

// stringKey reports whether a map's key, kept as text, can only have been a string: not
// empty, not a number's text (an int or float key reads back the same), not True, False or
// None.
func stringKey(k string) bool {
	if k == "" || k == "True" || k == "False" || k == "None" {
		return false
	}
	c := k[0]
	return !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.')
}

// baseScalar is the value of the bases' scalar n spanned at (s, e), or nil when this reader
// does not read it back exactly.
func (ev *pyEval) baseScalar(n *Node, s, e int) *pyVal {
	switch n.Type {
	case String:
		return ev.strVal(n.Value, s, e)
	case Int:
		if !decimalInt(n.Value) {
			return nil
		}
		if i, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
			return ev.intVal(i, s, e)
		}
	case Float:
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return ev.floatVal(f, s, e)
		}
	case Bool:
		if b, ok := n.Bool(); ok {
			return ev.boolVal(b, s, e)
		}
	case Null:
		return ev.val(pyVal{k: pvNone, s0: s, e0: e})
	}
	return nil
}

// baseFinish runs when the file has run, when containers of the bases were read (baseVal).
// It reports false when an edit made after such a read may have changed what the read took
// (`h = [*_base_.hooks]` then `_base_.hooks[0].priority = 1`: Python's h sees the change, the
// values made at the read do not); the file must then be read again with containers left
// unknown (baseScalars). Otherwise a container made from the bases that the file changed in
// place (`h[0]['priority'] = 1` changes the bases' own item) becomes an edit of unknown effect
// at its path, so that the bases' value there is not judged.
func (ev *pyEval) baseFinish() bool {
	for _, r := range ev.baseReads {
		if editsOverlap(ev.baseEdits[r.seq:], r.path) {
			return false
		}
	}
	s, e := ev.baseObjs[0].s, ev.baseObjs[0].e
	var changedTops []string
	for _, sn := range ev.baseSnaps {
		changed := false
		if sn.list != nil {
			changed = sn.list.like == likePartial || !slices.Equal(sn.list.items, sn.kids)
		} else {
			changed = sn.dict.partial || len(sn.dict.ents)*2 != len(sn.kids)
			for i := 0; !changed && i < len(sn.dict.ents); i++ {
				changed = sn.dict.ents[i].k != sn.kids[2*i] || sn.dict.ents[i].v != sn.kids[2*i+1]
			}
		}
		if changed {
			ev.baseEdits = append(ev.baseEdits, pyBaseEdit{path: sn.path, v: ev.val(pyVal{k: pvOpaque, s0: s, e0: e}),
				s: s, e: e, ks: s, ke: e, at: len(ev.src), inPlace: true})
			top, _, _ := strings.Cut(sn.path, ".")
			changedTops = append(changedTops, top)
		}
	}
	// What the file did not change is still the bases' value where it is placed: the tree
	// names it by its path (as a plain `_base_.x` is named), and composition puts the bases'
	// own node there, so that a finding on it points where the bases write it.
	for _, o := range ev.baseObjs {
		if !slices.Contains(changedTops, o.top) {
			if ev.baseOf == nil {
				ev.baseOf = map[*pyVal]string{}
			}
			markBaseOf(ev.baseOf, o.v, o.top)
		}
	}
	return true
}

// markBaseOf records v, made from the bases at path, and everything in it.
func markBaseOf(m map[*pyVal]string, v *pyVal, path string) {
	m[v] = path
	switch v.k {
	case pvList, pvTuple:
		for i, x := range v.list.items {
			markBaseOf(m, x, joinBasePath(path, strconv.Itoa(i)))
		}
	case pvDict:
		for _, en := range v.dict.ents {
			markBaseOf(m, en.v, joinBasePath(path, en.k.s))
		}
	}
}

// decimalInt reports whether s is an int written in decimal digits with an optional minus and
// no leading zero, as the Python and JSON readers write every int ("010", "0x10", "1_000",
// "+5" from a YAML base are left unknown: PyYAML reads 010 as 8).
func decimalInt(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// BasePathsOverlap reports whether one dotted path under `_base_` is the other or lies under
// it ("" is the bases as a whole).
func BasePathsOverlap(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return a == "" || b == a || strings.HasPrefix(b, a) && b[len(a)] == '.'
}

// moduleCall records, while get_config runs (ev.calls), a call of a function of another module
// with arguments this reader knows, all scalars (`get_coco_config()`,
// `config_module.get_config(job_type='eval')`; Document.Calls), and, when composition gave
// what that function returns (Options.Bases under the call's key), returns it as a part of the
// bases: the file's changes to it are then edits of it, as an MMEngine config's changes to its
// bases are (baseAssign). Python makes a fresh object at each run of the call, so a call site
// that runs twice (in a loop, a helper called twice) is not recorded (finishCalls) and its
// second value is unknown. Only an absolute module of two parts or more is recorded
// (`pkg.configs.common`, as scenic's configs import their project's shared configs); not one
// of the libraries the evaluator models or the standard library's. nil: the call's value is
// unknown.
func (ev *pyEval) moduleCall(fnv *pyVal, a pyArgs, e *pyExpr) *pyVal {
	if ev.calls == nil {
		return nil
	}
	i := strings.LastIndexByte(fnv.s, '.')
	if i <= 0 || fnv.s[0] == '.' || strings.IndexByte(fnv.s[:i], '.') < 0 {
		return nil
	}
	mod := fnv.s[:i]
	for _, lib := range pyCallLibs {
		if strings.HasPrefix(mod, lib) && (len(mod) == len(lib) || mod[len(lib)] == '.') {
			return nil
		}
	}
	for j := range *ev.calls {
		if c := &(*ev.calls)[j]; c.Span.Start.Offset == e.s {
			c.runs++ // the call site runs again: a fresh value Python makes anew
			return nil
		}
	}
	n := len(a.pos) + len(a.kwv)
	for j := 0; j < n; j++ {
		if pyScalarArg(a.nth(j)) == 0 {
			return nil
		}
	}
	c := ModuleCall{Module: mod, Func: fnv.s[i+1:], Span: ev.lines.Span(e.s, e.e), runs: 1}
	if n > 0 {
		c.Args = make([]CallArg, n)
		for j := range c.Args {
			v := a.nth(j)
			if j >= len(a.pos) {
				c.Args[j].Key = a.kw[j-len(a.pos)]
			}
			c.Args[j].Type, c.Args[j].Value = pyScalarArg(v), scalarArgText(v)
			c.Args[j].Span = ev.lines.Span(v.s0, v.e0)
		}
	}
	*ev.calls = append(*ev.calls, c)
	if ev.bases != nil {
		if key := callKey(e.s); ev.bases.Get(key) != nil {
			return ev.val(pyVal{k: pvOpaque, s: "_base_." + key, s0: e.s, e0: e.e})
		}
	}
	return nil
}

// pyCallLibs are the modules (and their submodules) whose functions moduleCall does not
// record: the libraries the evaluator models and the standard library's and frameworks' own.
var pyCallLibs = []string{"ml_collections", "big_vision.configs.common", "mmengine", "copy", "os", "logging", "absl",
	"collections", "itertools", "functools", "dataclasses", "numpy", "jax", "tensorflow", "torch"}

// finishCalls keeps, of the calls recorded, those whose site ran once.
func finishCalls(calls []ModuleCall) []ModuleCall {
	out := calls[:0]
	for _, c := range calls {
		if c.runs == 1 {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// pyScalarArg is the scalar Type an argument's value has as a node (0 for a value that is not
// a scalar this reader passes on: a float that is not finite has no text baseScalar reads).
func pyScalarArg(v *pyVal) Type {
	switch v.k {
	case pvNone:
		return Null
	case pvBool:
		return Bool
	case pvInt:
		return Int
	case pvFloat:
		if math.IsInf(v.f, 0) || math.IsNaN(v.f) {
			return 0
		}
		return Float
	case pvStr:
		return String
	}
	return 0
}

// scalarArgText is a scalar argument's value as a node's text (baseScalar reads it back).
func scalarArgText(v *pyVal) string {
	switch v.k {
	case pvNone:
		return "null"
	case pvBool:
		return strconv.FormatBool(v.b)
	case pvInt:
		return strconv.FormatInt(v.i, 10)
	case pvFloat:
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	}
	return v.s
}

// nth is the j-th argument's value, positional ones first, then the keywords'.
func (a *pyArgs) nth(j int) *pyVal {
	if j < len(a.pos) {
		return a.pos[j]
	}
	return a.kwv[j-len(a.pos)]
}
