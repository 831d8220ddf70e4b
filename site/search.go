package site

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// searchEntry is one thing the site's search finds (assets/site.js reads search.json on the
// first keystroke in the search box: a few KB, fetched from the site itself).
type searchEntry struct {
	Kind  string `json:"k"` // "rule", "framework", "guide"
	Title string `json:"t"`
	Text  string `json:"s"` // what else matches: the rule's title and category, a framework's id
	URL   string `json:"u"` // relative to the site root
}

func (b *builder) searchIndex() error {
	var ix []searchEntry
	for _, r := range b.rules {
		ix = append(ix, searchEntry{"rule", r.Code + " " + r.Name, r.Title + " · " + r.Category, "rules/" + r.Name + "/index.html"})
	}
	for _, d := range b.dialects {
		ix = append(ix, searchEntry{"framework", d.Title, d.Name, "frameworks/" + d.Name + "/index.html"})
	}
	for _, g := range b.guide {
		ix = append(ix, searchEntry{"guide", g.Title, g.Summary, "guide/" + g.Slug + "/index.html"})
	}
	data, err := json.Marshal(ix)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(b.out, "search.json"), data, 0o644)
}
