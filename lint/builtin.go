package lint

import "github.com/trainlint/trainlint/lint/dialect"

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

// UnresolvedReference is a reference trainlint cannot follow: in a composed run, a missing group
// option or file, a reference outside the repository, an override that names nothing (reported
// by the run composer); in one file, an OmegaConf ${a.b} that names no key of a section the file
// defines (checkUnresolvedRef). The facts behind it are unknown, so the rules stay silent about
// them.
var UnresolvedReference = &Rule{
	Code: "TL006", Name: "unresolved-reference", Category: CatStructure, Severity: Info,
	Title:     "A reference cannot be resolved",
	NeedsPlan: true,
	Rationale: "A defaults-list entry, an included file or an override that names nothing cannot be composed, " +
		"and an interpolation such as `${trainer.devices}` that names a key the file does not have fails " +
		"when OmegaConf reads the value. trainlint does not know the values such references would have set, " +
		"so the checks that need them ran with unknown values and stayed silent; it says so instead of guessing.\n\n" +
		"Only interpolations into a section the file itself defines are checked in a single file: " +
		"`${paths.output_dir}` in a Hydra group file without a `paths` section names the composed config, and " +
		"resolvers (`${oc.env:RANK}`) and relative references (`${.key}`) are left alone.",
	Fix: "Check the name against the config directory or define the key in the file, correct a misspelt " +
		"path, or, when the value comes from elsewhere (a command-line override, a file created at launch " +
		"time), suppress the finding on that line.",
	Frameworks: []string{"*"},
	Check:      checkUnresolvedRef,
}

func checkUnresolvedRef(p *Pass) {
	d := dialect.ByName(p.Plan.Framework)
	if d == nil || !d.Interpolates || p.Doc == nil || p.hydraLoaded && p.run == nil {
		// A file Hydra composes: its sections merge with other files' (fast3r's
		// `# @package _global_` option writes data.p from ${data.root}, which the data
		// group sets), and the runs check its references in the composed config.
		return
	}
	for _, u := range dialect.UnresolvedRefs(p.Doc.Root, d.RefSections...) {
		if scriptAdded(p.addsHere, u.Ref) {
			continue // the script reading it adds it before the config is read (Options.ScriptAddsHere)
		}
		p.Report(Finding{
			Node:    u.Node,
			Message: "${" + u.Ref + "} names no key of this file",
			Key:     u.Node.Path().String(),
			Help:    "define " + u.Ref + " in the file or fix the path; checks that need this value ran without it",
		})
	}
}
