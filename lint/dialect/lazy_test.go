package dialect

import (
	"regexp"
	"testing"
)

// The patterns compile on first use (lazyRegexp): a bad one must fail here, not on the first
// file that happens to need it.
func TestLazyRegexpsCompile(t *testing.T) {
	for _, re := range []func() *regexp.Regexp{refPattern, clockString, hmsString, unitWords, bnArchRe, sexagesimalRe, rankRef,
		genStepsString, genEpochString, composerTimeRe} {
		if re() == nil || re() != re() {
			t.Fatal("lazyRegexp must compile once and return the same *Regexp")
		}
	}
}
