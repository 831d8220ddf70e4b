package site

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLightModuleLinksNoFmt builds the light module's dependency dump (-ldflags=-dumpdep, the
// linker's "caller -> callee" edges of everything it keeps) and fails when any code outside fmt
// reaches fmt: one fmt.Sprintf or fmt.Errorf on the light path links fmt's printer and the
// reflection it uses, 57 KB of the module's gzip (site/doc.go, "fmt out").
func TestLightModuleLinksNoFmt(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var flags []string
	for _, f := range WASMLiteFlags() {
		if !strings.HasPrefix(f, "-ldflags=") {
			flags = append(flags, f)
		}
	}
	args := append(append([]string{"build"}, flags...), "-ldflags=-dumpdep", "-o", os.DevNull, "./wasm")
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	edges, callers := 0, map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		from, to, ok := strings.Cut(line, " -> ")
		if !ok {
			continue
		}
		edges++
		// fmt's package initialiser still runs (the package is imported), and the linker
		// shares equal argument-info and stack-object records between functions: neither is
		// fmt's printer.
		if strings.HasPrefix(to, "fmt.") && !strings.HasPrefix(from, "fmt.") && !strings.HasPrefix(from, "go:") &&
			!strings.Contains(to, "inittask") && !strings.HasSuffix(to, ".arginfo1") && !strings.HasSuffix(to, ".stkobj") {
			callers[from] = true
		}
		// sort.Strings and slices.Sort link a second sort beside sort.Slice's (17 KB of code):
		// doc.SortStrings sorts strings with sort.Slice.
		if (strings.HasPrefix(to, "sort.Strings") || strings.HasPrefix(to, "slices.Sort[")) &&
			!strings.HasPrefix(from, "sort.") && !strings.HasPrefix(from, "slices.") {
			t.Errorf("%s calls %s: use doc.SortStrings", from, to)
		}
	}
	if edges < 1000 {
		t.Fatalf("the dump has %d edges: not the linker's dependency dump?\n%.2000s", edges, out)
	}
	for c := range callers {
		t.Errorf("%s reaches fmt in the light module", c)
	}
}

// TestLightModuleImportsNoJSONOrRegexp: encoding/json (imported by lint/schema for the JSON
// Schemas) and regexp (imported by rules for the examples) stay out of the light module's
// imports altogether: an imported package's initialiser always runs, and encoding/json's links
// its float encoders, base64 and reflection, 12 KB of the module's gzip (site/doc.go). Nor os
// and fmt (imported by runtime/debug, path/filepath and encoding/hex): their initialisers, the
// standard files and what they link, were 20 KB. Nor time (imported by io/fs and embed): its
// initialiser sets up internal/godebug, which links a metric registry, internal/bisect and a
// sync.Map, 29 KB with what else they imported.
func TestLightModuleImportsNoJSONOrRegexp(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-tags", "trainlint_lite", "-deps", "./wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 {
		t.Fatalf("go list -deps gave %d packages", len(deps))
	}
	for _, p := range deps {
		switch p {
		case "encoding/json", "regexp", "os", "fmt", "time", "io/fs", "embed":
			t.Errorf("the light module imports %s", p)
		}
	}
}
