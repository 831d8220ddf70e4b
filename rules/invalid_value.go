package rules

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/schema"
)

// InvalidValue reports a value the framework rejects: not one of a key's allowed values
// (eval_strategy: step), or of a type the key cannot take (a word where a number goes). It only
// reports what the framework's own parsing would reject: quoted numbers and booleans pass
// (argparse-based front-ends convert strings), integers where booleans go pass (Python treats
// them as truth values), and interpolations and nulls of optional keys are left alone.
var InvalidValue = register(&invalidValueDef)

var invalidValueDef = lint.Rule{
	Code: "TL004", Name: "invalid-value", Category: lint.CatStructure, Severity: lint.Error,
	Title:     "A value has the wrong type or is not an allowed value",
	NeedsPlan: true,
	Rationale: `A strategy name with a typo, or a word where a number belongs, stops the job when the framework
parses its arguments: after the queue wait, and on every host. trainlint checks the values of
the keys it knows against the type and the allowed values the framework declares, so the
mistake shows up before the job is submitted.`,
	Fix: `Use one of the values listed in the message (the nearest one is suggested), or a value of the
expected type.`,
	Frameworks: valueFrameworks(),
	Check:      checkInvalidValue,
}

func checkInvalidValue(p *lint.Pass) {
	fw := p.Plan.Framework
	root := p.Doc.Root
	if d := dialect.ByName(fw); d != nil && d.Knowledge != "" && d.Problems != nil {
		checkMapValues(p, d)
		return
	}
	if root == nil || root.Kind != doc.Map {
		return
	}
	if d := dialect.ByName(fw); d != nil && d.Checks && d.Knowledge != "" {
		checkKnowledgeEnums(p, d)
		return
	}
	if !schema.Closed(fw) {
		return
	}
	d := dialect.ByName(fw)
	for _, n := range root.Children {
		if n.Alias {
			continue
		}
		k, ok := schema.Lookup(fw, n.Key)
		if !ok {
			continue
		}
		if f, bad, done := versionedValue(p, d, n); done {
			if bad {
				p.Report(f)
			}
			continue
		}
		if f, bad := valueProblem(p.Doc, n, k); bad {
			p.Report(f)
		}
	}
}

// versionedValue checks a value against the values the knowledge table lists for its key at the
// target version (the allowed values of an enum change between releases: optim lost adamw_hf
// in transformers 4.50, lr_scheduler_type gained greedy in 5.4). done is false when the table
// lists no values for the key, or the value is not text (the type check then applies).
func versionedValue(p *lint.Pass, d *dialect.Dialect, n *doc.Node) (f lint.Finding, bad, done bool) {
	if d == nil || d.Knowledge == "" || d.SettingsName == "" {
		return f, false, false
	}
	kb := dialect.KnowledgeOf(d.Knowledge)
	if kb == nil {
		return f, false, false
	}
	section := d.SettingsName + ":" + n.Key
	all := kb.Sections[section]
	if len(all) == 0 {
		return f, false, false
	}
	var words []*doc.Node
	switch {
	case n.Kind == doc.Scalar && n.Type == doc.String:
		words = []*doc.Node{n}
	case n.Kind == doc.Seq:
		for _, c := range n.Children {
			if c.Kind != doc.Scalar || c.Type != doc.String {
				return f, false, false
			}
			words = append(words, c)
		}
	default:
		return f, false, false
	}
	target, _ := targetOf(p, d, kb)
	at := valuesAt(d.Knowledge, kb, d.SettingsName, n.Key, target)
	if len(at) == 0 {
		return f, false, true // no closed set of values at the target version
	}
	k, _ := schema.Lookup(d.Name, n.Key)
	split := dialect.SplitsWords(d.Name, n.Key)
	pinned := ""
	if t, ok := p.Targets[d.Package]; ok && t.Version != "" && t.Source != "" {
		pinned = "; " + t.Source
	}
	for _, w := range words {
		vals := []string{w.Value}
		if split {
			vals = strings.Fields(w.Value)
		}
		for _, v := range vals {
			if at[v] {
				continue
			}
			allowed := orderedValues(at, k.Enum)
			f = lint.Finding{Node: w, Help: "use one of " + quoteList(allowed)}
			if fact, ok := all[v]; ok {
				f.Message = quote(n.Key) + " is " + quote(v) + ": " + kb.Lifetime(fact, target, d.Package) + pinned
			} else {
				f.Message = quote(n.Key) + " is " + quote(v) + ": expected one of " + quoteList(allowed)
				f.Help = ""
			}
			if best, ok := nearestKey(v, allowed); ok {
				f.Message += " (did you mean " + quote(best) + "?)"
				if !split && w == n {
					f.Fix = lint.ReplaceValue(n, requote(p.Doc, n, best), lint.Unsafe, "set "+quote(n.Key)+" to "+quote(best))
				}
			}
			return f, true, true
		}
	}
	return f, false, true
}

// valuesAt is Knowledge.ValuesAt, built once per key and target (the rule runs on every file;
// callers must not modify the set).
func valuesAt(fw string, kb *dialect.Knowledge, section, key, target string) map[string]bool {
	id := fw + "\x00" + section + "\x00" + key + "\x00" + target
	if v, ok := valuesCache.Load(id); ok {
		return v.(map[string]bool)
	}
	at, _ := kb.ValuesAt(section, key, target)
	got, _ := valuesCache.LoadOrStore(id, at)
	return got.(map[string]bool)
}

var valuesCache doc.Cache // framework \x00 section \x00 key \x00 target -> set of values

// orderedValues lists a set of values in the order the key documents them (the source's
// declaration order), then any others sorted.
func orderedValues(set map[string]bool, order []string) []string {
	out := make([]string, 0, len(set))
	seen := map[string]bool{}
	for _, v := range order {
		if set[v] && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	var rest []string
	for v := range set {
		if !seen[v] {
			rest = append(rest, v)
		}
	}
	doc.SortStrings(rest)
	return append(out, rest...)
}

// valueProblem checks one value against its key.
func valueProblem(d *doc.Document, n *doc.Node, k dialect.Key) (lint.Finding, bool) {
	types := schema.Types(k.Type)
	if n.Kind == doc.Scalar && (n.Type == doc.Unknown || n.Type == doc.Null) {
		return lint.Finding{}, false // decided later, or an unset optional
	}
	if len(k.Enum) > 0 && n.Kind == doc.Scalar && n.Type == doc.String {
		for _, e := range k.Enum {
			if n.Value == e {
				return lint.Finding{}, false
			}
		}
		f := lint.Finding{Node: n, Message: quote(n.Key) + " is " + quote(n.Value) + ": expected one of " + quoteList(k.Enum)}
		if best, ok := nearestKey(n.Value, k.Enum); ok {
			f.Message += " (did you mean " + quote(best) + "?)"
			f.Fix = lint.ReplaceValue(n, requote(d, n, best), lint.Unsafe, "set "+quote(n.Key)+" to "+quote(best))
		}
		return f, true
	}
	if len(types) == 0 || accepts(types, n) {
		return lint.Finding{}, false
	}
	what := map[doc.Kind]string{doc.Map: "a mapping", doc.Seq: "a list"}[n.Kind]
	if what == "" {
		what = quote(n.Value)
	}
	return lint.Finding{Node: n, Message: quote(n.Key) + " is " + what + ": expected " + strings.Join(types, " or ")}, true
}

// accepts reports whether a value fits one of the types, with the leniency of the frameworks'
// argument parsers (see InvalidValue).
func accepts(types []string, n *doc.Node) bool {
	for _, t := range types {
		switch t {
		case "object":
			if n.Kind == doc.Map {
				return true
			}
		case "array":
			if n.Kind == doc.Seq {
				return true
			}
		}
		if n.Kind != doc.Scalar {
			continue
		}
		switch t {
		case "string":
			return true // any scalar reads as text
		case "null":
			if n.Type == doc.Null {
				return true
			}
		case "integer", "number":
			switch n.Type {
			case doc.Int, doc.Float:
				return true
			case doc.String:
				if _, err := strconv.ParseFloat(strings.TrimSpace(n.Value), 64); err == nil {
					return true
				}
			}
		case "boolean":
			switch n.Type {
			case doc.Bool, doc.Int:
				return true
			case doc.String:
				switch strings.ToLower(strings.TrimSpace(n.Value)) {
				case "true", "false", "yes", "no", "on", "off", "1", "0", "y", "n", "t", "f":
					return true
				}
			}
		}
	}
	return false
}

// requote spells a replacement value with the quotes the original value had.
func requote(d *doc.Document, n *doc.Node, v string) string {
	s, e := n.Span.Start.Offset, n.Span.End.Offset
	if s >= 0 && e <= len(d.Src) && s < e {
		switch d.Src[s] {
		case '"':
			return strconv.Quote(v)
		case '\'':
			return "'" + strings.ReplaceAll(v, "'", "''") + "'"
		}
	}
	if d.Format == doc.JSON {
		return strconv.Quote(v)
	}
	return v
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = quote(x)
	}
	return strings.Join(q, ", ")
}

// checkKnowledgeEnums checks the root's string values against the closed value sets the
// knowledge table read from the framework's types (a pydantic Literal or enum refuses any other
// value when the config is validated), at the target version.
func checkKnowledgeEnums(p *lint.Pass, d *dialect.Dialect) {
	kb := dialect.KnowledgeOf(d.Knowledge)
	if kb == nil {
		return
	}
	target, where := targetOf(p, d, kb)
	for _, n := range p.Doc.Root.Children {
		if n.Alias || n.Kind != doc.Scalar || n.Type != doc.String {
			continue
		}
		vals := kb.EnumAt(n.Key, target)
		if vals == nil {
			continue
		}
		if f, bad := valueProblem(p.Doc, n, dialect.Key{Path: n.Key, Enum: vals}); bad {
			f.Message = strings.Replace(f.Message, ": expected one of", " ("+where+" refuses it at start-up): expected one of", 1)
			p.Report(f)
		}
	}
}

// valueFrameworks are the frameworks whose values the rule checks: the closed ones, those whose
// value sets come from the knowledge table, and those whose dialect checks the values of its
// closed argument maps (dialect.Dialect.Problems).
func valueFrameworks() []string {
	out := closedFrameworks()
	for _, d := range dialect.All() {
		if !d.Closed && (d.Problems != nil || d.Checks && d.Knowledge != "") {
			out = append(out, d.Name)
		}
	}
	return out
}
