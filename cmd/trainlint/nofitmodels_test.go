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

// Which classes never validate: no validation_step (a def or an assignment) of their own or
// their bases' down to LightningModule; a class built on one the repository does not define
// may. With every module of the repository so, allModules is added.
func TestUnvalidatedModules(t *testing.T) {
	classes := map[string][]moduleClass{}
	moduleClasses(`import lightning.pytorch as pl

class DDPM(pl.LightningModule):
    def training_step(self, batch, idx):
        return self(batch)

class Small(DDPM):
    pass

class Checked(DDPM):
    validation_step = DDPM.training_step

class Evaluated(pl.LightningModule):
    def validation_step(self, batch, idx):
        pass

class FromLibrary(SomeLibraryModule):
    pass
`, classes)
	want := map[string]bool{"DDPM": true, "Small": true}
	got := unvalidated(classes)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if withAllModules(classes, got)[allModules] {
		t.Errorf("some modules validate: %v", got)
	}
	// A string at column 0 inside a method, and a CRLF file's blank lines, close no class: the
	// validation_step after them is the class's.
	more := map[string][]moduleClass{}
	moduleClasses("class A(pl.LightningModule):\n    def training_step(self, b, i):\n        return 1\n\n    def describe(self):\n        return \"\"\"\nA: a probe.\n\"\"\"\n\n    def validation_step(self, b, i):\n        pass\n", more)
	moduleClasses("class B(pl.LightningModule):\r\n    def training_step(self, b, i):\r\n        return 1\r\n\r\n    def validation_step(self, b, i):\r\n        pass\r\n", more)
	if got := unvalidated(more); got != nil {
		t.Errorf("a dedented string or CRLF lines hid a validation_step: %v", got)
	}
	only := map[string][]moduleClass{"DDPM": classes["DDPM"], "Small": classes["Small"], "Helper": {{bases: "object"}}}
	if !withAllModules(only, unvalidated(only))[allModules] {
		t.Errorf("no module validates: %v", unvalidated(only))
	}
}

// A LightningCLI config whose model never validates runs no evaluation during training
// (TL204, not TL301's "the best one can be deleted": nothing ranks the checkpoints); a trainer
// file beside a model file gets no TL301 either when no module of the repository validates.
// A one-epoch run (a post-hoc calibration) or a config with no Trainer settings gets neither.
func TestUnvalidatedModelConfig(t *testing.T) {
	const module = "import lightning.pytorch as pl\n\nclass DDPM(pl.LightningModule):\n    def training_step(self, batch, idx):\n        return self(batch)\n"
	root := t.TempDir()
	testfs.Write(t, root, map[string]string{
		".git/HEAD":               "ref: refs/heads/main\n",
		"pkg/__init__.py":         module,
		"configs/full.yaml":       "trainer:\n  max_epochs: 10\nmodel:\n  class_path: pkg.DDPM\n",
		"configs/trainers/a.yaml": "devices: 1\nmax_epochs: 10\ncallbacks:\n  class_path: pkg.SampleImages\n",
		"configs/calibrate.yaml":  "trainer:\n  max_epochs: 1\nmodel:\n  class_path: pkg.DDPM\n", // one pass: no claim
		"configs/model_only.yaml": "model:\n  class_path: pkg.DDPM\n",                            // no Trainer settings
	})
	_, res, _ := checkJSON(t, "--select", "TL204,TL301", filepath.Join(root, "configs"))
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, filepath.Base(d.File)+" "+d.Code)
	}
	if strings.Join(got, "|") != "full.yaml TL204" {
		t.Errorf("findings %v", got)
	}
}

// A LightningCLI config whose model cannot fit only validates, tests or predicts: no
// checkpoint finding; with a model that trains, the finding stays.
func TestNoFitModelConfig(t *testing.T) {
	const module = "import lightning.pytorch as pl\n\nclass Scorer(pl.LightningModule):\n    def validation_step(self, batch):\n        return None\n\n" +
		"class Learner(pl.LightningModule):\n    def training_step(self, batch, idx):\n        return self(batch)\n    validation_step = training_step\n"
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
