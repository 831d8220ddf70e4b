//go:build unix

package doc

import (
	"runtime"
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
	formats := []Format{YAML, Gin, Python}
	names := map[Format]string{YAML: "yaml", Gin: "gin", Python: "python"}
	files := map[Format][][]byte{}
	size := map[Format]int{}
	nodes := map[Format][]int{} // each file's Document nodes, all of its documents
	most := 0
	for _, f := range formats {
		files[f] = corpusBytes(b, f)
		for _, s := range files[f] {
			size[f] += len(s)
			nodes[f] = append(nodes[f], countNodes(Parse("x", s, f, Limits{})))
		}
		most = max(most, size[f])
	}
	for _, method := range []string{"equal-volume", "one-pass"} {
		b.Run(method, func(b *testing.B) {
			spent := map[Format]time.Duration{}
			read := map[Format]int{}
			made := map[Format]int{}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, f := range formats {
					want := size[f]
					if method == "equal-volume" {
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
				kib := float64(read[f]) / 1024
				b.ReportMetric(float64(spent[f].Microseconds())/kib, names[f]+"-cpu-µs/KiB")
				b.ReportMetric(float64(spent[f].Nanoseconds())/float64(made[f]), names[f]+"-cpu-ns/node")
			}
		})
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
