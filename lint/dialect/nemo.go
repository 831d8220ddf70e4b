package dialect

// The NeMo dialect reads NeMo 1.x Hydra YAML (examples/*/conf): a Lightning `trainer:` section,
// `exp_manager:` (logging, checkpoint callback, time limit) and `model:` (Megatron batch sizes,
// seed, data; ASR/TTS train_ds/validation_ds). NeMo 2.0 recipes are Python and out of scope.
//
// Verified against NVIDIA/NeMo @8cfedd7 (package_info 2.6.0rc0):
//   - nemo/utils/exp_manager.py CallbackParams: monitor "val_loss", save_top_k 3, mode "min",
//     save_last True, every_n_epochs 1, every_n_train_steps None, train_time_interval None.
//   - ExpManagerConfig: create_checkpoint_callback True, create_tensorboard_logger True, other
//     create_*_logger False, log_local_rank_0_only False, log_global_rank_0_only False (then every
//     rank adds a file handler nemo_log_globalrank-G_localrank-L.txt; both True is an error),
//     max_time_per_run None ("DD:HH:MM:SS", replaces trainer.max_time).
//   - megatron_base_model.py: seed = cfg.get('seed', 1234); megatron_init._set_random_seed adds
//     100 × pipeline rank only, so data-parallel ranks share the init seed.
//   - megatron_gpt_model.py: data.validation_drop_last defaults True; the Megatron batch samplers
//     slice one global index by data-parallel rank; loaders use cfg.data.num_workers (no default).
//   - asr/modules/conformer_encoder.py conv_norm_type='batch_norm'; parts/submodules/jasper.py
//     normalization="batch" (ConvASREncoder: QuartzNet, Jasper, Citrinet, TitaNet).

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

var nemoDefault = plan.Why{By: "the NeMo exp_manager default", Note: "2.6"}
var nemoModelDefault = plan.Why{By: "the NeMo Megatron default", Note: "2.6"}

// NeMo is the NVIDIA NeMo 1.x (Hydra YAML) dialect.
var NeMo = register(newNeMo())

// newNeMo builds NeMo (a function of its own: see register).
func newNeMo() *Dialect {
	return &Dialect{
		Name:         "nemo",
		Title:        "NVIDIA NeMo 1.x",
		Version:      "nemo 2.6.0rc0 (NVIDIA/NeMo @8cfedd7: nemo/utils/exp_manager.py, examples/*/conf) with Lightning 2.6 trainer semantics",
		Formats:      []doc.Format{doc.YAML, doc.JSON},
		Detect:       detectNeMo,
		Normalize:    normalizeNeMo,
		Keys:         nemoKeys,
		Label:        "NeMo",
		Loader:       TorchDataLoader,
		Interpolates: true,
		// exp_manager() (nemo/utils/exp_manager.py, every tag read from v1.20.0 to v2.5.0rc0)
		// merges the file's exp_manager: into OmegaConf.structured(ExpManagerConfig); a structured
		// config is in struct mode, so a key its dataclass lacks raises at start-up, at each level
		// typed with a dataclass (the Dict-typed *_kwargs of TensorBoard, W&B and Neptune stay open).
		Knowledge: "nemo-toolkit",
		Package:   "nemo-toolkit",
		Sections:  nemoSections,
		Advice: lightningAdvice(AdviceSet{
			{"batch.arithmetic", Advice{
				Help: "Megatron's micro-batch calculator stops at start-up when the global batch is not divisible by micro batch × data-parallel size: make {key} a multiple of it",
				Doc:  "make `model.global_batch_size` a multiple of `model.micro_batch_size` × data-parallel size\n  (devices × nodes / (tensor × pipeline × context parallel size)).",
			}},
			{"logging.scope", Advice{
				Help: "log from one host only: set exp_manager.log_global_rank_0_only: true",
				Doc:  "`exp_manager.log_global_rank_0_only: true` (`log_local_rank_0_only` still writes one file per node).",
			}},
			{"ckpt.retention", Advice{
				Help: "give exp_manager.checkpoint_callback_params a monitor (e.g. val_loss) and mode so save_top_k keeps the best checkpoints",
				Doc:  "`exp_manager.checkpoint_callback_params.monitor` (and `mode`) so `save_top_k` keeps the best k.",
			}},
			{"data.workers", Advice{Doc: "`model.train_ds.num_workers` or `model.data.num_workers`."}},
			{"eval.per_device_batch", Advice{Doc: "`model.validation_ds.batch_size`."}},
			// Megatron GPT weights the padded samples out of the loss (num_valid_tokens_in_ub); some
			// multimodal models (Neva) raise NotImplementedError for false, hence no fix.
			{"eval.drop_last", Advice{
				Help: "set {key}: false where the model supports it (GPT pretraining configs also set pad_samples_to_global_batch_size: true; some multimodal models refuse it)",
				Doc:  "`model.data.validation_drop_last: false` (GPT pretraining, with `pad_samples_to_global_batch_size:\n  true`) or `model.data.validation_ds.drop_last: false` (SFT), where the model supports it (some\n  multimodal models refuse it).",
			}},
		}),
	}
}

func detectNeMo(d *doc.Document) int {
	root := d.Root
	if !isMap(root) {
		return 0
	}
	s := 0
	em := root.Get("exp_manager")
	if isMap(em) {
		s += 60
		if em.Get("checkpoint_callback_params") != nil || em.Get("create_checkpoint_callback") != nil || em.Get("exp_dir") != nil {
			s += 20
		}
	}
	if isMap(root.Get("trainer")) {
		s += 10
	}
	if isMap(root.Get("model")) {
		s += 5
	}
	for _, k := range []string{"model.micro_batch_size", "model.global_batch_size", "model.tensor_model_parallel_size", "model.pipeline_model_parallel_size"} {
		if root.At(k) != nil {
			s += 15
		}
	}
	// Evaluation scripts' configs keep the parallel sizes at the top level.
	// (LLaMA-Factory's mcore configs have the same keys at the top level, but no trainer.)
	if isMap(root.Get("trainer")) {
		for _, k := range []string{"tensor_model_parallel_size", "pipeline_model_parallel_size"} {
			if root.Get(k) != nil {
				s += 25
			}
		}
	}
	if root.Get("restore_from_path") != nil || root.Get("gpt_model_file") != nil {
		s += 10
	}
	nemoTarget := false
	root.Walk(func(n *doc.Node) bool {
		if nemoTarget {
			return false
		}
		if n.Key == "_target_" && n.Kind == doc.Scalar && strings.HasPrefix(n.Value, "nemo.") {
			nemoTarget = true
		}
		return true
	})
	if nemoTarget {
		s += 50
	}
	return Cap(s)
}

// nemoTrains reports whether a config may train. NeMo's training scripts build an optimizer from
// an optim (or optimizer) section and read training data from a train_ds (or train_dataset)
// section; a config with neither anywhere that has a slot for a trained model to load
// (restore_from_path, gpt_model_file, even when left null for the command line) or inference
// settings (inference, prompts) is an inference, export or evaluation script's
// (megatron_gpt_inference.yaml, megatron_t5_config_finetune_eval.yaml).
// A fragment with neither kind of key is judged as a training config, as before.
func nemoTrains(root *doc.Node) bool {
	trains, infers := false, false
	root.Walk(func(n *doc.Node) bool {
		switch n.Key {
		case "optim", "optimizer", "train_ds", "train_dataset":
			trains = true
		case "restore_from_path", "gpt_model_file", "inference", "prompts":
			infers = true
		}
		return !trains
	})
	return trains || !infers
}

// isMegatron reports a Megatron model section (micro/global batch, model parallelism).
func isMegatron(model *doc.Node) bool {
	for _, k := range []string{"micro_batch_size", "global_batch_size", "tensor_model_parallel_size", "pipeline_model_parallel_size"} {
		if model.Get(k) != nil {
			return true
		}
	}
	return false
}

func normalizeNeMo(d *doc.Document, ctx Context) *plan.Plan {
	p := &plan.Plan{Framework: "nemo"}
	omegaconfLoadChecks(p, d, byOmegaConf) // the file is loaded with OmegaConf (kit_omegaconf.go)
	root := d.Root
	if !isMap(root) {
		ApplyContext(p, ctx)
		return p
	}
	if !nemoTrains(root) {
		// An inference, export or evaluation script's config (megatron_gpt_inference.yaml,
		// megatron_t5_config_finetune_eval.yaml): nothing trains, so no training rule applies.
		p.Variant = "eval"
		ApplyContext(p, ctx)
		return p
	}
	note := lightningDefault
	tr := root.Get("trainer")
	if isMap(tr) {
		readTrainerCommon(p, root, tr, "trainer", note)
		lightningEvalAtEnd(p, tr) // NeMoModelCheckpoint.on_train_end saves last.ckpt "as validation isn't always run based on the interval"
	} else {
		tr = nil
	}
	em := root.Get("exp_manager")
	if !isMap(em) {
		em = nil
	}
	model := root.Get("model")
	if !isMap(model) {
		model = nil
	}
	// Evaluation scripts' configs keep the model keys at the top level.
	mPrefix := "model"
	if model == nil && isMegatron(root) {
		model, mPrefix = root, ""
	}
	megatron := model != nil && isMegatron(model)
	if megatron && p.BN.Sync.Known() && p.BN.Sync.Value != plan.BNSyncPerStep {
		// NLPDDPStrategy.configure_ddp (nlp_overrides.py @8cfedd7) wraps a Megatron model in
		// DDP with the default kwargs (so buffers are broadcast) unless megatron_amp_O2 or a
		// distributed optimizer is on: which one applies is not read here.
		p.BN.Sync = plan.Fact[plan.BNSync]{Key: p.BN.Sync.Key, Node: p.BN.Sync.Node, Note: "Megatron models are wrapped in DDP only in some set-ups"}
		p.BN.Broadcaster = ""
	}

	// Checkpoints come from exp_manager, not from the Lightning Trainer (NeMo configs set
	// trainer.enable_checkpointing: false for that reason).
	if em != nil {
		p.Ckpt.Enabled = boolFact(root, em, "exp_manager", "create_checkpoint_callback", true, true, nemoDefault)
		if e := p.Ckpt.Enabled; e.Known() && !e.Value && tr != nil {
			// Without NeMo's callback, the Lightning Trainer keeps its own unless
			// trainer.enable_checkpointing is false: left out it is true, and the Trainer adds
			// ModelCheckpoint() (trainer.py:380-381 and callback_connector.py:86-94, Lightning
			// 2.5.0; exp_manager.py @8cfedd7 only skips configure_checkpointing). Which
			// checkpoints that one keeps is not read here.
			if lc := boolFact(root, tr, "trainer", "enable_checkpointing", true, true, nemoDefault); !lc.Known() || lc.Value {
				p.Ckpt.Enabled = plan.Fact[bool]{Key: e.Key, Node: e.Node, Note: "the Lightning Trainer's own ModelCheckpoint saves unless trainer.enable_checkpointing is false"}
			}
		}
		if p.Ckpt.Enabled.Known() && p.Ckpt.Enabled.Value {
			params := em.Get("checkpoint_callback_params")
			if !isMap(params) {
				params = nil
			}
			at := params
			if at == nil {
				at = em
			}
			readCheckpointParams(p, root, params, "exp_manager.checkpoint_callback_params", at,
				ckptDefaults{saveTopK: 3, monitor: "val_loss", everyNEpochs: 1, note: nemoDefault})
			// CallbackParams.save_on_train_epoch_end defaults to False: save after validation
			// (NeMoModelCheckpoint overrides neither on_validation_end nor on_train_epoch_end,
			// nemo/utils/callbacks/nemo_model_checkpoint.py @8cfedd7).
			no := false
			alignCkptWithEval(p, params, &no)
			lightningUnaligned(p) // NeMoModelCheckpoint is a ModelCheckpoint
		}
		scope, why := plan.PrimaryHost, plan.Because("NeMo saves through Lightning from global rank 0")
		if model != nil && model.Get("dist_ckpt_format") != nil {
			scope, why = plan.Sharded, plan.Because("Megatron distributed checkpoints: every rank writes its shard")
		}
		p.Ckpt.Scope = plan.Defaulted(scope, "exp_manager.checkpoint_callback_params", why, nil)

		// Logging: per-rank log files unless one of the rank-0 switches is on. The switches only
		// decide who writes nemo_log_*.txt: metrics go through Lightning loggers, which write
		// from global rank 0 anyway.
		p.Logging.TextLogsOnly = true
		loc := boolFact(root, em, "exp_manager", "log_local_rank_0_only", false, true, nemoDefault)
		glob := boolFact(root, em, "exp_manager", "log_global_rank_0_only", false, true, nemoDefault)
		switch {
		case !loc.Known() || !glob.Known():
			p.Logging.Scope = plan.Fact[plan.Scope]{Key: "exp_manager.log_global_rank_0_only", Node: glob.Node}
		case glob.Value && !loc.Value:
			p.Logging.Scope = plan.Set(plan.PrimaryHost, glob.Key, glob.Node)
		case loc.Value && !glob.Value:
			p.Logging.Scope = plan.Set(plan.EveryHost, loc.Key, loc.Node)
		case loc.Value && glob.Value:
			p.Logging.Scope = plan.Fact[plan.Scope]{Key: glob.Key, Node: glob.Node, Note: "both rank-0 switches on is an error in exp_manager"}
		default:
			// Located at the exp_manager section (when present), where the switch belongs.
			f := plan.Fact[plan.Scope]{Value: plan.EveryRank, Origin: plan.Default, Key: "exp_manager.log_global_rank_0_only", Node: em,
				By: nemoDefault.By, Note: nemoDefault.Plus("log_global_rank_0_only and log_local_rank_0_only are false, so every rank writes its own nemo_log_globalrank-G_localrank-L.txt").Note}
			if glob.IsExplicit() || loc.IsExplicit() {
				f.Origin, f.By = plan.Explicit, ""
				f.Node = glob.Node
				if f.Node == nil {
					f.Node, f.Key = loc.Node, loc.Key
				}
				f.Note = "every rank writes its own nemo_log_globalrank-G_localrank-L.txt"
			}
			p.Logging.Scope = f
		}

		readNeMoTracking(p, root, em)

		// Time budget: exp_manager.max_time_per_run replaces trainer.max_time.
		if n := em.Get("max_time_per_run"); n != nil && !n.IsNull() {
			f, _ := durationFact(n, keyOf(n, "exp_manager", "max_time_per_run"))
			p.Train.TimeBudget = f
			// exp_manager's StatelessTimer stops the job after this time so that a scheduler can
			// start the next one, which resumes from the checkpoint it saved.
			p.Train.TimeBudgetPerJob = true
		}
	}

	if model != nil {
		readNeMoModel(p, root, model, mPrefix, megatron, tr)
	}
	if tr != nil && megatron && p.Data.Sharding.Known() == false {
		// Megatron configs turn off Lightning's sampler and use Megatron batch samplers, which
		// split one global index by data-parallel rank.
		p.Data.Sharding = plan.Defaulted(plan.GlobalIndexSampler, joinKey(mPrefix, "data.dataloader_type"),
			nemoModelDefault.Plus("Megatron batch samplers slice one global index by data-parallel rank"), nil)
	}
	readBNPresent(p, root)
	ApplyContext(p, ctx)
	return p
}

func readNeMoTracking(p *plan.Plan, root, em *doc.Node) {
	loggers := []struct{ key, name string }{
		{"create_tensorboard_logger", "tensorboard"}, {"create_wandb_logger", "wandb"},
		{"create_mlflow_logger", "mlflow"}, {"create_dllogger_logger", "dllogger"},
		{"create_clearml_logger", "clearml"}, {"create_neptune_logger", "neptune"},
	}
	names := []string{}
	explicit, known := false, true
	var at *doc.Node
	for _, l := range loggers {
		f := boolFact(root, em, "exp_manager", l.key, l.name == "tensorboard", true, nemoDefault)
		if !f.Known() {
			known = false
			continue
		}
		if f.IsExplicit() {
			explicit = true
			if at == nil || f.Value {
				at = f.Node
			}
		}
		if f.Value {
			names = append(names, l.name)
		}
	}
	switch {
	case !known:
		p.Tracking.Trackers = plan.Fact[[]string]{Key: "exp_manager", Node: em}
	case explicit:
		p.Tracking.Trackers = plan.Set(names, "exp_manager", em)
		if at != nil {
			p.Tracking.Trackers.Key, p.Tracking.Trackers.Node = at.Path().String(), at
		}
	default:
		p.Tracking.Trackers = plan.Defaulted(names, "exp_manager.create_tensorboard_logger", nemoDefault, em)
	}
	if tr := p.Tracking.Trackers; tr.Known() && len(tr.Value) == 0 {
		// exp_manager makes no logger, and refuses the Trainer's only when it makes one itself
		// (exp_manager.py @8cfedd7, configure_loggers): the Trainer's own logger, on unless
		// trainer.logger is false (a TensorBoardLogger, Lightning 2.5.0
		// logger_connector.py:67-84), still tracks the run.
		// With no trainer section here, the Trainer's arguments (its logger among them) are set
		// elsewhere, so whether it logs is not known either.
		t := root.Get("trainer")
		if lg := boolFact(root, t, "trainer", "logger", true, true, nemoDefault); !isMap(t) || !lg.Known() || lg.Value {
			p.Tracking.Trackers = plan.Fact[[]string]{Key: tr.Key, Node: tr.Node, Note: "the Lightning Trainer's own logger tracks the run unless trainer.logger is false"}
		}
	}
	for _, k := range []string{"wandb_logger_kwargs.name", "name"} {
		if n := em.At(k); n != nil {
			if s, ok := strValue(n); ok && s != "" {
				p.Tracking.RunName = plan.Set(s, n.Path().String(), n)
				return
			}
		}
	}
	if n := root.Get("name"); n != nil {
		if s, ok := strValue(n); ok && s != "" {
			p.Tracking.RunName = plan.Set(s, "name", n)
		}
	}
}

func readNeMoModel(p *plan.Plan, root, model *doc.Node, mPrefix string, megatron bool, tr *doc.Node) {
	if megatron {
		micro := intFact(root, model, mPrefix, "micro_batch_size", 0, false, plan.Because(""))
		p.Train.PerDeviceBatch = micro
		if micro.Known() {
			e := micro
			e.Origin, e.Note = plan.Derived, "= "+micro.Key+": Megatron evaluates with the micro batch"
			p.Eval.PerDeviceBatch = e
		}
		p.Train.GlobalBatch = intFact(root, model, mPrefix, "global_batch_size", 0, false, plan.Because(""))
		// Gradient accumulation is derived: global / (micro × data-parallel size), where
		// data-parallel size = devices × nodes / (tensor × pipeline × context parallel).
		// trainer.accumulate_grad_batches must stay 1 for these models, so it says nothing.
		// The micro-batch calculator asserts "global batch size (G) is not divisible by micro
		// batch size (M) times data parallel size (D)" (megatron_init.initialize_model_parallel_for_nemo
		// sets up a constant calculator without decrease_batch_size_if_needed; data-parallel size =
		// world size / (tensor × pipeline × context parallel) in fake_initialize_model_parallel).
		p.Schedule.GlobalBatchDivides = true
		p.Schedule.ModelParallel = nemoModelParallel(root, model, mPrefix)
		if g, ok := deriveAccum(p); ok {
			p.Train.GradAccum = g
		} else {
			p.Train.GradAccum = plan.Fact[int]{Key: joinKey(mPrefix, "global_batch_size"), Node: p.Train.GlobalBatch.Node,
				Note: "derived from global_batch_size / (micro_batch_size × data-parallel size), not all known"}
		}
		broadcast := false
		if n := model.Get("seed"); n != nil && !n.IsNull() {
			p.Seeds.Init = seedFact(n, keyOf(n, mPrefix, "seed"), broadcast)
		} else {
			p.Seeds.Init = plan.Defaulted(plan.Seed{Value: "1234", Varies: plan.SameOnEveryHost,
				Why: "Megatron offsets the seed by pipeline stage only; data-parallel ranks share it"},
				joinKey(mPrefix, "seed"), nemoModelDefault, n)
		}
		if data := model.Get("data"); isMap(data) {
			dp := joinKey(mPrefix, "data")
			// Which key drops the partial validation batch depends on the model class (NeMo
			// v2.4.0): GPT-family models read data.validation_drop_last (default true,
			// MegatronGPTModel.setup_validation_data), T5/BART/BERT a model-level drop_last
			// (default true), SFT/PEFT models data.validation_ds.drop_last (no default,
			// MegatronGPTSFTModel.build_data_loader). A file does not name its class, so only
			// what it writes is read.
			if vds := data.Get("validation_ds"); isMap(vds) {
				if n := vds.Get("drop_last"); n != nil && !n.IsNull() {
					p.Eval.DropLast = boolFact(root, vds, joinKey(dp, "validation_ds"), "drop_last", false, false, nemoModelDefault)
				}
			} else if n := data.Get("validation_drop_last"); n != nil && !n.IsNull() {
				p.Eval.DropLast = boolFact(root, data, dp, "validation_drop_last", true, true, nemoModelDefault)
			}
			p.Data.Workers = intFact(root, data, dp, "num_workers", 0, false, plan.Because(""))
			// Megatron SFT/PEFT configs (tuning/conf/megatron_gpt_finetuning_config.yaml) put the
			// loader arguments under data.train_ds: MegatronGPTSFTModel builds its train loader
			// with cfg.data.train_ds.num_workers (build_data_loader).
			if ds := data.Get("train_ds"); p.Data.Workers.Node == nil && isMap(ds) {
				p.Data.Workers = intFact(root, ds, joinKey(dp, "train_ds"), "num_workers", 0, false, plan.Because(""))
			}
		}
		// Normalisation of Megatron transformers is LayerNorm/RMSNorm: evidence of no BN.
		if n := model.Get("normalization"); n != nil {
			if s, ok := strValue(n); ok && strings.Contains(strings.ToLower(s), "norm") && !strings.Contains(strings.ToLower(s), "batch") {
				p.BN.Present = plan.Fact[bool]{Value: false, Origin: plan.Derived, Key: n.Path().String(), Node: n, Note: "= " + s + " normalisation"}
			}
		}
		return
	}
	// ASR/TTS/speaker models: train_ds / validation_ds. speechlm2 keeps them in a top-level data
	// section (examples/speechlm2/salm_train.py builds DataModule(cfg.data), whose loaders read
	// cfg.train_ds and cfg.validation_ds, NeMo v2.4.0).
	dsRoot, dsPre := model, mPrefix
	if data := root.Get("data"); model.Get("train_ds") == nil && model.Get("validation_ds") == nil && isMap(data) &&
		(isMap(data.Get("train_ds")) || isMap(data.Get("validation_ds"))) {
		dsRoot, dsPre = data, "data"
	}
	if ds := dsRoot.Get("train_ds"); isMap(ds) {
		pre := joinKey(dsPre, "train_ds")
		lds, lpre := nemoLoaderArgs(ds, pre)
		p.Train.PerDeviceBatch = intFact(root, lds, lpre, "batch_size", 0, false, plan.Because(""))
		if bs := ds.Get("batch_sampler"); p.Train.PerDeviceBatch.Node == nil && isMap(bs) {
			// TTS (VITS): DistributedBucketSampler(**train_ds.batch_sampler) makes each rank's
			// batches (nemo/collections/tts/models/vits.py train_dataloader, v2.4.0).
			p.Train.PerDeviceBatch = intFact(root, bs, joinKey(pre, "batch_sampler"), "batch_size", 0, false, plan.Because(""))
		}
		p.Data.Workers = intFact(root, lds, lpre, "num_workers", 0, false, plan.Because(""))
		if f := boolFact(root, ds, pre, "is_tarred", false, false, plan.Because("")); f.Known() && f.Value {
			// Tarred datasets shard the tar files between ranks: not a global-index sampler.
			p.Data.Sharding = plan.Fact[plan.Sharding]{Key: f.Key, Node: f.Node, Note: "tarred datasets are sharded by file between ranks"}
			p.Seeds.Data = plan.Fact[plan.Seed]{}
		}
	}
	if ds := dsRoot.Get("validation_ds"); isMap(ds) {
		lds, lpre := nemoLoaderArgs(ds, joinKey(dsPre, "validation_ds"))
		p.Eval.PerDeviceBatch = intFact(root, lds, lpre, "batch_size", 0, false, plan.Because(""))
		if crop := nemoCrop(model, dsRoot.Get("train_ds"), ds); crop != nil && p.Eval.PerDeviceBatch.Known() {
			// The two batches hold examples of different lengths: a smaller eval batch may
			// hold as much as the train batch, or more; the batch sizes alone say nothing.
			p.Eval.PerDeviceBatch = plan.Fact[int]{Key: p.Eval.PerDeviceBatch.Key, Node: p.Eval.PerDeviceBatch.Node,
				Note: "training crops or caps its examples (" + crop.Path().String() + ") and validation does not"}
		}
	}
	if p.Data.Workers.Node == nil {
		if data := model.Get("data"); isMap(data) {
			p.Data.Workers = intFact(root, data, joinKey(mPrefix, "data"), "num_workers", 0, false, plan.Because(""))
		}
	}
}

// nemoCropKeys are the dataset settings that cut a training example to a fixed length or drop
// long ones (NeMo @8cfedd7: VocoderDataset n_samples, tts/data/dataset.py n_segments, the audio
// datasets' audio_duration, Lhotse's truncate_duration, the ASR datasets' max_duration); a
// model's segment_size (VITS) likewise trains on segments and validates on whole clips.
var nemoCropKeys = []string{"n_samples", "n_segments", "audio_duration", "truncate_duration", "max_duration", "segment_size"}

// nemoCrop is the training dataset's crop setting that validation does not share (written
// differently or not at all), nil when there is none.
func nemoCrop(model, train, val *doc.Node) *doc.Node {
	if !isMap(train) {
		return nil
	}
	get := func(ds *doc.Node, k string) *doc.Node {
		if !isMap(ds) {
			return nil
		}
		if n := ds.Get(k); n != nil {
			return n
		}
		if d := ds.Get("dataset"); isMap(d) {
			return d.Get(k)
		}
		return nil
	}
	for _, k := range nemoCropKeys {
		t := get(train, k)
		if t == nil || t.IsNull() {
			continue
		}
		if v := get(val, k); v == nil || v.IsNull() || v.Value != t.Value {
			return t
		}
	}
	if n := model.Get("segment_size"); n != nil && !n.IsNull() {
		return n
	}
	return nil
}

// nemoLoaderArgs is where a dataset section keeps its DataLoader arguments: the section itself
// (ASR: train_ds.batch_size) or, in the TTS configs, its dataloader_params map
// (train_ds.dataloader_params.batch_size, passed as DataLoader(**dataloader_params)).
func nemoLoaderArgs(ds *doc.Node, prefix string) (*doc.Node, string) {
	if ds.Get("batch_size") == nil {
		if dp := ds.Get("dataloader_params"); isMap(dp) {
			return dp, joinKey(prefix, "dataloader_params")
		}
	}
	return ds, prefix
}

// nemoModelParallel is tensor × pipeline × context parallel size, unknown when any is unknown.
func nemoModelParallel(root, model *doc.Node, mPrefix string) plan.Fact[int] {
	par, explicit := 1, false
	var at *doc.Node
	hasDef := !nemoFromCheckpoint(root)
	for _, k := range []string{"tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size"} {
		f := intFact(root, model, mPrefix, k, 1, hasDef, nemoModelDefault)
		if !f.Known() || f.Value < 1 {
			return plan.Fact[int]{Key: f.Key, Node: f.Node}
		}
		if f.IsExplicit() && at == nil {
			at = f.Node
		}
		explicit = explicit || f.IsExplicit()
		par *= f.Value
	}
	f := plan.Fact[int]{Value: par, Origin: plan.Derived, Key: joinKey(mPrefix, "tensor_model_parallel_size"), Node: at,
		Note: "= tensor × pipeline × context parallel size"}
	if !explicit {
		f.Origin, f.By, f.Note = plan.Default, nemoModelDefault.By, "no model parallelism"
	}
	return f
}

// nemoFromCheckpoint reports a run whose model section is merged over the config saved in a
// trained checkpoint: NeMo-Aligner's scripts (@af2b3bd9: train_reward_model.py, train_gpt_dpo.py,
// train_gpt_sft.py, ...) call load_and_override_model_config(pretrained_checkpoint.restore_from_path
// or model.restore_from_path, cfg.model), so a parallel size the file leaves out is the
// checkpoint's, not 1. The key may be null, left for the command line.
func nemoFromCheckpoint(root *doc.Node) bool {
	return root.At("pretrained_checkpoint.restore_from_path") != nil || root.At("model.restore_from_path") != nil
}

// deriveAccum computes Megatron's gradient accumulation when every factor is known (the
// model-parallel size is p.Schedule.ModelParallel, nemoModelParallel's).
func deriveAccum(p *plan.Plan) (plan.Fact[int], bool) {
	g, m := p.Train.GlobalBatch, p.Train.PerDeviceBatch
	h, dv, mp := p.Topology.Hosts, p.Topology.DevicesPerHost, p.Schedule.ModelParallel
	if !g.Known() || !m.Known() || !h.IsExplicit() || !dv.IsExplicit() || m.Value <= 0 || !mp.Known() {
		return plan.Fact[int]{}, false
	}
	par := mp.Value
	world := h.Value * dv.Value
	if world%par != 0 {
		return plan.Fact[int]{}, false
	}
	dp := world / par
	if g.Value%(m.Value*dp) != 0 {
		return plan.Fact[int]{}, false
	}
	return plan.Fact[int]{Value: g.Value / (m.Value * dp), Origin: plan.Derived, Key: g.Key, Node: g.Node,
		Note: "= global_batch_size / (micro_batch_size × data-parallel size)"}, true
}

var nemoKeys = []Key{
	{Path: "trainer.val_check_interval", Type: "integer|number|string|object", Default: "1.0", Concept: "eval.interval",
		Doc: "Lightning semantics: int = training batches, float in [0,1] = fraction of an epoch, \"DD:HH:MM:SS\" = wall-clock time (Lightning 2.6+)"},
	{Path: "trainer.check_val_every_n_epoch", Type: "integer|null", Default: "1", Concept: "eval.interval", Doc: "validate every N epochs"},
	{Path: "trainer.limit_val_batches", Type: "integer|number", Default: "1.0", Concept: "eval.enabled", Doc: "validation batches per run; 0 disables validation"},
	{Path: "trainer.max_time", Type: "string|object", Default: "none", Concept: "train.time_budget", Doc: "Lightning wall-clock budget (replaced by exp_manager.max_time_per_run)"},
	{Path: "trainer.max_steps", Type: "integer", Default: "-1", Concept: "train.max_steps", Doc: "optimizer steps to train for"},
	{Path: "trainer.num_nodes", Type: "integer", Default: "1", Concept: "topology.hosts", Doc: "number of nodes"},
	{Path: "trainer.devices", Type: "integer|string|array", Default: "auto", Concept: "topology.devices_per_host", Doc: "devices per node (-1 = all)"},
	{Path: "trainer.accumulate_grad_batches", Type: "integer", Default: "1", Concept: "train.grad_accum", Doc: "keep 1 for Megatron models: accumulation is derived from global_batch_size"},
	{Path: "trainer.sync_batchnorm", Type: "boolean", Default: "false", Concept: "bn.sync", Doc: "SyncBatchNorm across devices (the ASR conformer configs set true)"},
	{Path: "trainer.enable_checkpointing", Type: "boolean", Default: "true", Concept: "ckpt", Doc: "must be false: exp_manager adds the checkpoint callback"},
	{Path: "trainer.logger", Type: "boolean", Default: "true", Concept: "tracking", Doc: "must be false: exp_manager creates the loggers"},
	{Path: "trainer.use_distributed_sampler", Type: "boolean", Default: "true", Concept: "data.sharding", Doc: "Megatron configs set false and use Megatron batch samplers"},
	{Path: "exp_manager.create_checkpoint_callback", Type: "boolean", Default: "true", Concept: "ckpt.enabled", Doc: "add NeMo's ModelCheckpoint"},
	{Path: "exp_manager.checkpoint_callback_params.save_top_k", Type: "integer", Default: "3", Concept: "ckpt.retention", Doc: "keep the k best checkpoints by monitor (-1 all)"},
	{Path: "exp_manager.checkpoint_callback_params.monitor", Type: "string", Default: "val_loss", Concept: "ckpt.best_metric", Doc: "metric that ranks checkpoints"},
	{Path: "exp_manager.checkpoint_callback_params.mode", Type: "string", Default: "min", Concept: "ckpt.best_metric", Doc: "min or max", Enum: []string{"min", "max"}},
	{Path: "exp_manager.checkpoint_callback_params.every_n_epochs", Type: "integer|null", Default: "1", Concept: "ckpt.interval", Doc: "save every N epochs"},
	{Path: "exp_manager.checkpoint_callback_params.every_n_train_steps", Type: "integer|null", Default: "none", Concept: "ckpt.interval", Doc: "save every N training steps"},
	{Path: "exp_manager.checkpoint_callback_params.train_time_interval", Type: "string|object|null", Default: "none", Concept: "ckpt.interval", Doc: "save on wall-clock time"},
	{Path: "exp_manager.checkpoint_callback_params.save_on_train_epoch_end", Type: "boolean", Default: "false", Concept: "ckpt.interval", Doc: "save at the end of the training epoch; false saves after every validation run"},
	{Path: "exp_manager.checkpoint_callback_params.save_last", Type: "boolean", Default: "true", Concept: "ckpt", Doc: "also keep the last checkpoint"},
	{Path: "exp_manager.log_global_rank_0_only", Type: "boolean", Default: "false", Concept: "logging.scope", Doc: "only global rank 0 writes a log file"},
	{Path: "exp_manager.log_local_rank_0_only", Type: "boolean", Default: "false", Concept: "logging.scope", Doc: "only local rank 0 of each node writes a log file (both false: every rank writes one)"},
	{Path: "exp_manager.max_time_per_run", Type: "string", Default: "none", Concept: "train.time_budget", Doc: "wall-clock budget \"DD:HH:MM:SS\" per run (a StatelessTimer)"},
	{Path: "exp_manager.create_tensorboard_logger", Type: "boolean", Default: "true", Concept: "tracking.trackers", Doc: "TensorBoard logger"},
	{Path: "exp_manager.create_wandb_logger", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "Weights & Biases logger (wandb_logger_kwargs.project/name)"},
	{Path: "exp_manager.create_mlflow_logger", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "MLflow logger"},
	{Path: "exp_manager.create_neptune_logger", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "Neptune logger"},
	{Path: "exp_manager.create_clearml_logger", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "ClearML logger"},
	{Path: "exp_manager.create_dllogger_logger", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "DLLogger"},
	{Path: "exp_manager.name", Type: "string", Default: "none", Concept: "tracking.run_name", Doc: "experiment name (log directory)"},
	{Path: "model.micro_batch_size", Type: "integer", Default: "", Concept: "train.per_device_batch", Doc: "per-GPU micro batch (Megatron); evaluation uses it too"},
	{Path: "model.global_batch_size", Type: "integer", Default: "", Concept: "train.global_batch", Doc: "examples per optimizer step; accumulation = global / (micro × data-parallel size)"},
	{Path: "model.tensor_model_parallel_size", Type: "integer", Default: "1", Concept: "topology", Doc: "tensor parallelism (divides the data-parallel size)"},
	{Path: "model.pipeline_model_parallel_size", Type: "integer", Default: "1", Concept: "topology", Doc: "pipeline parallelism (divides the data-parallel size)"},
	{Path: "model.seed", Type: "integer", Default: "1234", Concept: "seeds.init", Doc: "Megatron seed; offset by 100 × pipeline rank, shared by data-parallel ranks"},
	{Path: "model.data.validation_drop_last", Type: "boolean", Default: "true", Concept: "eval.drop_last", Doc: "drop the last partial validation batch (pad_samples_to_global_batch_size is the alternative)"},
	{Path: "model.data.num_workers", Type: "integer", Default: "", Concept: "data.workers", Doc: "DataLoader workers (read without a default; the example configs set 2)"},
	{Path: "model.train_ds.batch_size", Type: "integer", Default: "", Concept: "train.per_device_batch", Doc: "ASR/TTS per-device train batch"},
	{Path: "model.train_ds.num_workers", Type: "integer", Default: "", Concept: "data.workers", Doc: "ASR/TTS loader workers"},
	{Path: "model.validation_ds.batch_size", Type: "integer", Default: "", Concept: "eval.per_device_batch", Doc: "ASR/TTS per-device eval batch"},
}

// nemoSections maps the exp_manager paths read by a dataclass to the knowledge table's sections
// (the field's type at every tag read).
var nemoSections = map[string]string{
	"exp_manager":                                "ExpManagerConfig",
	"exp_manager.checkpoint_callback_params":     "CallbackParams",
	"exp_manager.early_stopping_callback_params": "EarlyStoppingParams",
	"exp_manager.step_timing_kwargs":             "StepTimingParams",
	"exp_manager.ema":                            "EMAParams",
	"exp_manager.mlflow_logger_kwargs":           "MLFlowParams",
	"exp_manager.dllogger_logger_kwargs":         "DLLoggerParams",
	"exp_manager.clearml_logger_kwargs":          "ClearMLParams",
	"exp_manager.straggler_detection_params":     "StragglerDetectionParams",
	"exp_manager.fault_tolerance":                "FaultToleranceParams",
}
