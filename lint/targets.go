package lint

import "github.com/trainlint/trainlint/lint/dialect"

// dialectContext is the launch context and target versions the options give a dialect.
func (o Options) dialectContext() dialect.Context {
	ctx := dialect.Context{Hosts: o.Hosts, DevicesPerHost: o.DevicesPerHost, Mapping: o.Mapping, Trainer: o.Trainer,
		ModelCallbacks: o.ModelCallbacks, RepoNames: o.RepoNames, RepoReads: o.RepoReads, RepoPackages: o.RepoPackages, RepoImports: o.RepoImports, CheckpointClasses: o.CheckpointClasses, NoFit: o.NoFit, LaunchKeys: o.LaunchKeys, NoFitModels: o.NoFitModels, NoValModels: o.NoValModels, CLIDefaults: o.CLIDefaults, CLINoCheckpointing: o.CLINoCheckpointing,
		CheckoutRecipes: o.CheckoutRecipes}
	if len(o.Targets) > 0 {
		ctx.Targets = make(map[string]string, len(o.Targets))
		for pkg, t := range o.Targets {
			ctx.Targets[pkg] = t.Version
		}
	}
	return ctx
}
