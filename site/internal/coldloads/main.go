// Command coldloads compares the checker's start-up across site builds: it serves each built
// site (`trainlint site -o DIR`) on 127.0.0.1 and makes first-visit loads (measure.QuietTab and
// LoadUntil: a new browser context, DevTools quiet) of the same permalink in one headless
// Chromium, interleaved (one load of each build per round, the order reversed every other
// round), so that the machine's load falls on every build alike (-instrumented loads as before
// 2026-12-02). It prints each load's trainlintPerf timings with the CPU time other processes
// used meanwhile, then the medians per build, the median paired difference of each build
// against the first (the loads of one round run back to back) and the load average per CPU
// (site/doc.go, Timings).
//
//	go run ./site/internal/coldloads -n 16 before=/tmp/a after=/tmp/b
//
// A build given as NAME=blank is measure.BlankPage, a page with nothing but the ready mark: what
// any first visit costs on the machine at that moment. A build given as NAME=DIR@FLAGS runs in
// a browser of its own started with --js-flags=FLAGS (V8's flags, for experiments such as
// --no-wasm-lazy-compilation); builds with the same flags share a browser. -threads also
// splits each load's CPU time by process (browser, GPU, network service) and, in the page's
// renderer, by thread (its main thread, V8's and Blink's worker pool, the rest).
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trainlint/trainlint/site"
	"github.com/trainlint/trainlint/site/internal/measure"
)

// pitfall is the budget test's permalink file (site/browser_test.go's browserPitfall).
const pitfall = "# Supervised fine-tuning\noutput_dir: out/sft\nnum_train_epochs: 1\n" +
	"per_device_train_batch_size: 16\nper_device_eval_batch_size: 4\neval_strategy: steps\neval_steps: 200\n"

const defaultKeys = "cpuMs,startMs,bundleStartMs,scriptMs,compiledMs,runMs,goMainMs,goWarmEndMs,textMs,editorMs," +
	"firstLintMs,firstDiagnosticsMs,readyMs"

type build struct {
	name, dir, jsFlags string
	base               string
	ctx                context.Context
	runs               []map[string]float64
}

var instrumented = flag.Bool("instrumented", false, "load with chromedp's DevTools domains on and the HTTP cache off, as before 2026-12-02")

// threads adds the CPU time from the navigation to ready split by where it was spent (the
// cpuKeys below): which of the browser's processes, and in the renderer its main thread, its
// worker pool and the rest. Quiet loads only.
var threads = flag.Bool("threads", false, "also split the CPU time by process and renderer thread")

// cpuKeys are the parts of cpuMs that -threads adds, in the order printed.
var cpuKeys = []string{"cpuRendererMainMs", "cpuRendererPoolMs", "cpuRendererOtherMs", "cpuBrowserMs", "cpuGPUMs", "cpuNetworkMs", "cpuOtherMs"}

func main() {
	n := flag.Int("n", 10, "rounds (cold loads per build)")
	keys := flag.String("keys", defaultKeys, "trainlintPerf fields to print")
	chromium := flag.String("chromium", "/usr/bin/chromium", "the browser")
	flag.Parse()
	if *threads {
		*keys += "," + strings.Join(cpuKeys, ",")
	}
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: coldloads [-n ROUNDS] NAME=SITE_DIR[@JS_FLAGS]...")
		os.Exit(2)
	}
	var builds []*build
	browsers := map[string]context.Context{}
	for _, a := range flag.Args() {
		name, rest, ok := strings.Cut(a, "=")
		if !ok {
			fail("%q is not NAME=DIR", a)
		}
		dir, jsFlags, _ := strings.Cut(rest, "@")
		var handler http.Handler = measure.BlankPage // NAME=blank: the machine's floor
		if dir != "blank" {
			if _, err := os.Stat(dir + "/check/index.html"); err != nil {
				fail("%s is not a built site: %v", dir, err)
			}
			handler = site.Handler(dir)
		}
		srv := httptest.NewServer(handler)
		defer srv.Close()
		b := &build{name: name, dir: dir, jsFlags: jsFlags, base: srv.URL + "/"}
		if browsers[jsFlags] == nil {
			ctx, stop := measure.ColdBrowserOrExit("coldloads", *chromium, jsFlags)
			defer stop()
			browsers[jsFlags] = ctx
		}
		b.ctx = browsers[jsFlags]
		builds = append(builds, b)
	}
	permalink := site.Permalink("configs/sft.yaml", pitfall)
	var loads []float64
	for round := -1; round < *n; round++ { // round -1 warms the browsers and is not counted
		order := append([]*build(nil), builds...)
		if round%2 == 1 {
			for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
				order[i], order[j] = order[j], order[i]
			}
		}
		for _, b := range order {
			perf, others := coldLoad(b, permalink)
			if round < 0 {
				continue
			}
			b.runs = append(b.runs, perf)
			var parts []string
			for _, k := range strings.Split(*keys, ",") {
				parts = append(parts, fmt.Sprintf("%s=%.0f", strings.TrimSuffix(k, "Ms"), perf[k]))
			}
			fmt.Printf("%-8s %2d others=%.2f %s\n", b.name, round, others, strings.Join(parts, " "))
		}
		loads = append(loads, measure.LoadPerCPU())
	}
	sort.Float64s(loads)
	fmt.Printf("load per CPU during the rounds: %.2f-%.2f (median %.2f)\n", loads[0], loads[len(loads)-1], loads[len(loads)/2])
	for _, k := range strings.Split(*keys, ",") {
		line := fmt.Sprintf("%-20s", k)
		for _, b := range builds {
			var xs []float64
			for _, r := range b.runs {
				xs = append(xs, r[k])
			}
			line += fmt.Sprintf("  %s %7.1f", b.name, measure.Median(xs))
		}
		fmt.Println(line)
	}
	// Loads of one round ran back to back, so a difference within a round is less exposed to
	// the machine's drift than a difference of medians.
	for _, k := range strings.Split(*keys, ",") {
		line := fmt.Sprintf("%-20s", k+" paired")
		for _, b := range builds[1:] {
			var ds []float64
			for i, r := range b.runs {
				ds = append(ds, r[k]-builds[0].runs[i][k])
			}
			line += fmt.Sprintf("  %s-%s %+7.1f", b.name, builds[0].name, measure.Median(ds))
		}
		fmt.Println(line)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "coldloads: "+format+"\n", args...)
	os.Exit(1)
}

// coldLoad opens the permalink in b's browser until the checker is ready and returns its
// trainlintPerf, with the CPUs other processes used meanwhile (all processes' CPU time less
// the browsers' and this program's, over the wall time).
func coldLoad(b *build, permalink string) (map[string]float64, float64) {
	busy0, mine0 := cpuTimes()
	start := time.Now()
	var (
		perf       map[string]float64
		nav0, nav1 float64
		err        error
	)
	if *instrumented {
		tab, closeTab := measure.NewContextTab(b.ctx)
		defer closeTab()
		ctx, cancel := context.WithTimeout(tab, 60*time.Second)
		defer cancel()
		err = chromedp.Do(ctx, measure.CacheOff) // the tab and its renderer exist from here
		_, nav0 = cpuTimes()
		if err == nil {
			err = chromedp.Do(ctx, chromedp.Navigate(b.base+permalink), chromedp.WaitVisible(`#checker[data-ready="true"]`))
		}
		_, nav1 = cpuTimes()
		if err == nil {
			perf, err = chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`trainlintPerf`))
		}
	} else {
		tab, closeTab, qerr := measure.QuietTab(b.ctx) // as a first visit: see measure.QuietTab
		if qerr != nil {
			fail("%s: %v", b.name, qerr)
		}
		defer closeTab()
		_, nav0 = cpuTimes()
		var parts0 map[string]float64
		if *threads {
			parts0 = cpuParts()
		}
		perf, err = measure.LoadUntil(tab, b.base+permalink, `#checker[data-ready="true"]`)
		_, nav1 = cpuTimes()
		if *threads && err == nil {
			for k, v := range cpuParts() {
				perf[k] = (v - parts0[k]) / clockTicks * 1000
			}
		}
	}
	if err != nil {
		fail("%s: %v", b.name, err)
	}
	// The CPU time the browser's processes (and this one's server) spent from the navigation
	// to ready, on all CPUs: unlike the wall time, it hardly moves with the machine's load, and
	// over two CPUs it bounds how early ready can come.
	perf["cpuMs"] = (nav1 - nav0) / clockTicks * 1000
	busy1, mine1 := cpuTimes()
	others := ((busy1 - busy0) - (mine1 - mine0)) / clockTicks / time.Since(start).Seconds()
	return perf, others
}

// clockTicks is USER_HZ, the unit of /proc's CPU times (100 on Linux).
const clockTicks = 100

// cpuTimes returns the machine's busy CPU time (not idle, not waiting for I/O) and the CPU time
// of the browsers' processes and this one, in clock ticks (0 where /proc is missing).
func cpuTimes() (busy, mine float64) {
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		f := strings.Fields(strings.SplitN(string(b), "\n", 2)[0])
		for i, x := range f[1:] {
			var v float64
			fmt.Sscan(x, &v)
			if i != 3 && i != 4 { // idle, iowait
				busy += v
			}
		}
	}
	ents, _ := os.ReadDir("/proc")
	self := fmt.Sprint(os.Getpid())
	for _, e := range ents {
		comm, ticks, ok := procTicks("/proc/" + e.Name() + "/stat")
		if ok && (e.Name() == self || browserProcess(comm)) {
			mine += ticks
		}
	}
	return busy, mine
}

// cpuParts is the browser processes' CPU time (clock ticks) by the cpuKeys: each process is
// classed by its --type (the browser has none; the network service is a utility process of
// that sub-type), and a renderer's threads by name (the main thread keeps the process's name,
// chromium; V8's and Blink's background work runs in ThreadPool* threads). A process or thread
// that ends during the load takes its time with it, so the parts can fall short of cpuMs.
func cpuParts() map[string]float64 {
	parts := map[string]float64{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		comm, ticks, ok := procTicks("/proc/" + e.Name() + "/stat")
		if !ok || !browserProcess(comm) {
			continue
		}
		cl, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		kind, sub := "", ""
		for _, a := range strings.Fields(strings.ReplaceAll(string(cl), "\x00", " ")) {
			if v, ok := strings.CutPrefix(a, "--type="); ok {
				kind = v
			} else if v, ok := strings.CutPrefix(a, "--utility-sub-type="); ok {
				sub = v
			}
		}
		switch {
		case kind == "":
			parts["cpuBrowserMs"] += ticks
		case kind == "gpu-process":
			parts["cpuGPUMs"] += ticks
		case kind == "utility" && strings.Contains(sub, "Network"):
			parts["cpuNetworkMs"] += ticks
		case kind == "renderer":
			tasks, _ := os.ReadDir("/proc/" + e.Name() + "/task")
			for _, t := range tasks {
				name, tt, ok := procTicks("/proc/" + e.Name() + "/task/" + t.Name() + "/stat")
				switch {
				case !ok:
				case name == comm:
					parts["cpuRendererMainMs"] += tt
				case strings.HasPrefix(name, "ThreadPool"):
					parts["cpuRendererPoolMs"] += tt
				default:
					parts["cpuRendererOtherMs"] += tt
				}
			}
		default:
			parts["cpuOtherMs"] += ticks
		}
	}
	return parts
}

// browserProcess reports whether a process's command name is Chromium's.
func browserProcess(comm string) bool {
	return strings.Contains(comm, "chrom") || strings.Contains(comm, "headless")
}

// procTicks reads a /proc stat file: the command name and the user plus system CPU time.
func procTicks(path string) (comm string, ticks float64, ok bool) {
	st, err := os.ReadFile(path)
	if err != nil {
		return "", 0, false
	}
	s := string(st)
	open, end := strings.Index(s, "("), strings.LastIndex(s, ")")
	if open < 0 || end < open || end+2 > len(s) {
		return "", 0, false
	}
	fs := strings.Fields(s[end+2:])
	if len(fs) < 13 {
		return "", 0, false
	}
	var user, sys float64
	fmt.Sscan(fs[11], &user)
	fmt.Sscan(fs[12], &sys)
	return s[open+1 : end], user + sys, true
}
