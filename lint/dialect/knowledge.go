package dialect

import (
	_ "embed" // the knowledge table
	"strconv"
	"strings"
	"sync"
)

// knowledgeTSV is the framework knowledge extracted from the frameworks' own source at release
// tags by cmd/trainlint-knowledge (generated; see that command). It is data, not code, so that
// the WebAssembly module stays small: one line per key and section, with the tags it was read at.
//
//go:embed knowledge.tsv
var knowledgeTSV string

// knowledgeLightningTSV is Lightning's table (constructor signatures, value sets and checks),
// rendered by the same command from its own extraction.
//
//go:embed knowledge_lightning.tsv
var knowledgeLightningTSV string

// Fact is one key of one section of a framework's configuration, as read in its source.
type Fact struct {
	Section string // "" for the config's root; a class name (TRL's "SFTConfig") or a dotted section ("zero_optimization")
	Key     string
	Default string // as written in the source ("None", "1e-06", "'none'")
	// Since is the first tag read that has the key ("" when the oldest has it); Removed the first
	// tag read after it disappeared ("" when the newest still has it).
	Since, Removed string
	// Replacement is the key the source names in its place when it deprecates this one ("-" when
	// it names none).
	Replacement string
	Source      string // file:line@tag where it was last seen
}

// Knowledge is what the table holds about one framework.
type Knowledge struct {
	Framework string
	Tags      []string                   // the release tags read, oldest first
	Sections  map[string]map[string]Fact // section -> key -> fact
	// Facts holds every row whose section or key starts with "@" (types, value sets, checks),
	// by section and key, one Fact per value with its own range: such a fact may change
	// between tags (an annotation that gains a type).
	Facts map[[2]string][]Fact // {section, key} -> facts
}

var (
	knowledgeOnce sync.Once
	knowledgeAll  map[string]*Knowledge
)

// KnowledgeOf returns the extracted knowledge of a framework ("trl", "deepspeed"), nil when the
// table has none. The table is parsed once, on first use.
func KnowledgeOf(framework string) *Knowledge {
	knowledgeOnce.Do(func() { knowledgeAll = parseKnowledge(knowledgeTSV + knowledgeLightningTSV) })
	return knowledgeAll[framework]
}

func parseKnowledge(text string) map[string]*Knowledge {
	out := map[string]*Knowledge{}
	get := func(fw string) *Knowledge {
		k := out[fw]
		if k == nil {
			k = &Knowledge{Framework: fw, Sections: map[string]map[string]Fact{}, Facts: map[[2]string][]Fact{}}
			out[fw] = k
		}
		return k
	}
	for _, line := range strings.Split(text, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		c := strings.Split(line, "\t")
		if c[0] == "@tags" && len(c) == 3 {
			get(c[1]).Tags = strings.Fields(c[2])
			continue
		}
		if len(c) != 8 {
			continue
		}
		k := get(c[0])
		sec := k.Sections[c[1]]
		if sec == nil {
			sec = map[string]Fact{}
			k.Sections[c[1]] = sec
		}
		f := Fact{Section: c[1], Key: c[2], Default: c[3], Since: c[4], Removed: c[5], Replacement: c[6], Source: c[7]}
		sec[c[2]] = f
		if strings.HasPrefix(c[1], "@") || strings.HasPrefix(c[2], "@") {
			id := [2]string{c[1], c[2]}
			k.Facts[id] = append(k.Facts[id], f)
		}
	}
	return out
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
func (k *Knowledge) SectionExists(section, target string) bool {
	lo, hi := k.bracket(target)
	var atLo, atHi bool
	for key, f := range k.Sections[section] {
		if key[0] == '@' {
			continue
		}
		atLo = atLo || k.hasAt(f, lo)
		atHi = atHi || k.hasAt(f, hi)
	}
	return atLo && atHi
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
	var out []string
	for key, f := range k.Sections[section] {
		if key[0] != '@' && k.Has(f, target) {
			out = append(out, key)
		}
	}
	return out
}

// hasAt reports whether the fact holds at tag index i.
func (k *Knowledge) hasAt(f Fact, i int) bool {
	if i < 0 || i >= len(k.Tags) {
		return false
	}
	first, end := 0, len(k.Tags)
	for j, t := range k.Tags {
		if t == f.Since {
			first = j
		}
		if t == f.Removed {
			end = j
		}
	}
	return i >= first && i < end
}

// bracket is the indexes of the newest tag at or before the target and the oldest at or after
// it (both the newest tag when target is "" or newer than every tag).
func (k *Knowledge) bracket(target string) (int, int) {
	n := len(k.Tags) - 1
	if target == "" {
		return n, n
	}
	tv := ParseVersion(target)
	lo, hi := -1, -1
	for i, t := range k.Tags {
		c := CompareVersions(ParseVersion(t), tv)
		if c <= 0 {
			lo = i
		}
		if c >= 0 && hi < 0 {
			hi = i
		}
	}
	if lo < 0 {
		lo = 0 // older than every tag read: the oldest is the best evidence
	}
	if hi < 0 {
		hi = n
	}
	return lo, hi
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
