package lint

// RunRules runs the active rules on an analysis without the parse, normalise and suppression
// stages around them, so the benchmarks can time the rules alone.
func RunRules(rules []*Rule, a Analysis, o Options) int {
	return len(runRules(Selected(rules, o.Select, o.Ignore), a, nil, o, nil))
}

// MemFS is the in-memory file system LintFiles composes runs from.
func MemFS(m map[string][]byte) memFS { return memFS(m) }

// PyLiteral exports pyLiteral to the tests.
func PyLiteral(b []byte) bool { return pyLiteral(b) }
