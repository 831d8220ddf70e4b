// Bundles the checker with esbuild and reports sizes (raw, brotli quality 11, gzip level 6) as JSON on
// stdout, for the Go site builder to print and check against the budgets.
// usage: node build.mjs OUTDIR [FILE_TO_MEASURE...]
import { build } from "esbuild";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [outdir, ...measure] = process.argv.slice(2);
if (!outdir) {
  console.error("usage: node build.mjs OUTDIR [FILE...]");
  process.exit(2);
}
const bundle = join(outdir, "checker.js");
await build({
  entryPoints: [join(here, "src", "checker.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  outfile: bundle,
  legalComments: "linked",
  // The magic comment first (V8's explicit compile hints, Chromium 136 and later): every function
  // of the bundle is compiled while the script streams in, on a background thread, instead of
  // on the main thread at its first call (about 30 ms of the start-up; site/doc.go, Timings).
  // Then when the bundle starts running (before CodeMirror's modules initialise): trainlintPerf's
  // bundleStartMs, to split the checker's start-up.
  banner: { js: "//# allFunctionsCalledOnLoad\nglobalThis.trainlintBundleStartMs=performance.now();" },
  logLevel: "warning",
});
const sizes = {};
for (const f of [bundle, ...measure]) {
  const b = readFileSync(f);
  sizes[f] = {
    raw: b.length,
    brotli: brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    // gzip at zlib's default level 6, what a server compressing on the fly (GitHub Pages) sends
    gzip: gzipSync(b).length,
  };
}
process.stdout.write(JSON.stringify(sizes));
