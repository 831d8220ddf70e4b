package dialect

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// TestTRLDefaultsOnCorpus reads the TRL recipes of the shared corpus (alignment-handbook's
// recipes/<model>/<method>/, TRL's CLI example): each recipe under an sft/, dpo/ or orpo/
// folder is narrowed to that class, and with its learning_rate and bf16 lines taken out the plan
// holds that class's own defaults (SFTConfig 2e-5, DPOConfig and ORPOConfig 1e-6; bf16 on), at
// the newest TRL and at the alignment-handbook's own trl pin (>=0.19: read as 0.19).
func TestTRLDefaultsOnCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus not present at %s", dir)
	}
	want := map[string]struct {
		class string
		lr    float64
	}{"sft": {"SFTConfig", 2e-5}, "dpo": {"DPOConfig", 1e-6}, "orpo": {"ORPOConfig", 1e-6}}
	drop := regexp.MustCompile(`(?m)^(learning_rate|bf16|fp16):.*$`)
	kb := KnowledgeOf("trl")
	seen := map[string]int{}
	for _, repo := range []string{"huggingface__alignment-handbook", "huggingface__trl"} {
		files, _ := filepath.Glob(filepath.Join(dir, repo, "*.yaml"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			// The original path: recipes__zephyr-7b-beta__dpo__config_full.yaml.
			orig := strings.ReplaceAll(filepath.Base(f), "__", "/")
			d := doc.Parse(orig, data, doc.YAML, doc.Limits{})
			if Detect(d) != HuggingFace {
				continue
			}
			p := HuggingFace.Normalize(d, Context{})
			if p.Variant != "trl" {
				continue
			}
			method := trlPathWord(orig)
			w, ok := want[method]
			choice := trlClasses(d, kb, "")
			if !ok {
				// TRL's CLI example names no method: it stays open, and its learning rate is
				// its own.
				if len(choice.classes) < 2 {
					t.Errorf("%s: narrowed to %v without a method in its path", orig, choice.classes)
				}
				continue
			}
			seen[method]++
			for _, target := range []string{"", "0.19"} {
				c := trlClasses(d, kb, target)
				if len(c.classes) != 1 || c.classes[0] != w.class {
					t.Errorf("%s at trl %q: classes %v, want %s", orig, target, c.classes, w.class)
				}
				bare := doc.Parse(orig, drop.ReplaceAll(data, nil), doc.YAML, doc.Limits{})
				bp := HuggingFace.Normalize(bare, Context{Targets: map[string]string{"trl": target}})
				lr := bp.Schedule.LearningRate
				if !lr.Known() || lr.Origin != plan.Default || lr.Value != w.lr || lr.By != "the TRL default" {
					t.Errorf("%s at trl %q without learning_rate: %+v, want the %s default %g", orig, target, lr, w.class, w.lr)
				}
				if bf := bp.Precision.BF16; !bf.Known() || !bf.Value || bf.By != "the TRL default" {
					t.Errorf("%s at trl %q without bf16: %+v, want the TRL default true", orig, target, bf)
				}
			}
			// As written, an explicit learning rate is the recipe's own.
			if lr := p.Schedule.LearningRate; strings.Contains(string(data), "\nlearning_rate:") && !lr.IsExplicit() {
				t.Errorf("%s: learning_rate %+v, want explicit", orig, lr)
			}
		}
	}
	if seen["sft"] < 5 || seen["dpo"] < 5 || seen["orpo"] < 1 {
		t.Errorf("recipes read by method: %v", seen)
	}
}

// TestTRLDefaultsByVersion: gradient_checkpointing's default turns True in trl 0.22 and
// RewardConfig's learning rate becomes its own (1e-4) in 0.24, both read from the source.
func TestTRLDefaultsByVersion(t *testing.T) {
	kb, hf := KnowledgeOf("trl"), KnowledgeOf("transformers")
	reward := trlChoice{classes: []string{"RewardConfig"}}
	for _, c := range []struct{ key, target, want string }{
		{"gradient_checkpointing", "0.21", "False"},
		{"gradient_checkpointing", "0.22.1", "True"},
		{"gradient_checkpointing", "", "True"},
		{"learning_rate", "0.23", "5e-05"},
		{"learning_rate", "0.24", "0.0001"},
		{"bf16", "0.19", "not fp16"},
	} {
		got, ok := trlDefault(kb, hf, reward, c.key, c.target)
		if !ok || got != c.want {
			t.Errorf("RewardConfig %s at trl %q: %q %v, want %q", c.key, c.target, got, ok, c.want)
		}
	}
	// SFT or DPO: no single learning rate.
	if v, ok := trlDefault(kb, hf, trlChoice{classes: []string{"SFTConfig", "DPOConfig"}}, "learning_rate", ""); ok {
		t.Errorf("SFT or DPO learning rate %q, want none", v)
	}
	for p, want := range map[string]string{
		"recipes/zephyr-7b-beta/dpo/config_full.yaml": "dpo",
		"tests/fixtures/config_sft_full.yaml":         "sft",
		"recipes/x-sft/dpo/config.yaml":               "",
		"examples/cli_configs/example_config.yaml":    "",
	} {
		if got := trlPathWord(p); got != want {
			t.Errorf("trlPathWord(%q) = %q, want %q", p, got, want)
		}
	}
}
