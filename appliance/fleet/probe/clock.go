package probe

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/marker"
)

// clockSamples is how many times the server's clock is read; the sample
// with the shortest round trip estimates the skew best.
const clockSamples = 3

// checkClock compares the local clock with the libSQL server's, whose
// clock judges every TTL and lease expiry.
func (p *prober) checkClock(ctx context.Context) (string, error) {
	st, err := p.openStore(ctx)
	if err != nil {
		if errors.Is(err, marker.ErrMissing) && p.cfg.Diagnose {
			return "the coordination database is not provisioned", errSkip
		}
		return "", err
	}
	var best struct{ skew, rtt time.Duration }
	for i := range clockSamples {
		before := p.cfg.Now()
		server, err := st.Now(ctx)
		after := p.cfg.Now()
		if err != nil {
			return "", p.libSQLFailed(err)
		}
		rtt := after.Sub(before)
		if i == 0 || rtt < best.rtt {
			// The server read its clock somewhere in the round trip:
			// compare it with the middle of it.
			best.skew, best.rtt = before.Add(rtt/2).Sub(server), rtt
		}
	}
	p.report.ClockSkew = best.skew
	if abs(best.skew) > p.cfg.MaxClockSkew {
		return "", fail(ErrClockSkew, nil, "synchronise the clocks of this host and the libSQL server (NTP: chrony or systemd-timesyncd)",
			"this host's clock is %s %s the libSQL server's (at most %s allowed)",
			abs(best.skew).Round(time.Millisecond), aheadOrBehind(best.skew), p.cfg.MaxClockSkew)
	}
	// The estimate is good to half the round trip plus the server clock's
	// millisecond resolution.
	return fmt.Sprintf("local clock %s %s the server's (±%s, at most %s allowed)",
		abs(best.skew).Round(time.Millisecond), aheadOrBehind(best.skew), ms(best.rtt/2+time.Millisecond), p.cfg.MaxClockSkew), nil
}

func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func aheadOrBehind(skew time.Duration) string {
	if skew < 0 {
		return "behind"
	}
	return "ahead of"
}
