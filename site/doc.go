// Package site builds trainlint's static guidance site: the landing page, a guide page per
// playbook section, the rules index and one page per rule (examples linted by the engine at
// build time), one page per framework, and the in-browser checker that runs the same engine
// compiled to WebAssembly.
//
// The pages come from Markdown in content/, the rule catalogue (rules.All) and the dialects
// (dialect.All); nothing in them is typed twice. Building fails when a documented example does
// not behave as its page says (a bad example without its rule's finding, a good one with an
// error or warning), so the docs are tested by every build.
//
// # Pages
//
// Rule pages put the summary and the fix first, then why, then the examples (one collapsible
// block per framework, the first open), then suppression and options; those sections come from
// package ruledoc, which `trainlint explain` prints in the same order. Code blocks are
// highlighted at build time with @lezer/highlight's class names (the checker's editor uses the
// same, so style.css colours both, light and dark) and every <pre> takes the keyboard focus.
// Each page has a search over rules, frameworks and guide pages (search.json, a few KB, fetched
// on the first keystroke), a theme button (else prefers-color-scheme), a menu button on phones,
// copy buttons, version and source links; 404.html links from the site's root. The home page's
// CI workflow is content/ci-github.yml, which TestCISnippet holds equal to the README's.
//
// # The checker
//
// The check page starts fetching and compiling the module in its head (boot.js); the landing
// page loads nothing of it until its checker is used (a click, a key, a drop: site.js). The
// module lints a small YAML file before it says it is ready (a JSON and a TOML one when the
// page is idle), so the user's first lint does not pay for compiling the engine's functions. The open files are one request, so
// the tabs are the files of a run (a Hydra primary with its group files and experiments): a
// finding is listed in the file that set the value, its related locations in other files jump
// there, and the overrides field and the version selector per framework (transformers, TRL,
// DeepSpeed; newest by default, the versions listed by wasm/api.Targets) feed the request.
// Choosing a folder (the folder input) or dropping one opens its YAML, JSON and TOML files as
// a run, the primary first, hidden and tool folders skipped, at most 300 files and 10 MB.
// Permalinks carry every open file, the overrides (o=) and the versions (v=package:version);
// their files together inflate with a 10 MB limit applied while inflating, and a broken or
// truncated link says so (also on hashchange) instead of opening an empty file. Bidirectional and other invisible
// control characters are drawn visibly. The status line is a polite live region that changes
// only when the counts change; timing goes to a line that is not announced.
//
// # Budgets and measurements
//
// The checker loads a light module, trainlint.wasm, built with the trainlint_lite tag
// (WASMLiteFlags): the engine without yaml.v3, without the gin and Python readers and without
// the rules' testdata archives. The direct YAML reader reads nearly every YAML config (310 of
// 312 corpus files), and JSON and TOML are read as in the CLI. A file the light module cannot
// read (gin, Python, YAML with tags, merge keys, document markers, tabs or a syntax error) gets
// a parse problem and its reply is marked needsFullModule; the page then loads
// trainlint-full.wasm once, which replaces the light one, and lints again, so every finding is
// the CLI's (TestParity, TestParityLite, and TestBrowserChecker with a "---" document).
//
// Sizes on 2026-12-01 (Go 1.26.8, `make site`; brotli quality 11, gzip level 6), budgets 1.0 MB
// brotli and 1.3 MB gzip, held by TestBrowserBudgets:
//
//	                                                  brotli     gzip       raw
//	before (one module, everything)                   1,174,333  1,630,759  8.2 MB
//	yaml.v3 out (plainType types plain scalars)         -100 KB    -147 KB
//	rule archives out (frameworks linked with -X)        -23 KB     -23 KB
//	regexp out (kit_match.go, dropCodePoints)             -68 KB     -98 KB
//	gin and Python readers out                           -78 KB    -117 KB
//	light module, trainlint.wasm                        871,724  1,197,293  6.1 MB  met
//	full module, trainlint-full.wasm                  1,178,955  1,634,567  8.2 MB  on demand
//	after merging main (w10c, w12 and others):
//	light module                                        899,766  1,236,268  6.3 MB  met
//	full module                                       1,211,439  1,683,830  8.5 MB  on demand
//	after the day's merges (Lightning, transformers/TRL, axolotl knowledge and start-up checks,
//	composed runs in wasm/api and lint, six rules), ec69fa1:
//	light module                                      1,030,753  1,427,449  7.2 MB  OVER
//	code configs not composed in the light module       -12 KB     -16 KB   (code_lite.go)
//	no Python or gin dialect reader in it                -6 KB     -12 KB   (code_lite.go)
//	folders listed without fs.ReadDir's fallback         -4 KB      -7 KB   (now compose.FS)
//	no Python or gin dialect detection in it             -3 KB      -4 KB
//	light module                                      1,005,331  1,388,648  7.0 MB  OVER
//	full module (unchanged)                           1,323,177  1,853,428  9.3 MB  on demand
//	after merging main again (db9391b):
//	light module                                      1,009,510  1,393,926  7.1 MB  OVER
//	function table thinned (wasmsymtab.go)              -66 KB     -79 KB
//	time out: trees read through compose.FS             -18 KB     -27 KB
//	knowledge per framework, names [...], warm-ups        +0 KB      +0 KB
//	light module                                        924,243  1,289,006  6.9 MB  met
//	full module                                       1,242,700  1,750,262  9.3 MB  on demand
//
// (brotli and gzip of these lines by node's zlib, as the site test measures; `gzip -6` gives
// 1,430,672 before and 1,392,415 after.) What grew from 6bf3316 to ec69fa1, gzip of each
// package's code alone (from the code section and the "name" section of a build without -s -w):
// lint/dialect +43 KB (Lightning's Trainer and callback checks, the HF/TRL start-up checks, the
// DeepSpeed join: straight-line code, no table), lint/compose +38 KB (new: the Hydra and code
// composers), time +17 KB, lint +15 KB (LintRun, LintTree, DedupeRuns, the in-memory tree),
// rules +13 KB, slices +4 KB (a sort instantiated for fs.DirEntry), io/fs and path +4 KB, and
// 58 KB more in the data section (names and pc tables of that code).
//
// The function table. Go keeps, even with -s -w, a table in the data section that names every
// function with its import path and maps every instruction to a file and line, for tracebacks
// and runtime.Caller. In the light module it held 4,457 functions: names 162,512 bytes (28 KB
// gzip alone), pc-value tables 132,776 bytes (66 KB gzip; the line and file tables are most of
// it) and the function records 376 KB (125 KB gzip). ThinWASMSymtab empties in place what only a
// traceback prints (file and line tables, file names; import paths and generic type arguments
// in names), keeping what the scheduler, the collector, stack growth and recover read (frame
// sizes, stack maps, unsafe points, funcdata) and the names the runtime compares (runtime.,
// internal/runtime/, reflect.): tables then 23 KB, records 93 KB gzip. A panic still becomes an
// internal-error finding and a crash still prints its message and a traceback of short names
// with "?:0" positions (TestThinSymtabRuntime runs a probe program under Node; the parity tests
// run the modules as shipped). Only Go 1.20's table layout (still Go 1.26's) is accepted.
//
// time (18 KB of code, formatting only) was linked because lint and compose took an io/fs.FS:
// its File's Stat and its DirEntry's Info give a FileInfo whose ModTime is a time.Time, and
// fmt's Stringer and GoStringer keep Time's String and GoString (hence Format) once fs.FS is
// converted or asserted at all. compose.FS (ReadFile, and ReadDir giving names and whether each
// is a folder) replaces it; compose.FromFS adapts os.DirFS and fstest.MapFS for the CLI, the
// editor and the tests.
//
// What the light module holds now, gzip of each package's code alone: runtime 289 KB,
// lint/dialect 187 KB (its init, the dialects built by code with their Advice maps, 57 KB raw),
// rules 68 KB, lint/doc 51 KB, lint 34 KB, lint/compose 25 KB, internal/strconv 21 KB, go-toml
// 20 KB, fmt 18 KB, wasm/api 18 KB, reflect 16 KB (before fmt was taken out, below). The code section is 3.96 MB raw (913 KB
// gzip), the data section 390 KB gzip, of which the knowledge tables are 34 KB.
//
// fmt out (2026-12-03): the light module had grown back to its budget (1,300,356 bytes gzip
// with that day's composition and detection fixes). fmt was linked by about twenty error
// messages on its path (the request's validation and JSON reader, suppression comments, a
// dialect's or a rule's recovered panic, the runs a finding was found in), each a %q, %d or
// %v that strconv.Quote, strconv.Itoa and the error's own text say the same way; with them
// written so, fmt and the reflection-based printing it pulls in leave the module: 1,242,588
// bytes gzip, 57 KB under its budget. lint.panicText stands for %v of a recovered panic.
// Keep fmt out of what the light module reaches: `-ldflags=-dumpdep` shows any caller (a
// line "X -> fmt.Y" with X outside fmt).
//
// os, time and a second sort out (2026-12-07, branch size-cut): the light module was again at
// its budget (1,299,681 bytes gzip, 7,026,156 raw, 938,205 brotli). An imported package's
// initialiser always runs, so what it links stays even when no lint calls it:
//
//	                                                           gzip     raw
//	os and fmt (runtime/debug, path/filepath, encoding/hex)  -20,574  -139 KB
//	strings sorted with sort.Slice (doc.SortStrings)          -5,292   -33 KB
//	time (embed and io/fs: knowledge_lite.go, ValidPath)     -28,961  -200 KB
//	sync.Map's hash trie (doc.Cache, a mutex map)             -4,797   -45 KB
//	light module: 1,240,057 gzip, 6,608,835 raw, 896,932 brotli
//
// time's initialiser sets up internal/godebug (its metric registry, runtime.initMetrics,
// internal/bisect); runtime/debug.SetGCPercent is reached by its runtime //go:linkname name
// (wasm/main.go). TestLightModuleImportsNoJSONOrRegexp refuses os, fmt, time, io/fs and embed
// in the light module's imports, TestLightModuleLinksNoFmt a call of sort.Strings or
// slices.Sort.
//
// With the rest of session 66 merged beside it (a duplicate YAML anchor refused, a repeated
// JSON comment key, a null Hydra group's keys unknown, Hydra's ConfigStore and `..` configs,
// the --config-dir search path, Lightning 2.0's removed Trainer arguments, a keep-latest
// limit's save count): 1,241,640 gzip, 6,621,439 raw, 898,333 brotli (2026-12-07).
//
// Left to the full module as well: runs with Hydra command-line overrides. Their value grammar
// (lint/compose/hydravalue.go) was 10 KB of the light module's gzip and took it to 1,301,934
// bytes, past its budget (2026-12-02); the checks of keys, group choices and merges that Hydra
// makes when it applies them, added that evening, took another 2.5 KB. The light build now
// reads no override at all (a constant drops the code): such a run's primary is marked
// declined, and the module went back to 1,474,515 bytes gzip in the -l -s -w proxy build.
//
// To keep it small: no regexp, time, encoding/json decoding or text/template in what a lint
// reaches (each pulls tens of KB; package regexp with the Unicode tables it initialises was
// 98 KB gzip); no io/fs.FS or FileInfo in it (time, above); no package-level sync.OnceValue
// closure or map literal that names such a package (its initialiser links it even when nothing
// calls it); large tables as embedded text (knowledge.tsv), not Go literals. Check with
// `GOOS=js GOARCH=wasm go list -tags trainlint_lite -deps ./wasm` and `-ldflags=-dumpdep`,
// which shows who reaches what.
//
// Tried and not kept: wasm-opt -Oz and -O1 (binaryen 108; larger compressed),
// GOWASM=satconv,signext (no change); the dialects as static literals registered from init
// (`var X = &Dialect{...}`): axolotl's init code shrank by 0.8 KB of 58 KB raw, since the Advice
// and Sections maps are still built by code, so not worth changing every dialect file. Not
// done: naming every non-runtime function "" would save about 14 KB gzip more, but tracebacks
// would then show no frame of ours (the runtime hides frames whose name has no dot).
//
// Timings. TestBrowserBudgets makes seven cold loads (the HTTP cache disabled) and judges them
// only when the load is at most 1.5 per CPU. The page records, in trainlintPerf, when boot.js
// started the module's download (startMs) and the compile ended (compiledMs), when the bundle
// started running (bundleStartMs) and reached the checker's code (scriptMs), when Go was run
// (runMs), when Go's main started (goMainMs: the runtime started and every package
// initialised), the YAML warm-up (goWarmStartMs, goWarmEndMs), when the text was known (textMs)
// and the editor shown (editorMs), the first lint (firstLintMs) and ready (readyMs).
//
// Before the light module, at load 0.85 per CPU: ready 343 ms median (runs 296-491, budget
// 300 ms), first lint 5.8 ms (budget 15 ms). With the light module at load 2.2: ready 318 ms
// median (runs 299-454), first lint 6.3 ms, the 320-line NeMo config in 1.5 ms.
//
// On 2026-12-01 afternoon the machine never went below a load of 3 per CPU (three other
// builds), so the figures below are fractions and comparisons of interleaved runs, not the
// budget's measure. Chromium 156, cold loads of the check page with a permalink:
//
//   - ready medians 505-593 ms at load 3.0-4.6 per CPU; first lint 5-13 ms;
//   - before our code runs: the bundle starts 150-280 ms after navigation, though checker.js
//     and style.css have arrived by 65-190 ms; the long-animation-frame entries show two frames
//     with no script of ours in them (about 155 and 80 ms at load 4: the page's first parse,
//     style and paint, and the bundle's compile); CodeMirror's modules then take about 30 ms;
//   - Go: runtime start and package init 45-123 ms (median about 70), the warm-up 44-91 ms
//     (about 65); the module's compile usually ends before the bundle starts (not always: it is
//     then the critical path);
//   - the editor, the first lint and drawing its findings: 25-90 ms.
//
// After these changes, at load 2.0 per CPU (TestBrowserBudgets, still not judged): ready 494 ms
// median (runs 400-683), first lint 7.4 ms, the 320-line NeMo config in 4.5 ms. In the four
// slowest runs the module's compile ended 295-436 ms after navigation, after the bundle: its
// download and compile were then the critical path; in the three fastest (400-434 ms) it ended
// by 205 ms, and Go's start-up (init about 70 ms, warm-up about 45 ms) and the editor were.
//
// Where Go's start-up goes (Node 20, same module, load about 4 per CPU, GODEBUG=inittrace=1):
// V8 compiles a WebAssembly function on its first call, and that compilation is most of the
// start-up. With every function compiled ahead (--no-wasm-lazy-compilation) internal/godebug's
// init takes 0.14 ms, lint/dialect's 4.5-10 ms and the warm-up 10-26 ms; compiled on first call
// they take 6-15, 28-50 and 47-164 ms. So what shortens the start is running less distinct code
// before ready, not making it faster. Done: the knowledge tables are parsed per framework on
// first use (the Trainer's 276 rows at init instead of all 2,055; dialect init allocates
// 240 KB instead of 1.7 MB), and only a YAML file is warmed before ready (JSON and TOML when
// the page is idle). Interleaved in one site at load 3.9 (nine loads each): three files warmed
// 591 ms median, YAML only 521 ms, none 477 ms but a first lint of 29-54 ms (over its budget).
// Tried and not kept: the bundle as an ES module (type="module", modulepreload) instead of an
// IIFE, no faster (interleaved: 516 against 484 ms median at load 3.9, 551 against 536 at 5.3);
// starting Go from the head as soon as the module is compiled, slower (440 ms, earlier).
//
// On 2026-12-01 at 15:15 (main at c24efb2, load under 1.5 per CPU so judged): ready 375 ms
// median (runs 349-535, budget 300: missed), first lint 11.0 ms, the NeMo config 3.1 ms. Then
// other builds raised the load to 1.7-3.1 per CPU, so the four ideas below were compared in
// one browser with their cold loads interleaved (same permalink), and none was kept:
//
//   - a worker that instantiates the module boot.js compiled (posted to it) and runs Go's
//     start-up and the YAML warm-up ahead of the page: V8 does share the code compiled on first
//     call between the two threads (once the worker was done, the page's runtime start and
//     package init took 9-41 ms instead of 50-110, its warm-up 7-37 instead of 36-110), but
//     the worker's script started 69-340 ms after navigation and it needed 137-260 ms from the
//     module to the end of its warm-up, longer than the page itself takes, because the two
//     cores are shared. The page waiting for it: ready 610 ms median against 439 (12 loads
//     each, load 2.5); the page not waiting (both compiling): 487 against 439;
//   - <link rel=preload as=fetch crossorigin> for the module first in the head: the compile
//     then always ended before the bundle was ready (without it, after in about half the
//     loads), but boot.js and the bundle started later: 406 against 394 ms (16 each, load 1.7);
//   - the editor shown before Go runs (go.run after it): 498 against 439 (12 each, load 2.5),
//     506 against 482 with the preload (10 each, 2.4): the main thread is busy from the
//     bundle's start to ready, so reordering its work does not shorten it;
//   - linter(null) in the editor so that the first setDiagnostics does not reconfigure it:
//     that call 50 against 58 ms median, ready 881 against 822 (12 each, load 3.1).
//
// Where the main thread's time goes from the bundle's start (loads at about 2 per CPU):
// CodeMirror's modules about 30 ms, Go's runtime start and package init 50-110, the warm-up
// 36-110, the editor 25-30, the first lint 6-15 and its first setDiagnostics 30-60 (with the
// findings list). Still to try, on a quiet machine where the second core is free: the first
// lint done by a worker (the page draws its reply while its own Go starts when idle), what
// the first setDiagnostics spends, less runtime code at start-up (internal/godebug, which
// time's init needs, registers a metric and so compiles runtime.initMetrics, 23 KB) and a
// smaller lint/dialect init (the Advice maps as data).
//
// On 2026-12-01 at 15:55 (load about 0.5 per CPU, the machine otherwise idle): ready 372 ms
// median (runs 353-542), first lint 8.3 ms. Measured then with interleaved cold loads of two
// builds in one browser (10 each, same permalink, loads per CPU as given), and kept:
//
//   - the warm-up lints with the page's default request (no host count) instead of Hosts: 2,
//     whose multi-host rules a first file does not run, and the light build reads its
//     rule-framework table once instead of once per rule: ready 363 against 389 ms median
//     (warm-up 54 against 61 ms; package init unchanged, about 60 ms);
//   - the first findings update: trainlintPerf's firstDiagnosticsMs (the first setDiagnostics,
//     markers and gutter) was 25-29 ms and firstFindingsMs (the list, status and permalink)
//     1.5 ms. Neither the lint state's reconfiguration (an empty set of diagnostics given to the
//     state when it is created: 26 against 29 ms, ready 387 against 367) nor the page's first
//     layout (forced before it: unchanged) was the cost: it is CodeMirror's marker and gutter
//     code running for the first time. The editor now shows one diagnostic and clears it as
//     soon as it is created (no frame is drawn in between), while the page mostly waits for the
//     module's compile: the first update 11 against 26 ms, ready 374 against 395 (load 0.8),
//     398 against 417 (load 1.0).
//
// After both, at 16:08 (load 0.3-0.7 per CPU, judged): ready 354 ms median (runs 312-578, budget
// 300: still missed), first lint 7.3 ms, the NeMo config 3.0 ms.
//
// Where Go's start-up goes now (Node 20, GODEBUG=inittrace=1 and --cpu-prof, quiet machine):
// lint/dialect's init 12-32 ms, most of it the Trainer's knowledge rows parsed and applied
// (KnowledgeOf and applyHFKnowledge, whose first SectionAt also compiles sync.Map's code), which
// the first lint of a Trainer file needs anyway; rules' init 4-20 ms; internal/godebug 3-4 ms.
// Making the Trainer rows lazy would only move their cost into the warm-up. Still over the
// budget: the browser's own work before the bundle runs, the module's compile when it ends
// after the bundle is ready, and V8 compiling each Go function on its first call.
//
// On 2026-12-01 from 16:35 two other developers' benchmarks kept the load at 2-4 per CPU, so
// the figures below are interleaved cold loads of site builds in one browser (same permalink;
// `go run ./site/internal/coldloads -n 16 before=DIR after=DIR` makes them) and CDP traces
// (categories v8.wasm, devtools.timeline, disabled-by-default-v8.compile), not the budget's
// measure. What a trace of one cold load shows (Chromium 156, load 2):
//
//   - the module is compiled lazily: --wasm-lazy-compilation is Chromium's default, and the
//     compilation hints that could ask for more (--wasm-compilation-hints) are off, so a page
//     cannot choose. compileStreaming only decodes the module and validates its functions
//     (on worker threads, about 50 ms in all); Liftoff compiles each function on the main
//     thread at its first call: 1,652 functions and 1.5 MB of code before ready (the runtime's
//     start and package init 970 functions, 718 KB, of which the runtime 387 KB and ours
//     145 KB with lint/dialect.init 58 KB and rules.init 22 KB; the warm-up 504 functions,
//     602 KB; the first lint 148, 178 KB), 67 ms of the main thread's CPU time (122 ms of wall
//     time at that load). Forcing it eager in a scratch browser (--js-flags=
//     --no-wasm-lazy-compilation, 8 loads each, load 1.9): Go's start 13 ms instead of 76, the
//     warm-up 24 instead of 66, the first lint 2.1 ms instead of 11.6, but the compile then ends
//     at 371 ms instead of 300 (all 4,272 functions on the two shared cores): ready 437 against
//     476 ms median (--wasm-lazy-compilation: 466, the default's behaviour). Meanwhile V8
//     recompiles the hottest functions with TurboFan on worker threads (178 ms of CPU time
//     before ready in that trace), which on two busy cores also competes with the page;
//   - "the compile ends after the bundle" is not the download nor the compile: the bytes reach
//     V8 on the main thread (wasm.OnBytesReceived), 2.8 MB of 6.9 by 125 ms, the other 4.1 MB
//     only at 237-253 ms, once the bundle's script (93 ms) had run, then 17 ms to finish the
//     stream. When the main thread is free earlier, the compile ends earlier;
//   - of the bundle's 93 ms, 31 ms was V8 compiling 965 of its JavaScript functions at their
//     first call (V8.CompileCode on the main thread); before it, the page's first style and
//     layout (25-32 ms) while checker.js still streamed, and the HTML (about 8 ms);
//   - the main thread is busy from the head's scripts to ready, so ready is about the sum of
//     its work: only less work on it shortens the start, not another order.
//
// Kept: the bundle starts with V8's explicit compile hint (//# allFunctionsCalledOnLoad,
// Chromium 136 and later, build.mjs's banner), so its functions are compiled on the
// script-streaming thread: main-thread JavaScript compile 31 -> 3 ms and CodeMirror's module
// init 26 -> 14 ms of CPU time (5 traced loads each, load about 3). The bundle starts later
// (320 against 273 ms median in the 30-load comparison below: its streaming compile does more),
// and the module's compile now ends before the bundle's code runs in most loads, so Go's
// start-up usually comes before the editor.
// Interleaved, ready median against the build before: 334 against 360 ms and first lint 6.7
// against 8.9 (30 loads each at 17:08, a calmer spell: load 1.9 by the average), 672 against
// 726 (30 each, load 3.0; first lint 15.0 against 12.5), 577 against 674 (14 each, 2.9), 843
// against 842 (16 each, 2.9), 855 against 683 (12 each, 3.9, with two worker variants
// competing in the same rounds).
//
// Measured and not kept (medians, interleaved, with the compile hint unless said):
//
//   - the download and compile in a worker (boot.js starts it; the worker's fetch does not wait
//     for the page's main thread; the compiled module is posted back): 568 against 565 ms (16
//     each, load 3.6); without the hint 828 against 807 (10 each, 2.5);
//   - the same worker then running Go's start-up and warm-up once, so that the functions it
//     calls are compiled when the page's instance calls them (V8 shares them): the page's
//     main-thread CPU time to ready fell from 284 to 128 ms (5 traced loads each, without the
//     hint), but on two shared cores the worker's work competes with the page's: 643 against
//     577 ms (14 each, load 2.9), 641 against 581 (24 each, 1.9, other processes using about
//     1.5 CPUs during most loads). In the calmer spell at 17:08 (20 each): 342 against 348, and
//     the download and compile alone in the worker 343: the worker's module reaches the page
//     later (241 against 164 ms: its message waits for the page's main thread), so the page's
//     Go start-up and warm-up, though twice as fast (51 against 108 ms), start later. On a
//     machine with a free core it may pay; to measure there;
//   - Go run only once the editor shows the text (with the hint the compile now ends before the
//     bundle's code in about three loads of four, and Go then ran first and the editor last):
//     the editor shown at 335 instead of 553 ms, but ready 605 against 553 (20 each, load 3.5)
//     and the first lint 18 against 15 ms; the same without the diagnostics warm-up when the
//     module is already compiled: editor at 295 instead of 541, ready 557 against 541 (20 each,
//     load 3.0), first lint 20 against 14 ms (it then runs at once after the warm-up; why that
//     costs more was not found);
//   - the light module's data section (3.1 MB raw with the zeros PackWASMData keeps) is not
//     what the main thread spends time on: the bytes' hand-over is 12-15 ms for the module;
//   - dialects built lazily (idea from the trace above): our package init is 145 KB of the
//     1.5 MB compiled before ready and most of it (the Trainer's tables) the warm-up needs
//     anyway, so a few ms at most; not done;
//   - no diagnostics warm-up in the editor (with the hint its first-call compile is gone):
//     647 against 614 ms (16 each, load 2.8), kept.
//
// TestBrowserBudgets on the branch with the hint at 16:53 (load 1.9 per CPU, not judged): ready
// 380 ms median (runs 334-605), first lint 13.0 ms, the NeMo config 3.3 ms. In its four
// fastest loads the module was compiled by the time the bundle ran (146-176 ms), Go's main
// started at 242-276 ms and its warm-up ended at 282-334, and the text, the editor, the first
// lint and its findings came last, 46-52 ms after the warm-up. What is left over the budget is
// the Go start-up's first-call compiles; a worker doing them on the second core (above) is the
// candidate to measure on a quiet machine. Smaller leads: the lint markers' SVG images (data
// URLs in CodeMirror's lint theme) are loaded when the first findings are laid out, 2-6 ms each.
//
// On 2026-12-01 from 17:15 (branch w15v), what the Go side compiles before ready, function by
// function (`go run ./site/internal/wasmcompiles`, from the module root): the light module
// built with the site's flags but without -s -w (so that it keeps its name section), run under
// Node 20 with --trace-wasm-compilation-times by a script that marks Go's main, the warm-up,
// ready and the first lint (the budget's permalink file) in the same output, each Liftoff
// compile then attributed to its function's package. Sizes are the functions' WebAssembly body
// bytes. Unlike timings these counts do not depend on the load (repeated runs differ by a
// function or two, and a few functions move between adjacent phases). At 5b0f4d0 (w15u merged):
//
//   - runtime start and package init: 980 functions, 738 KB (the runtime 560 and 399 KB,
//     lint/dialect 32 and 111 KB, rules 11 and 37 KB, internal/runtime/maps 57 and 35 KB);
//     Go's main up to the warm-up 15 (6 of them only for debug.SetGCPercent); the warm-up
//     509, 622 KB (rules 184 KB, lint/dialect 118, lint/doc 86, lint 72, wasm/api 32,
//     internal/strconv 23); the first lint 88, 92 KB: fmt's printer and sync.Pool (24
//     functions, 29 KB, for one fmt.Sprintf that labelled a request's file), the request's
//     JSON decoder (25 KB) and syscall/js's and the runtime's event handling, none of which
//     the warm-up (api.LintBytes called from Go) had run, then the finding's own message code
//     (12 functions);
//   - garbage collection: GODEBUG=gctrace=1 shows no cycle before ready nor in the first lint
//     (package init allocates about 320 KB, a lint of that file about 35 KB, far under the
//     runtime's first 4 MB goal; the first cycle comes only after about a hundred lints), so the
//     collector's code is not run before ready and turning it off for the start (GOGC=off)
//     would change nothing: not done;
//   - the sorts: sort.Slice (its reflection swapper and quicksort, about 20 functions) was
//     first compiled at package init by dialect.All, and rules.All sorts again on every lint.
//
// Done (each a commit on w15v): dialect.All and rules.All sort their dozen dialects and fifty
// rules by insertion (unique names and codes: the same order, tested), so no sort.Slice code is
// compiled before ready (the stable sort of the findings still is); a request's file label is
// built with strconv instead of fmt.Sprintf, so fmt's printer is not compiled for a first lint
// whose messages do not use it; the GC percent (400, for the page's steady linting) is set when
// the page is idle after ready instead of at main's start; the YAML warm-up lints the way the
// page does (a JS object through trainlint.lint, so JSON.stringify, the request's decoder, the
// reply's JSON, JSON.parse and a call back into Go from JavaScript are all compiled before
// ready). The same trace after them: start and init 960-963 functions (725 KB), main 9, the
// warm-up 558-560 (680 KB), the first lint 12 (7 KB, the finding's message): 1,541 functions
// and 1,423 KB before ready and the first lint instead of 1,592 and 1,463 (wasmcompiles on
// 5b0f4d0's tree), about 3 per cent less.
// What is left is the runtime (about 560 functions at start: scheduler, allocator, stack
// growth, which the parsers need anyway, finalizers, which syscall/js's values need) and the
// engine itself; the next cut would be the engine's code a first YAML lint runs.
//
// The lint marks: CodeMirror's lint theme draws underlines and gutter markers as SVG data-URL
// images, which the browser loaded and decoded while laying out the first findings. They are
// now drawn by CSS (style.css: a wavy text-decoration, a coloured gutter shape, in the theme's
// colours; TestBrowserChecker checks that no image is used).
//
// Interleaved cold loads (coldloads, same permalink), medians, with the median of the per-round
// differences (paired) for the phases:
//
//   - load 1.5 per CPU (1.0-1.6), 16 each: the build before (5b0f4d0), the first three Go
//     changes alone (without rules.All's and the GC percent's), and those with the CSS marks:
//     ready 374, 377 and 357 ms; first lint 9.7, 4.1 and 4.6 ms; the first findings update
//     (firstDiagnosticsMs) 19.2, 18.6 and 12.5 ms; Go's main to the warm-up's end, paired
//     against the build before, +14 and +4 ms (the same module both times: that is the noise);
//   - load 3.25, 16 each, the same Go changes with the CSS marks against the build before:
//     ready 484 against 489 (paired -20), first lint 7.1 against 8.2, first findings update
//     15.7 against 31.1 ms;
//   - load 4.75 (the other developers' benchmarks), 20 each, the branch's final build against
//     the build before: ready 572 against 561 (paired +0.5), first lint 6.1 against 15.3 (paired
//     -8), first findings update 20.6 against 36.6 (paired -16.5), the warm-up paired +21 ms.
//
// So the CSS marks save 6-16 ms of the main thread's time before ready (more at higher load);
// the warm-up through the page's call path moves the first lint's compiles into the warm-up
// (first lint 4-6 ms instead of 10-15, now well inside its 15 ms budget at any load seen) and
// its total is level within the noise; the 50 fewer first-call compiles (about 3 per cent of
// them) are not measurable against the noise of these loads. Ready stays over the 300 ms
// budget whenever the machine is loaded (none of these runs could be judged).
//
// TurboFan during the start (17:40-17:50, branch w15v). V8 recompiles a WebAssembly function with
// TurboFan on a worker thread once it has spent its tier-up budget (Chromium: 13 million by V8's
// rough count of executed bytes, counted at loops' back edges and returns). A trace of one load in
// headless Chromium (--single-process, --js-flags=--trace-wasm-compilation-times, indices named
// from a build that keeps its name section) listed 31 such recompiles, 885 ms of worker time, the
// largest lint/dialect's package initialiser: 328 ms for one 58 KB function that runs exactly once.
// Go's WebAssembly runs each function as a loop around a jump table over its resume points, and a
// jump goes back to the loop's head, so a long function probably spends the budget by its size at
// every jump. On two shared cores that worker time is taken from the main thread: the same build
// with --wasm-tiering-budget=400000000 (a budget 30 times larger: few recompiles, if any, in the
// start) against the default budget, each in a browser of its own, 16 loads each at load 3.2: ready
// 442 against 611 ms median (paired -151), Go's start 46 against 87, the warm-up 39 against 97 (a
// second browser with the same default budget gave 547, paired -85 against the first: part of the
// gap is the browsers' own variance, and against that one the large budget still saves 105 ms). A
// page cannot set V8's flags, so the module avoids the recompile: each dialect is now built by a
// function of its own (var X = register(newX()), lint/dialect's register), the initialiser is 18
// KB, and no piece of it is recompiled (the trace: 30 recompiles, 448 ms, none of them an
// initialiser). Interleaved cold loads, medians:
//
//   - load 3.1, 16 each, before and after the split: ready 606 against 497 ms (paired -71),
//     Go's start 99.5 against 72, the warm-up 100.5 against 63.5;
//   - load 2.1, 16 each, the build before this branch (5b0f4d0), this branch without the split
//     and with it: ready 450, 477 and 393 ms (paired, with the split: -59 against 5b0f4d0, -61.5
//     against the unsplit build); first lint 9.1, 5.5 and 3.6 ms; the first findings update
//     26.3, 16.4 and 10.4 ms.
//
// The split adds the 16 small builder functions to what is compiled on first call (wasmcompiles:
// 1,558 functions before ready and the first lint, 1,424 KB, against 1,541 and 1,423 KB).
// What still recompiles before ready is code that is hot (parseKnowledge over the Trainer's
// rows, map iteration and access, runtime.typehash for sync.Map's keys, the reply's string
// encoder, and runtime.runGCProg, which expands the data section's pointer mask at the runtime's
// start: its size follows the pointer-holding static data); the next leads are other long
// functions that run once (rules' initialiser, 23 KB, was not recompiled in these traces) and
// what makes those hot paths hot.
//
// From 18:00 (branch w15w, main at 08b04f5 with w15u and w15v; ready still over: the lead's
// judged runs 337-478 ms median), the three leads measured:
//
//   - the check page's first style, layout and paint (33-52 ms in three traced loads each:
//     style 4-19, layout 22-35, paint up to 10): the stylesheet is 12.6 KB, the page 19.8 KB
//     with 13 selects (219 options). Neither a generic font stack (layout 22-36 ms) nor, as an
//     upper bound, the page without its ten version selects (style 6-12 ms, layout unchanged)
//     moved the bundle's start: 12 interleaved cold loads each at load 1.1, ready 473 against
//     474 ms median, bundle start 237 against 237. Nothing changed there;
//   - our code at start-up, found with a CPU profile of the named light module under Node
//     (--cpu-prof; also with --no-wasm-lazy-compilation --no-wasm-tier-up, where lint/dialect's
//     init still took 22-39 ms: running, not compiling). parseKnowledge was most of it, and in
//     it testing each of the five tables' 3,054 lines (378 KB) against two prefixes to find
//     the Trainer's 276: it now jumps to a framework's @tags block (strings.Index), same facts
//     (TestKnowledgeByFramework); under Node, 14 interleaved runs each, lint/dialect's init 23.5
//     against 40 ms median, start to the warm-up's end 188 against 207. applyHFKnowledge asks
//     SectionAt (memoised in a sync.Map) only for the 16 keys that have a value set, not all
//     145. dialect.All computes its order once instead of at each of its 26 calls from the
//     rules' initialisers (fixList). The unknown-key rule reads the packages alongside a
//     framework (TRL's 366 rows, parsed and indexed for the Trainer) only when a key is not one
//     of the framework's own; the warm-up's two made-up keys became Trainer keys and a file with
//     a typo is warmed when the page is idle: under Node, 12 each, warm-up 107 against 121 ms,
//     start to ready 235 against 244, first lint 8.6 against 7.2;
//   - first-call compiles (wasmcompiles): 1,549 functions and 1,407 KB before ready and the
//     first lint, against 1,557 and 1,422. wasmcompiles -turbofan now lists V8's TurboFan
//     recompiles by phase: 14 of ours against 19 (one run each; the list varies from run to
//     run with the load), dialect.All no longer among them; still there: parseKnowledge and
//     applyHFKnowledge (the Trainer's rows at init), fixList (26 calls in rules' init for rule
//     pages' text), the request decoder's string reader (wasm/api jr.str) and lint/schema's key
//     lists.
//
// In the browser (coldloads, the build before against the branch's): 16 each at load 0.70 per
// CPU (other processes using 1.2 CPUs meanwhile), ready 568 against 602 ms median, the warm-up
// 70 against 92; 20 each at load 1.22, ready 539 against 530 median but paired -9, Go's start
// paired -2.5 and the warm-up -1.5. So the gain is a few per cent of the Go side's start, within
// the noise of these loads, and not the 40-60 ms ready still needs. Leads left: the Trainer's
// knowledge as data the light build does not parse at start (only the sections a lint asks
// for), fixList's texts built on demand (only rule pages and the rules listing read them),
// and a quiet-machine check of the worker variant above.
//
// The day's end, 18:26 (main at 79c5068, with w15u, w15v and w15w merged), interleaved cold
// loads of the session's start (46b4500) and the end in one browser, 20 each, load 1.4-1.7 per
// CPU: ready 544 against 436 ms median, first lint 12.8 against 4.0 ms, the first findings
// update 27.0 against 12.2; with 08b04f5 (before w15w) in the same rounds (14 each, load about
// 1): 502, 455 and 453 ms. TestBrowserBudgets on main, judged (load under 1 per CPU): medians
// 337, 357 and 373 ms at 17:58-18:00 (08b04f5), then 553 and 457 at 18:21 (3e57d14)
// while the same rounds' comparisons put the two builds level: the machine's speed drifts by
// more than this session's gains between runs minutes apart, so only interleaved comparisons
// tell builds apart here, and the 300 ms budget is still missed. At 18:36 TestBrowserBudgets gave
// 632 ms, and in the same minutes the session's start (46b4500), 08b04f5 and fcff963 measured
// 710, 599 and 622 ms (10 interleaved loads each): 46b4500 had given 369 ms at 16:29.
//
// From 19:00 (branch w15y, the page side; main at 8bef752). The other developers' builds and
// benchmarks kept the load at 1.9-5.6 per CPU throughout, so everything below is traces and
// interleaved cold loads (coldloads, same permalink), never the budget's measure. Traces of cold
// loads (`go run ./site/internal/loadtrace -n 3 -o DIR SITE`: Chromium's trace of each load, with
// its trainlintPerf, for chrome://tracing or Perfetto) show what the 230-290 ms before the bundle
// runs are made of (the base, three loads at load 1.9, tracing included):
//
//   - checker.js is requested at 97-140 ms (the head's preload) and streamed to V8 on a worker
//     thread, which parses it and, for the compile hint, compiles every function: 128-148 ms of
//     that thread for the compile alone; the stream ends at 357-396 ms and the bundle runs 10-78 ms
//     later. So the bundle waits for its own background compile, not for the module;
//   - in the same time the module's bytes reach V8 on the main thread (wasm.OnBytesReceived,
//     31-68 ms), its functions are validated on other workers, and the page is styled, laid out
//     and painted (58-106 ms of the main thread, in two passes: once when style.css arrives in the
//     middle of the parse, again at its end; raster 57 ms on a worker in one of them). On two busy cores
//     all of it competes with the bundle's compile, which is why the bundle starts just after the
//     module's compile ends in most loads: shared CPUs, not a wait. Interleaved, 12 loads each at
//     load 2.7: without boot.js (the module fetched only when the bundle runs) the bundle started
//     118 ms earlier (paired median) but ready came 119 ms later.
//
// Kept: the bundle is two. checker.js (compile-hinted, loaded as before) holds only what the page
// needs before ready: CodeMirror's state, view and lint packages and the page's code, 275 KB
// instead of 400 (78 KB brotli instead of 115). checker-extra.js (src/extra.js, 128 KB, no hint)
// holds the syntax highlighting (the YAML, JSON, TOML and Python languages with the Lezer
// parsers), bracket matching, undo history and the keymaps; the page adds it once the checker is
// ready (or could not start), and its extensions then join every open file through
// compartments. Until then the editor shows the text without colours; typing and the Escape-Tab
// exit work. The extra bundle reads the packages it shares with checker.js from
// globalThis.trainlintShared, which checker.js fills with exactly the names the extra bundle
// imports (build.mjs finds them), so there is one copy of each module and the rest stays
// tree-shaken; build.mjs fails if a package lands in both bundles. TestBrowserChecker checks
// that the extra bundle is requested once, runs after ready, highlights YAML and TOML and brings
// Tab's indentation. Interleaved against the base, medians (paired median of the differences):
//
//   - 16 loads each at load 5.25 (the first split, 287 KB): ready 995 against 1408 ms (paired
//     -374), bundle start 486 against 700, from the bundle's start to the checker's code (the
//     modules' init) 17 against 90 ms, the first findings update 14.0 against 32.0 ms;
//   - 20 each at load 3.65 (the final 275 KB): ready 772 against 834 ms (paired -114), bundle
//     start 406 against 475, Go's main 609 against 664 (the module's compile and Go's start
//     also end earlier: less competition for the cores), the modules' init 10 against 54 ms,
//     the editor's creation (text to editor) 45 against 57, first lint 7.6 against 10.3 ms;
//   - 20 each at load 5.04 (19:45, the same two sites): ready 649 against 820 ms (paired -156),
//     bundle start 344 against 397, the module compiled 398 against 464, Go's main 528 against
//     688, the warm-up's end 610 against 756.
//
// TestBrowserBudgets on the branch at 19:44 (load 4.7 per CPU, not judged): ready 606 ms median
// (runs 542-723), first lint 4.5 ms, the NeMo config 9.8 ms.
//
// Measured and not kept (interleaved, medians and paired differences):
//
//   - the module fetched whole (fetch, arrayBuffer, then WebAssembly.compile: its decoding moves
//     off the main thread): against the base, ready paired -60 (12 each, load 2.7) but +27
//     (14 each, load 4.8); against the two bundles +275 (14 each, load 5.6: the compile then
//     ends 214 ms later). The same with the compile started only when the bundle runs: +161
//     against the base (14 each, load 4.8);
//   - no compile hint: against the base +61 (12 each, load 2.7), against the two bundles +58
//     (14 each, load 5.6). The hint stays;
//   - the ten version selects left out (219 options, as an upper bound of a lighter page): +68
//     (14 each, load 5.6), noise at that load, no gain seen;
//   - the preloads of checker.js and wasm_exec.js before boot.js in the head: +31 (16 each,
//     load 4.9); site.js deferred (`defer`): +108 (16 each, load 4.9);
//   - one render of the page instead of two (`<link rel="expect" href="#tl-findings"
//     blocking="render">`: the first style, layout and paint wait for the whole checker's HTML; a
//     trace shows one pass, 212 objects): ready paired +9 (16 each, load 4.9), then paired -18
//     but medians 720 against 692 ms (20 each, load 3.65). No clear gain: not kept;
//   - the first file linted before the editor exists when the module is ready first, its
//     findings in the state the editor starts with (drawn once instead of drawn then updated):
//     paired +56 (16 each, load 4.8), with phases the change cannot touch (the bundle's start,
//     the module's compile) as far apart, so noise; ready less the warm-up's end 44 against
//     31 ms median. Not kept.
//
// What the page itself still spends before ready, with the two bundles (timers added to a scratch
// build, 8 loads at load 3.4, where the text came after Go's warm-up), medians: the files' states
// 1.8 ms, the EditorView's creation 18.5 ms, the first findings update (firstDiagnosticsMs)
// 23.4 ms. Go's start and warm-up are most of the rest.
//
// The Go side's start from 19:05 (branch w15x: what runs from go.run to the warm-up's end, what
// it costs in instructions, first-call and TurboFan compiles, what was kept and rejected) is
// recorded in the package documentation of trainlint/wasm (wasm/main.go), section Start-up: the
// Trainer's version facts precomputed (nothing parsed at package init), fix-list texts built on
// demand, tables alongside a framework read only for a pinned version, the JSON string reader
// taking runs of plain bytes. Interleaved against 8bef752 (24 loads each, load 3.4): go.run to
// the warm-up's end 236 against 162 ms median, ready 855 against 718.
//
// The session's end, 20:35 (main at dfcf923 with w15y, w15x and the Python branches merged):
// TestBrowserBudgets judged at load 0.9-1.7 per CPU, ready 483 ms median (runs 407-740; the
// same code's TestBrowserBudgets at 18:56 gave 510 and at 17:58 its predecessor 337-373: the
// machine was slower this evening), first lint 5.9 ms, the NeMo config 5.6 ms. Interleaved cold
// loads of the session's start (8bef752) and the end, 12 each at load 1.09 per CPU: ready 545
// against 413 ms median, the bundle's start 291 against 215, Go's main 423 against 327, the
// warm-up's end 497 against 386; at load 2.16: 505 against 421. The 300 ms budget is still
// missed. What gates ready now, in the fast loads: the module's compile ends (273 ms median)
// after the bundle starts (215), then Go's start (50 ms) and warm-up (59): the module's
// streaming compile (6.9 MB, 4,272 functions validated on the two shared cores while the
// bundle compiles) and the first-call compiles of Go's start are the leads left.
//
// From 21:20 (branch w15z, main at ec16acf; the main thread's work before ready). The other
// developers' benchmarks kept the load at 1.5-12 per CPU, so the decisions rest on counts that
// do not depend on it: first-call compiles (wasmcompiles) and instructions (callgrind, as in
// wasm/main.go's Start-up: Node 20, --single-threaded --no-wasm-tier-up, the light module as
// shipped, millions from the process's start; repeat runs agree within 4 million), with
// interleaved cold loads (coldloads) as the check. Where Go's start-up goes, at ec16acf:
//
//   - instructions: instantiating the module 742, Go's main 1,066-1,070, ready (the warm-up's end)
//     1,613-1,617, the first lint's end 1,711. With every function compiled ahead
//     (--no-wasm-lazy-compilation, its compile then counted before the run) Go's start takes 183
//     and main with the warm-up 386 instead of 324 and 547: first-call compiles are about 45 per
//     cent of the start and 30 per cent of the warm-up;
//   - Linux perf (cpu-clock samples, which count only when the thread runs, so the load does not
//     skew them; node --perf-basic-prof names the WebAssembly functions) of that eager run, six
//     runs: the module's own code is about 9 ms of CPU time for the start, the warm-up and the
//     first lint together, about a quarter of it map hashing and inserting and the allocator;
//     with lazy compilation (one traced run) about half of the main thread's time in go.run and
//     the calls back into Go is V8's Liftoff compiling functions at their first call. So what
//     Go's start costs is mostly compiling code that runs once: less code run before ready is
//     the lever, as before.
//
// Kept (each a commit; wasmcompiles before ready and the first lint, start-up and all):
//
//   - rules as package-level lint.Rule values registered by address (var X = register(&xDef)):
//     the compiler lays them out as data instead of building 40 rules field by field at init:
//     rules' init 21.8 -> 12.3 KB of code compiled at start-up;
//   - each dialect's Advice an AdviceSet (a list of concept and Advice, read with For and Lookup)
//     instead of a map built at package init: start-up 658 -> 606 KB (lint/dialect's 93 KB ->
//     62 KB); TestAdviceConceptsUnique holds each concept to one entry, as map literals did, and
//     the rule pages built from the advice are byte for byte the same;
//   - rules' problemKind a switch on the rule's name instead of a map keyed by *lint.Rule filled
//     at init (no pointer-keyed map code at start-up): 606 -> 599 KB;
//   - wasm/main.go's growStack: a goroutine starts with a 2 KB stack, which the first lints
//     doubled several times deep in their calls, copying every frame each time; one 48 KB frame
//     at the top of each call from JavaScript grows it once while it is shallow: -10 million
//     instructions to ready (128 KB: -2 million);
//   - the batch-norm key and value sets, MMEngine's norm types, timedelta's units, the
//     Trainer-recipe dialects and the Trainer's word-list keys as switches or comparisons
//     instead of small package-level maps built at init: 598 -> 587 KB.
//
// Together (the branch at 973fab7): start-up 905 -> 888 functions and 658 -> 587 KB (-11 per
// cent), before ready and the first lint 1,527 -> 1,513 functions and 1,388 -> 1,323 KB (-5 per
// cent); instructions to ready 1,613-1,617 -> 1,562 million, to the first lint's end 1,711 ->
// 1,651 (less instantiating, 742 -> 736: the Go side -5.5 per cent); the light module 909,928 ->
// 908,483 bytes brotli and 1,267,790 -> 1,263,813 gzip. Interleaved cold loads of ec16acf's site
// and the branch's (coldloads, same permalink), medians and the median of per-round differences:
//
//   - 16 each at load 0.91 per CPU: Go's runtime start and package init (runMs to goMainMs) 58 ->
//     50.5 ms (paired -13), the warm-up 71 -> 67.5 (-8), go.run to the warm-up's end 129 -> 115
//     (-20), ready 446.5 -> 426.5 (-19.5);
//   - 16 each at load 1.40: Go's start 55 -> 53 (+0.5), the warm-up 66.5 -> 61 (0), go.run to
//     the warm-up's end 115.5 both (-0.5), ready 427 -> 417.5 (-1);
//   - 40 each at load 2.17: Go's start 67.5 -> 63 (-6), the warm-up 78.5 -> 83 (+1), go.run to
//     the warm-up's end 147.5 both (-3), ready 618 -> 602 (-18.5, with the module's compile
//     ending 27.5 ms earlier paired, which these changes cannot cause: noise);
//   - at 22:33, a faster spell: 24 each at load 1.84, Go's start 39 -> 38.5 (-0.5), the warm-up
//     45 -> 51 (+5.5), go.run to the warm-up's end 84 -> 92.5 (+8), ready 340.5 -> 346.5 (+13);
//     40 each at load 2.08, Go's start 47.5 -> 38.5 (-5), the warm-up 53 -> 51.5 (-3), go.run to
//     the warm-up's end 104 -> 90 (-10.5), ready 373.5 -> 357.5 (-23.5);
//   - for scale, ec16acf's site against a copy of itself (16 each at load 1.73): go.run to the
//     warm-up's end paired -2.5, ready +5, the bundle's start -9, the module's compile +9.5.
//
// So over five comparisons go.run to the warm-up's end moved by -20, -0.5, -3, +8 and -10.5 ms
// paired (median -3) and ready by -19.5, -1, -18.5, +13 and -23.5: the 11 per cent less code
// compiled at start-up and 5.5 per cent fewer instructions are a few ms at most, below what these
// loads let the browser show. TestBrowserBudgets on the branch at 22:31 (load 2.2 per CPU, not
// judged): ready 665 ms median (runs 455-927), first lint 6.8 ms, the NeMo config 5.8 ms; in the
// same minutes both builds measured 313-374 ms median in coldloads. The 300 ms budget is still
// missed; what is left is as at 20:35 (the module's streaming compile, Go's first-call compiles,
// the page's own work). Of the 587 KB compiled at Go's start-up the runtime is now 383 KB (546
// functions), lint/dialect 49 KB, rules 24, the map code 21 and syscall/js 15; our largest
// functions there are rules' and lint/dialect's initialisers (12 and 11 KB).
//
// Measured and not kept:
//
//   - the runtime inlined (-gcflags=runtime= after all=-l, and internal/runtime/... too): the raw
//     module 6.89 -> 6.63 MB, but 34-46 KB more brotli and 36-47 KB more gzip (the gzip budget has
//     32 KB of room), instructions to ready 1,638-1,642 against 1,613-1,617 (more, not less), and
//     ThinWASMSymtab refuses inlined calls; not kept;
//   - fewer raw bytes for the main thread to hand to V8 by leaving the data section's zeros out:
//     after ThinWASMSymtab only 151 KB of it are in runs of 64 zero bytes or more (59 KB in runs
//     of 256), so splitting the segment there would save little; not done;
//   - the YAML warm-up on exactly the budget's file: 20 functions and 28 KB fewer compiled before
//     ready (the block scalar, the flow sequence and quoted scalars of the warm-up file, and the
//     checkpoint-retention message its save_total_limit draws), at most 1-2 ms; not changed,
//     since flow sequences and quoted values are in most real first files and the first lint
//     would compile them instead.
//
// Cold was not cold (22:40, main with w15z merged, load 0.3-1.0 per CPU). Every measurement
// above, TestBrowserBudgets' and coldloads', loaded the checker again and again in one tab,
// with the HTTP cache off: the renderer process stayed, and with it V8's in-memory code (the
// bundle's compiled JavaScript; the module's compiled functions, which V8 shares between
// modules of the same bytes in a process). A first visit has none of it. Alternating, load for
// load, a tab reused and a new one (eight each): in a new browser (a fresh process, a fresh
// profile) ready came at 429-647 ms, in a tab of a new browser context (a renderer of its own)
// at 370-705 (median about 450), in the reused tab at 259-408 (median about 285). In the new
// context the bundle starts at about 300 ms instead of 170 and the module's compile ends at
// about 300 instead of 180; then Go's start takes 40-50 ms instead of 30-37 and the warm-up
// 57-64 instead of 35-48. So the reused tab's loads saved about 150 ms, mostly before Go runs.
// Since then TestBrowserBudgets and coldloads load each time in a new browser context
// (measure.NewContextTab, now within measure.QuietTab); coldloads still warms the browser
// process with one uncounted round.
// Measured so: TestBrowserBudgets at 22:41 (load 1.0 per CPU, judged) ready 393 ms median
// (runs 379-548), first lint 5.9 ms; coldloads, 6 loads at load 0.8: ready 489 ms median, the
// bundle's start 264, the module compiled 310, Go's main 365, the warm-up's end 456. The same
// test in the reused tab a few minutes earlier gave 307 and 363. The 300 ms budget is missed by
// about 100-190 ms, not by a few ms; earlier comparisons between builds stay valid as
// comparisons (both sides were reloaded alike), not as absolute times. The first visit's
// critical path is the page's own start: the bundle's streaming compile and the module's, which
// end at about 300 ms on the two cores before Go runs at all.
//
// The first visit's first style, layout and paint (22:50, branch w15c, on d7465c0). Traces of
// first-visit loads (loadtrace with the categories devtools.timeline, v8, v8.wasm, loading, blink
// and fonts, without disabled-by-default-v8.compile; 11 loads of three builds, load 1.2-1.4 per
// CPU): the page's first lifecycle covers the whole checker (799 elements styled, 155 layout
// objects) and takes 43-90 ms of wall time but only 20-39 ms of the main thread's CPU time
// (style 5-12, layout 10-19, paint 3-6). The rest is waiting:
//
//   - fonts: a new renderer has no font cache, so its first layout asks the browser process, by
//     synchronous IPC, for each family and style (system-ui is DejaVu Sans here: three matches,
//     two font files) and for each size's rendering style: 8-9 lookups in the lifecycle, 7-25 ms
//     of wall time for 1-2 ms of CPU time (23 in a whole traced load, 18-62 ms). A reused tab's
//     renderer kept them cached. No lookup is of a family that fails to match (the first family
//     of each stack matches), so shorter font stacks do not remove any; only fewer sizes or
//     weights would, and they are the look;
//   - the two cores are shared: checker.js's streaming compile (the compile hint: 56 ms of CPU
//     time, from about 105 to 175 ms) and the module's validation run beside the lifecycle;
//   - afterwards the module's bytes (wasm.OnBytesReceived in 2 MB slices, FinishStreaming and the
//     body's end: 30-45 ms of main-thread CPU time) usually run before site.js, wasm_exec.js and
//     checker.js do: their tasks queue behind them, even when checker.js was compiled long before.
//
// The 210 options of the version selects are most of the styled elements (each option styles
// about two), but without 161 of them (only "newest" in each version select) 316 elements were
// styled and the lifecycle still took 21-33 ms of CPU time (against 21-39, 4 traced loads each).
//
// Measured and not kept (coldloads in new contexts, 16 loads of each build interleaved; ready's
// median against the base's, then the median paired difference):
//
//   - the version selects with only "newest" (an upper bound of filling them on first use): 491
//     against 563 ms, paired -29 (load 1.13); again 455 against 445, paired -24 (load 1.20); a
//     third time 565 against 576, paired +12 (load 1.27). No clear gain, and options filled later
//     would also change the selects' widths;
//   - site.js after checker.js (checker.js then waits for one script less): 431 against 454,
//     paired +18 (load 1.61); 513 against 515, paired +21 (load 1.58);
//   - site.js preloaded in the head beside the others: 469 against 454, paired +39 (load 1.61);
//   - the head's preloads of wasm_exec.js and checker.js removed: 558 against 515, paired +52
//     (load 1.58): they stay;
//   - fonts resolved early by theme.js (a canvas measuring 16 px text in the three weights while
//     the main thread waits for the style sheet): 602 against 597, paired +26 (load 1.61).
//
// Nothing was kept: the first visit's first lifecycle costs the renderer's cold start (font IPC,
// first text shaping) and a share of two busy cores, not the page's markup or rules.
// TestBrowserBudgets right after `go test ./site` at 22:59 (not judged: the load average was
// about 1.2 per CPU, raised by the tests): ready 737 ms median (runs 678-884), first lint 8.0 ms.
//
// What a first visit costs before any of trainlint's code (session 9, 23:25-23:55, coldloads in
// new contexts; the machine drifted from quiet to about twice as slow within these minutes, so
// only figures of one run are compared). Floors, in the same runs as the checker:
//
//   - a blank page whose inline script marks ready: 29-38 ms; the same script as a file of its
//     own: 73 ms. On this machine each request a page waits for costs about 35 ms;
//   - the checker page with a stub for checker.js and no module download: 118-154 ms (without
//     its body's markup 104-117, without its scripts 119, without the style sheet unchanged);
//     with the module downloaded but not compiled (fetch and arrayBuffer): 220-232 ms, and a
//     random file of 1, 3 and 7 MB in its place: +29, +71 and +102 ms. The module's 6.9 MB
//     raw reach the page at about 15 ms a MB here (the test server sends them uncompressed);
//   - a minimal Go program (syscall/js only, 1.9 MB) on a blank page: ready at 110-124 ms, its
//     compile done at 99-118 and its main 25 ms later; on the checker page in place of
//     trainlint.wasm, its main ran at 607 ms where the checker was ready at 916 (a slow run;
//     scaled to the quiet 407, about 270). So the page and Go's runtime alone take about two
//     thirds of the 300 ms budget before trainlint's module is any bigger than Go's minimum,
//     its packages start, its warm-up compiles the lint path and the editor opens (together
//     about 135 ms in a quiet run).
//
// Kept: theme.js and boot.js written into the head (site.go, themeJS; admitted by hash in the
// policy): two requests fewer before the module's download starts, which on a real network is
// a round trip or two. On this machine the download starts 30 ms earlier (boot's start, 20
// quiet first-visit rounds: 97 -> 68 ms), but ready did not clearly move: median 597 -> 563,
// paired +11 ms. Three earlier runs of 12-14 rounds had said -31, -70 and -156; runs that short
// swing by ±80 ms here, so only runs of 20 or more rounds are quoted from now on. Measured and
// not kept:
//
//   - site.js, wasm_exec.js and checker.js as one file after the inline head: paired -84 in
//     one quiet run of 10 rounds, then +21 (wasm_exec.js first) and -10 (site.js first) in 20
//     rounds: no gain;
//   - the module without its data section, the data (3.17 MB, 0.9 MB of them zeros from
//     PackWASMData) sent as a 378 KB raw-DEFLATE file that boot.js inflates
//     (DecompressionStream) and copies into memory before Go runs: 4.1 MB instead of 6.9 to
//     download here, but ready -55, -20 and then +99 ms in three runs. Not kept: no clear gain
//     on this machine and none at all where the module is served gzipped (GitHub Pages);
//   - the test server gzipping what it sends, as GitHub Pages does: ready +100 ms (one run of
//     12): the inflating costs more here than the bytes it saves on the loopback;
//   - loads with no DevTools domain enabled during the load (Network, DOM, CSS, Page off,
//     the page navigated by script): ready 613 against 619 ms: the test's instrumentation
//     does not inflate the figures.
//
// TestBrowserBudgets at 23:54 on this branch (judged, the machine in its slow phase): ready
// 583 ms median (runs 484-902), first lint 4.1 ms.
//
// The test's own instrumentation (00:10, session 9). chromedp turns on the Network, Page, DOM,
// CSS, Log and Inspector domains of DevTools in every tab, so during each measured load the
// browser reported every request, response chunk (6.9 MB of module), style sheet and DOM change
// to the test. The same build loaded both ways, interleaved (12 loads each): the browser's CPU
// time from the navigation to ready (coldloads' cpuMs, all its processes) 1,830 ms
// instrumented against 1,160 quiet, and ready 652 against 548 ms median, 104 ms later paired;
// again over 20 rounds: 1,840 against 1,260 ms of CPU, ready 641 against 591, 76 ms paired.
// No visitor's browser does that work, so since 546a0bc TestBrowserBudgets and coldloads load
// through measure.QuietTab and LoadUntil: a new browser context (empty cache, so no CacheOff), every domain
// but Runtime off before the navigation, and the page's own timings read by polling. Figures
// before it were instrumented (coldloads -instrumented reproduces them). Quiet loads of the
// floors above, in one run (8 loads each, the machine slow): the browser's CPU time to ready
// 140 ms for the blank page, 390 with the minimal Go program, 490 for the checker page without
// module or bundle, 760 with the bundle and the minimal Go program, 1,030 for the checker.
//
// What bounds ready now. With DevTools quiet, the browser's processes spend about 1,040-1,280
// ms of CPU time from the navigation to the checker's ready, and ready comes at about half of
// that: the two CPUs are busy throughout, so starting a piece of work earlier (the module's
// download above) moves nothing unless the total work shrinks. Of that time the blank page
// takes about 140 ms, the checker page's markup, style sheet and small scripts about 350 more
// (without the body's markup -190, without site.js and wasm_exec.js -100, without the style
// sheet -80: one quiet run of 8 rounds), and the bundle, the module's download and compile,
// Go's start, the warm-up with V8's recompiles, and the editor the rest. A ready at 300 ms on
// two CPUs needs that total near 600 ms. The module's share, measured on the checker page with
// a stub for checker.js (14 quiet rounds): downloading its 6.9 MB costs 80 ms of CPU time
// (1 MB of random bytes 20, 3 MB 60), downloading and compiling it (lazily: V8 decodes and
// validates every function, compiling each on its first call) 200 ms. Without the bundle's
// compile hint (20 rounds) the editor showed 214 ms earlier, before Go's start, but the
// module's compile ended 78 ms later and ready came 38 ms later (paired; medians equal, the
// same 1,190 ms of CPU): the hint stays. V8's background recompiles of hot functions are not
// what crowds the two CPUs either: with --no-wasm-tier-up (16 rounds) the same 1,250 ms of CPU
// and ready 22 ms later, paired. Nor do the version selects' 161 older versions (w15c's probe
// again, quiet, 20 rounds: ready 13 ms earlier paired without them, 30 ms less CPU): kept.
//
// The page-plus-Go floor measured directly (01:06, quiet loads, 20 rounds; the blank page at
// 50 ms median, so the machine still somewhat slow): the minimal Go program on a blank page
// ready at 167 ms (360 ms of CPU); the checker page (this build, inline head) with that
// program in place of trainlint.wasm at 281 ms (650 ms of CPU); the checker at 458 ms (970 ms
// of CPU). The page and Go's runtime take about three fifths of the checker's time;
// trainlint's module (its size, its packages' start, the warm-up) and the editor the rest.
//
// The editor's share, bounded from above (session 10, 2026-12-02 01:43-01:50, quiet loads,
// coldloads, 20 rounds twice; the machine slow, the blank page at 71 and 64 ms): the built check
// page with checker.js replaced by a 40-line script that takes the permalink's text into a plain
// textarea, instantiates the module boot.js compiled, lints once when Go is ready and lists the
// findings, with no CodeMirror at all before or after. Ready 565 against 620 ms median, then
// 555 against 624 (paired against the floor: 486 against 541, 490 against 572), 190-210 ms less
// CPU time. That tiny script still ran only at 275-300 ms (the bundle at 327-337): what comes
// before it is the page's parse, style and layout while the module's 6.9 MB arrive and are
// validated. So an editor that loads after ready would take 55-80 ms off a slow spell's
// 620, about 40-55 in a fast one where the checker is ready at 390: not enough for the 300 ms
// budget by itself, and it would show findings beside a bare text box first. Not done.
// V8's TurboFan recompiles under Node at 9ae6551 (wasmcompiles -turbofan, one run): 10 during
// Go's start and package init (102 ms of a worker thread: runtime.pcvalue 25, mheap.allocSpan
// 18, moduledataverify1 11, mapassign_faststr 10, runGCProg 10), 31 in the warm-up (156 ms:
// mapassign 29, stringslite.Index 22, parseKnowledge 19, mapaccess2 13, the schema's key lists
// 11) and 1 in the first lint; with --no-wasm-tier-up in the browser the ready time did not
// move (above), so they are not pursued.
//
// Where the CPU time goes, by process and thread (coldloads -threads, added then; quiet loads,
// 8-12 rounds, medians; a slow spell, the blank page at 57-74 ms): the checker's load takes
// 1,250-1,520 ms of CPU time to ready, of which the page's renderer 930-1,210 (its main thread
// 480-640, the worker pool V8 and Blink share 340-455), the browser process 220-300, the GPU
// and network processes 45-70 each; the blank page 150-240 in all. Without CodeMirror (the
// probe page above) the pool takes 130 ms less (the bundle's compile-hinted streaming
// compile); with the minimal Go program instead of trainlint.wasm, 140 less again, and the main
// thread 180 less. Chromium traces of two loads (loadtrace; thread CPU time, which tracing
// inflates) name the WebAssembly part: V8 compiling Go's functions at their first call on the
// main thread 126-156 ms, TurboFan recompiles 80-84 on the pool, validating the module's
// functions 19-30, its bytes' hand-over 10-12; the bundle's streaming compile 60-75. Bisecting
// the page itself (the check page with every script but a probe that marks ready when it
// runs, 10 rounds): the page alone is ready 106 ms after the blank page, and the module's
// download and compile started from the head delay that probe by 74-83 ms more; the style
// sheet -43 ms; site.js and wasm_exec.js +43; an empty body -48. The module fetched and
// compiled in a worker (boot.js starting it, the compiled module posted back, 12 rounds) frees
// the main thread (the probe 55 ms earlier) but the module reaches the page 62 ms later and
// ready comes 39-53 ms later (paired), as in the worker trials above: on two CPUs the work has
// to shrink.
//
// On a new machine on 2026-12-02 (an "Oxide Virtual Turin-like" guest, 2 CPUs, Chromium
// 156.0.8078.114, main at 1656923, nothing else running): TestBrowserBudgets judged ready at 943
// ms median (runs 914-1,111) with the load under 1.5 per CPU, first lint 11.2 ms, the NeMo config
// 3.1 ms; the blank page took 68 ms (29-38 on the quiet machines above). In the loads of a run
// just before (load 1.5, not judged) the module's compile ended at 506-593 ms after navigation
// (150-300 before) and the bundle started just after it in six loads of seven. A traced load
// (loadtrace, tracing included) spent 395 ms of the main thread in wasm.CompileLazy, V8 compiling
// Go's functions at their first call, against 126-156 ms in the traces above, and 110 ms in
// FlushInstructionCache; V8's --no-write-protect-code-memory did not change ready (coldloads, 8
// rounds: +77 ms paired). Native Go on the same machine is as fast as before (the readers'
// benchmarks), so it is the browser's WebAssembly compile that is two to three times slower here;
// the 300 ms budget is out of reach on this machine without a much smaller module.
//
// On another new machine on 2026-12-02 (2 CPUs reported as "AMD EPYC", Chromium 156, main at
// bf1c7cc, idle: load 0.0 before the run): TestBrowserBudgets judged ready at 433 ms median (runs
// 364-482; budget 300: missed), first lint 4.2 ms, the NeMo config 6.1 ms, the blank page 43 ms.
// In those loads the module's compile ended at 192-278 ms, Go's start took 42-62 ms and the
// warm-up 61-113; where the permalink's text was known before Go ran, ready came 11 ms after the
// warm-up, else the editor's creation (35-40 ms) followed it. A load uses about 700 ms of CPU
// time by ready (coldloads -threads: the renderer's main thread 280-310, its pool 150-200, the
// browser process 120-140, network and GPU 50-60 each; the blank page 120 in all), so the two
// CPUs are nearly saturated from navigation to ready. Measured there and not kept (coldloads,
// interleaved, medians):
//
//   - the "still to try on a quiet machine" of the worker trials above, done on this quiet one:
//     the whole engine in a worker that boot.js starts (the module fetched, compiled and run
//     there, the YAML warm-up too, requests answered by message, the page running no Go). The
//     page's main thread then spends 160 ms of CPU instead of 280, but the worker's thread 210,
//     and the worker's script only ran 137 ms after navigation (113 ms as a blob: URL written by
//     boot.js, no request): its compile ended at 249 instead of 200-226, and Go's start (96 ms
//     against 54-74) and warm-up (80-136 against 57-88) ran slower beside the page's own work.
//     Ready 449 against 385 (8 each, load 0.9), 469 against 382 (6 each, 0.8), as a blob 517
//     against 485 (8 each, 0.9): on two CPUs there is no idle core for it to use;
//   - checker.js without its compile hint: ready 431 against 434 ms, paired -16.5 (10 each, load
//     0.8), the pool's CPU time 130 instead of 180 but the main thread's 10 more: noise-level,
//     the hint stays.
//
// With the machine saturated, only less work shortens the start; the module's validation and
// Go's first-call compiles scale with its code (3.96 MB), and the 300 ms budget stays out of
// reach on these machines.
//
// On the machine of 2026-12-02 evening (2 CPUs reported as "AMD EPYC", Chromium 156, idle
// before each run; its blank page at 14-29 ms, against 34-68 on the machines above), the same
// module (86fe017, then 18c78cb with this session's rule changes) is ready well inside the
// budget. TestBrowserBudgets, judged, six runs of seven cold loads: ready medians 236, 288 (the
// load rising to 1.6 from a run just before), 213, 199, 203 and, at 3be754d, 201 ms (runs
// 189-317), first lint 1.6-2.5 ms, the blank page 14-23 ms. The module is then 937,387 bytes
// brotli and 1,299,327 gzip: 673 bytes under the gzip budget, so any code added to the light
// module's path now needs an equal cut. In the fast loads the module's compile ended at 120-135
// ms, before the bundle ran (123-137); Go's runtime start and package init took 27-33 ms and the
// YAML warm-up 35-41; where the compile ended after the bundle (137-171 ms), the editor showed
// first and ready came 6-8 ms after the warm-up. So the start itself is the same work as on the
// machines above; the browser's WebAssembly compile and the page's own work are two to four
// times faster here, which is what the budget's "these machines" turns on.
//
// 2026-12-03: the day's detection fixes (held-out repositories: OLMo, open-instruct, verl,
// levanter, SpeechBrain, NeMo-Aligner) took the light module to 1,300,111 bytes gzip, 111 over
// the budget, and CI failed on it. torchtitan's reader then moved to the full build with the
// code dialects' (lint/dialect/code_lite.go): its configs are TOML, which the light module
// declines anyway, so its detector and normaliser were dead code there. 1,296,982 bytes gzip
// (measured as the site builds it: `go run ./site/internal/buildwasm out.wasm`, then Node's
// zlib.gzipSync at its default level, as build.mjs does; `gzip -9` reads 17 KB lower). A file
// forced to torchtitan now asks for the full module (TestParityLite has the request).
// TestBrowserBudgets on this machine, judged (load under 1.5 per CPU, though trainlint runs
// shared it): ready median 284 ms (runs 198-299), first lint 1.7 ms; under CI's own load (2.6
// per CPU, not judged) 215 ms.
//
// 2026-12-05 (session 55): the light module stood at 1,299,890 bytes gzip; a test of which files
// need a host count (lint/needs.go) took it 154 bytes over the budget, because the module is
// built without inlining and each Fact[T].Known it called was a call and, for three new type
// arguments, a function of its own. Comparing the facts' Origin in place brought it back to
// 1,299,956, and with the day's message changes 1,299,960 (`go run ./site/internal/buildwasm`,
// then Node's zlib.gzipSync), 40 bytes left. Then the JSON recipes' join (+200 bytes) needed a
// cut, found in the type equality functions: the module held 167 of them, 72 KB raw, because a
// comparable type's descriptor links one whether or not anything compares it, and every array
// behind a slice literal and every generic instantiation has its own. dialect.Advice and
// plan.Fact (and with it every plan part holding facts) became incomparable (a zero-size
// [0]func() first field): 1,296,261 bytes gzip with the join, 3.7 KB under the budget, and
// 1,297,332 with the stricter JSON recipe scanner that followed. More is there the same way
// (doc.Problem, lint.Option, compose.Problem, lint.Edit: about 0.5-0.9 KB raw each) where
// nothing compares the type. A generic accessor called on the light module's
// path still costs more than its body (no inlining).
//
// 2026-12-06 (session 56): the day's findings fixes in the engine (a YAML DeepSpeed file read as
// JSON, bare and JSON-string deepspeed values, MMEngine deploy backbones and custom_imports,
// axolotl's null deprecations, names before transformers 4.41, OpenMMLab's package names) took
// the module from 1,297,332 to 1,299,004 bytes gzip (936,981 brotli), and the last read's
// compose.problemWith (a call more, no inlining) to 1,299,074 (934,806 brotli): 926 bytes left
// under the budget. The next engine change that needs room should take it from the type equality
// functions above first.
//
// 2026-12-06 (session 57): the session's engine fixes (run findings replacing a file's at the
// same place, the TabError check, MMCV 1.x loaders, a training metric's fresh ranking, base
// refusals naming MMCV, derived DeepSpeed batch factors, string batch keys) took the module
// 414 bytes past the budget; 32 more types made incomparable (doc.Problem, compose.Problem,
// lint.Edit, lint.Option, lint.Target, plan.Interval, Retention, Seed and more: tests compare
// them with reflect.DeepEqual) and pyLiteral kept to the full build (the light module reads no
// Python) brought it to 1,299,384 bytes gzip (937,199 brotli). The review's mends that
// followed (a run keeping the file findings it repeats, wording) took it 480 bytes over again;
// AddRunFindings keying places with its existing key type and PathElem made incomparable
// brought it to 1,299,804 (937,273 brotli), and the _group_ package fix to 1,299,823 (936,422
// brotli): 177 bytes left. What is left of the type equality
// functions is needed (map keys, compared values: compose.Origin, doc.Format arrays) or the
// runtime's, so the next change that needs room must find it elsewhere (code only the full
// module runs, behind the trainlint_lite tag, as pyLiteral is).
// 2026-12-06 (session 58): linting a package installed from a git commit at no version took it
// to 1,299,858 (142 bytes left). The function table now names no plain function or value
// method of the standard library outside the runtime and reflect (unnamedStd: strconv.Quote,
// slices.SortFunc[...]; their frames drop out of tracebacks, trainlint's and the runtime's
// stay, and pointer methods, wrappers among them, keep their names): 1,297,299 bytes gzip
// (933,054 brotli), 2.7 KB under the budget. The sweeps' fixes took it back to 1,299,367; the
// standard library's pointer methods lost their names too, except the wrappers of value
// methods (pkg.(*T).m beside pkg.T.m), whose names panicwrap parses: 1,298,403 (933,597).
// Hydra's two-entries-of-one-group refusals took it to 1,299,613; the compiler's equality and
// hash functions (type:.eq.T) lost their names as well: 1,299,016. More fixes took it to
// 1,299,901. Then two imports left it: lint/schema's JSON (the schemas `trainlint schema`
// writes) moved behind !trainlint_lite, which takes encoding/json, its float encoders, base64
// and the reflection they use out of the module (12.3 KB), and rules' examples.go (the rule
// archives' reader), which takes regexp's initialisers out (0.3 KB): 1,287,230 bytes gzip,
// 929,163 brotli, 12.8 KB under the budget. TestLightModuleImportsNoJSONOrRegexp keeps both out.
// The review of the session's change then found that a wrapper was told from its name only (a
// pointer method beside its value method, which the linker may drop): now every function whose
// funcID is not normal (the runtime's special ones and the compiler's wrappers) keeps its name,
// but the equality and hash functions: 1,288,821 bytes gzip with the last fixes.
// 2026-12-06 (session 59): Hydra's search path took 7 KB of gzip until the light module
// declined runs with one (searchpath_lite.go: the checker composes them with the full module),
// the fork test and the generic reader's filter by the repository's words (inputs only the
// CLI has) became stubs there, and confirming an unread group option's refusal, which
// composes a run with a command-line choice the light module does not read, only declines
// there (unread_lite.go): 1,299,007 bytes gzip, 932,802 brotli, 1 KB under the budget.
// 2026-12-06 (session 60): the session's first fixes took it to 1,299,748 (252 bytes left). The
// embedded knowledge tables then dropped the source line of every row but the start-up checks'
// (cmd/trainlint-knowledge tableProv: no rule reads the others' lines, which compression cannot
// squeeze; the extractions keep them all): 1,290,235 bytes gzip, 9.5 KB freed. The rest of the
// session's fixes (Hydra list options, sweeper params and override positions, dict_kwargs,
// torchtune's own-recipe keys, the checkpoint-callback and sampler reads, LLaMA-Factory's
// eval-data check by version, trainers that never fit) took it to 1,299,603 bytes gzip, 938,111
// brotli: 397 bytes under the budget again; the final review's mends (shared helpers, one
// constant for the list/mapping refusals) left it at 1,299,402 gzip, 939,610 brotli.
// 2026-12-06 (session 61): a composed Hydra run's trainer, a missing root config, the
// byte-order-mark's place, torchtitan's written trackers, the unmatched-override refusal
// (1,300,261 at first: over; the light build now only declines such a run to the full
// module, which reports it, and shares the CLI override's wording: 1,299,924), the no-fit
// context, and three of a helper's sweep fixes (PaddleNLP's argument files, a fork's config
// subclasses, MindFormers' predict configs) took it to 1,299,950 gzip, 939,074 brotli: 50
// bytes under; the TRL git-pin check in unknown-key left it at 1,299,951 gzip, 938,217
// brotli, and one shared test for composed Hydra runs (lint/run.go hydraComposed) at 1,299,967
// gzip, 939,370 brotli. Two more fixes were left out for want of room (llm-foundry eval YAMLs
// of other projects, +65 bytes even with a shared helper; axolotl's noisy_embedding_alpha,
// +102).
// Tried and dropped: sync.Map replaced by a mutex map (the runtime links the hash-trie map
// anyway: +1.6 KB), and the knowledge tables' newest tag left implicit in their provenance
// (about 200 bytes).
// 2026-12-06 (session 62): room made by declining one more dialect. What the light module's
// code is made of (WASMLiteFlags without -s -w, each body of the code section named by the
// "name" section, gzip of each package's bodies alone): runtime 287 KB, lint/dialect 232 KB,
// rules 79 KB, lint/doc 68 KB, lint 44 KB, lint/compose 40 KB, internal/strconv 21 KB, wasm/api
// 17 KB. Each dialect's reader left out of a scratch light build (its normaliser declining, as
// code_lite.go's do): Composer 10.4 KB, torchtune 10.2, NeMo 8.7, LitGPT 8.3, LLaMA-Factory
// 4.6, timm 2.0. Composer / llm-foundry, which few pasted configs are, now declines in the
// light build (lint/dialect/declined_lite.go): its detector stays, so a file detected as (or
// forced to) it is marked needsFullModule and the full module answers with the CLI's findings;
// a run whose composed file a dialect declines marks its primary too (LintTree checks after
// LintRun). rules' fact helpers (advice, written, notSet and four more) became one-line
// generic wrappers of plain functions, one body instead of one per type of fact (850 bytes).
// Composer's decline took it from 1,299,967 to 1,289,494 bytes gzip. torchtune was measured
// too (a further 15 KB with its table) but stays in the light module, its recipes being often
// pasted. The session's fixes
// (scenic's trainer, the warmup of constant schedules, Hydra's override order and guessed
// experiment pairings, torchtune's releases, fairseq's buffer, LLaMA-Factory's ppo stage and
// launch keys, a stub for the CLI's script defaults, thread-prefetching loaders, inference
// configs, the wording of keys a later release removes, LightningModules that cannot fit, the
// experiment comment test) then took it to 1,293,034 gzip, 933,597 brotli: 7.0 KB under; the
// final reread's shared version test (dialect.releasedBefore) to 1,293,217 gzip, 930,608 brotli.
// 2026-12-06 (session 63): the session's fixes from the sweeps (Hydra discovery of included
// configs and lone experiments, guessed runs refused for any reason, Hydra's own legacy
// entries, references through an interpolated node, early stopping that cannot stop, one-save
// runs, predict configs, generic inference and decoding configs, training signs beside
// num_workers, llm-foundry's hf_checkpointer, 4.x-only Hugging Face keys) took it to 1,300,627
// gzip, 627 bytes over. What only a repository's scripts can tell (a project's own training
// loop or runner, models with no validation_step) moved to full-only files with light stubs
// (lint/scriptdefaults_lite.go, lint/dialect/lightning_repo_lite.go), as the script defaults
// were: 1,299,459 gzip, 937,643 brotli, 541 bytes under. The review's fixes (early stopping's
// off-by-one, training signs beside a generation section or a prediction name, discovery's
// group-option includes) took it to 1,299,919 gzip, 938,400 brotli: 81 bytes under. Room was
// then made as for Composer: LitGPT's reader declines in the light build (declined_lite.go;
// TestParityLite gets a detected and a forced LitGPT request, both handed to the full module),
// 1,291,281 gzip, 930,334 brotli: 8.7 KB under (1,291,278 and 931,879 after the last fix, the
// unlisted-folder check). LitGPT was chosen over torchtune (about 10 KB),
// whose recipes are pasted more often; NeMo is next (the budget test times a NeMo config in the
// light module, so declining it would change what that test measures).
//
// 2026-12-06 (session 64): the session's fixes from the sweeps (the folder check's reading of an
// unlisted folder's repeated key, gin macros, a WandbLogger that uploads every checkpoint,
// Lightning trainers named by kind, Orbax's keep_period, Hydra 1.0's packages and ConfigStore
// options, an eval section that trains, MMEngine star imports and models in unread bases, 3D
// scene patches, NeMo's Trainer-owned callbacks, evaluation-only Hugging Face files) took it
// from 1,291,095 to 1,296,413 gzip, 932,221 brotli: 3.6 KB under (TestBrowserBudgets). Dropping
// a file's framework defaults where it names base files (lint/partial.go) walks the plan by
// reflection, which cost the light module 34 KB gzip (1,328,801 measured); it is full-only, with a
// light stub, as the script defaults are.
//
// 2026-12-06 (session 65): the session's fixes took it to 1,306,633 gzip, over the budget. The
// largest were Hydra discovery's (a base its siblings include, experiments two primaries share,
// options behind an unchosen ??? entry), a repeated YAML key that carries anchors, and `//`
// comments a repository's own parser strips. The last is full-only (the browser has no
// repository to read); the others are judged by the full module only, and the light one hands
// such a run or file to it (Spec.Declined, unlooked_lite.go, yamlanchors_lite.go; each has a
// request in TestParityLite's hand-over set). A map literal of torchtune's recipes became two
// word lists (0.5 KB of initialisation code); the same change to the Hugging Face run fields
// made the module larger and was dropped. That left 376 bytes; the review's fixes took it to
// 1,300,253, and timm's reader (about 2 KB) joined Composer's and LitGPT's in the full module
// (lint/dialect/declined_lite.go): timm's args.yaml files, seldom pasted, are handed over.
// 1,297,993 gzip then; at the session's end (the review's discovery fixes, and the light
// module's sibling check sharing the full one's siblingIncluders) 1,298,526 gzip, 937,978
// brotli: 1.5 KB under.
//
// Accessibility: axe-core 4.14.1 (TestBrowserAccessibility) finds no serious or critical
// violation on any of the 39 pages at 1280 and 390 px widths, nor on the checker with a file
// open.
//
// Nothing leaves the page after it loads: a Content-Security-Policy allows only same-origin
// resources. Permalinks carry the text in the fragment (#f=<name>&c=<base64url raw-DEFLATE>).
package site
