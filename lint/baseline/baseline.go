// Package baseline lets a team adopt trainlint on a repository that already has findings: record
// today's findings once (--write-baseline FILE), commit the file, and later runs (--baseline FILE)
// report only findings that are not in it.
//
// Findings are matched by fingerprint (lint.Fingerprints: file, rule, key path and an occurrence
// index among identical ones), never by line, so editing other parts of a file does not turn
// old findings into new ones. Matching counts: a file that had two identical findings and now
// has three reports one as new.
package baseline

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/trainlint/trainlint/lint"
)

// Version is the baseline file format. It changes with lint.FingerprintVersion: an older file's
// fingerprints would match nothing, so reading one is an error that says to rewrite it.
const Version = 1

// Baseline is the file: accepted findings, sorted so that the file diffs well in review.
type Baseline struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`
}

// Entry is one accepted finding. Only Fingerprint is matched; the rest tells a reviewer what was
// accepted.
type Entry struct {
	Fingerprint string `json:"fingerprint"`
	Code        string `json:"code"`
	Rule        string `json:"rule"`
	File        string `json:"file"`
	Key         string `json:"key,omitempty"`
	Message     string `json:"message,omitempty"`
}

// New records every diagnostic of a result except internal errors: those are trainlint bugs, and
// a baseline must not make a crashing rule go quiet.
func New(res *lint.Result) *Baseline {
	b := &Baseline{Version: Version, Entries: []Entry{}}
	fps := lint.Fingerprints(res.Diagnostics)
	for i, d := range res.Diagnostics {
		if d.Code == lint.InternalError.Code {
			continue
		}
		b.Entries = append(b.Entries, Entry{Fingerprint: fps[i], Code: d.Code, Rule: d.Rule,
			File: lint.NormalizePath(d.File), Key: d.Key, Message: d.Message})
	}
	sort.SliceStable(b.Entries, func(i, j int) bool {
		x, y := b.Entries[i], b.Entries[j]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Code != y.Code {
			return x.Code < y.Code
		}
		if x.Key != y.Key {
			return x.Key < y.Key
		}
		return x.Fingerprint < y.Fingerprint
	})
	return b
}

// Write records a result's findings as a baseline file (two-space indented JSON, trailing newline).
func Write(w io.Writer, res *lint.Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(New(res))
}

// Read parses a baseline file.
func Read(r io.Reader) (*Baseline, error) {
	var b Baseline
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("baseline is not valid: %v", err)
	}
	if b.Version != Version {
		return nil, fmt.Errorf("baseline version %d is not supported (want %d); write it again with --write-baseline", b.Version, Version)
	}
	for i, e := range b.Entries {
		if e.Fingerprint == "" {
			return nil, fmt.Errorf("baseline entry %d has no fingerprint", i+1)
		}
	}
	return &b, nil
}

// Filter returns a copy of res without the diagnostics the baseline accepts. Fingerprints are
// taken on the whole result first and kept on the survivors, so formats that print them (SARIF,
// GitLab) show the same identity with or without a baseline. res is not modified.
func Filter(res *lint.Result, b *Baseline) *lint.Result {
	out := *res
	all := append([]lint.Diagnostic(nil), res.Diagnostics...)
	lint.SetFingerprints(all)
	known := b.set()
	out.Diagnostics = []lint.Diagnostic{}
	for _, d := range all {
		if !known[d.Fingerprint] {
			out.Diagnostics = append(out.Diagnostics, d)
		}
	}
	return &out
}

// Fixed returns the baseline's entries, for the files res covers, that no longer match a finding:
// fixed since the baseline was written (rewrite the baseline to drop them, so that they cannot
// hide a regression later). Entries of files this run did not lint are not counted as fixed.
func Fixed(res *lint.Result, b *Baseline) []Entry {
	now := map[string]bool{}
	for _, fp := range lint.Fingerprints(res.Diagnostics) {
		now[fp] = true
	}
	linted := map[string]bool{}
	for _, f := range res.Files {
		linted[lint.NormalizePath(f.Path)] = true
	}
	for _, d := range res.Diagnostics {
		linted[lint.NormalizePath(d.File)] = true
	}
	var out []Entry
	for _, e := range b.Entries {
		if linted[lint.NormalizePath(e.File)] && !now[e.Fingerprint] {
			out = append(out, e)
		}
	}
	return out
}

func (b *Baseline) set() map[string]bool {
	m := make(map[string]bool, len(b.Entries))
	for _, e := range b.Entries {
		m[e.Fingerprint] = true
	}
	return m
}
