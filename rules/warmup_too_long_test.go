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
