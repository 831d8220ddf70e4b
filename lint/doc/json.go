package doc

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The JSON front-end is hand-written because encoding/json reports neither positions nor
// repeated keys. It is iterative (an explicit stack of open containers), so nesting depth costs
// heap, not Go stack, and is bounded by Limits.MaxDepth. Strings have Style "double" and are
// Quoted; numbers, booleans and null are "plain"; objects and arrays are "flow".
//
// Comments (// and /* */) and trailing commas are read past, as JSON5 and hjson readers do
// (Amphion loads its configs with json5: utils/util.py at d3de90f; DeepSpeed's own loader of the
// training config is hjson: DeepSpeedConfig.__init__ calls hjson.load, deepspeed/runtime/config.py
// at v0.19.5, while deepspeed.init_inference reads its config file with Python's json), and so is
// the rest of JSON5's syntax: unquoted keys, single-quoted strings (Style "single"), JSON5's
// escapes and line continuations in strings, and numbers with a '+' sign, a sign on NaN,
// hexadecimal digits or a decimal point without a digit on one side. Such a number has Style
// "json5" and, as Value, JSON's decimal form of what the json5 package returns (0x10 is "16",
// .5 is "0.5", +Infinity is "Infinity"), so that Int, Float and every reader of Value see that
// number; its span is the text as written. The first of each kind is a NonStandard problem whose
// Readers say which lenient readers accept it, and rule parse-error reports it as an error
// where the framework reads the file with Python's json, which refuses them all.
//
// What JSON5 and hjson accept was read in their Python packages' sources: json5 v0.15.0
// (json5/json5.g, the grammar parser.py is generated from, and lib.py, which turns its numbers
// into values) and hjson-py 3.1.0 (hjson/decoder.py, unchanged since v3.0.2; single quotes
// since v3.0.0), and both were run on each construct. Not read: JSON5's other white space (\v, \f, U+00A0, U+FEFF, Unicode's Zs, U+2028 and
// U+2029), \uXXXX escapes in unquoted keys and raw control characters in strings (the json5
// package reads them all); they stay parse errors.
//
// What hjson reads and JSON5 does not is read too, as hjson-py 3.1.0 reads it (hjson/decoder.py;
// DeepSpeed's launcher reads its config with it): '#' comments, members with no ',' between
// them, keys up to their ':' (a-b, 1st), ''' multi-line strings, and, in a second reading made
// only of a file the first could not read, quoteless values (a value that starts with none of
// " ' { [ runs to its line's end unless it is null, true, false or a JSON number before a ',',
// a closing bracket or a comment: Adam, is the string "Adam,") and a top-level object without
// its braces. The second reading stands only if it reads the whole file with no escape hjson
// refuses; else the first reading's error stands, where the typo is (hjson reads {"a": True}
// as the string "True}" and then misses the '}'). Each is a NonStandard problem whose Readers
// say hjson alone accepts it. Checked against hjson-py 3.1.0 run on 60,132 mutations (random
// insertions, deletions, dropped commas and quotes) of corpus DeepSpeed configs and hjson
// files (2026-12-04): 27,528 read by both to the same tree and values, 31,179 refused by both,
// 1,415 left out (JSON5's constructs, NaN), 3 comment-only files hjson reads as {} (below), no
// other difference; TestHjson and TestHjsonRefused keep cases from it. Read otherwise than
// hjson reads them: a file of white space and comments alone, which hjson reads as {} and
// trainlint reports as empty; a number with more after it on its line ("x": 1 2, the string
// "1 2" to hjson), reported as a missing ','; NaN and Infinity, which Python's json reads as
// floats and hjson as strings; 1.0, which hjson reads as the int 1.

func parseJSON(d *Document, lim Limits) {
	// transformers (HfArgumentParser.parse_json_file, v5.9.0) and accelerate (the DeepSpeed
	// config, HfDeepSpeedConfig, v1.14.0) open a JSON config as "utf-8", which keeps the
	// mark, and json then stops at it; only "utf-8-sig" would drop it.
	if refusedBOM(d, "Python's json, which transformers and accelerate read JSON configs with, refuses it", "Unexpected UTF-8 BOM") {
		return
	}
	x := d.Lines()
	n0 := len(d.Problems)
	p := &jsonParser{d: d, x: x, src: d.Src, lim: lim, line: 1}
	root := p.parse()
	if p.failed && !p.limited && !d.Declined {
		// hjson's quoteless values are tried only where JSON's and JSON5's syntax fails (not at
		// a limit, nor in a file the light build leaves to the full reader), and kept only where
		// they read the whole file: a value such as True} read to its line's end would otherwise
		// turn "invalid value" at the typo into an error at the file's end.
		first := append([]Problem(nil), d.Problems[n0:]...)
		d.Problems = d.Problems[:n0]
		h := &jsonParser{d: d, x: x, src: d.Src, lim: lim, line: 1, hjson: true}
		if r := h.parse(); !h.failed && h.seen&(nsEscape|nsContinuation) == 0 {
			d.Root = r
			return
		}
		// Neither reading takes the file (or the hjson one needs an escape hjson refuses):
		// the first reading's problems stand.
		d.Problems = append(d.Problems[:n0], first...)
	}
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
	limited     bool // failed at a limit, not at the syntax
	// hjson reads a value none of JSON's or JSON5's as hjson does (quoteless), the second
	// reading parseJSON makes of a file the first could not read.
	hjson  bool
	keyEnd int // where an hjson key ends, before the blanks it drops (else -1: at p.i)
	ml     mlCursor
	// crashed reports a failure where hjson-py raises IndexError rather than its own error,
	// which its reading of a file without braces does not catch to try the file as one value.
	crashed bool
	seen    uint16 // the non-standard kinds (ns*) reported: each is reported once
	alloc   nodeAlloc
	buf     []byte // scratch for strings with escapes
}

// The kinds of non-standard JSON the reader reads past, each reported once per file.
const (
	nsComment uint16 = 1 << iota
	nsComma
	nsKey          // unquoted key
	nsSingle       // single-quoted string
	nsQuoteEscape  // \' in a string
	nsEscape       // \v, \0, \xHH and the escapes of any other character (\a is "a")
	nsContinuation // a backslash before a line break, which the string then goes on past
	nsHex          // 0x10
	nsPoint        // .5, 5.
	nsSign         // +1, +Infinity, -NaN
	nsHash         // # comment (hjson)
	nsNoComma      // members or elements with no ',' between them (hjson)
	nsHjsonKey     // an unquoted key that is no JSON5 identifier, such as a-b (hjson)
	nsMultiline    // ''' multi-line string (hjson)
	nsQuoteless    // a value that is none of JSON's, read as a string to the line's end (hjson)
	nsRoot         // a top-level object without braces (hjson)
)

// nsHjsonOnly are the kinds hjson reads and JSON5 refuses.
const nsHjsonOnly = nsHash | nsNoComma | nsHjsonKey | nsMultiline | nsQuoteless | nsRoot

// nsReaders says which lenient readers accept a kind, as their sources read it (above).
func nsReaders(kind uint16) string {
	switch {
	case kind&nsHjsonOnly != 0:
		return "hjson readers accept it; JSON5 readers refuse it"
	case kind&(nsEscape|nsContinuation) != 0:
		// hjson's scanstring knows JSON's escapes and \' alone ("Invalid \X escape sequence").
		return "JSON5 readers accept it; hjson refuses it"
	case kind&(nsHex|nsPoint|nsSign) != 0:
		// hjson reads a value that does not match its NUMBER_RE (JSON's numbers) as a quoteless
		// string up to the end of the line, or fails where that leaves a bracket open.
		return "JSON5 readers read it as a number; hjson does not"
	}
	return "JSON5 and hjson readers accept it"
}

// frame is an open object or array.
type jsonFrame struct {
	n         *Node
	state     uint8 // jsonFirst, jsonAfterValue
	braceless bool  // hjson's top-level object without braces, closed by the file's end
	seen      map[string]int
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
// parse goes on. Callers whose message costs an allocation test p.seen first.
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
	p.failed, p.limited = true, true
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
		case '#', '/':
			hash := s[p.i] == '#' // hjson's comment (getNext, decoder.py)
			if !hash && (p.i+1 >= len(s) || s[p.i+1] != '/' && s[p.i+1] != '*') {
				return
			}
			start, end := p.i, len(s)
			if hash || s[p.i+1] == '/' {
				// To the line's end; the loop counts the line break.
				for end = p.i + 1; end < len(s) && s[end] != '\n' && s[end] != '\r'; end++ {
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
			if hash {
				p.nonStandard(nsHash, "'#' comment; JSON does not allow comments", start, start+1)
			} else {
				p.nonStandard(nsComment, "JSON does not allow comments", start, start+2)
			}
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
		// hjson reads a file of white space and comments alone as {} (raw_decode); such a file
		// is still reported, as empty: a config that sets nothing is no config.
		p.fail("the file is empty; a JSON file holds one value, such as {}", p.i, p.i)
		return nil
	}
	if c := p.src[p.i]; p.hjson && c != '{' && c != '[' {
		// hjson reads a file that starts with neither bracket as an object without its braces,
		// and failing that as one value (raw_decode).
		i, line, n0, seen, nodes, dups := p.i, p.line, len(p.d.Problems), p.seen, p.nodes, p.dups
		root := p.alloc.new()
		root.Kind, root.Style = Map, "hjson"
		root.Span.Start = p.pos(i)
		p.nonStandard(nsRoot, "object without its braces; JSON needs { and } around it", i, i+1)
		if p.members([]jsonFrame{{n: root, braceless: true}}); !p.failed {
			return root
		} else if p.crashed {
			return nil
		}
		p.i, p.line, p.d.Problems, p.seen, p.nodes, p.dups, p.failed = i, line, p.d.Problems[:n0], seen, nodes, dups, false
	}
	var stack []jsonFrame
	root := p.value(nil, &stack)
	if p.members(stack); p.failed {
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

// members reads the members of the open containers on stack, to where the first of them closes.
func (p *jsonParser) members(stack []jsonFrame) {
	for len(stack) > 0 && !p.failed {
		top := &stack[len(stack)-1]
		prevEnd := p.i
		p.ws()
		if p.failed {
			break
		}
		n := top.n
		if n.Kind == Map {
			step, comma := p.between(&stack, top, prevEnd, '}', "object member")
			if step == jsonStop {
				break
			}
			if step == jsonClosed {
				continue
			}
			ks := p.i
			kline := p.line
			p.keyEnd = -1
			key, ok := p.key(comma)
			if !ok {
				break
			}
			// A line continuation may have taken the key to another line.
			ke := p.pos(p.i)
			if p.keyEnd >= 0 {
				ke = p.pos(p.keyEnd)
			}
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
			keySpan := Span{Start: p.x.posOnLine(kline, ks), End: ke}
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
		if step, _ := p.between(&stack, top, prevEnd, ']', "array element"); step == jsonStop {
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
}

// key reads an object key at p.i: a string, or JSON5's unquoted key. comma says a ',' came
// before it, for the message when there is none.
func (p *jsonParser) key(comma bool) (string, bool) {
	s := p.src
	if p.i < len(s) && (s[p.i] == '"' || s[p.i] == '\'') {
		return p.str()
	}
	j := p.ident()
	if p.failed {
		return "", false
	}
	h, kind := hjsonKeyEnd(s, p.i), nsHjsonKey
	if p.hjson && j > p.i {
		// In the hjson reading a key is hjson's alone (no comment before its ':'); one that is
		// a JSON5 identifier is reported as JSON5's.
		if h == j {
			kind = nsKey
		}
		j = p.i
	}
	if h > j && hjsonColonAfter(s, h) {
		// hjson's key (scanKeyName, decoder.py) runs to the ':' and may hold what JSON5's
		// identifiers may not: a-b, a.b, 1st. With white space before its ':' it is the text
		// rstrip() leaves, which takes U+00A0 and the like off its end too.
		e := h
		if s[h] != ':' {
			e = pyRStrip(s, p.i, h)
		}
		k := string(s[p.i:e])
		if p.seen&kind == 0 {
			p.nonStandard(kind, "unquoted key "+strconv.Quote(k)+"; JSON keys must be in double quotes", p.i, e)
		}
		p.i, p.keyEnd = h, e
		return k, true
	}
	if j > p.i {
		k := string(s[p.i:j])
		if p.seen&nsKey == 0 {
			p.nonStandard(nsKey, "unquoted key "+strconv.Quote(k)+"; JSON keys must be in double quotes", p.i, j)
		}
		p.i = j
		return k, true
	}
	if comma {
		p.expected("a string key after ','")
	} else {
		p.expected("a string key or '}'")
	}
	return "", false
}

// ident returns the end of the JSON5 identifier at p.i (p.i when none starts there), as the
// json5 package's ident rule reads it: a first character that is an ASCII letter, '$', '_' or
// one of jsonIdentRune's, then those, and digits. hjson takes any such key too: its keys end at
// ':' or white space and hold no {}[],.
func (p *jsonParser) ident() int {
	s := p.src
	j := p.i
	for j < len(s) {
		if c := s[j]; c < utf8.RuneSelf {
			if json5IdentByte(c, j == p.i) {
				j++
				continue
			}
			break
		}
		r, size := utf8.DecodeRune(s[j:])
		in, known := jsonIdentRune(p.d, r, j == p.i)
		if !known { // the light build declined the file
			p.failed = true
			return p.i
		}
		if !in {
			break
		}
		j += size
	}
	return j
}

// hjsonKeyEnd is the end of the unquoted key hjson reads from i: up to white space, ':' or one
// of {}[], (which it refuses in a key).
func hjsonKeyEnd(s []byte, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r', ':', '{', '}', '[', ']', ',':
			return i
		}
		i++
	}
	return i
}

// hjsonColonAfter reports whether the key that ends at i is followed by its ':', past white
// space alone (hjson refuses a key with white space inside it, and reads no comment there).
func hjsonColonAfter(s []byte, i int) bool {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i < len(s) && s[i] == ':'
}

// json5IdentByte reports whether the ASCII byte c may stand in a JSON5 unquoted key (first:
// begin it): a letter, '_' or '$', and after the first character a digit too.
func json5IdentByte(c byte, first bool) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || !first && c >= '0' && c <= '9'
}

// JSON5BareKey reports whether key, written without quotes, is a JSON5 key made of ASCII alone
// (json5IdentByte): what a fix may leave unquoted in a JSON5 file.
func JSON5BareKey(key string) bool {
	for i := 0; i < len(key); i++ {
		if !json5IdentByte(key[i], i == 0) {
			return false
		}
	}
	return key != ""
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

// between reads what may stand before the next member of the open container top, objects and
// arrays alike: after a member (state jsonAfterValue), a ',' not followed by closer (JSON has no
// trailing comma) or closer, or, as hjson reads it, nothing (noComma); before the first member,
// closer or nothing. prevEnd is where the last member ended; comma reports whether a ',' was
// read; what names the members in messages.
func (p *jsonParser) between(stack *[]jsonFrame, top *jsonFrame, prevEnd int, closer byte, what string) (step jsonStep, comma bool) {
	at := func(c byte) bool { return p.i < len(p.src) && p.src[p.i] == c }
	if top.braceless {
		at = func(c byte) bool {
			return c == closer && p.i >= len(p.src) || c != closer && p.i < len(p.src) && p.src[p.i] == c
		}
	}
	if top.state == jsonAfterValue {
		switch {
		case at(','):
			comma := p.i
			p.i++
			p.ws()
			if p.failed {
				return jsonStop, true
			}
			if at(closer) {
				where := "before '" + string(closer) + "'"
				if top.braceless {
					where = "at the end of the file"
				}
				p.nonStandard(nsComma, "trailing comma "+where+"; JSON does not allow it", comma, comma+1)
				p.close(stack)
				return jsonClosed, false
			}
			return jsonMember, true
		case at(closer):
			p.close(stack)
			return jsonClosed, false
		case p.noComma(top, prevEnd, closer):
			if last := top.n.Children[len(top.n.Children)-1]; last.Kind == Scalar && !last.Quoted && strings.HasSuffix(last.Value, ",") {
				// The ',' is written: hjson read it into the quoteless string before (`"use_amp":
				// ture,`), whose problem says so; another here would have it written twice.
				return jsonMember, false
			}
			p.nonStandard(nsNoComma, "no ',' before this "+what+"; JSON needs one between "+what+"s", p.i, p.i+1)
			return jsonMember, false
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

// noComma reports whether hjson reads a member at p.i, with no ',' after the last one (which
// ended at prevEnd). hjson-py 3.1.0 (JSONObject and JSONArray, decoder.py) reads the next member
// after any value without looking for a ','; but a value it reads quoteless (a number, true,
// false, null) runs to the line's end unless a ',', a closing bracket or a comment ends it, so
// after one of those the next member must be on another line or past a comment. What stands at
// p.i must also be able to start a member: no bracket, ',' or ':' (a '{' or '[' only in an
// array), else the error that the ',' is missing stays.
func (p *jsonParser) noComma(top *jsonFrame, prevEnd int, closer byte) bool {
	if p.i >= len(p.src) {
		return false
	}
	switch c := p.src[p.i]; c {
	case '}', ']', ',', ':':
		return false
	case '{', '[':
		if closer == '}' {
			return false
		}
	}
	kids := top.n.Children
	if last := kids[len(kids)-1]; last.Kind != Scalar || last.Quoted {
		return true
	}
	return bytes.ContainsAny(p.src[prevEnd:p.i], "\n\r#/")
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
	if !top.braceless {
		p.i++
	}
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
	case c == '\'' && len(s)-p.i >= 3 && s[p.i+1] == '\'' && s[p.i+2] == '\'':
		if !p.multiline(n) {
			return nil
		}
	case p.hjson && c != '"' && c != '\'':
		if !p.quoteless(n) {
			return nil
		}
		return n // its span ends before the blanks hjson's scan took in
	case c == '"' || c == '\'':
		v, ok := p.str()
		if !ok {
			return nil
		}
		n.Kind, n.Type, n.Value, n.Quoted, n.Style = Scalar, String, v, true, "double"
		if c == '\'' {
			n.Style = "single"
		}
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
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		if !p.number(n) {
			return nil
		}
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

// number reads a number at p.i into n. JSON's numbers keep their text as Value (Style "plain"),
// so huge numbers (1e400, 99999999999999999999999) are accepted here and fail later in
// Int/Float. JSON5's (json5.g's num_literal, with lib.py's conversion: a hexadecimal number is
// an int, one with '.', 'e' or 'E' a float) are reported and get Style "json5" and the value
// json5 returns in JSON's form: a '+' dropped, a missing digit around the decimal point written
// as 0, hexadecimal digits in decimal, NaN without its sign.
func (p *jsonParser) number(n *Node) bool {
	s := p.src
	start, i := p.i, p.i
	neg, plus := s[i] == '-', s[i] == '+'
	if neg || plus {
		i++
	}
	n.Kind, n.Type, n.Style = Scalar, Int, "plain"
	var value []byte // the Value, when it is not the text
	var kinds uint16
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	intStart := i
	switch {
	case hasWord(s[i:], "Infinity") || hasWord(s[i:], "NaN"):
		// +Infinity, +NaN or -NaN: value read NaN, Infinity and -Infinity, which Python's json
		// reads too.
		kinds = nsSign
		i += 3
		if s[intStart] == 'I' {
			i += 5
		}
		n.Type, value = Float, s[intStart:i] // -NaN is NaN
	case i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X'):
		kinds = nsHex
		for i += 2; i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i]|0x20 >= 'a' && s[i]|0x20 <= 'f'); i++ {
		}
		if i == intStart+2 {
			break // "0x" alone: an invalid number, below
		}
		// A number past uint64 keeps its digits (0x…, as Python writes them with hex()), which
		// Int and Float refuse, as they refuse a decimal number that large.
		if v, err := strconv.ParseUint(string(s[intStart+2:i]), 16, 64); err == nil {
			value = strconv.AppendUint(nil, v, 10)
		} else {
			value = append([]byte(nil), s[intStart:i]...)
		}
		if neg && string(value) != "0" {
			value = append([]byte{'-'}, value...)
		}
	default:
		nd := digits()
		if nd > 1 && s[intStart] == '0' {
			p.fail("numbers must not have leading zeros", start, i)
			return false
		}
		nf, dot := 0, -1
		if i < len(s) && s[i] == '.' {
			dot = i
			i++
			n.Type = Float
			if nf = digits(); nd == 0 && nf == 0 {
				p.i = i
				p.expected("a digit after the decimal point")
				return false
			}
		}
		if nd == 0 && dot < 0 {
			p.i = i
			f, end := p.found()
			p.fail("expected a digit in number, found "+f, i, end)
			return false
		}
		if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
			i++
			n.Type = Float
			if i < len(s) && (s[i] == '+' || s[i] == '-') {
				i++
			}
			if digits() == 0 {
				p.i = i
				p.expected("a digit in the exponent")
				return false
			}
		}
		if dot >= 0 && (nd == 0 || nf == 0) {
			kinds = nsPoint
			// JSON's form: 0 for the missing digits.
			from := start // the sign, but for a '+'
			if plus {
				from++
			}
			value = append(value, s[from:dot]...)
			if nd == 0 {
				value = append(value, '0')
			}
			value = append(value, '.')
			if nf == 0 {
				value = append(value, '0')
			}
			value = append(value, s[dot+1:i]...)
		}
	}
	if i < len(s) && isWordByte(s[i]) || kinds == nsHex && i == intStart+2 {
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		p.fail("invalid number "+strconv.Quote(string(s[start:j])), start, j)
		return false
	}
	p.i = i
	if plus {
		kinds |= nsSign
		if value == nil {
			value = s[start+1 : i]
		}
	}
	if kinds == 0 {
		n.Value = string(s[start:i])
		return true
	}
	n.Style, n.Value = "json5", string(value)
	if p.seen&kinds == kinds {
		return true
	}
	text := strconv.Quote(string(s[start:i]))
	if kinds&nsHex != 0 {
		p.nonStandard(nsHex, "hexadecimal number "+text+"; JSON does not allow it", start, i)
	}
	if kinds&nsPoint != 0 {
		side := "after"
		if s[intStart] == '.' {
			side = "before"
		}
		p.nonStandard(nsPoint, "number "+text+" has no digit "+side+" its decimal point; JSON does not allow it", start, i)
	}
	if kinds&nsSign != 0 {
		sign := "a '+' sign"
		if neg {
			sign = "a sign" // -NaN
		}
		p.nonStandard(nsSign, "number "+text+" has "+sign+"; JSON does not allow it", start, i)
	}
	return true
}

// str reads a string at p.i (which holds a double quote, or JSON5's single quote) and resolves
// its escapes.
func (p *jsonParser) str() (string, bool) {
	s := p.src
	start := p.i
	q := s[start]
	i := p.i + 1
	// Fast path: no escapes.
	for i < len(s) {
		c := s[i]
		if c == q {
			p.i = i + 1
			p.single(start)
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
			p.fail("the string that starts here is not closed; a "+quoteName(q)+" is missing", start, start+1)
			return "", false
		}
		c := s[i]
		switch {
		case c == q:
			p.i = i + 1
			p.buf = b
			p.single(start)
			return string(b), true
		case c == '\n' || c == '\r':
			p.fail("the string that starts here is not closed before the end of the line", start, start+1)
			return "", false
		case c < 0x20:
			p.fail("control character "+hexByte(c)+" in a string; write it as an escape such as \\t", i, i+1)
			return "", false
		case c == '\\':
			if i+1 >= len(s) {
				p.fail("the string that starts here is not closed; a "+quoteName(q)+" is missing", start, start+1)
				return "", false
			}
			nb, next, ok := AppendJSONEscape(b, s, i+1)
			if !ok {
				nb, next, ok = p.json5Escape(b, i+1)
			}
			if !ok {
				switch e := s[i+1]; e {
				case 'u':
					p.fail("invalid \\u escape; it needs four hex digits", i, min(i+6, len(s)))
				case 'x':
					p.fail("invalid escape \\x in a string; it needs two hex digits", i, min(i+4, len(s)))
				case '0':
					p.fail("invalid escape \\0 before a digit in a string", i, i+3)
				default:
					p.fail("invalid escape \\"+string(rune(e))+" in a string", i, i+2)
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

// quoteName names a string's quote character in a message.
func quoteName(q byte) string {
	if q == '\'' {
		return `"'"`
	}
	return `'"'`
}

// single reports the single-quoted string that starts at start and ends at p.i.
func (p *jsonParser) single(start int) {
	if p.src[start] == '\'' {
		p.nonStandard(nsSingle, "single-quoted string; JSON strings and keys must use double quotes", start, p.i)
	}
}

// json5Escape decodes onto b an escape that JSON lacks and JSON5 has, whose letter is s[i] (the
// byte after the backslash), as json5.g's esc_char and line continuation ("bslash eol") read it,
// and reports it; ok is false where JSON5 refuses it too: \u without four hex digits, \x
// without two, \1 to \9, \0 before a digit, a byte that is not UTF-8.
func (p *jsonParser) json5Escape(b []byte, i int) (out []byte, next int, ok bool) {
	s := p.src
	r, size := utf8.DecodeRune(s[i:])
	switch {
	case r == 'u' || r >= '1' && r <= '9' || r == '0' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9',
		r == utf8.RuneError && size == 1:
		return b, i, false
	case r == '\'':
		p.nonStandard(nsQuoteEscape, "escape \\' in a string; JSON does not allow it", i-1, i+1)
		return append(b, '\''), i + 1, true
	case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
		if r == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			size++
		}
		if r == '\n' || r == '\r' {
			p.line++ // as LineIndex counts lines: U+2028 and U+2029 end none
		}
		p.nonStandard(nsContinuation, "backslash before a line break in a string; JSON does not allow it", i-1, i)
		return b, i + size, true
	case r == 'x':
		h, ok := hex4(append([]byte("00"), s[i+1:min(i+3, len(s))]...), 0)
		if !ok {
			return b, i, false
		}
		b, size = utf8.AppendRune(b, h), 3
	case r == 'v':
		b = append(b, '\v')
	case r == '0':
		b = append(b, 0)
	default: // any other character stands for itself
		b = append(b, s[i:i+size]...)
	}
	if p.seen&nsEscape == 0 {
		e := string(s[i : i+size])
		if r < 0x20 {
			e = " before control character " + hexByte(byte(r))
		}
		p.nonStandard(nsEscape, "escape \\"+e+" in a string; JSON does not allow it", i-1, i+size)
	}
	return b, i + size, true
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

// quoteless reads, in the hjson reading (p.hjson), a value at p.i that starts with none of
// " ' { [ as hjson-py 3.1.0 reads it (scantfnns, decoder.py): from there to the first ',',
// '}', ']', '#', "//", "/*" or line end at which the text, stripped, is null, true, false or a
// number JSON's way (NUMBER_RE: no '+', no leading zero, digits on both sides of a '.'), which
// it then is; else to the line's end, a string stripped of white space as str.strip() strips it,
// brackets, commas and all (hjson's "Adam," keeps its comma).
func (p *jsonParser) quoteless(n *Node) bool {
	s := p.src
	begin := p.i
	c := s[begin]
	switch c {
	case '}', ']', ',', ':':
		p.expected("a value")
		return false
	}
	// What the text could be is known before the scan: each stop then costs a comparison (a
	// line of 100,000 commas after "x" has as many stops).
	var kw string
	var kwType Type
	switch c {
	case 'n':
		kw, kwType = "null", Null
	case 't':
		kw, kwType = "true", Bool
	case 'f':
		kw, kwType = "false", Bool
	}
	kwTo := -1 // past the keyword and the white space after it, when the text starts with it
	if kw != "" && bytes.HasPrefix(s[begin:], []byte(kw)) {
		kwTo = pySpaceEnd(s, begin+len(kw))
	}
	numEnd, float := -1, false
	if c == '-' || c >= '0' && c <= '9' {
		numEnd, float = hjsonNumber(s, begin)
	}
	for end := begin; ; end++ {
		eol := end >= len(s) || s[end] == '\n' || s[end] == '\r'
		if !eol {
			switch c := s[end]; {
			case c == ',' || c == '}' || c == ']' || c == '#':
			case c == '/' && end+1 < len(s) && (s[end+1] == '/' || s[end+1] == '*'):
			default:
				continue
			}
		}
		ts, te := begin, end
		switch {
		case kwTo >= end && end >= begin+len(kw):
			te = begin + len(kw)
			n.Kind, n.Type, n.Value, n.Style = Scalar, kwType, kw, "plain"
		case numEnd == end:
			for te > begin && (s[te-1] == ' ' || s[te-1] == '\t') {
				te--
			}
			n.Kind, n.Type, n.Value, n.Style = Scalar, Int, asciiDigits(string(s[begin:te])), "plain"
			if float {
				n.Type = Float
			}
			if n.Value != string(s[begin:te]) {
				n.Style = "hjson" // digits other than 0-9
			}
		case !eol:
			continue
		default:
			// The string to the line's end.
			ts, te = pyStripSpan(s, begin, end)
			t := string(s[ts:te])
			n.Kind, n.Type, n.Value, n.Style = Scalar, String, t, "hjson"
			if IsPlaceholder(t) {
				n.Type = Unknown
			}
			if p.seen&nsQuoteless == 0 {
				p.nonStandard(nsQuoteless, quotelessMessage(t), ts, te)
			}
		}
		// The value ends where hjson's scan stopped, past the blanks strip() took off; its span
		// ends before them.
		n.Span.End = p.pos(te)
		p.i = end
		return true
	}
}

// pySpaceEnd is the end of the run from i of what str.isspace() takes for white space.
func pySpaceEnd(s []byte, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRune(s[i:])
		if !pyIsSpace(r) {
			break
		}
		i += n
	}
	return i
}

// hjsonNumber matches hjson's NUMBER_RE at i, where the value starts (so its leading blanks
// match nothing): -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?[\t ]*. It returns the match's end (-1
// where it does not match) and whether it has a fraction or an exponent. \d matches any decimal
// digit in a Python str pattern (Unicode's Nd), and int() and float() read them all.
func hjsonNumber(s []byte, i int) (end int, float bool) {
	digits := func(j int) int { // the end of the run of \d from j
		for j < len(s) {
			if c := s[j]; c >= '0' && c <= '9' {
				j++
				continue
			} else if c >= utf8.RuneSelf {
				if r, n := utf8.DecodeRune(s[j:]); unicode.IsDigit(r) {
					j += n
					continue
				}
			}
			break
		}
		return j
	}
	j := i
	if j < len(s) && s[j] == '-' {
		j++
	}
	switch {
	case j < len(s) && s[j] == '0':
		j++
	case j < len(s) && s[j] >= '1' && s[j] <= '9':
		j = digits(j + 1)
	default:
		return -1, false
	}
	if j+1 < len(s) && s[j] == '.' {
		if k := digits(j + 1); k > j+1 {
			j, float = k, true
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if e := digits(k); e > k {
			j, float = e, true
		}
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	return j, float
}

// asciiDigits writes t's decimal digits as 0-9, as int() and float() read any of Unicode's: Nd
// digits come in runs of ten from zero, so a digit's value is its distance from the start of
// its run, modulo ten.
func asciiDigits(t string) string {
	ascii := true
	for i := 0; i < len(t); i++ {
		ascii = ascii && t[i] < utf8.RuneSelf
	}
	if ascii {
		return t
	}
	b := make([]byte, 0, len(t))
	for _, r := range t {
		if r >= utf8.RuneSelf && unicode.IsDigit(r) {
			z := r
			for unicode.IsDigit(z - 1) {
				z--
			}
			r = '0' + (r-z)%10
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// pyStripSpan is [start, end) without the white space str.strip() takes off both ends
// (str.isspace: Unicode's white space and U+001C to U+001F).
func pyStripSpan(s []byte, start, end int) (int, int) {
	start = pySpaceEnd(s[:end], start)
	return start, pyRStrip(s, start, end)
}

// pyRStrip is the end of s[start:end] without the white space str.rstrip() takes off.
func pyRStrip(s []byte, start, end int) int {
	for end > start {
		r, n := utf8.DecodeLastRune(s[start:end])
		if !pyIsSpace(r) {
			break
		}
		end -= n
	}
	return end
}

// quotelessMessage words the problem of hjson's quoteless string t.
func quotelessMessage(t string) string {
	q := t
	if len(q) > 60 {
		k := 60
		for k > 0 && !utf8.RuneStart(q[k]) {
			k--
		}
		q = q[:k] + "…"
	}
	w := t
	if k := strings.IndexFunc(t, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }); k >= 0 {
		w = t[:k]
	}
	switch {
	case strings.EqualFold(w, "true") || strings.EqualFold(w, "false") || strings.EqualFold(w, "null") || w == "None":
		return "unquoted value " + strconv.Quote(q) + "; JSON spells true, false and null in lower case, and hjson reads this as a string"
	case strings.HasSuffix(t, ","):
		return "unquoted string " + strconv.Quote(q) + "; JSON strings must be in double quotes (hjson keeps the ',' at its end in the string)"
	}
	return "unquoted string " + strconv.Quote(q) + "; JSON strings must be in double quotes"
}

// multiline reads hjson's multi-line string at p.i (its opening triple quote) as hjson-py 3.1.0
// reads it (mlscanstring, decoder.py): the column of the triple quote (in characters from the
// line's start) is the indent; spaces, tabs and CRs after it are skipped, and so is the line
// break after them with up to indent of those on the next line; then every line's text is kept,
// each line's indent skipped the same way and CRs dropped, to the next triple quote (quotes
// before it kept), without the line break just before it. JSON5 reads the three quotes as an
// empty string and a quote, and refuses them.
func (p *jsonParser) multiline(n *Node) bool {
	s := p.src
	start := p.i
	indent, ok := p.mlIndent(start)
	if !ok {
		// No line break at all: hjson's search runs off the file and raises IndexError.
		p.fail("multi-line string ''' in a file of one line", start, start+3)
		p.crashed = true
		return false
	}
	skip := func(i, n int) int { // skipIndent: up to n (all, when n < 0) of ' ', '\t', '\r'
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') && n != 0 {
			i++
			n--
		}
		return i
	}
	i := skip(start+3, -1)
	if i >= len(s) {
		// hjson's s[end] here raises IndexError.
		p.fail("the multi-line string that starts here is not closed; ''' is missing", start, start+3)
		p.crashed = true
		return false
	}
	if s[i] == '\n' {
		i = skip(i+1, indent)
	}
	b := p.buf[:0]
	quotes := 0
	for {
		if i >= len(s) {
			p.fail("the multi-line string that starts here is not closed; ''' is missing", start, start+3)
			return false
		}
		c := s[i]
		if c == '\'' {
			quotes++
			i++
			if quotes == 3 {
				break
			}
			continue
		}
		for ; quotes > 0; quotes-- {
			b = append(b, '\'')
		}
		switch c {
		case '\n':
			b = append(b, c)
			i = skip(i+1, indent)
		case '\r':
			i++
		default:
			b = append(b, c)
			i++
		}
	}
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	p.buf = b
	p.i = i
	p.line = p.x.Pos(i).Line
	n.Kind, n.Type, n.Value, n.Quoted, n.Style = Scalar, String, string(b), true, "multiline"
	if IsPlaceholder(n.Value) {
		n.Type = Unknown
	}
	p.nonStandard(nsMultiline, "''' multi-line string; JSON strings must be in double quotes on one line", start, start+3)
	return true
}

// mlCursor follows, from one triple-quoted string to the next, the last line break before it and the
// characters since, so that finding each one's indent costs only the bytes since the last: a
// line of many such strings would otherwise be read back once for each.
type mlCursor struct {
	pos   int // where the count was made
	nl    int // 1 + the offset of the last '\n' before pos; 0 for none
	runes int // characters from that '\n' (or the file's start) to pos
	tail  int // 1 + the characters after the file's last '\n', once counted
}

// mlIndent is the indent hjson's mlscanstring finds for a triple quote at start: the characters back to
// the '\n' before it, or on the first line, where Python's negative index goes on from the
// file's end, those plus the ones after the file's last '\n'; ok is false for a file with none.
func (p *jsonParser) mlIndent(start int) (indent int, ok bool) {
	c, s := &p.ml, p.src
	if start < c.pos {
		c.pos, c.nl, c.runes = 0, 0, 0
	}
	for i := c.pos; i < start; i++ {
		if s[i] == '\n' {
			c.nl, c.runes = i+1, 0
		} else if utf8.RuneStart(s[i]) {
			c.runes++
		}
	}
	c.pos = start
	if c.nl > 0 {
		return c.runes, true
	}
	if c.tail == 0 {
		last := bytes.LastIndexByte(s, '\n')
		if last < 0 {
			return 0, false
		}
		c.tail = 1 + utf8.RuneCount(s[last+1:])
	}
	return c.runes + c.tail - 1, true
}
