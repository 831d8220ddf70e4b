package rules

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// A start-up check is reported for the version the repository pins, and not at all when the
// pinned version predates the check or comes after it was dropped.
func TestRejectedAtStartupFollowsTarget(t *testing.T) {
	const text = "logging_strategy: steps\nlogging_steps: 0\nlearning_rate: 2.0e-05\nper_device_train_batch_size: 8\noutput_dir: out\n"
	lintAt := func(targets map[string]lint.Target) []lint.Diagnostic {
		_, diags := lint.LintFile(lint.File{Path: "sft.yaml", Text: []byte(text)}, All(),
			lint.Options{Select: []string{"TL011"}, Framework: "huggingface", Targets: targets})
		return diags
	}
	diags := lintAt(nil)
	if len(diags) != 1 || diags[0].Line != 2 || diags[0].Severity != lint.Error {
		t.Fatalf("newest: want one error on line 2, got %+v", diags)
	}
	diags = lintAt(map[string]lint.Target{"transformers": {Version: "4.46", Source: "requirements.txt"}})
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "transformers 4.46 stops at start-up (requirements.txt pins 4.46)") {
		t.Fatalf("pinned 4.46: want the pinned version named, got %+v", diags)
	}
	if h := diags[0].Help; !strings.Contains(h, "TrainingArguments.__post_init__") {
		t.Errorf("help does not name the check: %q", h)
	}
}

func TestRejectedAtStartupVersionRange(t *testing.T) {
	w := *RejectedAtStartup
	w.Check = func(p *lint.Pass) {
		p.Plan.Rejections = []plan.Rejection{{Node: p.Doc.Root.Get("a"), Key: "a", Message: "a is 1", Says: "a must not be 1",
			Package: "pkg", Since: "4.45", Until: "5.0", Read: "4.57.6", Source: "Args.check"}}
		RejectedAtStartup.Check(p)
	}
	for _, c := range []struct {
		target string
		want   string // "" for no finding
	}{
		{"", `a is 1: pkg 4.57.6 stops at start-up: "a must not be 1"`},
		{"4.40", ""},
		{"4.45.0", `a is 1: pkg 4.45.0 stops at start-up (pyproject.toml pins 4.45.0): "a must not be 1"`},
		{"5.0", ""},
		{"5.2.1", ""},
		{"not-a-version", ""}, // a version no table places (a [target] of "main"): not claimed
		{"git", ""},           // installed from a git commit (cmd/trainlint's pins)
	} {
		var targets map[string]lint.Target
		if c.target != "" {
			targets = map[string]lint.Target{"pkg": {Version: c.target, Source: "pyproject.toml"}}
		}
		_, diags := lint.LintFile(lint.File{Path: "x.yaml", Text: []byte("a: 1\n")}, []*lint.Rule{&w}, lint.Options{Framework: "generic", Targets: targets})
		switch {
		case c.want == "" && len(diags) != 0:
			t.Errorf("target %q: want nothing, got %+v", c.target, diags)
		case c.want != "" && (len(diags) != 1 || diags[0].Message != c.want):
			t.Errorf("target %q: want %q, got %+v", c.target, c.want, diags)
		}
	}
}

// Without a pinned version a check is reported only when the newest version read makes it.
func TestRejectedAtStartupNewestOnly(t *testing.T) {
	w := *RejectedAtStartup
	w.Check = func(p *lint.Pass) {
		p.Plan.Rejections = []plan.Rejection{
			{Node: p.Doc.Root.Get("a"), Message: "gone", Package: "pkg", Until: "5.0", Read: "5.15"},
			{Node: p.Doc.Root.Get("a"), Message: "kept", Package: "pkg", Since: "5.4", Read: "5.15"},
		}
		RejectedAtStartup.Check(p)
	}
	_, diags := lint.LintFile(lint.File{Path: "x.yaml", Text: []byte("a: 1\n")}, []*lint.Rule{&w}, lint.Options{Framework: "generic"})
	if len(diags) != 1 || diags[0].Message != "kept: pkg 5.15 stops at start-up" {
		t.Fatalf("want only the check the newest version makes, got %+v", diags)
	}
}

// An MMEngine Python config that starts with a byte order mark: Config.fromfile parses the
// file's text with ast.parse, which refuses the mark, though Python itself would import the
// file. The same text without the mark, and a big_vision config (imported) with it, pass.
func TestRejectedAtStartupMMEngineBOM(t *testing.T) {
	const text = "train_dataloader = dict(batch_size=2, num_workers=2)\nmodel = dict(type='RetinaNet')\n"
	lintPy := func(src, framework string) []lint.Diagnostic {
		_, diags := lint.LintFile(lint.File{Path: "configs/retinanet.py", Text: []byte(src)}, All(),
			lint.Options{Select: []string{"TL011", "TL001"}, Framework: framework})
		return diags
	}
	diags := lintPy("\ufeff"+text, "mmengine")
	if len(diags) != 1 || diags[0].Code != "TL011" || diags[0].Line != 1 ||
		diags[0].Message != `the file starts with a byte order mark (U+FEFF): mmengine 0.10.7 stops at start-up: "invalid non-printable character U+FEFF"` {
		t.Fatalf("with a BOM: %+v", diags)
	}
	if !strings.Contains(diags[0].Help, "Config.fromfile") {
		t.Errorf("help does not name the check: %q", diags[0].Help)
	}
	// Below a comment and an import, the finding is still on the mark, at 1:1.
	if diags := lintPy("\ufeff# a config\nimport os\n\n"+text, "mmengine"); len(diags) != 1 || diags[0].Line != 1 || diags[0].Column != 1 {
		t.Errorf("the mark's place: %+v", diags)
	}
	if diags := lintPy(text, "mmengine"); len(diags) != 0 {
		t.Errorf("without a BOM: %+v", diags)
	}
	if diags := lintPy("\ufeffdef get_config():\n  return dict(seed=0)\n", "big_vision"); len(diags) != 0 {
		t.Errorf("big_vision imports the file: %+v", diags)
	}
}

// An interpolation that is never closed: OmegaConf (2.1 and later) refuses the value as the file
// is loaded, so torchtune stops before anything runs; OmegaConf 2.0 did not parse it, and a
// config of a framework that does not load with OmegaConf keeps it as text.
func TestRejectedAtStartupUnclosedInterpolation(t *testing.T) {
	const text = "output_dir: /tmp/run\nbatch_size: 4\nmetric_logger:\n  _component_: torchtune.training.metric_logging.DiskLogger\n  log_dir: ${output_dir/logs\n"
	lintAt := func(framework string, targets map[string]lint.Target) []lint.Diagnostic {
		_, diags := lint.LintFile(lint.File{Path: "recipe.yaml", Text: []byte(text)}, All(),
			lint.Options{Select: []string{"TL011"}, Framework: framework, Targets: targets})
		return diags
	}
	diags := lintAt("torchtune", nil)
	if len(diags) != 1 || diags[0].Line != 5 || diags[0].Column != 12 ||
		diags[0].Message != `the interpolation "${output_dir/logs" is never closed with }: omegaconf 2.3.0 stops at start-up: "GrammarParseError"` {
		t.Fatalf("torchtune: %+v", diags)
	}
	if diags := lintAt("torchtune", map[string]lint.Target{"omegaconf": {Version: "2.0.6", Source: "requirements.txt"}}); len(diags) != 0 {
		t.Errorf("omegaconf 2.0.6 pinned: %+v", diags)
	}
	for _, d := range lintAt("axolotl", nil) {
		if strings.Contains(d.Message, "interpolation") {
			t.Errorf("axolotl does not load with OmegaConf: %+v", d)
		}
	}
}

// LLaMA-Factory reads its YAML into OmegaConf from v0.9.3 (read_args), so an interpolation
// OmegaConf cannot parse stops it there; v0.9.2, which read the file with yaml.safe_load alone,
// keeps the text.
func TestRejectedAtStartupLlamaFactoryInterpolation(t *testing.T) {
	const text = "model_name_or_path: meta-llama/Llama-3.2-1B\nstage: sft\nfinetuning_type: lora\noutput_dir: saves/run\nlogging_dir: ${output_dir/logs\n"
	lintAt := func(targets map[string]lint.Target) []lint.Diagnostic {
		_, diags := lint.LintFile(lint.File{Path: "train.yaml", Text: []byte(text)}, All(),
			lint.Options{Select: []string{"TL011"}, Framework: "llamafactory", Targets: targets})
		return diags
	}
	diags := lintAt(nil)
	if len(diags) != 1 || diags[0].Line != 5 || diags[0].Column != 14 ||
		!strings.HasPrefix(diags[0].Message, `the interpolation "${output_dir/logs" is never closed with }`) || !strings.Contains(diags[0].Message, "llamafactory 0.9.5 stops at start-up") {
		t.Fatalf("unpinned: %+v", diags)
	}
	if diags := lintAt(map[string]lint.Target{"llamafactory": {Version: "0.9.3", Source: "requirements.txt"}}); len(diags) != 1 {
		t.Errorf("0.9.3 pinned: %+v", diags)
	}
	if diags := lintAt(map[string]lint.Target{"llamafactory": {Version: "0.9.2", Source: "requirements.txt"}}); len(diags) != 0 {
		t.Errorf("0.9.2 pinned: %+v", diags)
	}
}

// A resolver argument OmegaConf's grammar has no token for: "(" in an unquoted argument stops
// torchtune's OmegaConf.load; quoted, the same expression is read.
func TestRejectedAtStartupResolverArgument(t *testing.T) {
	lintText := func(value string) []lint.Diagnostic {
		text := "output_dir: /tmp/run\nbatch_size: 4\ntokenizer:\n  max_seq_len: " + value + "\n"
		_, diags := lint.LintFile(lint.File{Path: "recipe.yaml", Text: []byte(text)}, All(),
			lint.Options{Select: []string{"TL011"}, Framework: "torchtune"})
		return diags
	}
	diags := lintText("${eval:(1024*2)}")
	if len(diags) != 1 || diags[0].Line != 4 || diags[0].Column != 16 ||
		diags[0].Message != `the interpolation "${eval:(1024*2)}" does not parse where it reads "(1024*2)}": omegaconf 2.3.0 stops at start-up: "GrammarParseError"` {
		t.Fatalf("unquoted: %+v", diags)
	}
	if diags := lintText(`"${eval:'(1024*2)'}"`); len(diags) != 0 {
		t.Errorf("quoted: %+v", diags)
	}
}

// A repeated key in a file OmegaConf loads stops the load from OmegaConf 2.0.1 on: duplicate-key
// says so, once; with 2.0.0 pinned, or for a framework that loads with PyYAML alone, the later
// value wins and the message says that.
func TestDuplicateKeyOmegaConf(t *testing.T) {
	const text = "output_dir: /tmp/run\nbatch_size: 4\nseed: 1\nbatch_size: 8\n"
	lintAt := func(framework string, targets map[string]lint.Target) []lint.Diagnostic {
		_, diags := lint.LintFile(lint.File{Path: "recipe.yaml", Text: []byte(text)}, All(),
			lint.Options{Select: []string{"TL002", "TL011"}, Framework: framework, Targets: targets})
		return diags
	}
	diags := lintAt("torchtune", nil)
	if len(diags) != 1 || diags[0].Code != "TL002" || diags[0].Line != 4 ||
		diags[0].Message != `key "batch_size" is repeated in its mapping: omegaconf 2.3.0 stops at start-up: "found duplicate key batch_size"` {
		t.Fatalf("torchtune: %+v", diags)
	}
	const wins = `key "batch_size" is repeated; the value on line 4 silently overrides the one on line 2`
	if diags := lintAt("torchtune", map[string]lint.Target{"omegaconf": {Version: "2.0.0", Source: "requirements.txt"}}); len(diags) != 1 || diags[0].Message != wins {
		t.Errorf("omegaconf 2.0.0 pinned: %+v", diags)
	}
	if diags := lintAt("huggingface", nil); len(diags) != 1 || diags[0].Message != wins {
		t.Errorf("huggingface: %+v", diags)
	}
}

// A plain date and the same date quoted are a date and a string to PyYAML (two keys, no finding)
// but two strings to OmegaConf, whose loader has no timestamp resolver: its refusal is reported
// although the reader sees no repeated key.
func TestDuplicateKeyDateOmegaConf(t *testing.T) {
	const text = "output_dir: /tmp/run\nruns:\n  2001-01-01: a\n  \"2001-01-01\": b\n"
	lintAt := func(framework string, targets map[string]lint.Target) []lint.Diagnostic {
		_, diags := lint.LintFile(lint.File{Path: "recipe.yaml", Text: []byte(text)}, All(),
			lint.Options{Select: []string{"TL002", "TL011"}, Framework: framework, Targets: targets})
		return diags
	}
	diags := lintAt("torchtune", nil)
	if len(diags) != 1 || diags[0].Code != "TL002" || diags[0].Line != 4 || diags[0].Column != 3 ||
		diags[0].Message != `key "2001-01-01" is repeated in its mapping: omegaconf 2.3.0 stops at start-up: "found duplicate key 2001-01-01"` ||
		len(diags[0].Related) != 1 || diags[0].Related[0].Line != 3 {
		t.Fatalf("torchtune: %+v", diags)
	}
	if diags := lintAt("huggingface", nil); len(diags) != 0 {
		t.Errorf("huggingface (PyYAML: a date and a string): %+v", diags)
	}
}

// LLaMA-Factory loads with OmegaConf.load from v0.9.4; v0.9.3 read the file with yaml.safe_load.
func TestDuplicateKeyLlamaFactory(t *testing.T) {
	const text = "model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\nstage: sft\ndo_train: true\n" +
		"finetuning_type: lora\ndataset: identity\ntemplate: llama3\noutput_dir: saves/sft\nlearning_rate: 1.0e-4\nlearning_rate: 2.0e-4\n"
	lintAt := func(targets map[string]lint.Target) []lint.Diagnostic {
		_, diags := lint.LintFile(lint.File{Path: "sft.yaml", Text: []byte(text)}, All(),
			lint.Options{Select: []string{"TL002", "TL011"}, Targets: targets})
		return diags
	}
	if diags := lintAt(nil); len(diags) != 1 || diags[0].Message != `key "learning_rate" is repeated in its mapping: llamafactory 0.9.5 stops at start-up: "found duplicate key learning_rate"` {
		t.Errorf("newest: %+v", diags)
	}
	if diags := lintAt(map[string]lint.Target{"llamafactory": {Version: "0.9.3", Source: "requirements.txt"}}); len(diags) != 1 ||
		diags[0].Message != `key "learning_rate" is repeated; the value on line 9 silently overrides the one on line 8` {
		t.Errorf("0.9.3 pinned: %+v", diags)
	}
}

// TestRejectionWho: who stops, with the version and what pins it; nothing in parentheses
// when nothing pins a version (the "()" a run with no pin once showed).
func TestRejectionWho(t *testing.T) {
	r := plan.Rejection{Package: "transformers"}
	for _, c := range []struct{ ver, pinnedBy, want string }{
		{"", "", "transformers stops at start-up"},
		{"4.46", "requirements.txt pins 4.46", "transformers 4.46 stops at start-up (requirements.txt pins 4.46)"},
		{"4.46", "pyproject.toml", "transformers 4.46 stops at start-up (pyproject.toml pins 4.46)"},
	} {
		if got := rejectionWho(r, c.ver, c.pinnedBy); got != c.want {
			t.Errorf("rejectionWho(%q, %q) = %q, want %q", c.ver, c.pinnedBy, got, c.want)
		}
	}
}
