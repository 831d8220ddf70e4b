package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
)

// appendFlag collects a repeatable flag whose values are kept whole (an override may hold
// commas: tags=[a,b]).
type appendFlag struct{ v *[]string }

func (a appendFlag) String() string {
	if a.v == nil {
		return ""
	}
	return strings.Join(*a.v, " ")
}

func (a appendFlag) Set(s string) error { *a.v = append(*a.v, s); return nil }

// runPlan is what planRuns found: per input root, the runs and the fragments.
type runPlan struct {
	trees []*runTree
	// partOfRun are the reported paths of fragments and primaries: the file-by-file lint runs
	// only the structural rules on them (so a suppression meant for a run's finding is not
	// reported unused there), and the runs report the rest.
	partOfRun map[string]bool
	// unlisted are the reported paths of fragments in a folder no defaults list names as a
	// group (lint.Options.HydraUnlisted).
	unlisted map[string]bool
}

// planRuns finds the Hydra runs among the inputs (lint/compose: a primary config and each of its
// experiments; with --override, the primaries found, composed with the overrides instead). The
// file system is read only below each input's root (the folder walked; a named file's folder,
// or the Hydra config directory above a named group option, or a named code config's
// repository), through os.Root and within the size limit, never above it. A code config named
// on the command line brings the configs of its repository that may read it (widenCode).
func planRuns(ins []input, overrides []string, opts optionsFunc) *runPlan {
	rp := &runPlan{partOfRun: map[string]bool{}, unlisted: map[string]bool{}}
	trees := map[string]*runTree{}
	var order []string
	groupsNamed := map[[2]string]bool{} // hydraRoot's folders asked (pre-commit names many files)
	inputs := map[string]bool{}         // the reported paths of every input
	walkedHydra := map[string]string{}  // hydraRoot of each folder walked
	walkedTop := map[[2]string]string{} // walkTop of each folder asked
	dsTop := map[string]string{}        // dsWalkTop of each folder walked holding JSON
	for _, in := range ins {
		inputs[in.Path] = true
	}
	for _, in := range ins {
		named := !in.Walked && len(overrides) == 0
		isJSON := !in.Stdin && strings.EqualFold(filepath.Ext(in.FSPath), ".json")
		json := named && isJSON // a DeepSpeed file or a recipe named alone
		var small []byte        // a JSON file not named alone, when small enough to be a config
		recipe := false         // ... and a recipe (jsonRecipeFile)
		if isJSON && !named {
			small = smallJSON(in.FSPath)
			recipe = small != nil && compose.IsRecipe(in.FSPath, small)
		}
		walkedDS := "" // the repository top of a DeepSpeed file walked below it
		if small != nil && !recipe && in.Walked && in.Root != "" && len(overrides) == 0 {
			top, ok := dsTop[in.Root]
			if !ok {
				top = dsWalkTop(in.Root)
				dsTop[in.Root] = top
			}
			if top != "" && deepSpeedText(in.FSPath, small) {
				walkedDS = top
			}
		}
		if in.Stdin || in.Root == "" || !isYAMLPath(in.FSPath) && !compose.IsCodeConfig(in.FSPath) && !(isJSON && (named || walkedDS != "" || recipe)) {
			continue
		}
		root := in.Root
		expand := ""     // the Hydra config directory the tree widens to (runTree.expand)
		scopeAt := ""    // the folder or file below the tree's root its runs keep to ("": all of it)
		askTop := ""     // the folder walkTop asks whether its runs are composed from the repository
		hydra := false   // askTop is a Hydra config directory (walkTop reads all its YAML files)
		readAll := false // readAlone looks for other readers in the whole tree (code configs' bases)
		switch {
		case compose.IsCodeConfig(in.FSPath):
			// code.go's bases live beside and above the file (MMDetection's `../_base_/`),
			// above a folder walked too: a walk of configs/mask2former composes as naming its
			// files does. Declared runs keep to the folder walked or the file named; other
			// readers of a base are looked for in the whole repository (readAlone).
			root, scopeAt, readAll = codeTreeRoot(in.FSPath, root), in.FSPath, true
			if in.Walked {
				scopeAt = in.Root
			}
		case json:
			// A DeepSpeed file named alone: linted in the runs of the recipes of its
			// repository that name it (widenJoined), as a walk from there lints it.
			root, scopeAt = codeTreeRoot(in.FSPath, root), in.FSPath
		case walkedDS != "":
			// A DeepSpeed file of a folder walked below its repository (examples/deepspeed/):
			// as each of them named alone, in the runs of the recipes that name it.
			root, scopeAt, json = walkedDS, in.Root, true
		case named:
			// A Hydra group option or experiment named alone (pre-commit names the staged
			// files): it is linted in the runs of its config directory, as a walk of that
			// directory would lint it, not as a run of its own.
			if r := hydraRoot(in.FSPath, groupsNamed); r != "" {
				root, expand, askTop, hydra = r, r, r, true
			} else if b, err := readSmall(in.FSPath); err == nil {
				switch {
				case compose.IsComposed(b):
					askTop, hydra, scopeAt = filepath.Dir(in.FSPath), true, in.FSPath // a Hydra primary
				case compose.MentionsFileKey(b) || declaresOutside(opts(in), in.FSPath, filepath.Dir(in.FSPath)) || launches(opts(in), in.FSPath):
					// A recipe that names a DeepSpeed file, or whose declared run has a
					// launcher elsewhere, or a launcher a declared run names: the paths are
					// written from where the launch runs, the repository's top, as a walk
					// from there reads them.
					root, scopeAt = codeTreeRoot(in.FSPath, root), in.FSPath
				default:
					scopeAt = in.FSPath // its tree may be another input's: runs keep to it
				}
			}
		case !in.Walked:
			// A primary named with --override: composed as named without.
			scopeAt = in.FSPath
			if b, err := readSmall(in.FSPath); err == nil && compose.IsComposed(b) {
				askTop, hydra = filepath.Dir(in.FSPath), true
			}
		default:
			// A walk of a Hydra group's folder (configs/trainer/, or from inside it): its
			// options are linted in the runs of the config directory above, as naming them
			// is, the files walked reported. Asked once per folder walked.
			r, ok := walkedHydra[in.Root]
			if !ok && len(overrides) == 0 {
				r = hydraRoot(filepath.Join(in.Root, "x.yaml"), groupsNamed)
				walkedHydra[in.Root] = r
			}
			if r != "" {
				root, expand, askTop, hydra = r, r, r, true
			} else {
				askTop = in.Root
			}
		}
		if askTop != "" {
			// a folder walked or a config directory below its repository: composed from the
			// repository's top when one of its files names a file by a key (walkTop)
			k := [2]string{askTop, strconv.FormatBool(hydra)}
			top, ok := walkedTop[k]
			if !ok {
				top = walkTop(askTop, hydra, ins, opts)
				walkedTop[k] = top
			}
			if top != askTop {
				root, scopeAt = top, askTop
			}
		}
		rel, err := relAbs(root, in.FSPath)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		t := trees[root]
		if t == nil {
			t = &runTree{root: root, shown: map[string]string{}, rel: map[string]string{}, byRel: map[string]input{}}
			trees[root] = t
			order = append(order, root)
		}
		if t.prefix == "" {
			t.prefix = treePrefix(filepath.ToSlash(in.Path), rel, root)
		}
		t.keepTo(scopeAt)
		t.readWhole = t.readWhole || readAll
		if _, seen := t.byRel[rel]; !seen {
			t.files = append(t.files, rel)
		}
		t.shown[rel] = in.Path
		t.rel[in.Path] = rel
		t.byRel[rel] = in
		delete(t.expanded, rel)
		if compose.IsCodeConfig(in.FSPath) && named {
			t.namedCode = append(t.namedCode, rel)
		}
		if json {
			t.namedJSON = append(t.namedJSON, rel)
		}
		if expand != "" {
			t.expand(expand, inputs)
		}
	}
	sort.Strings(order)
	for _, root := range order {
		t := trees[root]
		sort.Strings(t.files)
		fsys, err := openTreeFS(root, maxBytes(opts(t.byRel[t.files[0]])))
		if err != nil {
			continue // the files are linted one by one
		}
		t.fsys = fsys
		if named := t.namedConfigs(); len(named) > 0 || len(t.namedJSON) > 0 {
			walked := walkedFiles(t.root) // only now: a named script costs no walk
			if len(named) > 0 {
				t.widenCode(named, walked)
			}
			if len(t.namedJSON) > 0 {
				t.widenJoined(walked, inputs, groupsNamed)
			}
			sort.Strings(t.files)
		}
		// Discovery's parses are dropped: kept in the tree's cache, they would stay alive
		// through the file-by-file lint that runs before the runs' (MMPose's tree checked
		// from its root, five alternated runs: 240 → 318 MB peak RSS, 1.29 → 1.39 s).
		dc := compose.NewCache()
		dc.Launched, dc.GinFork = scriptPrimaries(t.root), opts(t.byRel[t.files[0]]).GinFork
		t.mainDir, t.mainCands = hydraMainDir(t.root), hydraMainCandidates(t.root)
		// (discovery composes candidates too: with the folders the runs are composed with)
		dc.MainDir, dc.MainCandidates = t.mainDir, t.mainCands
		specs, fragments := dc.Discover(fsys, t.files, compose.Limits{})
		if len(overrides) > 0 {
			// The primaries found are the runs, composed with the overrides (their experiments
			// are not added: the overrides say what is launched). Code configs take none.
			var with []compose.Spec
			for _, s := range specs {
				if compose.IsCodeConfig(s.Primary) {
					with = append(with, s)
					continue
				}
				if len(s.Overrides) == 0 {
					with = append(with, compose.Spec{Primary: s.Primary, Overrides: overrides})
				}
			}
			specs = with
		}
		// Recipes whose keys name other files (deepspeed: ds.json) are runs of their own: the
		// file is linted whole, and its run adds what the files it names bring.
		skip := map[string]bool{}
		for f := range fragments {
			skip[f] = true
		}
		for _, s := range specs {
			skip[s.Primary] = true
		}
		for f := range t.expanded {
			skip[f] = true // read for the group options' runs only; its own tree joins it
		}
		specs = append(specs, compose.DiscoverJoined(fsys, t.files, skip)...)
		// Runs the config file declares ([[runs]]) replace the ones found: in a tree kept to
		// the folders and files its inputs came from, those found in a folder or file of it
		// where no declared run is stay (checking it beside another changes nothing for it).
		if declared := t.declaredRuns(opts); declared != nil {
			for _, s := range specs {
				if sc := t.scopeOf(s.Primary); !t.whole && sc != "" &&
					!slices.ContainsFunc(declared, func(d compose.Spec) bool { return within(sc, d.Primary) }) {
					declared = append(declared, s)
				}
			}
			specs = declared
		}
		if len(specs) == 0 {
			fsys.close()
			continue
		}
		t.specs = specs
		for _, s := range specs {
			if !s.Single {
				rp.partOfRun[t.show(s.Primary)] = true
			}
		}
		var listed map[string]bool
		for f := range fragments {
			if !t.expanded[f] {
				// a file read only for the runs of a named or walked group option: where it
				// is an input of another tree (a recipe in a sibling folder walked beside),
				// that tree's lint of it stands
				rp.partOfRun[t.show(f)] = true
				if listed == nil {
					listed = compose.ListedGroups(fsys, t.files)
				}
				if !compose.InListedGroup(f, listed) {
					rp.unlisted[t.show(f)] = true
				}
			}
		}
		rp.trees = append(rp.trees, t)
	}
	return rp
}

// options narrows the file-by-file lint of fragments and primaries to the structural rules.
func (rp *runPlan) options(rs []*lint.Rule, opts optionsFunc) optionsFunc {
	if len(rp.partOfRun) == 0 {
		return opts
	}
	var semantic []string
	for _, r := range rs {
		if r.Category != lint.CatStructure {
			semantic = append(semantic, r.Code)
		}
	}
	return func(in input) lint.Options {
		o := opts(in)
		if rp.partOfRun[in.Path] {
			o.Ignore = append(append([]string(nil), o.Ignore...), semantic...)
			o.HydraLoaded, o.HydraUnlisted = true, rp.unlisted[in.Path]
		}
		return o
	}
}

// lint lints the runs: each run's findings are placed in the files that set the values, and a
// finding shared by several runs is reported once (lint.DedupeRuns).
func (rp *runPlan) lint(res *lint.Result, sources map[string][]byte, rs []*lint.Rule, opts optionsFunc) {
	for _, t := range rp.trees {
		var perRun [][]lint.Diagnostic
		var names, primaries []string
		readers := map[string]int{}
		var runNamers []map[string][]string // per run: a joined file → the files naming it (shown)
		var hosts []lint.OptionHost
		cache := t.composeCache()
		for _, s := range t.specs {
			o := opts(t.byRel[s.Primary])
			o.HydraMainDir, o.HydraMainCandidates = t.mainDir, t.mainCands
			run := lint.ComposeSpec(cache, t.fsys, s, o)
			if run.Unlaunched {
				continue // a guess nobody launches: no run of the tree
			}
			lint.CountReads(readers, run)
			if h, ok := lint.HostOf(s, run); ok {
				hosts = append(hosts, h)
			}
			namers := namersOf(run)
			if t.named != nil {
				shown := map[string][]string{}
				for f, by := range namers {
					for _, b := range by {
						shown[t.show(f)] = append(shown[t.show(f)], t.show(b))
					}
				}
				runNamers = append(runNamers, shown)
			}
			t.remember(s, o, run)
			ds := lint.LintRun(run, rs, o)
			if t.extra[s.Primary] {
				// A config built on a named one (widenCode), or read for a named launcher or
				// DeepSpeed file: only what its run finds in the files given, and in the
				// files a given one names (a named launcher's DeepSpeed file).
				given := func(f string) bool { _, in := t.byRel[f]; return in && !t.extra[f] }
				kept := ds[:0]
				for _, d := range ds {
					if given(d.File) || slices.ContainsFunc(namers[d.File], given) {
						kept = append(kept, d)
					}
				}
				ds = kept
			} else if t.reports(t.show(s.Primary)) {
				lint.RunFile(&res.Files, t.show(s.Primary), run, o)
			}
			perRun = append(perRun, ds)
			for _, d := range run.Files {
				if _, ok := sources[t.show(d.Path)]; !ok {
					sources[t.show(d.Path)] = d.Src
				}
			}
			shown := t.show(s.Primary)
			names, primaries = append(names, shown+strings.TrimPrefix(s.Name(), s.Primary)), append(primaries, shown)
		}
		lint.DropSharedFixes(perRun, readers)
		for _, ds := range perRun {
			for i := range ds {
				if fx := ds[i].Fix; fx != nil && !t.readAlone(fx.Edits[0].File, opts) {
					ds[i].Fix = nil // configs under the tree's root that were not given read it too
				}
				t.showDiagnostic(&ds[i])
			}
		}
		// Group options no run read, whose refusals a run choosing them would make
		// (lint.UnreadRefusals).
		primary := map[string]bool{}
		for _, s := range t.specs {
			primary[s.Primary] = true
		}
		var unread []string
		for _, f := range t.files {
			if fm, _ := doc.FormatFromPath(f); fm == doc.YAML && !primary[f] && readers[f] == 0 && rp.partOfRun[t.show(f)] && t.reports(t.show(f)) {
				unread = append(unread, f)
			}
		}
		if len(unread) > 0 && len(hosts) > 0 {
			more, _ := lint.UnreadRefusals(cache, t.fsys, hosts, unread, rs, opts(t.byRel[hosts[0].Spec.Primary]))
			for i := range more {
				more[i].Fix = nil // the fix would be for a run no one launches as discovered
				t.showDiagnostic(&more[i])
			}
			res.Diagnostics = lint.AddRunFindings(res.Diagnostics, more)
		}
		t.fsys.close()
		// Files the command line did not name were read for their runs only; a file joined
		// from outside the config directory (a DeepSpeed file) is reported where, in the run
		// that found it, the finding is about a file named (a micro batch against the named
		// option's) or a file named names it (the option's deepspeed:).
		type found struct {
			file, code, msg string
			line, col       int
		}
		aboutGiven := map[found]bool{}
		if t.named != nil {
			configs := map[string]bool{}
			for _, f := range t.files {
				configs[t.show(f)] = true
			}
			for k, ds := range perRun {
				for _, d := range ds {
					if !configs[d.File] && (slices.ContainsFunc(d.Related, func(r lint.Related) bool { return t.reports(r.File) }) ||
						slices.ContainsFunc(runNamers[k][d.File], t.reports)) {
						aboutGiven[found{d.File, d.Code, d.Message, d.Line, d.Column}] = true
					}
				}
			}
		}
		ds := lint.DedupeRuns(perRun, names, primaries)
		if t.named != nil {
			kept := ds[:0]
			for _, d := range ds {
				if t.reports(d.File) || aboutGiven[found{d.File, d.Code, d.Message, d.Line, d.Column}] {
					kept = append(kept, d)
				}
			}
			ds = kept
		}
		res.Diagnostics = lint.AddRunFindings(res.Diagnostics, ds)
	}
	lint.SortDiagnostics(res.Diagnostics)
}

// treeFS is the file system a composition reads: os.Root confines it to the tree (no "..", no
// symbolic link out of it), and files that are not regular or are over the size limit are not
// read (a run that refers to one gets an unresolved reference).
type treeFS struct {
	fs.FS
	root *os.Root
	max  int64
	// memo keeps the files read, so that discovery (Hydra primaries, recipes that name other
	// files) and the compositions read each file once.
	memo map[string][]byte
}

func openTreeFS(root string, max int) (*treeFS, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	return &treeFS{FS: r.FS(), root: r, max: int64(max), memo: map[string][]byte{}}, nil
}

func (t *treeFS) close() { t.root.Close(); t.memo = nil }

// RootName is the name of the tree's folder (compose.Named): a gin include may start with it.
func (t *treeFS) RootName() string { return folderName(t.root.Name()) }

// folderName is the name of the folder dir, relative or absolute ("" when it cannot be told).
func folderName(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return filepath.Base(abs)
}

func (t *treeFS) ReadFile(name string) ([]byte, error) {
	if b, ok := t.memo[name]; ok {
		return b, nil
	}
	b, err := t.readFile(name)
	if err == nil && t.memo != nil {
		t.memo[name] = b
	}
	return b, err
}

func (t *treeFS) readFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	// Non-blocking open, as for the inputs (read.go): a FIFO named like a config never hangs.
	f, fi, err := openRegularWith(t.root.OpenFile, filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > t.max {
		return nil, fmt.Errorf("%s is over the size limit", name)
	}
	b, _, err := readLimited(f, fi.Size(), int(t.max))
	return b, err
}

func (t *treeFS) ReadDir(name string) ([]compose.Entry, error) {
	return compose.Entries(fs.ReadDir(t.FS, name))
}

// runTree is the YAML inputs found under one root.
type runTree struct {
	// named, when the tree was widened to a config directory around files named on the
	// command line (expand), are the reported paths of the inputs: only they are reported.
	// expanded are the files expand added that are not the tree's inputs; expandedDirs the
	// config directories it widened to.
	named        map[string]bool
	expanded     map[string]bool
	expandedDirs map[string]bool
	root         string
	files        []string          // slash paths relative to root
	shown        map[string]string // relative path → reported path
	rel          map[string]string // reported path → relative path
	byRel        map[string]input
	prefix       string // what the reported paths put before the relative path
	fsys         *treeFS
	specs        []compose.Spec
	// allReaders counts the runs of every config under root that read each file (readAlone).
	allReaders map[string]int
	// reads are the files each run the lint composed reads (remember), so that readAlone
	// counts them without composing those runs again.
	reads map[runKey]map[string]int
	// namedCode are the code configs the command line named (not walked); extra are the
	// configs widenCode added that may read them, whose runs report only in the files given.
	namedCode []string
	extra     map[string]bool
	// namedJSON are the JSON files the command line named (a DeepSpeed file), for widenJoined.
	namedJSON []string
	// cache keeps the files the runs parse, for the runs' lint and readAlone alike (forget
	// drops it with the read memos).
	cache *compose.Cache
	// scope, unless whole, are the folders (walked, or Hydra config directories) and the
	// named files below the tree's root that its inputs came from (keepTo): the runs the
	// config file declares count only when their config or launcher is in one of them (or is
	// a config read for a named file), and readAlone looks for other readers only in those
	// folders, as when the folder was the root. whole: an input came from all of the tree.
	scope []string
	whole bool
	// readWhole: readAlone looks in the whole tree whatever the scope (a code config's bases
	// are read by configs anywhere in the repository).
	readWhole bool
	// mainDir is the scripts' config_path folder in the tree (lint.Options.HydraMainDir).
	mainDir string
	// mainCands are the folders it may be when it is not known (lint.Options.HydraMainCandidates).
	mainCands []string
}

// primaryOf returns the tree of input in and the runs that FixRun can fix there: the runs
// (composed, or a recipe with the files it names) launched without overrides whose primary is
// in. runFixes keeps what FixRun does only when no other run reads the primary (readAlone).
func (rp *runPlan) primaryOf(in input) (*runTree, []compose.Spec) {
	for _, t := range rp.trees {
		rel, ok := t.rel[in.Path]
		if !ok || t.fsys == nil {
			continue
		}
		var specs []compose.Spec
		for _, s := range t.specs {
			if s.Primary == rel && len(s.Overrides) == 0 {
				specs = append(specs, s)
			}
		}
		return t, specs
	}
	return nil, nil
}

// composeCache is the tree's composition cache.
func (t *runTree) composeCache() *compose.Cache {
	if t.cache == nil {
		t.cache = compose.NewCache()
	}
	return t.cache
}

// readAlone reports whether exactly one run reads the file rel (a primary with a run's fix),
// among the runs of every config under the tree's root, not only of the files given: a
// config in a sibling folder may list it as its base, an experiment or another primary may
// read it (lint.DropSharedFixes). Those configs (code configs and YAML, as filesBelow finds
// them) are composed once per tree, when the first fix asks, but for the runs the lint already
// composed: their files are remembered (remember), and discovery parses into the tree's cache,
// which holds the files the lint parsed. Past maxListedConfigs of them, or when more than
// maxCodeFiles of them were neither linted nor read by the runs (a folder of a large
// repository checked), the answer would cost too much to tell, and is no; a walk of the
// whole tree has read them already. Checking MMPose's tree from its root (1,283 configs, 16 fixes kept), five
// alternated runs: 1.83 → 1.22 s wall, 345 → 211 MB peak RSS, the report unchanged (and
// MMPretrain's, MMDetection3D's, MMAction2's, MMagic's and MMOCR's).
func (t *runTree) readAlone(rel string, opts optionsFunc) bool {
	if t.allReaders == nil {
		t.allReaders = map[string]int{}
		from := []string{"."}
		if !t.whole && !t.readWhole {
			// only the folders the inputs came from (a named file's own folder), as when
			// the folder walked was the tree's root
			from = nil
			for _, s := range t.scope {
				if _, file := t.byRel[s]; file {
					s = path.Dir(s)
				}
				from = append(from, s)
			}
		}
		files := filesBelowFrom(t.fsys, from, codeWalkDepth, maxListedConfigs+1, func(n string) bool { return compose.IsCodeConfig(n) || isYAMLPath(n) })
		if len(files) > maxListedConfigs {
			return false // t.allReaders stays empty: no file is read by one run alone
		}
		cache := t.composeCache()
		fresh := 0 // files neither linted (the tree's inputs) nor read by the runs' composition
		for _, f := range files {
			if _, input := t.byRel[f]; !input && !cache.Parsed(f) {
				fresh++
			}
		}
		if fresh > maxCodeFiles {
			return false
		}
		o := opts(t.byRel[t.files[0]])
		o.HydraMainDir, o.HydraMainCandidates = t.mainDir, t.mainCands
		cache.Launched, cache.GinFork = scriptPrimaries(t.root), o.GinFork
		cache.MainDir, cache.MainCandidates = t.mainDir, t.mainCands
		specs, _ := cache.Discover(t.fsys, files, compose.Limits{Doc: o.Limits})
		for _, s := range specs {
			reads, ok := t.reads[keyOf(s, o)]
			if !ok {
				reads = readsOf(lint.ComposeSpec(cache, t.fsys, s, o))
			}
			for f, n := range reads {
				t.allReaders[f] += n
			}
		}
	}
	return t.allReaders[rel] == 1
}

// maxListedConfigs bounds the configs under a tree's root that readAlone considers (Python,
// gin and YAML files, scripts and modules included: MMDetection's repository holds thousands
// of .py files); of them at most maxCodeFiles may be unread by the lint.
const maxListedConfigs = 20000

// runKey names a composed run and the limits it was composed with (what ComposeSpec reads of
// its options).
type runKey struct {
	primary, overrides, launcher string
	single                       bool
	lim                          [4]int
}

func keyOf(s compose.Spec, o lint.Options) runKey {
	l := o.Limits
	return runKey{s.Primary, strings.Join(s.Overrides, "\x00"), s.Launcher, s.Single, [4]int{l.MaxBytes, l.MaxDepth, l.MaxAliases, l.MaxNodes}}
}

// readsOf counts the files a run reads, as lint.CountReads counts them.
func readsOf(run *compose.Run) map[string]int {
	m := map[string]int{}
	lint.CountReads(m, run)
	return m
}

// remember keeps the files a run the lint composed reads, for readAlone.
func (t *runTree) remember(s compose.Spec, o lint.Options, run *compose.Run) {
	if t.reads == nil {
		t.reads = map[runKey]map[string]int{}
	}
	t.reads[keyOf(s, o)] = readsOf(run)
}

// forget empties the trees' read memos (--fix rewrote a file: a run may read it as a base, a
// group option or a joined DeepSpeed file).
func (rp *runPlan) forget() {
	for _, t := range rp.trees {
		if t.fsys != nil {
			t.fsys.memo = map[string][]byte{}
		}
		t.cache, t.reads = nil, nil
	}
}

// reports says whether findings in the file shown as path are reported: every file of a
// walked tree; in a widened tree, the files the command line gave (named, or walked in another
// folder given).
func (t *runTree) reports(path string) bool { return t.named == nil || t.named[path] }

// namersOf maps each file the run joins (a DeepSpeed file) to the files whose keys name it (a
// recipe's or option's deepspeed:, a launcher's deepspeed_config_file), as paths of the tree.
func namersOf(run *compose.Run) map[string][]string {
	m := map[string][]string{}
	for _, j := range run.Joined {
		if j.Doc != nil && j.Ref != nil {
			m[j.Doc.Path] = append(m[j.Doc.Path], run.Origin(j.Ref).File)
		}
	}
	return m
}

// keepTo adds to the tree's scope the folder or file at (a path as the command line gives it)
// that an input came from, or makes the tree whole when at is "" or the tree's root.
func (t *runTree) keepTo(at string) {
	if t.whole {
		return
	}
	d, err := relAbs(t.root, at)
	if at == "" || err != nil || d == "." || goesUp(d) {
		// all of the tree, or a folder walked above it (a workspace of repositories)
		t.whole, t.scope = true, nil
		return
	}
	if d = filepath.ToSlash(d); !slices.Contains(t.scope, d) {
		t.scope = append(t.scope, d)
	}
}

// namesScopedJSON reports whether the tree's file rel (a launcher) names one of the JSON files
// of its scope (a DeepSpeed file named alone) by its base name, as widenJoined finds recipes.
func (t *runTree) namesScopedJSON(rel string) bool {
	var b []byte
	for _, s := range t.scope {
		if !strings.EqualFold(path.Ext(s), ".json") {
			continue
		}
		if b == nil {
			var err error
			if b, err = t.fsys.ReadFile(rel); err != nil {
				return false
			}
		}
		if hasDelimited(string(b), path.Base(s)) {
			return true
		}
	}
	return false
}

// scopeOf is the entry of the tree's scope that holds its path rel ("" when none does).
func (t *runTree) scopeOf(rel string) string {
	for _, s := range t.scope {
		if within(s, rel) {
			return s
		}
	}
	return ""
}

// inScope reports whether the tree's path rel lies in its scope.
func (t *runTree) inScope(rel string) bool { return t.whole || t.scopeOf(rel) != "" }

// maxWidened is the most YAML files a tree widened around named files reads; a config
// directory is far smaller (lightning-hydra-template's holds 50, NeMo's largest a few hundred).
// Past it, the named files are linted as before, one run each.
const maxWidened = 5000

// expand widens the tree to every YAML file under dir (the Hydra config directory of the
// named group options: the tree's root, or a folder below it, walkTop), so that discovery
// finds the primaries and experiments whose runs read them; inputs, the reported paths of the
// command line's files, stay the only ones reported.
func (t *runTree) expand(dir string, inputs map[string]bool) {
	if t.expandedDirs[dir] {
		return
	}
	if t.expandedDirs == nil {
		t.expandedDirs = map[string]bool{}
	}
	t.expandedDirs[dir] = true
	t.named = inputs
	add := hydraFiles(dir)
	if add == nil {
		return
	}
	for _, f := range add {
		r, err := relAbs(t.root, f.FSPath)
		if err != nil || goesUp(r) {
			continue
		}
		r = filepath.ToSlash(r)
		if _, ok := t.byRel[r]; ok {
			continue
		}
		f.Root = t.root
		f.Path = t.pathOf(r)
		t.files = append(t.files, r)
		t.byRel[r] = f
		if t.expanded == nil {
			t.expanded = map[string]bool{}
		}
		t.expanded[r] = true
	}
}

// widenCode adds the code configs of the tree that may read its named code configs (readersOf:
// the editor's search), so that a base named alone (pre-commit names the staged files) is
// linted in the runs of the configs built on it, as a walk of the tree and the editor lint it,
// instead of alone, where a value every config built on it overrides would still be judged.
// The configs searched are those a walk of the tree's root lints (walked: .gitignore
// honoured, so that a gitignored work_dirs/ copy cannot change the answer); past
// maxListedConfigs of them the named files are linted as before. Those configs are not
// reported themselves (extra), nor what their runs find in files not given. named are the
// named code configs that are configs (namedConfigs).
func (t *runTree) widenCode(named, walked []string) {
	all := keepPaths(walked, compose.IsCodeConfig)
	if len(all) > maxListedConfigs {
		return
	}
	for _, r := range readersOf(t.fsys, named, all) {
		t.addExtra(r)
	}
}

// namedConfigs are the tree's named code configs that other configs may read: gin files, and
// the .py files readByOthers accepts. A script or package module (pre-commit names every
// staged .py) is searched for by nobody.
func (t *runTree) namedConfigs() []string {
	var named []string
	for _, r := range t.namedCode {
		if !strings.EqualFold(path.Ext(r), ".py") {
			named = append(named, r) // gin
			continue
		}
		b, err := t.fsys.ReadFile(r)
		if err != nil {
			continue
		}
		if readByOthers(doc.Parse(r, b, doc.Python, doc.Limits{})) {
			named = append(named, r)
		}
	}
	return named
}

// widenJoined adds the recipes of the tree (those a walk of its root lints, YAML or JSON) that
// name its named JSON files through a file key (a recipe's `deepspeed:`; the editor's
// joinedRuns searches the same way), so that a DeepSpeed file named alone is linted with the
// recipes that launch it, as a walk lints it: its contradictions with a recipe are errors the
// Trainer stops on. Those recipes are extra. Past maxListedConfigs YAML files, only the JSON
// recipes are searched (a JSON file is read only when it is small enough to be a recipe:
// jsonRecipeFile).
//
// A recipe that is a Hydra group option (conf/training/sft.yaml's deepspeed:) is no run of its
// own: its config directory is read instead (expand), as naming the option does, so that the
// runs that choose it join the JSON file with their batch settings. inputs are the command
// line's reported paths, memo hydraRoot's.
func (t *runTree) widenJoined(walked []string, inputs map[string]bool, memo map[[2]string]bool) {
	recipes := keepPaths(walked, compose.IsRecipePath)
	if len(keepPaths(recipes, isYAMLPath)) > maxListedConfigs {
		recipes = keepPaths(recipes, func(p string) bool { return !isYAMLPath(p) })
	}
	for _, r := range recipes {
		if _, ok := t.byRel[r]; ok {
			continue
		}
		var b []byte
		if isYAMLPath(r) {
			var err error
			if b, err = t.fsys.ReadFile(r); err != nil || !compose.MentionsFileKey(b) {
				continue
			}
		} else if b = jsonRecipeFile(filepath.Join(t.root, filepath.FromSlash(r))); b == nil {
			continue // data, not a recipe: not read into the tree
		}
		if slices.ContainsFunc(t.namedJSON, func(j string) bool { return hasDelimited(string(b), path.Base(j)) }) {
			if isYAMLPath(r) {
				if dir := hydraRoot(filepath.Join(t.root, filepath.FromSlash(r)), memo); dir != "" {
					t.expand(dir, inputs)
					continue
				}
			}
			t.addExtra(r)
		}
	}
}

// maxWalkedEntries bounds the walk of a tree's root that widening reads (entries of folders,
// configs or not): a repository holds far fewer (MMPose about 4,000, NeMo about 20,000), a
// home folder or / far more, where the named files are then linted as before.
const maxWalkedEntries = 100_000

// walkedFiles lists the slash paths, relative to root, of the files a walk of root lints (nil
// past maxWalkedEntries entries).
func walkedFiles(root string) []string {
	files, _, over := walkDirMax(root, maxWalkedEntries)
	if over {
		return nil
	}
	var out []string
	for _, f := range files {
		if r, err := filepath.Rel(root, f.FSPath); err == nil && filepath.IsLocal(r) {
			out = append(out, filepath.ToSlash(r))
		}
	}
	return out
}

// keepPaths are the paths of ps that keep accepts, in order.
func keepPaths(ps []string, keep func(string) bool) []string {
	var out []string
	for _, p := range ps {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

// addExtra adds the file rel to the tree as a config read for the files given (extra), unless
// it is one of them.
func (t *runTree) addExtra(rel string) {
	if _, ok := t.byRel[rel]; ok {
		return
	}
	if t.extra == nil {
		t.extra = map[string]bool{}
	}
	t.extra[rel] = true
	t.files = append(t.files, rel)
	t.byRel[rel] = input{Path: t.pathOf(rel), FSPath: filepath.Join(t.root, filepath.FromSlash(rel)), Root: t.root, Walked: true, OnlyConfigs: true}
}

// showDiagnostic names a run diagnostic's files (its own, its related places', its fix's
// edits') as the command line shows them.
func (t *runTree) showDiagnostic(d *lint.Diagnostic) {
	d.File = t.show(d.File)
	for j := range d.Related {
		d.Related[j].File = t.show(d.Related[j].File)
	}
	if fx := d.Fix; fx != nil {
		for j := range fx.Edits {
			fx.Edits[j].File = t.show(fx.Edits[j].File)
		}
	}
}

// show is the reported path of a file of the tree (a file no input named, such as a group
// option outside the paths given, gets the tree's prefix).
func (t *runTree) show(rel string) string {
	if s, ok := t.shown[rel]; ok {
		return s
	}
	return t.pathOf(rel)
}

// pathOf is the reported path of the tree's file rel: the prefix and rel, and from a root above
// the working directory the shortest way there ("../_base_/x.py", not "../../configs/_base_/x.py").
func (t *runTree) pathOf(rel string) string {
	p := t.prefix + rel
	if !strings.HasPrefix(t.prefix, "../") {
		return p
	}
	cwd, err1 := os.Getwd()
	a, err2 := filepath.Abs(filepath.FromSlash(p))
	if err1 != nil || err2 != nil {
		return p
	}
	r, err := filepath.Rel(cwd, a)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}

// declaredRuns are the [[runs]] of the config files that apply to the tree's files, as specs
// with paths of the tree (nil when none declares any). A run whose config is not inside the
// tree is left out (the tree's file system cannot read it); a launcher outside it stays as
// written, so that the run reports it unresolved.
func (t *runTree) declaredRuns(opts optionsFunc) []compose.Spec {
	root, err := filepath.Abs(t.root)
	if err != nil {
		return nil
	}
	rel := func(p string) (string, bool) {
		a, err := filepath.Abs(p)
		if err != nil {
			return "", false
		}
		r, err := filepath.Rel(root, a)
		if err != nil {
			return "", false
		}
		r = filepath.ToSlash(r)
		return r, r != ".." && !strings.HasPrefix(r, "../")
	}
	var out []compose.Spec
	seen := map[string]bool{}
	for _, f := range t.files {
		for _, d := range opts(t.byRel[f]).Runs {
			cfg, ok := rel(d.Config)
			if !ok {
				continue
			}
			s := compose.Spec{Primary: cfg, Overrides: d.Overrides}
			launcherIn := false
			if d.Launcher != "" {
				s.Launcher, launcherIn = rel(d.Launcher)
			}
			byConfig := t.inScope(cfg) || t.extra[cfg]
			if !byConfig && !(launcherIn && (t.inScope(s.Launcher) || t.namesScopedJSON(s.Launcher))) {
				continue // a run of another folder of the repository
			}
			key := s.Name()
			if seen[key] {
				continue
			}
			seen[key] = true
			if !byConfig {
				// linted for its launcher (named, or naming a named DeepSpeed file): only
				// what the run finds in the files given is reported, as for widenJoined's
				t.addExtra(cfg)
			}
			b, err := t.fsys.ReadFile(cfg)
			s.Single = err == nil && !compose.IsComposed(b)
			out = append(out, s)
		}
	}
	return out
}

// hydraRoot is the Hydra config directory of a YAML file named on the command line when the
// file is one of its group options (configs/callbacks/x.yaml, configs/experiment/y.yaml): the
// highest folder above the file's own whose configs name, in a defaults list, the folder on
// the file's path just below it as a group (compose.GroupNamedIn). The highest, since a
// group's options may sit in subfolders with groups of their own (NeMo-Framework-Launcher's
// conf/training/nerf/model/x.yaml: conf names training, nerf's options name model). Only
// folders up to the file's repository top (or the working folder) are looked at, at most
// eight levels. "" when the file is no group option
// (a recipe in a folder no defaults list names, a primary): it is then linted as before. The
// result is relative when the path is. memo keeps the folders asked (pre-commit names many
// files of the same folders).
func hydraRoot(fsPath string, memo map[[2]string]bool) string {
	top := codeTreeRoot(fsPath, "")
	if top == "" {
		return ""
	}
	absTop, err1 := filepath.Abs(top)
	absFile, err2 := filepath.Abs(fsPath)
	if err1 != nil || err2 != nil {
		return ""
	}
	named := func(dir, group string) bool {
		k := [2]string{dir, group}
		v, ok := memo[k]
		if !ok {
			fsys, err := openTreeFS(dir, 1<<20)
			if err == nil {
				v = compose.GroupNamedIn(fsys, ".", group)
				fsys.close()
			}
			memo[k] = v
		}
		return v
	}
	found := ""
	folder := filepath.Dir(absFile)
	for i := 0; i < 8 && folder != absTop && folder != filepath.Dir(folder); i++ {
		parent := filepath.Dir(folder)
		if r, err := filepath.Rel(absTop, parent); err != nil || goesUp(r) {
			break
		}
		if named(parent, filepath.Base(folder)) {
			found = parent // the highest wins: a group's option may sit in a subfolder (nerf/)
		}
		folder = parent
	}
	if found == "" || filepath.IsAbs(fsPath) {
		return found
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	r, _ := fromWorkingDir(wd, found)
	return r
}

// walkTop is the tree the files of the folder dir are composed in, dir being a folder walked
// or (hydra) a Hydra config directory: one a walked or named group option widens to, or a
// named primary's. It is the repository that holds dir (codeTreeRoot: a folder with .git, a
// Python project, else the working directory, as for a named recipe) when one of dir's configs
// names a file by a key (a recipe's or Hydra option's `deepspeed:`, a Lightning
// DeepSpeedStrategy's config, a JSON recipe), declares a run whose launcher is outside dir, or
// is a declared run's launcher, since the launch reads those paths from the repository's top,
// as a walk from there reads them, a defaults list names a config above dir
// (compose.NamesAbove: hulc2's `../paths@paths: general_paths`), which Hydra reads there, or
// dir holds a Hydra primary outside the folder the repository's scripts name as config_path
// (mainOutside), whose options are read there too; else dir itself, also when dir reaches the
// repository through a symbolic link (the tree's file system could read none of it).
// Discovery stays in dir (the tree's files are the walk's, or expand's) and so do the runs the
// config file declares (runTree.scope). Each YAML file of dir is read once more for the
// question, only when a repository is above dir.
func walkTop(dir string, hydra bool, ins []input, opts optionsFunc) string {
	top := codeTreeRoot(filepath.Join(dir, "x.yaml"), dir)
	if !strictlyAbove(top, dir) {
		return dir
	}
	outside := mainOutside(top, dir)
	namesFile := func(in input) bool {
		if declaresOutside(opts(in), in.FSPath, dir) || launches(opts(in), in.FSPath) {
			return true
		}
		if isYAMLPath(in.FSPath) {
			b, err := readSmall(in.FSPath)
			rel, _ := filepath.Rel(dir, filepath.Dir(in.FSPath))
			return err == nil && (compose.MentionsFileKey(b) || compose.NamesAbove(b, filepath.ToSlash(rel)) || outside && compose.IsComposed(b))
		}
		return strings.EqualFold(filepath.Ext(in.FSPath), ".json") && jsonRecipeFile(in.FSPath) != nil
	}
	if hydra {
		ins = hydraFiles(dir)
	}
	for _, in := range ins {
		if (hydra || in.Walked && in.Root == dir && !in.Stdin) && namesFile(in) {
			return top
		}
	}
	return dir
}

// mainOutside reports whether the folder top's repository's scripts name a config_path folder
// below top (hydraMainDir, else one they may name: hydraMainCandidates) that neither holds dir
// nor lies in it: dir's Hydra primaries are launched with --config-dir, their options read
// from that folder too (compose.Cache.MainDir, MainCandidates).
func mainOutside(top, dir string) bool {
	ms := hydraMainCandidates(top)
	if m := hydraMainDir(top); m != "" {
		ms = []string{m}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for _, m := range ms {
		main, err := filepath.Abs(filepath.Join(top, filepath.FromSlash(m)))
		if err == nil && !within(main, abs) && !within(abs, main) {
			return true
		}
	}
	return false
}

// dsWalkTop is the repository top above the walked folder dir, where the recipes that name
// its DeepSpeed files are ("" when dir is the top itself, is in no repository or reaches it
// through a symbolic link: a walk of the top reads those recipes already, and the tree's file
// system could read none of it).
func dsWalkTop(dir string) string {
	top := codeTreeRoot(filepath.Join(dir, "x.json"), "")
	if top == "" || !repositoryTop(top) {
		return "" // (codeTreeRoot's working-folder fallback would walk a home folder)
	}
	if !strictlyAbove(top, dir) {
		return ""
	}
	return top
}

// strictlyAbove reports whether the folder top holds dir and is not dir, dir reaching it
// without a symbolic link out (a tree's os.Root at top could read none of it otherwise).
func strictlyAbove(top, dir string) bool {
	same, err := relAbs(top, dir)
	return err == nil && same != "." && !goesUp(same) && realWithin(top, dir)
}

// projectFiles mark a Python project's top (codeTreeRoot).
var projectFiles = []string{"pyproject.toml", "setup.py", "setup.cfg"}

// repositoryTop reports whether dir holds a repository's or a Python project's mark (.git,
// projectFiles).
func repositoryTop(dir string) bool {
	for _, n := range append([]string{".git"}, projectFiles...) {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return true
		}
	}
	return false
}

// dsMarks are keys one of which a DeepSpeed config names (deepSpeedText's first test).
var dsMarks = []string{`"train_micro_batch_size_per_gpu"`, `"train_batch_size"`, `"gradient_accumulation_steps"`,
	`"zero_optimization"`, `"fp16"`, `"bf16"`}

// deepSpeedText reports whether the text b of the JSON file p reads as a DeepSpeed config
// (dialect.Detect), the kind of file a recipe's deepspeed: key names. Only a text that names one of DeepSpeed's batch, ZeRO or precision keys is
// parsed (a folder of data files is not).
func deepSpeedText(p string, b []byte) bool {
	if !slices.ContainsFunc(dsMarks, func(k string) bool { return bytes.Contains(b, []byte(k)) }) {
		return false
	}
	return dialect.Detect(doc.Parse(p, b, doc.JSON, doc.Limits{})) == dialect.DeepSpeed
}

// declaresOutside reports whether the config file's [[runs]] (o.Runs) declare a run of the
// config p whose launcher is outside the folder dir.
func declaresOutside(o lint.Options, p, dir string) bool {
	for _, d := range o.Runs {
		if d.Launcher != "" && samePath(d.Config, p) && !within(absOr(dir), absOr(d.Launcher)) {
			return true
		}
	}
	return false
}

// launches reports whether the config file's [[runs]] (o.Runs) name p as a run's launcher.
func launches(o lint.Options, p string) bool {
	return slices.ContainsFunc(o.Runs, func(d lint.DeclaredRun) bool { return d.Launcher != "" && samePath(d.Launcher, p) })
}

// samePath reports whether a and b name the same path (absolute, cleaned).
func samePath(a, b string) bool { return absOr(a) == absOr(b) }

// absOr is p made absolute (p itself when that fails).
func absOr(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// realWithin reports whether dir, its symbolic links resolved, lies in top's resolved path:
// a tree's os.Root at top refuses links that leave it.
func realWithin(top, dir string) bool {
	t, err1 := filepath.EvalSymlinks(top)
	d, err2 := filepath.EvalSymlinks(dir)
	return err1 == nil && err2 == nil && within(absOr(t), absOr(d))
}

// hydraFiles are the YAML files under the Hydra config directory dir (nil past maxWidened).
func hydraFiles(dir string) []input {
	files, _ := walkDir(dir)
	var out []input
	for _, f := range files {
		if isYAMLPath(f.FSPath) {
			out = append(out, f)
		}
	}
	if len(out) > maxWidened {
		return nil
	}
	return out
}

// goesUp reports whether the relative path r leaves the folder it is relative to ("..",
// "../x").
func goesUp(r string) bool { return r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) }

// within reports whether the path p lies in the folder dir (lexically: both absolute, or both
// relative to the same folder).
func within(dir, p string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && !goesUp(r)
}

// fromWorkingDir is the folder dir (absolute) as a tree's root is given: relative to the
// working directory wd, or absolute when it lies above wd, so that the tree is the folder
// found, not where ".." leads from a symbolic link's target. "" when no relative path exists.
func fromWorkingDir(wd, dir string) (string, bool) {
	r, err := filepath.Rel(wd, dir)
	switch {
	case err != nil:
		return "", false
	case goesUp(r):
		return dir, true
	}
	return r, true
}

// maxJSONRecipe is the size past which a JSON file is taken for data, not a recipe, without
// reading it (an HF recipe is a few KiB; a repository's data or annotation files are many and
// large).
const maxJSONRecipe = 64 << 10

// jsonRecipeFile reads the JSON file p when it may be a recipe whose keys name other files (an
// HF JSON recipe's deepspeed, as HfArgumentParser.parse_json_file reads it: compose.IsRecipe)
// and returns its text; nil when it is none, larger than maxJSONRecipe or unreadable. The text
// is not kept in a tree's memo.
func jsonRecipeFile(p string) []byte {
	if b := smallJSON(p); b != nil && compose.IsRecipe(p, b) {
		return b
	}
	return nil
}

// smallJSON reads the file p when it is a regular file no larger than maxJSONRecipe (a recipe
// or a DeepSpeed config, not a data file); nil otherwise.
func smallJSON(p string) []byte {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxJSONRecipe {
		return nil
	}
	b, err := readSmall(p)
	if err != nil {
		return nil
	}
	return b
}

// relAbs is filepath.Rel(base, target), through absolute paths where the lexical one fails or
// leaves base (a root above the working directory and a relative file below it; a file named
// as ../../conf/x.yaml from inside conf/, which goes up and comes back).
func relAbs(base, target string) (string, error) {
	r, err := filepath.Rel(base, target)
	if err == nil && !goesUp(r) {
		return r, nil
	}
	b, err1 := filepath.Abs(base)
	t, err2 := filepath.Abs(target)
	if err1 != nil || err2 != nil {
		return r, err
	}
	return filepath.Rel(b, t)
}

// treePrefix is what a tree's reported paths put before a path relative to its root, from one
// input's reported path shown and its path rel in the tree: what shown has before rel, or,
// where the root is above the folder shown is relative to (a config named from inside its
// repository's configs/, whose bases are ../_base_/), the way from the working directory up
// to the root ("../../").
func treePrefix(shown, rel, root string) string {
	if p, ok := strings.CutSuffix(shown, rel); ok && (p == "" || strings.HasSuffix(p, "/")) {
		return p
	}
	if filepath.IsAbs(shown) {
		if abs, err := filepath.Abs(root); err == nil {
			return strings.TrimSuffix(filepath.ToSlash(abs), "/") + "/"
		}
	}
	cwd, err1 := os.Getwd()
	abs, err2 := filepath.Abs(root)
	if err1 != nil || err2 != nil {
		return ""
	}
	up, err := filepath.Rel(cwd, abs)
	if err != nil || up == "." {
		return ""
	}
	return filepath.ToSlash(up) + "/"
}

func isYAMLPath(p string) bool {
	e := strings.ToLower(filepath.Ext(p))
	return e == ".yaml" || e == ".yml"
}

// codeTreeRoot is the tree a code config named on the command line is composed in: its bases
// are found relative to it, usually above its folder (MMDetection's `../_base_/`), and T5X's
// includes from the repository's top. It is the repository that holds the file: the nearest
// folder with .git, looked for up to the working directory and above it up to joinSearchDepth
// folders above the file's (a config named from inside configs/det/ finds its bases in
// ../_base_/, as MMEngine opens them relative to the file whatever the working directory);
// else, where the working directory is inside a Python project (a downloaded release:
// pyproject.toml, setup.py or setup.cfg, the outermost within joinSearchDepth folders above
// the file), that project; else the working directory when the file is inside it; else the
// file's own folder (fallback). Nothing above it is read (composition: never outside the
// repository that holds the config).
func codeTreeRoot(fsPath, fallback string) string {
	abs, err := filepath.Abs(fsPath)
	if err != nil {
		return fallback
	}
	cwd, err := os.Getwd()
	if err != nil {
		return fallback
	}
	home, _ := os.UserHomeDir()
	if home != "" {
		home = filepath.Clean(home)
	}
	root, project := "", ""
	for d, i := filepath.Dir(abs), 0; ; d, i = filepath.Dir(d), i+1 {
		above := !within(cwd, d)
		if above && (i > joinSearchDepth || d == home || d == filepath.Dir(d)) {
			// past joinSearchDepth only up to the working directory; and never a home folder
			// or / above it (a home folder kept in git is no repository of configs)
			break
		}
		if fi, err := os.Stat(filepath.Join(d, ".git")); err == nil && fi != nil {
			root = d
			break
		}
		if i <= joinSearchDepth {
			for _, name := range projectFiles {
				if _, err := os.Stat(filepath.Join(d, name)); err == nil {
					project = d // the outermost wins
					break
				}
			}
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	switch {
	case root != "":
	case project != "" && within(project, cwd):
		root = project
	case within(cwd, abs):
		root = cwd
	default:
		return fallback
	}
	if filepath.IsAbs(fsPath) {
		return root
	}
	if r, ok := fromWorkingDir(cwd, root); ok {
		return r
	}
	return fallback
}
