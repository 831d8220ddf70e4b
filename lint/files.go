package lint

import (
	"errors"
	"sort"
	"strings"

	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/lint/doc"
)

// LintFiles lints files a driver holds in memory (the browser checker's tabs, the language
// server's unsaved buffers) the way LintTree lints a tree on disk, through LintTree itself:
// the runs among them are found (compose.Discover); with overrides, the Hydra primaries found
// are composed with them instead (their experiments are not added: the overrides say what is
// launched, as with the CLI's --override). The files of a config directory get the structural
// rules alone and the runs report the rest, at the file and line that set each value. Paths
// are slash paths relative to one root. A file that cannot be part of a tree is linted alone,
// as Lint lints it: a path that is not a valid fs.FS path (absolute, ".."), the second of two
// files with the same path, a format other than its extension's (the checker's format menu),
// a file over the size limit. The result lists the files in the order given.
func LintFiles(files []File, overrides []string, rules []*Rule, o Options) *Result {
	fsys, paths, alone := treeOf(files)
	var specs []compose.Spec
	if len(overrides) > 0 {
		specs = withOverrides(fsys, paths, overrides)
	}
	res := NewResult()
	if len(paths) > 0 {
		res = LintTree(fsys, paths, specs, rules, o)
	}
	info := map[string]FileInfo{}
	for _, fi := range res.Files {
		info[fi.Path] = fi
	}
	res.Files = res.Files[:0:0]
	for i, f := range files {
		if alone[i] {
			fi, diags := LintFile(f, rules, o)
			res.Files = append(res.Files, fi)
			res.Diagnostics = append(res.Diagnostics, diags...)
		} else if fi, ok := info[f.Path]; ok {
			res.Files = append(res.Files, fi)
		}
	}
	SortDiagnostics(res.Diagnostics)
	return res
}

// FixFiles fixes files as their lint shows them (the browser's fix all): LintFiles lints them,
// the safe fixes (unsafe ones too when unsafe is set) of its findings are applied to each file,
// and the files are linted again while fixes still apply, up to MaxFixRounds. So a file gets
// what its findings offer: its own fixes (the structural ones alone for the parts of composed
// runs) and those of its runs (runFix), as `trainlint check --fix` applies them. It returns the
// outcomes (Text and Applied), the lint of the fixed files, and per file the error of
// a round that broke its syntax (its text is then the last one that parsed). Files that share a
// path get no fix.
func FixFiles(files []File, overrides []string, rules []*Rule, o Options, unsafe bool) ([]FixOutcome, *Result, []error) {
	cur := append([]File(nil), files...)
	outs, errs := make([]FixOutcome, len(files)), make([]error, len(files))
	// Findings name their file by path: files that share one (the second is linted alone)
	// cannot tell their fixes apart and get none.
	paths := map[string]int{}
	for _, f := range files {
		paths[f.Path]++
	}
	res := LintFiles(cur, overrides, rules, o)
	for round := 0; round < MaxFixRounds; round++ {
		changed := false
		for i, f := range cur {
			next, n := ApplyFixes(f.Text, f.Path, res.Diagnostics, unsafe)
			if paths[f.Path] > 1 || errs[i] != nil || n == 0 || string(next) == string(f.Text) {
				continue
			}
			g := f
			g.Text = next
			if Parses(f, o) && !Parses(g, o) {
				errs[i] = unparsable(f.Path, res.Diagnostics, unsafe)
				continue
			}
			cur[i], changed = g, true
			outs[i].Applied += n
		}
		if !changed {
			break
		}
		res = LintFiles(cur, overrides, rules, o)
	}
	for i := range cur {
		outs[i].Text = cur[i].Text
	}
	return outs, res, errs
}

// treeOf puts the files that can be part of a tree into an in-memory file system; alone marks
// the others (see LintFiles).
func treeOf(files []File) (memFS, []string, []bool) {
	fsys := memFS{}
	var paths []string
	alone := make([]bool, len(files))
	for i, f := range files {
		ext, _ := doc.FormatFromPath(f.Path)
		_, dup := fsys[f.Path]
		if dup || !compose.ValidPath(f.Path) || f.Path == "." || f.Size > int64(len(f.Text)) || (f.Format != "" && f.Format != ext) {
			alone[i] = true
			continue
		}
		fsys[f.Path] = f.Text
		paths = append(paths, f.Path)
	}
	return fsys, paths, alone
}

// withOverrides is the runs overrides launch: each Hydra primary found, composed with them.
func withOverrides(fsys compose.FS, paths, overrides []string) []compose.Spec {
	found, _ := compose.Discover(fsys, paths)
	var specs []compose.Spec
	for _, s := range found {
		if len(s.Overrides) == 0 {
			specs = append(specs, compose.Spec{Primary: s.Primary, Overrides: overrides})
		}
	}
	return specs
}

// memFS is a read-only compose.FS over in-memory texts (slash path → bytes); folders are the
// prefixes of the paths.
type memFS map[string][]byte

func (m memFS) ReadFile(name string) ([]byte, error) {
	if b, ok := m[name]; ok && compose.ValidPath(name) {
		return b, nil
	}
	return nil, pathError("read", name, "file does not exist")
}

func (m memFS) ReadDir(name string) ([]compose.Entry, error) {
	if !compose.ValidPath(name) {
		return nil, pathError("readdir", name, "invalid argument")
	}
	prefix := name + "/"
	if name == "." {
		prefix = ""
	}
	seen := map[string]bool{}
	var out []compose.Entry
	for p := range m {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok || rest == "" {
			continue
		}
		child, _, isDir := strings.Cut(rest, "/")
		if seen[child] {
			continue
		}
		seen[child] = true
		out = append(out, compose.Entry{Name: child, Dir: isDir})
	}
	if len(out) == 0 && name != "." {
		return nil, pathError("readdir", name, "file does not exist")
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// pathError says what an *io/fs.PathError with fs.ErrNotExist or fs.ErrInvalid says (nothing
// asks which error it is): package io/fs would import time into the light WebAssembly module
// (compose.FS).
func pathError(op, name, what string) error { return errors.New(op + " " + name + ": " + what) }
