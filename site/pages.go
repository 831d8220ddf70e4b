package site

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/site/ruledoc"
	"github.com/trainlint/trainlint/wasm/api"
)

// fwRef names a framework; Known is false for one a rule lists before its dialect exists (no page).
type fwRef struct {
	Name, Title string
	Known       bool
}

type ruleView struct {
	Rule          *lint.Rule
	Sections      []ruledoc.Section
	PlaybookTitle string
	Source        string // the rule's testdata archive (its tests and examples) on GitHub
	Severity      string
	Frameworks    []fwRef
	AllFW         bool
	Playbook      string
	Guide         *guidePage
	Examples      []exampleView
	Checker       string // permalink, relative to the site root
}

type exampleView struct {
	Framework, FrameworkTitle string
	Bad, Good                 *shown
}

func (b *builder) ruleView(r *lint.Rule) (*ruleView, error) {
	v := &ruleView{Rule: r, Severity: r.Severity.String(), Playbook: r.PlaybookLink(), Guide: b.guideFor(r.Category),
		Checker: "check/", Sections: ruledoc.Sections(r), PlaybookTitle: b.sectionTitle(r.Anchor),
		Source: SourceURL + "/blob/main/rules/testdata/" + r.Name + ".txtar"}
	for _, f := range r.Frameworks {
		if f == "*" {
			v.AllFW = true
		}
	}
	for _, n := range b.frameworkNames(r) {
		v.Frameworks = append(v.Frameworks, fwRef{n, b.dialectTitle(n), dialect.ByName(n) != nil})
	}
	exs, err := exampleSource(r)
	if err != nil {
		return nil, fmt.Errorf("rule %s: examples: %w", r.Name, err)
	}
	byFW := map[string]*exampleView{}
	for _, ex := range exs {
		s, err := b.lintExample(r, ex)
		if err != nil {
			return nil, err
		}
		ev := byFW[ex.Framework]
		if ev == nil {
			ev = &exampleView{Framework: ex.Framework, FrameworkTitle: b.dialectTitle(ex.Framework)}
			byFW[ex.Framework] = ev
			v.Examples = append(v.Examples, *ev)
		}
		// The first bad and the first good example of each framework are shown.
		if ex.Bad && ev.Bad == nil {
			ev.Bad = s
		} else if !ex.Bad && ev.Good == nil {
			ev.Good = s
		}
	}
	for i := range v.Examples {
		v.Examples[i] = *byFW[v.Examples[i].Framework]
		if v.Checker == "check/" && v.Examples[i].Bad != nil {
			v.Checker = v.Examples[i].Bad.Permalink
		}
	}
	return v, nil
}

func (b *builder) rulePages() error {
	if err := b.loadGuide(); err != nil {
		return err
	}
	var views []*ruleView
	for _, r := range b.rules {
		v, err := b.ruleView(r)
		if err != nil {
			return err
		}
		views = append(views, v)
		if err := b.render(page{Path: "rules/" + r.Name + "/index.html", Title: r.Code + " " + r.Name,
			Description: r.Title, Section: "rules"}, "rule", v); err != nil {
			return err
		}
	}
	var fws []fwRef
	for _, d := range b.dialects {
		fws = append(fws, fwRef{d.Name, d.Title, true})
	}
	data := struct {
		Rules      []*ruleView
		Categories []string
		Frameworks []fwRef
	}{views, b.categories(), fws}
	return b.render(page{Path: "rules/index.html", Title: "Rules", Description: "Every check trainlint runs.",
		Section: "rules", Scripts: []string{"assets/rules-index.js"}}, "rules-index", data)
}

type guideView struct {
	Page          *guidePage
	Rules         []*lint.Rule
	Playbook      string
	PlaybookTitle string
	Prev, Next    *guidePage
}

func (b *builder) guidePages() error {
	if err := b.loadGuide(); err != nil {
		return err
	}
	for i, g := range b.guide {
		v := guideView{Page: g, Rules: b.rulesIn(g.Category), Playbook: lint.PlaybookURL + "#" + g.Anchor, PlaybookTitle: b.sectionTitle(g.Anchor)}
		if i > 0 {
			v.Prev = b.guide[i-1]
		}
		if i+1 < len(b.guide) {
			v.Next = b.guide[i+1]
		}
		if err := b.render(page{Path: "guide/" + g.Slug + "/index.html", Title: g.Title, Description: g.Summary,
			Section: "guide"}, "guide", v); err != nil {
			return err
		}
	}
	data := struct {
		Guide []*guidePage
		Count map[string]int
	}{b.guide, map[string]int{}}
	for _, g := range b.guide {
		data.Count[g.Slug] = len(b.rulesIn(g.Category))
	}
	return b.render(page{Path: "guide/index.html", Title: "Guide", Description: "The training-pipeline pitfalls trainlint checks, section by section.",
		Section: "guide"}, "guide-index", data)
}

type frameworkView struct {
	D     *dialect.Dialect
	Rules []*lint.Rule
}

func (b *builder) frameworkPages() error {
	var views []frameworkView
	for _, d := range b.dialects {
		v := frameworkView{D: d}
		for _, r := range b.rules {
			for _, n := range b.frameworkNames(r) {
				if n == d.Name {
					v.Rules = append(v.Rules, r)
					break
				}
			}
		}
		views = append(views, v)
		if err := b.render(page{Path: "frameworks/" + d.Name + "/index.html", Title: d.Title,
			Description: "The " + d.Title + " keys trainlint reads and the defaults it assumes.", Section: "frameworks"}, "framework", v); err != nil {
			return err
		}
	}
	return b.render(page{Path: "frameworks/index.html", Title: "Frameworks", Description: "The frameworks trainlint reads.",
		Section: "frameworks"}, "frameworks-index", views)
}

type checkerView struct {
	Frameworks []fwRef
	// Targets are the version selectors: per package, the versions newest first (the
	// selector's first entry, "newest", leaves the target open as the CLI does).
	Targets  []api.TargetInfo
	Assets   bool   // the WebAssembly module and bundle were built
	Missing  string // what to do when they were not
	Lazy     bool   // load the module only when the checker is used (the landing page)
	Example  string // permalink opened by the "try an example" link
	DemoText string
	Examples []checkerExample
}

// checkerExample is one entry of the checker's example menu: a bad example of one framework.
type checkerExample struct{ Title, Permalink string }

func (b *builder) checkerData() checkerView {
	v := checkerView{Assets: b.checker, Example: Permalink("configs/sft.yaml", demoConfig), DemoText: demoConfig,
		Missing: MissingAssets}
	for _, t := range api.Targets() {
		vs := make([]string, len(t.Versions))
		for i, x := range t.Versions {
			vs[len(vs)-1-i] = x
		}
		v.Targets = append(v.Targets, api.TargetInfo{Package: t.Package, Versions: vs})
	}
	for _, d := range b.dialects {
		v.Frameworks = append(v.Frameworks, fwRef{d.Name, d.Title, true})
		if ex, ok := b.frameworkExample(d.Name); ok {
			// The menu sets the fragment only: the page is already the checker.
			p := permalinkFor(ex)
			v.Examples = append(v.Examples, checkerExample{d.Title, p[strings.Index(p, "#"):]})
		}
	}
	return v
}

// frameworkExample is the first bad example written for a framework, in catalogue order.
func (b *builder) frameworkExample(fw string) (Example, bool) {
	for _, r := range b.rules {
		exs, err := exampleSource(r)
		if err != nil {
			continue
		}
		for _, ex := range exs {
			if ex.Bad && ex.Framework == fw {
				return ex, true
			}
		}
	}
	return Example{}, false
}

func (b *builder) checkerScripts() []string {
	if !b.checker {
		return nil
	}
	return []string{"wasm_exec.js", "assets/checker.js"}
}

func (b *builder) checkerPage() error {
	return b.render(page{Path: "check/index.html", Title: "Checker", Description: "Lint a training config in your browser; nothing is uploaded.",
		Section: "check", Scripts: b.checkerScripts()}, "check", b.checkerData())
}

func (b *builder) landingPage() error {
	d, err := readMarkdown(embedded, "content/index.md")
	if err != nil {
		return err
	}
	ci, err := embedded.ReadFile("content/ci-github.yml")
	if err != nil {
		return err
	}
	checker := b.checkerData()
	checker.Lazy = b.checker
	data := struct {
		Intro   any
		Guide   []*guidePage
		Checker checkerView
		CI      string
		Rules   int
		FWs     int
	}{markdown(d.Body), b.guide, checker, string(ci), len(b.rules), len(b.dialects)}
	// The landing page loads the checker's module only when it is used (assets/site.js).
	return b.render(page{Path: "index.html", Title: "Lint deep-learning training configs", Description: strings.TrimSpace(d.Meta["summary"]),
		Section: "home"}, "landing", data)
}

// notFoundPage is 404.html, which GitHub Pages serves for any missing path: since that path can
// be anywhere, its links are absolute from the site's root rather than relative.
func (b *builder) notFoundPage() error {
	root := "/"
	if u, err := url.Parse(lint.SiteURL); err == nil && u.Path != "" {
		root = strings.TrimSuffix(u.Path, "/") + "/"
	}
	return b.render(page{Path: "404.html", Title: "Page not found", Description: "There is no page at this address.", Root: root}, "notfound", nil)
}

// sectionTitle names a playbook section by its heading rather than its slug. GitHub makes the
// anchor from the heading (lowercase, spaces to dashes); the playbook's headings are plain words
// in sentence case ("Setting up periodic evaluations"), so the words of the slug are the heading.
func (b *builder) sectionTitle(anchor string) string {
	words := strings.ReplaceAll(anchor, "-", " ")
	if words == "" {
		return ""
	}
	return strings.ToUpper(words[:1]) + words[1:]
}

// demoConfig is the example the checker offers: a Hugging Face Trainer run with a few pitfalls.
const demoConfig = `# Supervised fine-tuning (Hugging Face Trainer arguments)
output_dir: out/sft
num_train_epochs: 3
learning_rate: 2.0e-5
per_device_train_batch_size: 16
per_device_eval_batch_size: 4
eval_strategy: steps
eval_steps: 500
save_steps: 500
save_total_limit: 2
seed: 42
`
