package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/cmd/internal/gittest"
)

func git(t *testing.T, dir string, args ...string) { gittest.Run(t, dir, args...) }

// TestPreCommitPythonHook runs the mirror repository's language: python hook the way a user's
// pre-commit would: `pre-commit try-repo` clones it, creates a virtualenv and pip-installs it,
// which pulls in the trainlint wheel; then the hook lints a config with a pitfall. Go is taken
// off PATH to show the hook needs none. pip stays offline: the wheels come from the dist
// folder, and setuptools and wheel (the mirror's build backend) from Debian's
// /usr/share/python-wheels, which python3-virtualenv (a dependency of Debian's pre-commit)
// installs; a user's pip gets all of them from PyPI.
func TestPreCommitPythonHook(t *testing.T) {
	if testing.Short() {
		t.Skip("creates a virtualenv through pre-commit")
	}
	res := built(t)
	hostWheel(t, res) // this platform has a wheel to install
	preCommit, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Fatal("pre-commit is not on PATH: .ci/run installs Debian's pre-commit")
	}
	wheels := "/usr/share/python-wheels"
	if m, _ := filepath.Glob(filepath.Join(wheels, "setuptools-*.whl")); len(m) == 0 {
		t.Fatalf("no setuptools wheel in %s (Debian's python3-setuptools-whl)", wheels)
	}

	repo := t.TempDir()
	entries, err := os.ReadDir(res.mirror)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(res.mirror, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(repo, e.Name()), b, 0o644)
	}
	git(t, repo, "init", "-q")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "mirror")

	example, err := os.ReadFile(filepath.Join("..", "trainlint", "examples", "hf-sft.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "sft.yaml"), example, 0o644)
	git(t, proj, "init", "-q")
	git(t, proj, "add", "-A")

	// PATH without Go: the hook must not need it.
	path := pathWithoutGo()
	env := pipEnv("PIP_FIND_LINKS="+filepath.Dir(res.wheels[0])+" "+wheels,
		"PRE_COMMIT_HOME="+t.TempDir(), "PATH="+strings.Join(path, string(os.PathListSeparator)),
		"NO_COLOR=1", "GIT_CONFIG_GLOBAL=/dev/null", "GITHUB_ACTIONS=")
	cmd := exec.Command(preCommit, "try-repo", repo, "trainlint", "--files", "sft.yaml", "--color", "never", "--verbose")
	cmd.Dir = proj
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the python hook passed on a config with a pitfall:\n%s", out)
	}
	for _, want := range []string{"TL202", "eval-batch-smaller-than-train", "sft.yaml", "Failed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("hook output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "An unexpected error") || strings.Contains(string(out), "CalledProcessError") {
		t.Errorf("pre-commit could not install the hook:\n%s", out)
	}
	// A staged tsconfig.json (JSON with comments) is no config: the hook's exclude leaves it
	// out, where trainlint given it by name would report a parse error and fail the commit.
	os.MkdirAll(filepath.Join(proj, "web"), 0o755)
	os.WriteFile(filepath.Join(proj, "web", "tsconfig.json"), []byte("{\n  // comments\n  \"compilerOptions\": {\"strict\": true,},\n}\n"), 0o644)
	git(t, proj, "add", "-A")
	cmd = exec.Command(preCommit, "try-repo", repo, "trainlint", "--files", "web/tsconfig.json", "--color", "never", "--verbose")
	cmd.Dir = proj
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil || strings.Contains(string(out), "TL001") {
		t.Errorf("the hook failed on a staged tsconfig.json (%v):\n%s", err, out)
	}

	// Python configs are checked too (MMEngine here), while the scripts and helper modules that
	// pre-commit also names (a Python 2 script that does not parse among them) are passed over,
	// as a folder walk passes over them.
	os.MkdirAll(filepath.Join(proj, "configs"), 0o755)
	os.MkdirAll(filepath.Join(proj, "tools"), 0o755)
	os.WriteFile(filepath.Join(proj, "configs", "resnet.py"), []byte("train_dataloader = dict(batch_size=32, num_workers=4)\nval_dataloader = dict(batch_size=8, num_workers=4)\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "tools", "train.py"), []byte("import argparse\n\n\ndef main():\n    print(dict(batch_size=1))\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "tools", "old.py"), []byte("print \"hi\"\n"), 0o644)
	git(t, proj, "add", "-A")
	cmd = exec.Command(preCommit, "try-repo", repo, "trainlint", "--files", "configs/resnet.py", "tools/train.py", "tools/old.py", "--color", "never", "--verbose")
	cmd.Dir = proj
	cmd.Env = env
	out, err = cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "configs/resnet.py") || !strings.Contains(string(out), "TL202") {
		t.Errorf("the hook did not report the MMEngine config's eval batch (%v):\n%s", err, out)
	}
	if strings.Contains(string(out), "tools/") || strings.Contains(string(out), "TL001") {
		t.Errorf("the hook reported a script:\n%s", out)
	}
	cmd = exec.Command(preCommit, "try-repo", repo, "trainlint", "--files", "tools/train.py", "tools/old.py", "--color", "never", "--verbose")
	cmd.Dir = proj
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the hook failed on staged scripts (%v):\n%s", err, out)
	}

	// trainlint-fix applies the safe fix (the eval batch raised to the train batch) and fails,
	// as pre-commit does for a hook that changed files.
	cmd = exec.Command(preCommit, "try-repo", repo, "trainlint-fix", "--files", "sft.yaml", "--color", "never", "--verbose")
	cmd.Dir = proj
	cmd.Env = env
	out, err = cmd.CombinedOutput()
	fixed, _ := os.ReadFile(filepath.Join(proj, "sft.yaml"))
	if !strings.Contains(string(fixed), "per_device_eval_batch_size: 16") {
		t.Errorf("trainlint-fix did not raise the eval batch (%v):\n%s\n%s", err, fixed, out)
	}
	if err == nil || !strings.Contains(string(out), "files were modified by this hook") {
		t.Errorf("trainlint-fix should fail after changing files (%v):\n%s", err, out)
	}
}

// TestPreCommitLocalHook is the variant without the mirror repository: a `repo: local` hook
// with `language: python` and the wheel as an additional dependency (a user writes
// `trainlint==VERSION`; here pip finds it in the dist folder). pre-commit gives local python
// hooks a placeholder setup.py of its own, so nothing of trainlint's repository is needed.
func TestPreCommitLocalHook(t *testing.T) {
	if testing.Short() {
		t.Skip("creates a virtualenv through pre-commit")
	}
	res := built(t)
	hostWheel(t, res)
	preCommit, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Fatal("pre-commit is not on PATH: .ci/run installs Debian's pre-commit")
	}
	example, err := os.ReadFile(filepath.Join("..", "trainlint", "examples", "hf-sft.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "sft.yaml"), example, 0o644)
	os.WriteFile(filepath.Join(proj, ".pre-commit-config.yaml"), []byte(`repos:
  - repo: local
    hooks:
      - id: trainlint
        name: trainlint
        entry: trainlint check
        language: python
        types_or: [yaml, json, toml]
        additional_dependencies: [trainlint==`+res.version+`]
`), 0o644)
	git(t, proj, "init", "-q")
	git(t, proj, "add", "-A")
	path := pathWithoutGo()
	cmd := exec.Command(preCommit, "run", "--files", "sft.yaml", "--color", "never", "--verbose")
	cmd.Dir = proj
	cmd.Env = pipEnv("PIP_FIND_LINKS="+filepath.Dir(res.wheels[0])+" /usr/share/python-wheels",
		"PRE_COMMIT_HOME="+t.TempDir(), "PATH="+strings.Join(path, string(os.PathListSeparator)),
		"NO_COLOR=1", "GIT_CONFIG_GLOBAL=/dev/null", "GITHUB_ACTIONS=")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the local python hook passed on a config with a pitfall:\n%s", out)
	}
	for _, want := range []string{"TL202", "sft.yaml", "Failed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("hook output lacks %q:\n%s", want, out)
		}
	}
}

// pathWithoutGo is PATH's folders minus those holding a go binary, so that a hook run with it
// shows it does not need Go.
func pathWithoutGo() []string {
	var path []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "go")); err != nil {
			path = append(path, d)
		}
	}
	return path
}

// TestHookExclude: both hook files (the main repository's language: golang hooks and the
// mirror's language: python ones) exclude the same files, and the pattern (pre-commit's
// re.search on the staged path; Go's regexp reads this one the same) leaves out JSON with
// comments and trainlint's own configuration, not configs.
func TestHookExclude(t *testing.T) {
	main, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(main), hookExclude); n != 2 {
		t.Errorf(".pre-commit-hooks.yaml has the hooks' exclude %d times, want 2 (one per hook)", n)
	}
	if n := strings.Count(string(main), hookFiles); n != 2 {
		t.Errorf(".pre-commit-hooks.yaml has the hooks' files line %d times, want 2 (one per hook)", n)
	}
	if n := strings.Count(string(main), "entry: trainlint check --only-configs"); n != 2 {
		t.Errorf(".pre-commit-hooks.yaml's entries pass --only-configs %d times, want 2", n)
	}
	dir := t.TempDir()
	if err := writeMirror(dir, "0.0.0"); err != nil {
		t.Fatal(err)
	}
	mirror, err := os.ReadFile(filepath.Join(dir, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(mirror), hookExclude); n != 2 {
		t.Errorf("the mirror's .pre-commit-hooks.yaml has the exclude %d times, want 2", n)
	}
	if n := strings.Count(string(mirror), hookFiles); n != 2 {
		t.Errorf("the mirror's .pre-commit-hooks.yaml has the files line %d times, want 2", n)
	}
	if n := strings.Count(string(mirror), "entry: trainlint check --only-configs"); n != 2 {
		t.Errorf("the mirror's entries pass --only-configs %d times, want 2", n)
	}
	// The files line takes what a folder walk reads (pre-commit's re.search; Go's regexp reads
	// this pattern the same), whatever the extension's case.
	_, fpat, _ := strings.Cut(hookFiles, "files: '")
	fre := regexp.MustCompile(strings.TrimSuffix(strings.TrimSpace(fpat), "'"))
	for path, taken := range map[string]bool{
		"sft.yaml": true, "a/b.yml": true, "ds.JSON": true, "llama3.toml": true, "t5x/base.gin": true,
		"configs/resnet/resnet50_8xb32_in1k.py": true, "README.md": false, "train.pyc": false,
		"notes.yaml.bak": false, "ginger": false, "setup.cfg": false,
	} {
		if got := fre.MatchString(path); got != taken {
			t.Errorf("files line on %s: %v, want %v", path, got, taken)
		}
	}
	_, pat, _ := strings.Cut(hookExclude, "exclude: '")
	re := regexp.MustCompile(strings.TrimSuffix(strings.TrimSpace(pat), "'"))
	for path, excluded := range map[string]bool{
		"web/tsconfig.json": true, "tsconfig.app.json": true, "jsconfig.json": true, "client/.eslintrc.json": true,
		".vscode/settings.json": true, ".devcontainer/devcontainer.json": true, "a/node_modules/x/package.json": true,
		".trainlint.toml": true, "pyproject.toml": true, "sub/pyproject.toml": true,
		"sft.yaml": false, "configs/train.yaml": false, "ds_config.json": false, "torchtitan/llama3.toml": false,
		"my_tsconfig.json.yaml": false, "package.json": false,
	} {
		if got := re.MatchString(path); got != excluded {
			t.Errorf("%s: excluded %v, want %v", path, got, excluded)
		}
	}
}
