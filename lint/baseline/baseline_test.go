package baseline_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/baseline"
	"github.com/trainlint/trainlint/lint/doc"
)

// flagKeys is a test rule: it reports every top-level key whose name starts with "bad", at the
// key, so findings follow the text when lines move.
var flagKeys = &lint.Rule{
	Code: "TL999", Name: "bad-key", Title: "Bad key", Category: lint.CatStructure, Severity: lint.Warning,
	Check: func(p *lint.Pass) {
		var walk func(n *doc.Node)
		walk = func(n *doc.Node) {
			if n == nil {
				return
			}
			if strings.HasPrefix(n.Key, "bad") {
				p.Report(lint.Finding{Node: n, AtKey: true, Message: "key " + n.Key + " is bad"})
			}
			for _, c := range n.Children {
				walk(c)
			}
		}
		walk(p.Doc.Root)
	},
}

// lintTexts runs the real engine (real YAML parser) on files given as path, text pairs.
func lintTexts(t *testing.T, kv ...string) *lint.Result {
	t.Helper()
	var files []lint.File
	for i := 0; i < len(kv); i += 2 {
		files = append(files, lint.File{Path: kv[i], Text: []byte(kv[i+1])})
	}
	return lint.Lint(files, []*lint.Rule{flagKeys}, lint.Options{})
}

func roundTrip(t *testing.T, res *lint.Result) *baseline.Baseline {
	t.Helper()
	var buf bytes.Buffer
	if err := baseline.Write(&buf, res); err != nil {
		t.Fatal(err)
	}
	b, err := baseline.Read(&buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return b
}

func keysOf(ds []lint.Diagnostic) string {
	var ks []string
	for _, d := range ds {
		ks = append(ks, d.File+":"+d.Key)
	}
	return strings.Join(ks, " ")
}

const before = `model: gpt2
bad_lr: 1
trainer:
  bad_seed: 3
  steps: 10
`

func TestBaselineAcceptsTodaysFindings(t *testing.T) {
	res := lintTexts(t, "a.yaml", before, "b.yaml", "bad_x: 1\n")
	if len(res.Diagnostics) != 3 {
		t.Fatalf("setup: %d findings: %s", len(res.Diagnostics), keysOf(res.Diagnostics))
	}
	b := roundTrip(t, res)
	if got := baseline.Filter(res, b); len(got.Diagnostics) != 0 {
		t.Errorf("the run the baseline was written from still reports %s", keysOf(got.Diagnostics))
	}
}

func TestBaselineLinesMoving(t *testing.T) {
	b := roundTrip(t, lintTexts(t, "a.yaml", before))
	// Lines inserted above and between the findings, and the findings' lines themselves edited.
	moved := "# a comment\n\nnew_key: 1\n" + strings.Replace(strings.Replace(before, "bad_lr: 1", "bad_lr: 2  # tuned", 1), "trainer:\n", "trainer:\n  warmup: 5\n", 1)
	res := lintTexts(t, "./a.yaml", moved)
	if len(res.Diagnostics) != 2 || res.Diagnostics[0].Line == 2 {
		t.Fatalf("setup: %+v", res.Diagnostics)
	}
	if got := baseline.Filter(res, b); len(got.Diagnostics) != 0 {
		t.Errorf("moved findings reported as new: %s", keysOf(got.Diagnostics))
	}
	if f := baseline.Fixed(res, b); len(f) != 0 {
		t.Errorf("moved findings counted as fixed: %+v", f)
	}
}

func TestBaselineNewFindingShows(t *testing.T) {
	b := roundTrip(t, lintTexts(t, "a.yaml", before))
	res := lintTexts(t, "a.yaml", before+"bad_new: 1\n", "c.yaml", "bad_lr: 1\n")
	got := baseline.Filter(res, b)
	if keysOf(got.Diagnostics) != "a.yaml:bad_new c.yaml:bad_lr" {
		t.Errorf("new findings: %q", keysOf(got.Diagnostics))
	}
	// Filter copies: the input keeps all findings, and survivors keep the full run's fingerprints.
	if len(res.Diagnostics) != 4 {
		t.Errorf("Filter modified its input")
	}
	full := lint.Fingerprints(res.Diagnostics)
	for _, d := range got.Diagnostics {
		found := false
		for i, o := range res.Diagnostics {
			if o.File == d.File && o.Key == d.Key && full[i] == d.Fingerprint {
				found = true
			}
		}
		if !found {
			t.Errorf("%s:%s: fingerprint %q is not the full run's", d.File, d.Key, d.Fingerprint)
		}
	}
}

func TestBaselineFixedFindingDisappears(t *testing.T) {
	b := roundTrip(t, lintTexts(t, "a.yaml", before, "b.yaml", "bad_x: 1\n"))
	fixed := strings.Replace(before, "bad_lr: 1\n", "", 1)
	res := lintTexts(t, "a.yaml", fixed)
	if got := baseline.Filter(res, b); len(got.Diagnostics) != 0 {
		t.Errorf("after a fix: %s", keysOf(got.Diagnostics))
	}
	f := baseline.Fixed(res, b)
	if len(f) != 1 || f[0].Key != "bad_lr" {
		t.Errorf("fixed entries %+v, want bad_lr only (b.yaml was not linted)", f)
	}
}

// Matching counts: two identical findings accepted, three now: one is new.
func TestBaselineCountAware(t *testing.T) {
	mk := func(n int) *lint.Result {
		res := lint.NewResult()
		for i := 0; i < n; i++ {
			res.Diagnostics = append(res.Diagnostics, lint.Diagnostic{Code: "TL501", Rule: "r", File: "x.yaml", Key: "data.seed", Line: 10 * (i + 1), Column: 1, Message: "same"})
		}
		return res
	}
	b := roundTrip(t, mk(2))
	if len(b.Entries) != 2 || b.Entries[0].Fingerprint == b.Entries[1].Fingerprint {
		t.Fatalf("identical findings need distinct entries: %+v", b.Entries)
	}
	if got := baseline.Filter(mk(3), b); len(got.Diagnostics) != 1 {
		t.Errorf("2 accepted, 3 now: %d new, want 1", len(got.Diagnostics))
	}
	// Internal errors (trainlint bugs) are never accepted.
	ie := mk(1)
	ie.Diagnostics[0].Code = lint.InternalError.Code
	if bi := roundTrip(t, ie); len(bi.Entries) != 0 || len(baseline.Filter(ie, bi).Diagnostics) != 1 {
		t.Errorf("an internal error was baselined")
	}
	if got := baseline.Filter(mk(1), b); len(got.Diagnostics) != 0 {
		t.Errorf("2 accepted, 1 now: %d new, want 0", len(got.Diagnostics))
	}
	if f := baseline.Fixed(mk(1), b); len(f) != 1 {
		t.Errorf("2 accepted, 1 now: %d fixed, want 1", len(f))
	}
}

func TestBaselineFile(t *testing.T) {
	res := lintTexts(t, "z.yaml", "bad_b: 1\nbad_a: 2\n", "a.yaml", before)
	var buf bytes.Buffer
	if err := baseline.Write(&buf, res); err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Version int
		Entries []map[string]any
	}
	if err := json.Unmarshal(buf.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if raw.Version != baseline.Version || len(raw.Entries) != 4 {
		t.Fatalf("file: %s", buf.String())
	}
	var order []string
	for _, e := range raw.Entries {
		if _, has := e["line"]; has {
			t.Errorf("entry records a line: %v", e)
		}
		order = append(order, e["file"].(string)+":"+e["key"].(string))
	}
	if strings.Join(order, " ") != "a.yaml:bad_lr a.yaml:trainer.bad_seed z.yaml:bad_a z.yaml:bad_b" {
		t.Errorf("entries not sorted: %v", order)
	}
	// Writing twice gives the same bytes.
	var again bytes.Buffer
	baseline.Write(&again, res)
	if again.String() != buf.String() {
		t.Errorf("baseline output is not deterministic")
	}
	// An empty run writes an empty, readable baseline.
	var empty bytes.Buffer
	baseline.Write(&empty, lint.NewResult())
	if !strings.Contains(empty.String(), `"entries": []`) {
		t.Errorf("empty baseline: %s", empty.String())
	}
	for _, bad := range []string{`{"version": 2, "entries": []}`, `{"version": 1, "entries": [{"rule": "x"}]}`, `not json`, `{"version": 1, "entries": [], "extra": 1}`} {
		if _, err := baseline.Read(strings.NewReader(bad)); err == nil {
			t.Errorf("Read accepted %s", bad)
		}
	}
}
