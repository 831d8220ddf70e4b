//go:build !trainlint_lite

package lint_test

import (
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/rules"
)

// TestFileNamingBasesLeavesDefaults: a YAML file that names base files its loader merges under
// it (dual_cervix_registration's run files list `__base__: [../default_runtime.yaml]`, whose
// trainer callbacks hold a ModelCheckpoint monitoring val/loss) is part of a run: no finding
// rests on what a framework default gives for a key it lacks (the Trainer's own unmonitored
// ModelCheckpoint), while what it sets is still judged. The same file without the base key, or
// with one naming no config file, gets the default's finding.
func TestFileNamingBasesLeavesDefaults(t *testing.T) {
	const body = "trainer:\n  max_epochs: 10\n  limit_val_batches: 1.0\nmodel:\n  class_path: m.Model\n  init_args:\n    lr: 0.001\n"
	for head, want := range map[string]int{
		"__base__:\n  - ../default_runtime.yaml\n": 0,
		"_BASE_: ../Base.yaml\n":                   0,
		"":                                         1,
		"__base__: a note\n":                       1,
	} {
		_, diags := lint.LintFile(lint.File{Path: "configs/runs/run.yaml", Text: []byte(head + body)}, rules.All(),
			lint.Options{Select: []string{"TL301"}, Framework: "lightning"})
		if len(diags) != want {
			t.Errorf("%q: %d TL301, want %d: %+v", head, len(diags), want, diags)
		}
	}
}

// TestBaseKeysNarrowDefaults: where the CLI read the bases (Options.BaseKeys), only the defaults
// they may set go: a base that sets the trainer (a monitored ModelCheckpoint among its
// callbacks) takes the Trainer's own checkpoint default with it; a base that sets only the data
// and the seed leaves it, and the file gets the finding.
func TestBaseKeysNarrowDefaults(t *testing.T) {
	const src = "__base__:\n  - ../default_runtime.yaml\ntrainer:\n  max_epochs: 10\nmodel:\n  class_path: m.Model\n"
	for _, tc := range []struct {
		keys map[string]bool
		want int
	}{
		{map[string]bool{"trainer": true}, 0},
		{map[string]bool{"seed_everything": true, "data": true}, 1},
		{nil, 0},
	} {
		_, diags := lint.LintFile(lint.File{Path: "configs/runs/run.yaml", Text: []byte(src)}, rules.All(),
			lint.Options{Select: []string{"TL301"}, Framework: "lightning", BaseKeys: tc.keys})
		if len(diags) != tc.want {
			t.Errorf("bases setting %v: %d TL301, want %d: %+v", tc.keys, len(diags), tc.want, diags)
		}
	}
}
