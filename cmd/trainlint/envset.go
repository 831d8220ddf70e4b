package main

import (
	"path/filepath"
	"regexp"
	"strings"
)

var (
	// rootSetupCall: ashleve's rootutils (and pyrootutils before it) finding the project root
	// and setting it up, `rootutils.setup_root(__file__, ...)`, `set_root(` or `autosetup(`.
	rootSetupCall = regexp.MustCompile(`\b(?:py)?rootutils\.(?:setup_root|set_root|autosetup)\s*\(|(?m)^[ \t]*(?:[A-Za-z_][A-Za-z0-9_]*\s*=\s*)?(?:setup_root|set_root|autosetup)\s*\(`)
	// rootSetupImport: a rootutils import of one of them, or autoroot's import, which calls
	// setup_root on import.
	rootSetupImport = regexp.MustCompile(`(?m)^[ \t]*(?:import[ \t]+(?:py)?rootutils\b|from[ \t]+(?:py)?rootutils[ \t]+import\b|import[ \t]+autoroot(?:cwd)?\b)`)
	// autorootImport: `import autoroot` or `import autorootcwd`.
	autorootImport = regexp.MustCompile(`(?m)^[ \t]*import[ \t]+autoroot(?:cwd)?\b`)
	// envAssign: a module-level assignment of an environment variable,
	// `os.environ["X"] = ...` or `os.environ.setdefault("X", ...)`.
	envAssign = regexp.MustCompile(`(?m)^os\.environ(?:\[\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*\]\s*=[^=]|\.setdefault\(\s*["']([A-Za-z_][A-Za-z0-9_]*)["'])`)
)

// envSetBy adds to set the environment variables a Python file of the repository sets before a
// Hydra app composes its config, so that ${oc.env:X} has a value there
// (lint.Options.EnvSet). rootutils sets PROJECT_ROOT to the root it finds unless the call
// passes project_root_env_var=False (ashleve/rootutils 222b8c3 rootutils/rootutils.py set_root:
// `os.environ["PROJECT_ROOT"] = path`; setup_root and autosetup call it with
// project_root_env_var=True by default; pyrootutils is the same code under its older name, and
// `import autoroot` calls it on import): the lightning-hydra-template's train.py does so at
// module level, before @hydra.main composes configs/paths/default.yaml's
// ${oc.env:PROJECT_ROOT}. A module-level os.environ assignment in a file that uses Hydra counts
// too (module code runs before the decorated main is called); one inside a function may run
// after composing, and is not read.
func envSetBy(text string, set map[string]bool) map[string]bool {
	add := func(name string) {
		if set == nil {
			set = map[string]bool{}
		}
		set[name] = true
	}
	if strings.Contains(text, "rootutils") || strings.Contains(text, "autoroot") {
		if autorootImport.MatchString(text) {
			add("PROJECT_ROOT")
		} else if rootSetupImport.MatchString(text) {
			for _, at := range rootSetupCall.FindAllStringIndex(text, -1) {
				if !hasArg(callArgs(text[at[1]:]), "project_root_env_var=False") {
					add("PROJECT_ROOT")
					break
				}
			}
		}
	}
	if strings.Contains(text, "hydra") && strings.Contains(text, "os.environ") {
		for _, m := range envAssign.FindAllStringSubmatch(text, -1) {
			add(m[1] + m[2])
		}
	}
	return set
}

// hasArg reports an argument among a call's arguments (trainer.go's callArgs) that reads want
// once its blanks are dropped: "force_add=True" for `force_add = True`.
func hasArg(args []string, want string) bool {
	for _, a := range args {
		if strings.Join(strings.Fields(a), "") == want {
			return true
		}
	}
	return false
}

// envModules carries module-level environment assignments across a repository's files: a file
// that does not use Hydra may set a variable on import (alex-hh/profam's profam/constants.py,
// `os.environ.setdefault("PROFAM_TOKENIZER_FILE", ...)` at module level), and a Hydra app that
// imports that module at its top (`from profam import constants`) composes after it ran.
// Only such a direct import counts; a module the app reaches through another is not followed.
type envModules struct {
	sets    map[string][]string // module path ("profam.constants", from the repository root) -> names
	imports map[string]bool     // modules the Hydra apps import at module level
}

// read records what the file p (under root) of text sets or, when it uses Hydra, imports.
func (e *envModules) read(root, p, text string) {
	if strings.Contains(text, "hydra") {
		for _, m := range moduleImport.FindAllStringSubmatch(text, -1) {
			if m[3] != "" {
				e.add(&e.imports, m[3])
				continue
			}
			if strings.HasPrefix(m[1], ".") {
				continue // a relative import: which module it names depends on the package
			}
			e.add(&e.imports, m[1])
			list := lineComment.ReplaceAllString(m[2], "")
			for _, name := range strings.Split(strings.Trim(list, " \t\n()\\"), ",") {
				if name, _, _ = strings.Cut(strings.TrimSpace(name), " "); name != "" && name != "*" {
					e.add(&e.imports, m[1]+"."+name)
				}
			}
		}
		return // its own assignments are envSetBy's
	}
	if !strings.Contains(text, "os.environ") {
		return
	}
	var names []string
	for _, m := range envAssign.FindAllStringSubmatch(text, -1) {
		names = append(names, m[1]+m[2])
	}
	if len(names) == 0 {
		return
	}
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return
	}
	mod := strings.TrimSuffix(strings.ReplaceAll(strings.TrimSuffix(filepath.ToSlash(rel), ".py"), "/", "."), ".__init__")
	if e.sets == nil {
		e.sets = map[string][]string{}
	}
	e.sets[mod] = append(e.sets[mod], names...)
}

func (e *envModules) add(m *map[string]bool, mod string) {
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[mod] = true
}

// into adds to set the variables of the modules a Hydra app imports: a module's path matches
// an import equal to it or ending it (src/profam/constants.py is imported as profam.constants).
func (e *envModules) into(set map[string]bool) map[string]bool {
	for mod, names := range e.sets {
		for imp := range e.imports {
			if mod == imp || strings.HasSuffix(mod, "."+imp) {
				for _, n := range names {
					if set == nil {
						set = map[string]bool{}
					}
					set[n] = true
				}
				break
			}
		}
	}
	return set
}

// moduleImport: a module-level import, `from a.b import c, d` or `from a.b import (c,\n d)`
// (groups 1 and 2), or `import a.b` (group 3).
var moduleImport = regexp.MustCompile(`(?m)^(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)|import[ \t]+([\w.]+))`)

// lineComment is a comment to the end of its line (in an import's parenthesized list).
var lineComment = regexp.MustCompile(`#[^\n]*`)
