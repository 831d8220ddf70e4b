package main

import (
	"testing"
)

// TestFinetuneTableUpToDate fails when lint/dialect/knowledge_finetune.tsv is not what the
// committed axolotl and LLaMA-Factory extraction renders to.
func TestFinetuneTableUpToDate(t *testing.T) {
	renderedUpToDate(t, finetuneFiles, finetuneOut)
}

// TestRenderFinetune checks facts read in axolotl's pydantic schema and LLaMA-Factory's hparams
// dataclasses (extract_finetune.py).
func TestRenderFinetune(t *testing.T) {
	exs, err := loadFiles("testdata", finetuneFiles)
	if err != nil {
		t.Fatal(err)
	}
	table := render(exs)
	tableHas(t, table,
		// AxolotlInputConfig sets no extra policy: pydantic ignores unknown keys.
		"axolotl\t\t@extra\tignore\t\t\t\tsrc/axolotl/utils/schemas/config.py@v0.18.0",
		// DeprecatedParameters warns "evaluation_strategy is deprecated, use eval_strategy instead".
		"axolotl\tAxolotlInputConfig\tevaluation_strategy\tNone\t\t\teval_strategy\tsrc/axolotl/utils/schemas/deprecated.py@",
		// RemappedParameters: model_type is the alias of type_of_model.
		"axolotl\tAxolotlInputConfig\tmodel_type\tNone\t",
		// check_warmup refuses warmup_steps with warmup_ratio.
		"axolotl\t@check\tcheck_warmup#&(T:warmup_steps,T:warmup_ratio)\t&(T:warmup_steps,T:warmup_ratio) warmup_steps and warmup_ratio are both set\t\t\twarmup_steps and warmup_ratio are mutually exclusive\t",
		// FinetuningArguments.__post_init__: finetuning_type defaults to "lora" when absent (A:).
		"llamafactory\t@check\tFinetuningArguments.__post_init__#&(!(|(E:finetuning_type=lora,A:finetuning_type)),T:use_dora)\t&(!(|(E:finetuning_type=lora,A:finetuning_type)),T:use_dora) use_dora is set, finetuning_type is not \"lora\"\t",
		// rl is typed RLType; ebft joined at v0.16.0.
		"axolotl\t@enum\trl#dpo|ebft|gdpo|grpo|ipo|kto|orpo|simpo\tdpo|ebft|gdpo|grpo|ipo|kto|orpo|simpo\tv0.16.0\t\t",
		// HfArgumentParser.parse_dict refuses unknown keys.
		"llamafactory\t\t@extra\tforbid\t",
		"llamafactory\tFinetuningArguments\tfinetuning_type\t'lora'\t",
	)
}
