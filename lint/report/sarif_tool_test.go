package report_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Microsoft's SARIF validator (the Multitool) comes from npm: @microsoft/sarif-multitool pulls a
// self-contained .NET build for the platform (@microsoft/sarif-multitool-linux), so no .NET
// runtime is needed. The platform package also ships the SARIF 2.1.0 JSON schema the schema test
// uses. Both are installed on first use into the repository's git-ignored .cache/.
const multitoolVersion = "5.7.0"

var (
	multitoolOnce sync.Once
	multitoolDir  string
	multitoolErr  error
)

// multitoolPlatform is the npm platform package's suffix and the binary's name.
func multitoolPlatform() (pkg, bin string, ok bool) {
	switch runtime.GOOS {
	case "linux":
		return "linux", "Sarif.Multitool", true
	case "darwin":
		return "darwin", "Sarif.Multitool", true
	case "windows":
		return "win32", "Sarif.Multitool.exe", true
	}
	return "", "", false
}

// multitool returns the platform package's folder (the binary and sarif-2.1.0.json), installing
// it with npm when absent. It skips the test only when npm itself is missing; a failed install
// fails the test, since a silently skipped validator proves nothing.
func multitool(t *testing.T) string {
	t.Helper()
	pkg, bin, ok := multitoolPlatform()
	if !ok {
		t.Skipf("no SARIF Multitool build for %s", runtime.GOOS)
	}
	multitoolOnce.Do(func() { multitoolDir, multitoolErr = installMultitool(pkg, bin) })
	if multitoolErr == errNoNPM {
		t.Fatal("npm not found: the SARIF validator @microsoft/sarif-multitool comes from npm; install it: apt-get install nodejs npm (make test checks its tools first)")
	}
	if multitoolErr != nil {
		t.Fatal(multitoolErr)
	}
	return multitoolDir
}

var errNoNPM = fmt.Errorf("npm not found")

func installMultitool(pkg, bin string) (string, error) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return "", fmt.Errorf("repository root not found from the test's folder: %v", err)
	}
	cache := filepath.Join(root, ".cache", "sarif-multitool-"+multitoolVersion)
	dir := filepath.Join(cache, "node_modules", "@microsoft", "sarif-multitool-"+pkg)
	if _, err := os.Stat(filepath.Join(dir, bin)); err != nil {
		npm, err := exec.LookPath("npm")
		if err != nil {
			return "", errNoNPM
		}
		// Install beside the final folder and rename, so an interrupted install never leaves a
		// half-filled cache that later runs would trust.
		if err := os.MkdirAll(filepath.Dir(cache), 0o755); err != nil {
			return "", err
		}
		tmp, err := os.MkdirTemp(filepath.Dir(cache), "sarif-multitool-install-")
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(tmp)
		cmd := exec.Command(npm, "install", "--prefix", tmp, "--no-audit", "--no-fund", "--no-save",
			"--no-package-lock", "@microsoft/sarif-multitool@"+multitoolVersion)
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("npm install @microsoft/sarif-multitool@%s: %v\n%s", multitoolVersion, err, out)
		}
		os.RemoveAll(cache)
		if err := os.Rename(tmp, cache); err != nil {
			return "", err
		}
	}
	// npm may block the package's postinstall (which only sets the execute bit): set it here.
	if err := os.Chmod(filepath.Join(dir, bin), 0o755); err != nil {
		return "", err
	}
	return dir, nil
}

// multitoolPolicy disables SARIF2006 (it fetches every URI in the log over HTTP: no network in
// tests, and our rule pages need not be live for the log to be valid).
const multitoolPolicy = `<?xml version="1.0" encoding="utf-8"?>
<Properties>
  <Properties Key="SARIF2006.UrisShouldBeReachable.Options">
    <Property Key="RuleEnabled" Value="Disabled" Type="Driver.RuleEnabledState" />
  </Properties>
</Properties>
`

// validatorFinding is one problem the validator reported.
type validatorFinding struct {
	File, Rule, Level, Message string
}

// runMultitool validates SARIF files (one validator run for all, to keep the test quick) with the
// given rule kinds ("" = the default, SARIF rules) and returns every finding at every level, with
// the file it is about, plus configuration and execution notifications (except the one that says
// SARIF2006 was disabled on purpose).
func runMultitool(t *testing.T, dir string, sarifPaths []string, ruleKind string) []validatorFinding {
	t.Helper()
	_, bin, _ := multitoolPlatform()
	work := t.TempDir()
	policy := filepath.Join(work, "policy.xml")
	if err := os.WriteFile(policy, []byte(multitoolPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(work, "validation.sarif")
	args := append([]string{"validate"}, sarifPaths...)
	args = append(args, "-o", out, "-c", policy, "--level", "Error;Warning;Note", "--log", "ForceOverwrite")
	if ruleKind != "" {
		args = append(args, "--rule-kind", ruleKind)
	}
	cmd := exec.Command(filepath.Join(dir, bin), args...)
	// The self-contained build needs ICU unless told to run culture-invariant; we format nothing
	// culture-specific, so invariant mode keeps the test independent of libicu.
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1", "DOTNET_CLI_TELEMETRY_OPTOUT=1")
	stdout, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("Sarif.Multitool %s: %v\n%s", strings.Join(args, " "), err, stdout)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("validator wrote no log: %v\n%s", err, stdout)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Message struct {
					Text      string   `json:"text"`
					ID        string   `json:"id"`
					Arguments []string `json:"arguments"`
				} `json:"message"`
			} `json:"results"`
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Config              []struct {
					Level   string `json:"level"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
					Descriptor struct {
						ID string `json:"id"`
					} `json:"descriptor"`
				} `json:"toolConfigurationNotifications"`
				Exec []struct {
					Level   string `json:"level"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(raw, &log); err != nil {
		t.Fatalf("validator log: %v", err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("validator log has %d runs", len(log.Runs))
	}
	var fs []validatorFinding
	for _, r := range log.Runs[0].Results {
		level := r.Level
		if level == "" {
			level = "warning" // SARIF's default level
		}
		msg := r.Message.Text
		if msg == "" {
			// The validator words some messages by template id and arguments.
			msg = r.Message.ID + " " + strings.Join(r.Message.Arguments, " | ")
		}
		file := "?"
		if len(r.Locations) > 0 {
			file = filepath.Base(r.Locations[0].PhysicalLocation.ArtifactLocation.URI)
		}
		fs = append(fs, validatorFinding{file, r.RuleID, level, msg})
	}
	for _, inv := range log.Runs[0].Invocations {
		if !inv.ExecutionSuccessful {
			fs = append(fs, validatorFinding{"", "execution", "error", "the validator reports an unsuccessful run:\n" + string(stdout)})
		}
		for _, n := range inv.Config {
			if n.Descriptor.ID == "WRN999.RuleExplicitlyDisabled" && strings.Contains(n.Message.Text, "SARIF2006") {
				continue
			}
			fs = append(fs, validatorFinding{"", "configuration " + n.Descriptor.ID, orWarning(n.Level), n.Message.Text})
		}
		for _, n := range inv.Exec {
			fs = append(fs, validatorFinding{"", "execution", orWarning(n.Level), n.Message.Text})
		}
	}
	return fs
}

func orWarning(level string) string {
	if level == "" {
		return "warning"
	}
	return level
}
