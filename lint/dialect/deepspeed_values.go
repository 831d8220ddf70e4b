package dialect

import (
	"slices"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
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
			doc.SortStrings(vals)
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

var dsValueIndexes doc.Cache // *Knowledge -> *dsValueIndex

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
	doc.SortStrings(ix.paths)
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

// dsStringBatches refuses a batch key written as a string other than "auto" (which the HF
// Trainer and accelerate fill in): DeepSpeedConfig reads the three batch keys as given
// (get_scalar_param) and computes with them at start-up (_set_batch_related_parameters divides
// them, _batch_assertion compares them with 0; DeepSpeed v0.19.5, runtime/config.py), where a
// string stops it with a TypeError; the HF Trainer refuses it sooner, as a value that differs
// from its own. Elastic training, which replaces the batch keys, is left alone.
func dsStringBatches(p *plan.Plan, root *doc.Node) {
	if on, _ := root.At("elasticity.enabled").Bool(); on {
		return
	}
	for _, k := range []string{"train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps"} {
		n := root.Get(k)
		if n == nil || n.Kind != doc.Scalar || n.Type != doc.String || n.Value == "auto" || strings.Contains(n.Value, "${") {
			continue
		}
		r := plan.Rejection{Node: n, Key: k, Message: k + " is the string " + strconv.Quote(n.Value),
			Says: "TypeError", Package: "deepspeed", Read: "0.19.5", Source: "DeepSpeedConfig._configure_train_batch_size, which computes with the batch sizes as numbers",
			Help: "write the number without quotes (or \"auto\" where the HF Trainer or accelerate fills it in)"}
		if v, err := strconv.Atoi(n.Value); err == nil && v > 0 && strconv.Itoa(v) == n.Value {
			r.Fix = &plan.Fix{Node: n, Value: n.Value, Safe: true, Message: "write " + k + " as the number " + n.Value}
		}
		p.Rejections = append(p.Rejections, r)
	}
}
