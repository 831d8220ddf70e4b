//go:build trainlint_lite

package lint

import "github.com/trainlint/trainlint/lint/compose"

// RunFile in the light build (the browser checker's first WebAssembly module): that module
// composes no code config (compose's code_lite.go), so no run has a primary without a tree of
// its own to list.
func RunFile(*[]FileInfo, string, *compose.Run, Options) {}

// callBuilt in the light build: no code config is composed there.
func callBuilt(*compose.Run) bool { return false }
