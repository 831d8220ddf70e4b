package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// axolotl's start-up refusals come from the knowledge table (knowledge_finetune.tsv "@check"
// rows): the `if ...: raise` checks of AxolotlInputConfig's validators (model validators run
// before parsing, on the file's dict, and field validators), read at v0.8.0-v0.18.0 by
// cmd/trainlint-knowledge. The table keeps only conditions that test the file's own keys and
// that no earlier validator rewrites.

// axoRuleChecks are the validators whose refusal a playbook rule already reports from the
// plan: streaming-without-max-steps reads streaming and pretraining_dataset (axoStreaming).
var axoRuleChecks = map[string]bool{"check_streaming_w_max_steps": true, "check_pretraining_w_max_steps": true}

// axoRejections adds the start-up checks the file fails, unless a plugin from outside axolotl
// may rewrite the config first.
func axoRejections(root *doc.Node, p *plan.Plan) {
	if axoForeignPlugins(root) {
		return
	}
	p.Rejections = append(p.Rejections, KnowledgeOf("axolotl").Rejections(root, "axolotl", axoRuleChecks, nil)...)
}

// axoStreaming: axolotl v0.18.0 src/axolotl/utils/schemas/validation.py refuses streaming: true
// without max_steps (check_streaming_w_max_steps, "max_steps must be set when using streaming
// datasets") and an (iterable) pretraining_dataset without max_steps
// (check_pretraining_w_max_steps).
func axoStreaming(root *doc.Node) plan.Fact[bool] {
	f := hfStreaming(root, "streaming")
	if f.Known() && f.Value {
		return f
	}
	if n := root.Get("pretraining_dataset"); n != nil && !n.IsNull() {
		return plan.Fact[bool]{Value: true, Origin: plan.Derived, Key: "pretraining_dataset", Node: n,
			Note: "a pretraining_dataset is streamed"}
	}
	return f
}

// axoForeignPlugins reports a plugins list that names a plugin from outside axolotl's own
// integrations (or is not known here). load_cfg calls every listed plugin's register(cfg) before
// validate_config (cli/config.py prepare_plugins, from v0.12.0 on), so such a plugin can rewrite
// any key a start-up check tests. (v0.8.0-v0.11.0 registered plugins without the config: the
// file is then not checked either, which only costs findings.) axolotl's own plugins that define
// register at v0.18.0 (swanlab, nemo_gym, hatchery) only read the config, raise, or set
// remove_unused_columns, which no check in the table tests.
func axoForeignPlugins(root *doc.Node) bool {
	n := root.Get("plugins")
	if n == nil || n.IsNull() {
		return false
	}
	if n.Kind != doc.Seq {
		return true
	}
	for _, c := range n.Children {
		name, ok := c.Str()
		if !ok || !strings.HasPrefix(name, "axolotl.integrations.") {
			return true
		}
	}
	return false
}
