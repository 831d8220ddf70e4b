//go:build !trainlint_lite

package lint

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/plan"
)

// forgetScriptDefaults drops from p the facts only a framework default gave whose key the
// repository's scripts read with a default of their own (Options.ScriptDefaults): such a file
// is read by the project's code (brineylab's robertaconfig-train.py builds TrainingArguments
// with save_steps=train_config.get("save_steps", 50000)), so the framework's default is not the
// run's. A key matches by its full dotted path or its last part (eval_section.get("max_iters",
// 20) for eval.max_iters). Explicit and derived facts stay, but for the keys of sets, which a
// script assigns before use (NeMo-Aligner's train_reward_model.py computes
// cfg.model.global_batch_size), matched by their full path whatever gave the fact. A default
// the script writes as the framework's own value keeps the fact: torchtune's dev recipe reading
// cfg_dataloader.get("num_workers", 0) loads in the training process as the stock recipes do.
// The keys of scales, which a script scales in place (cfg.batch_size //= num_gpus), go the same
// way unless their value is 0, which the scaling keeps.
func forgetScriptDefaults(p *plan.Plan, keys map[string]string, sets, scales, rewrites map[string]bool) {
	if p == nil || len(keys) == 0 && len(sets) == 0 && len(scales) == 0 {
		return
	}
	if len(rewrites) > 0 {
		// A value a script naming this file replaces never reaches the framework, so neither
		// does what it refuses in it (AblateIt's sweep.py turns save_strategy epoch with a
		// fractional save_steps into steps before axolotl reads the file); a refused key still
		// does. An assignment of a script that may be handed any file (a conditional debug
		// override) leaves the refusal: the file may be launched as it is.
		kept := p.Rejections[:0]
		for _, r := range p.Rejections {
			if r.AtKey || !rewrites[r.Key] {
				kept = append(kept, r)
			}
		}
		p.Rejections = kept
	}
	var gone []string
	forgetIn(reflect.ValueOf(p).Elem(), func(f reflect.Value, key string, o plan.Origin) bool {
		last := key[strings.LastIndexByte(key, '.')+1:]
		d, ok := keys[key]
		if !ok {
			d, ok = keys[last]
		}
		if sets[key] || scales[key] && !zeroValue(f.FieldByName("Value")) || o == plan.Default && ok && !sameDefault(f.FieldByName("Value"), d) {
			gone = append(gone, key)
			return true
		}
		return false
	})
	// A fact derived from one of them (a global batch from the per-device default) goes too:
	// its note names what it was computed from.
	forgetDerivedFrom(p, gone)
}

// zeroValue reports a fact's value that scaling keeps: a number 0 or false.
func zeroValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64, reflect.Float32, reflect.Bool:
		return v.IsZero()
	}
	return false
}

// forgetRepoRunners drops from p what a framework's own loop or runner would do where the
// repository runs the file with its own (ownLoop, Options.OwnRunner).
func forgetRepoRunners(p *plan.Plan, dl *dialect.Dialect, o Options) {
	if p == nil {
		return
	}
	if ownLoop(dl, o) {
		// The project's loop evaluates as it likes (finetune-hf-vits and parler-tts evaluate
		// every eval_steps under do_eval), not as eval_strategy tells the Trainer. Saving stays:
		// such loops rotate save_total_limit checkpoints as the Trainer does (parler-tts).
		p.Eval = plan.Eval{}
	}
	if o.OwnRunner && p.Framework == "mmengine" {
		// The project's runner (HFTrainer's AccelerateRunner, which reads cfg.optimizer) takes
		// the config from Config.fromfile: MMEngine's Runner, and its start-up checks, never
		// run. The config's keys keep MMEngine's meaning, which such runners copy.
		kept := p.Rejections[:0]
		for _, r := range p.Rejections {
			if !strings.HasPrefix(r.Source, "Runner.") {
				kept = append(kept, r)
			}
		}
		p.Rejections = kept
	}
}

// ownLoop reports a Hugging Face arguments file in a repository whose own loop runs them
// (Options.OwnLoop: finetune-hf-vits evaluates every eval_steps when do_eval is set, with no
// eval_strategy), so when and what the Trainer would evaluate is not the run's. The arguments
// are still TrainingArguments: their keys, defaults and deprecations hold.
func ownLoop(d *dialect.Dialect, o Options) bool {
	return o.OwnLoop && d != nil && d.Name == "huggingface"
}

// sameDefault reports whether a script's default as written (d) is the fact's value v: an
// integer, a boolean (True, False) or a quoted string; anything else is not known to be.
func sameDefault(v reflect.Value, d string) bool {
	switch v.Kind() {
	case reflect.Int:
		n, err := strconv.Atoi(d)
		return err == nil && int64(n) == v.Int()
	case reflect.Bool:
		return d == "True" && v.Bool() || d == "False" && !v.Bool()
	case reflect.String:
		s, err := strconv.Unquote(d)
		if err != nil && len(d) >= 2 && d[0] == '\'' && d[len(d)-1] == '\'' {
			s, err = d[1:len(d)-1], nil
		}
		return err == nil && s == v.String()
	}
	return false
}
