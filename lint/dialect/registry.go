package dialect

import "github.com/trainlint/trainlint/lint/doc"

var registry []*Dialect

// register adds a dialect; each dialect file calls it from init (adding a framework touches
// its own file and its testdata, nothing else), as `var X = register(newX())`: each dialect
// is built by a function of its own, not by a literal in the package's initialiser. In the
// browser the initialiser was then one 58 KB WebAssembly function, which V8, counting its
// jumps as executed code, recompiled with TurboFan on a worker thread for about 330 ms while
// the checker started (for a function that runs once); split, no piece is recompiled, and
// the checker is ready about 70 ms sooner at a load of 3 per CPU (site/doc.go, Timings).
func register(d *Dialect) *Dialect {
	registry = append(registry, d)
	return d
}

// All returns every dialect sorted by name, Generic last. Detection ties (rare: strong evidence
// is decisive) go to the earlier one. The order is computed once, by init (every dialect is
// registered by a package-level variable, so all are in by then: the rules' initialisers alone
// call All a few dozen times at start-up), and each caller gets its own copy; a call from a
// variable's initialiser, before init, sorts for itself.
func All() []*Dialect {
	s := sorted
	if len(s) != len(registry) {
		s = sortedRegistry()
	}
	return append(make([]*Dialect, 0, len(s)), s...)
}

// sorted is All's order, set once by init and only read after it, so concurrent lints share it
// without a lock.
var sorted []*Dialect

func init() { sorted = sortedRegistry() }

func sortedRegistry() []*Dialect {
	out := make([]*Dialect, 0, len(registry)+1)
	for _, d := range registry {
		if d != Generic {
			out = append(out, d)
		}
	}
	// An insertion sort of the dozen dialects (names are unique, so the order is sort.Slice's):
	// sort.Slice's reflection swapper and pattern-defeating quicksort were otherwise the first
	// sort code the browser checker compiled at start-up, for this alone (site/doc.go, Timings).
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Name < out[j-1].Name; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return append(out, Generic)
}

// ByName returns the dialect with the given framework id, or nil.
func ByName(name string) *Dialect {
	for _, d := range registry {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// Detect picks the dialect with the highest score (ties go to the earlier one in All); the
// generic dialect when nothing reaches MinScore.
func Detect(d *doc.Document) *Dialect {
	if d.Root != nil && d.Root.Kind == doc.Map && (len(d.Root.Children) > maxConfigKeys || valueGrid(d.Root)) {
		return Generic
	}
	if best := detectAmong(d, false); best != nil {
		return best
	}
	if best := detectAmong(d, true); best != nil {
		return best
	}
	return Generic
}

// maxConfigKeys: a map of more top-level keys is a table, not a training config (a tokenizer's
// vocab.json of 151,643 tokens, among them "trainer", "precision" and "devices", scored as a
// Lightning trainer file); no framework's evidence is sought in it.
const maxConfigKeys = 5000

// valueGrid reports a map of at least five keys whose every value is a non-empty list: the
// candidates a sweep script expands into runs (Xilinx/brevitas papers/expansion/*.yaml, whose
// benchmark utility passes one item of each list as --key value), not a config a framework
// reads as written, where learning_rate or max_steps would be one number.
func valueGrid(root *doc.Node) bool {
	if len(root.Children) < 5 {
		return false
	}
	for _, c := range root.Children {
		if c.Kind != doc.Seq || len(c.Children) == 0 {
			return false
		}
	}
	return true
}

// detectAmong is the best-scoring dialect (at least MinScore) among the ordinary dialects, or
// among the fallbacks.
func detectAmong(d *doc.Document, fallback bool) *Dialect {
	var best *Dialect
	bestScore := 0
	for _, dl := range All() {
		if dl == Generic || dl.Fallback != fallback || dl.Detect == nil || !supports(dl, d.Format) {
			continue
		}
		if s := dl.Detect(d); s > bestScore {
			best, bestScore = dl, s
		}
	}
	if best == nil || bestScore < MinScore {
		return nil
	}
	return best
}

func supports(dl *Dialect, f doc.Format) bool {
	if len(dl.Formats) == 0 {
		return true
	}
	for _, x := range dl.Formats {
		if x == f {
			return true
		}
	}
	return false
}

// KnownPythonConfig reports a Python file that reads as a config (doc.IsPythonConfig) of a
// framework trainlint knows, or as an ml_collections config (a get_config that returns a
// ConfigDict: doc.Document.ConfigDict); one whose tree could not be read counts, so that its
// problems are reported. The test a folder walk (cmd/trainlint notAConfig) and the language
// server apply to a .py file: a script or helper module is not a config.
func KnownPythonConfig(d *doc.Document) bool {
	return doc.IsPythonConfig(d) && (d.Root == nil || d.ConfigDict || Detect(d) != Generic)
}
