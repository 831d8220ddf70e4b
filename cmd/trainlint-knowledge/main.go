// Command trainlint-knowledge renders the framework knowledge extracted from the frameworks' own
// source into lint/dialect/knowledge.tsv, the compact table the engine embeds.
//
// Two steps, so that CI needs neither the frameworks' repositories nor Python:
//
//  1. extract.py (Python's ast module; generator only) reads each framework's git directory at
//     release tags and writes the intermediate extraction, committed as testdata/<framework>.json:
//     python3 extract.py trl GITDIR v0.19.0 v0.20.0 ... v1.9.0 > testdata/trl.json (every minor release)
//     (SFT, DPO, GRPO, KTO, ORPO, Reward and PPO configs, ModelConfig, ScriptArguments; a
//     TrainingArguments field a TRL class redeclares is also rendered as an "@default:<Class>"
//     row, one per value with its range, holding what the run gets when the file leaves it out:
//     the declared default, or what __post_init__ puts in place of None, e.g. bf16 "not fp16")
//     (extract_finetune.py does the same for axolotl's pydantic schema and LLaMA-Factory's
//     hparams dataclasses, with enum values and validators' start-up refusals, rendered into
//     their own table lint/dialect/knowledge_finetune.tsv: finetune.go)
//  2. this command renders those files into the table, merging the tags into version ranges:
//     go run ./cmd/trainlint-knowledge (from the repository root).
//
// TestTableUpToDate fails when the committed table is not what step 2 renders.
//
// transformers: huggingface/transformers is too large to fetch here (1.33 GB), so its tags were
// read from a fork that carries the upstream release tags (github 8b-is/transformers; each tag's
// src/transformers/__init__.py says the version, and the commit is the upstream "Release: vX"
// commit): the first and the last release of every minor version from v4.40.0 to v5.15.0
// (v5.10.1 for 5.10, which has no .0 tag), 57 tags: patch releases do change arguments
// (average_tokens_across_devices arrived in v4.46.3), so a pinned patch between two tags read is
// judged by both. Read: TrainingArguments' fields (default, annotation, deprecation from the help text
// and the replacement it names), Seq2SeqTrainingArguments' own fields (the generation settings
// LLaMA-Factory's parser accepts), the values of each field that __post_init__ converts to an enum
// (SchedulerType, OptimizerNames, IntervalStrategy, SaveStrategy, HubStrategy, DebugOption,
// FSDPOption) or that declares choices (log_level through trainer_log_levels, which adds
// "passive" to utils/logging.py's log_levels). Releases after v5.15.0 (PyPI has 5.23) were not
// available in source: the table says nothing about them, and a target newer than the newest tag
// read is linted as that tag.
//
//	python3 extract.py transformers GITDIR v4.40.0 v4.40.2 v4.41.0 ... v5.14.1 v5.15.0 > testdata/transformers.json
//
// alignment-handbook: the dataclasses of src/alignment/configs.py (its script arguments and
// the TRL configs it extends, e.g. with chat_template) at its three release tags and at 925acdf,
// the commit the shared corpus was taken from (it has no later tag):
//
//	python3 extract.py alignment-handbook GITDIR v0.1.0 v0.2.0 v0.3.0 925acdf > testdata/alignment-handbook.json
//
// # Measured (HF and TRL, this table)
//
// lint/testdata/mutants.tsv holds 79 labelled edits of real recipes from the shared corpus
// (alignment-handbook, TRL's CLI example) for Hugging Face/TRL, each labelled from the source at
// a named release: misspelt keys, keys removed at the target version, enum values by version
// (optim, lr_scheduler_type, debug, log_level, the strategies), wrong types and start-up
// contradictions. 59 of the 60 edits the frameworks refuse, ignore or no longer have are reported
// (98%; the one missed is eval_batch_size for per_device_eval_batch_size, a tie with the removed
// per_gpu_eval_batch_size), and none of the 19 valid edits is (TestMutants). At the versions
// its repositories pin the corpus gets no structure finding; at the newest, alignment-handbook's
// overwrite_output_dir (gone in transformers 5.0) and warmup_ratio (gone in 5.15) are reported,
// since its setup.py asks for transformers>=4.53.3 (TestKeyRulesOnCorpus). The table is 77,733
// bytes (10.6 KB gzip; 39,359 before transformers, alignment-handbook and every TRL minor were
// added); the WebAssembly module went from 1,176,660 to 1,195,760 bytes brotli (quality 11;
// +19.1 KB) and from 8,206,274 to 8,354,958 raw, most of it the start-up checks' code rather
// than the table.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

type field struct {
	Name    string `json:"name"`
	Line    int    `json:"line"`
	Default string `json:"default"`
	// Derived is what __post_init__ puts in place of a None default (TRL's bf16: "not fp16").
	Derived string `json:"derived"`
	// Missing is what Python says when a call lacks this required parameter (torchtune's
	// builders), rendered as an "@required:<section>" row.
	Missing     string `json:"callee"`
	Alias       string `json:"alias"`
	Deprecated  bool   `json:"deprecated"`
	Replacement string `json:"replacement"`
	File        string `json:"file"` // where the field is declared (a base class's file); the class's when empty
	// Enum is the closed set of values the field's type allows (extract_finetune.py; rendered as
	// an "@enum" row whose default cell is the values joined by "|").
	Enum []string `json:"enum"`
}

// check is a start-up refusal read from a validator (extract_finetune.py): the condition on
// the file's keys (see lint/dialect's EvalCond), in words, and the framework's message. Rendered
// as an "@check" row: key = validator name + "#" + condition, default = condition + " " + words,
// replacement = message.
type check struct {
	Name    string `json:"name"`
	Cond    string `json:"cond"`
	Words   string `json:"words"` // the condition said in words, for messages
	Message string `json:"message"`
	File    string `json:"file"`
	Line    int    `json:"line"`
}

type class struct {
	Class   string  `json:"class"`
	Section string  `json:"section"`
	File    string  `json:"file"`
	Line    int     `json:"line"`
	Fields  []field `json:"fields"`
}

type topKey struct {
	Name string `json:"name"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// enum is the values a field accepts at one tag (transformers: the enum class its annotation
// names, or its choices), rendered as the section "<Class>:<field>" with one row per value.
type enum struct {
	Section string   `json:"section"`
	Values  []string `json:"values"`
	File    string   `json:"file"`
	Line    int      `json:"line"`
}

type tagEntry struct {
	Tag      string   `json:"tag"`
	Classes  []class  `json:"classes"`
	Enums    []enum   `json:"enums"`
	TopLevel []topKey `json:"toplevel"`
	Checks   []check  `json:"checks"`
	Extra    *struct {
		Policy string `json:"policy"`
		File   string `json:"file"`
		Line   int    `json:"line"`
	} `json:"extra"`
}

type extraction struct {
	Framework string     `json:"framework"`
	Tags      []tagEntry `json:"tags"`
}

// row is one key of one section over the tags: where it was last seen and when it came and went.
type row struct {
	section, key, def, repl, prov string
	first, last                   int
	deprecated                    bool
}

// render turns the extractions into the table's text.
func render(exs []extraction) string {
	var b strings.Builder
	b.WriteString("# Generated by cmd/trainlint-knowledge from its testdata/*.json; DO NOT EDIT.\n")
	b.WriteString("# framework\tsection\tkey\tdefault\tsince\tremoved\treplacement\tprovenance (file:line@newest tag seen; file@tag where lint never reads the line: testdata/*.json has every line)\n")
	trainerFields := map[string]bool{}
	for _, ex := range exs {
		if ex.Framework != "transformers" {
			continue
		}
		for _, t := range ex.Tags {
			for _, c := range t.Classes {
				for _, f := range c.Fields {
					trainerFields[f.Name] = true
				}
			}
		}
	}
	for _, ex := range exs {
		var tags []string
		for _, t := range ex.Tags {
			tags = append(tags, t.Tag)
		}
		fmt.Fprintf(&b, "@tags\t%s\t%s\n", ex.Framework, strings.Join(tags, " "))
		prov := tableProv
		if slices.Contains(openmmlabFiles, ex.Framework+".json") {
			// The backbones' norm_cfg rows are read for their source (mmbackbones.go), and
			// their table is only in the full module.
			prov = func(_, p string) string { return p }
		}
		rows := map[string]*row{}
		var order []string
		see := func(i int, section, key, def, repl, prov string, dep bool) {
			id := section + "\x00" + key
			if strings.HasPrefix(section, "@default:") {
				id += "\x00" + def // one row per value, each with its own range
			}
			r := rows[id]
			if r == nil {
				r = &row{section: section, key: key, first: i}
				rows[id] = r
				order = append(order, id)
			}
			r.last, r.def, r.repl, r.prov, r.deprecated = i, def, repl, prov, dep
		}
		for i, t := range ex.Tags {
			if t.Extra != nil {
				see(i, "", "@extra", t.Extra.Policy, "", fmt.Sprintf("%s:%d@%s", t.Extra.File, t.Extra.Line, t.Tag), false)
			}
			for _, k := range t.TopLevel {
				see(i, "", k.Name, "", "", fmt.Sprintf("%s:%d@%s", k.File, k.Line, t.Tag), false)
			}
			for _, e := range t.Enums {
				for _, v := range e.Values {
					see(i, e.Section, v, "", "", fmt.Sprintf("%s:%d@%s", e.File, e.Line, t.Tag), false)
				}
			}
			for _, c := range t.Checks {
				// The message sits in the replacement cell; the condition identifies the check
				// across tags (the validator's name and line move between releases).
				see(i, "@check", c.Name+"#"+c.Cond, c.Cond+" "+c.Words, clean(c.Message, 200), fmt.Sprintf("%s:%d@%s", c.File, c.Line, t.Tag), false)
			}
			for _, c := range t.Classes {
				sec := c.Section
				if sec == "" {
					sec = c.Class
				}
				if ex.Framework == "torchtune" {
					// The callable is closed at this tag, whatever keywords it takes (a model
					// builder may take none): "@closed" says the section exists.
					see(i, sec, "@closed", "", "", fmt.Sprintf("%s:%d@%s", c.File, c.Line, t.Tag), false)
				}
				for _, f := range c.Fields {
					file := c.File
					if f.File != "" {
						file = f.File
					}
					prov := fmt.Sprintf("%s:%d@%s", file, f.Line, t.Tag)
					see(i, sec, f.Name, f.Default, f.Replacement, prov, f.Deprecated)
					if f.Missing != "" {
						see(i, "@required:"+sec, f.Name, "", f.Missing, prov, false)
					}
					if ex.Framework == "trl" && trainerFields[f.Name] {
						// A TrainingArguments default the TRL class overrides, as the
						// run gets it (bf16: "not fp16"), by version: "@default:<Class>".
						def := f.Default
						if f.Derived != "" {
							def = f.Derived
						}
						see(i, "@default:"+sec, f.Name, def, "", prov, false)
					}
					if len(f.Enum) > 0 {
						see(i, "@enum", f.Name+"#"+strings.Join(f.Enum, "|"), strings.Join(f.Enum, "|"), "", prov, false)
					}
					if f.Alias != "" {
						see(i, sec, f.Alias, f.Default, f.Replacement, prov, f.Deprecated)
					}
					if f.Deprecated && ex.Framework == "transformers" {
						// The tags at which the source marks the field deprecated, as a
						// section of their own: since is when the deprecation came.
						see(i, sec+"@deprecated", f.Name, "", f.Replacement, prov, true)
					}
				}
			}
		}
		sort.Strings(order)
		for _, id := range order {
			r := rows[id]
			since, removed := tagRange(tags, r.first, r.last)
			repl := r.repl
			if r.deprecated && repl == "" {
				repl = "-" // deprecated, no single replacement
			}
			def := clean(r.def, 60)
			if strings.HasPrefix(r.section, "@") {
				def = clean(r.def, 1000) // value lists and conditions are read whole
			}
			fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", ex.Framework, r.section, r.key,
				def, since, removed, repl, prov(r.section, r.prov))
		}
	}
	return b.String()
}

// tableProv is a row's provenance as the table writes it: file:line@tag for a start-up check
// (its line is part of the message a refusal names), file@tag for every other row. The engine
// embeds the tables, and no other row's line is read at lint time, while line numbers are what
// compression cannot squeeze (7.7 KB of the light WebAssembly module's gzip); every line stays
// in the extractions, testdata/*.json, per tag.
func tableProv(section, prov string) string {
	if section == "@check" || strings.HasPrefix(section, "@check:") {
		return prov
	}
	file, tag, ok := strings.Cut(prov, "@")
	if i := strings.LastIndexByte(file, ':'); ok && i >= 0 {
		return file[:i] + "@" + tag
	}
	return prov
}

// clean keeps a default on one table cell of at most max bytes.
func clean(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = s[:max-3] + "..."
	}
	return strings.ReplaceAll(s, "\t", " ")
}

func load(dir string) ([]extraction, error) {
	return loadFiles(dir, []string{"trl.json", "deepspeed.json", "transformers.json", "alignment-handbook.json"})
}

// loadFiles reads extractions in the order given.
func loadFiles(dir string, names []string) ([]extraction, error) {
	var exs []extraction
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		var ex extraction
		if err := json.Unmarshal(data, &ex); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		exs = append(exs, ex)
	}
	return exs, nil
}

const (
	dataDir = "cmd/trainlint-knowledge/testdata"
	outFile = "lint/dialect/knowledge.tsv"
)

func main() {
	exs, err := load(dataDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "trainlint-knowledge:", err)
		os.Exit(1)
	}
	writeTable(outFile, render(exs))
	fex, err := loadFiles(dataDir, finetuneFiles)
	if err != nil {
		fmt.Fprintln(os.Stderr, "trainlint-knowledge:", err)
		os.Exit(1)
	}
	writeTable(finetuneOut, render(fex))
	lex, err := loadLightning(dataDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "trainlint-knowledge:", err)
		os.Exit(1)
	}
	writeTable(lightningOut, renderLightning(lex))
	oex, err := loadFiles(dataDir, omegaconfFiles)
	if err != nil {
		fmt.Fprintln(os.Stderr, "trainlint-knowledge:", err)
		os.Exit(1)
	}
	writeTable(omegaconfOut, render(oex))
	tex, err := loadFiles(dataDir, torchtuneFiles)
	if err != nil {
		fmt.Fprintln(os.Stderr, "trainlint-knowledge:", err)
		os.Exit(1)
	}
	writeTable(torchtuneOut, render(tex))
	mex, err := loadFiles(dataDir, openmmlabFiles)
	if err != nil {
		fmt.Fprintln(os.Stderr, "trainlint-knowledge:", err)
		os.Exit(1)
	}
	writeTable(openmmlabOut, render(mex))
}

// writeTable replaces a table when its text changed.
func writeTable(file, text string) {
	out := []byte(text)
	if old, err := os.ReadFile(file); err == nil && bytes.Equal(old, out) {
		return
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "trainlint-knowledge:", err)
		os.Exit(1)
	}
}

// tagRange says when a row read at tags[first..last] (every tag between them) came and went: since
// is its first tag unless that is the oldest read, removed the tag after its last unless that is
// the newest.
func tagRange(tags []string, first, last int) (since, removed string) {
	if first > 0 {
		since = tags[first]
	}
	if last < len(tags)-1 {
		removed = tags[last+1]
	}
	return since, removed
}
