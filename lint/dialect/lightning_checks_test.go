package dialect

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
)

// TestLightningChecksInTable runs every Lightning check on a file that fails it: a check finds
// nothing when the table lacks its row (function and if test) at the version, so a check whose
// row the source no longer has, or whose test text drifted from the extraction, fails here.
// Each case also runs at a version where the source has no such check, when there is one.
func TestLightningChecksInTable(t *testing.T) {
	kb := KnowledgeOf("lightning")
	if kb == nil {
		t.Fatal("no lightning knowledge")
	}
	cli := func(trainer string) string { return "seed_everything: 1\ntrainer:\n" + trainer }
	mc := func(args string) string {
		return cli("  callbacks:\n    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n" + args)
	}
	for _, c := range []struct {
		src, want string
		startup   bool
		absentAt  string // a version whose source makes no such check ("" = none tested)
		at        string // the version the check is made at ("" = the newest)
	}{
		{src: cli("  limit_test_batches: 2.5\n"), want: `"limit_test_batches" is "2.5"`},
		{src: cli("  overfit_batches: -1\n"), want: `"overfit_batches" is "-1"`},
		{src: cli("  val_check_interval: \"1:00\"\n"), want: `a duration must be "DD:HH:MM:SS"`, absentAt: "2.5.0"},
		{src: "_target_: lightning.pytorch.trainer.Trainer\nval_check_interval: \"01:00:00:00\"\n", want: "not text", at: "2.5.0", absentAt: "2.6.0"},
		{src: cli("  check_val_every_n_epoch: 1.5\n"), want: `"check_val_every_n_epoch" is "1.5"`},
		{src: cli("  check_val_every_n_epoch: null\n  val_check_interval: 0.25\n"), want: "with check_val_every_n_epoch null", startup: true},
		{src: cli("  reload_dataloaders_every_n_epochs: -2\n"), want: "an integer >= 0"},
		{src: cli("  gradient_clip_algorithm: clip\n"), want: `"value" or "norm"`},
		{src: "_target_: lightning.pytorch.Trainer\ngradient_clip_val: \"0.5\"\n", want: "an int or a float"},
		{src: cli("  precision: half\n"), want: `"precision" is "half"`},
		{src: cli("  precision: 16-true\n"), want: `"precision" is "16-true"`, at: "2.0.0", absentAt: "2.1.0"},
		{src: cli("  fast_dev_run: -3\n"), want: `"fast_dev_run" is "-3"`},
		{src: cli("  barebones: true\n  logger: true\n"), want: "logger is \"true\" with barebones true", startup: true},
		{src: cli("  barebones: true\n  profiler: simple\n"), want: "profiler is \"simple\" with barebones true", startup: true},
		{src: cli("  barebones: true\n  num_sanity_val_steps: 2\n"), want: "num_sanity_val_steps", startup: true},
		{src: cli("  max_steps: many\n"), want: `"max_steps" is "many": Trainer declares an integer`},
		{src: mc("        mode: best\n"), want: `ModelCheckpoint takes "min" or "max"`},
		{src: mc("        save_top_k: -5\n"), want: "ModelCheckpoint takes -1"},
		{src: mc("        every_n_train_steps: -1\n"), want: `"every_n_train_steps" is "-1"`},
		{src: mc("        every_n_epochs: -1\n"), want: `"every_n_epochs" is "-1"`},
		{src: mc("        every_n_epochs: 2\n        train_time_interval: {hours: 1}\n"), want: "one save trigger", startup: true},
		{src: mc("        monitor: null\n        save_top_k: 5\n"), want: "without a monitor", startup: true},
		// Hydra passes a string on; the first training batch calls its total_seconds()
		// (Ryan-Rong-24/catk's callbacks/model_checkpoint.yaml); 1.4.0 introduced the argument.
		{src: "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  train_time_interval: \"03:00:00\"\n", want: `"train_time_interval" is "03:00:00": Hydra's instantiate passes it on as it is`, absentAt: "1.3.8"},
		{src: "early:\n  _target_: pytorch_lightning.callbacks.EarlyStopping\n  mode: mn\n", want: `EarlyStopping takes "min" or "max"`},
		{src: "early:\n  _target_: pytorch_lightning.callbacks.EarlyStopping\n  patience: 2\n", want: "no monitor", startup: true},
	} {
		d := doc.Parse("x.yaml", []byte(c.src), doc.YAML, doc.Limits{})
		find := func(target string) bool {
			for _, p := range lightningProblems(d, lightningKeyMaps(d), kb, target) {
				if strings.Contains(p.Message, c.want) && p.Startup == c.startup {
					return true
				}
			}
			return false
		}
		if !find(c.at) {
			t.Errorf("%q: no problem %q at %q", c.src, c.want, c.at)
		}
		if c.absentAt != "" && find(c.absentAt) {
			t.Errorf("%q: problem %q at %s, whose source makes no such check", c.src, c.want, c.absentAt)
		}
	}
}

// TestLightningLimitsUnderInterpolatedDebugFlags: an interpolated fast_dev_run may replace the
// limits, so they are not judged.
func TestLightningLimitsUnderInterpolatedDebugFlags(t *testing.T) {
	kb := KnowledgeOf("lightning")
	d := doc.Parse("x.yaml", []byte("_target_: lightning.pytorch.Trainer\nfast_dev_run: ${debug}\nlimit_val_batches: 2.5\n"), doc.YAML, doc.Limits{})
	if ps := lightningProblems(d, lightningKeyMaps(d), kb, ""); len(ps) != 0 {
		t.Errorf("problems %+v under an interpolated fast_dev_run", ps)
	}
}

// TestHydraDefaultsNotAnArgument: a trainer group file's defaults list is Hydra's, not the
// Trainer's. A removed argument (gpus) is skipped only under a config's trainer:, where
// deprecated-key reads it (trainer.gpus); at a group file's root (SectionRoot: deprecated-key
// reads there only what the target still has) and in a Trainer deeper down it is not.
func TestHydraDefaultsNotAnArgument(t *testing.T) {
	d := doc.Parse("x.yaml", []byte("defaults:\n  - default\n_target_: lightning.pytorch.Trainer\nstrategy: ddp\n"), doc.YAML, doc.Limits{})
	ms := lightningKeyMaps(d)
	if len(ms) != 1 || !ms[0].Skip["defaults"] || ms[0].Skip["gpus"] || lightningTrainerRoot(d) != "trainer" {
		t.Fatalf("maps %+v: want one Trainer map that skips defaults and not the removed gpus", ms)
	}
	d = doc.Parse("x.yaml", []byte("pl:\n  t:\n    _target_: lightning.pytorch.Trainer\n    strategy: ddp\n"), doc.YAML, doc.Limits{})
	if ms = lightningKeyMaps(d); len(ms) != 1 || ms[0].Skip["gpus"] || lightningTrainerRoot(d) != "" {
		t.Fatalf("maps %+v: want one nested Trainer map that does not skip the removed gpus", ms)
	}
	d = doc.Parse("x.yaml", []byte("trainer:\n  _target_: lightning.pytorch.Trainer\n  strategy: ddp\n"), doc.YAML, doc.Limits{})
	if ms = lightningKeyMaps(d); len(ms) != 1 || !ms[0].Skip["gpus"] {
		t.Fatalf("maps %+v: want one Trainer map under trainer: that skips the removed gpus", ms)
	}
}

// TestLightningTimeIntervalTyped: LightningCLI parses train_time_interval as the timedelta it
// declares (a string it cannot read is the type check's), and a timedelta written for Hydra's
// instantiate or an interpolation is no string: none is reported as one Hydra passes on.
func TestLightningTimeIntervalTyped(t *testing.T) {
	kb := KnowledgeOf("lightning")
	for _, src := range []string{
		"seed_everything: 1\ntrainer:\n  callbacks:\n    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        train_time_interval: \"1:00:00\"\n",
		"model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  train_time_interval:\n    _target_: datetime.timedelta\n    hours: 3\n",
		"model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  train_time_interval: ${interval}\n",
		"model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  train_time_interval: null\n",
	} {
		d := doc.Parse("x.yaml", []byte(src), doc.YAML, doc.Limits{})
		for _, p := range lightningProblems(d, lightningKeyMaps(d), kb, "") {
			if strings.Contains(p.Message, "passes it on as it is") {
				t.Errorf("%q: %s", src, p.Message)
			}
		}
	}
}

// TestLightningKeyMapsOpen: user classes and Hydra maps without a Lightning _target_ stay open.
func TestLightningKeyMapsOpen(t *testing.T) {
	for _, c := range []struct{ src, section string }{
		{"seed_everything: 1\ntrainer:\n  class_path: my.Trainer\n  init_args:\n    anything: 1\n", "Trainer"},
		{"seed_everything: 1\ntrainer:\n  callbacks:\n    - class_path: my.callbacks.ModelCheckpoint\n      init_args:\n        x: 1\n", "ModelCheckpoint"},
		{"defaults:\n  - trainer: default\ntrainer:\n  max_epochs: 3\n", "Trainer"},
		{"model_checkpoint:\n  dirpath: x\n  monitor: val/acc\n", "ModelCheckpoint"},
		{"_target_: src.models.Trainer\nfoo: 1\n", "Trainer"},
	} {
		d := doc.Parse("x.yaml", []byte(c.src), doc.YAML, doc.Limits{})
		for _, m := range lightningKeyMaps(d) {
			if m.Node != nil && m.Section == c.section {
				t.Errorf("%q: %s map at %s is closed", c.src, m.Section, m.Node.Path())
			}
		}
	}
}
