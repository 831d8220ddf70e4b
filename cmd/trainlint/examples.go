package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/report"
	"github.com/trainlint/trainlint/rules"
)

// writeExamples shows a rule's first bad and good example from its testdata archive, each with
// what the engine reports on it right now: the output is produced, never typed, so it cannot
// drift from the code.
func writeExamples(w io.Writer, r *lint.Rule) {
	bad, good := rules.FirstExamples(r.Name)
	for _, ex := range []struct {
		e     *rules.Example
		title string
	}{{bad, "Example that triggers it"}, {good, "Example that passes"}} {
		if ex.e == nil {
			continue
		}
		title := ex.title + " (" + ex.e.Name
		if len(ex.e.Args) > 0 {
			title += ", with " + strings.Join(ex.e.Args, " ")
		}
		fmt.Fprintf(w, "\n%s)\n", title)
		lines := strings.Split(strings.TrimRight(ex.e.Text, "\n"), "\n")
		width := len(fmt.Sprint(len(lines)))
		for i, l := range lines {
			fmt.Fprintf(w, "  %*d | %s\n", width, i+1, l)
		}
		info, diags := ex.e.Lint()
		res := lint.NewResult()
		res.Files = append(res.Files, info)
		for _, d := range diags {
			if d.Code == r.Code {
				res.Diagnostics = append(res.Diagnostics, d)
			}
		}
		if len(res.Diagnostics) == 0 {
			fmt.Fprintf(w, "\n  trainlint reports nothing for %s here.\n", r.Code)
			continue
		}
		var out bytes.Buffer
		text, _ := report.Get("text")
		text(&out, res, report.Options{Quiet: true})
		fmt.Fprintf(w, "\n%s", indentBlock(out.String(), "  "))
	}
}
