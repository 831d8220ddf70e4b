package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/rules"
)

// End-to-end tests of the config file through run(), with the real rule set.

// checkJSON runs check with JSON output and returns the exit code, the result and stderr.
func checkJSON(t *testing.T, args ...string) (int, *lint.Result, string) {
	t.Helper()
	code, out, errs := cli(t, nil, append([]string{"check", "--format", "json"}, args...)...)
	res := &lint.Result{}
	if code != exitUsage {
		if err := json.Unmarshal([]byte(out), res); err != nil {
			t.Fatalf("output is not JSON (%v): %s\nstderr: %s", err, out, errs)
		}
	}
	return code, res, errs
}

// findings renders diagnostics as "file:line CODE severity" for comparison.
func findings(res *lint.Result) []string {
	var out []string
	for _, d := range res.Diagnostics {
		out = append(out, d.File+":"+itoa(d.Line)+" "+d.Code+" "+d.Severity.String())
	}
	return out
}

// findingsIn is findings of the diagnostics in the file reported as file, space-separated.
func findingsIn(res *lint.Result, file string) string {
	var out []string
	for _, f := range findings(res) {
		if strings.HasPrefix(f, file+":") {
			out = append(out, f)
		}
	}
	return strings.Join(out, " ")
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

const hfJSON = `{"per_device_train_batch_size": 16, "per_device_eval_batch_size": 4, "eval_strategy": "steps", "eval_steps": 100, "dataloader_num_workers": 4, "report_to": "tensorboard"}` + "\n"

func TestConfigSchemaErrorExits2(t *testing.T) {
	writeTree(t, map[string]string{
		".trainlint.toml": "select = [\"TL2\"]\n\nfail_on = \"error\"\n[context]\nhosts = \"four\"\n",
		"hf.json":         hfJSON,
	})
	code, _, stderr := checkJSON(t, ".")
	if code != exitUsage {
		t.Fatalf("exit %d, want 2; stderr %s", code, stderr)
	}
	for _, want := range []string{
		"trainlint: .trainlint.toml:3:1: unknown key \"fail_on\" (did you mean \"fail-on\"?)\n",
		"trainlint: .trainlint.toml:5:9: key \"context.hosts\" must be an integer, not a string\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// TestConfigIgnoreJSON: [[ignore]] silences a JSON file's finding by glob, rule and key path;
// the same file outside the glob, or another key, keeps it.
func TestConfigIgnoreJSON(t *testing.T) {
	writeTree(t, map[string]string{
		".trainlint.toml": `
[[ignore]]
path = "legacy/**/*.json"
rules = ["eval-batch-smaller-than-train"]
keys = ["per_device_eval_batch_size"]

[[ignore]]
path = "other/*.json"
rules = ["TL202"]
keys = ["per_device_train_batch_size"]
`,
		"legacy/a/hf.json": hfJSON,
		"new/hf.json":      hfJSON,
		"other/hf.json":    hfJSON,
	})
	code, res, stderr := checkJSON(t, ".")
	got := findings(res)
	want := []string{"new/hf.json:1 TL202 warning", "other/hf.json:1 TL202 warning"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || code != exitFindings {
		t.Errorf("exit %d, findings\n%s\nwant\n%s\nstderr %s", code, strings.Join(got, "\n"), strings.Join(want, "\n"), stderr)
	}
}

// TestConfigFilesFramework: [[files]] overrides detection for matching files only; the flag
// overrides both.
func TestConfigFilesFramework(t *testing.T) {
	writeTree(t, map[string]string{
		".trainlint.toml": "[[files]]\npath = \"ds/*.json\"\nframework = \"deepspeed\"\n",
		"ds/hf.json":      hfJSON,
		"hf.json":         hfJSON,
	})
	_, res, _ := checkJSON(t, ".")
	fw := map[string]string{}
	for _, f := range res.Files {
		fw[f.Path] = f.Framework
	}
	if fw["ds/hf.json"] != "deepspeed" || fw["hf.json"] != "huggingface" {
		t.Errorf("frameworks %v", fw)
	}
	if got := findings(res); strings.Join(got, ",") != "hf.json:1 TL202 warning" {
		t.Errorf("findings %v (the deepspeed reading has no per-device eval batch)", got)
	}
	_, res, _ = checkJSON(t, "--framework", "huggingface", ".")
	for _, f := range res.Files {
		if f.Framework != "huggingface" {
			t.Errorf("--framework did not override [[files]] for %s: %s", f.Path, f.Framework)
		}
	}
}

// TestConfigMapping: a team's own eval key in seconds, taught through [mapping], makes the
// generic dialect see a time-based eval interval (TL201).
func TestConfigMapping(t *testing.T) {
	writeTree(t, map[string]string{
		"cfg/run.yaml":        "trainer:\n  max_steps: 100000\n  my_eval_period: 1800\n  batch_size: 32\n",
		"plain/run.yaml":      "trainer:\n  max_steps: 100000\n  my_eval_period: 1800\n  batch_size: 32\n",
		"cfg/.trainlint.toml": "[mapping]\neval.interval_seconds = \"trainer.my_eval_period\"\n",
	})
	_, res, stderr := checkJSON(t, ".")
	got := findings(res)
	if !has(got, "cfg/run.yaml:3 TL201 warning") {
		t.Errorf("no TL201 at the mapped key: %v\n%s", got, stderr)
	}
	for _, f := range got {
		if strings.HasPrefix(f, "plain/") && strings.Contains(f, "TL201") {
			t.Errorf("TL201 without the mapping: %v", got)
		}
	}
}

// TestConfigContextHosts: [context] hosts turns on the multi-host rules; --hosts overrides it.
func TestConfigContextHosts(t *testing.T) {
	src := "model_name_or_path: meta-llama/Llama-3.1-70B\nper_device_train_batch_size: 2\nper_device_eval_batch_size: 4\ndataloader_num_workers: 4\neval_strategy: steps\neval_steps: 200\nlog_on_each_node: true\noutput_dir: out\n"
	writeTree(t, map[string]string{"sft.yaml": src})
	_, res, _ := checkJSON(t, "sft.yaml")
	for _, d := range res.Diagnostics {
		if d.Code == rules.MultiHostLoggingOnAllHosts.Code {
			t.Fatalf("TL601 without a host count: %+v", d)
		}
	}
	writeTree(t, map[string]string{"sft.yaml": src, ".trainlint.toml": "[context]\nhosts = 4\ndevices-per-host = 8\n"})
	_, res, _ = checkJSON(t, "sft.yaml")
	var msg string
	for _, d := range res.Diagnostics {
		if d.Code == rules.MultiHostLoggingOnAllHosts.Code {
			msg = d.Message
		}
	}
	if !strings.Contains(msg, "on 4 hosts") {
		t.Errorf("TL601 with [context] hosts = 4: %q\n%v", msg, findings(res))
	}
	_, res, _ = checkJSON(t, "--hosts", "1", "sft.yaml")
	for _, d := range res.Diagnostics {
		if d.Code == rules.MultiHostLoggingOnAllHosts.Code {
			t.Errorf("--hosts 1 did not override [context] hosts: %+v", d)
		}
	}
}

// optionRule reports its options, so the test sees what the config file set.
var optionRule = &lint.Rule{
	Code: "TL997", Name: "test-options", Category: lint.CatStructure, Severity: lint.Info,
	Title: "Reports its options", Rationale: "test", Fix: "none", Frameworks: []string{"*"},
	Options: []lint.Option{{Name: "limit", Type: "integer", Default: 3, Doc: "a limit"}, {Name: "label", Type: "string", Default: "x", Doc: "a label"}},
	Check: func(p *lint.Pass) {
		p.Report(lint.Finding{Message: "limit " + itoa(p.Int("limit")) + " label " + p.String("label")})
	},
}

// TestConfigRuleSeverityAndOptions: [rules.<name>] sets severity (which fail-on then sees) and
// options, validated against the rule's declared options.
func TestConfigRuleSeverityAndOptions(t *testing.T) {
	old := allRules
	allRules = func() []*lint.Rule { return append([]*lint.Rule{optionRule, rules.ParseError}, lint.Builtin()...) }
	t.Cleanup(func() { allRules = old })

	writeTree(t, map[string]string{"a.yaml": "a: 1\n"})
	code, res, _ := checkJSON(t, "a.yaml")
	if code != exitOK || len(res.Diagnostics) != 1 || res.Diagnostics[0].Message != "limit 3 label x" || res.Diagnostics[0].Severity != lint.Info {
		t.Fatalf("defaults: exit %d %+v", code, res.Diagnostics)
	}
	writeTree(t, map[string]string{"a.yaml": "a: 1\n", ".trainlint.toml": "[rules.test-options]\nseverity = \"error\"\nlimit = 7\nlabel = \"y\"\n"})
	code, res, _ = checkJSON(t, "a.yaml")
	if code != exitFindings || len(res.Diagnostics) != 1 || res.Diagnostics[0].Message != "limit 7 label y" || res.Diagnostics[0].Severity != lint.Error {
		t.Errorf("configured: exit %d %+v", code, res.Diagnostics)
	}
	// fail-on in the file; the flag wins over it.
	writeTree(t, map[string]string{"a.yaml": "a: 1\n", ".trainlint.toml": "fail-on = \"info\"\n"})
	if code, _, _ = checkJSON(t, "a.yaml"); code != exitFindings {
		t.Errorf("fail-on = info with an info finding: exit %d, want 1", code)
	}
	if code, _, _ = checkJSON(t, "--fail-on", "error", "a.yaml"); code != exitOK {
		t.Errorf("--fail-on error over the file's info: exit %d, want 0", code)
	}
	writeTree(t, map[string]string{"a.yaml": "a: 1\n", ".trainlint.toml": "[rules.test-options]\nlimit = \"7\"\n"})
	code, _, stderr := checkJSON(t, "a.yaml")
	if code != exitUsage || !strings.Contains(stderr, `.trainlint.toml:2:9: key "rules.test-options.limit" must be an integer, not a string`) {
		t.Errorf("mistyped option: exit %d, stderr %s", code, stderr)
	}
}

// TestConfigNearestWinsAndFlags: each folder takes its nearest config; --select overrides them;
// --config replaces discovery.
func TestConfigNearestWinsAndFlags(t *testing.T) {
	writeTree(t, map[string]string{
		".trainlint.toml":   "ignore = [\"TL202\"]\n",
		"a/hf.json":         hfJSON,
		"b/.trainlint.toml": "select = [\"TL2\"]\n",
		"b/hf.json":         hfJSON,
		"c/pyproject.toml":  "[project]\nname = \"c\"\n[tool.trainlint]\nignore = [\"evaluation\"]\n",
		"c/hf.json":         hfJSON,
		"strict.toml":       "select = [\"TL202\"]\n[rules.eval-batch-smaller-than-train]\nseverity = \"error\"\n",
	})
	_, res, _ := checkJSON(t, ".")
	if got := strings.Join(findings(res), ","); got != "b/hf.json:1 TL202 warning" {
		t.Errorf("nearest config per folder: %s", got)
	}
	_, res, _ = checkJSON(t, "--select", "TL202", ".")
	if got := strings.Join(findings(res), ","); got != "b/hf.json:1 TL202 warning" {
		// --select replaces select, not the files' ignore lists
		t.Errorf("--select: %s", got)
	}
	_, res, _ = checkJSON(t, "--ignore", "TL1", ".")
	if got := strings.Join(findings(res), ","); got != "a/hf.json:1 TL202 warning,b/hf.json:1 TL202 warning,c/hf.json:1 TL202 warning" {
		t.Errorf("--ignore replaces the files' ignore: %s", got)
	}
	_, res, _ = checkJSON(t, "--config", "strict.toml", ".")
	if got := strings.Join(findings(res), ","); got != "a/hf.json:1 TL202 error,b/hf.json:1 TL202 error,c/hf.json:1 TL202 error" {
		t.Errorf("--config: %s", got)
	}
}

// TestConfigRequireReason: require-suppression-reason in the file makes bare suppressions
// malformed.
func TestConfigRequireReason(t *testing.T) {
	src := "per_device_train_batch_size: 16\nper_device_eval_batch_size: 4  # trainlint: disable=TL202\neval_strategy: steps\neval_steps: 100\ndataloader_num_workers: 4\nreport_to: tensorboard\n"
	writeTree(t, map[string]string{"sft.yaml": src})
	code, res, _ := checkJSON(t, "sft.yaml")
	if code != exitOK || len(res.Diagnostics) != 0 {
		t.Fatalf("bare suppression without the setting: exit %d %v", code, findings(res))
	}
	writeTree(t, map[string]string{"sft.yaml": src, ".trainlint.toml": "require-suppression-reason = true\n"})
	_, res, _ = checkJSON(t, "sft.yaml")
	if got := strings.Join(findings(res), ","); got != "sft.yaml:2 TL202 warning,sft.yaml:2 TL007 error" && got != "sft.yaml:2 TL007 error,sft.yaml:2 TL202 warning" {
		t.Errorf("with require-suppression-reason: %s", got)
	}
}

func TestSchemaConfigCommand(t *testing.T) {
	code, out, stderr := cli(t, nil, "schema", "config")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(out)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("config.json", doc); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile("config.json"); err != nil {
		t.Fatalf("the printed schema does not compile: %v", err)
	}
	for _, r := range rules.All() {
		if !strings.Contains(out, `"`+r.Name+`"`) {
			t.Errorf("schema has no [rules.%s] table", r.Name)
		}
	}
}

func TestConfigFlagErrorsOneLineEach(t *testing.T) {
	writeTree(t, map[string]string{"bad.toml": "fail_on = 1\nselect = 2\n", "a.yaml": "a: 1\n"})
	code, _, stderr := checkJSON(t, "--config", "bad.toml", "a.yaml")
	want := "trainlint: bad.toml:1:1: unknown key \"fail_on\" (did you mean \"fail-on\"?)\ntrainlint: bad.toml:2:10: key \"select\" must be an array, not an integer\n"
	if code != exitUsage || stderr != want {
		t.Errorf("exit %d, stderr\n%s\nwant\n%s", code, stderr, want)
	}
}

// TestConfigFilesAreNotLinted: walking a folder skips .trainlint.toml and pyproject.toml, the
// JavaScript tooling files (JSON with comments) a project's web client keeps beside its configs,
// CI services' folders (GitHub workflows' `${{ }}` read as OmegaConf interpolations),
// Jupyter's autosaved copies, Git LFS pointers, JSON Lines data (or Python dicts a line), JSON
// templates a shell fills in, and empty or plain-text .json files.
func TestConfigFilesAreNotLinted(t *testing.T) {
	jsonc := "{\n  // comments are allowed here\n  \"compilerOptions\": {\"strict\": true,},\n}\n"
	writeTree(t, map[string]string{
		".trainlint.toml":                 "select = [\"TL2\"]\n",
		"sub/pyproject.toml":              "[project]\nname = \"x\"\n",
		"hf.json":                         hfJSON,
		"client/tsconfig.json":            jsonc,
		"client/tsconfig.app.json":        jsonc,
		"client/jsconfig.json":            jsonc,
		"client/package.json":             "{\"name\": \"client\"}\n",
		"client/package-lock.json":        "{\"lockfileVersion\": 3}\n",
		"client/.eslintrc.json":           jsonc,
		".vscode/settings.json":           jsonc,
		".devcontainer/devcontainer.json": jsonc,
		"runtime/CMakeSettings.json":      "\ufeff{\"configurations\": [{\"name\": \"x64-Debug\"}]}\n",
		"runtime/CMakePresets.json":       "{\"version\": 3}\n",
		"runtime/vcpkg.json":              "{\"name\": \"runtime\"}\n",
		"pyrightconfig.json":              jsonc,
		"debug/launch.json":               "{\n  // VS Code's debug configurations\n  \"version\": \"0.2.0\",\n  \"configurations\": [],\n}\n",
		// MkDocs' site definition: its menu translations may repeat a label.
		"mkdocs.yml":       "site_name: x\nnav_translations:\n  Serving: A\n  Serving: B\n",
		"docs/mkdocs.yaml": "site_name: x\n",
		// What Lightning's loggers write beside a run: its hyperparameters, not a config.
		"logs/lightning_logs/version_3/hparams.yaml": "model/params/total: 1200\ntrainer:\n  max_epochs: 10\n",
		"models/cl-2d/hparams.yaml":                  "model/params/total: 1200\ntrainer:\n  max_epochs: 10\n",
		"models/cl-2d/last.ckpt":                     "",
		// What DVCLive writes into its output folder: the logged TrainingArguments.
		"dvclive/params.yaml":                   "output_dir: dvclive/artifacts\nwarmup_ratio: 0.1\ndataloader_num_workers: 0\n",
		"out/checkpoint-500/trainer_state.json": "{\"best_metric\": null, \"global_step\": 500, \"log_history\": [{\"loss\": 1.2, \"step\": 10}], \"num_input_tokens_seen\": 0, \"train_batch_size\": 8}\n",
		// A Trainer's state kept under another name (long_llama's misc/trainer_state_of_*.json).
		"misc/trainer_state_of_run.json": "{\"best_metric\": null, \"best_model_checkpoint\": null, \"global_step\": 4000, \"log_history\": [], \"max_steps\": 4000}\n",
		".gitlab-ci.yml":                 "stages: [a]\nx: &a {}\ny: &a {}\n",
		".github/workflows/ci.yml":       "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    env:\n      TOKEN: ${{ secrets.TOKEN }}\n",
		".gitlab/ci/build.yml":           "build:\n  script: [make]\n",
		".circleci/config.yml":           "version: 2.1\n",
		// JSON Lines data named .json (an evaluation set); a broken config is no such file.
		"data/test.json": "{\"question\": \"q1\", \"answer\": 1}\n{\"question\": \"q2\", \"answer\": 2}\n\n[1, 2]\n",
		"ok/two.json":    "{\"lr\": 1}\n{\"lr\": 2\n",
		// One Python dict literal a line, records a script reads with eval; a single one is linted.
		"data/truthfulqa.json": "{'query': 'a?', 'ans1': 'b'}\n{'query': 'c?', 'ans1': 'd'}\n",
		"ok/one.json":          "{'lr': 1}\n",
		// A heredoc body a launch script fills in; a `$` in a string is no placeholder.
		"deploy/config.json":      "{\n  \"ids\": [[$npuids]],\n  \"world\": ${world_size}\n}\n",
		"ok/dollar.json":          "{\"path\": \"$HOME/x\", \"lr\": [1\n",
		"assets/slackreport.json": "{\n  \"fields\": [\n    {\"title\": \"x\"}\n    <% if (!success) { %>\n    , {\"title\": \"y\"}\n    <% } %>\n  ]\n}\n",
		// A Git LFS pointer where a checkout without LFS objects left it.
		"results/scores.json": "version https://git-lfs.github.com/spec/v1\noid sha256:5b38f65703ddd426111ba45e6f6b8b82ee2049c7e754e977a5c6269aa2d94ade\nsize 3968\n",
		// Jupyter's autosaved copy of an MMEngine config, a folder below its bases.
		"cfg/.ipynb_checkpoints/r50-checkpoint.py": "_base_ = ['../_base_/runtime.py']\n",
		// Jinja templates that conda-build and Helm render before reading them as YAML.
		"packaging/meta.yaml":    "{% set v = '1.0' %}\npackage:\n  name: apex\nrequirements:\n  host:\n    - python\n    {{ environ.get('X') }}\n",
		"chart/templates/d.yaml": "apiVersion: v1\n{{- if .Values.on }}\nkind: Pod\n{{- end }}\n",
		// torchtune-azureml's recipes: a value its launcher renders (`{{model_dir}}/...`).
		"scripts/lora.yaml": "tokenizer:\n  _component_: torchtune.models.phi3.phi3_mini_tokenizer\n  path: {{model_dir}}/tokenizer.model\nbatch_size: 2\n",
		"ok/meta.yaml":      "doc_to_text: |\n  {% if x %}\n  {{ question }}\n  {% endif %}\n",
		// Terraform templatefile values, rendered before Helm reads them; a broken OmegaConf list
		// of interpolations is still reported.
		"helm-values/spark-operator.yaml": "controller:\n%{ if enable_ipv6 ~}\n  env: x\n%{ endif ~}\n",
		"kuberay/values.yaml":             "head:\n  labels:\n    app: ray\n    ${indent(4, chomp(yamlencode(additional_labels)))}\n",
		"helm-values/ingress-nginx.yaml":  "controller:\n  service:\n    ipFamilies:\n      - ${enable_ipv6 ? \"IPv6\" : \"IPv4\"}\n",
		"ok/interp.yaml":                  "dims:\n  - ${model.dim}\n  - ${oc.env:X}\nlr: [1\n",
		// Test Kitchen's ERB-rendered YAML, and ruff's settings.
		"kitchen.vagrant.yml": "driver:\n  name: vagrant\n<% unless ENV['CI'] %>\n  cache_directory: x\n<% end %>\nplatforms: [a\n",
		"ruff.toml":           "[lint]\nper-file-ignores = {\n  \"a.py\" = [\"E501\"],\n}\n",
		// airspeed velocity's settings (JSON with comments and trailing commas, dmlc/dgl).
		"asv.conf.json": "{\n  // the version\n  \"version\": 1,\n  \"project\": \"dgl\",\n}\n",
		// Docker Compose files, read by Docker Compose (a shell line pasted into one), and a
		// Kubernetes manifest kubectl would refuse (kind's cluster file, a placeholder in
		// backticks); a broken config with a kind key is still reported.
		"p/docker-compose.yml":          "services:\n  a:\n    image: alpine\n\ndocker run --gpus=all -v \"./r\":/r x\n",
		"compose.yaml":                  "services: [a\n",
		"deploy/docker-compose.gpu.yml": "services: [a\n",
		"k8s/kind.yaml":                 "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- extraMounts:\n  - hostPath: `/path/to/data`\n",
		"ok/kind.yaml":                  "kind: model\nlr: [1\n",
		// AppleDouble records of macOS metadata, beside their files and in a zip's __MACOSX.
		"cfg/._train.yaml":                       "\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        \x00\x02",
		"up/__MACOSX/config/._train_config.yaml": "\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        \x00\x02",
		// A vocabulary written as UTF-16 with its byte order mark.
		"data/vocab.json": "\xff\xfe{\x00\"\x00a\x00\"\x00:\x001\x00}\x00",
		// A prompt kept as .yaml; a config with a line of prose left in it is reported.
		"eval/eval_prompt.yaml": "Please rate the answer <a> to question <q> (Accuracy, Bias).\nReturn the result in this format.\n{\"Accuracy\": {\"Score\": 1}}\n\n<q> : {question}\n<a> : {answer} <end of a>\n",
		"ok/prose.yaml":         "Config for the small model\nlr: 1\nbatch_size: [2\n",
		// OpenRA's MiniYaml, indented with tabs; a stray tab in a config is still reported.
		"mods/ra/rules/defaults.yaml": "^BasePlayer:\n\tAlwaysVisible:\n\tShroud:\n\t\tFogCheckboxVisible: True\n",
		"ok/tab.yaml":                 "trainer:\n  max_epochs: 3\n  devices: 2\n\tprecision: 16\n",
		// A golden file whose {$results_dir} a test fills in (sagemaker-hyperpod-recipes).
		"tests/golden/llama_hydra.yaml": "run:\n  results_dir: {$results_dir}/llama-8b\n",
		"ok/bad.yaml":                   "a: [1\n",
		// A hparams.yaml with no run beside it: a project's own config, linted.
		"ok/hparams.yaml": "trainer:\n  max_epochs: 10\n",
		// An empty .json: a placeholder for data (HALOs' examples/*.json, OLMo's, LIMO's).
		"data/limo.json":  "",
		"data/blank.json": " \n\n",
		// Plain text under a .json name (InternLM-XComposer's mix_debug_data.json).
		"data/mix_debug_data.json": "\ufeffVL /data/llava_instruct_150k.json\nTXT /data/alpaca.json\n",
	})
	_, res, _ := checkJSON(t, ".")
	var paths []string
	for _, f := range res.Files {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, ",") != "hf.json,ok/bad.yaml,ok/dollar.json,ok/hparams.yaml,ok/interp.yaml,ok/kind.yaml,ok/meta.yaml,ok/one.json,ok/prose.yaml,ok/tab.yaml,ok/two.json" {
		t.Errorf("files linted: %v", paths)
	}
	// A template that reads as YAML is linted; one that does not is skipped only in a walk
	// (the tree's config selects TL2 rules only: skipping does not hang on the rules chosen).
	_, res, _ = checkJSON(t, "ok", "packaging/meta.yaml", "data/test.json", "compose.yaml", "k8s/kind.yaml", "data/vocab.json")
	paths = paths[:0]
	for _, f := range res.Files {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, ",") != "compose.yaml,data/test.json,data/vocab.json,k8s/kind.yaml,ok/bad.yaml,ok/dollar.json,ok/hparams.yaml,ok/interp.yaml,ok/kind.yaml,ok/meta.yaml,ok/one.json,ok/prose.yaml,ok/tab.yaml,ok/two.json,packaging/meta.yaml" {
		t.Errorf("files linted: %v", paths)
	}
	// Named, an empty .json is reported: Python's json refuses it.
	_, res, _ = checkJSON(t, "--select", "TL001", "data/limo.json")
	if len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "the file is empty") {
		t.Errorf("named empty JSON: %+v", res.Diagnostics)
	}
	// Named, plain text under a .json name is reported too.
	_, res, _ = checkJSON(t, "--select", "TL001", "data/mix_debug_data.json")
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Line != 1 {
		t.Errorf("named plain-text JSON: %+v", res.Diagnostics)
	}
	// Named, an LFS pointer is reported as one.
	_, res, _ = checkJSON(t, "--select", "TL001", "results/scores.json")
	if len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "Git LFS pointer") {
		t.Errorf("named LFS pointer: %+v", res.Diagnostics)
	}
	// Named on the command line, such a file is linted like any other (the tree's config
	// selects TL2 rules only, so no parse error is reported here).
	_, res, _ = checkJSON(t, "client/tsconfig.json")
	if len(res.Files) != 1 || res.Files[0].Path != "client/tsconfig.json" {
		t.Errorf("named tsconfig.json: files %+v", res.Files)
	}
}

// walkLints lints the current folder (a walk) and returns the files it linted, joined by
// commas.
func walkLints(t *testing.T) string {
	t.Helper()
	_, res, _ := checkJSON(t, ".")
	var paths []string
	for _, f := range res.Files {
		paths = append(paths, f.Path)
	}
	return strings.Join(paths, ",")
}

// skippedOnlyInWalks checks files a walk skips: each named on the command line is linted (and
// reported, with reported set, under the flags given), and with --only-configs, which reads
// named files as a walk does, none is.
func skippedOnlyInWalks(t *testing.T, names []string, reported bool, flags ...string) {
	t.Helper()
	for _, name := range names {
		_, res, _ := checkJSON(t, append(append([]string(nil), flags...), name)...)
		if len(res.Files) != 1 || reported && len(res.Diagnostics) == 0 {
			t.Errorf("named %s: files %+v, findings %v", name, res.Files, findings(res))
		}
	}
	if _, res, _ := checkJSON(t, append([]string{"--only-configs"}, names...)...); len(res.Files) != 0 {
		t.Errorf("--only-configs: files %+v, findings %v", res.Files, findings(res))
	}
}

// TestWalkSkipsTemplates: a walk passes over templates nothing loads as they stand: a .json
// named as a template with placeholder words a script replaces with sed (Pai-Megatron-Patch's
// ds_config_TEMPLATE.json and config_TEMPLATE.json) and a .py with `${...}` placeholders
// outside strings (self-supervised-pretraining's utils/templates/*-template.py). A template
// that parses, or has only comments, trailing commas or Python's True, a bare word in a file
// not named as a template (but one in capitals with an underscore, CONFIG_CL_MIN, which
// Megatron-DeepSpeed's curriculum config holds) and a broken config with no `${` are linted;
// named, each template is reported.
func TestWalkSkipsTemplates(t *testing.T) {
	writeTree(t, map[string]string{
		"examples/ds_config_TEMPLATE.json": "{\n  \"train_micro_batch_size_per_gpu\": CONFIG_MBSIZE,\n  \"train_batch_size\":CONFIG_GBSIZE,\n  \"zero_optimization\": {\n    \"stage\": CONFIG_ZERO_STATE\n  }\n}\n",
		"hf_moe/config_TEMPLATE.json":      "{\n  \"model_type\": \"llama\",\n  \"hidden_size\": CONFIG_HIDDEN_SIZE,\n  \"num_hidden_layers\": CONFIG_HIDDEN_LAYERS\n}\n",
		"utils/templates/config-template.py": "_base_ = '../../base.py'\nmodel = dict(type='MOCO', queue_len=65536)\n" +
			"data_train_root = \"${base_data_path}\"\nimg_norm_cfg = dict(mean=[${pixel_means}], std=[${pixel_stds}])\n",
		"ok/ds_config_template.json": "{\"train_batch_size\": 8}\n",
		"ok/zero-template.json":      "{\n  // ZeRO 2\n  \"train_batch_size\": 8,\n}\n",
		"ok/ds_config.json":          "{\"train_batch_size\": gbsize}\n",
		"ok/ds_caps.json":            "{\"train_batch_size\": GBSIZE, \"fp16\": TRUE}\n",
		// Megatron-DeepSpeed's curriculum config: capitals with an underscore, whatever the name.
		"curriculum/ds_zero_stage_1_config_curriculum_fixed_linear.json": "{\n  \"curriculum_learning\": {\n    \"min_difficulty\": CONFIG_CL_MIN,\n    \"max_difficulty\": 1024\n  }\n}\n",
		"ok/fp16_template.json": "{\"fp16\": {\"enabled\": True}}\n",
		"ok/broken.py":          "_base_ = ['./base.py']\noptimizer = dict(lr=0.01.,)\n",
	})
	if got := walkLints(t); got != "ok/broken.py,ok/ds_caps.json,ok/ds_config.json,ok/ds_config_template.json,ok/fp16_template.json,ok/zero-template.json" {
		t.Errorf("files linted: %v", got)
	}
	skippedOnlyInWalks(t, []string{"examples/ds_config_TEMPLATE.json", "hf_moe/config_TEMPLATE.json", "utils/templates/config-template.py",
		"curriculum/ds_zero_stage_1_config_curriculum_fixed_linear.json"}, true, "--select", "TL001")
}

// TestWalkSkipsBuildCopies: a walk passes over setuptools' build/lib and build/lib.<platform>
// copies of a package (GPCDet committed one holding mmcv's Config test fixtures, which exist
// to be refused); the rest of build/ is walked. Named, a copied file is reported; with
// --only-configs it is dropped.
func TestWalkSkipsBuildCopies(t *testing.T) {
	writeTree(t, map[string]string{
		"build/lib/pkg/.mim/tools/mmcv/tests/data/config/base.py": "item1 = [1, 2]\nitem3 = True\n",
		"build/lib/pkg/.mim/tools/mmcv/tests/data/config/e.py":    "_base_ = './base.py'\nitem3 = {'a': 1}\n",
		"build/lib.linux-x86_64-cpython-38/pkg/configs/r50.py":    "_base_ = ['./missing.py']\nmodel = dict(type='R50')\n",
		"build/ds.json":       "{\"train_batch_size\": 8}\n",
		"src/build/libs.yaml": "lr: 0.1\n",
	})
	if got := walkLints(t); got != "build/ds.json,src/build/libs.yaml" {
		t.Errorf("files linted: %v", got)
	}
	skippedOnlyInWalks(t, []string{"build/lib/pkg/.mim/tools/mmcv/tests/data/config/e.py", "build/lib.linux-x86_64-cpython-38/pkg/configs/r50.py"}, true)
}

// TestWalkSkipsUnityStreamingAssets: a walk passes over a Unity game's StreamingAssets (a
// player build's <Game>_Data/ and .app's Data/, a project's Assets/), whose JSON the game reads
// with Json.NET (JORLDY's DroneDelivery builds: trailing commas); a StreamingAssets folder
// elsewhere is walked.
func TestWalkSkipsUnityStreamingAssets(t *testing.T) {
	const data = "{\"InferenceInfoList\": [{\"ID\": 9, \"randomSeed\": 3413}, ]}\n"
	writeTree(t, map[string]string{
		"envs/Drone_Linux/Drone_Data/StreamingAssets/Inference_Data/Easy.json":                data,
		"envs/Drone_Mac.app/Contents/Resources/Data/StreamingAssets/Inference_Data/Easy.json": data,
		"unity/Assets/StreamingAssets/cfg.json":                                               data,
		"other/StreamingAssets/cfg.json":                                                      data,
	})
	if got := walkLints(t); got != "other/StreamingAssets/cfg.json" {
		t.Errorf("files linted: %v", got)
	}
	skippedOnlyInWalks(t, []string{"envs/Drone_Linux/Drone_Data/StreamingAssets/Inference_Data/Easy.json"}, true)
}

// TestWalkSkipsCheckpointConfig: a walk passes over the config.yaml OLMo's trainer saves
// beside a checkpoint's model.pt (OLMo's test_fixtures/test-olmo-model); a config.yaml with no
// model.pt beside it is linted. Named, the record is reported; with --only-configs it is
// dropped.
func TestWalkSkipsCheckpointConfig(t *testing.T) {
	writeTree(t, map[string]string{
		"test_fixtures/test-olmo-model/config.yaml": "run_name: test\ntime_limit: 171000.0\nmodel:\n  d_model: 128\n",
		"test_fixtures/test-olmo-model/model.pt":    "",
		"configs/config.yaml":                       "run_name: test\ntime_limit: 171000.0\n",
		"configs/model.pt/README.md":                "a folder, not weights\n",
	})
	if got := walkLints(t); got != "configs/config.yaml" {
		t.Errorf("files linted: %v", got)
	}
	record := "test_fixtures/test-olmo-model/config.yaml"
	if _, res, _ := checkJSON(t, record); strings.Join(findings(res), " ") != record+":2 TL306 info" {
		t.Errorf("named record: files %+v, findings %v", res.Files, findings(res))
	}
	skippedOnlyInWalks(t, []string{record}, true)
}

// TestWalkSkipsTuneTrialParams: a walk passes over the params.json Ray Tune writes into a
// trial's folder (MARLlib's results/**/params.json, with a lambda the encoder stringified and
// sorted keys; or beside Tune's progress.csv). A hand-written params.json, and one with a
// stringified value but keys out of order, are linted. Named, the record is reported; with
// --only-configs it is dropped.
func TestWalkSkipsTuneTrialParams(t *testing.T) {
	dump := "{\n  \"batch_mode\": \"complete_episodes\",\n  \"multiagent\": {\n    \"policy_mapping_fn\": \"<function run_cc.<locals>.<lambda> at 0x7f7cb574bee0>\"\n  },\n" +
		"  \"num_workers\": 0,\n  \"train_batch_size\": 4000\n}"
	writeTree(t, map[string]string{
		"results/2AgentAnt/happo_gru_2AgentAnt/params.json":               dump,
		"results/2AgentAnt/happo_gru_2AgentAnt/policy_0_curve_file_1.csv": "reward\n1\n",
		"ray_results/trial_0/params.json":                                 "{\n  \"num_workers\": 0\n}",
		"ray_results/trial_0/progress.csv":                                "training_iteration\n1\n",
		"experiments/base/params.json":                                    "{\n  \"num_workers\": 0,\n  \"batch_size\": 32\n}\n",
		"unsorted/params.json":                                            "{\n  \"train_batch_size\": 4000,\n  \"num_workers\": 0,\n  \"fn\": \"<function f at 0x7f00>\"\n}",
	})
	if got := walkLints(t); got != "experiments/base/params.json,unsorted/params.json" {
		t.Errorf("files linted: %v", got)
	}
	skippedOnlyInWalks(t, []string{"results/2AgentAnt/happo_gru_2AgentAnt/params.json", "ray_results/trial_0/params.json"}, false)
}

// TestConfigIgnoreAndBaseline: a rule the config file ignores is left out of the run, so its
// baseline entries are not reported as fixed.
func TestConfigIgnoreAndBaseline(t *testing.T) {
	writeTree(t, map[string]string{"hf.json": hfJSON})
	if code, _, stderr := cli(t, nil, "check", "--write-baseline", "base.json", "hf.json"); code != exitOK {
		t.Fatalf("writing the baseline: exit %d %s", code, stderr)
	}
	if err := os.WriteFile(".trainlint.toml", []byte("ignore = [\"TL202\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cli(t, nil, "check", "--baseline", "base.json", "hf.json")
	if code != exitOK || strings.Contains(stderr, "no longer occur") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestWalkSkipsJSONStreams: a walk passes over a .json that is a stream of whole records, one
// object or array after another (KILT's tests/test_data/guess3_1.json, pretty-printed
// prediction records); a config followed by a stray brace, a typo, a value cut short or a bare
// number, and an array whose items start lines, are linted. Named, the stream is reported.
func TestWalkSkipsJSONStreams(t *testing.T) {
	writeTree(t, map[string]string{
		"tests/test_data/guess3_1.json": "{\n    \"id\": 1,\n    \"output\": [{\"answer\": \"a\"}]\n}\n{\n    \"id\": 2,\n    \"output\": [{\"answer\": \"b\"}]\n}\n[\n  1\n]\n",
		"ok/brace.json":                 "{\n  \"lr\": 1\n}\n}\n",
		"ok/typo.json":                  "{\n  \"lr\": 1\n}\n{\n  \"lr\": 2,,\n}\n",
		"ok/cut.json":                   "{\n  \"lr\": 1\n}\n{\n  \"lr\": 2\n",
		"ok/number.json":                "{\n  \"lr\": 1\n}\n{\n  \"lr\": 2\n}\n3\n",
		"ok/list.json":                  "[\n{\"lr\": 1},\n{\"lr\": 2}\n]\n",
	})
	if got := walkLints(t); got != "ok/brace.json,ok/cut.json,ok/list.json,ok/number.json,ok/typo.json" {
		t.Errorf("files linted: %v", got)
	}
	skippedOnlyInWalks(t, []string{"tests/test_data/guess3_1.json"}, true, "--select", "TL001")
}

// TestShellValue: where a shell variable sits in place of a JSON value, and where a `$` is only
// text in a string (no parse is spent on those; a string's "a:$HOME" still costs one, and the
// parse finds no problem there).
func TestShellValue(t *testing.T) {
	for s, want := range map[string]bool{
		"{\"ids\": [[$npuids]]}": true, "{\"w\" :\n  ${world}}": true, "[1, $_x]": true,
		"{\"$schema\": \"x\"}": false, "{\"vocab\": {\"$A\": 1}}": false, "{\"p\": \"$HOME/x\"}": false, "[$": false, "$a": false, "": false,
	} {
		if shellValue([]byte(s)) != want {
			t.Errorf("shellValue(%q) = %v", s, !want)
		}
	}
}

// TestCapitalValue: a capitalised placeholder where a value starts, and not one inside a string
// or a key.
func TestCapitalValue(t *testing.T) {
	for s, want := range map[string]bool{
		"{\"a\": CONFIG_CL_MIN,\n": true, "[1, CFG_X]": true, "{\"a\":\n  MAX_LEN}": true,
		"{\"a\": \"CONFIG_X\"}": false, "{\"CONFIG_X\": 1}": false, "{\"a\": TRUE}": false, "{\"a\": AB}": false, "": false,
	} {
		if capitalValue([]byte(s)) != want {
			t.Errorf("capitalValue(%q) = %v", s, !want)
		}
	}
}
