package lsp

import (
	"regexp"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
)

// Completion in configs written as code (Python and gin). The YAML completion reads nesting
// from indentation and inserts `key: value`; neither holds in code, where a key is a keyword of
// a dict(...) call, an attribute of a ConfigDict or a gin binding, so these formats get a
// context of their own. Where the context is not one of those (a list, another call, a
// subscript, a function's local variable), nothing is offered: an offer must insert code the
// file's framework reads.

// codeSpot is where the cursor is in a code config: the key path of the mapping a key typed
// there belongs to, and how a key is written there.
type codeSpot struct {
	parent string
	form   keyForm
	// value: the cursor is after `key=` or `key =` (key is the whole path), where a key's
	// allowed values are offered.
	value bool
	key   string
	// seen are the keys written before the cursor in the same dict(...) call (the Document the
	// rest is read from has the cursor's line blanked).
	seen []string
	// binding is a top-level gin binding's text before the word ("utils." in "utils.Sa"):
	// whole binding paths that continue it are offered too, not only the keys right below
	// parent.
	binding string
	top     bool
	// quote is the quote a display's key was opened with before the word ('sy|), 0 if none.
	quote byte
}

// keyForm is how a completed key is written.
type keyForm int

const (
	formKeyword   keyForm = iota // dict(...) keyword: name=value
	formStatement                // a statement: name = value (module variable, attribute)
	formBinding                  // gin: path = value
	formDisplay                  // a {...} display's item: 'name': value
)

// pyTok is a token of the scan below: a name, a string, a number, or an operator byte.
type pyTok struct {
	kind byte // 'n' name, 's' string, '0' number, else the operator byte itself
	text string
}

// pyLevel is a nesting level of the scan: the module (or a function body) at depth 0, or an
// open bracket.
type pyLevel struct {
	open byte   // 0 at depth 0, else '(', '[' or '{'
	dict bool   // a dict(...)/ConfigDict(...) call or a {...} display: keys inside are keys
	key  string // the key path of this level's value; meaningful when keyed
	// keyed: key is a config key path (the level is a value stored in the config).
	keyed bool
	// item is the tokens since the level's last separator (the bracket, a comma; at depth 0
	// a statement's end); indent is the column of the statement's first token at depth 0.
	item   []pyTok
	indent int
	seen   []string // keywords of the items before item (dict calls)
}

// pythonSpot reads the Python source before off (the start of the word being typed) and
// reports where a key typed there would go. roots are the names bound to ConfigDicts (their
// attributes are keys); module says whether bare module variables are keys (MMEngine configs,
// not get_config files).
func pythonSpot(src []byte, off int, roots map[string]bool, module bool) (codeSpot, bool) {
	levels := []pyLevel{{}}
	col := 0
	lineStart := true
	for i := 0; i < off; {
		c := src[i]
		top := &levels[len(levels)-1]
		switch {
		case c == '\n':
			if len(levels) == 1 {
				top.item = top.item[:0]
			}
			i++
			col, lineStart = 0, true
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
			col++
			continue
		case c == '\\' && i+1 < off && src[i+1] == '\n', c == '\\' && i+2 < off && src[i+1] == '\r' && src[i+2] == '\n':
			i += 2 // a continued line (LF or CR LF): the statement goes on
			if src[i-1] == '\r' {
				i++
			}
			col = 0
			continue
		case c == '#':
			for i < off && src[i] != '\n' {
				i++
			}
			continue
		}
		if lineStart && len(levels) == 1 {
			top.item = top.item[:0]
			top.indent = col
		}
		lineStart = false
		start := i
		switch {
		case isIdentStart(c):
			for i < off && isIdentByte(src[i]) {
				i++
			}
			if i < off && (src[i] == '\'' || src[i] == '"') && len(src[start:i]) <= 3 && strings.Trim(strings.ToLower(string(src[start:i])), "rbuf") == "" {
				j, ok := skipString(src, i, off)
				if !ok {
					return codeSpot{}, false // the cursor is inside a string
				}
				i = j
				top.item = append(top.item, pyTok{kind: 's'})
				break
			}
			top.item = append(top.item, pyTok{kind: 'n', text: string(src[start:i])})
		case c >= '0' && c <= '9':
			for i < off && (isIdentByte(src[i]) || src[i] == '.') {
				i++
			}
			top.item = append(top.item, pyTok{kind: '0'})
		case c == '\'' || c == '"':
			j, ok := skipString(src, i, off)
			if !ok {
				return codeSpot{}, false
			}
			text := ""
			if j-i >= 2 && src[i+1] != src[i] {
				text = string(src[i+1 : j-1])
			}
			i = j
			top.item = append(top.item, pyTok{kind: 's', text: text})
		case c == '(' || c == '[' || c == '{':
			lv := pyLevel{open: c}
			lv.key, lv.keyed, lv.dict = openedKey(levels, c, roots, module)
			top.item = append(top.item, pyTok{kind: c})
			levels = append(levels, lv)
			i++
		case c == ')' || c == ']' || c == '}':
			if len(levels) == 1 {
				return codeSpot{}, false // unbalanced: no context to trust
			}
			levels = levels[:len(levels)-1]
			levels[len(levels)-1].item = append(levels[len(levels)-1].item, pyTok{kind: 'x'})
			i++
		case c == ',':
			if len(levels) > 1 {
				if k, ok := itemKey(top.item); ok {
					top.seen = append(top.seen, k)
				}
				top.item = top.item[:0]
			} else {
				top.item = append(top.item, pyTok{kind: ','})
			}
			i++
		case c == ';' && len(levels) == 1:
			top.item = top.item[:0]
			i++
		case c == '=' && i+1 < off && src[i+1] == '=', (c == '!' || c == '<' || c == '>' || c == ':') && i+1 < off && src[i+1] == '=':
			top.item = append(top.item, pyTok{kind: 'x'})
			i += 2
		default:
			top.item = append(top.item, pyTok{kind: c})
			i++
		}
		col += i - start
	}
	top := levels[len(levels)-1]
	if len(levels) == 1 {
		if lineStart {
			top.item, top.indent = nil, col // the word is the line's first token
		}
		return statementSpot(top, roots, module)
	}
	if !top.keyed || !top.dict {
		return codeSpot{}, false
	}
	if top.open == '{' {
		switch {
		case len(top.item) == 0:
			return codeSpot{parent: top.key, form: formDisplay, seen: append(top.seen, laterKeywords(src, off)...)}, true
		case len(top.item) == 2 && top.item[0].kind == 's' && isName(top.item[0].text) && top.item[1].kind == ':':
			return codeSpot{value: true, key: joinPath(top.key, top.item[0].text)}, true
		}
		return codeSpot{}, false
	}
	switch {
	case len(top.item) == 0:
		return codeSpot{parent: top.key, form: formKeyword, seen: append(top.seen, laterKeywords(src, off)...)}, true
	case len(top.item) == 2 && top.item[0].kind == 'n' && top.item[1].kind == '=':
		return codeSpot{value: true, key: joinPath(top.key, top.item[0].text)}, true
	}
	return codeSpot{}, false
}

// itemKey is the key an item of a dict call (`name=`) or a display (`'name':`) writes.
func itemKey(it []pyTok) (string, bool) {
	switch {
	case len(it) >= 2 && it[0].kind == 'n' && it[1].kind == '=':
		return it[0].text, true
	case len(it) >= 2 && it[0].kind == 's' && it[0].text != "" && it[1].kind == ':':
		return it[0].text, true
	}
	return "", false
}

// laterKeywords are the keys of the call's or display's items from off (the word being typed)
// to its closing bracket (`seed` in `dict(|, seed=0)` or `{|, 'seed': 0}`, or on the lines
// below): a keyword written twice is a syntax error, so they are not offered.
func laterKeywords(src []byte, off int) []string {
	var out []string
	depth := 0
	var item []pyTok
	for i := off; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\\':
			i++
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '\'' || c == '"':
			j, ok := skipString(src, i, len(src))
			if !ok {
				return out
			}
			text := ""
			if j-i >= 2 && src[i+1] != src[i] {
				text = string(src[i+1 : j-1])
			}
			i = j
			item = append(item, pyTok{kind: 's', text: text})
			continue
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			item = append(item, pyTok{kind: 'n', text: string(src[i:j])})
			i = j
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 {
				if k, ok := itemKey(item); ok {
					out = append(out, k)
				}
				return out
			}
			depth--
		case c == ',' && depth == 0:
			if k, ok := itemKey(item); ok {
				out = append(out, k)
			}
			item = item[:0]
			i++
			continue
		case c == '=' && i+1 < len(src) && src[i+1] == '=':
			item = append(item, pyTok{kind: 'x'})
			i += 2
			continue
		}
		if depth == 0 {
			item = append(item, pyTok{kind: c})
		}
		i++
	}
	return out
}

// statementSpot is the spot of a word typed in a statement at depth 0: its start (a module
// variable, when those are keys), after a ConfigDict's attribute chain (`config.input.`), or
// after `key =` / `chain =`.
func statementSpot(lv pyLevel, roots map[string]bool, module bool) (codeSpot, bool) {
	it := lv.item
	if len(it) == 0 {
		if module && lv.indent == 0 {
			return codeSpot{form: formStatement}, true
		}
		return codeSpot{}, false
	}
	if it[len(it)-1].kind == '=' {
		if key, ok := chainKey(it[:len(it)-1], roots, module && lv.indent == 0); ok {
			return codeSpot{value: true, key: key}, true
		}
		return codeSpot{}, false
	}
	if it[len(it)-1].kind == '.' {
		if len(it) == 2 && it[0].kind == 'n' && roots[it[0].text] {
			return codeSpot{form: formStatement}, true // config.
		}
		if parent, ok := chainKey(it[:len(it)-1], roots, false); ok && len(it) > 2 {
			return codeSpot{parent: parent, form: formStatement}, true
		}
	}
	return codeSpot{}, false
}

// chainKey reads the tokens of an assignment target: a ConfigDict root's attribute chain
// (`config.input.batch_size` → input.batch_size; the root alone is no key) or, when bare is
// set, a module variable's name.
func chainKey(it []pyTok, roots map[string]bool, bare bool) (string, bool) {
	if len(it) == 0 || it[0].kind != 'n' || len(it)%2 == 0 {
		return "", false
	}
	if len(it) == 1 {
		return it[0].text, bare && !roots[it[0].text]
	}
	if !roots[it[0].text] {
		return "", false
	}
	var parts []string
	for j := 1; j < len(it); j += 2 {
		if it[j].kind != '.' || it[j+1].kind != 'n' {
			return "", false
		}
		parts = append(parts, it[j+1].text)
	}
	return strings.Join(parts, "."), true
}

// openedKey is the key path of a bracket opened at the top of levels: `key = dict(` at depth 0,
// `key=dict(` inside a dict call, `'key': {` inside a display, and a list's items under the
// list's key with "[]". A bracket that is not one of those holds no keys.
func openedKey(levels []pyLevel, open byte, roots map[string]bool, module bool) (key string, keyed, isDict bool) {
	top := levels[len(levels)-1]
	it := top.item
	// The callee of a call: the dotted name just before the bracket.
	callee, n := "", 0
	if open == '(' {
		j := len(it) - 1
		for j >= 0 && (it[j].kind == 'n' || it[j].kind == '.') {
			j--
		}
		n = len(it) - 1 - j
		if n == 0 || it[len(it)-1].kind != 'n' {
			return "", false, false
		}
		callee = it[len(it)-1].text
		it = it[:len(it)-n]
	}
	isDict = open == '{' || callee == "dict" || callee == "ConfigDict"
	if open == '(' && !isDict {
		return "", false, false
	}
	var base string
	switch {
	case len(levels) == 1:
		if len(it) < 2 || it[len(it)-1].kind != '=' {
			return "", false, false
		}
		k, ok := chainKey(it[:len(it)-1], roots, module && top.indent == 0)
		if !ok {
			return "", false, false
		}
		base = k
	case !top.keyed:
		return "", false, false
	case top.open == '[':
		if len(it) != 0 {
			return "", false, false
		}
		base = top.key + "[]"
	case top.open == '(' && top.dict:
		if len(it) != 2 || it[0].kind != 'n' || it[1].kind != '=' {
			return "", false, false
		}
		base = joinPath(top.key, it[0].text)
	case top.open == '{':
		if len(it) != 2 || it[0].kind != 's' || it[0].text == "" || strings.ContainsAny(it[0].text, ".[]") || it[1].kind != ':' {
			return "", false, false
		}
		base = joinPath(top.key, it[0].text)
	default:
		return "", false, false
	}
	if open == '[' {
		return base, true, false
	}
	return base, true, isDict
}

// skipString returns the offset just past the string literal starting at i (a quote), and
// false when it does not end before off.
func skipString(src []byte, i, off int) (int, bool) {
	q := src[i]
	if i+2 < off && src[i+1] == q && src[i+2] == q {
		for j := i + 3; j+2 < off; j++ {
			if src[j] == '\\' {
				j++
				continue
			}
			if src[j] == q && src[j+1] == q && src[j+2] == q {
				return j + 3, true
			}
		}
		return off, false
	}
	for j := i + 1; j < off; j++ {
		switch src[j] {
		case '\\':
			j++
		case '\n':
			return j, true // an unterminated string ends at its line
		case q:
			return j + 1, true
		}
	}
	return off, false
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// configRoots are the names a Python config binds to ConfigDicts, whose attributes are the
// config's keys: `x = ...ConfigDict(...)`, `x = ...parse_arg(...)` (big_vision's helper that
// returns one), and in a get_config file the names it returns.
func configRoots(src []byte, getConfig bool) map[string]bool {
	roots := map[string]bool{}
	for line := range strings.Lines(string(src)) {
		t := strings.TrimSpace(line)
		if name, rest, ok := strings.Cut(t, "="); ok {
			name = strings.TrimSpace(name)
			rest = strings.TrimSpace(rest)
			if isName(name) && !strings.HasPrefix(rest, "=") {
				if c, _, ok := strings.Cut(rest, "("); ok && (strings.HasSuffix(c, "ConfigDict") || strings.HasSuffix(c, "parse_arg")) && isDotted(c) {
					roots[name] = true
				}
			}
		}
		if getConfig {
			if r, ok := strings.CutPrefix(t, "return "); ok && isName(strings.TrimSpace(r)) {
				roots[strings.TrimSpace(r)] = true
			}
		}
	}
	return roots
}

func isName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

func isDotted(s string) bool {
	for p := range strings.SplitSeq(s, ".") {
		if !isName(p) {
			return false
		}
	}
	return true
}

// ginSpot is the spot of a word typed in a gin file: a binding's path at the start of a line
// outside any bracket (`train.` → the keys under train), or its value after `path =`.
func ginSpot(src []byte, lineStart, off int) (codeSpot, bool) {
	// Brackets still open at the line's start mean the line continues a value.
	depth := 0
	for i := 0; i < lineStart; i++ {
		switch c := src[i]; c {
		case '#':
			for i < lineStart && src[i] != '\n' {
				i++
			}
		case '\'', '"':
			j, ok := skipString(src, i, lineStart)
			if !ok {
				return codeSpot{}, false // inside a string still open (''' ... )
			}
			i = j - 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
	}
	if depth != 0 {
		return codeSpot{}, false
	}
	raw := string(src[lineStart:off])
	before := strings.TrimLeft(raw, " \t")
	scope := "" // a block's selector: `utils.SaveCheckpointConfig:` above indented bindings
	if len(before) < len(raw) {
		var ok bool
		if scope, ok = ginBlock(src, lineStart); !ok {
			return codeSpot{}, false // an indented line outside a block continues a value
		}
	}
	if k, _, ok := strings.Cut(before, "="); ok {
		if strings.TrimSpace(k) == "" || strings.Contains(before[len(k)+1:], "=") {
			return codeSpot{}, false
		}
		return codeSpot{value: true, key: joinPath(scope, strings.TrimSpace(k))}, true
	}
	for i := 0; i < len(before); i++ {
		if c := before[i]; !isIdentByte(c) && c != '.' && c != '/' {
			return codeSpot{}, false
		}
	}
	if scope != "" && strings.ContainsAny(before, "./") {
		return codeSpot{}, false // a block binds its configurable's parameters, by bare names
	}
	parent := strings.TrimSuffix(before, ".")
	if scope != "" {
		return codeSpot{parent: scope, form: formBinding}, true // a parameter of the block's configurable
	}
	return codeSpot{parent: parent, form: formBinding, binding: before, top: true}, true
}

// ginBlock finds the block an indented gin line at lineStart belongs to: the nearest line
// above at column 0 (blank and comment lines aside), which must be a selector and a colon
// (`utils.SaveCheckpointConfig:`, `train/utils.DatasetConfig:`).
func ginBlock(src []byte, lineStart int) (string, bool) {
	for end := lineStart - 1; end > 0; {
		start := end
		for start > 0 && src[start-1] != '\n' {
			start--
		}
		line := string(src[start:end])
		end = start - 1
		if c, _, _ := strings.Cut(line, "#"); strings.TrimSpace(c) == "" {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			continue
		}
		head, _, _ := strings.Cut(line, "#")
		head = strings.TrimSpace(head)
		sel, ok := strings.CutSuffix(head, ":")
		if !ok || sel == "" {
			return "", false
		}
		for i := 0; i < len(sel); i++ {
			if c := sel[i]; !isIdentByte(c) && c != '.' && c != '/' {
				return "", false
			}
		}
		return sel, true
	}
	return "", false
}

// codeKeyText is what completing a key inserts in a code config: the key written as the spot
// writes keys, with its default when the default is a literal the framework reads (a number,
// a boolean, None, a one-word string), never a description such as "steps per epoch".
func codeKeyText(form keyForm, name string, k *dialect.Key) string {
	v := pyLiteral(k)
	switch form {
	case formKeyword:
		return name + "=" + v
	}
	if v == "" {
		return name + " = "
	}
	return name + " = " + v
}

// codeSectionText is what completing a section inserts in Python: a dict (a list for a list's
// items) opened for its keys, "$0" where the cursor goes; in a display, a display.
func codeSectionText(spot codeSpot, s section) string {
	v := "dict($0)"
	switch {
	case s.list:
		v = "[$0]"
	case spot.form == formDisplay:
		v = "{$0}"
	}
	switch spot.form {
	case formKeyword:
		return s.name + "=" + v
	case formDisplay:
		return displayKeyText(spot.quote, s.name, v)
	}
	return s.name + " = " + v
}

// displayKeyText is a display's item: the key quoted (with the quote typed, else a single
// quote) and its value.
func displayKeyText(quote byte, name, value string) string {
	if quote == 0 {
		quote = '\''
	}
	q := string(quote)
	return q + name + q + ": " + value
}

// pyNumber is a decimal Python number as a default is written (no leading zeros, digits
// grouped by single underscores, an optional fraction and exponent): Go's ParseFloat would
// also take inf, NaN, hex floats and 007, which Python does not.
var pyNumber = regexp.MustCompile(`^-?(0|[1-9](_?[0-9])*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// pyLiteral is a key's default as a Python (and gin) literal, or "" when it is not one.
func pyLiteral(k *dialect.Key) string {
	v := strings.TrimSpace(k.Default)
	switch strings.ToLower(v) {
	case "":
		return ""
	case "none", "null":
		return "None"
	case "true":
		return "True"
	case "false":
		return "False"
	}
	if pyNumber.MatchString(v) && !strings.HasPrefix(k.Type, "string") {
		return v
	}
	if strings.HasPrefix(k.Type, "string") && isWord(v) {
		return "'" + v + "'"
	}
	return ""
}

func isWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isIdentByte(c) && c != '-' && c != '.' {
			return false
		}
	}
	return s != ""
}

// codeSpotAt finds the spot of a word that starts at off in a Python or gin document (d is
// its Document, read with the cursor's line blanked).
func codeSpotAt(f doc.Format, src []byte, lineStart, off int, d *doc.Document) (codeSpot, bool) {
	if f == doc.Gin {
		return ginSpot(src, lineStart, off)
	}
	getConfig := d != nil && d.Root != nil && d.Root.Style == "get_config"
	return pythonSpot(src, off, configRoots(src, getConfig), !getConfig)
}

// codeCompletion is Completion in a Python or gin document: the keys that belong at the spot
// of the word before the cursor and are not written there yet, or a key's allowed values.
func codeCompletion(a lint.Analysis, d *document, enc encoding, lineStart, off int, at protocol.Position, snippet bool) protocol.CompletionResult {
	src := d.text.src
	ws := off
	for ws > lineStart && isIdentByte(src[ws-1]) {
		ws--
	}
	word := string(src[ws:off])
	replace := protocol.Range{Start: d.text.position(ws, enc), End: at}
	items := []protocol.CompletionItem{}
	spot, ok := codeSpotAt(d.format, src, lineStart, ws, a.Doc)
	if q := byte(0); d.format == doc.Python && ws > lineStart {
		if q = src[ws-1]; (q == '\'' || q == '"') && (ws-1 == lineStart || !isIdentByte(src[ws-2])) {
			// A display's key opened with a quote ('sy|, or 'sy|' with the quote the editor
			// closed): the offer replaces the quotes too.
			if qs, qok := codeSpotAt(d.format, src, lineStart, ws-1, a.Doc); qok && qs.form == formDisplay && !qs.value {
				spot, ok = qs, true
				spot.quote = q
				replace.Start = d.text.position(ws-1, enc)
				replace.End = d.text.position(d.text.pastQuote(off, q), enc)
			}
		}
	}
	if !ok {
		return protocol.CompletionItemSlice(items)
	}
	if spot.value {
		k := codeKey(a.Dialect, spot.key)
		if k == nil {
			return protocol.CompletionItemSlice(items)
		}
		values := make([]string, 0, len(k.Enum))
		for _, v := range k.Enum {
			values = append(values, "'"+v+"'")
		}
		if len(values) == 0 && k.Type == "boolean" {
			values = []string{"True", "False"}
		}
		for _, v := range values {
			items = append(items, protocol.CompletionItem{
				Label: v, Kind: protocol.CompletionItemKindValue,
				Detail:   protocol.NewOptional(k.Path + " value"),
				TextEdit: &protocol.TextEdit{Range: replace, NewText: v},
			})
		}
		return protocol.CompletionItemSlice(items)
	}
	present := presentKeys(a.Doc, spot.parent)
	for _, k := range spot.seen {
		present[k] = true
	}
	items = keyCompletions(a, spot.parent, word, present, replace, func(name string, k *dialect.Key) string {
		if spot.form == formDisplay {
			return displayKeyText(spot.quote, name, pyLiteral(k))
		}
		return codeKeyText(spot.form, name, k)
	})
	if spot.top {
		items = append(items, ginPaths(a, spot, word, replace)...)
	}
	if spot.form != formBinding {
		items = withSections(items, a, spot.parent, word, present, replace, snippet, func(s section) string {
			return codeSectionText(spot, s)
		})
	}
	return protocol.CompletionItemSlice(items)
}

// ginPaths are the whole binding paths that continue what a top-level gin line holds before
// the cursor (`tr` → train.total_steps, `utils.Sa` → SaveCheckpointConfig.keep) and lie deeper
// than the keys right below it (keyCompletions offers those), when the file does not bind them
// yet: gin paths are long, and nothing else is offered before their last dot.
func ginPaths(a lint.Analysis, spot codeSpot, word string, replace protocol.Range) []protocol.CompletionItem {
	var items []protocol.CompletionItem
	typed := spot.binding + word
	for i := range a.Dialect.Keys {
		k := &a.Dialect.Keys[i]
		kp, _ := splitKey(k.Path)
		if !strings.HasPrefix(k.Path, typed) || sameParent(kp, spot.parent) || k.Deprecated() != "" || strings.Contains(k.Path, "[]") {
			continue
		}
		if a.Doc != nil && a.Doc.Root != nil && a.Doc.Root.At(k.Path) != nil {
			continue
		}
		rest := k.Path[len(spot.binding):]
		items = append(items, keyItem(a.Dialect, k, rest, replace, codeKeyText(formBinding, rest, k)))
	}
	return items
}

// sameParent reports whether a key path's parent kp (a dialect's, where "[]" stands for any
// entry of a list or mapping: big_vision's evals.[]) is the spot's parent path.
func sameParent(kp, parent string) bool {
	if kp == parent {
		return true
	}
	if !strings.Contains(kp, "[]") {
		return false
	}
	a, b := pathParts(kp), pathParts(parent)
	return len(a) == len(b) && partsMatch(a, b)
}

// codeKey is the dialect's key at path, "[]" in its path matching any entry (big_vision's
// evals.[].log_steps for config.evals.fewshot.log_steps; completion and hover).
func codeKey(d *dialect.Dialect, path string) *dialect.Key {
	if k := findKey(d, path); k != nil || d == nil {
		return k
	}
	parent, name := splitKey(path)
	for i := range d.Keys {
		if kp, n := splitKey(d.Keys[i].Path); n == name && sameParent(kp, parent) {
			return &d.Keys[i]
		}
	}
	return nil
}
