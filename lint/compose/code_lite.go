//go:build trainlint_lite

package compose

import (
	"path"

	"github.com/trainlint/trainlint/lint/doc"
)

// composeCode in the light build (the browser checker's first WebAssembly module) composes no
// code config: that module has no gin or Python reader, so the primary, which the same request
// lints as a file, is declined there and the reply is marked needsFullModule; the full module
// then composes the run (code_full.go). The run says so too: its document is Declined.
func (k *Cache) composeCode(fsys FS, primary string, overrides []string, lim Limits) *Run {
	primary = path.Clean(primary)
	d := &doc.Document{Path: primary, Format: codeFormat(primary), Declined: true}
	return &Run{Primary: primary, Overrides: overrides, Doc: d, origin: map[*doc.Node]Origin{}}
}

// discoverCode in the light build: every code config that names bases is a run, which that
// module declines (composeCode above), so it reads none of their bases to find components.
func (k *Cache) discoverCode(fsys FS, files []string, runs []Spec, _ map[string]bool, _ Limits) []Spec {
	for _, f := range codeRuns(fsys, files) {
		runs = append(runs, Spec{Primary: f})
	}
	return runs
}
