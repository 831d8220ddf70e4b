// Package measure holds what the site's timing measurements share: TestBrowserBudgets and the
// coldloads command judge their figures by the machine's load and quote medians.
package measure

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"

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

// ColdBrowser starts headless Chromium at path as the browser tests do (site/browser_test.go),
// with the HTTP cache off for every load and jsFlags (if any) given to V8, in a fresh profile
// folder that stop removes. coldloads and loadtrace use it.
func ColdBrowser(path, jsFlags string) (ctx context.Context, stop func(), err error) {
	dir, err := os.MkdirTemp("", "coldbrowser-")
	if err != nil {
		return nil, nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.UserDataDir(dir),
		chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true), chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-default-browser-check", true),
		chromedp.WindowSize(1280, 900),
	}
	if jsFlags != "" {
		opts = append(opts, chromedp.Flag("js-flags", jsFlags))
	}
	actx, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, stopCtx := chromedp.NewContext(actx)
	stop = func() { stopCtx(); stopAlloc(); os.RemoveAll(dir) }
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), CacheOff); err != nil {
		stop()
		return nil, nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return ctx, stop, nil
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
