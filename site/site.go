package site

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/rules"
)

//go:embed templates/*.html content/*.md content/*.yml content/guide/*.md web/static/*
var embedded embed.FS

// CSP allows only same-origin resources, plus compiling WebAssembly. The checker promises that
// no request leaves the page after load; the policy makes the browser hold it to that.
// script-src admits the two scripts written into the pages' heads (themeJS, bootJS) by their
// SHA-256 hashes, and no other inline script. style-src admits inline styles because
// CodeMirror positions its widgets with style attributes; an inline style can load nothing from
// elsewhere, since images and fonts are 'self' only.
var CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' " + scriptHash(themeJS) + " " + scriptHash(bootJS) +
	"; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"

// The head's scripts are written into the pages instead of linked: theme.js (the reader's theme,
// before the first paint) on every page and boot.js (which starts the module's download and
// compile) on the checker's. A linked script in the head is a request the parser waits for
// before it reads on, a round trip or two on a real network; inline, boot.js starts the module's
// download about 30 ms earlier in a first visit here, though on these two busy CPUs ready did
// not clearly move (site/doc.go, Timings). assets/boot.js is still written: the landing page loads it when the
// reader opens the checker there.
var themeJS, bootJS = staticScript("theme.js"), staticScript("boot.js")

func staticScript(name string) template.JS {
	b, err := embedded.ReadFile("web/static/" + name)
	if err != nil {
		panic(err) // embedded at build time: cannot happen
	}
	return template.JS(b)
}

// scriptHash is the CSP source that admits exactly the inline script s.
func scriptHash(s template.JS) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// Options steer a build.
type Options struct {
	// Out is the folder written to (created; existing files are overwritten, others kept).
	Out string
	// Root is the module source tree. When set, the checker's assets (the WebAssembly module,
	// wasm_exec.js and the JavaScript bundle) are built from it; when empty only the pages are
	// written and the checker page says how to get the full site.
	Root string
	// Log receives progress and the size/budget report (nil: discarded).
	Log io.Writer
}

// Report is what a build produced.
type Report struct {
	Pages    int
	Examples int // examples linted and verified
	Assets   *AssetReport
}

// Build writes the site to o.Out.
func Build(o Options) (*Report, error) {
	if o.Out == "" {
		return nil, fmt.Errorf("no output folder")
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	b := &builder{out: o.Out, log: o.Log, rules: rules.All(), dialects: dialect.All(), checker: o.Root != ""}
	if err := b.loadTemplates(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	rep := &Report{}
	if err := b.copyStatic(); err != nil {
		return nil, err
	}
	// Pages first: they run the docs check, which is quick and the likelier to fail.
	steps := []func() error{b.guidePages, b.rulePages, b.frameworkPages, b.checkerPage, b.landingPage, b.notFoundPage, b.searchIndex}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	rep.Pages, rep.Examples = b.pages, b.examples
	fmt.Fprintf(o.Log, "site: %d pages, %d examples verified, in %s\n", b.pages, b.examples, o.Out)
	if o.Root == "" {
		fmt.Fprintf(o.Log, "site: incomplete: the checker page has no checker: %s\n", MissingAssets)
	}
	if o.Root != "" {
		ar, err := BuildAssets(o.Root, o.Out, o.Log)
		if err != nil {
			return nil, err
		}
		rep.Assets = ar
	}
	return rep, nil
}

type builder struct {
	out      string
	log      io.Writer
	rules    []*lint.Rule
	dialects []*dialect.Dialect
	tmpl     *template.Template
	guide    []*guidePage
	checker  bool
	pages    int
	examples int
}

// page is one HTML file; Path is relative to the site root and ends in index.html.
type page struct {
	Path        string
	Title       string
	Description string
	Section     string // nav entry to highlight
	Body        template.HTML
	Scripts     []string // relative to the site root
	Checker     bool     // the page runs the checker (preload its module)
	Root        string   // "../" per folder level: every link is relative, so the site works under any prefix
	CSP         string
	ThemeJS     template.JS // written into the head: see themeJS
	BootJS      template.JS
	Version     string
	Source      string
}

// SourceURL is trainlint's repository, linked from every page.
const SourceURL = "https://github.com/trainlint/trainlint"

// MissingAssets says what a build without the checker's assets lacks and how to get them.
const MissingAssets = "trainlint.wasm (the engine compiled to WebAssembly), wasm_exec.js and assets/checker.js " +
	"with assets/checker-extra.js (the editor) are built from the source tree with Go and Node: run `make site` in a checkout of " + SourceURL + "."

func (b *builder) loadTemplates() error {
	t := template.New("site").Funcs(template.FuncMap{
		"md":    func(s string) template.HTML { return markdown(s) },
		"lower": strings.ToLower,
		"join":  strings.Join,
		// dict passes a sub-view to a nested template with the page's root.
		"dict": func(root string, data any) any {
			return struct {
				Root string
				Data any
			}{root, data}
		},
	})
	t, err := t.ParseFS(embedded, "templates/*.html")
	if err != nil {
		return err
	}
	b.tmpl = t
	return nil
}

// render executes a body template, then the layout, and writes the page.
func (b *builder) render(p page, body string, data any) error {
	if p.Root == "" {
		p.Root = strings.Repeat("../", strings.Count(p.Path, "/"))
	}
	p.Version, p.Source = lint.Version, SourceURL
	for _, s := range p.Scripts {
		p.Checker = p.Checker || s == "wasm_exec.js"
	}
	p.CSP, p.ThemeJS, p.BootJS = CSP, themeJS, bootJS
	var buf bytes.Buffer
	if body != "" {
		if err := b.tmpl.ExecuteTemplate(&buf, body, struct {
			Root string
			Data any
		}{p.Root, data}); err != nil {
			return fmt.Errorf("%s: %w", p.Path, err)
		}
		p.Body = template.HTML(polishHTML(buf.String()))
		buf.Reset()
	}
	if err := b.tmpl.ExecuteTemplate(&buf, "layout", p); err != nil {
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	dst := filepath.Join(b.out, filepath.FromSlash(p.Path))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	b.pages++
	return os.WriteFile(dst, buf.Bytes(), 0o644)
}

// copyStatic copies the hand-written assets (style sheet, the rules-index filter) into assets/.
func (b *builder) copyStatic() error {
	return fs.WalkDir(embedded, "web/static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Base(p) == "theme.js" { // written into every page instead
			return err
		}
		data, err := embedded.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(b.out, "assets", path.Base(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}

// rulesIn returns the rules of a category, in code order.
func (b *builder) rulesIn(category string) []*lint.Rule {
	var out []*lint.Rule
	for _, r := range b.rules {
		if r.Category == category {
			out = append(out, r)
		}
	}
	return out
}

// categories lists the categories in use, in catalogue order.
func (b *builder) categories() []string {
	order := []string{lint.CatStructure, lint.CatInputPipeline, lint.CatEvaluation, lint.CatCheckpoints,
		lint.CatTracking, lint.CatBatchNorm, lint.CatMultiHost, lint.CatBatchSchedule}
	seen := map[string]bool{}
	for _, r := range b.rules {
		seen[r.Category] = true
	}
	var out []string
	for _, c := range order {
		if seen[c] {
			out = append(out, c)
			delete(seen, c)
		}
	}
	var rest []string
	for c := range seen {
		rest = append(rest, c)
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// frameworkNames lists the framework ids a rule can fire in ("*" expands to every dialect).
func (b *builder) frameworkNames(r *lint.Rule) []string {
	for _, f := range r.Frameworks {
		if f == "*" {
			var all []string
			for _, d := range b.dialects {
				all = append(all, d.Name)
			}
			return all
		}
	}
	return r.Frameworks
}

func (b *builder) dialectTitle(name string) string {
	for _, d := range b.dialects {
		if d.Name == name {
			return d.Title
		}
	}
	return name
}
