package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/textdist"
	"github.com/trainlint/trainlint/site/ruledoc"
)

func runRules(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "text", "text or json")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "Usage: trainlint rules [--format text|json]")
			return exitOK, nil
		}
		return exitUsage, usagef("%s", flagError(err, fs))
	}
	if fs.NArg() > 0 {
		return exitUsage, usagef("rules takes no arguments, got %q", fs.Arg(0))
	}
	rs := allRules()
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(lint.Catalogue(rs)); err != nil {
			return exitUsage, err
		}
	case "text":
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, r := range rs {
			title := r.Title
			if r.Off {
				title += " (off by default)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Code, r.Name, r.Severity, r.Category, title)
		}
		tw.Flush()
	default:
		return exitUsage, usagef("unknown format %q for rules (want text or json)", *format)
	}
	return exitOK, nil
}

// findRule finds a rule by code (any case) or name.
func findRule(rs []*lint.Rule, s string) *lint.Rule {
	for _, r := range rs {
		if strings.EqualFold(r.Code, s) || r.Name == s {
			return r
		}
	}
	return nil
}

func runExplain(args []string, stdout io.Writer) (int, error) {
	if len(args) != 1 {
		return exitUsage, usagef("explain takes one rule: a code such as TL202 or a name such as eval-batch-smaller-than-train")
	}
	rs := allRules()
	r := findRule(rs, args[0])
	if cn, ok := plannedRule(rs, args[0]); r == nil && ok {
		return exitUsage, notImplementedError(cn)
	}
	if r == nil {
		msg := fmt.Sprintf("unknown rule %q", args[0])
		if s := closestRule(rs, args[0]); s != nil {
			msg += fmt.Sprintf(" (did you mean %s %s?)", s.Code, s.Name)
		}
		return exitUsage, usagef("%s; 'trainlint rules' lists them", msg)
	}
	writeExplain(stdout, r)
	return exitOK, nil
}

// writeExplain renders a rule's documentation for a terminal: plain text, paragraphs wrapped at
// 80 columns, Markdown lists and code blocks kept as written.
func writeExplain(w io.Writer, r *lint.Rule) {
	fmt.Fprintf(w, "%s %s\n%s\n\n", r.Code, r.Name, r.Title)
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprintf(tw, "  severity:\t%s", r.Severity)
	if r.Off {
		fmt.Fprint(tw, " (off by default: enable with --select "+r.Name+")")
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "  category:\t%s\n", r.Category)
	if len(r.Frameworks) > 0 {
		fw := strings.Join(r.Frameworks, ", ")
		if fw == "*" {
			fw = "all"
		}
		fmt.Fprintf(tw, "  frameworks:\t%s\n", fw)
	}
	if l := r.PlaybookLink(); l != "" {
		fmt.Fprintf(tw, "  playbook:\t%s\n", l)
	}
	fmt.Fprintf(tw, "  page:\t%s\n", r.URL())
	tw.Flush()
	section := func(title, md string) {
		if strings.TrimSpace(md) == "" {
			return
		}
		fmt.Fprintf(w, "\n%s\n", title)
		io.WriteString(w, renderMarkdown(md, "  ", 80))
	}
	// The same sections, in the same order, as the rule's page on the site (site/ruledoc).
	for _, s := range ruledoc.Sections(r) {
		section(s.Title, s.Markdown)
	}
	writeExamples(w, r)
}

func indentBlock(s, indent string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if l == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString(indent + l + "\n")
	}
	return b.String()
}

// renderMarkdown wraps Markdown prose for a terminal. Paragraphs and list items are reflowed
// (items with a hanging indent); fenced code, indented blocks, headings and tables keep their
// lines, since they mean something as laid out.
func renderMarkdown(md, indent string, width int) string {
	var b strings.Builder
	var para []string
	bullet := "" // the list marker of the paragraph being collected, "" for prose
	flush := func() {
		if len(para) > 0 {
			text := strings.Join(para, " ")
			if bullet == "" {
				b.WriteString(wrap(text, indent, indent, width))
			} else {
				b.WriteString(wrap(bullet+text, indent, indent+strings.Repeat(" ", len(bullet)), width))
			}
		}
		para, bullet = nil, ""
	}
	inFence := false
	for _, l := range strings.Split(strings.TrimSpace(md), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "```"):
			flush()
			inFence = !inFence
		case inFence:
			b.WriteString(indent + "  " + l + "\n")
		case t == "":
			flush()
			b.WriteString("\n")
		case listMarker(t) != "":
			flush()
			bullet = listMarker(t)
			para = append(para, strings.TrimSpace(t[len(bullet):]))
		case bullet != "" && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")):
			para = append(para, t) // continuation of a list item
		case strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "#"):
			flush()
			b.WriteString(indent + strings.TrimRight(l, " ") + "\n")
		default:
			if bullet != "" {
				flush()
			}
			para = append(para, t)
		}
	}
	flush()
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// listMarker returns a list item's marker with its space ("- ", "* ", "12. "), or "".
func listMarker(t string) string {
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") {
		return t[:2]
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && strings.HasPrefix(t[i:], ". ") {
		return t[:i+2]
	}
	return ""
}

// wrap fills words into lines of at most width columns (a longer word gets a line of its own);
// the first line starts with first, the others with rest.
func wrap(s, first, rest string, width int) string {
	var b strings.Builder
	line, start := first, first
	for _, word := range strings.Fields(s) {
		if line != start && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width {
			b.WriteString(line + "\n")
			line, start = rest, rest
		}
		if line != start {
			line += " "
		}
		line += word
	}
	if line != start {
		b.WriteString(line + "\n")
	}
	return b.String()
}

// closestRule suggests a rule for a mistyped name: a rule whose name contains the input or the
// other way round, else the nearest by edit distance when it is close.
func closestRule(rs []*lint.Rule, s string) *lint.Rule {
	s = strings.ToLower(s)
	var best *lint.Rule
	bestD := 4
	for _, r := range rs {
		if len(s) >= 4 && strings.Contains(r.Name, s) {
			return r
		}
		if d := textdist.Levenshtein(s, r.Name); d < bestD {
			best, bestD = r, d
		}
		if d := textdist.Levenshtein(s, strings.ToLower(r.Code)); d < bestD && d <= 1 {
			best, bestD = r, d
		}
	}
	return best
}
