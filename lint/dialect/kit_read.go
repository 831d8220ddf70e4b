package dialect

import (
	"math"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// The reading kit, part 2: typed fact readers shared by every dialect. They never panic on odd
// shapes: a value of the wrong type or a placeholder gives an Unknown fact that still carries its
// node, so a rule can point at it if it wants to. Readers that follow references (the gen* and
// Lightning-family readers) use the one resolver of kit_interp.go.

// IntAt reads an integer at a dotted path under root. ok reports whether the key is present
// (even if its value is unknown or of another type).
func IntAt(root *doc.Node, path string) (f plan.Fact[int], ok bool) {
	return factAt(root, path, func(n *doc.Node) (int, bool) {
		v, isInt := n.Int()
		return int(v), isInt
	})
}

// FloatAt reads a number at a dotted path.
func FloatAt(root *doc.Node, path string) (f plan.Fact[float64], ok bool) {
	return factAt(root, path, (*doc.Node).Float)
}

// BoolAt reads a boolean at a dotted path.
func BoolAt(root *doc.Node, path string) (f plan.Fact[bool], ok bool) {
	return factAt(root, path, (*doc.Node).Bool)
}

// StrAt reads a scalar as text at a dotted path (any scalar type except null and unknown).
func StrAt(root *doc.Node, path string) (f plan.Fact[string], ok bool) {
	return factAt(root, path, func(n *doc.Node) (string, bool) {
		return n.Value, n.IsScalar() && !n.IsNull() && !n.IsUnknown()
	})
}

// factAt reads the node at a dotted path with parse: a value parse rejects gives an Unknown
// fact that keeps the node. ok reports whether the key is present.
func factAt[T any](root *doc.Node, path string, parse func(n *doc.Node) (T, bool)) (f plan.Fact[T], ok bool) {
	n := root.At(path)
	if n == nil {
		return f, false
	}
	if v, ok := parse(n); ok {
		return plan.Set(v, path, n), true
	}
	return plan.Fact[T]{Key: path, Node: n}, true
}

// StepBudgetAt reads a run's step budget (max_steps) at path (stepBudget).
func StepBudgetAt(root *doc.Node, path string) plan.Fact[int] {
	f, _ := IntAt(root, path)
	return stepBudget(f)
}

// stepBudget keeps a max_steps fact as the run's step budget: a positive integer is the
// budget; a value written but not readable as an integer (a template placeholder such as
// "${MAX_STEPS}", filled in by a launcher; an interpolation) is an Unknown fact that keeps its
// node, so that rules can tell "a budget may be set" from "none is"; absent, null, zero or
// negative is no budget (the zero fact).
func stepBudget(f plan.Fact[int]) plan.Fact[int] {
	if f.Node == nil || f.Node.IsNull() || f.Known() && f.Value <= 0 {
		return plan.Fact[int]{}
	}
	return f
}

// IntOr reads an integer at path, or returns the framework default when the key is absent.
// A present key with an unknown value (interpolation, "auto") stays Unknown: the default does
// not apply to a value that will be supplied later.
func IntOr(root *doc.Node, path string, def int, note plan.Why) plan.Fact[int] {
	f, ok := IntAt(root, path)
	return orDefault(f, ok, path, def, note)
}

// BoolOr reads a boolean at path, or the framework default when the key is absent or null.
func BoolOr(root *doc.Node, path string, def bool, note plan.Why) plan.Fact[bool] {
	f, ok := BoolAt(root, path)
	return orDefault(f, ok, path, def, note)
}

// orDefault keeps a fact read at path (ok: the key is present) unless the key is absent or
// null; then it is the framework default, located at the null value if there is one.
func orDefault[T any](f plan.Fact[T], ok bool, path string, def T, note plan.Why) plan.Fact[T] {
	if ok {
		if f.Node != nil && f.Node.IsNull() {
			return plan.Defaulted(def, path, note, f.Node)
		}
		return f
	}
	return plan.Defaulted(def, path, note, nil)
}

// readNode reads n with parse after following same-file references (resolve; also are the extra
// sections a bare name may live in): the fact points at n, where the value is written in this
// file, and its note names the reference followed. A value parse rejects, or a reference that
// cannot be followed, gives an Unknown fact at n. Every reader that follows references is a parse
// function over it.
func readNode[T any](root, n *doc.Node, key string, parse func(t *doc.Node) (T, bool), also ...string) plan.Fact[T] {
	t, via, _ := resolve(root, n, also...)
	if v, ok := parse(t); ok {
		f := plan.Set(v, key, n)
		f.Note = viaNote(via)
		return f
	}
	return plan.Fact[T]{Key: key, Node: n}
}

// genNode is readNode for the generic family, whose bare names may live in llm-foundry's
// variables section (genDeref).
func genNode[T any](root, n *doc.Node, key string, parse func(t *doc.Node) (T, bool)) plan.Fact[T] {
	return readNode(root, n, key, parse, "variables")
}

// genRef reads the value at a dotted path with one of the typed node readers; ok is false when
// the key is absent.
func genRef[T any](root *doc.Node, path string, read func(root, n *doc.Node, key string) plan.Fact[T]) (plan.Fact[T], bool) {
	n := root.At(path)
	if n == nil {
		return plan.Fact[T]{Key: path}, false
	}
	return read(root, n, path), true
}

// genIntNode reads an integer from n (following references); the fact points at n, where the value
// is written in this file.
func genIntNode(root, n *doc.Node, key string) plan.Fact[int] {
	if n == nil {
		return plan.Fact[int]{Key: key}
	}
	return genNode(root, n, key, func(t *doc.Node) (int, bool) {
		if t.IsScalar() && t.Type != doc.Bool {
			if v, ok := t.Int(); ok && v >= math.MinInt32 && v <= math.MaxInt32 {
				return int(v), true
			}
		}
		return 0, false
	})
}

// genIntRef reads an integer at a dotted path, following same-file references.
func genIntRef(root *doc.Node, path string) (plan.Fact[int], bool) {
	return genRef(root, path, genIntNode)
}

// genBoolRef reads a boolean at a dotted path, following same-file references.
func genBoolRef(root *doc.Node, path string) (plan.Fact[bool], bool) {
	return genRef(root, path, genBoolNode)
}

func genBoolNode(root, n *doc.Node, key string) plan.Fact[bool] {
	return genNode(root, n, key, (*doc.Node).Bool)
}

// genBoolChoice reads a boolean at n as one of two values (ifFalse, ifTrue), set at key; a
// value that is not a boolean gives an Unknown fact at n. Unlike genBoolNode the fact has no
// note about a reference followed.
func genBoolChoice[T any](root, n *doc.Node, key string, ifFalse, ifTrue T) plan.Fact[T] {
	f := genBoolNode(root, n, key)
	if !f.Known() {
		return plan.Fact[T]{Key: key, Node: n}
	}
	if f.Value {
		return plan.Set(ifTrue, key, n)
	}
	return plan.Set(ifFalse, key, n)
}

// genStrRef reads a scalar as text at a dotted path (not null, not unresolved), following references.
func genStrRef(root *doc.Node, path string) (plan.Fact[string], bool) {
	return genRef(root, path, genStrNode)
}

func genStrNode(root, n *doc.Node, key string) plan.Fact[string] {
	return genNode(root, n, key, func(t *doc.Node) (string, bool) {
		if t.IsScalar() && !t.IsNull() && !t.IsUnknown() {
			return t.Value, true
		}
		return "", false
	})
}

// genSeedNode reads a seed from n. A value derived from the rank varies by host; a plain number is
// the same on every host as far as the file says; a null or unresolved value stays Unknown.
func genSeedNode(root, n *doc.Node, key string) plan.Fact[plan.Seed] {
	if n == nil {
		return plan.Fact[plan.Seed]{Key: key}
	}
	t, via := genDeref(root, n)
	if !t.IsScalar() || t.IsNull() {
		return plan.Fact[plan.Seed]{Key: key, Node: n}
	}
	expr := n.Value
	if via != "" && !t.IsUnknown() {
		expr = t.Value
	}
	if varies, why := VariesByHost(n.Value + " " + t.Value); varies {
		return plan.Set(plan.Seed{Value: n.Value, Varies: plan.VariesByHost, Why: why}, key, n)
	}
	if t.IsUnknown() {
		return plan.Fact[plan.Seed]{Key: key, Node: n, Value: plan.Seed{Value: n.Value}}
	}
	f := plan.Set(plan.Seed{Value: expr, Varies: plan.SameOnEveryHost}, key, n)
	f.Note = viaNote(via)
	return f
}

// isMap reports whether n is a non-nil map.
func isMap(n *doc.Node) bool { return n != nil && n.Kind == doc.Map }

// intValue reads a strictly typed integer (YAML int, or a float without fraction); quoted
// strings and placeholders give ok=false.
func intValue(n *doc.Node) (int, bool) {
	if n == nil || n.Kind != doc.Scalar || (n.Type != doc.Int && n.Type != doc.Float) {
		return 0, false
	}
	v, ok := n.Int()
	if !ok || v > math.MaxInt32 || v < math.MinInt32 {
		return 0, false
	}
	return int(v), true
}

// boolValue reads a strictly typed boolean (a YAML/JSON boolean, not a string).
func boolValue(n *doc.Node) (bool, bool) {
	if n == nil || n.Kind != doc.Scalar || n.Type != doc.Bool {
		return false, false
	}
	return n.Bool()
}

// intFact reads an integer at key under sec; def applies when the key is absent or null (use
// hasDef=false for no default). A present value of another type or a placeholder is Unknown.
func intFact(root, sec *doc.Node, prefix, key string, def int, hasDef bool, note plan.Why) plan.Fact[int] {
	n := sec.Get(key)
	k := keyOf(n, prefix, key)
	if n == nil || n.IsNull() {
		if hasDef {
			return plan.Defaulted(def, k, note, n)
		}
		return plan.Fact[int]{Key: k, Node: n}
	}
	return readNode(root, n, k, intValue)
}

// boolFact reads a boolean at key under sec, with a default when absent or null.
func boolFact(root, sec *doc.Node, prefix, key string, def bool, hasDef bool, note plan.Why) plan.Fact[bool] {
	n := sec.Get(key)
	k := keyOf(n, prefix, key)
	if n == nil || n.IsNull() {
		if hasDef {
			return plan.Defaulted(def, k, note, n)
		}
		return plan.Fact[bool]{Key: k, Node: n}
	}
	return readNode(root, n, k, boolValue)
}

// strValue is a scalar's text when it is a real string/number (not null, not a placeholder).
func strValue(n *doc.Node) (string, bool) {
	if n == nil || n.Kind != doc.Scalar || n.IsNull() || n.IsUnknown() {
		return "", false
	}
	return n.Value, true
}
