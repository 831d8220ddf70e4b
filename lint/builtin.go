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
func Builtin() []*Rule { return []*Rule{MalformedSuppression, UnusedSuppression, InternalError} }
