package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// hfWarmup reads warmup_steps and warmup_ratio for the transformers release target. v5
// (training_args.py @00349ae get_warmup_steps: `int(self.warmup_steps) if self.warmup_steps >= 1
// else math.ceil(num_training_steps * self.warmup_steps)`) takes warmup_steps >= 1 as steps and a
// float below 1 as a fraction of the training steps; the deprecated warmup_ratio is copied into
// warmup_steps in __post_init__. That reading came with PR #41326 ("Deprecate warmup_ratio"),
// first released in v5.0.0: there warmup_steps is a float (training_args.py:867@v5.0.0) beside
// the deprecated warmup_ratio (:860), while v4.57.6 still has `warmup_steps: int` (:942) and
// `warmup_ratio: float = 0.0` (:939; cmd/trainlint-knowledge's testdata), and v4's
// get_warmup_steps returns `self.warmup_steps if self.warmup_steps > 0 else
// math.ceil(num_training_steps * self.warmup_ratio)` (training_args.py:1871-1878 in the
// 4.28.0.dev0 copy YuanGongND/ltu vendors): warmup_steps 0.1 is a tenth of one step and
// warmup_ratio is ignored (peft issue #2949: the float form "only works in transformers v5").
// So a fraction is read for a target of 5.0.0 or later, and with no target (the newest release);
// before 5.0.0, or for a version that cannot be placed, it gives no fact. v4 used
// warmup_ratio only when warmup_steps was 0, so with both set to non-zero values the meaning
// depends on the version and both stay unknown. Absent keys (default 0) give no fact, nor does
// warmup under lr_scheduler_type constant or reduce_lr_on_plateau, which get_scheduler
// (optimization.py @005edac) builds before it reads num_warmup_steps.
func hfWarmup(root *doc.Node, target string) (steps plan.Fact[int], ratio plan.Fact[float64]) {
	if s := root.Get("lr_scheduler_type"); s != nil && (s.Value == "constant" || s.Value == "reduce_lr_on_plateau") {
		return steps, ratio
	}
	ws, hasWS := FloatAt(root, "warmup_steps")
	wr, hasWR := FloatAt(root, "warmup_ratio")
	wsOn := hasWS && ws.Known() && ws.Value > 0
	wrOn := hasWR && wr.Known() && wr.Value > 0
	switch {
	case wsOn && wrOn:
	case wrOn:
		ratio = wr
	case wsOn && ws.Value >= 1:
		steps = plan.Set(int(ws.Value), ws.Key, ws.Node)
	case wsOn && hfFractionalWarmup(target):
		ratio = ws
	}
	return steps, ratio
}

// hfFractionalWarmup reports a transformers target that reads a warmup_steps below 1 as a
// fraction of training (hfWarmup): a release from 5.0.0 on, not a pre-release of 5.0.0, or no
// target at all, which is linted for the newest release (lint.Options.Targets); not a git
// install or another version that cannot be placed.
func hfFractionalWarmup(target string) bool {
	from, known := releasedFrom(target, 5)
	return target == "" || known && from
}
