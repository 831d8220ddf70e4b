package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func jsonFiles(t *testing.T, stdout string) []string {
	t.Helper()
	var res struct {
		Diagnostics []struct{ File, Rule string }
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("stdout is not the JSON result: %v\n%s", err, stdout)
	}
	var out []string
	for _, d := range res.Diagnostics {
		out = append(out, d.File+":"+d.Rule)
	}
	return out
}

func TestBaselineFlags(t *testing.T) {
	useTestRules(t)
	writeTree(t, map[string]string{"a.yaml": "model: x\nwarn_me: 1\n", "b.yaml": "info_me: 1\n"})

	// Recording today's findings passes the run that records them.
	code, _, stderr := cli(t, nil, "--write-baseline", "tl-baseline.json", "--fail-on", "info", "a.yaml", "b.yaml")
	if code != 0 || !strings.Contains(stderr, "recorded 2 findings in baseline tl-baseline.json") {
		t.Fatalf("--write-baseline: exit %d, stderr %q", code, stderr)
	}
	raw, err := os.ReadFile("tl-baseline.json")
	if err != nil || !bytes.Contains(raw, []byte(`"rule": "test-warning"`)) || bytes.Contains(raw, []byte(`"line"`)) {
		t.Fatalf("baseline file: %v\n%s", err, raw)
	}

	// Lines move: nothing is new.
	os.WriteFile("a.yaml", []byte("# header\nextra: 2\nmodel: x\n\nwarn_me: 1\n"), 0o644)
	code, stdout, stderr := cli(t, nil, "--baseline", "tl-baseline.json", "--format", "json", "--fail-on", "info", "a.yaml", "b.yaml")
	if code != 0 || len(jsonFiles(t, stdout)) != 0 || stderr != "trainlint: baseline tl-baseline.json hid 2 findings; 0 new reported\n" {
		t.Errorf("moved lines: exit %d, findings %v, stderr %q", code, jsonFiles(t, stdout), stderr)
	}

	// A new finding shows, and only it; the --output files get the same filtered view.
	os.WriteFile("c.yaml", []byte("warn_me: 1\n"), 0o644)
	code, stdout, _ = cli(t, nil, "--baseline", "tl-baseline.json", "--format", "json", "--output", "sarif=out.sarif", "a.yaml", "b.yaml", "c.yaml")
	if got := jsonFiles(t, stdout); code != 1 || strings.Join(got, " ") != "c.yaml:test-warning" {
		t.Errorf("new finding: exit %d, findings %v", code, got)
	}
	sarif, _ := os.ReadFile("out.sarif")
	if n := strings.Count(string(sarif), `"ruleId"`); n != 1 {
		t.Errorf("SARIF output holds %d results, want the 1 new one", n)
	}

	// A fixed finding disappears, and the run says the baseline has a stale entry.
	os.WriteFile("a.yaml", []byte("model: x\n"), 0o644)
	code, stdout, stderr = cli(t, nil, "--baseline", "tl-baseline.json", "--format", "json", "a.yaml", "b.yaml")
	if code != 0 || len(jsonFiles(t, stdout)) != 0 || !strings.Contains(stderr, "1 finding recorded in tl-baseline.json no longer occurs") {
		t.Errorf("fixed finding: exit %d, stdout %s, stderr %q", code, stdout, stderr)
	}

	// A rule left out of the run has nothing fixed.
	_, _, stderr = cli(t, nil, "--baseline", "tl-baseline.json", "--ignore", "test-warning", "a.yaml", "b.yaml")
	if strings.Contains(stderr, "no longer occur") {
		t.Errorf("an ignored rule's entries were called fixed: %q", stderr)
	}

	// A baseline that cannot be used is a usage error, before anything is linted.
	os.WriteFile("bad.json", []byte(`{"version": 99, "entries": []}`), 0o644)
	for file, want := range map[string]string{"missing.json": "cannot read baseline", "bad.json": "version 99 is not supported"} {
		code, _, stderr = cli(t, nil, "--baseline", file, "a.yaml")
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("--baseline %s: exit %d, stderr %q", file, code, stderr)
		}
	}
}

// Under GitHub Actions the default terminal format is workflow commands; --output adds files in
// other formats in the same run.
func TestGitHubActionsDefaultAndOutputs(t *testing.T) {
	useTestRules(t)
	writeTree(t, map[string]string{"a.yaml": "warn_me: 1\n"})
	t.Setenv("NO_COLOR", "1")
	t.Setenv("GITHUB_ACTIONS", "true")
	var out, errb bytes.Buffer
	code := run([]string{"--output", "junit=r.xml", "--output", "gitlab=gl.json", "a.yaml"}, nil, &out, &errb)
	if code != 1 || !strings.HasPrefix(out.String(), "::warning file=a.yaml,line=1,col=1,") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	junit, _ := os.ReadFile("r.xml")
	gitlab, _ := os.ReadFile("gl.json")
	if !bytes.Contains(junit, []byte(`<testsuite name="a.yaml" tests="1" failures="1"`)) || !bytes.Contains(gitlab, []byte(`"check_name": "test-warning"`)) {
		t.Errorf("outputs:\n%s\n%s", junit, gitlab)
	}
	// An explicit --format wins over GITHUB_ACTIONS.
	out.Reset()
	run([]string{"--format", "json", "a.yaml"}, nil, &out, &errb)
	if !strings.HasPrefix(out.String(), "{") {
		t.Errorf("--format json under GITHUB_ACTIONS: %q", out.String())
	}
}
