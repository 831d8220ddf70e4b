package doc

import (
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
)

// The fuzz targets check the invariants every front-end promises on any input: no panic (Parse
// recovers, but a recovered panic is reported as "the parser could not read this file", which
// the targets treat as a failure), spans inside the source with Start <= End and covering the right text, positions that
// agree with the line index, children inside their parents (aliases aside), and paths that match
// keys and indexes. Seeds: f.Add below and testdata/fuzz/<target>/.

// heapAllocs is the number of bytes allocated since the program started.
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// parseBudget is what parsing src may allocate: a fixed part (the alias allowance of the fuzz
// limits, 10,000 nodes, fits in it) and 1,000 bytes per byte of input, about ten times what
// the worst known shapes take (110-135 bytes a byte, see TestRobustMemoryBounded). Nodes that
// each held a copy of their path took 8,700 bytes a byte (200 branches of 990-deep brackets)
// and aliases of a deep anchor hundreds of thousands (728 MB for a 2 KB file), so the fuzzers
// now fail on such a blow-up instead of passing it.
func parseBudget(src []byte) uint64 { return 8<<20 + 1000*uint64(len(src)) }

func fuzzParse(t *testing.T, f Format, src []byte) {
	before := heapAllocs()
	Parse("fuzz."+string(f), src, f, Limits{MaxBytes: 1 << 20, MaxNodes: 200000})
	if got := heapAllocs() - before; got > parseBudget(src) {
		t.Fatalf("parsing %d bytes allocated %d bytes, over the budget of %d\nsrc: %q", len(src), got, parseBudget(src), src)
	}
	d := parse(t, "fuzz."+string(f), src, f, Limits{MaxBytes: 1 << 20, MaxNodes: 200000})
	checkFuzzed(t, d, src)
	// However a reader made the line index (Python's lexer finds the line starts itself, Parse
	// knows an ASCII file), it is NewLineIndex's.
	if x, want := d.Lines(), NewLineIndex(src); !slices.Equal(x.starts, want.starts) || x.ascii != want.ascii {
		t.Fatalf("line index %v (ascii %v), want %v (ascii %v)\nsrc: %q", x.starts, x.ascii, want.starts, want.ascii, src)
	}
}

// checkFuzzed fails on a reader's panic, a broken tree or a span outside the text.
func checkFuzzed(t *testing.T, d *Document, src []byte) {
	t.Helper()
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
		// Issue 15's blow-up: a 990-deep anchor aliased 40 times (728 MB before paths were
		// shared and aliases counted against the node budget), and the same in small.
		"a: &a " + strings.Repeat("[", 990) + strings.Repeat("]", 990) + "\nb: [" + strings.Repeat("*a, ", 39) + "*a]\n",
		"a: &a " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\nb: [" + strings.Repeat("*a, ", 39) + "*a]\n",
		strings.Repeat("[", 200) + strings.Repeat("]", 200),
		// MMEngine's base variables (basevars.go).
		"_base_: [a.py]\nx: {{ _base_.a.b }}\ny: [{{_base_.c}}, '{{ _base_.d }}']\nz: {{ _base_. }}\n",
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
		// JSON5: unquoted keys, single quotes, escapes, a continued string, its numbers.
		"{lr: 1e-4, 'name': 'it\\'s', $s_2: 0x1F, w: .5, c: 5., p: +1, i: +Infinity, n: -NaN,}",
		"// c\n{\"e\": \"\\x41\\v\\0\\q\\\r\nb\", é: [-0x0, +.5e3, 'ü'], /* d */}",
		"{a b: 1, 'x: [0x, 1.e, ++1, \\u0061]}",
		// MMEngine's base variables (basevars.go).
		"{\"_base_\": [\"a.py\"], \"x\": {{ _base_.a.b }}, \"y\": [{{_base_.c}}], \"z\": {{_base_}}}",
		// hjson: # comments, no commas, quoteless values, ''' strings, a root without braces.
		"# ds\n{\n  train_batch_size: 32\n  optimizer: {type: Adam\n  }\n  note: '''\n    a\n     b\n    '''\n  x: [1 /* c */ 2\n  1\u0663, tru#e x\n]\n}\n",
		"a-b: 1\nc : d, e\n\u00a0 : '''\nx'''",
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
