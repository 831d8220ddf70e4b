package rules

import (
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// MultiHostLoggingOnAllHosts reports metrics and log files written by every host of a
// multi-host run. Console verbosity (plan.Logging.ConsoleScope) is only info, and only when
// the file sets it: it decides which processes print, not who writes metrics, and its default
// is true in every multi-node Trainer run, where a note on every file would be noise.
var MultiHostLoggingOnAllHosts = register(&multiHostLoggingOnAllHostsDef)

var multiHostLoggingOnAllHostsDef = lint.Rule{
	Code: "TL601", Name: "multi-host-logging-on-all-hosts", Category: lint.CatMultiHost, Severity: lint.Warning,
	Anchor:    "considerations-for-multi-host-pipelines",
	Title:     "Every host of a multi-host run writes metrics and logs",
	NeedsPlan: true,
	Rationale: `With several hosts, every host runs the same training script. If each one writes metrics and
log files, the tracker receives duplicated or conflicting points, files are overwritten or
interleaved, and it becomes unclear which numbers belong to the run. The playbook recommends
logging (and checkpointing) from a single host.

Frameworks whose loggers already write from the first process only are never reported.
trainlint needs to know the host count: from the file (a node count) or from ` + "`--hosts`" + `;
with an unknown host count the rule is silent.`,
	Fix:     `Write metrics and log files from one host only.`,
	FixList: fixList("logging.scope", ""),
	Check:   checkLoggingOnAllHosts,
}

func checkLoggingOnAllHosts(p *lint.Pass) {
	if _, ok := multiHost(p.Plan); !ok {
		return
	}
	lg := p.Plan.Logging
	if s := lg.Scope; s.Known() && (s.Value == plan.EveryHost || s.Value == plan.EveryRank) {
		f := lint.Finding{Key: s.Key, Help: advice(p.Plan, "logging.scope", s)}
		if f.Help == "" {
			f.Help = "log from one host only: write metrics and logs only where the process or host index is 0"
		}
		who := scopeWho(s.Value)
		what := "metrics and log files"
		if lg.TextLogsOnly {
			// The switch only decides who writes text log files; metrics go through loggers that
			// write from global rank 0 anyway.
			what = "its own log file"
			if s.Value == plan.EveryHost {
				what = "a log file"
			}
		}
		if s.Origin == plan.Default {
			f.Message = keyOr(s, "the logging scope") + " is not set: with " + defaultName(s) + " " + who + " writes " + what + " on " + hostsPhrase(p.Plan)
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
			Help:     "set " + keyOr(c, "the console-log switch") + " to false to keep one console log; metrics sent to trackers are not affected",
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
