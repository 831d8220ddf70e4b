package rules

import (
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
)

// UnresolvedReference reports ${a.b} interpolations that name no key of the file.
var UnresolvedReference = register(&lint.Rule{
	Code: "TL006", Name: "unresolved-reference", Category: lint.CatStructure, Severity: lint.Info,
	Title:     "An interpolation names a key the file does not have",
	NeedsPlan: true,
	Rationale: `Frameworks that load their configs with OmegaConf let a value name another key: ` + "`${trainer.devices}`" + `,
` + "`${model.train_ds.batch_size}`" + `. When the named key is not in the file, OmegaConf fails the moment the
value is read, unless the key is added on the command line or by another file. trainlint cannot
follow such a value either, so every check that needs it ran with an unknown value and stayed
silent.

Only references into a section the file defines are checked: ` + "`${paths.output_dir}`" + ` in a Hydra
group file that has no ` + "`paths`" + ` section names the composed config, and files with a Hydra
` + "`defaults`" + ` list are composed with other files, so neither is reported; nor are resolvers (` + "`${oc.env:RANK}`" + `, ` + "`${now:...}`" + `) and relative references (` + "`${.key}`" + `).`,
	Fix: `Define the key in the file, correct a misspelt path, or, when the value really comes from elsewhere
(a command-line override, a composed file), suppress the finding on that line.`,
	Check: checkUnresolvedReference,
})

func checkUnresolvedReference(p *lint.Pass) {
	d := dialect.ByName(p.Plan.Framework)
	if d == nil || !d.Interpolates || p.Doc == nil {
		return
	}
	for _, u := range dialect.UnresolvedRefs(p.Doc.Root, d.RefSections...) {
		f := lint.Finding{
			Message: "${" + u.Ref + "} names no key of this file",
			Key:     u.Node.Path().String(),
			Help:    "define " + u.Ref + " in the file or fix the path; checks that need this value ran without it",
		}
		place(&f, u.Node)
		p.Report(f)
	}
}
