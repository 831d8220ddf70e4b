package rules

import (
	"bytes"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
)

var registry []*lint.Rule

// register adds a rule to the catalogue; each rule file calls it from init. A rule that lists no
// Frameworks gets those of its testdata archive's bad sections: the frameworks it is shown to
// fire in (archiveFrameworks: read from the embedded archives, or in the light WebAssembly build,
// which has no archives, from the table the site's build derived from them).
func register(r *lint.Rule) *lint.Rule {
	if r.Frameworks == nil {
		r.Frameworks = archiveFrameworks(r.Name)
	}
	registry = append(registry, r)
	return r
}

// testedFrameworks are the framework ids of the bad-<framework>[-suffix] sections of a rule's
// archive, in dialect order (the generic dialect last). Only section headers are read.
func testedFrameworks(rule string) []string {
	data, err := testdataFS.ReadFile("testdata/" + rule + ".txtar")
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	header := func(text []byte) { // text follows "-- bad-" at the start of a line
		if j := bytes.IndexAny(text, ".\n"); j > 0 && text[j] == '.' {
			if fw, _ := splitFramework(string(text[:j])); fw != "" {
				seen[fw] = true
			}
		}
	}
	if rest, ok := bytes.CutPrefix(data, []byte("-- bad-")); ok {
		header(rest)
	}
	for text := data; ; {
		// Section headers only: "-- bad-<framework>[-suffix].<ext>[.args|.want|.fixed] --".
		i := bytes.Index(text, []byte("\n-- bad-"))
		if i < 0 {
			break
		}
		text = text[i+len("\n-- bad-"):]
		header(text)
	}
	var out []string
	for _, d := range dialect.All() {
		if seen[d.Name] {
			out = append(out, d.Name)
		}
	}
	return out
}

// All returns every rule, the engine's own included, in code order (a copy: the caller's).
func All() []*lint.Rule {
	return append([]*lint.Rule(nil), allRules...)
}

// allRules is All's order, set once by init: every rule registers from a package-level variable,
// before it. The checker lints on every edit, and sorting on each call made the sort's code hot
// enough for V8 to recompile it at the start (wasm/main.go, Start-up).
var allRules []*lint.Rule

func init() {
	rs := append([]*lint.Rule{}, registry...)
	rs = append(rs, lint.Builtin()...)
	// An insertion sort (codes are unique, so the order is sort.Slice's; the registry is nearly in
	// code order already): sort.Slice's reflection swapper and quicksort were otherwise compiled
	// by the browser checker before its first lint for this alone (site/doc.go, Timings).
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j].Code < rs[j-1].Code; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
	allRules = rs
}

// ByName finds a rule by name or code.
func ByName(s string) *lint.Rule {
	for _, r := range All() {
		if r.Name == s || r.Code == s {
			return r
		}
	}
	return nil
}

// problemKind is the kind of the front-end's problems a rule reports (by name: the rules' own
// initialisers refer to reportProblems, so it cannot name their variables). A switch rather
// than a map filled at init: the browser checker then compiles no pointer-keyed map code
// before it is ready (site/doc.go, Timings).
func problemKind(r *lint.Rule) (doc.ProblemKind, bool) {
	switch r.Name {
	case "parse-error":
		return doc.Syntax, true
	case "input-limit-exceeded":
		return doc.LimitExceeded, true
	}
	return 0, false
}

// reportProblems reports the front-end's problems of p.Rule's kind as its findings.
func reportProblems(p *lint.Pass) {
	kind, ok := problemKind(p.Rule)
	if !ok {
		panic("rule " + p.Rule.Name + " reports document problems but has no problem kind")
	}
	for _, pr := range p.Doc.Problems {
		if pr.Kind == doc.NonStandard && kind == doc.Syntax && p.Doc.Root != nil {
			p.Report(nonStandardFinding(p, pr))
			continue
		}
		if pr.Kind != kind {
			continue
		}
		p.Report(problemFinding(pr))
	}
}

// nonStandardFinding reports what lenient readers accept (a comment, a trailing comma, the rest
// of JSON5's syntax in JSON): an error where the framework reads the file with a strict reader
// (Dialect.StrictJSON), else a note that says which lenient readers accept it (the problem's
// Readers: they differ by construct, hjson reading 0x10 as a string where JSON5 reads 16).
func nonStandardFinding(p *lint.Pass, pr doc.Problem) lint.Finding {
	f := problemFinding(pr)
	var strict string
	if p.Plan != nil {
		if d := dialect.ByName(p.Plan.Framework); d != nil {
			strict = d.StrictJSON
		}
	}
	if strict != "" {
		f.Message += ": " + strict + ", which refuses it"
		f.Help = "Write plain JSON: keys and strings in double quotes, decimal numbers, no comments or trailing commas."
		if s := pr.Span.Start.Offset; strings.HasPrefix(pr.Message, "trailing comma") && s >= 0 && s < len(p.Doc.Src) && p.Doc.Src[s] == ',' {
			f.Fix = &lint.FixSpec{Applicability: lint.Safe, Message: "remove the trailing comma", Edits: []lint.TextEdit{{Start: s, End: s + 1}}}
		}
		return f
	}
	f.Severity = lint.Info
	f.Message += ": Python's json refuses it; " + pr.Readers
	f.Help = "Write it as plain JSON if anything reads the file with Python's json, or with a reader the message does not say accepts it."
	return f
}

// problemFinding is the finding that reports a front-end problem as the front-end words it.
func problemFinding(pr doc.Problem) lint.Finding {
	f := lint.Finding{Span: pr.Span, Message: pr.Message}
	if pr.Related != nil {
		f.Related = []lint.RelatedNode{{Span: *pr.Related, Message: pr.RelatedMessage}}
	}
	return f
}
