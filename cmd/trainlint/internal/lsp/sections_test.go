package lsp

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/trainlint/trainlint/lint/doc"
)

// Completion offers the sections that lead to a framework's keys where the cursor is above
// them, written as the file's format opens a mapping (or a list) for their keys. Every offer is
// applied, a key of the section is typed where the cursor lands, and the file is read back: it
// parses and the key is where the section says. A client without snippets gets the same text
// without the cursor mark; TOML and gin get no sections; sections written already are not
// offered again.
func TestSectionCompletion(t *testing.T) {
	lightning := "seed_everything: 1\nmodel:\n  class_path: m.M\n@"
	ds := "{\n  \"train_batch_size\": 8,\n  \"gradient_accumulation_steps\": 1,\n@\n}\n"
	mm := "train_dataloader = dict(batch_size=16, num_workers=4)\nval_dataloader = dict(batch_size=4, num_workers=2)\n@"
	bv := "import ml_collections\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n  config.input = dict(batch_size=4096)\n  @\n  return config\n"
	cases := []struct {
		file, base, at string // at replaces "@" in base, "|" marks the cursor
		label, want    string // the section offered and what it inserts ("" when none is)
		then, path     string // typed where the cursor lands, and where that key must be
	}{
		{"l.yaml", lightning, "tra|\n", "trainer", "trainer:\n  $0", "max_epochs: 3", "trainer.max_epochs"},
		{"l.yaml", lightning, "trainer:\n  max_epochs: 3\n  call|\n", "callbacks", "callbacks:\n    - $0", "class_path: x", "trainer.callbacks.0.class_path"},
		{"l.yaml", lightning, "trainer:\n  callbacks:\n    - class_path: ModelCheckpoint\n      init|\n", "init_args", "init_args:\n        $0", "monitor: val_loss", "trainer.callbacks.0.init_args.monitor"},
		{"l.yaml", lightning, "trainer:\n  callbacks:\n    - init|\n", "init_args", "init_args:\n        $0", "monitor: val_loss", "trainer.callbacks.0.init_args.monitor"},
		{"l.yaml", lightning, "trainer: tra|\n", "", "", "", ""},                                 // a value
		{"l.yaml", lightning, "x: [1, tra|]\n", "", "", "", ""},                                  // a flow sequence
		{"l.yaml", "seed_everything: 1\ntrainer:\n  max_epochs: 3\n@", "tra|\n", "", "", "", ""}, // written already
		// trainer.callbacks is a key that takes a list or a mapping: the section replaces it
		{"l.yaml", "seed_everything: 1\ntrainer:\n  max_epochs: 3\n@", "  callbacks:\n  - init|\n", "init_args", "init_args:\n      $0", "monitor: val_loss", "trainer.callbacks.0.init_args.monitor"},
		{"ds.json", ds, "  \"zero_opt|", "zero_optimization", "\"zero_optimization\": {$0}", "\"stage\": 2", "zero_optimization.stage"},
		{"ds.json", ds, "  \"zero_opt|\"", "zero_optimization", "\"zero_optimization\": {$0}", "\"stage\": 2", "zero_optimization.stage"},
		{"mm.py", mm, "train_c|\n", "train_cfg", "train_cfg = dict($0)", "max_epochs=12", "train_cfg.max_epochs"},
		{"mm.py", mm, "default_hooks = dict(|)\n", "checkpoint", "checkpoint=dict($0)", "max_keep_ckpts=3", "default_hooks.checkpoint.max_keep_ckpts"},
		{"mm.py", mm, "default_hooks = dict(checkpoint=dict(interval=1), |)\n", "", "", "", ""},
		{"mm.py", mm, "default_hooks = {'timer': {}, |}\n", "checkpoint", "'checkpoint': {$0}", "'max_keep_ckpts': 3", "default_hooks.checkpoint.max_keep_ckpts"},
		{"mm.py", mm, "default_hooks = {\"che|\"}\n", "checkpoint", "\"checkpoint\": {$0}", "\"max_keep_ckpts\": 3", "default_hooks.checkpoint.max_keep_ckpts"},
		{"bv.py", bv, "config.ev|", "evals", "evals = dict($0)", "fewshot=dict(log_steps=100)", "evals.fewshot.log_steps"},
	}
	for _, snippets := range []bool{true, false} {
		dir := t.TempDir()
		var caps protocol.ClientCapabilities
		if snippets {
			caps.TextDocument = &protocol.TextDocumentClientCapabilities{Completion: &protocol.CompletionClientCapabilities{
				CompletionItem: &protocol.ClientCompletionItemOptions{SnippetSupport: boolp(true)}}}
		}
		s := startCaps(t, 5*time.Millisecond, caps, dir)
		opened := map[string]uri.URI{}
		for _, c := range cases {
			p := filepath.Join(dir, c.file)
			text := strings.Replace(c.base, "@", c.at, 1)
			cur := strings.Index(text, "|")
			text = text[:cur] + text[cur+1:]
			u, ok := opened[c.file+c.base]
			if !ok {
				os.WriteFile(p, []byte(strings.Replace(c.base, "@", "", 1)), 0o644)
				u = s.open(p)
				opened[c.file+c.base] = u
				s.wait(u, func([]protocol.Diagnostic) bool { return true })
			}
			s.change(u, text)
			line := strings.Count(text[:cur], "\n")
			char := cur - (strings.LastIndexByte(text[:cur], '\n') + 1)
			items := s.completeAt(u, line, char)
			var got *protocol.CompletionItem
			var labels []string
			for i := range items {
				if items[i].Kind == protocol.CompletionItemKindModule {
					labels = append(labels, items[i].Label)
					if items[i].Label == c.label {
						got = &items[i]
					}
				}
			}
			for _, it := range items {
				if it.Kind == protocol.CompletionItemKindProperty && slices.Contains(labels, it.Label) {
					t.Errorf("%s %q: %s offered both as a key and as a section", c.file, c.at, it.Label)
				}
			}
			if c.label == "" {
				if len(labels) > 0 {
					t.Errorf("%s %q: offers sections %q, want none", c.file, c.at, labels)
				}
				continue
			}
			if got == nil {
				t.Errorf("%s %q: no section %s among %q", c.file, c.at, c.label, labels)
				continue
			}
			te := got.TextEdit.(*protocol.TextEdit)
			want := c.want
			if !snippets {
				want = strings.ReplaceAll(want, "$0", "")
			}
			isSnippet := got.InsertTextFormat == protocol.InsertTextFormatSnippet
			if te.NewText != want || isSnippet != snippets || got.InsertTextMode != protocol.InsertTextModeAsIs {
				t.Errorf("%s %q: inserts %q (snippet %v, mode %v), want %q (snippet %v, as is)", c.file, c.at, te.NewText, isSnippet, got.InsertTextMode, want, snippets)
			}
			// Apply the offer over the word, type a key where the cursor goes, read back.
			ls := strings.LastIndexByte(text[:cur], '\n') + 1
			ins := c.want
			mark := strings.Index(ins, "$0")
			out := text[:ls+int(te.Range.Start.Character)] + ins[:mark] + c.then + ins[mark+2:] + text[ls+int(te.Range.End.Character):]
			f := doc.Python
			switch filepath.Ext(c.file) {
			case ".yaml":
				f = doc.YAML
			case ".json":
				f = doc.JSON
			}
			d := doc.Parse(c.file, []byte(out), f, doc.Limits{})
			if len(d.Problems) > 0 || d.Root == nil {
				t.Errorf("%s %q: the offer makes a file that does not read: %v\n%s", c.file, c.at, d.Problems, out)
				continue
			}
			if at(d.Root, c.path) == nil {
				t.Errorf("%s %q: %q does not land at %s:\n%s", c.file, c.at, c.then, c.path, out)
			}
		}
	}
	// TOML and gin: none.
	dir := t.TempDir()
	s := start(t, dir)
	for name, text := range map[string]string{
		"c.toml": "[checkpoint]\nkeep = 3\n\n",
		"t.gin":  "from t5x import utils\ntrain.total_steps = 100\n",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		u := s.open(p)
		s.wait(u, func([]protocol.Diagnostic) bool { return true })
		s.change(u, text+"u")
		for _, it := range s.completeAt(u, strings.Count(text, "\n"), 1) {
			if it.Kind == protocol.CompletionItemKindModule {
				t.Errorf("%s: offers section %s", name, it.Label)
			}
		}
	}
}

// at follows a dotted path whose numeric parts index lists.
func at(n *doc.Node, path string) *doc.Node {
	for _, p := range strings.Split(path, ".") {
		if n == nil {
			return nil
		}
		if n.Kind == doc.Seq {
			i := 0
			for _, c := range p {
				i = i*10 + int(c-'0')
			}
			if i >= len(n.Children) {
				return nil
			}
			n = n.Children[i]
			continue
		}
		n = n.Get(p)
	}
	return n
}

func TestChildSection(t *testing.T) {
	cases := []struct {
		path, parent, name string
		list, ok           bool
	}{
		{"trainer.max_epochs", "", "trainer", false, true},
		{"trainer.max_epochs", "trainer", "", false, false},
		{"trainer.callbacks[].init_args.monitor", "trainer", "callbacks", true, true},
		{"trainer.callbacks[].init_args.monitor", "trainer.callbacks[]", "init_args", false, true},
		{"trainer.callbacks[].init_args.monitor", "trainer.callbacks", "", false, false},
		{"evals.[].log_steps", "", "evals", false, true},
		{"evals.[].log_steps", "evals", "", false, false},
		{"a.b.c.d", "a.x", "", false, false},
	}
	for _, c := range cases {
		name, list, ok := childSection(c.path, c.parent)
		if got := []any{name, list, ok}; !reflect.DeepEqual(got, []any{c.name, c.list, c.ok}) {
			t.Errorf("childSection(%q, %q) = %v, want %v", c.path, c.parent, got, []any{c.name, c.list, c.ok})
		}
	}
}

// Hover on a section's key lists the keys it leads to; on a mapping the framework has no keys
// below, nothing.
func TestHoverSection(t *testing.T) {
	dir := t.TempDir()
	path := copyExample(t, dir, "lightning-cli.yaml")
	s := start(t, dir)
	u := s.open(path)
	s.wait(u, func([]protocol.Diagnostic) bool { return true })
	lines := strings.Split(s.texts[u], "\n")
	find := func(prefix string) int {
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return i
			}
		}
		t.Fatalf("no line %q", prefix)
		return 0
	}
	got := s.hoverAt(u, find("trainer:"), 2)
	for _, want := range []string{"**trainer**: a section", "`trainer.max_epochs`", "PyTorch Lightning"} {
		if !strings.Contains(got, want) {
			t.Errorf("hover on trainer lacks %q:\n%s", want, got)
		}
	}
	if got := s.hoverAt(u, find("model:"), 2); got != "" {
		t.Errorf("hover on model (no keys below it): %q", got)
	}
}
