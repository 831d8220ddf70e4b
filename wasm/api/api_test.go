package api_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/report"
	"github.com/trainlint/trainlint/wasm/api"
)

func TestLintRequest(t *testing.T) {
	res, err := api.Lint(api.Request{Files: []api.File{{Path: "configs/sft.yaml", Text: hfPitfall}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || res.Files[0].Framework != "huggingface" || res.Files[0].Format != "yaml" {
		t.Errorf("files = %+v", res.Files)
	}
	found := false
	for _, d := range res.Diagnostics {
		if d.Rule == "eval-batch-smaller-than-train" && d.Line == 4 && d.Fix != nil {
			found = true
		}
	}
	if !found {
		t.Errorf("no eval-batch-smaller-than-train finding with a fix on line 4: %+v", res.Diagnostics)
	}
	// The format field overrides the extension.
	res, _ = api.Lint(api.Request{Files: []api.File{{Path: "noext", Text: `{"a": 1}`, Format: "json"}}})
	if res.Files[0].Format != "json" {
		t.Errorf("format override: %+v", res.Files[0])
	}
}

func TestFixRequest(t *testing.T) {
	fr, err := api.Fix(api.Request{Files: []api.File{{Path: "configs/sft.yaml", Text: hfPitfall}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(fr.Files) != 1 || fr.Files[0].Applied == 0 || !strings.Contains(fr.Files[0].Text, "per_device_eval_batch_size: 16\n") {
		t.Fatalf("fix = %+v", fr.Files)
	}
	for _, d := range fr.Result.Diagnostics {
		if d.Rule == "eval-batch-smaller-than-train" {
			t.Errorf("still reported after the fix: %s", d.Message)
		}
	}
}

func TestBadRequests(t *testing.T) {
	for _, req := range []string{`{`, `{"files":[{"path":""}]}`, `{"files":[{"path":"a.yaml","format":"xml"}]}`,
		`{"files":[],"options":{"framework":"nope"}}`, `{"files":[],"options":{"hosts":-1}}`} {
		var reply map[string]any
		if err := json.Unmarshal(api.LintJSON([]byte(req)), &reply); err != nil || reply["error"] == nil {
			t.Errorf("%s: reply %v (%v), want an error", req, reply, err)
		}
	}
}

func TestRulesCatalogue(t *testing.T) {
	var rs []lint.RuleInfo
	if err := json.Unmarshal(api.RulesJSON(), &rs); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, r := range rs {
		names[r.Name] = true
		if r.Code == "" || r.URL == "" || r.Title == "" {
			t.Errorf("incomplete rule %+v", r)
		}
	}
	for _, n := range []string{"parse-error", "eval-batch-smaller-than-train", "internal-error"} {
		if !names[n] {
			t.Errorf("rules() lacks %s", n)
		}
	}
}

// TestResultJSONMatchesCLI: lint() in the browser returns the bytes `--format json` prints.
func TestResultJSONMatchesCLI(t *testing.T) {
	for _, f := range []api.File{{Path: "configs/sft.yaml", Text: hfPitfall}, {Path: "dup.yaml", Text: "lr: 1\nlr: 2 # a < b & c\n"}} {
		req := api.Request{Files: []api.File{f}}
		res, err := api.Lint(req)
		if err != nil {
			t.Fatal(err)
		}
		w, ok := report.Get("json")
		if !ok {
			t.Fatal("no json reporter")
		}
		var cli bytes.Buffer
		if err := w(&cli, res, report.Options{}); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(req)
		if got := api.LintJSON(b); !bytes.Equal(got, cli.Bytes()) {
			t.Errorf("%s: api.LintJSON differs from --format json\napi: %s\ncli: %s", f.Path, got, cli.Bytes())
		}
	}
}

// TestAutoFormat: the checker's "auto" format reads pasted text as what it looks like, even under
// the editor's default name config.yaml; without a format, a path with no known extension is
// read by its content too. Pasted TOML used to be read as YAML and reported clean.
func TestAutoFormat(t *testing.T) {
	const inhouse = "[distributed]\nhosts = 16\n\n[checkpoint]\nkeep = 3\ncheckpoint_all_hosts = true\n"
	for _, c := range []struct {
		file       api.File
		wantFormat string
	}{
		{api.File{Path: "config.yaml", Text: inhouse, Format: "auto"}, "toml"},
		{api.File{Path: "pasted", Text: inhouse}, "toml"},
		{api.File{Path: "config.yaml", Text: "{\"train_batch_size\": 8}", Format: "auto"}, "json"},
		{api.File{Path: "config.json", Text: "lr: 1\n", Format: "auto"}, "yaml"},
		{api.File{Path: "config.toml", Text: "# only a comment\n", Format: "auto"}, "toml"},
	} {
		res, err := api.Lint(api.Request{Files: []api.File{c.file}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Files[0].Format; got != c.wantFormat {
			t.Errorf("%s (format %q): read as %q, want %q", c.file.Path, c.file.Format, got, c.wantFormat)
		}
	}
	res, _ := api.Lint(api.Request{Files: []api.File{{Path: "config.yaml", Text: inhouse, Format: "auto"}}})
	found := false
	for _, d := range res.Diagnostics {
		found = found || d.Rule == "multi-host-checkpoint-on-all-hosts"
	}
	if !found {
		t.Errorf("pasted TOML with checkpoint_all_hosts on 16 hosts: no multi-host-checkpoint-on-all-hosts finding: %+v", res.Diagnostics)
	}
}

// TestNeedsHosts: the checker learns from lint() which multi-host rules could not run for want
// of a host count (files[].needs_hosts), and that a host count clears it.
func TestNeedsHosts(t *testing.T) {
	f := api.File{Path: "ds.json", Text: `{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}, "checkpoint": {"use_node_local_storage": true}}`}
	for _, c := range []struct {
		hosts int
		want  any
	}{{0, []any{"TL602"}}, {2, nil}} {
		var reply struct {
			Files []map[string]any `json:"files"`
		}
		b, _ := json.Marshal(api.Request{Files: []api.File{f}, Options: api.Options{Hosts: c.hosts}})
		if err := json.Unmarshal(api.LintJSON(b), &reply); err != nil {
			t.Fatal(err)
		}
		if reply.Files[0]["framework"] != "deepspeed" {
			t.Fatalf("the fixture is not read as DeepSpeed: %v", reply.Files[0])
		}
		if got := reply.Files[0]["needs_hosts"]; !reflect.DeepEqual(got, c.want) {
			t.Errorf("hosts %d: needs_hosts = %v, want %v", c.hosts, got, c.want)
		}
	}
}

// gin and Python configs are read from their extension or from the format field, and their
// findings carry spans like any other format's.
func TestLintCodeConfigs(t *testing.T) {
	py := "_base_ = ['../_base_/default_runtime.py']\nmodel = dict(type='RetinaNet')\ntrain_dataloader = dict(batch_size=16, num_workers=4)\nval_dataloader = dict(batch_size=4, num_workers=2)\n"
	gin := "from t5x import utils\ntrain/utils.DatasetConfig.batch_size = 128\ntrain_eval/utils.DatasetConfig.batch_size = 4096\n"
	res, err := api.Lint(api.Request{Files: []api.File{{Path: "configs/retinanet.py", Text: py}, {Path: "noext", Text: gin, Format: "gin"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 2 || res.Files[0].Format != "python" || res.Files[0].Framework != "mmengine" || res.Files[1].Format != "gin" || res.Files[1].Framework != "t5x" {
		t.Fatalf("files = %+v", res.Files)
	}
	got := map[string]int{}
	for _, d := range res.Diagnostics {
		if d.Rule == "eval-batch-smaller-than-train" || d.Rule == "eval-batch-much-larger-than-train" {
			got[d.File] = d.Line*100 + d.Column
		}
	}
	if got["configs/retinanet.py"] != 4*100+34 || got["noext"] != 3*100+45 {
		t.Errorf("eval-batch findings at %v", got)
	}
}

// options.configArg is the CLI's --config-arg: get_config runs with it.
func TestConfigArgOption(t *testing.T) {
	py := "import big_vision.configs.common as bvcc\nimport ml_collections as mlc\n\ndef get_config(arg=None):\n  arg = bvcc.parse_arg(arg, runlocal=False)\n  config = mlc.ConfigDict()\n  config.seed = 0\n  config.total_epochs = 90\n  config.input = dict(batch_size=4096, prefetch=8)\n  config.log_training_steps = 50\n  if not arg.runlocal:\n    config.ckpt_steps = 1000\n  return config\n"
	count := func(raw string) int {
		req, err := api.Decode([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		res, err := api.Lint(req)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range res.Diagnostics {
			if d.Code == "TL304" {
				n++
			}
		}
		return n
	}
	files := `"files":[{"path":"cfg.py","text":` + strconv.Quote(py) + `}]`
	if n := count(`{` + files + `}`); n != 0 {
		t.Errorf("default argument: %d TL304", n)
	}
	if n := count(`{` + files + `,"options":{"configArg":"runlocal"}}`); n != 1 {
		t.Errorf("configArg runlocal: %d TL304, want 1", n)
	}
	if _, err := api.Decode([]byte(`{` + files + `,"options":{"configArg":3}}`)); err == nil {
		t.Error("a configArg that is not a string must be refused")
	}
}
