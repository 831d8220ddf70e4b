// Package rules is trainlint's rule catalogue: one file per rule, each a lint.Rule value with its
// metadata beside its Check, registered from its own file (adding a rule touches that file and
// its testdata archive, nothing else). Codes and names are stable public identifiers.
package rules

import (
	"sort"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
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

// problemKinds ties each rule that reports the front-end's problems to the kind it reports
// (filled in init: the rules' own initialisers refer to reportProblems).
var problemKinds map[*lint.Rule]doc.ProblemKind

func init() {
	problemKinds = map[*lint.Rule]doc.ProblemKind{
		ParseError: doc.Syntax, DuplicateKey: doc.DuplicateKey, InputLimitExceeded: doc.LimitExceeded,
	}
}

// reportProblems reports the front-end's problems of p.Rule's kind as its findings.
func reportProblems(p *lint.Pass) {
	kind, ok := problemKinds[p.Rule]
	if !ok {
		panic("rule " + p.Rule.Name + " reports document problems but has no problem kind")
	}
	for _, pr := range p.Doc.Problems {
		if pr.Kind != kind {
			continue
		}
		f := lint.Finding{Span: pr.Span, Message: pr.Message}
		if pr.Related != nil {
			f.Related = []lint.RelatedNode{{Span: *pr.Related, Message: pr.RelatedMessage}}
		}
		p.Report(f)
	}
}
