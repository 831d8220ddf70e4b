//go:build trainlint_lite

package dialect

import "github.com/trainlint/trainlint/lint/doc"

// Dialects the light WebAssembly module (tag trainlint_lite) leaves to the full module although
// it reads their files: Composer / llm-foundry YAML, LitGPT's, and timm's args.yaml (from
// 2026-12-07, to keep the module under its budget: site/doc.go). Few configs pasted into the
// checker are theirs, and their readers were 10, 8 and 2 KB of the light module's gzip. Detection is the same in
// both modules (the detectors stay), so a file detected as one of them, or forced to it, is
// declined by its normaliser as the code dialects' files are (code_lite.go): the reply is
// marked needsFullModule and the checker lints it again with trainlint-full.wasm, whose
// findings are the CLI's. declined_full.go links the readers themselves.
var (
	normComposer = declineCode
	mapsComposer = noKeyMaps
	normLitGPT   = declineCode
	normTimm     = declineCode
)

// noKeyMaps stands in for a declined dialect's KeyMaps. It is not nil, so the rules (which list
// the frameworks whose argument maps unknown-key checks) see the same dialect as in the full
// module; the file it would read is declined.
func noKeyMaps(*doc.Document) []KeyMap { return nil }
