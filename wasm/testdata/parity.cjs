// Preloaded (NODE_OPTIONS=--require) into Go's own go_js_wasm_exec runner by the parity test:
// when the WebAssembly module announces itself, call globalThis.trainlint for every request in
// $PARITY_IN the way a page would and write the answers to $PARITY_OUT.
"use strict";
const fs = require("fs");

globalThis.trainlintReady = () => {
  const requests = JSON.parse(fs.readFileSync(process.env.PARITY_IN, "utf8"));
  const tl = globalThis.trainlint;
  const out = requests.map((req) => ({
    lintJSON: tl.lintJSON(JSON.stringify(req)),
    lint: JSON.stringify(tl.lint(req)),
    fix: JSON.stringify(tl.fix(req)),
  }));
  const rules = JSON.stringify(tl.rules());
  fs.writeFileSync(process.env.PARITY_OUT, JSON.stringify({ version: tl.version, rules, answers: out }));
  // go_js_wasm_exec treats a clean exit while Go still runs as a deadlock (the module keeps
  // running for the page on purpose), so drop its exit hook before leaving.
  process.removeAllListeners("exit");
  process.exit(0);
};
