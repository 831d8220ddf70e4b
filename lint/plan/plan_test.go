package plan

import "testing"

// TestMultipleOf: the pairs were run through the Trainer's test (transformers @00349ae,
// TrainingArguments.__post_init__) in python3: save % eval == 0, else for two ratios the same on
// both times 1,000,000.
func TestMultipleOf(t *testing.T) {
	cases := []struct {
		a, b float64
		want bool
	}{
		{500, 100, true},
		{500, 300, false},
		{0.2, 0.1, true},
		{0.3, 0.1, true},   // 0.3 % 0.1 is not 0; 300000.0 % 100000.0 is
		{0.7, 0.1, true},   // the same through the scaled test
		{0.25, 0.05, true}, // likewise
		{0.5, 1.0 / 6, false},
		{1.0 / 24, 1.0 / 48, true}, // halving is exact
		{1, 0.25, true},
		{2, 0.5, true},
		{0.1, 0.3, false},
		{100, 0, false},
		{0, 100, true},
		{-100, 50, false},
	}
	for _, c := range cases {
		if got := MultipleOf(c.a, c.b); got != c.want {
			t.Errorf("MultipleOf(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
