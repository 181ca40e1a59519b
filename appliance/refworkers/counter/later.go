package counter

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// later answers POST /counter/{name}/later?after=D at once (202) and adds
// 1 to the counter D later (default 1s, at most 1h) with worker.WaitUntil:
// the increment happens after the response, and a draining replica waits
// for it.
func later(w http.ResponseWriter, r *http.Request, env *worker.Env, name string) {
	after := time.Second
	if s := r.URL.Query().Get("after"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 || d > time.Hour {
			http.Error(w, `after must be a duration from "0s" to "1h"`, http.StatusBadRequest)
			return
		}
		after = d
	}
	ns := env.Object(Binding)
	stub := ns.Get(ns.IDFromName(name))
	err := worker.WaitUntil(r.Context(), func(ctx context.Context) {
		select {
		case <-time.After(after):
		case <-ctx.Done():
			return
		}
		if err := incrementVia(ctx, stub, name); err != nil {
			slog.Warn("counter: later increment failed", "name", name, "err", err)
		}
	})
	if err != nil {
		worker.WriteError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusAccepted)
	fmt.Fprintf(w, "{\"name\":%q,\"after\":%q}\n", name, after)
}

func incrementVia(ctx context.Context, stub worker.Stub, name string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://counter/counter/"+name+"/increment", nil)
	if err != nil {
		return err
	}
	resp, err := stub.Fetch(ctx, req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s: %s", resp.Status, b)
	}
	return nil
}
