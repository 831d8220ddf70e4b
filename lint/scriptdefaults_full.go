//go:build !trainlint_lite

package lint

import (
	"reflect"
	"strings"

	"github.com/trainlint/trainlint/lint/plan"
)

// forgetScriptDefaults drops from p the facts only a framework default gave whose key the
// repository's scripts read with a default of their own (Options.ScriptDefaults): such a file
// is read by the project's code (brineylab's robertaconfig-train.py builds TrainingArguments
// with save_steps=train_config.get("save_steps", 50000)), so the framework's default is not the
// run's. A key matches by its full dotted path or its last part (eval_section.get("max_iters",
// 20) for eval.max_iters). Explicit and derived facts stay, but for the keys of sets, which a
// script assigns before use (NeMo-Aligner's train_reward_model.py computes
// cfg.model.global_batch_size), matched by their full path whatever gave the fact.
func forgetScriptDefaults(p *plan.Plan, keys, sets map[string]bool) {
	if p == nil || len(keys) == 0 && len(sets) == 0 {
		return
	}
	var gone []string
	forgetIn(reflect.ValueOf(p).Elem(), func(f reflect.Value, key string, o plan.Origin) bool {
		last := key[strings.LastIndexByte(key, '.')+1:]
		if sets[key] || o == plan.Default && (keys[key] || keys[last]) {
			gone = append(gone, key)
			return true
		}
		return false
	})
	if len(gone) == 0 {
		return
	}
	// A fact derived from one of them (a global batch from the per-device default) goes too:
	// its note names what it was computed from.
	forgetIn(reflect.ValueOf(p).Elem(), func(f reflect.Value, key string, o plan.Origin) bool {
		if o != plan.Derived {
			return false
		}
		note := f.FieldByName("Note").String()
		for _, g := range gone {
			if strings.Contains(note, g) {
				return true
			}
		}
		return false
	})
}

var originType = reflect.TypeOf(plan.Origin(0))

// forgetIn walks the plan's structs and zeroes each fact (a struct with an Origin, a Key and a
// Note) that drop picks.
func forgetIn(v reflect.Value, drop func(f reflect.Value, key string, o plan.Origin) bool) {
	if v.Kind() != reflect.Struct {
		return
	}
	if o, k, n := v.FieldByName("Origin"), v.FieldByName("Key"), v.FieldByName("Note"); o.IsValid() && o.Type() == originType && k.IsValid() && k.Kind() == reflect.String && n.IsValid() && n.Kind() == reflect.String {
		if v.CanSet() && drop(v, k.String(), o.Interface().(plan.Origin)) {
			v.Set(reflect.Zero(v.Type()))
		}
		return
	}
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.CanSet() {
			forgetIn(f, drop)
		}
	}
}
