package dialect

import "strings"

// OmegaConf's SIMPLE_INTERPOLATION_PATTERN (omegaconf/grammar_parser.py, v2.1.0 to v2.3.1), which
// it tries before its grammar: a string it matches is not parsed (kit_omegaconf_grammar.go).

// simple reports whether s matches OmegaConf's SIMPLE_INTERPOLATION_PATTERN (grammar_parser.py,
// compiled with re.ASCII), in which case OmegaConf does not parse it. The pattern is text
// without "${" around one or more interpolations, each a node path or a resolver call with
// plain arguments; neither kind can hold "{" or "}", so every "${" must open one that ends at
// the first "}" after it.
func (g ocGrammar) simple(s string) bool {
	found := false
	for i := 0; ; {
		j := strings.Index(s[i:], "${")
		if j < 0 {
			return found
		}
		j += i
		k := strings.IndexByte(s[j+2:], '}')
		if k < 0 {
			return false
		}
		k += j + 2
		if body := s[j+2 : k]; !ocSimpleNode(body) && !g.simpleResolver(body) {
			return false
		}
		found = true
		i = k + 1
	}
}

// ocSpace is Python's ASCII \s.
func ocSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func ocSkipSpace(s string, i int) int {
	for i < len(s) && ocSpace(s[i]) {
		i++
	}
	return i
}

// ocRun returns the end of the run of bytes at i that ok accepts.
func ocRun(s string, i int, ok func(byte) bool) int {
	for i < len(s) && ok(s[i]) {
		i++
	}
	return i
}

func ocSimpleKeyByte(c byte) bool { return c == '$' || ocWordByte(c) }

// ocSimpleNode: \s*(\.)*(K|\[K\])(\.K|\[K\])*\s* with K = [$\w]+.
func ocSimpleNode(b string) bool {
	i := ocSkipSpace(b, 0)
	for i < len(b) && b[i] == '.' {
		i++
	}
	for first := true; ; first = false {
		if i < len(b) && b[i] == '[' {
			j := ocRun(b, i+1, ocSimpleKeyByte)
			if j == i+1 || j >= len(b) || b[j] != ']' {
				return false
			}
			i = j + 1
			continue
		}
		if !first {
			if i >= len(b) || b[i] != '.' {
				break
			}
			i++
		}
		j := ocRun(b, i, ocSimpleKeyByte)
		if j == i {
			return false
		}
		i = j
	}
	return ocSkipSpace(b, i) == len(b)
}

// simpleResolver: \s*(ID(\.ID)*)?\s*:\s*A(\s*,\s*A)*?\s* with ID = [a-zA-Z_][\w-]* (no "-"
// before v2.3.0) and A = [a-zA-Z_0-9/\-+.$%*@?|]+ (no "?" or "|" before v2.2). The pattern is
// written f"...{_args}?..." with _args = A(\s*,\s*A)*: the "?" makes the last "*" lazy, not the
// arguments optional, so "${f:}" is parsed, not matched.
func (g ocGrammar) simpleResolver(b string) bool {
	i := ocSkipSpace(b, 0)
	if j := g.idEnd(b, i); j > i {
		// The name: IDs joined by dots, each dot followed by one.
		for i = j; i < len(b) && b[i] == '.'; i = j {
			if j = g.idEnd(b, i+1); j == i+1 {
				return false
			}
		}
	}
	i = ocSkipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return false
	}
	i = ocSkipSpace(b, i+1)
	arg := func(c byte) bool {
		return ocWordByte(c) || strings.IndexByte("/-+.$%*@", c) >= 0 || (c == '?' || c == '|') && g.pipe
	}
	for {
		j := ocRun(b, i, arg)
		if j == i {
			return false
		}
		k := ocSkipSpace(b, j)
		if k >= len(b) || b[k] != ',' {
			return k == len(b)
		}
		i = ocSkipSpace(b, k+1)
	}
}
