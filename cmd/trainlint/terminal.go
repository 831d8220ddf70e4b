package main

import (
	"errors"
	"strings"

	"github.com/trainlint/trainlint/lint/config"
	"github.com/trainlint/trainlint/lint/report"
)

// errorText renders an error for the terminal with control characters escaped: errors quote
// file names, keys and values of the repository being linted, which may hold ESC sequences or
// line breaks (see lint/report/escape.go). Several config mistakes come as config.Errors, one
// per line; each line is escaped on its own.
func errorText(err error) string {
	var ce configErrors
	if errors.As(err, &ce) && len(ce) > 0 {
		lines := make([]string, len(ce))
		for i, e := range ce {
			lines[i] = errorText(e)
		}
		return strings.Join(lines, "\ntrainlint: ")
	}
	var es config.Errors
	if errors.As(err, &es) && len(es) > 0 {
		lines := make([]string, len(es))
		for i, e := range es {
			lines[i] = report.EscapeLine(e.Error())
		}
		return strings.Join(lines, "\n")
	}
	return report.EscapeLine(err.Error())
}
