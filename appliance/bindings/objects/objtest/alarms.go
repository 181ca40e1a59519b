package objtest

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// nowPlus is the wall-clock time ms milliseconds from now.
func nowPlus(ms int) time.Time { return time.Now().Add(time.Duration(ms) * time.Millisecond) }

// timeout fires after sec seconds.
func timeout(sec int) <-chan time.Time { return time.After(time.Duration(sec) * time.Second) }

func testAlarmSetGetDelete(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	h.mustCall(h.stub("alarm"), func(ctx context.Context, o *probeObject) error {
		s := o.State.Storage
		if at, err := s.GetAlarm(ctx); err != nil || !at.IsZero() {
			t.Errorf("GetAlarm on a new object = %v, %v; want zero", at, err)
		}
		want := time.Now().Add(time.Hour).Truncate(time.Millisecond)
		if err := s.SetAlarm(ctx, want.Add(400*time.Microsecond)); err != nil {
			return err
		}
		if at, err := s.GetAlarm(ctx); err != nil || !at.Equal(want) {
			t.Errorf("GetAlarm = %v, %v; want %v (millisecond precision)", at, err, want)
		}
		if err := s.SetAlarm(ctx, time.Time{}); !errors.Is(err, worker.ErrAlarmTime) {
			t.Errorf("SetAlarm(zero) err = %v, want ErrAlarmTime", err)
		}
		if err := s.DeleteAlarm(ctx); err != nil {
			return err
		}
		if at, err := s.GetAlarm(ctx); err != nil || !at.IsZero() {
			t.Errorf("GetAlarm after delete = %v, %v; want zero", at, err)
		}
		return s.DeleteAlarm(ctx) // deleting nothing is fine
	})
}

func testAlarmFires(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	type fire struct {
		id   string
		info worker.AlarmInfo
	}
	fired := make(chan fire, 10)
	h.probe.setAlarm(func(ctx context.Context, o *probeObject, info worker.AlarmInfo) error {
		fired <- fire{o.State.ID.String(), info}
		return nil
	})
	future, past := h.stub("future"), h.stub("past")
	h.mustCall(future, func(ctx context.Context, o *probeObject) error {
		return o.State.Storage.SetAlarm(ctx, nowPlus(100))
	})
	h.mustCall(past, func(ctx context.Context, o *probeObject) error {
		return o.State.Storage.SetAlarm(ctx, time.Now().Add(-time.Hour))
	})
	got := map[string]worker.AlarmInfo{}
	for len(got) < 2 {
		select {
		case f := <-fired:
			if _, dup := got[f.id]; dup {
				t.Fatalf("alarm of %s fired twice", f.id)
			}
			got[f.id] = f.info
		case <-timeout(10):
			t.Fatalf("alarms fired: %v; want both", got)
		}
	}
	for _, s := range []worker.Stub{future, past} {
		if info := got[s.ID().String()]; info != (worker.AlarmInfo{}) {
			t.Errorf("first delivery info = %+v, want zero", info)
		}
		h.mustCall(s, func(ctx context.Context, o *probeObject) error {
			if at, err := o.State.Storage.GetAlarm(ctx); err != nil || !at.IsZero() {
				t.Errorf("alarm still set after it fired: %v, %v", at, err)
			}
			return nil
		})
	}
}

func testAlarmRescheduled(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	var mu sync.Mutex
	calls := 0
	done := make(chan struct{})
	h.probe.setAlarm(func(ctx context.Context, o *probeObject, _ worker.AlarmInfo) error {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			return o.State.Storage.SetAlarm(ctx, nowPlus(50))
		}
		close(done)
		return nil
	})
	s := h.stub("again")
	h.mustCall(s, func(ctx context.Context, o *probeObject) error {
		return o.State.Storage.SetAlarm(ctx, nowPlus(10))
	})
	select {
	case <-done:
	case <-timeout(10):
		t.Fatal("alarm set by the alarm handler did not fire")
	}
	h.mustCall(s, func(ctx context.Context, o *probeObject) error {
		if at, _ := o.State.Storage.GetAlarm(ctx); !at.IsZero() {
			t.Errorf("alarm left after the second run: %v", at)
		}
		return nil
	})
}

func testAlarmRetries(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	var mu sync.Mutex
	var infos []worker.AlarmInfo
	done := make(chan struct{})
	h.probe.setAlarm(func(ctx context.Context, o *probeObject, info worker.AlarmInfo) error {
		mu.Lock()
		defer mu.Unlock()
		infos = append(infos, info)
		switch len(infos) {
		case 1:
			return errors.New("first failure")
		case 2:
			panic("second failure")
		case 3:
			close(done)
		}
		return nil
	})
	s := h.stub("retry")
	h.mustCall(s, func(ctx context.Context, o *probeObject) error {
		return o.State.Storage.SetAlarm(ctx, nowPlus(0))
	})
	select {
	case <-done:
	case <-timeout(10):
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("alarm not retried to success; deliveries: %+v", infos)
	}
	h.mustCall(s, func(ctx context.Context, o *probeObject) error {
		if at, _ := o.State.Storage.GetAlarm(ctx); !at.IsZero() {
			t.Errorf("alarm left after a successful retry: %v", at)
		}
		return nil
	})
	mu.Lock()
	defer mu.Unlock()
	want := []worker.AlarmInfo{{}, {RetryCount: 1, IsRetry: true}, {RetryCount: 2, IsRetry: true}}
	if !reflect.DeepEqual(infos, want) {
		t.Errorf("deliveries = %+v, want %+v", infos, want)
	}
}

func testAlarmGivesUp(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	var mu sync.Mutex
	attempts := 0
	h.probe.setAlarm(func(ctx context.Context, o *probeObject, info worker.AlarmInfo) error {
		mu.Lock()
		defer mu.Unlock()
		attempts++
		return errors.New("always fails")
	})
	s := h.stub("hopeless")
	h.mustCall(s, func(ctx context.Context, o *probeObject) error {
		return o.State.Storage.SetAlarm(ctx, nowPlus(0))
	})
	// 1 attempt + 6 retries at 10, 20, … 320 ms.
	wait.Within(t, 15*time.Second, "7 alarm attempts", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return attempts >= 7
	})
	wait.Within(t, 5*time.Second, "the alarm to be dropped", func() bool {
		var dropped bool
		h.mustCall(s, func(ctx context.Context, o *probeObject) error {
			at, err := o.State.Storage.GetAlarm(ctx)
			dropped = err == nil && at.IsZero()
			return err
		})
		return dropped
	})
	// A witness alarm set now fires after any further retry would have.
	fired := make(chan struct{})
	witness := h.stub("witness")
	h.probe.setAlarm(func(ctx context.Context, o *probeObject, _ worker.AlarmInfo) error {
		if o.State.ID.Equal(witness.ID()) {
			close(fired)
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		attempts++
		return errors.New("always fails")
	})
	h.mustCall(witness, func(ctx context.Context, o *probeObject) error {
		return o.State.Storage.SetAlarm(ctx, nowPlus(700))
	})
	select {
	case <-fired:
	case <-timeout(10):
		t.Fatal("witness alarm did not fire")
	}
	mu.Lock()
	defer mu.Unlock()
	if attempts != 7 {
		t.Errorf("alarm attempts = %d, want 7 (1 + 6 retries)", attempts)
	}
}
