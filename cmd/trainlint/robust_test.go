//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
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

// oneLineDuplicates is a one-line JSON object of about size bytes whose key "lr" is repeated
// dups+1 times across the line (each repetition is a duplicate-key finding with an excerpt and
// a related location).
func oneLineDuplicates(size, dups int) []byte {
	var b strings.Builder
	b.WriteString(`{"model_name_or_path": "x"`)
	pad := size / (dups + 1)
	for i := 0; i <= dups; i++ {
		b.WriteString(`, "lr": 0.1, "pad` + strconv.Itoa(i) + `": "` + strings.Repeat("é", pad/2) + `"`)
	}
	b.WriteString("}")
	return []byte(b.String())
}

// TestRobustTextExcerptCost: the text format draws a window of a long line, not the line: a
// 5 MB one-line JSON with 19 repeated keys took 47 s and gigabytes. What the text report
// allocates beyond the JSON report of the same run is measured (times are logged); the bound,
// twice the file's size, is loose and still far below one copy of the line per excerpt.
func TestRobustTextExcerptCost(t *testing.T) {
	src := oneLineDuplicates(5<<20, 19)
	writeTree(t, map[string]string{"one.json": string(src)})
	measure := func(format string) (uint64, string) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		code, stdout, stderr := cliWithin(t, 5*time.Minute, nil, "check", "--format", format, "one.json")
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s report of a %d-byte one-line JSON with 19 repeated keys: %v, %.1f MB allocated, %d bytes of output", format, len(src), took.Round(time.Millisecond), float64(alloc)/1e6, len(stdout))
		if code != exitFindings {
			t.Fatalf("%s: exit %d, stderr %q", format, code, stderr)
		}
		return alloc, stdout
	}
	base, _ := measure("json")
	alloc, stdout := measure("text")
	if n := strings.Count(stdout, "duplicate-key]"); n != 19 {
		t.Fatalf("%d duplicate-key findings, want 19", n)
	}
	if len(stdout) > 200_000 {
		t.Errorf("%d bytes of output: the excerpts are not windows", len(stdout))
	}
	if extra := int64(alloc) - int64(base); extra > int64(2*len(src)) {
		t.Errorf("the text report allocated %d bytes more than the JSON one, over %d", extra, 2*len(src))
	}
}

// TestRobustNoInjection: file names and values with ESC, BEL, CR, newlines and bidi controls
// reach the text and github formats escaped, so a hostile file can neither drive the terminal
// nor write a workflow command of its own into a GitHub Actions log.
func TestRobustNoInjection(t *testing.T) {
	name := "x\x1b[2J\a\n::error file=evil::pwned\u202e.json"
	writeTree(t, map[string]string{
		name: `{"per_device_train_batch_size": 8, "per_device_eval_batch_size": "\u001b]0;title\u0007\n::error::pwned\r\u202eevil", "eval_strategy": "steps\u001b[31m"}`,
	})
	for _, format := range []string{"text", "github"} {
		code, stdout, stderr := cliWithin(t, 30*time.Second, nil, "check", "--format", format, "--select", "ALL", ".")
		if code == exitUsage {
			t.Fatalf("%s: exit 2: %s", format, stderr)
		}
		for i, line := range strings.Split(stdout+stderr, "\n") {
			if strings.ContainsAny(line, "\x1b\a\r\u202e") {
				t.Errorf("%s: line %d holds a control character: %q", format, i+1, line)
			}
			if strings.HasPrefix(line, "::error::") || strings.HasPrefix(line, "::error file=evil") {
				t.Errorf("%s: line %d is a workflow command of the file's making: %q", format, i+1, line)
			}
		}
		if !strings.Contains(stdout, `x\x1b[2J\a\n`) || !strings.Contains(stdout, `pwned\u202e.json`) {
			t.Errorf("%s: the file name is not shown escaped:\n%s", format, stdout)
		}
	}
}

// TestRobustErrorsEscaped: the CLI's own error messages quote repository data too (here a config
// file's key, and the name of a file that cannot be read); they reach the terminal escaped.
func TestRobustErrorsEscaped(t *testing.T) {
	writeTree(t, map[string]string{
		".trainlint.toml": "\"bad\\u001b[2J\\nkey\" = 1\n",
		"a.yaml":          "a: 1\n",
	})
	code, _, stderr := cliWithin(t, 30*time.Second, nil, "check", "a.yaml", "missing\x1b]0;x\a.yaml")
	if code != exitUsage {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if strings.ContainsAny(stderr, "\x1b\a") {
		t.Errorf("stderr holds a control character: %q", stderr)
	}
	for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if !strings.HasPrefix(line, "trainlint: ") {
			t.Errorf("a line of stderr does not start with \"trainlint: \" (a newline of the file's making?): %q", line)
		}
	}
}

// TestRobustHostileIgnoreFiles: a .gitignore that is a FIFO or a link to /dev/zero (a cloned
// repository can hold either) neither blocks the walk nor grows without bound; it is skipped.
func TestRobustHostileIgnoreFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{"fifo/a.yaml": "a: 1\n", "zero/b.yaml": "b: 1\n"})
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo", ".gitignore"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero", ".gitignore")); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cliWithin(t, 30*time.Second, nil, "check", "--format", "json", "fifo", "zero")
	if code != exitOK || !strings.Contains(stdout, `"fifo/a.yaml"`) || !strings.Contains(stdout, `"zero/b.yaml"`) {
		t.Errorf("exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
}
