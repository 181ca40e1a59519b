package objcentral_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/bindings/objects/objtest"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/fleet/peerlink"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/appliance/process/clock"
	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/appliance/process/metrics"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/libsqlserver"
)

const secret = "objcentral test secret"

// backend is one libSQL server with one coordination namespace and one
// object namespace prefix: the central stores of one fleet.
type backend struct {
	srv    *libsqlserver.Server
	admin  *libsqladmin.Client
	coord  string // coordination namespace
	prefix string // object database prefix
}

func newBackend(t testing.TB, srv *libsqlserver.Server) *backend {
	t.Helper()
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL, AdminKey: srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	ns := libsqlserver.Namespace("coord")
	if err := admin.Create(ctxFor(t), ns); err != nil {
		t.Fatal(err)
	}
	// A prefix per backend keeps the objects of concurrent tests apart.
	prefix := "t" + strings.TrimPrefix(libsqlserver.Namespace(""), "-")[:8] + "-"
	return &backend{srv: srv, admin: admin, coord: ns, prefix: prefix}
}

// client returns a Hrana client of its own (own round-trip counter).
func (b *backend) client(t testing.TB, ns string) *hranaclient.Client {
	t.Helper()
	c, err := hranaclient.New(hranaclient.Config{URL: b.srv.URL, AuthToken: b.srv.AuthToken, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// coordStore opens a coordination store with a client of its own.
func (b *backend) coordStore(t testing.TB) *coord.Store {
	t.Helper()
	st, err := coord.Open(ctxFor(t), b.client(t, b.coord), coord.Options{SweepInterval: -1, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(context.Background()) })
	return st
}

// objectStore returns a central object store with a client of its own.
func (b *backend) objectStore(t testing.TB) (*objcentral.Store, *hranaclient.Client) {
	t.Helper()
	return b.objectStoreWith(t, objcentral.StoreConfig{})
}

// objectStoreWith is objectStore with cfg's other settings.
func (b *backend) objectStoreWith(t testing.TB, cfg objcentral.StoreConfig) (*objcentral.Store, *hranaclient.Client) {
	t.Helper()
	c := b.client(t, "")
	cfg.Shards = []objcentral.Shard{{Name: b.srv.URL, Client: c, Admin: b.admin}}
	cfg.NamespacePrefix, cfg.Logger = b.prefix, quiet()
	s, err := objcentral.NewStore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// replicaOptions tune one replica.
type replicaOptions struct {
	name       string
	leaseClock clock.Clock // nil: the system clock
	ttl        time.Duration
	members    objcentral.Members // nil: the fleet's
	objects    objtest.Options    // runtime settings; Env overrides env
	env        func(class string) *worker.Env
}

// replica is one in-process replica: a runtime with central storage, its
// lease manager and its internal listener.
type replica struct {
	name      string
	addr      string
	internal  *httptest.Server
	leaseDB   *coord.Store // the lease manager's store
	alarmDB   *coord.Store // the alarm index's store
	objClient *hranaclient.Client
	leases    *lease.Manager
	placer    *objcentral.Placer
	metrics   *metrics.Metrics
	rt        *objects.Runtime
	ns        worker.ObjectNamespace // counterClass bound as COUNTER
	public    *httptest.Server       // /<object name>/<path> → the object
	closed    atomic.Bool
}

// memberList is a Members whose list a test fills after starting the
// replicas (their addresses are known only then).
type memberList struct {
	mu sync.Mutex
	ms []objcentral.Member
}

func (l *memberList) Ready() []objcentral.Member {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]objcentral.Member(nil), l.ms...)
}

func (l *memberList) set(ms ...objcentral.Member) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ms = ms
}

// startReplica starts a replica over b. The runtime is open and bound to
// counterClass; the caller fills members.
func startReplica(t testing.TB, b *backend, members objcentral.Members, o replicaOptions) *replica {
	t.Helper()
	ctx := ctxFor(t)
	link, err := peerlink.New(peerlink.Config{Secret: []byte(secret), Fleet: "f", Member: o.name})
	if err != nil {
		t.Fatal(err)
	}
	r := &replica{name: o.name, metrics: metrics.New(o.name)}
	var handler atomic.Pointer[http.Handler]
	r.internal = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		(*handler.Load()).ServeHTTP(w, req)
	}))
	t.Cleanup(r.internal.Close)
	r.addr = r.internal.Listener.Addr().String()
	r.leaseDB, r.alarmDB = b.coordStore(t), b.coordStore(t)
	if o.ttl == 0 {
		o.ttl = 2 * time.Second
	}
	r.leases = lease.New(lease.Config{
		Coord: r.leaseDB, Member: o.name, Addr: r.addr, TTL: o.ttl,
		Clock: o.leaseClock, Logger: quiet(), Metrics: r.metrics,
	})
	if err := r.leases.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if o.members != nil {
		members = o.members
	}
	store, objClient := b.objectStore(t)
	r.placer = objcentral.NewPlacer(r.leases, members).Preparing(store)
	r.objClient = objClient
	alarms, err := objcentral.NewAlarmIndex(objcentral.AlarmConfig{Coord: r.alarmDB, Placer: r.placer, Visibility: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	env := o.env
	if o.objects.Env != nil {
		env = o.objects.Env
	}
	if env == nil {
		env = func(string) *worker.Env {
			return worker.NewEnv("test", worker.Bindings{Vars: map[string]string{varReplica: o.name}})
		}
	}
	oo := o.objects
	r.rt = objects.New(objects.Config{
		Secret:            []byte(secret),
		Store:             store,
		Alarms:            alarms,
		Placer:            r.placer,
		Forwarder:         objcentral.NewForwarder(objcentral.ForwarderConfig{Link: link, Placer: r.placer, Metrics: r.metrics, Logger: quiet()}),
		Env:               env,
		Logger:            quiet(),
		IdleTimeout:       oo.IdleTimeout,
		AlarmPollInterval: oo.AlarmPollInterval,
		AlarmRetryBase:    oo.AlarmRetryBase,
	})
	if err := r.rt.Open(ctx); err != nil {
		t.Fatal(err)
	}
	h := link.Handler(objcentral.InternalHandler(r.rt))
	handler.Store(&h)
	t.Cleanup(func() { r.close(t) })
	r.ns, err = r.rt.Namespace("COUNTER", counterClass)
	if err != nil {
		t.Fatal(err)
	}
	r.public = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		name, rest, _ := strings.Cut(strings.TrimPrefix(req.URL.Path, "/"), "/")
		req.URL.Path = "/" + rest
		r.ns.Get(r.ns.IDFromName(name)).ServeHTTP(w, req)
	}))
	t.Cleanup(r.public.Close)
	return r
}

// member is the replica as placement sees it.
func (r *replica) member() objcentral.Member { return objcentral.Member{ID: r.name, Addr: r.addr} }

// close drains and closes the runtime and releases the leases, as a
// replica's shutdown does.
func (r *replica) close(t testing.TB) {
	if !r.closed.CompareAndSwap(false, true) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	r.leases.Drain()
	if err := r.rt.Close(ctx); err != nil {
		t.Errorf("replica %s: close runtime: %v", r.name, err)
	}
	if err := r.leases.Close(ctx); err != nil {
		t.Errorf("replica %s: close leases: %v", r.name, err)
	}
}

// do sends one request to object name through the replica's stub and
// returns status and body.
func (r *replica) do(t testing.TB, method, name, path string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, "http://object"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, err := r.ns.Get(r.ns.IDFromName(name)).Fetch(ctx, req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// holder is the member holding object name's lease, "" if none.
func holder(t testing.TB, r *replica, name string) string {
	t.Helper()
	id := r.ns.IDFromName(name)
	r.leases.Invalidate(id.Namespace(), id.String())
	rec, ok, err := r.leases.Lookup(ctxFor(t), id.Namespace(), id.String())
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return ""
	}
	return rec.Holder
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// newFakeClock returns a clock that moves only when told to, and no test
// moves it: a lease manager on it never renews and never notices time
// passing, like a paused process.
func newFakeClock() *clocktest.Fake { return clocktest.NewFake(time.Now()) }

// objtestOptions are runtime settings with the given alarm poll interval.
func objtestOptions(poll time.Duration) objtest.Options {
	return objtest.Options{IdleTimeout: time.Minute, AlarmPollInterval: poll}
}

// forwardsOK reads the replica's dwk_forwards_total{result="ok"}.
func forwardsOK(t testing.TB, r *replica) float64 {
	t.Helper()
	fams, err := r.metrics.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != "dwk_forwards_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "result" && l.GetValue() == "ok" {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}
