package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// readBNSync reads trainer.sync_batchnorm (default false).
func readBNSync(p *plan.Plan, root, tr *doc.Node, prefix string, note plan.Why) {
	f := boolFact(root, tr, prefix, "sync_batchnorm", false, true, note)
	out := plan.Fact[plan.BNSync]{Origin: f.Origin, Key: f.Key, Node: f.Node, Note: f.Note, By: f.By}
	if f.Known() {
		out.Value = plan.BNSyncNone
		if f.Value {
			out.Value = plan.BNSyncPerStep
		} else if broadcast, known := ddpBroadcastsBuffers(tr); !known {
			// The strategy Lightning picks is not known (an interpolated strategy, or "auto"
			// on an accelerator the file leaves to the machine): whether rank 0's statistics
			// are copied is not known either.
			out = plan.Fact[plan.BNSync]{Key: f.Key, Node: f.Node, Note: "the strategy Lightning picks is not known"}
		} else if broadcast {
			// Lightning's DDPStrategy wraps the model in DistributedDataParallel with its own
			// kwargs only (strategies/ddp.py _setup_model, 2.0.0-2.6.0), and DDP's
			// broadcast_buffers defaults to True: rank 0's buffers, the batch-norm running
			// statistics among them, are copied to every rank at each forward pass.
			out.Value = plan.BNSyncBroadcast
			p.BN.Broadcaster = "DDP's broadcast_buffers (on by default)"
		}
	}
	p.BN.Sync = out
}

// ddpBroadcastsBuffers reports whether the training strategy is DDP with its default
// broadcast_buffers, and whether that is known: "ddp" and its variants; a DDPStrategy given
// init_args only without broadcast_buffers among them; "auto" or unset, which Lightning turns
// into DDP on several devices of a GPU or CPU accelerator and into XLAStrategy, which does not
// wrap the model in DDP, on TPUs (accelerator_connector.py _choose_strategy, 2.6.0), so known
// only when the file names the accelerator. Another named strategy (fsdp, deepspeed, xla)
// does not broadcast buffers at each step.
func ddpBroadcastsBuffers(tr *doc.Node) (broadcast, known bool) {
	n := tr.Get("strategy")
	if s, ok := n.Str(); n != nil && ok && strings.EqualFold(strings.TrimSpace(s), "auto") {
		n = nil // "auto" reads as unknown (a value decided at run time): decided below
	}
	if n != nil && !n.IsNull() {
		if n.IsUnknown() {
			return false, false
		}
		if n.Kind == doc.Map {
			cls := scalarText(n.Get("class_path")) + scalarText(n.Get("_target_"))
			if !strings.HasSuffix(cls, "DDPStrategy") {
				return false, cls != ""
			}
			args := n
			if ia := classArgs(n); ia != nil {
				args = ia
			}
			return args.Get("broadcast_buffers") == nil, true
		}
		s, ok := n.Str()
		s = strings.ToLower(strings.TrimSpace(s))
		if !ok {
			return false, false
		}
		if s != "" {
			return strings.HasPrefix(s, "ddp"), true
		}
	}
	a := tr.Get("accelerator")
	if a == nil || a.IsNull() || a.IsUnknown() {
		return false, false
	}
	switch acc, _ := a.Str(); strings.ToLower(strings.TrimSpace(acc)) {
	case "gpu", "cuda", "cpu", "mps":
		return true, true
	case "tpu":
		return false, true
	}
	return false, false
}
