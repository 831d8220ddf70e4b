//go:build trainlint_lite

package lint

// pyLiteral in the light build (the browser checker's first WebAssembly module), which reads no
// Python file (the full module does): never asked; no edit if it were.
func pyLiteral([]byte) bool { return false }
