package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
)

func TestRenderLine(t *testing.T) {
	cases := []struct {
		name     string
		text     string
		from, to int
		shown    string
		ul       string
	}{
		{"plain", "per_device_eval_batch_size: 4", 29, 30, "per_device_eval_batch_size: 4", "                            ^"},
		{"key", "warn_me: 16", 1, 8, "warn_me: 16", "^~~~~~~"},
		// A tab is one column but is drawn to the next tab stop; the underline follows.
		{"tab", "\tx: 1", 2, 3, "    x: 1", "    ^"},
		{"tab mid", "a:\tvalue", 4, 9, "a:  value", "    ^~~~~"},
		// Wide characters are one column each and two cells wide.
		{"wide", "名前: 値段", 5, 7, "名前: 値段", "      ^~~~"},
		{"wide before", "説明: x", 5, 6, "説明: x", "      ^"},
		// An empty span points at its place; past the end it points just after the text.
		{"empty", "a: 1", 4, 4, "a: 1", "   ^"},
		{"end of line", "a: 1", 5, 5, "a: 1", "    ^"},
		{"beyond end", "a: 1", 9, 12, "a: 1", "    ^"},
		{"control", "a:\x01b", 3, 4, "a:\uFFFDb", "  ^"},
		{"invalid utf8", "a:\xffb", 4, 5, "a:\uFFFDb", "   ^"},
	}
	for _, c := range cases {
		shown, ul := renderLine([]byte(c.text), c.from, c.to, true, false)
		if shown != c.shown || ul != c.ul {
			t.Errorf("%s:\n got %q\n     %q\nwant %q\n     %q", c.name, shown, ul, c.shown, c.ul)
		}
	}
}

func TestRenderLongLine(t *testing.T) {
	line := `{"a": ` + strings.Repeat(`"xxxxxxxxxx", `, 100) + `"needle": 1}`
	col := strings.Index(line, `"needle"`) + 1
	shown, ul := renderLine([]byte(line), col, col+8, true, false)
	if w := len([]rune(shown)); w > maxLineWidth+2 {
		t.Errorf("shown %d columns, want at most %d", w, maxLineWidth+2)
	}
	if !strings.HasPrefix(shown, "…") {
		t.Errorf("no leading ellipsis: %q", shown)
	}
	at := strings.Index(ul, "^")
	if at < 0 || string([]rune(shown)[at:at+8]) != `"needle"` || strings.TrimLeft(ul, " ") != "^"+strings.Repeat("~", 7) {
		t.Errorf("underline does not sit under the needle:\n%s\n%s", shown, ul)
	}
}

func sampleResult() (*lint.Result, Options) {
	src := "model: llama\n\tbatch: 4\nnote: \"日本語\" # x\nsweep:\n  lr: [1, 2]\n  wd: [3]\n  b: 1\n  c: 2\n  d: 3\n"
	res := lint.NewResult()
	res.Files = append(res.Files, lint.FileInfo{Path: "a.yaml", Format: "yaml", Framework: "generic"},
		lint.FileInfo{Path: "b.yaml", Format: "yaml", Framework: "generic"})
	res.Diagnostics = []lint.Diagnostic{
		{Code: "TL202", Rule: "eval-batch-smaller-than-train", Severity: lint.Warning, File: "a.yaml",
			Line: 2, Column: 9, EndLine: 2, EndColumn: 10, Message: "eval batch \"4\" is small", Help: "raise it\nto 16",
			URL:     "https://trainlint.github.io/rules/eval-batch-smaller-than-train/",
			Related: []lint.Related{{File: "a.yaml", Line: 1, Column: 1, Message: "train batch set here"}},
			Fix:     &lint.Fix{Applicability: lint.Safe, Message: "set batch to 16"}},
		{Code: "TL001", Rule: "parse-error", Severity: lint.Error, File: "a.yaml",
			Line: 3, Column: 7, EndLine: 3, EndColumn: 12, Message: "bad"},
		{Code: "TL703", Rule: "train-steps-in-search-space", Severity: lint.Info, File: "a.yaml",
			Line: 4, Column: 1, EndLine: 10, EndColumn: 1, Message: "multi-line"},
	}
	return res, Options{Sources: map[string][]byte{"a.yaml": []byte(src)}}
}

// A related location marks its value when it ends on its own line, and the rest of the line
// when its end is not known or lies on a later line.
func TestTextRelatedEnd(t *testing.T) {
	src := "train:\n  batch: 16  # per device\n  eval: 4\n"
	for _, c := range []struct {
		endLine, endCol int
		want            string
	}{
		{2, 12, "  2 |   batch: 16  # per device\n    |          --\n"},
		{0, 0, "  2 |   batch: 16  # per device\n    |          ----------------\n"},
		{3, 3, "  2 |   batch: 16  # per device\n    |          ----------------\n"},
		{2, 99, "  2 |   batch: 16  # per device\n    |          ----------------\n"},
	} {
		res := lint.NewResult()
		res.Files = append(res.Files, lint.FileInfo{Path: "a.yaml", Format: "yaml", Framework: "generic"})
		res.Diagnostics = []lint.Diagnostic{{Code: "TL202", Rule: "eval-batch-smaller-than-train", Severity: lint.Warning,
			File: "a.yaml", Line: 3, Column: 9, EndLine: 3, EndColumn: 10, Message: "small",
			Related: []lint.Related{{File: "a.yaml", Line: 2, Column: 10, EndLine: c.endLine, EndColumn: c.endCol, Message: "train batch set here"}}}}
		var b bytes.Buffer
		if err := writeText(&b, res, Options{Sources: map[string][]byte{"a.yaml": []byte(src)}}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("end %d:%d:\n%s\nwant it to hold\n%s", c.endLine, c.endCol, b.String(), c.want)
		}
	}
}

func TestTextOutput(t *testing.T) {
	res, o := sampleResult()
	var b bytes.Buffer
	if err := writeText(&b, res, o); err != nil {
		t.Fatal(err)
	}
	want := `a.yaml:2:9: warning[TL202 eval-batch-smaller-than-train] eval batch "4" is small
  2 |     batch: 4
    |            ^
  note: a.yaml:1:1: train batch set here
  1 | model: llama
    | ------------
  help: raise it
        to 16
  fix: set batch to 16 (safe, apply with --fix)
  see: https://trainlint.github.io/rules/eval-batch-smaller-than-train/

a.yaml:3:7: error[TL001 parse-error] bad
  3 | note: "日本語" # x
    |       ^~~~~~~~

a.yaml:4:1: info[TL703 train-steps-in-search-space] multi-line
  4 | sweep:
    | ^~~~~~
  5 |   lr: [1, 2]
    |   ~~~~~~~~~~
  … |
  8 |   c: 2
    |   ~~~~
  9 |   d: 3
    |   ~~~~

3 findings (1 error, 1 warning, 1 info) in 1 of 2 files, 1 fixable with --fix
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestTextColour(t *testing.T) {
	res, o := sampleResult()
	o.Color = true
	var b bytes.Buffer
	writeText(&b, res, o)
	out := b.String()
	for _, want := range []string{"\x1b[1;33mwarning[TL202", "\x1b[1;31merror[TL001", "\x1b[1;34minfo[TL703", "\x1b[1m" + `eval batch "4" is small` + "\x1b[0m"} {
		if !strings.Contains(out, want) {
			t.Errorf("coloured output lacks %q", want)
		}
	}
	o.Color = false
	b.Reset()
	writeText(&b, res, o)
	if strings.Contains(b.String(), "\x1b") {
		t.Error("escape codes with colour off")
	}
}

func TestSummary(t *testing.T) {
	for _, c := range []struct {
		counts      [4]int
		with, files int
		want        string
	}{
		{[4]int{}, 0, 5, "no findings in 5 files"},
		{[4]int{}, 0, 1, "no findings in 1 file"},
		{[4]int{0, 0, 2, 1}, 2, 5, "3 findings (1 error, 2 warnings) in 2 of 5 files"},
		{[4]int{0, 1, 0, 0}, 1, 1, "1 finding (1 info) in 1 of 1 file"},
	} {
		if got := summary(c.counts, c.with, c.files, 0); got != c.want {
			t.Errorf("summary = %q, want %q", got, c.want)
		}
	}
}

// TestSummaryRunFiles: findings in files read only through a checked file's run (its bases)
// are counted as such; the summary used to say "27 findings in 24 of 1 file".
func TestSummaryRunFiles(t *testing.T) {
	diag := func(file string) lint.Diagnostic {
		return lint.Diagnostic{File: file, Line: 1, Column: 1, Severity: lint.Error, Code: "TL006", Rule: "unresolved-reference", Message: "m"}
	}
	for _, c := range []struct {
		checked []string
		found   []string
		want    string
	}{
		{[]string{"top.py"}, []string{"a.py", "b.py"}, "2 findings (2 errors) in 2 files read through the runs of the 1 file checked\n"},
		{[]string{"top.py", "x.py"}, []string{"top.py", "a.py", "b.py"}, "3 findings (3 errors) in 3 files: 1 of the 2 checked and 2 read through their runs\n"},
		{[]string{"top.py", "a.py"}, []string{"top.py", "a.py"}, "2 findings (2 errors) in 2 of 2 files\n"},
	} {
		res := &lint.Result{Version: 1}
		for _, f := range c.checked {
			res.Files = append(res.Files, lint.FileInfo{Path: f})
		}
		for _, f := range c.found {
			res.Diagnostics = append(res.Diagnostics, diag(f))
		}
		var b bytes.Buffer
		writeText(&b, res, Options{})
		if got := b.String(); !strings.HasSuffix(got, c.want) {
			t.Errorf("checked %v, findings in %v: summary %q, want %q", c.checked, c.found, got[strings.LastIndex(strings.TrimSuffix(got, "\n"), "\n")+1:], c.want)
		}
	}
}

func TestJSONNeverNull(t *testing.T) {
	var b bytes.Buffer
	if err := writeJSON(&b, &lint.Result{Version: 1}, Options{}); err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if string(m["files"]) != "[]" || string(m["diagnostics"]) != "[]" {
		t.Errorf("empty arrays rendered as %s / %s", m["files"], m["diagnostics"])
	}
	if !strings.HasSuffix(b.String(), "}\n") {
		t.Errorf("no trailing newline: %q", b.String())
	}
	res, _ := sampleResult()
	b.Reset()
	writeJSON(&b, res, Options{})
	var back lint.Result
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || len(back.Diagnostics) != 3 || back.Diagnostics[0].Fix == nil {
		t.Errorf("round trip: %v %+v", err, back)
	}
	if !strings.Contains(b.String(), "\n  \"files\": [\n    {\n      \"path\": \"a.yaml\",") {
		t.Errorf("not indented by two spaces:\n%s", b.String())
	}
}

// FuzzTextExcerpt: any source and any positions render without panicking, and every
// underline sits below its line.
func FuzzTextExcerpt(f *testing.F) {
	f.Add("a: 1\n\tb: 日本\n", 2, 3, 2, 5)
	f.Add("x", 0, 0, 0, 0)
	f.Add("a\r\nb\rc\n", 3, 1, 1, 9)
	f.Fuzz(func(t *testing.T, src string, line, col, endLine, endCol int) {
		res := lint.NewResult()
		res.Diagnostics = []lint.Diagnostic{{Code: "TL001", Rule: "parse-error", Severity: lint.Error, File: "f",
			Line: line % 1000, Column: col % 1000, EndLine: endLine % 1000, EndColumn: endCol % 1000,
			Related: []lint.Related{{File: "f", Line: endLine % 1000, Column: col % 1000}}}}
		var b bytes.Buffer
		if err := writeText(&b, res, Options{Sources: map[string][]byte{"f": []byte(src)}}); err != nil {
			t.Fatal(err)
		}
	})
}

// textOf renders one finding of file f at 1-based line and columns [col, endCol) on src.
func textOf(t *testing.T, src string, line, col, endCol int) string {
	t.Helper()
	res := lint.NewResult()
	res.Diagnostics = []lint.Diagnostic{{Code: "TL001", Rule: "parse-error", Severity: lint.Error, File: "f",
		Message: "m", Line: line, Column: col, EndLine: line, EndColumn: endCol}}
	var b bytes.Buffer
	if err := writeText(&b, res, Options{Sources: map[string][]byte{"f": []byte(src)}}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestTextBidiShown: a bidirectional control in the excerpt is shown as <U+202E>, not obeyed,
// and the underline still sits under the span.
func TestTextBidiShown(t *testing.T) {
	out := textOf(t, "a: \"x\u202ey\"\n", 1, 4, 9)
	if strings.Contains(out, "\u202e") || !strings.Contains(out, "1 | a: \"x<U+202E>y\"\n    |    ^"+strings.Repeat("~", 11)+"\n") {
		t.Errorf("excerpt:\n%s", out)
	}
}

// TestTextLongLineWindow: on a long line the excerpt is a window around the span, with the
// same underline as a short line would get, whatever the line's length.
func TestTextLongLineWindow(t *testing.T) {
	for _, n := range []int{10_000, 1_000_000} {
		pre := strings.Repeat("é", n)
		src := "{\"pad\": \"" + pre + "\", \"lr\": 0.5, \"post\": \"" + strings.Repeat("ü", n) + "\"}"
		col := 9 + n + 3 + 1 // the "lr" key
		out := textOf(t, src, 1, col, col+4)
		lines := strings.Split(out, "\n")
		if len(lines) < 3 || len(out) > 2000 {
			t.Fatalf("%d: excerpt of %d bytes:\n%s", n, len(out), out)
		}
		shown, ul := lines[1], lines[2]
		at := strings.Index(shown, `"lr"`)
		if !strings.HasPrefix(shown, "  1 | …") || !strings.HasSuffix(shown, "…") || at < 0 {
			t.Fatalf("%d: window %q", n, shown)
		}
		// The caret is under the key's opening quote: same display column.
		if c := strings.Index(ul, "^"); c < 0 || runewidthOf(shown[:at]) != c || !strings.HasPrefix(ul[c:], "^~~~") {
			t.Errorf("%d: underline %q under %q", n, ul, shown)
		}
	}
}

func runewidthOf(s string) int { return len([]rune(s)) }
