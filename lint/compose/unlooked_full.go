//go:build !trainlint_lite

package compose

import (
	"path"
	"slices"
	"strings"
)

// unlookedUp drops the not-found problems of group options that Hydra's walk reaches only
// after an entry left to the command line, when every option of that entry's group overrides
// the missing option's group. Hydra walks a defaults list from its last entry
// (hydra/_internal/defaults_list.py:533 at v1.3.2, `for d in reversed(defaults_list)`) and
// stops at an unchosen `???` (_check_not_missing, :299-327: "You must specify 'experiment'"),
// so in a run choosing none the option is never looked up; in a run choosing one, the option's
// override entry, registered when Hydra loads it (_update_overrides, :514), replaces the choice
// before the entry is reached (override_default_option, :545), and the file is never read
// either (willyfh/lightning-hydra-boilerplate's train.yaml: `- trainer: default`, missing, then
// `- experiment: ???`, whose one option has `override /trainer: base`). An option of the group
// the tree does not hold (registered from Python, on a search path) may not override it: the
// problem stays.
func (c *composer) unlookedUp() {
	if len(c.unlooked.mandatory) == 0 || len(c.unlooked.missing) == 0 {
		return
	}
	first := c.unlooked.mandatory[0]
	for _, m := range c.unlooked.mandatory[1:] {
		if walkedBefore(m.pos, first.pos) {
			first = m
		}
	}
	drop := map[int]bool{}
	for _, e := range c.unlooked.missing {
		if walkedBefore(first.pos, e.pos) && c.everyOptionOverrides(first.group, e.group) {
			drop[e.problem] = true
		}
	}
	if len(drop) == 0 {
		return
	}
	kept := c.run.Problems[:0]
	for i, p := range c.run.Problems {
		if !drop[i] {
			kept = append(kept, p)
		}
	}
	c.run.Problems = kept
}

// everyOptionOverrides reports whether the group of the config directory has options, and each
// has an override entry for group in its top-level defaults list.
func (c *composer) everyOptionOverrides(of, group string) bool {
	if len(c.search) > 0 || c.searchOpen != nil || c.main != "" {
		return false
	}
	for k := range c.stored {
		if strings.HasPrefix(k, of+"/") {
			return false
		}
	}
	dir := path.Join(c.dir, of)
	ents, err := c.fsys.ReadDir(dir)
	if err != nil {
		return false
	}
	n := 0
	for _, e := range ents {
		if e.Dir || !isYAML(e.Name) {
			continue
		}
		b, err := c.fsys.ReadFile(path.Join(dir, e.Name))
		if err != nil || !slices.ContainsFunc(defaultsKeys(b), func(k string) bool {
			gk := readGroupKey(k, of, "")
			return gk.override && gk.group == group
		}) {
			return false
		}
		n++
	}
	return n > 0
}

// walkedBefore reports whether Hydra's walk reaches the entry at a before the one at b, neither
// inside the other's config.
func walkedBefore(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// walked is a defaults-list entry of a group at its place in Hydra's walk (entrySite.pos);
// problem is the index in the run's problems of the one it made.
type walked struct {
	group   string
	pos     []int
	problem int
}

// unlooked: the entries left to the command line (mandatory) and the group options not found
// (missing), with their places in Hydra's walk.
type unlooked struct{ mandatory, missing []walked }

// noteMissing records a group option not found, whose problem is the run's n-th.
func (c *composer) noteMissing(group string, n int) {
	c.unlooked.missing = append(c.unlooked.missing, walked{group, append([]int(nil), c.pos...), n})
}

// noteMandatory records an entry of group left to the command line.
func (c *composer) noteMandatory(group string) {
	c.unlooked.mandatory = append(c.unlooked.mandatory, walked{group: group, pos: append([]int(nil), c.pos...)})
}
