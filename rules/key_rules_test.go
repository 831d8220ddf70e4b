package rules

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/corpustest"
	"github.com/trainlint/trainlint/lint/doc"
)

// corpusFindings lints every corpus file with only the given rules and returns their findings
// as "path:line:col CODE message" lines.
func corpusFindings(t *testing.T, codes ...string) []string {
	t.Helper()
	return corpusFindingsAt(t, nil, codes...)
}

// corpusFindingsAt is corpusFindings at the given target versions; findings of severity info
// are left out.
func corpusFindingsAt(t *testing.T, targets map[string]lint.Target, codes ...string) []string {
	t.Helper()
	dir, entries := corpustest.Manifest(t)
	var out []string
	n := 0
	for _, e := range entries {
		text, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		n++
		_, diags := lint.LintFile(lint.File{Path: e.Path, Text: text}, All(), lint.Options{Select: codes, Targets: targets})
		for _, d := range diags {
			if d.Severity == lint.Info {
				continue
			}
			out = append(out, d.File+":"+itoa(d.Line)+":"+itoa(d.Column)+" "+d.Code+" "+d.Message)
		}
	}
	if n < 100 {
		t.Fatalf("read only %d corpus files", n)
	}
	return out
}

// TestKeyRulesOnCorpus: real configs are not flagged by the key rules at the versions their
// repositories were written for, and at the newest versions only where the newest refuses them.
// The shared corpus has no misspelt Trainer key and no invalid value (checked by hand: its
// Trainer files carry TRL and alignment-handbook script arguments, which must not be taken for
// typos). At the newest versions two groups of findings are right:
//   - alignment-handbook recipes set overwrite_output_dir, which transformers 5.0 no longer has,
//     and warmup_ratio, deprecated in 5.0 and gone in 5.15 (training_args.py at those tags);
//     the handbook's setup.py at the corpus commit (925acdf) asks for transformers>=4.53.3, so
//     a fresh install gets 5.x;
//   - microsoft/DeepSpeed tests/torch_compile/ds_config_z2.json at 38327e0 (version.txt 0.16.5)
//     gives bf16 the fp16 loss-scale keys: DeepSpeedBF16Config (0.18 on) forbids them, and the
//     same file at v0.19.5 keeps only "enabled".
//
// At transformers 4.53.3 and DeepSpeed 0.16.5 nothing is flagged above info, but for one file
// that every llm-foundry version refuses: scripts/train/yamls/finetune/1b_local_data_sft.yaml at
// 8c8dd48 (0.22.0.dev0) keeps a YAML anchor under a top-level "dataset" key, which is not a
// TrainConfig field, so make_dataclass_and_log_config raises "Unused parameters ['dataset']".
func TestKeyRulesOnCorpus(t *testing.T) {
	expected := func(l string) bool {
		return strings.HasPrefix(l, "huggingface__alignment-handbook/") && (strings.Contains(l, ` TL005 "overwrite_output_dir" is deprecated (removed in transformers 5.0)`) ||
			strings.Contains(l, ` TL005 "warmup_ratio" is deprecated (transformers 5.0; removed in transformers 5.15)`)) ||
			strings.HasPrefix(l, "microsoft__DeepSpeed/tests__torch_compile__ds_config_z2.json:") && strings.Contains(l, "is not a bf16 setting: DeepSpeed 0.19.5 refuses it at start-up") ||
			foundryDataset(l)
	}
	n := 0
	for _, l := range corpusFindings(t, "TL003", "TL004", "TL005") {
		if !expected(l) {
			t.Errorf("real config flagged: %s", l)
		}
		n++
	}
	if n != 13+22+5+1 {
		t.Errorf("%d findings at the newest versions, want the 41 listed above (13 overwrite_output_dir, 22 warmup_ratio, 5 DeepSpeed, 1 llm-foundry)", n)
	}
	old := map[string]lint.Target{
		"transformers": {Version: "4.53.3", Source: "setup.py asks for 4.53.3"},
		"deepspeed":    {Version: "0.16.5", Source: "version.txt 0.16.5"},
	}
	for _, l := range corpusFindingsAt(t, old, "TL003", "TL004", "TL005") {
		if !foundryDataset(l) {
			t.Errorf("real config flagged at its own versions: %s", l)
		}
	}
}

// foundryDataset is the one corpus finding every version of its framework agrees with (see
// TestKeyRulesOnCorpus).
func foundryDataset(l string) bool {
	return strings.HasPrefix(l, "mosaicml__llm-foundry/scripts__train__yamls__finetune__1b_local_data_sft.yaml:39:1 TL003 \"dataset\" is not a ")
}

// TestKeyRulesSeeCorpusTypos makes sure the corpus test above is not vacuous: the same Trainer
// files, each with one misspelt key and one bad value appended, are flagged.
func TestKeyRulesSeeCorpusTypos(t *testing.T) {
	dir, entries := corpustest.Manifest(t)
	checked := 0
	for _, e := range entries {
		if e.Label != "hf-trainer" || e.Format != "yaml" {
			continue
		}
		text, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(string(text), "\n") {
			text = append(text, '\n')
		}
		text = append(text, "gradient_acumulation_steps: 2\nlogging_strategy: step\n"...)
		info, diags := lint.LintFile(lint.File{Path: e.Path, Text: text}, All(), lint.Options{Select: []string{"TL003", "TL004"}})
		if info.Framework != "huggingface" {
			continue
		}
		checked++
		got := map[string]bool{}
		for _, d := range diags {
			got[d.Code] = true
		}
		if !got["TL003"] || !got["TL004"] {
			t.Errorf("%s: appended typo and bad value not both found: %v", e.Path, got)
		}
	}
	if checked < 10 {
		t.Errorf("only %d Trainer files checked", checked)
	}
}

func TestNearestKey(t *testing.T) {
	known := []string{"per_device_train_batch_size", "per_device_eval_batch_size", "seed", "bf16", "fp16", "eval_steps", "save_steps", "use_cpu", "hub_token"}
	for _, c := range []struct{ in, want string }{
		{"per_device_eval_batchsize", "per_device_eval_batch_size"},
		{"per-device-train-batch-size", "per_device_train_batch_size"},
		{"PER_DEVICE_TRAIN_BATCH_SIZE", "per_device_train_batch_size"},
		{"seeds", "seed"},
		{"eval_setps", "eval_steps"}, // a swap is one edit
		{"bf15", "bf16"},             // one edit from bf16, two from fp16
		{"use_peft", ""},             // a TRL key, three edits from use_cpu
		{"eos_token", ""},            // a TRL key, three edits from hub_token
		{"beta", ""},
		{"bp16", ""}, // one edit from bf16 and from fp16: a tie is no answer
	} {
		got, ok := nearestKey(c.in, known)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("nearestKey(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

// A fine-tuning script's own lora_rank (Firefly's argument files, parsed with its own dataclass
// beside TrainingArguments) is two edits from local_rank, a setting there only for the
// deprecated launcher's argument: it is no typo of it. A real near miss in the same file still is.
func TestUnknownKeyNotLocalRank(t *testing.T) {
	src := "{\"output_dir\": \"out\", \"per_device_train_batch_size\": 1, \"learning_rate\": 5e-7,\n" +
		"\"lora_rank\": 64, \"lora_alpha\": 16, \"gradient_checkpointing\": true,\n\"save_step\": 100}\n"
	info, diags := lint.LintFile(lint.File{Path: "train_args/sft.json", Text: []byte(src)}, All(), lint.Options{Select: []string{"TL003"}})
	if info.Framework != "huggingface" {
		t.Fatalf("framework %q", info.Framework)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Message, `"save_step"`) || !strings.Contains(diags[0].Message, `"save_steps"`) {
		t.Errorf("want only save_step's near miss, got %+v", diags)
	}
	// The knowledge tables' key sets (LLaMA-Factory's arguments, TrainingArguments among them)
	// offer it no more: a key its parser refuses is still reported, with no suggestion.
	lf := "model_name_or_path: Qwen/Qwen2-0.5B\nstage: sft\ndo_train: true\nfinetuning_type: lora\ndataset: alpaca_en_demo\ntemplate: qwen\noutput_dir: out\nlocal_ranks: 1\n"
	info, diags = lint.LintFile(lint.File{Path: "sft.yaml", Text: []byte(lf)}, All(), lint.Options{Select: []string{"TL003"}})
	if info.Framework != "llama-factory" || len(diags) != 1 || !strings.Contains(diags[0].Message, "refuses it") || strings.Contains(diags[0].Message, "did you mean") {
		t.Errorf("%s: %+v", info.Framework, diags)
	}
}

// TestDuplicateKeyCommentKeys checks that a JSON comment key ("_comment", "//") repeated in a
// mapping with a string both at the repetition and at the first occurrence is no finding:
// DeePMD-kit's input.json files repeat "_comment" (examples/water/se_e2_a/input.json:2 and :64 at
// v2.1.0), and `dp train` drops every "_*" key before anything reads the config
// (deepmd/entrypoints/train.py:91 normalize, then deepmd/utils/argcheck.py:722
// normalize_value(data, trim_pattern="_*"), v2.1.0). Any other repeated key, a comment key with
// a value that is not a string, the same keys in YAML, and a file whose framework's loader
// refuses every repetition (DeepSpeed's) are still reported.
func TestDuplicateKeyCommentKeys(t *testing.T) {
	findings := func(path, src string) []string {
		t.Helper()
		_, diags := lint.LintFile(lint.File{Path: path, Text: []byte(src)}, []*lint.Rule{DuplicateKey}, lint.Options{})
		var got []string
		for _, d := range diags {
			got = append(got, strconv.Itoa(d.Line)+" "+d.Message)
		}
		return got
	}
	for _, c := range []struct {
		name, path, src string
		want            []string // line and message prefix of each finding
	}{
		{"deepmd comments", "input.json", `{
	"_comment": " model parameters",
	"model": {"type_map": ["O", "H"], "_comment": "a", "_comment" : "b"},
	"training": {"numb_steps": 4000, "_comment": "that's all"},
	"//": "x", "//":"y",
	"_comment": "that's all"
}
`, nil},
		{"other keys still", "input.json", "{\"_comment\": \"a\",\n\"lr\": 1,\n\"_comment\": \"b\",\n\"lr\": 2}\n",
			[]string{`4 key "lr" is repeated`}},
		// A repetition whose value, or the first occurrence's, is no string (a list, a
		// mapping) is reported.
		{"a value that is no text", "input.json", "{\"_comment\": \"a\",\n\"_comment\": {\"lr\": 1},\n\"_comment\": \"c\",\n\"//\": [\"a\"],\n\"//\": \"b\"}\n",
			[]string{`2 key "_comment" is repeated`, `5 key "//" is repeated`}},
		{"yaml", "input.yaml", "_comment: a\n_comment: b\n", []string{`2 key "_comment" is repeated`}},
		{"deepspeed stops", "ds_config.json", "{\"train_micro_batch_size_per_gpu\": 4,\n\"_comment\": \"a\",\n\"_comment\": \"b\"}\n",
			[]string{`3 key "_comment" is repeated; DeepSpeed stops at start-up`}},
	} {
		got := findings(c.path, c.src)
		ok := len(got) == len(c.want)
		for i := 0; ok && i < len(got); i++ {
			ok = strings.HasPrefix(got[i], c.want[i])
		}
		if !ok {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestDuplicateKeyLoaderNoteKeepsCap checks that the DeepSpeed loaders' note on a repeated key
// replaces only what the format does: the last reported repetition still says that further ones
// are not reported.
func TestDuplicateKeyLoaderNoteKeepsCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("{\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"gradient_accumulation_steps\": 2")
	for i := 0; i < 1100; i++ {
		b.WriteString(",\n  \"train_batch_size\": 8")
	}
	b.WriteString("\n}\n")
	info, diags := lint.LintFile(lint.File{Path: "ds_config.json", Text: []byte(b.String())}, []*lint.Rule{DuplicateKey}, lint.Options{})
	if info.Framework != "deepspeed" {
		t.Fatalf("framework %q, want deepspeed", info.Framework)
	}
	if len(diags) != 1000 {
		t.Fatalf("%d findings, want 1000", len(diags))
	}
	for i, d := range diags {
		if !strings.Contains(d.Message, "DeepSpeed stops at start-up") {
			t.Fatalf("finding %d: %q lacks the loaders' note", i, d.Message)
		}
		if capped := strings.HasSuffix(d.Message, doc.MoreDuplicatesNote); capped != (i == 999) {
			t.Errorf("finding %d: ends with the cap note %v: %q", i, capped, d.Message)
		}
	}
}

// TestDuplicateKeyCommentKeysPastTheCap: the reader records at most so many repeats and puts
// its note on the last one; when that one is a comment key's, the finding still carries the
// note, so a real repeat past the cap is not lost without a word.
func TestDuplicateKeyCommentKeysPastTheCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("{\n")
	for i := 0; i < 1001; i++ {
		b.WriteString("\"_comment\": \"c" + strconv.Itoa(i) + "\",\n")
	}
	b.WriteString("\"lr\": 1,\n\"lr\": 2\n}\n")
	_, diags := lint.LintFile(lint.File{Path: "input.json", Text: []byte(b.String())}, []*lint.Rule{DuplicateKey}, lint.Options{})
	if len(diags) != 1 || !strings.Contains(diags[0].Message, doc.MoreDuplicatesNote) {
		t.Fatalf("want one finding carrying the note %q, got %v", doc.MoreDuplicatesNote, diags)
	}
}

// TestDuplicateKeyGenericSameValue: in a YAML file no framework claims, a key repeated with the
// same scalar (RegionCLIP's and self-critical's configs, read with yaml.safe_load) says both
// values are equal, so PyYAML's choice changes nothing; different values, a block or a flow
// value say nothing of the kind.
func TestDuplicateKeyGenericSameValue(t *testing.T) {
	src := "lr: 0   # a\nx: 1\nlr: 0\nn: \"a b\"\nn: \"a b\" # c\nm: 1\nm: 2\nb:\n  c: 1\nb:\n  c: 1\nf: [1]\nf: [1]\nq: 'a'\nq: \"a\"\nc: # 24158\n  a: 1\nc: # 24158\n  a: 2\n"
	_, diags := lint.LintFile(lint.File{Path: "run.yaml", Text: []byte(src)}, []*lint.Rule{DuplicateKey}, lint.Options{})
	got := map[int]string{}
	for _, d := range diags {
		got[d.Line] = d.Message
	}
	for line, want := range map[int]string{3: "(both are 0)", 5: `(both are "a b")`, 7: "", 10: "", 13: "", 15: "", 18: ""} {
		m, ok := got[line]
		if !ok || !strings.Contains(m, "PyYAML keeps") {
			t.Errorf("line %d: %q", line, m)
			continue
		}
		if has := strings.Contains(m, "(both are"); has != (want != "") || want != "" && !strings.Contains(m, want) {
			t.Errorf("line %d: %q, want %q", line, m, want)
		}
	}
}
