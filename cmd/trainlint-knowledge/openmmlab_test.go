package main

import (
	"strings"
	"testing"
)

// TestOpenMMLabTableUpToDate fails when lint/dialect/knowledge_openmmlab.tsv is not what the
// committed extractions render to, and checks facts read in the projects' source.
func TestOpenMMLabTableUpToDate(t *testing.T) {
	table := renderedUpToDate(t, openmmlabFiles, openmmlabOut)
	tableHas(t, table,
		// mmpretrain v1.2.0 models/backbones/resnet.py: ResNet.__init__.
		"mmpretrain\tResNet\tnorm_cfg\tdict(type='BN', requires_grad=True)\t\t\t\tmmpretrain/models/backbones/resnet.py:491@v1.2.0\n",
		"mmpretrain\tResNet\tnorm_eval\tFalse\t\t\t\tmmpretrain/models/backbones/resnet.py:492@v1.2.0\n",
		// ResNetV1c declares neither: it passes **kwargs on to ResNet.
		"mmpretrain\tResNetV1c\tnorm_eval\tFalse\t\t\t\tmmpretrain/models/backbones/resnet.py:492@v1.2.0\n",
		// MMPose 0.x's ResNet, at every minor release from v0.6.0 to v0.29.0.
		"mmpose0\tResNet\tnorm_eval\tFalse\t\t\t\tmmpose/models/backbones/resnet.py:",
		// mmpose's pose-lifting TCN normalises over time (BN1d).
		"mmpose\tTCN\tnorm_cfg\tdict(type='BN1d')\t",
	)
	// A transformer backbone normalises with layer norm.
	if !strings.Contains(table, "mmpretrain\tVisionTransformer\tnorm_cfg\tdict(type='LN', eps=1e-6)\t") {
		t.Error("VisionTransformer's norm_cfg is not layer norm")
	}
}
