package dialect

import (
	"sort"
	"strconv"
	"strings"

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
	paths := make([]string, 0, len(dsSections))
	for path := range dsSections {
		if path != "" {
			paths = append(paths, path)
		}
	}
	sort.Strings(paths)
	var out []Problem
	for _, path := range paths {
		sec := dsSections[path]
		m := root.At(path)
		if !isMap(m) || !kb.SectionExists(sec, target) {
			continue
		}
		for _, n := range m.Children {
			vals := kb.SectionAt(sec+":"+n.Key, target)
			if len(vals) == 0 || n.Kind != doc.Scalar || n.IsNull() || n.IsUnknown() || contains(vals, n.Value) {
				continue
			}
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
