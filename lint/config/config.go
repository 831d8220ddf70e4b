// Package config reads trainlint's configuration file: `.trainlint.toml`, or the
// `[tool.trainlint]` table of `pyproject.toml`. A linted file takes the nearest config file in
// its folder or above (the search stops at a folder holding `.git`, the repository's top, or at
// the file system root); `extend = "path"` inherits another file's settings. Every file is
// validated against the JSON Schema in schema.json (completed with the rule set, the frameworks
// and the generic dialect's mapping concepts), and mistakes are reported with the file, line and
// key: `.trainlint.toml:3:1: unknown key "fail_on" (did you mean "fail-on"?)`.
//
// The package reads the file system; the engine (package lint) does not: drivers turn a Config
// into lint.Options per linted file (Config.Options).
//
// The JSON Schema is checked by a small keyword interpreter (validate.go), not by linking
// santhosh-tekuri/jsonschema/v6: that library's package init compiles every draft's meta-schema
// on every start of the binary (3.4–6 ms, 1.7 MB), half of the pre-commit budget, whether or not
// a config file exists. The schema itself is unchanged (`trainlint schema config`), the library
// stays the reference in tests (TestValidateMatchesLibrary: identical failures on 4,000
// generated configs), and TestSchemaKeywordsKnown fails if the schema starts using a keyword the
// interpreter lacks.
//
// A repository's config file is the repository's to write, so it is read as untrusted input:
// only regular files are read (a FIFO or /dev/zero named by extend would block or never end),
// at most 1 MiB of each, and extend may name only files inside the repository of the config
// file the chain starts from (with symbolic links resolved; outside any repository, inside that
// file's folder); a discovered config file that is a link out of its repository is not read
// either. Before, `extend = "/dev/zero"` grew to 16 GB in two minutes, a FIFO blocked
// forever, and `extend = "/etc/shadow"` read the file and echoed its key names in errors.
//
// Globs ([[ignore]] and [[files]] paths) match in time proportional to the pattern's segments
// times the path's: "**" is matched by keeping the set of pattern positions reached, not by
// backtracking. An 80-byte pattern of "**/a/" segments on a 40-deep path took over 300 s for one
// match (the CLI run on such a tree was stopped at 60 s); now 88 µs
// (BenchmarkMatchGlobPathological) and 0.01 s for the CLI run.
package config

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
)

// File names discovery looks for, in order of preference within one folder.
const (
	FileName  = ".trainlint.toml"
	PyProject = "pyproject.toml"
)

// Config is the merged configuration one linted file sees (its nearest file and everything it
// extends). Zero values mean "not set".
type Config struct {
	// Path is the config file that was found or named (the start of the extend chain); "" when
	// no file applies.
	Path string
	// Chain lists the files read, nearest first.
	Chain []string

	Select, Ignore []string
	FailOn         lint.Severity
	RequireReason  bool
	// Rules are per-rule settings keyed by rule name.
	Rules map[string]RuleSettings

	Hosts, DevicesPerHost int
	Ignores               []IgnoreEntry
	Files                 []FileEntry
	// Mapping is concept → dotted key path for the generic dialect.
	Mapping map[string]string
	Limits  doc.Limits
	// Target is [target]: package -> the version its files are linted for ("transformers" =
	// "4.46"), over the repository's own pins.
	Target map[string]string
	// Runs are the [[runs]] tables: composed runs declared (composition.md), which replace the
	// runs found automatically.
	Runs []RunEntry
}

// RunEntry is one [[runs]] table. Dir is the folder of the config file that defines it: Config
// and Launcher are relative to it.
type RunEntry struct {
	Dir, Config string
	Overrides   []string
	Launcher    string
}

// RuleSettings are one rule's [rules.<name>] table.
type RuleSettings struct {
	Severity lint.Severity // 0: the rule's own
	Options  map[string]any
}

// IgnoreEntry is one [[ignore]] table. Dir is the folder of the config file that defines it:
// Path is relative to it.
type IgnoreEntry struct {
	Dir, Path   string
	Rules, Keys []string
}

// FileEntry is one [[files]] table.
type FileEntry struct {
	Dir, Path string
	Framework string
}

// Options returns the engine options for a file on disk (absolute, or relative to the working
// folder). Command-line flags are laid over them by the driver.
func (c *Config) Options(file string) lint.Options {
	var o lint.Options
	if c == nil {
		return o
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	o.Select = append([]string(nil), c.Select...)
	o.Ignore = append([]string(nil), c.Ignore...)
	o.Hosts, o.DevicesPerHost = c.Hosts, c.DevicesPerHost
	o.RequireReason = c.RequireReason
	o.Limits = c.Limits
	if len(c.Mapping) > 0 {
		o.Mapping = map[string]string{}
		for k, v := range c.Mapping {
			o.Mapping[k] = v
		}
	}
	for _, r := range c.Runs {
		d := lint.DeclaredRun{Config: filepath.Join(r.Dir, filepath.FromSlash(r.Config)), Overrides: append([]string(nil), r.Overrides...)}
		if r.Launcher != "" {
			d.Launcher = filepath.Join(r.Dir, filepath.FromSlash(r.Launcher))
		}
		o.Runs = append(o.Runs, d)
	}
	for pkg, v := range c.Target {
		if o.Targets == nil {
			o.Targets = map[string]lint.Target{}
		}
		o.Targets[pkg] = lint.Target{Version: v, Source: filepath.Base(c.Path) + " [target] sets " + v}
	}
	for name, rs := range c.Rules {
		if rs.Severity != 0 {
			if o.Severity == nil {
				o.Severity = map[string]lint.Severity{}
			}
			o.Severity[name] = rs.Severity
		}
		if len(rs.Options) > 0 {
			if o.RuleOptions == nil {
				o.RuleOptions = map[string]map[string]any{}
			}
			o.RuleOptions[name] = rs.Options
		}
	}
	for _, f := range c.Files {
		if MatchGlob(f.Dir, f.Path, abs) {
			o.Framework = f.Framework // the last match wins
		}
	}
	for _, ig := range c.Ignores {
		if ig.Path == "" || MatchGlob(ig.Dir, ig.Path, abs) {
			o.KeyIgnores = append(o.KeyIgnores, lint.KeyIgnore{Rules: ig.Rules, Keys: ig.Keys})
		}
	}
	return o
}

// Loader reads config files for one rule set, caching files by path and discovery results by
// folder (a run over a large tree reads each config file once). It is safe for concurrent use.
type Loader struct {
	rules  []*lint.Rule
	schema *compiledSchema

	mu    sync.Mutex
	files map[string]result // by absolute config path
	dirs  map[string]result // by absolute folder: the nearest config (nil = none)
}

type result struct {
	c   *Config
	err error
}

// NewLoader returns a loader that validates rule names and options against rules.
func NewLoader(rules []*lint.Rule) *Loader {
	return &Loader{rules: rules, files: map[string]result{}, dirs: map[string]result{}}
}

// Load reads the config file at path (a .trainlint.toml-style file, or a pyproject.toml whose
// [tool.trainlint] table is used) and everything it extends.
func (l *Loader) Load(p string) (*Config, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	return l.memo(l.files, abs, func() (*Config, error) {
		c, err := l.resolve(abs, nil, nil)
		if err == nil && c == nil {
			err = &Error{File: displayPath(abs), Msg: "has no [tool.trainlint] table"}
		}
		return c, err
	})
}

// memo returns the cached result for key in m (l.files or l.dirs), or computes and caches it.
// The lock is not held while computing: discovery recurses into Load and ForDir, and parallel
// workers that race on one key compute the same result.
func (l *Loader) memo(m map[string]result, key string, compute func() (*Config, error)) (*Config, error) {
	l.mu.Lock()
	r, ok := m[key]
	l.mu.Unlock()
	if ok {
		return r.c, r.err
	}
	c, err := compute()
	l.mu.Lock()
	m[key] = result{c, err}
	l.mu.Unlock()
	return c, err
}

// Parse validates a config file's bytes without touching the file system (for fuzzing and for
// drivers without one). path names the file in messages and decides whether the bytes are a
// pyproject.toml; globs are relative to its folder. An extend key is validated but not followed.
// A pyproject.toml without a [tool.trainlint] table gives (nil, nil).
func (l *Loader) Parse(path string, src []byte) (*Config, error) {
	ly, err := l.parseLayer(path, src)
	if err != nil || ly == nil {
		return nil, err
	}
	c := &Config{Path: path, Chain: []string{path}}
	ly.applyTo(c)
	return c, nil
}

// ForFile returns the configuration that applies to a file on disk: the nearest config file in
// its folder or above. nil (and no error) when there is none.
func (l *Loader) ForFile(file string) (*Config, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	return l.ForDir(filepath.Dir(abs))
}

// ForDir returns the configuration for files in dir (see ForFile).
func (l *Loader) ForDir(dir string) (*Config, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return l.memo(l.dirs, abs, func() (*Config, error) { return l.discover(abs) })
}

func (l *Loader) discover(dir string) (*Config, error) {
	for _, name := range []string{FileName, PyProject} {
		// A discovered config file is the repository's: a link out of it (to /etc/shadow, say)
		// is not followed, as extend would not be.
		if p := filepath.Join(dir, name); isFile(p) && !within(p, extendBoundary(p)) {
			return nil, &Error{File: displayPath(p), Msg: "is a symbolic link to a file outside the repository; trainlint does not read it (pass a config file with --config)"}
		}
	}
	if p := filepath.Join(dir, FileName); isFile(p) {
		return l.Load(p)
	}
	if p := filepath.Join(dir, PyProject); isFile(p) {
		c, err := l.Load(p)
		var e *Error
		if err == nil || !(asError(err, &e) && e.Msg == "has no [tool.trainlint] table") {
			return c, err
		}
	}
	parent := filepath.Dir(dir)
	if parent == dir || exists(filepath.Join(dir, ".git")) {
		return nil, nil // the repository's top or the file system root: no config
	}
	return l.ForDir(parent)
}

// resolve reads one file and, first, the file it extends. stack holds the files being read (to
// detect cycles); from is the layer whose extend key named this file (for error positions).
func (l *Loader) resolve(abs string, stack []string, from *layer) (*Config, error) {
	for _, s := range stack {
		if s == abs {
			names := []string{}
			for _, x := range append(stack, abs) {
				names = append(names, displayPath(x))
			}
			return nil, from.errorAt([]string{"extend"}, false, "extend cycle: "+strings.Join(names, " -> "))
		}
	}
	ly, err := l.readLayer(abs)
	if err != nil {
		if from != nil && os.IsNotExist(err) {
			return nil, from.errorAt([]string{"extend"}, false, "extended file "+quote(displayPath(abs))+" does not exist")
		}
		return nil, err
	}
	if ly == nil {
		return nil, nil
	}
	c := &Config{}
	if ly.extend != "" {
		target := ly.extend
		if !filepath.IsAbs(target) {
			target = filepath.Join(ly.dir, filepath.FromSlash(target))
		}
		if b := extendBoundary(append(stack, abs)[0]); !within(target, b) {
			return nil, ly.errorAt([]string{"extend"}, false, "extended file "+quote(displayPath(target))+" is outside "+quote(displayPath(b))+
				"; extend may name only files in the repository of the config file (pass another file with --config)")
		}
		parent, err := l.resolve(filepath.Clean(target), append(stack, abs), ly)
		if err != nil {
			return nil, err
		}
		if parent == nil {
			return nil, ly.errorAt([]string{"extend"}, false, "extended file "+quote(displayPath(target))+" has no [tool.trainlint] table")
		}
		cp := *parent
		c = &cp
		c.Rules = cloneRules(parent.Rules)
		c.Mapping = cloneMap(parent.Mapping)
		c.Target = cloneMap(parent.Target)
		c.Ignores = append([]IgnoreEntry(nil), parent.Ignores...)
		c.Files = append([]FileEntry(nil), parent.Files...)
		c.Runs = append([]RunEntry(nil), parent.Runs...)
	}
	ly.applyTo(c)
	c.Path = abs
	c.Chain = append([]string{abs}, c.Chain...)
	return c, nil
}

func cloneRules(m map[string]RuleSettings) map[string]RuleSettings {
	out := map[string]RuleSettings{}
	for k, v := range m {
		opts := map[string]any{}
		for ok, ov := range v.Options {
			opts[ok] = ov
		}
		out[k] = RuleSettings{Severity: v.Severity, Options: opts}
	}
	return out
}

func cloneMap(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// displayPath shortens an absolute path to one relative to the working folder when it lies
// under it, so messages read like the paths users typed.
func displayPath(abs string) string {
	wd, err := os.Getwd()
	if err != nil {
		return abs
	}
	rel, err := filepath.Rel(wd, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs
	}
	return rel
}

// MatchGlob reports whether file (absolute) matches pattern relative to dir. "**" matches any
// number of folders; a pattern without "/" matches the file's name at any depth (like
// .gitignore); files outside dir never match.
func MatchGlob(dir, pattern, file string) bool {
	rel, err := filepath.Rel(dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	rel = filepath.ToSlash(rel)
	pattern = strings.TrimPrefix(strings.TrimPrefix(pattern, "./"), "/")
	if !strings.Contains(pattern, "/") {
		ok, _ := path.Match(pattern, path.Base(rel))
		return ok || pattern == "**"
	}
	return matchSegments(strings.Split(pattern, "/"), strings.Split(rel, "/"))
}

// matchSegments matches path segments against pattern segments, where "**" stands for any
// number of segments (none included) and every other segment is a path.Match pattern. It reads
// the name once, keeping the set of pattern positions reached so far (a position per segment
// of the pattern), so its time is len(pat) × len(name) segment matches whatever the pattern:
// the backtracking version it replaces took 55 s for an 80-byte pattern of ** and one-letter
// segments on a 40-deep path (see TestGlobLinear and BenchmarkMatchGlobPathological).
func matchSegments(pat, name []string) bool {
	cur := make([]bool, len(pat)+1)
	next := make([]bool, len(pat)+1)
	cur[0] = true
	skipStars(cur, pat)
	for _, seg := range name {
		clear(next)
		alive := false
		for i, p := range pat {
			if !cur[i] {
				continue
			}
			if p == "**" {
				next[i], alive = true, true // ** takes this segment and may take more
			} else if ok, _ := path.Match(p, seg); ok {
				next[i+1], alive = true, true
			}
		}
		if !alive {
			return false
		}
		skipStars(next, pat)
		cur, next = next, cur
	}
	return cur[len(pat)]
}

// skipStars lets every reached "**" also match no segment.
func skipStars(reached []bool, pat []string) {
	for i, p := range pat {
		if reached[i] && p == "**" {
			reached[i+1] = true
		}
	}
}

// validGlob reports whether every segment of a glob is a valid path.Match pattern.
func validGlob(pattern string) bool {
	for _, seg := range strings.Split(pattern, "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return false
		}
	}
	return true
}
