package rules

import (
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// CheckpointKeepsLatestNotBest reports checkpoint retention that keeps only the most recent N
// checkpoints, which deletes the best one as soon as N newer ones exist.
var CheckpointKeepsLatestNotBest = register(&lint.Rule{
	Code: "TL301", Name: "checkpoint-keeps-latest-not-best", Category: lint.CatCheckpoints, Severity: lint.Warning,
	Anchor:    "saving-checkpoints-and-retrospectively-selecting-the-best-checkpoint",
	Title:     "Checkpoint retention keeps the latest N, so the best checkpoint can be deleted",
	NeedsPlan: true,
	Rationale: `The best checkpoint of a run is often not the last one: validation metrics plateau, wobble or
get worse while training goes on. The playbook's answer is to train for a fixed number of steps
and pick the best checkpoint afterwards, which needs the best ones to still exist when the run
ends. A policy that keeps only the N most recent checkpoints deletes the best one as soon as N
newer checkpoints are written.

When the policy is only the framework's default (Lightning's ModelCheckpoint without a monitor,
axolotl's default limit), the finding is info.

Keeping every checkpoint, or the best N by a validation metric, is fine. When the run is too
short to write more than N checkpoints, nothing is deleted and nothing is reported.`,
	Fix: `Keep the best checkpoints by a validation metric, or keep them all.

- Hugging Face, axolotl, LLaMA-Factory: add ` + "`load_best_model_at_end: true`" + ` and ` + "`metric_for_best_model`" + `
  (the best checkpoint is then kept besides the most recent ones), or remove ` + "`save_total_limit`" + `.
- Lightning and NeMo: give ` + "`ModelCheckpoint`" + ` a ` + "`monitor`" + ` (and ` + "`mode`" + `) so ` + "`save_top_k`" + ` keeps the best k.
- torchtune (` + "`keep_last_n_checkpoints`" + `), Composer (` + "`save_num_checkpoints_to_keep`" + `), torchtitan
  (` + "`keep_latest_k`" + `) have no best-N policy: keep every checkpoint (remove the key, or -1/0 as
  the framework spells "all") and select the best afterwards from the eval logs.`,
	Frameworks: []string{fwHF, fwAxolotl, fwLlamaFac, fwLightning, fwNeMo, fwTorchtune, fwComposer, fwTorchtitan, fwGeneric},
	Check:      checkCheckpointKeepsLatest,
})

func checkCheckpointKeepsLatest(p *lint.Pass) {
	c := p.Plan.Ckpt
	if c.Enabled.Known() && !c.Enabled.Value {
		return
	}
	r := c.Retention
	if !r.Known() || r.Value.Kind != plan.KeepLatest || r.Value.N <= 0 {
		return
	}
	n := r.Value.N
	// A run that cannot write more than N checkpoints loses none.
	if saves, ok := plannedSaves(p.Plan); ok && saves <= n {
		return
	}
	what := "the " + itoa(n) + " most recent checkpoints"
	if n == 1 {
		what = "the most recent checkpoint"
	}
	f := lint.Finding{Key: r.Key}
	if r.Origin == plan.Default && writtenAsUnset(r) {
		// The file sets the key, but the framework reads the value as unset (axolotl
		// save_total_limit: 0, which the Trainer would read as keep-all): a choice the user made,
		// so it stays a warning.
		f.Message = r.Key + " " + r.Node.Value + " counts as unset: " + defaultName(r.Note) + " " + itoa(n) + " keeps only " + what + ", so the best one can be deleted"
	} else if r.Origin == plan.Default {
		f.Message = notSet(r, itoa(n)) + " keeps only " + what + ", so the best one can be deleted"
		// Nothing in the file chose this policy: lower confidence (a warning would fail CI on
		// every Lightning file that never configures checkpointing).
		f.Severity = lint.Info
	} else {
		f.Message = keyOr(r, "checkpoint retention") + " " + written(r, itoa(n)) + " keeps only " + what + ", so the best one can be deleted"
	}
	place(&f, r.Node)
	f.Help = retentionHelp(p.Plan.Framework, r)
	if r.IsExplicit() && r.Note != "" {
		f.Help = r.Note + "; " + f.Help // the dialect's reason, e.g. why a keep-best setting was dropped
	} else if reason := droppedBest(r); reason != "" {
		// The file asked for keep-best (the finding points there) and the framework dropped it:
		// the user chose this, so it stays a warning, and the help says why.
		f.Help = reason + "; meet those conditions so the best checkpoint is kept, or raise " + keyOr(r, "the retention limit") + " to keep every checkpoint"
		f.Severity = 0
	}
	p.Report(f)
}

// plannedSaves is how many periodic checkpoints the run writes, when the step budget and a
// step save interval are both known.
func plannedSaves(pl *plan.Plan) (int, bool) {
	ms, ep, iv := pl.Train.MaxSteps, pl.Train.Epochs, pl.Ckpt.Interval
	if !iv.Known() || iv.Value.Value <= 0 {
		return 0, false
	}
	switch {
	case ms.Known() && ms.Value > 0 && iv.Value.Unit == plan.Steps && iv.Value.Value >= 1:
		return int(float64(ms.Value) / iv.Value.Value), true
	case ep.Known() && ep.Value > 0 && (iv.Value.Unit == plan.Epochs || iv.Value.Unit == plan.EpochFraction):
		// An epoch-bounded run saving every k epochs (or k times per epoch) writes epochs/k.
		return int(ep.Value/iv.Value.Value + 1e-9), true
	}
	return 0, false
}

func retentionHelp(fw string, r plan.Fact[plan.Retention]) string {
	switch {
	case fw == fwAxolotl:
		// axolotl passes save_total_limit 4 when the key is unset or 0, so removing it keeps 4.
		return "set load_best_model_at_end: true with metric_for_best_model and save_steps a multiple of eval_steps (axolotl drops it otherwise), or set save_total_limit to at least the number of saves"
	case hfFamily(fw):
		return "set load_best_model_at_end: true with metric_for_best_model so the best checkpoint is kept besides the latest, or remove " + keyOr(r, "save_total_limit")
	case fw == fwLightning || fw == fwNeMo:
		return "give the checkpoint callback a monitor (e.g. val_loss) and mode so save_top_k keeps the best checkpoints"
	}
	return "keep every checkpoint (" + keyOr(r, "the retention limit") + " has no best-N mode) and select the best one afterwards from the eval metrics"
}

// writtenAsUnset reports a defaulted retention whose node is the key itself with a non-null
// value: the file wrote a value the framework treats as "not set".
func writtenAsUnset(r plan.Fact[plan.Retention]) bool {
	return r.Node != nil && r.Node.IsScalar() && !r.Node.IsNull() && r.Node.Value != "" && r.Node.Path().String() == r.Key
}

// droppedBest is the dialect's reason when a defaulted keep-latest retention points at another
// key the file set (axolotl's load_best_model_at_end: true, dropped unless save_steps is a
// multiple of eval_steps): the text after "): " in the note, or "".
func droppedBest(r plan.Fact[plan.Retention]) string {
	if r.Origin != plan.Default || r.Node == nil || !r.Node.IsScalar() || r.Node.Path().String() == r.Key {
		return ""
	}
	if _, reason, ok := strings.Cut(r.Note, "): "); ok {
		return strings.TrimSpace(reason)
	}
	return ""
}
