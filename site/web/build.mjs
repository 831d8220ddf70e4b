// Bundles the checker with esbuild (assets/checker.js, what the page runs before its first
// findings, and assets/checker-extra.js, what it loads once ready: src/extra.js) and reports sizes
// (raw, brotli quality 11, gzip level 6) as JSON on stdout, for the Go site builder to print and
// check against the budgets.
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
const extraBundle = join(outdir, "checker-extra.js");
// checker.js shares these packages with checker-extra.js through globalThis.trainlintShared: the
// extra bundle's imports of them read that object instead of a second copy, whose facets and
// classes the editor would not recognise. checker.js exports only the names the extra bundle
// imports (found by an ES module build of src/extra.js that leaves the packages external), so
// the rest of each package is still tree-shaken.
const shared = ["@codemirror/state", "@codemirror/view", "@codemirror/lint", "style-mod"];
const isShared = new RegExp(`^(${shared.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`);
const probe = await build({
  entryPoints: [join(here, "src", "extra.js")], bundle: true, format: "esm", external: shared, write: false, logLevel: "warning",
});
const uses = new Map(shared.map((p) => [p, new Set()]));
for (const m of probe.outputFiles[0].text.matchAll(/^import\s*([^;]*?)\s*from\s*"([^"]+)";/gm)) {
  const names = /^\{([^}]*)\}$/.exec(m[1]);
  if (!uses.has(m[2]) || !names) {
    console.error(`build.mjs: src/extra.js imports ${m[1]} from ${m[2]}: only named imports of ${shared.join(", ")} can be shared`);
    process.exit(1);
  }
  for (const n of names[1].split(",")) uses.get(m[2]).add(n.trim().split(/\s+as\s+/)[0]);
}
let exportsSource = "", table = "", k = 0;
for (const [pkg, names] of uses) {
  const local = [...names].sort().map((n) => [n, `s${k++}`]);
  exportsSource += `import { ${local.map(([n, l]) => `${n} as ${l}`).join(", ")} } from ${JSON.stringify(pkg)};\n`;
  table += `${JSON.stringify(pkg)}: { ${local.map(([n, l]) => `${n}: ${l}`).join(", ")} },\n`;
}
// "trainlint:shared", imported first by src/checker.js, fills globalThis.trainlintShared.
const provideShared = {
  name: "provide-shared",
  setup(b) {
    b.onResolve({ filter: /^trainlint:shared$/ }, (a) => ({ path: a.path, namespace: "provide-shared" }));
    b.onLoad({ filter: /.*/, namespace: "provide-shared" }, () => ({
      contents: exportsSource + `globalThis.trainlintShared = {\n${table}};\n`, loader: "js", resolveDir: here,
    }));
  },
};
const main = await build({
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
  metafile: true,
  plugins: [provideShared],
});
const useShared = {
  name: "shared",
  setup(b) {
    b.onResolve({ filter: isShared }, (a) => ({ path: a.path, namespace: "shared" }));
    b.onLoad({ filter: /.*/, namespace: "shared" }, (a) => ({
      contents: `module.exports = globalThis.trainlintShared[${JSON.stringify(a.path)}];`,
      loader: "js",
    }));
  },
};
// No compile hint: it is loaded after the checker is ready, when nothing waits for it.
const extra = await build({
  entryPoints: [join(here, "src", "extra.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  outfile: extraBundle,
  legalComments: "linked",
  plugins: [useShared],
  logLevel: "warning",
  metafile: true,
});
// Each package is in exactly one bundle: one in both would be two copies of its module state.
const packagesOf = (r) => new Set(Object.keys(r.metafile.inputs).map((p) => {
  const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(p);
  return m ? m[1] : "";
}).filter(Boolean));
const inMain = packagesOf(main), inExtra = packagesOf(extra);
const both = [...inExtra].filter((p) => inMain.has(p));
const unshared = shared.filter((p) => !inMain.has(p));
if (both.length || unshared.length) {
  console.error(`build.mjs: packages in both bundles: ${both.join(", ") || "none"}; shared but not in checker.js: ${unshared.join(", ") || "none"}`);
  process.exit(1);
}
const sizes = {};
for (const f of [bundle, extraBundle, ...measure]) {
  const b = readFileSync(f);
  sizes[f] = {
    raw: b.length,
    brotli: brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    // gzip at zlib's default level 6, what a server compressing on the fly (GitHub Pages) sends
    gzip: gzipSync(b).length,
  };
}
process.stdout.write(JSON.stringify(sizes));
