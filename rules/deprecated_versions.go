package rules

import (
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
)

// versionOf reads the version in a deprecation note ("transformers 4.41", "v5", "TRL v0.20.0");
// nil when there is none.
func versionOf(note string) []int {
	f := strings.Fields(note)
	if len(f) == 0 {
		return nil
	}
	return dialect.ParseVersion(f[len(f)-1])
}

// deprecationAtTarget decides how a deprecated key reads at the target version of the
// dialect's package: skip when the target predates the deprecation; a note that it still works
// (and an info severity) when the target predates the removal; the target named otherwise.
func deprecationAtTarget(p *lint.Pass, d *dialect.Dialect, k dialect.Key) (skip bool, note string, sev lint.Severity) {
	t, ok := p.Targets[d.Package]
	if d.Package == "" || !ok || t.Version == "" {
		return false, "", 0
	}
	tv := dialect.ParseVersion(t.Version)
	if len(tv) == 0 {
		return true, "", 0 // not a version (installed from a git commit): not claimed
	}
	if since := versionOf(k.Since); len(since) > 0 && dialect.CompareVersions(tv, since) < 0 {
		return true, "", 0
	}
	removed := versionOf(k.Removed)
	if len(removed) > 0 && dialect.CompareVersions(tv, removed) < 0 {
		return false, "; " + t.Source + ", where it still works", lint.Info
	}
	if t.AtMost && len(removed) > 0 {
		// Only a bound is known (code importing a module a later release dropped): the release
		// may predate the removal, so whether the key still works is unknown.
		return true, "", 0
	}
	return false, "; " + t.Source, 0
}

// checkAlongside reports keys of a package that extends the dialect's settings (TRL's configs
// over TrainingArguments) that are gone at the version the repository pins: the knowledge
// table says when each left and which key the source names instead. Only a pinned package is
// checked: the same key names are common script arguments (run_clm's max_seq_length) in files
// that do not use it.
func checkAlongside(p *lint.Pass, d *dialect.Dialect, base *doc.Node) {
	for _, pkg := range d.Alongside {
		t, ok := p.Targets[pkg]
		if !ok || t.Version == "" {
			continue // not pinned: the package's table is not read (the checker's first file)
		}
		kb := dialect.KnowledgeOf(pkg)
		if kb == nil {
			continue
		}
		secs := make([]string, 0, len(kb.Sections))
		for s := range kb.Sections {
			secs = append(secs, s)
		}
		doc.SortStrings(secs)
		// A key any config class still has at the target is valid there.
		live := map[string]bool{}
		gone := map[string]dialect.Fact{}
		for _, s := range secs {
			for key, f := range kb.Sections[s] {
				if kb.Has(f, t.Version) {
					live[key] = true
				} else if f.Removed != "" && dialect.CompareVersions(dialect.ParseVersion(t.Version), dialect.ParseVersion(f.Removed)) >= 0 {
					if _, seen := gone[key]; !seen {
						gone[key] = f
					}
				}
			}
		}
		keys := make([]string, 0, len(gone))
		for k := range gone {
			keys = append(keys, k)
		}
		doc.SortStrings(keys)
		for _, key := range keys {
			f := gone[key]
			n := base.Get(key)
			if live[key] || n == nil || n.Alias || scriptKey(p, d, key) {
				continue
			}
			if _, known := lookupSetting(d, key); known {
				continue
			}
			name := strings.ToUpper(pkg)
			fin := lint.Finding{Node: n, AtKey: true,
				Message: quote(key) + " is not a " + name + " setting in " + t.VersionShown() + " (removed in " + name + " " +
					strings.TrimPrefix(f.Removed, "v") + "; " + t.Source + ")"}
			if r := f.Replacement; r != "" && r != "-" && live[r] {
				fin.Message += ": use " + quote(r)
				if base.Get(r) == nil {
					app, msg := renameFix(p, key, r, lint.Safe)
					fin.Fix = lint.RenameKey(p.Doc, n, r, app, msg)
				}
			}
			p.Report(fin)
		}
	}
}

// lookupSetting reports whether the dialect itself knows the key at the root.
func lookupSetting(d *dialect.Dialect, key string) (dialect.Key, bool) {
	for _, ks := range [][]dialect.Key{d.Keys, d.Settings} {
		for _, k := range ks {
			if k.Path == key {
				return k, true
			}
		}
	}
	return dialect.Key{}, false
}
