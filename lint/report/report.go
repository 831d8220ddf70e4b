// Package report renders a lint.Result: every output format is a view of that one result.
// Each format registers itself from its own file.
//
// User data is escaped wherever the text and github formats show it (escape.go): control
// characters, bidirectional controls and line separators in file names, messages and help are
// spelled \x1b, \n, \u202e, and a text excerpt shows a bidirectional control as <U+202E>. So a
// hostile file can neither drive the terminal nor print a line that GitHub Actions would read as
// a workflow command.
//
// A text excerpt costs what it shows: on a line longer than 4 KB only a window of about 160
// columns around the span is decoded, found from the span's byte offset with a cursor that
// moves forward along the line as the sorted findings do. Measured through the CLI (issue 15,
// 2-core machine, peak RSS): a 5 MB one-line JSON with 19 repeated keys, text format, 56 s and
// 548 MB → 0.13-0.22 s and 24 MB; the text report now allocates 1.5 MB more than the JSON report of
// the same run (TestRobustTextExcerptCost). A 57 MB one-line JSON took 60 s and 3.2 GB in text
// format (the excerpt of its size finding expanded the whole line): the CLI no longer reads a
// file past the size limit nor keeps its text, 0.01 s and 12 MB.
package report

import (
	"io"
	"sort"

	"github.com/trainlint/trainlint/lint"
)

// Options carry what some formats need beyond the result.
type Options struct {
	// Color enables ANSI colour (text format).
	Color bool
	// Sources maps a file path to its bytes, for excerpts (text) and snippets.
	Sources map[string][]byte
	// Rules is the catalogue, for formats that describe rules (SARIF).
	Rules []*lint.Rule
	// Quiet asks for one line per finding: no excerpt, no guidance, no summary (text format).
	Quiet bool
	// FailOn is the run's --fail-on (0: the default, warning). JUnit marks findings at or above
	// it as failures; a threshold above error (--fail-on never, --exit-zero) keeps warning's, since
	// the report still shows what needs attention when the exit code does not.
	FailOn lint.Severity
}

// failureThreshold is the severity at which a finding counts as a failure in formats that
// have only pass and fail (JUnit).
func (o Options) failureThreshold() lint.Severity {
	if o.FailOn < lint.Info || o.FailOn > lint.Error {
		return lint.Warning
	}
	return o.FailOn
}

// Writer renders a result.
type Writer func(w io.Writer, res *lint.Result, o Options) error

var formats = map[string]Writer{}

// Register adds a format under a name (text, json, sarif, github, junit, gitlab).
func Register(name string, w Writer) { formats[name] = w }

// Get returns the writer for a format name.
func Get(name string) (Writer, bool) {
	w, ok := formats[name]
	return w, ok
}

// Names lists the registered formats, sorted.
func Names() []string {
	var ns []string
	for n := range formats {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}
