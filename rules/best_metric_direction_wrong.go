package rules

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// BestMetricDirectionWrong reports a best-checkpoint metric ranked in the wrong direction: a
// loss ranked highest-first, an accuracy lowest-first. The metric's direction is read from its
// name with two word lists; a name on neither list (or on both) stays silent.
var BestMetricDirectionWrong = register(&bestMetricDirectionWrongDef)

var bestMetricDirectionWrongDef = lint.Rule{
	Code: "TL310", Name: "best-metric-direction-wrong", Category: lint.CatCheckpoints, Severity: lint.Error,
	Anchor:    "saving-checkpoints-and-retrospectively-selecting-the-best-checkpoint",
	Title:     "The best-checkpoint metric is ranked in the wrong direction",
	NeedsPlan: true,
	Rationale: `Selecting the best checkpoint (keeping the best N, reloading the best at the end) ranks
checkpoints by one metric in one direction. Ranked the wrong way, the selection keeps the worst
checkpoint and reports it as the best, with nothing in the logs to say so: a loss or error rate
must count lower as better, an accuracy, F1 or BLEU score higher as better. The playbook's
retrospective checkpoint selection relies on this ranking being right.

The direction either is written (greater_is_better, mode) or comes from a default that depends
on the framework: some trainers guess it from the metric's name (higher is better unless the
name ends in "loss", which gets an error rate or perplexity wrong), others assume lower is better
for any metric. trainlint reads the metric's name: names with loss, error, perplexity, WER, CER,
MSE or MAE are lower-is-better, names with accuracy, F1, BLEU, ROUGE, AUC, precision, recall,
IoU or exact match are higher-is-better; other names are not judged.`,
	Fix: `Rank losses, error rates and perplexity lower-is-better, and accuracies and scores
higher-is-better.`,
	FixList: fixList("ckpt.direction", ""),
	Check:   checkBestMetricDirection,
}

func checkBestMetricDirection(p *lint.Pass) {
	c := p.Plan.Ckpt
	m, dir := c.BestMetric, c.HigherIsBetter
	if !m.Known() || m.Value == "" || !dir.Known() {
		return
	}
	lowerBetter, ok := metricDirection(m.Value)
	if !ok || lowerBetter == !dir.Value {
		return
	}
	kind, want := "a loss or error", "lower"
	if !lowerBetter {
		kind, want = "a score", "higher"
	}
	got := "higher"
	if !dir.Value {
		got = "lower"
	}
	f := lint.Finding{Key: dir.Key}
	subject := keyOr(dir, "the ranking") + " " + written(dir, strconv.FormatBool(dir.Value))
	if dir.Origin == plan.Default {
		// The default's spelling differs by framework (true, "min"): the help's note says it.
		subject = keyOr(dir, "the ranking") + " is not set: " + defaultName(dir)
		if dir.Node != nil && dir.Node.IsScalar() && !dir.Node.IsNull() {
			subject = keyOr(dir, "the ranking") + " " + dir.Node.Value + " is not used: " + defaultName(dir)
		}
	}
	f.Message = subject + " ranks " + strconv.Quote(m.Value) + " " + got + "-is-better, but it is " + kind + " (" + want + " is better): the worst checkpoint counts as the best"
	place(&f, dir.Node, m.Node)
	f.Related = related(m.Node, f.Node, "metric named here")
	f.Help = "rank " + strconv.Quote(m.Value) + " " + want + "-is-better"
	if h := advice(p.Plan, "ckpt.direction", dir); h != "" {
		f.Help = h
	}
	if dir.IsExplicit() && dir.Node != nil && dir.Node.IsScalar() {
		if nv, ok := flipDirection(dir.Node.Value); ok {
			f.Fix = lint.ReplaceValue(dir.Node, nv, lint.Safe, "set "+keyOr(dir, "the direction")+" to "+nv)
			f.Help = "set " + keyOr(dir, "the direction") + " to " + nv + "; " + f.Help
		}
	}
	p.Report(f)
}

// flipDirection is the opposite spelling of a direction value as written (true/false, min/max).
func flipDirection(v string) (string, bool) {
	switch strings.ToLower(strings.Trim(v, `"'`)) {
	case "true":
		return "false", true
	case "false":
		return "true", true
	case "max":
		return "min", true
	case "min":
		return "max", true
	}
	return "", false
}

var (
	lowerBetterWords = map[string]bool{"loss": true, "error": true, "err": true, "perplexity": true, "ppl": true,
		"wer": true, "cer": true, "mse": true, "mae": true, "rmse": true, "nll": true, "fid": true}
	higherBetterWords = map[string]bool{"acc": true, "accuracy": true, "f1": true, "bleu": true, "sacrebleu": true,
		"rouge": true, "rouge1": true, "rouge2": true, "rougel": true, "rougelsum": true, "auc": true, "auroc": true,
		"auprc": true, "precision": true, "recall": true, "iou": true, "miou": true, "dice": true, "em": true,
		"exact": true, "top1": true, "top5": true, "chrf": true, "meteor": true, "mcc": true, "psnr": true, "ssim": true}
	negatingWords = map[string]bool{"neg": true, "negative": true, "inv": true, "inverse": true, "minus": true, "delta": true, "diff": true}
)

// metricDirection says whether a metric name reads as lower-is-better; ok is false when the
// name is on neither word list, on both, or negated.
func metricDirection(name string) (lowerBetter bool, ok bool) {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	lo, hi := false, false
	for _, w := range words {
		if negatingWords[w] {
			return false, false
		}
		lo = lo || lowerBetterWords[w]
		hi = hi || higherBetterWords[w]
	}
	if lo == hi {
		return false, false
	}
	return lo, true
}
