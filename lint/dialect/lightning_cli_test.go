package dialect

import (
	"testing"

	"github.com/trainlint/trainlint/lint/corpustest"
	"github.com/trainlint/trainlint/lint/doc"
)

// TestLightningCLIMatchesShape holds lightningCLI (the rules' quick test) to shapeOf's variant
// on every corpus file and on files made to be LightningCLI in each way shapeOf knows.
func TestLightningCLIMatchesShape(t *testing.T) {
	cli, checked := 0, 0
	check := func(name string, d *doc.Document) {
		root := cliBase(d.Root)
		if !isMap(root) {
			return
		}
		checked++
		want := shapeOf(d, root).variant == "lightning-cli"
		if want {
			cli++
		}
		if got := lightningCLI(root); got != want {
			t.Errorf("%s: lightningCLI = %v, shapeOf says %v", name, got, want)
		}
	}
	eachCorpusDoc(t, func(e corpustest.Entry, d *doc.Document) { check(e.Path, d) })
	for _, src := range []string{
		"seed_everything: 1\n",
		"model:\n  class_path: m.M\n",
		"a:\n  b:\n    c:\n      init_args: 1\n",
		"a:\n  b:\n    c:\n      d:\n        e:\n          class_path: x\n", // too deep for shapeOf
		"trainer:\n  max_epochs: 1\n",
		"defaults:\n  - _self_\n_target_: lightning.Trainer\n",
	} {
		check(src, doc.Parse("x.yaml", []byte(src), doc.YAML, doc.Limits{}))
	}
	if cli < 5 || checked < 300 {
		t.Errorf("only %d files checked, %d of them LightningCLI", checked, cli)
	}
}
