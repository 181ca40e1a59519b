package objects_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// bellClass sets its alarm at the time in the query parameter "at"; its
// Alarm succeeds and counts.
const bellClass = "objects_test.Bell"

var bellRuns atomic.Int64

func init() {
	worker.RegisterObject(bellClass, func(s *worker.State, _ *worker.Env) worker.Object { return bell{s} })
}

type bell struct{ s *worker.State }

func (r bell) Fetch(w http.ResponseWriter, req *http.Request) {
	at, err := http.ParseTime(req.URL.Query().Get("at"))
	if err == nil {
		err = r.s.Storage.SetAlarm(req.Context(), at)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

func (bell) Alarm(context.Context, worker.AlarmInfo) error {
	bellRuns.Add(1)
	return nil
}

// gatedStore opens local databases whose output gate fails on demand, the
// way a central replica's commit fails when its lease ends.
type gatedStore struct {
	*objlocal.Store
	fail     atomic.Bool
	confirms atomic.Int64 // Confirm calls (Release's included)
}

func (s *gatedStore) Open(ctx context.Context, id worker.ObjectID, l objects.Lease) (objects.ObjectDB, error) {
	db, err := s.Store.Open(ctx, id, l)
	if err != nil {
		return nil, err
	}
	return &gatedDB{ObjectDB: db, store: s}, nil
}

type gatedDB struct {
	objects.ObjectDB
	store *gatedStore
}

var _ objects.OutputGate = (*gatedDB)(nil)

func (d *gatedDB) Hold() {}
func (d *gatedDB) Confirm(context.Context) error {
	d.store.confirms.Add(1)
	if d.store.fail.Swap(false) {
		return fmt.Errorf("commit: the lease ended: %w", context.Canceled)
	}
	return nil
}
func (d *gatedDB) Release(ctx context.Context) error { return d.Confirm(ctx) }

// TestAlarmIndexOutlivesAFailedCommit runs an alarm whose event's commit
// fails: the index entry must stay, since the object's deletion of the
// alarm never reached the source of truth.
func TestAlarmIndexOutlivesAFailedCommit(t *testing.T) {
	clock := clocktest.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	idx := newMemIndex()
	store := &gatedStore{Store: objlocal.NewStore(t.TempDir())}
	rt := newRuntime(t, func(c *objects.Config) {
		c.Clock, c.Alarms, c.Store = clock, idx, store
		c.AlarmPollInterval = time.Hour
	})
	ns, _ := rt.Namespace("BELL", bellClass)
	s := ns.Get(ns.NewUniqueID())
	before := bellRuns.Load()
	store.fail.Store(false)
	at := clock.Now().Add(time.Second)
	if _, err := fetchBody(t, s, "http://x/?at="+url.QueryEscape(at.Format(http.TimeFormat))); err != nil {
		t.Fatal(err)
	}
	store.fail.Store(true) // the alarm event's commit fails
	clock.Advance(2 * time.Second)
	wait.For(t, "the alarm to run", func() bool { return bellRuns.Load() > before && !store.fail.Load() })
	wait.For(t, "the alarm event to end", func() bool { return rt.ActiveObjects() == 0 || len(clock.Timers()) >= 1 })
	if _, ok := idx.get(s.ID()); !ok {
		t.Fatal("the alarm's index entry was removed although the commit that deleted the alarm failed")
	}
}
