package main

// The batch-norm defaults of OpenMMLab projects' registered backbones (extract_mmbackbones.py)
// render into a table of their own, in the format of knowledge.tsv: one section per registry
// name, rows norm_cfg (the normalisation layer the backbone builds when the config gives none)
// and norm_eval (whether it keeps its batch-norm layers in eval mode, their statistics frozen),
// each default as the source writes it:
//
//	python3 extract_mmbackbones.py mmpretrain GITDIR v1.0.2 v1.1.1 v1.2.0 > testdata/mmpretrain.json
//	python3 extract_mmbackbones.py mmpose GITDIR v1.0.0 v1.1.0 v1.2.0 v1.3.2 > testdata/mmpose.json
//	python3 extract_mmbackbones.py mmaction GITDIR v1.0.0 v1.1.0 v1.2.0 > testdata/mmaction.json
//	python3 extract_mmbackbones.py mmpose0 GITDIR v0.6.0 v0.7.0 ... v0.28.1 v0.29.0 > testdata/mmpose0.json
//	python3 extract_mmbackbones.py mmselfsup GITDIR v1.0.0 > testdata/mmselfsup.json
//
// (mmpose0 is MMPose 0.x, the MMCV 1.x line: the last release of each of its 23 minor versions
// from v0.6.0, read for configs whose train script calls mmpose.apis.train_model. MMSelfSup has
// one 1.x release, v1.0.0, its last before it moved into MMPretrain; its ResNet, derived from
// mmcls's, declares its own defaults.)
//
// GITDIR is open-mmlab/mmpretrain's (mmpose's, mmaction2's) git directory; the first argument is
// the project's registry scope, its configs' default_scope. The tags are the last release of
// every minor version of the 1.x line, the one MMEngine builds (mmpretrain's older releases were
// mmcls, a package of another name). No default read changes between these tags. The MMEngine
// dialect reads it to see batch norm in a backbone that writes no norm_cfg (mmpretrain's
// ResNet-50 configs), and whether a backbone freezes it by default; MMDetection's and
// MMSegmentation's backbones (norm_eval True for MMDetection's ResNet) are not in it (their
// repositories are too large to fetch here).
var openmmlabFiles = []string{"mmpretrain.json", "mmpose.json", "mmaction.json", "mmpose0.json", "mmselfsup.json"}

const openmmlabOut = "lint/dialect/knowledge_openmmlab.tsv"
