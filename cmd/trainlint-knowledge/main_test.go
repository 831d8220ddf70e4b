package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTableUpToDate fails when lint/dialect/knowledge.tsv is not what the committed extraction
// renders to (run `go run ./cmd/trainlint-knowledge` from the repository root).
func TestTableUpToDate(t *testing.T) {
	exs, err := load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	want := render(exs)
	got, err := os.ReadFile("../../lint/dialect/knowledge.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatal("lint/dialect/knowledge.tsv is stale: run go run ./cmd/trainlint-knowledge")
	}
}

// TestRenderRanges checks the merge of tags into since/removed on facts read in the sources.
func TestRenderRanges(t *testing.T) {
	exs, err := load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	table := render(exs)
	tableHas(t, table,
		// SFTConfig.max_seq_length exists at v0.19.0 (deprecated for max_length) and is gone at v0.20.0.
		"trl\tSFTConfig\tmax_seq_length\tNone\t\tv0.20.0\tmax_length\ttrl/trainer/sft_config.py@",
		// DeepSpeed's config models forbid unknown keys at every tag read.
		"deepspeed\t\t@extra\tforbid\t\t\t\tdeepspeed/runtime/config_utils.py@v0.19.5",
		// zero_optimization is read from the root of the config at every tag.
		"deepspeed\t\tzero_optimization\t\t\t\t\tdeepspeed/",
		// The precision models appear in 0.18.
		"deepspeed\tbf16\tenabled\t",
		// transformers: evaluation_strategy is deprecated for eval_strategy in 4.41 and gone in 4.51;
		// adamw_hf leaves OptimizerNames in 4.50; "detail" is a log level at every tag.
		"transformers\tTrainingArguments\tevaluation_strategy\tNone\t\tv4.51.0\teval_strategy\t",
		"transformers\tTrainingArguments@deprecated\tevaluation_strategy\t\tv4.41.0\tv4.51.0\teval_strategy\t",
		"transformers\tTrainingArguments:optim\tadamw_hf\t\t\tv4.50.0\t\t",
		"transformers\tTrainingArguments:log_level\tdetail\t\t\t\t\t",
		// TRL's own defaults over the Trainer's, by class and version: __post_init__ makes bf16
		// "not fp16" at every tag; gradient_checkpointing defaults to True from v0.22.0;
		// RewardConfig's learning rate is its own from v0.24.0, PPOConfig's from v0.29.0.
		"trl\t@default:SFTConfig\tbf16\tnot fp16\t\t\t\t",
		"trl\t@default:SFTConfig\tgradient_checkpointing\tTrue\tv0.22.0\t\t\t",
		"trl\t@default:SFTConfig\tlearning_rate\t2e-05\t\t\t\t",
		"trl\t@default:DPOConfig\tlearning_rate\t1e-06\t\t\t\t",
		"trl\t@default:RewardConfig\tlearning_rate\t0.0001\tv0.24.0\t\t\t",
		"trl\t@default:PPOConfig\tlearning_rate\t3e-06\tv0.29.0\t\t\t",
	)
}

// renderedUpToDate renders the committed extractions files and fails the test when the
// committed table out differs; it returns the rendered text for the caller's fact checks.
func renderedUpToDate(t *testing.T, files []string, out string) string {
	t.Helper()
	exs, err := loadFiles("testdata", files)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../" + out)
	if err != nil {
		t.Fatal(err)
	}
	table := render(exs)
	if string(got) != table {
		t.Fatal(out + " is stale: run go run ./cmd/trainlint-knowledge")
	}
	return table
}

// tableHas fails the test for each of wants that the rendered table does not contain.
func tableHas(t *testing.T, table string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q", want)
		}
	}
}

// TestTableProvenance: the embedded tables keep a start-up check's line (a refusal's help
// names it) and drop every other row's, which lint never reads; the extractions keep them all.
func TestTableProvenance(t *testing.T) {
	for _, out := range []string{outFile, finetuneOut, lightningOut, omegaconfOut, torchtuneOut} {
		data, err := os.ReadFile(filepath.Join("..", "..", out))
		if err != nil {
			t.Fatal(err)
		}
		checks := 0
		for _, line := range strings.Split(string(data), "\n") {
			c := strings.Split(line, "\t")
			if len(c) != 8 || strings.HasPrefix(line, "#") {
				continue
			}
			file, _, _ := strings.Cut(c[7], "@")
			i := strings.LastIndexByte(file, ':')
			hasLine := i >= 0 && strings.Trim(file[i+1:], "0123456789") == ""
			if check := c[1] == "@check" || strings.HasPrefix(c[1], "@check:"); check != hasLine {
				t.Errorf("%s: check row %v, line kept %v: %q", out, check, hasLine, line)
				break
			} else if check {
				checks++
			}
		}
		if out == finetuneOut && checks == 0 {
			t.Errorf("%s: no start-up check rows", out)
		}
	}
}
