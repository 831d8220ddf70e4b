package lint

// The engine's own rules: findings the engine makes itself rather than a rule's Check. Drivers
// include them through rules.All() like any other rule.
var (
	MalformedSuppression = &Rule{
		Code: "TL007", Name: "malformed-suppression", Category: CatStructure, Severity: Error,
		Title:      "A trainlint suppression comment cannot be understood",
		Rationale:  "A `# trainlint:` comment that cannot be parsed, names a rule that does not exist, or lacks a reason where the configuration requires one silences nothing, so the finding it was meant to silence still fails the run while the comment suggests otherwise.",
		Fix:        "Write `# trainlint: disable=RULE[,RULE] -- reason` on the offending line or the line above, or `# trainlint: disable-file=RULE -- reason` anywhere in the file. RULE is a code (TL202) or a name (eval-batch-smaller-than-train).",
		Frameworks: []string{"*"},
	}
	UnusedSuppression = &Rule{
		Code: "TL008", Name: "unused-suppression", Category: CatStructure, Severity: Warning,
		Title:      "A suppression comment silences nothing",
		Rationale:  "A suppression that no longer matches a finding hides future regressions of that rule at this place and misleads readers about what the file does.",
		Fix:        "Remove the comment, or move it to the line the finding is reported on.",
		Frameworks: []string{"*"},
	}
	InternalError = &Rule{
		Code: "TL009", Name: "internal-error", Category: CatStructure, Severity: Error,
		Title:      "trainlint failed on this file",
		Rationale:  "A rule or dialect crashed on this input. The run goes on with the other rules and files; this finding makes sure the failure is not silent.",
		Fix:        "This is a bug in trainlint: please report it with the file that triggers it.",
		Frameworks: []string{"*"},
	}
)

// Builtin returns the engine's own rules.
func Builtin() []*Rule {
	return []*Rule{UnresolvedReference, MalformedSuppression, UnusedSuppression, InternalError}
}

// UnresolvedReference is a reference a run cannot follow: a missing group option or file, a
// reference outside the repository, an override that names nothing. The facts behind it are
// unknown, so the rules stay silent about them.
var UnresolvedReference = &Rule{
	Code: "TL006", Name: "unresolved-reference", Category: CatStructure, Severity: Info,
	Title:      "A composed run refers to something that cannot be found",
	Rationale:  "A defaults-list entry, an included file or an override that names nothing cannot be composed, so trainlint does not know the values it would have set and says so instead of guessing.",
	Fix:        "Check the name against the config directory, or ignore the finding when the file is created at launch time (a machine-local config, say).",
	Frameworks: []string{"*"},
}
