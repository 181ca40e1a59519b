package server

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/buildinfo"
)

// StatusReport is what GET /admin/status returns, and what `dwk status`
// prints for each member.
type StatusReport struct {
	Member     string    `json:"member"`
	Fleet      string    `json:"fleet"`
	Mode       string    `json:"mode"`
	State      State     `json:"state"`
	Version    string    `json:"version"`
	Schema     int       `json:"schema"`
	Public     string    `json:"public"`
	Internal   string    `json:"internal,omitempty"`
	ConfigHash string    `json:"config_hash"`
	Started    time.Time `json:"started"`
}

// adminHandler serves the admin listener: /metrics and the health endpoints
// without auth, and /admin/* behind the admin token. Without a configured
// token every /admin/ call is refused with 403, saying how to enable it.
func (s *Server) adminHandler(token string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.Handler())
	mux.Handle("GET /livez", s.health(http.NotFoundHandler()))
	mux.Handle("GET /readyz", s.health(http.NotFoundHandler()))
	mux.Handle("GET /admin/status", s.requireToken(token, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.Status())
	})))
	mux.Handle("POST /admin/drain", s.requireToken(token, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.RequestDrain()
		writeJSON(w, http.StatusAccepted, map[string]string{"status": "draining"})
	})))
	return mux
}

// requireToken lets a request through only with "Authorization: Bearer <token>".
func (s *Server) requireToken(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token == "" {
			writeJSON(w, http.StatusForbidden, map[string]string{"error": "admin API disabled: set admin.token in dwk.json"})
			return
		}
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="dwk admin"`)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "missing or wrong admin token (Authorization: Bearer <admin.token>)"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Status reports the replica's identity and state.
func (s *Server) Status() StatusReport {
	st := StatusReport{
		Member: s.member, Fleet: s.cfg.Fleet.Name, Mode: s.cfg.Storage.Mode, State: s.State(),
		Version: buildinfo.Version(), Schema: buildinfo.SchemaVersion, Internal: s.cfg.Listen.Advertise,
		ConfigHash: s.configHash, Started: s.started,
	}
	if a := s.Addr(); a != nil {
		st.Public = a.String()
	}
	return st
}
