package server

import (
	"encoding/json"
	"net/http"

	"github.com/dwk/fleet/appliance/fleet/protocol"
)

// health serves /livez and /readyz. /livez answers 200 while the process
// serves at all; /readyz answers 200 only while the replica takes new work,
// and 503 while it starts, drains or is deposed (its peers cannot reach
// it; package depose), so load balancers stop choosing it.
func (s *Server) health(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/livez":
			writeJSON(w, http.StatusOK, map[string]string{"status": "live"})
		case "/readyz":
			st := string(s.State())
			code := http.StatusOK
			if s.State() != StateReady {
				code = http.StatusServiceUnavailable
			} else if a := s.live.Load(); a != nil && a.fleet != nil && a.fleet.deposed() {
				st, code = "deposed", http.StatusServiceUnavailable
			}
			writeJSON(w, code, map[string]string{"status": st})
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// closeWhenDraining closes a public connection after each answer once the
// replica is draining (protocol.CloseAfter).
func (s *Server) closeWhenDraining(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.State() == StateDraining {
			protocol.CloseAfter(w, r)
		}
		next.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}
