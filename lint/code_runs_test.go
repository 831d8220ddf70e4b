package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/testfs"
	"github.com/trainlint/trainlint/rules"
)

// mmdetTree rebuilds MMDetection's three corpus bases (configs/_base_/...) and adds two small
// hand-made files in MMDetection's layout: a model base with batch norm and a leaf config that
// lists the four bases and changes a few values (a dict merged key by key, one replaced with
// _delete_=True, a plain value).
func mmdetTree(t *testing.T) (string, []string) {
	tmp, files := rebuildTree(t, "open-mmlab/mmdetection")
	own := map[string]string{
		"configs/_base_/models/tiny_r50.py": `model = dict(
    type='RetinaNet',
    backbone=dict(type='ResNet', depth=50, norm_cfg=dict(type='BN', requires_grad=True), norm_eval=False))
`,
		"configs/tiny/tiny_r50_1x_coco.py": `_base_ = [
    '../_base_/models/tiny_r50.py', '../_base_/datasets/coco_detection.py',
    '../_base_/schedules/schedule_1x.py', '../_base_/default_runtime.py'
]
train_dataloader = dict(batch_size=1, sampler=dict(_delete_=True, type='InfiniteSampler'))
optim_wrapper = dict(optimizer=dict(lr=0.01))
default_hooks = dict(checkpoint=dict(max_keep_ckpts=3))
`,
	}
	testfs.Write(t, tmp, own)
	for f := range own {
		files = append(files, f)
	}
	return tmp, files
}

// composeIn composes the run of primary in the tree at dir, with the default limits.
func composeIn(dir, primary string) *compose.Run {
	return compose.Compose(compose.FromFS(os.DirFS(dir)), primary, nil, compose.Limits{})
}

// TestCodeRunMMDetection composes a leaf config with MMDetection's real bases the way MMEngine
// does and checks where each value of the run comes from.
func TestCodeRunMMDetection(t *testing.T) {
	tmp, _ := mmdetTree(t)
	const leaf = "configs/tiny/tiny_r50_1x_coco.py"
	run := composeIn(tmp, leaf)
	if len(run.Problems) != 0 {
		t.Fatalf("problems: %+v", run.Problems)
	}
	if len(run.Files) != 5 {
		t.Errorf("files read: %d, want 5", len(run.Files))
	}
	root := run.Doc.Root
	if root.Get("_base_") != nil {
		t.Error("the composed run still has _base_: the dialect would take it as partial")
	}
	for _, c := range []struct {
		key, value, file string
		line             int
	}{
		{"optim_wrapper.optimizer.lr", "0.01", leaf, 6},                                            // the leaf's value, merged into the base's dict
		{"optim_wrapper.optimizer.momentum", "0.9", "configs/_base_/schedules/schedule_1x.py", 22}, // kept from the base
		{"optim_wrapper.type", "OptimWrapper", "configs/_base_/schedules/schedule_1x.py", 21},
		{"train_dataloader.batch_size", "1", leaf, 5},
		{"train_dataloader.num_workers", "2", "configs/_base_/datasets/coco_detection.py", 30},
		{"train_dataloader.sampler.type", "InfiniteSampler", leaf, 5},
		{"default_hooks.checkpoint.interval", "1", "configs/_base_/default_runtime.py", 8},
		{"default_hooks.checkpoint.max_keep_ckpts", "3", leaf, 7},
		{"model.backbone.norm_cfg.type", "BN", "configs/_base_/models/tiny_r50.py", 3},
	} {
		n := root.At(c.key)
		if n == nil {
			t.Errorf("%s: absent from the run", c.key)
			continue
		}
		if n.Value != c.value || run.Origin(n).File != c.file || n.Span.Start.Line != c.line {
			t.Errorf("%s = %q from %s:%d, want %q from %s:%d", c.key, n.Value, run.Origin(n).File, n.Span.Start.Line, c.value, c.file, c.line)
		}
	}
	// _delete_=True replaced the base's sampler: its shuffle is gone, and so is _delete_.
	if s := root.At("train_dataloader.sampler"); s == nil || s.Get("shuffle") != nil || s.Get("_delete_") != nil || len(s.Children) != 1 {
		t.Errorf("sampler after _delete_: %+v", s)
	}
}

// TestCodeRunFindingsPlacedInBases lints the tree: the batch-norm finding rests on the leaf's
// batch and the model base's norm_cfg (a related location in that file); a run that keeps the
// dataset base's batches reports eval batch 1 < train batch 2 at the base's own lines, where
// the values are written; the base files alone are not linted as runs of their own.
func TestCodeRunFindingsPlacedInBases(t *testing.T) {
	tmp, files := mmdetTree(t)
	testfs.Write(t, tmp, map[string]string{"configs/tiny/plain.py": "_base_ = ['../_base_/datasets/coco_detection.py', '../_base_/default_runtime.py']\n"})
	files = append(files, "configs/tiny/plain.py")
	const data = "configs/_base_/datasets/coco_detection.py"
	text, err := os.ReadFile(filepath.Join(tmp, data))
	if err != nil {
		t.Fatal(err)
	}
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), files, nil, rules.All(), lint.Options{})
	var bn, eval *lint.Diagnostic
	for i, d := range res.Diagnostics {
		switch {
		case d.Code == "TL505" && d.File == "configs/tiny/tiny_r50_1x_coco.py":
			bn = &res.Diagnostics[i]
		case d.Code == "TL202":
			eval = &res.Diagnostics[i]
			if d.File != data || d.Line != 42 {
				t.Errorf("TL202 at %s:%d, want %s:42 (val_dataloader.batch_size)", d.File, d.Line, data)
			}
		case d.Code == "TL006":
			t.Errorf("unexpected unresolved reference %s:%d %s", d.File, d.Line, d.Message)
		}
	}
	if bn == nil {
		t.Fatalf("no TL505 on the leaf config: %v", res.Diagnostics)
	}
	rel := false
	for _, r := range bn.Related {
		if r.File == "configs/_base_/models/tiny_r50.py" && r.Line == 3 {
			rel = true
		}
	}
	if !rel {
		t.Errorf("TL505 has no related location at the model base's norm_cfg: %+v", bn.Related)
	}
	if eval == nil {
		t.Fatal("plain.py's run (train batch 2, eval batch 1, both in the dataset base) has no TL202")
	}
	// The finding is one per line whatever the number of runs, and only plain.py's run makes
	// it (the other run's train batch is 1).
	if n := strings.Count(text2(res.Diagnostics, "TL202"), data); n != 1 {
		t.Errorf("TL202 reported %d times", n)
	}
	_ = text
}

// A train_cfg that gets type from one file and by_epoch from another is refused at the key
// merged in last: the file that added it without _delete_ (MMPretrain's maskfeat benchmarks add
// type to a schedule's by_epoch), with the other key related.
func TestCodeRunTrainLoopRefusalPlacedAtLastKey(t *testing.T) {
	tmp := t.TempDir()
	const rest = "model = dict(type='ImageClassifier')\ntrain_dataloader = dict(batch_size=32, num_workers=4, sampler=dict(type='DefaultSampler', shuffle=True))\noptim_wrapper = dict(optimizer=dict(type='SGD', lr=0.1))\n"
	testfs.Write(t, tmp, map[string]string{
		"cfg/sched.py": "train_cfg = dict(by_epoch=True, max_epochs=100)\n",
		"cfg/run.py":   "_base_ = ['./sched.py']\n" + rest + "train_cfg = dict(type='EpochBasedTrainLoop', max_epochs=90)\n",
		"cfg/one.py":   rest + "train_cfg = dict(by_epoch=True, type='EpochBasedTrainLoop', max_epochs=90)\n",
	})
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), []string{"cfg/one.py", "cfg/run.py", "cfg/sched.py"}, nil, rules.All(), lint.Options{})
	var got []string
	for _, d := range res.Diagnostics {
		if d.Code == "TL011" {
			rel := ""
			for _, r := range d.Related {
				rel += " " + r.File + ":" + itoa(r.Line)
			}
			got = append(got, d.File+":"+itoa(d.Line)+":"+itoa(d.Column)+rel)
		}
	}
	if want := "cfg/one.py:4:38 cfg/one.py:4|cfg/run.py:5:23 cfg/sched.py:1"; strings.Join(got, "|") != want {
		t.Errorf("TL011 at %q, want %q", strings.Join(got, "|"), want)
	}
}

// TestCodeRunBaseValuesLeftToRuns: RSPrompter's _base_ model files set a model, a train loader
// and a train loop and leave optim_wrapper to the configs that inherit them, each of which sets
// it. The base alone would be refused by the Runner; no run built from it is, so nothing is
// reported.
func TestCodeRunBaseValuesLeftToRuns(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"configs/_base_/m.py": "model = dict(type='MaskRCNN')\ntrain_dataloader = dict(batch_size=2, num_workers=2, sampler=dict(type='DefaultSampler', shuffle=True), dataset=dict(type='CocoDataset'))\n" +
			"train_cfg = dict(type='EpochBasedTrainLoop', max_epochs=12, val_interval=1)\n",
		"configs/run.py": "_base_ = ['_base_/m.py']\noptim_wrapper = dict(optimizer=dict(type='SGD', lr=0.01))\n",
	})
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), []string{"configs/_base_/m.py", "configs/run.py"}, nil, rules.All(), lint.Options{})
	if got := text2(res.Diagnostics, "TL011"); got != "" {
		t.Errorf("TL011 at %s", got)
	}
}

// TestCodeRunBaseCycleOnce: a base cycle that four configs reach is reported once at the import
// that closes it, not once per config, and each message names the cycle alone. MMEngine v0.10.7's
// Config._file2dict raises at that import for every config that reaches it.
func TestCodeRunBaseCycleOnce(t *testing.T) {
	tmp := t.TempDir()
	files := map[string]string{
		"configs/a.py": "_base_ = './b.py'\nmodel = dict(type='X')\n",
		"configs/b.py": "_base_ = './a.py'\noptim_wrapper = dict(type='OptimWrapper')\n",
	}
	names := []string{"configs/a.py", "configs/b.py"}
	for _, c := range []string{"c1", "c2", "c3", "c4"} {
		files["configs/"+c+".py"] = "_base_ = './a.py'\ntrain_dataloader = dict(batch_size=2, num_workers=2)\n"
		names = append(names, "configs/"+c+".py")
	}
	testfs.Write(t, tmp, files)
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), names, nil, rules.All(), lint.Options{})
	var got []string
	for _, d := range res.Diagnostics {
		if d.Code == "TL011" {
			got = append(got, d.File+":"+itoa(d.Line)+" "+d.Message)
		}
	}
	want := []string{"configs/a.py:1 base config cycle: configs/b.py → configs/a.py → configs/b.py",
		"configs/b.py:1 base config cycle: configs/a.py → configs/b.py → configs/a.py"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCodeRunDollarBracesAreText: MMEngine (v0.10.7 config.py) and MMCV substitute only {{...}}
// forms, so '${cfg_name}' in a composed MMEngine run is a string (SoftTeacher fills it in its own
// code), not a reference the run must resolve; in a Hydra run it is one.
func TestCodeRunDollarBracesAreText(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"cfg/base.py":        "runner = dict(type='IterBasedRunner', max_iters=1000)\n",
		"cfg/run.py":         "_base_ = './base.py'\nwork_dir = 'work_dirs/${cfg_name}'\nlog_config = dict(interval=50, hooks=[dict(type='WandbLoggerHook', init_kwargs=dict(name='${cfg_name}'))])\n",
		"conf/config.yaml":   "defaults:\n  - opt: adam\nname: ${cfg_name}\n",
		"conf/opt/adam.yaml": "lr: 0.1\n",
	})
	files := []string{"cfg/base.py", "cfg/run.py", "conf/config.yaml", "conf/opt/adam.yaml"}
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), files, nil, rules.All(), lint.Options{})
	if got := text2(res.Diagnostics, "TL006"); got != "conf/config.yaml:3 " {
		t.Errorf("TL006 at %q, want only the Hydra run's conf/config.yaml:3", got)
	}
}

func text2(ds []lint.Diagnostic, code string) string {
	var b strings.Builder
	for _, d := range ds {
		if d.Code == code {
			b.WriteString(d.File + ":" + itoa(d.Line) + " ")
		}
	}
	return b.String()
}

// TestCodeRunMMEngineProblems: what MMEngine refuses or cannot read is a finding at the
// reference, never read past and never a crash.
func TestCodeRunMMEngineProblems(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"cfg/a.py":       "_base_ = ['./b.py', './c.py']\nx = dict(k=1)\n",
		"cfg/b.py":       "x = dict(k=0)\ny = 1\n",
		"cfg/c.py":       "y = 2\n",
		"cfg/cycle.py":   "_base_ = './cycle2.py'\n",
		"cfg/cycle2.py":  "_base_ = './cycle.py'\n",
		"cfg/missing.py": "_base_ = ['./nope.py', '../../outside.py', 'mmdet::retinanet/x.py']\nm = 1\n",
		"cfg/notdict.py": "_base_ = './c.py'\ny = dict(a=1)\n",
		"cfg/delete.py":  "_base_ = './b.py'\nx = dict(_delete_=True, j=2)\ny = dict(_delete_=True, a=1)\n",
		"cfg/refs.py":    "_base_ = './b.py'\nz = dict(a=_base_.x.k, b={{_base_.y}}, c=_base_.y + 1, d=_base_.nothing)\n",
	})
	fsys := compose.FromFS(os.DirFS(tmp))
	kinds := func(r *compose.Run) string {
		var s []string
		for _, p := range r.Problems {
			s = append(s, map[compose.ProblemKind]string{compose.Unresolved: "unresolved", compose.Cycle: "cycle", compose.Limit: "limit", compose.Refused: "refused"}[p.Kind]+"@"+p.File+":"+itoa(p.Span.Start.Line))
		}
		return strings.Join(s, " ")
	}
	r := compose.Compose(fsys, "cfg/a.py", nil, compose.Limits{})
	if got := kinds(r); got != "refused@cfg/a.py:1" || !strings.Contains(r.Problems[0].Message, `"y"`) {
		t.Errorf("duplicate key among bases: %s %+v", got, r.Problems)
	}
	r = compose.Compose(fsys, "cfg/cycle.py", nil, compose.Limits{})
	if got := kinds(r); got != "cycle@cfg/cycle2.py:1" {
		t.Errorf("cycle: %s", got)
	}
	r = compose.Compose(fsys, "cfg/missing.py", nil, compose.Limits{})
	if got := kinds(r); got != "unresolved@cfg/missing.py:1 unresolved@cfg/missing.py:1 unresolved@cfg/missing.py:1" {
		t.Errorf("missing bases: %s", got)
	}
	if r.Doc.Root.Get("_base_") == nil || r.Doc.Root.At("m").Value != "1" {
		t.Error("a run with a missing base must keep _base_ (the dialect then knows it is partial) and its own values")
	}
	r = compose.Compose(fsys, "cfg/notdict.py", nil, compose.Limits{})
	if got := kinds(r); got != "refused@cfg/notdict.py:2" {
		t.Errorf("dict over a non-dict: %s", got)
	}
	r = compose.Compose(fsys, "cfg/delete.py", nil, compose.Limits{})
	if x := r.Doc.Root.Get("x"); len(r.Problems) != 0 || x.Get("k") != nil || x.At("j").Value != "2" || x.Get("_delete_") != nil {
		t.Errorf("_delete_: %s %+v", kinds(r), x)
	}
	r = compose.Compose(fsys, "cfg/refs.py", nil, compose.Limits{})
	z := r.Doc.Root.Get("z")
	if a := z.Get("a"); a.Value != "0" || r.Origin(a).File != "cfg/b.py" {
		t.Errorf("_base_.x.k = %+v from %s", a, r.Origin(a).File)
	}
	if b := z.Get("b"); b.Value != "1" || r.Origin(b).File != "cfg/b.py" || b.Key != "b" {
		t.Errorf("{{_base_.y}} = %+v", b)
	}
	if c := z.Get("c"); c.IsUnknown() || c.Value != "2" || r.Origin(c).File != "cfg/refs.py" {
		t.Errorf("_base_.y + 1 runs with the bases' y: %+v", c)
	}
	// Python stops at the read of a name the bases do not bind: the config never loads.
	if got := kinds(r); got != "refused@cfg/refs.py:2" || !strings.Contains(r.Problems[0].Message, "_base_.nothing is not set by the bases") ||
		!strings.HasPrefix(r.Problems[0].Help, "set the name in one of the files _base_ lists") {
		t.Errorf("_base_.nothing: %s %+v", got, r.Problems)
	}
	// Below an entry the bases set, a missing part raises whatever else the bases hold; the
	// first statement that raises is the one reported (the rest never run). A top-level name
	// may come from a base's star import: unresolved then.
	testfs.Write(t, tmp, map[string]string{
		"cfg/star.py":     "from torch.nn import *\nx = dict(k=0)\n",
		"cfg/refs2.py":    "_base_ = './b.py'\nv = _base_.x\nw = dict(a=_base_.x.gone, b=v)\n_base_.t.s = 1\n",
		"cfg/refs3.py":    "_base_ = './b.py'\n_base_.t.s = 1\nw = _base_.x.gone\n",
		"cfg/refstar.py":  "_base_ = './star.py'\nw = _base_.BatchNorm2d\nq = _base_.x.gone\n",
		"cfg/refsdeep.py": "_base_ = './star.py'\n_base_.t.s = 1\n",
		"cfg/from.py":     "from projects.meta import CLASSES\nx = dict(k=0)\n",
		"cfg/reffrom.py":  "_base_ = './from.py'\nw = _base_.CLASSES\n",
		"cfg/cls.py":      "class Scales:\n    small = 1\nx = dict(k=0)\n",
		"cfg/refclass.py": "_base_ = './cls.py'\nw = _base_.Scales\n",
		"cfg/refattr.py":  "_base_ = './b.py'\na = _base_.x.k.real\nb = _base_.x.keys\nc = _base_.x.__class__\n",
		"cfg/reflate.py":  "_base_ = './b.py'\na = dict(n={{_base_.x.neck}})\nb = _base_.x.head\n",
	})
	for _, c := range []struct{ file, want, msg string }{
		{"cfg/refs2.py", "refused@cfg/refs2.py:3", "_base_.x.gone is not set by the bases: reading it raises, so Config.fromfile stops"},
		{"cfg/refs3.py", "refused@cfg/refs3.py:2", "_base_.t.s is assigned, but the bases do not set what it is part of: the statement raises, so Config.fromfile stops"},
		{"cfg/refstar.py", "unresolved@cfg/refstar.py:2 refused@cfg/refstar.py:3", ""},
		{"cfg/refsdeep.py", "unresolved@cfg/refsdeep.py:2", ""},
		// names a base binds that the reader does not see: a value imported from another
		// module, a class
		{"cfg/reffrom.py", "unresolved@cfg/reffrom.py:2", ""},
		{"cfg/refclass.py", "unresolved@cfg/refclass.py:2", ""},
		// attributes of the value itself, not entries: nothing missing
		{"cfg/refattr.py", "", ""},
		// {{_base_.x}} is indexed after the file has run: a read made while it runs fails first
		{"cfg/reflate.py", "refused@cfg/reflate.py:3", "_base_.x.head is not set"},
	} {
		r := compose.Compose(fsys, c.file, nil, compose.Limits{})
		if got := kinds(r); got != c.want || c.msg != "" && !strings.Contains(r.Problems[0].Message, c.msg) {
			t.Errorf("%s: %s %+v", c.file, got, r.Problems)
		}
	}
	// The engine reports them: refusals and cycles as rejected-at-startup (TL011, an error), a
	// reference that names nothing as unresolved-reference (TL006, info), a limit passed as
	// input-limit-exceeded (TL010, an error); a rule left out of the selection reports nothing.
	res := lint.LintTree(fsys, []string{"cfg/a.py", "cfg/b.py", "cfg/c.py", "cfg/cycle.py", "cfg/cycle2.py", "cfg/missing.py"}, nil, rules.All(), lint.Options{})
	got := map[string]string{}
	for _, d := range res.Diagnostics {
		if d.Code == "TL006" || d.Code == "TL010" || d.Code == "TL011" {
			got[d.File+":"+itoa(d.Line)] += d.Code + " " + d.Severity.String() + " "
		}
	}
	if got["cfg/a.py:1"] != "TL011 error " || !strings.HasPrefix(got["cfg/cycle2.py:1"], "TL011 error ") || got["cfg/missing.py:1"] != "TL006 info TL006 info TL006 info " {
		t.Errorf("codes and severities %v", got)
	}
	testfs.Write(t, tmp, map[string]string{
		"deep/a.py": "_base_ = './b.py'\n", "deep/b.py": "_base_ = './c.py'\n", "deep/c.py": "_base_ = './d.py'\n", "deep/d.py": "x = 1\n",
	})
	run := compose.Compose(fsys, "deep/a.py", nil, compose.Limits{MaxDepth: 2})
	if got := kinds(run); !strings.HasPrefix(got, "limit@") {
		t.Fatalf("a chain of four bases past a depth of 2: %s", got)
	}
	var codes []string
	for _, d := range lint.LintRun(run, rules.All(), lint.Options{}) {
		codes = append(codes, d.Code+" "+d.Severity.String())
		if d.Code == "TL010" && !strings.Contains(d.Help, "fixed bounds (500 files") {
			t.Errorf("a composition limit's help names the fixed bounds, not .trainlint.toml's: %q", d.Help)
		}
	}
	if len(codes) == 0 || codes[0] != "TL010 error" {
		t.Errorf("limit: %v", codes)
	}
	for _, d := range lint.LintRun(run, rules.All(), lint.Options{Ignore: []string{"input-limit-exceeded"}}) {
		if d.Code == "TL010" || d.Code == "TL006" {
			t.Errorf("with input-limit-exceeded ignored: %+v", d)
		}
	}
}

// TestCodeRunReadBase: new-style MMEngine configs import their bases' variables and run with
// those names bound to the bases' own values (mmengine v0.10.7 ImportTransformer): the file's
// own assignment replaces an imported one, an in-place change edits it (update merges as
// ConfigDict.update does), an operation reads it, and a change the reader cannot follow
// leaves it unknown.
func TestCodeRunReadBase(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"configs/_base_/data.py": "train_dataloader = dict(batch_size=2, num_workers=2)\nval_dataloader = dict(batch_size=1)\n_private = 1\n" +
			"test_dataloader = dict(batch_size=1)\nmax_epochs = 12\ncustom_hooks = [dict(type='A')]\nrandomness = dict(seed=None, deterministic=False)\n",
		"configs/_base_/rt.py": "default_hooks = dict(checkpoint=dict(interval=1))\n",
		"configs/det/leaf.py": `from mmengine.config import read_base

with read_base():
    from .._base_.data import *
    from .._base_.rt import default_hooks as hooks

before = test_dataloader
train_dataloader.batch_size = 8
val_dataloader = dict(batch_size=4)
val_dataloader.num_workers = 3
hooks.checkpoint.update(interval=5, max_keep_ckpts=3)
randomness.update(seed=0)
switch = max_epochs - 2
custom_hooks.append(dict(type='B'))
test_dataloader.batch_size = 16
loader = dict(d=train_dataloader)
`,
	})
	r := composeIn(tmp, "configs/det/leaf.py")
	if len(r.Problems) != 0 {
		t.Fatalf("problems %+v", r.Problems)
	}
	const leaf, data = "configs/det/leaf.py", "configs/_base_/data.py"
	root := r.Doc.Root
	for _, tc := range []struct{ path, want, file string }{
		{"val_dataloader.batch_size", "4", leaf}, {"val_dataloader.num_workers", "3", leaf},
		{"train_dataloader.batch_size", "8", leaf}, {"train_dataloader.num_workers", "2", data},
		{"hooks.checkpoint.interval", "5", leaf}, {"hooks.checkpoint.max_keep_ckpts", "3", leaf},
		{"randomness.seed", "0", leaf}, {"randomness.deterministic", "false", data},
		{"switch", "10", leaf}, {"max_epochs", "12", data}, {"test_dataloader.batch_size", "16", leaf},
		{"loader.d.batch_size", "8", leaf}, {"loader.d.num_workers", "2", data},
		// A name bound to an imported value before it is changed in place is that same
		// object in Python (ConfigDict values are shared when read): it shows the change.
		{"before.batch_size", "16", leaf},
	} {
		n := root.At(tc.path)
		if n == nil || n.IsUnknown() || n.Value != tc.want || r.Origin(n).File != tc.file {
			t.Errorf("%s = %+v from %s, want %s from %s", tc.path, n, r.Origin(n).File, tc.want, tc.file)
		}
	}
	// append is not followed.
	for _, k := range []string{"custom_hooks"} {
		if n := root.Get(k); n == nil || !n.IsUnknown() {
			t.Errorf("%s = %+v, want unknown", k, n)
		}
	}
	if root.Get("_private") != nil || root.Get("default_hooks") != nil {
		t.Errorf("imported names: %v", keys(root))
	}
	for _, ref := range r.Doc.Refs {
		if ref.Kind == "base" {
			t.Errorf("a complete run keeps base ref %+v", ref)
		}
	}
	// Read alone, the file cannot know its imports: they stay out of its own variables.
	if d := r.File(leaf); d == nil || d.Root.Get("train_dataloader") != nil || len(d.BaseEdits) != 0 {
		t.Errorf("the file read alone: %+v", d)
	}
	// Read with its bases, the file's edits are values too: past the node limit there, what
	// it does to its imports is unknown and the limit is reported.
	testfs.Write(t, tmp, map[string]string{"configs/_base_/flag.py": "n = 1\nh = dict(a=1)\n",
		"configs/det/big.py": "from mmengine.config import read_base\nwith read_base():\n" +
			"    from .._base_.flag import *\nif n:\n    h.update(x=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])\nown = 1\n"})
	r = compose.Compose(compose.FromFS(os.DirFS(tmp)), "configs/det/big.py", nil, compose.Limits{Doc: doc.Limits{MaxNodes: 8}})
	if h := r.Doc.Root.Get("h"); h == nil || !h.IsUnknown() || r.Doc.Root.At("own").Value != "1" {
		t.Errorf("past the limit: h %+v, own %+v", h, r.Doc.Root.Get("own"))
	}
	if len(r.Problems) != 1 || r.Problems[0].Kind != compose.Limit || r.Problems[0].File != "configs/det/big.py" {
		t.Errorf("problems %+v", r.Problems)
	}
}

// TestCodeRunReadBaseImports: MMEngine keeps a base module's imported classes among the globals
// a star import copies (mmengine v0.10.7 Config._parse_lazy_import, ImportTransformer), so a
// class the file names only through `from .._base_.x import *` is the class the base imported,
// as if the file imported it itself; through two star imports too, or a named import of it.
// mmseg-kd's configs name SegDataPreProcessor so: its eval batch of 1 is then the model's
// (TL202 silent), as with the import written in the file.
func TestCodeRunReadBaseImports(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"configs/_base_/models/unet.py": "from mmseg.models import SegDataPreProcessor\nimport torch.nn as nn\n" +
			"data_preprocessor = dict(type=SegDataPreProcessor, size=(512, 512))\nmodel = dict(type='EncoderDecoder', data_preprocessor=data_preprocessor)\n",
		"configs/_base_/models/unet_ds.py": "from mmengine.config import read_base\nwith read_base():\n    from .unet import *\nmodel.update(deep_supervision=True)\n",
		"configs/_base_/datasets/synapse.py": "train_dataloader = dict(batch_size=2, num_workers=2, dataset=dict(type='SynapseDataset'))\n" +
			"val_dataloader = dict(batch_size=1, num_workers=1, dataset=dict(type='SynapseDataset'))\n",
		"configs/run/star.py": "from mmengine.config import read_base\nwith read_base():\n    from .._base_.models.unet import *\n    from .._base_.datasets.synapse import *\n" +
			"data_preprocessor = dict(type=SegDataPreProcessor, size=(256, 256))\nnorm = dict(type=nn.SyncBatchNorm)\n" +
			"model = dict(type='EncoderDecoder', data_preprocessor=data_preprocessor)\n",
		"configs/run/chain.py": "from mmengine.config import read_base\nwith read_base():\n    from .._base_.models.unet_ds import *\n    from .._base_.datasets.synapse import *\n" +
			"model.data_preprocessor = dict(type=SegDataPreProcessor)\n",
		"configs/run/named.py": "from mmengine.config import read_base\nwith read_base():\n    from .._base_.models.unet import SegDataPreProcessor as Pre\n    from .._base_.datasets.synapse import *\n" +
			"model = dict(type='EncoderDecoder', data_preprocessor=dict(type=Pre))\n",
		// the base imports the class, but the file names a class of its own: unknown, compared
		"configs/run/other.py": "from mmengine.config import read_base\nwith read_base():\n    from .._base_.models.unet import *\n    from .._base_.datasets.synapse import *\n" +
			"model = dict(type='EncoderDecoder', data_preprocessor=dict(type=MyPreProcessor))\n",
	})
	for _, tc := range []struct{ file, path, want string }{
		{"configs/run/star.py", "model.data_preprocessor.type", "mmseg.models.SegDataPreProcessor"},
		{"configs/run/star.py", "norm.type", "torch.nn.SyncBatchNorm"},
		{"configs/run/chain.py", "model.data_preprocessor.type", "mmseg.models.SegDataPreProcessor"},
		{"configs/run/named.py", "model.data_preprocessor.type", "mmseg.models.SegDataPreProcessor"},
	} {
		r := composeIn(tmp, tc.file)
		n := r.Doc.Root.At(tc.path)
		if n == nil || n.Style != "reference" || n.Value != tc.want || r.Origin(n).File != tc.file {
			t.Errorf("%s: %s = %+v from %s, want the import %s", tc.file, tc.path, n, r.Origin(n).File, tc.want)
		}
		// imported names are no variables of the run
		for _, k := range []string{"SegDataPreProcessor", "Pre", "nn"} {
			if r.Doc.Root.Get(k) != nil {
				t.Errorf("%s: keys %v", tc.file, keys(r.Doc.Root))
			}
		}
	}
	fsys := compose.FromFS(os.DirFS(tmp))
	for _, tc := range []struct{ file, want string }{
		{"configs/run/star.py", ""},
		{"configs/run/chain.py", ""},
		{"configs/run/named.py", ""},
		{"configs/run/other.py", "configs/_base_/datasets/synapse.py:2 "},
	} {
		res := lint.LintTree(fsys, []string{tc.file}, nil, rules.All(), lint.Options{})
		if got := text2(res.Diagnostics, "TL202"); got != tc.want {
			t.Errorf("%s: TL202 at %q, want %q", tc.file, got, tc.want)
		}
	}
}

// TestCodeRunMMEngineEvalBatchBaseMissing: a run whose model base is missing from the tree
// (mmseg-kd's ../_base_/models/fcn_r50-d8.py, refused at start-up) cannot tell whether its model
// evaluates one sample per batch: no TL202 on its dataset base's eval batch of 1. With the base
// present, a model that batches its evaluation still gets it.
func TestCodeRunMMEngineEvalBatchBaseMissing(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"configs/_base_/datasets/acdc.py": "train_dataloader = dict(batch_size=2, num_workers=2, dataset=dict(type='ACDC'))\n" +
			"val_dataloader = dict(batch_size=1, num_workers=4, dataset=dict(type='ACDC'))\n",
		"configs/_base_/models/det.py": "model = dict(type='FasterRCNN', data_preprocessor=dict(type='DetDataPreprocessor'))\n",
		"configs/resnet/missing.py":    "_base_ = ['../_base_/models/fcn_r50-d8.py', '../_base_/datasets/acdc.py']\nmodel = dict(decode_head=dict(num_classes=4))\n",
		"configs/resnet/present.py":    "_base_ = ['../_base_/models/det.py', '../_base_/datasets/acdc.py']\nmodel = dict(roi_head=dict(bbox_head=dict(num_classes=4)))\n",
	})
	fsys := compose.FromFS(os.DirFS(tmp))
	for _, tc := range []struct{ file, want string }{
		{"configs/resnet/missing.py", ""},
		{"configs/resnet/present.py", "configs/_base_/datasets/acdc.py:2 "},
	} {
		res := lint.LintTree(fsys, []string{tc.file}, nil, rules.All(), lint.Options{})
		if got := text2(res.Diagnostics, "TL202"); got != tc.want {
			t.Errorf("%s: TL202 at %q, want %q", tc.file, got, tc.want)
		}
	}
}

// TestCodeRunReadBaseModelReplaced: in a read_base config, `model = dict(backbone=..., neck=...)`
// after importing the base's model rebinds the name (mmengine v0.10.7 _parse_lazy_import execs
// the file over the bases' names), so the run's model has no type and the Runner's
// MODELS.build raises a KeyError: rejected at start-up, and what the model could validate is
// not known (no TL204, and no TL301 for the latest checkpoints kept: nothing is evaluated).
// MMPretrain 1.2.0's mae_vit_large_p16 configs do this; the base-size ones, which keep the
// base's MAE, are not refused, and MAE cannot validate (no TL204 either). A model the file
// changes in place keeps its type.
func TestCodeRunReadBaseModelReplaced(t *testing.T) {
	tmp := t.TempDir()
	const head = "from mmengine.config import read_base\n\nwith read_base():\n    from .._base_.models.mae import *\n    from .._base_.data import *\n\n"
	const tail = "optim_wrapper = dict(optimizer=dict(type='AdamW', lr=1e-4))\ntrain_cfg = dict(type='EpochBasedTrainLoop', max_epochs=1600)\n" +
		"default_hooks = dict(checkpoint=dict(type='CheckpointHook', interval=1, max_keep_ckpts=3))\n"
	testfs.Write(t, tmp, map[string]string{
		"configs/_base_/models/mae.py": "from mmpretrain.models import MAE, MAEViT, MAEPretrainDecoder\n\n" +
			"model = dict(type=MAE, backbone=dict(type=MAEViT, arch='b'), neck=dict(type=MAEPretrainDecoder, embed_dim=768))\n",
		"configs/_base_/data.py": "train_dataloader = dict(batch_size=512, num_workers=8, sampler=dict(type='DefaultSampler', shuffle=True), dataset=dict(type='ImageNet'))\n",
		"configs/mae/large.py":   head + "model = dict(\n    backbone=dict(type=MAEViT, arch='l'),\n    neck=dict(type=MAEPretrainDecoder, embed_dim=1024))\n" + tail,
		"configs/mae/base.py":    head + tail,
		"configs/mae/updated.py": head + "model.update(backbone=dict(type=MAEViT, arch='l'))\n" + tail,
	})
	for _, tc := range []struct{ file, want string }{
		{"configs/mae/large.py", "configs/mae/large.py:7 "},
		{"configs/mae/base.py", ""},
		{"configs/mae/updated.py", ""},
	} {
		res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), []string{tc.file}, nil, rules.All(), lint.Options{})
		if got := text2(res.Diagnostics, "TL011"); got != tc.want {
			t.Errorf("%s: TL011 at %q, want %q", tc.file, got, tc.want)
		}
		for _, d := range res.Diagnostics {
			if d.Code == "TL011" && !strings.HasPrefix(d.Message, "model sets no type") {
				t.Errorf("%s: TL011 %q", tc.file, d.Message)
			}
		}
		// No validation loop runs: the retention of the latest 3 has no best to lose.
		if got := text2(res.Diagnostics, "TL204") + text2(res.Diagnostics, "TL301"); got != "" {
			t.Errorf("%s: TL204 or TL301 at %q", tc.file, got)
		}
	}
}

// problemPlaces lists a run's problems as file:line, in order.
func problemPlaces(r *compose.Run) string {
	var s []string
	for _, p := range r.Problems {
		s = append(s, p.File+":"+itoa(p.Span.Start.Line))
	}
	return strings.Join(s, " ")
}

func keys(n *doc.Node) []string {
	var s []string
	for _, c := range n.Children {
		s = append(s, c.Key)
	}
	return s
}

// TestCodeRunGin: gin applies statements in order, so an include takes effect at its line, and
// a macro takes the run's last binding. Checked on a hand-made pair, then on T5X's configs
// rebuilt from the corpus (a WMT example that includes the T5 1.1 base and runs/pretrain.gin).
func TestCodeRunGin(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"a.gin":     "f.x = 1\ninclude 'sub/b.gin'\nf.z = 3\nN = 5\n",
		"sub/b.gin": "f.x = 2\nf.z = 2\nf.n = %N\nN = 4\ng.m = %M\n",
	})
	r := composeIn(tmp, "a.gin")
	if len(r.Problems) != 0 {
		t.Fatalf("problems %+v", r.Problems)
	}
	root := r.Doc.Root
	for key, want := range map[string]string{"f.x": "2 sub/b.gin", "f.z": "3 a.gin", "f.n": "5 a.gin", "N": "5 a.gin"} {
		n := root.At(key)
		if n == nil || n.Value+" "+r.Origin(n).File != want {
			t.Errorf("%s = %+v", key, n)
		}
	}
	if m := root.At("g.m"); m == nil || !m.IsUnknown() {
		t.Errorf("an undefined macro stays unknown: %+v", m)
	}

	t5, _ := rebuildTree(t, "google-research/t5x")
	const ex = "t5x/examples/t5/t5_1_1/examples/base_wmt_from_scratch.gin"
	r = compose.Compose(compose.FromFS(os.DirFS(t5)), ex, nil, compose.Limits{})
	for _, p := range r.Problems {
		t.Errorf("problem %+v", p)
	}
	if len(r.Files) < 3 {
		t.Errorf("files %d", len(r.Files))
	}
	root = r.Doc.Root
	// runs/pretrain.gin binds total_steps = %TRAIN_STEPS and leaves TRAIN_STEPS %gin.REQUIRED;
	// the example supplies it.
	ts := root.At("train_script.train.total_steps")
	if ts == nil || ts.Value != "50000" || r.Origin(ts).File != ex {
		t.Errorf("total_steps %+v from %s", ts, r.Origin(ts).File)
	}
	// The example's batch_size block comes after the include: it wins over pretrain.gin's.
	bs := root.Lookup("train/utils", "DatasetConfig", "batch_size")
	if bs == nil || bs.Value != "128" || r.Origin(bs).File != ex || bs.Span.Start.Line != 19 {
		t.Errorf("batch_size %+v", bs)
	}
	// The example rebinds eval_period after the include (500 over pretrain.gin's 1000); the
	// checkpoint keep setting is only in runs/pretrain.gin, and points there.
	if ep := root.At("train_script.train.eval_period"); ep == nil || ep.Value != "500" || r.Origin(ep).File != ex || ep.Span.Start.Line != 40 {
		t.Errorf("eval_period %+v", ep)
	}
	keep := root.Lookup("utils", "SaveCheckpointConfig", "keep")
	if keep == nil || !keep.IsNull() || r.Origin(keep).File != "t5x/configs/runs/pretrain.gin" || keep.Span.Start.Line != 100 {
		t.Errorf("keep %+v", keep)
	}
}

// TestCodeRunMMEngineBaseEdits: an old-style config that assigns into `_base_` changes its run
// (MMEngine runs the file with _base_ bound to the bases' dict and merges the file into that
// dict afterwards): the edit is applied at the part it names, a finding on the edited value is
// the editing file's, a change the reader cannot follow leaves the part unknown, and a read of
// a part an edit changes later stays unknown.
func TestCodeRunMMEngineBaseEdits(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"cfg/b.py": "norm_cfg = dict(type='SyncBN')\nmodel = dict(backbone=dict(depth=50, norm_cfg=norm_cfg), neck=dict(n=1))\n" +
			"sched = [dict(end=500), dict(end=12)]\nepochs = 12\nhooks = [dict(type='A')]\n",
		"cfg/a.py": "_base_ = ['./b.py']\n" +
			"_base_.model.backbone.norm_cfg.type = 'BN'\n" + // line 2: a plain edit
			"m = _base_.model\nm.neck.n = 4\n" + // through a name bound to a part
			"_base_.sched[1].end = 24\n" + // line 5: a list's item
			"early = _base_.epochs\n_base_.epochs = 24\nlate = _base_.epochs\n" + // lines 6-8
			"_base_.hooks.append(dict(type='B'))\n" + // line 9: a method that changes it
			"_base_.nothing.x = 1\n" + // line 10: a part the bases do not set
			"_base_.sched[i].end = 1\n" + // line 11: an index not known
			"model = dict(backbone=dict(depth=101))\n", // the file's own value merges over the edits
	})
	r := composeIn(tmp, "cfg/a.py")
	root := r.Doc.Root
	ty := root.At("model.backbone.norm_cfg.type")
	if ty.Value != "BN" || r.Origin(ty).File != "cfg/a.py" || ty.Span.Start.Line != 2 || ty.KeySpan.Start.Line != 2 {
		t.Errorf("edited norm_cfg.type = %+v from %s", ty, r.Origin(ty).File)
	}
	if d := root.At("model.backbone.depth"); d.Value != "101" {
		t.Errorf("the file's own model merges over the edited bases: depth %+v", d)
	}
	if n := root.At("model.neck.n"); n.Value != "4" || r.Origin(n).File != "cfg/a.py" {
		t.Errorf("edit through m = _base_.model: %+v", n)
	}
	if e := root.Get("sched"); e == nil || !e.IsUnknown() {
		// line 11 (an index the reader cannot evaluate) makes the whole list unknown after line 5
		t.Errorf("sched after an edit at an unknown index: %+v", e)
	}
	if e := root.At("epochs"); e.Value != "24" {
		t.Errorf("epochs = %+v", e)
	}
	if e := root.Get("early"); e == nil || !e.IsUnknown() {
		t.Errorf("a read before the edit of the same part stays unknown: %+v", e)
	}
	if l := root.Get("late"); l == nil || l.Value != "24" {
		t.Errorf("a read after the edit takes the edited value: %+v", l)
	}
	if h := root.Get("hooks"); h == nil || !h.IsUnknown() {
		t.Errorf("hooks after append: %+v", h)
	}
	if got := problemPlaces(r); got != "cfg/a.py:10" {
		t.Errorf("problems %s, want the edit of a part the bases do not set (line 10)", got)
	}
	// Without line 11 the item edit stands.
	testfs.Write(t, tmp, map[string]string{"cfg/c.py": "_base_ = './b.py'\n_base_.sched[1].end = 24\ndel _base_.hooks\n_base_.neck2 = {{ _base_.model.neck }}\n"})
	r = composeIn(tmp, "cfg/c.py")
	item := func(i string) *doc.Node { return r.Doc.Root.Get("sched").Step(i).Get("end") }
	if e := item("1"); e == nil || e.Value != "24" || item("0") == nil || item("0").Value != "500" || r.Origin(e).File != "cfg/c.py" {
		t.Errorf("sched[1].end = %+v", e)
	}
	if h := r.Doc.Root.Get("hooks"); h != nil {
		t.Errorf("hooks after del: %+v", h)
	}
	if n := r.Doc.Root.At("neck2.n"); n == nil || n.Value != "1" || r.Origin(n).File != "cfg/b.py" {
		t.Errorf("_base_.neck2 = {{ _base_.model.neck }}: %+v", n)
	}
	// A function's edits take effect where it is called, whatever the place of its body; a
	// name bound to the bases as a whole edits them too.
	testfs.Write(t, tmp, map[string]string{"cfg/d.py": "_base_ = './b.py'\ndef bump():\n    _base_.epochs = 36\n" +
		"before = _base_.epochs\nbump()\nafter = _base_.epochs\nb = _base_\nb.model.neck.n = 8\n"})
	r = composeIn(tmp, "cfg/d.py")
	if e := r.Doc.Root.Get("before"); e == nil || !e.IsUnknown() {
		t.Errorf("a read before the call that edits stays unknown (Python reads 12 there): %+v", e)
	}
	if e := r.Doc.Root.Get("after"); e == nil || e.Value != "36" {
		t.Errorf("a read after the call takes its edit: %+v", e)
	}
	if n := r.Doc.Root.At("model.neck.n"); n == nil || n.Value != "8" || r.Origin(n).File != "cfg/d.py" {
		t.Errorf("b = _base_; b.model.neck.n = 8: %+v", n)
	}
	if len(r.Problems) != 0 {
		t.Errorf("problems: %+v", r.Problems)
	}
}

// TestCodeRunMMEngineBaseValues: an operation on a part of the bases (`_base_.max_epochs - 2`)
// takes the bases' value, as the file runs with _base_ bound to them, unless an edit that ran
// before it may have changed that part; read alone, the file leaves it unknown.
func TestCodeRunMMEngineBaseValues(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"cfg/b.py": "max_epochs = 300\nstage2 = 20\nlr = 0.004\ndata_root = 'data/coco/'\nimg_scale = (640, 640)\n" +
			"use_sync = True\nwide = 0x10\nnone = None\n",
		"cfg/c.yaml": "big: 1_000\nsmall: 7\noctal: 010\n",
		"cfg/a.py": "_base_ = ['./b.py', './c.yaml']\n" +
			"switch = _base_.max_epochs - _base_.stage2\n" + // 280
			"lr = _base_.lr * 2\n" +
			"ann = _base_.data_root + 'ann.json'\n" +
			"border = (-_base_.img_scale[0] // 2, 1)\n" +
			"name = f'{_base_.data_root}x'\n" +
			"norm = 'SyncBN' if _base_.use_sync else 'BN'\n" +
			"if _base_.max_epochs > 100:\n    long = 1\nelse:\n    long = 0\n" +
			"wide = _base_.wide + 1\n" + // 17: Python's own int
			"big = _base_.big + 1\nsmall = _base_.small + 1\noctal = _base_.octal + 1\nnothing = _base_.none is None\n" +
			"missing = _base_.absent + 1\n" +
			"before = _base_.stage2 + 1\n_base_.stage2 = 30\nafter = _base_.stage2 + 1\n" +
			"_base_.max_epochs += 10\ntotal = _base_.max_epochs\n",
	})
	r := composeIn(tmp, "cfg/a.py")
	root := r.Doc.Root
	for k, want := range map[string]string{"switch": "280", "lr": "0.008", "ann": "data/coco/ann.json", "border.0": "-320",
		"name": "data/coco/x", "norm": "SyncBN", "long": "1", "wide": "17", "small": "8", "nothing": "true",
		"before": "21", "stage2": "30", "max_epochs": "310", "total": "310"} {
		n := root
		for _, step := range strings.Split(k, ".") {
			n = n.Step(step)
		}
		if n == nil || n.IsUnknown() || n.Value != want {
			t.Errorf("%s = %+v, want %s", k, n, want)
		} else if k == "switch" && (r.Origin(n).File != "cfg/a.py" || n.Span.Start.Line != 2) {
			t.Errorf("switch comes from %s line %d", r.Origin(n).File, n.Span.Start.Line)
		}
	}
	// 1_000 and 010 are YAML's ints, not read back (PyYAML reads 010 as 8); a part the bases do not set
	// and a read after an edit of the same part stay unknown (rules silent).
	for _, k := range []string{"big", "octal", "missing", "after"} {
		if n := root.Get(k); n == nil || !n.IsUnknown() {
			t.Errorf("%s = %+v, want unknown", k, n)
		}
	}
	// Read alone, the file says it needs its bases' values and leaves the operations unknown.
	d := r.File("cfg/a.py")
	if d == nil || !d.ReadsBases || !d.Root.Get("switch").IsUnknown() {
		t.Errorf("the file read alone: %+v", d)
	}
}

// wantValues checks that each dotted path (list items by number) under root is a known scalar
// with the wanted value.
func wantValues(t *testing.T, root *doc.Node, label string, want map[string]string) {
	t.Helper()
	for k, w := range want {
		if n := root.StepPath(k); n == nil || n.IsUnknown() || n.Value != w {
			t.Errorf("%s%s = %+v, want %s", label, k, n, w)
		}
	}
}

// TestCodeRunMMEngineBaseContainers: a container of the bases taken by an operation (mmrazor's
// pruning configs: `getattr(_base_, 'custom_hooks', []) + [...]`, then `_base_.custom_hooks[:-2]`
// in the finetuning config over them; mmyolo's `[*_base_.pre_transform, ...]`) has the bases'
// value; a change the file makes to the bases' own items leaves them unknown in the run.
func TestCodeRunMMEngineBaseContainers(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"cfg/b.py": "custom_hooks = [dict(type='EMAHook'), dict(type='SyncNormHook')]\npre = [dict(type='Load')]\n" +
			"shared = [dict(type='S', v=1)]\n",
		"cfg/prune.py": "_base_ = './b.py'\ncustom_hooks = getattr(_base_, 'custom_hooks', []) + [dict(type='P1'), dict(type='P2')]\n" +
			"pipeline = [*_base_.pre, dict(type='Mosaic')]\nmine = [*_base_.shared]\nmine[0]['v'] = 2\n",
		"cfg/finetune.py": "_base_ = './prune.py'\ncustom_hooks = _base_.custom_hooks[:-2]\n",
	})
	r := composeIn(tmp, "cfg/finetune.py")
	root := r.Doc.Root
	hooks := root.Get("custom_hooks")
	if hooks == nil || len(hooks.Children) != 2 || hooks.StepPath("1.type").Value != "SyncNormHook" {
		t.Fatalf("custom_hooks = %+v", hooks)
	}
	// The items are the bases' own: a finding on them points where b.py writes them.
	if n := hooks.StepPath("1.type"); r.Origin(n).File != "cfg/b.py" || n.Span.Start.Line != 1 || n.Span.Start.Col != 49 {
		t.Errorf("custom_hooks.1.type from %s %d:%d, want b.py 1:49", r.Origin(n).File, n.Span.Start.Line, n.Span.Start.Col)
	}
	wantValues(t, root, "", map[string]string{"pipeline.0.type": "Load", "pipeline.1.type": "Mosaic", "mine.0.v": "2"})
	// mine[0]['v'] = 2 changed the bases' own shared[0] (Python shares it): not judged.
	if n := root.StepPath("shared.0"); n == nil || !n.IsUnknown() {
		t.Errorf("shared.0 = %+v, want unknown", n)
	}
	r = composeIn(tmp, "cfg/prune.py")
	if n := r.Doc.Root.Get("custom_hooks"); n == nil || len(n.Children) != 4 || n.StepPath("3.type").Value != "P2" {
		t.Errorf("prune's custom_hooks = %+v", n)
	}
	// New style: the imported names are the bases' values, taken the same way.
	testfs.Write(t, tmp, map[string]string{
		"cfg/new.py": "from mmengine.config import read_base\nwith read_base():\n    from .b import *\n" +
			"pipeline = [*pre, dict(type='Mosaic')]\nkept = custom_hooks[:1]\nmine = [*shared]\nmine[0]['v'] = 2\n",
	})
	r = composeIn(tmp, "cfg/new.py")
	root = r.Doc.Root
	wantValues(t, root, "new style: ", map[string]string{"pipeline.0.type": "Load", "pipeline.1.type": "Mosaic", "kept.0.type": "EMAHook", "mine.0.v": "2"})
	if n := root.StepPath("kept"); n == nil || len(n.Children) != 1 {
		t.Errorf("new style: kept = %+v", n)
	}
	if n := root.StepPath("shared.0"); n == nil || !n.IsUnknown() {
		t.Errorf("new style: shared.0 = %+v, want unknown", n)
	}
}

// TestCodeRunMMEngineBaseUpdate: update(...) on a part of the bases merges as ConfigDict.update
// does (a dict into a dict key by key, anything else replaces); arguments or targets the
// reader does not know leave the part unknown.
func TestCodeRunMMEngineBaseUpdate(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"cfg/b.py": "model = dict(backbone=dict(depth=50, norm_cfg=dict(type='BN')), neck=dict(n=1))\n" +
			"sched = [dict(end=12)]\nepochs = 12\nhooks = dict(a=1)\nopt = dict(lr=0.1)\nrest = dict(k=1)\npairs = dict(k=1)\n",
		"cfg/a.py": "_base_ = './b.py'\n" +
			"_base_.model.update(dict(backbone=dict(depth=101)), neck=None)\n" + // line 2
			"_base_.update(epochs=5)\n" +
			"_base_.sched.update(x=1)\n" + // a list: unknown
			"_base_.hooks.clear()\n_base_.update(hooks=dict(b=2))\n" + // a dict over an unknown value
			"_base_.opt.update(dict(lr=1), dict(lr=2))\n" + // update raises: unknown
			"d = dict(m=1)\nd.update(n=2)\n" + // not the bases: the file's own dict
			"_base_.nothing.update(k=1)\n" + // line 10: not set by the bases
			"_base_.pairs.update([('k', 2)])\n", // dict.items of a list raises in update: unknown
	})
	r := composeIn(tmp, "cfg/a.py")
	root := r.Doc.Root
	wantValues(t, root, "", map[string]string{"model.backbone.depth": "101", "model.backbone.norm_cfg.type": "BN",
		"model.neck": "null", "epochs": "5", "rest.k": "1", "d.n": "2"})
	if n := root.At("model.backbone.depth"); n != nil && (r.Origin(n).File != "cfg/a.py" || n.Span.Start.Line != 2) {
		t.Errorf("depth from %s line %d", r.Origin(n).File, n.Span.Start.Line)
	}
	if n := root.At("model.backbone.norm_cfg.type"); n != nil && r.Origin(n).File != "cfg/b.py" {
		t.Errorf("norm_cfg.type kept from %s", r.Origin(n).File)
	}
	for _, k := range []string{"sched", "hooks", "opt", "pairs"} {
		if n := root.Get(k); n == nil || !n.IsUnknown() {
			t.Errorf("%s = %+v, want unknown", k, n)
		}
	}
	if got := problemPlaces(r); got != "cfg/a.py:10" {
		t.Errorf("problems %s, want the update of a part the bases do not set (line 10)", got)
	}
}

// TestCodeRunMMEngineBaseDel: `del _base_.model` removes the key from the bases before the
// file's own variables merge in (mmengine v0.10.7 Config._file2dict runs the file with _base_
// bound to the bases' ConfigDict, whose attribute deletion removes the key), so a model of
// another kind is no refusal (MMDetection's ByteTrack and DeepSORT configs); an item of a list
// is removed and the rest move up; a name bound to the part before the del holds it still; a
// part the bases do not set is reported (Python raises).
func TestCodeRunMMEngineBaseDel(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"cfg/b.py": "model = dict(type='FasterRCNN', backbone=dict(type='ResNet'))\nhooks = [dict(type='A'), dict(type='B'), dict(type='C')]\n",
		"cfg/a.py": "_base_ = ['./b.py']\ndetector = _base_.model\ndetector.backbone.depth = 50\ndel _base_.model\ndel _base_.hooks[1]\nmodel = dict(type='DeepSORT', detector=detector)\n",
		"cfg/c.py": "_base_ = ['./b.py']\ndel _base_.optimizer\n",
		// items read before the del of an item before them: Python's x is C and y is B, not
		// what hooks[2] and hooks[1] name after the del
		"cfg/shift.py": "_base_ = ['./b.py']\nx = _base_.hooks[2]\ny = _base_.hooks[1]\ndel _base_.hooks[0]\n",
		// a dict over a value the reader does not know (it may be a dict): no refusal, unknown
		"cfg/e.py": "import os\nmodel = os.environ['MODEL']\n",
		"cfg/d.py": "_base_ = ['./e.py']\nmodel = dict(type='DeepSORT')\n",
	})
	r := composeIn(tmp, "cfg/a.py")
	root := r.Doc.Root
	if got := problemPlaces(r); got != "" {
		t.Errorf("problems %s", got)
	}
	if m := root.Get("model"); m == nil || m.Get("type").Value != "DeepSORT" || m.Get("backbone") != nil {
		t.Errorf("model after del and the file's own: %+v", m)
	}
	// a name bound to the part before its del holds it still (MMDetection's ByteTrack config)
	if d := root.At("model.detector"); d == nil || d.Get("type").Value != "FasterRCNN" || d.At("backbone.depth").Value != "50" {
		t.Errorf("detector held from the deleted base model: %+v", d)
	}
	var types []string
	for i, h := range root.Get("hooks").Children {
		types = append(types, h.Get("type").Value)
		if h.Index != i {
			t.Errorf("hook %d has index %d", i, h.Index)
		}
	}
	if strings.Join(types, ",") != "A,C" {
		t.Errorf("hooks after del of item 1: %v", types)
	}
	if got := problemPlaces(composeIn(tmp, "cfg/c.py")); got != "cfg/c.py:2" {
		t.Errorf("problems %s, want the del of a part the bases do not set (line 2)", got)
	}
	r = composeIn(tmp, "cfg/shift.py")
	if got := problemPlaces(r); got != "" {
		t.Errorf("reads before a del that moves them: problems %s", got)
	}
	for k, want := range map[string]string{"x": "C", "y": "B"} {
		if n := r.Doc.Root.Get(k); n == nil || !n.IsUnknown() && n.Get("type").Value != want {
			t.Errorf("%s read before the del: %+v", k, n)
		}
	}
	// A read of `_base_.x` written after the del of x (or of a part it is in) raises; a name
	// that took the part before the del, used after it, does not.
	testfs.Write(t, tmp, map[string]string{
		"cfg/after.py":  "_base_ = ['./b.py']\ndet = _base_.model\ndel _base_.model\nm = dict(d=det)\nagain = _base_.model\n",
		"cfg/after2.py": "_base_ = ['./b.py']\ndel _base_.model\nb = {{_base_.model.backbone}}\n",
		"cfg/after3.py": "_base_ = ['./b.py']\ndel _base_.model\n_base_.model = dict(type='M')\nm = _base_.model\n",
	})
	for f, want := range map[string]string{"cfg/after.py": "cfg/after.py:5", "cfg/after2.py": "cfg/after2.py:3", "cfg/after3.py": ""} {
		r := composeIn(tmp, f)
		if got := problemPlaces(r); got != want || want != "" && (r.Problems[0].Kind != compose.Refused || !strings.Contains(r.Problems[0].Message, "after `del` removed _base_.model (line ")) {
			t.Errorf("%s: problems %s %+v", f, got, r.Problems)
		}
	}
	r = composeIn(tmp, "cfg/d.py")
	if got := problemPlaces(r); got != "" {
		t.Errorf("a dict over an unknown base value: problems %s", got)
	}
	if m := r.Doc.Root.Get("model"); m == nil || !m.IsUnknown() {
		t.Errorf("a dict over an unknown base value: %+v", m)
	}
}

// TestCodeRunMMEngineBaseEditsMaybe: edits under a condition the reader cannot decide leave
// the parts they name unknown (the branch may or may not run).
func TestCodeRunMMEngineBaseEditsMaybe(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"cfg/b.py": "a = dict(x=1)\nb = [1]\nc = 2\nd = 3\n",
		"cfg/a.py": "import os\n_base_ = './b.py'\nif os.environ.get('X'):\n    _base_.a.x = 5\n    _base_.b.append(2)\n    del _base_.c\n",
	})
	r := composeIn(tmp, "cfg/a.py")
	root := r.Doc.Root
	for _, k := range []string{"a.x", "b", "c"} {
		if n := root.At(k); n == nil || !n.IsUnknown() {
			t.Errorf("%s after a maybe-edit: %+v", k, n)
		}
	}
	if d := root.Get("d"); d == nil || d.Value != "3" {
		t.Errorf("d untouched: %+v", d)
	}
}

// TestCodeRunMMEngineBaseEditsFindings: end to end, a config that switches its bases' batch
// norm to SyncBN through `_base_` is not reported for the bases' BN, and one that switches it
// to BN is reported at its own assignment.
func TestCodeRunMMEngineBaseEditsFindings(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"cfg/_base_/bn.py":   "model = dict(type='EncoderDecoder', backbone=dict(type='ResNetV1c', depth=50, norm_cfg=dict(type='BN', requires_grad=True)))\ntrain_dataloader = dict(batch_size=2)\n",
		"cfg/_base_/sync.py": "model = dict(type='EncoderDecoder', backbone=dict(type='ResNetV1c', depth=50, norm_cfg=dict(type='SyncBN', requires_grad=True)))\ntrain_dataloader = dict(batch_size=2)\n",
		"cfg/to_sync.py":     "_base_ = ['./_base_/bn.py']\n_base_.model.backbone.norm_cfg.type = 'SyncBN'\n",
		"cfg/to_bn.py":       "_base_ = ['./_base_/sync.py']\nbackbone = _base_.model.backbone\nbackbone.norm_cfg = dict(type='BN')\n",
	})
	fsys := compose.FromFS(os.DirFS(tmp))
	for _, tc := range []struct{ file, want string }{
		{"cfg/to_sync.py", ""},
		{"cfg/to_bn.py", "cfg/to_bn.py:3 "},
	} {
		res := lint.LintTree(fsys, []string{tc.file}, nil, rules.All(), lint.Options{Hosts: 1, DevicesPerHost: 8})
		if got := text2(res.Diagnostics, "TL501"); got != tc.want {
			t.Errorf("%s: TL501 at %q, want %q", tc.file, got, tc.want)
		}
	}
}

// TestCodeRunModuleCalls: a scenic config built by its project's shared config function is
// linted as the run it makes (code_calls.go): a value the caller changes is judged where the
// caller changes it, one it leaves points at the shared module, and a shared module that is a
// config of its own is still linted alone.
func TestCodeRunModuleCalls(t *testing.T) {
	tmp := t.TempDir()
	files := map[string]string{
		"scenic/projects/baselines/demo/configs/base_config.py": `import ml_collections


def get_config(steps=1000):
  config = ml_collections.ConfigDict()
  config.experiment_name = 'demo'
  config.trainer_name = 'classification_trainer'
  config.batch_size = 64
  config.num_training_steps = steps
  config.log_eval_steps = 100
  config.checkpoint = True
  config.checkpoint_steps = 100
  config.rng_seed = 42
  return config
`,
		"scenic/projects/baselines/demo/configs/short.py": `from scenic.projects.baselines.demo.configs import base_config


def get_config():
  config = base_config.get_config(steps=50)
  config.checkpoint = False
  return config
`,
		"scenic/projects/baselines/demo/configs/long.py": `from scenic.projects.baselines.demo.configs.base_config import get_config as base


def get_config():
  return base(steps=5000)
`,
	}
	testfs.Write(t, tmp, files)
	names := []string{"scenic/projects/baselines/demo/configs/base_config.py", "scenic/projects/baselines/demo/configs/short.py", "scenic/projects/baselines/demo/configs/long.py"}
	alone := lint.LintTree(compose.FromFS(os.DirFS(tmp)), names[1:2], nil, rules.All(), lint.Options{})
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), names, nil, rules.All(), lint.Options{})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Code+" "+d.File+":"+itoa(d.Line))
	}
	all := strings.Join(got, "|")
	if !strings.Contains(all, "TL304 scenic/projects/baselines/demo/configs/short.py:6") {
		t.Errorf("no TL304 at the caller's checkpoint = False: %v", got)
	}
	// A key no file sets: alone, the shared config's finding; in the run, at the call.
	if !strings.Contains(all, "TL301 scenic/projects/baselines/demo/configs/base_config.py:6") || !strings.Contains(all, "TL301 scenic/projects/baselines/demo/configs/long.py:5") {
		t.Errorf("TL301 not on the shared config alone and at the caller's call: %v", got)
	}
	// Every file is listed as scenic's: the callers (no tree alone) by their runs.
	listed := 0
	for _, f := range res.Files {
		listed++
		if f.Framework != "scenic" {
			t.Errorf("%s listed as %q", f.Path, f.Framework)
		}
	}
	if listed != 3 {
		t.Errorf("files listed %+v", res.Files)
	}
	// Named alone, the caller still reads its module from the tree.
	if len(alone.Diagnostics) != 1 || alone.Diagnostics[0].Code != "TL304" || alone.Diagnostics[0].Line != 6 {
		t.Errorf("caller alone: %+v", alone.Diagnostics)
	}
}

// TestCodeRunModuleCallsOtherFramework: the run of a call-built config that reads as no
// framework's config trainlint knows is skipped as a folder walk skips such a Python file: no
// finding, not even a problem of its composition (the file given by name is listed as
// generic, as any named file is).
func TestCodeRunModuleCallsOtherFramework(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"proj/configs/common.py": "import ml_collections\n\n\ndef get_base():\n  config = ml_collections.ConfigDict()\n  config.width = 4\n  return config\n",
		"proj/configs/run.py":    "from proj.configs import common\n\n\ndef get_config():\n  config = common.get_base()\n  config.model.depth = 2\n  return config\n",
	})
	names := []string{"proj/configs/common.py", "proj/configs/run.py"}
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), names, nil, rules.All(), lint.Options{})
	if len(res.Diagnostics) != 0 {
		t.Errorf("findings %+v", res.Diagnostics)
	}
	// With --framework, the user says what it is: the run is linted, its problem reported.
	res = lint.LintTree(compose.FromFS(os.DirFS(tmp)), names, nil, rules.All(), lint.Options{Framework: "scenic"})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "TL006" || res.Diagnostics[0].File != names[1] {
		t.Errorf("with --framework scenic: %+v", res.Diagnostics)
	}
}

// TestCodeRunModuleCallsConfigDict: the run of a get_config that returns the ConfigDict a
// repository module's get_default_configs made (score_sde's configs/ve/*.py on
// configs/default_cifar10_configs.py) is an ml_collections config: linted and listed though no
// dialect reads it, its findings in the file that sets each value.
func TestCodeRunModuleCallsConfigDict(t *testing.T) {
	tmp := t.TempDir()
	testfs.Write(t, tmp, map[string]string{
		"configs/default_cifar10_configs.py": "import ml_collections\n\n\ndef get_default_configs():\n  config = ml_collections.ConfigDict()\n  config.training = training = ml_collections.ConfigDict()\n  training.batch_size = 128\n  config.eval = evaluate = ml_collections.ConfigDict()\n  evaluate.batch_size = 1024\n  return config\n",
		"configs/ve/small.py":                "from configs.default_cifar10_configs import get_default_configs\n\n\ndef get_config():\n  config = get_default_configs()\n  training = config.training\n  training.batch_size = 8\n  return config\n",
	})
	names := []string{"configs/default_cifar10_configs.py", "configs/ve/small.py"}
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), names, nil, rules.All(), lint.Options{})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "TL209" || res.Diagnostics[0].File != names[0] || res.Diagnostics[0].Line != 9 ||
		len(res.Diagnostics[0].Related) == 0 || res.Diagnostics[0].Related[0].File != names[1] || res.Diagnostics[0].Related[0].Line != 7 {
		t.Errorf("findings %+v", res.Diagnostics)
	}
	listed := false
	for _, f := range res.Files {
		listed = listed || f.Path == names[1] && f.Framework == "generic"
	}
	if !listed {
		t.Errorf("files %+v", res.Files)
	}
}
