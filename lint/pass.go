package lint

import (
	"strings"

	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Pass is what a rule sees of one file, and how it reports.
type Pass struct {
	Rule *Rule
	Doc  *doc.Document
	// Plan is nil when the file could not be parsed (rules with NeedsPlan are then not run).
	Plan *plan.Plan
	// Options are the options the config file sets for the rule (nil when it sets none): read
	// them with Int, Float, Bool and String, which fall back to the rule's defaults.
	Options map[string]any
	// Targets are the framework versions the run targets (Options.Targets); nil means the newest.
	Targets map[string]Target
	// ScriptKeys are the fields of the repository's own argument dataclasses
	// (Options.ScriptKeys); nil when the driver read none.
	ScriptKeys map[string]bool
	// ClassFields are the fields of the dataclasses of the framework copies the repository
	// carries, by class name (Options.ClassFields); nil when the driver read none.
	ClassFields map[string]map[string]bool
	// SubclassInitArgs are the parameters the __init__ of the repository's classes add to their
	// bases, by base class name (Options.SubclassInitArgs); nil when the driver read none.
	SubclassInitArgs map[string]map[string]bool
	// RepoReads are the names the repository's Python files read from an object or a mapping
	// (Options.RepoReads); nil when the driver read none.
	RepoReads map[string]bool

	// The engine reuses one Pass for every rule of a file (runRules): findings are placed in
	// the file (toDiagnostic) or, for a composed run, in the file that set the value
	// (runDiagnostic), and appended to out.
	run *compose.Run
	out []Diagnostic
	// hydraLoaded: the file is one Hydra composes into runs (Options.HydraLoaded), which
	// report what its references name in the composed config.
	hydraLoaded bool
	// addsHere are the keys a script tied to this file adds to it (Options.ScriptAddsHere).
	addsHere map[string]bool
	memo     map[any]any // Memo's values for this file
}

// Finding is what a rule reports; the engine turns it into a Diagnostic.
type Finding struct {
	// Node locates the finding (its value span, or its key span when AtKey). When nil, Span is
	// used; when both are empty the finding sits on the file's first line.
	Node  *doc.Node
	AtKey bool
	Span  doc.Span
	// In, for a finding located by Span alone, is a node of the file the span lies in: a
	// composed run's findings are placed in the file their node came from.
	In *doc.Node
	// Key is the key path reported in JSON output; defaults to Node's path.
	Key      string
	Message  string
	Help     string
	Severity Severity // 0: the rule's severity
	Related  []RelatedNode
	Fix      *FixSpec
}

// RelatedNode is a second location, given as a node (value span) or a span.
type RelatedNode struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Node    *doc.Node
	AtKey   bool
	Span    doc.Span
	Message string
}

// FixSpec is a fix as a rule thinks of it; the engine turns it into text edits.
type FixSpec struct {
	Applicability Applicability
	Message       string
	// Edits in byte offsets of the file.
	Edits []TextEdit
	// value is the node whose value ReplaceValue rewrites: the fix is kept only if the edit
	// changes that value alone (valueEdit).
	value *doc.Node
}

// TextEdit replaces Src[Start:End] with NewText.
type TextEdit struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Start, End int
	NewText    string
}

// Report records a finding.
func (p *Pass) Report(f Finding) {
	if p.run != nil {
		p.out = append(p.out, runDiagnostic(p.Rule, p.run, f))
		return
	}
	p.out = append(p.out, toDiagnostic(p.Rule, p.Doc, f))
}

// Memo returns what compute returns for key, computing it once per file (or composed run):
// facts several rules derive from the file alike, such as the argument maps a dialect finds in
// it, are found once. key must be comparable and name what is computed; the value is shared,
// so callers must not modify it.
func (p *Pass) Memo(key any, compute func() any) any {
	if v, ok := p.memo[key]; ok {
		return v
	}
	if p.memo == nil {
		p.memo = map[any]any{}
	}
	v := compute()
	p.memo[key] = v
	return v
}

// option is a rule option: the config file's value, else the rule's default.
func (p *Pass) option(name string) any {
	if v, ok := p.Options[name]; ok {
		return v
	}
	return p.Rule.OptionDefault(name)
}

// Int returns an integer option (with its default).
func (p *Pass) Int(name string) int {
	switch v := p.option(name).(type) {
	case int:
		return v
	case int64:
		return int(v)
	case float64:
		return int(v)
	}
	return 0
}

// Float returns a number option.
func (p *Pass) Float(name string) float64 {
	switch v := p.option(name).(type) {
	case int:
		return float64(v)
	case int64:
		return float64(v)
	case float64:
		return v
	}
	return 0
}

// Bool returns a boolean option.
func (p *Pass) Bool(name string) bool {
	v, _ := p.option(name).(bool)
	return v
}

// String returns a string option.
func (p *Pass) String(name string) string {
	v, _ := p.option(name).(string)
	return v
}

// ReplaceValue is a fix that replaces a scalar node's value text with newText (written as is).
// A value left out in YAML ("key:" and a line break) is an empty span right after the ':', so
// the new text gets the space YAML needs there.
func ReplaceValue(n *doc.Node, newText string, app Applicability, msg string) *FixSpec {
	if n == nil {
		return nil
	}
	if n.Kind == doc.Scalar && n.Span.Start.Offset == n.Span.End.Offset && !n.Span.IsZero() {
		newText = " " + newText
	}
	return &FixSpec{Applicability: app, Message: msg, Edits: []TextEdit{{Start: n.Span.Start.Offset, End: n.Span.End.Offset, NewText: newText}}, value: n}
}

// valueEdit is where ReplaceValue's edit of n may go so that it changes n's value and nothing
// else, or false when no edit can (the finding then keeps its help but offers no fix).
//   - A value reached through a gin macro is rewritten where it is used (%BS becomes the
//     literal), not where the macro is defined: other uses keep theirs.
//   - Text that other nodes of the tree also span is shared (a YAML anchor's value under an
//     alias or merge key, a dict a Python helper returns to two keys): not edited.
//   - In a gin or Python file the text must be the key's own value, written right after its
//     "=" or ":" (or "] =" of an item assignment): a literal reached through a variable, a
//     parameter or a computation (bs = 1 ... batch_size=bs, lr = 0.1 * bs) feeds values the
//     tree does not show, which an edit of it would change silently.
func valueEdit(d *doc.Document, n *doc.Node, e TextEdit) (TextEdit, bool) {
	code := d.Format == doc.Gin || d.Format == doc.Python
	if n.Use != nil {
		u := *n.Use
		if !code || !writtenAsValue(d, n.KeySpan, u) {
			return e, false
		}
		return TextEdit{Start: u.Start.Offset, End: u.End.Offset, NewText: e.NewText}, true
	}
	if sharedSpan(d, n) || code && !writtenAsValue(d, n.KeySpan, n.Span) ||
		d.Format == doc.Python && !pyLiteral(d.Src[n.Span.Start.Offset:n.Span.End.Offset]) {
		return e, false
	}
	return e, true
}

// writtenAsValue reports whether v is written as the value of the key at k: between them only
// spaces, line continuations and one "=" or ":" (with "]" before it for c['k'] = v; a quoted
// key's span holds its quotes).
func writtenAsValue(d *doc.Document, k, v doc.Span) bool {
	s, e := k.End.Offset, v.Start.Offset
	if k.IsZero() || v.IsZero() || s > e || e > len(d.Src) {
		return false
	}
	between := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r', '\\':
			return -1
		}
		return r
	}, string(d.Src[s:e]))
	switch between {
	case "=", ":", "]=":
		return true
	}
	return false
}

// sharedSpan reports whether another node of d's trees spans exactly n's text.
func sharedSpan(d *doc.Document, n *doc.Node) bool {
	shared := false
	for _, r := range append([]*doc.Node{d.Root}, d.More...) {
		r.Walk(func(c *doc.Node) bool {
			if c != n && c.Span.Start.Offset == n.Span.Start.Offset && c.Span.End.Offset == n.Span.End.Offset && !c.Span.IsZero() {
				shared = true
			}
			return !shared
		})
	}
	return shared
}
