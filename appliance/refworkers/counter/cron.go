package counter

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/dwk/fleet/appliance/worker"
)

// TicksObject is the counter object that records cron ticks.
const TicksObject = "_cron"

// Scheduled implements worker.Scheduler: every tick is recorded in the
// "_cron" counter object (GET /counter/_cron/ticks lists them with the
// number of runs each), so a fleet can show that each tick ran once.
func (Worker) Scheduled(ctx context.Context, ev worker.ScheduledEvent, env *worker.Env) error {
	ns := env.Object(Binding)
	url := fmt.Sprintf("http://counter/counter/%s/tick?at=%d", TicksObject, ev.ScheduledTime.Unix())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := ns.Get(ns.IDFromName(TicksObject)).Fetch(ctx, req)
	if err != nil {
		return fmt.Errorf("record tick: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("record tick: %s: %s", resp.Status, b)
	}
	return nil
}

const ticksSchema = `CREATE TABLE IF NOT EXISTS ticks (at INTEGER PRIMARY KEY, runs INTEGER NOT NULL)`

func (o *object) tick(w http.ResponseWriter, r *http.Request) {
	at, err := strconv.ParseInt(r.URL.Query().Get("at"), 10, 64)
	if err != nil {
		http.Error(w, "at must be a Unix time", http.StatusBadRequest)
		return
	}
	if _, err := o.state.Storage.Exec(r.Context(), ticksSchema); err != nil {
		fail(w, err)
		return
	}
	if _, err := o.state.Storage.Exec(r.Context(),
		`INSERT INTO ticks (at, runs) VALUES (?, 1) ON CONFLICT (at) DO UPDATE SET runs = runs + 1`, at); err != nil {
		fail(w, err)
		return
	}
	reply(w, map[string]any{"at": at})
}

func (o *object) ticks(w http.ResponseWriter, r *http.Request) {
	if _, err := o.state.Storage.Exec(r.Context(), ticksSchema); err != nil {
		fail(w, err)
		return
	}
	cur, err := o.state.Storage.Exec(r.Context(), `SELECT at, runs FROM ticks ORDER BY at`)
	if err != nil {
		fail(w, err)
		return
	}
	out := map[string]int64{}
	for cur.Next() {
		at, _ := cur.Row()[0].(int64)
		runs, _ := cur.Row()[1].(int64)
		out[strconv.FormatInt(at, 10)] = runs
	}
	reply(w, out)
}
