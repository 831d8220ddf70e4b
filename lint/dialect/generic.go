package dialect

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Generic reads in-house configs (YAML, JSON, TOML) by the spellings teams commonly use, plus two
// known shapes that have no dialect of their own: torchtitan's TOML job files and GPT-NeoX YAML.
//
// It assumes no framework defaults: a fact is Explicit only where a key is written, and an absent
// key stays Unknown, so rules stay silent on what the file does not say. The one exception is the
// torchtitan variant, whose defaults are documented in torchtitan/config/job_config.py @238fa99.
//
// Generic is never chosen by score: Detect falls back to it when no dialect claims a file.
var Generic = register(&Dialect{
	Name:  "generic",
	Title: "Generic (in-house YAML/JSON/TOML)",
	Version: "common spellings; torchtitan job_config.py @238fa99 (TOML era); " +
		"GPT-NeoX megatron/neox_arguments/neox_args.py @ea7aefd",
	Formats:   []doc.Format{doc.YAML, doc.JSON, doc.TOML},
	Normalize: normalizeGeneric,
	Keys:      genericKeys,
})

// ApplyContext fills topology facts from the launch context where the file stated nothing
// explicitly (a value written in the file is what the framework will use). Dialects call it last.
func ApplyContext(p *plan.Plan, ctx Context) {
	if ctx.Hosts > 0 && !p.Topology.Hosts.IsExplicit() {
		p.Topology.Hosts = plan.Fact[int]{Value: ctx.Hosts, Origin: plan.Context, Key: "--hosts"}
	}
	if ctx.DevicesPerHost > 0 && !p.Topology.DevicesPerHost.IsExplicit() {
		p.Topology.DevicesPerHost = plan.Fact[int]{Value: ctx.DevicesPerHost, Origin: plan.Context, Key: "--devices-per-host"}
	}
}

// Mapping concepts: the names a config file's [mapping] table may use to teach the generic dialect
// a team's own key names (concept = "dotted.key.path"). A mapped key wins over any spelling the
// dialect guessed. Batch concepts without "global" are per device; compare like with like.
//
//	train.batch_size          per-device train batch (integer)
//	train.global_batch_size   train examples per optimizer step across all devices (integer)
//	train.grad_accum          gradient-accumulation steps (integer)
//	train.max_steps           training length in optimizer steps (integer)
//	train.time_budget_seconds wall-clock budget of the whole run in seconds (number or duration)
//	eval.enabled              periodic evaluation on/off (boolean)
//	eval.interval             eval interval: an integer is steps, a duration string ("30m") is time
//	eval.interval_steps       eval interval in optimizer steps (integer)
//	eval.interval_epochs      eval interval in epochs (number)
//	eval.interval_seconds     eval interval in seconds (number or duration string)
//	eval.batch_size           per-device eval batch (integer)
//	eval.global_batch_size    eval examples per step across all devices (integer)
//	eval.drop_last            the partial last eval batch is dropped (boolean)
//	seed.init                 model-initialisation seed (any scalar; rank-derived strings vary by host)
//	seed.data                 shuffle/augmentation seed (any scalar)
//	data.workers              background loader workers (integer)
//	data.prefetch             prefetch depth in batches (integer)
//	data.per_host_shards      each host reads its own shuffled stream (boolean)
//	hosts                     number of hosts/nodes (integer)
//	devices_per_host          devices (processes) per host (integer)
//	checkpoint.enabled        periodic checkpoints on/off (boolean)
//	checkpoint.interval_steps checkpoint interval in steps (integer)
//	checkpoint.interval_seconds checkpoint interval in seconds (number or duration string)
//	checkpoint.keep           the latest N checkpoints are kept (integer; 0 or less = all)
//	checkpoint.keep_best      the best N checkpoints are kept (integer)
//	checkpoint.best_metric    metric that ranks checkpoints (string)
//	checkpoint.all_hosts      every host writes full checkpoints (boolean)
//	logging.all_hosts         every host writes metrics/log files (boolean)
//	bn.sync                   batch-norm statistics synced across devices (boolean)
//	trackers                  experiment tracker name(s) (string or list)
//	run_name                  run/experiment name (string)
var MappingConcepts = []string{
	"train.batch_size", "train.global_batch_size", "train.grad_accum", "train.max_steps",
	"train.time_budget_seconds",
	"eval.enabled", "eval.interval", "eval.interval_steps", "eval.interval_epochs", "eval.interval_seconds",
	"eval.batch_size", "eval.global_batch_size", "eval.drop_last",
	"seed.init", "seed.data",
	"data.workers", "data.prefetch", "data.per_host_shards",
	"hosts", "devices_per_host",
	"checkpoint.enabled", "checkpoint.interval_steps", "checkpoint.interval_seconds",
	"checkpoint.keep", "checkpoint.keep_best", "checkpoint.best_metric", "checkpoint.all_hosts",
	"logging.all_hosts", "bn.sync", "trackers", "run_name",
}

// IsMappingConcept reports whether name is one of MappingConcepts.
func IsMappingConcept(name string) bool {
	for _, c := range MappingConcepts {
		if c == name {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------------------------
// Same-file interpolation and typed readers shared by the YAML dialects (torchtune, Composer).

// genRefPattern matches an OmegaConf reference to another key of the same file ("${batch_size}",
// "${variables.global_seed}"). Resolvers ("${oc.env:RANK}", "${multiply:...}") contain a colon
// and are not followed.
var genRefPattern = lazyRegexp(`^\$\{\s*([A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z_0-9][A-Za-z0-9_\-]*)*)\s*\}$`)

// genDeref follows same-file references from n (a bounded number of hops, so a cycle ends). It
// returns the node that holds the value and the first reference text when one was followed.
func genDeref(root, n *doc.Node) (*doc.Node, string) {
	via := ""
	for hops := 0; hops < 8 && n != nil && n.IsScalar() && n.Type == doc.Unknown; hops++ {
		m := genRefPattern().FindStringSubmatch(strings.TrimSpace(n.Value))
		if m == nil {
			break
		}
		t := root.At(m[1])
		if t == nil {
			// llm-foundry also resolves a bare ${name} against its variables section.
			t = root.At("variables." + m[1])
		}
		if t == nil || t == n {
			break
		}
		if via == "" {
			via = strings.TrimSpace(n.Value)
		}
		n = t
	}
	return n, via
}

func genViaNote(via string) string {
	if via == "" {
		return ""
	}
	return "= " + via
}

// genNode reads n with parse after following same-file references: the fact points at n, where
// the value is written in this file, and its note names the reference followed. A value parse
// rejects gives an Unknown fact at n. The typed readers below are parse functions over it.
func genNode[T any](root, n *doc.Node, key string, parse func(t *doc.Node) (T, bool)) plan.Fact[T] {
	t, via := genDeref(root, n)
	if v, ok := parse(t); ok {
		f := plan.Set(v, key, n)
		f.Note = genViaNote(via)
		return f
	}
	return plan.Fact[T]{Key: key, Node: n}
}

// genRef reads the value at a dotted path with one of the typed node readers; ok is false when
// the key is absent.
func genRef[T any](root *doc.Node, path string, read func(root, n *doc.Node, key string) plan.Fact[T]) (plan.Fact[T], bool) {
	n := root.At(path)
	if n == nil {
		return plan.Fact[T]{Key: path}, false
	}
	return read(root, n, path), true
}

// genIntNode reads an integer from n (following references); the fact points at n, where the value
// is written in this file.
func genIntNode(root, n *doc.Node, key string) plan.Fact[int] {
	if n == nil {
		return plan.Fact[int]{Key: key}
	}
	return genNode(root, n, key, func(t *doc.Node) (int, bool) {
		if t.IsScalar() && t.Type != doc.Bool {
			if v, ok := t.Int(); ok && v >= math.MinInt32 && v <= math.MaxInt32 {
				return int(v), true
			}
		}
		return 0, false
	})
}

// genIntRef reads an integer at a dotted path, following same-file references.
func genIntRef(root *doc.Node, path string) (plan.Fact[int], bool) {
	return genRef(root, path, genIntNode)
}

// genBoolRef reads a boolean at a dotted path, following same-file references.
func genBoolRef(root *doc.Node, path string) (plan.Fact[bool], bool) {
	return genRef(root, path, genBoolNode)
}

func genBoolNode(root, n *doc.Node, key string) plan.Fact[bool] {
	return genNode(root, n, key, (*doc.Node).Bool)
}

// genBoolChoice reads a boolean at n as one of two values (ifFalse, ifTrue), set at key; a
// value that is not a boolean gives an Unknown fact at n. Unlike genBoolNode the fact has no
// note about a reference followed.
func genBoolChoice[T any](root, n *doc.Node, key string, ifFalse, ifTrue T) plan.Fact[T] {
	f := genBoolNode(root, n, key)
	if !f.Known() {
		return plan.Fact[T]{Key: key, Node: n}
	}
	if f.Value {
		return plan.Set(ifTrue, key, n)
	}
	return plan.Set(ifFalse, key, n)
}

// genStrRef reads a scalar as text at a dotted path (not null, not unresolved), following references.
func genStrRef(root *doc.Node, path string) (plan.Fact[string], bool) {
	return genRef(root, path, genStrNode)
}

func genStrNode(root, n *doc.Node, key string) plan.Fact[string] {
	return genNode(root, n, key, func(t *doc.Node) (string, bool) {
		if t.IsScalar() && !t.IsNull() && !t.IsUnknown() {
			return t.Value, true
		}
		return "", false
	})
}

// genSeedNode reads a seed from n. A value derived from the rank varies by host; a plain number is
// the same on every host as far as the file says; a null or unresolved value stays Unknown.
func genSeedNode(root, n *doc.Node, key string) plan.Fact[plan.Seed] {
	if n == nil {
		return plan.Fact[plan.Seed]{Key: key}
	}
	t, via := genDeref(root, n)
	if !t.IsScalar() || t.IsNull() {
		return plan.Fact[plan.Seed]{Key: key, Node: n}
	}
	expr := n.Value
	if via != "" && !t.IsUnknown() {
		expr = t.Value
	}
	if varies, why := VariesByHost(n.Value + " " + t.Value); varies {
		return plan.Set(plan.Seed{Value: n.Value, Varies: plan.VariesByHost, Why: why}, key, n)
	}
	if t.IsUnknown() {
		return plan.Fact[plan.Seed]{Key: key, Node: n, Value: plan.Seed{Value: n.Value}}
	}
	f := plan.Set(plan.Seed{Value: expr, Varies: plan.SameOnEveryHost}, key, n)
	f.Note = genViaNote(via)
	return f
}

// ---------------------------------------------------------------------------------------------
// Interval spellings.

var (
	genStepsString = lazyRegexp(`(?i)^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*(steps?|ba|batch(?:es)?|iters?|iterations?|it)\s*$`)
	genEpochString = lazyRegexp(`(?i)^\s*(\d+(?:\.\d+)?)\s*(ep|epochs?)\s*$`)
	genClockString = lazyRegexp(`^\s*(?:(\d+):)?(\d{1,2}):(\d{1,2}):(\d{1,2})\s*$`)
	genUnitWords   = lazyRegexp(`(?i)^\s*(\d+(?:\.\d+)?)\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\s*$`)
)

// genDurationSeconds parses a wall-clock duration as teams write it: Go-style "1h30m", "90s", "30m",
// word units "10 minutes", "2h", clock "00:30:00" or "DD:HH:MM:SS". ok is false for anything else.
func genDurationSeconds(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if m := genUnitWords().FindStringSubmatch(s); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		switch u := strings.ToLower(m[2]); {
		case strings.HasPrefix(u, "s"):
			return v, true
		case u == "m" || strings.HasPrefix(u, "min"):
			return v * 60, true
		case strings.HasPrefix(u, "h"):
			return v * 3600, true
		case strings.HasPrefix(u, "d"):
			return v * 86400, true
		}
	}
	if m := genClockString().FindStringSubmatch(s); m != nil {
		d, _ := strconv.Atoi(m[1])
		h, _ := strconv.Atoi(m[2])
		mi, _ := strconv.Atoi(m[3])
		se, _ := strconv.Atoi(m[4])
		return float64(((d*24+h)*60+mi)*60 + se), true
	}
	if d, err := time.ParseDuration(strings.ReplaceAll(s, " ", "")); err == nil && d > 0 {
		return d.Seconds(), true
	}
	return 0, false
}

// genericInterval reads an interval value whose key does not state a unit: a bare number is in
// the key's unit (defUnit), a string may carry its own ("500steps", "2 epochs", "30m").
func genericInterval(root, n *doc.Node, key string, defUnit plan.Unit) plan.Fact[plan.Interval] {
	t, via := genDeref(root, n)
	if !t.IsScalar() || t.IsNull() || t.IsUnknown() || t.Type == doc.Bool {
		return plan.Fact[plan.Interval]{Key: key, Node: n}
	}
	set := func(v float64, u plan.Unit) plan.Fact[plan.Interval] {
		f := plan.Set(plan.Interval{Value: v, Unit: u, Text: t.Value}, key, n)
		f.Note = genViaNote(via)
		return f
	}
	if v, ok := t.Float(); ok {
		return set(v, defUnit)
	}
	if m := genStepsString().FindStringSubmatch(t.Value); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		return set(v, plan.Steps)
	}
	if m := genEpochString().FindStringSubmatch(t.Value); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		return set(v, plan.Epochs)
	}
	if secs, ok := genDurationSeconds(t.Value); ok {
		return set(secs, plan.Seconds)
	}
	return plan.Fact[plan.Interval]{Key: key, Node: n}
}

// ---------------------------------------------------------------------------------------------
// The generic reader.

// genNormKey folds the spellings of one key: case, and NeoX's interchangeable '-' and '_'.
// Almost every key (and every name the readers look up) is already folded: one scan finds that
// and returns k itself, where the two library calls scanned it twice (this runs for every lookup).
func genNormKey(k string) string {
	for i := 0; i < len(k); i++ {
		if b := k[i]; b == '-' || b >= 'A' && b <= 'Z' || b >= utf8.RuneSelf {
			return strings.ToLower(strings.ReplaceAll(k, "-", "_"))
		}
	}
	return k
}

// genChild returns the child of map n whose folded key equals name (the last one when repeated).
func genChild(n *doc.Node, name string) *doc.Node {
	if n == nil || n.Kind != doc.Map {
		return nil
	}
	want := genNormKey(name)
	for i := len(n.Children) - 1; i >= 0; i-- {
		if genNormKey(n.Children[i].Key) == want {
			return n.Children[i]
		}
	}
	return nil
}

// section names where in-house configs group settings, by purpose.
var (
	genTrainSections = []string{"train", "training", "trainer", "optim", "optimization", "hparams", "hyperparameters", "config", "run"}
	genEvalSections  = []string{"eval", "evaluation", "validation", "val", "evaluator"}
	genDataSections  = []string{"data", "input", "dataset", "dataloader", "data_loader", "loader", "training.dataloader", "train.dataloader", "train_loader", "data.loader"}
	genCkptSections  = []string{"checkpoint", "checkpointing", "ckpt", "checkpoints", "save", "saving"}
	genLogSections   = []string{"logging", "logger", "log", "metrics", "tracking"}
	genDistSections  = []string{"distributed", "dist", "cluster", "parallelism", "hardware", "resources", "launcher", "compute", "trainer", "job"}
	genSeedSections  = []string{"debug", "reproducibility", "randomness", "seed", "train", "training", "trainer", "experiment"}
)

type genericReader struct {
	root *doc.Node
	// idx holds each looked-up map's children by folded key, built on first use: a lookup is
	// then O(1), so a hostile file with a million top-level keys stays fast.
	idx map[*doc.Node]*genIndex
	// secs memoises section: every reader resolves the same few dozen section names.
	secs map[string]*doc.Node
	// top is idx[root], built up front: most lookups are at the top level, and this saves
	// hashing the root pointer for each.
	top *genIndex
}

// child is genChild through the index.
func (g genericReader) child(n *doc.Node, name string) *doc.Node {
	if n == nil || n.Kind != doc.Map {
		return nil
	}
	if g.idx == nil {
		return genChild(n, name)
	}
	m := g.top
	if n != g.root || m == nil {
		var ok bool
		if m, ok = g.idx[n]; !ok {
			m = newGenIndex(n)
			g.idx[n] = m
		}
	}
	k := genNormKey(name)
	if s := keyShape(k); m.shape&s != s {
		return nil
	}
	return m.keys[k]
}

// genIndex is one map's children by folded key, with the union of their keyShape bits: most
// lookups (every name of every reader in every section) ask for a key the map lacks, and the
// bit test answers those without hashing the name (it was a third of normalising a file).
type genIndex struct {
	keys  map[string]*doc.Node
	shape uint64
}

func newGenIndex(n *doc.Node) *genIndex {
	m := &genIndex{keys: make(map[string]*doc.Node, len(n.Children))}
	for _, c := range n.Children {
		k := genNormKey(c.Key)
		m.keys[k] = c // later duplicates win, as in the formats
		m.shape |= keyShape(k)
	}
	return m
}

// keyShape is a one-bit-per-property summary of a key: its length (mod 32) and its first
// byte (mod 32). Equal keys have equal shapes, so a shape bit missing from a map's union means
// the key is absent.
func keyShape(k string) uint64 {
	if k == "" {
		return 1
	}
	return 1<<(len(k)&31) | 1<<(32+k[0]&31)
}

// section resolves a (possibly dotted) section name under the root with folded keys.
func (g genericReader) section(name string) *doc.Node {
	if strings.IndexByte(name, '.') < 0 {
		// One level: the lookup is as cheap as the memo's (and mostly a shape miss).
		n := g.child(g.root, name)
		if n == nil || n.Kind != doc.Map {
			return nil
		}
		return n
	}
	if g.secs != nil {
		if n, ok := g.secs[name]; ok {
			return n
		}
		n := g.resolveSection(name)
		g.secs[name] = n
		return n
	}
	return g.resolveSection(name)
}

func (g genericReader) resolveSection(name string) *doc.Node {
	// strings.Cut rather than SplitSeq: the iterator's closures cost more than the lookups here.
	cur := g.root
	for rest, more := name, true; more; {
		var part string
		part, rest, more = strings.Cut(rest, ".")
		cur = g.child(cur, part)
		if cur == nil || cur.Kind != doc.Map {
			return nil
		}
	}
	return cur
}

// find returns the first key written among names, in the top level first and then in the given
// sections in order, with its dotted path as written.
func (g genericReader) find(sections []string, topLevel bool, names ...string) (*doc.Node, string) {
	if topLevel {
		for _, name := range names {
			if n := g.child(g.root, name); n != nil {
				return n, genPathOf(n)
			}
		}
	}
	for _, s := range sections {
		sec := g.section(s)
		if sec == nil {
			continue
		}
		for _, name := range names {
			if n := g.child(sec, name); n != nil {
				return n, genPathOf(n)
			}
		}
	}
	return nil, ""
}

func genPathOf(n *doc.Node) string {
	if n == nil {
		return ""
	}
	return n.Path().String()
}

func normalizeGeneric(d *doc.Document, ctx Context) *plan.Plan {
	p := &plan.Plan{Framework: "generic"}
	root := d.Root
	if root == nil || root.Kind != doc.Map {
		genApplyMapping(p, root, ctx.Mapping)
		ApplyContext(p, ctx)
		return p
	}
	g := genericReader{root: root, idx: map[*doc.Node]*genIndex{}, secs: map[string]*doc.Node{}}
	g.top = newGenIndex(root)
	g.idx[root] = g.top
	titan := isTorchtitan(d)
	neox := !titan && isNeoX(root)
	switch {
	case titan:
		p.Variant = "torchtitan"
		readTorchtitan(p, g)
	case neox:
		p.Variant = "gpt-neox"
	}
	readGenericBatches(p, g)
	readGenericEval(p, g)
	readGenericSeeds(p, g)
	readGenericData(p, g)
	readGenericTopology(p, g)
	readGenericCheckpoint(p, g)
	readGenericLogging(p, g)
	readGenericBN(p, g)
	genApplyMapping(p, root, ctx.Mapping)
	ApplyContext(p, ctx)
	return p
}

func genIntFact(g genericReader, n *doc.Node, path string) plan.Fact[int] {
	return genIntNode(g.root, n, path)
}

func readGenericBatches(p *plan.Plan, g genericReader) {
	all := append([]string{}, genTrainSections...)
	// Spellings that say their granularity.
	if n, k := g.find(all, true, "per_device_train_batch_size", "per_device_batch_size", "train_micro_batch_size_per_gpu",
		"micro_batch_size", "local_batch_size", "batch_size_per_device", "batch_size_per_gpu", "per_gpu_batch_size",
		"device_batch_size", "per_device_train_batch"); n != nil {
		p.Train.PerDeviceBatch = genIntFact(g, n, k)
	}
	if n, k := g.find(all, true, "global_batch_size", "global_train_batch_size", "total_batch_size", "effective_batch_size"); n != nil {
		f := genIntFact(g, n, k)
		if f.Known() && f.Value <= 0 { // torchtitan -1: derived at run time
			f = plan.Fact[int]{Key: k, Node: n}
		}
		p.Train.GlobalBatch = f
	}
	if n, k := g.find(append(all, genEvalSections...), true, "per_device_eval_batch_size", "eval_micro_batch_size",
		"eval_micro_batch_size_per_gpu", "eval_batch_size_per_device", "eval_batch_size_per_gpu", "device_eval_batch_size"); n != nil {
		p.Eval.PerDeviceBatch = genIntFact(g, n, k)
	}
	if n, k := g.find(genEvalSections, false, "local_batch_size", "per_device_batch_size", "micro_batch_size", "batch_size_per_device"); n != nil && !p.Eval.PerDeviceBatch.Known() {
		p.Eval.PerDeviceBatch = genIntFact(g, n, k)
	}
	if n, k := g.find(genEvalSections, false, "global_batch_size", "total_batch_size"); n != nil {
		p.Eval.GlobalBatch = genIntFact(g, n, k)
	}
	if n, k := g.find(all, true, "gradient_accumulation_steps", "grad_accum_steps", "grad_accum", "accumulate_grad_batches", "accum_steps", "gradient_accumulation"); n != nil {
		p.Train.GradAccum = genIntFact(g, n, k)
	}
	if n, k := g.find(all, true, "max_steps", "train_steps", "num_train_steps", "total_steps", "train_iters", "num_steps", "steps"); n != nil {
		if f := genIntFact(g, n, k); f.Known() && f.Value > 0 {
			p.Train.MaxSteps = f
		}
	}
	if n, k := g.find(all, true, "max_time", "time_budget", "max_train_time", "max_duration_seconds", "time_limit"); n != nil {
		if f := genericInterval(g.root, n, k, plan.Seconds); f.Known() && f.Value.Unit == plan.Seconds {
			p.Train.TimeBudget = f
		}
	}

	// Spellings that do not say their granularity: only a train/eval pair with matching names is
	// read, as like-for-like values (both per device here; what matters is that they compare).
	if p.Train.PerDeviceBatch.Known() || p.Eval.PerDeviceBatch.Known() {
		return
	}
	type pair struct{ train, eval string }
	var pairs []pair
	for _, ts := range genTrainSections {
		for _, es := range genEvalSections {
			pairs = append(pairs, pair{ts + ".batch_size", es + ".batch_size"})
		}
		pairs = append(pairs,
			pair{ts + ".batch_size", ts + ".eval_batch_size"},
			pair{ts + ".train_batch_size", ts + ".eval_batch_size"})
	}
	pairs = append(pairs, pair{"batch_size", "eval_batch_size"}, pair{"train_batch_size", "eval_batch_size"},
		pair{"batch_size", "eval.batch_size"}, pair{"batch_size", "validation.batch_size"})
	for _, pr := range pairs {
		tn, en := g.at(pr.train), g.at(pr.eval)
		if tn == nil || en == nil {
			continue
		}
		p.Train.PerDeviceBatch = genIntFact(g, tn, genPathOf(tn))
		p.Eval.PerDeviceBatch = genIntFact(g, en, genPathOf(en))
		p.Train.PerDeviceBatch.Note = "granularity not stated; read like for like with " + genPathOf(en)
		p.Eval.PerDeviceBatch.Note = "granularity not stated; read like for like with " + genPathOf(tn)
		return
	}
}

// at follows a dotted path with folded keys.
func (g genericReader) at(path string) *doc.Node {
	cur := g.root
	for part := range strings.SplitSeq(path, ".") {
		cur = g.child(cur, part)
		if cur == nil {
			return nil
		}
	}
	return cur
}

func readGenericEval(p *plan.Plan, g genericReader) {
	all := append(append([]string{}, genEvalSections...), genTrainSections...)
	// Time-based spellings first: their unit is in the name.
	if n, k := g.find(all, true, "eval_every_secs", "eval_interval_seconds", "eval_interval_secs", "eval_throttle_secs",
		"eval_every_seconds", "eval_secs", "every_secs", "every_seconds", "interval_seconds", "interval_secs", "throttle_secs",
		"eval_every_minutes", "every_minutes", "eval_interval_minutes", "eval_every_mins",
		"eval_every_n_secs", "eval_every_n_seconds", "eval_every_n_minutes", "eval_every_n_mins", "eval_interval_mins",
		"eval_every_hours", "eval_every_n_hours", "eval_interval_hours"); n != nil {
		f := genericInterval(g.root, n, k, plan.Seconds)
		if f.Known() && f.Value.Unit == plan.Seconds {
			if v, ok := n.Float(); ok {
				switch key := genNormKey(n.Key); {
				case strings.Contains(key, "min"):
					f.Value.Value = v * 60
				case strings.Contains(key, "hour"):
					f.Value.Value = v * 3600
				}
			}
		}
		p.Eval.Interval = f
	} else if n, k := g.find(all, true, "eval_every_steps", "eval_interval_steps", "eval_steps_interval", "every_steps", "eval_every_n_steps",
		"val_every_n_steps", "run_val_every_n_steps", "validate_every_n_steps", "eval_freq", "eval_frequency", "freq", "frequency", "interval_steps"); n != nil {
		p.Eval.Interval = genericInterval(g.root, n, k, plan.Steps)
	} else if n, k := g.find(all, true, "eval_every_epochs", "eval_every_n_epochs", "val_every_n_epochs", "check_val_every_n_epoch", "eval_interval_epochs", "every_epochs"); n != nil {
		p.Eval.Interval = genericInterval(g.root, n, k, plan.Epochs)
	} else if n, k := g.find(all, true, "eval_interval", "eval_every", "interval", "every", "validation_interval", "val_interval"); n != nil {
		// The unit is not in the name: a number may come with a unit key beside it.
		unit := plan.Steps
		if u := genChild(n.Parent, strings.TrimSuffix(genNormKey(n.Key), "interval")+"interval_unit"); u != nil {
			unit = genUnitWord(u.Value, plan.Steps)
		} else if u := genChild(n.Parent, "unit"); u != nil {
			unit = genUnitWord(u.Value, plan.Steps)
		} else if u := genChild(n.Parent, "eval_interval_unit"); u != nil {
			unit = genUnitWord(u.Value, plan.Steps)
		}
		f := genericInterval(g.root, n, k, unit)
		// "interval"/"every" on their own are only an eval interval inside an eval section.
		if (genNormKey(n.Key) == "interval" || genNormKey(n.Key) == "every") && !genInSection(n, genEvalSections) {
			f = plan.Fact[plan.Interval]{}
		}
		p.Eval.Interval = f
	}
	// "freq"/"frequency" likewise only count inside an eval section.
	if p.Eval.Interval.Node != nil {
		switch genNormKey(p.Eval.Interval.Node.Key) {
		case "freq", "frequency", "interval_steps", "every_steps", "interval_seconds", "interval_secs", "every_secs", "every_seconds", "every_minutes", "throttle_secs", "every_epochs":
			if !genInSection(p.Eval.Interval.Node, genEvalSections) {
				p.Eval.Interval = plan.Fact[plan.Interval]{}
			}
		}
	}
	if n, k := g.find(genEvalSections, false, "enable", "enabled", "do_eval", "run_eval"); n != nil {
		p.Eval.Enabled = genBoolNode(g.root, n, k)
	} else if n, k := g.find(genTrainSections, true, "do_eval", "run_eval", "eval_enabled", "enable_eval", "enable_validation", "validate", "do_validation"); n != nil {
		p.Eval.Enabled = genBoolNode(g.root, n, k)
	}
	if p.Eval.Interval.Known() && !p.Eval.Enabled.Known() {
		if p.Eval.Interval.Value.Value > 0 {
			p.Eval.Enabled = plan.Fact[bool]{Value: true, Origin: plan.Derived, Key: p.Eval.Interval.Key, Node: p.Eval.Interval.Node, Note: "an eval interval is set"}
		}
	}
	if n, k := g.find(genEvalSections, false, "drop_last", "drop_remainder"); n != nil {
		p.Eval.DropLast = genBoolNode(g.root, n, k)
	} else if n, k := g.find(nil, true, "eval_drop_last", "eval_drop_remainder"); n != nil {
		p.Eval.DropLast = genBoolNode(g.root, n, k)
	}
}

func genUnitWord(s string, def plan.Unit) plan.Unit {
	switch u := strings.ToLower(strings.TrimSpace(s)); {
	case u == "":
		return def
	case strings.HasPrefix(u, "step"), strings.HasPrefix(u, "iter"), strings.HasPrefix(u, "batch"), u == "ba":
		return plan.Steps
	case strings.HasPrefix(u, "ep"):
		return plan.Epochs
	case strings.HasPrefix(u, "sec"), u == "s":
		return plan.Seconds
	case strings.HasPrefix(u, "sample"):
		return plan.Samples
	case strings.HasPrefix(u, "tok"):
		return plan.Tokens
	}
	return def
}

// genInSection reports whether n sits directly in a map whose key is one of names.
func genInSection(n *doc.Node, names []string) bool {
	if n == nil || n.Parent == nil {
		return false
	}
	k := genNormKey(n.Parent.Key)
	for _, s := range names {
		if k == s {
			return true
		}
	}
	return false
}

func readGenericSeeds(p *plan.Plan, g genericReader) {
	if n, k := g.find(genSeedSections, true, "init_seed", "model_seed", "param_seed", "init_rng_seed", "params_seed"); n != nil {
		p.Seeds.Init = genSeedNode(g.root, n, k)
	} else if n, k := g.find(genSeedSections, true, "seed", "random_seed", "rng_seed", "global_seed", "seed_everything"); n != nil {
		p.Seeds.Init = genSeedNode(g.root, n, k)
	}
	if n, k := g.find(append(append([]string{}, genDataSections...), genSeedSections...), true, "data_seed", "shuffle_seed", "dataset_seed", "sampler_seed", "input_seed", "data_rng_seed"); n != nil {
		p.Seeds.Data = genSeedNode(g.root, n, k)
	} else if n, k := g.find(genDataSections, false, "seed"); n != nil {
		p.Seeds.Data = genSeedNode(g.root, n, k)
	}
	// A switch that offsets the data seed by host (the trainer adds process_index itself) makes a
	// literal data seed differ from host to host.
	if d := p.Seeds.Data; d.Known() && d.Value.Varies == plan.SameOnEveryHost {
		if n, k := g.find(append(append([]string{}, genDataSections...), genSeedSections...), true, "seed_per_host", "per_host_seed", "seed_offset_by_host",
			"offset_seed_by_host", "seed_by_host", "seed_per_process", "per_process_seed", "seed_offset_by_process", "fold_in_process_index"); n != nil {
			if b := genBoolNode(g.root, n, k); b.Known() && b.Value {
				d.Value.Varies, d.Value.Why = plan.VariesByHost, "offset by host ("+k+")"
				p.Seeds.Data = d
			}
		}
	}
}

func readGenericData(p *plan.Plan, g genericReader) {
	secs := append(append([]string{}, genDataSections...), genTrainSections...)
	if n, k := g.find(secs, true, "num_workers", "dataloader_num_workers", "workers", "num_data_workers", "loader_workers", "n_workers"); n != nil {
		p.Data.Workers = genIntFact(g, n, k)
	}
	if n, k := g.find(secs, true, "prefetch_factor", "prefetch", "prefetch_buffer_size", "prefetch_size", "dataloader_prefetch_factor", "prefetch_batches", "num_prefetch"); n != nil {
		f := genIntFact(g, n, k)
		if !f.Known() {
			// tf.data AUTOTUNE (-1 or "autotune") prefetches: a positive depth is all rules need.
			if s, _ := n.Str(); strings.EqualFold(strings.TrimSpace(s), "autotune") {
				f = plan.Set(1, k, n)
				f.Note = "AUTOTUNE"
			} else if b, ok := n.Bool(); ok {
				v := 0
				if b {
					v = 1
				}
				f = plan.Set(v, k, n)
			}
		}
		p.Data.Prefetch = f
	}
	if n, k := g.find(secs, true, "shard_by_host", "per_host_shards", "shard_files", "per_host_input", "shard_per_host", "host_sharding", "split_by_host", "per_host_pipeline",
		// JAX calls a host a process (jax.process_index): the same switches, spelled by process.
		"shard_by_process", "per_process_shards", "shard_per_process", "split_by_process"); n != nil {
		if b := genBoolNode(g.root, n, k); b.Known() {
			if b.Value {
				p.Data.Sharding = plan.Set(plan.PerHostStream, k, n)
			}
		}
	}
	if !p.Data.Sharding.Known() {
		if n, k := g.find(secs, true, "sampler", "sampler_type", "data_sampler"); n != nil {
			s, _ := n.Str()
			if t := genChild(n, "type"); t != nil {
				s, _ = t.Str()
			}
			if strings.Contains(strings.ToLower(s), "distributed") {
				p.Data.Sharding = plan.Set(plan.GlobalIndexSampler, k, n)
			}
		}
	}
}

// genPositive keeps a count only when it is positive: "0 hosts" or "-1 devices" mean "decide at
// launch" in several launchers, not a topology.
func genPositive(f plan.Fact[int]) plan.Fact[int] {
	if f.Known() && f.Value <= 0 {
		return plan.Fact[int]{Key: f.Key, Node: f.Node}
	}
	return f
}

// genHostList counts a list of host names ("hosts: [node1, node2]"); 0 when n is anything else.
func genHostList(n *doc.Node) int {
	if n == nil || n.Kind != doc.Seq || len(n.Children) == 0 {
		return 0
	}
	for _, c := range n.Children {
		if !c.IsScalar() || c.Type != doc.String {
			return 0
		}
	}
	return len(n.Children)
}

func readGenericTopology(p *plan.Plan, g genericReader) {
	if n, k := g.find(genDistSections, true, "num_hosts", "hosts", "num_nodes", "nnodes", "nodes", "num_machines", "n_nodes", "node_count", "num_workers_hosts"); n != nil {
		if f := genIntFact(g, n, k); f.Known() && f.Value > 0 {
			p.Topology.Hosts = f
		} else if names := genHostList(n); names > 0 {
			p.Topology.Hosts = plan.Set(names, k, n)
			p.Topology.Hosts.Note = "= the number of hosts listed"
		} else {
			p.Topology.Hosts = plan.Fact[int]{Key: k, Node: n}
		}
	}
	if n, k := g.find(genDistSections, true, "devices_per_host", "gpus_per_node", "nproc_per_node", "devices_per_node", "gpus_per_host",
		"num_gpus_per_node", "tpus_per_host", "local_devices", "ntasks_per_node", "devices", "num_devices"); n != nil {
		if f := genIntFact(g, n, k); f.Known() && f.Value > 0 {
			p.Topology.DevicesPerHost = f
		} else {
			p.Topology.DevicesPerHost = plan.Fact[int]{Key: k, Node: n}
		}
	}
}

func readGenericCheckpoint(p *plan.Plan, g genericReader) {
	secs := append(append([]string{}, genCkptSections...), genTrainSections...)
	if n, k := g.find(genCkptSections, false, "enable", "enabled", "enable_checkpoint", "save"); n != nil {
		if f := genBoolNode(g.root, n, k); f.Known() {
			p.Ckpt.Enabled = f
		}
	}
	if n, k := g.find(secs, true, "save_every_secs", "checkpoint_every_secs", "save_checkpoints_secs", "save_interval_seconds",
		"checkpoint_interval_seconds", "every_secs", "every_seconds", "interval_seconds", "save_every_minutes", "keep_checkpoint_every_n_hours"); n != nil && (genInSection(n, genCkptSections) || strings.Contains(genNormKey(n.Key), "save") || strings.Contains(genNormKey(n.Key), "checkpoint")) {
		f := genericInterval(g.root, n, k, plan.Seconds)
		if f.Known() {
			if v, ok := n.Float(); ok {
				switch {
				case strings.Contains(genNormKey(n.Key), "hour"):
					f.Value.Value = v * 3600
				case strings.Contains(genNormKey(n.Key), "min"):
					f.Value.Value = v * 60
				}
			}
		}
		p.Ckpt.Interval = f
	} else if n, k := g.find(secs, true, "save_every_steps", "checkpoint_every_steps", "save_steps", "save_interval", "checkpoint_interval",
		"save_every", "checkpoint_every", "checkpoint_factor", "ckpt_steps", "checkpoint_steps", "save_every_n_steps", "steps_per_checkpoint", "interval", "every_steps", "every_n_steps", "freq"); n != nil {
		key := genNormKey(n.Key)
		if genInSection(n, genCkptSections) || strings.Contains(key, "save") || strings.Contains(key, "checkpoint") || strings.Contains(key, "ckpt") {
			p.Ckpt.Interval = genericInterval(g.root, n, k, plan.Steps)
		}
	}
	if n, k := g.find(secs, true, "keep_best", "keep_best_n", "save_top_k", "keep_top_k", "best_k", "max_to_keep_best", "num_best"); n != nil {
		if f := genIntFact(g, n, k); f.Known() {
			if f.Value > 0 {
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepBest, N: f.Value}, k, n)
			}
		} else if b, ok := n.Bool(); ok && b {
			p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepBest, N: 1}, k, n)
		}
	}
	if n, k := g.find(secs, true, "best_metric", "monitor", "metric_for_best", "metric_for_best_model", "best_checkpoint_metric", "selection_metric"); n != nil {
		if f := genStrNode(g.root, n, k); f.Known() && f.Value != "" {
			p.Ckpt.BestMetric = f
			if !p.Ckpt.Retention.Known() {
				// A best metric without a count still keeps the best one (plus the latest).
				if kn, kk := g.find(secs, true, "keep", "keep_last", "max_to_keep", "keep_checkpoint_max", "keep_last_n", "keep_last_n_checkpoints", "keep_latest_k", "save_total_limit",
					"max_checkpoints_to_keep", "max_num_checkpoints_to_keep", "checkpoint_max_to_keep", "keep_latest", "keep_latest_n"); kn != nil {
					if f := genIntFact(g, kn, kk); f.Known() && f.Value > 0 {
						p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepBest, N: f.Value}, kk, kn)
					}
				}
			}
		}
	}
	if !p.Ckpt.Retention.Known() {
		if n, k := g.find(secs, true, "keep", "keep_last", "max_to_keep", "keep_checkpoint_max", "keep_last_n", "keep_last_n_checkpoints",
			"keep_latest_k", "max_checkpoints", "num_checkpoints_to_keep", "keep_n_checkpoints", "keep_checkpoints", "save_total_limit",
			// In-house spellings seen in JAX/TF trainers (MaxText max_num_checkpoints_to_keep, TF
			// Object Detection checkpoint_max_to_keep, dataclass configs' max_checkpoints_to_keep).
			"max_checkpoints_to_keep", "max_num_checkpoints_to_keep", "checkpoint_max_to_keep", "keep_latest", "keep_latest_n"); n != nil {
			f := genIntFact(g, n, k)
			switch {
			case !f.Known():
				if n.IsNull() {
					p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepAll}, k, n)
				} else {
					p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: k, Node: n}
				}
			case f.Value <= 0:
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepAll}, k, n)
			default:
				kind := plan.KeepLatest
				// The Trainer spelling keeps the best one too when it reloads the best at the end.
				if lb := g.child(n.Parent, "load_best_model_at_end"); lb != nil {
					if b, ok := lb.Bool(); ok && b {
						kind = plan.KeepBest
					}
				}
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: kind, N: f.Value}, k, n)
			}
		}
	}
	if n, k := g.find(secs, true, "checkpoint_all_hosts", "save_on_all_hosts", "save_on_each_node", "save_on_every_host", "checkpoint_on_all_hosts", "all_hosts", "save_all_hosts"); n != nil {
		if f := genBoolNode(g.root, n, k); f.Known() {
			sc := plan.PrimaryHost
			if f.Value {
				sc = plan.EveryHost
			}
			if f.Value || genInSection(n, genCkptSections) || strings.Contains(genNormKey(n.Key), "save") || strings.Contains(genNormKey(n.Key), "checkpoint") {
				p.Ckpt.Scope = plan.Set(sc, k, n)
			}
		}
	}
}

func readGenericLogging(p *plan.Plan, g genericReader) {
	secs := append(append([]string{}, genLogSections...), genTrainSections...)
	if n, k := g.find(secs, true, "log_all_hosts", "log_on_all_hosts", "log_on_every_host", "log_every_host", "log_on_all_ranks", "log_all_ranks"); n != nil {
		if f := genBoolNode(g.root, n, k); f.Known() {
			sc := plan.PrimaryHost
			if f.Value {
				sc = plan.EveryHost
				if strings.Contains(genNormKey(n.Key), "rank") {
					sc = plan.EveryRank
				}
			}
			p.Logging.Scope = plan.Set(sc, k, n)
		}
	}
	var trackers []string
	var at *doc.Node
	var key string
	add := func(name string, n *doc.Node, k string) {
		trackers = append(trackers, name)
		if at == nil {
			at, key = n, k
		}
	}
	for _, name := range []string{"wandb", "tensorboard", "mlflow", "comet", "neptune", "aim", "clearml"} {
		for _, flag := range []string{"use_" + name, "enable_" + name, name} {
			n, k := g.find(secs, true, flag)
			if n == nil {
				continue
			}
			if b, ok := n.Bool(); ok {
				if b {
					add(name, n, k)
				}
			} else if n.Kind == doc.Map {
				if e := genChild(n, "enabled"); e != nil {
					if b, ok := e.Bool(); ok && !b {
						continue
					}
				}
				add(name, n, k)
			}
			break
		}
	}
	for _, name := range []string{"wandb_project", "tensorboard_dir", "tensorboard_log_dir", "mlflow_tracking_uri"} {
		if n, k := g.find(secs, true, name); n != nil {
			if s, ok := n.Str(); ok && s != "" && !n.IsNull() {
				tr := strings.SplitN(name, "_", 2)[0]
				dup := false
				for _, t := range trackers {
					dup = dup || t == tr
				}
				if !dup {
					add(tr, n, k)
				}
			}
		}
	}
	if n, k := g.find(secs, true, "report_to", "trackers", "tracker", "loggers", "logger_name"); n != nil {
		switch n.Kind {
		case doc.Scalar:
			if s, ok := n.Str(); ok && s != "" && !n.IsNull() {
				add(s, n, k)
			}
		case doc.Seq:
			for _, it := range n.Children {
				if s, ok := it.Str(); ok && s != "" {
					add(s, n, k)
				}
			}
		}
	}
	if len(trackers) > 0 {
		p.Tracking.Trackers = plan.Set(trackers, key, at)
	}
	if n, k := g.find(append(secs, "job", "experiment"), true, "run_name", "experiment_name", "wandb_run_name", "name"); n != nil && (genNormKey(n.Key) != "name" || genInSection(n, []string{"job", "experiment", "run"})) {
		if f := genStrNode(g.root, n, k); f.Known() && f.Value != "" {
			p.Tracking.RunName = f
		}
	}
}

var genBnBackbone = lazyRegexp(`(?i)\b(resnet|resnext|wide_resnet|efficientnet|mobilenet|regnet|densenet|inception|vgg\d+_bn)`)

func readGenericBN(p *plan.Plan, g genericReader) {
	secs := []string{"model", "trainer", "train", "training", "distributed", "network", "net"}
	if n, k := g.find(secs, true, "sync_batchnorm", "sync_bn", "bn_sync", "syncbn", "sync_batch_norm", "use_sync_bn"); n != nil {
		if f := genBoolChoice(g.root, n, k, plan.BNSyncNone, plan.BNSyncPerStep); f.Known() {
			p.BN.Sync = f
		}
	}
	if n, k := g.find(secs, true, "norm", "norm_type", "normalization", "norm_layer"); n != nil {
		s, _ := n.Str()
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "batch", "batchnorm", "batch_norm", "bn", "batchnorm2d", "syncbn", "sync_bn":
			p.BN.Present = plan.Set(true, k, n)
			p.BN.Evidence = k + ": " + s
		case "layer", "layernorm", "layer_norm", "ln", "group", "groupnorm", "gn", "rmsnorm", "none", "instance":
			p.BN.Present = plan.Set(false, k, n)
		}
	}
	if !p.BN.Present.Known() {
		if n, k := g.find(secs, true, "backbone", "arch", "architecture", "model_name", "model_type", "name", "type"); n != nil {
			if s, ok := n.Str(); ok && genBnBackbone().MatchString(s) && (genNormKey(n.Key) != "name" && genNormKey(n.Key) != "type" || genInSection(n, []string{"model", "network", "net", "backbone"})) {
				p.BN.Present = plan.Set(true, k, n)
				p.BN.Evidence = "backbone " + s
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// torchtitan TOML (the TOML-config era; job_config.py @238fa99).

func isTorchtitan(d *doc.Document) bool {
	if d.Format != doc.TOML || d.Root == nil {
		return false
	}
	r := d.Root
	hits := 0
	for _, k := range []string{"job", "training", "parallelism", "checkpoint", "metrics", "model", "activation_checkpoint", "compile", "optimizer", "lr_scheduler", "validation"} {
		if r.Get(k) != nil {
			hits++
		}
	}
	return hits >= 3 && (r.Get("parallelism") != nil || r.At("model.flavor") != nil || r.At("job.dump_folder") != nil)
}

func readTorchtitan(p *plan.Plan, g genericReader) {
	r := g.root
	const note = "the torchtitan default (job_config.py @238fa99)"
	sec := func(name string) *doc.Node { return r.Get(name) }
	def := func(v int, key string, at *doc.Node) plan.Fact[int] { return plan.Defaulted(v, key, note, at) }

	if f, ok := genIntRef(r, "training.local_batch_size"); ok {
		p.Train.PerDeviceBatch = f
	} else if f, ok := genIntRef(r, "training.batch_size"); ok {
		p.Train.PerDeviceBatch = f
	} else {
		p.Train.PerDeviceBatch = def(8, "training.local_batch_size", sec("training"))
	}
	if f, ok := genIntRef(r, "training.steps"); ok {
		p.Train.MaxSteps = f
	} else {
		p.Train.MaxSteps = def(10000, "training.steps", sec("training"))
	}
	// [validation]
	if f, ok := genBoolRef(r, "validation.enable"); ok {
		p.Eval.Enabled = f
	} else {
		p.Eval.Enabled = plan.Defaulted(false, "validation.enable", note, sec("validation"))
	}
	if f, ok := genIntRef(r, "validation.freq"); ok {
		if f.Known() {
			p.Eval.Interval = plan.Set(plan.Interval{Value: float64(f.Value), Unit: plan.Steps, Text: f.Node.Value}, f.Key, f.Node)
		} else {
			p.Eval.Interval = plan.Fact[plan.Interval]{Key: f.Key, Node: f.Node}
		}
	} else if p.Eval.Enabled.Value {
		p.Eval.Interval = plan.Defaulted(plan.Interval{Value: 10, Unit: plan.Steps, Text: "10"}, "validation.freq", note, sec("validation"))
	}
	if f, ok := genIntRef(r, "validation.local_batch_size"); ok {
		p.Eval.PerDeviceBatch = f
	} else if p.Eval.Enabled.Value {
		p.Eval.PerDeviceBatch = def(8, "validation.local_batch_size", sec("validation"))
	}
	// [training.dataloader]
	if f, ok := genIntRef(r, "training.dataloader.num_workers"); ok {
		p.Data.Workers = f
	} else {
		at := r.At("training.dataloader")
		if at == nil {
			at = sec("training") // point at [training] rather than line 1 when there is no loader table
		}
		p.Data.Workers = def(0, "training.dataloader.num_workers", at)
	}
	if f, ok := genIntRef(r, "training.dataloader.prefetch_factor"); ok {
		p.Data.Prefetch = f
	} else if p.Data.Workers.Known() && p.Data.Workers.Value == 0 {
		p.Data.Prefetch = plan.Defaulted(0, "training.dataloader.prefetch_factor", "the torchtitan default (none without workers)", r.At("training.dataloader"))
	}
	p.Data.Sharding = plan.Defaulted(plan.GlobalIndexSampler, "training.dataset", "the torchtitan default (the dataset is split by data-parallel rank)", nil)
	// [checkpoint]
	if f, ok := genBoolRef(r, "checkpoint.enable"); ok {
		p.Ckpt.Enabled = f
	} else if f, ok := genBoolRef(r, "checkpoint.enable_checkpoint"); ok {
		p.Ckpt.Enabled = f
	} else {
		p.Ckpt.Enabled = plan.Defaulted(false, "checkpoint.enable", note, sec("checkpoint"))
	}
	if f, ok := genIntRef(r, "checkpoint.interval"); ok {
		if f.Known() {
			p.Ckpt.Interval = plan.Set(plan.Interval{Value: float64(f.Value), Unit: plan.Steps, Text: f.Node.Value}, f.Key, f.Node)
		}
	} else {
		p.Ckpt.Interval = plan.Defaulted(plan.Interval{Value: 500, Unit: plan.Steps, Text: "500"}, "checkpoint.interval", note, sec("checkpoint"))
	}
	if f, ok := genIntRef(r, "checkpoint.keep_latest_k"); ok {
		if f.Known() {
			if f.Value <= 0 {
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepAll}, f.Key, f.Node)
			} else {
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepLatest, N: f.Value}, f.Key, f.Node)
			}
		}
	} else {
		p.Ckpt.Retention = plan.Defaulted(plan.Retention{Kind: plan.KeepLatest, N: 10}, "checkpoint.keep_latest_k", note, sec("checkpoint"))
	}
	p.Ckpt.Scope = plan.Defaulted(plan.Sharded, "checkpoint", "the torchtitan default (torch.distributed.checkpoint writes coordinated shards)", sec("checkpoint"))
	// [metrics]
	if f, ok := genBoolRef(r, "metrics.save_for_all_ranks"); ok {
		if f.Known() {
			sc := plan.PrimaryHost
			if f.Value {
				sc = plan.EveryRank
			}
			p.Logging.Scope = plan.Set(sc, f.Key, f.Node)
		}
	} else {
		p.Logging.Scope = plan.Defaulted(plan.PrimaryHost, "metrics.save_for_all_ranks", "the torchtitan default (false: rank 0 only)", sec("metrics"))
	}
	var tr []string
	var at *doc.Node
	for _, t := range []string{"tensorboard", "wandb"} {
		if f, ok := genBoolRef(r, "metrics.enable_"+t); ok && f.Known() && f.Value {
			tr = append(tr, t)
			if at == nil {
				at = f.Node
			}
		}
	}
	if len(tr) > 0 {
		p.Tracking.Trackers = plan.Set(tr, "metrics", at)
	} else {
		p.Tracking.Trackers = plan.Defaulted([]string{}, "metrics.enable_wandb", "the torchtitan default (no tracker enabled)", sec("metrics"))
	}
	if n := r.At("debug.seed"); n != nil {
		p.Seeds.Init = genSeedNode(r, n, "debug.seed")
	} else if n := r.At("training.seed"); n != nil {
		p.Seeds.Init = genSeedNode(r, n, "training.seed")
	}
}

// ---------------------------------------------------------------------------------------------
// GPT-NeoX: JSON-style YAML with Megatron and DeepSpeed keys; dashes and underscores mix.

func isNeoX(root *doc.Node) bool {
	hits := 0
	for _, k := range []string{"pipe_parallel_size", "model_parallel_size", "num_layers", "hidden_size", "num_attention_heads",
		"seq_length", "max_position_embeddings", "pos_emb", "train_iters", "checkpoint_factor", "norm", "tokenizer_type"} {
		if genChild(root, k) != nil {
			hits++
		}
	}
	return hits >= 3
}

// ---------------------------------------------------------------------------------------------
// [mapping]: a team's own key names for the concepts above.

func genApplyMapping(p *plan.Plan, root *doc.Node, m map[string]string) {
	if root == nil || len(m) == 0 {
		return
	}
	concepts := make([]string, 0, len(m))
	for c := range m {
		concepts = append(concepts, c)
	}
	sort.Strings(concepts) // deterministic when two concepts touch one field
	for _, c := range concepts {
		path := m[c]
		n := root.At(path)
		if n == nil {
			continue
		}
		switch c {
		case "train.batch_size":
			p.Train.PerDeviceBatch = genIntNode(root, n, path)
		case "train.global_batch_size":
			p.Train.GlobalBatch = genIntNode(root, n, path)
		case "train.grad_accum":
			p.Train.GradAccum = genIntNode(root, n, path)
		case "train.max_steps":
			p.Train.MaxSteps = genIntNode(root, n, path)
		case "train.time_budget_seconds":
			p.Train.TimeBudget = genericInterval(root, n, path, plan.Seconds)
		case "eval.enabled":
			p.Eval.Enabled = genBoolNode(root, n, path)
		case "eval.interval":
			p.Eval.Interval = genericInterval(root, n, path, plan.Steps)
		case "eval.interval_steps":
			p.Eval.Interval = genericInterval(root, n, path, plan.Steps)
		case "eval.interval_epochs":
			p.Eval.Interval = genericInterval(root, n, path, plan.Epochs)
		case "eval.interval_seconds":
			p.Eval.Interval = genericInterval(root, n, path, plan.Seconds)
		case "eval.batch_size":
			p.Eval.PerDeviceBatch = genIntNode(root, n, path)
		case "eval.global_batch_size":
			p.Eval.GlobalBatch = genIntNode(root, n, path)
		case "eval.drop_last":
			p.Eval.DropLast = genBoolNode(root, n, path)
		case "seed.init":
			p.Seeds.Init = genSeedNode(root, n, path)
		case "seed.data":
			p.Seeds.Data = genSeedNode(root, n, path)
		case "data.workers":
			p.Data.Workers = genIntNode(root, n, path)
		case "data.prefetch":
			p.Data.Prefetch = genIntNode(root, n, path)
		case "data.per_host_shards":
			p.Data.Sharding = plan.Fact[plan.Sharding]{Key: path, Node: n}
			if f := genBoolNode(root, n, path); f.Known() {
				s := plan.GlobalIndexSampler
				if f.Value {
					s = plan.PerHostStream
				}
				p.Data.Sharding = plan.Set(s, path, n)
			}
		case "hosts":
			p.Topology.Hosts = genPositive(genIntNode(root, n, path))
		case "devices_per_host":
			p.Topology.DevicesPerHost = genPositive(genIntNode(root, n, path))
		case "checkpoint.enabled":
			p.Ckpt.Enabled = genBoolNode(root, n, path)
		case "checkpoint.interval_steps":
			p.Ckpt.Interval = genericInterval(root, n, path, plan.Steps)
		case "checkpoint.interval_seconds":
			p.Ckpt.Interval = genericInterval(root, n, path, plan.Seconds)
		case "checkpoint.keep":
			p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: path, Node: n}
			if f := genIntNode(root, n, path); f.Known() {
				r := plan.Retention{Kind: plan.KeepLatest, N: f.Value}
				if f.Value <= 0 {
					r = plan.Retention{Kind: plan.KeepAll}
				}
				p.Ckpt.Retention = plan.Set(r, path, n)
			}
		case "checkpoint.keep_best":
			p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: path, Node: n}
			if f := genIntNode(root, n, path); f.Known() && f.Value > 0 {
				p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepBest, N: f.Value}, path, n)
			}
		case "checkpoint.best_metric":
			p.Ckpt.BestMetric = genStrNode(root, n, path)
		case "checkpoint.all_hosts":
			p.Ckpt.Scope = genBoolChoice(root, n, path, plan.PrimaryHost, plan.EveryHost)
		case "logging.all_hosts":
			p.Logging.Scope = genBoolChoice(root, n, path, plan.PrimaryHost, plan.EveryHost)
		case "bn.sync":
			p.BN.Sync = genBoolChoice(root, n, path, plan.BNSyncNone, plan.BNSyncPerStep)
		case "trackers":
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
		case "run_name":
			p.Tracking.RunName = genStrNode(root, n, path)
		}
	}
}

// genericKeys documents the spellings the generic dialect understands (top level or under the
// usual sections). Defaults are empty: generic assumes none, except the torchtitan variant.
var genericKeys = []Key{
	{Path: "per_device_batch_size", Type: "integer", Concept: "train.per_device_batch", Doc: "per-device train batch (also micro_batch_size, local_batch_size, train_micro_batch_size_per_gpu)"},
	{Path: "global_batch_size", Type: "integer", Concept: "train.global_batch", Doc: "examples per optimizer step across all devices (also total_batch_size)"},
	{Path: "train.batch_size", Type: "integer", Concept: "train.per_device_batch", Doc: "train batch of unstated granularity: compared only with eval.batch_size"},
	{Path: "eval.batch_size", Type: "integer", Concept: "eval.per_device_batch", Doc: "eval batch of unstated granularity: compared only with train.batch_size (also eval_batch_size beside batch_size)"},
	{Path: "per_device_eval_batch_size", Type: "integer", Concept: "eval.per_device_batch", Doc: "per-device eval batch"},
	{Path: "gradient_accumulation_steps", Type: "integer", Concept: "train.grad_accum", Doc: "gradient-accumulation steps (also grad_accum_steps)"},
	{Path: "max_steps", Type: "integer", Concept: "train.max_steps", Doc: "training length in steps (also train_steps, train_iters, total_steps)"},
	{Path: "max_time", Type: "number|string", Concept: "train.time_budget", Doc: "wall-clock budget of the run"},
	{Path: "eval_every_steps", Type: "integer", Concept: "eval.interval", Doc: "eval interval in steps (also every_steps in an eval section, eval_freq)"},
	{Path: "eval_interval", Type: "integer|string", Concept: "eval.interval", Doc: "eval interval: a number is steps unless a unit key says otherwise; \"30m\" is wall-clock time"},
	{Path: "eval_every", Type: "integer|string", Concept: "eval.interval", Doc: "eval interval: a number is steps; duration strings (\"30m\", \"1h\", \"90s\") are wall-clock time"},
	{Path: "eval_every_secs", Type: "number", Concept: "eval.interval", Doc: "eval interval in seconds (also eval_interval_seconds, eval_throttle_secs, every_secs)"},
	{Path: "eval.enabled", Type: "boolean", Concept: "eval.enabled", Doc: "periodic evaluation on/off (also do_eval)"},
	{Path: "eval.drop_last", Type: "boolean", Concept: "eval.drop_last", Doc: "the partial last eval batch is dropped (also drop_remainder)"},
	{Path: "seed", Type: "integer|string", Concept: "seeds.init", Doc: "model seed (also init_seed, model_seed); rank-derived expressions vary by host"},
	{Path: "data_seed", Type: "integer|string", Concept: "seeds.data", Doc: "data shuffling seed (also shuffle_seed, data.seed)"},
	{Path: "num_workers", Type: "integer", Concept: "data.workers", Doc: "background loader workers"},
	{Path: "prefetch", Type: "integer", Concept: "data.prefetch", Doc: "prefetch depth (also prefetch_factor, prefetch_buffer_size)"},
	{Path: "shard_by_host", Type: "boolean", Concept: "data.sharding", Doc: "true: each host reads its own shuffled stream (also per_host_shards, shard_files)"},
	{Path: "sampler", Type: "string", Concept: "data.sharding", Doc: "\"distributed\": a global-index sampler split by rank"},
	{Path: "num_hosts", Type: "integer", Concept: "topology.hosts", Doc: "hosts (also hosts, num_nodes, nnodes)"},
	{Path: "devices_per_host", Type: "integer", Concept: "topology.devices_per_host", Doc: "devices per host (also devices, gpus_per_node, nproc_per_node)"},
	{Path: "checkpoint.keep", Type: "integer", Concept: "ckpt.retention", Doc: "keep the latest N checkpoints (also keep_last, max_to_keep, keep_checkpoint_max, keep_last_n_checkpoints)"},
	{Path: "checkpoint.keep_best", Type: "integer", Concept: "ckpt.retention", Doc: "keep the best N checkpoints (also keep_best_n, save_top_k)"},
	{Path: "checkpoint.best_metric", Type: "string", Concept: "ckpt.best_metric", Doc: "metric that ranks checkpoints (also monitor)"},
	{Path: "save_every_steps", Type: "integer|string", Concept: "ckpt.interval", Doc: "checkpoint interval in steps (also checkpoint.interval, save_every, save_steps, checkpoint_factor); *_secs keys are time"},
	{Path: "checkpoint_all_hosts", Type: "boolean", Concept: "ckpt.scope", Doc: "true: every host writes full checkpoints (also save_on_all_hosts)"},
	{Path: "log_all_hosts", Type: "boolean", Concept: "logging.scope", Doc: "true: every host writes metrics/log files (also log_on_all_hosts)"},
	{Path: "sync_batchnorm", Type: "boolean", Concept: "bn.sync", Doc: "cross-device batch norm (also sync_bn, bn_sync)"},
	{Path: "norm", Type: "string", Concept: "bn.present", Doc: "batch/batchnorm/bn: batch norm is in use"},
	{Path: "backbone", Type: "string", Concept: "bn.present", Doc: "resnet*, efficientnet*, mobilenet*...: a batch-norm backbone"},
	// torchtitan (variant "torchtitan"; its defaults apply).
	{Path: "training.local_batch_size", Type: "integer", Default: "8", Concept: "train.per_device_batch", Doc: "torchtitan per-device batch"},
	{Path: "training.global_batch_size", Type: "integer", Default: "-1", Concept: "train.global_batch", Doc: "torchtitan global batch; -1 = local × data-parallel degree"},
	{Path: "training.steps", Type: "integer", Default: "10000", Concept: "train.max_steps", Doc: "torchtitan training steps"},
	{Path: "validation.enable", Type: "boolean", Default: "false", Concept: "eval.enabled", Doc: "torchtitan periodic validation"},
	{Path: "validation.freq", Type: "integer", Default: "10", Concept: "eval.interval", Doc: "torchtitan validation interval in steps"},
	{Path: "validation.local_batch_size", Type: "integer", Default: "8", Concept: "eval.per_device_batch", Doc: "torchtitan per-device validation batch"},
	{Path: "training.dataloader.num_workers", Type: "integer", Default: "0", Concept: "data.workers", Doc: "torchtitan loader workers"},
	{Path: "training.dataloader.prefetch_factor", Type: "integer", Default: "none", Concept: "data.prefetch", Doc: "torchtitan prefetch factor (needs workers > 0)"},
	{Path: "checkpoint.enable", Type: "boolean", Default: "false", Concept: "ckpt.enabled", Doc: "torchtitan checkpointing"},
	{Path: "checkpoint.interval", Type: "integer", Default: "500", Concept: "ckpt.interval", Doc: "torchtitan checkpoint interval in steps"},
	{Path: "checkpoint.keep_latest_k", Type: "integer", Default: "10", Concept: "ckpt.retention", Doc: "torchtitan: keep the latest K checkpoints; 0 = all"},
	{Path: "metrics.save_for_all_ranks", Type: "boolean", Default: "false", Concept: "logging.scope", Doc: "torchtitan: every rank writes metrics"},
	{Path: "metrics.enable_wandb", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "torchtitan W&B logging"},
	{Path: "metrics.enable_tensorboard", Type: "boolean", Default: "false", Concept: "tracking.trackers", Doc: "torchtitan TensorBoard logging"},
	{Path: "debug.seed", Type: "integer", Default: "none", Concept: "seeds.init", Doc: "torchtitan seed (older: training.seed)"},
	// GPT-NeoX spellings (dashes and underscores are interchangeable).
	{Path: "train_micro_batch_size_per_gpu", Type: "integer", Concept: "train.per_device_batch", Doc: "GPT-NeoX/DeepSpeed micro batch per GPU"},
	{Path: "keep_last_n_checkpoints", Type: "integer", Concept: "ckpt.retention", Doc: "GPT-NeoX: keep the latest N checkpoints"},
	{Path: "checkpoint_factor", Type: "integer", Concept: "ckpt.interval", Doc: "GPT-NeoX save interval in iterations"},
}
