package rules

import (
	"strconv"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// CheckpointBestMetricMissing reports keep-best checkpointing that ranks by a training metric
// (a name with the word "train"), so "best" means best on the training data. A metric that is
// missing altogether is the retention rule's concern (keep-latest without a monitor) and is not
// reported here.
var CheckpointBestMetricMissing = register(&checkpointBestMetricMissingDef)

var checkpointBestMetricMissingDef = lint.Rule{
	Code: "TL302", Name: "checkpoint-best-metric-missing", Category: lint.CatCheckpoints, Severity: lint.Warning,
	Anchor:    "saving-checkpoints-and-retrospectively-selecting-the-best-checkpoint",
	Title:     "The best checkpoint is chosen by a training metric",
	NeedsPlan: true,
	Rationale: `Keeping the best checkpoints only helps when "best" is measured on held-out data. Ranked by a
training metric, the kept checkpoint is the one that fits the training set best, usually the
latest, over-fitted one, which is what keep-best was meant to avoid. The playbook selects the
best checkpoint retrospectively by the validation metric.

trainlint reports a best-checkpoint metric whose name says it is a training metric (train_loss,
train/acc). A metric name without that word is not judged.`,
	Fix:   `Rank checkpoints by a validation metric (val_loss, eval_loss, an eval accuracy).`,
	Check: checkCheckpointBestMetric,
}

func checkCheckpointBestMetric(p *lint.Pass) {
	c := p.Plan.Ckpt
	r, m := c.Retention, c.BestMetric
	if !r.Known() || r.Value.Kind != plan.KeepBest || !m.Known() || m.Value == "" || !plan.TrainMetric(m.Value) {
		return
	}
	f := lint.Finding{Key: m.Key}
	f.Message = keyOr(m, "the best-checkpoint metric") + " " + strconv.Quote(m.Value) + " is a training metric, so the kept \"best\" checkpoint is the one that fits the training data best"
	place(&f, m.Node, r.Node)
	f.Help = "rank checkpoints by a metric computed on held-out data (e.g. a validation loss)"
	p.Report(f)
}
