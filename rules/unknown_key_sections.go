package rules

import (
	"sort"
	"strings"
	"sync"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
)

// checkKnowledgeSections is the unknown-key rule for a framework whose keys come from the
// knowledge table extracted from its source (dialect.Dialect.Knowledge), at the target version:
//   - the root (a dict the framework reads key by key): a near miss of a known key is reported,
//     since the framework silently ignores it (a misspelt zero_optimization leaves ZeRO off);
//   - sections read by a model that forbids unknown keys at the target version: every unknown
//     key is reported, since the framework refuses the file at start-up.
func checkKnowledgeSections(p *lint.Pass, d *dialect.Dialect) {
	kb := dialect.KnowledgeOf(d.Knowledge)
	root := p.Doc.Root
	if kb == nil || root == nil || root.Kind != doc.Map {
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
		if m == nil || m.Kind != doc.Map {
			continue
		}
		ks := sectionKeys(d.Knowledge, kb, sec, target)
		if !ks.exists {
			continue // no model for this section at the target version, or not certainly
		}
		known, set := ks.list, ks.set
		closed := path != "" && ks.forbids
		for _, n := range m.Children {
			if set[n.Key] || n.Alias || n.Key == "" || strings.HasPrefix(n.Key, "_") {
				continue
			}
			best, near := nearestKey(n.Key, known)
			if !near && !closed {
				continue
			}
			f := lint.Finding{Node: n, AtKey: true}
			if path == "" {
				f.Message = quote(n.Key) + " is not a " + d.Title + " setting: " + where + " ignores it"
			} else {
				f.Message = quote(n.Key) + " is not a " + path + " setting: " + where + " refuses it at start-up"
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

func sectionKeys(fw string, kb *dialect.Knowledge, sec, target string) *sectionKeySet {
	id := fw + "\x00" + sec + "\x00" + target
	if v, ok := sectionKeyCache.Load(id); ok {
		return v.(*sectionKeySet)
	}
	ks := &sectionKeySet{exists: kb.SectionExists(sec, target), forbids: kb.Forbids(target), set: map[string]bool{}}
	ks.list = kb.SectionAt(sec, target)
	sort.Strings(ks.list)
	for _, k := range ks.list {
		ks.set[k] = true
	}
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
