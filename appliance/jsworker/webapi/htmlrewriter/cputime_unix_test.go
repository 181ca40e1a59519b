//go:build unix

package htmlrewriter

import (
	"syscall"
	"testing"
	"time"
)

// CPUTime is the process's user and system CPU time, for benchmarks on
// machines too busy for wall time to mean much.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ReportCPU reports the CPU time since start per operation, as cpu-ms/op.
func ReportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(CPUTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
}
