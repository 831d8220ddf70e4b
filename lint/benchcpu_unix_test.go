//go:build unix

package lint_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used (user and system, every thread, so the
// garbage collector's work counts). On a machine shared with other jobs a benchmark's wall
// time depends on what else runs; its CPU time per op much less.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
