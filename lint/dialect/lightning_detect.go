package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// Trainer sections that are not Lightning's: another system's factory entry, or another
// schema's keys beside a few of the Trainer's (detectLightning).

// factoryEntry reports a map that names its class by a `kind` key, with neither class_path nor
// _target_: another system's factory entry (ml-jku/MIM-Refiner's `trainer: {kind:
// classification_trainer, precision, max_epochs, callbacks: [{kind: ...}]}` is built by its own
// trainer and callback factories). Lightning's Trainer takes no `kind` (Trainer.__init__ is
// keyword-only, without **kwargs: src/lightning/pytorch/trainer/trainer.py:91-135 @7f0c343, as
// in every 1.x and 2.x release), LightningCLI builds its trainer section from that signature
// (cli.py:463, add_class_arguments at :158) and so rejects the key, and Hydra instantiates only
// a _target_; a trainer section so written holds no Trainer arguments, and a callbacks entry so
// written is built by the repository's code into a class that is not known.
func factoryEntry(n *doc.Node) bool {
	k := n.Get("kind")
	return isMap(n) && k != nil && k.Kind == doc.Scalar && n.Get("class_path") == nil && n.Get("_target_") == nil
}

// foreignTrainer reports a trainer section written for another system's schema: none of the
// arguments only Lightning's Trainer has (lightningTrainerStrong), and at least three keys no
// Lightning release's Trainer takes (the knowledge table's Trainer section at every tag
// read), more than those it does. Unbabel/OpenKiwi's trainer (deterministic, gpus, precision
// beside epochs, main_metric, gradient_max_norm, log_interval and a checkpoint section) is
// validated by its own pydantic models (kiwi/lib/train.py), which refuse unknown keys and pass
// some values to Lightning themselves; Lightning's Trainer, Hydra's instantiate and
// LightningCLI would refuse every one of those keys.
func foreignTrainer(tr *doc.Node) bool {
	k := KnowledgeOf("lightning")
	if k == nil {
		return false
	}
	ever := k.Sections["Trainer"] // (keys at any tag read; the table's own rows start with @)
	strong := lightningTrainerStrongSet().plain
	known, foreign := 0, 0
	for _, c := range tr.Children {
		if _, ok := strong[c.Key]; ok {
			return false
		}
		_, had := ever[c.Key]
		switch {
		case had && !strings.HasPrefix(c.Key, "@") || c.Key == "_target_" || c.Key == "class_path" || c.Key == "init_args" || c.Key == "defaults":
			known++
		default:
			foreign++
		}
	}
	return foreign >= 3 && foreign > known
}
