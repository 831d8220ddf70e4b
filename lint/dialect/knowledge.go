package dialect

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/trainlint/trainlint/lint/doc"
)

// The tables (knowledge*.tsv: knowledgeTSV and the others) are embedded in knowledge_embed.go;
// the light WebAssembly module holds them as strings instead (knowledge_lite.go).

// knowledgeOpenMMLabTSV, the batch-norm defaults of OpenMMLab backbones, is embedded in
// code_full.go: only the MMEngine dialect reads it, which the light module leaves out.

// Fact is one key of one section of a framework's configuration, as read in its source.
type Fact struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Section string // "" for the config's root; a class name (TRL's "SFTConfig") or a dotted section ("zero_optimization")
	Key     string
	Default string // as written in the source ("None", "1e-06", "'none'")
	// Since is the first tag read that has the key ("" when the oldest has it); Removed the first
	// tag read after it disappeared ("" when the newest still has it).
	Since, Removed string
	// Replacement is the key the source names in its place when it deprecates this one ("-" when
	// it names none).
	Replacement string
	Source      string // file:line@tag where it was last seen (file@tag where lint never reads the line)
}

// Knowledge is what the table holds about one framework.
type Knowledge struct {
	Framework string
	Tags      []string                   // the release tags read, oldest first
	Sections  map[string]map[string]Fact // section -> key -> fact

	checksOnce sync.Once // liveChecks
	checks     []liveCheck
	enums      doc.Cache // target -> key -> allowed values (EnumAt)
	// sectionMemo caches SectionExists and SectionAt by section and target: every linted file
	// asks the same few questions, and each answer walks a section's facts and the tag list.
	sectionMemo doc.Cache // sectionQuery -> sectionAnswer
	// lastBracket is bracket's last answer and tagVersions the tags read as versions: a file
	// linted for a pinned version asks the same question for every key it checks (Has), and
	// each answer parsed every tag.
	lastBracket     atomic.Pointer[bracketAnswer]
	tagVersionsOnce sync.Once
	tagVersions     [][]int
	patchChanges    bool      // changedInPatch, set with tagVersions
	tagIndexOnce    sync.Once // tagIndex: each tag's index in Tags (hasAt)
	tagIndex        map[string]int
	// Facts holds every row whose section or key starts with "@" (types, value sets, checks),
	// by section and key, one Fact per value with its own range: such a fact may change
	// between tags (an annotation that gains a type).
	Facts map[[2]string][]Fact // {section, key} -> facts
}

// knowledgeOf holds each framework's knowledge, parsed on first use (*knowledgeEntry by name).
var knowledgeOf doc.Cache

type knowledgeEntry struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	once sync.Once
	k    *Knowledge
}

// KnowledgeOf returns the extracted knowledge of a framework ("trl", "deepspeed"), nil when the
// table has none. Each framework's rows are parsed once, on first use: the checker starts with
// the Trainer's (its keys take their version facts from them) and reads no other framework's
// until a file needs it.
func KnowledgeOf(framework string) *Knowledge {
	if framework == "" {
		return nil // a dialect without a table
	}
	v, ok := knowledgeOf.Load(framework)
	if !ok {
		v, _ = knowledgeOf.LoadOrStore(framework, &knowledgeEntry{})
	}
	e := v.(*knowledgeEntry)
	e.once.Do(func() {
		e.k = parseKnowledge(framework, knowledgeTSV, knowledgeFinetuneTSV, knowledgeLightningTSV, knowledgeOmegaconfTSV, knowledgeTorchtuneTSV, knowledgeOpenMMLabTSV)[framework]
	})
	return e.k
}

// parseKnowledge reads the rows of one framework from the tables (each ends with a newline),
// or every framework's when only is "". The Trainer's are read when the checker starts, so it
// reads the lines in place: no copy of the text, no slice of lines or of fields (in
// WebAssembly, parsing all the tables with copies and 2,800 allocations was most of the
// engine's start-up).
//
// One framework's rows are the block that follows its @tags line (cmd/trainlint-knowledge
// writes each framework as one block of one table; TestKnowledgeByFramework holds every
// framework's block to the whole tables' rows): the search stops at the block's end. Searching
// the rest of the tables for another block (the Trainer's is in the first table, 290 KB of
// later tables after it) was most of the Trainer rows' parse at the checker's start.
func parseKnowledge(only string, texts ...string) map[string]*Knowledge {
	out := map[string]*Knowledge{}
	get := func(fw string) *Knowledge {
		k := out[fw]
		if k == nil {
			k = &Knowledge{Framework: fw, Sections: map[string]map[string]Fact{}, Facts: map[[2]string][]Fact{}}
			out[fw] = k
		}
		return k
	}
	var c [8]string
	row, tags := only+"\t", "@tags\t"+only+"\t"
	read := false // only's block was read
	for _, text := range texts {
		if read {
			break
		}
		inBlock := false
		for text != "" {
			if only != "" && !inBlock {
				// Jump to the framework's @tags line: testing every line's prefix was most of
				// the Trainer rows' parse at the checker's start (site/doc.go).
				if !strings.HasPrefix(text, tags) {
					i := strings.Index(text, "\n"+tags)
					if i < 0 {
						break
					}
					text = text[i+1:]
				}
				inBlock, read = true, true
			}
			// Lines and fields are cut at IndexByte's answers (no Count of the tabs first, no
			// Cut): the rows are read at the checker's start.
			line := text
			if i := strings.IndexByte(text, '\n'); i >= 0 {
				line, text = text[:i], text[i+1:]
			} else {
				text = ""
			}
			if line == "" || line[0] == '#' {
				continue
			}
			if only != "" && !strings.HasPrefix(line, row) && !strings.HasPrefix(line, tags) {
				break // the block ended
			}
			// A row has 8 fields, @tags 3; a line with another count is skipped.
			tabs := 0
			for tabs < 7 {
				i := strings.IndexByte(line, '\t')
				if i < 0 {
					break
				}
				c[tabs], line = line[:i], line[i+1:]
				tabs++
			}
			if tabs != 7 && tabs != 2 || tabs == 7 && strings.IndexByte(line, '\t') >= 0 {
				continue
			}
			n := tabs + 1
			c[n-1] = line
			if n == 3 {
				if c[0] == "@tags" {
					get(c[1]).Tags = strings.Fields(c[2])
				}
				continue
			}
			k := get(c[0])
			sec := k.Sections[c[1]]
			if sec == nil {
				// Sized for the section's rows, which the generator writes together: the
				// Trainer's 145 keys grew the map seven times.
				sec = make(map[string]Fact, 1+rowsWith(text, c[0]+"\t"+c[1]+"\t"))
				k.Sections[c[1]] = sec
			}
			f := Fact{Section: c[1], Key: c[2], Default: c[3], Since: c[4], Removed: c[5], Replacement: c[6], Source: c[7]}
			sec[c[2]] = f
			if strings.HasPrefix(c[1], "@") || strings.HasPrefix(c[2], "@") {
				id := [2]string{c[1], c[2]}
				k.Facts[id] = append(k.Facts[id], f)
			}
		}
	}
	return out
}

// rowsWith counts the lines at the start of text that begin with prefix.
func rowsWith(text, prefix string) int {
	n := 0
	for strings.HasPrefix(text, prefix) {
		n++
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		text = text[i+1:]
	}
	return n
}

// FactAt is the fact of a "@" row (a type, a value set, a check) that holds at the target
// version: the one at the newest tag read at or before it.
func (k *Knowledge) FactAt(section, key, target string) (Fact, bool) {
	lo, _ := k.bracket(target)
	for _, f := range k.Facts[[2]string{section, key}] {
		if k.hasAt(f, lo) {
			return f, true
		}
	}
	return Fact{}, false
}

// FactWith is the "@" row of a section and key with the given value (a check's if test) that
// holds at the target version.
func (k *Knowledge) FactWith(section, key, value, target string) (Fact, bool) {
	lo, _ := k.bracket(target)
	for _, f := range k.Facts[[2]string{section, key}] {
		if f.Default == value && k.hasAt(f, lo) {
			return f, true
		}
	}
	return Fact{}, false
}

// Outside reports whether target is a version the table says nothing about: older than every
// tag read, or a minor or major release after the newest.
func (k *Knowledge) Outside(target string) bool {
	lo, _ := k.bracket(target)
	return target != "" && lo < 0
}

// SinceOf is the first version a fact is known to hold at: its Since, or the oldest tag read
// when the oldest had it (before that the table says nothing).
func (k *Knowledge) SinceOf(f Fact) string {
	if f.Since != "" || len(k.Tags) == 0 {
		return f.Since
	}
	return k.Tags[0]
}

// Newest is the newest tag read.
func (k *Knowledge) Newest() string {
	if len(k.Tags) == 0 {
		return ""
	}
	return k.Tags[len(k.Tags)-1]
}

// Forbids reports whether the framework refuses unknown keys in its config models at the target
// version (DeepSpeed's pydantic models: extra="forbid").
func (k *Knowledge) Forbids(target string) bool {
	f, ok := k.Sections[""]["@extra"]
	lo, hi := k.bracket(target)
	return ok && f.Default == "forbid" && k.hasAt(f, lo) && k.hasAt(f, hi)
}

// SectionExists reports whether the section's model is certainly there at the target version:
// at the tags read on both sides of it. (Its keys are the union of both sides: SectionAt.)
// A section may name several, comma-separated: the union of their keys (LLaMA-Factory parses
// the file with several argument classes at once).
func (k *Knowledge) SectionExists(section, target string) bool {
	return k.section(section, target).exists
}

// sectionQuery and sectionAnswer are one memoised section lookup (Knowledge.section).
type sectionQuery struct{ section, target string }

type sectionAnswer struct {
	exists bool
	keys   []string
}

// section answers SectionExists and SectionAt for one section and target, once.
func (k *Knowledge) section(section, target string) sectionAnswer {
	q := sectionQuery{section, target}
	if v, ok := k.sectionMemo.Load(q); ok {
		return v.(sectionAnswer)
	}
	lo, hi := k.bracket(target)
	var atLo, atHi bool
	var keys []string
	var seen map[string]bool // keys already listed, when several sections are joined
	multi := strings.Contains(section, ",")
	if multi {
		seen = map[string]bool{}
	}
	for rest, more := section, true; more; {
		var sec string
		sec, rest, more = strings.Cut(rest, ",") // as strings.Split: "" is the root section
		facts := k.Sections[sec]
		if keys == nil && len(facts) > 0 {
			keys = make([]string, 0, len(facts))
		}
		for key, f := range facts {
			if key[0] == '@' && key != "@closed" {
				continue
			}
			// Has(f, target) is hasAt at the bracket's two ends.
			l, h := k.hasAt(f, lo), k.hasAt(f, hi)
			atLo, atHi = atLo || l, atHi || h
			if key[0] == '@' {
				continue // a closed section with no keys at all (a torchtune builder that takes none)
			}
			if (l || h) && !seen[key] {
				if multi {
					seen[key] = true
				}
				keys = append(keys, key)
			}
		}
	}
	if len(keys) == 0 {
		keys = nil // no key holds: SectionAt's nil
	}
	a := sectionAnswer{exists: atLo && atHi, keys: keys}
	k.sectionMemo.Store(q, a)
	return a
}

// Has reports whether the fact holds at the target version ("" = the newest tag). Between two
// tags read, a key present at either counts as present: the table cannot say in which release
// in between it came or went, and a rule must not claim what the source does not show.
func (k *Knowledge) Has(f Fact, target string) bool {
	lo, hi := k.bracket(target)
	return k.hasAt(f, lo) || k.hasAt(f, hi)
}

// SectionAt is the keys of a section that hold at the target version (nil when the section's
// model does not exist there).
func (k *Knowledge) SectionAt(section, target string) []string {
	keys := k.section(section, target).keys
	if keys == nil {
		return nil
	}
	return append([]string(nil), keys...) // the caller's to sort or extend
}

// HeldBy reports a key of a section that the table has at a tag at or before the target (at
// the target or in an older release read).
func (k *Knowledge) HeldBy(section, key, target string) bool {
	f, ok := k.Sections[section][key]
	lo, _ := k.bracket(target)
	if !ok || lo < 0 {
		return false
	}
	first := 0
	if f.Since != "" {
		first = len(k.Tags)
		for i, t := range k.Tags {
			if t == f.Since {
				first = i
				break
			}
		}
	}
	return first <= lo
}

// SectionEver is the keys of a section at any tag read (nil when the table has none).
func (k *Knowledge) SectionEver(section string) []string {
	var keys []string
	for key := range k.Sections[section] {
		if key[0] != '@' {
			keys = append(keys, key)
		}
	}
	return keys
}

// hasAt reports whether the fact holds at tag index i: from its Since tag (the first when that
// is not a tag read) to before its Removed tag (past the last when not a tag read).
func (k *Knowledge) hasAt(f Fact, i int) bool {
	if i < 0 || i >= len(k.Tags) {
		return false
	}
	// Each tag's index from a map built once, not a walk of the tags for every question: the
	// Trainer has 57 tags, and the walks were about half of listing a section's keys in
	// WebAssembly (wasm/main.go, Start-up).
	k.tagIndexOnce.Do(func() {
		k.tagIndex = make(map[string]int, len(k.Tags))
		for j, t := range k.Tags {
			k.tagIndex[t] = j // a repeated tag: its last index, as the walk had it
		}
	})
	first, end := 0, len(k.Tags)
	if j, ok := k.tagIndex[f.Since]; ok {
		first = j
	}
	if j, ok := k.tagIndex[f.Removed]; ok {
		end = j
	}
	return i >= first && i < end
}

// bracket is the indexes of the newest tag at or before the target and the oldest at or after
// it (both the newest tag when target is "" or a patch release of the newest; both -1, which
// no fact holds at, when it is older than every tag, a later minor or major release, or a
// later patch release of a framework whose patch releases changed the table).
func (k *Knowledge) bracket(target string) (int, int) {
	n := len(k.Tags) - 1
	if target == "" {
		return n, n
	}
	if b := k.lastBracket.Load(); b != nil && b.target == target {
		return b.lo, b.hi
	}
	k.parseTags()
	tv := ParseVersion(target)
	pre := PreRelease(target)
	lo, hi := -1, -1
	for i := range k.Tags {
		c := CompareVersions(k.tagVersions[i], tv)
		if c == 0 && pre && !PreRelease(k.Tags[i]) {
			// A development or candidate build of a release ("0.9.2.dev0", a vendored copy's
			// own version) comes before that release: it lies between the tag before and it.
			c = 1
		}
		if c <= 0 {
			lo = i
		}
		if c >= 0 && hi < 0 {
			hi = i
		}
	}
	switch {
	case lo < 0:
		// Older than every tag read: the table does not say what that release had (Lightning
		// 0.10.0 had arguments 1.0.0, the oldest tag read, had dropped), so no fact holds there
		// and the rules that read the table stay silent.
		lo, hi = -1, -1
	case hi < 0:
		// Newer than every tag read: a patch release of the newest is read as the newest; a
		// later minor or major release may have added keys and checks the table has not seen,
		// so nothing is claimed of it (the table is regenerated to cover it). Nor is a later
		// patch release claimed for a framework whose table shows a patch release changing
		// what it holds (LLaMA-Factory's 0.9.x releases add arguments, Lightning 2.5.1 added
		// Trainer's model_registry): 0.9.6.dev0 has keys v0.9.5 does not.
		hi = n
		if nv := k.tagVersions[n]; len(tv) >= 2 && len(nv) >= 2 && (CompareVersions(tv[:2], nv[:2]) > 0 || k.patchChanges) {
			lo, hi = -1, -1
		}
	}
	k.lastBracket.Store(&bracketAnswer{target: target, lo: lo, hi: hi})
	return lo, hi
}

// parseTags sets tagVersions and patchChanges, once.
func (k *Knowledge) parseTags() {
	k.tagVersionsOnce.Do(func() {
		k.tagVersions = make([][]int, len(k.Tags))
		for i, t := range k.Tags {
			k.tagVersions[i] = ParseVersion(t)
		}
		k.patchChanges = k.changedInPatch()
	})
}

// changedInPatch reports whether a fact of the table starts or ends at a patch release read
// after an earlier release of the same minor version (its Since or Removed is such a tag). The
// oldest tag is no change: what it has, it may have had before. Called with tagVersions set.
func (k *Knowledge) changedInPatch() bool {
	patch := map[string]bool{}
	for i := 1; i < len(k.Tags); i++ {
		a, b := k.tagVersions[i-1], k.tagVersions[i]
		if len(a) >= 2 && len(b) >= 2 && CompareVersions(a[:2], b[:2]) == 0 {
			patch[k.Tags[i]] = true
		}
	}
	if len(patch) == 0 {
		return false
	}
	changed := func(f Fact) bool { return patch[f.Since] || patch[f.Removed] }
	for _, sec := range k.Sections {
		for _, f := range sec {
			if changed(f) {
				return true
			}
		}
	}
	for _, fs := range k.Facts {
		for _, f := range fs {
			if changed(f) {
				return true
			}
		}
	}
	return false
}

type bracketAnswer struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	target string
	lo, hi int
}

// ParseVersion reads "v0.19.5", "4.46", "5.0.0rc1" into its numeric parts (a pre-release
// suffix is dropped).
func ParseVersion(s string) []int {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	var out []int
	for _, p := range strings.Split(s, ".") {
		end := 0
		for end < len(p) && p[end] >= '0' && p[end] <= '9' {
			end++
		}
		if end == 0 {
			break
		}
		n, _ := strconv.Atoi(p[:end])
		out = append(out, n)
		if end < len(p) {
			break
		}
	}
	return out
}

// PreRelease reports whether a version names a build before its numbered release: a
// development, alpha, beta or candidate suffix ("0.9.2.dev0", "5.0.0rc1", "v2.1.0-beta.2"). A
// post-release ("1.2.post1") or a local label ("2.1.0+cu118") is not one.
func PreRelease(s string) bool {
	s = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "v"))
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i == 0 {
		return false
	}
	rest := strings.TrimLeft(s[i:], ".-_")
	for _, p := range []string{"dev", "rc", "alpha", "beta", "pre", "a", "b", "c"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}

// releasedBefore reports a target that is a release (it parses as a version) older than v.
func releasedBefore(target string, v ...int) bool {
	t := ParseVersion(target)
	return len(t) > 0 && CompareVersions(t, v) < 0
}

// releasedFrom places target against release v: from reports v or a later release; known is
// false for a target that cannot be placed (no version, a git install, one that does not
// parse) and for v's own pre-releases, which lie between v and the release before it.
func releasedFrom(target string, v ...int) (from, known bool) {
	t := ParseVersion(target)
	if len(t) == 0 {
		return false, false
	}
	switch c := CompareVersions(t, v); {
	case c < 0:
		return false, true
	case c == 0 && PreRelease(target):
		return false, false
	}
	return true, true
}

// CompareVersions compares two parsed versions; missing parts count as 0.
func CompareVersions(a, b []int) int {
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y int
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}
