package main

import (
	"os"
	"strings"
	"testing"
)

// TestLightningTableUpToDate fails when lint/dialect/knowledge_lightning.tsv is not what the
// committed extraction renders to (run `go run ./cmd/trainlint-knowledge`).
func TestLightningTableUpToDate(t *testing.T) {
	ex, err := loadLightning("testdata")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../" + lightningOut)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != renderLightning(ex) {
		t.Fatal(lightningOut + " is stale: run go run ./cmd/trainlint-knowledge")
	}
}

// TestLightningRanges checks facts read in Lightning's source and their version ranges.
func TestLightningRanges(t *testing.T) {
	ex, err := loadLightning("testdata")
	if err != nil {
		t.Fatal(err)
	}
	table := renderLightning(ex)
	tableHas(t, table,
		// Time-based val_check_interval arrived in 2.6.0 (#21071); Optional from 1.6.0.
		"lightning\tTrainer\t@type:val_check_interval\tOptional[Union[int, float]]\t1.6.0\t2.6.0\t",
		"lightning\tTrainer\t@type:val_check_interval\tOptional[Union[int, float, str, timedelta, dict[str, int]]]\t2.6.0\t\t",
		// precision's alias expanded through accelerator_connector -> fabric connector -> precision.py.
		"lightning\tTrainer\t@type:precision\tUnion[Literal[64, 32, 16], Literal['16-mixed', 'bf16-mixed', '32-true', '64-true'], Literal['64', '32', '16', 'bf16']]\t2.0.0\t2.1.0\t",
		// At 1.x: an int, then Union[int, str] (pytorch_lightning/trainer/trainer.py@1.5.0).
		"lightning\tTrainer\t@type:precision\tint\t\t1.5.0\t",
		// ModelCheckpoint's checks, with their if tests: this one from 1.4.0; 1.3.x tested
		// (None, -1, 0), 1.0-1.2 the same in a list.
		"lightning\t@check:ModelCheckpoint\tModelCheckpoint.__validate_init_configuration\tself.monitor is None and self.save_top_k not in (-1, 0, 1)\t1.4.0\t\t",
		"lightning\t@check:ModelCheckpoint\tModelCheckpoint.__validate_init_configuration\tself.monitor is None and self.save_top_k not in (None, -1, 0)\t1.3.0\t1.4.0\t",
		"lightning\t@enum:Trainer\tgradient_clip_algorithm\tvalue|norm\t1.3.0\t\tlower\t",
		"lightning\tEarlyStopping\tmonitor\t@required\t",
		"lightning\tTrainer\tmodel_registry\tNone\t2.5.1\t\t", // a patch release added it
		// Trainer arguments Lightning 1.7.0 removed (1.0.0, the oldest tag read, had them).
		"lightning\tTrainer\tcheckpoint_callback\tNone\t\t1.7.0\t",
		"lightning\tTrainer\tweights_summary\t'top'\t\t1.7.0\t",
		// A value that comes back is a row per run of tags: EarlyStopping's monitor.
		"lightning\tEarlyStopping\t@type:monitor\tstr\t\t1.4.0\t",
		"lightning\tEarlyStopping\t@type:monitor\tOptional[str]\t1.4.0\t1.6.0\t",
		"lightning\tEarlyStopping\t@type:monitor\tstr\t1.6.0\t\t",
		// A default that changed: one row per default; monitor is required from 1.6.0.
		"lightning\tEarlyStopping\t@default:monitor\t'early_stop_on'\t\t1.4.0\t",
		"lightning\tEarlyStopping\t@default:monitor\tNone\t1.4.0\t1.6.0\t",
		"lightning\tEarlyStopping\t@default:monitor\t@required\t1.6.0\t\t",
	)
}

// TestDeepSpeedEnumValues: the values of DeepSpeed's enum-typed fields are rows of a
// "<section>:<field>" section, read at every tag.
func TestDeepSpeedEnumValues(t *testing.T) {
	exs, err := load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	table := render(exs)
	tableHas(t, table,
		"deepspeed\tzero_optimization:stage\t3\t\t\t\t\tdeepspeed/runtime/zero/config.py@v0.19.5",
		"deepspeed\tzero_optimization.offload_optimizer:device\tnvme\t\t\t\t\tdeepspeed/runtime/zero/offload_config.py@v0.19.5",
	)
	if strings.Contains(table, "deepspeed\tzero_optimization:stage\t4\t") {
		t.Error("ZeroStageEnum has no 4")
	}
}
