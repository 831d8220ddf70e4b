package report

import (
	"encoding/json"
	"io"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
)

func init() { Register("sarif", writeSARIF) }

// SARIF 2.1.0 (OASIS). The $schema is the final (errata 01) schema the SARIF validator expects;
// the output passes Microsoft's validator (default and GitHub rule kinds, see sarif_test.go).
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// sarifFingerprintKey is the partialFingerprints property: a versioned name, so a change of
	// scheme (lint.FingerprintVersion) starts a new series instead of mismatching the old one.
	sarifFingerprintKey = "trainlint/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool       `json:"tool"`
	Artifacts  []sarifArtifact `json:"artifacts,omitempty"`
	Results    []sarifResult   `json:"results"`
	ColumnKind string          `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules,omitempty"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name,omitempty"`
	ShortDescription     *sarifText         `json:"shortDescription,omitempty"`
	FullDescription      *sarifText         `json:"fullDescription,omitempty"`
	Help                 *sarifText         `json:"help,omitempty"`
	HelpURI              string             `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
	Properties           *sarifProperties   `json:"properties,omitempty"`
}

type sarifConfiguration struct {
	Enabled *bool  `json:"enabled,omitempty"`
	Level   string `json:"level"`
}

type sarifProperties struct {
	Tags []string `json:"tags,omitempty"`
}

type sarifArtifact struct {
	Location       sarifArtifactLocation `json:"location"`
	Roles          []string              `json:"roles,omitempty"`
	SourceLanguage string                `json:"sourceLanguage,omitempty"`
}

type sarifArtifactLocation struct {
	URI   string `json:"uri"`
	Index *int   `json:"index,omitempty"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Fixes               []sarifFix        `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifText            `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifRegion struct {
	StartLine   int              `json:"startLine"`
	StartColumn int              `json:"startColumn,omitempty"`
	EndLine     int              `json:"endLine,omitempty"`
	EndColumn   int              `json:"endColumn,omitempty"`
	Snippet     *sarifInsertText `json:"snippet,omitempty"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion      `json:"deletedRegion"`
	InsertedContent *sarifInsertText `json:"insertedContent,omitempty"`
}

type sarifInsertText struct {
	Text string `json:"text"`
}

// writeSARIF writes one run: the rule catalogue (Options.Rules, plus a minimal descriptor for any
// rule a diagnostic names that the catalogue lacks), the linted files as artifacts, and one
// result per diagnostic.
func writeSARIF(w io.Writer, res *lint.Result, o Options) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "trainlint", Version: lint.Version, SemanticVersion: semver(lint.Version),
			InformationURI: lint.SiteURL,
		}},
		Results:    []sarifResult{},
		ColumnKind: "unicodeCodePoints",
	}
	ruleIndex := map[string]int{}
	for _, r := range lint.Catalogue(o.Rules) {
		if _, dup := ruleIndex[r.Code]; dup {
			continue
		}
		ruleIndex[r.Code] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(r))
	}

	artifactIndex := map[string]int{}
	addArtifact := func(file, format string) int {
		uri := sarifURI(file)
		if i, ok := artifactIndex[uri]; ok {
			if format != "" && run.Artifacts[i].SourceLanguage == "" {
				run.Artifacts[i].SourceLanguage = format
			}
			return i
		}
		artifactIndex[uri] = len(run.Artifacts)
		run.Artifacts = append(run.Artifacts, sarifArtifact{
			Location: sarifArtifactLocation{URI: uri}, Roles: []string{"analysisTarget"}, SourceLanguage: format,
		})
		return artifactIndex[uri]
	}
	for _, f := range res.Files {
		addArtifact(f.Path, f.Format)
	}
	loc := func(file string) sarifArtifactLocation {
		i := addArtifact(file, "")
		return sarifArtifactLocation{URI: run.Artifacts[i].Location.URI, Index: &i}
	}

	fps := lint.Fingerprints(res.Diagnostics)
	lines := map[string]*doc.LineIndex{} // each source's line index, made once (not once a finding)
	for k, d := range res.Diagnostics {
		ri, ok := ruleIndex[d.Code]
		if !ok {
			ri = len(run.Tool.Driver.Rules)
			ruleIndex[d.Code] = ri
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOfDiagnostic(d))
		}
		r := sarifResult{
			RuleID: d.Code, RuleIndex: ri, Level: sarifLevel(d.Severity),
			Message: sarifText{Text: sentence(d.Message)},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysicalLocation{
				ArtifactLocation: loc(d.File),
				Region:           sarifRegionOf(d.Line, d.Column, d.EndLine, d.EndColumn),
			}}},
			PartialFingerprints: map[string]string{sarifFingerprintKey: fps[k]},
		}
		for j, rel := range d.Related {
			id := j + 1
			l := sarifLocation{ID: &id, PhysicalLocation: sarifPhysicalLocation{
				ArtifactLocation: loc(rel.File), Region: sarifRegionOf(rel.Line, rel.Column, rel.EndLine, rel.EndColumn),
			}}
			if rel.Message != "" {
				l.Message = &sarifText{Text: sentence(rel.Message)}
			}
			r.RelatedLocations = append(r.RelatedLocations, l)
		}
		if fx := sarifFixOf(d.Fix, loc); fx != nil {
			r.Fixes = []sarifFix{*fx}
		}
		if reg := r.Locations[0].PhysicalLocation.Region; reg != nil && reg.EndLine > 0 {
			// The snippet lets viewers without the repository show the offending text.
			src := o.Sources[d.File]
			x, seen := lines[d.File]
			if !seen && src != nil {
				// The findings' own line index: lines end at \n, \r\n or a lone \r.
				x = doc.NewLineIndex(src)
				lines[d.File] = x
			}
			if t, ok := textRange(src, x, reg.StartLine, reg.StartColumn, reg.EndLine, reg.EndColumn); ok && t != "" {
				reg.Snippet = &sarifInsertText{Text: t}
			}
		}
		run.Results = append(run.Results, r)
	}

	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

// sarifRuleOf describes a catalogue entry as a SARIF reportingDescriptor.
func sarifRuleOf(r lint.RuleInfo) sarifRule {
	rationale := plainText(r.Rationale)
	fix := plainText(r.Fix)
	var md strings.Builder
	if r.Fix != "" {
		md.WriteString(strings.TrimSpace(r.Fix) + "\n\n")
	}
	if r.Rationale != "" {
		md.WriteString("**Why:** " + strings.TrimSpace(r.Rationale) + "\n\n")
	}
	md.WriteString("[" + r.Name + "](" + r.URL + ")")
	if pb := r.Playbook; pb != "" {
		md.WriteString(" · [Deep Learning Tuning Playbook](" + pb + ")")
	}
	var txt strings.Builder
	if fix != "" {
		txt.WriteString(fix + "\n\n")
	}
	if rationale != "" {
		txt.WriteString("Why: " + rationale + "\n\n")
	}
	txt.WriteString("See " + r.URL)
	sr := sarifRule{
		ID: r.Code, Name: r.Name,
		ShortDescription:     &sarifText{Text: sentence(r.Title)},
		Help:                 &sarifText{Text: txt.String(), Markdown: md.String()},
		HelpURI:              r.URL,
		DefaultConfiguration: sarifConfiguration{Level: sarifLevel(r.Severity)},
		Properties:           &sarifProperties{Tags: []string{r.Category}},
	}
	sr.FullDescription = &sarifText{Text: rationale}
	if rationale == "" {
		sr.FullDescription.Text = sr.ShortDescription.Text
	}
	if r.Off {
		off := false
		sr.DefaultConfiguration.Enabled = &off
	}
	return sr
}

// sarifRuleOfDiagnostic describes a rule known only from a diagnostic (a catalogue was not passed).
func sarifRuleOfDiagnostic(d lint.Diagnostic) sarifRule {
	// GitHub's ingestion requires shortDescription, fullDescription and help on every rule; the
	// rule's name, spelt as words, is the best description a diagnostic carries.
	title := strings.ReplaceAll(d.Rule, "-", " ")
	if title == "" {
		title = d.Code
	}
	title = sentence(strings.ToUpper(title[:1]) + title[1:])
	help := d.Help
	if help == "" {
		help = title
	}
	if d.URL != "" {
		help += "\n\nSee " + d.URL
	}
	sr := sarifRule{ID: d.Code, Name: d.Rule, HelpURI: d.URL, DefaultConfiguration: sarifConfiguration{Level: sarifLevel(d.Severity)},
		ShortDescription: &sarifText{Text: title}, FullDescription: &sarifText{Text: title}, Help: &sarifText{Text: help}}
	if d.Category != "" {
		sr.Properties = &sarifProperties{Tags: []string{d.Category}}
	}
	return sr
}

func sarifLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	}
	return "note"
}

// sarifRegionOf maps our 1-based, end-exclusive positions onto SARIF's, which use the same
// convention (endColumn is the column after the last character). Unknown parts are left out; an
// end before the start (never produced by the engine) is dropped rather than written invalid. A
// finding without a line sits on line 1, as the engine places findings nothing locates (GitHub
// needs a region).
func sarifRegionOf(line, col, endLine, endCol int) *sarifRegion {
	if line < 1 {
		return &sarifRegion{StartLine: 1}
	}
	r := &sarifRegion{StartLine: line}
	if col >= 1 {
		r.StartColumn = col
	}
	if endLine >= line && endCol >= 1 && r.StartColumn > 0 && (endLine > line || endCol >= col) {
		r.EndLine, r.EndColumn = endLine, endCol
	}
	return r
}

func sarifFixOf(f *lint.Fix, loc func(string) sarifArtifactLocation) *sarifFix {
	if f == nil || len(f.Edits) == 0 {
		return nil
	}
	fx := &sarifFix{Description: sarifText{Text: sentence(f.Message)}}
	byFile := map[string]int{}
	for _, e := range f.Edits {
		// A replacement needs a complete, ordered region; a fix with any edit that lacks one is
		// left out whole, since applying part of a fix is worse than not offering it.
		if e.Line < 1 || e.Column < 1 || e.EndLine < e.Line || e.EndColumn < 1 || (e.EndLine == e.Line && e.EndColumn < e.Column) {
			return nil
		}
		i, ok := byFile[e.File]
		if !ok {
			i = len(fx.ArtifactChanges)
			byFile[e.File] = i
			fx.ArtifactChanges = append(fx.ArtifactChanges, sarifArtifactChange{ArtifactLocation: loc(e.File)})
		}
		rep := sarifReplacement{DeletedRegion: sarifRegion{StartLine: e.Line, StartColumn: e.Column, EndLine: e.EndLine, EndColumn: e.EndColumn}}
		if e.NewText != "" {
			rep.InsertedContent = &sarifInsertText{Text: e.NewText}
		}
		fx.ArtifactChanges[i].Replacements = append(fx.ArtifactChanges[i].Replacements, rep)
	}
	return fx
}

// textRange returns the text between two 1-based (line, code-point column) positions, the end
// exclusive; false when either is not in src.
func textRange(src []byte, x *doc.LineIndex, line, col, endLine, endCol int) (string, bool) {
	if src == nil {
		return "", false
	}
	start, ok1 := x.OffsetOK(line, col)
	end, ok2 := x.OffsetOK(endLine, endCol)
	if !ok1 || !ok2 || end < start {
		return "", false
	}
	return string(src[start:end]), true
}

// sarifURI turns a reported path into a URI reference: relative paths stay relative (GitHub
// resolves them against the checkout), with forward slashes and percent-encoding; absolute paths
// become file:// URIs. No uriBaseId: giving one meaning would need run.originalUriBaseIds with
// an absolute file:// URI of the working folder, which makes the log depend on the machine, and
// GitHub and the validator accept plain relative references.
func sarifURI(p string) string {
	p = lint.NormalizePath(p)
	if strings.HasPrefix(p, "/") {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	if len(p) >= 3 && p[1] == ':' && p[2] == '/' { // a Windows drive path
		return (&url.URL{Scheme: "file", Path: "/" + p}).String()
	}
	return (&url.URL{Path: path.Clean(p)}).String()
}

// semver returns v when it is a semantic version (SARIF's semanticVersion must be one).
func semver(v string) string {
	if semverRE().MatchString(v) {
		return v
	}
	return ""
}

// sentence ends a message with a period. Our messages are lowercase fragments without one (the
// house style), but SARIF viewers show them as sentences and the SARIF validator asks for a
// terminal period (SARIF2001).
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	switch s[len(s)-1] {
	case '.', '!', '?':
		return s
	}
	return s + "."
}

// Compiled on first use: only a SARIF report needs them, not every run.
var (
	semverRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
	})
	mdLink = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`) })
	mdCode = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`]*)`") })
	mdItem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([-*+]|\d+[.)])\s`) })
)

// plainText renders our Markdown (rationale, fix) as plain text for SARIF's text fields: links
// become "text (url)", code spans and bold markers lose their markup, paragraphs are kept and
// wrapped lines inside a paragraph are joined except where a list item starts. Single '*' and
// '_' stay: keys are snake_case.
func plainText(md string) string {
	md = strings.TrimSpace(md)
	if md == "" {
		return ""
	}
	md = mdLink().ReplaceAllString(md, "$1 ($2)")
	md = mdCode().ReplaceAllString(md, "$1")
	md = strings.ReplaceAll(md, "**", "")
	var paras []string
	for _, p := range strings.Split(md, "\n\n") {
		// Join wrapped lines, but start each list item on its own line.
		var items []string
		for _, line := range strings.Split(p, "\n") {
			t := strings.TrimSpace(line)
			if t == "" {
				continue
			}
			if len(items) == 0 || mdItem().MatchString(t) {
				items = append(items, t)
			} else {
				items[len(items)-1] += " " + t
			}
		}
		for i, it := range items {
			items[i] = strings.Join(strings.Fields(it), " ")
		}
		if len(items) > 0 {
			paras = append(paras, strings.Join(items, "\n"))
		}
	}
	return strings.Join(paras, "\n\n")
}

// itoa is strconv.Itoa, short for the other formats' property strings.
func itoa(i int) string { return strconv.Itoa(i) }
