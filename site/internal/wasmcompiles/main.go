// Command wasmcompiles counts what V8 compiles of the checker's light module before the page is
// ready, phase by phase and package by package (site/doc.go, Timings). The browser compiles a
// WebAssembly function on its first call, on the main thread, so these first-call compiles are
// much of the checker's start-up.
//
// It builds the light module with the site's flags but without -s -w (so that it keeps its name
// section), runs it under Node with V8's --trace-wasm-compilation-times, and marks in the same
// output when Go's main starts, when the warm-up starts (globalThis.trainlint is set), ready
// (trainlintReady) and the end of the first lint of the budget's permalink file. Each Liftoff
// compile is then attributed to its function's package; sizes are WebAssembly body bytes.
//
//	go run ./site/internal/wasmcompiles            # from the module root; needs node and stdbuf
//	go run ./site/internal/wasmcompiles -top 40 -phase lint
//	go run ./site/internal/wasmcompiles -turbofan   # also the TurboFan recompiles, by phase
//
// The counts do not depend on the machine's load, unlike timings: compare builds with them.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/site"
)

// pitfall is the budget test's permalink file (site/browser_test.go's browserPitfall).
const pitfall = "# Supervised fine-tuning\noutput_dir: out/sft\nnum_train_epochs: 1\n" +
	"per_device_train_batch_size: 16\nper_device_eval_batch_size: 4\neval_strategy: steps\neval_steps: 200\n"

// script runs the module as the page does: marks go to stdout, where V8 prints its trace.
const script = `"use strict";
globalThis.require = require;
globalThis.fs = require("fs");
globalThis.path = require("path");
globalThis.TextEncoder = require("util").TextEncoder;
globalThis.TextDecoder = require("util").TextDecoder;
globalThis.performance ??= require("perf_hooks").performance;
globalThis.crypto ??= require("crypto");
require(process.argv[3]);
const mark = (s) => fs.writeSync(1, "== " + s + "\n");
const go = new Go();
go.exit = process.exit;
const mod = new WebAssembly.Module(fs.readFileSync(process.argv[2]));
let perf, tl;
Object.defineProperty(globalThis, "trainlintGoPerf", {get: () => perf, set: (v) => { mark("main"); perf = v; }, configurable: true});
Object.defineProperty(globalThis, "trainlint", {get: () => tl, set: (v) => { mark("warm-up"); tl = v; }, configurable: true});
globalThis.trainlintReady = () => {
  mark("first-lint");
  const r = globalThis.trainlint.lint({files: [{path: "configs/sft.yaml", text: process.argv[4]}], options: {}});
  mark("after " + (r.diagnostics ? r.diagnostics.length : "no") + " findings");
  setTimeout(() => process.exit(0), 20);
};
const inst = new WebAssembly.Instance(mod, go.importObject);
mark("start-and-init");
go.run(inst);
`

var (
	compiled  = regexp.MustCompile(`#(\d+) using Liftoff.*bodysize (\d+)`)
	recompile = regexp.MustCompile(`#(\d+) using TurboFan, took (\d+) ms.*bodysize (\d+)`)
)

func main() {
	top := flag.Int("top", 0, "list the N largest functions of each phase (or of -phase)")
	only := flag.String("phase", "", "the phase -top lists: start-and-init, main, warm-up, first-lint")
	turbofan := flag.Bool("turbofan", false, "also list the TurboFan recompiles (V8's tier-up of hot functions) before ready and the first lint")
	flag.Parse()
	dir, err := os.MkdirTemp("", "wasmcompiles-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	wasm := filepath.Join(dir, "names.wasm")
	// The site's flags for the light module, without -s -w.
	flags := site.WASMLiteFlags()
	stripped := false
	for i, f := range flags {
		if rest, ok := strings.CutPrefix(f, "-ldflags="); ok && strings.Contains(rest, "-s -w") {
			flags[i] = "-ldflags=" + strings.TrimSpace(strings.Replace(rest, "-s -w", "", 1))
			stripped = true
		}
	}
	if !stripped {
		fail(fmt.Errorf("site.WASMLiteFlags has no -ldflags with -s -w: %q", flags))
	}
	build := exec.Command("go", append(append([]string{"build"}, flags...), "-o", wasm, "./wasm")...)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fail(fmt.Errorf("building the light module with names: %w", err))
	}
	mod, err := os.ReadFile(wasm)
	if err != nil {
		fail(err)
	}
	names, err := functionNames(mod)
	if err != nil {
		fail(err)
	}
	js := filepath.Join(dir, "run.js")
	if err := os.WriteFile(js, []byte(script), 0o644); err != nil {
		fail(err)
	}
	execJS := filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js")
	// V8 prints its trace with C's stdio: line-buffered (stdbuf), it stays in order with the marks.
	node := exec.Command("stdbuf", "-oL", "node", "--trace-wasm-compilation-times", js, wasm, execJS, pitfall)
	node.Stderr = os.Stderr
	out, err := node.Output()
	if err != nil {
		fail(fmt.Errorf("node: %w", err))
	}

	type pkgStat struct {
		n, bytes int
	}
	type fn struct {
		name  string
		bytes int
	}
	var phases []string
	stats := map[string]map[string]*pkgStat{}
	fns := map[string][]fn{}
	seen := map[int]bool{}
	phase := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "== "); ok {
			if strings.HasPrefix(rest, "after ") {
				fmt.Println("first lint:", strings.TrimPrefix(rest, "after "))
				phase = "after the first lint"
			} else {
				phase = rest
			}
			continue
		}
		if r := recompile.FindStringSubmatch(line); r != nil && *turbofan && phase != "" && phase != "after the first lint" {
			i, _ := strconv.Atoi(r[1])
			name := names[i]
			if name == "" {
				name = "#" + r[1]
			}
			fmt.Printf("turbofan %-14s %4s ms %6s bytes  %s\n", phase, r[2], r[3], name)
			continue
		}
		m := compiled.FindStringSubmatch(line)
		if m == nil || phase == "" || phase == "after the first lint" {
			continue
		}
		i, _ := strconv.Atoi(m[1])
		size, _ := strconv.Atoi(m[2])
		if seen[i] {
			continue
		}
		seen[i] = true
		if stats[phase] == nil {
			stats[phase] = map[string]*pkgStat{}
			phases = append(phases, phase)
		}
		name := names[i]
		if name == "" {
			name = "#" + m[1]
		}
		p := pkgOf(name)
		if stats[phase][p] == nil {
			stats[phase][p] = &pkgStat{}
		}
		stats[phase][p].n++
		stats[phase][p].bytes += size
		fns[phase] = append(fns[phase], fn{name, size})
	}
	totalN, totalB := 0, 0
	for _, ph := range phases {
		var pkgs []string
		n, b := 0, 0
		for p, s := range stats[ph] {
			pkgs = append(pkgs, p)
			n += s.n
			b += s.bytes
		}
		totalN += n
		totalB += b
		sort.Slice(pkgs, func(i, j int) bool { return stats[ph][pkgs[i]].bytes > stats[ph][pkgs[j]].bytes })
		fmt.Printf("%s: %d functions, %d bytes\n", ph, n, b)
		for k, p := range pkgs {
			if k == 12 {
				break
			}
			fmt.Printf("  %8d %5d  %s\n", stats[ph][p].bytes, stats[ph][p].n, p)
		}
		if *top > 0 && (*only == "" || *only == ph) {
			list := fns[ph]
			sort.SliceStable(list, func(i, j int) bool { return list[i].bytes > list[j].bytes })
			for k, f := range list {
				if k == *top {
					break
				}
				fmt.Printf("      %7d  %s\n", f.bytes, f.name)
			}
		}
	}
	fmt.Printf("before ready and the first lint: %d functions, %d bytes\n", totalN, totalB)
}

// pkgOf is the package of a function's name in Go's name section ("/" written "_", methods
// as "pkg.__T_.M").
func pkgOf(name string) string {
	if rest, ok := strings.CutPrefix(name, "github.com_trainlint_trainlint_"); ok {
		name = rest
	}
	p, _, _ := strings.Cut(name, ".")
	return p
}

// functionNames reads the name section's function names, by function index (imports counted).
func functionNames(mod []byte) (map[int]string, error) {
	if len(mod) < 8 || string(mod[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	var names []byte
	err := records(mod[8:], "section", func(id byte, sec []byte) error {
		l, n := uleb(sec)
		if id != 0 || names != nil || n == 0 || n+l > len(sec) || string(sec[n:n+l]) != "name" {
			return nil
		}
		return records(sec[n+l:], "name subsection", func(sid byte, body []byte) error {
			if sid == 1 {
				names = body
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if names == nil {
		return nil, errors.New("no name section (built with -s?)")
	}
	count, k := uleb(names)
	body := names[k:]
	out := make(map[int]string, count)
	for range count {
		idx, k := uleb(body)
		body = body[k:]
		nl, k := uleb(body)
		body = body[k:]
		if k == 0 || nl > len(body) {
			return nil, errors.New("bad function name")
		}
		out[idx] = string(body[:nl])
		body = body[nl:]
	}
	return out, nil
}

// records calls fn on each id/size/body record of b: a module's sections (after its header), or
// a custom section's subsections, which have the same shape.
func records(b []byte, what string, fn func(id byte, body []byte) error) error {
	for len(b) > 0 {
		size, n := uleb(b[1:])
		if n == 0 || 1+n+size > len(b) {
			return errors.New("bad " + what)
		}
		if err := fn(b[0], b[1+n:1+n+size]); err != nil {
			return err
		}
		b = b[1+n+size:]
	}
	return nil
}

func uleb(b []byte) (int, int) {
	v, shift := 0, 0
	for i, c := range b {
		v |= int(c&0x7f) << shift
		if c < 0x80 {
			return v, i + 1
		}
		shift += 7
		if shift > 35 {
			break
		}
	}
	return 0, 0
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "wasmcompiles:", err)
	os.Exit(1)
}
