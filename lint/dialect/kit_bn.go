package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// The reading kit, part 5: batch-norm evidence, one word list for every dialect.

// bnArch (kit_match.go) matches architecture names that contain batch norm layers: the one word list every
// dialect uses. ConvNeXt (LayerNorm) and ViTs are deliberately absent: no evidence means the rule
// stays silent. A family name must start a word ("se_resnet50", "timm/resnet50", not "seresnet").

// bnFamily is the batch-norm architecture family a model name names ("resnet"), or "".
func bnFamily(name string) string {
	return bnArch(name)
}

// isBNNorm reports whether a norm setting's value means batch norm; isOtherNorm whether it names
// another norm (layer, group, RMS, none), which outweighs an architecture name.
func isBNNorm(v string) bool { return isBNNormValue(strings.ToLower(strings.TrimSpace(v))) }

func isOtherNorm(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "layer", "layernorm", "layer_norm", "ln", "group", "groupnorm", "group_norm", "gn", "rmsnorm", "none",
		"instance":
		return true
	}
	return false
}

// isBNKey reports whether a key's scalar value names an architecture or a norm layer. This and
// the other small sets here are switches rather than maps: a package-level map is built by code
// at init, which the browser checker compiles and runs before it is ready (site/doc.go, Timings).
func isBNKey(k string) bool {
	switch k {
	case "_target_", "class_path", "backbone", "arch", "architecture", "model_name", "encoder_name",
		"backbone_name", "net", "model", "encoder", "type", "model_type", "norm", "norm_layer",
		"norm_type", "normalization", "conv_norm_type", "name":
		return true
	}
	return false
}

// isBNNormValue reports whether a (lower-case) value of a norm key means batch norm.
func isBNNormValue(v string) bool {
	switch v {
	case "batch", "bn", "batchnorm", "batch_norm", "batchnorm2d", "syncbn", "sync_bn", "bn2d", "bn1d":
		return true
	}
	return false
}

// bnEvidence scans the config for batch-norm evidence: an architecture known to use batch norm
// named in a model/backbone/class key, or a norm setting of "batch". The first hit wins.
func bnEvidence(root *doc.Node) (*doc.Node, string) {
	var hit *doc.Node
	var why string
	root.Walk(func(n *doc.Node) bool {
		if hit != nil {
			return false
		}
		if n.Kind != doc.Scalar || n.Type != doc.String || !isBNKey(n.Key) {
			return true
		}
		v := strings.TrimSpace(n.Value)
		low := strings.ToLower(v)
		switch n.Key {
		case "norm", "norm_type", "normalization", "conv_norm_type", "norm_layer":
			if isBNNormValue(low) || bnArch(v) != "" {
				hit, why = n, n.Path().String()+": "+v
			}
			return true
		}
		if bnArch(v) != "" && !otherNormBeside(n) {
			hit, why = n, n.Path().String()+": "+v
		}
		return true
	})
	return hit, why
}

// otherNormBeside reports whether a sibling norm setting names a norm other than batch norm
// (resnet50 with norm_layer: group_norm, ConformerEncoder with conv_norm_type: layer_norm): the
// explicit setting outweighs what the architecture name suggests.
func otherNormBeside(n *doc.Node) bool {
	if n.Parent == nil || n.Parent.Kind != doc.Map {
		return false
	}
	for _, k := range []string{"norm", "norm_type", "normalization", "conv_norm_type", "norm_layer"} {
		s := n.Parent.Get(k)
		if s == nil || s.Kind != doc.Scalar || s.Type != doc.String {
			continue
		}
		v := strings.TrimSpace(s.Value)
		if v != "" && !isBNNormValue(strings.ToLower(v)) && bnArch(v) == "" {
			return true
		}
	}
	return false
}

// readBNPresent sets BN.Present from config evidence only.
func readBNPresent(p *plan.Plan, root *doc.Node) {
	if n, why := bnEvidence(root); n != nil {
		p.BN.Present = plan.Set(true, n.Path().String(), n)
		p.BN.Present.Origin = plan.Derived
		p.BN.Present.Note = "= batch norm named in the config"
		p.BN.Evidence = why
	}
}
