package main

// Tests of what a new user meets first (issue 15): the format of standard input, the notes the
// CLI prints, the short flags and suggestions, and the wording of counts.

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// examplesDir is the bundled examples folder, from this package's folder.
var examplesDir = filepath.Join("..", "..", "cmd", "trainlint", "examples")

// codesOf runs check with JSON output and returns "CODE:line" per finding; stdin "" means no
// standard input.
func codesOf(t *testing.T, args []string, stdin string) []string {
	t.Helper()
	var in io.Reader
	if stdin != "" {
		in = strings.NewReader(stdin)
	}
	code, res := decode(t, in, args...)
	if code != 1 {
		t.Fatalf("%v: exit %d, want 1", args, code)
	}
	var codes []string
	for _, d := range res.Diagnostics {
		codes = append(codes, d.Code+":"+strconv.Itoa(d.Line))
	}
	return codes
}

// TestStdinFormatFromContent: TOML piped in without --stdin-filename is read as TOML (it used to
// be read as YAML and reported clean), and gives the findings the named file gives.
func TestStdinFormatFromContent(t *testing.T) {
	for _, name := range []string{"inhouse-jax.toml", "deepspeed-zero2.json"} {
		p := filepath.Join(examplesDir, name)
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		named := codesOf(t, []string{"--hosts", "2", p}, "")
		piped := codesOf(t, []string{"--hosts", "2", "-"}, string(src))
		if len(named) == 0 || !reflect.DeepEqual(named, piped) {
			t.Errorf("%s: named file gives %v, standard input %v", name, named, piped)
		}
		_, res := decode(t, strings.NewReader(string(src)), "-")
		if want := strings.TrimPrefix(filepath.Ext(name), "."); res.Files[0].Format != want {
			t.Errorf("%s on standard input read as %q, want %q", name, res.Files[0].Format, want)
		}
	}
}

// TestNeedsHostsNote: when multi-host rules cannot run for want of a host count, the text
// output says so once, after the summary; with --hosts it does not, nor in --quiet mode. The
// JSON output carries the codes per file (files[].needs_hosts).
func TestNeedsHostsNote(t *testing.T) {
	_, out, _ := cli(t, nil, examplesDir)
	if n := strings.Count(out, "multi-host rule"); n != 1 {
		t.Errorf("the note appears %d times, want once:\n%s", n, out)
	}
	if !strings.Contains(out, "\nnote: 3 multi-host rules need --hosts N (4 files do not state their host count;") {
		t.Errorf("no or wrong note after the summary:\n%s", out[max(0, len(out)-400):])
	}
	for _, args := range [][]string{{"--hosts", "2", examplesDir}, {"--quiet", examplesDir}} {
		if _, out, _ := cli(t, nil, args...); strings.Contains(out, "multi-host rule") {
			t.Errorf("%v: unexpected note:\n%s", args, out)
		}
	}
	_, res := decode(t, nil, filepath.Join(examplesDir, "deepspeed-zero2.json"))
	if got := res.Files[0].NeedsHosts; !reflect.DeepEqual(got, []string{"TL602"}) {
		t.Errorf("deepspeed-zero2.json needs_hosts = %v, want [TL602]", got)
	}
}
