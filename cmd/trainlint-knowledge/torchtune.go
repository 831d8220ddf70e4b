package main

// torchtune's recipe components (extract_torchtune.py) render into a table of their own, in the
// format of knowledge.tsv: one section per `_component_` path whose callable takes no **kwargs,
// one row per keyword it accepts (default "@required" when it has none), an "@closed" row (a
// builder may take no keyword at all), and per required parameter an "@required:<path>" row
// holding what Python says when a call lacks it, with the versions that require it.
//
//	python3 extract_torchtune.py GITDIR v0.4.0 v0.5.0 v0.6.0 v0.6.1 bd2a0fc=v0.7.0-bd2a0fc > testdata/torchtune.json
//
// GITDIR is pytorch/torchtune's git directory. The last three minor releases are read, and
// bd2a0fc, the commit the shared corpus was taken from (main after 0.6.1, whose version.txt says
// 0.7.0, never released), under the name v0.7.0-bd2a0fc, so that a config written for main is
// judged by main's signatures.
var torchtuneFiles = []string{"torchtune.json"}

const torchtuneOut = "lint/dialect/knowledge_torchtune.tsv"
