package site

import (
	"html"
	"html/template"
	"regexp"
	"strings"
)

// Code blocks are highlighted when the site is built, so the pages need no highlighter in the
// browser. The classes are those of @lezer/highlight's classHighlighter, which the checker's
// editor uses too, so one set of colours in style.css serves both (light and dark).
//
// The highlighter is line-based and small on purpose: configs and shell snippets on these pages
// are short, and a token it does not know is left plain, which is always correct to show.

var (
	hlComment = regexp.MustCompile(`^(.*?)(\s#.*|^#.*)$`)
	hlNumber  = regexp.MustCompile(`^[-+]?(\d[\d_]*(\.\d*)?([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|0x[0-9a-fA-F]+|\.?inf|\.?nan)$`)
	hlAtom    = regexp.MustCompile(`^(true|false|null|~|True|False|None|yes|no)$`)
	hlYAMLKey = regexp.MustCompile(`^(\s*(?:- )*)([^\s#'"\[\]{},][^:#]*?|"[^"]*"|'[^']*')(:)(\s|$)`)
	hlTOMLKey = regexp.MustCompile(`^(\s*)([A-Za-z0-9_.\-"]+)(\s*=)`)
	hlTOMLHdr = regexp.MustCompile(`^\s*\[\[?[^\]]+\]\]?\s*$`)
	hlJSONTok = regexp.MustCompile(`"(?:[^"\\]|\\.)*"(\s*:)?|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null`)
	hlWord    = regexp.MustCompile(`'[^']*'|"(?:[^"\\]|\\.)*"|\S+|\s+`)
	hlCode    = regexp.MustCompile(`(?s)<pre><code class="language-([a-z0-9]+)">(.*?)</code></pre>`)
	hlPre     = regexp.MustCompile(`<pre(\s|>)`)
)

func span(class, text string) string {
	if text == "" {
		return ""
	}
	return `<span class="` + class + `">` + html.EscapeString(text) + `</span>`
}

// highlight returns text as HTML with its tokens marked for lang ("yaml", "json", "toml", "sh";
// anything else is escaped only).
func highlight(lang, text string) template.HTML {
	var b strings.Builder
	lines := strings.SplitAfter(text, "\n")
	for _, l := range lines {
		nl := ""
		if strings.HasSuffix(l, "\n") {
			l, nl = l[:len(l)-1], "\n"
		}
		switch lang {
		case "yaml", "yml":
			b.WriteString(hlYAMLLine(l))
		case "toml":
			b.WriteString(hlTOMLLine(l))
		case "json":
			b.WriteString(hlJSONLine(l))
		case "sh", "shell", "bash", "console":
			b.WriteString(hlShellLine(l))
		default:
			b.WriteString(html.EscapeString(l))
		}
		b.WriteString(nl)
	}
	return template.HTML(b.String())
}

// splitComment separates a trailing `# comment` (outside quotes) from a line.
func splitComment(l string) (code, comment string) {
	inS, inD := false, false
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case c == '\'' && !inD:
			inS = !inS
		case c == '"' && !inS:
			inD = !inD
		case c == '#' && !inS && !inD && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t'):
			return l[:i], l[i:]
		}
	}
	return l, ""
}

func hlValue(v string) string {
	t := strings.TrimSpace(v)
	lead := v[:len(v)-len(strings.TrimLeft(v, " \t"))]
	trail := v[len(strings.TrimRight(v, " \t")):]
	switch {
	case t == "":
		return html.EscapeString(v)
	case hlNumber.MatchString(t):
		return lead + span("tok-number", t) + trail
	case hlAtom.MatchString(t):
		return lead + span("tok-atom", t) + trail
	case strings.HasPrefix(t, `"`) || strings.HasPrefix(t, `'`):
		return lead + span("tok-string", t) + trail
	}
	return html.EscapeString(v)
}

func hlYAMLLine(l string) string {
	code, comment := splitComment(l)
	var b strings.Builder
	if m := hlYAMLKey.FindStringSubmatchIndex(code); m != nil {
		b.WriteString(html.EscapeString(code[:m[3]]))
		b.WriteString(span("tok-propertyName", code[m[4]:m[5]]))
		b.WriteString(span("tok-punctuation", ":"))
		b.WriteString(hlValue(code[m[7]:]))
	} else if t := strings.TrimLeft(code, " \t"); strings.HasPrefix(t, "- ") {
		i := len(code) - len(t)
		b.WriteString(html.EscapeString(code[:i+2]))
		b.WriteString(hlValue(code[i+2:]))
	} else {
		b.WriteString(hlValue(code))
	}
	b.WriteString(span("tok-comment", comment))
	return b.String()
}

func hlTOMLLine(l string) string {
	code, comment := splitComment(l)
	var b strings.Builder
	switch m := hlTOMLKey.FindStringSubmatchIndex(code); {
	case hlTOMLHdr.MatchString(code):
		b.WriteString(span("tok-heading", code))
	case m != nil:
		b.WriteString(html.EscapeString(code[:m[3]]))
		b.WriteString(span("tok-propertyName", code[m[4]:m[5]]))
		b.WriteString(html.EscapeString(code[m[6]:m[7]]))
		rest := code[m[1]:]
		if t := strings.TrimSpace(rest); strings.HasPrefix(t, "[") {
			b.WriteString(hlJSONLine(rest))
		} else {
			b.WriteString(hlValue(rest))
		}
	default:
		b.WriteString(html.EscapeString(code))
	}
	b.WriteString(span("tok-comment", comment))
	return b.String()
}

func hlJSONLine(l string) string {
	var b strings.Builder
	last := 0
	for _, m := range hlJSONTok.FindAllStringSubmatchIndex(l, -1) {
		b.WriteString(html.EscapeString(l[last:m[0]]))
		tok := l[m[0]:m[1]]
		switch {
		case m[2] >= 0: // a key and its colon
			b.WriteString(span("tok-propertyName", l[m[0]:m[2]]))
			b.WriteString(html.EscapeString(l[m[2]:m[3]]))
		case tok[0] == '"':
			b.WriteString(span("tok-string", tok))
		case tok == "true" || tok == "false" || tok == "null":
			b.WriteString(span("tok-atom", tok))
		default:
			b.WriteString(span("tok-number", tok))
		}
		last = m[1]
	}
	b.WriteString(html.EscapeString(l[last:]))
	return b.String()
}

func hlShellLine(l string) string {
	code, comment := splitComment(l)
	var b strings.Builder
	first := true
	for _, w := range hlWord.FindAllString(code, -1) {
		switch {
		case strings.TrimSpace(w) == "":
			b.WriteString(w)
			continue
		case first:
			b.WriteString(span("tok-keyword", w))
		case strings.HasPrefix(w, "-"):
			b.WriteString(span("tok-attributeName", w))
		case strings.HasPrefix(w, "'") || strings.HasPrefix(w, `"`):
			b.WriteString(span("tok-string", w))
		default:
			b.WriteString(html.EscapeString(w))
		}
		first = w == "|" || w == "&&" || w == ";"
	}
	b.WriteString(span("tok-comment", comment))
	return b.String()
}

// polishHTML finishes a rendered page: fenced code blocks from Markdown get highlighted, and
// every <pre> becomes focusable (tabindex 0), so keyboard users can scroll a long block too.
func polishHTML(s string) string {
	s = hlCode.ReplaceAllStringFunc(s, func(m string) string {
		sub := hlCode.FindStringSubmatch(m)
		return `<pre><code class="language-` + sub[1] + `">` + string(highlight(sub[1], html.UnescapeString(sub[2]))) + `</code></pre>`
	})
	return hlPre.ReplaceAllString(s, `<pre tabindex="0"$1`)
}
