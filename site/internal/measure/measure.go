// Package measure holds what the site's timing measurements share: TestBrowserBudgets and the
// coldloads command judge their figures by the machine's load and quote medians.
package measure

import (
	"fmt"
	"os"
	"runtime"
	"sort"
)

// LoadPerCPU is the one-minute load average per CPU (0 where /proc/loadavg is missing).
func LoadPerCPU() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscan(string(b), &l)
	return l / float64(runtime.NumCPU())
}

// Median is the middle value of xs (the upper one of an even count), 0 for none; xs is not
// reordered.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
