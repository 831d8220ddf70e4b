package doc

// ml_collections' FieldReference (google/ml_collections @5f7343a,
// ml_collections/config_dict/config_dict.py): a cell that ConfigDict fields share. Reading a
// field that holds one reads through it (ConfigDict.__getitem__ returns field.get()); assigning
// to such a field sets the cell (__setitem__ calls field.set(value)), and every field that holds
// it then shows the new value; arithmetic on one (ref + 1, 1333 // ref) is another reference
// whose value is computed when read (_apply_op; __radd__ and its kin for the reference on the
// right); config.get_ref('k') turns field k into a reference (if it is not one) and returns it.
//
// The evaluator follows what configs write: a reference made with a known scalar
// (FieldReference(512)), taken from a field (get_ref, get_oneway_ref), and arithmetic on them.
// A reference is unknown for good, with every reference computed from it, once anything may
// have set it: an assignment to a field that holds it, any attribute or method of it
// (ref.set(3)), a builtin or a call it is given (getattr(ref, 'set'), max(ref, 0) returns it
// where the evaluator no longer sees it), a call that may change what holds it, a part of the
// bases it is stored in. A reference the evaluator cannot model (FieldReference(None,
// field_type=int), placeholder(int), get_ref of a field that holds a tuple) is still a
// reference, unknown from the start, so a field holding it stays unknown when set. A reference
// may also hide in a value the evaluator does not know (`ref if unknown else 0`, a branch that
// may not run, a call's result): an assignment to a field whose value is unknown therefore
// makes every reference of the run unknown (pyRefs.off). Comparisons, truth tests and
// f-strings of one are unknown values. The tree shows a reference's value only in get_config's
// own ConfigDict, through dicts alone (a list's item stays the reference object, which the
// trainer would get), and never in a function of another module read for its caller, whose
// edits may set it.

// pyRef is a FieldReference.
type pyRef struct {
	val  *pyVal    // its value when made: a known scalar, or nil when not known
	deps [2]*pyRef // the references an operation's value was computed from
	bad  bool      // it may have been set: unknown from now on
	all  *pyRefs   // the run's references
}

// pyRefs is what the run's references share: off once any of them may have been set where the
// evaluator does not see it.
type pyRefs struct{ off bool }

// refSet is the run's pyRefs (made on first use).
func (ev *pyEval) refSet() *pyRefs {
	if ev.fieldRefs == nil {
		ev.fieldRefs = &pyRefs{}
	}
	return ev.fieldRefs
}

// refsOff makes every reference of the run unknown, made or to be made, when v, a value being
// replaced, is one the evaluator does not know (it may be a reference).
func (ev *pyEval) refsOff(v *pyVal) {
	if v != nil && v.k == pvOpaque && v.s == "" && v.x == nil {
		ev.refSet().off = true // (a reference the evaluator sees is set where it is: pyDict.set)
	}
}

// badRefs marks the references among vs as possibly set (a builtin or a call was given them).
func badRefs(vs []*pyVal) {
	for _, v := range vs {
		if r := refOf(v); r != nil {
			r.bad = true
		}
	}
}

// refOf is v's reference, or nil when v is not one.
func refOf(v *pyVal) *pyRef {
	if v.k == pvOpaque && v.s == "" && v.x != nil {
		return v.x.ref
	}
	return nil
}

// refVal is a value holding r, made at s..e.
func (ev *pyEval) refVal(r *pyRef, s, e int) *pyVal {
	return ev.val(pyVal{k: pvOpaque, x: &pyValX{ref: r}, s0: s, e0: e})
}

// value is r's value now, or nil when it is not known: it, or a reference it was computed
// from, may have been set. The references a value depends on form a graph that may share
// nodes (a = r + r; b = a + a): at most 256 are visited.
func (r *pyRef) value() *pyVal {
	budget := 256
	var known func(r *pyRef) bool
	known = func(r *pyRef) bool {
		if budget--; budget < 0 || r.bad || r.val == nil || r.all != nil && r.all.off {
			return false
		}
		for _, d := range r.deps {
			if d != nil && !known(d) {
				return false
			}
		}
		return true
	}
	if !known(r) {
		return nil
	}
	return r.val
}

// fieldVal is what reading a ConfigDict field that holds v gives: v, or the value of the
// reference v holds (unknown when that is not known).
func (ev *pyEval) fieldVal(v *pyVal, e *pyExpr) *pyVal {
	if r := refOf(v); r != nil {
		if w := r.value(); w != nil {
			return w
		}
		return ev.opaque(e)
	}
	return v
}

// newRef is FieldReference(v) (or ml_collections.FieldReference, config_dict.FieldReference):
// a reference to a known scalar given alone; for anything else (a field_type, None, a
// reference, a dict) a reference that is unknown, as placeholder(int)'s (no arguments here).
func (ev *pyEval) newRef(a pyArgs, e *pyExpr) *pyVal {
	r := &pyRef{all: ev.refSet()} // no value: unknown
	if len(a.pos) == 1 && len(a.kw) == 0 && refScalar(a.pos[0]) {
		r.val = a.pos[0]
	}
	return ev.refVal(r, e.s, e.e)
}

// refScalar reports a value a reference's value can be here: a bool, number or string.
func refScalar(v *pyVal) bool {
	switch v.k {
	case pvBool, pvInt, pvFloat, pvStr:
		return true
	}
	return false
}

// getRef is d.get_ref(key) (oneway: get_oneway_ref, a reference computed from it that setting
// does not pass back): the field's reference, made from its value when it holds a known
// scalar, or an unknown one when it holds anything else (a tuple, a dict, an unknown value:
// the field then holds it too); nil when the key is not known or missing (KeyError) or the
// field is None (ValueError).
func (ev *pyEval) getRef(d *pyDict, a pyArgs, oneway bool, e *pyExpr) *pyVal {
	if len(a.pos) != 1 || len(a.kw) != 0 || !hashable(a.pos[0]) {
		ev.refSet().off = true // which field became a reference is not known
		return nil
	}
	i := d.find(a.pos[0])
	if i < 0 {
		return nil
	}
	v := d.ents[i].v
	r := refOf(v)
	if r == nil {
		if v.k == pvNone {
			return nil
		}
		r = &pyRef{all: ev.refSet()}
		if refScalar(v) {
			r.val = v
		} // else a reference to a tuple, a dict, an unknown value: unknown
		d.ents[i].v = ev.refVal(r, v.s0, v.e0)
	}
	if oneway {
		r = &pyRef{val: r.value(), deps: [2]*pyRef{r}, all: r.all}
	}
	return ev.refVal(r, e.s, e.e)
}

// refOp is a op b where a or b holds a reference: a reference whose value is computed from
// theirs, as FieldReference's operators make one; nil when neither is a reference, when the
// operator is not one FieldReference has for that side (it has no __rmod__ or __rpow__), or
// when the value is not known (it can only become less known).
func (ev *pyEval) refOp(op string, a, b *pyVal, e *pyExpr) *pyVal {
	ra, rb := refOf(a), refOf(b)
	if ra == nil && rb == nil {
		return nil
	}
	switch op {
	case "+", "-", "*", "/", "//":
	case "%", "**":
		if ra == nil {
			return nil
		}
	default:
		return nil
	}
	av, bv := a, b
	if ra != nil {
		if av = ra.value(); av == nil {
			return nil
		}
	}
	if rb != nil {
		if bv = rb.value(); bv == nil {
			return nil
		}
	}
	if !refScalar(av) || !refScalar(bv) {
		return nil
	}
	if v := ev.binop(op, av, bv, e); refScalar(v) {
		return ev.refVal(&pyRef{val: v, deps: [2]*pyRef{ra, rb}, all: ev.refSet()}, e.s, e.e)
	}
	return nil
}

// refNeg is -v where v holds a reference (__neg__), nil otherwise.
func (ev *pyEval) refNeg(v *pyVal, e *pyExpr) *pyVal {
	r := refOf(v)
	if r == nil {
		return nil
	}
	x := r.value()
	if x == nil {
		return nil
	}
	var n *pyVal
	switch {
	case x.k == pvInt && x.i != -1<<63:
		n = ev.intVal(-x.i, e.s, e.e)
	case x.k == pvFloat:
		n = ev.floatVal(-x.f, e.s, e.e)
	default:
		return nil
	}
	return ev.refVal(&pyRef{val: n, deps: [2]*pyRef{r}, all: ev.refSet()}, e.s, e.e)
}
