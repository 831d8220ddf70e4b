package lint_test

import (
	"reflect"
	"slices"
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
