package doc

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestSniff(t *testing.T) {
	cases := []struct {
		name, src string
		want      Format
	}{
		{"empty", "", ""},
		{"only comments", "# nothing here\n\n  # still nothing\n", ""},
		{"yaml mapping", "model: llama\nlr: 0.1\n", YAML},
		{"yaml after comments", "# header\nmodel: llama\n", YAML},
		{"yaml list", "- a\n- b\n", YAML},
		{"yaml document marker", "---\na: 1\n", YAML},
		{"yaml directive", "%YAML 1.2\n---\na: 1\n", YAML},
		{"yaml flow map with plain keys", "{a: 1, b: 2}\n", YAML},
		{"yaml flow list with plain words", "[a, b]\n", YAML},
		{"yaml quoted key", "\"a = b\": 1\n", YAML},
		{"yaml value with equals", "cmd: a = b\n", YAML},
		{"yaml with a bom", "\ufeffa: 1\n", YAML},
		{"toml table", "[train]\nbatch_size = 4\n", TOML},
		{"toml table after comments", "# in-house config\n\n[distributed]\nhosts = 16\n", TOML},
		{"toml array of tables", "[[runs]]\nname = \"a\"\n", TOML},
		{"toml dotted header with comment", "[model.encoder-v2]  # the encoder\nn = 1\n", TOML},
		{"toml quoted header", "[\"my table\"]\nn = 1\n", TOML},
		{"toml key value first", "title = \"x\"\n[a]\nb = 1\n", TOML},
		{"toml dotted key", "train.batch_size = 8\n", TOML},
		{"toml indented key", "  seed = 1\n", TOML},
		{"json object", "{\n  \"a\": 1\n}\n", JSON},
		{"json empty object", "{}", JSON},
		{"json object key on next line", "{\n\n\"train_batch_size\": 8}", JSON},
		{"json array", "[1, 2]\n", JSON},
		{"json array of objects", "[\n  {\"a\": 1}\n]\n", JSON},
		{"json array of strings", "[\"a\", \"b\"]\n", JSON},
		{"json one-literal arrays", "[true]\n", JSON},
		{"json number list", "[1]\n", JSON},
		{"json after comments is yaml", "# comment\n{\"a\": 1}\n", YAML},
		{"json with comments inside is yaml", "{\n  \"a\": 1,\n  # b\n  \"b\": \"#x\"\n}\n", YAML},
		{"json with a hash in a string", "{\"a\": \"x # \\\" # y\"}\n", JSON},
		{"comparison is not toml", "a == b\n", YAML},
		{"lone bracket", "{", JSON},
		{"crlf toml", "[a]\r\nb = 1\r\n", TOML},
		{"toml with a python-looking string", "name = \"f(x)\"\nok = true\n", TOML},
		{"toml that python reads the same", "gpu_ids = [0, 1]\n", TOML},
		{"gin dynamic registration", "from __gin__ import dynamic_registration\nfrom t5x import utils\n\nutils.SaveCheckpointConfig.keep = 5\n", Gin},
		{"gin include", "include 't5x/configs/runs/pretrain.gin'\nBATCH_SIZE = 128\n", Gin},
		{"gin legacy import then binding", "from t5x import utils\ntrain.total_steps = 1000\ntrain/utils.DatasetConfig.batch_size = 128\n", Gin},
		{"gin binding first", "train.total_steps = 1000\nutils.SaveCheckpointConfig.period = 1000\nMODEL = @models.EncoderDecoderModel()\n", Gin},
		{"gin scoped key first", "train/utils.DatasetConfig.batch_size = 128\n", Gin},
		{"gin macro value", "BATCH_SIZE = %gin.REQUIRED\n", Gin},
		{"gin dotted key with None", "utils.SaveCheckpointConfig.keep = None\n", Gin},
		{"python docstring", "r\"\"\"Pre-training ViT.\"\"\"\nimport ml_collections as mlc\n", Python},
		{"python def", "def get_config():\n  return {}\n", Python},
		{"python import then def", "import ml_collections\n\n\ndef get_config():\n  return ml_collections.ConfigDict()\n", Python},
		{"python imports only", "import os\nfrom a import b\n", Python},
		{"mmengine dict call", "optimizer = dict(type='SGD', lr=0.1)\n", Python},
		{"mmengine string first, dict later", "default_scope = 'mmdet'\n\ndefault_hooks = dict(\n    timer=dict(type='IterTimerHook'))\n", Python},
		{"mmengine base list", "_base_ = ['a.py']\nmodel = dict(type='RetinaNet')\n", Python},
		{"python None", "resume = None\n", Python},
	}
	for _, c := range cases {
		if got := Sniff([]byte(c.src)); got != c.want {
			t.Errorf("%s: Sniff(%q) = %q, want %q", c.name, c.src, got, c.want)
		}
	}
}

// TestSniffExamplesAndCorpus holds the sniffer to real files: every bundled example and every
// YAML, JSON, TOML, gin and Python file of the corpus is recognised as a format that reads it without a
// problem, the one its extension names or, for GPT-NeoX's JSON-styled .yml files, JSON. The one
// exception is a .yml file in JSON style with a trailing comma, which only YAML accepts: without
// its name it is taken for the broken JSON it looks like, and the parse error says so.
func TestSniffExamplesAndCorpus(t *testing.T) {
	files := corpusFiles(t, map[Format]bool{YAML: true, JSON: true, TOML: true, Gin: true, Python: true})
	examples, _ := filepath.Glob(filepath.Join("..", "..", "cmd", "trainlint", "examples", "*"))
	if len(examples) < 5 {
		t.Fatalf("found %d examples", len(examples))
	}
	for _, p := range examples {
		if f, ok := FormatFromPath(p); ok {
			files[p] = f
		}
	}
	for p, want := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got := Sniff(src)
		if got == "" && want == YAML {
			continue // nothing but comments: read as YAML anyway
		}
		if got == want {
			continue
		}
		if filepath.Base(p) == "configs__slurm_local.yml" && got == JSON {
			continue
		}
		if d := Parse(p, src, got, Limits{}); len(d.Problems) > 0 || got == "" {
			t.Errorf("%s: sniffed %q, the extension says %q", p, got, want)
		}
	}
}

// FuzzSniff: any bytes give a known answer without panicking; blank lines in front change
// nothing; JSON is answered only for text that starts with { or [ and has no # outside strings.
func FuzzSniff(f *testing.F) {
	for _, s := range []string{"", "[a]\nb = 1\n", "{\"a\": 1}", "a: 1", "\"unterminated", "['x", "[[a]]", "a.\"b\" = 1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		got := Sniff(src)
		switch got {
		case "", YAML, JSON, TOML, Gin, Python:
		default:
			t.Fatalf("unknown format for %q", src)
		}
		if again := Sniff(append([]byte("\n  \n"), src...)); again != got && !bytes.HasPrefix(src, []byte("\ufeff")) {
			t.Errorf("%q: %q, but %q after blank lines", src, got, again)
		}
		if trimmed := bytes.TrimSpace(src); got == JSON && (trimmed[0] != '{' && trimmed[0] != '[' || sniffHashComment(trimmed)) {
			t.Fatalf("JSON for %q", src)
		}
	})
}
