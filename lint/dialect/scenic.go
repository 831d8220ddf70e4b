package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// scenic ml_collections configs, checked against google-research/scenic @4a38d47 (no release
// tags), scenic/train_lib/classification_trainer.py:311-321:
//
//	log_eval_steps = config.get('log_eval_steps') or steps_per_epoch
//	checkpoint_steps = config.get('checkpoint_steps') or log_eval_steps
//	max_checkpoint_keep = config.get('max_checkpoint_keep', 3)
//	eval_batch_size = config.get('eval_batch_size', config.batch_size)
//
// and train_utils.py:615 save_checkpoint(..., max_to_keep=3): flax keeps the max_to_keep most
// recent checkpoints, not the best ones. config.batch_size is the global batch. Other scenic
// trainers read the same keys. Seeds (config.rng_seed) and the input pipeline are left unknown.

const scenicVersion = "scenic @4a38d47 (scenic/train_lib/classification_trainer.py, train_utils.py)"

// Scenic reads scenic get_config() files.
var Scenic = register(newScenic())

// newScenic builds Scenic (a function of its own: see register).
func newScenic() *Dialect {
	return &Dialect{
		Name:      "scenic",
		Title:     "scenic (ml_collections)",
		Version:   scenicVersion,
		Formats:   []doc.Format{doc.Python},
		Detect:    detScenic,
		Normalize: normScenic,
		Advice:    scenicAdvice,
		Keys: []Key{
			{Path: "batch_size", Type: "integer", Concept: "train.global_batch", Doc: "global train batch"},
			{Path: "eval_batch_size", Type: "integer", Concept: "eval.global_batch", Doc: "global eval batch; defaults to batch_size"},
			{Path: "log_eval_steps", Type: "integer", Default: "steps per epoch", Concept: "eval.interval", Doc: "evaluate every N steps"},
			{Path: "checkpoint_steps", Type: "integer", Default: "log_eval_steps", Concept: "ckpt.interval", Doc: "checkpoint every N steps"},
			{Path: "max_checkpoint_keep", Type: "integer", Default: "3", Concept: "ckpt.retention", Doc: "keep the N most recent checkpoints (read by classification_trainer, transfer_trainer, mtv_trainer)"},
			{Path: "num_training_steps", Type: "integer", Concept: "train.max_steps", Doc: "training length (or num_training_epochs)"},
			{Path: "rng_seed", Type: "integer", Concept: "", Doc: "random seed"},
		},
	}
}

func detectScenic(d *doc.Document) int {
	if d.Format != doc.Python || d.Root == nil {
		return 0
	}
	mlc, own := mlcImports(d, "scenic")
	s := 0
	if own {
		s += 60
	}
	if mlc {
		s += 10
	}
	root := d.Root
	for _, k := range []string{"log_eval_steps", "num_training_epochs", "num_training_steps", "rng_seed", "log_summary_steps", "checkpoint_steps", "dataset_configs", "max_checkpoint_keep"} {
		if root.Get(k) != nil {
			s += 10
		}
	}
	if root.Get("input") != nil {
		s -= 20 // big_vision's layout
	}
	return Cap(max(s, 0))
}

func normalizeScenic(d *doc.Document, ctx Context) *plan.Plan {
	p := &plan.Plan{Framework: "scenic"}
	root := d.Root
	if n := root.Get("trainer_name"); n != nil && n.IsScalar() && n.Value == "inference" {
		// tasseo's and svvit's main.py send trainer_name 'inference' to an evaluation of a
		// trained checkpoint (get_trainer: inference.evaluate @4a38d47): nothing trains, so
		// nothing is said of its batches, evaluations or checkpoints.
		ApplyContext(p, ctx)
		return p
	}
	if _, project := scenicProject(d.Path); !project && root.Get("trainer_name") == nil {
		// scenic/main.py runs the trainer config.trainer_name names (get_trainer @4a38d47) and a
		// project of scenic's repository its main.py's own: a file with neither is run by a
		// trainer of its own project, whose batches, evaluations and checkpoints are not
		// scenic's (magvit's videogvt main.py either trains or evaluates checkpoints in a
		// separate job, never both).
		ApplyContext(p, ctx)
		return p
	}
	bs, _ := IntAt(root, "batch_size")
	p.Train.GlobalBatch = bs
	if f, ok := IntAt(root, "num_training_steps"); ok {
		p.Train.MaxSteps = f
	}
	if f, ok := IntAt(root, "eval_batch_size"); ok {
		p.Eval.GlobalBatch = f
	} else if bs.Known() {
		p.Eval.GlobalBatch = plan.Defaulted(bs.Value, "eval_batch_size", plan.Because("scenic uses batch_size"), nil)
	}
	for _, k := range []string{"beam_size", "model.decode_beam_size", "decoding.num_decodes"} {
		if n := root.At(k); n != nil && p.Eval.GlobalBatch.Known() {
			if v, ok := n.Int(); !ok || v > 1 {
				// Generation trainers decode each eval example with beam search (avatar's
				// generation_trainer.py test_step expands the batch by beam_size; pixel_llm's
				// model decodes into [batch, beam] arrays of model.decode_beam_size; vid2seq's
				// trainer.py passes decoding.num_decodes to predict_batch_with_aux, whose
				// models.py expands the batch by it, for beam search and sampling alike): an
				// eval batch holds that many sequences per example, so the batch sizes alone
				// say nothing.
				p.Eval.GlobalBatch = plan.Fact[int]{Key: p.Eval.GlobalBatch.Key, Node: p.Eval.GlobalBatch.Node, Note: "decoded with beam search (" + k + ")"}
			}
		}
	}
	evalSteps, _ := IntAt(root, "log_eval_steps")
	if evalSteps.Known() && evalSteps.Value > 0 {
		p.Eval.Interval = stepsFrom(evalSteps)
	}
	// A trainer of its own on scenic's libraries may keep its checkpoint settings in a section
	// (magvit's videogvt trainers: logging.checkpoint_steps, logging.checkpoint_kept passed to
	// save_checkpoint): scenic's top-level defaults are then not the run's.
	own := root.Get("checkpoint_steps") == nil && root.Get("max_checkpoint_keep") == nil && scenicOwnCheckpointing(root)
	if ck, ok := IntAt(root, "checkpoint_steps"); ok && ck.Known() && ck.Value > 0 {
		p.Ckpt.Interval = stepsFrom(ck)
	} else if !ok && !own && p.Eval.Interval.Known() {
		p.Ckpt.Interval = plan.Fact[plan.Interval]{Value: p.Eval.Interval.Value, Origin: plan.Default, Key: "checkpoint_steps", Note: "scenic checkpoints every log_eval_steps"}
	}
	if b, ok := BoolAt(root, "checkpoint"); ok && b.Known() {
		p.Ckpt.Enabled = b
	}
	f, ok := IntAt(root, "max_checkpoint_keep")
	switch {
	case !scenicKeepReader(root, d.Path):
		if ok {
			p.Ckpt.Retention = plan.Fact[plan.Retention]{Key: "max_checkpoint_keep", Node: f.Node, Note: "whether the run's trainer reads max_checkpoint_keep is not known"}
		}
	case ok:
		if f.Known() && f.Value > 0 {
			p.Ckpt.Retention = plan.Set(plan.Retention{Kind: plan.KeepLatest, N: f.Value}, "max_checkpoint_keep", f.Node)
		}
	case !own:
		p.Ckpt.Retention = plan.Defaulted(plan.Retention{Kind: plan.KeepLatest, N: 3}, "max_checkpoint_keep", plan.Why{By: "the scenic default", Note: "max_checkpoint_keep 3"}, nil)
	}
	ApplyContext(p, ctx)
	return p
}

// scenicKeepReader reports a config whose trainer_name names a trainer that reads
// max_checkpoint_keep, default 3: scenic's own (train_lib/trainers.py ALL_TRAINERS @4a38d47:
// classification_trainer, and transfer/transfer_trainer.py's config.get('max_checkpoint_keep',
// 3)) and mtv_trainer (projects/mtv/trainer.py). Other project trainers ignore the key and pass
// train_utils.save_checkpoint a count of their own (pixel_llm and densevoc 1, vid2seq 100) or
// none (its default 3): what they keep is not the file's to tell.
//
// A config inside scenic's own projects (path) is run by its project's main.py, which maps the
// names to trainers of its own (scenicProjectKeep); a project not in that table is not known.
func scenicKeepReader(root *doc.Node, path string) bool {
	n := root.Get("trainer_name")
	if n == nil || n.Kind != doc.Scalar {
		return false
	}
	if project, ok := scenicProject(path); ok {
		return scenicProjectKeep(project, n.Value)
	}
	switch n.Value {
	case "classification_trainer", "transfer_trainer", "mtv_trainer":
		return true
	}
	return false
}

// scenicProjectKeep reports, for a project of scenic's repository, whether the trainer its
// main.py runs under a trainer name reads max_checkpoint_keep (@4a38d47; false for a project
// not checked). A switch, not a map: a package-level map is built at start-up, in the light
// WebAssembly module too, which reads no scenic config. baselines runs scenic/main.py (the central
// trainers); matvit's and ncr's main.py call their own trainer whatever the name, and it passes
// the key on (matvit/trainer.py, ncr/classification_trainer.py); mtv's mtv_trainer does; tasseo's
// classification_trainer does and its transfer_trainer does not (save_checkpoint(workdir,
// unrep_train_state), keeping 3), other names going to the central ones; svvit's
// classification_trainer and transfer_trainer do not (svvit/classification_trainer.py:486,
// transfer_trainer.py:547).
func scenicProjectKeep(project, trainer string) bool {
	switch project {
	case "baselines", "matvit", "ncr":
		return trainer == "classification_trainer" || trainer == "transfer_trainer"
	case "mtv":
		return trainer == "mtv_trainer"
	case "tasseo":
		return trainer == "classification_trainer"
	}
	return false // svvit's trainers do not read it; other projects are not known
}

// scenicProject is the project of scenic's repository a config path lies in
// (scenic/projects/<name>/...).
func scenicProject(path string) (string, bool) {
	p := doc.ToSlash(path)
	i := strings.Index(p, "scenic/projects/")
	if i < 0 || i > 0 && p[i-1] != '/' {
		return "", false
	}
	name, _, ok := strings.Cut(p[i+len("scenic/projects/"):], "/")
	return name, ok && name != ""
}

// scenicOwnCheckpointing reports a section that sets how checkpoints are saved (a key naming
// checkpoints and steps, keep/kept or enable), other than the init_from and eval_from sections
// scenic loads checkpoints with.
func scenicOwnCheckpointing(root *doc.Node) bool {
	for _, sec := range root.Children {
		if sec.Kind != doc.Map || sec.Key == "init_from" || sec.Key == "eval_from" {
			continue
		}
		for _, c := range sec.Children {
			k := strings.ToLower(c.Key)
			if strings.Contains(k, "checkpoint") && (strings.Contains(k, "step") || strings.Contains(k, "keep") || strings.Contains(k, "kept") || strings.Contains(k, "enable")) {
				return true
			}
		}
	}
	return false
}
