//go:build !trainlint_lite

package rules

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
)

// Every rule's testdata archive (testdata/<name>.txtar) is also its documentation: the generic
// test runs every section, and the site and `trainlint explain` show the first bad and good
// sections with the engine's real output. The archives are embedded so the WASM build and the
// site generator read them without a file system.
//
// Archive format (txtar): free text, then sections introduced by lines "-- NAME --".
//
//	-- bad-<fw>.yaml --             a file that must produce the annotated findings
//	eval_batch: 4  # want "regexp"  expected finding of the archive's rule starting on this line
//	-- bad-<fw>.json.want --        expectations for a format without comments: "line:col CODE regexp"
//	-- bad-<fw>-multi.yaml.args --  command-line context: --hosts 4 --devices-per-host 8
//	-- bad-<fw>.yaml.fixed --       the text after applying the rule's fixes
//
// Section names are (bad|good)-<framework>[-<suffix>].<ext>, <framework> a registered dialect's
// id. The txtar split is hand-written
// rather than imported from golang.org/x/tools: it is twenty lines, it records where each section
// starts in the archive (so a failing expectation points at archive:line), and it keeps x/tools
// out of the WASM binary's module graph.

// Example is one section of a rule's archive.
type Example struct {
	Rule      string // the rule's name (the archive's base name)
	Name      string // section name: "bad-<framework>.yaml"
	Kind      string // "bad" or "good"
	Framework string // framework id from the name (a dialect's Name)
	Suffix    string // optional "-<suffix>" part, without the dash
	Format    doc.Format
	// Text is the file as a user would write it: `# want` annotations removed, line numbers kept.
	Text string
	// Source is the section as written in the archive.
	Source string
	// Args is the launch context of the .args section, split into words.
	Args []string
	// Want are the expected findings.
	Want []Want
	// Fixed is the expected text after applying the rule's fixes (the .fixed section), if any.
	Fixed    string
	HasFixed bool
	// Line is where the section's text starts in the archive (1-based), for test messages.
	Line int
}

// Want is one expected finding: a diagnostic starting at Line (and Col, when not 0) whose
// message matches Pattern. Code is the rule code; "" means the archive's own rule.
type Want struct {
	Line, Col int
	Code      string
	Pattern   *regexp.Regexp
	// ArchiveLine is where the expectation is written, for test messages.
	ArchiveLine int
}

// Archive is a parsed testdata archive.
type Archive struct {
	Rule     string
	Comment  string
	Examples []Example
}

// lazyRe is a pattern compiled on first use: only the tests, the site and explain read the
// archives, not a lint run. Unlike a sync.OnceValue closure made at package initialisation, it
// leaves regexp out of a binary that never asks for the pattern (the WebAssembly module).
type lazyRe struct {
	once    sync.Once
	pattern string
	re      *regexp.Regexp
}

func (l *lazyRe) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.pattern) })
	return l.re
}

var sectionRe = &lazyRe{pattern: `^(bad|good)-(.+)\.(yaml|yml|json|toml|gin|py)$`}

// ParseArchive reads a txtar archive of rule examples.
func ParseArchive(rule string, data []byte) (*Archive, error) {
	a := &Archive{Rule: rule}
	type section struct {
		name string
		line int
		text string
	}
	var secs []section
	lines := strings.SplitAfter(string(data), "\n")
	cur := -1
	var b strings.Builder
	flush := func() {
		if cur >= 0 {
			secs[cur].text = b.String()
		} else {
			a.Comment = b.String()
		}
		b.Reset()
	}
	for i, ln := range lines {
		t := strings.TrimRight(ln, "\r\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			flush()
			secs = append(secs, section{name: strings.TrimSpace(t[3 : len(t)-3]), line: i + 2})
			cur = len(secs) - 1
			continue
		}
		b.WriteString(ln)
	}
	flush()

	byName := map[string]int{}
	for _, s := range secs {
		base, ext := s.name, ""
		for _, x := range []string{".want", ".args", ".fixed"} {
			if strings.HasSuffix(s.name, x) {
				base, ext = strings.TrimSuffix(s.name, x), x
			}
		}
		if ext == "" {
			if _, dup := byName[s.name]; dup {
				return nil, fmt.Errorf("%s.txtar:%d: section %q appears twice", rule, s.line-1, s.name)
			}
			ex, err := newExample(rule, s.name, s.text, s.line)
			if err != nil {
				return nil, err
			}
			byName[s.name] = len(a.Examples)
			a.Examples = append(a.Examples, ex)
			continue
		}
		idx, ok := byName[base]
		if !ok {
			return nil, fmt.Errorf("%s.txtar:%d: section %q must follow section %q", rule, s.line-1, s.name, base)
		}
		ex := &a.Examples[idx]
		switch ext {
		case ".want":
			ws, err := parseWantFile(rule, s.text, s.line)
			if err != nil {
				return nil, err
			}
			ex.Want = append(ex.Want, ws...)
		case ".args":
			ex.Args = append(ex.Args, strings.Fields(s.text)...)
			if _, err := ParseArgs(ex.Args); err != nil {
				return nil, fmt.Errorf("%s.txtar:%d: %v", rule, s.line, err)
			}
		case ".fixed":
			ex.Fixed, ex.HasFixed = s.text, true
		}
	}
	return a, nil
}

func newExample(rule, name, text string, line int) (Example, error) {
	m := sectionRe.get().FindStringSubmatch(name)
	if m == nil {
		return Example{}, fmt.Errorf("%s.txtar:%d: section %q is not named (bad|good)-<framework>[-<suffix>].(yaml|json|toml|gin|py)", rule, line-1, name)
	}
	ex := Example{Rule: rule, Name: name, Kind: m[1], Source: text, Line: line}
	ex.Framework, ex.Suffix = splitFramework(m[2])
	if ex.Framework == "" {
		return Example{}, fmt.Errorf("%s.txtar:%d: section %q names no known framework (%s)", rule, line-1, name, strings.Join(frameworkIDs(), ", "))
	}
	ex.Format, _ = doc.FormatFromPath(name)
	var err error
	ex.Text, ex.Want, err = stripWants(rule, text, line)
	if err != nil {
		return Example{}, err
	}
	if ex.Format == doc.JSON && len(ex.Want) > 0 {
		return Example{}, fmt.Errorf("%s.txtar:%d: JSON has no comments: put expectations in a %s.want section", rule, line-1, name)
	}
	return ex, nil
}

// wantRe finds a `# want "re" ...` annotation at the end of a line.
var wantRe = &lazyRe{pattern: `\s*#\s*want\s+((?:"(?:[^"\\]|\\.)*"|` + "`[^`]*`" + `)(?:\s+(?:"(?:[^"\\]|\\.)*"|` + "`[^`]*`" + `))*)\s*$`}
var quotedRe = &lazyRe{pattern: `"(?:[^"\\]|\\.)*"|` + "`[^`]*`"}

// stripWants removes `# want` annotations, returning the clean text and the expectations.
func stripWants(rule, text string, start int) (string, []Want, error) {
	var out strings.Builder
	var wants []Want
	for i, ln := range strings.SplitAfter(text, "\n") {
		body, nl := strings.CutSuffix(ln, "\n")
		loc := wantRe.get().FindStringSubmatchIndex(body)
		if loc == nil {
			out.WriteString(ln)
			continue
		}
		for _, q := range quotedRe.get().FindAllString(body[loc[2]:loc[3]], -1) {
			pat, err := strconv.Unquote(q)
			if err != nil {
				return "", nil, fmt.Errorf("%s.txtar:%d: bad want string %s: %v", rule, start+i, q, err)
			}
			re, err := regexp.Compile(pat)
			if err != nil {
				return "", nil, fmt.Errorf("%s.txtar:%d: bad want regexp: %v", rule, start+i, err)
			}
			wants = append(wants, Want{Line: i + 1, Pattern: re, ArchiveLine: start + i})
		}
		out.WriteString(strings.TrimRight(body[:loc[0]], " \t"))
		if nl {
			out.WriteString("\n")
		}
	}
	return out.String(), wants, nil
}

// parseWantFile reads "line:col CODE regexp" lines (blank lines and # comments skipped).
func parseWantFile(rule, text string, start int) ([]Want, error) {
	var ws []Want
	for i, ln := range strings.Split(text, "\n") {
		ln = strings.TrimSpace(ln)
		if ln == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		pos, rest, _ := strings.Cut(ln, " ")
		code, pat, _ := strings.Cut(strings.TrimSpace(rest), " ")
		l, c, ok := strings.Cut(pos, ":")
		line, err1 := strconv.Atoi(l)
		col, err2 := strconv.Atoi(c)
		if !ok || err1 != nil || err2 != nil || !strings.HasPrefix(code, "TL") || strings.TrimSpace(pat) == "" {
			return nil, fmt.Errorf("%s.txtar:%d: want line %q is not \"line:col CODE regexp\"", rule, start+i, ln)
		}
		re, err := regexp.Compile(strings.TrimSpace(pat))
		if err != nil {
			return nil, fmt.Errorf("%s.txtar:%d: bad want regexp: %v", rule, start+i, err)
		}
		ws = append(ws, Want{Line: line, Col: col, Code: code, Pattern: re, ArchiveLine: start + i})
	}
	return ws, nil
}

// ArchiveNames lists the rules that have an archive, sorted.
func ArchiveNames() []string {
	ents, _ := testdataFS.ReadDir("testdata")
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".txtar"); ok && !e.IsDir() {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// LoadArchive reads the embedded archive of a rule (by name); an error when there is none or it
// does not parse.
func LoadArchive(rule string) (*Archive, error) {
	data, err := testdataFS.ReadFile(path.Join("testdata", rule+".txtar"))
	if err != nil {
		return nil, fmt.Errorf("rule %s has no testdata archive", rule)
	}
	return ParseArchive(rule, data)
}

// Examples returns a rule's examples in archive order (rule given by name or code); nil when it
// has none. The first bad and the first good example are the ones a rule's page shows.
func Examples(rule string) []Example {
	if r := ByName(rule); r != nil {
		rule = r.Name
	}
	a, err := LoadArchive(rule)
	if err != nil {
		return nil
	}
	return a.Examples
}

// FirstExamples returns the first bad and first good example of a rule (nil when absent).
func FirstExamples(rule string) (bad, good *Example) {
	exs := Examples(rule)
	for i := range exs {
		switch {
		case exs[i].Kind == "bad" && bad == nil:
			bad = &exs[i]
		case exs[i].Kind == "good" && good == nil:
			good = &exs[i]
		}
	}
	return bad, good
}

// File is the example as an input to the engine; its path is the section name.
func (e *Example) File() lint.File {
	return lint.File{Path: e.Name, Text: []byte(e.Text), Format: e.Format}
}

// Options are the lint options of the example's launch context (.args).
func (e *Example) Options() lint.Options {
	o, _ := ParseArgs(e.Args) // validated when the archive was parsed
	return o
}

// Lint runs every rule on the example, the way the CLI would with the same arguments.
func (e *Example) Lint() (lint.FileInfo, []lint.Diagnostic) {
	return lint.LintFile(e.File(), All(), e.Options())
}

// ParseArgs reads the launch-context arguments an example may carry: --hosts N,
// --devices-per-host N, --framework NAME, --select LIST, --ignore LIST (comma-separated), and
// --require-suppression-reason (the config file's require-suppression-reason = true). Values
// follow their flag or an `=`; one dash works too. It is hand-written rather than package flag,
// whose package initialisation alone cost the WebAssembly module 9 KB brotli-compressed.
func ParseArgs(args []string) (lint.Options, error) {
	var o lint.Options
	var sel, ign string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			return o, fmt.Errorf("unexpected argument %q", a)
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		value := func() (string, error) {
			if hasVal {
				return val, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("flag needs an argument: -%s", name)
			}
			i++
			return args[i], nil
		}
		var err error
		var v string
		switch name {
		case "hosts", "devices-per-host":
			if v, err = value(); err == nil {
				n, perr := strconv.Atoi(v)
				if perr != nil {
					return o, fmt.Errorf("invalid value %q for flag -%s: parse error", v, name)
				}
				if name == "hosts" {
					o.Hosts = n
				} else {
					o.DevicesPerHost = n
				}
			}
		case "framework":
			o.Framework, err = value()
		case "select":
			sel, err = value()
		case "ignore":
			ign, err = value()
		case "require-suppression-reason":
			o.RequireReason = true
			if hasVal {
				b, perr := strconv.ParseBool(val)
				if perr != nil {
					return o, fmt.Errorf("invalid boolean value %q for -%s: parse error", val, name)
				}
				o.RequireReason = b
			}
		default:
			return o, fmt.Errorf("flag provided but not defined: -%s", name)
		}
		if err != nil {
			return o, err
		}
	}
	if o.Hosts < 0 || o.DevicesPerHost < 0 {
		return o, fmt.Errorf("--hosts and --devices-per-host must not be negative")
	}
	o.Select = splitList(sel)
	o.Ignore = splitList(ign)
	return o, nil
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
