package dialect

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/trainlint/trainlint/lint/doc"
)

// dsProblems checks the values of DeepSpeed's pydantic sections against the enums their fields
// are typed with, as extracted from the source (knowledge.tsv sections "<section>:<field>", one
// row per value: ZeroStageEnum for zero_optimization.stage, OffloadDeviceEnum for the offload
// devices). Pydantic refuses any other
// value when DeepSpeedConfig is built, before training. Only values certain to be refused are
// reported: an integer stage outside the enum, a device word outside it (a float or numeric
// string pydantic may coerce, and interpolations, are left alone).
func dsProblems(d *doc.Document, _ []KeyMap, kb *Knowledge, target string) []Problem {
	root := d.Root
	if !isMap(root) {
		return nil
	}
	ix := dsValueIndexOf(kb)
	var out []Problem
	for _, path := range ix.paths {
		sec := dsSections[path]
		m := root.At(path)
		if !isMap(m) {
			continue
		}
		valued := ix.valued[sec]
		exists := 0 // the section's model at the target: asked at the first key with values
		for _, n := range m.Children {
			if !valued[n.Key] && strings.IndexByte(n.Key, ',') < 0 {
				continue // the table lists no values for the key (a comma would name sections)
			}
			if exists == 0 {
				exists = -1
				if kb.SectionExists(sec, target) {
					exists = 1
				}
			}
			if exists < 0 {
				break
			}
			vals := kb.section(sec+":"+n.Key, target).keys // shared: copied before sorting
			if len(vals) == 0 || n.Kind != doc.Scalar || n.IsNull() || n.IsUnknown() || contains(vals, n.Value) {
				continue
			}
			vals = slices.Clone(vals)
			sort.Strings(vals)
			switch {
			case n.Type == doc.Int:
			case n.Type == doc.String && !isNumeric(n.Value) && !strings.Contains(n.Value, "${"):
			default:
				continue // a float or a numeric string: pydantic may coerce it
			}
			out = append(out, Problem{Node: n, Choices: vals,
				Message: strconv.Quote(path+"."+n.Key) + " is " + strconv.Quote(n.Value) + ": DeepSpeed takes " + strings.Join(quoteAll(vals), ", ")})
		}
	}
	return out
}

// dsValueIndex is what dsProblems needs of the table on every file, built once: the sections'
// paths in order, and the {section, key} pairs the table lists values for (most keys have
// none, and asking the table about each built a "section:key" name per key and file).
type dsValueIndex struct {
	paths  []string
	valued map[string]map[string]bool // section -> keys
}

var dsValueIndexes sync.Map // *Knowledge -> *dsValueIndex

func dsValueIndexOf(kb *Knowledge) *dsValueIndex {
	if v, ok := dsValueIndexes.Load(kb); ok {
		return v.(*dsValueIndex)
	}
	ix := &dsValueIndex{valued: map[string]map[string]bool{}}
	for path := range dsSections {
		if path != "" {
			ix.paths = append(ix.paths, path)
		}
	}
	sort.Strings(ix.paths)
	for name := range kb.Sections {
		for i := 0; i < len(name); i++ {
			if name[i] == ':' {
				sec, key := name[:i], name[i+1:]
				if ix.valued[sec] == nil {
					ix.valued[sec] = map[string]bool{}
				}
				ix.valued[sec][key] = true
			}
		}
	}
	v, _ := dsValueIndexes.LoadOrStore(kb, ix)
	return v.(*dsValueIndex)
}
