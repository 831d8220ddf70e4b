package config

import (
	"encoding/json"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The config schema is checked by this small interpreter of the keywords schema.json and
// schemaMap use, not by a general JSON Schema library: the library compiled its meta-schemas at
// program start (3.4-6 ms and 1.7 MB on every run, config file or not). It follows draft 2020-12
// for these keywords: the type is checked first and a wrong type is the only error of its value;
// enum, $ref (local pointers), required, properties, additionalProperties, items, minLength,
// minimum and if/then/else come after, in that order. schemaKeywords lists what it understands;
// TestSchemaKeywordsKnown fails when the schema uses anything else, and TestValidateMatchesLibrary
// compares it with the library on many configs.

// schemaKeywords are the keywords validate reads; schemaAnnotations are the ones it may ignore.
var (
	schemaKeywords    = []string{"type", "enum", "$ref", "required", "properties", "additionalProperties", "items", "minLength", "minimum", "if", "then", "else"}
	schemaAnnotations = []string{"$schema", "$id", "$defs", "title", "description", "default"}
)

// schemaErr is one failed keyword at an instance location (the leaves of a validation).
type schemaErr struct {
	loc []string
	// kind is the failed keyword: "additionalProperties" (props), "type" (got, want), "enum"
	// (got, wantAny), "minimum" (gotRat, wantRat), "minLength", "required" (props: missing).
	kind            string
	props           []string
	got             string
	want            []string
	gotAny          any
	wantAny         []any
	gotRat, wantRat *big.Rat
}

// validator walks an instance (JSON-decoded with UseNumber) against the schema document.
type validator struct {
	root map[string]any
	errs []schemaErr
}

func validateSchema(root map[string]any, inst any) []schemaErr {
	v := &validator{root: root}
	v.validate(root, inst, nil)
	return v.errs
}

// matches reports whether inst is valid against s, without recording errors (for "if").
func (v *validator) matches(s map[string]any, inst any) bool {
	sub := &validator{root: v.root}
	sub.validate(s, inst, nil)
	return len(sub.errs) == 0
}

func (v *validator) add(e schemaErr, loc []string) {
	e.loc = append([]string(nil), loc...)
	v.errs = append(v.errs, e)
}

func (v *validator) validate(s map[string]any, inst any, loc []string) {
	if t, ok := s["type"]; ok {
		want := schemaTypes(t)
		if !typeMatches(want, inst) {
			v.add(schemaErr{kind: "type", got: jsonTypeOf(inst), want: want}, loc)
			return
		}
	}
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, w := range e {
			if jsonEqual(inst, w) {
				found = true
				break
			}
		}
		if !found {
			v.add(schemaErr{kind: "enum", gotAny: inst, wantAny: e}, loc)
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		v.validate(v.resolve(ref), inst, loc)
	}
	switch x := inst.(type) {
	case map[string]any:
		v.object(s, x, loc)
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i, it := range x {
				v.validate(items, it, append(loc, strconv.Itoa(i)))
			}
		}
	case string:
		if m, ok := schemaInt(s["minLength"]); ok && utf8.RuneCountInString(x) < m {
			v.add(schemaErr{kind: "minLength"}, loc)
		}
	case json.Number:
		if m, ok := s["minimum"]; ok {
			want := schemaRat(m)
			got, _ := new(big.Rat).SetString(x.String())
			if got != nil && want != nil && got.Cmp(want) < 0 {
				v.add(schemaErr{kind: "minimum", gotRat: got, wantRat: want}, loc)
			}
		}
	}
	if cond, ok := s["if"].(map[string]any); ok {
		if v.matches(cond, inst) {
			if then, ok := s["then"].(map[string]any); ok {
				v.validate(then, inst, loc)
			}
		} else if els, ok := s["else"].(map[string]any); ok {
			v.validate(els, inst, loc)
		}
	}
}

func (v *validator) object(s map[string]any, obj map[string]any, loc []string) {
	if req, ok := s["required"].([]any); ok {
		var missing []string
		for _, r := range req {
			if name, ok := r.(string); ok {
				if _, present := obj[name]; !present {
					missing = append(missing, name)
				}
			}
		}
		if missing != nil {
			v.add(schemaErr{kind: "required", props: missing}, loc)
		}
	}
	props, _ := s["properties"].(map[string]any)
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	var extra []string
	for _, k := range names {
		if ps, ok := props[k].(map[string]any); ok {
			v.validate(ps, obj[k], append(loc[:len(loc):len(loc)], k))
			continue
		}
		switch ap := s["additionalProperties"].(type) {
		case bool:
			if !ap {
				extra = append(extra, k)
			}
		case map[string]any:
			v.validate(ap, obj[k], append(loc[:len(loc):len(loc)], k))
		}
	}
	if extra != nil {
		v.add(schemaErr{kind: "additionalProperties", props: extra}, loc)
	}
}

// resolve follows a local JSON pointer ("#/$defs/severity").
func (v *validator) resolve(ref string) map[string]any {
	var cur any = v.root
	p, ok := strings.CutPrefix(ref, "#")
	if !ok {
		panic("config: schema $ref " + ref + " is not local")
	}
	for _, tok := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, _ := cur.(map[string]any)
		cur = m[tok]
	}
	s, ok := cur.(map[string]any)
	if !ok {
		panic("config: schema $ref " + ref + " does not resolve")
	}
	return s
}

func schemaTypes(t any) []string {
	switch t := t.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// jsonTypeOf names a value's JSON type the way the draft does ("number" for every number).
func jsonTypeOf(x any) string {
	switch x.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64, int:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "invalid"
}

func typeMatches(want []string, x any) bool {
	got := jsonTypeOf(x)
	for _, w := range want {
		if w == got || w == "integer" && got == "number" && isIntegral(x) {
			return true
		}
	}
	return false
}

// isIntegral: 2, 2.0 and 2e3 are integers in JSON Schema; 2.5 is not.
func isIntegral(x any) bool {
	var s string
	switch n := x.(type) {
	case json.Number:
		s = n.String()
	case float64:
		s = strconv.FormatFloat(n, 'g', -1, 64)
	case int:
		return true
	}
	r, ok := new(big.Rat).SetString(s)
	return ok && r.IsInt()
}

// jsonEqual compares an instance value with an enum value: strings and booleans by value, numbers
// by value (1 equals 1.0).
func jsonEqual(a, b any) bool {
	if jsonTypeOf(a) != jsonTypeOf(b) {
		return false
	}
	switch a := a.(type) {
	case string:
		return a == b.(string)
	case bool:
		return a == b.(bool)
	case nil:
		return true
	case json.Number, float64, int:
		ra, rb := schemaRat(a), schemaRat(b)
		return ra != nil && rb != nil && ra.Cmp(rb) == 0
	}
	return false // arrays and objects: the schema's enums have none
}

func schemaInt(x any) (int, bool) {
	switch n := x.(type) {
	case float64:
		return int(n), true
	case int:
		return n, true
	case json.Number:
		i, err := n.Int64()
		return int(i), err == nil
	}
	return 0, false
}

func schemaRat(x any) *big.Rat {
	var s string
	switch n := x.(type) {
	case float64:
		s = strconv.FormatFloat(n, 'g', -1, 64)
	case int:
		s = strconv.Itoa(n)
	case json.Number:
		s = n.String()
	default:
		return nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil
	}
	return r
}
