package rules

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// findingOf lints text as path with only rule code selected and returns its first finding.
func findingOf(t *testing.T, path, text, code string, o lint.Options) lint.Diagnostic {
	t.Helper()
	o.Select = []string{code}
	_, diags := lint.LintFile(lint.File{Path: path, Text: []byte(text)}, All(), o)
	if len(diags) == 0 {
		t.Fatalf("%s: no %s", path, code)
	}
	return diags[0]
}

// TestInitSeedVariesWording: MMEngine draws one seed (broadcast from rank 0) when none is set
// and diff_rank_seed adds the rank: the finding says the seed drawn differs from process to
// process, not that each process draws its own.
func TestInitSeedVariesWording(t *testing.T) {
	const cfg = "default_scope = 'mmdet'\nrandomness = dict(diff_rank_seed=True)\n" +
		"model = dict(type='RetinaNet', backbone=dict(type='ResNet', depth=50))\n" +
		"train_dataloader = dict(batch_size=2, num_workers=2)\ntrain_cfg = dict(type='EpochBasedTrainLoop', max_epochs=12)\n"
	d := findingOf(t, "r.py", cfg, "TL603", lint.Options{Hosts: 2, DevicesPerHost: 8})
	if !strings.HasPrefix(d.Message, "no initialisation seed is set, and the one drawn differs from process to process") ||
		strings.Contains(d.Message, "draws its own") || !strings.Contains(d.Message, "diff_rank_seed adds the rank") {
		t.Errorf("%q", d.Message)
	}
}

// TestRetentionGenericHelp: for a retention key of a framework no dialect knows (an orbax
// max_to_keep), the help names keeping every checkpoint and ranking by the eval metric, and
// claims nothing about the key.
func TestRetentionGenericHelp(t *testing.T) {
	d := findingOf(t, "c.yaml", "checkpoint:\n  max_to_keep: 3\n  save_interval_steps: 1000\neval:\n  every_steps: 1000\n", "TL301", lint.Options{})
	if strings.Contains(d.Help, "no best-N mode") || !strings.Contains(d.Help, "orbax: best_fn and best_mode") {
		t.Errorf("%q", d.Help)
	}
}

// TestUnalignedSaveByMetricKind: a Lightning save between validations is ranked by the last
// value logged for the monitored metric: stale for a validation metric (TL303 says so), current
// for a training metric logged every step (no TL303; TL302 reports ranking by it), and for a
// name that says neither the finding says where it would be stale.
func TestUnalignedSaveByMetricKind(t *testing.T) {
	cfg := func(metric string) string {
		return "trainer:\n  max_steps: 9000\n  val_check_interval: 1000\n  check_val_every_n_epoch: null\n  callbacks:\n" +
			"    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        monitor: " + metric +
			"\n        save_top_k: 3\n        every_n_train_steps: 1500\nmodel:\n  class_path: models.LitAutoEncoder\n"
	}
	for metric, want := range map[string]string{
		"val_loss":      "by the previous validation's val_loss",
		"val/acc":       "by the previous validation's val/acc",
		"pixel_AUROC":   "by the last value logged for pixel_AUROC, stale if validation logs it",
		"train_val_gap": "by the last value logged for train_val_gap, stale if validation logs it",
	} {
		if d := findingOf(t, "c.yaml", cfg(metric), "TL303", lint.Options{}); !strings.HasSuffix(d.Message, want) {
			t.Errorf("%s: %q", metric, d.Message)
		}
	}
	for _, metric := range []string{"reduced_train_loss", "train/loss"} {
		_, diags := lint.LintFile(lint.File{Path: "c.yaml", Text: []byte(cfg(metric))}, All(), lint.Options{Select: []string{"TL303", "TL302"}})
		if len(diags) != 1 || diags[0].Code != "TL302" {
			t.Errorf("%s: %+v, want TL302 alone", metric, diags)
		}
	}
}

// TestDerivedBatchFactorHelp: where DeepSpeed derives the factor a file leaves out from the
// device count, the help says what it derives and why it refuses (0, or a product).
func TestDerivedBatchFactorHelp(t *testing.T) {
	o := lint.Options{Hosts: 2, DevicesPerHost: 8}
	d := findingOf(t, "ds.json", `{"train_batch_size": 32, "train_micro_batch_size_per_gpu": 32}`, "TL701", o)
	if d.Severity != lint.Warning || !strings.HasPrefix(d.Help, "it holds only if model parallelism leaves a data-parallel size that divides 1; the framework derives gradient_accumulation_steps = 0 from the 16 devices by integer division, and refuses 0 at start-up") {
		t.Errorf("%s: %q", d.Severity, d.Help)
	}
	d = findingOf(t, "ds.json", `{"train_batch_size": 96, "gradient_accumulation_steps": 4}`, "TL701", o)
	if !strings.Contains(d.Message, "gradient_accumulation_steps 4 × 16 devices = 64") || !strings.Contains(d.Help, "divides 24; the framework derives train_micro_batch_size_per_gpu = 1 from the 16 devices by integer division, and refuses the product 64") {
		t.Errorf("%q / %q", d.Message, d.Help)
	}
}

// TestDeepSpeedStringBatch: a DeepSpeed batch key written as a string other than "auto" stops
// DeepSpeedConfig (it computes with the batch sizes); the fix writes the number. "auto", an
// interpolation and an elastic config (which replaces the batch keys) are left alone.
func TestDeepSpeedStringBatch(t *testing.T) {
	d := findingOf(t, "ds.json", "{\"train_micro_batch_size_per_gpu\": \"4\", \"gradient_accumulation_steps\": 2}\n", "TL011", lint.Options{})
	if d.Message != `train_micro_batch_size_per_gpu is the string "4": deepspeed 0.19.5 stops at start-up: "TypeError"` ||
		d.Fix == nil || len(d.Fix.Edits) != 1 || d.Fix.Edits[0].NewText != "4" {
		t.Errorf("%q fix %+v", d.Message, d.Fix)
	}
	for _, src := range []string{
		"{\"train_micro_batch_size_per_gpu\": \"auto\", \"train_batch_size\": 32}\n",
		"{\"train_micro_batch_size_per_gpu\": 4, \"train_batch_size\": 32}\n",
		"{\"train_batch_size\": \"32\", \"elasticity\": {\"enabled\": true, \"max_train_batch_size\": 64, \"micro_batch_sizes\": [2, 4]}}\n",
	} {
		_, diags := lint.LintFile(lint.File{Path: "ds.json", Text: []byte(src)}, All(), lint.Options{Select: []string{"TL011"}})
		if len(diags) != 0 {
			t.Errorf("%s: %+v", src, diags)
		}
	}
}

// TestRemovedTrainerArgumentsInHydraMaps: an argument Lightning 2.0 removed (gpus) is
// deprecated-key's under a Hydra config's trainer: (which reads trainer.<key>), and unknown-key's
// in a map no other rule reads: a trainer group file's root (flash-attention's all_params.yaml;
// deprecated-key reads it there only at a pin that still has it), a Trainer deeper in a file,
// and a LightningCLI Trainer's init_args. Hydra's instantiate and the CLI refuse it either way.
func TestRemovedTrainerArgumentsInHydraMaps(t *testing.T) {
	codes := func(path, src string) []string {
		_, diags := lint.LintFile(lint.File{Path: path, Text: []byte(src)}, All(), lint.Options{Select: []string{"TL003", "TL005"}})
		var out []string
		for _, d := range diags {
			if strings.Contains(d.Message, `"gpus"`) {
				out = append(out, d.Code)
			}
		}
		return out
	}
	for _, c := range []struct{ name, path, src, want string }{
		{"group file root", "configs/trainer/default.yaml", "_target_: pytorch_lightning.Trainer\ngpus: 2\nmax_epochs: 3\n", "TL003"},
		{"nested Trainer", "configs/run.yaml", "pl:\n  trainer_obj:\n    _target_: pytorch_lightning.Trainer\n    gpus: 2\n", "TL003"},
		{"under trainer:", "train.yaml", "trainer:\n  _target_: pytorch_lightning.Trainer\n  gpus: 2\nmodel:\n  _target_: src.M\n", "TL005"},
		{"CLI init_args", "cli.yaml", "seed_everything: 1\ntrainer:\n  class_path: lightning.pytorch.Trainer\n  init_args:\n    gpus: 2\n", "TL003"},
		{"CLI trainer:", "cli2.yaml", "seed_everything: 1\ntrainer:\n  gpus: 2\n", "TL005"},
	} {
		if got := codes(c.path, c.src); len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: %v, want [%s]", c.name, got, c.want)
		}
	}
}

// TestEpochSavesAfterSparseValidation: Lightning's ModelCheckpoint with every_n_epochs 5 under
// check_val_every_n_epoch 10 saves only after validation runs (save_on_train_epoch_end unset),
// at epochs 10, 20, ..., each with its metric (Michedev/lightning-hydra-just-template): no
// TL303. With save_on_train_epoch_end true it saves at the end of epochs 5, 15, ..., between
// validations, which TL303 reports.
func TestEpochSavesAfterSparseValidation(t *testing.T) {
	cfg := func(soe string) string {
		return "trainer:\n  max_epochs: 50\n  check_val_every_n_epoch: 10\n  callbacks:\n" +
			"    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        monitor: val_loss\n" +
			"        save_top_k: 3\n        every_n_epochs: 5\n" + soe + "model:\n  class_path: models.LitAutoEncoder\n"
	}
	for _, soe := range []string{"", "        save_on_train_epoch_end: false\n"} {
		if _, diags := lint.LintFile(lint.File{Path: "c.yaml", Text: []byte(cfg(soe))}, All(), lint.Options{Select: []string{"TL303"}}); len(diags) != 0 {
			t.Errorf("%q: %+v, want no TL303", soe, diags)
		}
	}
	d := findingOf(t, "c.yaml", cfg("        save_on_train_epoch_end: true\n"), "TL303", lint.Options{})
	if !strings.HasPrefix(d.Message, "trainer.callbacks[0].init_args.every_n_epochs 5 is not a multiple of trainer.check_val_every_n_epoch 10") {
		t.Errorf("%q", d.Message)
	}
}
