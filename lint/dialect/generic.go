package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// Generic reads in-house configs by common spellings. (Placeholder until the generic dialect lands.)
var Generic = &Dialect{
	Name:  "generic",
	Title: "Generic (in-house YAML/JSON/TOML)",
	Normalize: func(d *doc.Document, ctx Context) *plan.Plan {
		p := &plan.Plan{Framework: "generic"}
		ApplyContext(p, ctx)
		return p
	},
}

// ApplyContext fills topology facts from the launch context where the file stated nothing
// explicitly (a value written in the file is what the framework will use). Dialects call it last.
func ApplyContext(p *plan.Plan, ctx Context) {
	if ctx.Hosts > 0 && !p.Topology.Hosts.IsExplicit() {
		p.Topology.Hosts = plan.Fact[int]{Value: ctx.Hosts, Origin: plan.Context, Key: "--hosts"}
	}
	if ctx.DevicesPerHost > 0 && !p.Topology.DevicesPerHost.IsExplicit() {
		p.Topology.DevicesPerHost = plan.Fact[int]{Value: ctx.DevicesPerHost, Origin: plan.Context, Key: "--devices-per-host"}
	}
}
