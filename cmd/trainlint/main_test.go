package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/report"
	"github.com/trainlint/trainlint/lint/testfs"
	"github.com/trainlint/trainlint/rules"
)

// Test-only rules, so these tests do not depend on which playbook rules exist yet: each fires on
// a top-level key named after it.
var (
	testWarn = &lint.Rule{Code: "TL990", Name: "test-warning", Category: lint.CatTracking, Severity: lint.Warning,
		Title: "Test warning", Rationale: "Fires on `warn_me`.\n\nSecond paragraph.", Fix: "Remove `warn_me`.",
		Frameworks: []string{"*"}, Check: keyRule("warn_me", "key %q is set"),
		Options: []lint.Option{{Name: "k", Type: "integer", Default: 8, Doc: "How many times."}}}
	testInfo = &lint.Rule{Code: "TL991", Name: "test-info", Category: lint.CatTracking, Severity: lint.Info,
		Title: "Test info", Frameworks: []string{"*"}, Check: keyRule("info_me", "key %q is set")}
	testPanic = &lint.Rule{Code: "TL992", Name: "test-panic", Category: lint.CatStructure, Severity: lint.Error,
		Title: "Test panic", Frameworks: []string{"*"}, Check: func(p *lint.Pass) {
			if p.Doc.Root.Get("panic_me") != nil {
				panic("boom")
			}
		}}
)

func keyRule(key, msg string) func(*lint.Pass) {
	return func(p *lint.Pass) {
		if n := p.Doc.Root.Get(key); n != nil {
			p.Report(lint.Finding{Node: n, AtKey: true, Message: fmt.Sprintf(msg, key), Help: "delete the key"})
		}
	}
}

// useTestRules runs the CLI with a fixed rule set for the rest of the test.
func useTestRules(t *testing.T) {
	t.Helper()
	old := allRules
	allRules = func() []*lint.Rule {
		return append([]*lint.Rule{rules.ParseError, testWarn, testInfo, testPanic}, lint.Builtin()...)
	}
	t.Cleanup(func() { allRules = old })
}

// writeTree creates files (name → content) under a new temporary folder and moves into it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	testfs.Write(t, dir, files)
	t.Chdir(dir)
	return dir
}

// cli runs trainlint in-process. stdin nil means "no standard input".
func cli(t *testing.T, stdin io.Reader, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("NO_COLOR", "1")
	t.Setenv("GITHUB_ACTIONS", "")
	var out, errb bytes.Buffer
	code = run(args, stdin, &out, &errb)
	return code, out.String(), errb.String()
}

func TestExitCodes(t *testing.T) {
	useTestRules(t)
	writeTree(t, map[string]string{
		"clean.yaml":  "a: 1\n",
		"warn.yaml":   "warn_me: 1\n",
		"info.yaml":   "info_me: 1\n",
		"broken.yaml": "a: [1, 2\n",
		"panic.yaml":  "panic_me: 1\n",
	})
	cases := []struct {
		args    []string
		code    int
		errWant string // substring of stderr
	}{
		{[]string{"clean.yaml"}, 0, ""},
		{[]string{"check", "clean.yaml"}, 0, ""},
		{[]string{"warn.yaml"}, 1, ""},
		{[]string{"info.yaml"}, 0, ""},
		{[]string{"--fail-on", "info", "info.yaml"}, 1, ""},
		{[]string{"--fail-on=error", "warn.yaml"}, 0, ""},
		{[]string{"--fail-on", "warning", "warn.yaml"}, 1, ""},
		{[]string{"broken.yaml"}, 1, ""},
		{[]string{"--fail-on", "error", "broken.yaml"}, 1, ""},
		{[]string{"panic.yaml"}, 2, ""},
		{[]string{"missing.yaml"}, 2, `cannot read "missing.yaml"`},
		// An unreadable path does not stop the others from being linted, but the run exits 2.
		{[]string{"missing.yaml", "clean.yaml"}, 2, `cannot read "missing.yaml"`},
		{[]string{}, 2, "Usage:"},
		{[]string{"--bogus", "clean.yaml"}, 2, "unknown flag --bogus"},
		{[]string{"clean.yaml", "--format"}, 2, "--format needs a value"},
		{[]string{"--format", "xml", "clean.yaml"}, 2, `unknown format "xml"`},
		{[]string{"--output", "xml=out.xml", "clean.yaml"}, 2, `unknown format "xml" in --output`},
		{[]string{"--output", "json", "clean.yaml"}, 2, "want FORMAT=FILE"},
		{[]string{"--fail-on", "fatal", "clean.yaml"}, 2, `unknown severity "fatal"`},
		{[]string{"--select", "TL202x", "clean.yaml"}, 2, `unknown rule selector "TL202x" in --select`},
		{[]string{"--ignore", "nope", "clean.yaml"}, 2, `unknown rule selector "nope" in --ignore`},
		{[]string{"--framework", "caffe", "clean.yaml"}, 2, `unknown framework "caffe"`},
		{[]string{"--hosts", "-1", "clean.yaml"}, 2, "must not be negative"},
		{[]string{"--hosts", "two", "clean.yaml"}, 2, `invalid value "two" for --hosts`},
		{[]string{"--fix", "-"}, 2, "--fix cannot write standard input back"},
		{[]string{"--config", "x.toml", "clean.yaml"}, 2, "cannot read --config file"},
		{[]string{"version"}, 0, ""},
		{[]string{"version", "x"}, 2, "no arguments"},
		{[]string{"explain"}, 2, "explain takes one rule"},
		{[]string{"explain", "no-such-rule"}, 2, `unknown rule "no-such-rule"`},
		{[]string{"rules", "--format", "yaml"}, 2, `unknown format "yaml" for rules`},
		{[]string{"schema", "caffe"}, 2, `unknown schema "caffe"`},
		{[]string{"help"}, 0, ""},
		{[]string{"check", "--help"}, 0, ""},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, _, stderr := cli(t, nil, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			if c.errWant != "" && !strings.Contains(stderr, c.errWant) {
				t.Errorf("stderr %q does not contain %q", stderr, c.errWant)
			}
			if c.errWant == "" && c.code != 2 && stderr != "" {
				t.Errorf("unexpected stderr %q", stderr)
			}
		})
	}
}

func TestUsageErrorPointsToHelp(t *testing.T) {
	useTestRules(t)
	writeTree(t, map[string]string{"a.yaml": "a: 1\n"})
	_, stdout, stderr := cli(t, nil, "--select", "TL9999", "a.yaml")
	if stdout != "" {
		t.Errorf("a usage error printed a report: %q", stdout)
	}
	want := "trainlint: unknown rule selector \"TL9999\" in --select"
	if !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "trainlint --help") {
		t.Errorf("stderr = %q, want it to start with %q and point to --help", stderr, want)
	}
}

// decode runs the CLI with --format json and decodes the result.
func decode(t *testing.T, stdin io.Reader, args ...string) (int, lint.Result) {
	t.Helper()
	code, out, stderr := cli(t, stdin, append([]string{"--format", "json"}, args...)...)
	var res lint.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s\nstderr: %s", err, out, stderr)
	}
	return code, res
}

func paths(res lint.Result) []string {
	var ps []string
	for _, f := range res.Files {
		ps = append(ps, filepath.ToSlash(f.Path))
	}
	return ps
}

func TestStdin(t *testing.T) {
	useTestRules(t)
	writeTree(t, nil)

	code, res := decode(t, strings.NewReader("warn_me: 1\n"), "-")
	if code != 1 || len(res.Files) != 1 || res.Files[0].Path != "<stdin>" || res.Files[0].Format != "yaml" {
		t.Fatalf("stdin: exit %d, files %+v", code, res.Files)
	}
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].File != "<stdin>" || res.Diagnostics[0].Line != 1 {
		t.Fatalf("stdin diagnostics: %+v", res.Diagnostics)
	}

	// --stdin-filename names the input and so chooses its format.
	code, res = decode(t, strings.NewReader(`{"warn_me": 1}`), "--stdin-filename", "configs/run.json", "-")
	if code != 1 || len(res.Files) != 1 || res.Files[0].Path != "configs/run.json" || res.Files[0].Format != "json" {
		t.Fatalf("stdin-filename: exit %d, files %+v", code, res.Files)
	}

	// No arguments with something piped in lints standard input.
	var out bytes.Buffer
	if code := run(nil, strings.NewReader("a: [\n"), &out, io.Discard); code != 1 || !strings.Contains(out.String(), "<stdin>:1:") {
		t.Fatalf("piped stdin without args: exit %d, output %q", code, out.String())
	}

	// Standard input can be read once only.
	if code, _, stderr := cli(t, strings.NewReader("a: 1\n"), "-", "-"); code != 2 || !strings.Contains(stderr, "only once") {
		t.Fatalf("- -: exit %d, stderr %q", code, stderr)
	}
}

func TestWalkRespectsGitignore(t *testing.T) {
	useTestRules(t)
	writeTree(t, map[string]string{
		".git/HEAD":                       "ref: refs/heads/main\n",
		".git/config.yaml":                "a: 1\n",
		".git/info/exclude":               "excluded.yaml\n",
		".gitignore":                      "# generated\nbuild/\n*.gen.yaml\n!keep.gen.yaml\n/anchored.yaml\ndocs/**/skip.yaml\n",
		"a.yaml":                          "a: 1\n",
		"b.yml":                           "a: 1\n",
		"c.json":                          "{}\n",
		"d.toml":                          "a = 1\n",
		"notes.txt":                       "a: [\n",
		"anchored.yaml":                   "a: 1\n",
		"excluded.yaml":                   "a: 1\n",
		"x.gen.yaml":                      "a: 1\n",
		"keep.gen.yaml":                   "a: 1\n",
		"build/out.yaml":                  "a: 1\n",
		"node_modules/pkg/package.json":   "{}\n",
		"docs/skip.yaml":                  "a: 1\n",
		"docs/deep/er/skip.yaml":          "a: 1\n",
		"docs/deep/keep.yaml":             "a: 1\n",
		"sub/anchored.yaml":               "a: 1\n",
		"sub/.gitignore":                  "local.yaml\n!x.gen.yaml\nonly-dir/\n",
		"sub/local.yaml":                  "a: 1\n",
		"sub/x.gen.yaml":                  "a: 1\n",
		"sub/only-dir/y.yaml":             "a: 1\n",
		"sub/only-dir.yaml":               "a: 1\n",
		"sub/deeper/local.yaml":           "a: 1\n",
		"sub/deeper/build/inner/out.yaml": "a: 1\n",
	})
	want := []string{
		"a.yaml", "b.yml", "c.json", "d.toml", "docs/deep/keep.yaml", "keep.gen.yaml",
		"sub/anchored.yaml", "sub/only-dir.yaml", "sub/x.gen.yaml",
	}
	_, res := decode(t, nil, ".")
	if got := paths(res); !reflect.DeepEqual(got, want) {
		t.Errorf("walking .:\n got %q\nwant %q", got, want)
	}

	// Walking a sub-folder still honours the repository's ignore files above it.
	_, res = decode(t, nil, "sub")
	if got, want := paths(res), []string{"sub/anchored.yaml", "sub/only-dir.yaml", "sub/x.gen.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("walking sub:\n got %q\nwant %q", got, want)
	}

	// A file named on the command line is linted whatever its extension or ignore status, once.
	code, res := decode(t, nil, "notes.txt", "build/out.yaml", "./notes.txt")
	if got, want := paths(res), []string{"build/out.yaml", "notes.txt"}; !reflect.DeepEqual(got, want) || code != 1 {
		t.Errorf("explicit files: exit %d, got %q, want %q", code, got, want)
	}
}

func TestGitignorePatterns(t *testing.T) {
	f := parseIgnore("/r", []byte(strings.Join([]string{
		"*.log", "!important.log", "/top.yaml", "logs/", "a/**/z.yaml", "**/cache", "out/**",
		`\#hash.yaml`, `\!bang.yaml`, "trailing.yaml   ", "[abc]x.yaml", "[!q]y.yaml", "?.json",
	}, "\n")))
	st := ignoreStack{f}
	cases := []struct {
		path  string
		dir   bool
		want  bool
		label string
	}{
		{"/r/x.log", false, true, "glob"},
		{"/r/deep/x.log", false, true, "glob at depth"},
		{"/r/important.log", false, false, "negation"},
		{"/r/top.yaml", false, true, "anchored"},
		{"/r/sub/top.yaml", false, false, "anchored only at its folder"},
		{"/r/logs", true, true, "dir-only"},
		{"/r/logs", false, false, "dir-only skips files"},
		{"/r/a/z.yaml", false, true, "** zero folders"},
		{"/r/a/b/c/z.yaml", false, true, "** many folders"},
		{"/r/b/z.yaml", false, false, "** keeps its prefix"},
		{"/r/x/y/cache", true, true, "leading **"},
		{"/r/out/q.yaml", false, true, "trailing **"},
		{"/r/out", true, false, "trailing ** is the contents only"},
		{"/r/#hash.yaml", false, true, "escaped #"},
		{"/r/!bang.yaml", false, true, "escaped !"},
		{"/r/trailing.yaml", false, true, "trailing spaces trimmed"},
		{"/r/bx.yaml", false, true, "class"},
		{"/r/dx.yaml", false, false, "class miss"},
		{"/r/zy.yaml", false, true, "negated class"},
		{"/r/qy.yaml", false, false, "negated class miss"},
		{"/r/a.json", false, true, "?"},
		{"/r/ab.json", false, false, "? is one character"},
		{"/other/x.log", false, false, "outside the file's folder"},
	}
	for _, c := range cases {
		if got := st.ignored(c.path, c.dir); got != c.want {
			t.Errorf("%s: ignored(%q, dir=%v) = %v, want %v", c.label, c.path, c.dir, got, c.want)
		}
	}
	// A deeper file overrides a shallower one.
	st = ignoreStack{parseIgnore("/r", []byte("*.yaml\n")), parseIgnore("/r/keep", []byte("!*.yaml\n"))}
	if st.ignored("/r/keep/a.yaml", false) || !st.ignored("/r/a.yaml", false) {
		t.Error("nested negation does not override the root pattern")
	}
}

func TestSelectIgnore(t *testing.T) {
	useTestRules(t)
	writeTree(t, map[string]string{"both.yaml": "warn_me: 1\ninfo_me: 1\n"})
	codes := func(args ...string) []string {
		t.Helper()
		_, res := decode(t, nil, append(args, "both.yaml")...)
		var cs []string
		for _, d := range res.Diagnostics {
			cs = append(cs, d.Code)
		}
		return cs
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"TL990", "TL991"}},
		{[]string{"--select", "TL990"}, []string{"TL990"}},
		{[]string{"--select", "test-info"}, []string{"TL991"}},
		{[]string{"--select", "TL001,TL991"}, []string{"TL991"}},
		{[]string{"--select", "TL001", "--select", "TL990"}, []string{"TL990"}},
		{[]string{"--select", "tracking"}, []string{"TL990", "TL991"}},
		{[]string{"--select", "TL99"}, []string{"TL990", "TL991"}},
		{[]string{"--ignore", "TL990"}, []string{"TL991"}},
		{[]string{"--ignore", "tracking"}, nil},
		{[]string{"--select", "TL99", "--ignore", "test-warning"}, []string{"TL991"}},
	} {
		if got := codes(c.args...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: got %v, want %v", c.args, got, c.want)
		}
	}
}

// Flags may follow paths, and "--" ends the flags.
func TestInterleavedFlags(t *testing.T) {
	useTestRules(t)
	writeTree(t, map[string]string{"w.yaml": "warn_me: 1\n", "--odd.yaml": "warn_me: 1\n"})
	code, res := decode(t, nil, "w.yaml", "--ignore", "TL990")
	if code != 0 || len(res.Diagnostics) != 0 || len(res.Files) != 1 {
		t.Errorf("flags after a path: exit %d, %+v", code, res)
	}
	code, res = decode(t, nil, "--", "--odd.yaml")
	if code != 1 || len(res.Files) != 1 || res.Files[0].Path != "--odd.yaml" {
		t.Errorf("path after --: exit %d, %+v", code, res.Files)
	}
}

func TestJSONContract(t *testing.T) {
	useTestRules(t)
	writeTree(t, map[string]string{"clean.yaml": "a: 1\n", "cfg/w.yaml": "x: 1\nwarn_me: 16\n"})

	// Empty arrays are arrays, never null.
	code, out, _ := cli(t, nil, "--format", "json", "clean.yaml")
	if code != 0 || !strings.Contains(out, `"diagnostics": []`) || !strings.HasSuffix(out, "}\n") || strings.HasSuffix(out, "\n\n") {
		t.Fatalf("clean JSON (exit %d):\n%s", code, out)
	}

	_, out, _ = cli(t, nil, "--format", "json", ".")
	if !strings.HasPrefix(out, "{\n  \"version\": 1,\n  \"tool\": {\n    \"name\": \"trainlint\",") {
		t.Errorf("not two-space indented in contract order:\n%s", out)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if m["version"] != 1.0 {
		t.Errorf("version = %v", m["version"])
	}
	tool := m["tool"].(map[string]any)
	if tool["name"] != "trainlint" || tool["version"] != lint.Version {
		t.Errorf("tool = %v", tool)
	}
	files := m["files"].([]any)
	if len(files) != 2 {
		t.Fatalf("files = %v", files)
	}
	f0 := files[0].(map[string]any)
	if f0["path"] != "cfg/w.yaml" || f0["format"] != "yaml" || f0["framework"] == "" {
		t.Errorf("files[0] = %v (want sorted by path)", f0)
	}
	diags := m["diagnostics"].([]any)
	if len(diags) != 1 {
		t.Fatalf("diagnostics = %v", diags)
	}
	d := diags[0].(map[string]any)
	want := map[string]any{
		"code": "TL990", "rule": "test-warning", "category": "tracking", "severity": "warning",
		"file": "cfg/w.yaml", "line": 2.0, "column": 1.0, "end_line": 2.0, "end_column": 8.0,
		"key": "warn_me", "message": `key "warn_me" is set`, "help": "delete the key",
		"url": "https://trainlint.github.io/rules/test-warning/",
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("diagnostic:\n got %v\nwant %v", d, want)
	}
}

func TestTextGolden(t *testing.T) {
	useTestRules(t)
	writeTree(t, map[string]string{
		"cfg/train.yaml": "model: llama\nwarn_me: 16\ninfo_me:\n  - x\n",
		"cfg/ok.yaml":    "a: 1\n",
	})
	code, out, stderr := cli(t, nil, "--fail-on", "info", "cfg")
	want := `cfg/train.yaml:2:1: warning[TL990 test-warning] key "warn_me" is set
  2 | warn_me: 16
    | ^~~~~~~
  help: delete the key
  see: https://trainlint.github.io/rules/test-warning/

cfg/train.yaml:3:1: info[TL991 test-info] key "info_me" is set
  3 | info_me:
    | ^~~~~~~
  help: delete the key
  see: https://trainlint.github.io/rules/test-info/

2 findings (1 warning, 1 info) in 1 of 2 files
`
	if code != 1 || out != want || stderr != "" {
		t.Errorf("exit %d, stderr %q, output:\n%s\nwant:\n%s", code, stderr, out, want)
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour in output that is not a terminal")
	}

	code, out, _ = cli(t, nil, "--quiet", "cfg")
	if want := "cfg/train.yaml:2:1: warning[TL990 test-warning] key \"warn_me\" is set\ncfg/train.yaml:3:1: info[TL991 test-info] key \"info_me\" is set\n"; code != 1 || out != want {
		t.Errorf("--quiet: exit %d, output:\n%s", code, out)
	}

	_, out, _ = cli(t, nil, "cfg/ok.yaml")
	if out != "no findings in 1 file\n" {
		t.Errorf("clean output %q", out)
	}
}

func TestOutputFiles(t *testing.T) {
	useTestRules(t)
	dir := writeTree(t, map[string]string{"w.yaml": "warn_me: 1\n"})
	out := filepath.Join(dir, "res.json")
	code, stdout, _ := cli(t, nil, "w.yaml", "--output", "json="+out, "--output=text="+filepath.Join(dir, "res.txt"))
	if code != 1 || !strings.HasPrefix(stdout, "w.yaml:1:1: warning[TL990") {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res lint.Result
	if err := json.Unmarshal(data, &res); err != nil || len(res.Diagnostics) != 1 {
		t.Errorf("--output json: %v %s", err, data)
	}
	txt, _ := os.ReadFile(filepath.Join(dir, "res.txt"))
	if string(txt) != stdout {
		t.Errorf("--output text differs from the terminal output:\n%s", txt)
	}
	if code, _, stderr := cli(t, nil, "w.yaml", "--output", "json="+filepath.Join(dir, "no", "such", "dir.json")); code != 2 || !strings.Contains(stderr, "cannot write json output") {
		t.Errorf("unwritable output: exit %d, stderr %q", code, stderr)
	}
}

func TestGitHubActionsDefault(t *testing.T) {
	useTestRules(t)
	writeTree(t, map[string]string{"w.yaml": "warn_me: 1\n"})
	var out bytes.Buffer
	t.Setenv("NO_COLOR", "1")
	t.Setenv("GITHUB_ACTIONS", "true")
	run([]string{"w.yaml"}, nil, &out, io.Discard)
	gh, _ := report.Get("github")
	var want bytes.Buffer
	if gh != nil {
		res, src, _ := lintInputs([]input{{Path: "w.yaml", FSPath: "w.yaml"}}, nil, allRules(), sameOptions(lint.Options{}), 1)
		gh(&want, res, report.Options{Sources: src, Rules: allRules()})
	} else {
		want.WriteString("w.yaml:1:1: warning[TL990")
	}
	if !strings.HasPrefix(out.String(), want.String()) {
		t.Errorf("GITHUB_ACTIONS=true output:\n%s\nwant:\n%s", out.String(), want.String())
	}
	// An explicit --format wins.
	out.Reset()
	run([]string{"--format", "json", "w.yaml"}, nil, &out, io.Discard)
	if !strings.HasPrefix(out.String(), "{") {
		t.Errorf("--format json under GITHUB_ACTIONS: %q", out.String())
	}
}

func TestRulesJSON(t *testing.T) {
	code, out, _ := cli(t, nil, "rules", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var entries []lint.RuleInfo
	if err := dec.Decode(&entries); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(lint.Catalogue(rules.All()))
	if !reflect.DeepEqual(decodeJSON(t, []byte(out)), decodeJSON(t, want)) {
		t.Errorf("rules --format json is not the catalogue of rules.All():\n%s", out)
	}
	found := false
	for _, e := range entries {
		if e.Code == "" || e.Name == "" || e.Title == "" || e.Category == "" || e.URL == "" || e.Severity == 0 {
			t.Errorf("incomplete entry %+v", e)
		}
		if e.Code == "TL001" {
			found = e.Name == "parse-error" && e.Severity == lint.Error && e.URL == "https://trainlint.github.io/rules/parse-error/"
		}
	}
	if !found {
		t.Error("TL001 parse-error missing or wrong")
	}
	_, text, _ := cli(t, nil, "rules")
	if !strings.Contains(text, "TL001") || !strings.Contains(text, "parse-error") {
		t.Errorf("rules text:\n%s", text)
	}
}

func TestExplain(t *testing.T) {
	useTestRules(t)
	code, out, _ := cli(t, nil, "explain", "tl990")
	for _, want := range []string{"TL990 test-warning\nTest warning\n", "severity:   warning", "category:   tracking",
		"frameworks: all", "page:       https://trainlint.github.io/rules/test-warning/", "Why it matters\n  Fires on `warn_me`.\n\n  Second paragraph.\n",
		"How to fix it\n  Remove `warn_me`.\n",
		"How to suppress it\n", "# trainlint: disable=test-warning -- reason",
		"Options\n  - `k` (integer, default `8`): How many times.\n", "    [rules.test-warning]\n    k = 8\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain output lacks %q:\n%s", want, out)
		}
	}
	// The order of the rule's page (site/ruledoc): the fix first.
	if fix, why := strings.Index(out, "How to fix it"), strings.Index(out, "Why it matters"); fix > why {
		t.Errorf("explain shows why (%d) before the fix (%d)", why, fix)
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	_, out2, _ := cli(t, nil, "explain", "test-warning")
	if out2 != out {
		t.Error("explain by name differs from explain by code")
	}
	_, _, stderr := cli(t, nil, "explain", "test-warnin")
	if !strings.Contains(stderr, "did you mean TL990 test-warning?") {
		t.Errorf("no suggestion: %q", stderr)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := cli(t, nil, "version")
	if code != 0 || !strings.HasPrefix(out, "trainlint "+lint.Version+"\n") {
		t.Errorf("version: exit %d, %q", code, out)
	}
	for _, want := range []string{"\nmodule:  github.com/trainlint/trainlint ", "\ncommit:  ", "\ngo:      go"} {
		if !strings.Contains(out, want) {
			t.Errorf("version lacks %q:\n%s", want, out)
		}
	}
}

// Linting on many workers gives byte-identical output to linting on one.
func TestParallelMatchesSequential(t *testing.T) {
	dir := t.TempDir()
	var ins []input
	for i := range 60 {
		p := filepath.Join(dir, fmt.Sprintf("f%02d.yaml", (i*37)%60))
		text := fmt.Sprintf("n: %d\nwarn_me: 1\n", i)
		if i%7 == 0 {
			text = "a: [\n"
		}
		os.WriteFile(p, []byte(text), 0o644)
		ins = append(ins, input{Path: p, FSPath: p})
	}
	rs := append([]*lint.Rule{testWarn}, rules.All()...)
	corpus := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err == nil {
		more, errs, _ := collectInputs([]string{corpus}, "")
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		ins = append(ins, more...)
	}
	render := func(workers int) string {
		res, src, errs := lintInputs(ins, nil, rs, sameOptions(lint.Options{}), workers)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		var b bytes.Buffer
		w, _ := report.Get("json")
		w(&b, res, report.Options{})
		tw, _ := report.Get("text")
		tw(&b, res, report.Options{Sources: src})
		return b.String()
	}
	seq := render(1)
	for _, n := range []int{4, 16} {
		if par := render(n); par != seq {
			t.Fatalf("%d workers differ from 1", n)
		}
	}
	if len(ins) < 60 || !strings.Contains(seq, "TL990") {
		t.Fatal("nothing was linted")
	}
}

// End to end with the real catalogue: passes once TL202 and the Hugging Face dialect exist.
func TestEvalBatchEndToEnd(t *testing.T) {
	if rules.ByName("eval-batch-smaller-than-train") == nil {
		t.Fatal("TL202 eval-batch-smaller-than-train is not registered")
	}
	writeTree(t, map[string]string{"sft.yaml": "output_dir: out\nlearning_rate: 2.0e-5\nper_device_train_batch_size: 16\nper_device_eval_batch_size: 4\neval_strategy: steps\neval_steps: 100\n"})
	code, res := decode(t, nil, "--select", "TL202", "sft.yaml")
	if code != 1 || len(res.Diagnostics) != 1 {
		t.Fatalf("exit %d, %+v", code, res)
	}
	d := res.Diagnostics[0]
	if d.Code != "TL202" || d.Rule != "eval-batch-smaller-than-train" || d.Line != 4 || d.Key != "per_device_eval_batch_size" ||
		!strings.Contains(d.Message, "4") || !strings.Contains(d.Message, "16") || res.Files[0].Framework != "huggingface" {
		t.Errorf("diagnostic %+v in %+v", d, res.Files)
	}
	_, out, _ := cli(t, nil, "--select", "TL202", "sft.yaml")
	if !strings.HasPrefix(out, "sft.yaml:4:") || !strings.Contains(out, "  4 | per_device_eval_batch_size: 4\n") {
		t.Errorf("text:\n%s", out)
	}
}

// explain shows a rule's first bad and good example with the engine's real findings.
func TestExplainExamples(t *testing.T) {
	var r *lint.Rule
	for _, x := range rules.All() {
		if bad, _ := rules.FirstExamples(x.Name); bad != nil {
			r = x
			break
		}
	}
	if r == nil {
		t.Fatal("no rule has a testdata archive")
	}
	bad, _ := rules.FirstExamples(r.Name)
	code, out, _ := cli(t, nil, "explain", r.Name)
	if code != 0 || !strings.Contains(out, "Example that triggers it ("+bad.Name) {
		t.Fatalf("exit %d, no bad example in:\n%s", code, out)
	}
	if !strings.Contains(out, "  "+bad.Name+":") || !strings.Contains(out, "["+r.Code+" "+r.Name+"]") {
		t.Errorf("the bad example's findings are not shown:\n%s", out)
	}
}

func TestRenderMarkdown(t *testing.T) {
	md := "Short words that need wrapping at twenty.\n\n- an item that goes on\n  past the line\n- two\n\n```\ncode  stays\n```\n"
	want := "  Short words that\n  need wrapping at\n  twenty.\n\n  - an item that\n    goes on past the\n    line\n  - two\n\n    code  stays\n"
	if got := renderMarkdown(md, "  ", 20); got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
}

func TestColorEnabled(t *testing.T) {
	for _, c := range []struct {
		mode, noColor, force, term string
		terminal                   bool
		want                       bool
	}{
		{"auto", "", "", "xterm-256color", true, true},
		{"auto", "", "", "xterm", false, false},
		{"never", "", "", "xterm", true, false}, // also --no-color
		{"auto", "1", "", "xterm", true, false},
		{"auto", "", "", "dumb", true, false},
		{"always", "", "", "xterm", false, true},
		{"always", "1", "", "dumb", false, true}, // the flag beats the environment
		{"never", "", "1", "xterm", true, false},
		{"auto", "", "1", "", false, true}, // FORCE_COLOR: CI logs that render ANSI
		{"auto", "", "0", "xterm", false, false},
		{"auto", "", "false", "xterm", false, false},
		{"auto", "1", "1", "xterm", true, false}, // NO_COLOR wins over FORCE_COLOR
	} {
		if got := colorEnabled(c.mode, c.noColor, c.force, c.term, c.terminal); got != c.want {
			t.Errorf("colorEnabled(%q, NO_COLOR=%q, FORCE_COLOR=%q, TERM=%q, terminal %v) = %v", c.mode, c.noColor, c.force, c.term, c.terminal, got)
		}
	}
}

func TestEmptyFolderWarns(t *testing.T) {
	useTestRules(t)
	writeTree(t, map[string]string{"docs/readme.md": "# x\n", "a.yaml": "a: 1\n"})
	code, out, stderr := cli(t, nil, "docs", "a.yaml")
	if code != 0 || out != "no findings in 1 file\n" || !strings.Contains(stderr, `warning: no .yaml, .yml, .json, .toml, .gin or .py files to check in "docs"`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// Folders are walked for .gin and .py configs; a .py that is not a config of a known framework
// (a script, a helper module with a dict) is skipped without a word, a broken config is not.
func TestWalkCodeConfigs(t *testing.T) {
	writeTree(t, map[string]string{
		"configs/retinanet.py": "_base_ = ['./base.py']\ntrain_dataloader = dict(batch_size=16, num_workers=4)\nval_dataloader = dict(batch_size=4, num_workers=2)\n",
		"configs/t5.gin":       "from t5x import utils\ntrain/utils.DatasetConfig.batch_size = 128\ntrain_eval/utils.DatasetConfig.batch_size = 32\n",
		"configs/broken.py":    "def get_config(:\n",
		"tools/util.py":        "COLORS = {'red': 1}\nbatch_size = 1\n",
		"tools/train.py":       "import argparse\n\ndef main():\n    pass\n",
	})
	code, out, stderr := cli(t, nil, "--format", "json", ".")
	if code != 1 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{`"path": "configs/retinanet.py"`, `"framework": "mmengine"`, `"path": "configs/t5.gin"`, `"framework": "t5x"`, `"path": "configs/broken.py"`, `"rule": "parse-error"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "tools/") || stderr != "" {
		t.Errorf("non-config .py files reported: %s\nstderr %q", out, stderr)
	}
}

// --only-configs (pre-commit's entry, which names every staged file) takes named files as a
// folder walk takes them: configs are linted, everything a walk passes over or finds no
// config in is skipped without a word, and --fix leaves those files alone.
func TestOnlyConfigs(t *testing.T) {
	files := map[string]string{
		"configs/retinanet.py":        "train_dataloader = dict(batch_size=16, num_workers=4)\nval_dataloader = dict(batch_size=4, num_workers=2)\n",
		"configs/t5.gin":              "from t5x import utils\nutils.SaveCheckpointConfig.period = 1000\nutils.SaveCheckpointConfig.keep = 2\n",
		"configs/broken.py":           "def get_config(:\n",
		"tools/util.py":               "COLORS = {'red': 1}\nbatch_size = 1\n",
		"tools/py2.py":                "print \"hi\"\n",
		"tools/big.py":                strings.Repeat("x = [\n", 200),
		"web/tsconfig.json":           "{\n  // comments\n  \"compilerOptions\": {},\n}\n",
		".github/workflows/ci.yml":    "on: [push]\njobs: {}\n",
		"README.md":                   "# project\n",
		"data/train.jsonl":            "{\"a\": 1}\n{\"a\": 2}\n",
		"templates/meta.yaml":         "{% set v = 1 %}\npackage:\n  version: {{ v }}\n",
		"data/test.json":              "{\"a\": 1}\n{\"a\": 2}\n",
		"pyproject.toml":              "[project]\nname = \"x\"\n",
		"configs/sft_ok.yaml":         "per_device_train_batch_size: 8\nper_device_eval_batch_size: 8\n",
		"logs/version_0/hparams.yaml": "trainer:\n  max_epochs: 1\n",
		"calib/stereo_calib.yaml":     "%YAML:1.0\n---\nimage_width: 1440\ncamera_matrix_left: !!opencv-matrix\n   rows: 3\n",
		"eval/results.json":           strings.Repeat("\x00", 64) + "{\"a\": 1}\n",
		"docker/build_and_push.yaml":  "#!/usr/bin/env bash\n\necho \"Builds from the repo.\"\n# wait 2 seconds\nsleep 2\ndocker build -t x .\n",
		"configs/exec_ok.yaml":        "#!/usr/bin/env runner\nper_device_train_batch_size: 8\nper_device_eval_batch_size: 8\n",
		"configs/exec_broken.yaml":    "#!/usr/bin/env -S python train.py --config\nbatch_size: [8\n",
	}
	dir := writeTree(t, files)
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	code, out, stderr := cli(t, nil, append([]string{"--format", "json", "--only-configs"}, names...)...)
	if code != 1 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var res lint.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(paths(res), " ")
	if want := "configs/broken.py configs/exec_broken.yaml configs/exec_ok.yaml configs/retinanet.py configs/sft_ok.yaml configs/t5.gin"; got != want {
		t.Errorf("linted %q, want %q\nstderr %q", got, want, stderr)
	}
	for _, want := range []string{`"rule": "parse-error"`, `"rule": "eval-batch-smaller-than-train"`, `"rule": "checkpoint-keeps-latest-not-best"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	// Without the flag every named file is linted: the Python 2 script is a parse error.
	if _, out, _ := cli(t, nil, "--format", "json", "tools/py2.py"); !strings.Contains(out, "parse-error") {
		t.Errorf("a named script without --only-configs: %s", out)
	}
	// --fix rewrites the configs' fixable findings and no other file.
	if code, _, stderr := cli(t, nil, append([]string{"--fix", "--only-configs"}, names...)...); code != 1 {
		t.Fatalf("--fix: exit %d, stderr %q", code, stderr)
	}
	for name, text := range files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if changed, fixable := string(b) != text, name == "configs/retinanet.py"; changed != fixable {
			t.Errorf("--fix --only-configs: %s changed %v:\n%s", name, changed, b)
		}
	}
}

// A gin include may name its file from the folder above the repository (tensor2robot's
// `include 'tensor2robot/research/...'`, run with the repository importable as a package): the
// run reads it when the name's first part is the repository's folder, walked or named.
func TestGinIncludeFromAboveRepository(t *testing.T) {
	useTestRules(t)
	writeTree(t, map[string]string{
		"tensor2robot/.git":                   "gitdir: elsewhere\n",
		"tensor2robot/research/c/common.gin":  "train_eval_model.max_train_steps = 10\n",
		"tensor2robot/research/c/run.gin":     "include 'tensor2robot/research/c/common.gin'\ntrain_eval_model.eval_steps = 5\n",
		"tensor2robot/research/c/missing.gin": "include 'tensor2robot/research/c/gone.gin'\ntrain_eval_model.eval_steps = 5\n",
	})
	for _, args := range [][]string{{"tensor2robot"}, {"tensor2robot/research/c/run.gin", "tensor2robot/research/c/missing.gin"}} {
		code, out, _ := cli(t, nil, append([]string{"--format", "json"}, args...)...)
		if strings.Contains(out, "common.gin\\\" not found") || !strings.Contains(out, "gone.gin\\\" not found in the tree") {
			t.Errorf("%q: exit %d\n%s", args, code, out)
		}
	}
}

// A repository that is a Python package (an __init__.py at its root) is imported by its
// package name, which a clone need not carry (google-research/tensor2robot checked out as
// t2r): its includes that name the package first are read at the root whatever the folder is
// called, when the tree's own Python imports the package by that name. Without the
// __init__.py, or for another first part (a dependency's configs), the name must match the
// folder, as before.
func TestGinIncludeFromAbovePackageUnderAnotherName(t *testing.T) {
	useTestRules(t)
	for _, c := range []struct {
		name      string
		pkg       bool
		include   string
		wantFound bool
	}{
		{"package imported by its name", true, "tensor2robot", true},
		{"no __init__.py", false, "tensor2robot", false},
		{"a name the tree does not import", true, "other_lib", false},
	} {
		files := map[string]string{
			"t2r/.git":                   "gitdir: elsewhere\n",
			"t2r/utils/io.py":            "from tensor2robot.utils import config\nimport numpy as np\n",
			"t2r/research/c/common.gin":  "train_eval_model.max_train_steps = 10\n",
			"t2r/research/c/run.gin":     "include '" + c.include + "/research/c/common.gin'\ntrain_eval_model.eval_steps = 5\n",
			"t2r/research/c/missing.gin": "include 'tensor2robot/research/c/gone.gin'\ntrain_eval_model.eval_steps = 5\n",
		}
		if c.pkg {
			files["t2r/__init__.py"] = "# coding=utf-8\n"
		}
		writeTree(t, files)
		code, out, _ := cli(t, nil, "--format", "json", "t2r")
		if found := !strings.Contains(out, "common.gin\\\" not found"); found != c.wantFound || !strings.Contains(out, "gone.gin\\\" not found in the tree") {
			t.Errorf("%s: exit %d\n%s", c.name, code, out)
		}
	}
}

// A base recipe its siblings include (super-gradients' cityscapes_segformer.yaml, whose
// ${architecture} only the b0..b5 recipes set) is part of their runs; launched alone by a
// script's @hydra.main, it is a run of its own, and its unresolved reference is reported.
func TestSiblingBaseLaunchedByScript(t *testing.T) {
	useTestRules(t)
	files := map[string]string{
		"repo/.git":                "gitdir: elsewhere\n",
		"repo/recipes/seg.yaml":    "defaults:\n  - training_hyperparams: default_train_params\n  - _self_\n\nexperiment_name: ${architecture}_cityscapes\n",
		"repo/recipes/seg_b0.yaml": "defaults:\n  - seg\n  - _self_\n\narchitecture: segformer_b0\n",
		"repo/recipes/training_hyperparams/default_train_params.yaml": "max_epochs: 2\n",
	}
	for script, want := range map[string]bool{"": false, "@hydra.main(version_base=None, config_path=\"recipes\", config_name=\"seg\")\ndef main(cfg):\n    train(cfg)\n": true} {
		delete(files, "repo/train.py")
		if script != "" {
			files["repo/train.py"] = script
		}
		writeTree(t, files)
		code, out, _ := cli(t, nil, "--format", "json", "repo")
		if got := strings.Contains(out, "${architecture} names no key"); got != want {
			t.Errorf("script %q: exit %d\n%s", script, code, out)
		}
	}
}

// A file a gin include names from above the repository is part of the run, not a run of its
// own: its keep-N is judged with the checkpointer the including file sets (discovery, not only
// the composition, sees the repository's name).
func TestGinIncludeFromAboveRepositoryIsFragment(t *testing.T) {
	writeTree(t, map[string]string{
		"proj/.git":           "gitdir: elsewhere\n",
		"proj/cfg/common.gin": "from t5x import utils\nutils.SaveCheckpointConfig.period = 1000\nutils.SaveCheckpointConfig.keep = 5\n",
		"proj/cfg/run.gin":    "include 'proj/cfg/common.gin'\nfrom t5x import checkpoints\nutils.SaveCheckpointConfig.checkpointer_cls = @checkpoints.SaveBestCheckpointer\n",
	})
	if code, out, _ := cli(t, nil, "proj"); code != 0 || !strings.HasPrefix(out, "no findings") {
		t.Errorf("proj: exit %d\n%s", code, out)
	}
}

// The CLI reads the bases a YAML file names (__base__, and theirs in turn) for the keys they
// set: a base with the trainer's callbacks takes the Trainer's checkpoint default away, one with
// only the data leaves the finding, and a base that cannot be read drops every default.
func TestBaseFilesRead(t *testing.T) {
	const run = "__base__:\n  - ../default_runtime.yaml\ntrainer:\n  max_epochs: 10\nmodel:\n  class_path: m.Model\n"
	for base, want := range map[string]int{
		"trainer:\n  callbacks:\n    - class_path: x.ModelCheckpoint\n      init_args: {monitor: val/loss, save_top_k: 3}\n": 0,
		"seed_everything: 1\ndata:\n  class_path: m.Data\n":                                                                  1,
		"": 0, // no base file
	} {
		files := map[string]string{".git/HEAD": "ref: refs/heads/main\n", "configs/runs/run.yaml": run}
		if base != "" {
			files["configs/default_runtime.yaml"] = base
		}
		dir := writeTree(t, files)
		_, res, _ := checkJSON(t, "--select", "TL301", "--framework", "lightning", filepath.Join(dir, "configs/runs/run.yaml"))
		if len(res.Diagnostics) != want {
			t.Errorf("base %q: %d TL301, want %d: %+v", base, len(res.Diagnostics), want, res.Diagnostics)
		}
	}
}

// Bases that name each other, or one base many times, are each read once, and their keys are
// read: two bases that name each other and set only the data leave the Trainer's checkpoint
// default to the run file, which gets the finding.
func TestBaseFilesCycle(t *testing.T) {
	const loop = "__base__: [a.yaml, a.yaml, b.yaml, b.yaml]\ndata:\n  class_path: m.Data\n"
	dir := writeTree(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "c/a.yaml": loop, "c/b.yaml": loop,
		"c/run.yaml": "__base__: [a.yaml, b.yaml]\ntrainer:\n  max_epochs: 10\nmodel:\n  class_path: m.M\n"})
	_, res, _ := checkJSON(t, "--select", "TL301", "--framework", "lightning", filepath.Join(dir, "c/run.yaml"))
	if len(res.Diagnostics) != 1 {
		t.Errorf("want the checkpoint default's TL301: %+v", res.Diagnostics)
	}
}

// Bases are read only inside the repository, symbolic links resolved, and only in the forms the
// key reader knows: a base outside it, a Python base or a base nested in a section leaves every
// default of the file dropped (no finding), whatever those bases hold.
func TestBaseFilesConfined(t *testing.T) {
	const data = "seed_everything: 1\ndata:\n  class_path: m.Data\n"
	const body = "trainer:\n  max_epochs: 10\nmodel:\n  class_path: m.Model\n"
	for name, files := range map[string]map[string]string{
		"outside": {"repo/.git/HEAD": "ref: refs/heads/main\n", "outside/rt.yaml": data,
			"repo/configs/run.yaml": "__base__: [../../outside/rt.yaml]\n" + body},
		"python base": {"repo/.git/HEAD": "ref: refs/heads/main\n", "repo/data.yaml": data, "repo/rt.py": "x = 1\n",
			"repo/configs/run.yaml": "__base__: [../rt.py, ../data.yaml]\n" + body},
		"nested": {"repo/.git/HEAD": "ref: refs/heads/main\n", "repo/data.yaml": data, "repo/trainer.yaml": "max_epochs: 3\n",
			"repo/configs/run.yaml": "__base__: [../data.yaml]\ntrainer:\n  __base__: ../trainer.yaml\n  max_epochs: 10\nmodel:\n  class_path: m.Model\n"},
	} {
		dir := writeTree(t, files)
		_, res, _ := checkJSON(t, "--select", "TL301", "--framework", "lightning", filepath.Join(dir, "repo/configs/run.yaml"))
		if len(res.Diagnostics) != 0 {
			t.Errorf("%s: %+v", name, res.Diagnostics)
		}
	}
}
