// Package corpustest gives tests the shared corpus of real configs: the folder shared/corpus
// beside the repository (never copied into it) and the rows of its MANIFEST.tsv. A test that
// needs the corpus is skipped when the folder is absent.
package corpustest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Entry is one MANIFEST.tsv row.
type Entry struct {
	Path     string // the file, relative to the corpus folder
	Repo     string // owner/name of the repository it comes from
	Commit   string
	OrigPath string // its path in that repository
	Licence  string
	Label    string // the framework it belongs to ("hf-trainer", "axolotl", ...)
	Format   string // "yaml", "json", "toml", ...
}

// Dir returns the corpus folder, relative to the test's working directory (a package folder of
// this module), or skips the test when it is absent.
func Dir(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			t.Fatalf("no go.mod above %s", wd)
		}
		root = parent
	}
	dir, err := filepath.Rel(wd, filepath.Join(root, "..", "shared", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skip("corpus not present:", err)
	}
	return dir
}

// Manifest returns the corpus folder and the rows of its MANIFEST.tsv (the header left out), or
// skips the test when the corpus is absent.
func Manifest(t testing.TB) (string, []Entry) {
	t.Helper()
	dir := Dir(t)
	m, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []Entry
	for i, line := range strings.Split(string(m), "\n") {
		c := strings.Split(line, "\t")
		if i == 0 || len(c) < 7 {
			continue
		}
		out = append(out, Entry{Path: c[0], Repo: c[1], Commit: c[2], OrigPath: c[3], Licence: c[4], Label: c[5], Format: c[6]})
	}
	if len(out) == 0 {
		t.Fatalf("%s/MANIFEST.tsv lists no files", dir)
	}
	return dir, out
}

// Python returns a python3 that can import module, for the tests that give corpus files to the
// frameworks' own loaders (ast, tomllib, PyYAML, OmegaConf): the first python3 on PATH, else
// Debian's /usr/bin/python3 (a python3 of pyenv's or a venv may lack Debian's python3-yaml).
// .ci/run installs python3-venv (which brings python3), python3-yaml and python3-omegaconf;
// without them the test fails rather than skips.
func Python(t testing.TB, module string) string {
	t.Helper()
	var tried []string
	for _, name := range []string{"python3", "/usr/bin/python3"} {
		py, err := exec.LookPath(name)
		if err != nil {
			tried = append(tried, name+": "+err.Error())
			continue
		}
		if out, err := exec.Command(py, "-c", "import "+module).CombinedOutput(); err != nil {
			tried = append(tried, py+": "+strings.TrimSpace(string(out)))
			continue
		}
		return py
	}
	t.Fatalf("no python3 that can import %s (%s): install Debian's python3, python3-yaml and python3-omegaconf (.ci/run does)", module, strings.Join(tried, "; "))
	return ""
}

// RunPython runs script with the python3 py (from Python), the args after it and stdin as its
// input, and returns its output's lines; the test fails with python3's error output if the
// script fails, or when want >= 0 and it printed another number of lines.
func RunPython(t testing.TB, py, script, stdin string, want int, args ...string) []string {
	t.Helper()
	var out, stderr bytes.Buffer
	cmd := exec.Command(py, append([]string{"-c", script}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("python3: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if want >= 0 && len(lines) != want {
		t.Fatalf("python3 printed %d lines for %d inputs", len(lines), want)
	}
	return lines
}
