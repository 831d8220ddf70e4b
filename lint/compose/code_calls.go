//go:build !trainlint_lite

package compose

import (
	"bytes"
	"path"
	"slices"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// Composition of an ml_collections config whose get_config takes its config from a function of
// another module of the repository (scenic's deformable_detr configs start from
// `config = get_coco_config()`, imported from the project's configs/common.py, and tasseo's
// return `config_module.get_config(job_type='eval', ...)`). Read alone, the file's config is
// unknown (no tree: rules stay silent). The reader records such calls when their arguments are
// scalars it knows (Document.Calls); here each function is read from the tree, called with
// those arguments (doc.Options.Call: the module runs, then the function, as Python runs an
// imported module's top level before the function is called), and the caller is read again
// with what each returned as its bases, under the call's key. What the caller then does to
// that value (`config.batch_size = 64`) is an edit of it (Document.BaseEdits), applied here in
// order; a value the caller leaves as it was keeps the callee's nodes, so a finding on it
// points at the callee's file, where it is set.
//
// The module is found as an absolute import finds a package installed from the tree itself:
// the nearest folder, from the caller's up, that holds its whole dotted path as folders and a
// .py file (packageModule). A module that is not in the tree, a function the reader cannot
// follow or that returns what it does not know, leaves that call's value unknown, as now.
// ml_collections' ConfigDict semantics that differ from a plain dict's are not modelled and
// leave the value unknown: update() (it recurses, refuses some values and sets field
// references), and a FieldReference is opaque to the reader in any case, so a field that
// refers to another is unknown before and after the caller changes that other one.
//
// Discovery makes a run (callRuns) of a get_config file that records such a call, whether it
// has no tree alone (its value is the call's) or has one with a part that is (`config.model =
// models.get_b16()`); the callee's module is not a fragment of it: a module that is a config
// itself (tasseo's abnormality_topvit_config.py) is still linted alone with its defaults. A run
// that reads as no known framework's config is skipped, as a walk skips such a Python file
// (lint.LintRun), unless its root is the ConfigDict a repository module's get_config or
// get_default_configs made (configFunc): an ml_collections config, which a walk lints
// (doc.Document.ConfigDict).

// callsLoad composes the Python config p, parsed as d (with call when p is itself a callee),
// whose value comes from other modules' functions (d.Calls): the run's root, or nil when no
// call could be followed or the second reading has no tree.
func (c *composer) callsLoad(p string, d *doc.Document, call *doc.ModuleCall, base *doc.Node) *doc.Node {
	if c.filesOnly {
		return nil // discovery: the callees are not fragments of the caller (see above)
	}
	if base == nil {
		base = newMap(nil, "")
		c.run.origin[base] = Origin{File: p}
	}
	args := len(base.Children)
	names := map[string]string{}
	for _, mc := range d.Calls {
		f, ok := c.packageModule(path.Dir(p), mc.Module)
		if !ok {
			continue
		}
		if sub := c.calleeLoad(f, mc, p); sub != nil {
			setChild(base, mc.Key(), sub)
			names[mc.Key()] = mc.Func + "()"
		}
	}
	if len(base.Children) == args {
		return nil
	}
	// Problems name this file's calls (keys are places in a file: another file's may match).
	c.callText = names
	d2 := doc.ParseWith(p, d.Src, doc.Python, doc.Options{Limits: c.lim.Doc, Bases: base, Call: call})
	if d2.Root == nil || d2.Root.Kind != doc.Map {
		for _, pr := range d2.Problems {
			if pr.Kind == doc.LimitExceeded {
				c.problem(Limit, p, pr.Span, pr.Message)
			}
		}
		return nil
	}
	c.applyBaseEdits(d2, base, true, p, "")
	if d2.RootBase != "" {
		v := base.StepPath(d2.RootBase)
		if v == nil || v.Kind != doc.Map {
			return nil
		}
		// The run's root is the caller's, spanning the call (a finding on what no file sets
		// points there); its entries are what the call returned, as the caller left them.
		root := &doc.Node{Kind: doc.Map, Style: d2.Root.Style, Span: d2.Root.Span}
		for _, mc := range d2.Calls {
			if key, _, _ := strings.Cut(d2.RootBase, "."); mc.Key() == key {
				root.Span = mc.Span
			}
		}
		c.run.origin[root] = Origin{File: p}
		for _, ch := range append([]*doc.Node(nil), v.Children...) {
			setChild(root, ch.Key, ch)
		}
		if c.configDicts[v] && slices.ContainsFunc(d2.Calls, func(mc doc.ModuleCall) bool { return mc.Key() == d2.RootBase && configFunc(mc.Func) }) {
			// All of what a get_config or get_default_configs returned as a ConfigDict.
			c.markConfigDict(root)
		}
		return root
	}
	own := c.copyTree(d2.Root, Origin{File: p})
	c.substituteBase(own, base, true, p, d2.BaseEdits, "", false)
	if d2.ConfigDict {
		c.markConfigDict(own)
	}
	return own
}

// maxCallReads bounds how many functions of other modules one run reads (each a parse of its
// module, chains included): real configs call one or two, and a file of thousands of calls, or
// a chain that fans out, ends with a Limit problem after 64 parses, not 10,000 (the run's
// bound on loads).
const maxCallReads = 64

// calleeLoad reads what the function mc names returns from the module file f (a node of the
// run, its nodes' origin f), following the calls it makes in turn; nil when that is unknown.
func (c *composer) calleeLoad(f string, mc doc.ModuleCall, from string) *doc.Node {
	if c.callReads++; c.callReads > maxCallReads {
		if c.callReads == maxCallReads+1 {
			c.problem(Limit, from, mc.Span, "the run calls more than "+itoa(maxCallReads)+" functions of other modules; the rest were not read")
		}
		return nil
	}
	if slices.Contains(c.stack, f) {
		// Python refuses no such recursion: it ends, or it does not, by the values (a module's
		// function calling its own module's other functions is plain code). Not followed: the
		// value stays unknown, with no problem.
		return nil
	}
	d := c.enter(f, "module", from, mc.Span)
	if d == nil {
		return nil
	}
	defer c.leave()
	call := mc
	// The arguments are the caller's values: the callee reads them as parts of its bases, so
	// a value it passes on as it is keeps the caller's node (a finding on it points there).
	base := newMap(nil, "")
	c.run.origin[base] = Origin{File: f}
	for i, a := range mc.Args {
		// Style "python": the caller's text may be a name or an expression, not the literal.
		n := &doc.Node{Kind: doc.Scalar, Type: a.Type, Value: a.Value, Style: "python", Quoted: a.Type == doc.String, Span: a.Span}
		c.run.origin[n] = Origin{File: from}
		setChild(base, "_arg_"+itoa(i)+"_", n)
	}
	cd := doc.ParseWith(f, d.Src, doc.Python, doc.Options{Limits: c.lim.Doc, Call: &call, Bases: base})
	if len(cd.Calls) > 0 {
		// The function calls other modules' functions in turn.
		if root := c.callsLoad(f, cd, &call, base); root != nil || cd.Root == nil {
			return root
		}
	}
	if cd.Root == nil || cd.Root.Kind != doc.Map || cd.Root.Style != "get_config" {
		return nil
	}
	own := c.copyTree(cd.Root, Origin{File: f})
	c.substituteBase(own, base, true, f, cd.BaseEdits, "", false)
	if cd.ConfigDict {
		c.markConfigDict(own)
	}
	return own
}

// configFunc reports a function whose ConfigDict makes the config that returns it an
// ml_collections config (doc.Document.ConfigDict): get_config, the function
// ml_collections' config flag calls in a config file (google/ml_collections v1.1.0
// config_flags/config_flags.py:139-141, 684 `config_module.get_config(*split_path[1:])`), so
// the module defining it is a config file itself (FLIP's configs/default.py, which its
// cfg_flip_*.py start from), and get_default_configs, the defaults score_sde's configs start
// from (yang-song/score_sde @0acb9e0 configs/ve/cifar10_ncsnpp.py:19-23, and the
// repositories built on it). A ConfigDict from a helper of another name (vmoe's
// common.get_base_config) is left as it was: its run is linted only when a dialect reads it.
func configFunc(name string) bool { return name == "get_config" || name == "get_default_configs" }

// markConfigDict records that n is what a function returned as an ml_collections ConfigDict.
func (c *composer) markConfigDict(n *doc.Node) {
	if c.configDicts == nil {
		c.configDicts = map[*doc.Node]bool{}
	}
	c.configDicts[n] = true
}

// basesText is how a problem names the part path of the bases: `_base_.model` in an MMEngine
// config (label "_base_."), `get_coco_config().batch_size` for what a call returned.
func (c *composer) basesText(label, p string) string {
	if t, rest, ok := c.callOf(p); ok {
		if rest == "" {
			return t
		}
		return t + "." + rest
	}
	return label + p
}

// basesSubject is "the bases do" or "what get_coco_config() returns does", for the part path p.
func (c *composer) basesSubject(p string) string {
	if t, _, ok := c.callOf(p); ok {
		return "what " + t + " returns does"
	}
	return "the bases do"
}

// basesObject is "the bases" or "what get_coco_config() returns", for the part path p.
func (c *composer) basesObject(p string) string {
	if t, _, ok := c.callOf(p); ok {
		return "what " + t + " returns"
	}
	return "the bases"
}

// callOf names the call whose value the part path p lies in (its key is p's first part), and
// the rest of p under it; ok is false for a path of MMEngine bases.
func (c *composer) callOf(p string) (call, rest string, ok bool) {
	key, rest, _ := strings.Cut(p, ".")
	call, ok = c.callText[key]
	return call, rest, ok
}

// callRuns lists the Python configs among files, other than the runs already found, whose
// get_config calls another module's function (Document.Calls), with no tree alone or with
// one: composition may read what the calls return (callsLoad). Their parses stay in the
// cache.
func (k *Cache) callRuns(fsys FS, files, runs []string, lim Limits) []string {
	c := &composer{fsys: fsys, lim: lim.withDefaults(), parsed: k.parsed, rootPkgNames: k.pkgNames, ginFork: k.GinFork} // as codeReads reads
	var out []string
	for _, f := range files {
		if codeFormat(f) != doc.Python || !IsCodeConfig(f) || slices.Contains(runs, f) {
			continue
		}
		b, err := fsys.ReadFile(f)
		if err != nil || !bytes.Contains(b, []byte("def get_config")) {
			continue
		}
		if d, ok := c.parseCode(f); ok && len(d.Calls) > 0 && (d.Root == nil || d.Root.Style == "get_config") {
			out = append(out, f)
		}
	}
	return out
}
