package objects

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// The alarm lives in the reserved table _dwk_alarm of the object's own
// database (so it moves with the object's data and is deleted by DeleteAll);
// the AlarmIndex only helps the scheduler find it. Every statement on the
// table is batched with the CREATE so each call is one unit for the backend.
const (
	alarmSchema = "CREATE TABLE IF NOT EXISTS _dwk_alarm (k INTEGER PRIMARY KEY CHECK (k = 0), at_ms INTEGER NOT NULL)"
	// AlarmSelect reads an object's alarm from its database: one row with
	// the time in Unix milliseconds, or none (or no table) when none is set.
	AlarmSelect = "SELECT at_ms FROM _dwk_alarm WHERE k = 0"
)

// alarmStore is the worker.AlarmStore of one instance.
type alarmStore struct{ in *instance }

var _ worker.AlarmStore = (*alarmStore)(nil)

// SetAlarm writes the index first, so a crash between the two writes leaves
// a stale index entry rather than an alarm nobody finds.
// The alarm is stored with millisecond precision, but armed at t itself,
// so it never fires before the time asked for.
func (a *alarmStore) SetAlarm(ctx context.Context, t time.Time) error {
	in, rt := a.in, a.in.rt
	ms := time.UnixMilli(t.UnixMilli())
	if err := rt.cfg.Alarms.Put(ctx, AlarmEntry{Object: in.id, At: ms}); err != nil {
		return fmt.Errorf("alarm index: %w", err)
	}
	_, err := in.db.Batch(ctx, []worker.D1Query{{SQL: alarmSchema}, {
		SQL:  "INSERT INTO _dwk_alarm (k, at_ms) VALUES (0, ?) ON CONFLICT (k) DO UPDATE SET at_ms = excluded.at_ms",
		Args: []any{ms.UnixMilli()},
	}})
	if err != nil {
		return err
	}
	rt.timer.arm(in.key, t)
	return nil
}

// GetAlarm implements worker.AlarmStore.
func (a *alarmStore) GetAlarm(ctx context.Context) (time.Time, error) {
	return a.in.readAlarm(ctx)
}

// DeleteAlarm deletes from the object first and, once that is committed,
// from the index.
func (a *alarmStore) DeleteAlarm(ctx context.Context) error {
	in := a.in
	if _, err := in.db.Batch(ctx, []worker.D1Query{{SQL: alarmSchema}, {SQL: "DELETE FROM _dwk_alarm"}}); err != nil {
		return err
	}
	in.rt.timer.disarm(in.key)
	if err := in.confirm(ctx); err != nil {
		return fmt.Errorf("delete alarm: %w", err)
	}
	if err := in.rt.cfg.Alarms.Delete(ctx, in.id); err != nil {
		return fmt.Errorf("alarm index: %w", err)
	}
	return nil
}

// readAlarm returns the object's alarm time, or zero.
func (in *instance) readAlarm(ctx context.Context) (time.Time, error) {
	rs, err := in.db.Batch(ctx, []worker.D1Query{{SQL: alarmSchema}, {SQL: AlarmSelect}})
	if err != nil {
		return time.Time{}, err
	}
	if len(rs[1].Rows) == 0 {
		return time.Time{}, nil
	}
	ms, ok := rs[1].Rows[0][0].(int64)
	if !ok {
		return time.Time{}, fmt.Errorf("alarm time has type %T", rs[1].Rows[0][0])
	}
	return time.UnixMilli(ms), nil
}

// syncIndex makes the index entry match the object's alarm: at (zero: none)
// with no retries. An entry is removed only after the object's own
// deletion of the alarm is committed (see OutputGate): otherwise a failed
// commit would leave an alarm that no index entry leads to.
func (in *instance) syncIndex(ctx context.Context, at time.Time) error {
	if at.IsZero() {
		in.rt.timer.disarm(in.key)
		if err := in.confirm(ctx); err != nil {
			return fmt.Errorf("commit before clearing the alarm index: %w", err)
		}
		return in.rt.cfg.Alarms.Delete(ctx, in.id)
	}
	return in.rt.putAlarm(ctx, AlarmEntry{Object: in.id, At: at})
}

// putAlarm writes e to the index and arms the scheduler's timer for it: the
// object runs here, so its next attempt is this replica's to make (in
// central mode, as long as the lease holds; after that the poll of its new
// holder finds it).
func (rt *Runtime) putAlarm(ctx context.Context, e AlarmEntry) error {
	if err := rt.cfg.Alarms.Put(ctx, e); err != nil {
		return err
	}
	rt.timer.arm(keyOf(e.Object), e.At)
	return nil
}

// fireAlarm runs one due index entry in the object's turn: it checks the
// object's own alarm, calls Alarm, and records success, retry or give-up.
func (in *instance) fireAlarm(ctx context.Context, e AlarmEntry) error {
	rt := in.rt
	now := rt.cfg.Clock.Now()
	at, err := in.readAlarm(ctx)
	if err != nil {
		return fmt.Errorf("read alarm: %w", err)
	}
	if at.IsZero() || at.After(now) {
		// Stale entry: deleted or moved since the index was written.
		return in.syncIndex(ctx, at)
	}
	var herr error
	if h, ok := in.obj.(worker.Alarmer); ok {
		info := worker.AlarmInfo{RetryCount: e.Retries, IsRetry: e.Retries > 0}
		if perr := in.call(func() { herr = h.Alarm(ctx, info) }); perr != nil {
			herr = perr
		}
	} else {
		rt.log.Warn("alarm set on an object without an Alarm method; dropping it", "object", in.id)
	}
	cur, err := in.readAlarm(ctx)
	if err != nil {
		return fmt.Errorf("read alarm after handler: %w", err)
	}
	if !cur.Equal(at) {
		// The handler set or deleted the alarm: its choice wins, and the
		// retry count starts over.
		rt.stats.alarmsFired.Add(1)
		return in.syncIndex(ctx, cur)
	}
	if herr == nil {
		rt.stats.alarmsFired.Add(1)
		return in.finishAlarm(ctx, at)
	}
	if e.Retries >= rt.cfg.AlarmMaxRetries {
		rt.stats.alarmsFailed.Add(1)
		rt.log.Error("alarm failed; giving up", "object", in.id, "attempts", e.Retries+1, "err", herr)
		return in.finishAlarm(ctx, at)
	}
	// The delay counts from the failure, as after a failed delivery
	// (scheduler.go): a handler that ran long still gets its pause.
	next := rt.cfg.Clock.Now().Add(retryDelay(rt.cfg.AlarmRetryBase, e.Retries))
	rt.stats.alarmsRetried.Add(1)
	rt.log.Warn("alarm failed; will retry", "object", in.id, "retry", e.Retries+1, "at", next, "err", herr)
	return rt.putAlarm(ctx, AlarmEntry{Object: in.id, At: next, Retries: e.Retries + 1})
}

// finishAlarm deletes the alarm at (if it is still the one set) from the
// object, then from the index.
func (in *instance) finishAlarm(ctx context.Context, at time.Time) error {
	rs, err := in.db.Batch(ctx, []worker.D1Query{
		{SQL: alarmSchema},
		{SQL: "DELETE FROM _dwk_alarm WHERE at_ms = ?", Args: []any{at.UnixMilli()}},
		{SQL: AlarmSelect},
	})
	if err != nil {
		return fmt.Errorf("delete alarm: %w", err)
	}
	var left time.Time
	if len(rs[2].Rows) > 0 {
		if ms, ok := rs[2].Rows[0][0].(int64); ok {
			left = time.UnixMilli(ms)
		}
	}
	return in.syncIndex(ctx, left)
}

// retryDelay is base·2^retries: 2 s, 4 s, 8 s… with the default base.
func retryDelay(base time.Duration, retries int) time.Duration {
	if retries > 30 {
		retries = 30
	}
	return base << retries
}
