package report_test

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/report"
	"github.com/trainlint/trainlint/rules"
)

// sarifDoc is the subset of SARIF the assertions read.
type sarifDoc struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		ColumnKind string `json:"columnKind"`
		Tool       struct {
			Driver struct {
				Name           string `json:"name"`
				Version        string `json:"version"`
				InformationURI string `json:"informationUri"`
				Rules          []struct {
					ID               string `json:"id"`
					Name             string `json:"name"`
					ShortDescription struct{ Text string }
					FullDescription  struct{ Text string }
					Help             struct{ Text, Markdown string }
					HelpURI          string `json:"helpUri"`
					Default          struct {
						Enabled *bool  `json:"enabled"`
						Level   string `json:"level"`
					} `json:"defaultConfiguration"`
					Properties struct{ Tags []string }
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Artifacts []struct {
			Location       struct{ URI string }
			SourceLanguage string `json:"sourceLanguage"`
		} `json:"artifacts"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation sarifPhys `json:"physicalLocation"`
			} `json:"locations"`
			RelatedLocations []struct {
				PhysicalLocation sarifPhys `json:"physicalLocation"`
				Message          struct{ Text string }
			} `json:"relatedLocations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Fixes               []struct {
				Description     struct{ Text string }
				ArtifactChanges []struct {
					ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					Replacements     []struct {
						DeletedRegion   sarifReg `json:"deletedRegion"`
						InsertedContent *struct{ Text string }
					}
				} `json:"artifactChanges"`
			} `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

type sarifPhys struct {
	ArtifactLocation struct {
		URI   string `json:"uri"`
		Index *int   `json:"index"`
	} `json:"artifactLocation"`
	Region sarifReg `json:"region"`
}

type sarifReg struct {
	StartLine, StartColumn, EndLine, EndColumn int
	Snippet                                    *struct{ Text string }
}

func decodeSARIF(t *testing.T, b []byte) sarifDoc {
	t.Helper()
	var d sarifDoc
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("SARIF does not decode: %v", err)
	}
	if len(d.Runs) != 1 {
		t.Fatalf("want one run, got %d", len(d.Runs))
	}
	return d
}

func TestSARIFContent(t *testing.T) {
	res := fixtureResult()
	cat := fixtureRules()
	d := decodeSARIF(t, render(t, "sarif", res, report.Options{Rules: cat}))
	if d.Version != "2.1.0" || !strings.Contains(d.Schema, "sarif-schema-2.1.0.json") {
		t.Errorf("header: version %q, $schema %q", d.Version, d.Schema)
	}
	run := d.Runs[0]
	drv := run.Tool.Driver
	if drv.Name != "trainlint" || drv.Version != lint.Version || drv.InformationURI != lint.SiteURL {
		t.Errorf("driver: %+v", drv)
	}
	if run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("columnKind %q", run.ColumnKind)
	}
	// Every catalogue rule is described once, with its metadata.
	byID := map[string]int{}
	for i, r := range drv.Rules {
		if _, dup := byID[r.ID]; dup {
			t.Errorf("rule %s described twice", r.ID)
		}
		byID[r.ID] = i
	}
	for _, r := range cat {
		i, ok := byID[r.Code]
		if !ok {
			t.Errorf("rule %s missing from driver.rules", r.Code)
			continue
		}
		sr := drv.Rules[i]
		if sr.Name != r.Name || sr.HelpURI != r.URL() || sr.ShortDescription.Text == "" || sr.Help.Text == "" || sr.Help.Markdown == "" {
			t.Errorf("rule %s: incomplete descriptor %+v", r.Code, sr)
		}
		if want := map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Info: "note"}[r.Severity]; sr.Default.Level != want {
			t.Errorf("rule %s: level %q, want %q", r.Code, sr.Default.Level, want)
		}
		if len(sr.Properties.Tags) == 0 || sr.Properties.Tags[0] != r.Category {
			t.Errorf("rule %s: tags %v, want category %q", r.Code, sr.Properties.Tags, r.Category)
		}
	}
	eb := drv.Rules[byID["TL981"]]
	// fullDescription is plain text: no Markdown markers, paragraphs kept, links spelled out.
	if strings.ContainsAny(eb.FullDescription.Text, "`*") || !strings.Contains(eb.FullDescription.Text, "the playbook (https://github.com/google-research/tuning_playbook)") {
		t.Errorf("fullDescription not plain text: %q", eb.FullDescription.Text)
	}
	if !strings.Contains(eb.Help.Markdown, "`per_device_eval_batch_size`") || !strings.Contains(eb.Help.Markdown, ruleEvalBatch.PlaybookLink()) {
		t.Errorf("help.markdown lacks the fix or the playbook link: %q", eb.Help.Markdown)
	}
	if en := drv.Rules[byID["TL983"]].Default.Enabled; en == nil || *en {
		t.Errorf("off-by-default rule not marked disabled")
	}

	// Artifacts: every linted file once, relative, forward slashes, percent-encoded.
	var uris []string
	for _, a := range run.Artifacts {
		uris = append(uris, a.Location.URI)
	}
	wantURIs := []string{"configs/sft.yaml", "configs/ds%20config.json", "configs/clean.toml", "configs/n%C3%A4ive.yaml"}
	if strings.Join(uris, " ") != strings.Join(wantURIs, " ") {
		t.Errorf("artifacts %v, want %v", uris, wantURIs)
	}

	if len(run.Results) != len(res.Diagnostics) {
		t.Fatalf("%d results for %d diagnostics", len(run.Results), len(res.Diagnostics))
	}
	fps := map[string]bool{}
	for i, r := range run.Results {
		dg := res.Diagnostics[i]
		if r.RuleID != dg.Code || drv.Rules[r.RuleIndex].ID != dg.Code {
			t.Errorf("result %d: ruleId %q, ruleIndex -> %q, want %q", i, r.RuleID, drv.Rules[r.RuleIndex].ID, dg.Code)
		}
		if !strings.HasSuffix(r.Message.Text, ".") || !strings.HasPrefix(r.Message.Text, dg.Message) {
			t.Errorf("result %d: message %q", i, r.Message.Text)
		}
		pl := r.Locations[0].PhysicalLocation
		if pl.Region.StartLine != dg.Line || pl.Region.StartColumn != dg.Column || pl.Region.EndLine != dg.EndLine || pl.Region.EndColumn != dg.EndColumn {
			t.Errorf("result %d: region %+v, diagnostic %d:%d-%d:%d", i, pl.Region, dg.Line, dg.Column, dg.EndLine, dg.EndColumn)
		}
		if ix := pl.ArtifactLocation.Index; ix == nil || run.Artifacts[*ix].Location.URI != pl.ArtifactLocation.URI {
			t.Errorf("result %d: artifact index does not match uri %q", i, pl.ArtifactLocation.URI)
		}
		fp := r.PartialFingerprints["trainlint/v1"]
		if len(fp) != 32 || fps[fp] {
			t.Errorf("result %d: fingerprint %q missing or not unique", i, fp)
		}
		fps[fp] = true
		if len(r.RelatedLocations) != len(dg.Related) {
			t.Errorf("result %d: %d related locations, want %d", i, len(r.RelatedLocations), len(dg.Related))
		}
		if (dg.Fix != nil) != (len(r.Fixes) == 1) {
			t.Errorf("result %d: fix presence differs", i)
		}
	}
	for _, r := range run.Results {
		if r.RuleID == "TL981" {
			rel := r.RelatedLocations[1]
			if rel.PhysicalLocation.ArtifactLocation.URI != "configs/ds%20config.json" || rel.Message.Text != "deepspeed sets its own batch." ||
				rel.PhysicalLocation.Region.StartLine != 3 || rel.PhysicalLocation.Region.StartColumn != 5 ||
				rel.PhysicalLocation.Region.EndLine != 3 || rel.PhysicalLocation.Region.EndColumn != 27 {
				t.Errorf("related location: %+v", rel)
			}
			if reg := r.RelatedLocations[0].PhysicalLocation.Region; reg.EndLine != 0 || reg.EndColumn != 0 {
				t.Errorf("a related location with no end got region %+v", reg)
			}
			rep := r.Fixes[0].ArtifactChanges[0].Replacements[0]
			if rep.DeletedRegion != (sarifReg{StartLine: 12, StartColumn: 29, EndLine: 12, EndColumn: 30}) || rep.InsertedContent == nil || rep.InsertedContent.Text != "16" {
				t.Errorf("fix replacement: %+v", rep)
			}
		}
		if r.RuleID == "TL984" && r.Fixes[0].ArtifactChanges[0].Replacements[0].InsertedContent != nil {
			t.Errorf("a deletion carries insertedContent")
		}
	}
}

// A fix with an edit that has no usable region is left out whole rather than written invalid.
func TestSARIFDropsUnplaceableFix(t *testing.T) {
	res := fixtureResult()
	for i := range res.Diagnostics {
		if res.Diagnostics[i].Fix != nil {
			res.Diagnostics[i].Fix.Edits = append(res.Diagnostics[i].Fix.Edits, lint.Edit{File: res.Diagnostics[i].File, Line: 5, Column: 3, EndLine: 5, EndColumn: 1})
		}
	}
	d := decodeSARIF(t, render(t, "sarif", res, report.Options{Rules: fixtureRules()}))
	for i, r := range d.Runs[0].Results {
		if len(r.Fixes) != 0 {
			t.Errorf("result %d kept a fix with an inverted region", i)
		}
	}
}

// Without a catalogue the rules are described from the diagnostics, so ruleIndex stays valid.
func TestSARIFWithoutCatalogue(t *testing.T) {
	d := decodeSARIF(t, render(t, "sarif", fixtureResult(), report.Options{}))
	run := d.Runs[0]
	if len(run.Tool.Driver.Rules) != 4 {
		t.Errorf("%d rules described, want the 4 the diagnostics name", len(run.Tool.Driver.Rules))
	}
	for i, r := range run.Results {
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %d: ruleIndex %d names %q, ruleId %q", i, r.RuleIndex, run.Tool.Driver.Rules[r.RuleIndex].ID, r.RuleID)
		}
	}
}

// Snippets come from Options.Sources, cut by code-point columns.
func TestSARIFSnippet(t *testing.T) {
	res := lint.NewResult()
	res.Files = []lint.FileInfo{{Path: "a.yaml", Format: "yaml"}}
	res.Diagnostics = []lint.Diagnostic{{Code: "TL981", Rule: "x", Severity: lint.Warning, File: "a.yaml",
		Line: 2, Column: 7, EndLine: 2, EndColumn: 10, Message: "m"}}
	src := map[string][]byte{"a.yaml": []byte("a: 1\nnäme: ünï # c\n")}
	d := decodeSARIF(t, render(t, "sarif", res, report.Options{Sources: src}))
	sn := d.Runs[0].Results[0].Locations[0].PhysicalLocation.Region.Snippet
	if sn == nil || sn.Text != "ünï" {
		t.Errorf("snippet %+v, want %q", sn, "ünï")
	}
}

// TestSARIFSnippetLineEnds: a snippet is cut from the line the finding names, whatever ends the
// lines (\n, \r\n or a lone \r, as the findings count them).
func TestSARIFSnippetLineEnds(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		res := lint.NewResult()
		res.Files = []lint.FileInfo{{Path: "a.yaml", Format: "yaml"}}
		res.Diagnostics = []lint.Diagnostic{{Code: "TL981", Rule: "x", Severity: lint.Warning, File: "a.yaml",
			Line: 3, Column: 1, EndLine: 3, EndColumn: 5, Message: "m"}}
		src := map[string][]byte{"a.yaml": []byte("a: 1" + nl + "b: 2" + nl + "c: 3" + nl)}
		d := decodeSARIF(t, render(t, "sarif", res, report.Options{Sources: src}))
		if sn := d.Runs[0].Results[0].Locations[0].PhysicalLocation.Region.Snippet; sn == nil || sn.Text != "c: 3" {
			t.Errorf("%q line ends: snippet %+v, want %q", nl, sn, "c: 3")
		}
	}
}

// manyFindings is a file of n lines, each with a finding on its key (a snippet to cut).
func manyFindings(n int) (*lint.Result, map[string][]byte) {
	res := lint.NewResult()
	res.Files = []lint.FileInfo{{Path: "a.yaml", Format: "yaml"}}
	var src []byte
	for i := 1; i <= n; i++ {
		src = append(src, "kö"+strconv.Itoa(i)+": 1\n"...)
		res.Diagnostics = append(res.Diagnostics, lint.Diagnostic{Code: "TL981", Rule: "x", Severity: lint.Warning, File: "a.yaml",
			Line: i, Column: 1, EndLine: i, EndColumn: 3 + len(strconv.Itoa(i)), Message: "m"})
	}
	return res, map[string][]byte{"a.yaml": src}
}

// TestSARIFSnippetsOfManyLines: the snippets of findings far down a file are its own lines'
// (each source's line starts are found once: BenchmarkSARIFManyFindings).
func TestSARIFSnippetsOfManyLines(t *testing.T) {
	res, src := manyFindings(3000)
	d := decodeSARIF(t, render(t, "sarif", res, report.Options{Sources: src}))
	for _, i := range []int{0, 1, 1499, 2999} {
		sn := d.Runs[0].Results[i].Locations[0].PhysicalLocation.Region.Snippet
		if want := "kö" + strconv.Itoa(i+1); sn == nil || sn.Text != want {
			t.Errorf("result %d: snippet %+v, want %q", i, sn, want)
		}
	}
}

// BenchmarkSARIFManyFindings writes 20,000 findings with snippets: each snippet's offset used
// to be found by scanning the file from its start (7-10 s through the CLI).
func BenchmarkSARIFManyFindings(b *testing.B) {
	res, src := manyFindings(20000)
	w, _ := report.Get("sarif")
	for i := 0; i < b.N; i++ {
		if err := w(io.Discard, res, report.Options{Sources: src}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSARIFFingerprintsSurviveLineMoves(t *testing.T) {
	fp := func(res *lint.Result) []string {
		d := decodeSARIF(t, render(t, "sarif", res, report.Options{}))
		var out []string
		for _, r := range d.Runs[0].Results {
			out = append(out, r.PartialFingerprints["trainlint/v1"])
		}
		return out
	}
	before := fp(fixtureResult())
	moved := fixtureResult()
	for i := range moved.Diagnostics {
		moved.Diagnostics[i].Line += 7
		moved.Diagnostics[i].EndLine += 7
		moved.Diagnostics[i].Message += " (reworded)"
	}
	if after := fp(moved); strings.Join(before, ",") != strings.Join(after, ",") {
		t.Errorf("fingerprints changed when lines moved:\n%v\n%v", before, after)
	}
	// A different key is a different finding.
	other := fixtureResult()
	other.Diagnostics[0].Key = "something.else"
	if fp(other)[0] == before[0] {
		t.Errorf("fingerprint ignores the key path")
	}
}

// sarifSchema compiles the SARIF 2.1.0 schema shipped in the Multitool's npm package.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join(multitool(t), "sarif-2.1.0.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))))
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif-2.1.0.json")
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	return s
}

func sarifOutputs(t *testing.T) map[string][]byte {
	real, src := realResult()
	if len(real.Diagnostics) == 0 {
		t.Fatal("the real lint run found nothing: the broken file should be a parse-error")
	}
	outs := map[string][]byte{
		"fixture.sarif":   render(t, "sarif", fixtureResult(), report.Options{Rules: fixtureRules()}),
		"real.sarif":      render(t, "sarif", real, report.Options{Rules: fixtureRules(), Sources: src}),
		"empty.sarif":     render(t, "sarif", lint.NewResult(), report.Options{Rules: fixtureRules()}),
		"no-rules.sarif":  render(t, "sarif", fixtureResult(), report.Options{}),
		"absolute.sarif":  render(t, "sarif", absoluteResult(), report.Options{Rules: fixtureRules()}),
		"real-bare.sarif": render(t, "sarif", real, report.Options{}),
	}
	outs["odd.sarif"] = render(t, "sarif", oddResult(), report.Options{})
	if res, src := corpusResult(t); res != nil {
		outs["corpus.sarif"] = render(t, "sarif", res, report.Options{Rules: rules.All(), Sources: src})
	}
	return outs
}

// corpusResult lints the shared corpus of real configs with the real catalogue: hundreds of
// files with real findings, related locations and fixes. nil when the corpus is absent.
func corpusResult(t *testing.T) (*lint.Result, map[string][]byte) {
	t.Helper()
	root := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Logf("no corpus at %s: SARIF of the corpus not checked", root)
		return nil, nil
	}
	src := map[string][]byte{}
	var files []lint.File
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(p) {
		case ".yaml", ".yml", ".json", ".toml":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		src[rel] = b
		files = append(files, lint.File{Path: rel, Text: b})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return lint.Lint(files, rules.All(), lint.Options{}), src
}

// oddResult has positions the engine should never produce (no line, an end before the start,
// a related location without a line, a fix edit without a region): the SARIF stays valid.
func oddResult() *lint.Result {
	res := lint.NewResult()
	res.Files = []lint.FileInfo{{Path: "<stdin>", Format: "yaml"}, {Path: "dir/a b#c?.yaml", Format: "yaml"}}
	res.Diagnostics = []lint.Diagnostic{
		{Code: "TL981", Rule: "r", Severity: lint.Error, File: "<stdin>", Message: "no position"},
		{Code: "TL981", Rule: "r", Severity: lint.Warning, File: "dir/a b#c?.yaml", Line: 5, Column: 9, EndLine: 5, EndColumn: 2, Message: "inverted end",
			Related: []lint.Related{{File: "dir/a b#c?.yaml", Message: "no line"}},
			Fix:     &lint.Fix{Message: "m", Edits: []lint.Edit{{File: "dir/a b#c?.yaml"}}}},
		{Code: "TL982", Rule: "s", Severity: lint.Info, File: "dir/a b#c?.yaml", Line: 3, Column: 1, EndLine: 2, EndColumn: 4, Message: "end line before start"},
	}
	return res
}

// absoluteResult has an absolute path, as when a user passes one on the command line.
func absoluteResult() *lint.Result {
	res := lint.NewResult()
	res.Files = []lint.FileInfo{{Path: "/abs/path/c.yaml", Format: "yaml"}}
	res.Diagnostics = []lint.Diagnostic{{Code: "TL981", Rule: ruleEvalBatch.Name, Severity: lint.Warning, File: "/abs/path/c.yaml",
		Line: 1, Column: 1, EndLine: 1, EndColumn: 5, Message: "m"}}
	return res
}

func TestSARIFSchema(t *testing.T) {
	s := sarifSchema(t)
	for name, b := range sarifOutputs(t) {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := s.Validate(inst); err != nil {
			t.Errorf("%s does not match the SARIF 2.1.0 schema:\n%v", name, err)
		}
	}
	// Control: the schema does reject a log that breaks it.
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version":"2.1.0","runs":[{"tool":{"driver":{}},"results":[{"level":"fatal"}]}]}`))
	if s.Validate(bad) == nil {
		t.Error("the schema accepted an invalid log: the check proves nothing")
	}
}

// TestSARIFMultitool runs Microsoft's SARIF validator on our outputs with its default SARIF rules
// and with the GitHub ingestion rules (Gh and Ghas), and fails on any error or warning.
func TestSARIFMultitool(t *testing.T) {
	if testing.Short() {
		t.Skip("runs an external validator")
	}
	dir := multitool(t)
	work := t.TempDir()
	var paths []string
	for name, b := range sarifOutputs(t) {
		p := filepath.Join(work, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	// One run with the default rules (Sarif) and GitHub's (Gh, Ghas): the validator runs each
	// file once per invocation, so one invocation keeps the test quick; rule ids say which kind.
	const kinds = "Sarif;Gh;Ghas"
	notes, nbad := map[string]int{}, 0
	for _, f := range runMultitool(t, dir, paths, kinds) {
		if f.Level == "error" || f.Level == "warning" {
			t.Errorf("%s (rule kinds %s): %s %s: %s", f.File, kinds, f.Level, f.Rule, f.Message)
			nbad++
		} else {
			notes[f.Rule]++
		}
	}
	t.Logf("rule kinds %s, %d logs: %d errors or warnings; notes by rule: %v", kinds, len(paths), nbad, notes)
	// Control: the harness sees the validator's complaints (a result without a location breaks
	// GitHub's GH1015; a relative helpUri breaks SARIF1005).
	bad := filepath.Join(work, "bad.sarif")
	os.WriteFile(bad, []byte(`{"$schema":"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","informationUri":"https://example.com","rules":[{"id":"X1","helpUri":"rules/x"}]}},"results":[{"ruleId":"X1","message":{"text":"m."}}]}]}`), 0o644)
	found := map[string]bool{}
	for _, f := range runMultitool(t, dir, []string{bad}, kinds) {
		if f.Level == "error" {
			found[f.Rule] = true
		}
	}
	for _, rule := range []string{"SARIF1005", "GH1015", "GH2012"} {
		if !found[rule] {
			t.Errorf("the validator did not report %s on a broken log (it reported %v): the check proves nothing", rule, found)
		}
	}
}

// Plain-text descriptions keep list items on their own lines and join wrapped lines.
func TestSARIFPlainTextLists(t *testing.T) {
	r := &lint.Rule{Code: "TL985", Name: "lists", Title: "Lists", Severity: lint.Info, Category: lint.CatTracking,
		Rationale: "Intro line\nwrapped here:\n\n- first `a`\n  continued\n- second [link](https://x.example/)\n1. numbered"}
	d := decodeSARIF(t, render(t, "sarif", lint.NewResult(), report.Options{Rules: []*lint.Rule{r}}))
	want := "Intro line wrapped here:\n\n- first a continued\n- second link (https://x.example/)\n1. numbered"
	if got := d.Runs[0].Tool.Driver.Rules[0].FullDescription.Text; got != want {
		t.Errorf("fullDescription:\n%q\nwant\n%q", got, want)
	}
}
