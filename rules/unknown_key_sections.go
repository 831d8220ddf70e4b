package rules

import (
	"sort"
	"strings"
	"sync"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/schema"
)

// checkKnowledgeSections is the unknown-key rule for a framework whose keys come from the
// knowledge table extracted from its source (dialect.Dialect.Knowledge), at the target version:
//   - the root (a dict the framework reads key by key): a near miss of a known key is reported,
//     since the framework silently ignores it (a misspelt zero_optimization leaves ZeRO off);
//   - sections read by a model that forbids unknown keys at the target version: every unknown
//     key is reported, since the framework refuses the file at start-up. The root is such a
//     section when a model reads it (its table section is not "": argument classes given to a
//     parser), not when it is a dict read key by key;
//   - a key the table had at an older tag but not at the target is reported as removed.
func checkKnowledgeSections(p *lint.Pass, d *dialect.Dialect) {
	kb := dialect.KnowledgeOf(d.Knowledge)
	root := p.Doc.Root
	if kb == nil || root == nil || root.Kind != doc.Map || d.SkipVariant != "" && p.Plan.Variant == d.SkipVariant {
		return
	}
	target, where := targetOf(p, d, kb)
	paths := make([]string, 0, len(d.Sections))
	for path := range d.Sections {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		sec := d.Sections[path]
		m := root
		if path != "" {
			m = root.At(path)
		}
		if m == nil || m.Kind != doc.Map || path == "" && hasAnyKey(m, d.OpenWith) {
			continue
		}
		ks := sectionKeys(d, kb, sec, target, path == "")
		if !ks.exists {
			continue // no model for this section at the target version, or not certainly
		}
		known, set := ks.list, ks.set
		closed := (path != "" || sec != "") && ks.forbids
		for _, n := range m.Children {
			if set[n.Key] || n.Alias || n.Key == "" || strings.HasPrefix(n.Key, "_") {
				continue
			}
			best, near := nearestKey(n.Key, known)
			var gone dialect.Fact
			removed := false
			if d.Checks || closed {
				// Removals are read by version for the tables extracted with their validators.
				gone, removed = kb.Gone(sec, n.Key, target)
			}
			if !near && !closed && !removed {
				continue
			}
			f := lint.Finding{Node: n, AtKey: true}
			name := path
			if path == "" {
				name = d.Title
			}
			f.Message = quote(n.Key) + " is not " + article(name) + " " + name + " setting"
			if removed {
				f.Message += " (removed in " + strings.TrimPrefix(gone.Removed, "v") + ")"
			}
			switch {
			case closed:
				f.Message += ": " + where + " refuses it at start-up"
			case removed:
				f.Message += ": " + where + " no longer reads it"
			default:
				f.Message += ": " + where + " ignores it"
			}
			if removed && !near {
				if r := gone.Replacement; r != "" && r != "-" && set[r] {
					best, near = r, true
				}
			}
			if near {
				f.Message += " (did you mean " + quote(best) + "?)"
				if m.Get(best) == nil {
					f.Fix = lint.RenameKey(p.Doc, n, best, lint.Unsafe, "rename "+quote(n.Key)+" to "+quote(best))
				}
			}
			p.Report(f)
		}
	}
}

// sectionKeySet is one section's keys at one target version, built once (the rule runs on
// every file; callers must not modify it).
type sectionKeySet struct {
	exists, forbids bool
	list            []string
	set             map[string]bool
}

var sectionKeyCache sync.Map // framework \x00 section \x00 target -> *sectionKeySet

func sectionKeys(d *dialect.Dialect, kb *dialect.Knowledge, sec, target string, root bool) *sectionKeySet {
	id := d.Knowledge + "\x00" + sec + "\x00" + target
	if v, ok := sectionKeyCache.Load(id); ok {
		return v.(*sectionKeySet)
	}
	ks := &sectionKeySet{exists: kb.SectionExists(sec, target), forbids: kb.Forbids(target), set: map[string]bool{}}
	ks.list = kb.SectionAt(sec, target)
	if root {
		// Settings of the dialects parsed alongside (the Trainer's), at any version: the
		// table of this framework does not say which of theirs are in use.
		for _, name := range d.KnownFrom {
			ks.list = append(ks.list, schema.TopLevel(name)...)
		}
	}
	sort.Strings(ks.list)
	uniq := ks.list[:0]
	for _, k := range ks.list {
		if !ks.set[k] {
			ks.set[k] = true
			uniq = append(uniq, k)
		}
	}
	ks.list = uniq
	sectionKeyCache.Store(id, ks)
	return ks
}

// targetOf is the version the file is linted for and how messages name it: the dialect's title
// and the version ("... 0.14.4 (requirements.txt pins 0.14.4)"), or the newest tag read.
func targetOf(p *lint.Pass, d *dialect.Dialect, kb *dialect.Knowledge) (string, string) {
	if t, ok := p.Targets[d.Package]; ok && t.Version != "" {
		where := d.Title + " " + t.Version
		if t.Source != "" {
			where += " (" + t.Source + ")"
		}
		return t.Version, where
	}
	return "", d.Title + " " + strings.TrimPrefix(kb.Newest(), "v")
}

// hasAnyKey reports whether the map sets any of the keys.
func hasAnyKey(m *doc.Node, keys []string) bool {
	for _, k := range keys {
		if m.Get(k) != nil {
			return true
		}
	}
	return false
}

// article is "a" or "an" for a name said in English.
func article(name string) string {
	if name != "" && strings.ContainsRune("aeiouAEIOU", rune(name[0])) {
		return "an"
	}
	return "a"
}
