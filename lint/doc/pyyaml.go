package doc

import "bytes"

// The frameworks load YAML with PyYAML (directly, or through OmegaConf, Hydra and jsonargparse),
// which follows YAML 1.1 and is stricter than yaml.v3 in ways that matter to a config:
//
//   - it never takes a tab for whitespace between tokens: a tab outside a quoted string, a block
//     scalar or a comment stops it with "found character '\t' that cannot start any token"
//     (its scanner skips only spaces), where yaml.v3 reads "key:<tab>value" as YAML 1.2 allows;
//   - a line left of the document's block (a first line indented by two, a later one by none)
//     is refused with "expected '<document start>'", where yaml.v3 stops reading at that line
//     and silently drops the rest of the file (a document after "..." without "---" gets the
//     same refusal from both);
//   - a mapping or a list as a key ("? [a]\n: b", "[a]: b") cannot be a Python dict's key
//     ("found unhashable key"); yaml.v3 keeps it;
//   - the escape \' in a double-quoted string is not YAML's (PyYAML: "found unknown escape
//     character"); yaml.v3 reads it as a quote;
//   - a bare = as a value is YAML 1.1's value key, which PyYAML's safe loader cannot construct;
//     as a key it is read as the string "=" (its flatten_mapping), as yaml.v3 reads it;
//   - inside braces or brackets, a ':' followed by a space or one of , [ ] { } ends a plain
//     scalar and is a value indicator, so a mapping's value written "b:" or "1.0:" before the
//     closing brace or a comma makes a second ':' in its entry ("expected ',' or '}', but got
//     ':'"); yaml.v3 reads the ':' as part of the value;
//   - an anchor a document defines twice is refused ("found duplicate anchor"), where yaml.v3
//     rebinds the name; the yaml.v3 conversion reports it (yamlConv.defineAnchor) and the direct
//     reader leaves such a file to it.
//
// pyyamlCheck holds both readers (the direct one copies yaml.v3's behaviour) to PyYAML here, so
// that such a file gets a parse-error instead of findings about half of it.
// TestYAMLAgreesWithPyYAML gives mutants of the corpus to PyYAML's safe_load_all and to the
// reader and requires the same verdict.

// yamlComplexKey marks a YAML entry whose key is a mapping or sequence ("? [a]: b"): its Key is
// "" and its KeySpan covers the whole key node. Only the yaml.v3 path reads such keys; the bit
// follows the TOML front-end's flags (toml.go), which share Node.flags.
const yamlComplexKey uint8 = 1 << 5

// pyyamlCheck reports the first place PyYAML would refuse in a document both readers read, and
// drops the tree: the file has a parse-error. flowColon is maybeFlowColon(d.Src).
func pyyamlCheck(d *Document, flowColon bool) {
	if d.Root == nil && len(d.More) == 0 {
		return
	}
	for _, p := range d.Problems {
		if p.Kind == Syntax || p.Kind == LimitExceeded {
			return
		}
	}
	off, msg := pyyamlNodes(d, flowColon)
	if o, m := pyyamlOutside(d); o >= 0 && (off < 0 || o < off) {
		off, msg = o, m
	}
	if off < 0 {
		return
	}
	d.Root, d.More = nil, nil
	d.addProblem(Syntax, msg, off, off+1)
}

const bareEquals = "a bare = : PyYAML, which the frameworks load YAML with, reads it as YAML 1.1's value key and cannot load it (\"could not determine a constructor for the tag 'tag:yaml.org,2002:value'\"); quote it: \"=\""

// pyyamlNodes returns the offset of the first tab, collection key, \' escape or bare = PyYAML
// refuses, or -1. A tab is refused outside quoted scalars (keys included), block scalars and
// comments. The tree is walked only when the bytes may hold one of these: a tab, a \', an =
// that may stand alone, or a file yaml.v3 read (the direct reader declines collection keys).
// On the corpus's 311 YAML files the check took 0.53 ms per round walking every tree (4 % of
// reading them) and 0.31 ms walking the 42 that pass this test (2026-12-02).
func pyyamlNodes(d *Document, flowColon bool) (int, string) {
	src := d.Src
	first := bytes.IndexByte(src, '\t')
	if first < 0 && d.YAMLReader != YAMLv3 && !bytes.Contains(src, []byte(`\'`)) && !maybeBareEquals(src) && !flowColon {
		return -1, ""
	}
	var allowed [][2]int
	if first >= 0 {
		for _, c := range d.Comments {
			allowed = append(allowed, [2]int{c.Span.Start.Offset, c.Span.End.Offset})
		}
	}
	bad, badMsg := -1, ""
	found := func(off int, msg string) {
		if bad < 0 || off < bad {
			bad, badMsg = off, msg
		}
	}
	// quoted checks the quoted scalar src[s:e] (quotes included) and lets tabs inside it.
	quoted := func(s, e int) {
		if e <= s || src[s] != '"' && src[s] != '\'' {
			return
		}
		if first >= 0 {
			allowed = append(allowed, [2]int{s, e})
		}
		if src[s] == '"' {
			for i := s + 1; i+1 < e; i++ {
				if src[i] == '\\' {
					if src[i+1] == '\'' {
						found(i, "the escape \\' in a double-quoted string: PyYAML, which the frameworks load YAML with, refuses it (\"found unknown escape character\"); write the quote alone, or single-quote the string and double the quote ('it''s')")
						return
					}
					i++
				}
			}
		}
	}
	var walk func(n *Node)
	walk = func(n *Node) {
		quoted(n.KeySpan.Start.Offset, n.KeySpan.End.Offset)
		if n.Alias {
			return // a copy: its spans below its key are the anchored definition's, checked there
		}
		if n.flags&yamlComplexKey != 0 {
			found(n.KeySpan.Start.Offset, "a mapping or list as a key: PyYAML, which the frameworks load YAML with, cannot make it a dictionary key and refuses the file (\"found unhashable key\")")
		}
		if n.Kind == Scalar && n.Style == "plain" && n.Value == "=" && !n.Quoted {
			found(n.Span.Start.Offset, bareEquals)
		}
		if n.Kind == Scalar && n.Style == "plain" && n.Parent != nil && n.Parent.Kind == Map && n.Parent.Style == "flow" {
			if i := flowValueColon(src, n.Span.Start.Offset, n.Span.End.Offset); i >= 0 {
				closer := "]" // a single-pair mapping in brackets: [a: b:]
				if p := n.Parent.Span.Start.Offset; p < len(src) && src[p] == '{' {
					closer = "}"
				}
				found(i, "a ':' ending a value inside braces or brackets: PyYAML, which the frameworks load YAML with, reads it as a second key indicator in the entry and refuses the file (\"expected ',' or '"+closer+"', but got ':'\"); quote the value")
			}
		}
		if n.Kind == Scalar {
			switch n.Style {
			case "single", "double":
				quoted(n.Span.Start.Offset, n.Span.End.Offset)
			case "literal", "folded":
				if first >= 0 {
					allowed = append(allowed, [2]int{n.Span.Start.Offset, n.Span.End.Offset})
				}
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	for _, r := range append([]*Node{d.Root}, d.More...) {
		if r != nil {
			walk(r)
		}
	}
	if first < 0 {
		return bad, badMsg
	}
	sortRanges(allowed)
	const msg = "a tab here: PyYAML, which the frameworks load YAML with, refuses a tab outside quoted strings, block scalars (| or >) and comments (\"found character '\\t' that cannot start any token\"); indent and separate with spaces"
	k := 0 // allowed is sorted by start and the tabs are visited in order: one pass over both
	for i := first; i < len(src); {
		for k < len(allowed) && allowed[k][1] <= i {
			k++
		}
		if k == len(allowed) || allowed[k][0] > i {
			found(i, msg)
			break
		}
		j := bytes.IndexByte(src[allowed[k][1]:], '\t')
		if j < 0 {
			break
		}
		i = allowed[k][1] + j
	}
	return bad, badMsg
}

// maybeBareEquals reports whether src has an = that a plain scalar may hold alone: one that no
// character of a longer plain scalar follows (a space, a line break, a flow indicator, the end,
// or a non-ASCII byte, which may be a Unicode line break).
func maybeBareEquals(src []byte) bool {
	for i := 0; ; i++ {
		j := bytes.IndexByte(src[i:], '=')
		if j < 0 {
			return false
		}
		i += j
		if i+1 == len(src) {
			return true
		}
		switch c := src[i+1]; {
		case c == ' ', c == '\t', c == '\r', c == '\n', c == ',', c == ']', c == '}', c >= 0x80:
			return true
		}
	}
}

// pyyamlPairs rebuilds, in a file PyYAML reads, what PyYAML reads differently from yaml.v3 at a
// ':' that ends a plain scalar in flow context (maybeFlowColon): an item of a flow sequence
// written "b:" (or "b :") is a one-pair mapping {b: null} to PyYAML and the string "b:" to
// yaml.v3, and a flow mapping's key written "a:b:" is the key "a:b" (with a null value) to
// PyYAML and "a:b:" to yaml.v3. The item becomes that mapping, with an empty value right after
// the ':' as yaml.v3 places a left-out value, and the key loses its ':'. flowColon is
// maybeFlowColon(d.Src).
func pyyamlPairs(d *Document, flowColon bool) {
	if d.Root == nil || !flowColon {
		return
	}
	src := d.Src
	// colonEnd returns the offset of the indicator ':' that ends the plain text src[s:e], and
	// where the text before it ends (spaces and line breaks trimmed), or -1.
	colonEnd := func(s, e int) (int, int) {
		if e <= s || e > len(src) || src[e-1] != ':' || flowValueColon(src, s, e) != e-1 {
			return -1, -1
		}
		k := e - 1
		for k > s && isSpaceOrBreak(src[k-1]) {
			k--
		}
		return e - 1, k
	}
	for _, r := range append([]*Node{d.Root}, d.More...) {
		r.Walk(func(n *Node) bool {
			if n.Alias || n.Style != "flow" {
				return !n.Alias
			}
			for i, c := range n.Children {
				if c.Alias {
					continue
				}
				if n.Kind == Seq && c.Kind == Scalar && c.Style == "plain" {
					colon, k := colonEnd(c.Span.Start.Offset, c.Span.End.Offset)
					if colon < 0 || k == c.Span.Start.Offset {
						continue
					}
					x := d.Lines()
					pair := &Node{Kind: Map, Style: "flow", Index: i, Span: c.Span}
					pair.setParent(n)
					at := x.Pos(colon + 1)
					v := &Node{Kind: Scalar, Type: Null, Style: "plain", Key: string(src[c.Span.Start.Offset:k]),
						KeySpan: Span{Start: c.Span.Start, End: x.Pos(k)}, Span: Span{Start: at, End: at}}
					v.setParent(pair)
					pair.Children = []*Node{v}
					n.Children[i] = pair
				}
				if n.Kind == Map && c.flags&yamlComplexKey == 0 && c.KeySpan.End.Offset > c.KeySpan.Start.Offset {
					if s := src[c.KeySpan.Start.Offset]; s == '"' || s == '\'' {
						continue
					}
					colon, k := colonEnd(c.KeySpan.Start.Offset, c.KeySpan.End.Offset)
					if colon < 0 || k == c.KeySpan.Start.Offset {
						continue
					}
					c.Key = string(src[c.KeySpan.Start.Offset:k])
					c.KeySpan.End = d.Lines().Pos(k)
				}
			}
			return true
		})
	}
}

// maybeFlowColon reports whether src may hold a ':' that PyYAML reads as an indicator inside
// braces or brackets where yaml.v3 reads it as part of a plain value: a ':' followed by one of
// , [ ] { } (a ':' followed by a space there is refused by both).
func maybeFlowColon(src []byte) bool {
	if bytes.IndexByte(src, '{') < 0 && bytes.IndexByte(src, '[') < 0 {
		return false
	}
	for i := 0; ; i++ {
		j := bytes.IndexByte(src[i:], ':')
		if j < 0 || i+j+1 >= len(src) {
			return false
		}
		i += j
		switch src[i+1] {
		case ',', '[', ']', '{', '}':
			return true
		}
	}
}

// flowValueColon returns the offset of the first ':' in the plain scalar src[s:e], written in
// flow context, that PyYAML takes for an indicator (followed by whitespace, a flow indicator or
// the end), or -1.
func flowValueColon(src []byte, s, e int) int {
	for i := s; i < e && i < len(src); i++ {
		if src[i] != ':' {
			continue
		}
		if i+1 == len(src) {
			return i
		}
		switch src[i+1] {
		case ' ', '\t', '\r', '\n', ',', '[', ']', '{', '}':
			return i
		}
	}
	return -1
}

// pyyamlOutside returns the offset of the first text outside every document, or -1: after a
// document's root there may be only blank lines, comments and document markers ("---", "...",
// and directives after "..."), and after "..." the next document must start with "---".
func pyyamlOutside(d *Document) (int, string) {
	src := d.Src
	roots := append([]*Node{d.Root}, d.More...)
	// A byte order mark after the start is a character to PyYAML and nothing to yaml.v3, whose
	// lines and columns after it then differ from ours: a root ending after one may end
	// elsewhere than its span says, so nothing after it is judged.
	bom := len(src)
	if j := bytes.Index(src[min(1, len(src)):], []byte("\ufeff")); j >= 0 {
		bom = j + 1
	}
	for k, r := range roots {
		if r == nil {
			continue
		}
		i := r.Span.End.Offset
		if i > bom {
			break
		}
		ended := false // a "..." line was passed
		// An empty document's root (a "---" with only comments before the next one, as `helm
		// template` writes its "# Source:" lines) ends where the next marker starts: that
		// marker is at a line start, not beside the value (PyYAML 6.0.3's safe_load_all and
		// go-yaml v3 both read such a stream, the empty document as null).
		atMarker := i > 0 && src[i-1] == '\n' && (pyyamlMarker(src[i:], "---") || pyyamlMarker(src[i:], "..."))
		for i < len(src) {
			if !atMarker {
				// i is inside a line: skip spaces, a comment and the line break.
				for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
					i++
				}
				if i < len(src) && src[i] == '#' {
					for i < len(src) && src[i] != '\n' {
						i++
					}
				}
				if i >= len(src) {
					break
				}
				switch n := unicodeBreakLen(src, i); {
				case n > 0: // NEL, U+2028 and U+2029 end a line to PyYAML too
					i += n
				case src[i] == '\n':
					i++
				default:
					if !bytes.ContainsAny(src[r.Span.End.Offset:i], "\n\r\u0085\u2028\u2029") {
						// on the line the root's value ends on: a second value beside it
						if r.Kind == Scalar && (r.Style == "double" || r.Style == "single") {
							return i, pyyamlBesideMessage + pyyamlDocstringHint
						}
						return i, pyyamlBesideMessage
					}
					return i, pyyamlOutsideMessage(r, ended)
				}
			}
			atMarker = false
			// At a line start: a marker, or more of the same.
			line := src[i:]
			switch {
			case pyyamlMarker(line, "---"):
				if k+1 < len(roots) {
					i = len(src) // the next document's own check follows
					continue
				}
				// An empty last document: nothing more to read here.
				i += 3
			case pyyamlMarker(line, "..."):
				ended = true
				i += 3
			case ended && len(line) > 0 && line[0] == '%':
				for i < len(src) && src[i] != '\n' {
					i++
				}
			}
		}
	}
	return -1, ""
}

// pyyamlMarker reports whether line starts with the document marker m followed by a space, a
// line break or the end.
func pyyamlMarker(line []byte, m string) bool {
	return bytes.HasPrefix(line, []byte(m)) && (len(line) == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r' || line[3] == '\n')
}

// pyyamlOutsideTail says what readers do with text outside every document.
const pyyamlOutsideTail = "PyYAML, which the frameworks load YAML with, refuses the file (\"expected '<document start>'\"), and other YAML readers silently drop everything from this line on"

// pyyamlBesideMessage is for text after the document's value on the line where it ends (two
// quoted strings side by side: a Python docstring's """ read as YAML).
const pyyamlBesideMessage = "text follows the document's value on the line where the value ends: " + pyyamlOutsideTail + "; a YAML document holds one value"

// pyyamlDocstringHint ends pyyamlBesideMessage after a quoted string (uncertainty-baselines'
// files open with a Python docstring's """).
const pyyamlDocstringHint = " (a Python docstring has no place in a YAML file; use # comments)"

func pyyamlOutsideMessage(root *Node, ended bool) string {
	const tail = pyyamlOutsideTail
	if ended {
		return "a new document after \"...\" must start with \"---\": " + tail
	}
	if root.Kind == Scalar || root.Style == "flow" {
		// no block to be left of: a scalar or a bracketed collection is the whole document
		return "the document's value ends on line " + itoa(root.Span.End.Line) + " and this line adds to it: " + tail + "; a YAML document holds one value (start a new document with \"---\")"
	}
	return "this line is left of the document's block, which starts at column " + itoa(root.Span.Start.Col) + ": " + tail + "; indent it like the lines above or start a new document with \"---\""
}
