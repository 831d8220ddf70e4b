//go:build !trainlint_lite

package dialect

import (
	"strings"
	"sync"

	"github.com/trainlint/trainlint/lint/doc"
)

// ForkKeys counts the top-level keys of root that d's front-end knows at no version read (its
// root section's classes in the knowledge table, KnownSections, and the Keys and Settings of d
// and of KnownFrom) and that fields of the repository's own argument dataclasses take
// (scriptKeys: lint.Options.ScriptKeys). A file with two or more is read by the repository's
// own parser, a fork's (LLamaTuner's recipes are LLaMA-Factory's in shape, but its own
// HfArgumentParser classes add wandb_project, eval_dataset_size and use_qlora, and
// eval_dataset_size is what gives them eval data): what d's front-end refuses or defaults is
// no claim about it.
//
// A front-end that fills the script's dataclasses (d.ScriptArgs: HfArgumentParser) counts
// instead, in a repository none of whose Python uses such a parser (scriptKeys nil, reads not
// nil), the keys no framework's classes take (LibraryKey) that its code reads by name (reads:
// lint.Options.RepoReads). Such a file is the project's own config: MFTCoder's xxpo_accelerate.py
// reads its dpo_train_config.json with json.load into its own dataclass (xxpo, data_paths,
// saving_limit) and builds DPOConfig by hand, eval_strategy="steps" included, so the
// Trainer's defaults say nothing of its run.
//
// A repository's dataclasses that derive from the classes the framework checks a section
// against (subs: lint.Options.ConfigSubclasses) add fields to that section: each key of the
// section that such a field takes and the framework's class never had counts too.
// neuronx-distributed-training's ExpManagerConfig(nemo_exp_manager.ExpManagerConfig) adds
// log_parameter_norm, save_xser and async_checkpointing to NeMo's exp_manager, and its
// CallbackParams adds use_master_weights_in_ckpt: its exp_manager merges the file into its own
// classes, not into NeMo's, which would refuse those keys.
func ForkKeys(d *Dialect, root *doc.Node, scriptKeys, reads map[string]bool, subs map[string]map[string]bool) int {
	if d == nil || root == nil || root.Kind != doc.Map {
		return 0
	}
	n := subclassKeys(d, root, subs)
	if d.ScriptArgs {
		if scriptKeys != nil || reads == nil {
			return n
		}
		for _, c := range root.Children {
			if reads[c.Key] && !LibraryKey(c.Key) {
				n++
			}
		}
		return n
	}
	if len(scriptKeys) == 0 || d.Sections[""] == "" {
		return n
	}
	for _, c := range root.Children {
		if scriptKeys[c.Key] && !knownAtRoot(d, c.Key, 0) {
			n++
		}
	}
	return n
}

// subclassKeys counts the keys of d's sections in root that fields of the repository's
// dataclasses deriving from the section's class take and that class never had (ForkKeys).
func subclassKeys(d *Dialect, root *doc.Node, subs map[string]map[string]bool) int {
	kb := KnowledgeOf(d.Knowledge)
	if kb == nil || len(subs) == 0 {
		return 0
	}
	n := 0
	for path, sec := range d.Sections {
		m := root
		if path != "" {
			m = root.At(path)
		}
		if m == nil || m.Kind != doc.Map {
			continue
		}
		for _, cls := range strings.Split(sec, ",") {
			if subs[cls] == nil {
				continue
			}
			for _, c := range m.Children {
				if _, ok := kb.Sections[cls][c.Key]; !ok && subs[cls][c.Key] {
					n++
				}
			}
		}
	}
	return n
}

// knownAtRoot reports whether key is a root setting of d at some version read.
func knownAtRoot(d *Dialect, key string, depth int) bool {
	if kb := KnowledgeOf(d.Knowledge); kb != nil {
		for _, cls := range strings.Split(d.Sections[""], ",") {
			if _, ok := kb.Sections[cls][key]; ok {
				return true
			}
		}
	}
	for _, ks := range d.KnownSections {
		fw, sec, _ := strings.Cut(ks, ":")
		if kb := KnowledgeOf(fw); kb != nil {
			if _, ok := kb.Sections[sec][key]; ok {
				return true
			}
		}
	}
	for _, k := range d.Keys {
		if k.Path == key {
			return true
		}
	}
	for _, k := range d.Settings {
		if k.Path == key {
			return true
		}
	}
	if depth == 0 {
		for _, name := range d.KnownFrom {
			if o := ByName(name); o != nil && (knownAtRoot(o, key, 1) || o.Name == HuggingFace.Name && hfKnown(key)) {
				return true
			}
		}
	}
	return false
}

// hfKnown reports a TrainingArguments field at some version of the knowledge table.
func hfKnown(key string) bool {
	kb := KnowledgeOf("transformers")
	if kb == nil {
		return false
	}
	_, ok := kb.Sections[hfSection][key]
	return ok
}

// LibraryKey reports a key name that a framework's own argument classes or config readers
// take (any section of the knowledge tables, the last part of any dialect's keys and
// settings): a config of no known framework may hand it to that library (a section passed to
// TrainingArguments(**cfg.trainer)), so the repository's code need not name it.
func LibraryKey(key string) bool { return libraryKeys()[key] != 0 }

// libOwner says which libraries take a key (libraryKeys): the Hugging Face Trainer's argument
// classes (TrainingArguments, TRL's configs, the recipes axolotl and LLaMA-Factory hand it), or
// another library's.
type libOwner uint8

const (
	libTrainer libOwner = 1 << iota
	libOther
)

var libraryKeys = sync.OnceValue(func() map[string]libOwner {
	m := map[string]libOwner{}
	for _, fw := range []string{"transformers", "trl", "deepspeed", "lightning", "torchtune", "nemo-toolkit", "llm-foundry", "axolotl", "llamafactory", "alignment-handbook"} {
		owner := libOther
		switch fw {
		case "transformers", "trl", "axolotl", "llamafactory", "alignment-handbook":
			owner = libTrainer
		}
		if kb := KnowledgeOf(fw); kb != nil {
			for _, sec := range kb.Sections {
				for k := range sec {
					m[k] |= owner
				}
			}
		}
	}
	for _, d := range registry {
		if d.Name == "generic" {
			continue // its own spellings are what is judged
		}
		owner := libOther
		if trainerRecipe(d.Name) {
			owner = libTrainer
		}
		for _, ks := range [][]Key{d.Keys, d.Settings} {
			for _, k := range ks {
				m[k.Path[strings.LastIndexByte(k.Path, '.')+1:]] |= owner
			}
		}
	}
	return m
})

// read reports whether something may read the key of n: always when the repository's words
// are not known, else when they hold the key (dashes read as underscores, as argparse does) or
// a library's argument classes take it (LibraryKey: a section handed to TrainingArguments). A
// key only the Trainer's argument classes take counts so only in a repository whose code
// names one of them or a library that builds them (trainerWords), or in a section that names
// the class it is handed to (`_target_`, which Hydra's instantiate calls with the section's
// keys): SkyRL's trainer.save_total_limit, a key its own trainer never reads (it keeps
// max_ckpts_to_keep checkpoints), in a repository that builds no TrainingArguments.
func (g genericReader) read(n *doc.Node) bool {
	if g.named == nil {
		return true
	}
	k := strings.ReplaceAll(strings.ToLower(n.Key), "-", "_")
	return g.named[k] || g.libraryTakes(n)
}

// libraryTakes reports a key of n that a library's argument classes take (read's second
// way): any LibraryKey, one only the Trainer's argument classes take only under trainerWords
// or in a section naming its class.
func (g genericReader) libraryTakes(n *doc.Node) bool {
	switch libraryKeys()[strings.ReplaceAll(strings.ToLower(n.Key), "-", "_")] {
	case 0:
		return false
	case libTrainer:
		return g.trainerNamed || targeted(n)
	}
	return true
}

// trainerWords reports a repository whose words name a Trainer argument class
// ("trainingarguments": the CLI's scan adds it when a word ends so, as Seq2SeqTrainingArguments
// and sentence-transformers' subclasses do) or HfArgumentParser, or whose files import a library
// whose recipes become them (TRL, axolotl, LLaMA-Factory, alignment-handbook: imports, not words,
// as "trl" and "alignment" are words of model names and comments too). It runs for every file of
// no known framework, so it looks words up rather than read them all.
func trainerWords(named map[string]bool, imports map[string]int) bool {
	if named["hfargumentparser"] || named["trainingarguments"] {
		return true
	}
	for _, m := range []string{"trl", "axolotl", "llamafactory", "llmtuner", "alignment"} {
		if imports[m] > 0 {
			return true
		}
	}
	return false
}

// targeted reports a node in a map with a `_target_` key, or below one.
func targeted(n *doc.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Kind == doc.Map && p.Get("_target_") != nil {
			return true
		}
	}
	return false
}
