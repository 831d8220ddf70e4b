package rules

import (
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/schema"
	"github.com/trainlint/trainlint/lint/textdist"
)

// UnknownKey reports a top-level key that is not a setting of the framework but is one typo
// away from one. Files of the supported frameworks legitimately carry keys trainlint does not
// know (a training script's own arguments, a fine-tuning tool's model and script arguments), so a key absent
// from the schema is not reported on its own: only a near miss of a known key is, which is what
// a typo looks like. Frameworks whose key set is open (init_args of arbitrary classes, in-house
// files) are not checked at all (schema.Closed).
var UnknownKey = register(&unknownKeyDef)

var unknownKeyDef = lint.Rule{
	Code: "TL003", Name: "unknown-key", Category: lint.CatStructure, Severity: lint.Warning,
	Title:     "A key is not a setting of the framework",
	NeedsPlan: true,
	Rationale: `A misspelt key is not an error for most training stacks: YAML front-ends of trainers either
stop at start-up or, in scripts that allow extra keys, ignore it. Either way the value written
down does not take effect and the run uses the default, which is the worst kind of mistake: the
config looks right. trainlint compares each top-level key with the framework's settings and
reports keys that are one or two edits away from a known one.`,
	Fix: `Correct the spelling (the message names the nearest known key). A key that is really an argument
of your own script can be kept: suppress the finding with a reason. On the command line and in the
editor, the fields of your repository's own dataclasses are known already where its scripts parse
configs with HfArgumentParser (or TRL's TrlParser).`,
	Frameworks: keyFrameworks(),
	Check:      checkUnknownKey,
}

func checkUnknownKey(p *lint.Pass) {
	fw := p.Plan.Framework
	root := p.Doc.Root
	if d := dialect.ByName(fw); d != nil && d.Knowledge != "" && d.KeyMaps != nil {
		checkKeyMaps(p, d)
		return
	}
	if d := dialect.ByName(fw); d != nil && d.Knowledge != "" && len(d.Sections) > 0 {
		checkKnowledgeSections(p, d)
		return
	}
	if !schema.Closed(fw) || root == nil || root.Kind != doc.Map {
		return
	}
	ix := topLevelKeys(fw)
	if d := dialect.ByName(fw); d != nil && len(d.Alongside) > 0 && anyUnknown(root, ix.set) {
		// Only a key the framework's own settings do not name can be one of the packages'
		// alongside: a file of known keys (the checker's first, often) reads no more tables.
		ix = withAlongside(d, ix)
	}
	d := dialect.ByName(fw)
	if d != nil {
		checkNotYet(p, d, root)
	}
	if d == nil || !alongsideBeforeTable(p, d) {
		reportNearMisses(p, d, root, ix, "")
	}
	if d == nil {
		return
	}
	for _, sec := range d.ClosedSections {
		if m := root.At(sec); m != nil && m.Kind == doc.Map {
			reportNearMisses(p, d, m, sectionIndex(fw, sec), sec+".")
		}
	}
}

// reportNearMisses reports each key of the mapping m that ix does not know and that is a near
// miss of one it does; prefix is m's path in messages ("train." for a closed section).
func reportNearMisses(p *lint.Pass, d *dialect.Dialect, m *doc.Node, ix *keyIndex, prefix string) {
	type near struct {
		best string
		ok   bool
	}
	// A key repeated many times (a hostile file has 100,000 copies) is looked up once.
	seen := map[string]near{}
	for _, n := range m.Children {
		if !lookedUp(n, ix.set) || prefix == "" && (scriptKey(p, d, n.Key) || repoReads(p, d, n.Key)) {
			continue
		}
		nr, done := seen[n.Key]
		if !done {
			near, words := ix.prepared()
			nr.best, nr.ok = nearestIn(n.Key, near)
			if !nr.ok {
				nr.best, nr.ok = missingWordIn(n.Key, near.list, words)
			}
			seen[n.Key] = nr
		}
		best, ok := nr.best, nr.ok
		if !ok {
			continue
		}
		f := lint.Finding{Node: n, AtKey: true,
			Message: quote(prefix+n.Key) + " is not a " + frameworkTitle(p.Plan.Framework) + " setting (did you mean " + quote(prefix+best) + "?)"}
		if m.Get(best) == nil {
			// Unsafe: the key may be a script argument that happens to look like a setting.
			f.Fix = lint.RenameKey(p.Doc, n, best, lint.Unsafe, "rename "+quote(n.Key)+" to "+quote(best))
		}
		p.Report(f)
	}
}

// sectionIndex is the keys Keys and Settings list under the closed section sec (schema.Under),
// with a set for membership, built once per framework and section.
func sectionIndex(fw, sec string) *keyIndex {
	id := fw + "\x00" + sec
	if v, ok := sectionIndexes.Load(id); ok {
		return v.(*keyIndex)
	}
	v, _ := sectionIndexes.LoadOrStore(id, newKeyIndex(schema.Under(fw, sec)))
	return v.(*keyIndex)
}

var sectionIndexes doc.Cache // framework + "\x00" + section -> *keyIndex

// topLevelKeys is schema.TopLevel with a set for membership, built once per framework: the
// rule runs on every file and the Trainer has a few hundred settings. Callers must not modify
// it.
func topLevelKeys(fw string) *keyIndex {
	if v, ok := topLevelIndex.Load(fw); ok {
		return v.(*keyIndex)
	}
	ix := newKeyIndex(schema.TopLevel(fw))
	topLevelIndex.Store(fw, ix)
	return ix
}

// newKeyIndex indexes list (which it keeps) for membership.
func newKeyIndex(list []string) *keyIndex {
	ix := &keyIndex{list: list, set: make(map[string]bool, len(list))}
	for _, k := range list {
		ix.set[k] = true
	}
	return ix
}

// keyIndex is a list of known keys with what the rule asks of it on every file prepared once:
// membership, and for a key that is not in the set nearestIn's index and missingWordIn's words.
type keyIndex struct {
	list []string
	set  map[string]bool

	once  sync.Once // near and words, built by prepared
	near  *nearIndex
	words [][]string
}

// prepared is the list's nearestIn index and missingWordIn words, built on the first file with
// an unknown key: a file of known keys (the checker's first, often) needs neither, so the
// checker does not build them (nor compile their code) before it is ready.
func (ix *keyIndex) prepared() (*nearIndex, [][]string) {
	ix.once.Do(func() {
		list := suggestible(ix.list)
		ix.near = newNearIndex(list)
		ix.words = splitWords(list)
	})
	return ix.near, ix.words
}

// suggestible is the keys of list a near miss may be taken for (every key set's index of
// suggestions is built from it): all but notSuggested.
func suggestible(list []string) []string {
	out := make([]string, 0, len(list))
	for _, k := range list {
		if !notSuggested[k] {
			out = append(out, k)
		}
	}
	return out
}

// notSuggested are settings a config has no reason to write, so a key near one is not taken
// for its typo. TrainingArguments' local_rank is there for the argument the deprecated
// torch.distributed.launch passes to the script (transformers v5.9.0 training_args.py: "it will
// pass `local_rank` in the script, so we need this for the parser"); the launchers set the local
// rank. Fine-tuning scripts' own lora_rank (Firefly's 51 argument files) was reported as its
// typo.
var notSuggested = map[string]bool{"local_rank": true}

var topLevelIndex doc.Cache // framework -> *keyIndex

// nearestKey returns the known key closest to k when it is close enough to be a typo: the same
// after folding case and dashes, or one edit away (two for keys longer than 8 characters). The
// budget is tight on purpose: on the shared corpus the script arguments nearest to a Trainer key
// are three edits away (eos_token/hub_token, use_peft/use_ipex). A tie is no answer.
//
// The rules ask it for every unknown key against every known one (several hundred for the
// largest key sets): they keep the lists they use on every file prepared (newNearIndex) and
// call nearestIn, which answers the same.
func nearestKey(k string, known []string) (string, bool) {
	return nearestIn(k, newNearIndex(known))
}

// nearIndex is a list of known keys prepared for nearestIn: the ASCII keys by length (a key
// further in length than the budget is out of reach), folded once.
type nearIndex struct {
	list  []string
	byLen [][]nearEntry // ASCII keys by length
	other []nearEntry   // the keys that are not ASCII
}

type nearEntry struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	key, folded string
	pos         int    // in list: the first of several keys folding to the same wins
	chars       uint64 // charBits(folded), for ASCII keys
}

// charBits has a bit set for each byte value an ASCII key has (letters, digits and "_" each
// their own; the other bytes share the rest). An edit sets or clears at most two bits, so two
// keys whose sets differ in more than twice the budget are further apart than the budget: a
// test cheaper than countDistance, which it precedes.
func charBits(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		m |= 1 << charBit(s[i])
	}
	return m
}

func charBit(b byte) uint {
	switch {
	case 'a' <= b && b <= 'z':
		return uint(b - 'a')
	case '0' <= b && b <= '9':
		return 26 + uint(b-'0')
	case b == '_':
		return 36
	}
	return 37 + uint(b)%27
}

func newNearIndex(list []string) *nearIndex {
	ix := &nearIndex{list: list}
	for i, c := range list {
		e := nearEntry{key: c, folded: foldKey(c), pos: i}
		if !isASCII(c) {
			ix.other = append(ix.other, e)
			continue
		}
		e.chars = charBits(e.folded)
		for len(ix.byLen) <= len(c) {
			ix.byLen = append(ix.byLen, nil)
		}
		ix.byLen[len(c)] = append(ix.byLen[len(c)], e)
	}
	return ix
}

// nearestIn is nearestKey(k, ix.list) on a prepared list. ASCII keys, nearly all of them, are
// compared without folding copies, and only those that a key's set of characters and then its
// character counts leave within reach get the edit distance (an edit changes either by at most
// two, so keys differing by more than twice the budget are further apart than the budget).
func nearestIn(k string, ix *nearIndex) (string, bool) {
	fk := foldKey(k)
	budget := 1
	if len(k) > 8 {
		budget = 2
	}
	// A key that is not ASCII is measured against every known key, without the bounds.
	ascii := isASCII(fk)
	lo, hi := 0, len(ix.byLen)-1
	if ascii {
		lo, hi = max(len(fk)-budget, 0), min(len(fk)+budget, hi)
	}
	// The first key in list order that folds to k is the answer.
	exact := -1
	var best string
	for _, e := range ix.other {
		if e.folded == fk && (exact < 0 || e.pos < exact) {
			exact, best = e.pos, e.key
		}
	}
	for l := lo; l <= hi; l++ {
		if ascii && l != len(fk) {
			continue
		}
		for _, e := range ix.byLen[l] {
			if e.folded == fk && (exact < 0 || e.pos < exact) {
				exact, best = e.pos, e.key
			}
		}
	}
	if exact >= 0 {
		return best, true
	}
	var cs []cand
	var counts [utf8.RuneSelf]int16
	var chars uint64
	if ascii {
		for i := 0; i < len(fk); i++ {
			counts[fk[i]]++
		}
		chars = charBits(fk)
	}
	for l := lo; l <= hi; l++ {
		for _, e := range ix.byLen[l] {
			if ascii && (bits.OnesCount64(chars^e.chars) > 2*budget || countDistance(&counts, len(fk), e.folded) > 2*budget) {
				continue
			}
			if d := textdist.OSA(fk, e.folded, budget); d <= budget {
				cs = append(cs, cand{e.key, d})
			}
		}
	}
	for _, e := range ix.other {
		if d := textdist.OSA(fk, e.folded, budget); d <= budget {
			cs = append(cs, cand{e.key, d})
		}
	}
	return bestUnique(cs)
}

// foldKey is how nearestKey compares keys: lower case, dashes as underscores.
func foldKey(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }

// foldByte is foldKey for one ASCII byte.
func foldByte(b byte) byte {
	switch {
	case 'A' <= b && b <= 'Z':
		return b + ('a' - 'A')
	case b == '-':
		return '_'
	}
	return b
}

// countDistance is the sum, over every byte value, of the difference between how often it
// occurs in a folded key (counts, n bytes) and in the ASCII key c folded. counts is restored.
func countDistance(counts *[utf8.RuneSelf]int16, n int, c string) int {
	d := n
	for i := 0; i < len(c); i++ {
		b := foldByte(c[i])
		if counts[b] > 0 {
			d--
		} else {
			d++
		}
		counts[b]--
	}
	for i := 0; i < len(c); i++ {
		counts[foldByte(c[i])]++
	}
	return d
}

// checkNotYet reports keys of the dialect's settings that the pinned version does not have yet
// (the knowledge table's since): the framework's parser refuses them there
// (train_sampling_strategy under transformers 4.46). Without a pin the newest version has them.
func checkNotYet(p *lint.Pass, d *dialect.Dialect, root *doc.Node) {
	t, ok := p.Targets[d.Package]
	if d.Knowledge == "" || d.SettingsName == "" || !ok || len(dialect.ParseVersion(t.Version)) == 0 {
		return
	}
	kb := dialect.KnowledgeOf(d.Knowledge)
	if kb == nil {
		return
	}
	sec := kb.Sections[d.SettingsName]
	tv := dialect.ParseVersion(t.Version)
	for _, n := range root.Children {
		f, ok := sec[n.Key]
		if !ok || n.Alias || scriptKey(p, d, n.Key) || f.Since == "" || kb.Has(f, t.Version) || dialect.CompareVersions(tv, dialect.ParseVersion(f.Since)) >= 0 {
			continue
		}
		msg := quote(n.Key) + " is not a " + d.SettingsName + " setting in " + d.Package + " " + t.VersionShown() + " (" + kb.Lifetime(f, t.Version, d.Package)
		if t.Source != "" {
			msg += "; " + t.Source
		}
		p.Report(lint.Finding{Node: n, AtKey: true, Message: msg + ")"})
	}
}

// scriptKey reports a key that a field of the repository's own argument dataclasses takes, in
// a framework whose front-end fills them from the file (Dialect.ScriptArgs): the script's
// setting, whatever the framework's table says of that name.
func scriptKey(p *lint.Pass, d *dialect.Dialect, key string) bool {
	return d != nil && d.ScriptArgs && p.ScriptKeys[key]
}

// repoReads reports a key that the repository's own code reads by name (an attribute, a string
// literal), in a framework whose files projects also load themselves and pick settings from
// (Dialect.ScriptArgs): exact's parser.yaml, read with OmegaConf.load, gives cfg.model_name to
// its script and a few keys to TrainingArguments by hand. Such a key is the script's setting,
// not a misspelt one.
func repoReads(p *lint.Pass, d *dialect.Dialect, key string) bool {
	return d != nil && d.ScriptArgs && p.RepoReads[key]
}

// anyUnknown reports whether the mapping has a key that checkUnknownKey would look up.
func anyUnknown(root *doc.Node, known map[string]bool) bool {
	for _, n := range root.Children {
		if lookedUp(n, known) {
			return true
		}
	}
	return false
}

// lookedUp reports whether checkUnknownKey looks an entry's key up: not in known, not an
// alias, not empty and not starting with "_".
func lookedUp(n *doc.Node, known map[string]bool) bool {
	return !known[n.Key] && !n.Alias && n.Key != "" && !strings.HasPrefix(n.Key, "_")
}

// alongsideBeforeTable reports a package alongside the dialect's settings pinned to a release
// older than every tag its table read (TRL 0.12 against a table from 0.19: its SFTConfig had
// use_liger, since renamed), or installed from a git commit or branch (open-r1's setup.py: trl
// @ git+...@c04e84c, 0.17.0.dev0), whose version is unknown. That release's own keys are unknown,
// so a top-level key no table names may be one of them: the near misses stay silent.
func alongsideBeforeTable(p *lint.Pass, d *dialect.Dialect) bool {
	for _, pkg := range d.Alongside {
		t, ok := p.Targets[pkg]
		kb := dialect.KnowledgeOf(pkg)
		if !ok || kb == nil || len(kb.Tags) == 0 {
			continue
		}
		tv := dialect.ParseVersion(t.Version)
		if len(tv) == 0 || dialect.CompareVersions(tv, dialect.ParseVersion(kb.Tags[0])) < 0 {
			return true
		}
	}
	return false
}

// withAlongside adds the keys of the packages that extend the dialect's settings (TRL's configs,
// model and script arguments over TrainingArguments) at any version read: their own spelling is
// no typo of a Trainer key, and a near miss of one of them is a typo too. Built once.
func withAlongside(d *dialect.Dialect, base *keyIndex) *keyIndex {
	if v, ok := alongsideIndex.Load(d.Name); ok {
		return v.(*keyIndex)
	}
	known := base.list
	ix := &keyIndex{list: append([]string(nil), known...), set: map[string]bool{}}
	for k := range base.set {
		ix.set[k] = true
	}
	for _, pkg := range d.Alongside {
		kb := dialect.KnowledgeOf(pkg)
		if kb == nil {
			continue
		}
		for sec, keys := range kb.Sections {
			if strings.ContainsAny(sec, "@:") {
				continue // deprecation ranges and allowed values, not keys
			}
			for k := range keys {
				if k != "" && k[0] != '@' && !ix.set[k] {
					ix.set[k] = true
					ix.list = append(ix.list, k)
				}
			}
		}
	}
	doc.SortStrings(ix.list[len(known):])
	got, _ := alongsideIndex.LoadOrStore(d.Name, ix)
	return got.(*keyIndex)
}

var alongsideIndex doc.Cache // framework -> *keyIndex

// splitWords is each key's words (split at "_"), for missingWordIn.
func splitWords(keys []string) [][]string {
	out := make([][]string, len(keys))
	for i, c := range keys {
		out[i] = strings.Split(c, "_")
	}
	return out
}

// missingWordIn finds the known key that k misses by a word, the way people misremember long
// keys rather than mistype them: a dropped word (dataloader_workers for dataloader_num_workers;
// the shortest dropped word wins a tie, so persistent_workers does not compete), a truncated
// word (gradient_checkpoint), or leading words left out of a key of three words or more
// (eval_batch_size for per_device_eval_batch_size). Keys of one word, and ties, give no answer.
// words[i] are known[i]'s words (splitWords).
func missingWordIn(k string, known []string, words [][]string) (string, bool) {
	kw := strings.Split(strings.ToLower(k), "_")
	if len(kw) < 2 {
		return "", false
	}
	var cs []cand
	for i, c := range known {
		cw := words[i]
		switch {
		case len(cw) == len(kw)+1:
			for skip := range cw {
				if equalSkipping(kw, cw, skip) {
					cs = append(cs, cand{c, len(cw[skip])})
					break
				}
			}
		case len(cw) == len(kw):
			// One word cut short by at least three letters, the rest equal.
			diff := -1
			for i := range cw {
				if cw[i] != kw[i] {
					if diff >= 0 {
						diff = -2
						break
					}
					diff = i
				}
			}
			if diff >= 0 && len(kw[diff]) >= 4 && len(cw[diff]) >= len(kw[diff])+3 && strings.HasPrefix(cw[diff], kw[diff]) {
				cs = append(cs, cand{c, 100})
			}
		case len(kw) >= 3 && len(cw) > len(kw) && slices.Equal(kw, cw[len(cw)-len(kw):]):
			cs = append(cs, cand{c, 200})
		}
	}
	return bestUnique(cs)
}

// cand is a known key a misspelt one may mean, with what reaching it costs (an edit distance,
// or the length of a dropped word).
type cand struct {
	key  string
	cost int
}

// bestUnique is the cheapest candidate, when no other costs as little (a tie suggests nothing).
func bestUnique(cs []cand) (string, bool) {
	if len(cs) == 0 {
		return "", false
	}
	sort.Slice(cs, func(i, j int) bool {
		return cs[i].cost < cs[j].cost || cs[i].cost == cs[j].cost && cs[i].key < cs[j].key
	})
	if len(cs) > 1 && cs[1].cost == cs[0].cost {
		return "", false
	}
	return cs[0].key, true
}

// equalSkipping reports whether kw equals cw without its word at skip (len(cw) == len(kw)+1).
func equalSkipping(kw, cw []string, skip int) bool {
	for i, w := range kw {
		j := i
		if i >= skip {
			j = i + 1
		}
		if cw[j] != w {
			return false
		}
	}
	return true
}

// frameworkTitle names a framework's set of settings in messages (dialect.Dialect.SettingsName).
func frameworkTitle(fw string) string {
	if d := dialect.ByName(fw); d != nil && d.SettingsName != "" {
		return d.SettingsName
	}
	return fw
}

// keyFrameworks are the frameworks the unknown-key rule checks: the closed ones and those whose
// sections come from the knowledge table.
func keyFrameworks() []string {
	var out []string
	for _, d := range dialect.All() {
		if d.Closed || d.Knowledge != "" && (len(d.Sections) > 0 || d.KeyMaps != nil) {
			out = append(out, d.Name)
		}
	}
	return out
}

// closedFrameworks are the frameworks whose dialect lists every top-level setting: the key rules
// check only those.
func closedFrameworks() []string {
	var out []string
	for _, d := range dialect.All() {
		if d.Closed {
			out = append(out, d.Name)
		}
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
