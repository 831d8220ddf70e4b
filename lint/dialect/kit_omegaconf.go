package dialect

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// The reading kit: what OmegaConf refuses as it loads a file. From version 2.1 OmegaConf parses
// every string value that holds "${" with its interpolation grammar when the value is set, as
// the file is loaded (omegaconf/nodes.py ValueNode._set_value, dictconfig.py and listconfig.py
// with strict_interpolation_validation=True; _utils.py _is_interpolation_string; checked at
// v2.1.0 and v2.3.0), and stops with a GrammarParseError when the value does not parse. NeMo
// (through Hydra), torchtune (config/_parse.py, OmegaConf.load) and llm-foundry
// (command_utils/train.py, om.load) load their files so.
//
// Only the certain case is judged: an interpolation "${" (not escaped: an even number of
// backslashes before it) with no "}" anywhere after it can never be closed, whatever the rest
// of the grammar says. TestOmegaConfUnclosedAgreesWithOmegaConf checks the claim against
// OmegaConf itself.

// omegaconfUnclosed adds a start-up refusal to p for each value of root that holds an
// interpolation that is never closed.
func omegaconfUnclosed(p *plan.Plan, root *doc.Node) {
	if root == nil {
		return
	}
	root.Walk(func(n *doc.Node) bool {
		if n.Alias {
			return false // a copy of an anchored value, judged where it is written
		}
		if n.Kind != doc.Scalar {
			return true
		}
		i := unclosedInterpolation(n.Value)
		if i < 0 {
			return true
		}
		excerpt := n.Value[i:]
		if len(excerpt) > 40 {
			excerpt = excerpt[:40] + "…"
		}
		p.Rejections = append(p.Rejections, plan.Rejection{Node: n, Key: n.Path().String(),
			Message: "the interpolation " + strconv.Quote(excerpt) + " is never closed with }",
			Says:    "GrammarParseError", Package: "omegaconf", Since: "2.1.0", Read: "2.3.0",
			Source: "OmegaConf's interpolation grammar, applied as the file is loaded",
			Help:   "close the interpolation with }, or write \\${ for a literal ${"})
		return true
	})
}

// unclosedInterpolation returns the offset in s of an interpolation opening "${" that no "}"
// follows, or -1. An opening preceded by an odd number of backslashes is escaped (OmegaConf's
// ESC_INTER) and not one.
func unclosedInterpolation(s string) int {
	last := -1
	for i := 0; ; {
		j := strings.Index(s[i:], "${")
		if j < 0 {
			break
		}
		j += i
		k := j
		for k > 0 && s[k-1] == '\\' {
			k--
		}
		if (j-k)%2 == 0 {
			last = j
		}
		i = j + 2
	}
	if last < 0 || strings.IndexByte(s[last+2:], '}') >= 0 {
		return -1
	}
	return last
}
