package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/testfs"
)

// hydraTree is a small Hydra config directory: a primary, groups and an experiment.
var hydraTree = map[string]string{
	"conf/train.yaml":                      "defaults:\n  - _self_\n  - callbacks: default\n  - data: small\n  - debug: null\n  - experiment: null\nseed: 1\n",
	"conf/callbacks/default.yaml":          "defaults:\n  - model_checkpoint\n  - _self_\nmodel_checkpoint:\n  monitor: val/acc\n  mode: max\n",
	"conf/callbacks/model_checkpoint.yaml": "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: null\n  save_top_k: 1\n",
	"conf/data/small.yaml":                 "batch_size: 32\n",
	"conf/debug/slow.yaml":                 "# @package _global_\ndata:\n  num_workers: 0\n",
	"conf/experiment/x.yaml":               "# @package _global_\nseed: 2\n",
}

func TestCheckFolderLintsRuns(t *testing.T) {
	dir := writeTree(t, hydraTree)
	t.Chdir(dir)
	// Alone (outside any config directory), the group option gets TL301; as part of the runs,
	// callbacks/default.yaml sets its monitor, and the fragment keeps only its structural
	// checks, whether its folder is walked or the file is named (as pre-commit names the staged
	// files): a group option is no run (composition.md).
	os.MkdirAll("alone", 0o755)
	os.WriteFile(filepath.Join("alone", "model_checkpoint.yaml"), []byte(hydraTree["conf/callbacks/model_checkpoint.yaml"]), 0o644)
	_, out, _ := cli(t, nil, "check", "--format", "json", "alone/model_checkpoint.yaml")
	if !strings.Contains(out, `"TL301"`) {
		t.Fatalf("the file alone should get TL301:\n%s", out)
	}
	for _, args := range [][]string{{"conf/callbacks/model_checkpoint.yaml"}, {"--only-configs", "conf/callbacks/model_checkpoint.yaml", "conf/callbacks/default.yaml"}} {
		code, out, _ := cli(t, nil, append([]string{"check", "--format", "json"}, args...)...)
		if strings.Contains(out, `"TL301"`) || strings.Contains(out, `"TL006"`) || code != 0 {
			t.Errorf("%v: the named group options are linted as parts of the runs (exit %d):\n%s", args, code, out)
		}
	}
	code, out, errs := cli(t, nil, "check", "--format", "json", "conf")
	var res lint.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errs)
	}
	for _, d := range res.Diagnostics {
		if d.Code != "TL006" {
			t.Errorf("unexpected finding %s:%d %s %s", d.File, d.Line, d.Code, d.Message)
		}
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
}

func TestCheckOverride(t *testing.T) {
	dir := writeTree(t, hydraTree)
	t.Chdir(dir)
	code, out, errs := cli(t, nil, "check", "--format", "json", "--select", "TL101,TL006", "conf/train.yaml",
		"--override", "debug=slow", "--override", "+trainer.devices=8", "--override", "data.batch_size=[1,2]")
	var res lint.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errs)
	}
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, filepath.ToSlash(d.File)+":"+itoa(d.Line)+" "+d.Code)
	}
	// The finding is in the debug option that set num_workers, a file not named on the command
	// line; the comma inside the last override is kept whole (no finding for it).
	if strings.Join(got, ",") != "conf/debug/slow.yaml:3 TL101" {
		t.Errorf("findings %v (exit %d)\n%s", got, code, out)
	}
	_, text, _ := cli(t, nil, "check", "--select", "TL101", "conf/train.yaml", "--override", "debug=slow")
	if !strings.Contains(text, "conf/debug/slow.yaml:3:16") || !strings.Contains(text, "num_workers: 0") {
		t.Errorf("text output without the other file's position or excerpt:\n%s", text)
	}
	if _, err := os.Stat(filepath.Join(dir, "conf", "debug", "slow.yaml")); err != nil {
		t.Fatal(err)
	}
}

// TestRunsStayInTree: a defaults list that names a file through a symbolic link out of the
// tree, or a config over the size limit, is an unresolved reference, never read.
func TestRunsStayInTree(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte("data:\n  num_workers: 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := writeTree(t, map[string]string{
		"conf/train.yaml":    "defaults:\n  - _self_\n  - data: big\n  - data@x: leak\nseed: 1\n",
		"conf/data/ok.yaml":  "batch_size: 1\n",
		"conf/data/big.yaml": "num_workers: 0\n" + strings.Repeat("# padding\n", 200),
		".trainlint.toml":    "[limits]\nmax-bytes = 1000\n",
	})
	if err := os.Symlink(filepath.Join(outside, "secret.yaml"), filepath.Join(dir, "conf", "data", "leak.yaml")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	_, out, errs := cli(t, nil, "check", "--format", "json", "--select", "TL101,TL006", "conf/train.yaml", "--override", "seed=2")
	var res lint.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errs)
	}
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Code+" "+d.Message)
	}
	j := strings.Join(got, "\n")
	if strings.Contains(j, "TL101") || !strings.Contains(j, `option "big" of group "data" not found`) || !strings.Contains(j, `option "leak" of group "data" not found`) {
		t.Errorf("findings:\n%s", j)
	}
}

// TestRunsRelatedInOtherFile: the trainer option says 4 FSDP devices without synced batch norm, the
// model option says the backbone uses batch norm. Neither file alone shows the pitfall; the run
// reports it at the trainer's line with the model's line as a related location in its own
// file, in the text, JSON and SARIF outputs.
func TestRunsRelatedInOtherFile(t *testing.T) {
	writeTree(t, map[string]string{
		"conf/train.yaml":        "defaults:\n  - _self_\n  - model: resnet\n  - trainer: gpu\nseed: 1\n",
		"conf/model/resnet.yaml": "_target_: src.models.Classifier\nnet:\n  backbone: resnet50\n",
		"conf/trainer/gpu.yaml":  "_target_: lightning.pytorch.trainer.Trainer\naccelerator: gpu\ndevices: 4\nstrategy: fsdp\nsync_batchnorm: false\n",
	})
	for _, f := range []string{"conf/model/resnet.yaml", "conf/trainer/gpu.yaml"} {
		// each file alone, outside its config directory
		b, _ := os.ReadFile(f)
		alone := filepath.Join(t.TempDir(), filepath.Base(f))
		os.WriteFile(alone, b, 0o644)
		if _, out, _ := cli(t, nil, "check", "--select", "TL501", "--framework", "lightning", "--format", "json", alone); strings.Contains(out, "TL501") {
			t.Fatalf("%s alone already gets TL501, so this test proves nothing:\n%s", f, out)
		}
	}
	// Named (as pre-commit names a staged file), the trainer option is linted in its run.
	if _, out, _ := cli(t, nil, "check", "--select", "TL501", "--format", "json", "conf/trainer/gpu.yaml"); !strings.Contains(out, "TL501") || strings.Contains(out, `"file": "conf/train.yaml"`) {
		t.Errorf("conf/trainer/gpu.yaml named: want the run's TL501 and no other file listed:\n%s", out)
	}
	_, out, _ := cli(t, nil, "check", "--select", "TL501", "--format", "json", "conf")
	var res lint.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err, out)
	}
	if len(res.Diagnostics) != 1 {
		t.Fatalf("want one TL501:\n%s", out)
	}
	d := res.Diagnostics[0]
	if d.File != filepath.Join("conf", "trainer", "gpu.yaml") || d.Line != 5 || len(d.Related) != 1 ||
		d.Related[0].File != filepath.Join("conf", "model", "resnet.yaml") || d.Related[0].Line != 3 {
		t.Errorf("finding %+v", d)
	}
	_, text, _ := cli(t, nil, "check", "--select", "TL501", "conf")
	if !strings.Contains(text, "conf/trainer/gpu.yaml:5:17: warning[TL501") || !strings.Contains(text, "note: conf/model/resnet.yaml:3:13: batch norm in use") {
		t.Errorf("text:\n%s", text)
	}
	_, sarif, _ := cli(t, nil, "check", "--select", "TL501", "--format", "sarif", "conf")
	if !strings.Contains(sarif, `"relatedLocations"`) || !strings.Contains(sarif, `"uri": "conf/model/resnet.yaml"`) {
		t.Errorf("sarif:\n%s", sarif)
	}
}

// TestRunsSuppressionInFragment: a suppression in a group file silences the run's finding there,
// and the file's own structural lint does not call it unused.
func TestRunsSuppressionInFragment(t *testing.T) {
	writeTree(t, map[string]string{
		"conf/train.yaml":        "defaults:\n  - _self_\n  - model: resnet\n  - trainer: gpu\nseed: 1\n",
		"conf/model/resnet.yaml": "_target_: src.models.Classifier\nnet:\n  backbone: resnet50\n",
		"conf/trainer/gpu.yaml":  "_target_: lightning.pytorch.trainer.Trainer\naccelerator: gpu\ndevices: 4\nstrategy: ddp\nsync_batchnorm: false # trainlint: disable=TL501 -- stats synced by our callback\n",
	})
	code, out, errs := cli(t, nil, "check", "--quiet", "conf")
	if code != 0 || strings.TrimSpace(out) != "" {
		t.Errorf("exit %d, findings:\n%s%s", code, out, errs)
	}
}

// TestDeclaredRunsWithLauncher: [[runs]] in .trainlint.toml names a recipe and an accelerate
// launcher (real files from the corpus): the launcher's 2 machines and 8 processes reach the
// recipe's run, whose DeepSpeed file's train_batch_size 24 is not the Trainer's 1 × 2 × 8.
func TestDeclaredRunsWithLauncher(t *testing.T) {
	corpus := filepath.Join("..", "..", "..", "shared", "corpus")
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(corpus, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	dir := writeTree(t, map[string]string{
		"recipes/sft.yaml":                     read("hiyouga__LLaMA-Factory/examples__train_full__qwen3_full_sft.yaml"),
		"examples/deepspeed/ds_z3_config.json": read("microsoft__DeepSpeed/tests__model__BingBertSquad__deepspeed_bsz24_fp16_config.json"),
		"accelerate/multinode.yaml":            read("huggingface__accelerate/examples__config_yaml_templates__multi_node.yaml"),
		".trainlint.toml":                      "[[runs]]\nconfig = \"recipes/sft.yaml\"\nlauncher = \"accelerate/multinode.yaml\"\n",
	})
	t.Chdir(dir)
	_, out, errs := cli(t, nil, "check", "--format", "json", ".")
	var res lint.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errs)
	}
	found := false
	for _, d := range res.Diagnostics {
		if d.Code == "TL701" && strings.Contains(d.Message, "train_batch_size 24") && strings.Contains(d.Message, "8 devices") {
			found = true
			if len(d.Related) < 2 || filepath.ToSlash(d.Related[1].File) != "accelerate/multinode.yaml" {
				t.Errorf("related %+v", d.Related)
			}
		}
	}
	if !found {
		t.Errorf("no TL701 with the launcher's device count:\n%s", out)
	}
	// Text output notes the other files' lines; SARIF carries them as relatedLocations.
	_, text, _ := cli(t, nil, "check", "--select", "TL701", ".")
	for _, want := range []string{"examples/deepspeed/ds_z3_config.json:2:23", "note: recipes/sft.yaml:29:30", "note: accelerate/multinode.yaml:12:16"} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
	_, sarif, _ := cli(t, nil, "check", "--format", "sarif", "--select", "TL701", ".")
	if !strings.Contains(sarif, "relatedLocations") || !strings.Contains(sarif, "accelerate/multinode.yaml") {
		t.Errorf("SARIF without the launcher as a related location:\n%s", sarif)
	}
	// Without the declaration, the device count is unknown: no train_batch_size finding.
	if err := os.Remove(filepath.Join(dir, ".trainlint.toml")); err != nil {
		t.Fatal(err)
	}
	_, out, _ = cli(t, nil, "check", "--format", "json", ".")
	if strings.Contains(out, "train_batch_size 24") {
		t.Errorf("train_batch_size compared without a launcher:\n%s", out)
	}
}

// A named file is widened to its config directory's runs only when it is a group option that
// a defaults list names; the project's config applies to the runs it joins; the files given
// are reported whether named or walked; a primary named from its own folder stays its run.
func TestNamedGroupOptionEdges(t *testing.T) {
	tree := map[string]string{
		"conf/train.yaml":        "defaults:\n  - _self_\n  - model: resnet\n  - trainer: gpu\nseed: 1\n",
		"conf/model/resnet.yaml": "_target_: src.models.Classifier\nnet:\n  backbone: resnet50\n",
		"conf/trainer/gpu.yaml":  "_target_: lightning.pytorch.trainer.Trainer\naccelerator: gpu\ndevices: 4\nstrategy: fsdp\nsync_batchnorm: false\n",
		// an HF recipe in a folder of the config directory no defaults list names: no group
		// option, so its own run (fp16 and bf16 both on stops the Trainer)
		"conf/sft/llama.yaml": "model_name_or_path: meta-llama/Llama-3.1-8B\nfp16: true\nbf16: true\nper_device_train_batch_size: 4\n",
		// a top-level `defaults:` mapping of another tool (Mergify) is no Hydra defaults list
		".mergify.yml": "defaults:\n  actions:\n    queue:\n      method: squash\n",
	}
	dir := writeTree(t, tree)
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	run := func(args ...string) (int, string) {
		code, out, _ := cli(t, nil, append([]string{"check", "--quiet", "--no-color"}, args...)...)
		return code, out
	}
	if code, out := run("--only-configs", "conf/sft/llama.yaml"); code != 1 || !strings.Contains(out, "TL706") {
		t.Errorf("the recipe lost its own run (exit %d):\n%s", code, out)
	}
	if _, out := run("--only-configs", "conf/trainer/gpu.yaml"); !strings.Contains(out, "conf/trainer/gpu.yaml:5:17") || !strings.Contains(out, "TL501") {
		t.Errorf("the named group option lacks its run's TL501:\n%s", out)
	}
	if _, out := run("conf/trainer", "conf/model/resnet.yaml"); !strings.Contains(out, "conf/trainer/gpu.yaml:5:17") {
		t.Errorf("a walked folder beside a named file lost the run's TL501:\n%s", out)
	}
	t.Chdir(filepath.Join(dir, "conf"))
	if _, out := run("train.yaml"); !strings.Contains(out, "TL501") {
		t.Errorf("the primary named from its own folder lost its run's TL501:\n%s", out)
	}
	// A group option named from its group's folder: the config directory above the working
	// directory (inside the repository) is its run's, as from the top.
	t.Chdir(filepath.Join(dir, "conf", "trainer"))
	if _, out := run("--only-configs", "gpu.yaml"); !strings.Contains(out, "gpu.yaml:5:17") || !strings.Contains(out, "TL501") || strings.Contains(out, "../") {
		t.Errorf("the group option named from its own folder lacks its run's TL501:\n%s", out)
	}
	// A walk of the group's folder, from there and from the top, lints its options in the
	// same runs, reporting only the files walked.
	if _, out := run("."); !strings.Contains(out, "gpu.yaml:5:17") || strings.Contains(out, "../") || strings.Contains(out, "llama") {
		t.Errorf("a walk of the group's folder from inside lacks its run's TL501:\n%s", out)
	}
	// A path that leaves the config directory and comes back names the same files.
	if _, out := run("../../../" + filepath.Base(dir) + "/conf/trainer"); !strings.Contains(out, "conf/trainer/gpu.yaml:5:17") {
		t.Errorf("a walk of ../../../%s/conf/trainer lacks its run's TL501:\n%s", filepath.Base(dir), out)
	}
	t.Chdir(dir)
	if _, out := run("conf/trainer"); !strings.Contains(out, "conf/trainer/gpu.yaml:5:17") || strings.Contains(out, "llama") {
		t.Errorf("a walk of the group's folder lacks its run's TL501:\n%s", out)
	}
	// The recipe in a sibling folder, walked or named beside the group's option, keeps its
	// own findings: the config directory's runs read it for nothing and do not mute it.
	for _, args := range [][]string{{"conf/sft", "conf/trainer"}, {"conf/trainer/gpu.yaml", "conf/sft/llama.yaml"}} {
		if _, out := run(args...); !strings.Contains(out, "conf/sft/llama.yaml") || !strings.Contains(out, "TL706") || !strings.Contains(out, "conf/trainer/gpu.yaml:5:17") {
			t.Errorf("check %s: the recipe's TL706 or the option's TL501 is lost:\n%s", strings.Join(args, " "), out)
		}
	}
	t.Chdir(dir)
	// A group's option in a subfolder with groups of its own (NeMo-Framework-Launcher's
	// conf/training/nerf/model/*.yaml): its interpolation resolves in the run of the
	// config directory two folders up, not in a run of the option's own folder.
	for name, text := range map[string]string{
		"conf2/config.yaml":                "defaults:\n  - _self_\n  - training: nerf/dream\n",
		"conf2/training/nerf/dream.yaml":   "defaults:\n  - model: m\n  - _self_\ntrainer:\n  max_steps: 10\n",
		"conf2/training/nerf/model/m.yaml": "steps: ${training.trainer.max_steps}\n",
	} {
		os.MkdirAll(filepath.Dir(name), 0o755)
		os.WriteFile(name, []byte(text), 0o644)
	}
	if _, out := run("--only-configs", "conf2/training/nerf/model/m.yaml"); strings.Contains(out, "TL006") {
		t.Errorf("the nested option's interpolation did not resolve in its run:\n%s", out)
	}
	os.WriteFile(".trainlint.toml", []byte("ignore = [\"TL501\"]\n"), 0o644)
	if code, out := run("--only-configs", "conf/trainer/gpu.yaml"); code != 0 || strings.Contains(out, "TL501") {
		t.Errorf("the project's ignore does not reach the run of a named group option (exit %d):\n%s", code, out)
	}
}

// TestReadAloneRemembersRuns: readAlone counts the files of the runs the lint already composed
// from what the lint remembered, and the counts equal those of composing every run afresh: in
// mmCodeTree default_runtime.py is read by two runs, each leaf by its own alone.
func TestReadAloneRemembersRuns(t *testing.T) {
	dir := writeTree(t, mmCodeTree())
	ins, errs, _ := collectInputs([]string{dir}, "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	opts := sameOptions(lint.Options{})
	rp := planRuns(ins, nil, opts)
	if len(rp.trees) != 1 {
		t.Fatalf("%d trees, want 1", len(rp.trees))
	}
	tr := rp.trees[0]
	rp.lint(lint.NewResult(), map[string][]byte{}, allRules(), opts)
	if len(tr.reads) == 0 {
		t.Fatal("the lint remembered no run's files")
	}
	fsys, err := openTreeFS(tr.root, 10<<20) // the lint closed the tree's
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.close()
	// The remembered files are what readAlone counts (a file only the memo names is counted).
	for _, m := range tr.reads {
		m["remembered-only.py"] = 1
	}
	tr.fsys, tr.allReaders = fsys, nil
	if tr.readAlone("configs/det/leaf.py", opts); tr.allReaders["remembered-only.py"] != len(tr.reads) {
		t.Errorf("readers %v: the remembered runs were not counted", tr.allReaders)
	}
	for _, m := range tr.reads {
		delete(m, "remembered-only.py")
	}
	tr.allReaders = nil
	if !tr.readAlone("configs/det/leaf.py", opts) || tr.readAlone("configs/_base_/default_runtime.py", opts) {
		t.Errorf("readers %v: want leaf.py read by one run, default_runtime.py by two", tr.allReaders)
	}
	remembered := tr.allReaders
	tr.allReaders, tr.reads = nil, nil
	tr.readAlone("configs/det/leaf.py", opts)
	if !maps.Equal(remembered, tr.allReaders) {
		t.Errorf("readers from the remembered runs %v, composed afresh %v", remembered, tr.allReaders)
	}
}

// TestNamedJoinedFiles: a DeepSpeed file named alone (pre-commit names the staged files) is
// linted with the recipes of its repository that name it, and a recipe named alone reads its
// DeepSpeed file from the repository's top, as a walk does: both give the walk's errors at the
// DeepSpeed file (micro batch 4 against the recipe's 8, fp16 against bf16), which linted alone
// neither did. The recipe read for the DeepSpeed file is not reported itself; a DeepSpeed file
// no recipe names is linted alone.
func TestNamedJoinedFiles(t *testing.T) {
	writeTree(t, joinTree())
	const ds = "recipes/accelerate_configs/ds.json"
	atDS := func(res *lint.Result) string { return findingsIn(res, ds) }
	_, walk, _ := checkJSON(t, ".")
	want := atDS(walk)
	if !strings.Contains(want, "TL701") || !strings.Contains(want, "TL706") {
		t.Fatalf("walk: %q at ds.json, want TL701 and TL706", want)
	}
	_, named, _ := checkJSON(t, ds)
	if got := atDS(named); got != want {
		t.Errorf("ds.json named: %q, want the walk's %q", got, want)
	}
	if len(named.Files) != 1 || len(named.Diagnostics) != strings.Count(want, "TL") {
		t.Errorf("ds.json named: files %+v, findings %v: want ds.json's alone", named.Files, findings(named))
	}
	_, recipe, _ := checkJSON(t, "recipes/zephyr/sft/config.yaml")
	if got := atDS(recipe); got != want {
		t.Errorf("recipe named: %q at ds.json, want the walk's %q", got, want)
	}
	if _, lone, _ := checkJSON(t, "recipes/accelerate_configs/lone.json"); len(lone.Diagnostics) != 0 || len(lone.Files) != 1 {
		t.Errorf("lone.json named: %v", findings(lone))
	}
}

// TestReadAloneLargeTree: a run's fix stays in a repository with more code files than
// maxCodeFiles when the walk of the whole tree read them (its modules and scripts count), and
// is dropped when only a folder of it is checked, so that telling who reads the primary would
// mean reading thousands of files the lint did not.
func TestReadAloneLargeTree(t *testing.T) {
	tree := map[string]string{
		".git/HEAD":                 "ref: refs/heads/main\n",
		"configs/_base_/runtime.py": "default_scope = 'mmdet'\n",
		"configs/det/leaf.py": "_base_ = '../_base_/runtime.py'\ntrain_dataloader = dict(batch_size=2, num_workers=2)\n" +
			"val_dataloader = dict(batch_size=1, num_workers=2)\n",
	}
	for i := range maxCodeFiles + 100 {
		tree[fmt.Sprintf("pkg/m%d/mod.py", i)] = "import os\n\n\ndef f():\n    return os.sep\n"
	}
	writeTree(t, tree)
	fixed := func(res *lint.Result) bool {
		for _, d := range res.Diagnostics {
			if d.Code == "TL202" && d.File == "configs/det/leaf.py" {
				return d.Fix != nil
			}
		}
		t.Fatalf("no TL202 at leaf.py: %v", findings(res))
		return false
	}
	if _, res, _ := checkJSON(t, "."); !fixed(res) {
		t.Error("whole tree walked: the TL202 fix at leaf.py was dropped")
	}
	if _, res, _ := checkJSON(t, "configs/det"); fixed(res) {
		t.Error("configs/det checked: the TL202 fix was kept though the tree's other files were not read")
	}
}

// TestWalkDirMax: the walk widening reads stops past its bound of folder entries and says so;
// without a bound it lists every config.
func TestWalkDirMax(t *testing.T) {
	tree := map[string]string{}
	for i := range 30 {
		tree[fmt.Sprintf("d%02d/c.yaml", i)] = "a: 1\n"
	}
	dir := writeTree(t, tree)
	if files, _, over := walkDirMax(dir, 10); !over || len(files) > 10 {
		t.Errorf("bound 10: %d files, over %v; want over", len(files), over)
	}
	if files, _, over := walkDirMax(dir, 0); over || len(files) != 30 {
		t.Errorf("no bound: %d files, over %v; want 30", len(files), over)
	}
}

// TestJSONRecipeJoined: an HF recipe written in JSON (HfArgumentParser.parse_json_file) is
// joined with the DeepSpeed file its "deepspeed" names, as a YAML recipe is: from a walk, with
// either file named, and in the editor from either side.
func TestJSONRecipeJoined(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"recipes/sft/args.json": "{\"output_dir\": \"out\", \"learning_rate\": 2e-05, \"per_device_train_batch_size\": 8,\n" +
			" \"gradient_accumulation_steps\": 2, \"bf16\": true, \"deepspeed\": \"recipes/ds/ds.json\"}\n",
		"recipes/ds/ds.json": "{\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"gradient_accumulation_steps\": \"auto\",\n" +
			"  \"fp16\": {\"enabled\": true}\n}\n",
		"recipes/ds/lone.json": "{\"train_micro_batch_size_per_gpu\": 2}\n",
	})
	const ds = "recipes/ds/ds.json"
	_, walk, _ := checkJSON(t, ".")
	want := findingsIn(walk, ds)
	if !strings.Contains(want, "TL701") || !strings.Contains(want, "TL706") {
		t.Fatalf("walk: %q at ds.json, want TL701 and TL706 from the JSON recipe's run", want)
	}
	for _, named := range []string{ds, "recipes/sft/args.json"} {
		if _, res, _ := checkJSON(t, named); findingsIn(res, ds) != want {
			t.Errorf("%s named: %q at ds.json, want the walk's %q", named, findingsIn(res, ds), want)
		}
	}
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	for _, edited := range []string{p("recipes/sft/args.json"), p(ds)} {
		runs := editorRuns(edited, diskRead, "")
		if len(runs) != 1 || strings.Join(runs[0].Files, " ") != p("recipes/sft/args.json")+" "+p(ds) {
			t.Errorf("editor, %s: runs %+v, want the JSON recipe and ds.json", edited, runs)
		}
	}
	if runs := editorRuns(p("recipes/ds/lone.json"), diskRead, ""); len(runs) > 1 || len(runs) == 1 && len(runs[0].Files) != 1 {
		t.Errorf("editor, lone.json: runs %+v, want none joined", runs)
	}
	// A JSON file that mentions deepspeed but names no DeepSpeed file is no recipe, and data
	// files (many, or large) neither count against the editor's cap nor hide the recipe.
	os.MkdirAll(p("results"), 0o755)
	os.WriteFile(p("results/summary.json"), []byte(`{"model": "Qwen/Qwen2.5-7B", "deepspeed": "ZeRO Stage 2", "num_gpus": 8}`+"\n"), 0o644)
	os.MkdirAll(p("data"), 0o755)
	for i := range maxEditorRecipes + 1 {
		os.WriteFile(p(fmt.Sprintf("data/d%04d.json", i)), []byte(`{"text": "a", "label": 1}`+"\n"), 0o644)
	}
	if _, res, _ := checkJSON(t, "--fail-on", "info", "results/summary.json"); len(res.Diagnostics) != 0 {
		t.Errorf("results/summary.json: %v", findings(res))
	}
	if runs := editorRuns(p(ds), diskRead, ""); len(runs) != 1 || len(runs[0].Files) != 2 {
		t.Errorf("editor, ds.json beside %d data files: runs %+v, want the JSON recipe's", maxEditorRecipes+1, runs)
	}
	// Past the editor's cap of YAML files, JSON recipes are still searched.
	os.MkdirAll(p("conf"), 0o755)
	for i := range maxEditorRecipes + 1 {
		os.WriteFile(p(fmt.Sprintf("conf/c%04d.yaml", i)), []byte("a: 1\n"), 0o644)
	}
	if runs := editorRuns(p(ds), diskRead, ""); len(runs) != 1 || len(runs[0].Files) != 2 {
		t.Errorf("editor, ds.json beside %d YAML files: runs %+v, want the JSON recipe's", maxEditorRecipes+1, runs)
	}
}

// TestGroupOptionNamingDeepSpeedStaysInItsRun: a Hydra group option that sets deepspeed: is
// part of its config directory's runs, whichever folder is walked or file named: it is never
// linted as a recipe of its own, whose unset keys would be the Trainer's defaults where the
// primary sets them. Its DeepSpeed path, written from the repository's top, is read from
// there also when only conf/ or the group's folder is checked (walkTop), and the contradiction
// found there (the JSON's micro batch against the option's) is reported, as from the top.
func TestGroupOptionNamingDeepSpeedStaysInItsRun(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".git/HEAD":              "ref: refs/heads/main\n",
		"conf/config.yaml":       "defaults:\n  - _self_\n  - training: sft\nreport_to: wandb\neval_strategy: steps\neval_steps: 100\ndataloader_num_workers: 4\n",
		"conf/training/sft.yaml": "# @package _global_\nper_device_train_batch_size: 8\ndeepspeed: ds/z.json\n",
		"ds/z.json":              "{\n  \"train_micro_batch_size_per_gpu\": 4\n}\n",
	})
	check := func(ds string, args ...string) {
		t.Helper()
		_, res, _ := checkJSON(t, args...)
		for _, d := range res.Diagnostics {
			if strings.HasSuffix(d.File, "training/sft.yaml") || d.Code == "TL006" {
				t.Errorf("check %s: %s:%d %s %s", strings.Join(args, " "), d.File, d.Line, d.Code, d.Message)
			}
		}
		if got := findingsIn(res, ds); got != ds+":2 TL701 error" {
			t.Errorf("check %s: %q at %s, want the TL701 a walk from the top reports: %v", strings.Join(args, " "), got, ds, findings(res))
		}
	}
	check("ds/z.json", ".")
	check("ds/z.json", "conf")
	check("ds/z.json", "conf/training")
	check("ds/z.json", "conf/training/sft.yaml")
	t.Chdir(filepath.Join(dir, "conf"))
	check("../ds/z.json", ".")
	check("../ds/z.json", "training")
}

// TestWalkedFolderJoinedFromRepository: a folder of recipes walked below the repository's top
// (`check examples/train_full`, or `check .` inside it) reads the DeepSpeed files its recipes
// name from the top, where the launch reads them, as naming the recipes does: the walk from
// the top's errors at the DeepSpeed file, no "not found". Discovery stays in the folder
// walked: a recipe of a sibling folder is not linted, nor the runs the config file declares
// for it (which would replace the folder's own runs).
func TestWalkedFolderJoinedFromRepository(t *testing.T) {
	tree := joinTree()
	tree["recipes/other/config.yaml"] = "output_dir: out\nper_device_train_batch_size: 2\ndeepspeed: recipes/accelerate_configs/lone.json\n"
	dir := writeTree(t, tree)
	const ds = "recipes/accelerate_configs/ds.json"
	_, top, _ := checkJSON(t, ".")
	want := findingsIn(top, ds)
	if !strings.Contains(want, "TL701") || !strings.Contains(want, "TL706") {
		t.Fatalf("walk from the top: %q at ds.json, want TL701 and TL706", want)
	}
	noOther := func(how string, res *lint.Result) {
		t.Helper()
		for _, d := range res.Diagnostics {
			if d.Code == "TL006" || strings.Contains(d.File, "other/") || strings.Contains(d.File, "lone.json") {
				t.Errorf("%s: %s:%d %s %s", how, d.File, d.Line, d.Code, d.Message)
			}
		}
	}
	_, walk, _ := checkJSON(t, "recipes/zephyr")
	if got := findingsIn(walk, ds); got != want {
		t.Errorf("recipes/zephyr walked: %q at ds.json, want the top's %q", got, want)
	}
	noOther("recipes/zephyr walked", walk)
	os.WriteFile(filepath.Join(dir, ".trainlint.toml"), []byte("[[runs]]\nconfig = \"recipes/other/config.yaml\"\n"), 0o644)
	_, walk, _ = checkJSON(t, "recipes/zephyr")
	if got := findingsIn(walk, ds); got != want {
		t.Errorf("recipes/zephyr walked, a run declared for recipes/other: %q at ds.json, want %q", got, want)
	}
	noOther("recipes/zephyr walked, a run declared for recipes/other", walk)
	t.Chdir(filepath.Join(dir, "recipes", "zephyr", "sft"))
	_, inside, _ := checkJSON(t, ".")
	if got, want := findingsIn(inside, "../../accelerate_configs/ds.json"), strings.ReplaceAll(want, ds, "../../accelerate_configs/ds.json"); got != want {
		t.Errorf("checked from inside recipes/zephyr/sft: %q, want %q: %v", got, want, findings(inside))
	}
	noOther("checked from inside recipes/zephyr/sft", inside)
}

// TestExpandedRecipeJoinedFromItsTree: a recipe at the top of a Hydra config directory that
// names a DeepSpeed file outside it, walked or named beside a group option, is joined from the
// repository (its own tree), not reported unresolved by the config directory's runs, which
// read it only because they expand to the whole directory.
func TestExpandedRecipeJoinedFromItsTree(t *testing.T) {
	writeTree(t, map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		"conf/train.yaml":       "defaults:\n  - _self_\n  - trainer: gpu\nseed: 1\n",
		"conf/trainer/gpu.yaml": "_target_: lightning.pytorch.trainer.Trainer\naccelerator: gpu\ndevices: 4\nstrategy: fsdp\nsync_batchnorm: false\n",
		"conf/hf.yaml":          "output_dir: out\nper_device_train_batch_size: 8\nbf16: true\ndeepspeed: ds/z.json\n",
		"ds/z.json":             "{\n  \"train_micro_batch_size_per_gpu\": 4\n}\n",
	})
	for _, args := range [][]string{{"conf/trainer", "conf/hf.yaml"}, {"conf/trainer", "."}} {
		_, res, _ := checkJSON(t, args...)
		for _, d := range res.Diagnostics {
			if d.Code == "TL006" {
				t.Errorf("check %s: %s:%d %s", strings.Join(args, " "), d.File, d.Line, d.Message)
			}
		}
		if !strings.Contains(findingsIn(res, "ds/z.json"), "TL701") {
			t.Errorf("check %s: no TL701 at ds/z.json: %v", strings.Join(args, " "), findings(res))
		}
	}
}

// TestRunsFromRepositoryAsWalked: the ways a config directory or recipe folder below the
// repository reaches the DeepSpeed file or launcher it names from the repository's top agree
// with a walk from the top, and keep what a walk of the folder alone kept (found by a review
// of walkTop): a named primary beside its named option is one tree, not two (the error once,
// no "not found"); a named option reports the error whose other side is the primary's, since
// the option names the file; declared runs of another folder do not replace the runs of a
// folder walked beside a named file; a launcher a declared run names is read from the top
// whether the recipe's folder is walked or the recipe named; a folder that is a symbolic link
// out of the repository is composed where it is, as before; a folder without a repository
// above it keeps its fix, and so does one in a repository with many other configs.
func TestRunsFromRepositoryAsWalked(t *testing.T) {
	codes := func(res *lint.Result, file string) string {
		var out []string
		for _, d := range res.Diagnostics {
			if strings.HasSuffix(d.File, file) {
				out = append(out, d.Code)
			}
		}
		return strings.Join(out, " ")
	}
	noTL006 := func(how string, res *lint.Result) {
		t.Helper()
		for _, d := range res.Diagnostics {
			if d.Code == "TL006" {
				t.Errorf("%s: %s:%d %s", how, d.File, d.Line, d.Message)
			}
		}
	}
	t.Run("hydra", func(t *testing.T) {
		writeTree(t, map[string]string{
			".git/HEAD":              "ref: refs/heads/main\n",
			"conf/config.yaml":       "defaults:\n  - _self_\n  - training: sft\nper_device_train_batch_size: 8\nreport_to: wandb\neval_strategy: steps\neval_steps: 100\ndataloader_num_workers: 4\n",
			"conf/training/sft.yaml": "# @package _global_\ndeepspeed: ds/z.json\n",
			"ds/z.json":              "{\n  \"train_micro_batch_size_per_gpu\": 4\n}\n",
		})
		for _, args := range [][]string{{"."}, {"conf"}, {"conf/config.yaml"}, {"conf/training/sft.yaml"}, {"conf/config.yaml", "conf/training/sft.yaml"},
			{"conf/training", "conf/config.yaml"}, {"conf/config.yaml", "--override", "eval_steps=50"}, {"conf", "--override", "eval_steps=50"},
			{"ds/z.json"}, {"ds"}} {
			_, res, _ := checkJSON(t, args...)
			how := "check " + strings.Join(args, " ")
			noTL006(how, res)
			if got := codes(res, "ds/z.json"); got != "TL701" {
				t.Errorf("%s: %q at ds/z.json, want TL701 once: %v", how, got, findings(res))
			}
		}
	})
	t.Run("declared", func(t *testing.T) {
		tree := joinTree()
		tree["recipes/other/config.yaml"] = "output_dir: out\nper_device_train_batch_size: 2\ndeepspeed: recipes/accelerate_configs/lone.json\n"
		tree[".trainlint.toml"] = "[[runs]]\nconfig = \"recipes/other/config.yaml\"\n"
		writeTree(t, tree)
		const ds = "recipes/accelerate_configs/ds.json"
		for _, args := range [][]string{{"recipes/zephyr"}, {"recipes/zephyr", "recipes/other/config.yaml"}, {"recipes/zephyr", "recipes/accelerate_configs/z3.json"}} {
			_, res, _ := checkJSON(t, args...)
			if got := codes(res, ds); got != "TL701 TL706" {
				t.Errorf("check %s: %q at ds.json, want zephyr's TL701 TL706: %v", strings.Join(args, " "), got, findings(res))
			}
		}
	})
	t.Run("deepspeed folder", func(t *testing.T) {
		// A folder of DeepSpeed files walked below its repository is linted as naming each
		// of them: in the runs of the recipes that name them (zephyr's contradicts ds.json);
		// files of the folder only are reported.
		writeTree(t, joinTree())
		const ds = "recipes/accelerate_configs/ds.json"
		_, named, _ := checkJSON(t, ds, "recipes/accelerate_configs/z3.json", "recipes/accelerate_configs/lone.json")
		want := codes(named, ds)
		if want != "TL701 TL706" {
			t.Fatalf("check of the files named: %q at ds.json, want zephyr's TL701 TL706: %v", want, findings(named))
		}
		_, walked, _ := checkJSON(t, "recipes/accelerate_configs")
		if got := codes(walked, ds); got != want {
			t.Errorf("check recipes/accelerate_configs: %q at ds.json, want %q: %v", got, want, findings(walked))
		}
		for _, d := range walked.Diagnostics {
			if !strings.HasPrefix(d.File, "recipes/accelerate_configs/") {
				t.Errorf("reported outside the folder walked: %s:%d %s", d.File, d.Line, d.Message)
			}
		}
		t.Chdir("recipes/accelerate_configs")
		_, inside, _ := checkJSON(t, ".")
		if got := codes(inside, "ds.json"); got != want || len(inside.Diagnostics) == 0 || inside.Diagnostics[0].File != "ds.json" {
			t.Errorf("check . from the folder: %q at ds.json, want %q: %v", got, want, findings(inside))
		}
	})
	t.Run("launcher", func(t *testing.T) {
		writeTree(t, map[string]string{
			".git/HEAD":          "ref: refs/heads/main\n",
			".trainlint.toml":    "[[runs]]\nconfig = \"recipes/sft/r.yaml\"\nlauncher = \"launch/acc.yaml\"\n",
			"recipes/sft/r.yaml": "output_dir: out\nper_device_train_batch_size: 4\n",
			"launch/acc.yaml":    "distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: launch/ds.json\nnum_processes: 8\nmixed_precision: bf16\n",
			"launch/ds.json":     "{\"gradient_clipping\": 0.5, \"zero_optimization\": {\"stage\": 2}}\n",
		})
		_, top, _ := checkJSON(t, ".")
		want := codes(top, "launch/acc.yaml") + " | " + codes(top, "launch/ds.json")
		if !strings.Contains(want, "TL011") {
			t.Fatalf("check .: %q, want TL011 at the launcher and the DeepSpeed file: %v", want, findings(top))
		}
		for _, arg := range []string{"recipes", "recipes/sft", "recipes/sft/r.yaml", "launch/acc.yaml", "launch", "launch/ds.json"} {
			_, res, _ := checkJSON(t, arg)
			noTL006("check "+arg, res)
			got, want := codes(res, "launch/acc.yaml")+" | "+codes(res, "launch/ds.json"), want
			if arg == "launch/ds.json" {
				want = " | " + codes(top, "launch/ds.json") // the launcher's own is not in the file given
			}
			if got != want {
				t.Errorf("check %s: %q, want the top's %q", arg, got, want)
			}
		}
		// Named alone, the launcher (or its DeepSpeed file) reports nothing in the recipe,
		// which was not given (pre-commit staging the launcher must not fail on the recipe).
		os.WriteFile("recipes/sft/r.yaml", []byte("output_dir: out\nper_device_train_batch_size: 4\nper_device_eval_batch_size: 1\n"), 0o644)
		for _, arg := range []string{"launch/acc.yaml", "launch/ds.json"} {
			if _, res, _ := checkJSON(t, arg); codes(res, "r.yaml") != "" {
				t.Errorf("check %s: %q in the recipe not given", arg, codes(res, "r.yaml"))
			}
		}
	})
	t.Run("no repository", func(t *testing.T) {
		writeTree(t, map[string]string{
			"recipes/r.yaml":      "output_dir: out\nper_device_train_batch_size: 8\ndeepspeed: ds/z.json\n",
			"conf/config.yaml":    "defaults:\n  - _self_\n  - trainer: a\nper_device_train_batch_size: 8\ndeepspeed: ds/z.json\n",
			"conf/trainer/a.yaml": "# @package _global_\nreport_to: wandb\n",
			"ds/z.json":           "{\n  \"train_micro_batch_size_per_gpu\": 4\n}\n",
		})
		for _, arg := range []string{"recipes", "recipes/r.yaml", "conf", "conf/config.yaml"} {
			_, res, _ := checkJSON(t, arg)
			noTL006("check "+arg, res)
			if !strings.Contains(codes(res, "ds/z.json"), "TL701") {
				t.Errorf("check %s: no TL701 at ds/z.json: %v", arg, findings(res))
			}
		}
	})
	t.Run("the run that names the file", func(t *testing.T) {
		writeTree(t, map[string]string{
			".git/HEAD":              "ref: refs/heads/main\n",
			"conf/config.yaml":       "defaults:\n  - _self_\n  - training: a\n  - experiment: null\nreport_to: wandb\n",
			"conf/training/a.yaml":   "# @package _global_\nper_device_train_batch_size: 4\ndeepspeed: ds/z.json\n",
			"conf/training/b.yaml":   "# @package _global_\nper_device_train_batch_size: 2\ndeepspeed: ds/z.json\n",
			"conf/experiment/e.yaml": "# @package _global_\ndefaults:\n  - override /training: b\n",
			"ds/z.json":              "{\n  \"train_micro_batch_size_per_gpu\": 4\n}\n",
		})
		if _, res, _ := checkJSON(t, "conf/training/a.yaml"); codes(res, "ds/z.json") != "" {
			t.Errorf("a.yaml named: %v, the mismatch is b.yaml's", findings(res))
		}
		if _, res, _ := checkJSON(t, "conf/training/b.yaml"); codes(res, "ds/z.json") != "TL701" {
			t.Errorf("b.yaml named: %v, want its TL701", findings(res))
		}
	})
	t.Run("code beside", func(t *testing.T) {
		writeTree(t, map[string]string{
			".git/HEAD":             "ref: refs/heads/main\n",
			".trainlint.toml":       "[[runs]]\nconfig = \"other/x.yaml\"\n",
			"recipes/sft/r.yaml":    "output_dir: out\nper_device_train_batch_size: 8\ndeepspeed: ds/z.json\n",
			"recipes/sft/helper.py": "x = 1\n",
			"other/x.yaml":          "output_dir: out\nper_device_train_batch_size: 8\nper_device_eval_batch_size: 1\n",
			"ds/z.json":             "{\n  \"train_micro_batch_size_per_gpu\": 4\n}\n",
		})
		testfs.Write(t, ".", map[string]string{"scripts/train.py": "import sys\nprint(sys.argv)\n"})
		for _, args := range [][]string{{"recipes/sft"}, {"--only-configs", "recipes/sft/r.yaml", "scripts/train.py"}} {
			_, res, _ := checkJSON(t, args...)
			if codes(res, "ds/z.json") != "TL701" || codes(res, "other/x.yaml") != "" {
				t.Errorf("check %s: %v, want the recipe's TL701 and nothing of other/", strings.Join(args, " "), findings(res))
			}
		}
	})
	t.Run("workspace above the repository", func(t *testing.T) {
		dir := writeTree(t, map[string]string{
			"repo/.git/HEAD":                       "ref: refs/heads/main\n",
			"repo/.trainlint.toml":                 "[[runs]]\nconfig = \"configs/det/leaf.py\"\noverrides = [\"val_dataloader.batch_size=2\"]\n",
			"repo/configs/_base_/datasets/data.py": "train_dataloader = dict(batch_size=2, num_workers=2)\nval_dataloader = dict(batch_size=1, num_workers=2)\nval_evaluator = dict(type='CocoMetric')\n",
			"repo/configs/det/leaf.py":             "_base_ = ['../_base_/datasets/data.py']\ntrain_cfg = dict(type='EpochBasedTrainLoop', max_epochs=12, val_interval=1)\n",
		})
		_, inRepo, _ := checkJSON(t, "repo")
		_, above, _ := checkJSON(t, ".")
		if got, want := strings.Join(findings(above), " "), strings.Join(findings(inRepo), " "); got != want {
			t.Errorf("check . above the repository: %s\nwant check repo's: %s", got, want)
		}
		// A named config's run does not depend on a plain YAML file named beside it at the top
		// (pre-commit names whatever is staged).
		testfs.Write(t, dir, map[string]string{
			"repo/configs/seg/other.py": "_base_ = ['../_base_/datasets/data.py']\ntrain_cfg = dict(type='EpochBasedTrainLoop', max_epochs=12, val_interval=1)\n",
			"repo/top.yaml":             "output_dir: out\nper_device_train_batch_size: 4\ndataloader_num_workers: 2\nreport_to: wandb\n",
		})
		_, alone, _ := checkJSON(t, "--only-configs", "repo/configs/seg/other.py")
		_, beside, _ := checkJSON(t, "--only-configs", "repo/configs/seg/other.py", "repo/top.yaml")
		if a, b := findingsIn(alone, "repo/configs/_base_/datasets/data.py"), findingsIn(beside, "repo/configs/_base_/datasets/data.py"); a != b || a == "" {
			t.Errorf("other.py named: %q alone, %q beside top.yaml", a, b)
		}
		t.Chdir(filepath.Join(dir, "repo"))
		if _, res, _ := checkJSON(t, "."); strings.Contains(strings.Join(findings(res), " "), "TL202") {
			t.Errorf("check . in the repository: %v, the declared run's override sets the eval batch", findings(res))
		}
	})
	t.Run("symlink out of the repository", func(t *testing.T) {
		outside := t.TempDir()
		testfs.Write(t, outside, map[string]string{
			"conf/config.yaml":       "defaults:\n  - _self_\n  - training: sft\nper_device_eval_batch_size: 8\nreport_to: wandb\neval_strategy: steps\neval_steps: 100\ndataloader_num_workers: 4\n",
			"conf/training/sft.yaml": "# @package _global_\nper_device_train_batch_size: 16\ndeepspeed: ds/z.json\n",
		})
		dir := writeTree(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "ds/z.json": "{}\n"})
		if err := os.Symlink(filepath.Join(outside, "conf"), filepath.Join(dir, "conf")); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		for _, arg := range []string{"conf", "conf/training", "conf/training/sft.yaml"} {
			_, res, _ := checkJSON(t, arg)
			if got := codes(res, "training/sft.yaml"); strings.Contains(got, "TL101") || strings.Contains(got, "TL204") || strings.Contains(got, "TL401") {
				t.Errorf("check %s: %q at the option, linted as a recipe of its own: %v", arg, got, findings(res))
			}
			if arg == "conf" && !strings.Contains(codes(res, "conf/config.yaml"), "TL202") {
				t.Errorf("check conf: no TL202 at the primary: %v", findings(res))
			}
		}
	})
	t.Run("fixes", func(t *testing.T) {
		recipe := "output_dir: out\nper_device_train_batch_size: 16\nper_device_eval_batch_size: 8\ndeepspeed: cfg/ds.json\neval_strategy: steps\neval_steps: 10\nreport_to: wandb\ndataloader_num_workers: 2\n"
		tree := map[string]string{"cfg/r.yaml": recipe, "cfg/ds.json": "{\"train_micro_batch_size_per_gpu\": \"auto\"}\n"}
		dir := writeTree(t, tree)
		diff := func(how string) {
			t.Helper()
			if _, out, _ := cli(t, nil, "check", "--diff", "cfg"); !strings.Contains(out, "+per_device_eval_batch_size: 16") {
				t.Errorf("%s: no fix in --diff:\n%s", how, out)
			}
		}
		diff("no repository")
		testfs.Write(t, dir, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
		for i := range maxCodeFiles + 1 {
			testfs.Write(t, dir, map[string]string{fmt.Sprintf("other/c%04d.yaml", i): "a: 1\n"})
		}
		diff("a repository with many other configs")
	})
}

// TestDSWalkTop: a walked folder's DeepSpeed files join the recipes of the repository above it
// (a .git or a Python project's file marks it), never a working folder that is no repository.
func TestDSWalkTop(t *testing.T) {
	writeTree(t, map[string]string{"a/ds/z.json": "{\"train_batch_size\": 8, \"zero_optimization\": {\"stage\": 2}}\n", "b/.git/HEAD": "ref: refs/heads/main\n", "b/ds/z.json": "{}\n", "b/data/x.json": "{\"a\": 1}\n"})
	if got := dsWalkTop("a/ds"); got != "" {
		t.Errorf("no repository: %q, want none", got)
	}
	if got := dsWalkTop("b/ds"); got != "b" {
		t.Errorf("below b's .git: %q, want b", got)
	}
	if got := dsWalkTop("b"); got != "" {
		t.Errorf("the top itself: %q, want none", got)
	}
	isDS := func(p string) bool { return deepSpeedText(p, smallJSON(p)) }
	if isDS("b/data/x.json") || !isDS("a/ds/z.json") {
		t.Errorf("deepSpeedText: a data file or a DeepSpeed file misread")
	}
}

// TestCheckUnreadOptionRefusal: a group option no discovered run selects (only the command
// line does) keeps the start-up refusal its run would make, whether the folder is walked or
// the files are named; with the primary setting the value after it, Hydra starts: none.
func TestCheckUnreadOptionRefusal(t *testing.T) {
	tree := map[string]string{
		"conf/train.yaml":             "defaults:\n  - callbacks: default\n  - _self_\nseed: 1\n",
		"conf/callbacks/default.yaml": "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: val/acc\n  save_top_k: 3\n",
		"conf/callbacks/topk.yaml":    "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: null\n  save_top_k: 3\n",
	}
	for _, later := range []bool{false, true} {
		files := maps.Clone(tree)
		if later {
			files["conf/train.yaml"] += "callbacks:\n  model_checkpoint:\n    monitor: val/loss\n"
		}
		writeTree(t, files)
		for _, args := range [][]string{{"."}, {"conf/callbacks/topk.yaml", "conf/train.yaml"}} {
			_, out, errs := cli(t, nil, append([]string{"check", "--format", "json"}, args...)...)
			var res lint.Result
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("%v\n%s\n%s", err, out, errs)
			}
			var got []string
			for _, d := range res.Diagnostics {
				if d.Code == "TL011" {
					got = append(got, d.File+":"+strconv.Itoa(d.Line))
				}
			}
			want := "conf/callbacks/topk.yaml:4"
			if later {
				want = ""
			}
			if strings.Join(got, " ") != want {
				t.Errorf("later %v %v: TL011 at %v, want %q", later, args, got, want)
			}
		}
	}
}

// An eval config whose comment, copied from an experiment, names experiments is paired with
// them (+experiment=x); where Hydra refuses the experiment's override entries there, the pairing
// is a guess nobody launches, and no TL011 comes of it (Lightning-hydra's eval configs).
func TestGuessedExperimentPairingCLI(t *testing.T) {
	root := t.TempDir()
	testfs.Write(t, root, map[string]string{
		".git/HEAD":                      "ref: refs/heads/main\n",
		"configs/train.yaml":             "defaults:\n  - _self_\n  - data: a\n  - callbacks: default\n  - experiment: null\n",
		"configs/eval.yaml":              "# to run: python train.py experiment=x\ndefaults:\n  - _self_\n  - data: a\n  - trainer: default\nckpt_path: last.ckpt\n",
		"configs/trainer/default.yaml":   "max_epochs: 10\n",
		"configs/data/a.yaml":            "x: 1\n",
		"configs/data/b.yaml":            "x: 2\n",
		"configs/callbacks/default.yaml": "c: 1\n",
		"configs/callbacks/none.yaml":    "c: 2\n",
		"configs/experiment/x.yaml":      "# @package _global_\ndefaults:\n  - override /data: b\n  - override /callbacks: none\n",
	})
	_, res, _ := checkJSON(t, "--select", "TL011", root)
	if len(res.Diagnostics) != 0 {
		t.Errorf("TL011 from a guessed pairing: %+v", res.Diagnostics)
	}
	// Nor is it one of the runs a finding is found in: with eval.yaml the only run, a finding
	// of its data option gets no "found in 1 run" note. (eval.yaml composes a trainer with a
	// training length, as Lightning-hydra's does: an eval-named file with none trains nothing.)
	if err := os.Remove(filepath.Join(root, "configs", "train.yaml")); err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, root, map[string]string{"configs/data/a.yaml": "x: 1\nbatch_size: 8\nnum_workers: 0\n"})
	_, out, _ := cli(t, nil, "check", "--format", "text", "--select", "TL101", root)
	if !strings.Contains(out, "num_workers 0") || strings.Contains(out, "found in") {
		t.Errorf("want the TL101 with no run note:\n%s", out)
	}
}

// A file in a folder of a Hydra config directory that no defaults list names as a group
// (graphium's single_task overrides, read with yaml.safe_load) may not be Hydra's: its repeated
// key is reported as what PyYAML and OmegaConf each do, not as OmegaConf's refusal, which a
// listed group option's repeated key still gets.
func TestUnlistedFolderDuplicateKey(t *testing.T) {
	root := t.TempDir()
	testfs.Write(t, root, map[string]string{
		".git/HEAD":                            "ref: refs/heads/main\n",
		"expts/configs/config_gpu.yaml":        "defaults:\n  - base_config: large\n  - _self_\nconstants:\n  name: gpu\n",
		"expts/configs/base_config/large.yaml": "constants:\n  seed: 42\n  seed: 43\n",
		"expts/configs/single_task/mcf7.yaml":  "datamodule:\n  args:\n    backend: loky\n    backend: loky\n",
	})
	_, res, _ := checkJSON(t, "--select", "TL002", root)
	got := map[string]string{}
	for _, d := range res.Diagnostics {
		got[filepath.Base(d.File)] = d.Message
	}
	if m := got["large.yaml"]; !strings.Contains(m, "omegaconf") || !strings.Contains(m, "stops at start-up") {
		t.Errorf("a listed group option: %q", m)
	}
	if m := got["mcf7.yaml"]; !strings.Contains(m, "PyYAML keeps") || strings.Contains(m, "stops at start-up") {
		t.Errorf("an unlisted folder's file: %q", m)
	}
}

// A repository whose @hydra.main names its config file in config_path runs Hydra 1.0 or older
// (pytorch_sac: config_path='config/train.yaml', strict=True), where a group option without a
// @package header merges at the root: its keys are the run's top-level keys, and the primary's
// references to them resolve, beside a decorator of the form Hydra 1.0 reads too (a folder and
// config_name). With version_base (Hydra 1.2 and later) they do not, nor when one decorator of
// the repository gives it beside a legacy example.
func TestHydraLegacyPackages(t *testing.T) {
	const legacy = "@hydra.main(config_path='config/train.yaml', strict=True)\ndef main(cfg):\n    pass\n"
	for main, want := range map[string]int{
		legacy: 0,
		"@hydra.main(config_path='config', config_name='train')\ndef main(cfg):\n    pass\n":                                 1,
		legacy + "\n@hydra.main(version_base='1.3', config_path='config', config_name='train')\ndef other(cfg):\n    pass\n": 1,
		legacy + "\n@hydra.main(config_path='config', config_name='eval')\ndef other(cfg):\n    pass\n":                      0,
	} {
		root := t.TempDir()
		testfs.Write(t, root, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "train.py": main,
			"config/train.yaml":     "defaults:\n  - agent: sac\ncritic: ${double_q_critic.dim}\n",
			"config/agent/sac.yaml": "agent:\n  name: sac\ndouble_q_critic:\n  dim: 3\n"})
		_, res, _ := checkJSON(t, "--select", "TL006", root)
		if len(res.Diagnostics) != want {
			t.Errorf("%q: %d TL006, want %d: %+v", main, len(res.Diagnostics), want, res.Diagnostics)
		}
	}
}

// An option missing from the tree that the repository's Python registers with Hydra's
// ConfigStore (modulus-sym's architectures) is Hydra's to find: no finding.
func TestHydraConfigStoreGroups(t *testing.T) {
	for script, want := range map[string]int{
		"from hydra.core.config_store import ConfigStore\ncs = ConfigStore.instance()\ncs.store(group=\"model\", name=\"resnet\", node=ResNet)\n": 0,
		"print('no registration')\n": 1,
	} {
		root := t.TempDir()
		testfs.Write(t, root, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "conf.py": script,
			"config/train.yaml": "defaults:\n  - model: resnet\n  - _self_\nseed: 1\n", "config/data/a.yaml": "x: 1\n"})
		_, res, _ := checkJSON(t, "--select", "TL006", root)
		if len(res.Diagnostics) != want {
			t.Errorf("%q: %d TL006, want %d: %+v", script, len(res.Diagnostics), want, res.Diagnostics)
		}
	}
}

// A config of no group that the repository's Python registers with Hydra's ConfigStore by
// name (dpr-scale's conf/config.py: cs.store(name="config", node=MainConfig), nq.yaml's
// `- config`) is Hydra's to find: no finding. A name registered under a group is not it.
func TestHydraConfigStorePlainConfig(t *testing.T) {
	for script, want := range map[string]int{
		"from hydra.core.config_store import ConfigStore\ncs = ConfigStore.instance()\ncs.store(name=\"config\", node=MainConfig)\n":                    0,
		"from hydra.core.config_store import ConfigStore\ncs = ConfigStore.instance()\ncs.store(group=\"trainer\", name=\"config\", node=MainConfig)\n": 1,
	} {
		root := t.TempDir()
		testfs.Write(t, root, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "dpr_scale/conf/config.py": script,
			"dpr_scale/conf/nq.yaml":            "defaults:\n  - config\n  - override trainer: slurm\ntrainer:\n  max_epochs: 40\n",
			"dpr_scale/conf/trainer/slurm.yaml": "# @package _global_\ntrainer:\n  devices: 8\n"})
		_, res, _ := checkJSON(t, "--select", "TL006", root)
		if len(res.Diagnostics) != want {
			t.Errorf("%q: %d TL006, want %d: %+v", script, len(res.Diagnostics), want, res.Diagnostics)
		}
	}
}

// A primary naming a config out of its config directory (hulc2's train_affordance.yaml:
// `../paths@paths: general_paths`) has it read from the repository, as Hydra reads it, so
// ${paths.datasets} names a key; ${paths.nokey} still names none. So when the repository is
// walked, and when the primary or its folder is named (the tree widens to the repository).
func TestHydraConfigOutOfConfigDir(t *testing.T) {
	for _, given := range []string{"", "conf/affordance", "conf/affordance/train_affordance.yaml"} {
		for ref, want := range map[string]int{"datasets": 0, "nokey": 1} {
			root := t.TempDir()
			testfs.Write(t, root, map[string]string{".git/HEAD": "ref: refs/heads/main\n",
				"conf/affordance/train_affordance.yaml": "defaults:\n  - ../paths@paths: general_paths\n\ndataset_name: calvin\n" +
					"trainer:\n  max_epochs: 30\ndata_dir: ${paths." + ref + "}/${dataset_name}\n",
				"conf/paths/general_paths.yaml": "parent_folder: ../\nvr_data: ${paths.parent_folder}/VREnv/data/\ndatasets: /tmp/datasets/\n"})
			_, res, _ := checkJSON(t, "--select", "TL006", filepath.Join(root, given))
			if len(res.Diagnostics) != want {
				t.Errorf("%q, ${paths.%s}: %d TL006, want %d: %+v", given, ref, len(res.Diagnostics), want, res.Diagnostics)
			}
		}
	}
}

// Options fairseq's registries store in Hydra's ConfigStore (a vendored fairseq's registry.py:
// register_x(name, dataclass=...) stores name in the group setup_registry("--x") names) are
// Hydra's to find: no finding. A registration without a dataclass stores nothing, and a
// setup_registry of the repository's that stores nothing registers nothing.
func TestHydraFairseqRegistryGroups(t *testing.T) {
	registry := "from hydra.core.config_store import ConfigStore\n\ndef setup_registry(registry_name: str, base_class=None, default=None, required=False):\n" +
		"    registry_name = registry_name[2:].replace(\"-\", \"_\")\n\n    def register_x(name, dataclass=None):\n        def register_x_cls(cls):\n" +
		"            if cls.__dataclass is not None:\n                cs = ConfigStore.instance()\n                node = dataclass()\n" +
		"                cs.store(name=name, group=registry_name, node=node, provider=\"fairseq\")\n            return cls\n        return register_x_cls\n\n" +
		"    return build_x, register_x, REGISTRY, DATACLASS_REGISTRY\n"
	files := func() map[string]string {
		return map[string]string{
			".git/HEAD":           "ref: refs/heads/main\n",
			"fairseq/registry.py": registry,
			"fairseq/criterions/__init__.py": "from fairseq import registry\n\n(\n    build_criterion_,\n    register_criterion,\n    CRITERION_REGISTRY,\n" +
				"    CRITERION_DATACLASS_REGISTRY,\n) = registry.setup_registry(\n    \"--criterion\", base_class=FairseqCriterion, default=\"cross_entropy\"\n)\n",
			"fairseq/criterions/cross_entropy.py": "from fairseq.criterions import register_criterion\n\n\n" +
				"@register_criterion(\"cross_entropy\", dataclass=CrossEntropyCriterionConfig)\nclass CrossEntropyCriterion:\n    pass\n",
			"fairseq/optim/lr_scheduler/__init__.py": "from fairseq import registry\n\n(\n    build_lr_scheduler_,\n    register_lr_scheduler,\n" +
				"    LR_SCHEDULER_REGISTRY,\n    LR_SCHEDULER_DATACLASS_REGISTRY,\n) = registry.setup_registry(\n    \"--lr-scheduler\", base_class=FairseqLRScheduler, default=\"fixed\"\n)\n",
			"fairseq/optim/lr_scheduler/fixed_schedule.py": "from fairseq.optim.lr_scheduler import register_lr_scheduler\n\n\n" +
				"@register_lr_scheduler(\"fixed\", dataclass=FixedLRScheduleConfig)\nclass FixedLRSchedule:\n    pass\n",
			"fairseq/config/config.yaml": "defaults:\n    - _self_\n    - criterion: cross_entropy\n    - lr_scheduler: fixed\nseed: 1\n",
		}
	}
	for _, c := range []struct {
		name   string
		change func(map[string]string)
		want   []string // the options still reported
	}{
		{"registered", func(map[string]string) {}, nil},
		{"no dataclass", func(f map[string]string) {
			f["fairseq/criterions/cross_entropy.py"] = strings.Replace(f["fairseq/criterions/cross_entropy.py"], ", dataclass=CrossEntropyCriterionConfig", "", 1)
		}, []string{"cross_entropy"}},
		{"a registry storing nothing", func(f map[string]string) {
			f["fairseq/registry.py"] = strings.Replace(registry, "cs.store(name=name, group=registry_name, node=node, provider=\"fairseq\")", "pass", 1)
		}, []string{"cross_entropy", "fixed"}},
	} {
		root := t.TempDir()
		f := files()
		c.change(f)
		testfs.Write(t, root, f)
		_, res, _ := checkJSON(t, "--select", "TL006", root)
		var got []string
		for _, d := range res.Diagnostics {
			for _, o := range []string{"cross_entropy", "fixed"} {
				if strings.Contains(d.Message, `option "`+o+`"`) {
					got = append(got, o)
				}
			}
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") || len(res.Diagnostics) != len(c.want) {
			t.Errorf("%s: reported %v, want %v: %+v", c.name, got, c.want, res.Diagnostics)
		}
	}
}
