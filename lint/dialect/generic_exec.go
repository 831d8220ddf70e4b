package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// readExecConfig corrects the generic reading of a file of settings a training script execs
// into its globals (Context.ExecConfig): nanoGPT's config/*.py, which configurator.py execs
// over train.py's defaults (karpathy/nanoGPT @3adf61e, configurator.py:20-28, train.py:77).
// The file is read alone: the defaults it overrides are the globals of whichever script the
// command line runs (chongwei730/nanoGPT's train.py and train_llama.py exec one configurator
// with eval_interval 2000 and 200), so what it does not set stays unknown. Of the names the
// generic spellings read, two mean something else to train.py:
//
//   - gradient_accumulation_steps is the run's total over its processes: under DDP train.py
//     asserts that the world size divides it and each process accumulates
//     gradient_accumulation_steps // world size micro-batches (train.py:94-95), so the count
//     per device depends on the launch and is unknown here;
//   - wandb_project names the project, but train.py logs to W&B only when wandb_log is true
//     (`if wandb_log and master_process: wandb.init(project=wandb_project, ...)`,
//     train.py:245-247; the default is False, train.py:43), so the tracker is wandb_log's.
//     wandb_log false leaves the trackers unknown: a fork's script may log elsewhere.
func readExecConfig(p *plan.Plan, g genericReader) {
	if ga := p.Train.GradAccum; ga.Node != nil && genNormKey(ga.Node.Key) == "gradient_accumulation_steps" && ga.Node.Parent == g.root {
		p.Train.GradAccum = plan.Fact[int]{Key: ga.Key, Node: ga.Node,
			Note: "the total over the processes: each accumulates gradient_accumulation_steps // world size"}
	}
	tr := p.Tracking.Trackers
	if tr.Node != nil && genNormKey(tr.Node.Key) == "wandb_project" && len(tr.Value) == 1 && tr.Value[0] == "wandb" {
		p.Tracking.Trackers = plan.Fact[[]string]{}
	}
	if n := g.child(g.root, "wandb_log"); n != nil && n.Type == doc.Bool && !p.Tracking.Trackers.Known() {
		if b, ok := n.Bool(); ok && b {
			p.Tracking.Trackers = plan.Set([]string{"wandb"}, genPathOf(n), n)
		}
	}
}
