package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/trainlint/trainlint/cmd/trainlint/internal/lsp"
	"github.com/trainlint/trainlint/cmd/trainlint/internal/lsp/lsptest"
)

// editorTree is hydraTree with the checkpoint's mode in the group file and the direction
// that fits its monitor set in callbacks/default.yaml, which composes after it.
func editorTree() map[string]string {
	t := map[string]string{}
	for k, v := range hydraTree {
		t[k] = v
	}
	t["conf/callbacks/model_checkpoint.yaml"] = "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: null\n  save_top_k: 1\n  mode: min\n"
	t["conf/plain.yaml"] = "per_device_train_batch_size: 8\n"
	return t
}

func diskRead(p string) ([]byte, bool) {
	b, err := os.ReadFile(p)
	return b, err == nil
}

// TestEditorRuns: the language server's run finder returns the runs whose composition reads
// the edited file (the primary first, experiments with their override), reads through the
// editor (an unsaved defaults list counts) and leaves files no run reads to a run of one.
func TestEditorRuns(t *testing.T) {
	dir := writeTree(t, editorTree())
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	runs := editorRuns(p("conf/callbacks/model_checkpoint.yaml"), diskRead, "")
	if len(runs) != 2 {
		t.Fatalf("runs %+v, want train.yaml and its experiment", runs)
	}
	for i, r := range runs {
		if r.Files[0] != p("conf/train.yaml") || !strings.Contains(strings.Join(r.Files, " "), p("conf/callbacks/model_checkpoint.yaml")) {
			t.Errorf("run %d files %v", i, r.Files)
		}
	}
	if strings.Join(runs[0].Overrides, " ") != "" || strings.Join(runs[1].Overrides, " ") != "experiment=x" {
		t.Errorf("overrides %v, %v", runs[0].Overrides, runs[1].Overrides)
	}
	if exp := editorRuns(p("conf/experiment/x.yaml"), diskRead, ""); len(exp) != 1 || strings.Join(exp[0].Overrides, " ") != "experiment=x" {
		t.Errorf("the experiment's runs: %+v", exp)
	}
	// debug/slow.yaml is in no run (debug: null) until the editor's unsaved train.yaml picks it.
	slow := p("conf/debug/slow.yaml")
	if got := editorRuns(slow, diskRead, ""); len(got) != 1 || len(got[0].Files) != 1 || got[0].Files[0] != slow {
		t.Errorf("a file no run reads: %+v", got)
	}
	unsaved := func(path string) ([]byte, bool) {
		if path == p("conf/train.yaml") {
			return []byte(strings.Replace(hydraTree["conf/train.yaml"], "debug: null", "debug: slow", 1)), true
		}
		return diskRead(path)
	}
	if got := editorRuns(slow, unsaved, ""); len(got) != 2 || got[0].Files[0] != p("conf/train.yaml") {
		t.Errorf("with the unsaved defaults list: %+v", got)
	}
	// A folder with more YAML files than a config directory has is not searched.
	for i := 0; i <= maxRunCandidates; i++ {
		os.WriteFile(filepath.Join(dir, "conf", "gen"+itoa(i)+".yaml"), []byte("x: 1\n"), 0o644)
	}
	if got := editorRuns(p("conf/callbacks/model_checkpoint.yaml"), diskRead, ""); len(got) != 1 || len(got[0].Files) != 1 {
		t.Errorf("runs searched in a folder of %d YAML files: %+v", maxRunCandidates+1, got)
	}
	for _, f := range []string{"conf/plain.yaml", "conf/data/small.yaml.json"} {
		if got := editorRuns(p(f), diskRead, ""); len(got) != 1 || len(got[0].Files) != 1 {
			t.Errorf("%s: %+v", f, got)
		}
	}
}

// TestEditorRunsGroupOfUnsavedParent: whether a folder is a config group of the folder above
// is read through the editor too. On disk train.yaml does not list callbacks/, so the group's
// own default.yaml is the primary that reads model_checkpoint.yaml; once the editor's unsaved
// train.yaml lists `- callbacks: default`, the file belongs to train.yaml's runs.
func TestEditorRunsGroupOfUnsavedParent(t *testing.T) {
	tree := editorTree()
	listed := tree["conf/train.yaml"]
	tree["conf/train.yaml"] = strings.Replace(listed, "  - callbacks: default\n", "", 1)
	dir := writeTree(t, tree)
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	ckpt := p("conf/callbacks/model_checkpoint.yaml")
	if got := editorRuns(ckpt, diskRead, ""); len(got) == 0 || got[0].Files[0] != p("conf/callbacks/default.yaml") {
		t.Fatalf("from the disk: %+v, want callbacks/default.yaml's run", got)
	}
	unsaved := func(path string) ([]byte, bool) {
		if path == p("conf/train.yaml") {
			return []byte(listed), true
		}
		return diskRead(path)
	}
	got := editorRuns(ckpt, unsaved, "")
	if len(got) != 2 || got[0].Files[0] != p("conf/train.yaml") {
		t.Errorf("with the unsaved train.yaml: %+v, want train.yaml's run and its experiment", got)
	}
}

// TestLSPLintsRuns: `trainlint lsp` lints an edited group file through the runs that include
// it. The editor's unsaved callbacks/default.yaml drops `mode: max`, so the checkpoint's
// `mode: min` in model_checkpoint.yaml now ranks the monitor of default.yaml the wrong way:
// the finding is published on model_checkpoint.yaml (another file than the one edited), with
// default.yaml as its related location, while the disk still says mode: max.
func TestLSPLintsRuns(t *testing.T) {
	dir := writeTree(t, editorTree())
	ctx, server, rec := startEditor(t, lsp.Engine{Rules: allRules(), Runs: editorRuns}, &protocol.InitializeParams{})
	def := filepath.Join(dir, "conf", "callbacks", "default.yaml")
	ckpt := uri.File(filepath.Join(dir, "conf", "callbacks", "model_checkpoint.yaml"))
	server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri.File(def), LanguageID: "yaml", Version: 1,
		Text: strings.Replace(hydraTree["conf/callbacks/default.yaml"], "  mode: max\n", "", 1)}})
	d, ok := awaitDiag(rec, ckpt, "TL310", nil)
	if !ok {
		t.Fatal("model_checkpoint.yaml got no TL310 from the run")
	}
	if d.Range.Start.Line != 4 {
		t.Errorf("TL310 at line %d, want 5", d.Range.Start.Line+1)
	}
	if len(d.RelatedInformation) == 0 || d.RelatedInformation[0].Location.URI != uri.File(def) {
		t.Errorf("TL310 related %+v, want default.yaml", d.RelatedInformation)
	}
}

// awaitDiag waits, up to 20 seconds, for a publication on u that holds a diagnostic of the rule
// code that match accepts (nil: any), and returns that diagnostic; ok is false when none came.
func awaitDiag(rec *lsptest.Recorder, u uri.URI, code string, match func(protocol.Diagnostic) bool) (d protocol.Diagnostic, ok bool) {
	deadline := time.After(20 * time.Second)
	for {
		select {
		case p := <-rec.Diags:
			if p.URI != u {
				continue
			}
			for _, d := range p.Diagnostics {
				if c, ok := d.Code.(protocol.String); ok && string(c) == code && (match == nil || match(d)) {
					return d, true
				}
			}
		case <-deadline:
			return protocol.Diagnostic{}, false
		}
	}
}

// startEditor serves eng in-process over a pipe (1 ms debounce) and initializes it with init;
// everything stops when the test ends.
func startEditor(t *testing.T, eng lsp.Engine, init *protocol.InitializeParams) (context.Context, protocol.Server, *lsptest.Recorder) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	a, b := net.Pipe()
	t.Cleanup(func() {
		cancel()
		a.Close()
		b.Close()
	})
	rec := lsptest.NewRecorder()
	go lsp.Serve(ctx, a, a, eng, lsp.Options{Delay: time.Millisecond})
	_, _, server := protocol.NewClient(ctx, rec, jsonrpc2.NewStream(b))
	if _, err := server.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return ctx, server, rec
}

// TestLSPWorkspaceFolderRuns: a server initialized with a workspace folder that is no
// repository (no .git) gives its finder that folder, and an opened MMEngine base is linted
// through the config built on it in a sibling folder (the eval batch finding of that run at
// the base's line 2); with no workspace folder the base is a run of one.
func TestLSPWorkspaceFolderRuns(t *testing.T) {
	tree := mmCodeTree()
	delete(tree, ".git/HEAD")
	dir := writeTree(t, tree)
	base := filepath.Join(dir, "configs", "_base_", "datasets", "data.py")
	leaf := filepath.Join(dir, "configs", "det", "leaf.py")
	src, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	open := func(init *protocol.InitializeParams) (folder string, runs []lsp.Run) {
		var mu sync.Mutex
		finder := func(p string, read func(string) ([]byte, bool), f string) []lsp.Run {
			r := editorRuns(p, read, f)
			mu.Lock()
			folder, runs = f, r
			mu.Unlock()
			return r
		}
		ctx, server, rec := startEditor(t, lsp.Engine{Rules: allRules(), Runs: finder}, init)
		server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: uri.File(base), LanguageID: "python", Version: 1, Text: string(src)}})
		deadline := time.After(20 * time.Second)
		for {
			select {
			case p := <-rec.Diags:
				if p.URI != uri.File(base) {
					continue
				}
				found := false
				for _, d := range p.Diagnostics {
					c, ok := d.Code.(protocol.String)
					found = found || ok && string(c) == "TL202" && d.Range.Start.Line == 1
				}
				if !found {
					t.Errorf("data.py: no TL202 at line 2: %+v", p.Diagnostics)
				}
				mu.Lock()
				defer mu.Unlock()
				return folder, runs
			case <-deadline:
				t.Fatal("data.py got no diagnostics")
			}
		}
	}
	init := &protocol.InitializeParams{}
	init.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(dir), Name: "mm"}})
	if folder, runs := open(init); folder != dir || len(runs) != 1 || runs[0].Files[0] != leaf {
		t.Errorf("workspace %s: finder given %q, runs %+v, want leaf.py's run", dir, folder, runs)
	}
	if folder, runs := open(&protocol.InitializeParams{}); folder != "" || len(runs) != 1 || len(runs[0].Files) != 1 {
		t.Errorf("no workspace: finder given %q, runs %+v, want a run of one", folder, runs)
	}
}

// TestEditorRunsSiblingBaseLaunchedByScript: the editor discovers runs as check does: a base
// its siblings include is a run of its own when a script's @hydra.main launches it alone.
func TestEditorRunsSiblingBaseLaunchedByScript(t *testing.T) {
	files := map[string]string{
		".git/HEAD":           "ref: refs/heads/main\n",
		"recipes/seg.yaml":    "defaults:\n  - training_hyperparams: default_train_params\n  - _self_\n\nexperiment_name: ${architecture}_x\n",
		"recipes/seg_b0.yaml": "defaults:\n  - seg\n  - _self_\n\narchitecture: b0\n",
		"recipes/training_hyperparams/default_train_params.yaml": "max_epochs: 2\n",
	}
	for script, want := range map[string]bool{"": false, "@hydra.main(version_base=None, config_path=\"recipes\", config_name=\"seg\")\ndef main(cfg):\n    train(cfg)\n": true} {
		delete(files, "train.py")
		if script != "" {
			files["train.py"] = script
		}
		dir := writeTree(t, files)
		base := filepath.Join(dir, "recipes", "seg.yaml")
		own := false
		for _, r := range editorRuns(base, diskRead, "") {
			own = own || r.Files[0] == base
		}
		if own != want {
			t.Errorf("script %q: seg.yaml has a run of its own %v, want %v", script, own, want)
		}
	}
}
