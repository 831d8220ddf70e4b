package dialect

import (
	"path"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// The Trainer ↔ DeepSpeed consistency check, checked in huggingface/transformers @0234833
// (src/transformers/integrations/deepspeed.py, HfTrainerDeepSpeedConfig): trainer_config_process
// fills every DeepSpeed value written "auto" from TrainingArguments, and records every other
// value that differs from the TrainingArguments one (fill_match: a missing key or block, or
// null, is not compared); trainer_config_finalize then raises "Please correct the following
// DeepSpeed config values that mismatch TrainingArguments values" before training starts. The
// pairs compared are:
//
//	train_micro_batch_size_per_gpu  per_device_train_batch_size (not with auto_find_batch_size)
//	gradient_accumulation_steps     gradient_accumulation_steps
//	train_batch_size                world_size × per_device_train_batch_size × accumulation (idem)
//	gradient_clipping               max_grad_norm (1.0)
//	optimizer.params.lr             learning_rate (5e-5; a TRL config class's own, trl_defaults.go); scheduler.params.warmup_max_lr too
//	optimizer.params.betas          [adam_beta1, adam_beta2] (0.9, 0.999)
//	optimizer.params.eps            adam_epsilon (1e-8)
//	optimizer.params.weight_decay   weight_decay (0.0)
//	fp16.enabled                    fp16 or fp16_full_eval (with the amp backend)
//	bf16.enabled                    bf16 or bf16_full_eval
//
// TRL, axolotl and LLaMA-Factory hand their recipe to the same Trainer: the batch and
// precision facts of their plans are what the Trainer receives (axolotl's micro_batch_size is
// per_device_train_batch_size; it passes fp16 only when bf16 is off). The optimizer values are
// compared for the Trainer's own keys (Hugging Face and LLaMA-Factory recipes) only.

// trainerRecipe reports whether a dialect's recipes become TrainingArguments (a switch, not a map
// built at init: see isBNKey).
func trainerRecipe(dialect string) bool {
	return dialect == "axolotl" || trainerKeys(dialect)
}

// trainerKeys reports whether a dialect's recipes use TrainingArguments' own names and defaults.
func trainerKeys(dialect string) bool {
	return dialect == "huggingface" || dialect == "llama-factory"
}

// JoinDeepSpeed adds to p the values of the DeepSpeed config ds (named by the recipe at ref)
// that the Trainer refuses, given the recipe root. Frameworks whose recipe is not handed to
// the Trainer add nothing (what they do with the file is not modelled).
//
// key is the path of the key that named the file: a recipe's deepspeed (or a launcher's
// deepspeed_config_file) for the Trainer, a strategy's config for Lightning; a key the
// framework does not read adds nothing.
func JoinDeepSpeed(d *Dialect, p *plan.Plan, recipe *doc.Node, key string, ref *doc.Node, ds *doc.Document) {
	if d == nil || p == nil || ds == nil || ds.Root == nil || ds.Root.Kind != doc.Map {
		return
	}
	if d.Name == "lightning" {
		if strings.HasPrefix(key, "trainer.strategy.") {
			dsReadWithJSON(p, ds, ref, lightningJSON)
			lightningDeepSpeed(p, ref, ds)
		}
		return
	}
	if !trainerRecipe(d.Name) || (key != "deepspeed" && key != "deepspeed_config.deepspeed_config_file") {
		return
	}
	if recipe == nil || recipe.Kind != doc.Map {
		return
	}
	dsReadWithJSON(p, ds, ref, trainerJSON)
	j := &dsJoin{p: p, ds: ds.Root, ref: ref, file: path.Base(ds.Path)}
	if ref != nil && ref.Kind == doc.Map {
		j.file = "the inline DeepSpeed config"
	}
	autoBatch := false
	if f, ok := pyBoolAt(recipe, "auto_find_batch_size"); ok && (!f.Known() || f.Value) {
		autoBatch = true // the Trainer does not compare the batch sizes then (or we cannot tell)
	}
	t := p.Train
	if !autoBatch && t.Granularity == plan.PerDevice {
		j.intFact("batch", "train_micro_batch_size_per_gpu", t.PerDeviceBatch)
	}
	j.intFact("batch", "gradient_accumulation_steps", t.GradAccum)
	if devices, ok := p.Topology.Devices(); !autoBatch && ok && devices > 0 && t.PerDeviceBatch.Known() && t.GradAccum.Known() &&
		t.Granularity == plan.PerDevice {
		want := devices * t.PerDeviceBatch.Value * t.GradAccum.Value
		why := t.PerDeviceBatch.Key + " " + itoa(t.PerDeviceBatch.Value) + " × " + t.GradAccum.Key + " " + itoa(t.GradAccum.Value) + " × " + itoa(devices) + " devices"
		j.number("batch", "train_batch_size", float64(want), "the global batch "+itoa(want)+" (= "+why+")", t.PerDeviceBatch.Node, why)
	}
	j.precision(d, recipe)
	if trainerKeys(d.Name) {
		j.trainerNumber(recipe, "gradient_clipping", "max_grad_norm", 1.0)
		// The recipe's learning rate, or the default its TRL config class gives (unknown, so
		// not compared, when the recipe could be classes with different defaults).
		j.floatFact("optimizer.params.lr", p.Schedule.LearningRate)
		j.floatFact("scheduler.params.warmup_max_lr", p.Schedule.LearningRate)
		j.trainerNumber(recipe, "optimizer.params.eps", "adam_epsilon", 1e-8)
		j.trainerNumber(recipe, "optimizer.params.weight_decay", "weight_decay", 0.0)
		j.betas(recipe)
	}
}

type dsJoin struct {
	p    *plan.Plan
	ds   *doc.Node
	ref  *doc.Node
	file string
}

const dsRefuses = "the Trainer refuses DeepSpeed values that differ from its own at start-up"

// dsValue returns the DeepSpeed value at key when the Trainer compares it: present, not
// "auto", not null. ok is false otherwise (and for values of a type we do not compare).
func (j *dsJoin) dsValue(key string) (*doc.Node, bool) {
	n := j.ds.At(key)
	if n == nil || !n.IsScalar() || n.IsNull() || n.IsUnknown() {
		return nil, false
	}
	if n.Type == doc.String {
		return nil, false // "auto" is filled in; any other text is not compared here
	}
	return n, true
}

func (j *dsJoin) add(concept, key string, n *doc.Node, msg string, other *doc.Node, otherNote string) {
	if other == nil {
		other = j.ref
		if otherNote != "" {
			otherNote += "; the recipe names " + j.file + " here"
		}
	}
	rel := []plan.Related{{Node: other, Message: otherNote}}
	if concept == "batch" && key == "train_batch_size" {
		// The device count comes from the launch context: point at it when a file set it.
		topo := j.p.Topology
		if n := topo.DevicesPerHost.Node; n != nil {
			rel = append(rel, plan.Related{Node: n, Message: topo.DevicesPerHost.Key + " gives " + itoa(topo.DevicesPerHost.Value) + " devices per host"})
		}
		if n := topo.Hosts.Node; n != nil {
			rel = append(rel, plan.Related{Node: n, Message: topo.Hosts.Key + " gives " + itoa(topo.Hosts.Value) + " hosts"})
		}
	}
	help := "set " + key + " to \"auto\" in " + j.file + " so it takes the Trainer's value, or make the two equal"
	if concept == "" {
		// Not a batch or precision value: a start-up refusal of its own (rejected-at-startup).
		r := plan.Rejection{Node: n, Key: key, Message: msg,
			Says:    "Please correct the following DeepSpeed config values that mismatch TrainingArguments values",
			Package: "transformers", Source: "HfTrainerDeepSpeedConfig.trainer_config_finalize", Help: help}
		if other != nil {
			r.Related = rel
		}
		j.p.Rejections = append(j.p.Rejections, r)
		return
	}
	j.p.Mismatches = append(j.p.Mismatches, plan.Mismatch{
		Concept: concept, Key: key, Node: n, Message: msg + ": " + dsRefuses,
		Help:    help,
		Related: rel,
	})
}

// intFact compares an integer DeepSpeed value with a known plan fact of the recipe.
func (j *dsJoin) intFact(concept, key string, f plan.Fact[int]) {
	if !f.Known() {
		return
	}
	why := f.Key + " is " + itoa(f.Value) + " here"
	var at *doc.Node
	if f.IsExplicit() {
		at = f.Node
	} else {
		why = f.Key + " is not set: " + byOr(f.By) + " " + itoa(f.Value)
	}
	j.number(concept, key, float64(f.Value), f.Key+" "+itoa(f.Value), at, why)
}

// floatFact compares a DeepSpeed number with a known plan fact of the recipe (an optimizer
// value: a start-up refusal of its own).
func (j *dsJoin) floatFact(key string, f plan.Fact[float64]) {
	if !f.Known() {
		return
	}
	note := f.Key + " is " + fmtNum(f.Value) + " here"
	var at *doc.Node
	if f.IsExplicit() {
		at = f.Node
		note = f.Key + " is " + f.Node.Value + " here"
	} else {
		note = f.Key + " is not set: " + byOr(f.By) + " " + fmtNum(f.Value)
	}
	j.number("", key, f.Value, f.Key+" "+fmtNum(f.Value), at, note)
}

// number compares a numeric DeepSpeed value with want (Python's == on int and float).
func (j *dsJoin) number(concept, key string, want float64, wantText string, other *doc.Node, otherNote string) {
	n, ok := j.dsValue(key)
	if !ok {
		return
	}
	v, isNum := n.Float()
	if !isNum || n.Type == doc.Bool || v == want {
		return
	}
	j.add(concept, key, n, key+" "+n.Value+" in "+j.file+" ≠ "+wantText, other, otherNote)
}

func byOr(by string) string {
	if by == "" {
		return "the default"
	}
	return by
}

// trainerNumber compares a DeepSpeed number with a TrainingArguments number (its default when
// the recipe does not set it; silent when the recipe's value is not a plain number).
func (j *dsJoin) trainerNumber(recipe *doc.Node, dsKey, hfKey string, def float64) {
	f, ok := FloatAt(recipe, hfKey)
	note := hfKey + " is " + fmtNum(def) + " here"
	var at *doc.Node
	switch {
	case !ok || (f.Node != nil && f.Node.IsNull()):
		f = plan.Defaulted(def, hfKey, plan.Why{}, nil)
		note = hfKey + " is not set: the Trainer default " + fmtNum(def)
	case !f.Known():
		return
	default:
		at = f.Node
		note = hfKey + " is " + f.Node.Value + " here"
	}
	j.number("", dsKey, f.Value, hfKey+" "+fmtNum(f.Value), at, note)
}

// betas compares optimizer.params.betas with [adam_beta1, adam_beta2].
func (j *dsJoin) betas(recipe *doc.Node) {
	n := j.ds.At("optimizer.params.betas")
	if n == nil || n.Kind != doc.Seq || len(n.Children) != 2 {
		return
	}
	want := [2]float64{0.9, 0.999}
	for i, k := range []string{"adam_beta1", "adam_beta2"} {
		if f, ok := FloatAt(recipe, k); ok && !(f.Node != nil && f.Node.IsNull()) {
			if !f.Known() {
				return
			}
			want[i] = f.Value
		}
	}
	for i, c := range n.Children {
		v, ok := c.Float()
		if !ok || c.Type == doc.String {
			return
		}
		if v != want[i] {
			j.add("", "optimizer.params.betas", n, "optimizer.params.betas in "+j.file+" ≠ [adam_beta1, adam_beta2] = ["+fmtNum(want[0])+", "+fmtNum(want[1])+"]",
				recipe.Get([]string{"adam_beta1", "adam_beta2"}[i]), "adam_beta1 and adam_beta2 ("+fmtNum(want[0])+", "+fmtNum(want[1])+") are the recipe's")
			return
		}
	}
}

// precision compares fp16.enabled and bf16.enabled with what the recipe hands the Trainer.
func (j *dsJoin) precision(d *Dialect, recipe *doc.Node) {
	pr := j.p.Precision
	fp, bf := pr.FP16, pr.BF16
	fpKey, bfKey := fp.Key, bf.Key
	if trainerKeys(d.Name) {
		// fp16_full_eval and bf16_full_eval count as on (the Trainer's "fp16|fp16_full_eval").
		if e, ok := pyBoolAt(recipe, "fp16_full_eval"); ok {
			fp = orFact(fp, e)
			fpKey += " or fp16_full_eval"
		}
		if e, ok := pyBoolAt(recipe, "bf16_full_eval"); ok {
			bf = orFact(bf, e)
			bfKey += " or bf16_full_eval"
		}
		// The apex backend turns amp.enabled on instead of fp16.enabled: not modelled.
		for _, k := range []string{"half_precision_backend", "fp16_backend"} {
			if s, ok := StrAt(recipe, k); ok && (!s.Known() || strings.EqualFold(s.Value, "apex")) {
				fp = plan.Fact[bool]{}
			}
		}
	}
	if d.Name == "axolotl" && fp.Known() {
		// axolotl passes fp16 to the Trainer only when bf16 is off.
		if !bf.Known() {
			fp = plan.Fact[bool]{}
		} else if bf.Value {
			fp = plan.Fact[bool]{Value: false, Origin: plan.Derived, Key: fp.Key, Node: fp.Node}
			fpKey = fp.Key + " (off while " + bf.Key + " is on)"
		}
	}
	j.boolFact("fp16.enabled", fp, fpKey)
	j.boolFact("bf16.enabled", bf, bfKey)
}

func orFact(a, b plan.Fact[bool]) plan.Fact[bool] {
	if !a.Known() || !b.Known() {
		return plan.Fact[bool]{Key: a.Key, Node: a.Node}
	}
	if b.Value && !a.Value {
		return b
	}
	return a
}

func (j *dsJoin) boolFact(dsKey string, f plan.Fact[bool], hfKey string) {
	if !f.Known() {
		return
	}
	n := j.ds.At(dsKey)
	if n == nil || !n.IsScalar() || n.Type != doc.Bool {
		return
	}
	v, ok := n.Bool()
	if !ok || v == f.Value {
		return
	}
	note := hfKey + " is " + strconv.FormatBool(f.Value) + " here"
	var at *doc.Node
	switch {
	case f.Node != nil && f.Origin != plan.Default:
		at = f.Node
	default:
		note = f.Key + " is not set: " + byOr(f.By) + " " + strconv.FormatBool(f.Value)
	}
	j.add("precision", dsKey, n, dsKey+" "+n.Value+" in "+j.file+" ≠ "+hfKey+" "+strconv.FormatBool(f.Value), at, note)
}

func itoa(n int) string { return strconv.Itoa(n) }

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func orStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// LauncherContext completes ctx from an accelerate config file (the --config_file of
// `accelerate launch`), checked in huggingface/accelerate v1.14.0
// (src/accelerate/commands/config/config_args.py, commands/launch.py): num_machines (default
// 1) is the number of hosts and num_processes the total number of processes over all of them
// (default -1, unknown; 1 when distributed_type is NO), so devices per host is
// num_processes / num_machines. Values the command line gave (--hosts, --devices-per-host) are
// kept. accelerate reads no config beside the training script: without --config_file it reads
// the one under HF_HOME, outside any repository, so a launcher is only known when the run
// declares it.
func LauncherContext(ctx *Context, root *doc.Node) {
	if root == nil || root.Kind != doc.Map {
		return
	}
	hosts, hostsNode := 1, root.Get("num_machines")
	if hostsNode != nil {
		v, ok := hostsNode.Int()
		if !ok || v < 1 {
			return
		}
		hosts = int(v)
	}
	procs := -1
	procsNode := root.Get("num_processes")
	if procsNode != nil {
		if v, ok := procsNode.Int(); ok {
			procs = int(v)
		}
	} else if dt := root.Get("distributed_type"); dt != nil && strings.EqualFold(strings.TrimSpace(dt.Value), "NO") {
		procs = 1
	}
	if ctx.Hosts == 0 {
		ctx.Hosts, ctx.HostsKey, ctx.HostsNode = hosts, "num_machines", hostsNode
	}
	if ctx.DevicesPerHost == 0 && procs > 0 && procs%hosts == 0 {
		ctx.DevicesPerHost, ctx.DevicesKey, ctx.DevicesNode = procs/hosts, "num_processes / num_machines", procsNode
	}
}

// lightningDeepSpeed: Lightning's DeepSpeedStrategy (Lightning-AI/pytorch-lightning @015e167,
// src/lightning/pytorch/strategies/deepspeed.py, _format_batch_size_and_grad_accum_config)
// raises a MisconfigurationException when its config holds gradient_accumulation_steps at all
// (whatever the value, "auto" included): the Trainer's accumulate_grad_batches sets it. It
// fills train_micro_batch_size_per_gpu and gradient_clipping only when they are absent, and
// adds fp16/bf16 blocks only when the config has none, so a config's own values win without a
// refusal: those are not reported.
func lightningDeepSpeed(p *plan.Plan, ref *doc.Node, ds *doc.Document) {
	n := ds.Root.Get("gradient_accumulation_steps")
	if n == nil {
		return
	}
	r := plan.Rejection{Node: n, Key: "gradient_accumulation_steps",
		Message: "gradient_accumulation_steps is set in " + path.Base(ds.Path) + ", the DeepSpeed config of a Lightning DeepSpeedStrategy",
		Says:    "Do not set `gradient_accumulation_steps` in the DeepSpeed config",
		Package: "lightning", Source: "DeepSpeedStrategy._format_batch_size_and_grad_accum_config",
		Help: "remove gradient_accumulation_steps from the DeepSpeed config and set trainer.accumulate_grad_batches instead"}
	if ref != nil && ref.Kind != doc.Map {
		r.Related = []plan.Related{{Node: ref, Message: "the strategy's config names the file here"}}
	}
	p.Rejections = append(p.Rejections, r)
}

// accelerateIgnored are the deepspeed_config keys of an accelerate config file that
// DeepSpeedPlugin._deepspeed_config_checks refuses next to a deepspeed_config_file (accelerate
// v1.14.0, src/accelerate/utils/dataclasses.py; launch.py passes the keys of deepspeed_config,
// and mixed_precision when the config file sets it, in ACCELERATE_CONFIG_DS_FIELDS).
var accelerateIgnored = []string{"gradient_accumulation_steps", "gradient_clipping", "zero_stage",
	"offload_optimizer_device", "offload_param_device", "offload_param_nvme_path",
	"offload_optimizer_nvme_path", "zero3_save_16bit_model"}

// LauncherRejections adds the start-up checks an accelerate config file fails when it names a
// DeepSpeed config file (deepspeed_config.deepspeed_config_file with distributed_type
// DEEPSPEED), checked in accelerate v1.14.0: DeepSpeedPlugin raises "When using
// `deepspeed_config_file`, the following accelerate config variables will be ignored" when the
// config file also sets one of accelerateIgnored under deepspeed_config, or mixed_precision
// (launch.py counts it when it comes from the config file rather than --mixed_precision), and
// "Please specify the ZeRO optimization config in the DeepSpeed config." when the DeepSpeed
// file has no zero_optimization section. ds is the DeepSpeed file (nil when it was not read).
func LauncherRejections(p *plan.Plan, launcher *doc.Node, ds *doc.Document) {
	if p == nil || launcher == nil || launcher.Kind != doc.Map {
		return
	}
	if dt := launcher.Get("distributed_type"); dt == nil || !strings.EqualFold(strings.TrimSpace(dt.Value), "DEEPSPEED") {
		return
	}
	dc := launcher.Get("deepspeed_config")
	file := dc.Get("deepspeed_config_file")
	if file == nil || !file.IsScalar() || file.IsNull() || strings.EqualFold(strings.TrimSpace(file.Value), "none") {
		return
	}
	reject := func(n *doc.Node, key, msg, says, help string) {
		p.Rejections = append(p.Rejections, plan.Rejection{Node: n, Key: key, Message: msg, Says: says, Help: help,
			Package: "accelerate", Read: "1.14.0", Source: "DeepSpeedPlugin (accelerate/utils/dataclasses.py)",
			Related: []plan.Related{{Node: file, Message: "deepspeed_config_file names the DeepSpeed config here"}}})
	}
	const says = "When using `deepspeed_config_file`, the following accelerate config variables will be ignored"
	for _, k := range accelerateIgnored {
		if n := dc.Get(k); n != nil {
			reject(n, "deepspeed_config."+k, "deepspeed_config."+k+" is set next to deepspeed_config_file", says,
				"remove "+k+" from the accelerate config and set it in the DeepSpeed file")
		}
	}
	if n := launcher.Get("mixed_precision"); n != nil && !n.IsNull() {
		reject(n, "mixed_precision", "mixed_precision is set in an accelerate config that names a deepspeed_config_file", says,
			"remove mixed_precision from the accelerate config and set fp16/bf16 in the DeepSpeed file (or pass --mixed_precision)")
	}
	if ds != nil && ds.Root != nil && ds.Root.Kind == doc.Map && ds.Root.Get("zero_optimization") == nil {
		reject(file, "deepspeed_config.deepspeed_config_file", path.Base(ds.Path)+" has no zero_optimization section",
			"Please specify the ZeRO optimization config in the DeepSpeed config.", "add a zero_optimization section (with its stage) to the DeepSpeed file")
	}
}

// dsJSONReader is who reads a DeepSpeed file with Python's json for a run: the package and the
// versions read (plan.Rejection's fields) and where it reads it.
type dsJSONReader struct{ pkg, since, read, source, who string }

// trainerJSON: TrainingArguments builds HfTrainerDeepSpeedConfig from the recipe's deepspeed
// path (transformers @0234833 integrations/deepspeed.py), and accelerate's launcher config builds
// a DeepSpeedPlugin from deepspeed_config_file; both read the file through accelerate's
// HfDeepSpeedConfig, which calls json.load (utils/deepspeed.py, v0.20.0 to v1.14.0).
var trainerJSON = dsJSONReader{"accelerate", "0.20.0", "1.14.0", "accelerate's HfDeepSpeedConfig, which reads the DeepSpeed file with json.load for the Trainer and for accelerate launch", "the Trainer"}

// lightningJSON: DeepSpeedStrategy.__init__ calls _load_config, which reads a config path with
// json.load (lightning 2.0.0 to 2.6.0, pytorch/strategies/deepspeed.py).
var lightningJSON = dsJSONReader{"lightning", "2.0.0", "2.6.0", "DeepSpeedStrategy._load_config, which reads the strategy's config file with json.load", "Lightning"}

// dsReadWithJSON records that the run stops at start-up on a DeepSpeed file Python's json
// refuses (a comment, a trailing comma, the rest of JSON5's or hjson's syntax: the reader's
// NonStandard problems), read by rd. DeepSpeed's own launcher reads the file with hjson, which accepts these:
// the file alone gets only a note. json.load stops at the first construct, so only the first is
// reported, on the construct itself (Span; Node is the innermost value that holds it, which
// places it in the DeepSpeed file). A config written inline in the recipe (ref a map) is no file
// json reads.
func dsReadWithJSON(p *plan.Plan, ds *doc.Document, ref *doc.Node, rd dsJSONReader) {
	if ref != nil && ref.Kind == doc.Map {
		return
	}
	// A file read as YAML (ds.yaml) is still read with json.load: what the JSON reader finds
	// in its text is what stops the run (a YAML mapping has no braces).
	probs, notJSON := ds.Problems, ds.Format != doc.JSON
	if notJSON {
		probs = doc.Parse(ds.Path, ds.Src, doc.JSON, doc.Limits{}).Problems
	}
	var first *doc.Problem
	for i := range probs {
		pr := &probs[i]
		if (pr.Kind == doc.NonStandard || notJSON && pr.Kind == doc.Syntax) && (first == nil || pr.Span.Start.Offset < first.Span.Start.Offset) {
			first = pr
		}
	}
	if first == nil {
		return
	}
	at, off := ds.Root, first.Span.Start.Offset
	for found := true; found; {
		found = false
		for _, c := range at.Children {
			if c.Span.Start.Offset <= off && off < c.Span.End.Offset {
				at, found = c, true
				break
			}
		}
	}
	file := path.Base(ds.Path)
	msg := first.Message
	if notJSON {
		msg = file + " is read as JSON: " + msg
	}
	r := plan.Rejection{
		Node: at, Key: at.Path().String(), Span: first.Span,
		Message: msg + ", which Python's json refuses",
		Says:    "json.decoder.JSONDecodeError",
		Package: rd.pkg, Since: rd.since, Read: rd.read, Source: rd.source,
		Help: "write " + file + " as plain JSON: keys and strings in double quotes, a ',' between members, decimal numbers, no comments or trailing commas (DeepSpeed's own launcher reads it with hjson, " + rd.who + " does not)",
	}
	if ref != nil {
		r.Related = []plan.Related{{Node: ref, Message: "the recipe names " + file + " here"}}
	}
	p.Rejections = append(p.Rejections, r)
}
