package report

import (
	"encoding/xml"
	"io"
	"strings"

	"github.com/trainlint/trainlint/lint"
)

func init() { Register("junit", writeJUnit) }

// JUnit XML, the dialect CI servers read (Jenkins, GitLab, Azure Pipelines, CircleCI): one
// testsuite per linted file, one testcase per finding, and one passing testcase for a file with
// no findings, so that clean files show up as passed rather than missing. A finding at or above
// --fail-on (warning by default) carries a <failure> whose type is the severity; one below it
// (info, by default) is a passing testcase with the finding in <system-out>, so the test report
// fails exactly when the run does (JUnit has no "warning" outcome). Testcase names hold the rule
// and key path but no line, so a CI's test history follows a finding when lines move.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties *junitPropsList `xml:"properties,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitPropsList struct {
	Props []junitProp `xml:"property"`
}

type junitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Details string `xml:",chardata"`
}

func writeJUnit(w io.Writer, res *lint.Result, o Options) error {
	threshold := o.failureThreshold()
	out := junitSuites{Name: "trainlint"}
	index := map[string]int{}
	suite := func(path string) *junitSuite {
		p := lint.NormalizePath(path)
		i, ok := index[p]
		if !ok {
			i = len(out.Suites)
			index[p] = i
			out.Suites = append(out.Suites, junitSuite{Name: p})
		}
		return &out.Suites[i]
	}
	for _, f := range res.Files {
		s := suite(f.Path)
		var props []junitProp
		if f.Format != "" {
			props = append(props, junitProp{"format", f.Format})
		}
		if f.Framework != "" {
			props = append(props, junitProp{"framework", f.Framework})
		}
		if len(props) > 0 {
			s.Properties = &junitPropsList{props}
		}
	}
	for _, d := range res.Diagnostics {
		s := suite(d.File)
		name := d.Code + " " + d.Rule
		if d.Key != "" {
			name += " (" + d.Key + ")"
		}
		var details strings.Builder
		details.WriteString(s.Name + ":" + itoa(d.Line) + ":" + itoa(d.Column) + ": " + d.Severity.String() + ": " + d.Message + " [" + d.Code + " " + d.Rule + "]\n")
		for _, r := range d.Related {
			details.WriteString(lint.NormalizePath(r.File) + ":" + itoa(r.Line) + ":" + itoa(r.Column) + ": " + r.Message + "\n")
		}
		if d.Help != "" {
			details.WriteString(d.Help + "\n")
		}
		if d.URL != "" {
			details.WriteString(d.URL + "\n")
		}
		c := junitCase{Name: name, Classname: s.Name, File: s.Name, Line: d.Line}
		if d.Severity >= threshold {
			c.Failure = &junitFailure{Message: d.Message, Type: d.Severity.String(), Details: details.String()}
			s.Failures++
		} else {
			c.SystemOut = details.String()
		}
		s.Cases = append(s.Cases, c)
	}
	for i := range out.Suites {
		s := &out.Suites[i]
		if len(s.Cases) == 0 {
			s.Cases = []junitCase{{Name: "trainlint", Classname: s.Name, File: s.Name}}
		}
		s.Tests = len(s.Cases)
		out.Tests += s.Tests
		out.Failures += s.Failures
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
