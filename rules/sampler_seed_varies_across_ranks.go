package rules

import (
	"strconv"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// SamplerSeedVariesAcrossRanks reports a global-index sampler seeded differently on every rank.
var SamplerSeedVariesAcrossRanks = register(&samplerSeedVariesAcrossRanksDef)

var samplerSeedVariesAcrossRanksDef = lint.Rule{
	Code: "TL608", Name: "sampler-seed-varies-across-ranks", Category: lint.CatMultiHost, Severity: lint.Error,
	Anchor:    "considerations-for-multi-host-pipelines",
	Title:     "A global-index sampler gets a different seed on every rank",
	NeedsPlan: true,
	Rationale: `A distributed sampler of the global-index kind (PyTorch's DistributedSampler and the samplers
built like it) shards the data by having every rank shuffle the same list of indices with the same
seed and keep its own slice. That only partitions the data when the permutation is identical
everywhere. Seed it from the rank and each rank shuffles differently: the slices overlap, some
examples are seen several times per epoch and others never, and nothing fails or warns.

The playbook's multi-host advice is to be deliberate about which seeds are shared and which are
per host. A per-rank seed is right for per-host input streams and for dropout or augmentation; for
the sampler's permutation it must be one value. Samplers that synchronise their seed across ranks
themselves are not reported. Adapted from the Deep Learning Tuning Playbook (Godbole, Dahl,
Gilmer, Shallue, Nado; CC BY 4.0); no endorsement implied.

The rule needs to know that more than one process trains: a host or device count in the file, or
` + "`--hosts`/`--devices-per-host`" + `.`,
	Fix:     `Seed the sampler with one literal value on every rank; vary per-rank randomness elsewhere.`,
	FixList: fixList("seeds.sampler", ""),
	Check:   checkSamplerSeedVaries,
}

func checkSamplerSeedVaries(p *lint.Pass) {
	sh, s := p.Plan.Data.Sharding, p.Plan.Seeds.Data
	if !sh.Known() || sh.Value != plan.GlobalIndexSampler || !s.Known() || s.Value.Varies != plan.VariesByHost || s.Node == nil {
		return
	}
	if _, ok := deviceCount(p.Plan.Topology); !ok {
		return // one process, or a device count nobody stated (--hosts, --devices-per-host)
	}
	msg := "sampler seed " + strconv.Quote(s.Value.Value) + " differs from rank to rank"
	if s.Note != "" {
		msg += " (" + s.Note + ")"
	}
	f := lint.Finding{Key: s.Key, Message: msg, Help: advice(p.Plan, "seeds.sampler", s)}
	if f.Help == "" {
		f.Help = "use one literal seed on every rank: each rank shuffles the same index list and keeps its own slice, so differing seeds make the slices overlap"
	}
	if s.Value.Why != "" {
		f.Help = s.Value.Why + "; " + f.Help
	}
	place(&f, s.Node)
	p.Report(f)
}
