package lsp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/trainlint/trainlint/lint/testfs"
)

// TestRealClients drives the built `trainlint lsp` with real editors' clients: Neovim's built-in
// LSP client (headless, testdata/nvim/client.lua) and a Node client on vscode-jsonrpc and
// vscode-languageserver-protocol (testdata/node/client.js). Each opens a copy of the hf-sft
// example, receives the findings, applies the quick fix and sees the finding go; the Node client
// also checks hover, completion and go to definition. In CI (CI set) a missing nvim or node is a
// failure, never a skip: .ci/run installs both.
func TestRealClients(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts editors")
	}
	bin := filepath.Join(t.TempDir(), "trainlint")
	build := exec.Command("go", "build", "-o", bin, "github.com/trainlint/trainlint/cmd/trainlint")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	workspace := func(t *testing.T) (string, string) {
		dir := t.TempDir()
		for _, name := range []string{"hf-sft.yaml", "deepspeed-zero2.json", ".trainlint.toml"} {
			copyExample(t, dir, name)
		}
		testfs.Write(t, dir, hydraWorkspace)
		return dir, filepath.Join(dir, "hf-sft.yaml")
	}

	t.Run("neovim", func(t *testing.T) {
		nvim := need(t, "nvim", "Debian's neovim")
		dir, file := workspace(t)
		script, _ := filepath.Abs(filepath.Join("testdata", "nvim", "client.lua"))
		out, err := runClient(t, dir, []string{"TRAINLINT_BIN=" + bin, "TRAINLINT_ROOT=" + dir, "TRAINLINT_FILE=" + file},
			nvim, "--headless", "--clean", "-c", "luafile "+script)
		t.Logf("neovim:\n%s", out)
		if err != nil {
			t.Fatalf("the neovim client failed: %v", err)
		}
		if !bytes.Contains(out, []byte("ok   neovim client: all checks passed")) {
			t.Fatal("the neovim client did not report its checks")
		}
		fixed, _ := os.ReadFile(file)
		if bytes.Contains(fixed, []byte("per_device_eval_batch_size: 16")) {
			t.Error("the client's buffer edit reached the disk: the test left nothing to compare")
		}
	})

	t.Run("node", func(t *testing.T) {
		node := need(t, "node", "Node.js")
		dir, file := workspace(t)
		pkg, _ := filepath.Abs(filepath.Join("testdata", "node"))
		npmCI(t, pkg)
		out, err := runClient(t, pkg, nil, node, "client.js", bin, dir, file)
		t.Logf("node:\n%s", out)
		if err != nil {
			t.Fatalf("the node client failed: %v", err)
		}
		if !bytes.Contains(out, []byte(", 0 failed")) {
			t.Fatal("the node client did not report its checks")
		}
		saved, _ := os.ReadFile(file)
		if !bytes.Contains(saved, []byte("per_device_eval_batch_size: 16")) {
			t.Error("the node client saved the fixed file, but the disk does not have the fix")
		}
	})
}

// hydraWorkspace is a Hydra config directory for the Node client's composed-run check: the
// checkpoint's mode: min in its group file is overridden by callbacks/default.yaml's mode: max,
// which composes after it; the client deletes that line in the editor.
var hydraWorkspace = map[string]string{
	"conf/train.yaml":                      "defaults:\n  - callbacks: default\n  - _self_\nseed: 1\n",
	"conf/callbacks/default.yaml":          "defaults:\n  - model_checkpoint\n  - _self_\nmodel_checkpoint:\n  monitor: val/acc\n  mode: max\n",
	"conf/callbacks/model_checkpoint.yaml": "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: null\n  save_top_k: 1\n  mode: min\n",
}

// need returns a tool's path; a missing tool fails the test in CI and skips it elsewhere.
func need(t *testing.T, tool, what string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s not found (%s): .ci/run must install it", tool, what)
	}
	t.Skipf("%s not found (%s); CI installs it", tool, what)
	return ""
}

func runClient(t *testing.T, dir string, env []string, name string, args ...string) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}

// npmCI installs the Node client's locked packages unless node_modules already holds this lock.
func npmCI(t *testing.T, dir string) {
	t.Helper()
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(lock)
	want := hex.EncodeToString(sum[:])
	stamp := filepath.Join(dir, "node_modules", ".trainlint-lock")
	if have, err := os.ReadFile(stamp); err == nil && string(have) == want {
		return
	}
	npm := need(t, "npm", "Node.js's package manager")
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
	if err := os.WriteFile(stamp, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
}
