package rules

import (
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// MultiHostCheckpointOnAllHosts reports full checkpoints written by every host. Coordinated
// sharded checkpointing (plan.Sharded) is the correct multi-host pattern and is never reported.
var MultiHostCheckpointOnAllHosts = register(&multiHostCheckpointOnAllHostsDef)

var multiHostCheckpointOnAllHostsDef = lint.Rule{
	Code: "TL602", Name: "multi-host-checkpoint-on-all-hosts", Category: lint.CatMultiHost, Severity: lint.Error,
	Anchor:    "considerations-for-multi-host-pipelines",
	Title:     "Every host of a multi-host run writes full checkpoints",
	NeedsPlan: true,
	Rationale: `When every host saves the whole training state, hosts race to write the same files on shared
storage (corrupting or overwriting each other), or each keeps a private copy on local disk that
a restarted job, scheduled on other machines, cannot find. Either way the checkpoint you resume
from or select at the end is not the one you think. The playbook recommends checkpointing from a
single host.

Coordinated sharded checkpointing, where each host writes its own shard of one checkpoint
(Orbax multi-host, ` + "`torch.distributed.checkpoint`" + `, ZeRO or FSDP sharded state), is the
correct multi-host pattern and is not reported. With an unknown host count the rule is silent.`,
	Fix:     `Save full checkpoints from one host, on storage every host can read.`,
	FixList: fixList("ckpt.scope", ""),
	Check:   checkCheckpointOnAllHosts,
}

func checkCheckpointOnAllHosts(p *lint.Pass) {
	if _, ok := multiHost(p.Plan); !ok {
		return
	}
	c := p.Plan.Ckpt
	if c.Enabled.Known() && !c.Enabled.Value {
		return
	}
	s := c.Scope
	if !s.Known() || (s.Value != plan.EveryHost && s.Value != plan.EveryRank) {
		return
	}
	who := scopeWho(s.Value)
	f := lint.Finding{Key: s.Key}
	if s.Origin == plan.Default {
		f.Message = keyOr(s, "the checkpoint scope") + " is not set: with " + defaultName(s) + " " + who + " writes full checkpoints on " + hostsPhrase(p.Plan)
	} else {
		f.Message = keyOr(s, "checkpoint scope") + " " + written(s, string(s.Value)) + " makes " + who + " write full checkpoints on " + hostsPhrase(p.Plan)
	}
	f.Help = advice(p.Plan, "ckpt.scope", s)
	if f.Help == "" {
		f.Help = "save full checkpoints from one host only (process index 0), or use a coordinated sharded checkpointer"
	}
	place(&f, s.Node)
	p.Report(f)
}
