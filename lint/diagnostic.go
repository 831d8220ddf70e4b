package lint

import "github.com/trainlint/trainlint/lint/doc"

// ResultVersion is the version of the JSON output contract.
const ResultVersion = 1

// Tool identifies trainlint in outputs.
type Tool struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Name    string `json:"name"`
	Version string `json:"version"`
}

// Version is trainlint's version.
var Version = "0.1.0"

// Result is the one result every output format is a view of (the JSON contract, version 1).
type Result struct {
	Version     int          `json:"version"`
	Tool        Tool         `json:"tool"`
	Files       []FileInfo   `json:"files"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// FileInfo describes one linted file.
type FileInfo struct {
	Path      string `json:"path"`
	Format    string `json:"format"`
	Framework string `json:"framework"`
	// NeedsHosts lists the codes of the selected multi-host rules that did not run because the
	// file's host count is unknown (pass --hosts, or hosts under [context]); omitted when empty.
	// An addition to version 1: the fields above are unchanged, and a reader that ignores it
	// reads what it read before. Without it a file that could not be checked for multi-host
	// pitfalls looks exactly like one that passed them.
	NeedsHosts []string `json:"needs_hosts,omitempty"`
	// Declined marks a file the light WebAssembly module has no reader for (doc.Document's
	// Declined; not part of the output): the checker lints it with the full module.
	Declined bool `json:"-"`
}

// Diagnostic is one finding. Lines and columns are 1-based; columns count code points; the end is
// exclusive.
type Diagnostic struct {
	Code      string    `json:"code"`
	Rule      string    `json:"rule"`
	Category  string    `json:"category"`
	Severity  Severity  `json:"severity"`
	File      string    `json:"file"`
	Line      int       `json:"line"`
	Column    int       `json:"column"`
	EndLine   int       `json:"end_line"`
	EndColumn int       `json:"end_column"`
	Key       string    `json:"key,omitempty"`
	Message   string    `json:"message"`
	Help      string    `json:"help"`
	URL       string    `json:"url"`
	Related   []Related `json:"related,omitempty"`
	Fix       *Fix      `json:"fix,omitempty"`

	// Span is the byte range in the file (for excerpts and fixes); not part of the JSON.
	Span doc.Span `json:"-"`
	// Fingerprint identifies the finding across edits that move lines (see Fingerprints); set by
	// SetFingerprints before a result is filtered so that survivors keep theirs. Not in the JSON.
	Fingerprint string `json:"-"`
}

// Related is a second location that explains a finding ("train batch set here").
type Related struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
	// EndLine and EndColumn are where the related value ends (0: not known). The JSON output
	// keeps its contract and has no end; the text report underlines to it, SARIF and the
	// language server give it as the region's end.
	EndLine   int `json:"-"`
	EndColumn int `json:"-"`
}

// Applicability says whether a fix can be applied without review.
type Applicability string

const (
	Safe   Applicability = "safe"
	Unsafe Applicability = "unsafe"
)

// Fix is a suggested change.
type Fix struct {
	Applicability Applicability `json:"applicability"`
	Message       string        `json:"message"` // a verb phrase: "set per_device_eval_batch_size to 16"
	Edits         []Edit        `json:"edits"`
}

// Edit replaces [start, end) with NewText. Edits of one fix never overlap.
type Edit struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	NewText   string `json:"new_text"`

	Start int `json:"-"` // byte offsets into the file
	End   int `json:"-"`
}
