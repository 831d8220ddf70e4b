package dialect

import (
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

// axoRejections adds the start-up checks the file fails.
func axoRejections(root *doc.Node, p *plan.Plan) {
	p.Rejections = append(p.Rejections, KnowledgeOf("axolotl").Rejections(root, "axolotl", axoRuleChecks)...)
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
