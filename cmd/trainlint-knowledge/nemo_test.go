package main

import (
	"os"
	"strings"
	"testing"
)

// TestNemoTableUpToDate fails when lint/dialect/knowledge_nemo.tsv is not what the committed
// NeMo extraction renders to, and checks facts read in nemo/utils/exp_manager.py.
func TestNemoTableUpToDate(t *testing.T) {
	exs, err := loadFiles("testdata", nemoFiles)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../" + nemoOut)
	if err != nil {
		t.Fatal(err)
	}
	table := render(exs)
	if string(got) != table {
		t.Fatal(nemoOut + " is stale: run go run ./cmd/trainlint-knowledge")
	}
	for _, want := range []string{
		// exp_manager merges the section into OmegaConf.structured(ExpManagerConfig).
		"nemo\t\t@extra\tforbid\t\t\t\tnemo/utils/exp_manager.py:573@v2.5.0rc0",
		"nemo\tExpManagerConfig\tresume_if_exists\tFalse\t",
		// resume_from_checkpoint joined ExpManagerConfig at v1.21.0.
		"nemo\tExpManagerConfig\tresume_from_checkpoint\tNone\tv1.21.0\t",
		"nemo\tCallbackParams\tsave_top_k\t3\t",
		// async_save joined CallbackParams at v2.0.0.
		"nemo\tCallbackParams\tasync_save\tFalse\tv2.0.0\t",
		"nemo\tEarlyStoppingParams\tpatience\t10\t",
		"nemo\tMLFlowParams\tlog_model\tFalse\tv1.21.0\t\t\tnemo/utils/loggers/mlflow_logger.py:",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q", want)
		}
	}
}
