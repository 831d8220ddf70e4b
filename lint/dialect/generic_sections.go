package dialect

import (
	"slices"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

func genIntFact(g genericReader, n *doc.Node, path string) plan.Fact[int] {
	return genIntNode(g.root, n, path)
}

func readGenericBatches(p *plan.Plan, g genericReader) {
	all := append([]string{}, genTrainSections...)
	// Spellings that say their granularity.
	if n, k := g.find(all, true, "per_device_train_batch_size", "per_device_batch_size", "train_micro_batch_size_per_gpu",
		"micro_batch_size", "local_batch_size", "batch_size_per_device", "batch_size_per_gpu", "per_gpu_batch_size",
		"device_batch_size", "per_device_train_batch"); n != nil {
		p.Train.PerDeviceBatch = genIntFact(g, n, k)
	}
	if n, k := g.find(all, true, "global_batch_size", "global_train_batch_size", "total_batch_size", "effective_batch_size"); n != nil {
		f := genIntFact(g, n, k)
		if f.Known() && f.Value <= 0 { // torchtitan -1: derived at run time
			f = plan.Fact[int]{Key: k, Node: n}
		}
		p.Train.GlobalBatch = f
	}
	if n, k := g.find(append(all, genEvalSections...), true, "per_device_eval_batch_size", "eval_micro_batch_size",
		"eval_micro_batch_size_per_gpu", "eval_batch_size_per_device", "eval_batch_size_per_gpu", "device_eval_batch_size"); n != nil {
		p.Eval.PerDeviceBatch = genIntFact(g, n, k)
	}
	if n, k := g.find(genEvalSections, false, "local_batch_size", "per_device_batch_size", "micro_batch_size", "batch_size_per_device"); n != nil && !p.Eval.PerDeviceBatch.Known() {
		p.Eval.PerDeviceBatch = genIntFact(g, n, k)
	}
	if n, k := g.find(genEvalSections, false, "global_batch_size", "total_batch_size"); n != nil {
		p.Eval.GlobalBatch = genIntFact(g, n, k)
	}
	if n, k := g.find(all, true, "gradient_accumulation_steps", "grad_accum_steps", "grad_accum", "accumulate_grad_batches", "accum_steps", "gradient_accumulation"); n != nil {
		p.Train.GradAccum = genIntFact(g, n, k)
	}
	if n, k := g.find(all, true, "max_steps", "train_steps", "num_train_steps", "max_training_steps", "total_steps", "train_iters", "num_steps", "steps"); n != nil {
		if f := genIntFact(g, n, k); f.Known() && f.Value > 0 {
			p.Train.MaxSteps = f
		}
	}
	// (max_time beside min_time bounds a model's time variable: swirl-dynamics' flow time, utils.py:70)
	// (a bare time_limit beside an environment's settings is no time: seac's time_limit: 500
	// is the episode length gym's TimeLimit counts in steps, train.py:63-65; OLMo's is seconds)
	if n, k := g.find(all, true, "max_time", "time_budget", "max_train_time", "max_duration_seconds", "time_limit"); n != nil && g.child(n.Parent, "min_time") == nil &&
		!(n.Key == "time_limit" && n.Type != doc.String && rlEnvKeys(g, n.Parent)) {
		if f := genericInterval(g.root, n, k, plan.Seconds); f.Known() && f.Value.Unit == plan.Seconds {
			p.Train.TimeBudget = f
		}
	}
	// Spellings that do not say their granularity: only a train/eval pair with matching names is
	// read, as like-for-like values (both per device here; what matters is that they compare).
	if p.Train.PerDeviceBatch.Known() || p.Eval.PerDeviceBatch.Known() {
		return
	}
	type pair struct{ train, eval string }
	var pairs []pair
	for _, ts := range genTrainSections {
		for _, es := range genEvalSections {
			pairs = append(pairs, pair{ts + ".batch_size", es + ".batch_size"})
		}
		pairs = append(pairs,
			pair{ts + ".batch_size", ts + ".eval_batch_size"},
			pair{ts + ".train_batch_size", ts + ".eval_batch_size"})
	}
	pairs = append(pairs, pair{"batch_size", "eval_batch_size"}, pair{"train_batch_size", "eval_batch_size"},
		pair{"batch_size", "eval.batch_size"}, pair{"batch_size", "validation.batch_size"})
	for _, pr := range pairs {
		tn, en := g.at(pr.train), g.at(pr.eval)
		if tn == nil || en == nil || en.Parent != tn.Parent && genTrainingStage(en.Parent) {
			continue
		}
		if genPairUncounted(g, tn, en) {
			return
		}
		if genExampleSize(tn.Parent) != genExampleSize(en.Parent) {
			// The sections state different example sizes (HRFormer's openseg configs train on
			// 1024×512 crops and validate on 2048×1024 images), or only one states one: an
			// eval example may hold several training ones, so the counts do not compare.
			return
		}
		p.Train.PerDeviceBatch = genIntFact(g, tn, genPathOf(tn))
		p.Eval.PerDeviceBatch = genIntFact(g, en, genPathOf(en))
		p.Train.PerDeviceBatch.Note = "granularity not stated; read like for like with " + genPathOf(en)
		p.Eval.PerDeviceBatch.Note = "granularity not stated; read like for like with " + genPathOf(tn)
		p.Train.Granularity, p.Eval.Granularity = plan.Unstated, plan.Unstated
		return
	}
}

func readGenericEval(p *plan.Plan, g genericReader) {
	all := append(append([]string{}, genEvalSections...), genTrainSections...)
	// Time-based spellings first: their unit is in the name.
	if n, k := g.find(all, true, "eval_every_secs", "eval_interval_seconds", "eval_interval_secs", "eval_throttle_secs",
		"eval_every_seconds", "eval_secs", "every_secs", "every_seconds", "interval_seconds", "interval_secs", "throttle_secs",
		"eval_every_minutes", "every_minutes", "eval_interval_minutes", "eval_every_mins",
		"eval_every_n_secs", "eval_every_n_seconds", "eval_every_n_minutes", "eval_every_n_mins", "eval_interval_mins",
		"eval_every_hours", "eval_every_n_hours", "eval_interval_hours"); n != nil {
		f := genericInterval(g.root, n, k, plan.Seconds)
		if f.Known() && f.Value.Unit == plan.Seconds {
			if v, ok := n.Float(); ok {
				switch key := genNormKey(n.Key); {
				case strings.Contains(key, "min"):
					f.Value.Value = v * 60
				case strings.Contains(key, "hour"):
					f.Value.Value = v * 3600
				}
			}
		}
		p.Eval.Interval = f
	} else if n, k := g.find(all, true, "eval_every_steps", "eval_interval_steps", "eval_steps_interval", "every_steps", "eval_every_n_steps",
		"val_every_n_steps", "run_val_every_n_steps", "validate_every_n_steps", "eval_freq", "eval_frequency", "freq", "frequency", "interval_steps"); n != nil {
		p.Eval.Interval = genericInterval(g.root, n, k, plan.Steps)
	} else if n, k := g.find(all, true, "eval_every_epochs", "eval_every_n_epochs", "val_every_n_epochs", "check_val_every_n_epoch", "eval_interval_epochs", "every_epochs"); n != nil {
		p.Eval.Interval = genericInterval(g.root, n, k, plan.Epochs)
	} else if n, k := g.find(all, true, "eval_interval", "eval_every", "interval", "every", "validation_interval", "val_interval"); n != nil {
		// The unit is not in the name: a number may come with a unit key beside it.
		unit := plan.Steps
		if u := genChild(n.Parent, strings.TrimSuffix(genNormKey(n.Key), "interval")+"interval_unit"); u != nil {
			unit = genUnitWord(u.Value, plan.Steps)
		} else if u := genChild(n.Parent, "unit"); u != nil {
			unit = genUnitWord(u.Value, plan.Steps)
		} else if u := genChild(n.Parent, "eval_interval_unit"); u != nil {
			unit = genUnitWord(u.Value, plan.Steps)
		}
		f := genericInterval(g.root, n, k, unit)
		// "interval"/"every" on their own are only an eval interval inside an eval section.
		if (genNormKey(n.Key) == "interval" || genNormKey(n.Key) == "every") && !genInSection(n, genEvalSections) {
			f = plan.Fact[plan.Interval]{}
		}
		p.Eval.Interval = f
	}
	// "freq"/"frequency" likewise only count inside an eval section.
	if p.Eval.Interval.Node != nil {
		switch genNormKey(p.Eval.Interval.Node.Key) {
		case "freq", "frequency", "interval_steps", "every_steps", "interval_seconds", "interval_secs", "every_secs", "every_seconds", "every_minutes", "throttle_secs", "every_epochs":
			if !genInSection(p.Eval.Interval.Node, genEvalSections) {
				p.Eval.Interval = plan.Fact[plan.Interval]{}
			}
		}
	}
	if n, k := g.find(genEvalSections, false, "enable", "enabled", "do_eval", "run_eval"); n != nil {
		p.Eval.Enabled = genBoolNode(g.root, n, k)
	} else if n, k := g.find(genTrainSections, true, "do_eval", "run_eval", "eval_enabled", "enable_eval", "enable_validation", "do_validation",
		"eval_during_train", "eval_during_training", "eval_while_train"); n != nil {
		// (PaddleScience's TRAIN.eval_during_train false builds its Solver with no validator,
		// examples/topopt/topopt.py:100-108 @6652bb8; PaddleClas-style engines evaluate in
		// train() only when it is true. "validate" alone is as often a mode that only validates
		// a checkpoint, instead of training: home-robot's SLAP modules train, validating every
		// epoch, when it is false.)
		p.Eval.Enabled = genBoolNode(g.root, n, k)
		// TrainingArguments' names nested in a section (bionemo's trainer: block): its
		// __post_init__ turns do_eval on when eval_strategy is not "no" (transformers
		// training_args.py, 4.x and 5.x), so do_eval false says nothing there.
		// MindFormers' run_mindformer.py (@fd4deeb, main) trains only under run_mode train or
		// finetune: under predict its do_eval says nothing of a training run.
		s, r := n.Parent.Get("eval_strategy"), g.root.Get("run_mode")
		if s == nil {
			s = n.Parent.Get("evaluation_strategy")
		}
		if n.Key == "do_eval" && p.Eval.Enabled.Known() && !p.Eval.Enabled.Value && (s != nil && s.Kind == doc.Scalar && s.Value != "no" || r != nil && r.Value == "predict") {
			p.Eval.Enabled = plan.Fact[bool]{Key: k, Node: n}
		}
	}
	if !p.Eval.Enabled.Known() {
		// GPT-Neo's eval_steps (beside predict_steps or mesh_shape) counts eval batches: 0 evaluates
		// none but eval_tasks (main.py:122-124, 220, 240 @23485e3); elsewhere it may be an interval.
		if n, k := g.find(all, true, "eval_steps"); n != nil && n.Type == doc.Int && n.Value == "0" && g.child(n.Parent, "eval_tasks") == nil &&
			(g.child(n.Parent, "predict_steps") != nil || g.child(n.Parent, "mesh_shape") != nil) {
			p.Eval.Enabled = plan.Fact[bool]{Value: false, Origin: plan.Explicit, Key: k, Node: n, Note: "eval_steps is the number of eval batches, so 0 evaluates none"}
		}
	}
	if p.Eval.Interval.Known() && !p.Eval.Enabled.Known() {
		if p.Eval.Interval.Value.Value > 0 {
			p.Eval.Enabled = plan.Fact[bool]{Value: true, Origin: plan.Derived, Key: p.Eval.Interval.Key, Node: p.Eval.Interval.Node, Note: "an eval interval is set"}
		}
	}
	if n, k := g.find(genEvalSections, false, "drop_last", "drop_remainder"); n != nil {
		p.Eval.DropLast = genBoolNode(g.root, n, k)
	} else if n, k := g.find(nil, true, "eval_drop_last", "eval_drop_remainder"); n != nil {
		p.Eval.DropLast = genBoolNode(g.root, n, k)
	}
}

// genInSection reports whether n sits directly in a map whose key is one of names.
func genInSection(n *doc.Node, names []string) bool {
	return n != nil && n.Parent != nil && slices.Contains(names, genNormKey(n.Parent.Key))
}

func readGenericSeeds(p *plan.Plan, g genericReader) {
	if n, k := g.find(genSeedSections, true, "init_seed", "model_seed", "param_seed", "init_rng_seed", "params_seed"); n != nil {
		p.Seeds.Init = genSeedNode(g.root, n, k)
	} else if n, k := g.find(genSeedSections, true, "seed", "random_seed", "rng_seed", "global_seed", "seed_everything"); n != nil {
		p.Seeds.Init = genSeedNode(g.root, n, k)
	}
	if n, k := g.find(append(append([]string{}, genDataSections...), genSeedSections...), true, "data_seed", "shuffle_seed", "dataset_seed", "sampler_seed", "input_seed", "data_rng_seed"); n != nil {
		p.Seeds.Data = genSeedNode(g.root, n, k)
	} else if n, k := g.find(genDataSections, false, "seed"); n != nil {
		p.Seeds.Data = genSeedNode(g.root, n, k)
	}
	// A switch that offsets the data seed by host (the trainer adds process_index itself) makes a
	// literal data seed differ from host to host.
	if d := p.Seeds.Data; d.Known() && d.Value.Varies == plan.SameOnEveryHost {
		if n, k := g.find(append(append([]string{}, genDataSections...), genSeedSections...), true, "seed_per_host", "per_host_seed", "seed_offset_by_host",
			"offset_seed_by_host", "seed_by_host", "seed_per_process", "per_process_seed", "seed_offset_by_process", "fold_in_process_index"); n != nil {
			if b := genBoolNode(g.root, n, k); b.Known() && b.Value {
				d.Value.Varies, d.Value.Why = plan.VariesByHost, "offset by host ("+k+")"
				p.Seeds.Data = d
			}
		}
	}
}

func readGenericData(p *plan.Plan, g genericReader) {
	secs := append(append([]string{}, genDataSections...), genTrainSections...)
	wn, wk := g.find(secs, true, "num_workers", "dataloader_num_workers", "workers", "num_data_workers", "loader_workers", "n_workers")
	t := p.Train
	if wn != nil && rolloutWorkers(wn) {
		// RLlib's num_workers counts rollout worker actors sampling the environment beside
		// rollout_fragment_length and num_envs_per_worker (rllib/agents/trainer.py
		// COMMON_CONFIG, ray 1.x: "Setting this to 0 will force rollouts to be done in the
		// trainer actor"): no data loader.
		wn = nil
	}
	if wn != nil && (genTrainingSign(g.root, true) || t.PerDeviceBatch.Known() || t.GlobalBatch.Known() || t.GradAccum.Known() || t.MaxSteps.Known() || t.Epochs.Known()) {
		p.Data.Workers = genIntFact(g, wn, wk)
	}
	r := g.root
	fairseq := 0 // fairseq's top-level sections beside dataset
	for _, k := range []string{"common", "optimization", "distributed_training", "task", "criterion"} {
		if isMap(r.Get(k)) {
			fairseq++
		}
	}
	if n, k := g.find(secs, true, "prefetch_factor", "prefetch", "prefetch_buffer_size", "prefetch_size", "dataloader_prefetch_factor", "prefetch_batches", "num_prefetch"); n == nil && isMap(r.Get("dataset")) && fairseq >= 2 {
		// fairseq's layout (a dataset section and two of its others): a thread preloads
		// dataset.data_buffer_size batches, 10 unless set, whatever num_workers is
		// (dataclass/configs.py, data/iterators.py BufferedIterator @v0.12.3).
		if f, ok := genIntRef(r, "dataset.data_buffer_size"); ok {
			p.Data.Prefetch = f
		} else {
			p.Data.Prefetch = plan.Defaulted(10, "dataset.data_buffer_size", plan.Because("fairseq's default"), nil)
		}
	} else if n != nil {
		f := genIntFact(g, n, k)
		if !f.Known() {
			// tf.data AUTOTUNE (-1 or "autotune") prefetches: a positive depth is all rules need.
			if s, _ := n.Str(); strings.EqualFold(strings.TrimSpace(s), "autotune") {
				f = plan.Set(1, k, n)
				f.Note = "AUTOTUNE"
			} else if b, ok := n.Bool(); ok {
				v := 0
				if b {
					v = 1
				}
				f = plan.Set(v, k, n)
			}
		}
		p.Data.Prefetch = f
	}
	// Loaders that fill a queue from a thread whatever num_workers is: MONAI's ThreadDataLoader
	// named beside the key (monai/data/thread_buffer.py @d388d1c), or the repository's loader
	// (threadLoaderOf: paddle.io.DataLoader, dataloader_iter.py @00dd828
	// _DataLoaderIterSingleProcess, a thread pushes prefetch_factor (2) batches a device; Grain).
	if wn != nil && !p.Data.Prefetch.Known() {
		if t := wn.Parent.Get("_target_"); t.IsScalar() && strings.HasSuffix(t.Value, "ThreadDataLoader") {
			p.Data.Prefetch = plan.Defaulted(1, "_target_", plan.Because("ThreadDataLoader prepares the next batch in a thread"), t)
		} else if g.threadLoader != "" {
			p.Data.Prefetch = plan.Defaulted(2, "prefetch_factor", plan.Because(g.threadLoader), nil)
		}
	}
	if n, k := g.find(secs, true, "shard_by_host", "per_host_shards", "shard_files", "per_host_input", "shard_per_host", "host_sharding", "split_by_host", "per_host_pipeline",
		// JAX calls a host a process (jax.process_index): the same switches, spelled by process.
		"shard_by_process", "per_process_shards", "shard_per_process", "split_by_process"); n != nil {
		if b := genBoolNode(g.root, n, k); b.Known() {
			if b.Value {
				p.Data.Sharding = plan.Set(plan.PerHostStream, k, n)
			}
		}
	}
	if !p.Data.Sharding.Known() {
		if n, k := g.find(secs, true, "sampler", "sampler_type", "data_sampler"); n != nil {
			s, _ := n.Str()
			if t := genChild(n, "type"); t != nil {
				s, _ = t.Str()
			}
			if strings.Contains(strings.ToLower(s), "distributed") {
				p.Data.Sharding = plan.Set(plan.GlobalIndexSampler, k, n)
			}
		}
	}
}

// genPositive keeps a count only when it is positive: "0 hosts" or "-1 devices" mean "decide at
// launch" in several launchers, not a topology.
func genPositive(f plan.Fact[int]) plan.Fact[int] {
	if f.Known() && f.Value <= 0 {
		return plan.Fact[int]{Key: f.Key, Node: f.Node}
	}
	return f
}

// genHostList counts a list of host names ("hosts: [node1, node2]"); 0 when n is anything else.
func genHostList(n *doc.Node) int {
	if n == nil || n.Kind != doc.Seq || len(n.Children) == 0 {
		return 0
	}
	for _, c := range n.Children {
		if !c.IsScalar() || c.Type != doc.String {
			return 0
		}
	}
	return len(n.Children)
}

func readGenericTopology(p *plan.Plan, g genericReader) {
	if n, k := g.find(genDistSections, true, "num_hosts", "hosts", "num_nodes", "nnodes", "nodes", "num_machines", "n_nodes", "node_count", "num_workers_hosts"); n != nil {
		if f := genIntFact(g, n, k); f.Known() && f.Value > 0 {
			p.Topology.Hosts = f
		} else if names := genHostList(n); names > 0 {
			p.Topology.Hosts = plan.Set(names, k, n)
			p.Topology.Hosts.Note = "= the number of hosts listed"
		} else {
			p.Topology.Hosts = plan.Fact[int]{Key: k, Node: n}
		}
	}
	if n, k := g.find(genDistSections, true, "devices_per_host", "gpus_per_node", "nproc_per_node", "devices_per_node", "gpus_per_host",
		"num_gpus_per_node", "tpus_per_host", "local_devices", "ntasks_per_node", "devices", "num_devices"); n != nil {
		if f := genIntFact(g, n, k); f.Known() && f.Value > 0 {
			p.Topology.DevicesPerHost = f
		} else {
			p.Topology.DevicesPerHost = plan.Fact[int]{Key: k, Node: n}
		}
	}
}

func readGenericCheckpoint(p *plan.Plan, g genericReader) {
	secs := append(append([]string{}, genCkptSections...), genTrainSections...)
	if n, k := g.find(genCkptSections, false, "enable", "enabled", "enable_checkpoint", "save"); n != nil {
		if f := genBoolNode(g.root, n, k); f.Known() {
			p.Ckpt.Enabled = f
		}
	}
	if n, k := g.find(secs, true, "save_every_secs", "checkpoint_every_secs", "save_checkpoints_secs", "save_interval_seconds",
		"checkpoint_interval_seconds", "every_secs", "every_seconds", "interval_seconds", "save_every_minutes", "keep_checkpoint_every_n_hours"); n != nil && (genInSection(n, genCkptSections) || strings.Contains(genNormKey(n.Key), "save") || strings.Contains(genNormKey(n.Key), "checkpoint")) {
		f := genericInterval(g.root, n, k, plan.Seconds)
		if f.Known() {
			if v, ok := n.Float(); ok {
				switch {
				case strings.Contains(genNormKey(n.Key), "hour"):
					f.Value.Value = v * 3600
				case strings.Contains(genNormKey(n.Key), "min"):
					f.Value.Value = v * 60
				}
			}
		}
		p.Ckpt.Interval = f
	} else if n, k := g.find(secs, true, "save_every_steps", "checkpoint_every_steps", "save_steps", "save_interval", "checkpoint_interval",
		"save_every", "checkpoint_every", "checkpoint_factor", "ckpt_steps", "checkpoint_steps", "save_every_n_steps", "steps_per_checkpoint", "checkpoint_period", "interval", "every_steps", "every_n_steps", "freq"); n != nil {
		key := genNormKey(n.Key)
		if genInSection(n, genCkptSections) || strings.Contains(key, "save") || strings.Contains(key, "checkpoint") || strings.Contains(key, "ckpt") {
			p.Ckpt.Interval = genericInterval(g.root, n, k, plan.Steps)
		}
	}
	if n, k := g.find(secs, true, "save_strategy"); n != nil && n.IsScalar() && n.Value == "epoch" {
		// TrainingArguments' spelling: a save at the end of every epoch, save_steps unread
		// (transformers trainer_callback.py @55093b7, DefaultFlowCallback.on_epoch_end).
		p.Ckpt.Interval = plan.Set(plan.Interval{Value: 1, Unit: plan.Epochs, Text: "epoch"}, k, n)
	}
	if n, k := g.find(secs, true, "keep_best", "keep_best_n", "save_top_k", "keep_top_k", "best_k", "max_to_keep_best", "num_best"); n != nil {
		if f := genIntFact(g, n, k); f.Known() {
			if f.Value > 0 {
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepBest, N: f.Value}, k, n)
			}
		} else if b, ok := n.Bool(); ok && b {
			p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepBest, N: 1}, k, n)
		}
	}
	if n, k := g.find(secs, true, "best_metric", "monitor", "metric_for_best", "metric_for_best_model", "best_checkpoint_metric", "selection_metric",
		"save_best_metric"); n != nil { // Sample Factory's best_* file, kept apart from keep_checkpoints' rotation (learner.py:350-381 @v2.1.1)
		if f := genStrNode(g.root, n, k); f.Known() && f.Value != "" {
			p.Ckpt.BestMetric = f
			if !p.Ckpt.Retention.Known() {
				// A best metric without a count still keeps the best one (plus the latest).
				if kn, kk := g.find(secs, true, genKeepKeys...); kn != nil {
					if f := genIntFact(g, kn, kk); f.Known() && f.Value > 0 {
						p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepBest, N: f.Value}, kk, kn)
					}
				}
			}
		}
	}
	if !p.Ckpt.Retention.Known() {
		if n, k := g.find(secs, true, genKeepKeys...); n != nil {
			f := genIntFact(g, n, k)
			switch {
			case !f.Known():
				if n.IsNull() {
					p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepAll}, k, n)
				} else {
					p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: k, Node: n}
				}
			case f.Value <= 0:
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepAll}, k, n)
			case isSwift(g.root):
				// ms-swift's arguments set metric_for_best_model to "loss" when the file does
				// not (SftArguments._init_metric_for_best_model, swift/arguments/sft_args.py
				// @3602360), and the Trainer then keeps the best evaluated checkpoint out of
				// save_total_limit's rotation: kept when evaluation runs, which the file alone
				// does not tell.
				p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: k, Node: n}
			case accelerateLoopArgs(g.root):
				// A training loop the repository writes itself: what the count means is its
				// script's. open-instruct's finetune.py (@e6c3044) saves
				// state for resuming, evaluates nothing during the run and deletes every
				// checkpoint at the end (clean_checkpoints_at_end, default True), so keeping
				// more would not keep a best one.
				p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: k, Node: n}
			case g.scriptKeeps:
				// SpeechBrain's Checkpointer.save_and_keep_only(num_to_keep=..., min_keys=...,
				// max_keys=...) keeps the N most recent and the N best by each key the recipe
				// script names (speechbrain/utils/checkpoints.py): the count alone does not say.
				p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: k, Node: n}
			case genPositive(genIntNode(g.root, g.child(n.Parent, "keep_period"), k)).Known():
				// Orbax's CheckpointManagerOptions(keep_period=N) never deletes a checkpoint whose
				// step is a multiple of N, whatever max_to_keep says (checkpoint_manager.py, orbax
				// v0.6.4; a MaxText fork passes both): which are kept, the steps decide.
				p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: k, Node: n}
			case !p.Ckpt.Interval.Known() && p.Ckpt.Interval.Node == nil && p.Train.Epochs.Known() && float64(f.Value) >= p.Train.Epochs.Value:
				// A run of E epochs whose file states no save interval: its own loop saves once an
				// epoch or when the eval metric improves (chnsh/DCRNN_PyTorch's supervisor, train
				// epochs 100 beside max_to_keep 100, saves only on a better validation loss,
				// model/pytorch/dcrnn_supervisor.py:233-236 @d92490b), at most E times, so a limit
				// of E or more deletes nothing; when it saves more often, the file does not say.
				p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: k, Node: n}
			case g.named["best_fn"] && g.named["checkpointmanageroptions"]:
				// The repository's Python hands Orbax's CheckpointManagerOptions a best_fn, with
				// which max_to_keep keeps the N best by that metric (BestN, LatestN only without
				// one: checkpoint/orbax/checkpoint/checkpoint_manager.py:226-237 @3ff7b24;
				// swirl-dynamics' run_training.py): which count it is, the file does not say.
				p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: k, Node: n}
			case g.reads != nil && !g.reads[n.Key] && !g.reads[strings.ReplaceAll(n.Key, "-", "_")] && !g.libraryTakes(n):
				// Named by the code but never read (WeDLM's save_total_limit, a field of
				// finetune/src/config.py:70 @0216110f that its trainer.py never reads, saving
				// every checkpoint): no loop of the repository keeps the count.
				p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: k, Node: n}
			case g.earlyStopMetric(secs):
				// A run that monitors a metric to stop early may save the best checkpoint
				// apart from the N it keeps (MMF's EarlyStopping writes best.ckpt whenever the
				// criteria improves, and max_to_keep prunes only model_*.ckpt): unknown here.
				p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: k, Node: n}
			default:
				kind := plan.KeepLatest
				// The Trainer spelling keeps the best one too when it reloads the best at the end.
				if lb := g.child(n.Parent, "load_best_model_at_end"); lb != nil {
					if b, ok := lb.Bool(); ok && b {
						kind = plan.KeepBest
					}
				}
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: kind, N: f.Value}, k, n)
			}
		}
	}
	if n, k := g.find(secs, true, "checkpoint_all_hosts", "save_on_all_hosts", "save_on_each_node", "save_on_every_host", "checkpoint_on_all_hosts", "all_hosts", "save_all_hosts"); n != nil {
		if f := genBoolNode(g.root, n, k); f.Known() {
			sc := plan.PrimaryHost
			if f.Value {
				sc = plan.EveryHost
			}
			if f.Value || genInSection(n, genCkptSections) || strings.Contains(genNormKey(n.Key), "save") || strings.Contains(genNormKey(n.Key), "checkpoint") {
				p.Ckpt.Scope = plan.Set(sc, k, n)
			}
		}
	}
}

func readGenericLogging(p *plan.Plan, g genericReader) {
	secs := append(append([]string{}, genLogSections...), genTrainSections...)
	if n, k := g.find(secs, true, "log_all_hosts", "log_on_all_hosts", "log_on_every_host", "log_every_host", "log_on_all_ranks", "log_all_ranks"); n != nil {
		if f := genBoolNode(g.root, n, k); f.Known() {
			sc := plan.PrimaryHost
			if f.Value {
				sc = plan.EveryHost
				if strings.Contains(genNormKey(n.Key), "rank") {
					sc = plan.EveryRank
				}
			}
			p.Logging.Scope = plan.Set(sc, k, n)
		}
	}
	var trackers []string
	var at *doc.Node
	var key string
	add := func(name string, n *doc.Node, k string) {
		trackers = append(trackers, name)
		if at == nil {
			at, key = n, k
		}
	}
	for _, name := range []string{"wandb", "tensorboard", "mlflow", "comet", "neptune", "aim", "clearml"} {
		for _, flag := range []string{"use_" + name, "enable_" + name, name} {
			n, k := g.find(secs, true, flag)
			if n == nil {
				continue
			}
			if b, ok := n.Bool(); ok {
				if b {
					add(name, n, k)
				}
			} else if n.Kind == doc.Map {
				if e := genChild(n, "enabled"); e != nil {
					if b, ok := e.Bool(); ok && !b {
						continue
					}
				}
				add(name, n, k)
			}
			break
		}
	}
	for _, name := range []string{"wandb_project", "tensorboard_dir", "tensorboard_log_dir", "mlflow_tracking_uri"} {
		if n, k := g.find(secs, true, name); n != nil {
			if s, ok := n.Str(); ok && s != "" && !n.IsNull() {
				tr := strings.SplitN(name, "_", 2)[0]
				dup := false
				for _, t := range trackers {
					dup = dup || t == tr
				}
				if !dup {
					add(tr, n, k)
				}
			}
		}
	}
	if n, k := g.find(secs, true, "report_to", "trackers", "tracker", "loggers", "logger_name"); n != nil {
		switch n.Kind {
		case doc.Scalar:
			if s, ok := n.Str(); ok && s != "" && !n.IsNull() {
				add(s, n, k)
			}
		case doc.Seq:
			for _, it := range n.Children {
				if s, ok := it.Str(); ok && s != "" {
					add(s, n, k)
				}
			}
		}
	}
	if len(trackers) > 0 {
		p.Tracking.Trackers = plan.Set(trackers, key, at)
	}
	if n, k := g.find(append(secs, "job", "experiment"), true, "run_name", "experiment_name", "wandb_run_name", "name"); n != nil && (genNormKey(n.Key) != "name" || genInSection(n, []string{"job", "experiment", "run"})) {
		if f := genStrNode(g.root, n, k); f.Known() && f.Value != "" {
			p.Tracking.RunName = f
		}
	}
}

func readGenericBN(p *plan.Plan, g genericReader) {
	secs := []string{"model", "trainer", "train", "training", "distributed", "network", "net"}
	if n, k := g.find(secs, true, "sync_batchnorm", "sync_bn", "bn_sync", "syncbn", "sync_batch_norm", "use_sync_bn"); n != nil {
		if f := genBoolChoice(g.root, n, k, plan.BNSyncNone, plan.BNSyncPerStep); f.Known() {
			p.BN.Sync = f
		}
	}
	if n, k := g.find(secs, true, "norm", "norm_type", "normalization", "norm_layer"); n != nil {
		s, _ := n.Str()
		switch {
		case isBNNorm(s):
			p.BN.Present = plan.Set(true, k, n)
			p.BN.Evidence = k + ": " + s
		case isOtherNorm(s):
			p.BN.Present = plan.Set(false, k, n)
		}
	}
	if !p.BN.Present.Known() {
		if n, k := g.find(secs, true, "backbone", "arch", "architecture", "model_name", "model_type", "name", "type"); n != nil {
			if s, ok := n.Str(); ok && bnFamily(s) != "" && (genNormKey(n.Key) != "name" && genNormKey(n.Key) != "type" || genInSection(n, []string{"model", "network", "net", "backbone"})) {
				p.BN.Present = plan.Set(true, k, n)
				p.BN.Evidence = "backbone " + s
			}
		}
	}
}

// earlyStopMetric reports whether an early-stopping block (early_stop, early_stopping) at the
// top level or in one of the sections names the metric it monitors.
func (g genericReader) earlyStopMetric(secs []string) bool {
	es, _ := g.find(secs, true, "early_stop", "early_stopping")
	if es == nil || es.Kind != doc.Map {
		return false
	}
	for _, name := range []string{"criteria", "criterion", "monitor", "metric"} {
		if c := g.child(es, name); c != nil && c.Kind == doc.Scalar && !c.IsNull() {
			return true
		}
	}
	return false
}

// genExampleSize is the text of the first input-size setting (input_size, crop_size,
// image_size, img_size) in sec or a section under it, "" when there is none.
func genExampleSize(sec *doc.Node) string {
	if sec == nil || sec.Kind != doc.Map {
		return ""
	}
	if t := genSizeIn(sec); t != "" {
		return t
	}
	for _, c := range sec.Children {
		if c.Kind == doc.Map {
			if t := genSizeIn(c); t != "" {
				return t
			}
		}
	}
	return ""
}

// genSizeIn is genExampleSize for m's own keys: a scalar's text, a list's items joined.
func genSizeIn(m *doc.Node) string {
	for _, c := range m.Children {
		switch genNormKey(c.Key) {
		case "input_size", "crop_size", "image_size", "img_size":
			t := c.Value + "["
			for _, it := range c.Children {
				t += it.Value + ","
			}
			return t
		}
	}
	return ""
}

// genTrainSign reports a key a training config sets: a training batch size (unless only
// strong signs count: an inference program has a batch size too), a learning rate, an
// optimizer, a length in epochs or steps, or anything of training (train_iters,
// train_global_batch_size, do_train). A batch size for testing, evaluation or prediction is
// none.
func genTrainSign(key string, batch bool) bool {
	k := genNormKey(key)
	for _, w := range []string{"test", "eval", "val", "predict", "infer"} {
		if strings.HasPrefix(k, w) {
			return false
		}
	}
	switch k {
	case "lr", "base_lr", "optim", "epochs", "max_update", "max_iter", "max_iters", "trainer":
		return true
	}
	for _, w := range []string{"batch_size", "learning_rate", "optimiz", "epoch", "max_steps", "num_steps", "total_steps", "train"} {
		if strings.Contains(k, w) && (batch || w != "batch_size") {
			return true
		}
	}
	return false
}

// genTrainingSign reports a file with a training key in its first two levels (genTrainSign;
// readGenericData also takes a batch size or a length the reader found under other names):
// num_workers alone, beside paths and an analysis' settings (peft-sft-lab's global_meta.json,
// a record an offline analysis wrote), says nothing of a training input pipeline.
func genTrainingSign(root *doc.Node, batch bool) bool {
	for _, c := range root.Children {
		if genTrainSign(c.Key, batch) {
			return true
		}
		if c.Kind == doc.Map {
			for _, cc := range c.Children {
				if genTrainSign(cc.Key, batch) {
					return true
				}
			}
		}
	}
	return false
}

// genTrainingStage reports an eval section that trains a model of its own: an epoch count or a
// learning rate or optimizer there (SimSiam's eval: is the linear probe trained after
// pre-training, its batch_size that stage's train and test batch), so its batch is no eval
// batch of the run the train section describes.
func genTrainingStage(sec *doc.Node) bool {
	if sec == nil || sec.Kind != doc.Map {
		return false
	}
	for _, k := range []string{"num_epochs", "epochs", "max_epochs", "base_lr", "lr", "learning_rate", "optimizer", "optim"} {
		if sec.Get(k) != nil {
			return true
		}
	}
	return false
}
