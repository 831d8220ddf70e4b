package dialect

import (
	"bytes"
	"slices"
	"strings"
	"sync"

	"github.com/trainlint/trainlint/lint/doc"
)

// The reading kit, part 3: scoring detection evidence, and recognising per-host values.

// Score adds up evidence: each strong key present adds strongPts, each weak key weakPts. Keys
// are dotted paths under root.
func Score(root *doc.Node, strong []string, strongPts int, weak []string, weakPts int) int {
	s := 0
	for _, k := range strong {
		if root.At(k) != nil {
			s += strongPts
		}
	}
	for _, k := range weak {
		if root.At(k) != nil {
			s += weakPts
		}
	}
	return s
}

// keySet is an evidence list prepared for scoreSets: its plain keys by position (a root's
// children are then looked up once each, instead of a scan of the children per key) and its
// dotted keys, still followed with At.
type keySet struct {
	plain  map[string]int // key -> bit in the seen mask
	mult   []int          // how many times the list names the key of each bit
	dotted []string
	// sigs has the bit keySig of each plain key set: a child whose bit is clear is no key
	// of the list, without hashing its name (most of a file's keys are in no dialect's list).
	sigs [4]uint64
}

// keySig is a key's bit in keySet.sigs: its length and first and last bytes, mixed.
func keySig(k string) uint8 {
	if k == "" {
		return 0
	}
	return uint8(len(k)*31 + int(k[0])*7 + int(k[len(k)-1]))
}

// evidenceSet prepares a package-level evidence list on first use.
func evidenceSet(keys []string) func() *keySet {
	return sync.OnceValue(func() *keySet {
		ks := &keySet{plain: map[string]int{}}
		for _, k := range keys {
			if strings.Contains(k, ".") {
				ks.dotted = append(ks.dotted, k)
				continue
			}
			if i, ok := ks.plain[k]; ok {
				ks.mult[i]++
				continue
			}
			ks.plain[k] = len(ks.mult)
			ks.mult = append(ks.mult, 1)
			sig := keySig(k)
			ks.sigs[sig>>6] |= 1 << (sig & 63)
		}
		if len(ks.mult) > 64 {
			panic("dialect: an evidence list has more than 64 distinct plain keys")
		}
		return ks
	})
}

// scoreSets is Score over prepared lists: the same sum, for the lists every file is scored
// against (detection runs every dialect on every file).
func scoreSets(root *doc.Node, strong *keySet, strongPts int, weak *keySet, weakPts int) int {
	return countKeys(root, strong)*strongPts + countKeys(root, weak)*weakPts
}

// countKeys is how many of the set's keys are present under root (At would find them).
func countKeys(root *doc.Node, ks *keySet) int {
	if root == nil || root.Kind != doc.Map || ks == nil {
		return 0
	}
	n := 0
	var seen uint64
	for _, c := range root.Children {
		if sig := keySig(c.Key); ks.sigs[sig>>6]&(1<<(sig&63)) == 0 {
			continue
		}
		if i, ok := ks.plain[c.Key]; ok && seen&(1<<i) == 0 {
			seen |= 1 << i
			n += ks.mult[i]
		}
	}
	for _, k := range ks.dotted {
		if root.At(k) != nil {
			n++
		}
	}
	return n
}

// The evidence lists every file is scored against, prepared for scoreSets.
var (
	hfStrongSet               = evidenceSet(hfStrong)
	hfWeakSet                 = evidenceSet(hfWeak)
	axoStrongSet              = evidenceSet(axoStrongKeys)
	axoWeakSet                = evidenceSet(axoWeakKeys)
	lfStrongSet               = evidenceSet(lfStrongKeys)
	lfWeakSet                 = evidenceSet(lfWeakKeys)
	dsStrongSet               = evidenceSet(dsStrong)
	dsWeakSet                 = evidenceSet(dsWeak)
	dsMegatronSet             = evidenceSet(dsMegatron)
	lightningTrainerStrongSet = evidenceSet(lightningTrainerStrong)
	lightningTrainerWeakSet   = evidenceSet(lightningTrainerWeak)
)

// Cap bounds a score to 100.
func Cap(s int) int {
	if s > 100 {
		return 100
	}
	return s
}

// VariesByHost reports whether a seed expression is derived from the process or host index
// (`${oc.env:RANK}`, `seed + rank`, `jax.process_index()`), and names what it refers to.
func VariesByHost(expr string) (bool, string) {
	if m := rankRef(expr); m != "" {
		return true, "derived from " + strings.TrimSpace(m)
	}
	return false, ""
}

// hfOtherTrainer lowers the HF Trainer score s of a file that another trainer reads.
// HfArgumentParser reads flat dataclass fields: a Hydra target (verl's optim/fsdp.yaml), or
// nested trainer, model or optimizer sections (levanter's), belong to another trainer, and so do
// an accelerate loop's flags (accelerateLoopArgs). A local tag (HyperPyYAML's !new:, !ref in
// SpeechBrain's hparams) needs a loader of its own: HfArgumentParser.parse_yaml_file reads the
// file with yaml.safe_load, which refuses it. A file of Paddle's PdArgumentParser (pdArgs) is
// no Trainer file either.
func hfOtherTrainer(d *doc.Document, s int) int {
	root := d.Root
	if accelerateLoopArgs(root) || isSwift(root) || pdArgs(d) {
		return 0
	}
	for _, t := range d.Tagged {
		if strings.HasPrefix(t.Tag, "!") && !strings.HasPrefix(t.Tag, "!!") {
			return 0
		}
	}
	if root.Get("_target_") != nil || isMap(root.Get("trainer")) || isMap(root.Get("model")) || isMap(root.Get("optimizer")) || isMap(root.Get("optim")) {
		// (TrainingArguments' optim is a name: moshi-finetune's optim section with lr and
		// weight_decay is its own dataclass's, read by simple_parsing.)
		return s / 4
	}
	for _, c := range root.Children {
		if isMap(c) && c.Get("_target_") != nil {
			// A section Hydra instantiates (nequip's data: {_target_: ...NequIPDataModule}
			// beside data_seed): a file for instantiate, not HfArgumentParser's dataclasses.
			return s / 4
		}
	}
	if n := len(root.Children); s > 0 && n >= 10 && hfFields(root)*8 <= n {
		// An eighth or less of the keys are the Trainer's or TRL's (dinov3's text-alignment
		// config: 4 of 58, lr_scheduler_type among them, read by its own script with
		// OmegaConf): HfArgumentParser would refuse the rest.
		return 0
	}
	if hydraConfig(root) {
		// A Hydra defaults list: the file is composed by Hydra for a @hydra.main script
		// (mlcommons/training's mixtral8x22b run_clm.py), which reads it with OmegaConf.
		// HfArgumentParser has no such field and refuses the key.
		return 0
	}
	return s
}

// pdArgs reports a file that Paddle's PdArgumentParser reads into PaddleNLP's or PaddleFormers'
// own TrainingArguments, copies of the Trainer's that keep evaluation_strategy, warmup_ratio,
// logging_dir and fp16_opt_level as current fields and report to visualdl by default
// (PaddlePaddle/PaddleFormers develop @321f3a8, 1.2.0.dev: paddleformers/trainer/training_args.py
// :469, :508, :545, :590, :2693): the Trainer's renames, removals and defaults say nothing of such
// a file, and HfArgumentParser would refuse the keys that tell it.
//
// PaddleNLP's (paddlenlp/trainer/training_args.py @003873a) add tensor_parallel_degree and
// pipeline_parallel_degree; both count. `paddleformers-cli train|export FILE` (cli/cli.py:63-65)
// reads the file with yaml.safe_load into PaddleFormers' argument classes and refuses a key none
// has (cli/hparams/parser.py:94-103, 140-142): two of pdFormersKeys count, or one beside a
// comment of the file naming paddleformers-cli train or export as its command.
func pdArgs(d *doc.Document) bool {
	root := d.Root
	if root.Get("tensor_parallel_degree") != nil && root.Get("pipeline_parallel_degree") != nil {
		return true
	}
	n := Score(root, pdFormersKeys, 1, nil, 0)
	if n == 1 {
		for _, c := range d.Comments {
			f := strings.Fields(c.Text)
			if i := slices.Index(f, "paddleformers-cli"); i >= 0 && i+1 < len(f) && (f[i+1] == "train" || f[i+1] == "export") {
				n++
				break
			}
		}
	}
	return n >= 2
}

// pdFormersKeys are arguments of PaddleFormers' (@321f3a8) that no release of TrainingArguments,
// TRL's configs or LLaMA-Factory's arguments has: cli/hparams/model_args.py ModelArguments
// fine_tuning (:198) and copy_custom_file_list (:139); cli/hparams/data_args.py DataArguments
// train_dataset_type, train_dataset_prob, eval_dataset_type and eval_dataset_prob (:40-66; not
// the paths, names scripts of their own use too); trainer/training_args.py unified_checkpoint
// (:1096), save_checkpoint_format (:1266) and load_checkpoint_format (:1278). Not its
// tensor_model_parallel_size and pipeline_model_parallel_size (:746, :758): Megatron-Core's
// names, which LLaMA-Factory's megatron recipes set too.
var pdFormersKeys = []string{
	"fine_tuning", "copy_custom_file_list", "train_dataset_type", "train_dataset_prob", "eval_dataset_type", "eval_dataset_prob",
	"unified_checkpoint", "save_checkpoint_format", "load_checkpoint_format",
}

// hfFields counts the top-level keys that are fields of TrainingArguments or of a TRL config
// class at any version the knowledge tables read.
func hfFields(root *doc.Node) int {
	hf, trl := KnowledgeOf("transformers"), KnowledgeOf("trl")
	if hf == nil || trl == nil {
		return len(root.Children) // no table: no judgement
	}
	n := 0
	for _, c := range root.Children {
		if _, ok := hf.Sections[hfSection][c.Key]; ok {
			n++
			continue
		}
		for _, sec := range trl.Sections {
			if _, ok := sec[c.Key]; ok {
				n++
				break
			}
		}
	}
	return n
}

// hydraConfig reports a file Hydra composes for a script of the repository's: a defaults list,
// or a hydra section (ROLL's RLVR configs set hydra.run.dir beside their own keys). The
// HfArgumentParser front-ends (the Trainer's, LLaMA-Factory's, axolotl's loader) have no such
// field and refuse it.
func hydraConfig(root *doc.Node) bool {
	df := root.Get("defaults")
	return df != nil && df.Kind == doc.Seq || isMap(root.Get("hydra"))
}

// accelerateLoopArgs reports with_tracking or checkpointing_steps, which TrainingArguments lacks:
// the flags of an accelerate training loop a repository writes itself (transformers' no_trainer
// examples, diffusers' scripts, open-instruct's finetune.py).
//
// Two of diffusers' training-script arguments count too (examples/text_to_image at v0.35.1:
// pretrained_model_name_or_path, train_batch_size, max_train_steps, mixed_precision,
// lr_warmup_steps, checkpoints_total_limit): SimpleTuner's config.json files are such flags
// beside hub_model_id, push_to_hub and report_to, read into its own argparse. HfArgumentParser
// refuses each of them (train_batch_size is a property of TrainingArguments, not a field).
func accelerateLoopArgs(root *doc.Node) bool {
	return root.Get("with_tracking") != nil || root.Get("checkpointing_steps") != nil ||
		Score(root, []string{"pretrained_model_name_or_path", "train_batch_size", "max_train_steps", "mixed_precision", "lr_warmup_steps", "checkpoints_total_limit"}, 1, nil, 0) >= 2
}

// isSwift reports an ms-swift config (`swift sft --config`): two of its own arguments
// (swift/arguments at v4.5.2, train_type at v3.12.6). Its parser extends the Trainer's and
// axolotl's names with its own (model, dataset, lora_rank), so neither's defaults or refusals
// hold for it. The arguments a run wrote (`args.json` in its output folder) carry
// swift_version (BaseArguments.swift_version, swift/arguments/base_args at v4.5.2).
//
// A model named by a string counts as one of them (ModelArguments.model at v4.5.2): neither
// TrainingArguments, axolotl nor LLaMA-Factory has a top-level model, and Lightning's and
// Hydra's is a section. `swift sft` configs often give only model, train_type and dataset.
func isSwift(root *doc.Node) bool {
	if root.Get("swift_version") != nil {
		return true // the arguments a run wrote to its output folder (args.json)
	}
	n := Score(root, []string{"tuner_type", "train_type", "rlhf_type", "split_dataset_ratio", "dataset_num_proc", "model_author", "external_plugins"}, 1, nil, 0)
	if m := root.Get("model"); m != nil && m.Kind == doc.Scalar && m.Type == doc.String {
		n++
	}
	return n >= 2
}

// pyScript reports a Python file written to be run, not loaded as a config: it starts with a
// #! line or has a top-level `if __name__ == "__main__":`. Config.fromfile executes a config's
// text and never runs it as a program (torchgeo's tests/data/*/data.py build GeoJSON dicts
// whose 'type': 'Feature' looks like a registry entry, and write them out under such a guard or
// a #! line). Read by hand: regexp would add about 90 KB to the light module's gzip.
func pyScript(src []byte) bool {
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	if bytes.HasPrefix(src, []byte("#!")) {
		return true
	}
	for line := range bytes.Lines(src) {
		if mainGuard(line) {
			return true
		}
	}
	return false
}

// mainGuard reports a line `if __name__ == "__main__":` at column 0 (either quote, spaces
// between the parts, anything after the colon).
func mainGuard(line []byte) bool {
	word := func(w string) bool {
		if !bytes.HasPrefix(line, []byte(w)) {
			return false
		}
		line = bytes.TrimLeft(line[len(w):], " \t")
		return true
	}
	if !word("if") || !word("__name__") || !word("==") || len(line) < 10 {
		return false
	}
	q := line[0]
	return (q == '\'' || q == '"') && string(line[1:9]) == "__main__" && line[9] == q &&
		bytes.HasPrefix(bytes.TrimLeft(line[10:], " \t"), []byte(":"))
}
