package site

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"html/template"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/report"
)

// Example is one documented input of a rule: a bad one must produce the rule's finding, a good
// one must stay free of errors and warnings.
type Example struct {
	Framework string
	Path      string
	Text      string
	Format    doc.Format
	Bad       bool
	Options   lint.Options
	// Args is the launch context as command-line flags ("--hosts 4"), shown beside the output.
	Args string
}

// shown is an example as its page shows it: the text and the engine's own output for it.
type shown struct {
	Example
	Highlighted template.HTML // Text, highlighted for its format
	Output      string
	Count       int
	Permalink   string // the checker opened on this text (relative to the site root)
}

// exampleSource returns a rule's examples. It is a variable so tests can feed the docs check
// examples that must fail it.
var exampleSource = ruleExamples

// lintExample lints one example with every rule, as the CLI would, and checks it does what its
// page claims. The output is rendered by the text reporter, without colour.
func (b *builder) lintExample(r *lint.Rule, ex Example) (*shown, error) {
	res := lint.Lint([]lint.File{{Path: ex.Path, Text: []byte(ex.Text), Format: ex.Format}}, b.rules, ex.Options)
	kind := "good"
	if ex.Bad {
		kind = "bad"
	}
	where := fmt.Sprintf("rule %s, %s example %q (%s)", r.Name, kind, ex.Path, ex.Framework)
	own := 0
	for _, d := range res.Diagnostics {
		if d.Rule == r.Name {
			own++
		}
		if !ex.Bad && d.Severity >= lint.Warning {
			return nil, fmt.Errorf("%s: a good example must show no error or warning, got %s:%d:%d: %s [%s %s]",
				where, d.File, d.Line, d.Column, d.Message, d.Code, d.Rule)
		}
	}
	if ex.Bad && own == 0 {
		return nil, fmt.Errorf("%s: a bad example must produce a %s finding, got none (%d other findings)", where, r.Name, len(res.Diagnostics))
	}
	out := "no findings\n"
	if len(res.Diagnostics) > 0 {
		w, ok := report.Get("text")
		if !ok {
			return nil, fmt.Errorf("the text reporter is not registered")
		}
		var buf bytes.Buffer
		if err := w(&buf, res, report.Options{Sources: map[string][]byte{ex.Path: []byte(ex.Text)}}); err != nil {
			return nil, err
		}
		out = buf.String()
	}
	b.examples++
	return &shown{Example: ex, Highlighted: highlight(langOf(ex.Path, ex.Format), ex.Text), Output: out, Count: len(res.Diagnostics), Permalink: permalinkFor(ex)}, nil
}

// Permalink is the checker URL (relative to the site root) that opens with name and text
// loaded: #f=<name>&c=<base64url, no padding, of the raw DEFLATE of the UTF-8 text>. The page
// inflates it with DecompressionStream("deflate-raw"), so nothing leaves the browser. Optional
// h, d and fw parameters set hosts, devices per host and the framework. The checker writes one
// f and c pair per open file (in tab order) and t=<index> for the active one; it inflates with
// a 10 MB limit applied while inflating, and says a link is broken rather than open it empty.
func Permalink(name, text string) string {
	return "check/#f=" + url.QueryEscape(name) + "&c=" + Compress(text)
}

// permalinkFor carries an example's launch context into the checker too.
func permalinkFor(ex Example) string {
	p := Permalink(ex.Path, ex.Text)
	if ex.Options.Hosts > 0 {
		p += "&h=" + strconv.Itoa(ex.Options.Hosts)
	}
	if ex.Options.DevicesPerHost > 0 {
		p += "&d=" + strconv.Itoa(ex.Options.DevicesPerHost)
	}
	if ex.Options.Framework != "" {
		p += "&fw=" + url.QueryEscape(ex.Options.Framework)
	}
	return p
}

// Compress is the permalink encoding of a text.
func Compress(text string) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write([]byte(text))
	w.Close()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// langOf names the highlighting of an example: its format, else its file extension.
func langOf(path string, f doc.Format) string {
	if f != "" {
		return string(f)
	}
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if ext == "yml" {
		return "yaml"
	}
	return ext
}
