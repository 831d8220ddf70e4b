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
