package api_test

import (
	"reflect"
	"testing"

	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/wasm/api"
)

// TestTargetsOnePerVersion: the version selector lists each version once ("5.15" from a
// dialect's note and "5.15.0" from a tag are one), oldest first, and the same list every time
// (the site's check page is built from it, so a build must not depend on map order).
func TestTargetsOnePerVersion(t *testing.T) {
	first := api.Targets()
	if len(first) == 0 {
		t.Fatal("no targets")
	}
	for _, tg := range first {
		for i := 1; i < len(tg.Versions); i++ {
			a, b := dialect.ParseVersion(tg.Versions[i-1]), dialect.ParseVersion(tg.Versions[i])
			if dialect.CompareVersions(a, b) >= 0 {
				t.Errorf("%s: %q then %q: not one per version, oldest first", tg.Package, tg.Versions[i-1], tg.Versions[i])
			}
		}
	}
	for i := 0; i < 20; i++ {
		if got := api.Targets(); !reflect.DeepEqual(got, first) {
			t.Fatalf("Targets differs between calls:\n%v\n%v", first, got)
		}
	}
}
