package deploy

import (
	"context"
	"time"
)

// Deployer carries what every operation shares: the clock and the log.
// Its zero value is not usable; call New.
type Deployer struct {
	// Now is the clock deploy.log timestamps and deadlines are read from.
	Now func() time.Time
	// Sleep waits between polls; it returns early with ctx's error.
	Sleep func(ctx context.Context, d time.Duration) error
	// Poll is the interval between /readyz and liveness probes.
	Poll time.Duration
	// Log receives progress messages (the provider sends them to tflog).
	Log func(ctx context.Context, msg string, fields map[string]any)
}

// DefaultPoll is the probe interval of New.
const DefaultPoll = 250 * time.Millisecond

// New returns a Deployer with the real clock and no logging.
func New() *Deployer {
	return &Deployer{Now: time.Now, Sleep: sleep, Poll: DefaultPoll, Log: func(context.Context, string, map[string]any) {}}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (d *Deployer) logf(ctx context.Context, h *Host, msg string, extra ...any) {
	fields := map[string]any{"host": h.Name, "member": h.Member}
	for i := 0; i+1 < len(extra); i += 2 {
		if k, ok := extra[i].(string); ok {
			fields[k] = extra[i+1]
		}
	}
	d.Log(ctx, msg, fields)
}
