package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// git runs git in dir with a fixed identity and no user or system configuration.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// ignoredButTracked is a repository that ignores *.yaml and build/ and tracks some configs
// anyway (git add -f), as OpenPCDet tracks tools/cfgs/*.yaml under an ignored `*.yaml`.
var ignoredButTracked = map[string]string{
	".gitignore":          "*.yaml\nbuild/\n",
	"cfgs/a.yaml":         "a: 1\n",
	"cfgs/untracked.yaml": "a: 1\n",
	"build/x.yaml":        "a: 1\n",
	"build/y.yaml":        "a: 1\n",
	"build/deep/z.json":   "{}\n",
	"keep.json":           "{}\n",
}

// TestWalkListsTrackedIgnoredFiles: a file git tracks is walked although an ignore pattern
// matches it (or a folder above it), in every index version git writes, in SHA-256
// repositories and in linked work trees; untracked ignored files stay skipped.
func TestWalkListsTrackedIgnoredFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed to build the repositories this test walks (.ci/run clones with it)")
	}
	useTestRules(t)
	want := []string{"build/x.yaml", "cfgs/a.yaml", "keep.json"}
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the folder to walk
	}{
		{"index v2", func(t *testing.T, dir string) string { return dir }},
		{"index v3 (intent-to-add entry)", func(t *testing.T, dir string) string {
			git(t, dir, "add", "-N", "-f", "cfgs/untracked.yaml")
			return dir
		}},
		{"index v4", func(t *testing.T, dir string) string {
			git(t, dir, "update-index", "--index-version", "4")
			return dir
		}},
		{"linked work tree", func(t *testing.T, dir string) string {
			git(t, dir, "commit", "-q", "-m", "x")
			wt := filepath.Join(t.TempDir(), "wt")
			git(t, dir, "worktree", "add", "-q", wt)
			for _, f := range []string{"cfgs/untracked.yaml", "build/y.yaml", "build/deep/z.json"} {
				p := filepath.Join(wt, f)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			return wt
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeTree(t, ignoredButTracked)
			git(t, dir, "init", "-q")
			git(t, dir, "add", ".gitignore", "keep.json")
			git(t, dir, "add", "-f", "cfgs/a.yaml", "build/x.yaml")
			t.Chdir(c.setup(t, dir))
			if c.name == "index v3 (intent-to-add entry)" {
				want := append([]string{"cfgs/untracked.yaml"}, want...)
				slices.Sort(want)
				if _, res := decode(t, nil, "."); !reflect.DeepEqual(paths(res), want) {
					t.Errorf("walked %q, want %q", paths(res), want)
				}
				return
			}
			if _, res := decode(t, nil, "."); !reflect.DeepEqual(paths(res), want) {
				t.Errorf("walked %q, want %q", paths(res), want)
			}
			// A sub-folder walk reads the same index (a folder named on the command line is
			// walked although build/ is ignored; *.yaml still skips the untracked y.yaml).
			if _, res := decode(t, nil, "build"); !reflect.DeepEqual(paths(res), []string{"build/deep/z.json", "build/x.yaml"}) {
				t.Errorf("walking build: %q", paths(res))
			}
		})
	}
	t.Run("sha256 repository", func(t *testing.T) {
		dir := writeTree(t, ignoredButTracked)
		git(t, dir, "init", "-q", "--object-format=sha256")
		git(t, dir, "add", ".gitignore", "keep.json")
		git(t, dir, "add", "-f", "cfgs/a.yaml", "build/x.yaml")
		if _, res := decode(t, nil, "."); !reflect.DeepEqual(paths(res), want) {
			t.Errorf("walked %q, want %q", paths(res), want)
		}
	})
}

// TestParseGitIndex checks the reader against git's own listing of a real index in each
// version, and that a damaged index is refused (the ignore files then decide), never a panic.
func TestParseGitIndex(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed to build the indexes this test reads")
	}
	dir := t.TempDir()
	files := map[string]string{}
	for _, p := range []string{"a.yaml", "ab.yaml", "abc/d.yaml", "abc/de/f.json", "b/" + strings.Repeat("long", 40) + ".yaml", "é/ü.toml", "z"} {
		files[p] = "x\n"
	}
	for p, s := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	listed := strings.Split(strings.TrimSpace(git(t, dir, "-c", "core.quotepath=off", "ls-files")), "\n")
	for _, v := range []string{"2", "3", "4"} {
		git(t, dir, "update-index", "--index-version", v)
		data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		got, end, ok := parseGitIndex(data, 20)
		if !ok || !reflect.DeepEqual(got, listed) {
			t.Errorf("version %s: ok %v, got %q, want %q", v, ok, got, listed)
		}
		for cut := range end {
			if _, _, ok := parseGitIndex(data[:cut], 20); ok {
				t.Fatalf("version %s: an index cut to %d of its entries' %d bytes was read", v, cut, end)
			}
		}
	}
	for _, bad := range [][]byte{nil, []byte("DIRC"), []byte("DIRC\x00\x00\x00\x05\x00\x00\x00\x00"), []byte("DIRC\x00\x00\x00\x02\xff\xff\xff\xff")} {
		if _, _, ok := parseGitIndex(bad, 20); ok {
			t.Errorf("%q read as an index", bad)
		}
	}
}

// FuzzParseGitIndex: no input makes the index reader panic or read out of bounds.
func FuzzParseGitIndex(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01" + strings.Repeat("\x00", 60) + "\x40\x05\x00\x00\x81hello\x00"))
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01" + strings.Repeat("\x00", 60) + "\x00\x01a\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, n := range []int{20, 32} {
			if paths, end, ok := parseGitIndex(data, n); ok {
				if end > len(data) {
					t.Fatalf("entries end at %d, past the data's %d bytes", end, len(data))
				}
				for _, p := range paths {
					if p == "" {
						t.Fatal("an empty path read")
					}
				}
			}
		}
	})
}
