// A worker that lints a small config once with the page's compiled module, then ends. Browsers
// compile a WebAssembly function the first time it is called, on the calling thread; the module
// is shared, so doing that here, in parallel with the page loading its editor, leaves the page's
// first lint (and the Go start-up) with most functions already compiled. Nothing is reported.
"use strict";
self.onmessage = function (e) {
  importScripts(e.data.loader);
  var go = new self.Go();
  self.trainlintReady = function () {
    setTimeout(function () {
      try {
        self.trainlint.lint({
          files: [{
            path: "config.yaml",
            text: "# warm-up\noutput_dir: out\nnum_train_epochs: 3\nlearning_rate: 2.0e-5\nper_device_train_batch_size: 16\n" +
              "per_device_eval_batch_size: 4\neval_strategy: steps\neval_steps: 500\nsave_steps: 500\nseed: 42\n",
          }],
          options: { hosts: 2, devicesPerHost: 8 },
        });
      } finally {
        self.close();
      }
    }, 0);
  };
  WebAssembly.instantiate(e.data.module, go.importObject).then(function (inst) { go.run(inst); }, function () { self.close(); });
};
