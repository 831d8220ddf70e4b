package doc

import "testing"

// The fuzz targets check the invariants every front-end promises on any input: no panic (Parse
// recovers, but a recovered panic is reported as "the parser could not read this file", which
// the targets treat as a failure), spans inside the source with Start <= End and covering the right text, positions that
// agree with the line index, children inside their parents (aliases aside), and paths that match
// keys and indexes. Seeds: f.Add below and testdata/fuzz/<target>/.

func fuzzParse(t *testing.T, f Format, src []byte) {
	d := parse(t, "fuzz."+string(f), src, f, Limits{MaxBytes: 1 << 20, MaxNodes: 200000})
	for _, p := range d.Problems {
		if p.Message == "the parser could not read this file" {
			t.Fatalf("panic while parsing %q", src)
		}
	}
	if err := checkDoc(d); err != nil {
		t.Fatalf("%v\nsrc: %q", err, src)
	}
	if err := checkSpanText(d); err != nil {
		t.Fatalf("%v\nsrc: %q", err, src)
	}
}

func FuzzParseYAML(f *testing.F) {
	for _, s := range []string{
		"a: 1\n",
		"model:\n  name: llama\n  lr: 3e-4  # peak\ntrain:\n  - {a: 1, b: [x, 'y']}\n  - |\n    text\n",
		"base: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n---\nk: >-\n  folded\n  more\n",
		"\ufeffa: \"q\\\"\" # c\r\nb: 'it''s'\r\n",
		"a: &a [*a]\n",
		"? [x]\n: y\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { fuzzParse(t, YAML, src) })
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"a": 1}`,
		`{"train_batch_size": "auto", "zero_optimization": {"stage": 2}, "fp16": {"enabled": true}}`,
		"[1, 2.5e-3, -0, true, null, \"\\u00e9\\ud83d\\ude00\"]",
		`{"a": 1, "a": 2}`,
		"\ufeff{\r\n \"x\": [] }",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { fuzzParse(t, JSON, src) })
}

func FuzzParseTOML(f *testing.F) {
	for _, s := range []string{
		"a = 1\n",
		"[job]\nname = \"x\" # c\n[training]\nsteps = 1_000\nlr.peak = 3e-4\n[[data]]\npath = 'a'\n[[data]]\ninl = {a = 1, b.c = [1, {d = 2}]}\n",
		"[a.b]\n[a]\nx = \"\"\"\nmulti\n\"\"\"\n",
		"a = 1\na = 2\n[t]\n[t]\n",
		"\ufeffk = 2024-01-01T00:00:00Z\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { fuzzParse(t, TOML, src) })
}
