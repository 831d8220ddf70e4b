//go:build unix

package config

import (
	"math/rand"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Hostile config files (issue 15): globs that made matching exponential, and extend keys that
// read devices, FIFOs and files outside the repository.

// pathologicalGlob is an 80-byte pattern of "**" and one-letter segments that cannot match a
// 40-deep path of that letter (it wants a last "b"): backtracking tries every way to share the
// segments among the "**"s.
func pathologicalGlob() (pattern, file string) {
	pattern = strings.Repeat("**/a/", 16) + "b"
	file = "/r/" + strings.Repeat("a/", 40) + "x.yaml"
	return pattern, file
}

func TestGlobLinear(t *testing.T) {
	pattern, file := pathologicalGlob()
	start := time.Now()
	for range 100 {
		if MatchGlob("/r", pattern, file) {
			t.Fatal("pathological pattern matched")
		}
	}
	// 100 matches take about a millisecond; the backtracking matcher took 55 s for 10. The
	// bound is generous (a loaded machine) and still far below exponential behaviour.
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("100 matches took %v", took)
	}
}

func BenchmarkMatchGlobPathological(b *testing.B) {
	pattern, file := pathologicalGlob()
	for b.Loop() {
		MatchGlob("/r", pattern, file)
	}
}

// backtrack is the straightforward recursive matcher, the oracle for small cases.
func backtrack(pat, name []string) bool {
	if len(pat) == 0 {
		return len(name) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(name); i++ {
			if backtrack(pat[1:], name[i:]) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	ok, _ := path.Match(pat[0], name[0])
	return ok && backtrack(pat[1:], name[1:])
}

func TestGlobAgreesWithBacktracking(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	segs := []string{"**", "a", "b", "*", "a*", "?"}
	names := []string{"a", "b", "ab", "c"}
	for range 20000 {
		pat := make([]string, 1+r.Intn(5))
		for i := range pat {
			pat[i] = segs[r.Intn(len(segs))]
		}
		name := make([]string, 1+r.Intn(5))
		for i := range name {
			name[i] = names[r.Intn(len(names))]
		}
		if got, want := matchSegments(pat, name), backtrack(pat, name); got != want {
			t.Fatalf("%q on %q: %v, want %v", strings.Join(pat, "/"), strings.Join(name, "/"), got, want)
		}
	}
}

func TestExtendHostile(t *testing.T) {
	root := tree(t, map[string]string{
		"repo/.git/HEAD":    "ref: refs/heads/main\n",
		"repo/ok.toml":      "select = [\"TL2\"]\n",
		"outside.toml":      "select = [\"TL1\"]\n",
		"repo/zero.toml":    "extend = \"/dev/zero\"\n",
		"repo/abs.toml":     "extend = \"" + "/etc/passwd" + "\"\n",
		"repo/up.toml":      "extend = \"../outside.toml\"\n",
		"repo/link.toml":    "extend = \"sneaky.toml\"\n",
		"repo/fifo.toml":    "extend = \"pipe.toml\"\n",
		"repo/inside.toml":  "extend = \"ok.toml\"\n",
		"norepo/a/x.toml":   "extend = \"../../outside.toml\"\n",
		"repo/sub/in2.toml": "extend = \"../ok.toml\"\n",
	})
	if err := os.Symlink(filepath.Join(root, "outside.toml"), filepath.Join(root, "repo", "sneaky.toml")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "repo", "pipe.toml"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{"repo/zero.toml", `is outside`}, // /dev/zero is outside the repository
		{"repo/abs.toml", `extended file "/etc/passwd" is outside`},
		{"repo/up.toml", `outside.toml" is outside`},
		{"repo/link.toml", `sneaky.toml" is outside`},
		{"repo/fifo.toml", `pipe.toml" is not a regular file`},
		{"norepo/a/x.toml", `outside.toml" is outside`},
		{"repo/inside.toml", ``},
		{"repo/sub/in2.toml", ``},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := NewLoader(testRules()).Load(filepath.Join(root, tc.file))
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: loading hangs", tc.file)
		}
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.file, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.file, err, tc.want)
		}
	}
	// A config named directly may be a device or a FIFO too: refused, not read.
	for _, p := range []string{"/dev/zero", filepath.Join(root, "repo", "pipe.toml")} {
		if _, err := NewLoader(testRules()).Load(p); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Load(%s): %v", p, err)
		}
	}
}

// TestDiscoveredLinkOut: a discovered .trainlint.toml that links out of the repository is not
// read (its errors would echo the target's key names).
func TestDiscoveredLinkOut(t *testing.T) {
	root := tree(t, map[string]string{
		"repo/.git/HEAD": "ref: x\n",
		"secret.toml":    "password = \"hunter2\"\n",
		"repo/in/x.yaml": "",
	})
	if err := os.Symlink(filepath.Join(root, "secret.toml"), filepath.Join(root, "repo", "in", ".trainlint.toml")); err != nil {
		t.Fatal(err)
	}
	_, err := NewLoader(testRules()).ForDir(filepath.Join(root, "repo", "in"))
	if err == nil || !strings.Contains(err.Error(), "is a symbolic link to a file outside the repository") || strings.Contains(err.Error(), "password") {
		t.Errorf("error %v", err)
	}
	// A link inside the repository is read.
	os.Remove(filepath.Join(root, "repo", "in", ".trainlint.toml"))
	os.WriteFile(filepath.Join(root, "repo", "shared.toml"), []byte("select = [\"TL2\"]\n"), 0o644)
	os.Symlink(filepath.Join(root, "repo", "shared.toml"), filepath.Join(root, "repo", "in", ".trainlint.toml"))
	if c, err := NewLoader(testRules()).ForDir(filepath.Join(root, "repo", "in")); err != nil || c == nil || len(c.Select) != 1 {
		t.Errorf("link inside the repository: %v %+v", err, c)
	}
}
