package report

import (
	"encoding/json"
	"io"

	"github.com/trainlint/trainlint/lint"
)

func init() { Register("gitlab", writeGitLab) }

// GitLab Code Quality report (a subset of the Code Climate issue format): a JSON array of
// issues, each with description, check_name, fingerprint, severity and location.path /
// location.lines.begin, which GitLab requires; plus type, categories, content and lines.end.
//
// Severity mapping: error → critical, warning → major, info → info. GitLab's scale is info,
// minor, major, critical, blocker; an error-level finding is a config that will fail or silently
// train the wrong thing, which is critical but not a blocker of the merge request (the CI job's
// exit status is), and a warning is a likely pitfall, major. minor and blocker are unused.
//
// The fingerprint is lint.Fingerprints' (file, rule, key path, occurrence), so GitLab's MR widget
// compares findings across the source and target branches by identity, not by line.
type gitlabIssue struct {
	Type        string         `json:"type"`
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Categories  []string       `json:"categories"`
	Content     *gitlabContent `json:"content,omitempty"`
	Location    gitlabLocation `json:"location"`
}

type gitlabContent struct {
	Body string `json:"body"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
	End   int `json:"end"`
}

func gitlabSeverity(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "critical"
	case lint.Warning:
		return "major"
	}
	return "info"
}

func writeGitLab(w io.Writer, res *lint.Result, _ Options) error {
	fps := lint.Fingerprints(res.Diagnostics)
	issues := []gitlabIssue{}
	for i, d := range res.Diagnostics {
		line := d.Line
		if line < 1 {
			line = 1
		}
		is := gitlabIssue{
			Type: "issue", Description: d.Code + " " + d.Message, CheckName: d.Rule,
			Fingerprint: fps[i], Severity: gitlabSeverity(d.Severity), Categories: []string{"Bug Risk"},
			Location: gitlabLocation{Path: lint.NormalizePath(d.File), Lines: gitlabLines{Begin: line, End: lastLine(line, d.EndLine, d.EndColumn)}},
		}
		body := d.Help
		if d.URL != "" {
			if body != "" {
				body += "\n\n"
			}
			body += d.URL
		}
		if body != "" {
			is.Content = &gitlabContent{Body: body}
		}
		issues = append(issues, is)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(issues)
}
