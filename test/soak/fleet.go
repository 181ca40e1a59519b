package soak

import (
	"slices"
	"testing"

	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/needtool"
	"github.com/dwk/fleet/test/partition"
)

// startFleet starts the soak's fleet and returns the fault kinds it can
// take. Where network namespaces are permitted, every replica runs in
// its own (test/partition) and reaches libSQL and S3 through proxies, so
// the soak can cut and slow its links: every kind of Faults. Elsewhere
// the fleet runs on loopback without NetFaults, saying why — except under
// CI, where the soak fails instead, as a test whose tool is missing does
// (test/needtool).
func startFleet(t testing.TB, o fleettest.Options) (*fleettest.Fleet, *partition.Fleet, []Fault) {
	t.Helper()
	if err := partition.Available(); err != nil {
		if needtool.CI() {
			t.Fatalf("the soak's partition and slow-store faults cannot run: %v; under CI (%s=true) the soak must not pass without them", err, needtool.EnvCI)
		}
		t.Logf("soak: WITHOUT the faults %v: %v", NetFaults, err)
		kinds := slices.DeleteFunc(slices.Clone(Faults), func(f Fault) bool { return slices.Contains(NetFaults, f) })
		return fleettest.Start(t, o), nil, kinds
	}
	nf := partition.StartFleet(t, o)
	return nf.Fleet, nf, slices.Clone(Faults)
}
