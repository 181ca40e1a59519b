package soak

import (
	"flag"
	"os"
	"strconv"
	"testing"
	"time"
)

var (
	duration = flag.Duration("soak.duration", envDuration("DWK_SOAK_DURATION", 60*time.Second), "how long the soak's load runs ($DWK_SOAK_DURATION)")
	seed     = flag.Uint64("soak.seed", envUint("DWK_SOAK_SEED", 1), "seed of the fault schedule ($DWK_SOAK_SEED)")
	replicas = flag.Int("soak.replicas", int(envUint("DWK_SOAK_REPLICAS", 3)), "fleet size, 3 to 5 ($DWK_SOAK_REPLICAS)")
	random   = flag.Bool("soak.random", os.Getenv("DWK_SOAK_RANDOM") == "1", "randomized fault schedule ($DWK_SOAK_RANDOM=1); default: each fault kind once, in order")
	out      = flag.String("soak.out", "", "file to write the run's result to (scripts/soak.sh: bench/soak-<duration>-<seed>.json); default none")
	strict   = flag.Bool("soak.strict", os.Getenv("DWK_SOAK_STRICT") == "1", "fail on any request that fails during a graceful rolling restart or with no fault ($DWK_SOAK_STRICT=1; make soak sets it)")
)

// TestSoak runs the fleet under mixed load and faults and checks SPEC §8's
// invariants. By default it is the short run `make test` includes (60s,
// each fault kind once, the load running on until the last is over:
// about 100s, two minutes with the checks); scripts/soak.sh runs the
// long, randomized one.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("the soak runs for a minute or more; -short skips it")
	}
	Run(t, Options{Duration: *duration, Seed: *seed, Replicas: *replicas, Random: *random, Strict: *strict, Out: *out})
}

func envDuration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(name)); err == nil {
		return d
	}
	return def
}

func envUint(name string, def uint64) uint64 {
	if n, err := strconv.ParseUint(os.Getenv(name), 10, 64); err == nil {
		return n
	}
	return def
}
