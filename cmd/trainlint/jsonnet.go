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

// json5Load is a JSON5 reader loading a file: `json5.load(f)`, `pyjson5.load(f)`, or its load
// imported by name (parlance-zz/dualdiffusion's src/utils/config.py: `from pyjson5 import load
// as json5_load`, which load_config calls on every config file). JSON5 takes comments,
// trailing commas, unquoted keys and single quotes, which trainlint does not read. json5.loads
// of a string is no such evidence: agent repositories parse a model's tool call with it.
var json5Load = regexp.MustCompile(`(?m)\b(?:py)?json5\.load\(|^[ \t]*from[ \t]+(?:py)?json5[ \t]+import[ \t][^\n]*\bload\b`)

// relaxedJSON says which reader other than Python's json the repository of the file at p reads
// its .json files with, for a parse error's note: "" for none.
func relaxedJSON(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	root := repoRoot(filepath.Dir(abs))
	if root == "" {
		return ""
	}
	switch at := repoPythonOf(root); {
	case at.jsonnet:
		return "the repository imports AllenNLP, which reads .json configs as Jsonnet: this may be Jsonnet, which trainlint does not read"
	case at.json5:
		return "the repository reads files with a JSON5 reader (json5, pyjson5): this may be JSON5, which trainlint does not read"
	}
	return ""
}

// jsonnetJSON reports a walked .json file that Python's json refuses in a repository that reads
// its .json configs through Jsonnet or JSON5: skipped quietly. Named, it is reported
// (jsonnetNote).
func jsonnetJSON(in input, text []byte, lim doc.Limits) bool {
	if f, _ := doc.FormatFromPath(in.Path); f != doc.JSON || in.Stdin || relaxedJSON(in.FSPath) == "" {
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
// Jsonnet or JSON5.
func jsonnetNote(in input, diags []lint.Diagnostic) {
	if in.Stdin || !strings.EqualFold(filepath.Ext(in.Path), ".json") {
		return
	}
	checked, note := false, ""
	for i := range diags {
		if diags[i].Code != "TL001" {
			continue
		}
		if !checked {
			checked, note = true, relaxedJSON(in.FSPath)
		}
		if note == "" {
			return
		}
		diags[i].Message += "; " + note
	}
}
