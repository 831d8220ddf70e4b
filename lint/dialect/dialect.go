// Package dialect knows how each training framework spells the settings trainlint cares about.
// A Dialect is a value: it scores how likely a Document belongs to its framework (Detect) and
// normalises it into a plan.Plan (Normalize), filling in the framework's defaults for keys
// nobody wrote down. Adding a framework is one file here plus its testdata.
package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Context is what the launch supplies that the file may not state.
type Context struct {
	Hosts          int // 0 = unknown
	DevicesPerHost int // 0 = unknown
	// Mapping teaches the generic dialect a team's own key names: concept → dotted key path
	// (e.g. "eval.interval_seconds" → "trainer.eval_every_secs"). See the config file's [mapping].
	Mapping map[string]string
}

// Key documents one key a dialect reads: the site's framework pages, `trainlint schema` and the
// unknown-key rule are built from these.
type Key struct {
	Path    string // dotted path as written in the file ("trainer.sync_batchnorm"); "[]" marks list items
	Type    string // JSON-Schema-like: "integer", "number", "string", "boolean", "object", "array", or a union "integer|string"
	Default string // the framework's default as text ("8", "false", "none"); "" when there is none
	Concept string // the plan field it feeds ("eval.per_device_batch", "seeds.init", ...)
	Doc     string // one line: what it means
	Enum    []string
	// Deprecated names the replacement key when this spelling was renamed.
	Deprecated string
}

// Dialect is one framework's reader.
type Dialect struct {
	Name  string // framework id used in output: huggingface, axolotl, llama-factory, lightning, nemo, deepspeed, torchtune, composer, generic
	Title string // human name: "Hugging Face Trainer"
	// Version is the framework version the keys and defaults were checked against, with the
	// source ("transformers 4.57.1, src/transformers/training_args.py").
	Version string
	Formats []doc.Format
	// Detect scores the evidence that d belongs to this framework: 0 = none; 100 = certain.
	// Strong evidence (a key only this framework has) scores ≥ 50; weak hits add up.
	Detect func(d *doc.Document) int
	// Fallback marks a dialect consulted only when no other dialect claims a file (no score
	// reaches MinScore): a framework whose files carry no key of their own, recognised by their
	// shape (torchtitan's sections, NeoX's Megatron keys). Its Detect still says how sure it is;
	// the highest score among the fallbacks wins, and the generic dialect reads the rest.
	Fallback bool
	// Normalize builds the plan. It must never panic on odd shapes (wrong types, nulls,
	// interpolations): unknown values leave facts Unknown.
	Normalize func(d *doc.Document, ctx Context) *plan.Plan
	// Keys are the keys this dialect reads, with defaults.
	Keys []Key
}

// MinScore is the least score that claims a file; below it the generic dialect reads it.
const MinScore = 30
