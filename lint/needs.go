package lint

import "github.com/trainlint/trainlint/lint/plan"

// What a file's lint could not decide for want of launch context. A multi-host rule stays silent
// when the host count is unknown (it must not guess), so a clean result for a file that states
// no host count is not the same as a clean multi-host setup: FileInfo.NeedsHosts says which
// rules did not decide, and the drivers tell the user once ("2 multi-host rules need --hosts").

// needsHosts returns the codes of the selected multi-host rules that apply to the file's
// framework and could not run because its host count is unknown (the file does not state it,
// and neither --hosts nor the config file's [context] gave it). Every rule of the multi-host
// category starts by asking the plan for the host count; a test in package rules holds them to
// it.
//
// A file whose plan states none of the facts those rules read (seeds, data sharding, who
// checkpoints and logs) needs no host count: the rules stay silent on it whatever the count. So
// it is for a file of no known framework (the generic dialect, which knows no defaults: a
// .pre-commit-config.yaml, a readthedocs file, a model-zoo record) and for a file of a known one
// that configures nothing (mmpose's tools/train.py imports mmengine), which is not counted in
// the note.
func needsHosts(active []*Rule, a Analysis) []string {
	if a.Plan == nil || a.Plan.Topology.Hosts.Known() {
		return nil
	}
	// Origin read directly: the light WASM module is built without inlining, where each
	// Fact[T].Known would be a function call and a function of its own.
	p, u := a.Plan, plan.Unknown
	known := p.Seeds.Init.Origin != u || p.Seeds.Data.Origin != u || p.Data.Sharding.Origin != u ||
		p.Ckpt.Scope.Origin != u || p.Logging.Scope.Origin != u || p.Logging.ConsoleScope.Origin != u
	if !known {
		return nil
	}
	var codes []string
	for _, r := range active {
		if r.Category == CatMultiHost && r.Check != nil && appliesTo(r, a.Dialect.Name) {
			codes = append(codes, r.Code)
		}
	}
	return codes
}

// appliesTo reports whether the rule can fire in the framework ("*" for all).
func appliesTo(r *Rule, framework string) bool {
	for _, fw := range r.Frameworks {
		if fw == "*" || fw == framework {
			return true
		}
	}
	return false
}
