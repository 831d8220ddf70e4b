package rules

import "github.com/trainlint/trainlint/lint"

// ParseError reports files that are not valid YAML, JSON, TOML, gin or Python.
var ParseError = register(&parseErrorDef)

var parseErrorDef = lint.Rule{
	Code: "TL001", Name: "parse-error", Category: lint.CatStructure, Severity: lint.Error,
	Title: "The file is not valid YAML, JSON, TOML, gin or Python",
	Rationale: `A configuration that does not parse fails the job when it starts, after it has waited in
the queue. trainlint reports where the parser stopped and what it expected there.

Valid means what the loaders the frameworks use would read: PyYAML for YAML (so a tab between
tokens, or a line left of the document's block, is an error here although some YAML readers
accept the first and silently drop everything after the second), Python's tomllib (TOML 1.0),
Python's json, gin-config's parser and CPython's. The YAML, TOML, JSON and Python readers are
tested against those loaders. A comment, a trailing comma, the rest of JSON5's syntax in JSON
(unquoted keys, single quotes, numbers such as 0x10, .5 or +1) or hjson's (# comments, no commas
between members, keys such as a-b, unquoted strings, ''' strings, no braces around the file) is
an error where the framework reads the file with Python's json; elsewhere (a launcher may read its
config with hjson) it is a note that says which lenient readers accept it: JSON5
readers take JSON5's, hjson readers hjson's, comments, trailing commas, unquoted keys and single
quotes too, but refuse JSON5's other escapes and read its numbers as strings. An unquoted string
runs to the end of its line in hjson, commas and brackets included; where a file reads as hjson
only by taking a closing bracket into such a string, the error is reported where JSON's syntax
stopped.`,
	Fix:        "Correct the syntax at the reported position.",
	Frameworks: []string{"*"},
	Check:      reportProblems,
}
