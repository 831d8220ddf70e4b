//go:build !trainlint_lite

package compose

import (
	"io/fs"
	"path"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// readSearchPath reads the primary file's hydra.searchpath into c.search (folders of the
// tree) and c.searchOpen (the first entry not resolved; the command line's list, which
// replaces the file's, in c.searchCLI); a value that is not a list of strings is refused, as
// Hydra refuses it before it composes anything. The scripts' config_path folder main
// (Cache.MainDir) is c.main when configDir says the primary is run with --config-dir.
func (c *composer) readSearchPath(primary string, overrides []string, main string) {
	if c.configDir(primary, main) {
		c.main = main
	}
	for _, o := range overrides {
		if k, _, _ := strings.Cut(strings.TrimLeft(o, "+~"), "="); strings.TrimSpace(k) == "hydra.searchpath" {
			c.searchCLI = o
			return
		}
	}
	d, _ := c.parse(primary)
	var bad *doc.Node
	c.search, c.searchOpen, bad = searchPathOf(c.fsys, primary, d)
	if bad != nil {
		c.problem(Refused, primary, bad.Span, "hydra.searchpath must be a list of strings: Hydra stops before it composes the run")
	}
}

// configDir reports whether the primary config is run with main, the folder every
// @hydra.main of the repository names as config_path (Cache.MainDir), first on its search
// path. A script's config_path is the "main" entry of Hydra's search path, and --config-dir
// adds its folder after it, before hydra.searchpath's entries (hydra/_internal/utils.py at
// v1.3.2: create_config_search_path appends ("main", <the script's folder>/config_path) at
// :201, and _run_hydra's add_conf_dir inserts the command line's folder before the schema
// entry at :341-352; v1.1.2 :192, :328-339; config_loader_impl.py v1.3.2 :207-211 appends
// hydra.searchpath's entries after them), and a config or group option is read from the first
// entry that has it (config_repository.py _find_object_source, :124-139 in both). Such a
// script launches a primary outside main with --config-dir naming the primary's folder (naver/
// splade: main_config/two_msmarco/splade_default.yaml, its options in conf/): that launch is
// the one assumed here. A launch with --config-path instead replaces main (utils.py :321,
// v1.1.2 :313) and reads only the primary's folder, so an option both folders hold would come
// from the primary's; such a launch fails on any option main alone holds. Not when either
// folder holds the other, nor when main has a config of the primary's name, which
// --config-name then loads in its place.
func (c *composer) configDir(primary, main string) bool {
	dir := path.Dir(primary)
	if main == "" || !fs.ValidPath(main) || under(primary, main) || main == dir || under(main, dir) {
		return false
	}
	if ents, err := c.fsys.ReadDir(main); err != nil || len(ents) == 0 {
		return false
	}
	p, ok := configPathIn(main, path.Base(primary))
	return ok && !c.exists(p)
}

// searchPathOf reads a primary config's hydra.searchpath: the folders of fsys its entries
// name, the first entry naming none (open), or the value Hydra refuses (bad: not a list of
// strings; then no folder).
func searchPathOf(fsys FS, primary string, d *doc.Document) (dirs []string, open, bad *doc.Node) {
	if d == nil || d.Root == nil {
		return nil, nil, nil
	}
	sp := d.Root.Get("hydra").Get("searchpath")
	if sp == nil || sp.IsNull() {
		return nil, nil, nil
	}
	if sp.Kind != doc.Seq {
		return nil, nil, sp
	}
	for _, e := range sp.Children {
		if e.Kind != doc.Scalar || e.Type != doc.String && e.Type != doc.Unknown {
			return nil, nil, e
		}
		if dir, ok := searchDir(fsys, e.Value, primary); ok {
			dirs = append(dirs, dir)
		} else if open == nil {
			open = e
		}
	}
	return dirs, open, nil
}

// searchDir resolves one hydra.searchpath entry of the primary config to a folder of fsys.
func searchDir(fsys FS, entry, primary string) (string, bool) {
	if strings.Contains(entry, "${") {
		return "", false
	}
	scheme, rest, found := strings.Cut(entry, "://")
	if !found {
		scheme, rest = "file", entry
	}
	var cands []string
	switch scheme {
	case "pkg":
		// Hydra turns / into . and drops trailing dots (importlib_resources_config_source.py).
		mod := strings.TrimRight(strings.ReplaceAll(strings.TrimSpace(rest), "/", "."), ".")
		for _, part := range strings.Split(mod, ".") {
			if part == "" || !isIdent(part) {
				return "", false // no module Python imports
			}
		}
		mod = strings.ReplaceAll(mod, ".", "/")
		for d := path.Dir(primary); ; d = path.Dir(d) {
			cands = append(cands, path.Join(d, mod))
			if d == "." || d == "/" || d == "" {
				break
			}
		}
		cands = append(cands, path.Join("src", mod))
	case "file":
		if strings.HasPrefix(rest, "/") || strings.Contains(rest, "\\") {
			return "", false
		}
		cands = []string{path.Clean(rest)}
	default:
		return "", false // structured:// (Python's ConfigStore) and other schemes
	}
	for _, d := range cands {
		if !fs.ValidPath(d) {
			continue
		}
		if ents, err := fsys.ReadDir(d); err == nil && len(ents) > 0 {
			return d, true
		}
	}
	return "", false
}

// missingOnSearchPath handles a config found in no folder read while a hydra.searchpath entry
// is open: Hydra may find it through that entry, so it is not reported missing; its package
// (pkg, group: unknownPackage) is not known, and the entry is reported once, with the first
// config missing.
func (c *composer) missingOnSearchPath(name, group, pkg, from string, ref doc.Span) {
	c.unknownPackage(group, pkg)
	if c.searchReported {
		return // reported for the first config missing
	}
	c.searchReported = true
	if c.searchCLI != "" {
		c.problem(Unresolved, from, ref, "config "+quote(name)+" was not found in the folders read, and the command line's hydra.searchpath ("+quote(c.searchCLI)+") is not read: what it sets is not known")
		return
	}
	where := " names no folder of this tree"
	if strings.Contains(c.searchOpen.Value, "${") {
		// (RLinf's file://${oc.env:REPO_PATH}/examples/embodiment/config/: which folder it is,
		// the launch's environment says)
		where = " is a folder the launch's environment or config names"
	}
	c.problem(Unresolved, c.run.Primary, c.searchOpen.Span, "hydra.searchpath entry "+quote(c.searchOpen.Value)+where+", and Hydra may find "+quote(name)+" there (and any other config no folder here holds): what they set is not known")
}

// searchRoots drops from Discover's roots the configs another root reads through its
// hydra.searchpath: a config at the top of one of its folders that its defaults list names
// (navsim's common/default_common.yaml, with a defaults list of its own, is read inside the
// training and scoring runs, not run alone), or one inside a group folder there that its list
// chooses from. Other roots in those folders stay runs (a search folder may hold a primary
// launched on its own). dirs are the folders, whose files are fragments (of a folder that
// holds the primary, only the folders of the groups it chooses).
func searchRoots(pc *composer, roots []string, text map[string][]byte) (kept, dirs []string) {
	drop := map[string]bool{}
	for _, q := range roots {
		d, _ := pc.parse(q)
		ds, _, _ := searchPathOf(pc.fsys, q, d)
		if len(ds) == 0 {
			continue
		}
		names := map[string]bool{}
		for _, n := range defaultsNames(text[q]) {
			names[strings.TrimPrefix(n, "/")] = true
		}
		groups := map[string]bool{}
		addListedGroups(groups, text[q])
		for _, dir := range ds {
			// A folder that holds the primary itself (Stoix's cfg/, searched by
			// cfg/default/main.yaml) is not all options: only its folders of the groups the
			// primary chooses are, and their files are fragments (a config there that names a
			// group of its own, env/kin/small.yaml's `kin/train: s`, is composed inside the
			// primary's runs, where Hydra resolves it against its group, env).
			holds := under(q, dir)
			if !holds {
				dirs = append(dirs, dir)
			}
			for g := range groups {
				if gd := path.Join(dir, g); holds && g != "" && !under(q, gd) && fs.ValidPath(gd) {
					if ents, err := pc.fsys.ReadDir(gd); err == nil && len(ents) > 0 {
						dirs = append(dirs, gd)
					}
				}
			}
			for _, r := range roots {
				rel, ok := RelIn(r, dir)
				if !ok || r == q {
					continue
				}
				first, _, nested := strings.Cut(rel, "/")
				if holds {
					if nested && groups[first] && !under(q, path.Join(dir, first)) {
						drop[r] = true
					}
					continue
				}
				if nested && groups[first] || !nested && names[strings.TrimSuffix(rel, path.Ext(rel))] {
					drop[r] = true
				}
			}
		}
	}
	for _, r := range roots {
		if !drop[r] {
			kept = append(kept, r)
		}
	}
	return kept, dirs
}

// underAny reports whether p lies in one of the folders (at any depth); every path is under ".".
func underAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if under(p, d) {
			return true
		}
	}
	return false
}

// RelIn is the slash path p relative to the folder d ("." holding everything), and whether p is
// under d.
func RelIn(p, d string) (string, bool) {
	if d == "." {
		return p, true
	}
	return strings.CutPrefix(p, d+"/")
}

// isIdent reports a Python identifier of ASCII letters, digits and underscores.
func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
