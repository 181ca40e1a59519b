package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/dwk/fleet/test/benchdocs"
)

// Alarm lag runs set alarmLagN alarms alarmLagSpacing apart, starting once
// every alarm is set, so the scheduler sees a steady stream of them.
const (
	alarmLagN       = 100
	alarmLagSpacing = 10 * time.Millisecond
)

// lagStats summarises how late the alarms of one mode fired.
type lagStats struct {
	Alarms int     `json:"alarms"`
	P50Ms  float64 `json:"p50_ms"`
	P99Ms  float64 `json:"p99_ms"`
	MaxMs  float64 `json:"max_ms"`
}

// benchAlarmLag measures how late alarms fire compared with their
// scheduled time: on a local-mode dwk, and on a two-replica central-mode
// fleet, where each alarm runs on the replica holding its object.
func benchAlarmLag(ctx context.Context, o options) (Section, error) {
	local, err := localAlarmLag(ctx, o)
	if err != nil {
		return Section{}, fmt.Errorf("local mode: %w", err)
	}
	central, err := centralAlarmLag(ctx, o)
	if err != nil {
		return Section{}, fmt.Errorf("central mode: %w", err)
	}
	row := func(mode string, s lagStats) []string {
		return []string{mode, fmt.Sprint(s.Alarms), msText(s.P50Ms), msText(s.P99Ms), msText(s.MaxMs)}
	}
	return Section{
		Title:   "Alarm lag: how late alarms fire",
		Command: "go run ./test/bench/dwkbench -only alarms",
		Notes: fmt.Sprintf("%d counter objects each set an alarm, %s apart, due after the last is set; lag = the time the Alarm handler recorded minus the scheduled time. "+
			"Local: one `dwk serve` with a data directory. Central: two replicas over `dwk libsql` and versitygw, requests spread over both; each alarm is set and run by the replica holding its object, claimed through the coordination KV. "+
			"The scheduler arms one timer for the earliest alarm set or retried on the replica, and in central mode claims an alarm ahead of its time by twice what a claim takes; its poll (every second) is the fallback for alarms set elsewhere.",
			alarmLagN, alarmLagSpacing),
		Header: []string{"mode", "alarms", "p50 lag", "p99 lag", "max lag"},
		Rows:   [][]string{row("local", local), row("central", central)},
		Data:   map[string]lagStats{"local": local, "central": central},
	}, nil
}

func localAlarmLag(ctx context.Context, o options) (lagStats, error) {
	dir, err := os.MkdirTemp("", "dwkbench-alarms-")
	if err != nil {
		return lagStats{}, err
	}
	defer os.RemoveAll(dir)
	d, err := startDWK(ctx, o.dwk, "serve", "--data-dir", dir, "--listen", "127.0.0.1:0")
	if err != nil {
		return lagStats{}, err
	}
	defer d.stop()
	lags, err := measureAlarmLag(ctx, []string{d.url}, "lag", alarmLagN)
	if err != nil {
		return lagStats{}, err
	}
	return summarise(lags), nil
}

// centralAlarmLag runs BenchmarkAlarmLagCentral, which starts the fleet
// with the fleet test harness.
func centralAlarmLag(ctx context.Context, o options) (lagStats, error) {
	bin, err := filepath.Abs(o.dwk)
	if err != nil {
		return lagStats{}, err
	}
	os.Setenv("DWK_BIN", bin)
	const name = "BenchmarkAlarmLagCentral"
	res, err := runGoBench(ctx, "./test/bench/dwkbench", []string{name}, "1x")
	if err != nil {
		return lagStats{}, err
	}
	e := res[name].Extra
	return lagStats{Alarms: int(e["alarms"]), P50Ms: e["p50-ms"], P99Ms: e["p99-ms"], MaxMs: e["max-ms"]}, nil
}

// measureAlarmLag creates n counter objects (prefix-0…) through the given
// replicas in turn, sets their alarms alarmLagSpacing apart, and returns
// how late each fired. The replicas are left alone while the alarms are
// due, so the lag is the scheduler's, not the load's.
func measureAlarmLag(ctx context.Context, urls []string, prefix string, n int) ([]time.Duration, error) {
	client := &http.Client{Timeout: 30 * time.Second}
	object := func(i int) string { return fmt.Sprintf("%s/counter/%s-%d", urls[i%len(urls)], prefix, i) }
	begin := time.Now()
	for i := range n {
		if err := postJSON(ctx, client, object(i)+"/increment", nil); err != nil {
			return nil, err
		}
	}
	// Setting an alarm costs less than creating the object: the creation
	// time is room enough to set them all before the first is due.
	first := time.Now().Add(time.Since(begin) + 500*time.Millisecond)
	scheduled := make([]time.Time, n)
	for i := range n {
		in := time.Until(first.Add(time.Duration(i) * alarmLagSpacing))
		if in <= 0 {
			return nil, fmt.Errorf("alarm %d was due before it could be set", i)
		}
		var out struct {
			AlarmAt string `json:"alarm_at"`
		}
		if err := postJSON(ctx, client, fmt.Sprintf("%s/alarm?in=%s", object(i), in), &out); err != nil {
			return nil, err
		}
		var err error
		if scheduled[i], err = time.Parse(time.RFC3339Nano, out.AlarmAt); err != nil {
			return nil, fmt.Errorf("alarm %d: %w", i, err)
		}
	}
	last := scheduled[n-1]
	select {
	case <-time.After(time.Until(last) + 500*time.Millisecond):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	lags := make([]time.Duration, n)
	fired := 0
	for deadline := last.Add(30 * time.Second); fired < n; {
		for i := range n {
			if lags[i] != 0 {
				continue
			}
			var st struct {
				LastFiredAt *string `json:"last_fired_at"`
			}
			if err := getJSON(ctx, client, object(i)+"/alarm", &st); err != nil {
				return nil, err
			}
			if st.LastFiredAt == nil {
				continue
			}
			at, err := time.Parse(time.RFC3339Nano, *st.LastFiredAt)
			if err != nil {
				return nil, fmt.Errorf("alarm %d: %w", i, err)
			}
			// A lag of exactly zero would read as "not fired".
			lags[i] = max(at.Sub(scheduled[i]), time.Nanosecond)
			fired++
		}
		if fired < n && time.Now().After(deadline) {
			return nil, fmt.Errorf("only %d of %d alarms fired within 30s of the last one's time", fired, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return lags, nil
}

// summarise returns nearest-rank percentiles of lags.
func summarise(lags []time.Duration) lagStats {
	s := slices.Clone(lags)
	slices.Sort(s)
	rank := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return ms(s[max(i, 0)])
	}
	return lagStats{Alarms: len(s), P50Ms: rank(0.50), P99Ms: rank(0.99), MaxMs: ms(s[len(s)-1])}
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/1e4) / 100 }

func msText(v float64) string {
	return benchdocs.Duration(time.Duration(v * float64(time.Millisecond))).Text
}

func postJSON(ctx context.Context, c *http.Client, url string, out any) error {
	return doJSON(ctx, c, http.MethodPost, url, out)
}

func getJSON(ctx context.Context, c *http.Client, url string, out any) error {
	return doJSON(ctx, c, http.MethodGet, url, out)
}

// doJSON sends a request without a body and decodes a 200 answer into out
// (nil: discards it).
func doJSON(ctx context.Context, c *http.Client, method, url string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %s", method, url, resp.Status)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
