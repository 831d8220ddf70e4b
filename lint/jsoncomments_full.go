//go:build !trainlint_lite

package lint

import (
	"bytes"

	"github.com/trainlint/trainlint/lint/doc"
)

// commentProblem is the message of the JSON reader's NonStandard problem for a // or /* */
// comment (doc's jsonParser.ws).
const commentProblem = "JSON does not allow comments"

// dropLineComments drops a JSON document's comment problem when the file reads as strict JSON
// once each line is cut at its first "//", which is what a repository's own option parser
// does before json.loads (Options.JSONLineComments; cszn/KAIR's utils/utils_option.py:30-37
// parse at 090344b: `for line in f: line = line.split('//')[0] + '\n'`, then
// `json.loads(json_str, ...)`). The problem stays when the first comment is no `//` one, when
// the cut text still has a comment (a /* */ one) or no longer parses (a "//" inside a string,
// such as a URL, which the cut breaks), so only what the parser strips is let pass; other
// departures (a trailing comma) are problems of their own and stay.
func dropLineComments(d *doc.Document, lim doc.Limits) {
	at := -1
	for i, p := range d.Problems {
		if p.Kind == doc.NonStandard && p.Message == commentProblem {
			if s := p.Span.Start.Offset; s >= 0 && s+2 <= len(d.Src) && string(d.Src[s:s+2]) == "//" {
				at = i
			}
			break
		}
	}
	if at < 0 {
		return
	}
	var cut []byte
	for line := range bytes.Lines(d.Src) {
		if i := bytes.Index(line, []byte("//")); i >= 0 {
			line = append(line[:i:i], '\n')
		}
		cut = append(cut, line...)
	}
	c := doc.Parse(d.Path, cut, doc.JSON, lim)
	if c.Root == nil {
		return
	}
	for _, p := range c.Problems {
		if p.Kind == doc.Syntax || p.Kind == doc.NonStandard && p.Message == commentProblem {
			return
		}
	}
	d.Problems = append(d.Problems[:at:at], d.Problems[at+1:]...)
}
