//go:build !trainlint_lite

package schema

// The JSON Schemas themselves (JSON), which `trainlint schema` and the site write: the light
// WebAssembly module does not build them, so encoding/json and fmt stay out of it (site/doc.go).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/dialect"
)

// node is a schema under construction.
type node struct {
	Schema      string           `json:"$schema,omitempty"`
	ID          string           `json:"$id,omitempty"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Type        any              `json:"type,omitempty"`
	Enum        []any            `json:"enum,omitempty"`
	Default     any              `json:"default,omitempty"`
	Deprecated  string           `json:"deprecationMessage,omitempty"`
	Pattern     string           `json:"pattern,omitempty"`
	AnyOf       []*node          `json:"anyOf,omitempty"`
	Properties  map[string]*node `json:"properties,omitempty"`
	Items       *node            `json:"items,omitempty"`
}

// placeholderPattern matches the values that are decided later and that every framework's
// loader resolves before the type matters: OmegaConf/Hydra interpolations, Hydra's mandatory
// "???" and DeepSpeed's "auto" (doc.Unknown in the parsers).
const placeholderPattern = `^(\$\{.*\}|\?\?\?|auto)$`

// JSON returns the framework's schema, indented, or an error naming the known frameworks.
func JSON(framework string) ([]byte, error) {
	d := dialect.ByName(framework)
	if d == nil {
		return nil, fmt.Errorf("unknown framework %q (known: %s)", framework, strings.Join(Names(), ", "))
	}
	root := &node{
		Schema: Draft, ID: IDBase + d.Name + ".json",
		Title:       "trainlint: " + d.Title + " keys",
		Description: "Keys of " + d.Title + " configs that trainlint knows, with their defaults (checked against " + d.Version + "). Other keys are allowed.",
		Type:        "object",
	}
	for _, k := range Keys(framework) {
		add(root, k, d)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// add places k under root, creating objects for dotted segments and array items for "[]".
// Only leaves are typed: a section a dialect reads (callbacks, debug) may be written as null, a
// flag or an interpolation in files it does not govern, and properties only apply to objects.
func add(root *node, k dialect.Key, d *dialect.Dialect) {
	cur := root
	segs := splitPath(k.Path)
	for _, seg := range segs {
		if seg == "[]" {
			if cur.Items == nil {
				cur.Items = &node{}
			}
			cur = cur.Items
			continue
		}
		if cur.Properties == nil {
			cur.Properties = map[string]*node{}
		}
		next := cur.Properties[seg]
		if next == nil {
			next = &node{}
			cur.Properties[seg] = next
		}
		cur = next
	}
	fill(cur, k, d)
}

// fill sets a leaf's type, enum, default and description.
func fill(n *node, k dialect.Key, d *dialect.Dialect) {
	ts := Types(k.Type)
	if len(ts) > 0 && !contains(ts, "null") {
		// YAML configs write null for "not set" whatever the type (Hydra sections, Optional
		// arguments); the loaders then use the default, so an editor must not underline it.
		ts = append(ts, "null")
	}
	// The typed part goes in one schema; when it would reject a placeholder (no string type, or
	// a list of allowed strings), a second branch of anyOf accepts placeholders.
	typed := n
	if len(ts) > 0 && (!contains(ts, "string") || len(k.Enum) > 0) {
		typed = &node{}
		n.AnyOf = []*node{typed, {Type: "string", Pattern: placeholderPattern}}
	}
	switch len(ts) {
	case 0:
	case 1:
		typed.Type = ts[0]
	default:
		typed.Type = ts
	}
	for _, e := range k.Enum {
		typed.Enum = append(typed.Enum, e)
	}
	if len(typed.Enum) > 0 && contains(ts, "null") {
		typed.Enum = append(typed.Enum, nil)
	}
	if v, ok := defaultValue(k.Default, ts); ok {
		n.Default = v
	}
	var desc strings.Builder
	desc.WriteString(strings.TrimSpace(k.Doc))
	if k.Default != "" {
		fmt.Fprintf(&desc, "\n\nDefault: %s (%s).", k.Default, shortVersion(d.Version))
	}
	if k.Replacement != "" && k.Rename == "safe" {
		fmt.Fprintf(&desc, "\n\nDeprecated: use %s.", k.Replacement)
		n.Deprecated = "renamed to " + k.Replacement
	} else if strings.HasPrefix(k.Doc, "removed in") {
		n.Deprecated = k.Doc
	}
	n.Description = strings.TrimSpace(desc.String())
}

// splitPath splits "a.b[].c" into ["a", "b", "[]", "c"].
func splitPath(p string) []string {
	var out []string
	for _, part := range strings.Split(p, ".") {
		for strings.HasSuffix(part, "[]") {
			base := strings.TrimSuffix(part, "[]")
			if base != "" {
				out = append(out, base)
			}
			out = append(out, "[]")
			part = ""
		}
		if part != "" {
			out = append(out, part)
		}
	}
	return out
}

// shortVersion is a dialect's Version without its list of source files ("lightning 2.6.x").
func shortVersion(v string) string {
	if i := strings.Index(v, " ("); i > 0 {
		return v[:i]
	}
	return v
}

func isNoneDefault(s string) bool {
	switch strings.ToLower(s) {
	case "none", "null":
		return true
	}
	return false
}

// defaultValue reads a Key.Default as a JSON value of one of the key's types; defaults that are
// prose or "none" are left to the description.
func defaultValue(s string, ts []string) (any, bool) {
	if s == "" || isNoneDefault(s) {
		return nil, false
	}
	for _, t := range ts {
		switch t {
		case "integer":
			if v, err := strconv.ParseInt(s, 10, 64); err == nil {
				return v, true
			}
		case "number":
			if v, err := strconv.ParseFloat(s, 64); err == nil {
				return v, true
			}
		case "boolean":
			if v, err := strconv.ParseBool(s); err == nil {
				return v, true
			}
		}
	}
	if contains(ts, "string") {
		return s, true
	}
	return nil, false
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
