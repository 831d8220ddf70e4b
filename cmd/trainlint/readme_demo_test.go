package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/config"
	"github.com/trainlint/trainlint/rules"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the demo output pasted in README.md")

// TestDemoOutputInReadme holds the README to the truth: the output pasted under "make demo" must
// be what `trainlint check $(DEMO_FLAGS) cmd/trainlint/examples` prints today, from the
// repository root as the Makefile runs it, and the README must show that command (the launch
// context is on the command line, not in a hidden config file). After a deliberate change,
// regenerate it with `go test ./cmd/trainlint -run TestDemoOutputInReadme -update-readme`.
func TestDemoOutputInReadme(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	t.Setenv("NO_COLOR", "1")
	flags := demoFlags(t)
	if hidden, err := filepath.Glob("cmd/trainlint/examples/.*"); err != nil || len(hidden) > 0 {
		t.Errorf("the examples folder has hidden files %v: the demo must not depend on what users do not see", hidden)
	}
	var out, errb bytes.Buffer
	code := run(append(append([]string{"check"}, flags...), "cmd/trainlint/examples"), strings.NewReader(""), &out, &errb)
	if code != 1 {
		t.Fatalf("exit code %d, want 1 (the examples show pitfalls); stderr:\n%s", code, errb.String())
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	command := strings.Join(append(append([]string{"trainlint check"}, flags...), "cmd/trainlint/examples"), " ")
	if !bytes.Contains(bytes.Join(bytes.Fields(readme), []byte(" ")), []byte(command)) {
		t.Errorf("README.md does not show the command make demo runs: %q", command)
	}
	const begin, end = "<!-- demo-output:begin -->\n```text\n", "```\n<!-- demo-output:end -->"
	i := bytes.Index(readme, []byte(begin))
	j := bytes.Index(readme, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("README.md has no demo output block between %q and %q", begin, end)
	}
	pasted := string(readme[i+len(begin) : j])
	// The README shows an excerpt (demoExcerpt): the findings of the files it shows, in full.
	want := demoExcerpt(t, out.String(), demoFilesShown(pasted))
	if pasted == want {
		return
	}
	if *updateReadme {
		var b bytes.Buffer
		b.Write(readme[:i+len(begin)])
		b.WriteString(want)
		b.Write(readme[j:])
		if err := os.WriteFile("README.md", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the demo output in README.md is stale; run with -update-readme and review the diff.\n--- README ---\n%s\n--- now ---\n%s", pasted, want)
}

// demoDefaultFile is the example the README shows when it shows none yet.
const demoDefaultFile = "cmd/trainlint/examples/hf-sft.yaml"

// demoFile is the file a finding block of the text output is about ("" for other blocks).
func demoFile(block string) string {
	f, _, ok := strings.Cut(block, ":")
	if !ok || strings.ContainsAny(f, " \n") {
		return ""
	}
	return f
}

// demoFilesShown lists the files whose findings the pasted excerpt shows.
func demoFilesShown(pasted string) map[string]bool {
	files := map[string]bool{}
	for _, b := range strings.Split(pasted, "\n\n") {
		if f := demoFile(b); f != "" {
			files[f] = true
		}
	}
	if len(files) == 0 {
		files[demoDefaultFile] = true
	}
	return files
}

// demoExcerpt cuts the README's excerpt from the full output: every finding block of the shown
// files, exactly and in order, then a line "…" for the other files' findings, then the summary
// line. Which files are shown is read from the README (demoFilesShown).
func demoExcerpt(t *testing.T, full string, files map[string]bool) string {
	t.Helper()
	blocks := strings.Split(strings.TrimSuffix(full, "\n"), "\n\n")
	if len(blocks) < 2 || demoFile(blocks[len(blocks)-1]) != "" {
		t.Fatalf("the demo output does not end in a summary line:\n%s", full)
	}
	var kept []string
	left := false
	for _, b := range blocks[:len(blocks)-1] {
		if files[demoFile(b)] {
			kept = append(kept, b)
		} else {
			left = true
		}
	}
	if len(kept) == 0 {
		t.Fatalf("the demo output has no findings for %v", files)
	}
	if left {
		kept = append(kept, "…")
	}
	kept = append(kept, blocks[len(blocks)-1])
	return strings.Join(kept, "\n\n") + "\n"
}

// demoFlags reads DEMO_FLAGS from the Makefile (run from the repository root).
func demoFlags(t *testing.T) []string {
	t.Helper()
	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(mk), "\n") {
		if v, ok := strings.CutPrefix(l, "DEMO_FLAGS = "); ok {
			return strings.Fields(v)
		}
	}
	t.Fatal("the Makefile has no DEMO_FLAGS line")
	return nil
}

// TestReadmeConfigExample loads the .trainlint.toml shown in the README's Configuration section
// through the real loader: a documented config that the schema rejects would send users astray.
func TestReadmeConfigExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	sec := string(readme)
	i := strings.Index(sec, "## Configuration")
	if i < 0 {
		t.Fatal("README.md has no Configuration section")
	}
	sec = sec[i:]
	const open = "```toml\n"
	j := strings.Index(sec, open)
	k := strings.Index(sec[j+len(open):], "```")
	if j < 0 || k < 0 {
		t.Fatal("the Configuration section has no ```toml block")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".trainlint.toml"), []byte(sec[j+len(open):j+len(open)+k]), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := config.NewLoader(rules.All()).ForDir(dir)
	if err != nil {
		t.Fatalf("the README's config example does not load: %v", err)
	}
	o := c.Options(filepath.Join(dir, "deepspeed", "zero3.json"))
	if o.Hosts != 4 || o.DevicesPerHost != 8 || len(o.KeyIgnores) != 1 || o.Targets["transformers"].Version != "4.46" {
		t.Errorf("the README's config example reads differently than it says: %+v", o)
	}
}
