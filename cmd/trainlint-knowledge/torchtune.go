package main

// torchtune's recipe components (extract_torchtune.py) render into a table of their own, in the
// format of knowledge.tsv: one section per `_component_` path whose callable takes no **kwargs,
// one row per keyword it accepts (default "@required" when it has none), an "@closed" row (a
// builder may take no keyword at all), and per required parameter an "@required:<path>" row
// holding what Python says when a call lacks it, with the versions that require it.
//
//	python3 extract_torchtune.py GITDIR \
//	    v0.4.0 v0.5.0 v0.6.0 v0.6.1 bd2a0fc=v0.7.0-bd2a0fc > testdata/torchtune.json
//
// The components are every torchtune.* `_component_` path torchtune's own recipe configs
// (recipes/configs/**.yaml) name at each tag: 122 closed components, a table of 132 KB
// (6.7 KB more gzip in the light WebAssembly module than the first version's). A first version held only the 37 the shared
// corpus's configs name (36 KB); that fitted the table to our test configs, and a user's config
// for another model family would have gone unchecked. GITDIR is pytorch/torchtune's git
// directory. The last three minor releases are read, and bd2a0fc, the commit the shared corpus
// was taken from (main after 0.6.1, whose version.txt says 0.7.0, never released), under the
// name v0.7.0-bd2a0fc, so that a config written for main is judged by main's signatures.
//
// Measured (this table): lint/testdata/mutants.tsv has 26 torchtune edits of two corpus configs
// (15 that the builders refuse, four of them by version: keep_last_n_checkpoints and hpu are
// main's, should_load_recipe_state came in 0.6.0; and 11 valid ones, among them keys of open
// callables): all 15 are reported, no valid one is; the corpus gains no finding. The WebAssembly
// module (make wasm, the light module) went from 7,062,105 to 7,155,042 bytes raw and from
// 1,396,625 to 1,411,203 gzip -6 with this session's three parts together (TRL's defaults,
// llm-foundry's EvalConfig and eval checks, torchtune's table and checks: the tables' text is
// about 4.5 KB of that gzip, the rest their code); the site's browser test then measured the
// module at 1,018,136 bytes brotli and 1,405,811 gzip, under its ceilings, over its budgets
// (met after the session's other size work; site/doc.go). The mutant and corpus results are the
// same with the full table.
var torchtuneFiles = []string{"torchtune.json"}

const torchtuneOut = "lint/dialect/knowledge_torchtune.tsv"
