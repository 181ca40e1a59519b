package objects_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/worker"
)

// memIndex is an in-memory objects.AlarmIndex.
type memIndex struct {
	mu      sync.Mutex
	entries map[string]objects.AlarmEntry
}

var _ objects.AlarmIndex = (*memIndex)(nil)

func newMemIndex() *memIndex { return &memIndex{entries: map[string]objects.AlarmEntry{}} }

func (x *memIndex) Put(_ context.Context, e objects.AlarmEntry) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.entries[e.Object.String()] = e
	return nil
}

func (x *memIndex) Delete(_ context.Context, id worker.ObjectID) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	delete(x.entries, id.String())
	return nil
}

func (x *memIndex) Due(_ context.Context, namespaces []string, now time.Time, limit int) ([]objects.AlarmEntry, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []objects.AlarmEntry
	for _, e := range x.entries {
		for _, ns := range namespaces {
			if e.Object.Namespace() == ns && !e.At.After(now) {
				out = append(out, e)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (x *memIndex) get(id worker.ObjectID) (objects.AlarmEntry, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	e, ok := x.entries[id.String()]
	return e, ok
}

// fakePlacer hands out fakeLeases, or says the object runs elsewhere.
type fakePlacer struct {
	mu        sync.Mutex
	elsewhere string
	claims    int
	leases    []*fakeLease
}

type fakeLease struct {
	lost     chan struct{}
	released chan struct{}
}

var (
	_ objects.Placer = (*fakePlacer)(nil)
	_ objects.Lease  = (*fakeLease)(nil)
)

func (p *fakePlacer) Claim(context.Context, worker.ObjectID) (objects.Lease, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.claims++
	if p.elsewhere != "" {
		return nil, &objects.ElsewhereError{Holder: p.elsewhere}
	}
	l := &fakeLease{lost: make(chan struct{}), released: make(chan struct{})}
	p.leases = append(p.leases, l)
	return l, nil
}

func (l *fakeLease) Epoch() int64                  { return 1 }
func (l *fakeLease) Lost() <-chan struct{}         { return l.lost }
func (l *fakeLease) Release(context.Context) error { close(l.released); return nil }

// fakeForwarder answers for the remote holder.
type fakeForwarder struct {
	mu      sync.Mutex
	holders []string
}

var _ objects.Forwarder = (*fakeForwarder)(nil)

func (f *fakeForwarder) Forward(w http.ResponseWriter, _ *http.Request, _ worker.ObjectID, holder string) {
	f.mu.Lock()
	f.holders = append(f.holders, holder)
	f.mu.Unlock()
	io.WriteString(w, "forwarded to "+holder)
}

// newRuntime opens a runtime over a temporary local store; tweak adjusts
// the config first.
func newRuntime(t *testing.T, tweak func(*objects.Config)) *objects.Runtime {
	t.Helper()
	cfg := objects.Config{
		Secret:            []byte("unit secret"),
		Store:             objlocal.NewStore(t.TempDir()),
		Alarms:            newMemIndex(),
		Logger:            slog.New(slog.NewTextHandler(io.Discard, nil)),
		AlarmPollInterval: 10 * time.Millisecond,
	}
	if tweak != nil {
		tweak(&cfg)
	}
	rt := objects.New(cfg)
	if err := rt.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		rt.Close(ctx)
	})
	return rt
}
