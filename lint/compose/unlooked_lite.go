//go:build trainlint_lite

package compose

// The light WebAssembly module does not judge which missing group options Hydra never looks up
// behind an unchosen `???` entry (unlooked_full.go: about 1 KB of the module's gzip): a run with
// both is declined, and the checker composes it with the full module.
func (c *composer) unlookedUp() {
	if c.unlooked.mandatory && c.unlooked.missing {
		c.declined = true
	}
}

// unlooked says whether the pass met an entry left to the command line and a group option not
// found.
type unlooked struct{ mandatory, missing bool }

func (c *composer) noteMissing(string, int) { c.unlooked.missing = true }

func (c *composer) noteMandatory(string) { c.unlooked.mandatory = true }
