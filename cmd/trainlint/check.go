package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/report"
)

// checkConfig is everything the check command was asked to do. It is built in one place from the
// flags (parseCheckArgs); later layers (the config file, the baseline) refine it before it is
// turned into lint options (lintOptions), so each source of settings has one obvious seam.
type checkConfig struct {
	Paths []string

	Format    string // terminal format
	FormatSet bool   // --format given (else GITHUB_ACTIONS may choose github)
	Outputs   []outputSpec

	Select, Ignore []string
	FailOn         lint.Severity

	Hosts, DevicesPerHost int
	Framework             string
	ConfigArg             string

	ConfigFile    string
	Fix, Diff     bool
	UnsafeFixes   bool
	Baseline      string
	WriteBaseline string

	StdinFilename string
	NoColor       bool
	Color         string // --color: auto, always or never
	ExitZero      bool
	OnlyConfigs   bool
	Quiet         bool
	// Overrides are Hydra command-line overrides for the runs of the named configs (runs.go).
	Overrides []string
}

// outputSpec is one --output FORMAT=FILE.
type outputSpec struct{ Format, File string }

// listFlag collects a repeatable, comma-separated flag (--select TL1,TL2 --select TL3).
type listFlag struct{ v *[]string }

func (l listFlag) String() string {
	if l.v == nil {
		return ""
	}
	return strings.Join(*l.v, ",")
}

func (l listFlag) Set(s string) error {
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l.v = append(*l.v, part)
		}
	}
	return nil
}

// outputFlag collects --output FORMAT=FILE.
type outputFlag struct{ v *[]outputSpec }

func (o outputFlag) String() string { return "" }

func (o outputFlag) Set(s string) error {
	f, file, ok := strings.Cut(s, "=")
	if !ok || f == "" || file == "" {
		return fmt.Errorf("want FORMAT=FILE, got %q", s)
	}
	*o.v = append(*o.v, outputSpec{Format: f, File: file})
	return nil
}

// severityFlag parses --fail-on.
type severityFlag struct{ v *lint.Severity }

func (s severityFlag) String() string {
	if s.v == nil {
		return ""
	}
	if *s.v == failNever {
		return "never"
	}
	return s.v.String()
}

// failNever is --fail-on never (and --exit-zero): above every severity, so no finding fails.
const failNever = lint.Error + 1

// countFlag parses --hosts and --devices-per-host: a whole number, 0 for unknown. The flag
// package's own int flag answers "parse error" for "abc".
type countFlag struct{ v *int }

func (c countFlag) String() string {
	if c.v == nil {
		return "0"
	}
	return strconv.Itoa(*c.v)
}

func (c countFlag) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return errors.New("want a whole number (0 = unknown)")
	}
	*c.v = n
	return nil
}

func (s severityFlag) Set(v string) error {
	if strings.EqualFold(strings.TrimSpace(v), "never") {
		*s.v = failNever
		return nil
	}
	sev, err := lint.ParseSeverity(v)
	if err != nil {
		return err
	}
	*s.v = sev
	return nil
}

func newCheckFlags(c *checkConfig) *flag.FlagSet {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.Format, "format", "text", "print the report in `FORMAT`: "+strings.Join(report.Names(), ", "))
	fs.StringVar(&c.Format, "f", "text", "short for --format")
	fs.Var(outputFlag{&c.Outputs}, "output", "also write the report in another format to a file: `FORMAT=FILE` (repeatable)")
	fs.Var(outputFlag{&c.Outputs}, "o", "short for --output")
	fs.Var(listFlag{&c.Select}, "select", "run only these `RULES` (codes, names, categories, prefixes such as TL2; comma-separated, repeatable)")
	fs.Var(listFlag{&c.Ignore}, "ignore", "skip these `RULES` (same selectors as --select)")
	fs.Var(severityFlag{&c.FailOn}, "fail-on", "exit 1 on findings at or above `SEVERITY`: error, warning, info or never")
	fs.BoolVar(&c.OnlyConfigs, "only-configs", false, "skip quietly the named files a folder walk skips or finds no config in (other extensions, .py scripts and helper modules, tsconfig.json and the like): for pre-commit, which names every staged file")
	fs.BoolVar(&c.ExitZero, "exit-zero", false, "exit 0 whatever the findings (same as --fail-on never; usage and read errors still exit 2)")
	fs.Var(countFlag{&c.Hosts}, "hosts", "launch context: the run uses `N` hosts (0 = unknown)")
	fs.Var(countFlag{&c.DevicesPerHost}, "devices-per-host", "launch context: `N` accelerators per host (0 = unknown)")
	fs.StringVar(&c.Framework, "framework", "", "read every file as `NAME` instead of detecting the framework")
	fs.StringVar(&c.ConfigArg, "config-arg", "", "call the get_config of ml_collections configs (big_vision, scenic) with this `ARG`, as `--config file.py:ARG` does")
	fs.StringVar(&c.ConfigFile, "config", "", "use this trainlint config `FILE` instead of discovering .trainlint.toml")
	fs.BoolVar(&c.Fix, "fix", false, "apply safe fixes in place")
	fs.BoolVar(&c.Diff, "diff", false, "print the fixes as a unified diff and write nothing (exit 1 when there is a diff)")
	fs.BoolVar(&c.UnsafeFixes, "unsafe-fixes", false, "with --fix or --diff, include unsafe fixes")
	fs.StringVar(&c.Baseline, "baseline", "", "report only findings not recorded in this baseline `FILE`")
	fs.StringVar(&c.WriteBaseline, "write-baseline", "", "record the current findings in this baseline `FILE`")
	fs.StringVar(&c.StdinFilename, "stdin-filename", "", "report standard input as the file `NAME` (which also sets its format)")
	fs.StringVar(&c.Color, "color", "auto", "colour the text output `WHEN`: auto (on a terminal; NO_COLOR turns it off, FORCE_COLOR on), always or never")
	fs.BoolVar(&c.NoColor, "no-color", false, "never colour the output, same as --color never (NO_COLOR does the same)")
	fs.Var(appendFlag{&c.Overrides}, "override", "compose the named Hydra config with this `OVERRIDE` (experiment=x, trainer.devices=8, +key=v, ~key; repeatable)")
	fs.BoolVar(&c.Quiet, "quiet", false, "one line per finding, no excerpt or summary (text format)")
	return fs
}

// parseCheckArgs reads check's command line. Flags may come before, between or after paths;
// everything after "--" is a path.
func parseCheckArgs(args []string) (*checkConfig, error) {
	c := &checkConfig{FailOn: lint.Warning}
	fs := newCheckFlags(c)
	var tail []string
	for i, a := range args {
		if a == "--" {
			args, tail = args[:i], args[i+1:]
			break
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, flag.ErrHelp
			}
			return nil, usagef("%s", flagError(err, fs))
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		c.Paths = append(c.Paths, rest[0])
		args = rest[1:]
	}
	c.Paths = append(c.Paths, tail...)
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "format" || f.Name == "f" {
			c.FormatSet = true
		}
	})
	return c, nil
}

// flagError words the flag package's errors with the double-dash spelling the help uses, and
// suggests the nearest flag for an unknown one.
func flagError(err error, fs *flag.FlagSet) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return unknownFlag(fs, strings.TrimPrefix(name, "-"))
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return dashed(strings.TrimPrefix(name, "-")) + " needs a value"
	}
	if before, after, ok := strings.Cut(msg, " for flag -"); ok {
		name, rest, _ := strings.Cut(after, ":")
		return before + " for " + dashed(strings.TrimPrefix(name, "-")) + ":" + rest
	}
	return msg
}

// dashed spells a flag as the help does: -f for the one-letter ones, --format for the others.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// resolve applies the environment and validates the configuration against the rule set and the
// registered formats and dialects.
func (c *checkConfig) resolve(rules []*lint.Rule, stdinPiped bool) error {
	if !c.FormatSet && os.Getenv("GITHUB_ACTIONS") == "true" {
		if _, ok := report.Get("github"); ok {
			c.Format = "github"
		}
	}
	if _, ok := report.Get(c.Format); !ok {
		return usagef("unknown format %q (available: %s)", c.Format, strings.Join(report.Names(), ", "))
	}
	for _, o := range c.Outputs {
		if _, ok := report.Get(o.Format); !ok {
			return usagef("unknown format %q in --output (available: %s)", o.Format, strings.Join(report.Names(), ", "))
		}
	}
	for _, sel := range []struct {
		flag string
		list []string
	}{{"--select", c.Select}, {"--ignore", c.Ignore}} {
		for _, s := range sel.list {
			if !lint.KnownSelector(rules, s) {
				return selectorError(rules, sel.flag, s)
			}
		}
	}
	if c.Framework != "" && dialect.ByName(c.Framework) == nil {
		var names []string
		for _, d := range dialect.All() {
			names = append(names, d.Name)
		}
		return usagef("unknown framework %q (known: %s)", c.Framework, strings.Join(names, ", "))
	}
	if c.Hosts < 0 || c.DevicesPerHost < 0 {
		return usagef("--hosts and --devices-per-host must not be negative")
	}
	switch c.Color {
	case "auto", "always", "never":
	default:
		return usagef("unknown --color %q (want auto, always or never)", c.Color)
	}
	if len(c.Paths) == 0 {
		c.Paths = defaultPaths(c.StdinFilename, stdinPiped)
	}
	stdinUses := 0
	for _, p := range c.Paths {
		if p == "-" {
			stdinUses++
		}
	}
	if stdinUses > 1 {
		return usagef("standard input ('-') can be read only once")
	}
	return nil
}

// lintOptions turns the configuration into the engine's options.
func (c *checkConfig) lintOptions() lint.Options {
	return lint.Options{
		Hosts:          c.Hosts,
		DevicesPerHost: c.DevicesPerHost,
		Framework:      c.Framework,
		ConfigArg:      c.ConfigArg,
		Select:         c.Select,
		Ignore:         c.Ignore,
	}
}

// defaultPaths is what check lints when no path is given: standard input when it is named with
// --stdin-filename and something is piped in, else the working folder (as ruff and eslint do).
func defaultPaths(stdinFilename string, stdinPiped bool) []string {
	if stdinFilename != "" && stdinPiped {
		return []string{"-"}
	}
	return []string{"."}
}

// color reports whether the terminal output is coloured. --no-color and --color never|always
// decide; with --color auto (the default), NO_COLOR (any non-empty value, no-color.org) turns
// it off, FORCE_COLOR (non-empty and not 0 or false, force-color.org) turns it on even when
// piped (CI logs that render ANSI), and otherwise only a terminal other than TERM=dumb gets it.
func (c *checkConfig) color(stdout io.Writer) bool {
	mode := c.Color
	if c.NoColor {
		mode = "never"
	}
	return colorEnabled(mode, os.Getenv("NO_COLOR"), os.Getenv("FORCE_COLOR"), os.Getenv("TERM"), isTerminal(stdout))
}

func colorEnabled(mode, noColorEnv, forceColorEnv, term string, terminal bool) bool {
	switch mode {
	case "never":
		return false
	case "always":
		return true
	}
	if noColorEnv != "" {
		return false
	}
	if f := strings.ToLower(forceColorEnv); f != "" && f != "0" && f != "false" {
		return true
	}
	return terminal && term != "dumb"
}

// runCheck is the check command, one step after the other: read the command line into a
// checkConfig, validate it, expand the paths, lint, then render every requested output and
// compute the exit code. Settings from a config file or a baseline slot in between: they refine
// the checkConfig (or the options per file) before linting, or filter the result after it.
func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	c, err := parseCheckArgs(args)
	if errors.Is(err, flag.ErrHelp) {
		printCheckHelp(stdout)
		return exitOK, nil
	}
	if err != nil {
		return exitUsage, err
	}
	rs := allRules()
	if err := c.resolve(rs, hasStdin(stdin)); err != nil {
		return exitUsage, err
	}
	bl, err := c.loadBaseline()
	if err != nil {
		return exitUsage, err
	}

	code := exitOK
	fail := func(err error) {
		fmt.Fprintf(stderr, "trainlint: %s\n", errorText(err))
		code = exitUsage
	}
	inputs, errs, warnings := collectInputs(c.Paths, c.StdinFilename)
	inputs = c.dropOwnFiles(inputs)
	if c.OnlyConfigs {
		inputs = onlyConfigs(inputs)
	}
	unread := len(errs)
	for _, e := range errs {
		fail(e)
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "trainlint: warning: %s\n", report.EscapeLine(w))
	}
	opts, err := c.configOptions(args, inputs, rs) // config.go: the nearest config file per input
	if err != nil {
		return exitUsage, err
	}
	// Hydra runs across files (runs.go): their fragments are linted alone for structure only,
	// so --fix never applies a fix that only the file alone called for.
	runs := planRuns(inputs, c.Overrides, opts)
	if c.Fix || c.Diff {
		// Fixing comes first (fix.go): --diff prints the diff and stops; --fix writes the files,
		// which are then linted as usual so the report shows what is left.
		sum, errs := runFixes(c, inputs, stdin, rs, runs, opts, stdout)
		for _, e := range errs {
			fail(e)
		}
		if c.Diff {
			if code == exitOK && sum.Files > 0 {
				code = exitFindings
			}
			return code, nil
		}
		if !c.Quiet {
			fmt.Fprintf(stderr, "trainlint: %s\n", fixesApplied(sum.Fixes, sum.Files))
		}
	}
	res, sources, errs := lintInputs(inputs, stdin, rs, runs.options(rs, opts), 0)
	for _, e := range errs {
		fail(e)
	}
	runs.lint(res, sources, rs, opts)
	unread += len(errs)
	if unread > 0 && c.WriteBaseline != "" {
		// A baseline of part of the tree would forget the findings of the rest: keep the old one.
		fail(fmt.Errorf("baseline %s not written: %s could not be read", c.WriteBaseline, countNoun(unread, "path", "paths")))
	} else if res, err = c.applyBaseline(res, bl, rs, stderr); err != nil {
		fail(err)
	}

	ro := report.Options{Sources: sources, Rules: rs, Quiet: c.Quiet, FailOn: c.FailOn}
	for _, o := range c.Outputs {
		if err := writeOutputFile(o, res, ro); err != nil {
			fail(err)
		}
	}
	if unread > 0 && len(res.Files) == 0 && c.Format == "text" {
		// Nothing was linted: "no findings in 0 files" would read as a pass.
		fmt.Fprintf(stderr, "trainlint: nothing was checked\n")
		return exitUsage, nil
	}
	w, _ := report.Get(c.Format)
	ro.Color = c.color(stdout)
	if err := w(stdout, res, ro); err != nil {
		return exitUsage, fmt.Errorf("writing %s output: %w", c.Format, err)
	}
	if unread > 0 && c.Format == "text" && !c.Quiet {
		// The read errors were printed before a report that may be long: say it again at the end.
		fmt.Fprintf(stderr, "trainlint: %s could not be read (see above), so the run exits 2\n", countNoun(unread, "path", "paths"))
	}
	if code != exitOK {
		return code, nil
	}
	return exitCode(res, c.failOn()), nil
}

// failOn is the run's threshold: --exit-zero wins over --fail-on and the config file's fail-on
// (which config.go may have set after the flags were read).
func (c *checkConfig) failOn() lint.Severity {
	if c.ExitZero {
		return failNever
	}
	return c.FailOn
}

// dropOwnFiles leaves out of a walked folder the files this run reads or writes for itself: the
// baseline (a .json file that `check --baseline b.json` would otherwise lint as a config) and
// the --output reports. Named on the command line, they are linted like any file.
func (c *checkConfig) dropOwnFiles(ins []input) []input {
	wd, _ := os.Getwd()
	own := map[string]bool{}
	for _, f := range []string{c.Baseline, c.WriteBaseline} {
		if f != "" {
			own[absOrSelf(wd, f)] = true
		}
	}
	for _, o := range c.Outputs {
		own[absOrSelf(wd, o.File)] = true
	}
	if len(own) == 0 {
		return ins
	}
	named := map[string]bool{}
	for _, p := range c.Paths {
		named[filepath.Clean(p)] = true
	}
	out := ins[:0]
	for _, in := range ins {
		if !in.Stdin && own[absOrSelf(wd, in.FSPath)] && !named[in.Path] {
			continue
		}
		out = append(out, in)
	}
	return out
}

// onlyConfigs is --only-configs: named files are taken as a folder walk takes them (those it
// would pass over are dropped, the others are skipped quietly when they hold no config), so a
// hook that names every staged file reports only configs. Standard input is kept.
func onlyConfigs(ins []input) []input {
	out := ins[:0]
	for _, in := range ins {
		if !in.Stdin && !in.Walked {
			if walkSkips(in.Path) {
				continue
			}
			in.OnlyConfigs = true
		}
		out = append(out, in)
	}
	return out
}

func absOrSelf(wd, p string) string {
	if a, err := absIn(wd, p); err == nil {
		return a
	}
	return p
}

// fixesApplied is the line --fix prints: "applied 1 fix in 1 file", "no fixes to apply".
func fixesApplied(fixes, files int) string {
	if fixes == 0 {
		return "no fixes to apply"
	}
	return "applied " + countNoun(fixes, "fix", "fixes") + " in " + countNoun(files, "file", "files")
}

// countNoun is "1 file", "2 files".
func countNoun(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// exitCode is 1 when a finding is at or above failOn, 0 otherwise; an internal-error finding
// (a crashed rule or dialect, a trainlint bug) is exit 2 so CI can tell it from a config problem.
func exitCode(res *lint.Result, failOn lint.Severity) int {
	code := exitOK
	for _, d := range res.Diagnostics {
		if d.Code == lint.InternalError.Code {
			return exitUsage
		}
		if d.Severity >= failOn {
			code = exitFindings
		}
	}
	return code
}

// writeOutputFile renders one --output: the whole file is rendered in memory first so a failed
// render does not leave half a report behind.
func writeOutputFile(o outputSpec, res *lint.Result, ro report.Options) error {
	w, _ := report.Get(o.Format)
	var buf bytes.Buffer
	ro.Color = false
	if err := w(&buf, res, ro); err != nil {
		return fmt.Errorf("writing %s output: %w", o.Format, err)
	}
	if err := writeOutput(o.File, buf.Bytes()); err != nil { // safewrite.go: never through a link
		return fmt.Errorf("cannot write %s output: %w", o.Format, err)
	}
	return nil
}

// shortFor maps check's one-letter flags to the long flags they stand for.
var shortFor = map[string]string{"f": "format", "o": "output"}

func printCheckHelp(w io.Writer) {
	fmt.Fprintf(w, "Usage: trainlint [check] [flags] [PATH|-]...\n\n")
	fmt.Fprintf(w, "Lints files and folders (folders are walked for *.yaml, *.yml, *.json, *.toml, *.gin and\n")
	fmt.Fprintf(w, "*.py configs, and .gitignore is respected); with no path, the current folder. '-' reads\n")
	fmt.Fprintf(w, "standard input. Flags may come before or after paths. A path that cannot be read is\n")
	fmt.Fprintf(w, "reported and the others are still linted; the run then exits 2.\n\nFlags:\n")
	fs := newCheckFlags(&checkConfig{FailOn: lint.Warning})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fs.VisitAll(func(f *flag.Flag) {
		if shortFor[f.Name] != "" {
			return // shown with its long form
		}
		arg, usage := flag.UnquoteUsage(f)
		name := "--" + f.Name
		for short, long := range shortFor {
			if long == f.Name {
				name = "-" + short + ", " + name
			}
		}
		if arg != "" {
			name += " " + arg
		}
		if def := f.DefValue; def != "" && def != "0" && def != "false" {
			usage += " (default " + def + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s\n", name, usage)
	})
	tw.Flush()
	fmt.Fprintf(w, "\nExit codes: 0 nothing at or above --fail-on; 1 findings at or above it; 2 usage error,\nunreadable path or internal error.\n")
}
