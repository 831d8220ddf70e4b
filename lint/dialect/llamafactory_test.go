package dialect

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// The shape of LLaMA-Factory's examples/train_lora/*_sft.yaml (written here, not copied).
const lfSFT = `model_name_or_path: Qwen/Qwen3-4B-Instruct-2507
stage: sft
do_train: true
finetuning_type: lora
lora_target: all
dataset: identity,alpaca_en_demo
template: qwen3_nothink
cutoff_len: 2048
output_dir: saves/qwen3-4b/lora/sft
logging_steps: 10
save_steps: 500
report_to: none
per_device_train_batch_size: 1
gradient_accumulation_steps: 8
val_size: 0.1
per_device_eval_batch_size: 1
eval_strategy: steps
eval_steps: 500
`

func TestLlamaFactoryV1(t *testing.T) {
	src := `model: Qwen/Qwen3-0.6B
model_class: llm
dist_config:
  name: fsdp2
cp_size: 2
train_dataset: data/v1_sft_demo.yaml
micro_batch_size: 2
global_batch_size: 32
save_steps: 100
save_total_limit: 3
max_steps: 10
`
	p := hftPlan(t, LlamaFactory, doc.YAML, src, Context{Hosts: 1, DevicesPerHost: 8})
	if p.Variant != "v1" {
		t.Errorf("variant %q", p.Variant)
	}
	wantFact(t, "micro", p.Train.PerDeviceBatch, 2, plan.Explicit, "micro_batch_size", 7)
	wantFact(t, "global", p.Train.GlobalBatch, 32, plan.Explicit, "global_batch_size", 8)
	// 8 devices / cp_size 2 = 4 data-parallel ranks: 32 / (2 × 4) = 4.
	wantFact(t, "accum", p.Train.GradAccum, 4, plan.Derived, "global_batch_size", 8)
	wantFact(t, "max steps", p.Train.MaxSteps, 10, plan.Explicit, "max_steps", 11)
	wantFact(t, "eval", p.Eval.Enabled, false, plan.Default, "eval_dataset", 0)
	hftNote(t, "eval", p.Eval.Enabled, "its trainer has no periodic evaluation")
	wantFact(t, "workers", p.Data.Workers, 16, plan.Default, "batching_workers", 0)
	wantFact(t, "prefetch", p.Data.Prefetch, 2, plan.Default, "dataloader_prefetch_factor", 0)
	wantFact(t, "ckpt", p.Ckpt.Interval, plan.Interval{Value: 100, Unit: plan.Steps, Text: "100"}, plan.Explicit, "save_steps", 9)
	wantFact(t, "retention", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepLatest, N: 3}, plan.Explicit, "save_total_limit", 10)
	wantFact(t, "seed", p.Seeds.Init, sameSeed("42", true), plan.Default, "seed", 0)
	if got := Detect(hftDoc(t, doc.YAML, src)); got != LlamaFactory {
		t.Errorf("detected %s", got.Name)
	}

	p = hftPlan(t, LlamaFactory, doc.YAML, "model: m\nmodel_class: llm\nmicro_batch_size: 4\n", Context{Hosts: 2, DevicesPerHost: 4})
	wantFact(t, "default global", p.Train.GlobalBatch, 32, plan.Derived, "global_batch_size", 3)
	wantFact(t, "default accum", p.Train.GradAccum, 1, plan.Derived, "global_batch_size", 3)
	wantFact(t, "default retention", p.Ckpt.Retention, plan.Retention{Kind: plan.KeepAll}, plan.Default, "save_total_limit", 0)
	wantFact(t, "no save keys", p.Ckpt.Enabled, false, plan.Unknown, "", -1)

	p = hftPlan(t, LlamaFactory, doc.YAML, "model: m\nmodel_class: llm\nmicro_batch_size: 4\nglobal_batch_size: auto\n", Context{Hosts: 1, DevicesPerHost: 4})
	wantFact(t, "auto global", p.Train.GlobalBatch, 0, plan.Unknown, "global_batch_size", 4)
	wantFact(t, "auto accum", p.Train.GradAccum, 0, plan.Unknown, "", -1)
}

// TestLFEvalDataCheckByVersion: get_train_args refuses evaluation without eval data from v0.8.3
// ("Please specify dataset for evaluation.", src/llamafactory/hparams/parser.py) and in other
// words from v0.9.4; before v0.8.3 nothing is claimed (a vendored 0.7.2 splits by train_size).
func TestLFEvalDataCheckByVersion(t *testing.T) {
	d := parseYAMLDoc(t, "model_name_or_path: m\nstage: sft\ndo_train: true\nfinetuning_type: lora\ndataset: alpaca\ntemplate: llama3\noutput_dir: out\neval_strategy: steps\n")
	for target, want := range map[string]string{
		"":           "Please make sure eval_dataset be provided",
		"0.9.5":      "Please make sure eval_dataset be provided",
		"0.9.3":      "Please specify dataset for evaluation.",
		"0.8.3":      "Please specify dataset for evaluation.",
		"0.7.2.dev0": "",
	} {
		ctx := Context{}
		if target != "" {
			ctx.Targets = map[string]string{"llamafactory": target}
		}
		p := LlamaFactory.Normalize(d, ctx)
		if want == "" && (p.Eval.DataCheck != "" || p.Eval.Data.Known()) || want != "" && !strings.Contains(p.Eval.DataCheck, want) {
			t.Errorf("%q: check %q, data %+v", target, p.Eval.DataCheck, p.Eval.Data)
		}
	}
}

// The ppo stage cannot evaluate (CustomPPOTrainer raises for an eval dataset): evaluation is
// unavailable there, and available to the other stages. Its loop reads neither
// dataloader_num_workers nor save_strategy.
func TestLFPPOCannotEvaluate(t *testing.T) {
	for stage, want := range map[string]bool{"ppo": true, "sft": false, "dpo": false} {
		d := parseYAMLDoc(t, "model_name_or_path: m\nstage: "+stage+"\ndo_train: true\nfinetuning_type: lora\ndataset: alpaca\ntemplate: llama3\noutput_dir: out\nsave_strategy: \"no\"\n")
		p := LlamaFactory.Normalize(d, Context{})
		if p.Eval.Unavailable != want {
			t.Errorf("stage %s: Eval.Unavailable %v", stage, p.Eval.Unavailable)
		}
		// Its own loop: TRL's loader (no num_workers), saves every save_steps.
		if p.Data.Workers.Known() == want || p.Ckpt.Enabled.Known() == want {
			t.Errorf("stage %s: workers %+v, checkpoints %+v", stage, p.Data.Workers, p.Ckpt.Enabled)
		}
	}
}

// TestLFNeedsAModelOrStage: template, cutoff_len and max_samples beside a script's own
// model_name and num_epochs (training_cluster's config.yaml, read with yaml.safe_load) are no
// LLaMA-Factory file: it has no model_name_or_path (v0), model (v1), stage or finetuning type.
func TestLFNeedsAModelOrStage(t *testing.T) {
	own := "model_name: Qwen/Qwen2.5-1.5B-Instruct\ntemplate: qwen\ncutoff_len: 2048\nmax_samples: 1000\nnum_epochs: 3.0\n"
	if got := detectLF(parseYAMLDoc(t, own)); got != 0 {
		t.Errorf("a script's own config: score %d", got)
	}
	if got := detectLF(parseYAMLDoc(t, "model_name_or_path: Qwen/Qwen2.5-1.5B-Instruct\n"+own)); got == 0 {
		t.Error("with model_name_or_path: not detected")
	}
}
