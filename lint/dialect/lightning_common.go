package dialect

// Readers shared by the Lightning and NeMo dialects. NeMo 1.x hands its `trainer:` section to a
// Lightning Trainer and its checkpoint_callback_params to a ModelCheckpoint subclass, so both
// dialects read those keys with the same semantics.
//
// Verified against Lightning-AI/pytorch-lightning @7f0c343 (2.6.x, version.info 2.6.2):
//   - src/lightning/pytorch/trainer/trainer.py: Trainer.__init__ defaults (num_nodes 1, devices
//     "auto", sync_batchnorm False, check_val_every_n_epoch 1, accumulate_grad_batches 1,
//     val_check_interval/limit_val_batches None → 1.0, max_time None, enable_checkpointing None
//     → True, logger None → True, use_distributed_sampler True).
//   - trainer/setup.py: an int val_check_interval counts training batches, a float in [0, 1] is a
//     fraction of the epoch, a float > 1 with no fraction is an int; a str, dict or timedelta is
//     wall-clock time (_parse_time_interval_seconds accepts only "DD:HH:MM:SS" strings and dicts
//     of timedelta kwargs). CHANGELOG 2.6.0: "Added time-based validation support though
//     val_check_interval (#21071)".
//   - callbacks/timer.py: max_time strings must match (\d+):(\d\d):(\d\d):(\d\d).
//   - callbacks/model_checkpoint.py: save_top_k 1, monitor None ("saves a checkpoint only for
//     the last epoch": each save removes the previous one), -1 keeps all, 0 none; monitor None
//     with save_top_k other than -1/0/1 raises; every_n_epochs = 1 when all three triggers are
//     None.
//   - strategies/strategy.py: save_checkpoint writes only when is_global_zero.
//   - trainer/connectors/data_connector.py: DistributedSampler seed = PL_GLOBAL_SEED or 0.

import (
	"math"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

const lightningVersion = "2.6"

// lightningDefault is the note of a fact that holds a Lightning default.
var lightningDefault = plan.Why{By: "the Lightning default", Note: lightningVersion}

// lightningAdvice is how to fix findings in a Lightning Trainer's arguments (Lightning, and NeMo
// which hands its trainer: section to one), after the dialect's own advice, which takes
// precedence for a concept both give.
func lightningAdvice(own AdviceSet) AdviceSet {
	m := append(AdviceSet(nil), own...)
	for _, a := range lightningTrainerAdvice {
		if _, ok := own.Lookup(a.Concept); !ok {
			m = append(m, a)
		}
	}
	return m
}

var lightningTrainerAdvice = AdviceSet{
	{"bn.sync", Advice{
		Help: "set {key}: true, or average the running statistics across devices before each evaluation and checkpoint",
		Key:  "trainer.sync_batchnorm",
		Doc:  "`trainer.sync_batchnorm: true`.",
	}},
	{"bn.per_step", Advice{Help: "set {key}: true", Key: "trainer.sync_batchnorm", Doc: "`trainer.sync_batchnorm: true`."}},
	{"ckpt.retention", Advice{
		Help: "give the checkpoint callback a monitor (e.g. val_loss) and mode so save_top_k keeps the best checkpoints (with none in trainer.callbacks, add one: the ModelCheckpoint the Trainer or anomalib's Engine adds has no monitor)",
		Doc:  "give `ModelCheckpoint` a `monitor` (and `mode`) so `save_top_k` keeps the best k; with no\n  `ModelCheckpoint` in `trainer.callbacks`, add one (the Trainer's default and anomalib's Engine's have no monitor).",
	}},
	{"ckpt.direction", Advice{
		Help: `set {key} to "min" for a loss or error rate and "max" for a score (the default is "min")`,
		Key:  "mode",
		Doc:  "`mode: min` for a loss or error rate, `mode: max` for a score (the default is `min`).",
	}},
	{"ckpt.enabled", Advice{
		Help: "remove {key}: false (a ModelCheckpoint is then added) and give the checkpoint callback a monitor",
		Key:  "trainer.enable_checkpointing",
		Doc:  "remove `trainer.enable_checkpointing: false`, and give `ModelCheckpoint` a `monitor`.",
	}},
	{"eval.enabled", Advice{
		Help: "remove {key} 0 (or set it above 0) and give the module a validation dataloader",
		Doc:  "`trainer.limit_val_batches` above 0 (or unset), with a validation dataloader.",
	}},
	{"precision", Advice{
		Help: `Lightning adds the mode of trainer.precision to the DeepSpeed config, and DeepSpeed refuses both: "bfloat16 and fp16 modes cannot be simultaneously enabled"`,
		Doc:  "`trainer.precision` matching the DeepSpeed config's `fp16`/`bf16` section (Lightning adds the\n  precision's mode to the config; DeepSpeed refuses both).",
	}},
	{"ckpt.interval", Advice{
		Help: "replace {key} with every_n_train_steps equal to the validation interval (the three are mutually exclusive)",
		Doc:  "`every_n_train_steps` equal to `val_check_interval` instead of `train_time_interval` (ModelCheckpoint\n  accepts only one of the three).",
	}},
	{"eval.interval", Advice{
		Help: "set {key} to a number of training batches (e.g. 1000), with check_val_every_n_epoch: null if that is longer than an epoch, so every run is evaluated at the same steps",
		Key:  "val_check_interval",
		Doc:  "`trainer.val_check_interval: 1000` (an int counts training batches); set\n  `trainer.check_val_every_n_epoch: null` when the interval is longer than an epoch.",
	}},
	{"seeds.init", Advice{
		Doc: "a literal seed (`seed: 1234`) rather than `${oc.env:RANK}` or a rank expression.",
	}},
}

// joinKey spells a key under a section: "trainer" + "devices" → "trainer.devices"; the root
// section has an empty prefix.
func joinKey(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// sectionKey is the path of a section node as messages spell it ("" for the root).
func sectionKey(n *doc.Node) string {
	if n == nil {
		return ""
	}
	return n.Path().String()
}

// keyOf is the key path of a node, or prefix.key when the node is absent.
func keyOf(n *doc.Node, prefix, key string) string {
	if n != nil && n.Depth() > 0 {
		return n.Path().String()
	}
	return joinKey(prefix, key)
}

// durationFact reads a time value (string, dict) at n as an Interval in seconds.
func durationFact(n *doc.Node, key string) (plan.Fact[plan.Interval], bool) {
	if n == nil {
		return plan.Fact[plan.Interval]{}, false
	}
	switch n.Kind {
	case doc.Map:
		secs, text, ok, complete := timedeltaMap(n)
		if !ok {
			return plan.Fact[plan.Interval]{Key: key, Node: n}, true
		}
		if !complete {
			return plan.Fact[plan.Interval]{Key: key, Node: n, Note: "a time interval with unresolved components " + text}, true
		}
		return plan.Set(plan.Interval{Value: secs, Unit: plan.Seconds, Text: text}, key, n), true
	case doc.Scalar:
		if n.Type != doc.String {
			return plan.Fact[plan.Interval]{Key: key, Node: n}, true
		}
		// Lightning's Timer reads "DD:HH:MM:SS"; "HH:MM:SS" reads as a time but is rejected at
		// start-up. Other spellings are not durations to Lightning.
		secs, form, ok := durationSeconds(n.Value)
		strict := form == formClockDays
		if !ok || (form != formClockDays && form != formClock) {
			return plan.Fact[plan.Interval]{Key: key, Node: n}, true
		}
		f := plan.Set(plan.Interval{Value: secs, Unit: plan.Seconds, Text: n.Value}, key, n)
		if !strict {
			f.Note = "Lightning expects \"DD:HH:MM:SS\"; this spelling is rejected at start-up"
		}
		return f, true
	}
	return plan.Fact[plan.Interval]{Key: key, Node: n}, true
}

// lightningTrainerKeys are Trainer arguments that hardly any other framework spells the same
// way under a `trainer:` section (strong evidence), and weaker ones shared with other tools.
var lightningTrainerStrong = []string{
	"val_check_interval", "check_val_every_n_epoch", "limit_train_batches", "limit_val_batches",
	"limit_test_batches", "limit_predict_batches", "fast_dev_run", "overfit_batches",
	"accumulate_grad_batches", "gradient_clip_val", "gradient_clip_algorithm", "sync_batchnorm",
	"enable_checkpointing", "log_every_n_steps", "num_sanity_val_steps", "detect_anomaly",
	"enable_progress_bar", "enable_model_summary", "reload_dataloaders_every_n_epochs",
	"use_distributed_sampler", "replace_sampler_ddp", "default_root_dir", "max_time",
	"inference_mode", "barebones",
}

var lightningTrainerWeak = []string{
	"max_epochs", "min_epochs", "max_steps", "min_steps", "accelerator", "devices", "num_nodes",
	"strategy", "precision", "profiler", "deterministic", "benchmark", "callbacks", "logger",
	"plugins", "gpus",
}

// trainerArgScore scores how much a map looks like Lightning Trainer arguments.
func trainerArgScore(sec *doc.Node, strongPts, weakPts int) int {
	if !isMap(sec) {
		return 0
	}
	// The names have no dots, so Score's path lookup reads direct children of sec.
	return scoreSets(sec, lightningTrainerStrongSet(), strongPts, lightningTrainerWeakSet(), weakPts)
}

// ckptDefaults are the defaults of a checkpoint callback's parameters: Lightning's
// ModelCheckpoint, or NeMo's CallbackParams dataclass (which changes several of them).
type ckptDefaults struct {
	saveTopK     int
	monitor      string // "" = None
	everyNEpochs int    // the effective value when no trigger is given
	note         plan.Why
}

// readEvalInterval fills Eval.Interval from a Lightning trainer section: val_check_interval
// (int batches, float epoch fraction, time string/dict) and check_val_every_n_epoch.
func readEvalInterval(p *plan.Plan, root, tr *doc.Node, prefix string, note plan.Why) {
	vci := tr.Get("val_check_interval")
	cve := tr.Get("check_val_every_n_epoch")
	vKey := keyOf(vci, prefix, "val_check_interval")
	cKey := keyOf(cve, prefix, "check_val_every_n_epoch")

	// The epoch cadence: check_val_every_n_epoch (default 1; null = purely step-based).
	epochs, epochsKnown, epochsNull := 1, true, false
	if cve != nil {
		switch {
		case cve.IsNull():
			epochsNull = true
		default:
			if v, ok := intValue(cve); ok && v >= 1 {
				epochs = v
			} else {
				epochsKnown = false
			}
		}
	}
	epochFact := func() plan.Fact[plan.Interval] {
		iv := plan.Interval{Value: float64(epochs), Unit: plan.Epochs}
		switch {
		case !epochsKnown:
			return plan.Fact[plan.Interval]{Key: cKey, Node: cve}
		case epochsNull:
			// A float/absent val_check_interval with check_val_every_n_epoch: null is a
			// configuration error in Lightning: no interval can be derived.
			return plan.Fact[plan.Interval]{Key: cKey, Node: cve, Note: "check_val_every_n_epoch: null needs an integer val_check_interval"}
		case cve != nil:
			return plan.Set(iv, cKey, cve)
		}
		return plan.Defaulted(iv, vKey, note.Plus("validate at the end of every epoch"), vci)
	}

	if vci == nil || vci.IsNull() {
		p.Eval.Interval = epochFact()
		return
	}
	n, via := resolveRef(root, vci)
	withVia := func(f plan.Fact[plan.Interval]) plan.Fact[plan.Interval] {
		if via != "" && f.Note == "" {
			f.Note = viaNote(via)
		}
		f.Key, f.Node = vKey, vci
		return f
	}
	if n == nil {
		p.Eval.Interval = plan.Fact[plan.Interval]{Key: vKey, Node: vci}
		return
	}
	switch {
	case n.Kind == doc.Map:
		f, _ := durationFact(n, vKey)
		if f.Known() && f.Note == "" {
			f.Note = "time-based validation needs Lightning 2.6+ (#21071)"
		}
		p.Eval.Interval = withVia(f)
	case n.Kind != doc.Scalar:
		p.Eval.Interval = plan.Fact[plan.Interval]{Key: vKey, Node: vci}
	case n.Type == doc.Int:
		v, ok := intValue(n)
		if !ok || v < 1 {
			p.Eval.Interval = plan.Fact[plan.Interval]{Key: vKey, Node: vci}
			return
		}
		f := plan.Set(plan.Interval{Value: float64(v), Unit: plan.Steps, Text: n.Value}, vKey, vci)
		if cve != nil && epochsKnown && !epochsNull && epochs > 1 {
			f.Note = "counted within epochs validated every " + strconv.Itoa(epochs) + " epochs (" + cKey + ": " + cve.Value + ")"
		}
		p.Eval.Interval = withVia(f)
	case n.Type == doc.Float:
		v, _ := n.Float()
		switch {
		case v == 1.0:
			// 1.0 = the end of every (check_val_every_n_epoch-th) epoch.
			f := epochFact()
			if f.Known() {
				f = plan.Set(f.Value, vKey, vci)
				if cve != nil && epochsKnown && !epochsNull {
					f.Note = "with " + cKey + ": " + cve.Value
				}
			}
			p.Eval.Interval = withVia(f)
		case v > 0 && v < 1:
			p.Eval.Interval = withVia(plan.Set(plan.Interval{Value: v, Unit: plan.EpochFraction, Text: n.Value}, vKey, vci))
		case v > 1 && v == math.Trunc(v) && v < 1<<31:
			p.Eval.Interval = withVia(plan.Set(plan.Interval{Value: v, Unit: plan.Steps, Text: n.Value}, vKey, vci))
		default:
			p.Eval.Interval = plan.Fact[plan.Interval]{Key: vKey, Node: vci}
		}
	case n.Type == doc.String && !n.Quoted && sexagesimal60(n.Value):
		// PyYAML (behind jsonargparse and OmegaConf) follows YAML 1.1, where an unquoted
		// 1:00:00:00 is the base-60 integer 216000: Lightning then counts batches, not time.
		v := sexagesimal(n.Value)
		f := plan.Set(plan.Interval{Value: float64(v), Unit: plan.Steps, Text: n.Value}, vKey, vci)
		f.Note = "YAML 1.1 reads unquoted " + n.Value + " as the base-60 integer " + strconv.Itoa(v) + ", a batch count; quote it for a duration"
		p.Eval.Interval = withVia(f)
	case n.Type == doc.String:
		f, _ := durationFact(n, vKey)
		if f.Known() && f.Note == "" {
			f.Note = "time-based validation needs Lightning 2.6+ (#21071)"
		}
		p.Eval.Interval = withVia(f)
	default:
		p.Eval.Interval = plan.Fact[plan.Interval]{Key: vKey, Node: vci}
	}
}

// readTopology fills hosts and devices per host from trainer.num_nodes and trainer.devices.
// An absent num_nodes stays Unknown: configs commonly leave the node count to the launcher.
func readTopology(p *plan.Plan, root, tr *doc.Node, prefix string) {
	nn := tr.Get("num_nodes")
	p.Topology.Hosts = intFact(root, tr, prefix, "num_nodes", 0, false, plan.Because(""))
	if f := p.Topology.Hosts; f.Known() && f.Value < 1 {
		p.Topology.Hosts = plan.Fact[int]{Key: f.Key, Node: nn}
	}
	dn := tr.Get("devices")
	dk := keyOf(dn, prefix, "devices")
	p.Topology.DevicesPerHost = plan.Fact[int]{Key: dk, Node: dn}
	if dn == nil {
		return
	}
	r, _ := resolveRef(root, dn)
	switch {
	case r == nil:
	case r.Kind == doc.Seq:
		if len(r.Children) > 0 {
			p.Topology.DevicesPerHost = plan.Set(len(r.Children), dk, dn)
		}
	case r.Kind == doc.Scalar && r.Type == doc.Int:
		if v, ok := intValue(r); ok && v >= 1 {
			p.Topology.DevicesPerHost = plan.Set(v, dk, dn)
		}
	case r.Kind == doc.Scalar && r.Type == doc.String:
		// "0,1,3" lists device indices; "2" is a count; "-1" and "auto" are decided at run time.
		s := strings.TrimSpace(r.Value)
		if strings.Contains(s, ",") {
			cnt := 0
			for _, part := range strings.Split(s, ",") {
				if strings.TrimSpace(part) != "" {
					cnt++
				}
			}
			if cnt > 0 {
				p.Topology.DevicesPerHost = plan.Set(cnt, dk, dn)
			}
		} else if v, err := strconv.Atoi(s); err == nil && v >= 1 {
			p.Topology.DevicesPerHost = plan.Set(v, dk, dn)
		}
	}
}

// readTimeBudget reads trainer.max_time as a wall-clock budget.
func readTimeBudget(p *plan.Plan, tr *doc.Node, prefix string) {
	n := tr.Get("max_time")
	if n == nil || n.IsNull() {
		return
	}
	f, _ := durationFact(n, keyOf(n, prefix, "max_time"))
	p.Train.TimeBudget = f
}

// readRunLength reads max_steps as the step budget and, with none, a max_epochs the file sets
// (fit_loop.py:187-193 @2.6.0: done at max_epochs; max_time's Timer may stop it earlier); one
// written but not known here is an unknown fact with its node.
func readRunLength(p *plan.Plan, root, tr *doc.Node, prefix string) {
	p.Train.MaxSteps = stepBudget(intFact(root, tr, prefix, "max_steps", 0, false, plan.Because("")))
	if p.Train.MaxSteps.Known() || p.Train.MaxSteps.Node != nil {
		return
	}
	ep := intFact(root, tr, prefix, "max_epochs", 0, false, plan.Because(""))
	switch {
	case ep.Known() && ep.Value > 0:
		p.Train.Epochs = plan.Fact[float64]{Value: float64(ep.Value), Origin: ep.Origin, Key: ep.Key, Node: ep.Node}
	case !ep.Known() && ep.Node != nil && !ep.Node.IsNull():
		p.Train.Epochs = plan.Fact[float64]{Key: ep.Key, Node: ep.Node}
	}
}

// readCheckpointParams fills the checkpoint facts from a ModelCheckpoint's parameters (params
// may be nil: every parameter takes its default, located at at).
func readCheckpointParams(p *plan.Plan, root, params *doc.Node, prefix string, at *doc.Node, d ckptDefaults) {
	get := func(k string) *doc.Node { return params.Get(k) }

	// Monitor.
	monN := get("monitor")
	monKey := keyOf(monN, prefix, "monitor")
	monitor, monKnown, monExplicit := d.monitor, true, false
	if monN != nil && !monN.IsNull() {
		if s, ok := strValue(monN); ok {
			monitor, monExplicit = s, true
		} else {
			monKnown = false
		}
	} else if monN != nil && monN.IsNull() {
		monitor, monExplicit = "", true
	}
	switch {
	case !monKnown:
		p.Ckpt.BestMetric = plan.Fact[string]{Key: monKey, Node: monN}
	case monitor == "":
		// No metric: nothing to select the best by (an empty explicit value still says so).
		if monExplicit {
			p.Ckpt.BestMetric = plan.Set("", monKey, monN)
		} else {
			p.Ckpt.BestMetric = plan.Defaulted("", monKey, d.note.Plus("no monitor"), at)
		}
	case monExplicit:
		p.Ckpt.BestMetric = plan.Set(monitor, monKey, monN)
	default:
		p.Ckpt.BestMetric = plan.Defaulted(monitor, monKey, d.note, at)
	}

	// Direction: mode "min" (the default, callbacks/model_checkpoint.py ModelCheckpoint.__init__
	// at @7f0c343; NeMo's checkpoint_callback_params keep it) or "max".
	if monKnown && monitor != "" {
		modeN := get("mode")
		modeKey := keyOf(modeN, prefix, "mode")
		switch {
		case modeN == nil || modeN.IsNull():
			p.Ckpt.HigherIsBetter = plan.Defaulted(false, modeKey, d.note.Plus(`mode "min"`), at)
		default:
			r, _ := resolveRef(root, modeN)
			if s, ok := strValue(r); ok && (s == "min" || s == "max") {
				p.Ckpt.HigherIsBetter = plan.Set(s == "max", modeKey, modeN)
			} else {
				p.Ckpt.HigherIsBetter = plan.Fact[bool]{Key: modeKey, Node: modeN}
			}
		}
	}

	// Retention from save_top_k and the monitor.
	kN := get("save_top_k")
	kKey := keyOf(kN, prefix, "save_top_k")
	k, kKnown := d.saveTopK, true
	kExplicit := kN != nil && !kN.IsNull()
	if kExplicit {
		r, _ := resolveRef(root, kN)
		if v, ok := intValue(r); ok {
			k = v
		} else {
			kKnown = false
		}
	}
	mk := func(r plan.Retention, extra string) plan.Fact[plan.Retention] {
		if kExplicit {
			f := plan.Set(r, kKey, kN)
			f.Note = extra
			return f
		}
		n := d.note
		if extra != "" {
			n = n.Plus(extra)
		}
		return plan.Defaulted(r, kKey, n, at)
	}
	switch {
	case !kKnown || !monKnown:
		p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: kKey, Node: kN}
	case k == -1:
		p.Ckpt.Retention = mk(plan.Retention{Kind: plan.KeepAll}, "")
	case k == 0:
		p.Ckpt.Retention = mk(plan.Retention{Kind: plan.KeepNone}, "")
	case k > 0 && (monitor == "step" || monitor == "epoch") && p.Ckpt.HigherIsBetter.Value:
		// The trainer's own step or epoch (_monitor_candidates, 1.x to 2.6.5): latest first.
		p.Ckpt.Retention = mk(plan.Retention{Kind: plan.KeepLatest, N: k}, "monitor "+monitor+" with mode max ranks checkpoints by the trainer's "+monitor+", so the latest are kept")
	case k > 0 && monitor != "":
		p.Ckpt.Retention = mk(plan.Retention{Kind: plan.KeepBest, N: k}, "best by "+monitor)
	case k == 1:
		// No monitor: each save replaces the previous file, so only the latest survives.
		p.Ckpt.Retention = mk(plan.Retention{Kind: plan.KeepLatest, N: 1}, "no monitor, so only the latest checkpoint is kept")
	default:
		// save_top_k > 1 without a monitor is rejected by ModelCheckpoint at start-up.
		p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: kKey, Node: kN, Note: "save_top_k > 1 without a monitor is rejected by ModelCheckpoint"}
	}

	// Interval: every_n_train_steps, train_time_interval, every_n_epochs (mutually exclusive).
	stepsN, timeN, epN := get("every_n_train_steps"), get("train_time_interval"), get("every_n_epochs")
	set := false
	if stepsN != nil && !stepsN.IsNull() {
		sk := keyOf(stepsN, prefix, "every_n_train_steps")
		r, _ := resolveRef(root, stepsN)
		if v, ok := intValue(r); ok && v > 0 {
			p.Ckpt.Interval = plan.Set(plan.Interval{Value: float64(v), Unit: plan.Steps, Text: stepsN.Value}, sk, stepsN)
			set = true
		} else if !ok {
			p.Ckpt.Interval = plan.Fact[plan.Interval]{Key: sk, Node: stepsN}
			set = true
		}
	}
	if !set && timeN != nil && !timeN.IsNull() {
		f, _ := durationFact(timeN, keyOf(timeN, prefix, "train_time_interval"))
		p.Ckpt.Interval = f
		set = true
	}
	if !set && epN != nil && !epN.IsNull() {
		ek := keyOf(epN, prefix, "every_n_epochs")
		r, _ := resolveRef(root, epN)
		if v, ok := intValue(r); ok && v > 0 {
			p.Ckpt.Interval = plan.Set(plan.Interval{Value: float64(v), Unit: plan.Epochs, Text: epN.Value}, ek, epN)
		} else {
			p.Ckpt.Interval = plan.Fact[plan.Interval]{Key: ek, Node: epN}
		}
		set = true
	}
	if !set && d.everyNEpochs > 0 {
		p.Ckpt.Interval = plan.Defaulted(plan.Interval{Value: float64(d.everyNEpochs), Unit: plan.Epochs},
			joinKey(prefix, "every_n_epochs"), d.note.Plus("a checkpoint at the end of every epoch"), at)
	}
}

// seedFact reads a seed scalar: an int is the same on every host; an interpolation of a rank
// variable varies by host; other interpolations are unknown.
func seedFact(n *doc.Node, key string, broadcast bool) plan.Fact[plan.Seed] {
	if n == nil {
		return plan.Fact[plan.Seed]{}
	}
	s := plan.Seed{Value: n.Value, Broadcast: broadcast}
	if n.Kind != doc.Scalar {
		return plan.Fact[plan.Seed]{Key: key, Node: n}
	}
	if varies, why := VariesByHost(n.Value); varies && (n.IsUnknown() || n.Type == doc.String) {
		s.Varies, s.Why = plan.VariesByHost, why
		return plan.Set(s, key, n)
	}
	if n.Type == doc.Int {
		s.Varies, s.Why = plan.SameOnEveryHost, "a fixed seed, the same on every process"
		return plan.Set(s, key, n)
	}
	return plan.Fact[plan.Seed]{Key: key, Node: n, Value: s}
}

// broadcastsInit reports whether the training strategy copies rank 0's initial parameters to
// every rank (DDP and DeepSpeed do at wrap time), from trainer.strategy.
func broadcastsInit(tr *doc.Node) bool {
	n := tr.Get("strategy")
	if n == nil || n.IsNull() {
		return true // "auto": DDP on several devices
	}
	s := strings.ToLower(n.Value)
	if n.Kind == doc.Map {
		s = strings.ToLower(scalarText(n.Get("class_path")) + scalarText(n.Get("_target_")))
	}
	if s == "" || s == "auto" {
		return true
	}
	return strings.Contains(s, "ddp") || strings.Contains(s, "deepspeed")
}

// loggerNames lists the trackers named by a Lightning `logger` value: a bool, a class_path
// item, a list of them, or a Hydra group map of {name: {_target_: ...}}.
func loggerNames(n *doc.Node) (names []string, known bool) {
	if n == nil {
		return nil, false
	}
	add := func(cls string) {
		cls = strings.TrimSpace(cls)
		if cls == "" {
			return
		}
		if i := strings.LastIndexByte(cls, '.'); i >= 0 {
			cls = cls[i+1:]
		}
		names = append(names, cls)
	}
	switch n.Kind {
	case doc.Scalar:
		if n.IsUnknown() {
			return nil, false
		}
		add(n.Value)
		return names, true
	case doc.Seq:
		for _, it := range n.Children {
			switch {
			case it.Kind == doc.Scalar:
				add(it.Value)
			case it.Get("class_path") != nil:
				add(scalarText(it.Get("class_path")))
			case it.Get("_target_") != nil:
				add(scalarText(it.Get("_target_")))
			}
		}
		return names, true
	case doc.Map:
		if c := n.Get("class_path"); c != nil {
			add(scalarText(c))
			return names, true
		}
		if c := n.Get("_target_"); c != nil {
			add(scalarText(c))
			return names, true
		}
		for _, c := range n.Children {
			if t := c.Get("_target_"); t != nil {
				add(scalarText(t))
			} else if t := c.Get("class_path"); t != nil {
				add(scalarText(t))
			}
		}
		return names, len(names) > 0
	}
	return nil, false
}

// scalarText is a scalar's text, or "" for nil and non-scalars (nil-safe, unlike n.Value).
func scalarText(n *doc.Node) string {
	if n == nil || n.Kind != doc.Scalar {
		return ""
	}
	return n.Value
}

// alignCkptWithEval corrects an epoch-triggered checkpoint interval (every_n_epochs N) for when
// ModelCheckpoint saves after validation instead of at the end of the training epoch: then it
// saves only at a validation run of an epoch e with (e+1) % N == 0 (on_validation_end; the
// epoch-end save is skipped), so with N 1 the save interval is the eval interval, and with
// validation every k epochs it is lcm(N, k) epochs, each save at a validation.
// save_on_train_epoch_end is read from params; when absent, defOnEpochEnd gives the framework
// default (NeMo: false), or nil for Lightning's automatic choice (_should_save_on_train_epoch_end:
// false whenever check_val_every_n_epoch != 1, true with validation once per epoch,
// val_check_interval 1.0). Verified in callbacks/model_checkpoint.py at every tag 2.0.0-2.6.5
// (2.0.0:298-312,384-399; 2.6.5:488-513,642-664) and loops/training_epoch_loop.py
// _should_check_val_epoch (2.6.5:523-526: validation at epochs with (e+1) % k == 0).
func alignCkptWithEval(p *plan.Plan, params *doc.Node, defOnEpochEnd *bool) {
	iv := p.Ckpt.Interval
	if !iv.Known() || !wholeEpochs(iv.Value) {
		return
	}
	var soe, known bool
	if n := params.Get("save_on_train_epoch_end"); n != nil && !n.IsNull() {
		if n.Type == doc.Bool {
			soe, known = n.Bool()
		}
	} else if defOnEpochEnd != nil {
		soe, known = *defOnEpochEnd, true
	} else if ev := p.Eval.Interval; ev.Known() {
		soe, known = ev.Value.Unit == plan.Epochs && ev.Value.Value == 1, true
	}
	if p.Eval.Enabled.Known() && !p.Eval.Enabled.Value {
		return // no validation: saved at the end of each training epoch
	}
	switch {
	case !known:
		p.Ckpt.Interval = plan.Fact[plan.Interval]{Key: iv.Key, Node: iv.Node, Note: unknownSaves}
	case !soe && p.Eval.Interval.Known() && iv.Value.Value == 1:
		p.Ckpt.Interval = plan.Fact[plan.Interval]{Value: p.Eval.Interval.Value, Origin: plan.Derived, Key: iv.Key, Node: iv.Node,
			Note: "= the eval interval: every_n_epochs 1 saves after every validation run when save_on_train_epoch_end is false"}
	case !soe && p.Eval.Interval.Known():
		// every_n_epochs N > 1: saves at the validations of every N-th epoch. Only an eval
		// interval in whole epochs makes that a regular interval; others are left as written.
		ev := p.Eval.Interval.Value
		if !wholeEpochs(ev) {
			return
		}
		n, k := int64(iv.Value.Value), int64(ev.Value)
		l := n / gcd64(n, k) * k
		p.Ckpt.Interval = plan.Fact[plan.Interval]{Value: plan.Interval{Value: float64(l), Unit: plan.Epochs}, Origin: plan.Derived, Key: iv.Key, Node: iv.Node,
			Note: "every_n_epochs " + strconv.FormatInt(n, 10) + " saves only after a validation run, every " + strconv.FormatInt(k, 10) +
				" epochs, when not saving at a training epoch's end"}
	case !soe:
		p.Ckpt.Interval = plan.Fact[plan.Interval]{Key: iv.Key, Node: iv.Node, Note: unknownSaves}
	}
}

// unknownSaves is the note of a save interval that follows validation runs whose interval is
// not known (every_n_epochs N saves at those of every N-th epoch).
const unknownSaves = "saved after validation runs (those of every every_n_epochs-th epoch), whose interval is unknown"

// wholeEpochs reports an interval of a whole number of epochs, one or more.
func wholeEpochs(iv plan.Interval) bool {
	return iv.Unit == plan.Epochs && iv.Value >= 1 && iv.Value == math.Trunc(iv.Value)
}

func gcd64(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// sexagesimal60 (kit_match.go) is YAML 1.1's base-60 integer (PyYAML's int resolver): 1:30,
// 1:00:00:00.

func sexagesimal(s string) int {
	v := 0
	for _, part := range strings.Split(strings.TrimLeft(strings.ReplaceAll(s, "_", ""), "+-"), ":") {
		v = v*60 + atoi(part)
		if v > 1<<40 {
			return 0
		}
	}
	return v
}
