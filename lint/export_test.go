package lint

// RunRules runs the active rules on an analysis without the parse, normalise and suppression
// stages around them, so the benchmarks can time the rules alone.
func RunRules(rules []*Rule, a Analysis, o Options) int {
	n := 0
	for _, r := range Selected(rules, o.Select, o.Ignore) {
		if r.Check == nil || (r.NeedsPlan && a.Plan == nil) {
			continue
		}
		n += len(runRule(r, a, o))
	}
	return n
}

// MemFS is the in-memory file system LintFiles composes runs from.
func MemFS(m map[string][]byte) memFS { return memFS(m) }
