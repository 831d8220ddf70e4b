package rules

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/dialect"
)

// Rules name no framework: what differs between frameworks lives in the dialects (advice, loader
// kind, renamed keys, closed key sets), so that adding a framework never touches a rule. This test
// fails when a non-test file of the package mentions a registered framework by id or name.
func TestRulesNameNoFramework(t *testing.T) {
	terms := frameworkTerms()
	if len(terms) < 10 {
		t.Fatalf("only %d framework terms: %v", len(terms), terms)
	}
	var alts []string
	for _, term := range terms {
		alts = append(alts, regexp.QuoteMeta(term))
	}
	re := regexp.MustCompile(`(?i)(^|[^a-z0-9_])(` + strings.Join(alts, "|") + `)($|[^a-z0-9_])`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for i, ln := range strings.Split(string(b), "\n") {
			if m := re.FindStringSubmatch(ln); m != nil {
				t.Errorf("%s:%d names framework %q: move it to the dialect (Advice, Settings, Loader, ...)\n\t%s", f, i+1, m[2], strings.TrimSpace(ln))
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d files checked", checked)
	}
}

// frameworkTerms are the ids and names of every registered dialect but the generic one: the id,
// the list name, and the title's parts without words that are not names ("Trainer", "recipe").
func frameworkTerms() []string {
	notNames := map[string]bool{"trainer": true, "recipe": true, "pytorch": true, "nvidia": true, "1.x": true}
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if s != "" && !seen[strings.ToLower(s)] {
			seen[strings.ToLower(s)] = true
			out = append(out, s)
		}
	}
	for _, d := range dialect.All() {
		if d == dialect.Generic {
			continue
		}
		add(d.Name)
		add(d.ListName())
		title := d.Title
		if i := strings.Index(title, "("); i >= 0 {
			title = title[:i]
		}
		for _, part := range strings.Split(title, "/") {
			var words []string
			for _, w := range strings.Fields(part) {
				if !notNames[strings.ToLower(w)] {
					words = append(words, w)
				}
			}
			add(strings.Join(words, " "))
		}
	}
	return out
}
