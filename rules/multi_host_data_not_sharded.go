package rules

import (
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// MultiHostDataNotSharded reports input that is not split between the processes that train.
var MultiHostDataNotSharded = register(&multiHostDataNotShardedDef)

var multiHostDataNotShardedDef = lint.Rule{
	Code: "TL606", Name: "multi-host-data-not-sharded", Category: lint.CatMultiHost, Severity: lint.Warning,
	Anchor:    "considerations-for-multi-host-pipelines",
	Title:     "The input is not sharded across hosts",
	NeedsPlan: true,
	Rationale: `In data-parallel training each process should see its own part of the data. When every process
reads the whole dataset in the same order, the replicas compute gradients on the same examples:
the effective batch is one process's batch, N-1 of N devices add nothing, and an epoch takes N
times longer than it seems to. When each reads it in its own order, examples repeat within an
epoch. Nothing fails or warns; the loss curve just looks like that of a smaller batch.

The playbook's multi-host advice starts from making sure the input pipeline is sharded across
hosts. Reported when the config switches off the framework's sharding (or names a loader that
does not shard) and more than one process is known to train: a host or device count in the file,
or ` + "`--hosts`/`--devices-per-host`" + `. A data module that shards by rank in its own code is
fine: say so with a suppression comment.

Adapted from the Deep Learning Tuning Playbook (Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0);
no endorsement implied.`,
	Fix:     `Let the framework shard the input by rank, or shard it in the data module.`,
	FixList: fixList("data.sharding", ""),
	Check:   checkMultiHostDataNotSharded,
}

func checkMultiHostDataNotSharded(p *lint.Pass) {
	sh := p.Plan.Data.Sharding
	if !sh.Known() || sh.Value != plan.NotSharded {
		return
	}
	n, ok := deviceCount(p.Plan.Topology)
	if !ok || n < 2 {
		return
	}
	f := lint.Finding{Key: sh.Key}
	f.Message = keyOr(sh, "the input") + " " + written(sh, "false") + " leaves the input unsharded across " + devicesPhrase(p.Plan.Topology, n)
	if sh.Note != "" {
		f.Message += ": " + sh.Note + ", every process reads the same data"
	} else {
		f.Message += ": every process reads the same data"
	}
	place(&f, sh.Node)
	f.Help = advice(p.Plan, "data.sharding", sh)
	if f.Help == "" {
		f.Help = "let the framework shard the input by rank, or give each process its own shard of the data"
	}
	p.Report(f)
}
