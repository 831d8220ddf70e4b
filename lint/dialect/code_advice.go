package dialect

// Advice for the dialects of configs written as code (and timm's YAML), each line checked in
// the framework's source at the version its dialect names:
//
//   - MMEngine v0.10.7: CheckpointHook._save_checkpoint_with_step rotates only the regular
//     checkpoints (keep_ckpt_ids), while save_best writes best_<metric>_*.pth apart
//     (hooks/checkpoint_hook.py); with no rule, _init_rule infers one from the key's name
//     against greater_keys and less_keys (the hook's own replace the defaults: acc, top, AR@,
//     auc, precision, mAP, mDice, mIoU, mAcc, aAcc; loss) and raises ValueError for any other
//     (MMagic's PSNR, and 'auto' takes the first metric); Runner.wrap_model converts BatchNorm
//     when cfg.sync_bn is "torch" or "mmcv" in distributed runs (runner/runner.py:884);
//     SyncBuffersHook averages the model's buffers before validation (hooks/sync_buffer_hook.py).
//   - timm v1.0.28 train.py: --sync-bn, --dist-bn reduce (:345-347, :1077-1080),
//     validation_batch_size or batch_size (:804), -j/--workers 4 (:377).
//   - big_vision @0127fb6 train.py:464-468: a checkpoint is saved every ckpt_steps (or
//     ckpt_epochs, ...); none without it; keep_ckpt_steps keeps some for good.
//   - T5X @cc342d4: utils.SaveCheckpointConfig.keep keeps the most recent N (None: all);
//     checkpointer_cls = @checkpoints.SaveBestCheckpointer keeps the latest plus the N best by
//     metric_name_to_monitor (checkpoints.py:1462).
//   - scenic @4a38d47: max_checkpoint_keep (default 3) is the keep of flax's save_checkpoint,
//     the most recent N (train_lib/train_utils.py save_checkpoint).

// mmTorchSyncBN and mmSyncHookClause are MMEngine's per-step and before-evaluation ways to sync
// batch norm, as the static advice below and a backbone's own advice (mmImplicitAdvice) word
// them.
const (
	mmTorchSyncBN    = "sync_bn = 'torch' at the top level (the Runner converts every BatchNorm in distributed runs)"
	mmSyncHookClause = ", or add dict(type='SyncBuffersHook') to custom_hooks to average the statistics before validation"
)

var mmAdvice = AdviceSet{
	{"ckpt.retention", Advice{
		Help: "add save_best='<metric>' with rule='greater' or 'less' to default_hooks.checkpoint: CheckpointHook keeps the best checkpoint apart from the most recent ones that {key} rotates (save_best='auto' takes the first metric and infers its rule from its name, which fails for a name outside its greater_keys and less_keys, such as PSNR); or remove {key}",
		Key:  "default_hooks.checkpoint.max_keep_ckpts",
		Doc:  "`save_best='<metric>'` with `rule='greater'` (or `'less'`) in `default_hooks.checkpoint`: the best\n  checkpoint is kept apart from the `max_keep_ckpts` most recent ones (`'auto'` infers the rule from\n  the first metric's name, and stops at one it does not know).",
	}},
	{"bn.sync", Advice{
		Help: "use norm_cfg=dict(type='SyncBN'), or set " + mmTorchSyncBN + mmSyncHookClause,
		Doc:  "`norm_cfg=dict(type='SyncBN')`, or `sync_bn = 'torch'` at the top level, or\n  `custom_hooks = [dict(type='SyncBuffersHook')]` (averages the statistics before validation).",
	}},
	// A per-device batch too small for batch norm needs statistics over every device at each
	// step: a hook that averages the running statistics before validation does not change
	// what training normalises by.
	{"bn.per_step", Advice{
		Help: "use norm_cfg=dict(type='SyncBN'), or set " + mmTorchSyncBN,
		Doc:  "`norm_cfg=dict(type='SyncBN')`, or `sync_bn = 'torch'` at the top level.",
	}},
	{"eval.per_device_batch", Advice{Doc: "`val_dataloader.batch_size` ≥ `train_dataloader.batch_size`."}},
	// Runner.__init__ builds the validation loop from all three (mmengine v0.10.7).
	{"eval.enabled", Advice{
		Help: "set val_dataloader, val_cfg = dict(type='ValLoop') and val_evaluator (all three), and train_cfg's val_interval",
		Doc:  "`val_dataloader`, `val_cfg = dict(type='ValLoop')` and `val_evaluator` (the Runner needs all three), with `train_cfg`'s `val_interval`.",
	}},
	{"data.workers", Advice{
		IfDefault: "set train_dataloader.num_workers (e.g. 4, with persistent_workers=True): with the PyTorch DataLoader's default of 0 the training process loads every batch itself",
		Doc:       "`train_dataloader.num_workers=4` (with `persistent_workers=True`).",
	}},
}

var timmAdvice = AdviceSet{
	{"bn.sync", Advice{
		Help: "set sync_bn: true, or dist_bn: reduce (train.py then averages the statistics across processes after every epoch)",
		Doc:  "`sync_bn: true`, or `dist_bn: reduce` (the default: statistics averaged across processes\n  after every epoch).",
	}},
	{"bn.per_step", Advice{Help: "set sync_bn: true", Doc: "`sync_bn: true`."}},
	{"eval.per_device_batch", Advice{Doc: "`validation_batch_size` ≥ `batch_size` (unset, it is `batch_size`)."}},
	{"data.workers", Advice{Doc: "`workers: 4` (the default; `-j` on the command line)."}},
}

var bigVisionAdvice = AdviceSet{
	{"ckpt.enabled", Advice{
		Help: "set config.ckpt_steps (or ckpt_epochs): big_vision saves no checkpoint without it",
		Doc:  "`config.ckpt_steps = 1000` (and `config.keep_ckpt_steps` for checkpoints kept for good).",
	}},
}

var t5xAdvice = AdviceSet{
	{"ckpt.retention", Advice{
		Help: "set utils.SaveCheckpointConfig.checkpointer_cls = @checkpoints.SaveBestCheckpointer and its metric_name_to_monitor: it keeps the latest checkpoint plus the best ones by that metric; or set {key} = None to keep all",
		Key:  "utils.SaveCheckpointConfig.keep",
		Doc:  "`utils.SaveCheckpointConfig.checkpointer_cls = @checkpoints.SaveBestCheckpointer` with\n  `metric_name_to_monitor` (the latest plus the `keep` best), or `keep = None`.",
	}},
}

var scenicAdvice = AdviceSet{
	{"ckpt.retention", Advice{
		Help: "raise {key} to cover every checkpoint the run writes (scenic keeps the most recent N, with no best-N mode) and select the best one afterwards from the eval metrics",
		Key:  "max_checkpoint_keep",
		Doc:  "a `max_checkpoint_keep` that covers every checkpoint (scenic keeps the most recent N; no\n  best-N mode), then select the best from the eval metrics.",
	}},
}
