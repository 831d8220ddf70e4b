package site

import (
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/rules"
)

// ruleExamples returns the documented examples of a rule: the sections of its testdata archive
// (rules/testdata/<name>.txtar), which the rule tests also run.
func ruleExamples(r *lint.Rule) ([]Example, error) {
	var out []Example
	for _, ex := range rules.Examples(r.Name) {
		out = append(out, Example{Framework: ex.Framework, Path: ex.Name, Text: ex.Text, Format: ex.Format,
			Bad: ex.Kind == "bad", Options: ex.Options(), Args: strings.Join(ex.Args, " ")})
	}
	return out, nil
}
