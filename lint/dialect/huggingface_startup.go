package dialect

import (
	"math"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Start-up checks of TrainingArguments (__post_init__, which calls _validate_args from v5.0):
// the ones no playbook rule names become plan.Rejections for the rejected-at-startup rule.
// fp16 with bf16 (precision-settings-conflict) and mismatched save and eval schedules under
// load_best_model_at_end when both run (checkpoint-not-aligned-with-eval) are read into their
// facts instead.
//
// Each check was read in src/transformers/training_args.py at every minor release from v4.40.0
// to v5.15.0 (the tags of cmd/trainlint-knowledge); Since and Until bound the releases that make
// it, and the quoted text is the newest release's ValueError. YAML reaches TrainingArguments
// unconverted (HfArgumentParser.parse_yaml_file passes yaml.safe_load's values to the dataclass;
// TRL's parser sets them as argparse defaults, which argparse does not convert unless they are
// strings), so a YAML float stays a float and an unquoted no is the boolean false.

// hfCheckSource is where the checks live; hfChecked the newest release they were read at.
const (
	hfCheckSource = "TrainingArguments.__post_init__"
	hfChecked     = "5.15"
)

// hfRejections adds the start-up checks of TrainingArguments that the file fails.
func hfRejections(root *doc.Node, p *plan.Plan) {
	reject := func(r plan.Rejection) {
		r.Package, r.Source, r.Read = "transformers", hfCheckSource, hfChecked
		p.Rejections = append(p.Rejections, r)
	}
	hfStrategyBooleans(root, reject)
	logging := hfStrategyAt(root, "logging_strategy", "", "steps")
	eval := hfStrategyAt(root, "eval_strategy", "evaluation_strategy", "no")
	save := hfStrategyAt(root, "save_strategy", "", "steps")
	evalKey := "eval_strategy"
	if root.Get(evalKey) == nil && root.Get("evaluation_strategy") != nil {
		evalKey = "evaluation_strategy"
	}
	logN, logV, logOK := hfNumber(root, "logging_steps")

	// eval_steps unset (or 0) under the steps strategy falls back to logging_steps, which must
	// then be positive (v4.40.0-v5.15.0).
	evalFallbackFails := false
	if eval == "steps" && logOK && logV <= 0 {
		if n, v, ok := hfNumber(root, "eval_steps"); !ok && (n == nil || n.IsNull()) || ok && v == 0 {
			evalFallbackFails = true
			reject(plan.Rejection{Node: logN, Key: "logging_steps",
				Message: "eval_steps is not set and logging_steps is " + logN.Value + " with " + evalKey + " \"steps\"",
				Says:    "evaluation strategy steps requires either non-zero --eval_steps or --logging_steps",
				Help:    "set eval_steps to a positive number of steps (and logging_steps too)",
				Related: strategyRelated(root, evalKey)})
		}
	}
	// logging_steps 0 with the steps strategy (v4.40.0-v5.15.0).
	if logging == "steps" && logOK && logV == 0 && !evalFallbackFails {
		reject(plan.Rejection{Node: logN, Key: "logging_steps",
			Message: "logging_steps is 0 with logging_strategy \"steps\"",
			Says:    "logging strategy steps requires non-zero --logging_steps",
			Help:    "log every N steps with a positive logging_steps (e.g. 10), or set logging_strategy to \"epoch\" or \"no\"",
			Related: strategyRelated(root, "logging_strategy")})
	}
	// A step count above 1 must be a whole number, each under its steps strategy
	// (v4.40.0-v5.15.0): "--logging_steps must be an integer if bigger than 1".
	for _, c := range []struct{ steps, strategy string }{
		{"logging_steps", logging}, {"eval_steps", eval}, {"save_steps", save},
	} {
		if c.strategy != "steps" {
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
	hfLoadBestWithoutSchedule(root, reject, eval, save, evalKey)
	hfSchedulerNeedsEval(root, reject, eval, evalKey)
	hfPrecisionAndLoaderChecks(root, reject)
}

// hfLoadBestWithoutSchedule: load_best_model_at_end needs the save and eval strategies to match
// (save_strategy "best" is exempt from v4.48.0). When both run, checkpoint-not-aligned-with-eval
// reports a mismatch; here one of them is "no".
func hfLoadBestWithoutSchedule(root *doc.Node, reject func(plan.Rejection), eval, save, evalKey string) {
	lb, ok := pyBoolAt(root, "load_best_model_at_end")
	if !ok || !lb.Known() || !lb.Value || eval == "" || save == "" || save == "best" || eval == save {
		return
	}
	if eval != "no" && save != "no" {
		return
	}
	msg := "load_best_model_at_end is on but evaluation is off (" + evalKey + " \"no\")"
	help := "evaluate with the same strategy as saving (" + evalKey + " \"" + save + "\"; with \"steps\", save_steps a multiple of eval_steps), or remove load_best_model_at_end"
	if save == "no" {
		msg = "load_best_model_at_end is on but checkpoints are off (save_strategy \"no\")"
		help = "save with the same strategy as evaluating (save_strategy \"" + eval + "\"; with \"steps\", save_steps a multiple of eval_steps), or remove load_best_model_at_end"
	}
	var rel []plan.Related
	rel = append(rel, strategyRelated(root, evalKey)...)
	rel = append(rel, strategyRelated(root, "save_strategy")...)
	reject(plan.Rejection{Node: lb.Node, Key: "load_best_model_at_end", Message: msg,
		Says:    "--load_best_model_at_end requires the save and eval strategy to match",
		Help:    help,
		Related: rel})
}

// hfSchedulerNeedsEval: reduce_lr_on_plateau (v4.40.0-v5.15.0) and greedy (from v5.4.0) step on
// an eval metric, so they need an eval strategy.
func hfSchedulerNeedsEval(root *doc.Node, reject func(plan.Rejection), eval, evalKey string) {
	n := root.Get("lr_scheduler_type")
	if n == nil || !n.IsScalar() || n.Type != doc.String || eval != "no" {
		return
	}
	v := strings.TrimSpace(n.Value)
	since := ""
	switch v {
	case "reduce_lr_on_plateau":
	case "greedy":
		since = "5.4"
	default:
		return
	}
	what := evalKey + " is not set, so nothing is evaluated"
	if root.Get(evalKey) != nil {
		what = evalKey + " is \"no\""
	}
	reject(plan.Rejection{Node: n, Key: "lr_scheduler_type", Since: since,
		Message: "lr_scheduler_type \"" + v + "\" steps on an eval metric but " + what,
		Says:    "lr_scheduler_type " + v + " requires an eval strategy",
		Help:    "turn on evaluation (" + evalKey + " \"steps\" or \"epoch\"), or use a schedule that does not read an eval metric (e.g. \"cosine\")",
		Related: strategyRelated(root, evalKey)})
}

// hfPrecisionAndLoaderChecks: full-eval precision, warmup, loader prefetch, empty_cache interval,
// apex with bf16 and contradicting FSDP modes.
func hfPrecisionAndLoaderChecks(root *doc.Node, reject func(plan.Rejection)) {
	on := func(key string) (*doc.Node, bool) {
		f, ok := pyBoolAt(root, key)
		return f.Node, ok && f.Known() && f.Value
	}
	// fp16_full_eval with bf16_full_eval (v4.40.0-v5.15.0).
	if fn, f := on("fp16_full_eval"); f {
		if bn, b := on("bf16_full_eval"); b {
			reject(plan.Rejection{Node: fn, Key: "fp16_full_eval",
				Message: "fp16_full_eval and bf16_full_eval are both on",
				Says:    "At most one of fp16 and bf16 can be True for full eval, but not both",
				Help:    "keep one: bf16_full_eval on Ampere or newer GPUs, fp16_full_eval on older ones",
				Related: []plan.Related{{Node: bn, Message: "bf16_full_eval is on here"}}})
		}
	}
	// warmup_ratio outside [0, 1] (v4.x); from v5.0 it is copied into warmup_steps, which must
	// not be negative (until warmup_ratio left in v5.15).
	if n, v, ok := hfNumber(root, "warmup_ratio"); ok {
		if v < 0 || v > 1 {
			reject(plan.Rejection{Node: n, Key: "warmup_ratio", Until: "5.0",
				Message: "warmup_ratio " + n.Value + " is outside [0, 1]",
				Says:    "warmup_ratio must lie in range [0,1]",
				Help:    "warmup_ratio is a fraction of the training steps: use a value from 0 to 1 (e.g. 0.03)"})
		}
		if v < 0 {
			reject(plan.Rejection{Node: n, Key: "warmup_ratio", Since: "5.0", Until: "5.15",
				Message: "warmup_ratio " + n.Value + " is negative",
				Says:    "warmup_steps must be an integer or a float",
				Help:    "use warmup_steps with a fraction of the run below 1 (e.g. 0.03) or a number of steps"})
		}
	}
	if n, v, ok := hfNumber(root, "warmup_steps"); ok && v < 0 {
		reject(plan.Rejection{Node: n, Key: "warmup_steps", Since: "5.0",
			Message: "warmup_steps " + n.Value + " is negative",
			Says:    "warmup_steps must be an integer or a float",
			Help:    "use a number of steps, or a fraction of the run below 1 (e.g. 0.03)"})
	}
	// dataloader_prefetch_factor without loader workers (v4.40.0-v5.15.0; the message said
	// "> 1" before v4.48.0).
	if pf := root.Get("dataloader_prefetch_factor"); pf != nil && !pf.IsNull() && !pf.IsUnknown() {
		workers := 0.0
		wn, wv, wok := hfNumber(root, "dataloader_num_workers")
		if wn != nil && !wn.IsNull() {
			if !wok {
				return // not known: nothing to say
			}
			workers = wv
		}
		if workers == 0 {
			r := plan.Rejection{Node: pf, Key: "dataloader_prefetch_factor",
				Message: "dataloader_prefetch_factor is set but dataloader_num_workers is 0",
				Help:    "set dataloader_num_workers to the number of loader processes (e.g. 4), or remove dataloader_prefetch_factor",
			}
			if wn != nil {
				r.Related = []plan.Related{{Node: wn, Message: "dataloader_num_workers set here"}}
			} else {
				r.Message = "dataloader_prefetch_factor is set but dataloader_num_workers is not (the Trainer default 0)"
			}
			old := r
			old.Until = "4.48"
			old.Says = "--dataloader_prefetch_factor can only be set when data is loaded in a different process, i.e. when --dataloader_num_workers > 1."
			r.Since = "4.48"
			r.Says = "--dataloader_prefetch_factor can only be set when data is loaded in a different process, i.e. when --dataloader_num_workers > 0."
			reject(old)
			reject(r)
		}
	}
	hfCacheAndBackendChecks(root, reject, on)
}

// hfCacheAndBackendChecks: torch_empty_cache_steps, apex with bf16, contradicting FSDP modes.
func hfCacheAndBackendChecks(root *doc.Node, reject func(plan.Rejection), on func(string) (*doc.Node, bool)) {
	// torch_empty_cache_steps must be an int above 0 (v4.50.0 on; v4.43-v4.49 let an int 0 pass).
	if n := root.Get("torch_empty_cache_steps"); n != nil && n.IsScalar() && !n.IsNull() && !n.IsUnknown() {
		bad := n.Type != doc.Int
		if v, ok := n.Int(); ok && n.Type == doc.Int && v <= 0 {
			bad = true
		}
		if bad && (n.Type == doc.Int || n.Type == doc.Float) {
			reject(plan.Rejection{Node: n, Key: "torch_empty_cache_steps", Since: "4.50",
				Message: "torch_empty_cache_steps " + n.Value + " is not a whole number above 0",
				Says:    "`torch_empty_cache_steps` must be an integer bigger than 0, got " + n.Value + ".",
				Help:    "give a whole number of steps between torch.cuda.empty_cache() calls, or remove the key"})
		}
	}
	// bf16 with the apex half-precision backend (v4.x; v5.0 dropped the backend choice).
	if bn, b := on("bf16"); b {
		if h := root.Get("half_precision_backend"); h != nil && h.IsScalar() && strings.TrimSpace(h.Value) == "apex" {
			reject(plan.Rejection{Node: h, Key: "half_precision_backend", Until: "5.0",
				Message: "half_precision_backend \"apex\" cannot train in bf16",
				Says:    " `--half_precision_backend apex`: GPU bf16 is not supported by apex.",
				Help:    "use half_precision_backend \"auto\" (torch amp) for bf16",
				Related: []plan.Related{{Node: bn, Message: "bf16 is on here"}}})
		}
	}
	// fsdp full_shard with shard_grad_op (v4.40.0-v5.9.0).
	if n := root.Get("fsdp"); n != nil && n.IsScalar() && n.Type == doc.String {
		words := map[string]bool{}
		for _, w := range strings.Fields(n.Value) {
			words[w] = true
		}
		if words["full_shard"] && words["shard_grad_op"] {
			reject(plan.Rejection{Node: n, Key: "fsdp", Until: "5.10",
				Message: "fsdp asks for full_shard and shard_grad_op at once",
				Says:    "`--fsdp full_shard` is not compatible with `--fsdp shard_grad_op`.",
				Help:    "keep one sharding mode: full_shard (ZeRO-3-like) or shard_grad_op (ZeRO-2-like)"})
		}
	}
}

// hfStrategyBooleans: PyYAML reads an unquoted no/off/yes/on as a boolean, and the strategy
// enums reject it (IntervalStrategy(False): "False is not a valid IntervalStrategy"), at every
// release read. The fix quotes "no", which is what the file means.
func hfStrategyBooleans(root *doc.Node, reject func(plan.Rejection)) {
	for _, key := range []string{"eval_strategy", "evaluation_strategy", "save_strategy", "logging_strategy", "hub_strategy"} {
		n := root.Get(key)
		if n == nil || !n.IsScalar() || n.Quoted || n.Type != doc.String && n.Type != doc.Bool {
			continue
		}
		v := strings.TrimSpace(n.Value)
		if !pyYAMLBool[v] {
			continue
		}
		b, _ := pyBool(n)
		if n.Type == doc.Bool {
			b, _ = n.Bool()
		}
		py := "False"
		if b {
			py = "True"
		}
		r := plan.Rejection{Node: n, Key: key,
			Message: key + " " + n.Value + " is read as the boolean " + strings.ToLower(py) + " (YAML 1.1), not a strategy",
			Says:    py + " is not a valid " + hfStrategyEnum(key),
			Help:    "quote the strategy: " + key + ": \"no\""}
		if strings.EqualFold(v, "no") {
			r.Fix = &plan.Fix{Node: n, Value: "\"no\"", Safe: true, Message: "quote \"no\""}
		}
		reject(r)
	}
}

// pyYAMLBool are the plain scalars PyYAML's resolver reads as booleans (its bool regexp: each
// word in lower, capitalised or upper case; y and n are strings).
var pyYAMLBool = map[string]bool{}

func init() {
	for _, w := range []string{"yes", "no", "true", "false", "on", "off"} {
		pyYAMLBool[w], pyYAMLBool[strings.ToUpper(w[:1])+w[1:]], pyYAMLBool[strings.ToUpper(w)] = true, true, true
	}
}

// hfStrategyEnum names the enum a strategy key is converted to (SaveStrategy from v4.48.0;
// messages quote the newest release).
func hfStrategyEnum(key string) string {
	switch key {
	case "save_strategy":
		return "SaveStrategy"
	case "hub_strategy":
		return "HubStrategy"
	}
	return "IntervalStrategy"
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

// hfEvalNameBefore441 names evaluation_strategy, eval_strategy's name before transformers 4.41
// (PR #30190), in an unset strategy's finding and in the help, when the file is linted for an
// older version: HfArgumentParser refuses eval_strategy there (Firefly pins 4.34).
func hfEvalNameBefore441(p *plan.Plan, root *doc.Node, ctx Context) {
	v := ParseVersion(ctx.Targets["transformers"])
	if v == nil || CompareVersions(v, []int{4, 41}) >= 0 || root.Get("eval_strategy") != nil {
		return
	}
	if p.Eval.Enabled.Key == "eval_strategy" {
		p.Eval.Enabled.Key = "evaluation_strategy"
	}
	if p.Advice == nil {
		p.Advice = map[string]string{}
	}
	p.Advice["eval.enabled"] = `set evaluation_strategy: "steps" with eval_steps (eval_strategy from transformers 4.41), and pass an eval dataset to the Trainer`
	p.Advice["ckpt.retention"] = strings.ReplaceAll(hfAdvice.For("ckpt.retention").Help, "eval_strategy", "evaluation_strategy")
}

// hfReportToBefore5 makes an unset report_to unknown when the file is linted for transformers
// 4.x: before 5.0 TrainingArguments.__post_init__ turned it into "all" (v4.52.3), every
// integration installed, which the file does not say. So does a target that is no version
// (installed from a git commit), which may be a 4.x one, and, with no target at all, a file
// that sets a key transformers 5.0 no longer takes (finetune-hf-vits' overwrite_output_dir,
// under requirements of transformers>=4.35.1): HfArgumentParser refuses it from 5.0, so the
// file runs on 4.x.
func hfReportToBefore5(p *plan.Plan, root *doc.Node, ctx Context) {
	if p.Tracking.Trackers.Origin != plan.Default {
		return
	}
	t := ctx.Targets["transformers"]
	if v := ParseVersion(t); v == nil && t != "" || v != nil && CompareVersions(v, []int{5}) < 0 || t == "" && hfSetsRemovedBy5(root) {
		p.Tracking.Trackers = plan.Fact[[]string]{Key: "report_to", Node: p.Tracking.Trackers.Node}
	}
}

// hfSetsRemovedBy5 reports a file that sets a key of TrainingArguments that no release from 5.0
// on takes (hfVersions' removals at 5.0 or before).
func hfSetsRemovedBy5(root *doc.Node) bool {
	for _, v := range hfVersions {
		r, ok := strings.CutPrefix(v.removed, "transformers ")
		if !ok || v.path == "" || root.Get(v.path) == nil {
			continue
		}
		if rv := ParseVersion(r); rv != nil && CompareVersions(rv, []int{5}) <= 0 {
			return true
		}
	}
	return false
}
