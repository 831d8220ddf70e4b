package compose

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// Limits bound one composition (the composed tree is bounded like a file).
type Limits struct {
	MaxFiles int // files loaded into one run (default 500)
	MaxDepth int // nesting of defaults lists (default 32)
	MaxNodes int // nodes of the composed tree (default 1,000,000)
	Doc      doc.Limits
}

// Defaults returns l with every bound left at zero set to its default.
func (l Limits) Defaults() Limits { return l.withDefaults() }

func (l Limits) withDefaults() Limits {
	if l.MaxFiles <= 0 {
		l.MaxFiles = 500
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = 32
	}
	if l.MaxNodes <= 0 {
		l.MaxNodes = 1_000_000
	}
	return l
}

// ProblemKind says what went wrong while composing.
type ProblemKind uint8

const (
	// Unresolved: a missing group option or config, a reference outside the root, an override
	// that cannot be applied (reported as unresolved-reference, info).
	Unresolved ProblemKind = iota + 1
	// Cycle: a defaults list includes itself (an error: Hydra refuses it).
	Cycle
	// Limit: the composition went past a limit; the rest was not composed.
	Limit
	// Refused: the framework refuses the composition (MMEngine: two bases set one key, a dict
	// over a base value that is not a dict; Hydra: an override value its parser refuses); an
	// error at the reference.
	Refused
	// Literal: a key the framework keeps under its written name where its author meant
	// something else (Hydra: `+callbacks:` in a config file, whose `+` only the command line's
	// override grammar reads); reported as unknown-key.
	Literal
)

// Problem is a composition finding, located in the file that holds the reference.
type Problem struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Kind    ProblemKind
	File    string // "" for a command-line override
	Span    doc.Span
	Message string
	// Help, when set, says how to fix this problem in particular (else the rule's advice).
	Help string
}

// Origin says where a node of the composed tree was set.
type Origin struct {
	File     string // the file (path as given to Compose, joined with the config dir)
	Override string // the command-line override that set it ("" when a file did)
}

// Run is one composed launch.
type Run struct {
	Primary   string   // the primary config's path
	Overrides []string // command-line overrides, as given
	// Doc is the composed tree: Path is the primary config, Root the merged values. Every node
	// is a copy whose spans are those of the file in its Origin.
	Doc *doc.Document
	// Files are the files the run read, in load order (each parsed once).
	Files    []*doc.Document
	Problems []Problem
	// Joined are the files that keys of the run name (a DeepSpeed JSON), read by Cache.Join.
	Joined []Joined
	// Launcher is the launcher config the run is started with (an accelerate config file),
	// read by Cache.Launch; nil when none is known.
	Launcher *doc.Document
	origin   map[*doc.Node]Origin
	// Choices are the final group choices (group path → option), for messages and tests.
	Choices map[string]string
	// Elsewhere are configs (slash paths) the run may read from a folder of
	// Cache.MainCandidates, not read: what they set is in Unknown.
	Elsewhere []string
	// Unknown are packages (dotted) whose keys the run does not know: a group whose choice is
	// left to the command line (`group: ???`, not chosen, or `group: null` with options, its
	// package set by no config of the run: nullUnknown), an option not found (Python code may
	// register it) or that may lie on a hydra.searchpath entry the tree does not hold.
	Unknown []string
	// NullKeys are keys (dotted, each map on the way too) that the primary composed alone
	// lacks and an option of a group its defaults list leaves null would set at the root
	// (`experiment: null` whose options declare `# @package _global_`: nullGlobalKeys): a
	// reference to one is to the option a launch chooses, not known rather than missing.
	NullKeys []string
	// NullOpen are those of NullKeys whose value is a list or an interpolation: a reference
	// below one (${GENERAL.STEPS.1}, ${GENERAL.OPT.lr}) may resolve too.
	NullOpen []string
	// Partial says that a missing group option could have set any key of the run (its entry
	// or the group's other options write at the root): the composed values are not the run's,
	// so no rule reads them (composition.md: rules stay silent rather than guess).
	Partial bool
	// Unmatched says the run was refused for an override entry no defaults list matches.
	Unmatched bool
	// Unlaunched marks a guessed run (Spec.Added) nobody launches: it makes no finding and
	// counts as no reader of its files (lint.ComposeSpec).
	Unlaunched bool
	// entries are the override keys of the defaults lists' entries (group, or group@pkg), as
	// the command line's group choices are matched against them (HasEntry).
	entries map[string]bool
}

// Entries reports whether a defaults list of the run has an entry whose override key is key
// (a group written without a package of its own): the command line's key=option chooses it.
// The function holds the entries alone, not the composed tree.
func (r *Run) Entries() func(key string) bool {
	m := r.entries
	return func(key string) bool { return m[key] }
}

// Unknowable reports whether a dotted reference lies in a package whose keys the run does not
// know (Unknown: a group left to the command line, an option not read), or is a key only an
// option of a group left null sets (NullKeys, matched whole: a misspelt key under a map those
// options set is still missing; below a list or an interpolation, NullOpen, any key).
func (r *Run) Unknowable(ref string) bool {
	for _, m := range r.Unknown {
		if ref == m || strings.HasPrefix(ref, m+".") {
			return true
		}
	}
	for _, m := range r.NullKeys {
		if ref == m {
			return true
		}
	}
	for _, m := range r.NullOpen {
		if strings.HasPrefix(ref, m+".") {
			return true
		}
	}
	return false
}

// Origin returns where n was set; for nodes of no file (maps created to hold a package) the
// nearest ancestor that has one.
func (r *Run) Origin(n *doc.Node) Origin {
	for a := n; a != nil; a = a.Parent {
		if o, ok := r.origin[a]; ok {
			return o
		}
	}
	return Origin{File: r.Primary}
}

// File returns the parsed file of the run with this path, or nil.
func (r *Run) File(p string) *doc.Document {
	for _, d := range r.Files {
		if d.Path == p {
			return d
		}
	}
	return nil
}

// composer is the state of one Compose call.
type composer struct {
	fsys FS
	dir  string // config directory inside fsys ("." for the root)
	// rootPkgNames: whether the tree is a package its own Python imports by each name asked
	// (rootPackageName; the cache's pkgNames)
	rootPkgNames map[string]bool
	// ginFork: Cache.GinFork
	ginFork bool
	// legacy: group options without a @package header merge at the root (Cache.LegacyPackages)
	legacy bool
	stored map[string]bool // Cache.StoreGroups
	// primary is the primary config's path (Compose's; "" in code configs' composers)
	primary string
	lim     Limits
	run     *Run
	// configDicts are the nodes that are what a function of a module returned as an
	// ml_collections ConfigDict (code_calls.go markConfigDict).
	configDicts map[*doc.Node]bool
	// declined: an override's value was not read (the light build: hydravalue_lite.go)
	declined bool
	parsed   map[string]*doc.Document
	choices  map[string]string // group → option ("" = none)
	// fixed are the groups whose choice the command line set: defaults-list overrides never
	// change them.
	fixed   map[string]bool
	deleted map[string]bool
	// baseDeleted are the parts of MMEngine bases a file's `del` removed, by file and path, as
	// they were then: a name the file bound to one before (`detector = _base_.model` then `del
	// _base_.model`) still holds that object.
	baseDeleted map[[2]string]*doc.Node
	// mayBeGone are entries of MMEngine bases that a change to a file's bases as a whole left
	// unknown: the file may have deleted them (masa's `for key in keys_to_delete: del
	// _base_[key]`), so a second base setting the key is no certain refusal.
	mayBeGone map[*doc.Node]bool
	// unseenScanned counts the run's files unseenNames has scanned; unseen is its answer so far.
	unseenScanned int
	unseen        bool
	appended      []groupChoice
	// search are the folders of the primary's hydra.searchpath read from the tree, searchOpen
	// its first entry that is not (searchpath.go); partialPre: an override may name a group
	// of that entry, so the run is Partial.
	search     []string
	searchOpen *doc.Node
	searchCLI  string
	partialPre bool
	// searchReported: the open search path entry was named in this pass's problems
	searchReported bool
	// main is the scripts' config_path folder (Cache.MainDir), searched first, when the
	// primary is run with --config-dir (configDir, searchpath_full.go)
	main string
	// mainCands are the folders the scripts' config_path may be (Cache.MainCandidates)
	mainCands []string
	// pos is the place in Hydra's walk of the config whose defaults list is being read
	// (entrySite.pos), with the current entry's rank last.
	pos []int
	// found are the overrides met in defaults lists during the last pass, foundAt the entries
	// that wrote them; chosenAt are the entries that wrote the choices adopted from them, by
	// group (a missing option is reported there: the override names it).
	found    map[string]string
	foundAt  map[string]entrySite
	chosenAt map[string]entrySite
	// unlooked is what this pass notes of entries left to the command line (`experiment:
	// ???`, not chosen) and of group options not found, for unlookedUp (unlooked_full.go,
	// unlooked_lite.go).
	unlooked unlooked
	// via is what the next load's not-found problem adds: the entry whose choice an override
	// entry made ("" when none).
	via string
	// seen are the groups of the entries met in defaults lists during the last pass, override
	// entries aside: those match no override (Hydra's ensure_overrides_used)
	seen map[string]bool
	// seenPkg are the group@package pairs of those entries (the package resolved, "" for an
	// entry written without one), which the command line's group overrides are matched
	// against, as Hydra matches them.
	seenPkg map[string]bool
	// pkgChoice and pkgDeleted are the command line's group@pkg=option and ~group@pkg
	// overrides, by group@pkg; they apply to the entries of that package only.
	pkgChoice  map[string]string
	pkgDeleted map[string]bool
	toMatch    []groupOverride // the command line's group choices and deletions (finishOverrides)
	stack      []string
	pre        []Problem // problems of the overrides themselves (found before any pass)
	nodes      int
	loads      int // configs merged in this pass (a config included twice counts twice)
	stopped    bool
	// filesOnly: follow a code config's bases to learn the files the run reads, and build
	// no tree (codeReads; discovery needs no more)
	filesOnly bool
	problems  map[string]bool
	// callText names what each call of another module's function in the file being composed
	// returned, by its key among the bases (code_calls.go), for problems: "get_coco_config()";
	// callReads counts the functions read (maxCallReads).
	callText  map[string]string
	callReads int
	// known are the options loaded in this pass, by Hydra's override key (group, or group@pkg
	// for an entry with a package of its own); lists are the defaults lists being read (the
	// innermost last), whose choices an interpolated entry may name before they load.
	known map[string]string
	lists []*listFrame
	// named are the option each single-option entry of this pass names (after the overrides;
	// "" for null), by override key, for Hydra's "Multiple values" check (sameChoice).
	named map[string]string
	// nulls are the groups of this pass's entries left null (`model: null`, no override
	// choosing), each with its package, for nullUnknown.
	nulls [][2]string
}

// entrySite is a defaults-list entry: its file and its key-value node.
type entrySite struct {
	file string
	kv   *doc.Node
	// pos is the place of the entry's config in Hydra's walk of the defaults tree (a config's
	// own overrides first, then its children in reverse list order, depth first; the
	// primary's is empty): the order in which Hydra registers override entries.
	pos []int
}

// before reports whether Hydra registers the override entry a before b: the config it lies in
// comes first in the walk (a parent before its children), else it comes first in its file.
func (a entrySite) before(b entrySite) bool {
	for i := 0; i < len(a.pos) && i < len(b.pos); i++ {
		if a.pos[i] != b.pos[i] {
			return a.pos[i] < b.pos[i]
		}
	}
	if len(a.pos) != len(b.pos) {
		return len(a.pos) < len(b.pos)
	}
	return a.file < b.file || a.file == b.file && a.kv.KeySpan.Start.Offset < b.kv.KeySpan.Start.Offset
}

// groupChoice is a group added on the command line (+group@pkg=option); pkg as written.
type groupChoice struct{ text, group, option, pkg string }

// Compose composes a Hydra run statically: primary is a config file path inside fsys (slash
// separated, like every FS path), its folder is the config directory, overrides are Hydra
// command-line overrides. It reads nothing outside fsys and never fails: what cannot be
// resolved is a Problem.
func Compose(fsys FS, primary string, overrides []string, lim Limits) *Run {
	return NewCache().Compose(fsys, primary, overrides, lim)
}

// Cache keeps the files parsed by the compositions that share it (the runs of one tree read
// the same group files): each file is read and parsed once. Not safe for concurrent use.
type Cache struct {
	parsed map[string]*doc.Document
	// pkgNames: whether the tree is a Python package its own modules import by each name asked
	// (composer.rootPackageName), kept across the runs composed with the cache.
	pkgNames map[string]bool
	// LegacyPackages composes as Hydra 1.0 and 0.11 do: a group option without a @package
	// header merges at the root of the config (hydra/plugins/config_source.py at v1.0.7, the
	// "Hydra 1.0: default to _global_" branch; 0.11 merges every option there), where Hydra
	// 1.1 and later put it under its group. The driver sets it for a repository whose
	// @hydra.main names its config file in config_path, which only Hydra 1.0 and older read
	// (split_config_path, hydra/core/utils.py at v1.0.7; gone in v1.1.0).
	LegacyPackages bool
	// StoreGroups are the options the repository's Python registers with Hydra's ConfigStore,
	// as "group/name", and the configs it registers without a group, as "name": such a config
	// missing from the tree is not reported missing (modulus-sym's arch/fully_connected,
	// dpr-scale's config), and what it sets is not known.
	StoreGroups map[string]bool
	// GinFork reads gin files in the grammar of HorizonRobotics' fork of gin-config (the
	// repository pins it: lint.Options.GinFork), as the file's own lint does.
	GinFork bool
	// Launched are the configs (slash paths in the tree) a script of the repository launches
	// as its own (@hydra.main's config_name): discovery never takes one for a part of other
	// configs' runs (siblingBases). The driver sets it.
	Launched map[string]bool
	// MainDir is the folder (slash path in the tree, "" for none) that every @hydra.main of
	// the repository names as its config_path: a primary outside it is run with --config-dir,
	// and its options are looked up there too (configDir, searchpath_full.go). The driver sets it.
	MainDir string
	// MainCandidates are folders (slash paths in the tree) the repository's @hydra.main may
	// name as config_path when MainDir is not known (naver/splade's CONFIG_PATH, "../conf"
	// unless an environment variable names another folder). A group option the run's folders
	// lack but one of them holds may be read from it: what it sets is not known, and it is not
	// reported missing. The driver sets it.
	MainCandidates []string
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{parsed: map[string]*doc.Document{}, pkgNames: map[string]bool{}}
}

// Parsed reports whether the cache has read the file p (slash path), parsed or found missing.
func (k *Cache) Parsed(p string) bool {
	_, ok := k.parsed[p]
	return ok
}

// Compose is Compose with the cache's parsed files (the FS and limits must be the same for
// every call on one cache).
func (k *Cache) Compose(fsys FS, primary string, overrides []string, lim Limits) *Run {
	if IsCodeConfig(primary) {
		return k.composeCode(fsys, primary, overrides, lim) // code.go
	}
	lim = lim.withDefaults()
	primary = path.Clean(primary)
	c := &composer{fsys: fsys, dir: path.Dir(primary), primary: primary, lim: lim, parsed: k.parsed, legacy: k.LegacyPackages, stored: k.StoreGroups, ginFork: k.GinFork, mainCands: k.MainCandidates,
		choices: map[string]string{}, fixed: map[string]bool{}, deleted: map[string]bool{}, problems: map[string]bool{},
		pkgChoice: map[string]string{}, pkgDeleted: map[string]bool{}}
	c.readSearchPath(primary, overrides, k.MainDir) // searchpath.go
	var run *Run
	var values []valueOverride
	if hydraValueDeclined {
		// The light build reads no command-line override (hydravalue_lite.go): the run is
		// composed without them and declined, and the checker composes it with the full module.
		// The constant keeps the override code out of that build altogether.
		c.declined = c.declined || len(overrides) > 0
	} else {
		for _, o := range overrides {
			if v, ok := c.parseOverride(o); ok {
				values = append(values, v)
			}
		}
	}
	var root *doc.Node
	// Overrides found in defaults lists (an experiment's `override /trainer: ddp`) change the
	// choices of groups listed before them, so the tree is composed again until the choices
	// settle (Hydra collects them the same way before it merges). Bounded: each pass can only
	// set choices that the command line did not.
	for pass := 0; pass < 8; pass++ {
		c.run = &Run{Primary: primary, Overrides: overrides, origin: map[*doc.Node]Origin{}}
		c.found = map[string]string{}
		c.foundAt = map[string]entrySite{}
		c.pos = c.pos[:0]
		c.seen = map[string]bool{}
		c.seenPkg = map[string]bool{}
		c.nodes = 0
		c.loads = 0
		c.stopped = false
		c.stack = c.stack[:0]
		c.problems = map[string]bool{}
		c.searchReported = false
		c.known = nil
		c.named = map[string]string{}
		c.lists = c.lists[:0]
		c.unlooked = unlooked{}
		c.nulls = c.nulls[:0]
		root = newMap(nil, "")
		// By its file's name: with version_base below 1.2 (1.1 when a script names none) Hydra
		// reads a primary named x.yml too (hydra/plugins/config_source.py at v1.3.2).
		c.load(root, strings.TrimSuffix(path.Base(primary), ".yaml"), "", "", "", nil, "", true)
		changed := false
		for g, opt := range c.found {
			if c.fixed[g] {
				continue
			}
			if c.chosenAt == nil {
				c.chosenAt = map[string]entrySite{}
			}
			c.chosenAt[g] = c.foundAt[g]
			if c.choices[g] != opt {
				c.choices[g] = opt
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	run = c.run
	c.unlookedUp()
	c.unmatchedOverrides()
	run.entries = c.seenPkg
	run.Partial = run.Partial || c.partialPre
	run.Problems = append(run.Problems, c.pre...)
	if !hydraValueDeclined {
		c.finishOverrides(root, values)
	}
	c.nullUnknown(root)
	c.sweeperParams(root) // sweeper.go
	run.Choices = c.choices
	run.Doc = &doc.Document{Path: primary, Format: doc.YAML, Root: root, Declined: c.declined}
	if d := c.parsed[primary]; d != nil {
		run.Doc.Src = d.Src
		run.Doc.Comments = d.Comments
		run.Doc.Format = d.Format
	}
	sort.SliceStable(run.Problems, func(i, j int) bool { return run.Problems[i].File < run.Problems[j].File })
	return run
}

// unmatchedOverrides reports the override entries of the run's defaults lists (an experiment's
// `override /callbacks: default`) whose group no other entry of the run has: Hydra stops at
// start-up (hydra/_internal/defaults_list.py ensure_overrides_used, v1.3.2), so the run is
// not read further. Only a run read whole is judged: an entry may sit in a config not read.
func (c *composer) unmatchedOverrides() {
	// Hydra stops at the first it registered (_update_overrides, called for each config as its
	// walk of the tree reaches it: entrySite.before).
	first, at := "", entrySite{}
	for g, e := range c.foundAt {
		// Hydra's own groups (hydra/job_logging: colorlog) have their entries in Hydra's
		// config, which the run's tree leaves out.
		if c.seen[g] || strings.HasPrefix(g+"/", "hydra/") {
			continue
		}
		if first == "" || e.before(at) {
			first, at = g, e
		}
	}
	if first == "" {
		return
	}
	if hydraValueDeclined {
		c.declined = true // the light build leaves the run to the full module
		return
	}
	if c.run.Partial || c.partialPre || c.stopped || len(c.run.Unknown) > 0 {
		return // a config not read, or a choice left to the launch (???), may hold the entry
	}
	for _, p := range c.run.Problems {
		if p.Kind == Unresolved {
			return
		}
	}
	c.problem(Refused, at.file, at.kv.KeySpan, noMatch(strings.TrimSpace(strings.TrimPrefix(at.kv.Key, "override")), first, "override", first))
	c.run.Partial, c.run.Unmatched = true, true
}

// site is the place in Hydra's walk of the config whose entry is being read: pos without the
// entry's own rank.
func (c *composer) site() []int {
	if len(c.pos) == 0 {
		return nil
	}
	return append([]int(nil), c.pos[:len(c.pos)-1]...)
}

func (c *composer) problem(k ProblemKind, file string, span doc.Span, msg string) {
	c.problemWith(k, file, span, msg, "")
}

// cycle reports whether loading p from `from` closes a cycle, and records it: the message names
// the cycle alone (p, the files p led to, p again), so that every run reaching one cycle at one
// import reports it in the same words, once.
func (c *composer) cycle(p, what, from string, ref doc.Span) bool {
	for i, s := range c.stack {
		if s == p {
			c.problem(Cycle, from, ref, what+" cycle: "+strings.Join(c.stack[i:], " → ")+" → "+p)
			return true
		}
	}
	return false
}

// problemWith is problem with its own help (Problem.Help).
func (c *composer) problemWith(k ProblemKind, file string, span doc.Span, msg, help string) {
	if c.run == nil {
		c.pre = append(c.pre, Problem{Kind: k, File: file, Span: span, Message: msg, Help: help})
		return
	}
	key := file + "\x00" + itoa(span.Start.Line) + "\x00" + msg
	if c.problems[key] {
		return
	}
	c.problems[key] = true
	c.run.Problems = append(c.run.Problems, Problem{Kind: k, File: file, Span: span, Message: msg, Help: help})
}

// parse reads and parses one config file once (nil when it does not exist or is unreadable).
func (c *composer) parse(p string) (*doc.Document, bool) { return c.parseAs(p, doc.YAML) }

// parseAs reads and parses one file in format f once, caching the result (nil when the file
// does not exist or is unreadable) by path for every later load of it.
func (c *composer) parseAs(p string, f doc.Format) (*doc.Document, bool) {
	if d, ok := c.parsed[p]; ok {
		return d, d != nil
	}
	if !ValidPath(p) {
		c.parsed[p] = nil
		return nil, false
	}
	b, err := c.fsys.ReadFile(p)
	if err != nil {
		c.parsed[p] = nil
		return nil, false
	}
	d := doc.ParseWith(p, b, f, doc.Options{Limits: c.lim.Doc, GinFork: c.ginFork})
	c.parsed[p] = d
	return d, true
}

// configPath resolves a config name against the config dir (".yaml" appended); ok is false for
// a name that leaves the tree read (absolute paths, ".." past its top). A ".." is resolved as
// the file config source's os.path.join does: verl's actor/dp_actor.yaml lists
// `../optim@optim: fsdp`, which Hydra 1.3 reads as optim/fsdp.yaml.
func (c *composer) configPath(rel string) (string, bool) { return configPathIn(c.dir, rel) }

// configPathIn is configPath in the folder dir (a hydra.searchpath folder: searchpath.go). A
// name climbing out of dir (hulc2's `../paths@paths: general_paths` in a primary) is where
// Hydra's file config source looks: it joins the name to its folder and takes the real path
// (hydra/_internal/core_plugins/file_config_source.py:21-23 and :46-49 at v1.1.1 and v1.3.2);
// past the top of the tree read, nothing is.
func configPathIn(dir, rel string) (string, bool) {
	if strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") {
		return "", false
	}
	p := path.Join(dir, rel)
	if !ValidPath(p) {
		return "", false
	}
	if path.Ext(p) != ".yaml" && path.Ext(p) != ".yml" {
		p += ".yaml"
	}
	return p, true
}

// load merges the config name (relative to the config dir, without extension) into root at
// its package. group is its group ("" for a primary or a non-group config at the root). The
// package is pkg when the defaults list gave one (absolute), else the config's header's, else
// defPkg: the containing config's package joined with the group as the entry wrote it (Hydra
// 1.1 and later: an entry `/optimizer: adam` in model/net.yaml, whose package is model, goes to
// model.optimizer; hydra/core/default_element.py _get_final_package at v1.3.2). ref and from
// locate the reference for problems.
func (c *composer) load(root *doc.Node, name, group, pkg, defPkg string, ref *doc.Node, from string, primary bool) {
	via := c.via
	c.via = ""
	if c.stopped {
		return
	}
	p, ok := c.configPath(name)
	if !primary {
		p, _, ok = c.locate(name) // the config directory, then hydra.searchpath's folders
	}
	refSpan := doc.Span{}
	if ref != nil {
		refSpan = ref.Span
	}
	if !ok {
		c.problem(Unresolved, from, refSpan, "config "+quote(name)+" is outside the config directory and was not read")
		// What it sets is not known, as for a config not found; a package with empty parts
		// (a group path climbing out, below) may be anywhere.
		if mp := pkgOr(pkg, defPkg); strings.Contains("."+mp+".", "..") {
			c.run.Partial = true
		} else {
			c.unknownPackage(group, mp)
		}
		return
	}
	if c.cycle(p, "defaults list", from, refSpan) {
		return
	}
	if len(c.stack) >= c.lim.MaxDepth {
		c.problem(Limit, from, refSpan, "defaults lists nest deeper than "+itoa(c.lim.MaxDepth)+" levels; the rest was not composed")
		return
	}
	// A config may be included many times (a diamond of defaults lists doubles at each level),
	// so the merges are counted, not only the distinct files.
	if c.loads++; c.loads > 20*c.lim.MaxFiles {
		c.problem(Limit, from, refSpan, "the run merges configs more than "+itoa(20*c.lim.MaxFiles)+" times; the rest was not composed")
		c.stopped = true
		return
	}
	d, ok := c.parse(p)
	if !ok && c.searchOpened() {
		c.missingOnSearchPath(name, group, pkgOr(pkg, defPkg), from, refSpan)
		return
	}
	if !ok && c.main == "" {
		if mp := c.onMainCandidate(name); mp != "" {
			// A folder the scripts' config_path may name holds it (Cache.MainCandidates): the
			// launch may read it from there, so what it sets is not known, and it is not missing.
			if !slices.Contains(c.run.Elsewhere, mp) {
				c.run.Elsewhere = append(c.run.Elsewhere, mp)
			}
			c.unknownPackage(group, pkgOr(pkg, defPkg))
			return
		}
	}
	if !ok && strings.HasPrefix(group, "hydra/") {
		// An option of Hydra's own groups that the tree does not hold is Hydra's or a plugin's
		// (hydra/conf/hydra/job_logging/disabled.yaml at v1.3.2; hydra_colorlog's colorlog),
		// written in the legacy form without `override` (Hydra before version_base 1.2): it
		// sets Hydra's node, which no rule reads.
		return
	}
	if !ok {
		// fairseq registers its groups' options from Python (ConfigStore), and habitat-lab's
		// search path plugin adds its package's folders: Hydra finds what no folder read holds.
		why := "; a config Python code registers (Hydra's ConfigStore, a search path plugin) is not read"
		if group != "" {
			why = "; an option Python code registers (Hydra's ConfigStore, a search path plugin) is not read"
		}
		// A config of no group is registered by its name alone (dpr-scale's `- config`, which
		// its Python stores in the ConfigStore).
		key := strings.TrimSuffix(path.Base(name), ".yaml")
		stored := c.stored[strings.TrimPrefix(group+"/"+key, "/")]
		if !stored && group == "" && !strings.Contains(name, "/") {
			// A primary in a folder named as a registered group (FLSim's test config
			// trainer/sync_trainer.yaml, `- base_sync_trainer`, composed from the folder above
			// as trainer/sync_trainer): Hydra resolves a relative entry against the group of
			// the config holding it (hydra/_internal/defaults_list.py:541 and
			// core/default_element.py:340-364 at v1.3.2), so the name may be that group's
			// registered option.
			stored = c.stored[path.Base(c.dir)+"/"+key]
		}
		if !stored {
			n := len(c.run.Problems)
			c.problem(Unresolved, from, refSpan, optionWhat(name, group)+" not found ("+p+" does not exist"+why+via+")")
			if group != "" && len(c.run.Problems) > n {
				c.noteMissing(group, n)
			}
		}
		// A config of no group merges at its entry's package: at the root from a primary
		// (plankton-classifier's base_config), where it may set any key of the run.
		mp := pkgOr(pkg, defPkg)
		if group != "" && (pkg == "_global_" || c.globalSibling(path.Dir(p))) || group == "" && (mp == "" || mp == "_global_") {
			c.run.Partial = true
		} else if mp != "" && mp != "_global_" {
			// What the option sets under its package is not known (pytorch/rl's
			// transform@transform0, read from TorchRL's ConfigStore): not missing either.
			c.addUnknown(mp)
		}
		return
	}
	if c.run.File(p) == nil {
		if len(c.run.Files) >= c.lim.MaxFiles {
			c.problem(Limit, from, refSpan, "the run reads more than "+itoa(c.lim.MaxFiles)+" files; the rest was not composed")
			c.stopped = true
			return
		}
		c.run.Files = append(c.run.Files, d)
		c.overrideKeys(p, group, pkgOr(pkg, defPkg), d)
	}
	if d.Root == nil && len(d.Problems) > 0 {
		return // a file that could not be read (reported on the file itself)
	}
	// The package: the defaults list's, else the header's, else the group.
	if pkg == "" {
		pkg = defPkg
		if c.legacy && group != "" {
			pkg = "_global_" // unless a header says otherwise, below
		}
		if h, ok := header(d); ok {
			switch tail, global := globalTail(h); {
			case global:
				pkg = tail // "_global_", "_global_.x", and Hydra's reading of "__global__"
			case h == "_group_":
				pkg = defPkg
			default:
				pkg = h
			}
		}
	}
	if cl := path.Clean(name); (cl == ".." || strings.HasPrefix(cl, "../")) && strings.Contains("."+pkg+".", "..") {
		// A config out of the config directory that neither its entry nor its header gives a
		// package: Hydra's is the entry's group path with "/" read as "." (default_element.py
		// _get_final_package, :165-166 at v1.1.1, :170-171 at v1.3.2), "...paths" for
		// `../paths: general_paths`, whose empty parts OmegaConf.update walks as keys: where
		// its keys land is not known.
		c.run.Partial = true
		return
	}
	if pkg == "_global_" {
		pkg = ""
	}
	if d.Root != nil && d.Root.Kind != doc.Map {
		c.loadNonMap(root, d, p, name, group, pkg, from, refSpan)
		return
	}
	c.stack = append(c.stack, p)
	defer func() { c.stack = c.stack[:len(c.stack)-1] }()

	if d.Root == nil {
		// An empty option (callbacks/none.yaml, comments only): Hydra still makes its package
		// an empty mapping (callbacks: {}), so the group's key is there and empty.
		if !c.listOnPackage(root, pkg, pkg, name, group, p, from, refSpan) {
			c.packageNode(root, pkg, p)
		}
		return
	}
	// The config's group path, against which its defaults list's names resolve (Hydra 1.3.2,
	// defaults_list.py: update_parent(parent.get_group_path(), ...)): a group option's group
	// (data_curation for data_curation: common_crawl/curate_common_crawl, not the folder the
	// option's file is in), a config's own folder for a config named by path (ConfigDefault).
	cdir := group

	defaults := d.Root.Get("defaults")
	selfDone := false
	mergeSelf := func() {
		selfDone = true
		if c.listOnPackage(root, pkg, pkg, name, group, p, from, refSpan) {
			return
		}
		target := c.packageNode(root, pkg, p)
		for _, ch := range d.Root.Children {
			if ch.Key == "defaults" && ch == defaults {
				continue
			}
			c.mergeEntry(target, ch, Origin{File: p})
		}
	}
	if defaults != nil && defaults.Kind == doc.Seq {
		c.lists = append(c.lists, &listFrame{defaults: defaults, cdir: cdir, pkg: pkg, primary: primary})
		defer func() { c.lists = c.lists[:len(c.lists)-1] }()
		// Hydra walks a list's entries in reverse, the command line's +group entries (appended
		// to the primary's list) first.
		base, n, m := c.pos, len(defaults.Children), 0
		if primary {
			m = len(c.appended)
		}
		for i, item := range defaults.Children {
			c.pos = append(base[:len(base):len(base)], n+m-1-i)
			c.entry(root, item, cdir, pkg, p, mergeSelf, &selfDone, primary)
		}
		c.pos = base
		if primary {
			for k, a := range c.appended {
				c.pos = append(base[:len(base):len(base)], m-1-k)
				if c.seenPkg[cliKey(a.group, a.pkg)] {
					// Hydra refuses a second entry for a group and package the list has.
					c.problem(Refused, "", doc.Span{}, "override "+quote(a.text)+" adds group "+quote(a.group)+", which the defaults list already has: Hydra stops at start-up (\"Multiple values for "+a.group+". To override a value use 'override "+a.group+": "+a.option+"'\"); drop the +")
					continue
				}
				pkg := a.pkg
				if pkg != "" {
					pkg = resolvePackage(pkg, "", a.group)
				}
				c.seen[a.group] = true // an entry an override entry may match
				c.loadGroup(root, a.group, a.option, pkg, dotted(a.group), nil, p)
			}
			c.pos = base
		}
	}
	// Hydra 1.1+ merges a config's own values after its defaults when _self_ is not listed.
	if !selfDone {
		mergeSelf()
	}
}

// loadNonMap merges a config whose file is no mapping. A list (MLShukai/ami's devices/cuda.yaml,
// `- cuda:0`) has no defaults list (config_repository.py _extract_defaults_list at v1.3.2 reads
// one from a mapping only) and becomes its package's value: Hydra embeds it there
// (_embed_result_config) and merges the result, so cfg.devices is a list. Merged at the root
// (no package: `@_global_`, `@_here_` in a primary, a `# @package _global_` header) it is
// merged into the root mapping, which OmegaConf refuses ("Cannot merge DictConfig with
// ListConfig", checked with Hydra 1.3.2): Refused, at the entry that loads it. A scalar file
// (OmegaConf makes `cuda` a mapping {cuda: null}) is not modelled: its package is left unknown.
func (c *composer) loadNonMap(root *doc.Node, d *doc.Document, p, name, group, pkg, from string, refSpan doc.Span) {
	if d.Root.Kind != doc.Seq {
		if pkg == "" {
			c.run.Partial = true
		} else {
			c.addUnknown(pkg)
		}
		return
	}
	if pkg == "" {
		fix := "; make the file a mapping"
		if group != "" {
			fix = "; give the entry a package (`" + group + "@name: ...`) or make the file a mapping"
		}
		c.problem(Refused, entryFile(from, p), refSpan, optionWhat(name, group)+" is a list ("+p+"), and here it merges at the root of the config, which is a mapping"+kindsRefused+fix)
		return
	}
	parent, key := root, pkg
	if i := strings.LastIndexByte(pkg, '.'); i >= 0 {
		if c.listOnPackage(root, pkg[:i], pkg, name, group, p, from, refSpan) {
			return
		}
		parent, key = c.packageNode(root, pkg[:i], p), pkg[i+1:]
	}
	if cur := parent.Get(key); cur != nil && cur.Kind == doc.Map {
		c.problem(Refused, entryFile(from, p), refSpan, optionWhat(name, group)+" is a list ("+p+"), and an earlier config of the run made "+quote(cur.Path().String())+" a mapping"+kindsRefused)
		return
	}
	src := *d.Root
	src.Key = key
	c.mergeEntry(parent, &src, Origin{File: p})
}

// kindsRefused ends the problems of a mapping and a list merged into each other, which
// OmegaConf refuses (checked with Hydra 1.3.2).
const kindsRefused = `: Hydra stops at start-up ("Cannot merge DictConfig with ListConfig")`

// optionWhat names a config loaded for an entry, for problems: `option "cuda" of group
// "devices"`, or `config "name"`.
func optionWhat(name, group string) string {
	if group != "" {
		return "option " + quote(path.Base(name)) + " of group " + quote(group)
	}
	return "config " + quote(name)
}

// entryFile is the file a problem of an entry is reported in: the file holding the entry, else (a
// config no entry names) the config itself.
func entryFile(from, p string) string {
	if from == "" {
		return p
	}
	return from
}

// listOnPackage reports (Refused, at the entry that loads the config) a list the run already
// has at the dotted package at or above it: Hydra embeds the config in mappings down to its
// package pkg and merges them into the run, and OmegaConf merges no mapping onto a list.
func (c *composer) listOnPackage(root *doc.Node, at, pkg, name, group, p, from string, refSpan doc.Span) bool {
	if at == "" {
		return false
	}
	n := root
	for _, k := range strings.Split(at, ".") {
		if n = n.Get(k); n == nil {
			return false
		}
		if n.Kind != doc.Seq {
			continue
		}
		c.problem(Refused, entryFile(from, p), refSpan, optionWhat(name, group)+" merges at "+quote(pkg)+", but an earlier config of the run made "+quote(n.Path().String())+" a list"+kindsRefused)
		return true
	}
	return false
}

// entry handles one item of a defaults list.
func (c *composer) entry(root, item *doc.Node, cdir, parentPkg, file string, mergeSelf func(), selfDone *bool, primary bool) {
	if item.Kind == doc.Scalar {
		s, _ := item.Str()
		s = strings.TrimSpace(s)
		if s == "_self_" {
			if !*selfDone {
				mergeSelf()
			}
			return
		}
		if s == "" || item.IsNull() {
			return
		}
		// A config (CONFIG_GROUP/)?NAME(@PACKAGE)?, relative to the containing config's folder
		// (absolute with a leading /); its package is its own unless one is given.
		pkg := ""
		if i := strings.IndexByte(s, '@'); i >= 0 {
			s, pkg = s[:i], s[i+1:]
		}
		name := joinGroup(cdir, s)
		if strings.HasPrefix(s, "/") {
			name = strings.TrimPrefix(s, "/")
		}
		g := path.Dir(name)
		if g == "." {
			g = ""
		}
		if pkg != "" {
			pkg = resolvePackage(pkg, parentPkg, g)
		}
		rel := path.Dir(strings.TrimPrefix(s, "/"))
		if rel == "." {
			rel = ""
		}
		c.load(root, name, g, pkg, joinPackage(parentPkg, dotted(rel)), item, file, false)
		return
	}
	if item.Kind != doc.Map || len(item.Children) != 1 {
		c.problem(Unresolved, file, item.Span, "defaults list entry is not understood and was skipped")
		return
	}
	kv := item.Children[0]
	k := readGroupKey(kv.Key, cdir, parentPkg)
	group := k.group
	if !k.override {
		c.seen[group] = true
	}
	var options []string
	isNull := kv.IsNull()
	switch kv.Kind {
	case doc.Scalar:
		if !isNull {
			s, _ := kv.Str()
			options = []string{s}
		}
	case doc.Seq:
		for _, o := range kv.Children {
			if s, ok := o.Str(); ok {
				if strings.Contains(s, "${") {
					c.listInterpolation(file, o, s, group)
					return
				}
				options = append(options, s)
			}
		}
	}
	if k.override {
		if len(options) > 0 {
			c.found[group] = options[0]
			c.foundAt[group] = entrySite{file, kv, c.site()}
		} else if isNull {
			c.found[group] = ""
			c.foundAt[group] = entrySite{file, kv, c.site()}
		}
		return
	}
	c.seenPkg[k.okey] = true
	choice, chosen, deleted := c.choiceFor(k)
	if deleted {
		return
	}
	if isNull && !chosen {
		c.nulls = append(c.nulls, [2]string{group, pkgOr(k.pkg, k.defPkg)})
	}
	written := options // the entry's own options, before any override's
	if chosen {
		switch {
		case choice == "":
			options = nil
		case strings.HasPrefix(choice, "[") && strings.HasSuffix(choice, "]"):
			// A list of options (cb=[a,b]), for a group whose entry lists several.
			options = nil
			for _, o := range strings.Split(choice[1:len(choice)-1], ",") {
				if o = strings.Trim(strings.TrimSpace(o), `'"`); o != "" {
					options = append(options, o)
				}
			}
		default:
			options = []string{choice}
		}
	}
	if kv.Kind == doc.Scalar && len(options) <= 1 {
		c.sameChoice(k.okey, k.group, options, file, kv)
	}
	for _, opt := range options {
		if opt == "???" {
			// A mandatory choice left to the command line: nothing to compose, and what the
			// option sets is not known (Hydra stops unless the launch chooses one).
			c.unknownPackage(k.group, pkgOr(k.pkg, k.defPkg))
			c.noteMandatory(k.group)
			continue
		}
		if strings.Contains(opt, "${") {
			o, bad := c.interpolateOption(opt)
			if bad != "" {
				c.problem(Unresolved, file, kv.Span, "option "+quote(opt)+" of group "+quote(group)+" was not read: "+bad)
				continue
			}
			opt = o
		}
		if k.optional {
			if _, found, _ := c.locate(joinGroup(group, opt)); !found {
				if c.searchOpened() {
					// The option may be on the search path's unread entry.
					c.missingOnSearchPath(joinGroup(group, opt), group, pkgOr(k.pkg, k.defPkg), file, kv.Span)
				}
				continue
			}
		}
		c.noteChoice(k.okey, opt)
		if at, ok := c.chosenAt[k.group]; ok && chosen && k.okey == k.group && at.kv != nil && c.choices[k.group] == opt &&
			!(len(written) == 1 && written[0] == opt) {
			// An override entry (an experiment's `override /model: mnist`) changed the option:
			// what is wrong with it is written there (one the entry names too is the entry's,
			// in every run).
			c.via = "; this override chooses it for the entry at " + file + ":" + itoa(kv.Span.Start.Line) + ", where Hydra reports it"
			c.loadGroup(root, group, opt, k.pkg, k.defPkg, at.kv, at.file)
			c.via = ""
			continue
		}
		c.loadGroup(root, group, opt, k.pkg, k.defPkg, kv, file)
	}
}

// overrideKeys reports the keys of a config file (p) that are written as command-line
// overrides, `+callbacks:`, `++trainer:` or `~logger:`: Hydra loads a config file with
// OmegaConf.load (hydra/_internal/core_plugins/file_config_source.py:31 at v1.3.2), which keeps
// such a key under its written name, and only the override parser reads those prefixes
// (hydra/core/override_parser), so nothing is added, forced or deleted, and code reading
// cfg.callbacks does not see it (yangkunyi/sam2-video-training's `+callbacks:` list of an
// EarlyStopping and an SWA callback, which its train.py never builds).
//
// Hydra's own config is left alone (the group hydra/, a header placing the file there, the
// root's hydra: section), where a sweeper's params are override keys (`+model.lr:
// range(...)`), and so is the defaults list, whose entries another grammar reads.
func (c *composer) overrideKeys(p, group, pkg string, d *doc.Document) {
	if d == nil || d.Root == nil || strings.HasPrefix(group+"/", "hydra/") || strings.HasPrefix(pkg+".", "hydra.") {
		return // (an entry placing it there: `- search_space@hydra.sweeper.params: mlp`)
	}
	if h, ok := header(d); ok && strings.HasPrefix(h+".", "hydra.") {
		return
	}
	d.Root.Walk(func(n *doc.Node) bool {
		if n.Parent == d.Root && (n.Key == "hydra" || n.Key == "defaults") {
			return false
		}
		if n != d.Root && n.Parent != nil && n.Parent.Kind == doc.Map && OverrideKey(n.Key) {
			what := "adds nothing to " + quote(strings.TrimLeft(n.Key, "+"))
			if n.Key[0] == '~' {
				what = "deletes nothing"
			}
			c.problemWith(Literal, p, n.KeySpan, quote(n.Key)+" is a key of its own here: Hydra reads +, ++ and ~ only in command-line overrides, so it "+what,
				"write the key without its prefix (a defaults list or the command line adds, forces or deletes keys)")
		}
		return true
	})
}

// OverrideKey reports a mapping key written as a command-line override: `+`, `++` or `~`
// before a name (`+callbacks`, `~logger`).
func OverrideKey(k string) bool {
	t := strings.TrimPrefix(strings.TrimPrefix(k, "+"), "+")
	if t == k {
		t = strings.TrimPrefix(k, "~")
	}
	return t != k && t != "" && (t[0] == '_' || t[0] >= 'a' && t[0] <= 'z' || t[0] >= 'A' && t[0] <= 'Z')
}

// onMainCandidate is the config name (relative to a config directory) in the first folder of
// Cache.MainCandidates, other than the primary's own, that holds it; "" when none does.
func (c *composer) onMainCandidate(name string) string {
	for _, m := range c.mainCands {
		if m == c.dir || under(c.primary, m) {
			// A primary in a candidate folder is run from there (train.py's configs/ beside
			// a tool's ../conf constant): the other candidates are not its search path.
			return ""
		}
	}
	for _, m := range c.mainCands {
		if p, ok := configPathIn(m, name); ok && c.exists(p) {
			return p
		}
	}
	return ""
}

// unknownPackage notes a package whose keys the run does not know (a `group: ???` entry left
// to the command line, an option that may lie on an unread hydra.searchpath entry; pkg is
// where it would merge, group its group or ""): the package is Unknown, and at the root (a
// config merged there, a group whose options write there) the run is Partial, as for a
// missing option.
func (c *composer) unknownPackage(group, pkg string) {
	global := pkg == ""
	if _, g := globalTail(pkg); g {
		global = true
	}
	for _, d := range c.folders() {
		global = global || group != "" && c.globalSibling(path.Join(d, group))
	}
	if global {
		c.run.Partial = true
		return
	}
	c.addUnknown(pkg)
}

// nullUnknown makes Unknown the package of each group a defaults list leaves null (`model:
// null`) whose folder holds options, none of them `# @package _global_`, when no config or
// override of the run sets that package. Hydra loads nothing for a null entry
// (hydra/_internal/defaults_list.py:474 at v1.3.2, :471 at v1.1.1: `if parent.get_name() is
// None: return root`), and the launch's group=option replaces the null (override_default_option,
// :545 at v1.3.2, :542 at v1.1.1): kuielab/mdx-net's config.yaml has `- model: null` and every
// documented launch adds model=ConvTDFNet_vocals, whose keys its datamodule's
// ${model.hop_length} names. Such a key is not known rather than missing; one of a package the
// run sets (an experiment's inline `model:`) is still judged.
func (c *composer) nullUnknown(root *doc.Node) {
	for _, n := range c.nulls {
		if _, global := globalTail(n[1]); global || n[1] == "" || root.StepPath(n[1]) != nil {
			continue // the run sets the package itself: judged (its folders are not read)
		}
		has := false
		for _, d := range c.folders() {
			dir := path.Join(d, n[0])
			if c.globalSibling(dir) {
				has = false
				if len(c.run.Overrides) == 0 {
					c.nullGlobalKeys(root, dir) // the primary alone: its launches choose one
				}
				break
			}
			es, _ := c.fsys.ReadDir(dir)
			for _, e := range es {
				has = has || !e.Dir && isYAML(e.Name)
			}
		}
		if has {
			c.addUnknown(n[1])
		}
	}
}

// pkgOr is the package an entry gives, else the one its place gives: where its option merges,
// as far as the entry says (the option's header may move it).
func pkgOr(pkg, defPkg string) string {
	if pkg != "" {
		return pkg
	}
	return defPkg
}

// nullGlobalKeys adds to NullKeys the keys that the `# @package _global_` options of the group
// folder dir (the first 64) set and the run root lacks, each with the maps above it: 4D-Humans'
// train.yaml has `- experiment: null`, its trainer option names ${GENERAL.LOG_STEPS}, and every
// documented launch adds experiment=<name>, whose option sets GENERAL.LOG_STEPS. Only the run
// of the primary alone reads them (a run with overrides is the one they give); an option's
// defaults list and hydra settings are no keys of the run.
func (c *composer) nullGlobalKeys(root *doc.Node, dir string) {
	es, err := c.fsys.ReadDir(dir)
	if err != nil {
		return
	}
	seen := map[string]bool{}
	for _, k := range c.run.NullKeys {
		seen[k] = true
	}
	var add func(n *doc.Node, p string)
	add = func(n *doc.Node, p string) {
		has := root.StepPath(p) != nil
		if !has && !seen[p] {
			seen[p] = true
			c.run.NullKeys = append(c.run.NullKeys, p)
		}
		switch {
		case n.Kind == doc.Map:
			for _, ch := range n.Children {
				add(ch, p+"."+ch.Key)
			}
		case has:
			// the run sets it: what lies below is the run's value, judged
		case n.Kind == doc.Seq || n.IsScalar() && strings.Contains(n.Value, "${"):
			if !seen["\x00"+p] {
				seen["\x00"+p] = true
				c.run.NullOpen = append(c.run.NullOpen, p)
			}
		}
	}
	n := 0
	for _, e := range es {
		if e.Dir || !isYAML(e.Name) {
			continue
		}
		if n++; n > 64 {
			return
		}
		d, ok := c.parse(path.Join(dir, e.Name))
		if !ok || d.Root == nil || d.Root.Kind != doc.Map {
			continue
		}
		h, ok := header(d)
		tail, global := globalTail(h)
		if !ok || !global {
			continue
		}
		for _, k := range d.Root.Children {
			if k.Key == "defaults" || k.Key == "hydra" {
				continue
			}
			p := k.Key
			if tail != "" {
				p = tail + "." + k.Key
			}
			add(k, p)
		}
	}
}

func (c *composer) addUnknown(pkg string) {
	for _, m := range c.run.Unknown {
		if m == pkg {
			return
		}
	}
	c.run.Unknown = append(c.run.Unknown, pkg)
}

// sameChoice records the option a single-option entry names (none: null) under its override
// key, and reports a second entry of that key (hydra/_internal/defaults_list.py at v1.3.2):
// naming another option, set_known_choice raises "Multiple values for <key>" (an override,
// from the command line or an `override` entry, gives both the same option); naming the same
// one, ensure_no_duplicates_in_list raises "<key> appears more than once in the final defaults
// list", unless the option has a defaults list of its own: the final list then holds it as
// its `_self_` entries, which that check skips (defaults_list.py:693-703; StanfordMIMI/MedVAE's
// dataloader options, each with `defaults: [default.yaml]`, compose twice without error). Two
// nulls load nothing. An interpolated or mandatory (???) option is not compared. Hydra before
// 1.1 (Cache.LegacyPackages) has neither check: 1.0.3's config_loader_impl.py merges each entry
// of the list in turn (zhejz/carla-roach, pinned to 1.0.3, loads three agent options so), and
// both messages first appear in v1.1.0's defaults_list.py (:182, :674).
func (c *composer) sameChoice(key, group string, options []string, file string, kv *doc.Node) {
	if c.legacy {
		return
	}
	name := ""
	if len(options) == 1 {
		name = options[0]
	}
	if name == "???" || strings.Contains(name, "${") {
		return
	}
	prev, ok := c.named[key]
	if !ok {
		c.named[key] = name
		return
	}
	show := func(s string) string {
		if s == "" {
			return "null"
		}
		return quote(s)
	}
	switch {
	case prev != name:
		c.problem(Refused, file, kv.Span, "group "+quote(key)+" is given "+show(name)+" here and "+show(prev)+" in another entry of the defaults: Hydra stops at start-up (\"Multiple values for "+key+".\"); keep one entry, or change the other with `override "+key+": ...`")
	case name != "" && !c.hasDefaults(joinGroup(group, name)):
		c.problem(Refused, file, kv.Span, "group "+quote(key)+" is given "+show(name)+" here and in another entry of the defaults: Hydra stops at start-up (\""+key+" appears more than once in the final defaults list\"); keep one entry")
	}
}

// hasDefaults reports whether the config rel names (a group's option) has a defaults list with
// an entry: Hydra adds its _self_ only then (defaults_list.py:494-509 at v1.3.2), and an option
// with `defaults: []` stays a leaf that the duplicate check sees.
func (c *composer) hasDefaults(rel string) bool {
	p, found, _ := c.locate(rel)
	if !found {
		return false
	}
	d, ok := c.parse(p)
	if !ok || d.Root == nil {
		return false
	}
	l := d.Root.Get("defaults")
	return l != nil && l.Kind == doc.Seq && len(l.Children) > 0
}

// noteChoice records the option loaded for an entry, by its override key (the first wins, as
// Hydra's known choices keep the first).
func (c *composer) noteChoice(key, opt string) {
	if c.known == nil {
		c.known = map[string]string{}
	}
	if c.known[key] == "" {
		c.known[key] = opt
	}
}

// listInterpolation reports an interpolated option in a list of options, which Hydra refuses
// (defaults_list.py at v1.3.2).
func (c *composer) listInterpolation(file string, o *doc.Node, opt, group string) {
	c.problem(Refused, file, o.Span, "option "+quote(opt)+" of group "+quote(group)+" is an interpolation in a list of options: Hydra stops at start-up (\"Defaults List interpolation is not supported in options list items\")")
}

// interpolateOption resolves a defaults-list option that interpolates other groups' choices
// (`dataset_model: ${dataset}_${model}`; Hydra 1.1 and later, hydra/_internal/defaults_list.py
// at v1.3.2: the interpolation is resolved against the choices of the other entries once they
// are known, whatever their order in the list). A choice comes from the command line or an
// experiment's override, from an option already loaded, or from an entry of a defaults list
// being read. What else Hydra allows (the deprecated ${defaults.0.group}, resolvers) is not
// resolved: bad says why.
func (c *composer) interpolateOption(opt string) (out, bad string) {
	var b strings.Builder
	for rest := opt; ; {
		i := strings.Index(rest, "${")
		if i < 0 {
			b.WriteString(rest)
			return b.String(), ""
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return "", "its interpolation is not closed"
		}
		name := strings.TrimSpace(rest[i+2 : i+j])
		v, ok := c.choiceOf(name)
		if !ok {
			if notAChoice(name) {
				return "", "trainlint does not resolve ${" + name + "} in a defaults list"
			}
			return "", "no choice for group " + quote(name) + " found (Hydra stops at start-up unless the command line chooses one)"
		}
		b.WriteString(rest[:i])
		b.WriteString(v)
		rest = rest[i+j+1:]
	}
}

// notAChoice reports an interpolation that names no group's choice: a resolver or a nested
// interpolation, or the deprecated ${defaults.N.group}, which this reader does not resolve.
func notAChoice(name string) bool {
	return strings.ContainsAny(name, ":${") || strings.HasPrefix(name, "defaults.")
}

// choiceOf is the option chosen for a group (an override key: group or group@pkg).
func (c *composer) choiceOf(key string) (string, bool) {
	if key == "" || notAChoice(key) {
		return "", false
	}
	if v, ok := c.known[key]; ok {
		return v, true
	}
	for i := len(c.lists) - 1; i >= 0; i-- {
		f := c.lists[i]
		if f.choices == nil {
			f.choices = c.listChoices(f.defaults, f.cdir, f.pkg, f.primary)
		}
		if v, ok := f.choices[key]; ok {
			return v, true
		}
	}
	return "", false
}

// listFrame is a defaults list being read: where it is, and the choices it makes (listChoices),
// found only when an interpolated option asks.
type listFrame struct {
	defaults  *doc.Node
	cdir, pkg string
	primary   bool
	choices   map[string]string
}

// listChoices are the options a defaults list chooses for its groups (one plain option each,
// by override key; the primary's with the command line's +group=option), read before any
// entry loads.
func (c *composer) listChoices(defaults *doc.Node, cdir, parentPkg string, primary bool) map[string]string {
	m := map[string]string{}
	if primary {
		// The command line's +group=option entries join the primary's list.
		for _, a := range c.appended {
			final := dotted(a.group)
			if a.pkg != "" {
				final = resolvePackage(a.pkg, "", a.group)
			}
			m[overrideKey(a.group, final)] = a.option
		}
	}
	for _, item := range defaults.Children {
		if item.Kind != doc.Map || len(item.Children) != 1 || item.Children[0].Kind != doc.Scalar || item.Children[0].IsNull() {
			continue
		}
		kv := item.Children[0]
		opt, _ := kv.Str()
		if strings.Contains(opt, "${") || strings.Contains(kv.Key, "${") {
			continue
		}
		k := readGroupKey(kv.Key, cdir, parentPkg)
		// What the command line (or an experiment's override entry) chooses for the entry.
		choice, chosen, deleted := c.choiceFor(k)
		if chosen {
			opt = choice
		}
		if deleted || opt == "" || strings.HasPrefix(opt, "[") {
			continue
		}
		m[k.okey] = opt
	}
	return m
}

func (c *composer) exists(p string) bool {
	_, ok := c.parse(p)
	return ok
}

func (c *composer) loadGroup(root *doc.Node, group, option, pkg, defPkg string, ref *doc.Node, from string) {
	c.load(root, joinGroup(group, option), group, pkg, defPkg, ref, from, false)
}

// groupKey is a `group: option` entry's key as Hydra reads it (hydra/core/default_element.py
// at v1.3.2).
type groupKey struct {
	group  string // the group's path in the config directory
	pkg    string // the package the entry gives, resolved ("" when it gives none)
	defPkg string // the package without one: the containing config's joined with the group as written
	okey   string // Hydra's override key: group, or group@package when that is not the group's own
	// optional and override are the key's prefixes.
	optional, override bool
}

// readGroupKey reads a defaults-list key (`optional /db@backup`) in a config of folder cdir
// and package parentPkg.
func readGroupKey(key, cdir, parentPkg string) groupKey {
	var k groupKey
	key = strings.TrimSpace(key)
	for {
		switch {
		case strings.HasPrefix(key, "optional "):
			k.optional, key = true, strings.TrimSpace(key[len("optional "):])
			continue
		case strings.HasPrefix(key, "override "):
			k.override, key = true, strings.TrimSpace(key[len("override "):])
			continue
		}
		break
	}
	written := ""
	if i := strings.IndexByte(key, '@'); i >= 0 {
		key, written = key[:i], key[i+1:]
		if written == "" {
			// `group@: option`: an empty package is the containing config's (Hydra 1.3.2's
			// _get_final_package: the root in a primary, as eai-vc's `wandb_habitat@: habitat2`
			// composes at the top level).
			written = "_here_"
		}
	}
	if strings.HasPrefix(key, "/") {
		k.group = strings.TrimPrefix(key, "/")
	} else {
		k.group = joinGroup(cdir, key)
	}
	k.defPkg = joinPackage(parentPkg, dotted(strings.TrimPrefix(key, "/")))
	final := k.defPkg
	if written != "" {
		k.pkg = resolvePackage(written, parentPkg, k.group)
		final = k.pkg
	}
	k.okey = overrideKey(k.group, final)
	return k
}

// choiceFor is what the command line (or an experiment's override entry) chooses for an entry,
// and whether it deletes it. Hydra matches them by override key: group=x an entry whose package
// is the group's own (db, or model/encoder in model/net.yaml), group@pkg=x one whose package
// resolves to pkg (an entry `/optimizer: adam` in a config of package model is
// optimizer@model.optimizer).
func (c *composer) choiceFor(k groupKey) (choice string, chosen, deleted bool) {
	if k.okey != k.group {
		choice, chosen = c.pkgChoice[k.okey]
		return choice, chosen, c.pkgDeleted[k.okey]
	}
	choice, chosen = c.choices[k.group]
	return choice, chosen, c.deleted[k.group]
}

// cliKey is the override key of a command-line group override: group, or group@pkg as written.
func cliKey(group, pkg string) string {
	if pkg == "" {
		return group
	}
	return group + "@" + pkg
}

// dotted turns a group path into a package (model/encoder → model.encoder).
func dotted(group string) string { return strings.ReplaceAll(group, "/", ".") }

// joinPackage is package p inside parent.
func joinPackage(parent, p string) string {
	switch {
	case parent == "":
		return p
	case p == "":
		return parent
	}
	return parent + "." + p
}

// overrideKey is Hydra's name for a group entry's choice: the group, with @package when the
// entry's package (final; "_global_" or "" for the root) is not the group's own
// (default_element.py get_override_key at v1.3.2).
func overrideKey(group, final string) string {
	if final == "_global_" {
		final = ""
	}
	if final == dotted(group) {
		return group
	}
	if final == "" {
		final = "_global_"
	}
	return group + "@" + final
}

func joinGroup(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// resolvePackage turns a defaults-list package (relative to the containing config's package;
// "_global_" prefix absolute, "_here_" the parent's, "_group_" the group's) into an absolute
// dotted package. "" is the root (marked "_global_" so that the caller does not fall back).
func resolvePackage(pkg, parent, group string) string {
	if tail, global := globalTail(pkg); global {
		if tail == "" {
			return "_global_"
		}
		return tail
	}
	switch {
	case pkg == "_here_":
		if parent == "" {
			return "_global_"
		}
		return parent
	}
	if strings.Contains(pkg, "_group_") {
		// absolute: Hydra's update_parent makes it "_global_." + the package with _group_
		// replaced by the entry's group path (default_element.py, 1.3.2)
		return strings.ReplaceAll(pkg, "_group_", strings.ReplaceAll(group, "/", "."))
	}
	if parent == "" {
		return pkg
	}
	return parent + "." + pkg
}

// globalTail reads a package as Hydra 1.3.2's _get_final_package does (default_element.py):
// what follows the last "_global_" in it and the dot after that, the root when nothing does.
// So "_global_.model" is model, and audiocraft's "__global__", which holds "_global_" too, is
// the root. global is false for a package without "_global_".
func globalTail(pkg string) (tail string, global bool) {
	i := strings.LastIndex(pkg, "_global_")
	if i < 0 {
		return pkg, false
	}
	if i += len("_global_") + 1; i >= len(pkg) {
		return "", true
	}
	return pkg[i:], true
}

// globalSibling reports a group folder one of whose first options (20 at most) declares
// `# @package _global_`: an option of the group missing from the tree may do so too
// (ProteinWorkshop's task options set callbacks.model_checkpoint.monitor from the root).
func (c *composer) globalSibling(dir string) bool {
	es, err := c.fsys.ReadDir(dir)
	if err != nil {
		return false
	}
	n := 0
	for _, e := range es {
		if e.Dir || !strings.HasSuffix(e.Name, ".yaml") {
			continue
		}
		if n++; n > 20 {
			break
		}
		if d, ok := c.parse(path.Join(dir, e.Name)); ok {
			if h, ok := header(d); ok {
				if _, global := globalTail(h); global {
					return true
				}
			}
		}
	}
	return false
}

// header returns the `# @package X` directive among the comments before the first key.
func header(d *doc.Document) (string, bool) {
	first := 0
	if d.Root != nil && len(d.Root.Children) > 0 {
		first = d.Root.Children[0].KeySpan.Start.Offset
	}
	for _, cm := range d.Comments {
		if first > 0 && cm.Span.Start.Offset > first {
			break
		}
		t := strings.TrimSpace(cm.Text)
		if rest, ok := strings.CutPrefix(t, "@package"); ok {
			return strings.TrimSpace(rest), true
		}
	}
	return "", false
}

// packageNode returns the map at a dotted package, creating maps on the way (their origin is
// the file whose content needed them).
func (c *composer) packageNode(root *doc.Node, pkg, file string) *doc.Node {
	n := root
	if pkg == "" {
		return n
	}
	pkg = strings.ReplaceAll(pkg, "/", ".")
	for _, k := range strings.Split(pkg, ".") {
		ch := n.Get(k)
		if ch == nil || ch.Kind != doc.Map {
			nm := newMap(n, k)
			c.run.origin[nm] = Origin{File: file}
			setChild(n, k, nm)
			ch = nm
		}
		n = ch
	}
	return n
}

func newMap(parent *doc.Node, key string) *doc.Node {
	return &doc.Node{Kind: doc.Map, Style: "block", Key: key, Parent: parent}
}

// setChild puts ch under key in the map n, replacing an existing entry in place.
func setChild(n *doc.Node, key string, ch *doc.Node) {
	ch.Parent, ch.Key = n, key
	for i, old := range n.Children {
		if old.Key == key {
			ch.Index = i
			n.Children[i] = ch
			return
		}
	}
	ch.Index = len(n.Children)
	n.Children = append(n.Children, ch)
}

// mergeEntry merges the map entry src (of a file) into dst, OmegaConf style: maps merge key by
// key, anything else replaces.
func (c *composer) mergeEntry(dst, src *doc.Node, o Origin) {
	cur := dst.Get(src.Key)
	if cur != nil && (cur.Kind == doc.Map && src.Kind == doc.Seq || cur.Kind == doc.Seq && src.Kind == doc.Map) {
		// OmegaConf merges a container only into one of its kind (BaseContainer._merge_with,
		// OmegaConf 2.2): Hydra stops while composing (checked with Hydra 1.3.2).
		c.problem(Refused, o.File, src.Span, "this "+kindName(src)+" merges onto "+quote(cur.Path().String())+", which an earlier config of the run set to a "+kindName(cur)+kindsRefused)
		return
	}
	if cur != nil && src.Kind == doc.Scalar && src.Value == "???" && !c.legacy {
		// A missing value merged onto one a config set keeps it (BaseContainer._map_merge skips
		// a src_node_missing, OmegaConf 2.1 on; 2.0, Hydra 1.0's, overwrote it):
		// superpoint_transformer's `net: ???`, included again after another file filled net.
		return
	}
	if cur != nil && cur.Kind == doc.Map && src.Kind == doc.Map {
		if !src.KeySpan.IsZero() && cur.KeySpan.IsZero() {
			cur.KeySpan = src.KeySpan
		}
		for _, ch := range src.Children {
			c.mergeEntry(cur, ch, o)
		}
		return
	}
	setChild(dst, src.Key, c.copyTree(src, o))
}

// copyTree copies a file's subtree into the composed tree, recording each node's origin.
func (c *composer) copyTree(n *doc.Node, o Origin) *doc.Node {
	c.nodes++
	if c.nodes > c.lim.MaxNodes && !c.stopped {
		c.stopped = true
		c.problem(Limit, o.File, n.Span, "the composed run has more than "+itoa(c.lim.MaxNodes)+" values; the rest was not composed")
	}
	cp := &doc.Node{Kind: n.Kind, Type: n.Type, Quoted: n.Quoted, Alias: n.Alias, Value: n.Value, Style: n.Style,
		Key: n.Key, Index: n.Index, KeySpan: n.KeySpan, Span: n.Span, Use: n.Use}
	c.run.origin[cp] = o
	if c.stopped {
		return cp
	}
	if len(n.Children) > 0 {
		cp.Children = make([]*doc.Node, 0, len(n.Children))
		for _, ch := range n.Children {
			if c.stopped {
				break
			}
			k := c.copyTree(ch, o)
			k.Parent = cp
			cp.Children = append(cp.Children, k)
		}
	}
	return cp
}

func quote(s string) string { return "\"" + s + "\"" }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}
