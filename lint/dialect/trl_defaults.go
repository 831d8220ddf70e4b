package dialect

import (
	"path"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// TRL's config classes override some of TrainingArguments' defaults, and the overrides differ by
// class and release: __post_init__ sets bf16 to `not fp16` when it is unset (every class, v0.19.0
// to v1.9.0), gradient_checkpointing defaults to True from v0.22.0, and learning_rate is 2e-5
// for SFTConfig, 1e-6 for DPO/GRPO/KTO/ORPO, 1e-4 for RewardConfig from v0.24.0 and 3e-6 for
// PPOConfig from v0.29.0 (5e-5, the Trainer's, before). knowledge.tsv holds them as
// "@default:<Class>" rows, one per value with its range, read from the classes at each tag
// (cmd/trainlint-knowledge). A recipe does not name its class: the TRL CLI (`trl dpo
// --config`) and alignment-handbook's scripts (scripts/dpo.py) choose it. trlClasses narrows it
// from the file's own keys (a key only some classes have) and its path (alignment-handbook keeps
// recipes under <model>/<method>/, e.g. zephyr-7b-beta/dpo/); a default is used only when every
// class left gives the same one, so an SFT-or-DPO recipe gets no learning rate at all.

// trlConfigClasses are the TRL config classes a recipe may be parsed into, with the word that
// names each in paths and commands.
var trlConfigClasses = []struct{ class, word string }{
	{"SFTConfig", "sft"}, {"DPOConfig", "dpo"}, {"GRPOConfig", "grpo"}, {"KTOConfig", "kto"},
	{"ORPOConfig", "orpo"}, {"RewardConfig", "reward"}, {"PPOConfig", "ppo"},
}

// trlChoice is what the file says about its TRL config class: the classes it can still be, and
// why ("the keys and the path say DPOConfig").
type trlChoice struct {
	classes []string
	why     string
}

// trlClasses narrows the TRL config classes a recipe can be parsed into at the target version.
func trlClasses(d *doc.Document, kb *Knowledge, target string) trlChoice {
	root := d.Root
	var cands []string
	for _, c := range trlConfigClasses {
		if kb.SectionExists(c.class, target) {
			cands = append(cands, c.class)
		}
	}
	// Keys that only some classes have at the target narrow them; a key no class has (a model
	// or script argument, a removed key) says nothing, nor does a TrainingArguments field that
	// a class redeclares (every class has it, through the Trainer's arguments).
	all, trainer := cands, KnowledgeOf("transformers").Sections[hfSection]
	keyed, left := false, uint(1)<<len(all)-1 // bit i: all[i] is still possible
	for _, kv := range root.Children {
		k := kv.Key
		if _, ok := trainer[k]; ok {
			continue
		}
		var has uint
		for i, c := range all {
			if f, ok := kb.Sections[c][k]; ok && kb.Has(f, target) {
				has |= 1 << i
			}
		}
		if has == 0 || has == uint(1)<<len(all)-1 {
			continue
		}
		keyed = true
		left &= has
	}
	if left == 0 {
		// Keys of different trainers: any class may be meant, so only what all agree on holds.
		return trlChoice{classes: all}
	}
	if keyed {
		cands = nil
		for i, c := range all {
			if left&(1<<i) != 0 {
				cands = append(cands, c)
			}
		}
	}
	why := "the keys say"
	if !keyed {
		why = ""
	}
	if len(cands) > 1 {
		if w := trlPathWord(d.Path); w != "" {
			for _, c := range cands {
				if trlWordOf(c) == w {
					cands = []string{c}
					if keyed {
						why = "the keys and the path say"
					} else {
						why = "the path says"
					}
					break
				}
			}
		}
	}
	return trlChoice{classes: cands, why: why}
}

func trlWordOf(class string) string {
	for _, c := range trlConfigClasses {
		if c.class == class {
			return c.word
		}
	}
	return ""
}

// trlPathWord is the one TRL method a path names in its folders or file name (recipes/zephyr-7b-beta/dpo/config_full.yaml,
// config_dpo_full.yaml); "" when it names none or several.
func trlPathWord(p string) string {
	found := ""
	p = strings.ToLower(strings.TrimSuffix(p, path.Ext(p)))
	for _, part := range strings.FieldsFunc(p, func(r rune) bool {
		return r == '/' || r == '\\' || r == '_' || r == '-' || r == '.'
	}) {
		for _, c := range trlConfigClasses {
			if part == c.word {
				if found != "" && found != part {
					return ""
				}
				found = part
			}
		}
	}
	return found
}

// trlDefault is the default of a TrainingArguments key the run gets from the TRL classes the
// file can be: the value (as the source writes it) when they all agree, and the class it names
// when there is one.
func trlDefault(kb, hf *Knowledge, choice trlChoice, key, target string) (string, bool) {
	val := ""
	for i, c := range choice.classes {
		v := ""
		if f, ok := kb.FactAt("@default:"+c, key, target); ok {
			v = f.Default
		} else if f, ok := hf.Sections[hfSection][key]; ok {
			v = f.Default // the class keeps the Trainer's default
		} else {
			return "", false
		}
		if i > 0 && v != val {
			return "", false
		}
		val = v
	}
	return val, len(choice.classes) > 0
}

// hfTRLDefaults fills the facts whose default a TRL config class decides (bf16, learning_rate)
// for a TRL-style recipe that leaves them unset.
func hfTRLDefaults(d *doc.Document, p *plan.Plan, ctx Context) {
	if p.Variant != "trl" {
		return
	}
	kb, hf := KnowledgeOf("trl"), KnowledgeOf("transformers")
	if kb == nil || hf == nil {
		return
	}
	target := ctx.Targets["trl"]
	choice := trlClasses(d, kb, target)
	version := "trl " + shortVersion(kb.Newest())
	if target != "" {
		version = "trl " + target
	}
	why := func(key, val string) plan.Why {
		note := version + ": " + key + " " + val
		if len(choice.classes) == 1 {
			note = choice.classes[0] + ", " + note
			if choice.why != "" {
				note += " (" + choice.why + " " + choice.classes[0] + ")"
			}
		} else {
			note += " in every TRL config class the file can be"
		}
		return plan.Why{By: "the TRL default", Note: note}
	}
	if p.Precision.BF16.Origin == plan.Default && p.Precision.FP16.Known() {
		if v, ok := trlDefault(kb, hf, choice, "bf16", target); ok && v == "not fp16" {
			fp := p.Precision.FP16
			p.Precision.BF16 = plan.Defaulted(!fp.Value, "bf16", why("bf16", "= not fp16 when unset"), p.Precision.BF16.Node)
		}
	}
	if lr := p.Schedule.LearningRate; lr.Origin == plan.Default {
		p.Schedule.LearningRate = plan.Fact[float64]{Key: lr.Key, Node: lr.Node}
		if v, ok := trlDefault(kb, hf, choice, "learning_rate", target); ok {
			if x, err := strconv.ParseFloat(v, 64); err == nil {
				p.Schedule.LearningRate = plan.Defaulted(x, "learning_rate", why("learning_rate", v), lr.Node)
			}
		}
	}
}
