package doc

import (
	"sort"
	"strings"
)

// ml_collections' ConfigDict is not a dict, and where it differs the reader follows it
// (google/ml_collections @5f7343a, ml_collections/config_dict/config_dict.py):
//
//   - Storing a plain dict in a field (__setitem__, __setattr__, update) stores a new
//     ConfigDict made from it when the ConfigDict converts dicts (convert_dict=True, the
//     default): a copy, its nested plain dicts copied too (_configdict_fill_seed), so a later
//     edit of the dict does not reach the field, nor an edit of the field the dict. A
//     ConfigDict, a list and the rest are stored as they are, shared.
//   - ConfigDict(d) fills a new ConfigDict the same way.
//   - update() merges a mapping's entry into a field that holds a ConfigDict
//     (self[key].update(other[key])) instead of replacing it.
//   - It iterates, and keys(), values() and items() list, in sorted key order (sort_keys=True,
//     the default).
//   - copy_and_resolve_references() copies the ConfigDicts it holds, to_dict() makes plain
//     dicts of them; copy.copy and copy.deepcopy give ConfigDicts (its __setstate__).
//
// MMEngine's ConfigDict is an addict Dict made after the file has run; in the file, dict(...)
// is a plain dict, and none of this applies.

// mlc reports an ml_collections ConfigDict.
func (d *pyDict) mlc() bool { return d.cfg || d.loose }

// cfgStore is what ConfigDict d stores in field key for v: with convert_dict, a new
// ConfigDict filled from a plain dict; over a field it holds, v cast as _safe_cast casts (an
// int or bool over a float is a float, a tuple over a list a new list, a list over a tuple a
// tuple); v itself otherwise.
//
// With fresh, v is a dict nothing else holds (pyEval.fresh): converting it in place cannot be
// told from converting a copy, which it saves.
func (ev *pyEval) cfgStore(d *pyDict, key, v *pyVal, fresh bool) *pyVal {
	if d.mlc() && hashable(key) {
		if old, ok := d.get(key); ok && refOf(old) == nil {
			switch {
			case old.k == pvFloat && (v.k == pvInt || v.k == pvBool):
				f := float64(v.i)
				if v.k == pvBool && v.b {
					f = 1
				}
				return ev.floatVal(f, v.s0, v.e0)
			case old.k == pvList && old.list.like == likeList && v.k == pvTuple:
				return ev.val(pyVal{k: pvList, list: &pyList{items: append([]*pyVal(nil), v.list.items...)}, s0: v.s0, e0: v.e0})
			case old.k == pvTuple && v.k == pvList && v.list.like == likeList:
				return ev.val(pyVal{k: pvTuple, list: &pyList{items: append([]*pyVal(nil), v.list.items...)}, s0: v.s0, e0: v.e0})
			}
		}
	}
	if !d.cfg || v.k != pvDict || v.dict.mlc() {
		return v
	}
	ev.seen = ev.seen[:0]
	if fresh {
		return ev.cfgInPlace(v)
	}
	return ev.cfgFrom(v, true)
}

// cfgInPlace is cfgFrom(v, true) for a plain dict nothing else holds: the same ConfigDict,
// made of the dict itself (its entries in its own order, plain dicts among them converted:
// in place too those it owns, pyDict.own).
func (ev *pyEval) cfgInPlace(v *pyVal) *pyVal {
	d := v.dict
	ev.work(len(d.ents))
	ev.grow(len(d.ents))
	d.cfg, d.loose, d.unsorted, d.mm = true, false, false, false
	c := ev.val(pyVal{k: pvDict, dict: d, s0: v.s0, e0: v.e0})
	ev.seen = append(ev.seen, cfgPair{d, c})
	own := d.own
	d.own = 0
	for i := range d.ents {
		if x := d.ents[i].v; x.k == pvDict {
			switch y := ev.seen.find(x.dict); {
			case y != nil:
				d.ents[i].v = y
			case x.dict.mlc():
			case i < 64 && own&(1<<i) != 0:
				d.ents[i].v = ev.cfgInPlace(x) // a dict the fresh one's own display or call made
			default:
				d.ents[i].v = ev.cfgFrom(x, true)
			}
		}
	}
	d.reindex()
	return c
}

// cfgSeen maps the dicts a conversion has met to what it made of them (visit_map: a dict that
// holds itself, or one dict held twice, is converted once).
type cfgSeen []cfgPair

type cfgPair struct {
	from *pyDict
	to   *pyVal
}

func (s cfgSeen) find(d *pyDict) *pyVal {
	for _, x := range s {
		if x.from == d {
			return x.to
		}
	}
	return nil
}

// cfgFrom is a new ConfigDict filled from the entries of dict v (_configdict_fill_seed): with
// convert, the plain dicts among its values become ConfigDicts too; ConfigDicts among them are
// shared. ev.seen holds what it has met (emptied by the caller).
func (ev *pyEval) cfgFrom(v *pyVal, convert bool) *pyVal {
	src := v.dict
	ev.work(len(src.ents))
	ev.grow(len(src.ents))
	d := ev.newDict(len(src.ents) + 1)
	d.cfg, d.loose, d.partial = convert, !convert, src.partial
	c := ev.val(pyVal{k: pvDict, dict: d, s0: v.s0, e0: v.e0})
	ev.seen = append(ev.seen, cfgPair{src, c})
	// A ConfigDict is read in its own order (iteritems: sorted keys, the default), which is
	// the new one's insertion order (what it iterates in with sort_keys=False).
	ents, ok := src.orderIn()
	if !ok {
		d.partial, ents = true, nil // keys of mixed types: sorting them raises
	}
	for _, en := range ents {
		x := en.v
		if x.k == pvDict {
			if y := ev.seen.find(x.dict); y != nil {
				x = y
			} else if convert && !x.dict.mlc() {
				x = ev.cfgFrom(x, true)
			}
		}
		d.ents = append(d.ents, pyEnt{k: en.k, v: x, ks: en.ks, ke: en.ke})
	}
	d.reindex()
	return c
}

// cfgUpdate is ConfigDict d's update() from ents, a mapping's entries in its iteration order
// (src: the mapping, nil for keywords). Where the update raises or is not followed, d, or the
// ConfigDict merged into, is partial.
func (ev *pyEval) cfgUpdate(d *pyDict, ents []pyEnt, src *pyDict, depth int) {
	if depth > 64 {
		d.partial = true // a ConfigDict holding itself: Python recurses until RecursionError
		return
	}
	for _, en := range ents {
		ev.step()
		i := d.find(en.k)
		if i < 0 {
			d.set(en.k, ev.cfgStore(d, en.k, en.v, false), en.ks, en.ke)
			continue
		}
		cur, x := d.ents[i].v, en.v
		if cur.k == pvDict && cur.dict.mlc() {
			// self[key].update(other[key]): other[key] reads a FieldReference through, and a
			// value that is not a mapping raises (AttributeError on its items).
			if x.k != pvDict || refOf(x) != nil || x.dict.partial {
				cur.dict.partial = true
				continue
			}
			xs, ok := x.dict.order()
			if !ok {
				cur.dict.partial = true
				continue
			}
			ev.cfgUpdate(cur.dict, xs, x.dict, depth+1)
			continue
		}
		if refOf(cur) != nil && refOf(x) != nil && src != nil && src.mlc() {
			d.partial = true // a FieldReference updated from one: TypeError
			continue
		}
		ev.refsOff(d.set(en.k, ev.cfgStore(d, en.k, x, false), en.ks, en.ke))
	}
}

// order is d's entries in the order Python iterates them: a ConfigDict made with sort_keys
// (the default) sorts its keys. ok is false when they cannot be sorted here (keys of mixed
// types raise TypeError; this reader sorts only strings or only integers).
func (d *pyDict) order() ([]pyEnt, bool) { return d.orderAs(false) }

// orderIn is order for a caller that copies the entries out before anything can change d:
// entries already in sorted order are d's own, not a copy.
func (d *pyDict) orderIn() ([]pyEnt, bool) { return d.orderAs(true) }

func (d *pyDict) orderAs(share bool) ([]pyEnt, bool) {
	if !d.mlc() || d.unsorted || len(d.ents) < 2 {
		return d.ents, true
	}
	k0 := d.ents[0].k.k
	if k0 != pvStr && k0 != pvInt {
		return nil, false
	}
	// Python compares strings by code point, which is the order of their UTF-8 bytes (Go's
	// string order). Keys are distinct, so the sorted order is the one order.
	sorted := true
	for i, en := range d.ents {
		if en.k.k != k0 {
			return nil, false
		}
		if i > 0 && sorted {
			p := d.ents[i-1].k
			sorted = k0 == pvStr && p.s < en.k.s || k0 == pvInt && p.i < en.k.i
		}
	}
	if sorted && share {
		return d.ents, true
	}
	out := append([]pyEnt(nil), d.ents...)
	if sorted {
		return out, true
	}
	if k0 == pvStr {
		sort.Slice(out, func(i, j int) bool { return strings.Compare(out[i].k.s, out[j].k.s) < 0 })
	} else {
		sort.Slice(out, func(i, j int) bool { return out[i].k.i < out[j].k.i })
	}
	return out, true
}

// cfgCopy is copy_and_resolve_references() (plain false) or to_dict() (plain true) of
// ConfigDict v: the ConfigDicts it holds, and theirs, are copied (into plain dicts for
// to_dict); other values are shared. The FieldReferences both resolve stay references here,
// which the tree shows only where a ConfigDict holds them. ev.seen holds what it has met
// (emptied by the caller).
func (ev *pyEval) cfgCopy(v *pyVal, plain bool) *pyVal {
	src := v.dict
	ev.work(len(src.ents))
	ev.grow(len(src.ents))
	d := ev.newDict(len(src.ents) + 1)
	if !plain {
		d.cfg, d.loose = src.cfg, src.loose
	}
	d.partial = src.partial
	c := ev.val(pyVal{k: pvDict, dict: d, s0: v.s0, e0: v.e0})
	ev.seen = append(ev.seen, cfgPair{src, c})
	for _, en := range src.ents {
		x := en.v
		if x.k == pvDict && x.dict.mlc() {
			if y := ev.seen.find(x.dict); y != nil {
				x = y
			} else {
				x = ev.cfgCopy(x, plain)
			}
		}
		d.ents = append(d.ents, pyEnt{k: en.k, v: x, ks: en.ks, ke: en.ke})
	}
	d.reindex()
	return c
}

// mlcUpdate is ConfigDict d's update(*other, **kwargs) (config_dict.py:1372): at most one
// mapping, then the keywords.
func (ev *pyEval) mlcUpdate(d *pyDict, a pyArgs, e *pyExpr) {
	if len(a.pos) > 1 {
		return // TypeError
	}
	if len(a.pos) == 1 {
		o := a.pos[0]
		if o.k != pvDict || refOf(o) != nil || o.dict.partial {
			d.partial = true // updated from what this reader cannot know
			return
		}
		ents, ok := o.dict.order()
		if !ok {
			d.partial = true
			return
		}
		ev.cfgUpdate(d, ents, o.dict, 0)
	}
	if len(a.kw) > 0 {
		kw := make([]pyEnt, len(a.kw))
		for i, k := range a.kw {
			kw[i] = pyEnt{k: ev.strVal(k, 0, 0), v: a.kwv[i], ks: a.kwpos[i][0], ke: a.kwpos[i][1]}
		}
		ev.cfgUpdate(d, kw, nil, 0)
	}
}
