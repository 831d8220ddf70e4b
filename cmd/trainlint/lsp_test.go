package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// frame wraps JSON-RPC messages in LSP's Content-Length framing.
func frame(msgs ...string) *bytes.Reader {
	var b bytes.Buffer
	for _, m := range msgs {
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(m), m)
	}
	return bytes.NewReader(b.Bytes())
}

// TestLSPSubcommand runs `trainlint lsp` through the CLI's dispatcher on a scripted session:
// initialize, open a config next to a .trainlint.toml, shutdown, exit. The config file's
// context (2 hosts) must apply, as it does for check.
func TestLSPSubcommand(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	b, err := os.ReadFile(filepath.Join("examples", "deepspeed-zero2.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "deepspeed-zero2.json"), b, 0o644)
	os.WriteFile(filepath.Join(dir, ".trainlint.toml"), []byte("[context]\nhosts = 2\ndevices-per-host = 8\n"), 0o644)
	text, _ := os.ReadFile(filepath.Join(dir, "deepspeed-zero2.json"))
	quoted := strings.ReplaceAll(strings.ReplaceAll(string(text), `"`, `\"`), "\n", `\n`)
	u := "file://" + filepath.ToSlash(filepath.Join(dir, "deepspeed-zero2.json"))
	stdin := frame(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`,
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"`+u+`","languageId":"json","version":1,"text":"`+quoted+`"}}}`,
		// A hover makes the server lint now (its answer needs the findings), so the session
		// does not depend on the debounce timer.
		`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"`+u+`"},"position":{"line":10,"character":45}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"lsp"}, stdin, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{`"name":"trainlint"`, `"id":1`, `"id":2`, `"id":3`, "TL602 multi-host-checkpoint-on-all-hosts"} {
		if !strings.Contains(out, want) {
			t.Errorf("the session's output lacks %s:\n%s", want, out)
		}
	}

	// Exit without shutdown: exit code 1, as the protocol asks.
	stdout.Reset()
	if code := run([]string{"lsp"}, frame(`{"jsonrpc":"2.0","method":"exit"}`), &stdout, &stderr); code != 1 {
		t.Errorf("exit without shutdown: code %d, want 1", code)
	}
	if code := run([]string{"lsp", "--port", "1"}, nil, &stdout, &stderr); code != exitUsage {
		t.Errorf("lsp with arguments: code %d, want 2", code)
	}
	stdout.Reset()
	if code := run([]string{"lsp", "--help"}, nil, &stdout, &stderr); code != exitOK || !strings.HasPrefix(stdout.String(), "Usage: trainlint lsp") {
		t.Errorf("lsp --help: code %d, %q", code, stdout.String())
	}
}
