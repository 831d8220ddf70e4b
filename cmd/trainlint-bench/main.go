package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type config struct {
	trainlint, floor, yamllint string
	wasm                       string
	corpus                     string
	runs, slowRuns, scaleRuns  int
	scale                      []int
	strict                     bool
}

func main() {
	var c config
	var scale string
	flag.StringVar(&c.trainlint, "trainlint", "bin/trainlint", "the trainlint `binary` to measure")
	flag.StringVar(&c.floor, "floor", "bin/yamlfloor", "the bare-parse `binary` (cmd/trainlint-bench/yamlfloor)")
	flag.StringVar(&c.yamllint, "yamllint", "yamllint", "the yamllint `command` (skipped when not found)")
	flag.StringVar(&c.wasm, "wasm", "site/dist/trainlint.wasm", "the WebAssembly `module` whose size is reported (skipped when absent)")
	flag.StringVar(&c.corpus, "corpus", filepath.Join("..", "shared", "corpus"), "the corpus `folder`")
	flag.IntVar(&c.runs, "runs", 21, "repetitions of each fast run (the median is reported)")
	flag.IntVar(&c.slowRuns, "slow-runs", 5, "repetitions of each yamllint run")
	flag.IntVar(&c.scaleRuns, "scale-runs", 5, "repetitions of each run of the scaling series")
	flag.StringVar(&scale, "scale", "1000,5000,10000", "file counts of the scaling series (comma-separated, ascending)")
	flag.BoolVar(&c.strict, "strict", false, "exit 1 when a target is missed")
	flag.Parse()
	for _, s := range strings.Split(scale, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n > 0 {
			c.scale = append(c.scale, n)
		}
	}
	missed, err := run(c, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "trainlint-bench:", err)
		os.Exit(2)
	}
	if missed > 0 && c.strict {
		os.Exit(1)
	}
}

// sample is one measured process run.
type sample struct {
	wall   time.Duration
	cpu    time.Duration // user + system
	maxRSS int64         // bytes
}

// stats are the medians of repeated runs (the peak memory is the largest seen).
type stats struct {
	wall, cpu time.Duration
	maxRSS    int64
	runs      int
}

// measure runs argv n times after one warm-up run (which fills the page cache) and returns the
// medians. Exit codes 0 and 1 are both normal (1 means findings); anything else is an error.
func measure(n int, argv ...string) (stats, error) {
	var ss []sample
	for i := 0; i <= n; i++ {
		s, err := once(argv)
		if err != nil {
			return stats{}, err
		}
		if i > 0 {
			ss = append(ss, s)
		}
	}
	st := stats{runs: len(ss)}
	walls := make([]time.Duration, len(ss))
	cpus := make([]time.Duration, len(ss))
	for i, s := range ss {
		walls[i], cpus[i] = s.wall, s.cpu
		st.maxRSS = max(st.maxRSS, s.maxRSS)
	}
	st.wall, st.cpu = median(walls), median(cpus)
	return st, nil
}

func once(argv []string) (sample, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return sample{}, err
	}
	defer null.Close()
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = null, &stderr
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		return sample{}, fmt.Errorf("%s: %v: %s", filepath.Base(argv[0]), err, firstLine(stderr.String()))
	}
	s := sample{wall: wall}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		s.maxRSS = int64(ru.Maxrss) * 1024 // Linux reports KiB
	}
	return s, nil
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// yamlFiles lists the YAML files under dir in lexical order.
func yamlFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// target is one performance goal and what was measured against it.
type target struct {
	name, got string
	met       bool
}

func run(c config, w io.Writer) (missed int, err error) {
	files, err := yamlFiles(c.corpus)
	if err != nil {
		return 0, fmt.Errorf("corpus: %v", err)
	}
	if len(files) == 0 {
		return 0, fmt.Errorf("no YAML files under %s", c.corpus)
	}
	var bytesTotal int64
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			bytesTotal += st.Size()
		}
	}
	machine(w)
	fmt.Fprintf(w, "corpus: %d YAML files, %s, under %s\n\n", len(files), mib(bytesTotal), c.corpus)

	tl := append([]string{c.trainlint, "check", "--format", "json"}, files...)
	fl := append([]string{c.floor}, files...)
	fl1 := append([]string{c.floor, "-j", "1"}, files...)
	var targets []target
	row := func(name string, st stats) {
		fmt.Fprintf(w, "  %-34s %9s wall  %9s cpu  %5.2f cores  %7s max RSS  (median of %d)\n",
			name, ms(st.wall), ms(st.cpu), float64(st.cpu)/float64(st.wall), mib(st.maxRSS), st.runs)
	}

	fmt.Fprintln(w, "whole process, all corpus YAML files in one run:")
	tlS, err := measure(c.runs, tl...)
	if err != nil {
		return 0, err
	}
	row("trainlint check --format json", tlS)
	flS, err := measure(c.runs, fl...)
	if err != nil {
		return 0, err
	}
	row("yamlfloor (yaml.v3 -> yaml.Node)", flS)
	fl1S, err := measure(c.runs, fl1...)
	if err != nil {
		return 0, err
	}
	row("yamlfloor -j 1 (sequential)", fl1S)
	var ylS stats
	haveYamllint := false
	if p, lerr := exec.LookPath(c.yamllint); lerr == nil {
		ylS, err = measure(c.slowRuns, append([]string{p, "-f", "parsable"}, files...)...)
		if err != nil {
			return 0, err
		}
		row("yamllint -f parsable", ylS)
		haveYamllint = true
	} else {
		fmt.Fprintf(w, "  yamllint: not found (%v), skipped\n", lerr)
	}
	rFloor := float64(tlS.wall) / float64(flS.wall)
	// Wall time decides (it is what a user waits for); CPU time is printed too because it does
	// not depend on what else the machine runs.
	targets = append(targets, target{"trainlint / bare parse <= 1.3x", fmt.Sprintf("%.2fx wall, %.2fx cpu (%.2fx the sequential floor's wall)",
		rFloor, float64(tlS.cpu)/float64(flS.cpu), float64(tlS.wall)/float64(fl1S.wall)), rFloor <= 1.3})
	if haveYamllint {
		rY := float64(ylS.wall) / float64(tlS.wall)
		targets = append(targets, target{"yamllint / trainlint >= 40x", fmt.Sprintf("%.1fx wall, %.1fx cpu", rY, float64(ylS.cpu)/float64(tlS.cpu)), rY >= 40})
	}

	// The pre-commit case: one typical file (the median size of the corpus).
	one := medianSizeFile(files)
	fmt.Fprintf(w, "\nsingle file (%s, the median size):\n", one)
	oneS, err := measure(c.runs, c.trainlint, "check", "--format", "json", one)
	if err != nil {
		return 0, err
	}
	row("trainlint check --format json", oneS)
	oneF, err := measure(c.runs, c.floor, one)
	if err != nil {
		return 0, err
	}
	row("yamlfloor", oneF)
	targets = append(targets, target{"single-file run < 10 ms wall", ms(oneS.wall), oneS.wall < 10*time.Millisecond})

	if len(c.scale) > 0 {
		ts, err := scaling(c, files, w, row)
		if err != nil {
			return 0, err
		}
		targets = append(targets, ts...)
	}

	wasmSizes(c.wasm, w)
	fmt.Fprintf(w, "\nload average at the end: %s\n", loadavg())
	fmt.Fprintln(w, "\ntargets:")
	for _, t := range targets {
		mark := "met"
		if !t.met {
			mark = "MISSED"
			missed++
		}
		fmt.Fprintf(w, "  %-6s  %-38s %s\n", mark, t.name, t.got)
	}
	return missed, nil
}

// scaling copies the corpus files round-robin into a temporary tree of the largest size asked
// for (100 files a folder) and lints growing prefixes of it: the 1k run lints folders 0-9, the
// 5k run folders 0-49, and so on, so every run walks real folders the way a repository is.
func scaling(c config, files []string, w io.Writer, row func(string, stats)) ([]target, error) {
	const perDir = 100
	top := c.scale[len(c.scale)-1]
	tmp, err := os.MkdirTemp("", "trainlint-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	srcs := make([][]byte, len(files))
	for i, f := range files {
		if srcs[i], err = os.ReadFile(f); err != nil {
			return nil, err
		}
	}
	for i := range top {
		dir := filepath.Join(tmp, fmt.Sprintf("d%04d", i/perDir))
		if i%perDir == 0 {
			if err := os.Mkdir(dir, 0o755); err != nil {
				return nil, err
			}
		}
		j := i % len(files)
		name := fmt.Sprintf("%05d-%s", i, filepath.Base(files[j]))
		if err := os.WriteFile(filepath.Join(dir, name), srcs[j], 0o644); err != nil {
			return nil, err
		}
	}
	fmt.Fprintf(w, "\nscaling (corpus files copied round-robin into %d-file folders under %s):\n", perDir, os.TempDir())
	var targets []target
	var first, last, lastFloor stats
	var firstN, lastN int
	for k, n := range c.scale {
		args := []string{c.trainlint, "check", "--format", "json"}
		fargs := []string{c.floor}
		for d := 0; d < (n+perDir-1)/perDir; d++ {
			p := filepath.Join(tmp, fmt.Sprintf("d%04d", d))
			args = append(args, p)
			fargs = append(fargs, p)
		}
		st, err := measure(c.scaleRuns, args...)
		if err != nil {
			return nil, err
		}
		row(fmt.Sprintf("trainlint, %d files", n), st)
		fst, err := measure(c.scaleRuns, fargs...)
		if err != nil {
			return nil, err
		}
		row(fmt.Sprintf("yamlfloor, %d files", n), fst)
		fmt.Fprintf(w, "  %-34s %9s per file (%.2fx the floor)\n", "", us(st.wall/time.Duration(n)), float64(st.wall)/float64(fst.wall))
		if k == 0 {
			first, firstN = st, n
		}
		last, lastN, lastFloor = st, n, fst
	}
	if lastN > firstN {
		// Linear: the cost per file at the largest size stays within 25% of that at the smallest.
		growth := (float64(last.wall) / float64(lastN)) / (float64(first.wall) / float64(firstN))
		targets = append(targets, target{fmt.Sprintf("linear cost %d -> %d files", firstN, lastN),
			fmt.Sprintf("per-file cost x%.2f (%s -> %s)", growth, us(first.wall/time.Duration(firstN)), us(last.wall/time.Duration(lastN))), growth <= 1.25})
	}
	targets = append(targets, target{fmt.Sprintf("peak memory at %d files < 150 MiB", lastN), mib(last.maxRSS), last.maxRSS < 150<<20})
	cores := float64(last.cpu) / float64(last.wall)
	n := runtime.NumCPU()
	// Spread: the CPU time exceeds the wall time by at least half of the extra cores.
	want := 1 + 0.5*float64(n-1)
	// On a shared machine no process gets every core; the floor, which has nothing to do but
	// parse on the same worker pool, shows how many were to be had.
	floorCores := float64(lastFloor.cpu) / float64(lastFloor.wall)
	targets = append(targets, target{fmt.Sprintf("work spread over the %d cores", n),
		fmt.Sprintf("%.2f cores busy on average (want >= %.2f; the floor got %.2f)", cores, want, floorCores), n == 1 || cores >= want})
	return targets, nil
}

func medianSizeFile(files []string) string {
	type fs struct {
		p string
		n int64
	}
	var s []fs
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			s = append(s, fs{f, st.Size()})
		}
	}
	slices.SortFunc(s, func(a, b fs) int { return int(a.n - b.n) })
	return s[len(s)/2].p
}

// machine prints what the numbers were measured on.
func machine(w io.Writer) {
	model := "unknown CPU"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	fmt.Fprintf(w, "machine: %d CPUs (%s), %s/%s, %s; %s; load average %s\n", runtime.NumCPU(), model, runtime.GOOS, runtime.GOARCH, runtime.Version(), time.Now().UTC().Format("2006-01-02 15:04 UTC"), loadavg())
}

// loadavg is the 1, 5 and 15 minute load averages: wall times are only comparable between runs
// on an otherwise idle machine, and this says how idle it was.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
func us(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond)) }
func mib(n int64) string        { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// wasmSizes prints the size of the browser module as shipped: raw, gzip (best compression) and
// brotli (quality 11, when the brotli command is installed).
func wasmSizes(path string, w io.Writer) {
	raw, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(w, "\nwasm: %s not built (make wasm), size not measured\n", path)
		return
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	br := "brotli not installed"
	if p, err := exec.LookPath("brotli"); err == nil {
		cmd := exec.Command(p, "-c", "-q", "11", path)
		if out, err := cmd.Output(); err == nil {
			br = mib(int64(len(out))) + " brotli"
		}
	}
	fmt.Fprintf(w, "\nwasm module %s: %s raw, %s gzip -9, %s\n", path, mib(int64(len(raw))), mib(int64(gz.Len())), br)
}
