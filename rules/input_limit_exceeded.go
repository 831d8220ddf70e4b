package rules

import "github.com/trainlint/trainlint/lint"

// InputLimitExceeded reports files that exceed a parser limit (size, nesting depth, alias
// expansions, node count). Such files are not analysed further, so the finding says which limit
// was hit and how to raise it.
var InputLimitExceeded = register(&inputLimitExceededDef)

var inputLimitExceededDef = lint.Rule{
	Code: "TL010", Name: "input-limit-exceeded", Category: lint.CatStructure, Severity: lint.Error,
	Title: "The file exceeds a parser limit and was not analysed",
	Rationale: `trainlint bounds the size, nesting depth, alias expansions and node count of what it reads, so
that a hostile or accidental input (an alias bomb, a generated file of millions of lines) ends
quickly instead of exhausting memory. A file over a limit gets no other findings, which would
otherwise go unnoticed; this finding makes the gap visible.`,
	Fix: `If the file is a genuine config, raise the named limit in the [limits] table of
.trainlint.toml (max-bytes, max-depth, max-aliases); otherwise exclude the file from linting.`,
	Frameworks: []string{"*"},
	Check:      reportProblems,
}
