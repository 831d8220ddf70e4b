package doc

import (
	"strings"
	"testing"
)

// ml_collections FieldReferences: made from a known scalar or taken from a field, read through
// by fields, computed by their arithmetic when read (pyrefs.go).
func TestPythonFieldReferences(t *testing.T) {
	src := `import ml_collections
from ml_collections import config_dict

TRAIN_SIZE = 1333


def get_config():
  config = ml_collections.ConfigDict()
  epochs = ml_collections.config_dict.FieldReference(40)
  config.num_training_epochs = epochs
  batch_size = config_dict.FieldReference(32)
  config.batch_size = 1 if False else batch_size
  config.eval_batch_size = config.batch_size
  steps = TRAIN_SIZE // batch_size
  config.log_eval_steps = steps
  config.total_steps = epochs * steps
  config.negative = -epochs
  config.name = ml_collections.FieldReference('ld') + '_x'
  config.lr = 0.003
  config.schedule = dict(linear_end=0.01)
  config.gsam = dict(
      lr_max=config.get_ref('lr'),
      lr_min=config.schedule.get_ref('linear_end') * config.get_ref('lr'),
      oneway=config.get_oneway_ref('lr'),
  )
  return config
`
	d := pyTree(t, src)
	wantValues(t, d.Root, "", map[string]string{
		"num_training_epochs": "40",
		"batch_size":          "32",
		"eval_batch_size":     "32",
		"log_eval_steps":      "41",
		"total_steps":         "1640",
		"negative":            "-40",
		"name":                "ld_x",
		"lr":                  "0.003",
		"gsam.lr_max":         "0.003",
		"gsam.lr_min":         "3e-05",
		"gsam.oneway":         "0.003",
	})
	// A value reached through a reference is placed where the reference is made or taken, and
	// is not written there as its value; a field get_ref turned into one keeps its literal.
	for path, line := range map[string]int{"batch_size": 11, "log_eval_steps": 14, "gsam.lr_max": 22} {
		if n := pyGet(t, d, path); n.Span.Start.Line != line || n.Style != "python" {
			t.Errorf("%s at line %d, style %s; want line %d, python", path, n.Span.Start.Line, n.Style, line)
		}
	}
	if n := pyGet(t, d, "lr"); n.Style != "plain" || n.Span.Start.Line != 19 {
		t.Errorf("lr: %+v", n)
	}
}

// Whatever may set a reference leaves it, and what was computed from it, unknown: the reader
// does not follow ConfigDict's linked assignments. What a trainer would get as the reference
// object (a list's item, a plain dict's value), an operator FieldReference lacks, and a read of
// another module's function stay unknown too.
func TestPythonFieldReferencesUnknown(t *testing.T) {
	src := `import ml_collections


def get_config():
  config = ml_collections.ConfigDict()
  bs = ml_collections.FieldReference(32)
  config.bs = bs
  config.also = bs
  config.steps = 1000 // bs
  config.bs = 64
  config.kept = 7
  config.linked = config.get_ref('kept')
  config.kept = 8
  r = ml_collections.FieldReference(3)
  r.set(4)
  config.set_ref = r
  c = ml_collections.FieldReference(5)
  helper(c)
  config.called = c
  h = ml_collections.FieldReference(6)
  helper([h])
  config.held = h
  config.listed = [ml_collections.FieldReference(1)]
  config.mod = 10 % ml_collections.FieldReference(3)
  config.cmp = ml_collections.FieldReference(3) == 3
  config.none = None
  config.none_ref = config.get_ref('none')
  config.typed = ml_collections.FieldReference(None, field_type=int)
  config.fstr = f'{ml_collections.FieldReference(1)}'
  k = ml_collections.FieldReference(3)
  config.k = k
  config.snap = config.k
  config.k = 4
  d = ml_collections.FieldReference(1)
  for _ in range(40):
    d = d + d
  config.doubled = d
  return config


def get_plain():
  return dict(a=ml_collections.FieldReference(1))


def get_made():
  return ml_collections.ConfigDict(dict(a=ml_collections.FieldReference(1)))
`
	d := pyTree(t, src)
	wantUnknown(t, d, "bs", "also", "steps", "kept", "linked", "set_ref", "called", "held", "mod", "cmp", "none_ref", "typed", "fstr", "doubled")
	if n := d.Root.StepPath("listed.0"); n == nil || !n.IsUnknown() {
		t.Errorf("a list's reference: %+v", n)
	}
	// Reading a field reads the reference's value then: setting it later does not change that.
	wantValues(t, d.Root, "", map[string]string{"snap": "3"})
	wantUnknown(t, d, "k")
	if n := pyGet(t, d, "none"); n.Type != Null {
		t.Errorf("none: %+v", n)
	}

	// get_config returning a plain dict: its value is the reference object.
	plain := strings.Replace(src, "def get_config():", "def get_unused():", 1)
	plain = strings.Replace(plain, "def get_plain():", "def get_config():", 1)
	if d := Parse("p.py", []byte(plain), Python, Limits{}); d.Root == nil || !d.Root.At("a").IsUnknown() {
		t.Errorf("a plain dict's reference: %+v", d.Root)
	}
	made := strings.Replace(src, "def get_config():", "def get_unused():", 1)
	made = strings.Replace(made, "def get_made():", "def get_config():", 1)
	if d := Parse("m.py", []byte(made), Python, Limits{}); d.Root == nil {
		t.Errorf("no tree for ConfigDict(dict(...))")
	} else {
		wantValues(t, d.Root, "ConfigDict(dict(...)): ", map[string]string{"a": "1"})
	}

	// Another module's function, read for its caller, whose edits may set its references.
	mod := `import ml_collections

batch_size = ml_collections.FieldReference(32)


def get_base():
  config = ml_collections.ConfigDict()
  config.batch_size = batch_size
  config.steps = 1000 // batch_size
  config.seed = 0
  return config
`
	c := ParseWith("m.py", []byte(mod), Python, Options{Call: &ModuleCall{Func: "get_base"}})
	if c.Root == nil {
		t.Fatalf("no tree for the call: %+v", c.Problems)
	}
	wantValues(t, c.Root, "call: ", map[string]string{"seed": "0"})
	wantUnknown(t, c, "batch_size", "steps")
}

// References that reach what the evaluator does not follow, or that it cannot model, never
// give a value Python would not (cases from a review of the reader, each checked against
// ml_collections' config_dict.py): what was read before stays, what may have changed is unknown.
func TestPythonFieldReferencesHidden(t *testing.T) {
	head := "import os\nimport ml_collections\nfrom ml_collections import config_dict\n\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n"
	cases := []struct {
		name, body string
		unknown    []string
		known      map[string]string
	}{
		{"behind an unknown test", "  config.a = 1\n  config.c = config.get_ref('a')\n  config.d = config.get_ref('a') * 2\n" +
			"  config.b = config.get_ref('a') if os.environ.get('X') else 0\n  config.b = 5\n",
			[]string{"a", "c", "d"}, map[string]string{"b": "5"}},
		{"through a builtin", "  config.a = 1\n  config.c = config.get_ref('a')\n  config.b = max(config.get_ref('a'), 0)\n  config.b = 5\n",
			[]string{"a", "c"}, map[string]string{"b": "5"}},
		{"a method through getattr", "  r = ml_collections.FieldReference(1)\n  config.a = r\n  f = getattr(r, 'set')\n  f(3)\n",
			[]string{"a"}, nil},
		{"get_ref of a tuple", "  config.m = (1, 2)\n  config.x = config.get_ref('m')\n  config.x = (3, 4)\n",
			[]string{"m", "x"}, nil},
		{"get_ref of a ConfigDict", "  config.m = ml_collections.ConfigDict(dict(bs=8))\n  config.x = config.get_ref('m')\n  config.x = ml_collections.ConfigDict(dict(bs=16))\n",
			[]string{"m", "x"}, nil},
		{"a typed reference to None", "  r = ml_collections.FieldReference(None, field_type=int)\n  config.a = r\n  config.a = 10\n  config.b = r\n  config.b = 20\n",
			[]string{"a", "b"}, nil},
		{"a placeholder", "  r = config_dict.placeholder(int)\n  config.a = r\n  config.a = 10\n  config.b = r\n  config.b = 20\n",
			[]string{"a", "b"}, nil},
		{"in a branch that may not run", "  config.s = ml_collections.ConfigDict()\n  config.s.a = 1\n  config.c = config.s.get_ref('a')\n" +
			"  if os.environ.get('X'):\n    config.b = config.s.get_ref('a')\n  config.b = 5\n",
			[]string{"s", "c"}, map[string]string{"b": "5"}},
		{"read before", "  r = ml_collections.FieldReference(4)\n  config.a = r\n  config.before = config.a * 2\n  config.b = max(r, 0)\n  config.b = 1\n",
			[]string{"a"}, map[string]string{"before": "8", "b": "1"}},
	}
	for _, c := range cases {
		d := Parse("c.py", []byte(head+c.body+"  return config\n"), Python, Limits{})
		if d.Root == nil {
			t.Errorf("%s: no tree %+v", c.name, d.Problems)
			continue
		}
		for _, k := range c.unknown {
			if n := d.Root.Get(k); n == nil || !n.IsUnknown() {
				t.Errorf("%s: %s = %+v, want unknown", c.name, k, n)
			}
		}
		wantValues(t, d.Root, c.name+": ", c.known)
	}
}

// ml_collections' ConfigDict takes options as keywords, not entries (config_dict.py:641): its
// entries are initial_dictionary's, and with convert_dict=False a dict it holds stays a plain
// dict whose FieldReference the trainer gets as the object.
func TestPythonConfigDictOptions(t *testing.T) {
	src := `import ml_collections


def get_config():
  config = ml_collections.ConfigDict(type_safe=False, sort_keys=False)
  config.a = ml_collections.ConfigDict(initial_dictionary=dict(k=1))
  config.b = ml_collections.ConfigDict(dict(k=2), False)
  config.c = ml_collections.ConfigDict(foo=1)
  config.d = ml_collections.FrozenConfigDict({'k': 3})
  config.e = ml_collections.ConfigDict(dict(k=4), initial_dictionary=dict(k=5))
  return config


def get_plain():
  return ml_collections.ConfigDict(dict(n=dict(r=ml_collections.FieldReference(1))), convert_dict=False)
`
	d := pyTree(t, src)
	for _, k := range []string{"type_safe", "sort_keys"} {
		if d.Root.Get(k) != nil {
			t.Errorf("an option read as an entry: %s", k)
		}
	}
	wantValues(t, d.Root, "", map[string]string{"a.k": "1", "b.k": "2", "d.k": "3"})
	wantUnknown(t, d, "c", "e")
	plain := strings.Replace(strings.Replace(src, "def get_config():", "def get_unused():", 1), "def get_plain():", "def get_config():", 1)
	if p := Parse("p.py", []byte(plain), Python, Limits{}); p.Root == nil || !p.Root.StepPath("n.r").IsUnknown() {
		t.Errorf("convert_dict=False: %+v", p.Root)
	}
}
