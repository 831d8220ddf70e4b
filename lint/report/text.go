package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
)

func init() { Register("text", writeText) }

const (
	// tabWidth is the tab stop used to draw excerpts: tabs are expanded so the underline lines
	// up whatever the terminal's own tab setting is.
	tabWidth = 4
	// maxSpanLines is the most lines of one span shown; longer spans keep their first and last
	// two lines around an ellipsis.
	maxSpanLines = 5
	// maxLineWidth is the most display columns of one source line shown (minified JSON can put
	// a whole file on one line); the window is placed around the finding.
	maxLineWidth = 160
)

// writeText renders the terminal format: one header line per finding in the
// `path:line:col: severity[CODE name] message` shape editors and CI logs recognise, then the
// source lines with the span underlined, related locations, the guidance and the rule's page,
// and a one-line summary at the end.
func writeText(w io.Writer, res *lint.Result, o Options) error {
	bw := bufio.NewWriter(w)
	p := palette(o.Color)
	indexes := map[string]*excerptSource{}
	filesWith := map[string]bool{}
	var counts [4]int    // by severity
	var safe, unsafe int // findings with a fix, by applicability
	for _, d := range res.Diagnostics {
		filesWith[d.File] = true
		if d.Severity >= lint.Info && d.Severity <= lint.Error {
			counts[d.Severity]++
		}
		if d.Fix != nil && d.Fix.Applicability == lint.Safe {
			safe++
		} else if d.Fix != nil {
			unsafe++
		}
		writeHeader(bw, p, d)
		if o.Quiet {
			continue
		}
		lines := func(file string) *excerptSource {
			src, ok := o.Sources[file]
			if !ok {
				return nil
			}
			x := indexes[file]
			if x == nil {
				x = &excerptSource{x: doc.NewLineIndex(src)}
				indexes[file] = x
			}
			return x
		}
		if x := lines(d.File); x != nil {
			writeExcerpt(bw, p, x, d)
		}
		for _, r := range d.Related {
			fmt.Fprintf(bw, "  %s %s:%d:%d: %s\n", p.paint(bold, "note:"), EscapeLine(r.File), r.Line, r.Column, EscapeLine(r.Message))
			if x := lines(r.File); x != nil {
				writeRelated(bw, p, x, r)
			}
		}
		if d.Help != "" {
			fmt.Fprintf(bw, "  %s %s\n", p.paint(cyanBold, "help:"), indentRest(EscapeText(d.Help), "        "))
		}
		if d.Fix != nil {
			how := "safe, apply with --fix"
			if d.Fix.Applicability != lint.Safe {
				how = "unsafe, apply with --fix --unsafe-fixes"
			}
			fmt.Fprintf(bw, "  %s %s (%s)\n", p.paint(greenBold, "fix:"), EscapeLine(d.Fix.Message), how)
		}
		if d.URL != "" {
			fmt.Fprintf(bw, "  %s %s\n", p.paint(dim, "see:"), EscapeLine(d.URL))
		}
		bw.WriteByte('\n')
	}
	if !o.Quiet {
		// Files read only as part of a run (a base config, a Hydra group file) can hold findings
		// too: the summary says so instead of "in 24 of 1 file".
		checked := make(map[string]bool, len(res.Files))
		for _, f := range res.Files {
			checked[f.Path] = true
		}
		through := 0
		for f := range filesWith {
			if !checked[f] {
				through++
			}
		}
		bw.WriteString(p.paint(bold, summary(counts, len(filesWith), len(res.Files), through)+fixable(safe, unsafe)) + "\n")
		if note := NeedsHostsNote(res); note != "" {
			fmt.Fprintf(bw, "%s %s\n", p.paint(bold, "note:"), note)
		}
	}
	return bw.Flush()
}

// NeedsHostsNote is the line that says, once per run, which multi-host rules did not run because
// files do not state their host count: "2 multi-host rules need --hosts N (3 files do not state
// their host count)". Empty when every selected multi-host rule could decide.
func NeedsHostsNote(res *lint.Result) string {
	codes := map[string]bool{}
	files := 0
	for _, f := range res.Files {
		if len(f.NeedsHosts) > 0 {
			files++
		}
		for _, c := range f.NeedsHosts {
			codes[c] = true
		}
	}
	if files == 0 {
		return ""
	}
	verb := "do not state their"
	if files == 1 {
		verb = "does not state its"
	}
	rules := plural(len(codes), "multi-host rule needs", "multi-host rules need")
	return fmt.Sprintf("%s --hosts N (%s %s host count; or set hosts under [context] in .trainlint.toml)",
		rules, plural(files, "file", "files"), verb)
}

func writeHeader(w *bufio.Writer, p palette, d lint.Diagnostic) {
	tag := d.Severity.String() + "[" + d.Code + " " + d.Rule + "]"
	fmt.Fprintf(w, "%s: %s %s\n", p.paint(bold, EscapeLine(d.File)+":"+strconv.Itoa(d.Line)+":"+strconv.Itoa(d.Column)),
		p.paint(severityColor(d.Severity), EscapeLine(tag)), p.paint(bold, EscapeLine(d.Message)))
}

// runFiles says where the findings are when some are in files read only through the runs of
// the files checked: "26 files: 2 of the 5 checked and 24 read through their runs", or "24 files
// read through the runs of the 1 file checked".
func runFiles(inChecked, through, checked int) string {
	all := plural(inChecked+through, "file", "files")
	if inChecked == 0 {
		return all + " read through the runs of the " + plural(checked, "file", "files") + " checked"
	}
	their := "their"
	if checked == 1 {
		their = "its"
	}
	return all + ": " + strconv.Itoa(inChecked) + " of the " + strconv.Itoa(checked) + " checked and " +
		strconv.Itoa(through) + " read through " + their + " runs"
}

// summary is the closing line: "3 findings (1 error, 2 warnings) in 2 of 5 files", or, when
// through of the files with findings were read only through a checked file's run, where
// runFiles says.
func summary(counts [4]int, withFindings, files, through int) string {
	total := counts[lint.Error] + counts[lint.Warning] + counts[lint.Info]
	if total == 0 {
		return "no findings in " + plural(files, "file", "files")
	}
	var parts []string
	if n := counts[lint.Error]; n > 0 {
		parts = append(parts, plural(n, "error", "errors"))
	}
	if n := counts[lint.Warning]; n > 0 {
		parts = append(parts, plural(n, "warning", "warnings"))
	}
	if n := counts[lint.Info]; n > 0 {
		parts = append(parts, strconv.Itoa(n)+" info")
	}
	where := strconv.Itoa(withFindings) + " of " + plural(files, "file", "files")
	if through > 0 {
		where = runFiles(withFindings-through, through, files)
	}
	return fmt.Sprintf("%s (%s) in %s", plural(total, "finding", "findings"), strings.Join(parts, ", "), where)
}

// fixable ends the summary with what --fix can do: ", 4 fixable with --fix (1 more with
// --unsafe-fixes)"; empty when no finding has a fix.
func fixable(safe, unsafe int) string {
	switch {
	case safe > 0 && unsafe > 0:
		return fmt.Sprintf(", %d fixable with --fix (%d more with --fix --unsafe-fixes)", safe, unsafe)
	case safe > 0:
		return fmt.Sprintf(", %d fixable with --fix", safe)
	case unsafe > 0:
		return fmt.Sprintf(", %d fixable with --fix --unsafe-fixes", unsafe)
	}
	return ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func indentRest(s, indent string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+indent)
}

// writeExcerpt draws the span's lines with a gutter of line numbers and the span underlined.
func writeExcerpt(w *bufio.Writer, p palette, src *excerptSource, d lint.Diagnostic) {
	x := src.x
	first, last := d.Line, d.EndLine
	endCol := d.EndColumn
	if last < first {
		last, endCol = first, d.Column
	}
	// An exclusive end at the start of a line belongs to the line before it.
	if last > first && endCol <= 1 {
		last--
		endCol = toLineEnd
		if text := x.Line(last); len(text) <= longLine {
			endCol = utf8.RuneCount(text) + 1
		}
	}
	if first < 1 || first > x.NumLines() {
		return
	}
	if last > x.NumLines() {
		last = x.NumLines()
	}
	lines := make([]int, 0, maxSpanLines)
	elided := false
	for l := first; l <= last; l++ {
		if last-first+1 > maxSpanLines && l == first+2 {
			l = last - 2
			elided = true
			continue
		}
		lines = append(lines, l)
	}
	gw := len(strconv.Itoa(last))
	pad := strings.Repeat(" ", gw)
	bar := p.paint(blueBold, "|")
	mark := severityColor(d.Severity)
	for i, l := range lines {
		if elided && i == 2 {
			fmt.Fprintf(w, "  %s %s\n", p.paint(blueBold, pad[:gw-1]+"…"), bar)
		}
		text := x.Line(l)
		from, to := 1, toLineEnd
		if len(text) <= longLine {
			to = utf8.RuneCount(text) + 1
		}
		if l == first {
			from = d.Column
		} else {
			from = firstNonSpace(text)
		}
		if l == last {
			to = endCol
		}
		shown, ul := src.render(l, text, from, to, l == first, last > first)
		fmt.Fprintf(w, "  %s %s %s\n", p.paint(blueBold, fmt.Sprintf("%*d", gw, l)), bar, shown)
		if ul != "" {
			fmt.Fprintf(w, "  %s %s %s\n", pad, bar, p.paint(mark, ul))
		}
	}
}

// writeRelated draws a related location's line, marking it with dashes: from its column to its
// end when that is on the same line, else to the end of the line's text (the rest of the line
// is the value or the entry it points at).
func writeRelated(w *bufio.Writer, p palette, src *excerptSource, r lint.Related) {
	x := src.x
	if r.Line < 1 || r.Line > x.NumLines() {
		return
	}
	text := x.Line(r.Line)
	to := toLineEnd
	if len(text) <= longLine {
		to = utf8.RuneCount(bytes.TrimRight(text, " \t")) + 1
	}
	if r.EndLine == r.Line && r.EndColumn > r.Column && r.EndColumn < to {
		to = r.EndColumn
	}
	shown, ul := src.render(r.Line, text, r.Column, to, false, false)
	ul = strings.ReplaceAll(ul, "~", "-")
	gw := len(strconv.Itoa(r.Line))
	bar := p.paint(blueBold, "|")
	fmt.Fprintf(w, "  %s %s %s\n", p.paint(blueBold, strconv.Itoa(r.Line)), bar, shown)
	fmt.Fprintf(w, "  %s %s %s\n", strings.Repeat(" ", gw), bar, p.paint(blueBold, ul))
}

func firstNonSpace(b []byte) int {
	for i, c := range b {
		if c != ' ' && c != '\t' {
			return i + 1 // spaces and tabs are one byte and one column each
		}
	}
	return len(b) + 1
}

// cell is one code point as drawn: its text and its display width.
type cell struct {
	s string
	w int
}

// renderLine expands a source line into display cells and draws the underline of columns
// [from, to) (1-based code points, end exclusive). Columns are code points, so each cell is one
// column; tabs, wide (East Asian) characters and control characters get their display width.
// A span from a multi-line finding that is empty on this line draws no underline, but an empty
// span of a one-line finding draws a single caret where it points.
func renderLine(text []byte, from, to int, caret, multi bool) (string, string) {
	var cells []cell
	at := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		i += size
		var c cell
		switch {
		case r == '\t':
			n := tabWidth - at%tabWidth
			c = cell{strings.Repeat(" ", n), n}
		case r == utf8.RuneError && size == 1, r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
			c = cell{"\uFFFD", 1}
		case isBidi(r) || r == 0x2028 || r == 0x2029:
			// Shown, not obeyed: a bidirectional control would reorder the excerpt (Trojan
			// Source), and the reader should see that the file holds one.
			s := "<U+" + strings.ToUpper(strconv.FormatInt(int64(r), 16)) + ">"
			c = cell{s, len(s)}
		default:
			c = cell{string(r), runewidth.RuneWidth(r)}
		}
		cells = append(cells, c)
		at += c.w
	}
	if from < 1 {
		from = 1
	}
	if from > len(cells)+1 {
		from = len(cells) + 1
	}
	if to > len(cells)+1 {
		to = len(cells) + 1
	}
	// Display offsets of each column's start (pos[len] is the line's width).
	pos := make([]int, len(cells)+1)
	for i, c := range cells {
		pos[i+1] = pos[i] + c.w
	}
	ulStart := pos[from-1]
	ulWidth := 0
	if to > from {
		ulWidth = pos[to-1] - pos[from-1]
	}
	if ulWidth == 0 {
		if multi && to > 0 && from >= to {
			ulWidth = -1 // nothing of the span on this line
		} else {
			ulWidth = 1
		}
	}

	// Keep a window of the line around the span when the line is too wide for a terminal.
	lo, hi := 0, pos[len(cells)]
	if hi > maxLineWidth {
		lo = ulStart - maxLineWidth/4
		if lo < 0 {
			lo = 0
		}
		hi = lo + maxLineWidth
		if hi > pos[len(cells)] {
			hi = pos[len(cells)]
			lo = max(0, hi-maxLineWidth)
		}
	}
	var b strings.Builder
	shift := 0
	if lo > 0 {
		b.WriteString("…")
		shift = 1
	}
	start, end := -1, lo
	for i, c := range cells {
		if pos[i] < lo || pos[i]+c.w > hi {
			continue
		}
		if start < 0 {
			start = pos[i]
		}
		end = pos[i] + c.w
		b.WriteString(c.s)
	}
	if start < 0 {
		start = lo
	}
	if hi < pos[len(cells)] {
		b.WriteString("…")
	}
	shown := strings.TrimRight(b.String(), " ")
	if ulWidth < 0 {
		return shown, ""
	}
	// Move the underline into the window's coordinates and clip it to what is shown; a caret
	// past the end of the line stays one column after it.
	s, e := ulStart-start+shift, ulStart-start+shift+ulWidth
	visEnd := shift + end - start
	if s < shift {
		s = shift
	}
	if e > visEnd {
		e = visEnd
	}
	if e <= s {
		e = s + 1
	}
	ulStart, ulWidth = s, e-s
	head := "^"
	if !caret {
		head = "~"
	}
	return shown, strings.Repeat(" ", ulStart) + head + strings.Repeat("~", ulWidth-1)
}

// ANSI styles.
const (
	bold      = "1"
	dim       = "2"
	redBold   = "1;31"
	yellBold  = "1;33"
	blueBold  = "1;34"
	cyanBold  = "1;36"
	greenBold = "1;32"
)

func severityColor(s lint.Severity) string {
	switch s {
	case lint.Error:
		return redBold
	case lint.Warning:
		return yellBold
	}
	return blueBold
}

// palette paints text with ANSI styles when colour is on, and passes it through otherwise.
type palette bool

func (p palette) paint(style, s string) string {
	if !p || s == "" {
		return s
	}
	return "\x1b[" + style + "m" + s + "\x1b[0m"
}

// Long lines. An excerpt costs what it shows: a line longer than longLine bytes (minified JSON
// can be one 57 MB line) is not expanded whole for every finding on it; only a window of about
// maxLineWidth columns around the span is, found from the span's byte offset. Rendering the
// whole line each time took 13-32 s and 2.7 GB for a 57 MB one-line JSON, and 47 s for 19
// repeated keys on a 5 MB line (see TestTextExcerptCost).
const (
	longLine = 4096
	// toLineEnd is an end column past any line: the span runs to the end of the line.
	toLineEnd = 1 << 30
	// maxWindowRunes bounds the code points a window reads each way, whatever their display
	// width (a run of zero-width characters would otherwise never fill it).
	maxWindowRunes = 4 * maxLineWidth
)

// excerptSource is one file's line index and a cursor that turns columns into byte offsets. The
// findings of a file come sorted by line and column, so the cursor mostly moves forward along a
// line and converting every column of a line costs one pass over it, not one pass per finding.
type excerptSource struct {
	x                   *doc.LineIndex
	curLine, curCol, at int
}

// offset is the byte offset in text (line l's text) of column col (clamped to the line's end).
func (s *excerptSource) offset(l int, text []byte, col int) int {
	off, c := 0, 1
	if s.curLine == l && s.curCol <= col {
		off, c = s.at, s.curCol
	}
	for ; c < col && off < len(text); c++ {
		if text[off] < utf8.RuneSelf {
			off++
			continue
		}
		_, size := utf8.DecodeRune(text[off:])
		off += size
	}
	s.curLine, s.curCol, s.at = l, c, off
	return off
}

// render is renderLine for line l, on a window of the line when it is long.
func (s *excerptSource) render(l int, text []byte, from, to int, caret, multi bool) (string, string) {
	if len(text) <= longLine {
		return renderLine(text, from, to, caret, multi)
	}
	fromOff := s.offset(l, text, max(from, 1))
	lo := back(text, fromOff, maxLineWidth/4)
	hi := forward(text, lo, maxLineWidth)
	if hi == len(text) {
		lo = back(text, lo, maxLineWidth-width(text[lo:hi]))
	}
	win := text[lo:hi]
	relFrom := from
	if from >= 1 {
		relFrom = utf8.RuneCount(text[lo:fromOff]) + 1
	}
	relTo := to
	switch {
	case to > from && to >= toLineEnd:
		relTo = toLineEnd
	case to > from:
		if toOff := s.offset(l, text, to); toOff > hi {
			relTo = toLineEnd
		} else {
			relTo = utf8.RuneCount(text[lo:toOff]) + 1
		}
	case to >= 1:
		relTo = to - from + relFrom
	}
	shown, ul := renderLine(win, relFrom, relTo, caret, multi)
	if lo > 0 {
		shown = "…" + shown
		if ul != "" {
			ul = " " + ul
		}
	}
	if hi < len(text) {
		shown += "…"
	}
	return shown, ul
}

// cellWidth is the display width renderLine gives r.
func cellWidth(r rune) int {
	switch {
	case r == '\t':
		return tabWidth
	case r < 0x20 || r >= 0x7f && r < 0xa0:
		return 1
	case isBidi(r) || r == 0x2028 || r == 0x2029:
		return 8
	}
	return runewidth.RuneWidth(r)
}

// back returns the offset where a window ending at off and w columns wide starts.
func back(text []byte, off, w int) int {
	for n := 0; off > 0 && w > 0 && n < maxWindowRunes; n++ {
		r, size := utf8.DecodeLastRune(text[:off])
		off -= size
		w -= cellWidth(r)
	}
	return off
}

// forward returns the offset where a window starting at off and w columns wide ends.
func forward(text []byte, off, w int) int {
	for n := 0; off < len(text) && n < maxWindowRunes; n++ {
		r, size := utf8.DecodeRune(text[off:])
		if cw := cellWidth(r); cw <= w {
			w -= cw
		} else {
			break
		}
		off += size
	}
	return off
}

func width(b []byte) int {
	w := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		w += cellWidth(r)
		b = b[size:]
	}
	return w
}
