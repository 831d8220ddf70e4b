package rules

import (
	"math/rand/v2"
	"sort"
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
	type cand struct {
		key string
		d   int
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
	if len(cs) == 0 {
		return "", false
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].key < cs[j].key })
	if len(cs) > 1 && cs[1].d == cs[0].d {
		return "", false
	}
	return cs[0].key, true
}

// TestNearestKeyBounds compares nearestKey with its plain definition on every framework's
// settings and their misspellings: dropped, added, changed and swapped characters (one to three
// edits), case and dash changes, and non-ASCII letters.
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
			switch rng.IntN(6) {
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
	checked, found := 0, 0
	for _, d := range dialect.All() {
		known := schema.TopLevel(d.Name)
		if len(known) == 0 {
			continue
		}
		known = append(known, "café_rate", "dataloader-workers")
		for _, k := range known {
			for range 4 {
				in := mutate(k)
				got, ok := nearestKey(in, known)
				want, wok := nearestKeyPlain(in, known)
				if got != want || ok != wok {
					t.Fatalf("%s: nearestKey(%q) = %q, %v; the plain definition says %q, %v", d.Name, in, got, ok, want, wok)
				}
				checked++
				if ok {
					found++
				}
			}
		}
	}
	if checked < 1000 || found < checked/4 {
		t.Errorf("only %d keys compared, %d with an answer", checked, found)
	}
}
