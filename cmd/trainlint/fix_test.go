package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sftRecipe has a too-small eval batch (TL202: safe fix to 16), a renamed key (TL005: safe
// rename), comments and quoted values that the fixes must leave alone.
const sftRecipe = `# SFT recipe
model_name_or_path: "meta-llama/Llama-3.1-8B"   # base model
dataset_name: 'HuggingFaceH4/ultrachat_200k'
per_device_train_batch_size: 16  # fits an 80 GB card
per_device_eval_batch_size: 4    # eval batch
evaluation_strategy: "steps"     # renamed in 4.41
eval_steps: 500
output_dir: "out/llama-sft"
`

const sftFixed = `# SFT recipe
model_name_or_path: "meta-llama/Llama-3.1-8B"   # base model
dataset_name: 'HuggingFaceH4/ultrachat_200k'
per_device_train_batch_size: 16  # fits an 80 GB card
per_device_eval_batch_size: 16    # eval batch
eval_strategy: "steps"     # renamed in 4.41
eval_steps: 500
output_dir: "out/llama-sft"
`

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFixWritesSafeFixesInPlace(t *testing.T) {
	dir := writeTree(t, map[string]string{"sft.yaml": sftRecipe, "clean.yaml": "model_name_or_path: x\noutput_dir: y\n"})
	if err := os.Chmod(filepath.Join(dir, "sft.yaml"), 0o640); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, nil, "check", "--fix", "--format", "json", ".")
	if got := readFile(t, "sft.yaml"); got != sftFixed {
		t.Fatalf("fixed file:\n%s\nwant:\n%s", got, sftFixed)
	}
	if !strings.Contains(stderr, "applied 2 fixes in 1 file\n") {
		t.Errorf("stderr %q does not count the fixes", stderr)
	}
	fi, err := os.Stat("sft.yaml")
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("file mode after --fix: %v (%v), want 0640", fi.Mode().Perm(), err)
	}
	// The report is the lint of the fixed files: neither fixed rule is left.
	if strings.Contains(stdout, `"TL202"`) || strings.Contains(stdout, `"TL005"`) {
		t.Errorf("fixed findings still reported:\n%s", stdout)
	}
	if code != exitOK {
		t.Errorf("exit %d after fixing everything, want 0; stdout:\n%s", code, stdout)
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, ".*trainlint-*")); len(matches) > 0 {
		t.Errorf("temporary files left behind: %v", matches)
	}
	// A second --fix changes nothing.
	_, _, stderr = cli(t, nil, "check", "--fix", "sft.yaml")
	if got := readFile(t, "sft.yaml"); got != sftFixed || !strings.Contains(stderr, "no fixes to apply") {
		t.Errorf("second --fix changed the file or applied fixes: %q\n%s", stderr, got)
	}
}

func TestFixKeepsCRLF(t *testing.T) {
	crlf := strings.ReplaceAll(sftRecipe, "\n", "\r\n")
	writeTree(t, map[string]string{"sft.yaml": crlf})
	cli(t, nil, "check", "--fix", "sft.yaml")
	if got, want := readFile(t, "sft.yaml"), strings.ReplaceAll(sftFixed, "\n", "\r\n"); got != want {
		t.Fatalf("CRLF file after --fix:\n%q\nwant:\n%q", got, want)
	}
}

func TestFixFollowsSymlink(t *testing.T) {
	dir := writeTree(t, map[string]string{"real/sft.yaml": sftRecipe})
	if err := os.Symlink(filepath.Join(dir, "real", "sft.yaml"), "link.yaml"); err != nil {
		t.Skip("no symlinks:", err)
	}
	cli(t, nil, "check", "--fix", "link.yaml")
	if fi, err := os.Lstat("link.yaml"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced by a file")
	}
	if got := readFile(t, "real/sft.yaml"); got != sftFixed {
		t.Fatalf("target not fixed:\n%s", got)
	}
}

func TestDiffPrintsAndWritesNothing(t *testing.T) {
	dir := writeTree(t, map[string]string{"sft.yaml": sftRecipe})
	code, stdout, stderr := cli(t, nil, "check", "--diff", "sft.yaml")
	if code != exitFindings {
		t.Errorf("exit %d with a diff, want 1; stderr %q", code, stderr)
	}
	if got := readFile(t, "sft.yaml"); got != sftRecipe {
		t.Fatalf("--diff wrote the file:\n%s", got)
	}
	for _, want := range []string{
		"--- a/sft.yaml\n+++ b/sft.yaml\n",
		"-per_device_eval_batch_size: 4    # eval batch\n",
		"+per_device_eval_batch_size: 16    # eval batch\n",
		"-evaluation_strategy: \"steps\"     # renamed in 4.41\n",
		"+eval_strategy: \"steps\"     # renamed in 4.41\n",
		" dataset_name: 'HuggingFaceH4/ultrachat_200k'\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("diff lacks %q:\n%s", want, stdout)
		}
	}
	// The diff applies with patch(1) and gives the fixed text.
	if _, err := exec.LookPath("patch"); err == nil {
		cmd := exec.Command("patch", "-p1", "-s")
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(stdout)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("patch failed: %v\n%s", err, out)
		}
		if got := readFile(t, "sft.yaml"); got != sftFixed {
			t.Errorf("patched file:\n%s\nwant:\n%s", got, sftFixed)
		}
	}
	// Nothing to fix: no diff, exit 0.
	code, stdout, _ = cli(t, nil, "check", "--diff", "sft.yaml")
	if code != exitOK || stdout != "" {
		t.Errorf("clean file: exit %d, diff %q", code, stdout)
	}
}

func TestDiffOfStandardInput(t *testing.T) {
	writeTree(t, nil)
	code, stdout, _ := cli(t, strings.NewReader(sftRecipe), "check", "--diff", "--stdin-filename", "sft.yaml", "-")
	if code != exitFindings || !strings.Contains(stdout, "+eval_strategy") {
		t.Errorf("exit %d, diff:\n%s", code, stdout)
	}
}

// Unsafe fixes apply only with --unsafe-fixes (Lightning gpus -> devices is unsafe).
func TestUnsafeFixesFlag(t *testing.T) {
	const lit = "seed_everything: 42\ntrainer:\n  gpus: 2\n  max_epochs: 3\nmodel:\n  class_path: m.Lit\n"
	writeTree(t, map[string]string{"lit.yaml": lit})
	cli(t, nil, "check", "--fix", "lit.yaml")
	if got := readFile(t, "lit.yaml"); got != lit {
		t.Fatalf("unsafe fix applied without --unsafe-fixes:\n%s", got)
	}
	cli(t, nil, "check", "--fix", "--unsafe-fixes", "lit.yaml")
	if got := readFile(t, "lit.yaml"); !strings.Contains(got, "  devices: 2\n") || strings.Contains(got, "gpus") {
		t.Fatalf("unsafe fix not applied with --unsafe-fixes:\n%s", got)
	}
}

func TestUnifiedDiff(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n"
	b := strings.Replace(strings.Replace(a, "2\n", "two\n", 1), "14\n", "fourteen\n", 1)
	got := unifiedDiff("f.yaml", a, b)
	want := "--- a/f.yaml\n+++ b/f.yaml\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -11,5 +11,5 @@\n 11\n 12\n 13\n-14\n+fourteen\n 15\n"
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	// Changes within 6 lines share a hunk; a missing final newline is marked.
	got = unifiedDiff("f", "a\nb\nc", "a\nB\nc")
	if want := "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n\\ No newline at end of file\n"; got != want {
		t.Errorf("diff:\n%q\nwant:\n%q", got, want)
	}
	if got := unifiedDiff("f", "", "x\n"); got != "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n" {
		t.Errorf("diff of an added line: %q", got)
	}
	if got := unifiedDiff("/tmp/f", "x\n", "y\n"); !strings.HasPrefix(got, "--- /tmp/f\n+++ /tmp/f\n") {
		t.Errorf("absolute path header: %q", got)
	}
}

func TestSchemaCommand(t *testing.T) {
	code, stdout, stderr := cli(t, nil, "schema", "huggingface")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	type prop struct {
		Type        any     `json:"type"`
		Default     any     `json:"default"`
		Enum        []any   `json:"enum"`
		Description string  `json:"description"`
		AnyOf       []*prop `json:"anyOf"`
	}
	var s struct {
		Schema     string           `json:"$schema"`
		Properties map[string]*prop `json:"properties"`
	}
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if s.Schema != "http://json-schema.org/draft-07/schema#" {
		t.Errorf("$schema %q", s.Schema)
	}
	p := s.Properties["per_device_eval_batch_size"]
	if p == nil || len(p.AnyOf) != 2 || fmt.Sprint(p.AnyOf[0].Type) != "[integer null]" || p.Default != float64(8) || !strings.Contains(p.Description, "Default: 8") {
		t.Fatalf("per_device_eval_batch_size: %+v", p)
	}
	if e := s.Properties["eval_strategy"]; e == nil || len(e.AnyOf) == 0 || len(e.AnyOf[0].Enum) != 4 {
		t.Errorf("eval_strategy: %+v", e)
	}
	if code, _, stderr := cli(t, nil, "schema", "huggingface", "extra"); code != exitUsage || !strings.Contains(stderr, "schema takes one name") {
		t.Errorf("two names: exit %d, %q", code, stderr)
	}
}
