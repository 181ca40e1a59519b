package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"time"

	"github.com/dwk/fleet/appliance/bindings/cron/cronlease"
	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/bindings/queue/queuecentral"
	"github.com/dwk/fleet/appliance/central"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/depose"
	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/fleet/peerlink"
	"github.com/dwk/fleet/appliance/fleet/peermux"
	"github.com/dwk/fleet/appliance/fleet/probe"
	"github.com/dwk/fleet/appliance/process/buildinfo"
	"github.com/dwk/fleet/appliance/process/datadir"
	"github.com/dwk/fleet/appliance/process/metrics"
	"github.com/dwk/fleet/appliance/server/storeset"
	"github.com/dwk/fleet/appliance/server/tail"
)

// centralFleet is what a central-mode replica runs besides its workers:
// membership, leases and the object runtime over the central stores. It
// implements the fleet side of drain.
type centralFleet struct {
	log       *slog.Logger
	dir       *datadir.Dir
	coord     *coord.Store
	heartbeat *membership.Heartbeat
	view      *membership.View
	leases    *lease.Manager
	objects   *objects.Runtime
	broker    *queuecentral.Broker
	alarms    *objcentral.AlarmIndex
	claimer   *cronlease.Claimer
	// peers deposes this replica while its peers cannot reach it, and
	// names the peers deposed.
	peers *depose.Watcher
	// secret derives object ids from names (objectid.FromName).
	secret  []byte
	closers []func() error
}

// openCentral checks the central stores (start-up probes), joins the fleet
// and assembles the workers over the central stores. A probe failure is
// returned as is: its message names the problem and the fix. admin is the
// bound admin listener's address ("" without one), published in the
// member record so peers' fleet pages reach it.
func openCentral(ctx context.Context, cfg *config.Config, admin string, m *metrics.Metrics, hub *tail.Hub, log *slog.Logger) (a *app, err error) {
	f := &centralFleet{log: log}
	defer func() {
		if err != nil {
			f.close(context.Background())
		}
	}()
	fleet := cfg.Fleet.Name
	clients, err := central.Dial(ctx, cfg, central.Options{OnCoordRoundTrip: m.CoordRoundTrips.Inc})
	if err != nil {
		return nil, err
	}
	f.closers = append(f.closers, func() error { clients.Close(); return nil })
	if _, err := probe.Run(ctx, clients.Probe()); err != nil {
		return nil, err
	}
	if cfg.Storage.DataDir != "" {
		if f.dir, err = datadir.Open(cfg.Storage.DataDir, config.ModeCentral, fleet); err != nil {
			return nil, err
		}
		f.closers = append(f.closers, f.dir.Close)
	}
	if f.coord, err = coord.Open(ctx, clients.Coord, coord.Options{Logger: log}); err != nil {
		return nil, fmt.Errorf("open coordination store: %w", err)
	}
	f.closers = append(f.closers, func() error { return f.coord.Close(context.Background()) })

	if err := f.join(ctx, cfg, admin, log); err != nil {
		return nil, err
	}
	f.secret = []byte(clients.Secret)
	link, err := peerlink.New(peerlink.FromConfig(cfg, clients.Secret))
	if err != nil {
		return nil, err
	}
	envs := newLiveEnvs()
	if err := f.newObjects(cfg, []byte(clients.Secret), link, clients.ObjectShards, envs, m, log); err != nil {
		return nil, err
	}
	if f.broker, err = storeset.OpenQueues(ctx, clients); err != nil {
		return nil, err
	}
	f.closers = append(f.closers, f.broker.Close)
	claimer, err := cronlease.New(f.coord, cfg.Fleet.Member, cronlease.Options{})
	if err != nil {
		return nil, err
	}
	f.claimer = claimer

	st := &centralStores{Central: storeset.NewCentral(storeset.CentralConfig{
		Config: cfg, Clients: clients, Coord: f.coord, Broker: f.broker, OnD1RoundTrip: m.D1RoundTrips.Inc,
	}), objects: f.objects}
	a, err = assemble(cfg, st, envs, m, hub, claimer, log)
	f.closers = append(f.closers, st.Central.Close)
	if err != nil {
		return nil, err
	}
	ws, secrets, err := f.storedSecrets(ctx, []byte(clients.Secret), fleet, envs, log)
	if err != nil {
		return nil, err
	}
	f.followSecrets(ws, secrets, envs, log)
	if err := f.objects.Open(ctx); err != nil {
		return nil, fmt.Errorf("start objects: %w", err)
	}
	if err := f.watchPeers(cfg); err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle(objcentral.InternalPrefix, objcentral.InternalHandler(f.objects))
	mux.Handle("/", a.handler)
	a.streams = peermux.NewListener(nil)
	mux.Handle(peermux.Path, a.streams)
	a.internal = link.Handler(mux)
	a.link = link
	a.fleet = f
	a.objects = f.objects
	return a, nil
}

// join starts this replica's heartbeat (state starting) and the fleet
// view.
func (f *centralFleet) join(ctx context.Context, cfg *config.Config, admin string, log *slog.Logger) error {
	reg := membership.NewRegistry(f.coord, log)
	self := membership.Member{
		ID: cfg.Fleet.Member, State: membership.StateStarting, Public: cfg.Listen.Public,
		Internal: cfg.Listen.Advertise, Admin: admin, Version: buildinfo.Version(),
		ConfigHash: cfg.Hash(), Started: time.Now().UTC(),
	}
	// A write may take longer than the interval on a loaded store; a record
	// that could not be renewed in time expires and the member drops out.
	hb, err := membership.NewHeartbeat(reg, self, membership.HeartbeatOptions{TTL: cfg.Lease.TTL.D(), Timeout: 5 * time.Second, Logger: log})
	if err != nil {
		return err
	}
	if err := hb.Start(ctx); err != nil {
		return fmt.Errorf("join fleet: %w", err)
	}
	f.heartbeat = hb
	f.closers = append(f.closers, func() error { return hb.Stop(context.Background()) })
	view, err := membership.NewView(reg, membership.ViewOptions{Logger: log})
	if err != nil {
		return err
	}
	if err := view.Start(ctx); err != nil {
		return fmt.Errorf("watch fleet: %w", err)
	}
	f.view = view
	f.closers = append(f.closers, func() error { return view.Stop(context.Background()) })
	return nil
}

// newObjects makes the object runtime over per-object libSQL databases,
// with leases for placement and internal HTTP for forwarding.
func (f *centralFleet) newObjects(cfg *config.Config, secret []byte, link *peerlink.Link, shards []objcentral.Shard, envs *liveEnvs, m *metrics.Metrics, log *slog.Logger) error {
	f.leases = lease.New(lease.Config{
		Coord: f.coord, Member: cfg.Fleet.Member, Addr: cfg.Listen.Advertise, TTL: cfg.Lease.TTL.D(), Metrics: m, Logger: log,
	})
	if err := f.leases.Open(context.Background()); err != nil {
		return fmt.Errorf("start leases: %w", err)
	}
	f.closers = append(f.closers, func() error { return f.leases.Close(context.Background()) })
	cacheDir, cacheBytes := objectCache(cfg.Storage)
	store, err := objcentral.NewStore(objcentral.StoreConfig{
		Shards: shards, NamespacePrefix: namespaces.ObjectPrefix(cfg.Fleet.Name),
		CacheDir: cacheDir, CacheBytes: cacheBytes, Logger: log,
	})
	if err != nil {
		return err
	}
	f.closers = append(f.closers, store.Close)
	objectStoreMetrics(m, cfg.Fleet.Member, store)
	placer := objcentral.NewPlacer(f.leases, readyMembers{v: f.view, deposed: f.deposedPeer}).Preparing(store)
	alarms, err := objcentral.NewAlarmIndex(objcentral.AlarmConfig{Coord: f.coord, Placer: placer, Claimer: cfg.Fleet.Member})
	if err != nil {
		return err
	}
	f.alarms = alarms
	watch, err := forwardWatch(f.leases, membership.NewRegistry(f.coord, log), f.view)
	if err != nil {
		return err
	}
	f.objects = objects.New(objects.Config{
		Secret: secret, Store: store, Alarms: alarms, Placer: placer,
		Forwarder: objcentral.NewForwarder(objcentral.ForwarderConfig{Link: link, Resolve: memberAt(f.view), Placer: placer, Watch: watch, HeaderTimeout: cfg.Forward.Timeout.D(), Metrics: m, Logger: log}),
		Env:       classEnv(cfg, envs),
		Logger:    log.With("component", "objects"),

		IdleTimeout: cfg.Objects.IdleTimeout.D(), MaxWebSocketMessage: cfg.Objects.MaxWebSocketMessageBytes,
		MoveTimeout: cfg.Forward.Timeout.D(),
	})
	objectRuntimeMetrics(m, cfg.Fleet.Member, f.objects)
	return nil
}

// objectCache is where the local replicas of held objects live, and
// their budget (zero: the store's default).
func objectCache(s config.Storage) (string, int64) {
	var dir string
	var max int64
	if s.ObjectCache != nil {
		dir, max = s.ObjectCache.Dir, s.ObjectCache.MaxBytes
	}
	if dir == "" && s.DataDir != "" {
		dir = filepath.Join(s.DataDir, "objects")
	}
	return dir, max
}

// readyMembers adapts the fleet view to what placement needs: the ready
// members, less those their peers deposed.
type readyMembers struct {
	v       *membership.View
	deposed func(id string) bool
}

func (r readyMembers) Ready() []objcentral.Member {
	ms := r.v.Ready()
	out := make([]objcentral.Member, 0, len(ms))
	for _, m := range ms {
		if !r.deposed(m.ID) {
			out = append(out, objcentral.Member{ID: m.ID, Addr: m.Internal})
		}
	}
	return out
}

// memberAt names the member whose internal address a forwarded request
// goes to, from the fleet view (any state: a draining holder still
// serves its objects).
func memberAt(v *membership.View) peerlink.Resolver {
	return func(r *http.Request) (string, bool) {
		for _, m := range v.Members() {
			if m.Internal == r.URL.Host {
				return m.ID, true
			}
		}
		return "", false
	}
}

// ready marks the replica ready in its member record.
func (f *centralFleet) ready(ctx context.Context) error {
	return f.heartbeat.SetState(ctx, membership.StateReady)
}

// draining marks the replica draining (load balancers drop it within one
// refresh) and stops taking leases. It also stops judging its own
// deposition: a draining replica hands its leases back anyway, and its
// peers report it once its listener closes, which must not end the
// forwards it still answers.
func (f *centralFleet) draining(ctx context.Context) {
	if err := f.heartbeat.SetState(ctx, membership.StateDraining); err != nil {
		f.log.Warn("mark draining", "err", err)
	}
	f.leases.Drain()
	if f.peers != nil {
		if err := f.peers.Stop(ctx); err != nil {
			f.log.Warn("stop the peer watch", "err", err)
		}
	}
}

// handBack releases every lease at once, so other replicas take over
// without waiting for a TTL.
func (f *centralFleet) handBack(ctx context.Context) error {
	return f.leases.Close(ctx)
}

// close stops everything the fleet side started, newest first, and removes
// the member record.
func (f *centralFleet) close(ctx context.Context) error {
	var errs []error
	for i := len(f.closers) - 1; i >= 0; i-- {
		if err := f.closers[i](); err != nil && !errors.Is(err, context.Canceled) {
			errs = append(errs, err)
		}
	}
	f.closers = nil
	return errors.Join(errs...)
}
