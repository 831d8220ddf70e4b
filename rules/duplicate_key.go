package rules

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
)

// DuplicateKey reports a mapping that names the same key twice. YAML and JSON loaders keep the
// last value without a word, TOML refuses the file; either way the first value is dead text that
// a reader will take for the setting in force. YAML merge keys (`<<`) are not duplicates, nor is
// a key whose dropped values only carry anchors later aliases use (doc.AnchorHolders), nor a
// JSON comment key whose values are all text (commentRepeats). Where
// the framework's loader refuses the repetition (OmegaConf's), the message says that it stops;
// where that depends on who reads the file (plan.Plan.RepeatedKeys), it says so.
var DuplicateKey = register(&duplicateKeyDef)

var duplicateKeyDef = lint.Rule{
	Code: "TL002", Name: "duplicate-key", Category: lint.CatStructure, Severity: lint.Error,
	Title: "A mapping repeats a key",
	Rationale: `When a key appears twice in one mapping, YAML and JSON loaders quietly keep the later value;
TOML loaders reject the file, and so does OmegaConf's YAML loader, which some frameworks load
their configs with, at start-up. Someone reading the config top-down sees the first value and
believes it is in force; a sweep script that edits the first occurrence changes nothing. The
trial then runs with settings nobody intended, and the comparison it was meant for is lost.`,
	Fix:        "Keep one occurrence of the key with the value you mean, and delete the other.",
	Frameworks: []string{"*"},
	Check:      checkDuplicateKey,
}

// checkDuplicateKey reports the document's repeated keys. Where the framework's loader refuses
// the repetition (plan.Rejection.Repeats, for the version targeted), the message says so
// instead of that the later value wins; the refusal is reported even where the reader sees no
// repeat (a plain date beside the same date quoted: a date and a string to PyYAML, two strings
// to OmegaConf).
func checkDuplicateKey(p *lint.Pass) {
	refused := map[doc.Span]bool{}
	if p.Plan != nil {
		for _, r := range p.Plan.Rejections {
			if ver, pinned, ok := rejectionVersion(p, r); ok && r.Repeats != nil && r.Node != nil && !refused[r.Node.KeySpan] {
				refused[r.Node.KeySpan] = true
				p.Report(lint.Finding{Span: r.Node.KeySpan,
					Message: r.Message + ": " + rejectionWho(r, ver, pinned) + ": " + strconv.Quote(r.Says),
					Help:    "Keep one occurrence of the key with the value you mean, and delete the other (the check: " + r.Source + ").",
					Related: []lint.RelatedNode{{Span: r.Repeats.KeySpan, Message: "first occurrence of " + strconv.Quote(r.Repeats.Key)}}})
			}
		}
	}
	// A key repeated only to carry anchors that later aliases use drops no setting
	// (doc.AnchorHolders): its dropped values reach the config through the aliases.
	held := doc.AnchorHolders(p.Doc)
	comments := commentRepeats(p)
	for _, pr := range p.Doc.Problems {
		if pr.Kind == doc.DuplicateKey && !refused[pr.Span] && !held[pr.Span] && !comments[pr.Span] {
			f := problemFinding(pr)
			more := ""
			if strings.HasSuffix(pr.Message, doc.MoreDuplicatesNote) {
				more = doc.MoreDuplicatesNote
			}
			switch {
			case p.Plan != nil && p.Plan.RepeatedKeys != "" && p.Doc.Format != doc.TOML:
				// what the framework's loaders do, in place of what the format does
				f.Message = doc.RepeatedKeyMessage(pr.Key, p.Plan.RepeatedKeys) + more
			case p.Plan != nil && p.Plan.Framework == "generic" && p.Doc.Format == doc.YAML:
				// Who loads the file is not known: PyYAML's constructor keeps the later value,
				// OmegaConf refuses the file (omegaconf/_utils.py, 2.3.0: "found duplicate key";
				// LAVIS loads its configs so).
				keeps := "the second value"
				if pr.Related != nil && pr.Related.Start.Line != pr.Span.Start.Line {
					keeps = "the value on line " + strconv.Itoa(pr.Span.Start.Line) + " over line " + strconv.Itoa(pr.Related.Start.Line) + "'s"
				}
				f.Message = doc.RepeatedKeyMessage(pr.Key, "PyYAML keeps "+keeps+", OmegaConf (and Hydra) refuses the file") + more
			}
			p.Report(f)
		}
	}
}

// commentKeys are the keys JSON files use as comments, since JSON has none: a reader that knows
// the convention drops them, and none reads them as a setting.
var commentKeys = [2]string{"_comment", "//"}

// commentRepeats returns the key spans of a JSON mapping's repeated comment keys (commentKeys)
// when every occurrence of the key in the mapping holds text (a string, or a list of strings):
// whichever one the loader keeps, no setting is lost. A file whose framework's loader refuses
// any repetition (plan.Plan.RepeatedKeys) keeps its findings.
func commentRepeats(p *lint.Pass) map[doc.Span]bool {
	if p.Doc.Format != doc.JSON || len(p.Doc.Problems) == 0 || p.Plan != nil && p.Plan.RepeatedKeys != "" {
		return nil
	}
	out := map[doc.Span]bool{}
	p.Doc.Root.Walk(func(n *doc.Node) bool {
		for _, key := range commentKeys {
			text := true
			for _, c := range n.Children {
				if c.Key == key {
					text = text && (c.Quoted || c.Kind == doc.Seq)
					for _, it := range c.Children {
						text = text && it.Quoted
					}
				}
			}
			for _, c := range n.Children {
				if text && c.Key == key {
					out[c.KeySpan] = true
				}
			}
		}
		return true
	})
	return out
}
