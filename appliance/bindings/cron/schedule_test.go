package cron

import (
	"errors"
	"testing"
	"time"
)

var base = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC) // a Monday

func TestParseNext(t *testing.T) {
	tests := []struct {
		expr string
		from time.Time
		want time.Time
	}{
		{"*/5 * * * *", base, base.Add(5 * time.Minute)},
		{"0 9 * * MON-FRI", base.Add(10 * time.Hour), base.Add(24*time.Hour + 9*time.Hour)},
		{"30 12 1 * ?", base, time.Date(2026, 4, 1, 12, 30, 0, 0, time.UTC)},
		{"0 0 1 JAN *", base, time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"@hourly", base.Add(time.Second), base.Add(time.Hour)},
		{"@daily", base, base.Add(24 * time.Hour)},
		{"@weekly", base, time.Date(2026, 3, 8, 0, 0, 0, 0, time.UTC)},
		{"@monthly", base, time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)},
		{"@yearly", base, time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)},
		{" 15 * * * * ", base, base.Add(15 * time.Minute)},
		// Six fields: leading seconds.
		{"*/10 * * * * *", base.Add(3 * time.Second), base.Add(10 * time.Second)},
		{"30 0 * * * *", base, base.Add(30 * time.Second)},
		// UTC whatever the zone of the input.
		{"0 12 * * *", base.In(time.FixedZone("X", 5*3600)), base.Add(12 * time.Hour)},
	}
	for _, tt := range tests {
		s, err := Parse(tt.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.expr, err)
			continue
		}
		got := s.Next(tt.from)
		if !got.Equal(tt.want) || got.Location() != time.UTC {
			t.Errorf("Parse(%q).Next(%s) = %s, want %s UTC", tt.expr, tt.from, got, tt.want)
		}
		if s.String() != tt.expr {
			t.Errorf("String() = %q, want %q", s.String(), tt.expr)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, expr := range []string{
		"", "* * * *", "* * * * * * *", "61 * * * *", "* * * * MONDAY",
		"@every 1m", "@reboot", "CRON_TZ=Europe/Berlin 0 0 * * *", "TZ=UTC 0 0 * * *",
		"0 0 30 2 *", "0 0 L * *", "0 0 * * 7",
	} {
		if _, err := Parse(expr); !errors.Is(err, ErrSchedule) {
			t.Errorf("Parse(%q) err = %v, want ErrSchedule", expr, err)
		}
	}
	if got := (Schedule{}).Next(base); !got.IsZero() {
		t.Errorf("zero Schedule ticks at %s", got)
	}
}

func TestLatest(t *testing.T) {
	tests := []struct {
		expr      string
		from, now time.Time
		want      time.Time
	}{
		{"* * * * *", base.Add(time.Minute), base.Add(10*time.Minute + 30*time.Second), base.Add(10 * time.Minute)},
		{"* * * * *", base.Add(time.Minute), base.Add(time.Minute), base.Add(time.Minute)},
		{"* * * * * *", base.Add(time.Second), base.Add(72 * time.Hour), base.Add(72 * time.Hour)},
		{"0 0 1 * *", time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 9, 15, 0, 0, 0, 0, time.UTC), time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		if got := MustParse(tt.expr).latest(tt.from, tt.now); !got.Equal(tt.want) {
			t.Errorf("latest(%q, %s, %s) = %s, want %s", tt.expr, tt.from, tt.now, got, tt.want)
		}
	}
}
