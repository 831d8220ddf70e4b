package doc

import "bytes"

// Sniffing configs written as code. Gin bindings (`train.total_steps = 1000`) and Python
// assignments (`default_scope = 'mmdet'`) have the shape of TOML's `key = value`, and both
// languages start with the same `import` and `from x import y` lines, so the first line alone
// cannot tell them apart: sniffCode decides on the first line when it is decisive (a
// docstring, def, class, a decorator, gin's include) and otherwise on markers found in the
// following lines, looking at no more than sniffCodeLines of them.

// sniffCodeLines bounds the lines sniffCode reads past the first.
const sniffCodeLines = 200

// sniffCode recognises gin and Python by their first line and, where the line is ambiguous
// (an import, or a `key = value` line that TOML reads too), by markers further down:
//   - gin: `from __gin__ import`, `include '...'`, a scoped key (`train/utils.X.y =`), a value
//     that is a macro or configurable reference (`%NAME`, `@name`), or a dotted key bound to
//     None, True or False;
//   - Python: def, class, a decorator, a docstring, a call in a value (`dict(...)`), None, True
//     or False bound to a plain name, control-flow statements.
//
// A `key = value` text with neither stays TOML (sniffTOMLLine): `gpu_ids = [0, 1]` is valid
// TOML and reads the same.
func sniffCode(t, rest []byte, _ bool) Format {
	switch {
	case sniffGinInclude(t):
		return Gin
	case hasWordPrefix(t, "def"), hasWordPrefix(t, "class"), t[0] == '@',
		bytes.HasPrefix(t, []byte(`"""`)), bytes.HasPrefix(t, []byte(`'''`)),
		bytes.HasPrefix(t, []byte(`r"""`)), bytes.HasPrefix(t, []byte(`r'''`)):
		return Python
	}
	isImport := hasWordPrefix(t, "import") || hasWordPrefix(t, "from") && bytes.Contains(t, []byte(" import "))
	if !isImport && !sniffAssignment(t) {
		return ""
	}
	if f := sniffCodeLine(t); f != "" {
		return f
	}
	for n := 0; len(rest) > 0 && n < sniffCodeLines; n++ {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		lt := bytes.TrimSpace(line)
		if len(lt) == 0 || lt[0] == '#' {
			continue
		}
		if f := sniffCodeLine(lt); f != "" {
			return f
		}
	}
	if isImport {
		return Python // imports and nothing that marks gin
	}
	return ""
}

// sniffCodeLine looks for a decisive gin or Python marker in one trimmed line.
func sniffCodeLine(t []byte) Format {
	switch {
	case bytes.HasPrefix(t, []byte("from __gin__ ")), sniffGinInclude(t):
		return Gin
	case hasWordPrefix(t, "def"), hasWordPrefix(t, "class"), hasWordPrefix(t, "if"), hasWordPrefix(t, "for"),
		hasWordPrefix(t, "with"), hasWordPrefix(t, "return"), hasWordPrefix(t, "try"),
		bytes.HasPrefix(t, []byte(`"""`)), bytes.HasPrefix(t, []byte(`r"""`)):
		return Python
	}
	eq := sniffAssignIndex(t)
	if eq < 0 {
		return ""
	}
	key, val := bytes.TrimSpace(t[:eq]), bytes.TrimSpace(t[eq+1:])
	if len(val) == 0 {
		return ""
	}
	if bytes.IndexByte(key, '/') >= 0 || val[0] == '%' || val[0] == '@' {
		return Gin
	}
	if lit := literalWord(val); lit {
		if bytes.IndexByte(key, '.') >= 0 {
			return Gin // a configurable's parameter bound to a Python literal
		}
		return Python
	}
	if sniffHasCall(val) {
		return Python
	}
	return ""
}

// sniffAssignment reports a `key = value` line whose key is a name, a dotted name or a gin
// scoped name (`train/utils.X.y`).
func sniffAssignment(t []byte) bool {
	eq := sniffAssignIndex(t)
	if eq <= 0 {
		return false
	}
	for _, c := range bytes.TrimSpace(t[:eq]) {
		if !(sniffBareKeyByte(c) || c == '.' || c == '/') || c == '-' {
			return false
		}
	}
	return true
}

// sniffAssignIndex is the index of the `=` of an assignment (not `==`, `<=`, ...), or -1.
func sniffAssignIndex(t []byte) int {
	i := bytes.IndexByte(t, '=')
	if i <= 0 || i+1 < len(t) && t[i+1] == '=' || bytes.ContainsAny(t[:i], "<>!:\"'([{") {
		return -1
	}
	return i
}

// sniffGinInclude recognises gin's `include 'path'`.
func sniffGinInclude(t []byte) bool {
	if !hasWordPrefix(t, "include") {
		return false
	}
	s := bytes.TrimLeft(t[len("include"):], " \t")
	return len(s) > 0 && (s[0] == '\'' || s[0] == '"')
}

// hasWordPrefix reports whether t starts with the keyword w followed by a space, a tab, a colon
// or an opening parenthesis.
func hasWordPrefix(t []byte, w string) bool {
	if !bytes.HasPrefix(t, []byte(w)) || len(t) == len(w) {
		return false
	}
	c := t[len(w)]
	return c == ' ' || c == '\t' || c == ':' || c == '('
}

// literalWord reports a value that is one of Python's None, True, False (TOML spells its
// booleans in lower case and has no null).
func literalWord(v []byte) bool {
	for _, w := range []string{"None", "True", "False"} {
		if bytes.HasPrefix(v, []byte(w)) && (len(v) == len(w) || !sniffBareKeyByte(v[len(w)])) {
			return true
		}
	}
	return false
}

// sniffHasCall reports a name followed by `(` outside quoted strings (`dict(type='SGD')`):
// TOML values have no calls.
func sniffHasCall(v []byte) bool {
	var quote byte
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return false
		case c == '(' && i > 0 && (sniffBareKeyByte(v[i-1]) || v[i-1] == '.') && v[i-1] != '-':
			return true
		}
	}
	return false
}
