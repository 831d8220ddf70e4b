package dialect

// lightningRemoved are Trainer arguments Lightning removed or renamed. First those 2.0 removed
// (upgrade guide "Upgrade from 1.8 to the 2.0": PR16171, PR10061, PR16184; replace_sampler_ddp became
// use_distributed_sampler). gpus → devices is only an unsafe rename: the accelerator then comes
// from accelerator ("auto" picks the GPUs when there are some), which the old flag implied.
// All Trainer.__init__ arguments of 1.9.4 (src/pytorch_lightning/trainer/trainer.py:120-171) that
// 2.0.0's lacks (src/lightning/pytorch/trainer/trainer.py:90); the ways out of the last seven are
// 2.0.0's (src/lightning/pytorch/CHANGELOG.md:89-91,161,166,176-177,209, upgrade/sections/1_9_*.rst).
var lightningRemoved = []Key{
	{Path: "trainer.replace_sampler_ddp", Type: "boolean", Doc: "renamed use_distributed_sampler in Lightning 2.0",
		Replacement: "trainer.use_distributed_sampler", Rename: "safe", Removed: "Lightning 2.0"},
	{Path: "trainer.gpus", Type: "integer|string|array", Doc: "removed in Lightning 2.0: use devices (with accelerator gpu or auto)",
		Replacement: "trainer.devices", Rename: "unsafe", How: "use devices (with accelerator \"gpu\" or \"auto\")", Removed: "Lightning 2.0",
		// Trainer(devices=...) from 1.4.0 (pytorch_lightning/trainer/trainer.py); "Setting
		// `Trainer(gpus=...)` is deprecated in v1.7" from 1.7.0
		// (src/pytorch_lightning/trainer/connectors/accelerator_connector.py:446), not in 1.6.5.
		NewSince: "1.4", Warned: "1.7"},
	{Path: "trainer.tpu_cores", Type: "integer|array", Doc: "removed in Lightning 2.0: use devices (with accelerator tpu)",
		How: "use devices (with accelerator \"tpu\")", Removed: "Lightning 2.0"},
	{Path: "trainer.ipus", Type: "integer", Doc: "removed in Lightning 2.0: use devices (with accelerator ipu)",
		How: "use devices (with accelerator \"ipu\")", Removed: "Lightning 2.0"},
	{Path: "trainer.num_processes", Type: "integer", Doc: "removed in Lightning 2.0: use devices",
		How: "use devices", Removed: "Lightning 2.0"},
	{Path: "trainer.auto_select_gpus", Type: "boolean", Doc: "removed in Lightning 2.0: use devices: auto",
		How: "use devices: \"auto\"", Removed: "Lightning 2.0"},
	{Path: "trainer.resume_from_checkpoint", Type: "string", Doc: "removed in Lightning 2.0: pass ckpt_path to fit",
		How: "pass ckpt_path to fit (LightningCLI: ckpt_path beside trainer)", Removed: "Lightning 2.0"},
	{Path: "trainer.track_grad_norm", Type: "integer|number|string", Doc: "removed in Lightning 2.0: log grad_norm in on_before_optimizer_step", How: "log lightning.pytorch.utilities.grad_norm in the LightningModule's on_before_optimizer_step", Removed: "Lightning 2.0"},
	{Path: "trainer.auto_lr_find", Type: "boolean|string", Doc: "removed in Lightning 2.0: use Tuner(trainer).lr_find()", How: "use Tuner(trainer).lr_find() or the LearningRateFinder callback", Removed: "Lightning 2.0"},
	{Path: "trainer.auto_scale_batch_size", Type: "boolean|string", Doc: "removed in Lightning 2.0: use Tuner(trainer).scale_batch_size()", How: "use Tuner(trainer).scale_batch_size() or the BatchSizeFinder callback", Removed: "Lightning 2.0"},
	{Path: "trainer.amp_backend", Type: "string|null", Doc: "removed in Lightning 2.0 with apex: precision uses PyTorch's native AMP", How: "remove it: precision uses PyTorch's native AMP", Removed: "Lightning 2.0"},
	{Path: "trainer.amp_level", Type: "string|null", Doc: "removed in Lightning 2.0 with apex: precision uses PyTorch's native AMP", How: "remove it: precision uses PyTorch's native AMP", Removed: "Lightning 2.0"},
	{Path: "trainer.move_metrics_to_cpu", Type: "boolean", Doc: "removed in Lightning 2.0: offload in the metric (torchmetrics)", How: "offload in the metric itself, or turn it on in torchmetrics", Removed: "Lightning 2.0"},
	{Path: "trainer.multiple_trainloader_mode", Type: "string", Doc: "removed in Lightning 2.0: use CombinedLoader(..., mode=...)", How: "wrap the train loaders in CombinedLoader(..., mode=...)", Removed: "Lightning 2.0"},
	// Removed before 2.0: in 1.5.10's Trainer.__init__ and not 1.6.0's, in 1.6.5's and not
	// 1.7.0's, in 1.7.7's and not 1.8.0's (cmd/trainlint-knowledge/testdata/lightning.json); the
	// ways out are the deprecation messages of 1.5-1.6 (trainer/connectors/callback_connector.py,
	// data_connector.py, logger_connector/logger_connector.py, trainer.py @1.6.5).
	{Path: "trainer.reload_dataloaders_every_epoch", Type: "boolean", Doc: "removed in Lightning 1.6: use reload_dataloaders_every_n_epochs",
		How: "use reload_dataloaders_every_n_epochs (1 for true)", Removed: "Lightning 1.6"},
	// No rename or "delete the old key": in 1.5-1.6 the Trainer checkpoints only when both are
	// true (callback_connector.py:156 @1.6.5), null meant the default (on) where
	// enable_checkpointing takes no null before 2.0, and before 1.5 it also took a ModelCheckpoint.
	{Path: "trainer.checkpoint_callback", Type: "boolean", Doc: "removed in Lightning 1.7: use enable_checkpointing",
		How: "use enable_checkpointing with the same true or false (delete it where null)", Removed: "Lightning 1.7"},
	{Path: "trainer.weights_summary", Type: "string|null", Doc: "removed in Lightning 1.7: use enable_model_summary or a ModelSummary callback",
		How: "use enable_model_summary: false for null, or a ModelSummary callback with max_depth", Removed: "Lightning 1.7"},
	{Path: "trainer.terminate_on_nan", Type: "boolean", Doc: "removed in Lightning 1.7: its deprecation names detect_anomaly",
		How: "use detect_anomaly, which Lightning's deprecation names instead", Removed: "Lightning 1.7"},
	{Path: "trainer.progress_bar_refresh_rate", Type: "integer|null", Doc: "removed in Lightning 1.7: use a TQDMProgressBar callback with refresh_rate",
		How: "pass a TQDMProgressBar callback with refresh_rate (enable_progress_bar: false for 0)", Removed: "Lightning 1.7"},
	{Path: "trainer.process_position", Type: "integer", Doc: "removed in Lightning 1.7: use a TQDMProgressBar callback with process_position",
		How: "pass a TQDMProgressBar callback with process_position", Removed: "Lightning 1.7"},
	{Path: "trainer.flush_logs_every_n_steps", Type: "integer|null", Doc: "removed in Lightning 1.7: configure flushing in the logger",
		How: "configure flushing in the logger", Removed: "Lightning 1.7"},
	{Path: "trainer.log_gpu_memory", Type: "string|null", Doc: "removed in Lightning 1.7: use the DeviceStatsMonitor callback",
		How: "monitor GPU stats with the DeviceStatsMonitor callback", Removed: "Lightning 1.7"},
	{Path: "trainer.prepare_data_per_node", Type: "boolean|null", Doc: "removed in Lightning 1.7: set it on the LightningDataModule or LightningModule",
		How: "set prepare_data_per_node on the LightningDataModule or LightningModule", Removed: "Lightning 1.7"},
	{Path: "trainer.stochastic_weight_avg", Type: "boolean", Doc: "removed in Lightning 1.7: use the StochasticWeightAveraging callback",
		How: "pass the StochasticWeightAveraging callback", Removed: "Lightning 1.7"},
	{Path: "trainer.weights_save_path", Type: "string|null", Doc: "removed in Lightning 1.8: give ModelCheckpoint a dirpath",
		How: "give the ModelCheckpoint callback a dirpath", Removed: "Lightning 1.8"},
}
