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
