package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/trainlint/trainlint/cmd/trainlint/internal/lsp"
)

// mmTree is a base with the loops, a train batch of 32 and an eval batch of 4; a run with an
// eval batch of its own (TL202 in run.py, which only the run makes: the file alone has no train
// batch) and a run that inherits the base's eval batch with a train batch of 16 (TL202 on the
// base: no fix, since both runs read it).
var mmTree = map[string]string{
	"configs/_base_/base.py": `model = dict(type='ImageClassifier', backbone=dict(type='ResNet', depth=50))
train_cfg = dict(by_epoch=True, max_epochs=100, val_interval=1)
val_cfg = dict()
val_evaluator = dict(type='Accuracy')
train_dataloader = dict(batch_size=32, num_workers=2)
val_dataloader = dict(batch_size=4, num_workers=2)
optim_wrapper = dict(optimizer=dict(type='SGD', lr=0.1))
default_scope = 'mmpretrain'
`,
	"configs/run.py": `_base_ = ['./_base_/base.py']
val_dataloader = dict(batch_size=8)  # the run's own
`,
	"configs/inherits.py": `_base_ = ['./_base_/base.py']
train_dataloader = dict(batch_size=16, num_workers=2)
`,
}

// TestFixComposedRuns: --fix applies the fixes of a composed run's findings on values its
// primary writes (run.py), keeps the file's mode, leaves the base alone, and the report that
// follows lints the fixed text; --diff shows the same change and writes nothing.
func TestFixComposedRuns(t *testing.T) {
	writeTree(t, mmTree)
	if err := os.Chmod("configs/run.py", 0o640); err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(mmTree["configs/run.py"], "batch_size=8)", "batch_size=32)", 1)
	code, stdout, _ := cli(t, nil, "check", "--diff", "configs")
	if !strings.Contains(stdout, "--- a/configs/run.py\n") || !strings.Contains(stdout, "+val_dataloader = dict(batch_size=32)  # the run's own\n") ||
		strings.Count(stdout, "--- a/") != 1 || code != exitFindings {
		t.Errorf("--diff (exit %d):\n%s", code, stdout)
	}
	if readFile(t, "configs/run.py") != mmTree["configs/run.py"] {
		t.Fatal("--diff wrote the file")
	}
	_, stdout, stderr := cli(t, nil, "check", "--fix", "configs")
	if got := readFile(t, "configs/run.py"); got != fixed {
		t.Fatalf("run.py after --fix:\n%s\nwant:\n%s", got, fixed)
	}
	for _, f := range []string{"configs/_base_/base.py", "configs/inherits.py"} {
		if readFile(t, f) != mmTree[f] {
			t.Errorf("--fix changed %s", f)
		}
	}
	if fi, err := os.Stat("configs/run.py"); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode after --fix: %v %v", fi.Mode().Perm(), err)
	}
	if !strings.Contains(stderr, "applied 1 fix in 1 file") {
		t.Errorf("stderr: %s", stderr)
	}
	// The report is the lint of the fixed tree: run.py's finding is gone, the base's stays.
	if strings.Contains(stdout, "configs/run.py:2") || !strings.Contains(stdout, "configs/_base_/base.py:6:") {
		t.Errorf("report after --fix:\n%s", stdout)
	}
	_, _, stderr = cli(t, nil, "check", "--fix", "configs")
	if !strings.Contains(stderr, "no fixes to apply") {
		t.Errorf("a second --fix: %s", stderr)
	}
}

// TestLSPFixesComposedRun: in the editor, run.py's finding, which only its run makes (the
// file alone does not know the loops its base sets), offers its quick fix, and the file's
// fix-all action applies it.
func TestLSPFixesComposedRun(t *testing.T) {
	dir := writeTree(t, mmTree)
	ctx, server, rec := startEditor(t, lsp.Engine{Rules: allRules(), Runs: editorRuns}, &protocol.InitializeParams{})
	u := uri.File(filepath.Join(dir, "configs", "run.py"))
	server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "python", Version: 1, Text: mmTree["configs/run.py"]}})
	var diag *protocol.Diagnostic
	deadline := time.After(20 * time.Second)
	for diag == nil {
		select {
		case p := <-rec.Diags:
			if p.URI != u {
				continue
			}
			for i, d := range p.Diagnostics {
				if c, ok := d.Code.(protocol.String); ok && string(c) == "TL202" {
					diag = &p.Diagnostics[i]
				}
			}
		case <-deadline:
			t.Fatal("run.py got no TL202 from its run")
		}
	}
	acts, err := server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: diag.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{*diag}}})
	if err != nil {
		t.Fatal(err)
	}
	quick := false
	for _, r := range acts {
		if a, ok := r.(*protocol.CodeAction); ok && a.Title == "set val_dataloader.batch_size to 32" && a.Edit != nil {
			es := a.Edit.Changes[u]
			quick = len(es) == 1 && es[0].NewText == "32" && es[0].Range == diag.Range
		}
	}
	if !quick {
		t.Errorf("no quick fix for run.py's TL202 among %+v", acts)
	}
	acts, err = server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{lsp.FixAllKind}}})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(mmTree["configs/run.py"], "batch_size=8)", "batch_size=32)", 1)
	all := false
	for _, r := range acts {
		if a, ok := r.(*protocol.CodeAction); ok && a.Edit != nil && len(a.Edit.Changes[u]) == 1 {
			all = a.Edit.Changes[u][0].NewText == want
		}
	}
	if !all {
		t.Errorf("the fix-all action does not give the fixed run.py: %+v", acts)
	}
}
