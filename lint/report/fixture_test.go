package report_test

import (
	"bytes"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/report"
	"github.com/trainlint/trainlint/rules"
)

// Rules as the catalogue will describe them: Markdown rationale with links and code spans, a
// playbook anchor, one rule off by default.
var (
	ruleEvalBatch = &lint.Rule{
		Code: "TL981", Name: "eval-batch-smaller-than-train", Title: "Eval batch is smaller than the train batch",
		Category: lint.CatEvaluation, Severity: lint.Warning, Anchor: "setting-up-periodic-evaluations",
		Rationale: "Evaluation holds no optimizer state, so it can run **at least** the train batch.\n\nA smaller `per_device_eval_batch_size` only makes\nevaluation slower; see [the playbook](https://github.com/google-research/tuning_playbook).",
		Fix:       "Set `per_device_eval_batch_size` to at least `per_device_train_batch_size`.",
	}
	ruleSeed = &lint.Rule{
		Code: "TL982", Name: "same-seed-every-host", Title: "Every host shuffles with the same seed",
		Category: lint.CatMultiHost, Severity: lint.Error, Anchor: "considerations-for-multi-host-pipelines",
		Rationale: "Hosts that share a data seed read the same examples.",
		Fix:       "Derive the data seed from the host index.",
	}
	// ruleDup is shaped like the catalogue's duplicate-key; test codes (TL98x) never collide with real rules.
	ruleDup = &lint.Rule{
		Code: "TL984", Name: "duplicate-key", Title: "A mapping repeats a key", Category: lint.CatStructure,
		Severity: lint.Error, Rationale: "Loaders keep the later value.", Fix: "Keep one occurrence.",
	}
	ruleNotes = &lint.Rule{
		Code: "TL983", Name: "no-run-notes", Title: "The run has no notes", Category: lint.CatTracking,
		Severity: lint.Info, Off: true, Rationale: "Notes say why a run exists.", Fix: "Add notes.",
	}
)

// fixtureRules is the catalogue passed to the formats: the real one plus the hand-made rules.
func fixtureRules() []*lint.Rule {
	return append(rules.All(), ruleEvalBatch, ruleSeed, ruleNotes, ruleDup)
}

// fixtureResult is a realistic multi-file result built by hand: every severity, related
// locations in the same and another file, a fix, a multi-line region, two identical findings
// (same file, rule and key), a finding with no key, a path with a space and non-ASCII text, and
// a clean file.
func fixtureResult() *lint.Result {
	res := lint.NewResult()
	res.Files = []lint.FileInfo{
		{Path: "configs/sft.yaml", Format: "yaml", Framework: "huggingface"},
		{Path: "configs/ds config.json", Format: "json", Framework: "deepspeed"},
		{Path: "configs/clean.toml", Format: "toml", Framework: "generic"},
		{Path: "./configs/näive.yaml", Format: "yaml", Framework: "generic"},
	}
	d := func(r *lint.Rule, file string, line, col, endLine, endCol int, key, msg string) lint.Diagnostic {
		return lint.Diagnostic{Code: r.Code, Rule: r.Name, Category: r.Category, Severity: r.Severity,
			File: file, Line: line, Column: col, EndLine: endLine, EndColumn: endCol, Key: key,
			Message: msg, Help: "fix it: see the rule page", URL: r.URL()}
	}
	eval := d(ruleEvalBatch, "configs/sft.yaml", 12, 29, 12, 30, "per_device_eval_batch_size",
		`per-device eval batch "4" is smaller than per-device train batch "16"`)
	eval.Related = []lint.Related{{File: "configs/sft.yaml", Line: 11, Column: 1, Message: "train batch set here"},
		{File: "configs/ds config.json", Line: 3, Column: 5, EndLine: 3, EndColumn: 27, Message: "deepspeed sets its own batch"}}
	eval.Fix = &lint.Fix{Applicability: lint.Safe, Message: "set per_device_eval_batch_size to 16",
		Edits: []lint.Edit{{File: "configs/sft.yaml", Line: 12, Column: 29, EndLine: 12, EndColumn: 30, NewText: "16"}}}
	seed1 := d(ruleSeed, "configs/sft.yaml", 20, 3, 22, 1, "data.seed", `seed "42" is the same on every host`)
	seed2 := d(ruleSeed, "configs/sft.yaml", 30, 3, 30, 10, "data.seed", `seed "42" is the same on every host`)
	notes := d(ruleNotes, "configs/ds config.json", 1, 1, 1, 2, "", "no notes, tags or description: 100% of runs are anonymous, a:b,c")
	dup := d(ruleDup, "./configs/näive.yaml", 4, 1, 4, 10, "optimizer.lr", "duplicate key \"lr\"\nfirst at line 2")
	dup.Related = []lint.Related{{File: "./configs/näive.yaml", Line: 2, Column: 1, Message: "first set here"}}
	// A fix that removes text (empty replacement).
	dup.Fix = &lint.Fix{Applicability: lint.Unsafe, Message: "remove the first lr",
		Edits: []lint.Edit{{File: "./configs/näive.yaml", Line: 2, Column: 1, EndLine: 3, EndColumn: 1}}}
	res.Diagnostics = []lint.Diagnostic{eval, seed1, seed2, notes, dup}
	lint.SortDiagnostics(res.Diagnostics)
	return res
}

// realResult lints real bytes with the real catalogue: a YAML file with a duplicate key and one
// that does not parse.
func realResult() (*lint.Result, map[string][]byte) {
	src := map[string][]byte{
		"train/dup.yaml":    []byte("model: gpt2\nlearning_rate: 1e-4\nbatch_size: 8\nlearning_rate: 3e-4\n"),
		"train/broken.yaml": []byte("model: [gpt2\nlr: 1\n"),
		"train/ok.yaml":     []byte("model: gpt2\n"),
	}
	var files []lint.File
	for _, p := range []string{"train/broken.yaml", "train/dup.yaml", "train/ok.yaml"} {
		files = append(files, lint.File{Path: p, Text: src[p]})
	}
	return lint.Lint(files, rules.All(), lint.Options{}), src
}

func render(t *testing.T, format string, res *lint.Result, o report.Options) []byte {
	t.Helper()
	w, ok := report.Get(format)
	if !ok {
		t.Fatalf("format %q not registered (have %v)", format, report.Names())
	}
	var b bytes.Buffer
	if err := w(&b, res, o); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return b.Bytes()
}
