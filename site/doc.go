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
// module lints a small file of each format before it says it is ready, so the user's first
// lint does not pay for compiling the engine's functions. The open files are one request, so
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
//	folders listed without fs.ReadDir's fallback         -4 KB      -7 KB   (readdir_lite.go)
//	no Python or gin dialect detection in it             -3 KB      -4 KB
//	light module                                      1,005,331  1,388,648  7.0 MB  OVER
//	full module (unchanged)                           1,323,177  1,853,428  9.3 MB  on demand
//
// (brotli and gzip of these lines by node's zlib, as the site test measures; `gzip -6` gives
// 1,430,672 before and 1,392,415 after.) What grew from 6bf3316 to ec69fa1, gzip of each
// package's code alone (from the code section and the "name" section of a build without -s -w):
// lint/dialect +43 KB (Lightning's Trainer and callback checks, the HF/TRL start-up checks, the
// DeepSpeed join: straight-line code, no table), lint/compose +38 KB (new: the Hydra and code
// composers), time +17 KB, lint +15 KB (LintRun, LintTree, DedupeRuns, the in-memory tree),
// rules +13 KB, slices +4 KB (a sort instantiated for fs.DirEntry), io/fs and path +4 KB, and
// 58 KB more in the data section (names and pc tables of that code). After the steps above:
// lint/dialect 188 KB, rules 68 KB, lint/doc 51 KB, lint 35 KB, lint/compose 25 KB, go-toml
// 20 KB, time 18 KB.
//
// Still over by 5 KB brotli and 89 KB gzip. time (18 KB of code, formatting only) is linked
// because lint and compose take an io/fs.FS: its File's Stat and its DirEntry's Info give a
// FileInfo whose ModTime is a time.Time, and fmt's Stringer and GoStringer keep Time's String
// and GoString (hence Format) as soon as fs.FS or fs.ReadDirFS is converted or asserted at
// all. Taking it out needs compose and lint to take their own interface (ReadFile, and a
// ReadDir giving names and whether each is a folder) with an adapter for os.DirFS in cmd.
//
// (Each step measured on top of the ones above it; the rest of the difference is yaml.v3's
// converter and time's duration parser, also out of the light module.) Head-room
// after the merge: 100 KB brotli and 64 KB gzip. What the light module holds, gzip of each package's code alone
// (the code section is 787 KB of the gzip total, the data section 400 KB, of which Go's
// function-name and pc tables for stack traces are the largest part):
//
//	runtime 289 KB, lint/dialect 145 KB (its init, the dialects' tables built by code, is 48 KB
//	raw), lint/doc 51 KB, rules 49 KB, internal/strconv 21 KB, go-toml 20 KB, lint 20 KB,
//	fmt 19 KB, wasm/api 17 KB (its JSON reader about 6 KB), reflect 16 KB, strings 15 KB
//
// To keep it small: no regexp, time parsing, encoding/json decoding or text/template in what a
// lint reaches (each pulls tens of KB; package regexp with the Unicode tables it initialises was
// 98 KB gzip); no package-level sync.OnceValue closure or map literal that names such a package
// (its initialiser links it even when nothing calls it); large tables as embedded text
// (knowledge.tsv), not Go literals. Check with `GOOS=js GOARCH=wasm go list -tags
// trainlint_lite -deps ./wasm` and `-ldflags=-dumpdep`, which shows who reaches what.
// Tried and not kept: wasm-opt -Oz and -O1 (binaryen 108; larger compressed), GOWASM=satconv,signext
// (no change).
//
// Timings (TestBrowserBudgets: seven cold loads, the HTTP cache disabled; judged only when the
// load is at most 1.5 per CPU). Before the light module, at load 0.85 per CPU: ready 343 ms
// median (runs 296-491, budget 300 ms), first lint 5.8 ms (budget 15 ms), a 320-line NeMo
// config linted in 2.0 ms. The cold start is compile (off the main thread), Go's start-up and
// package initialisation with the warm-up, the first lint and drawing its findings (about 25 ms,
// nearly all in CodeMirror's setDiagnostics). The module lints a small file of each format
// before it says it is ready, so the user's first lint does not pay for compiling the engine's
// functions (without that: first lint 29.5 ms and ready 390 ms). Starting Go from the head as
// soon as the module is compiled was tried and was slower (440 ms).
//
// With the light module (after merging main), at load 2.2 per CPU, so not judged: ready 318 ms
// median (runs 299-454), first lint 6.3 ms, the 320-line NeMo config in 1.5 ms; at 3.9 per CPU
// ready was 701 ms. Its code section is 28% smaller than the full module's, which is what the
// browser compiles before Go starts. No quiet-machine figure yet: run TestBrowserBudgets when
// `uptime` shows a load under 3 on this 2-core machine.
//
// Accessibility: axe-core 4.14.1 (TestBrowserAccessibility) finds no serious or critical
// violation on any of the 39 pages at 1280 and 390 px widths, nor on the checker with a file
// open.
//
// Nothing leaves the page after it loads: a Content-Security-Policy allows only same-origin
// resources. Permalinks carry the text in the fragment (#f=<name>&c=<base64url raw-DEFLATE>).
package site
