package rules

import (
	"strconv"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// DataSeedIdenticalAcrossHosts reports per-host input streams shuffled with the same seed on
// every host. Never for global-index samplers (DistributedSampler and kin), where the seed must
// be identical on every rank for the shards to be disjoint.
var DataSeedIdenticalAcrossHosts = register(&dataSeedIdenticalAcrossHostsDef)

var dataSeedIdenticalAcrossHostsDef = lint.Rule{
	Code: "TL604", Name: "data-seed-identical-across-hosts", Category: lint.CatMultiHost, Severity: lint.Error,
	Anchor:    "considerations-for-multi-host-pipelines",
	Title:     "Every host shuffles its own input stream with the same seed",
	NeedsPlan: true,
	Rationale: `When each host builds its own input pipeline (tf.data or grain style, or per-host file shards)
and shuffles or augments it, the host's seed decides which examples it sees and in which order.
With the same seed on every host and nothing that offsets it by host, hosts draw the same
shuffle order and the same augmentations: the global batch holds repeated examples, and the run
effectively trains on less data than it thinks. The playbook asks for data seeds that differ
between hosts (while the initialisation seed stays the same).

This is never reported for global-index samplers (PyTorch's ` + "`DistributedSampler`" + ` and the
samplers built on it): there every rank permutes one shared index list, so the seed must be
identical on every rank.`,
	Fix: `Offset the data seed by host for per-host pipelines, e.g. ` + "`seed + jax.process_index()`" + `, or
shard the input with a global-index sampler (which needs the same seed everywhere). Keep the
model-initialisation seed identical on every host.`,
	Check: checkDataSeedIdentical,
}

func checkDataSeedIdentical(p *lint.Pass) {
	if _, ok := multiHost(p.Plan); !ok {
		return
	}
	d, s := p.Plan.Data.Sharding, p.Plan.Seeds.Data
	if !d.Known() || d.Value != plan.PerHostStream || !s.Known() || s.Value.Varies != plan.SameOnEveryHost {
		return
	}
	seed := s.Value.Value
	what := "data seed " + strconv.Quote(seed)
	if seed == "" {
		what = "the data seed"
	}
	f := lint.Finding{
		Key:     s.Key,
		Message: what + " is the same on every host, and each of the " + hostsPhrase(p.Plan) + " shuffles its own input stream",
		Help:    "offset the data seed by host (e.g. seed + process_index) so hosts draw different examples; keep the init seed identical",
	}
	place(&f, s.Node, d.Node)
	f.Related = related(d.Node, f.Node, "per-host input stream set up here")
	p.Report(f)
}
