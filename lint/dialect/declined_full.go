//go:build !trainlint_lite

package dialect

// The readers of the YAML dialects the light WebAssembly module (tag trainlint_lite) declines,
// leaving their files to the full module (declined_lite.go).
var (
	normComposer = normalizeComposer
	mapsComposer = composerKeyMaps
	normLitGPT   = normalizeLitGPT
	normTimm     = normalizeTimm
)
