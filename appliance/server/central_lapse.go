package server

import (
	"context"

	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/fleet/lapse"
	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/worker"
)

// forwardWatch is the watch of the object forwarder: the holder a request
// was forwarded to is watched through the lease manager (uncached reads)
// and the fleet view.
func forwardWatch(leases *lease.Manager, reg *membership.Registry, view *membership.View) (objcentral.WatchFunc, error) {
	w, err := lapse.New(lapse.Config{
		Holders: leaseHolders{leases, reg},
		Live:    func(member string) bool { _, ok := view.Get(member); return ok },
	})
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, id worker.ObjectID, addr string, lapsed func()) {
		member := ""
		for _, m := range view.Members() {
			if m.Internal == addr {
				member = m.ID
				break
			}
		}
		if member == "" {
			return // not listed yet: the forward deadline bounds the wait
		}
		w.Watch(ctx, id.Namespace(), id.String(), member, lapsed)
	}, nil
}

// leaseHolders reads leases for the watch, past the lookup cache, and
// member records through the registry.
type leaseHolders struct {
	m   *lease.Manager
	reg *membership.Registry
}

func (h leaseHolders) Alive(ctx context.Context, member string) (bool, error) {
	return h.reg.Answers(ctx, member)
}

var _ lapse.Holders = leaseHolders{}

func (h leaseHolders) Holder(ctx context.Context, class, id string) (string, error) {
	rec, ok, err := h.m.Current(ctx, class, id)
	if err != nil || !ok {
		return "", err
	}
	return rec.Holder, nil
}
