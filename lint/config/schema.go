package config

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/textdist"
)

// baseSchema is the hand-written part of the config schema. The parts that follow the code (one
// table per rule with its options, the framework ids, the mapping concepts) are filled in by
// Schema, so the schema editors see can never fall behind the binary.
//
//go:embed schema.json
var baseSchema []byte

// SchemaURL identifies the schema (its $id).
const SchemaURL = "https://trainlint.github.io/schema/config.json"

// Schema returns the config file's JSON Schema (draft 2020-12) for a rule set, indented.
func Schema(rules []*lint.Rule) []byte {
	b, _ := json.MarshalIndent(schemaMap(rules), "", "  ")
	return append(b, '\n')
}

func schemaMap(rules []*lint.Rule) map[string]any {
	var s map[string]any
	if err := json.Unmarshal(baseSchema, &s); err != nil {
		panic("config: embedded schema.json is not JSON: " + err.Error())
	}
	props := s["properties"].(map[string]any)

	ruleProps := props["rules"].(map[string]any)["properties"].(map[string]any)
	for _, r := range rules {
		p := map[string]any{"severity": map[string]any{"$ref": "#/$defs/severity"}}
		for _, o := range r.Options {
			op := map[string]any{"type": jsonType(o.Type), "description": o.Doc}
			if o.Default != nil {
				op["default"] = o.Default
			}
			p[o.Name] = op
		}
		ruleProps[r.Name] = map[string]any{
			"description":          r.Code + ": " + r.Title,
			"type":                 "object",
			"additionalProperties": false,
			"properties":           p,
		}
	}

	fw := props["files"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)["framework"].(map[string]any)
	var ids []any
	for _, id := range frameworks() {
		ids = append(ids, id)
	}
	fw["enum"] = ids

	// Concepts are dotted; TOML reads `eval.interval_seconds = "..."` as nested tables and a
	// quoted key as one dotted key, so both shapes are allowed.
	mp := props["mapping"].(map[string]any)["properties"].(map[string]any)
	leaf := func() map[string]any {
		return map[string]any{"type": "string", "minLength": 1, "description": "dotted key path in the linted files"}
	}
	for _, c := range dialect.MappingConcepts {
		mp[c] = leaf()
		parts := strings.Split(c, ".")
		cur := mp
		for i, part := range parts {
			if i == len(parts)-1 {
				if _, taken := cur[part]; !taken {
					cur[part] = leaf()
				}
				break
			}
			next, ok := cur[part].(map[string]any)
			if !ok {
				next = map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{}}
				cur[part] = next
			}
			if next["type"] != "object" {
				break
			}
			cur = next["properties"].(map[string]any)
		}
	}
	return s
}

func jsonType(t string) string {
	switch t {
	case "integer", "number", "boolean", "string":
		return t
	}
	return "string"
}

// compiledSchema is the schema document validate interprets (also read for suggestions).
type compiledSchema struct {
	doc map[string]any
}

// compiled builds the schema document once per loader.
func (l *Loader) compiled() *compiledSchema {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.schema == nil {
		l.schema = &compiledSchema{doc: schemaMap(l.rules)}
	}
	return l.schema
}

// schemaErrors turns the failed keywords into messages that name the key and its line.
func (ly *layer) schemaErrors(ves []schemaErr, sch *compiledSchema) Errors {
	var errs Errors
	seen := map[string]bool{}
	for i := range ves {
		for _, e := range ly.describe(&ves[i], sch) {
			if k := e.Error(); !seen[k] {
				seen[k] = true
				errs = append(errs, e)
			}
		}
	}
	sort.SliceStable(errs, func(i, j int) bool {
		if errs[i].Line != errs[j].Line {
			return errs[i].Line < errs[j].Line
		}
		return errs[i].Col < errs[j].Col
	})
	return errs
}

func (ly *layer) describe(v *schemaErr, sch *compiledSchema) []*Error {
	loc := v.loc
	key := keyName(loc)
	switch v.kind {
	case "additionalProperties":
		var out []*Error
		allowed := allowedKeys(sch.doc, loc, ly.raw)
		for _, p := range v.props {
			l := append(append([]string{}, loc...), p)
			out = append(out, ly.errorAt(l, true, unknownKeyMessage(ly.rules, loc, p, allowed)))
		}
		return out
	case "type":
		got := v.got
		if n, ok := valueAt(ly.raw, loc).(json.Number); ok && got == "number" {
			if _, err := n.Int64(); err == nil {
				got = "integer"
			}
		}
		return []*Error{ly.errorAt(loc, false, fmt.Sprintf("key %q must be %s, not %s", key, article(strings.Join(v.want, " or ")), article(got)))}
	case "enum":
		var want []string
		for _, w := range v.wantAny {
			want = append(want, fmt.Sprintf("%q", w))
		}
		return []*Error{ly.errorAt(loc, false, fmt.Sprintf("key %q must be one of %s, not %s", key, strings.Join(want, ", "), render(v.gotAny)))}
	case "minimum":
		return []*Error{ly.errorAt(loc, false, fmt.Sprintf("key %q must be at least %s, not %s", key, v.wantRat.RatString(), v.gotRat.RatString()))}
	case "minLength":
		return []*Error{ly.errorAt(loc, false, fmt.Sprintf("key %q must not be empty", key))}
	case "required":
		var out []*Error
		for _, m := range v.props {
			out = append(out, ly.errorAt(loc, false, fmt.Sprintf("%q needs the key %q", key, m)))
		}
		return out
	}
	panic("config: schema keyword " + v.kind + " has no message")
}

func unknownKeyMessage(rules []*lint.Rule, loc []string, p string, allowed []string) string {
	switch {
	case len(loc) == 1 && loc[0] == "rules":
		msg := fmt.Sprintf("unknown rule %q in [rules]", p)
		if name := codeToName(rules, p); name != "" {
			return msg + fmt.Sprintf(" (rule tables are named by rule name: did you mean %q?)", name)
		}
		if s := suggest(p, allowed); s != "" {
			return msg + fmt.Sprintf(" (did you mean %q?)", s)
		}
		return msg + " (see 'trainlint rules')"
	case len(loc) >= 1 && loc[0] == "mapping":
		concept := strings.Join(append(append([]string{}, loc[1:]...), p), ".")
		msg := fmt.Sprintf("unknown mapping concept %q", concept)
		if s := suggest(concept, dialect.MappingConcepts); s != "" {
			return msg + fmt.Sprintf(" (did you mean %q?)", s)
		}
		return msg + " (known: " + strings.Join(dialect.MappingConcepts, ", ") + ")"
	case len(loc) == 2 && loc[0] == "rules":
		msg := fmt.Sprintf("unknown option %q of rule %q", p, loc[1])
		if s := suggest(p, allowed); s != "" {
			return msg + fmt.Sprintf(" (did you mean %q?)", s)
		}
		if len(allowed) > 0 {
			return msg + " (known: " + strings.Join(allowed, ", ") + ")"
		}
		return msg
	}
	name := keyName(append(append([]string{}, loc...), p))
	msg := fmt.Sprintf("unknown key %q", name)
	if s := suggest(p, allowed); s != "" {
		return msg + fmt.Sprintf(" (did you mean %q?)", s)
	}
	return msg
}

// codeToName returns the name of the rule with code s, for the "[rules.TL202]" mistake.
func codeToName(rules []*lint.Rule, s string) string {
	for _, r := range rules {
		if strings.EqualFold(r.Code, s) {
			return r.Name
		}
	}
	return ""
}

func article(t string) string {
	switch t {
	case "integer", "array", "object":
		return "an " + t
	case "null":
		return t
	}
	if strings.Contains(t, " or ") {
		return t
	}
	return "a " + t
}

func render(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case json.Number:
		return v.String()
	}
	return fmt.Sprint(v)
}

// valueAt returns the instance value at a location (nil when absent).
func valueAt(v any, loc []string) any {
	for _, k := range loc {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// allowedKeys lists the keys the schema allows at a location (for suggestions).
func allowedKeys(root map[string]any, loc []string, inst any) []string {
	s := root
	for _, k := range loc {
		s = deref(root, s)
		if m, ok := inst.(map[string]any); ok {
			inst = m[k]
		} else if l, ok := inst.([]any); ok {
			i, _ := strconv.Atoi(k)
			if i >= 0 && i < len(l) {
				inst = l[i]
			}
		}
		if props, ok := s["properties"].(map[string]any); ok {
			if next, ok := props[k].(map[string]any); ok {
				s = next
				continue
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			s = items
			if e, ok := s["else"].(map[string]any); ok {
				if _, isStr := inst.(string); !isStr {
					s = e
				}
			}
			continue
		}
		return nil
	}
	s = deref(root, s)
	props, _ := s["properties"].(map[string]any)
	var out []string
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func deref(root, s map[string]any) map[string]any {
	for range 8 {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		if !ok {
			return s
		}
		next, ok := root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok {
			return s
		}
		s = next
	}
	return s
}

// suggest returns the candidate most likely meant by a typo: among those within a small edit
// distance (after folding case, "_" and "-"), the one sharing the longest prefix with s, then
// the nearest. "" when none is close.
func suggest(s string, candidates []string) string {
	norm := func(x string) string { return strings.ToLower(strings.NewReplacer("_", "-", " ", "-").Replace(x)) }
	ns := norm(s)
	limit := max(1, len(s)/3)
	best, bestD, bestP := "", 0, -1
	for _, c := range candidates {
		if c == s {
			continue
		}
		nc := norm(c)
		d := textdist.Levenshtein(ns, nc)
		if d > limit {
			continue
		}
		p := 0
		for p < len(ns) && p < len(nc) && ns[p] == nc[p] {
			p++
		}
		if p > bestP || (p == bestP && d < bestD) {
			best, bestD, bestP = c, d, p
		}
	}
	return best
}
