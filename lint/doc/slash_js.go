package doc

// ToSlash is path/filepath.ToSlash: on js/wasm the separator is already '/', and path/filepath
// imports os, whose initialiser (the standard files) the WebAssembly modules would otherwise run
// and link (site/doc.go).
func ToSlash(path string) string { return path }
