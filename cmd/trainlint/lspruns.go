package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trainlint/trainlint/cmd/trainlint/internal/lsp"
	"github.com/trainlint/trainlint/lint/compose"
)

// runSearchDepth is how many folders above an edited YAML file the language server looks for
// the Hydra primary configs that may include it: a group option sits one or two levels below
// its config directory (configs/trainer/ddp.yaml, configs/experiment/sub/x.yaml).
const runSearchDepth = 3

// maxRunCandidates bounds the YAML files of one folder read as possible primary configs on
// each re-lint: a folder with more (a data set, generated configs) is not a config directory
// a person edits by hand, and reading them all on every keystroke would stall the editor.
const maxRunCandidates = 200

// editorRuns is the language server's run finder: the Hydra runs (lint/compose, as check
// discovers them) whose composition reads the edited file. It looks in the file's folder and
// up to runSearchDepth folders above for primary configs, composes each run found there
// (experiments included) through the editor's texts, and keeps those that read the file; the
// nearest folder with such runs wins. Else a recipe that names a DeepSpeed file, or a file
// such recipes name, is linted in their joined runs (joinedRuns), and a Python or gin config in
// the code runs that read it (codeRuns). A file no run reads is a run of one. folder is the
// workspace folder holding path ("" when none): where no .git is found above path, the
// recipes and code configs that may read it are searched for below it (launchRoot).
func editorRuns(path string, read func(string) ([]byte, bool), folder string) []lsp.Run {
	if !isYAMLPath(path) {
		if strings.EqualFold(filepath.Ext(path), ".json") {
			if runs := joinedRuns(path, read, folder); len(runs) > 0 {
				return runs // a DeepSpeed JSON that recipes name (lspjoin.go)
			}
		}
		if compose.IsCodeConfig(path) {
			if runs := codeRuns(path, read, folder); len(runs) > 0 {
				return runs // an MMEngine or gin config with bases, or a base (lspjoin.go)
			}
		}
		return lsp.SingleFileRuns(path, read, folder)
	}
	if runs := hydraRuns(path, read, folder); len(runs) > 0 {
		return runs
	}
	if runs := joinedRuns(path, read, folder); len(runs) > 0 {
		return runs // a recipe that names a DeepSpeed file
	}
	return lsp.SingleFileRuns(path, read, folder)
}

// hydraRuns are the Hydra runs that read the YAML file path: those of the primary configs in
// its folder or up to runSearchDepth folders above, the nearest folder with such runs winning.
func hydraRuns(path string, read func(string) ([]byte, bool), folder string) []lsp.Run {
	return hydraRunsMemo(path, read, folder, nil)
}

// hydraRunsMemo is hydraRuns with the runs of each folder asked kept in memo (every run of its
// primaries, whatever it reads), for a search that asks for several files of the same folders
// (nil: none kept).
func hydraRunsMemo(path string, read func(string) ([]byte, bool), folder string, memo map[string][]lsp.Run) []lsp.Run {
	dir := filepath.Dir(path)
	for i := 0; i <= runSearchDepth; i++ {
		var runs []lsp.Run
		if memo == nil {
			runs = runsIn(dir, path, read, folder)
		} else {
			all, ok := memo[dir]
			if !ok {
				all = runsOf(dir, filepath.Join(dir, "x.yaml"), "", read, folder) // a path in dir
				memo[dir] = all
			}
			for _, r := range all {
				if slices.Contains(r.Files, path) {
					runs = append(runs, r)
				}
			}
		}
		if len(runs) > 0 {
			return runs
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return nil
}

// runsIn composes the runs of the primary configs directly in dir and returns those that read
// path. Where one of them names a file by a key (a group option's `deepspeed:`), written from
// where the launch runs, or the repository's scripts name a config_path folder outside dir
// (mainOutside: dir's primaries read options there), they are composed from the repository's
// root above dir (launchRoot; lsp.Run.Root), as check composes a config directory walked below
// its repository.
func runsIn(dir, path string, read func(string) ([]byte, bool), folder string) []lsp.Run {
	return runsOf(dir, path, path, read, folder)
}

// runsOf is runsIn for a file or folder path in dir or below it, keeping the runs that read
// only ("": every run).
func runsOf(dir, path, only string, read func(string) ([]byte, bool), folder string) []lsp.Run {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var top []string
	for _, e := range ents {
		if !e.IsDir() && isYAMLPath(e.Name()) {
			top = append(top, e.Name())
		}
	}
	if len(top) == 0 || len(top) > maxRunCandidates {
		return nil
	}
	if groupOfFolderAbove(dir, path, read) {
		// A config group of the folder above (callbacks/ beside train.yaml's
		// `- callbacks: default`): its options are composed in that folder's runs, as a
		// whole-tree walk composes them, even one that lists a sibling in its own defaults.
		return nil
	}
	out, namesFile := composeIn(dir, top, only, read)
	if root := launchRoot(path, folder); (namesFile || mainOutside(root, dir)) && root != dir && within(root, dir) {
		if rel, err := filepath.Rel(root, dir); err == nil {
			for i := range top {
				top[i] = filepath.ToSlash(filepath.Join(rel, top[i]))
			}
			if again, _ := composeIn(root, top, only, read); len(again) > 0 {
				for i := range again {
					again[i].Root = root
				}
				return again
			}
		}
	}
	return out
}

// composeIn composes, in the tree root, the runs of the primaries top (paths in the tree) that
// read the file only (every run when only is ""), and tells whether a file of those runs names
// a file by a key.
func composeIn(root string, top []string, only string, read func(string) ([]byte, bool)) (out []lsp.Run, namesFile bool) {
	fsys, _, done := openEditorTree(root, root, read)
	if fsys == nil {
		return nil, false
	}
	defer done()
	rel := ""
	if only != "" {
		r, err := filepath.Rel(root, only)
		if err != nil || !filepath.IsLocal(r) {
			return nil, false
		}
		rel = filepath.ToSlash(r)
	}
	dc := compose.NewCache()
	dc.Launched = scriptPrimaries(root) // as check discovers (runs.go)
	dc.MainDir, dc.MainCandidates = hydraMainDir(root), hydraMainCandidates(root)
	specs, _ := dc.Discover(fsys, top, compose.Limits{})
	cache := compose.NewCache()
	cache.MainDir, cache.MainCandidates = dc.MainDir, dc.MainCandidates // as check composes (runs.go)
	for _, s := range specs {
		run := cache.Compose(fsys, s.Primary, s.Overrides, compose.Limits{})
		if rel != "" && run.File(rel) == nil {
			continue
		}
		cache.Join(fsys, run, compose.Limits{}) // the files its keys name, for the lint to read
		for _, d := range run.Files {
			namesFile = namesFile || compose.MentionsFileKey(d.Src)
		}
		out = append(out, lsp.Run{Overrides: s.Overrides, Files: runFiles(root, s.Primary, run), MainDir: cache.MainDir, MainCandidates: cache.MainCandidates})
	}
	return out, namesFile
}

// groupOfFolderAbove reports whether a YAML config in the folder above dir names dir as a
// config group in its defaults list, read as the editor has it: an unsaved train.yaml that
// just added `- callbacks: default` makes callbacks/ a group at once.
func groupOfFolderAbove(dir, path string, read func(string) ([]byte, bool)) bool {
	up := filepath.Dir(dir)
	if up == dir {
		return false
	}
	fsys, _, done := openEditorTree(up, path, read)
	if fsys == nil {
		return false
	}
	defer done()
	return compose.GroupNamedIn(fsys, ".", filepath.Base(dir))
}

// editorFS is a config directory as the editor sees it: files read through the server (the
// editor's unsaved text where a file is open), folders listed from the disk. os.Root confines
// it to the directory (no "..", no symbolic link out of it), and a file that is not regular or
// is over the size limit is not read, as for check's trees.
type editorFS struct {
	fs.FS
	root *os.Root
	dir  string
	read func(string) ([]byte, bool)
	max  int64
}

// RootName is the name of the tree's folder (compose.Named): a gin include may start with it.
func (e *editorFS) RootName() string { return folderName(e.dir) }

func (e *editorFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	fi, err := e.root.Stat(filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > e.max {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	b, ok := e.read(filepath.Join(e.dir, filepath.FromSlash(name)))
	if !ok || int64(len(b)) > e.max {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return b, nil
}

func (e *editorFS) ReadDir(name string) ([]compose.Entry, error) {
	return compose.Entries(fs.ReadDir(e.FS, name))
}
