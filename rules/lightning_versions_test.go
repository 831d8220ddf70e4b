package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// TestLightningByVersion: Lightning's argument maps are judged at the version the repository
// pins: model_registry (Trainer, 2.6.0 on) and a "DD:HH:MM:SS" val_check_interval (2.6.0 on) are
// refused by 2.5.0 and accepted by the newest release read; the message names the pin.
func TestLightningByVersion(t *testing.T) {
	src := "seed_everything: 1\ntrainer:\n  val_check_interval: \"01:00:00:00\"\n  model_registry: reg\n  callbacks:\n    - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n      init_args:\n        monitor: val_loss\n        save_last: link\n"
	run := func(targets map[string]lint.Target) []string {
		_, diags := lint.LintFile(lint.File{Path: "cli.yaml", Text: []byte(src)}, All(), lint.Options{Select: []string{"TL003", "TL004", "TL011"}, Targets: targets})
		var out []string
		for _, d := range diags {
			out = append(out, d.Code+" "+d.Message)
		}
		return out
	}
	if got := run(nil); len(got) != 0 {
		t.Errorf("newest: want no findings, got %q", got)
	}
	got := strings.Join(run(map[string]lint.Target{"lightning": {Version: "2.5.0", Source: "requirements.txt pins 2.5.0"}}), "\n")
	for _, want := range []string{
		`TL003 "model_registry" is not a Trainer argument: LightningCLI refuses it at start-up (Lightning 2.5.0, requirements.txt pins 2.5.0)`,
		`TL004 "val_check_interval" is "01:00:00:00": Trainer declares an integer or a number or null (Lightning 2.5.0, requirements.txt pins 2.5.0)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("at 2.5.0: want %q in\n%s", want, got)
		}
	}
	// save_last: link is a Literal of ModelCheckpoint from 2.2.0; 2.1 declares Optional[bool].
	got = strings.Join(run(map[string]lint.Target{"lightning": {Version: "2.1.3", Source: "uv.lock pins 2.1.3"}}), "\n")
	if !strings.Contains(got, `TL004 "save_last" is "link"`) {
		t.Errorf("at 2.1.3: want save_last link refused in\n%s", got)
	}
}

// TestOlderThanEveryTagRead: a pin older than every release the knowledge table was read at
// (Lightning 0.10.0 against 1.0.0 and later) leaves the table's facts unknown there, so no
// argument or check is claimed; the hand list's removals in 2.0 still read as working there,
// except an argument the table has only from a later release (ipus, 1.4.0), which is not said to
// work; with no pin, the newest release refuses track_grad_norm and auto_lr_find. A 1.x pin is read at its own release (HazyResearch/safari pins 1.8.6): both are
// Trainer arguments there (src/pytorch_lightning/trainer/trainer.py@1.8.6), and text in
// val_check_interval reaches _determine_batch_limits, which compares it with 0 (a TypeError:
// src/pytorch_lightning/trainer/setup.py:91,122@1.8.6).
func TestOlderThanEveryTagRead(t *testing.T) {
	src := "_target_: lightning.pytorch.Trainer\ntrack_grad_norm: -1\nauto_lr_find: false\nmax_epochs: 3\nval_check_interval: \"01:00:00:00\"\nipus: null\n"
	run := func(targets map[string]lint.Target) string {
		_, diags := lint.LintFile(lint.File{Path: "configs/trainer/full.yaml", Text: []byte(src)}, All(),
			lint.Options{Framework: "lightning", Select: []string{"TL003", "TL004", "TL005", "TL011"}, Targets: targets})
		var out []string
		for _, d := range diags {
			out = append(out, d.Code+" "+d.Message)
		}
		return strings.Join(out, "\n")
	}
	if got := run(nil); !strings.Contains(got, `TL003 "track_grad_norm" is not a Trainer argument`) || strings.Contains(got, "TL005") {
		t.Errorf("newest: want track_grad_norm refused in\n%s", got)
	}
	got0 := run(map[string]lint.Target{"lightning": {Version: "0.10.0", Source: "requirements.txt pins 0.10.0"}})
	for _, l := range strings.Split(got0, "\n") {
		if l != "" && !strings.HasPrefix(l, "TL005 ") || strings.Contains(l, "ipus") {
			t.Errorf("at 0.10.0 (older than every tag read): want only the hand list's removals, got\n%s", got0)
		}
	}
	if !strings.Contains(got0, `TL005 "track_grad_norm" is removed in Lightning 2.0; requirements.txt pins 0.10.0, where it still works`) {
		t.Errorf("at 0.10.0: want track_grad_norm read as still working, got\n%s", got0)
	}
	got := run(map[string]lint.Target{"lightning": {Version: "1.8.6", Source: "requirements.txt pins 1.8.6"}})
	if want := `TL005 "track_grad_norm" is removed in Lightning 2.0; requirements.txt pins 1.8.6, where it still works: when moving to Lightning 2.0, log lightning.pytorch.utilities.grad_norm in the LightningModule's on_before_optimizer_step
TL005 "auto_lr_find" is removed in Lightning 2.0; requirements.txt pins 1.8.6, where it still works: when moving to Lightning 2.0, use Tuner(trainer).lr_find() or the LearningRateFinder callback
TL004 "val_check_interval" is "01:00:00:00": this Lightning version takes a number of batches or a fraction of an epoch, not text (Lightning 1.8.6, requirements.txt pins 1.8.6)
TL005 "ipus" is removed in Lightning 2.0; requirements.txt pins 1.8.6, where it still works: when moving to Lightning 2.0, use devices (with accelerator "ipu")`; got != want {
		t.Errorf("at 1.8.6: want only\n%s\ngot\n%s", want, got)
	}
	// A later minor release than the newest read (2.6.5) may have changed anything: silent; so
	// may a later patch release, since Lightning's patch releases add arguments (2.5.1's
	// model_registry, 2.5.3's save_on_exception).
	for _, v := range []string{"2.7.0", "2.6.9"} {
		if got := run(map[string]lint.Target{"lightning": {Version: v, Source: "uv.lock pins " + v}}); got != "" {
			t.Errorf("at %s (after every tag read): want no findings, got\n%s", v, got)
		}
	}
	if got := run(map[string]lint.Target{"lightning": {Version: "2.6.5", Source: "uv.lock pins 2.6.5"}}); !strings.Contains(got, `"track_grad_norm" is not a Trainer argument`) {
		t.Errorf("at 2.6.5 (the newest read): want track_grad_norm refused in\n%s", got)
	}
}

// TestRenameNotOfferedBeforeRemoval: Lightning 1.8.6's Trainer has replace_sampler_ddp and no
// use_distributed_sampler (src/pytorch_lightning/trainer/trainer.py @1.8.6; the rename came in
// 2.0), so with 1.8.6 pinned the advice is for the move to 2.0 and no rename is offered (LightningCLI
// 1.8.6 would refuse the new key); with no pin the rename is safe.
func TestRenameNotOfferedBeforeRemoval(t *testing.T) {
	src := "trainer:\n  max_epochs: 3\n  replace_sampler_ddp: false\nmodel:\n  class_path: m.M\n"
	run := func(targets map[string]lint.Target) []lint.Diagnostic {
		_, diags := lint.LintFile(lint.File{Path: "cli.yaml", Text: []byte(src)}, All(),
			lint.Options{Framework: "lightning", Select: []string{"TL005"}, Targets: targets})
		return diags
	}
	d := run(map[string]lint.Target{"lightning": {Version: "1.8.6", Source: "pyproject.toml pins 1.8.6"}})
	if len(d) != 1 || d[0].Fix != nil || !strings.Contains(d[0].Message, `when moving to Lightning 2.0, use "use_distributed_sampler"`) {
		t.Errorf("at 1.8.6: want advice for 2.0 and no fix, got %+v", d)
	}
	d = run(nil)
	if len(d) != 1 || d[0].Fix == nil || d[0].Fix.Applicability != lint.Safe || d[0].Fix.Edits[0].NewText != "use_distributed_sampler" {
		t.Errorf("newest: want a safe rename, got %+v", d)
	}
	// Both keys set: at 1.8.6 the advice is still the move to 2.0, not to delete the one key
	// 1.8.6 has.
	src = strings.Replace(src, "  replace_sampler_ddp: false\n", "  replace_sampler_ddp: false\n  use_distributed_sampler: false\n", 1)
	d = run(map[string]lint.Target{"lightning": {Version: "1.8.6", Source: "pyproject.toml pins 1.8.6"}})
	if len(d) != 1 || strings.Contains(d[0].Message, "delete") || !strings.Contains(d[0].Message, "when moving to Lightning 2.0") {
		t.Errorf("both keys at 1.8.6: %+v", d)
	}
	// gpus beside devices: the Trainer has devices from 1.4.0, so at 1.9.4 the advice is to
	// delete gpus already, and before 1.4 it is for the move.
	src = "trainer:\n  max_epochs: 3\n  gpus: 2\n  devices: 2\nmodel:\n  class_path: m.M\n"
	for v, want := range map[string]string{"1.9.4": `"gpus" is deprecated (removed in Lightning 2.0; requirements.txt pins 1.9.4, where it still works) and "devices" is also set: delete "gpus"`,
		"1.5.10": `"gpus" is removed in Lightning 2.0; requirements.txt pins 1.5.10, where it still works and "devices" is also set: delete "gpus"`,
		"1.3.8":  "when moving to Lightning 2.0, use devices"} {
		d = run(map[string]lint.Target{"lightning": {Version: v, Source: "requirements.txt pins " + v}})
		if len(d) != 1 || !strings.Contains(d[0].Message, want) {
			t.Errorf("gpus and devices at %s: want %q, got %+v", v, want, d)
		}
	}
	// devices written null (BEATs_on_ESC50's fine_tune/config.yaml): gpus is the device count,
	// so the advice is the rename, with no fix (it would write devices twice).
	src = "trainer:\n  max_epochs: 3\n  gpus: '1'\n  devices: null\nmodel:\n  class_path: m.M\n"
	d = run(map[string]lint.Target{"lightning": {Version: "1.9.0", Source: "requirements.txt pins 1.9.0"}})
	if len(d) != 1 || strings.Contains(d[0].Message, "delete") || !strings.Contains(d[0].Message, "devices") || d[0].Fix != nil {
		t.Errorf("gpus beside devices: null: %+v", d)
	}
	// Alone at 1.5.10: devices is there (1.4) but gpus draws no warning before 1.7
	// (accelerator_connector.py:446 @1.7.0), so it is not called deprecated; the rename is
	// offered, since the target has devices.
	src = "trainer:\n  max_epochs: 3\n  gpus: 2\nmodel:\n  class_path: m.M\n"
	d = run(map[string]lint.Target{"lightning": {Version: "1.5.10", Source: "environment.yml pins 1.5.10"}})
	if len(d) != 1 || d[0].Message != `"gpus" is removed in Lightning 2.0; environment.yml pins 1.5.10, where it still works: use devices (with accelerator "gpu" or "auto")` || d[0].Fix == nil {
		t.Errorf("gpus at 1.5.10: %+v", d)
	}
}

// TestRemovedInTwoAt194: aim-qmul/sdx23-aimless pins Lightning 1.9.4 and its trainer sections
// set arguments Lightning 2.0 removed from Trainer.__init__: each is noted with the way out, as
// what still works at 1.9.4 (info), and refused as removed at the newest release (TL005, not an
// unknown key).
func TestRemovedInTwoAt194(t *testing.T) {
	keys := []string{"track_grad_norm", "auto_lr_find", "auto_scale_batch_size", "amp_backend", "amp_level", "move_metrics_to_cpu", "multiple_trainloader_mode"}
	src := "trainer:\n  max_epochs: 3\n  track_grad_norm: 2\n  auto_lr_find: false\n  auto_scale_batch_size: false\n  amp_backend: native\n  amp_level: O2\n  move_metrics_to_cpu: false\n  multiple_trainloader_mode: max_size_cycle\nmodel:\n  class_path: m.M\n"
	for _, tc := range []struct {
		targets map[string]lint.Target
		sev     lint.Severity
		says    string
	}{
		{map[string]lint.Target{"lightning": {Version: "1.9.4", Source: "requirements.txt pins 1.9.4"}}, lint.Info, "where it still works: when moving to Lightning 2.0, "},
		{nil, lint.Warning, "(removed in Lightning 2.0): "},
	} {
		_, diags := lint.LintFile(lint.File{Path: "cli.yaml", Text: []byte(src)}, All(),
			lint.Options{Framework: "lightning", Select: []string{"TL003", "TL005"}, Targets: tc.targets})
		if len(diags) != len(keys) {
			t.Errorf("%v: want one finding for each of %v, got %+v", tc.targets, keys, diags)
			continue
		}
		for i, d := range diags {
			if d.Code != "TL005" || d.Severity != tc.sev || !strings.HasPrefix(d.Message, `"`+keys[i]+`"`) || !strings.Contains(d.Message, tc.says) {
				t.Errorf("%v: %s: %s %s %s", tc.targets, keys[i], d.Code, d.Severity, d.Message)
			}
		}
	}
}

// TestDictKwargsAreArguments: jsonargparse (v4.10.0 on; v4.40.1 _typehints.py
// adapt_class_type) moves each dict_kwargs key that names a constructor parameter into
// init_args and passes the rest on as keyword arguments, so EarlyStopping's monitor and
// ModelCheckpoint's settings written there are given (genbio-ai/ModelGenerator); a key there
// that is no parameter reaches ModelCheckpoint.__init__, which takes no **kwargs (Lightning
// 2.5.0 model_checkpoint.py): a TypeError at start-up, as an unknown init_args key is
// LightningCLI's refusal.
func TestDictKwargsAreArguments(t *testing.T) {
	src := "trainer:\n  max_steps: 10000\n  val_check_interval: 1000\n  callbacks:\n" +
		"  - class_path: lightning.pytorch.callbacks.ModelCheckpoint\n    dict_kwargs:\n      monitor: val_acc\n      mode: max\n      every_n_train_steps: 700\n      extra_thing: 1\n" +
		"  - class_path: lightning.pytorch.callbacks.EarlyStopping\n    init_args:\n      patiense: 3\n    dict_kwargs:\n      monitor: val_acc\n      mode: max\n" +
		"model:\n  class_path: m.M\n"
	_, diags := lint.LintFile(lint.File{Path: "fit.yaml", Text: []byte(src)}, All(), lint.Options{Framework: "lightning"})
	var got []string
	for _, d := range diags {
		got = append(got, d.Code+" "+itoa(d.Line)+" "+d.Message)
	}
	all := strings.Join(got, "\n")
	for _, bad := range []string{"TL011", "TL301"} {
		if strings.Contains(all, bad) {
			t.Errorf("%s reported:\n%s", bad, all)
		}
	}
	for _, want := range []string{`TL003 13 "patiense" is not an EarlyStopping argument: LightningCLI refuses it`,
		`TL003 10 "extra_thing" is not a ModelCheckpoint argument: passed on unchecked, it stops the constructor at start-up`, "TL303 9 trainer.callbacks[0].dict_kwargs.every_n_train_steps 700 is not a multiple of trainer.val_check_interval 1000"} {
		if !strings.Contains(all, want) {
			t.Errorf("want %q in:\n%s", want, all)
		}
	}
}

// TestCheckpointSubclassNoDefault: the Trainer adds ModelCheckpoint() only when no callback is
// a Checkpoint (Lightning 2.6.0 _configure_checkpoint_callbacks), so a project's own
// checkpoint callback (torch-uncertainty's TUClsCheckpoint) leaves retention unknown, while
// other callbacks leave the default in place.
func TestCheckpointSubclassNoDefault(t *testing.T) {
	at := func(cb string) int {
		src := "seed_everything: 1\ntrainer:\n  max_epochs: 75\n  callbacks:\n    - class_path: " + cb + "\n    - class_path: lightning.pytorch.callbacks.LearningRateMonitor\nmodel:\n  lr: 0.1\n"
		_, diags := lint.LintFile(lint.File{Path: "train.yaml", Text: []byte(src)}, All(), lint.Options{Framework: "lightning", Select: []string{"TL301"}})
		return len(diags)
	}
	if n := at("mypkg.callbacks.TUClsCheckpoint"); n != 0 {
		t.Errorf("a checkpoint callback of the project's own: %d TL301, want 0", n)
	}
	if n := at("mypkg.callbacks.PrintMetrics"); n != 1 {
		t.Errorf("no checkpoint callback: %d TL301, want the default ModelCheckpoint's 1", n)
	}
}

// TestLightningOneX: a repository that pins a Lightning 1.x release is judged at that release,
// as a 2.x pin is at its own. checkpoint_callback, progress_bar_refresh_rate and weights_summary
// are Trainer arguments to 1.6.5 and gone from 1.7.0 (pytorch_lightning/trainer/trainer.py@1.6.5,
// src/pytorch_lightning/trainer/trainer.py@1.7.0), so at 1.9.5 they are reported removed, with
// the way out (deprecated-key), and 1.6.5 takes them; a typo is refused by both. devices is an
// argument from 1.4.0.
func TestLightningOneX(t *testing.T) {
	src := "seed_everything: 1\ntrainer:\n  checkpoint_callback: true\n  progress_bar_refresh_rate: 1\n  weights_summary: top\n  max_epochs: 10\n  devices: 1\n  foo_bar: 2\nmodel:\n  lr: 0.1\n"
	run := func(src, v string) []string {
		_, diags := lint.LintFile(lint.File{Path: "config.yaml", Text: []byte(src)}, All(),
			lint.Options{Framework: "lightning", Select: []string{"TL003", "TL004", "TL011"},
				Targets: map[string]lint.Target{"lightning": {Version: v, Source: "requirements.txt pins " + v}}})
		var out []string
		for _, d := range diags {
			out = append(out, d.Code+" "+d.Message)
		}
		return out
	}
	refused := func(key, v string) string {
		return `TL003 "` + key + `" is not a Trainer argument: LightningCLI refuses it at start-up (Lightning ` + v + `, requirements.txt pins ` + v + `)`
	}
	got := strings.Join(run(src, "1.9.5"), "\n")
	if got != refused("foo_bar", "1.9.5") {
		t.Errorf("at 1.9.5: want only foo_bar refused as unknown, got\n%s", got)
	}
	_, diags := lint.LintFile(lint.File{Path: "config.yaml", Text: []byte(src)}, All(), lint.Options{Framework: "lightning", Select: []string{"TL005"},
		Targets: map[string]lint.Target{"lightning": {Version: "1.9.5", Source: "requirements.txt pins 1.9.5"}}})
	var deps []string
	for _, d := range diags {
		deps = append(deps, d.Message)
	}
	if want := []string{
		`"checkpoint_callback" is deprecated (removed in Lightning 1.7; requirements.txt pins 1.9.5): use enable_checkpointing with the same true or false (delete it where null)`,
		`"progress_bar_refresh_rate" is deprecated (removed in Lightning 1.7; requirements.txt pins 1.9.5): pass a TQDMProgressBar callback with refresh_rate (enable_progress_bar: false for 0)`,
		`"weights_summary" is deprecated (removed in Lightning 1.7; requirements.txt pins 1.9.5): use enable_model_summary: false for null, or a ModelSummary callback with max_depth`,
	}; strings.Join(deps, "\n") != strings.Join(want, "\n") {
		t.Errorf("at 1.9.5: want removed arguments with their ways out\n%s\ngot\n%s", strings.Join(want, "\n"), strings.Join(deps, "\n"))
	}
	for _, v := range []string{"1.6.5", "1.4.0"} {
		if got := run(src, v); len(got) != 1 || !strings.HasPrefix(got[0], refused("foo_bar", v)) {
			t.Errorf("at %s: want only foo_bar refused, got %q", v, got)
		}
	}
	// Before 1.4.0 devices is no argument; before 1.3.0 there is no LightningCLI
	// (pytorch_lightning/utilities/cli.py is not in 1.2.10's tree): nothing is claimed of a
	// LightningCLI-shaped file there.
	if got := run(src, "1.3.8"); len(got) != 2 || !strings.Contains(strings.Join(got, "\n"), refused("devices", "1.3.8")) {
		t.Errorf("at 1.3.8: want devices and foo_bar refused, got %q", got)
	}
	if got := run(src, "1.2.10"); len(got) != 0 {
		t.Errorf("at 1.2.10 (no LightningCLI): want no findings, got %q", got)
	}
	// EarlyStopping's monitor is required from 1.6.0 (src/pytorch_lightning/callbacks/early_stopping.py
	// @1.6.0; None at 1.4.0-1.5.10); an unknown mode is refused from 1.2.0, with "auto" allowed
	// in 1.2.x (early_stopping.py:102-104 @1.2.10); 1.0.0-1.1.8 fell back to "auto" with a
	// warning (:99-106 @1.1.8).
	es := "_target_: pytorch_lightning.callbacks.EarlyStopping\npatience: 3\nmode: maximum\n"
	for v, want := range map[string]string{
		"1.6.5":  `TL004 "mode" is "maximum": EarlyStopping takes "min" or "max"`,
		"1.5.10": `TL004 "mode" is "maximum": EarlyStopping takes "min" or "max"`,
		"1.2.10": `TL004 "mode" is "maximum": EarlyStopping takes "min" or "max" or "auto"`,
		"1.1.8":  "",
	} {
		got := strings.Join(run(es, v), "\n")
		if want != "" && !strings.Contains(got, want) || want == "" && got != "" {
			t.Errorf("EarlyStopping at %s: want %q, got\n%s", v, want, got)
		}
		if hasMonitor := strings.Contains(got, "no monitor"); hasMonitor != (v == "1.6.5") {
			t.Errorf("EarlyStopping at %s: required monitor reported %v, got\n%s", v, hasMonitor, got)
		}
	}
	// "auto" is a mode in 1.2.x and not from 1.3.0; ModelCheckpoint refuses the same way.
	if got := run(strings.Replace(es, "maximum", "auto", 1), "1.2.10"); len(got) != 0 {
		t.Errorf("EarlyStopping mode auto at 1.2.10: %q", got)
	}
	mc := "_target_: pytorch_lightning.callbacks.ModelCheckpoint\nmonitor: val_loss\nmode: maximum\n"
	if got := strings.Join(run(mc, "1.2.10"), "\n"); !strings.Contains(got, `TL004 "mode" is "maximum": ModelCheckpoint takes "min" or "max" or "auto"`) {
		t.Errorf("ModelCheckpoint at 1.2.10: %s", got)
	}
	// gradient_clip_algorithm: refused as written from 1.3.0 (training_trick_connector.py@1.3.0),
	// lower-cased from 1.4.9; none of it before 1.3.0.
	gc := "_target_: pytorch_lightning.Trainer\nmax_epochs: 1\ngradient_clip_algorithm: %s\n"
	for _, c := range []struct {
		v, val string
		bad    bool
	}{{"1.3.8", "nrom", true}, {"1.3.8", "Norm", true}, {"1.4.9", "Norm", false}, {"1.4.0", "norm", false}, {"1.2.10", "nrom", false}, {"1.5.0", "nrom", true}} {
		got := strings.Join(run(fmt.Sprintf(gc, c.val), c.v), "\n")
		if strings.Contains(got, `TL004 "gradient_clip_algorithm" is`) != c.bad {
			t.Errorf("gradient_clip_algorithm %s at %s: want refused %v, got\n%s", c.val, c.v, c.bad, got)
		}
	}
}

// TestRemovedArgumentNotYetThere: the hand-typed "removed in Lightning 2.0" arguments came in
// 1.x releases the table has read (ipus in 1.4.0: pytorch_lightning/trainer/trainer.py@1.4.0):
// at 1.3.8 ipus is no Trainer argument yet, so LightningCLI refuses it, and no deprecation says
// it "still works" there; at 1.4.0 it does.
func TestRemovedArgumentNotYetThere(t *testing.T) {
	src := "seed_everything: 1\ntrainer:\n  max_epochs: 3\n  ipus: 1\nmodel:\n  class_path: m.M\n"
	run := func(v string) []string {
		_, diags := lint.LintFile(lint.File{Path: "cli.yaml", Text: []byte(src)}, All(),
			lint.Options{Framework: "lightning", Select: []string{"TL003", "TL005"},
				Targets: map[string]lint.Target{"lightning": {Version: v, Source: "requirements.txt pins " + v}}})
		var out []string
		for _, d := range diags {
			out = append(out, d.Code+" "+d.Message)
		}
		return out
	}
	if got := run("1.3.8"); len(got) != 1 || !strings.HasPrefix(got[0], `TL003 "ipus" is not a Trainer argument: LightningCLI refuses it at start-up (Lightning 1.3.8, requirements.txt pins 1.3.8)`) {
		t.Errorf("at 1.3.8: want ipus refused as unknown, got %q", got)
	}
	if got := run("1.4.0"); len(got) != 1 || !strings.HasPrefix(got[0], `TL005 "ipus" is removed in Lightning 2.0; requirements.txt pins 1.4.0, where it still works`) {
		t.Errorf("at 1.4.0: want the deprecation, got %q", got)
	}
}

// TestBoundTargetTakesOlderArguments: code importing pytorch_lightning.utilities.cli with no pin
// (shenmishajing/dual_cervix_registration) runs Lightning <1.9, but which release is unknown:
// flush_logs_every_n_steps is a Trainer argument to 1.6.5 (gone in 1.7.0), so it is not claimed
// removed, while a key no release up to the bound took is still refused. A cap in a requirements
// file installs the newest release below it, 1.8.6, which has neither (the removed argument
// reported by deprecated-key, with its way out).
func TestBoundTargetTakesOlderArguments(t *testing.T) {
	src := "seed_everything: 1\ntrainer:\n  flush_logs_every_n_steps: 100\n  foo_bar: 2\nmodel:\n  class_path: m.M\n"
	for _, tc := range []struct {
		tg   lint.Target
		want string
	}{
		{lint.Target{Version: "1.8.999999", Shown: "<1.9", AtMost: true, Source: "the repository's Python imports pytorch_lightning.utilities.cli, so Lightning <1.9"}, "foo_bar"},
		{lint.Target{Version: "1.8.999999", Shown: "<1.9", Source: "requirements.txt requires pytorch-lightning<1.9"}, "flush_logs_every_n_steps foo_bar"},
	} {
		_, diags := lint.LintFile(lint.File{Path: "cli.yaml", Text: []byte(src)}, All(),
			lint.Options{Framework: "lightning", Select: []string{"TL003", "TL005"}, Targets: map[string]lint.Target{"lightning": tc.tg}})
		var got []string
		for _, d := range diags {
			key, _, _ := strings.Cut(strings.TrimPrefix(d.Message, "\""), "\"")
			got = append(got, key)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: want %q, got %+v", tc.tg.Source, tc.want, diags)
		}
	}
}

// TestRemovedBeforeTwo: Trainer arguments Lightning removed before 2.0 (1.6.5's
// Trainer.__init__ has checkpoint_callback, weights_summary, terminate_on_nan and
// progress_bar_refresh_rate, 1.7.0's has none of them; 1.7.7's has weights_save_path, 1.8.0's
// not: cmd/trainlint-knowledge/testdata/lightning.json). kingyiusuen/image-to-latex pins 1.3.8,
// where they still work: each is noted as what a later release removes, with the way out its
// 1.5 deprecation names. With no pin they are removed, still with no fix: checkpoint_callback:
// null would become an enable_checkpointing: null that 1.5-1.9 refuse, and beside
// enable_checkpointing: true a false one is what 1.5-1.6 obey, so neither a rename nor "delete
// the old key" is offered (the session 72 review).
func TestRemovedBeforeTwo(t *testing.T) {
	src := "trainer:\n  max_epochs: 3\n  checkpoint_callback: true\n  weights_summary: top\n  terminate_on_nan: true\n  progress_bar_refresh_rate: 20\n  weights_save_path: out\n"
	run := func(targets map[string]lint.Target) []lint.Diagnostic {
		_, diags := lint.LintFile(lint.File{Path: "conf/config.yaml", Text: []byte(src)}, All(),
			lint.Options{Framework: "lightning", Select: []string{"TL003", "TL005"}, Targets: targets})
		return diags
	}
	d := run(map[string]lint.Target{"lightning": {Version: "1.3.8", Source: "requirements.txt pins 1.3.8"}})
	var got []string
	for _, x := range d {
		got = append(got, x.Code+" "+x.Severity.String()+" "+x.Message)
		if x.Fix != nil {
			t.Errorf("at 1.3.8: no rename may be offered, got a fix on %q", x.Message)
		}
	}
	for _, want := range []string{
		`TL005 info "checkpoint_callback" is removed in Lightning 1.7; requirements.txt pins 1.3.8, where it still works: when moving to Lightning 1.7, use enable_checkpointing with the same true or false (delete it where null)`,
		`TL005 info "weights_summary" is removed in Lightning 1.7`,
		`TL005 info "terminate_on_nan" is removed in Lightning 1.7`,
		`TL005 info "progress_bar_refresh_rate" is removed in Lightning 1.7`,
		`TL005 info "weights_save_path" is removed in Lightning 1.8`,
	} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("at 1.3.8: want %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	if len(d) != 5 {
		t.Errorf("at 1.3.8: want 5 findings, got %d:\n%s", len(d), strings.Join(got, "\n"))
	}
	src = strings.Replace(src, "  checkpoint_callback: true\n", "  checkpoint_callback: false\n  enable_checkpointing: true\n", 1)
	for _, x := range run(map[string]lint.Target{"lightning": {Version: "1.6.5", Source: "requirements.txt pins 1.6.5"}}) {
		if strings.Contains(x.Message, "checkpoint_callback") && strings.Contains(x.Message, "delete \"checkpoint_callback\"") {
			t.Errorf("at 1.6.5 beside enable_checkpointing: true, deleting checkpoint_callback: false turns checkpointing on: %q", x.Message)
		}
	}
	d = run(nil)
	if len(d) != 5 {
		t.Fatalf("newest: want 5 findings, got %+v", d)
	}
	for _, x := range d {
		if x.Code != "TL005" || x.Severity != lint.Warning {
			t.Errorf("newest: want a TL005 warning, got %s %s %q", x.Code, x.Severity, x.Message)
		}
		if x.Fix != nil {
			t.Errorf("newest: no fix may be offered (checkpoint_callback null would become an enable_checkpointing null 1.x refuses), got %+v", x)
		}
	}
}
