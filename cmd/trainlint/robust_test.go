package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Hostile inputs through the CLI (issue 15): devices, FIFOs and endless streams must end in a
// clear message at once, never block or grow without bound; a file over the size limit is
// reported from its size without being read.

// cliWithin runs the CLI and fails the test if it does not return within d (a hang).
func cliWithin(t *testing.T, d time.Duration, stdin io.Reader, args ...string) (int, string, string) {
	t.Helper()
	type res struct {
		code           int
		stdout, stderr string
	}
	done := make(chan res, 1)
	t.Setenv("NO_COLOR", "1")
	t.Setenv("GITHUB_ACTIONS", "")
	go func() {
		var out, errb strings.Builder
		code := run(args, stdin, &out, &errb)
		done <- res{code, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(d):
		t.Fatalf("trainlint %s did not return within %v", strings.Join(args, " "), d)
		return 0, "", ""
	}
}

// zeros is an endless stream.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestRobustSpecialFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"w/ok.yaml":           "a: 1\n",
		"sub/.trainlint.toml": "extend = \"/dev/zero\"\n",
		"sub/x.yaml":          "a: 1\n",
	})
	for _, p := range []string{"pipe.yaml", "w/pipe.yaml"} {
		if err := syscall.Mkfifo(filepath.Join(dir, p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "/dev/zero"}, `cannot read "/dev/zero": it is a character device, not a regular file`},
		{[]string{"check", "pipe.yaml"}, `cannot read "pipe.yaml": it is a named pipe (FIFO), not a regular file`},
		{[]string{"check", "/dev/stdin"}, `not a regular file; trainlint reads only regular files (use - to read standard input)`},
		{[]string{"check", "sub/x.yaml"}, `extended file "/dev/zero" is outside`},
	} {
		code, _, stderr := cliWithin(t, 30*time.Second, nil, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	// Walking a folder skips the FIFO (only regular files are walked) and lints the rest.
	code, stdout, stderr := cliWithin(t, 30*time.Second, nil, "check", "--format", "json", "w")
	if code != exitOK || strings.Contains(stdout, "pipe.yaml") || !strings.Contains(stdout, `"w/ok.yaml"`) {
		t.Errorf("walk: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
}

func TestRobustOversizeNotRead(t *testing.T) {
	dir := writeTree(t, map[string]string{})
	// A sparse 1 TiB file: reading it would take hours; its size says enough.
	f, err := os.Create(filepath.Join(dir, "huge.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, stdout, stderr := cliWithin(t, 30*time.Second, nil, "check", "huge.yaml")
	if code != exitFindings || !strings.Contains(stdout, "file is 1048576 MiB, over the size limit of 10 MiB") {
		t.Errorf("1 TiB file: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// --fix does not read it either.
	code, _, stderr = cliWithin(t, 30*time.Second, nil, "check", "--fix", "huge.yaml")
	if code != exitFindings {
		t.Errorf("--fix on the 1 TiB file: exit %d, stderr %q", code, stderr)
	}
	// Standard input that never ends is read up to the limit and reported.
	code, stdout, stderr = cliWithin(t, 60*time.Second, zeros{}, "check", "-")
	if code != exitFindings || !strings.Contains(stdout, "file is over the size limit of 10 MiB") {
		t.Errorf("endless stdin: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
