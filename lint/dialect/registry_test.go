package dialect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// All sorts by hand (no sort.Slice, see All): every dialect once, by name, Generic last.
func TestAllSortedByName(t *testing.T) {
	all := All()
	if len(all) != len(registry) {
		t.Fatalf("All has %d dialects, the registry %d", len(all), len(registry))
	}
	if all[len(all)-1] != Generic {
		t.Errorf("last is %q, want the generic dialect", all[len(all)-1].Name)
	}
	seen := map[string]bool{}
	for i, d := range all {
		if seen[d.Name] {
			t.Errorf("%q twice", d.Name)
		}
		seen[d.Name] = true
		if i > 0 && i < len(all)-1 && all[i-1].Name >= d.Name {
			t.Errorf("%q before %q", all[i-1].Name, d.Name)
		}
	}
}

// Each dialect is built by a function of its own (register's comment: the package initialiser
// as one large WebAssembly function was recompiled by V8 while the browser checker started).
func TestDialectsBuiltByFunctions(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "register(&Dialect{") {
			t.Errorf("%s registers a Dialect literal; build it in a function: var X = register(newX())", f)
		}
	}
}
