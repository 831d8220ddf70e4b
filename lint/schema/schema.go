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
	"slices"
	"strings"

	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
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

var keyLists doc.Cache // framework -> []dialect.Key

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
var keyIndexes doc.Cache // framework -> map[string]dialect.Key

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

var topLevels doc.Cache // framework -> []string

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
	doc.SortStrings(out)
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
