package lint_test

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/rules"
)

// rebuildTree rebuilds a corpus repository's tree (its original paths, from MANIFEST.tsv) in a
// temporary folder and returns the folder and the files' slash paths inside it.
func rebuildTree(t testing.TB, repo string) (string, []string) {
	t.Helper()
	dir := corpusDir(t)
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tmp := t.TempDir()
	var files []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 4 || cols[1] != repo {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(cols[0])))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(tmp, filepath.FromSlash(cols[3]))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, cols[3])
	}
	if len(files) == 0 {
		t.Fatalf("no files of %s in the corpus manifest", repo)
	}
	return tmp, files
}

const lhtRepo = "ashleve/lightning-hydra-template"

// TestRunsLightningHydraTemplate lints lightning-hydra-template's configs, rebuilt from the
// corpus, as runs: the group option callbacks/model_checkpoint.yaml alone looks like a
// ModelCheckpoint without a monitor (TL301), but every run composes it with
// callbacks/default.yaml, which sets the monitor, so the finding is gone.
func TestRunsLightningHydraTemplate(t *testing.T) {
	tmp, files := rebuildTree(t, lhtRepo)
	fsys := compose.FromFS(os.DirFS(tmp))
	const ckpt = "configs/callbacks/model_checkpoint.yaml"
	text, err := os.ReadFile(filepath.Join(tmp, ckpt))
	if err != nil {
		t.Fatal(err)
	}
	_, alone := lint.LintFile(lint.File{Path: ckpt, Text: text}, rules.All(), lint.Options{})
	if !hasCode(alone, "TL301") {
		t.Fatalf("the file alone no longer gets TL301, so this test proves nothing: %v", alone)
	}
	res := lint.LintTree(fsys, files, nil, rules.All(), lint.Options{})
	for _, d := range res.Diagnostics {
		if d.File == ckpt && d.Code == "TL301" {
			t.Errorf("%s:%d still gets %s %s", d.File, d.Line, d.Code, d.Message)
		}
	}
	// The composed monitor is callbacks/default.yaml's, with its line.
	run := compose.Compose(fsys, "configs/train.yaml", nil, compose.Limits{})
	mon := run.Doc.Root.At("callbacks.model_checkpoint.monitor")
	if mon == nil || mon.Value != "val/acc" || run.Origin(mon).File != "configs/callbacks/default.yaml" || mon.Span.Start.Line != 11 {
		t.Errorf("monitor %+v from %+v", mon, run.Origin(mon))
	}
	// The runs found: train.yaml, its experiment, eval.yaml; the missing data/mnist.yaml (not
	// in the corpus) is one unresolved-reference per referring line, not one per run. Every
	// run composes paths/default.yaml, whose root_dir is ${oc.env:PROJECT_ROOT} without a
	// default: one finding, naming the three runs. Every ${paths...} reference resolves.
	var unresolved []string
	for _, d := range res.Diagnostics {
		if d.Code == "TL006" {
			unresolved = append(unresolved, d.File+":"+itoa(d.Line))
			if d.File == "configs/paths/default.yaml" && (!strings.Contains(d.Message, "PROJECT_ROOT has no default") ||
				len(d.Related) != 1 || !strings.Contains(d.Related[0].Message, "found in 3 runs")) {
				t.Errorf("env finding %+v", d)
			}
		}
	}
	if strings.Join(unresolved, " ") != "configs/eval.yaml:5 configs/paths/default.yaml:4 configs/train.yaml:7" {
		t.Errorf("unresolved references %v", unresolved)
	}
}

// TestRunsCrossFilePositions: a run that chooses debug=default reports debug/default.yaml's
// num_workers: 0 at its own file and line, and a value set by an override says so.
func TestRunsCrossFilePositions(t *testing.T) {
	tmp, files := rebuildTree(t, lhtRepo)
	fsys := compose.FromFS(os.DirFS(tmp))
	specs := []compose.Spec{{Primary: "configs/train.yaml", Overrides: []string{"debug=default"}}}
	res := lint.LintTree(fsys, files, specs, rules.All(), lint.Options{Select: []string{"TL101"}})
	d := find(res.Diagnostics, "TL101")
	if d == nil || d.File != "configs/debug/default.yaml" || d.Line != 34 || d.Column != 16 || d.Key != "data.num_workers" {
		t.Fatalf("TL101 at %+v, want configs/debug/default.yaml:34:16 data.num_workers", d)
	}
	// Without the debug group, no run sets num_workers: nothing to report.
	res = lint.LintTree(fsys, files, nil, rules.All(), lint.Options{Select: []string{"TL101"}})
	if d := find(res.Diagnostics, "TL101"); d != nil {
		t.Errorf("TL101 without debug=default: %+v", d)
	}
	specs = []compose.Spec{{Primary: "configs/train.yaml", Overrides: []string{"+data.num_workers=0"}}}
	res = lint.LintTree(fsys, files, specs, rules.All(), lint.Options{Select: []string{"TL101"}})
	d = find(res.Diagnostics, "TL101")
	if d == nil || d.File != "configs/train.yaml" || !strings.Contains(d.Message, "(set by override +data.num_workers=0)") {
		t.Errorf("override finding %+v", d)
	}
	// An interpolation is followed across the composed tree: data.num_workers is ${loaders},
	// a key another source of the run sets to 0; the finding sits where num_workers was set.
	specs = []compose.Spec{{Primary: "configs/train.yaml", Overrides: []string{"+loaders=0", "data.num_workers=${loaders}"}}}
	res = lint.LintTree(fsys, files, specs, rules.All(), lint.Options{Select: []string{"TL101", "TL006"}})
	d = find(res.Diagnostics, "TL101")
	if d == nil || !strings.Contains(d.Message, "data.num_workers 0") || !strings.Contains(d.Message, "data.num_workers=${loaders}") {
		t.Errorf("TL101 through an interpolation: %+v", res.Diagnostics)
	}
}

// TestRunsOverrideHydraRefuses: an override whose value Hydra's parser refuses stops the launch:
// rejected-at-startup at the primary, with the advice to quote it; quoted, it is applied.
func TestRunsOverrideHydraRefuses(t *testing.T) {
	tmp, files := rebuildTree(t, lhtRepo)
	fsys := compose.FromFS(os.DirFS(tmp))
	specs := []compose.Spec{{Primary: "configs/train.yaml", Overrides: []string{"+data.tag=a=b"}}}
	res := lint.LintTree(fsys, files, specs, rules.All(), lint.Options{Select: []string{"TL011", "TL006"}})
	d := find(res.Diagnostics, "TL011")
	if d == nil || d.File != "configs/train.yaml" || d.Severity != lint.Error ||
		!strings.Contains(d.Message, `override "+data.tag=a=b" is not a value Hydra can read`) || !strings.Contains(d.Help, "quote the override's value") {
		t.Fatalf("TL011 %+v in %+v", d, res.Diagnostics)
	}
	specs = []compose.Spec{{Primary: "configs/train.yaml", Overrides: []string{"+data.tag='a=b'"}}}
	res = lint.LintTree(fsys, files, specs, rules.All(), lint.Options{Select: []string{"TL011", "TL006"}})
	if d := find(res.Diagnostics, "TL011"); d != nil {
		t.Errorf("quoted: %+v", d)
	}
	// Another refusal of an override keeps the rule's own advice, not the quoting one.
	specs = []compose.Spec{{Primary: "configs/train.yaml", Overrides: []string{"~nonexistent"}}}
	res = lint.LintTree(fsys, files, specs, rules.All(), lint.Options{Select: []string{"TL011"}})
	if d := find(res.Diagnostics, "TL011"); d == nil || strings.Contains(d.Help, "quote") {
		t.Errorf("~nonexistent: %+v", d)
	}
}

// TestRunsDedupe: the same finding in a file shared by two runs is reported once, naming both.
func TestRunsDedupe(t *testing.T) {
	tmp, files := rebuildTree(t, lhtRepo)
	specs := []compose.Spec{
		{Primary: "configs/train.yaml", Overrides: []string{"debug=default"}},
		{Primary: "configs/train.yaml", Overrides: []string{"debug=default", "experiment=example"}},
	}
	res := lint.LintTree(compose.FromFS(os.DirFS(tmp)), files, specs, rules.All(), lint.Options{Select: []string{"TL101"}})
	var n int
	for _, d := range res.Diagnostics {
		if d.Code == "TL101" {
			n++
			if len(d.Related) != 1 || !strings.Contains(d.Related[0].Message, "found in 2 runs") || d.Related[0].File != d.File ||
				d.Related[0].EndLine != d.EndLine || d.Related[0].EndColumn != d.EndColumn {
				t.Errorf("related %+v", d.Related)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d TL101 findings, want 1", n)
	}
}

func hasCode(ds []lint.Diagnostic, code string) bool { return find(ds, code) != nil }

func find(ds []lint.Diagnostic, code string) *lint.Diagnostic {
	for i := range ds {
		if ds[i].Code == code {
			return &ds[i]
		}
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }

// BenchmarkTreeAsRuns and BenchmarkTreeFileByFile lint lightning-hydra-template's configs
// (rebuilt from the corpus) as runs and file by file; the numbers are in lint/compose's doc.
func BenchmarkTreeAsRuns(b *testing.B) {
	tmp, files := rebuildTree(b, lhtRepo)
	fsys := compose.FromFS(os.DirFS(tmp))
	rs := rules.All()
	b.ResetTimer()
	for range b.N {
		lint.LintTree(fsys, files, nil, rs, lint.Options{})
	}
}

func BenchmarkTreeFileByFile(b *testing.B) {
	tmp, files := rebuildTree(b, lhtRepo)
	fsys := compose.FromFS(os.DirFS(tmp))
	rs := rules.All()
	b.ResetTimer()
	for range b.N {
		for _, f := range files {
			text, err := fsys.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			lint.LintFile(lint.File{Path: f, Text: text}, rs, lint.Options{})
		}
	}
}

// BenchmarkTreeRunsOverFiles alternates the two ways in each round and reports their ratio
// (runs/files), which a machine shared with other builds measures more steadily than two
// separate benchmarks.
func BenchmarkTreeRunsOverFiles(b *testing.B) {
	tmp, files := rebuildTree(b, lhtRepo)
	fsys := compose.FromFS(os.DirFS(tmp))
	benchRunsOverFiles(b, fsys, files)
}

// benchRunsOverFiles alternates LintTree over the files' runs with LintFile on each file in
// every round and reports their ratio (runs/files) and each side's time per round.
func benchRunsOverFiles(b *testing.B, fsys compose.FS, files []string) {
	b.Helper()
	rs := rules.All()
	var runs, single time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		lint.LintTree(fsys, files, nil, rs, lint.Options{})
		t1 := time.Now()
		for _, f := range files {
			text, _ := fsys.ReadFile(f)
			lint.LintFile(lint.File{Path: f, Text: text}, rs, lint.Options{})
		}
		t2 := time.Now()
		runs += t1.Sub(t0)
		single += t2.Sub(t1)
	}
	b.ReportMetric(float64(runs)/float64(single), "runs/files")
	b.ReportMetric(float64(runs.Microseconds())/float64(b.N), "runs-µs/op")
	b.ReportMetric(float64(single.Microseconds())/float64(b.N), "files-µs/op")
}

// TestRunsInterpolationAcrossFiles: a ${trainer.max_steps} set in another file of the run
// resolves (no finding); one that names no key of the run is TL006 at the reference's file and
// line; an ${oc.env:X,default} has a default and is fine.
func TestRunsInterpolationAcrossFiles(t *testing.T) {
	fsys := fstestMap(map[string]string{
		"conf/train.yaml":           "defaults:\n  - trainer: default\n  - model: net\n  - _self_\nseed: ${oc.env:SEED,1}\n",
		"conf/trainer/default.yaml": "max_steps: 1000\nmax_epochs: -1\n",
		"conf/model/net.yaml":       "scheduler:\n  total_steps: ${trainer.max_steps}\n  warmup_steps: ${trainer.warmup}\n",
	})
	run := compose.Compose(fsys, "conf/train.yaml", nil, compose.Limits{})
	ds := lint.LintRun(run, rules.All(), lint.Options{})
	var got []string
	for _, d := range ds {
		if d.Code == "TL006" {
			got = append(got, d.File+":"+itoa(d.Line)+" "+d.Message)
		}
	}
	if strings.Join(got, "|") != "conf/model/net.yaml:3 ${trainer.warmup} names no key of the composed run" {
		t.Errorf("TL006 %q", got)
	}
}

// TestRunsMandatoryGroupKeysUnknown: a `split: ???` entry leaves the option to the command line,
// so ${split.name} is not known rather than missing; a reference elsewhere still is.
func TestRunsMandatoryGroupKeysUnknown(t *testing.T) {
	fsys := fstestMap(map[string]string{
		"conf/train.yaml":      "defaults:\n  - split: ???\n  - _self_\npath: /data/${split.name}\nother: ${nothing.here}\n",
		"conf/split/test.yaml": "name: test\n",
	})
	run := compose.Compose(fsys, "conf/train.yaml", nil, compose.Limits{})
	var got []string
	for _, d := range lint.LintRun(run, rules.All(), lint.Options{}) {
		if d.Code == "TL006" {
			got = append(got, d.File+":"+itoa(d.Line)+" "+d.Message)
		}
	}
	if strings.Join(got, "|") != "conf/train.yaml:5 ${nothing.here} names no key of the composed run" {
		t.Errorf("TL006 %q", got)
	}
}

// TestRunsNullGroupKeysUnknown: kuielab/mdx-net's primary leaves `model: null` and every launch
// picks the model on the command line, so a ${model.x} of a run choosing none is not known
// rather than missing. It is still judged when the run sets the package itself (an
// experiment's inline model:), when the command line deletes the entry, and for a null group
// without options.
func TestRunsNullGroupKeysUnknown(t *testing.T) {
	fsys := fstestMap(map[string]string{
		"conf/config.yaml":           "# @package _global_\ndefaults:\n  - data: musdb\n  - model: null\n  - logger: null\n  - experiment: null\n",
		"conf/data/musdb.yaml":       "hop: ${model.hop_length}\ndim: ${model.dim_t}\nname: ${logger.name}\n",
		"conf/model/bass.yaml":       "hop_length: 1024\ndim_t: 256\n",
		"conf/experiment/multi.yaml": "# @package _global_\nseed: 1\n",
		"conf/experiment/debug.yaml": "# @package _global_\nmodel:\n  dim_t: 3\n",
	})
	for _, tc := range []struct {
		overrides []string
		want      string
	}{
		{nil, "conf/data/musdb.yaml:3 ${logger.name}"},
		{[]string{"experiment=multi"}, "conf/data/musdb.yaml:3 ${logger.name}"},
		{[]string{"experiment=debug"}, "conf/data/musdb.yaml:1 ${model.hop_length}|conf/data/musdb.yaml:3 ${logger.name}"},
		{[]string{"~model"}, "conf/data/musdb.yaml:1 ${model.hop_length}|conf/data/musdb.yaml:2 ${model.dim_t}|conf/data/musdb.yaml:3 ${logger.name}"},
	} {
		run := compose.Compose(fsys, "conf/config.yaml", tc.overrides, compose.Limits{})
		var got []string
		for _, d := range lint.LintRun(run, rules.All(), lint.Options{}) {
			if d.Code == "TL006" {
				got = append(got, d.File+":"+itoa(d.Line)+" "+strings.TrimSuffix(d.Message, " names no key of the composed run"))
			}
		}
		if strings.Join(got, "|") != tc.want {
			t.Errorf("%v: TL006 %q, want %q", tc.overrides, got, tc.want)
		}
		// experiment's options write at the root, logger has none: neither is Unknown.
		if tc.overrides == nil && (run.Partial || strings.Join(run.Unknown, " ") != "model") {
			t.Errorf("Partial %v, Unknown %q, want model alone", run.Partial, run.Unknown)
		}
	}
}

// TestRunsSweeperParamKeysUnknown: SINTEF/rewts' experiment sets hydra.mode MULTIRUN and
// `++chunk_idx: range(0, 3, 1)` among hydra.sweeper.params, which Hydra's sweeper adds to every
// job's overrides: ${chunk_idx} resolves in every job (checked with Hydra 1.3.2), so it is not
// missing; a reference to no key still is.
func TestRunsSweeperParamKeysUnknown(t *testing.T) {
	fsys := fstestMap(map[string]string{
		"conf/train.yaml":               "defaults:\n  - _self_\n  - experiment: null\nseed: 1\ndatamodule:\n  batch_size: 32\n",
		"conf/experiment/ensemble.yaml": "# @package _global_\nhydra:\n  mode: MULTIRUN\n  sweeper:\n    params:\n      ++chunk_idx: range(0, 3, 1)\n      +other: a,b\n      seed: 1,2\ndatamodule:\n  chunk_idx: ${chunk_idx}\n  o: ${other}\n  s: ${seed}\n  bad: ${nothing}\n",
	})
	run := compose.Compose(fsys, "conf/train.yaml", []string{"experiment=ensemble"}, compose.Limits{})
	var got []string
	for _, d := range lint.LintRun(run, rules.All(), lint.Options{}) {
		if d.Code == "TL006" {
			got = append(got, d.File+":"+itoa(d.Line)+" "+d.Message)
		}
	}
	if strings.Join(got, "|") != "conf/experiment/ensemble.yaml:13 ${nothing} names no key of the composed run" {
		t.Errorf("TL006 %q", got)
	}
}

// TestRunsMissingOptionKeysUnknown: an option no file holds (pytorch/rl's
// transform@transform0, from TorchRL's ConfigStore) is reported once, where the entry names it;
// references into its package are not known rather than missing.
func TestRunsMissingOptionKeysUnknown(t *testing.T) {
	fsys := fstestMap(map[string]string{
		"conf/train.yaml":       "defaults:\n  - transform@transform0: step_counter\n  - optim: adam\n  - _self_\nts: [\"${transform0}\"]\nms: ${transform0.max_steps}\nlr: ${optim.lr}\nbad: ${optim.nothing}\n",
		"conf/optim/adam.yaml":  "lr: 0.001\n",
		"conf/transform/x.yaml": "a: 1\n",
	})
	run := compose.Compose(fsys, "conf/train.yaml", nil, compose.Limits{})
	var got []string
	for _, d := range lint.LintRun(run, rules.All(), lint.Options{}) {
		if d.Code == "TL006" {
			got = append(got, itoa(d.Line)+" "+d.Message)
		}
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], `2 option "step_counter" of group "transform" not found`) || got[1] != "8 ${optim.nothing} names no key of the composed run" {
		t.Errorf("TL006 %q", got)
	}
}

// TestRunsGroupOptionReferencesAreTheRuns: a `# @package _global_` option's data.p reads
// ${data.root}, which the data group sets (fast3r's eval options): the option's own lint does
// not call it missing; the run resolves it, and reports what it does not resolve.
func TestRunsGroupOptionReferencesAreTheRuns(t *testing.T) {
	files := map[string]string{
		"conf/config.yaml": "defaults:\n  - _self_\n  - data: d\n  - exp: e\n",
		"conf/data/d.yaml": "root: /x\n",
		"conf/exp/e.yaml":  "# @package _global_\ndata:\n  p: ${data.root}/y\n  q: ${data.nothing}\ntrainer:\n  devices: auto\n  max_epochs: 3\n",
	}
	res := lint.LintTree(fstestMap(files), []string{"conf/config.yaml", "conf/data/d.yaml", "conf/exp/e.yaml"}, nil, rules.All(), lint.Options{})
	var got []string
	for _, d := range res.Diagnostics {
		if d.Code == "TL006" {
			got = append(got, d.File+":"+itoa(d.Line)+" "+d.Message)
		}
	}
	if strings.Join(got, "|") != "conf/exp/e.yaml:4 ${data.nothing} names no key of the composed run" {
		t.Errorf("TL006 %q", got)
	}
}

func fstestMap(files map[string]string) compose.FS {
	m := fstest.MapFS{}
	for p, s := range files {
		m[p] = &fstest.MapFile{Data: []byte(s)}
	}
	return compose.FromFS(m)
}

// TestRunsNeMo lints NeMo's example configs, rebuilt from the corpus, as runs: the five
// language-modeling configs with defaults lists are primaries. megatron_gpt_config.yaml lists
// _self_ and an optional tp_overlap option given no value (nothing to compose): its run reports
// what the file alone reports. megatron_t5_config.yaml composes megatron_model_base_config.yaml
// (absent from the corpus) at model.encoder and model.decoder: TL006 at each entry, and no
// finding rests on the missing values.
func TestRunsNeMo(t *testing.T) {
	tmp, files := rebuildTree(t, "NVIDIA/NeMo")
	fsys := compose.FromFS(os.DirFS(tmp))
	const conf = "examples/nlp/language_modeling/conf/"
	specs, _ := compose.Discover(fsys, files)
	var names []string
	for _, s := range specs {
		if strings.HasPrefix(s.Primary, conf) {
			names = append(names, strings.TrimPrefix(s.Primary, conf))
		}
	}
	want := "megatron_bart_config.yaml megatron_gpt_config.yaml megatron_retro_config.yaml megatron_t5_config.yaml megatron_ul2_config.yaml"
	if strings.Join(names, " ") != want {
		t.Fatalf("runs %v, want %s", names, want)
	}
	res := lint.LintTree(fsys, files, nil, rules.All(), lint.Options{})
	byFile := func(ds []lint.Diagnostic, f string) []string {
		var out []string
		for _, d := range ds {
			if d.File == f {
				out = append(out, d.Code+":"+itoa(d.Line)+" "+d.Message)
			}
		}
		sort.Strings(out)
		return out
	}
	gpt := conf + "megatron_gpt_config.yaml"
	text, err := os.ReadFile(filepath.Join(tmp, gpt))
	if err != nil {
		t.Fatal(err)
	}
	_, alone := lint.LintFile(lint.File{Path: gpt, Text: text}, rules.All(), lint.Options{})
	if a, r := byFile(alone, gpt), byFile(res.Diagnostics, gpt); strings.Join(a, "\n") != strings.Join(r, "\n") {
		t.Errorf("megatron_gpt as a run:\n%s\nalone:\n%s", strings.Join(r, "\n"), strings.Join(a, "\n"))
	}
	t5 := byFile(res.Diagnostics, conf+"megatron_t5_config.yaml")
	var unresolved int
	for _, d := range t5 {
		if strings.HasPrefix(d, "TL006:2 ") || strings.HasPrefix(d, "TL006:3 ") {
			unresolved++
		}
	}
	if unresolved != 2 {
		t.Errorf("megatron_t5 findings %v: want TL006 at lines 2 and 3", t5)
	}
}

// synthHydraTree is a 200-file Hydra tree synthesised from lightning-hydra-template's configs
// (the corpus holds no real Hydra tree that large): the template's 33 files, 20 experiments
// (copies of experiment/example.yaml: 22 runs with train.yaml and eval.yaml), and copies of the
// group options under new names until the tree has 200 files, as a repository with many
// models, trainers and loggers to choose from looks.
func synthHydraTree(t testing.TB) (string, []string) {
	tmp, files := rebuildTree(t, lhtRepo)
	read := func(p string) []byte {
		b, err := os.ReadFile(filepath.Join(tmp, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	write := func(p string, b []byte) {
		if err := os.WriteFile(filepath.Join(tmp, filepath.FromSlash(p)), b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	ex := read("configs/experiment/example.yaml")
	for i := 1; i < 20; i++ {
		write("configs/experiment/example_"+itoa(i)+".yaml", ex)
	}
	var options []string
	for _, f := range files {
		if strings.Count(f, "/") == 2 && !strings.Contains(f, "/experiment/") && !strings.Contains(f, "/hydra/") {
			options = append(options, f)
		}
	}
	sort.Strings(options)
	for i := 0; len(files) < 200; i++ {
		src := options[i%len(options)]
		write(strings.TrimSuffix(src, ".yaml")+"_v"+itoa(i/len(options)+1)+".yaml", read(src))
	}
	sort.Strings(files)
	return tmp, files
}

// BenchmarkTree200RunsOverFiles is BenchmarkTreeRunsOverFiles on the 200-file synthesised
// tree with all its 22 runs (the bound: at most 2× the file-by-file lint).
func BenchmarkTree200RunsOverFiles(b *testing.B) {
	tmp, files := synthHydraTree(b)
	fsys := compose.FromFS(os.DirFS(tmp))
	if specs, _ := compose.Discover(fsys, files); len(specs) != 22 || len(files) != 200 {
		b.Fatalf("%d files, %d runs", len(files), len(specs))
	}
	benchRunsOverFiles(b, fsys, files)
}

// TestRunsGroupOptionNotATrainerFile: mlcommons/training's mixtral8x22b config directory is
// composed by Hydra for run_clm.py's @hydra.main; its sched/CosineAnnealing.yaml (a NeMo
// scheduler: name, warmup_ratio, min_lr, max_steps) shares the Trainer's names and was told that
// warmup_ratio is deprecated in TrainingArguments. A group option lands under its group's key,
// and HfArgumentParser reads no file Hydra composes. Alone, the same file is a Trainer file.
func TestRunsGroupOptionNotATrainerFile(t *testing.T) {
	const sched = "name: CosineAnnealing\nwarmup_ratio: 0.25\nmin_lr: 2e-6\nmax_steps: 10\n"
	fsys := fstestMap(map[string]string{
		"config/config.yaml":                "defaults:\n- _self_\n- sched: CosineAnnealing\nseed: 0\nper_device_train_batch_size: 1\nmax_steps: 10\nlr: 2e-5\n",
		"config/sched/CosineAnnealing.yaml": sched,
	})
	res := lint.LintTree(fsys, []string{"config/config.yaml", "config/sched/CosineAnnealing.yaml"}, nil, rules.All(), lint.Options{})
	for _, f := range res.Files {
		if f.Framework != "generic" {
			t.Errorf("%s read as %s", f.Path, f.Framework)
		}
	}
	for _, d := range res.Diagnostics {
		if d.Code == "TL003" || d.Code == "TL005" {
			t.Errorf("%s:%d %s %s", d.File, d.Line, d.Code, d.Message)
		}
	}
	if info, _ := lint.LintFile(lint.File{Path: "CosineAnnealing.yaml", Text: []byte(sched)}, rules.All(), lint.Options{}); info.Framework != "huggingface" {
		t.Errorf("alone, the group option is read as %s", info.Framework)
	}
}

// TestRunsGroupOptionRefusalsLeftToRuns: all-atom-diffusion-transformer's
// callbacks/model_checkpoint.yaml sets save_top_k 3 with monitor null, and the callbacks option
// that includes it sets the monitor. Lightning refuses the file's values taken alone, but no run
// Hydra composes has them: the refusal is the runs' to report (here none), not the file's. A
// run that does keep them is refused, at the file that sets them.
func TestRunsGroupOptionRefusalsLeftToRuns(t *testing.T) {
	files := map[string]string{
		"configs/train.yaml":                      "defaults:\n  - callbacks: default\n  - _self_\nseed: 1\n",
		"configs/callbacks/default.yaml":          "defaults:\n  - model_checkpoint\n  - _self_\nmodel_checkpoint:\n  monitor: val/acc\n",
		"configs/callbacks/model_checkpoint.yaml": "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: null\n  save_top_k: 3\n  mode: max\n",
	}
	names := []string{"configs/callbacks/default.yaml", "configs/callbacks/model_checkpoint.yaml", "configs/train.yaml"}
	res := lint.LintTree(fstestMap(files), names, nil, rules.All(), lint.Options{})
	for _, d := range res.Diagnostics {
		if d.Code == "TL011" {
			t.Errorf("%s:%d %s %s", d.File, d.Line, d.Code, d.Message)
		}
	}
	files["configs/callbacks/default.yaml"] = "defaults:\n  - model_checkpoint\n  - _self_\n"
	res = lint.LintTree(fstestMap(files), names, nil, rules.All(), lint.Options{})
	var got []string
	for _, d := range res.Diagnostics {
		if d.Code == "TL011" {
			got = append(got, d.File+":"+strconv.Itoa(d.Line))
		}
	}
	if len(got) != 1 || got[0] != "configs/callbacks/model_checkpoint.yaml:4" {
		t.Errorf("without the monitor: TL011 at %v, want the run's at model_checkpoint.yaml:4", got)
	}
}

// TestRunsUnreadOptionRefusals: an option no discovered run selects (only the command line
// would: callbacks=topk) is composed into the first run with an entry for its group, and the
// refusal that run makes at the option is reported; a primary that sets the value again after
// its defaults (its own monitor) makes no refusal, as Hydra then starts.
func TestRunsUnreadOptionRefusals(t *testing.T) {
	files := map[string]string{
		"conf/train.yaml":             "defaults:\n  - callbacks: default\n  - _self_\nseed: 1\n",
		"conf/callbacks/default.yaml": "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: val/acc\n  save_top_k: 1\n",
		"conf/callbacks/topk.yaml":    "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: null\n  save_top_k: 3\n",
		"conf/other/x.yaml":           "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: null\n  save_top_k: 3\n",
	}
	names := []string{"conf/callbacks/default.yaml", "conf/callbacks/topk.yaml", "conf/other/x.yaml", "conf/train.yaml"}
	tl011 := func() []string {
		var got []string
		for _, d := range lint.LintTree(fstestMap(files), names, nil, rules.All(), lint.Options{}).Diagnostics {
			if d.Code == "TL011" {
				got = append(got, d.File+":"+strconv.Itoa(d.Line))
			}
		}
		return got
	}
	// other/ is a group no defaults list has: nothing chooses x, nothing is claimed.
	if got := tl011(); strings.Join(got, " ") != "conf/callbacks/topk.yaml:4" {
		t.Errorf("TL011 at %v, want conf/callbacks/topk.yaml:4 alone", got)
	}
	// An option another option of its group builds on and overrides (HaoyiZhu/SPA's
	// callbacks/default.yaml listing `- model_checkpoint`, then its own monitor) is a part of
	// that option, not launched alone: no refusal is claimed at it.
	files["conf/callbacks/other.yaml"] = "defaults:\n  - topk\n  - _self_\nmodel_checkpoint:\n  monitor: val/acc\n"
	names = append(names, "conf/callbacks/other.yaml")
	if got := tl011(); len(got) != 0 {
		t.Errorf("an option another one builds on: TL011 at %v", got)
	}
	delete(files, "conf/callbacks/other.yaml")
	names = names[:len(names)-1]
	files["conf/train.yaml"] += "callbacks:\n  model_checkpoint:\n    monitor: val/loss\n"
	if got := tl011(); len(got) != 0 {
		t.Errorf("the primary sets the monitor after the option: TL011 at %v", got)
	}
}

// A finding shared by many runs names the first five (in order) and counts the others.
func TestDedupeRunsNamesFewRuns(t *testing.T) {
	d := lint.Diagnostic{File: "base.py", Line: 3, Column: 5, EndLine: 3, EndColumn: 7, Rule: "r", Message: "m"}
	for _, c := range []struct {
		runs int
		want string
	}{
		{5, "found in 5 runs: r1; r2; r3; r4; r5"},
		{7, "found in 7 runs: r1; r2; r3; r4; r5; and 2 more"},
	} {
		var per [][]lint.Diagnostic
		var names []string
		for i := c.runs; i >= 1; i-- {
			per = append(per, []lint.Diagnostic{d})
			names = append(names, "r"+strconv.Itoa(i))
		}
		out := lint.DedupeRuns(per, names, names)
		if len(out) != 1 || len(out[0].Related) != 1 || out[0].Related[0].Message != c.want {
			t.Errorf("%d runs: %+v, want one finding noting %q", c.runs, out, c.want)
		}
	}
	// Among several runs, a finding one run makes in a shared file names that run; one in the
	// run's own primary, or in a tree of one run, needs no note.
	other := lint.Diagnostic{File: "a.py", Line: 1, Rule: "r", Message: "own"}
	names, primaries := []string{"a.py", "b.py --x"}, []string{"a.py", "b.py"}
	out := lint.DedupeRuns([][]lint.Diagnostic{{other}, {d}}, names, primaries)
	var notes []string
	for _, o := range out {
		for _, r := range o.Related {
			notes = append(notes, o.File+": "+r.Message)
		}
	}
	if strings.Join(notes, ",") != "base.py: found in 1 run: b.py --x" {
		t.Errorf("notes %q", notes)
	}
	if out := lint.DedupeRuns([][]lint.Diagnostic{{d}}, names[1:], primaries[1:]); len(out[0].Related) != 0 {
		t.Errorf("a tree of one run: %+v", out[0].Related)
	}
}

// TestAddRunFindings: a run finding the file's lint made already is not added twice; a file
// finding a graver run finding of the same rule replaces at its place is dropped, unless the
// run made that file finding too (it holds in the run as well).
func TestAddRunFindings(t *testing.T) {
	d := func(sev lint.Severity, msg string) lint.Diagnostic {
		return lint.Diagnostic{Code: "TL701", Rule: "batch-size-inconsistent", Severity: sev, File: "ds.json", Line: 2, Column: 3, Message: msg}
	}
	msgs := func(ds []lint.Diagnostic) string {
		var out []string
		for _, x := range ds {
			out = append(out, x.Message)
		}
		return strings.Join(out, " ")
	}
	if got := msgs(lint.AddRunFindings([]lint.Diagnostic{d(lint.Warning, "A")}, []lint.Diagnostic{d(lint.Error, "C")})); got != "C" {
		t.Errorf("replaced: %q, want C", got)
	}
	if got := msgs(lint.AddRunFindings([]lint.Diagnostic{d(lint.Warning, "A"), d(lint.Warning, "B")}, []lint.Diagnostic{d(lint.Warning, "A"), d(lint.Error, "C")})); got != "A C" {
		t.Errorf("a file finding the run repeats: %q, want A C", got)
	}
	if got := msgs(lint.AddRunFindings([]lint.Diagnostic{d(lint.Error, "A")}, []lint.Diagnostic{d(lint.Warning, "C")})); got != "A C" {
		t.Errorf("a milder run finding: %q, want A C", got)
	}
}

// TestRunsMissingGlobalOptionSilencesRun: ProteinWorkshop's default task option is not in the
// tree, and the group's other options write at the root (`# @package _global_`, setting the
// checkpoint's monitor): what the missing one sets is unknown, so the run reports only that
// it is missing, not a retention guessed from the callbacks' own defaults. With a task option
// that writes under its group, the run is linted.
func TestRunsMissingGlobalOptionSilencesRun(t *testing.T) {
	files := map[string]string{
		"configs/train.yaml":             "defaults:\n  - callbacks: default\n  - task: regression\n  - _self_\nseed: 1\n",
		"configs/callbacks/default.yaml": "model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: null\n  save_top_k: 1\n",
		"configs/task/cls.yaml":          "# @package _global_\ncallbacks:\n  model_checkpoint:\n    monitor: val/acc\n    mode: max\n",
	}
	names := []string{"configs/callbacks/default.yaml", "configs/task/cls.yaml", "configs/train.yaml"}
	codes := func() string {
		res := lint.LintTree(fstestMap(files), names, nil, rules.All(), lint.Options{})
		var got []string
		for _, d := range res.Diagnostics {
			got = append(got, d.Code)
		}
		return strings.Join(got, " ")
	}
	if got := codes(); got != "TL006" {
		t.Errorf("missing global option: %s", got)
	}
	files["configs/task/cls.yaml"] = "head: linear\n"
	if got := codes(); !strings.Contains(got, "TL301") {
		t.Errorf("missing option of its own package: %s", got)
	}
}

// TestRunsHydraTrainerWithoutCallbacks: a Hydra app whose trainer group holds Trainer arguments
// and nothing to instantiate (openthaigpt-pretraining: its script builds pl.Trainer from them
// and hands it ModelCheckpoints of its own). The Trainer adds its monitor-less ModelCheckpoint
// only when the callbacks it is given hold no Checkpoint (Lightning 2.6.0
// callback_connector.py _configure_checkpoint_callbacks), and the composed run does not say
// what the script gives it, so no retention is assumed; the trainer file alone says nothing
// either. A plain Trainer config still gets the default.
func TestRunsHydraTrainerWithoutCallbacks(t *testing.T) {
	files := map[string]string{
		"conf/config.yaml":          "defaults:\n  - trainer: default\n",
		"conf/trainer/default.yaml": "max_steps: 1000\nnum_nodes: 1\naccumulate_grad_batches: 4\n",
	}
	names := []string{"conf/config.yaml", "conf/trainer/default.yaml"}
	res := lint.LintTree(fstestMap(files), names, nil, rules.All(), lint.Options{})
	for _, d := range res.Diagnostics {
		if d.Code == "TL301" {
			t.Errorf("composed Hydra run: %s: %s", d.File, d.Message)
		}
	}
	plain := map[string]string{"trainer.yaml": "trainer:\n  max_steps: 1000\n  num_nodes: 1\n  accumulate_grad_batches: 4\n"}
	res = lint.LintTree(fstestMap(plain), []string{"trainer.yaml"}, nil, rules.All(), lint.Options{})
	var codes []string
	for _, d := range res.Diagnostics {
		codes = append(codes, d.Code)
	}
	if !strings.Contains(strings.Join(codes, " "), "TL301") {
		t.Errorf("plain Trainer config: %v, want TL301", codes)
	}
}

// A primary with no experiment entry is paired with the experiments (+experiment=x) when a
// comment names them. Where Hydra would refuse an experiment's override entries there (an eval
// config whose comment, copied from an experiment, reads "python train.py experiment=x"), the
// pairing is a guess nobody launches: no finding from it. Where the pairing composes (an
// experiment that overrides a group the primary has), it is linted as before.
func TestGuessedExperimentPairing(t *testing.T) {
	files := map[string]string{
		"configs/train.yaml":             "defaults:\n  - _self_\n  - data: a\n  - callbacks: default\n  - experiment: null\n",
		"configs/eval.yaml":              "# to run: python train.py experiment=x\ndefaults:\n  - _self_\n  - data: a\nckpt_path: last.ckpt\n",
		"configs/data/a.yaml":            "x: 1\n",
		"configs/data/b.yaml":            "x: 2\n",
		"configs/callbacks/default.yaml": "c: 1\n",
		"configs/callbacks/none.yaml":    "c: 2\n",
		"configs/experiment/x.yaml":      "# @package _global_\ndefaults:\n  - override /data: b\n  - override /callbacks: none\n",
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	tl011 := func() []string {
		var out []string
		for _, d := range lint.LintTree(fstestMap(files), names, nil, rules.All(), lint.Options{}).Diagnostics {
			if d.Code == "TL011" {
				out = append(out, d.File+":"+itoa(d.Line))
			}
		}
		return out
	}
	if got := tl011(); len(got) != 0 {
		t.Errorf("a guessed pairing Hydra refuses: TL011 %v", got)
	}
	// Its entries match, but the experiment's mapping does not merge onto the list eval.yaml
	// sets (Hydra 1.3.2: "Cannot merge DictConfig with ListConfig"): a guess all the same.
	files["configs/eval.yaml"] += "model: [1, 2]\n"
	files["configs/experiment/x.yaml"] = "# @package _global_\ndefaults:\n  - override /data: b\nmodel:\n  lr: 1\n"
	if got := tl011(); len(got) != 0 {
		t.Errorf("a guessed pairing whose configs do not merge: TL011 %v", got)
	}
	files["configs/experiment/x.yaml"] = "# @package _global_\ndefaults:\n  - override /data: b\n  - override /callbacks: none\n"
	// train.yaml has the experiment entry: experiment=x is how it runs, and a refusal there is
	// real (its defaults list has no model group for the experiment to override).
	files["configs/experiment/x.yaml"] += "  - override /model: big\n"
	files["configs/model/big.yaml"] = "w: 1\n"
	names = append(names, "configs/model/big.yaml")
	if got := tl011(); len(got) != 1 || got[0] != "configs/experiment/x.yaml:5" {
		t.Errorf("a refusal of a listed experiment: TL011 %v", got)
	}
}

// An experiment written for train.yaml is not run with the infer.yaml beside it, whose
// defaults list has no datamodule for its `override /datamodule` (Hydra refuses it): no
// TL011 from that pairing, nor a TL006 for an interpolation only it leaves unresolved
// (RSWAIN1486/emlov3-pytorchlightning-hydra). An experiment no primary's list fits is
// refused with each, and reported.
func TestSharedExperimentPairsWithItsPrimary(t *testing.T) {
	files := map[string]string{
		"configs/train.yaml":                "defaults:\n  - _self_\n  - datamodule: mnist\n  - model: mnist\n  - experiment: null\n",
		"configs/infer.yaml":                "defaults:\n  - _self_\n  - model: mnist\n  - experiment: null\n",
		"configs/datamodule/mnist.yaml":     "batch_size: 64\n",
		"configs/datamodule/text.yaml":      "batch_size: 64\nblock_size: 8\n",
		"configs/model/mnist.yaml":          "lr: 0.001\n",
		"configs/model/gpt.yaml":            "block_size: ${datamodule.block_size}\n",
		"configs/experiment/text.yaml":      "# @package _global_\ndefaults:\n  - override /model: gpt\n  - override /datamodule: text\n",
		"configs/experiment/infer_gpt.yaml": "# @package _global_\ndefaults:\n  - override /model: mnist\n",
	}
	found := func() []string {
		var names []string
		for n := range files {
			names = append(names, n)
		}
		sort.Strings(names)
		var out []string
		for _, d := range lint.LintTree(fstestMap(files), names, nil, rules.All(), lint.Options{}).Diagnostics {
			if d.Code == "TL011" || d.Code == "TL006" {
				out = append(out, d.Code+" "+d.File+":"+itoa(d.Line))
			}
		}
		return out
	}
	if got := found(); len(got) != 0 {
		t.Errorf("a training experiment paired with infer.yaml: %v", got)
	}
	// With an option infer.yaml lists missing, the pairing is not found refused; it is no
	// run all the same, and only the missing option (true of infer.yaml's own run) is reported.
	files["configs/infer.yaml"] = "defaults:\n  - _self_\n  - data: mnist\n  - model: mnist\n  - experiment: null\n"
	if got := found(); len(got) != 1 || got[0] != "TL006 configs/infer.yaml:3" {
		t.Errorf("infer.yaml with a missing option: %v", got)
	}
	files["configs/experiment/typo.yaml"] = "# @package _global_\ndefaults:\n  - override /datamodul: text\n"
	if got := strings.Join(found(), ", "); got != "TL011 configs/experiment/typo.yaml:3, TL006 configs/infer.yaml:3" {
		t.Errorf("an override no primary has: %v", got)
	}
}

// Facts only a default gave for keys the repository's scripts default themselves are dropped,
// and so are the facts derived from them (a global batch computed from the Trainer's
// per-device default); explicit facts stay.
func TestScriptDefaultsDropDerived(t *testing.T) {
	src := "model_name_or_path: m\noutput_dir: out\ngradient_accumulation_steps: 4\neval_strategy: steps\neval_steps: 100\n"
	o := lint.Options{Hosts: 1, DevicesPerHost: 8}
	a, err := lint.Analyze(lint.File{Path: "sft.yaml", Text: []byte(src)}, o)
	if err != nil || a.Plan == nil || !a.Plan.Train.GlobalBatch.Known() || !a.Plan.Train.PerDeviceBatch.Known() {
		t.Fatalf("without script defaults: %v %+v", err, a.Plan)
	}
	o.ScriptDefaults = map[string]string{"per_device_train_batch_size": "16"}
	a, _ = lint.Analyze(lint.File{Path: "sft.yaml", Text: []byte(src)}, o)
	if p := a.Plan; p.Train.PerDeviceBatch.Known() || p.Train.GlobalBatch.Known() || !p.Train.GradAccum.IsExplicit() {
		t.Errorf("per-device %+v, global %+v, accumulation %+v", p.Train.PerDeviceBatch, p.Train.GlobalBatch, p.Train.GradAccum)
	}
	// A script's default that is the Trainer's own (8) keeps the fact and what derives from it
	// (torchtune's dev recipe reads num_workers with the stock recipes' 0).
	o.ScriptDefaults = map[string]string{"per_device_train_batch_size": "8"}
	a, _ = lint.Analyze(lint.File{Path: "sft.yaml", Text: []byte(src)}, o)
	if p := a.Plan; !p.Train.PerDeviceBatch.Known() || p.Train.PerDeviceBatch.Value != 8 || !p.Train.GlobalBatch.Known() {
		t.Errorf("the same default: per-device %+v, global %+v", p.Train.PerDeviceBatch, p.Train.GlobalBatch)
	}
}

// A Hugging Face arguments file in a repository whose own loop runs it (Options.OwnLoop:
// finetune-hf-vits' accelerate loop) keeps its arguments' keys and defaults, but not the
// Trainer's evaluation schedule; otherwise it keeps it. (Which repositories have their own
// loop: cmd/trainlint's TestOwnTrainingLoop.)
func TestHFArgumentsRunByOwnLoop(t *testing.T) {
	src := `{"output_dir": "out", "do_train": true, "do_eval": true, "eval_steps": 50, "learning_rate": 2e-5, "per_device_train_batch_size": 16}`
	for _, loop := range []bool{true, false} {
		a, err := lint.Analyze(lint.File{Path: "cfg.json", Text: []byte(src)}, lint.Options{OwnLoop: loop})
		if err != nil || a.Plan == nil || a.Dialect.Name != "huggingface" {
			t.Fatalf("own loop %v: %v %+v", loop, err, a.Dialect)
		}
		if got := !a.Plan.Eval.Enabled.Known(); got != loop {
			t.Errorf("own loop %v: evaluation unknown %v, want %v (%+v)", loop, got, loop, a.Plan.Eval.Enabled)
		}
		if !a.Plan.Data.Workers.Known() {
			t.Errorf("own loop %v: the arguments' dataloader_num_workers default is not read", loop)
		}
	}
}

// TestRunsUnlistedFolderDuplicateKey: LintTree (the browser's folder check) reads a repeated key
// as the CLI does (cmd/trainlint's TestUnlistedFolderDuplicateKey): in a listed group option it
// is OmegaConf's refusal at start-up, in a folder of the config directory no defaults list names
// (graphium's single_task overrides, read with yaml.safe_load) what PyYAML and OmegaConf each do.
func TestRunsUnlistedFolderDuplicateKey(t *testing.T) {
	files := map[string]string{
		"expts/configs/config_gpu.yaml":        "defaults:\n  - base_config: large\n  - _self_\nconstants:\n  name: gpu\n",
		"expts/configs/base_config/large.yaml": "constants:\n  seed: 42\n  seed: 43\n",
		"expts/configs/single_task/mcf7.yaml":  "datamodule:\n  args:\n    backend: loky\n    backend: loky\n",
	}
	names := []string{"expts/configs/base_config/large.yaml", "expts/configs/config_gpu.yaml", "expts/configs/single_task/mcf7.yaml"}
	res := lint.LintTree(fstestMap(files), names, nil, rules.All(), lint.Options{})
	got := map[string]string{}
	for _, d := range res.Diagnostics {
		if d.Code == "TL002" {
			got[filepath.Base(d.File)] = d.Message
		}
	}
	if m := got["large.yaml"]; !strings.Contains(m, "omegaconf") || !strings.Contains(m, "stops at start-up") {
		t.Errorf("a listed group option: %q", m)
	}
	if m := got["mcf7.yaml"]; !strings.Contains(m, "PyYAML keeps") || strings.Contains(m, "stops at start-up") {
		t.Errorf("an unlisted folder's file: %q", m)
	}
}

// A primary whose defaults list leaves a group to the command line (`- data: ???`) is run with
// each option of the group, so an option's loader settings are reported; the primary alone,
// which Hydra refuses, is no run.
func TestGroupChosenOnLaunchIsLinted(t *testing.T) {
	for _, choose := range []string{"???", "'???'"} {
		files := map[string]string{
			"conf/train.yaml":           "defaults:\n  - data: " + choose + "\n  - trainer: default\n  - _self_\nseed: 1\nout: ${data.root}/out\n",
			"conf/data/mp20.yaml":       "root: /data/mp20\ndatamodule:\n  _target_: pytorch_lightning.LightningDataModule\n  num_workers:\n    train: 0\n    val: 0\n  batch_size:\n    train: 256\n    val: 256\n",
			"conf/trainer/default.yaml": "_target_: pytorch_lightning.Trainer\nmax_epochs: 10\ndevices: 1\n",
		}
		names := []string{"conf/data/mp20.yaml", "conf/train.yaml", "conf/trainer/default.yaml"}
		var got []string
		for _, d := range lint.LintTree(fstestMap(files), names, nil, rules.All(), lint.Options{}).Diagnostics {
			got = append(got, d.Code+" "+d.File+":"+itoa(d.Line))
		}
		if want := "TL101 conf/data/mp20.yaml:5"; strings.Join(got, "|") != want {
			t.Errorf("data: %s: findings %q, want %q", choose, got, want)
		}
	}
}

// An ${oc.env:X} without a default is reported unless the repository's script sets X before
// composing (Options.EnvSet: rootutils' PROJECT_ROOT) or X is HOME, which the system sets.
func TestEnvSetByRepositoryIsNoUnresolvedReference(t *testing.T) {
	files := map[string]string{
		"configs/train.yaml":         "defaults:\n  - paths: default\n  - _self_\nseed: 1\n",
		"configs/paths/default.yaml": "root_dir: ${oc.env:PROJECT_ROOT}\ncache: ${oc.env:HOME}/.cache\nscratch: ${oc.env:SCRATCH}\n",
	}
	names := []string{"configs/paths/default.yaml", "configs/train.yaml"}
	for _, tc := range []struct {
		set  map[string]bool
		want string
	}{
		{nil, "configs/paths/default.yaml:1 PROJECT_ROOT|configs/paths/default.yaml:3 SCRATCH"},
		{map[string]bool{"PROJECT_ROOT": true}, "configs/paths/default.yaml:3 SCRATCH"},
	} {
		var got []string
		for _, d := range lint.LintTree(fstestMap(files), names, nil, rules.All(), lint.Options{EnvSet: tc.set}).Diagnostics {
			if d.Code == "TL006" {
				got = append(got, d.File+":"+itoa(d.Line)+" "+strings.Fields(d.Message)[2])
			}
		}
		if g := strings.Join(got, "|"); g != tc.want {
			t.Errorf("EnvSet %v: TL006 %q, want %q", tc.set, g, tc.want)
		}
	}
}

// A primary that leaves a group null whose options declare `# @package _global_` names keys
// only those options set (4D-Humans' experiment group and ${GENERAL.LOG_STEPS}): in the run of
// the primary alone they are not known rather than missing; a key no option sets, even under a
// map they set (${GENERAL.NOPE}), still is, while one into a list or through an interpolation
// they set (${GENERAL.STEPS.1}, ${GENERAL.OPT.lr}) is not. A group other than experiment gets
// no run per option, so the primary's run alone must report it.
func TestNullGlobalGroupKeysAreNotMissing(t *testing.T) {
	files := map[string]string{
		"conf/train.yaml":           "defaults:\n  - _self_\n  - trainer: default\n  - task: null\nseed: 1\n",
		"conf/trainer/default.yaml": "log_every_n_steps: ${GENERAL.LOG_STEPS}\nmax_steps: ${GENERAL.TOTAL}\nval: ${GENERAL.NOPE}\nb: ${GENERAL.STEPS.1}\nc: ${GENERAL.OPT.lr}\n",
		"conf/task/vit.yaml":        "# @package _global_\nGENERAL:\n  LOG_STEPS: 100\n  TOTAL: 1000\n  STEPS: [1, 2]\n  OPT: ${BASE}\nBASE:\n  lr: 0.1\n",
	}
	names := []string{"conf/task/vit.yaml", "conf/train.yaml", "conf/trainer/default.yaml"}
	var got []string
	for _, d := range lint.LintTree(fstestMap(files), names, nil, rules.All(), lint.Options{}).Diagnostics {
		if d.Code == "TL006" {
			got = append(got, d.File+":"+itoa(d.Line))
		}
	}
	if g := strings.Join(got, "|"); g != "conf/trainer/default.yaml:3" {
		t.Errorf("TL006 at %q, want conf/trainer/default.yaml:3 alone", g)
	}
}

// A ${key} that the repository's script adds to the config before use (Options.ScriptAdds:
// physicsnemo's OmegaConf.update(cfg, "out_dim", ..., force_add=True) before instantiating
// cfg.model) is not reported missing; a key under one it assigns neither; another one is.
func TestScriptAddedKeysAreNoUnresolvedReference(t *testing.T) {
	files := map[string]string{
		"conf/train.yaml":       "defaults:\n  - model: mlp\n  - _self_\nseed: 1\n",
		"conf/model/mlp.yaml":   "out_channels: ${out_dim}\nwidth: ${arch.width}\nnope: ${missing}\n",
		"conf/other/keep.yaml":  "x: 1\n",
		"conf/model/other.yaml": "y: 2\n",
	}
	names := []string{"conf/model/mlp.yaml", "conf/model/other.yaml", "conf/other/keep.yaml", "conf/train.yaml"}
	for _, tc := range []struct {
		sets map[string]bool
		want string
	}{
		{nil, "conf/model/mlp.yaml:1|conf/model/mlp.yaml:2|conf/model/mlp.yaml:3"},
		{map[string]bool{"out_dim": true, "arch": true}, "conf/model/mlp.yaml:3"},
	} {
		var got []string
		for _, d := range lint.LintTree(fstestMap(files), names, nil, rules.All(), lint.Options{ScriptAdds: tc.sets}).Diagnostics {
			if d.Code == "TL006" {
				got = append(got, d.File+":"+itoa(d.Line))
			}
		}
		if g := strings.Join(got, "|"); g != tc.want {
			t.Errorf("ScriptAdds %v: TL006 %q, want %q", tc.sets, g, tc.want)
		}
	}
}

// TestRunsOverrideKeyInFile: a run's `+callbacks:` (yangkunyi/sam2-video-training's
// train.yaml, an EarlyStopping under it, over a 100-epoch run) is an unknown key to the run, and its EarlyStopping
// is no callback of the Trainer: no early-stopping finding.
func TestRunsOverrideKeyInFile(t *testing.T) {
	m := map[string]string{
		"conf/config.yaml": "trainer:\n  _target_: lightning.pytorch.Trainer\n  max_epochs: 100\ncallbacks:\n  - _target_: lightning.pytorch.callbacks.ModelCheckpoint\n    monitor: val/loss\n    mode: min\n",
		"conf/train.yaml":  "defaults:\n  - config\n  - _self_\n+callbacks:\n  - _target_: lightning.pytorch.callbacks.EarlyStopping\n    monitor: val/loss\n    patience: 8\n",
	}
	fsys := compose.FromFS(fstest.MapFS{
		"conf/config.yaml": {Data: []byte(m["conf/config.yaml"])},
		"conf/train.yaml":  {Data: []byte(m["conf/train.yaml"])},
	})
	specs := []compose.Spec{{Primary: "conf/train.yaml"}}
	res := lint.LintTree(fsys, []string{"conf/config.yaml", "conf/train.yaml"}, specs, rules.All(), lint.Options{Select: []string{"TL003", "TL305"}})
	d := find(res.Diagnostics, "TL003")
	if d == nil || d.File != "conf/train.yaml" || d.Line != 4 || !strings.Contains(d.Message, `"+callbacks" is a key of its own here`) || d.Severity != lint.Warning {
		t.Errorf("TL003 %+v in %+v", d, res.Diagnostics)
	}
	if d := find(res.Diagnostics, "TL305"); d != nil {
		t.Errorf("early stopping under +callbacks: %+v", d)
	}
}
