package rules

import (
	"strconv"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// DuplicateKey reports a mapping that names the same key twice. YAML and JSON loaders keep the
// last value without a word, TOML refuses the file; either way the first value is dead text that
// a reader will take for the setting in force. YAML merge keys (`<<`) are not duplicates. Where
// the framework's loader refuses the repetition (OmegaConf's), the message says that it stops.
var DuplicateKey = register(&duplicateKeyDef)

var duplicateKeyDef = lint.Rule{
	Code: "TL002", Name: "duplicate-key", Category: lint.CatStructure, Severity: lint.Error,
	Title: "A mapping repeats a key",
	Rationale: `When a key appears twice in one mapping, YAML and JSON loaders quietly keep the later value;
TOML loaders reject the file, and so does OmegaConf's YAML loader, which some frameworks load
their configs with, at start-up. Someone reading the config top-down sees the first value and
believes it is in force; a sweep script that edits the first occurrence changes nothing. The
trial then runs with settings nobody intended, and the comparison it was meant for is lost.`,
	Fix:        "Keep one occurrence of the key with the value you mean, and delete the other.",
	Frameworks: []string{"*"},
	Check:      checkDuplicateKey,
}

// checkDuplicateKey reports the document's repeated keys. Where the framework's loader refuses
// the repetition (plan.Rejection.Repeats, for the version targeted), the message says so
// instead of that the later value wins.
func checkDuplicateKey(p *lint.Pass) {
	type refusal struct {
		r           plan.Rejection
		ver, pinned string
	}
	var refused map[doc.Span]refusal
	if p.Plan != nil {
		for _, r := range p.Plan.Rejections {
			if ver, pinned, ok := rejectionVersion(p, r); ok && r.Repeats != nil && r.Node != nil {
				if refused == nil {
					refused = map[doc.Span]refusal{}
				}
				refused[r.Node.KeySpan] = refusal{r, ver, pinned}
			}
		}
	}
	for _, pr := range p.Doc.Problems {
		if pr.Kind != doc.DuplicateKey {
			continue
		}
		f := problemFinding(pr)
		if x, ok := refused[pr.Span]; ok {
			f.Message = x.r.Message + ": " + rejectionWho(x.r, x.ver, x.pinned) + ": " + strconv.Quote(x.r.Says)
			f.Help = "Keep one occurrence of the key with the value you mean, and delete the other (the check: " + x.r.Source + ")."
		}
		p.Report(f)
	}
}
