package counter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

const schema = `CREATE TABLE IF NOT EXISTS counter (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  value INTEGER NOT NULL DEFAULT 0,
  fired INTEGER NOT NULL DEFAULT 0,
  last_fired_at TEXT
)`

// object is one counter.
type object struct {
	state    *worker.State
	env      *worker.Env
	migrated bool
}

func newObject(state *worker.State, env *worker.Env) worker.Object {
	return &object{state: state, env: env}
}

func (o *object) migrate(ctx context.Context) error {
	if o.migrated {
		return nil
	}
	if _, err := o.state.Storage.Exec(ctx, schema); err != nil {
		return err
	}
	o.migrated = true
	return nil
}

// Fetch implements worker.Object.
func (o *object) Fetch(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if err := o.migrate(ctx); err != nil {
		fail(w, err)
		return
	}
	parts := strings.Split(strings.Trim(strings.TrimPrefix(r.URL.Path, "/counter/"), "/"), "/")
	name := parts[0]
	action := ""
	if len(parts) > 1 {
		action = parts[1]
	}
	switch {
	case action == "" && r.Method == http.MethodGet:
		o.get(w, r, name)
	case action == "" && r.Method == http.MethodDelete:
		if err := o.state.Storage.DeleteAll(ctx); err != nil {
			fail(w, err)
			return
		}
		o.migrated = false
		reply(w, map[string]any{"name": name, "deleted": true})
	case action == "increment" && r.Method == http.MethodPost:
		o.increment(w, r, name)
	case action == "give" && r.Method == http.MethodPost:
		o.give(w, r)
	case action == "stream" && r.Method == http.MethodPost:
		o.stream(w, r)
	case action == "alarm" && r.Method == http.MethodPost:
		o.setAlarm(w, r)
	case action == "alarm" && r.Method == http.MethodGet:
		o.getAlarm(w, r)
	case action == "tick" && r.Method == http.MethodPost:
		o.tick(w, r)
	case action == "ticks" && r.Method == http.MethodGet:
		o.ticks(w, r)
	case action == "noise" && r.Method == http.MethodPost:
		o.noise(w, r)
	case action == "rows" && r.Method == http.MethodGet:
		o.rows(w, r)
	default:
		http.Error(w, "unknown counter route "+r.Method+" "+r.URL.Path, http.StatusNotFound)
	}
}

func (o *object) get(w http.ResponseWriter, r *http.Request, name string) {
	cur, err := o.state.Storage.Exec(r.Context(), "SELECT value FROM counter WHERE id = 1")
	if err != nil {
		fail(w, err)
		return
	}
	var v int64
	if cur.Next() {
		v, _ = cur.Row()[0].(int64)
	}
	reply(w, map[string]any{"name": name, "value": v})
}

func (o *object) increment(w http.ResponseWriter, r *http.Request, name string) {
	by := int64(1)
	if s := r.URL.Query().Get("by"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			http.Error(w, "by must be an integer", http.StatusBadRequest)
			return
		}
		by = n
	}
	res, err := o.add(r.Context(), AddArg{By: by})
	if err != nil {
		fail(w, err)
		return
	}
	reply(w, map[string]any{"name": name, "value": res.Value})
}

func (o *object) setAlarm(w http.ResponseWriter, r *http.Request) {
	in := time.Second
	if s := r.URL.Query().Get("in"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			http.Error(w, `in must be a duration like "2s"`, http.StatusBadRequest)
			return
		}
		in = d
	}
	at := time.Now().Add(in).UTC()
	if err := o.state.Storage.SetAlarm(r.Context(), at); err != nil {
		fail(w, err)
		return
	}
	reply(w, map[string]any{"alarm_at": at.Format(time.RFC3339Nano)})
}

func (o *object) getAlarm(w http.ResponseWriter, r *http.Request) {
	at, err := o.state.Storage.GetAlarm(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	cur, err := o.state.Storage.Exec(r.Context(), "SELECT fired, last_fired_at FROM counter WHERE id = 1")
	if err != nil {
		fail(w, err)
		return
	}
	out := map[string]any{"alarm_at": nil, "fired": int64(0), "last_fired_at": nil}
	if !at.IsZero() {
		out["alarm_at"] = at.UTC().Format(time.RFC3339Nano)
	}
	if cur.Next() {
		out["fired"], out["last_fired_at"] = cur.Row()[0], cur.Row()[1]
	}
	reply(w, out)
}

// Alarm implements worker.Alarmer: it counts the firing.
func (o *object) Alarm(ctx context.Context, _ worker.AlarmInfo) error {
	if err := o.migrate(ctx); err != nil {
		return err
	}
	_, err := o.state.Storage.Exec(ctx,
		`INSERT INTO counter (id, fired, last_fired_at) VALUES (1, 1, ?1)
		 ON CONFLICT (id) DO UPDATE SET fired = fired + 1, last_fired_at = ?1`, time.Now().UTC().Format(time.RFC3339Nano))
	return err
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, err error) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("%w (%w)", worker.ErrUnavailable, err)
	}
	worker.WriteError(w, err)
}
