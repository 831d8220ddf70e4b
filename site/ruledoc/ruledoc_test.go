package ruledoc

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/rules"
)

// TestSections: every rule documents the fix first, then why, suppression and options, and the
// suppression names the rule in the comment syntax the engine reads.
func TestSections(t *testing.T) {
	for _, r := range rules.All() {
		var ids []string
		for _, s := range Sections(r) {
			ids = append(ids, s.ID)
		}
		if got := strings.Join(ids, ","); got != "fix,why,suppress,options" {
			t.Errorf("%s: sections %s, want fix,why,suppress,options", r.Name, got)
		}
		sup := Suppression(r)
		for _, want := range []string{"# trainlint: disable=" + r.Name + " -- reason", "disable-file=" + r.Name, "--ignore " + r.Code, "[[ignore]]"} {
			if !strings.Contains(sup, want) {
				t.Errorf("%s: suppression text lacks %q", r.Name, want)
			}
		}
		for _, o := range r.Options {
			if !strings.Contains(Options(r), o.Name+" = ") {
				t.Errorf("%s: option %s has no TOML line", r.Name, o.Name)
			}
		}
	}
}
