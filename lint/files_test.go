package lint_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/rules"
)

// treeFiles reads a rebuilt tree's files into memory, as the browser and the editor hold them.
func treeFiles(t *testing.T, dir string, paths []string) []lint.File {
	t.Helper()
	var out []lint.File
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, lint.File{Path: p, Text: b})
	}
	return out
}

func resultJSON(t *testing.T, r *lint.Result) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLintFilesMatchesTree: lightning-hydra-template's configs held in memory lint exactly as
// the tree on disk does (the same runs, the same findings at the same files and lines).
func TestLintFilesMatchesTree(t *testing.T) {
	tmp, paths := rebuildTree(t, lhtRepo)
	mem := lint.LintFiles(treeFiles(t, tmp, paths), nil, rules.All(), lint.Options{})
	disk := lint.LintTree(compose.FromFS(os.DirFS(tmp)), paths, nil, rules.All(), lint.Options{})
	if got, want := resultJSON(t, mem), resultJSON(t, disk); got != want {
		t.Errorf("in memory:\n%s\non disk:\n%s", got, want)
	}
	for _, d := range mem.Diagnostics {
		if d.File == "configs/callbacks/model_checkpoint.yaml" && d.Code == "TL301" {
			t.Errorf("the group file alone's TL301 is back: %+v", d)
		}
	}
}

// TestLintFilesOverrides: overrides compose the primaries found with them, and a finding from
// a group file the override chose is placed in that file.
func TestLintFilesOverrides(t *testing.T) {
	tmp, paths := rebuildTree(t, lhtRepo)
	files := treeFiles(t, tmp, paths)
	o := lint.Options{Select: []string{"TL101"}}
	if d := find(lint.LintFiles(files, nil, rules.All(), o).Diagnostics, "TL101"); d != nil {
		t.Fatalf("TL101 without the override: %+v", d)
	}
	res := lint.LintFiles(files, []string{"debug=default"}, rules.All(), o)
	d := find(res.Diagnostics, "TL101")
	if d == nil || d.File != "configs/debug/default.yaml" || d.Line != 34 {
		t.Fatalf("TL101 at %+v, want configs/debug/default.yaml:34", d)
	}
}

// TestLintFilesPlain: files with no composition lint as Lint lints them, including paths that
// cannot be part of a tree and a path given twice.
func TestLintFilesPlain(t *testing.T) {
	files := []lint.File{
		{Path: "sft.yaml", Text: []byte("per_device_train_batch_size: 16\nper_device_eval_batch_size: 4\neval_strategy: steps\neval_steps: 100\n")},
		{Path: "/abs/ds.json", Text: []byte(`{"train_batch_size": 32, "zero_optimization": {"stage": 2}}`)},
		{Path: "../up.yaml", Text: []byte("seed: 1\n")},
		{Path: "sft.yaml", Text: []byte("seed: [\n")},
		{Path: "ds.yaml", Text: []byte(`{"train_batch_size": 32, "gradient_accumulation_steps": 1}`), Format: doc.JSON},
		{Path: "zz.yaml", Text: []byte("seed: 2\n")},
	}
	got := resultJSON(t, lint.LintFiles(files, []string{"trainer.devices=8"}, rules.All(), lint.Options{}))
	want := resultJSON(t, lint.Lint(files, rules.All(), lint.Options{}))
	if got != want {
		t.Errorf("LintFiles:\n%s\nLint:\n%s", got, want)
	}
	if !strings.Contains(got, "TL202") || !strings.Contains(got, "parse-error") {
		t.Errorf("expected findings missing: %s", got)
	}
}

// TestMemFS holds the in-memory file system to io/fs's: every file and folder reads and lists
// as testing/fstest's MapFS of the same files does (through compose.FromFS), folders sorted by
// name, and paths io/fs refuses are refused.
func TestMemFS(t *testing.T) {
	files := map[string][]byte{
		"configs/train.yaml":          []byte("defaults:\n  - trainer: gpu\n"),
		"configs/trainer/gpu.yaml":    []byte("devices: 1\n"),
		"configs/trainer/ddp.yaml":    []byte("devices: 4\n"),
		"README.yaml":                 []byte(""),
		"configs/experiment/a/b.yaml": []byte("x: 1\n"),
	}
	m := lint.MemFS(files)
	ref := fstest.MapFS{}
	for p, b := range files {
		ref[p] = &fstest.MapFile{Data: b}
	}
	want := compose.FromFS(ref)
	for _, p := range []string{".", "configs", "configs/trainer", "configs/experiment", "configs/experiment/a", "configs/train.yaml", "README.yaml", "nope", "configs/nope.yaml", "../configs/train.yaml", "/configs", "configs/", "./configs"} {
		gotB, gotErr := m.ReadFile(p)
		wantB, wantErr := want.ReadFile(p)
		if string(gotB) != string(wantB) || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("ReadFile(%q) = %q, %v; io/fs gives %q, %v", p, gotB, gotErr, wantB, wantErr)
		}
		gotE, gotErr := m.ReadDir(p)
		wantE, wantErr := want.ReadDir(p)
		if !reflect.DeepEqual(gotE, wantE) || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("ReadDir(%q) = %v, %v; io/fs gives %v, %v", p, gotE, gotErr, wantE, wantErr)
		}
	}
}

// TestHydraFilesGetOmegaConfChecks: Hydra loads a run's primary and its group files with
// OmegaConf.load, so in lightning-hydra-template's tree (a Lightning run, no OmegaConf-loading
// dialect) a group file's repeated key is OmegaConf's refusal and an interpolation its grammar
// cannot read is reported; the same text linted alone keeps the generic wording.
func TestHydraFilesGetOmegaConfChecks(t *testing.T) {
	tmp, paths := rebuildTree(t, lhtRepo)
	files := treeFiles(t, tmp, paths)
	const group = "configs/trainer/default.yaml"
	i := -1
	for j, f := range files {
		if f.Path == group {
			i = j
		}
	}
	if i < 0 {
		t.Fatalf("%s is not in the tree: %v", group, paths)
	}
	base := string(files[i].Text)
	lines := strings.Count(base, "\n")
	files[i].Text = []byte(base + "num_sanity_val_steps: 0\nnum_sanity_val_steps: 2\nlog_dir: ${eval:(1+2)}\n")
	o := lint.Options{Select: []string{"TL002", "TL011"}}
	var got []lint.Diagnostic
	for _, d := range lint.LintFiles(files, nil, rules.All(), o).Diagnostics {
		if d.File == group {
			got = append(got, d)
		}
	}
	dup := `key "num_sanity_val_steps" is repeated in its mapping: omegaconf 2.3.0 stops at start-up: "found duplicate key num_sanity_val_steps"`
	bad := `the interpolation "${eval:(1+2)}" does not parse where it reads "(1+2)}": omegaconf 2.3.0 stops at start-up: "GrammarParseError"`
	if len(got) != 2 || got[0].Code != "TL002" || got[0].Line != lines+2 || got[0].Message != dup ||
		got[1].Code != "TL011" || got[1].Line != lines+3 || got[1].Message != bad {
		t.Fatalf("in the Hydra tree: %+v", got)
	}
	_, alone := lint.LintFile(lint.File{Path: "default.yaml", Text: files[i].Text}, rules.All(), o)
	if len(alone) != 1 || alone[0].Code != "TL002" || !strings.Contains(alone[0].Message, "silently overrides") {
		t.Errorf("alone: %+v", alone)
	}
}
