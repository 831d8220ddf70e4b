//go:build trainlint_lite

package compose

import "github.com/trainlint/trainlint/lint/doc"

// The light build resolves no interpolation in a defaults list (interp_full.go: 2.8 KB of its
// gzip, past its budget): the run is marked declined and the page asks the full module, as
// for a run with a command-line override (hydravalue_lite.go).

func (c *composer) interpolateOption(opt string) (out, bad string) {
	c.declined = true
	return "", "the checker's full module resolves it"
}

func (c *composer) listChoices(*doc.Node, string, string, bool) map[string]string { return nil }

func (c *composer) noteChoice(string, string) {}

func (c *composer) listInterpolation(string, *doc.Node, string, string) { c.declined = true }
