package doc

import (
	"strconv"
	"strings"
)

// plainType is the type of an untagged plain scalar: the type yaml.v3 gives it
// (yaml.Node.ShortTag, decided here by yamlv3Type without yaml.v3 so that the WebAssembly build,
// which links the direct reader only, types values exactly as the CLI does), except that a
// number no framework's loader reads as one is a string (loaderNumber) and YAML 1.1's yes, no,
// on and off are booleans (yaml11Bool). yamlType applies the
// same exception on the yaml.v3 path; TestPlainTypeLikeYAMLv3 and FuzzPlainType hold the two to
// each other.
func plainType(v string) Type {
	t := yamlv3Type(v)
	if (t == Int || t == Float) && !loaderNumber(v) {
		return String
	}
	if t == String && yaml11Bool(v) {
		return Bool
	}
	return t
}

// yaml11Bool reports whether v is one of YAML 1.1's boolean words that yaml.v3 (YAML 1.2) reads
// as strings: yes, no, on and off, each in lower, capitalised or upper case (PyYAML's
// resolver.py; y and n are strings to it). Every YAML loader the frameworks use builds on
// PyYAML's resolvers and keeps these (OmegaConf's _yaml.py, jsonargparse's DefaultLoader in
// _loaders_dumpers.py), so a plain "no" is the boolean false to them, and Bool to the reader.
func yaml11Bool(v string) bool {
	switch v {
	case "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	return false
}

// yamlv3Type is the type yaml.v3 gives a plain scalar. yaml.v3 reads YAML 1.2's core schema
// with a few YAML 1.1 leftovers: only true/false, null/~ and .inf/.nan in three capitalisations
// are words; a value starting with a digit or a sign is an integer when Go's strconv reads it as
// one (any base prefix, underscores dropped), else a float when it has YAML's float shape; a
// value starting with '.' is a float when strconv.ParseFloat reads it. Dates and everything else
// are strings ("yes", "on", "1e3x").
func yamlv3Type(v string) Type {
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
		if floatShape(plain) {
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

// loaderNumber reports whether a framework's YAML loader reads the plain scalar v, which yaml.v3
// reads as a number, as a number too: PyYAML's YAML 1.1 int and float patterns (resolver.py:
// 0b and 0x prefixes in lower case, octal written 0NNN, decimal ints, floats with a dot and an
// exponent with a sign, .inf and .nan), or the float pattern OmegaConf adds to them (_yaml.py
// get_yaml_loader: an exponent without a dot or without a sign, "1e-4", "1.0e5"). yaml.v3 also
// reads "0o17", "0B1", "0X1F", "095", "+.5" and "1.0e_8" (underscores dropped anywhere) as
// numbers, which PyYAML and OmegaConf load as strings; so does the reader now. Base-60 numbers
// ("1:20"), ints to PyYAML, are strings to yaml.v3 and stay so: no rule reads a number from them.
func loaderNumber(v string) bool { return numberText(v, false) }

// AnyLoaderNumber reports whether some version of the loaders reads plain text v as an int or a
// float: loaderNumber's patterns, PyYAML's base-60 numbers ("1:20", "-1:30.5"), and OmegaConf's
// float pattern as it was from 2.0.1 to 2.2.x (_utils.py get_yaml_loader), which takes
// underscores anywhere in the digits before the dot or exponent and a fraction alone that starts
// with one ("1__0e5", "._5"); 2.3 narrowed it to loaderNumber's. A text it rejects is a string to
// every version, which is what the dialects' OmegaConf repeated-key check needs.
func AnyLoaderNumber(v string) bool { return numberText(v, true) }

// numberText is loaderNumber, and AnyLoaderNumber when wide.
func numberText(v string, wide bool) bool {
	s := v
	sign := s != "" && (s[0] == '+' || s[0] == '-')
	if sign {
		s = s[1:]
	}
	switch s {
	case ".inf", ".Inf", ".INF":
		return true
	case ".nan", ".NaN", ".NAN":
		return !sign
	}
	if len(s) > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'x') {
		digits := "01_"
		if s[1] == 'x' {
			digits = "0123456789abcdefABCDEF_"
		}
		return strings.Trim(s[2:], digits) == ""
	}
	if s == "" {
		return false
	}
	if s[0] == '.' { // a fraction alone: no sign, a digit first (or _ when wide), an exponent with a sign
		j := 2
		for j < len(s) && (isDigit(s[j]) || s[j] == '_') {
			j++
		}
		return !sign && len(s) > 1 && (isDigit(s[1]) || wide && s[1] == '_') && (j == len(s) || exponent(s[j:], true))
	}
	if !isDigit(s[0]) {
		return false
	}
	j := 1
	for j < len(s) && (isDigit(s[j]) || s[j] == '_') {
		j++
	}
	whole, rest := s[:j], s[j:]
	omega := wide || omegaDigits(whole) // the digits OmegaConf's float takes before an unsigned exponent
	switch {
	case rest == "": // an int: 0, octal 0NNN, or decimal not starting with 0
		return whole == "0" || whole[0] != '0' || strings.Trim(whole, "01234567_") == ""
	case rest[0] == '.':
		k := 1
		for k < len(rest) && (isDigit(rest[k]) || rest[k] == '_') {
			k++
		}
		e := rest[k:]
		return e == "" || exponent(e, true) || omega && exponent(e, false)
	case rest[0] == ':' && wide:
		return base60Number(whole, rest)
	}
	return omega && exponent(rest, false)
}

// base60Number reports whether whole and rest (from its first ':') are a base-60 number to PyYAML:
// groups of ':' and one digit or two (the first 0-5), then the end (an int, whole not led by 0)
// or a dot and [0-9_]* (a float).
func base60Number(whole, rest string) bool {
	i := 0
	for i < len(rest) && rest[i] == ':' {
		j := i + 1
		for j < len(rest) && isDigit(rest[j]) {
			j++
		}
		if n := j - i - 1; n < 1 || n > 2 || n == 2 && rest[i+1] > '5' {
			return false
		}
		i = j
	}
	if i == len(rest) {
		return whole[0] != '0'
	}
	return rest[i] == '.' && strings.Trim(rest[i+1:], "0123456789_") == ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// exponent reports whether e is an exponent both loaders take: e or E, a sign (required by
// PyYAML, optional to OmegaConf), then digits only.
func exponent(e string, signed bool) bool {
	if len(e) < 2 || e[0] != 'e' && e[0] != 'E' {
		return false
	}
	e = e[1:]
	if e[0] == '+' || e[0] == '-' {
		e = e[1:]
	} else if signed {
		return false
	}
	return e != "" && strings.Trim(e, "0123456789") == ""
}

// omegaDigits reports whether s is digits with single underscores between them, as OmegaConf's
// float pattern writes the part before the dot or exponent.
func omegaDigits(s string) bool {
	return s != "" && s[0] != '_' && s[len(s)-1] != '_' && !strings.Contains(s, "__") && strings.Trim(s, "0123456789_") == ""
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
