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
// # Budgets
//
// The checker's budgets are measured by the build (`make site` prints the sizes; the module
// must stay under WASMBrotliBudget) and by TestBrowserChecker in headless Chromium on localhost
// (it logs the timings). Recorded on the project's 2-core machine on 2026-11-30, 8 runs:
//   - WASM at most 1.2 MB brotli: 1,144,731 bytes (6.5 MB raw); checker.js 108,697 bytes brotli.
//     Met.
//   - Checker ready within 400 ms of load: median 355 ms (312–418 ms over 8 first loads;
//     133–142 ms on a second page, module cached). Met at the median; 2 of 8 runs went over on
//     the shared machine.
//   - One lint of a 300-line config under 2 ms in the page: 1.4–1.6 ms, median of 200 lints
//     (320-line NeMo config); 3.0–3.2 ms before the direct YAML reader. Met.
//
// The first lint after the page loads takes 31–56 ms: V8 compiles the module's functions the
// first time they run. Every later lint takes about 1.5 ms.
//
// Nothing leaves the page after it loads: a Content-Security-Policy allows only same-origin
// resources. Permalinks carry the text in the fragment (#f=<name>&c=<base64url raw-DEFLATE>).
package site
