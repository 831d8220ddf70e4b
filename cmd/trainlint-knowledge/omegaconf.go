package main

// The configuration dataclasses that NeMo's exp_manager and llm-foundry's train script check an
// OmegaConf file against (extract_omegaconf.py) render into a table of their own, in the format
// of knowledge.tsv:
//
//	python3 extract_omegaconf.py nemo-toolkit GITDIR v1.20.0 v1.21.0 v1.22.0 v1.23.0 v2.0.0 v2.1.0 v2.2.1 v2.3.2 v2.4.0 v2.5.0rc0 > testdata/nemo.json
//	python3 extract_omegaconf.py llm-foundry GITDIR v0.10.0 v0.11.0 ... v0.21.0 > testdata/llm-foundry.json (every minor release)
//
// GITDIR is NVIDIA/NeMo's (or mosaicml/llm-foundry's) git directory. v2.5.0rc0 is NeMo's newest
// tag there (commit 8cfedd7, which the NeMo dialect's facts were checked at, adds
// IPLEpochStopperParams and two fields no release tag has yet: left out, so the rule stays
// silent about them). llm-foundry checks its top-level keys from v0.10.0: the train script's
// against TrainConfig, the eval script's against EvalConfig, with the keys its allow_toplevel_keys
// transform (from v0.11.0) moves into the models list as the pseudo-class EvalConfig@toplevel,
// and icl_tasks as "EvalConfig@required" at the tags whose eval script passes
// icl_tasks_required=True (v0.10, v0.11).
//
// Measured (this table): lint/testdata/mutants.tsv has 30 NeMo edits of corpus configs (20 that
// exp_manager refuses, among them two keys newer than a pinned version, and 10 valid ones) and 44
// llm-foundry edits (27 refused, 17 valid; 17 of them on the eval YAMLs hf_eval.yaml and
// mcli-1b-eval.yaml, two caught only by the eval script's start-up checks: model with models,
// model without a tokenizer): all 20 NeMo refusals and all 27 llm-foundry ones are reported, and
// no valid edit is (before EvalConfig was read, eval files were not checked: 17 of 18). The
// corpus gains one finding, which llm-foundry agrees with at every version read:
// 1b_local_data_sft.yaml's top-level "dataset" (a YAML anchor) is not a TrainConfig field. The
// table is 18,602 bytes (2.9 KB gzip); the WebAssembly module went from 9,269,832 to 9,299,038
// bytes raw and from 1,324,192 to 1,325,801 brotli (quality 11, node's zlib), +1.6 KB.
var omegaconfFiles = []string{"nemo.json", "llm-foundry.json"}

const omegaconfOut = "lint/dialect/knowledge_omegaconf.tsv"
