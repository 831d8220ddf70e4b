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
// silent about them). llm-foundry checks its top-level keys from v0.10.0 (TrainConfig).
var omegaconfFiles = []string{"nemo.json", "llm-foundry.json"}

const omegaconfOut = "lint/dialect/knowledge_omegaconf.tsv"
