package main

import (
	"strings"

	"github.com/trainlint/trainlint/lint"
)

// catalogue is every rule of trainlint's published catalogue (the design's rules.md), by code
// and name: the stable identifiers, including rules not implemented yet. It lets explain and
// --select tell "planned, not implemented yet" from a typo. A test holds it to the
// implemented rules (same code, same name); a rule implemented later needs no change here.
var catalogue = []struct{ Code, Name string }{
	{"TL001", "parse-error"},
	{"TL002", "duplicate-key"},
	{"TL003", "unknown-key"},
	{"TL004", "invalid-value"},
	{"TL005", "deprecated-key"},
	{"TL006", "unresolved-reference"},
	{"TL007", "malformed-suppression"},
	{"TL008", "unused-suppression"},
	{"TL009", "internal-error"},
	{"TL010", "input-limit-exceeded"},
	{"TL011", "rejected-at-startup"},
	{"TL101", "input-no-prefetch"},
	{"TL102", "input-single-worker"},
	{"TL103", "input-unused-features-kept"},
	{"TL104", "input-data-not-colocated"},
	{"TL105", "input-host-sync-every-step"},
	{"TL106", "input-online-preprocessing"},
	{"TL107", "streaming-without-max-steps"},
	{"TL201", "eval-interval-time-based"},
	{"TL202", "eval-batch-smaller-than-train"},
	{"TL203", "eval-partial-batch-dropped"},
	{"TL204", "periodic-eval-disabled"},
	{"TL205", "eval-subsample-unchecked"},
	{"TL206", "eval-sample-too-small"},
	{"TL207", "eval-predictions-not-saved"},
	{"TL208", "train-eval-data-overlap"},
	{"TL209", "eval-batch-much-larger-than-train"},
	{"TL210", "eval-without-eval-data"},
	{"TL301", "checkpoint-keeps-latest-not-best"},
	{"TL302", "checkpoint-best-metric-missing"},
	{"TL303", "checkpoint-not-aligned-with-eval"},
	{"TL304", "checkpointing-disabled"},
	{"TL305", "early-stopping-enabled"},
	{"TL306", "training-length-time-based"},
	{"TL307", "checkpoint-interval-time-based"},
	{"TL308", "checkpoint-too-sparse"},
	{"TL309", "final-step-not-saved-or-evaluated"},
	{"TL310", "best-metric-direction-wrong"},
	{"TL401", "experiment-tracking-missing"},
	{"TL402", "experiment-metadata-incomplete"},
	{"TL501", "bn-stats-not-synced"},
	{"TL502", "ghost-bn-per-device-exceeds-virtual"},
	{"TL503", "bn-stat-batch-large"},
	{"TL504", "bn-consider-layernorm"},
	{"TL505", "bn-per-device-batch-too-small"},
	{"TL601", "multi-host-logging-on-all-hosts"},
	{"TL602", "multi-host-checkpoint-on-all-hosts"},
	{"TL603", "init-seed-varies-across-hosts"},
	{"TL604", "data-seed-identical-across-hosts"},
	{"TL605", "seeds-not-separated-by-purpose"},
	{"TL606", "multi-host-data-not-sharded"},
	{"TL607", "seed-not-set"},
	{"TL608", "sampler-seed-varies-across-ranks"},
	{"TL701", "batch-size-inconsistent"},
	{"TL702", "warmup-too-long"},
	{"TL703", "train-steps-in-search-space"},
	{"TL704", "batch-size-in-search-space"},
	{"TL705", "gradient-accumulation-used"},
	{"TL706", "precision-settings-conflict"},
}

// plannedRule returns the catalogue entry that s names (a code in any case, or a name) when no
// implemented rule has it: "TL703 train-steps-in-search-space". ok is false for anything else.
func plannedRule(rs []*lint.Rule, s string) (codeName string, ok bool) {
	s = strings.TrimSpace(s)
	for _, e := range catalogue {
		if !strings.EqualFold(e.Code, s) && e.Name != s {
			continue
		}
		for _, r := range rs {
			if r.Code == e.Code {
				return "", false
			}
		}
		return e.Code + " " + e.Name, true
	}
	return "", false
}
