// Package measure holds what the site's timing measurements share: TestBrowserBudgets and the
// coldloads command judge their figures by the machine's load and quote medians.
package measure

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"sort"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// LoadPerCPU is the one-minute load average per CPU (0 where /proc/loadavg is missing).
func LoadPerCPU() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscan(string(b), &l)
	return l / float64(runtime.NumCPU())
}

// Median is the middle value of xs (the upper one of an even count), 0 for none; xs is not
// reordered.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// Launch starts headless Chromium at path with the flags every browser measurement and test
// uses (and extra), in a fresh profile folder that stop removes, and runs first against its first
// tab. A start that fails is tried again, three times in all, each with a new process and
// profile: in CI on 2026-12-02 Chromium's zygote could not fork its GPU process on a healthy
// machine and the browser test it served failed 0.3 s in, and no test judges the start itself.
// failed holds the earlier attempts' errors for the caller to log; err is the last attempt's.
func Launch(path string, extra []chromedp.ExecAllocatorOption, first func(context.Context) error) (ctx context.Context, stop func(), failed []error, err error) {
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			failed = append(failed, err)
			time.Sleep(time.Second)
		}
		ctx, stop, err = launchOnce(path, extra, first)
		if err == nil {
			return ctx, stop, failed, nil
		}
	}
	return nil, nil, failed, err
}

func launchOnce(path string, extra []chromedp.ExecAllocatorOption, first func(context.Context) error) (context.Context, func(), error) {
	dir, err := os.MkdirTemp("", "trainlint-chromium-")
	if err != nil {
		return nil, nil, err
	}
	opts := append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.UserDataDir(dir),
		chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true), chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-default-browser-check", true),
		chromedp.WindowSize(1280, 900),
	}, extra...)
	actx, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, stopCtx := chromedp.NewContext(actx)
	stop := func() { stopCtx(); stopAlloc(); os.RemoveAll(dir) }
	if err := first(ctx); err != nil {
		stop()
		return nil, nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return ctx, stop, nil
}

// ColdBrowser is Launch for the coldloads and loadtrace commands: the HTTP cache off for every
// load and jsFlags (if any) given to V8.
func ColdBrowser(path, jsFlags string) (ctx context.Context, stop func(), err error) {
	var extra []chromedp.ExecAllocatorOption
	if jsFlags != "" {
		extra = append(extra, chromedp.Flag("js-flags", jsFlags))
	}
	ctx, stop, _, err = Launch(path, extra, func(ctx context.Context) error {
		return chromedp.Do(ctx, chromedp.Navigate("about:blank"), CacheOff)
	})
	return ctx, stop, err
}

// ColdBrowserOrExit is ColdBrowser for a command: on an error it prints it after the command's
// name and exits with status 1.
func ColdBrowserOrExit(command, path, jsFlags string) (context.Context, func()) {
	ctx, stop, err := ColdBrowser(path, jsFlags)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", command, err)
		os.Exit(1)
	}
	return ctx, stop
}

// CacheOff turns the HTTP cache off for the tab's later loads.
var CacheOff = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	_, err := cdp.Call(ctx, t, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
	return err
})

// NewContextTab is a tab in a new browser context of the browser behind ctx: a renderer process
// of its own, so nothing V8 compiled in an earlier load's process (the bundle's JavaScript, the
// module's functions) is there, as on a first visit. A tab reused for every load kept it, with
// the HTTP cache off or not, and loaded the checker about 150 ms faster.
func NewContextTab(ctx context.Context) (context.Context, context.CancelFunc) {
	return chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
}

// quietDomains are the DevTools domains chromedp enables on every tab it attaches to. With them
// on, the browser reports every request, response chunk, style sheet and DOM change of the load
// to the test: for the checker's first visit about 1,840 ms of the browser's CPU time from the
// navigation to ready against 1,260 with them off, and ready 76 ms later (2026-12-02, coldloads,
// 20 loads each on two CPUs), work no visitor's browser does. Runtime stays on: it reads the page's timings and
// reports its exceptions and console errors.
var quietDomains = []string{"Network.disable", "Page.disable", "DOM.disable", "CSS.disable", "Log.disable", "Inspector.disable"}

// QuietTab is a tab in a new browser context (NewContextTab: a renderer of its own and an empty
// HTTP cache, as on a first visit) showing about:blank, with only the Runtime domain of
// DevTools on (quietDomains). LoadUntil then loads the page in it; between the two the caller
// can listen to the tab or take the machine's CPU times.
func QuietTab(ctx context.Context) (tab context.Context, close func(), err error) {
	tab, close = NewContextTab(ctx)
	if err := chromedp.Do(tab, chromedp.Navigate("about:blank")); err != nil {
		close()
		return nil, nil, err
	}
	t := chromedp.FromContext(tab).Target
	for _, m := range quietDomains {
		if err := t.Call(tab, m, nil, nil); err != nil {
			close()
			return nil, nil, fmt.Errorf("%s: %w", m, err)
		}
	}
	return tab, close, nil
}

// LoadUntil navigates the tab to url (by script: Page is off) and polls, every 20 ms, until an
// element matches readySelector; it returns the page's trainlintPerf, the timings the page
// records itself (performance.now), so the polling times nothing.
func LoadUntil(tab context.Context, url, readySelector string) (map[string]float64, error) {
	if _, err := chromedp.Run(tab, chromedp.Evaluate[string]("location.href = "+jsString(url))); err != nil {
		return nil, err
	}
	probe := "document.querySelector(" + jsString(readySelector) + ") ? trainlintPerf : null"
	deadline := time.After(60 * time.Second)
	for {
		select {
		case <-tab.Done():
			return nil, fmt.Errorf("%s not ready: %w", url, tab.Err())
		case <-deadline:
			return nil, fmt.Errorf("%s not ready within 60 s (%s)", url, readySelector)
		case <-time.After(20 * time.Millisecond):
		}
		// An evaluation that meets the navigation (the old document's context going away)
		// fails; the next one reads the new document.
		if perf, err := chromedp.Run(tab, chromedp.Evaluate[map[string]float64](probe)); err == nil && perf != nil {
			return perf, nil
		}
	}
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// BlankPage serves, at every path, a page with nothing but the checker's ready mark, set by an
// inline script as the page is parsed: a first visit to it takes what any page takes on this
// machine at this moment (a new renderer, the navigation, one small document). Timed beside the
// checker, it tells the machine's state apart from the checker's cost: 29-38 ms when the
// machine was quiet on 2026-12-01, 55-68 ms in its slow hours after (site/doc.go, Timings).
var BlankPage http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, blankPage)
})

const blankPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>blank</title></head>` +
	`<body><div id="checker">blank</div><script>globalThis.trainlintPerf = {readyMs: performance.now()};` +
	`document.getElementById("checker").dataset.ready = "true";</script></body></html>`
