package main

import (
	"io/fs"
	"os"
	"path/filepath"
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
	dir := filepath.Dir(path)
	for i := 0; i <= runSearchDepth; i++ {
		if runs := runsIn(dir, path, read); len(runs) > 0 {
			return runs
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	if runs := joinedRuns(path, read, folder); len(runs) > 0 {
		return runs // a recipe that names a DeepSpeed file
	}
	return lsp.SingleFileRuns(path, read, folder)
}

// runsIn composes the runs of the primary configs directly in dir and returns those that read
// path.
func runsIn(dir, path string, read func(string) ([]byte, bool)) []lsp.Run {
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
	fsys, rel, done := openEditorTree(dir, path, read)
	if fsys == nil {
		return nil
	}
	defer done()
	specs, _ := compose.Discover(fsys, top)
	var out []lsp.Run
	cache := compose.NewCache()
	for _, s := range specs {
		run := cache.Compose(fsys, s.Primary, s.Overrides, compose.Limits{})
		if run.File(rel) == nil {
			continue
		}
		out = append(out, lsp.Run{Overrides: s.Overrides, Files: runFiles(dir, s.Primary, run)})
	}
	return out
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
