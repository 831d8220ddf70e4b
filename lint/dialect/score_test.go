package dialect

import (
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
)

// TestScoreSetsMatchScore: the prepared evidence sets score every map of every corpus file (and
// a few hand-made shapes: duplicates, non-maps, dotted keys) exactly as Score does on the lists.
func TestScoreSetsMatchScore(t *testing.T) {
	pairs := []struct {
		strong, weak       []string
		strongSet, weakSet func() *keySet
	}{
		{hfStrong, hfWeak, hfStrongSet, hfWeakSet},
		{axoStrongKeys, axoWeakKeys, axoStrongSet, axoWeakSet},
		{lfStrongKeys, lfWeakKeys, lfStrongSet, lfWeakSet},
		{dsStrong, dsWeak, dsStrongSet, dsWeakSet},
		{dsMegatron, nil, dsMegatronSet, nil},
		{lightningTrainerStrong, lightningTrainerWeak, lightningTrainerStrongSet, lightningTrainerWeakSet},
		{[]string{"a", "a", "b.c", "d"}, []string{"b", "b.c"}, evidenceSet([]string{"a", "a", "b.c", "d"}), evidenceSet([]string{"b", "b.c"})},
	}
	check := func(name string, n *doc.Node) {
		for i, p := range pairs {
			var ws *keySet
			if p.weakSet != nil {
				ws = p.weakSet()
			}
			if got, want := scoreSets(n, p.strongSet(), 7, ws, 3), Score(n, p.strong, 7, p.weak, 3); got != want {
				t.Errorf("%s, list pair %d: scoreSets %d, Score %d", name, i, got, want)
			}
		}
	}
	hand := doc.Parse("h.yaml", []byte("a: 1\na: 2\nb:\n  c: 3\nd: [1]\nlogging_steps: 5\nlogging_steps: 6\nzero_optimization: {}\n"), doc.YAML, doc.Limits{})
	check("hand", hand.Root)
	check("seq", doc.Parse("s.yaml", []byte("- a\n- b\n"), doc.YAML, doc.Limits{}).Root)
	check("nil", nil)

	maps := 0
	for _, d := range corpusDocs(t) {
		path := d.Path
		d.Root.Walk(func(n *doc.Node) bool {
			if n.Kind == doc.Map {
				maps++
				check(path+" "+n.Path().String(), n)
			}
			return true
		})
	}
	if maps < 1000 {
		t.Errorf("only %d maps compared", maps)
	}
}
