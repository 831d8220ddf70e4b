package compose

import (
	"io/fs"
	"testing"
)

func TestValidPathIsFSValidPath(t *testing.T) {
	for _, p := range []string{".", "", "a", "a/b", "a/b/c.yaml", "/a", "a/", "a//b", "./a", "a/.", "a/./b",
		"..", "../a", "a/..", "a/../b", "...", "a/...", ".a", "a/.b", "a\\b", "é/ü", "//", "/", "a/b/", "a/\xff", "\xc3"} {
		if got, want := ValidPath(p), fs.ValidPath(p); got != want {
			t.Errorf("ValidPath(%q) = %v, fs.ValidPath says %v", p, got, want)
		}
	}
}
