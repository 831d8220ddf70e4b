package doc

import (
	"testing"
)

// ml_collections ConfigDict is not a dict (google/ml_collections @5f7343a,
// config_dict/config_dict.py): a plain dict stored in one of its fields, or given to its
// constructor, becomes a new ConfigDict (a copy, nested plain dicts too); its update() merges
// into the ConfigDicts it already holds; it iterates in sorted key order; and its
// copy_and_resolve_references() and to_dict() copy the ConfigDicts it holds. Each case below
// gave a value Python would not before the reader followed this.
func TestPythonConfigDictSemantics(t *testing.T) {
	src := `import copy
import ml_collections


def get_config():
  config = ml_collections.ConfigDict()
  common = dict(batch_size=512, inner=dict(steps=10))
  config.a = common
  config.b = common
  config.a.batch_size = 64
  config.a.inner.steps = 20
  common['batch_size'] = 7
  config['c'] = common
  common['batch_size'] = 9

  base = dict(lr=dict(peak=1.0))
  made = ml_collections.ConfigDict(base)
  base['lr']['peak'] = 2.0
  config.made_peak = made.lr.peak

  config.model = dict(width=1, depth=2)
  config.update(dict(model=dict(width=3)), extra=dict(x=1))
  config.model.update(dict(depth=4))

  config.evals = ml_collections.ConfigDict()
  config.evals.zeta = dict(n=1)
  config.evals.alpha = dict(n=2)
  config.first_eval = list(config.evals)[0]
  config.first_key = config.evals.keys()[0]
  names = []
  for name in config.evals:
    names.append(name)
  config.order = '+'.join(names)

  frozen = config.copy_and_resolve_references()
  frozen.model.width = 100
  plain = config.to_dict()
  plain['model']['depth'] = 100
  shallow = copy.copy(config)
  shallow.model.width = 5
  shallow.extra = dict(x=2)
  return config
`
	d := pyTree(t, src)
	wantValues(t, d.Root, "", map[string]string{
		"a.batch_size":  "64",
		"a.inner.steps": "20",
		"b.batch_size":  "512",
		"b.inner.steps": "10",
		"c.batch_size":  "7",
		"made_peak":     "1.0",
		"model.width":   "5",
		"model.depth":   "4",
		"extra.x":       "1",
		"first_eval":    "alpha",
		"first_key":     "alpha",
		"order":         "alpha+zeta",
	})
}

// Where ConfigDict does not convert, the reader shares as Python does: a ConfigDict stored in
// another is the same object, a list is not copied, a dict inside a list stays a dict, and a
// ConfigDict made with convert_dict=False stores plain dicts as they are. A plain dict's update
// replaces, and a plain dict iterates in insertion order.
func TestPythonConfigDictShares(t *testing.T) {
	src := `import ml_collections


def get_config():
  config = ml_collections.ConfigDict()
  sub = ml_collections.ConfigDict()
  sub.n = 1
  config.sub = sub
  sub.n = 2
  items = [dict(k=1)]
  config.items = items
  items[0]['k'] = 3
  loose = ml_collections.ConfigDict(convert_dict=False)
  d = dict(v=1)
  loose.d = d
  d['v'] = 5
  config.loose_v = loose.d['v']
  p = dict(m=dict(a=1, b=2))
  p.update(m=dict(a=3))
  config.has_b = 'b' in p['m']
  q = dict(zeta=1, alpha=2)
  config.plain_first = list(q)[0]
  return config
`
	d := pyTree(t, src)
	wantValues(t, d.Root, "", map[string]string{
		"sub.n":       "2",
		"loose_v":     "5",
		"has_b":       "false",
		"plain_first": "zeta",
	})
}

// What the reader cannot follow of a ConfigDict stays unknown: an update from a value that is
// not a mapping, options it cannot read, keys it cannot sort; a FrozenConfigDict is a snapshot;
// a ConfigDict holding itself does not hang an update; copy.deepcopy copies a dict two values
// hold once, as Python's memo does.
func TestPythonConfigDictUnknown(t *testing.T) {
	src := `import copy
import os
import ml_collections


def get_config():
  arg = os.environ.get('FLAG')
  config = ml_collections.ConfigDict()
  config.model = dict(width=1)
  config.update(model=3)
  config.sub = dict(a=1)
  config.sub.update(arg)
  config.loop = ml_collections.ConfigDict()
  config.loop.me = config.loop
  config.loop.update(config.loop)
  config.opt = ml_collections.ConfigDict(dict(a=1), sort_keys=arg)
  config.conv = ml_collections.ConfigDict(dict(a=1), convert_dict=arg)
  mixed = ml_collections.ConfigDict()
  mixed['b'] = 1
  mixed[2] = 3
  config.mixed_first = list(mixed)[0]
  ordered = ml_collections.ConfigDict(sort_keys=False)
  ordered.zeta = 1
  ordered.alpha = 2
  config.ordered_first = list(ordered)[0]
  source = dict(n=1, lst=[1])
  frozen = ml_collections.FrozenConfigDict(source)
  source['n'] = 2
  source['lst'].append(2)
  config.frozen_n = frozen.n
  config.frozen_len = len(frozen.lst)
  shared = dict(a=1)
  pair = copy.deepcopy([shared, shared])
  pair[0]['a'] = 2
  config.pair_a = pair[1]['a']
  return config
`
	d := pyTree(t, src)
	wantUnknown(t, d, "model", "sub", "opt", "conv", "mixed_first")
	wantValues(t, d.Root, "", map[string]string{
		"ordered_first": "zeta",
		"frozen_n":      "1",
		"frozen_len":    "1",
		"pair_a":        "2",
	})
}

// Found by review: ConfigDict(s) fills the new ConfigDict in s's own order (sorted keys), so a
// copy made with sort_keys=False iterates in that order, not in the order s was written.
func TestPythonConfigDictFilledInOrder(t *testing.T) {
	src := `import ml_collections


def get_config():
  s1 = ml_collections.ConfigDict()
  s1.b = 1
  s1.a = 2
  c = ml_collections.ConfigDict(s1, sort_keys=False)
  return dict(first=list(c.keys())[0])
`
	d := pyTree(t, src)
	wantValues(t, d.Root, "", map[string]string{"first": "a"})
}

// Found by review: a ConfigDict casts what overrides a field (_safe_cast): an int over a float
// is a float, a tuple over a list a list, a list over a tuple a tuple; through update() too.
func TestPythonConfigDictSafeCast(t *testing.T) {
	src := `import ml_collections


def get_config():
  c = ml_collections.ConfigDict()
  c.lr = 0.1
  c.lr = 1
  c.wd = 0.5
  c.update(wd=2)
  c.sizes = [1]
  c.sizes = (2, 3)
  c.pair = (1, 2)
  c.pair = [4, 5]
  return c
`
	d := pyTree(t, src)
	wantValues(t, d.Root, "", map[string]string{"lr": "1.0", "wd": "2.0", "sizes.1": "3", "pair.1": "5"})
	if s, p := d.Root.Get("sizes").Style, d.Root.Get("pair").Style; s == "tuple" || p != "tuple" {
		t.Errorf("sizes style %s, pair style %s: want a list and a tuple", s, p)
	}
}

// dict(cfg), {**cfg} and f(**cfg) take a ConfigDict's entries in its keys() order (sorted).
func TestPythonConfigDictUnpackedInOrder(t *testing.T) {
	src := `import ml_collections


def get_config():
  s1 = ml_collections.ConfigDict()
  s1.b = 1
  s1.a = 2
  return dict(
      plain=list(dict(s1))[0],
      display=list({**s1})[0],
      keywords=list(dict(**s1))[0],
  )
`
	d := pyTree(t, src)
	wantValues(t, d.Root, "", map[string]string{"plain": "a", "display": "a", "keywords": "a"})
}

// A dict nothing else holds (made by the assignment's own dict display or dict(k=...) call, or
// returned from one by a function) is converted in place rather than copied; a dict that a name,
// another container or a second target also holds is still copied, so a later edit of it does
// not reach the ConfigDict's field (nor the field's conversion the dict).
func TestPythonConfigDictFreshDicts(t *testing.T) {
	src := `import ml_collections


def make(n):
  return dict(z=n, inner=dict(k=n))


def made_first(g, n):
  return g.setdefault('k', dict(z=n, a=n))


G = dict(z=1, a=2)
H = {'a': G}


def nest():
  return dict(shared=G, own=dict(z=2, a=1, deep={'z': 1, 'a': 1}), disp={'z': 3, 'a': 1})


def dup():
  return {'x': dict(z=1, a=2), 'x': G, 'y': dict(z=1, a=2), **H}


def get_config():
  config = ml_collections.ConfigDict()
  config.a = make(1)
  config.a.z = 2
  config.a.inner.k = 3
  config.b = {'z': 1, 'a': dict(x=1)}
  config.b.a.x = 4
  config['c'] = dict(z=1, a=2)
  keep = {}
  config.d = keep.setdefault('k', dict(z=1, a=2))
  keep['k']['z'] = 5
  config.keep_order = '+'.join(list(keep['k']))
  held = {}
  config.e = made_first(held, 1)
  held['k']['z'] = 6
  config.held_order = '+'.join(list(held['k']))
  f = config.f = dict(z=1, a=2)
  f['z'] = 7
  config.f_order = '+'.join(list(f))
  hold = {}
  for tgt, fn, arg in [(hold, make, 1), (config, hold.get, 'm')]:
    tgt['m'] = fn(arg)
  hold['m']['z'] = 8
  config.hold_order = '+'.join(list(hold['m']))
  config.n = nest()
  config.dup = dup()
  G['z'] = 9
  config.g_plain = '+'.join(list(G))
  config.n_own = '+'.join(list(config.n.own))
  config.n_deep = '+'.join(list(config.n.own.deep))
  lam = lambda: dict(z=1, a=2)
  config.g = lam()
  config.g_order = '+'.join(list(config.g))
  return config
`
	d := pyTree(t, src)
	wantValues(t, d.Root, "", map[string]string{
		"a.z":        "2",
		"a.inner.k":  "3",
		"b.z":        "1",
		"b.a.x":      "4",
		"c.z":        "1",
		"c.a":        "2",
		"d.z":        "1",
		"keep_order": "z+a",
		"e.z":        "1",
		"held_order": "z+a",
		"f.z":        "1",
		"f_order":    "z+a",
		"m.z":        "1",
		"hold_order": "z+inner",
		"n.shared.z": "1",
		"n.own.z":    "2",
		"n.disp.z":   "3",
		"g_plain":    "z+a",
		"n_own":      "a+deep+z",
		"n_deep":     "a+z",
		"dup.x.z":    "1",
		"dup.a.z":    "1",
		"dup.y.z":    "1",
		"g.a":        "2",
		"g_order":    "a+z",
	})
}

// ml_collections' ConfigDict.lock and unlock return the ConfigDict (config_dict.py at v0.1.1 and
// 5f7343a), so `return config.lock()` returns the config (vision_transformer's vit_jax configs
// had no tree); `del config.k` deletes the field (__delattr__: del self[attribute]; magvit's
// configs had no tree). A plain dict has neither: lock is AttributeError there, and its del d.k
// leaves the dict unknown.
func TestPythonConfigDictLockAndDel(t *testing.T) {
	d := pyTree(t, `import ml_collections


def get_config():
  config = ml_collections.ConfigDict()
  config.batch_size = 256
  config.tmp = 1
  config.sub = ml_collections.ConfigDict()
  config.sub.x = 1
  config.sub.y = 2
  del config.tmp, config.sub.y
  config.unlocked = config.sub.unlock().x
  plain = dict(a=1, b=2)
  config.locked_plain = plain.lock()
  return config.lock()
`)
	wantValues(t, d.Root, "", map[string]string{"batch_size": "256", "sub.x": "1", "unlocked": "1"})
	wantUnknown(t, d, "locked_plain")
	for _, k := range []string{"tmp", "sub.y"} {
		if d.Root.At(k) != nil {
			t.Errorf("%s still in the tree after del", k)
		}
	}
	d = Parse("x.py", []byte("def get_config():\n  c = dict(a=1, b=2)\n  del c.b\n  return c\n"), Python, Limits{})
	if d.Root != nil {
		t.Errorf("del of a plain dict's attribute: want no tree (its value is unknown), got %v", d.Root)
	}
}
