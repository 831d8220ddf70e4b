package schema_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/corpustest"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/schema"
)

// compile compiles one framework's schema as draft-07 (what it declares).
func compile(t *testing.T, fw string) *jsonschema.Schema {
	t.Helper()
	b, err := schema.JSON(fw)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: not JSON: %v", fw, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	url := schema.IDBase + fw + ".json"
	if err := c.AddResource(url, v); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: schema does not compile: %v", fw, err)
	}
	return s
}

func TestEverySchemaCompiles(t *testing.T) {
	if len(schema.Names()) < 8 {
		t.Fatalf("only %d frameworks: %v", len(schema.Names()), schema.Names())
	}
	for _, fw := range schema.Names() {
		t.Run(fw, func(t *testing.T) { compile(t, fw) })
	}
	if _, err := schema.JSON("caffe"); err == nil || !strings.Contains(err.Error(), "unknown framework") {
		t.Errorf("unknown framework: %v", err)
	}
}

// value converts a parsed document into the JSON value an editor validates.
func value(n *doc.Node) any {
	switch n.Kind {
	case doc.Map:
		m := map[string]any{}
		for _, c := range n.Children {
			m[c.Key] = value(c)
		}
		return m
	case doc.Seq:
		var s []any
		for _, c := range n.Children {
			s = append(s, value(c))
		}
		return s
	}
	switch n.Type {
	case doc.Int:
		if v, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
			return v
		}
	case doc.Float:
		if v, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return v
		}
	case doc.Bool:
		return n.Value == "true" || n.Value == "True" || n.Value == "TRUE"
	case doc.Null:
		return nil
	}
	return n.Value
}

// TestCorpusValidatesAgainstItsSchema: an editor using the schema of a file's framework must not
// underline anything in a real config. Every corpus file is validated against the schema of the
// framework it is detected as.
func TestCorpusValidatesAgainstItsSchema(t *testing.T) {
	dir, entries := corpustest.Manifest(t)
	schemas := map[string]*jsonschema.Schema{}
	checked := 0
	for _, e := range entries {
		text, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		a, _ := lint.Analyze(lint.File{Path: e.Path, Text: text}, lint.Options{})
		if a.Doc.Root == nil || a.Doc.Root.Kind != doc.Map {
			continue // not a config (the corpus has a few Python files)
		}
		fw := a.Dialect.Name
		if schemas[fw] == nil {
			schemas[fw] = compile(t, fw)
		}
		checked++
		if err := schemas[fw].Validate(value(a.Doc.Root)); err != nil {
			t.Errorf("%s (%s): %v", e.Path, fw, err)
		}
	}
	if checked < 100 {
		t.Errorf("only %d files checked", checked)
	}
}

func TestNestedPathsAndPlaceholders(t *testing.T) {
	s := compile(t, "lightning")
	good := map[string]any{
		"trainer": map[string]any{"max_steps": int64(100), "devices": "auto", "max_epochs": "${oc.env:EPOCHS}",
			"callbacks": []any{map[string]any{"init_args": map[string]any{"mode": "max"}}}},
		"anything_else": true,
	}
	if err := s.Validate(good); err != nil {
		t.Errorf("valid config rejected: %v", err)
	}
	// Sections are not typed (Hydra writes null for an empty one) and null means "not set".
	for _, ok := range []any{map[string]any{"trainer": nil}, map[string]any{"trainer": map[string]any{"max_steps": nil}}} {
		if err := s.Validate(ok); err != nil {
			t.Errorf("%v rejected: %v", ok, err)
		}
	}
	for name, bad := range map[string]any{
		"string for an integer": map[string]any{"trainer": map[string]any{"max_steps": "many"}},
		"enum":                  map[string]any{"trainer": map[string]any{"callbacks": []any{map[string]any{"init_args": map[string]any{"mode": "maximum"}}}}},
	} {
		if err := s.Validate(bad); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestKeysMergeDialectFirst(t *testing.T) {
	keys := schema.Keys("huggingface")
	seen := map[string]int{}
	for _, k := range keys {
		seen[k.Path]++
		if seen[k.Path] > 1 {
			t.Errorf("%s listed twice", k.Path)
		}
	}
	hf := dialect.ByName("huggingface")
	for i, k := range hf.Keys {
		if keys[i].Path != k.Path || keys[i].Doc != k.Doc {
			t.Errorf("key %d is %q, want the dialect's %q first", i, keys[i].Path, k.Path)
		}
	}
	// The TrainingArguments catalogue is complete: spot-check keys of both versions.
	for _, p := range []string{"output_dir", "learning_rate", "optim", "ddp_timeout", "hub_revision", "overwrite_output_dir", "save_safetensors", "torch_compile_mode", "include_for_metrics"} {
		if _, ok := schema.Lookup("huggingface", p); !ok {
			t.Errorf("%s missing", p)
		}
	}
	if len(keys) < 140 {
		t.Errorf("%d huggingface keys, want the whole TrainingArguments (v4 and v5)", len(keys))
	}
	if !schema.Closed("huggingface") || schema.Closed("lightning") || schema.Closed("generic") {
		t.Error("only huggingface has a closed key set")
	}
}

// Renamed and removed keys are marked for editors (VS Code shows deprecationMessage).
func TestDeprecatedKeysAreMarked(t *testing.T) {
	var s struct {
		Properties map[string]struct {
			Deprecation string `json:"deprecationMessage"`
			Properties  map[string]struct {
				Deprecation string `json:"deprecationMessage"`
			} `json:"properties"`
		} `json:"properties"`
	}
	for fw, check := range map[string]func() string{
		"huggingface": func() string { return s.Properties["no_cuda"].Deprecation },
		"lightning":   func() string { return s.Properties["trainer"].Properties["replace_sampler_ddp"].Deprecation },
	} {
		b, _ := schema.JSON(fw)
		s.Properties = nil
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if got := check(); !strings.Contains(got, "renamed to") {
			t.Errorf("%s: deprecationMessage %q", fw, got)
		}
	}
}
