//go:build trainlint_lite

package dialect

import "github.com/trainlint/trainlint/lint/doc"

// ForkKeys in the light build: the browser reads no repository's dataclasses
// (lint.Options.ScriptKeys is nil there), so no file is a fork's (kit_fork.go).
func ForkKeys(*Dialect, *doc.Node, map[string]bool, map[string]bool, map[string]map[string]bool) int {
	return 0
}

// LibraryKey in the light build: never asked (the generic reader filters keys only with the
// repository's words, which the browser does not have).
func LibraryKey(string) bool { return true }

// read in the light build: the browser has no repository's words (kit_fork.go).
func (g genericReader) read(*doc.Node) bool { return true }

// trainerWords in the light build: the browser has no repository's words (kit_fork.go).
func trainerWords(map[string]bool, map[string]int) bool { return true }

// libraryTakes in the light build: the browser has no repository's words, so nothing is
// asked of it (g.reads is nil there; kit_fork.go).
func (g genericReader) libraryTakes(*doc.Node) bool { return true }
