package d1central

import (
	"testing"

	"github.com/dwk/fleet/appliance/bindings/d1/d1test"
	"github.com/dwk/fleet/appliance/worker"
)

// TestConformance runs the D1 conformance suite, each subtest on a D1
// database of its own (a fresh namespace created through the admin API).
func TestConformance(t *testing.T) {
	e := startEnv(t)
	d1test.Run(t, func(t *testing.T) worker.D1Backend { return e.open(t) })
}

// TestConformanceSharedDatabase runs the suite with every subtest on the
// same database, as the replicas of a fleet share one.
func TestConformanceSharedDatabase(t *testing.T) {
	e := startEnv(t)
	db := e.open(t)
	d1test.Run(t, func(*testing.T) worker.D1Backend { return db })
}
