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
// Hydra refuses it before it composes anything.
func (c *composer) readSearchPath(primary string, overrides []string) {
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
		mod := strings.ReplaceAll(strings.TrimSpace(rest), ".", "/")
		if mod == "" {
			return "", false
		}
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
	if c.searchCLI != "" {
		c.problem(Unresolved, from, ref, "config "+quote(name)+" was not found in the folders read, and the command line's hydra.searchpath ("+quote(c.searchCLI)+") is not read: what it sets is not known")
		return
	}
	for _, p := range c.run.Problems {
		if p.File == c.run.Primary && p.Span == c.searchOpen.Span {
			return // reported for the first config missing
		}
	}
	c.problem(Unresolved, c.run.Primary, c.searchOpen.Span, "hydra.searchpath entry "+quote(c.searchOpen.Value)+" names no folder of this tree, and Hydra may find "+quote(name)+" there (and any other config no folder here holds): what they set is not known")
}

// searchRoots drops from Discover's roots the configs that lie in another root's
// hydra.searchpath folders (navsim's common/default_common.yaml, with a defaults list of its
// own, is read inside the training and scoring runs, not run alone), unless a folder also
// holds the root that names it; dirs are those folders, whose files are fragments.
func searchRoots(pc *composer, roots []string) (kept, dirs []string) {
	for _, r := range roots {
		d, _ := pc.parse(r)
		ds, _, _ := searchPathOf(pc.fsys, r, d)
		for _, d := range ds {
			if !under(r, d) {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) == 0 {
		return roots, nil
	}
	for _, r := range roots {
		if !underAny(r, dirs) {
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

func under(p, d string) bool { return d == "." || strings.HasPrefix(p, d+"/") }
