package dialect

import (
	"strings"
	"sync"

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

// keySet is an evidence list prepared for scoreSets: its plain keys by position (a root's
// children are then looked up once each, instead of a scan of the children per key) and its
// dotted keys, still followed with At.
type keySet struct {
	plain  map[string]int // key -> bit in the seen mask
	mult   []int          // how many times the list names the key of each bit
	dotted []string
}

// evidenceSet prepares a package-level evidence list on first use.
func evidenceSet(keys []string) func() *keySet {
	return sync.OnceValue(func() *keySet {
		ks := &keySet{plain: map[string]int{}}
		for _, k := range keys {
			if strings.Contains(k, ".") {
				ks.dotted = append(ks.dotted, k)
				continue
			}
			if i, ok := ks.plain[k]; ok {
				ks.mult[i]++
				continue
			}
			ks.plain[k] = len(ks.mult)
			ks.mult = append(ks.mult, 1)
		}
		if len(ks.mult) > 64 {
			panic("dialect: an evidence list has more than 64 distinct plain keys")
		}
		return ks
	})
}

// scoreSets is Score over prepared lists: the same sum, for the lists every file is scored
// against (detection runs every dialect on every file).
func scoreSets(root *doc.Node, strong *keySet, strongPts int, weak *keySet, weakPts int) int {
	return countKeys(root, strong)*strongPts + countKeys(root, weak)*weakPts
}

// countKeys is how many of the set's keys are present under root (At would find them).
func countKeys(root *doc.Node, ks *keySet) int {
	if root == nil || root.Kind != doc.Map || ks == nil {
		return 0
	}
	n := 0
	var seen uint64
	for _, c := range root.Children {
		if i, ok := ks.plain[c.Key]; ok && seen&(1<<i) == 0 {
			seen |= 1 << i
			n += ks.mult[i]
		}
	}
	for _, k := range ks.dotted {
		if root.At(k) != nil {
			n++
		}
	}
	return n
}

// The evidence lists every file is scored against, prepared for scoreSets.
var (
	hfStrongSet               = evidenceSet(hfStrong)
	hfWeakSet                 = evidenceSet(hfWeak)
	axoStrongSet              = evidenceSet(axoStrongKeys)
	axoWeakSet                = evidenceSet(axoWeakKeys)
	lfStrongSet               = evidenceSet(lfStrongKeys)
	lfWeakSet                 = evidenceSet(lfWeakKeys)
	dsStrongSet               = evidenceSet(dsStrong)
	dsWeakSet                 = evidenceSet(dsWeak)
	dsMegatronSet             = evidenceSet(dsMegatron)
	lightningTrainerStrongSet = evidenceSet(lightningTrainerStrong)
	lightningTrainerWeakSet   = evidenceSet(lightningTrainerWeak)
)

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
