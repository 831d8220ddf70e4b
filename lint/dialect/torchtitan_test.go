package dialect

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/plan"
)

// torchtitan's trackers (job_config.py Metrics, v0.2.1: enable_tensorboard and enable_wandb,
// both false by default): switched off in the file is a setting, not the default; a switch the
// reader cannot know leaves the trackers unknown; left out, the default holds.
func TestTorchtitanTrackers(t *testing.T) {
	const job = "[job]\ndump_folder = \"outputs\"\n[training]\nlocal_batch_size = 1\nsteps = 10\n[model]\nname = \"llama3\"\n"
	for _, c := range []struct {
		metrics string
		origin  plan.Origin
		known   bool
		key     string
		n       int
	}{
		{"[metrics]\nenable_tensorboard = false\nenable_wandb = false\n", plan.Explicit, true, "metrics.enable_wandb", 0},
		{"[metrics]\nlog_freq = 10\n", plan.Default, true, "metrics.enable_wandb", 0},
		{"[metrics]\nenable_wandb = \"${WANDB}\"\n", plan.Default, false, "", 0},
		{"[metrics]\nenable_tensorboard = true\nenable_wandb = false\n", plan.Explicit, true, "metrics.enable_tensorboard", 1},
	} {
		_, p := parseText(t, "train_configs/t.toml", job+c.metrics)
		if p.Framework != "torchtitan" {
			t.Fatalf("%q: %s", c.metrics, p.Framework)
		}
		tr := p.Tracking.Trackers
		if tr.Known() != c.known || c.known && (tr.Origin != c.origin || tr.Key != c.key || len(tr.Value) != c.n) {
			t.Errorf("%q: trackers %+v", strings.ReplaceAll(c.metrics, "\n", " "), tr)
		}
	}
}
