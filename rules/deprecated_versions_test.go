package rules

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// lintAt lints one file with the key rules at the given targets and returns "line SEV message".
func lintAt(t *testing.T, path, text string, targets map[string]lint.Target) []string {
	t.Helper()
	_, diags := lint.LintFile(lint.File{Path: path, Text: []byte(text)}, All(),
		lint.Options{Select: []string{"TL003", "TL004", "TL005"}, Targets: targets})
	var out []string
	for _, d := range diags {
		out = append(out, itoa(d.Line)+" "+d.Severity.String()+" "+d.Message)
	}
	return out
}

const hfOld = "output_dir: out\nevaluation_strategy: steps\noverwrite_output_dir: true\nmax_seq_length: 2048\nlearning_rate: 1.0e-05\n"

// TestDeprecationByTargetVersion: the same keys read differently at the version the repository
// pins: still working at 4.46 (info, and it says so), gone at 5.x and at the newest.
func TestDeprecationByTargetVersion(t *testing.T) {
	newest := strings.Join(lintAt(t, "a.yaml", hfOld, nil), "\n")
	for _, want := range []string{
		`2 warning "evaluation_strategy" is deprecated (transformers 4.41; removed in transformers 4.51): use "eval_strategy"`,
		`3 warning "overwrite_output_dir" is deprecated (removed in transformers 5.0)`,
	} {
		if !strings.Contains(newest, want) {
			t.Errorf("newest: want %q in\n%s", want, newest)
		}
	}
	if strings.Contains(newest, "max_seq_length") {
		t.Errorf("max_seq_length reported without a TRL pin (a common script argument):\n%s", newest)
	}
	old := strings.Join(lintAt(t, "a.yaml", hfOld, map[string]lint.Target{
		"transformers": {Version: "4.46.3", Source: "requirements.txt pins 4.46.3"}}), "\n")
	if !strings.Contains(old, `2 info "evaluation_strategy" is deprecated (transformers 4.41; removed in transformers 4.51; requirements.txt pins 4.46.3, where it still works)`) ||
		!strings.Contains(old, `3 info "overwrite_output_dir" is removed in transformers 5.0; requirements.txt pins 4.46.3, where it still works: when moving`) ||
		strings.Contains(old, "warning") ||
		!strings.Contains(old, `where it still works: when moving to transformers 5.0, delete it`) {
		t.Errorf("at 4.46.3:\n%s", old)
	}
	// Older than every release the knowledge table was read at (4.40.0): a key the hand list
	// says 5.0 removed still reads as working there.
	if got := strings.Join(lintAt(t, "a.yaml", hfOld, map[string]lint.Target{
		"transformers": {Version: "4.36.2", Source: "requirements.txt pins 4.36.2"}}), "\n"); !strings.Contains(got, `3 info "overwrite_output_dir" is removed in transformers 5.0; requirements.txt pins 4.36.2, where it still works`) {
		t.Errorf("at 4.36.2:\n%s", got)
	}
	// Before the deprecation the key is not deprecated at all.
	if got := lintAt(t, "a.yaml", "output_dir: out\nevaluation_strategy: steps\n", map[string]lint.Target{
		"transformers": {Version: "4.40.2", Source: "requirements.txt pins 4.40.2"}}); len(got) != 0 {
		t.Errorf("at 4.40.2: %v", got)
	}
	v5 := strings.Join(lintAt(t, "a.yaml", hfOld, map[string]lint.Target{
		"transformers": {Version: "5.2.0", Source: "uv.lock pins 5.2.0"}}), "\n")
	// evaluation_strategy left in 4.51, before v5 (training_args.py at v4.50.0 and v4.51.0).
	if !strings.Contains(v5, `2 warning "evaluation_strategy" is deprecated (transformers 4.41; removed in transformers 4.51; uv.lock pins 5.2.0)`) {
		t.Errorf("at 5.2.0:\n%s", v5)
	}
	if !strings.Contains(v5, `3 warning "overwrite_output_dir" is deprecated (removed in transformers 5.0; uv.lock pins 5.2.0)`) {
		t.Errorf("at 5.2.0:\n%s", v5)
	}
	// Installed from a git commit (R1-V's setup.py): no release's deprecations are claimed,
	// nor a removal (evaluation_strategy is a setting up to 4.50).
	if got := lintAt(t, "a.yaml", hfOld, map[string]lint.Target{
		"transformers": {Version: "git", Source: "setup.py installs transformers from git (336dc69d63d5)"}}); len(got) != 0 {
		t.Errorf("from git: %v", got)
	}
}

// TestTRLRenamesByPinnedVersion: SFTConfig.max_seq_length is in TRL 0.19 and gone from 0.20
// (trl/trainer/sft_config.py, knowledge table); max_prompt_length left the configs by 0.29.
func TestTRLRenamesByPinnedVersion(t *testing.T) {
	at := func(v string) string {
		return strings.Join(lintAt(t, "a.yaml", "output_dir: out\nmax_seq_length: 2048\nmax_prompt_length: 512\nper_device_train_batch_size: 8\nlearning_rate: 1.0e-05\neval_strategy: steps\n",
			map[string]lint.Target{"trl": {Version: v, Source: "requirements.txt pins " + v}}), "\n")
	}
	if got := at("0.19.1"); got != "" {
		t.Errorf("trl 0.19.1: %s", got)
	}
	got := at("0.23.0")
	if !strings.Contains(got, `2 warning "max_seq_length" is not a TRL setting in 0.23.0 (removed in TRL 0.20.0; requirements.txt pins 0.23.0): use "max_length"`) ||
		strings.Contains(got, "max_prompt_length") {
		t.Errorf("trl 0.23.0:\n%s", got)
	}
	if got := at("1.9.0"); !strings.Contains(got, `3 warning "max_prompt_length" is not a TRL setting in 1.9.0 (removed in TRL 0.29.0`) {
		t.Errorf("trl 1.9.0:\n%s", got)
	}
}

// TestDeepSpeedSectionsByVersion: the bf16 model (and its closed key set) exists from 0.18; at
// 0.16 the fp16 loss-scale keys under bf16 are read by hand and ignored, so nothing is said.
func TestDeepSpeedSectionsByVersion(t *testing.T) {
	cfg := `{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 2}, "bf16": {"enabled": true, "loss_scale": 0}}`
	if got := lintAt(t, "ds.json", cfg, map[string]lint.Target{"deepspeed": {Version: "0.16.5", Source: "requirements.txt pins 0.16.5"}}); len(got) != 0 {
		t.Errorf("at 0.16.5: %v", got)
	}
	got := strings.Join(lintAt(t, "ds.json", cfg, map[string]lint.Target{"deepspeed": {Version: "0.18.2", Source: "requirements.txt pins 0.18.2"}}), "\n")
	if !strings.Contains(got, `"loss_scale" is not a bf16 setting: DeepSpeed 0.18.2 (requirements.txt pins 0.18.2) refuses it at start-up`) {
		t.Errorf("at 0.18.2:\n%s", got)
	}
}

// TestLogLevelDetailIsValid: "detail" is one of transformers' log levels (utils/logging.py
// log_levels), so log_level: detail is never an invalid value; a misspelt level still is.
func TestLogLevelDetailIsValid(t *testing.T) {
	base := "output_dir: out\nper_device_train_batch_size: 8\nlearning_rate: 1.0e-05\neval_strategy: steps\n"
	if got := lintAt(t, "a.yaml", base+"log_level: detail\nlog_level_replica: detail\n", nil); len(got) != 0 {
		t.Errorf("log_level: detail flagged: %v", got)
	}
	if got := lintAt(t, "a.yaml", base+"log_level: detial\n", nil); len(got) != 1 {
		t.Errorf("log_level: detial not flagged once: %v", got)
	}
}

// TestTRLTorchDtypeRename: ModelConfig.torch_dtype is deprecated for dtype (dtype since 0.23)
// and gone from 0.27 (trl/trainer/model_config.py): a safe rename where the pinned TRL has dtype,
// nothing where it still has torch_dtype.
func TestTRLTorchDtypeRename(t *testing.T) {
	const text = "model_name_or_path: Qwen/Qwen2.5-0.5B\ntorch_dtype: bfloat16\noutput_dir: out\nlearning_rate: 1.0e-05\n"
	at := func(v string) []lint.Diagnostic {
		_, diags := lint.LintFile(lint.File{Path: "a.yaml", Text: []byte(text)}, All(), lint.Options{Select: []string{"TL003", "TL004", "TL005"},
			Targets: map[string]lint.Target{"trl": {Version: v, Source: "requirements.txt pins " + v}}})
		return diags
	}
	if d := at("0.26.0"); len(d) != 0 {
		t.Errorf("trl 0.26.0 still has torch_dtype: %+v", d)
	}
	d := at("1.9.0")
	if len(d) != 1 || !strings.Contains(d[0].Message, `"torch_dtype" is not a TRL setting in 1.9.0 (removed in TRL 0.27.0; requirements.txt pins 1.9.0): use "dtype"`) ||
		d[0].Fix == nil || d[0].Fix.Applicability != lint.Safe || d[0].Fix.Edits[0].NewText != "dtype" {
		t.Errorf("trl 1.9.0: want a safe rename to dtype, got %+v", d)
	}
}

// TestTRLOlderThanTableSilent: SFTConfig had use_liger from v0.10 to v0.17
// (trl/trainer/sft_config.py), and the TRL table starts at 0.19. With TRL 0.12 pinned, what that
// release's configs took is unknown, so the key is not called a misspelling; from the table's
// first tag on it is; with TRL installed from a git commit it is not either.
func TestTRLOlderThanTableSilent(t *testing.T) {
	const text = "model_name_or_path: Qwen/Qwen2-0.5B\ndataset_name: trl-lib/Capybara\noutput_dir: out\nuse_liger: true\npacking: true\n"
	at := func(v string) []lint.Diagnostic {
		_, diags := lint.LintFile(lint.File{Path: "a.yaml", Text: []byte(text)}, All(), lint.Options{Select: []string{"TL003"},
			Targets: map[string]lint.Target{"trl": {Version: v, Source: "requirements.txt pins " + v}}})
		return diags
	}
	if d := at("0.12.0"); len(d) != 0 {
		t.Errorf("trl 0.12.0 had use_liger: %+v", d)
	}
	// Installed from a git commit (open-r1's setup.py: trl @ git+...@c04e84c, 0.17.0.dev0, whose
	// SFTConfig has use_liger): the version is unknown, so is what its configs take.
	if d := at("git"); len(d) != 0 {
		t.Errorf("trl from a git commit: %+v", d)
	}
	if d := at("0.19.0"); len(d) != 1 || !strings.Contains(d[0].Message, `"use_liger" is not a`) {
		t.Errorf("trl 0.19.0 has no use_liger: want one finding, got %+v", d)
	}
}

// TestKeyNotYetAtPinnedVersion: a TrainingArguments field newer than the pinned transformers is
// refused by its parser there (train_sampling_strategy arrived in 5.2, training_args.py).
func TestKeyNotYetAtPinnedVersion(t *testing.T) {
	const text = "output_dir: out\ntrain_sampling_strategy: group_by_length\nper_device_train_batch_size: 8\neval_strategy: steps\n"
	got := strings.Join(lintAt(t, "a.yaml", text, map[string]lint.Target{
		"transformers": {Version: "4.46.3", Source: "requirements.txt pins 4.46.3"}}), "\n")
	if got != `2 warning "train_sampling_strategy" is not a TrainingArguments setting in transformers 4.46.3 (added in transformers 5.2; requirements.txt pins 4.46.3)` {
		t.Errorf("at 4.46.3: %q", got)
	}
	if got := lintAt(t, "a.yaml", text, nil); len(got) != 0 {
		t.Errorf("newest: %v", got)
	}
}

// A key the source deprecates without naming a replacement reads as deprecated, with no empty
// "use" (TrainingArguments.local_rank, deprecated from 5.0).
func TestDeprecatedWithoutReplacement(t *testing.T) {
	got := lintAt(t, "a.yaml", "output_dir: out\nper_device_train_batch_size: 8\neval_strategy: steps\nlocal_rank: -1\n", nil)
	if len(got) != 1 || got[0] != `4 warning "local_rank" is deprecated (transformers 5.0)` {
		t.Errorf("%q", got)
	}
}

// TestScriptKeysAreTheScripts: a key that a field of the repository's own argument dataclasses
// takes (lint.Options.ScriptKeys) is the script's setting, so neither a TRL removal nor a
// TrainingArguments field newer than the pin is claimed for it; other keys still are.
func TestScriptKeysAreTheScripts(t *testing.T) {
	const text = "output_dir: out\nmax_seq_length: 2048\ntrain_sampling_strategy: group_by_length\nper_device_train_batch_size: 8\neval_strategy: steps\n"
	targets := map[string]lint.Target{"trl": {Version: "0.23.0", Source: "requirements.txt pins 0.23.0"},
		"transformers": {Version: "4.46.3", Source: "requirements.txt pins 4.46.3"}}
	codes := func(keys map[string]bool) []string {
		_, diags := lint.LintFile(lint.File{Path: "a.yaml", Text: []byte(text)}, All(),
			lint.Options{Select: []string{"TL003", "TL005"}, Targets: targets, ScriptKeys: keys})
		var out []string
		for _, d := range diags {
			out = append(out, d.Code+" "+d.Key)
		}
		return out
	}
	if got := codes(nil); !slices.Equal(got, []string{"TL005 max_seq_length", "TL003 train_sampling_strategy"}) {
		t.Errorf("without script keys: %v", got)
	}
	if got := codes(map[string]bool{"max_seq_length": true, "train_sampling_strategy": true}); len(got) != 0 {
		t.Errorf("script keys reported: %v", got)
	}
	if got := codes(map[string]bool{"train_sampling_strategy": true}); !slices.Equal(got, []string{"TL005 max_seq_length"}) {
		t.Errorf("one script key: %v", got)
	}
}

// axolotl reports a deprecated key only when its value is not null (its deprecation
// validators): `eval_table_size:` with no value (axolotl's sparse-finetuning example) is no
// deprecated use; with a value it is.
func TestAxolotlDeprecatedNullIsUnset(t *testing.T) {
	const base = "base_model: m\ndatasets:\n  - path: d\n    type: alpaca\nmicro_batch_size: 2\nnum_epochs: 1\n"
	codes := func(text string) []string {
		_, diags := lint.LintFile(lint.File{Path: "a.yaml", Text: []byte(text)}, All(), lint.Options{Select: []string{"TL005"}})
		var out []string
		for _, d := range diags {
			out = append(out, d.Code+" "+d.Key)
		}
		return out
	}
	if got := codes(base + "eval_table_size:\n"); len(got) != 0 {
		t.Errorf("null: %v", got)
	}
	if got := codes(base + "eval_table_size: 5\n"); !slices.Equal(got, []string{"TL005 eval_table_size"}) {
		t.Errorf("5: %v", got)
	}
}

// TestKeyTheRepositoryReads: a key the repository's own code reads by name is its scripts'
// setting (exact's parser.yaml is read with OmegaConf.load and gives cfg.model_name to its
// script), not a misspelt Trainer setting; a key its code does not read is still one, and so is
// one written in another case (HfArgumentParser and cfg["..."] are case-sensitive).
func TestKeyTheRepositoryReads(t *testing.T) {
	const text = "output_dir: out\nper_device_train_batch_size: 8\neval_strategy: steps\nmodel_name: Qwen/Qwen2.5-Coder-3B\n"
	at := func(names map[string]bool) int {
		_, diags := lint.LintFile(lint.File{Path: "a.yaml", Text: []byte(text)}, All(), lint.Options{Select: []string{"TL003"}, RepoReads: names})
		return len(diags)
	}
	if n := at(map[string]bool{"model_name": true, "cfg": true}); n != 0 {
		t.Errorf("named by the repository's code: %d findings", n)
	}
	if n := at(map[string]bool{"cfg": true}); n != 1 {
		t.Errorf("not named: %d findings, want 1", n)
	}
	if n := at(map[string]bool{"Model_Name": true}); n != 1 {
		t.Errorf("read in another case: %d findings, want 1", n)
	}
}

// TestRenameUnsafeWhereTheRepositoryReadsTheKey: a deprecated or removed key the repository's
// own Python reads by name (LMFlow's aligner passes args.evaluation_strategy on to the arguments
// it builds) is still reported, but its rename is unsafe: the renamed file would lose the value
// that code reads.
func TestRenameUnsafeWhereTheRepositoryReadsTheKey(t *testing.T) {
	const text = "output_dir: out\nevaluation_strategy: steps\neval_steps: 100\nlearning_rate: 1.0e-05\n"
	for _, tc := range []struct {
		target string
		reads  map[string]bool
		want   lint.Applicability
	}{
		{"4.46.3", nil, lint.Safe},
		{"4.46.3", map[string]bool{"evaluation_strategy": true}, lint.Unsafe},
		{"4.57.1", nil, lint.Safe},
		{"4.57.1", map[string]bool{"evaluation_strategy": true}, lint.Unsafe},
	} {
		_, diags := lint.LintFile(lint.File{Path: "a.yaml", Text: []byte(text)}, All(), lint.Options{Select: []string{"TL003", "TL005"}, RepoReads: tc.reads,
			Targets: map[string]lint.Target{"transformers": {Version: tc.target, Source: "requirements.txt pins " + tc.target}}})
		var fix *lint.Fix
		for _, d := range diags {
			if d.Fix != nil {
				fix = d.Fix
			}
		}
		if fix == nil || fix.Applicability != tc.want || fix.Edits[0].NewText != "eval_strategy" {
			t.Errorf("transformers %s, reads %v: want a %v rename, got %+v", tc.target, tc.reads, tc.want, diags)
		}
		// The message says it too, not only the fix (LOMO's trainer reads the old name).
		for _, d := range diags {
			if d.Code == "TL005" && strings.Contains(d.Message, "the repository's Python reads") != (tc.reads != nil) {
				t.Errorf("transformers %s, reads %v: message %q", tc.target, tc.reads, d.Message)
			}
		}
	}
}

// TestDeprecatedKeyAtOrBesideADefault: a deprecated key written as its default is deleted, not
// renamed (group_by_length: false; train_sampling_strategy "group_by_length" would turn
// grouping on); a replacement written as its default does not make the old key redundant
// (OpenDelta's warmup_steps: 0 beside warmup_ratio: 0.06, which transformers 4 uses when the
// steps are 0 and 5 copies over them; eval_strategy "no" beside evaluation_strategy, which
// 4.41-4.45 copy over it): no "delete" advice and no fix there; a replacement that differs
// from its default still makes the old key the one to delete.
func TestDeprecatedKeyAtOrBesideADefault(t *testing.T) {
	const head = "model_name_or_path: m\noutput_dir: out\n"
	at := func(v string) map[string]lint.Target {
		return map[string]lint.Target{"transformers": {Version: v, Source: "requirements.txt pins " + v}}
	}
	for _, tc := range []struct {
		name, body, target, want string
		fix                      bool
	}{
		{"old at its default", "group_by_length: false\n", "5.2.0", `"group_by_length" is .*: delete it: it sets the default$`, false},
		{"old set", "group_by_length: true\n", "5.2.0", `set train_sampling_strategy to "group_by_length"$`, false},
		{"replacement at its default", "warmup_ratio: 0.06\nwarmup_steps: 0\n", "5.0.0", `"warmup_ratio" is .*: use "warmup_steps" \(its "warmup_steps" holds the default\)$`, false},
		{"replacement set", "warmup_ratio: 0.06\nwarmup_steps: 100\n", "5.0.0", `and "warmup_steps" is also set: delete "warmup_ratio"$`, false},
		{"eval_strategy no", "evaluation_strategy: steps\neval_strategy: \"no\"\neval_steps: 10\n", "4.46.3", `: use "eval_strategy" \(its "eval_strategy" holds the default\)$`, false},
		{"eval_strategy set", "evaluation_strategy: steps\neval_strategy: steps\neval_steps: 10\n", "4.46.3", `also set: delete "evaluation_strategy"$`, false},
		{"rename", "evaluation_strategy: steps\neval_steps: 10\n", "4.46.3", `: use "eval_strategy"$`, true},
		// a target older than every release the table read: its defaults are not known
		// (save_safetensors was False before 4.35)
		{"default before the table", "save_safetensors: true\n", "4.31.0", `when moving to transformers 5\.0, delete it: transformers 5 always saves safetensors$`, false},
		// the old key and its replacement hold one value: deleting the old changes nothing
		{"same value beside", "per_gpu_train_batch_size: 8\nper_device_train_batch_size: 8\n", "4.46.3", `also set: delete "per_gpu_train_batch_size"$`, false},
	} {
		_, diags := lint.LintFile(lint.File{Path: "a.yaml", Text: []byte(head + tc.body)}, All(), lint.Options{Select: []string{"TL005"}, Targets: at(tc.target)})
		var got []string
		ok := false
		for _, d := range diags {
			got = append(got, d.Message)
			if regexp.MustCompile(tc.want).MatchString(d.Message) && (d.Fix != nil) == tc.fix {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%s: want %s (fix %v), got %q", tc.name, tc.want, tc.fix, got)
		}
	}
}

// TestDeepSpeedSubsectionKeysNotRoot: "mode" is a key of the sparse_attention section
// (get_sparse_attention_mode reads it from the section it is given), not of the config's root,
// so a benchmark's own "model" key is not taken for a misspelling of it; a root key is still
// suggested for a near miss.
func TestDeepSpeedSubsectionKeysNotRoot(t *testing.T) {
	at := map[string]lint.Target{"deepspeed": {Version: "0.19.5", Source: "requirements.txt pins 0.19.5"}}
	got := strings.Join(lintAt(t, "ds.json", `{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 2}, "model": {"type": "gpt2"}}`, at), "\n")
	if strings.Contains(got, `"mode"`) {
		t.Errorf("a root key suggested from a section's:\n%s", got)
	}
	got = strings.Join(lintAt(t, "ds.json", `{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 2}, "steps_per_prin": 10}`, at), "\n")
	if !strings.Contains(got, `(did you mean "steps_per_print"?)`) {
		t.Errorf("no suggestion for a root key:\n%s", got)
	}
}
