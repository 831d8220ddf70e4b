// Package rules is trainlint's rule catalogue: one file per rule, each a lint.Rule value with its
// metadata beside its Check, registered from its own file. Codes and names are stable public
// identifiers.
//
// Rules name no framework (TestRulesNameNoFramework fails if a non-test file does). They read the
// normalised plan.Plan, which every dialect fills the same way, and take whatever differs between
// frameworks from the dialect that read the file: its help for the concept (advice, fixList), its
// input loader (loadsWithTorch), its renamed keys and closed key sets (through lint/schema).
//
// # How to add a rule
//
// Two files, nothing else:
//
//  1. rules/<name>.go: `var X = register(&xDef)` and `var xDef = lint.Rule{Code, Name, Category,
//     Severity, Anchor, Title, Rationale, Fix, Check}` (a package-level value, which the compiler
//     lays out as data: `register(&lint.Rule{...})` was built field by field at start-up, 10 KB
//     of init code the browser checker compiled before ready), with a Check that reads p.Plan
//     (or p.Doc for structural rules) and reports through p.Report. Messages are short,
//     lowercase facts with values quoted; guidance goes in Help. Per-framework help comes from
//     dialect.Advice under the concept the rule reads (add the concept's Advice to the dialects
//     that need it), and the rule page's per-framework fix list from `FixList: fixList(concept,
//     outro)`, which follows Fix (its intro).
//  2. rules/testdata/<name>.txtar: bad-<framework>[-suffix].<ext> sections annotated with
//     `# want "regexp"`, good-<framework> sections that must stay clean, and optional .args,
//     .want and .fixed sections (see examples.go). The rule's Frameworks list is derived from its
//     bad sections, and the first bad and good sections are the examples on its page.
//
// If the rule needs a fact the Plan lacks, add a typed field to lint/plan and fill it in the
// dialects (with their golden archives showing it), rather than reading framework keys or notes.
package rules
