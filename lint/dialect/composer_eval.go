package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// llm-foundry's eval script refuses an eval YAML at start-up, besides its unknown top-level keys
// (unknown-key), when (make_dataclass_and_log_config in llmfoundry/utils/config_utils.py and
// allow_toplevel_keys in llmfoundry/command_utils/eval.py, every minor tag v0.10.0-v0.21.0):
//   - icl_tasks is absent while the script passes icl_tasks_required=True (v0.10-v0.11: the
//     table's "EvalConfig@required" rows): "icl_tasks must be specified in the config";
//   - a top-level model comes with models, or without a tokenizer (or a null one), from v0.11.0
//     (when allow_toplevel_keys arrived: the "EvalConfig@toplevel" rows);
//   - an EvalConfig field without a default (MISSING: models, max_seq_len,
//     device_eval_batch_size) is absent: OmegaConf raises MissingMandatoryValue when the script
//     reads every field of the structured config. A top-level model stands for models from
//     v0.11.0 (and before that is an unknown key already).
// Train YAMLs are not checked for missing fields: the train script's transforms fill some in.

// foundryEvalRejections adds the eval script's start-up refusals of an eval YAML.
func foundryEvalRejections(d *doc.Document, p *plan.Plan) {
	kb := KnowledgeOf("llm-foundry")
	if kb == nil {
		return
	}
	var m *doc.Node
	for _, km := range composerKeyMaps(d) {
		if km.Name == "EvalConfig" {
			m = km.Node
		}
	}
	if m == nil {
		return
	}
	read := strings.TrimPrefix(kb.Newest(), "v")
	reject := func(n *doc.Node, key, msg, says string, f Fact, help string) {
		p.Rejections = append(p.Rejections, plan.Rejection{Node: n, Key: key, Message: msg, Says: says,
			Package: "llm-foundry", Since: strings.TrimPrefix(kb.SinceOf(f), "v"), Until: f.Removed, Read: read,
			Source: "make_dataclass_and_log_config (llmfoundry/utils/config_utils.py)", Help: help})
	}
	where, at := "the eval YAML", m
	if m == d.Root {
		at = nil // the file as a whole: reported at its start, not over every line
	} else {
		where = "parameters"
	}
	if f, ok := kb.Sections["EvalConfig@required"]["icl_tasks"]; ok && m.Get("icl_tasks") == nil {
		reject(at, "icl_tasks", where+" has no icl_tasks, which the eval script requires",
			"icl_tasks must be specified in the config", f, "add icl_tasks (a list of tasks, or the path of a tasks YAML)")
	}
	model := m.Get("model")
	if f, ok := kb.Sections["EvalConfig@toplevel"]["model"]; ok && model != nil {
		if m.Get("models") != nil {
			reject(model, "model", "model and models are both set", "Please specify either model or models in the config, not both", f,
				"keep one: a top-level model (with tokenizer) or a models list")
		}
		if t := m.Get("tokenizer"); t == nil || t.IsNull() {
			reject(model, "model", "model is set without a tokenizer", `When specifying model, "tokenizer" must be provided in the config`, f,
				"add a top-level tokenizer beside model")
		}
	}
	for _, k := range sortedStrings(keysOf(kb.Sections["EvalConfig"])) {
		f := kb.Sections["EvalConfig"][k]
		if f.Default != "MISSING" || m.Get(k) != nil || k == "models" && model != nil {
			continue
		}
		reject(at, k, where+" does not set "+k+", which EvalConfig requires", "Missing mandatory value: "+k, f, "set "+k)
	}
}

func keysOf(m map[string]Fact) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
