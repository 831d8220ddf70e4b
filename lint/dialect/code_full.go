//go:build !trainlint_lite

package dialect

import _ "embed"

// knowledgeOpenMMLabTSV is the table of the batch-norm defaults of the registered backbones of
// the OpenMMLab projects in mmBackboneProjects (norm_cfg, norm_eval), by registry name
// (cmd/trainlint-knowledge openmmlab.go).
//
//go:embed knowledge_openmmlab.tsv
var knowledgeOpenMMLabTSV string

// The readers of the dialects whose configs are code (Python, gin). The light WebAssembly
// module (tag trainlint_lite) has no Python or gin reader and links a stand-in instead
// (code_lite.go).
var (
	normBigVision = normalizeBigVision
	normMMEngine  = normalizeMMEngine
	normScenic    = normalizeScenic
	normT5X       = normalizeT5X

	detBigVision = detectBigVision
	detMMEngine  = detectMMEngine
	detScenic    = detectScenic
	detT5X       = detectT5X

	// torchtitan's configs are TOML, which the light module does not read either.
	normTorchtitan = normalizeTorchtitan
	detTorchtitan  = detectTorchtitan
)
