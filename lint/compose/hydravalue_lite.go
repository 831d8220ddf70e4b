//go:build trainlint_lite

package compose

// The light build (the browser checker's first WebAssembly module) has no reader for override
// values: Hydra's grammar (hydravalue.go) was 10 KB of its gzip, past its budget. A run with a
// value override is marked declined (its primary's FileInfo), so the page asks the full module,
// which reads it, as it does for TOML, gin and Python files.
const hydraValueDeclined = true

func hydraValue(s string) (yaml string, opaque bool, at int, why string) { return "", false, -1, "" }
