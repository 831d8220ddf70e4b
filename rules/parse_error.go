package rules

import "github.com/trainlint/trainlint/lint"

// ParseError reports files that are not valid YAML, JSON or TOML.
var ParseError = register(&parseErrorDef)

var parseErrorDef = lint.Rule{
	Code: "TL001", Name: "parse-error", Category: lint.CatStructure, Severity: lint.Error,
	Title: "The file is not valid YAML, JSON or TOML",
	Rationale: `A configuration that does not parse fails the job when it starts, after it has waited in
the queue. trainlint reports where the parser stopped and what it expected there.`,
	Fix:        "Correct the syntax at the reported position.",
	Frameworks: []string{"*"},
	Check:      reportProblems,
}
