// Package plan is the normalised training plan: what a configuration means, independent of how
// a framework spells it. Dialects build a Plan from a Document; most rules read only the Plan, so
// one rule serves every framework and still reports at the exact line.
//
// Every field is a Fact: a value, where it came from (Origin), and the node it was read from, so
// a message can say "per_device_eval_batch_size is not set: the Trainer default 8 ..." and point
// at the right line.
package plan

import (
	"math"
	"slices"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// Origin says where a fact's value came from.
type Origin uint8

const (
	// Unknown: nothing is known (the zero value). Rules stay silent on unknown facts.
	Unknown Origin = iota
	// Explicit: written in the file, at Node.
	Explicit
	// Default: the key is absent and the framework's documented default applies.
	Default
	// Derived: computed from other facts (e.g. grad accumulation = global / (micro × DP)).
	Derived
	// Context: supplied by the launch context (--hosts, --devices-per-host, the config file).
	Context
)

func (o Origin) String() string {
	switch o {
	case Explicit:
		return "explicit"
	case Default:
		return "default"
	case Derived:
		return "derived"
	case Context:
		return "context"
	}
	return "unknown"
}

// Fact is one normalised value with its provenance.
type Fact[T any] struct {
	// noEq makes facts, and the plan's parts that hold them, not comparable (compare their
	// fields): a comparable type's descriptor links an equality function, which the light WASM
	// module (no inlining, every function kept) paid for each instantiation and each part.
	noEq   [0]func()
	Value  T
	Origin Origin
	// Key is the framework's own spelling of the setting, as a dotted path
	// ("per_device_eval_batch_size", "trainer.sync_batchnorm"), used in messages even when the
	// key is absent (Origin Default).
	Key string
	// Node is where the value was written (Explicit), or the node that best locates a
	// defaulted/derived fact (e.g. the enclosing section); nil when nothing in the file does.
	Node *doc.Node
	// Note says in a few words why a value holds: for a derived fact the derivation, as messages
	// show it ("= global_batch_size / micro_batch_size"); for a default where it was checked or
	// what it depends on ("transformers v5").
	Note string
	// By names whose default a Default fact holds, as a message says it before the value ("the
	// Trainer default"); "" reads "the default".
	By string
}

// Why says why a Default fact holds: whose default it is and a note.
type Why struct {
	By   string // "the Trainer default"; "" for a default of no one in particular
	Note string // "transformers v5"
}

// Because is a Why with only a note.
func Because(note string) Why { return Why{Note: note} }

// Plus adds a clause to the note.
func (w Why) Plus(more string) Why {
	if w.Note == "" {
		w.Note = more
	} else {
		w.Note += "; " + more
	}
	return w
}

// Known reports whether the fact has a value.
func (f Fact[T]) Known() bool { return f.Origin != Unknown }

// IsExplicit reports whether the value was written in the file.
func (f Fact[T]) IsExplicit() bool { return f.Origin == Explicit }

// Set returns an explicit fact read from node n.
func Set[T any](v T, key string, n *doc.Node) Fact[T] {
	return Fact[T]{Value: v, Origin: Explicit, Key: key, Node: n}
}

// Defaulted returns a defaulted fact; why says whose default it is; at locates it (may be nil).
func Defaulted[T any](v T, key string, why Why, at *doc.Node) Fact[T] {
	return Fact[T]{Value: v, Origin: Default, Key: key, Node: at, Note: why.Note, By: why.By}
}

// Unit is the unit of an interval.
type Unit string

const (
	Steps         Unit = "steps"          // optimizer steps (or batches/iterations, the same here)
	Epochs        Unit = "epochs"         // whole epochs
	EpochFraction Unit = "epoch-fraction" // a fraction of an epoch (Lightning float val_check_interval)
	Seconds       Unit = "seconds"        // wall-clock time
	Samples       Unit = "samples"
	Tokens        Unit = "tokens"
	Ratio         Unit = "ratio" // a fraction of the whole run (HF float eval_steps, Composer "dur")
)

// Interval is how often something happens.
type Interval struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Value float64
	Unit  Unit
	// Text is the value as written ("00:00:30:00", "30m", "500ba"), for messages.
	Text string
}

// Retention is what a checkpoint policy keeps.
type RetentionKind string

const (
	KeepAll    RetentionKind = "all"
	KeepLatest RetentionKind = "latest" // the most recent N
	KeepBest   RetentionKind = "best"   // the best N by a metric (maybe plus the latest)
	KeepNone   RetentionKind = "none"
)

type Retention struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Kind RetentionKind
	N    int
	// DroppedBest says why the framework drops a keep-best setting the file asked for (the fact
	// then points at that setting); "" otherwise.
	DroppedBest string
}

// Scope is which hosts/ranks do something (log, write checkpoints).
type Scope string

const (
	PrimaryHost Scope = "primary"    // one host (rank 0 or process_index 0)
	EveryHost   Scope = "every-host" // one writer per host/node (e.g. local rank 0 of every node)
	EveryRank   Scope = "every-rank" // every process
	Sharded     Scope = "sharded"    // coordinated sharded writes: correct multi-host behaviour
)

// Variation is whether a seed differs from host to host.
type Variation string

const (
	SameOnEveryHost  Variation = "same"
	VariesByHost     Variation = "varies" // derived from rank/process index, or drawn per process
	VariationUnknown Variation = ""
)

// Seed is one seed with how it varies across hosts.
type Seed struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	// Value is the seed as written ("42", "${oc.env:RANK}", "" when absent).
	Value string
	// Varies says whether it differs per host; Why says how ("derived from ${oc.env:RANK}",
	// "no seed: each process draws its own").
	Varies Variation
	Why    string
	// Broadcast reports that the framework broadcasts initial parameters from rank 0 (PyTorch
	// DDP, Horovod), which neutralises a per-host init seed.
	Broadcast bool
	// Pretrained reports that the model starts from pretrained weights, so init seed matters little.
	Pretrained bool
}

// Sharding is how the input is split between hosts.
type Sharding string

const (
	// GlobalIndexSampler: every rank permutes the same index list with the same seed and takes a
	// disjoint slice (PyTorch DistributedSampler, HF Trainer, MMEngine, torchtune). The data seed
	// must be identical on every rank.
	GlobalIndexSampler Sharding = "global-index"
	// PerHostStream: every host builds its own shuffled/augmented stream (tf.data/grain style,
	// per-host file shards). The data seed must differ per host.
	PerHostStream Sharding = "per-host-stream"
	// NotSharded: every host reads the whole input.
	NotSharded Sharding = "none"
)

// BNSync is how batch-norm statistics are kept consistent across devices.
type BNSync string

const (
	BNSyncNone      BNSync = "none"       // each device keeps its own statistics; nothing syncs them
	BNSyncPerStep   BNSync = "per-step"   // cross-replica BN (SyncBatchNorm, sync_batchnorm: true)
	BNSyncBeforeUse BNSync = "before-use" // statistics reduced before eval/checkpoint (SyncNormHook, dist_bn reduce)
	BNSyncBroadcast BNSync = "broadcast"  // rank 0's statistics copied to all: the "first device only" pattern
)

// Plan is the normalised training plan of one file.
type Plan struct {
	Framework string
	// Variant is an optional sub-dialect label ("lightning-cli", "hydra", "trl").
	Variant string
	// Advice is this file's help by concept, in place of the dialect's (dialect.Advice) where
	// a setting the general advice names would be refused beside another of the file's.
	Advice map[string]string

	Train    Train
	Eval     Eval
	Topology Topology
	Seeds    Seeds
	Data     Data
	Ckpt     Checkpoint
	Logging  Logging
	BN       BatchNorm
	Tracking Tracking
	// Precision and Schedule are read by the batch-and-schedule rules.
	Precision Precision
	Schedule  Schedule
	// Mismatches are settings that two files of one run give different values where the
	// framework requires them equal (a recipe and the DeepSpeed file it names): the framework
	// refuses the run at start-up. Empty for a file linted alone.
	Mismatches []Mismatch

	// Rejections are the framework's start-up checks that this file fails: the job would stop
	// before training. A check that a playbook rule already reads from the facts above (fp16 with
	// bf16, save and eval schedules under load_best_model_at_end, the batch arithmetic) is not
	// listed here: that rule reports it.
	Rejections []Rejection
	// OmegaConfChecked: the dialect has added OmegaConf's load-time refusals (the interpolation
	// grammar, repeated keys) to Rejections, since its framework loads files with OmegaConf.
	OmegaConfChecked bool
	// RepeatedKeys, when not empty, says what the framework's loaders do with a repeated key
	// where that is not what the file's format does (the later value wins) and depends on who
	// reads the file, so it is no certain start-up refusal (Rejections). Rule duplicate-key ends
	// its message with it (JSON, YAML and gin files; TOML refuses repeated keys itself).
	RepeatedKeys string
}

// Mismatch is one setting a joined file gives a value the framework refuses, because another
// file of the run (or that file's default) says otherwise.
type Mismatch struct {
	// Concept says which kind of setting it is: "batch", "precision", or "" for any other
	// (an optimizer or clipping value): rules report the kinds they own.
	Concept string
	// Key and Node are the value the framework refuses (in the joined file); Message says what
	// differs, Help how to fix it.
	Key     string
	Node    *doc.Node
	Message string
	Help    string
	// Related are the settings it must agree with, each with a note ("per_device_train_batch_size
	// is 8 here"); the reference that names the joined file when the setting is a default.
	Related []Related
}

// Rejection is one start-up check the file fails, as the framework's source makes it.
type Rejection struct {
	// Node is the setting blamed, Key its framework spelling (dotted path).
	Node *doc.Node
	Key  string
	// Related are the other settings the check reads, each with a short note.
	Related []Related
	// Message says what is wrong, short and lowercase, values quoted:
	// `logging_steps is 0 with logging_strategy "steps"`.
	Message string
	// Says is what the framework would say (its error text, shortened if long).
	Says string
	// Package is the distribution whose target version decides ("transformers", "deepspeed");
	// Since and Until bound the versions that make the check (Until excluded; "" leaves that
	// side open); Read is the newest version it was verified at in the source, named in the
	// message when no version is pinned.
	Package, Since, Until, Read string
	// Source is where the check lives: "TrainingArguments.__post_init__".
	Source string
	// Help says how to fix it; "" for the rule's general advice.
	Help string
	// Fix, when set, replaces a value; only where the edit keeps the file valid.
	Fix *Fix
	// AtKey says the framework refuses Node's key, not its value: the finding sits on the key.
	AtKey bool
	// Span, when set, is where in Node's file the finding sits: a construct with no node of its
	// own (a comment in a JSON file), Node then being the value that holds it.
	Span doc.Span
	// Repeats is, when the framework refuses Node's key because the mapping already has it, the
	// first occurrence. Rule duplicate-key reports such a rejection (its message, in the
	// framework's words), not rejected-at-startup.
	Repeats *doc.Node
}

// Related is a second location a finding points at.
type Related struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Node    *doc.Node
	Message string
}

// Fix replaces Node's value with Value (the text as the file should say it). Safe says the
// edit is certain to be what the user meant.
type Fix struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Node    *doc.Node
	Value   string
	Safe    bool
	Message string
}

type Train struct {
	PerDeviceBatch Fact[int] // micro batch on one device per forward pass
	GlobalBatch    Fact[int] // examples per optimizer step across all devices
	GradAccum      Fact[int]
	// MaxSteps is the step budget. Unknown with a Node when one is written whose value is not
	// known here (a launcher's placeholder, an interpolation): it may still bound the run.
	MaxSteps Fact[int]
	// Epochs is the run length in epochs when no positive step budget bounds it (HF
	// num_train_epochs, axolotl num_epochs), so epoch-based save intervals can be counted.
	Epochs Fact[float64]
	// TimeBudget is a wall-clock limit on the whole run (max_time): a budget, not an interval.
	TimeBudget Fact[Interval]
	// TimeBudgetPerJob reports that TimeBudget ends one job of a run that resumes in the next
	// (NeMo exp_manager.max_time_per_run), not the run itself.
	TimeBudgetPerJob bool
	// Granularity says whether PerDeviceBatch is known to be per device.
	Granularity Granularity
}

// Granularity is whether a per-device batch fact is known to count one device's examples.
type Granularity string

const (
	// PerDevice: the key says it is per device (the zero value).
	PerDevice Granularity = ""
	// Unstated: the key does not say (train.batch_size beside eval.batch_size): the train and
	// eval values are read like for like, and may well be global.
	Unstated Granularity = "unstated"
)

type Eval struct {
	// Enabled is whether periodic evaluation runs during training.
	Enabled Fact[bool]
	// Data is whether the file provides evaluation data (held-out split or eval dataset), where
	// the framework reads it from the config; unknown when data comes from elsewhere (a script).
	Data Fact[bool]
	// DataCheck is what the framework does when evaluation is on without eval data (its start-up
	// refusal); "" when it is not known to check.
	DataCheck string
	// Unavailable reports that the framework (or this variant of it) has no periodic evaluation
	// a config could turn on: rules that advise turning it on stay silent.
	Unavailable    bool
	Interval       Fact[Interval]
	PerDeviceBatch Fact[int]
	GlobalBatch    Fact[int]
	// Colocated is whether eval runs on the training job's devices (false for a separate eval job).
	Colocated Fact[bool]
	DropLast  Fact[bool]
	// Granularity says whether PerDeviceBatch is known to be per device.
	Granularity Granularity
	// AtEnd is whether the framework evaluates after the last training step whatever the
	// interval says; unknown where its source was not checked.
	AtEnd Fact[bool]
	// Subset is how much of the eval set each periodic evaluation reads when the config limits
	// it: batches (Unit Steps), a fraction of the set (Ratio) or examples (Samples). Unknown
	// when every evaluation reads the whole set.
	Subset Fact[Interval]
	// FixedBatches reports that each periodic evaluation reads a set number of batches whatever
	// their size, from a repeated set (T5X's train-eval takes eval_steps batches): a smaller
	// eval batch evaluates fewer examples in as many steps, not the same examples in more.
	FixedBatches bool
}

type Topology struct {
	Hosts          Fact[int]
	DevicesPerHost Fact[int]
}

// MultiHost reports whether more than one host is known to train; ok is false when the host
// count is unknown (multi-host rules then stay silent).
func (t Topology) MultiHost() (multi bool, ok bool) {
	if !t.Hosts.Known() {
		return false, false
	}
	return t.Hosts.Value > 1, true
}

// Devices returns the total device count when both factors are known.
func (t Topology) Devices() (int, bool) {
	if !t.Hosts.Known() || !t.DevicesPerHost.Known() {
		return 0, false
	}
	return t.Hosts.Value * t.DevicesPerHost.Value, true
}

type Seeds struct {
	Init Fact[Seed] // model initialisation
	Data Fact[Seed] // shuffling / augmentation
}

type Data struct {
	Workers  Fact[int] // background loader workers (0 = load in the training process)
	Prefetch Fact[int] // prefetch depth (batches); 0 = off
	Sharding Fact[Sharding]
	// Remote is the remote location (an s3://, gs://, http(s)://, hdfs://... URL) the training
	// data is read from as it trains, with nothing staged on local storage first; unknown when
	// the data is local, downloaded to a cache before training, or not in the file.
	Remote Fact[string]
}

type Checkpoint struct {
	Enabled    Fact[bool]
	Interval   Fact[Interval]
	Retention  Fact[Retention]
	BestMetric Fact[string]
	Scope      Fact[Scope]
	// LoadBest is whether the best checkpoint is reloaded when training ends, which makes the
	// framework rank every saved checkpoint by an eval metric (HF load_best_model_at_end).
	LoadBest Fact[bool]
	// HigherIsBetter is the direction BestMetric is ranked in: true when the largest value counts
	// as the best (HF greater_is_better, Lightning mode "max").
	HigherIsBetter Fact[bool]
	// EarlyStopping is whether training stops once the best metric stops improving (axolotl
	// early_stopping_patience, a Lightning EarlyStopping callback); only what the file says.
	EarlyStopping Fact[bool]
	// AlignCheck is what the framework says when it refuses to start because LoadBest is on and
	// the save schedule does not match the eval schedule (different strategies, or a save
	// interval that is not a multiple of the eval interval); "" when it has no such check.
	AlignCheck string
	// AtEnd is whether the framework saves a checkpoint after the last training step whatever
	// the interval says; unknown where its source was not checked.
	AtEnd Fact[bool]
	// Unaligned is what becomes of a checkpoint saved between two evaluations, as a message
	// ends (", so ..."), where the framework does something other than leave it unscored.
	Unaligned string
	// FreshMetric is the metric checkpoints are ranked by when its name says training logs it
	// (reduced_train_loss), so that a save between two evaluations is ranked by a current
	// value, not a stale one: nothing to align. "" otherwise.
	FreshMetric string
	// BestAtEval names what writes the best checkpoint at every evaluation by itself, whatever
	// the save interval ("evaluation.save_best"): the periodic saves then only serve to resume,
	// and nothing needs them aligned with evaluations. "" when nothing does or it is not known.
	BestAtEval string
}

type Logging struct {
	// Scope is who writes metrics/log files.
	Scope Fact[Scope]
	// ConsoleScope is who prints console logs (HF log_on_each_node): info at most.
	ConsoleScope Fact[Scope]
	// TextLogsOnly reports that Scope only decides who writes text log files: metrics go through
	// loggers that write from the first process whatever it says.
	TextLogsOnly bool
	// SyncEvery is how often (in optimizer steps) training metrics are pulled from the devices
	// to the host, when the framework does that at every logging step.
	SyncEvery Fact[int]
}

type BatchNorm struct {
	Present Fact[bool]
	Sync    Fact[BNSync]
	// Evidence says why BN is believed present ("backbone resnet50", "norm_cfg.type: BN").
	Evidence string
	// OtherBatch, when not empty, says why every unsynchronised batch-norm layer found normalises
	// over something other than the per-device batch of examples (a detector's RoI head
	// normalises over every proposal of every image): the batch size does not tell how many
	// values their statistics use.
	OtherBatch string
	// Broadcaster, when Sync is BNSyncBroadcast although Sync's key turns synchronisation off,
	// names what copies rank 0's statistics instead ("DDP's broadcast_buffers (on by default)").
	Broadcaster string
}

type Tracking struct {
	Trackers Fact[[]string]
	RunName  Fact[string]
}

// Precision is the mixed-precision mode a file asks for.
type Precision struct {
	FP16 Fact[bool]
	BF16 Fact[bool]
	// BothOn is what the framework does when fp16 and bf16 are both on.
	BothOn BothOn
}

// BothOn is a framework's answer to fp16 and bf16 both on.
type BothOn string

const (
	// RefusesBoth: the framework stops at start-up (the zero value).
	RefusesBoth BothOn = ""
	// KeepsBF16: the framework silently trains in bf16 and ignores fp16.
	KeepsBF16 BothOn = "bf16"
)

// Schedule is the learning-rate warmup and what the batch arithmetic needs beyond Train.
type Schedule struct {
	// LearningRate is the (peak) learning rate the optimizer is given (HF learning_rate, whose
	// default depends on the TRL config class and version).
	LearningRate Fact[float64]
	// WarmupSteps is warmup in optimizer steps; WarmupRatio is warmup as a fraction of the run.
	// At most one is known.
	WarmupSteps Fact[int]
	WarmupRatio Fact[float64]
	// ModelParallel is the number of devices one model replica spans (tensor × pipeline ×
	// context parallel sizes) when the file fixes it: the data-parallel size is the device count
	// divided by it. GlobalBatchDivides says that the framework requires GlobalBatch to be a
	// multiple of PerDeviceBatch × data-parallel size (Megatron's micro-batch calculator).
	ModelParallel      Fact[int]
	GlobalBatchDivides bool
	// BatchAsserted says the framework asserts GlobalBatch = PerDeviceBatch × GradAccum × data
	// parallel size at start-up (DeepSpeed's _batch_assertion).
	BatchAsserted bool
	// Streaming is whether the training data is an iterable (streamed) dataset whose length the
	// trainer cannot know.
	Streaming Fact[bool]
}

// MultipleOf reports whether a save interval a falls on every b-th evaluation the way the
// Trainer decides it for load_best_model_at_end (transformers @00349ae, training_args.py
// TrainingArguments.__post_init__): Python's a % b == 0, or, when both are ratios of the run
// (under 1), the same test on both times 1,000,000 (not rounded: 0.3 and 0.1 pass, 0.5 and 1/6
// do not). Go's math.Mod is Python's % for a >= 0 and b > 0, so the floats agree bit for bit.
// The HF retention plan and the alignment rules use it; axolotl's own test (plain %, no
// scaled retry) is written out where it is read.
func MultipleOf(a, b float64) bool {
	if !(b > 0) || !(a >= 0) {
		return false
	}
	if math.Mod(a, b) == 0 {
		return true
	}
	const scale = 1_000_000
	return a < 1 && b < 1 && math.Mod(a*scale, b*scale) == 0
}

// TrainMetric reports a metric name with the word train or training in it (train_loss,
// train/acc, reduced_train_loss): training logs it.
func TrainMetric(name string) bool { return metricWord(name, "train", "training") }

// EvalMetric reports a metric name with a word that says validation or testing logs it
// (val_loss, val/acc, validation_wer, eval_bleu, test_map).
func EvalMetric(name string) bool {
	return metricWord(name, "val", "valid", "validation", "eval", "evaluation", "test")
}

// metricWord reports whether one of the words (letters and digits, lower-cased) of name is
// among words.
func metricWord(name string, words ...string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if slices.Contains(words, w) {
			return true
		}
	}
	return false
}
