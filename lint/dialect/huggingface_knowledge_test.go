package dialect

import (
	"slices"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
)

// The hand-kept TrainingArguments table lists exactly the fields transformers' source has at
// some tag read (knowledge.tsv): a field added or dropped upstream shows up here.
func TestHFSettingsMatchSource(t *testing.T) {
	kb := KnowledgeOf("transformers")
	if kb == nil {
		t.Fatal("no transformers knowledge")
	}
	src := kb.Sections[hfSection]
	hand := map[string]bool{}
	for _, k := range hfTrainingArguments {
		hand[k.Path] = true
		if _, ok := src[k.Path]; !ok {
			t.Errorf("%s: in huggingface_settings.go but not a TrainingArguments field at any tag read", k.Path)
		}
	}
	for key := range src {
		if !hand[key] {
			t.Errorf("%s: a TrainingArguments field (%s) missing from huggingface_settings.go", key, src[key].Source)
		}
	}
}

// Version facts come from the source, not from the hand table.
func TestHFVersionFacts(t *testing.T) {
	get := func(path string) Key {
		for _, ks := range [][]Key{HuggingFace.Keys, HuggingFace.Settings} {
			for _, k := range ks {
				if k.Path == path {
					return k
				}
			}
		}
		t.Fatalf("no key %s", path)
		return Key{}
	}
	for _, c := range []struct{ path, since, removed string }{
		{"evaluation_strategy", "transformers 4.41", "transformers 4.51"},
		{"overwrite_output_dir", "", "transformers 5.0"},
		{"warmup_ratio", "transformers 5.0", "transformers 5.15"},
		{"group_by_length", "", "transformers 5.2"},
		{"no_cuda", "transformers 4.40 or earlier", "transformers 5.0"},
		{"eval_strategy", "", ""},
	} {
		k := get(c.path)
		if k.Since != c.since || k.Removed != c.removed {
			t.Errorf("%s: since %q removed %q, want %q %q", c.path, k.Since, k.Removed, c.since, c.removed)
		}
	}
	if e := get("log_level").Enum; !slices.Contains(e, "detail") || !slices.Contains(e, "passive") {
		t.Errorf("log_level values %v lack detail or passive", e)
	}
	if e := get("optim").Enum; slices.Contains(e, "adamw_hf") || !slices.Contains(e, "adamw_torch_fused") {
		t.Errorf("optim values at the newest tag: %v", e)
	}
	kb := KnowledgeOf("transformers")
	vals, ok := kb.ValuesAt(hfSection, "optim", "4.46")
	if !ok || !vals["adamw_hf"] || !vals["adamw_apex_fused"] {
		t.Errorf("optim at 4.46 lacks adamw_hf or adamw_apex_fused: %v", vals)
	}
	if vals, _ := kb.ValuesAt(hfSection, "lr_scheduler_type", "4.46"); vals["greedy"] {
		t.Error("greedy is a scheduler in 4.46")
	}
}

// TRL recipes train in bf16 unless they ask for fp16; plain Trainer files default to neither.
func TestTRLBF16Default(t *testing.T) {
	bf16 := func(text string) (bool, string) {
		d := doc.Parse("a.yaml", []byte(text), doc.YAML, doc.Limits{})
		p := HuggingFace.Normalize(d, Context{})
		return p.Precision.BF16.Value, p.Precision.BF16.By
	}
	if v, by := bf16("dataset_name: trl-lib/Capybara\nper_device_train_batch_size: 8\n"); !v || by != "the TRL default" {
		t.Errorf("TRL recipe: bf16 %v by %q", v, by)
	}
	if v, _ := bf16("dataset_name: trl-lib/Capybara\nfp16: true\n"); v {
		t.Error("TRL recipe with fp16: bf16 on")
	}
	if v, by := bf16("per_device_train_batch_size: 8\neval_strategy: steps\n"); v || by != "the Trainer default" {
		t.Errorf("Trainer file: bf16 %v by %q", v, by)
	}
}

// TestKnowledgeOutsideTags: no fact of a table holds at a version it says nothing about (older
// than its oldest tag, Lightning 0.10.0 before 1.0.0; a minor release past its newest, or a patch
// release past its newest when its patch releases change what it holds: Lightning 2.5.1 added
// model_registry), neither side of the bracket: a key every tag has (Trainer's max_epochs) is
// not claimed there, while a version between tags reads as the tags around them (1.8.6, and
// 1.9.999999, a cap <2.0, between 1.9.5 and 2.0.0).
func TestKnowledgeOutsideTags(t *testing.T) {
	kb := KnowledgeOf("lightning")
	f, ok := kb.Sections["Trainer"]["max_epochs"]
	if !ok {
		t.Fatal("no Trainer.max_epochs in the Lightning table")
	}
	for target, want := range map[string]bool{"": true, "2.3.1": true, "2.6.9": false, "2.6.5": true, "1.8.6": true, "1.9.999999": true, "1.0.0": true, "0.10.0": false, "2.7.0": false, "3.0": false} {
		if got := kb.Has(f, target); got != want {
			t.Errorf("Has(max_epochs, %q) = %v, want %v", target, got, want)
		}
		if got := kb.Outside(target); got == want {
			t.Errorf("Outside(%q) = %v", target, got)
		}
		if got := kb.SectionExists("Trainer", target); got != want {
			t.Errorf("SectionExists(Trainer, %q) = %v, want %v", target, got, want)
		}
	}
}

// A development build of a release comes before it (a vendored LLaMA-Factory whose env.py says
// VERSION = "0.9.2.dev0" still has image_resolution, removed in 0.9.2): it lies between the tag
// before and that release, and what either has counts.
func TestKnowledgePreRelease(t *testing.T) {
	kb := KnowledgeOf("llamafactory")
	f, ok := kb.Sections["ModelArguments"]["image_resolution"]
	if !ok {
		t.Fatal("no ModelArguments.image_resolution in the LLaMA-Factory table")
	}
	for target, want := range map[string]bool{"0.9.2": false, "0.9.2.dev0": true, "v0.9.2rc1": true, "0.9.2.post1": false, "0.9.0": true, "0.9.3.dev0": false} {
		if got := kb.Has(f, target); got != want {
			t.Errorf("Has(image_resolution, %q) = %v, want %v", target, got, want)
		}
	}
	for s, want := range map[string]bool{"0.9.2.dev0": true, "5.0.0rc1": true, "v2.1.0-beta.2": true, "1.2.post1": false, "2.1.0+cu118": false, "4.46": false, "dev": false} {
		if got := PreRelease(s); got != want {
			t.Errorf("PreRelease(%q) = %v", s, got)
		}
	}
}

// TestKnowledgeLaterPatch: past the newest tag read, a patch release reads as the newest only
// for a table whose patch releases never changed what it holds. TRL's tags are minor releases
// with no such change, so 1.9.3 reads as v1.9.0; LLaMA-Factory's 0.9.x releases add arguments
// (v0.9.2's checks, ktransformers' kt_config after v0.9.5), so its 0.9.6.dev0 reads as nothing.
func TestKnowledgeLaterPatch(t *testing.T) {
	trl := KnowledgeOf("trl")
	if trl.changedInPatchForTest() {
		t.Fatal("the TRL table shows a patch release changing it")
	}
	var f Fact
	for _, sec := range trl.Sections {
		for k, x := range sec {
			if k != "" && k[0] != '@' && x.Removed == "" {
				f = x
			}
		}
	}
	if !trl.Has(f, "1.9.3") || trl.Outside("1.9.3") {
		t.Errorf("trl 1.9.3 does not read as the newest tag")
	}
	lf := KnowledgeOf("llamafactory")
	if !lf.changedInPatchForTest() {
		t.Fatal("the LLaMA-Factory table shows no patch release changing it")
	}
	g, ok := lf.Sections["ModelArguments"]["model_name_or_path"]
	if !ok {
		t.Fatal("no ModelArguments.model_name_or_path in the LLaMA-Factory table")
	}
	for target, want := range map[string]bool{"0.9.5": true, "0.9.6.dev0": false, "0.9.6": false, "": true} {
		if got := lf.Has(g, target); got != want {
			t.Errorf("LLaMA-Factory Has(model_name_or_path, %q) = %v, want %v", target, got, want)
		}
	}
}
