package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionFile is the part of a GitHub Actions metadata file (action.yml) the test reads.
type actionFile struct {
	Name    string
	Inputs  map[string]struct{ Description, Default string }
	Outputs map[string]struct{ Description, Value string }
	Runs    struct {
		Using string
		Steps []actionStep
	}
}

type actionStep struct {
	Name, ID, If, Uses, Shell, Run string
	With, Env                      map[string]string
}

func readAction(t *testing.T) (actionFile, string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", ".github", "actions", "trainlint"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a, dir
}

// actionRun is one local run of the composite action: the runner's part played by the test.
type actionRun struct {
	t        *testing.T
	action   actionFile
	inputs   map[string]string
	github   map[string]string // the github context: action_path, token
	env      []string          // the runner's environment (GITHUB_*, RUNNER_*)
	path     []string          // GITHUB_PATH additions
	outputs  map[string]map[string]string
	ran      []string // ids (or names) of the steps that ran
	uses     map[string]map[string]string
	failedAt string // the step that exited non-zero
	logs     strings.Builder
}

var exprRe = regexp.MustCompile(`\$\{\{\s*([^}]+?)\s*\}\}`)

// value evaluates the expressions the action uses: inputs.X, github.X, steps.ID.outputs.X.
// Anything else fails the test, so the action cannot drift past what the test understands.
func (r *actionRun) value(expr string) string {
	parts := strings.Split(expr, ".")
	switch {
	case len(parts) == 2 && parts[0] == "inputs":
		v, ok := r.inputs[parts[1]]
		if !ok {
			in, declared := r.action.Inputs[parts[1]]
			if !declared {
				r.t.Fatalf("the action reads undeclared input %q", parts[1])
			}
			v = in.Default
		}
		return v
	case len(parts) == 2 && parts[0] == "github":
		v, ok := r.github[parts[1]]
		if !ok {
			r.t.Fatalf("the test does not know github.%s", parts[1])
		}
		return v
	case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
		return r.outputs[parts[1]][parts[3]]
	}
	r.t.Fatalf("the test cannot evaluate ${{ %s }}", expr)
	return ""
}

func (r *actionRun) expand(s string) string {
	return exprRe.ReplaceAllStringFunc(s, func(m string) string { return r.value(exprRe.FindStringSubmatch(m)[1]) })
}

var condRe = regexp.MustCompile(`^([a-z][\w.-]*)\s*(==|!=)\s*'([^']*)'$`)

// cond evaluates an `if:` made of always() and comparisons joined by &&. Without always(), a
// step is skipped once an earlier one failed, as on GitHub.
func (r *actionRun) cond(s string) bool {
	always := false
	ok := true
	if strings.TrimSpace(s) != "" {
		for _, term := range strings.Split(s, "&&") {
			term = strings.TrimSpace(term)
			if term == "always()" {
				always = true
				continue
			}
			m := condRe.FindStringSubmatch(term)
			if m == nil {
				r.t.Fatalf("the test cannot evaluate the condition %q", term)
			}
			eq := r.value(m[1]) == m[3]
			if (m[2] == "==") != eq {
				ok = false
			}
		}
	}
	if r.failedAt != "" && !always {
		return false
	}
	return ok
}

func (r *actionRun) run() {
	t := r.t
	r.outputs = map[string]map[string]string{}
	r.uses = map[string]map[string]string{}
	tmp := t.TempDir()
	for i, st := range r.action.Runs.Steps {
		id := st.ID
		if id == "" {
			id = st.Name
		}
		if !r.cond(st.If) {
			continue
		}
		r.ran = append(r.ran, id)
		if st.Uses != "" {
			with := map[string]string{}
			for k, v := range st.With {
				with[k] = r.expand(v)
			}
			r.uses[strings.SplitN(st.Uses, "@", 2)[0]] = with
			continue
		}
		if st.Shell != "bash" {
			t.Fatalf("step %q: shell %q; the action's steps use bash on every runner", id, st.Shell)
		}
		script := filepath.Join(tmp, "step"+strings.Repeat("x", i)+".sh")
		os.WriteFile(script, []byte(r.expand(st.Run)), 0o644)
		outFile := filepath.Join(tmp, "output-"+strings.Repeat("x", i))
		pathFile := filepath.Join(tmp, "path-"+strings.Repeat("x", i))
		os.WriteFile(outFile, nil, 0o644)
		os.WriteFile(pathFile, nil, 0o644)
		env := append([]string{}, r.env...)
		env = append(env, "GITHUB_OUTPUT="+outFile, "GITHUB_PATH="+pathFile,
			"PATH="+strings.Join(append(append([]string{}, r.path...), os.Getenv("PATH")), string(os.PathListSeparator)))
		for k, v := range st.Env {
			env = append(env, k+"="+r.expand(v))
		}
		// GitHub runs `shell: bash` as bash --noprofile --norc -eo pipefail {0}.
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = r.workspace()
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		r.logs.WriteString("== " + id + "\n" + string(out))
		if err != nil && r.failedAt == "" {
			r.failedAt = id
		}
		r.outputs[st.ID] = readOutputs(t, outFile)
		b, _ := os.ReadFile(pathFile)
		for _, p := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if p != "" {
				r.path = append([]string{p}, r.path...)
			}
		}
	}
}

func (r *actionRun) workspace() string {
	for _, e := range r.env {
		if v, ok := strings.CutPrefix(e, "GITHUB_WORKSPACE="); ok {
			return v
		}
	}
	r.t.Fatal("no GITHUB_WORKSPACE")
	return ""
}

// readOutputs parses $GITHUB_OUTPUT: name=value lines and name<<DELIMITER blocks.
func readOutputs(t *testing.T, path string) map[string]string {
	out := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			for sc.Scan() && sc.Text() != delim {
				val = append(val, sc.Text())
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		if name, val, ok := strings.Cut(line, "="); ok {
			out[name] = val
		}
	}
	return out
}

func newActionRun(t *testing.T, inputs map[string]string, extraEnv ...string) *actionRun {
	a, dir := readAction(t)
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "configs"), 0o755)
	os.WriteFile(filepath.Join(ws, "configs", "sft.yaml"), []byte(sftRecipe), 0o644)
	os.WriteFile(filepath.Join(ws, "configs", "clean.json"), []byte("{\"train_micro_batch_size_per_gpu\": 4}\n"), 0o644)
	runnerTemp := t.TempDir()
	env := []string{"HOME=" + os.Getenv("HOME"), "GITHUB_ACTIONS=true", "CI=true", "GITHUB_WORKSPACE=" + ws,
		"GITHUB_REPOSITORY=example/configs", "GITHUB_SHA=0123456789abcdef0123456789abcdef01234567",
		"GITHUB_SERVER_URL=https://github.com", "GITHUB_ACTION_PATH=" + dir,
		"GITHUB_STEP_SUMMARY=" + filepath.Join(runnerTemp, "summary.md"), "GITHUB_ENV=" + filepath.Join(runnerTemp, "env"),
		"RUNNER_TEMP=" + runnerTemp, "RUNNER_OS=Linux", "RUNNER_ARCH=X64", "NO_COLOR="}
	// The Go toolchain's own settings (module and build caches, GOFLAGS) for the source build.
	for _, e := range os.Environ() {
		if strings.HasPrefix(e, "GO") || strings.HasPrefix(e, "XDG_") {
			env = append(env, e)
		}
	}
	env = append(env, extraEnv...)
	return &actionRun{t: t, action: a, inputs: inputs, env: env,
		github: map[string]string{"action_path": dir}}
}

func TestActionMetadata(t *testing.T) {
	a, _ := readAction(t)
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using %q, want composite", a.Runs.Using)
	}
	for _, in := range []string{"paths", "args", "fail-on", "version"} {
		if a.Inputs[in].Description == "" {
			t.Errorf("input %q missing or undocumented", in)
		}
	}
	upload := false
	for _, st := range a.Runs.Steps {
		if strings.HasPrefix(st.Uses, "github/codeql-action/upload-sarif@") {
			upload = true
			// CodeQL Action v3 is deprecated in December 2026 (github.blog changelog, 2025-10-28).
			major, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(st.Uses, "github/codeql-action/upload-sarif@v"), ".", 2)[0])
			if major < 4 {
				t.Errorf("%s: use upload-sarif v4 or later", st.Uses)
			}
			if !strings.Contains(st.If, "always()") {
				t.Errorf("upload-sarif `if: %s` lacks always(): it would be skipped after a failure", st.If)
			}
		}
		// Inputs reach scripts through env: only (no expression pasted into a script).
		if strings.Contains(st.Run, "${{") {
			t.Errorf("step %q pastes an expression into its script", st.Name)
		}
	}
	if !upload {
		t.Error("no github/codeql-action/upload-sarif step")
	}
}

// checkSARIF reads the SARIF file the action wrote: the log code scanning accepts (version
// 2.1.0, one run by trainlint with its rules) with the pitfall of configs/sft.yaml at its line.
func checkSARIF(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no SARIF file: %v", err)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct{ ID string }
				}
			}
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif") || len(log.Runs) != 1 {
		t.Fatalf("not a SARIF 2.1.0 log with one run: version %q, %d runs", log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name != "trainlint" || len(run.Tool.Driver.Rules) == 0 {
		t.Errorf("driver %q with %d rules", run.Tool.Driver.Name, len(run.Tool.Driver.Rules))
	}
	found := false
	for _, r := range run.Results {
		for _, l := range r.Locations {
			if r.RuleID == "TL202" && l.PhysicalLocation.ArtifactLocation.URI == "configs/sft.yaml" && l.PhysicalLocation.Region.StartLine > 0 {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("SARIF lacks TL202 on configs/sft.yaml:\n%s", b)
	}
}

// The build-from-source path (the default, and the only one possible before a release): the
// action builds its own revision with Go, lints, writes SARIF, hands it to upload-sarif, and
// fails the job because the config has a warning.
func TestActionFromSource(t *testing.T) {
	if testing.Short() {
		t.Skip("builds trainlint")
	}
	r := newActionRun(t, map[string]string{"paths": "configs"})
	r.run()
	t.Logf("%s", r.logs.String())
	if want := []string{"Set up Go to build trainlint", "install", "check", "Upload SARIF to code scanning", "Fail on findings"}; strings.Join(r.ran, "|") != strings.Join(want, "|") {
		t.Errorf("steps run: %q, want %q", r.ran, want)
	}
	if r.failedAt != "Fail on findings" {
		t.Errorf("the run failed at %q, want the final step", r.failedAt)
	}
	if r.outputs["check"]["exit-code"] != "1" {
		t.Errorf("exit-code output %q, want 1", r.outputs["check"]["exit-code"])
	}
	sarif := r.outputs["check"]["sarif-file"]
	if sarif != filepath.Join(r.workspace(), "trainlint.sarif") {
		t.Errorf("sarif-file output %q", sarif)
	}
	if got := r.uses["github/codeql-action/upload-sarif"]["sarif_file"]; got != sarif {
		t.Errorf("upload-sarif gets %q, the check wrote %q", got, sarif)
	}
	if got := r.uses["actions/setup-go"]["go-version-file"]; !strings.HasSuffix(got, "/../../../go.mod") {
		t.Errorf("setup-go reads %q", got)
	}
	checkSARIF(t, sarif)
	logs := r.logs.String()
	// GITHUB_ACTIONS=true: the terminal report is workflow commands (annotations).
	if !strings.Contains(logs, "::warning file=configs/sft.yaml,line=") {
		t.Errorf("no annotation for configs/sft.yaml in the log:\n%s", logs)
	}
	if !strings.Contains(logs, "trainlint found problems at or above 'warning'") {
		t.Errorf("the final step does not say why it failed:\n%s", logs)
	}
}

// A release install: the binary and SHA256SUMS come from the (here local) GitHub server's
// release download URLs and are checked; a binary that does not match its checksum is refused.
// With fail-on: never the job passes despite the findings, and the SARIF is still uploaded.
func TestActionRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("builds trainlint")
	}
	bin := filepath.Join(stampedBinary(t), "trainlint")
	binary, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(binary)
	sums := hex.EncodeToString(sum[:]) + "  trainlint-9.8.7-linux-amd64\n" + strings.Repeat("0", 64) + "  trainlint-9.8.7-darwin-arm64\n"
	var tamper atomic.Bool // read by the server's goroutines
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch req.URL.Path {
		case "/acme/trainlint/releases/latest":
			http.Redirect(w, req, "/acme/trainlint/releases/tag/v9.8.7", http.StatusFound)
		case "/acme/empty/releases/latest":
			http.Redirect(w, req, "/acme/empty/releases", http.StatusFound)
		case "/acme/trainlint/releases/tag/v9.8.7", "/acme/empty/releases":
			w.Write([]byte("release page"))
		case "/acme/trainlint/releases/download/v9.8.7/trainlint-9.8.7-linux-amd64":
			if tamper.Load() {
				w.Write(append(append([]byte{}, binary...), 0))
				return
			}
			w.Write(binary)
		case "/acme/trainlint/releases/download/v9.8.7/SHA256SUMS":
			w.Write([]byte(sums))
		default:
			http.NotFound(w, req)
		}
	}))
	defer srv.Close()

	r := newActionRun(t, map[string]string{"version": "latest", "repository": "acme/trainlint", "paths": "configs\nconfigs/clean.json", "fail-on": "never", "args": "--select TL202"},
		"GITHUB_SERVER_URL="+srv.URL)
	r.run()
	t.Logf("%s", r.logs.String())
	if r.failedAt != "" {
		t.Fatalf("the run failed at %q", r.failedAt)
	}
	if want := []string{"install", "check", "Upload SARIF to code scanning"}; strings.Join(r.ran, "|") != strings.Join(want, "|") {
		t.Errorf("steps run: %q, want %q", r.ran, want)
	}
	if r.outputs["check"]["exit-code"] != "1" || r.outputs["check"]["failed"] != "false" {
		t.Errorf("check outputs %v: want exit-code 1, not failed", r.outputs["check"])
	}
	if !strings.Contains(r.logs.String(), "commit:  0123456789abcdef") {
		t.Errorf("the installed binary is not the released one:\n%s", r.logs.String())
	}
	checkSARIF(t, r.outputs["check"]["sarif-file"])

	// No release yet: latest lands on the releases page, and the action says so.
	noRelease := newActionRun(t, map[string]string{"version": "latest", "repository": "acme/empty"}, "GITHUB_SERVER_URL="+srv.URL)
	noRelease.run()
	if noRelease.failedAt != "install" || !strings.Contains(noRelease.logs.String(), "no trainlint release 'latest'") {
		t.Errorf("a repository without releases was not reported (failed at %q):\n%s", noRelease.failedAt, noRelease.logs.String())
	}

	tamper.Store(true)
	r = newActionRun(t, map[string]string{"version": "v9.8.7", "repository": "acme/trainlint"}, "GITHUB_SERVER_URL="+srv.URL)
	r.run()
	if r.failedAt != "install" || !strings.Contains(r.logs.String(), "checksum of trainlint-9.8.7-linux-amd64 does not match") {
		t.Errorf("a tampered binary was not refused (failed at %q):\n%s", r.failedAt, r.logs.String())
	}
	if strings.Contains(strings.Join(r.ran, "|"), "check") {
		t.Errorf("steps ran after the failed install: %q", r.ran)
	}
}
