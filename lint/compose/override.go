package compose

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// valueOverride is a command-line override of a value (not of a group choice).
type valueOverride struct {
	text   string // as given
	key    string // dotted path
	add    bool   // +key=v: the key need not exist
	force  bool   // ++key=v
	delete bool   // ~key
	value  *doc.Node
}

// parseOverride reads one Hydra command-line override. Group choices (`experiment=x`,
// `+group=x`, `~group`) are recorded in the composer; value overrides are returned.
func (c *composer) parseOverride(o string) (valueOverride, bool) {
	v := valueOverride{text: o}
	s := strings.TrimSpace(o)
	switch {
	case strings.HasPrefix(s, "++"):
		v.force, s = true, s[2:]
	case strings.HasPrefix(s, "+"):
		v.add, s = true, s[1:]
	case strings.HasPrefix(s, "~"):
		v.delete, s = true, s[1:]
	}
	key, val, hasVal := strings.Cut(s, "=")
	// Hydra's key mode has no whitespace: none before the key, none after it (its value's
	// trailing whitespace is dropped, though).
	if !hasVal && !v.delete || o != strings.TrimLeft(o, " \t") || !hasVal && o != strings.TrimRight(o, " \t") || !hydraKey(key) {
		c.problem(Refused, "", doc.Span{}, "override "+quote(o)+" is not key=value with a key Hydra can read (names of letters, digits, _, - and $ joined by dots, or a group path a/b, then @package; no spaces before \"=\"): Hydra stops at start-up; the override was ignored")
		return v, false
	}
	if key == "" {
		c.problem(Unresolved, "", doc.Span{}, "override "+quote(o)+" has no key and was ignored")
		return v, false
	}
	written := strings.TrimPrefix(key, "/") // group@pkg as Hydra's messages name it
	pkg := strings.Contains(key, "@")
	pkgName := ""
	if pkg { // group@pkg=option: the package is matched against the defaults list's entries
		key, pkgName, _ = strings.Cut(key, "@")
	}
	group := strings.TrimPrefix(key, "/")
	isGroup := c.isGroup(group)
	if !isGroup && c.searchOpened() && !strings.Contains(key, ".") && !c.primaryHas(group) {
		// The group may be on an entry of hydra.searchpath this tree does not hold: what the
		// override does is not known.
		c.partialPre = true
		return v, false
	}
	if !isGroup && pkg {
		c.problem(Refused, "", doc.Span{}, "override "+quote(o)+" names a package, but "+quote(group)+" is not a config group: Hydra stops at start-up (\"looks like a config group override, but config group '"+group+"' does not exist\")")
		return v, false
	}
	if isGroup {
		val = strings.TrimSpace(val)
		if !v.add && !v.force {
			// Matched with the defaults lists' entries once they are composed (finishOverrides).
			c.toMatch = append(c.toMatch, groupOverride{text: o, written: written, group: group, pkg: pkgName, del: v.delete})
		}
		switch {
		case v.add:
			if !c.fixed[group] {
				c.appended = append(c.appended, groupChoice{o, group, val, pkgName})
			}
		case val == "null" && !v.delete:
			c.problem(Refused, "", doc.Span{}, "override "+quote(o)+" sets group "+quote(group)+" to null: Hydra stops at start-up (\"Config group override must be a string or a list. Got NoneType\"); write ~"+group+" to drop the group")
		case pkg && v.delete:
			c.pkgDeleted[group+"@"+pkgName] = true
		case pkg:
			c.pkgChoice[group+"@"+pkgName] = val
		case v.delete:
			c.deleted[group] = true
			c.fixed[group] = true
		default:
			c.choices[group] = val
			c.fixed[group] = true
		}
		return v, false
	}
	v.key = key
	if hasVal {
		// Read as Hydra reads a value (hydravalue.go), then as the YAML text that says the same.
		text, opaque, at, why := hydraValue(val)
		if at >= 0 {
			// Hydra's parser refuses it and the launch stops (TestHydraValueAgreesWithHydra holds
			// the reader to Hydra's parser): rejected-at-startup.
			// (Overrides are read before any pass: their problems go to c.pre.)
			c.pre = append(c.pre, Problem{Kind: Refused, Message: "override " + quote(o) + " is not a value Hydra can read (" + why + ", at character " +
				strconv.Itoa(at+1) + " of " + quote(val) + "): Hydra stops at start-up; the override was ignored",
				Help: "quote the override's value (key='a=b'): Hydra's override grammar reads a quoted value as a string, whatever characters it holds"})
			return v, false
		}
		if opaque {
			text = "null"
		}
		d := doc.ParseWith("override", []byte(text), doc.YAML, doc.Options{})
		if d.Root == nil || len(d.Problems) > 0 {
			c.problem(Unresolved, "", doc.Span{}, "override "+quote(o)+" has a value that cannot be read and was ignored")
			return v, false
		}
		if opaque {
			// A sweep or a function call: what it sets depends on the launch.
			d.Root.Type, d.Root.Value = doc.Unknown, val
		}
		v.value = d.Root
	}
	return v, true
}

// isGroup reports whether name is a config group: a folder of the config directory or of a
// hydra.searchpath folder.
func (c *composer) isGroup(name string) bool {
	for _, d := range c.folders() {
		p, ok := configPathIn(d, name)
		if !ok {
			return false
		}
		if ents, err := c.fsys.ReadDir(strings.TrimSuffix(p, ".yaml")); err == nil && len(ents) > 0 {
			return true
		}
	}
	return false
}

// applyValue applies a value override to the composed tree.
func (c *composer) applyValue(root *doc.Node, v valueOverride) {
	keys := strings.Split(v.key, ".")
	n := root
	for i, k := range keys {
		last := i == len(keys)-1
		ch := n.Step(k)
		if n.Kind == doc.Seq && (ch == nil || last && v.delete) {
			// OmegaConf.update reaches a list's items by index only: any other key, an index
			// past the end and a deletion of an item stop the launch (checked with Hydra 1.3.2).
			c.problem(Refused, "", doc.Span{}, "override "+quote(v.text)+" names "+quote(k)+" in the list "+quote(n.Path().String())+" (length "+itoa(len(n.Children))+"): Hydra stops at start-up (it reaches a list's items by index and deletes none)")
			return
		}
		if last {
			// Hydra applies the overrides to the composed config as config_loader_impl.py
			// _apply_overrides_to_config does (1.1.0 to 1.3.5): ~key and +key take a key set
			// to null for one not set at all (OmegaConf.select gives None for both). Checked
			// with Hydra 1.3.2 on lightning-hydra-template (TestComposeLikeHydra). A key whose
			// value is an interpolation is not judged (select resolves it).
			unset := ch == nil || ch.IsNull()
			judged := ch == nil || !(ch.Type == doc.Unknown && strings.Contains(ch.Value, "${"))
			if v.delete {
				if unset {
					c.deletesUnset(v)
					return
				}
				if v.value != nil && !v.value.IsNull() {
					// ~key=value deletes only a key of that value (Python's ==, so 10 is 10.0
					// and True is 1); scalars only, interpolations not judged.
					if eq, known := pyScalarEqual(ch, v.value); known && !eq {
						c.problem(Refused, "", doc.Span{}, "override "+quote(v.text)+" deletes "+quote(v.key)+" only if its value is "+quote(v.value.Value)+", but the run sets "+quote(ch.Value)+": Hydra stops at start-up (it deletes a key only when the value given matches: \"Could not delete from config. The value of '"+v.key+"' is ...\")")
						return
					}
				}
				removeChild(n, k)
				return
			}
			if ch == nil && !v.add && !v.force {
				// Hydra refuses this at start-up; the value is still applied so that the rules
				// see what the user meant, and the finding says why it will not run.
				c.problem(Refused, "", doc.Span{}, "override "+quote(v.text)+" sets "+quote(v.key)+", which the run does not have: Hydra stops at start-up (\"Could not override '"+v.key+"'. To append to your config use +"+v.text+"\")")
			}
			if v.add && !unset && judged && v.value.Kind != doc.Map && v.value.Kind != doc.Seq {
				c.problem(Refused, "", doc.Span{}, "override "+quote(v.text)+" adds "+quote(v.key)+", which the run already sets: Hydra stops at start-up (\"Could not append to config. An item is already at '"+v.key+"'\"); write ++ to add or replace it")
			}
			if ch != nil && ch.Kind != doc.Scalar && v.value.Kind != doc.Scalar && ch.Kind != v.value.Kind {
				// A mapping onto a list or a list onto a mapping: OmegaConf's merge refuses it.
				c.problem(Refused, "", doc.Span{}, "override "+quote(v.text)+" puts a "+kindName(v.value)+" where the run has a "+kindName(ch)+": Hydra stops at start-up (\"Error merging override "+v.text+"\")")
				return
			}
			if ch != nil && !v.add && !v.force && newKey(ch, v.value) {
				// Hydra's config is in struct mode while the overrides apply: a plain key=value
				// merge may not add keys (checked with Hydra 1.3.2).
				c.problem(Refused, "", doc.Span{}, "override "+quote(v.text)+" adds keys under "+quote(v.key)+", which a plain override may not: Hydra stops at start-up (\"Could not override '"+v.key+"'. To append to your config use +"+v.text+"\")")
			}
			// The value's spans are those of the override text, not of a file: clear them so
			// that findings fall back to the run's primary config.
			v.value.Walk(func(x *doc.Node) bool { x.Span, x.KeySpan = doc.Span{}, doc.Span{}; return true })
			// Hydra merges the value in (OmegaConf.update with merge=True): a mapping onto a
			// mapping keeps the keys it does not name; anything else replaces.
			v.value.Key = k
			o := Origin{File: c.run.Primary, Override: v.text}
			switch {
			case n.Kind != doc.Seq:
				c.mergeEntry(n, v.value, o)
			case ch.Kind == doc.Map && v.value.Kind == doc.Map:
				for _, e := range v.value.Children {
					c.mergeEntry(ch, e, o)
				}
			default:
				for i, x := range n.Children {
					if x == ch {
						cp := c.copyTree(v.value, o)
						cp.Parent, cp.Key, cp.Index = n, "", i
						n.Children[i] = cp
					}
				}
			}
			return
		}
		if ch == nil || ch.Kind != doc.Map && ch.Kind != doc.Seq {
			if v.delete {
				if ch == nil || ch.IsNull() {
					c.deletesUnset(v)
				}
				return
			}
			nm := newMap(n, k)
			c.run.origin[nm] = Origin{File: c.run.Primary, Override: v.text}
			if n.Kind == doc.Seq {
				// An item that is no container becomes a mapping in its place: Hydra 1.3.2
				// composes +y.0.a=1 over y: [1, 2] as [{a: 1}, 2].
				for i, x := range n.Children {
					if x == ch {
						nm.Key, nm.Index = "", i
						n.Children[i] = nm
					}
				}
			} else {
				setChild(n, k, nm)
			}
			ch = nm
		}
		n = ch
	}
}

// removeChild drops every child of n named key and renumbers the rest (overrides that delete a
// key, and the base and delete markers a code config composes away).
func removeChild(n *doc.Node, key string) {
	out := n.Children[:0]
	for _, ch := range n.Children {
		if ch.Key != key {
			ch.Index = len(out)
			out = append(out, ch)
		}
	}
	n.Children = out
}

// hydraKey reports whether Hydra's override grammar reads k as a key (OverrideParser.g4 key and
// OverrideLexer.g4's key mode, the same from 1.1.0 to 1.3.5): a package ("", a name of letters,
// digits, _, - and $ not starting with a digit or -, or such names and unsigned ints joined by
// dots) or a group path (names of letters, digits, _ and - joined by /), then optionally @ and a
// package. Anything else (a space, a bracket, a leading digit) stops Hydra's parse.
func hydraKey(k string) bool {
	group, pkg, at := strings.Cut(k, "@")
	if at && !hydraPackage(pkg) {
		return false
	}
	if hydraPackage(group) {
		return true
	}
	segs := strings.Split(group, "/")
	for _, seg := range segs {
		if !hydraName(seg) || strings.Contains(seg, "$") {
			return false
		}
	}
	return len(segs) > 1
}

// hydraPackage reports whether s is empty, a name, or names and unsigned ints joined by dots.
func hydraPackage(s string) bool {
	parts := strings.Split(s, ".")
	for _, p := range parts {
		digits := strings.ReplaceAll(p, "_", "")
		isInt := p == "0" || p != "" && p[0] >= '1' && p[0] <= '9' && !strings.Contains(p, "__") && !strings.HasSuffix(p, "_") && strings.Trim(digits, "0123456789") == ""
		if !(len(parts) == 1 && p == "") && !hydraName(p) && !(len(parts) > 1 && isInt) {
			return false
		}
	}
	return true
}

// hydraName reports whether s is a name: a letter, _ or $, then letters, digits, _, - and $.
func hydraName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c|0x20 >= 'a' && c|0x20 <= 'z' || c == '_' || c == '$' || i > 0 && (c >= '0' && c <= '9' || c == '-')) {
			return false
		}
	}
	return s != ""
}

// deletesUnset reports ~key for a key the run does not set, or sets to null, which Hydra refuses
// (OmegaConf.select gives None for both).
func (c *composer) deletesUnset(v valueOverride) {
	c.problem(Refused, "", doc.Span{}, "override "+quote(v.text)+" deletes "+quote(v.key)+", which the run does not set: Hydra stops at start-up (\"Could not delete from config. '"+v.key+"' does not exist.\")")
}

// kindName is "mapping" or "list".
func kindName(n *doc.Node) string {
	if n.Kind == doc.Map {
		return "mapping"
	}
	return "list"
}

// newKey reports whether merging mapping src into mapping dst would add a key dst lacks, at any
// depth where both are mappings.
func newKey(dst, src *doc.Node) bool {
	if dst.Kind != doc.Map || src.Kind != doc.Map {
		return false
	}
	for _, s := range src.Children {
		d := dst.Get(s.Key)
		if d == nil || newKey(d, s) {
			return true
		}
	}
	return false
}

// noMatch is Hydra's refusal of an override (a command line's, or a defaults list's override
// entry) of a group that no entry of the run's defaults lists has.
func noMatch(text, group, verb, written string) string {
	return "override " + quote(text) + " chooses group " + quote(group) + ", which no defaults list of the run has: " + noMatchSays(verb, written)
}

// noMatchSays is what Hydra says when an override matches no entry of the defaults lists.
func noMatchSays(verb, written string) string {
	return "Hydra stops at start-up (\"Could not " + verb + " '" + written + "'. No match in the defaults list.\")"
}

// finishOverrides reports the command line's group choices and deletions Hydra would not match
// with an entry of the defaults lists just composed (by group and package), then applies the
// value overrides to root.
func (c *composer) finishOverrides(root *doc.Node, values []valueOverride) {
	for _, g := range c.toMatch {
		if c.seenPkg[cliKey(g.group, g.pkg)] {
			continue
		}
		verb := "override"
		if g.del {
			verb = "delete"
		}
		if !c.seen[g.group] {
			c.problem(Refused, "", doc.Span{}, noMatch(g.text, g.group, verb, g.written)+"; write +"+strings.TrimPrefix(g.text, "~")+" to add it")
		} else {
			c.problem(Refused, "", doc.Span{}, "override "+quote(g.text)+" matches no entry of group "+quote(g.group)+" in the defaults lists (Hydra matches the group and the package): "+noMatchSays(verb, g.written))
		}
	}
	for _, v := range values {
		if v.key == "hydra" || strings.HasPrefix(v.key, "hydra.") {
			// Hydra's own settings (hydra.run.dir, hydra.searchpath: read first, searchpath.go)
			// live in its config, which the composed tree leaves out: not applied, not refused.
			continue
		}
		c.applyValue(root, v)
	}
}

// groupOverride is a command-line choice or deletion of a group (not an addition), kept to be
// matched with the defaults lists' entries: written is its key as given (group@pkg, no ~ or
// leading /).
type groupOverride struct {
	text, written, group, pkg string
	del                       bool
}

// pyScalarEqual reports whether scalars a and b hold values Python's == takes as equal (numbers
// by value, True as 1 and False as 0, strings by text), and whether that is known: not for
// containers, nulls or values of unknown type (an interpolation).
func pyScalarEqual(a, b *doc.Node) (eq, known bool) {
	num := func(n *doc.Node) (float64, bool) {
		switch n.Type {
		case doc.Bool:
			if v, ok := n.Bool(); ok && v {
				return 1, true
			}
			return 0, true
		case doc.Int, doc.Float: // not a string, which Float would also read
			return n.Float() // .inf and .nan are not worked out
		}
		return 0, false
	}
	if a.Kind != doc.Scalar || b.Kind != doc.Scalar {
		return false, false
	}
	for _, n := range []*doc.Node{a, b} {
		if n.Type == doc.Unknown || n.Type == doc.Null {
			return false, false
		}
	}
	x, xn := num(a)
	y, yn := num(b)
	switch {
	case xn && yn:
		return x == y, true
	case a.Type == doc.String && b.Type == doc.String:
		return a.Value == b.Value, true
	case a.Type == doc.String || b.Type == doc.String:
		return false, xn || yn // a string is never equal to a number
	}
	return false, false
}
