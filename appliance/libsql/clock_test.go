package libsql

import (
	"time"

	"github.com/dwk/fleet/appliance/process/clock/clocktest"
)

// newFakeClock returns a manual clock for expiry and token tests.
func newFakeClock() *clocktest.Fake { return clocktest.NewFake(time.Unix(1_700_000_000, 0)) }
