// Package rules is trainlint's rule catalogue: one file per rule, each a lint.Rule value with its
// metadata beside its Check, registered from its own file (adding a rule touches that file and
// its testdata archive, nothing else). Codes and names are stable public identifiers.
package rules

import (
	"sort"

	"github.com/trainlint/trainlint/lint"
)

var registry []*lint.Rule

// register adds a rule to the catalogue; each rule file calls it from init.
func register(r *lint.Rule) *lint.Rule {
	registry = append(registry, r)
	return r
}

// All returns every rule, the engine's own included, in code order.
func All() []*lint.Rule {
	rs := append([]*lint.Rule{}, registry...)
	rs = append(rs, lint.Builtin()...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Code < rs[j].Code })
	return rs
}

// ByName finds a rule by name or code.
func ByName(s string) *lint.Rule {
	for _, r := range All() {
		if r.Name == s || r.Code == s {
			return r
		}
	}
	return nil
}

// reportProblems reports the front-end's problems of one kind (parse-error, duplicate-key,
// input-limit-exceeded) as findings of rule p.Rule.
func reportProblems(p *lint.Pass) {
	for _, pr := range p.Doc.Problems {
		if pr.Rule != p.Rule.Name {
			continue
		}
		f := lint.Finding{Span: pr.Span, Message: pr.Message}
		if pr.Related != nil {
			f.Related = []lint.RelatedNode{{Span: *pr.Related, Message: pr.RelatedMessage}}
		}
		p.Report(f)
	}
}
