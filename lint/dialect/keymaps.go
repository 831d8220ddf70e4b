package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// KeyMap is one map of a file that a framework passes, as keyword arguments, to a signature
// read in its source (a section of the knowledge table): a key that is not a parameter stops
// the job at start-up, and the values meet the parameters' declared types and the
// constructor's checks. Frameworks whose closed maps sit at places the file's shape decides
// (LightningCLI's trainer: and callbacks' init_args, Hydra _target_ maps) list them with
// Dialect.KeyMaps; fixed sections use Dialect.Sections.
type KeyMap struct {
	Node    *doc.Node // the map (nil when the file gives the class no arguments at all)
	At      *doc.Node // where to report about a missing argument: the map, or the class reference
	Section string    // the knowledge table's section: "Trainer", "ModelCheckpoint"
	Name    string    // how messages name the signature: "Trainer", "ModelCheckpoint"
	By      string    // what refuses an unknown key: "LightningCLI", "Hydra's instantiate"
	// Typed: the values are checked against the declared types when the file is loaded
	// (jsonargparse); Hydra passes them on unchecked, and only the constructor's own checks apply.
	Typed bool
	// Skip are keys another rule reports (renamed or removed arguments: deprecated-key).
	Skip map[string]bool
	// Open is the map of keyword arguments Node also holds that the loader passes on without
	// checking their names (jsonargparse's dict_kwargs): an unknown one reaches the constructor,
	// whose signature (no **kwargs in the sections checked) refuses it.
	Open *doc.Node
	// Since is the first release of the framework whose loader (By) reads such a map ("" when
	// every release the table read has it): a target older than it is not read that way, so
	// nothing is claimed of the map there (ReadAt).
	Since string
}

// ReadAt reports whether the map's loader exists at the target version ("" = the newest).
func (m KeyMap) ReadAt(target string) bool {
	return m.Since == "" || target == "" || !releasedBefore(target, ParseVersion(m.Since)...)
}

// Problem is a value, or a combination of values, that the framework refuses at start-up,
// found by a dialect's checks of its KeyMaps.
type Problem struct {
	Node    *doc.Node
	AtKey   bool
	Message string
	// Choices are the values the framework accepts in place of a wrong one (the rule suggests
	// the nearest).
	Choices []string
	// Startup marks a combination of settings the framework refuses (rejected-at-startup); a
	// single value the framework refuses is an invalid value. Check is the table's row of the
	// check (its version range), Source the function that makes it, Says what it says.
	Startup            bool
	Check              Fact
	Source, Says, Help string
}

// pyType is a parsed Python annotation: the kinds of value it admits and its Literal values.
type pyType struct {
	kinds    map[string]bool // int, float, bool, str, none, list, dict, any
	literals []string        // Literal[...] members as Python would print them ('x' → x)
}

// parsePyType reads an annotation as the generator wrote it ("Optional[Union[int, float]]").
// Names it does not know (classes, timedelta, Path) make it admit anything: the check then
// stays silent rather than guess how a loader converts a value into them.
func parsePyType(s string) pyType {
	if v, ok := pyTypes.Load(s); ok {
		return v.(pyType)
	}
	t := readPyType(s)
	pyTypes.Store(s, t)
	return t
}

// pyTypes are the annotations read so far (they come from the knowledge table, so there are a
// few hundred at most, and every Lightning file's arguments are checked against them); a
// pyType is never modified once read.
var pyTypes doc.Cache // annotation -> pyType

func readPyType(s string) pyType {
	t := pyType{kinds: map[string]bool{}}
	p := &pyParser{s: s}
	p.typ(&t, false)
	return t
}

type pyParser struct {
	s string
	i int
}

func (p *pyParser) skip() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

// token reads a name, a number or a quoted string.
func (p *pyParser) token() string {
	p.skip()
	if p.i >= len(p.s) {
		return ""
	}
	if q := p.s[p.i]; q == '\'' || q == '"' {
		j := strings.IndexByte(p.s[p.i+1:], q)
		if j < 0 {
			p.i = len(p.s)
			return ""
		}
		tok := p.s[p.i : p.i+j+2]
		p.i += j + 2
		return tok
	}
	j := p.i
	for j < len(p.s) && !strings.ContainsRune("[], ", rune(p.s[j])) {
		j++
	}
	tok := p.s[p.i:j]
	p.i = j
	return tok
}

func (p *pyParser) peek(c byte) bool {
	p.skip()
	return p.i < len(p.s) && p.s[p.i] == c
}

// args reads "[a, b, ...]" calling each for every member.
func (p *pyParser) args(each func()) {
	if !p.peek('[') {
		return
	}
	p.i++
	for p.i < len(p.s) && !p.peek(']') {
		start := p.i
		each()
		if p.peek(',') {
			p.i++
		}
		if p.i == start {
			p.i++ // no progress on malformed text
		}
	}
	p.i++
}

func (p *pyParser) typ(t *pyType, inLiteral bool) {
	name := p.token()
	if inLiteral {
		t.literals = append(t.literals, strings.Trim(name, `'"`))
		return
	}
	switch strings.TrimPrefix(strings.TrimPrefix(name, "typing."), "typing_extensions.") {
	case "Optional":
		t.kinds["none"] = true
		p.args(func() { p.typ(t, false) })
	case "Union":
		p.args(func() { p.typ(t, false) })
	case "Literal":
		p.args(func() { p.typ(t, true) })
	case "int":
		t.kinds["int"] = true
	case "float":
		t.kinds["float"] = true
	case "bool":
		t.kinds["bool"] = true
	case "str":
		t.kinds["str"] = true
	case "None":
		t.kinds["none"] = true
	case "list", "List", "tuple", "Tuple", "Sequence", "Iterable":
		t.kinds["list"] = true
		p.args(func() { p.typ(&pyType{kinds: map[string]bool{}}, false) })
	case "dict", "Dict", "Mapping":
		t.kinds["dict"] = true
		p.args(func() { p.typ(&pyType{kinds: map[string]bool{}}, false) })
	default:
		t.kinds["any"] = true
		p.args(func() { p.typ(&pyType{kinds: map[string]bool{}}, false) })
	}
}

// admits reports whether a value fits the annotation as a strict loader (jsonargparse) checks
// it, leniently where the conversion is uncertain: a numeric string for a number, yes/no for a
// boolean, any scalar for a string, an integral float for an int.
func (t pyType) admits(n *doc.Node) bool {
	if t.kinds["any"] || n == nil || n.IsUnknown() {
		return true
	}
	switch n.Kind {
	case doc.Map:
		return t.kinds["dict"]
	case doc.Seq:
		return t.kinds["list"]
	}
	if n.IsNull() {
		return true // an unset optional, or left to the constructor
	}
	for _, l := range t.literals {
		if n.Value == l || (n.Type == doc.Bool && strings.EqualFold(n.Value, l)) {
			return true
		}
	}
	if t.kinds["str"] {
		return true
	}
	v, isNum := n.Float()
	if isNum && (t.kinds["float"] || t.kinds["int"] && v == float64(int64(v))) {
		return true
	}
	if t.kinds["bool"] {
		if _, ok := n.Bool(); ok || n.Type == doc.Int {
			return true
		}
		switch strings.ToLower(strings.TrimSpace(n.Value)) {
		case "y", "n", "t", "f", "1", "0":
			return true
		}
	}
	return false
}

// describe names what an annotation admits, for messages: "an integer or a number or null".
func (t pyType) describe() string {
	var parts []string
	for _, k := range [...]struct{ kind, text string }{{"int", "an integer"}, {"float", "a number"}, {"bool", "a boolean"},
		{"str", "a string"}, {"list", "a list"}, {"dict", "a mapping"}, {"none", "null"}} {
		if t.kinds[k.kind] {
			parts = append(parts, k.text)
		}
	}
	var uniq []string
	for _, l := range t.literals {
		if !contains(uniq, l) {
			uniq = append(uniq, l)
		}
	}
	if len(uniq) > 0 {
		parts = append(parts, "one of "+strings.Join(quoteAll(uniq), ", "))
	}
	return strings.Join(parts, " or ")
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = `"` + x + `"`
	}
	return out
}
