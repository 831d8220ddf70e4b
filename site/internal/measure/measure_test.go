package measure

import "testing"

func TestMedian(t *testing.T) {
	xs := []float64{5, 1, 3, 2}
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{7}, 7}, {[]float64{3, 1, 2}, 2}, {xs, 3}} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if xs[0] != 5 || xs[1] != 1 {
		t.Errorf("Median reordered its input: %v", xs)
	}
	if l := LoadPerCPU(); l < 0 {
		t.Errorf("LoadPerCPU = %v", l)
	}
}
