package dialect

import "github.com/trainlint/trainlint/lint/doc"

// hfTrains reports a file that sets at least one TrainingArguments field. A recipe for a script
// that parses the Trainer's arguments but trains nothing sets none: open-r1's
// recipes/dataset_filtering files (@1416fa0) give only model, dataset and generation settings to
// scripts/pass_rate_filtering/compute_pass_rate.py, which parses GRPOConfig and only generates.
// No training run is read from such a file, so no finding rests on the Trainer's defaults; its
// keys and start-up checks are still checked.
func hfTrains(root *doc.Node) bool {
	for _, k := range hfTrainingArguments {
		if root.Get(k.Path) != nil {
			return true
		}
	}
	return false
}

// hfSkipsTraining reports a file that turns training off for the scripts that read do_train:
// the Trainer itself never reads it (TrainingArguments' doc: "intended to be used by your
// training/evaluation scripts"), and transformers' example scripts call trainer.train() only
// under `if training_args.do_train:` (examples/pytorch/text-classification/run_glue.py
// @0055f83), so `do_train: false` is an eval or predict run there. TRL's scripts (trl/scripts/
// sft.py) and the recipes written for them train whatever do_train says, so a TRL-style file
// is still read as a training run. So is a file that TrainingArguments refuses by what it says
// of training (load_best_model_at_end against the save and eval schedules, fp16 with bf16):
// __post_init__ checks those whatever do_train says, and those checks are read from the run.
func hfSkipsTraining(root *doc.Node, variant string) bool {
	if variant == "trl" {
		return false
	}
	on := func(k string) bool {
		f, ok := pyBoolAt(root, k)
		return ok && (!f.Known() || f.Value)
	}
	if on("load_best_model_at_end") || on("fp16") && on("bf16") {
		return false
	}
	f, ok := pyBoolAt(root, "do_train")
	return ok && f.Known() && !f.Value
}
