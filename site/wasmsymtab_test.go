package site

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestShortNameAt(t *testing.T) {
	for name, want := range map[string]string{
		"github.com/trainlint/trainlint/lint/dialect.Detect":              "dialect.Detect",
		"github.com/trainlint/trainlint/lint.(*Pass).Report":              "lint.(*Pass).Report",
		"github.com/trainlint/trainlint/lint.LintFile.func1":              "lint.LintFile.func1",
		"slices.SortFunc[go.shape.[]github.com/a/b.T,go.shape.struct {}]": "slices.SortFunc[go.shape.[]github.com/a/b.T,go.shape.struct {}]",
		"github.com/a/b.(*T[github.com/c/d.U]).m":                         "b.(*T[github.com/c/d.U]).m",
		"main.main":                    "main.main",
		"runtime.gopanic":              "runtime.gopanic",
		"internal/runtime/atomic.Load": "internal/runtime/atomic.Load",
		"reflect.makeFuncStub":         "reflect.makeFuncStub",
		"internal/reflectlite.Swapper": "reflectlite.Swapper",
		"runtime/debug.Stack":          "debug.Stack",
		"example.com/x/runtime.Stack":  "example.com/x/runtime.Stack", // would look like the runtime's
		"example.com/reflect.Value":    "example.com/reflect.Value",
		"type:.eq.github.com/a/b.T":    "type:.eq.github.com/a/b.T",
	} {
		if got := name[shortNameAt(name):]; got != want {
			t.Errorf("short name of %q = %q, want %q", name, got, want)
		}
	}
	for name, want := range map[string]string{
		"slices.SortFunc[go.shape.[]github.com/a/b.T,go.shape.struct {}]": "slices.SortFunc[...]",
		"b.(*T[github.com/c/d.U]).m":                                      "b.(*T[...]).m",
		"atomic.(*Pointer[go.shape.struct { x [4]int }]).Load":            "atomic.(*Pointer[...]).Load",
		"slices.SortFunc[...]":                                            "slices.SortFunc[...]",
		"dialect.Detect":                                                  "dialect.Detect",
		"x.f]":                                                            "x.f]",
		"type:.eq.[2]interface {}":                                        "type:.eq.[...]interface {}", // longer: not used
	} {
		if got := printedName(name); got != want {
			t.Errorf("printed name of %q = %q, want %q", name, got, want)
		}
	}
	for name, want := range map[string]bool{
		"strconv.Quote":                             true,
		"slices.SortFunc[go.shape.int]":             true,
		"sync/atomic.Int64.Load":                    true,
		"internal/strconv.FormatFloat":              true,
		"syscall/js.Value.Call":                     true,
		"strings.(*Builder).WriteString":            true,
		"sync/atomic.(*Pointer[...]).Load":          true,
		"runtime.gopanic":                           false,
		"internal/runtime/maps.(*Iter).Next":        false,
		"reflect.Value.Call":                        false,
		"main.main":                                 false,
		"type:.eq.strconv.NumError":                 true, // compiler-generated
		"type:.eq.github.com/a/b.T":                 true,
		"go:buildid":                                false,
		"github.com/trainlint/trainlint/lint.Lint":  false,
		"github.com/pelletier/go-toml/v2.Unmarshal": false,
		"example.com/x.F":                           false,
	} {
		if got := unnamedStd(name, false); got != want {
			t.Errorf("unnamedStd(%q) = %v, want %v", name, got, want)
		}
	}
	// A wrapper (a special funcID) keeps its name; the compiler's equality functions do not.
	if unnamedStd("time.(*Duration).String", true) || !unnamedStd("type:.eq.strconv.NumError", true) {
		t.Error("special functions: a wrapper's name emptied, or an equality function's kept")
	}
}

// buildProbe builds testdata/thinprobe for js/wasm with the full module's flags, packed, and
// returns it.
func buildProbe(t *testing.T) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "probe.wasm")
	args := append(append([]string{"build"}, WASMBuildFlags...), "-o", out, "./testdata/thinprobe")
	if _, err := run(".", []string{"GOOS=js", "GOARCH=wasm"}, "go", args...); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	packed, err := PackWASMData(b)
	if err != nil {
		t.Fatal(err)
	}
	return packed
}

// runProbe runs a probe module under Node with Go's own runner; it returns the output and
// the exit error.
func runProbe(t *testing.T, mod []byte, args ...string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node not found: this test runs a WebAssembly module under Node.js 20+; install it: apt-get install nodejs (make test checks its tools first)")
	}
	p := filepath.Join(t.TempDir(), "probe.wasm")
	if err := os.WriteFile(p, mod, 0o644); err != nil {
		t.Fatal(err)
	}
	goroot, err := run(".", nil, "go", "env", "GOROOT")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(strings.TrimSpace(goroot), "lib", "wasm", "go_js_wasm_exec"), append([]string{p}, args...)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestThinSymtabRuntime: a module whose function table is thinned still recovers panics (a
// panicking rule is an internal-error finding), grows stacks, collects garbage through deep
// frames, runs goroutines and reflect's stubs exactly as before; only names lose their import
// paths and positions become "?:0". An unrecovered panic still ends the program with its
// message and a traceback of short names. Thinning a thinned module changes nothing.
func TestThinSymtabRuntime(t *testing.T) {
	mod := buildProbe(t)
	thin, st, err := ThinWASMSymtab(mod)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d functions; names %d -> %d bytes; %d bytes zeroed", st.Funcs, st.NameBytes, st.ShortNameBytes, st.Zeroed)
	if st.Funcs < 1000 || st.ShortNameBytes >= st.NameBytes || st.Zeroed < st.NameBytes-st.ShortNameBytes {
		t.Errorf("implausible stats %+v", st)
	}
	again, _, err := ThinWASMSymtab(thin)
	if err != nil || !bytes.Equal(again, thin) {
		t.Errorf("thinning twice changed the module (err %v)", err)
	}

	before, err := runProbe(t, mod)
	if err != nil {
		t.Fatalf("the probe fails before thinning: %v\n%s", err, before)
	}
	after, err := runProbe(t, thin)
	if err != nil {
		t.Fatalf("the probe fails after thinning: %v\n%s", err, after)
	}
	common := `finding TL009 internal-error: rule probe-panics failed on this file: runtime error: index out of range [3] with length 0
recovered: assignment to entry in nil map
wrapper: runtime error: invalid memory address or nil pointer dereference
deep: 200010000
goroutines: 1016084
reflect: seven 7 42
`
	src, err := os.ReadFile("testdata/thinprobe/main.go")
	if err != nil {
		t.Fatal(err)
	}
	line := 1 + bytes.Count(src[:bytes.Index(src, []byte("runtime.Caller(0)"))], []byte("\n"))
	wantBefore := common + `caller: main.main github.com/trainlint/trainlint/site/testdata/thinprobe/main.go ` + strconv.Itoa(line) + ` true
func: github.com/trainlint/trainlint/lint.LintFile
stack names main.main: true
stack has paths: true true
stack names strings.Map: true true
`
	wantAfter := common + `caller: main.main ? 0 true
func: lint.LintFile
stack names main.main: true
stack has paths: false false
stack names strings.Map: false true
`
	if before != wantBefore {
		t.Errorf("before thinning:\n%s\nwant:\n%s", before, wantBefore)
	}
	if after != wantAfter {
		t.Errorf("after thinning:\n%s\nwant:\n%s", after, wantAfter)
	}

	crash, err := runProbe(t, thin, "crash")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Errorf("crash: exit %v, want status 2\n%s", err, crash)
	}
	for _, want := range []string{"panic: assignment to entry in nil map", "goroutine 1 [running]:", "main.level2(", "main.main(", "\t?:0 +0x"} {
		if !strings.Contains(crash, want) {
			t.Errorf("crash output lacks %q:\n%s", want, crash)
		}
	}
}

// TestThinSymtabRefuses: data without a Go function table of the known layout is refused.
func TestThinSymtabRefuses(t *testing.T) {
	mem := make([]byte, 4096)
	if _, err := thinSymtab(mem, 1024); err == nil {
		t.Error("memory without a pclntab accepted")
	}
	copy(mem[512:], []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8})
	if _, err := thinSymtab(mem, 1024); err == nil || !strings.Contains(err.Error(), "moduledata") {
		t.Errorf("a header without moduledata: %v", err)
	}
	code := section(10, []byte{0})
	if _, _, err := ThinWASMSymtab(wasmModule(code, dataSection(map[int32]string{64: "a", 128: "b"}, []int32{64, 128}))); err == nil {
		t.Error("an unpacked data section accepted")
	}
}
