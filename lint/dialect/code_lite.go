//go:build trainlint_lite

package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// In the light WebAssembly module (the browser checker's first; tag trainlint_lite) the
// dialects whose configs are code (big_vision, MMEngine, Scenic: Python; T5X: gin) have no
// reader: that module cannot read Python or gin, so their files are declined before a dialect
// sees them. A file forced to one of them (the framework option) is declined here instead, so
// the reply needs the full module (code_full.go has the readers) and never shows other findings.
var (
	normBigVision = declineCode
	normMMEngine  = declineCode
	normScenic    = declineCode
	normT5X       = declineCode

	// Their files have no tree here (declined), so nothing is detected as one of them.
	detBigVision = detectNothing
	detMMEngine  = detectNothing
	detScenic    = detectNothing
	detT5X       = detectNothing

	// torchtitan's configs are TOML, which this module does not read (lint/doc/lite.go).
	normTorchtitan = declineCode
	detTorchtitan  = detectNothing
)

// knowledgeOpenMMLabTSV is empty here: only the MMEngine dialect reads OpenMMLab's backbone
// defaults (2.5 KB of gzip in the full module's table).
var knowledgeOpenMMLabTSV string

func detectNothing(*doc.Document) int { return 0 }

func declineCode(d *doc.Document, _ Context) *plan.Plan {
	d.Declined = true
	return nil
}
