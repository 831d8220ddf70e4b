package lsp

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/trainlint/trainlint/lint/doc"
)

// Completion in configs written as code offers the framework's keys written as the spot writes
// them (a dict(...) keyword, a ConfigDict attribute, a gin binding), with defaults only where
// they are literals, and nothing where the cursor is not at a config key (a list, another call,
// a function's local variable, a bare name in a get_config body). Every offer that ends in a
// value is applied and read back: the file parses, and the key lands under the path offered.
func TestCodeCompletion(t *testing.T) {
	mm := "train_dataloader = dict(batch_size=16, num_workers=4)\nval_dataloader = dict(batch_size=4, num_workers=2)\ndefault_hooks = dict(timer=dict(type='IterTimerHook'))\n"
	bv := "import ml_collections\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n  config.input = dict(batch_size=4096)\n  config.total_steps = 90_000\n  @\n  return config\n"
	gin := "from t5x import utils\ntrain/utils.DatasetConfig.batch_size = 128\ntrain_eval/utils.DatasetConfig.batch_size = 32\n"
	cases := []struct {
		file, base, at string // at replaces "@" in base (or is appended), "|" marks the cursor
		want           []string
		parent         string // where the offers land
	}{
		{"mm.py", mm, "default_hooks = dict(checkpoint=dict(max_|))\n", []string{"max_keep_ckpts=-1"}, "default_hooks.checkpoint"},
		{"mm.py", mm, "default_hooks = dict(\n    checkpoint=dict(\n        type='CheckpointHook',\n        |))\n", []string{"interval=-1", "max_keep_ckpts=-1", "save_best=None"}, "default_hooks.checkpoint"},
		{"mm.py", mm, "randomness = dict(seed=0, |)\n", []string{"diff_rank_seed=False"}, "randomness"},
		{"mm.py", mm, "randomness = dict(seed=0, diff_rank_seed=|)\n", []string{"True", "False"}, ""},
		// keywords after the cursor, on its line or below, are written already
		{"mm.py", mm, "randomness = dict(|\n    seed=0, diff_rank_seed=True)\n", nil, ""},
		{"mm.py", mm, "randomness = dict(|, seed=f(a=1, diff_rank_seed=2))\n", []string{"diff_rank_seed=False"}, "randomness"},
		{"mm.py", mm, "default_hooks = dict(checkpoint=dict(type='CheckpointHook', |,\n        interval=1, max_keep_ckpts=3))\n", []string{"save_best=None"}, "default_hooks.checkpoint"},
		{"mm.py", mm, "train_cfg = dict(type='EpochBasedTrainLoop', |)\n", []string{"val_interval=1", "max_epochs=", "max_iters="}, "train_cfg"},
		{"mm.py", mm, "sync_bn = |\n", []string{"'torch'", "'mmcv'"}, ""},
		{"mm.py", mm, "sy|\n", []string{"sync_bn = None"}, ""},
		{"mm.py", mm, "x = [dict(|)]\n", nil, ""},
		{"mm.py", mm, "x = f(dict(|))\n", nil, ""},
		{"mm.py", mm, "randomness = [|]\n", nil, ""},
		// {...} displays: 'name': value, the quote typed kept (and the one the editor closed
		// replaced)
		{"mm.py", mm, "randomness = {|}\n", []string{"'seed': None", "'diff_rank_seed': False"}, "randomness"},
		{"mm.py", mm, "randomness = {'seed': 0, |}\n", []string{"'diff_rank_seed': False"}, "randomness"},
		{"mm.py", mm, "randomness = {|,\n    'seed': 0}\n", []string{"'diff_rank_seed': False"}, "randomness"},
		{"mm.py", mm, "randomness = {'di|'}\n", []string{"'diff_rank_seed': False"}, "randomness"},
		{"mm.py", mm, "randomness = {\"di|}\n", []string{"\"diff_rank_seed\": False"}, "randomness"},
		{"mm.py", mm, "randomness = {'diff_rank_seed': |}\n", []string{"True", "False"}, ""},
		{"mm.py", mm, "default_hooks = {'checkpoint': {'type': 'CheckpointHook', |}}\n", []string{"'interval': -1", "'max_keep_ckpts': -1", "'save_best': None"}, "default_hooks.checkpoint"},
		{"mm.py", mm, "default_hooks = {|}\n", []string{"'checkpoint': {}"}, "default_hooks"},
		{"mm.py", mm, "randomness = {r'di|'}\n", nil, ""},
		{"mm.py", mm, "randomness = {x: 'di|'}\n", nil, ""},
		{"mm.py", mm, "randomness = {'seed': 0, 'x': f'{|'}\n", nil, ""},
		{"mm.py", mm, "randomness = Randomness(|)\n", nil, ""},
		{"mm.py", mm, "randomness = {'a': dict(|)}\n", nil, ""},
		{"mm.py", mm, "default_hooks = {'checkpoint': dict(type='CheckpointHook', |)}\n", []string{"interval=-1", "max_keep_ckpts=-1", "save_best=None"}, "default_hooks.checkpoint"},
		{"mm.py", mm, "default_hooks = {'checkpoint.x': dict(|)}\n", nil, ""},
		{"mm.py", mm, "randomness = \\\r\n    dict(seed=0, |)\r\n", []string{"diff_rank_seed=False"}, "randomness"},
		{"mm.py", mm, "def f():\n    sy|\n", nil, ""},
		{"mm.py", mm, "s = 'randomness = dict(|'\n", nil, ""},
		{"bv.py", bv, "config.|", []string{"prefetch_to_device = 1", "seed = 0", "log_training_steps = ", "ckpt_steps = None", "keep_ckpt_steps = None", "batch_size_eval = ", "evals = dict()"}, ""},
		{"bv.py", bv, "config.input.|", []string{"prefetch = 2"}, "input"},
		{"bv.py", bv, "config.input = dict(batch_size=4096, pre|)", []string{"prefetch=2"}, "input"},
		{"bv.py", bv, "config.evals.fewshot.|", []string{"log_steps = ", "batch_size = "}, "evals.fewshot"},
		{"bv.py", bv, "lo|", nil, ""},
		{"bv.py", bv, "x = config.|", nil, ""},
		{"bv.py", bv, "config['input'].|", nil, ""},
		{"t.gin", gin, "train.|\n", []string{"eval_period = ", "eval_steps = ", "total_steps = ", "random_seed = None"}, "train"},
		{"t.gin", gin, "utils.SaveCheckpointConfig.k|\n", []string{"keep = None"}, "utils.SaveCheckpointConfig"},
		// whole binding paths continue what is typed before their last dot (not those bound)
		{"t.gin", gin, "tr|\n", []string{"train.eval_period = ", "train.eval_steps = ", "train.total_steps = ", "train.random_seed = None"}, ""},
		{"t.gin", gin, "utils.Sa|\n", []string{"SaveCheckpointConfig.period = None", "SaveCheckpointConfig.keep = None"}, "utils"},
		{"t.gin", gin, "train/utils.DatasetConfig.|\n", nil, ""}, // batch_size is written already
		{"t.gin", gin, "x = [\n  train.|\n]\n", nil, ""},
		// a block binds its configurable's parameters on the indented lines below it
		{"t.gin", gin, "utils.SaveCheckpointConfig:\n  period = 100\n\n  # the count\n  k|\n", []string{"keep = None"}, "utils.SaveCheckpointConfig"},
		{"t.gin", gin, "utils.SaveCheckpointConfig:\n  train.|\n", nil, ""},
		{"t.gin", gin, "train.eval_period = [\n  1,\n]\n  tot|\n", nil, ""},
		{"t.gin", gin, "x = '''\ntrain.|\n", nil, ""},
	}
	dir := t.TempDir()
	s := start(t, dir)
	opened := map[string]bool{}
	for _, c := range cases {
		p := filepath.Join(dir, c.file)
		base := c.base
		if !strings.Contains(base, "@") {
			base += "@"
		}
		text := strings.Replace(base, "@", c.at, 1)
		cur := strings.Index(text, "|")
		text = text[:cur] + text[cur+1:]
		u := uri.File(p)
		if !opened[c.file] {
			os.WriteFile(p, []byte(strings.Replace(base, "@", "", 1)), 0o644)
			u = s.open(p)
			opened[c.file] = true
			// The first lint names the framework, which a line being typed can leave unreadable.
			s.wait(u, func([]protocol.Diagnostic) bool { return true })
		}
		s.change(u, text)
		line := strings.Count(text[:cur], "\n")
		char := cur - (strings.LastIndexByte(text[:cur], '\n') + 1)
		items := s.completeAt(u, line, char)
		var got []string
		for _, it := range items {
			te := it.TextEdit.(*protocol.TextEdit)
			got = append(got, te.NewText)
			// Apply the offer: it replaces the word typed, up to the cursor.
			if strings.HasSuffix(te.NewText, "=") || strings.HasSuffix(te.NewText, "= ") || strings.HasSuffix(te.NewText, ": ") || !strings.Contains(te.NewText, "=") && !strings.Contains(te.NewText, ": ") {
				continue // no value to read back (values alone are checked by the key they go to)
			}
			ls := strings.LastIndexByte(text[:cur], '\n') + 1
			out := text[:ls+int(te.Range.Start.Character)] + te.NewText + text[ls+int(te.Range.End.Character):]
			f := doc.Python
			if strings.HasSuffix(c.file, ".gin") {
				f = doc.Gin
			}
			d := doc.Parse(c.file, []byte(out), f, doc.Limits{})
			if len(d.Problems) > 0 || d.Root == nil {
				t.Errorf("%s %q: offer %q makes a file that does not read: %v\n%s", c.file, c.at, te.NewText, d.Problems, out)
				continue
			}
			name, _, _ := strings.Cut(te.NewText, "=")
			if q := te.NewText[:1]; q == "'" || q == `"` {
				name, _, _ = strings.Cut(te.NewText[1:], q) // a display's key
			}
			path := joinPath(c.parent, strings.TrimSpace(name))
			if d.Root.At(path) == nil {
				t.Errorf("%s %q: offer %q does not land at %s:\n%s", c.file, c.at, te.NewText, path, out)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q: offers %q, want %q", c.file, c.at, got, c.want)
		}
	}
}

// FuzzCodeSpot: the scans that place the cursor in Python and gin text end, never panic, and
// name no key under a spot that is not one (a value spot names its key).
func FuzzCodeSpot(f *testing.F) {
	f.Add([]byte("default_hooks = dict(\n    checkpoint=dict(\n        type='CheckpointHook', "), 60)
	f.Add([]byte("def get_config():\n  config = ConfigDict()\n  config.input = dict(pre"), 66)
	f.Add([]byte("x = '''a\\\n'''\nr'\\'' f\"{x}\" [{'k': dict(a=1, "), 40)
	f.Add([]byte("train/utils.DatasetConfig.batch_size = [\n  1,\n]\ntrain."), 52)
	f.Fuzz(func(t *testing.T, src []byte, off int) {
		if len(src) > 4096 {
			src = src[:4096]
		}
		if off < 0 || off > len(src) {
			off = len(src)
		}
		lineStart := off
		for lineStart > 0 && src[lineStart-1] != '\n' {
			lineStart--
		}
		for _, getConfig := range []bool{false, true} {
			sp, ok := pythonSpot(src, off, configRoots(src, getConfig), !getConfig)
			if ok && sp.value && sp.key == "" {
				t.Fatalf("python value spot without a key: %+v", sp)
			}
		}
		if sp, ok := ginSpot(src, lineStart, off); ok && sp.value && sp.key == "" {
			t.Fatalf("gin value spot without a key: %+v", sp)
		}
	})
}

// Hover finds a key whose dialect path has "[]" for any entry: big_vision's evals.[].log_steps
// under config.evals.fewshot.
func TestHoverAnyEntryKey(t *testing.T) {
	dir := t.TempDir()
	src := "import ml_collections\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n  config.input = dict(batch_size=4096)\n  config.evals = {}\n  config.evals.fewshot = dict(type='fewshot', log_steps=1000)\n  return config\n"
	p := filepath.Join(dir, "bv.py")
	os.WriteFile(p, []byte(src), 0o644)
	s := start(t, dir)
	u := s.open(p)
	s.wait(u, func([]protocol.Diagnostic) bool { return true })
	off := strings.Index(src, "log_steps")
	line := strings.Count(src[:off], "\n")
	char := off - (strings.LastIndexByte(src[:off], '\n') + 1) + 2
	h, err := s.server.Hover(s.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: uint32(line), Character: uint32(char)}}})
	if err != nil {
		t.Fatal(err)
	}
	if h == nil || !strings.Contains(h.Contents.(*protocol.MarkupContent).Value, "evals.[].log_steps") {
		t.Fatalf("hover on log_steps: %+v", h)
	}
}

// A Python file that is no config when opened (a new, empty file in a config folder) is linted
// once what is typed makes it one, and completion works in it.
func TestPythonFileBecomesConfig(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "configs", "new.py")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, nil, 0o644)
	s := start(t, dir)
	u := s.open(p)
	text := "train_dataloader = dict(batch_size=16, num_workers=4)\nval_dataloader = dict(batch_size=4, num_workers=2)\n"
	s.change(u, text)
	s.wait(u, has("TL202"))
	text += "randomness = dict(seed=0, )\n"
	s.change(u, text)
	items := s.completeAt(u, 2, len("randomness = dict(seed=0, "))
	if len(items) != 1 || items[0].Label != "diff_rank_seed" {
		t.Errorf("completion in the new config: %+v", items)
	}
}
