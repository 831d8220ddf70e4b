package dialect

import (
	"math"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// ---------------------------------------------------------------------------------------------
// Same-file interpolation and typed readers shared by the YAML dialects (torchtune, Composer).

// genRefPattern matches an OmegaConf reference to another key of the same file ("${batch_size}",
// "${variables.global_seed}"). Resolvers ("${oc.env:RANK}", "${multiply:...}") contain a colon
// and are not followed.
var genRefPattern = lazyRegexp(`^\$\{\s*([A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z_0-9][A-Za-z0-9_\-]*)*)\s*\}$`)

// genDeref follows same-file references from n (a bounded number of hops, so a cycle ends). It
// returns the node that holds the value and the first reference text when one was followed.
func genDeref(root, n *doc.Node) (*doc.Node, string) {
	via := ""
	for hops := 0; hops < 8 && n != nil && n.IsScalar() && n.Type == doc.Unknown; hops++ {
		m := genRefPattern().FindStringSubmatch(strings.TrimSpace(n.Value))
		if m == nil {
			break
		}
		t := root.At(m[1])
		if t == nil {
			// llm-foundry also resolves a bare ${name} against its variables section.
			t = root.At("variables." + m[1])
		}
		if t == nil || t == n {
			break
		}
		if via == "" {
			via = strings.TrimSpace(n.Value)
		}
		n = t
	}
	return n, via
}

func genViaNote(via string) string {
	if via == "" {
		return ""
	}
	return "= " + via
}

// genNode reads n with parse after following same-file references: the fact points at n, where
// the value is written in this file, and its note names the reference followed. A value parse
// rejects gives an Unknown fact at n. The typed readers below are parse functions over it.
func genNode[T any](root, n *doc.Node, key string, parse func(t *doc.Node) (T, bool)) plan.Fact[T] {
	t, via := genDeref(root, n)
	if v, ok := parse(t); ok {
		f := plan.Set(v, key, n)
		f.Note = genViaNote(via)
		return f
	}
	return plan.Fact[T]{Key: key, Node: n}
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
	f.Note = genViaNote(via)
	return f
}
