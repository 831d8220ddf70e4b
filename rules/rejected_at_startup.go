package rules

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// RejectedAtStartup reports the framework's own start-up checks that the file fails, as the
// dialect read them from the framework's source (plan.Rejection). A check that a playbook rule
// names is reported by that rule instead; dialects do not list it here. A file the front-end
// could not load because the framework refuses it as it is read (doc.Refused: a config function
// that rejects the argument it is given) has no plan; its problem is reported here too, as are a
// composed run's refusals (lint.LintRun: defaults that include themselves, a key two bases set, an
// override value Hydra's parser refuses).
var RejectedAtStartup = register(&rejectedAtStartupDef)

var rejectedAtStartupDef = lint.Rule{
	Code: "TL011", Name: "rejected-at-startup", Category: lint.CatStructure, Severity: lint.Error,
	Title:    "The framework would refuse the file when the job starts",
	Composed: true,
	Rationale: `Frameworks check their settings against each other when a job starts: a logging interval of
zero, a fractional step count above one, a scheduler that needs evaluations while none run, a
prefetch depth without loader workers. The job then stops with an error, but only after it
waited in the queue, the nodes were allocated and often the model was downloaded and loaded.

trainlint makes the same checks before the job is queued, from the framework's source at a
named version: the message says what the framework would say and which version makes the check.
When the repository pins an older version that does not check, the finding is not reported.`,
	Fix: `Change the setting the message names so that the check passes; the help says how. A check that
exists only in some versions is reported for the version the repository pins (` + "`[target]`" + ` in
the config file, else requirements or lock files), else for the newest release read.`,
	Check: checkRejectedAtStartup,
}

func checkRejectedAtStartup(p *lint.Pass) {
	if p.Plan == nil {
		for _, pr := range p.Doc.Problems {
			if pr.Kind == doc.Refused {
				p.Report(lint.Finding{Span: pr.Span, Message: pr.Message,
					Help: "give the config an argument it accepts: the options the message lists, each with a value of its type"})
			}
		}
		return
	}
	for _, r := range p.Plan.Rejections {
		ver, pinned, ok := rejectionVersion(p, r)
		if !ok || r.Repeats != nil {
			continue // a repeated key: rule duplicate-key reports it, in the framework's words
		}
		f := lint.Finding{Key: r.Key, Message: r.Message + ": " + rejectionWho(r, ver, pinned)}
		if r.Says != "" {
			f.Message += ": " + strconv.Quote(r.Says)
		}
		place(&f, r.Node)
		if r.AtKey && r.Node != nil && !r.Node.KeySpan.IsZero() {
			f.AtKey = true
		}
		if !r.Span.IsZero() {
			f.Node, f.AtKey, f.Span, f.In = nil, false, r.Span, r.Node
		}
		f.Help = r.Help
		if f.Help == "" {
			f.Help = "change the setting so the check passes"
		}
		if r.Source != "" {
			f.Help += " (the check: " + r.Source + ")"
		}
		for _, rel := range r.Related {
			f.Related = append(f.Related, related(rel.Node, f.Node, rel.Message)...)
		}
		if fx := r.Fix; fx != nil && fx.Node != nil && fx.Node.IsScalar() {
			app := lint.Unsafe
			if fx.Safe {
				app = lint.Safe
			}
			f.Fix = lint.ReplaceValue(fx.Node, fx.Value, app, fx.Message)
		}
		p.Report(f)
	}
}

// rejectionVersion is the version a rejection is reported for: the pinned target of its
// package when there is one, else the newest version the check was read at; ok is false when
// that version does not make the check.
func rejectionVersion(p *lint.Pass, r plan.Rejection) (shown, pinnedBy string, ok bool) {
	ver := r.Read
	shown = ver
	if t, has := p.Targets[r.Package]; r.Package != "" && has && t.Version != "" {
		if len(dialect.ParseVersion(t.Version)) == 0 {
			return "", "", false // not a version (installed from a git commit): not claimed
		}
		ver, shown, pinnedBy = t.Version, t.VersionShown(), t.Source
	}
	if v := dialect.ParseVersion(ver); len(v) > 0 {
		if s := dialect.ParseVersion(r.Since); len(s) > 0 && dialect.CompareVersions(v, s) < 0 {
			return "", "", false
		}
		if u := dialect.ParseVersion(r.Until); len(u) > 0 && dialect.CompareVersions(v, u) >= 0 {
			return "", "", false
		}
	}
	return shown, pinnedBy, true
}

// rejectionWho is "transformers 4.46 stops at start-up (requirements.txt pins 4.46)".
func rejectionWho(r plan.Rejection, ver, pinnedBy string) string {
	who := r.Package
	if who == "" {
		who = "the framework"
	}
	if ver != "" {
		who += " " + ver
	}
	who += " stops at start-up"
	switch {
	case pinnedBy == "":
	case strings.Contains(pinnedBy, ver):
		// The CLI's sources name the version already ("requirements.txt pins 4.46",
		// ".trainlint.toml [target] sets 4.46").
		who += " (" + pinnedBy + ")"
	case pinnedBy != "":
		who += " (" + pinnedBy + " pins " + ver + ")"
	}
	return who
}
