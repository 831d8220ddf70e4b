package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
)

// toLSP converts one file's findings into LSP diagnostics: the rule code with a link to its page
// (codeDescription), the severity, the message with its help on a second line, and the related
// locations ("train batch set here").
func (s *server) toLSP(pub *published, enc encoding) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(pub.diags))
	for _, d := range pub.diags {
		out = append(out, s.diagnostic(pub, d, enc))
	}
	return out
}

func (s *server) diagnostic(pub *published, d lint.Diagnostic, enc encoding) protocol.Diagnostic {
	ld := protocol.Diagnostic{
		Range:    diagRange(pub.text, d, enc),
		Severity: severity(d.Severity),
		Code:     protocol.String(d.Code),
		Source:   protocol.NewOptional("trainlint"),
		Message:  protocol.String(message(d)),
	}
	if href, err := uri.Parse(d.URL); err == nil && d.URL != "" {
		ld.CodeDescription = protocol.CodeDescription{Href: href}
	}
	for _, r := range d.Related {
		t := pub.text
		if r.File != pub.path {
			t, _, _, _ = s.readFile(r.File)
		}
		if t == nil {
			continue
		}
		p := t.posFromLineCol(r.Line, r.Column, enc)
		end := p
		if r.EndLine > r.Line || r.EndLine == r.Line && r.EndColumn > r.Column {
			end = t.posFromLineCol(r.EndLine, r.EndColumn, enc)
		}
		ld.RelatedInformation = append(ld.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: s.uriFor(r.File), Range: protocol.Range{Start: p, End: end}},
			Message:  r.Message,
		})
	}
	return ld
}

// message is the diagnostic's text: the finding, then the rule's name and its help, which
// editors show under it.
func message(d lint.Diagnostic) string {
	m := d.Message + " [" + d.Rule + "]"
	if d.Help != "" {
		m += "\n" + d.Help
	}
	return m
}

func diagRange(t *text, d lint.Diagnostic, enc encoding) protocol.Range {
	if !d.Span.IsZero() && d.Span.End.Offset >= d.Span.Start.Offset {
		return t.rangeOf(d.Span.Start.Offset, d.Span.End.Offset, enc)
	}
	return protocol.Range{Start: t.posFromLineCol(d.Line, d.Column, enc), End: t.posFromLineCol(d.EndLine, d.EndColumn, enc)}
}

func severity(s lint.Severity) protocol.DiagnosticSeverity {
	switch s {
	case lint.Error:
		return protocol.DiagnosticSeverityError
	case lint.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// overlaps reports whether two ranges share a position (touching counts: a cursor at the end of
// a finding is on it).
func overlaps(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

// CodeAction offers, for each finding under the cursor (or named in the request's context), a
// quick fix for every fix it carries and an action that suppresses it with a reason comment.
func (s *server) CodeAction(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	pub, d := s.current(p.TextDocument.URI)
	if pub == nil {
		return nil, nil
	}
	s.mu.Lock()
	enc := s.enc
	s.mu.Unlock()
	quick := protocol.CodeActionKindQuickFix
	var out []protocol.CommandOrCodeAction
	var suppress []protocol.CommandOrCodeAction
	if wants(p.Context.Only, FixAllKind) && (len(p.Context.Only) > 0 || p.Context.TriggerKind != protocol.CodeActionTriggerKindAutomatic) {
		// Asked for explicitly (fix-all on save asks for source.fixAll), or from a menu.
		if a := s.fixAllAction(pub, d, enc); a != nil {
			out = append(out, a)
		}
	}
	if !wants(p.Context.Only, quick) {
		return out, nil
	}
	for _, diag := range pub.diags {
		ld := s.diagnostic(pub, diag, enc)
		if !overlaps(ld.Range, p.Range) && !named(p.Context.Diagnostics, ld) {
			continue
		}
		if fx := diag.Fix; fx != nil && len(fx.Edits) > 0 {
			if edit := s.fixEdit(pub, fx, enc); edit != nil {
				title := fx.Message
				if fx.Applicability != lint.Safe {
					title += " (unsafe: review the change)"
				}
				out = append(out, &protocol.CodeAction{
					Title: title, Kind: &quick, Diagnostics: []protocol.Diagnostic{ld},
					IsPreferred: boolp(fx.Applicability == lint.Safe), Edit: edit,
				})
			}
		}
		if a := s.suppressAction(pub, d, diag, ld, enc); a != nil {
			suppress = append(suppress, a)
		}
	}
	return append(out, suppress...), nil
}

// FixAllKind is the kind of the action that applies every safe fix of a file, as `trainlint
// check --fix` does (editors run source.fixAll actions on save when asked to).
const FixAllKind protocol.CodeActionKind = "source.fixAll.trainlint"

// wants reports whether a code action of kind passes the client's filter: no filter, the kind
// itself, or a parent kind ("source.fixAll" covers "source.fixAll.trainlint").
func wants(only []protocol.CodeActionKind, kind protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, k := range only {
		if k == kind || strings.HasPrefix(string(kind), string(k)+".") {
			return true
		}
	}
	return false
}

// fixAllAction applies every safe fix of the file as one edit. A file linted alone is fixed
// with the engine's fixer (lint.FixFile, the one `check --fix` uses: fix, re-lint, repeat); a
// file of a composed run gets the safe fixes of its published findings, which only the run
// makes (a value the run's primary writes, lint.FixRun's fixes), in one round. Neither ever
// gives a text that stops parsing.
func (s *server) fixAllAction(pub *published, d *document, enc encoding) protocol.CommandOrCodeAction {
	safe := false
	for _, diag := range pub.diags {
		if diag.Fix != nil && diag.Fix.Applicability == lint.Safe {
			safe = true
		}
	}
	if !safe {
		return nil
	}
	s.mu.Lock()
	cfg := s.cfg
	s.mu.Unlock()
	var opts lint.Options
	if d.onDisk {
		if o, err := cfg(pub.path); err == nil {
			opts = o
		}
	}
	f := lint.File{Path: pub.path, Text: pub.text.src, Format: pub.format}
	fixed, applied := []byte(nil), 0
	if pub.composed {
		fixed, applied = lint.ApplyFixes(pub.text.src, pub.path, pub.diags, false)
		g := f
		g.Text = fixed
		if applied > 0 && lint.Parses(f, opts) && !lint.Parses(g, opts) {
			return nil // a trainlint bug; `check --fix` reports it
		}
	} else {
		res, err := lint.FixFile(f, s.eng.Rules, opts, false)
		if err != nil {
			return nil
		}
		fixed, applied = res.Text, res.Applied
	}
	if applied == 0 || string(fixed) == string(pub.text.src) {
		return nil
	}
	kind := FixAllKind
	whole := pub.text.rangeOf(0, len(pub.text.src), enc)
	return &protocol.CodeAction{
		Title: fixAllTitle(applied), Kind: &kind,
		Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{d.uri: {{Range: whole, NewText: string(fixed)}}}},
	}
}

func fixAllTitle(n int) string {
	if n == 1 {
		return "apply the safe trainlint fix of this file"
	}
	return fmt.Sprintf("apply the %d safe trainlint fixes of this file", n)
}

// named reports whether the client's context lists this diagnostic (same code and range).
func named(ds []protocol.Diagnostic, d protocol.Diagnostic) bool {
	for _, c := range ds {
		if c.Range == d.Range && fmt.Sprint(c.Code) == fmt.Sprint(d.Code) {
			return true
		}
	}
	return false
}

// fixEdit turns an engine fix into a workspace edit. Edits are byte offsets into the text the
// finding was computed on; an edit in another file uses that file's current text.
func (s *server) fixEdit(pub *published, fx *lint.Fix, enc encoding) *protocol.WorkspaceEdit {
	changes := map[uri.URI][]protocol.TextEdit{}
	for _, e := range fx.Edits {
		t := pub.text
		if e.File != pub.path {
			t, _, _, _ = s.readFile(e.File)
		}
		if t == nil || e.Start < 0 || e.End < e.Start || e.End > len(t.src) {
			return nil
		}
		u := s.uriFor(e.File)
		changes[u] = append(changes[u], protocol.TextEdit{Range: t.rangeOf(e.Start, e.End, enc), NewText: e.NewText})
	}
	return &protocol.WorkspaceEdit{Changes: changes}
}

// suppressReason is the placeholder the suppress action writes: the contract wants a reason,
// and only the user knows it.
const suppressReason = "TODO: say why this is fine here"

// suppressAction inserts `# trainlint: disable=RULE -- reason` alone on the line above the
// finding, indented like it (YAML and TOML; JSON has no comments, so it gets no such action:
// its findings are silenced by [[ignore]] in the config file). The action is offered only when
// the edited text still parses and the finding is gone from it, so it can never break a file.
func (s *server) suppressAction(pub *published, d *document, diag lint.Diagnostic, ld protocol.Diagnostic, enc encoding) protocol.CommandOrCodeAction {
	if pub.format != doc.YAML && pub.format != doc.TOML || diag.Code == lint.InternalError.Code || diag.Rule == "" || diag.Rule == "parse-error" {
		return nil
	}
	ln := diag.Line - 1
	line := pub.text.line(ln)
	if line == nil {
		return nil
	}
	indent := line[:len(line)-len(strings.TrimLeft(string(line), " \t"))]
	comment := string(indent) + "# trainlint: disable=" + diag.Rule + " -- " + suppressReason + "\n"
	at := pub.text.starts[ln]
	src := make([]byte, 0, len(pub.text.src)+len(comment))
	src = append(append(append(src, pub.text.src[:at]...), comment...), pub.text.src[at:]...)
	if !s.suppresses(pub, src, diag) {
		return nil
	}
	pos := pub.text.position(at, enc)
	quick := protocol.CodeActionKindQuickFix
	return &protocol.CodeAction{
		Title: "suppress " + diag.Rule + " on this line (with a reason)", Kind: &quick,
		Diagnostics: []protocol.Diagnostic{ld},
		Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
			d.uri: {{Range: protocol.Range{Start: pos, End: pos}, NewText: comment}},
		}},
	}
}

// suppresses lints the text with the comment inserted: it must parse and no longer carry the
// finding (same rule, same message).
func (s *server) suppresses(pub *published, src []byte, diag lint.Diagnostic) bool {
	s.mu.Lock()
	cfg := s.cfg
	s.mu.Unlock()
	var opts lint.Options
	if o, err := cfg(pub.path); err == nil {
		opts = o
	}
	res := s.eng.Lint([]lint.File{{Path: pub.path, Text: src, Format: pub.format}}, nil, s.eng.Rules, opts)
	for _, d := range res.Diagnostics {
		if d.Rule == "parse-error" || d.Rule == diag.Rule && d.Message == diag.Message {
			return false
		}
	}
	return true
}
