package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/corpustest"
	"github.com/trainlint/trainlint/rules"
)

// hfSFT is a TRL-style SFT config with comments, quoted values and a too-small eval batch
// (TL202 has a safe fix: set the eval batch to the train batch).
const hfSFT = `# SFT recipe (trl sft --config sft.yaml)
model_name_or_path: "meta-llama/Llama-3.1-8B"   # base model
dataset_name: 'HuggingFaceH4/ultrachat_200k'
per_device_train_batch_size: 16  # fits an 80 GB card
per_device_eval_batch_size: 4    # too small: eval keeps no activations
gradient_accumulation_steps: 2
eval_strategy: "steps"
eval_steps: 500
output_dir: "out/llama-sft"
`

func fixOf(t *testing.T, path, text string, unsafe bool) lint.FixOutcome {
	t.Helper()
	out, err := lint.FixFile(lint.File{Path: path, Text: []byte(text)}, rules.All(), lint.Options{}, unsafe)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFixFileKeepsCommentsAndQuotes(t *testing.T) {
	out := fixOf(t, "sft.yaml", hfSFT, false)
	want := strings.Replace(hfSFT, "per_device_eval_batch_size: 4    #", "per_device_eval_batch_size: 16    #", 1)
	if string(out.Text) != want {
		t.Fatalf("fixed text:\n%s\nwant:\n%s", out.Text, want)
	}
	if out.Applied != 1 || out.Rounds != 1 {
		t.Errorf("applied %d in %d rounds, want 1 in 1", out.Applied, out.Rounds)
	}
	for _, d := range out.Diagnostics {
		if d.Code == "TL202" {
			t.Errorf("TL202 still reported after the fix: %s", d.Message)
		}
	}
	again := fixOf(t, "sft.yaml", string(out.Text), false)
	if again.Changed() || string(again.Text) != string(out.Text) {
		t.Errorf("a second fix changed the text:\n%s", again.Text)
	}
}

func TestFixFileKeepsCRLF(t *testing.T) {
	crlf := strings.ReplaceAll(hfSFT, "\n", "\r\n")
	out := fixOf(t, "sft.yaml", crlf, false)
	want := strings.ReplaceAll(strings.Replace(hfSFT, "per_device_eval_batch_size: 4 ", "per_device_eval_batch_size: 16 ", 1), "\n", "\r\n")
	if string(out.Text) != want {
		t.Fatalf("fixed CRLF text:\n%q\nwant:\n%q", out.Text, want)
	}
	if strings.Count(string(out.Text), "\r\n") != strings.Count(string(out.Text), "\n") {
		t.Error("a line lost its \\r")
	}
}

func TestFixFileJSON(t *testing.T) {
	src := "{\n  \"model_name_or_path\": \"bert-base-uncased\",\n  \"eval_strategy\": \"steps\",\n  \"per_device_train_batch_size\": 64,\n  \"per_device_eval_batch_size\": 32,\n  \"output_dir\": \"out\"\n}\n"
	out := fixOf(t, "args.json", src, false)
	want := strings.Replace(src, `"per_device_eval_batch_size": 32`, `"per_device_eval_batch_size": 64`, 1)
	if string(out.Text) != want {
		t.Fatalf("fixed JSON:\n%s\nwant:\n%s", out.Text, want)
	}
}

// testRule builds a rule whose findings come from fn (to exercise the fix loop on its own).
func testRule(code string, fn func(p *lint.Pass)) *lint.Rule {
	return &lint.Rule{Code: code, Name: "test-" + strings.ToLower(code), Category: lint.CatStructure, Severity: lint.Warning,
		Title: "test", Rationale: "test", Fix: "test", Frameworks: []string{"*"}, Check: fn}
}

func TestFixFileUnsafeOnlyWhenAsked(t *testing.T) {
	r := testRule("TL990", func(p *lint.Pass) {
		n := p.Doc.Root.Get("seed")
		if n != nil && n.Value == "1" {
			p.Report(lint.Finding{Node: n, Message: "m", Fix: lint.ReplaceValue(n, "2", lint.Unsafe, "set seed to 2")})
		}
	})
	src := "seed: 1 # keep\n"
	out, err := lint.FixFile(lint.File{Path: "a.yaml", Text: []byte(src)}, []*lint.Rule{r}, lint.Options{}, false)
	if err != nil || out.Changed() || string(out.Text) != src {
		t.Fatalf("unsafe fix applied without unsafe: %q %v", out.Text, err)
	}
	out, err = lint.FixFile(lint.File{Path: "a.yaml", Text: []byte(src)}, []*lint.Rule{r}, lint.Options{}, true)
	if err != nil || string(out.Text) != "seed: 2 # keep\n" {
		t.Fatalf("unsafe fix not applied with unsafe: %q %v", out.Text, err)
	}
}

// A value left out is set by writing it after the ':' with a space, keeping the comment.
func TestFixFileSetsEmptyValue(t *testing.T) {
	r := testRule("TL992", func(p *lint.Pass) {
		for _, k := range []string{"seed", "steps"} {
			if n := p.Doc.Root.Get(k); n != nil && n.Value == "" {
				p.Report(lint.Finding{Node: n, Message: "m", Fix: lint.ReplaceValue(n, "7", lint.Safe, "set it")})
			}
		}
	})
	src := "seed:\nsteps: # why\nlr: 1\n"
	out, err := lint.FixFile(lint.File{Path: "a.yaml", Text: []byte(src)}, []*lint.Rule{r}, lint.Options{}, false)
	if want := "seed: 7\nsteps: 7 # why\nlr: 1\n"; err != nil || string(out.Text) != want {
		t.Fatalf("fixed %q (%v), want %q", out.Text, err, want)
	}
}

// Two fixes of the same value overlap: one applies per round and the loop re-lints, so both
// findings are settled after two rounds.
func TestFixFileOverlappingFixesConverge(t *testing.T) {
	r := testRule("TL991", func(p *lint.Pass) {
		n := p.Doc.Root.Get("steps")
		if n == nil {
			return
		}
		switch n.Value {
		case "1":
			// Two competing fixes on the same bytes; the first wins this round.
			p.Report(lint.Finding{Node: n, Message: "a", Fix: lint.ReplaceValue(n, "2", lint.Safe, "to 2")})
			p.Report(lint.Finding{Node: n, Message: "b", Fix: lint.ReplaceValue(n, "9", lint.Safe, "to 9")})
		case "2":
			p.Report(lint.Finding{Node: n, Message: "c", Fix: lint.ReplaceValue(n, "3", lint.Safe, "to 3")})
		}
	})
	out, err := lint.FixFile(lint.File{Path: "a.yaml", Text: []byte("steps: 1\n")}, []*lint.Rule{r}, lint.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if string(out.Text) != "steps: 3\n" || out.Rounds != 2 || out.Applied != 2 {
		t.Fatalf("got %q after %d rounds (%d fixes), want \"steps: 3\" after 2 rounds", out.Text, out.Rounds, out.Applied)
	}
}

// Fixes that keep producing new fixes stop after MaxFixRounds.
func TestFixFileStopsAfterMaxRounds(t *testing.T) {
	r := testRule("TL992", func(p *lint.Pass) {
		if n := p.Doc.Root.Get("n"); n != nil {
			p.Report(lint.Finding{Node: n, Message: "grow", Fix: lint.ReplaceValue(n, n.Value+"1", lint.Safe, "grow")})
		}
	})
	out, err := lint.FixFile(lint.File{Path: "a.yaml", Text: []byte("n: 1\n")}, []*lint.Rule{r}, lint.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if out.Rounds != lint.MaxFixRounds || string(out.Text) != "n: 1"+strings.Repeat("1", lint.MaxFixRounds)+"\n" {
		t.Fatalf("got %q after %d rounds", out.Text, out.Rounds)
	}
}

// A fix that breaks the syntax is refused: the error names the rule and the text is unchanged.
func TestFixFileRefusesUnparsableResult(t *testing.T) {
	r := testRule("TL993", func(p *lint.Pass) {
		if n := p.Doc.Root.Get("a"); n != nil && n.Value == "1" {
			p.Report(lint.Finding{Node: n, Message: "m", Fix: lint.ReplaceValue(n, "[1, 2", lint.Safe, "break it")})
		}
	})
	src := "a: 1\nb: 2\n"
	out, err := lint.FixFile(lint.File{Path: "a.yaml", Text: []byte(src)}, []*lint.Rule{r}, lint.Options{}, false)
	if err == nil || !strings.Contains(err.Error(), "TL993") || !strings.Contains(err.Error(), "unparsable") {
		t.Fatalf("want an internal error naming TL993, got %v", err)
	}
	if string(out.Text) != src {
		t.Fatalf("text changed despite the error: %q", out.Text)
	}
}

func TestRenameKeyKeepsQuoting(t *testing.T) {
	for _, c := range []struct{ path, src, want, to string }{
		{"a.yaml", "old: 1 # c\r\nz: 2\r\n", "new: 1 # c\r\nz: 2\r\n", "new"},
		{"a.yaml", "'old': 1\n", "'new': 1\n", "new"},
		{"a.yaml", "'old': 1\n", "'it''s': 1\n", "it's"},
		{"a.yaml", "\"old\": 1\n", "\"new\": 1\n", "new"},
		{"a.json", "{\"old\": 1, \"z\": 2}", "{\"new\": 1, \"z\": 2}", "new"},
		// JSON5: a bare or single-quoted key keeps its quoting where JSON5 reads it without escapes.
		{"a.json", "{old: 1, z: 2}", "{new_2: 1, z: 2}", "new_2"},
		{"a.json", "{old: 1, z: 2}", "{\"new-key\": 1, z: 2}", "new-key"},
		{"a.json", "{'old': 1}", "{'new': 1}", "new"},
		{"a.json", "{'old': 1}", "{\"it's\": 1}", "it's"},
		{"a.toml", "old = 1 # c\nz = 2\n", "new = 1 # c\nz = 2\n", "new"},
	} {
		r := testRule("TL994", func(p *lint.Pass) {
			if n := p.Doc.Root.Get("old"); n != nil {
				p.Report(lint.Finding{Node: n, AtKey: true, Message: "renamed", Fix: lint.RenameKey(p.Doc, n, c.to, lint.Safe, "rename")})
			}
		})
		out, err := lint.FixFile(lint.File{Path: c.path, Text: []byte(c.src)}, []*lint.Rule{r}, lint.Options{}, false)
		if err != nil || string(out.Text) != c.want {
			t.Errorf("%s %q: got %q (%v), want %q", c.path, c.src, out.Text, err, c.want)
		}
	}
}

// TestFixCorpusIsIdempotent fixes every real config of the shared corpus (unsafe fixes included)
// and checks that the result still parses (FixFile refuses otherwise), that fixing it again
// changes nothing, and that the fixed findings are gone.
func TestFixCorpusIsIdempotent(t *testing.T) {
	dir, entries := corpustest.Manifest(t)
	files, fixed, fixes := 0, 0, 0
	for _, e := range entries {
		text, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		files++
		f := lint.File{Path: e.Path, Text: text}
		out, err := lint.FixFile(f, rules.All(), lint.Options{}, true)
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		if !out.Changed() {
			continue
		}
		fixed++
		fixes += out.Applied
		if out.Rounds >= lint.MaxFixRounds {
			t.Errorf("%s: fixes did not converge in %d rounds", e.Path, out.Rounds)
		}
		for _, d := range out.Diagnostics {
			if d.Fix != nil {
				t.Errorf("%s: a fixable finding is left after fixing: %s %s", e.Path, d.Code, d.Message)
			}
		}
		f.Text = out.Text
		again, err := lint.FixFile(f, rules.All(), lint.Options{}, true)
		if err != nil || again.Changed() {
			t.Errorf("%s: fixing twice changed the text again (%v)", e.Path, err)
		}
	}
	t.Logf("%d corpus files, %d fixed with %d fixes", files, fixed, fixes)
	if files < 100 {
		t.Errorf("only %d corpus files", files)
	}
}

// TestFixValueChangesThatValueAlone: a value fix is kept only where the edit changes the value
// the finding is about and nothing else. Before, a Python variable (bs = 1 ... batch_size=bs,
// lr = 0.1 * bs) was rewritten at its definition, silently changing the learning rate too.
func TestFixValueChangesThatValueAlone(t *testing.T) {
	setTo9 := func(path string) *lint.Rule {
		return testRule("TL993", func(p *lint.Pass) {
			if n := p.Doc.Root.At(path); n != nil {
				p.Report(lint.Finding{Node: n, Message: "m", Fix: lint.ReplaceValue(n, "9", lint.Safe, "set it to 9")})
			}
		})
	}
	for _, c := range []struct {
		name, file, src, path, want string // want "" = no fix
	}{
		{"python literal", "a.py", "val = dict(batch_size=1, workers=2)\n", "val.batch_size",
			"val = dict(batch_size=9, workers=2)\n"},
		{"python item assignment", "b.py", "def get_config():\n  c = {}\n  c['bs'] = 1\n  return c\n", "bs",
			"def get_config():\n  c = {}\n  c['bs'] = 9\n  return c\n"},
		{"python dict display", "c.py", "val = {'batch_size': 1}\n", "val.batch_size", "val = {'batch_size': 9}\n"},
		{"python variable feeding a computation", "d.py",
			"def get_config():\n  c = {}\n  bs = 1\n  c['bs'] = bs\n  c['lr'] = 0.1 * bs\n  return c\n", "bs", ""},
		{"python module variable used twice", "e.py", "bs = 1\nval = dict(batch_size=bs)\n", "val.batch_size", ""},
		{"python helper returning to two keys", "f.py",
			"def g():\n  return dict(batch_size=1)\nval = g()\ntest = g()\n", "val.batch_size", ""},
		{"python parameter", "g.py", "def f(b):\n  return dict(batch_size=b)\nval = f(1)\n", "val.batch_size", ""},
		// An expression written as the value: a literal in its place would cut the link to what
		// it is computed from (an ml_collections FieldReference follows later changes).
		{"python computed value", "n.py", "val = dict(batch_size=2 * 4)\n", "val.batch_size", ""},
		{"python field reference", "o.py", "import ml_collections\ndef get_config():\n  c = ml_collections.ConfigDict()\n  c.bs = 256\n" +
			"  c.eval_bs = c.get_ref('bs') // 4\n  return c\n", "eval_bs", ""},
		{"python negative literal", "p.py", "val = dict(batch_size=-1)\n", "val.batch_size", "val = dict(batch_size=9)\n"},
		{"yaml alias token", "h.yaml", "base: &b 1\nval: *b\n", "val", "base: &b 1\nval: 9\n"},
		{"yaml anchored value under an alias", "i.yaml", "a: &a {bs: 1}\nb: *a\n", "b.bs", ""},
		{"yaml merged entry", "j.yaml", "a: &a {bs: 1}\nb:\n  <<: *a\n  x: 2\n", "b.bs", ""},
		{"yaml anchor without aliases", "k.yaml", "a: &a 1\n", "a", "a: &a 9\n"},
		{"gin literal", "l.gin", "train.bs = 1\n", "train.bs", "train.bs = 9\n"},
		{"gin macro", "m.gin", "BS = 1\ntrain.bs = %BS\neval.bs = %BS\n", "train.bs",
			"BS = 1\ntrain.bs = 9\neval.bs = %BS\n"},
	} {
		out, err := lint.FixFile(lint.File{Path: c.file, Text: []byte(c.src)}, []*lint.Rule{setTo9(c.path)}, lint.Options{}, true)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := c.want
		if want == "" {
			want = c.src
		}
		if string(out.Text) != want {
			t.Errorf("%s: fixed to %q, want %q", c.name, out.Text, want)
		}
	}
}

// TestPyLiteral: what a fix may replace in a Python config: one literal, never an expression.
func TestPyLiteral(t *testing.T) {
	for src, want := range map[string]bool{
		"256": true, "-1": true, "1e-4": true, "3.5E+2": true, "0x1F": true, "1_000": true, ".5": true,
		"True": true, "None": true, "'bf16'": true, `"a" 'b'`: true, `r'\d'`: true, `'''x'''`: true, `b"x"`: true,
		`'it\'s'`:                           true,
		"config.get_ref('batch_size') // 4": false, "2 * 64": false, "bs": false, "-bs": false,
		"f'{x}'": false, "'a' + x": false, "'a' + 'b'": false, "(1)": false, "": false, "1 if c else 2": false,
		"rb'x' u'y'": true, "fr'x'": false, "'a": false,
		"0x1e+5": false, "0xE-1": false, "1.real": false, "-'a'": false, "-True": false, "1e5": true, "2j": true, "1.5e-3j": true,
		"0b101": true, "0o17": true, "1__0": false, "1-2": false, "99999999999999999999": true, "1e999": true,
	} {
		if got := lint.PyLiteral([]byte(src)); got != want {
			t.Errorf("%q: %v, want %v", src, got, want)
		}
	}
}
