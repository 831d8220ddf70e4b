package lint

import (
	"errors"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// File is one input: a path (for messages and format detection) and its bytes.
type File struct {
	Path string
	Text []byte
	// Format overrides detection ("" = by extension, else by content: doc.Sniff).
	Format doc.Format
	// Size, when larger than len(Text), is the size of a file the driver stopped reading at the
	// size limit (Text is empty or its beginning): the file is reported over the limit, not
	// parsed.
	Size int64
}

// Options steer one lint run.
type Options struct {
	Hosts          int    // launch context: hosts (0 = unknown)
	DevicesPerHost int    // launch context: devices per host (0 = unknown)
	Framework      string // override detection ("" = detect)
	Select         []string
	Ignore         []string
	// Severity overrides a rule's severity, keyed by rule name.
	Severity map[string]Severity
	// RuleOptions set rule options, keyed by rule name then option name.
	RuleOptions map[string]map[string]any
	Limits      doc.Limits
	// NoDirectYAML makes yaml.v3 read every YAML file (doc.Options.NoDirectYAML): the two
	// readers give the same result, and tests run the rule archives both ways.
	NoDirectYAML bool
	// ConfigArg is passed to an ml_collections config's get_config (doc.Options.ConfigArg).
	ConfigArg string
	// GinFork reads gin files in the grammar of HorizonRobotics' fork of gin-config, which the
	// repository pins (doc.Options.GinFork; the CLI reads the pins).
	GinFork bool
	Mapping map[string]string
	// RequireReason makes a suppression comment without "-- reason" malformed (TL007).
	RequireReason bool
	// KeyIgnores silence findings by rule and key path (the config file's [[ignore]] entries
	// that match this file; the way to silence files without comments, such as JSON).
	KeyIgnores []KeyIgnore
	// Targets are the framework versions the file is linted for, by package ("transformers",
	// "trl", "deepspeed"): from the config file's [target], else the repository's pins (the CLI
	// reads them; the engine is pure). A framework without one is linted for the newest release
	// in the knowledge tables.
	Targets map[string]Target
	// Trainer is the training entry point the repository runs its configs with, when the driver
	// found one (dialect.Trainer; the CLI reads it from the repository's train script).
	Trainer dialect.Trainer
	// ScriptKeys are the fields of the repository's own argument dataclasses (the CLI reads them
	// where the repository parses its configs with HfArgumentParser or a parser built on it):
	// in a framework whose front-end fills such dataclasses from the file (Dialect.ScriptArgs),
	// a key among them is a setting of the script, not a misspelt or removed framework setting.
	ScriptKeys map[string]bool
	// ModelCallbacks are the callback classes ("ModelCheckpoint", "EarlyStopping") that a
	// LightningModule of the repository returns from configure_callbacks, or that a script of
	// the repository hands its Trainer beside the config's settings (the CLI reads them):
	// Lightning puts them in place of the Trainer's callbacks of the same type, or of its default
	// one, so what the config says of those callbacks may not be what runs.
	ModelCallbacks []string
	// RepoPackages are the Python packages the repository holds (the CLI reads them with
	// ScriptKeys): a repository holding its framework's own package (LLaMA-Factory's, with
	// fields newer than the knowledge table) is no fork of it.
	RepoPackages map[string]bool
	// RepoImports counts the repository's Python files that import paddle and torch, by module
	// (the CLI reads them with ScriptKeys; dialect.Context.RepoImports); nil when unknown.
	RepoImports map[string]int
	// RepoNames are the words of the repository's Python files, lowercased (the CLI reads them
	// with ScriptKeys); nil when unknown or the repository has no Python. A file of no known
	// framework is read by the repository's own code, so a key it never names is read by
	// nothing there (dialect.Context.RepoNames).
	RepoNames map[string]bool
	// CheckpointClasses are the repository's classes that derive from a checkpoint callback
	// (the CLI reads their class statements); nil when unknown.
	CheckpointClasses map[string]bool
	// NoFit says only scripts that never train read the file (the CLI reads the repository's
	// scripts): a test or predict subcommand's default config, an evaluation script's Hydra
	// primary (dialect.Context.NoFit).
	NoFit bool
	// LaunchKeys are the keys the repository's launcher scripts give on the command line after
	// the file (the CLI reads them; dialect.Context.LaunchKeys).
	LaunchKeys map[string]bool
	// NoFitModels are the repository's LightningModule classes that can never fit (no
	// training_step of their own or their bases', or one that only raises; the CLI reads them):
	// dialect.Context.NoFitModels.
	NoFitModels map[string]bool
	// NoValModels are the repository's LightningModule classes that never validate (no
	// validation_step of their own or their bases'; the CLI reads them):
	// dialect.Context.NoValModels.
	NoValModels map[string]bool
	// OwnLoop says the repository's Python parses TrainingArguments but names no Trainer class
	// (the CLI reads it once for the repository): its own loop runs Hugging Face arguments files
	// (ownLoop).
	OwnLoop bool
	// ExecGlobals are the module-level names the repository's training scripts assign before
	// they exec a configurator that execs the files named on their command line into their
	// globals (nanoGPT's train.py and configurator.py; the CLI reads them); nil when no script
	// does. A Python file of plain assignments most of whose names are among them is such a
	// file of settings (doc.IsExecConfig).
	ExecGlobals map[string]bool
	// OwnRunner says the repository runs its MMEngine-format configs with a runner class of its
	// own, never MMEngine's (the CLI reads it): MMEngine's Runner checks none of them.
	OwnRunner bool
	// OtherConfigLoader says the repository's scripts read their configs with another package's
	// Config.load (todd's), never with MMEngine's or MMCV's Config.fromfile (the CLI reads it):
	// what those loaders refuse while they merge a Python config's bases is not known to happen.
	OtherConfigLoader bool
	// JSONLineComments says the repository's own Python strips `//` comments from each line of
	// a JSON file before json.loads reads what is left (the CLI reads it; dropLineComments):
	// such a comment in a JSON file is no problem of the file, other departures from JSON are.
	JSONLineComments bool
	// EnvSet are environment variables the repository's own Python sets before a Hydra app
	// composes its config (the CLI reads it: rootutils' PROJECT_ROOT): an ${oc.env:X} without
	// a default has a value then, unknown to the checks but no unresolved reference.
	EnvSet map[string]bool
	// JSONCommentsOutsideStrings is JSONLineComments for a reader that cuts only a `//`
	// outside strings (a URL in a string stays whole): coqui-ai/TTS's load_config.
	JSONCommentsOutsideStrings bool
	// CLIDefaults says the repository's LightningCLI loads a default config file with a
	// ModelCheckpoint under every fit (the CLI reads it; dialect.Context.CLIDefaults).
	CLIDefaults bool
	// CLINoCheckpointing says the repository's LightningCLI turns checkpointing off in its
	// trainer_defaults (the CLI reads it; dialect.Context.CLINoCheckpointing).
	CLINoCheckpointing bool
	// CheckoutRecipes are the recipes of the copy of torchtune the file lies in, and whether
	// each has a validation loop (the CLI reads them; dialect.Context.CheckoutRecipes).
	CheckoutRecipes map[string]bool
	// ScriptDefaults are the keys the repository's scripts read from a mapping with a default of
	// their own (cfg.get("save_steps", 50000)), in a repository whose Python fills no
	// dataclasses from configs (the CLI reads them): facts only a framework default gives for
	// them are dropped (forgetScriptDefaults).
	ScriptDefaults map[string]string
	// ScriptSets are the dotted keys the repository's scripts assign on a config object before
	// using it (cfg.model.global_batch_size = ...; the CLI reads them): no fact is taken for
	// them from the file (forgetScriptDefaults).
	ScriptSets map[string]bool
	// ScriptScales are the dotted keys the repository's scripts scale in place (cfg.batch_size
	// //= num_gpus, *=, /=; the CLI reads them): no fact is taken from the file for them unless
	// its value is 0, which such an operation keeps (forgetScriptDefaults).
	ScriptScales map[string]bool
	// ScriptAdds are the dotted keys the repository's scripts add to a composed Hydra config
	// (OmegaConf.update with force_add=True, an assignment under open_dict, a node replaced by
	// a checkpoint's config merged with it; the CLI reads them): a ${key} naming one, or a key
	// below one, is no unresolved reference in a run.
	ScriptAdds map[string]bool
	// ScriptAddsHere are those of ScriptAdds that a script tied to this file adds (a node its
	// decorator's config has replaced by a checkpoint's merged config): they count in a file
	// checked alone too, where the repository-wide ones (a library's open_dict of its own
	// config) would hide true references.
	ScriptAddsHere map[string]bool
	// ScriptRewrites are those of ScriptSets that a script naming this file assigns in it (the
	// CLI reads them): the refusals of their values are dropped too (forgetScriptDefaults).
	ScriptRewrites map[string]bool
	// BaseKeys are the top-level keys the base files a YAML or JSON config names (_BASE_,
	// _base_, __base__) set, read by the CLI; nil when it read none or could not read one:
	// forgetBaseDefaults then drops every default, else those under these keys.
	BaseKeys map[string]bool
	// RepoReads are the names the repository's Python files read from an object or a mapping,
	// as written (an attribute's name, a whole string literal); nil when unknown.
	RepoReads map[string]bool
	// ConfigSubclasses are the fields the repository's dataclasses add to the classes they
	// derive from, by base class name ("ExpManagerConfig" -> log_parameter_norm, ...); nil when
	// unknown or none (dialect.ForkKeys).
	ConfigSubclasses map[string]map[string]bool
	// SubclassInitArgs are the parameters the __init__ of the repository's classes add to the
	// classes they derive from, by base class name ("Trainer" -> target_batch_size, ...); nil
	// when unknown or none. A section checked against the base takes them (unknown-key).
	SubclassInitArgs map[string]map[string]bool
	// ClassFields are the fields of the dataclasses of the framework copies the repository
	// carries, by class name ("EvalConfig" -> results_path, ...); nil when unknown. Where the
	// file is linted for such a copy's version (Target.Vendored), its fields are the framework's.
	ClassFields map[string]map[string]bool
	// Runs are the composed runs the config file declares ([[runs]]), with file system paths
	// (the driver turns them into paths of the tree it lints): they replace discovery.
	Runs []DeclaredRun
	// HydraLoaded says the file is one Hydra loads (a composed run's primary or a file of its
	// config directory, which Hydra reads with OmegaConf.load): OmegaConf's load-time checks
	// apply whatever the framework (dialect.HydraLoadChecks), and it is not read as the file of a
	// framework whose own loader opens its files (dialect.Dialect.OwnLoader).
	HydraLoaded bool
	// HydraUnlisted says a HydraLoaded file lies in a folder of the config directory that no
	// defaults list names as a group (the CLI reads it: compose.ListedGroups): it may be the
	// project's own file, read with another loader (graphium's single_task overrides, read with
	// yaml.safe_load), so OmegaConf's load-time checks are not claimed for it.
	HydraUnlisted bool
	// HydraLegacy says the repository runs Hydra 1.0 or older (the CLI reads it from its
	// @hydra.main): runs compose with compose.Cache.LegacyPackages.
	HydraLegacy bool
	// HydraStoreGroups are the options the repository's Python registers with Hydra's
	// ConfigStore, as "group/name", and its configs of no group, as "name" (the CLI reads
	// them): compose.Cache.StoreGroups.
	HydraStoreGroups map[string]bool
	// HydraMainDir is the folder (slash path in the linted tree) every @hydra.main of the
	// repository names as config_path (the CLI reads it): compose.Cache.MainDir.
	HydraMainDir string
	// HydraMainCandidates are the folders (slash paths in the linted tree) the repository's
	// @hydra.main may name as config_path when HydraMainDir is not known (the CLI reads them):
	// compose.Cache.MainCandidates.
	HydraMainCandidates []string
	// unread: a file Hydra loads that no run composed (UnreadRefusals' first test): the value
	// refusals the HydraLoaded lint leaves to the runs, and nothing else.
	unread bool
	// NoRunFixes says LintTree's composed runs keep no fix (runFix): their primaries are read
	// by other runs than the ones linted (the language server lints the runs that read the
	// edited file one at a time).
	NoRunFixes bool
}

// DeclaredRun is one run a config file declares: a primary config, Hydra overrides and a
// launcher config (file system paths; Launcher "" for none).
type DeclaredRun struct {
	Config    string
	Overrides []string
	Launcher  string
}

// Target is the version of one framework a file is linted for, and where it was read.
type Target struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	// Version is "4.46" or "0.14.4"; one that is not a version ("git": a package installed
	// from a git commit or branch, or a [target] of "main") is one no knowledge table can
	// place, so the rules that depend on the version say nothing of it.
	Version string
	Source  string // "requirements.txt" or ".trainlint.toml [target]": messages say "<Source> pins <Version>"
	// Vendored: the version is that of the framework's source the repository carries, whose
	// fields are then the framework's (the CLI's pins).
	Vendored bool
	// Shown, when set, is how messages name a version that is an upper bound, not a release
	// ("<4.46": Version is then just below it, 4.45.999999, for comparisons).
	Shown string
	// AtMost: Version is only the newest release the repository's code can run, not the one
	// its installs resolve to (its Python imports a module a later release removed, and no file
	// pins the package): an older release may be the one installed. A cap or a dependency's
	// pin is not one: pip installs the newest release they allow.
	AtMost bool
}

// VersionShown is how messages name the target's version.
func (t Target) VersionShown() string {
	if t.Shown != "" {
		return t.Shown
	}
	return t.Version
}

// Lint lints files in order and returns the combined result, diagnostics sorted by file, line
// and column.
func Lint(files []File, rules []*Rule, o Options) *Result {
	res := NewResult()
	for _, f := range files {
		info, diags := LintFile(f, rules, o)
		res.Files = append(res.Files, info)
		res.Diagnostics = append(res.Diagnostics, diags...)
	}
	SortDiagnostics(res.Diagnostics)
	return res
}

// NewResult returns an empty result with the header filled.
func NewResult() *Result {
	return &Result{Version: ResultVersion, Tool: Tool{Name: "trainlint", Version: Version}, Files: []FileInfo{}, Diagnostics: []Diagnostic{}}
}

// SortDiagnostics orders diagnostics by file, position and code.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Code < b.Code
	})
}

// Analysis is everything the engine learnt about one file (for drivers that want more than
// diagnostics: the site's framework pages, tests, --explain-plan).
type Analysis struct {
	Doc     *doc.Document
	Dialect *dialect.Dialect
	Plan    *plan.Plan
}

// Analyze parses and normalises one file without running rules.
func Analyze(f File, o Options) (a Analysis, normErr error) {
	format := f.Format
	if format == "" {
		format, _ = doc.FormatFromPath(f.Path)
	}
	if format == "" {
		format = doc.Sniff(f.Text) // a name that does not say: standard input, a pasted text
	}
	if format == "" {
		format = doc.YAML
	}
	if f.Size > int64(len(f.Text)) {
		a.Doc = doc.Oversize(f.Path, f.Size, format, o.Limits)
	} else {
		a.Doc = doc.ParseWith(f.Path, f.Text, format, doc.Options{Limits: o.Limits, NoDirectYAML: o.NoDirectYAML, ConfigArg: o.ConfigArg, GinFork: o.GinFork})
	}
	if o.Framework != "" {
		a.Dialect = dialect.ByName(o.Framework)
	}
	if a.Dialect == nil && a.Doc.Root != nil {
		a.Dialect = dialect.Detect(a.Doc)
		if o.HydraLoaded && a.Dialect.OwnLoader {
			// A Hydra group option (mlcommons/training's sched/CosineAnnealing.yaml, a NeMo
			// scheduler with warmup_ratio and max_steps) shares a Trainer's names, but Hydra,
			// not HfArgumentParser, reads it.
			a.Dialect = dialect.Generic
		}
		if forkRead(a.Dialect, a.Doc, o) {
			a.Dialect = dialect.Generic
		}
	}
	if a.Dialect == nil {
		a.Dialect = dialect.Generic
	}
	if (o.JSONLineComments || o.JSONCommentsOutsideStrings) && format == doc.JSON && a.Dialect.StrictJSON == "" {
		dropLineComments(a.Doc, o.Limits, !o.JSONLineComments)
	}
	if a.Doc.Root == nil {
		return a, nil
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				normErr = errors.New("the " + a.Dialect.Name + " dialect panicked: " + panicText(r) + "\n" + string(goroutineStack()))
				a.Plan = nil
			}
		}()
		ctx := o.dialectContext()
		ctx.ExecConfig = doc.IsExecConfig(a.Doc, o.ExecGlobals)
		a.Plan = o.normalize(a.Dialect, a.Doc, ctx)
		if o.HydraLoaded && a.Plan != nil {
			// A file Hydra composes: a value it sets may be overridden by the run's other files
			// (a callbacks option without the monitor its sibling sets), so only refusals of a
			// key itself (or of its repetition) stay with the file; the runs report the rest.
			kept := a.Plan.Rejections[:0]
			for _, r := range a.Plan.Rejections {
				if (r.AtKey || r.Repeats != nil) != o.unread {
					kept = append(kept, r)
				}
			}
			a.Plan.Rejections = kept
			if !o.unread && !o.HydraUnlisted {
				dialect.HydraLoadChecks(a.Plan, a.Doc)
			}
		}
	}()
	return a, normErr
}

// normalize is dl's plan of d under ctx, less the defaults a file naming base files may get from
// them (forgetBaseDefaults) and the facts the repository's scripts decide themselves
// (forgetScriptDefaults): how a file (Analyze) and a composed run (LintRun) are read.
func (o Options) normalize(dl *dialect.Dialect, d *doc.Document, ctx dialect.Context) *plan.Plan {
	p := dl.Normalize(d, ctx)
	forgetBaseDefaults(p, d, o.BaseKeys)
	forgetScriptDefaults(p, o.ScriptDefaults, o.ScriptSets, o.ScriptScales, o.ScriptRewrites)
	forgetRepoRunners(p, dl, o)
	return p
}

// forkRead reports a file whose detected framework never had two or more of its keys, which
// the repository's own parser takes (dialect.ForkKeys), in a repository that is not the
// framework itself: a fork's parser reads it (LLamaTuner's LLaMA-Factory-shaped recipes), or
// the project's own code does (MFTCoder's xxpo config), so it is no file of that framework.
func forkRead(d *dialect.Dialect, file *doc.Document, o Options) bool {
	return d != nil && !o.RepoPackages[d.Package] && dialect.ForkKeys(d, file.Root, o.ScriptKeys, o.RepoReads, o.ConfigSubclasses) >= 2
}

// LintFile lints one file. It never panics: a rule that panics becomes an internal-error
// diagnostic for this file and the other rules still run.
func LintFile(f File, rules []*Rule, o Options) (FileInfo, []Diagnostic) {
	a, normErr := Analyze(f, o)
	info := FileInfo{Path: f.Path, Format: string(a.Doc.Format), Framework: a.Dialect.Name, Declined: a.Doc.Declined}
	active := Selected(rules, o.Select, o.Ignore)
	var diags []Diagnostic
	if normErr != nil {
		diags = append(diags, internalError(a.Doc, "dialect "+a.Dialect.Name, normErr))
	}
	diags = runRules(active, a, nil, o, diags)
	info.NeedsHosts = needsHosts(active, a)
	diags = applySuppressions(a.Doc, diags, rules, active, o)
	for i := range diags {
		if sev, ok := o.Severity[diags[i].Rule]; ok && diags[i].Code != InternalError.Code {
			diags[i].Severity = sev
		}
	}
	SortDiagnostics(diags)
	return info, diags
}

// runRules runs the rules that can run on the analysis (a Check, and a plan when they need
// one) and appends their diagnostics to out. Findings of a composed run (run not nil) are placed
// by runDiagnostic, a single file's by toDiagnostic. A rule that panics becomes an
// internal-error finding and the next rule runs.
//
// This is the hot path of every lint (about 55 rules on every file), so it allocates nothing per
// rule: one Pass serves every rule in turn, reporting is a method rather than a closure, options
// are read through the Pass's accessors instead of a map built per rule, and one deferred
// recover guards a run of rules (runFrom) instead of one per rule.
func runRules(rules []*Rule, a Analysis, run *compose.Run, o Options, out []Diagnostic) []Diagnostic {
	p := &Pass{Doc: a.Doc, Plan: a.Plan, Targets: o.Targets, ScriptKeys: o.ScriptKeys, ClassFields: o.ClassFields, SubclassInitArgs: o.SubclassInitArgs, RepoReads: o.RepoReads, run: run, out: out, hydraLoaded: o.HydraLoaded, addsHere: o.ScriptAddsHere}
	for i := 0; i < len(rules); i++ {
		i = p.runFrom(rules, i, o.RuleOptions)
	}
	return p.out
}

// runFrom runs rules[i:] and returns len(rules), or the index of a rule that panicked (reported
// as internal-error against it: the Pass still names it).
func (p *Pass) runFrom(rules []*Rule, i int, options map[string]map[string]any) (at int) {
	defer func() {
		if rec := recover(); rec != nil {
			p.out = append(p.out, internalError(p.Doc, "rule "+p.Rule.Name, errors.New(panicText(rec))))
		}
	}()
	for at = i; at < len(rules); at++ {
		r := rules[at]
		if r.Check == nil || (r.NeedsPlan && p.Plan == nil) {
			continue
		}
		p.Rule, p.Options = r, options[r.Name]
		r.Check(p)
	}
	return at
}

func internalError(d *doc.Document, who string, err error) Diagnostic {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return toDiagnostic(InternalError, d, Finding{
		Message: who + " failed on this file: " + msg,
		Help:    "this is a bug in trainlint; the other rules still ran. Please report it with the file that triggers it.",
	})
}

// toDiagnostic resolves a finding's location and fix into the output form.
func toDiagnostic(r *Rule, d *doc.Document, f Finding) Diagnostic {
	x := d.Lines()
	span := f.Span
	if f.Node != nil {
		if f.AtKey && !f.Node.KeySpan.IsZero() {
			span = f.Node.KeySpan
		} else {
			span = f.Node.Span
		}
	}
	if span.IsZero() {
		span = fallbackSpan(d)
	}
	key := f.Key
	if key == "" && f.Node != nil {
		key = f.Node.Path().String()
	}
	sev := f.Severity
	if sev == 0 {
		sev = r.Severity
	}
	rt := textsOf(r)
	help := f.Help
	if help == "" {
		help = rt.help
	}
	diag := Diagnostic{
		Code: r.Code, Rule: r.Name, Category: r.Category, Severity: sev, File: d.Path,
		Line: span.Start.Line, Column: span.Start.Col, EndLine: span.End.Line, EndColumn: span.End.Col,
		Key: key, Message: f.Message, Help: help, URL: rt.url, Span: span,
	}
	for _, rel := range f.Related {
		s := rel.Span
		if rel.Node != nil {
			if rel.AtKey && !rel.Node.KeySpan.IsZero() {
				s = rel.Node.KeySpan
			} else {
				s = rel.Node.Span
			}
		}
		if s.IsZero() {
			continue
		}
		diag.Related = append(diag.Related, Related{File: d.Path, Line: s.Start.Line, Column: s.Start.Col, Message: rel.Message,
			EndLine: s.End.Line, EndColumn: s.End.Col})
	}
	if f.Node != nil && f.Node.Use != nil {
		// A value reached through a reference (gin %MACRO): the finding points at the
		// definition; the use is where the reader meets it.
		u := *f.Node.Use
		diag.Related = append(diag.Related, Related{File: d.Path, Line: u.Start.Line, Column: u.Start.Col, Message: "used here as " + strconv.Quote(string(d.Src[u.Start.Offset:u.End.Offset])),
			EndLine: u.End.Line, EndColumn: u.End.Col})
	}
	edits := []TextEdit(nil)
	if f.Fix != nil {
		edits = f.Fix.Edits
		if n := f.Fix.value; n != nil && len(edits) == 1 {
			if e, ok := valueEdit(d, n, edits[0]); ok {
				edits = []TextEdit{e}
			} else {
				edits = nil
			}
		}
	}
	if len(edits) > 0 {
		fx := &Fix{Applicability: f.Fix.Applicability, Message: f.Fix.Message}
		if fx.Applicability == "" {
			fx.Applicability = Unsafe
		}
		for _, e := range edits {
			s, en := x.Pos(e.Start), x.Pos(e.End)
			fx.Edits = append(fx.Edits, Edit{File: d.Path, Line: s.Line, Column: s.Col, EndLine: en.Line, EndColumn: en.Col, NewText: e.NewText, Start: e.Start, End: e.End})
		}
		diag.Fix = fx
	}
	return diag
}

// fallbackSpan locates a finding that nothing in the file locates (it rests on keys that are all
// absent): the first key of the document, so the excerpt shows a setting rather than a comment
// header; the first line when the document has no keys.
func fallbackSpan(d *doc.Document) doc.Span {
	if d.Root != nil && d.Root.Kind == doc.Map && len(d.Root.Children) > 0 {
		if k := d.Root.Children[0].KeySpan; !k.IsZero() {
			return k
		}
	}
	x := d.Lines()
	return x.Span(0, x.LineEnd(1))
}

// ruleTexts are what every diagnostic of a rule carries: its page and the help of a finding
// that gives none (the first paragraph of the rule's fix text: Fix's, also when FixList
// completes it, unless Fix is blank). They are kept per rule, since a rule may report on many
// files, with the name and Fix they were made from.
type ruleTexts struct{ name, fix, url, help string }

func textsOf(r *Rule) *ruleTexts {
	if v, ok := ruleTextCache.Load(r); ok {
		if t := v.(*ruleTexts); t.name == r.Name && t.fix == r.Fix {
			return t
		}
	}
	fix := r.Fix
	if strings.TrimSpace(fix) == "" {
		fix = r.FixText()
	}
	t := &ruleTexts{name: r.Name, fix: r.Fix, url: r.URL(), help: firstParagraph(fix)}
	ruleTextCache.Store(r, t)
	return t
}

var ruleTextCache doc.Cache // *Rule -> *ruleTexts

func firstParagraph(md string) string {
	md = strings.TrimSpace(md)
	if i := strings.Index(md, "\n\n"); i >= 0 {
		md = md[:i]
	}
	return strings.Join(strings.Fields(md), " ")
}

// Selected returns the rules that run under select/ignore. Each entry matches a code ("TL202"),
// a name ("eval-batch-smaller-than-train"), a category ("evaluation") or a code prefix ("TL2",
// "TL"). With no select, every rule that is not off by default runs; a rule that is off runs
// only when selected by code or name.
func Selected(rules []*Rule, sel, ign []string) []*Rule {
	if len(sel) == 0 && len(ign) == 0 && !slices.ContainsFunc(rules, func(r *Rule) bool { return r.Off }) {
		// The usual case, asked once per file: every rule (capped, so that a caller's append
		// copies).
		return rules[:len(rules):len(rules)]
	}
	out := make([]*Rule, 0, len(rules))
	for _, r := range rules {
		on := !r.Off
		if len(sel) > 0 {
			on = false
			for _, s := range sel {
				if exactMatch(r, s) || (!r.Off && Matches(r, s)) {
					on = true
				}
			}
		}
		for _, s := range ign {
			if Matches(r, s) {
				on = false
			}
		}
		if on {
			out = append(out, r)
		}
	}
	return out
}

func exactMatch(r *Rule, s string) bool {
	s = strings.TrimSpace(s)
	return strings.EqualFold(s, r.Code) || strings.EqualFold(s, r.Name)
}

// Matches reports whether a selector names the rule.
func Matches(r *Rule, s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	if strings.EqualFold(s, "all") || exactMatch(r, s) || strings.EqualFold(s, r.Category) {
		return true
	}
	up := strings.ToUpper(s)
	return strings.HasPrefix(up, "TL") && strings.HasPrefix(r.Code, up)
}

// KnownSelector reports whether a selector names at least one rule (for usage errors).
func KnownSelector(rules []*Rule, s string) bool {
	for _, r := range rules {
		if Matches(r, s) {
			return true
		}
	}
	return false
}
