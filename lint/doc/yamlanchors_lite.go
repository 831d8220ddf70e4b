//go:build trainlint_lite

package doc

import "bytes"

// The light WebAssembly module does not tell keys repeated only to carry anchors from other
// duplicates (yamlanchors.go: about 2 KB of the module's gzip). A YAML file with a repeated key
// and an alias is declined, and the checker reads it with the full module.

// AnchorHolders is the full build's; here no file reaches the rules with both.
func AnchorHolders(*Document) map[Span]bool { return nil }

// declineAnchorHolders declines a YAML file whose problems hold a repeated key and whose text an
// alias (`*name`) may be in.
func declineAnchorHolders(d *Document) {
	if d.Root == nil || bytes.IndexByte(d.Src, '*') < 0 || bytes.IndexByte(d.Src, '&') < 0 {
		return
	}
	for _, p := range d.Problems {
		if p.Kind == DuplicateKey {
			d.Problems = nil // the full module reads the file again
			decline(d, "a repeated key beside anchors")
			return
		}
	}
}
