package api

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
)

// The API reads requests and writes replies with the small JSON code in this file rather than
// encoding/json: encoding/json and the reflection behind it were 55 KB of the WebAssembly
// module brotli-compressed (80 KB gzipped), about a twentieth of it, for five fixed shapes.
// The output is byte for byte what encoding/json writes for the same values (TestJSONLikeStdlib
// fills every field of every reply type by reflection and compares, so a field added to
// lint.Result without a line here fails that test).

// ---- writing ----

type jw struct {
	b      []byte
	indent int // current depth; pretty output when pretty is set
	pretty bool
	html   bool // escape <, > and & as json.Marshal does (ResultJSON's encoder turns that off)
	first  []bool
}

func (w *jw) nl() {
	if w.pretty {
		w.b = append(w.b, '\n')
		for i := 0; i < w.indent; i++ {
			w.b = append(w.b, ' ', ' ')
		}
	}
}

func (w *jw) open(c byte) {
	w.b = append(w.b, c)
	w.indent++
	w.first = append(w.first, true)
}

func (w *jw) close(c byte) {
	w.indent--
	empty := w.first[len(w.first)-1]
	w.first = w.first[:len(w.first)-1]
	if !empty {
		w.nl()
	}
	w.b = append(w.b, c)
}

func (w *jw) sep() {
	if w.first[len(w.first)-1] {
		w.first[len(w.first)-1] = false
	} else {
		w.b = append(w.b, ',')
	}
	w.nl()
}

// key starts a member of the current object. Member names are this file's literals (lowercase
// ASCII and "_"), written as they are: no call to str for each of a reply's few hundred names.
func (w *jw) key(k string) {
	w.sep()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
	if w.pretty {
		w.b = append(w.b, ' ')
	}
}

const hexDigits = "0123456789abcdef"

// str writes a string as encoding/json does: quotes, backslashes and control characters
// escaped, invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped, and <, > and & when w.html.
func (w *jw) str(s string) {
	w.b = append(w.b, '"')
	for i := 0; i < len(s); {
		if n := plainRun(s[i:], true, w.html); n > 0 {
			w.b = append(w.b, s[i:i+n]...) // bytes written as they are, at once
			i += n
			if i == len(s) {
				break
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			// Escapes as encoding/json writes them: \" \\ \b \f \n \r \t by name, the other
			// control bytes (and <, >, & for HTML) as \u00XX.
			j := strings.IndexByte("\"\\\b\f\n\r\t", c)
			switch {
			case j >= 0:
				w.b = append(w.b, '\\', "\"\\bfnrt"[j])
			case c >= 0x20 && !(w.html && (c == '<' || c == '>' || c == '&')):
				w.b = append(w.b, c)
			default:
				w.b = append(w.b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			w.b = append(w.b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			w.b = append(w.b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			w.b = append(w.b, s[i:i+size]...)
		}
		i += size
	}
	w.b = append(w.b, '"')
}

func (w *jw) int(n int) { w.b = strconv.AppendInt(w.b, int64(n), 10) }

func (w *jw) bool(v bool) { w.b = strconv.AppendBool(w.b, v) }

// float writes a float64 as encoding/json does.
func (w *jw) float(f float64) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return errors.New("unsupported value: " + strconv.FormatFloat(f, 'g', -1, 64))
	}
	abs := math.Abs(f)
	fmtc := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmtc = 'e'
	}
	start := len(w.b)
	w.b = strconv.AppendFloat(w.b, f, fmtc, -1, 64)
	if fmtc == 'e' {
		// clean up e-09 to e-9
		n := len(w.b) - start
		if n >= 4 && w.b[len(w.b)-4] == 'e' && w.b[len(w.b)-3] == '-' && w.b[len(w.b)-2] == '0' {
			w.b[len(w.b)-2] = w.b[len(w.b)-1]
			w.b = w.b[:len(w.b)-1]
		}
	}
	return nil
}

// any writes the values an option default can hold.
func (w *jw) any(v any) error {
	switch x := v.(type) {
	case nil:
		w.null()
	case string:
		w.str(x)
	case bool:
		w.bool(x)
	case int:
		w.int(x)
	case int64:
		w.b = strconv.AppendInt(w.b, x, 10)
	case float64:
		return w.float(x)
	case []string:
		w.strings(x)
	default:
		return errors.New("json: unsupported type") // none of the reply's own types
	}
	return nil
}

func (w *jw) null() { w.b = append(w.b, "null"...) }

// array writes xs as encoding/json does a slice: null when nil, else each element by elem.
func array[T any](w *jw, xs []T, elem func(*T)) {
	if xs == nil {
		w.null()
		return
	}
	w.open('[')
	for i := range xs {
		w.sep()
		elem(&xs[i])
	}
	w.close(']')
}

// ks, ki and kb write a member holding a string, an int or a bool.
func (w *jw) ks(k, v string)      { w.key(k); w.str(v) }
func (w *jw) ki(k string, v int)  { w.key(k); w.int(v) }
func (w *jw) kb(k string, v bool) { w.key(k); w.bool(v) }

func (w *jw) strings(xs []string) { array(w, xs, func(s *string) { w.str(*s) }) }

func (w *jw) result(r *lint.Result) {
	if r == nil {
		w.null()
		return
	}
	w.open('{')
	w.ki("version", r.Version)
	w.key("tool")
	w.open('{')
	w.ks("name", r.Tool.Name)
	w.ks("version", r.Tool.Version)
	w.close('}')
	w.key("files")
	array(w, r.Files, func(f *lint.FileInfo) {
		w.open('{')
		w.ks("path", f.Path)
		w.ks("format", f.Format)
		w.ks("framework", f.Framework)
		if len(f.NeedsHosts) > 0 {
			w.key("needs_hosts")
			w.strings(f.NeedsHosts)
		}
		w.close('}')
	})
	w.key("diagnostics")
	array(w, r.Diagnostics, w.diagnostic)
	w.close('}')
}

// span writes a file and the start of a position, and its end when end is set.
func (w *jw) span(file string, line, col, endLine, endCol int, end bool) {
	w.ks("file", file)
	w.ki("line", line)
	w.ki("column", col)
	if end {
		w.ki("end_line", endLine)
		w.ki("end_column", endCol)
	}
}

func (w *jw) diagnostic(d *lint.Diagnostic) {
	w.open('{')
	w.ks("code", d.Code)
	w.ks("rule", d.Rule)
	w.ks("category", d.Category)
	w.ks("severity", d.Severity.String())
	w.span(d.File, d.Line, d.Column, d.EndLine, d.EndColumn, true)
	if d.Key != "" {
		w.ks("key", d.Key)
	}
	w.ks("message", d.Message)
	w.ks("help", d.Help)
	w.ks("url", d.URL)
	if len(d.Related) > 0 {
		w.key("related")
		array(w, d.Related, func(r *lint.Related) {
			w.open('{')
			w.span(r.File, r.Line, r.Column, 0, 0, false)
			w.ks("message", r.Message)
			w.close('}')
		})
	}
	if d.Fix != nil {
		w.key("fix")
		w.open('{')
		w.ks("applicability", string(d.Fix.Applicability))
		w.ks("message", d.Fix.Message)
		w.key("edits")
		array(w, d.Fix.Edits, func(e *lint.Edit) {
			w.open('{')
			w.span(e.File, e.Line, e.Column, e.EndLine, e.EndColumn, true)
			w.ks("new_text", e.NewText)
			w.close('}')
		})
		w.close('}')
	}
	w.close('}')
}

func (w *jw) fixResult(r *FixResult) {
	w.open('{')
	w.key("files")
	array(w, r.Files, func(f *FixedFile) {
		w.open('{')
		w.ks("path", f.Path)
		w.ks("text", f.Text)
		w.ki("applied", f.Applied)
		if f.Error != "" {
			w.ks("error", f.Error)
		}
		w.close('}')
	})
	w.key("result")
	w.result(r.Result)
	w.close('}')
}

func (w *jw) rules(rs []lint.RuleInfo) error {
	var err error
	array(w, rs, func(r *lint.RuleInfo) {
		w.open('{')
		w.ks("code", r.Code)
		w.ks("name", r.Name)
		w.ks("title", r.Title)
		w.ks("category", r.Category)
		w.ks("severity", r.Severity.String())
		if r.Anchor != "" {
			w.ks("anchor", r.Anchor)
		}
		if r.Playbook != "" {
			w.ks("playbook", r.Playbook)
		}
		w.ks("url", r.URL)
		w.ks("rationale", r.Rationale)
		w.ks("fix", r.Fix)
		w.key("frameworks")
		w.strings(r.Frameworks)
		w.key("options")
		array(w, r.Options, func(o *lint.Option) {
			w.open('{')
			w.ks("name", o.Name)
			w.ks("type", o.Type)
			w.key("default")
			if e := w.any(o.Default); e != nil && err == nil {
				err = e
			}
			w.ks("doc", o.Doc)
			w.close('}')
		})
		if r.Off {
			w.kb("off", true)
		}
		w.close('}')
	})
	return err
}

func (w *jw) frameworks(fs []FrameworkInfo) {
	array(w, fs, func(f *FrameworkInfo) {
		w.open('{')
		w.ks("name", f.Name)
		w.ks("title", f.Title)
		w.close('}')
	})
}

// ---- reading ----

// jr is a JSON reader for requests: standard JSON (RFC 8259) into strings, float64, bool, nil,
// []any and map[string]any. Depth is limited; a request is a few levels deep.
type jr struct {
	s   []byte
	i   int
	err error
}

const maxRequestDepth = 64

func (r *jr) fail(msg string) {
	if r.err == nil {
		r.err = errors.New(msg + " at offset " + strconv.Itoa(r.i))
	}
}

func (r *jr) ws() {
	for r.i < len(r.s) && (r.s[r.i] == ' ' || r.s[r.i] == '\t' || r.s[r.i] == '\n' || r.s[r.i] == '\r') {
		r.i++
	}
}

func (r *jr) value(depth int) any {
	if depth > maxRequestDepth {
		r.fail("nested too deeply")
		return nil
	}
	r.ws()
	if r.i >= len(r.s) {
		r.fail("unexpected end of JSON input")
		return nil
	}
	switch c := r.s[r.i]; {
	case c == '{':
		r.i++
		m := map[string]any{}
		r.ws()
		if r.i < len(r.s) && r.s[r.i] == '}' {
			r.i++
			return m
		}
		for r.err == nil {
			r.ws()
			if r.i >= len(r.s) || r.s[r.i] != '"' {
				r.fail("expected a string key")
				return nil
			}
			k := r.str()
			r.ws()
			if r.i >= len(r.s) || r.s[r.i] != ':' {
				r.fail("expected ':'")
				return nil
			}
			r.i++
			m[k] = r.value(depth + 1)
			r.ws()
			if r.i < len(r.s) && r.s[r.i] == ',' {
				r.i++
				continue
			}
			if r.i < len(r.s) && r.s[r.i] == '}' {
				r.i++
				return m
			}
			r.fail("expected ',' or '}'")
		}
		return nil
	case c == '[':
		r.i++
		var a []any
		r.ws()
		if r.i < len(r.s) && r.s[r.i] == ']' {
			r.i++
			return []any{}
		}
		for r.err == nil {
			a = append(a, r.value(depth+1))
			r.ws()
			if r.i < len(r.s) && r.s[r.i] == ',' {
				r.i++
				continue
			}
			if r.i < len(r.s) && r.s[r.i] == ']' {
				r.i++
				return a
			}
			r.fail("expected ',' or ']'")
		}
		return nil
	case c == '"':
		return r.str()
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []struct {
			text string
			v    any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if len(r.s)-r.i >= len(lit.text) && string(r.s[r.i:r.i+len(lit.text)]) == lit.text {
				r.i += len(lit.text)
				return lit.v
			}
		}
		r.fail("invalid literal")
		return nil
	case c == '-' || (c >= '0' && c <= '9'):
		start := r.i
		if c == '-' {
			r.i++
		}
		digits := func() int {
			n := 0
			for r.i < len(r.s) && r.s[r.i] >= '0' && r.s[r.i] <= '9' {
				r.i++
				n++
			}
			return n
		}
		if r.i < len(r.s) && r.s[r.i] == '0' {
			r.i++
		} else if digits() == 0 {
			r.fail("invalid number")
			return nil
		}
		if r.i < len(r.s) && r.s[r.i] == '.' {
			r.i++
			if digits() == 0 {
				r.fail("invalid number")
				return nil
			}
		}
		if r.i < len(r.s) && (r.s[r.i] == 'e' || r.s[r.i] == 'E') {
			r.i++
			if r.i < len(r.s) && (r.s[r.i] == '+' || r.s[r.i] == '-') {
				r.i++
			}
			if digits() == 0 {
				r.fail("invalid number")
				return nil
			}
		}
		f, err := strconv.ParseFloat(string(r.s[start:r.i]), 64)
		if err != nil {
			r.fail("number out of range")
		}
		return f
	}
	r.fail("invalid character " + strconv.QuoteRune(rune(r.s[r.i])))
	return nil
}

// str reads a string whose opening quote is at r.i.
func (r *jr) str() string {
	r.i++
	start := r.i
	// fast path: no escapes, valid UTF-8
	r.i += plainRun(r.s[r.i:], false, false)
	if r.i < len(r.s) && r.s[r.i] == '"' && utf8.Valid(r.s[start:r.i]) {
		r.i++
		return string(r.s[start : r.i-1])
	}
	r.i = start
	var b []byte
	for r.i < len(r.s) {
		if n := plainRun(r.s[r.i:], true, false); n > 0 {
			b = append(b, r.s[r.i:r.i+n]...) // bytes read as they are, at once
			r.i += n
			if r.i == len(r.s) {
				break
			}
		}
		c := r.s[r.i]
		switch {
		case c == '"':
			r.i++
			return string(b)
		case c < 0x20:
			r.fail("control character in a string")
			return ""
		case c == '\\':
			if r.i+1 >= len(r.s) {
				r.fail("unexpected end of JSON input")
				return ""
			}
			nb, next, ok := doc.AppendJSONEscape(b, r.s, r.i+1)
			if !ok {
				if r.s[r.i+1] == 'u' {
					r.fail("invalid \\u escape")
				} else {
					r.fail("invalid escape")
				}
				return ""
			}
			b, r.i = nb, next
		case c < utf8.RuneSelf:
			b = append(b, c)
			r.i++
		default:
			rn, size := utf8.DecodeRune(r.s[r.i:])
			if rn == utf8.RuneError && size == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, r.s[r.i:r.i+size]...)
			}
			r.i += size
		}
	}
	r.fail("unexpected end of JSON input")
	return ""
}

// plainRun is the length of the start of s that a JSON string holds as it is: no quote,
// backslash or control character, only ASCII when ascii is set, and no <, > or & when html is
// set. jr.str and jw.str take such runs at once. The loop is a small function of its own on
// purpose: in WebAssembly a Go loop goes back through its whole function's dispatch at every
// turn, so a byte loop inside str (4-7 KB) cost that much per byte, and V8 recompiled str with
// TurboFan during the checker's start (wasm/main.go, Start-up).
func plainRun[T string | []byte](s T, ascii, html bool) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || ascii && c >= utf8.RuneSelf || html && (c == '<' || c == '>' || c == '&') {
			return i
		}
	}
	return len(s)
}

// decodeRequest reads a request. Unknown members are ignored, as encoding/json would.
func decodeRequest(b []byte) (Request, error) {
	var req Request
	r := &jr{s: b}
	v := r.value(0)
	r.ws()
	if r.err == nil && r.i != len(r.s) {
		r.fail("invalid character after top-level value")
	}
	if r.err != nil {
		return req, r.err
	}
	if v == nil {
		return req, nil
	}
	top, ok := v.(map[string]any)
	if !ok {
		return req, errors.New("a request is an object")
	}
	str := func(m map[string]any, k, where string) (string, error) {
		switch x := m[k].(type) {
		case nil:
			return "", nil
		case string:
			return x, nil
		}
		return "", errors.New(where + "." + k + " is not a string")
	}
	num := func(m map[string]any, k string) (int, error) {
		switch x := m[k].(type) {
		case nil:
			return 0, nil
		case float64:
			if x != math.Trunc(x) || math.Abs(x) > 1<<31 {
				return 0, errors.New("options." + k + " is not an integer")
			}
			return int(x), nil
		}
		return 0, errors.New("options." + k + " is not a number")
	}
	strs := func(m map[string]any, k string) ([]string, error) {
		switch x := m[k].(type) {
		case nil:
			return nil, nil
		case []any:
			out := make([]string, 0, len(x))
			for _, e := range x {
				s, ok := e.(string)
				if !ok {
					return nil, errors.New("options." + k + " holds a non-string")
				}
				out = append(out, s)
			}
			return out, nil
		}
		return nil, errors.New("options." + k + " is not an array")
	}
	switch fs := top["files"].(type) {
	case nil:
	case []any:
		for i, e := range fs {
			m, ok := e.(map[string]any)
			if !ok {
				if e == nil {
					req.Files = append(req.Files, File{})
					continue
				}
				return req, errors.New("files[" + strconv.Itoa(i) + "] is not an object")
			}
			var f File
			var err error
			// Not fmt: the light module links no fmt (its printer was 18 KB of gzip).
			where := "files[" + strconv.Itoa(i) + "]"
			if f.Path, err = str(m, "path", where); err != nil {
				return req, err
			}
			if f.Text, err = str(m, "text", where); err != nil {
				return req, err
			}
			if f.Format, err = str(m, "format", where); err != nil {
				return req, err
			}
			req.Files = append(req.Files, f)
		}
	default:
		return req, errors.New("files is not an array")
	}
	switch o := top["options"].(type) {
	case nil:
	case map[string]any:
		var err error
		if req.Options.Hosts, err = num(o, "hosts"); err != nil {
			return req, err
		}
		if req.Options.DevicesPerHost, err = num(o, "devicesPerHost"); err != nil {
			return req, err
		}
		if req.Options.Framework, err = str(o, "framework", "options"); err != nil {
			return req, err
		}
		if req.Options.ConfigArg, err = str(o, "configArg", "options"); err != nil {
			return req, err
		}
		if req.Options.Select, err = strs(o, "select"); err != nil {
			return req, err
		}
		if req.Options.Ignore, err = strs(o, "ignore"); err != nil {
			return req, err
		}
		if req.Options.Overrides, err = strs(o, "overrides"); err != nil {
			return req, err
		}
		switch t := o["targets"].(type) {
		case nil:
		case map[string]any:
			req.Options.Targets = map[string]string{}
			for pkg := range t {
				if req.Options.Targets[pkg], err = str(t, pkg, "options.targets"); err != nil {
					return req, err
				}
			}
		default:
			return req, errors.New("options.targets is not an object")
		}
	default:
		return req, errors.New("options is not an object")
	}
	return req, nil
}
