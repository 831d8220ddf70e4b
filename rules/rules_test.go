//go:build !trainlint_lite

package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// The generic rule test. Every rule in All() must have complete metadata and a testdata archive
// (testdata/<name>.txtar) with bad and good sections; each section is linted with ALL rules (so
// noise from other rules shows) and:
//   - every expectation (`# want "re"` on the line where the finding starts, or a .want line
//     "line:col CODE re") is matched by exactly one diagnostic;
//   - every diagnostic of the archive's rule is expected;
//   - good sections have no error or warning from any rule (info is allowed);
//   - the detected framework is the one in the section name (unless .args has --framework);
//   - a .fixed section equals the text after applying the rule's fixes.

// frameworksCovered are the frameworks for which a rule that lists them needs a bad and a good
// section of its own: every registered dialect.
var frameworksCovered = frameworkIDs()

var (
	codeRe = regexp.MustCompile(`^TL[0-9]{3}$`)
	nameRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

var categoryOfRange = map[byte]string{
	'0': lint.CatStructure, '1': lint.CatInputPipeline, '2': lint.CatEvaluation, '3': lint.CatCheckpoints,
	'4': lint.CatTracking, '5': lint.CatBatchNorm, '6': lint.CatMultiHost, '7': lint.CatBatchSchedule,
}

// playbookAnchors are the heading slugs of the playbook README (google-research/tuning_playbook
// @7554a51) that rules may cite; a typo in an anchor would send readers to the top of the page.
var playbookAnchors = map[string]bool{}

func init() {
	for _, a := range strings.Fields(`
		additional-guidance-for-the-training-pipeline optimizing-the-input-pipeline
		evaluating-model-performance evaluation-settings setting-up-periodic-evaluations
		choosing-a-sample-for-periodic-evaluation
		saving-checkpoints-and-retrospectively-selecting-the-best-checkpoint
		setting-up-experiment-tracking batch-normalization-implementation-details
		considerations-for-multi-host-pipelines choosing-the-batch-size
		determining-the-feasible-batch-sizes-and-estimating-training-throughput
		changing-the-batch-size-requires-re-tuning-most-hyperparameters
		how-batch-norm-interacts-with-the-batch-size choosing-the-initial-configuration
		choosing-the-optimizer examining-the-training-curves after-exploration-concludes
		determining-the-number-of-steps-for-each-training-run
		deciding-how-long-to-train-when-training-is-not-compute-bound
		deciding-how-long-to-train-when-training-is-compute-bound
		algorithm-for-picking-an-initial-candidate-for-max_train_steps-using-a-learning-rate-sweep
		what-is-the-best-learning-rate-decay-schedule-family
		which-learning-rate-decay-should-i-use-as-a-default
		why-do-some-papers-have-complicated-learning-rate-schedules
		how-should-adams-hyperparameters-be-tuned
		where-can-i-find-an-implementation-of-quasi-random-search
		how-can-optimization-failures-be-debugged-and-mitigated identifying-unstable-workloads
		potential-fixes-for-common-instability-patterns how-to-apply-learning-rate-warmup
		gradient-clipping
		why-shouldnt-the-batch-size-be-tuned-to-directly-improve-validation-set-performance`) {
		playbookAnchors[a] = true
	}
}

// noBadSections are rules no input can trigger: internal-error needs a crashing rule and is
// tested by TestPanickingRuleBecomesInternalError.
// (unresolved-reference's composed-run half needs several files, which an archive section cannot
// hold: lint/run_test.go and lint/compose cover it; its single-file half has bad sections.)
var noBadSections = map[string]bool{lint.InternalError.Name: true}

func TestRuleMetadata(t *testing.T) {
	codes, names := map[string]bool{}, map[string]bool{}
	for _, r := range All() {
		t.Run(r.Name, func(t *testing.T) {
			if !codeRe.MatchString(r.Code) {
				t.Errorf("code %q is not TL + 3 digits", r.Code)
			}
			if !nameRe.MatchString(r.Name) {
				t.Errorf("name %q is not kebab-case", r.Name)
			}
			if codes[r.Code] || names[r.Name] {
				t.Errorf("code %s or name %s is used twice", r.Code, r.Name)
			}
			codes[r.Code], names[r.Name] = true, true
			if len(r.Code) == 5 && categoryOfRange[r.Code[2]] != r.Category {
				t.Errorf("category %q does not match code range %sxx (want %q)", r.Category, r.Code[:3], categoryOfRange[r.Code[2]])
			}
			if r.Severity < lint.Info || r.Severity > lint.Error {
				t.Errorf("severity %v is not info, warning or error", r.Severity)
			}
			for what, s := range map[string]string{"Title": r.Title, "Rationale": r.Rationale, "Fix": r.Fix, "FixText": r.FixText()} {
				if strings.TrimSpace(s) == "" {
					t.Errorf("%s is empty", what)
				}
			}
			if r.FixList != nil && !strings.HasPrefix(r.FixText(), r.Fix) {
				// A finding's default help is Fix's first paragraph (lint's ruleTexts), which
				// must be the whole text's.
				t.Errorf("FixText does not start with Fix")
			}
			if strings.HasSuffix(r.Title, ".") {
				t.Errorf("title %q ends with a period", r.Title)
			}
			if len(r.Frameworks) == 0 {
				t.Errorf("Frameworks is empty")
			}
			if r.Category != lint.CatStructure && r.Anchor == "" {
				t.Errorf("playbook anchor missing")
			}
			if r.Anchor != "" && !playbookAnchors[r.Anchor] {
				t.Errorf("anchor %q is not a heading slug of the playbook README", r.Anchor)
			}
			if r.Check == nil && !isBuiltin(r) {
				t.Errorf("no Check function")
			}
			for _, o := range r.Options {
				if o.Name == "" || o.Type == "" || o.Default == nil || o.Doc == "" {
					t.Errorf("option %+v is incomplete", o)
				}
			}
		})
	}
}

func isBuiltin(r *lint.Rule) bool {
	for _, b := range lint.Builtin() {
		if b == r {
			return true
		}
	}
	return false
}

// TestArchivesNameRules guards against archives for rules that do not exist (a typo would make a
// rule look tested while its real archive is missing).
func TestArchivesNameRules(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		if r := ByName(name); r == nil || r.Name != name {
			t.Errorf("%s: no rule is named %q", f, name)
		}
	}
	if got, want := len(ArchiveNames()), len(files); got != want {
		t.Errorf("embedded archives: %d, files on disk: %d", got, want)
	}
}

func TestRuleExamples(t *testing.T) {
	for _, r := range All() {
		t.Run(r.Name, func(t *testing.T) {
			a, err := LoadArchive(r.Name)
			if err != nil {
				t.Fatalf("%v: every rule needs rules/testdata/%s.txtar with bad and good sections", err, r.Name)
			}
			checkCoverage(t, r, a)
			for i := range a.Examples {
				ex := &a.Examples[i]
				t.Run(ex.Name, func(t *testing.T) { runExample(t, r, ex) })
			}
		})
	}
}

// checkCoverage requires a good section, a bad section (except for untriggerable rules), and
// for rules that name frameworks, a bad and a good section per covered framework.
func checkCoverage(t *testing.T, r *lint.Rule, a *Archive) {
	t.Helper()
	have := map[string]bool{}
	for _, ex := range a.Examples {
		have[ex.Kind] = true
		have[ex.Kind+"-"+ex.Framework] = true
	}
	if !have["good"] {
		t.Errorf("%s.txtar has no good section", r.Name)
	}
	if !have["bad"] && !noBadSections[r.Name] {
		t.Errorf("%s.txtar has no bad section", r.Name)
	}
	for _, fw := range r.Frameworks {
		if fw == "*" || !contains(frameworksCovered, fw) {
			continue
		}
		for _, kind := range []string{"bad", "good"} {
			if !have[kind+"-"+fw] {
				t.Errorf("%s.txtar: rule lists framework %s but has no %s-%s section", r.Name, fw, kind, fw)
			}
		}
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func runExample(t *testing.T, r *lint.Rule, ex *Example) {
	t.Helper()
	problems, opts := exampleProblems(r, ex)
	for _, p := range problems {
		t.Error(p)
	}
	if len(problems) > 0 {
		a, _ := lint.Analyze(ex.File(), opts)
		if a.Plan != nil {
			t.Logf("plan of %s:\n%s", ex.Name, describePlan(a.Plan))
		}
	}
}

// exampleProblems lints one section with every rule and lists what contradicts its annotations
// (empty when the section is as annotated). It is separate from the test so that the harness
// itself can be tested on sections that are wrong on purpose.
func exampleProblems(r *lint.Rule, ex *Example) (problems []string, opts lint.Options) {
	where := fmt.Sprintf("testdata/%s.txtar:%d (%s)", r.Name, ex.Line, ex.Name)
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	opts = ex.Options()
	info, diags := lint.LintFile(ex.File(), All(), opts)

	if opts.Framework == "" && info.Framework != ex.Framework {
		add("%s: detected framework %q, section name says %q", where, info.Framework, ex.Framework)
	}
	if ex.Kind == "bad" && len(ex.Want) == 0 {
		add("%s: a bad section needs at least one expectation", where)
	}

	matched := make([]bool, len(diags))
	for _, w := range ex.Want {
		code := w.Code
		if code == "" {
			code = r.Code
		}
		var hits []int
		for i, d := range diags {
			if d.Code == code && d.Line == w.Line && (w.Col == 0 || d.Column == w.Col) && w.Pattern.MatchString(d.Message) {
				hits = append(hits, i)
			}
		}
		at := fmt.Sprintf("testdata/%s.txtar:%d", r.Name, w.ArchiveLine)
		switch {
		case len(hits) == 0:
			add("%s: no %s finding at %s line %d matching %q\n%s", at, code, ex.Name, w.Line, w.Pattern, listDiags(diags))
		case len(hits) > 1:
			add("%s: %d %s findings at %s line %d match %q (want exactly one)\n%s", at, len(hits), code, ex.Name, w.Line, w.Pattern, listDiags(diags))
		case matched[hits[0]]:
			add("%s: the %s finding at %s line %d is already matched by another expectation", at, code, ex.Name, w.Line)
		default:
			matched[hits[0]] = true
		}
	}
	for i, d := range diags {
		if matched[i] {
			continue
		}
		if d.Code == r.Code {
			add("%s: unexpected %s finding %d:%d %q (annotate it with # want or a .want line)", where, d.Code, d.Line, d.Column, d.Message)
		} else if ex.Kind == "good" && d.Severity >= lint.Warning {
			add("%s: good section has a %s from another rule: %s %s %d:%d %q", where, d.Severity, d.Code, d.Rule, d.Line, d.Column, d.Message)
		}
	}
	if ex.HasFixed {
		if got := applyFixes(ex.Text, diags, r.Code); got != ex.Fixed {
			add("%s: text after fixes differs from the .fixed section\n--- got ---\n%s--- want ---\n%s", where, got, ex.Fixed)
		}
	}
	return problems, opts
}

func listDiags(ds []lint.Diagnostic) string {
	if len(ds) == 0 {
		return "\t(no findings)"
	}
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "\t%d:%d %s %s %s: %s\n", d.Line, d.Column, d.Code, d.Rule, d.Severity, d.Message)
	}
	return b.String()
}

// applyFixes applies the edits of code's fixes, last first (edits of different findings on the
// same bytes would overlap: the test then reports the mismatch).
func applyFixes(text string, diags []lint.Diagnostic, code string) string {
	var edits []lint.Edit
	for _, d := range diags {
		if d.Code == code && d.Fix != nil {
			edits = append(edits, d.Fix.Edits...)
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
	for _, e := range edits {
		if e.Start < 0 || e.End > len(text) || e.Start > e.End {
			continue
		}
		text = text[:e.Start] + e.NewText + text[e.End:]
	}
	return text
}

// describePlan prints the facts the playbook rules read, to make a failing case diagnosable
// without a debugger (which fact the dialect did or did not fill).
func describePlan(p *plan.Plan) string {
	var b strings.Builder
	fact := func(name string, f any) { fmt.Fprintf(&b, "\t%-22s %s\n", name, f) }
	fact("framework", p.Framework+" "+p.Variant)
	fact("topology.hosts", fmtFact(p.Topology.Hosts))
	fact("topology.devices", fmtFact(p.Topology.DevicesPerHost))
	fact("train.per_device", fmtFact(p.Train.PerDeviceBatch))
	fact("train.global", fmtFact(p.Train.GlobalBatch))
	fact("train.max_steps", fmtFact(p.Train.MaxSteps))
	fact("eval.enabled", fmtFact(p.Eval.Enabled))
	fact("eval.interval", fmtFact(p.Eval.Interval))
	fact("eval.per_device", fmtFact(p.Eval.PerDeviceBatch))
	fact("eval.global", fmtFact(p.Eval.GlobalBatch))
	fact("eval.colocated", fmtFact(p.Eval.Colocated))
	fact("data.workers", fmtFact(p.Data.Workers))
	fact("data.prefetch", fmtFact(p.Data.Prefetch))
	fact("data.sharding", fmtFact(p.Data.Sharding))
	fact("seeds.init", fmtFact(p.Seeds.Init))
	fact("seeds.data", fmtFact(p.Seeds.Data))
	fact("ckpt.enabled", fmtFact(p.Ckpt.Enabled))
	fact("ckpt.interval", fmtFact(p.Ckpt.Interval))
	fact("ckpt.retention", fmtFact(p.Ckpt.Retention))
	fact("ckpt.scope", fmtFact(p.Ckpt.Scope))
	fact("logging.scope", fmtFact(p.Logging.Scope))
	fact("logging.console", fmtFact(p.Logging.ConsoleScope))
	fact("bn.present", fmtFact(p.BN.Present))
	fact("bn.sync", fmtFact(p.BN.Sync))
	return b.String()
}

func fmtFact[T any](f plan.Fact[T]) string {
	if !f.Known() {
		if f.Key != "" {
			return "unknown (" + f.Key + ")"
		}
		return "unknown"
	}
	s := fmt.Sprintf("%+v %s key=%q", f.Value, f.Origin, f.Key)
	if f.Node != nil {
		s += fmt.Sprintf(" at %d:%d", f.Node.Span.Start.Line, f.Node.Span.Start.Col)
	}
	if f.Note != "" {
		s += " note=" + fmt.Sprintf("%q", f.Note)
	}
	return s
}

// TestPanickingRuleBecomesInternalError: a crashing rule costs one internal-error finding that
// names it, and every other rule still runs on the file.
func TestPanickingRuleBecomesInternalError(t *testing.T) {
	boom := &lint.Rule{
		Code: "TL999", Name: "test-panics", Category: lint.CatStructure, Severity: lint.Warning,
		Title: "Panics", Rationale: "test", Fix: "none", Frameworks: []string{"*"}, NeedsPlan: true,
		Check: func(p *lint.Pass) { var m map[string]int; m["x"]++ },
	}
	src := "per_device_train_batch_size: 32\nper_device_eval_batch_size: 4\neval_strategy: steps\neval_steps: 100\n"
	ruleset := append([]*lint.Rule{boom}, All()...)
	_, diags := lint.LintFile(lint.File{Path: "sft.yaml", Text: []byte(src)}, ruleset, lint.Options{Framework: "huggingface"})
	var internal []lint.Diagnostic
	sawTL202 := false
	for _, d := range diags {
		if d.Code == lint.InternalError.Code {
			internal = append(internal, d)
		}
		sawTL202 = sawTL202 || d.Code == EvalBatchSmallerThanTrain.Code
	}
	if !sawTL202 {
		t.Errorf("the real rules did not run after the panic (no TL202 on eval batch 4 < train batch 32):\n%s", listDiags(diags))
	}
	if len(internal) != 1 {
		t.Fatalf("want exactly one %s finding, got %d:\n%s", lint.InternalError.Code, len(internal), listDiags(diags))
	}
	if d := internal[0]; !strings.Contains(d.Message, "test-panics") || d.Severity != lint.Error || d.Rule != "internal-error" {
		t.Errorf("internal-error finding %+v does not name the rule or is not an error", d)
	}
	if d := internal[0]; !strings.Contains(d.Message, "assignment to entry in nil map") {
		t.Errorf("internal-error finding %q does not say what the panic said", d.Message)
	}
	// A rule that does not depend on any dialect fact still reported: the engine went on.
	okRule := &lint.Rule{Code: "TL998", Name: "test-reports", Category: lint.CatStructure, Severity: lint.Info,
		Check: func(p *lint.Pass) { p.Report(lint.Finding{Message: "still running"}) }}
	_, diags = lint.LintFile(lint.File{Path: "sft.yaml", Text: []byte(src)}, []*lint.Rule{boom, okRule}, lint.Options{})
	var sawOK, sawInternal bool
	for _, d := range diags {
		sawOK = sawOK || d.Code == "TL998"
		sawInternal = sawInternal || d.Code == lint.InternalError.Code
	}
	if !sawOK || !sawInternal {
		t.Errorf("after a panicking rule: other rule ran=%v, internal-error=%v\n%s", sawOK, sawInternal, listDiags(diags))
	}
}

// TestParseArchive checks the archive reader on a hand-written archive, including the error
// cases a rule author will meet.
func TestParseArchive(t *testing.T) {
	src := "comment\n-- bad-huggingface.yaml --\na: 1\nb: 2  # want \"x\" `y+`\n-- bad-deepspeed.json --\n{}\n-- bad-deepspeed.json.want --\n1:1 TL202 smaller\n-- good-llama-factory-v1.yaml --\nc: 3\n-- good-llama-factory-v1.yaml.args --\n--hosts 4\n--devices-per-host 8 --select TL6,TL501\n"
	a, err := ParseArchive("r", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if a.Comment != "comment\n" || len(a.Examples) != 3 {
		t.Fatalf("comment %q, %d examples", a.Comment, len(a.Examples))
	}
	e0 := a.Examples[0]
	if e0.Text != "a: 1\nb: 2\n" || len(e0.Want) != 2 || e0.Want[0].Line != 2 || e0.Want[1].Pattern.String() != "y+" || e0.Line != 3 || e0.Want[0].ArchiveLine != 4 {
		t.Errorf("first example: %+v", e0)
	}
	e1 := a.Examples[1]
	if len(e1.Want) != 1 || e1.Want[0].Code != "TL202" || e1.Want[0].Col != 1 || e1.Framework != "deepspeed" {
		t.Errorf("json example: %+v", e1)
	}
	e2 := a.Examples[2]
	o := e2.Options()
	if e2.Framework != "llama-factory" || e2.Suffix != "v1" || e2.Kind != "good" || o.Hosts != 4 || o.DevicesPerHost != 8 || len(o.Select) != 2 {
		t.Errorf("args example: %+v %+v", e2, o)
	}
	for _, bad := range []string{
		"-- ugly-huggingface.yaml --\n",
		"-- bad-pytorch.yaml --\n",
		"-- bad-huggingface.yaml.want --\n1:1 TL1 x\n",
		"-- bad-huggingface.yaml --\na: 1 # want \"(\"\n",
		"-- bad-deepspeed.json --\n{} # want \"x\"\n",
		"-- bad-generic.yaml --\n-- bad-generic.yaml.args --\n--hosts many\n",
		"-- bad-generic.yaml --\n-- bad-generic.yaml.want --\nnot a want\n",
		"-- bad-generic.yaml --\n-- bad-generic.yaml --\n",
	} {
		if _, err := ParseArchive("r", []byte(bad)); err == nil {
			t.Errorf("ParseArchive accepted %q", bad)
		}
	}
}

// TestExamplesAPI: the API the site and `trainlint explain` use returns the archive's sections
// by name or code, with the first bad and good example found.
func TestExamplesAPI(t *testing.T) {
	for _, name := range ArchiveNames() {
		r := ByName(name)
		if r == nil {
			continue
		}
		if len(Examples(r.Code)) != len(Examples(r.Name)) || len(Examples(r.Name)) == 0 {
			t.Errorf("%s: Examples by code and by name differ or are empty", name)
		}
		bad, good := FirstExamples(name)
		if good == nil || (bad == nil && !noBadSections[name]) {
			t.Errorf("%s: FirstExamples: bad=%v good=%v", name, bad != nil, good != nil)
		}
		if bad != nil && strings.Contains(bad.Text, "# want") {
			t.Errorf("%s: example text still carries # want annotations", name)
		}
	}
	if Examples("no-such-rule") != nil {
		t.Errorf("Examples of an unknown rule is not nil")
	}
}

// TestTestdataIsEmbedded: the archives on disk are the embedded ones (go:embed picks up new
// files at build time, so this catches an archive added under another extension).
func TestTestdataIsEmbedded(t *testing.T) {
	ents, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".txtar") {
			t.Errorf("testdata/%s: only .txtar archives belong here", e.Name())
		}
	}
}

// TestHarnessCatchesMistakes feeds the harness sections that are wrong on purpose: each must
// produce the named problem, so a broken harness cannot pass every archive silently.
func TestHarnessCatchesMistakes(t *testing.T) {
	r := ByName("eval-batch-smaller-than-train")
	const hf = "model_name_or_path: gpt2\neval_strategy: steps\nper_device_train_batch_size: 16\n"
	cases := []struct{ name, section, want string }{
		{"wrong pattern", "-- bad-huggingface.yaml --\n" + hf + "per_device_eval_batch_size: 4  # want \"larger\"\n", "no TL202 finding"},
		{"wrong line", "-- bad-huggingface.yaml --\n" + hf + "per_device_eval_batch_size: 4\noutput_dir: x  # want \"smaller\"\n", "no TL202 finding"},
		{"missing want", "-- bad-huggingface.yaml --\n" + hf + "per_device_eval_batch_size: 4\noutput_dir: x  # want \"smaller\"\n", "unexpected TL202"},
		{"bad without want", "-- bad-huggingface.yaml --\n" + hf + "per_device_eval_batch_size: 32\n", "needs at least one expectation"},
		{"good with finding", "-- good-huggingface.yaml --\n" + hf + "per_device_eval_batch_size: 4\n", "unexpected TL202"},
		{"good with other warning", "-- good-huggingface.yaml --\n" + hf + "save_total_limit: 2\nsave_steps: 10\n", "from another rule: TL301"},
		{"double match", "-- bad-huggingface.yaml --\n" + hf + "per_device_eval_batch_size: 4  # want \"smaller\" \"eval batch 4\"\n", "already matched"},
		{"framework", "-- bad-generic.yaml --\n" + hf + "per_device_eval_batch_size: 4  # want \"smaller\"\n", "detected framework \"huggingface\""},
		{"json column", "-- bad-huggingface.json --\n{\"eval_strategy\": \"steps\", \"per_device_train_batch_size\": 16, \"per_device_eval_batch_size\": 4}\n-- bad-huggingface.json.want --\n1:1 TL202 smaller\n", "no TL202 finding"},
		{"fixed", "-- bad-huggingface.yaml --\n" + hf + "per_device_eval_batch_size: 4  # want \"smaller\"\n-- bad-huggingface.yaml.fixed --\n" + hf + "per_device_eval_batch_size: 8\n", "differs from the .fixed section"},
	}
	for _, c := range cases {
		a, err := ParseArchive(r.Name, []byte(c.section))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var all []string
		for i := range a.Examples {
			ps, _ := exampleProblems(r, &a.Examples[i])
			all = append(all, ps...)
		}
		if !strings.Contains(strings.Join(all, "\n"), c.want) {
			t.Errorf("%s: harness problems %q do not mention %q", c.name, all, c.want)
		}
	}
	// And a correct section has no problem at all.
	a, err := ParseArchive(r.Name, []byte("-- bad-huggingface.yaml --\n"+hf+"per_device_eval_batch_size: 4  # want \"smaller\"\n-- bad-huggingface.yaml.fixed --\n"+hf+"per_device_eval_batch_size: 16\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ps, _ := exampleProblems(r, &a.Examples[0]); len(ps) > 0 {
		t.Errorf("a correct section has problems: %q", ps)
	}
}
