package rules

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Helpers shared by the playbook rules: where to put a finding and how to say where a value
// came from. They keep the rules short and their messages uniform across frameworks.

// Rules name no framework: what differs between frameworks (how to fix a finding there, what
// loads the input, which keys were renamed) comes from the dialect that read the plan.

// The generic helpers below read only a fact's key, origin, node, note and provenance: each
// hands them to a plain function, so that the light WebAssembly module (built without
// inlining, one copy of a generic function per type of fact) holds their bodies once.

// advice is the help the plan's framework gives for a finding about concept, with {key} filled
// in from f; "" when the dialect gives none (the rule then says it in general terms).
func advice[T any](p *plan.Plan, concept string, f plan.Fact[T]) string {
	return adviceFor(p, concept, f.Key, false)
}

// adviceIfDefault is the framework's help for a finding about concept whose fact holds the
// framework's default, when that differs from advice; "" otherwise.
func adviceIfDefault[T any](p *plan.Plan, concept string, f plan.Fact[T]) string {
	return adviceFor(p, concept, f.Key, true)
}

// adviceFor is advice (ifDefault false) or adviceIfDefault for a fact whose key is key.
func adviceFor(p *plan.Plan, concept, key string, ifDefault bool) string {
	d := dialect.ByName(p.Framework)
	if d == nil {
		return ""
	}
	a := d.Advice.For(concept)
	help := a.IfDefault
	if !ifDefault {
		help = a.Help
		if h, ok := p.Advice[concept]; ok {
			help = h
		}
	}
	return strings.ReplaceAll(help, "{key}", orKey(key, a.Key))
}

// loadsWithTorch reports whether the plan's framework feeds its input through a PyTorch
// DataLoader, where a prefetch factor only applies to worker processes.
func loadsWithTorch(p *plan.Plan) bool {
	d := dialect.ByName(p.Framework)
	return d != nil && d.Loader == dialect.TorchDataLoader
}

// fixList is a rule's lint.Rule.FixList: its page's list of fixes for concept after the rule's
// Fix (the intro), one line per framework that gives one (dialect.Advice.Doc), frameworks with
// the same fix on one line, in dialect order, then outro (may be empty). The text is built when
// it is read, not at the rules' registration.
func fixList(concept, outro string) func(intro string) string {
	return func(intro string) string { return buildFixList(intro, outro, concept) }
}

// fixListOr is fixList with each framework's advice for concept, or for fallback where it has
// none for concept.
func fixListOr(concept, fallback, outro string) func(intro string) string {
	return func(intro string) string { return buildFixList(intro, outro, concept, fallback) }
}

// buildFixList builds a rule page's list of fixes: each framework's Doc for the first of
// concepts it has advice for.
func buildFixList(intro, outro string, concepts ...string) string {
	type group struct{ names, doc string }
	var groups []*group
	byDoc := map[string]*group{}
	for _, d := range dialect.All() {
		doc := ""
		for _, c := range concepts {
			if doc = d.Advice.For(c).Doc; doc != "" {
				break
			}
		}
		switch {
		case doc == "":
			continue
		case strings.HasPrefix(doc, "- "): // a block of its own, labelled inside
			groups = append(groups, &group{doc: doc})
		case byDoc[doc] != nil:
			byDoc[doc].names += ", " + d.ListName()
		default:
			g := &group{names: d.ListName(), doc: doc}
			byDoc[doc] = g
			groups = append(groups, g)
		}
	}
	var b strings.Builder
	b.WriteString(intro)
	for i, g := range groups {
		if i == 0 && intro != "" {
			b.WriteString("\n\n")
		} else if i > 0 {
			b.WriteString("\n")
		}
		if g.names == "" {
			b.WriteString(g.doc)
		} else {
			b.WriteString("- " + g.names + ": " + g.doc)
		}
	}
	if outro != "" {
		b.WriteString("\n\n" + outro)
	}
	return b.String()
}

// place points f at the first candidate node that exists. A map or sequence is reported at its
// key, so that a finding about a section (or a defaulted fact located by its enclosing section)
// starts on the line that names it rather than on its first child.
func place(f *lint.Finding, cands ...*doc.Node) {
	for _, n := range cands {
		if n == nil {
			continue
		}
		f.Node = n
		f.AtKey = atKey(n)
		return
	}
}

// atKey reports whether a finding on n is placed at its key: a mapping or a list is (its value
// spans many lines), and so is any reference (Style "reference": a class imported in a Python
// config, `type=BatchNorm2d`, spanned at its import far from where the key names it; a gin
// `@fn()` or `%MACRO`; a `{{_base_.x}}` of a Python base), whose value is written elsewhere.
func atKey(n *doc.Node) bool {
	return (n.Kind != doc.Scalar || n.Style == "reference") && !n.KeySpan.IsZero()
}

// related returns a related location for n, or nil when n is nil or is where the finding sits.
func related(n, at *doc.Node, msg string) []lint.RelatedNode {
	if n == nil || n == at {
		return nil
	}
	return []lint.RelatedNode{{Node: n, AtKey: atKey(n), Message: msg}}
}

// defaultName is how a message names whose default a Default fact holds ("the Trainer
// default"), from the dialect's typed provenance (plan.Fact.By).
func defaultName[T any](f plan.Fact[T]) string { return byName(f.By) }

func byName(by string) string {
	if by == "" {
		return "the default"
	}
	return by
}

// keyOr returns the fact's framework key, or a plain description when the dialect gave none.
func keyOr[T any](f plan.Fact[T], what string) string { return orKey(f.Key, what) }

func orKey(key, what string) string {
	if key != "" {
		return key
	}
	return what
}

// written is how a fact's value appears in a message: the text as written for explicit
// scalars (so "1_000" or "auto" read as in the file), else the normalised value.
func written[T any](f plan.Fact[T], v string) string { return writtenAt(f.IsExplicit(), f.Node, v) }

func writtenAt(explicit bool, n *doc.Node, v string) string {
	if explicit && n != nil && n.IsScalar() && n.Value != "" {
		if n.Type == doc.String {
			return strconv.Quote(n.Value)
		}
		return n.Value
	}
	return v
}

// notSet says that a fact holds a framework default: "dataloader_num_workers is not set: the
// Trainer default 0".
func notSet[T any](f plan.Fact[T], v string) string { return notSetText(f.Key, f.By, v) }

func notSetText(key, by, v string) string {
	return orKey(key, "the setting") + " is not set: " + byName(by) + " " + v
}

// derivedNote renders a derived fact's provenance for a message: " (= global_batch_size /
// micro_batch_size)"; empty for other origins.
func derivedNote[T any](f plan.Fact[T]) string { return derivedText(f.Origin, f.Note) }

func derivedText(o plan.Origin, note string) string {
	if o != plan.Derived || strings.TrimSpace(note) == "" {
		return ""
	}
	return " (" + strings.TrimSpace(note) + ")"
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

// reportMismatches reports the plan's mismatches of one concept: a value of a file joined to
// the run that the framework refuses because another file of the run says otherwise. The
// finding sits at the refused value; the setting it must equal is related.
func reportMismatches(p *lint.Pass, concept string) {
	for _, m := range p.Plan.Mismatches {
		if m.Concept != concept || m.Node == nil {
			continue
		}
		f := lint.Finding{Key: m.Key, Message: m.Message, Help: m.Help}
		for _, r := range m.Related {
			f.Related = append(f.Related, related(r.Node, m.Node, r.Message)...)
		}
		place(&f, m.Node)
		p.Report(f)
	}
}
