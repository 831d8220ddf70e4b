//go:build !trainlint_lite

// The parity tests build both modules on the host (site.BuildWASMModule), so they are host
// tests: a build with the light tag leaves them out.

package api_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/site"
	"github.com/trainlint/trainlint/wasm/api"
)

func craftedRequests() []api.Request {
	return []api.Request{
		{Files: []api.File{{Path: "configs/sft.yaml", Text: hfPitfall}}},
		{Files: []api.File{{Path: "configs/sft.yaml", Text: hfPitfall}}, Options: api.Options{Hosts: 4, DevicesPerHost: 8}},
		{Files: []api.File{{Path: "configs/sft.yaml", Text: hfPitfall}}, Options: api.Options{Framework: "generic", Ignore: []string{"TL0"}}},
		{Files: []api.File{{Path: "configs/sft.yaml", Text: hfPitfall}}, Options: api.Options{Select: []string{"evaluation"}}},
		{Files: []api.File{{Path: "broken.yaml", Text: "a: [1, 2\nb: ünïcödé: x\n"}}},
		{Files: []api.File{{Path: "dup.yaml", Text: "lr: 1\nlr: 2 # second <wins>\n"}}},
		{Files: []api.File{{Path: "ds.json", Text: `{"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}`}}},
		{Files: []api.File{{Path: "bad.json", Text: `{"a": 1,, }`}}},
		// JSON5: read by both modules; an unquoted key beyond ASCII only by the full one (the light
		// module has no Unicode tables: lint/doc/lite.go).
		{Files: []api.File{{Path: "ds.json", Text: "{train_batch_size: 0x20, 'fp16': {enabled: true}, // c\n \"x\": 'it\\'s\\x41', lr: +.5,}"}}},
		{Files: []api.File{{Path: "am.json", Text: "{train: {batch_size: 16}, clé: 1}"}}},
		{Files: []api.File{{Path: "cfg.toml", Text: "[training]\nseed = 1\nbatch_size = 8\n"}}},
		{Files: []api.File{{Path: "configs/retinanet.py", Text: "train_cfg = dict(type='EpochBasedTrainLoop', max_epochs=12, val_interval=1)\ndefault_hooks = dict(checkpoint=dict(type='CheckpointHook', interval=1))\n"}}},
		{Files: []api.File{{Path: "t5.gin", Text: "train.eval_period = 1000\nutils.SaveCheckpointConfig.period = 1000\n"}}},
		{Files: []api.File{{Path: "noext", Text: "x: 1\n", Format: "yaml"}, {Path: "b.yaml", Text: "\t- tab\n"}}},
		{Files: []api.File{}},
		{Files: hydraRun()},
		{Files: codeRuns()[0], Options: api.Options{Hosts: 2, DevicesPerHost: 8}},
		{Files: codeRuns()[1]},
		{Files: hydraRun(), Options: api.Options{Overrides: []string{"trainer=ddp", "+data.pin_memory=true"}, Hosts: 2}},
		{Files: searchPathRun()},
		{Files: unreadOptionRun()},
		{Files: liteDeclinedRuns()[0]},
		{Files: liteDeclinedRuns()[1]},
		{Files: liteDeclinedRuns()[2]},
		{Files: liteDeclinedRuns()[3]},
		{Files: []api.File{{Path: "sft.yaml", Text: "output_dir: out\noverwrite_output_dir: true\n"}}, Options: api.Options{Targets: map[string]string{"transformers": "4.46", "trl": "0.19.0"}}},
		// A JSON file forced to a dialect whose configs the light module does not read (TOML,
		// Python): that module declines it and asks for the full one.
		{Files: []api.File{{Path: "job.json", Text: `{"training": {"local_batch_size": 8, "steps": 100}, "checkpoint": {"enable": true, "interval": 50}}`}}, Options: api.Options{Framework: "torchtitan"}},
		{Files: []api.File{{Path: "m.json", Text: `{"train_cfg": {"max_epochs": 12}}`}}, Options: api.Options{Framework: "mmengine"}},
		// A dialect the light module reads but declines (lint/dialect/declined_lite.go): a file
		// detected as it, and one forced to it.
		{Files: []api.File{{Path: "mpt.yaml", Text: "max_seq_len: 2048\nmodel:\n  name: mpt_causal_lm\ntrain_loader:\n  name: text\ndevice_train_microbatch_size: 8\neval_interval: 500ba\nsave_interval: 1000ba\n"}}},
		{Files: []api.File{{Path: "r.yaml", Text: "global_train_batch_size: 4\nmax_duration: 1ep\n"}}, Options: api.Options{Framework: "composer"}},
		{Files: []api.File{{Path: "output/train/args.yaml", Text: "model: resnet50\nbatch_size: 2\nworkers: 4\nsync_bn: false\ndist_bn: reduce\ncheckpoint_hist: 10\nepochs: 100\n"}}},
		{Files: []api.File{{Path: "pretrain.yaml", Text: "model_name: pythia-14m\nout_dir: out/pretrain\ndata: TinyStories\ntrain:\n  global_batch_size: 128\n  micro_batch_size: 4\n  max_tokens: 1000000\neval:\n  interval: 0\n"}}},
		{Files: []api.File{{Path: "l.yaml", Text: "train:\n  micro_batch_size: 4\n"}}, Options: api.Options{Framework: "litgpt"}},
		{Files: []api.File{{Path: "", Text: "x: 1"}}},                                                // error reply
		{Files: []api.File{{Path: "a.yaml", Text: "x: 1"}}, Options: api.Options{Framework: "nope"}}, // error reply
	}
}

// corpusRequests lints a deterministic sample of the real configs (every 8th), so parity covers
// every dialect without making the test slow.
func corpusRequests(t *testing.T) []api.Request {
	root := filepath.Join("..", "..", "..", "shared", "corpus")
	f, err := os.Open(filepath.Join(root, "MANIFEST.tsv"))
	if err != nil {
		t.Logf("corpus not found (%v): crafted requests only", err)
		return nil
	}
	defer f.Close()
	var reqs []api.Request
	sc := bufio.NewScanner(f)
	for i := 0; sc.Scan(); i++ {
		cols := strings.Split(sc.Text(), "\t")
		if i == 0 || len(cols) < 7 {
			continue
		}
		switch {
		case cols[6] == "gin" || cols[6] == "py":
			// every config written as code: the Python reader and the gin parser are the
			// largest parts of the full module that the native and browser builds share
		case i%8 != 1:
			continue
		case cols[6] == "yaml", cols[6] == "json", cols[6] == "toml":
		default:
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, cols[0]))
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, api.Request{Files: []api.File{{Path: cols[0], Text: string(b)}}, Options: api.Options{Hosts: i % 3, DevicesPerHost: 8}})
	}
	return reqs
}

// buildWASM builds the module the site ships, byte for byte as `make wasm` does: the flags
// given (site.WASMBuildFlags or site.WASMLiteFlags), the data section packed and the function
// table thinned.
func buildWASM(t *testing.T, out string, flags []string) {
	t.Helper()
	if err := site.BuildWASMModule(filepath.Join("..", ".."), out, flags); err != nil {
		t.Fatalf("building the wasm module: %v", err)
	}
}

func goroot(t *testing.T) string {
	b, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func decodeAny(t *testing.T, what string, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, b)
	}
	return v
}

// TestParity lints the same requests natively and in WebAssembly (under Node, through Go's own
// go_js_wasm_exec runner) and requires byte-identical JSON from lintJSON, and the same values
// from the object-returning lint, fix and rules.
// TestParity runs the full module (trainlint-full.wasm) on every request: byte-identical to
// the native answers.
func TestParity(t *testing.T) { parity(t, site.WASMBuildFlags, false) }

// TestParityLite runs the light module the checker loads first (trainlint.wasm: no yaml.v3, no
// rule archives): byte-identical to the native answers, except for requests with a YAML file
// the direct reader declines, which it must mark needsFullModule (the page then lints with the
// full module).
func TestParityLite(t *testing.T) { parity(t, site.WASMLiteFlags(), true) }

func parity(t *testing.T, flags []string, lite bool) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node not found: the WASM parity test runs the module under Node.js 20+; install it: apt-get install nodejs (make test checks its tools first)")
	}
	dir := t.TempDir()
	wasmPath := filepath.Join(dir, "trainlint.wasm")
	buildWASM(t, wasmPath, flags)

	reqs := append(craftedRequests(), corpusRequests(t)...)
	in, err := json.Marshal(reqs)
	if err != nil {
		t.Fatal(err)
	}
	inPath, outPath := filepath.Join(dir, "requests.json"), filepath.Join(dir, "answers.json")
	if err := os.WriteFile(inPath, in, 0o644); err != nil {
		t.Fatal(err)
	}
	harness, _ := filepath.Abs(filepath.Join("..", "testdata", "parity.cjs"))
	cmd := exec.Command(filepath.Join(goroot(t), "lib", "wasm", "go_js_wasm_exec"), wasmPath)
	cmd.Env = append(os.Environ(), "NODE_OPTIONS=--require "+harness, "PARITY_IN="+inPath, "PARITY_OUT="+outPath)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go_js_wasm_exec: %v\n%s", err, b)
	}
	raw, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Version string
		Rules   string
		Answers []struct{ LintJSON, Lint, Fix string }
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Answers) != len(reqs) {
		t.Fatalf("wasm answered %d requests, want %d", len(got.Answers), len(reqs))
	}
	findings, errorsSeen, declined := 0, 0, 0
	for i, r := range reqs {
		b, _ := json.Marshal(r)
		native := api.LintJSON(b)
		name := fmt.Sprintf("request %d", i)
		if len(r.Files) > 0 {
			name = r.Files[0].Path
		}
		var mark struct{ NeedsFullModule bool }
		json.Unmarshal([]byte(got.Answers[i].Lint), &mark)
		if res, err := api.Lint(r); lite && err == nil && lightCannotRead(r, res) {
			declined++
			if !mark.NeedsFullModule {
				t.Errorf("%s: the light module cannot read this YAML but did not ask for the full module: %s", name, got.Answers[i].Lint)
			}
			continue
		}
		if mark.NeedsFullModule {
			t.Errorf("%s: needsFullModule on a reply that does not need it", name)
		}
		if !bytes.Equal(native, []byte(got.Answers[i].LintJSON)) {
			t.Errorf("%s: lintJSON differs\nnative: %s\nwasm:   %s", name, native, got.Answers[i].LintJSON)
			continue
		}
		if !reflect.DeepEqual(decodeAny(t, "native", native), decodeAny(t, "wasm lint", []byte(got.Answers[i].Lint))) {
			t.Errorf("%s: lint(object) differs from lintJSON\nnative: %s\nwasm:   %s", name, native, got.Answers[i].Lint)
		}
		nativeFix := api.FixJSON(b)
		if !reflect.DeepEqual(decodeAny(t, "native fix", nativeFix), decodeAny(t, "wasm fix", []byte(got.Answers[i].Fix))) {
			t.Errorf("%s: fix differs\nnative: %s\nwasm:   %s", name, nativeFix, got.Answers[i].Fix)
		}
		findings += strings.Count(string(native), `"code":`)
		if bytes.HasPrefix(native, []byte(`{"error"`)) {
			errorsSeen++
		}
	}
	if !reflect.DeepEqual(decodeAny(t, "native rules", api.RulesJSON()), decodeAny(t, "wasm rules", []byte(got.Rules))) {
		t.Errorf("rules() differs:\nnative: %s\nwasm:   %s", api.RulesJSON(), got.Rules)
	}
	// The sample must exercise something: findings and the error replies.
	if findings == 0 {
		t.Error("no request produced a finding: the parity check proves nothing")
	}
	if errorsSeen != 2 {
		t.Errorf("want 2 error replies for the 2 malformed requests, got %d", errorsSeen)
	}
	if lite && declined == 0 {
		t.Error("no request had YAML the light module declines: its hand-over to the full module is untested")
	}
	t.Logf("%d requests, %d findings, byte-identical; %d handed to the full module", len(reqs), findings, declined)
}

// liteDeclinedDialects are the dialects whose files the light module declines although it reads
// them (lint/dialect/declined_lite.go).
var liteDeclinedDialects = map[string]bool{"composer": true, "litgpt": true, "timm": true}

// lightCannotRead reports whether a file of the request is one the light module has no reader
// for (gin, Python, TOML, or YAML the direct reader declines: yaml.v3 reads it natively), or a
// run it cannot compose.
func lightCannotRead(r api.Request, res *lint.Result) bool {
	// A value override (the crafted requests' are dotted keys; group choices are not): the
	// light module does not read override values (lint/compose/hydravalue_lite.go).
	for _, o := range r.Options.Overrides {
		if key, _, ok := strings.Cut(o, "="); ok && strings.Contains(key, ".") {
			return true
		}
	}
	for _, f := range r.Files {
		if strings.Contains(f.Text, "\n  searchpath:") {
			return true // a hydra.searchpath (lint/compose/searchpath_lite.go)
		}
		if strings.HasPrefix(f.Path, "unread/") {
			return true // an option composed in with group=option (lint.UnreadRefusals), an override
		}
		if strings.HasPrefix(f.Path, "lite-declines/") {
			return true // runs the light module leaves to the full one (liteDeclinedRuns)
		}
	}
	switch r.Options.Framework {
	case "torchtitan", "big-vision", "mmengine", "scenic", "t5x":
		return true // forced to a dialect the light module links no reader for (lint/dialect/code_lite.go)
	}
	for _, f := range res.Files {
		if liteDeclinedDialects[f.Framework] || liteDeclinedDialects[r.Options.Framework] {
			return true // a dialect the light module declines (lint/dialect/declined_lite.go)
		}
	}
	for i, f := range res.Files {
		switch doc.Format(f.Format) {
		case doc.Gin, doc.Python, doc.TOML:
			return true
		case doc.YAML:
			if doc.Parse(f.Path, []byte(r.Files[i].Text), doc.YAML, doc.Limits{}).YAMLReader == doc.YAMLv3 {
				return true
			}
		case doc.JSON:
			// An unquoted JSON5 key beyond ASCII (lint/doc/lite.go's jsonIdentRune).
			d := doc.Parse(f.Path, []byte(r.Files[i].Text), doc.JSON, doc.Limits{})
			beyond := false
			if d.Root != nil {
				d.Root.Walk(func(n *doc.Node) bool {
					k := d.Src[n.KeySpan.Start.Offset:n.KeySpan.End.Offset]
					beyond = beyond || len(k) > 0 && k[0] != '"' && k[0] != '\'' && strings.ContainsFunc(string(k), func(r rune) bool { return r >= 0x80 })
					return !beyond
				})
			}
			if beyond {
				return true
			}
		}
	}
	return false
}
