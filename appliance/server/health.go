package server

import (
	"encoding/json"
	"net/http"
)

// health serves /livez and /readyz. /livez answers 200 while the process
// serves at all; /readyz answers 200 only while the replica takes new work,
// and 503 while it starts or drains, so load balancers stop choosing it.
func (s *Server) health(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/livez":
			writeJSON(w, http.StatusOK, map[string]string{"status": "live"})
		case "/readyz":
			st := s.State()
			code := http.StatusOK
			if st != StateReady {
				code = http.StatusServiceUnavailable
			}
			writeJSON(w, code, map[string]string{"status": string(st)})
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}
