package api

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
)

// TargetInfo is one framework package the checker's version selector offers: the versions
// at which trainlint's knowledge of it changes, oldest first. Choosing none lints for the
// newest release, as the CLI does without [target] or pins.
type TargetInfo struct {
	Package  string   `json:"package"`
	Versions []string `json:"versions"`
}

// Targets lists the packages whose version changes findings and the versions that make a
// difference: the release tags the knowledge table was read at (TRL, DeepSpeed) and the
// versions the dialects' settings name as deprecating or removing a key (transformers 4.41,
// 5.0). Between two of them a finding reads the same, so the list is what a selector needs.
func Targets() []TargetInfo {
	vs := map[string]map[string]string{} // package: version without trailing zeros: its spelling
	add := func(pkg string, v []int) {
		if pkg == "" || len(v) == 0 {
			return
		}
		if len(v) == 1 {
			v = append(v, 0) // "v5" is 5.0
		}
		if vs[pkg] == nil {
			vs[pkg] = map[string]string{}
		}
		parts := make([]string, len(v))
		for i, n := range v {
			parts[i] = strconv.Itoa(n)
		}
		// "5.15" (a dialect's note) and "5.15.0" (a tag) are one version: keep one entry per
		// version, the shorter spelling (the one the notes use: "removed in 5.0"), whatever
		// order the tables are read in.
		name, key := strings.Join(parts, "."), versionKey(v)
		if old, ok := vs[pkg][key]; !ok || len(name) < len(old) {
			vs[pkg][key] = name
		}
	}
	last := func(note string) []int {
		f := strings.Fields(note)
		if len(f) == 0 {
			return nil
		}
		return dialect.ParseVersion(f[len(f)-1])
	}
	for _, d := range dialect.All() {
		for _, pkg := range append([]string{d.Package}, d.Alongside...) {
			if k := dialect.KnowledgeOf(pkg); k != nil {
				for _, t := range k.Tags {
					if !strings.Contains(t, ".") || strings.Contains(t, "-") {
						continue // a commit read for an unreleased head (alignment-handbook's main, torchtune's v0.7.0-bd2a0fc), not a release
					}
					add(pkg, dialect.ParseVersion(t))
				}
			}
		}
		for _, ks := range [][]dialect.Key{d.Keys, d.Settings} {
			for _, k := range ks {
				add(d.Package, last(k.Since))
				add(d.Package, last(k.Removed))
			}
		}
	}
	var out []TargetInfo
	for pkg, set := range vs {
		t := TargetInfo{Package: pkg}
		for _, v := range set {
			t.Versions = append(t.Versions, v)
		}
		sort.Slice(t.Versions, func(i, j int) bool {
			return dialect.CompareVersions(dialect.ParseVersion(t.Versions[i]), dialect.ParseVersion(t.Versions[j])) < 0
		})
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Package < out[j].Package })
	return out
}

// versionKey is a version without its trailing zero parts ("5.15.0" and "5.15" give "5.15").
func versionKey(v []int) string {
	n := len(v)
	for n > 1 && v[n-1] == 0 {
		n--
	}
	parts := make([]string, n)
	for i := range parts {
		parts[i] = strconv.Itoa(v[i])
	}
	return strings.Join(parts, ".")
}

// targetsOf turns a request's {package: version} into the engine's targets; the source names
// the checker, so a message reads "...; the checker targets 4.46, where it still works".
func targetsOf(m map[string]string) (map[string]lint.Target, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := map[string]lint.Target{}
	for pkg, v := range m {
		v = strings.TrimSpace(v)
		if !versioned(pkg) {
			return nil, errors.New("options.targets: unknown package " + strconv.Quote(pkg))
		}
		if v == "" || v == "newest" {
			continue
		}
		if len(dialect.ParseVersion(v)) == 0 {
			return nil, errors.New("options.targets." + pkg + ": " + strconv.Quote(v) + " is not a version")
		}
		out[pkg] = lint.Target{Version: v, Source: "the checker targets " + v}
	}
	return out, nil
}

// versioned reports whether some dialect's findings depend on the package's version (it is the
// dialect's package or one its configs extend): the packages Targets lists.
func versioned(pkg string) bool {
	for _, d := range dialect.All() {
		if pkg != "" && d.Package == pkg {
			return true
		}
		for _, a := range d.Alongside {
			if a == pkg {
				return true
			}
		}
	}
	return false
}
