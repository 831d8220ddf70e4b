package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/corpustest"
)

// corpusFindings lints every corpus file with only the given rules and returns their findings
// as "path:line:col CODE message" lines.
func corpusFindings(t *testing.T, codes ...string) []string {
	t.Helper()
	dir, entries := corpustest.Manifest(t)
	var out []string
	n := 0
	for _, e := range entries {
		text, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		n++
		_, diags := lint.LintFile(lint.File{Path: e.Path, Text: text}, All(), lint.Options{Select: codes})
		for _, d := range diags {
			out = append(out, d.File+":"+itoa(d.Line)+":"+itoa(d.Column)+" "+d.Code+" "+d.Message)
		}
	}
	if n < 100 {
		t.Fatalf("read only %d corpus files", n)
	}
	return out
}

// TestKeyRulesOnCorpus: real configs are not flagged by the key rules. The shared corpus has
// no renamed key, no misspelt Trainer key and no invalid value (checked by hand: its Trainer
// files carry TRL and alignment-handbook script arguments, which must not be taken for typos).
func TestKeyRulesOnCorpus(t *testing.T) {
	for _, l := range corpusFindings(t, "TL003", "TL004", "TL005") {
		t.Errorf("real config flagged: %s", l)
	}
}

// TestKeyRulesSeeCorpusTypos makes sure the corpus test above is not vacuous: the same Trainer
// files, each with one misspelt key and one bad value appended, are flagged.
func TestKeyRulesSeeCorpusTypos(t *testing.T) {
	dir, entries := corpustest.Manifest(t)
	checked := 0
	for _, e := range entries {
		if e.Label != "hf-trainer" || e.Format != "yaml" {
			continue
		}
		text, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(string(text), "\n") {
			text = append(text, '\n')
		}
		text = append(text, "gradient_acumulation_steps: 2\nlogging_strategy: step\n"...)
		info, diags := lint.LintFile(lint.File{Path: e.Path, Text: text}, All(), lint.Options{Select: []string{"TL003", "TL004"}})
		if info.Framework != "huggingface" {
			continue
		}
		checked++
		got := map[string]bool{}
		for _, d := range diags {
			got[d.Code] = true
		}
		if !got["TL003"] || !got["TL004"] {
			t.Errorf("%s: appended typo and bad value not both found: %v", e.Path, got)
		}
	}
	if checked < 10 {
		t.Errorf("only %d Trainer files checked", checked)
	}
}

func TestNearestKey(t *testing.T) {
	known := []string{"per_device_train_batch_size", "per_device_eval_batch_size", "seed", "bf16", "fp16", "eval_steps", "save_steps", "use_cpu", "hub_token"}
	for _, c := range []struct{ in, want string }{
		{"per_device_eval_batchsize", "per_device_eval_batch_size"},
		{"per-device-train-batch-size", "per_device_train_batch_size"},
		{"PER_DEVICE_TRAIN_BATCH_SIZE", "per_device_train_batch_size"},
		{"seeds", "seed"},
		{"eval_setps", "eval_steps"}, // a swap is one edit
		{"bf15", "bf16"},             // one edit from bf16, two from fp16
		{"use_peft", ""},             // a TRL key, three edits from use_cpu
		{"eos_token", ""},            // a TRL key, three edits from hub_token
		{"beta", ""},
		{"bp16", ""}, // one edit from bf16 and from fp16: a tie is no answer
	} {
		got, ok := nearestKey(c.in, known)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("nearestKey(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}
