//go:build trainlint_lite

package compose

import (
	"path"
	"slices"
	"strings"
)

// The light WebAssembly module does not judge whether a base its siblings include needs a key
// only they set (discover_full.go: about 3 KB of the module's gzip): every root another root of
// its folder names in its defaults list (and no script launches alone) has its run declined
// (Spec.Declined), and the checker lints the files again with the full module.
func (k *Cache) siblingBases(_ FS, roots []string, text map[string][]byte, _ Limits) (kept []string, bases, declined map[string]bool) {
	for _, s := range roots {
		for _, n := range defaultsNames(text[s]) {
			t := path.Join(path.Dir(s), strings.TrimPrefix(strings.TrimSpace(n), "/"))
			if !isYAML(t) {
				t += ".yaml"
			}
			if t != s && slices.Contains(roots, t) && !k.Launched[t] {
				if declined == nil {
					declined = map[string]bool{}
				}
				declined[t] = true
			}
		}
	}
	return roots, nil, declined
}

// sharedExperiment: which of several primaries an experiment is written for is not judged here
// (discover_full.go); the pairing is kept and declined, and the full module drops the ones
// Hydra would refuse.
func sharedExperiment(_ FS, _ string, sharing []string, _ string, _ map[string][]byte, _ map[string]bool) (keep, unknown bool) {
	return true, len(sharing) >= 2
}
