package lint

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// Suppression comments (YAML and TOML; JSON has no comments, so JSON files are silenced by the
// config file's [[ignore]] entries, which reach the engine as Options.KeyIgnores):
//
//	eval_steps: 5000  # trainlint: disable=TL201,eval-batch-smaller-than-train -- reason
//	# trainlint: disable=TL201 -- reason        (alone on the line above the finding)
//	# trainlint: disable-file=TL501 -- reason   (anywhere: the whole file)
//
// A suppression silences findings of the named rules that START on its target line (the
// comment's own line when it trails code, else the next line that is not itself a comment), or
// anywhere for disable-file. A comment that cannot be understood silences nothing and is a
// malformed-suppression finding; a rule entry that silenced nothing is an unused-suppression
// finding, unless that rule did not run (ignored or not selected): a suppression cannot be judged
// by a run that skipped its rule.

// KeyIgnore silences findings of some rules (selectors as in --ignore; none = every rule) whose
// key path is one of Keys or lies under one (none = anywhere in the file).
type KeyIgnore struct {
	Rules []string
	Keys  []string
}

// suppression is one understood `# trainlint:` comment.
type suppression struct {
	comment doc.Comment
	file    bool // disable-file
	target  int  // line silenced (line-level only)
	rules   []*Rule
	names   []string // as written, for messages
	used    []bool   // per rule entry
}

// directivePrefix starts every trainlint comment directive.
const directivePrefix = "trainlint"

// parseSuppression reads one comment. It returns (nil, "") for comments that are not trainlint
// directives, and a message when the comment is a directive that cannot be understood.
func parseSuppression(c doc.Comment, all []*Rule, requireReason bool) (*suppression, string) {
	t := strings.TrimSpace(c.Text)
	if len(t) < len(directivePrefix) || !strings.EqualFold(t[:len(directivePrefix)], directivePrefix) {
		return nil, ""
	}
	rest := t[len(directivePrefix):]
	if !strings.HasPrefix(rest, ":") {
		// "# trainlint disable=..." is a directive with a typo; "# trainlint is great" is prose.
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(rest)), "disable") {
			return nil, `missing ":" after "trainlint" (write "# trainlint: disable=RULE -- reason")`
		}
		return nil, ""
	}
	body := strings.TrimSpace(rest[1:])
	spec, reason, _ := strings.Cut(body, "--")
	reason = strings.TrimSpace(reason)
	kind, list, hasEq := strings.Cut(spec, "=")
	kind = strings.ToLower(strings.TrimSpace(kind))
	if kind != "disable" && kind != "disable-file" {
		if kind == "" {
			return nil, `empty trainlint directive (write "disable=RULE" or "disable-file=RULE")`
		}
		return nil, "unknown directive " + strconv.Quote(kind) + ` (want "disable=RULE" or "disable-file=RULE")`
	}
	if !hasEq || strings.TrimSpace(list) == "" {
		return nil, strconv.Quote(kind) + ` names no rule (write "` + kind + `=RULE[,RULE]")`
	}
	s := &suppression{comment: c, file: kind == "disable-file"}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, "empty rule name in " + strconv.Quote(strings.TrimSpace(list))
		}
		r := ruleByCodeOrName(all, name)
		if r == nil {
			if strings.ContainsAny(name, " \t") {
				return nil, "unknown rule " + strconv.Quote(name) + ` (separate the reason with " -- ")`
			}
			return nil, "unknown rule " + strconv.Quote(name) + " (use a code such as TL202 or a rule name)"
		}
		s.rules = append(s.rules, r)
		s.names = append(s.names, name)
	}
	if requireReason && reason == "" {
		return nil, "suppression of " + strconv.Quote(strings.Join(s.names, ",")) + ` gives no reason (add " -- why")`
	}
	s.used = make([]bool, len(s.rules))
	return s, ""
}

func ruleByCodeOrName(all []*Rule, name string) *Rule {
	for _, r := range all {
		if exactMatch(r, name) {
			return r
		}
	}
	return nil
}

// silences reports whether s silences d (not counting the comment's own findings), marking the
// matching rule entries used.
func (s *suppression) silences(d Diagnostic) bool {
	if !s.file && d.Line != s.target {
		return false
	}
	hit := false
	for i, r := range s.rules {
		if r.Code == d.Code {
			s.used[i] = true
			hit = true
		}
	}
	return hit
}

// applySuppressions removes diagnostics silenced by the config file's key ignores and by
// `# trainlint: disable=...` comments, and adds malformed-suppression / unused-suppression
// findings.
func applySuppressions(d *doc.Document, diags []Diagnostic, all, active []*Rule, o Options) []Diagnostic {
	diags = applyKeyIgnores(diags, all, o.KeyIgnores)
	if len(d.Comments) == 0 {
		return diags
	}
	// The maps below are built on first need: most files have comments but no directive, and
	// building them for every commented file was most of this function's time.
	var commentOnly map[int]bool

	type malformed struct {
		comment doc.Comment
		msg     string
	}
	var sups []*suppression
	var bad []malformed
	for _, c := range d.Comments {
		s, msg := parseSuppression(c, all, o.RequireReason)
		switch {
		case msg != "":
			bad = append(bad, malformed{c, msg})
		case s != nil:
			s.target = c.Span.Start.Line
			if !c.Trailing {
				if commentOnly == nil {
					commentOnly = map[int]bool{}
					for _, c := range d.Comments {
						if !c.Trailing {
							commentOnly[c.Span.Start.Line] = true
						}
					}
				}
				s.target++
				for commentOnly[s.target] {
					s.target++
				}
			}
			sups = append(sups, s)
		}
	}
	if len(sups) == 0 && len(bad) == 0 {
		return diags
	}
	isActive := map[string]bool{}
	for _, r := range active {
		isActive[r.Code] = true
	}

	// By target line: 20,000 directives, each with a finding, took seconds compared pairwise.
	byLine := map[int][]*suppression{}
	var fileWide []*suppression
	for _, s := range sups {
		if s.file {
			fileWide = append(fileWide, s)
		} else {
			byLine[s.target] = append(byLine[s.target], s)
		}
	}
	// silenced reports whether a suppression other than owner silences dg, marking every one
	// that does as used.
	silenced := func(dg Diagnostic, owner *suppression) bool {
		hit := false
		for _, s := range byLine[dg.Line] {
			hit = s != owner && s.silences(dg) || hit
		}
		for _, s := range fileWide {
			hit = s != owner && s.silences(dg) || hit
		}
		return hit
	}
	out := diags[:0]
	for _, dg := range diags {
		if !silenced(dg, nil) {
			out = append(out, dg)
		}
	}

	// Findings about the comments themselves; each may be silenced by another comment (a
	// disable-file of unused-suppression, say) but never by the comment it is about.
	type meta struct {
		diag  Diagnostic
		owner *suppression
	}
	var metas []meta
	if isActive[MalformedSuppression.Code] {
		for _, b := range bad {
			metas = append(metas, meta{diag: toDiagnostic(MalformedSuppression, d, Finding{Span: b.comment.Span, Message: b.msg})})
		}
	}
	unused := func(s *suppression, skipMeta bool) {
		for i, r := range s.rules {
			isMeta := r == MalformedSuppression || r == UnusedSuppression
			if s.used[i] || !isActive[r.Code] || isMeta != skipMeta {
				continue
			}
			msg := "suppression of " + strconv.Quote(s.names[i]) + " silences nothing on line " + strconv.Itoa(s.target)
			if s.file {
				msg = "file-level suppression of " + strconv.Quote(s.names[i]) + " silences nothing"
			}
			metas = append(metas, meta{diag: toDiagnostic(UnusedSuppression, d, Finding{Span: s.comment.Span, Message: msg}), owner: s})
		}
	}
	if isActive[UnusedSuppression.Code] && d.Root != nil {
		for _, s := range sups {
			unused(s, false)
		}
	}
	n := len(metas)
	keep := make([]bool, n)
	for i := range metas {
		keep[i] = !silenced(metas[i].diag, metas[i].owner)
	}
	for i := range n {
		if keep[i] {
			out = append(out, metas[i].diag)
		}
	}
	// Suppressions of the meta rules themselves are judged last, once the meta findings they
	// could silence are known; their own unused findings are not silenceable (no regress).
	if isActive[UnusedSuppression.Code] && d.Root != nil {
		for _, s := range sups {
			unused(s, true)
		}
		for _, m := range metas[n:] {
			out = append(out, m.diag)
		}
	}
	return out
}

// applyKeyIgnores drops findings matched by a config [[ignore]] entry.
func applyKeyIgnores(diags []Diagnostic, all []*Rule, ignores []KeyIgnore) []Diagnostic {
	if len(ignores) == 0 {
		return diags
	}
	byCode := map[string]*Rule{}
	for _, r := range all {
		byCode[r.Code] = r
	}
	out := diags[:0]
	for _, dg := range diags {
		drop := false
		for _, ig := range ignores {
			if ignoreMatches(ig, byCode[dg.Code], dg) {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, dg)
		}
	}
	return out
}

func ignoreMatches(ig KeyIgnore, r *Rule, d Diagnostic) bool {
	if len(ig.Rules) > 0 {
		ok := false
		for _, sel := range ig.Rules {
			if r != nil && Matches(r, sel) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if len(ig.Keys) == 0 {
		return true
	}
	for _, k := range ig.Keys {
		if KeyUnder(d.Key, k) {
			return true
		}
	}
	return false
}

// KeyUnder reports whether key path key is prefix or lies under it ("a.b[0].c" is under "a.b"
// and "a.b[0]", not under "a.bc").
func KeyUnder(key, prefix string) bool {
	prefix = strings.TrimSpace(prefix)
	if prefix == "" || !strings.HasPrefix(key, prefix) {
		return false
	}
	rest := key[len(prefix):]
	return rest == "" || rest[0] == '.' || rest[0] == '['
}
