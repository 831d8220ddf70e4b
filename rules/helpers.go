package rules

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Helpers shared by the playbook rules: where to put a finding and how to say where a value
// came from. They keep the rules short and their messages uniform across frameworks.

// Framework ids, as dialects name them in plan.Plan.Framework.
const (
	fwHF         = "huggingface"
	fwAxolotl    = "axolotl"
	fwLlamaFac   = "llama-factory"
	fwLightning  = "lightning"
	fwNeMo       = "nemo"
	fwDeepSpeed  = "deepspeed"
	fwTorchtune  = "torchtune"
	fwComposer   = "composer"
	fwTorchtitan = "torchtitan"
	fwGeneric    = "generic"
)

// hfFamily are the frameworks that forward Hugging Face TrainingArguments keys.
func hfFamily(fw string) bool { return fw == fwHF || fw == fwAxolotl || fw == fwLlamaFac }

// place points f at the first candidate node that exists. A map or sequence is reported at its
// key, so that a finding about a section (or a defaulted fact located by its enclosing section)
// starts on the line that names it rather than on its first child.
func place(f *lint.Finding, cands ...*doc.Node) {
	for _, n := range cands {
		if n == nil {
			continue
		}
		f.Node = n
		f.AtKey = n.Kind != doc.Scalar && !n.KeySpan.IsZero()
		return
	}
}

// related returns a related location for n, or nil when n is nil or is where the finding sits.
func related(n, at *doc.Node, msg string) []lint.RelatedNode {
	if n == nil || n == at {
		return nil
	}
	return []lint.RelatedNode{{Node: n, AtKey: n.Kind != doc.Scalar && !n.KeySpan.IsZero(), Message: msg}}
}

// defaultName turns a fact's Note ("the Trainer default (transformers 4.57)") into the words
// that precede the value in a message ("the Trainer default"). Notes that are not of the form
// "[the] X default" (explanations, derivations) give "the default": they read badly before a
// value, and the rule's help explains the rest.
func defaultName(note string) string {
	note = strings.TrimSpace(note)
	if i := strings.IndexAny(note, "(:;,"); i > 0 {
		note = strings.TrimSpace(note[:i])
	}
	low := strings.ToLower(note)
	if !strings.HasSuffix(low, "default") || len(strings.Fields(note)) > 4 {
		return "the default"
	}
	if !strings.HasPrefix(low, "the ") {
		note = "the " + note
	}
	return note
}

// keyOr returns the fact's framework key, or a plain description when the dialect gave none.
func keyOr[T any](f plan.Fact[T], what string) string {
	if f.Key != "" {
		return f.Key
	}
	return what
}

// written is how a fact's value appears in a message: the text as written for explicit
// scalars (so "1_000" or "auto" read as in the file), else the normalised value.
func written[T any](f plan.Fact[T], v string) string {
	if f.IsExplicit() && f.Node != nil && f.Node.IsScalar() && f.Node.Value != "" {
		if f.Node.Type == doc.String {
			return strconv.Quote(f.Node.Value)
		}
		return f.Node.Value
	}
	return v
}

// notSet says that a fact holds a framework default: "dataloader_num_workers is not set: the
// Trainer default 0".
func notSet[T any](f plan.Fact[T], v string) string {
	return keyOr(f, "the setting") + " is not set: " + defaultName(f.Note) + " " + v
}

// derivedNote renders a derived fact's provenance for a message: " (= global_batch_size /
// micro_batch_size)"; empty for other origins.
func derivedNote[T any](f plan.Fact[T]) string {
	if f.Origin != plan.Derived || strings.TrimSpace(f.Note) == "" {
		return ""
	}
	return " (" + strings.TrimSpace(f.Note) + ")"
}

// multiHost reports whether the plan is known to run on more than one host, and how many.
func multiHost(p *plan.Plan) (hosts int, ok bool) {
	multi, known := p.Topology.MultiHost()
	if !known || !multi {
		return 0, false
	}
	return p.Topology.Hosts.Value, true
}

// hostsPhrase is "4 hosts".
func hostsPhrase(p *plan.Plan) string { return strconv.Itoa(p.Topology.Hosts.Value) + " hosts" }

func itoa(n int) string { return strconv.Itoa(n) }
