package dialect

import (
	"sort"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// The knowledge table's "@enum" and "@check" sections (cmd/trainlint-knowledge's
// extract_finetune.py): the closed value sets of typed keys, and the start-up refusals read
// from the frameworks' validators, each over the tags it was read at.
//
//	@enum   key#values   values ("a|b|c")
//	@check  name#cond    cond   since removed message   provenance
//
// A condition tests keys of the file the way the validator's Python does (see EvalCond).

// EnumAt is the closed set of values the framework's type allows for a root key at the target
// version, nil when the table has none (an open type). Between two tags read, the values of
// both count.
func (k *Knowledge) EnumAt(key, target string) []string {
	var out []string
	prefix := key + "#"
	for id, f := range k.Sections["@enum"] {
		if strings.HasPrefix(id, prefix) && k.Has(f, target) {
			out = append(out, strings.Split(f.Default, "|")...)
		}
	}
	if len(out) == 0 {
		return nil
	}
	sort.Strings(out)
	uniq := out[:1]
	for _, v := range out[1:] {
		if v != uniq[len(uniq)-1] {
			uniq = append(uniq, v)
		}
	}
	return uniq
}

// Check is one start-up refusal.
type Check struct {
	Cond    string // the condition (EvalCond)
	Message string // what the framework says
	Source  string // file:line@tag
}

// ChecksAt are the start-up refusals the framework makes at the target version, in a stable
// order. A check counts only when the tags read on both sides of the target have it: between
// them the table cannot say whether the release in use makes it.
func (k *Knowledge) ChecksAt(target string) []Check {
	lo, hi := k.bracket(target)
	var out []Check
	for _, f := range k.Sections["@check"] {
		if k.hasAt(f, lo) && k.hasAt(f, hi) {
			out = append(out, Check{Cond: f.Default, Message: f.Replacement, Source: f.Source})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out
}

// Gone reports a key the section had at an older tag but not at the target version: the
// fact, with Removed the first tag read without it.
func (k *Knowledge) Gone(section, key, target string) (Fact, bool) {
	secs := strings.Split(section, ",")
	for _, sec := range secs {
		if f, ok := k.Sections[sec][key]; ok && k.Has(f, target) {
			return Fact{}, false // moved to another of the sections
		}
	}
	for _, sec := range secs {
		f, ok := k.Sections[sec][key]
		if !ok || k.Has(f, target) || f.Removed == "" {
			continue
		}
		if target == "" || CompareVersions(ParseVersion(target), ParseVersion(f.Removed)) >= 0 {
			return f, true
		}
	}
	return Fact{}, false
}

// EvalCond evaluates a check's condition on the file's root map, as the validator does on the
// dict it is given: T:key (truthy), N:key (absent or null), E:key=v1|v2 (equal to one of the
// values: strings, or true/false for `is True`/`is False`), !(c), &(c,...), |(c,...). ok is
// false when a value it reads is decided later (an interpolation) or the text is malformed:
// then nothing is claimed. at is the first key the condition reads that the file sets.
func EvalCond(cond string, root *doc.Node) (result bool, at *doc.Node, ok bool) {
	e := condEval{root: root}
	v, rest, good := e.eval(cond)
	if !good || rest != "" || e.unknown {
		return false, nil, false
	}
	return v, e.at, true
}

type condEval struct {
	root    *doc.Node
	at      *doc.Node
	unknown bool
}

func (e *condEval) eval(s string) (bool, string, bool) {
	if len(s) >= 2 && s[1] == '(' && (s[0] == '!' || s[0] == '&' || s[0] == '|') {
		op, rest := s[0], s[2:]
		var vals []bool
		for {
			v, r, ok := e.eval(rest)
			if !ok || r == "" {
				return false, "", false
			}
			vals = append(vals, v)
			if r[0] == ')' {
				rest = r[1:]
				break
			}
			if r[0] != ',' || op == '!' {
				return false, "", false
			}
			rest = r[1:]
		}
		switch op {
		case '!':
			return !vals[0], rest, true
		case '&':
			for _, v := range vals {
				if !v {
					return false, rest, true
				}
			}
			return true, rest, true
		default:
			for _, v := range vals {
				if v {
					return true, rest, true
				}
			}
			return false, rest, true
		}
	}
	end := strings.IndexAny(s, ",)")
	if end < 0 {
		end = len(s)
	}
	atom, rest := s[:end], s[end:]
	if len(atom) < 3 || atom[1] != ':' {
		return false, "", false
	}
	key, want, _ := strings.Cut(atom[2:], "=")
	n := e.root.Get(key)
	if n != nil && !n.IsNull() && e.at == nil {
		e.at = n
	}
	if n.IsUnknown() {
		e.unknown = true
	}
	switch atom[0] {
	case 'T':
		return pyTruthy(n), rest, true
	case 'N':
		return n == nil || n.IsNull(), rest, true
	case 'E':
		if n == nil || !n.IsScalar() || n.IsNull() {
			return false, rest, true
		}
		for _, w := range strings.Split(want, "|") {
			if w == "true" || w == "false" {
				if b, ok := pyBool(n); ok && (n.Type == doc.Bool || !n.Quoted) && b == (w == "true") {
					return true, rest, true
				}
				continue
			}
			if n.Type == doc.String && n.Value == w {
				return true, rest, true
			}
		}
		return false, rest, true
	}
	return false, "", false
}

// pyTruthy is Python's truth value of a loaded YAML/JSON value (absent and null are false).
func pyTruthy(n *doc.Node) bool {
	if n == nil || n.IsNull() {
		return false
	}
	switch n.Kind {
	case doc.Map, doc.Seq:
		return len(n.Children) > 0
	}
	if b, ok := pyBool(n); ok && (n.Type == doc.Bool || !n.Quoted) {
		return b // PyYAML reads unquoted yes/no/on/off as booleans
	}
	switch n.Type {
	case doc.Int, doc.Float:
		f, _ := n.Float()
		return f != 0
	}
	return n.Value != ""
}
