// Package cron runs workers' Scheduled handlers on cron schedules: it parses
// expressions (UTC only) and runs a Scheduler that, for every tick, asks a
// TickClaimer whether this replica runs it and then calls the handler.
//
// # Syntax
//
// Standard five fields, evaluated in UTC:
//
//	minute hour day-of-month month day-of-week
//
// Each field takes *, a number, a range a-b, a step */n or a-b/n, or a
// comma-separated list of those; months may be JAN–DEC and days SUN–SAT
// (0 and 7 are not both Sunday: use 0-6), and ? means * in the day fields.
// Descriptors stand for whole expressions: @yearly (@annually), @monthly,
// @weekly, @daily (@midnight), @hourly.
//
// A sixth, leading field adds seconds — "*/5 * * * * *" ticks every five
// seconds. It is a dwk extension meant for tests and demos.
//
// Not accepted: @every (its ticks depend on when each replica started, so
// replicas could not agree on them), TZ= and CRON_TZ= prefixes (schedules
// are UTC), Cloudflare's L, W and # modifiers, and expressions with no tick
// in the next five years (such as "0 0 30 2 *").
package cron

import (
	"errors"
	"fmt"
	"strings"
	"time"

	robfig "github.com/robfig/cron/v3"
)

// ErrSchedule is returned for an expression Parse does not accept.
var ErrSchedule = errors.New("cron: invalid schedule")

// Schedule is a parsed cron expression. The zero Schedule never ticks.
type Schedule struct {
	expr string
	spec *robfig.SpecSchedule
}

// Parse parses expr in the syntax of the package documentation.
func Parse(expr string) (Schedule, error) {
	trimmed := strings.TrimSpace(expr)
	switch {
	case strings.HasPrefix(trimmed, "TZ=") || strings.HasPrefix(trimmed, "CRON_TZ="):
		return Schedule{}, fmt.Errorf("%w %q: schedules are UTC; time zone prefixes are not accepted", ErrSchedule, expr)
	case strings.HasPrefix(trimmed, "@every"):
		return Schedule{}, fmt.Errorf("%w %q: @every is not accepted; use a field expression", ErrSchedule, expr)
	}
	parser := robfig.NewParser(robfig.SecondOptional | robfig.Minute | robfig.Hour |
		robfig.Dom | robfig.Month | robfig.Dow | robfig.Descriptor)
	parsed, err := parser.Parse(trimmed)
	if err != nil {
		return Schedule{}, fmt.Errorf("%w %q: %v", ErrSchedule, expr, err)
	}
	spec, ok := parsed.(*robfig.SpecSchedule)
	if !ok {
		return Schedule{}, fmt.Errorf("%w %q: unsupported form", ErrSchedule, expr)
	}
	spec.Location = time.UTC
	s := Schedule{expr: expr, spec: spec}
	if s.Next(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)).IsZero() {
		return Schedule{}, fmt.Errorf("%w %q: never ticks", ErrSchedule, expr)
	}
	return s, nil
}

// MustParse is Parse for expressions known to be valid, such as constants in
// tests; it panics on error.
func MustParse(expr string) Schedule {
	s, err := Parse(expr)
	if err != nil {
		panic(err)
	}
	return s
}

// Next returns the first tick strictly after t, in UTC, or the zero time if
// there is none within five years.
func (s Schedule) Next(t time.Time) time.Time {
	if s.spec == nil {
		return time.Time{}
	}
	return s.spec.Next(t.UTC())
}

// String returns the expression as given to Parse.
func (s Schedule) String() string { return s.expr }

// latest returns the last tick at or before now, given that from is a tick
// at or before now. It widens a look-back window from now until the window
// holds a tick, so the work is proportional to the ticks near now, not to
// how many were missed since from.
func (s Schedule) latest(from, now time.Time) time.Time {
	for d := time.Second; ; d *= 2 {
		start := now.Add(-d)
		if !start.After(from) {
			start = from.Add(-time.Nanosecond)
		}
		t := s.Next(start)
		if t.IsZero() || t.After(now) {
			continue
		}
		for {
			n := s.Next(t)
			if n.IsZero() || n.After(now) {
				return t
			}
			t = n
		}
	}
}
