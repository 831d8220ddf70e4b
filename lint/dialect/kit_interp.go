package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// The reading kit, part 1: one resolver for same-file interpolations, used by every dialect.

// refPattern (kit_match.go) matches an OmegaConf node interpolation that names another key of the same file by
// its absolute dotted path: "${batch_size}", "${trainer.limit_train_batches}", "${a.0}". The
// segments are OmegaConf's interpolation keys (omegaconf/grammar/OmegaConfGrammarParser.g4:
// dashes and digits are allowed). Resolvers ("${oc.env:RANK}", "${multiply:...}") contain a colon,
// relative references a leading dot: neither is followed.

// selectPath finds a dotted path the way OmegaConf selects an interpolation's target
// (_select_one): a segment is a key of a map, or, on a list, an index ("${a.0}" is a's first
// item), as Node.StepPath steps (the paths here are never empty: refAt reads none).
func selectPath(root *doc.Node, path string) *doc.Node { return root.StepPath(path) }

// selectThrough is selectPath that, as OmegaConf selects, goes through a node on the way that
// is exactly one interpolation: with transforms: ${data.transforms}, ${transforms.ename} is
// data.transforms.ename (TEMOS's train.yaml). nil when the path is not found so either.
func selectThrough(root *doc.Node, path string) *doc.Node {
	if t := selectPath(root, path); t != nil || strings.ContainsAny(path, "[]") {
		return t
	}
	n := root
	for _, seg := range strings.Split(path, ".") {
		if n.Kind == doc.Scalar {
			t, _, ok := resolve(root, n)
			if !ok || t == n || t.Kind == doc.Scalar {
				return nil
			}
			n = t
		}
		if n = n.StepPath(seg); n == nil {
			return nil
		}
	}
	return n
}

// throughMandatory reports a path that selectThrough's walk stops at a mandatory value on the
// way ("???", in YAML quotes or not): with robot: ???, ${robot.asset.robot_type} is a value the
// launch fills (+robot=g1), not a missing key. OmegaConf v2.3.0 selects each segment with
// throw_on_missing=True (omegaconf/base.py:664-673, MissingMandatoryValue becomes
// InterpolationToMissingValueError; a missing key is :675-676's InterpolationKeyError), and a
// node is missing when its value is the string "???" (omegaconf/_utils.py:516-518,
// omegaconf/omegaconf.py:1148-1152).
func throughMandatory(root *doc.Node, path string) bool {
	if strings.ContainsAny(path, "[]") {
		return false
	}
	n := root
	for _, seg := range strings.Split(path, ".") {
		if n.Kind == doc.Scalar {
			t, _, _ := resolve(root, n)
			if t.Kind == doc.Scalar {
				return t.Value == "???"
			}
			n = t
		}
		if n = n.StepPath(seg); n == nil {
			return false
		}
	}
	return false
}

// resolve follows n while it is exactly one same-file interpolation (a bounded number of hops,
// so a cycle ends). t is the node that holds the value: n itself when n is no reference. via is
// the first reference followed. ok is false when a reference could not be followed (a resolver,
// a relative reference, a key defined in another file, a cycle); t is then the last reference.
// also are sections tried when the path is not found from the root (llm-foundry resolves a bare
// ${name} against its variables section).
func resolve(root, n *doc.Node, also ...string) (t *doc.Node, via string, ok bool) {
	for hops := 0; hops < 8; hops++ {
		if !n.IsUnknown() {
			return n, via, true
		}
		path, ok := refPattern(strings.TrimSpace(n.Value))
		if !ok {
			return n, via, false
		}
		next := selectPath(root, path)
		for _, sec := range also {
			if next == nil {
				next = selectPath(root, sec+"."+path)
			}
		}
		if next == nil || next == n {
			return n, via, false
		}
		if via == "" {
			via = strings.TrimSpace(n.Value)
		}
		n = next
	}
	return n, via, false
}

// genDeref is resolve for the readers of the generic family (generic, torchtitan, GPT-NeoX,
// torchtune, Composer): an unresolved reference gives the reference itself, which no typed
// reader accepts, and a bare name may live in llm-foundry's variables section.
func genDeref(root, n *doc.Node) (*doc.Node, string) {
	t, via, _ := resolve(root, n, "variables")
	return t, via
}

// resolveRef is resolve for the Lightning-family readers: nil when a reference cannot be followed.
func resolveRef(root, n *doc.Node) (*doc.Node, string) {
	t, via, ok := resolve(root, n)
	if !ok {
		return nil, via
	}
	return t, via
}

// anyRef (kit_match.go) matches every same-file interpolation inside a string: "${paths.log_dir}/ckpt" names
// paths.log_dir. Resolvers (a colon) and relative references (a leading dot) do not match.

// Unresolved is an interpolation whose target is not in the file.
type Unresolved struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Node *doc.Node
	Ref  string // the dotted path, "paths.log_dir"; the variable's name when Env
	// Env marks an environment variable without a default (UnresolvedInRun).
	Env bool
}

// UnresolvedRefs lists, in document order, the ${a.b} interpolations of root that point into a
// section the file defines (a is a key of the root, or of a section in also) but name no key
// there, looked up as resolve does (from the root, then under also). A reference whose first
// segment the file does not define at all (${paths.output_dir} in a Hydra group file) is left
// alone: it names the composed config's keys. So is every reference of a file with a Hydra
// defaults list, which is composed with other files, and every ${hydra.x} (Hydra's own
// config, completed at launch).
func UnresolvedRefs(root *doc.Node, also ...string) []Unresolved {
	if !isMap(root) {
		return nil
	}
	if d := root.Get("defaults"); d != nil && d.Kind == doc.Seq {
		return nil
	}
	var out []Unresolved
	walkInterpolated(root, func(n *doc.Node) {
		for _, path := range anyRef(n.Value) {
			first, _, _ := strings.Cut(path, ".")
			if first == "hydra" {
				// Hydra's own config: hydra.job.num, hydra.runtime.output_dir and the like
				// are filled in at launch, whatever the file's hydra: section says.
				continue
			}
			found := selectPath(root, path) != nil
			owns := root.Get(first) != nil
			for _, sec := range also {
				found = found || selectPath(root, sec+"."+path) != nil
				owns = owns || selectPath(root, sec+"."+first) != nil
			}
			if owns && !found {
				out = append(out, Unresolved{Node: n, Ref: path})
			}
		}
	})
	return out
}

// walkInterpolated calls f on every scalar under root whose value holds an interpolation.
func walkInterpolated(root *doc.Node, f func(n *doc.Node)) {
	root.Walk(func(n *doc.Node) bool {
		if n.Kind == doc.Scalar && strings.Contains(n.Value, "${") {
			f(n)
		}
		return true
	})
}

// viaNote is the note of a fact read through a reference: "= ${batch_size}".
func viaNote(via string) string {
	if via == "" {
		return ""
	}
	return "= " + via
}

// envRefs (kit_match.go) matches an OmegaConf environment resolver: "${oc.env:RANK}", "${oc.env:X,default}"
// (group 1 the variable, group 2 the default with its comma, "" when none). The older
// "${env:X}" resolver was removed in OmegaConf 2.1 and is not matched.

// UnresolvedInRun lists the interpolations of a composed run (root is the whole composed
// config, so every key a reference may name is there) whose value cannot be known: a ${a.b}
// that names no key of the run, and an ${oc.env:X} without a default (Env; its value is the
// launching shell's). References whose first segment is hydra (Hydra's own config, which the
// run does not hold) are left alone, as are resolvers other than oc.env.
func UnresolvedInRun(root *doc.Node) []Unresolved {
	if !isMap(root) {
		return nil
	}
	var out []Unresolved
	walkInterpolated(root, func(n *doc.Node) {
		for _, path := range anyRef(n.Value) {
			if first, _, _ := strings.Cut(path, "."); first == "hydra" {
				continue
			}
			if selectThrough(root, path) == nil && !throughMandatory(root, path) {
				out = append(out, Unresolved{Node: n, Ref: path})
			}
		}
		for _, m := range envRefs(n.Value) {
			if m[1] == "" {
				out = append(out, Unresolved{Node: n, Ref: m[0], Env: true})
			}
		}
	})
	return out
}
