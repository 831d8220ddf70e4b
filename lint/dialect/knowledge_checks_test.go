package dialect

import (
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
)

func TestEvalCond(t *testing.T) {
	d := doc.Parse("x.yaml", []byte("a: 1\nb: false\nc: steps\nd: []\ne: \"\"\nf: no\ng: ${x}\nh: null\ni: n\nj: 'false'\nk: nO\n"), doc.YAML, doc.Limits{})
	for _, c := range []struct {
		cond     string
		want, ok bool
	}{
		{"T:a", true, true},
		{"T:b", false, true},
		{"T:d", false, true}, // empty list
		{"T:e", false, true}, // empty string
		{"T:f", false, true}, // PyYAML reads no as False
		// Strings PyYAML keeps: true to a dataclass field, false to a pydantic one. Unknown.
		{"T:i", false, false},
		{"T:j", false, false},
		{"T:k", false, false},
		{"E:j=false", false, false},
		{"E:i=true", false, false},
		{"E:c=true", false, true}, // "steps" is no boolean anywhere
		{"T:zz", false, true},
		{"N:h", true, true},
		{"N:zz", true, true},
		{"N:a", false, true},
		{"E:c=steps", true, true},
		{"E:c=epoch|no", false, true},
		{"E:b=false", true, true},
		{"E:a=true", false, true},
		{"&(T:a,!(T:b))", true, true},
		{"&(T:a,T:b)", false, true},
		{"|(T:b,T:c)", true, true},
		{"&(T:a,!(|(T:b,E:c=steps)))", false, true},
		{"T:g", false, false}, // decided later
		{"&(T:a", false, false},
		{"X:a", false, false},
	} {
		got, _, ok := EvalCond(c.cond, d.Root)
		if got != c.want || ok != c.ok {
			t.Errorf("EvalCond(%q) = %v, %v; want %v, %v", c.cond, got, ok, c.want, c.ok)
		}
	}
}
