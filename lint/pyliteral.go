//go:build !trainlint_lite

package lint

import (
	"errors"
	"strconv"
	"strings"
)

// pyLiteral reports whether Python source text is one literal, a number (signed), a string
// (not an f-string) or True, False or None: an edit of it changes one value. An expression
// computes its value from others, and ml_collections' config.get_ref('batch_size') // 4
// keeps following batch_size where a variant or a command-line flag changes it; a literal in
// its place would cut that link (magvit's eval batch).
func pyLiteral(b []byte) bool {
	t := strings.TrimSpace(string(b))
	switch t {
	case "", "True", "False", "None":
		return t != ""
	}
	signed := t[0] == '-' || t[0] == '+'
	if signed {
		t = strings.TrimLeft(t[1:], " ")
	}
	if t == "" {
		return false
	}
	if c := t[0]; c >= '0' && c <= '9' || c == '.' {
		if _, err := strconv.ParseInt(t, 0, 64); err == nil {
			return true // 12, 1_000, 0x1F, 0o17, 0b101
		}
		f := strings.TrimRight(t, "jJ") // an imaginary literal
		if strings.Trim(f, "0123456789._eE+-") != "" || strings.ContainsAny(f, "+-") && !strings.ContainsAny(f, "eE") {
			return false // a name, a call, hex arithmetic (0x1e+5), an operator
		}
		_, err := strconv.ParseFloat(f, 64)
		return err == nil || errors.Is(err, strconv.ErrRange)
	}
	if signed {
		return false // a sign before a string, a name or a call: an expression
	}
	// One or more string literals side by side ('a' "b"), each with an r, b or u prefix at
	// most, and nothing else.
	for t != "" {
		k := strings.IndexAny(t, "'\"")
		if k < 0 || strings.Trim(strings.ToLower(t[:k]), "rbu") != "" || k > 2 {
			return false
		}
		q := t[k : k+1]
		if strings.HasPrefix(t[k:], q+q+q) {
			q = q + q + q
		}
		rest, closed := t[k+len(q):], false
		for n := 0; n < len(rest); n++ {
			if rest[n] == '\\' { // escapes the next character, a quote too (in raw strings also)
				n++
				continue
			}
			if strings.HasPrefix(rest[n:], q) {
				t, closed = strings.TrimLeft(rest[n+len(q):], " \t\\\n\r"), true
				break
			}
		}
		if !closed {
			return false
		}
	}
	return true
}
