package server

import (
	"context"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/depose"
)

// watchPeers starts the watcher that deposes this replica while its peers
// cannot reach it (package depose): its leases are handed back, it takes
// none, and /readyz answers 503, until the reports on it expire.
func (f *centralFleet) watchPeers(cfg *config.Config) error {
	ttl := cfg.Lease.TTL.D()
	w, err := depose.New(depose.Config{
		Self:  cfg.Fleet.Member,
		TTL:   ttl,
		Store: depose.NewCoordStore(f.coord),
		Members: func() []depose.Peer {
			ms := f.view.Members()
			out := make([]depose.Peer, len(ms))
			for i, m := range ms {
				out[i] = depose.Peer{ID: m.ID, Addr: m.Internal, Run: m.Started.UnixNano()}
			}
			return out
		},
		OnDepose: func(ctx context.Context, why string) {
			ctx, cancel := context.WithTimeout(ctx, ttl)
			defer cancel()
			if n, err := f.leases.Depose(ctx, why); err != nil {
				f.log.Warn("hand back leases on deposition; they expire after the lease ttl", "leases", n, "err", err)
			}
			if err := f.heartbeat.SetDeposed(ctx, true); err != nil {
				f.log.Warn("mark the member record deposed; forwards to this replica wait for their deadline", "err", err)
			}
		},
		OnRestore: func() {
			f.leases.Restore()
			ctx, cancel := context.WithTimeout(context.Background(), ttl)
			defer cancel()
			if err := f.heartbeat.SetDeposed(ctx, false); err != nil {
				f.log.Warn("clear the member record's deposed mark; the next heartbeat clears it", "err", err)
			}
		},
		Logger: f.log.With("component", "depose"),
	})
	if err != nil {
		return err
	}
	w.Start()
	f.peers = w
	f.closers = append(f.closers, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return w.Stop(ctx)
	})
	return nil
}

// deposed reports whether this replica's peers deposed it.
func (f *centralFleet) deposed() bool { return f.leases != nil && f.leases.Deposed() }

// deposedPeer reports whether the peers' reports depose member id, so
// that placement leaves it out.
func (f *centralFleet) deposedPeer(id string) bool { return f.peers != nil && f.peers.Deposed(id) }
