// Package rules is trainlint's rule catalogue: one file per rule, each a lint.Rule value with its
// metadata beside its Check. Codes and names are stable public identifiers (see the catalogue).
package rules

import "github.com/trainlint/trainlint/lint"

// All returns every rule, the engine's own included, in code order.
func All() []*lint.Rule {
	rs := []*lint.Rule{
		ParseError,
	}
	rs = append(rs, lint.Builtin()...)
	sortByCode(rs)
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

func sortByCode(rs []*lint.Rule) {
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j].Code < rs[j-1].Code; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
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
