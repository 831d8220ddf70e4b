package lint

// RuleInfo is one rule as the catalogue shows it outside the engine: `trainlint rules --format
// json`, the WebAssembly module's rules() and SARIF's rule descriptors are all built from it,
// so the three cannot drift apart, and its JSON is the catalogue's one shape.
type RuleInfo struct {
	Code     string   `json:"code"`
	Name     string   `json:"name"`
	Title    string   `json:"title"`
	Category string   `json:"category"`
	Severity Severity `json:"severity"`
	// Anchor and Playbook are the playbook section's slug and link ("" for structure rules).
	Anchor   string `json:"anchor,omitempty"`
	Playbook string `json:"playbook,omitempty"`
	// URL is the rule's page on the site.
	URL       string `json:"url"`
	Rationale string `json:"rationale"` // Markdown
	Fix       string `json:"fix"`       // Markdown
	// Frameworks the rule can fire in ("*" for all); never nil, so JSON shows a list.
	Frameworks []string `json:"frameworks"`
	Options    []Option `json:"options"`
	// Off: the rule runs only when selected explicitly.
	Off bool `json:"off,omitempty"`
}

// Info describes the rule for the catalogue.
func (r *Rule) Info() RuleInfo {
	return RuleInfo{Code: r.Code, Name: r.Name, Title: r.Title, Category: r.Category, Severity: r.Severity,
		Anchor: r.Anchor, Playbook: r.PlaybookLink(), URL: r.URL(), Rationale: r.Rationale, Fix: r.FixText(),
		Frameworks: append([]string{}, r.Frameworks...), Options: append([]Option{}, r.Options...), Off: r.Off}
}

// Catalogue describes rules in the order given.
func Catalogue(rules []*Rule) []RuleInfo {
	out := make([]RuleInfo, 0, len(rules))
	for _, r := range rules {
		out = append(out, r.Info())
	}
	return out
}
