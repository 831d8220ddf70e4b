package lint_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/rules"
)

// TestJoinDeepSpeedTRLLearningRate: alignment-handbook's zephyr DPO recipe with its
// learning_rate line taken out runs at DPOConfig's default, 1e-6 (trl/trainer/dpo_config.py at
// every tag v0.19.0-v1.9.0), so a DeepSpeed file with optimizer.params.lr 1e-6 agrees with it
// and one with the Trainer's 5e-5 is refused at start-up (HfTrainerDeepSpeedConfig); before TRL's
// defaults were read, both answers were the other way round.
func TestJoinDeepSpeedTRLLearningRate(t *testing.T) {
	const recipe = "recipes/zephyr-7b-beta/dpo/config_full.yaml"
	b, err := os.ReadFile(filepath.Join(corpusDir(t), "huggingface__alignment-handbook", "recipes__zephyr-7b-beta__dpo__config_full.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`(?m)^learning_rate:.*\n`).ReplaceAllString(string(b), "")
	text = strings.TrimRight(text, "\n") + "\ndeepspeed: recipes/ds.json\n"
	for _, c := range []struct {
		lr     string
		refuse bool
	}{{"1e-6", false}, {"5e-5", true}} {
		ds := `{"train_micro_batch_size_per_gpu": "auto", "optimizer": {"type": "AdamW", "params": {"lr": ` + c.lr + `}}}` + "\n"
		fsys := fstest.MapFS{recipe: {Data: []byte(text)}, "recipes/ds.json": {Data: []byte(ds)}}
		res := lint.LintTree(compose.FromFS(fsys), []string{recipe, "recipes/ds.json"}, nil, rules.All(), lint.Options{})
		var got []lint.Diagnostic
		for _, d := range findAt(res.Diagnostics, "TL011", "recipes/ds.json") {
			if strings.Contains(d.Message, "optimizer.params.lr") {
				got = append(got, d)
			}
		}
		if !c.refuse {
			if len(got) != 0 {
				t.Errorf("lr %s: %s", c.lr, got[0].Message)
			}
			continue
		}
		if len(got) != 1 || !strings.Contains(got[0].Message, "learning_rate 1e-06") || len(got[0].Related) == 0 ||
			!strings.Contains(got[0].Related[0].Message, "the TRL default") {
			t.Errorf("lr %s: %+v", c.lr, got)
		}
	}
}

// TestJoinDeepSpeedTRLVersion: a reward-model recipe that leaves learning_rate out runs at
// RewardConfig's 1e-4 from trl 0.24 and at the Trainer's 5e-5 before it, so the same
// DeepSpeed file (optimizer.params.lr 1e-4) is refused for a repository that pins trl 0.23
// and accepted at the newest release.
func TestJoinDeepSpeedTRLVersion(t *testing.T) {
	const recipe = "recipes/qwen/reward/config.yaml"
	text := "model_name_or_path: Qwen/Qwen2.5-0.5B\ndataset_name: trl-lib/ultrafeedback_binarized\nmax_length: 2048\n" +
		"output_dir: runs/rm\ndeepspeed: recipes/ds.json\n"
	ds := `{"train_micro_batch_size_per_gpu": "auto", "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}}` + "\n"
	fsys := fstest.MapFS{recipe: {Data: []byte(text)}, "recipes/ds.json": {Data: []byte(ds)}}
	for _, c := range []struct {
		trl    string
		refuse bool
	}{{"", false}, {"0.24", false}, {"0.23", true}} {
		o := lint.Options{}
		if c.trl != "" {
			o.Targets = map[string]lint.Target{"trl": {Version: c.trl, Source: "requirements.txt"}}
		}
		res := lint.LintTree(compose.FromFS(fsys), []string{recipe, "recipes/ds.json"}, nil, rules.All(), o)
		var got []string
		for _, d := range findAt(res.Diagnostics, "TL011", "recipes/ds.json") {
			if strings.Contains(d.Message, "optimizer.params.lr") {
				got = append(got, d.Message)
			}
		}
		if c.refuse != (len(got) == 1) || c.refuse && !strings.Contains(got[0], "learning_rate 5e-05") {
			t.Errorf("trl %q: %q", c.trl, got)
		}
	}
}
