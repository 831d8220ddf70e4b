package site

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// browserRun is a Hydra run as the checker's tabs hold it: the primary config, its group files
// and an experiment. In the run, callbacks/default.yaml names the monitor that
// model_checkpoint.yaml's mode ranks the wrong way (TL310), and the group file alone would look
// like a checkpoint without a monitor (TL301).
var browserRun = [][2]string{
	{"configs/train.yaml", "defaults:\n  - callbacks: default\n  - data: mnist\n  - experiment: null\n  - _self_\n\nseed: 12345\n"},
	{"configs/callbacks/default.yaml", "defaults:\n  - model_checkpoint\n  - _self_\n\nmodel_checkpoint:\n  monitor: val/acc\n  save_top_k: 1\n"},
	{"configs/callbacks/model_checkpoint.yaml", "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  dirpath: ckpts\n  monitor: null\n  save_top_k: 1\n  mode: min\n"},
	{"configs/data/mnist.yaml", "_target_: src.data.mnist_datamodule.MNISTDataModule\nbatch_size: 128\nnum_workers: 4\n"},
	{"configs/experiment/fast.yaml", "# @package _global_\ndata:\n  num_workers: 0\n"},
}

// runPermalink is the checker's fragment for several files, with extra parameters appended.
func runPermalink(files [][2]string, extra string) string {
	q := "check/index.html#"
	for i, f := range files {
		if i > 0 {
			q += "&"
		}
		q += "f=" + url.QueryEscape(f[0]) + "&c=" + Compress(f[1])
	}
	return q + extra
}

// zerosC is a permalink text of n zero bytes, deflated.
func zerosC(n int) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(make([]byte, n))
	w.Close()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// TestBrowserRuns drives the checker on composed runs in headless Chromium: a permalink carries
// every file of a Hydra run, the tabs are those files, a finding is listed in the file that set
// the value with its related location in another file; overrides and the version selectors
// change the lint and travel in the permalink; the permalink's files share one decompression
// budget; a folder chosen with the folder input or dropped on the editor loads a run (the
// primary first, hidden folders skipped); and axe finds no serious or critical violation.
func TestBrowserRuns(t *testing.T) {
	b := newBrowser(t)
	base := b.base
	tabs := func() string {
		return strings.Join(eval[[]string](b, `[...document.querySelectorAll('#tl-tabs button.file')].map(b => b.textContent)`), ",")
	}
	names := func(fs [][2]string) string {
		var out []string
		for _, f := range fs {
			out = append(out, f[0])
		}
		return strings.Join(out, ",")
	}
	wrong := `#tl-findings li[data-rule="best-metric-direction-wrong"]`

	// 1. A run's permalink: one tab per file, findings placed in the file that set the value.
	// The experiment's run composes with an override, which the light module hands to the full
	// one (lint/compose/hydravalue_lite.go): its finding arrives when that module has loaded,
	// which under load can be after the primary's.
	b.do("opening a run's permalink", chromedp.Navigate(base+runPermalink(browserRun, "")), chromedp.WaitVisible(ready),
		chromedp.WaitVisible(wrong), chromedp.WaitVisible(`#tl-findings li[data-rule="input-no-prefetch"]`))
	if got := tabs(); got != names(browserRun) {
		t.Errorf("tabs %q, want the run's files", got)
	}
	if f := eval[string](b, `document.querySelector('`+wrong+`').dataset.file + ":" + document.querySelector('`+wrong+`').dataset.line`); f != "configs/callbacks/model_checkpoint.yaml:6" {
		t.Errorf("TL310 listed at %s, want configs/callbacks/model_checkpoint.yaml:6", f)
	}
	if n := eval[int](b, `document.querySelectorAll('#tl-findings li[data-rule="checkpoint-keeps-latest-not-best"]').length`); n != 0 {
		t.Errorf("the group file alone's TL301 is listed %d times in the run", n)
	}
	// The experiment beside the primary is a run too (as check finds it): its finding is in
	// the experiment's file.
	if f := eval[string](b, `(document.querySelector('#tl-findings li[data-rule="input-no-prefetch"]')||{dataset:{}}).dataset.file||""`); f != "configs/experiment/fast.yaml" {
		t.Errorf("TL101 of the experiment's run listed in %q", f)
	}
	// The related location names its file and jumps there.
	rel := wrong + ` button.related`
	if got := eval[string](b, `(document.querySelector('`+rel+`')||{}).textContent||""`); got != "configs/callbacks/default.yaml:6" {
		t.Errorf("related location %q, want configs/callbacks/default.yaml:6", got)
	}
	if got := eval[string](b, `(document.querySelector('`+wrong+` .related-note')||{}).textContent||""`); got != "(metric named here: configs/callbacks/default.yaml:6)" {
		t.Errorf("related note %q", got)
	}
	b.do("jumping to the related location", chromedp.Click(rel))
	if cur := eval[string](b, `document.querySelector('#tl-tabs button[aria-current="true"]').textContent`); cur != "configs/callbacks/default.yaml" {
		t.Errorf("the related location opened %q", cur)
	}
	if active := eval[string](b, `(document.querySelector('.cm-activeLine')||{}).textContent||""`); active != "  monitor: val/acc" {
		t.Errorf("the related location selected line %q", active)
	}

	// 2. Overrides: typed as on the command line, they say what is launched (the primary with
	// them, no other experiment) and go in the permalink.
	setOverrides := func(v string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := chromedp.SetValue(`#tl-overrides`, v)(ctx, tg); err != nil {
				return err
			}
			_, err := jsDo(`document.getElementById('tl-overrides').dispatchEvent(new Event('change'))`)(ctx, tg)
			return err
		})
	}
	b.do("overriding the mode", setOverrides("callbacks.model_checkpoint.mode=max"),
		chromedp.WaitNotPresent(wrong), chromedp.WaitNotPresent(`#tl-findings li[data-rule="input-no-prefetch"]`))
	b.do("choosing the experiment", setOverrides("experiment=fast  callbacks.model_checkpoint.mode=max"),
		chromedp.WaitVisible(`#tl-findings li[data-rule="input-no-prefetch"]`))
	if n := eval[int](b, `document.querySelectorAll('`+wrong+`').length`); n != 0 {
		t.Errorf("TL310 listed %d times with mode=max", n)
	}
	hash := eval[string](b, `new Promise(r => setTimeout(() => r(location.hash), 400))`)
	q, _ := url.ParseQuery(strings.TrimPrefix(hash, "#"))
	if q.Get("o") != "experiment=fast callbacks.model_checkpoint.mode=max" || len(q["c"]) != len(browserRun) {
		t.Errorf("the fragment carries overrides %q and %d files", q.Get("o"), len(q["c"]))
	}
	b.do("reopening with overrides", chromedp.Navigate(base+"index.html"), chromedp.Navigate(base+"check/index.html"+hash),
		chromedp.WaitVisible(ready), chromedp.WaitVisible(`#tl-findings li[data-rule="input-no-prefetch"]`))
	if got := eval[string](b, `document.getElementById('tl-overrides').value`); got != "experiment=fast callbacks.model_checkpoint.mode=max" {
		t.Errorf("overrides from the permalink: %q", got)
	}
	if got := tabs(); got != names(browserRun) {
		t.Errorf("tabs from the permalink %q", got)
	}

	// 3. Version selectors: newest by default; an older transformers makes a removed key info.
	hf := [][2]string{{"sft.yaml", "output_dir: out\noverwrite_output_dir: true\nper_device_train_batch_size: 8\n"}}
	dep := `#tl-findings li[data-rule="deprecated-key"]`
	b.do("an HF file", chromedp.Navigate(base+"index.html"), chromedp.Navigate(base+runPermalink(hf, "")), chromedp.WaitVisible(ready), chromedp.WaitVisible(dep))
	pkgs := eval[[]string](b, `[...document.querySelectorAll('select.tl-version')].map(s => s.dataset.package + "=" + s.value + ":" + s.options[0].textContent + ">" + s.options[1].value)`)
	joined := strings.Join(pkgs, " ")
	if len(pkgs) < 3 || !strings.Contains(joined, "transformers=:newest>5.") || !strings.Contains(joined, "trl=:newest>") ||
		!strings.Contains(joined, "deepspeed=:newest>") || strings.Contains(joined, ">9") {
		t.Errorf("version selectors %q, want transformers, trl, deepspeed at newest, newest version next", pkgs)
	}
	if sev := eval[string](b, `document.querySelector('`+dep+`').dataset.severity`); sev != "warning" {
		t.Errorf("at the newest transformers the removed key is %s", sev)
	}
	b.do("choosing transformers 4.41", chromedp.SetValue(`#tl-v-transformers`, "4.41"),
		jsDo(`document.getElementById('tl-v-transformers').dispatchEvent(new Event('change'))`),
		chromedp.WaitVisible(dep+`[data-severity="info"]`))
	if msg := eval[string](b, `document.querySelector('`+dep+` .msg').textContent`); !strings.Contains(msg, "the checker targets 4.41, where it still works") {
		t.Errorf("at 4.41: %q", msg)
	}
	hash = eval[string](b, `new Promise(r => setTimeout(() => r(location.hash), 400))`)
	if q, _ := url.ParseQuery(strings.TrimPrefix(hash, "#")); strings.Join(q["v"], ",") != "transformers:4.41" {
		t.Errorf("the fragment carries versions %q", q["v"])
	}
	b.do("reopening with the version", chromedp.Navigate(base+"index.html"), chromedp.Navigate(base+"check/index.html"+hash),
		chromedp.WaitVisible(ready), chromedp.WaitVisible(dep+`[data-severity="info"]`))
	if v := eval[string](b, `document.getElementById('tl-v-transformers').value`); v != "4.41" {
		t.Errorf("the selector from the permalink: %q", v)
	}

	// 4. The files of a permalink share the 10 MB budget: two of 6 MB are refused.
	big := "check/index.html#f=a.yaml&c=" + zerosC(6<<20) + "&f=b.yaml&c=" + zerosC(6<<20)
	b.do("two 6 MB files", chromedp.Navigate(base+"index.html"), chromedp.Navigate(base+big), chromedp.WaitVisible(`#tl-notice`))
	if n := eval[string](b, `document.getElementById('tl-notice').textContent`); !strings.Contains(n, `"b.yaml" is too large`) || !strings.Contains(n, "larger than 10 MB") {
		t.Errorf("two 6 MB files say %q", n)
	}

	// 5. A folder chosen with the folder input loads its config files as one run, the primary
	// first; hidden folders and other files stay out.
	dir := filepath.Join(t.TempDir(), "myproject")
	for _, f := range browserRun {
		p := filepath.Join(dir, filepath.FromSlash(f[0]))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(f[1]), 0o644)
	}
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "config.yaml"), []byte("x: 1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# notes\n"), 0o644)
	b.do("opening a folder", chromedp.Navigate(base+"check/index.html"), chromedp.WaitVisible(ready),
		chromedp.SetUploadFiles(`#tl-folder`, []string{dir}), chromedp.WaitVisible(wrong))
	if got := tabs(); got != "configs/train.yaml,configs/callbacks/default.yaml,configs/callbacks/model_checkpoint.yaml,configs/data/mnist.yaml,configs/experiment/fast.yaml" {
		t.Errorf("tabs of the opened folder: %q", got)
	}

	// 6. A dropped folder (the FileSystemEntry API, here a folder of entries built in the page)
	// loads a run the same way.
	b.do("dropping a folder", chromedp.Navigate(base+runPermalink(hf, "")), chromedp.WaitVisible(ready), chromedp.WaitVisible(dep),
		jsDo(`
const file = (path, text) => { const name = path.split("/").pop(); return { isFile: true, isDirectory: false, name, file: (ok) => ok(new File([text], name)) }; };
const dir = (name, kids) => ({ isFile: false, isDirectory: true, name, createReader: () => { let done = false; return { readEntries: (ok) => { ok(done ? [] : kids); done = true; } }; } });
const tree = {};
for (const [p, text] of `+jsRun()+`) {
  const parts = p.split("/"); let node = tree;
  for (const d of parts.slice(0, -1)) node = node[d] = node[d] || {};
  node[parts[parts.length - 1]] = text;
}
const build = (name, node) => dir(name, Object.entries(node).map(([k, v]) => typeof v === "string" ? file(k, v) : build(k, v)));
const root = build("myproject", Object.assign(tree, { ".git": { "config.yaml": "x: 1\n" }, "notes.txt": "hi" }));
const ev = new Event("drop", { bubbles: true, cancelable: true });
Object.defineProperty(ev, "dataTransfer", { value: { types: ["Files"], files: [new File([""], "myproject")], items: [{ webkitGetAsEntry: () => root }] } });
document.getElementById("tl-editor").dispatchEvent(ev);
`), chromedp.WaitVisible(wrong))
	if got := tabs(); got != "configs/train.yaml,configs/callbacks/default.yaml,configs/callbacks/model_checkpoint.yaml,configs/data/mnist.yaml,configs/experiment/fast.yaml" {
		t.Errorf("tabs of the dropped folder: %q", got)
	}
	// Closable tabs stay: closing the experiment leaves the run without it.
	b.do("closing a tab of the run", chromedp.Click(`#tl-tabs li:nth-child(5) button.close`), chromedp.WaitNotPresent(`#tl-tabs li:nth-child(5)`))
	if got := tabs(); strings.Contains(got, "experiment") {
		t.Errorf("tabs after closing the experiment: %q", got)
	}

	// On the landing page, a folder chosen before the module loads opens once it has.
	b.do("a folder on the landing page", chromedp.Navigate(base+"index.html"), chromedp.WaitVisible(`#tl-start`),
		chromedp.SetUploadFiles(`#tl-folder`, []string{dir}), chromedp.WaitVisible(ready), chromedp.WaitVisible(wrong))
	if got := tabs(); !strings.HasPrefix(got, "configs/train.yaml,") || strings.Count(got, ",") != 4 {
		t.Errorf("tabs of the folder chosen on the landing page: %q", got)
	}

	// A folder of MMEngine configs opens as its run too: the config with bases first, the bases
	// after it, the training scripts beside them left out (and not counted); the finding the run makes from a base's
	// value shows in that base's tab.
	code := t.TempDir()
	for name, text := range map[string]string{
		"configs/_base_/schedule.py": "train_cfg = dict(type='EpochBasedTrainLoop', max_epochs=12, val_interval=1)\n",
		"configs/_base_/runtime.py":  "default_hooks = dict(checkpoint=dict(type='CheckpointHook', interval=1, max_keep_ckpts=3))\n",
		"configs/retina.py":          "_base_ = ['./_base_/schedule.py', './_base_/runtime.py']\noptim_wrapper = dict(optimizer=dict(type='SGD', lr=0.01))\ntrain_dataloader = dict(batch_size=16, num_workers=4)\nval_dataloader = dict(batch_size=4, num_workers=2)\n",
		"tools/train.py":             "import argparse\n\n\ndef main():\n    cfg = dict(a=1)\n",
		"tools/eval_main.py":         "from absl import app\n\n\ndef get_config():\n  return dict(batch_size=8)\n\n\ndef main(_):\n  get_config()\n\n\nif __name__ == '__main__':\n  app.run(main)\n",
	} {
		p := filepath.Join(code, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	// More scripts than the checker opens files: they are no configs, so they count for nothing.
	for i := range 320 {
		os.WriteFile(filepath.Join(code, "tools", fmt.Sprintf("step%03d.py", i)), []byte("import sys\n\n\ndef main():\n    print(sys.argv)\n"), 0o644)
	}
	evalBatch := `#tl-findings li[data-rule="eval-batch-smaller-than-train"]`
	b.do("opening a folder of MMEngine configs", chromedp.Navigate(base+"check/index.html"), chromedp.WaitVisible(ready),
		chromedp.SetUploadFiles(`#tl-folder`, []string{code}), chromedp.WaitVisible(evalBatch), chromedp.WaitVisible(`#tl-tabs li:nth-child(3) button.file`))
	if got := tabs(); got != "configs/retina.py,configs/_base_/runtime.py,configs/_base_/schedule.py" {
		t.Errorf("tabs of the opened MMEngine folder: %q", got)
	}
	b.do("the base's tab", chromedp.Click(`#tl-tabs li:nth-child(2) button.file`),
		chromedp.WaitVisible(`#tl-findings li[data-rule="checkpoint-keeps-latest-not-best"]`))

	// 7. Accessibility of the run view (tabs, overrides, version selectors, related buttons).
	axe, err := os.ReadFile(filepath.Join(FindRoot("."), "site", "web", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is not installed (the site build runs npm ci in site/web): %v", err)
	}
	b.do("the run again", chromedp.Navigate(base+"index.html"), chromedp.Navigate(base+runPermalink(browserRun, "&v=trl:0.19.0")), chromedp.WaitVisible(ready), chromedp.WaitVisible(wrong))
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](string(axe)+";true")); err != nil {
		t.Fatalf("injecting axe-core: %v", err)
	}
	for _, v := range eval[[]string](b, `new Promise((resolve, reject) => axe.run(document, {resultTypes: ["violations"]}).then(r => resolve(r.violations.filter(v => v.impact === "serious" || v.impact === "critical").map(v => v.id + " (" + v.impact + "): " + v.nodes.length + " nodes, e.g. " + v.nodes[0].target.join(" ") + " — " + v.help)), reject))`) {
		t.Errorf("axe on the run view: %s", v)
	}
}

// jsRun is browserRun as a JavaScript array literal of [path, text] pairs.
func jsRun() string {
	var b strings.Builder
	b.WriteString("[")
	for i, f := range browserRun {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("[" + jsString(f[0]) + "," + jsString(f[1]) + "]")
	}
	return b.String() + "]"
}

func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
