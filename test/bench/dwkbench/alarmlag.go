package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sort"
	"time"
)

// benchAlarmLag sets alarms on counter objects of a local-mode dwk and
// measures how late each fires compared with its scheduled time.
func benchAlarmLag(ctx context.Context, o options) (Section, error) {
	dir, err := os.MkdirTemp("", "dwkbench-alarms-")
	if err != nil {
		return Section{}, err
	}
	defer os.RemoveAll(dir)
	d, err := startDWK(ctx, o.dwk, "serve", "--data-dir", dir, "--listen", "127.0.0.1:0")
	if err != nil {
		return Section{}, err
	}
	defer d.stop()
	const n = 30
	scheduled := make([]time.Time, n)
	for i := range n {
		var out struct {
			AlarmAt string `json:"alarm_at"`
		}
		if err := postJSONOut(fmt.Sprintf("%s/counter/lag-%d/alarm?in=2s", d.url, i), &out); err != nil {
			return Section{}, err
		}
		if scheduled[i], err = time.Parse(time.RFC3339Nano, out.AlarmAt); err != nil {
			return Section{}, err
		}
	}
	var lags []time.Duration
	deadline := time.Now().Add(30 * time.Second)
	fired := make([]bool, n)
	for len(lags) < n && time.Now().Before(deadline) {
		for i := range n {
			if fired[i] {
				continue
			}
			var st struct {
				LastFiredAt *string `json:"last_fired_at"`
			}
			resp, err := http.Get(fmt.Sprintf("%s/counter/lag-%d/alarm", d.url, i))
			if err != nil {
				return Section{}, err
			}
			json.NewDecoder(resp.Body).Decode(&st)
			resp.Body.Close()
			if st.LastFiredAt != nil {
				at, err := time.Parse(time.RFC3339Nano, *st.LastFiredAt)
				if err == nil {
					fired[i] = true
					lags = append(lags, at.Sub(scheduled[i]))
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(lags) < n {
		return Section{}, fmt.Errorf("only %d of %d alarms fired within 30s", len(lags), n)
	}
	sort.Slice(lags, func(i, j int) bool { return lags[i] < lags[j] })
	return Section{
		Title:   "Alarm lag: how late alarms fire (local mode)",
		Command: "go run ./test/bench/dwkbench -only alarms",
		Notes:   fmt.Sprintf("%d counter objects each set an alarm 2s ahead; lag = the time the Alarm handler recorded minus the scheduled time. The scheduler polls due alarms every second and wakes at once for an alarm set earlier than its next poll.", n),
		Header:  []string{"alarms", "p50 lag", "p99 lag", "max lag"},
		Rows: [][]string{{fmt.Sprint(n), lags[n/2].Round(time.Millisecond).String(),
			lags[n*99/100].Round(time.Millisecond).String(), lags[n-1].Round(time.Millisecond).String()}},
		Data: lags,
	}, nil
}

func postJSONOut(url string, out any) error {
	resp, err := http.Post(url, "application/json", nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("POST %s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
