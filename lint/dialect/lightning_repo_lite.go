//go:build trainlint_lite

package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// lightningUnvalidated in the light build: the browser reads no repository's modules
// (Context.NoValModels is never set there).
func lightningUnvalidated(*plan.Plan, *doc.Node, *doc.Node, Context) {}
