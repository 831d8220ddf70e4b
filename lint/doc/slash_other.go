//go:build !js

package doc

import "path/filepath"

// ToSlash is path/filepath.ToSlash (slash_js.go: the WebAssembly modules link no path/filepath).
func ToSlash(path string) string { return filepath.ToSlash(path) }
