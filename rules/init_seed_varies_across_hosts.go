package rules

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// InitSeedVariesAcrossHosts reports a model-initialisation seed that differs from host to host.
// Frameworks that broadcast the initial parameters (DDP) or start from pretrained weights make
// that harmless, and the finding is then only info.
var InitSeedVariesAcrossHosts = register(&initSeedVariesAcrossHostsDef)

var initSeedVariesAcrossHostsDef = lint.Rule{
	Code: "TL603", Name: "init-seed-varies-across-hosts", Category: lint.CatMultiHost, Severity: lint.Error,
	Anchor:    "considerations-for-multi-host-pipelines",
	Title:     "The model-initialisation seed differs between hosts",
	NeedsPlan: true,
	Rationale: `In data-parallel training every replica must start from the same parameters. If each host seeds
its initialisation differently (a seed computed from the rank or process index, or no seed at
all where every process draws its own), the replicas start from different models; unless
something copies one replica's parameters to the others, gradients are averaged across models
that disagree and the run silently trains something other than intended. The playbook asks for
the same initialisation seed on every host (and a different data seed per host, see
` + "`data-seed-identical-across-hosts`" + `).

PyTorch DDP and Horovod broadcast the first process's parameters at start-up, and fine-tuning
starts from pretrained weights: in those cases the finding is info. With an unknown host count
the rule is silent.`,
	Fix:     `Use one initialisation seed on every host, and give seeds separate names by purpose.`,
	FixList: fixList("seeds.init", ""),
	Check:   checkInitSeedVaries,
}

func checkInitSeedVaries(p *lint.Pass) {
	if _, ok := multiHost(p.Plan); !ok {
		return
	}
	s := p.Plan.Seeds.Init
	if !s.Known() || s.Value.Varies != plan.VariesByHost {
		return
	}
	f := lint.Finding{Key: s.Key}
	why := ""
	if s.Value.Why != "" {
		why = " (" + s.Value.Why + ")"
	}
	switch {
	case s.Value.Value == "" && why != "":
		// The reason says how it varies (one seed drawn and broadcast, the rank added to it):
		// not that each process draws its own.
		f.Message = "no initialisation seed is set, and the one drawn differs from process to process on " + hostsPhrase(p.Plan) + why
	case s.Value.Value == "":
		f.Message = "no initialisation seed is set, so each process draws its own on " + hostsPhrase(p.Plan) + why
	default:
		f.Message = "initialisation seed " + strconv.Quote(s.Value.Value) + " differs from process to process on " + hostsPhrase(p.Plan) + why
	}
	f.Help = "use one literal seed for model initialisation on every host, and vary only the data seed per host"
	switch {
	case s.Value.Broadcast:
		f.Severity = lint.Info
		f.Message += "; harmless here: the first process's initial parameters are broadcast to all"
		f.Help = "nothing breaks, since initial parameters are broadcast; a constant init seed still makes runs reproducible"
		if d := p.Plan.Seeds.Data; d.Known() && d.Value.Varies == plan.VariesByHost && d.Node == s.Node {
			// The same seed also seeds the sampler: that is sampler-seed-varies-across-ranks.
			f.Help = "initial parameters are broadcast, so the init seed is harmless; the same seed also seeds the data sampler, which is not (sampler-seed-varies-across-ranks)"
		}
	case s.Value.Pretrained:
		f.Severity = lint.Info
		f.Message += "; the model starts from pretrained weights, so only newly initialised layers differ"
		f.Help = "a constant init seed keeps newly initialised layers (heads, adapters) identical on every host"
		if _, err := strconv.Atoi(strings.TrimSpace(s.Value.Value)); err == nil && s.IsExplicit() {
			// The file already holds one literal seed: the framework's seeding function adds the
			// rank itself, so "use a constant seed" would not help.
			f.Help = "the framework adds the rank to this seed itself, so the file cannot make it constant; make sure newly initialised layers (heads, adapters) are broadcast from one process or loaded from a checkpoint"
		}
	}
	place(&f, s.Node)
	p.Report(f)
}
