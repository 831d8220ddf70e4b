package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// The [mapping] table of a config file teaches the generic reader (and the dialects built on it)
// a team's own key names: concept = "dotted.key.path". A mapped key wins over any spelling the
// reader guessed. The names are Key.Concept's, the one naming scheme of the plan's fields, with a
// qualifier where the mapped value's unit or kind is fixed (eval.interval_seconds: a number is
// seconds; ckpt.retention_best: the best N, not the latest). Batch concepts without "global" are
// per device; compare like with like.
//
// Names from before the concepts were unified (seed.init, checkpoint.keep, hosts, ...) stay
// accepted as aliases: the config file's schema documents them and users have them in
// .trainlint.toml.

// mappingEntry is one concept the [mapping] table accepts.
type mappingEntry struct {
	Name    string   // Key.Concept, maybe with a qualifier suffix ("eval.interval_seconds")
	Aliases []string // earlier names, still accepted
	Doc     string
	read    func(p *plan.Plan, root, n *doc.Node, path string)
}

var mappingTable = []mappingEntry{
	{Name: "train.per_device_batch", Aliases: []string{"train.batch_size"}, Doc: "per-device train batch (integer)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Train.PerDeviceBatch = genIntNode(root, n, path)
		}},
	{Name: "train.global_batch", Aliases: []string{"train.global_batch_size"}, Doc: "train examples per optimizer step across all devices (integer)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Train.GlobalBatch = genIntNode(root, n, path)
		}},
	{Name: "train.grad_accum", Doc: "gradient-accumulation steps (integer)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Train.GradAccum = genIntNode(root, n, path)
		}},
	{Name: "train.max_steps", Doc: "training length in optimizer steps (integer)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Train.MaxSteps = genIntNode(root, n, path)
		}},
	{Name: "train.time_budget", Aliases: []string{"train.time_budget_seconds"}, Doc: "wall-clock budget of the whole run: a number is seconds, or a duration string",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Train.TimeBudget = genericInterval(root, n, path, plan.Seconds)
		}},
	{Name: "eval.enabled", Doc: "periodic evaluation on/off (boolean)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Eval.Enabled = genBoolNode(root, n, path)
		}},
	{Name: "eval.interval", Aliases: []string{"eval.interval_steps"}, Doc: "eval interval: an integer is steps, a duration string (\"30m\") is time",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Eval.Interval = genericInterval(root, n, path, plan.Steps)
		}},
	{Name: "eval.interval_epochs", Doc: "eval interval in epochs (number)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Eval.Interval = genericInterval(root, n, path, plan.Epochs)
		}},
	{Name: "eval.interval_seconds", Doc: "eval interval in seconds (number or duration string)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Eval.Interval = genericInterval(root, n, path, plan.Seconds)
		}},
	{Name: "eval.per_device_batch", Aliases: []string{"eval.batch_size"}, Doc: "per-device eval batch (integer)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Eval.PerDeviceBatch = genIntNode(root, n, path)
		}},
	{Name: "eval.global_batch", Aliases: []string{"eval.global_batch_size"}, Doc: "eval examples per step across all devices (integer)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Eval.GlobalBatch = genIntNode(root, n, path)
		}},
	{Name: "eval.drop_last", Doc: "the partial last eval batch is dropped (boolean)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Eval.DropLast = genBoolNode(root, n, path)
		}},
	{Name: "seeds.init", Aliases: []string{"seed.init"}, Doc: "model-initialisation seed (any scalar; rank-derived strings vary by host)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Seeds.Init = genSeedNode(root, n, path)
		}},
	{Name: "seeds.data", Aliases: []string{"seed.data"}, Doc: "shuffle/augmentation seed (any scalar)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Seeds.Data = genSeedNode(root, n, path)
		}},
	{Name: "data.workers", Doc: "background loader workers (integer)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Data.Workers = genIntNode(root, n, path)
		}},
	{Name: "data.prefetch", Doc: "prefetch depth in batches (integer)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Data.Prefetch = genIntNode(root, n, path)
		}},
	{Name: "data.sharding", Aliases: []string{"data.per_host_shards"}, Doc: "true: each host reads its own shuffled stream; false: a global-index sampler (boolean)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Data.Sharding = plan.Fact[plan.Sharding]{Key: path, Node: n}
			if f := genBoolNode(root, n, path); f.Known() {
				s := plan.GlobalIndexSampler
				if f.Value {
					s = plan.PerHostStream
				}
				p.Data.Sharding = plan.Set(s, path, n)
			}
		}},
	{Name: "topology.hosts", Aliases: []string{"hosts"}, Doc: "number of hosts/nodes (integer)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Topology.Hosts = genPositive(genIntNode(root, n, path))
		}},
	{Name: "topology.devices_per_host", Aliases: []string{"devices_per_host"}, Doc: "devices (processes) per host (integer)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Topology.DevicesPerHost = genPositive(genIntNode(root, n, path))
		}},
	{Name: "ckpt.enabled", Aliases: []string{"checkpoint.enabled"}, Doc: "periodic checkpoints on/off (boolean)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Ckpt.Enabled = genBoolNode(root, n, path)
		}},
	{Name: "ckpt.interval", Aliases: []string{"checkpoint.interval_steps"}, Doc: "checkpoint interval: an integer is steps, a duration string is time",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Ckpt.Interval = genericInterval(root, n, path, plan.Steps)
		}},
	{Name: "ckpt.interval_seconds", Aliases: []string{"checkpoint.interval_seconds"}, Doc: "checkpoint interval in seconds (number or duration string)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Ckpt.Interval = genericInterval(root, n, path, plan.Seconds)
		}},
	{Name: "ckpt.retention", Aliases: []string{"checkpoint.keep"}, Doc: "the latest N checkpoints are kept (integer; 0 or less = all)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: path, Node: n}
			if f := genIntNode(root, n, path); f.Known() {
				r := plan.Retention{Kind: plan.KeepLatest, N: f.Value}
				if f.Value <= 0 {
					r = plan.Retention{Kind: plan.KeepAll}
				}
				p.Ckpt.Retention = plan.Set(r, path, n)
			}
		}},
	{Name: "ckpt.retention_best", Aliases: []string{"checkpoint.keep_best"}, Doc: "the best N checkpoints are kept (integer)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: path, Node: n}
			if f := genIntNode(root, n, path); f.Known() && f.Value > 0 {
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepBest, N: f.Value}, path, n)
			}
		}},
	{Name: "ckpt.best_metric", Aliases: []string{"checkpoint.best_metric"}, Doc: "metric that ranks checkpoints (string)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Ckpt.BestMetric = genStrNode(root, n, path)
		}},
	{Name: "ckpt.scope", Aliases: []string{"checkpoint.all_hosts"}, Doc: "true: every host writes full checkpoints (boolean)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Ckpt.Scope = genBoolChoice(root, n, path, plan.PrimaryHost, plan.EveryHost)
		}},
	{Name: "logging.scope", Aliases: []string{"logging.all_hosts"}, Doc: "true: every host writes metrics/log files (boolean)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Logging.Scope = genBoolChoice(root, n, path, plan.PrimaryHost, plan.EveryHost)
		}},
	{Name: "bn.sync", Doc: "batch-norm statistics synced across devices (boolean)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.BN.Sync = genBoolChoice(root, n, path, plan.BNSyncNone, plan.BNSyncPerStep)
		}},
	{Name: "tracking.trackers", Aliases: []string{"trackers"}, Doc: "experiment tracker name(s) (string or list)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			var tr []string
			if n.Kind == doc.Seq {
				for _, it := range n.Children {
					if s, ok := it.Str(); ok && s != "" {
						tr = append(tr, s)
					}
				}
			} else if s, ok := n.Str(); ok && s != "" && !n.IsNull() {
				tr = append(tr, s)
			}
			p.Tracking.Trackers = plan.Set(tr, path, n)
		}},
	{Name: "tracking.run_name", Aliases: []string{"run_name"}, Doc: "run/experiment name (string)",
		read: func(p *plan.Plan, root, n *doc.Node, path string) {
			p.Tracking.RunName = genStrNode(root, n, path)
		}},
}

// MappingConcepts are the names [mapping] accepts: the concepts first, then their aliases.
var MappingConcepts = func() []string {
	var out []string
	for _, e := range mappingTable {
		out = append(out, e.Name)
	}
	for _, e := range mappingTable {
		out = append(out, e.Aliases...)
	}
	return out
}()

// mappingByName finds a concept by its name or an alias.
func mappingByName(name string) *mappingEntry {
	for i := range mappingTable {
		e := &mappingTable[i]
		if e.Name == name {
			return e
		}
		for _, a := range e.Aliases {
			if a == name {
				return e
			}
		}
	}
	return nil
}

// IsMappingConcept reports whether name is one of MappingConcepts.
func IsMappingConcept(name string) bool { return mappingByName(name) != nil }

// genApplyMapping reads the mapped keys into the plan. Names are applied in sorted order, so
// that two names touching one field give the same plan every run.
func genApplyMapping(p *plan.Plan, root *doc.Node, m map[string]string) {
	if root == nil || len(m) == 0 {
		return
	}
	names := make([]string, 0, len(m))
	for c := range m {
		names = append(names, c)
	}
	doc.SortStrings(names)
	for _, c := range names {
		e := mappingByName(c)
		if e == nil {
			continue
		}
		path := m[c]
		if n := root.At(path); n != nil {
			e.read(p, root, n, path)
		}
	}
}

// genericKeys documents the spellings the generic dialect understands (top level or under the
// usual sections). Defaults are empty: generic assumes none, except the torchtitan variant.
