// Command loadtrace records Chromium traces of cold loads of the checker (the budget test's
// permalink, HTTP cache off, each load in a new browser context), one JSON file per load in the Trace Event Format that
// chrome://tracing and Perfetto open, beside the load's trainlintPerf. It is how site/doc.go's
// Timings looked at what the main thread and V8's worker threads do before ready.
//
//	go run ./site/internal/loadtrace -n 3 -o /tmp/traces SITE_DIR
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"

	"github.com/trainlint/trainlint/site"
	"github.com/trainlint/trainlint/site/internal/measure"
)

// pitfall is the budget test's permalink file (as in coldloads).
const pitfall = "# Supervised fine-tuning\noutput_dir: out/sft\nnum_train_epochs: 1\n" +
	"per_device_train_batch_size: 16\nper_device_eval_batch_size: 4\neval_strategy: steps\neval_steps: 200\n"

// categories are those the Timings traces used: the page's tasks, V8's compiles (JavaScript and
// WebAssembly), script streaming and the network.
const categories = "devtools.timeline,disabled-by-default-devtools.timeline,v8,v8.wasm,v8.compile," +
	"disabled-by-default-v8.compile,loading,blink.user_timing,toplevel,disabled-by-default-v8.cpu_profiler"

func main() {
	n := flag.Int("n", 3, "traced cold loads")
	out := flag.String("o", "traces", "folder for the traces")
	cats := flag.String("categories", categories, "trace categories, comma-separated")
	chromium := flag.String("chromium", "/usr/bin/chromium", "the browser")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: loadtrace [-n LOADS] [-o DIR] SITE_DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail("%v", err)
	}
	srv := httptest.NewServer(site.Handler(dir))
	defer srv.Close()
	url := srv.URL + "/" + site.Permalink("configs/sft.yaml", pitfall)
	browser, stop := measure.ColdBrowserOrExit("loadtrace", *chromium, "")
	defer stop()

	var mu sync.Mutex
	var events []json.RawMessage
	done := make(chan struct{}, 1)
	listen := func(ctx context.Context) error {
		return chromedp.Listen(ctx, func(ev any) {
			switch e := ev.(type) {
			case *tracing.EventDataCollected:
				mu.Lock()
				for _, v := range e.Value {
					b, _ := json.Marshal(v)
					events = append(events, b)
				}
				mu.Unlock()
			case *tracing.EventTracingComplete:
				done <- struct{}{}
			}
		})
	}
	for i := -1; i < *n; i++ { // load -1 warms the browser and is not traced
		// Each load in a tab of a new browser context, as a first visit (measure.NewContextTab).
		ctx, closeTab := measure.NewContextTab(browser)
		if err := listen(ctx); err != nil {
			fail("%v", err)
		}
		if i >= 0 {
			mu.Lock()
			events = nil
			mu.Unlock()
			err := chromedp.Do(ctx, measure.CacheOff)
			if err == nil {
				_, err = chromedp.Call(ctx, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents,
					TraceConfig: &tracing.TraceConfig{IncludedCategories: strings.Split(*cats, ",")}})
			}
			if err != nil {
				fail("starting the trace: %v", err)
			}
		}
		tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		err := chromedp.Do(tctx, chromedp.Navigate(url), chromedp.WaitVisible(`#checker[data-ready="true"]`))
		var perf map[string]float64
		if err == nil {
			perf, err = chromedp.Run(tctx, chromedp.Evaluate[map[string]float64](`trainlintPerf`))
		}
		cancel()
		if err != nil {
			fail("load %d: %v", i, err)
		}
		if i < 0 {
			closeTab()
			continue
		}
		time.Sleep(300 * time.Millisecond)
		if _, err := chromedp.Call(ctx, tracing.End, cdp.Empty{}); err != nil {
			fail("ending the trace: %v", err)
		}
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			fail("the trace did not complete")
		}
		mu.Lock()
		doc := struct {
			TraceEvents []json.RawMessage  `json:"traceEvents"`
			Perf        map[string]float64 `json:"trainlintPerf"`
			Load        float64            `json:"loadPerCPU"`
		}{events, perf, measure.LoadPerCPU()}
		b, err := json.Marshal(doc)
		mu.Unlock()
		if err != nil {
			fail("%v", err)
		}
		closeTab()
		f := filepath.Join(*out, fmt.Sprintf("trace-%d.json", i))
		if err := os.WriteFile(f, b, 0o644); err != nil {
			fail("%v", err)
		}
		fmt.Printf("%s: %d events, ready %.0f ms, load %.2f per CPU\n", f, len(doc.TraceEvents), perf["readyMs"], doc.Load)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "loadtrace: "+format+"\n", args...)
	os.Exit(1)
}
