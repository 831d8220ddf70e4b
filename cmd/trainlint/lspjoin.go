package main

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/trainlint/trainlint/cmd/trainlint/internal/lsp"
	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/lint/doc"
)

// joinSearchDepth is how many folders above an edited recipe or DeepSpeed file the language
// server looks for the repository's root (a folder with .git): a recipe's `deepspeed:` path is
// written from where the launch runs, usually that root, as check reads it from the tree it is
// given.
const joinSearchDepth = 6

// joinWalkDepth bounds how deep below that root the server looks for the recipes that name an
// edited DeepSpeed file (recipes/<model>/<method>/config.yaml is three deep).
const joinWalkDepth = 4

// launchRoot is the folder a recipe's file paths are read from: the nearest folder above path
// (at most joinSearchDepth up) that holds .git, else the file's own folder.
func launchRoot(p string) string {
	dir := filepath.Dir(p)
	d := dir
	for i := 0; i <= joinSearchDepth; i++ {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return dir
}

// joinedRuns are the runs in which the edited file meets the files a recipe names through a file
// key (compose.FileKeys: the Trainer family's `deepspeed:`, a Lightning DeepSpeed strategy's
// config): for a recipe, its own run with the files it names; for another file (a DeepSpeed
// JSON), the run of every recipe below launchRoot that names it. Each run lists the recipe
// first and is linted from launchRoot (lsp.Run.Root), as check lints the repository, so the
// HF/DeepSpeed consistency findings appear while either file is edited. A run whose recipe
// names no file that exists is not one.
func joinedRuns(p string, read func(string) ([]byte, bool)) []lsp.Run {
	root := launchRoot(p)
	rel, err := filepath.Rel(root, p)
	if err != nil || !filepath.IsLocal(rel) {
		return nil
	}
	rel = filepath.ToSlash(rel)
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil
	}
	defer r.Close()
	fsys := &editorFS{FS: r.FS(), root: r, dir: root, read: read, max: int64(doc.DefaultLimits.MaxBytes)}
	recipes := []string{rel}
	if !isYAMLPath(p) {
		recipes = yamlBelow(fsys, joinWalkDepth, maxRunCandidates)
	}
	cache := compose.NewCache()
	var out []lsp.Run
	for _, s := range compose.DiscoverJoined(fsys, recipes, nil) {
		run := cache.Single(fsys, s.Primary, compose.Limits{})
		cache.Join(fsys, run, compose.Limits{})
		files := []string{filepath.Join(root, filepath.FromSlash(s.Primary))}
		reads := s.Primary == rel
		for _, j := range run.Joined {
			if j.Doc == nil || j.Doc.Path == "" || j.Doc.Path == s.Primary {
				continue // a config written inline under the key
			}
			files = append(files, filepath.Join(root, filepath.FromSlash(j.Doc.Path)))
			reads = reads || j.Doc.Path == rel
		}
		if reads && len(files) > 1 {
			out = append(out, lsp.Run{Root: root, Files: files})
		}
	}
	return out
}

// yamlBelow lists the YAML files of fsys, nearest folders first, at most depth folders down and
// at most max files; dot-folders and node_modules are not entered.
func yamlBelow(fsys compose.FS, depth, max int) []string {
	var out []string
	level := []string{"."}
	for d := 0; d <= depth && len(level) > 0; d++ {
		var next []string
		for _, dir := range level {
			ents, err := fsys.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range ents {
				full := path.Join(dir, e.Name)
				switch {
				case e.Dir:
					if !strings.HasPrefix(e.Name, ".") && e.Name != "node_modules" {
						next = append(next, full)
					}
				case isYAMLPath(e.Name):
					if len(out) == max {
						return out
					}
					out = append(out, full)
				}
			}
		}
		level = next
	}
	return out
}
