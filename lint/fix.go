package lint

import (
	"errors"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// MaxFixRounds bounds the lint → apply → re-lint loop of FixFile. Fixes that overlap are applied
// one per round, so a handful of rounds converges on real files; a pair of fixes that undo each
// other stops here instead of looping forever.
const MaxFixRounds = 5

// FixOutcome is the result of fixing one file.
type FixOutcome struct {
	// Text is the fixed text (the input when nothing applied).
	Text []byte
	// Applied counts the fixes applied over all rounds.
	Applied int
	// Rounds is how many rounds applied at least one fix.
	Rounds int
	// Info and Diagnostics are the lint of Text: what is left after fixing.
	Info        FileInfo
	Diagnostics []Diagnostic
}

// Changed reports whether fixing changed the text.
func (o FixOutcome) Changed() bool { return o.Applied > 0 }

// FixFile lints f, applies its fixes (safe ones; unsafe ones too when unsafe is set), re-lints
// the result and repeats while fixes still apply, up to MaxFixRounds. It is pure, like LintFile:
// the caller writes the text. A round whose text no longer parses (a fix produced broken syntax:
// a trainlint bug) is discarded and reported as an error, with the outcome of the rounds before
// it, so the caller never writes a file that was valid before and is broken after.
func FixFile(f File, rules []*Rule, o Options, unsafe bool) (FixOutcome, error) {
	info, diags := LintFile(f, rules, o)
	out := FixOutcome{Text: f.Text, Info: info, Diagnostics: diags}
	parsedBefore := parses(f, o)
	for round := 0; round < MaxFixRounds; round++ {
		next, n := ApplyFixes(out.Text, f.Path, out.Diagnostics, unsafe)
		if n == 0 || string(next) == string(out.Text) {
			break
		}
		nf := f
		nf.Text = next
		if parsedBefore && !parses(nf, o) {
			return out, errors.New(f.Path + ": internal error: fixes " + fixNames(out.Diagnostics, unsafe) + " make the file unparsable; the file was left unchanged (please report this)")
		}
		out.Text = next
		out.Applied += n
		out.Rounds++
		out.Info, out.Diagnostics = LintFile(nf, rules, o)
	}
	return out, nil
}

// parses reports whether f parses without a syntax error (the check a fixed text must pass).
func parses(f File, o Options) bool {
	a, _ := Analyze(f, Options{Framework: o.Framework, Limits: o.Limits, NoDirectYAML: o.NoDirectYAML})
	return a.Doc.Root != nil && !a.Doc.HasSyntaxError()
}

func fixNames(diags []Diagnostic, unsafe bool) string {
	var names []string
	seen := map[string]bool{}
	for _, d := range diags {
		if d.Fix == nil || (d.Fix.Applicability != Safe && !unsafe) || seen[d.Code] {
			continue
		}
		seen[d.Code] = true
		names = append(names, d.Code+" "+d.Rule)
	}
	return strings.Join(names, ", ")
}

// RenameKey is a fix that renames a map entry's key in place: only the key token is rewritten, so
// the value, comments and layout stay as they were. A key written quoted keeps its quotes, and
// so does a JSON5 key written without them, as long as the new key needs none. It returns nil
// when n has no key span.
func RenameKey(d *doc.Document, n *doc.Node, newKey string, app Applicability, msg string) *FixSpec {
	if n == nil || n.KeySpan.IsZero() || d == nil {
		return nil
	}
	s, e := n.KeySpan.Start.Offset, n.KeySpan.End.Offset
	if s < 0 || e > len(d.Src) || s >= e {
		return nil
	}
	return &FixSpec{Applicability: app, Message: msg, Edits: []TextEdit{{Start: s, End: e, NewText: quoteLike(string(d.Src[s:e]), newKey, d.Format == doc.JSON)}}}
}

// quoteLike spells text with the quoting of old: "…" (JSON-style escapes), '…' (YAML single
// quotes double an inner quote), or bare. In JSON (json) a key that would need escapes in single
// quotes, or a bare key that is not an ASCII identifier (which JSON5 reads bare), is
// double-quoted instead.
func quoteLike(old, text string, json bool) string {
	if old == "" {
		return text
	}
	switch {
	case old[0] == '"':
		return strconv.Quote(text)
	case old[0] == '\'' && json && strings.ContainsAny(text, "'\\\n\r"):
		return strconv.Quote(text) // JSON5 would need escapes in single quotes too
	case old[0] == '\'':
		return "'" + strings.ReplaceAll(text, "'", "''") + "'"
	case json && !doc.JSON5BareKey(text):
		return strconv.Quote(text)
	}
	return text
}
