package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/testfs"
)

// Which classes can never fit: no training_step of their own or their bases' down to
// LightningModule, or one that only raises NotImplementedError (after a docstring); a class
// with a training_step, or built on a class the repository does not define, may train.
func TestUntrainableModules(t *testing.T) {
	classes := map[string][]moduleClass{}
	moduleClasses(`import lightning.pytorch as pl

class Base(pl.LightningModule):
    def validation_step(self, batch):
        return None

class Scorer(Base):
    """Scores predictions."""
    def test_step(self, batch):
        pass

class Decoder(pl.LightningModule):
    def training_step(self, *args):
        """Not for training."""
        raise NotImplementedError("Decoder can not be trained.")

class Trainable(Base):
    def training_step(self, batch, idx):
        loss = self(batch)
        return loss

class FromLibrary(SomeLibraryModule):
    pass

class Mixed(Scorer, Trainable):
    pass
`, classes)
	want := map[string]bool{"Base": true, "Scorer": true, "Decoder": true}
	if got := untrainable(classes); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// A LightningCLI config whose model cannot fit only validates, tests or predicts: no
// checkpoint finding; with a model that trains, the finding stays.
func TestNoFitModelConfig(t *testing.T) {
	const module = "import lightning.pytorch as pl\n\nclass Scorer(pl.LightningModule):\n    def validation_step(self, batch):\n        return None\n\n" +
		"class Learner(pl.LightningModule):\n    def training_step(self, batch, idx):\n        return self(batch)\n"
	for _, tc := range []struct {
		model string
		want  int
	}{{"pkg.modules.Scorer", 0}, {"pkg.modules.Learner", 1}} {
		root := t.TempDir()
		testfs.Write(t, root, map[string]string{
			".git/HEAD":          "ref: refs/heads/main\n",
			"pkg/__init__.py":    "",
			"pkg/modules.py":     module,
			"configs/model.yaml": "trainer:\n  accelerator: auto\n  devices: 1\nmodel:\n  class_path: " + tc.model + "\n",
		})
		_, res, _ := checkJSON(t, "--select", "TL301", filepath.Join(root, "configs"))
		if len(res.Diagnostics) != tc.want {
			t.Errorf("%s: findings %+v", tc.model, res.Diagnostics)
		}
	}
}

// A hostile file (tens of thousands of nested classes and training_step defs inside an
// unclosed docstring) is read in linear time: this would take minutes if each class or def
// read to the end of the file.
func TestModuleClassesLinear(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		b.WriteString(strings.Repeat(" ", i%200) + "class C(LightningModule):\n")
	}
	b.WriteString("    def training_step(self):\n        \"\"\"\n")
	for i := 0; i < 20000; i++ {
		b.WriteString("    def training_step(self):\n")
	}
	classes := map[string][]moduleClass{}
	moduleClasses(b.String(), classes)
	if len(classes["C"]) != 20000 {
		t.Errorf("%d definitions of C", len(classes["C"]))
	}
}
