package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// lightningPrecision reads trainer.precision against the config of a DeepSpeed strategy written
// in the same file (Lightning 2.6.5, fabric/strategies/deepspeed.py _format_precision_config):
// Lightning adds "fp16" to the DeepSpeed config for precision 16-mixed/16-true when the config
// has no fp16 section, and "bf16" for bf16-mixed/bf16-true when it has no bf16 section. A
// config that enables the other mode therefore ends up with both, which DeepSpeed refuses
// ("bfloat16 and fp16 modes cannot be simultaneously enabled", runtime/config.py v0.19.5).
// Only these two facts are stated; everything else stays unknown.
func lightningPrecision(p *plan.Plan, root, tr *doc.Node, prefix string) {
	pn := tr.Get("precision")
	st := tr.Get("strategy")
	if pn == nil || !isMap(st) {
		return
	}
	target := scalarText(st.Get("class_path")) + scalarText(st.Get("_target_"))
	if !strings.Contains(target, "DeepSpeedStrategy") {
		return
	}
	cfg := st.Get("config")
	if args := classArgs(st); isMap(args) {
		cfg = args.Get("config")
	}
	if !isMap(cfg) {
		return // a path to a JSON file: read with the run's other files
	}
	r, _ := resolveRef(root, pn)
	prec, ok := strValue(r)
	if !ok {
		if v, isInt := intValue(r); isInt && v == 16 {
			prec, ok = "16-mixed", true
		}
	}
	if !ok {
		return
	}
	pKey := keyOf(pn, prefix, "precision")
	enabled := func(mode string) (plan.Fact[bool], bool) {
		sec := cfg.Get(mode)
		if !isMap(sec) {
			return plan.Fact[bool]{}, false
		}
		n := sec.Get("enabled")
		if n == nil || n.Type != doc.Bool {
			return plan.Fact[bool]{}, true
		}
		v, _ := n.Bool()
		return plan.Set(v, n.Path().String(), n), true
	}
	fp, hasFP := enabled("fp16")
	bf, hasBF := enabled("bf16")
	switch strings.TrimSpace(prec) {
	case "bf16-mixed", "bf16-true", "bf16":
		if !hasBF && fp.Known() && fp.Value {
			p.Precision.FP16, p.Precision.BF16 = fp, plan.Set(true, pKey, pn)
		}
	case "16-mixed", "16-true", "16":
		if !hasFP && bf.Known() && bf.Value {
			p.Precision.FP16, p.Precision.BF16 = plan.Set(true, pKey, pn), bf
		}
	}
}
