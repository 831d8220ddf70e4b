package rules

import (
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// MultiHostLoggingOnAllHosts reports metrics and log files written by every host of a
// multi-host run. Console verbosity (Hugging Face log_on_each_node) is only info, and only when
// the file sets it: it decides which processes print, not who writes metrics, and its default
// is true in every multi-node Trainer run, where a note on every file would be noise.
var MultiHostLoggingOnAllHosts = register(&lint.Rule{
	Code: "TL601", Name: "multi-host-logging-on-all-hosts", Category: lint.CatMultiHost, Severity: lint.Warning,
	Anchor:    "considerations-for-multi-host-pipelines",
	Title:     "Every host of a multi-host run writes metrics and logs",
	NeedsPlan: true,
	Rationale: `With several hosts, every host runs the same training script. If each one writes metrics and
log files, the tracker receives duplicated or conflicting points, files are overwritten or
interleaved, and it becomes unclear which numbers belong to the run. The playbook recommends
logging (and checkpointing) from a single host.

Lightning loggers, torchtune, T5X and big_vision already log from the first process only and are
never reported. trainlint needs to know the host count: from the file (` + "`trainer.num_nodes`" + `) or
from ` + "`--hosts`" + `; with an unknown host count the rule is silent.`,
	Fix: `Write metrics and log files from one host only.

- NeMo: ` + "`exp_manager.log_global_rank_0_only: true`" + ` (` + "`log_local_rank_0_only`" + ` still writes one file per node).
- torchtitan: ` + "`[metrics] save_for_all_ranks = false`" + `.
- Hugging Face: ` + "`log_on_each_node: false`" + ` limits console logs to the main process; trackers
  already log from it.
- In-house code: guard logging with ` + "`process_index == 0`" + ` (JAX) or ` + "`rank == 0`" + `.`,
	Frameworks: []string{fwNeMo, fwTorchtitan, fwHF, fwLlamaFac, fwGeneric},
	Check:      checkLoggingOnAllHosts,
})

func checkLoggingOnAllHosts(p *lint.Pass) {
	if _, ok := multiHost(p.Plan); !ok {
		return
	}
	lg := p.Plan.Logging
	if s := lg.Scope; s.Known() && (s.Value == plan.EveryHost || s.Value == plan.EveryRank) {
		f := lint.Finding{Key: s.Key, Help: "log from one host only: " + firstFixLine(p.Plan.Framework)}
		who := scopeWho(s.Value)
		what := "metrics and log files"
		if p.Plan.Framework == fwNeMo {
			// NeMo's switches only decide who writes nemo_log_*.txt; metrics go through Lightning
			// loggers, which write from global rank 0 anyway.
			what = "its own log file"
			if s.Value == plan.EveryHost {
				what = "a log file"
			}
		}
		if s.Origin == plan.Default {
			f.Message = keyOr(s, "the logging scope") + " is not set: with " + defaultName(s.Note) + " " + who + " writes " + what + " on " + hostsPhrase(p.Plan)
		} else {
			f.Message = keyOr(s, "logging scope") + " " + written(s, string(s.Value)) + " makes " + who + " write " + what + " on " + hostsPhrase(p.Plan)
		}
		place(&f, s.Node)
		p.Report(f)
		return
	}
	if c := lg.ConsoleScope; c.IsExplicit() && (c.Value == plan.EveryHost || c.Value == plan.EveryRank) {
		f := lint.Finding{
			Key:      c.Key,
			Severity: lint.Info,
			Message:  keyOr(c, "console logging") + " " + written(c, string(c.Value)) + " makes " + scopeWho(c.Value) + " print console logs on " + hostsPhrase(p.Plan),
			Help:     "set " + keyOr(c, "log_on_each_node") + " to false to keep one console log; metrics sent to trackers are not affected",
		}
		place(&f, c.Node)
		p.Report(f)
	}
}

func scopeWho(s plan.Scope) string {
	if s == plan.EveryRank {
		return "every process"
	}
	return "every host"
}

func firstFixLine(fw string) string {
	switch fw {
	case fwNeMo:
		return "set exp_manager.log_global_rank_0_only: true"
	case fwTorchtitan:
		return "set [metrics] save_for_all_ranks = false"
	}
	return "write metrics and logs only where the process or host index is 0"
}
