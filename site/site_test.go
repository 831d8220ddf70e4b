package site

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/rules"
)

func buildPages(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	var log bytes.Buffer
	if _, err := Build(Options{Out: out, Log: &log}); err != nil {
		t.Fatalf("build: %v\n%s", err, log.String())
	}
	return out
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var linkRe = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

// TestBuildPages checks the whole page set: every page exists, carries the attribution and the
// CSP, and every relative link or script points at a file the build wrote.
func TestBuildPages(t *testing.T) {
	out := buildPages(t)
	want := []string{"index.html", "guide/index.html", "rules/index.html", "frameworks/index.html", "check/index.html", "assets/style.css", "assets/rules-index.js"}
	for _, g := range []string{"input-pipeline", "evaluation", "checkpoints", "experiment-tracking", "batch-norm", "multi-host"} {
		want = append(want, "guide/"+g+"/index.html")
	}
	for _, r := range rules.All() {
		want = append(want, "rules/"+r.Name+"/index.html")
	}
	for _, d := range dialect.All() {
		want = append(want, "frameworks/"+d.Name+"/index.html")
	}
	for _, w := range want {
		if _, err := os.Stat(filepath.Join(out, w)); err != nil {
			t.Errorf("missing %s", w)
		}
	}
	pages := 0
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		rel, _ := filepath.Rel(out, p)
		html := read(t, p)
		for _, s := range []string{"Varun Godbole", "George E. Dahl", "Justin Gilmer", "Christopher J. Shallue", "Zachary Nado",
			"https://creativecommons.org/licenses/by/4.0/", "https://github.com/google-research/tuning_playbook", "adapted", "No endorsement"} {
			if !strings.Contains(html, s) {
				t.Errorf("%s: attribution lacks %q", rel, s)
			}
		}
		if !strings.Contains(html, `http-equiv="Content-Security-Policy"`) || !strings.Contains(html, "wasm-unsafe-eval") {
			t.Errorf("%s: no Content-Security-Policy", rel)
		}
		for _, m := range linkRe.FindAllStringSubmatch(html, -1) {
			u, err := url.Parse(strings.ReplaceAll(m[1], "&amp;", "&"))
			if err != nil {
				t.Errorf("%s: bad link %q", rel, m[1])
				continue
			}
			if u.Scheme != "" || u.Host != "" || u.Path == "" {
				continue
			}
			target := path.Join(path.Dir(filepath.ToSlash(rel)), u.Path)
			if strings.HasSuffix(u.Path, "/") {
				target = path.Join(target, "index.html")
			}
			if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(target))); err != nil {
				t.Errorf("%s: broken link %q (%s)", rel, m[1], target)
			}
		}
		return nil
	})
	if pages < len(want)-2 {
		t.Errorf("only %d pages", pages)
	}
}

// TestGuidePages: each guide page links its playbook section and lists the rules of its category.
func TestGuidePages(t *testing.T) {
	out := buildPages(t)
	anchors := map[string]string{
		"input-pipeline": "optimizing-the-input-pipeline", "evaluation": "evaluating-model-performance",
		"checkpoints":         "saving-checkpoints-and-retrospectively-selecting-the-best-checkpoint",
		"experiment-tracking": "setting-up-experiment-tracking", "batch-norm": "batch-normalization-implementation-details",
		"multi-host": "considerations-for-multi-host-pipelines",
	}
	cats := map[string]string{"input-pipeline": lint.CatInputPipeline, "evaluation": lint.CatEvaluation, "checkpoints": lint.CatCheckpoints,
		"experiment-tracking": lint.CatTracking, "batch-norm": lint.CatBatchNorm, "multi-host": lint.CatMultiHost}
	for slug, anchor := range anchors {
		html := read(t, filepath.Join(out, "guide", slug, "index.html"))
		if !strings.Contains(html, lint.PlaybookURL+"#"+anchor) {
			t.Errorf("guide/%s: no link to the playbook section %q", slug, anchor)
		}
		for _, r := range rules.All() {
			if r.Category == cats[slug] && !strings.Contains(html, `data-rule="`+r.Name+`"`) {
				t.Errorf("guide/%s: does not list rule %s", slug, r.Name)
			}
		}
	}
}

// TestRulePagesShowEngineOutput: a rule page shows its examples with the engine's own output.
func TestRulePagesShowEngineOutput(t *testing.T) {
	out := buildPages(t)
	shown, withArgs := 0, 0
	for _, r := range rules.All() {
		html := read(t, filepath.Join(out, "rules", r.Name, "index.html"))
		for _, s := range []string{r.Code, "How to suppress", "disable=" + r.Name, "Open in the checker", "Why it matters", "How to fix"} {
			if !strings.Contains(html, s) {
				t.Errorf("rules/%s: lacks %q", r.Name, s)
			}
		}
		exs := rules.Examples(r.Name)
		for _, ex := range exs {
			if ex.Kind == "bad" {
				// The text reporter's header names the rule: [CODE name].
				if !strings.Contains(html, r.Code) || !strings.Contains(html, "trainlint says:") || !strings.Contains(html, "check/#f=") {
					t.Errorf("rules/%s: the bad example's output or permalink is missing", r.Name)
				}
				shown++
				// A launch context is shown and travels with the permalink.
				if o := ex.Options(); o.Hosts > 0 {
					if !strings.Contains(html, "trainlint check "+strings.Join(ex.Args, " ")) || !strings.Contains(html, "&amp;h="+strconv.Itoa(o.Hosts)) {
						t.Errorf("rules/%s: the bad example's launch context %q is not on the page or in its permalink", r.Name, ex.Args)
					}
					withArgs++
				}
				break
			}
		}
	}
	t.Logf("%d rules show a bad example, %d with a launch context", shown, withArgs)
}

// TestDocsAreTested: the build fails when an example does not do what its page claims.
func TestDocsAreTested(t *testing.T) {
	defer func(f func(*lint.Rule) ([]Example, error)) { exampleSource = f }(exampleSource)
	tl202 := rules.ByName("eval-batch-smaller-than-train")
	if tl202 == nil {
		t.Fatal("rule eval-batch-smaller-than-train is not registered")
	}
	clean := "per_device_train_batch_size: 8\nper_device_eval_batch_size: 8\neval_strategy: steps\n"
	pitfall := "per_device_train_batch_size: 16\nper_device_eval_batch_size: 4\neval_strategy: steps\n"
	cases := []struct {
		name string
		ex   Example
		want string
	}{
		{"bad without its finding", Example{Framework: "huggingface", Path: "bad-huggingface.yaml", Text: clean, Bad: true}, "must produce"},
		{"good with a warning", Example{Framework: "huggingface", Path: "good-huggingface.yaml", Text: pitfall}, "must show no error or warning"},
		{"good that does not parse", Example{Framework: "huggingface", Path: "good-huggingface.yaml", Text: "a: [1,\n"}, "must show no error or warning"},
	}
	for _, c := range cases {
		exampleSource = func(r *lint.Rule) ([]Example, error) {
			if r == tl202 {
				return []Example{c.ex}, nil
			}
			return nil, nil
		}
		_, err := Build(Options{Out: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: build error = %v, want one saying %q", c.name, err, c.want)
		}
	}
	// And the real pitfall passes as a bad example.
	exampleSource = func(r *lint.Rule) ([]Example, error) {
		if r == tl202 {
			return []Example{{Framework: "huggingface", Path: "bad-huggingface.yaml", Text: pitfall, Bad: true}}, nil
		}
		return nil, nil
	}
	if _, err := Build(Options{Out: t.TempDir()}); err != nil {
		t.Errorf("a real bad example failed the build: %v", err)
	}
}

// TestPermalink: the fragment is base64url (no padding) of raw DEFLATE, which the page inflates
// with DecompressionStream("deflate-raw").
func TestPermalink(t *testing.T) {
	text := "per_device_eval_batch_size: 4 # ünïcode\n"
	p := Permalink("configs/a b.yaml", text)
	if !strings.HasPrefix(p, "check/#f=configs%2Fa+b.yaml&c=") {
		t.Fatalf("permalink %q", p)
	}
	c := p[strings.Index(p, "&c=")+3:]
	if strings.ContainsAny(c, "+/=") {
		t.Errorf("not base64url without padding: %q", c)
	}
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(flate.NewReader(bytes.NewReader(raw)))
	if err != nil || string(got) != text {
		t.Errorf("round trip = %q, %v", got, err)
	}
}
