package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// Go to definition on the references of code configs: new-style MMEngine base imports
// (relative, `from pkg import module`, and absolute modules of the repository's own package),
// old-style `_base_` lists, and gin includes; an import of a module outside the workspace goes
// nowhere.
func TestCodeConfigDefinition(t *testing.T) {
	dir := t.TempDir()
	w := func(p, s string) string {
		p = filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	runtime := w("mypkg/configs/_base_/runtime.py", "default_hooks = dict(checkpoint=dict(type='CheckpointHook', interval=1))\n")
	sched := w("mypkg/configs/_base_/sched.py", "train_cfg = dict(max_epochs=12)\n")
	old := w("mypkg/configs/a.py", "_base_ = ['./_base_/runtime.py', './_base_/sched.py']\ntrain_dataloader = dict(batch_size=2, num_workers=2)\n")
	nw := w("mypkg/configs/det/b.py", "import os\nfrom mmengine.config import read_base\nwith read_base():\n    from .._base_.runtime import *\n    from .._base_ import sched\n    from mypkg.configs._base_.runtime import default_hooks\ntrain_dataloader = dict(batch_size=2, num_workers=2)\n")
	base := w("runs/base.gin", "from t5x import utils\nutils.SaveCheckpointConfig.period = 2000\n")
	g := w("runs/sub/train.gin", "include 'runs/base.gin'\ninclude 'common.gin'\ntrain.eval_period = 1000\n")
	// common.gin exists beside the including file and a folder up: the nearest is the one read
	near := w("runs/sub/common.gin", "train.total_steps = 10\n")
	w("runs/common.gin", "train.total_steps = 20\n")
	// a name that starts with the workspace folder's own name (tensor2robot's includes)
	pkg := w("runs/pkg.gin", "include '"+filepath.Base(dir)+"/runs/base.gin'\ntrain.eval_period = 1000\n")
	// from .. import name: the module name in the folder two dots name
	up := w("mypkg/configs/det/c.py", "from mmengine.config import read_base\nwith read_base():\n    from .. import a\ntrain_dataloader = dict(batch_size=2, num_workers=2)\n")
	s := start(t, dir)
	for _, c := range []struct {
		file, at string // the cursor is two bytes into the n-th match of at
		n        int
		want     string
	}{
		{old, "runtime", 0, runtime},
		{old, "sched", 0, sched},
		{nw, "runtime", 0, runtime},
		{nw, "sched", 0, sched},
		{nw, "mypkg", 0, runtime},
		{nw, "os", 0, ""},
		{nw, "mmengine", 0, ""},
		{g, "base.gin", 0, base},
		{g, "common.gin", 0, near},
		{pkg, "base.gin", 0, base},
		{up, " a\n", 0, old},
	} {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		u := s.open(c.file)
		s.wait(u, func([]protocol.Diagnostic) bool { return true })
		off := strings.Index(string(src), c.at) + 2
		line := strings.Count(string(src[:off]), "\n")
		ch := off - (strings.LastIndexByte(string(src[:off]), '\n') + 1)
		res, err := s.server.Definition(s.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: uint32(line), Character: uint32(ch)}}})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if loc, ok := res.(*protocol.Location); ok && loc != nil {
			got = loc.URI.FsPath()
		}
		if got != c.want {
			t.Errorf("%s at %q: definition %q, want %q", filepath.Base(c.file), c.at, got, c.want)
		}
	}
}
