//go:build !trainlint_lite

package rules

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
)

// TestNonStandardJSONSeverity: what only lenient readers accept in a JSON file (here an
// unquoted key, and every other such construct of parse-error's JSON sections) is an error in a
// framework whose dialect reads JSON strictly (StrictJSON) and a note elsewhere that names the
// lenient readers of that construct. The archive must have both kinds of section.
func TestNonStandardJSONSeverity(t *testing.T) {
	a, err := LoadArchive(ParseError.Name)
	if err != nil {
		t.Fatal(err)
	}
	var strict, lenient int // unquoted keys seen in each kind of section
	for i := range a.Examples {
		ex := &a.Examples[i]
		if ex.Format != doc.JSON {
			continue
		}
		an, _ := lint.Analyze(ex.File(), ex.Options())
		d := dialect.ByName(ex.Framework)
		if an.Doc == nil || d == nil {
			t.Fatalf("%s: no document or dialect", ex.Name)
		}
		_, diags := lint.LintFile(ex.File(), All(), ex.Options())
		for _, pr := range an.Doc.Problems {
			if pr.Kind != doc.NonStandard || an.Doc.Root == nil {
				continue
			}
			var f *lint.Diagnostic
			for j := range diags {
				if diags[j].Code == ParseError.Code && diags[j].Line == pr.Span.Start.Line && diags[j].Column == pr.Span.Start.Col && strings.HasPrefix(diags[j].Message, pr.Message) {
					f = &diags[j]
				}
			}
			switch {
			case f == nil:
				t.Errorf("%s: no %s finding for %q", ex.Name, ParseError.Code, pr.Message)
			case d.StrictJSON != "" && (f.Severity != lint.Error || !strings.HasSuffix(f.Message, d.StrictJSON+", which refuses it")):
				t.Errorf("%s: %s %q; want an error that names the strict reader", ex.Name, f.Severity, f.Message)
			case d.StrictJSON == "" && (f.Severity != lint.Info || pr.Readers == "" || !strings.HasSuffix(f.Message, ": Python's json refuses it; "+pr.Readers)):
				t.Errorf("%s: %s %q; want a note that names the readers that accept it (%q)", ex.Name, f.Severity, f.Message, pr.Readers)
			}
			if strings.HasPrefix(pr.Message, "unquoted key") {
				if d.StrictJSON != "" {
					strict++
				} else {
					lenient++
				}
			}
		}
	}
	if strict == 0 || lenient == 0 {
		t.Errorf("unquoted keys in %d strict and %d lenient JSON sections of %s's archive; want both", strict, lenient, ParseError.Name)
	}
}
