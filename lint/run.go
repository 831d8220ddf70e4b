package lint

import (
	"errors"
	"runtime"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
)

// LintRun lints one composed run (lint/compose): the rules that are not structural run on the
// composed tree, and each finding is placed in the file that set the value it blames, with the
// other files as related locations. Structural checks (parse errors, duplicate and unknown
// keys) belong to each file's own lint (LintFile with StructuralOnly), so a file shared by
// several runs reports them once. Composition problems are findings at the reference:
// unresolved-reference, input-limit-exceeded or rejected-at-startup (problemRule). A finding
// keeps its fix only where the edit is certain (runFix): a value the run's primary file writes
// itself, in a run launched without overrides.
func LintRun(run *compose.Run, rules []*Rule, o Options) []Diagnostic {
	if run.Unlaunched {
		return nil
	}
	var diags []Diagnostic
	active := Selected(rules, o.Select, o.Ignore)
	unresolvedOn := false
	for _, r := range active {
		if r == UnresolvedReference {
			unresolvedOn = true
		}
	}
	for _, p := range run.Problems {
		if p.Kind == compose.Refused && o.OtherConfigLoader && strings.HasSuffix(run.Primary, ".py") {
			// A Python config's bases are composed by MMEngine's rules, and its refusals are
			// those of MMEngine's and MMCV's Config.fromfile, which the repository does not call
			// (Options.OtherConfigLoader): todd's Config.load merges two bases that set one key.
			continue
		}
		if r := problemRule(active, p.Kind); r != nil {
			diags = append(diags, problemDiagnostic(r, run, p))
		}
	}
	if run.Doc == nil || run.Doc.Root == nil || run.Partial {
		return diags
	}
	if unresolvedOn && hydraComposed(run) {
		// Interpolations across the composed tree (a Single run's file is checked alone by
		// its file lint): a reference to no key of the run, an environment variable without a
		// default. Their values are unknown, so the dialects' readers leave the facts unknown.
		// MMEngine and gin runs interpolate no ${...}: to their loaders it is text (MMEngine
		// v0.10.7 config.py substitutes only {{...}} forms), which a project may fill itself.
		for _, u := range dialect.UnresolvedInRun(run.Doc.Root) {
			if !u.Env && (run.Unknowable(u.Ref) || scriptAdded(o.ScriptAdds, u.Ref)) {
				// a key of an option the command line must choose (or not read), or one the
				// repository's script adds before use: not known, not missing
				continue
			}
			if u.Env && (o.EnvSet[u.Ref] || u.Ref == "HOME") {
				// the repository's script sets it before composing (Options.EnvSet), or it is
				// HOME, which POSIX has the system set at login (and Docker in a container)
				continue
			}
			diags = append(diags, runDiagnostic(UnresolvedReference, run, unresolvedFinding(u)))
		}
	}
	a := Analysis{Doc: run.Doc}
	if o.Framework != "" {
		a.Dialect = dialect.ByName(o.Framework)
	}
	if a.Dialect == nil {
		a.Dialect = dialect.Detect(a.Doc)
		if forkRead(a.Dialect, a.Doc, o) {
			a.Dialect = dialect.Generic
		}
	}
	if a.Dialect == nil {
		a.Dialect = dialect.Generic
	}
	if o.Framework == "" && a.Dialect == dialect.Generic && callBuilt(run) && !run.Doc.ConfigDict {
		// A get_config built by another module's function whose run is no framework's config
		// trainlint knows: a folder walk skips a Python file like that, and its run is skipped
		// the same way (vmoe's configs), problems included. One that returns the ConfigDict a
		// repository module's get_config or get_default_configs made is an ml_collections
		// config, linted as a walk lints one that makes its ConfigDict itself (score_sde's
		// configs/ve/*.py on configs/default_*_configs.py; doc.Document.ConfigDict).
		return nil
	}
	var normErr error
	func() {
		defer func() {
			if r := recover(); r != nil {
				normErr = errors.New("the " + a.Dialect.Name + " dialect panicked: " + panicText(r))
				a.Plan = nil
			}
		}()
		a.Plan = o.normalize(a.Dialect, a.Doc, runContext(run, o))
		// Files the run's keys name (a DeepSpeed config): the values the framework would
		// refuse given the recipe become the plan's mismatches.
		var launchDS *doc.Document
		for _, j := range run.Joined {
			if j.Role == compose.RoleDeepSpeed && a.Plan != nil {
				dialect.JoinDeepSpeed(a.Dialect, a.Plan, a.Doc.Root, j.Key, j.Ref, j.Doc)
				if run.Launcher != nil && run.Origin(j.Ref).File == run.Launcher.Path {
					launchDS = j.Doc
				}
			}
		}
		if run.Launcher != nil {
			dialect.LauncherRejections(a.Plan, run.Launcher.Root, launchDS)
		}
	}()
	if normErr != nil {
		diags = append(diags, internalError(a.Doc, "dialect "+a.Dialect.Name, normErr))
	}
	var semantic []*Rule
	for _, r := range active {
		if (r.Category == CatStructure && !r.Composed) || r.Check == nil || (r.NeedsPlan && a.Plan == nil) {
			continue
		}
		semantic = append(semantic, r)
	}
	diags = runRules(semantic, a, run, o, diags)
	// Suppressions and key ignores, per file: a comment silences the findings placed in its own
	// file. Malformed and unused suppressions are the file lint's to report (a comment can
	// target a finding that only some runs make), so they are not reported here.
	byFile := map[string][]Diagnostic{}
	var order []string
	for _, d := range diags {
		if _, ok := byFile[d.File]; !ok {
			order = append(order, d.File)
		}
		byFile[d.File] = append(byFile[d.File], d)
	}
	var noMeta []*Rule
	for _, r := range active {
		if r != MalformedSuppression && r != UnusedSuppression {
			noMeta = append(noMeta, r)
		}
	}
	var out []Diagnostic
	for _, f := range order {
		ds := byFile[f]
		if fd := run.File(f); fd != nil {
			ds = applySuppressions(fd, ds, rules, noMeta, o)
		} else {
			ds = applyKeyIgnores(ds, rules, o.KeyIgnores)
		}
		out = append(out, ds...)
	}
	for i := range out {
		if sev, ok := o.Severity[out[i].Rule]; ok && out[i].Code != InternalError.Code {
			out[i].Severity = sev
		}
	}
	SortDiagnostics(out)
	return out
}

// hydraComposed reports a run Hydra composes: a tree of its own, built from YAML files (a run of
// one file keeps the file's; MMEngine's and gin's compositions start from code).
func hydraComposed(run *compose.Run) bool {
	return len(run.Files) > 0 && run.Doc != run.Files[0] && run.Files[0].Format != doc.Python && run.Files[0].Format != doc.Gin
}

// runContext is the launch context of a run: the options' (--hosts, --devices-per-host, the
// config file), completed by the run's launcher config where the options say nothing.
func runContext(run *compose.Run, o Options) dialect.Context {
	ctx := o.dialectContext()
	ctx.Hydra = hydraComposed(run)
	if run.Launcher != nil {
		dialect.LauncherContext(&ctx, run.Launcher.Root)
	}
	return ctx
}

// scriptAdded reports whether the repository's scripts add the dotted key ref, or a map above it,
// to the composed config (Options.ScriptAdds: OmegaConf.update(cfg, "out_dim", ...,
// force_add=True), an assignment under open_dict).
func scriptAdded(adds map[string]bool, ref string) bool {
	for k := ref; ; {
		if adds[k] {
			return true
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			return false
		}
		k = k[:i]
	}
}

func unresolvedFinding(u dialect.Unresolved) Finding {
	if u.Env {
		return Finding{Node: u.Node, Key: u.Node.Path().String(), Severity: Info,
			Message: "environment variable " + u.Ref + " has no default: its value is the environment's when the config is composed (the launching shell's, or one the script sets first)",
			Help:    "give a default (${oc.env:" + u.Ref + ",value}) if the checks should use one; checks that need this value ran without it"}
	}
	return Finding{Node: u.Node, Key: u.Node.Path().String(), Severity: Info,
		Message: "${" + u.Ref + "} names no key of the composed run",
		Help:    "define " + u.Ref + " in one of the run's files or fix the path; checks that need this value ran without it"}
}

// problemRule is the active rule that reports a composition problem of kind k, or nil when it
// is not selected: a limit is input-limit-exceeded, a cycle or a composition the framework
// refuses (Hydra's defaults cycle, MMEngine's key set by two bases) rejected-at-startup, and a
// reference that names nothing unresolved-reference. The first two are the rules package's,
// found by name.
func problemRule(active []*Rule, k compose.ProblemKind) *Rule {
	name := UnresolvedReference.Name
	switch k {
	case compose.Limit:
		name = "input-limit-exceeded"
	case compose.Cycle, compose.Refused:
		name = "rejected-at-startup"
	case compose.Literal:
		name = "unknown-key"
	}
	for _, r := range active {
		if r.Name == name {
			return r
		}
	}
	return nil
}

func problemDiagnostic(r *Rule, run *compose.Run, p compose.Problem) Diagnostic {
	file := p.File
	if file == "" {
		file = run.Primary
	}
	d := &doc.Document{Path: file}
	if fd := run.File(file); fd != nil {
		d = fd
	}
	f := Finding{Span: p.Span, Message: p.Message} // the rule's severity
	if p.Kind == compose.Limit {
		// The bounds of a composition are fixed (lint/compose Limits), not the [limits] of
		// .trainlint.toml that the rule's own help names.
		l := compose.Limits{}.Defaults()
		f.Help = "a run is composed up to fixed bounds (" + strconv.Itoa(l.MaxFiles) + " files, base or defaults lists nested " + strconv.Itoa(l.MaxDepth) +
			" deep, " + strconv.Itoa(l.MaxNodes) + " values); the run's other findings cover what was composed. Look for lists that include each other through several files"
	}
	if p.Help != "" {
		f.Help = p.Help // advice for this problem in particular (an override value to quote)
	}
	return toDiagnostic(r, d, f) // no fix: the finding has none
}

// runDiagnostic places a finding of the composed tree: in the file of its node (or of its first
// related node when it has none), other files' nodes as related locations with their file.
func runDiagnostic(r *Rule, run *compose.Run, f Finding) Diagnostic {
	anchor := f.Node
	if anchor == nil {
		anchor = f.In
	}
	if anchor == nil {
		for _, rel := range f.Related {
			if rel.Node != nil {
				anchor = rel.Node
				break
			}
		}
	}
	o := compose.Origin{File: run.Primary}
	if anchor != nil {
		o = run.Origin(anchor)
	}
	d := run.File(o.File)
	if d == nil {
		d = run.Doc
	}
	g := f
	g.Related = nil
	g.Fix = runFix(run, f.Fix, o)
	if f.Node == nil && f.In == nil && anchor != nil && !anchor.Span.IsZero() {
		g.Node = anchor
	}
	if anchor == nil && d.Root == nil && run.Doc != nil && run.Doc.Root != nil && !run.Doc.Root.Span.IsZero() && run.Origin(run.Doc.Root).File == o.File {
		// The primary has no tree alone (a get_config built by another module's function,
		// compose/code_calls.go): a finding on absent keys points at what the run's root
		// spans there (the call), not at the file's first line.
		g.Node = run.Doc.Root
	}
	if o.Override != "" {
		g.Message += " (set by override " + o.Override + ")"
		if g.Node != nil && g.Node.Span.IsZero() {
			g.Node = nil
			g.Span = doc.Span{}
		}
	}
	diag := toDiagnostic(r, d, g)
	if g.Node == nil && f.Node == nil && anchor == nil {
		// Nothing locates the finding: it rests on absent keys of the whole run.
		diag.Message = f.Message
	}
	for _, rel := range f.Related {
		s := rel.Span
		file := diag.File
		if rel.Node != nil {
			ro := run.Origin(rel.Node)
			file = ro.File
			if rel.AtKey && !rel.Node.KeySpan.IsZero() {
				s = rel.Node.KeySpan
			} else {
				s = rel.Node.Span
			}
			if ro.Override != "" {
				diag.Related = append(diag.Related, Related{File: file, Line: 1, Column: 1, Message: rel.Message + " (set by override " + ro.Override + ")"})
				continue
			}
		}
		if s.IsZero() {
			continue
		}
		diag.Related = append(diag.Related, Related{File: file, Line: s.Start.Line, Column: s.Start.Col, Message: rel.Message,
			EndLine: s.End.Line, EndColumn: s.End.Col})
	}
	return diag
}

// runFix is the fix a run's finding keeps, or nil. The edit must be certain and concern this
// run alone (the driver then drops the fixes in a primary other runs read: DropSharedFixes):
//   - the run is launched without overrides (an experiment's run reads the primary that the
//     plain run and the other experiments read too, each with its own values);
//   - the finding is placed in the primary (o, its anchor's origin) and the fix rewrites a
//     value the primary writes itself: a node of that file with the same key, value and use
//     spans. A base, group option or joined file may be read by other runs too, and a value
//     set by an override is in no file.
//
// The fix is then rebuilt on the primary's own node, so toDiagnostic makes the edit that
// linting the file alone would make, with the same checks (valueEdit: text shared by two
// values, a literal reached through a variable). Only ReplaceValue's fixes qualify; the
// other fixes (renamed keys, a trailing comma) come from the file-by-file lint.
func runFix(run *compose.Run, fx *FixSpec, o compose.Origin) *FixSpec {
	if fx == nil || fx.value == nil || len(run.Overrides) > 0 || o != (compose.Origin{File: run.Primary}) || run.Origin(fx.value) != o {
		return nil
	}
	d := run.File(run.Primary)
	if d == nil {
		return nil
	}
	own := ownNode(d, fx.value)
	if own == nil {
		return nil
	}
	g := *fx
	g.value = own
	g.Edits = []TextEdit{{Start: own.Span.Start.Offset, End: own.Span.End.Offset, NewText: fx.Edits[0].NewText}}
	return &g
}

// ownNode is the node of d's trees that n, a composed copy, was made from: the one node with
// n's key, value and use spans; nil when none is, or several are.
func ownNode(d *doc.Document, n *doc.Node) *doc.Node {
	var own *doc.Node
	k := 0
	for _, r := range append([]*doc.Node{d.Root}, d.More...) {
		r.Walk(func(c *doc.Node) bool {
			if c.Span == n.Span && c.KeySpan == n.KeySpan && (c.Use == nil) == (n.Use == nil) && (c.Use == nil || *c.Use == *n.Use) {
				own = c
				k++
			}
			return true
		})
	}
	if k != 1 || n.Span.IsZero() {
		return nil
	}
	return own
}

// DedupeRuns merges the findings of several runs: a finding in a file that several runs include
// is kept once per distinct (file, line, rule, message), with a related note naming the runs
// when there are several, or, among several runs, the one run when the finding sits in another
// file than its primary (a base or group file that other runs read too, where only this one
// gives the values that make the finding). names are the runs as shown (the primary file, and
// its overrides or launcher), primaries their primary files as findings name files.
func DedupeRuns(perRun [][]Diagnostic, names, primaries []string) []Diagnostic {
	type key struct {
		file, rule, msg string
		line            int
	}
	idx := map[key]int{}
	runsOf := map[key][]string{}
	var out []Diagnostic
	var primary []string // of the first run that made each of out
	for i, ds := range perRun {
		for _, d := range ds {
			k := key{d.File, d.Rule, d.Message, d.Line}
			if _, ok := idx[k]; !ok {
				idx[k] = len(out)
				out = append(out, d)
				primary = append(primary, primaries[i])
			}
			runsOf[k] = append(runsOf[k], names[i])
		}
	}
	for k, i := range idx {
		rs := dedupStrings(runsOf[k])
		if len(rs) > 1 || len(names) > 1 && out[i].File != primary[i] {
			out[i].Related = append(out[i].Related, Related{File: out[i].File, Line: out[i].Line, Column: out[i].Column,
				Message: "found in " + runsText(rs), EndLine: out[i].EndLine, EndColumn: out[i].EndColumn})
		}
	}
	SortDiagnostics(out)
	return out
}

// shownRuns is how many runs a "found in N runs" note names: a base shared by a whole model
// zoo would otherwise give a note of hundreds of paths (20 in mmselfsup's linear-probe configs).
const shownRuns = 5

// runsText is "1 run: a" or "N runs: a; b; ...".
func runsText(rs []string) string {
	if len(rs) == 1 {
		return "1 run: " + rs[0]
	}
	return strconv.Itoa(len(rs)) + " runs: " + runList(rs)
}

// runList names the first shownRuns runs and counts the rest.
func runList(rs []string) string {
	if len(rs) <= shownRuns {
		return strings.Join(rs, "; ")
	}
	return strings.Join(rs[:shownRuns], "; ") + "; and " + strconv.Itoa(len(rs)-shownRuns) + " more"
}

func dedupStrings(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	doc.SortStrings(out)
	return out
}

// StructuralOnly returns the structural rules among rules (for group option files linted
// alone: parse, duplicate, unknown and deprecated keys, suppressions).
func StructuralOnly(rules []*Rule) []*Rule {
	var out []*Rule
	for _, r := range rules {
		if r.Category == CatStructure {
			out = append(out, r)
		}
	}
	return out
}

// LintTree lints the files of a tree (slash paths inside fsys, which the driver supplies: the
// engine opens nothing itself) as runs: the runs are specs, or discovered when specs is nil
// (compose.Discover); the files of a config directory that are not runs are fragments and get
// the structural rules alone; every other file is linted alone, exactly as Lint does. A run's
// findings are placed in the files that set the values; findings shared by several runs are
// reported once (DedupeRuns).
func LintTree(fsys compose.FS, files []string, specs []compose.Spec, rules []*Rule, o Options) *Result {
	res := NewResult()
	fsys = &memoFS{FS: fsys, m: map[string][]byte{}}
	found, fragments := compose.Discover(fsys, files)
	if specs == nil {
		specs = found
		skip := map[string]bool{}
		for f := range fragments {
			skip[f] = true
		}
		for _, s := range found {
			skip[s.Primary] = true
		}
		specs = append(specs, compose.DiscoverJoined(fsys, files, skip)...)
	}
	// Composed runs' primaries get the structural rules alone (the runs report the rest); a
	// Single run's file is linted whole, and its run adds what the files it joins bring.
	roots := map[string]bool{}
	for _, s := range specs {
		if !s.Single {
			roots[s.Primary] = true
		}
	}
	structural := StructuralOnly(rules)
	var listed map[string]bool
	for _, f := range files {
		text, err := fsys.ReadFile(f)
		if err != nil {
			continue
		}
		rs, fo := rules, o
		if fragments[f] || roots[f] {
			rs, fo.HydraLoaded = structural, true
		}
		if fragments[f] {
			// as the CLI's walk of a tree (Options.HydraUnlisted): a folder no defaults list
			// names may hold files the repository reads itself
			if listed == nil {
				listed = compose.ListedGroups(fsys, files)
			}
			fo.HydraUnlisted = !compose.InListedGroup(f, listed)
		}
		info, diags := LintFile(File{Path: f, Text: text}, rs, fo)
		res.Files = append(res.Files, info)
		res.Diagnostics = append(res.Diagnostics, diags...)
	}
	var perRun [][]Diagnostic
	var names, primaries []string
	readers := map[string]int{}
	composed := map[string]int{} // the files each run read, counted whatever NoRunFixes says
	var hosts []OptionHost
	cache := compose.NewCache()
	for _, s := range specs {
		run := ComposeSpec(cache, fsys, s, o)
		if run.Unlaunched {
			continue // a guess nobody launches: no run of the tree
		}
		if !o.NoRunFixes { // else no file counts as read by one run alone
			CountReads(readers, run)
		}
		CountReads(composed, run)
		if h, ok := HostOf(s, run); ok {
			hosts = append(hosts, h)
		}
		perRun = append(perRun, LintRun(run, rules, o))
		if run.Doc != nil && run.Doc.Declined {
			// The light WebAssembly module could not compose the run as the CLI does (an
			// override value it does not read), or its dialect declined the composed file
			// (lint/dialect/declined_lite.go): its primary asks for the full module.
			for i := range res.Files {
				if res.Files[i].Path == s.Primary {
					res.Files[i].Declined = true
				}
			}
		}
		RunFile(&res.Files, s.Primary, run, o)
		names, primaries = append(names, s.Name()), append(primaries, s.Primary)
	}
	DropSharedFixes(perRun, readers)
	res.Diagnostics = AddRunFindings(res.Diagnostics, DedupeRuns(perRun, names, primaries))
	var unread []string
	for _, f := range files {
		if fm, _ := doc.FormatFromPath(f); fragments[f] && composed[f] == 0 && fm == doc.YAML {
			unread = append(unread, f)
		}
	}
	more, declined := UnreadRefusals(cache, fsys, hosts, unread, rules, o)
	res.Diagnostics = AddRunFindings(res.Diagnostics, more)
	for _, p := range declined {
		for i := range res.Files {
			if res.Files[i].Path == p {
				res.Files[i].Declined = true // the light module: the checker asks the full one
			}
		}
	}
	SortDiagnostics(res.Diagnostics)
	return res
}

// CountReads adds one to readers for each file run composes (each once, the primary too).
func CountReads(readers map[string]int, run *compose.Run) {
	if run.Unlaunched {
		return
	}
	readers[run.Primary]++
	for _, d := range run.Files {
		if d.Path != run.Primary {
			readers[d.Path]++
		}
	}
}

// DropSharedFixes takes the fixes off the runs' findings (perRun, LintRun's) whose edits fall
// in a file more than one of the runs reads (readers, CountReads'): an experiment's run reads
// the primary the plain run reads, with other values, and a config another one lists as its
// base or in its defaults changes that run too, so an edit made for one run may break another.
func DropSharedFixes(perRun [][]Diagnostic, readers map[string]int) {
	for _, ds := range perRun {
		for i := range ds {
			if fx := ds[i].Fix; fx != nil && readers[fx.Edits[0].File] != 1 {
				ds[i].Fix = nil // a run's fix has one edit (runFix)
			}
		}
	}
}

// ComposeSpec composes the run a spec names: a Hydra composition (or the file alone for a
// Single spec), then the files its keys name and its launcher config.
func ComposeSpec(cache *compose.Cache, fsys compose.FS, s compose.Spec, o Options) *compose.Run {
	lim := compose.Limits{Doc: o.Limits}
	cache.LegacyPackages, cache.StoreGroups, cache.GinFork, cache.MainDir = o.HydraLegacy, o.HydraStoreGroups, o.GinFork, o.HydraMainDir
	cache.MainCandidates = o.HydraMainCandidates
	var run *compose.Run
	if s.Single {
		run = cache.Single(fsys, s.Primary, lim)
	} else {
		run = cache.Compose(fsys, s.Primary, s.Overrides, lim)
	}
	if s.Declined && run.Doc != nil {
		run.Doc.Declined = true // the light module cannot tell it from a part of other runs
	}
	cache.Join(fsys, run, lim)
	cache.Launch(fsys, run, s.Launcher, lim)
	// A primary paired with an experiment it has no entry for, which Hydra would refuse there
	// (its override entries match no entry of the primary's, or the two configs do not merge),
	// is a guess nobody launches (an eval config whose comment names experiments): it says
	// nothing about either file, and reads none of them. A refusal the primary makes alone is
	// its own run's to report.
	run.Unlaunched = s.Added && (run.Unmatched || refused(run))
	return run
}

// refused reports whether the framework refuses the run at start-up (a refusal or a cycle).
func refused(run *compose.Run) bool {
	for _, p := range run.Problems {
		if p.Kind == compose.Refused || p.Kind == compose.Cycle {
			return true
		}
	}
	return false
}

// AddRunFindings adds a run's findings to those the file-by-file lint made (known) and returns
// the whole. A run finding the file's own lint already made (same file, line, rule and message)
// is left out: a run of one file repeats its file's findings, and only what the files it joins
// add is new. A file's finding that a graver run finding of the same rule at the same place
// replaces is dropped: the run saw the files together (a DeepSpeed batch product the file alone
// can only doubt, which the recipe's Trainer refuses), so the place gets one finding.
func AddRunFindings(known, runDiags []Diagnostic) []Diagnostic {
	type key struct {
		file, rule, msg string
		line            int
	}
	seen := map[key]bool{}
	for _, d := range known {
		seen[key{d.File, d.Rule, d.Message, d.Line}] = true
	}
	// at is a place as a key with no message (line and column in one int): a type of its own
	// would cost the light module an equality function.
	at := func(d Diagnostic) key { return key{file: d.File, rule: d.Rule, line: d.Line<<20 | d.Column&(1<<20-1)} }
	graver := map[key]Severity{}
	repeated := map[key]bool{} // file findings a run made too: the run saw them hold
	var added []Diagnostic
	for _, d := range runDiags {
		k := key{d.File, d.Rule, d.Message, d.Line}
		if seen[k] {
			repeated[k] = true
			continue
		}
		added = append(added, d)
		a := at(d)
		graver[a] = max(graver[a], d.Severity)
	}
	if len(graver) > 0 {
		kept := known[:0]
		for _, d := range known {
			if graver[at(d)] <= d.Severity || repeated[key{d.File, d.Rule, d.Message, d.Line}] {
				kept = append(kept, d)
			}
		}
		known = kept
	}
	return append(known, added...)
}

// memoFS keeps the bytes of the files read through it, so that discovery, the file-by-file
// lint and the compositions read each file once.
type memoFS struct {
	compose.FS
	m map[string][]byte
}

func (m *memoFS) ReadFile(name string) ([]byte, error) {
	if b, ok := m.m[name]; ok {
		return b, nil
	}
	b, err := m.FS.ReadFile(name)
	if err == nil {
		m.m[name] = b
	}
	return b, err
}

// panicText is what a recovered panic says, as fmt's %v says an error, a string, a Stringer or
// an int (the light WebAssembly module links no fmt).
func panicText(r any) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case string:
		return v
	case interface{ String() string }:
		return v.String()
	case int:
		return strconv.Itoa(v)
	}
	return "a panic of another kind"
}

// goroutineStack is runtime/debug.Stack, written here: runtime/debug imports os and fmt, whose
// initialisers (the standard files, fmt's printer state) the light WebAssembly module would run
// and link (site/doc.go).
func goroutineStack() []byte {
	buf := make([]byte, 1024)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}
