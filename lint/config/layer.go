package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
)

// Error is a mistake in a config file, at a line when one is known.
type Error struct {
	File      string
	Line, Col int
	Key       string // dotted key path inside the trainlint table, when the error is about a key
	Msg       string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// Errors are several mistakes of one file, in line order.
type Errors []*Error

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

func asError(err error, e **Error) bool { return errors.As(err, e) }

func asErrors(err error, e *Errors) bool { return errors.As(err, e) }

// layer is one config file as read: its trainlint table as plain JSON-like values (validated) and
// its document tree for positions.
type layer struct {
	path, dir string
	display   string
	prefix    []string // location of the trainlint table in the file (tool.trainlint in pyproject)
	tree      *doc.Node
	raw       map[string]any
	extend    string
	rules     []*lint.Rule
}

// readLayer reads and validates one file. It returns (nil, nil) for a pyproject.toml without a
// [tool.trainlint] table, and an error wrapping os.ErrNotExist when the file does not exist.
func (l *Loader) readLayer(abs string) (*layer, error) {
	src, err := readConfigFile(abs)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, err
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &Error{File: displayPath(abs), Msg: "cannot read config file: " + err.Error()}
	}
	return l.parseLayer(abs, src)
}

// parseLayer validates one file's bytes (see readLayer).
func (l *Loader) parseLayer(abs string, src []byte) (*layer, error) {
	ly := &layer{path: abs, dir: filepath.Dir(abs), display: displayPath(abs), rules: l.rules}
	isPy := filepath.Base(abs) == PyProject
	var all map[string]any
	if _, err := toml.Decode(string(src), &all); err != nil {
		if isPy && !bytes.Contains(src, []byte("tool.trainlint")) {
			return nil, nil // someone else's broken pyproject.toml is not ours to report
		}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{File: ly.display, Line: pe.Position.Line, Col: max(pe.Position.Col, 1), Msg: "invalid TOML: " + pe.Message}
		}
		return nil, &Error{File: ly.display, Msg: "invalid TOML: " + err.Error()}
	}
	table := all
	if isPy {
		ly.prefix = []string{"tool", "trainlint"}
		tool, _ := all["tool"].(map[string]any)
		t, ok := tool["trainlint"].(map[string]any)
		if !ok {
			if _, present := tool["trainlint"]; present {
				return nil, &Error{File: ly.display, Msg: `"tool.trainlint" must be a table`}
			}
			return nil, nil
		}
		table = t
	}
	d := doc.Parse(abs, src, doc.TOML, doc.Limits{})
	ly.tree = d.Root

	// Plain JSON values (numbers as json.Number, dates as strings) for the schema and for
	// reading settings.
	b, err := json.Marshal(table)
	if err != nil {
		return nil, &Error{File: ly.display, Msg: "cannot read config values: " + err.Error()}
	}
	var inst any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&inst); err != nil {
		return nil, &Error{File: ly.display, Msg: "cannot read config values: " + err.Error()}
	}
	ly.raw, _ = inst.(map[string]any)
	if ly.raw == nil {
		ly.raw = map[string]any{}
	}
	sch := l.compiled()
	if ves := validateSchema(sch.doc, inst); len(ves) > 0 {
		return nil, ly.schemaErrors(ves, sch)
	}
	if errs := ly.checkValues(l.rules); len(errs) > 0 {
		return nil, errs
	}
	ly.extend, _ = ly.raw["extend"].(string)
	return ly, nil
}

// node finds the document node at a location inside the trainlint table (nil when absent).
func (ly *layer) node(loc []string) *doc.Node {
	n := ly.tree
	for _, k := range append(append([]string{}, ly.prefix...), loc...) {
		if n = n.Step(k); n == nil {
			return nil
		}
	}
	return n
}

// errorAt is an error located at the key (atKey) or value of loc, or at the closest enclosing
// node that exists.
func (ly *layer) errorAt(loc []string, atKey bool, msg string) *Error {
	e := &Error{File: ly.display, Key: strings.Join(loc, "."), Msg: msg}
	for i := len(loc); i >= 0; i-- {
		n := ly.node(loc[:i])
		if n == nil || (i == 0 && len(loc) > 0 && len(ly.prefix) == 0) {
			continue
		}
		sp := n.Span
		if (atKey || i < len(loc)) && !n.KeySpan.IsZero() {
			sp = n.KeySpan
		}
		if !sp.IsZero() {
			e.Line, e.Col = sp.Start.Line, sp.Start.Col
			break
		}
	}
	return e
}

// keyName renders a location as a TOML dotted key ("rules.input-no-prefetch.severity",
// "ignore[0].keys").
func keyName(loc []string) string {
	var b strings.Builder
	for i, k := range loc {
		if _, err := strconv.Atoi(k); err == nil && i > 0 {
			b.WriteString("[" + k + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(k)
	}
	return b.String()
}

func quote(s string) string { return strconv.Quote(s) }

// checkValues validates what the schema cannot: rule selectors name rules, globs are valid.
func (ly *layer) checkValues(rules []*lint.Rule) Errors {
	var errs Errors
	selectors := func(loc []string, v any) {
		list, _ := v.([]any)
		for i, x := range list {
			s, ok := x.(string)
			if !ok || lint.KnownSelector(rules, s) {
				continue
			}
			l := append(append([]string{}, loc...), strconv.Itoa(i))
			msg := fmt.Sprintf("unknown rule selector %q in %q (a code such as TL202, a name, a category or a prefix such as TL2)", s, keyName(loc))
			if sug := suggest(s, ruleWords(rules)); sug != "" {
				msg = fmt.Sprintf("unknown rule selector %q in %q (did you mean %q?)", s, keyName(loc), sug)
			}
			errs = append(errs, ly.errorAt(l, false, msg))
		}
	}
	selectors([]string{"select"}, ly.raw["select"])
	selectors([]string{"ignore"}, ly.raw["ignore"])
	for i, x := range asList(ly.raw["ignore"]) {
		m, ok := x.(map[string]any)
		if !ok {
			continue
		}
		loc := []string{"ignore", strconv.Itoa(i)}
		selectors(append(loc, "rules"), m["rules"])
		if p, ok := m["path"].(string); ok && !validGlob(p) {
			errs = append(errs, ly.errorAt(append(loc, "path"), false, fmt.Sprintf("invalid glob %q", p)))
		}
	}
	for i, x := range asList(ly.raw["files"]) {
		m, _ := x.(map[string]any)
		if p, ok := m["path"].(string); ok && !validGlob(p) {
			errs = append(errs, ly.errorAt([]string{"files", strconv.Itoa(i), "path"}, false, fmt.Sprintf("invalid glob %q", p)))
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	return errs
}

func asList(v any) []any { l, _ := v.([]any); return l }

func ruleWords(rules []*lint.Rule) []string {
	var out []string
	for _, r := range rules {
		out = append(out, r.Code, r.Name, r.Category)
	}
	return out
}

// applyTo lays this file's settings over c (which holds what it extends): scalars and
// select/ignore lists replace, [[ignore]] and [[files]] entries add up (later ones win), rule
// settings and mapping concepts merge key by key.
func (ly *layer) applyTo(c *Config) {
	r := ly.raw
	if v, ok := r["select"]; ok {
		c.Select = strings_(v)
	}
	if v, ok := r["ignore"]; ok {
		c.Ignore = nil
		for _, x := range asList(v) {
			switch x := x.(type) {
			case string:
				c.Ignore = append(c.Ignore, x)
			case map[string]any:
				e := IgnoreEntry{Dir: ly.dir, Rules: strings_(x["rules"]), Keys: strings_(x["keys"])}
				e.Path, _ = x["path"].(string)
				c.Ignores = append(c.Ignores, e)
			}
		}
		if c.Ignore == nil {
			c.Ignore = []string{}
		}
	}
	if v, ok := r["fail-on"].(string); ok {
		c.FailOn, _ = lint.ParseSeverity(v)
	}
	if v, ok := r["require-suppression-reason"].(bool); ok {
		c.RequireReason = v
	}
	if ctx, ok := r["context"].(map[string]any); ok {
		if n, ok := intOf(ctx["hosts"]); ok {
			c.Hosts = n
		}
		if n, ok := intOf(ctx["devices-per-host"]); ok {
			c.DevicesPerHost = n
		}
	}
	if lim, ok := r["limits"].(map[string]any); ok {
		if n, ok := intOf(lim["max-bytes"]); ok {
			c.Limits.MaxBytes = n
		}
		if n, ok := intOf(lim["max-depth"]); ok {
			c.Limits.MaxDepth = n
		}
		if n, ok := intOf(lim["max-aliases"]); ok {
			c.Limits.MaxAliases = n
		}
		if n, ok := intOf(lim["max-nodes"]); ok {
			c.Limits.MaxNodes = n
		}
	}
	if rules, ok := r["rules"].(map[string]any); ok {
		if c.Rules == nil {
			c.Rules = map[string]RuleSettings{}
		}
		for name, v := range rules {
			m, _ := v.(map[string]any)
			rs := c.Rules[name]
			if rs.Options == nil {
				rs.Options = map[string]any{}
			}
			for k, x := range m {
				if k == "severity" {
					rs.Severity, _ = lint.ParseSeverity(x.(string))
					continue
				}
				rs.Options[k] = optionValue(x)
			}
			c.Rules[name] = rs
		}
	}
	for _, x := range asList(r["files"]) {
		m, _ := x.(map[string]any)
		p, _ := m["path"].(string)
		fw, _ := m["framework"].(string)
		c.Files = append(c.Files, FileEntry{Dir: ly.dir, Path: p, Framework: fw})
	}
	for _, x := range asList(r["runs"]) {
		m, _ := x.(map[string]any)
		cfg, _ := m["config"].(string)
		la, _ := m["launcher"].(string)
		c.Runs = append(c.Runs, RunEntry{Dir: ly.dir, Config: cfg, Overrides: strings_(m["overrides"]), Launcher: la})
	}
	if m, ok := r["target"].(map[string]any); ok {
		if c.Target == nil {
			c.Target = map[string]string{}
		}
		for k, v := range m {
			if s, ok := v.(string); ok {
				c.Target[k] = s
			}
		}
	}
	if m, ok := r["mapping"].(map[string]any); ok {
		if c.Mapping == nil {
			c.Mapping = map[string]string{}
		}
		flattenMapping("", m, c.Mapping)
	}
}

// flattenMapping turns TOML's nested tables (`eval.interval_seconds = "x"` is a table eval with
// a key interval_seconds) back into dotted concept names; a quoted "eval.interval_seconds" key
// arrives dotted already.
func flattenMapping(prefix string, m map[string]any, out map[string]string) {
	for k, v := range m {
		name := k
		if prefix != "" {
			name = prefix + "." + k
		}
		switch v := v.(type) {
		case string:
			out[name] = v
		case map[string]any:
			flattenMapping(name, v, out)
		}
	}
}

func strings_(v any) []string {
	var out []string
	for _, x := range asList(v) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func intOf(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return int(i), err == nil
}

// optionValue converts a validated option value to the Go type rules read (int for integers,
// float64 for other numbers).
func optionValue(v any) any {
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			return int(i)
		}
		f, _ := n.Float64()
		return f
	}
	return v
}

// frameworks lists the registered dialect ids.
func frameworks() []string {
	var out []string
	for _, d := range dialect.All() {
		out = append(out, d.Name)
	}
	sort.Strings(out)
	return out
}
