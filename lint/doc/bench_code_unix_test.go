//go:build unix

package doc

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time (every thread, the garbage collector's too).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCodeVsYAML reads the corpus's YAML, gin and Python files in interleaved rounds and
// reports CPU microseconds per KiB of each (its garbage collection included): on a shared
// machine wall-clock MB/s swings several fold between runs, while interleaved CPU time compares
// the formats under the same load. Each format ends its turn with a forced collection, so it
// pays for its own garbage.
//
//   - equal-volume: each format reads its files over and over (whole files, in order) until it
//     has read as many bytes as the largest format's corpus (YAML's, about 795 KiB), so the
//     forced collection, a fixed 0.1-0.4 ms whatever was read, weighs the same per KiB on
//     every format. This is the comparison the package documentation quotes.
//   - one-pass: each format reads its corpus once per round (the method before 2026-12-01):
//     the collection's fixed cost is then spread over 42 KiB of gin and 76 KiB of Python but
//     795 KiB of YAML, which inflates the small corpora's µs/KiB by several units.
//
// Each format also reports CPU nanoseconds per Document node read (-cpu-ns/node): a KiB of
// Python code can make more values than a KiB of YAML (a loop writing 80 evaluators), so the
// two figures tell the cost of reading a byte from the cost of making a node.
func BenchmarkCodeVsYAML(b *testing.B) {
	files := map[Format][][]byte{}
	for _, f := range []Format{YAML, Gin, Python} {
		files[f] = corpusBytes(b, f)
	}
	for _, method := range []string{"equal-volume", "one-pass"} {
		b.Run(method, func(b *testing.B) { benchFormats(b, files, method == "equal-volume") })
	}
}

// BenchmarkCodeVsYAMLWide is BenchmarkCodeVsYAML's equal-volume method over the configs of a
// folder of checked-out repositories, TRAINLINT_WIDE_DIR (skipped when unset): every Python
// config (IsPythonConfig), gin file, and YAML file of at most 100 KiB that reads with no
// problem, outside hidden folders and docs/ (and OpenMMLab's model-zoo metafile.yml and
// model-index.yml, which are records, not configs). The corpus holds 23 Python configs, mostly ml_collections ones; a
// folder of OpenMMLab, scenic and big_vision repositories holds thousands, mostly MMEngine
// ones, whose dict(...) calls make far more values per KiB than YAML's one key a line (the
// package documentation quotes both). It also reports the nodes each format makes per KiB.
func BenchmarkCodeVsYAMLWide(b *testing.B) {
	dir := os.Getenv("TRAINLINT_WIDE_DIR")
	if dir == "" {
		b.Skip("TRAINLINT_WIDE_DIR is not set")
	}
	files := map[Format][][]byte{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.IsDir() {
			if strings.HasPrefix(e.Name(), ".") || e.Name() == "docs" {
				return filepath.SkipDir // .git, .github, .circleci; documentation
			}
			return nil
		}
		if e.Name() == "metafile.yml" || e.Name() == "model-index.yml" {
			return nil // OpenMMLab's model-zoo records, not configs
		}
		f, _ := FormatFromPath(p)
		if f != YAML && f != Gin && f != Python {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || len(src) > 100<<10 {
			return nil
		}
		d := Parse(p, src, f, Limits{})
		if d.Root == nil || len(d.Problems) > 0 || f == Python && !IsPythonConfig(d) {
			return nil
		}
		files[f] = append(files[f], src)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []Format{YAML, Gin, Python} {
		n := 0
		for _, s := range files[f] {
			n += len(s)
		}
		b.Logf("%s: %d files, %d KiB", f, len(files[f]), n>>10)
	}
	benchFormats(b, files, true)
}

// benchFormats reads each format's files in interleaved turns and reports CPU µs per KiB,
// CPU ns per node and nodes per KiB of each: with equal set, each format reads until it has
// read as many bytes as the largest set, else each reads its set once a turn.
func benchFormats(b *testing.B, files map[Format][][]byte, equal bool) {
	formats := []Format{YAML, Gin, Python}
	names := map[Format]string{YAML: "yaml", Gin: "gin", Python: "python"}
	size := map[Format]int{}
	nodes := map[Format][]int{} // each file's Document nodes, all of its documents
	most := 0
	for _, f := range formats {
		for _, s := range files[f] {
			size[f] += len(s)
			nodes[f] = append(nodes[f], countNodes(Parse("x", s, f, Limits{})))
		}
		most = max(most, size[f])
	}
	spent := map[Format]time.Duration{}
	read := map[Format]int{}
	made := map[Format]int{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range formats {
			if size[f] == 0 {
				continue
			}
			want := size[f]
			if equal {
				want = most
			}
			t0 := cpuTime()
			n := 0
			for n < want {
				for j, s := range files[f] {
					Parse("x", s, f, Limits{})
					made[f] += nodes[f][j]
					if n += len(s); n >= want {
						break
					}
				}
			}
			runtime.GC() // each format pays for collecting its own garbage
			spent[f] += cpuTime() - t0
			read[f] += n
		}
	}
	for _, f := range formats {
		if read[f] == 0 {
			continue
		}
		kib := float64(read[f]) / 1024
		b.ReportMetric(float64(spent[f].Microseconds())/kib, names[f]+"-cpu-µs/KiB")
		b.ReportMetric(float64(spent[f].Nanoseconds())/float64(made[f]), names[f]+"-cpu-ns/node")
		b.ReportMetric(float64(made[f])/kib, names[f]+"-nodes/KiB")
	}
}

// countNodes counts the nodes of every document of d.
func countNodes(d *Document) int {
	n := 0
	for _, r := range append([]*Node{d.Root}, d.More...) {
		r.Walk(func(*Node) bool { n++; return true })
	}
	return n
}
