package dialect

import (
	"strconv"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// DeepSpeed JSON configs, checked against deepspeedai/DeepSpeed @edaa722 (version 0.19.6):
// deepspeed/runtime/constants.py (keys, defaults), deepspeed/runtime/config.py
// (_set_batch_related_parameters, _batch_assertion) and deepspeed/monitor/config.py.
//
// DeepSpeed holds the batch arithmetic (train_batch_size = micro × accumulation × world size,
// asserted at start-up; any two determine the third, and with only one batch key accumulation is
// 1), checkpoint placement and monitors. Evaluation, seeds and the data pipeline live in the host
// framework, so those facts stay unknown. "auto" values are filled in by the HF/accelerate
// integration and stay unknown here.

const dsVersion = "DeepSpeed 0.19.6 @edaa722 (deepspeed/runtime/constants.py, runtime/config.py)"

var dsNote = plan.Why{By: "the DeepSpeed default", Note: "0.19.6"}

// DeepSpeed reads DeepSpeed config files.
var DeepSpeed = register(newDeepSpeed())

// newDeepSpeed builds DeepSpeed (a function of its own: see register).
func newDeepSpeed() *Dialect {
	return &Dialect{
		Name:      "deepspeed",
		Title:     "DeepSpeed",
		Version:   dsVersion,
		Formats:   []doc.Format{doc.JSON, doc.YAML},
		Detect:    detectDS,
		Normalize: normalizeDS,
		Keys:      dsKeys,
		Loader:    TorchDataLoader,
		// Checked in deepspeedai/DeepSpeed at v0.19.5: get_zero_config (runtime/zero/config.py) builds
		// DeepSpeedZeroConfig(**param_dict["zero_optimization"]), whose offload_param and
		// offload_optimizer fields are the offload models; get_bfloat16_config and
		// get_float16_config (runtime/precision_config.py) build the precision models from "bf16"
		// (else "bfloat16") and "fp16". All derive from DeepSpeedConfigModel (extra="forbid").
		Knowledge: "deepspeed",
		Package:   "deepspeed",
		Problems:  dsProblems,
		Sections:  dsSections,
		Advice: AdviceSet{
			{"batch.arithmetic", Advice{
				Help: "DeepSpeed asserts train_batch_size = train_micro_batch_size_per_gpu × gradient_accumulation_steps × data-parallel world size at start-up; set two of them (or \"auto\" under the HF Trainer) and let DeepSpeed derive the third",
				Doc:  "give two of `train_batch_size`, `train_micro_batch_size_per_gpu`,\n  `gradient_accumulation_steps` and let DeepSpeed derive the third (it asserts\n  batch = micro × accumulation × world size at start-up).",
			}},
			{"precision", Advice{
				Help: `DeepSpeed asserts "bfloat16 and fp16 modes cannot be simultaneously enabled"`,
				Doc:  "set `fp16.enabled` or `bf16.enabled` to false (DeepSpeed asserts that at most one is on).",
			}},
			{"ckpt.scope", Advice{
				Help: "set {key} to false and save to a directory every node can read",
				Key:  "checkpoint.use_node_local_storage",
				Doc:  "`checkpoint.use_node_local_storage: false` with a shared checkpoint directory.",
			}},
		},
	}
}

// dsSections maps the config paths read by a pydantic model to the knowledge table's sections.
var dsSections = map[string]string{
	"":                                    "",
	"zero_optimization":                   "zero_optimization",
	"zero_optimization.offload_param":     "zero_optimization.offload_param",
	"zero_optimization.offload_optimizer": "zero_optimization.offload_optimizer",
	"bf16":                                "bf16",
	"bfloat16":                            "bf16",
	"fp16":                                "fp16",
}

var (
	dsStrong = []string{"zero_optimization", "train_micro_batch_size_per_gpu", "zero_allow_untested_optimizer",
		"wall_clock_breakdown", "flops_profiler", "comms_logger", "autotuning", "data_efficiency",
		"compression_training", "zero_force_ds_cpu_optimizer", "prescale_gradients", "sparse_gradients"}
	dsWeak = []string{"train_batch_size", "steps_per_print", "gradient_clipping", "gradient_predivide_factor",
		"gradient_accumulation_steps", "activation_checkpointing", "aio", "csv_monitor", "amp", "communication_data_type",
		"dataloader_drop_last", "hybrid_engine", "checkpoint", "elasticity", "memory_breakdown"}
	// dsMegatron are GPT-NeoX/Megatron model keys: such files embed DeepSpeed settings in a larger
	// config that is not DeepSpeed's.
	dsMegatron = []string{"num_layers", "num-layers", "hidden_size", "hidden-size", "num_attention_heads",
		"num-attention-heads", "seq_length", "seq-length", "pipe_parallel_size", "pipe-parallel-size",
		"model_parallel_size", "model-parallel-size", "train_iters", "train-iters",
		// GPT-NeoX's training keys, which its partial configs (a train config merged with a
		// model config) hold beside DeepSpeed's blocks.
		"lr_decay_iters", "lr-decay-iters", "lr_decay_style", "lr-decay-style", "checkpoint_factor",
		"checkpoint-factor", "keep_last_n_checkpoints", "keep-last-n-checkpoints", "data_impl", "data-impl"}
)

func detectDS(d *doc.Document) int {
	root := d.Root
	if root == nil || root.Kind != doc.Map {
		return 0
	}
	if scoreSets(root, dsMegatronSet(), 1, nil, 0) >= 2 {
		return 0
	}
	s := scoreSets(root, dsStrongSet(), 40, dsWeakSet(), 15)
	// fp16/bf16/optimizer/scheduler are blocks in DeepSpeed and scalars or strings elsewhere.
	for _, k := range []string{"fp16", "bf16", "bfloat16"} {
		if n := root.Get(k); n != nil && n.Kind == doc.Map && n.Get("enabled") != nil {
			s += 20
		}
	}
	for _, k := range []string{"optimizer", "scheduler"} {
		if n := root.Get(k); n != nil && n.Kind == doc.Map && n.Get("type") != nil && n.Get("params") != nil {
			s += 15
		}
	}
	for _, k := range []string{"tensorboard", "wandb", "comet"} {
		if n := root.Get(k); n != nil && n.Kind == doc.Map && n.Get("enabled") != nil {
			s += 10
		}
	}
	if s >= MinScore && countKeys(root, dsStrongSet()) == 0 && !mostlyDSKeys(root) {
		// Blocks of DeepSpeed's shape in another framework's config: MMF's YAML has optimizer
		// and scheduler as {type, params} beside its own training, model_config and
		// dataset_config sections, which DeepSpeed never reads.
		return 0
	}
	return Cap(s)
}

// mostlyDSKeys reports whether root reads as DeepSpeed's own: at least half of its keys are
// top-level keys DeepSpeed reads at some release in the knowledge table, and none of the others
// is a section (a map) of its own (true when the table has none: no evidence against).
func mostlyDSKeys(root *doc.Node) bool {
	k := KnowledgeOf("deepspeed")
	if k == nil || len(k.Sections[""]) == 0 {
		return true
	}
	known := 0
	for _, c := range root.Children {
		if _, ok := k.Sections[""][c.Key]; ok {
			known++
		} else if c.Kind == doc.Map {
			return false
		}
	}
	return 2*known >= len(root.Children)
}

// dsRepeatedKeys is what becomes of a repeated key in a DeepSpeed file. DeepSpeedConfig reads a
// path with hjson and object_pairs_hook=dict_raise_error_on_duplicate_keys, which raises
// (deepspeed @01ccf33, runtime/config.py and runtime/config_utils.py); accelerate's
// HfDeepSpeedConfig, which the HF Trainer's subclasses too, reads the path with a plain
// json.load (accelerate @0a65ca4, utils/deepspeed.py) and hands DeepSpeed the dict, where the
// later value wins. Lightning's DeepSpeedStrategy does the same in _load_config (lightning
// @63c99cc, pytorch/strategies/deepspeed.py; @9f0d933, fabric/strategies/deepspeed.py; later
// releases hand the strategy to a separate package, not read here). The file does not say
// which of them reads it.
const dsRepeatedKeys = `DeepSpeed stops at start-up when it reads the file from its path ("Duplicate keys in DeepSpeed config"), while the HF Trainer, accelerate and Lightning's DeepSpeedStrategy read it with json.load and keep the later value`

func normalizeDS(d *doc.Document, ctx Context) *plan.Plan {
	p := &plan.Plan{Framework: "deepspeed", RepeatedKeys: dsRepeatedKeys}
	root := d.Root
	gb, hasGB := dsBatchKey(root, "train_batch_size")
	mb, hasMB := dsBatchKey(root, "train_micro_batch_size_per_gpu")
	ga, hasGA := dsBatchKey(root, "gradient_accumulation_steps")
	if hasGB {
		p.Train.GlobalBatch = gb
	}
	if hasMB {
		p.Train.PerDeviceBatch = mb
	}
	switch {
	case hasGA:
		p.Train.GradAccum = ga
	case hasGB != hasMB:
		// _set_batch_related_parameters: with a single batch key, accumulation is 1.
		at := gb.Node
		if hasMB {
			at = mb.Node
		}
		p.Train.GradAccum = plan.Defaulted(1, "gradient_accumulation_steps", plan.Why{By: "the DeepSpeed default", Note: "1 when only one batch key is given"}, at)
	}

	// Checkpoints: every rank writes its own shard once; use_node_local_storage puts the
	// model states on every node's local disk instead.
	p.Ckpt.Scope = scopeFrom(BoolOr(root, "checkpoint.use_node_local_storage", false, dsNote.Plus("each rank writes its shard once")), plan.EveryHost, plan.Sharded)
	if s := p.Ckpt.Scope; s.Known() && s.Value == plan.EveryHost {
		// Each node's first rank writes the model states file, which under ZeRO-3 holds no
		// partitioned weight: every rank still writes only its shard (engine.py at v0.19.5,
		// _configure_checkpointing, _save_checkpoint). A stage not known is no claim.
		switch st, ok := IntAt(root, "zero_optimization.stage"); {
		case ok && st.Known() && st.Value == 3:
			p.Ckpt.Scope.Value = plan.Sharded
		case ok && !st.Known():
			p.Ckpt.Scope = plan.Fact[plan.Scope]{Key: s.Key, Node: s.Node}
		}
	}

	p.Tracking.Trackers = dsMonitors(root)

	// Precision: DeepSpeedConfig asserts "bfloat16 and fp16 modes cannot be simultaneously
	// enabled" (DeepSpeed v0.16.4 deepspeed/runtime/config.py:834; later versions assert the same on float16_config/bfloat16_config); bf16 is
	// also read under its old name bfloat16 (runtime/constants.py BFLOAT16_OLD). "auto" is
	// filled in by the HF integration and stays unknown.
	p.Precision.FP16 = dsEnabled(root, "fp16")
	p.Precision.BF16 = dsEnabled(root, "bf16")
	if root.Get("bf16") == nil && root.Get("bfloat16") != nil {
		p.Precision.BF16 = dsEnabled(root, "bfloat16")
	}
	// _batch_assertion: train_batch_size == micro × accumulation × data-parallel world size.
	p.Schedule.BatchAsserted = true
	dsStringBatches(p, root)
	ApplyContext(p, ctx)
	dsDerive(p)
	return p
}

// dsBatchKey reads a batch key; present-but-"auto" (or null) is unknown, as DeepSpeed's caller fills it.
func dsBatchKey(root *doc.Node, key string) (plan.Fact[int], bool) {
	f, ok := IntAt(root, key)
	if !ok {
		return f, false
	}
	if f.Node.IsNull() {
		return plan.Fact[int]{Key: key, Node: f.Node}, false
	}
	return f, true
}

// dsDerive completes the batch triple from the device count, as DeepSpeed does at start-up.
func dsDerive(p *plan.Plan) {
	devices, ok := p.Topology.Devices()
	if !ok || devices <= 0 {
		return
	}
	t := &p.Train
	switch {
	case t.GlobalBatch.Known() && t.PerDeviceBatch.Known() && !t.GradAccum.Known() && t.GradAccum.Node == nil && t.PerDeviceBatch.Value > 0:
		t.GradAccum = plan.Fact[int]{Value: t.GlobalBatch.Value / t.PerDeviceBatch.Value / devices, Origin: plan.Derived,
			Key: "gradient_accumulation_steps", Node: t.GlobalBatch.Node,
			Note: "= train_batch_size / train_micro_batch_size_per_gpu / " + strconv.Itoa(devices) + " devices"}
	case t.GlobalBatch.Known() && t.GradAccum.Known() && !t.PerDeviceBatch.Known() && t.PerDeviceBatch.Node == nil && t.GradAccum.Value > 0:
		t.PerDeviceBatch = plan.Fact[int]{Value: t.GlobalBatch.Value / devices / t.GradAccum.Value, Origin: plan.Derived,
			Key: "train_micro_batch_size_per_gpu", Node: t.GlobalBatch.Node,
			Note: "= train_batch_size / " + strconv.Itoa(devices) + " devices / gradient_accumulation_steps"}
	case t.PerDeviceBatch.Known() && t.GradAccum.Known() && !t.GlobalBatch.Known() && t.GlobalBatch.Node == nil:
		t.GlobalBatch = plan.Fact[int]{Value: t.PerDeviceBatch.Value * t.GradAccum.Value * devices, Origin: plan.Derived,
			Key: "train_batch_size", Node: t.PerDeviceBatch.Node,
			Note: "= train_micro_batch_size_per_gpu × gradient_accumulation_steps × " + strconv.Itoa(devices) + " devices"}
	}
}

// dsEnabled reads <block>.enabled; an absent block or key is DeepSpeed's default false.
func dsEnabled(root *doc.Node, block string) plan.Fact[bool] {
	key := block + ".enabled"
	b := root.Get(block)
	if b == nil || b.IsNull() {
		return plan.Defaulted(false, key, dsNote, nil)
	}
	if b.Kind != doc.Map {
		return plan.Fact[bool]{Key: key, Node: b}
	}
	return BoolOr(root, key, false, dsNote)
}

// dsMonitors lists enabled monitor blocks. With no block at all the host framework (usually the
// HF Trainer's report_to) does the tracking, so the fact stays unknown.
func dsMonitors(root *doc.Node) plan.Fact[[]string] {
	var (
		out   = []string{}
		first *doc.Node
	)
	for _, k := range []string{"tensorboard", "wandb", "csv_monitor", "comet"} {
		n := root.Get(k)
		if n == nil {
			continue
		}
		if first == nil {
			first = n
		}
		en := n.Get("enabled")
		if en.IsUnknown() {
			return plan.Fact[[]string]{Key: k + ".enabled", Node: en}
		}
		if b, ok := en.Bool(); ok && b {
			out = append(out, k)
		}
	}
	if first == nil {
		return plan.Fact[[]string]{Key: "tensorboard"}
	}
	return plan.Set(out, first.Key, first)
}

var dsKeys = []Key{
	{Path: "train_batch_size", Type: "integer|string", Default: "", Concept: "train.global_batch", Doc: "examples per optimizer step over all GPUs (= micro × accumulation × world size); \"auto\" under HF"},
	{Path: "train_micro_batch_size_per_gpu", Type: "integer|string", Default: "", Concept: "train.per_device_batch", Doc: "micro batch per GPU per step; \"auto\" under HF"},
	{Path: "gradient_accumulation_steps", Type: "integer|string", Default: "", Concept: "train.grad_accum", Doc: "micro steps per optimizer step; 1 when only one batch key is given"},
	{Path: "checkpoint.use_node_local_storage", Type: "boolean", Default: "false", Concept: "ckpt.scope", Doc: "save model states on every node's local storage"},
	{Path: "checkpoint.tag_validation", Type: "string", Default: "Warn", Doc: "check that every rank saves the same tag", Enum: []string{"Ignore", "Warn", "Fail"}},
	{Path: "tensorboard.enabled", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "log to TensorBoard"},
	{Path: "wandb.enabled", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "log to W&B"},
	{Path: "csv_monitor.enabled", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "log to CSV files"},
	{Path: "comet.enabled", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "log to Comet"},
	{Path: "zero_optimization.stage", Type: "integer", Default: "0", Doc: "ZeRO stage 0-3"},
	{Path: "steps_per_print", Type: "integer", Default: "", Doc: "steps between progress prints"},
	{Path: "gradient_clipping", Type: "number|string", Default: "1.0", Doc: "gradient norm clipping"},
	{Path: "fp16.enabled", Type: "boolean|string", Default: "false", Doc: "fp16 mixed precision"},
	{Path: "bf16.enabled", Type: "boolean|string", Default: "false", Doc: "bf16 mixed precision"},
	{Path: "dataloader_drop_last", Type: "boolean", Default: "false", Doc: "drop the last incomplete batch of DeepSpeed's own training loader"},
	{Path: "wall_clock_breakdown", Type: "boolean", Default: "false", Doc: "time forward/backward/step"},
}
