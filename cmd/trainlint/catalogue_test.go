package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/wasm/api"
)

// decodeJSON decodes JSON into plain values (maps, slices, float64), so that two encodings of
// the same data compare equal whatever Go types produced them.
func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return v
}

// TestCatalogueAgrees holds the three views of the rule catalogue together: `trainlint rules
// --format json`, the WebAssembly module's rules() (api.RulesJSON, the bytes the browser gets)
// and the rule descriptors of `trainlint check --format sarif` all come from lint.RuleInfo and
// must describe the same rules, in the same order, the same way.
func TestCatalogueAgrees(t *testing.T) {
	_, out, _ := cli(t, nil, "rules", "--format", "json")
	if !reflect.DeepEqual(decodeJSON(t, []byte(out)), decodeJSON(t, api.RulesJSON())) {
		t.Fatalf("rules --format json and the WASM rules() differ:\ncli:  %s\nwasm: %s", out, api.RulesJSON())
	}
	var cat []lint.RuleInfo
	if err := json.Unmarshal([]byte(out), &cat); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	cfg := filepath.Join(dir, "clean.yaml")
	if err := os.WriteFile(cfg, []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, sarif, errs := cli(t, nil, "check", "--format", "sarif", cfg)
	if code != 0 {
		t.Fatalf("check --format sarif: exit %d: %s", code, errs)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID                   string `json:"id"`
						Name                 string `json:"name"`
						HelpURI              string `json:"helpUri"`
						ShortDescription     struct{ Text string }
						FullDescription      struct{ Text string }
						Help                 struct{ Text, Markdown string }
						DefaultConfiguration struct {
							Enabled *bool  `json:"enabled"`
							Level   string `json:"level"`
						} `json:"defaultConfiguration"`
						Properties struct{ Tags []string } `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(sarif), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v\n%s", err, sarif)
	}
	srs := log.Runs[0].Tool.Driver.Rules
	if len(srs) != len(cat) {
		t.Fatalf("SARIF describes %d rules, the catalogue has %d", len(srs), len(cat))
	}
	level := map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Info: "note"}
	for i, r := range cat {
		s := srs[i]
		if s.ID != r.Code || s.Name != r.Name || s.HelpURI != r.URL {
			t.Errorf("SARIF rule %d is %s %s %s, the catalogue's %s %s %s", i, s.ID, s.Name, s.HelpURI, r.Code, r.Name, r.URL)
		}
		if s.DefaultConfiguration.Level != level[r.Severity] {
			t.Errorf("%s: SARIF level %q, catalogue severity %s", r.Code, s.DefaultConfiguration.Level, r.Severity)
		}
		if off := s.DefaultConfiguration.Enabled != nil && !*s.DefaultConfiguration.Enabled; off != r.Off {
			t.Errorf("%s: SARIF disabled %v, catalogue off %v", r.Code, off, r.Off)
		}
		if !reflect.DeepEqual(s.Properties.Tags, []string{r.Category}) {
			t.Errorf("%s: SARIF tags %v, catalogue category %q", r.Code, s.Properties.Tags, r.Category)
		}
		if !strings.HasPrefix(s.ShortDescription.Text, strings.TrimSuffix(r.Title, ".")) {
			t.Errorf("%s: SARIF short description %q, catalogue title %q", r.Code, s.ShortDescription.Text, r.Title)
		}
		if !strings.Contains(s.Help.Markdown, "("+r.URL+")") || r.Playbook != "" && !strings.Contains(s.Help.Markdown, "("+r.Playbook+")") {
			t.Errorf("%s: SARIF help does not link the rule page %s and playbook %q:\n%s", r.Code, r.URL, r.Playbook, s.Help.Markdown)
		}
	}
}
