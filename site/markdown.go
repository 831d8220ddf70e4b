package site

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
)

// md renders our own Markdown (content/, rule rationale and fix text). Raw HTML stays escaped:
// everything a page shows is text, links and code. Built on first use: the CLI links this
// package for `trainlint site`, and a lint run should not pay for a Markdown parser.
var md = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
})

func markdown(s string) template.HTML {
	var buf bytes.Buffer
	if err := md().Convert([]byte(s), &buf); err != nil {
		return template.HTML(template.HTMLEscapeString(s))
	}
	return template.HTML(buf.String())
}

// doc is a Markdown file with a front-matter block of `key: value` lines between `---` lines.
type mdDoc struct {
	Name string
	Meta map[string]string
	Body string
}

func readMarkdown(fsys fs.FS, name string) (*mdDoc, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	d := &mdDoc{Name: name, Meta: map[string]string{}}
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	if rest, ok := strings.CutPrefix(s, "---\n"); ok {
		head, body, found := strings.Cut(rest, "\n---\n")
		if !found {
			return nil, fmt.Errorf("%s: front matter is not closed by a --- line", name)
		}
		for i, line := range strings.Split(head, "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				return nil, fmt.Errorf("%s:%d: want `key: value` in the front matter", name, i+2)
			}
			d.Meta[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
		s = body
	}
	d.Body = s
	return d, nil
}

// guidePage is one section of the guide.
type guidePage struct {
	Slug, Title, Summary, Category, Anchor string
	Order                                  int
	Body                                   template.HTML
}

func (b *builder) loadGuide() error {
	if b.guide != nil {
		return nil
	}
	names, err := fs.Glob(embedded, "content/guide/*.md")
	if err != nil {
		return err
	}
	for _, n := range names {
		d, err := readMarkdown(embedded, n)
		if err != nil {
			return err
		}
		g := &guidePage{Slug: strings.TrimSuffix(path.Base(n), ".md"), Title: d.Meta["title"], Summary: d.Meta["summary"],
			Category: d.Meta["category"], Anchor: d.Meta["anchor"], Body: markdown(d.Body)}
		g.Order, _ = strconv.Atoi(d.Meta["order"])
		if g.Title == "" || g.Category == "" || g.Anchor == "" {
			return fmt.Errorf("%s: front matter needs title, category and anchor", n)
		}
		b.guide = append(b.guide, g)
	}
	sort.Slice(b.guide, func(i, j int) bool { return b.guide[i].Order < b.guide[j].Order })
	return nil
}

// guideFor returns the guide page of a category, or nil.
func (b *builder) guideFor(category string) *guidePage {
	for _, g := range b.guide {
		if g.Category == category {
			return g
		}
	}
	return nil
}
