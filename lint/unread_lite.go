//go:build trainlint_lite

package lint

import "github.com/trainlint/trainlint/lint/compose"

// UnreadRefusals in the light build: confirming a refusal composes a run with a command-line
// choice, which the light module does not read (lint/compose/hydravalue_lite.go). When an
// unread option's own lint finds a refusal of a value, the first host's primary is declined,
// and the checker lints the request with the full module (unread_full.go).
func UnreadRefusals(_ *compose.Cache, fsys compose.FS, hosts []OptionHost, unread []string, rules []*Rule, o Options) (out []Diagnostic, declined []string) {
	if len(hosts) == 0 {
		return nil, nil
	}
	for _, r := range rules {
		if r.Name != "rejected-at-startup" {
			continue
		}
		for _, f := range unread {
			if text, err := fsys.ReadFile(f); err == nil && unreadCandidate(f, text, []*Rule{r}, o) {
				return nil, []string{hosts[0].Spec.Primary}
			}
		}
	}
	return nil, nil
}
