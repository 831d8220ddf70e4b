// Package api is the request → result function behind the WebAssembly build (globalThis.trainlint).
// It is pure Go with no syscall/js, so the native side of the parity test and the site generator
// call exactly the code the browser runs.
//
// A request is the WASM contract's {files: [{path, text}], options: {hosts, devicesPerHost,
// framework, select, ignore}}, extended compatibly with options.overrides (Hydra overrides of
// the runs among the files) and options.targets ({package: version}); its files are linted as
// one tree, so the Hydra runs among them are linted as runs. A file may also carry "format" ("yaml", "json", "toml", "gin",
// "python") to override detection by extension, which the checker's format menu uses, or "auto"
// to read the text as what its content looks like whatever the path says (doc.Sniff). Without a
// format, a path with no known extension is also read by its content.
// options.configArg (not in the contract's list: an addition for ml_collections configs) is
// the CLI's --config-arg.
package api

import (
	"bytes"
	"errors"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/rules"
)

// Request is one lint or fix request.
type Request struct {
	Files   []File  `json:"files"`
	Options Options `json:"options"`
}

// File is one input file.
type File struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Path   string `json:"path"`
	Text   string `json:"text"`
	Format string `json:"format,omitempty"`
}

// Options mirror the CLI flags a browser user can set. Overrides are Hydra command-line
// overrides of the runs among the files (the CLI's --override); Targets are the framework
// versions to lint for, by package ({"transformers": "4.46"}; absent, "" or "newest": the
// newest, as Targets lists them).
type Options struct {
	Hosts          int               `json:"hosts,omitempty"`
	DevicesPerHost int               `json:"devicesPerHost,omitempty"`
	Framework      string            `json:"framework,omitempty"`
	ConfigArg      string            `json:"configArg,omitempty"` // get_config's argument (CLI --config-arg)
	Select         []string          `json:"select,omitempty"`
	Ignore         []string          `json:"ignore,omitempty"`
	Overrides      []string          `json:"overrides,omitempty"`
	Targets        map[string]string `json:"targets,omitempty"`
}

// FixResult is what fix(request) returns: the fixed texts and the result of linting them.
type FixResult struct {
	Files  []FixedFile  `json:"files"`
	Result *lint.Result `json:"result"`
}

// FixedFile is one file after its safe fixes.
type FixedFile struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Path    string `json:"path"`
	Text    string `json:"text"`
	Applied int    `json:"applied"`
	Error   string `json:"error,omitempty"`
}

// FrameworkInfo names one dialect (the checker's framework menu).
type FrameworkInfo struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Name  string `json:"name"`
	Title string `json:"title"`
}

func (r Request) validate() error {
	for i, f := range r.Files {
		if strings.TrimSpace(f.Path) == "" {
			return errors.New("files[" + strconv.Itoa(i) + "] has no path")
		}
		switch doc.Format(f.Format) {
		case "", formatAuto, doc.YAML, doc.JSON, doc.TOML, doc.Gin, doc.Python:
		default:
			return errors.New("files[" + strconv.Itoa(i) + "] has unknown format " + strconv.Quote(f.Format) + " (want auto, yaml, json, toml, gin or python)")
		}
	}
	if fw := r.Options.Framework; fw != "" && fw != "auto" && dialect.ByName(fw) == nil {
		return errors.New("unknown framework " + strconv.Quote(fw))
	}
	if r.Options.Hosts < 0 || r.Options.DevicesPerHost < 0 {
		return errors.New("hosts and devicesPerHost must not be negative")
	}
	for i, o := range r.Options.Overrides {
		if strings.TrimSpace(o) == "" {
			return errors.New("options.overrides[" + strconv.Itoa(i) + "] is empty")
		}
	}
	_, err := targetsOf(r.Options.Targets)
	return err
}

func (r Request) lintOptions() lint.Options {
	fw := r.Options.Framework
	if fw == "auto" {
		fw = ""
	}
	targets, _ := targetsOf(r.Options.Targets) // validate said it is fine
	return lint.Options{Hosts: r.Options.Hosts, DevicesPerHost: r.Options.DevicesPerHost, Framework: fw,
		ConfigArg: r.Options.ConfigArg, Select: r.Options.Select, Ignore: r.Options.Ignore, Targets: targets}
}

// overrides are the request's overrides, trimmed.
func (r Request) overrides() []string {
	var out []string
	for _, o := range r.Options.Overrides {
		out = append(out, strings.TrimSpace(o))
	}
	return out
}

// formatAuto is the checker's "auto" format: read the text as what it looks like, whatever the
// path's extension says (a pasted config keeps the editor's default name, config.yaml).
const formatAuto doc.Format = "auto"

func toFiles(fs []File) []lint.File {
	out := make([]lint.File, len(fs))
	for i, f := range fs {
		text := []byte(f.Text)
		format := doc.Format(f.Format)
		if format == formatAuto {
			// Text with nothing to go by (empty, only comments) falls back to the extension.
			format = doc.Sniff(text)
		}
		out[i] = lint.File{Path: f.Path, Text: text, Format: format}
	}
	return out
}

// Lint runs the engine with every rule on the request. The files are one tree (lint.LintFiles):
// the Hydra runs among them are linted as runs, each finding in the file that set the value it
// blames with the other files as related locations; files that compose nothing are linted
// one by one, as before runs existed.
func Lint(r Request) (*lint.Result, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	return lint.LintFiles(toFiles(r.Files), r.overrides(), rules.All(), r.lintOptions()), nil
}

// Fix applies the safe fixes of every file's findings, as the result of Lint shows them, and
// lints again while fixes still apply (lint.FixFiles: the CLI's --fix rounds); it returns the
// fixed texts with the final result.
func Fix(r Request) (*FixResult, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	files := toFiles(r.Files)
	outs, res, errs := lint.FixFiles(files, r.overrides(), rules.All(), r.lintOptions(), false)
	out := &FixResult{Files: []FixedFile{}, Result: res}
	for i, f := range files {
		ff := FixedFile{Path: f.Path, Text: string(outs[i].Text), Applied: outs[i].Applied}
		if errs[i] != nil {
			// A fix broke the syntax: the text is the last one that parsed.
			ff.Error = errs[i].Error()
		}
		out.Files = append(out.Files, ff)
	}
	return out, nil
}

// Rules returns the catalogue, in the shape `trainlint rules --format json` prints.
func Rules() []lint.RuleInfo { return lint.Catalogue(rules.All()) }

// Frameworks lists the dialects, generic last.
func Frameworks() []FrameworkInfo {
	var out []FrameworkInfo
	for _, d := range dialect.All() {
		out = append(out, FrameworkInfo{Name: d.Name, Title: d.Title})
	}
	return out
}

// ErrorJSON is the reply to a request that cannot be served: {"error": "..."}.
func ErrorJSON(err error) []byte {
	w := &jw{html: true}
	w.open('{')
	w.key("error")
	w.str(err.Error())
	w.close('}')
	return w.b
}

// Decode reads a JSON request.
func Decode(req []byte) (Request, error) {
	var r Request
	if len(bytes.TrimSpace(req)) == 0 {
		return r, nil
	}
	r, err := decodeRequest(req)
	if err != nil {
		return Request{}, errors.New("bad request: " + err.Error())
	}
	return r, nil
}

// LintBytes lints a request and encodes the result (see ResultJSON).
func LintBytes(r Request) ([]byte, error) {
	res, err := Lint(r)
	if err != nil {
		return nil, err
	}
	return ResultJSON(res), nil
}

// FixBytes fixes a request and encodes the outcome.
func FixBytes(r Request) ([]byte, error) {
	res, err := Fix(r)
	if err != nil {
		return nil, err
	}
	return FixResultJSON(res), nil
}

// FixResultJSON encodes what Fix returns.
func FixResultJSON(res *FixResult) []byte {
	w := &jw{html: true}
	w.fixResult(res)
	return w.b
}

// NeedsFullModule reports whether the light module (built with the trainlint_lite tag: no
// yaml.v3, no gin or Python reader) could not read a file of the result: the page then lints
// again with the full module. Always false in a full build.
func NeedsFullModule(res *lint.Result) bool {
	for _, f := range res.Files {
		if f.Declined {
			return true
		}
	}
	return false
}

// LintJSON is Lint from JSON bytes to JSON bytes: the exact bytes both the native and the WASM
// side produce. A request that cannot be read or served gives {"error": "..."}.
func LintJSON(req []byte) []byte { return viaJSON(req, LintBytes) }

// FixJSON is Fix from JSON bytes to JSON bytes.
func FixJSON(req []byte) []byte { return viaJSON(req, FixBytes) }

func viaJSON(req []byte, run func(Request) ([]byte, error)) []byte {
	r, err := Decode(req)
	if err != nil {
		return ErrorJSON(err)
	}
	b, err := run(r)
	if err != nil {
		return ErrorJSON(err)
	}
	return b
}

// ResultJSON encodes a result byte for byte as `trainlint check --format json` does (two-space
// indent, no HTML escaping, a trailing newline; a test holds the two together), so the browser,
// the CLI and the parity test all see one JSON. It does not import lint/report, which would link
// every output format into the WebAssembly module.
func ResultJSON(res *lint.Result) []byte {
	out := *res
	if out.Files == nil {
		out.Files = []lint.FileInfo{}
	}
	if out.Diagnostics == nil {
		out.Diagnostics = []lint.Diagnostic{}
	}
	w := &jw{pretty: true}
	w.result(&out)
	return append(w.b, '\n')
}

// RulesJSON is Rules as JSON.
func RulesJSON() []byte {
	w := &jw{html: true}
	if err := w.rules(Rules()); err != nil {
		return ErrorJSON(err)
	}
	return w.b
}

// FrameworksJSON is Frameworks as JSON.
func FrameworksJSON() []byte {
	w := &jw{html: true}
	w.frameworks(Frameworks())
	return w.b
}
