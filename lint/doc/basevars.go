package doc

import "bytes"

// MMEngine (and MMCV 1.x before it) let a JSON or YAML config name a base file's value as
// `{{ _base_.name }}`, outside any quotes: Config._pre_substitute_base_vars (mmengine v0.10.7,
// config/config.py) replaces each such text with a quoted placeholder before the file is parsed,
// and puts the base's value in its place afterwards. The text is no JSON or YAML as written, so
// the readers here do the same: each `{{ _base_.name }}` is read as a double-quoted string of the
// same length (offsets, lines and columns stay the file's own), and the node it makes is an
// Unknown scalar (Style "reference", Value the text as written): its value is the base's.

// baseVarText returns src with each `{{ _base_.name }}` turned into a same-length quoted string,
// or nil when src has none (then src is read as it is). Only a file that names _base_ has them.
func baseVarText(src []byte) []byte {
	if !bytes.Contains(src, []byte("{{")) || !bytes.Contains(src, []byte("_base_")) {
		return nil
	}
	var out []byte
	for i := 0; i+1 < len(src); i++ {
		if src[i] != '{' || src[i+1] != '{' {
			continue
		}
		end := baseVarEnd(src, i)
		if end < 0 {
			continue
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		out[i], out[end-1] = '"', '"'
		i = end - 1
	}
	return out
}

// baseVarEnd is the end of the `{{ _base_.name }}` that starts at i (its `{{`), or -1: blanks
// around the name, which is word characters and dots (MMEngine's \{\{\s*_base_\.([\w\.]+)\s*\}\},
// its blanks kept to one line).
func baseVarEnd(src []byte, i int) int {
	j := i + 2
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if !bytes.HasPrefix(src[j:], []byte("_base_.")) {
		return -1
	}
	j += len("_base_.")
	k := j
	for k < len(src) && (pyIdentByte[src[k]] != 0 || src[k] == '.') {
		k++
	}
	if k == j {
		return -1
	}
	for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	if !bytes.HasPrefix(src[k:], []byte("}}")) {
		return -1
	}
	return k + 2
}

// markBaseVars makes the scalars read from `{{ _base_.name }}` texts (sub, the text read) Unknown
// references. A reference inside a longer plain scalar (`0{{ _base_.x }}`) is replaced too,
// MMEngine's regular expression matching anywhere, but the placeholder is then part of a string
// the base's value never replaces: that scalar is Unknown, its value the text as written.
func markBaseVars(d *Document, sub []byte) {
	for _, r := range append([]*Node{d.Root}, d.More...) {
		r.Walk(func(n *Node) bool {
			o, e := n.Span.Start.Offset, n.Span.End.Offset
			if n.Kind != Scalar || e > len(d.Src) || e > len(sub) || o >= e || bytes.Equal(d.Src[o:e], sub[o:e]) {
				return true
			}
			if d.Src[o] == '{' && baseVarEnd(d.Src, o) == e {
				n.Type, n.Style, n.Quoted, n.Value = Unknown, "reference", false, string(d.Src[o:e])
				return true
			}
			n.Type = Unknown
			if n.Style == "plain" && !bytes.ContainsAny(d.Src[o:e], "\r\n") {
				n.Value = string(d.Src[o:e])
			}
			return true
		})
	}
}
