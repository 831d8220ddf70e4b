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
// reports CPU microseconds per KiB of each (its garbage collection included): on a shared machine wall-clock MB/s swings several
// fold between runs, while interleaved CPU time compares the formats under the same load.
func BenchmarkCodeVsYAML(b *testing.B) {
	formats := []Format{YAML, Gin, Python}
	names := map[Format]string{YAML: "yaml", Gin: "gin", Python: "python"}
	files := map[Format][][]byte{}
	size := map[Format]int{}
	for _, f := range formats {
		files[f] = corpusBytes(b, f)
		for _, s := range files[f] {
			size[f] += len(s)
		}
	}
	spent := map[Format]time.Duration{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range formats {
			t0 := cpuTime()
			for _, s := range files[f] {
				Parse("x", s, f, Limits{})
			}
			runtime.GC() // each format pays for collecting its own garbage
			spent[f] += cpuTime() - t0
		}
	}
	for _, f := range formats {
		kib := float64(size[f]) / 1024 * float64(b.N)
		b.ReportMetric(float64(spent[f].Microseconds())/kib, names[f]+"-cpu-µs/KiB")
	}
}
