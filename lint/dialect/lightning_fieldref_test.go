package dialect

import (
	"regexp"
	"testing"
)

// TestReplaceFieldRefs holds the matcher to the pattern it replaced, so that Lightning's quoted
// messages read the same without package regexp in the checker's light module.
func TestReplaceFieldRefs(t *testing.T) {
	re := regexp.MustCompile(`\{(?:self\.)?_?(\w+)(?:!r)?\}`)
	for _, msg := range []string{
		"ModelCheckpoint(save_top_k={self.save_top_k}, monitor=None) is not valid",
		"{mode!r} is not one of {_every_n_epochs} {self._x} {_} {self} {self.} {x!} {x!r {} {{a}} {a}{b}",
		"plain", "", "{", "}", "{self.!r}", "{_1a}", "{__x}",
	} {
		want := re.ReplaceAllStringFunc(msg, func(m string) string { return "<" + re.FindStringSubmatch(m)[1] + ">" })
		got := replaceFieldRefs(msg, func(w string) string { return "<" + w + ">" })
		if got != want {
			t.Errorf("%q: got %q, want %q", msg, got, want)
		}
	}
}
