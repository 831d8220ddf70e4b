package dialect

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileSizes holds issue 9's bound: no non-test file of the package exceeds 700 lines, so a
// framework stays one readable file (split large key or advice tables into their own file, as
// huggingface_advice.go does).
func TestFileSizes(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil || len(names) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte("\n")); n > 700 {
			t.Errorf("%s has %d lines, over 700", name, n)
		}
	}
}
