package counter

import (
	"context"
	"net/http"
	"strconv"

	"github.com/dwk/fleet/appliance/worker"
)

// AddArg is the argument of the counter's Add method.
type AddArg struct {
	By int64 `json:"by"`
}

// AddResult is Add's result: the counter's new value.
type AddResult struct {
	Value int64 `json:"value"`
}

// Methods implements worker.RPCObject: Add adds By to the counter.
func (o *object) Methods() worker.Methods {
	return worker.Methods{"Add": worker.Typed(o.add)}
}

func (o *object) add(ctx context.Context, a AddArg) (AddResult, error) {
	if err := o.migrate(ctx); err != nil {
		return AddResult{}, err
	}
	cur, err := o.state.Storage.Exec(ctx,
		`INSERT INTO counter (id, value) VALUES (1, ?1)
		 ON CONFLICT (id) DO UPDATE SET value = value + ?1 RETURNING value`, a.By)
	if err != nil {
		return AddResult{}, err
	}
	row, err := cur.One()
	if err != nil {
		return AddResult{}, err
	}
	v, _ := row["value"].(int64)
	return AddResult{Value: v}, nil
}

// give calls Add on the counter named by ?to=, adding ?by= (default 1),
// from inside this counter: an object calling another object's method,
// wherever in the fleet that one is held.
func (o *object) give(w http.ResponseWriter, r *http.Request) {
	to := r.URL.Query().Get("to")
	if to == "" {
		http.Error(w, "give needs ?to=<counter name>", http.StatusBadRequest)
		return
	}
	by := int64(1)
	if s := r.URL.Query().Get("by"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			http.Error(w, "by must be an integer", http.StatusBadRequest)
			return
		}
		by = n
	}
	ns := o.env.Object(Binding)
	res, err := worker.Call[AddArg, AddResult](r.Context(), ns.Get(ns.IDFromName(to)), "Add", AddArg{By: by})
	if err != nil {
		fail(w, err)
		return
	}
	reply(w, map[string]any{"name": to, "value": res.Value})
}
