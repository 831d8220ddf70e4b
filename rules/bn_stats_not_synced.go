package rules

import (
	"strconv"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// BNStatsNotSynced reports batch norm on several devices with nothing that makes the running
// statistics consistent before they are used for evaluation or saved.
var BNStatsNotSynced = register(&bNStatsNotSyncedDef)

var bNStatsNotSyncedDef = lint.Rule{
	Code: "TL501", Name: "bn-stats-not-synced", Category: lint.CatBatchNorm, Severity: lint.Warning,
	Anchor:    "batch-normalization-implementation-details",
	Title:     "Batch-norm statistics are not synchronised across devices",
	NeedsPlan: true,
	Rationale: `Each device computes batch-norm statistics on its own slice of the batch and keeps its own
running averages, which are what the model uses at evaluation time. Unless something combines
them, every device ends up with different running statistics, and the checkpoint usually holds
only the first device's: evaluation and the saved model see statistics estimated from a fraction
of the data.

The playbook does not ask for cross-device batch norm at every step (small "ghost" batches of
about 64 examples often work better). What matters is that the running statistics are averaged
across devices (and hosts) before they are evaluated or checkpointed. trainlint only reports
when the config shows batch norm in use (a norm layer type, a known batch-norm backbone) and
more than one device trains; copying the first device's statistics to the others ("broadcast")
is reported as info. On several hosts this is an error.`,
	Fix: `Average the batch-norm statistics across devices before evaluation and checkpointing, or
synchronise them at every step.`,
	FixList: fixList("bn.sync", ""),
	Check:   checkBNStatsNotSynced,
}

func checkBNStatsNotSynced(p *lint.Pass) {
	bn, topo := p.Plan.BN, p.Plan.Topology
	if !bn.Present.Known() || !bn.Present.Value || !bn.Sync.Known() {
		return
	}
	sync := bn.Sync.Value
	if sync != plan.BNSyncNone && sync != plan.BNSyncBroadcast {
		return
	}
	devices, ok := deviceCount(topo)
	if !ok || devices <= 1 {
		return
	}
	_, multi := multiHost(p.Plan)

	f := lint.Finding{Key: bn.Sync.Key}
	shown := sync
	if bn.Broadcaster != "" {
		shown = plan.BNSyncNone // the key turns synchronisation off; something else broadcasts
	}
	var head string
	switch {
	case bn.Sync.Origin == plan.Default:
		head = notSet(bn.Sync, defaultSyncText(shown))
	default:
		head = keyOr(bn.Sync, "batch-norm sync") + " " + written(bn.Sync, strconv.Quote(string(shown)))
	}
	if sync == plan.BNSyncBroadcast {
		f.Severity = lint.Info
		if bn.Broadcaster != "" {
			head += ", and " + bn.Broadcaster
		}
		others := "the other " + itoa(devices-1) + " devices"
		switch _, exact := topo.Devices(); {
		case !exact && topo.Hosts.Known() && topo.Hosts.Value > 1:
			// the hosts' count, not the devices': each host has one device or more
			others = "every other device on the " + itoa(topo.Hosts.Value) + " hosts"
		case devices == 2:
			others = "the other device"
		}
		f.Message = head + " copies the first device's batch-norm statistics to " + others + " instead of averaging them"
	} else {
		f.Message = head + " leaves each of the " + devicesPhrase(topo, devices) + " with its own batch-norm statistics"
		if multi {
			f.Severity = lint.Error
		}
	}
	place(&f, bn.Sync.Node, bn.Present.Node)
	ev := "batch norm in use"
	if bn.Evidence != "" {
		ev += ": " + bn.Evidence
	}
	f.Related = related(bn.Present.Node, f.Node, ev)
	if f.Node == nil && bn.Evidence != "" {
		f.Message += " (" + ev + ")"
	}
	f.Help = bnHelp(p.Plan, bn.Sync)
	p.Report(f)
}

// deviceCount is the number of training devices when known to be more than one; hosts > 1 or
// devices per host > 1 alone already prove several devices.
func deviceCount(t plan.Topology) (int, bool) {
	if n, ok := t.Devices(); ok {
		return n, true
	}
	if t.Hosts.Known() && t.Hosts.Value > 1 {
		return t.Hosts.Value, true
	}
	if t.DevicesPerHost.Known() && t.DevicesPerHost.Value > 1 {
		return t.DevicesPerHost.Value, true
	}
	return 0, false
}

func devicesPhrase(t plan.Topology, n int) string {
	if _, ok := t.Devices(); ok {
		if t.Hosts.Value > 1 {
			return itoa(n) + " devices on " + itoa(t.Hosts.Value) + " hosts"
		}
		return itoa(n) + " devices"
	}
	if t.Hosts.Known() && t.Hosts.Value > 1 {
		// Each host has one device or more, each with statistics of its own.
		return "devices on " + itoa(n) + " hosts"
	}
	return itoa(n) + " devices"
}

func defaultSyncText(s plan.BNSync) string {
	if s == plan.BNSyncNone {
		return "false"
	}
	return strconv.Quote(string(s))
}

func bnHelp(p *plan.Plan, sync plan.Fact[plan.BNSync]) string {
	if h := advice(p, "bn.sync", sync); h != "" {
		return h
	}
	return "average the batch-norm running statistics across devices before evaluation and checkpointing (e.g. SyncNormHook, dist_bn: reduce), or use synchronised batch norm"
}
