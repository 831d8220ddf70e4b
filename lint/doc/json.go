package doc

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The JSON front-end is hand-written because encoding/json reports neither positions nor
// repeated keys. It is iterative (an explicit stack of open containers), so nesting depth costs
// heap, not Go stack, and is bounded by Limits.MaxDepth. Strings have Style "double" and are
// Quoted; numbers, booleans and null are "plain"; objects and arrays are "flow".
//
// Comments (// and /* */) and trailing commas are read past, as JSON5 and hjson readers do
// (Amphion loads its configs with json5; DeepSpeed's own loader of the training config is
// hjson: DeepSpeedConfig.__init__ calls hjson.load, deepspeed/runtime/config.py at v0.19.5,
// while deepspeed.init_inference reads its config file with Python's json): the first of each
// is a NonStandard problem, which rule parse-error reports as an error where the framework
// reads the file with Python's json, which refuses both.

func parseJSON(d *Document, lim Limits) {
	// transformers (HfArgumentParser.parse_json_file, v5.9.0) and accelerate (the DeepSpeed
	// config, HfDeepSpeedConfig, v1.14.0) open a JSON config as "utf-8", which keeps the
	// mark, and json then stops at it; only "utf-8-sig" would drop it.
	if refusedBOM(d, "Python's json, which transformers and accelerate read JSON configs with, refuses it", "Unexpected UTF-8 BOM") {
		return
	}
	p := &jsonParser{d: d, x: d.Lines(), src: d.Src, lim: lim, line: 1}
	root := p.parse()
	if p.failed {
		d.Root = nil
		return
	}
	d.Root = root
}

type jsonParser struct {
	d    *Document
	x    *LineIndex
	src  []byte
	lim  Limits
	i    int // current offset
	line int // 1-based line of i

	nodes, dups int
	failed      bool
	seen        uint16 // the non-standard kinds (ns*) reported: each is reported once
	alloc       nodeAlloc
	buf         []byte // scratch for strings with escapes
}

// The kinds of non-standard JSON the reader reads past, each reported once per file.
const (
	nsComment uint16 = 1 << iota
	nsComma
)

// nsReaders says which lenient readers accept a kind: JSON5's (the Python json5 package,
// json5.g at v0.15.0) and hjson's (hjson-py 3.1.0, decoder.py's getNext, JSONObject and
// JSONArray) both read comments and trailing commas.
func nsReaders(kind uint16) string {
	return "JSON5 and hjson readers accept it"
}

// frame is an open object or array.
type jsonFrame struct {
	n     *Node
	state uint8 // jsonFirst, jsonAfterValue
	seen  map[string]int
}

const (
	jsonFirst uint8 = iota
	jsonAfterValue
)

func (p *jsonParser) pos(off int) Pos {
	// The parser keeps p.line for p.i; positions before p.i on the same line are common too.
	if ls := p.x.LineStart(p.line); off >= ls && (p.line >= p.x.NumLines() || off < p.x.LineStart(p.line+1)) {
		return p.x.posOnLine(p.line, off)
	}
	return p.x.Pos(off)
}

// fail records a parse error at [start, end) and stops the parser.
func (p *jsonParser) fail(msg string, start, end int) {
	if p.failed {
		return
	}
	p.failed = true
	p.d.Problems = append(p.d.Problems, Problem{Kind: Syntax, Message: msg, Span: Span{Start: p.pos(start), End: p.pos(end)}})
}

// nonStandard records, once per kind, what lenient JSON readers accept at [start, end); the
// parse goes on.
func (p *jsonParser) nonStandard(kind uint16, msg string, start, end int) {
	if p.seen&kind != 0 {
		return
	}
	p.seen |= kind
	p.d.Problems = append(p.d.Problems, Problem{Kind: NonStandard, Message: msg, Readers: nsReaders(kind), Span: Span{Start: p.pos(start), End: p.pos(end)}})
}

func (p *jsonParser) limit(msg string) {
	if p.failed {
		return
	}
	p.failed = true
	p.d.addProblem(LimitExceeded, msg, p.i, p.i)
}

// ws skips whitespace, counting lines the way LineIndex does.
func (p *jsonParser) ws() {
	s := p.src
	for p.i < len(s) {
		switch s[p.i] {
		case ' ', '\t':
		case '\n':
			p.line++
		case '\r':
			if p.i+1 >= len(s) || s[p.i+1] != '\n' {
				p.line++
			}
		case '/':
			if p.i+1 >= len(s) || s[p.i+1] != '/' && s[p.i+1] != '*' {
				return
			}
			start, end := p.i, len(s)
			if s[p.i+1] == '/' {
				// To the line's end; the loop counts the line break.
				for end = p.i + 2; end < len(s) && s[end] != '\n' && s[end] != '\r'; end++ {
				}
			} else {
				j := bytes.Index(s[p.i+2:], []byte("*/"))
				if j < 0 {
					p.fail("comment opened with /* is not closed", p.i, p.i+2)
					return
				}
				end = p.i + 2 + j + 2
				for k := p.i + 2; k < end; k++ {
					if s[k] == '\n' || s[k] == '\r' && (k+1 >= len(s) || s[k+1] != '\n') {
						p.line++
					}
				}
			}
			p.nonStandard(nsComment, "JSON does not allow comments", start, start+2)
			p.i = end
			continue
		default:
			return
		}
		p.i++
	}
}

// found describes the token at the current offset for an error message, and its end.
func (p *jsonParser) found() (string, int) {
	s := p.src
	if p.i >= len(s) {
		return "the end of the file", p.i
	}
	c := s[p.i]
	if isWordByte(c) {
		j := p.i
		for j < len(s) && isWordByte(s[j]) && j-p.i < 40 {
			j++
		}
		return strconv.Quote(string(s[p.i:j])), j
	}
	r, size := utf8.DecodeRune(s[p.i:])
	return strconv.QuoteRune(r), p.i + size
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '+' || c == '.'
}

func (p *jsonParser) expected(what string) {
	f, end := p.found()
	p.fail("expected "+what+", found "+f, p.i, end)
}

func (p *jsonParser) parse() *Node {
	p.ws()
	if p.failed {
		return nil
	}
	if p.i >= len(p.src) {
		p.fail("the file is empty; a JSON file holds one value, such as {}", p.i, p.i)
		return nil
	}
	var stack []jsonFrame
	root := p.value(nil, &stack)
	for len(stack) > 0 && !p.failed {
		top := &stack[len(stack)-1]
		p.ws()
		if p.failed {
			break
		}
		n := top.n
		if n.Kind == Map {
			step, comma := p.between(&stack, top.state, '}', "object member")
			if step == jsonStop {
				break
			}
			if step == jsonClosed {
				continue
			}
			if comma && (p.i >= len(p.src) || p.src[p.i] != '"') {
				p.expected("a string key after ','")
				break
			}
			if p.i >= len(p.src) || p.src[p.i] != '"' {
				if p.i < len(p.src) && p.src[p.i] == '\'' {
					p.fail("JSON strings and keys must use double quotes", p.i, p.i+1)
				} else {
					p.expected("a string key or '}'")
				}
				break
			}
			ks := p.i
			kline := p.line
			key, ok := p.str()
			if !ok {
				break
			}
			ke := p.i
			p.ws()
			if p.failed {
				break
			}
			if p.i >= len(p.src) || p.src[p.i] != ':' {
				p.expected("':' after object key " + strconv.Quote(key))
				break
			}
			p.i++
			p.ws()
			if p.failed {
				break
			}
			keySpan := Span{Start: p.x.posOnLine(kline, ks), End: p.x.posOnLine(kline, ke)}
			child := p.value(n, &stack)
			if child == nil {
				break
			}
			top = parentFrame(stack, child)
			child.Key = key
			child.KeySpan = keySpan
			p.checkDup(top, child)
			appendChild(top, child)
			continue
		}
		// array
		if step, _ := p.between(&stack, top.state, ']', "array element"); step == jsonStop {
			break
		} else if step == jsonClosed {
			continue
		}
		child := p.value(n, &stack)
		if child == nil {
			break
		}
		appendChild(parentFrame(stack, child), child)
	}
	if p.failed {
		return nil
	}
	p.ws()
	if !p.failed && p.i < len(p.src) {
		f, end := p.found()
		p.fail("unexpected "+f+" after the end of the top-level value; a JSON file holds one value", p.i, end)
	}
	if p.failed {
		return nil
	}
	return root
}

// checkDup reports a key that an earlier member of the same object already has.
func (p *jsonParser) checkDup(f *jsonFrame, child *Node) {
	n := f.n
	first := -1
	if f.seen == nil && len(n.Children) < 16 {
		for i, o := range n.Children {
			if o.Key == child.Key {
				first = i
				break
			}
		}
	} else {
		if f.seen == nil {
			f.seen = make(map[string]int, 2*len(n.Children))
			for i, o := range n.Children {
				if _, ok := f.seen[o.Key]; !ok {
					f.seen[o.Key] = i
				}
			}
		}
		if i, ok := f.seen[child.Key]; ok {
			first = i
		} else {
			f.seen[child.Key] = len(n.Children)
		}
	}
	if first >= 0 {
		o := n.Children[first]
		how := overrides(o.KeySpan, child.KeySpan)
		p.d.addDuplicate(child.Key, o.KeySpan, child.KeySpan, how, &p.dups)
	}
}

// close ends the container on top of the stack at its closing bracket.
// jsonStep says what comes next in an open object or array.
type jsonStep uint8

const (
	jsonMember jsonStep = iota // a member or element follows
	jsonClosed                 // the container was closed
	jsonStop                   // a parse error was reported
)

// between reads what may stand before the next member of the open container, objects and arrays
// alike: after a member (state jsonAfterValue), a ',' not followed by closer (JSON has no
// trailing comma) or closer; before the first member, closer or nothing. comma reports whether a
// ',' was read; what names the members in messages.
func (p *jsonParser) between(stack *[]jsonFrame, state uint8, closer byte, what string) (step jsonStep, comma bool) {
	at := func(c byte) bool { return p.i < len(p.src) && p.src[p.i] == c }
	if state == jsonAfterValue {
		switch {
		case at(','):
			comma := p.i
			p.i++
			p.ws()
			if p.failed {
				return jsonStop, true
			}
			if at(closer) {
				p.nonStandard(nsComma, "trailing comma before '"+string(closer)+"'; JSON does not allow it", comma, comma+1)
				p.close(stack)
				return jsonClosed, false
			}
			return jsonMember, true
		case at(closer):
			p.close(stack)
			return jsonClosed, false
		}
		p.expected("',' or '" + string(closer) + "' after " + what)
		return jsonStop, false
	}
	if at(closer) {
		p.close(stack)
		return jsonClosed, false
	}
	return jsonMember, false
}

// parentFrame is the frame of the container child was read into: value() pushes a frame for an
// object or array (and may have moved the stack's backing array), so it is one below the top.
func parentFrame(stack []jsonFrame, child *Node) *jsonFrame {
	if child.Kind != Scalar {
		return &stack[len(stack)-2]
	}
	return &stack[len(stack)-1]
}

// appendChild adds a finished member to its container's node.
func appendChild(f *jsonFrame, child *Node) {
	child.Index = len(f.n.Children)
	f.n.Children = append(f.n.Children, child)
	f.state = jsonAfterValue
}

func (p *jsonParser) close(stack *[]jsonFrame) {
	top := (*stack)[len(*stack)-1]
	p.i++
	top.n.Span.End = p.pos(p.i)
	*stack = (*stack)[:len(*stack)-1]
}

// value reads the value at p.i. A scalar is complete on return; for an object or array the node
// is returned open, with its frame pushed on the stack.
func (p *jsonParser) value(parent *Node, stack *[]jsonFrame) *Node {
	s := p.src
	if p.i >= len(s) {
		p.expected("a value")
		return nil
	}
	p.nodes++
	if p.nodes > p.lim.MaxNodes {
		p.limit(limitMessage("the file has more than "+itoa(p.lim.MaxNodes)+" values", "max_nodes"))
		return nil
	}
	n := p.alloc.new()
	n.setParent(parent)
	start := p.i
	n.Span.Start = p.pos(start)
	switch c := s[p.i]; {
	case c == '{' || c == '[':
		if len(*stack) > p.lim.MaxDepth {
			p.limit(limitMessage("nesting is deeper than "+itoa(p.lim.MaxDepth)+" levels", "max_depth"))
			return nil
		}
		n.Kind = Map
		if c == '[' {
			n.Kind = Seq
		}
		n.Style = "flow"
		p.i++
		*stack = append(*stack, jsonFrame{n: n})
		return n
	case c == '"':
		v, ok := p.str()
		if !ok {
			return nil
		}
		n.Kind, n.Type, n.Value, n.Quoted, n.Style = Scalar, String, v, true, "double"
		if IsPlaceholder(v) {
			n.Type = Unknown
		}
	case c == 'N' && hasWord(s[p.i:], "NaN"), c == 'I' && hasWord(s[p.i:], "Infinity"), c == '-' && hasWord(s[p.i:], "-Infinity"):
		// Not JSON, but Python's json module writes and reads these, and training configs are
		// read by Python: accept them as floats rather than fail the whole file.
		j := p.i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		n.Kind, n.Type, n.Value, n.Style = Scalar, Float, string(s[p.i:j]), "plain"
		p.i = j
	case c == '-' || c >= '0' && c <= '9':
		t, ok := p.number()
		if !ok {
			return nil
		}
		n.Kind, n.Type, n.Value, n.Style = Scalar, t, string(s[start:p.i]), "plain"
	default:
		j := p.i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		w := string(s[p.i:j])
		switch w {
		case "true", "false":
			n.Kind, n.Type, n.Value = Scalar, Bool, w
		case "null":
			n.Kind, n.Type, n.Value = Scalar, Null, w
		default:
			switch {
			case c == '\'':
				p.fail("JSON strings must use double quotes", p.i, p.i+1)
			case strings.EqualFold(w, "true") || strings.EqualFold(w, "false") || strings.EqualFold(w, "null") || w == "None":
				p.fail("invalid value "+strconv.Quote(w)+"; JSON spells these true, false and null, in lower case", p.i, j)
			case c == '}' || c == ']' || c == ',' || c == ':':
				p.expected("a value")
			case w != "":
				p.fail("invalid value "+strconv.Quote(w)+"; strings must be in double quotes", p.i, j)
			default:
				p.expected("a value")
			}
			return nil
		}
		n.Style = "plain"
		p.i = j
	}
	n.Span.End = p.pos(p.i)
	return n
}

// number scans a JSON number at p.i and returns Int or Float. The text is kept as written, so
// huge numbers (1e400, 99999999999999999999999) are accepted here and fail later in Int/Float.
func (p *jsonParser) number() (Type, bool) {
	s := p.src
	start := p.i
	i := p.i
	if s[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	intStart := i
	if nd := digits(); nd == 0 {
		p.i = i
		f, end := p.found()
		p.fail("expected a digit in number, found "+f, i, end)
		return 0, false
	} else if nd > 1 && s[intStart] == '0' {
		p.fail("numbers must not have leading zeros", start, i)
		return 0, false
	}
	t := Int
	if i < len(s) && s[i] == '.' {
		i++
		t = Float
		if digits() == 0 {
			p.i = i
			p.expected("a digit after the decimal point")
			return 0, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		t = Float
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.i = i
			p.expected("a digit in the exponent")
			return 0, false
		}
	}
	if i < len(s) && isWordByte(s[i]) {
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		p.fail("invalid number "+strconv.Quote(string(s[start:j])), start, j)
		return 0, false
	}
	p.i = i
	return t, true
}

// str reads a string at p.i (which holds '"') and resolves its escapes.
func (p *jsonParser) str() (string, bool) {
	s := p.src
	start := p.i
	i := p.i + 1
	// Fast path: no escapes.
	for i < len(s) {
		c := s[i]
		if c == '"' {
			p.i = i + 1
			return string(s[start+1 : i]), true
		}
		if c == '\\' || c < 0x20 {
			break
		}
		i++
	}
	b := append(p.buf[:0], s[start+1:i]...)
	for {
		if i >= len(s) {
			p.fail("the string that starts here is not closed; a '\"' is missing", start, start+1)
			return "", false
		}
		c := s[i]
		switch {
		case c == '"':
			p.i = i + 1
			p.buf = b
			return string(b), true
		case c == '\n' || c == '\r':
			p.fail("the string that starts here is not closed before the end of the line", start, start+1)
			return "", false
		case c < 0x20:
			p.fail("control character "+hexByte(c)+" in a string; write it as an escape such as \\t", i, i+1)
			return "", false
		case c == '\\':
			if i+1 >= len(s) {
				p.fail("the string that starts here is not closed; a '\"' is missing", start, start+1)
				return "", false
			}
			nb, next, ok := AppendJSONEscape(b, s, i+1)
			if !ok {
				if s[i+1] == 'u' {
					p.fail("invalid \\u escape; it needs four hex digits", i, min(i+6, len(s)))
				} else {
					p.fail("invalid escape \\"+string(rune(s[i+1]))+" in a string", i, i+2)
				}
				return "", false
			}
			b, i = nb, next
		default:
			b = append(b, c)
			i++
		}
	}
}

// AppendJSONEscape decodes the JSON escape whose letter is s[i] (the byte after the backslash)
// onto b and returns the index after it. A \u escape of a UTF-16 high surrogate takes the low
// surrogate escape after it when the two form a pair; a lone surrogate becomes U+FFFD. ok is
// false for an unknown letter or a \u without four hex digits; the caller words the error.
// The request reader of the WebAssembly API decodes its strings with it too.
func AppendJSONEscape(b, s []byte, i int) (out []byte, next int, ok bool) {
	switch e := s[i]; e {
	case '"', '\\', '/':
		return append(b, e), i + 1, true
	case 'b':
		return append(b, '\b'), i + 1, true
	case 'f':
		return append(b, '\f'), i + 1, true
	case 'n':
		return append(b, '\n'), i + 1, true
	case 'r':
		return append(b, '\r'), i + 1, true
	case 't':
		return append(b, '\t'), i + 1, true
	case 'u':
		r, ok := hex4(s, i+1)
		if !ok {
			return b, i, false
		}
		i += 5
		if utf16.IsSurrogate(r) && i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
			if r2, ok := hex4(s, i+2); ok {
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r = d
					i += 6
				}
			}
		}
		return utf8.AppendRune(b, r), i, true
	}
	return b, i, false
}

func hex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// hasWord reports whether s starts with the word w, not followed by more word bytes.
func hasWord(s []byte, w string) bool {
	return len(s) >= len(w) && string(s[:len(w)]) == w && (len(s) == len(w) || !isWordByte(s[len(w)]))
}
