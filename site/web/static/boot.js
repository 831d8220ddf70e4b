// Starts downloading and compiling the checker's WebAssembly module as soon as the page's head
// is parsed, so compilation overlaps loading the editor bundle. checker.js instantiates it.
(function () {
  "use strict";
  var me = document.currentScript;
  globalThis.trainlintBoot = { startMs: performance.now() };
  globalThis.trainlintBoot.module = WebAssembly.compileStreaming(fetch(me.dataset.wasm)).then(function (m) {
    globalThis.trainlintBoot.compiledMs = performance.now();
    return m;
  });
})();
