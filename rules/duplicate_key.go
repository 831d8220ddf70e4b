package rules

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
)

// DuplicateKey reports a mapping that names the same key twice. YAML and JSON loaders keep the
// last value without a word, TOML refuses the file; either way the first value is dead text that
// a reader will take for the setting in force. YAML merge keys (`<<`) are not duplicates, nor is
// a key whose dropped values only carry anchors later aliases use (doc.AnchorHolders), nor a
// JSON comment key repeated with text (commentRepeat). Where
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
	for _, pr := range p.Doc.Problems {
		if pr.Kind == doc.DuplicateKey && !refused[pr.Span] && !held[pr.Span] && (!commentRepeat(p, &pr) || strings.HasSuffix(pr.Message, doc.MoreDuplicatesNote)) {
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
					if v := lineValue(p.Doc.Src, pr.Span.End.Offset); v != "" && v == lineValue(p.Doc.Src, pr.Related.End.Offset) {
						// (the same scalar twice: whichever PyYAML keeps, the setting is one)
						keeps += " (both are " + v + ")"
					}
				}
				f.Message = doc.RepeatedKeyMessage(pr.Key, "PyYAML keeps "+keeps+", OmegaConf (and Hydra) refuses the file") + more
			}
			p.Report(f)
		}
	}
}

// commentRepeat reports a JSON comment key ("_comment" or "//": JSON has no comments, and a
// reader that knows the convention drops such keys) whose repetition pr reports, when both this
// occurrence and the first hold a string: whichever the loader keeps, no setting is lost. A file
// whose framework's loader refuses any repetition (plan.Plan.RepeatedKeys) keeps its findings.
func commentRepeat(p *lint.Pass, pr *doc.Problem) bool {
	return p.Doc.Format == doc.JSON && pr.Related != nil && (p.Plan == nil || p.Plan.RepeatedKeys == "") &&
		commentKeyAt(p.Doc.Src, pr.Span.Start.Offset, pr.Span.End.Offset) &&
		commentKeyAt(p.Doc.Src, pr.Related.Start.Offset, pr.Related.End.Offset)
}

// commentKeyAt reports a comment key written in src[s:e] with a string after its colon.
func commentKeyAt(src []byte, s, e int) bool {
	if k := string(src[s:e]); k != `"_comment"` && k != `"//"` {
		return false
	}
	for e < len(src) && strings.IndexByte(" \t\r\n:", src[e]) >= 0 {
		e++
	}
	return e < len(src) && src[e] == '"'
}

// lineValue is the scalar written after the key that ends at offset end, on the key's own line,
// without a trailing comment ("" when the value is not a plain or quoted scalar on that line:
// a block, a block after a comment, a flow collection, an anchor or alias, or nothing).
func lineValue(src []byte, end int) string {
	if end < 0 || end > len(src) {
		return ""
	}
	line := src[end:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	rest := strings.TrimSpace(string(line))
	rest, ok := strings.CutPrefix(rest, ":")
	if !ok {
		return ""
	}
	rest = strings.TrimSpace(rest)
	if rest == "" || strings.ContainsAny(rest[:1], "{[&*|>!#") {
		return ""
	}
	if rest[0] == '"' || rest[0] == '\'' {
		if j := strings.IndexByte(rest[1:], rest[0]); j >= 0 && !strings.Contains(rest[:j+1], "\\") {
			return rest[:j+2]
		}
		return ""
	}
	if i := strings.Index(rest, " #"); i >= 0 {
		rest = strings.TrimSpace(rest[:i])
	}
	return rest
}
