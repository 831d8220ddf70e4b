package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Context is what the launch supplies that the file may not state.
type Context struct {
	Hosts          int // 0 = unknown
	DevicesPerHost int // 0 = unknown
	// Mapping teaches the generic dialect a team's own key names: concept → dotted key path
	// (e.g. "eval.interval_seconds" → "trainer.eval_every_secs"). See the config file's [mapping].
	Mapping map[string]string
	// HostsKey/HostsNode and DevicesKey/DevicesNode locate the hosts and devices when a
	// launcher config of the run set them (an accelerate config's num_machines); empty and nil
	// for the command line's --hosts and --devices-per-host.
	HostsKey, DevicesKey   string
	HostsNode, DevicesNode *doc.Node
	// Targets are the framework versions the file is linted for, by package ("trl": "0.21"),
	// from lint.Options.Targets; a package without one is read at the newest tag in the
	// knowledge tables. Defaults that changed between releases (TRL's) are read at it.
	Targets map[string]string
	// Trainer is the training function the repository's train script calls, when the driver
	// found one; zero when unknown (the browser, a file outside a repository).
	Trainer Trainer
	// ModelCallbacks are the callback classes the repository's LightningModules return from
	// configure_callbacks, or its scripts hand their Trainer (lint.Options.ModelCallbacks); nil
	// when unknown.
	ModelCallbacks []string
	// RepoNames are the words of the repository's Python files, lowercased
	// (lint.Options.RepoNames); nil when unknown. The generic reader takes no fact from a key
	// the repository's code never names: nothing there reads it (Amphion's keep_checkpoint_max).
	RepoNames map[string]bool
	// RepoReads are the names the repository's Python files read from an object or a mapping,
	// as written (lint.Options.RepoReads); nil when unknown. A key its code declares but never
	// reads (a dataclass field nothing accesses) does nothing there.
	RepoReads map[string]bool
	// RepoPackages are the Python packages the repository holds (lint.Options.RepoPackages);
	// nil when unknown. A repository holding torchtitan runs its own copy of it.
	RepoPackages map[string]bool
	// RepoImports counts the repository's Python files that import paddle and torch, by module
	// (lint.Options.RepoImports); nil when unknown.
	RepoImports map[string]int
	// CheckpointClasses are the repository's classes that derive from a checkpoint callback
	// (lint.Options.CheckpointClasses); nil when unknown.
	CheckpointClasses map[string]bool
	// NoFit says only scripts that never train read the file (lint.Options.NoFit): a Trainer
	// that never fits writes no checkpoint and syncs no batch norm.
	NoFit bool
	// LaunchKeys are keys a launcher script gives on the command line after the file
	// (lint.Options.LaunchKeys): a LLaMA-Factory start-up check that needs one of them set
	// is decided at launch.
	LaunchKeys map[string]bool
	// NoFitModels are LightningModule classes that can never fit (lint.Options.NoFitModels): a
	// config whose model names one only validates, tests or predicts.
	NoFitModels map[string]bool
	// NoValModels are LightningModule classes that never validate (lint.Options.NoValModels): a
	// config whose model names one runs no evaluation during training.
	NoValModels map[string]bool
	// CLIDefaults says the repository's LightningCLI loads a default config file with a
	// ModelCheckpoint under every fit (lint.Options.CLIDefaults): a config that sets no
	// trainer.callbacks keeps that file's, so the Trainer's own default is not what runs.
	CLIDefaults bool
	// CLINoCheckpointing says the repository's LightningCLI gives trainer_defaults that turn
	// checkpointing off (lint.Options.CLINoCheckpointing): a config that does not turn it on
	// itself gets no ModelCheckpoint.
	CLINoCheckpointing bool
	// CheckoutRecipes are the recipes of the copy of torchtune the file lies in (its
	// recipes/*.py and recipes/dev/*.py beside the torchtune/ package, by file name without .py
	// and dev/), and whether each reads run_val_every_n_steps (lint.Options.CheckoutRecipes); nil
	// outside one: `tune run NAME` runs that copy's recipes/NAME.py.
	CheckoutRecipes map[string]bool
	// ExecConfig says the file is a Python file of settings that the repository's training
	// script execs into its own globals (doc.IsExecConfig with lint.Options.ExecGlobals): a
	// nanoGPT config/*.py, which its configurator.py execs over train.py's defaults. The
	// generic reader reads it alone, with the meaning train.py gives its names
	// (readExecConfig).
	ExecConfig bool
	// Hydra says the file is a run Hydra composes from a defaults list (lint.LintRun): the
	// app's code builds the objects its groups do not instantiate, with arguments of its own.
	Hydra bool
}

// Trainer is the training function a repository's train script calls
// ("mmdet.apis.train_detector") and where that was read ("detection/train.py"). It tells which
// project's hooks an MMCV 1.x config runs with (their defaults differ: mmcv1Checkpoints).
// Validate is how the script's call sets the function's validate parameter when it turns
// periodic evaluation on: "on" (validate=True) or "no-validate" (validate=(not
// args.no_validate): on unless the run passes --no-validate); "" when it does not or the value is
// not one of those (the functions' own default is off).
type Trainer struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Name, Source string
	Validate     string
}

// Key documents one key a dialect reads: the site's framework pages, `trainlint schema` and the
// unknown-key rule are built from these.
type Key struct {
	Path    string // dotted path as written in the file ("trainer.sync_batchnorm"); "[]" marks list items
	Type    string // JSON-Schema-like: "integer", "number", "string", "boolean", "object", "array", or a union "integer|string"
	Default string // the framework's default as text ("8", "false", "none"); "" when there is none
	Concept string // the plan field it feeds ("eval.per_device_batch", "seeds.init", ...)
	Doc     string // one line: what it means
	Enum    []string

	// A renamed or removed key. Replacement is the key that took its place (a path like Path,
	// in the same map); How says what to do instead when that is more than using one key
	// ("set optim to \"adafactor\""). Since is the version that deprecated the key, Removed the
	// one that no longer accepts it ("transformers 4.41" and "v5"; "" when unknown or not yet).
	// Rename is the fix the deprecated-key rule offers: "safe" for a pure rename, "unsafe" when
	// the replacement is close but not equal in meaning, "" for none. Editors show a key with a
	// safe rename as renamed. NewSince is the first release whose settings have the
	// replacement ("1.4" for Lightning's devices), when known: a target older than Removed but
	// not than NewSince can move to it already. Warned is the first release that warns about a
	// key Since leaves empty ("1.7" for Lightning's gpus): a target before it takes the key
	// without a warning, so messages do not call it deprecated there.
	Replacement string
	How         string
	Since       string
	Removed     string
	Rename      string
	NewSince    string
	Warned      string
}

// Deprecated is the key's new name when it was renamed (a safe rename), "" otherwise: what the
// site's framework pages show as "renamed to".
func (k Key) Deprecated() string {
	if k.Rename == "safe" {
		return k.Replacement
	}
	return ""
}

// IsDeprecated reports whether the key is renamed or removed.
func (k Key) IsDeprecated() bool {
	return k.Replacement != "" || k.How != "" || k.Since != "" || k.Removed != ""
}

// DeprecationNote is when the key was deprecated, as a message says it in parentheses:
// "transformers 4.41; removed in v5", "removed in Lightning 2.0", or the framework's title when
// the dialect records no version.
func (k Key) DeprecationNote(d *Dialect) string {
	switch {
	case k.Since != "" && k.Removed != "":
		return k.Since + "; removed in " + k.Removed
	case k.Removed != "":
		return "removed in " + k.Removed
	case k.Since != "":
		return k.Since
	}
	return d.Title
}

// Advice is how to fix, in one framework, a finding about one concept (the Key.Concept a rule
// reads: "bn.sync", "ckpt.retention"). Rules take their per-framework help from here, so that
// no rule names a framework.
type Advice struct {
	// noEq makes Advice (and ConceptAdvice, and their arrays behind the AdviceSet literals) not
	// comparable: nothing compares them, and a comparable type's descriptor links an equality
	// function, which in the light WASM module (no inlining, every function kept) cost about
	// 7 KB raw for the advice arrays alone. It is first and has no size, so no padding either.
	noEq [0]func()
	// Help is the diagnostic's help; "{key}" stands for the fact's key (or Key when the fact
	// has none).
	Help string
	// IfDefault replaces Help when the fact holds the framework's default (the file does not
	// set it), when that calls for other advice.
	IfDefault string
	// Key names the setting in Help when the fact carries no key.
	Key string
	// Doc is this framework's line in the rule page's list of fixes (Markdown, without the
	// "- <framework>: " the page adds). A Doc that starts with "- " is a block of list items
	// labelled inside, shown as written (the generic dialect's advice for tools it reads).
	Doc string
}

// AdviceSet is a framework's Advice by concept. It is a list rather than a map so that the
// compiler lays it out as data: the dialects' advice maps were built by code at package init,
// which the browser checker compiled and ran before it was ready (site/doc.go, Timings). A
// concept appears at most once (TestAdviceConceptsUnique); a set has a few dozen at most.
type AdviceSet []ConceptAdvice

// ConceptAdvice is the Advice for one concept.
type ConceptAdvice struct {
	Concept string
	Advice
}

// For is the advice for concept; the zero Advice when the set has none.
func (s AdviceSet) For(concept string) Advice {
	a, _ := s.Lookup(concept)
	return a
}

// Only is the set's advice for the concepts given that it has, in their order.
func (s AdviceSet) Only(concepts ...string) AdviceSet {
	var out AdviceSet
	for _, c := range concepts {
		if a, ok := s.Lookup(c); ok {
			out = append(out, ConceptAdvice{c, a})
		}
	}
	return out
}

// Lookup is the advice for concept and whether the set has one.
func (s AdviceSet) Lookup(concept string) (Advice, bool) {
	for i := range s {
		if s[i].Concept == concept {
			return s[i].Advice, true
		}
	}
	return Advice{}, false
}

// Loader is what feeds a framework's training input.
type Loader string

// TorchDataLoader: a PyTorch DataLoader, whose prefetch_factor only applies to worker processes.
const TorchDataLoader Loader = "torch"

// Dialect is one framework's reader.
type Dialect struct {
	Name  string // framework id used in output: huggingface, axolotl, llama-factory, lightning, nemo, deepspeed, torchtune, composer, generic
	Title string // human name: "Hugging Face Trainer"
	// Version is the framework version the keys and defaults were checked against, with the
	// source ("transformers 4.57.1, src/transformers/training_args.py").
	Version string
	Formats []doc.Format
	// Detect scores the evidence that d belongs to this framework: 0 = none; 100 = certain.
	// Strong evidence (a key only this framework has) scores ≥ 50; weak hits add up.
	Detect func(d *doc.Document) int
	// Fallback marks a dialect consulted only when no other dialect claims a file (no score
	// reaches MinScore): a framework whose files carry no key of their own, recognised by their
	// shape (torchtitan's sections, NeoX's Megatron keys). Its Detect still says how sure it is;
	// the highest score among the fallbacks wins, and the generic dialect reads the rest.
	Fallback bool
	// Normalize builds the plan. It must never panic on odd shapes (wrong types, nulls,
	// interpolations): unknown values leave facts Unknown.
	Normalize func(d *doc.Document, ctx Context) *plan.Plan
	// Keys are the keys this dialect reads, with defaults.
	Keys []Key

	// Label names the framework in lists on rule pages ("Lightning"); Title when empty.
	Label string
	// Settings are the framework's other settings: keys the dialect does not read but that exist
	// all the same (or existed: renamed and removed keys), for editors' schemas, the unknown-key
	// and invalid-value rules and the deprecated-key rule.
	Settings []Key
	// Closed reports that Keys and Settings list every top-level setting, so that the key rules
	// may call a near miss a typo. SettingsName is what messages call that set
	// ("TrainingArguments").
	Closed       bool
	SettingsName string
	// ClosedSections are maps (dotted paths) whose keys Keys and Settings list in full, as Closed
	// says of the root: a near miss of one of their keys is a typo too (LitGPT's train: and
	// eval:, the TrainArgs and EvalArgs dataclasses).
	ClosedSections []string
	// NotYet reports a renamed or removed argument (a Settings key, by its last path element)
	// that the knowledge table shows arriving after the target release: no argument there
	// yet, so the deprecated-key rule says nothing of it and the unknown-key rule reports it
	// as any unknown argument (nil: never).
	NotYet func(key, target string) bool
	// Roots are the maps (dotted paths; "" for the file's root) under which Keys' paths apply,
	// for rules that look keys up by path: LightningCLI repeats trainer: under each subcommand.
	// Empty means the root only.
	Roots []string
	// SectionRoot names the section (a dotted path of Keys, "trainer") whose keys a file holds at
	// its root instead (a Hydra group file instantiated as that section's class), "" when it
	// holds none so; nil for frameworks without such files. The deprecated-key rule reads there
	// the section's keys the target version still has (one it lacks is the unknown-key rule's:
	// the class refuses it).
	SectionRoot func(d *doc.Document) string
	// Knowledge names the framework's entry in the knowledge table extracted from its source
	// (KnowledgeOf; "" for none), and Package the package whose version targets it ("deepspeed").
	// Sections says which of the table's sections the unknown-key rule checks in a file: config
	// path -> table section (DeepSpeed: "zero_optimization.offload_param" is read by the model of
	// that name); "" maps the root.
	Knowledge string
	Package   string
	// Alongside are packages whose configs extend this framework's and share its files (TRL for
	// the Trainer): their renamed and removed keys come from the knowledge table.
	Alongside []string
	// ScriptArgs says the framework's front-end fills the training script's own argument
	// dataclasses from the file as well as its settings (HfArgumentParser takes a key that any
	// of the dataclasses it is given has), so a field of the repository's dataclasses
	// (lint.Options.ScriptKeys) is a setting there.
	ScriptArgs bool
	// OwnLoader says that only the framework's own front-end opens its files (HfArgumentParser,
	// axolotl's and LLaMA-Factory's config loaders read one file's top-level keys): a file Hydra
	// composes into a run (lint.Options.HydraLoaded), whose keys land under its group's package,
	// is none of its files.
	OwnLoader bool
	// DeprecatedWhenSet: the framework reports a deprecated key only when its value is not
	// null (axolotl 0.18's deprecation validators, utils/schemas/deprecated.py, test "is not
	// None"): a key written with no value is not deprecated use.
	DeprecatedWhenSet bool
	Sections          map[string]string
	// KnownFrom names dialects whose Keys and Settings are settings at the root too (the
	// Trainer's TrainingArguments, which LLaMA-Factory parses alongside its own classes).
	KnownFrom []string
	// KnownSections are "framework:section" pairs of the knowledge table whose keys, at any
	// version read, are settings at the root too (transformers' Seq2SeqTrainingArguments, which
	// LLaMA-Factory's v0 parser is given in place of TrainingArguments).
	KnownSections []string
	// OpenWith are keys whose presence means the file is parsed with classes the table does not
	// have (LLaMA-Factory under USE_MCA=1 parses mcore_adapter's TrainingArguments): with any of
	// them the root is not checked.
	OpenWith []string
	// Checks says that the table's "@enum" and "@check" rows (closed value sets, start-up
	// refusals) apply to the root of this dialect's files; SkipVariant names a plan variant
	// whose files another parser reads, so that neither they nor Sections apply to it.
	Checks      bool
	SkipVariant string
	// KeyMaps finds the closed argument maps of a file whose places its shape decides (see
	// KeyMap); Problems checks values at a target version (of those maps, or of the file's
	// Sections); nil for frameworks without them.
	KeyMaps  func(d *doc.Document) []KeyMap
	Problems func(d *doc.Document, maps []KeyMap, kb *Knowledge, target string) []Problem
	// Loader is what feeds the training input ("" when unknown or several kinds).
	Loader Loader
	// StrictJSON names what reads the framework's JSON configs with Python's json, which
	// refuses comments, trailing commas and the rest of JSON5's syntax ("" when a lenient reader
	// may read them, or unknown): parse-error reports those as errors only where it is set.
	StrictJSON string
	// Advice is how to fix findings in this framework, by concept.
	Advice AdviceSet
	// Interpolates reports that the framework loads its files with OmegaConf, so ${a.b} names
	// another key (Hydra, NeMo, torchtune, llm-foundry); elsewhere it is literal text.
	// RefSections are sections a ${name} is also looked up in (llm-foundry's variables, and the
	// parameters section of its MosaicML platform files).
	Interpolates bool
	RefSections  []string
}

// ListName is how rule pages name the framework in lists.
func (d *Dialect) ListName() string {
	if d.Label != "" {
		return d.Label
	}
	return d.Title
}

// MinScore is the least score that claims a file; below it the generic dialect reads it.
const MinScore = 30
