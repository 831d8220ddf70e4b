package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/config"
	"github.com/trainlint/trainlint/lint/testfs"
)

// An MMCV 1.x config's keep-N retention is read for the training function the nearest train
// script calls: MMDetection 2.x's train_detector keeps no best checkpoint without
// evaluation.save_best, so max_keep_ckpts=3 over 12 epochs is reported, with the script named.
func TestTrainerFromScript(t *testing.T) {
	const cfg = "model = dict(type='RetinaNet')\nrunner = dict(type='EpochBasedRunner', max_epochs=12)\ncheckpoint_config = dict(interval=1, max_keep_ckpts=3)\nevaluation = dict(interval=1, metric='bbox')\n"
	const mmdetScript = "import mmcv\nfrom mmdet.apis import (init_random_seed, set_random_seed,\n                        train_detector)\n\n\ndef main():\n    train_detector(model, datasets, cfg, validate=True)\n"
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string // the trainer found for det/configs/retinanet/r50.py
	}{
		{"train.py above the configs", map[string]string{"det/train.py": mmdetScript}, "mmdet.apis.train_detector"},
		{"tools/train.py", map[string]string{"tools/train.py": mmdetScript}, "mmdet.apis.train_detector"},
		{"segmentation", map[string]string{"tools/train.py": "from mmseg.apis import set_random_seed, train_segmentor\ntrain_segmentor(model, datasets, cfg)\n"}, "mmseg.apis.train_segmentor"},
		{"3D detection", map[string]string{"tools/train.py": "from mmdet3d.apis import init_random_seed, train_model\nfrom mmdet.apis import set_random_seed\ntrain_model(model, datasets, cfg, distributed=distributed)\n"}, "mmdet3d.apis.train_model"},
		{"the nearest script is a custom one", map[string]string{"tools/train.py": mmdetScript, "det/tools/train.py": "from projects.apis import custom_train_model\ncustom_train_model(model, datasets, cfg)\n"}, ""},
		{"imported, never called", map[string]string{"tools/train.py": "from mmdet.apis import train_detector\n# train_detector(model)\n"}, ""},
		{"two trainers", map[string]string{"tools/train.py": mmdetScript + "from mmseg.apis import train_segmentor\ntrain_segmentor(model, datasets, cfg)\n"}, ""},
		{"a fork keeping a best by default", map[string]string{"tools/train.py": mmdetScript, "mmdet/core/evaluation/eval_hooks.py": "class EvalHook(BaseEvalHook):\n    def __init__(self, *args, save_best='auto', **kwargs):\n        pass\n"}, ""},
		{"a vendored copy as released", map[string]string{"tools/train.py": mmdetScript, "mmdet/core/evaluation/eval_hooks.py": "class EvalHook(BaseEvalHook):\n    def __init__(self, *args, dynamic_intervals=None, **kwargs):\n        warnings.warn('e.g., save_best=\"AP\".')\n"}, "mmdet.apis.train_detector"},
	} {
		root := t.TempDir()
		testfs.Write(t, root, c.files)
		testfs.Write(t, root, map[string]string{"det/configs/retinanet/r50.py": cfg})
		file := filepath.Join(root, "det", "configs", "retinanet", "r50.py")
		o := withTrainer(lint.Options{}, file)
		if o.Trainer.Name != c.want {
			t.Errorf("%s: trainer %+v, want %q", c.name, o.Trainer, c.want)
			continue
		}
		_, out, _ := cli(t, nil, "check", "--select", "TL301", file)
		if got := strings.Contains(out, "TL301"); got != (c.want != "") {
			t.Errorf("%s: TL301 reported %v:\n%s", c.name, got, out)
		}
		if c.want != "" && !strings.Contains(out, "train.py trains with "+c.want) {
			t.Errorf("%s: the finding does not name the script:\n%s", c.name, out)
		}
	}
	// The language server lints a file with fileOptions: it finds the trainer too.
	root := t.TempDir()
	testfs.Write(t, root, map[string]string{"tools/train.py": mmdetScript, "configs/a.py": cfg})
	o, err := fileOptions(config.NewLoader(allRules()), filepath.Join(root, "configs", "a.py"))
	if err != nil || o.Trainer.Name != "mmdet.apis.train_detector" {
		t.Errorf("fileOptions: trainer %+v, err %v", o.Trainer, err)
	}
	// Only Python configs ask.
	if o := withTrainer(lint.Options{}, filepath.Join(t.TempDir(), "a.yaml")); o.Trainer.Name != "" {
		t.Errorf("YAML file given a trainer %+v", o.Trainer)
	}
}

// A script below the working directory is named relative to it, even in a folder whose name
// starts with two dots; one outside it keeps its absolute path.
func TestTrainerScriptPath(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	if got := displayPath(filepath.Join(wd, "..det", "train.py")); got != "..det/train.py" {
		t.Errorf("below the working directory: %q", got)
	}
	out := filepath.Join(filepath.Dir(wd), "other", "train.py")
	if got := displayPath(out); got != out {
		t.Errorf("outside the working directory: %q", got)
	}
}

// The script's call says whether the training function evaluates: validate=True, or the
// projects' validate=(not args.no_validate); anything else, or no such keyword (the functions
// default to no validation), is unknown. Keywords inside strings, comments or nested calls of
// the same call do not count.
func TestTrainerValidateArg(t *testing.T) {
	const imp = "from mmdet.apis import train_detector\n"
	for _, c := range []struct{ name, script, want string }{
		{"True", "train_detector(model, ds, cfg, validate=True)\n", "on"},
		{"the tools script", "train_detector(\n    model,\n    datasets,\n    cfg,\n    distributed=distributed,\n    validate=(not args.no_validate),\n    timestamp=timestamp,\n    meta=meta)\n", "no-validate"},
		{"without parentheses", "train_detector(model, ds, cfg, validate = not  args.no_validate)\n", "no-validate"},
		{"False", "train_detector(model, ds, cfg, validate=False)\n", ""},
		{"absent: the function's default", "train_detector(model, ds, cfg, distributed=True)\n", ""},
		{"another expression", "train_detector(model, ds, cfg, validate=args.validate)\n", ""},
		{"in a nested call", "train_detector(model, build(ds, validate=True), cfg)\n", ""},
		{"in a string", "train_detector(model, 'a, validate=True, b', cfg)\n", ""},
		{"in a comment", "train_detector(model, ds, cfg,  # keep, validate=True,\n    meta=meta)\n", ""},
		{"a call that does not close", "train_detector(model, ds, validate=True\n", ""},
	} {
		if got := validateArg(imp+c.script, "train_detector"); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// End to end: an MMDetection 2.x-era repository whose tools/train.py validates by default gets
// the eval and save schedule of its iteration-based config read: the last 3000 iterations run
// after the last evaluation (MMCV's EvalHook never evaluates at the end), and saves every 6000
// iterations do not land on evaluations every 7000. A script that turns validation off gets
// neither finding.
func TestTrainerSchedule(t *testing.T) {
	const cfg = "model = dict(type='EncoderDecoder')\nrunner = dict(type='IterBasedRunner', max_iters=80000)\ncheckpoint_config = dict(by_epoch=False, interval=6000)\nevaluation = dict(interval=7000, metric='mIoU')\n"
	for _, c := range []struct {
		name, script string
		want         bool
	}{
		{"validates", "from mmseg.apis import train_segmentor\ntrain_segmentor(model, datasets, cfg, distributed=distributed, validate=(not args.no_validate))\n", true},
		{"no validation", "from mmseg.apis import train_segmentor\ntrain_segmentor(model, datasets, cfg, distributed=distributed)\n", false},
	} {
		root := t.TempDir()
		testfs.Write(t, root, map[string]string{"tools/train.py": c.script, "configs/a.py": cfg})
		_, out, _ := cli(t, nil, "check", "--select", "TL303,TL309", filepath.Join(root, "configs", "a.py"))
		for _, want := range []string{
			"TL309 final-step-not-saved-or-evaluated] runner.max_iters 80000 is not a multiple of evaluation.interval 7000, so the final model is never evaluated",
			"TL303 checkpoint-not-aligned-with-eval] checkpoint_config.interval 6000 is not a multiple of evaluation.interval 7000",
		} {
			if strings.Contains(out, want) != c.want {
				t.Errorf("%s: %q reported %v:\n%s", c.name, want, !c.want, out)
			}
		}
	}
}

// Epochs too: MMCV's EvalHook evaluates at multiples of the interval only, so 12 epochs
// evaluated every 5 leave the last 2 unevaluated, and an interval past the run evaluates
// nothing; 12 epochs every 4 end on an evaluation.
func TestTrainerScheduleEpochs(t *testing.T) {
	const script = "from mmdet.apis import train_detector\ntrain_detector(model, datasets, cfg, validate=(not args.no_validate))\n"
	for _, c := range []struct{ name, eval, want string }{
		{"not a multiple", "evaluation = dict(interval=5)\n", "runner.max_epochs 12 is not a multiple of evaluation.interval 5, so the final model is never evaluated: the last 2 epochs run after the last evaluation"},
		{"past the run", "evaluation = dict(interval=100)\n", "runner.max_epochs 12 is shorter than evaluation.interval 100, so no evaluation runs during training and the final model is never evaluated"},
		{"a multiple", "evaluation = dict(interval=4)\n", ""},
	} {
		root := t.TempDir()
		testfs.Write(t, root, map[string]string{"tools/train.py": script, "configs/a.py": "model = dict(type='RetinaNet')\nrunner = dict(type='EpochBasedRunner', max_epochs=12)\ncheckpoint_config = dict(interval=4)\n" + c.eval})
		_, out, _ := cli(t, nil, "check", "--select", "TL309", filepath.Join(root, "configs", "a.py"))
		if c.want == "" && strings.Contains(out, "TL309") || c.want != "" && !strings.Contains(out, c.want) {
			t.Errorf("%s: want %q:\n%s", c.name, c.want, out)
		}
	}
}

// A train script is the user's text: reading its call never panics or loops, whatever the
// brackets, quotes and comments, and a verdict is one of the three.
func FuzzValidateArg(f *testing.F) {
	for _, s := range []string{
		"train_detector(model, ds, cfg, validate=(not args.no_validate))\n",
		"train_detector(model, 'a, validate=True', cfg,  # x, validate=True,\n meta=m)\n",
		"train_detector(\"\\\\\", validate=True\n",
		"train_detector((((", "train_detector(')", "train_detector(#",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		switch got := validateArg(s, "train_detector"); got {
		case "", "on", "no-validate":
		default:
			t.Fatalf("validateArg(%q) = %q", s, got)
		}
	})
}
