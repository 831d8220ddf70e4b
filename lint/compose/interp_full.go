//go:build !trainlint_lite

package compose

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// noteChoice records the option loaded for an entry, by its override key (the first wins, as
// Hydra's known choices keep the first).
func (c *composer) noteChoice(key, opt string) {
	if c.known == nil {
		c.known = map[string]string{}
	}
	if c.known[key] == "" {
		c.known[key] = opt
	}
}

// listInterpolation reports an interpolated option in a list of options, which Hydra refuses
// (defaults_list.py at v1.3.2).
func (c *composer) listInterpolation(file string, o *doc.Node, opt, group string) {
	c.problem(Refused, file, o.Span, "option "+quote(opt)+" of group "+quote(group)+" is an interpolation in a list of options: Hydra stops at start-up (\"Defaults List interpolation is not supported in options list items\")")
}

// interpolateOption resolves a defaults-list option that interpolates other groups' choices
// (`dataset_model: ${dataset}_${model}`; Hydra 1.1 and later, hydra/_internal/defaults_list.py
// at v1.3.2: the interpolation is resolved against the choices of the other entries once they
// are known, whatever their order in the list). A choice comes from the command line or an
// experiment's override, from an option already loaded, or from an entry of a defaults list
// being read. What else Hydra allows (the deprecated ${defaults.0.group}, resolvers) is not
// resolved: bad says why.
func (c *composer) interpolateOption(opt string) (out, bad string) {
	var b strings.Builder
	for rest := opt; ; {
		i := strings.Index(rest, "${")
		if i < 0 {
			b.WriteString(rest)
			return b.String(), ""
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return "", "its interpolation is not closed"
		}
		name := strings.TrimSpace(rest[i+2 : i+j])
		v, ok := c.choiceOf(name)
		if !ok {
			if strings.ContainsAny(name, ":${") || strings.HasPrefix(name, "defaults.") {
				return "", "trainlint does not resolve ${" + name + "} in a defaults list"
			}
			return "", "no choice for group " + quote(name) + " found (Hydra stops at start-up unless the command line chooses one)"
		}
		b.WriteString(rest[:i])
		b.WriteString(v)
		rest = rest[i+j+1:]
	}
}

// choiceOf is the option chosen for a group (an override key: group or group@pkg).
func (c *composer) choiceOf(key string) (string, bool) {
	if key == "" || strings.ContainsAny(key, ":${") || strings.HasPrefix(key, "defaults.") {
		return "", false
	}
	if v, ok := c.known[key]; ok {
		return v, true
	}
	for i := len(c.lists) - 1; i >= 0; i-- {
		if v, ok := c.lists[i][key]; ok {
			return v, true
		}
	}
	return "", false
}

// listChoices are the options a defaults list chooses for its groups (one plain option each,
// by override key; the primary's with the command line's +group=option), read before any
// entry loads.
func (c *composer) listChoices(defaults *doc.Node, cdir, parentPkg string, primary bool) map[string]string {
	m := map[string]string{}
	if primary {
		// The command line's +group=option entries join the primary's list.
		for _, a := range c.appended {
			final := dotted(a.group)
			if a.pkg != "" {
				final = resolvePackage(a.pkg, "", a.group)
			}
			m[overrideKey(a.group, final)] = a.option
		}
	}
	for _, item := range defaults.Children {
		if item.Kind != doc.Map || len(item.Children) != 1 || item.Children[0].Kind != doc.Scalar || item.Children[0].IsNull() {
			continue
		}
		kv := item.Children[0]
		opt, _ := kv.Str()
		key := strings.TrimSpace(kv.Key)
		for _, w := range []string{"optional ", "override "} {
			key = strings.TrimSpace(strings.TrimPrefix(key, w))
		}
		if strings.Contains(opt, "${") || strings.Contains(key, "${") {
			continue
		}
		pkg := ""
		if i := strings.IndexByte(key, '@'); i >= 0 {
			key, pkg = key[:i], key[i+1:]
		}
		group := strings.TrimPrefix(key, "/")
		if !strings.HasPrefix(key, "/") {
			group = joinGroup(cdir, key)
		}
		final := joinPackage(parentPkg, dotted(strings.TrimPrefix(key, "/")))
		if pkg != "" {
			final = resolvePackage(pkg, parentPkg, group)
		}
		okey := overrideKey(group, final)
		// What the command line (or an experiment's override entry) chooses for the entry.
		if v, ok := c.pkgChoice[okey]; ok {
			opt = v
		} else if v, ok := c.choices[group]; ok && okey == group {
			opt = v
		}
		if okey == group && c.deleted[group] || c.pkgDeleted[okey] || opt == "" || strings.HasPrefix(opt, "[") {
			continue
		}
		m[okey] = opt
	}
	return m
}
