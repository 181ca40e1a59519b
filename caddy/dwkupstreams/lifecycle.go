package dwkupstreams

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/caddyserver/caddy/v2"

	"github.com/dwk/fleet/appliance/fleet/lapse"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/caddy/internal/coordfleet"
	"github.com/dwk/fleet/caddy/internal/leasecache"
)

// logEvery: of a run of failed listings, the first and every logEvery-th
// are logged, so that a store outage does not flood the log.
const logEvery = 60

// Provision expands placeholders, fills defaults, checks the
// configuration, lists the members once (a failure is logged, not fatal:
// listing goes on in the background) and starts the refresher.
func (u *Upstreams) Provision(ctx caddy.Context) error {
	u.log = ctx.Slogger()
	repl := caddy.NewReplacer()
	for _, f := range []struct {
		name string
		v    *string
	}{{"url", &u.URL}, {"auth_token", &u.AuthToken}, {"fleet", &u.Fleet}, {"namespace", &u.Namespace}} {
		v, err := repl.ReplaceOrErr(*f.v, false, true)
		if err != nil {
			return fmt.Errorf("%w: %s: %w", errConfig, f.name, err)
		}
		*f.v = v
	}
	u.fillDefaults()
	if err := u.Validate(); err != nil {
		return err
	}
	conn, err := coordfleet.NewConn(hranaclient.Config{URL: u.URL, AuthToken: u.AuthToken, CAFile: u.CAFile, Namespace: u.namespace()},
		time.Duration(u.Timeout), u.log)
	if err != nil {
		return fmt.Errorf("%w: %w", errConfig, err)
	}
	u.closers = append(u.closers, conn.Close)
	return u.start(ctx, coordfleet.NewMembers(conn), coordfleet.NewLeases(conn))
}

func (u *Upstreams) fillDefaults() {
	if u.Address == "" {
		u.Address = AddressInternal
	}
	if u.Refresh == 0 {
		u.Refresh = caddy.Duration(DefaultRefresh)
	}
	if u.Timeout == 0 {
		u.Timeout = caddy.Duration(DefaultTimeout)
	}
	if u.LeaseCacheTTL == 0 {
		u.LeaseCacheTTL = caddy.Duration(DefaultLeaseCacheTTL)
	}
	if u.LeaseTimeout == 0 {
		u.LeaseTimeout = caddy.Duration(DefaultLeaseTimeout)
	}
}

// start wires the member view and the lease cache over their sources and
// starts the goroutines Cleanup stops. Tests call it with fakes.
func (u *Upstreams) start(ctx context.Context, members membership.Lister, leases leasecache.Lookup) error {
	view, err := membership.NewView(members, membership.ViewOptions{
		Interval: time.Duration(u.Refresh), Timeout: time.Duration(u.Timeout), Logger: u.log,
	})
	if err != nil {
		return fmt.Errorf("%w: %w", errConfig, err)
	}
	cache, err := leasecache.New(leases, leasecache.Options{
		TTL: time.Duration(u.LeaseCacheTTL), Timeout: time.Duration(u.LeaseTimeout), Logger: u.log,
	})
	if err != nil {
		return fmt.Errorf("%w: %w", errConfig, err)
	}
	u.members, u.leases = view, cache
	if h, ok := leases.(lapse.Holders); ok {
		l, err := newLapses(h, view, cache)
		if err != nil {
			return fmt.Errorf("%w: %w", errConfig, err)
		}
		u.lapses = l
	}
	u.kick = make(chan struct{}, 1)

	if err := view.Refresh(ctx); err != nil {
		u.log.Warn("dwk upstreams: first member listing failed; no upstreams until one succeeds",
			"namespace", u.namespace(), "err", err)
	}
	cache.Start()
	u.closers = append(u.closers, cache.Close)
	loopCtx, cancel := context.WithCancel(context.Background())
	u.cancel = cancel
	u.wg.Add(1)
	go func() {
		defer u.wg.Done()
		u.refreshLoop(loopCtx)
	}()
	return nil
}

// maxKickGap bounds how long an early listing waits after the previous one.
const maxKickGap = 100 * time.Millisecond

// refreshLoop lists the members every Refresh, and early when ResetCache
// asks, but never two listings less than a fifth of Refresh (at most
// 100ms) apart, so that a burst of retries costs few round trips.
func (u *Upstreams) refreshLoop(ctx context.Context) {
	every := time.Duration(u.Refresh)
	gap := min(every/5, maxKickGap)
	t := time.NewTimer(every)
	defer t.Stop()
	last, failing := time.Now(), 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-u.kick:
			if wait := gap - time.Since(last); wait > 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(wait):
				}
			}
		}
		err := u.members.Refresh(ctx)
		last = time.Now()
		t.Reset(every)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			failing++
			if failing == 1 || failing%logEvery == 0 {
				u.log.Warn("dwk upstreams: member listing failed; serving the last one",
					"namespace", u.namespace(), "failed_listings", failing, "err", err)
			}
		case failing > 0:
			u.log.Info("dwk upstreams: member listing works again", "failed_listings", failing)
			failing = 0
		}
	}
}

// Cleanup stops the refresher and the lease cache and closes the
// connection, within a bounded time. Caddy calls it when the config is
// unloaded, and after a failed Provision or Validate.
func (u *Upstreams) Cleanup() error {
	if u.cancel != nil {
		u.cancel()
	}
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	done := make(chan struct{})
	go func() {
		u.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return fmt.Errorf("dwk upstreams cleanup: refresher still running: %w", ctx.Err())
	}
	var errs []error
	for i := len(u.closers) - 1; i >= 0; i-- {
		errs = append(errs, u.closers[i](ctx))
	}
	u.closers = nil
	return errors.Join(errs...)
}

// leaseHolders adapts the lease cache to fleetview.Leases.
type leaseHolders struct{ c *leasecache.Cache }

// Holder implements fleetview.Leases.
func (l leaseHolders) Holder(ctx context.Context, namespace string, id objectid.ID) (string, bool) {
	return l.c.Holder(ctx, leasecache.Key{Namespace: namespace, ID: id})
}
