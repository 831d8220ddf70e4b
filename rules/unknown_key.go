package rules

import (
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/schema"
	"github.com/trainlint/trainlint/lint/textdist"
)

// UnknownKey reports a top-level key that is not a setting of the framework but is one typo
// away from one. Files of the supported frameworks legitimately carry keys trainlint does not
// know (a training script's own arguments, a fine-tuning tool's model and script arguments), so a key absent
// from the schema is not reported on its own: only a near miss of a known key is, which is what
// a typo looks like. Frameworks whose key set is open (init_args of arbitrary classes, in-house
// files) are not checked at all (schema.Closed).
var UnknownKey = register(&lint.Rule{
	Code: "TL003", Name: "unknown-key", Category: lint.CatStructure, Severity: lint.Warning,
	Title:     "A key is not a setting of the framework",
	NeedsPlan: true,
	Rationale: `A misspelt key is not an error for most training stacks: YAML front-ends of trainers either
stop at start-up or, in scripts that allow extra keys, ignore it. Either way the value written
down does not take effect and the run uses the default, which is the worst kind of mistake: the
config looks right. trainlint compares each top-level key with the framework's settings and
reports keys that are one or two edits away from a known one.`,
	Fix: `Correct the spelling (the message names the nearest known key). A key that is really an argument
of your own script can be kept: suppress the finding with a reason.`,
	Frameworks: keyFrameworks(),
	Check:      checkUnknownKey,
})

func checkUnknownKey(p *lint.Pass) {
	fw := p.Plan.Framework
	root := p.Doc.Root
	if d := dialect.ByName(fw); d != nil && d.Knowledge != "" && d.KeyMaps != nil {
		checkKeyMaps(p, d)
		return
	}
	if d := dialect.ByName(fw); d != nil && d.Knowledge != "" && len(d.Sections) > 0 {
		checkKnowledgeSections(p, d)
		return
	}
	if !schema.Closed(fw) || root == nil || root.Kind != doc.Map {
		return
	}
	known, isKnown := topLevelKeys(fw)
	type near struct {
		best string
		ok   bool
	}
	// A key repeated many times (a hostile file has 100,000 copies) is looked up once.
	seen := map[string]near{}
	for _, n := range root.Children {
		if isKnown[n.Key] || n.Alias || n.Key == "" || strings.HasPrefix(n.Key, "_") {
			continue
		}
		nr, done := seen[n.Key]
		if !done {
			nr.best, nr.ok = nearestKey(n.Key, known)
			seen[n.Key] = nr
		}
		best, ok := nr.best, nr.ok
		if !ok {
			continue
		}
		f := lint.Finding{Node: n, AtKey: true,
			Message: quote(n.Key) + " is not a " + frameworkTitle(fw) + " setting (did you mean " + quote(best) + "?)"}
		if root.Get(best) == nil {
			// Unsafe: the key may be a script argument that happens to look like a setting.
			f.Fix = lint.RenameKey(p.Doc, n, best, lint.Unsafe, "rename "+quote(n.Key)+" to "+quote(best))
		}
		p.Report(f)
	}
}

// topLevelKeys is schema.TopLevel with a set for membership, built once per framework: the
// rule runs on every file and the Trainer has a few hundred settings. Callers must not modify
// either.
func topLevelKeys(fw string) ([]string, map[string]bool) {
	if v, ok := topLevelIndex.Load(fw); ok {
		ix := v.(*keyIndex)
		return ix.list, ix.set
	}
	ix := &keyIndex{list: schema.TopLevel(fw), set: map[string]bool{}}
	for _, k := range ix.list {
		ix.set[k] = true
	}
	topLevelIndex.Store(fw, ix)
	return ix.list, ix.set
}

type keyIndex struct {
	list []string
	set  map[string]bool
}

var topLevelIndex sync.Map // framework -> *keyIndex

// nearestKey returns the known key closest to k when it is close enough to be a typo: the same
// after folding case and dashes, or one edit away (two for keys longer than 8 characters). The
// budget is tight on purpose: on the shared corpus the script arguments nearest to a Trainer key
// are three edits away (eos_token/hub_token, use_peft/use_ipex). A tie is no answer.
func nearestKey(k string, known []string) (string, bool) {
	fold := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	fk := fold(k)
	budget := 1
	if len(k) > 8 {
		budget = 2
	}
	type cand struct {
		key string
		d   int
	}
	var cs []cand
	asciiK := isASCII(fk)
	for _, c := range known {
		// Folding ASCII keeps the length, so an ASCII key whose length is off by more than the
		// budget can neither fold to k nor be within reach: skip it before folding (this loop
		// runs for every unknown key against every known one).
		if d := len(c) - len(fk); (d > budget || -d > budget) && asciiK && isASCII(c) {
			continue
		}
		fc := fold(c)
		if fc == fk {
			return c, true
		}
		if d := textdist.OSA(fk, fc, budget); d <= budget {
			cs = append(cs, cand{c, d})
		}
	}
	if len(cs) == 0 {
		return "", false
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].key < cs[j].key })
	if len(cs) > 1 && cs[1].d == cs[0].d {
		return "", false
	}
	return cs[0].key, true
}

// frameworkTitle names a framework's set of settings in messages (dialect.Dialect.SettingsName).
func frameworkTitle(fw string) string {
	if d := dialect.ByName(fw); d != nil && d.SettingsName != "" {
		return d.SettingsName
	}
	return fw
}

// keyFrameworks are the frameworks the unknown-key rule checks: the closed ones and those whose
// sections come from the knowledge table.
func keyFrameworks() []string {
	var out []string
	for _, d := range dialect.All() {
		if d.Closed || d.Knowledge != "" && (len(d.Sections) > 0 || d.KeyMaps != nil) {
			out = append(out, d.Name)
		}
	}
	return out
}

// closedFrameworks are the frameworks whose dialect lists every top-level setting: the key rules
// check only those.
func closedFrameworks() []string {
	var out []string
	for _, d := range dialect.All() {
		if d.Closed {
			out = append(out, d.Name)
		}
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
