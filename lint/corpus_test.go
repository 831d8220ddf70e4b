package lint_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/rules"
)

var update = flag.Bool("update", false, "rewrite golden files")

// corpusDir is the shared corpus of real configs beside the repository (never copied into it).
func corpusDir(t testing.TB) string {
	dir := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus not present at %s", dir)
	}
	return dir
}

func corpusFiles(t testing.TB) []string {
	dir := corpusDir(t)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if _, ok := doc.FormatFromPath(p); ok && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// corpusLinted is one corpus file linted with every rule: its path in the corpus, what was
// detected and the findings.
type corpusLinted struct {
	rel   string
	info  lint.FileInfo
	diags []lint.Diagnostic
}

// corpusPass is the one lint of the corpus that the tests reading its findings share (a few
// seconds each time).
var corpusPass struct {
	sync.Once
	files []corpusLinted
	err   error
}

// lintCorpus lints every corpus file once per test binary (skipping the test when the corpus is
// absent) and returns the findings in path order.
func lintCorpus(t *testing.T) []corpusLinted {
	t.Helper()
	files := corpusFiles(t)
	dir := corpusDir(t)
	corpusPass.Do(func() {
		for _, p := range files {
			src, err := os.ReadFile(p)
			if err != nil {
				corpusPass.err = err
				return
			}
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			info, diags := lint.LintFile(lint.File{Path: rel, Text: src}, rules.All(), lint.Options{})
			corpusPass.files = append(corpusPass.files, corpusLinted{rel, info, diags})
		}
	})
	if corpusPass.err != nil {
		t.Fatal(corpusPass.err)
	}
	return corpusPass.files
}

// TestCorpus lints every YAML/JSON/TOML file of the shared corpus: nothing may crash, every file
// must parse (they are all valid), and the findings per file are compared with a committed golden
// summary so that any change in behaviour shows up in review. Regenerate with
// `go test ./lint -run TestCorpus -update` and read the diff.
func TestCorpus(t *testing.T) {
	var sum bytes.Buffer
	fmt.Fprintf(&sum, "# trainlint findings on ../shared/corpus: path framework: CODE@line ...\n")
	counts := map[string]int{}
	for _, f := range lintCorpus(t) {
		var parts []string
		for _, d := range f.diags {
			switch d.Rule {
			case "parse-error", "internal-error", "input-limit-exceeded":
				t.Errorf("%s:%d:%d: %s: %s", f.rel, d.Line, d.Column, d.Rule, d.Message)
			}
			parts = append(parts, fmt.Sprintf("%s@%d", d.Code, d.Line))
			counts[d.Code]++
		}
		fmt.Fprintf(&sum, "%s %s: %s\n", f.rel, f.info.Framework, strings.Join(parts, " "))
	}
	var codes []string
	for c := range counts {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	fmt.Fprintf(&sum, "# totals:")
	for _, c := range codes {
		fmt.Fprintf(&sum, " %s=%d", c, counts[c])
	}
	fmt.Fprintln(&sum)

	golden := filepath.Join("testdata", "corpus.golden")
	if *update {
		if err := os.WriteFile(golden, sum.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(want, sum.Bytes()) {
		got := strings.Split(sum.String(), "\n")
		exp := strings.Split(string(want), "\n")
		n := 0
		for i := 0; i < len(got) || i < len(exp); i++ {
			var g, e string
			if i < len(got) {
				g = got[i]
			}
			if i < len(exp) {
				e = exp[i]
			}
			if g != e && n < 20 {
				t.Errorf("corpus summary differs at line %d:\n  want: %s\n  got:  %s", i+1, e, g)
				n++
			}
		}
		t.Errorf("corpus findings changed: review and run `go test ./lint -run TestCorpus -update`")
	}
}

// TestCorpusFrameworksListed: every finding on the corpus is of a rule whose Frameworks name the
// file's framework. A rule's Frameworks are its archive's bad-<framework> sections (rules.go,
// testedFrameworks), and `trainlint rules`, explain, the JSON catalogue and the site's rule pages
// show them: a rule that fires in a framework without such a section claims less than it does.
// The fix is a small bad-<framework> section in rules/testdata/<rule>.txtar, with the good one
// that corrects it, once the findings are checked against the framework's source; a finding
// that is wrong is fixed in its dialect instead.
func TestCorpusFrameworksListed(t *testing.T) {
	byName := map[string]*lint.Rule{}
	for _, r := range rules.All() {
		byName[r.Name] = r
	}
	type pair struct {
		rule      *lint.Rule
		framework string
	}
	count, first := map[pair]int{}, map[pair]string{}
	var pairs []pair
	for _, f := range lintCorpus(t) {
		for _, d := range f.diags {
			r := byName[d.Rule]
			if r == nil {
				t.Errorf("%s:%d: a finding of rule %q, which is not in the catalogue", f.rel, d.Line, d.Rule)
				continue
			}
			k := pair{r, f.info.Framework}
			if listsFramework(r, k.framework) {
				continue
			}
			if count[k] == 0 {
				first[k] = fmt.Sprintf("%s:%d", f.rel, d.Line)
				pairs = append(pairs, k)
			}
			count[k]++
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		a, b := pairs[i], pairs[j]
		return a.rule.Code < b.rule.Code || a.rule.Code == b.rule.Code && a.framework < b.framework
	})
	for _, k := range pairs {
		r, fw := k.rule, k.framework
		t.Errorf("%s %s fires in %s (%d times on the corpus, first at %s), but its Frameworks %v do not list %s: add bad-%s and good-%s sections to rules/testdata/%s.txtar",
			r.Code, r.Name, fw, count[k], first[k], r.Frameworks, fw, fw, fw, r.Name)
	}
}

// listsFramework reports whether a rule's Frameworks name fw, or every framework ("*").
func listsFramework(r *lint.Rule, fw string) bool {
	for _, x := range r.Frameworks {
		if x == "*" || x == fw {
			return true
		}
	}
	return false
}
