package objects_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// Object classes used by this package's tests. The registry is global, so
// each is registered once, from init.
const (
	echoClass   = "objects_test.Echo"
	cycleClass  = "objects_test.Cycle"
	failerClass = "objects_test.Failer"
)

func init() {
	worker.RegisterObject(echoClass, func(s *worker.State, _ *worker.Env) worker.Object { return echo{s} })
	worker.RegisterObject(cycleClass, func(s *worker.State, env *worker.Env) worker.Object { return cycle{s, env} },
		worker.WithConcurrency(worker.Strict))
	worker.RegisterObject(failerClass, func(s *worker.State, _ *worker.Env) worker.Object { return &failer{State: s} })
}

// echo answers with its id and counts nothing.
type echo struct{ s *worker.State }

func (e echo) Fetch(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, e.s.ID.String()) }

// cycle calls itself through the SELF binding: a call cycle, since the
// class is Strict.
type cycle struct {
	s   *worker.State
	env *worker.Env
}

func (c cycle) Fetch(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequest(http.MethodGet, "http://self/", nil)
	_, err := c.env.Object("SELF").Get(c.s.ID).Fetch(r.Context(), req)
	if err == nil {
		io.WriteString(w, "no error")
		return
	}
	io.WriteString(w, err.Error())
}

// failer's alarm always fails, recording when it ran; its Fetch sets the
// alarm at the time in the query parameter "at".
type failer struct {
	State *worker.State
}

var (
	failerMu    sync.Mutex
	failerClock interface{ Now() time.Time }
	failerTimes = map[string][]time.Time{}
)

// setFailerClock makes failer record attempt times from clock.
func setFailerClock(c interface{ Now() time.Time }) {
	failerMu.Lock()
	defer failerMu.Unlock()
	failerClock = c
}

// failerAttempts returns the times of the alarm attempts of object id.
func failerAttempts(id worker.ObjectID) []time.Time {
	failerMu.Lock()
	defer failerMu.Unlock()
	return append([]time.Time(nil), failerTimes[id.String()]...)
}

func (f *failer) Fetch(w http.ResponseWriter, r *http.Request) {
	at, err := http.ParseTime(r.URL.Query().Get("at"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := f.State.Storage.SetAlarm(r.Context(), at); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

func (f *failer) Alarm(ctx context.Context, info worker.AlarmInfo) error {
	failerMu.Lock()
	defer failerMu.Unlock()
	failerTimes[f.State.ID.String()] = append(failerTimes[f.State.ID.String()], failerClock.Now())
	return errors.New("always fails")
}
