package rules

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/corpustest"
)

// mutate applies one edit of lint/testdata/mutants.tsv to a corpus file's text; ok is false when
// the edit does not apply (the test then fails: a mutant that tests nothing).
func mutate(path, text, op, a, b string) (string, bool) {
	json := strings.HasSuffix(path, ".json")
	switch op {
	case "rename":
		old := a + ":"
		if json {
			old = `"` + a + `"`
			b = `"` + b + `"`
		} else {
			b += ":"
		}
		if !strings.Contains(text, old) {
			return "", false
		}
		return strings.Replace(text, old, b, 1), true
	case "set":
		// The value of the first KEY (at any depth): YAML "KEY: value" (a trailing comment
		// goes), JSON "KEY": value.
		re := regexp.MustCompile(`(?m)^([ \t-]*` + regexp.QuoteMeta(a) + `:)[ \t]*[^\n]*$`)
		if json {
			re = regexp.MustCompile(`("` + regexp.QuoteMeta(a) + `"\s*:)\s*[^,}\n]*`)
		}
		loc := re.FindStringSubmatchIndex(text)
		if loc == nil {
			return "", false
		}
		return text[:loc[3]] + " " + b + text[loc[1]:], true
	case "after":
		// YAML: a new line KEY: VALUE (b is KEY=VALUE) after the first line of key a, at its indent.
		key, val, ok := strings.Cut(b, "=")
		re := regexp.MustCompile(`(?m)^([ \t]*)` + regexp.QuoteMeta(a) + `:[^\n]*\n`)
		loc := re.FindStringSubmatchIndex(text)
		if json || !ok || loc == nil {
			return "", false
		}
		indent := text[loc[2]:loc[3]]
		return text[:loc[1]] + indent + key + ": " + val + "\n" + text[loc[1]:], true
	case "add":
		if !json {
			// A top-level key: set it (replace the value when the file has it).
			re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(a) + `:.*$`)
			if re.MatchString(text) {
				return re.ReplaceAllLiteralString(text, a+": "+b), true
			}
			if !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			return text + a + ": " + b + "\n", true
		}
		parts := strings.Split(a, ".")
		key := parts[len(parts)-1]
		if len(parts) == 1 {
			i := strings.IndexByte(text, '{')
			if i < 0 {
				return "", false
			}
			return text[:i+1] + `"` + key + `": ` + b + ", " + text[i+1:], true
		}
		sec := regexp.MustCompile(`"` + regexp.QuoteMeta(parts[len(parts)-2]) + `"\s*:\s*\{`)
		loc := sec.FindStringIndex(text)
		if loc == nil {
			return "", false
		}
		return text[:loc[1]] + `"` + key + `": ` + b + ", " + text[loc[1]:], true
	}
	return "", false
}

// TestMutants lints real corpus configs with one labelled edit each (lint/testdata/mutants.tsv,
// labels from the frameworks' source) and measures, per framework, how many of the edits the
// framework refuses, ignores or no longer has are reported (a key-rule finding at warning or
// error that the unedited file does not get), and that the valid edits are not. The rates are
// logged (go test -v -run TestMutants); valid edits flagged fail the test, and so does a drop
// of a detection rate below what this commit measured.
func TestMutants(t *testing.T) {
	dir, _ := corpustest.Manifest(t)
	f, err := os.Open(filepath.Join("..", "lint", "testdata", "mutants.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type tally struct{ bad, caught, valid, clean int }
	per := map[string]*tally{}
	codes := []string{"TL003", "TL004", "TL005", "TL011", "TL303", "TL706"}
	// findings are the key-rule and start-up findings at warning or error, by code and message
	// (not line: an edit that adds a line moves the ones below it).
	findings := func(path, text string, targets map[string]lint.Target) map[string]bool {
		_, diags := lint.LintFile(lint.File{Path: path, Text: []byte(text)}, All(), lint.Options{Select: codes, Targets: targets})
		out := map[string]bool{}
		for _, d := range diags {
			if d.Severity != lint.Info {
				out[d.Code+" "+d.Message] = true
			}
		}
		return out
	}
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); {
		line++
		row := sc.Text()
		if row == "" || row[0] == '#' {
			continue
		}
		c := strings.Split(row, "\t")
		if len(c) != 6 {
			t.Fatalf("mutants.tsv:%d: %d columns", line, len(c))
		}
		edit := strings.Fields(c[1])
		if len(edit) != 3 {
			t.Fatalf("mutants.tsv:%d: bad edit %q", line, c[1])
		}
		orig, err := os.ReadFile(filepath.Join(dir, c[0]))
		if err != nil {
			t.Fatal(err)
		}
		mut, ok := mutate(c[0], string(orig), edit[0], edit[1], edit[2])
		if !ok {
			t.Errorf("mutants.tsv:%d: edit %q does not apply to %s", line, c[1], c[0])
			continue
		}
		var targets map[string]lint.Target
		if c[3] != "-" {
			pkg, v, _ := strings.Cut(c[3], "=")
			targets = map[string]lint.Target{pkg: {Version: v, Source: "requirements.txt pins " + v}}
		}
		ty := per[c[2]]
		if ty == nil {
			ty = &tally{}
			per[c[2]] = ty
		}
		// Caught: the edited file gets a finding the original does not (an edit that makes a
		// value invalid can also take away another rule's finding about it).
		before := findings(c[0], string(orig), targets)
		caught := false
		for f := range findings(c[0], mut, targets) {
			caught = caught || !before[f]
		}
		if c[4] == "valid" {
			ty.valid++
			if caught {
				t.Errorf("mutants.tsv:%d: valid edit %q flagged (%s)", line, c[1], c[5])
			} else {
				ty.clean++
			}
			continue
		}
		ty.bad++
		if caught {
			ty.caught++
		} else {
			t.Logf("missed: mutants.tsv:%d %s %q (%s)", line, c[4], c[1], c[5])
		}
	}
	// Measured at this commit; raise them as rules learn more, never lower them.
	floor := map[string]int{"deepspeed": 100, "huggingface": 98, "axolotl": 96, "llama-factory": 100, "lightning": 100, "nemo": 100, "llm-foundry": 100, "torchtune": 100}
	var fws []string
	for fw := range per {
		fws = append(fws, fw)
	}
	sort.Strings(fws)
	for _, fw := range fws {
		ty := per[fw]
		rate := 100 * ty.caught / ty.bad
		t.Logf("%s: %d of %d refused/ignored/removed edits reported (%d%%); %d of %d valid edits clean", fw, ty.caught, ty.bad, rate, ty.clean, ty.valid)
		if rate < floor[fw] {
			t.Errorf("%s: detection %d%% is below the measured %d%%", fw, rate, floor[fw])
		}
	}
}
