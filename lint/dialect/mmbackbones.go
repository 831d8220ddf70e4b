package dialect

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// mmBackboneProjects are the OpenMMLab projects (by registry scope) whose registered backbones'
// batch-norm defaults were read in their source (knowledge_openmmlab.tsv, cmd/trainlint-knowledge openmmlab.go).
var mmBackboneProjects = map[string]string{"mmpretrain": "MMPretrain", "mmpose": "MMPose", "mmaction": "MMAction2"}

// mmScope is the project whose registry builds a config's model: its default_scope ("" when
// unknown). A type written with a scope ("mmdet.ResNet") or as an imported class
// ("mmpretrain.models.ResNet", new-style configs) names its own.
func mmScope(root *doc.Node) string {
	n := root.Get("default_scope")
	if s, ok := n.Str(); ok && !n.IsUnknown() {
		return s
	}
	return ""
}

// mmClass splits a backbone's type into the project that registers it and its registry name:
// the config's scope for a bare name, the first part of a scoped or imported one.
func mmClass(scope string, t *doc.Node) (project, name string, ok bool) {
	if t == nil || !t.IsScalar() || t.Value == "" || (t.IsUnknown() && t.Style != "reference") {
		return "", "", false
	}
	name = t.Value
	if i := strings.IndexByte(name, '.'); i >= 0 {
		scope, name = name[:i], name[strings.LastIndexByte(name, '.')+1:]
	}
	return scope, name, scope != "" && name != ""
}

// mmBackboneDefault is the default of a backbone class's norm_cfg or norm_eval as its source
// writes it, when the table holds it at every release read.
func mmBackboneDefault(project, class, key string) (def, source string, ok bool) {
	if mmBackboneProjects[project] == "" {
		return "", "", false
	}
	k := KnowledgeOf(project)
	if k == nil {
		return "", "", false
	}
	f, ok := k.Sections[class][key]
	if !ok || f.Since != "" || f.Removed != "" {
		return "", "", false
	}
	return f.Default, f.Source, true
}

// mmFrozenDefault reports whether the backbone type t keeps its batch-norm layers in eval mode
// when the config writes no norm_eval: the table's default for the projects read, else
// MMDetection's ResNet family (norm_eval=True there).
func mmFrozenDefault(scope string, t *doc.Node) bool {
	if project, class, ok := mmClass(scope, t); ok {
		if def, _, ok := mmBackboneDefault(project, class, "norm_eval"); ok {
			return def == "True"
		}
		if mmBackboneProjects[project] != "" {
			return false // a class of a project read that has no norm_eval: nothing freezes it
		}
	}
	typ, _ := t.Str()
	return mmFrozenByDefault(typ)
}

// mmNormType is the layer type of a norm_cfg default as the source writes it
// ("dict(type='BN', requires_grad=True)" gives BN; "None", none).
func mmNormType(def string) (string, bool) {
	if def == "None" {
		return "", true
	}
	i := strings.Index(def, "type=")
	if !strings.HasPrefix(def, "dict(") || i < 0 || i+6 > len(def) {
		return "", false
	}
	q, rest := def[i+5], def[i+6:]
	if q != '\'' && q != '"' {
		return "", false
	}
	j := strings.IndexByte(rest, q)
	if j < 0 {
		return "", false
	}
	return rest[:j], true
}

// mmImplicitBN is the batch-norm layer type a backbone that writes no norm_cfg builds by its
// class's default, when that default is batch norm and the backbone does not freeze it: the type
// ("BN", "SyncBN"), the class's project and the norm_cfg default's source (file:line@tag).
// A backbone that freezes stages (frozen_stages other than -1) is left out: how many of its
// layers still train depends on the class.
func mmImplicitBN(scope string, backbone *doc.Node) (typ, project, source string, ok bool) {
	if backbone.Get("norm_cfg") != nil {
		return "", "", "", false
	}
	if fs := backbone.Get("frozen_stages"); fs != nil {
		if v, ok := fs.Int(); !ok || v != -1 {
			return "", "", "", false
		}
	}
	project, class, ok := mmClass(scope, backbone.Get("type"))
	if !ok {
		return "", "", "", false
	}
	def, source, ok := mmBackboneDefault(project, class, "norm_cfg")
	if !ok {
		return "", "", "", false
	}
	typ, ok = mmNormType(def)
	if !ok || !mmBNType(typ) || typ == "BN1d" || typ == "BN3d" {
		// Batch norm over time or volumes (mmpose's TCN: BN1d) normalises over more than the
		// examples of the batch.
		return "", "", "", false
	}
	frozen, _, ok := mmBackboneDefault(project, class, "norm_eval")
	if ne, set := backbone.Get("norm_eval").Bool(); set {
		frozen, ok = map[bool]string{true: "True", false: "False"}[ne], true
	} else if backbone.Get("norm_eval") != nil {
		return "", "", "", false
	}
	if !ok || frozen != "False" {
		return "", "", "", false
	}
	return typ, project, source, true
}

// mmImplicitAdvice says, for a finding on a backbone that writes no norm_cfg, that its class
// builds batch norm by default and where the source says so.
func mmImplicitAdvice(p *plan.Plan, backbone *doc.Node, project, source string) {
	typ := backbone.Get("type").Value
	p.BN.Evidence = backbone.Path().String() + " type " + strconv.Quote(typ) + ", whose default norm_cfg is batch norm (" + source + ")"
	if p.Advice == nil {
		p.Advice = map[string]string{}
	}
	p.Advice["bn.sync"] = mmBackboneProjects[project] + "'s " + typ + " builds batch norm when norm_cfg is not given (" + source + "): " +
		"set norm_cfg=dict(type='SyncBN') in " + backbone.Path().String() + ", or sync_bn = 'torch' at the top level (the Runner converts every BatchNorm in distributed runs), or add dict(type='SyncBuffersHook') to custom_hooks to average the statistics before validation"
}

// mmVideoBatch is why batch norm in an MMAction2 model does not normalise over the batch alone:
// Recognizer2D.extract_feat folds each sample's crops and segments into the batch a 2D backbone
// sees (mmaction2 v1.2.0 models/recognizers/recognizer2d.py), and 3D backbones normalise over
// frames and pixels of each clip.
const mmVideoBatch = "a video recognizer's backbone normalises over every frame of the device's clips"
