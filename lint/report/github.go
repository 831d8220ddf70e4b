package report

import (
	"bufio"
	"io"
	"strings"

	"github.com/trainlint/trainlint/lint"
)

func init() { Register("github", writeGitHub) }

// writeGitHub prints one GitHub Actions workflow command per finding, which the runner turns
// into an annotation on the file and line of the pull request:
//
//	::warning file=configs/sft.yaml,line=12,col=29,endLine=12,endColumn=30,title=TL202 eval-batch-smaller-than-train::per-device eval batch …
//
// errors become ::error, warnings ::warning and info findings ::notice. The message carries the
// finding, then the help and the rule's URL on their own lines (escaped newlines, which the
// annotation shows). GitHub reads endColumn only when the annotation stays on one line, so it is
// written only then.
func writeGitHub(w io.Writer, res *lint.Result, _ Options) error {
	bw := bufio.NewWriter(w)
	for _, d := range res.Diagnostics {
		cmd := "warning"
		switch d.Severity {
		case lint.Error:
			cmd = "error"
		case lint.Info:
			cmd = "notice"
		}
		props := []string{"file=" + ghProperty(EscapeLine(lint.NormalizePath(d.File)))}
		if d.Line > 0 {
			props = append(props, "line="+itoa(d.Line))
			if d.Column > 0 {
				props = append(props, "col="+itoa(d.Column))
			}
			end := lastLine(d.Line, d.EndLine, d.EndColumn)
			props = append(props, "endLine="+itoa(end))
			if d.EndLine == d.Line && d.Column > 0 && d.EndColumn > d.Column {
				props = append(props, "endColumn="+itoa(d.EndColumn))
			}
		}
		props = append(props, "title="+ghProperty(EscapeLine(d.Code+" "+d.Rule)))
		// Control characters are spelled out (escape.go): the log viewer would obey an ESC
		// sequence. Line breaks are left to ghData, which encodes them (%0A), so they cannot
		// end the command.
		msg := escape(d.Message, "\r\n")
		if d.Help != "" {
			msg += "\n" + escape(d.Help, "\r\n")
		}
		if d.URL != "" {
			msg += "\n" + EscapeLine(d.URL)
		}
		bw.WriteString("::" + cmd + " " + strings.Join(props, ",") + "::" + ghData(msg) + "\n")
	}
	return bw.Flush()
}

// ghData escapes a workflow command's message: '%' first (so the escapes it introduces are not
// escaped again), then CR and LF, which would otherwise end the command.
func ghData(s string) string {
	s = strings.ReplaceAll(s, "%", "%25")
	s = strings.ReplaceAll(s, "\r", "%0D")
	return strings.ReplaceAll(s, "\n", "%0A")
}

// ghProperty escapes a property value: the message escapes plus ':' (which ends the property
// list) and ',' (which separates properties).
func ghProperty(s string) string {
	s = ghData(s)
	s = strings.ReplaceAll(s, ":", "%3A")
	return strings.ReplaceAll(s, ",", "%2C")
}

// lastLine is the last line a span touches. Our ends are exclusive, so a span that stops at
// column 1 of a line (a whole-line span) ends on the line before; an unknown or inverted end
// collapses to the start line.
func lastLine(line, endLine, endCol int) int {
	if endLine < line {
		return line
	}
	if endLine > line && endCol <= 1 {
		return endLine - 1
	}
	return endLine
}
