//go:build trainlint_lite

package compose

import "github.com/trainlint/trainlint/lint/doc"

// The light WebAssembly module reads no hydra.searchpath (its code was about 7 KB of the
// module's gzip): a run whose primary config has one is composed without it and declined, and
// the checker lints the request again with the full module (searchpath_full.go), discovery
// included. The browser has no scripts, so no Cache.MainDir either.

func (c *composer) readSearchPath(primary string, _ []string, _ string) {
	if d, ok := c.parse(primary); ok && d.Root.Get("hydra").Get("searchpath") != nil {
		c.declined = true
	}
}

func (c *composer) missingOnSearchPath(_, _, _, _ string, _ doc.Span) { c.run.Partial = true }

func searchRoots(_ *composer, roots []string, _ map[string][]byte) (kept, dirs []string) {
	return roots, nil
}

func underAny(string, []string) bool { return false }
