package dialect

import (
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
)

func TestEvalCond(t *testing.T) {
	d := doc.Parse("x.yaml", []byte("a: 1\nb: false\nc: steps\nd: []\ne: \"\"\nf: no\ng: ${x}\nh: null\n"), doc.YAML, doc.Limits{})
	for _, c := range []struct {
		cond     string
		want, ok bool
	}{
		{"T:a", true, true},
		{"T:b", false, true},
		{"T:d", false, true}, // empty list
		{"T:e", false, true}, // empty string
		{"T:f", false, true}, // PyYAML reads no as False
		{"T:zz", false, true},
		{"N:h", true, true},
		{"N:zz", true, true},
		{"N:a", false, true},
		{"E:c=steps", true, true},
		{"E:c=epoch|no", false, true},
		{"E:b=false", true, true},
		{"E:a=true", false, true},
		{"&(T:a,!(T:b))", true, true},
		{"&(T:a,T:b)", false, true},
		{"|(T:b,T:c)", true, true},
		{"&(T:a,!(|(T:b,E:c=steps)))", false, true},
		{"T:g", false, false}, // decided later
		{"&(T:a", false, false},
		{"X:a", false, false},
	} {
		got, _, ok := EvalCond(c.cond, d.Root)
		if got != c.want || ok != c.ok {
			t.Errorf("EvalCond(%q) = %v, %v; want %v, %v", c.cond, got, ok, c.want, c.ok)
		}
	}
}

func TestCondText(t *testing.T) {
	for cond, want := range map[string]string{
		"&(T:warmup_steps,T:warmup_ratio)":                   "warmup_steps and warmup_ratio are both set",
		"&(T:streaming,!(T:max_steps))":                      "streaming is set without max_steps",
		"&(N:datasets,N:pretraining_dataset)":                "neither datasets nor pretraining_dataset is set",
		"&(E:save_strategy=best,!(T:metric_for_best_model))": "save_strategy is \"best\" without metric_for_best_model",
		"!(N:rpo_alpha)":                                     "rpo_alpha is set",
	} {
		if got := condText(cond); got != want {
			t.Errorf("condText(%q) = %q, want %q", cond, got, want)
		}
	}
}

func TestCondTextDefaults(t *testing.T) {
	for cond, want := range map[string]string{
		"!(|(E:finetuning_type=lora|oft|freeze|full,A:finetuning_type))":                                                `finetuning_type is none of "lora", "oft", "freeze", "full"`,
		"&(!(|(E:finetuning_type=lora,A:finetuning_type)),T:use_dora)":                                                  `use_dora is set, finetuning_type is not "lora"`,
		"&(E:stage=ppo,|(E:reward_model_type=lora,A:reward_model_type),!(|(E:finetuning_type=lora,A:finetuning_type)))": `stage is "ppo", reward_model_type is "lora", finetuning_type is not "lora"`,
	} {
		if got := condText(cond); got != want {
			t.Errorf("condText(%q) = %q, want %q", cond, got, want)
		}
	}
}
