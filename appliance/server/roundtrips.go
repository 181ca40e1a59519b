package server

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// RoundTripsHeader reports the libSQL round trips a request cost. A client
// that sends it (any value) gets it back on the response as
// "coord=N libsql=M": N round trips to the fleet's coordination database
// and M to every other libSQL database (objects, D1, queues), made by the
// replicas the request went through (a forwarded request's holder and the
// replica that forwarded it). Only round trips made before the response
// started are in the header; the request metric counts them all.
//
// Round trips are counted by tagging the request's context with a
// [hranaclient.Tally]; work outside requests (liveness and member heartbeats,
// membership, alarm and queue polls) runs under other contexts and is
// never counted against a request. The embedded front door's own lease
// lookups are not counted: it answers them from its cache and reads a
// lease it has not seen in the background or, once per object, before
// routing.
const RoundTripsHeader = "X-Dwk-Round-Trips"

// requestRoundTrips counts, per replica, the libSQL round trips made on
// behalf of requests (dwk_request_round_trips_total, by store "coord" or
// "libsql"). dwk_coord_round_trips_total minus its "coord" series is the
// coordination traffic of background work.
type requestRoundTrips struct {
	coord, other prometheus.Counter
}

func newRequestRoundTrips(reg prometheus.Registerer, member string) requestRoundTrips {
	labels := prometheus.Labels{}
	if member != "" {
		labels["member"] = member
	}
	vec := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name:        "dwk_request_round_trips_total",
		Help:        "libSQL round trips made on behalf of HTTP requests, by store: coord (the coordination database) or libsql (any other database).",
		ConstLabels: labels,
	}, []string{"store"})
	reg.MustRegister(vec)
	return requestRoundTrips{coord: vec.WithLabelValues("coord"), other: vec.WithLabelValues("libsql")}
}

// tallyRoundTrips tags each request's context with a tally of the libSQL
// round trips made for it, adds the tally to the request metric when the
// handler returns, and reports it in RoundTripsHeader when asked.
func (s *Server) tallyRoundTrips(next http.Handler) http.Handler {
	coordNS := namespaces.Coord(s.cfg.Fleet.Name)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := hranaclient.NewTally(coordNS)
		r = r.WithContext(hranaclient.WithTally(r.Context(), t))
		if r.Header.Get(RoundTripsHeader) != "" {
			w = &roundTripsWriter{ResponseWriter: w, tally: t}
		}
		next.ServeHTTP(w, r)
		coord, other := t.Counts()
		s.roundTrips.coord.Add(float64(coord))
		s.roundTrips.other.Add(float64(other))
	})
}

// roundTripsWriter sets RoundTripsHeader when the response starts, adding
// this replica's tally to the counts a forwarded response already carries.
type roundTripsWriter struct {
	http.ResponseWriter
	tally   *hranaclient.Tally
	written bool
}

func (w *roundTripsWriter) stamp() {
	if w.written {
		return
	}
	w.written = true
	coord, other := w.tally.Counts()
	h := w.ResponseWriter.Header()
	var c, o int64
	if _, err := fmt.Sscanf(h.Get(RoundTripsHeader), "coord=%d libsql=%d", &c, &o); err == nil {
		coord, other = coord+c, other+o
	}
	h.Set(RoundTripsHeader, fmt.Sprintf("coord=%d libsql=%d", coord, other))
}

func (w *roundTripsWriter) WriteHeader(code int) {
	w.stamp()
	w.ResponseWriter.WriteHeader(code)
}

func (w *roundTripsWriter) Write(b []byte) (int, error) {
	w.stamp()
	return w.ResponseWriter.Write(b)
}

func (w *roundTripsWriter) Flush() {
	w.stamp()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack lets WebSocket upgrades through.
func (w *roundTripsWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("response writer cannot hijack")
	}
	return h.Hijack()
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *roundTripsWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
