package lint

import (
	"path"

	"github.com/trainlint/trainlint/lint/compose"
)

// Group options no run reads. A file Hydra loads leaves the refusals of its values to the runs
// (another file of a run may set the value again after it: a primary's own values merge after
// its defaults), so an option only the command line selects (trainer=deepspeed) has its
// refusals reported by no run. For such a file whose own lint finds a refusal of a value, the
// first run whose defaults lists have an entry for its group is composed again with the option
// chosen (group=option, as the command line would), and the refusals that run makes in the
// file are reported: what Hydra would launch, the primary's later values included.

// OptionHost is what the driver keeps of a composed Hydra run for UnreadRefusals: its spec,
// its config directory and its defaults lists' entries (not the composed tree).
type OptionHost struct {
	Spec    compose.Spec
	dir     string
	entries func(string) bool
}

// HostOf is run's OptionHost; ok is false for a run that is no Hydra composition (a code
// config's, a Single run).
func HostOf(s compose.Spec, run *compose.Run) (OptionHost, bool) {
	if s.Single || compose.IsCodeConfig(s.Primary) || run == nil || run.Unlaunched {
		return OptionHost{}, false
	}
	return OptionHost{Spec: s, dir: path.Dir(s.Primary), entries: run.Entries()}, true
}

// unreadCandidate reports whether the option's own lint finds a refusal of a value, which a
// run choosing it may make.
func unreadCandidate(f string, text []byte, refusal []*Rule, o Options) bool {
	o.HydraLoaded, o.unread = true, true
	_, ds := LintFile(File{Path: f, Text: text}, refusal, o)
	return len(ds) > 0
}
