package rules

import (
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// The thresholds are options: the same file is a warning, info or nothing depending on them, and
// a suppression comment silences it.
func TestWarmupTooLongOptions(t *testing.T) {
	src := "model_name_or_path: Qwen/Qwen2.5-0.5B\nper_device_train_batch_size: 8\nmax_steps: 1000\nwarmup_steps: 80\noutput_dir: x\n"
	run := func(text string, opts map[string]any) []lint.Diagnostic {
		o := lint.Options{}
		if opts != nil {
			o.RuleOptions = map[string]map[string]any{"warmup-too-long": opts}
		}
		_, diags := lint.LintFile(lint.File{Path: "sft.yaml", Text: []byte(text)}, []*lint.Rule{WarmupTooLong}, o)
		var out []lint.Diagnostic
		for _, d := range diags {
			if d.Code == "TL702" {
				out = append(out, d)
			}
		}
		return out
	}
	if d := run(src, nil); len(d) != 1 || d[0].Severity != lint.Info {
		t.Fatalf("default thresholds: want one info finding (8 %% > 5 %%), got %+v", d)
	}
	if d := run(src, map[string]any{"warning_fraction": 0.07}); len(d) != 1 || d[0].Severity != lint.Warning {
		t.Fatalf("warning_fraction 0.07: want a warning, got %+v", d)
	}
	if d := run(src, map[string]any{"info_fraction": 0.09}); len(d) != 0 {
		t.Fatalf("info_fraction 0.09: want nothing, got %+v", d)
	}
	sup := "model_name_or_path: Qwen/Qwen2.5-0.5B\nper_device_train_batch_size: 8\nmax_steps: 1000\nwarmup_steps: 300  # trainlint: disable=warmup-too-long -- long warmup on purpose\noutput_dir: x\n"
	if d := run(sup, nil); len(d) != 0 {
		t.Fatalf("suppressed: want nothing, got %+v", d)
	}
}

// A constant or reduce_lr_on_plateau schedule takes no warmup (the scheduler is built before the
// warmup length is read), so a long warmup there is no finding; constant_with_warmup warms up.
func TestWarmupTooLongScheduleWithoutWarmup(t *testing.T) {
	for _, c := range []struct {
		sched string
		want  int
	}{{"constant", 0}, {"reduce_lr_on_plateau", 0}, {"\"constant\"", 0}, {"constant_with_warmup", 1}, {"cosine", 1}} {
		for _, warm := range []string{"warmup_steps: 300\n", "warmup_ratio: 0.3\n"} {
			src := "model_name_or_path: Qwen/Qwen2.5-0.5B\nper_device_train_batch_size: 8\nmax_steps: 1000\n" + warm + "lr_scheduler_type: " + c.sched + "\noutput_dir: x\n"
			_, diags := lint.LintFile(lint.File{Path: "sft.yaml", Text: []byte(src)}, []*lint.Rule{WarmupTooLong}, lint.Options{})
			n := 0
			for _, d := range diags {
				if d.Code == "TL702" {
					n++
				}
			}
			if n != c.want {
				t.Errorf("%s, %s: %d TL702 findings, want %d", c.sched, warm, n, c.want)
			}
		}
	}
}

// A warmup_steps below 1 is a fraction of the training steps from transformers 5.0.0 on; before
// it, warmup_steps is an int that get_warmup_steps takes as it is (0.1 is a tenth of one step,
// and warmup_ratio is then ignored). The fraction is judged for a version known to read it, and
// with no version (the newest release), in a Trainer file and in a LLaMA-Factory one alike (both
// hand it to TrainingArguments); not for a git install or a pre-release of 5.0.
func TestWarmupTooLongFractionByVersion(t *testing.T) {
	files := map[string]string{
		"sft.yaml": "model_name_or_path: Qwen/Qwen2.5-0.5B\nper_device_train_batch_size: 8\nnum_train_epochs: 3\nwarmup_steps: 0.2\noutput_dir: x\n",
		"lf.yaml":  "model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\nstage: sft\ndo_train: true\nfinetuning_type: lora\ndataset: identity\ntemplate: llama3\noutput_dir: saves/x\nnum_train_epochs: 3.0\nwarmup_steps: 0.2\n",
	}
	for name, src := range files {
		for version, want := range map[string]int{"": 1, "4.57.6": 0, "4.40.1": 0, "git": 0, "5.0.0rc1": 0, "5.0.0": 1, "5.2.0": 1} {
			o := lint.Options{}
			if version != "" {
				o.Targets = map[string]lint.Target{"transformers": {Version: version, Source: "requirements.txt pins " + version}}
			}
			_, diags := lint.LintFile(lint.File{Path: name, Text: []byte(src)}, []*lint.Rule{WarmupTooLong}, o)
			n := 0
			for _, d := range diags {
				if d.Code == "TL702" {
					n++
					if d.Message != "warmup_steps 0.2 spends 20 % of training in warmup" {
						t.Errorf("%s, transformers %q: message %q", name, version, d.Message)
					}
				}
			}
			if n != want {
				t.Errorf("%s, transformers %q: %d TL702 findings, want %d", name, version, n, want)
			}
		}
	}
}
