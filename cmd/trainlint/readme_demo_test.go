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
	got := out.String()
	pasted := string(readme[i+len(begin) : j])
	if pasted == got {
		return
	}
	if *updateReadme {
		var b bytes.Buffer
		b.Write(readme[:i+len(begin)])
		b.WriteString(got)
		b.Write(readme[j:])
		if err := os.WriteFile("README.md", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the demo output in README.md is stale; run with -update-readme and review the diff.\n--- README ---\n%s\n--- now ---\n%s", pasted, got)
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
	if o.Hosts != 4 || o.DevicesPerHost != 8 || o.Limits.MaxBytes != 10485760 || len(o.KeyIgnores) != 1 || o.Mapping["eval.interval_seconds"] != "trainer.eval_every_secs" {
		t.Errorf("the README's config example reads differently than it says: %+v", o)
	}
}
