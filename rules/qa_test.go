package rules

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// Checks from the held-back QA pass that the txtar archives cannot express (they match
// messages, not help texts).

func lintText(t *testing.T, path, text string, opts lint.Options) []lint.Diagnostic {
	t.Helper()
	_, diags := lint.LintFile(lint.File{Path: path, Text: []byte(text)}, All(), opts)
	return diags
}

// The stock torchtune recipes never read dataloader.num_workers, so the help must not simply
// tell the user to set it.
func TestQATorchtuneDefaultWorkersHelp(t *testing.T) {
	src := `output_dir: /tmp/tt
model:
  _component_: torchtune.models.llama3_2.llama3_2_1b
tokenizer:
  _component_: torchtune.models.llama3.llama3_tokenizer
  path: /tmp/tokenizer.model
checkpointer:
  _component_: torchtune.training.FullModelHFCheckpointer
  checkpoint_dir: /tmp/model
  checkpoint_files: [model.safetensors]
  output_dir: ${output_dir}
  model_type: LLAMA3_2
dataset:
  _component_: torchtune.datasets.alpaca_cleaned_dataset
seed: 1
shuffle: True
batch_size: 4
epochs: 1
device: cuda
dtype: bf16
`
	var got *lint.Diagnostic
	for _, d := range lintText(t, "tt.yaml", src, lint.Options{}) {
		if d.Code == "TL101" {
			got = &d
		}
	}
	if got == nil {
		t.Fatal("no TL101 finding")
	}
	if got.Severity != lint.Info || !strings.Contains(got.Help, "stock torchtune recipes pass no num_workers") {
		t.Errorf("TL101 %s help %q", got.Severity, got.Help)
	}
}

// torchtune adds the rank to a literal seed itself: the help must not ask for a constant seed
// the file already has.
func TestQATorchtuneSeedPlusRankHelp(t *testing.T) {
	src := `model:
  _component_: torchtune.models.llama3_2.llama3_2_1b
checkpointer:
  _component_: torchtune.training.FullModelHFCheckpointer
  checkpoint_dir: /tmp/model
  checkpoint_files: [model.safetensors]
  output_dir: /tmp/out
  model_type: LLAMA3_2
dataset:
  _component_: torchtune.datasets.alpaca_cleaned_dataset
seed: 42
batch_size: 4
epochs: 1
`
	var got *lint.Diagnostic
	for _, d := range lintText(t, "tt.yaml", src, lint.Options{Hosts: 2}) {
		if d.Code == "TL603" {
			got = &d
		}
	}
	if got == nil {
		t.Fatal("no TL603 finding")
	}
	if got.Severity != lint.Info || !strings.Contains(got.Help, "adds the rank to this seed itself") {
		t.Errorf("TL603 %s help %q", got.Severity, got.Help)
	}
}

// A norm layer named by a class a new-style MMEngine config imports (`type=BatchNorm2d`) is
// batch norm, and the finding sits where the config names it, not at the import, whose line
// the value is spanned at.
func TestQAImportedNormClassPlacedAtUse(t *testing.T) {
	src := "from torch.nn import BatchNorm2d\n\nmodel = dict(\n    type='RetinaNet',\n    neck=dict(type='FPN', norm_cfg=dict(type=BatchNorm2d)))\ntrain_dataloader = dict(batch_size=8, num_workers=4)\n"
	var got []string
	for _, d := range lintText(t, "cfg.py", src, lint.Options{Hosts: 2}) {
		if d.Code == "TL501" {
			got = append(got, d.Message)
			if d.Line != 5 || d.Column != 41 {
				t.Errorf("TL501 at %d:%d, want 5:41 (the norm_cfg's type key)", d.Line, d.Column)
			}
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "torch.nn.BatchNorm2d") {
		t.Errorf("TL501 findings %q", got)
	}
}

// A per-device batch too small for batch norm needs statistics over every device at each step:
// TL505's help offers only that (SyncBN, sync_bn), not the hooks that average the running
// statistics before validation, which TL501's help offers.
func TestBNSmallBatchHelpPerStep(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"mmengine.py", "model = dict(type='EncoderDecoder', backbone=dict(type='MixVisionTransformer'), decode_head=dict(type='SegformerHead', norm_cfg=dict(type='BN')))\n" +
			"train_dataloader = dict(batch_size=2, num_workers=4)\noptim_wrapper = dict(optimizer=dict(type='AdamW', lr=6e-5))\n" +
			"train_cfg = dict(type='IterBasedTrainLoop', max_iters=160000, val_interval=16000)\n", "sync_bn = 'torch'"},
		// a trainer flag that syncs every step, without the before-evaluation alternative
		{"lightning.yaml", "trainer:\n  accelerator: gpu\n  devices: 4\n  strategy: ddp\n  max_epochs: 50\nmodel:\n  class_path: models.SegmentationModel\n  init_args:\n    arch: resnet101\ndata:\n  class_path: datamodules.CityscapesDataModule\n  init_args:\n    batch_size: 2\n", "set trainer.sync_batchnorm: true"},
		// a backbone whose class builds batch norm by default (the dialect's own advice)
		{"implicit.py", "default_scope = 'mmpretrain'\nmodel = dict(type='ImageClassifier', backbone=dict(type='ResNet', depth=50))\n" +
			"train_dataloader = dict(batch_size=2, num_workers=4)\noptim_wrapper = dict(optimizer=dict(type='SGD', lr=0.01))\n" +
			"train_cfg = dict(type='IterBasedTrainLoop', max_iters=80000, val_interval=8000)\n", "builds batch norm when norm_cfg is not given"},
	} {
		var seen bool
		for _, d := range lintText(t, c.name, c.src, lint.Options{Hosts: 2, DevicesPerHost: 8}) {
			if d.Code == "TL505" {
				seen = true
				if strings.Contains(d.Help, "Hook") || strings.Contains(d.Help, "before each evaluation") || !strings.Contains(d.Help, c.want) {
					t.Errorf("%s: help %q", c.name, d.Help)
				}
			}
		}
		if !seen {
			t.Errorf("%s: no TL505", c.name)
		}
	}
}

// With the host count alone known, each host still has one device or more, each with
// statistics of its own: the message speaks of the devices, not the hosts.
func TestBNStatsMessageHostsOnly(t *testing.T) {
	src := "model = dict(type='ImageClassifier', neck=dict(type='GAP'), head=dict(type='LinearClsHead', norm_cfg=dict(type='BN')))\n" +
		"train_dataloader = dict(batch_size=32, num_workers=4)\noptim_wrapper = dict(optimizer=dict(type='SGD', lr=0.1))\n" +
		"train_cfg = dict(by_epoch=True, max_epochs=100)\n"
	var got []string
	for _, d := range lintText(t, "cls.py", src, lint.Options{Hosts: 2}) {
		if d.Code == "TL501" {
			got = append(got, d.Message)
		}
	}
	if len(got) != 1 || !strings.HasSuffix(got[0], "leaves each of the devices on 2 hosts with its own batch-norm statistics") {
		t.Errorf("TL501: %q", got)
	}
}
