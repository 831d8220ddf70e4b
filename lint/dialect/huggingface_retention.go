package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// trainerTracksBest reports a metric_for_best_model written in the file: the Trainer then records
// the best evaluated step at every evaluation (_determine_best_metric), points
// best_model_checkpoint at its checkpoint when that step was saved (_save_checkpoint), and
// _sorted_checkpoints keeps that checkpoint out of save_total_limit's rotation,
// load_best_model_at_end or not (transformers @000945a, trainer.py). So the best is kept when
// every save falls on an evaluation (intervalsAligned).
func trainerTracksBest(root *doc.Node) bool {
	m := root.At("metric_for_best_model")
	return m.IsScalar() && !m.IsNull() && m.Value != ""
}

const tracksBestNote = "metric_for_best_model keeps the best evaluated checkpoint besides the most recent ones"

// hfRetention: save_total_limit N keeps the N most recent checkpoints; with load_best_model_at_end,
// or metric_for_best_model and saves that fall on evaluations, the best one is kept as well; unset
// (or ≤ 0) keeps all; save_strategy "best" saves only improvements.
func hfRetention(root *doc.Node, save plan.Fact[string], loadBest plan.Fact[bool], aligned bool, note plan.Why) plan.Fact[plan.Retention] {
	const key = "save_total_limit"
	if save.Known() && save.Value == "no" {
		return plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepNone}, Origin: save.Origin, Key: save.Key, Node: save.Node, Note: save.Note, By: save.By}
	}
	n := root.At(key)
	limit, hasLimit := 0, false
	if n != nil && !n.IsNull() {
		v, ok := n.Int()
		if !ok {
			return plan.Fact[plan.Retention]{Key: key, Node: n}
		}
		limit, hasLimit = int(v), v > 0
	}
	if save.Known() && save.Value == "best" {
		return plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepBest, N: limit}, Origin: save.Origin, Key: save.Key, Node: save.Node,
			Note: `save_strategy "best" saves only when metric_for_best_model improves`}
	}
	if n == nil || n.IsNull() {
		return plan.Defaulted(plan.Retention{Kind: plan.KeepAll}, key, note.Plus("no limit, every checkpoint is kept"), n)
	}
	if !hasLimit {
		return plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepAll}, Origin: plan.Explicit, Key: key, Node: n,
			Note: "a limit of 0 or less keeps every checkpoint"}
	}
	hub, always := hubAllCheckpoints(root)
	if hub != nil && always {
		return plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepAll}, Origin: plan.Explicit, Key: "hub_strategy", Node: hub,
			Note: "push_to_hub with hub_strategy all_checkpoints and hub_always_push uploads every checkpoint to its own Hub folder; save_total_limit deletes local copies only"}
	}
	if trainerTracksBest(root) && aligned {
		return plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepBest, N: limit}, Origin: plan.Explicit, Key: key, Node: n, Note: tracksBestNote}
	}
	if !loadBest.Known() {
		return plan.Fact[plan.Retention]{Key: key, Node: n}
	}
	if loadBest.Value {
		return plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepBest, N: limit}, Origin: plan.Explicit, Key: key, Node: n,
			Note: "load_best_model_at_end keeps the best checkpoint besides the most recent ones"}
	}
	f := plan.Set(plan.Retention{Kind: plan.KeepLatest, N: limit}, key, n)
	if hub != nil {
		f.Note = "hub_strategy all_checkpoints does not upload a checkpoint saved while the previous upload is still running; hub_always_push true uploads every one, so all are kept on the Hub"
	}
	return f
}

// intervalsAligned reports a save interval known to be a whole multiple of the eval interval, in
// the same unit: every checkpoint is then saved at an evaluation.
func intervalsAligned(save, eval plan.Fact[plan.Interval]) bool {
	if !save.Known() || !eval.Known() || save.Value.Unit != eval.Value.Unit || eval.Value.Value <= 0 || save.Value.Value <= 0 {
		return false
	}
	return save.Value.Value >= eval.Value.Value && plan.MultipleOf(save.Value.Value, eval.Value.Value)
}

// hubAllCheckpoints returns the hub_strategy node when the file pushes checkpoints to the Hub
// each in its own folder (push_to_hub true and hub_strategy all_checkpoints, both written), and
// whether every one of them is pushed for good (hub_always_push true, written). transformers
// @000945a, trainer.py: _save_checkpoint calls _push_from_checkpoint when push_to_hub is set,
// which uploads the checkpoint folder under its own name (path_in_repo checkpoint-N) with
// all_checkpoints, and the rotation only removes local folders (shutil.rmtree). Without
// hub_always_push a save made while the previous upload is unfinished is not pushed at all, so
// the best checkpoint may exist only locally: always is false.
func hubAllCheckpoints(root *doc.Node) (hub *doc.Node, always bool) {
	h := root.At("hub_strategy")
	if !h.IsScalar() || h.Type != doc.String || h.Value != "all_checkpoints" {
		return nil, false
	}
	if v, ok := pyBool(root.At("push_to_hub")); !ok || !v {
		return nil, false
	}
	v, ok := pyBool(root.At("hub_always_push"))
	return h, ok && v
}
