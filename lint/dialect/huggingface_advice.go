package dialect

import "github.com/trainlint/trainlint/lint/plan"

// trainerAtEnd states what the Trainer does after the last step (DefaultFlowCallback.on_step_end,
// transformers trainer_callback.py @55093b7, unchanged in the v5 tree): once global_step
// reaches max_steps it sets should_save unless save_strategy is "no" or "best", but evaluates
// only when global_step is a multiple of eval_steps. With the epoch strategies the epoch-end
// handler runs after the last step anyway, so only step intervals get a fact.
func trainerAtEnd(p *plan.Plan) {
	if iv := p.Eval.Interval; iv.Known() && iv.Value.Unit == plan.Steps {
		p.Eval.AtEnd = plan.Defaulted(false, iv.Key, plan.Because("the Trainer evaluates only at multiples of eval_steps, not after the last step"), iv.Node)
	}
	if iv := p.Ckpt.Interval; iv.Known() && iv.Value.Unit == plan.Steps {
		p.Ckpt.AtEnd = plan.Defaulted(true, iv.Key, plan.Because("the Trainer saves after the last step"), iv.Node)
	}
}

// hfAdvice is how to fix findings in Trainer arguments; the tools that forward them (axolotl,
// LLaMA-Factory) share most of it.
var hfAdvice = AdviceSet{
	{"ckpt.enabled", Advice{
		Help: `set save_strategy: "steps" with save_steps a multiple of eval_steps`,
		Doc:  "`save_strategy: \"steps\"` with `save_steps` a multiple of `eval_steps`.",
	}},
	{"ckpt.direction", Advice{
		Help: `greater_is_better defaults to true unless metric_for_best_model ends in "loss": set it to false for a loss or error rate, true for a score`,
		Doc:  "`greater_is_better: false` for a loss or error rate, `true` for a score (unset, it is true\n  unless `metric_for_best_model` ends in \"loss\").",
	}},
	{"eval.enabled", Advice{
		Help: `set eval_strategy: "steps" with eval_steps, and pass an eval dataset to the Trainer`,
		Doc:  "`eval_strategy: \"steps\"` with `eval_steps`, and an eval dataset.",
	}},
	{"ckpt.align", Advice{
		Help: `TrainingArguments raises "--load_best_model_at_end requires the save and eval strategy to match" or "... the saving steps to be a round multiple of the evaluation steps"`,
		Doc:  "`save_strategy` equal to `eval_strategy` and `save_steps` a multiple of `eval_steps`\n  (the Trainer refuses to start otherwise when `load_best_model_at_end` is on).",
	}},
	{"eval.drop_last", Advice{
		Help: "set {key} to false: the Trainer passes it to the eval loader as well as the train loader",
		Doc:  "`dataloader_drop_last: false` (the Trainer applies it to the eval loader too).",
	}},
	{"logging.sync_every", Advice{
		Help: "set {key} to 10 or more: at every logging step the Trainer all-gathers the loss and reads it on the host",
		Doc:  "`logging_steps: 10` or more (the Trainer gathers the loss across processes at every logging step).",
	}},
	{"tracking.trackers", Advice{
		Help: "set report_to to a tracker (tensorboard, wandb, mlflow, trackio, ...); transformers v5 reports nowhere by default",
		Doc:  "`report_to: tensorboard` (or wandb, mlflow, trackio, ...): since v5 the default is `none`.",
	}},
	{"ckpt.retention", Advice{
		Help: "set metric_for_best_model and save at evaluations (save_strategy equal to eval_strategy, save_steps a multiple of eval_steps): the Trainer then keeps the best evaluated checkpoint besides the latest; or remove {key}",
		Key:  "save_total_limit",
		Doc:  "add `metric_for_best_model` and save at evaluations (`save_strategy` equal to `eval_strategy`,\n  `save_steps` a multiple of `eval_steps`): the best evaluated checkpoint is then kept besides the\n  most recent ones (`load_best_model_at_end: true` also reloads it at the end); or remove\n  `save_total_limit`.",
	}},
	{"ckpt.scope", Advice{
		Help: "remove {key} (or set it to false) and save to storage every node can read",
		Key:  "save_on_each_node",
		Doc:  "remove `save_on_each_node` (default false).",
	}},
	{"logging.scope", Advice{
		Doc: "`log_on_each_node: false` limits console logs to the main process; trackers\n  already log from it.",
	}},
	{"data.workers", Advice{
		Doc: "`dataloader_num_workers: 4` (optionally with\n  `dataloader_prefetch_factor: 2`, which needs workers).",
	}},
	{"eval.per_device_batch", Advice{
		Doc: "`per_device_eval_batch_size` ≥ `per_device_train_batch_size`.",
	}},
	{"schedule.warmup", Advice{
		Help: "shorten warmup to a few per cent of training: warmup_steps as a step count, or as a fraction below 1 (transformers v5; warmup_ratio in v4)",
		Doc:  "a smaller `warmup_steps` (a step count, or a fraction below 1 in transformers v5;\n  `warmup_ratio` in v4).",
	}},
	{"data.streaming", Advice{
		Help: `set max_steps to a positive number of optimizer steps: without a dataset length the Trainer raises "args.max_steps must be set to a positive value if dataloader does not have a length"`,
		Doc:  "set `max_steps` (the Trainer cannot size an epoch of a streamed dataset and stops at start-up).",
	}},
	{"precision", Advice{
		Help: `the Trainer raises "At most one of fp16 and bf16 can be True, but not both"`,
		Doc:  "set `fp16: false` or `bf16: false` (the Trainer refuses both: \"At most one of fp16 and bf16\n  can be True, but not both\", transformers v5).",
	}},
}
