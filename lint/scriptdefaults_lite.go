//go:build trainlint_lite

package lint

import (
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/plan"
)

// forgetScriptDefaults in the light build: the browser reads no repository's scripts.
func forgetScriptDefaults(*plan.Plan, map[string]bool, map[string]bool) {}

// forgetRepoRunners in the light build: the browser reads no repository's scripts.
func forgetRepoRunners(*plan.Plan, *dialect.Dialect, Options) {}
