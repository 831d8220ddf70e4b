package dialect

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
)

// One resolver serves every dialect, with OmegaConf's selection rules: a numeric segment indexes
// a list (${a.1}), dashes are allowed in keys, resolvers and relative references are not followed,
// and a cycle ends. Before the kit, ${a.1} resolved in Composer files but not in NeMo files.
func TestResolveLikeOmegaConf(t *testing.T) {
	src := "a: [5, 6]\nm: {k-1: 7}\nb: ${a.1}\nc: ${m.k-1}\nd: ${b}\ne: ${oc.env:RANK}\nf: ${.b}\ng: ${g}\nh: ${nope}\nvariables: {v: 9}\ni: ${v}\n"
	d := doc.Parse("x.yaml", []byte(src), doc.YAML, doc.Limits{})
	r := d.Root
	for _, c := range []struct {
		key, want string // want "" = not followed
		via       string
	}{
		{"b", "6", "${a.1}"}, {"c", "7", "${m.k-1}"}, {"d", "6", "${b}"},
		{"e", "", ""}, {"f", "", ""}, {"g", "", ""}, {"h", "", ""},
	} {
		t.Run(c.key, func(t *testing.T) {
			for name, got := range map[string]*doc.Node{
				"generic":   func() *doc.Node { n, _ := genDeref(r, r.Get(c.key)); return n }(),
				"lightning": func() *doc.Node { n, _ := resolveRef(r, r.Get(c.key)); return n }(),
			} {
				switch {
				case c.want != "" && (got == nil || got.Value != c.want):
					t.Errorf("%s: %s resolves to %v, want %s", name, c.key, got, c.want)
				case c.want == "" && name == "lightning" && got != nil:
					t.Errorf("%s: %s followed to %q", name, c.key, got.Value)
				case c.want == "" && name == "generic" && (got == nil || !got.IsUnknown()):
					t.Errorf("%s: %s should stay the unresolved reference, got %v", name, c.key, got)
				}
			}
			if _, via, _ := resolve(r, r.Get(c.key)); c.want != "" && via != c.via {
				t.Errorf("via %q, want %q", via, c.via)
			}
		})
	}
	// llm-foundry's variables section is a fallback of the generic family only.
	if n, _ := genDeref(r, r.Get("i")); n == nil || n.Value != "9" {
		t.Errorf("genDeref(${v}) = %v, want 9 from variables", n)
	}
	if n, _ := resolveRef(r, r.Get("i")); n != nil {
		t.Errorf("resolveRef(${v}) = %v, want unresolved", n)
	}
}

// One duration parser; each dialect accepts the spellings its framework does.
func TestDurationForms(t *testing.T) {
	for in, want := range map[string]struct {
		secs float64
		form durationForm
	}{
		"00:30:00": {1800, formClock}, "01:00:00:00": {86400, formClockDays}, "1h30m": {5400, formHMS},
		"90s": {90, formHMS}, "10 minutes": {600, formWords}, "1.5h": {5400, formWords}, "2 d": {172800, formWords},
		"500ms": {0.5, formGo}, "1h0.5m": {3630, formGo},
	} {
		secs, form, ok := durationSeconds(in)
		if !ok || secs != want.secs || form != want.form {
			t.Errorf("durationSeconds(%q) = %v, %v, %v; want %v, %v", in, secs, form, ok, want.secs, want.form)
		}
	}
	for _, in := range []string{"", "soon", "10", "-5m", "1x", "h"} {
		if _, _, ok := durationSeconds(in); ok {
			t.Errorf("durationSeconds(%q) accepted", in)
		}
	}
}

// One batch-norm word list: a family name must start a word.
func TestBNFamily(t *testing.T) {
	for in, want := range map[string]string{
		"resnet50": "resnet", "se_resnet50": "resnet", "timm/ResNet-50": "ResNet", "google/bit-50": "bit-",
		"seresnet50": "", "vit_base_patch16": "", "convnext_tiny": "", "QuartzNet15x5": "QuartzNet",
	} {
		if got := bnFamily(in); got != want {
			t.Errorf("bnFamily(%q) = %q, want %q", in, got, want)
		}
	}
	if !isBNNorm(" BatchNorm2d ") || !isBNNorm("sync_bn") || isBNNorm("layer") || !isOtherNorm("group_norm") {
		t.Error("norm values misread")
	}
}

// TestUnresolvedInRunThroughInterpolation: a reference whose path goes through a node that is
// one interpolation selects through its target, as OmegaConf does (TEMOS: transforms is
// ${data.transforms}, so ${transforms.ename} resolves); a path that is missing there, or goes
// through a plain scalar, still names no key.
func TestUnresolvedInRunThroughInterpolation(t *testing.T) {
	src := "data:\n  transforms:\n    ename: xyz\ntransforms: ${data.transforms}\nmode: ${transforms.ename}\nbad: ${transforms.missing}\nlr: 1\nworse: ${lr.x}\n"
	d := doc.Parse("run.yaml", []byte(src), doc.YAML, doc.Limits{})
	var got []string
	for _, u := range UnresolvedInRun(d.Root) {
		got = append(got, u.Ref)
	}
	if strings.Join(got, " ") != "transforms.missing lr.x" {
		t.Errorf("unresolved %v", got)
	}
}

// TestUnresolvedInRunThroughMandatory: a reference whose path goes through a mandatory value
// (HumanoidVerse's base.yaml: ${robot.asset.robot_type} with robot: ???, which the launch fills
// with +robot=g1/g1_29dof) names a value left to the launch, not a missing key: OmegaConf stops
// there with a missing mandatory value. A key missing beside it still names nothing.
func TestUnresolvedInRunThroughMandatory(t *testing.T) {
	src := "robot: ???\nterrain: ${robot}\nenv:\n  x: 1\ndir: ${robot.asset.robot_type}\nflat: ${terrain.kind}\nquoted: '???'\nq: ${quoted.a}\nbad: ${env.y}\n"
	d := doc.Parse("run.yaml", []byte(src), doc.YAML, doc.Limits{})
	var got []string
	for _, u := range UnresolvedInRun(d.Root) {
		got = append(got, u.Ref)
	}
	if strings.Join(got, " ") != "env.y" {
		t.Errorf("unresolved %v", got)
	}
}
