package main

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
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
// (at most joinSearchDepth up) that holds .git; else the outermost (at most joinSearchDepth up)
// that holds a Python project's file (pyproject.toml, setup.py, setup.cfg: a downloaded
// release of a repository, whose projects/ may hold setup.py files of their own whose configs
// build on the top's `_base_`); else the workspace folder that holds path (folder, "" when
// none), when it is at most joinSearchDepth up (a project of configs alone opened in the
// editor); else the file's own folder. A project's file comes before the workspace folder so
// that an editor opened on a home folder does not search all of it on every change.
func launchRoot(p, folder string) string {
	dir := filepath.Dir(p)
	d, project, workspace := dir, "", ""
	for i := 0; i <= joinSearchDepth; i++ {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		for _, name := range []string{"pyproject.toml", "setup.py", "setup.cfg"} {
			if _, err := os.Lstat(filepath.Join(d, name)); err == nil {
				project = d // the outermost wins
				break
			}
		}
		if folder != "" && d == folder {
			workspace = d
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	if project != "" {
		return project
	}
	if workspace != "" {
		return workspace
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
func joinedRuns(p string, read func(string) ([]byte, bool), folder string) []lsp.Run {
	root := launchRoot(p, folder)
	fsys, rel, done := openEditorTree(root, p, read)
	if fsys == nil {
		return nil
	}
	defer done()
	recipes := []string{rel}
	if !isYAMLPath(p) {
		// A JSON file: the recipes that name it, and itself when it is a recipe (an HF JSON
		// recipe with its deepspeed file).
		recipes = editorRecipes(root, fsys)
		if !slices.Contains(recipes, rel) {
			recipes = append(recipes, rel)
		}
	}
	cache := compose.NewCache()
	var out []lsp.Run
	seen := map[string]bool{}         // the Hydra runs added
	dirRuns := map[string][]lsp.Run{} // the Hydra runs of each folder asked (hydraRunsMemo)
	hydraRunsAdded := 0
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
		if !reads || len(files) < 2 {
			continue
		}
		if s.Primary != rel && isYAMLPath(s.Primary) {
			// A Hydra group option or primary that names the file: linted in its config
			// directory's runs that read the file, not as a recipe of its own (whose unset
			// keys would be the Trainer's defaults where the primary sets them). Each folder's
			// runs are composed once; at most maxCodeRuns of them are linted on each change
			// (a config directory may hold hundreds of experiments).
			hr := hydraRunsMemo(filepath.Join(root, filepath.FromSlash(s.Primary)), read, folder, dirRuns)
			for _, r := range hr {
				k := strings.Join(r.Files, "\x00") + "\x01" + strings.Join(r.Overrides, "\x00")
				if slices.Contains(r.Files, p) && !seen[k] && hydraRunsAdded < maxCodeRuns {
					seen[k] = true
					hydraRunsAdded++
					out = append(out, r)
				}
			}
			if len(hr) > 0 || groupOfFolderAbove(filepath.Dir(files[0]), files[0], read) {
				continue // an option no run chooses is no recipe either
			}
		}
		out = append(out, lsp.Run{Root: root, Files: files})
	}
	return out
}

// filesBelow lists the files of fsys that keep accepts, nearest folders first, at most depth
// folders down and at most max files; dot-folders and node_modules are not entered.
func filesBelow(fsys compose.FS, depth, max int, keep func(string) bool) []string {
	return filesBelowFrom(fsys, []string{"."}, depth, max, keep)
}

// filesBelowFrom is filesBelow below each of the folders from (slash paths in fsys; a folder
// inside another is listed once).
func filesBelowFrom(fsys compose.FS, from []string, depth, max int, keep func(string) bool) []string {
	var out []string
	var level []string
	for _, f := range from {
		if !slices.ContainsFunc(from, func(o string) bool { return o != f && within(o, f) }) && !slices.Contains(level, f) {
			level = append(level, f)
		}
	}
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
				case keep(e.Name):
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

// codeWalkDepth, maxCodeFiles and maxCodeRuns bound the search for the runs of a code config
// (lint/compose's MMEngine `_base_` chains and gin includes): how deep below the repository's
// root, how many Python and gin files are read, and how many runs are linted on each change (a
// base such as MMDetection's default_runtime.py is read by hundreds of configs: the first
// maxCodeRuns found, nearest folders first, stand for them).
const (
	codeWalkDepth = 6
	maxCodeFiles  = 3000
	maxCodeRuns   = 8
)

// codeRuns are the runs of code configs that read the edited one: its own run when it names
// bases or calls another module's function, then the configs below the repository's root whose
// composition reads it, among those whose text names its file (by the name without extension,
// as `_base_` paths, read_base imports, gin includes and Python imports do) or names a file
// that does, and so on (readersOf). Linted from the root like check's, a base gets the run's
// findings that point into it and only structural checks of its own, instead of a lint of the
// base alone (which would miss what the configs built on it set).
func codeRuns(p string, read func(string) ([]byte, bool), folder string) []lsp.Run {
	if strings.EqualFold(path.Ext(p), ".py") {
		// A script or helper module is no config: no search on each change for it. A module
		// of ml_collections configs is searched for: the get_configs of other files may call
		// its functions (compose's code_calls.go).
		b, ok := read(p)
		if !ok {
			return nil
		}
		if !readByOthers(doc.Parse(p, b, doc.Python, doc.Limits{})) {
			return nil
		}
	}
	root := launchRoot(p, folder)
	fsys, rel, done := openEditorTree(root, p, read)
	if fsys == nil {
		return nil
	}
	defer done()
	cands := readersOf(fsys, []string{rel}, editorCodeFiles(root, fsys))
	specs, _ := compose.Discover(fsys, cands)
	cache := compose.NewCache()
	var out []lsp.Run
	for _, s := range specs {
		if !compose.IsCodeConfig(s.Primary) {
			continue
		}
		run := cache.Compose(fsys, s.Primary, nil, compose.Limits{})
		if run.File(rel) == nil {
			continue
		}
		out = append(out, lsp.Run{Root: root, Files: runFiles(root, s.Primary, run)})
		if len(out) == maxCodeRuns {
			break
		}
	}
	return out
}

// maxEditorRecipes bounds the YAML and JSON files the editor reads, on each change of a JSON
// file, for the recipes that name it.
const maxEditorRecipes = 2000

// editorRecipes are the YAML files and JSON recipes the editor reads for the recipes that name
// an edited JSON file: those a walk of root lints (as check's search, widenJoined); past
// maxEditorRecipes YAML files, the nearest maxRunCandidates of them (filesBelow) and the JSON
// recipes.
func editorRecipes(root string, fsys compose.FS) []string {
	var yaml, json []string
	walked := walkedFiles(root)
	for _, f := range walked {
		switch {
		case isYAMLPath(f):
			yaml = append(yaml, f)
		case compose.IsRecipePath(f) && jsonRecipeFile(filepath.Join(root, filepath.FromSlash(f))) != nil:
			// a JSON file only when it is a recipe (jsonRecipeFile): a repository's data
			// files are neither read into the tree on each change nor counted
			json = append(json, f)
		}
	}
	if len(walked) == 0 || len(yaml) > maxEditorRecipes {
		yaml = filesBelow(fsys, joinWalkDepth, maxRunCandidates, isYAMLPath)
	}
	return append(yaml, json...)
}

// editorCodeFiles are the code configs the editor searches for the readers of a file below
// root: those a walk of root lints (as check's search, widenCode: .gitignore honoured), or,
// past maxCodeFiles of them, the nearest maxCodeFiles (filesBelow), so that a lint on each
// change stays bounded.
func editorCodeFiles(root string, fsys compose.FS) []string {
	all := keepPaths(walkedFiles(root), compose.IsCodeConfig)
	if len(all) == 0 || len(all) > maxCodeFiles {
		return filesBelow(fsys, codeWalkDepth, maxCodeFiles, compose.IsCodeConfig)
	}
	return all
}

// readersOf lists rels and the files among all (nearest first, as filesBelow lists them, or in
// a walk's order) that may read one of them, in all's order: those whose text names a rel's
// file (its name without extension as a whole name, as a `_base_` path, a read_base import or
// a gin include names it), then those that name one of them in a reference (refNames), and so
// on. A config built on a base that is built on rel does not name rel: without it, the base's
// partial run (its own values over rel's) would be linted in its place, and its findings in
// rel would not be the ones check makes (a leaf that overrides rel's eval batch). A name with
// other characters in it (regnetx_4.0gf) is searched for in the texts, between characters
// that cannot be part of a name.
func readersOf(fsys compose.FS, rels []string, all []string) []string {
	stemOf := func(f string) string { return strings.TrimSuffix(path.Base(f), path.Ext(f)) }
	in := map[string]bool{}
	seen := map[string]bool{} // stems looked for
	words := map[string]bool{}
	var odd []string // stems that are not one name
	for _, r := range rels {
		in[r] = true
		s := stemOf(r)
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		if isName(s) {
			words[s] = true
		} else {
			odd = append(odd, s)
		}
	}
	texts := make([]string, len(all))
	named := map[string][]int{} // a name a file refers to -> the files that refer to it
	var next []string           // stems to look for
	for i, f := range all {
		if in[f] {
			continue
		}
		b, err := fsys.ReadFile(f)
		if err != nil {
			continue
		}
		text := string(b)
		texts[i] = text
		if hasName(text, words) || slices.ContainsFunc(odd, func(s string) bool { return hasDelimited(text, s) }) {
			in[f] = true
			next = append(next, stemOf(f))
			continue
		}
		for _, n := range refNames(text) {
			if l := named[n]; len(l) == 0 || l[len(l)-1] != i {
				named[n] = append(l, i)
			}
		}
	}
	for len(next) > 0 {
		s := next[len(next)-1]
		next = next[:len(next)-1]
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		add := func(i int) {
			if f := all[i]; !in[f] {
				in[f] = true
				next = append(next, stemOf(f))
			}
		}
		if isName(s) {
			for _, i := range named[s] {
				add(i)
			}
			continue
		}
		for i, text := range texts {
			if text != "" && !in[all[i]] && hasDelimited(text, s) {
				add(i)
			}
		}
	}
	out := slices.Clone(rels)
	for _, f := range all {
		if in[f] && !slices.Contains(rels, f) {
			out = append(out, f)
		}
	}
	return out
}

// isName reports whether s is one name (no character notNameChar refuses).
func isName(s string) bool {
	return s != "" && strings.IndexFunc(s, notNameChar) < 0
}

// hasName reports whether one of the names in set occurs in text as a whole name.
func hasName(text string, set map[string]bool) bool {
	if len(set) == 0 {
		return false
	}
	for i := 0; i < len(text); {
		if notNameChar(rune(text[i])) {
			i++
			continue
		}
		j := i
		for j < len(text) && !notNameChar(rune(text[j])) {
			j++
		}
		if set[text[i:j]] {
			return true
		}
		i = j
	}
	return false
}

// hasDelimited reports whether s occurs in text with no name character right before or after.
func hasDelimited(text, s string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], s)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(s)
		if (j == 0 || notNameChar(rune(text[j-1]))) && (end == len(text) || notNameChar(rune(text[end]))) {
			return true
		}
		i = j + 1
	}
}

// refNames lists the names of files a code config's text may refer to: the name before each
// ".py" or ".gin" (a `_base_` path, an include), and every name on a line that starts with
// `from` or `import` (a read_base import, `from ._base_ import sched`). A name is a run of
// letters, digits, _, - and non-ASCII characters; one with a dot of its own (x.v2.py) is
// listed up to the dot before the extension only, so its readers are found by the substring
// search of the first round or not at all.
func refNames(text string) []string {
	var out []string
	for _, ext := range []string{".py", ".gin"} {
		for i := 0; ; {
			j := strings.Index(text[i:], ext)
			if j < 0 {
				break
			}
			j += i
			i = j + len(ext)
			if i < len(text) && !notNameChar(rune(text[i])) {
				continue // .pyx, .ginfo
			}
			k := j
			for k > 0 && !notNameChar(rune(text[k-1])) {
				k--
			}
			if k < j {
				out = append(out, text[k:j])
			}
		}
	}
	for line := range strings.Lines(text) {
		l := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(l, "from ") || strings.HasPrefix(l, "import ") {
			out = append(out, strings.FieldsFunc(l, notNameChar)...)
		}
	}
	return out
}

// notNameChar reports whether r cannot be part of a file's name without extension as a
// config names it (letters, digits, _, - and non-ASCII characters can).
func notNameChar(r rune) bool {
	return !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80)
}

// readByOthers reports whether a parsed Python file is one other configs may read, so that
// its readers are searched for: a config, a get_config built through another module's
// functions, or a module of ml_collections functions (compose's code_calls.go). A script or a
// package module is not.
func readByOthers(d *doc.Document) bool {
	return doc.IsPythonConfig(d) || len(d.Calls) > 0 || importsModule(d, "ml_collections")
}

// importsModule reports whether a Python document imports the module mod or one of its
// submodules.
func importsModule(d *doc.Document, mod string) bool {
	for _, r := range d.Refs {
		if r.Kind == "import" && (r.Target == mod || strings.HasPrefix(r.Target, mod+".")) {
			return true
		}
	}
	return false
}

// openEditorTree opens root as the editor sees it (editorFS: confined by os.Root, files read
// through the editor) and gives p's slash path in it; nil when p is not inside root or root
// cannot be opened. done closes it.
func openEditorTree(root, p string, read func(string) ([]byte, bool)) (fsys *editorFS, rel string, done func()) {
	rel, err := filepath.Rel(root, p)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, "", nil
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, "", nil
	}
	fsys = &editorFS{FS: r.FS(), root: r, dir: root, read: read, max: int64(doc.DefaultLimits.MaxBytes)}
	return fsys, filepath.ToSlash(rel), func() { r.Close() }
}

// runFiles lists a composed run's files as the editor names them: the primary first, then the
// others in path order.
func runFiles(root, primary string, run *compose.Run) []string {
	var others []string
	for _, d := range run.Files {
		if d.Path != primary {
			others = append(others, filepath.Join(root, filepath.FromSlash(d.Path)))
		}
	}
	for _, p := range run.Elsewhere {
		// (the linted run must see them to leave them unknown, as check does)
		others = append(others, filepath.Join(root, filepath.FromSlash(p)))
	}
	sort.Strings(others)
	return append([]string{filepath.Join(root, filepath.FromSlash(primary))}, others...)
}
