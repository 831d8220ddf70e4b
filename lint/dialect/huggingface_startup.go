package dialect

import (
	"math"
	"strconv"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Start-up checks of TrainingArguments (its __post_init__, which calls _validate_args in v5):
// the ones no playbook rule names become plan.Rejections for the rejected-at-startup rule.
// fp16 with bf16 (precision-settings-conflict) and the save/eval alignment under
// load_best_model_at_end (checkpoint-not-aligned-with-eval) are read into their facts instead.

// hfCheckSource is where the checks live.
const hfCheckSource = "TrainingArguments.__post_init__"

// hfRejections adds the start-up checks of TrainingArguments that the file fails.
func hfRejections(root *doc.Node, p *plan.Plan) {
	reject := func(r plan.Rejection) {
		r.Package, r.Source = "transformers", hfCheckSource
		p.Rejections = append(p.Rejections, r)
	}
	logging := hfStrategyAt(root, "logging_strategy", "", "steps")
	// logging_steps 0 with the steps strategy: "logging strategy steps requires non-zero
	// --logging_steps" (transformers v4.40.0 ... v5, training_args.py).
	if logging == "steps" {
		if n, v, ok := hfNumber(root, "logging_steps"); ok && v == 0 {
			reject(plan.Rejection{Node: n, Key: "logging_steps",
				Message: "logging_steps is 0 with logging_strategy \"steps\"",
				Says:    "logging strategy steps requires non-zero --logging_steps",
				Help:    "log every N steps with a positive logging_steps (e.g. 10), or set logging_strategy to \"epoch\" or \"no\"",
				Related: strategyRelated(root, "logging_strategy")})
		}
	}
	// A step count above 1 must be a whole number: "--logging_steps must be an integer if bigger
	// than 1" (the same for eval_steps and save_steps, each under its steps strategy).
	for _, c := range []struct{ steps, strategy, old, def string }{
		{"logging_steps", "logging_strategy", "", "steps"},
		{"eval_steps", "eval_strategy", "evaluation_strategy", "no"},
		{"save_steps", "save_strategy", "", "steps"},
	} {
		if hfStrategyAt(root, c.strategy, c.old, c.def) != "steps" {
			continue
		}
		n, v, ok := hfNumber(root, c.steps)
		if !ok || v <= 1 || v == math.Trunc(v) {
			continue
		}
		whole := strconv.FormatFloat(math.Round(v), 'f', -1, 64)
		reject(plan.Rejection{Node: n, Key: c.steps,
			Message: c.steps + " " + n.Value + " is above 1 and not a whole number",
			Says:    "--" + c.steps + " must be an integer if bigger than 1: " + strconv.FormatFloat(v, 'f', -1, 64),
			Help:    "write a whole number of steps (e.g. " + whole + "), or a fraction of the run below 1",
		})
	}
}

// hfStrategyAt is the strategy a key (or its old spelling) names, lowercased; def when absent;
// "" when it is not a plain string.
func hfStrategyAt(root *doc.Node, key, old, def string) string {
	f := hfStrategy(root, plan.Why{}, key, old, def, []string{"no", "steps", "epoch", "best"})
	if !f.Known() {
		return ""
	}
	return f.Value
}

// strategyRelated points at an explicit strategy key.
func strategyRelated(root *doc.Node, key string) []plan.Related {
	if n := root.Get(key); n != nil {
		return []plan.Related{{Node: n, Message: key + " set here"}}
	}
	return nil
}

// hfNumber reads a number as TrainingArguments receives it from YAML or JSON (an int or a float;
// a quoted number, which the CLI parsers convert, too).
func hfNumber(root *doc.Node, key string) (*doc.Node, float64, bool) {
	n := root.Get(key)
	if n == nil || !n.IsScalar() || n.IsNull() || n.IsUnknown() {
		return n, 0, false
	}
	if n.Type != doc.Int && n.Type != doc.Float && !(n.Type == doc.String && n.Quoted) {
		return n, 0, false
	}
	v, ok := n.Float()
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return n, 0, false
	}
	return n, v, true
}
