//go:build trainlint_lite

package compose

// The light WebAssembly module does not judge whether a base its siblings include needs a key
// only they set (discover_full.go: about 3 KB of the module's gzip): every root another root of
// its folder names in its defaults list (and no script launches alone) has its run declined
// (Spec.Declined), and the checker lints the files again with the full module.
func (k *Cache) siblingBases(_ FS, roots []string, includers map[string][]string, _ Limits) (kept []string, bases, declined map[string]bool) {
	for r := range includers {
		if !k.Launched[r] {
			if declined == nil {
				declined = map[string]bool{}
			}
			declined[r] = true
		}
	}
	return roots, nil, declined
}

// sharedExperiment: which of several primaries an experiment is written for is not judged here
// (discover_full.go); the pairing is kept and declined, and the full module drops the ones
// Hydra would refuse.
func (p experimentPairing) sharedExperiment(_, _ string) (keep, unknown bool) {
	return true, len(p.sharing) >= 2
}

// composesBest: the light module composes no candidate pairing to compare them (discover_full.go);
// every pairing sharedExperiment keeps stays.
func (k *Cache) composesBest(_ FS, _ experimentPairing, _, _, _ string, _ Limits) bool {
	return true
}
