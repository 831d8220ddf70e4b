package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Configs that only scripts that never train read. A Trainer that only tests, validates or
// predicts writes no checkpoint (ModelCheckpoint skips saving outside fit:
// callbacks/model_checkpoint.py _should_skip_saving_checkpoint, Lightning 2.6.5) and wraps no
// model in DDP (strategies/ddp.py setup configures DDP only when fitting), so the training
// rules have nothing to judge there (composition.md: evaluation-only runs). Two wirings are read:
//   - a @hydra.main script's primary (config_path, config_name) when the script calls test,
//     validate or predict and never fit nor a train function (lightning-hydra-template's
//     eval.py), or calls none of them and the config's name says it makes no model to train
//     (inferName: NeMo's sd_infer.yaml, sd_xl_export.yaml, merge_lora_weights.yaml); NeMo's
//     @hydra_runner is read as @hydra.main (nemo/core/config/hydra_runner.py passes its
//     config_path and config_name to Hydra's _run_hydra, with the decorated function's file
//     as the calling file, NeMo @8cfedd7);
//   - LightningCLI's parser_kwargs default_config_files of the test, validate and predict
//     subcommands (kirigami's run.py).
//
// Both need the config's own name to say so too (eval, test, validate, predict, infer:
// evalName): a script's text cannot show that no helper it calls trains, nor that nobody
// passes the file to fit with --config. A config any other script reads, or that a fit
// subcommand or every subcommand gets, is not marked: whoever trains may read it; nor is any
// Hydra primary of a repository with a @hydra.main whose config this reading cannot tell.

var (
	hydraMainRE = regexp.MustCompile(`@(?:hydra\.main|hydra_runner)\(([^)]*)\)`)
	hydraArgRE  = regexp.MustCompile(`\b(config_path|config_name)\s*=\s*["']([^"']*)["']`)
	// config_name=None: Hydra composes no primary file unless the command line names one.
	noConfigNameRE = regexp.MustCompile(`\bconfig_name\s*=\s*None\b`)
	// "test": {"default_config_files": ["a.yaml", ...]} and the same for other subcommands, or
	// for the parser itself (no subcommand key before it).
	cliDefaultsRE = regexp.MustCompile(`(?:["'](fit|test|validate|predict)["']\s*:\s*\{\s*)?["']default_config_files["']\s*:\s*\[([^\]]*)\]`)
	quotedRE      = regexp.MustCompile(`["']([^"']+)["']`)
)

// scriptReads records in fit and noFit the config files (absolute, cleaned) the script at p
// reads: noFit those of scripts or subcommands that never train, fit the others; hydraNoFit
// the @hydra.main primaries among noFit's. Relative
// paths are tried from the script's folder and from the repository root (where such scripts
// are usually run).
func scriptReads(root, p, text string, fit, noFit, hydraNoFit map[string]bool) {
	dir := filepath.Dir(p)
	if strings.Contains(text, "hydra.main") || strings.Contains(text, "hydra_runner") {
		trains := strings.Contains(text, "fit(") || strings.Contains(text, "train(")
		evals := strings.Contains(text, ".test(") || strings.Contains(text, ".validate(") || strings.Contains(text, ".predict(")
		for _, m := range hydraMainRE.FindAllStringSubmatch(text, -1) {
			cfg, named := hydraPrimary(dir, m[1])
			if !named {
				if !trains && noConfigNameRE.MatchString(m[1]) {
					// No file, and nothing in the script trains (NeMo's
					// average_model_checkpoints.py): whatever the command line names, this
					// script does not make it a training run.
					continue
				}
				fit[anyHydra] = true // positional or computed arguments: any primary may be it
				continue
			}
			if cfg == "" { // a pkg:// path: not in the tree
				continue
			}
			only := !trains && (evals && evalName(cfg) || inferName(cfg))
			mark(cfg, only, fit, noFit)
			if only {
				hydraNoFit[cfg] = true
			}
		}
	}
	if strings.Contains(text, "default_config_files") {
		for _, m := range cliDefaultsRE.FindAllStringSubmatch(text, -1) {
			sub := m[1] == "test" || m[1] == "validate" || m[1] == "predict"
			for _, q := range quotedRE.FindAllStringSubmatch(m[2], -1) {
				rel := filepath.FromSlash(q[1])
				only := sub && evalName(rel)
				mark(filepath.Join(dir, rel), only, fit, noFit)
				mark(filepath.Join(root, rel), only, fit, noFit)
			}
		}
	}
}

// hydraPrimaries are the config files (absolute, cleaned) that the @hydra.main and @hydra_runner
// decorators of the script at p name with literal config_path and config_name (a name without
// .yaml gets it); a decorator that names none, or a package path, gives nothing.
func hydraPrimaries(p, text string) []string {
	var out []string
	for _, m := range hydraMainRE.FindAllStringSubmatch(text, -1) {
		if cfg, _ := hydraPrimary(filepath.Dir(p), m[1]); cfg != "" {
			out = append(out, cfg)
		}
	}
	return out
}

// hydraPrimary is the config file a decorator's arguments (args) name from the script's folder
// dir: "" with named false when they give no literal config_name, "" with named true for a
// pkg:// config_path (not in the tree).
func hydraPrimary(dir, args string) (cfg string, named bool) {
	cpath, cname := "", ""
	for _, a := range hydraArgRE.FindAllStringSubmatch(args, -1) {
		if a[1] == "config_path" {
			cpath = a[2]
		} else {
			cname = a[2]
		}
	}
	if cname == "" {
		return "", false
	}
	if strings.Contains(cpath, ":") {
		return "", true
	}
	if !strings.HasSuffix(cname, ".yaml") && !strings.HasSuffix(cname, ".yml") {
		cname += ".yaml"
	}
	return filepath.Join(dir, filepath.FromSlash(cpath), filepath.FromSlash(cname)), true
}

// anyHydra is the key in fit that says a @hydra.main's config could not be read: then no
// Hydra primary of the repository is marked (scanRepoPython drops hydraNoFit's).
const anyHydra = "\x00hydra"

// evalName reports a config file whose name says it evaluates: eval.yaml, test_x.yaml,
// validate.yaml, predict.yaml, inference.yaml (a word of its base name, split at _ - .).
func evalName(p string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(filepath.Base(p)), func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		switch w {
		case "eval", "evaluate", "evaluation", "test", "testing", "validate", "validation", "predict", "prediction", "infer", "inference":
			return true
		}
	}
	return false
}

// inferName reports a config file whose name says the script reading it makes no model to
// train but runs, converts or combines one: sd_infer.yaml, sd_xl_export.yaml,
// sd_xl_quantize.yaml, rag_generating.yaml, rag_indexing.yaml, megatron_clip_imagenet_zeroshot.yaml,
// merge_lora_weights.yaml (a word of its base name, split at _ - .). Unlike evalName's words,
// these need no test, validate or predict call beside them: such scripts call the model
// directly. A name that also says train (sd_lora_infer_train.yaml) is not one.
func inferName(p string) bool {
	found := false
	for _, w := range strings.FieldsFunc(strings.ToLower(filepath.Base(p)), func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		switch w {
		case "infer", "inference", "export", "quantize", "quantization", "generate", "generating", "generation", "indexing", "zeroshot", "merge":
			found = true
		case "train", "training", "finetune", "pretrain", "pretraining", "fit":
			return false
		}
	}
	return found
}

// mark records the config at p (joined, so cleaned) in noFit when only scripts that never
// train read it, else in fit.
func mark(p string, only bool, fit, noFit map[string]bool) {
	if only {
		noFit[p] = true
	} else {
		fit[p] = true
	}
}

// quotedYAMLRE finds a quoted YAML path anywhere in a script: no quote or blank inside, so a
// docstring or an apostrophe before it cannot pair its quotes wrongly.
var quotedYAMLRE = regexp.MustCompile(`["']([^"'\s]+\.ya?ml)["']`)

// trainerDefaultsRE finds the start of LightningCLI's trainer_defaults={...} argument.
var trainerDefaultsRE = regexp.MustCompile(`trainer_defaults\s*=\s*\{`)

// trainerDefaults returns the bodies of the script's trainer_defaults={...} dicts, each with
// what its nested brackets hold blanked (top): a key of the dict itself is found in top at the
// offset of its text in body (spikingjelly's memopt/train.py gives "logger": {...} before
// "enable_checkpointing": False). Comments are blanked in both; a dict whose end is not found
// within callSpan bytes is not returned, and only the first 16 are read, so a file of unclosed
// dicts costs little.
func trainerDefaults(text string) (bodies, tops []string) {
	for _, m := range trainerDefaultsRE.FindAllStringIndex(text, 16) { // a script has one or two
		if inComment(text[strings.LastIndexByte(text[:m[0]], '\n')+1 : m[0]]) {
			continue // a line commented out, or a comment after code
		}
		body, top, ok := bracketBody(text[m[1]:min(len(text), m[1]+callSpan)])
		if ok {
			bodies, tops = append(bodies, body), append(tops, top)
		}
	}
	return bodies, tops
}

// inComment reports whether the end of a line's text (line, from its start) lies in a comment:
// a # outside quotes before it.
func inComment(line string) bool {
	var q byte
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case q != 0 && c == '\\':
			i++
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q == 0 && c == '#':
			return true
		}
	}
	return false
}

// bracketBody reads s, the text after an opening bracket, up to its closing one: the text
// between them with comments blanked (body), and the same with what nested brackets hold
// blanked too (top). Quotes are skipped whole, a bracket or # inside them not counted.
func bracketBody(s string) (body, top string, ok bool) {
	end := closingBracket(s, nil) + 1 // first the closing bracket, with no copy (trainer.go)
	if end == 0 {
		return "", "", false
	}
	b, t := []byte(s[:end]), []byte(s[:end])
	depth := 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"', '\'':
			j := i + 1
			for j < len(b) && b[j] != c && b[j] != '\n' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			if depth > 0 {
				for k := i; k <= j && k < len(b); k++ {
					t[k] = ' '
				}
			}
			i = j
			continue
		case '#':
			for i < len(b) && b[i] != '\n' {
				b[i], t[i] = ' ', ' '
				i++
			}
			continue
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return string(b[:i]), string(t[:i]), true
			}
			depth--
			if depth == 0 {
				continue // the closing bracket stays in top, as its opening one does
			}
		}
		if depth > 0 && b[i] != '\n' && !(depth == 1 && (b[i] == '(' || b[i] == '[' || b[i] == '{')) {
			t[i] = ' '
		}
	}
	return "", "", false
}

// defaultsCallbacksRE finds trainer_defaults' "callbacks" key.
var defaultsCallbacksRE = regexp.MustCompile(`["']callbacks["']\s*:`)

// trainerDefaultCallbacks lists the checkpoint and early-stopping callbacks
// (modelCallbackClasses) a LightningCLI in a script gives as trainer_defaults' callbacks, which
// LightningCLI._instantiate_trainer appends to every config's (cli.py, Lightning 2.6.5):
// Lightning then adds no ModelCheckpoint of its own, and the config's callbacks are not all
// that run.
func trainerDefaultCallbacks(text string) []string {
	if !strings.Contains(text, "LightningCLI") {
		return nil
	}
	bodies, tops := trainerDefaults(text)
	var value string
	for i, top := range tops {
		if m := defaultsCallbacksRE.FindStringIndex(top); m != nil {
			// the value: up to the dict's next entry or its end
			end := len(top)
			if j := strings.IndexByte(top[m[1]:], ','); j >= 0 {
				end = m[1] + j
			}
			value += bodies[i][m[1]:end]
		}
	}
	if value == "" {
		return nil
	}
	// A callback made beforehand and named in the list (Kurokabe/TorchGANime's
	// train_vqgan.py: checkpoint_callback = ModelCheckpoint(...), then
	// trainer_defaults={"callbacks": [checkpoint_callback]}): the class its name is bound to.
	for _, id := range identRE.FindAllString(value, -1) {
		if m := regexp.MustCompile(`(?m)^[ \t]*` + id + `[ \t]*=[ \t]*([A-Za-z_][\w.]*)[ \t]*\(`).FindStringSubmatch(text); m != nil {
			value += " " + m[1]
		}
	}
	return callbacksWhere(func(c string) bool { return strings.Contains(value, c) })
}

// identRE is a Python name.
var identRE = regexp.MustCompile(`\b[A-Za-z_]\w*\b`)

// noCheckpointingRE finds a dict's "enable_checkpointing": False entry.
var noCheckpointingRE = regexp.MustCompile(`["']enable_checkpointing["']\s*:\s*False\b`)

// cliNoCheckpointing reports a script whose CLI, LightningCLI or a subclass of it (the keyword
// is LightningCLI's), gives trainer_defaults with "enable_checkpointing": False outside a
// comment: a config that does not turn checkpointing back on gets no ModelCheckpoint, the
// Trainer adding one only when it is on (callback_connector.py:85-93, Lightning 2.3.3).
// gaussian-splatting-lightning's internal/entrypoints/gspl.py does so, and its model writes
// checkpoints of its own at the steps --save_iterations names, deleting none.
func cliNoCheckpointing(text string) bool {
	if !strings.Contains(text, "trainer_defaults") {
		return false
	}
	_, tops := trainerDefaults(text)
	for _, top := range tops {
		if noCheckpointingRE.MatchString(top) {
			return true
		}
	}
	return false
}

// cliDefaultCheckpoint reports a LightningCLI in the script at p that loads, under every fit, a
// default config file (the parser's or its fit subcommand's default_config_files) naming a
// ModelCheckpoint: a config given with --config that sets no trainer.callbacks keeps the file's
// (ModelGenerator's main.py and configs/defaults.yaml), so Lightning adds no ModelCheckpoint of
// its own; one that sets them replaces the list. A defaults list holding a computed path is
// read from the YAML paths the script quotes; each path is tried from the script's folder, its
// parent and the repository root.
func cliDefaultCheckpoint(root, p, text string) bool {
	if !strings.Contains(text, "LightningCLI") || !strings.Contains(text, "default_config_files") {
		return false
	}
	dir := filepath.Dir(p)
	for _, m := range cliDefaultsRE.FindAllStringSubmatch(text, -1) {
		if m[1] != "" && m[1] != "fit" {
			continue
		}
		paths := quotedRE.FindAllStringSubmatch(m[2], -1)
		if len(paths) == 0 { // a variable: the YAML files the script names
			paths = quotedYAMLRE.FindAllStringSubmatch(text, -1)
		}
		for _, q := range paths {
			rel := filepath.FromSlash(q[1])
			if ext := strings.ToLower(filepath.Ext(rel)); ext != ".yaml" && ext != ".yml" {
				continue
			}
			for _, base := range []string{dir, filepath.Dir(dir), root} {
				f := filepath.Join(base, rel)
				if rel, err := filepath.Rel(root, f); err != nil || strings.HasPrefix(rel, "..") {
					continue
				}
				if data, err := os.ReadFile(f); err == nil && len(data) <= scriptFileBytes {
					if strings.Contains(string(data), "ModelCheckpoint") {
						return true
					}
					break
				}
			}
		}
	}
	return false
}

// hydraMains counts text's @hydra.main decorators whose config_path names a YAML file
// (`config_path='config/train.yaml'`, pytorch_sac's), which only Hydra 1.0 and older read (they
// split it into the folder and the config: split_config_path, hydra/core/utils.py at v1.0.7,
// with a deprecation warning; Hydra 1.1 dropped that reading), and those that give
// version_base, which Hydra 1.2 added. A decorator with a folder and config_name is read by
// Hydra 1.0 as well as later ones, and counts as neither.
func hydraMains(text string) (legacy, modern int) {
	for _, m := range hydraMainRE.FindAllStringSubmatch(text, -1) {
		for _, a := range hydraArgRE.FindAllStringSubmatch(m[1], -1) {
			if a[1] == "config_path" && (strings.HasSuffix(a[2], ".yaml") || strings.HasSuffix(a[2], ".yml")) {
				legacy++
			}
		}
		if strings.Contains(m[1], "version_base") {
			modern++
		}
	}
	return legacy, modern
}

// storeGroups adds to groups (made when nil) the options text registers with Hydra's
// ConfigStore, as "group/name": `cs.store(group="arch", name="fully_connected", node=...)` gives
// arch/fully_connected (modulus-sym registers its architectures, schedulers and optimizers so);
// the name may come first without its keyword, as ConfigStore.store(name, node, group=None, ...)
// takes it (hydra/core/config_store.py at v1.3.2). A group or a name it computes gives nothing:
// which options, the scan cannot tell, and a vendored fairseq's registrations
// (`cs.store(name=name, group="model", ...)` for its own architectures) would otherwise silence
// every missing option of the repository's model group (registryScan reads which options those
// registries store). A store without a group registers a config at the ConfigStore's top,
// by its name alone: Hydra searches the ConfigStore after the config directory (the "schema"
// entry structured://, hydra/_internal/utils.py:200 at v1.1.0, :209 at v1.3.2), so a defaults
// entry `- config` finds what `cs.store(name="config", node=MainConfig)` stores (dpr-scale,
// metaseq's base_config). The store keeps it as "config.yaml" (config_store.py:75-88 at v1.1.0
// and v1.3.2) and looks a path up by its "/" parts (_open, :143-152), so a name holding a "/"
// is found by no entry. A call with a third argument by position (group, in store's order) or
// one unpacked (*a, **kw) may give a group: it registers no top-level name.
func storeGroups(text string, groups map[string]bool) map[string]bool {
	for _, args := range storeCalls(text) {
		g := storeGroup.FindStringSubmatch(args)
		n := storeName.FindStringSubmatch(args)
		name := ""
		if n != nil {
			name = n[1]
		} else if m := storeFirst.FindStringSubmatch(args); m != nil {
			name = m[1]
		}
		key := ""
		switch name = strings.TrimSuffix(name, ".yaml"); {
		case name == "":
		case g == nil:
			if !strings.Contains(name, "/") && !groupByPosition(args) {
				key = name
			}
		case g[1] != "":
			key = strings.Trim(g[1], "/") + "/" + name
		}
		if key == "" {
			continue
		}
		if groups == nil {
			groups = map[string]bool{}
		}
		groups[key] = true
	}
	return groups
}

// groupByPosition reports whether a store call's arguments (storeCalls' text) may give the
// group without its keyword: a third positional argument, or one unpacked.
func groupByPosition(args string) bool {
	n := 0
	for _, a := range callArgs(args + ")") {
		if a = strings.TrimSpace(a); strings.HasPrefix(a, "*") {
			return true
		}
		if a != "" && keywordArg.FindStringSubmatch(a) == nil {
			n++
		}
	}
	return n > 2
}

// callSpan bounds the text callArgs reads after a call's parenthesis in the repository scan's
// registrations (storeCalls, registryScan): their arguments fit in it, and a call left open
// does not make each one a scan to the end of the file.
const callSpan = 8 << 10

// storeCalls are the argument texts of text's .store( calls, to their closing parenthesis
// (nested calls such as node=builds(ResNet) included: callArgs), arguments joined by commas.
func storeCalls(text string) []string {
	var out []string
	for i := 0; ; {
		k := strings.Index(text[i:], ".store(")
		if k < 0 {
			return out
		}
		i += k + len(".store(")
		if args := callArgs(text[i:min(len(text), i+callSpan)]); args != nil {
			out = append(out, strings.Join(args, ","))
		}
	}
}

var (
	storeGroup = regexp.MustCompile(`\bgroup\s*=\s*(?:["']([^"']*)["']|[A-Za-z_])`)
	storeName  = regexp.MustCompile(`\bname\s*=\s*(?:["']([^"']*)["']|[A-Za-z_])`)
	// storeFirst is a first argument written as a string literal (the name, by position).
	storeFirst = regexp.MustCompile(`^\s*["']([^"']+)["']\s*,`)
)

// registryScan reads the ConfigStore options fairseq's registries register (a vendored copy of
// fairseq; fairseq/registry.py at v0.12.2): setup_registry("--criterion", ...) returns, second in
// its tuple, a register function (criterions/__init__.py:18-25 binds it as register_criterion;
// "--lr-scheduler" gives lr_scheduler: the dashes dropped, "-" read as "_", registry.py:18-19),
// and that function's decorator `@register_criterion("cross_entropy", dataclass=...)` stores the
// dataclass as criterion/cross_entropy (registry.py:63-92: cs.store(name=name,
// group=registry_name, ...), only when a dataclass is given). Counted only where the
// repository's own setup_registry stores so (stores): another function of that name may
// register nothing.
type registryScan struct {
	stores    bool              // a def setup_registry that stores under group=registry_name
	fns       map[string]string // register function -> group
	decorated [][2]string       // register function, option name (with a dataclass)
}

var (
	// setupRegistry is `(build_x, register_x, ...) = registry.setup_registry("--x"`: the
	// second name bound (1) and the registry's flag without its dashes (2).
	setupRegistry = regexp.MustCompile(`(?m)^[ \t]*\(?\s*[A-Za-z_]\w*\s*,\s*([A-Za-z_]\w*)\s*(?:,[^=()]*)?\)?\s*=\s*(?:[A-Za-z_][\w.]*\.)?setup_registry\(\s*["']--([A-Za-z0-9_-]+)["']`)
	// registerDecorator is a decorator call `@name(`, its name (1).
	registerDecorator = regexp.MustCompile(`(?m)^[ \t]*@([A-Za-z_]\w*)\(`)
	registryGroup     = regexp.MustCompile(`\bgroup\s*=\s*registry_name\b`)
	keywordArg        = regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*=[^=]`)
	stringArg         = regexp.MustCompile(`^\s*["']([^"']+)["']\s*$`)
)

// read takes one Python file's text.
func (r *registryScan) read(text string) {
	if strings.Contains(text, "def setup_registry(") {
		for _, args := range storeCalls(text) {
			if registryGroup.MatchString(args) {
				r.stores = true
			}
		}
	}
	if strings.Contains(text, "setup_registry(") {
		for _, m := range setupRegistry.FindAllStringSubmatch(text, -1) {
			if r.fns == nil {
				r.fns = map[string]string{}
			}
			r.fns[m[1]] = strings.ReplaceAll(m[2], "-", "_")
		}
	}
	if !strings.Contains(text, "dataclass") {
		return
	}
	for _, m := range registerDecorator.FindAllStringSubmatchIndex(text, -1) {
		// A decorator's arguments are short: callArgs reads at most callSpan bytes, so a file of
		// unclosed `@f(` lines costs no scan to its end per line.
		args := callArgs(text[m[1]:min(len(text), m[1]+callSpan)])
		if len(args) < 2 {
			continue
		}
		n := stringArg.FindStringSubmatch(args[0])
		if n == nil {
			continue
		}
		dataclass := ""
		for i, a := range args[1:] {
			if k := keywordArg.FindStringSubmatch(a); k != nil {
				if k[1] == "dataclass" {
					_, v, _ := strings.Cut(a, "=")
					dataclass = strings.TrimSpace(v)
				}
			} else if i == 0 {
				dataclass = strings.TrimSpace(a) // register_x(name, dataclass) by position
			}
		}
		if dataclass != "" && dataclass != "None" {
			r.decorated = append(r.decorated, [2]string{text[m[2]:m[3]], n[1]})
		}
	}
}

// groups adds the registered options to groups (made when nil), as storeGroups does.
func (r *registryScan) groups(groups map[string]bool) map[string]bool {
	if !r.stores {
		return groups
	}
	for _, d := range r.decorated {
		g, ok := r.fns[d[0]]
		if !ok || g == "" {
			continue
		}
		if groups == nil {
			groups = map[string]bool{}
		}
		groups[g+"/"+d[1]] = true
	}
	return groups
}
