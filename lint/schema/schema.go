// Package schema turns what the dialects know about each framework's keys (dialect.Key: path,
// type, default, enum, doc, renames) into JSON Schemas for editors, and answers the questions
// the key rules ask: is this key known, what type and values does it take, which known key is
// nearest to a misspelt one.
//
// The schemas are JSON Schema draft-07: yaml-language-server (the VS Code YAML extension) and
// VS Code's JSON support both read it, while their support of 2019-09/2020-12 keywords varies.
// They are open (no additionalProperties: false): a framework's files legitimately carry keys
// trainlint does not know (script arguments, model options), so the editor completes and
// explains known keys without flagging the rest.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/trainlint/trainlint/lint/dialect"
)

// Draft is the JSON Schema version the schemas declare.
const Draft = "http://json-schema.org/draft-07/schema#"

// IDBase prefixes the schemas' $id (the site publishes them under /schemas/).
const IDBase = "https://trainlint.github.io/schemas/"

// Closed reports whether the unknown-key rule may check the framework's top-level keys: the
// dialect says its Keys and Settings list every top-level setting (dialect.Dialect.Closed). Only
// the Trainer qualifies: its keys are one dataclass. Even there the files also hold script
// arguments (TRL's ModelConfig and ScriptArguments, alignment-handbook's, a project's own), so
// the rule reports only near misses of known keys, never a key merely absent here.
func Closed(framework string) bool {
	d := dialect.ByName(framework)
	return d != nil && d.Closed
}

// Names lists the frameworks that have a schema, in dialect order.
func Names() []string {
	var out []string
	for _, d := range dialect.All() {
		out = append(out, d.Name)
	}
	return out
}

// Keys returns the keys known for a framework: the dialect's Keys first (they are the
// authority on the keys it reads), then its Settings not already listed. Nil for
// an unknown framework. The list is built once per framework and shared (rules ask for it on
// every file): callers must not modify its elements.
func Keys(framework string) []dialect.Key {
	if v, ok := keyLists.Load(framework); ok {
		return v.([]dialect.Key)
	}
	out := slices.Clip(keys(framework)) // clipped: an append by a caller copies
	keyLists.Store(framework, out)
	return out
}

var keyLists sync.Map // framework -> []dialect.Key

func keys(framework string) []dialect.Key {
	d := dialect.ByName(framework)
	if d == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []dialect.Key
	for _, k := range d.Keys {
		if !seen[k.Path] {
			seen[k.Path] = true
			out = append(out, k)
		}
	}
	for _, k := range d.Settings {
		if !seen[k.Path] {
			seen[k.Path] = true
			out = append(out, k)
		}
	}
	return out
}

// Lookup finds a key of the framework by its dotted path.
func Lookup(framework, path string) (dialect.Key, bool) {
	k, ok := keyIndex(framework)[path]
	return k, ok
}

// keyIndexes caches each framework's keys by path: rules look up every node of a file, and
// rebuilding Keys per lookup made a file with 100,000 keys take seconds. The keys are fixed once
// the dialects have registered (at init), so the index never goes stale.
var keyIndexes sync.Map // framework -> map[string]dialect.Key

func keyIndex(framework string) map[string]dialect.Key {
	if m, ok := keyIndexes.Load(framework); ok {
		return m.(map[string]dialect.Key)
	}
	m := map[string]dialect.Key{}
	for _, k := range Keys(framework) {
		if _, dup := m[k.Path]; !dup {
			m[k.Path] = k // the first wins, as in Keys
		}
	}
	got, _ := keyIndexes.LoadOrStore(framework, m)
	return got.(map[string]dialect.Key)
}

// TopLevel lists the framework's known top-level key names (the first segment of every path).
// The list is built once per framework (rules ask for it on every file); callers get a copy.
func TopLevel(framework string) []string {
	if v, ok := topLevels.Load(framework); ok {
		return slices.Clone(v.([]string))
	}
	out := topLevel(framework)
	topLevels.Store(framework, out)
	return slices.Clone(out)
}

var topLevels sync.Map // framework -> []string

func topLevel(framework string) []string { return Under(framework, "") }

// Under lists the key names the framework knows directly under the map at the dotted path sec
// ("" for the root: TopLevel's list): the next segment of every path below it, sorted. Built on
// each call; TopLevel caches the root's.
func Under(framework, sec string) []string {
	prefix := ""
	if sec != "" {
		prefix = sec + "."
	}
	seen := map[string]bool{}
	var out []string
	for _, k := range Keys(framework) {
		next, ok := strings.CutPrefix(k.Path, prefix)
		if !ok {
			continue
		}
		if i := strings.IndexAny(next, ".["); i >= 0 {
			next = next[:i]
		}
		if !seen[next] {
			seen[next] = true
			out = append(out, next)
		}
	}
	sort.Strings(out)
	return out
}

// Types splits a Key.Type union ("integer|number|null") into JSON Schema type names.
func Types(t string) []string {
	var out []string
	for _, p := range strings.Split(t, "|") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

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
