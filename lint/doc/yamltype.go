package doc

import (
	"strconv"
	"strings"
)

// plainType is the type yaml.v3 gives a plain scalar (yaml.Node.ShortTag on an untagged plain
// node), decided here without yaml.v3 so that the WebAssembly build, which links the direct
// reader only, types values exactly as the CLI does. TestPlainTypeLikeYAMLv3 and FuzzPlainType
// hold the two to each other.
//
// yaml.v3 reads YAML 1.2's core schema with a few YAML 1.1 leftovers: only true/false, null/~
// and .inf/.nan in three capitalisations are words; a value starting with a digit or a sign is
// an integer when Go's strconv reads it as one (any base prefix, underscores dropped), else a
// float when it has YAML's float shape; a value starting with '.' is a float when
// strconv.ParseFloat reads it. Dates and everything else are strings ("yes", "on", "1e3x").
//
// One exception, where yaml.v3 is alone: it drops underscores from the exponent too, so
// "1.0e_8" is the float 1e8 to it, but a string to PyYAML and OmegaConf (their float patterns
// allow no underscore in the exponent), which is what the frameworks get; yamlType makes the
// same exception, so the two readers still agree.
func plainType(v string) Type {
	switch v {
	case "", "~", "null", "Null", "NULL":
		return Null
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return Bool
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return Float
	}
	switch c := v[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return Float
		}
	case c >= '0' && c <= '9' || c == '+' || c == '-':
		plain := strings.ReplaceAll(v, "_", "")
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return Int
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return Int
		}
		if floatShape(plain) && !exponentUnderscore(v) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return Float
			}
		}
		// Explicit binary and octal prefixes, also past int64 and signed.
		for _, p := range []struct {
			prefix string
			base   int
		}{{"0b", 2}, {"0o", 8}} {
			if digits, ok := strings.CutPrefix(plain, p.prefix); ok {
				if _, err := strconv.ParseInt(digits, p.base, 64); err == nil {
					return Int
				}
				if _, err := strconv.ParseUint(digits, p.base, 64); err == nil {
					return Int
				}
			} else if digits, ok := strings.CutPrefix(plain, "-"+p.prefix); ok {
				if _, err := strconv.ParseInt("-"+digits, p.base, 64); err == nil {
					return Int
				}
			}
		}
	}
	return String
}

// exponentUnderscore reports whether the decimal number v has an underscore in its exponent
// ("1.0e_8", "1e1_0"). Hexadecimal digits include e, so a 0x number has no exponent.
func exponentUnderscore(v string) bool {
	if strings.Contains(v, "0x") || strings.Contains(v, "0X") {
		return false
	}
	if i := strings.IndexAny(v, "eE"); i >= 0 {
		return strings.IndexByte(v[i:], '_') >= 0
	}
	return false
}

// floatShape reports whether s is written as YAML writes a float: an optional sign, then digits
// with an optional fraction or a fraction alone (".5", "1.", "1.5"), then an optional exponent
// ("e-3").
func floatShape(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
