package doc

import "bytes"

// Sniff guesses a config's format from its content, for input whose name does not say: standard
// input without --stdin-filename, the checker's "auto" format, a file named without a known
// extension. It looks at the first meaningful line (blank lines and # comments are skipped) and,
// only when that line is an import or an assignment, at most 200 lines after it, so it costs
// next to nothing on a large file; it returns "" when the text has no meaningful line, and
// callers then read YAML.
//
// The first meaningful line decides, tested in this order:
//   - `---`, `%YAML`: YAML;
//   - `[name]` or `[[name]]` alone on a line: TOML (to YAML a one-element list, to JSON an error);
//   - `{` or `[` opening a JSON value: JSON, unless the text has # comments (JSON has none, and
//     YAML reads JSON with comments);
//   - gin and Python (sniffCode, sniff_code.go): gin's `include`, Python's def, class, decorators
//     and docstrings; an import, or a `key = value` line that has TOML's shape, by markers in the
//     lines after it (gin: `from __gin__`, scoped keys, %MACRO and @reference values; Python:
//     calls such as dict(...), None/True/False, statements). An import with no marker is Python;
//   - `key = value` with no gin or Python marker: TOML (YAML would read a plain string, JSON an
//     error);
//   - anything else (`key: value`, `- item`, `{a: 1}` flow map): YAML.
func Sniff(src []byte) Format {
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	comments := false
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if t[0] == '#' {
			comments = true
			continue
		}
		for _, s := range sniffers {
			if f := s(t, src, comments); f != "" {
				return f
			}
		}
		return YAML
	}
	return ""
}

// sniffer tests the first meaningful line: t is the line trimmed, rest the text after it,
// comments whether # comment lines came before it. It returns "" when it does not recognise the
// line, and the next sniffer is asked.
type sniffer func(t, rest []byte, comments bool) Format

// sniffers run in order; the first to recognise the line wins, and YAML is the fallback.
var sniffers = []sniffer{sniffYAMLMarker, sniffTOMLHeader, sniffJSONValue, sniffCode, sniffTOMLLine}

// sniffYAMLMarker recognises what only YAML starts with: a document marker or directive.
func sniffYAMLMarker(t, _ []byte, _ bool) Format {
	if bytes.HasPrefix(t, []byte("---")) || bytes.HasPrefix(t, []byte("%YAML")) || bytes.HasPrefix(t, []byte("%TAG")) {
		return YAML
	}
	return ""
}

// sniffTOMLHeader recognises a table header: [a], [a.b-c], [[runs]], ["quoted key"], with an
// optional trailing comment. A bracketed JSON or YAML list has a comma, a number or a literal
// inside, never a lone key followed by nothing.
func sniffTOMLHeader(t, _ []byte, _ bool) Format {
	if t[0] != '[' {
		return ""
	}
	s := t[1:]
	double := len(s) > 0 && s[0] == '['
	if double {
		s = s[1:]
	}
	key, s, ok := sniffTOMLKey(s)
	if !ok {
		return ""
	}
	s = bytes.TrimLeft(s, " \t")
	close := "]"
	if double {
		close = "]]"
	}
	if !bytes.HasPrefix(s, []byte(close)) {
		return ""
	}
	s = bytes.TrimSpace(s[len(close):])
	if len(s) > 0 && s[0] != '#' {
		return ""
	}
	// [true], [null], [1]: a one-element JSON list, not a table anyone names.
	switch string(key) {
	case "true", "false", "null":
		return ""
	}
	if key[0] >= '0' && key[0] <= '9' || key[0] == '-' {
		return ""
	}
	return TOML
}

// sniffTOMLLine recognises `key = value` (dotted and quoted keys included): a colon before the
// equals sign makes it YAML instead, which sniffTOMLKey enforces by not accepting ':' in a key.
func sniffTOMLLine(t, _ []byte, _ bool) Format {
	_, s, ok := sniffTOMLKey(t)
	if !ok {
		return ""
	}
	s = bytes.TrimLeft(s, " \t")
	if len(s) < 2 || s[0] != '=' || s[1] == '=' {
		return ""
	}
	return TOML
}

// sniffTOMLKey reads a TOML key (bare, quoted, dotted) at the start of s, returning the key's text
// and what follows it.
func sniffTOMLKey(s []byte) (key, rest []byte, ok bool) {
	start := s
	s = bytes.TrimLeft(s, " \t")
	for {
		switch {
		case len(s) > 0 && (s[0] == '"' || s[0] == '\''):
			end := bytes.IndexByte(s[1:], s[0])
			if end < 0 {
				return nil, nil, false
			}
			s = s[end+2:]
		default:
			n := 0
			for n < len(s) && sniffBareKeyByte(s[n]) {
				n++
			}
			if n == 0 {
				return nil, nil, false
			}
			s = s[n:]
		}
		s = bytes.TrimLeft(s, " \t")
		if len(s) == 0 || s[0] != '.' {
			break
		}
		s = bytes.TrimLeft(s[1:], " \t")
	}
	key = bytes.TrimSpace(start[:len(start)-len(s)])
	return key, s, true
}

func sniffBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// sniffJSONValue recognises a JSON object or array: `{` followed by a quoted key or `}`, `[` followed
// by a JSON value or `]` (so YAML flow collections with plain words, {a: 1} or [a, b], stay
// YAML). After comment lines it answers YAML, which reads JSON with comments.
func sniffJSONValue(t, rest []byte, comments bool) Format {
	if t[0] != '{' && t[0] != '[' {
		return ""
	}
	// The first non-blank byte after the bracket, which may be on a later line.
	after := bytes.TrimLeft(t[1:], " \t\r")
	if len(after) == 0 {
		after = bytes.TrimLeft(rest, " \t\r\n")
	}
	json := false
	switch {
	case len(after) == 0:
		json = true // a lone bracket: nothing else can follow it validly in YAML either
	case t[0] == '{':
		json = after[0] == '"' || after[0] == '}'
	default:
		c := after[0]
		json = c == '"' || c == '{' || c == '[' || c == ']' || c == '-' || c >= '0' && c <= '9' ||
			bytes.HasPrefix(after, []byte("true")) || bytes.HasPrefix(after, []byte("false")) || bytes.HasPrefix(after, []byte("null"))
	}
	if !json || comments || sniffHashComment(t) || sniffHashComment(rest) {
		return YAML
	}
	return JSON
}

// sniffHashComment reports a # outside double-quoted strings: JSON has no comments, so such text
// is YAML written in JSON's style (GPT-NeoX's configs are), which the YAML reader reads.
func sniffHashComment(s []byte) bool {
	in := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case c == '\n':
			in = false // a string never spans lines: resynchronise after a stray quote
		case !in && c == '#':
			return true
		}
	}
	return false
}
