package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// findModelCheckpoint locates the ModelCheckpoint that decides which checkpoints are kept: a
// CLI callbacks item (class_path + init_args), a Hydra node with _target_ ...ModelCheckpoint, or
// a Hydra callbacks override entry named model_checkpoint. Of several, the first with a
// monitor: it keeps the best checkpoints whatever the others keep (FlowDock saves a "last"
// checkpoint without a monitor beside one that keeps the best by val_sampling). params may be
// nil when the callback takes every default.
func findModelCheckpoint(root *doc.Node, sh lightningShape) (params, at *doc.Node, prefix string, ok bool) {
	isMC := func(s string) bool { return strings.HasSuffix(s, "ModelCheckpoint") }
	monitored := func(params *doc.Node) bool {
		m := params.Get("monitor")
		return m != nil && !m.IsNull() && scalarText(m) != ""
	}
	if sh.tr != nil {
		cbs := sh.tr.Get("callbacks")
		var items []*doc.Node
		switch {
		case cbs == nil:
		case cbs.Kind == doc.Seq:
			items = cbs.Children
		case cbs.Kind == doc.Map:
			items = []*doc.Node{cbs}
		}
		// Two passes: the first callback with a monitor, else the first.
		for pass := 0; pass < 2; pass++ {
			for _, it := range items {
				var ps *doc.Node
				switch {
				case isMC(scalarText(it.Get("class_path"))):
					ps = it.Get("init_args")
				case isMC(scalarText(it.Get("_target_"))):
					ps = it
				default:
					continue
				}
				if pass == 1 || monitored(ps) {
					if ps == it {
						return it, it, sectionKey(it), true
					}
					return ps, it, joinKey(sectionKey(it), "init_args"), true
				}
			}
		}
	}
	var first, hit *doc.Node
	root.Walk(func(n *doc.Node) bool {
		if hit != nil {
			return false
		}
		if n.Kind == doc.Map && isMC(scalarText(n.Get("_target_"))) {
			if first == nil {
				first = n
			}
			if monitored(n) {
				hit = n
			}
			return false
		}
		return n.Depth() < 3
	})
	if hit == nil {
		hit = first
	}
	if hit != nil {
		return hit, hit, sectionKey(hit), true
	}
	for _, c := range []*doc.Node{root.Get("model_checkpoint"), root.At("callbacks.model_checkpoint")} {
		if isMap(c) {
			return c, c, sectionKey(c), true
		}
	}
	return nil, nil, "", false
}
