package dialect

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// The knowledge table's "@enum" and "@check" sections (cmd/trainlint-knowledge's
// extract_finetune.py): the closed value sets of typed keys, and the start-up refusals read
// from the frameworks' validators, each over the tags it was read at.
//
//	@enum   key#values   values ("a|b|c")
//	@check  name#cond    cond words   since removed message   provenance
//
// A condition tests keys of the file the way the validator's Python does (see EvalCond).

// EnumAt is the closed set of values the framework's type allows for a root key at the target
// version, nil when the table has none (an open type). Between two tags read, the values of
// both count. The sets are built once per target version.
func (k *Knowledge) EnumAt(key, target string) []string {
	if v, ok := k.enums.Load(target); ok {
		return v.(map[string][]string)[key]
	}
	m := map[string][]string{}
	for id, f := range k.Sections["@enum"] {
		if name, _, _ := strings.Cut(id, "#"); k.Has(f, target) {
			m[name] = append(m[name], strings.Split(f.Default, "|")...)
		}
	}
	for name, vals := range m {
		doc.SortStrings(vals)
		uniq := vals[:1]
		for _, v := range vals[1:] {
			if v != uniq[len(uniq)-1] {
				uniq = append(uniq, v)
			}
		}
		m[name] = uniq
	}
	k.enums.Store(target, m)
	return m[key]
}

// liveCheck is a compiled "@check" row the newest tag read has.
type liveCheck struct {
	name, text, words string // validator, condition, the condition in words
	fact              Fact
	cond              *cond
}

// liveChecks compiles the checks once per table, in a stable order. A check the newest release
// read no longer makes is left out: without a pin the rule reports for the newest.
func (k *Knowledge) liveChecks() []liveCheck {
	k.checksOnce.Do(func() {
		ids := make([]string, 0, len(k.Sections["@check"]))
		for id, f := range k.Sections["@check"] {
			if f.Removed == "" {
				ids = append(ids, id)
			}
		}
		doc.SortStrings(ids)
		for _, id := range ids {
			f := k.Sections["@check"][id]
			text, words, _ := strings.Cut(f.Default, " ")
			c, ok := compileCond(text)
			if !ok {
				continue
			}
			name, _, _ := strings.Cut(id, "#")
			k.checks = append(k.checks, liveCheck{name: name, text: text, words: words, fact: f, cond: c})
		}
	})
	return k.checks
}

// Rejections are the table's start-up refusals ("@check" rows) that the file's root fails, as
// plan.Rejections of package pkg, in a stable order. skip names validators whose refusal a
// playbook rule reports from the plan's facts. Only checks the newest tag read makes are
// listed, from the first tag read that has them (Since) on. later are keys given at launch
// (Context.LaunchKeys): a check that reads one is not decided by the file.
func (k *Knowledge) Rejections(root *doc.Node, pkg string, skip, later map[string]bool) []plan.Rejection {
	if k == nil || root == nil || root.Kind != doc.Map {
		return nil
	}
	var out []plan.Rejection
	for _, ch := range k.liveChecks() {
		f := ch.fact
		if skip[ch.name] {
			continue
		}
		failed, at, ok := ch.cond.evalRoot(root, later)
		if !ok || !failed {
			continue
		}
		name := ch.name
		where, read, _ := strings.Cut(f.Source, "@")
		r := plan.Rejection{Node: at, Package: pkg, Says: f.Replacement, Read: strings.TrimPrefix(read, "v"),
			Since: strings.TrimPrefix(k.SinceOf(f), "v"), Source: name + " (" + where + ")",
			Message: ch.words}
		if at != nil {
			r.Key = at.Key
		} else {
			r.Node = root
		}
		for _, key := range condKeys(ch.text) {
			if n := root.Get(key); n != nil && n != at && !n.IsNull() {
				r.Related = append(r.Related, plan.Related{Node: n, Message: key + " is read by the same check"})
			}
		}
		out = append(out, r)
	}
	return out
}

// condKeys are the keys a condition reads, in order.
func condKeys(cond string) []string {
	var out []string
	for i := 0; i+2 < len(cond); i++ {
		if strings.IndexByte("TNEAGL", cond[i]) >= 0 && cond[i+1] == ':' && (i == 0 || strings.ContainsRune("(,", rune(cond[i-1]))) {
			j := i + 2
			for j < len(cond) && !strings.ContainsRune("=,)", rune(cond[j])) {
				j++
			}
			out = append(out, cond[i+2:j])
		}
	}
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
// dict it is given: T:key (truthy), N:key (absent or null), A:key (absent: a dataclass field
// then holds its default), E:key=v1|v2 (equal to one of the values: strings, or true/false for
// `is True`/`is False`), G:key=x and L:key=x (a number above or below x), !(c), &(c,...), |(c,...).
// ok is false when a value it reads is decided later (an interpolation) or the text is
// malformed: then nothing is claimed. at is the first key the condition reads that the file sets.
func EvalCond(cond string, root *doc.Node) (result bool, at *doc.Node, ok bool) {
	c, good := compileCond(cond)
	if !good {
		return false, nil, false
	}
	return c.evalRoot(root, nil)
}

// cond is a compiled condition: an operator over kids ('!', '&', '|') or an atom.
type cond struct {
	op   byte // '!', '&', '|', or the atom's letter
	kids []*cond
	key  string
	want []string
	num  float64
}

func compileCond(s string) (*cond, bool) {
	c, rest, ok := parseCond(s)
	return c, ok && rest == ""
}

func parseCond(s string) (*cond, string, bool) {
	if len(s) >= 2 && s[1] == '(' && (s[0] == '!' || s[0] == '&' || s[0] == '|') {
		c := &cond{op: s[0]}
		rest := s[2:]
		for {
			k, r, ok := parseCond(rest)
			if !ok || r == "" {
				return nil, "", false
			}
			c.kids = append(c.kids, k)
			if r[0] == ')' {
				rest = r[1:]
				break
			}
			if r[0] != ',' || c.op == '!' {
				return nil, "", false
			}
			rest = r[1:]
		}
		return c, rest, true
	}
	end := strings.IndexAny(s, ",)")
	if end < 0 {
		end = len(s)
	}
	atom, rest := s[:end], s[end:]
	if len(atom) < 3 || atom[1] != ':' || strings.IndexByte("TNAEGL", atom[0]) < 0 {
		return nil, "", false
	}
	key, want, _ := strings.Cut(atom[2:], "=")
	c := &cond{op: atom[0], key: key}
	switch c.op {
	case 'E':
		c.want = strings.Split(want, "|")
	case 'G', 'L':
		f, err := strconv.ParseFloat(want, 64)
		if err != nil {
			return nil, "", false
		}
		c.num = f
	}
	return c, rest, true
}

// evalRoot evaluates the condition on a file's root map.
func (c *cond) evalRoot(root *doc.Node, later map[string]bool) (bool, *doc.Node, bool) {
	e := condEval{root: root, later: later}
	v := e.eval(c)
	if e.unknown {
		return false, nil, false
	}
	return v, e.at, true
}

type condEval struct {
	root    *doc.Node
	at      *doc.Node
	unknown bool
	later   map[string]bool
}

// eval evaluates c; "and" and "or" stop at the first operand that decides, like Python.
func (e *condEval) eval(c *cond) bool {
	switch c.op {
	case '!':
		return !e.eval(c.kids[0])
	case '&':
		for _, k := range c.kids {
			if !e.eval(k) {
				return false
			}
		}
		return true
	case '|':
		for _, k := range c.kids {
			if e.eval(k) {
				return true
			}
		}
		return false
	}
	n := e.root.Get(c.key)
	if e.later[c.key] { // the launch's value replaces the file's, null included
		e.unknown = true
		return false
	}
	if n != nil && !n.IsNull() && e.at == nil {
		e.at = n
	}
	if n.IsUnknown() {
		e.unknown = true
	}
	switch c.op {
	case 'T':
		if boolWord(n) {
			e.unknown = true // "false" or "n": true to a dataclass, false to pydantic
		}
		return pyTruthy(n)
	case 'N':
		return n == nil || n.IsNull()
	case 'A':
		return n == nil
	case 'G', 'L':
		if n == nil || n.IsNull() {
			return false
		}
		v, ok := n.Float()
		if !ok || n.Kind != doc.Scalar || (n.Type != doc.Int && n.Type != doc.Float) {
			e.unknown = true // a string or a structure: the comparison would not be numeric
			return false
		}
		if c.op == 'G' {
			return v > c.num
		}
		return v < c.num
	}
	// 'E'
	if n == nil || !n.IsScalar() || n.IsNull() {
		return false
	}
	for _, w := range c.want {
		if w == "true" || w == "false" {
			if b, ok := pyBool(n); ok && b == (w == "true") {
				return true
			}
			if boolWord(n) {
				e.unknown = true
			}
			continue
		}
		if n.Type == doc.String && n.Value == w {
			return true
		}
	}
	return false
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
	if b, ok := pyBool(n); ok {
		return b // PyYAML reads unquoted yes/no/on/off as booleans
	}
	switch n.Type {
	case doc.Int, doc.Float:
		f, _ := n.Float()
		return f != 0
	}
	return n.Value != ""
}

// boolWord reports whether n is a string that some loader or schema reads as a boolean
// (pydantic's lax words, YAML 1.1's words in other capitalisations), so that its truth value
// depends on the framework's field type.
func boolWord(n *doc.Node) bool {
	if n == nil || !n.IsScalar() || n.Type != doc.String {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(n.Value)) {
	case "y", "yes", "t", "true", "on", "1", "n", "no", "f", "false", "off", "0":
		return true
	}
	return false
}
