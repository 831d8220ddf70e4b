package doc

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// corpusBytes concatenates nothing: it returns the corpus files of a format, largest first (equal
// sizes by content, so the order is the same on every run), so a benchmark parses real configs
// one by one.
func corpusBytes(b testing.TB, f Format) [][]byte {
	var out [][]byte
	for p, ff := range corpusFiles(b, map[Format]bool{f: true}) {
		if ff != f {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, src)
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return string(out[i]) < string(out[j])
	})
	return out
}

func benchParse(b *testing.B, f Format) {
	benchEach(b, corpusBytes(b, f), func(s []byte) {
		d := Parse("x", s, f, Limits{})
		if d.Root == nil && len(s) > 0 && len(d.Problems) > 0 {
			b.Fatal(d.Problems[0].Message)
		}
	})
}

// benchEach runs fn on every file per iteration, reporting throughput over their total size.
func benchEach(b *testing.B, files [][]byte, fn func(src []byte)) {
	total := 0
	for _, s := range files {
		total += len(s)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range files {
			fn(s)
		}
	}
}

// BenchmarkParseYAML parses every YAML file of the corpus into a Document.
func BenchmarkParseYAML(b *testing.B) { benchParse(b, YAML) }

// BenchmarkParseJSON parses every JSON file of the corpus into a Document.
func BenchmarkParseJSON(b *testing.B) { benchParse(b, JSON) }

// BenchmarkParseTOML parses every TOML file of the corpus into a Document.
func BenchmarkParseTOML(b *testing.B) { benchParse(b, TOML) }

// The 32 gin (T5X) and 23 Python (big_vision, MMEngine) configs of the corpus: parse and, for
// Python, the static evaluation too, per byte against BenchmarkParseYAML.
func BenchmarkParseGin(b *testing.B) { benchParse(b, Gin) }

func BenchmarkParsePython(b *testing.B) { benchParse(b, Python) }

// BenchmarkParsePythonEach reads each Python config of the corpus on its own (one sub-benchmark
// a file, named by its path under the corpus) and reports the nodes it makes per KiB beside
// its time: which files make the corpus's cost per KiB (a file whose loops write many values,
// as flexivit's i21k_sup.py, costs more per byte and no more per node).
func BenchmarkParsePythonEach(b *testing.B) {
	dir := corpusDir(b)
	var paths []string
	for p, f := range corpusFiles(b, map[Format]bool{Python: true}) {
		if f == Python {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		name, _ := filepath.Rel(dir, p)
		b.Run(strings.ReplaceAll(name, "/", "_"), func(b *testing.B) {
			nodes := countNodes(Parse("x", src, Python, Limits{}))
			b.SetBytes(int64(len(src)))
			for i := 0; i < b.N; i++ {
				Parse("x", src, Python, Limits{})
			}
			b.ReportMetric(float64(nodes)/(float64(len(src))/1024), "nodes/KiB")
		})
	}
}

// BenchmarkBareYAMLNode is the baseline for BenchmarkParseYAML: the same bytes decoded by
// yaml.v3 into yaml.Node and nothing else.
func BenchmarkBareYAMLNode(b *testing.B) {
	benchEach(b, corpusBytes(b, YAML), func(s []byte) { bareYAML(s) })
}

// BenchmarkParseYAMLLarge and BenchmarkBareYAMLNodeLarge compare on one generated 3 MB file.
func BenchmarkParseYAMLLarge(b *testing.B) { benchParseLarge(b, YAML) }

func BenchmarkBareYAMLNodeLarge(b *testing.B) {
	src := bigConfig(YAML, 3<<20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var n yaml.Node
		_ = yaml.Unmarshal(src, &n)
	}
}

func BenchmarkParseTOMLLarge(b *testing.B) { benchParseLarge(b, TOML) }

func BenchmarkParseJSONLarge(b *testing.B) { benchParseLarge(b, JSON) }

// benchParseLarge parses one generated 3 MB file of format f.
func benchParseLarge(b *testing.B, f Format) {
	src := bigConfig(f, 3<<20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Parse("x", src, f, Limits{})
	}
}

// BenchmarkParseYAMLNoDirect is BenchmarkParseYAML with the direct reader switched off: what the
// direct reader saves over yaml.v3 on the same files.
func BenchmarkParseYAMLNoDirect(b *testing.B) {
	benchEach(b, corpusBytes(b, YAML), func(s []byte) {
		ParseWith("x", s, YAML, Options{NoDirectYAML: true})
	})
}

// BenchmarkParseOverBareYAML times Parse and a bare yaml.v3 decode of the corpus YAML in
// alternating rounds and reports the ratio of their fastest rounds (parse/bare), which is
// steadier on a shared machine than comparing two separate benchmarks. Run with -benchtime 30x.
func BenchmarkParseOverBareYAML(b *testing.B) {
	files := corpusBytes(b, YAML)
	bare := func() {
		for _, s := range files {
			bareYAML(s)
		}
	}
	ours := func() {
		for _, s := range files {
			Parse("x", s, YAML, Limits{})
		}
	}
	best := [2]time.Duration{1 << 62, 1 << 62}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, fn := range []func(){bare, ours} {
			runtime.GC()
			start := time.Now()
			fn()
			best[j] = min(best[j], time.Since(start))
		}
	}
	b.ReportMetric(float64(best[1])/float64(best[0]), "parse/bare")
	b.ReportMetric(float64(best[0].Microseconds()), "bare-µs")
	b.ReportMetric(float64(best[1].Microseconds()), "parse-µs")
}

// bareYAML decodes src into yaml.Node values the fastest way yaml.v3 offers: Unmarshal for a
// single document, a Decoder for a stream (the same choice Parse makes).
func bareYAML(src []byte) {
	if !multiDoc(src) {
		var n yaml.Node
		_ = yaml.Unmarshal(src, &n)
		return
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			return
		}
	}
}
