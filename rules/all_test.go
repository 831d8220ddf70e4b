package rules

import (
	"testing"

	"github.com/trainlint/trainlint/lint"
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
