package main

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
)

// allennlpImport is a module-level import of AllenNLP (`from allennlp.models import Model`,
// `import allennlp`): the module runs with AllenNLP installed. An indented one (flair's
// embeddings/legacy.py imports allennlp.commands.elmo inside a method) is an optional use and
// not matched.
var allennlpImport = regexp.MustCompile(`(?m)^(?:from|import)[ \t]+allennlp(?:[ \t.]|$)`)

// AllenNLP reads every params file through Jsonnet, whatever its name says:
// Params.from_file runs `file_dict = json.loads(evaluate_file(params_file,
// ext_vars=ext_vars))` with evaluate_file from _jsonnet (allenai/allennlp
// allennlp/common/params.py:462 at v0.8.4 and v2.10.1; `allennlp train` reads its config so,
// allennlp/commands/train.py:154 at v0.8.4, :176 at v2.10.1). Its projects' .json configs
// hold Jsonnet (allenai/scibert's allennlp_config/*.json: std.extVar, // comments, single
// quotes, trailing commas), which trainlint does not read. A repository whose Python imports
// AllenNLP at module level (repoPython.jsonnet) is taken to read its .json configs so; a
// _jsonnet import alone says nothing about which files it evaluates.

// readsJsonnet reports whether the repository of the file at p imports AllenNLP.
func readsJsonnet(p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	root := repoRoot(filepath.Dir(abs))
	return root != "" && repoPythonOf(root).jsonnet
}

// jsonnetJSON reports a walked .json file that Python's json refuses in a repository that reads
// its .json configs through Jsonnet: skipped quietly. Named, it is reported (jsonnetNote).
func jsonnetJSON(in input, text []byte, lim doc.Limits) bool {
	if f, _ := doc.FormatFromPath(in.Path); f != doc.JSON || in.Stdin || !readsJsonnet(in.FSPath) {
		return false
	}
	for _, p := range doc.Parse(in.Path, text, doc.JSON, lim).Problems {
		if p.Kind == doc.Syntax || p.Kind == doc.NonStandard {
			return true
		}
	}
	return false
}

// jsonnetNote adds to the parse errors of a .json file in such a repository that it may be
// Jsonnet.
func jsonnetNote(in input, diags []lint.Diagnostic) {
	if in.Stdin || !strings.EqualFold(filepath.Ext(in.Path), ".json") {
		return
	}
	checked, reads := false, false
	for i := range diags {
		if diags[i].Code != "TL001" {
			continue
		}
		if !checked {
			checked, reads = true, readsJsonnet(in.FSPath)
		}
		if !reads {
			return
		}
		diags[i].Message += "; the repository imports AllenNLP, which reads .json configs as Jsonnet: this may be Jsonnet, which trainlint does not read"
	}
}
