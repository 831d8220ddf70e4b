package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/rules"
)

// copyCorpus copies one corpus file (its local path in the corpus) to dst inside tmp.
func copyCorpus(t testing.TB, tmp, local, dst string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir(t), filepath.FromSlash(local)))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(tmp, filepath.FromSlash(dst))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	lfRepo   = "hiyouga/LLaMA-Factory"
	lfRecipe = "examples/train_full/qwen3_full_sft.yaml" // deepspeed: examples/deepspeed/ds_z3_config.json
	lfDS     = "examples/deepspeed/ds_z3_config.json"
	// A real DeepSpeed config with explicit values: micro batch 3, global 24, fp16 on, lr 3e-5.
	dsExplicit = "microsoft__DeepSpeed/tests__model__BingBertSquad__deepspeed_bsz24_fp16_config.json"
)

func findAt(ds []lint.Diagnostic, code, file string) []lint.Diagnostic {
	var out []lint.Diagnostic
	for _, d := range ds {
		if d.Code == code && d.File == file {
			out = append(out, d)
		}
	}
	return out
}

// TestJoinDeepSpeedAuto: LLaMA-Factory's full SFT recipe names its ZeRO-3 file, whose batch and
// precision values are all "auto": the file joins the recipe's run and nothing contradicts.
func TestJoinDeepSpeedAuto(t *testing.T) {
	tmp, files := rebuildTree(t, lfRepo)
	fsys := compose.FromFS(os.DirFS(tmp))
	specs := compose.DiscoverJoined(fsys, files, nil)
	var single *compose.Spec
	for i := range specs {
		if specs[i].Primary == lfRecipe {
			single = &specs[i]
		}
	}
	if single == nil || !single.Single {
		t.Fatalf("%s is not found as a run of its own: %v", lfRecipe, specs)
	}
	run := lint.ComposeSpec(compose.NewCache(), fsys, *single, lint.Options{})
	if len(run.Joined) != 1 || run.Joined[0].Doc.Path != lfDS {
		t.Fatalf("joined %v, want %s", run.Joined, lfDS)
	}
	res := lint.LintTree(fsys, files, nil, rules.All(), lint.Options{})
	for _, d := range res.Diagnostics {
		if d.File == lfDS && (d.Code == "TL701" || d.Code == "TL706") {
			t.Errorf("all-auto DeepSpeed file gets %s %s", d.Code, d.Message)
		}
	}
}

// TestJoinDeepSpeedMismatch: the same recipe (per_device_train_batch_size 1, bf16 true, fp16
// unset) with a DeepSpeed file that fixes micro batch 3 and fp16 on: the Trainer refuses both
// at start-up. TL701 and TL706 sit at the DeepSpeed values, with the recipe's lines related.
func TestJoinDeepSpeedMismatch(t *testing.T) {
	tmp, files := rebuildTree(t, lfRepo)
	copyCorpus(t, tmp, dsExplicit, lfDS)
	fsys := compose.FromFS(os.DirFS(tmp))
	res := lint.LintTree(fsys, files, nil, rules.All(), lint.Options{})

	b := findAt(res.Diagnostics, "TL701", lfDS)
	if len(b) != 1 {
		t.Fatalf("TL701 in %s: %v", lfDS, b)
	}
	d := b[0]
	if d.Line != 3 || !strings.Contains(d.Message, "train_micro_batch_size_per_gpu 3") || !strings.Contains(d.Message, "per_device_train_batch_size 1") {
		t.Errorf("TL701 %d %q", d.Line, d.Message)
	}
	if len(d.Related) == 0 || d.Related[0].File != lfRecipe || d.Related[0].Line != 29 ||
		d.Related[0].EndLine != 29 || d.Related[0].EndColumn <= d.Related[0].Column {
		t.Errorf("TL701 related %+v, want %s:29 (per_device_train_batch_size)", d.Related, lfRecipe)
	}
	p := findAt(res.Diagnostics, "TL706", lfDS)
	if len(p) != 1 {
		t.Fatalf("TL706 in %s: %v", lfDS, p)
	}
	if p[0].Line != 15 || !strings.Contains(p[0].Message, "fp16.enabled true") {
		t.Errorf("TL706 %d %q", p[0].Line, p[0].Message)
	}
	// fp16 is not set in the recipe: the related location is the deepspeed: key that names the file.
	if len(p[0].Related) == 0 || p[0].Related[0].File != lfRecipe || p[0].Related[0].Line != 9 ||
		!strings.Contains(p[0].Related[0].Message, "not set") {
		t.Errorf("TL706 related %+v", p[0].Related)
	}
	// The learning rate differs too: not a batch or precision value, so rejected-at-startup.
	// Two recipes of the tree name the file with other learning rates: one finding each.
	var r []lint.Diagnostic
	for _, d := range findAt(res.Diagnostics, "TL011", lfDS) {
		if strings.Contains(d.Message, "learning_rate 1e-05") {
			r = append(r, d)
		}
	}
	if len(r) != 1 || r[0].Line != 8 || !strings.Contains(r[0].Message, "optimizer.params.lr 3e-5") ||
		len(r[0].Related) == 0 || r[0].Related[0].File != lfRecipe || r[0].Related[0].Line != 31 {
		t.Errorf("TL011 %+v", r)
	}
	// train_batch_size needs the device count: without one, nothing is said about it.
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "train_batch_size 24") {
			t.Errorf("train_batch_size compared without a device count: %s", d.Message)
		}
	}
}

// TestJoinRunErrorReplacesFileWarning: with a device count, a DeepSpeed file's batch product
// that the file alone can only doubt (a warning: model parallelism might explain it) is refused
// by the recipe's Trainer in the run (an error at the same value). The place gets the error
// alone; the file without the recipe keeps its warning.
func TestJoinRunErrorReplacesFileWarning(t *testing.T) {
	recipe := lint.File{Path: "train.yaml", Text: []byte("model_name_or_path: gpt2\noutput_dir: out\n" +
		"per_device_train_batch_size: 4\ngradient_accumulation_steps: 2\ndeepspeed: ds.json\n")}
	ds := lint.File{Path: "ds.json", Text: []byte(`{
  "train_batch_size": 32,
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 2
}
`)}
	o := lint.Options{Hosts: 2, DevicesPerHost: 8}
	res := lint.LintFiles([]lint.File{recipe, ds}, nil, rules.All(), o)
	got := findAt(res.Diagnostics, "TL701", "ds.json")
	if len(got) != 1 || got[0].Severity != lint.Error || got[0].Line != 2 ||
		!strings.Contains(got[0].Message, "the Trainer refuses") {
		t.Fatalf("TL701 in ds.json with its recipe: %+v", got)
	}
	alone := lint.LintFiles([]lint.File{ds}, nil, rules.All(), o)
	got = findAt(alone.Diagnostics, "TL701", "ds.json")
	if len(got) != 1 || got[0].Severity != lint.Warning || got[0].Line != 2 {
		t.Fatalf("TL701 in ds.json alone: %+v", got)
	}
}

// TestJoinMissingFile: a recipe whose DeepSpeed file is not in the tree gets TL006 at the key,
// and nothing is guessed about the file.
func TestJoinMissingFile(t *testing.T) {
	tmp, files := rebuildTree(t, lfRepo)
	if err := os.Remove(filepath.Join(tmp, filepath.FromSlash(lfDS))); err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, f := range files {
		if f != lfDS {
			kept = append(kept, f)
		}
	}
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), kept, nil, rules.All(), lint.Options{})
	u := findAt(res.Diagnostics, "TL006", lfRecipe)
	found := false
	for _, d := range u {
		if d.Line == 9 && strings.Contains(d.Message, "ds_z3_config.json") {
			found = true
		}
	}
	if !found {
		t.Errorf("no TL006 at %s:9 for the missing DeepSpeed file: %v", lfRecipe, u)
	}
}

// TestJoinOutsideRoot: a deepspeed path that leaves the tree is never read.
func TestJoinOutsideRoot(t *testing.T) {
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "sft.yaml"), []byte("per_device_train_batch_size: 2\ndeepspeed: ../../etc/ds.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), []string{"sft.yaml"}, nil, rules.All(), lint.Options{})
	u := findAt(res.Diagnostics, "TL006", "sft.yaml")
	if len(u) != 1 || u[0].Line != 2 || !strings.Contains(u[0].Message, "outside the folder") {
		t.Errorf("TL006 %v", u)
	}
}

// TestJoinLightningStrategyConfig: a LightningCLI config whose DeepSpeedStrategy names a real
// DeepSpeed file that sets gradient_accumulation_steps: Lightning refuses it at set-up
// (rejected-at-startup at the DeepSpeed key, the strategy's config line related).
func TestJoinLightningStrategyConfig(t *testing.T) {
	tmp := t.TempDir()
	copyCorpus(t, tmp, "microsoft__DeepSpeed/tests__model__Megatron_GPT2__ds_config_func_bs8_zero2_gas3.json", "ds/zero2.json")
	cfg := "trainer:\n  accelerator: gpu\n  devices: 4\n  max_epochs: 3\n  strategy:\n    class_path: lightning.pytorch.strategies.DeepSpeedStrategy\n    init_args:\n      config: ds/zero2.json\nmodel:\n  learning_rate: 0.001\n"
	if err := os.WriteFile(filepath.Join(tmp, "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), []string{"config.yaml", "ds/zero2.json"}, nil, rules.All(), lint.Options{})
	r := findAt(res.Diagnostics, "TL011", "ds/zero2.json")
	if len(r) != 1 || !strings.Contains(r[0].Message, "gradient_accumulation_steps") || len(r[0].Related) == 0 ||
		r[0].Related[0].File != "config.yaml" || r[0].Related[0].Line != 8 {
		t.Fatalf("TL011 %+v\nall: %+v", r, res.Diagnostics)
	}
}

// TestLauncherContext: the same recipe and explicit DeepSpeed file, launched with accelerate's
// multi-node template (num_machines 2, num_processes 8): the run has 2 hosts of 4 devices, so
// the global batch the Trainer computes (1 × 2 × 8 = 16) is compared with train_batch_size 24,
// with the launcher's lines related.
func TestLauncherContext(t *testing.T) {
	tmp, files := rebuildTree(t, lfRepo)
	copyCorpus(t, tmp, dsExplicit, lfDS)
	const launcher = "accelerate/multi_node.yaml"
	copyCorpus(t, tmp, "huggingface__accelerate/examples__config_yaml_templates__multi_node.yaml", launcher)
	fsys := compose.FromFS(os.DirFS(tmp))
	spec := compose.Spec{Primary: lfRecipe, Single: true, Launcher: launcher}
	run := lint.ComposeSpec(compose.NewCache(), fsys, spec, lint.Options{})
	if run.Launcher == nil || run.Launcher.Path != launcher || len(run.Problems) != 0 {
		t.Fatalf("launcher %v, problems %v", run.Launcher, run.Problems)
	}
	res := lint.LintTree(fsys, files, []compose.Spec{spec}, rules.All(), lint.Options{})
	var got *lint.Diagnostic
	for i, d := range res.Diagnostics {
		if d.Code == "TL701" && d.File == lfDS && d.Line == 2 {
			got = &res.Diagnostics[i]
		}
	}
	if got == nil || !strings.Contains(got.Message, "train_batch_size 24") || !strings.Contains(got.Message, "16") {
		t.Fatalf("no TL701 on train_batch_size: %+v", res.Diagnostics)
	}
	var lines []string
	for _, r := range got.Related {
		lines = append(lines, r.File+":"+itoa(r.Line))
	}
	want := lfRecipe + ":29," + launcher + ":12," + launcher + ":10"
	if strings.Join(lines, ",") != want {
		t.Errorf("related %v, want %s", lines, want)
	}
	// A launcher outside the tree is never read.
	out := lint.ComposeSpec(compose.NewCache(), fsys, compose.Spec{Primary: lfRecipe, Single: true, Launcher: "../multi_node.yaml"}, lint.Options{})
	if out.Launcher != nil || len(out.Problems) != 1 || !strings.Contains(out.Problems[0].Message, "outside") {
		t.Errorf("outside launcher: %v %v", out.Launcher, out.Problems)
	}
}

// TestLauncherDeepSpeedFile: accelerate's sequence-parallelism example launcher names its
// DeepSpeed file (beside it) through deepspeed_config_file; launched with LLaMA-Factory's recipe
// (gradient_accumulation_steps 2), the file's gradient_accumulation_steps 1 is refused (TL701).
// The same launcher with mixed_precision set is refused by accelerate (TL011 at that line).
func TestLauncherDeepSpeedFile(t *testing.T) {
	tmp, files := rebuildTree(t, lfRepo)
	const launcher = "accelerate/sp-alst.accelerate-config.yml"
	const dsFile = "accelerate/sp-alst.ds-config.json"
	copyCorpus(t, tmp, "huggingface__accelerate/examples__alst_ulysses_sequence_parallelism__sp-alst.accelerate-config.yml", launcher)
	copyCorpus(t, tmp, "huggingface__accelerate/examples__alst_ulysses_sequence_parallelism__sp-alst.ds-config.json", dsFile)
	fsys := compose.FromFS(os.DirFS(tmp))
	spec := compose.Spec{Primary: lfRecipe, Single: true, Launcher: launcher}
	res := lint.LintTree(fsys, files, []compose.Spec{spec}, rules.All(), lint.Options{})
	ga := findAt(res.Diagnostics, "TL701", dsFile)
	if len(ga) != 1 || ga[0].Line != 8 || !strings.Contains(ga[0].Message, "gradient_accumulation_steps 1") ||
		len(ga[0].Related) == 0 || ga[0].Related[0].File != lfRecipe || ga[0].Related[0].Line != 30 {
		t.Fatalf("TL701 %+v", ga)
	}
	for _, d := range res.Diagnostics {
		if d.Code == "TL011" {
			t.Errorf("the example launcher is refused: %s:%d %s", d.File, d.Line, d.Message)
		}
	}
	b, err := os.ReadFile(filepath.Join(tmp, filepath.FromSlash(launcher)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, filepath.FromSlash(launcher)), append(b, "\nmixed_precision: bf16\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	res = lint.LintTree(compose.FromFS(os.DirFS(tmp)), files, []compose.Spec{spec}, rules.All(), lint.Options{})
	r := findAt(res.Diagnostics, "TL011", launcher)
	if len(r) != 1 || !strings.Contains(r[0].Message, "mixed_precision") || !strings.Contains(r[0].Message, "accelerate 1.14.0") {
		t.Errorf("TL011 %+v\n%+v", r, res.Diagnostics)
	}
}

// TestJoinDeepSpeedReadWithJSON: a DeepSpeed file that a Trainer recipe names is read with
// Python's json (accelerate's HfDeepSpeedConfig), so its first comment stops the run at
// start-up: rejected-at-startup on the comment itself, the recipe's line related. The same
// file alone (DeepSpeed's launcher reads it with hjson) gets only parse-error's notes.
func TestJoinDeepSpeedReadWithJSON(t *testing.T) {
	tmp := t.TempDir()
	ds := "{\n  \"zero_optimization\": {\n    // stage 2 shards the optimizer\n    \"stage\": 2,\n  },\n  \"train_micro_batch_size_per_gpu\": \"auto\"\n}\n"
	for name, text := range map[string]string{"sft.yaml": "per_device_train_batch_size: 2\ndeepspeed: ds.json\n", "ds.json": ds} {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), []string{"ds.json", "sft.yaml"}, nil, rules.All(), lint.Options{})
	r := findAt(res.Diagnostics, "TL011", "ds.json")
	if len(r) != 1 || r[0].Line != 3 || r[0].Column != 5 || r[0].EndLine != 3 || r[0].Severity != lint.Error ||
		!strings.HasPrefix(r[0].Message, "JSON does not allow comments, which Python's json refuses: accelerate 1.14.0 stops at start-up") ||
		len(r[0].Related) != 1 || r[0].Related[0].File != "sft.yaml" || r[0].Related[0].Line != 2 {
		t.Fatalf("TL011 %+v", r)
	}
	if n := len(findAt(res.Diagnostics, "TL001", "ds.json")); n != 2 {
		t.Errorf("%d parse-error notes on ds.json, want the comment's and the trailing comma's", n)
	}
	res = lint.LintTree(compose.FromFS(os.DirFS(tmp)), []string{"ds.json"}, nil, rules.All(), lint.Options{})
	if r := findAt(res.Diagnostics, "TL011", "ds.json"); len(r) != 0 {
		t.Errorf("the file alone: %+v", r)
	}
}

// TestJoinDeepSpeedYAMLReadWithJSON: a recipe that names a YAML DeepSpeed file (ds.yaml) still
// has it read with json.load, which stops at its first line: rejected-at-startup there. The
// same file written as JSON text under a .yaml name reads.
func TestJoinDeepSpeedYAMLReadWithJSON(t *testing.T) {
	tmp := t.TempDir()
	for name, text := range map[string]string{
		"sft.yaml":    "per_device_train_batch_size: 2\ndeepspeed: ds.yaml\n",
		"ds.yaml":     "zero_optimization:\n  stage: 2\ntrain_micro_batch_size_per_gpu: auto\n",
		"ok.yaml":     "per_device_train_batch_size: 2\ndeepspeed: dsjson.yaml\n",
		"dsjson.yaml": "{\"zero_optimization\": {\"stage\": 2}, \"train_micro_batch_size_per_gpu\": \"auto\"}\n",
	} {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), []string{"ds.yaml", "dsjson.yaml", "ok.yaml", "sft.yaml"}, nil, rules.All(), lint.Options{})
	r := findAt(res.Diagnostics, "TL011", "ds.yaml")
	if len(r) != 1 || r[0].Line != 1 || r[0].Column != 1 || !strings.HasPrefix(r[0].Message, "ds.yaml is read as JSON: object without its braces") ||
		!strings.Contains(r[0].Message, "which Python's json refuses: accelerate 1.14.0 stops at start-up") ||
		len(r[0].Related) == 0 || r[0].Related[0].File != "sft.yaml" || r[0].Related[0].Line != 2 {
		t.Fatalf("TL011 %+v", r)
	}
	if r := findAt(res.Diagnostics, "TL011", "dsjson.yaml"); len(r) != 0 {
		t.Errorf("JSON text named .yaml: %+v", r)
	}
}

// TestJoinLightningDeepSpeedReadWithJSON: Lightning's DeepSpeedStrategy reads its config file
// with json.load too, so a trailing comma there stops the run when the strategy is built.
func TestJoinLightningDeepSpeedReadWithJSON(t *testing.T) {
	tmp := t.TempDir()
	cfg := "trainer:\n  accelerator: gpu\n  devices: 4\n  strategy:\n    class_path: lightning.pytorch.strategies.DeepSpeedStrategy\n    init_args:\n      config: ds.json\nmodel:\n  learning_rate: 0.001\n"
	for name, text := range map[string]string{"config.yaml": cfg, "ds.json": "{\n  \"zero_optimization\": {\"stage\": 2},\n}\n"} {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), []string{"config.yaml", "ds.json"}, nil, rules.All(), lint.Options{})
	r := findAt(res.Diagnostics, "TL011", "ds.json")
	if len(r) != 1 || r[0].Line != 2 || r[0].Column != 36 || !strings.Contains(r[0].Message, "lightning 2.6.0 stops at start-up") ||
		len(r[0].Related) != 1 || r[0].Related[0].File != "config.yaml" || r[0].Related[0].Line != 7 {
		t.Fatalf("TL011 %+v", r)
	}
}

// TestJoinJSONRecipe: LintFiles (the browser's and the WASM API's path) joins an HF recipe
// written in JSON with the DeepSpeed file its "deepspeed" names, as it joins a YAML recipe:
// the Trainer's start-up refusals (micro batch 4 against 8, fp16 against bf16) sit at the
// DeepSpeed values. A JSON file that names no file stays alone.
func TestJoinJSONRecipe(t *testing.T) {
	files := []lint.File{
		{Path: "args.json", Text: []byte(`{"output_dir": "out", "per_device_train_batch_size": 8, "bf16": true, "deepspeed": "ds.json"}` + "\n")},
		{Path: "ds.json", Text: []byte("{\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"fp16\": {\"enabled\": true}\n}\n")},
	}
	res := lint.LintFiles(files, nil, rules.All(), lint.Options{})
	var at []string
	for _, d := range res.Diagnostics {
		if d.File == "ds.json" {
			at = append(at, d.Code)
		}
	}
	if got := strings.Join(at, " "); !strings.Contains(got, "TL701") || !strings.Contains(got, "TL706") {
		t.Errorf("ds.json: %q, want TL701 and TL706 from the JSON recipe's run", got)
	}
	// Written as JSON allows and YAML does not (a key's colon on the next line), and named
	// .JSON: still a recipe, read as JSON.
	files[0] = lint.File{Path: "ARGS.JSON", Text: []byte("{\"per_device_train_batch_size\": 8, \"bf16\": true,\n\"deepspeed\"\n: \"ds.json\"}\n")}
	res = lint.LintFiles(files, nil, rules.All(), lint.Options{})
	at = at[:0]
	for _, d := range res.Diagnostics {
		if d.File == "ds.json" {
			at = append(at, d.Code)
		}
	}
	if got := strings.Join(at, " "); !strings.Contains(got, "TL701") || !strings.Contains(got, "TL706") {
		t.Errorf("ds.json beside ARGS.JSON: %q, want TL701 and TL706", got)
	}
	specs := compose.DiscoverJoined(compose.FromFS(os.DirFS(t.TempDir())), []string{"x.json"}, nil)
	if len(specs) != 0 {
		t.Errorf("a JSON file that cannot be read is a run: %v", specs)
	}
}
