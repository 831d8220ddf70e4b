//go:build !trainlint_lite

package compose

import (
	"bytes"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// composeCode composes the run of a Python or gin primary config.
func (k *Cache) composeCode(fsys FS, primary string, overrides []string, lim Limits) *Run {
	lim = lim.withDefaults()
	primary = path.Clean(primary)
	c := &composer{fsys: fsys, dir: path.Dir(primary), lim: lim, parsed: k.parsed, problems: map[string]bool{}, rootPkgNames: k.pkgNames, ginFork: k.GinFork}
	c.run = &Run{Primary: primary, Overrides: overrides, origin: map[*doc.Node]Origin{}}
	for _, o := range overrides {
		c.problem(Unresolved, "", doc.Span{}, "override "+quote(o)+" was not applied: overrides compose Hydra runs, not "+string(codeFormat(primary))+" configs")
	}
	var root *doc.Node
	complete := true
	if codeFormat(primary) == doc.Gin {
		root = newMap(nil, "")
		complete = c.ginLoad(root, primary, "", doc.Span{})
		c.ginMacros(root)
	} else {
		root, complete, _ = c.mmLoad(primary, "", doc.Span{})
		if root == nil {
			root = newMap(nil, "")
		}
	}
	run := c.run
	run.Doc = &doc.Document{Path: primary, Format: codeFormat(primary), Root: root}
	if d := c.parsed[primary]; d != nil {
		run.Doc.Src, run.Doc.Comments = d.Src, d.Comments
		// An ml_collections config (doc.Document.ConfigDict): its get_config made a ConfigDict,
		// or returned the ConfigDict another module's get_config or get_default_configs made.
		run.Doc.ConfigDict = d.ConfigDict || c.configDicts[root]
		if d.Root != nil {
			root.Style, root.Span = d.Root.Style, d.Root.Span
		} else if len(root.Children) == 0 && (len(d.Calls) > 0 || codeFormat(primary) == doc.Python) {
			// A config whose value the reader could not know (get_config's value unknown, its
			// calls not followed, a limit or an error on the way) has no tree, as when it is
			// read alone: no rule takes its missing keys for defaults.
			run.Doc.Root = nil
		}
		for _, r := range d.Refs {
			// A complete composition has no base left to read: the dialect sees a whole run.
			if complete && (r.Kind == "base" || r.Kind == "include") {
				continue
			}
			run.Doc.Refs = append(run.Doc.Refs, r)
		}
	}
	if complete {
		removeChild(root, mmBaseKey)
	}
	sort.SliceStable(run.Problems, func(i, j int) bool { return run.Problems[i].File < run.Problems[j].File })
	return run
}

// codeReads is the files the composition of the code config primary reads (primary first), as
// composeCode reads them with the limits lim, without building the composed tree: discovery
// asks no more (an MMEngine tree's runs otherwise composed twice, once here and once linted).
func (k *Cache) codeReads(fsys FS, primary string, lim Limits) []*doc.Document {
	primary = path.Clean(primary)
	c := &composer{fsys: fsys, dir: path.Dir(primary), lim: lim.withDefaults(), parsed: k.parsed, problems: map[string]bool{}, filesOnly: true, rootPkgNames: k.pkgNames, ginFork: k.GinFork}
	c.run = &Run{Primary: primary, origin: map[*doc.Node]Origin{}}
	if codeFormat(primary) == doc.Gin {
		c.ginLoad(newMap(nil, ""), primary, "", doc.Span{})
	} else {
		c.mmLoad(primary, "", doc.Span{})
	}
	return c.run.Files
}

// parseCode reads and parses a code config once (nil, false when it cannot be read).
func (c *composer) parseCode(p string) (*doc.Document, bool) { return c.parseAs(p, codeFormat(p)) }

// enter does the checks every load shares: a cycle, the depth, the merge and file limits, the
// file's existence. It returns the parsed file (nil when the load must stop; the problem is
// recorded) and pushes it on the stack (the caller pops with leave).
func (c *composer) enter(p, what, from string, ref doc.Span) *doc.Document {
	if c.stopped {
		return nil
	}
	if c.cycle(p, what, from, ref) {
		return nil
	}
	if len(c.stack) >= c.lim.MaxDepth {
		c.problem(Limit, from, ref, what+"s nest deeper than "+itoa(c.lim.MaxDepth)+" levels; the rest was not composed")
		return nil
	}
	if c.loads++; c.loads > 20*c.lim.MaxFiles {
		c.problem(Limit, from, ref, "the run merges configs more than "+itoa(20*c.lim.MaxFiles)+" times; the rest was not composed")
		c.stopped = true
		return nil
	}
	d, ok := c.parseCode(p)
	if !ok {
		c.problem(Unresolved, from, ref, what+" "+quote(p)+" not found")
		return nil
	}
	if c.run.File(p) == nil {
		if len(c.run.Files) >= c.lim.MaxFiles {
			c.problem(Limit, from, ref, "the run reads more than "+itoa(c.lim.MaxFiles)+" files; the rest was not composed")
			c.stopped = true
			return nil
		}
		c.run.Files = append(c.run.Files, d)
	}
	c.stack = append(c.stack, p)
	return d
}

// baseListing lists the folder of p when p lies under a _base_ folder of a tree on disk (inBase).
// Only a tree that is a folder on disk (Named: the CLI's, the editor's) says a file or a
// folder is absent; a set of files given in memory (the browser's) holds only what was given.
func (c *composer) baseListing(p string) (es []Entry, inBase bool, err error) {
	if _, onDisk := c.fsys.(Named); !onDisk || !strings.Contains("/"+path.Dir(p)+"/", "/_base_/") {
		return nil, false, nil
	}
	es, err = c.fsys.ReadDir(path.Dir(p))
	return es, true, err
}

// absentFrom reports a file under a _base_ folder that the tree has and lists without it.
func (c *composer) absentFrom(p string) bool {
	es, in, err := c.baseListing(p)
	return in && err == nil && !slices.ContainsFunc(es, func(e Entry) bool { return e.Name == path.Base(p) })
}

// overlay reports that a base of the list lies in a _base_ folder the tree does not have: the
// config was written to be copied over another repository's configs (FocalNet's detection
// folder, laid over an MMDetection checkout), which holds what this tree lacks, so no missing
// base of the list is certain to stop the loader.
func (c *composer) overlay(dir string, items []*doc.Node) bool {
	for _, it := range items {
		s, ok := it.Str()
		if !ok || it.IsUnknown() || strings.Contains(s, "::") {
			continue
		}
		if bp, ok := inTree(dir, s); ok {
			if _, in, err := c.baseListing(bp); in && err != nil {
				return true
			}
		}
	}
	return false
}

func (c *composer) leave() { c.stack = c.stack[:len(c.stack)-1] }

// inTree joins rel to dir; ok is false when the result leaves the tree (absolute, "..").
func inTree(dir, rel string) (string, bool) {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") || strings.Contains(rel, ":") {
		return "", false
	}
	p := path.Join(dir, rel)
	if p == ".." || strings.HasPrefix(p, "../") || !fs.ValidPath(p) {
		return "", false
	}
	return p, true
}

// mmLoad composes the MMEngine config p: its module variables with its bases merged in, as a
// fresh map of the run. complete is false when a base could not be read. imports are the names
// p leaves bound to imports (Document.Imports), those a star import of its bases gave it
// included, for a new-style file that star-imports p.
func (c *composer) mmLoad(p, from string, ref doc.Span) (root *doc.Node, complete bool, imports []doc.Import) {
	d := c.enter(p, "base config", from, ref)
	if d == nil {
		return nil, false, nil
	}
	defer c.leave()
	if len(d.Calls) > 0 && codeFormat(p) == doc.Python && (d.Root == nil || d.Root.Style == "get_config") {
		// An ml_collections config built with other modules' functions (code_calls.go).
		if root := c.callsLoad(p, d, nil, nil); root != nil || d.Root == nil {
			return root, root != nil, nil
		}
	}
	if d.Root == nil || d.Root.Kind != doc.Map {
		return nil, false, nil // a parse error, reported on the file itself
	}
	complete = true
	dir := path.Dir(p)
	base := newMap(nil, "")
	c.run.origin[base] = Origin{File: p}
	// Old style: `_base_` names files relative to this one.
	if b := d.Root.Get(mmBaseKey); b != nil {
		items := []*doc.Node{b}
		if b.Kind == doc.Seq {
			items = b.Children
		}
		overlay := c.overlay(dir, items)
		for _, it := range items {
			s, ok := it.Str()
			if !ok || it.IsUnknown() {
				c.problem(Unresolved, p, it.Span, "_base_ entry is not a path this static reader can know; its config was not read")
				complete = false
				continue
			}
			var bp string
			if scope, rel, ext := strings.Cut(s, "::"); ext {
				if bp, ok = c.packageConfig(dir, scope, rel); !ok {
					switch {
					case !mmScopes[scope]:
						// mmengine v0.10.7 config/utils.py _get_package_and_cfg_path asserts
						// the scope is in MODULE2PACKAGE, and raises ValueError for a path
						// that is not a word and a slash first: the config never loads.
						c.problem(Refused, p, it.Span, "base "+quote(s)+" names "+quote(scope)+", which is no package scope MMEngine knows: Config.fromfile stops (AssertionError) before training starts")
					case !scopedPath(rel):
						c.problem(Refused, p, it.Span, "base "+quote(s)+" is no path MMEngine reads after a scope (a name and a slash first): Config.fromfile stops (ValueError) before training starts")
					case c.packageAbove(dir, scope):
						c.problem(Unresolved, p, it.Span, "base "+quote(s)+" is not in the configs folder of the "+scope+" package in the tree (configs/"+rel+"); it was not read")
					default:
						c.problem(Unresolved, p, it.Span, "base "+quote(s)+" is a config of the installed package "+scope+", which is not in the tree; it was not read")
					}
					complete = false
					continue
				}
			} else if strings.TrimSpace(s) == "" {
				c.problem(Unresolved, p, it.Span, "base "+quote(s)+" is an empty path (a template to fill in?); no config was read")
				complete = false
				continue
			} else if bp, ok = inTree(dir, s); !ok {
				c.problem(Unresolved, p, it.Span, "base "+quote(s)+" is outside the tree and was not read")
				complete = false
				continue
			} else if !mmConfigExt(bp) {
				help := "name each base with its file's suffix (.py, .json, .yaml or .yml)"
				if _, err := c.fsys.ReadFile(bp + ".py"); err == nil {
					help = "name the base with its suffix: " + quote(s+".py")
				}
				c.problemWith(Refused, p, it.Span, mmRefuse+"a base without a .py, .json, .yaml or .yml suffix: "+quote(s)+" ("+c.extRefusal(bp)+")", help)
				complete = false
				continue
			} else if !overlay && c.absentFrom(bp) {
				// A _base_ folder of the tree that lacks the file (BEVFusion's
				// ../_base_/datasets/lyft-3d.py): Config._file2dict's check_file_exist raises
				// for the joined path (mmcv v1.4.0 utils/config.py, mmengine v0.10.7
				// config/config.py). A base whose folder is missing too stays unresolved: a
				// file written to be copied into another repository's configs (CSWin's). So
				// does one beside the file (./x.py): a config copied out of its repository
				// alone, with its bases left behind, is not the repository's config.
				c.problem(Refused, p, it.Span, mmRefuse+"a base that does not exist: "+path.Dir(bp)+" has no "+path.Base(bp)+
					" (Config.fromfile raises FileNotFoundError before training starts)")
				complete = false
				continue
			}
			sub, ok, _ := c.mmLoad(bp, p, it.Span)
			if sub == nil {
				complete = false
				continue
			}
			complete = complete && ok
			var dup []string
			for _, ch := range append([]*doc.Node(nil), sub.Children...) {
				if prev := base.Get(ch.Key); prev != nil {
					if !c.mayBeGone[prev] && !c.mayBeGone[ch] {
						dup = append(dup, quote(ch.Key))
					}
					continue
				}
				setChild(base, ch.Key, ch)
			}
			if len(dup) > 0 {
				c.problem(Refused, p, it.Span, mmRefuse+"a key that two bases set: "+strings.Join(dup, ", ")+" set again by "+bp)
			}
		}
	}
	// New style: `with read_base(): from .x import *` makes the module's variables this file's,
	// and the names it binds to imports (lazyImport in lint/doc/pybase.go).
	newStyle := false
	var baseImports []doc.Import
	for _, r := range d.Refs {
		if r.Kind != "base" {
			continue
		}
		newStyle = true
		bp, ok := moduleFile(dir, r.Target)
		if !ok {
			bp, ok = c.packageModule(dir, r.Target)
		}
		if !ok {
			c.problem(Unresolved, p, r.Span, "base module "+quote(r.Target)+" is an installed package's config or outside the tree; it was not read")
			complete = false
			continue
		}
		sub, ok, subImports := c.mmLoad(bp, p, r.Span)
		if sub == nil {
			complete = false
			continue
		}
		complete = complete && ok
		names, star := importedNames(d.Src, r.Span)
		for _, ch := range append([]*doc.Node(nil), sub.Children...) {
			as, ok := names[ch.Key]
			if !ok && !(star && !strings.HasPrefix(ch.Key, "_")) {
				continue
			}
			if as == "" {
				as = ch.Key
			}
			setChild(base, as, ch)
		}
		for _, im := range subImports {
			if as, ok := names[im.Name]; ok || star && !strings.HasPrefix(im.Name, "_") {
				if as != "" {
					im.Name = as
				}
				im.From = r.Target
				baseImports = append(baseImports, im)
			}
		}
	}
	if c.filesOnly {
		return base, complete, nil
	}
	lazy := newStyle && (len(base.Children) > 0 || len(baseImports) > 0) // new style with bases read
	unfollowed := false
	if lazy || d.ReadsBases && !newStyle {
		// MMEngine runs the file with `_base_` bound to the bases (old style), or with the
		// names a new-style file imports bound to the base modules' values: read it again with
		// them, so that an operation on a part of them (`_base_.max_epochs - 2`) has a value
		// and a new-style file's in-place changes (`model.update(...)`) are edits of the bases.
		// The file's own parse, where they are unknown, stays what the run lists.
		d2 := doc.ParseWith(p, d.Src, codeFormat(p), doc.Options{Limits: c.lim.Doc, Bases: base, Imports: baseImports})
		if d2.Root != nil && d2.Root.Kind == doc.Map {
			d = d2
		} else if lazy {
			// The second reading passed a limit the first did not (the edits' values count):
			// what the file does to its imports is not known.
			for _, pr := range d2.Problems {
				c.problem(Limit, p, pr.Span, pr.Message)
			}
			unfollowed = true
		}
	}
	own := c.copyTree(d.Root, Origin{File: p})
	if newStyle {
		// Plain Python: the file's own assignment replaces the import (no base read: the
		// file's own variables are the run).
		switch {
		case unfollowed:
			for _, ch := range append([]*doc.Node(nil), base.Children...) {
				if own.Get(ch.Key) == nil {
					c.setUnknown(base, ch.Key, ch.Key, ch.KeySpan, ch.Span, p)
				}
			}
		case lazy:
			c.applyBaseEdits(d, base, complete, p, "")
			c.substituteBase(own, base, complete, p, d.BaseEdits, "", true)
		}
		for _, ch := range append([]*doc.Node(nil), own.Children...) {
			setChild(base, ch.Key, ch)
		}
		return base, complete, d.Imports
	}
	c.applyBaseEdits(d, base, complete, p, mmBaseKey+".")
	c.substituteBase(own, base, complete, p, d.BaseEdits, mmBaseKey+".", true)
	for _, ch := range append([]*doc.Node(nil), own.Children...) {
		if ch.Key == mmBaseKey {
			if p == c.run.Primary && !complete {
				setChild(base, ch.Key, ch) // kept: the dialect knows the run is partial
			}
			continue
		}
		c.mmMerge(base, ch, p)
	}
	return base, complete, d.Imports
}

// setUnknown puts under key in the map n an unknown value that file set (a value changed in
// a way the reader cannot follow), keyed and spanned as given.
func (c *composer) setUnknown(n *doc.Node, key, value string, keySpan, span doc.Span, file string) {
	u := &doc.Node{Kind: doc.Scalar, Type: doc.Unknown, Style: "opaque", Value: value, KeySpan: keySpan, Span: span}
	c.run.origin[u] = Origin{File: file}
	setChild(n, key, u)
}

// applyBaseEdits applies the file's assignments into `_base_` (Document.BaseEdits) to its
// bases, in order, before the file's own variables are merged in, as MMEngine's exec of the
// file changes the bases' dict in place. Each edit's value takes the bases as the edits before
// it left them (a read an edit after it could change stays unknown); a part of the bases it
// names that they do not set is reported as unresolved (Python stops there with an
// AttributeError or IndexError).
func (c *composer) applyBaseEdits(d *doc.Document, base *doc.Node, complete bool, file, label string) {
	for _, e := range d.BaseEdits {
		v := c.copyTree(e.Value, Origin{File: file})
		holder := newMap(nil, "")
		setChild(holder, v.Key, v)
		c.substituteBase(holder, base, complete, file, d.BaseEdits, label, false)
		v = holder.Children[0]
		if e.Merge {
			target := base.StepPath(e.Path)
			if target != nil && target.Kind == doc.Map {
				c.configUpdate(target, v, file)
				continue
			}
			if target == nil {
				if complete && !unknownOnPath(base, e.Path) {
					if c.baseMissOf(base, e.Path) == missRaises {
						c.refusedOnce(file, e.Span, c.basesText(label, e.Path)+" is updated, but "+c.basesSubject(e.Path)+" not set it: the update raises")
					} else {
						c.problem(Unresolved, file, e.Span, c.basesText(label, e.Path)+" is updated, but "+c.basesSubject(e.Path)+" not set it")
					}
				}
				continue
			}
			// update on a value that is unknown or not a dict: what it does is not known.
			v = &doc.Node{Kind: doc.Scalar, Type: doc.Unknown, Style: "opaque", Value: v.Value, Key: v.Key, KeySpan: v.KeySpan, Span: e.Span}
			c.run.origin[v] = Origin{File: file}
		}
		if e.Path == "" {
			// A change to the bases as a whole (_base_.update(...), a del in a loop over
			// _base_.keys()): every entry is unknown, and after one that may delete (MayDelete)
			// may be gone (mayBeGone).
			for _, ch := range append([]*doc.Node(nil), base.Children...) {
				c.setUnknown(base, ch.Key, v.Value, ch.KeySpan, e.Span, file)
				if !e.MayDelete {
					continue
				}
				if c.mayBeGone == nil {
					c.mayBeGone = map[*doc.Node]bool{}
				}
				c.mayBeGone[base.Get(ch.Key)] = true
			}
			continue
		}
		parts := strings.Split(e.Path, ".")
		parent := base
		for _, k := range parts[:len(parts)-1] {
			if parent = parent.Step(k); parent == nil || parent.Kind == doc.Scalar {
				break
			}
		}
		last := parts[len(parts)-1]
		switch {
		case e.Delete:
			if old := deleteChild(parent, last); old != nil {
				if c.baseDeleted == nil {
					c.baseDeleted = map[[2]string]*doc.Node{}
				}
				c.baseDeleted[[2]string{file, e.Path}] = old
				continue
			}
			if e.IfPresent && parent != nil && parent.Kind == doc.Map {
				continue // pop of a key the bases do not have: nothing happens
			}
		case parent != nil && parent.Kind == doc.Map:
			setChild(parent, last, v)
			continue
		case parent != nil && parent.Kind == doc.Seq:
			if j, err := strconv.Atoi(last); err == nil && j >= 0 && j < len(parent.Children) {
				old := parent.Children[j]
				v.Key, v.KeySpan, v.Index, v.Parent = old.Key, doc.Span{}, j, parent
				parent.Children[j] = v
				continue
			}
		}
		if complete && !unknownOnPath(base, e.Path) {
			what := c.basesText(label, e.Path) + " is assigned, but " + c.basesSubject(e.Path) + " not set what it is part of"
			if e.Delete {
				what = c.basesText(label, e.Path) + " is deleted, but " + c.basesSubject(e.Path) + " not set it"
			}
			if c.baseMissOf(base, e.Path) == missRaises {
				c.refusedOnce(file, e.Span, what+": the statement raises")
				continue
			}
			c.problem(Unresolved, file, e.Span, what)
		}
	}
}

// deleteChild deletes the entry key of a map, or the item of a list at the index key, and
// returns it (nil when there was none).
func deleteChild(parent *doc.Node, key string) *doc.Node {
	switch {
	case parent == nil:
	case parent.Kind == doc.Map:
		if old := parent.Get(key); old != nil {
			removeChild(parent, key)
			return old
		}
	case parent.Kind == doc.Seq:
		if j, err := strconv.Atoi(key); err == nil && j >= 0 && j < len(parent.Children) {
			old := parent.Children[j]
			parent.Children = append(parent.Children[:j], parent.Children[j+1:]...)
			for i, ch := range parent.Children {
				ch.Index = i
			}
			return old
		}
	}
	return nil
}

// configUpdate merges src's entries into the map dst as ConfigDict.update does (mmengine
// v0.10.7 config/config.py): an entry whose new and old values are both dicts is updated the
// same way, any other replaces the old value; a dict over an unknown value is unknown.
func (c *composer) configUpdate(dst, src *doc.Node, file string) {
	for _, ch := range append([]*doc.Node(nil), src.Children...) {
		cur := dst.Get(ch.Key)
		switch {
		case cur != nil && cur.Kind == doc.Map && ch.Kind == doc.Map:
			c.configUpdate(cur, ch, file)
		case cur.IsUnknown() && ch.Kind == doc.Map:
			c.setUnknown(dst, ch.Key, cur.Value, ch.KeySpan, ch.Span, file)
		default:
			setChild(dst, ch.Key, ch)
		}
	}
}

// unknownOnPath reports whether the dotted path p, walked from n, meets a value the reader does
// not know before its end: what lies under it is not known either, so a part missing there is
// no finding (Python may well find it).
func unknownOnPath(n *doc.Node, p string) bool {
	for rest, more := p, true; more && n != nil; {
		if n.IsUnknown() {
			return true
		}
		var k string
		k, rest, more = strings.Cut(rest, ".")
		n = n.Step(k)
	}
	return false
}

// staleBaseRead reports whether a read of `_base_.target` at offset off may run before an edit
// of an overlapping part of the bases (the same part, a part of it or one it is part of): it
// starts before the end of the module-level statement that made the edit (BaseEdit.Order; a
// read in a function's body counts where the body is written, which is before any call of
// it). Its value then depends on an order of statements this reader does not follow, so the
// read stays unknown. When the read is substituted with the bases as all the edits left them
// (final: the file's own variables, after applyBaseEdits), an edit that changes the contents
// of the part read (a part below it, or the part itself in place: BaseEdit.InPlace, Merge) is
// no such edit: what MMEngine gives the file for `_base_.target` is the bases' object itself,
// not a copy (ConfigDict.__getattr__), so the read holds that object and sees the change,
// whenever the read ran; only an edit that puts another object at the part, or at a part it
// is in, leaves the read holding the old one. An edit's own value is substituted with the
// bases as the edits before it left them, which a later change in place would not show.
func staleBaseRead(target string, off int, edits []doc.BaseEdit, final bool) bool {
	for _, e := range edits {
		p := e.Path
		if i := strings.LastIndexByte(p, '.'); e.Delete && i >= 0 {
			if _, err := strconv.Atoi(p[i+1:]); err == nil {
				// `del _base_.hooks[0]` moves the items after it: a read of any item of the
				// list may name another object by its index than the one it took.
				p = p[:i]
			}
		}
		if e.Order <= off || !doc.BasePathsOverlap(target, p) {
			continue
		}
		if final && (e.Path == target && (e.InPlace || e.Merge) || target == "" || strings.HasPrefix(e.Path, target+".")) {
			continue // the object read changes in place
		}
		return true
	}
	return false
}

// substituteBase replaces, in the file's value n, whole values `_base_.x` and `{{_base_.x}}`
// with a copy of the bases' x (as the file's edits of its bases left them, when the read
// follows them; see staleBaseRead).
func (c *composer) substituteBase(n, base *doc.Node, complete bool, file string, edits []doc.BaseEdit, label string, final bool) {
	for i, ch := range n.Children {
		if n.Parent == nil && ch.Key == mmBaseKey {
			continue
		}
		target, ok := baseRef(ch, c.parsed[file])
		if !ok {
			c.substituteBase(ch, base, complete, file, edits, label, final)
			continue
		}
		if staleBaseRead(target, ch.Span.Start.Offset, edits, final) {
			continue
		}
		v := base.StepPath(target)
		if v == nil && complete && c.readWrittenAt(file, ch.Span) {
			if del := deletedBefore(edits, target, ch.Span.Start.Offset); del != nil {
				// ConfigDict's deletion removed the key: the read raises.
				c.refusedOnce(file, ch.Span, c.basesText(label, target)+" is read after `del` removed "+c.basesText(label, del.Path)+" (line "+itoa(del.Span.Start.Line)+"): reading it raises")
				continue
			}
		}
		if v == nil {
			v = c.heldDeleted(file, target)
		}
		if v == nil {
			if complete && !unknownOnPath(base, target) {
				c.missingBasePart(base, target, file, label, ch.Span)
			}
			continue
		}
		cp := c.recopy(v)
		cp.Key, cp.KeySpan, cp.Index, cp.Parent = ch.Key, ch.KeySpan, i, n
		if c.run.Origin(v).File != file {
			// The node is the bases' (its origin is their file): a key span must be in that
			// file too, so a finding at the key points at a place there (the key the bases
			// set it under; none for a caller's argument, whose finding takes its value).
			cp.KeySpan = v.KeySpan
		}
		n.Children[i] = cp
	}
}

// missingBasePart reports a read of a part of the bases that they do not set, when every base
// was read and nothing unknown lies on its path: refused when MMEngine certainly stops loading
// the config there, nothing for an attribute of a value, unresolved otherwise (baseMissOf).
func (c *composer) missingBasePart(base *doc.Node, target, file, label string, span doc.Span) {
	switch c.baseMissOf(base, target) {
	case missRaises:
		c.refusedOnce(file, span, c.basesText(label, target)+" is not set by "+c.basesObject(target)+": reading it raises")
	case missAttr:
		// an attribute of the value itself (an int's real, a dict's keys): not missing
	default:
		c.problem(Unresolved, file, span, c.basesText(label, target)+" is not set by "+c.basesObject(target))
	}
}

// baseMiss is what a read of a part of the bases they do not set does (baseMissOf).
type baseMiss uint8

const (
	missUnknown baseMiss = iota // not known: it may be set where this reader does not see
	missRaises                  // Python raises: the config never loads
	missAttr                    // it names an attribute of the value before it, not an entry
)

// baseMissOf says what a read of the part path p of the bases, which they do not set (every
// base read, nothing unknown on the path), or of a part of it, does. The first part of p they
// do not set names an attribute of the value before it (missAttr) on a scalar, by a name on a
// list, or by a ConfigDict's own attribute on a dict. Otherwise Python raises where that value
// is a dict or a list read at a number past its end (mmengine v0.10.7 config/config.py:
// ConfigDict raises AttributeError for a missing attribute and KeyError for a missing item, a
// list IndexError; _substitute_base_vars indexes `{{_base_.x}}`'s path the same way); at the
// top level only unless a file of the run may bind module variables this reader does not see
// (unseenNames: _file2dict keeps every module variable of a base but functions and modules). A
// part of what another module's function returns is not judged (code_calls.go).
func (c *composer) baseMissOf(base *doc.Node, p string) baseMiss {
	n := base
	for rest, more := p, true; more; {
		var k string
		k, rest, more = strings.Cut(rest, ".")
		next := n.Step(k)
		if next != nil {
			n = next
			continue
		}
		_, err := strconv.Atoi(k)
		switch {
		case n.Kind == doc.Map && dictAttr(k), n.Kind == doc.Seq && err != nil, n.Kind != doc.Map && n.Kind != doc.Seq:
			return missAttr
		}
		if _, _, call := c.callOf(p); call || n == base && c.unseenNames() {
			return missUnknown
		}
		return missRaises
	}
	return missUnknown
}

// dictAttr reports whether name is an attribute every ConfigDict has (a method of dict, of
// addict's Dict or of ConfigDict, mmengine v0.10.7, or a dunder), which a read finds without a
// key of that name.
func dictAttr(name string) bool {
	switch name {
	case "keys", "values", "items", "get", "pop", "popitem", "update", "copy", "setdefault", "clear",
		"fromkeys", "to_dict", "deepcopy", "merge", "freeze", "unfreeze", "build_lazy":
		return true
	}
	return strings.HasPrefix(name, "__")
}

// refusedOnce reports that the config never loads because the file's statement at span
// uses a part of the bases they do not set. Python stops at the first such statement while it
// runs the file; the `{{_base_.x}}` reads are indexed after that (Config._substitute_base_vars):
// one problem per file, the first of those (a copy of a value, `x = _base_.a` then
// `dict(dataset=x)`, holds the same read, and the statements after the first never run).
func (c *composer) refusedOnce(file string, span doc.Span, what string) {
	msg := what + baseRefusal
	late := c.substitutedAt(file, span)
	if c.run != nil {
		for i := range c.run.Problems {
			if q := &c.run.Problems[i]; q.Kind == Refused && q.File == file && strings.HasSuffix(q.Message, baseRefusal) {
				qLate := c.substitutedAt(file, q.Span)
				if late != qLate && qLate || late == qLate && span.Start.Offset < q.Span.Start.Offset {
					q.Span, q.Message = span, msg
				}
				return
			}
		}
	}
	c.problemWith(Refused, file, span, msg, baseRefusalHelp)
}

// mmConfigExt reports whether a base path ends in a suffix Config.fromfile reads. Config._file2dict
// joins a _base_ entry to the folder of the file that names it as written, adds no suffix, checks
// that a file is there (check_file_exist: FileNotFoundError 'file "..." does not exist') and
// then refuses any suffix but .py, .json, .yaml and .yml (OSError 'Only py/yml/yaml/json type are
// supported now!'): mmengine v0.1.0 config/config.py:374-377 to v0.10.7 config.py:855-859 with
// _get_cfg_path's osp.join (:1284-1285), and mmcv v1.0.0 utils/config.py:115-118 to v1.7.2
// utils/config.py:184-188 with the osp.join(cfg_dir, f) of :254. A base named without its
// suffix (MMDetection 3.x's configs/sort: './faster-rcnn_..._mot17halfval') stops every load.
func mmConfigExt(p string) bool {
	switch path.Ext(p) {
	case ".py", ".json", ".yaml", ".yml":
		return true
	}
	return false
}

// extRefusal is what Config.fromfile raises for the base p that mmConfigExt refuses.
func (c *composer) extRefusal(p string) string {
	if _, err := c.fsys.ReadFile(p); err == nil {
		return "Config.fromfile raises OSError \"Only py/yml/yaml/json type are supported now!\" before training starts"
	}
	return "Config.fromfile raises FileNotFoundError before training starts: file " + quote(p) + " does not exist"
}

// mmRefuse begins the problems of bases both config loaders refuse (MMEngine's Config.fromfile
// and MMCV 1.7.2's make the same checks).
const mmRefuse = "MMEngine and MMCV 1.x refuse "

// baseRefusalHelp is the help of refusedOnce's problems.
const baseRefusalHelp = "set the name in one of the files _base_ lists, or fix the name read (and read it before a `del` that removes it): Config.fromfile takes each _base_.x from the bases when it loads this file"

// substitutedAt reports whether the file's text at span is a `{{_base_.x}}` read, which MMEngine
// resolves after the file has run.
func (c *composer) substitutedAt(file string, span doc.Span) bool {
	return bytes.HasPrefix(c.textFrom(file, span), []byte("{{"))
}

// textFrom is the file's text from the start of span to its end (nil for a file not parsed or
// a span outside it).
func (c *composer) textFrom(file string, span doc.Span) []byte {
	d := c.parsed[file]
	if d == nil || span.Start.Offset < 0 || span.Start.Offset >= len(d.Src) {
		return nil
	}
	return d.Src[span.Start.Offset:]
}

// baseRefusal ends the problems of refusedOnce: MMEngine's Config.fromfile, and MMCV 1.x's
// (mmcv v1.7.2 utils/config.py, the same ConfigDict and _substitute_base_vars), raise.
const baseRefusal = ", so Config.fromfile stops before training starts"

// unseenNames reports whether a Python file read into the run so far may bind module
// variables this reader does not see: a `from m import name` (a value of another module), a
// class, a `with ... as` name, a star import, a global statement, or a write through
// globals(), locals(), vars(), __dict__, exec or setattr. (A plain `import m` binds a module,
// which _file2dict drops.) The run's files are only ever appended, so each is scanned once,
// however many reads ask (c.unseenScanned, c.unseen).
func (c *composer) unseenNames() bool {
	for ; c.unseenScanned < len(c.run.Files) && !c.unseen; c.unseenScanned++ {
		c.unseen = bindsUnseen(c.run.Files[c.unseenScanned])
	}
	return c.unseen
}

// bindsUnseen is unseenNames' test of one file.
func bindsUnseen(d *doc.Document) bool {
	if d.Format != doc.Python {
		return false
	}
	for _, w := range []string{"import *", "globals()", "locals()", "vars(", "exec(", "setattr(", "__dict__", "global "} {
		if bytes.Contains(d.Src, []byte(w)) {
			return true
		}
	}
	for _, line := range bytes.Split(d.Src, []byte("\n")) {
		t := bytes.TrimLeft(line, " \t")
		switch {
		case bytes.HasPrefix(t, []byte("from ")) && bytes.Contains(t, []byte(" import")),
			bytes.HasPrefix(t, []byte("class ")),
			bytes.HasPrefix(t, []byte("with ")) && bytes.Contains(t, []byte(" as ")):
			return true
		}
	}
	return false
}

// readWrittenAt reports whether the file's text at span is the read of the bases itself
// (`_base_.x`, `{{_base_.x}}`), not a name that holds what an earlier read gave (`det` after
// `det = _base_.model`), whose value the span of its use carries.
func (c *composer) readWrittenAt(file string, span doc.Span) bool {
	return bytes.HasPrefix(c.textFrom(file, span), []byte(mmBaseKey)) || c.substitutedAt(file, span)
}

// deletedBefore is the file's `del` of the part target of the bases, or of a part it is in,
// whose statement ends at or before off (so a read at off runs after it), or nil.
func deletedBefore(edits []doc.BaseEdit, target string, off int) *doc.BaseEdit {
	for i := range edits {
		e := &edits[i]
		if e.Delete && e.Order <= off && (e.Path == target || strings.HasPrefix(target, e.Path+".")) {
			return e
		}
	}
	return nil
}

// heldDeleted is the part target of the bases as the file's `del` of it (or of a part it is in)
// left it, or nil: a read of it through a name bound before the del holds that object. (A read
// of `_base_.target` after the del raises in Python: substituteBase refuses it first.)
func (c *composer) heldDeleted(file, target string) *doc.Node {
	var held *doc.Node
	longest := -1
	for p, n := range c.baseDeleted {
		if p[0] != file || len(p[1]) <= longest {
			continue
		}
		if target == p[1] {
			held, longest = n, len(p[1])
		} else if rest, ok := strings.CutPrefix(target, p[1]+"."); ok {
			held, longest = n.StepPath(rest), len(p[1])
		}
	}
	return held
}

// baseRef recognises `_base_.a.b` (an opaque value) and `{{_base_.a.b}}` (read by Python as
// a set of a set: a sequence holding a sequence holding it).
func baseRef(n *doc.Node, d *doc.Document) (string, bool) {
	if n.Kind == doc.Seq && len(n.Children) == 1 && n.Children[0].Kind == doc.Seq && len(n.Children[0].Children) == 1 &&
		d != nil && n.Span.Start.Offset+2 <= len(d.Src) && string(d.Src[n.Span.Start.Offset:n.Span.Start.Offset+2]) == "{{" {
		n = n.Children[0].Children[0]
	}
	if !n.IsUnknown() || n.Style != "opaque" {
		return "", false
	}
	t, ok := strings.CutPrefix(n.Value, mmBaseKey+".")
	if !ok || t == "" {
		return "", false
	}
	for _, r := range t {
		if !(r == '.' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return "", false
		}
	}
	return t, true
}

// mmMerge merges the file's entry src into dst as Config._merge_a_into_b does. A dict merged
// into a value the reader does not know (which may be a dict) is not known either.
func (c *composer) mmMerge(dst, src *doc.Node, file string) {
	cur := dst.Get(src.Key)
	if src.Kind == doc.Map && cur != nil {
		del, _ := src.Get(mmDeleteKey).Bool()
		if !del {
			if cur.IsUnknown() {
				c.setUnknown(dst, src.Key, cur.Value, src.KeySpan, src.Span, file)
				return
			}
			if cur.Kind != doc.Map {
				c.problem(Refused, file, src.KeySpan, mmRefuse+quote(src.Key)+": it is a dict here but not in the base ("+c.run.Origin(cur).File+"); `_delete_=True` replaces it")
			} else {
				for _, ch := range append([]*doc.Node(nil), src.Children...) {
					c.mmMerge(cur, ch, file)
				}
				return
			}
		}
		removeChild(src, mmDeleteKey)
	}
	setChild(dst, src.Key, src)
}

// recopy copies a node of the composed tree, keeping each node's origin.
func (c *composer) recopy(n *doc.Node) *doc.Node {
	c.nodes++
	cp := &doc.Node{Kind: n.Kind, Type: n.Type, Quoted: n.Quoted, Alias: n.Alias, Value: n.Value, Style: n.Style,
		Key: n.Key, Index: n.Index, KeySpan: n.KeySpan, Span: n.Span, Use: n.Use}
	if o, ok := c.run.origin[n]; ok {
		c.run.origin[cp] = o
	}
	if c.nodes > c.lim.MaxNodes {
		if !c.stopped {
			c.stopped = true
			c.problem(Limit, c.run.Origin(n).File, n.Span, "the composed run has more than "+itoa(c.lim.MaxNodes)+" values; the rest was not composed")
		}
		return cp
	}
	for _, ch := range n.Children {
		k := c.recopy(ch)
		k.Parent = cp
		cp.Children = append(cp.Children, k)
	}
	return cp
}

// moduleFile turns a relative module of `from <module> import` into its file inside the tree:
// one leading dot is the file's own folder, each further dot a folder up.
func moduleFile(dir, mod string) (string, bool) {
	level := len(mod) - len(strings.TrimLeft(mod, "."))
	if level == 0 {
		return "", false
	}
	rest := mod[level:]
	if rest == "" {
		return "", false
	}
	rel := strings.Repeat("../", level-1) + strings.ReplaceAll(rest, ".", "/") + ".py"
	return inTree(dir, rel)
}

// packageModule finds the file of an absolute base module (`from opencompass.configs.x import
// *`) in the tree, as MMEngine finds it where the package is installed from the tree itself (a
// development install, the usual way to run a repository's own configs): mmengine v0.10.7
// Config._get_base_modules takes the module's first part for a package, get_installed_path
// locates it, and the rest of the dotted name is a path under it. The nearest folder, from the
// importing file's upwards, that holds the whole path is the package's parent. A module of one
// part is refused by MMEngine, and is not looked for.
func (c *composer) packageModule(dir, mod string) (string, bool) {
	if mod == "" || mod[0] == '.' || !strings.Contains(mod, ".") {
		return "", false
	}
	rel := strings.ReplaceAll(mod, ".", "/") + ".py"
	return upwards(dir, func(a string) (string, bool) { return c.codeAt(a, rel) })
}

// upwards calls try on dir, then on each folder above it up to the tree's root, and returns
// the first path try finds.
func upwards(dir string, try func(folder string) (string, bool)) (string, bool) {
	for a := dir; ; a = path.Dir(a) {
		if p, ok := try(a); ok {
			return p, true
		}
		if a == "." || a == "/" || a == "" {
			return "", false
		}
	}
}

// codeAt is rel joined to dir when that file is in the tree and parses.
func (c *composer) codeAt(dir, rel string) (string, bool) {
	p, ok := inTree(dir, rel)
	if ok {
		_, ok = c.parseCode(p)
	}
	return p, ok
}

// mmScopes are the packages whose configs an MMEngine base may name as `scope::path` (mmengine
// v0.10.7 config/utils.py MODULE2PACKAGE, whose keys are the packages' module names; any other
// scope is refused).
var mmScopes = map[string]bool{
	"mmcls": true, "mmdet": true, "mmdet3d": true, "mmseg": true, "mmaction": true, "mmtrack": true,
	"mmpose": true, "mmedit": true, "mmocr": true, "mmgen": true, "mmfewshot": true, "mmrazor": true,
	"mmflow": true, "mmhuman3d": true, "mmrotate": true, "mmselfsup": true, "mmyolo": true,
	"mmpretrain": true, "mmagic": true,
}

// packageConfig finds the file of an old-style base in another package (`_base_ =
// 'mmaction::_base_/default_runtime.py'`) in the tree, when the tree is that package's own
// repository: mmengine v0.10.7 Config._get_cfg_path opens it under the installed package's
// `.mim/configs` (_get_external_cfg_base_path; a name in the package's model index resolves
// there too), and the package's setup.py (add_mim_extension) makes `.mim/configs` the
// repository's `configs` folder, a link to it in a development install and a copy of it
// otherwise. So the nearest folder, from the including file's upwards, that holds the package
// (`scope/__init__.py`) and `configs/path` holds the base. A base of a package installed from
// elsewhere is not in the tree, and stays unresolved.
func (c *composer) packageConfig(dir, scope, rel string) (string, bool) {
	if !mmScopes[scope] || !scopedPath(rel) {
		return "", false
	}
	return upwards(dir, func(a string) (string, bool) {
		if !c.holdsPackage(a, scope) {
			return "", false
		}
		return c.codeAt(a, "configs/"+rel)
	})
}

// holdsPackage reports whether the folder a holds the package scope (scope/__init__.py).
func (c *composer) holdsPackage(a, scope string) bool {
	_, err := c.fsys.ReadFile(path.Join(a, scope, "__init__.py"))
	return err == nil
}

// packageAbove reports whether a folder from dir up is a source checkout of the package scope
// (checkoutOf).
func (c *composer) packageAbove(dir, scope string) bool {
	_, ok := upwards(dir, func(a string) (string, bool) { return a, c.checkoutOf(a, scope) })
	return ok
}

// checkoutOf reports whether the folder a is a source checkout of the package scope: it holds
// the package and a file pip installs it from (setup.py, setup.cfg or pyproject.toml), so an
// editable install of it is the package MMEngine reads the scope's configs from, its configs
// folder (get_installed_path asks the installed distribution first,
// mmengine/utils/package_utils.py:55, v0.10.7, and the configs are the package's .mim/configs,
// config/utils.py:100-111). A copy of the package's code alone (ysj9909/SoMA's DGOD/mmdet,
// beside a pip-installed mmdet 3) is no such checkout: the installed package's configs are
// read. A configs folder beside such a copy is still where packageConfig looks for the base: a
// copy of mmdetection carries the configs its release installs (heboyong's
// mmdet-domain-generalization), so its file stands in for the installed one; one it lacks is
// worded as the installed package's.
func (c *composer) checkoutOf(a, scope string) bool {
	if !c.holdsPackage(a, scope) {
		return false
	}
	for _, f := range []string{"setup.py", "setup.cfg", "pyproject.toml"} {
		if _, err := c.fsys.ReadFile(path.Join(a, f)); err == nil {
			return true
		}
	}
	return false
}

// scopedPath reports whether MMEngine reads rel after a scope: it refuses a path that does not
// start with a word and a slash (_get_package_and_cfg_path matches `\w*::\w*/\w*`), so
// `mmdet::../x.py` too.
func scopedPath(rel string) bool {
	const word = "_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	first, _, ok := strings.Cut(rel, "/")
	return ok && strings.Trim(first, word) == ""
}

// importedNames reads the names of `from m import a, b as c` in the statement's text: name →
// alias ("" for none); star for `import *`.
func importedNames(src []byte, s doc.Span) (map[string]string, bool) {
	names := map[string]string{}
	if s.End.Offset > len(src) || s.Start.Offset > s.End.Offset {
		return names, false
	}
	t := string(src[s.Start.Offset:s.End.Offset])
	i := strings.Index(t, " import ")
	if i < 0 {
		return names, false
	}
	list := strings.NewReplacer("(", " ", ")", " ", "\\", " ", "\n", " ", "\r", " ").Replace(t[i+len(" import "):])
	star := false
	for _, part := range strings.Split(list, ",") {
		f := strings.Fields(part)
		switch {
		case len(f) == 1 && f[0] == "*":
			star = true
		case len(f) == 1:
			names[f[0]] = ""
		case len(f) == 3 && f[1] == "as":
			names[f[0]] = f[2]
		}
	}
	return names, star
}

// ginLoad applies the gin file p to root in gin's order and reports whether every include was
// read.
func (c *composer) ginLoad(root *doc.Node, p, from string, ref doc.Span) bool {
	d := c.enter(p, "include", from, ref)
	if d == nil {
		return false
	}
	defer c.leave()
	if d.Root == nil {
		return false
	}
	complete := true
	type event struct {
		off  int
		inc  *doc.FileRef
		leaf *doc.Node
	}
	var evs []event
	for i := range d.Refs {
		if d.Refs[i].Kind == "include" {
			evs = append(evs, event{off: d.Refs[i].Span.Start.Offset, inc: &d.Refs[i]})
		}
	}
	var walk func(n *doc.Node)
	walk = func(n *doc.Node) {
		for _, ch := range n.Children {
			if ch.Kind == doc.Map && ch.Style == "block" {
				walk(ch)
				continue
			}
			evs = append(evs, event{off: ch.KeySpan.Start.Offset, leaf: ch})
		}
	}
	walk(d.Root)
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].off < evs[j].off })
	o := Origin{File: p}
	for _, ev := range evs {
		if c.stopped {
			return false
		}
		if ev.inc != nil {
			ip, ok := c.ginInclude(p, ev.inc.Target)
			if !ok {
				c.problem(Unresolved, p, ev.inc.Span, "include "+quote(ev.inc.Target)+" is outside the tree and was not read")
				complete = false
				continue
			}
			if ip == "" {
				msg := "include " + quote(ev.inc.Target) + " not found in the tree"
				if strings.HasPrefix(ev.inc.Target, "t5x/") && !strings.HasPrefix(ev.inc.Target, "t5x/t5x/") && !c.holdsT5X() {
					// T5X's train.py puts the folder holding its own package on gin's search
					// path (_DEFAULT_GIN_SEARCH_PATHS, t5x/train.py:53-55 and :956 at cc342d4),
					// so t5x/configs/... is also looked for in the installed package, which is
					// not read here (whether the file is there is not known). (t5x/t5x/...
					// names a clone's package from the folder above it: not that path; and a
					// tree that is T5X itself, a fork, is what gets installed.)
					msg = "include " + quote(ev.inc.Target) + " is not in the tree; T5X's train.py also looks for it in the installed t5x package, which was not read"
				}
				c.problem(Unresolved, p, ev.inc.Span, msg)
				complete = false
				continue
			}
			complete = c.ginLoad(root, ip, p, ev.inc.Span) && complete
			continue
		}
		if c.filesOnly {
			continue // the includes are all codeReads asks
		}
		// The binding's key path: its block ancestors below the root.
		var chain []*doc.Node
		for a := ev.leaf.Parent; a != nil && a != d.Root; a = a.Parent {
			chain = append(chain, a)
		}
		dst := root
		for i := len(chain) - 1; i >= 0; i-- {
			a := chain[i]
			nx := dst.Get(a.Key)
			if nx == nil || nx.Kind != doc.Map || nx.Style != "block" {
				nx = newMap(dst, a.Key)
				nx.KeySpan, nx.Span = a.KeySpan, a.Span
				c.run.origin[nx] = o
				setChild(dst, a.Key, nx)
			}
			dst = nx
		}
		setChild(dst, ev.leaf.Key, c.copyTree(ev.leaf, o))
	}
	return complete
}

// holdsT5X reports a tree that holds T5X's own package (a fork of T5X): a t5x folder at its
// root with train.py or __init__.py.
func (c *composer) holdsT5X() bool {
	ents, err := c.fsys.ReadDir("t5x")
	return err == nil && slices.ContainsFunc(ents, func(e Entry) bool { return !e.Dir && (e.Name == "train.py" || e.Name == "__init__.py") })
}

// ginInclude finds an included file: at the root of the tree, then below each folder from the
// including file's up, then (a name that starts with the tree's own folder) from the folder
// above the tree. ok is false for a name that leaves the tree; "" when none exists.
func (c *composer) ginInclude(from, target string) (string, bool) {
	if _, ok := inTree(".", target); !ok {
		return "", false
	}
	dirs := []string{"."}
	var up []string
	for d := path.Dir(from); d != "." && d != "/" && d != ""; d = path.Dir(d) {
		up = append(up, d)
	}
	dirs = append(dirs, up...)
	for _, dir := range dirs {
		if p, ok := inTree(dir, target); ok && c.existsCode(p) {
			return p, true
		}
	}
	// gin opens an include relative to the working folder and its search paths
	// (gin/config.py at 8ebbd2a parse_config_file, _LOCATION_PREFIXES), so a project run
	// from above its repository names its files with the repository's folder first. That
	// folder is the tree's own when its name matches; when the tree is a Python package (an
	// __init__.py at its root, as tensor2robot's is), it is the name the package is imported
	// by, which a clone under another name (or a CI workspace) need not carry: the name is
	// then read at the root when the tree's own Python imports the package by that name
	// (tensor2robot's modules import tensor2robot.utils and the like).
	if n, ok := c.fsys.(Named); ok {
		if first, rest, cut := strings.Cut(target, "/"); cut && first != "" {
			if p, ok := inTree(".", rest); ok && c.existsCode(p) && (first == n.RootName() || c.rootPackageName(first)) {
				return p, true
			}
		}
	}
	return "", true
}

// rootPackageName tells whether the tree is a Python package (an __init__.py at its root) that
// its own modules import as name: a line `import name.` or `from name.` or `from name import`
// in one of the first pyScanFiles .py files of the tree (folders in order, hidden ones
// skipped, at most pyScanDirs listed). The answer is kept per name for the cache's runs.
func (c *composer) rootPackageName(name string) bool {
	if ok, seen := c.rootPkgNames[name]; seen {
		return ok
	}
	if c.rootPkgNames == nil {
		c.rootPkgNames = map[string]bool{}
	}
	ok := false
	if ents, err := c.fsys.ReadDir("."); err == nil && slices.ContainsFunc(ents, func(e Entry) bool { return e.Name == "__init__.py" && !e.Dir }) {
		ok = c.importsName(name)
	}
	c.rootPkgNames[name] = ok
	return ok
}

// pyScanFiles and pyScanDirs bound the Python files rootPackageName reads and the folders it
// lists.
const pyScanFiles, pyScanDirs = 400, 2000

// importsName reports whether one of the tree's first pyScanFiles .py files imports name or a
// module of it.
func (c *composer) importsName(name string) bool {
	pats := [][]byte{[]byte("import " + name + "."), []byte("from " + name + "."), []byte("from " + name + " import ")}
	read, listed := 0, 0
	queue := []string{"."}
	for len(queue) > 0 && read < pyScanFiles && listed < pyScanDirs {
		dir := queue[0]
		queue = queue[1:]
		listed++
		ents, err := c.fsys.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if strings.HasPrefix(e.Name, ".") {
				continue
			}
			p := path.Join(dir, e.Name)
			if e.Dir {
				queue = append(queue, p)
				continue
			}
			if !strings.HasSuffix(e.Name, ".py") || read >= pyScanFiles {
				continue
			}
			read++
			src, err := c.fsys.ReadFile(p)
			if err != nil {
				continue
			}
			for line := range bytes.Lines(src) {
				line = bytes.TrimLeft(line, " \t")
				for _, pat := range pats {
					if bytes.HasPrefix(line, pat) {
						return true
					}
				}
			}
		}
	}
	return false
}

func (c *composer) existsCode(p string) bool {
	_, ok := c.parseCode(p)
	return ok
}

// ginMacros resolves macro uses against the run's final bindings: a `%NAME` no file could
// resolve alone, and one a file resolved to its own binding that a later file rebinds.
func (c *composer) ginMacros(root *doc.Node) {
	var walk func(n *doc.Node)
	walk = func(n *doc.Node) {
		for i, ch := range n.Children {
			if ch.Kind == doc.Map && ch.Style == "block" {
				walk(ch)
				continue
			}
			name := ""
			if ch.IsUnknown() && ch.Style == "macro" {
				name = strings.TrimPrefix(ch.Value, "%")
			} else if ch.Use != nil {
				if d := c.parsed[c.run.Origin(ch).File]; d != nil && ch.Use.End.Offset <= len(d.Src) {
					name = strings.TrimPrefix(string(d.Src[ch.Use.Start.Offset:ch.Use.End.Offset]), "%")
				}
			}
			if name == "" || name == "gin.REQUIRED" {
				walk(ch)
				continue
			}
			def := root.Get(name)
			for seen := 0; def != nil && def.IsUnknown() && def.Style == "macro" && seen < 100; seen++ {
				def = root.Get(strings.TrimPrefix(def.Value, "%"))
			}
			if def == nil || def == ch || (def.IsUnknown() && def.Style == "macro") {
				continue
			}
			if ch.Use != nil && def.Span == ch.Span && c.run.Origin(def).File == c.run.Origin(ch).File {
				continue // already the final binding
			}
			useFile := c.run.Origin(ch).File
			use := ch.Span
			if ch.Use != nil {
				use = *ch.Use
			}
			cp := c.recopy(def)
			cp.Key, cp.KeySpan, cp.Index, cp.Parent = ch.Key, ch.KeySpan, i, n
			if c.run.Origin(def).File == useFile {
				cp.Use = &use
			} else {
				cp.Use = nil
			}
			n.Children[i] = cp
		}
	}
	walk(root)
}

// discoverCode adds the runs of code configs to what Discover found: a Python config that names
// bases (`_base_ = ...` at the start of a line, or `read_base`) and a gin file with an
// `include` line are runs; the files they read that are not runs themselves are fragments (an
// MMDetection `_base_/` file, a T5X `runs/*.gin` a model gin includes).
//
// An OpenMMLab component (a file in a `_base_` folder, or named `_base_*.py` or `*_base.py` beside
// the configs that read it) that names bases of its own is a run only when no other run reads it: mmocr's
// textdet/_base_/pretrain_runtime.py builds on default_runtime.py, but what is launched is the
// config that reads it, and linted alone the runtime part has no model, data or validation to
// judge its checkpoint policy by.
func (k *Cache) discoverCode(fsys FS, files []string, runs []Spec, fragments map[string]bool, lim Limits) []Spec {
	code := codeRuns(fsys, files)
	code = append(code, k.callRuns(fsys, files, code, lim)...)
	sort.Strings(code)
	isRun := map[string]bool{}
	for _, f := range code {
		isRun[f] = true
	}
	read := map[string][]string{} // what each of them reads besides itself
	readByOther := map[string]bool{}
	for _, f := range code {
		for _, d := range k.codeReads(fsys, f, lim) {
			if d.Path != f {
				read[f] = append(read[f], d.Path)
				readByOther[d.Path] = true
			}
		}
	}
	for _, f := range code {
		if isMMComponent(f) && readByOther[f] {
			isRun[f] = false
		}
	}
	for _, f := range code {
		if !isRun[f] {
			fragments[f] = true
			continue
		}
		runs = append(runs, Spec{Primary: f})
		for _, p := range read[f] {
			if !isRun[p] {
				fragments[p] = true
			}
		}
	}
	return runs
}

// isMMComponent reports whether a Python config is an OpenMMLab component by its place or name:
// in a folder named _base_, named _base_*.py, or named *_base.py as MMTracking's shared method
// bases are (configs/sot/stark/stark-st2_..._base.py at v1.0.0rc1, which the method's runs list
// beside a dataset base that gives the validation).
func isMMComponent(p string) bool {
	if codeFormat(p) != doc.Python {
		return false
	}
	name := path.Base(p)
	return strings.HasPrefix(name, mmBaseKey) || strings.HasSuffix(strings.TrimSuffix(name, ".py"), "_base") || strings.Contains("/"+path.Dir(p)+"/", "/"+mmBaseKey+"/")
}
