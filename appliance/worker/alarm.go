package worker

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Alarmer is implemented by objects that want alarms. The host calls Alarm
// in the object's turn at or after the time set with Storage.SetAlarm.
// Delivery is at least once: if Alarm returns an error (or the replica dies
// while it runs) it is called again, with exponential backoff starting at
// 2 s, up to 6 retries; then the alarm is dropped. When Alarm returns nil the
// alarm is deleted, unless Alarm itself set a new one.
type Alarmer interface {
	Alarm(ctx context.Context, info AlarmInfo) error
}

// AlarmInfo describes one alarm invocation.
type AlarmInfo struct {
	// RetryCount is the number of earlier failed attempts of this alarm.
	RetryCount int
	// IsRetry is true when RetryCount > 0.
	IsRetry bool
}

// AlarmStore keeps one object's alarm. The object runtime implements it so
// that alarms survive restarts and its scheduler finds them.
type AlarmStore interface {
	// SetAlarm schedules the alarm at t, replacing any earlier one. A time in
	// the past fires as soon as possible.
	SetAlarm(ctx context.Context, t time.Time) error
	// GetAlarm returns the scheduled time, or the zero time if none is set.
	GetAlarm(ctx context.Context) (time.Time, error)
	// DeleteAlarm cancels the alarm; it is not an error if none is set.
	DeleteAlarm(ctx context.Context) error
}

// ErrAlarmTime is returned by SetAlarm for the zero time.
var ErrAlarmTime = errors.New("storage: alarm time must not be zero")

// SetAlarm schedules the object's alarm at t (millisecond precision),
// replacing any earlier one. The object must implement Alarmer.
func (s *Storage) SetAlarm(ctx context.Context, t time.Time) error {
	if t.IsZero() {
		return ErrAlarmTime
	}
	if s.inTx.Load() {
		return ErrInTransaction
	}
	if err := s.alarms.SetAlarm(ctx, t); err != nil {
		return fmt.Errorf("set alarm: %w", err)
	}
	return nil
}

// GetAlarm returns the time of the scheduled alarm, or the zero time.
func (s *Storage) GetAlarm(ctx context.Context) (time.Time, error) {
	if s.inTx.Load() {
		return time.Time{}, ErrInTransaction
	}
	t, err := s.alarms.GetAlarm(ctx)
	if err != nil {
		return time.Time{}, fmt.Errorf("get alarm: %w", err)
	}
	return t, nil
}

// DeleteAlarm cancels the scheduled alarm, if any.
func (s *Storage) DeleteAlarm(ctx context.Context) error {
	if s.inTx.Load() {
		return ErrInTransaction
	}
	if err := s.alarms.DeleteAlarm(ctx); err != nil {
		return fmt.Errorf("delete alarm: %w", err)
	}
	return nil
}
