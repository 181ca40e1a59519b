package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// TestTallyRoundTrips: the round trips a handler makes under its request's
// context are reported in RoundTripsHeader (added to a forwarded
// response's counts) and counted in the request metric; round trips under
// other contexts are not.
func TestTallyRoundTrips(t *testing.T) {
	libsql := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"baton":null,"base_url":null,"results":[
			{"type":"ok","response":{"type":"batch","result":{"step_results":[{"cols":[],"rows":[],"affected_row_count":0,"last_insert_rowid":null}],"step_errors":[null]}}},
			{"type":"ok","response":{"type":"close"}}]}`)
	}))
	defer libsql.Close()
	cfg := &config.Config{Fleet: config.Fleet{Name: "f1", Member: "m1"}}
	coord, err := hranaclient.New(hranaclient.Config{URL: libsql.URL, Namespace: namespaces.Coord("f1")})
	if err != nil {
		t.Fatal(err)
	}
	objects := coord.WithNamespace("do-f1-counter")
	s := New(cfg, Options{})
	step := []hrana.BatchStep{{Stmt: hrana.NewStmt("SELECT 1")}}
	h := s.tallyRoundTrips(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, c := range []*hranaclient.Client{coord, objects, objects} {
			if _, err := c.Batch(r.Context(), step); err != nil {
				t.Error(err)
			}
		}
		if _, err := coord.Batch(t.Context(), step); err != nil { // not the request's
			t.Error(err)
		}
		if r.URL.Path == "/forwarded" {
			w.Header().Set(RoundTripsHeader, "coord=2 libsql=5")
		}
		io.WriteString(w, "ok")
	}))

	tests := []struct {
		path, ask, want string
	}{
		{"/", "1", "coord=1 libsql=2"},
		{"/forwarded", "1", "coord=3 libsql=7"},
		{"/", "", ""},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(http.MethodGet, tt.path, nil)
		if tt.ask != "" {
			req.Header.Set(RoundTripsHeader, tt.ask)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Header().Get(RoundTripsHeader); got != tt.want {
			t.Errorf("%s (asked %q): %s = %q, want %q", tt.path, tt.ask, RoundTripsHeader, got, tt.want)
		}
	}
	got := map[string]float64{}
	families, err := s.Metrics().Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range families {
		if mf.GetName() != "dwk_request_round_trips_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "store" {
					got[l.GetValue()] = m.GetCounter().GetValue()
				}
			}
		}
	}
	if want := map[string]float64{"coord": 3, "libsql": 6}; got["coord"] != want["coord"] || got["libsql"] != want["libsql"] {
		t.Errorf("dwk_request_round_trips_total = %v, want %v", got, want)
	}
}
