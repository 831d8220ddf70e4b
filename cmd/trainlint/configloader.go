package main

import (
	"regexp"
	"strings"
)

// Configs in MMEngine's Python format that neither MMEngine's nor MMCV's Config reads.
// LutingWang/OADP writes its configs with `_base_` lists, and its scripts read them with
// todd.Config.load (oadp/dp/train.py:21 `parser.add_argument('config', type=todd.Config.load)`),
// which merges each base into the one before it recursively and refuses nothing (todd v0.3.0
// todd/base/configs.py:114-121 load, :199-209 update); mmcv only gets the merged dict. What
// Config.fromfile refuses while it merges bases (a key two bases set, a base that is not there)
// says nothing about such a loader. MMEngine's Config (mmengine v0.10.7 config/config.py) and
// MMCV 1.x's (mmcv v1.7.2 utils/config.py) read a file with fromfile (fromstring writes the text
// to a file for it) and have no load, so a Config.load names another package's loader. The scan
// (loaderUses) notes whether a script reads with a Config.load, and whether any Python file of
// the repository, tests and copies of the frameworks included, calls fromfile, fromstring or
// _file2dict (EasyVolcap's own copy of MMEngine's config.py does): only a repository that reads
// with the first and never the others is marked (lint.Options.OtherConfigLoader).

var (
	// otherLoaderRE: a Config class's load (todd.Config.load, Config.load(path), and todd's
	// later PyConfig.load: magic-research/vector_quantization's vq/fid.py, whose todd
	// (todd/configs/serialize.py) merges bases with a recursive update, as Config.load did).
	otherLoaderRE = regexp.MustCompile(`\b(?:Py)?Config\.load\b`)
	// mmLoaderRE: the ways into MMEngine's or MMCV's config reader (or a copy of it).
	mmLoaderRE = regexp.MustCompile(`\bfromfile\b|\bfromstring\b|\b_file2dict\b`)
)

// loaderScan is what loaderUses found over a repository's Python files.
type loaderScan struct {
	other, mm bool
}

// loaderUses notes whether text, a script's when script is true, reads a config with another
// package's Config.load, and whether it calls MMEngine's or MMCV's reader.
// The regular expressions run only on a file that holds their words: the scan reads every
// Python file of the repository, and "file" or "string" stand in nearly all of them.
func loaderUses(text string, script bool, l *loaderScan) {
	if script && !l.other && strings.Contains(text, "Config.load") && otherLoaderRE.MatchString(text) {
		l.other = true
	}
	if !l.mm && (strings.Contains(text, "fromfile") || strings.Contains(text, "fromstring") || strings.Contains(text, "_file2dict")) && mmLoaderRE.MatchString(text) {
		l.mm = true
	}
}

// otherLoader reports a repository whose scripts read configs with another package's
// Config.load and never with MMEngine's or MMCV's.
func (l *loaderScan) otherLoader() bool { return l.other && !l.mm }
