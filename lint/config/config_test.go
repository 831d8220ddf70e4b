package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	_ "github.com/trainlint/trainlint/lint/dialect" // registers the dialects [[files]] may name
	"github.com/trainlint/trainlint/lint/testfs"
)

// testRules are a small rule set with an option of every type, so the tests do not depend on
// which playbook rules exist.
func testRules() []*lint.Rule {
	return append([]*lint.Rule{
		{Code: "TL201", Name: "eval-interval-time-based", Category: lint.CatEvaluation, Severity: lint.Warning, Title: "Eval by time"},
		{Code: "TL202", Name: "eval-batch-smaller-than-train", Category: lint.CatEvaluation, Severity: lint.Warning, Title: "Eval batch",
			Options: []lint.Option{
				{Name: "min-ratio", Type: "number", Default: 1.0, Doc: "ratio"},
				{Name: "max-steps", Type: "integer", Default: 10, Doc: "steps"},
				{Name: "strict", Type: "boolean", Default: false, Doc: "strict"},
				{Name: "mode", Type: "string", Default: "x", Doc: "mode"},
			}},
		{Code: "TL101", Name: "input-no-prefetch", Category: lint.CatInputPipeline, Severity: lint.Warning, Title: "Prefetch"},
	}, lint.Builtin()...)
}

// tree writes files (path → content) under a new temporary folder and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	testfs.Write(t, root, files)
	return root
}

func TestDiscoveryNearestWins(t *testing.T) {
	root := tree(t, map[string]string{
		".trainlint.toml":               "fail-on = \"error\"\n",
		"repo/.git/HEAD":                "ref: refs/heads/main\n",
		"repo/.trainlint.toml":          "fail-on = \"info\"\nselect = [\"TL2\"]\n",
		"repo/a/b/x.yaml":               "",
		"repo/sub/.trainlint.toml":      "select = [\"TL101\"]\n",
		"repo/sub/deep/x.yaml":          "",
		"norepo/.git/HEAD":              "",
		"norepo/x.yaml":                 "",
		"repo/py/pyproject.toml":        "[project]\nname = \"x\"\n\n[tool.trainlint]\nfail-on = \"warning\"\n",
		"repo/py/x.yaml":                "",
		"repo/nopy/pyproject.toml":      "[project]\nname = \"x\"\n",
		"repo/nopy/x.yaml":              "",
		"repo/both/.trainlint.toml":     "fail-on = \"error\"\n",
		"repo/both/pyproject.toml":      "[tool.trainlint]\nfail-on = \"info\"\n",
		"repo/both/x.yaml":              "",
		"repo/brokenpy/pyproject.toml":  "[project\nname = \n",
		"repo/brokenpy/x.yaml":          "",
		"repo/sub/deep/.trainlint.toml": "extend = \"../.trainlint.toml\"\nfail-on = \"error\"\n",
	})
	l := NewLoader(testRules())
	for _, tc := range []struct {
		file     string
		wantPath string // relative to root; "" = no config
		failOn   lint.Severity
		sel      []string
	}{
		{"repo/a/b/x.yaml", "repo/.trainlint.toml", lint.Info, []string{"TL2"}},
		{"repo/sub/deep/x.yaml", "repo/sub/deep/.trainlint.toml", lint.Error, []string{"TL101"}},
		{"norepo/x.yaml", "", 0, nil}, // .git stops the search: the folder above is another project
		{"repo/py/x.yaml", "repo/py/pyproject.toml", lint.Warning, nil},
		{"repo/nopy/x.yaml", "repo/.trainlint.toml", lint.Info, []string{"TL2"}},
		{"repo/both/x.yaml", "repo/both/.trainlint.toml", lint.Error, nil},
		{"repo/brokenpy/x.yaml", "repo/.trainlint.toml", lint.Info, []string{"TL2"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := l.ForFile(filepath.Join(root, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantPath == "" {
				if c != nil {
					t.Fatalf("found %s, want no config", c.Path)
				}
				return
			}
			if c == nil {
				t.Fatalf("no config found, want %s", tc.wantPath)
			}
			if want := filepath.Join(root, tc.wantPath); c.Path != want {
				t.Errorf("config %s, want %s", c.Path, want)
			}
			if c.FailOn != tc.failOn || !reflect.DeepEqual(c.Select, tc.sel) {
				t.Errorf("fail-on %v select %v, want %v %v", c.FailOn, c.Select, tc.failOn, tc.sel)
			}
		})
	}
}

func TestExtendChain(t *testing.T) {
	root := tree(t, map[string]string{
		"base/.trainlint.toml": `
require-suppression-reason = true
select = ["TL2"]
[context]
hosts = 4
devices-per-host = 8
[rules.eval-batch-smaller-than-train]
severity = "error"
max-steps = 5
[[ignore]]
path = "legacy/*.json"
rules = ["TL202"]
[mapping]
eval.interval_seconds = "trainer.eval_secs"
`,
		"team/mid.toml": `
extend = "../base/.trainlint.toml"
[context]
hosts = 2
[rules.eval-batch-smaller-than-train]
strict = true
[mapping]
"train.batch_size" = "trainer.bs"
`,
		".git/HEAD": "ref: refs/heads/main\n", // a repository: extend may reach anywhere inside it
		"team/proj/.trainlint.toml": `
extend = "../mid.toml"
fail-on = "info"
[[files]]
path = "**/nemo/*.yaml"
framework = "nemo"
`,
	})
	c, err := NewLoader(testRules()).ForDir(filepath.Join(root, "team", "proj"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Chain) != 3 || !strings.HasSuffix(c.Chain[2], filepath.Join("base", ".trainlint.toml")) {
		t.Errorf("chain %v", c.Chain)
	}
	if !c.RequireReason || c.Hosts != 2 || c.DevicesPerHost != 8 || c.FailOn != lint.Info || !reflect.DeepEqual(c.Select, []string{"TL2"}) {
		t.Errorf("merged scalars: %+v", c)
	}
	rs := c.Rules["eval-batch-smaller-than-train"]
	if rs.Severity != lint.Error || !reflect.DeepEqual(rs.Options, map[string]any{"max-steps": 5, "strict": true}) {
		t.Errorf("rule settings %+v", rs)
	}
	if want := map[string]string{"eval.interval_seconds": "trainer.eval_secs", "train.batch_size": "trainer.bs"}; !reflect.DeepEqual(c.Mapping, want) {
		t.Errorf("mapping %v, want %v", c.Mapping, want)
	}
	// Globs are relative to the file that wrote them.
	if o := c.Options(filepath.Join(root, "base", "legacy", "ds.json")); len(o.KeyIgnores) != 1 {
		t.Errorf("base's [[ignore]] does not apply to base/legacy/ds.json: %+v", o.KeyIgnores)
	}
	if o := c.Options(filepath.Join(root, "team", "proj", "legacy", "ds.json")); len(o.KeyIgnores) != 0 {
		t.Errorf("base's [[ignore]] glob applied relative to the wrong folder: %+v", o.KeyIgnores)
	}
	if o := c.Options(filepath.Join(root, "team", "proj", "a", "nemo", "x.yaml")); o.Framework != "nemo" {
		t.Errorf("[[files]] framework: %q", o.Framework)
	}
	if o := c.Options(filepath.Join(root, "team", "proj", "nemo.yaml")); o.Framework != "" {
		t.Errorf("[[files]] framework applied to a non-matching file: %q", o.Framework)
	}
}

func TestExtendErrors(t *testing.T) {
	root := tree(t, map[string]string{
		"a.toml":        "extend = \"b.toml\"\n",
		"b.toml":        "select = [\"TL2\"]\nextend = \"sub/c.toml\"\n",
		"sub/c.toml":    "extend = \"../a.toml\"\n",
		"self.toml":     "extend = \"self.toml\"\n",
		"gone.toml":     "\n\nextend = \"missing.toml\"\n",
		"bad.toml":      "extend = \"badchild.toml\"\n",
		"badchild.toml": "select = 3\n",
	})
	l := NewLoader(testRules())
	for _, tc := range []struct{ file, want string }{
		{"a.toml", `sub/c.toml:1:10: extend cycle: `},
		{"self.toml", `self.toml:1:10: extend cycle: `},
		{"gone.toml", `gone.toml:3:10: extended file `},
		{"bad.toml", `badchild.toml:1:10: key "select" must be an array, not an integer`},
	} {
		_, err := l.Load(filepath.Join(root, tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.file, err, tc.want)
		}
	}
	_, err := l.Load(filepath.Join(root, "a.toml"))
	if err == nil || !strings.Contains(err.Error(), "a.toml -> ") || !strings.HasSuffix(err.Error(), "a.toml") {
		t.Errorf("cycle message does not show the loop: %v", err)
	}
}

// TestSchemaErrors: every mistake names the file, line, column and key.
func TestSchemaErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // "line:col: message"
	}{
		{"misspelt top-level key", "select = [\"TL2\"]\n\nfail_on = \"error\"\n",
			[]string{`3:1: unknown key "fail_on" (did you mean "fail-on"?)`}},
		{"mistyped value", "[context]\nhosts = \"4\"\n",
			[]string{`2:9: key "context.hosts" must be an integer, not a string`}},
		{"below minimum", "[context]\ndevices-per-host = 0\n",
			[]string{`2:20: key "context.devices-per-host" must be at least 1, not 0`}},
		{"bad enum", "fail-on = \"fatal\"\n",
			[]string{`1:11: key "fail-on" must be one of "error", "warning", "info", not "fatal"`}},
		{"nested unknown key", "[context]\nhost = 2\n",
			[]string{`2:1: unknown key "context.host" (did you mean "hosts"?)`}},
		{"unknown rule", "[rules.eval-batch-smaller-than-trian]\nseverity = \"error\"\n",
			[]string{`1:8: unknown rule "eval-batch-smaller-than-trian" in [rules] (did you mean "eval-batch-smaller-than-train"?)`}},
		{"rule table by code", "[rules.TL202]\nseverity = \"error\"\n",
			[]string{`1:8: unknown rule "TL202" in [rules] (rule tables are named by rule name: did you mean "eval-batch-smaller-than-train"?)`}},
		{"unknown rule option", "[rules.eval-batch-smaller-than-train]\nmax-step = 3\n",
			[]string{`2:1: unknown option "max-step" of rule "eval-batch-smaller-than-train" (did you mean "max-steps"?)`}},
		{"rule option type", "[rules.eval-batch-smaller-than-train]\nstrict = \"yes\"\n",
			[]string{`2:10: key "rules.eval-batch-smaller-than-train.strict" must be a boolean, not a string`}},
		{"integer option given a float", "[rules.eval-batch-smaller-than-train]\nmax-steps = 2.5\n",
			[]string{`2:13: key "rules.eval-batch-smaller-than-train.max-steps" must be an integer, not a number`}},
		{"rule severity", "[rules.input-no-prefetch]\nseverity = \"loud\"\n",
			[]string{`2:12: key "rules.input-no-prefetch.severity" must be one of "error", "warning", "info", not "loud"`}},
		{"unknown framework", "[[files]]\npath = \"*.yaml\"\nframework = \"nemmo\"\n",
			[]string{`3:13: key "files[0].framework" must be one of `}},
		{"files entry missing framework", "[[files]]\npath = \"*.yaml\"\n",
			[]string{`1:1: "files[0]" needs the key "framework"`}},
		{"runs entry missing config", "[[runs]]\noverrides = [\"experiment=x\"]\n",
			[]string{`1:1: "runs[0]" needs the key "config"`}},
		{"unknown key in [[runs]]", "[[runs]]\nconfig = \"conf/train.yaml\"\nlaunch = \"a.yaml\"\n",
			[]string{`3:1: unknown key "runs[0].launch" (did you mean "launcher"?)`}},
		{"unknown key in [[ignore]]", "[[ignore]]\npath = \"*.json\"\n\n[[ignore]]\npaths = \"x\"\n",
			[]string{`5:1: unknown key "ignore[1].paths" (did you mean "path"?)`}},
		{"unknown selector", "select = [\"TL2\", \"eval-batch\"]\n",
			[]string{`1:18: unknown rule selector "eval-batch" in "select"`}},
		{"unknown selector in [[ignore]]", "[[ignore]]\nrules = [\"TL9\"]\n",
			[]string{`2:10: unknown rule selector "TL9" in "ignore[0].rules"`}},
		{"unknown mapping concept", "[mapping]\neval.interval_secs = \"a.b\"\n",
			[]string{`2:6: unknown mapping concept "eval.interval_secs" (did you mean "eval.interval_seconds"?)`}},
		{"unknown quoted mapping concept", "[mapping]\n\"eval.every\" = \"a.b\"\n",
			[]string{`2:1: unknown mapping concept "eval.every"`}},
		{"mapping value type", "[mapping]\nhosts = 4\n",
			[]string{`2:9: key "mapping.hosts" must be a string, not an integer`}},
		{"invalid glob", "[[files]]\npath = \"[a\"\nframework = \"nemo\"\n",
			[]string{`2:8: invalid glob "[a"`}},
		{"limits", "[limits]\nmax-depth = -1\nmax-bites = 3\n",
			[]string{`2:13: key "limits.max-depth" must be at least 1, not -1`, `3:1: unknown key "limits.max-bites" (did you mean "max-bytes"?)`}},
		{"invalid toml", "select = [\"TL2\"\nfail-on = 1\n",
			[]string{`2:17: invalid TOML: expected a comma`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, map[string]string{".trainlint.toml": tc.src})
			_, err := NewLoader(testRules()).ForDir(root)
			if err == nil {
				t.Fatalf("no error for\n%s", tc.src)
			}
			var got []string
			var es Errors
			var e *Error
			switch {
			case errors.As(err, &es):
				for _, e := range es {
					got = append(got, fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg))
				}
			case errors.As(err, &e):
				got = append(got, fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg))
			default:
				t.Fatalf("error %T %v is not a config error", err, err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("error %d:\n got %s\nwant %s...", i, got[i], tc.want[i])
				}
			}
			if !strings.Contains(err.Error(), filepath.Join(root, ".trainlint.toml")+":") {
				t.Errorf("error does not name the file: %v", err)
			}
		})
	}
}

func TestPyprojectErrorsPointIntoTheToolTable(t *testing.T) {
	root := tree(t, map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n\n[tool.trainlint]\nselect = [\"TL2\"]\nfail_on = \"error\"\n"})
	_, err := NewLoader(testRules()).ForDir(root)
	if err == nil || !strings.HasSuffix(err.Error(), `pyproject.toml:6:1: unknown key "fail_on" (did you mean "fail-on"?)`) {
		t.Errorf("error %v", err)
	}
}

func TestOptions(t *testing.T) {
	root := tree(t, map[string]string{".trainlint.toml": `
select = ["TL2", "TL101"]
ignore = ["TL201", {path = "data/**/*.json", rules = ["TL202"], keys = ["train.batch"]}]
require-suppression-reason = true
[context]
hosts = 2
[rules.input-no-prefetch]
severity = "info"
[rules.eval-batch-smaller-than-train]
min-ratio = 2
mode = "strict"
[[ignore]]
keys = ["trainer.sync_batchnorm"]
[[files]]
path = "*.yaml"
framework = "generic"
[[files]]
path = "nemo/**"
framework = "nemo"
[mapping]
eval.interval_seconds = "trainer.eval_every"
hosts = "cluster.nodes"
[limits]
max-bytes = 1000
max-depth = 50
max-aliases = 7
max-nodes = 9000
`})
	// A mixed array and [[ignore]] tables cannot share one file in TOML; the entry above and a
	// [[ignore]] table together are a parse error, so the table form is tested separately.
	_, err := NewLoader(testRules()).ForDir(root)
	if err == nil || !strings.Contains(err.Error(), "invalid TOML") {
		t.Fatalf("ignore as both array and array of tables: %v", err)
	}
	src, _ := os.ReadFile(filepath.Join(root, ".trainlint.toml"))
	fixed := strings.Replace(string(src), "[[ignore]]\nkeys = [\"trainer.sync_batchnorm\"]\n", "", 1)
	fixed = strings.Replace(fixed, `{path = "data/**/*.json"`, `{keys = ["trainer.sync_batchnorm"]}, {path = "data/**/*.json"`, 1)
	os.WriteFile(filepath.Join(root, ".trainlint.toml"), []byte(fixed), 0o644)
	c, err := NewLoader(testRules()).ForDir(root)
	if err != nil {
		t.Fatal(err)
	}
	o := c.Options(filepath.Join(root, "data", "a", "b", "ds.json"))
	want := lint.Options{
		Hosts: 2, Select: []string{"TL2", "TL101"}, Ignore: []string{"TL201"},
		Severity:      map[string]lint.Severity{"input-no-prefetch": lint.Info},
		RuleOptions:   map[string]map[string]any{"eval-batch-smaller-than-train": {"min-ratio": 2, "mode": "strict"}},
		Limits:        lint.Options{}.Limits,
		Mapping:       map[string]string{"eval.interval_seconds": "trainer.eval_every", "hosts": "cluster.nodes"},
		RequireReason: true,
		KeyIgnores:    []lint.KeyIgnore{{Keys: []string{"trainer.sync_batchnorm"}}, {Rules: []string{"TL202"}, Keys: []string{"train.batch"}}},
	}
	want.Limits.MaxBytes = 1000
	want.Limits.MaxDepth = 50
	want.Limits.MaxAliases = 7
	want.Limits.MaxNodes = 9000
	if !reflect.DeepEqual(o, want) {
		t.Errorf("options\n got %+v\nwant %+v", o, want)
	}
	if o := c.Options(filepath.Join(root, "data", "ds.yaml")); o.Framework != "generic" || len(o.KeyIgnores) != 1 {
		t.Errorf("data/ds.yaml: framework %q, ignores %+v", o.Framework, o.KeyIgnores)
	}
	if o := c.Options(filepath.Join(root, "nemo", "x", "a.yaml")); o.Framework != "nemo" {
		t.Errorf("nemo/x/a.yaml: the last matching [[files]] entry should win, got %q", o.Framework)
	}
}

func TestMatchGlob(t *testing.T) {
	dir := filepath.FromSlash("/r")
	for _, tc := range []struct {
		pattern, file string
		want          bool
	}{
		{"*.json", "/r/a.json", true},
		{"*.json", "/r/x/y/a.json", true}, // no slash: the name at any depth
		{"x/*.json", "/r/x/a.json", true},
		{"x/*.json", "/r/x/y/a.json", false},
		{"x/**/*.json", "/r/x/a.json", true},
		{"x/**/*.json", "/r/x/y/z/a.json", true},
		{"**/nemo/*.yaml", "/r/nemo/a.yaml", true},
		{"**/nemo/*.yaml", "/r/a/nemo/a.yaml", true},
		{"nemo/**", "/r/nemo/a/b.yaml", true},
		{"./x/a.json", "/r/x/a.json", true},
		{"*.json", "/other/a.json", false},
		{"x/*.json", "/r/y/a.json", false},
	} {
		if got := MatchGlob(dir, tc.pattern, filepath.FromSlash(tc.file)); got != tc.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", tc.pattern, tc.file, got, tc.want)
		}
	}
}

func TestSchemaDocument(t *testing.T) {
	s := string(Schema(testRules()))
	for _, want := range []string{`"$schema": "https://json-schema.org/draft/2020-12/schema"`, `"eval-batch-smaller-than-train"`,
		`"max-steps"`, `"nemo"`, `"interval_seconds"`, `"eval.interval_seconds"`, `"require-suppression-reason"`} {
		if !strings.Contains(s, want) {
			t.Errorf("schema lacks %s", want)
		}
	}
	// That the document compiles as JSON Schema is TestValidateMatchesLibrary's first step.
	if NewLoader(testRules()).compiled().doc == nil {
		t.Fatal("no schema document")
	}
}

// TestRuns: [[runs]] tables become declared runs with paths from the config file's folder, and
// an extending file keeps its parent's runs.
func TestRuns(t *testing.T) {
	root := tree(t, map[string]string{
		".git/HEAD":           "",
		".trainlint.toml":     "[[runs]]\nconfig = \"configs/train.yaml\"\noverrides = [\"experiment=mnist_ddp\", \"trainer.devices=8\"]\n\n[[runs]]\nconfig = \"recipes/sft.yaml\"\nlauncher = \"accelerate/multinode.yaml\"\n",
		"sub/.trainlint.toml": "extend = \"../.trainlint.toml\"\n",
		"sub/x.yaml":          "",
	})
	l := NewLoader(testRules())
	c, err := l.ForFile(filepath.Join(root, "sub", "x.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	o := c.Options(filepath.Join(root, "sub", "x.yaml"))
	want := []lint.DeclaredRun{
		{Config: filepath.Join(root, "configs", "train.yaml"), Overrides: []string{"experiment=mnist_ddp", "trainer.devices=8"}},
		{Config: filepath.Join(root, "recipes", "sft.yaml"), Launcher: filepath.Join(root, "accelerate", "multinode.yaml")},
	}
	if !reflect.DeepEqual(o.Runs, want) {
		t.Errorf("runs %+v\nwant %+v", o.Runs, want)
	}
}
