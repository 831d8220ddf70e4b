package dialect

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// TestMMEngineBackboneDefaults: a backbone that writes no norm_cfg builds what its class's
// default says (knowledge_openmmlab.tsv, read in mmpretrain's and mmpose's source), in the project
// the config's default_scope or the type's own scope names; a written norm_cfg is frozen or not
// by the same project's norm_eval default. Projects not read (mmdet) keep MMDetection's frozen
// ResNet family and give no implicit batch norm.
func TestMMEngineBackboneDefaults(t *testing.T) {
	for _, c := range []struct {
		name, src string
		present   bool
		sync      plan.BNSync
		key       string // the sync fact's key
	}{
		{"mmpretrain ResNet", "default_scope = 'mmpretrain'\nmodel = dict(backbone=dict(type='ResNet', depth=50))\n", true, plan.BNSyncNone, "model.backbone.type"},
		{"scoped in the type", "model = dict(backbone=dict(type='mmpretrain.ResNetV1c', depth=50))\n", true, plan.BNSyncNone, "model.backbone.type"},
		{"new-style import", "from mmpose.models import HRNet\nmodel = dict(backbone=dict(type=HRNet))\n", true, plan.BNSyncNone, "model.backbone.type"},
		{"norm_eval written", "default_scope = 'mmpretrain'\nmodel = dict(backbone=dict(type='ResNet', norm_eval=True))\n", false, "", ""},
		{"no norm_eval default read", "default_scope = 'mmpretrain'\nmodel = dict(backbone=dict(type='ConvMixer'))\n", false, "", ""},
		{"all stages frozen", "default_scope = 'mmpretrain'\nmodel = dict(backbone=dict(type='ResNet', frozen_stages=4))\n", false, "", ""},
		{"a transformer", "default_scope = 'mmpretrain'\nmodel = dict(backbone=dict(type='VisionTransformer'))\n", false, "", ""},
		{"batch norm over time", "default_scope = 'mmpose'\nmodel = dict(backbone=dict(type='TCN', in_channels=34))\n", false, "", ""},
		{"project not read", "default_scope = 'mmdet'\nmodel = dict(backbone=dict(type='ResNet', depth=50))\n", false, "", ""},
		{"no scope", "model = dict(backbone=dict(type='ResNet', depth=50))\n", false, "", ""},
		{"explicit BN, mmpretrain", "default_scope = 'mmpretrain'\nmodel = dict(backbone=dict(type='ResNet', norm_cfg=dict(type='BN')))\n", true, plan.BNSyncNone, "model.backbone.norm_cfg.type"},
		{"explicit BN, mmdet", "default_scope = 'mmdet'\nmodel = dict(backbone=dict(type='ResNet', norm_cfg=dict(type='BN')))\n", false, "", ""},
		// MMSelfSup v1.0.0's ResNet trains its batch norm (norm_eval False), unlike MMDetection's
		{"explicit BN, mmselfsup", "default_scope = 'mmselfsup'\nmodel = dict(type='MoCo', backbone=dict(type='ResNet', depth=50, norm_cfg=dict(type='BN')))\n", true, plan.BNSyncNone, "model.backbone.norm_cfg.type"},
		{"MMSelfSup's ResNet", "default_scope = 'mmselfsup'\nmodel = dict(type='BYOL', backbone=dict(type='ResNet', depth=50))\n", true, plan.BNSyncNone, "model.backbone.type"},
		{"MMSelfSup's MAE ViT", "default_scope = 'mmselfsup'\nmodel = dict(type='MAE', backbone=dict(type='MAEViT', arch='b'))\n", false, "", ""},
		{"MMAction2's 2D ResNet", "default_scope = 'mmaction'\nmodel = dict(type='Recognizer2D', backbone=dict(type='ResNet', depth=50, norm_eval=False))\n", true, plan.BNSyncNone, "model.backbone.type"},
		{"MMAction2's 3D ResNet (BN3d)", "default_scope = 'mmaction'\nmodel = dict(type='Recognizer3D', backbone=dict(type='ResNet3d', depth=50))\n", false, "", ""},
		{"implicit SyncBN by sync_bn", "default_scope = 'mmpretrain'\nsync_bn = 'torch'\nmodel = dict(backbone=dict(type='ResNet'))\n", true, plan.BNSyncPerStep, "sync_bn"},
	} {
		_, p := parseText(t, "a.py", c.src+"train_dataloader = dict(batch_size=32, num_workers=4)\n")
		if p.Framework != "mmengine" {
			t.Fatalf("%s: framework %q", c.name, p.Framework)
		}
		if got := p.BN.Present.Known() && p.BN.Present.Value; got != c.present {
			t.Errorf("%s: batch norm present %v, want %v (%+v)", c.name, got, c.present, p.BN.Present)
			continue
		}
		if c.present && (p.BN.Sync.Value != c.sync || p.BN.Sync.Key != c.key) {
			t.Errorf("%s: sync %q at %q, want %q at %q", c.name, p.BN.Sync.Value, p.BN.Sync.Key, c.sync, c.key)
		}
	}
	_, p := parseText(t, "a.py", "default_scope = 'mmpretrain'\nmodel = dict(backbone=dict(type='ResNet', depth=50))\n")
	if h := p.Advice["bn.sync"]; !strings.HasPrefix(h, "MMPretrain's ResNet builds batch norm when norm_cfg is not given (mmpretrain/models/backbones/resnet.py:491@v1.2.0)") {
		t.Errorf("advice %q", h)
	}
}

// TestMMNormType reads a norm_cfg default as the source writes it.
func TestMMNormType(t *testing.T) {
	for def, want := range map[string]string{
		"dict(type='BN', requires_grad=True)": "BN",
		`dict(type="SyncBN")`:                 "SyncBN",
		"None":                                "",
		"dict(type='LN', eps=1e-6)":           "LN",
		"norm_cfg":                            "?",
		"dict(type=BN)":                       "?",
		"dict(type='BN":                       "?",
		"dict(type=":                          "?",
	} {
		got, ok := mmNormType(def)
		if !ok {
			got = "?"
		}
		if got != want {
			t.Errorf("%q: %q, want %q", def, got, want)
		}
	}
}

// TestMMEngineNormEvalUnknown: a norm_eval this reader cannot know (a name it does not follow)
// leaves the layer uncounted, whatever the class's default.
func TestMMEngineNormEvalUnknown(t *testing.T) {
	for _, scope := range []string{"mmpretrain", "mmdet"} {
		src := "import os\ndefault_scope = '" + scope + "'\nmodel = dict(backbone=dict(type='ResNet', norm_eval=os.environ['X'], norm_cfg=dict(type='BN')))\ntrain_dataloader = dict(batch_size=32, num_workers=4)\n"
		if _, p := parseText(t, "a.py", src); p.BN.Present.Known() {
			t.Errorf("%s: batch norm %+v", scope, p.BN.Present)
		}
	}
}

// TestMMActionBatchIsFrames: batch norm in an MMAction2 recognizer normalises over the frames
// of the device's clips, so the per-device batch does not say how many examples it sees.
func TestMMActionBatchIsFrames(t *testing.T) {
	_, p := parseText(t, "a.py", "default_scope = 'mmaction'\nmodel = dict(type='Recognizer2D', backbone=dict(type='ResNetTSM', depth=50))\ntrain_dataloader = dict(batch_size=1, num_workers=4)\n")
	if !p.BN.Present.Known() || p.BN.OtherBatch != mmVideoBatch {
		t.Errorf("bn %+v other batch %q", p.BN.Present, p.BN.OtherBatch)
	}
	_, p = parseText(t, "a.py", "default_scope = 'mmpretrain'\nmodel = dict(backbone=dict(type='ResNet'))\ntrain_dataloader = dict(batch_size=1, num_workers=4)\n")
	if !p.BN.Present.Known() || p.BN.OtherBatch != "" {
		t.Errorf("mmpretrain: bn %+v other batch %q", p.BN.Present, p.BN.OtherBatch)
	}
}

// TestMMEngineSyncHookImported: a new-style config names its hooks by imported class
// (mmpose's default_runtime: dict(type=SyncBuffersHook)); the statistics are then averaged
// before use. A hook whose class the reader cannot know leaves the synchronisation unknown.
func TestMMEngineSyncHookImported(t *testing.T) {
	const model = "model = dict(backbone=dict(type='ResNet', norm_cfg=dict(type='BN'), norm_eval=False))\ntrain_dataloader = dict(batch_size=32, num_workers=4)\n"
	_, p := parseText(t, "a.py", "from mmengine.hooks import SyncBuffersHook\ncustom_hooks = [dict(type=SyncBuffersHook)]\n"+model)
	if p.BN.Sync.Value != plan.BNSyncBeforeUse {
		t.Errorf("imported SyncBuffersHook: sync %+v", p.BN.Sync)
	}
	_, p = parseText(t, "a.py", "import os\ncustom_hooks = [dict(type=os.environ['HOOK'])]\n"+model)
	if p.BN.Sync.Known() {
		t.Errorf("an unknown hook: sync %+v", p.BN.Sync)
	}
	_, p = parseText(t, "a.py", "custom_hooks = [dict(type='EMAHook')]\n"+model)
	if p.BN.Sync.Value != plan.BNSyncNone {
		t.Errorf("another hook: sync %+v", p.BN.Sync)
	}
}

// TestMMEngineNormClassImported: a new-style config names its norm layer by the class it
// imports (`type=BatchNorm2d`); MMCV's build_norm_layer takes a class as it is, so torch.nn's
// batch norms are batch norm and its SyncBatchNorm is synchronised. A class from elsewhere is
// not known.
func TestMMEngineNormClassImported(t *testing.T) {
	const rest = "train_dataloader = dict(batch_size=8, num_workers=4)\n"
	for _, c := range []struct {
		src     string
		present bool
		sync    plan.BNSync
	}{
		{"from torch.nn import BatchNorm2d\nmodel = dict(neck=dict(type='FPN', norm_cfg=dict(type=BatchNorm2d)))\n", true, plan.BNSyncNone},
		{"import torch.nn as nn\nmodel = dict(neck=dict(type='FPN', norm_cfg=dict(type=nn.BatchNorm1d)))\n", true, plan.BNSyncNone},
		{"from torch.nn import SyncBatchNorm\nmodel = dict(neck=dict(type='FPN', norm_cfg=dict(type=SyncBatchNorm)))\n", true, plan.BNSyncPerStep},
		{"from torch.nn.modules.batchnorm import BatchNorm3d\nmodel = dict(neck=dict(type='FPN', norm_cfg=dict(type=BatchNorm3d)))\n", true, plan.BNSyncNone},
		{"from mine import BatchNorm2d\nmodel = dict(neck=dict(type='FPN', norm_cfg=dict(type=BatchNorm2d)))\n", false, ""},
		{"from torch.nn import GroupNorm\nmodel = dict(neck=dict(type='FPN', norm_cfg=dict(type=GroupNorm, num_groups=32)))\n", false, ""},
		// MMDetection's ResNeXt, imported, keeps its batch norm in eval mode (norm_eval=True)
		// unless told otherwise; a class of that name from elsewhere counts, as any owner does
		{"from torch.nn import BatchNorm2d\nfrom mmdet.models import ResNeXt\nmodel = dict(backbone=dict(type=ResNeXt, depth=101, norm_cfg=dict(type=BatchNorm2d, requires_grad=True)))\n", false, ""},
		{"from torch.nn import BatchNorm2d\nfrom mmdet.models import ResNeXt\nmodel = dict(backbone=dict(type=ResNeXt, depth=101, norm_cfg=dict(type=BatchNorm2d), norm_eval=False))\n", true, plan.BNSyncNone},
		{"from torch.nn import BatchNorm2d\nfrom mine.models import ResNeXt\nmodel = dict(backbone=dict(type=ResNeXt, depth=101, norm_cfg=dict(type=BatchNorm2d)))\n", true, plan.BNSyncNone},
	} {
		_, p := parseText(t, "a.py", c.src+rest)
		if p.BN.Present.Known() != c.present || c.present && (p.BN.Sync.Value != c.sync || !strings.HasSuffix(p.BN.Sync.Key, ".norm_cfg.type")) {
			t.Errorf("%q: present %+v sync %+v", c.src, p.BN.Present, p.BN.Sync)
		}
	}
}

// TestMMCV1PoseBackboneDefaults: an MMCV 1.x config has no default_scope; when the repository's
// train script calls MMPose 0.x's train_model, its backbones' defaults (mmpose0 in the table,
// every minor release from v0.6.0) say that HRNet builds and trains batch norm, and the help
// names MMCV 1.x's SyncBuffersHook, not MMEngine's sync_bn. Another trainer, or none, knows
// nothing of the class, nor does a config whose model is not MMPose's (no keypoint_head).
func TestMMCV1PoseBackboneDefaults(t *testing.T) {
	src := "log_config = dict(interval=50)\nrunner = dict(type='EpochBasedRunner', max_epochs=210)\nevaluation = dict(interval=10, broadcast_bn_buffer=False)\nmodel = dict(type='TopDown', backbone=dict(type='HRNet', in_channels=3), keypoint_head=dict(type='TopdownHeatmapSimpleHead'))\ndata = dict(samples_per_gpu=32, workers_per_gpu=2)\n"
	d := doc.Parse("a.py", []byte(src), doc.Python, doc.Limits{})
	p := Detect(d).Normalize(d, Context{Trainer: Trainer{Name: mmposeTrainer, Source: "tools/train.py"}})
	if !p.BN.Present.Known() || p.BN.Sync.Value != plan.BNSyncNone || p.BN.Sync.Key != "model.backbone.type" {
		t.Fatalf("bn %+v sync %+v", p.BN.Present, p.BN.Sync)
	}
	if h := p.Advice["bn.sync"]; !strings.HasPrefix(h, "MMPose 0.x's HRNet builds batch norm when norm_cfg is not given (mmpose/models/backbones/hrnet.py:") ||
		!strings.Contains(h, "SyncBuffersHook") || strings.Contains(h, "sync_bn = 'torch'") {
		t.Errorf("advice %q", h)
	}
	for _, tr := range []Trainer{{}, {Name: "mmdet.apis.train_detector"}} {
		if p := Detect(d).Normalize(d, Context{Trainer: tr}); p.BN.Present.Known() {
			t.Errorf("trainer %q: bn %+v", tr.Name, p.BN.Present)
		}
	}
	// A detector config in the same repository (no keypoint_head): not MMPose's model.
	det := doc.Parse("a.py", []byte("log_config = dict(interval=50)\nmodel = dict(type='CascadeRCNN', backbone=dict(type='ResNeXt', norm_cfg=dict(type='BN')))\n"), doc.Python, doc.Limits{})
	if p := Detect(det).Normalize(det, Context{Trainer: Trainer{Name: mmposeTrainer}}); p.BN.Present.Known() {
		t.Errorf("a detector read as MMPose's: bn %+v", p.BN.Present)
	}
}
