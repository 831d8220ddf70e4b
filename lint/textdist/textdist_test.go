package textdist

import (
	"strings"
	"testing"
)

func TestOSA(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"lenght", "length", 1}, {"kitten", "sitting", 3}, {"abc", "abc", 0}, {"ab", "ba", 1}} {
		if got := OSA(c.a, c.b, 10); got != c.d {
			t.Errorf("OSA(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
	if got := OSA("aaaaaaaa", "bbbbbbbb", 2); got != 3 {
		t.Errorf("limited distance = %d, want limit+1", got)
	}
	// Strings longer than the stack buffers take the heap path and measure the same.
	long := strings.Repeat("ab", 40)
	if got := OSA(long+"x", "x"+long, 3); got != 2 {
		t.Errorf("OSA of 81-byte strings = %d, want 2", got)
	}
	if got := OSA(long[:63]+"cd", long[:63]+"dc", 3); got != 1 {
		t.Errorf("OSA of 65-byte strings with a swap = %d, want 1", got)
	}
	// Runes, not bytes: "é" against "e" is one substitution.
	if got := OSA("café", "cafe", 2); got != 1 {
		t.Errorf("OSA(café, cafe) = %d, want 1", got)
	}
}

func TestLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"abc", "abc", 0},
		{"lenght", "length", 2}, // no swaps: two substitutions
		{"ab", "ba", 2},
		{"café", "cafe", 2}, // bytes: "é" is two bytes against one
		{"fail-on", "fail_on", 1},
		{"aaaaaaaa", "bbbbbbbb", 8}, // never stopped early
	} {
		if got := Levenshtein(c.a, c.b); got != c.d {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
