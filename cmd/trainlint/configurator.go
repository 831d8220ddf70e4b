package main

import (
	"path"
	"regexp"
	"strings"
)

// Config files a training script execs into its own globals. nanoGPT's train.py assigns its
// defaults at the top level and then runs `exec(open('configurator.py').read())`
// (karpathy/nanoGPT @3adf61e, train.py:35-77); configurator.py execs every file named on the
// command line without "=" into the same globals (`exec(open(config_file).read())` for each of
// sys.argv[1:], configurator.py:20-28), so `python train.py config/train_gpt2.py` runs with the
// file's assignments in place of the defaults. Such a file has no _base_, no get_config and no
// dict: a folder walk lints it only where the repository's Python shows this (execScan) and
// the file reads as one (doc.IsExecConfig).

// scriptExec is a script's top-level exec of a file named by a string literal:
// `exec(open('configurator.py').read())`.
var scriptExec = regexp.MustCompile(`(?m)^exec\(\s*open\(\s*['"]([^'"\n]+\.py)['"]\s*\)\.read\(\)\s*\)`)

// argvExec is a configurator's exec of a file whose name is in a variable (one of sys.argv's):
// `exec(open(config_file).read())`.
var argvExec = regexp.MustCompile(`exec\(\s*open\(\s*[A-Za-z_][A-Za-z0-9_]*\s*\)\.read\(\)\s*\)`)

// topAssign is a top-level assignment to a plain name: `batch_size = 12`, `compile: bool = True`.
var topAssign = regexp.MustCompile(`(?m)^([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::[^=\n]*)?=[^=]`)

// execScan collects, over a repository's Python files, the configurators (files that exec the
// files named on their command line) and the scripts that exec a file at their top level.
type execScan struct {
	configurators map[string]bool // base names of configurators
	scripts       []execScript
}

type execScript struct {
	execs string          // base name of the file it execs
	names map[string]bool // the names it assigns at its top level before the exec
}

// read reads one Python file (its base name and text).
func (s *execScan) read(name, text string) {
	if strings.Contains(text, "sys.argv") && argvExec.MatchString(text) {
		if s.configurators == nil {
			s.configurators = map[string]bool{}
		}
		s.configurators[name] = true
	}
	if !trainScriptName(name) {
		return
	}
	m := scriptExec.FindStringSubmatchIndex(text)
	if m == nil {
		return
	}
	names := map[string]bool{}
	for _, a := range topAssign.FindAllStringSubmatch(text[:m[0]], -1) {
		names[a[1]] = true
	}
	s.scripts = append(s.scripts, execScript{execs: path.Base(strings.ReplaceAll(text[m[2]:m[3]], `\`, "/")), names: names})
}

// globals are the names the training scripts that exec a configurator assign before they do,
// nil when none does (lint.Options.ExecGlobals).
func (s *execScan) globals() map[string]bool {
	var out map[string]bool
	for _, sc := range s.scripts {
		if !s.configurators[sc.execs] {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		for n := range sc.names {
			out[n] = true
		}
	}
	return out
}

// trainScriptName reports a script whose file name says it trains: a part of it (cut at '_',
// '-' and '.') starts with "train" (train.py, train_muon.py, slimpj_train_2.py). nanoGPT's
// sample.py and bench.py exec configurator.py too, but sample and benchmark; their settings
// are not a training run's.
func trainScriptName(name string) bool {
	for _, part := range strings.FieldsFunc(strings.TrimSuffix(name, ".py"), func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		if strings.HasPrefix(strings.ToLower(part), "train") {
			return true
		}
	}
	return false
}
