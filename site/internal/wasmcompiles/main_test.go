package main

import "testing"

// A module with a type section (skipped) and a name section naming functions 21 and 300 (the
// index as a two-byte LEB128).
func TestFunctionNames(t *testing.T) {
	names := []byte{1, // function names subsection
		0, // size, set below
		2, 21, 7, 'r', 'u', 'n', 't', 'i', 'm', 'e',
		0xac, 0x02, 14, 'm', 'a', 'i', 'n', '.', 'm', 'a', 'i', 'n', '.', 'f', 'u', 'n', 'c'}
	names[1] = byte(len(names) - 2)
	custom := append([]byte{4, 'n', 'a', 'm', 'e'}, names...)
	mod := []byte("\x00asm\x01\x00\x00\x00")
	mod = append(mod, 1, 4, 1, 0x60, 0, 0) // type section
	mod = append(mod, 0, byte(len(custom)))
	mod = append(mod, custom...)
	got, err := functionNames(mod)
	if err != nil {
		t.Fatal(err)
	}
	if got[21] != "runtime" || got[300] != "main.main.func" || len(got) != 2 {
		t.Errorf("names %v", got)
	}
	if _, err := functionNames(mod[:len(mod)-len(custom)-2]); err == nil {
		t.Error("a module without a name section gave no error")
	}
	for name, want := range map[string]string{
		"github.com_trainlint_trainlint_lint_dialect.init": "lint_dialect",
		"runtime.__mheap_.alloc":                           "runtime",
		"internal_runtime_maps.NewMap":                     "internal_runtime_maps",
	} {
		if got := pkgOf(name); got != want {
			t.Errorf("pkgOf(%q) = %q, want %q", name, got, want)
		}
	}
}
