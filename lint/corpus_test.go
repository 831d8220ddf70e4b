package lint_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
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

// TestCorpus lints every YAML/JSON/TOML file of the shared corpus: nothing may crash, every file
// must parse (they are all valid), and the findings per file are compared with a committed golden
// summary so that any change in behaviour shows up in review. Regenerate with
// `go test ./lint -run TestCorpus -update` and read the diff.
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	dir := corpusDir(t)
	var sum bytes.Buffer
	fmt.Fprintf(&sum, "# trainlint findings on ../shared/corpus: path framework: CODE@line ...\n")
	counts := map[string]int{}
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		info, diags := lint.LintFile(lint.File{Path: rel, Text: src}, rules.All(), lint.Options{})
		var parts []string
		for _, d := range diags {
			switch d.Rule {
			case "parse-error", "internal-error", "input-limit-exceeded":
				t.Errorf("%s:%d:%d: %s: %s", rel, d.Line, d.Column, d.Rule, d.Message)
			}
			parts = append(parts, fmt.Sprintf("%s@%d", d.Code, d.Line))
			counts[d.Code]++
		}
		fmt.Fprintf(&sum, "%s %s: %s\n", rel, info.Framework, strings.Join(parts, " "))
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
