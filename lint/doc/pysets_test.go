package doc

import "testing"

// A set holds each item once, and its order is its hashes' (a string's hash changes from one
// run to the next): membership, len and sorted() are known, what depends on the order is not,
// and the tree does not show it as a sequence.
func TestPythonSets(t *testing.T) {
	src := `def get_config():
  s = {'b', 'a', 'b'}
  n = {1, 1.0, True, 2}
  c = dict(
      has_a='a' in s,
      has_c='c' in s,
      size=len(s),
      nums=len(n),
      ordered=sorted(s),
      first=list(s)[0],
      joined='+'.join(s),
      comp=len({x % 2 for x in range(5)}),
      empty=len(set()),
      made=sorted(set(['z', 'y', 'z'])),
      equal=tuple() == (),
      rate=0.001 if 'L' in {'L', 'H'} else 0.003,
      same={1, 2} == {2, 1},
  )
  grown = {'a'}
  grown.add('c')
  c['grown_has_c'] = 'c' in grown
  c['set'] = s
  t = {'x'}
  held = dict(t=t)
  t |= {'y'}
  c['held_len'] = len(held['t'])
  return c
`
	d := pyTree(t, src)
	wantValues(t, d.Root, "", map[string]string{
		"has_a":     "true",
		"has_c":     "false",
		"size":      "2",
		"nums":      "2",
		"ordered.0": "a",
		"ordered.1": "b",
		"comp":      "2",
		"empty":     "0",
		"made.0":    "y",
		"made.1":    "z",
		"equal":     "true",
		"rate":      "0.001",
	})
	wantUnknown(t, d, "first", "joined", "set", "held_len", "same", "grown_has_c")
}

// Augmented assignment changes a list, a dict or a set in place: what else holds it sees the
// change.
func TestPythonAugmentedInPlace(t *testing.T) {
	src := `import os


def get_config():
  l = [1]
  d = {'a': 1}
  c = dict(l=l, d=d)
  l *= 2
  d |= {'b': 2}
  m = [1]
  c['m'] = m
  m += os.environ.get('X')
  return c
`
	d := pyTree(t, src)
	wantValues(t, d.Root, "", map[string]string{"l.1": "1", "d.b": "2"})
	wantUnknown(t, d, "m")
}

// A loop over a value the reader does not know may run: its variable is bound after it, to a
// value not known.
func TestPythonLoopOverUnknownBindsItsVariable(t *testing.T) {
	src := `import os

items = os.environ.get('ITEMS')
for item in items:
    last = item
`
	d := pyTree(t, src)
	wantUnknown(t, d, "item", "last")
}

// A float raised to a power that is not an integer is the C library's pow in CPython, whose
// last bit differs between platforms and from Go's math.Pow (0.99 ** 0.8): unknown. Integer
// powers are exact roundings and stay known.
func TestPythonFloatPowers(t *testing.T) {
	src := `c = dict(
    beta=0.99 ** 0.8,
    root=2.0 ** 0.5,
    square=1.5 ** 2,
    inverse=2.0 ** -2,
    one=1.0 ** 0.3,
    zero=3.3 ** 0,
)
`
	d := pyTree(t, src)
	wantValues(t, d.Root.Get("c"), "c.", map[string]string{"square": "2.25", "inverse": "0.25", "one": "1.0", "zero": "1.0"})
	wantUnknown(t, d, "c.beta", "c.root")
}

// zip and enumerate give their tuples (paligemma's chartqa builds its data mixture with
// {ds: w for ds, w in zip(_DATASETS, _WEIGHTS)}); what Python refuses or the reader cannot
// iterate is unknown.
func TestPythonZipEnumerate(t *testing.T) {
	src := `import os

_D = ('chartqa/human', 'chartqa/augmented')
_W = (7_398, 20_901)


def get_config():
  return dict(
      data={ds: w for ds, w in zip(_D, _W)},
      short=len(list(zip([1, 2, 3], 'ab'))),
      pairs=[i * 10 + x for i, x in enumerate([1, 2], start=1)],
      none=len(list(zip())),
      strict=list(zip([1], [1, 2], strict=True)),
      unknown=list(enumerate(os.environ.get('X'))),
  )
`
	d := pyTree(t, src)
	wantValues(t, d.Root, "", map[string]string{
		"short":   "2",
		"pairs.0": "11",
		"pairs.1": "22",
		"none":    "0",
	})
	if n := d.Root.Get("data").Get("chartqa/augmented"); n == nil || n.Value != "20901" {
		t.Errorf("data = %+v", d.Root.Get("data"))
	}
	wantUnknown(t, d, "strict", "unknown")
}

// zip and enumerate are iterators: the first iteration exhausts them, and they have no length
// and compare by identity.
func TestPythonIteratorsExhaust(t *testing.T) {
	src := `z = zip([1, 2], [3, 4])
a = len(list(z))
b = len(list(z))
e = enumerate('xy')
d = dict(e)
again = dict(e)
same = zip([1], [2]) == ((1, 2),)
truth = bool(zip())
`
	d := pyTree(t, src)
	wantValues(t, d.Root, "", map[string]string{"a": "2", "b": "0", "d.0": "x", "truth": "true", "same": "false"})
	if n := d.Root.Get("again"); n == nil || n.Kind != Map || len(n.Children) != 0 {
		t.Errorf("again = %+v, want an empty dict", n)
	}
	wantUnknown(t, d, "z", "e")
}

// In a block the reader does not run, an augmented assignment's target is read once at most:
// the check for a name holding a part of the bases read any target first, so f() below ran
// twice and log held two items, which Python never gives (0 or 1, as X is set or not).
func TestPythonTaintedAugmentedTargetReadOnce(t *testing.T) {
	src := `import os

log = []


def f():
  log.append(1)
  return dict(x=0)


if os.environ.get('X'):
  f()['x'] += 1
n = len(log)
`
	d := pyTree(t, src)
	if n := d.Root.Get("n"); n == nil || !(n.IsUnknown() || n.Value == "0" || n.Value == "1") {
		t.Errorf("n = %+v, want unknown, 0 or 1", n)
	}
}
