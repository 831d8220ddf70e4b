package lint_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/rules"
)

// The engine's stages on the real configs of the shared corpus, grouped by the dialect each file
// is detected as: parse (bytes to Document), detect (which dialect reads it), normalise
// (Document to Plan), rules (every built-in rule on the Plan) and the whole of LintFile. Per-file costs: ns/op covers all the files of the
// group, and files/op says how many that is. Each also reports cpu-ns/op, the
// process's CPU time per op, which a machine shared with other jobs disturbs far less than the
// wall time (compare both; lint's package documentation keeps the speed record). The
// whole-process comparison with a bare YAML parse and yamllint is `make bench`
// (cmd/trainlint-bench).

type benchFile struct {
	path   string
	src    []byte
	format doc.Format
}

// benchCorpus reads every file of the corpus that trainlint reads once and groups it by the
// dialect detected for it. "all" holds every file, "all-data" the YAML, JSON and TOML files
// only: the formats read before the Python and gin readers came, so that speed records taken
// before and after them compare the same files.
func benchCorpus(b *testing.B) (map[string][]benchFile, []string) {
	b.Helper()
	dir := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("corpus not present at %s", dir)
	}
	groups := map[string][]benchFile{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		f, ok := doc.FormatFromPath(p)
		if !ok || d.IsDir() {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		bf := benchFile{p, src, f}
		a, _ := lint.Analyze(lint.File{Path: p, Text: src}, lint.Options{})
		groups[a.Dialect.Name] = append(groups[a.Dialect.Name], bf)
		groups["all"] = append(groups["all"], bf)
		if f == doc.YAML || f == doc.JSON || f == doc.TOML {
			groups["all-data"] = append(groups["all-data"], bf)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	var names []string
	for n := range groups {
		names = append(names, n)
	}
	slices.Sort(names)
	return groups, names
}

func size(fs []benchFile) int64 {
	var n int64
	for _, f := range fs {
		n += int64(len(f.src))
	}
	return n
}

func BenchmarkParse(b *testing.B) {
	groups, names := benchCorpus(b)
	for _, name := range names {
		fs := groups[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size(fs))
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				for _, f := range fs {
					doc.Parse(f.path, f.src, f.format, doc.Limits{})
				}
			}
			b.ReportMetric(float64(len(fs)), "files/op")
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

func BenchmarkDetect(b *testing.B) {
	groups, names := benchCorpus(b)
	for _, name := range names {
		fs := groups[name]
		docs := make([]*doc.Document, len(fs))
		for i, f := range fs {
			a, _ := lint.Analyze(lint.File{Path: f.path, Text: f.src}, lint.Options{})
			docs[i] = a.Doc
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size(fs))
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				for _, d := range docs {
					if d.Root != nil {
						dialect.Detect(d)
					}
				}
			}
			b.ReportMetric(float64(len(fs)), "files/op")
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

func BenchmarkNormalize(b *testing.B) {
	groups, names := benchCorpus(b)
	for _, name := range names {
		fs := groups[name]
		docs := make([]*doc.Document, len(fs))
		dls := make([]*dialect.Dialect, len(fs))
		for i, f := range fs {
			a, _ := lint.Analyze(lint.File{Path: f.path, Text: f.src}, lint.Options{})
			docs[i], dls[i] = a.Doc, a.Dialect
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size(fs))
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				for i, d := range docs {
					if d.Root != nil {
						dls[i].Normalize(d, dialect.Context{})
					}
				}
			}
			b.ReportMetric(float64(len(fs)), "files/op")
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

func BenchmarkRules(b *testing.B) {
	groups, names := benchCorpus(b)
	rs := rules.All()
	for _, name := range names {
		fs := groups[name]
		as := make([]lint.Analysis, len(fs))
		for i, f := range fs {
			as[i], _ = lint.Analyze(lint.File{Path: f.path, Text: f.src}, lint.Options{})
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size(fs))
			b.ReportAllocs()
			cpu := processCPU()
			findings := 0
			for b.Loop() {
				findings = 0
				for _, a := range as {
					findings += lint.RunRules(rs, a, lint.Options{})
				}
			}
			b.ReportMetric(float64(len(fs)), "files/op")
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(findings), "findings/op")
		})
	}
}

func BenchmarkLintFile(b *testing.B) {
	groups, names := benchCorpus(b)
	rs := rules.All()
	for _, name := range names {
		fs := groups[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size(fs))
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				for _, f := range fs {
					lint.LintFile(lint.File{Path: f.path, Text: f.src}, rs, lint.Options{})
				}
			}
			b.ReportMetric(float64(len(fs)), "files/op")
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkLintFilePinned is BenchmarkLintFile/all-data with the frameworks pinned to older
// releases, as a repository's requirements.txt pins them: the knowledge rules then read their
// tables at those versions instead of the newest.
func BenchmarkLintFilePinned(b *testing.B) {
	groups, _ := benchCorpus(b)
	rs := rules.All()
	fs := groups["all-data"]
	o := lint.Options{Targets: map[string]lint.Target{
		"transformers": {Version: "4.46", Source: "requirements.txt"},
		"trl":          {Version: "0.19", Source: "requirements.txt"},
		"deepspeed":    {Version: "0.14.4", Source: "requirements.txt"},
		"lightning":    {Version: "2.0", Source: "requirements.txt"},
		"axolotl":      {Version: "0.6.0", Source: "requirements.txt"},
	}}
	b.SetBytes(size(fs))
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		for _, f := range fs {
			lint.LintFile(lint.File{Path: f.path, Text: f.src}, rs, o)
		}
	}
	b.ReportMetric(float64(len(fs)), "files/op")
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
}
