package rules

import "github.com/trainlint/trainlint/lint"

// DuplicateKey reports a mapping that names the same key twice. YAML and JSON loaders keep the
// last value without a word, TOML refuses the file; either way the first value is dead text that
// a reader will take for the setting in force. YAML merge keys (`<<`) are not duplicates.
var DuplicateKey = register(&duplicateKeyDef)

var duplicateKeyDef = lint.Rule{
	Code: "TL002", Name: "duplicate-key", Category: lint.CatStructure, Severity: lint.Error,
	Title: "A mapping repeats a key",
	Rationale: `When a key appears twice in one mapping, YAML and JSON loaders quietly keep the later value
and TOML loaders reject the file. Someone reading the config top-down sees the first value and
believes it is in force; a sweep script that edits the first occurrence changes nothing. The
trial then runs with settings nobody intended, and the comparison it was meant for is lost.`,
	Fix:        "Keep one occurrence of the key with the value you mean, and delete the other.",
	Frameworks: []string{"*"},
	Check:      reportProblems,
}
