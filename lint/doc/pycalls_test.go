//go:build !trainlint_lite

package doc

import (
	"strings"
	"testing"
)

// A get_config built by another module's function records the call (Document.Calls) when its
// arguments are scalars the reader knows; read alone it has no tree.
func TestPythonModuleCallsRecorded(t *testing.T) {
	src := `import os
import ml_collections
from proj.configs import common
from proj.configs.common import get_base

_SPLIT = 'eval'


def get_config():
  config = common.get_model(_SPLIT, depth=50, scale=0.5, flag=True, none=None)
  other = get_base(os.environ['X'])
  for i in range(2):
    get_base(i)
  config.seed = ml_collections.FieldReference(0)
  config.data = get_base()
  return config
`
	d := ParseWith("c.py", []byte(src), Python, Options{})
	if d.Root != nil {
		t.Errorf("a tree alone: %+v", d.Root)
	}
	var got []string
	for _, c := range d.Calls {
		s := c.Key() + " " + c.Module + " " + c.Func + "("
		for _, a := range c.Args {
			s += a.Key + "=" + a.Value + ":" + string(rune('0'+a.Span.Start.Line%10)) + ","
		}
		got = append(got, s+") line "+itoa(c.Span.Start.Line))
	}
	want := []string{
		"_call_" + itoa(strings.Index(src, "common.get_model")) + "_ proj.configs.common get_model(=eval:6,depth=50:0,scale=0.5:0,flag=true:0,none=null:0,) line 10",
		"_call_" + itoa(strings.Index(src, "get_base()")) + "_ proj.configs.common get_base() line 15",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Given what the calls returned (Options.Bases under their keys), the caller's changes are
// edits of it and a get_config that returns it names it (RootBase); update is an edit of
// unknown effect (ml_collections' differs from MMEngine's).
func TestPythonModuleCallsWithBases(t *testing.T) {
	src := `from proj.configs.common import get_base


def get_config():
  config = get_base()
  config.batch_size = config.batch_size * 2
  config.data.update(workers=4)
  return config
`
	d := ParseWith("c.py", []byte(src), Python, Options{})
	if len(d.Calls) != 1 {
		t.Fatalf("calls %+v", d.Calls)
	}
	key := d.Calls[0].Key()
	bases := Parse("b.py", []byte("def get_config():\n  return dict(run=dict(batch_size=16, data=dict(workers=1)))\n"), Python, Limits{}).Root.Get("run")
	holder := &Node{Kind: Map}
	bases.Key, bases.Parent = key, holder
	holder.Children = []*Node{bases}
	d2 := ParseWith("c.py", []byte(src), Python, Options{Bases: holder})
	if d2.Root == nil || d2.RootBase != key || len(d2.Root.Children) != 0 {
		t.Fatalf("root %+v, RootBase %q, problems %+v", d2.Root, d2.RootBase, d2.Problems)
	}
	var edits []string
	for _, e := range d2.BaseEdits {
		edits = append(edits, e.Path+"="+e.Value.Value+"/"+e.Value.Type.String())
	}
	want := key + ".batch_size=32/int|" + key + ".data=config.data.update(workers=4)/unknown"
	if got := strings.Join(edits, "|"); got != want {
		t.Errorf("edits %q, want %q", got, want)
	}
}

// Options.Call reads the module as the value one function returns for the given arguments.
func TestPythonCallOption(t *testing.T) {
	src := "import ml_collections\n\ndef get_base(batch=32, name='base'):\n  c = ml_collections.ConfigDict()\n  c.batch_size = batch\n  c.name = name\n  return c\n\ndef get_config():\n  return dict(x=1)\n"
	args := []CallArg{{Type: Int, Value: "64"}, {Type: String, Value: "n", Key: "name"}}
	d := ParseWith("m.py", []byte(src), Python, Options{Call: &ModuleCall{Func: "get_base", Args: args}})
	if d.Root == nil || d.Root.Get("batch_size").Value != "64" || d.Root.Get("name").Value != "n" || d.Root.Get("x") != nil {
		t.Errorf("root %+v problems %+v", d.Root, d.Problems)
	}
	d = ParseWith("m.py", []byte(src), Python, Options{Call: &ModuleCall{Func: "missing"}})
	if d.Root != nil {
		t.Errorf("a function the module does not define: root %+v", d.Root)
	}
}
