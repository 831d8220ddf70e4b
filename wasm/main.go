//go:build js && wasm

// Command wasm is trainlint compiled to WebAssembly for the browser checker. It defines
// globalThis.trainlint:
//
//	lint(request)  → result         the JSON output contract, as a JS object
//	fix(request)   → {files: [{path, text, applied, error?}], result}   the texts after their safe fixes
//	rules()        → the catalogue
//	frameworks()   → [{name, title}] of the supported frameworks
//	lintJSON(string) → string       lint on JSON text (the parity test compares these bytes)
//	version        → trainlint's version
//
// A request's files are one tree: the Hydra runs among them (a primary config with its group
// folders) are linted as runs, each finding in the file that set the value with the other
// files as related locations, and options.overrides (["experiment=x", "trainer.devices=8"])
// compose those runs as the CLI's --override does. options.targets ({"transformers": "4.46"})
// are the framework versions to lint for; absent, the newest (the page's version selectors list
// api.Targets, written into the page by the site build).
//
// A file of a request may carry format "auto" (read the text as what it looks like, whatever the
// path says) besides "yaml", "json", "toml". A result's files[i].needs_hosts, when present, lists
// the multi-host rules that could not run because the host count is unknown: the page can say
// "2 multi-host rules need the host count" next to the hosts field.
//
// A request that cannot be read gives {error: "..."} instead of a result. When the module is
// ready it calls globalThis.trainlintReady() if the page defined it; globalThis.trainlintGoPerf
// then holds when its main started (goMainMs: the runtime started and the packages initialised)
// and its warm-up's start and end (goWarmStartMs, goWarmEndMs), in performance.now() time. All
// the work is done by package api, which the native build shares.
package main

import (
	"runtime/debug"
	"syscall/js"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/wasm/api"
)

func main() {
	// When main starts, the runtime has started and every package is initialised: the page
	// reads these timestamps (performance.now) to split its start-up (site/doc.go).
	clock := js.Global().Get("performance")
	now := func() js.Value { return clock.Call("now") }
	perf := js.Global().Get("Object").New()
	perf.Set("goMainMs", now())
	js.Global().Set("trainlintGoPerf", perf)
	jsonObj := js.Global().Get("JSON")
	// Requests cross as JSON text (JSON.stringify drops undefined and functions the way a JS
	// caller expects; reading the object field by field measured no faster) and replies are
	// built in Go as JSON, the same bytes the native side produces, then parsed into objects.
	parse := func(b []byte) js.Value { return jsonObj.Call("parse", string(b)) }
	// lint and fix in the light module (trainlint.wasm, no yaml.v3) mark a reply whose YAML
	// the direct reader declined with needsFullModule: the page loads trainlint-full.wasm and
	// lints again (site/web/src/checker.js). The mark is not part of the result's JSON.
	lintReq := func(r api.Request) ([]byte, bool, error) {
		res, err := api.Lint(r)
		if err != nil {
			return nil, false, err
		}
		return api.ResultJSON(res), api.NeedsFullModule(res), nil
	}
	fixReq := func(r api.Request) ([]byte, bool, error) {
		res, err := api.Fix(r)
		if err != nil {
			return nil, false, err
		}
		return api.FixResultJSON(res), api.NeedsFullModule(res.Result), nil
	}
	call := func(args []js.Value, run func(api.Request) ([]byte, bool, error)) any {
		var text []byte
		switch {
		case len(args) == 0 || args[0].IsUndefined() || args[0].IsNull():
		case args[0].Type() == js.TypeString:
			text = []byte(args[0].String())
		default:
			text = []byte(jsonObj.Call("stringify", args[0]).String())
		}
		req, err := api.Decode(text)
		if err != nil {
			return parse(api.ErrorJSON(err))
		}
		b, full, err := run(req)
		if err != nil {
			return parse(api.ErrorJSON(err))
		}
		v := parse(b)
		if full {
			v.Set("needsFullModule", true)
		}
		return v
	}

	tl := js.Global().Get("Object").New()
	tl.Set("version", lint.Version)
	tl.Set("lint", js.FuncOf(func(_ js.Value, args []js.Value) any { return call(args, lintReq) }))
	tl.Set("fix", js.FuncOf(func(_ js.Value, args []js.Value) any { return call(args, fixReq) }))
	tl.Set("rules", js.FuncOf(func(js.Value, []js.Value) any { return parse(api.RulesJSON()) }))
	tl.Set("frameworks", js.FuncOf(func(js.Value, []js.Value) any { return parse(api.FrameworksJSON()) }))
	tl.Set("lintJSON", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 {
			return string(api.LintJSON(nil))
		}
		return string(api.LintJSON([]byte(args[0].String())))
	}))
	js.Global().Set("trainlint", tl)
	perf.Set("goWarmStartMs", now())
	// The YAML warm-up goes the way the page's lints go (a JS object, JSON.stringify, Decode,
	// the lint, the reply's JSON and JSON.parse, through a call back into Go from JS), so the
	// first lint compiles only what the page's event loop adds (site/doc.go, Timings).
	tl.Get("lint").Invoke(js.ValueOf(map[string]any{
		"files":   []any{map[string]any{"path": warmYAML.Path, "text": warmYAML.Text}},
		"options": map[string]any{},
	}))
	perf.Set("goWarmEndMs", now())
	if ready := js.Global().Get("trainlintReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	// JSON's and TOML's readers, and the unknown-key rule's near-miss search, are compiled when
	// the page is idle, after it is ready: nearly every first file is YAML, and compiling them
	// before would delay every start.
	later := js.Global().Get("requestIdleCallback")
	if later.Type() != js.TypeFunction {
		later = js.Global().Get("setTimeout")
	}
	var rest js.Func
	rest = js.FuncOf(func(js.Value, []js.Value) any {
		// The page lints on every edit and each lint allocates a few hundred KB that is garbage
		// right after: collecting at five times the live heap instead of twice halves how often a
		// lint pays for a collection (p90 of 400 lints of a 320-line NeMo config in node:
		// 7.5 -> 4.6 ms). Set here, not at the start: no collection runs before ready (the heap
		// stays under the runtime's first 4 MB goal), and the setting's code is 6 functions the
		// browser would otherwise compile before ready (site/doc.go, Timings).
		debug.SetGCPercent(400)
		warmUp(warmJSON, warmTOML, warmKeys)
		rest.Release()
		return nil
	})
	later.Invoke(rest)
	// Keep the Go runtime alive: the page calls in whenever the text changes.
	select {}
}

// warmUp lints small files once. The browser compiles a WebAssembly function the first time it
// runs, so the first lint used to pay for compiling the parsers, readers and rules (30-60 ms);
// done while loading (a YAML file before the module says it is ready, a JSON and a TOML file
// when the page is idle), the user's first lint costs what every later one does. The request is
// the page's default one (no host count, as a first file nearly always has): the multi-host
// rules it would otherwise run are compiled when the user first gives a host count.
func warmUp(files ...api.File) {
	api.LintBytes(api.Request{Files: files})
}

var (
	warmYAML = api.File{Path: "warm-up.yaml", Text: "# c\noutput_dir: out\nper_device_train_batch_size: 16\nper_device_eval_batch_size: 4\neval_strategy: steps\neval_steps: 500\nsave_total_limit: 2\nseed: 42\nlabel_names: [1, 'a']\nrun_name: |\n  x\n"}
	warmJSON = api.File{Path: "warm-up.json", Text: `{"train_batch_size": 32, "gradient_accumulation_steps": 1, "zero_optimization": {"stage": 2}}`}
	warmTOML = api.File{Path: "warm-up.toml", Text: "[trainer]\neval_every_secs = 600\nseed = 1\n"}
	// warmKeys has keys the Trainer does not name: the near-miss search and TRL's keys (which
	// extend the Trainer's) are read only when a file has such a key, so not before ready.
	warmKeys = api.File{Path: "warm-up-keys.yaml", Text: "output_dir: out\nper_device_train_batch_size: 8\neval_strategy: steps\nlerning_rate: 1\nlist: 1\n"}
)
