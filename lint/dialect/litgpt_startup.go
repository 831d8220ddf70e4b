package dialect

import (
	"strconv"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// litgptStartup adds the start-up refusals of LitGPT's commands that the file's own values
// decide (v0.4.0 to v0.5.13, read at each tag): TrainArgs.__post_init__, each command's
// validate_args, and the asserts TrainArgs.batch_size and gradient_accumulation_iters make
// before the first step. A value the file leaves out is the command's default, which passes;
// so only what the file writes is judged.
func litgptStartup(p *plan.Plan, root *doc.Node, cmd litgptCommand) {
	train, eval := root.Get("train"), root.Get("eval")
	reject := func(n *doc.Node, key, msg, says, source, until, help string) {
		p.Rejections = append(p.Rejections, plan.Rejection{Node: n, Key: key, Message: msg, Says: says,
			Package: "litgpt", Since: "0.4.0", Until: until, Read: litgptRead, Source: source, Help: help})
	}
	set := func(n *doc.Node) bool { return n != nil && !n.IsNull() }
	truthy := func(n *doc.Node) bool {
		if !set(n) {
			return false
		}
		if v, ok := n.Float(); ok {
			return v != 0
		}
		if b, ok := n.Bool(); ok {
			return b
		}
		return false
	}
	// falsy: the value is known to be None, 0 or False (a placeholder such as $EPOCHS is not).
	falsy := func(n *doc.Node) bool {
		if n == nil || n.IsNull() {
			return true
		}
		if v, ok := n.Float(); ok {
			return v == 0
		}
		if b, ok := n.Bool(); ok {
			return !b
		}
		return false
	}
	frac, steps := train.Get("lr_warmup_fraction"), train.Get("lr_warmup_steps")
	if truthy(frac) && truthy(steps) {
		reject(frac, "train.lr_warmup_fraction", "train.lr_warmup_fraction and train.lr_warmup_steps are both set",
			"Can't provide both `--train.lr_warmup_fraction` and `--train.lr_warmup_steps`. Choose one.", "TrainArgs.__post_init__", "",
			"keep one of the two warmup settings and set the other to null")
	}
	if v, ok := frac.Float(); ok && set(frac) && v != 0 && (v < 0 || v > 1) {
		reject(frac, "train.lr_warmup_fraction", "train.lr_warmup_fraction "+frac.Value+" is outside 0 to 1",
			"`--train.lr_warmup_fraction` must be between 0 and 1.", "TrainArgs.__post_init__", "", "give a fraction of an epoch between 0 and 1")
	}

	script := ""
	switch cmd {
	case litgptPretrain:
		script = "litgpt/pretrain.py"
		for _, k := range []struct {
			sec        *doc.Node
			path, name string
			until      string
		}{{train, "train.epochs", "epochs", ""}, {eval, "eval.max_new_tokens", "max_new_tokens", ""}, {train, "train.max_steps", "max_steps", "0.5.13"}} {
			if n := k.sec.Get(k.name); set(n) {
				reject(n, k.path, k.path+" is set, which pretrain does not support", script+" doesn't support the '"+k.name+"' argument",
					"validate_args ("+script+")", k.until, "remove "+k.path+" (pretrain's length is train.max_tokens)")
			}
		}
		for _, name := range []string{"max_tokens", "max_norm"} {
			if n := train.Get(name); n != nil && n.IsNull() {
				reject(n, "train."+name, "train."+name+" is null, which pretrain requires", script+" requires the '"+name+"' argument",
					"validate_args ("+script+")", "", "give train."+name+" a value")
			}
		}
		if ic, rs := root.Get("initial_checkpoint_dir"), root.Get("resume"); set(ic) && truthyResume(rs) {
			reject(ic, "initial_checkpoint_dir", "initial_checkpoint_dir and resume are both set",
				"Can't provide both `--resume` and `--initial_checkpoint_dir`. Choose one.", "validate_args ("+script+")", "",
				"keep one: resume an interrupted run, or start from initial_checkpoint_dir")
		}
	case litgptFinetune, litgptLoRA:
		script = "litgpt/finetune/*.py"
		for _, name := range []string{"max_tokens", "max_norm", "tie_embeddings", "lr_warmup_fraction"} {
			if n := train.Get(name); set(n) {
				reject(n, "train."+name, "train."+name+" is set, which fine-tuning does not support", "doesn't support the '"+name+"' argument",
					"validate_args ("+script+")", "", "remove train."+name+" (or set it to null)")
			}
		}
		ep := train.Get("epochs")
		if ep != nil && ep.IsNull() {
			reject(ep, "train.epochs", "train.epochs is null, which fine-tuning requires", "requires the 'epochs' argument",
				"validate_args ("+script+")", "", "give train.epochs a number of epochs")
		} else if ms := train.Get("max_steps"); ep != nil && falsy(ep) && falsy(ms) {
			reject(ep, "train.epochs", "neither train.epochs nor train.max_steps is set", "requires either epochs or max_steps to be set",
				"validate_args ("+script+")", "", "set train.epochs or train.max_steps")
		}
		if n := eval.Get("max_new_tokens"); n != nil && n.IsNull() {
			reject(n, "eval.max_new_tokens", "eval.max_new_tokens is null, which fine-tuning requires", "requires the 'max_new_tokens' argument",
				"validate_args ("+script+")", "", "give eval.max_new_tokens a number of tokens")
		}
	}
	if script != "" {
		litgptBatchAsserts(p, root, reject)
	}
}

// truthyResume: resume is True, "auto" or a path.
func truthyResume(n *doc.Node) bool {
	if n == nil || n.IsNull() || !n.IsScalar() {
		return false
	}
	if b, ok := n.Bool(); ok {
		return b
	}
	return n.Value != ""
}

// litgptBatchAsserts: TrainArgs.batch_size asserts global_batch_size // (devices × num_nodes)
// > 0, and gradient_accumulation_iters that this // micro_batch_size > 0. Only devices and
// num_nodes written as numbers in the file count (num_nodes absent is 1).
func litgptBatchAsserts(p *plan.Plan, root *doc.Node, reject func(n *doc.Node, key, msg, says, source, until, help string)) {
	gb, ok1 := IntAt(root, "train.global_batch_size")
	dev, ok2 := IntAt(root, "devices")
	if !ok1 || !ok2 || !gb.Known() || !dev.Known() || dev.Value <= 0 {
		return
	}
	nodes := 1
	if f, ok := IntAt(root, "num_nodes"); ok {
		if !f.Known() || f.Value <= 0 {
			return
		}
		nodes = f.Value
	}
	world := dev.Value * nodes
	perRank := gb.Value / world
	help := "make train.global_batch_size a multiple of train.micro_batch_size × devices × num_nodes"
	if perRank <= 0 {
		reject(gb.Node, "train.global_batch_size", "train.global_batch_size "+gb.Node.Value+" is less than devices × num_nodes = "+strconv.Itoa(world),
			"assert batch_size > 0 (AssertionError)", "TrainArgs.batch_size (litgpt/args.py)", "", help)
		return
	}
	mb, ok := IntAt(root, "train.micro_batch_size")
	if !ok || !mb.Known() || mb.Value <= 0 {
		return
	}
	if perRank/mb.Value <= 0 {
		reject(gb.Node, "train.global_batch_size", "train.global_batch_size "+gb.Node.Value+" gives "+strconv.Itoa(perRank)+" examples per rank ("+strconv.Itoa(world)+
			" ranks), fewer than train.micro_batch_size "+mb.Node.Value, "assert gradient_accumulation_iters > 0 (AssertionError)",
			"TrainArgs.gradient_accumulation_iters (litgpt/args.py)", "", help)
	}
}
