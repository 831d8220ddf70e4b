//go:build !trainlint_lite

package doc

import "testing"

// A %YAML 1.2 directive is read as PyYAML reads it (any 1.x is taken), with positions kept; a
// directive of another major version stays a parse error, as it is for PyYAML.
func TestYAMLVersionDirective(t *testing.T) {
	d := Parse("app.yaml", []byte("%YAML 1.2\n---\napplication:\n  title: x\n"), YAML, Limits{})
	if len(d.Problems) != 0 || d.Root == nil {
		t.Fatalf("%%YAML 1.2: problems %+v", d.Problems)
	}
	if n := d.Root.At("application.title"); n == nil || n.Value != "x" || n.Span.Start.Line != 4 {
		t.Errorf("application.title: %+v", n)
	}
	if d := Parse("app.yaml", []byte("%YAML 2.0\n---\na: 1\n"), YAML, Limits{}); len(d.Problems) == 0 {
		t.Errorf("%%YAML 2.0: no problem")
	}
}
