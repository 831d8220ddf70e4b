package rules

import (
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/schema"
)

// DeprecatedKey reports keys a framework renamed or removed. A pure rename gets a safe fix that
// rewrites only the key token (value, comments and layout stay); a key whose replacement
// means something slightly different, or lives elsewhere, gets no fix or an unsafe one.
var DeprecatedKey = register(&lint.Rule{
	Code: "TL005", Name: "deprecated-key", Category: lint.CatStructure, Severity: lint.Warning,
	Title:     "A renamed or removed key is used",
	NeedsPlan: true,
	Rationale: `Frameworks rename settings between versions. For a while the old spelling still works, with
a warning buried in the start-up log; then it is removed and the key is rejected, or worse,
silently ignored, so the run trains with the default instead of the value written down.
Hugging Face's Trainer renamed ` + "`evaluation_strategy`" + ` to ` + "`eval_strategy`" + ` in transformers 4.41 and
removed the old name in v5; Lightning 2.0 removed ` + "`gpus`" + `, ` + "`resume_from_checkpoint`" + ` and renamed
` + "`replace_sampler_ddp`" + `.`,
	Fix: `Use the new key. When it is a pure rename, ` + "`trainlint check --fix`" + ` renames the key in place.
When both spellings are present, delete the old one (the new one is what recent versions read).`,
	Frameworks: []string{fwHF, fwAxolotl, fwLightning},
	Check:      checkDeprecatedKey,
})

// deprecation is one renamed or removed key.
type deprecation struct {
	old, new string
	// app is the fix: Safe for a pure rename, Unsafe when the new key is close but not equal in
	// meaning, "" for no fix (the replacement is elsewhere or needs more than a rename).
	app lint.Applicability
	// how replaces "use NEW" in the message when the replacement is not one key.
	how   string
	since string
}

// hfDeprecations were checked against transformers' training_args.py: v4 (@fd79833) marks them
// deprecated ("will be removed in version 5") and v5 (@00349ae) no longer has them.
var hfDeprecations = []deprecation{
	{old: "evaluation_strategy", new: "eval_strategy", app: lint.Safe, since: "transformers 4.41; removed in v5"},
	{old: "no_cuda", new: "use_cpu", app: lint.Safe, since: "transformers 4.34; removed in v5"},
	{old: "per_gpu_train_batch_size", new: "per_device_train_batch_size", app: lint.Safe, since: "transformers v4; removed in v5"},
	{old: "per_gpu_eval_batch_size", new: "per_device_eval_batch_size", app: lint.Safe, since: "transformers v4; removed in v5"},
	{old: "push_to_hub_model_id", new: "hub_model_id", app: lint.Safe, since: "transformers v4; removed in v5"},
	{old: "push_to_hub_token", new: "hub_token", app: lint.Safe, since: "transformers v4; removed in v5"},
	{old: "push_to_hub_organization", how: "give hub_model_id as \"organization/name\"", since: "transformers v4; removed in v5"},
	{old: "fsdp_min_num_params", how: "set min_num_params in fsdp_config", since: "transformers v4; removed in v5"},
	{old: "fsdp_transformer_layer_cls_to_wrap", how: "set transformer_layer_cls_to_wrap in fsdp_config", since: "transformers v4; removed in v5"},
	{old: "adafactor", how: "set optim to \"adafactor\"", since: "transformers v4; removed in v5"},
	{old: "dispatch_batches", how: "set dispatch_batches in accelerator_config", since: "transformers v4; removed in v5"},
	{old: "split_batches", how: "set split_batches in accelerator_config", since: "transformers v4; removed in v5"},
}

// lightningDeprecations are Trainer arguments removed or renamed in Lightning 2.0 (upgrade guide
// "Upgrade from 1.8 to the 2.0": PR16171, PR10061, PR16184; replace_sampler_ddp became
// use_distributed_sampler). gpus → devices is only unsafe: the accelerator then comes from
// accelerator ("auto" picks the GPUs when there are some), which the old flag implied.
var lightningDeprecations = []deprecation{
	{old: "replace_sampler_ddp", new: "use_distributed_sampler", app: lint.Safe, since: "Lightning 2.0"},
	{old: "gpus", new: "devices", app: lint.Unsafe, how: "use devices (with accelerator \"gpu\" or \"auto\")", since: "removed in Lightning 2.0"},
	{old: "tpu_cores", how: "use devices (with accelerator \"tpu\")", since: "removed in Lightning 2.0"},
	{old: "ipus", how: "use devices (with accelerator \"ipu\")", since: "removed in Lightning 2.0"},
	{old: "num_processes", how: "use devices", since: "removed in Lightning 2.0"},
	{old: "auto_select_gpus", how: "use devices: \"auto\"", since: "removed in Lightning 2.0"},
	{old: "resume_from_checkpoint", how: "pass ckpt_path to fit (LightningCLI: ckpt_path beside trainer)", since: "removed in Lightning 2.0"},
}

func checkDeprecatedKey(p *lint.Pass) {
	root := p.Doc.Root
	if root == nil || root.Kind != doc.Map {
		return
	}
	switch fw := p.Plan.Framework; fw {
	case fwHF:
		reportDeprecations(p, root, withDialectRenames(fw, hfDeprecations))
	case fwAxolotl:
		reportDeprecations(p, root, withDialectRenames(fw, nil))
	case fwLightning:
		for _, tr := range lightningTrainers(root) {
			reportDeprecations(p, tr, lightningDeprecations)
		}
	}
}

// withDialectRenames adds the renames the framework's keys record (Key.Deprecated: the dialect's
// Keys and the schema's catalogue) for top-level keys that the table does not list already.
func withDialectRenames(fw string, table []deprecation) []deprecation {
	out := append([]deprecation{}, table...)
	d := dialect.ByName(fw)
	if d == nil {
		return out
	}
	for _, k := range schema.Keys(fw) {
		if k.Deprecated == "" || strings.ContainsAny(k.Path, ".[") {
			continue
		}
		known := false
		for _, t := range out {
			known = known || t.old == k.Path
		}
		if !known {
			out = append(out, deprecation{old: k.Path, new: k.Deprecated, app: lint.Safe, since: d.Title})
		}
	}
	return out
}

// lightningTrainers finds the Trainer argument maps: trainer at the top (LightningCLI, Hydra)
// or under a LightningCLI subcommand (fit: trainer:).
func lightningTrainers(root *doc.Node) []*doc.Node {
	var out []*doc.Node
	if tr := root.Get("trainer"); tr != nil && tr.Kind == doc.Map {
		out = append(out, tr)
	}
	for _, sub := range []string{"fit", "validate", "test", "predict"} {
		if tr := root.Get(sub).Get("trainer"); tr != nil && tr.Kind == doc.Map {
			out = append(out, tr)
		}
	}
	return out
}

func reportDeprecations(p *lint.Pass, m *doc.Node, table []deprecation) {
	for _, dep := range table {
		n := m.Get(dep.old)
		if n == nil || n.Alias {
			continue
		}
		f := lint.Finding{Node: n, AtKey: true}
		use := dep.how
		if use == "" {
			use = "use " + dep.new
		}
		f.Message = quote(dep.old) + " is deprecated (" + dep.since + "): " + quoteUse(use, dep.new)
		if dep.new != "" && m.Get(dep.new) != nil {
			f.Message = quote(dep.old) + " is deprecated (" + dep.since + ") and " + quote(dep.new) + " is also set: delete " + quote(dep.old)
			f.Related = related(m.Get(dep.new), n, quote(dep.new)+" set here")
		} else if dep.new != "" && dep.app != "" {
			f.Fix = lint.RenameKey(p.Doc, n, dep.new, dep.app, "rename "+quote(dep.old)+" to "+quote(dep.new))
		}
		p.Report(f)
	}
}

func quote(s string) string { return "\"" + s + "\"" }

// quoteUse quotes the new key in "use NEW" messages.
func quoteUse(use, new string) string {
	if new != "" && use == "use "+new {
		return "use " + quote(new)
	}
	return use
}
