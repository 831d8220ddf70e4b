package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// timm's train.py YAML (the args.yaml it writes beside every run, which `--config` reads back
// as defaults), checked against huggingface/pytorch-image-models v1.0.28, train.py:
//
//   - :142 --batch-size 128 (per process); :144 --validation-batch-size None (→ batch_size, :804)
//   - :345 --sync-bn (store_true: False); :347 --dist-bn 'reduce' ("broadcast", "reduce" or ""):
//     after every epoch BN statistics are averaged ("reduce") or copied from rank 0
//     ("broadcast") across processes (:1077-1080); :575-576 sync_bn switches dist_bn off.
//   - :365 --seed 42; :498 utils.random_seed(args.seed, args.rank): every process seeds with
//     seed + rank (DDP broadcasts rank 0's parameters, so the init is the same anyway).
//   - :371 --val-interval 1 (epochs); :375 --checkpoint-hist 10 with :389 --eval-metric 'top1':
//     CheckpointSaver (timm/utils/checkpoint_saver.py) keeps the 10 best checkpoints by the eval
//     metric, plus model_best.
//   - :377 --workers 4; :383 --no-prefetcher False (a CUDA prefetcher of one batch).
//
// The loader (:443-449): `--config FILE` is yaml.safe_load'ed and passed to
// parser.set_defaults(**cfg) before the command line is parsed, so the file's values replace
// train.py's defaults, flags given on the command line still win, and argparse checks nothing:
// a key train.py does not define, or one written with hyphens (batch-size), becomes an unused
// attribute and the default holds (which is what this dialect reads: only the underscore
// names), and an empty file (None) makes set_defaults raise a TypeError at start-up.
// Keys are written with underscores (argparse dest names). Batch norm is believed present for
// the model families that use it (resnet, resnext, efficientnet, mobilenet, regnet, densenet);
// other models leave it unknown.

const timmVersion = "timm v1.0.28 (train.py, timm/utils/checkpoint_saver.py)"

var timmNote = plan.Why{By: "the timm train.py default", Note: "v1.0.28"}

// Timm reads timm train.py args.yaml / --config files.
var Timm = register(newTimm())

// newTimm builds Timm (a function of its own: see register).
func newTimm() *Dialect {
	return &Dialect{
		Name:      "timm",
		Title:     "timm train.py (args.yaml)",
		Version:   timmVersion,
		Formats:   []doc.Format{doc.YAML},
		Detect:    detectTimm,
		Normalize: normTimm,
		Advice:    timmAdvice,
		Keys: []Key{
			{Path: "batch_size", Type: "integer", Default: "128", Concept: "train.per_device_batch", Doc: "train batch per process"},
			{Path: "validation_batch_size", Type: "integer", Default: "none", Concept: "eval.per_device_batch", Doc: "eval batch per process; none uses batch_size"},
			{Path: "sync_bn", Type: "boolean", Default: "false", Concept: "bn.sync", Doc: "convert BN to SyncBatchNorm (turns dist_bn off)"},
			{Path: "dist_bn", Type: "string", Default: "reduce", Concept: "bn.sync", Doc: "average (reduce) or copy (broadcast) BN statistics across processes after each epoch; empty: neither", Enum: []string{"reduce", "broadcast", ""}},
			{Path: "workers", Type: "integer", Default: "4", Concept: "data.workers", Doc: "loader worker processes"},
			{Path: "checkpoint_hist", Type: "integer", Default: "10", Concept: "ckpt.retention", Doc: "keep the N best checkpoints by eval_metric"},
			{Path: "eval_metric", Type: "string", Default: "top1", Concept: "ckpt.best_metric", Doc: "metric that ranks checkpoints"},
			{Path: "seed", Type: "integer", Default: "42", Concept: "seeds.init", Doc: "seed; each process uses seed + rank"},
			{Path: "val_interval", Type: "integer", Default: "1", Concept: "eval.interval", Doc: "evaluate every N epochs"},
			{Path: "epochs", Type: "integer", Default: "300", Concept: "train.epochs", Doc: "training length in epochs"},
		},
	}
}

var (
	timmStrong = []string{"dist_bn", "checkpoint_hist", "recovery_interval", "train_interpolation", "remode", "recount", "no_prefetcher", "cooldown_epochs", "model_ema_decay", "mixup_off_epoch", "jsd_loss", "bce_loss", "decay_epochs", "crop_pct"}
	timmWeak   = []string{"sync_bn", "workers", "validation_batch_size", "model", "sched", "opt", "smoothing", "mixup", "cutmix", "reprob", "drop_path", "aa", "amp", "warmup_epochs", "epochs", "batch_size", "seed", "pin_mem"}
)

func detectTimm(d *doc.Document) int {
	root := d.Root
	if root == nil || root.Kind != doc.Map {
		return 0
	}
	strong, weak := 0, 0
	for _, k := range timmStrong {
		if root.Get(k) != nil {
			strong++
		}
	}
	for _, k := range timmWeak {
		if root.Get(k) != nil {
			weak++
		}
	}
	if strong == 0 {
		return 0 // the weak keys are common words in other frameworks
	}
	return Cap(strong*25 + weak*5)
}

// timmBNModels are timm model-name prefixes whose networks use batch norm.
var timmBNModels = []string{"resnet", "resnext", "seresnet", "wide_resnet", "efficientnet", "tf_efficientnet", "mobilenet", "regnet", "densenet", "inception", "dpn", "cspresnet", "darknet", "dla", "hrnet", "mixnet", "mnasnet", "rexnet", "res2net", "resnest", "skresnet", "tresnet", "xception"}

func normalizeTimm(d *doc.Document, ctx Context) *plan.Plan {
	p := &plan.Plan{Framework: "timm"}
	root := d.Root
	p.Train.PerDeviceBatch = IntOr(root, "batch_size", 128, timmNote)
	if n := root.Get("validation_batch_size"); n != nil && !n.IsNull() {
		if v, ok := n.Int(); ok {
			p.Eval.PerDeviceBatch = plan.Set(int(v), "validation_batch_size", n)
		}
	} else if p.Train.PerDeviceBatch.Known() {
		p.Eval.PerDeviceBatch = plan.Defaulted(p.Train.PerDeviceBatch.Value, "validation_batch_size", plan.Because("timm uses batch_size"), n)
	}
	p.Data.Workers = IntOr(root, "workers", 4, timmNote)
	if n := root.Get("val_interval"); n != nil {
		if v, ok := n.Float(); ok {
			p.Eval.Interval = plan.Fact[plan.Interval]{Value: plan.Interval{Value: v, Unit: plan.Epochs, Text: n.Value}, Origin: plan.Explicit, Key: "val_interval", Node: n}
		}
	} else {
		p.Eval.Interval = plan.Fact[plan.Interval]{Value: plan.Interval{Value: 1, Unit: plan.Epochs, Text: "1"}, Origin: plan.Default, Key: "val_interval", Note: timmNote.Note, By: timmNote.By}
	}
	if f, ok := FloatAt(root, "epochs"); ok {
		p.Train.Epochs = f
	}
	hist := IntOr(root, "checkpoint_hist", 10, timmNote)
	if hist.Known() {
		p.Ckpt.Retention = plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepBest, N: hist.Value}, Origin: hist.Origin, Key: "checkpoint_hist", Node: hist.Node, Note: hist.Note, By: hist.By}
	}
	if m, ok := StrAt(root, "eval_metric"); ok {
		p.Ckpt.BestMetric = m
	} else {
		p.Ckpt.BestMetric = plan.Defaulted("top1", "eval_metric", timmNote, nil)
	}
	// Seeds: seed + rank in every process; DDP broadcasts the initial parameters.
	seed := "42"
	var seedNode *doc.Node
	if n := root.Get("seed"); n != nil && n.IsScalar() && !n.IsNull() {
		seed, seedNode = n.Value, n
	}
	s := plan.Seed{Value: seed, Varies: plan.VariesByHost, Why: "timm seeds every process with seed + rank", Broadcast: true}
	if seedNode != nil {
		p.Seeds.Init = plan.Set(s, "seed", seedNode)
	} else {
		p.Seeds.Init = plan.Defaulted(s, "seed", timmNote, nil)
	}

	// Batch norm: present for BN model families; synced per step (sync_bn) or after each epoch
	// (dist_bn reduce/broadcast).
	if m := root.Get("model"); m != nil {
		name, _ := m.Str()
		name = strings.ToLower(name)
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:] // hf-hub:timm/resnet50.a1_in1k
		}
		for _, pre := range timmBNModels {
			if strings.HasPrefix(name, pre) {
				p.BN.Present = plan.Set(true, "model", m)
				p.BN.Evidence = "model " + m.Value
				break
			}
		}
	}
	syncBN := BoolOr(root, "sync_bn", false, timmNote)
	switch {
	case syncBN.Known() && syncBN.Value:
		p.BN.Sync = plan.Set(plan.BNSyncPerStep, "sync_bn", syncBN.Node)
	default:
		n := root.Get("dist_bn")
		mode := "reduce"
		if n != nil {
			if v, ok := n.Str(); ok && !n.IsNull() {
				mode = v
			} else if n.IsNull() {
				mode = ""
			}
		}
		var sync plan.BNSync
		switch mode {
		case "reduce":
			sync = plan.BNSyncBeforeUse
		case "broadcast":
			sync = plan.BNSyncBroadcast
		case "":
			sync = plan.BNSyncNone
		default:
			return finishTimm(p, ctx)
		}
		if n != nil {
			p.BN.Sync = plan.Set(sync, "dist_bn", n)
		} else {
			p.BN.Sync = plan.Defaulted(sync, "dist_bn", timmNote.Plus("dist_bn reduce"), nil)
		}
	}
	return finishTimm(p, ctx)
}

func finishTimm(p *plan.Plan, ctx Context) *plan.Plan {
	ApplyContext(p, ctx)
	return p
}
