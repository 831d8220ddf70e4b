package vscodetrainlint

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestVSIX builds the extension the way `make vsix` does (a stripped trainlint binary bundled)
// and checks the package: a valid manifest with the activation events and the trainlint.path
// setting, the bundled JavaScript (vscode-languageclient inside, vscode left to the editor), and a
// bundled binary that runs. It also runs the extension's Node tests: src/select.test.js (binary and
// file choice) and src/extension.test.js (activate() against fakes of VS Code's API and of
// vscode-languageclient: the command started, the documents covered, the middleware that sends
// only training configs).
// In CI (CI set) a missing node or npm is a failure, never a skip.
func TestVSIX(t *testing.T) {
	if testing.Short() {
		t.Skip("installs npm packages and builds the extension")
	}
	node := need(t, "node")
	npmCI(t, need(t, "npm"))

	tests := []string{filepath.Join("src", "select.test.js"), filepath.Join("src", "extension.test.js")}
	if out, err := exec.Command(node, append([]string{"--test"}, tests...)...).CombinedOutput(); err != nil {
		t.Fatalf("node --test %s: %v\n%s", strings.Join(tests, " "), err, out)
	}

	tmp := t.TempDir()
	bin := filepath.Join(tmp, "trainlint")
	if out, err := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "github.com/trainlint/trainlint/cmd/trainlint").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	vsix := filepath.Join(tmp, "trainlint.vsix")
	if out, err := exec.Command(node, "build.mjs", "--binary", bin, "--out", vsix).CombinedOutput(); err != nil {
		t.Fatalf("node build.mjs: %v\n%s", err, out)
	}
	t.Cleanup(func() { os.RemoveAll("bin"); os.RemoveAll("dist"); os.Remove("LICENSE") })

	zr, err := zip.OpenReader(vsix)
	if err != nil {
		t.Fatalf("the .vsix is not a zip: %v", err)
	}
	defer zr.Close()
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[f.Name] = f
	}
	read := func(name string) []byte {
		t.Helper()
		f := files[name]
		if f == nil {
			var names []string
			for n := range files {
				names = append(names, n)
			}
			slices.Sort(names)
			t.Fatalf("%s missing from the .vsix (has %s)", name, strings.Join(names, ", "))
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	read("[Content_Types].xml")
	if m := string(read("extension.vsixmanifest")); !strings.Contains(m, `Id="trainlint"`) || !strings.Contains(m, `Publisher="trainlint"`) {
		t.Errorf("extension.vsixmanifest does not identify trainlint.trainlint:\n%s", m)
	}

	var pkg struct {
		Name, Publisher, Version, Main string
		Engines                        map[string]string
		ActivationEvents               []string
		Contributes                    struct {
			Configuration struct {
				Properties map[string]struct {
					Type    string
					Default any
				}
			}
		}
	}
	if err := json.Unmarshal(read("extension/package.json"), &pkg); err != nil {
		t.Fatalf("extension/package.json: %v", err)
	}
	if pkg.Name != "trainlint" || pkg.Publisher != "trainlint" || pkg.Version == "" || pkg.Engines["vscode"] == "" {
		t.Errorf("manifest identity: %+v", pkg)
	}
	for _, ev := range []string{"onLanguage:yaml", "onLanguage:json", "onLanguage:toml", "onLanguage:gin", "onLanguage:python"} {
		if !slices.Contains(pkg.ActivationEvents, ev) {
			t.Errorf("activation events %v lack %s", pkg.ActivationEvents, ev)
		}
	}
	if p, ok := pkg.Contributes.Configuration.Properties["trainlint.path"]; !ok || p.Type != "string" {
		t.Errorf("no trainlint.path string setting: %+v", pkg.Contributes.Configuration.Properties)
	}

	main := "extension/" + strings.TrimPrefix(pkg.Main, "./")
	js := read(main)
	if len(js) < 10000 {
		t.Errorf("%s is %d bytes: not a bundle", main, len(js))
	}
	for _, want := range []string{`require("vscode")`, "trainlint.path", "lsp", "onlyTrainingConfigs"} {
		if !bytes.Contains(js, []byte(want)) {
			t.Errorf("%s lacks %q", main, want)
		}
	}
	if bytes.Contains(js, []byte(`require("vscode-languageclient`)) {
		t.Errorf("%s loads vscode-languageclient at run time: it must be bundled (the .vsix has no node_modules)", main)
	}
	for name := range files {
		if strings.HasPrefix(name, "extension/node_modules/") || strings.HasPrefix(name, "extension/src/") {
			t.Errorf("%s should not be packaged", name)
		}
	}

	// The bundled binary is executable in the package (VS Code keeps the mode when it unpacks)
	// and runs.
	if f := files["extension/bin/trainlint"]; f == nil || f.Mode()&0o111 == 0 {
		t.Errorf("extension/bin/trainlint is missing or not executable in the .vsix")
	}
	out := filepath.Join(tmp, "bundled")
	if err := os.WriteFile(out, read("extension/bin/trainlint"), 0o755); err != nil {
		t.Fatal(err)
	}
	v, err := exec.Command(out, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(v), "trainlint ") {
		t.Errorf("the bundled binary: %v: %s", err, v)
	}
}

func need(t *testing.T, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s not found: .ci/run must install it", tool)
	}
	t.Skipf("%s not found; CI installs it", tool)
	return ""
}

// npmCI installs the locked packages unless node_modules already holds this lock.
func npmCI(t *testing.T, npm string) {
	t.Helper()
	lock, err := os.ReadFile("package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(lock)
	want := hex.EncodeToString(sum[:])
	stamp := filepath.Join("node_modules", ".trainlint-lock")
	if have, err := os.ReadFile(stamp); err == nil && string(have) == want {
		return
	}
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
	if err := os.WriteFile(stamp, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
}
