package lint

import "github.com/trainlint/trainlint/lint/doc"

// applySuppressions removes diagnostics silenced by `# trainlint: disable=...` comments and adds
// malformed-suppression / unused-suppression findings. (Placeholder: suppressions land with the
// CI integration work.)
func applySuppressions(d *doc.Document, diags []Diagnostic, all, active []*Rule) []Diagnostic {
	return diags
}
