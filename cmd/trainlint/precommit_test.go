package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trainlint/trainlint/cmd/internal/gittest"
)

// ensurePreCommit installs Debian's pre-commit when it is missing (as the browser test does
// with chromium); without it and without root the test fails rather than skipping.
func ensurePreCommit(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("pre-commit"); err == nil {
		return p
	}
	if os.Geteuid() != 0 {
		t.Fatal("pre-commit is missing and this is not root: install it with `apt-get install -y pre-commit`")
	}
	for _, args := range [][]string{{"update", "-qq"}, {"install", "-y", "-qq", "pre-commit"}} {
		cmd := exec.Command("apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("apt-get %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	p, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gitRun runs git in dir (gittest.Run).
func gitRun(t *testing.T, dir string, args ...string) string { return gittest.Run(t, dir, args...) }

// snapshotRepo copies the working tree of the repository (tracked and untracked files that are
// not ignored: what a commit of it would hold) into a new git repository and commits it, so the
// hook is tried on the code under test, not on the last commit.
func snapshotRepo(t *testing.T, root string) string {
	t.Helper()
	dst := t.TempDir()
	files := gitRun(t, root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	for _, f := range strings.Split(files, "\x00") {
		if f == "" {
			continue
		}
		src := filepath.Join(root, f)
		fi, err := os.Lstat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the working tree, or a link
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, dst, "init", "-q")
	gitRun(t, dst, "add", "-A")
	gitRun(t, dst, "commit", "-q", "-m", "snapshot")
	return dst
}

// TestPreCommitHooks runs the repository's hooks the way a user's pre-commit would: `pre-commit
// try-repo` clones a snapshot of this tree, builds trainlint with `go install` (language:
// golang) and runs the hook on a config with a pitfall. The module cache of this machine is
// shared with the build so only missing modules come from the proxy.
func TestPreCommitHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds trainlint through pre-commit")
	}
	preCommit := ensurePreCommit(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("go is not on PATH (pre-commit's golang hooks need it)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	repo := snapshotRepo(t, root)

	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "sft.yaml"), []byte(sftRecipe), 0o644)
	os.WriteFile(filepath.Join(proj, "README.md"), []byte("not a config\n"), 0o644)
	// An MMEngine base whose eval batch (1) the one config built on it raises to 2.
	for p, text := range map[string]string{
		"configs/_base_/datasets/coco_det.py": "train_dataloader = dict(batch_size=2, num_workers=2)\nval_dataloader = dict(batch_size=1, num_workers=2)\n",
		"configs/det/leaf.py":                 "_base_ = ['../_base_/datasets/coco_det.py']\nval_dataloader = dict(batch_size=2)\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(proj, p)), 0o755)
		os.WriteFile(filepath.Join(proj, p), []byte(text), 0o644)
	}
	gitRun(t, proj, "init", "-q")
	gitRun(t, proj, "add", "-A")

	modCache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	goCache, _ := exec.Command("go", "env", "GOCACHE").Output()
	env := append(os.Environ(),
		"PRE_COMMIT_HOME="+t.TempDir(),
		"GOMODCACHE="+strings.TrimSpace(string(modCache)),
		"GOCACHE="+strings.TrimSpace(string(goCache)),
		"GOFLAGS=-buildvcs=false",
		"NO_COLOR=1", "GIT_CONFIG_GLOBAL=/dev/null")
	try := func(hook string, files ...string) (string, error) {
		if len(files) == 0 {
			files = []string{"sft.yaml", "README.md"}
		}
		cmd := exec.Command(preCommit, append(append([]string{"try-repo", repo, hook, "--files"}, files...), "--color", "never", "--verbose")...)
		cmd.Dir = proj
		cmd.Env = env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		err := cmd.Run()
		t.Logf("pre-commit try-repo %s: %v in %s", hook, err, time.Since(start).Round(time.Second))
		return out.String(), err
	}

	out, err := try("trainlint")
	if err == nil {
		t.Fatalf("the trainlint hook passed on a config with a pitfall:\n%s", out)
	}
	for _, want := range []string{"TL202", "eval-batch-smaller-than-train", "sft.yaml", "TL005", "Failed"} {
		if !strings.Contains(out, want) {
			t.Errorf("hook output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "README.md:") {
		t.Errorf("the hook was given a Markdown file:\n%s", out)
	}
	if got := readFile(t, filepath.Join(proj, "sft.yaml")); got != sftRecipe {
		t.Errorf("the check hook changed the file:\n%s", got)
	}

	out, err = try("trainlint-fix")
	if got := readFile(t, filepath.Join(proj, "sft.yaml")); got != sftFixed {
		t.Fatalf("trainlint-fix did not apply the safe fixes (%v):\n%s\n%s", err, got, out)
	}
	// pre-commit fails a hook that modified files, so the user reviews the fixes.
	if err == nil || !strings.Contains(out, "files were modified by this hook") {
		t.Errorf("trainlint-fix should fail after changing files (%v):\n%s", err, out)
	}

	// The base staged alone is checked in the run of the config built on it, as a check of
	// the whole project checks it: its eval batch is raised there, so the hook passes.
	if out, err := try("trainlint", "configs/_base_/datasets/coco_det.py"); err != nil || strings.Contains(out, "TL202") {
		t.Errorf("the hook on the staged base (%v), want it to pass with no TL202:\n%s", err, out)
	}
}
