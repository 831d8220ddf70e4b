package dialect

// axolotl's checkpoint settings: when and how often it saves, and which checkpoints it keeps
// (axolotl @067b021: normalize_config and the causal trainer builder, causal.py).

import (
	"math"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// axoSaveSteps returns the save_steps the Trainer gets (explicit, or from saves_per_epoch), with the
// node that sets it; ok is false when it cannot be known.
func axoSaveSteps(root *doc.Node, epochs float64) (iv plan.Interval, key string, n *doc.Node, set bool, ok bool) {
	if n = root.At("save_steps"); n != nil && !n.IsNull() {
		if iv, ok := hfStepsValue(n); ok {
			return iv, "save_steps", n, true, true
		}
		if v, isNum := n.Float(); isNum && v == 0 {
			return iv, "", nil, false, true
		}
		return iv, "save_steps", n, false, false
	}
	if n = root.At("saves_per_epoch"); n != nil && !n.IsNull() {
		k, isInt := n.Int()
		if !isInt || n.IsUnknown() || epochs <= 0 {
			return iv, "saves_per_epoch", n, false, false
		}
		if k > 0 && 1/(float64(k)*epochs) < 1 {
			return plan.Interval{Value: 1 / float64(k), Unit: plan.EpochFraction, Text: "saves_per_epoch: " + n.Value}, "saves_per_epoch", n, true, true
		}
	}
	return iv, "", nil, false, true
}

// axoStepsValue is the steps number the Trainer gets for save_steps or eval_steps (0 when
// none): stepsKey when set, else one over perEpochKey's count times the epochs when that is
// under one epoch, so it compares with the other interval.
func axoStepsValue(root *doc.Node, stepsKey, perEpochKey string, epochs float64) (float64, bool) {
	if n := root.At(stepsKey); n != nil && !n.IsNull() {
		v, ok := n.Float()
		return v, ok && !n.IsUnknown()
	}
	if n := root.At(perEpochKey); n != nil && !n.IsNull() {
		k, ok := n.Int()
		if !ok || n.IsUnknown() || epochs <= 0 {
			return 0, false
		}
		if k > 0 && 1/(float64(k)*epochs) < 1 {
			return 1 / (float64(k) * epochs), true
		}
	}
	return 0, true
}

// axoSave decides save_strategy and its interval.
func axoSave(root *doc.Node, epochs float64) (plan.Fact[bool], plan.Fact[plan.Interval]) {
	iv, key, n, set, ok := axoSaveSteps(root, epochs)
	if !ok {
		return plan.Fact[bool]{Key: key, Node: n}, plan.Fact[plan.Interval]{Key: key, Node: n}
	}
	if set {
		return plan.Set(true, key, n), plan.Set(iv, key, n)
	}
	if f := hfStrategy(root, plan.Why{}, "save_strategy", "", "", []string{"no", "steps", "epoch", "best"}); f.Node != nil && !f.Node.IsNull() {
		if !f.Known() {
			return plan.Fact[bool]{Key: f.Key, Node: f.Node}, plan.Fact[plan.Interval]{Key: f.Key, Node: f.Node}
		}
		switch f.Value {
		case "no":
			return plan.Set(false, f.Key, f.Node), plan.Fact[plan.Interval]{}
		case "epoch":
			return plan.Set(true, f.Key, f.Node), plan.Set(plan.Interval{Value: 1, Unit: plan.Epochs, Text: "epoch"}, f.Key, f.Node)
		case "steps":
			return plan.Set(true, f.Key, f.Node), hfStepsInterval(root, "save_steps", 500, axoTrainerNote)
		default: // best: saves follow evaluations that improve the metric
			return plan.Set(true, f.Key, f.Node), plan.Fact[plan.Interval]{Key: f.Key, Node: f.Node}
		}
	}
	note := plan.Why{By: "the axolotl default", Note: "save every epoch when save_steps, saves_per_epoch and save_strategy are unset"}
	return plan.Defaulted(true, "save_strategy", note, nil),
		plan.Defaulted(plan.Interval{Value: 1, Unit: plan.Epochs, Text: "epoch"}, "save_strategy", note, nil)
}

// axoRetention: save_total_limit (4 when unset or 0), keep-best only when axolotl actually passes
// load_best_model_at_end or metric_for_best_model (or save_strategy is "best"). Before v0.10.0 an
// rl config's HFRLTrainerBuilder passed `save_total_limit=self.cfg.save_total_limit or 5`
// (src/axolotl/core/trainer_builder.py:1112@v0.8.0, :1145@v0.9.2; the us-inc fork's :1094), while
// HFCausalTrainerBuilder passed 4 (:511-512@v0.8.0); from v0.10.0 both builders take base.py's
// _configure_save_and_eval_strategy, 4 (:378-379@v0.10.0, :510-511@v0.18.0; rl.py calls
// _set_base_training_args). An rl config's default is unknown when the release is.
func axoRetention(root *doc.Node, p *plan.Plan, src axoEvalSource, epochs float64, before axoRelease, rl bool) plan.Fact[plan.Retention] {
	const key = "save_total_limit"
	if p.Ckpt.Enabled.Known() && !p.Ckpt.Enabled.Value {
		e := p.Ckpt.Enabled
		return plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepNone}, Origin: e.Origin, Key: e.Key, Node: e.Node}
	}
	n := root.At(key)
	def, defNote := 4, "save_total_limit 4"
	if rl && before == axoBefore {
		def, defNote = 5, "save_total_limit 5 for rl before axolotl 0.10"
	}
	limit, origin, why := def, plan.Default, plan.Why{By: "the axolotl default", Note: defNote}
	if n != nil && !n.IsNull() {
		v, ok := n.Int()
		if !ok || n.IsUnknown() {
			return plan.Fact[plan.Retention]{Key: key, Node: n}
		}
		if v > 0 {
			limit, origin, why = int(v), plan.Explicit, plan.Why{}
		} else {
			why = plan.Why{By: "the axolotl default", Note: defNote + "; 0 counts as unset"}
		}
	}
	if origin == plan.Default && rl && before == axoUnknownRelease {
		return plan.Fact[plan.Retention]{Key: key, Node: n} // 5 before v0.10.0, 4 from it
	}
	if ss := root.At("save_strategy"); ss.IsScalar() && strings.EqualFold(strings.TrimSpace(ss.Value), "best") && root.At("save_steps") == nil && root.At("saves_per_epoch") == nil {
		return plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepBest, N: limit}, Origin: plan.Explicit, Key: "save_strategy", Node: ss,
			Note: `save_strategy "best" saves only when metric_for_best_model improves`}
	}
	lb, lbSet := pyBoolAt(root, "load_best_model_at_end")
	esp := root.At("early_stopping_patience")
	wantsBest := lbSet && lb.Known() && lb.Value
	if esp != nil && !esp.IsNull() {
		if v, ok := esp.Int(); ok && v > 0 {
			wantsBest = true
		}
	}
	if lbSet && !lb.Known() {
		return plan.Fact[plan.Retention]{Key: key, Node: n}
	}
	tracks := trainerTracksBest(root) // causal.py passes metric_for_best_model whatever else is set
	floatRemainder := ""              // why the reload is dropped when the per-epoch counts divide
	if wantsBest || tracks {
		// causal.py passes load_best_model_at_end only with eval data from one source,
		// save_steps and eval_steps both set and save_steps % eval_steps == 0; a metric alone
		// keeps the best only when the saves fall on evaluations too. The test is Python's %
		// on the floats normalize_config derives (1 / (saves_per_epoch × num_epochs)), exact:
		// 0.5 % (1/6) is 2.8e-17, not 0, so saves_per_epoch 2 with evals_per_epoch 6 drops it.
		// math.Mod is the same operation for positive operands.
		_, _, _, saveSet, okS := axoSaveSteps(root, epochs)
		saveSteps, okSave := axoStepsValue(root, "save_steps", "saves_per_epoch", epochs)
		evalSteps, okE := axoStepsValue(root, "eval_steps", "evals_per_epoch", epochs)
		if !okS || !okSave || !okE || !src.known {
			return plan.Fact[plan.Retention]{Key: key, Node: n}
		}
		dataOK := (!src.tests && src.valSize > 0) || (src.tests && src.valSize == 0)
		if dataOK && saveSet && saveSteps > 0 && evalSteps > 0 {
			switch {
			case math.Mod(saveSteps, evalSteps) != 0:
				floatRemainder = axoFloatRemainder(root, saveSteps, evalSteps)
			case !wantsBest:
				return plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepBest, N: limit}, Origin: origin, Key: key, Node: n, By: why.By,
					Note: strings.TrimPrefix(why.Note+"; ", "; ") + tracksBestNote}
			default:
				return plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepBest, N: limit}, Origin: plan.Explicit, Key: "load_best_model_at_end", Node: lb.Node,
					Note: "load_best_model_at_end keeps the best checkpoint besides the most recent ones"}
			}
		}
	}
	if wantsBest {
		dropped := "load_best_model_at_end is dropped by axolotl unless eval data, save_steps and eval_steps are set and save_steps is a multiple of eval_steps"
		if floatRemainder != "" {
			dropped = floatRemainder
		}
		if origin == plan.Default {
			// The fact points at load_best_model_at_end, and says why keep-best was dropped.
			return plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepLatest, N: limit, DroppedBest: dropped}, Origin: plan.Default, Key: key, Node: lb.Node,
				By: "the axolotl default", Note: defNote}
		}
		why = plan.Because(dropped)
	}
	return plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepLatest, N: limit}, Origin: origin, Key: key, Node: n, Note: why.Note, By: why.By}
}

// axoBestMetric: metric_for_best_model, "loss" (the Trainer's choice) when keep-best is on.
func axoBestMetric(root *doc.Node, ret plan.Fact[plan.Retention]) plan.Fact[string] {
	return trainerBestMetric(root, ret.Known() && ret.Value.Kind == plan.KeepBest)
}

// axoFloatRemainder explains a drop of load_best_model_at_end that the per-epoch counts do not
// show, given eval data and the save and eval intervals axoStepsValue derived (both positive,
// save % eval not 0): saves_per_epoch and evals_per_epoch (save_steps and eval_steps unset)
// whose counts divide, so every save falls on an evaluation, but whose floats, 1 / (count ×
// num_epochs), leave a remainder under causal.py's exact %. "" when that is not the case.
func axoFloatRemainder(root *doc.Node, saveSteps, evalSteps float64) string {
	for _, k := range []string{"save_steps", "eval_steps"} {
		if n := root.At(k); n != nil && !n.IsNull() {
			return ""
		}
	}
	// With the steps keys unset, positive intervals come from whole counts (axoStepsValue).
	saves, _ := root.At("saves_per_epoch").Int()
	evals, _ := root.At("evals_per_epoch").Int()
	if evals%saves != 0 {
		return ""
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
	return "load_best_model_at_end is dropped by axolotl: saves_per_epoch " + strconv.FormatInt(saves, 10) +
		" and evals_per_epoch " + strconv.FormatInt(evals, 10) + " put every save on an evaluation, but axolotl turns them into save_steps " +
		g(saveSteps) + " and eval_steps " + g(evalSteps) + " (fractions of the run) and keeps the reload only when save_steps % eval_steps is exactly 0 on those floats, which it is not here; " +
		"use evals_per_epoch equal to saves_per_epoch, or save_steps and eval_steps in steps with save_steps a multiple of eval_steps"
}
