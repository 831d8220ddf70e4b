package compose

import "strings"

// Hydra's config search path (hydra/_internal/config_loader_impl.py
// _process_config_searchpath and utils.py create_config_search_path at v1.3.2): a config or
// group option is looked up in Hydra's own package, then the primary config's folder, then
// each entry of the primary file's own `hydra.searchpath` list in order (the raw file, before
// its defaults list is read), and the first folder that has it wins. An entry is
// `pkg://dotted.module` (the folder of an importable package) or `file://path` (no scheme
// reads as file://; a relative path is relative to the launch's working folder).
//
// Resolved here: a pkg:// entry whose module is a folder of the tree (from the root, from
// src/, or from a folder above the primary config), and a relative file:// entry that is a
// folder from the root (where a launch usually runs, as for files named by keys). Any other
// entry (an installed package, an absolute path, an interpolation, a command-line
// hydra.searchpath) is open: a config missing from the folders read may be found through it,
// so it is not reported missing; what it would set is not known (its package is
// Run.Unknown, or the run is Partial when it would merge at the root), and the open entry is
// reported once.

// searchOpened reports an entry of the search path that is not read (searchpath.go).
func (c *composer) searchOpened() bool { return c.searchOpen != nil || c.searchCLI != "" }

// folders are where configs are looked up, in order: the scripts' config_path folder when the
// primary is run with --config-dir (c.main), the config directory, then the hydra.searchpath
// folders read.
func (c *composer) folders() []string {
	if c.main != "" {
		return append([]string{c.main, c.dir}, c.search...)
	}
	return append([]string{c.dir}, c.search...)
}

// locate resolves a config name as Hydra's search path does: the path in the first of the
// folders that has the file; when none has it, the config directory's path (found false). ok
// is false for a name that leaves the config directory.
func (c *composer) locate(rel string) (p string, found, ok bool) {
	p, ok = c.configPath(rel)
	if !ok {
		return "", false, false
	}
	for _, d := range c.folders() {
		if q, ok := configPathIn(d, rel); ok && c.exists(q) {
			return q, true, true
		}
	}
	return p, false, true
}

// primaryHas reports whether the primary file itself sets the top-level key: an override of it
// sets that value, whatever groups an unread search path entry may hold.
func (c *composer) primaryHas(key string) bool {
	d, ok := c.parse(c.primary)
	return ok && d.Root.Get(key) != nil
}

// under reports the slash path p inside the folder d ("." holds every path).
func under(p, d string) bool { return d == "." || strings.HasPrefix(p, d+"/") }
