package main

// NeMo's exp_manager extraction (extract_nemo.py) renders into a table of its own, in the
// format of knowledge.tsv:
//
//	python3 extract_nemo.py GITDIR v1.20.0 v1.21.0 v1.22.0 v1.23.0 v2.0.0 v2.1.0 v2.2.1 v2.3.2 v2.4.0 v2.5.0rc0 > testdata/nemo.json
//
// GITDIR is NVIDIA/NeMo's git directory; v2.5.0rc0 is its newest tag there (commit 8cfedd7,
// which the dialect's facts were checked at, adds IPLEpochStopperParams and two fields that no
// release tag has yet: left out, so the rule stays silent about them).
var nemoFiles = []string{"nemo.json"}

const nemoOut = "lint/dialect/knowledge_nemo.tsv"
