package compose

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// sweeperParams reads the run's hydra.sweeper.params (a mapping of override keys to sweeps:
// SINTEF/rewts' experiment sets `++chunk_idx: range(0, 3, 1)`). Hydra's sweepers (BasicSweeper,
// and the Optuna and Ax plugins read the same mapping) add these overrides to every job of a
// multirun, so each key is set in every job, to a value the run does not fix: its package is
// Unknown, and a ${chunk_idx} elsewhere is neither missing nor known. With hydra.mode MULTIRUN
// set by the run (checked with Hydra 1.3.2: `key`, `+key` and `++key` all set the key in every
// job, and a key the config sets is swept over, its own value in no job) a value the run has for
// a key becomes unknown; without it the params apply only to a launch with --multirun, and the
// run's own values stay. A key naming a config group sweeps its options: what they set is not
// known (unknownPackage).
func (c *composer) sweeperParams(root *doc.Node) {
	params := root.Get("hydra").Get("sweeper").Get("params")
	if params == nil || params.Kind != doc.Map {
		return
	}
	mode, _ := root.Get("hydra").Get("mode").Str()
	multirun := strings.TrimSpace(mode) == "MULTIRUN"
	for _, p := range params.Children {
		key := strings.TrimLeft(strings.TrimSpace(p.Key), "+")
		if key == "" || strings.HasPrefix(key, "~") {
			continue
		}
		group, pkg, withPkg := strings.Cut(key, "@")
		group = strings.TrimPrefix(group, "/")
		if withPkg || c.isGroup(group) {
			if !withPkg {
				pkg = dotted(group) // the group's own package (model@net sweeps net)
			}
			c.unknownPackage(group, pkg)
			continue
		}
		c.addUnknown(key)
		if !multirun {
			continue
		}
		n := root
		for _, k := range strings.Split(key, ".") {
			if n = n.Step(k); n == nil {
				break
			}
		}
		if n == nil || n == root || n.Parent == nil {
			continue
		}
		// Every job's value comes from the sweep: the run's own is no job's.
		u := &doc.Node{Kind: doc.Scalar, Type: doc.Unknown, Value: p.Value, Key: n.Key, Index: n.Index,
			KeySpan: p.KeySpan, Span: p.Span, Parent: n.Parent}
		if p.Kind != doc.Scalar {
			u.Value = ""
		}
		c.run.origin[u] = c.run.Origin(p)
		for i, ch := range n.Parent.Children {
			if ch == n {
				n.Parent.Children[i] = u
			}
		}
	}
}
