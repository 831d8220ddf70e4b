package dialect

import (
	"reflect"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// wantFact asserts one fact the way the golden archives print it (golden_test.go): its value
// (unless Unknown), origin, key ("" skips) and the line it is located at (-1 skips; 0 = no node):
// a scalar's value, or a section's key. It is the one fact helper of the dialect tests that check
// a single fact beside the goldens (tables of small configs, context and odd-shape cases).
func wantFact[T any](t *testing.T, name string, f plan.Fact[T], want T, origin plan.Origin, key string, line int) {
	t.Helper()
	if f.Origin != origin {
		t.Errorf("%s: origin %v, want %v (value %v, key %q, note %q)", name, f.Origin, origin, f.Value, f.Key, f.Note)
		return
	}
	if origin != plan.Unknown && !reflect.DeepEqual(f.Value, want) {
		t.Errorf("%s: value %#v, want %#v", name, f.Value, want)
	}
	if key != "" && f.Key != key {
		t.Errorf("%s: key %q, want %q", name, f.Key, key)
	}
	if line >= 0 {
		if got := factLine(f); got != line {
			t.Errorf("%s: line %d, want %d", name, got, line)
		}
	}
}

// factLine is the line a fact is located at, as the goldens print it: a scalar's value, or the
// key of a map or list; 0 without a node.
func factLine[T any](f plan.Fact[T]) int {
	n := f.Node
	if n == nil {
		return 0
	}
	if n.Kind != doc.Scalar && !n.KeySpan.IsZero() {
		return n.KeySpan.Start.Line
	}
	return n.Span.Start.Line
}
