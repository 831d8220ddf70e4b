package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
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

	ConfigFile    string
	Fix, Diff     bool
	UnsafeFixes   bool
	Baseline      string
	WriteBaseline string

	StdinFilename string
	NoColor       bool
	Quiet         bool
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
	return s.v.String()
}

func (s severityFlag) Set(v string) error {
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
	fs.Var(outputFlag{&c.Outputs}, "output", "also write the report in another format to a file: `FORMAT=FILE` (repeatable)")
	fs.Var(listFlag{&c.Select}, "select", "run only these `RULES` (codes, names, categories, prefixes such as TL2; comma-separated, repeatable)")
	fs.Var(listFlag{&c.Ignore}, "ignore", "skip these `RULES` (same selectors as --select)")
	fs.Var(severityFlag{&c.FailOn}, "fail-on", "exit 1 on findings at or above `SEVERITY`: error, warning or info")
	fs.IntVar(&c.Hosts, "hosts", 0, "launch context: the run uses `N` hosts (0 = unknown)")
	fs.IntVar(&c.DevicesPerHost, "devices-per-host", 0, "launch context: `N` accelerators per host (0 = unknown)")
	fs.StringVar(&c.Framework, "framework", "", "read every file as `NAME` instead of detecting the framework")
	fs.StringVar(&c.ConfigFile, "config", "", "use this trainlint config `FILE` instead of discovering .trainlint.toml")
	fs.BoolVar(&c.Fix, "fix", false, "apply safe fixes in place")
	fs.BoolVar(&c.Diff, "diff", false, "print the fixes as a unified diff and write nothing (exit 1 when there is a diff)")
	fs.BoolVar(&c.UnsafeFixes, "unsafe-fixes", false, "with --fix or --diff, include unsafe fixes")
	fs.StringVar(&c.Baseline, "baseline", "", "report only findings not recorded in this baseline `FILE`")
	fs.StringVar(&c.WriteBaseline, "write-baseline", "", "record the current findings in this baseline `FILE`")
	fs.StringVar(&c.StdinFilename, "stdin-filename", "", "report standard input as the file `NAME` (which also sets its format)")
	fs.BoolVar(&c.NoColor, "no-color", false, "never colour the output (NO_COLOR does the same)")
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
			return nil, usagef("%s", flagError(err))
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
		if f.Name == "format" {
			c.FormatSet = true
		}
	})
	return c, nil
}

// flagError words the flag package's errors with the double-dash spelling the help uses.
func flagError(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag --" + strings.TrimPrefix(name, "-")
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "--" + strings.TrimPrefix(name, "-") + " needs a value"
	}
	return strings.Replace(msg, " for flag -", " for --", 1)
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
				return usagef("unknown rule selector %q in %s (a code such as TL202, a name, a category or a prefix such as TL2; see 'trainlint rules')", s, sel.flag)
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
	if len(c.Paths) == 0 {
		if !stdinPiped {
			return usagef("no files to check: give files or folders, or '-' for standard input")
		}
		c.Paths = []string{"-"}
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
		Select:         c.Select,
		Ignore:         c.Ignore,
	}
}

// color reports whether the terminal output is coloured: only on a terminal, never with
// --no-color, NO_COLOR (any non-empty value, see no-color.org) or TERM=dumb.
func (c *checkConfig) color(stdout io.Writer) bool {
	return colorEnabled(c.NoColor, os.Getenv("NO_COLOR"), os.Getenv("TERM"), isTerminal(stdout))
}

func colorEnabled(noColorFlag bool, noColorEnv, term string, terminal bool) bool {
	return terminal && !noColorFlag && noColorEnv == "" && term != "dumb"
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
		fmt.Fprintf(stderr, "trainlint: %s\n", err)
		code = exitUsage
	}
	inputs, errs, warnings := collectInputs(c.Paths, c.StdinFilename)
	for _, e := range errs {
		fail(e)
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "trainlint: warning: %s\n", w)
	}
	opts, err := c.configOptions(args, inputs, rs) // config.go: the nearest config file per input
	if err != nil {
		return exitUsage, err
	}
	if c.Fix || c.Diff {
		// Fixing comes first (fix.go): --diff prints the diff and stops; --fix writes the files,
		// which are then linted as usual so the report shows what is left.
		sum, errs := runFixes(c, inputs, stdin, rs, opts, stdout)
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
			fmt.Fprintf(stderr, "trainlint: applied %d fixes in %d files\n", sum.Fixes, sum.Files)
		}
	}
	res, sources, errs := lintInputs(inputs, stdin, rs, opts, 0)
	for _, e := range errs {
		fail(e)
	}
	if res, err = c.applyBaseline(res, bl, rs, stderr); err != nil {
		fail(err)
	}

	ro := report.Options{Sources: sources, Rules: rs, Quiet: c.Quiet}
	for _, o := range c.Outputs {
		if err := writeOutputFile(o, res, ro); err != nil {
			fail(err)
		}
	}
	w, _ := report.Get(c.Format)
	ro.Color = c.color(stdout)
	if err := w(stdout, res, ro); err != nil {
		return exitUsage, fmt.Errorf("writing %s output: %w", c.Format, err)
	}
	if code != exitOK {
		return code, nil
	}
	return exitCode(res, c.FailOn), nil
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
	if err := os.WriteFile(o.File, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("cannot write %s output: %w", o.Format, err)
	}
	return nil
}

func printCheckHelp(w io.Writer) {
	fmt.Fprintf(w, "Usage: trainlint [check] [flags] [PATH|-]...\n\n")
	fmt.Fprintf(w, "Lints files and folders (folders are walked for *.yaml, *.yml, *.json, *.toml, *.gin, *.py configs, and .gitignore\n")
	fmt.Fprintf(w, "is respected). '-' reads standard input. Flags may come before or after paths. A path that\n")
	fmt.Fprintf(w, "cannot be read is reported and the others are still linted; the run then exits 2.\n\nFlags:\n")
	fs := newCheckFlags(&checkConfig{FailOn: lint.Warning})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		name := "--" + f.Name
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
