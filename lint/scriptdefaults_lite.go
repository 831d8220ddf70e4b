//go:build trainlint_lite

package lint

import (
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// forgetScriptDefaults in the light build: the browser reads no repository's scripts.
func forgetScriptDefaults(*plan.Plan, map[string]string, map[string]bool, map[string]bool, map[string]bool) {
}

// forgetRepoRunners in the light build: the browser reads no repository's scripts.
func forgetRepoRunners(*plan.Plan, *dialect.Dialect, Options) {}

// forgetBaseDefaults in the light build: a pasted file's bases are not read either, and the
// reflection that finds the facts would cost the module about 34 KB gzip (measured 2026-12-06).
func forgetBaseDefaults(*plan.Plan, *doc.Document, map[string]bool) {}
