package report

import (
	"encoding/json"
	"io"

	"github.com/trainlint/trainlint/lint"
)

func init() { Register("json", writeJSON) }

// writeJSON writes the result exactly as the JSON contract (version 1) spells it: two-space
// indent, a trailing newline, and files/diagnostics as arrays even when empty, so consumers
// never have to special-case null.
func writeJSON(w io.Writer, res *lint.Result, _ Options) error {
	out := *res
	if out.Files == nil {
		out.Files = []lint.FileInfo{}
	}
	if out.Diagnostics == nil {
		out.Diagnostics = []lint.Diagnostic{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// Paths and messages read as written ("<stdin>", "a < b"); the output is not embedded in HTML.
	enc.SetEscapeHTML(false)
	return enc.Encode(&out)
}
