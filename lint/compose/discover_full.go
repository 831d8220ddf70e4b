//go:build !trainlint_lite

package compose

import (
	"path"
	"slices"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// siblingBases returns the roots that are bases of primaries beside them and cannot compose
// alone: a root r that another root of the same folder lists by name in its defaults list (`-
// cityscapes_segformer` in super-gradients' recipes/cityscapes_segformer_b0.yaml, whose config
// directory is that folder, so Hydra loads the sibling and merges the includer over it), an
// interpolation of whose own file names a key that r's file does not set, that an includer's
// file sets, and that r composed alone (Cache.Compose, its group options included) still lacks:
// cityscapes_segformer.yaml's `experiment_name: ${architecture}_cityscapes`, where only the
// b0..b5 recipes set architecture. Launched alone it would fail to resolve that key, so it is a
// part of its includers' runs, where the reference resolves. A base that sets or composes
// every key it names (fish-speech's base.yaml) stays a run; so does one whose folder holds
// experiments, which may set the key in its experiment runs, and one a script launches alone
// (Cache.Launched).
// declined is never set in this build (the light build's siblingBases: discover_lite.go).
//
// It returns roots without those bases (kept), and the bases.
func (k *Cache) siblingBases(fsys FS, roots []string, includers map[string][]string, lim Limits) (kept []string, bases, declined map[string]bool) {
	for r, inc := range includers {
		if k.Launched[r] {
			continue // a script composes it alone: its unresolved key is that run's
		}
		if _, err := fsys.ReadDir(path.Join(path.Dir(r), "experiment")); err == nil {
			continue
		}
		switch needs, unknown := k.needsIncluder(fsys, r, inc, lim); {
		case needs:
			if bases == nil {
				bases = map[string]bool{}
			}
			bases[r] = true
		case unknown:
			if declined == nil {
				declined = map[string]bool{}
			}
			declined[r] = true
		}
	}
	if len(bases) == 0 {
		return roots, nil, declined
	}
	kept = roots[:0]
	for _, r := range roots {
		if !bases[r] {
			kept = append(kept, r)
		}
	}
	return kept, bases, declined
}

// needsIncluder reports an absolute interpolation (${a.b}) of r's own file, or else of the run r
// composes alone, that r does not set, one of the includers' files does, and r composed alone
// lacks (siblingBases); unknown is never set in this build.
func (k *Cache) needsIncluder(fsys FS, r string, includers []string, lim Limits) (needs, unknown bool) {
	d := k.parsed[r]
	if d == nil || d.Root == nil {
		return false, false
	}
	// refsIn adds to pending the references of root's values that set does not hold and an
	// includer's file sets (or chooses the group of).
	var pending []string
	refsIn := func(root, set *doc.Node) {
		walkRefs(root, func(ref string) bool {
			if set.StepPath(ref) == nil && slices.ContainsFunc(includers, func(s string) bool {
				ds := k.parsed[s]
				return ds != nil && (ds.Root.StepPath(ref) != nil || choosesGroup(ds.Src, ref))
			}) {
				pending = append(pending, ref) // (one r does not set itself, an includer does)
			}
			return true
		})
	}
	refsIn(d.Root, d.Root)
	var run *Run
	if len(pending) == 0 {
		// A reference of an option r chooses may need them too (QtacierP/PRIOR's
		// base_callback.yaml chooses callbacks/model_checkpoint, whose ${logger.monitor_metric}
		// only the primaries listing base_callback set): r composed alone is read for it.
		run = k.Compose(fsys, r, nil, lim)
		if run.Partial || run.Doc == nil || run.Doc.Root == nil {
			return false, false
		}
		refsIn(run.Doc.Root, run.Doc.Root)
		if len(pending) == 0 {
			return false, false
		}
	}
	if run == nil {
		run = k.Compose(fsys, r, nil, lim)
	}
	if run.Partial {
		return false, false // a missing option could set any key
	}
	for _, ref := range pending {
		if run.Doc.Root.StepPath(ref) == nil && !slices.ContainsFunc(run.Unknown, func(m string) bool {
			return ref == m || strings.HasPrefix(ref, m+".")
		}) {
			return true, false
		}
	}
	return false, false
}

// walkRefs calls f with each absolute reference (plainRefs) of root's values, Hydra's own
// config's (${hydra.x}) left out, until f returns false.
func walkRefs(root *doc.Node, f func(ref string) bool) {
	more := true
	root.Walk(func(n *doc.Node) bool {
		if !more {
			return false
		}
		if n.Kind == doc.Scalar && strings.Contains(n.Value, "${") {
			for _, ref := range plainRefs(n.Value) {
				if first, _, _ := strings.Cut(ref, "."); first != "hydra" {
					if more = f(ref); !more {
						return false
					}
				}
			}
		}
		return true
	})
}

// choosesGroup reports a defaults list (of the config text b) that chooses an option of the
// group ref's first key names: SSLH's fixmatch.yaml lists `- common` and `- data:
// ssl_cifar10`, whose `# @package data` file sets the data.monitor common.yaml names. What the
// option sets is checked by composing r alone, which must still lack it (needsIncluder).
func choosesGroup(b []byte, ref string) bool {
	first, _, _ := strings.Cut(ref, ".")
	for _, k := range defaultsKeys(b) {
		if groupOfKey(k) == first {
			return true
		}
	}
	return false
}

// plainRefs returns the paths of s's absolute interpolations (`${a.b}`, spaces around the path
// allowed): resolvers (a colon), relative references (a leading dot) and nested ones are left
// out.
func plainRefs(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return out
		}
		s = s[i+2:]
		j := strings.IndexByte(s, '}')
		if j < 0 {
			return out
		}
		p := strings.TrimSpace(s[:j])
		if p != "" && !strings.ContainsAny(p, ":${ []'\"") && p[0] != '.' {
			out = append(out, p)
		}
		s = s[j+1:]
	}
}

// sharedExperiment reports whether the experiment exp (a file of the experiment folder) is
// paired with the primary r, one of the primaries of r's folder that have an experiment entry
// (sharing). One primary alone is paired with every experiment. Of several (a train.yaml and
// an infer.yaml or demo.yaml, each with `experiment: null`), an experiment is paired with
// those whose entries its override entries match (overridesFit): Hydra stops at start-up when
// one matches no entry of the run (hydra/_internal/defaults_list.py:158 at v1.3.2,
// Overrides.ensure_overrides_used: "Could not override 'datamodule'. No match in the defaults
// list."), so an experiment overriding /datamodule is written for the primary that lists a
// datamodule and is not run with the one that does not (RSWAIN1486/emlov3-pytorchlightning-
// hydra's infer.yaml and demo.yaml, whose own experiments are separate files). The lists are
// read at their top level and one level below (reachOf): when no primary's match, a deeper
// list may hold the entry, and the experiment is paired with them all as before (with those a
// script launches, when a script launches some). unknown is never set in this build.
func (p experimentPairing) sharedExperiment(r, exp string) (keep, unknown bool) {
	if len(p.sharing) < 2 {
		return true, false
	}
	b, err := p.fsys.ReadFile(exp)
	if err != nil {
		return true, false
	}
	fits := func(o string) bool { return overridesFit(p.reachOf(o), b) }
	if fits(r) {
		return true, false
	}
	// The primaries a script launches (Cache.Launched) are those an experiment is run with:
	// when some are, one that does not fit is kept only if none of them fits (the launch
	// `train.py experiment=x` is then refused: tabular-ssl's config.yaml, which its
	// train.py names, with an experiment written for another primary no script launches).
	var scripted []string
	for _, o := range p.sharing {
		if p.launched[o] {
			scripted = append(scripted, o)
		}
	}
	if len(scripted) > 0 {
		return p.launched[r] && !slices.ContainsFunc(scripted, fits), false
	}
	return !slices.ContainsFunc(p.sharing, fits), false
}

// composesBest reports whether the primary r is one the experiment exp (chosen by override) is
// best paired with, when its override entries fit several primaries of the folder (those a
// script launches, when a script launches some: sharedExperiment). An experiment fits
// BorealisAI/adaflood's train_cls.yaml and train_tpp.yaml alike (both list a data group), but
// only train_tpp.py runs it: composed with train_cls.yaml, that primary's own
// ${data.imb_factor} names a key the experiment's data option lacks. So when the experiment
// composes cleanly (no problem, no override left unmatched, every ${a.b} of the run naming a
// key it has or cannot know) with another fitting primary and not with r, r's pairing is
// dropped; when it composes cleanly with none, every pairing stays and reports what fails.
// When its entries fit no primary's lists as read, every primary of the pool is weighed so.
func (k *Cache) composesBest(fsys FS, p experimentPairing, r, exp, override string, lim Limits) bool {
	b, err := p.fsys.ReadFile(exp)
	if err != nil || hydraOnly(exp, b) {
		return true
	}
	pool := p.sharing
	var scripted []string
	for _, o := range p.sharing {
		if p.launched[o] {
			scripted = append(scripted, o)
		}
	}
	if len(scripted) > 0 {
		pool = scripted
	}
	var fit []string
	for _, o := range pool {
		if overridesFit(p.reachOf(o), b) {
			fit = append(fit, o)
		}
	}
	if len(fit) == 0 {
		// No list's entries matched (an override of a group reached only through an option's
		// own list, adaflood's /model/criterion): sharedExperiment kept every pairing.
		fit = pool
	}
	if len(fit) < 2 || !slices.Contains(fit, r) || k.composesClean(fsys, p, r, override, lim) || !k.composesClean(fsys, p, r, "", lim) {
		return true // (r composed alone fails too: what fails is r's own, not the pairing's)
	}
	return !slices.ContainsFunc(fit, func(o string) bool {
		return o != r && k.composesClean(fsys, p, o, override, lim)
	})
}

// hydraOnly reports an experiment that sets Hydra's own config alone (its defaults entries all
// in Hydra's groups, its keys all under hydra:): prescient-design/lobster's experiment/slurm.yaml
// chooses a launcher for whichever primary is run, so it is paired with every one.
func hydraOnly(exp string, b []byte) bool {
	for _, k := range defaultsKeys(b) {
		if gk := readGroupKey(k, "", ""); !strings.HasPrefix(gk.group+"/", "hydra/") {
			return false
		}
	}
	d := doc.Parse(exp, b, doc.YAML, doc.Limits{})
	if d.Root == nil || d.Root.Kind != doc.Map {
		return false
	}
	for _, c := range d.Root.Children {
		if c.Key != "hydra" && c.Key != "defaults" {
			return false
		}
	}
	return true
}

// composesClean reports whether the primary r composed with override has no problem, no
// override left unmatched, is not partial, and has no ${a.b} naming a key it lacks and may know
// (Run.Unknowable); worked out once per primary and override (p.clean).
func (k *Cache) composesClean(fsys FS, p experimentPairing, r, override string, lim Limits) bool {
	key := r + "\x00" + override
	if v, ok := p.clean[key]; ok {
		return v
	}
	var ovs []string
	if override != "" {
		ovs = []string{override}
	}
	run := k.Compose(fsys, r, ovs, lim)
	ok := run.Doc != nil && run.Doc.Root != nil && !run.Partial && !run.Unmatched && len(run.Problems) == 0
	if ok {
		root := run.Doc.Root
		walkRefs(root, func(ref string) bool {
			ok = root.StepPath(ref) != nil || run.Unknowable(ref)
			return ok
		})
	}
	p.clean[key] = ok
	return ok
}

// reachOf is the groups the primary o's defaults reach: its top-level entries' and
// nestedGroups', worked out once per primary.
func (p experimentPairing) reachOf(o string) map[string]bool {
	if m, ok := p.reach[o]; ok {
		return m
	}
	m := nestedGroups(p.fsys, o, p.text[o])
	for _, k := range defaultsKeys(p.text[o]) {
		if gk := readGroupKey(k, "", ""); !gk.override {
			m[gk.group] = true
		}
	}
	p.reach[o] = m
	return m
}

// nestedGroups are the groups r's defaults list reaches below its top level: the entries of
// the sibling configs it names (`- eval_base`, whose list has `- data: mnist`), and the
// absolute entries (`- /data: mnist`) of its groups' options; a relative entry of an option
// (callbacks/default.yaml's `- model_checkpoint`) stays in its own group. Hydra matches an
// experiment's override against entries at any depth (hydra/_internal/defaults_list.py at
// v1.3.2: the overrides are registered before the nested lists are expanded), so such a group
// may take an override the top level lacks (a review's eval.yaml listing eval_base).
func nestedGroups(fsys FS, r string, b []byte) map[string]bool {
	out := map[string]bool{}
	dir := path.Dir(r)
	for _, n := range defaultsNames(b) {
		if n == "_self_" {
			continue
		}
		p := path.Join(dir, strings.TrimPrefix(n, "/"))
		if !isYAML(p) {
			p += ".yaml"
		}
		if nb, err := fsys.ReadFile(p); err == nil {
			for _, k := range defaultsKeys(nb) {
				if gk := readGroupKey(k, "", ""); !gk.override {
					out[gk.group] = true
				}
			}
		}
	}
	for _, k := range defaultsKeys(b) {
		gk := readGroupKey(k, "", "")
		if gk.override || gk.group == "experiment" || strings.HasPrefix(gk.group+"/", "hydra/") {
			continue
		}
		ents, err := fsys.ReadDir(path.Join(dir, gk.group))
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.Dir || !isYAML(e.Name) {
				continue
			}
			ob, err := fsys.ReadFile(path.Join(dir, gk.group, e.Name))
			if err != nil {
				continue
			}
			for _, ok := range defaultsKeys(ob) {
				t := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(ok), "optional "), "override ")
				if strings.HasPrefix(strings.TrimSpace(t), "/") {
					out[readGroupKey(ok, "", "").group] = true
				}
			}
		}
	}
	return out
}

// overridesFit reports whether each override entry of the experiment exp's top-level defaults
// list names a group the primary's defaults reach (reachOf) or the experiment's own list has an
// entry for. Hydra's own groups (hydra/launcher) have theirs in Hydra's config.
func overridesFit(reach map[string]bool, exp []byte) bool {
	own := map[string]bool{}
	for _, k := range defaultsKeys(exp) {
		if gk := readGroupKey(k, "experiment", ""); !gk.override {
			own[gk.group] = true
		}
	}
	for _, k := range defaultsKeys(exp) {
		gk := readGroupKey(k, "experiment", "")
		if gk.override && !reach[gk.group] && !own[gk.group] && !strings.HasPrefix(gk.group+"/", "hydra/") {
			return false
		}
	}
	return true
}
