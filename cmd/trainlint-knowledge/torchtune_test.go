package main

import (
	"strings"
	"testing"
)

// TestTorchtuneTableUpToDate fails when lint/dialect/knowledge_torchtune.tsv is not what the
// committed torchtune extraction renders to, and checks facts read in its source.
func TestTorchtuneTableUpToDate(t *testing.T) {
	table := renderedUpToDate(t, torchtuneFiles, torchtuneOut)
	tableHas(t, table,
		// A builder that takes no arguments is closed all the same.
		"torchtune\ttorchtune.models.llama3_1.llama3_1_8b\t@closed\t\t\t\t\ttorchtune/models/llama3_1/_model_builders.py@",
		"torchtune\ttorchtune.models.llama3.llama3_tokenizer\tpath\t@required\t\t\t\t",
		// A partial keeps the keywords it does not bind: qlora_llama3_1_8b binds quantize_base.
		"torchtune\ttorchtune.models.llama3_1.qlora_llama3_1_8b\tlora_rank\t8\t",
		// should_load_recipe_state came in v0.6.0, keep_last_n_checkpoints after v0.6.1 (main).
		"torchtune\ttorchtune.training.FullModelHFCheckpointer\tshould_load_recipe_state\tFalse\tv0.6.0\t",
		"torchtune\ttorchtune.training.FullModelHFCheckpointer\tkeep_last_n_checkpoints\tNone\tv0.7.0-bd2a0fc\t",
		"torchtune\ttorchtune.training.setup_torch_profiler\txpu\tTrue\tv0.6.0\t",
		// output_dir is required up to v0.6.1 and optional on main; Python's words when missing.
		"torchtune\t@required:torchtune.training.FullModelHFCheckpointer\toutput_dir\t\t\tv0.7.0-bd2a0fc\tFullModelHFCheckpointer.__init__() missing 1 required positional argument: 'output_dir'\t",
	)
	// Callables that take **kwargs stay open: not in the table.
	for _, open := range []string{"torchtune.datasets.alpaca_cleaned_dataset\t", "torchtune.training.metric_logging.DiskLogger\t"} {
		if strings.Contains(table, open) {
			t.Errorf("table has %q, which takes **kwargs", open)
		}
	}
}
