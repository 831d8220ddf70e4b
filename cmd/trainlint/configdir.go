package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The folder a repository's @hydra.main scripts name as config_path (lint.Options.HydraMainDir,
// compose.Cache.MainDir). Hydra puts it on the search path of every run such a script launches,
// relative to the script's own folder (hydra/_internal/utils.py compute_search_path_dir, :129-137
// at v1.3.2, :120-128 at v1.1.2), and a primary config kept outside it is launched with
// --config-dir, its options read from both folders (naver/splade's main_config/<exp>/*.yaml,
// their groups in conf/). Which script launches which primary is not known, so the folder is
// read only when every @hydra.main of the repository names the same one: a decorator whose
// config_path this reading cannot tell (missing, a pkg:// or absolute path, an expression), a
// NeMo hydra_runner or Hydra's compose API (initialize, whose folder is its own) anywhere in
// the repository, and the repository has none.

// configPathRE finds a decorator's config_path argument: its value up to the next argument.
var configPathRE = regexp.MustCompile(`\bconfig_path\s*=\s*([^,]*)`)

// composeAPIRE is an import of Hydra's compose API's initialize (hydra.initialize,
// initialize_config_dir, initialize_config_module).
var composeAPIRE = regexp.MustCompile(`\bfrom[ \t]+hydra(?:\.experimental)?[ \t]+import[^\n]*\binitialize|\bhydra\.(?:experimental\.)?initialize`)

// fromImportRE is a one-line `from module import a, b as c` statement.
var fromImportRE = regexp.MustCompile(`(?m)^from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+([^\n#(]*)`)

// mainDirsOf adds to dirs the folders (absolute, cleaned) that the @hydra.main decorators of
// the script at p (text) name as config_path, and reports whether it holds one whose folder this
// reading cannot tell, or another way of running Hydra (hydra_runner, the compose API).
//
// A decorator whose config_path is a name bound to several string literals (and maybe other
// values) adds the folders of those literals to cands: the folder the launch uses may be one.
func mainDirsOf(root, p, text string, dirs, cands map[string]bool) (unread bool) {
	if strings.Contains(text, "hydra_runner") || composeAPIRE.MatchString(text) {
		return true
	}
	mains := hydraMainRE.FindAllStringSubmatch(text, -1)
	for _, m := range mains {
		v := ""
		if a := configPathRE.FindStringSubmatch(m[1]); a != nil {
			v = a[1]
		} else if first, _, _ := strings.Cut(m[1], ","); !strings.Contains(first, "=") {
			v = first // config_path is the first positional argument (hydra/main.py)
		}
		v = strings.TrimSpace(v)
		path, ok := quotedValue(v)
		if !ok && isIdentifier(v) && v != "None" {
			path, ok = constantValue(root, p, text, v, mains)
			if !ok {
				for _, lit := range constantLiterals(root, p, text, v) {
					d := filepath.Join(filepath.Dir(p), filepath.FromSlash(lit))
					if fi, err := os.Stat(d); err == nil && fi.IsDir() && !strings.Contains(lit, "://") && !filepath.IsAbs(lit) {
						cands[d] = true
					}
				}
			}
		}
		if !ok || strings.Contains(path, "://") || filepath.IsAbs(path) {
			return true
		}
		d := filepath.Join(filepath.Dir(p), filepath.FromSlash(path))
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			// Hydra stops when the folder is missing ("Primary config directory not found":
			// config_loader_impl.py ensure_main_config_source_available, :106-131 at v1.3.2,
			// :107-131 at v1.1.2): the script launches no run (SPLADE's
			// splade/utils/index_figure.py, whose "../conf" is splade/conf).
			continue
		}
		dirs[d] = true
	}
	return false
}

// quotedValue is the text of a Python string literal without prefix or escapes ("conf").
func quotedValue(v string) (string, bool) {
	if len(v) < 2 || v[0] != v[len(v)-1] || v[0] != '"' && v[0] != '\'' || strings.ContainsAny(v[1:len(v)-1], `"'\`) {
		return "", false
	}
	return v[1 : len(v)-1], true
}

func isIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		if !identByte(s[i]) || i == 0 && s[i] >= '0' && s[i] <= '9' {
			return false
		}
	}
	return s != ""
}

// constantValue is the string a module-level name the script's decorators (mains) pass as
// config_path holds, when nothing can change it: the name is bound once, at the top of the
// script or of the module one `from m import name` line of it reads (found once, from the
// repository's root, src/ or the script's folder), to a string literal, and neither file names
// it anywhere else but in that import and in the decorators. SPLADE's CONFIG_PATH is bound a
// second time when an environment variable is set: its value is then not known.
func constantValue(root, p, text, name string, mains [][]string) (string, bool) {
	uses := 0
	for _, m := range mains {
		uses += wordCount(m[1], name)
	}
	if v, ok := boundOnce(text, name, uses); ok {
		return v, true
	}
	for _, m := range fromImportRE.FindAllStringSubmatch(text, -1) {
		imported := false
		for _, item := range strings.Split(m[2], ",") {
			imported = imported || strings.TrimSpace(item) == name
		}
		if !imported || wordCount(text, name) != wordCount(m[0], name)+uses {
			continue
		}
		found := importedModule(root, p, m[1])
		if found == "" {
			return "", false
		}
		if b, err := os.ReadFile(found); err == nil && len(b) <= scriptFileBytes {
			return boundOnce(string(b), name, 0)
		}
		return "", false
	}
	return "", false
}

// importedModule is the file of the module spec (`conf.CONFIG_CHOICE`, `..consts`) that the
// script at p imports, found from the repository's root, src/ or the script's folder (a
// relative spec from the script's package), or "" when none or two files could be it (which
// one Python imports depends on the launch).
func importedModule(root, p, spec string) string {
	mod := strings.TrimLeft(spec, ".")
	bases := []string{root, filepath.Join(root, "src"), filepath.Dir(p)}
	if dots := len(spec) - len(mod); dots > 0 {
		bases = []string{filepath.Dir(p)}
		for ; dots > 1; dots-- {
			bases[0] = filepath.Dir(bases[0])
		}
	}
	rel := filepath.FromSlash(strings.ReplaceAll(mod, ".", "/"))
	found := ""
	for _, b := range bases {
		for _, f := range []string{filepath.Join(b, rel+".py"), filepath.Join(b, rel, "__init__.py")} {
			if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() && f != found {
				if found != "" {
					return ""
				}
				found = f
			}
		}
	}
	return found
}

// constantLiterals are the string literals the module-level name is bound to at the top of the
// script (text) or of the module one `from m import name` line of it reads: naver/splade's
// conf/CONFIG_CHOICE.py binds CONFIG_PATH = "../conf", and again to the folder of a config an
// environment variable names, so constantValue says nothing, but a launch without that
// variable reads ../conf.
func constantLiterals(root, p, text, name string) []string {
	bound := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `[ \t]*=[ \t]*("[^"\\\n]*"|'[^'\\\n]*')[ \t]*(?:#.*)?$`)
	var out []string
	add := func(t string) {
		for _, m := range bound.FindAllStringSubmatch(t, -1) {
			out = append(out, m[1][1:len(m[1])-1])
		}
	}
	add(text)
	for _, m := range fromImportRE.FindAllStringSubmatch(text, -1) {
		for _, item := range strings.Split(m[2], ",") {
			if strings.TrimSpace(item) != name {
				continue
			}
			if f := importedModule(root, p, m[1]); f != "" {
				if b, err := os.ReadFile(f); err == nil && len(b) <= scriptFileBytes {
					add(string(b))
				}
			}
		}
	}
	return out
}

// boundOnce is the string literal a Python text binds name to at its top level (`name =
// "conf"`), when that line and uses other mentions are all the text has of the name.
func boundOnce(text, name string, uses int) (string, bool) {
	if wordCount(text, name) != 1+uses {
		return "", false
	}
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, name)
		if !ok || rest != "" && identByte(rest[0]) {
			continue
		}
		rest = strings.TrimSpace(rest)
		if rest, ok = strings.CutPrefix(rest, "="); !ok {
			return "", false
		}
		if i := strings.Index(rest, "#"); i >= 0 {
			rest = rest[:i]
		}
		return quotedValue(strings.TrimSpace(rest))
	}
	return "", false
}

// wordCount counts the mentions of the identifier w in text, as a whole word.
func wordCount(text, w string) int {
	n := 0
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return n
		}
		j += i
		if (j == 0 || !identByte(text[j-1])) && (j+len(w) == len(text) || !identByte(text[j+len(w)])) {
			n++
		}
		i = j + len(w)
	}
}

// hydraMainCandidates are the folders (slash paths relative to the folder dir, below it) a
// @hydra.main of dir's repository may name as config_path (repoPython.mainCandidates), when no
// one folder is known (hydraMainDir is ""): compose.Cache.MainCandidates.
func hydraMainCandidates(dir string) []string {
	abs, at := repoPythonAt(dir)
	if at == nil || at.hydraMain != "" {
		return nil
	}
	var out []string
	for _, c := range at.mainCandidates {
		if rel, err := filepath.Rel(abs, c); err == nil && filepath.IsLocal(rel) {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	sort.Strings(out)
	return out
}

// hydraMainDir is the folder (slash path relative to the folder dir) every @hydra.main of dir's
// repository names as config_path (repoPython.hydraMain), "" when there is none or it is not
// below dir.
func hydraMainDir(dir string) string {
	abs, at := repoPythonAt(dir)
	if at == nil || at.hydraMain == "" {
		return ""
	}
	main := at.hydraMain
	rel, err := filepath.Rel(abs, main)
	if err != nil || !filepath.IsLocal(rel) {
		return ""
	}
	return filepath.ToSlash(rel)
}
