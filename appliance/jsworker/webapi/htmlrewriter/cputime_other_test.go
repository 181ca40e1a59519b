//go:build !unix

package htmlrewriter

import (
	"testing"
	"time"
)

// CPUTime is zero where the process's CPU time is not at hand.
func CPUTime() time.Duration { return 0 }

// ReportCPU reports nothing where CPUTime does not work.
func ReportCPU(b *testing.B, start time.Duration) {}
