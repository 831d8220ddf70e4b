package rules

import (
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
)

// All sorts by hand (no sort.Slice, see All): every registered rule and the engine's own once,
// in code order.
func TestAllInCodeOrder(t *testing.T) {
	all := All()
	if want := len(registry) + len(lint.Builtin()); len(all) != want {
		t.Fatalf("All has %d rules, want %d", len(all), want)
	}
	for i := 1; i < len(all); i++ {
		if all[i-1].Code >= all[i].Code {
			t.Errorf("%s (%s) before %s (%s)", all[i-1].Code, all[i-1].Name, all[i].Code, all[i].Name)
		}
	}
}

// The rules that report the front-end's problems as they are each have their kind (problemKind
// matches them by name), and no other rule has one; duplicate-key words some of its own
// (checkDuplicateKey).
func TestProblemKinds(t *testing.T) {
	want := map[*lint.Rule]doc.ProblemKind{ParseError: doc.Syntax, InputLimitExceeded: doc.LimitExceeded}
	for _, r := range All() {
		k, ok := problemKind(r)
		w, has := want[r]
		if ok != has || k != w {
			t.Errorf("%s: problemKind %v, %v; want %v, %v", r.Name, k, ok, w, has)
		}
	}
}
