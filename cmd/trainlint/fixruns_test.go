package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

// TestComposedFixEditsNameTheFile: a run's fix in the JSON report names the file as the
// finding does (the path given, not the path inside the tree the run is composed from).
func TestComposedFixEditsNameTheFile(t *testing.T) {
	dir := writeTree(t, mmTree)
	_, stdout, _ := cli(t, nil, "check", "--format", "json", filepath.Join(dir, "configs"))
	var rep struct {
		Diagnostics []struct {
			Code, File string
			Fix        *struct {
				Edits []struct{ File string }
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range rep.Diagnostics {
		if d.Code == "TL202" && d.File == filepath.Join(dir, "configs", "run.py") {
			found = d.Fix != nil && len(d.Fix.Edits) == 1 && d.Fix.Edits[0].File == d.File
		}
	}
	if !found {
		t.Errorf("run.py's TL202 and its fix's file:\n%s", stdout)
	}
}

// TestFixReportReadsFixedJoinedFile: --fix rewrites a DeepSpeed file a recipe's run reads
// (after the recipe, whose run read it first: z_ds.json sorts after sft.yaml); the report
// after it composes the run from the fixed text, not from what was read before.
func TestFixReportReadsFixedJoinedFile(t *testing.T) {
	writeTree(t, map[string]string{
		"sft.yaml":  "model_name_or_path: gpt2\noutput_dir: out\nper_device_train_batch_size: 8\nper_device_eval_batch_size: 8\neval_strategy: steps\neval_steps: 100\ndeepspeed: z_ds.json\n",
		"z_ds.json": `{"train_micro_batch_size_per_gpu": "auto", "fp16": {"enabled": true}, "bf16": {"enabled": true}}` + "\n",
	})
	_, stdout, stderr := cli(t, nil, "check", "--fix", "--unsafe-fixes", ".")
	if !strings.Contains(readFile(t, "z_ds.json"), `"fp16": {"enabled": false}`) {
		t.Fatalf("z_ds.json not fixed (%s):\n%s", stderr, readFile(t, "z_ds.json"))
	}
	if strings.Contains(stdout, "fp16.enabled true") {
		t.Errorf("the report read z_ds.json from before the fix:\n%s", stdout)
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
	diag, ok := awaitDiag(rec, u, "TL202", nil)
	if !ok {
		t.Fatal("run.py got no TL202 from its run")
	}
	acts, err := server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: diag.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{diag}}})
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

// TestFixLeavesPrimaryOthersRead: once another config lists run.py as its base, --fix no
// longer raises run.py's eval batch, which child.py's run would inherit; the finding stays.
func TestFixLeavesPrimaryOthersRead(t *testing.T) {
	tree := map[string]string{"configs/child.py": "_base_ = ['./run.py']\nval_evaluator = dict(type='Accuracy', topk=(1, 5))\n"}
	for k, v := range mmTree {
		tree[k] = v
	}
	writeTree(t, tree)
	_, stdout, stderr := cli(t, nil, "check", "--fix", "configs")
	if readFile(t, "configs/run.py") != mmTree["configs/run.py"] || !strings.Contains(stderr, "no fixes to apply") {
		t.Errorf("--fix changed run.py (%s):\n%s", stderr, readFile(t, "configs/run.py"))
	}
	if !strings.Contains(stdout, "configs/run.py:2:") || strings.Contains(stdout, "fixable") {
		t.Errorf("report:\n%s", stdout)
	}
	// Named alone (as pre-commit names staged files), run.py's tree holds no other run: the
	// runs that read it are looked for as the editor does.
	if _, stdout, _ = cli(t, nil, "check", "--diff", "configs/run.py"); stdout != "" {
		t.Errorf("--diff of run.py named alone:\n%s", stdout)
	}
	if _, stdout, _ = cli(t, nil, "check", "configs/run.py"); !strings.Contains(stdout, "configs/run.py:2:") || strings.Contains(stdout, "fixable") {
		t.Errorf("report of run.py named alone:\n%s", stdout)
	}
}

// TestLSPNoFixInPrimaryOthersRead: the editor lints train.yaml in its plain run and in its
// experiment's (train.yaml + experiment=big, one lint each); the plain run's finding offers no
// quick fix, since the experiment's run reads the same value.
func TestLSPNoFixInPrimaryOthersRead(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"configs/train.yaml":          "defaults:\n  - data: default\n  - _self_\n  - experiment: null\n\neval:\n  batch_size: 4\n",
		"configs/data/default.yaml":   "# @package _global_\ntrain:\n  batch_size: 32\n",
		"configs/experiment/big.yaml": "# @package _global_\ntrain:\n  batch_size: 64\n",
	})
	ctx, server, rec := startEditor(t, lsp.Engine{Rules: allRules(), Runs: editorRuns}, &protocol.InitializeParams{})
	u := uri.File(filepath.Join(dir, "configs", "train.yaml"))
	text, _ := os.ReadFile(filepath.Join(dir, "configs", "train.yaml"))
	server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "yaml", Version: 1, Text: string(text)}})
	d, ok := awaitDiag(rec, u, "TL202", func(d protocol.Diagnostic) bool { return strings.Contains(fmt.Sprint(d.Message), "train batch 32") })
	if !ok {
		t.Fatal("train.yaml got no TL202 from its plain run")
	}
	if title := quickFixTitled(t, ctx, server, u, d, "set eval.batch_size"); title != "" {
		t.Errorf("quick fix offered: %s", title)
	}
}

// TestLSPRunFixesOnlyForTheEditedPrimary: the editor lints the runs that read the edited file,
// each alone, so only a run whose primary is the edited file, read by no other run, keeps its
// fixes. Opening run.py publishes its finding with the fix; opening the base then publishes
// run.py's findings again (its run reads the base), without the fix: from the base, the finder
// does not look for the runs that read run.py.
func TestLSPRunFixesOnlyForTheEditedPrimary(t *testing.T) {
	tree := map[string]string{".git/HEAD": "ref: refs/heads/main\n"} // the repository the finder searches
	for k, v := range mmTree {
		if k != "configs/inherits.py" { // run.py's run is the only one that reads the base
			tree[k] = v
		}
	}
	dir := writeTree(t, tree)
	ctx, server, rec := startEditor(t, lsp.Engine{Rules: allRules(), Runs: editorRuns}, &protocol.InitializeParams{})
	run := uri.File(filepath.Join(dir, "configs", "run.py"))
	quickFix := func(open string) (found, fix bool) {
		text, _ := os.ReadFile(open)
		server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: uri.File(open), LanguageID: "python", Version: 1, Text: string(text)}})
		d, ok := awaitDiag(rec, run, "TL202", nil)
		if !ok {
			return false, false
		}
		return true, quickFixTitled(t, ctx, server, run, d, "set val_dataloader.batch_size") != ""
	}
	if found, fix := quickFix(filepath.Join(dir, "configs", "run.py")); !found || !fix {
		t.Errorf("opening run.py: its TL202 published %v, with a quick fix %v", found, fix)
	}
	if found, fix := quickFix(filepath.Join(dir, "configs", "_base_", "base.py")); !found || fix {
		t.Errorf("then opening the base: run.py's TL202 published %v, with a quick fix %v", found, fix)
	}
}

// quickFixTitled asks the server for d's code actions and returns the title of the first that
// starts with prefix ("" for none).
func quickFixTitled(t *testing.T, ctx context.Context, server protocol.Server, u uri.URI, d protocol.Diagnostic, prefix string) string {
	t.Helper()
	acts, err := server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: d.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range acts {
		if a, ok := r.(*protocol.CodeAction); ok && strings.HasPrefix(a.Title, prefix) {
			return a.Title
		}
	}
	return ""
}

// TestFixLeavesPrimaryReadElsewhere: the runs that read a primary are looked for among all the
// configs under the tree's root, not only the files given: a config in a sibling folder lists
// run.py as its base (no .git: the root is the working folder), and a Hydra primary lists
// train.yaml in its defaults. Neither primary is fixed, whether named alone, its folder walked
// or the whole tree walked.
func TestFixLeavesPrimaryReadElsewhere(t *testing.T) {
	writeTree(t, map[string]string{
		"mm/_base_/base.py":    mmTree["configs/_base_/base.py"],
		"mm/a/run.py":          "_base_ = ['../_base_/base.py']\nval_dataloader = dict(batch_size=8)\n",
		"mm/b/child.py":        "_base_ = ['../a/run.py']\n",
		"hy/data/default.yaml": "# @package _global_\ntrain:\n  batch_size: 32\n",
		"hy/train.yaml":        "defaults:\n  - data: default\n  - _self_\n\neval:\n  batch_size: 4\n",
		"hy/small.yaml":        "defaults:\n  - train\n  - _self_\n",
	})
	for _, arg := range []string{"mm/a/run.py", "mm/a", "mm", "hy/train.yaml", "hy"} {
		if _, stdout, _ := cli(t, nil, "check", "--diff", arg); stdout != "" {
			t.Errorf("--diff %s:\n%s", arg, stdout)
		}
	}
	// Without the configs that read them, both are fixed.
	os.Remove("mm/b/child.py")
	os.Remove("hy/small.yaml")
	for _, arg := range []string{"mm/a/run.py", "hy/train.yaml"} {
		if _, stdout, _ := cli(t, nil, "check", "--diff", arg); !strings.Contains(stdout, "+++ b/"+arg) {
			t.Errorf("--diff %s alone gave no diff:\n%s", arg, stdout)
		}
	}
}
