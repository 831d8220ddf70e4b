package main

// Tests of what a new user meets first (issue 15): the format of standard input, the notes the
// CLI prints, the short flags and suggestions, and the wording of counts.

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// examplesDir is the bundled examples folder, from this package's folder.
var examplesDir = "examples"

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

const hfWarn = "per_device_train_batch_size: 16\nper_device_eval_batch_size: 4\neval_strategy: steps\neval_steps: 500\ndataloader_num_workers: 4\nreport_to: tensorboard\n" // only TL202, fixable

// TestCheckDefaultsToCurrentFolder: `check` with no path lints the working folder; with
// --stdin-filename and something piped in it reads standard input.
func TestCheckDefaultsToCurrentFolder(t *testing.T) {
	writeTree(t, map[string]string{"configs/sft.yaml": hfWarn})
	code, res := decode(t, nil)
	if code != 1 || !reflect.DeepEqual(paths(res), []string{"configs/sft.yaml"}) {
		t.Errorf("check with no path: exit %d, files %v", code, paths(res))
	}
	code, res = decode(t, strings.NewReader("a: 1\n"), "--stdin-filename", "piped.yaml")
	if code != 0 || !reflect.DeepEqual(paths(res), []string{"piped.yaml"}) {
		t.Errorf("check --stdin-filename with piped input: exit %d, files %v", code, paths(res))
	}
}

func TestShortFlags(t *testing.T) {
	writeTree(t, map[string]string{"sft.yaml": hfWarn})
	code, out, stderr := cli(t, nil, "check", "-f", "json", "-o", "junit=j.xml", "sft.yaml")
	if code != 1 || !strings.HasPrefix(out, "{\n  \"version\": 1,") {
		t.Errorf("-f json: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if b, err := os.ReadFile("j.xml"); err != nil || !strings.Contains(string(b), "<testsuites") {
		t.Errorf("-o junit=j.xml: %v %q", err, b)
	}
	_, help, _ := cli(t, nil, "check", "--help")
	if !strings.Contains(help, "-f, --format FORMAT") || !strings.Contains(help, "-o, --output FORMAT=FILE") || strings.Contains(help, "--f ") {
		t.Errorf("help does not pair the short flags with the long ones:\n%s", help)
	}
}

// TestSuggestions: mistyped flags and selectors get the nearest valid one; a catalogue rule not
// implemented yet is named as such by --select and explain.
func TestSuggestions(t *testing.T) {
	writeTree(t, map[string]string{"sft.yaml": hfWarn})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--formt", "json", "sft.yaml"}, "unknown flag --formt (did you mean --format?)"},
		{[]string{"--fail-onn", "error", "sft.yaml"}, "(did you mean --fail-on?)"},
		{[]string{"--select", "eval-batch-smaller", "sft.yaml"}, `unknown rule selector "eval-batch-smaller" in --select (did you mean eval-batch-smaller-than-train?)`},
		{[]string{"--ignore", "evaluaton", "sft.yaml"}, "(did you mean evaluation?)"},
		{[]string{"--select", "TL2022", "sft.yaml"}, "(did you mean TL202?)"},
		{[]string{"--select", "TL703", "sft.yaml"}, "--select TL703: TL703 train-steps-in-search-space is in the catalogue but not implemented yet"},
		{[]string{"--ignore", "train-steps-in-search-space", "sft.yaml"}, "train-steps-in-search-space is in the catalogue but not implemented yet"},
		{[]string{"explain", "TL703"}, "TL703 train-steps-in-search-space is in the catalogue but not implemented yet"},
		{[]string{"explain", "train-steps-in-search-space"}, "TL703 train-steps-in-search-space is in the catalogue but not implemented yet"},
		{[]string{"--hosts", "abc", "sft.yaml"}, `invalid value "abc" for --hosts: want a whole number`},
		{[]string{"--devices-per-host", "8x", "sft.yaml"}, `invalid value "8x" for --devices-per-host`},
		{[]string{"--color", "sometimes", "sft.yaml"}, `unknown --color "sometimes" (want auto, always or never)`},
		{[]string{"-o", "sarif", "sft.yaml"}, `invalid value "sarif" for -o: want FORMAT=FILE`},
		{[]string{"sft.yaml", "-f"}, "trainlint: -f needs a value"},
		{[]string{"chekc", "sft.yaml"}, `unknown command "chekc" (did you mean 'trainlint check'?)`},
		{[]string{"rule"}, "(did you mean 'trainlint rules'?)"},
	} {
		code, out, stderr := cli(t, nil, c.args...)
		if code != 2 || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, stderr, c.want)
		}
	}
	// Nothing close: no suggestion; a file named like a command is linted.
	if _, _, stderr := cli(t, nil, "--zzzzzz", "sft.yaml"); strings.Contains(stderr, "did you mean") {
		t.Errorf("a suggestion for --zzzzzz: %q", stderr)
	}
	os.WriteFile("rule", []byte("a: 1\n"), 0o644)
	if code, out, stderr := cli(t, nil, "rule"); code != 0 || !strings.Contains(out, "no findings in 1 file") {
		t.Errorf("a file named rule: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// TestCatalogue holds the catalogue data to the implemented rules: a rule implemented under a
// catalogue code has the catalogue's name, and codes are unique.
func TestCatalogue(t *testing.T) {
	codes, names := map[string]string{}, map[string]bool{}
	for _, e := range catalogue {
		if codes[e.Code] != "" || names[e.Name] {
			t.Errorf("catalogue repeats %s %s", e.Code, e.Name)
		}
		codes[e.Code], names[e.Name] = e.Name, true
	}
	implemented := 0
	for _, r := range allRules() {
		if name, ok := codes[r.Code]; ok {
			implemented++
			if name != r.Name {
				t.Errorf("%s is %q in the catalogue but implemented as %q", r.Code, name, r.Name)
			}
		}
		if _, ok := plannedRule(allRules(), r.Code); ok {
			t.Errorf("%s is implemented but called planned", r.Code)
		}
	}
	if implemented < 10 || len(catalogue) < 50 {
		t.Errorf("%d implemented rules found in a catalogue of %d", implemented, len(catalogue))
	}
}

// TestExitZero: --exit-zero and --fail-on never exit 0 on findings, never on a usage error, an
// unreadable path or an internal error.
func TestExitZero(t *testing.T) {
	writeTree(t, map[string]string{"sft.yaml": hfWarn})
	for _, args := range [][]string{{"--exit-zero", "sft.yaml"}, {"--fail-on", "never", "sft.yaml"}, {"--fail-on=NEVER", "sft.yaml"}} {
		if code, out, _ := cli(t, nil, args...); code != 0 || !strings.Contains(out, "TL202") {
			t.Errorf("%v: exit %d, want 0 with the finding reported:\n%s", args, code, out)
		}
	}
	if code, _, _ := cli(t, nil, "--exit-zero", "missing.yaml"); code != 2 {
		t.Errorf("--exit-zero on a missing file: exit %d, want 2", code)
	}
	if code, _, _ := cli(t, nil, "--exit-zero", "--select", "nope", "sft.yaml"); code != 2 {
		t.Errorf("--exit-zero with a usage error: exit %d, want 2", code)
	}
}

// TestColorFlag: --color always colours a pipe, FORCE_COLOR too (unless NO_COLOR or --no-color),
// and --color never / --no-color keep a terminal plain.
func TestColorFlag(t *testing.T) {
	writeTree(t, map[string]string{"sft.yaml": hfWarn})
	for _, c := range []struct {
		noColor, force string
		args           []string
		want           bool
	}{
		{"", "", []string{"sft.yaml"}, false},
		{"", "", []string{"--color", "always", "sft.yaml"}, true},
		{"1", "", []string{"--color=always", "sft.yaml"}, true},
		{"", "1", []string{"sft.yaml"}, true},
		{"1", "1", []string{"sft.yaml"}, false},
		{"", "1", []string{"--no-color", "sft.yaml"}, false},
		{"", "1", []string{"--color", "never", "sft.yaml"}, false},
	} {
		t.Setenv("NO_COLOR", c.noColor)
		t.Setenv("FORCE_COLOR", c.force)
		t.Setenv("GITHUB_ACTIONS", "")
		var out, errb strings.Builder
		run(c.args, nil, &out, &errb)
		if got := strings.Contains(out.String(), "\x1b["); got != c.want {
			t.Errorf("NO_COLOR=%q FORCE_COLOR=%q %v: coloured %v, want %v", c.noColor, c.force, c.args, got, c.want)
		}
	}
}

// TestBaselineCounts: --write-baseline says how many findings it recorded, --baseline how many
// it hid, and a folder walk does not lint the baseline file as a config.
func TestBaselineCounts(t *testing.T) {
	writeTree(t, map[string]string{"sft.yaml": hfWarn})
	code, _, stderr := cli(t, nil, "check", "--write-baseline", "baseline.json")
	if code != 0 || !strings.Contains(stderr, "recorded 1 finding in baseline baseline.json") {
		t.Errorf("--write-baseline: exit %d, stderr %q", code, stderr)
	}
	os.WriteFile("new.yaml", []byte(hfWarn), 0o644)
	code, res := decode(t, nil, "--baseline", "baseline.json")
	if code != 1 || len(res.Diagnostics) != 1 || res.Diagnostics[0].File != "new.yaml" {
		t.Errorf("--baseline: exit %d, %+v", code, res.Diagnostics)
	}
	if !reflect.DeepEqual(paths(res), []string{"new.yaml", "sft.yaml"}) {
		t.Errorf("files linted %v: the baseline itself must not be one", paths(res))
	}
	_, _, stderr = cli(t, nil, "check", "--baseline", "baseline.json", "--quiet")
	if !strings.Contains(stderr, "baseline baseline.json hid 1 finding; 1 new reported") {
		t.Errorf("--baseline stderr %q", stderr)
	}
}

func TestCountWording(t *testing.T) {
	for _, c := range []struct {
		fixes, files int
		want         string
	}{{1, 1, "applied 1 fix in 1 file"}, {3, 2, "applied 3 fixes in 2 files"}, {2, 1, "applied 2 fixes in 1 file"}, {0, 0, "no fixes to apply"}} {
		if got := fixesApplied(c.fixes, c.files); got != c.want {
			t.Errorf("fixesApplied(%d, %d) = %q, want %q", c.fixes, c.files, got, c.want)
		}
	}
	writeTree(t, map[string]string{"sft.yaml": hfWarn})
	if _, _, stderr := cli(t, nil, "check", "--fix", "sft.yaml"); !strings.Contains(stderr, "applied 1 fix in 1 file\n") {
		t.Errorf("--fix stderr %q", stderr)
	}
}

func TestSchemaListsNames(t *testing.T) {
	code, out, stderr := cli(t, nil, "schema")
	if code != 0 || stderr != "" {
		t.Fatalf("schema: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"Usage: trainlint schema NAME", "\n  config ", "the .trainlint.toml config file", "\n  huggingface ", "Hugging Face"} {
		if !strings.Contains(out, want) {
			t.Errorf("schema output lacks %q:\n%s", want, out)
		}
	}
}

// TestUnreadablePathIsNotAPass: a missing file prints no "no findings" line, only the error and
// that nothing was checked (exit 2); next to readable files, the report is followed by a reminder.
func TestUnreadablePathIsNotAPass(t *testing.T) {
	writeTree(t, map[string]string{"a.yaml": "a: 1\n"})
	code, out, stderr := cli(t, nil, "check", "missing.yaml", "-o", "json=report.json")
	if code != 2 || out != "" || !strings.Contains(stderr, `cannot read "missing.yaml"`) || !strings.Contains(stderr, "nothing was checked") {
		t.Errorf("missing file: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if b, err := os.ReadFile("report.json"); err != nil || !strings.Contains(string(b), `"files": []`) {
		t.Errorf("the --output report of a run that checked nothing: %v %s", err, b)
	}
	code, out, stderr = cli(t, nil, "check", "missing.yaml", "a.yaml")
	if code != 2 || !strings.Contains(out, "no findings in 1 file") || !strings.HasSuffix(stderr, "1 path could not be read (see above), so the run exits 2\n") {
		t.Errorf("missing and readable: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// TestExitZeroBeatsConfigFailOn: a config file's fail-on does not undo --exit-zero.
func TestExitZeroBeatsConfigFailOn(t *testing.T) {
	writeTree(t, map[string]string{"sft.yaml": hfWarn, ".trainlint.toml": "fail-on = \"info\"\n"})
	if code, _, stderr := cli(t, nil, "--exit-zero", "sft.yaml"); code != 0 {
		t.Errorf("--exit-zero with fail-on = \"info\" in the config: exit %d; stderr %q", code, stderr)
	}
	if code, _, _ := cli(t, nil, "sft.yaml"); code != 1 {
		t.Errorf("without --exit-zero: exit %d, want 1", code)
	}
}

// TestTestToolsNamesMissingTool: make test's tool check, run by a user who is not root on a
// machine without chromium, stops before any test with the line that installs it.
func TestTestToolsNamesMissingTool(t *testing.T) {
	bin := t.TempDir()
	for _, tool := range []string{"bash", "sed", "uname", "sha256sum", "cut", "cat", "mkdir", "mktemp", "rm", "mv", "dirname", "node", "npm", "pre-commit", "git"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Fatalf("%s not found: install it (make test's tool check installs node, npm and pre-commit)", tool)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	// Not root, whoever runs the test.
	if err := os.WriteFile(filepath.Join(bin, "id"), []byte("#!/bin/sh\necho 1000\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", ".ci", "test-tools"))
	cmd := exec.Command(filepath.Join(bin, "bash"), script)
	cmd.Env = []string{"PATH=" + bin}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "chromium not found; it is needed for the browser tests of the checker. Install it: apt-get install chromium") {
		t.Errorf("test-tools without chromium: %v\n%s", err, out)
	}
}

// TestWriteBaselineNeedsEveryPath: a run that could not read a path does not overwrite the
// baseline with a partial one.
func TestWriteBaselineNeedsEveryPath(t *testing.T) {
	writeTree(t, map[string]string{"sft.yaml": hfWarn, "baseline.json": "keep me\n"})
	code, _, stderr := cli(t, nil, "--write-baseline", "baseline.json", "sft.yaml", "missing.yaml")
	if b, _ := os.ReadFile("baseline.json"); code != 2 || string(b) != "keep me\n" || !strings.Contains(stderr, "baseline baseline.json not written: 1 path could not be read") {
		t.Errorf("exit %d, baseline %q, stderr %q", code, b, stderr)
	}
}
