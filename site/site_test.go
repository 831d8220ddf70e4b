package site

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
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
		checkInlineScripts(t, rel, html)
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

var (
	inlineScriptRe = regexp.MustCompile(`(?s)<script(?: [^>]*)?>(.*?)</script>`)
	cspRe          = regexp.MustCompile(`http-equiv="Content-Security-Policy" content="([^"]*)"`)
)

// checkInlineScripts: the policy's script-src admits each inline script of the page by its
// SHA-256 hash and admits no inline script wholesale ('unsafe-inline'), and the page's
// inline scripts are exactly the head's theme script and, on the checker, its boot script.
func checkInlineScripts(t *testing.T, rel, page string) {
	t.Helper()
	m := cspRe.FindStringSubmatch(page)
	if m == nil {
		return // reported by the caller
	}
	policy := strings.ReplaceAll(m[1], "&#39;", "'")
	var scriptSrc string
	for _, d := range strings.Split(policy, ";") {
		if f := strings.Fields(d); len(f) > 0 && f[0] == "script-src" {
			scriptSrc = d
		}
	}
	if strings.Contains(scriptSrc, "'unsafe-inline'") {
		t.Errorf("%s: script-src admits any inline script: %s", rel, scriptSrc)
	}
	inline := 0
	for _, s := range inlineScriptRe.FindAllStringSubmatch(page, -1) {
		if strings.Contains(s[0][:strings.Index(s[0], ">")], " src=") {
			continue
		}
		inline++
		sum := sha256.Sum256([]byte(s[1]))
		if h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(scriptSrc, h) {
			t.Errorf("%s: an inline script (%.40q...) is not admitted by its hash %s in %q", rel, s[1], h, scriptSrc)
		}
	}
	if want := 1 + strings.Count(page, "data-wasm="); inline != want || !strings.Contains(page, string(themeJS)) {
		t.Errorf("%s: %d inline scripts, want %d (the theme script, and the boot script on the checker)", rel, inline, want)
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

// TestRulePageLayout: the summary and the fix come first, examples sit in one collapsible block
// per framework after the explanation, and the playbook link is titled by its section.
func TestRulePageLayout(t *testing.T) {
	out := buildPages(t)
	for _, r := range rules.All() {
		html := read(t, filepath.Join(out, "rules", r.Name, "index.html"))
		at := func(s string) int {
			i := strings.Index(html, s)
			if i < 0 {
				t.Errorf("rules/%s: no %q", r.Name, s)
			}
			return i
		}
		lede, fix, why, ex, sup := at(`class="lede"`), at(`<h2 id="fix">`), at(`<h2 id="why">`), at(`<h2 id="examples">`), at(`<h2 id="suppress">`)
		if !(lede < fix && fix < why && why < ex && ex < sup) {
			t.Errorf("rules/%s: order lede %d, fix %d, why %d, examples %d, suppress %d", r.Name, lede, fix, why, ex, sup)
		}
		fws := map[string]bool{}
		for _, e := range rules.Examples(r.Name) {
			fws[e.Framework] = true
		}
		if n := strings.Count(html, `<details class="example"`); n != len(fws) {
			t.Errorf("rules/%s: %d example blocks for %d frameworks", r.Name, n, len(fws))
		}
		if r.Anchor != "" && strings.Contains(html, ">"+r.Anchor+"</a>") {
			t.Errorf("rules/%s: the playbook link is titled by its slug %q", r.Name, r.Anchor)
		}
	}
	html := read(t, filepath.Join(out, "rules", "eval-batch-smaller-than-train", "index.html"))
	if !strings.Contains(html, ">Setting up periodic evaluations</a>") {
		t.Error("TL202's playbook link is not titled by its section")
	}
}

// TestCodeBlocks: every code block can be reached with the keyboard, and configs and snippets
// are highlighted with the editor's token classes.
func TestCodeBlocks(t *testing.T) {
	out := buildPages(t)
	pre := regexp.MustCompile(`<pre[ >]`)
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".html") {
			return err
		}
		html := read(t, p)
		if n, m := len(pre.FindAllString(html, -1)), strings.Count(html, `<pre tabindex="0"`); n != m {
			t.Errorf("%s: %d of %d code blocks cannot take the focus", p, n-m, n)
		}
		return nil
	})
	html := read(t, filepath.Join(out, "rules", "eval-batch-smaller-than-train", "index.html"))
	for _, want := range []string{`<span class="tok-propertyName">per_device_eval_batch_size</span>`, `<span class="tok-number">4</span>`, `class="tok-comment"`} {
		if !strings.Contains(html, want) {
			t.Errorf("rule page: no %s", want)
		}
	}
	for in, want := range map[string]string{
		"a: 'x' # c\n":          `<span class="tok-propertyName">a</span><span class="tok-punctuation">:</span> <span class="tok-string">&#39;x&#39;</span> <span class="tok-comment"># c</span>` + "\n",
		`{"k": [1, true, "s"]}`: `{<span class="tok-propertyName">&#34;k&#34;</span>: [<span class="tok-number">1</span>, <span class="tok-atom">true</span>, <span class="tok-string">&#34;s&#34;</span>]}`,
	} {
		lang := "yaml"
		if strings.HasPrefix(in, "{") {
			lang = "json"
		}
		if got := string(highlight(lang, in)); got != want {
			t.Errorf("highlight(%s, %q) =\n%s\nwant\n%s", lang, in, got, want)
		}
	}
	if got := string(highlight("toml", "[x]\nk = \"<v>\"\n")); got != `<span class="tok-heading">[x]</span>`+"\n"+`<span class="tok-propertyName">k</span> = <span class="tok-string">&#34;&lt;v&gt;&#34;</span>`+"\n" {
		t.Errorf("toml: %s", got)
	}
}

// TestFrameworkPages: a framework page lists keys, types, defaults and meaning, never the names
// of trainlint's internal plan fields.
func TestFrameworkPages(t *testing.T) {
	out := buildPages(t)
	for _, d := range dialect.All() {
		html := read(t, filepath.Join(out, "frameworks", d.Name, "index.html"))
		paths := map[string]bool{}
		for _, k := range d.Keys {
			paths[k.Path] = true
		}
		for _, k := range d.Keys {
			// A generic key may be spelled like the field it feeds ("eval.enabled"): that is a key.
			if k.Concept != "" && !paths[k.Concept] && strings.Contains(html, "<code>"+k.Concept+"</code>") {
				t.Errorf("frameworks/%s shows the internal field %q", d.Name, k.Concept)
				break
			}
		}
	}
}

// TestSearchIndexAnd404: search.json lists every rule and framework; 404.html links from the
// site's root, since it is served at any missing path.
func TestSearchIndexAnd404(t *testing.T) {
	out := buildPages(t)
	var ix []searchEntry
	if err := json.Unmarshal([]byte(read(t, filepath.Join(out, "search.json"))), &ix); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range ix {
		seen[e.URL] = true
	}
	for _, r := range rules.All() {
		if !seen["rules/"+r.Name+"/index.html"] {
			t.Errorf("search.json lacks rule %s", r.Name)
		}
	}
	for _, d := range dialect.All() {
		if !seen["frameworks/"+d.Name+"/index.html"] {
			t.Errorf("search.json lacks framework %s", d.Name)
		}
	}
	if b, _ := os.Stat(filepath.Join(out, "search.json")); b.Size() > 16<<10 {
		t.Errorf("search.json is %d bytes: keep the index small", b.Size())
	}
	nf := read(t, filepath.Join(out, "404.html"))
	if !strings.Contains(nf, `href="/rules/index.html"`) || !strings.Contains(nf, `href="/assets/style.css"`) {
		t.Error("404.html does not link from the site's root")
	}
}

// TestCISnippet: the home page's CI workflow is content/ci-github.yml, and so is the README's
// GitHub Actions workflow (TestReadmeCI runs that one for real), so the two cannot drift apart.
func TestCISnippet(t *testing.T) {
	ci, err := embedded.ReadFile("content/ci-github.yml")
	if err != nil {
		t.Fatal(err)
	}
	readme := read(t, filepath.Join("..", "README.md"))
	i := strings.Index(readme, "\n## Use in CI\n")
	if i < 0 {
		t.Fatal("README.md has no CI section")
	}
	sec := readme[i+1:]
	if j := strings.Index(sec[3:], "\n## "); j >= 0 {
		sec = sec[:j+3]
	}
	var workflow string
	for _, blk := range strings.Split(sec, "```yaml\n")[1:] {
		body, _, _ := strings.Cut(blk, "```")
		if strings.Contains(body, "\njobs:") {
			workflow = body
		}
	}
	if workflow != string(ci) {
		t.Errorf("the README's GitHub Actions workflow differs from site/content/ci-github.yml (the home page's):\nREADME:\n%s\nsite:\n%s", workflow, ci)
	}
	out := buildPages(t)
	if home := read(t, filepath.Join(out, "index.html")); !strings.Contains(home, "upload-sarif") || strings.Count(home, "jobs") < 1 {
		t.Error("the home page does not show the CI workflow")
	}
}

// The checker's file picker offers every kind of config the CLI walks (gin and Python too): an
// extension missing from accept greys such files out in some systems' dialogs.
func TestCheckerPickerAcceptsEveryFormat(t *testing.T) {
	out := buildPages(t)
	html := read(t, filepath.Join(out, "check", "index.html"))
	m := regexp.MustCompile(`id="tl-files"[^>]*accept="([^"]*)"`).FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no file picker with an accept list on the checker page")
	}
	accept := strings.Split(m[1], ",")
	for _, ext := range []string{".yaml", ".yml", ".json", ".toml", ".gin", ".py"} {
		if !slices.Contains(accept, ext) {
			t.Errorf("the file picker's accept list %q lacks %s", m[1], ext)
		}
	}
}
