package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Helpers shared by every dialect: reading typed facts at a key path and scoring evidence.
// They never panic on odd shapes: a value of the wrong type or a placeholder gives an Unknown
// fact that still carries its node, so a rule can point at it if it wants to.

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

// IntOr reads an integer at path, or returns the framework default when the key is absent.
// A present key with an unknown value (interpolation, "auto") stays Unknown: the default does
// not apply to a value that will be supplied later.
func IntOr(root *doc.Node, path string, def int, note string) plan.Fact[int] {
	f, ok := IntAt(root, path)
	return orDefault(f, ok, path, def, note)
}

// BoolOr reads a boolean at path, or the framework default when the key is absent or null.
func BoolOr(root *doc.Node, path string, def bool, note string) plan.Fact[bool] {
	f, ok := BoolAt(root, path)
	return orDefault(f, ok, path, def, note)
}

// orDefault keeps a fact read at path (ok: the key is present) unless the key is absent or
// null; then it is the framework default, located at the null value if there is one.
func orDefault[T any](f plan.Fact[T], ok bool, path string, def T, note string) plan.Fact[T] {
	if ok {
		if f.Node != nil && f.Node.IsNull() {
			return plan.Defaulted(def, path, note, f.Node)
		}
		return f
	}
	return plan.Defaulted(def, path, note, nil)
}

// Score adds up evidence: each strong key present adds strongPts, each weak key weakPts. Keys
// are dotted paths under root.
func Score(root *doc.Node, strong []string, strongPts int, weak []string, weakPts int) int {
	s := 0
	for _, k := range strong {
		if root.At(k) != nil {
			s += strongPts
		}
	}
	for _, k := range weak {
		if root.At(k) != nil {
			s += weakPts
		}
	}
	return s
}

// Cap bounds a score to 100.
func Cap(s int) int {
	if s > 100 {
		return 100
	}
	return s
}

var rankRef = lazyRegexp(`(?i)(\bRANK\b|LOCAL_RANK|NODE_RANK|GLOBAL_RANK|WORLD_RANK|process_index|process_id|host_id|\brank\b|SLURM_PROCID|SLURM_NODEID|OMPI_COMM_WORLD_RANK|PMI_RANK)`)

// VariesByHost reports whether a seed expression is derived from the process or host index
// (`${oc.env:RANK}`, `seed + rank`, `jax.process_index()`), and names what it refers to.
func VariesByHost(expr string) (bool, string) {
	if m := rankRef().FindString(expr); m != "" {
		return true, "derived from " + strings.TrimSpace(m)
	}
	return false, ""
}
