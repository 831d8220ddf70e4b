package lint

import (
	"errors"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/compose"
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
	return fixRounds(f, o, unsafe, func(g File) (FileInfo, []Diagnostic) { return LintFile(g, rules, o) })
}

// FixRun fixes the primary file of a composed run, as FixFile fixes a file alone: the run s is
// composed from fsys with text as its primary's content, the fixes LintRun keeps (runFix: values
// the primary writes itself, in a run without overrides) are applied to text, and the run is
// composed and linted again while fixes still apply, up to MaxFixRounds. Nothing but the
// primary changes. A run with overrides gets no fix (the outcome is text unchanged). The
// outcome's Diagnostics are the run's findings on the last text; Info is left empty.
func FixRun(fsys compose.FS, s compose.Spec, text []byte, rules []*Rule, o Options, unsafe bool) (FixOutcome, error) {
	if len(s.Overrides) > 0 {
		return FixOutcome{Text: text}, nil
	}
	return fixRounds(File{Path: s.Primary, Text: text}, o, unsafe, func(g File) (FileInfo, []Diagnostic) {
		return FileInfo{}, LintRun(ComposeSpec(compose.NewCache(), &overlayFS{fsys, g.Path, g.Text}, s, o), rules, o)
	})
}

// fixRounds is FixFile's and FixRun's loop: lint f, apply its fixes, lint the result, repeat.
func fixRounds(f File, o Options, unsafe bool, lint func(File) (FileInfo, []Diagnostic)) (FixOutcome, error) {
	info, diags := lint(f)
	out := FixOutcome{Text: f.Text, Info: info, Diagnostics: diags}
	parsedBefore := Parses(f, o)
	for round := 0; round < MaxFixRounds; round++ {
		next, n := ApplyFixes(out.Text, f.Path, out.Diagnostics, unsafe)
		if n == 0 || string(next) == string(out.Text) {
			break
		}
		nf := f
		nf.Text = next
		if parsedBefore && !Parses(nf, o) {
			return out, unparsable(f.Path, out.Diagnostics, unsafe)
		}
		out.Text = next
		out.Applied += n
		out.Rounds++
		out.Info, out.Diagnostics = lint(nf)
	}
	return out, nil
}

// overlayFS is fsys with one file's content replaced (FixRun's text of the primary between
// rounds). It keeps the root's name (compose.Named) when fsys knows it.
type overlayFS struct {
	compose.FS
	path string
	text []byte
}

func (o *overlayFS) ReadFile(name string) ([]byte, error) {
	if name == o.path {
		return o.text, nil
	}
	return o.FS.ReadFile(name)
}

func (o *overlayFS) RootName() string {
	if n, ok := o.FS.(compose.Named); ok {
		return n.RootName()
	}
	return ""
}

// Parses reports whether f parses without a syntax error (the check a fixed text must pass:
// the fixers here and the language server's fix-all).
func Parses(f File, o Options) bool {
	a, _ := Analyze(f, Options{Framework: o.Framework, Limits: o.Limits, NoDirectYAML: o.NoDirectYAML})
	return a.Doc.Root != nil && !a.Doc.HasSyntaxError()
}

// unparsable is the error of fixes that broke a file's syntax (a trainlint bug).
func unparsable(path string, diags []Diagnostic, unsafe bool) error {
	return errors.New(path + ": internal error: fixes " + fixNames(diags, unsafe) + " make the file unparsable; the file was left unchanged (please report this)")
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
