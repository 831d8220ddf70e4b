// Package gittest runs git for the commands' tests.
package gittest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Run runs git in dir with a fixed identity and no global configuration (CI has none, and a
// developer's must not change the result), failing the test with git's output on an error, and
// returns what git printed.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
