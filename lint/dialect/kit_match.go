package dialect

import (
	"strings"
	"unicode/utf8"
)

// The reading kit's word and number patterns, matched by hand instead of with package regexp:
// regexp, its parser and the Unicode tables it initialises were about 100 KB of the browser
// checker's compressed WebAssembly module, and these few shapes were all the dialects asked of
// it. Each matcher does exactly what the regular expression in its comment does (RE2
// semantics: \s is [\t\n\f\r ], \d and \b are ASCII, (?i) also folds 'ſ' to s and the Kelvin
// sign to k); kit_match_test.go compares each with that expression on crafted and fuzzed input.

// isSpace is RE2's \s.
func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r' }

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// isWordByte is RE2's \w, which \b is defined by.
func isWordByte(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_'
}

// trimSpaces drops RE2 \s from both ends.
func trimSpaces(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// digitsAt is the length of the run of ASCII digits at s[i:].
func digitsAt(s string, i int) int {
	n := 0
	for i+n < len(s) && isDigit(s[i+n]) {
		n++
	}
	return n
}

// foldPrefix reports whether s starts with word (lowercase ASCII letters, digits and
// punctuation) case-insensitively as RE2's (?i) folds, and the bytes it took.
func foldPrefix(s, word string) (int, bool) {
	i := 0
	for k := 0; k < len(word); k++ {
		if i >= len(s) {
			return 0, false
		}
		w, c := word[k], s[i]
		switch {
		case c == w || w >= 'a' && w <= 'z' && c == w-'a'+'A':
			i++
		case w == 's' && c >= utf8.RuneSelf && hasRune(s[i:], 'ſ'):
			i += len("ſ")
		case w == 'k' && c >= utf8.RuneSelf && hasRune(s[i:], '\u212a'):
			i += len("\u212a")
		default:
			return 0, false
		}
	}
	return i, true
}

func hasRune(s string, r rune) bool {
	got, _ := utf8.DecodeRuneInString(s)
	return got == r
}

// foldOneOf returns the first word that s is, whole, under (?i) folding.
func foldOneOf(s string, words ...string) bool {
	for _, w := range words {
		if n, ok := foldPrefix(s, w); ok && n == len(s) {
			return true
		}
	}
	return false
}

// numberUnit splits `^\s*(NUMBER)\s*(UNIT)\s*$` into its two groups: number reads the number at
// the start of the trimmed text and returns its length (0: none), unit accepts the rest.
func numberUnit(s string, number func(string) int, unit func(string) bool) (num, u string, ok bool) {
	s = trimSpaces(s)
	n := number(s)
	if n == 0 {
		return "", "", false
	}
	rest := s[n:]
	i := 0
	for i < len(rest) && isSpace(rest[i]) {
		i++
	}
	if !unit(rest[i:]) {
		return "", "", false
	}
	return s[:n], rest[i:], true
}

// decimalLen reads `\d+(?:\.\d+)?`, with foldExp also `(?:e\d+)?` under (?i).
func decimalLen(s string, exp bool) int {
	n := digitsAt(s, 0)
	if n == 0 {
		return 0
	}
	if n < len(s) && s[n] == '.' {
		if f := digitsAt(s, n+1); f > 0 {
			n += 1 + f
		}
	}
	if exp && n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		if e := digitsAt(s, n+1); e > 0 {
			n += 1 + e
		}
	}
	return n
}

// stepsString is `(?i)^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*(steps?|ba|batch(?:es)?|iters?|iterations?|it)\s*$`.
func stepsString(s string) (num string, ok bool) {
	num, _, ok = numberUnit(s, func(s string) int { return decimalLen(s, true) }, func(u string) bool {
		return foldOneOf(u, "step", "steps", "ba", "batch", "batches", "iter", "iters", "iteration", "iterations", "it")
	})
	return num, ok
}

// epochString is `(?i)^\s*(\d+(?:\.\d+)?)\s*(ep|epochs?)\s*$`.
func epochString(s string) (num string, ok bool) {
	num, _, ok = numberUnit(s, func(s string) int { return decimalLen(s, false) }, func(u string) bool {
		return foldOneOf(u, "ep", "epoch", "epochs")
	})
	return num, ok
}

// unitWords is `(?i)^\s*(\d+(?:\.\d+)?)\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\s*$`.
func unitWords(s string) (num, unit string, ok bool) {
	return numberUnit(s, func(s string) int { return decimalLen(s, false) }, func(u string) bool {
		return foldOneOf(u, "s", "sec", "secs", "second", "seconds", "m", "min", "mins", "minute", "minutes",
			"h", "hr", "hrs", "hour", "hours", "d", "day", "days")
	})
}

// composerTime is `(?i)^\s*(-?[0-9][0-9_]*(?:\.[0-9]+)?(?:e-?[0-9]+)?)\s*(iter|ep|ba|sp|tok|dur|sec)\s*$`.
func composerTime(s string) (num, unit string, ok bool) {
	return numberUnit(s, func(s string) int {
		i := 0
		if i < len(s) && s[i] == '-' {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return 0
		}
		for i < len(s) && (isDigit(s[i]) || s[i] == '_') {
			i++
		}
		if i < len(s) && s[i] == '.' {
			if f := digitsAt(s, i+1); f > 0 {
				i += 1 + f
			}
		}
		if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
			j := i + 1
			if j < len(s) && s[j] == '-' {
				j++
			}
			if e := digitsAt(s, j); e > 0 {
				i = j + e
			}
		}
		return i
	}, func(u string) bool { return foldOneOf(u, "iter", "ep", "ba", "sp", "tok", "dur", "sec") })
}

// clockString is `^\s*(?:(\d+):)?(\d+):(\d+):(\d+)\s*$`: its four groups, the first "" when
// absent.
func clockString(s string) (parts [4]string, ok bool) {
	s = trimSpaces(s)
	var got []string
	for len(got) < 4 {
		n := digitsAt(s, 0)
		if n == 0 {
			return parts, false
		}
		got = append(got, s[:n])
		s = s[n:]
		if s == "" {
			break
		}
		if s[0] != ':' {
			return parts, false
		}
		s = s[1:]
	}
	if s != "" || len(got) < 3 {
		return parts, false
	}
	copy(parts[4-len(got):], got)
	return parts, true
}

// hmsString is `^\s*(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?\s*$`: hours, minutes and seconds as
// written ("" when absent).
func hmsString(s string) (parts [3]string, ok bool) {
	s = trimSpaces(s)
	for k, unit := range []byte{'h', 'm', 's'} {
		if n := digitsAt(s, 0); n > 0 && n < len(s) && s[n] == unit {
			parts[k] = s[:n]
			s = s[n+1:]
		}
	}
	return parts, s == ""
}

// sexagesimal60 is `^[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+$`, YAML 1.1's base-60 integer.
func sexagesimal60(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i >= len(s) || s[i] < '1' || s[i] > '9' {
		return false
	}
	i++
	for i < len(s) && (isDigit(s[i]) || s[i] == '_') {
		i++
	}
	groups := 0
	for i < len(s) {
		if s[i] != ':' {
			return false
		}
		n := digitsAt(s, i+1)
		if n == 0 || n > 2 || n == 2 && s[i+1] > '5' {
			return false
		}
		i += 1 + n
		groups++
	}
	return groups > 0
}

// bnFamilies are the alternatives of bnArch, in its order.
var bnFamilies = []string{"resnet", "resnext", "wide_resnet", "wide-resnet", "efficientnet", "mobilenet", "densenet",
	"vgg", "regnet", "inception", "mnasnet", "shufflenet", "ghostnet", "hrnet", "bit-", "batchnorm", "batch_norm",
	"syncbn", "conformerencoder", "convasrencoder", "quartznet", "citrinet", "jasper", "titanet", "darknet", "cspdarknet"}

// bnArch is FindStringSubmatch(s)[2] of
// `(?i)(^|[^a-z])(resnet|…|vgg\d*_bn|…|cspdarknet)` (bnFamilies, where "vgg" stands for
// vgg\d*_bn): the leftmost family name that starts the text or follows a character that is not a
// letter, as written, or "".
func bnArch(s string) string {
	family := func(i int) string {
		for _, f := range bnFamilies {
			n, ok := foldPrefix(s[i:], f)
			if !ok {
				continue
			}
			if f == "vgg" {
				n += digitsAt(s, i+n)
				m, ok := foldPrefix(s[i+n:], "_bn")
				if !ok {
					continue
				}
				n += m
			}
			return s[i : i+n]
		}
		return ""
	}
	for i := 0; i < len(s); {
		if i == 0 {
			if f := family(0); f != "" {
				return f
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == 'ſ' || r == '\u212a'
		if !letter {
			if f := family(i + size); f != "" {
				return f
			}
		}
		i += size
	}
	return ""
}

// rankWords are the alternatives of rankRef, in its order; "\b" marks a word boundary.
var rankWords = []string{`\brank\b`, "local_rank", "node_rank", "global_rank", "world_rank", "process_index", "process_id",
	"host_id", "slurm_procid", "slurm_nodeid", "ompi_comm_world_rank", "pmi_rank"}

// rankRef is FindString of `(?i)(\bRANK\b|LOCAL_RANK|NODE_RANK|GLOBAL_RANK|WORLD_RANK|
// process_index|process_id|host_id|\brank\b|SLURM_PROCID|SLURM_NODEID|OMPI_COMM_WORLD_RANK|PMI_RANK)`:
// the leftmost process-index name in s, as written, or "".
func rankRef(s string) string {
	boundary := func(i int) bool {
		before := i > 0 && isWordByte(s[i-1])
		after := i < len(s) && isWordByte(s[i])
		return before != after
	}
	for i := 0; i < len(s); {
		for _, w := range rankWords {
			word, bounded := w, false
			if len(w) > 2 && w[:2] == `\b` {
				word, bounded = w[2:len(w)-2], true
			}
			if bounded && !boundary(i) {
				continue
			}
			n, ok := foldPrefix(s[i:], word)
			if ok && (!bounded || boundary(i+n)) {
				return s[i : i+n]
			}
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return ""
}

// refPathLen reads `[A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z_0-9][A-Za-z0-9_\-]*)*` at s[i:] and
// returns its length (0: none).
func refPathLen(s string, i int) int {
	nameChar := func(b byte) bool { return isWordByte(b) || b == '-' }
	if i >= len(s) || !(s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		return 0
	}
	j := i + 1
	for {
		for j < len(s) && nameChar(s[j]) {
			j++
		}
		if j+1 < len(s) && s[j] == '.' && isWordByte(s[j+1]) {
			j += 2
			continue
		}
		return j - i
	}
}

// refAt matches `\$\{\s*(PATH)\s*\}` at s[i:]: the path and the match's end.
func refAt(s string, i int) (path string, end int, ok bool) {
	if i+1 >= len(s) || s[i] != '$' || s[i+1] != '{' {
		return "", 0, false
	}
	j := i + 2
	for j < len(s) && isSpace(s[j]) {
		j++
	}
	n := refPathLen(s, j)
	if n == 0 {
		return "", 0, false
	}
	path = s[j : j+n]
	j += n
	for j < len(s) && isSpace(s[j]) {
		j++
	}
	if j >= len(s) || s[j] != '}' {
		return "", 0, false
	}
	return path, j + 1, true
}

// refPattern is `^\$\{\s*(PATH)\s*\}$` (PATH as in refPathLen): the path of a value that is one
// interpolation, whole.
func refPattern(s string) (string, bool) {
	if path, end, ok := refAt(s, 0); ok && end == len(s) {
		return path, true
	}
	return "", false
}

// anyRef is FindAllStringSubmatch of `\$\{\s*(PATH)\s*\}`: the path of every interpolation in
// s, left to right.
func anyRef(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if path, end, ok := refAt(s, i); ok {
			out = append(out, path)
			i = end
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return out
}

func isComposerTime(s string) bool {
	_, _, ok := composerTime(s)
	return ok
}

// goDuration is time.ParseDuration without package time (whose parser and formatter weigh
// more than this in the WebAssembly module): a signed sequence of decimal numbers, each with a
// unit (ns, us, µs, ms, s, m, h), or "0"; the result in nanoseconds, with ParseDuration's
// rounding of fractions and its overflow errors (TestGoDurationLikeTime, FuzzGoDuration).
func goDuration(s string) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "0" {
		return 0, true
	}
	if s == "" {
		return 0, false
	}
	const limit = 1 << 63
	var d uint64
	for s != "" {
		if !(s[0] == '.' || isDigit(s[0])) {
			return 0, false
		}
		var v, f uint64
		scale := 1.0
		n := 0
		for ; n < len(s) && isDigit(s[n]); n++ {
			if v > limit/10 {
				return 0, false
			}
			v = v*10 + uint64(s[n]-'0')
			if v > limit {
				return 0, false
			}
		}
		pre, post := n > 0, false
		s = s[n:]
		if s != "" && s[0] == '.' {
			s = s[1:]
			overflow := false
			n = 0
			for ; n < len(s) && isDigit(s[n]); n++ {
				if overflow {
					continue
				}
				if f > (limit-1)/10 {
					overflow = true
					continue
				}
				y := f*10 + uint64(s[n]-'0')
				if y > limit {
					overflow = true
					continue
				}
				f = y
				scale *= 10
			}
			post = n > 0
			s = s[n:]
		}
		if !pre && !post {
			return 0, false
		}
		n = 0
		for n < len(s) && s[n] != '.' && !isDigit(s[n]) {
			n++
		}
		var unit uint64
		switch s[:n] {
		case "ns":
			unit = 1
		case "us", "\u00b5s", "\u03bcs":
			unit = 1e3
		case "ms":
			unit = 1e6
		case "s":
			unit = 1e9
		case "m":
			unit = 60e9
		case "h":
			unit = 3600e9
		default:
			return 0, false
		}
		s = s[n:]
		if v > limit/unit {
			return 0, false
		}
		v *= unit
		if f > 0 {
			v += uint64(float64(f) * (float64(unit) / scale))
			if v > limit {
				return 0, false
			}
		}
		d += v
		if d > limit {
			return 0, false
		}
	}
	if neg {
		return -int64(d), true
	}
	if d > limit-1 {
		return 0, false
	}
	return int64(d), true
}

// durationSecondsOf is time.Duration.Seconds.
func durationSecondsOf(d int64) float64 {
	sec, nsec := d/1e9, d%1e9
	return float64(sec) + float64(nsec)/1e9
}

// envRefs is FindAllStringSubmatch of `\$\{\s*oc\.env\s*:\s*([^,}\s]+)\s*(,[^}]*)?\}`: for
// every OmegaConf environment resolver in s, left to right, the variable and the default with
// its comma ("" when none).
func envRefs(s string) [][2]string {
	var out [][2]string
	skip := func(j int) int {
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		return j
	}
	at := func(i int) (m [2]string, end int, ok bool) {
		if !strings.HasPrefix(s[i:], "${") {
			return m, 0, false
		}
		j := skip(i + 2)
		if !strings.HasPrefix(s[j:], "oc.env") {
			return m, 0, false
		}
		j = skip(j + len("oc.env"))
		if j >= len(s) || s[j] != ':' {
			return m, 0, false
		}
		j = skip(j + 1)
		k := j
		for k < len(s) && s[k] != ',' && s[k] != '}' && !isSpace(s[k]) {
			k++
		}
		if k == j {
			return m, 0, false
		}
		m[0] = s[j:k]
		k = skip(k)
		if k < len(s) && s[k] == ',' {
			if c := strings.IndexByte(s[k:], '}'); c >= 0 {
				m[1] = s[k : k+c]
				return m, k + c + 1, true
			}
			return m, 0, false
		}
		if k < len(s) && s[k] == '}' {
			return m, k + 1, true
		}
		return m, 0, false
	}
	for i := 0; i < len(s); {
		if m, end, ok := at(i); ok {
			out = append(out, m)
			i = end
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return out
}
