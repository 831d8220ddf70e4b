package lint_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/rules"
)

// TestNeedsHosts: a file that does not state its host count lists the multi-host rules of its
// framework that could not run; a host count from anywhere (the file, --hosts) empties the list,
// and so does deselecting the rules.
func TestNeedsHosts(t *testing.T) {
	hf := lint.File{Path: "sft.yaml", Text: []byte("per_device_train_batch_size: 8\nsave_on_each_node: true\n")}
	all := rules.All()
	for _, c := range []struct {
		name string
		f    lint.File
		o    lint.Options
		want []string
	}{
		{"unknown hosts", hf, lint.Options{}, []string{"TL601", "TL602"}},
		{"--hosts 2", hf, lint.Options{Hosts: 2}, nil},
		{"--hosts 1", hf, lint.Options{Hosts: 1}, nil},
		{"multi-host ignored", hf, lint.Options{Ignore: []string{"multi-host"}}, nil},
		{"one selected", hf, lint.Options{Select: []string{"TL602"}}, []string{"TL602"}},
		{"stated in the file", lint.File{Path: "l.yaml", Text: []byte("trainer:\n  num_nodes: 2\n  devices: 8\n")}, lint.Options{}, nil},
		{"unparsable", lint.File{Path: "x.yaml", Text: []byte("a: [\n")}, lint.Options{}, nil},
		// A module of an OpenMMLab project reads as MMEngine's (its import) but configures
		// nothing; a config of that project claims MMEngine's seed defaults.
		{"mmengine module", lint.File{Path: "hrnet.py", Text: []byte("from mmengine.model import BaseModule\n\nclass HRNet(BaseModule):\n    pass\n")}, lint.Options{}, nil},
		{"mmengine config", lint.File{Path: "r.py", Text: []byte("from mmengine.dataset import DefaultSampler\n" +
			"train_dataloader = dict(batch_size=2, num_workers=2, sampler=dict(type=DefaultSampler))\n")}, lint.Options{}, []string{"TL603"}},
	} {
		info, diags := lint.LintFile(c.f, all, c.o)
		if !reflect.DeepEqual(info.NeedsHosts, c.want) {
			t.Errorf("%s: NeedsHosts = %v, want %v", c.name, info.NeedsHosts, c.want)
		}
		if c.name == "--hosts 2" && !slices.ContainsFunc(diags, func(d lint.Diagnostic) bool { return d.Code == "TL602" }) {
			t.Errorf("save_on_each_node on 2 hosts: no TL602 (the fixture no longer shows what it should): %v", diags)
		}
	}
}

// TestMultiHostRulesNeedHosts holds NeedsHosts to the rules' behaviour: every multi-host rule's
// bad examples that fire only with --hosts stay silent without it, and then list the rule as
// needing the host count. Each multi-host rule must have such an example (extra below, for a
// rule whose archive examples all state their host count).
func TestMultiHostRulesNeedHosts(t *testing.T) {
	extra := map[string][]lint.File{
		"data-seed-identical-across-hosts": {{Path: "jax.toml", Text: []byte("[data]\nshard_by_host = true\nshuffle_seed = 0\n")}},
	}
	for _, r := range rules.All() {
		if r.Category != lint.CatMultiHost {
			continue
		}
		type input struct {
			name string
			f    lint.File
			o    lint.Options
		}
		var ins []input
		for _, ex := range rules.Examples(r.Name) {
			if o := ex.Options(); ex.Kind == "bad" && o.Hosts >= 2 {
				ins = append(ins, input{ex.Name, ex.File(), o})
			}
		}
		for _, f := range extra[r.Name] {
			ins = append(ins, input{f.Path, f, lint.Options{Hosts: 16}})
		}
		checked := 0
		for _, in := range ins {
			if _, diags := lint.LintFile(in.f, rules.All(), in.o); !slices.ContainsFunc(diags, func(d lint.Diagnostic) bool { return d.Code == r.Code }) {
				t.Errorf("%s %s with --hosts %d: not reported, so it shows nothing here", r.Name, in.name, in.o.Hosts)
			}
			o := in.o
			o.Hosts = 0
			info, diags := lint.LintFile(in.f, rules.All(), o)
			if len(info.NeedsHosts) == 0 {
				continue // the file states its own host count
			}
			checked++
			if !slices.Contains(info.NeedsHosts, r.Code) {
				t.Errorf("%s %s without --hosts: NeedsHosts %v lacks %s", r.Name, in.name, info.NeedsHosts, r.Code)
			}
			for _, d := range diags {
				if d.Code == r.Code {
					t.Errorf("%s %s without --hosts: still reported at line %d: %s", r.Name, in.name, d.Line, d.Message)
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s has no bad example that needs --hosts", r.Name)
		}
	}
}

// TestNeedsHostsNotForFactlessGeneric: a file of no known framework that states none of the
// facts the multi-host rules read (a pre-commit config) needs no host count. The claim behind
// it, held over the corpus: every generic file left out that way gets no multi-host finding
// when the host count is given (2 or 4 hosts of 8 devices).
func TestNeedsHostsNotForFactlessGeneric(t *testing.T) {
	all := rules.All()
	pc := lint.File{Path: ".pre-commit-config.yaml", Text: []byte("repos:\n  - repo: https://github.com/psf/black\n    rev: 24.1.0\n    hooks:\n      - id: black\n")}
	if info, _ := lint.LintFile(pc, all, lint.Options{}); info.Framework != "generic" || info.NeedsHosts != nil {
		t.Errorf("pre-commit config: framework %s, NeedsHosts %v", info.Framework, info.NeedsHosts)
	}
	seeded := lint.File{Path: "train.yaml", Text: []byte("seed: ${oc.env:RANK}\nlr: 0.1\n")}
	if info, _ := lint.LintFile(seeded, all, lint.Options{}); info.Framework == "generic" && len(info.NeedsHosts) == 0 {
		t.Errorf("a generic file with a per-rank seed lost its NeedsHosts")
	}
	left := 0
	for _, p := range corpusFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := lint.File{Path: filepath.Base(p), Text: src}
		a, _ := lint.Analyze(f, lint.Options{})
		if a.Plan == nil || a.Plan.Topology.Hosts.Known() || a.Dialect.Name != "generic" {
			continue
		}
		info, _ := lint.LintFile(f, all, lint.Options{})
		if len(info.NeedsHosts) > 0 {
			continue
		}
		left++
		for _, hosts := range []int{2, 4} {
			_, diags := lint.LintFile(f, all, lint.Options{Hosts: hosts, DevicesPerHost: 8})
			for _, d := range diags {
				if strings.HasPrefix(d.Code, "TL6") {
					t.Errorf("%s on %d hosts: %s %s, but it was not said to need a host count", p, hosts, d.Code, d.Message)
				}
			}
		}
	}
	if left == 0 {
		t.Error("no corpus file was left out: the test no longer tests anything")
	}
	t.Logf("%d generic corpus files need no host count", left)
}
