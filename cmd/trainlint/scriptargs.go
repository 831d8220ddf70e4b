package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/trainlint/trainlint/lint"
)

// The repository's own argument dataclasses. A Hugging Face recipe is parsed by the
// repository's script: HfArgumentParser (TRL's TrlParser and alignment-handbook's
// H4ArgumentParser build on it) takes a key that any of the dataclasses it is given has, and
// scripts add dataclasses of their own (open-r1's compute_pass_rate.py gives its script
// arguments a dataset_split field, one letter from alignment-handbook's dataset_splits). The
// driver reads the field names of every dataclass in the repository's Python files when one of
// them uses such a parser, and the unknown-key and removed-key rules leave those keys alone in
// the frameworks whose front-end fills dataclasses (dialect.Dialect.ScriptArgs). Which script
// runs which recipe is not known, so every dataclass counts: that can only silence findings.
// The same reading finds the callbacks a LightningModule returns from configure_callbacks
// (modelCallbacks), which Lightning puts in place of the config's, and those a script hands to
// the Trainer itself (scriptCallbacks), which take the place of Lightning's default.

// argsPop is a key taken out of a mapping named args: args.pop("evaluators", None).
var argsPop = regexp.MustCompile(`\bargs\.pop\(\s*["']([A-Za-z_][A-Za-z0-9_]*)["']`)

// getDefault is a key read from a mapping with a default of the script's own:
// train_config.get("save_steps", 50000). A default of None is not one.
var getDefault = regexp.MustCompile(`\.get\(\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*,\s*([^)\s,][^),]*)\)`)

// omegaUpdate is OmegaConf.update on a config (or a node of one) with a literal key:
// `OmegaConf.update(cfg, "model.x", v)`, `OmegaConf.update(cfg.model, "x", v)`.
var omegaUpdate = regexp.MustCompile(`\bOmegaConf\.update\(\s*(?:cfg|config|conf)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*,\s*["']([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)["']`)

// cfgSet is a config value a script assigns before use: cfg.model.global_batch_size = ...,
// or shifts (cfg.seed += rank) (not self.config.x nor model.config.x: an object's attribute,
// not the run's config).
var cfgSet = regexp.MustCompile(`(?:^|[^.\w])(?:cfg|config|conf)\.([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*[-+|^]?=(?:[^=]|$)`)

// cfgScale is a config value a script scales in place, which keeps a 0 a 0: MMAudio's train.py
// turns its global batch into a per-GPU one with `cfg.batch_size //= num_gpus`, and Cutie's
// does the same to num_workers.
var cfgScale = regexp.MustCompile(`(?:^|[^.\w])(?:cfg|config|conf)\.([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:\*\*|//|<<|>>|[*/%&@])=(?:[^=]|$)`)

// configGets adds to gets the keys text reads from a mapping with a default of its own, each
// with that default as written ("" when two reads of the key give different ones).
func configGets(text string, gets map[string]string) {
	for _, m := range getDefault.FindAllStringSubmatch(text, -1) {
		if d := strings.TrimSpace(m[2]); d != "None" && d != "default=None" {
			if old, ok := gets[m[1]]; ok && old != d {
				d = ""
			}
			gets[m[1]] = d
		}
	}
}

// linesWith is the lines of text holding one of subs, each with its newline, in order ("" for
// none).
func linesWith(text string, subs ...string) string {
	var b strings.Builder
	for rest := text; rest != ""; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = ""
		}
		for _, s := range subs {
			if strings.Contains(line, s) {
				b.WriteString(line)
				break
			}
		}
	}
	return b.String()
}

// argParsers are the parsers that fill dataclasses from a config file.
var argParsers = []string{"HfArgumentParser", "TrlParser", "H4ArgumentParser"}

// Bounds of a repository's scan: past them nothing is read from it (the rules then judge keys
// as they did before), so a huge monorepo costs a bounded walk.
const (
	scriptScanFiles = 5000
	scriptScanBytes = 64 << 20
	scriptFileBytes = 1 << 20
)

// repoPython is what the scan of a repository's Python files found.
type repoPython struct {
	once sync.Once
	keys map[string]bool // scanRepoPython
	// packages are the Python packages the repository holds (a folder with __init__.py at its
	// top or under src/): lint.Options.RepoPackages.
	packages map[string]bool
	// imports counts its Python files that import paddle and torch (weighedImport), by module:
	// lint.Options.RepoImports.
	imports map[string]int
	// names are the words (identifiers, and words inside strings) of its Python files, nil
	// when it has none: lint.Options.RepoNames.
	names map[string]bool
	// reads are the names its Python files read from an object or a mapping, as written: an
	// attribute's name (cfg.model_name) or a whole string literal ("eval_samples"), nil when it
	// has no Python: lint.Options.RepoReads.
	reads map[string]bool
	// subclasses are the fields its dataclasses add to the classes they derive from, by base
	// class name: lint.Options.ConfigSubclasses.
	subclasses map[string]map[string]bool
	// initArgs are the parameters its classes' __init__ add to the classes they derive from, by
	// base class name (initargs.go): lint.Options.SubclassInitArgs.
	initArgs map[string]map[string]bool
	// classes are the fields of the dataclasses of its copies of frameworks (inVendoredPackage)
	// by their own class name: lint.Options.ClassFields.
	classes map[string]map[string]bool
	// checkpoints are its classes that derive from a checkpoint callback (a base whose name
	// holds "Checkpoint", or another of these): lint.Options.CheckpointClasses.
	checkpoints map[string]bool
	// callbacks are the callback classes a LightningModule's configure_callbacks returns
	// (modelCallbacks) or a script hands its Trainer (scriptCallbacks), over every file read.
	callbacks []string
	// noFit are the config files (absolute) only scripts that never train read (nofit.go):
	// lint.Options.NoFit.
	noFit map[string]bool
	// launch are the keys every launch in the launcher scripts gives on the command line after
	// a config file, by the file's absolute path (launchers.go): lint.Options.LaunchKeys.
	launch map[string]map[string]bool
	// gets are the keys its scripts read from a mapping with a default of their own, when no
	// Python of it fills dataclasses from a config (argParsers): lint.Options.ScriptDefaults.
	gets map[string]string
	// noFitModels are its LightningModule classes that can never fit (nofitmodels.go):
	// lint.Options.NoFitModels.
	noFitModels map[string]bool
	// noValModels are its LightningModule classes that never validate (nofitmodels.go):
	// lint.Options.NoValModels.
	noValModels map[string]bool
	// ownLoop says its Python parses TrainingArguments but names no Trainer class
	// (ownTrainingLoop): lint.Options.OwnLoop.
	ownLoop bool
	// execGlobals are the names its training scripts assign before they exec a configurator
	// that execs config files into their globals (configurator.go): lint.Options.ExecGlobals.
	execGlobals map[string]bool
	// ownRunner says its scripts run MMEngine-format configs with a runner class of its own,
	// never MMEngine's or MMCV's (runnerScan.ownRunner): lint.Options.OwnRunner.
	ownRunner bool
	// otherLoader says its scripts read configs with another package's Config.load, never with
	// MMEngine's or MMCV's Config.fromfile (loaderScan.otherLoader): lint.Options.OtherConfigLoader.
	otherLoader bool
	// jsonLineComments says a script of it cuts each line of a JSON file at "//" before
	// json.loads (stripsLineComments): lint.Options.JSONLineComments.
	jsonLineComments bool
	// jsonOutsideStrings says a script of it cuts only the `//` comments outside strings
	// before json.loads (stripsCommentsOutsideStrings): lint.Options.JSONCommentsOutsideStrings.
	jsonOutsideStrings bool
	// envSet are the environment variables its Python sets before a Hydra app composes
	// (envSetBy): lint.Options.EnvSet.
	envSet map[string]bool
	// jsonnet says its Python imports AllenNLP at module level, which reads .json configs as
	// Jsonnet (jsonnet.go).
	jsonnet bool
	// json5 says its Python reads files with a JSON5 reader (json5Load, jsonnet.go).
	json5 bool
	// cliDefaults says a LightningCLI of it loads a default config file with a ModelCheckpoint
	// under every fit (cliDefaultCheckpoint): lint.Options.CLIDefaults.
	cliDefaults bool
	// cliNoCkpt says a LightningCLI of it turns checkpointing off in its trainer_defaults
	// (cliNoCheckpointing): lint.Options.CLINoCheckpointing.
	cliNoCkpt bool
	// sets are the dotted keys its scripts assign on a config object (cfg.model.global_batch_size
	// = ...): lint.Options.ScriptSets.
	sets map[string]bool
	// scales are the dotted keys its scripts scale in place (cfg.batch_size //= n):
	// lint.Options.ScriptScales.
	scales map[string]bool
	// adds are the dotted keys its scripts add to a composed config (scriptAdds):
	// lint.Options.ScriptAdds.
	adds map[string]bool
	// setsFor are the keys scripts that name their config files assign in them, by the file's
	// absolute path (scriptSets): lint.Options.ScriptSets beside sets.
	setsFor map[string]map[string]bool
	// addsFor are the nodes scripts replace with a checkpoint's merged config in the configs
	// their decorators name, by the file's absolute path (checkpointAdds):
	// lint.Options.ScriptAdds beside adds.
	addsFor map[string]map[string]bool
	// hydraLegacy says a @hydra.main of it names its config file in config_path, which only
	// Hydra 1.0 and older read, and none gives version_base (hydraMains):
	// lint.Options.HydraLegacy.
	hydraLegacy bool
	// storeGroups are the options its Python registers with Hydra's ConfigStore, as
	// "group/name", and its configs of no group, as "name" (storeGroups):
	// lint.Options.HydraStoreGroups.
	storeGroups map[string]bool
	// scriptConfigs are the configs (absolute, cleaned) a script reads as its own: a
	// @hydra.main's primary, a LightningCLI's default config file (scriptReads). Discovery
	// keeps them runs (compose.Cache.Launched).
	scriptConfigs map[string]bool
	// hydraMain is the folder (absolute, cleaned) every @hydra.main of it names as config_path,
	// "" when they name none, several, or one this reading cannot tell (configdir.go):
	// lint.Options.HydraMainDir.
	hydraMain string
	// mainCandidates are the folders (absolute, cleaned) a @hydra.main of it may name as
	// config_path when hydraMain is "" and a decorator names a constant bound to several
	// literals (mainDirsOf), with the folders the others name: lint.Options.HydraMainCandidates.
	mainCandidates []string
	// lightningOld is a Lightning module its Python imports that Lightning 1.9.0 removed
	// (lightningBefore19): lint.Options.Targets["lightning"] when no file pins Lightning.
	lightningOld string
}

// repoPythonOf is the scan of the repository at root's Python files, made once per root.
func repoPythonOf(root string) *repoPython {
	v, _ := repo.Load().python.LoadOrStore(root, &repoPython{})
	at := v.(*repoPython)
	at.once.Do(func() { scanRepoPython(root, at) })
	return at
}

// repoPythonAt is the folder dir made absolute and the scan of its repository's Python (nil
// when dir is in no repository).
func repoPythonAt(dir string) (string, *repoPython) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil
	}
	root := repoRoot(abs)
	if root == "" {
		return abs, nil
	}
	return abs, repoPythonOf(root)
}

// scriptPrimaries are the configs below the folder dir (slash paths relative to it) that its
// repository's scripts read as their own (repoPython.scriptConfigs): launched alone, they are
// runs whatever other configs include them.
func scriptPrimaries(dir string) map[string]bool {
	abs, at := repoPythonAt(dir)
	if at == nil {
		return nil
	}
	var out map[string]bool
	for f := range at.scriptConfigs {
		if rel, err := filepath.Rel(abs, f); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			if out == nil {
				out = map[string]bool{}
			}
			out[filepath.ToSlash(rel)] = true
		}
	}
	return out
}

// withRepoPython sets o.ScriptKeys and o.ModelCallbacks for a YAML or JSON file from its
// repository's Python files.
func withRepoPython(o lint.Options, file string) lint.Options {
	if o.ScriptKeys != nil || o.ModelCallbacks != nil {
		return o
	}
	ext := strings.ToLower(filepath.Ext(file))
	switch ext {
	case ".yaml", ".yml", ".json", ".toml", ".py":
	default:
		return o
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return o
	}
	root := repoRoot(filepath.Dir(abs))
	if root == "" {
		return o
	}
	at := repoPythonOf(root)
	if ext == ".py" {
		// A Python config learns only whether the repository runs its configs with a runner
		// of its own (lint.Options.OwnRunner), whether another package's loader reads them
		// (lint.Options.OtherConfigLoader), and the globals its training scripts exec config
		// files into (lint.Options.ExecGlobals). One no framework reads (an ml_collections
		// config of the repository's trainer) is read generically, with the words and imports
		// of the repository's code, as a YAML config is (lint.Options.RepoNames, RepoImports).
		o.OwnRunner, o.OtherConfigLoader, o.ExecGlobals = at.ownRunner, at.otherLoader, at.execGlobals
		o.RepoNames, o.RepoImports = at.names, at.imports
		return o
	}
	if ext == ".json" {
		// Only a JSON file's comments are cut by such a parser.
		o.JSONLineComments = at.jsonLineComments
		o.JSONCommentsOutsideStrings = at.jsonOutsideStrings
	}
	if ext == ".toml" {
		// A TOML job file (torchtitan's) learns only which packages the repository holds: a
		// copy of the framework's own, whose defaults are its (dialect.Context.RepoPackages).
		o.RepoPackages = at.packages
		return o
	}
	o.ScriptKeys, o.ModelCallbacks, o.RepoPackages, o.RepoNames, o.RepoReads = at.keys, at.callbacks, at.packages, at.names, at.reads
	o.EnvSet, o.ScriptAdds = at.envSet, at.adds
	o.RepoImports = at.imports
	o.CheckpointClasses, o.ConfigSubclasses, o.ClassFields = at.checkpoints, at.subclasses, at.classes
	o.SubclassInitArgs = at.initArgs
	clean := filepath.Clean(abs)
	o.NoFit, o.LaunchKeys = at.noFit[clean], at.launch[clean]
	if own := at.addsFor[clean]; own != nil {
		o.ScriptAddsHere, o.ScriptAdds = own, union(at.adds, own)
	}
	o.ScriptDefaults, o.ScriptSets, o.NoFitModels, o.CLIDefaults, o.CLINoCheckpointing = at.gets, at.sets, at.noFitModels, at.cliDefaults, at.cliNoCkpt
	o.ScriptScales = at.scales
	if own := at.setsFor[clean]; own != nil {
		o.ScriptRewrites, o.ScriptSets = own, union(at.sets, own)
	}
	o.NoValModels, o.OwnLoop, o.HydraStoreGroups = at.noValModels, at.ownLoop, at.storeGroups
	o.HydraLegacy = o.HydraLegacy || at.hydraLegacy // or a hydra-core pin below 1.1 (withPins)
	if _, pinned := o.Targets["lightning"]; !pinned && at.lightningOld != "" {
		if v, ok := capTarget("lightning", "1.9", false); ok {
			o.Targets = cloneTargets(o.Targets)
			o.Targets["lightning"] = lint.Target{Version: v, Shown: "<1.9", AtMost: true,
				Source: "the repository's Python imports " + at.lightningOld + ", so Lightning <1.9"}
		}
	}
	return o
}

// repoRoot is the nearest folder from dir upwards that holds .git or a Python project file
// (setup.py, setup.cfg, pyproject.toml), or "" when there is none.
func repoRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, name := range []string{".git", "setup.py", "setup.cfg", "pyproject.toml"} {
			if _, err := os.Lstat(filepath.Join(d, name)); err == nil {
				return d
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// scanRepoPython reads the field names of the dataclasses in root's Python files (nil when no
// file uses one of argParsers), the callbacks its LightningModules configure, the packages it
// holds, the words its Python files use, the names they read (addWords) and its checkpoint
// callback classes, into at; all nil when the repository is past the scan's bounds.
func scanRepoPython(root string, at *repoPython) {
	keys, callbacks, packages, names, reads := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	imports := map[string]int{}
	subs, own := map[string]map[string]bool{}, map[string]map[string]bool{}
	inits := &initScan{handed: map[string]bool{}}
	nsParts, imported := map[string]map[string]bool{}, map[[2]string]bool{}
	var envMods envModules           // module-level environment assignments, by module (envset.go)
	legacyMains, modernMains := 0, 0 // @hydra.main decorators of Hydra 1.0's form, and giving version_base
	lightningNewSeen := false        // an import of a Lightning module 1.7 or later added
	bases := map[string]string{}     // class name -> its bases' text
	fit, noFit, hydraNoFit := map[string]bool{}, map[string]bool{}, map[string]bool{}
	files, total, parsed, over := 0, 0, false, false
	launch, launchers, gets, sets, scales := map[string][]map[string]bool{}, 0, map[string]string{}, map[string]bool{}, map[string]bool{}
	setsFor := map[string]map[string]bool{} // the keys scripts naming their config files set in them
	addsFor := map[string]map[string]bool{} // the nodes scripts merge a checkpoint's config into, by config
	runners := &runnerScan{own: map[string]bool{}, called: map[string]bool{}}
	loaders := &loaderScan{}
	modules := map[string][]moduleClass{}
	// the config_path folders of @hydra.main decorators, and whether one was not read (configdir.go)
	mainDirs, mainUnread, mainCands := map[string]bool{}, false, map[string]bool{}
	registries := &registryScan{} // fairseq's registries' ConfigStore options
	execs := &execScan{}          // configurators and the scripts that exec them (configurator.go)
	_ = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := e.Name()
		if e.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || skipDirs[name] || name == "site-packages" || name == "__pycache__") {
				return filepath.SkipDir
			}
			return nil
		}
		if launcherExts[strings.ToLower(filepath.Ext(name))] && e.Type().IsRegular() && launchers < scriptScanFiles {
			if data, err := os.ReadFile(p); err == nil && len(data) <= scriptFileBytes {
				launchers++
				launchKeys(root, p, string(data), launch) // launchers.go
			}
			return nil
		}
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".py") {
			return nil
		}
		if rel, err := filepath.Rel(root, p); err == nil {
			rel = strings.TrimPrefix(filepath.ToSlash(rel), "src/")
			if top, rest, ok := strings.Cut(rel, "/"); ok {
				if name == "__init__.py" && !strings.Contains(rest, "/") {
					packages[top] = true
				}
				// a namespace package's parts (PEP 420: a folder without __init__.py imports
				// from the folder a script runs in), by their module or folder name
				sub, _, _ := strings.Cut(strings.TrimSuffix(rest, ".py"), "/")
				if nsParts[top] == nil {
					nsParts[top] = map[string]bool{}
				}
				nsParts[top][sub] = true
			}
		}
		if files++; files > scriptScanFiles {
			over = true
			return filepath.SkipAll
		}
		info, err := e.Info()
		if err != nil || info.Size() > scriptFileBytes {
			return nil
		}
		if total += int(info.Size()); total > scriptScanBytes {
			over = true
			return filepath.SkipAll
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		text := string(data)
		addWords(names, reads, data)
		for _, m := range weighedImports {
			// (a cheap test first: "trl" is in "control", and textImports reads every line)
			if (strings.Contains(text, "import "+m) || strings.Contains(text, "from "+m)) && textImports(text, m) {
				imports[m]++
			}
		}
		for _, ap := range argParsers {
			if strings.Contains(text, ap) {
				parsed = true
				break
			}
		}
		if strings.HasSuffix(filepath.ToSlash(p), "/llamafactory/train/tuner.py") {
			// A copy of LLaMA-Factory that takes keys out of the arguments before they are
			// parsed (LLaMA-Factory-RoboG-v2's _training_function: args.pop("evaluators")) reads
			// them itself: the parser never refuses them.
			for _, m := range argsPop.FindAllStringSubmatch(text, -1) {
				keys[m[1]] = true
			}
		}
		if strings.Contains(text, "import") {
			for _, m := range dottedImport.FindAllStringSubmatch(linesWith(text, "import"), -1) {
				imported[[2]string{m[1], m[2]}] = true
			}
		}
		if !testFile(p) {
			inits.read(p, text) // initargs.go
		}
		if strings.Contains(text, "dataclass") {
			classes := dataclassClasses(text)
			for _, c := range classes {
				for _, k := range c.fields {
					keys[k] = true
				}
			}
			addSubclassFields(subs, classes, importAliases(text))
			if !testFile(p) && inVendoredPackage(root, p) {
				for _, c := range classes {
					if c.name == "" || len(c.fields) == 0 {
						continue
					}
					if own[c.name] == nil {
						own[c.name] = map[string]bool{}
					}
					for _, f := range c.fields {
						own[c.name][f] = true
					}
				}
			}
		}
		if strings.Contains(text, "Checkpoint") {
			classBases(text, bases)
		}
		test := testFile(p)
		loaderUses(text, !test, loaders) // configloader.go
		if strings.Contains(text, "class ") && !test {
			moduleClasses(text, modules) // nofitmodels.go
		}
		if strings.Contains(text, "configure_callbacks") {
			for _, c := range modelCallbacks(text) {
				callbacks[c] = true
			}
		}
		if strings.Contains(text, "Trainer(") && !test {
			for _, c := range scriptCallbacks(text) {
				callbacks[c] = true
			}
		}
		if strings.Contains(text, "callbacks") && !test {
			for _, c := range configCallbacks(text) {
				callbacks[c] = true
			}
		}
		if !test {
			scriptReads(root, p, text, fit, noFit, hydraNoFit)
			if strings.Contains(text, "hydra.main") {
				l, m := hydraMains(text)
				legacyMains, modernMains = legacyMains+l, modernMains+m
			}
			if strings.Contains(text, "hydra") {
				mainUnread = mainDirsOf(root, p, text, mainDirs, mainCands) || mainUnread
			}
			if strings.Contains(text, "ConfigStore") {
				at.storeGroups = storeGroups(text, at.storeGroups)
			}
			if strings.Contains(text, "setup_registry") || strings.Contains(text, "dataclass") {
				registries.read(text) // nofit.go
			}
			if at.lightningOld == "" && strings.Contains(text, "pytorch_lightning.") {
				at.lightningOld = lightningBefore19(text)
			}
			if !lightningNewSeen && strings.Contains(text, "lightning") {
				lightningNewSeen = lightningNew(text)
			}
			runnerUses(p, text, runners)                      // ownrunner.go
			for _, c := range trainerDefaultCallbacks(text) { // nofit.go
				callbacks[c] = true
			}
			if strings.Contains(text, "add_lightning_class_args") {
				for _, c := range classArgCallbacks(text) {
					callbacks[c] = true
				}
			}
			if !at.jsonLineComments && strings.Contains(text, "json.loads") && stripsLineComments(text) {
				at.jsonLineComments = true // jsoncomments.go
			}
			at.envSet = envSetBy(text, at.envSet) // envset.go
			envMods.read(root, p, text)
			if !at.jsonOutsideStrings && strings.Contains(text, "json.loads") && stripsCommentsOutsideStrings(text) {
				at.jsonOutsideStrings = true // jsoncomments.go
			}
			if !at.jsonnet && strings.Contains(text, "allennlp") && allennlpImport.MatchString(text) {
				at.jsonnet = true // jsonnet.go
			}
			if !at.json5 && strings.Contains(text, "json5") && json5Load.MatchString(text) {
				at.json5 = true // jsonnet.go
			}
			if !at.cliDefaults && cliDefaultCheckpoint(root, p, text) {
				at.cliDefaults = true
			}
			if !at.cliNoCkpt && cliNoCheckpointing(text) {
				at.cliNoCkpt = true
			}
			scriptSets(root, p, text, gets, sets, scales, setsFor)
			at.adds = scriptAdds(text, at.adds) // scriptadds.go
			checkpointAdds(p, text, addsFor)
			if strings.Contains(text, "exec(") {
				execs.read(name, text)
			}
		}
		if strings.Contains(text, "LightningCLI)") && !test {
			for _, c := range cliCallbacks(text) {
				callbacks[c] = true
			}
		}
		return nil
	})
	if over {
		return
	}
	at.storeGroups = registries.groups(at.storeGroups)
	at.execGlobals = execs.globals()
	if files == 0 {
		names, reads = nil, nil // no Python here: what reads the configs is not in the repository
	}
	cbs := callbacksWhere(func(c string) bool { return callbacks[c] })
	if !parsed {
		keys = nil
		at.gets = gets // a config no parser fills is read by the scripts, with their defaults
	}
	for w := range names {
		if strings.HasSuffix(w, "trainingarguments") {
			// A subclass of TrainingArguments named (Seq2SeqTrainingArguments,
			// SentenceTransformerTrainingArguments): the class's own word stands for it, which
			// the generic reader looks up for every file (dialect.trainerWords).
			names["trainingarguments"] = true
			break
		}
	}
	at.keys, at.callbacks, at.packages, at.names, at.reads, at.sets = keys, cbs, packages, names, reads, sets
	if len(scales) > 0 {
		at.scales = scales
	}
	at.imports = imports
	if len(addsFor) > 0 {
		at.addsFor = addsFor
	}
	if len(setsFor) > 0 {
		at.setsFor = setsFor
	}
	at.noFitModels, at.noValModels = untrainable(modules), unvalidated(modules)
	if at.noValModels != nil {
		at.noValModels = withAllModules(modules, at.noValModels)
	}
	at.ownRunner, at.ownLoop = runners.ownRunner(), ownTrainingLoop(names)
	at.otherLoader = loaders.otherLoader()
	at.launch = map[string]map[string]bool{}
	for cfg, launches := range launch {
		if keys := launchedKeys(launches); keys != nil {
			at.launch[cfg] = keys
		}
	}
	at.checkpoints = checkpointClasses(bases)
	for f := range fit {
		delete(noFit, f) // read by a script that trains too
	}
	for _, m := range []map[string]bool{fit, noFit} {
		for f := range m {
			if f != anyHydra {
				if at.scriptConfigs == nil {
					at.scriptConfigs = map[string]bool{}
				}
				at.scriptConfigs[f] = true
			}
		}
	}
	if fit[anyHydra] {
		for f := range hydraNoFit {
			delete(noFit, f)
		}
	}
	at.noFit = noFit
	if len(subs) > 0 {
		at.subclasses = subs
	}
	at.initArgs = inits.args(os.ReadFile)
	if len(own) > 0 {
		at.classes = own
	}
	// One decorator giving version_base (a legacy example beside a version_base="1.3" app) says
	// the repository's Hydra reads packages as 1.1 and later do.
	at.hydraLegacy = legacyMains > 0 && modernMains == 0
	for d := range mainDirs {
		if rel, err := filepath.Rel(root, d); !mainUnread && len(mainDirs) == 1 && err == nil && filepath.IsLocal(rel) {
			at.hydraMain = d
		}
	}
	if at.hydraMain == "" && len(mainCands) > 0 {
		// The folders other decorators name for sure are candidates too.
		for d := range mainDirs {
			mainCands[d] = true
		}
		for d := range mainCands {
			at.mainCandidates = append(at.mainCandidates, d)
		}
	}
	if lightningNewSeen {
		at.lightningOld = "" // the new modules too: which release runs is not told
	}
	at.envSet = envMods.into(at.envSet)
	for imp := range imported {
		if nsParts[imp[0]][imp[1]] {
			// `from torchtitan.config_manager import JobConfig` beside torchtitan/config_manager.py
			// (PC-Layer-torchtitan's copy has no __init__.py): the repository's own package
			packages[imp[0]] = true
		}
	}
}

// union is a new set holding the keys of a and b.
func union(a, b map[string]bool) map[string]bool {
	u := make(map[string]bool, len(a)+len(b))
	for _, m := range []map[string]bool{a, b} {
		for k := range m {
			u[k] = true
		}
	}
	return u
}

// weighedImports are the modules whose importing files a scan counts (repoPython.imports): the
// generic reader weighs paddle and grain against torch, and asks whether the code imports a
// library that builds the Trainer's arguments from a recipe (dialect.Context.RepoImports).
var weighedImports = []string{"paddle", "torch", "grain", "trl", "axolotl", "llamafactory", "llmtuner", "alignment"}

// textImports reports a line of text that imports module m or one of its submodules (`import
// paddle`, `import torch.nn as nn`, `from paddle.io import DataLoader`), indented or not.
func textImports(text, m string) bool {
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "import" && f[0] != "from" {
			continue
		}
		if w := strings.TrimSuffix(f[1], ","); w == m || strings.HasPrefix(w, m+".") {
			return true
		}
	}
	return false
}

// dottedImport finds the first two parts of a dotted import (`from a.b import c`, `import a.b`).
var dottedImport = regexp.MustCompile(`(?m)^[ \t]*(?:from|import)[ \t]+([A-Za-z_]\w*)\.([A-Za-z_]\w*)`)

// classHeader reads a one-line class statement with bases (`class SaveBest(ModelCheckpoint):`,
// leading space removed): the class name and its bases as written.
func classHeader(t string) (name, bases string, ok bool) {
	rest, ok := strings.CutPrefix(t, "class ")
	if !ok {
		return "", "", false
	}
	name, bases, ok = strings.Cut(rest, "(")
	if name = strings.TrimSpace(name); !ok || name == "" {
		return "", "", false
	}
	bases, _, _ = strings.Cut(bases, ")")
	return name, bases, true
}

// classBases records the bases of each one-line class statement of a Python text (`class
// SaveBest(ModelCheckpoint):`) by class name.
func classBases(text string, bases map[string]string) {
	for _, line := range strings.Split(text, "\n") {
		if name, args, ok := classHeader(strings.TrimSpace(line)); ok {
			bases[name] += args + ","
		}
	}
}

// checkpointClasses are the classes whose bases name a checkpoint callback ("Checkpoint" in a
// base's name: Lightning's Checkpoint and ModelCheckpoint, a project's own) or another such
// class, followed to a fixed point; nil when there are none.
func checkpointClasses(bases map[string]string) map[string]bool {
	out := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for name, b := range bases {
			if out[name] {
				continue
			}
			for _, base := range strings.Split(b, ",") {
				base = strings.TrimSpace(base)
				base = base[strings.LastIndexByte(base, '.')+1:]
				if strings.Contains(base, "Checkpoint") || out[base] {
					out[name], changed = true, true
					break
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// addWords adds the words of a Python text (runs of letters, digits and underscores of three
// bytes or more, lowercased: identifiers and words inside strings alike) to names, and to reads
// those that are read by name, as written: after a dot (cfg.model_name), or a whole string
// literal (cfg.get("eval_samples")). A declaration (a dataclass field, a parameter) is no read.
func addWords(names, reads map[string]bool, b []byte) {
	start := -1
	for i := 0; i <= len(b); i++ {
		word := i < len(b) && identByte(b[i])
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			if i-start >= 3 && !names[string(b[start:i])] {
				names[strings.ToLower(string(b[start:i]))] = true
			}
			if start > 0 && (b[start-1] == '.' || (b[start-1] == '"' || b[start-1] == '\'') && i < len(b) && b[i] == b[start-1]) {
				reads[string(b[start:i])] = true
			}
			start = -1
		}
	}
}

// modelCallbackClasses are the callbacks whose replacement by a module's changes what the
// dialects read of a config (lint.Options.ModelCallbacks).
var modelCallbackClasses = []string{"ModelCheckpoint", "EarlyStopping"}

// modelCallbacks lists the checkpoint and early-stopping callbacks named in the bodies of a
// Python text's `def configure_callbacks` (LightningModule's hook): a name anywhere in the
// body counts, within a longer name too (a subclass such as BestModelCheckpoint replaces the
// Trainer's ModelCheckpoint as well).
func modelCallbacks(text string) []string {
	lines := pyLines(text)
	var out []string
	for i, l := range lines {
		if !l.code || !strings.HasPrefix(l.text, "def configure_callbacks(") {
			continue
		}
		var body strings.Builder
		for _, b := range lines[i+1:] {
			if b.code && b.indent <= l.indent {
				break
			}
			body.WriteString(b.text)
			body.WriteByte('\n')
		}
		s := body.String()
		out = append(out, callbacksWhere(func(c string) bool { return strings.Contains(s, c) })...)
	}
	return out
}

// scriptCallbacks lists the checkpoint and early-stopping callbacks a script builds itself
// (ModelCheckpoint( in its text) when it hands callbacks to a Trainer that also unpacks the
// config's settings: a call Trainer(...) whose arguments name callbacks and unpack a mapping
// (threestudio's launch.py: Trainer(callbacks=callbacks, ..., **cfg.trainer), its callbacks
// holding ModelCheckpoint(..., **cfg.checkpoint)), or unpacks keyword arguments the script gave
// callbacks (kwargsCallbacks). Lightning then adds no ModelCheckpoint of its
// own (_CallbackConnector._configure_checkpoint_callbacks, 2.6.5), so what the dialect says of
// the default callback is not what runs. A longer name ending in Trainer( (SFTTrainer) is
// another trainer.
func scriptCallbacks(text string) []string {
	handed, unpacks := false, false
	var outside strings.Builder // the text with every Trainer call's arguments left out
	for rest := text; ; {
		i := strings.Index(rest, "Trainer(")
		if i < 0 {
			outside.WriteString(rest)
			break
		}
		outside.WriteString(rest[:i+len("Trainer(")])
		if i > 0 && identByte(rest[i-1]) {
			rest = rest[i+len("Trainer("):]
			continue
		}
		args := rest[i+len("Trainer("):]
		a := bracketed(args)
		handed = handed || strings.Contains(a, "**") && strings.Contains(a, "callbacks")
		unpacks = unpacks || bareUnpack.MatchString(a)
		rest = args[len(a):]
	}
	if !handed && !(unpacks && kwargsCallbacks(outside.String())) {
		return nil
	}
	return builtCallbacks(text)
}

// bareUnpack is a Trainer call's arguments unpacking a name the script binds
// (`**trainer_kwargs`), not the config itself (`**cfg.trainer`, `**cfg["trainer"]`).
var bareUnpack = regexp.MustCompile(`\*\*[ \t]*[A-Za-z_]\w*[ \t]*(?:[,)]|$)`)

// kwargsCallbacks reports a script that writes callbacks into the keyword arguments it unpacks
// into its Trainer, outside any Trainer call (text is the script without those calls'
// arguments): a `callbacks=` keyword or a "callbacks" key of a dict
// (earth-forecasting-transformer's train_cuboid_sevir.py and PreDiff's training scripts:
// set_trainer_kwargs returns dict(callbacks=callbacks, ...) holding their own
// ModelCheckpoint(monitor=...), and main calls Trainer(**trainer_kwargs)), or a list of
// callbacks built in place that it assigns to a "callbacks" key (RoboVLMs' and GR-MG's
// init_trainer_config copies the config's trainer section and sets trainer_config["callbacks"]
// to a list holding ModelCheckpoint(save_top_k=-1), then main calls Trainer(**trainer_config):
// RoboVLMs main.py:100-115 @HEAD). A list named instead may hold the callback only when a
// condition holds (torchgeo-cimae's train.py appends its ModelCheckpoint only under
// program.overwrite), so it is not read. A callbacks= handed to another Trainer call (a debug
// run's) is not those arguments'.
func kwargsCallbacks(text string) bool {
	if strings.Contains(text, "callbacks=") || strings.Contains(text, `"callbacks":`) || strings.Contains(text, `'callbacks':`) {
		return true
	}
	for _, m := range callbacksKeySet.FindAllStringIndex(text, -1) {
		if builtCallbacks(bracketed(text[m[1]:])) != nil {
			return true
		}
	}
	return false
}

// bracketed is s up to the bracket that closes one opened just before it (a call's arguments
// after "Trainer(", a list's items after "= ["), brackets nested in between counted; all of s
// when nothing closes it.
func bracketed(s string) string {
	depth := 1
	for j := 0; j < len(s); j++ {
		switch s[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth == 0 {
				return s[:j]
			}
		}
	}
	return s
}

// callbacksKeySet is a list display assigned to a mapping's "callbacks" key: kw["callbacks"] = [.
var callbacksKeySet = regexp.MustCompile(`\[\s*["']callbacks["']\s*\]\s*=\s*\[`)

// cliCallbacks lists the checkpoint and early-stopping callbacks a subclass of LightningCLI
// builds (a `class X(LightningCLI)` statement and a call of the callback in the same file):
// ProbTS's CLI removes the Trainer's ModelCheckpoints from trainer.callbacks and appends its own
// before fitting, so the config's (or the default one) is not what runs.
func cliCallbacks(text string) []string {
	if !strings.Contains(text, "(LightningCLI)") && !strings.Contains(text, ".LightningCLI)") {
		return nil
	}
	return builtCallbacks(text)
}

// classArgsRE finds a callback class a LightningCLI's parser takes arguments for
// (parser.add_lightning_class_args(ModelCheckpoint, "checkpoint_best"), transformertf's
// add_arguments_to_parser): the CLI then builds that callback for every run, from its
// defaults and the config's checkpoint_best section (LightningCLI.instantiate_trainer's
// callback_keys, cli.py, Lightning 2.6.5), so Lightning adds no ModelCheckpoint of its own.
var classArgsRE = regexp.MustCompile(`add_lightning_class_args\(\s*(?:[A-Za-z_][\w.]*\.)?(ModelCheckpoint|EarlyStopping)\b`)

// classArgCallbacks lists the modelCallbackClasses a Python text gives parser arguments for
// (classArgsRE), in modelCallbackClasses' order.
func classArgCallbacks(text string) []string {
	found := map[string]bool{}
	for _, m := range classArgsRE.FindAllStringSubmatch(text, -1) {
		found[m[1]] = true
	}
	return callbacksWhere(func(c string) bool { return found[c] })
}

// configTrainerCallbacksRE is an assignment to a parsed config's Trainer callbacks:
// cfg.trainer.callbacks = ..., cfg["trainer"]["callbacks"] = ... (not a comparison).
var configTrainerCallbacksRE = regexp.MustCompile(`(?:\.trainer\.callbacks|\[\s*["']trainer["']\s*\]\s*\[\s*["']callbacks["']\s*\])\s*=[^=]`)

// configCallbacks lists the checkpoint and early-stopping callbacks a script puts in the
// Trainer callbacks of the config it parsed before it builds the run from it, by a call or a
// class_path string (ptlflow's train.py, @e9cf9bc :95-159: PTLFlowCLI(parse_only=True).config,
// then cfg.trainer.callbacks = a list of class_path dicts holding a ModelCheckpoint that
// monitors main_val_metric, then a second CLI built from cfg): the config's own callbacks are
// not what runs, and Lightning adds no ModelCheckpoint of its own.
func configCallbacks(text string) []string {
	sets := false
	for _, m := range configTrainerCallbacksRE.FindAllStringIndex(text, -1) {
		// A comprehension or filter() over the list it is given (dropping a ModelCheckpoint,
		// maybe): what it keeps is not read. The value is read to its line's end, or to the
		// closing bracket of a display or call that opens there.
		rest := strings.TrimLeft(text[m[1]-1:], " \t")
		value, _, _ := strings.Cut(rest, "\n")
		if i := strings.IndexAny(value, "[("); i >= 0 && !inComment(value[:i]) {
			value = rest[:i+1] + bracketed(rest[i+1:min(len(rest), i+1+callSpan)])
		}
		if i := strings.IndexByte(value, '#'); i >= 0 && inComment(value[:i+1]) {
			value = value[:i]
		}
		if !strings.Contains(value, " for ") && !strings.Contains(value, "filter(") {
			sets = true
		}
	}
	if !sets {
		return nil
	}
	return callbacksWhere(func(c string) bool {
		return strings.Contains(text, c+"(") || strings.Contains(text, c+`"`) || strings.Contains(text, c+`'`)
	})
}

// builtCallbacks lists the modelCallbackClasses a Python text calls.
func builtCallbacks(text string) []string {
	return callbacksWhere(func(c string) bool { return strings.Contains(text, c+"(") })
}

// callbacksWhere lists the modelCallbackClasses has picks, in modelCallbackClasses' order (nil
// when none).
func callbacksWhere(has func(c string) bool) []string {
	var out []string
	for _, c := range modelCallbackClasses {
		if has(c) {
			out = append(out, c)
		}
	}
	return out
}

func identByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// testFile reports a Python test (test_*.py, *_test.py, or below a tests folder): a test builds
// Trainers of its own, and no config is run by it.
func testFile(p string) bool {
	name := filepath.Base(p)
	if strings.HasPrefix(name, "test_") || strings.HasSuffix(name, "_test.py") {
		return true
	}
	for _, part := range strings.Split(filepath.ToSlash(filepath.Dir(p)), "/") {
		if part == "tests" || part == "test" {
			return true
		}
	}
	return false
}

var (
	dataclassDeco = regexp.MustCompile(`^@(?:[A-Za-z_][\w.]*\.)?dataclass\b`)
	classLine     = regexp.MustCompile(`^class\s+[A-Za-z_]\w*`)
	fieldLine     = regexp.MustCompile(`^([A-Za-z_]\w*)\s*:\s*(.*)$`)
)

// pyKeywords that can start a line `word:` (else:, try:, finally:) are no field names.
var pyKeywords = map[string]bool{"else": true, "try": true, "finally": true, "lambda": true, "match": true, "case": true}

// pyDataclass is one @dataclass class of a Python text: its bases as written between the
// parentheses of its class statement ("" for none) and its own fields: the class body's own
// annotated names (`name: type` or `name: type = default`) at its first level, outside strings
// and brackets, without ClassVar and InitVar annotations (no fields for dataclasses.fields,
// which HfArgumentParser reads). Inherited fields are the base class's.
type pyDataclass struct {
	name   string
	bases  string
	fields []string
}

// dataclassClasses lists the @dataclass classes of a Python text.
func dataclassClasses(text string) []pyDataclass {
	lines := pyLines(text)
	var out []pyDataclass
	for i := 0; i < len(lines); i++ {
		if !lines[i].code || !dataclassDeco.MatchString(lines[i].text) {
			continue
		}
		j := i + 1
		for j < len(lines) && lines[j].code && strings.HasPrefix(lines[j].text, "@") && lines[j].indent == lines[i].indent {
			j++
		}
		if j >= len(lines) || !lines[j].code || lines[j].indent != lines[i].indent || !classLine.MatchString(lines[j].text) {
			continue
		}
		var c pyDataclass
		if _, rest, ok := strings.Cut(lines[j].text, "("); ok {
			c.bases, _, _ = strings.Cut(rest, ")")
		}
		c.name = strings.TrimSpace(strings.TrimPrefix(classLine.FindString(lines[j].text), "class"))
		classIndent, body := lines[j].indent, -1
		for k := j + 1; k < len(lines); k++ {
			l := lines[k]
			if !l.code {
				continue // inside a string or brackets, or blank or a comment
			}
			if l.indent <= classIndent {
				break
			}
			if body < 0 {
				body = l.indent
			}
			if l.indent != body {
				continue
			}
			m := fieldLine.FindStringSubmatch(l.text)
			if m == nil || pyKeywords[m[1]] || strings.HasPrefix(m[2], "=") {
				continue
			}
			ann := strings.TrimSpace(m[2])
			if strings.Contains(ann, "ClassVar") || strings.Contains(ann, "InitVar") {
				continue
			}
			c.fields = append(c.fields, m[1])
		}
		out = append(out, c)
		i = j
	}
	return out
}

// addSubclassFields records under each base class's name (its last dotted part:
// nemo_exp_manager.ExpManagerConfig is ExpManagerConfig; a name the text imports under an alias
// is the imported name: sagemaker-hyperpod-training-adapter-for-nemo's exp_manager.py imports
// NeMo's ExpManagerConfig as NeMoExpManagerConfig and derives its own ExpManagerConfig from it)
// the fields that the text's dataclasses deriving from it add: lint.Options.ConfigSubclasses.
func addSubclassFields(subs map[string]map[string]bool, classes []pyDataclass, aliases map[string]string) {
	for _, c := range classes {
		for _, b := range strings.Split(c.bases, ",") {
			b = strings.TrimSpace(b)
			if b = b[strings.LastIndexByte(b, '.')+1:]; b == "" || strings.Contains(b, "=") || len(c.fields) == 0 {
				continue
			}
			if name, ok := aliases[b]; ok {
				b = name
			}
			if subs[b] == nil {
				subs[b] = map[string]bool{}
			}
			for _, f := range c.fields {
				subs[b][f] = true
			}
		}
	}
}

// fromImport is a from-import statement's names, a parenthesised list of them across lines
// or the rest of its line.
var fromImport = regexp.MustCompile(`(?m)^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)`)

// importAlias is a name the list renames: `Name as Alias`.
var importAlias = regexp.MustCompile(`\b([A-Za-z_]\w*)\s+as\s+([A-Za-z_]\w*)`)

// importAliases maps the aliases of the names the text's from-imports rename to those names
// (`from nemo.utils.exp_manager import ExpManagerConfig as NeMoExpManagerConfig`).
func importAliases(text string) map[string]string {
	var out map[string]string
	for _, im := range fromImport.FindAllStringSubmatch(text, -1) {
		for _, m := range importAlias.FindAllStringSubmatch(im[1], -1) {
			if out == nil {
				out = map[string]string{}
			}
			out[m[2]] = m[1]
		}
	}
	return out
}

// pyLine is one line of a Python text: its indentation and text (without the indentation), and
// code says that it starts a statement: it begins outside strings and brackets and is not blank
// or a comment.
type pyLine struct {
	indent int
	text   string
	code   bool
}

// pyLines splits a Python text into lines, following strings (single, triple-quoted, with
// escapes), comments and brackets across lines.
func pyLines(text string) []pyLine {
	var out []pyLine
	depth := 0
	var quote string // the open string's closing quote ("", or ', ", ''', """)
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		trimmed := strings.TrimLeft(line, " \t")
		l := pyLine{indent: len(line) - len(trimmed), text: strings.TrimRight(trimmed, " \t\r")}
		l.code = quote == "" && depth == 0 && l.text != "" && l.text[0] != '#'
		out = append(out, l)
		for i := 0; i < len(line); i++ {
			c := line[i]
			if quote != "" {
				if c == '\\' {
					i++
					continue
				}
				if strings.HasPrefix(line[i:], quote) {
					i += len(quote) - 1
					quote = ""
				}
				continue
			}
			switch c {
			case '#':
				i = len(line)
			case '\'', '"':
				quote = string(c)
				if strings.HasPrefix(line[i:], strings.Repeat(string(c), 3)) {
					quote = strings.Repeat(string(c), 3)
					i += 2
				}
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
			}
		}
		if len(quote) == 1 {
			quote = "" // a one-quote string ends with its line (or a backslash continues it: rare)
		}
	}
	return out
}

// ownTrainingLoop reports a repository whose Python (names: its words, lowercased; nil when it
// has none) parses TrainingArguments (HfArgumentParser) but names no Trainer class anywhere (no
// word ending in "trainer"): its own loop runs its Hugging Face arguments files. Worked out once
// for the repository, not for each file.
func ownTrainingLoop(names map[string]bool) bool {
	if names == nil || !names["hfargumentparser"] && !names["trainingarguments"] {
		return false
	}
	for w := range names {
		if strings.HasSuffix(w, "trainer") {
			return false
		}
	}
	return true
}

// scriptSets records what the script at p (its text) assigns on a config before use. A script
// that names the config files it loads in quotes (existing files, tried from its folder and
// from the repository root) and reads no command line loads those alone, and sets keys in them
// alone, in setsFor: an llm-foundry fork's simple_train_smollm2.py sets config.save_folder in
// the one YAML it hard-codes, not in every train YAML of the repository. A script that reads
// its command line (argparse, sys.argv, click, fire, typer, absl flags, Hydra) or loads a path it
// does not write (loadsOtherFiles) may be handed any file (motion-latent-diffusion's config.py
// loads configs/base.yaml and the experiment file params.cfg names), so its attribute
// assignments apply repository-wide, as those of a script naming no file do. Item assignments
// count only in the files a script names (AblateIt's sweep.py rewrites
// run_config["save_strategy"] in the template its --default_training_args names, then launches
// the rewritten copy).
func scriptSets(root, p, text string, gets map[string]string, sets, scales map[string]bool, setsFor map[string]map[string]bool) {
	configGets(text, gets)
	// The two expressions start with an alternation, so the regexp package scans every byte
	// with its automaton: they run on the lines that name a config object only (a repository
	// vendoring transformers, 46 MB of Python, spent 9 of its scan's 15 s here).
	cand := linesWith(text, "cfg.", "config.", "conf.")
	attr := cfgSet.FindAllStringSubmatch(cand, -1)
	scaled := cfgScale.FindAllStringSubmatch(cand, -1)
	if strings.Contains(text, "OmegaConf.update") {
		// OmegaConf.update(cfg, "model.x", v) sets model.x as an attribute assignment does
		// (whether it may add a key the config lacks is scriptAdds' question).
		for _, m := range omegaUpdate.FindAllStringSubmatch(text, -1) {
			attr = append(attr, []string{m[0], strings.TrimPrefix(m[1]+"."+m[2], ".")})
		}
	}
	var item [][]string
	if strings.Contains(text, "] =") || strings.Contains(text, "]=") {
		item = cfgItemSet.FindAllStringSubmatch(linesWith(text, "]"), -1)
	}
	if len(attr) == 0 && len(item) == 0 && len(scaled) == 0 {
		return
	}
	var named []string
	if strings.Contains(text, ".y") || strings.Contains(text, ".json") {
		dir := filepath.Dir(p)
		for _, m := range namedConfigRE.FindAllStringSubmatch(linesWith(text, ".yaml", ".yml", ".json"), -1) {
			rel := filepath.FromSlash(m[1])
			for _, f := range []string{filepath.Join(dir, rel), filepath.Join(root, rel)} {
				if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
					named = append(named, filepath.Clean(f))
					break
				}
			}
		}
	}
	if len(named) == 0 || commandLineRE.MatchString(text) || loadsOtherFiles(text) {
		for _, m := range attr {
			sets[m[1]] = true
		}
		for _, m := range scaled {
			scales[m[1]] = true // (in a file the script names, its value stays the file's)
		}
	}
	for _, f := range named {
		if setsFor[f] == nil {
			setsFor[f] = map[string]bool{}
		}
		for _, ms := range [][][]string{attr, item} {
			for _, m := range ms {
				setsFor[f][m[1]] = true
			}
		}
	}
}

// loadsOtherFiles reports a script that reads a file whose path it does not write as a literal: a
// load or open of something other than a quoted path, a name bound to one (config_path =
// "x.yaml") or a file opened from one (with open("x.yaml") as f). Such a script may load any
// config (motion-latent-diffusion's OmegaConf.load(params.cfg); a helper module handed the path
// another file's argparse reads; OmegaConf.load(os.environ["CFG"])).
func loadsOtherFiles(text string) bool {
	literal := map[string]bool{}
	for _, m := range pathNameRE.FindAllStringSubmatch(text, -1) {
		literal[m[1]] = true
	}
	for _, m := range openedAsRE.FindAllStringSubmatch(text, -1) {
		literal[m[1]] = true
	}
	for _, m := range loadCallRE.FindAllStringSubmatchIndex(text, -1) {
		args := callArgs(text[m[1]:])
		if len(args) == 0 {
			continue
		}
		arg := strings.TrimSpace(args[0])
		if arg == "" || arg[0] == '"' || arg[0] == '\'' || literal[arg] {
			continue
		}
		if strings.HasSuffix(text[m[2]:m[3]], "open") && !readMode(args[1:]) {
			continue // a file written (a log, results), not a config read
		}
		return true
	}
	return false
}

// readMode reports an open()'s arguments after the path that leave it reading: no mode, or one
// without w, a or x (the second argument, or mode=).
func readMode(rest []string) bool {
	for i, a := range rest {
		if m := openModeRE.FindStringSubmatch(a); m != nil && (i == 0 || strings.Contains(a, "mode")) {
			return !strings.ContainsAny(m[1], "wax")
		}
	}
	return true
}

var (
	// loadCallRE is a call that reads a config file (a YAML, JSON or TOML reader, MMEngine's
	// fromfile, a yacs merge, the builtin open: not torch.load or Image.open), with its
	// opening parenthesis (callArgs splits the arguments).
	loadCallRE = regexp.MustCompile(`((?:\byaml\.(?:safe_|full_|unsafe_)?load|\bjson\.load|\bOmegaConf\.load|\btomllib\.load|\btoml\.load|\bfromfile|\bfrom_file|\bload_config|\bload_yaml|\bread_yaml|\bmerge_from_file|(?:^|[^.\w])open))\(`)
	// openModeRE is the mode of an open(): its second argument, or mode=.
	openModeRE = regexp.MustCompile(`^\s*(?:mode\s*=\s*)?["']([^"']*)["']`)
	// pathNameRE binds a name to a quoted YAML or JSON path.
	pathNameRE = regexp.MustCompile(`(?m)^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*["'][^"'\s]+\.(?:ya?ml|json)["'][ \t]*(?:#.*)?$`)
	// openedAsRE names a file opened from a quoted path.
	openedAsRE = regexp.MustCompile(`open\(\s*["'][^"']+["'][^)]*\)\s+as\s+([A-Za-z_]\w*)`)
)

// commandLineRE is a script's reading of its command line.
var commandLineRE = regexp.MustCompile(`\b(?:argparse|ArgumentParser|add_argument|sys\.argv|import click|from click|fire\.Fire|typer|absl|flags\.FLAGS|hydra\.main|hydra_runner|HfArgumentParser|jsonargparse|LightningCLI)\b`)

// cfgItemSet is a config key a script assigns by item: run_config["save_steps"] = ... (a
// mapping whose name holds config, cfg or conf).
var cfgItemSet = regexp.MustCompile(`(?:^|[^.\w])\w*(?:config|cfg|conf)\w*\[\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*\]\s*=(?:[^=]|$)`)

// namedConfigRE is a quoted path of a YAML or JSON file.
var namedConfigRE = regexp.MustCompile(`["']([^"'\s]+\.(?:ya?ml|json))["']`)
