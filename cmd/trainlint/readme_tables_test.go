package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/rules"
)

// The README's rule and framework tables are generated from the rule catalogue and the dialect
// registry: TestReadmeTables fails when either is stale (a rule or a framework added, renamed or
// retitled), and `go test ./cmd/trainlint -run TestReadmeTables -update-readme` rewrites them.

// rulesTable renders the catalogue as the README's Rules table: one row per category, each rule
// as its code and name (its page has the rest), so the README stays short as rules are added.
func rulesTable(cat []lint.RuleInfo) string {
	var b strings.Builder
	b.WriteString("| category | rules |\n|---|---|\n")
	var order []string
	byCat := map[string][]string{}
	for _, r := range cat {
		c := string(r.Category)
		if _, ok := byCat[c]; !ok {
			order = append(order, c)
		}
		name := r.Code + " `" + r.Name + "`"
		if r.Off {
			name += " (off by default)"
		}
		byCat[c] = append(byCat[c], name)
	}
	for _, c := range order {
		b.WriteString("| " + cell(c) + " | " + cell(strings.Join(byCat[c], ", ")) + " |\n")
	}
	return b.String()
}

// frameworksTable renders the dialect registry as the README's Frameworks table (each
// framework's page says which version its keys and defaults were checked against).
func frameworksTable(ds []*dialect.Dialect) string {
	var b strings.Builder
	b.WriteString("| id | framework |\n|---|---|\n")
	for _, d := range ds {
		b.WriteString("| `" + d.Name + "` | " + cell(d.Title) + " |\n")
	}
	return b.String()
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func TestReadmeTables(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	for _, tab := range []struct{ name, section, want string }{
		{"rules-table", "## Rules", rulesTable(lint.Catalogue(rules.All()))},
		{"frameworks-table", "## Frameworks", frameworksTable(dialect.All())},
	} {
		begin, end := "<!-- "+tab.name+":begin -->\n", "<!-- "+tab.name+":end -->"
		i, j := strings.Index(s, begin), strings.Index(s, end)
		sec := strings.Index(s, "\n"+tab.section+"\n")
		if i < 0 || j < i || sec < 0 || sec > i || strings.Contains(s[sec+1:i], "\n## ") {
			t.Fatalf("README.md has no %s between %q and %q in its %q section", tab.name, begin, end, tab.section)
		}
		if got := s[i+len(begin) : j]; got != tab.want {
			if !*updateReadme {
				t.Errorf("the README's %s is stale; run go test ./cmd/trainlint -run TestReadmeTables -update-readme and review the diff.\n--- README ---\n%s--- now ---\n%s", tab.name, got, tab.want)
				continue
			}
			s = s[:i+len(begin)] + tab.want + s[j:]
		}
	}
	if *updateReadme && s != string(readme) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadmeSize keeps the README a user's first page, not a design record: those live in
// package documentation (see its Development section).
func TestReadmeSize(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 15<<10 {
		t.Errorf("README.md is %d bytes, over 15 KiB: move records into package documentation or the site", len(b))
	}
}

// TestReadmeLinks: every relative link of the README names a file or folder of the repository,
// and every in-page link a heading.
func TestReadmeLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(l, "## "); ok {
			anchors[strings.ReplaceAll(strings.ToLower(h), " ", "-")] = true
		}
	}
	links := regexp.MustCompile(`\]\(([^)\s]+)\)`).FindAllStringSubmatch(string(b), -1)
	if len(links) == 0 {
		t.Fatal("no links found: the pattern is wrong")
	}
	for _, m := range links {
		target := m[1]
		switch {
		case strings.HasPrefix(target, "https://"), strings.HasPrefix(target, "http://"):
		case strings.HasPrefix(target, "#"):
			if !anchors[target[1:]] {
				t.Errorf("link %q names no heading", target)
			}
		default:
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
				t.Errorf("link %q: %v", target, err)
			}
		}
	}
}
