package lint_test

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/rules"
)

// mmRunFiles is an MMPretrain-style tree: a base that sets the eval batch and the rest of the
// loops, and runs that read it.
//   - own.py sets its train batch and an eval batch of its own (TL202 in own.py: fixable there);
//   - inherits.py sets only its train batch, so its TL202 is on the base's eval batch, which
//     other runs read too: no fix;
//   - shared.py writes one dict for the val and test loaders (test_dataloader =
//     val_dataloader), so raising the eval batch would raise the test batch too: no fix;
//   - vianame.py reaches the eval batch through a variable that also sets the test batch: no
//     fix, as for the file alone (an edit of the literal would change the test batch too).
var mmRunFiles = map[string]string{
	"base.py": `model = dict(type='ImageClassifier', backbone=dict(type='ResNet', depth=50))
train_cfg = dict(by_epoch=True, max_epochs=100, val_interval=1)
val_cfg = dict()
val_evaluator = dict(type='Accuracy')
val_dataloader = dict(batch_size=4, num_workers=2)
optim_wrapper = dict(optimizer=dict(type='SGD', lr=0.1))
default_scope = 'mmpretrain'
`,
	"own.py": `_base_ = ['./base.py']
train_dataloader = dict(batch_size=32, num_workers=2)
val_dataloader = dict(batch_size=8)  # the run's own
`,
	"inherits.py": `_base_ = ['./base.py']
train_dataloader = dict(batch_size=16, num_workers=2)
`,
	"shared.py": `_base_ = ['./base.py']
train_dataloader = dict(batch_size=16, num_workers=2)
val_dataloader = dict(batch_size=2, num_workers=2)
test_dataloader = val_dataloader
`,
	"vianame.py": `_base_ = ['./base.py']
eval_bs = 2
train_dataloader = dict(batch_size=16, num_workers=2)
val_dataloader = dict(batch_size=eval_bs)
test_dataloader = dict(batch_size=eval_bs)
`,
}

func mmFiles() []lint.File {
	var out []lint.File
	for _, p := range []string{"base.py", "inherits.py", "own.py", "shared.py", "vianame.py"} {
		out = append(out, lint.File{Path: p, Text: []byte(mmRunFiles[p])})
	}
	return out
}

// TestRunFindingsKeepCertainFixes: a composed run's finding offers its fix where the edit is a
// value the run's primary writes itself, and nowhere else.
func TestRunFindingsKeepCertainFixes(t *testing.T) {
	res := lint.LintFiles(mmFiles(), nil, rules.All(), lint.Options{})
	got := map[string]string{} // file → the TL202 fix's new text ("" for none)
	for _, d := range res.Diagnostics {
		if d.Code != "TL202" {
			continue
		}
		fix := ""
		if d.Fix != nil {
			if len(d.Fix.Edits) != 1 || d.Fix.Edits[0].File != d.File {
				t.Errorf("%s: fix edits %+v", d.File, d.Fix.Edits)
				continue
			}
			e := d.Fix.Edits[0]
			src := mmRunFiles[d.File]
			fix = src[e.Start:e.End] + "→" + e.NewText
		}
		got[d.File+":"+itoaT(d.Line)] = fix
	}
	want := map[string]string{
		"own.py:3":     "8→32", // the primary's own value
		"base.py:5":    "",     // inherits.py's finding: the base is read by other runs
		"shared.py:3":  "",     // the value is the test loader's too
		"vianame.py:2": "",     // the variable's literal feeds the test batch too
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			t.Errorf("TL202 at %s: fix %q (found %v), want %q", k, g, ok, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("TL202 findings %v, want %v", got, want)
	}
}

// TestFixRunFixesThePrimaryOnly: FixRun applies the run's fixes to the primary's text and
// nothing else; a run launched with overrides gets none.
func TestFixRunFixesThePrimaryOnly(t *testing.T) {
	m := map[string][]byte{}
	for p, s := range mmRunFiles {
		m[p] = []byte(s)
	}
	fsys := lint.MemFS(m)
	out, err := lint.FixRun(fsys, compose.Spec{Primary: "own.py"}, m["own.py"], rules.All(), lint.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(mmRunFiles["own.py"], "batch_size=8)", "batch_size=32)", 1)
	if string(out.Text) != want || out.Applied != 1 || out.Rounds != 1 {
		t.Errorf("fixed own.py (%d applied in %d rounds):\n%s\nwant:\n%s", out.Applied, out.Rounds, out.Text, want)
	}
	for _, d := range out.Diagnostics {
		if d.Code == "TL202" {
			t.Errorf("TL202 left after the fix: %+v", d)
		}
	}
	if string(m["base.py"]) != mmRunFiles["base.py"] {
		t.Error("FixRun changed the base")
	}
	// The base's eval batch is inherits.py's finding: its run has nothing of its own to fix.
	out, err = lint.FixRun(fsys, compose.Spec{Primary: "inherits.py"}, m["inherits.py"], rules.All(), lint.Options{}, false)
	if err != nil || out.Applied != 0 || string(out.Text) != mmRunFiles["inherits.py"] {
		t.Errorf("inherits.py: %d applied, %v\n%s", out.Applied, err, out.Text)
	}
	out, err = lint.FixRun(fsys, compose.Spec{Primary: "own.py", Overrides: []string{"x=1"}}, m["own.py"], rules.All(), lint.Options{}, false)
	if err != nil || out.Applied != 0 || string(out.Text) != mmRunFiles["own.py"] {
		t.Errorf("with overrides: %d applied, %v", out.Applied, err)
	}
}

// TestFixFilesAppliesWhatLintShows: the browser's fix (FixFiles) applies each file's fixes as
// LintFiles shows them, the runs' included, and returns the lint of the fixed files.
func TestFixFilesAppliesWhatLintShows(t *testing.T) {
	files := mmFiles()
	outs, res, errs := lint.FixFiles(files, nil, rules.All(), lint.Options{}, false)
	for i, f := range files {
		if errs[i] != nil {
			t.Fatalf("%s: %v", f.Path, errs[i])
		}
		want := mmRunFiles[f.Path]
		switch f.Path {
		case "own.py":
			want = strings.Replace(want, "batch_size=8)", "batch_size=32)", 1)
		}
		if string(outs[i].Text) != want {
			t.Errorf("%s after fixing:\n%s\nwant:\n%s", f.Path, outs[i].Text, want)
		}
	}
	left := map[string]bool{}
	for _, d := range res.Diagnostics {
		if d.Code == "TL202" {
			left[d.File] = true
		}
	}
	if left["own.py"] || !left["vianame.py"] || !left["base.py"] || !left["shared.py"] {
		t.Errorf("TL202 left in %v, want base.py, shared.py and vianame.py", left)
	}
	// With overrides no run is fixed: the files keep their text (these have no fix of their own).
	outs, _, _ = lint.FixFiles(files, []string{"x=1"}, rules.All(), lint.Options{}, false)
	for i, f := range files {
		if string(outs[i].Text) != string(f.Text) {
			t.Errorf("%s changed with overrides", f.Path)
		}
	}
}

func itoaT(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoaT(n/10) + string(rune('0'+n%10))
}

// TestHydraExperimentRunsOfferNoFix: train.yaml is the primary of the plain run and of each
// experiment's run (train.yaml + experiment=big), which reads it with other values: a fix
// made for one run could break the other, so neither offers one.
func TestHydraExperimentRunsOfferNoFix(t *testing.T) {
	files := []lint.File{
		{Path: "configs/train.yaml", Text: []byte("defaults:\n  - trainer: default\n  - _self_\n  - experiment: null\n\ntrain:\n  batch_size: 32\neval:\n  batch_size: 4\n")},
		{Path: "configs/trainer/default.yaml", Text: []byte("devices: 1\n")},
		{Path: "configs/experiment/big.yaml", Text: []byte("# @package _global_\ntrain:\n  batch_size: 64\n")},
	}
	res := lint.LintFiles(files, nil, rules.All(), lint.Options{})
	got := map[string]bool{} // message → has a fix
	for _, d := range res.Diagnostics {
		if d.Code == "TL202" && d.File == "configs/train.yaml" {
			got[d.Message] = d.Fix != nil
		}
	}
	if fix, ok := got["eval batch 4 is smaller than train batch 32"]; !ok || fix {
		t.Errorf("the plain run's TL202: %v", got)
	}
	if fix, ok := got["eval batch 4 is smaller than train batch 64"]; !ok || fix {
		t.Errorf("the experiment's TL202: %v", got)
	}
}

// TestNoRunFixInAPrimaryOthersRead: own.py is the primary of its run and the base of
// child.py's: raising its eval batch for its own run would change child.py's too, so the
// finding offers no fix; nor does any run when the driver says other runs read the files
// (Options.NoRunFixes, the language server).
func TestNoRunFixInAPrimaryOthersRead(t *testing.T) {
	files := mmFiles()
	fixOf := func(files []lint.File, o lint.Options) (found, fixed bool) {
		for _, d := range lint.LintFiles(files, nil, rules.All(), o).Diagnostics {
			if d.Code == "TL202" && d.File == "own.py" {
				return true, d.Fix != nil
			}
		}
		return false, false
	}
	if found, fixed := fixOf(files, lint.Options{}); !found || !fixed {
		t.Fatalf("own.py alone among the runs: found %v, fixed %v", found, fixed)
	}
	if found, fixed := fixOf(files, lint.Options{NoRunFixes: true}); !found || fixed {
		t.Errorf("NoRunFixes: found %v, fixed %v", found, fixed)
	}
	child := append(files, lint.File{Path: "child.py", Text: []byte("_base_ = ['./own.py']\nval_evaluator = dict(type='Accuracy', topk=(1, 5))\n")})
	if found, fixed := fixOf(child, lint.Options{}); !found || fixed {
		t.Errorf("own.py read by child.py's run too: found %v, fixed %v", found, fixed)
	}
}
