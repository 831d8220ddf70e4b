package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/trainlint/trainlint/lint/schema"
	"github.com/trainlint/trainlint/lint/testfs"
)

// The README's "Use in CI", "Pre-commit" and "Editors" sections are copied into users'
// repositories as is, so TestReadmeCI holds them to the truth: the YAML blocks must parse into the structure GitHub
// Actions, GitLab CI and pre-commit read, and the trainlint commands in them are run (with a
// binary built from this tree standing in for `go install ...@latest`) in a git repository
// holding a config with a pitfall, then the files they write are decoded the way the upload
// steps would read them.

const ciInstall = "go install github.com/trainlint/trainlint/cmd/trainlint@latest"

// ciPitfall has one warning the workflows must fail on: eval batch 2 < train batch 8 (TL202,
// line 4).
const ciPitfall = `model_name_or_path: meta-llama/Llama-3.1-8B
output_dir: out
per_device_train_batch_size: 8
per_device_eval_batch_size: 2
eval_strategy: steps
eval_steps: 500
`

// ciClean has nothing at or above warning, so the same jobs must pass on it.
const ciClean = `model_name_or_path: meta-llama/Llama-3.1-8B
output_dir: out
per_device_train_batch_size: 8
per_device_eval_batch_size: 8
dataloader_num_workers: 4
eval_strategy: steps
eval_steps: 500
`

type ciBlock struct{ Lang, Body string }

// ciHeadings are the README sections TestReadmeCI reads.
var ciHeadings = []string{"## Use in CI", "## Pre-commit", "## Editors"}

// readmeSection returns the text of the README's section under heading, up to the next one.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("README.md has no %q section", heading)
	}
	s = s[i+len(heading)+2:]
	if j := strings.Index(s, "\n## "); j >= 0 {
		s = s[:j]
	}
	return s
}

// ciSection returns the text of the CI, pre-commit and editor sections and their fenced blocks.
func ciSection(t *testing.T) (string, []ciBlock) {
	t.Helper()
	var s string
	for _, h := range ciHeadings {
		s += readmeSection(t, h)
	}
	var blocks []ciBlock
	var cur *ciBlock
	for _, line := range strings.SplitAfter(s, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &ciBlock{Lang: strings.TrimPrefix(trimmed, "```")}
		case cur != nil && trimmed == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.Body += line
		}
	}
	if cur != nil {
		t.Fatal("unclosed code block in the CI sections")
	}
	return s, blocks
}

// ciPick returns the one block of lang for which match is true.
func ciPick(t *testing.T, blocks []ciBlock, what, lang string, match func(string) bool) string {
	t.Helper()
	var found []string
	for _, b := range blocks {
		if b.Lang == lang && match(b.Body) {
			found = append(found, b.Body)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want 1 %s block (```%s) in the CI sections, found %d", what, lang, len(found))
	}
	return found[0]
}

// ciBuild builds trainlint from this tree into a temporary folder and returns that folder, to be
// put first on PATH.
func ciBuild(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-buildvcs=false", "-o", filepath.Join(dir, "trainlint"), ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// ciEnv is a CI runner's environment: this process's minus anything that changes trainlint's
// output (GITHUB_*, GITLAB_*, CI, NO_COLOR), with bin first on PATH and extra added.
func ciEnv(bin string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "GITHUB_"), strings.HasPrefix(k, "GITLAB_"), k == "CI", k == "NO_COLOR":
		case k == "PATH":
			env = append(env, "PATH="+bin+string(os.PathListSeparator)+v)
		default:
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// ciShell runs a script the way the runners do (bash with -e and pipefail) and returns its exit
// code and output.
func ciShell(t *testing.T, dir string, env []string, script string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("running %q: %v", script, err)
	}
	return code, out.String(), errb.String()
}

func ciGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// ciRepo is a user's repository: a config with a pitfall, an ignored run folder holding another
// (which must not be reported), and the README's CI files themselves (which are YAML the jobs
// also walk, and must not be reported either).
func ciRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	all := map[string]string{
		"configs/sft.yaml": ciPitfall,
		".gitignore":       "wandb/\n",
		"wandb/run.yaml":   ciPitfall,
	}
	for k, v := range files {
		all[k] = v
	}
	testfs.Write(t, dir, all)
	ciGit(t, dir, "init", "-q")
	ciGit(t, dir, "add", "-A")
	ciGit(t, dir, "commit", "-q", "-m", "configs")
	return dir
}

// ciOutputFile returns FILE of `--output FORMAT=FILE` in a command line.
func ciOutputFile(t *testing.T, cmdline, format string) string {
	t.Helper()
	m := regexp.MustCompile(`--output[ =]` + regexp.QuoteMeta(format) + `=(\S+)`).FindStringSubmatch(cmdline)
	if m == nil {
		t.Fatalf("%q has no --output %s=FILE", cmdline, format)
	}
	return m[1]
}

type ghStep struct {
	Name            string            `yaml:"name"`
	Uses            string            `yaml:"uses"`
	Run             string            `yaml:"run"`
	If              string            `yaml:"if"`
	With            map[string]string `yaml:"with"`
	ContinueOnError bool              `yaml:"continue-on-error"`
}

type ghWorkflow struct {
	On          yaml.Node         `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		RunsOn      string            `yaml:"runs-on"`
		Permissions map[string]string `yaml:"permissions"`
		Steps       []ghStep          `yaml:"steps"`
	} `yaml:"jobs"`
}

type sarifLog struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name string `json:"name"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			Level     string `json:"level"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

type glJob struct {
	Stage        string   `yaml:"stage"`
	Image        string   `yaml:"image"`
	Script       []string `yaml:"script"`
	AllowFailure any      `yaml:"allow_failure"`
	Artifacts    struct {
		When    string `yaml:"when"`
		Reports struct {
			CodeQuality string `yaml:"codequality"`
			JUnit       string `yaml:"junit"`
		} `yaml:"reports"`
	} `yaml:"artifacts"`
}

type codeQualityIssue struct {
	Description string `json:"description"`
	CheckName   string `json:"check_name"`
	Fingerprint string `json:"fingerprint"`
	Severity    string `json:"severity"`
	Location    struct {
		Path  string `json:"path"`
		Lines struct {
			Begin int `json:"begin"`
		} `json:"lines"`
	} `json:"location"`
}

type junitSuites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestReadmeCI(t *testing.T) {
	prose, blocks := ciSection(t)
	bin := ciBuild(t)

	// The workflow that installs trainlint with go install (a section may show others, such as
	// one using a published action).
	ghYAML := ciPick(t, blocks, "GitHub Actions workflow", "yaml", func(s string) bool {
		return strings.Contains(s, "\njobs:") && strings.Contains(s, ciInstall)
	})
	glYAML := ciPick(t, blocks, "GitLab CI job", "yaml", func(s string) bool { return strings.Contains(s, "script:") })
	pcYAML := ciPick(t, blocks, "pre-commit config", "yaml", func(s string) bool { return strings.HasPrefix(s, "repos:") })
	ciFiles := map[string]string{
		".github/workflows/trainlint.yml": ghYAML,
		".gitlab-ci.yml":                  glYAML,
		".pre-commit-config.yaml":         pcYAML,
	}

	t.Run("github", func(t *testing.T) {
		var wf ghWorkflow
		if err := yaml.Unmarshal([]byte(ghYAML), &wf); err != nil {
			t.Fatalf("the workflow is not valid YAML: %v", err)
		}
		if wf.On.Kind == 0 || len(wf.Jobs) != 1 {
			t.Fatalf("want an `on:` trigger and one job, got %d jobs", len(wf.Jobs))
		}
		var steps []ghStep
		for name, job := range wf.Jobs {
			if job.RunsOn == "" || len(job.Steps) == 0 {
				t.Fatalf("job %q has no runs-on or no steps", name)
			}
			perm := job.Permissions["security-events"]
			if perm == "" {
				perm = wf.Permissions["security-events"]
			}
			if perm != "write" {
				t.Errorf("security-events permission %q, want write (upload-sarif needs it)", perm)
			}
			steps = job.Steps
		}

		// The order GitHub runs them: setup-go, install, check, upload.
		at := func(pred func(ghStep) bool) int { return slices.IndexFunc(steps, pred) }
		setupGo := at(func(s ghStep) bool { return strings.HasPrefix(s.Uses, "actions/setup-go@") })
		install := at(func(s ghStep) bool { return strings.TrimSpace(s.Run) == ciInstall })
		check := at(func(s ghStep) bool { return strings.Contains(s.Run, "trainlint check") })
		upload := at(func(s ghStep) bool { return strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@") })
		if setupGo < 0 || install < 0 || check < 0 || upload < 0 || !(setupGo < install && install < check && check < upload) {
			t.Fatalf("want steps setup-go < %q < trainlint check < upload-sarif, got indexes %d %d %d %d", ciInstall, setupGo, install, check, upload)
		}
		if !slices.ContainsFunc(steps[:setupGo], func(s ghStep) bool { return strings.HasPrefix(s.Uses, "actions/checkout@") }) {
			t.Error("no actions/checkout step before setup-go: there would be nothing to lint")
		}
		checkRun, up := steps[check].Run, steps[upload]
		sarifFile := ciOutputFile(t, checkRun, "sarif")
		if up.With["sarif_file"] != sarifFile {
			t.Errorf("upload-sarif reads %q, the check writes %q", up.With["sarif_file"], sarifFile)
		}
		// A failed check step skips later steps unless their condition has a status function.
		if !strings.Contains(up.If, "always()") {
			t.Errorf("upload-sarif `if: %s` does not contain always(): it would be skipped exactly when there are findings", up.If)
		}
		if m := regexp.MustCompile(`hashFiles\('([^']+)'\)`).FindStringSubmatch(up.If); m != nil && m[1] != sarifFile {
			t.Errorf("upload-sarif's condition hashes %q, the check writes %q", m[1], sarifFile)
		}
		if strings.Contains(checkRun, "|| true") || steps[check].ContinueOnError {
			t.Error("the check step swallows its exit code: findings would never fail the job")
		}

		// Run every step that runs trainlint, in order, as the runner would.
		runSteps := func(dir string) (code int, stdout string) {
			env := ciEnv(bin, "GITHUB_ACTIONS=true", "CI=true", "GITHUB_WORKSPACE="+dir)
			for _, s := range steps {
				if s.Run == "" || strings.TrimSpace(s.Run) == ciInstall || !strings.Contains(s.Run, "trainlint") {
					continue
				}
				c, out, errs := ciShell(t, dir, env, s.Run)
				stdout += out
				if c != 0 {
					t.Logf("step %q exited %d; stderr: %s", s.Run, c, errs)
					return c, stdout // later steps without always() are skipped
				}
			}
			return 0, stdout
		}

		dir := ciRepo(t, ciFiles)
		code, stdout := runSteps(dir)
		if code != 1 {
			t.Errorf("the check step exits %d on a warning, want 1 (the job must fail)", code)
		}
		var annotations []string
		for _, line := range strings.Split(strings.TrimRight(stdout, "\n"), "\n") {
			if !strings.HasPrefix(line, "::") {
				t.Errorf("stdout line is not a workflow command: %q", line)
				continue
			}
			annotations = append(annotations, line)
			if strings.Contains(line, "wandb/") || strings.Contains(line, ".github/") || strings.Contains(line, ".gitlab-ci.yml") {
				t.Errorf("annotation on a file that is ignored or not a training config: %q", line)
			}
		}
		if !slices.ContainsFunc(annotations, func(l string) bool {
			return strings.HasPrefix(l, "::warning file=configs/sft.yaml,line=4,") && strings.Contains(l, "TL202")
		}) {
			t.Errorf("no ::warning annotation for TL202 at configs/sft.yaml line 4 in:\n%s", stdout)
		}

		b, err := os.ReadFile(filepath.Join(dir, sarifFile))
		if err != nil {
			t.Fatalf("the SARIF file the upload step reads: %v", err)
		}
		var log sarifLog
		if err := json.Unmarshal(b, &log); err != nil {
			t.Fatalf("%s is not JSON: %v", sarifFile, err)
		}
		if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "trainlint" {
			t.Fatalf("%s: version %q, %d runs; want 2.1.0 with one trainlint run", sarifFile, log.Version, len(log.Runs))
		}
		results := log.Runs[0].Results
		if len(results) != len(annotations) {
			t.Errorf("SARIF holds %d results, the annotations %d", len(results), len(annotations))
		}
		found := false
		for _, r := range results {
			for _, l := range r.Locations {
				loc := l.PhysicalLocation
				if r.RuleID == "TL202" && r.Level == "warning" && loc.ArtifactLocation.URI == "configs/sft.yaml" && loc.Region.StartLine == 4 {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("no SARIF warning TL202 at configs/sft.yaml:4 (code scanning needs repository-relative URIs): %s", b)
		}

		// Without the pitfall the same steps pass, and still write the file the upload reads.
		clean := ciRepo(t, map[string]string{"configs/sft.yaml": ciClean, "wandb/run.yaml": ciClean})
		if code, stdout := runSteps(clean); code != 0 || strings.Contains(stdout, "::warning") || strings.Contains(stdout, "::error") {
			t.Errorf("clean repository: exit %d, stdout:\n%s", code, stdout)
		}
		if b, err := os.ReadFile(filepath.Join(clean, sarifFile)); err != nil || !json.Valid(b) {
			t.Errorf("clean repository: SARIF %v", err)
		}
	})

	t.Run("gitlab", func(t *testing.T) {
		var top map[string]yaml.Node
		if err := yaml.Unmarshal([]byte(glYAML), &top); err != nil {
			t.Fatalf("the GitLab CI file is not valid YAML: %v", err)
		}
		var job glJob
		jobs := 0
		for name, n := range top {
			var j glJob
			if n.Kind != yaml.MappingNode || n.Decode(&j) != nil || len(j.Script) == 0 {
				continue
			}
			jobs++
			job = j
			if strings.HasPrefix(name, ".") {
				t.Errorf("job %q is hidden (a leading dot) and would never run", name)
			}
		}
		if jobs != 1 {
			t.Fatalf("want one job with a script, found %d", jobs)
		}
		if job.Image == "" {
			t.Error("the job names no image: go install needs one with Go")
		}
		if job.Script[0] != ciInstall {
			t.Errorf("first script line %q, want %q", job.Script[0], ciInstall)
		}
		var checkLine string
		for _, l := range job.Script {
			if strings.Contains(l, "trainlint check") {
				checkLine = l
			}
		}
		if checkLine == "" {
			t.Fatal("no script line runs trainlint check")
		}
		cqFile, junitFile := ciOutputFile(t, checkLine, "gitlab"), ciOutputFile(t, checkLine, "junit")
		if job.Artifacts.Reports.CodeQuality != cqFile || job.Artifacts.Reports.JUnit != junitFile {
			t.Errorf("reports codequality %q junit %q; the check writes %q and %q",
				job.Artifacts.Reports.CodeQuality, job.Artifacts.Reports.JUnit, cqFile, junitFile)
		}
		// Artifacts default to on_success: without `when: always` the reports would be dropped
		// exactly when there are findings.
		if job.Artifacts.When != "always" {
			t.Errorf("artifacts:when %q, want always", job.Artifacts.When)
		}
		if strings.Contains(checkLine, "|| true") || job.AllowFailure != nil {
			t.Error("the job swallows the exit code (|| true or allow_failure): findings would never fail it")
		}

		// The runner runs the script lines in one bash with -e: the first failure ends the job.
		runScript := func(dir string) (code int, stdout string) {
			env := ciEnv(bin, "GITLAB_CI=true", "CI=true", "CI_PROJECT_DIR="+dir)
			for _, l := range job.Script {
				if l == ciInstall {
					continue
				}
				c, out, errs := ciShell(t, dir, env, l)
				stdout += out
				if c != 0 {
					t.Logf("script line %q exited %d; stderr: %s", l, c, errs)
					return c, stdout
				}
			}
			return 0, stdout
		}

		dir := ciRepo(t, ciFiles)
		code, stdout := runScript(dir)
		if code != 1 {
			t.Errorf("the job exits %d on a warning, want 1 (the job must fail)", code)
		}
		if !strings.Contains(stdout, "configs/sft.yaml:4:") || !strings.Contains(stdout, "TL202") {
			t.Errorf("the job log (text format) lacks the TL202 finding:\n%s", stdout)
		}

		b, err := os.ReadFile(filepath.Join(dir, cqFile))
		if err != nil {
			t.Fatalf("the Code Quality report: %v", err)
		}
		var issues []codeQualityIssue
		if err := json.Unmarshal(b, &issues); err != nil {
			t.Fatalf("%s is not a JSON array of issues: %v", cqFile, err)
		}
		seen := map[string]bool{}
		found := false
		for _, is := range issues {
			if is.Fingerprint == "" || seen[is.Fingerprint] {
				t.Errorf("issue %q: fingerprint %q is empty or repeated (GitLab matches issues by it)", is.Description, is.Fingerprint)
			}
			seen[is.Fingerprint] = true
			if !slices.Contains([]string{"info", "minor", "major", "critical", "blocker"}, is.Severity) {
				t.Errorf("issue %q: severity %q is not one GitLab knows", is.Description, is.Severity)
			}
			if strings.HasPrefix(is.Location.Path, "wandb/") || strings.HasPrefix(is.Location.Path, "/") {
				t.Errorf("issue path %q: ignored or not relative to the project", is.Location.Path)
			}
			if is.CheckName == "eval-batch-smaller-than-train" && is.Location.Path == "configs/sft.yaml" && is.Location.Lines.Begin == 4 {
				found = true
			}
		}
		if !found {
			t.Errorf("no Code Quality issue eval-batch-smaller-than-train at configs/sft.yaml:4: %s", b)
		}

		b, err = os.ReadFile(filepath.Join(dir, junitFile))
		if err != nil {
			t.Fatalf("the JUnit report: %v", err)
		}
		var ju junitSuites
		if err := xml.Unmarshal(b, &ju); err != nil {
			t.Fatalf("%s is not JUnit XML: %v", junitFile, err)
		}
		failed := 0
		for _, s := range ju.Suites {
			for _, c := range s.Cases {
				if c.Failure != nil {
					failed++
				}
			}
		}
		// Info findings pass in JUnit (below the default --fail-on); the others fail.
		failing := 0
		for _, is := range issues {
			if is.Severity != "info" {
				failing++
			}
		}
		if failed == 0 || failed != failing || !bytes.Contains(b, []byte("TL202")) {
			t.Errorf("JUnit: %d failed cases for %d Code Quality issues above info, TL202 present: %v", failed, failing, bytes.Contains(b, []byte("TL202")))
		}

		clean := ciRepo(t, map[string]string{"configs/sft.yaml": ciClean, "wandb/run.yaml": ciClean})
		if code, stdout := runScript(clean); code != 0 {
			t.Errorf("clean repository: exit %d, stdout:\n%s", code, stdout)
		}
		for _, f := range []string{cqFile, junitFile} {
			if _, err := os.Stat(filepath.Join(clean, f)); err != nil {
				t.Errorf("clean repository: %v", err)
			}
		}
	})

	t.Run("pre-commit", func(t *testing.T) {
		var cfg struct {
			Repos []struct {
				Repo  string `yaml:"repo"`
				Rev   string `yaml:"rev"`
				Hooks []struct {
					ID string `yaml:"id"`
				} `yaml:"hooks"`
			} `yaml:"repos"`
		}
		if err := yaml.Unmarshal([]byte(pcYAML), &cfg); err != nil {
			t.Fatalf("the pre-commit snippet is not valid YAML: %v", err)
		}
		b, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var defined []struct {
			ID string `yaml:"id"`
		}
		if err := yaml.Unmarshal(b, &defined); err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, h := range defined {
			ids[h.ID] = true
			// Every hook should be discoverable from the README, even if commented as an option.
			if !strings.Contains(prose, h.ID) {
				t.Errorf("hook %q of .pre-commit-hooks.yaml is not mentioned in the README", h.ID)
			}
		}
		if len(cfg.Repos) != 1 || cfg.Repos[0].Repo != "https://github.com/trainlint/trainlint" || cfg.Repos[0].Rev == "" || len(cfg.Repos[0].Hooks) == 0 {
			t.Fatalf("want one repo https://github.com/trainlint/trainlint with a rev and hooks, got %+v", cfg.Repos)
		}
		for _, h := range cfg.Repos[0].Hooks {
			if !ids[h.ID] {
				t.Errorf("hook id %q is not in .pre-commit-hooks.yaml", h.ID)
			}
		}
	})

	t.Run("editors", func(t *testing.T) {
		sh := ciPick(t, blocks, "schema commands", "sh", func(s string) bool { return strings.Contains(s, "trainlint schema") })
		modeline := ciPick(t, blocks, "schema modeline", "yaml", func(s string) bool { return strings.HasPrefix(s, "# yaml-language-server: $schema=") })

		// The Editors section sends readers to the Frameworks table for the names `trainlint
		// schema` accepts, and that table lists every one of them.
		if !strings.Contains(readmeSection(t, "## Editors"), "(#frameworks)") {
			t.Error("the Editors section does not link the Frameworks table for the schema names")
		}
		frameworks := readmeSection(t, "## Frameworks")
		for _, name := range schema.Names() {
			if !strings.Contains(frameworks, "| `"+name+"` |") {
				t.Errorf("schema %q is not an id in the README's Frameworks table", name)
			}
		}

		dir := t.TempDir()
		env := ciEnv(bin)
		if code, out, errs := ciShell(t, dir, env, sh); code != 0 {
			t.Fatalf("the schema commands exit %d: %s%s", code, out, errs)
		}
		// The README puts the modeline in configs/sft.yaml; its path is relative to that file.
		cfg := filepath.Join(dir, "configs", "sft.yaml")
		if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cfg, []byte(modeline), 0o644); err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(modeline, "\n")
		ref := strings.TrimPrefix(first, "# yaml-language-server: $schema=")
		b, err := os.ReadFile(filepath.Join(filepath.Dir(cfg), filepath.FromSlash(ref)))
		if err != nil {
			t.Fatalf("the modeline's schema %q, relative to configs/sft.yaml: %v", ref, err)
		}
		var sch struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(b, &sch); err != nil {
			t.Fatalf("%s is not JSON: %v", ref, err)
		}
		var keys map[string]any
		if err := yaml.Unmarshal([]byte(modeline), &keys); err != nil {
			t.Fatal(err)
		}
		for k := range keys {
			if _, ok := sch.Properties[k]; !ok {
				t.Errorf("the example key %q is not in the schema %s", k, ref)
			}
		}
		// The commented file still lints cleanly, and so do the generated schemas when the
		// whole checkout is linted (as the CI jobs do).
		if code, out, errs := ciShell(t, dir, env, "trainlint check ."); code != 0 {
			t.Errorf("linting the folder with the schemas and the example: exit %d\n%s%s", code, out, errs)
		}

		// The TOML directive: the config file with it still loads, and its path exists.
		m := regexp.MustCompile("`(#:schema (\\S+))`").FindStringSubmatch(prose)
		if m == nil {
			t.Fatal("no `#:schema PATH` line for .trainlint.toml in the Editors section")
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(m[2]))); err != nil {
			t.Errorf("the #:schema path: %v", err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".trainlint.toml"), []byte(m[1]+"\nfail-on = \"warning\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errs := ciShell(t, dir, env, "trainlint check configs/sft.yaml"); code != 0 {
			t.Errorf("with the #:schema line in .trainlint.toml: exit %d\n%s%s", code, out, errs)
		}
	})
}
