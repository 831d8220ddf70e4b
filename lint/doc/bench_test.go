package doc

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// corpusBytes concatenates nothing: it returns the corpus files of a format, largest first, so a
// benchmark parses real configs one by one.
func corpusBytes(b *testing.B, f Format) [][]byte {
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
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

func benchParse(b *testing.B, f Format) {
	files := corpusBytes(b, f)
	total := 0
	for _, s := range files {
		total += len(s)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range files {
			d := Parse("x", s, f, Limits{})
			if d.Root == nil && len(s) > 0 && len(d.Problems) > 0 {
				b.Fatal(d.Problems[0].Message)
			}
		}
	}
}

// BenchmarkParseYAML parses every YAML file of the corpus into a Document.
func BenchmarkParseYAML(b *testing.B) { benchParse(b, YAML) }

// BenchmarkParseJSON parses every JSON file of the corpus into a Document.
func BenchmarkParseJSON(b *testing.B) { benchParse(b, JSON) }

// BenchmarkParseTOML parses every TOML file of the corpus into a Document.
func BenchmarkParseTOML(b *testing.B) { benchParse(b, TOML) }

// BenchmarkBareYAMLNode is the baseline for BenchmarkParseYAML: the same bytes decoded by
// yaml.v3 into yaml.Node and nothing else.
func BenchmarkBareYAMLNode(b *testing.B) {
	files := corpusBytes(b, YAML)
	total := 0
	for _, s := range files {
		total += len(s)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range files {
			dec := yaml.NewDecoder(bytes.NewReader(s))
			for {
				var n yaml.Node
				if err := dec.Decode(&n); err != nil {
					break
				}
			}
		}
	}
}

// BenchmarkParseYAMLLarge and BenchmarkBareYAMLNodeLarge compare on one generated 3 MB file.
func BenchmarkParseYAMLLarge(b *testing.B) {
	src := bigConfig(YAML, 3<<20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Parse("x", src, YAML, Limits{})
	}
}

func BenchmarkBareYAMLNodeLarge(b *testing.B) {
	src := bigConfig(YAML, 3<<20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var n yaml.Node
		_ = yaml.Unmarshal(src, &n)
	}
}

func BenchmarkParseTOMLLarge(b *testing.B) {
	src := bigConfig(TOML, 3<<20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Parse("x", src, TOML, Limits{})
	}
}

func BenchmarkParseJSONLarge(b *testing.B) {
	src := bigConfig(JSON, 3<<20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Parse("x", src, JSON, Limits{})
	}
}

var _ = filepath.Join
