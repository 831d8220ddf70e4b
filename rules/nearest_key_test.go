package rules

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/schema"
	"github.com/trainlint/trainlint/lint/textdist"
)

// nearestKeyPlain is nearestKey's definition written plainly (fold both keys, take the edit
// distance of every known key): nearestKey skips work with bounds and must answer the same.
func nearestKeyPlain(k string, known []string) (string, bool) {
	fold := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	fk := fold(k)
	budget := 1
	if len(k) > 8 {
		budget = 2
	}
	var cs []cand
	for _, c := range known {
		fc := fold(c)
		if fc == fk {
			return c, true
		}
		if d := textdist.OSA(fk, fc, budget); d <= budget {
			cs = append(cs, cand{c, d})
		}
	}
	return bestUnique(cs)
}

// TestNearestKeyBounds compares nearestKey and nearestIn with their plain definition (and counts
// missingWordIn's answers, whose word test TestEqualSkipping checks) on every framework's settings (with keys that fold alike and a non-ASCII key
// that folds to ASCII added) and their misspellings: dropped, added, changed and swapped
// characters (one to three edits), case and dash changes, non-ASCII letters, and dropped or
// cut words.
func TestNearestKeyBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	alphabet := "abcdefghijklmnopqrstuvwxyz_-0123456789ABCZé"
	letter := func() string {
		r := []rune(alphabet)
		return string(r[rng.IntN(len(r))])
	}
	mutate := func(k string) string {
		for range 1 + rng.IntN(3) {
			if k == "" {
				return letter()
			}
			r := []rune(k)
			i := rng.IntN(len(r))
			switch rng.IntN(8) {
			case 6: // a word dropped
				w := strings.Split(k, "_")
				if len(w) > 1 {
					j := rng.IntN(len(w))
					return strings.Join(append(w[:j:j], w[j+1:]...), "_")
				}
			case 7: // a word cut short
				w := strings.Split(k, "_")
				if j := rng.IntN(len(w)); len(w[j]) > 4 {
					w[j] = w[j][:4]
				}
				return strings.Join(w, "_")
			case 0:
				r = append(r[:i], r[i+1:]...)
			case 1:
				r = append(r[:i], append([]rune(letter()), r[i:]...)...)
			case 2:
				r[i] = []rune(letter())[0]
			case 3:
				if i+1 < len(r) {
					r[i], r[i+1] = r[i+1], r[i]
				}
			case 4:
				return strings.ToUpper(string(r))
			case 5:
				return strings.ReplaceAll(string(r), "_", "-")
			}
			k = string(r)
		}
		return k
	}
	checked, found, words := 0, 0, 0
	for _, d := range dialect.All() {
		known := schema.TopLevel(d.Name)
		if len(known) == 0 {
			continue
		}
		known = append(known, "café_rate", "dataloader-workers", "Kelvin_\u212a", "max-steps", "MAX_STEPS")
		ix := newNearIndex(known)
		split := splitWords(known)
		for _, k := range known {
			for range 4 {
				in := mutate(k)
				got, ok := nearestKey(in, known)
				want, wok := nearestKeyPlain(in, known)
				if got != want || ok != wok {
					t.Fatalf("%s: nearestKey(%q) = %q, %v; the plain definition says %q, %v", d.Name, in, got, ok, want, wok)
				}
				if got, ok := nearestIn(in, ix); got != want || ok != wok {
					t.Fatalf("%s: nearestIn(%q) = %q, %v; the plain definition says %q, %v", d.Name, in, got, ok, want, wok)
				}
				_, mok := missingWordIn(in, known, split)
				checked++
				if ok {
					found++
				}
				if mok {
					words++
				}
			}
		}
	}
	if checked < 1000 || found < checked/4 || words < 50 {
		t.Errorf("only %d keys compared, %d with a near key and %d with a missing word", checked, found, words)
	}
	t.Logf("%d keys compared, %d with a near key and %d with a missing word", checked, found, words)
}

// TestEqualSkipping: missingWordIn's word test, equalSkipping(kw, cw, skip), answers as the plain
// definition (cw with its word at skip deleted equals kw) on random word lists of one to five
// words over a three-word vocabulary, so that equal and unequal cases are both common.
func TestEqualSkipping(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	vocab := []string{"eval", "steps", "max"}
	words := func(n int) []string {
		w := make([]string, n)
		for i := range w {
			w[i] = vocab[rng.IntN(len(vocab))]
		}
		return w
	}
	equal := 0
	for range 20000 {
		kw := words(1 + rng.IntN(4))
		cw := words(len(kw) + 1)
		skip := rng.IntN(len(cw))
		want := slices.Equal(kw, slices.Delete(slices.Clone(cw), skip, skip+1))
		if got := equalSkipping(kw, cw, skip); got != want {
			t.Fatalf("equalSkipping(%q, %q, %d) = %v, want %v", kw, cw, skip, got, want)
		}
		if want {
			equal++
		}
	}
	if equal < 500 {
		t.Errorf("only %d equal cases", equal)
	}
}
