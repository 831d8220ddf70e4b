package lint

import (
	"errors"
	"testing"
)

type named struct{}

func (named) String() string { return "a named value" }

// TestPanicText: a recovered panic reads as fmt's %v would read it for the values panics carry
// (an error, a string, a Stringer, an int); the light WebAssembly module links no fmt.
func TestPanicText(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{errors.New("assignment to entry in nil map"), "assignment to entry in nil map"},
		{"boom", "boom"},
		{named{}, "a named value"},
		{42, "42"},
		{3.5, "a panic of another kind"},
	} {
		if got := panicText(c.v); got != c.want {
			t.Errorf("panicText(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
}
