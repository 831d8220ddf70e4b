package dialect

// Lightning's closed argument maps and the checks its constructors make, from the table
// extracted from Lightning's source (knowledge_lightning.tsv, cmd/trainlint-knowledge):
//   - LightningCLI (jsonargparse) refuses a `trainer:` key that is not a Trainer.__init__
//     parameter, and an init_args key the callback's __init__ does not take; it checks each value
//     against the parameter's annotation when it loads the file.
//   - Hydra's instantiate passes a _target_ map's keys as keyword arguments: an unknown one is a
//     TypeError when the job starts; values reach the constructor unchecked.
//   - Either way the constructors then check the values: Trainer (trainer.py, trainer/setup.py
//     _init_debugging_flags and _determine_batch_limits, connectors/data_connector.py,
//     fabric/connector.py _convert_precision_to_unified_args), ModelCheckpoint
//     (__init_monitor_mode, __validate_init_configuration) and EarlyStopping (__init__). Each
//     check below names the table row (function and if test) it implements, and runs only at
//     the versions where that row was read (TestLightningChecksInTable).

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// lightningClass reports whether a class reference names Lightning's own class: the short
// name LightningCLI resolves, or a dotted path in the lightning/pytorch_lightning packages.
func lightningClass(ref, name string) bool {
	ref = strings.TrimSpace(ref)
	return ref == name || (strings.HasPrefix(ref, "lightning.") || strings.HasPrefix(ref, "pytorch_lightning.")) &&
		strings.HasSuffix(ref, "."+name)
}

// lightningRemovedArgs are the Trainer arguments lightningRemoved lists (deprecated-key reports
// them), by name; lightningHydraTrainerSkip adds Hydra's directives to them.
var lightningRemovedArgs, lightningHydraTrainerSkip = lightningSkips()

func lightningSkips() (removed, hydra map[string]bool) {
	removed, hydra = map[string]bool{}, map[string]bool{"defaults": true}
	for _, k := range lightningRemoved {
		removed[strings.TrimPrefix(k.Path, "trainer.")] = true
		hydra[strings.TrimPrefix(k.Path, "trainer.")] = true
	}
	return removed, hydra
}

// lightningNotYet reports a Trainer argument of lightningRemoved that the table has from a
// release after the target: ipus from 1.4.0, multiple_trainloader_mode from 1.2.0,
// move_metrics_to_cpu from 1.1.0 (pytorch_lightning/trainer/trainer.py@1.4.0, @1.2.0, @1.1.0).
// The table's facts win over the hand-typed "removed in Lightning 2.0": such a key does not
// "still work" there.
func lightningNotYet(key, target string) bool {
	kb := KnowledgeOf("lightning")
	if kb == nil || target == "" {
		return false
	}
	f, ok := kb.Sections["Trainer"][key]
	if kb.Outside(target) {
		// Older than every release read: an argument that came after the oldest one (ipus,
		// 1.4.0) was not there either.
		return ok && f.Since != ""
	}
	return ok && f.Since != "" && !kb.Has(f, target) && releasedBefore(target, ParseVersion(f.Since)...)
}

// hydraDirectives are keys Hydra reads itself at the top of a config (a group file's defaults
// list), not arguments of the _target_ (Hydra's own _target_, _partial_, ... start with "_").
var hydraDirectives = map[string]bool{"defaults": true}

// lightningKeyMaps finds the Trainer arguments and the ModelCheckpoint / EarlyStopping
// arguments a file passes to Lightning's own classes.
func lightningKeyMaps(d *doc.Document) []KeyMap {
	root := cliBase(d.Root)
	if !isMap(root) {
		return nil
	}
	return lightningKeyMapsOf(root, lightningCLI(root))
}

// lightningCLI is shapeOf's test for a LightningCLI file alone (variant "lightning-cli"): a
// seed_everything key, or a class_path or init_args scalar in the first levels. The rules ask
// it of every Lightning file and need nothing else of the shape.
func lightningCLI(root *doc.Node) bool {
	if root.Get("seed_everything") != nil {
		return true
	}
	found := false
	root.Walk(func(n *doc.Node) bool {
		if found {
			return false
		}
		if n.Kind == doc.Scalar && (n.Key == "class_path" || n.Key == "init_args") {
			found = true
			return false
		}
		return n.Depth() < 5
	})
	return found
}

// lightningCLISince is the first release with LightningCLI: pytorch_lightning/utilities/cli.py
// is in 1.3.0's tree and not in 1.2.10's. A LightningCLI-shaped file of a repository on an older
// release is read by something else, so its maps are not judged there (KeyMap.Since).
const lightningCLISince = "1.3.0"

// lightningTrainerRoot is the Lightning dialect's SectionRoot: "trainer" for a Hydra trainer
// group file, whose root instantiates Lightning's Trainer (`_target_: pytorch_lightning.Trainer`,
// lightning-hydra-template's configs/trainer/*.yaml, flash-attention's all_params.yaml), so that
// an argument a later release removes reads as still working at a 1.x pin, as it does under
// trainer:. Not for a LightningCLI file, nor beside a trainer section.
func lightningTrainerRoot(d *doc.Document) string {
	root := cliBase(d.Root)
	if !isMap(root) || root.Get("trainer") != nil || lightningCLI(root) {
		return ""
	}
	if t := scalarText(root.Get("_target_")); t != "Trainer" && lightningClass(t, "Trainer") {
		return "trainer"
	}
	return ""
}

// lightningKeyMapsOf is lightningKeyMaps for a map root whose shape is known.
func lightningKeyMapsOf(root *doc.Node, cli bool) []KeyMap {
	skip := lightningRemovedArgs
	var out []KeyMap
	if tr := root.Get("trainer"); cli && isMap(tr) {
		cp := scalarText(tr.Get("class_path"))
		switch {
		case cp == "":
			out = append(out, KeyMap{Node: tr, At: tr, Section: "Trainer", Name: "Trainer", By: "LightningCLI", Typed: true, Skip: skip, Since: lightningCLISince})
		case lightningClass(cp, "Trainer"):
			// (deprecated-key reads trainer.<key>, not trainer.init_args.<key>: a removed
			// argument here is this map's to report)
			out = append(out, KeyMap{Node: classArgs(tr), Open: tr.Get("dict_kwargs"), At: tr, Section: "Trainer", Name: "Trainer", By: "LightningCLI", Typed: true, Since: lightningCLISince})
		}
		cbs := tr.Get("callbacks")
		if cp != "" {
			cbs = tr.At("init_args.callbacks")
		}
		var items []*doc.Node
		if cbs != nil && cbs.Kind == doc.Seq {
			items = cbs.Children
		} else if isMap(cbs) {
			items = []*doc.Node{cbs}
		}
		for _, it := range items {
			ref := scalarText(it.Get("class_path"))
			for _, cls := range []string{"ModelCheckpoint", "EarlyStopping"} {
				if lightningClass(ref, cls) {
					out = append(out, KeyMap{Node: classArgs(it), Open: it.Get("dict_kwargs"), At: it, Section: cls, Name: cls, By: "LightningCLI", Typed: true, Since: lightningCLISince})
				}
			}
		}
	}
	if cli {
		return out
	}
	// Hydra: maps with a _target_ naming Lightning's classes, at the root (a trainer or callback
	// group file), under trainer:, or one level into a callbacks group.
	seen := map[*doc.Node]bool{}
	var visit func(n *doc.Node, depth int)
	visit = func(n *doc.Node, depth int) {
		if !isMap(n) || seen[n] || depth > 2 {
			return
		}
		seen[n] = true
		t := scalarText(n.Get("_target_"))
		for _, cls := range []string{"Trainer", "ModelCheckpoint", "EarlyStopping"} {
			if t != cls && lightningClass(t, cls) {
				km := KeyMap{Node: n, At: n, Section: cls, Name: cls, By: "Hydra's instantiate", Skip: hydraDirectives}
				if cls == "Trainer" && n == root.Get("trainer") {
					// deprecated-key reports trainer.<removed argument>; elsewhere (a trainer
					// group file's root, flash-attention's all_params.yaml) it reports only
					// those the target still has (lightningTrainerRoot), and one the target
					// lacks is this map's, refused at start-up
					km.Skip = lightningHydraTrainerSkip
				}
				out = append(out, km)
			}
		}
		for _, c := range n.Children {
			if c.Kind == doc.Map {
				visit(c, depth+1)
			} else if c.Kind == doc.Seq && c.Key == "callbacks" {
				for _, it := range c.Children {
					visit(it, depth+1)
				}
			}
		}
	}
	visit(root, 0)
	return out
}

// lightningRejections lists the combinations Lightning's constructors refuse (read at the
// newest version; each carries its check's version range) for the rejected-at-startup rule.
// root is the file's map root (cliBase) and sh its shape, which normalizeLightning has found.
func lightningRejections(d *doc.Document, root *doc.Node, sh lightningShape, p *plan.Plan) {
	kb := KnowledgeOf("lightning")
	if kb == nil {
		return
	}
	for _, pr := range lightningProblems(d, lightningKeyMapsOf(root, sh.variant == "lightning-cli"), kb, "") {
		if !pr.Startup || pr.Node == nil {
			continue
		}
		p.Rejections = append(p.Rejections, plan.Rejection{Node: pr.Node, Key: pr.Node.Path().String(),
			Message: pr.Message, Says: pr.Says, Package: "lightning", Since: strings.TrimPrefix(kb.SinceOf(pr.Check), "v"), Until: pr.Check.Removed,
			Read: strings.TrimPrefix(kb.Newest(), "v"), Source: pr.Source, Help: pr.Help})
	}
}

// lightningProblems checks the values of the maps at the target version.
func lightningProblems(_ *doc.Document, maps []KeyMap, kb *Knowledge, target string) []Problem {
	if kb.Outside(target) {
		return nil // what a release older than every tag read checked is unknown
	}
	var out []Problem
	for _, m := range maps {
		if !m.ReadAt(target) {
			continue
		}
		c := &lightningChecker{kb: kb, target: target, m: m, checks: "@check:" + m.Section}
		c.types()
		switch m.Section {
		case "Trainer":
			c.trainer()
		case "ModelCheckpoint":
			c.modelCheckpoint()
		case "EarlyStopping":
			c.earlyStopping()
		}
		out = append(out, c.out...)
	}
	return out
}

type lightningChecker struct {
	kb     *Knowledge
	target string
	m      KeyMap
	checks string // the table section of m's checks
	out    []Problem
}

// has reports whether the table holds the check (function and if test) at the target version.
func (c *lightningChecker) has(function, test string) bool {
	_, ok := c.check(function, test)
	return ok
}

func (c *lightningChecker) check(function, test string) (Fact, bool) {
	return c.kb.FactWith(c.checks, function, test, c.target)
}

func (c *lightningChecker) get(key string) *doc.Node {
	if c.m.Node == nil {
		return nil
	}
	n := c.m.Node.Get(key)
	if n == nil || n.IsUnknown() || (n.Kind == doc.Scalar && strings.Contains(n.Value, "${")) {
		return nil // absent, or decided by an interpolation
	}
	return n
}

// decided reports a key the file sets to a value only known when the job runs (an interpolation).
func (c *lightningChecker) decided(key string) bool {
	return c.m.Node != nil && c.m.Node.Get(key) != nil && c.get(key) == nil
}

func (c *lightningChecker) bad(n *doc.Node, msg string, choices ...string) {
	c.out = append(c.out, Problem{Node: n, Message: msg, Choices: choices})
}

// refuse records a combination the constructor refuses, with the check's row in the table.
func (c *lightningChecker) refuse(n *doc.Node, function, test, msg, help string) {
	f, ok := c.check(function, test)
	if !ok {
		return
	}
	c.out = append(c.out, Problem{Node: n, AtKey: true, Message: msg, Startup: true, Check: f,
		Source: function, Says: c.says(f.Replacement), Help: help})
}

// replaceFieldRefs replaces each placeholder of a check's f-string message ({self._every_n_epochs},
// {mode!r}: an optional "self." and one leading "_", a word, an optional "!r") with repl of its
// word. A matcher rather than a pattern, so that package regexp stays out of the checker's light
// module (site package documentation).
func replaceFieldRefs(msg string, repl func(word string) string) string {
	var b strings.Builder
	for i := 0; i < len(msg); {
		j := i
		if msg[i] == '{' {
			j++
			j += len(prefixOf(msg[j:], "self."))
			if j < len(msg) && msg[j] == '_' && j+1 < len(msg) && isWordByte(msg[j+1]) {
				j++
			}
			w := j
			for j < len(msg) && isWordByte(msg[j]) {
				j++
			}
			word := msg[w:j]
			j += len(prefixOf(msg[j:], "!r"))
			if word != "" && j < len(msg) && msg[j] == '}' {
				b.WriteString(repl(word))
				i = j + 1
				continue
			}
		}
		b.WriteByte(msg[i])
		i++
	}
	return b.String()
}

// prefixOf is p when s starts with it, else "".
func prefixOf(s, p string) string {
	if strings.HasPrefix(s, p) {
		return p
	}
	return ""
}

// says renders a check's message (an f-string as written in the source) with the file's values.
func (c *lightningChecker) says(msg string) string {
	if len(msg) > 2 && (msg[0] == 'f') {
		msg = msg[1:]
	}
	msg = strings.Trim(msg, `'"`)
	return replaceFieldRefs(msg, func(k string) string {
		if n := c.get(k); n != nil && n.Kind == doc.Scalar {
			if n.IsNull() {
				return "None"
			}
			return n.Value
		}
		if c.m.Node != nil && c.m.Node.Get(k) == nil {
			if f, ok := c.defaultOf(k); ok {
				return strings.Trim(f.Default, "'")
			}
		}
		return "…"
	})
}

// defaultOf is the fact whose Default is the parameter's default at the target version: its
// "@default:" row there when its default changed between tags read, else its key row (whose
// default is the newest, the same at every tag). ok is false when the parameter is not there.
func (c *lightningChecker) defaultOf(key string) (Fact, bool) {
	if _, changed := c.kb.Facts[[2]string{c.m.Section, "@default:" + key}]; changed {
		return c.kb.FactAt(c.m.Section, "@default:"+key, c.target)
	}
	f, ok := c.kb.Sections[c.m.Section][key]
	return f, ok && c.kb.Has(f, c.target)
}

// types checks each value against its parameter's annotation (LightningCLI only).
func (c *lightningChecker) types() {
	if !c.m.Typed || c.m.Node == nil {
		return
	}
	for _, n := range c.m.Node.Children {
		if n.Key == "" || strings.HasPrefix(n.Key, "_") || c.m.Skip[n.Key] || c.m.Section == "Trainer" && n.Key == "precision" {
			continue // precision: its own check below, which also applies under Hydra
		}
		f, ok := c.kb.FactAt(c.m.Section, "@type:"+n.Key, c.target)
		if !ok {
			continue
		}
		t := parsePyType(f.Default)
		if v := c.get(n.Key); v != nil && !t.admits(v) {
			what := map[doc.Kind]string{doc.Map: "a mapping", doc.Seq: "a list"}[v.Kind]
			if what == "" {
				what = strconv.Quote(v.Value)
			}
			var choices []string
			if t.kinds["int"] || t.kinds["float"] || t.kinds["bool"] || v.Kind != doc.Scalar {
				choices = nil
			} else {
				choices = t.literals
			}
			c.bad(v, strconv.Quote(n.Key)+" is "+what+": "+c.m.Name+" declares "+t.describe(), choices...)
		}
	}
}

// number reads a YAML number the way Python would receive it (an unquoted YAML 1.1 base-60
// literal such as 1:30 is an int to PyYAML).
func number(n *doc.Node) (float64, bool, bool) {
	if n == nil || n.Kind != doc.Scalar {
		return 0, false, false
	}
	switch n.Type {
	case doc.Int:
		v, ok := n.Float()
		return v, true, ok
	case doc.Float:
		v, ok := n.Float()
		return v, false, ok
	case doc.String:
		if !n.Quoted && sexagesimal60(n.Value) {
			return float64(sexagesimal(n.Value)), true, true
		}
	}
	return 0, false, false
}

func truthy(n *doc.Node) bool {
	if n == nil || n.IsNull() {
		return false
	}
	if b, ok := n.Bool(); ok {
		return b
	}
	if v, _, ok := number(n); ok {
		return v != 0
	}
	return n.Kind == doc.Scalar && n.Value != ""
}

func (c *lightningChecker) trainer() {
	q := strconv.Quote
	// An interpolated fast_dev_run or overfit_batches may be on: the limits they replace are
	// then not checked.
	fastDev := truthy(c.get("fast_dev_run")) || c.decided("fast_dev_run")
	overfit := c.decided("overfit_batches")
	if v, _, ok := number(c.get("overfit_batches")); ok && v > 0 {
		overfit = true
	}
	// _determine_batch_limits: a fraction in [0, 1] or a whole number of batches; fast_dev_run
	// replaces the limits, overfit_batches the train and val ones (_init_debugging_flags).
	if c.has("_determine_batch_limits", "") {
		for _, k := range []string{"overfit_batches", "limit_train_batches", "limit_val_batches", "limit_test_batches", "limit_predict_batches", "val_check_interval"} {
			n := c.get(k)
			if n == nil || (fastDev && k != "overfit_batches") || (overfit && (k == "limit_train_batches" || k == "limit_val_batches")) {
				continue
			}
			v, _, ok := number(n)
			if ok && !(v >= 0 && v <= 1 || v > 1 && v == float64(int64(v))) {
				c.bad(n, q(k)+" is "+q(n.Value)+": the Trainer takes a fraction in [0.0, 1.0] or a whole number of batches")
			}
		}
	}
	// val_check_interval as text: a "DD:HH:MM:SS" duration from 2.6 (_parse_time_interval_seconds),
	// before that not a value the Trainer can compare.
	if n := c.get("val_check_interval"); n != nil && n.Kind == doc.Scalar && n.Type == doc.String && !fastDev {
		if _, _, isNum := number(n); !isNum {
			if _, err := strconv.ParseFloat(strings.TrimSpace(n.Value), 64); err != nil {
				if c.has("_parse_time_interval_seconds", "isinstance(value, str) and len(parts) != 4") {
					parts := strings.Split(n.Value, ":")
					okParts := len(parts) == 4
					for _, p := range parts {
						if _, err := strconv.Atoi(strings.TrimSpace(p)); err != nil {
							okParts = false
						}
					}
					if !okParts {
						c.bad(n, q("val_check_interval")+" is "+q(n.Value)+": a duration must be \"DD:HH:MM:SS\" with whole numbers")
					}
				} else if !c.m.Typed {
					c.bad(n, q("val_check_interval")+" is "+q(n.Value)+": this Lightning version takes a number of batches or a fraction of an epoch, not text")
				}
			}
		}
	}
	// _DataConnector.on_trainer_init.
	cve := c.get("check_val_every_n_epoch")
	if cve != nil && !cve.IsNull() && c.has("_DataConnector.on_trainer_init", "check_val_every_n_epoch is not None and (not isinstance(check_val_every_n_epoch, int))") {
		if _, isInt, ok := number(cve); !ok || !isInt {
			c.bad(cve, q("check_val_every_n_epoch")+" is "+q(cve.Value)+": the Trainer takes an integer or null")
		}
	}
	if cve != nil && cve.IsNull() && c.has("_DataConnector.on_trainer_init", "check_val_every_n_epoch is None and isinstance(val_check_interval, float)") {
		if v := c.get("val_check_interval"); v != nil && v.Kind == doc.Scalar && v.Type == doc.Float {
			c.refuse(v, "_DataConnector.on_trainer_init", "check_val_every_n_epoch is None and isinstance(val_check_interval, float)",
				"val_check_interval is the fraction "+q(v.Value)+" with check_val_every_n_epoch null",
				"give check_val_every_n_epoch an integer (e.g. 1), or val_check_interval a whole number of training batches")
		}
	}
	if n := c.get("reload_dataloaders_every_n_epochs"); n != nil && !n.IsNull() && c.has("_DataConnector.on_trainer_init", "not isinstance(reload_dataloaders_every_n_epochs, int) or reload_dataloaders_every_n_epochs < 0") {
		if v, isInt, ok := number(n); !ok || !isInt || v < 0 {
			c.bad(n, q("reload_dataloaders_every_n_epochs")+" is "+q(n.Value)+": the Trainer takes an integer >= 0")
		}
	}
	// Gradient clipping: refused in Trainer.__init__ from 1.5.0 (trainer.py@1.5.0), before that by
	// the training-tricks connector it calls, lower-cased at 1.4.9, as written from 1.3.0
	// (trainer/connectors/training_trick_connector.py:39-40@1.3.0, `not in
	// list(GradClipAlgorithmType)`).
	const tricks = "TrainingTricksConnector.on_trainer_init"
	asWritten := c.has(tricks, "gradient_clip_algorithm not in list(GradClipAlgorithmType)")
	if n := c.get("gradient_clip_algorithm"); n != nil && n.Kind == doc.Scalar && n.Type == doc.String &&
		(c.has("Trainer.__init__", "gradient_clip_algorithm is not None and (not GradClipAlgorithmType.supported_type(gradient_clip_algorithm.lower()))") ||
			c.has(tricks, "not GradClipAlgorithmType.supported_type(gradient_clip_algorithm.lower())") || asWritten) {
		if e, ok := c.kb.FactAt("@enum:Trainer", "gradient_clip_algorithm", c.target); ok {
			vals := strings.Split(e.Default, "|")
			v := n.Value
			if e.Replacement == "lower" && !asWritten {
				v = strings.ToLower(v)
			}
			if !contains(vals, v) {
				c.bad(n, q("gradient_clip_algorithm")+" is "+q(n.Value)+": the Trainer takes "+strings.Join(quoteAll(vals), " or "), vals...)
			}
		}
	}
	if n := c.get("gradient_clip_val"); n != nil && !n.IsNull() && n.Kind == doc.Scalar && c.has("Trainer.__init__", "gradient_clip_val is not None and (not isinstance(gradient_clip_val, (int, float)))") {
		if _, _, ok := number(n); !ok && !(c.m.Typed && isNumeric(n.Value)) {
			c.bad(n, q("gradient_clip_val")+" is "+q(n.Value)+": the Trainer takes an int or a float")
		}
	}
	// _convert_precision_to_unified_args: one of the precision literals.
	if n := c.get("precision"); n != nil && n.Kind == doc.Scalar && !n.IsNull() && c.has("_convert_precision_to_unified_args", "precision not in supported_precision") {
		if f, ok := c.kb.FactAt("Trainer", "@type:precision", c.target); ok {
			t := parsePyType(f.Default)
			v := n.Value
			if x, isInt, ok := number(n); ok && !isInt && x == float64(int64(x)) {
				v = strconv.FormatInt(int64(x), 10) // 16.0 == 16 in Python
			}
			if len(t.literals) > 0 && !contains(t.literals, v) {
				var strs []string
				for _, l := range t.literals {
					if _, err := strconv.Atoi(l); err != nil && !contains(strs, l) {
						strs = append(strs, l)
					}
				}
				c.bad(n, q("precision")+" is "+q(n.Value)+": the Trainer takes one of "+strings.Join(quoteAll(strs), ", ")+" (or 64, 32, 16)", strs...)
			}
		}
	}
	// _init_debugging_flags.
	if n := c.get("fast_dev_run"); n != nil && c.has("_init_debugging_flags", "isinstance(fast_dev_run, int) and fast_dev_run < 0") {
		if v, isInt, ok := number(n); ok && isInt && v < 0 {
			c.bad(n, q("fast_dev_run")+" is "+q(n.Value)+": the Trainer takes a number of batches >= 0, or true")
		}
	}
	// Trainer.__init__: barebones turns off what these switch on.
	if b := c.get("barebones"); b != nil && truthy(b) {
		for _, k := range []struct{ key, test string }{
			{"enable_checkpointing", "barebones and enable_checkpointing"},
			{"logger", "barebones and logger is not None and logger is not False"},
			{"enable_progress_bar", "barebones and enable_progress_bar"},
			{"log_every_n_steps", "barebones and log_every_n_steps is not None and log_every_n_steps != 0"},
			{"enable_model_summary", "barebones and enable_model_summary"},
			{"num_sanity_val_steps", "barebones and num_sanity_val_steps is not None and num_sanity_val_steps != 0"},
			{"fast_dev_run", "barebones and fast_dev_run is not False and fast_dev_run != 0"},
			{"detect_anomaly", "barebones and detect_anomaly"},
			{"profiler", "barebones and profiler is not None"},
		} {
			n := c.get(k.key)
			if n == nil || n.IsNull() {
				continue
			}
			on := truthy(n)
			if k.key == "profiler" || k.key == "logger" {
				on = !(n.Type == doc.Bool && !truthy(n))
			}
			if on {
				c.refuse(n, "Trainer.__init__", k.test, k.key+" is "+q(n.Value)+" with barebones true",
					"remove "+k.key+" (barebones mode turns it off), or set barebones to false")
			}
		}
	}
}

// mode checks mode against the callback's value set where the callback refuses another
// value (test in function; from 1.3.0). In 1.2.x both callbacks refuse one that is not "auto"
// either (legacy: pytorch_lightning/callbacks/model_checkpoint.py:303-304 and
// early_stopping.py:102-104, __init_monitor_mode, @1.2.10); before 1.2.0 an unknown mode fell
// back to "auto" with a warning (model_checkpoint.py:323-329, early_stopping.py:99-106 @1.1.8).
func (c *lightningChecker) mode(function, test, legacyFunction, legacyTest string) {
	n := c.get("mode")
	if n == nil || n.Kind != doc.Scalar || n.IsNull() {
		return
	}
	legacy := !c.has(function, test)
	if legacy && !c.has(legacyFunction, legacyTest) {
		return
	}
	e, ok := c.kb.FactAt("@enum:"+c.m.Section, "mode", c.target)
	if !ok {
		return
	}
	vals := strings.Split(e.Default, "|")
	if legacy && !contains(vals, "auto") {
		vals = append(vals, "auto")
	}
	if !contains(vals, n.Value) {
		c.bad(n, strconv.Quote("mode")+" is "+strconv.Quote(n.Value)+": "+c.m.Name+" takes "+strings.Join(quoteAll(vals), " or "), vals...)
	}
}

func (c *lightningChecker) modelCheckpoint() {
	q := strconv.Quote
	c.mode("ModelCheckpoint.__init_monitor_mode", "mode not in mode_dict", "ModelCheckpoint.__init_monitor_mode", "mode not in mode_dict and mode != 'auto'")
	const fn = "ModelCheckpoint.__validate_init_configuration"
	intOf := func(k string) (int, *doc.Node, bool) {
		n := c.get(k)
		v, isInt, ok := number(n)
		return int(v), n, ok && isInt
	}
	k, kn, kOK := intOf("save_top_k")
	if kOK && k < -1 && c.has(fn, "self.save_top_k < -1") {
		c.bad(kn, q("save_top_k")+" is "+q(kn.Value)+": ModelCheckpoint takes -1 (all), 0 (none) or a positive count")
	}
	steps, sn, sOK := intOf("every_n_train_steps")
	if sOK && steps < 0 && c.has(fn, "self._every_n_train_steps < 0") {
		c.bad(sn, q("every_n_train_steps")+" is "+q(sn.Value)+": ModelCheckpoint takes a value >= 0")
	}
	epochs, en, eOK := intOf("every_n_epochs")
	if eOK && epochs < 0 && c.has(fn, "self._every_n_epochs < 0") {
		c.bad(en, q("every_n_epochs")+" is "+q(en.Value)+": ModelCheckpoint takes a value >= 0")
	}
	// Mutually exclusive save triggers.
	var on []*doc.Node
	if sOK && steps >= 1 {
		on = append(on, sn)
	}
	if eOK && epochs >= 1 {
		on = append(on, en)
	}
	if t := c.get("train_time_interval"); t != nil && !t.IsNull() {
		on = append(on, t)
	}
	if len(on) > 1 {
		var names []string
		for _, n := range on {
			names = append(names, n.Key)
		}
		c.refuse(on[1], fn, "every_n_train_steps_triggered + every_n_epochs_triggered + train_time_interval_triggered > 1",
			strings.Join(names, " and ")+" are both set: ModelCheckpoint takes one save trigger",
			"keep one of every_n_train_steps, every_n_epochs and train_time_interval and remove the others")
	}
	// Hydra passes a string (or number) on as it is, ModelCheckpoint keeps it, and after the
	// first training batch calls train_time_interval.total_seconds() (on_train_batch_end,
	// callbacks/model_checkpoint.py:437 at 2.6.5), which neither has: the run stops there.
	if t := c.get("train_time_interval"); t != nil && !c.m.Typed && t.Kind == doc.Scalar && !t.IsNull() && t.Type != doc.Bool {
		if _, ok := c.defaultOf("train_time_interval"); ok {
			c.bad(t, q("train_time_interval")+" is "+q(t.Value)+": "+c.m.By+" passes it on as it is, and ModelCheckpoint calls its total_seconds() after the first training batch, which stops the run; give a datetime.timedelta (_target_: datetime.timedelta, hours: 3)")
		}
	}
	// save_top_k other than -1/0/1 without a monitor.
	noMonitor := c.m.Node == nil || (c.m.Node.Get("monitor") == nil || c.m.Node.Get("monitor").IsNull())
	if kOK && noMonitor && k > 1 {
		c.refuse(kn, fn, "self.monitor is None and self.save_top_k not in (-1, 0, 1)",
			"save_top_k is "+kn.Value+" without a monitor: ModelCheckpoint has no metric to rank checkpoints by",
			"give ModelCheckpoint a monitor (a logged metric such as val_loss, with mode), or set save_top_k to 1 (the latest) or -1 (all)")
	}
}

func (c *lightningChecker) earlyStopping() {
	c.mode("EarlyStopping.__init__", "self.mode not in self.mode_dict", "EarlyStopping.__init_monitor_mode", "self.mode not in self.mode_dict and self.mode != 'auto'")
	// monitor has no default in EarlyStopping.__init__ from 1.6.0 (before, 'early_stop_on' and
	// then None: pytorch_lightning/callbacks/early_stopping.py@1.3.8, @1.5.10): leaving it out
	// is a TypeError.
	if f, ok := c.defaultOf("monitor"); ok && f.Default == "@required" &&
		(c.m.Node == nil || c.m.Node.Get("monitor") == nil) {
		says := "EarlyStopping.__init__() missing 1 required positional argument: 'monitor'" // Python's TypeError under Hydra
		if c.m.Typed {
			says = "" // jsonargparse words its own
		}
		c.out = append(c.out, Problem{Node: c.m.At, AtKey: true, Startup: true, Check: f, Source: "EarlyStopping.__init__",
			Message: "EarlyStopping has no monitor, a required argument", Says: says,
			Help: "give EarlyStopping the logged metric to watch (monitor: val_loss) and its mode",
		})
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func isNumeric(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil
}
