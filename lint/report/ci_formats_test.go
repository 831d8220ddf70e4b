package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/report"
)

// Every format is a view of the one result: each renders the same fixture and the real lint run.
func TestFormatsRegistered(t *testing.T) {
	for _, f := range []string{"sarif", "github", "junit", "gitlab"} {
		if _, ok := report.Get(f); !ok {
			t.Errorf("format %q not registered", f)
		}
	}
}

var ghLine = regexp.MustCompile(`^::(error|warning|notice) ([^:]*)::(.*)$`)

// ghUnescape reverses GitHub's workflow-command escaping.
func ghUnescape(s string) string {
	return strings.NewReplacer("%25", "%", "%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",").Replace(s)
}

type ghCommand struct {
	Level   string
	Props   map[string]string
	Message string
}

func parseGitHub(t *testing.T, out []byte) []ghCommand {
	t.Helper()
	var cmds []ghCommand
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if line == "" {
			continue
		}
		m := ghLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("not a workflow command: %q", line)
		}
		c := ghCommand{Level: m[1], Props: map[string]string{}, Message: ghUnescape(m[3])}
		// An unescaped separator inside a value would break this split: that is what it checks.
		for _, kv := range strings.Split(m[2], ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || strings.ContainsAny(v, "\r\n") {
				t.Fatalf("bad property %q in %q", kv, line)
			}
			c.Props[k] = ghUnescape(v)
		}
		if strings.ContainsAny(m[3], "\r\n") {
			t.Fatalf("raw newline in message: %q", line)
		}
		cmds = append(cmds, c)
	}
	return cmds
}

func TestGitHub(t *testing.T) {
	res := fixtureResult()
	// Property separators and escapes in a path, and every escape in a message.
	odd := res.Diagnostics[0]
	odd.File, odd.Message, odd.Help = "odd,dir/na:me%.yaml", "a 100% match\r\nsecond line, with: colon", ""
	res.Diagnostics = append(res.Diagnostics, odd)
	cmds := parseGitHub(t, render(t, "github", res, report.Options{}))
	if len(cmds) != len(res.Diagnostics) {
		t.Fatalf("%d commands for %d diagnostics", len(cmds), len(res.Diagnostics))
	}
	want := map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Info: "notice"}
	for i, c := range cmds {
		d := res.Diagnostics[i]
		if c.Level != want[d.Severity] {
			t.Errorf("%d: level %q for %v", i, c.Level, d.Severity)
		}
		if c.Props["file"] != lint.NormalizePath(d.File) || c.Props["line"] != strconv.Itoa(d.Line) || c.Props["col"] != strconv.Itoa(d.Column) {
			t.Errorf("%d: location %v, diagnostic %s:%d:%d", i, c.Props, d.File, d.Line, d.Column)
		}
		if c.Props["title"] != d.Code+" "+d.Rule {
			t.Errorf("%d: title %q", i, c.Props["title"])
		}
		if !strings.HasPrefix(c.Message, d.Message) || (d.URL != "" && !strings.HasSuffix(c.Message, "\n"+d.URL)) {
			t.Errorf("%d: message %q", i, c.Message)
		}
		// endColumn only on one-line spans; endLine never before line.
		if _, has := c.Props["endColumn"]; has != (d.EndLine == d.Line && d.EndColumn > d.Column) {
			t.Errorf("%d: endColumn presence wrong: %v for %d:%d-%d:%d", i, c.Props, d.Line, d.Column, d.EndLine, d.EndColumn)
		}
		if el, _ := strconv.Atoi(c.Props["endLine"]); el < d.Line {
			t.Errorf("%d: endLine %d before line %d", i, el, d.Line)
		}
	}
	// The multi-line span 20:3-22:1 ends on line 21 (the end is exclusive).
	for _, c := range cmds {
		if c.Props["line"] == "20" && c.Props["endLine"] != "21" {
			t.Errorf("span ending at column 1 of line 22: endLine %q, want 21", c.Props["endLine"])
		}
	}
	last := cmds[len(cmds)-1]
	if last.Props["file"] != "odd,dir/na:me%.yaml" || !strings.HasPrefix(last.Message, "a 100% match\r\nsecond line, with: colon") {
		t.Errorf("escaping did not round-trip: %+v", last)
	}
	if out := string(render(t, "github", res, report.Options{})); !strings.Contains(out, "file=odd%2Cdir/na%3Ame%25.yaml,") || !strings.Contains(out, "::a 100%25 match%0D%0Asecond line, with: colon") {
		t.Errorf("escapes not as GitHub specifies:\n%s", out)
	}
	if out := render(t, "github", lint.NewResult(), report.Options{}); len(out) != 0 {
		t.Errorf("clean result printed %q", out)
	}
}

type junitDoc struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Props    []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Line      int    `xml:"line,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func decodeJUnit(t *testing.T, b []byte) junitDoc {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("<?xml")) {
		t.Errorf("no XML declaration")
	}
	// Strict decoding of every token first: well-formedness beyond what Unmarshal needs.
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("JUnit XML is not well-formed: %v\n%s", err, b)
			}
			break
		}
	}
	var d junitDoc
	if err := xml.Unmarshal(b, &d); err != nil {
		t.Fatalf("JUnit XML does not decode: %v", err)
	}
	return d
}

func TestJUnit(t *testing.T) {
	res := fixtureResult()
	// Characters XML cannot hold raw, and one it cannot hold at all (U+0001).
	for i := range res.Diagnostics {
		if res.Diagnostics[i].Code == "TL981" {
			res.Diagnostics[i].Message = `a <b> & "c" ]]> d` + "\x01"
		}
	}
	d := decodeJUnit(t, render(t, "junit", res, report.Options{}))
	if d.Tests != 6 || d.Failures != 4 {
		t.Errorf("totals: %d tests, %d failures; want 6 and 4 (the info finding passes)", d.Tests, d.Failures)
	}
	suites := map[string]int{}
	for i, s := range d.Suites {
		suites[s.Name] = i
		if s.Tests != len(s.Cases) {
			t.Errorf("suite %s: tests=%d, %d cases", s.Name, s.Tests, len(s.Cases))
		}
	}
	if len(d.Suites) != 4 {
		t.Errorf("%d suites, want one per file (4)", len(d.Suites))
	}
	clean := d.Suites[suites["configs/clean.toml"]]
	if len(clean.Cases) != 1 || clean.Cases[0].Failure != nil || clean.Failures != 0 {
		t.Errorf("clean file: %+v", clean)
	}
	sft := d.Suites[suites["configs/sft.yaml"]]
	if sft.Failures != 3 || len(sft.Cases) != 3 {
		t.Fatalf("configs/sft.yaml: %d failures in %d cases, want 3", sft.Failures, len(sft.Cases))
	}
	if len(sft.Props) != 2 || sft.Props[1].Value != "huggingface" {
		t.Errorf("properties %+v", sft.Props)
	}
	var seen int
	for _, c := range sft.Cases {
		if c.Failure == nil || c.Classname != "configs/sft.yaml" {
			t.Errorf("case %+v", c)
			continue
		}
		if c.Name == "TL982 same-seed-every-host (data.seed)" {
			seen++
			if c.Failure.Type != "error" || !strings.Contains(c.Failure.Text, "configs/sft.yaml:") {
				t.Errorf("failure %+v", c.Failure)
			}
		}
		if strings.HasPrefix(c.Name, "TL981") {
			if !strings.HasPrefix(c.Failure.Message, `a <b> & "c" ]]> d`) || !strings.Contains(c.Failure.Text, "train batch set here") || c.Line != 12 {
				t.Errorf("TL981 case: %+v", c)
			}
		}
	}
	if seen != 2 {
		t.Errorf("%d testcases for the two identical TL982 findings", seen)
	}
	// The normalised path: "./configs/näive.yaml" is reported as "configs/näive.yaml".
	if _, ok := suites["configs/näive.yaml"]; !ok {
		t.Errorf("suites %v", suites)
	}
	// An empty result is still a valid report with no suites.
	if e := decodeJUnit(t, render(t, "junit", lint.NewResult(), report.Options{})); e.Tests != 0 || len(e.Suites) != 0 {
		t.Errorf("empty result: %+v", e)
	}
}

func TestGitLab(t *testing.T) {
	res := fixtureResult()
	out := render(t, "gitlab", res, report.Options{})
	var raw []map[string]any
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatalf("GitLab report is not JSON: %v", err)
	}
	if len(raw) != len(res.Diagnostics) {
		t.Fatalf("%d issues for %d diagnostics", len(raw), len(res.Diagnostics))
	}
	fps := map[string]bool{}
	for i, is := range raw {
		d := res.Diagnostics[i]
		for _, k := range []string{"description", "check_name", "fingerprint", "severity"} {
			if s, _ := is[k].(string); s == "" {
				t.Errorf("%d: required %q missing: %v", i, k, is)
			}
		}
		loc, _ := is["location"].(map[string]any)
		lines, _ := loc["lines"].(map[string]any)
		begin, _ := lines["begin"].(float64)
		end, _ := lines["end"].(float64)
		if loc["path"] != lint.NormalizePath(d.File) || int(begin) != d.Line || end < begin {
			t.Errorf("%d: location %v for %s:%d", i, loc, d.File, d.Line)
		}
		sev := map[lint.Severity]string{lint.Error: "critical", lint.Warning: "major", lint.Info: "info"}[d.Severity]
		if is["severity"] != sev {
			t.Errorf("%d: severity %v for %v", i, is["severity"], d.Severity)
		}
		fp := is["fingerprint"].(string)
		if fps[fp] {
			t.Errorf("%d: fingerprint %s not unique", i, fp)
		}
		fps[fp] = true
		if is["check_name"] != d.Rule || !strings.Contains(is["description"].(string), d.Message) {
			t.Errorf("%d: %v", i, is)
		}
	}
	// Same fingerprints as SARIF: one identity across formats and the baseline.
	sd := decodeSARIF(t, render(t, "sarif", res, report.Options{}))
	for i, r := range sd.Runs[0].Results {
		if r.PartialFingerprints["trainlint/v1"] != raw[i]["fingerprint"] {
			t.Errorf("%d: SARIF and GitLab fingerprints differ", i)
		}
	}
	if got := strings.TrimSpace(string(render(t, "gitlab", lint.NewResult(), report.Options{}))); got != "[]" {
		t.Errorf("empty result: %q, want []", got)
	}
}

// The real lint run renders in every format.
func TestCIFormatsOnRealRun(t *testing.T) {
	res, src := realResult()
	if len(res.Diagnostics) == 0 {
		t.Fatal("the real run found nothing")
	}
	o := report.Options{Rules: fixtureRules(), Sources: src}
	if n := len(parseGitHub(t, render(t, "github", res, o))); n != len(res.Diagnostics) {
		t.Errorf("github: %d commands", n)
	}
	jd := decodeJUnit(t, render(t, "junit", res, o))
	if jd.Failures != len(res.Diagnostics) || len(jd.Suites) != 3 {
		t.Errorf("junit: %d failures in %d suites", jd.Failures, len(jd.Suites))
	}
	var gl []map[string]any
	if err := json.Unmarshal(render(t, "gitlab", res, o), &gl); err != nil || len(gl) != len(res.Diagnostics) {
		t.Errorf("gitlab: %v, %d issues", err, len(gl))
	}
	sd := decodeSARIF(t, render(t, "sarif", res, o))
	if len(sd.Runs[0].Results) != len(res.Diagnostics) {
		t.Errorf("sarif: %d results", len(sd.Runs[0].Results))
	}
}
