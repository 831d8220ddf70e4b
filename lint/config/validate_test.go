package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// TestSchemaKeywordsKnown: the schema uses only keywords validate interprets (or annotations).
// A new keyword in schema.json or schemaMap must be taught to validate first.
func TestSchemaKeywordsKnown(t *testing.T) {
	known := append(append([]string{}, schemaKeywords...), schemaAnnotations...)
	var walk func(s map[string]any, at string)
	walk = func(s map[string]any, at string) {
		for k, v := range s {
			if !slices.Contains(known, k) {
				t.Errorf("%s: keyword %q is not interpreted by validate", at, k)
			}
			switch k {
			case "properties", "$defs":
				for name, sub := range v.(map[string]any) {
					walk(sub.(map[string]any), at+"/"+k+"/"+name)
				}
			case "items", "if", "then", "else":
				walk(v.(map[string]any), at+"/"+k)
			case "additionalProperties":
				if sub, ok := v.(map[string]any); ok {
					walk(sub, at+"/"+k)
				}
			}
		}
	}
	walk(NewLoader(testRules()).compiled().doc, "#")
}

// TestValidateMatchesLibrary compares validate with a general JSON Schema implementation
// (santhosh-tekuri/jsonschema, draft 2020-12) on configs generated from the schema, valid and
// not: the same failed keywords at the same locations.
func TestValidateMatchesLibrary(t *testing.T) {
	doc := NewLoader(testRules()).compiled().doc
	b, _ := json.Marshal(doc)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(SchemaURL, inst); err != nil {
		t.Fatal(err)
	}
	lib, err := c.Compile(SchemaURL)
	if err != nil {
		t.Fatalf("config schema does not compile: %v", err)
	}

	g := &instGen{root: doc, r: rand.New(rand.NewPCG(1, 2))}
	kinds := map[string]int{}
	for i := range 4000 {
		// Round-trip through JSON as parseLayer does: numbers become json.Number.
		v := g.value(doc, 0)
		raw, _ := json.Marshal(v)
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		var x any
		if err := d.Decode(&x); err != nil {
			t.Fatal(err)
		}
		var want []string
		if err := lib.Validate(x); err != nil {
			ve, ok := err.(*jsonschema.ValidationError)
			if !ok {
				t.Fatalf("%d: %v", i, err)
			}
			want = libLeaves(ve, nil)
		}
		var got []string
		for _, e := range validateSchema(doc, x) {
			got = append(got, leafString(e))
			kinds[e.kind]++
		}
		sort.Strings(want)
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Fatalf("instance %d %s:\n got  %q\n want %q", i, raw, got, want)
		}
	}
	// The generator must reach every keyword's failure, or the comparison proves little.
	for _, k := range []string{"additionalProperties", "type", "enum", "minimum", "minLength", "required"} {
		if kinds[k] == 0 {
			t.Errorf("no generated config fails %s", k)
		}
	}
}

func leafString(e schemaErr) string {
	var detail string
	switch e.kind {
	case "additionalProperties", "required":
		p := slices.Clone(e.props)
		sort.Strings(p)
		detail = strings.Join(p, ",")
	case "type":
		detail = e.got + " " + strings.Join(e.want, ",")
	case "enum":
		detail = fmt.Sprintf("%v %v", e.gotAny, e.wantAny)
	case "minimum":
		detail = e.gotRat.RatString() + " " + e.wantRat.RatString()
	}
	return strings.Join(e.loc, "/") + " " + e.kind + " " + detail
}

func libLeaves(v *jsonschema.ValidationError, out []string) []string {
	if len(v.Causes) > 0 {
		for _, c := range v.Causes {
			out = libLeaves(c, out)
		}
		return out
	}
	e := schemaErr{loc: v.InstanceLocation}
	switch k := v.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		e.kind, e.props = "additionalProperties", k.Properties
	case *kind.Type:
		e.kind, e.got, e.want = "type", k.Got, k.Want
	case *kind.Enum:
		e.kind, e.gotAny, e.wantAny = "enum", k.Got, k.Want
	case *kind.Minimum:
		e.kind, e.gotRat, e.wantRat = "minimum", k.Got, k.Want
	case *kind.MinLength:
		e.kind = "minLength"
	case *kind.Required:
		e.kind, e.props = "required", k.Missing
	default:
		e.kind = fmt.Sprintf("unexpected %T", k)
	}
	return append(out, leafString(e))
}

// instGen makes instances that mostly follow the schema, with wrong types, wrong enum values,
// empty strings, small or fractional numbers, unknown keys and missing required keys mixed in.
type instGen struct {
	root map[string]any
	r    *rand.Rand
}

func (g *instGen) wrong() any {
	switch g.r.IntN(7) {
	case 0:
		return "x"
	case 1:
		return ""
	case 2:
		return 3
	case 3:
		return 2.5
	case 4:
		return true
	case 5:
		return []any{"a", 1}
	}
	return map[string]any{"k": 1}
}

func (g *instGen) value(s map[string]any, depth int) any {
	if ref, ok := s["$ref"].(string); ok {
		s = (&validator{root: g.root}).resolve(ref)
	}
	if g.r.IntN(8) == 0 || depth > 5 {
		return g.wrong()
	}
	if e, ok := s["enum"].([]any); ok {
		if g.r.IntN(3) == 0 {
			return "nope"
		}
		return e[g.r.IntN(len(e))]
	}
	if _, ok := s["if"]; ok { // ignore entries: a selector string or a table
		if g.r.IntN(2) == 0 {
			return []string{"TL2", "", "eval-interval-time-based"}[g.r.IntN(3)]
		}
		return g.value(s["else"].(map[string]any), depth+1)
	}
	t, _ := s["type"].(string)
	switch t {
	case "object":
		obj := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for k, sub := range props {
			if g.r.IntN(3) == 0 {
				obj[k] = g.value(sub.(map[string]any), depth+1)
			}
		}
		if g.r.IntN(5) == 0 {
			obj[[]string{"unknown", "fail_on", "max-step", "TL202"}[g.r.IntN(4)]] = g.wrong()
		}
		return obj
	case "array":
		var arr []any
		for range g.r.IntN(4) {
			arr = append(arr, g.value(s["items"].(map[string]any), depth+1))
		}
		return arr
	case "string":
		return []string{"", "a", "TL2", "é"}[g.r.IntN(4)]
	case "integer":
		return []any{-1, 0, 1, 7, 2.0, 2.5, 1e3}[g.r.IntN(7)]
	case "number":
		return []any{-0.5, 0, 1, 2.5}[g.r.IntN(4)]
	case "boolean":
		return g.r.IntN(2) == 0
	}
	return g.wrong()
}
