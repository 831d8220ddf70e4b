//go:build trainlint_lite

package dialect

import "github.com/trainlint/trainlint/lint/doc"

// ForkKeys in the light build: the browser reads no repository's dataclasses
// (lint.Options.ScriptKeys is nil there), so no file is a fork's (kit_fork.go).
func ForkKeys(*Dialect, *doc.Node, map[string]bool) int { return 0 }
