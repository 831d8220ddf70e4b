package rules

import (
	"sort"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/schema"
)

// DeprecatedKey reports keys a framework renamed or removed: the keys its dialect marks so
// (dialect.Key.Replacement, How, Since, Removed). A pure rename gets a safe fix that rewrites only
// the key token (value, comments and layout stay); a key whose replacement means something
// slightly different, or lives elsewhere, gets no fix or an unsafe one.
var DeprecatedKey = register(&deprecatedKeyDef)

var deprecatedKeyDef = lint.Rule{
	Code: "TL005", Name: "deprecated-key", Category: lint.CatStructure, Severity: lint.Warning,
	Title:     "A renamed or removed key is used",
	NeedsPlan: true,
	Rationale: `Frameworks rename settings between versions. For a while the old spelling still works, with
a warning buried in the start-up log; then it is removed and the key is rejected, or worse,
silently ignored, so the run trains with the default instead of the value written down.
trainlint knows the renamed and removed keys of each framework, with the version that deprecated
them and the one that stopped accepting them.`,
	Fix: `Use the new key. When it is a pure rename, ` + "`trainlint check --fix`" + ` renames the key in place.
When both spellings are set, delete the old one (the new one is what recent versions read); a new
spelling written null is not set, so rename the old key onto it.`,
	Check: checkDeprecatedKey,
}

func checkDeprecatedKey(p *lint.Pass) {
	root := p.Doc.Root
	d := dialect.ByName(p.Plan.Framework)
	if d == nil || root == nil || root.Kind != doc.Map {
		return
	}
	deps := deprecationsFor(p, d)
	roots := d.Roots
	if len(roots) == 0 {
		roots = []string{""}
	}
	for _, r := range roots {
		base := root
		if r != "" {
			base = root.At(r)
		}
		if base == nil || base.Kind != doc.Map {
			continue
		}
		for _, k := range deps {
			reportDeprecation(p, d, base, k)
		}
		checkAlongside(p, d, base)
	}
	if d.SectionRoot == nil {
		return
	}
	if sec := d.SectionRoot(p.Doc); sec != "" {
		// The file holds that section's keys at its root (a group file): those the target
		// still has read there as still working; one it lacks is unknown-key's, which says the
		// class refuses it.
		// (Only a key the file sets is weighed: most of the section's deprecations are absent.)
		for _, k := range deps {
			rest, ok := strings.CutPrefix(k.Path, sec+".")
			if !ok || root.At(rest) == nil {
				continue
			}
			if _, _, sev := deprecationAtTarget(p, d, k); sev != lint.Info {
				continue
			}
			k.Path = rest
			k.Replacement = strings.TrimPrefix(k.Replacement, sec+".")
			reportDeprecation(p, d, root, k)
		}
	}
}

// deprecatedKeys are a framework's renamed and removed keys (not list items), built once: the
// rule runs on every file and the Trainer's table marks some forty keys. Callers must not modify
// the list.
func deprecatedKeys(fw string) []dialect.Key {
	if v, ok := deprecatedCache.Load(fw); ok {
		return v.([]dialect.Key)
	}
	var deps []dialect.Key
	for _, k := range schema.Keys(fw) {
		if k.IsDeprecated() && !strings.Contains(k.Path, "[") {
			deps = append(deps, k)
		}
	}
	got, _ := deprecatedCache.LoadOrStore(fw, deps)
	return got.([]dialect.Key)
}

var deprecatedCache doc.Cache // framework -> []dialect.Key

// reportDeprecation reports key k (a path under base) when the file sets it. Messages name the
// keys as written in their map, so a Trainer argument under a subcommand reads the same.
func reportDeprecation(p *lint.Pass, d *dialect.Dialect, base *doc.Node, k dialect.Key) {
	m, old := base, k.Path
	if i := strings.LastIndexByte(k.Path, '.'); i >= 0 {
		m, old = base.At(k.Path[:i]), k.Path[i+1:]
	}
	if m == nil || m.Kind != doc.Map {
		return
	}
	n := m.Get(old)
	if n == nil || n.Alias || d.DeprecatedWhenSet && n.IsNull() || m == p.Doc.Root && scriptKey(p, d, old) {
		return // (a field of the script's own dataclass takes it: VRL's evaluation_strategy)
	}
	nw := k.Replacement
	if i := strings.LastIndexByte(nw, '.'); i >= 0 {
		nw = nw[i+1:]
	}
	skip, atTarget, sev := deprecationAtTarget(p, d, k)
	if skip || d.NotYet != nil && d.NotYet(old, p.Targets[d.Package].Version) {
		return // the target version predates the deprecation, or the key itself
	}
	since := k.DeprecationNote(d) + atTarget
	f := lint.Finding{Node: n, AtKey: true, Severity: sev}
	use := k.How
	if use == "" {
		use = "use " + nw
	}
	// The target still has the key, and nothing says since when the way out exists (a setting
	// that replaced it may be newer than the target: train_sampling_strategy is not in
	// transformers 4.46, which a pin of 4.46.1 would then refuse; a trainer release that
	// still has replace_sampler_ddp lacks use_distributed_sampler): the advice is for the
	// version that removes it, and no rename is offered.
	// A replacement the target has already (Key.NewSince) may be used now, and a key the target
	// does not warn about yet (Key.Warned) is not called deprecated there.
	newOK := targetFrom(p, d, k.NewSince)
	later := sev == lint.Info && k.Since == "" && k.Removed != "" && (!newOK || k.Warned != "" && !targetFrom(p, d, k.Warned))
	if later && !newOK {
		use = "when moving to " + k.Removed + ", " + use
	}
	oldDefault := atDefault(n, k.Default) && !defaultChanged(p, d, old)
	if oldDefault {
		// It sets what leaving it out sets (group_by_length: false, whose train_sampling_strategy
		// counterpart would turn grouping on): the way out is to delete it.
		use = "delete it: it sets the default"
	}
	said := quote(old) + " is deprecated (" + since + ")"
	if later {
		// Nothing says the target deprecates it (a trainer release that takes the key without
		// a warning): only that a later release removes it.
		said = quote(old) + " is " + since
	}
	f.Message = said
	if k.How != "" || nw != "" {
		f.Message += ": " + quoteUse(use, nw)
	}
	// A replacement written null is not set (a Trainer's devices: null beside gpus: '1' leaves
	// gpus the device count), and a rename onto it would write the key twice: no fix then.
	nwNode := m.Get(nw)
	if nwNode != nil && atDefault(nwNode, keyDefault(d.Name, k.Replacement)) && !defaultChanged(p, d, nw) && !sameScalar(n, nwNode) {
		// Written as its default, the replacement leaves the old key in force: warmup_steps: 0
		// beside warmup_ratio: 0.06 warms up for 6 % (transformers 4.x uses the ratio when the
		// steps are 0; 5.x copies the ratio over them). Deleting the old key would drop it, and
		// a rename would write the replacement twice: the advice stands, with no fix.
		f.Message = said + ": " + quoteUse(use, nw) + " (its " + quote(nw) + " holds the default)"
		p.Report(repoNote(p, d, f, old))
		return
	}
	if nw != "" && nwNode != nil && !nwNode.IsNull() && (!later || newOK) {
		f.Message = said + " and " + quote(nw) + " is also set: delete " + quote(old)
		f.Related = related(nwNode, n, quote(nw)+" set here")
	} else if nw != "" && k.Rename != "" && (!later || newOK) && nwNode == nil && !oldDefault {
		app := lint.Safe
		if k.Rename != "safe" {
			app = lint.Unsafe
		}
		app, msg := renameFix(p, old, nw, app)
		f.Fix = lint.RenameKey(p.Doc, n, nw, app, msg)
	}
	p.Report(repoNote(p, d, f, old))
}

// repoNote adds to a deprecation's message that the repository's own Python reads the old key
// (Pass.RepoReads: LOMO's trainer tests training_args.evaluation_strategy, OpenDelta's
// run_glue.py training_args.overwrite_output_dir), which a rename or a deletion of the key would
// change: that code has to move too. Only where projects load the framework's files themselves
// (repoReads: Dialect.ScriptArgs); elsewhere a common name (a script's own args.gpus) says
// nothing of the file, and the rename's fix alone turns unsafe (renameFix).
func repoNote(p *lint.Pass, d *dialect.Dialect, f lint.Finding, old string) lint.Finding {
	if repoReads(p, d, old) {
		f.Message += "; the repository's Python reads " + quote(old) + " itself, so change it there too"
	}
	return f
}

// atDefault reports a scalar written as the text def, a key's default ("false", "0", "no"),
// quoted or not; never for an empty def or a default of none.
func atDefault(n *doc.Node, def string) bool {
	if n == nil || n.Kind != doc.Scalar || def == "" || def == "none" || n.IsNull() {
		return false
	}
	v := strings.Trim(n.Value, "\"'")
	if b, ok := n.Bool(); ok {
		v = strconv.FormatBool(b)
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if g, err := strconv.ParseFloat(def, 64); err == nil {
			return f == g
		}
	}
	return strings.EqualFold(v, strings.Trim(def, "\"'"))
}

// defaultChanged reports a key whose default the framework's knowledge table records as
// changed across the releases read, or a target older than every release read
// (save_safetensors: False before transformers 4.35, True since, and the table starts at
// 4.40): the settings' one default may not be the target's, so nothing is said of it.
func defaultChanged(p *lint.Pass, d *dialect.Dialect, key string) bool {
	kb := dialect.KnowledgeOf(d.Knowledge)
	if kb == nil {
		return false
	}
	if t := p.Targets[d.Package].Version; t != "" && kb.Outside(t) {
		return true
	}
	for _, sec := range strings.Split(d.Sections[""], ",") {
		if _, ok := kb.Facts[[2]string{sec, "@default:" + key}]; ok {
			return true
		}
	}
	return false
}

// sameScalar reports two scalars written with the same text (quotes aside): an old key beside
// its replacement holding the same value, which deleting the old one leaves as it is.
func sameScalar(a, b *doc.Node) bool {
	return a.Kind == doc.Scalar && b.Kind == doc.Scalar && strings.Trim(a.Value, "\"'") == strings.Trim(b.Value, "\"'")
}

// keyDefault is the default the framework's settings give the key at path ("" when unknown).
func keyDefault(fw, path string) string {
	for _, k := range schema.Keys(fw) {
		if k.Path == path {
			return k.Default
		}
	}
	return ""
}

func quote(s string) string { return "\"" + s + "\"" }

// renameFix is how a rename of old to nw is offered: unsafe, whatever app says, where the
// repository's own Python reads old by name (a pipeline that passes args.evaluation_strategy on
// to the arguments it builds; a CLI that reads and deletes gpus before building its trainer),
// since the renamed file would then lose the value that code reads.
func renameFix(p *lint.Pass, old, nw string, app lint.Applicability) (lint.Applicability, string) {
	msg := "rename " + quote(old) + " to " + quote(nw)
	if p.RepoReads[old] {
		return lint.Unsafe, msg + " (the repository's Python reads " + quote(old) + " too: rename it there as well)"
	}
	return app, msg
}

// quoteUse quotes the new key in "use NEW" messages.
func quoteUse(use, new string) string {
	if new != "" && strings.HasSuffix(use, "use "+new) {
		return use[:len(use)-len(new)] + quote(new)
	}
	return use
}

// deprecationsFor is the dialect's deprecated keys followed by the root keys the knowledge table
// marks deprecated at the target version (a field the source warns about: "X is deprecated, use
// Y") that the dialect does not list itself. The warning does not show that the new key takes
// the same values (eval_table_size points at generate_samples, a boolean), so no fix is offered
// for the latter. Built once per dialect and target (the rule runs on every file; callers must
// not modify it).
func deprecationsFor(p *lint.Pass, d *dialect.Dialect) []dialect.Key {
	deps := deprecatedKeys(d.Name)
	sec := d.Sections[""]
	kb := dialect.KnowledgeOf(d.Knowledge)
	if kb == nil || sec == "" || d.SkipVariant != "" && p.Plan.Variant == d.SkipVariant {
		return deps
	}
	target, _ := targetOf(p, d, kb)
	id := d.Name + "\x00" + target
	if v, ok := deprecationsCache.Load(id); ok {
		return v.([]dialect.Key)
	}
	listed := map[string]bool{}
	for _, k := range deps {
		listed[k.Path] = true
	}
	all := append(deps[:len(deps):len(deps)], unlisted(tableDeprecations(kb, sec, target), listed)...)
	got, _ := deprecationsCache.LoadOrStore(id, all)
	return got.([]dialect.Key)
}

// deprecationsCache holds deprecationsFor's lists by dialect and target version.
var deprecationsCache doc.Cache

// tableDeprecations reads the deprecations with a replacement of the table's root sections (sec,
// comma-separated) that hold at the target version, by key.
func tableDeprecations(kb *dialect.Knowledge, sec, target string) []dialect.Key {
	var out []dialect.Key
	for _, s := range strings.Split(sec, ",") {
		for key, f := range kb.Sections[s] {
			// A field marked deprecated with no key named in its place may still be read (the
			// Trainer's overwrite_output_dir, kept by a framework that still uses it): left alone.
			if f.Replacement == "" || f.Replacement == "-" || !kb.Has(f, target) {
				continue
			}
			out = append(out, dialect.Key{Path: key, Replacement: f.Replacement})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// unlisted are the keys not in listed.
func unlisted(ks []dialect.Key, listed map[string]bool) []dialect.Key {
	var out []dialect.Key
	for _, k := range ks {
		if !listed[k.Path] {
			out = append(out, k)
		}
	}
	return out
}

// targetFrom reports a pinned target at version v or later: whether the target release (older
// than the one removing a key) already has its replacement (Key.NewSince), or already warns
// about it (Key.Warned).
func targetFrom(p *lint.Pass, d *dialect.Dialect, v string) bool {
	t, ok := p.Targets[d.Package]
	tv, vv := dialect.ParseVersion(t.Version), dialect.ParseVersion(v)
	return ok && len(tv) > 0 && len(vv) > 0 && dialect.CompareVersions(tv, vv) >= 0
}
